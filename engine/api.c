/* api.c — libdama-engine's public API (include/dama/engine.h) over the
 * game plug-ins (engine/game.h): the library's version and games, a game
 * and its position, moves, history, PDN and status. The search, levels
 * and weights are in api_search.c; api_internal.h is what they share.
 *
 * A DamaGame keeps the game's whole history (positions, moves, Zobrist
 * keys) so that repetition and the draw counters are judged as the rules
 * say, and its own copy of the weights. Nothing here prints or exits. */
#include "dama/engine.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/api_internal.h"
#include "engine/eval.h"
#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "engine/weights_id.h"

enum { HASH_MB_DEFAULT = 16 };

/* ---- one-time initialisation of the games' tables ---- */

static atomic_int init_state; /* 0 not started, 1 running, 2 done */

static void init_once(void)
{
    if (atomic_load_explicit(&init_state, memory_order_acquire) == 2) return;
    int expected = 0;
    if (atomic_compare_exchange_strong(&init_state, &expected, 1)) {
        game_init_all();
        atomic_store_explicit(&init_state, 2, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&init_state, memory_order_acquire) != 2) {
    }
}

/* ---- errors and text ---- */

int api_fail(DamaGame *g, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
    return status;
}

int api_put_text(DamaGame *g, const char *text, char *out, size_t size)
{
    if (!out || size == 0) return api_fail(g, DAMA_E_ARGUMENT, "no output buffer (%s)", out ? "size 0" : "out is NULL");
    size_t n = strlen(text);
    if (n >= size) {
        memcpy(out, text, size - 1);
        out[size - 1] = '\0';
        return api_fail(g, DAMA_E_BUFFER, "output buffer of %zu bytes too small: %zu needed", size, n + 1);
    }
    memcpy(out, text, n + 1);
    return ok(g);
}

int api_bad_color(DamaGame *g, const char *fn, DamaColor side)
{
    return api_fail(g, DAMA_E_ARGUMENT, "%s: side %d is neither DAMA_WHITE (0) nor DAMA_BLACK (1)", fn, (int)side);
}

const char *dama_version(void) { return DAMA_VERSION_STRING; }

const char *dama_status_text(int status)
{
    switch (status) {
    case DAMA_OK: return "ok";
    case DAMA_E_ARGUMENT: return "bad argument";
    case DAMA_E_GAME: return "unknown game";
    case DAMA_E_POSITION: return "bad position";
    case DAMA_E_MOVE: return "bad move";
    case DAMA_E_OVER: return "game over";
    case DAMA_E_UNDO: return "nothing to undo";
    case DAMA_E_WEIGHTS: return "bad weights";
    case DAMA_E_IO: return "cannot read file";
    case DAMA_E_MEMORY: return "out of memory";
    case DAMA_E_BUFFER: return "buffer too small";
    case DAMA_E_LEVEL: return "unknown level";
    default: return "unknown status";
    }
}

int dama_games_count(void)
{
    int n = 0;
    for (const Game *const *g = game_list(); *g; g++) n++;
    return n;
}

const char *dama_game_name_at(int i)
{
    if (i < 0 || i >= dama_games_count()) return NULL;
    return game_list()[i]->name;
}

/* ---- a game ---- */

static int start_at(DamaGame *g, const char *position)
{
    GameRecord rec;
    char err[ERR_MAX];
    if (position && !position[0]) position = NULL; /* "": the start position, as engine.h says */
    if (game_record_init(&rec, g->game, position, err) != 0) {
        if (strcmp(err, "out of memory") == 0) return api_fail(g, DAMA_E_MEMORY, "out of memory");
        return api_fail(g, DAMA_E_POSITION, "%s position '%.80s': %s", g->game->name, position ? position : "start", err);
    }
    game_record_free(&g->rec);
    g->rec = rec;
    g->moves_valid = false;
    g->has_result = false;
    if (g->engine) engine_clear(g->engine);
    return ok(g);
}

int dama_game_new(const char *name, const char *position, DamaGame **out, char *err)
{
    char local[DAMA_ERROR_MAX];
    if (!err) err = local;
    err[0] = '\0';
    if (!out) {
        snprintf(err, DAMA_ERROR_MAX, "dama_game_new: out is NULL");
        return DAMA_E_ARGUMENT;
    }
    *out = NULL;
    if (!name) {
        snprintf(err, DAMA_ERROR_MAX, "dama_game_new: game is NULL");
        return DAMA_E_ARGUMENT;
    }
    init_once();
    const Game *game = game_find(name);
    if (!game) {
        char names[160];
        game_names(names, sizeof names, ", ", NULL);
        snprintf(err, DAMA_ERROR_MAX, "unknown game '%.60s' (games: %s)", name ? name : "(null)", names);
        return DAMA_E_GAME;
    }
    DamaGame *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, DAMA_ERROR_MAX, "out of memory");
        return DAMA_E_MEMORY;
    }
    g->game = game;
    g->weights = eval_weights_new(game);
    if (!g->weights) {
        free(g);
        snprintf(err, DAMA_ERROR_MAX, "out of memory");
        return DAMA_E_MEMORY;
    }
    g->hash_mb = HASH_MB_DEFAULT;
    g->level = DAMA_LEVEL_MAX;
    memcpy(g->weights, game->weights_default(), sizeof(int32_t) * (size_t)game->weights_len);
    weights_layout_text(game, g->layout_text);
    atomic_init(&g->stop, 0);
    int rc = start_at(g, position);
    if (rc != DAMA_OK) {
        snprintf(err, DAMA_ERROR_MAX, "%s", g->error);
        dama_game_free(g);
        return rc;
    }
    *out = g;
    return DAMA_OK;
}

void dama_game_free(DamaGame *g)
{
    if (!g) return;
    engine_free(g->engine);
    game_record_free(&g->rec);
    free(g->weights);
    free(g);
}

const char *dama_last_error(const DamaGame *g) { return g ? g->error : "no game (NULL)"; }

int dama_game_reset(DamaGame *g, const char *position)
{
    if (!g) return DAMA_E_ARGUMENT;
    return start_at(g, position);
}

const char *dama_game_name(const DamaGame *g) { return g ? g->game->name : NULL; }
const char *dama_game_title(const DamaGame *g) { return g ? g->game->title : NULL; }

int dama_position(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    char fen[FEN_MAX];
    g->game->pos_to_fen(current(g), fen);
    return api_put_text(g, fen, out, size);
}

int dama_start_position(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    char fen[FEN_MAX];
    g->game->pos_to_fen(&g->rec.positions[0], fen);
    return api_put_text(g, fen, out, size);
}

/* ---- moves ---- */

int dama_moves_count(DamaGame *g) { return g ? legal(g)->len : 0; }

static const Move *move_at(DamaGame *g, int index)
{
    if (!g) return NULL;
    const MoveList *l = legal(g);
    if (index < 0 || index >= l->len) {
        api_fail(g, DAMA_E_MOVE, "move index %d out of range (%d legal moves)", index, l->len);
        return NULL;
    }
    return &l->moves[index];
}

int dama_move_text(DamaGame *g, int index, char *out, size_t size)
{
    const Move *m = move_at(g, index);
    if (!m) return g ? DAMA_E_MOVE : DAMA_E_ARGUMENT;
    char text[MOVE_STR_MAX];
    g->game->move_to_str(current(g), m, text);
    return api_put_text(g, text, out, size);
}

int dama_move_from(DamaGame *g, int index)
{
    const Move *m = move_at(g, index);
    return m ? m->from : -1;
}

int dama_move_to(DamaGame *g, int index)
{
    const Move *m = move_at(g, index);
    return m ? m->to : -1;
}

int dama_move_kind(DamaGame *g, int index)
{
    const Move *m = move_at(g, index);
    return m ? m->kind : -1;
}

int dama_move_promotion(DamaGame *g, int index)
{
    const Move *m = move_at(g, index);
    return m ? m->promo : -1;
}

int dama_move_captures(DamaGame *g, int index, int *squares, int max)
{
    const Move *m = move_at(g, index);
    if (!m) return -1;
    if (max < 0 || (max > 0 && !squares)) {
        api_fail(g, DAMA_E_ARGUMENT, "dama_move_captures: max %d with %s squares array", max, squares ? "a" : "no");
        return -1;
    }
    int n = 0;
    for (uint64_t b = m->captured; b; b &= b - 1) {
        if (squares && n < max) squares[n] = __builtin_ctzll(b) + g->game->captured_shift;
        n++;
    }
    return n;
}

int dama_move_find(DamaGame *g, const char *text, int *index)
{
    if (!g || !index) return g ? api_fail(g, DAMA_E_ARGUMENT, "dama_move_find: index is NULL") : DAMA_E_ARGUMENT;
    if (!text) return api_fail(g, DAMA_E_ARGUMENT, "dama_move_find: text is NULL");
    Move m;
    char err[ERR_MAX];
    if (g->game->move_from_str(current(g), text, &m, err) != 0) return api_fail(g, DAMA_E_MOVE, "%s", err);
    const MoveList *l = legal(g);
    for (int i = 0; i < l->len; i++) {
        if (same_move(&l->moves[i], &m)) {
            *index = i;
            return ok(g);
        }
    }
    return api_fail(g, DAMA_E_MOVE, "move '%.80s' is not legal here", text);
}

int api_apply(DamaGame *g, int index)
{
    const char *reason;
    Outcome o = outcome(g, &reason);
    if (o != OUTCOME_NONE)
        return api_fail(g, DAMA_E_OVER, "the game is over (%s %s): no move can be played", outcome_pdn(o), reason ? reason : "");
    const Move *m = move_at(g, index);
    if (!m) return DAMA_E_MOVE;
    Move move = *m;
    char err[ERR_MAX];
    if (game_record_apply(&g->rec, &move, err) != 0) return api_fail(g, DAMA_E_MEMORY, "%s", err);
    g->moves_valid = false;
    return ok(g);
}

int dama_apply_index(DamaGame *g, int index)
{
    if (!g) return DAMA_E_ARGUMENT;
    return api_apply(g, index);
}

int dama_apply_move(DamaGame *g, const char *text)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!text) return api_fail(g, DAMA_E_ARGUMENT, "dama_apply_move: text is NULL");
    const char *reason;
    Outcome o = outcome(g, &reason);
    if (o != OUTCOME_NONE)
        return api_fail(g, DAMA_E_OVER, "the game is over (%s %s): '%.60s' cannot be played", outcome_pdn(o),
                        reason ? reason : "", text);
    int index;
    int rc = dama_move_find(g, text, &index);
    return rc != DAMA_OK ? rc : api_apply(g, index);
}

int dama_undo(DamaGame *g)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (game_record_undo(&g->rec, 1) != 0) return api_fail(g, DAMA_E_UNDO, "no move to take back (at the start position)");
    g->moves_valid = false;
    return ok(g);
}

/* ---- history ---- */

int dama_ply_count(const DamaGame *g) { return g ? g->rec.len : 0; }

int dama_history_move(DamaGame *g, int ply, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (ply < 0 || ply >= g->rec.len) return api_fail(g, DAMA_E_ARGUMENT, "ply %d out of range (%d played)", ply, g->rec.len);
    char text[MOVE_STR_MAX];
    game_record_move_text(&g->rec, ply, text);
    return api_put_text(g, text, out, size);
}

void api_text_add(Text *t, const char *fmt, ...)
{
    if (t->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->oom = true;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap * 2 > t->len + (size_t)n + 1 ? t->cap * 2 : t->len + (size_t)n + 256;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* A PDN tag value: quotes and backslashes escaped, a control character
 * (a newline, a tab) written as a space — a tag is one line, and PDN
 * readers, dama's among them, refuse a value that goes on to the next. */
static void tag(Text *t, const char *name, const char *value)
{
    api_text_add(t, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        unsigned char u = (unsigned char)*c;
        api_text_add(t, "%s%c", *c == '"' || *c == '\\' ? "\\" : "", u < 0x20 || u == 0x7f ? ' ' : *c);
    }
    api_text_add(t, "\"]\n");
}

int dama_pdn(DamaGame *g, const char *white, const char *black, char *out, size_t size, size_t *len)
{
    if (!g) return DAMA_E_ARGUMENT;
    const char *reason;
    const char *result = outcome_pdn(outcome(g, &reason));
    Text t = {0};
    tag(&t, "Event", "dama-engine game");
    tag(&t, "White", white ? white : "?");
    tag(&t, "Black", black ? black : "?");
    tag(&t, "Result", result);
    if (g->game->pdn_gametype) {
        char type[16];
        snprintf(type, sizeof type, "%d", g->game->pdn_gametype);
        tag(&t, "GameType", type);
    }
    char fen[FEN_MAX], start[FEN_MAX];
    g->game->pos_to_fen(&g->rec.positions[0], fen);
    Position sp;
    char err[ERR_MAX];
    if (game_parse_position(g->game, NULL, &sp, err) == 0) g->game->pos_to_fen(&sp, start);
    else start[0] = '\0';
    if (strcmp(fen, start) != 0) tag(&t, "FEN", fen);
    api_text_add(&t, "\n");
    size_t column = 0;
    long number = 1;
    Color leader = game_first_mover(g->game); /* a move pair begins with its move */
    for (int i = 0; i <= g->rec.len; i++) {
        char unit[MOVE_STR_MAX + 32];
        if (i == g->rec.len) snprintf(unit, sizeof unit, "%s", result);
        else {
            char move[MOVE_STR_MAX];
            g->game->move_to_str(&g->rec.positions[i], &g->rec.moves[i], move);
            Color side = g->game->side_to_move(&g->rec.positions[i]);
            if (side == leader) snprintf(unit, sizeof unit, "%ld. %s", number, move);
            else if (i == 0) snprintf(unit, sizeof unit, "%ld... %s", number, move);
            else snprintf(unit, sizeof unit, "%s", move);
            if (side != leader) number++;
        }
        size_t n = strlen(unit);
        if (column > 0 && column + 1 + n > 79) {
            api_text_add(&t, "\n");
            column = 0;
        } else if (column > 0) {
            api_text_add(&t, " ");
            column++;
        }
        api_text_add(&t, "%s", unit);
        column += n;
    }
    api_text_add(&t, "\n");
    if (t.oom) {
        free(t.s);
        return api_fail(g, DAMA_E_MEMORY, "out of memory");
    }
    if (len) *len = t.len;
    int rc = !out && size == 0 && len /* the sizing call: nothing to write into */
                 ? api_fail(g, DAMA_E_BUFFER, "the PDN takes %zu bytes and its NUL (*len)", t.len)
                 : api_put_text(g, t.s, out, size);
    free(t.s);
    return rc;
}

/* ---- status ---- */

DamaResult dama_result(DamaGame *g, const char **reason)
{
    if (!g) {
        if (reason) *reason = NULL;
        return DAMA_ONGOING;
    }
    switch (outcome(g, reason)) {
    case OUTCOME_WHITE_WINS: return DAMA_WHITE_WINS;
    case OUTCOME_BLACK_WINS: return DAMA_BLACK_WINS;
    case OUTCOME_DRAW: return DAMA_DRAW;
    default: return DAMA_ONGOING;
    }
}

DamaColor dama_side_to_move(const DamaGame *g)
{
    return g && g->game->side_to_move(current(g)) == COLOR_BLACK ? DAMA_BLACK : DAMA_WHITE;
}

int dama_must_capture(const DamaGame *g) { return g && g->game->has_capture(current(g)) ? 1 : 0; }

int dama_has_royal(const DamaGame *g) { return g && g->game->royal_attacked ? 1 : 0; }

int dama_royal_attacked(const DamaGame *g, DamaColor side)
{
    if (!valid_color(side)) return -1;
    if (!g || !g->game->royal_attacked) return 0;
    return g->game->royal_attacked(current(g), side == DAMA_BLACK ? COLOR_BLACK : COLOR_WHITE) ? 1 : 0;
}

int dama_reversible_plies(const DamaGame *g) { return g ? g->game->reversible_plies(current(g)) : 0; }

int dama_repetitions(const DamaGame *g)
{
    if (!g) return 0;
    int window = g->game->reversible_plies(current(g));
    int seen = 1;
    for (int back = 2; back <= window && back <= g->rec.len; back += 2)
        if (g->rec.keys[g->rec.len - back] == g->rec.keys[g->rec.len]) seen++;
    return seen;
}
