/* api.c — libdama-engine's public API (include/dama/engine.h) over the
 * game plug-ins (engine/game.h) and the search (engine/search.h).
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

#include "engine/weights_json.h"
#include "engine/eval.h"
#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "engine/skill.h"
#include "engine/weights_id.h"
#include "util/rng.h"

enum { HASH_MB_DEFAULT = 16, HASH_MB_MAX = 65536, LIMITS_LEN = 8, MOVES_TO_GO_DEFAULT = 30 };

/* Levels of play are engine/skill.h's, weakest first: DamaLevel n is
 * skill_list()[n - 1]. A draw offer is accepted when the engine's score is
 * at most DRAW_ACCEPT_CP (level or worse for it). */
enum { DRAW_ACCEPT_CP = 0 };

static const SkillLevel *level_at(int level)
{
    const SkillLevel *const *list = skill_list();
    for (int i = 0; list[i]; i++)
        if (i + 1 == level) return list[i];
    return NULL;
}

/* Default search when no limit is set (level max): a second per move. */
enum { DEFAULT_MOVETIME_MS = 1000, DRAW_OFFER_NODES = 200000 };

struct DamaGame {
    const Game *game;
    GameRecord rec; /* start position, moves, positions and keys: the history */
    /* legal moves of the current position, built on demand */
    bool moves_valid;
    MoveList legal;
    char error[ERR_MAX];
    int32_t *weights; /* game->weights_len of them, owned */
    char hash_text[WEIGHTS_ID_MAX];
    char layout_text[WEIGHTS_ID_MAX];
    /* search */
    Engine *engine;
    int hash_mb;
    int64_t limits[LIMITS_LEN];
    int level;
    uint64_t rng;
    atomic_int stop;
    DamaStopFn stop_fn;
    void *stop_ctx;
    bool has_result;
    SearchResult result;
    int result_index;
    int result_score;
    int result_ply;      /* plies played when the search ran */
    uint64_t result_key; /* and the key of the position searched */
};

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

static int fail(DamaGame *g, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
    return status;
}

static int ok(DamaGame *g)
{
    g->error[0] = '\0';
    return DAMA_OK;
}

/* Copy text to out[size]; DAMA_E_BUFFER (truncated) if it does not fit. */
static int put_text(DamaGame *g, const char *text, char *out, size_t size)
{
    if (!out || size == 0) return fail(g, DAMA_E_ARGUMENT, "no output buffer");
    size_t n = strlen(text);
    if (n >= size) {
        memcpy(out, text, size - 1);
        out[size - 1] = '\0';
        return fail(g, DAMA_E_BUFFER, "output buffer of %zu bytes too small: %zu needed", size, n + 1);
    }
    memcpy(out, text, n + 1);
    return ok(g);
}

/* A DamaColor argument is one of the two colours (a C caller may pass any
 * int). */
static bool valid_color(DamaColor side) { return side == DAMA_WHITE || side == DAMA_BLACK; }

static int bad_color(DamaGame *g, const char *fn, DamaColor side)
{
    return fail(g, DAMA_E_ARGUMENT, "%s: side %d is neither DAMA_WHITE (0) nor DAMA_BLACK (1)", fn, (int)side);
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

static const Position *current(const DamaGame *g) { return game_record_position(&g->rec); }

static const MoveList *legal(DamaGame *g)
{
    if (!g->moves_valid) {
        g->game->gen_moves(current(g), &g->legal, GEN_DISTINCT);
        g->moves_valid = true;
    }
    return &g->legal;
}

static int start_at(DamaGame *g, const char *position)
{
    GameRecord rec;
    char err[ERR_MAX];
    if (game_record_init(&rec, g->game, position, err) != 0) {
        if (strcmp(err, "out of memory") == 0) return fail(g, DAMA_E_MEMORY, "out of memory");
        return fail(g, DAMA_E_POSITION, "%s position '%.80s': %s", g->game->name, position ? position : "start", err);
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
    memcpy(g->weights, game->weights_default, sizeof(int32_t) * (size_t)game->weights_len);
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
    return put_text(g, fen, out, size);
}

int dama_start_position(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    char fen[FEN_MAX];
    g->game->pos_to_fen(&g->rec.positions[0], fen);
    return put_text(g, fen, out, size);
}

/* ---- moves ---- */

int dama_moves_count(DamaGame *g) { return g ? legal(g)->len : 0; }

static const Move *move_at(DamaGame *g, int index)
{
    if (!g) return NULL;
    const MoveList *l = legal(g);
    if (index < 0 || index >= l->len) {
        fail(g, DAMA_E_MOVE, "move index %d out of range (%d legal moves)", index, l->len);
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
    return put_text(g, text, out, size);
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
        fail(g, DAMA_E_ARGUMENT, "dama_move_captures: max %d with %s squares array", max, squares ? "a" : "no");
        return -1;
    }
    int n = 0;
    for (uint64_t b = m->captured; b; b &= b - 1) {
        if (squares && n < max) squares[n] = __builtin_ctzll(b);
        n++;
    }
    return n;
}

static bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->kind == b->kind &&
           a->promo == b->promo;
}

int dama_move_find(DamaGame *g, const char *text, int *index)
{
    if (!g || !index) return g ? fail(g, DAMA_E_ARGUMENT, "dama_move_find: index is NULL") : DAMA_E_ARGUMENT;
    if (!text) return fail(g, DAMA_E_MOVE, "no move text (NULL)");
    Move m;
    char err[ERR_MAX];
    if (g->game->move_from_str(current(g), text, &m, err) != 0) return fail(g, DAMA_E_MOVE, "%s", err);
    const MoveList *l = legal(g);
    for (int i = 0; i < l->len; i++) {
        if (same_move(&l->moves[i], &m)) {
            *index = i;
            return ok(g);
        }
    }
    return fail(g, DAMA_E_MOVE, "move '%.80s' is not legal here", text);
}

static Outcome outcome(DamaGame *g, const char **reason)
{
    const char *why = NULL;
    Outcome o = game_record_outcome(&g->rec, &why, NULL);
    if (reason) *reason = why;
    return o;
}

static int apply(DamaGame *g, int index)
{
    const char *reason;
    Outcome o = outcome(g, &reason);
    if (o != OUTCOME_NONE)
        return fail(g, DAMA_E_OVER, "the game is over (%s %s): no move can be played", outcome_pdn(o), reason ? reason : "");
    const Move *m = move_at(g, index);
    if (!m) return DAMA_E_MOVE;
    Move move = *m;
    char err[ERR_MAX];
    if (game_record_apply(&g->rec, &move, err) != 0) return fail(g, DAMA_E_MEMORY, "%s", err);
    g->moves_valid = false;
    return ok(g);
}

int dama_apply_index(DamaGame *g, int index)
{
    if (!g) return DAMA_E_ARGUMENT;
    return apply(g, index);
}

int dama_apply_move(DamaGame *g, const char *text)
{
    if (!g) return DAMA_E_ARGUMENT;
    const char *reason;
    Outcome o = outcome(g, &reason);
    if (o != OUTCOME_NONE)
        return fail(g, DAMA_E_OVER, "the game is over (%s %s): '%.60s' cannot be played", outcome_pdn(o),
                    reason ? reason : "", text ? text : "");
    int index;
    int rc = dama_move_find(g, text, &index);
    return rc != DAMA_OK ? rc : apply(g, index);
}

int dama_undo(DamaGame *g)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (game_record_undo(&g->rec, 1) != 0) return fail(g, DAMA_E_UNDO, "no move to take back (at the start position)");
    g->moves_valid = false;
    return ok(g);
}

/* ---- history ---- */

int dama_ply_count(const DamaGame *g) { return g ? g->rec.len : 0; }

int dama_history_move(DamaGame *g, int ply, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (ply < 0 || ply >= g->rec.len) return fail(g, DAMA_E_ARGUMENT, "ply %d out of range (%d played)", ply, g->rec.len);
    char text[MOVE_STR_MAX];
    game_record_move_text(&g->rec, ply, text);
    return put_text(g, text, out, size);
}

/* A growing string. */
typedef struct Text {
    char *s;
    size_t len, cap;
    bool oom;
} Text;

static void text_add(Text *t, const char *fmt, ...)
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

/* A PDN tag value: quotes and backslashes escaped. */
static void tag(Text *t, const char *name, const char *value)
{
    text_add(t, "[%s \"", name);
    for (const char *c = value; *c; c++) text_add(t, "%s%c", *c == '"' || *c == '\\' ? "\\" : "", *c);
    text_add(t, "\"]\n");
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
    text_add(&t, "\n");
    size_t column = 0;
    long number = 1;
    for (int i = 0; i <= g->rec.len; i++) {
        char unit[MOVE_STR_MAX + 32];
        if (i == g->rec.len) snprintf(unit, sizeof unit, "%s", result);
        else {
            char move[MOVE_STR_MAX];
            g->game->move_to_str(&g->rec.positions[i], &g->rec.moves[i], move);
            Color side = g->game->side_to_move(&g->rec.positions[i]);
            if (side == COLOR_WHITE) snprintf(unit, sizeof unit, "%ld. %s", number, move);
            else if (i == 0) snprintf(unit, sizeof unit, "%ld... %s", number, move);
            else snprintf(unit, sizeof unit, "%s", move);
            if (side == COLOR_BLACK) number++;
        }
        size_t n = strlen(unit);
        if (column > 0 && column + 1 + n > 79) {
            text_add(&t, "\n");
            column = 0;
        } else if (column > 0) {
            text_add(&t, " ");
            column++;
        }
        text_add(&t, "%s", unit);
        column += n;
    }
    text_add(&t, "\n");
    if (t.oom) {
        free(t.s);
        return fail(g, DAMA_E_MEMORY, "out of memory");
    }
    if (len) *len = t.len;
    int rc = put_text(g, t.s, out, size);
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

/* ---- search ---- */

int dama_set_limit(DamaGame *g, int limit, int64_t value)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (limit < 0 || limit >= LIMITS_LEN) return fail(g, DAMA_E_ARGUMENT, "unknown limit %d (0..%d)", limit, LIMITS_LEN - 1);
    if (value < 0) return fail(g, DAMA_E_ARGUMENT, "limit %d: negative value %lld", limit, (long long)value);
    if (limit == DAMA_LIMIT_DEPTH && value > PLY_MAX - 8)
        return fail(g, DAMA_E_ARGUMENT, "depth %lld beyond the deepest search (%d plies)", (long long)value, PLY_MAX - 8);
    g->limits[limit] = value;
    return ok(g);
}

void dama_clear_limits(DamaGame *g)
{
    if (g) memset(g->limits, 0, sizeof g->limits);
}

int dama_set_hash_mb(DamaGame *g, int mb)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (mb < 1 || mb > HASH_MB_MAX) return fail(g, DAMA_E_ARGUMENT, "hash size %d MiB out of range 1..%d", mb, HASH_MB_MAX);
    engine_free(g->engine);
    g->engine = NULL;
    g->hash_mb = mb;
    return ok(g);
}

int dama_set_level(DamaGame *g, int level)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!level_at(level))
        return fail(g, DAMA_E_LEVEL, "unknown level %d (%d beginner .. %d max)", level, DAMA_LEVEL_BEGINNER, DAMA_LEVEL_MAX);
    g->level = level;
    return ok(g);
}

static void level_names(char out[160])
{
    size_t n = 0;
    out[0] = '\0';
    for (const SkillLevel *const *l = skill_list(); *l; l++) n += (size_t)snprintf(out + n, 160 - n, "%s%s", n ? ", " : "", (*l)->name);
}

int dama_set_level_name(DamaGame *g, const char *name)
{
    if (!g) return DAMA_E_ARGUMENT;
    for (int i = 1; level_at(i); i++)
        if (name && strcmp(name, level_at(i)->name) == 0) return dama_set_level(g, i);
    char names[160];
    level_names(names);
    return fail(g, DAMA_E_LEVEL, "unknown level '%.60s' (levels: %s)", name ? name : "(null)", names);
}

int dama_level(const DamaGame *g) { return g ? g->level : 0; }

const char *dama_level_name(int level) { return level_at(level) ? level_at(level)->name : NULL; }
const char *dama_level_doc(int level) { return level_at(level) ? level_at(level)->doc : NULL; }

void dama_set_seed(DamaGame *g, uint64_t seed)
{
    if (g) g->rng = seed;
}

void dama_set_stop_callback(DamaGame *g, DamaStopFn fn, void *ctx)
{
    if (!g) return;
    g->stop_fn = fn;
    g->stop_ctx = ctx;
}

void dama_stop(DamaGame *g)
{
    if (g) atomic_store(&g->stop, 1);
}

static int poll_stop(void *ctx)
{
    DamaGame *g = ctx;
    if (atomic_load_explicit(&g->stop, memory_order_relaxed)) return 1;
    return g->stop_fn && g->stop_fn(g->stop_ctx) ? 1 : 0;
}

static int ensure_engine(DamaGame *g)
{
    if (g->engine) return 0;
    g->engine = engine_new(g->game, (size_t)g->hash_mb);
    if (!g->engine) return -1;
    engine_set_weights(g->engine, g->weights);
    engine_set_stop_fn(g->engine, poll_stop, g);
    return 0;
}

/* The limits of this search: the app's, the clock turned into a movetime,
 * the level's depth cap, and the default when nothing is set. */
static SearchLimits effective_limits(const DamaGame *g, bool *timed)
{
    SearchLimits l = {.depth = (int)g->limits[DAMA_LIMIT_DEPTH], .nodes = (uint64_t)g->limits[DAMA_LIMIT_NODES],
                      .movetime_ms = g->limits[DAMA_LIMIT_MOVETIME_MS]};
    bool black = g->game->side_to_move(current(g)) == COLOR_BLACK;
    int64_t left = g->limits[black ? DAMA_LIMIT_BLACK_TIME_MS : DAMA_LIMIT_WHITE_TIME_MS];
    int64_t inc = g->limits[black ? DAMA_LIMIT_BLACK_INC_MS : DAMA_LIMIT_WHITE_INC_MS];
    if (left > 0) {
        int64_t mtg = g->limits[DAMA_LIMIT_MOVES_TO_GO] > 0 ? g->limits[DAMA_LIMIT_MOVES_TO_GO] : MOVES_TO_GO_DEFAULT;
        int64_t budget = left / mtg + inc * 3 / 4;
        if (budget > left / 3) budget = left / 3;
        if (budget < 1) budget = 1;
        if (!l.movetime_ms || budget < l.movetime_ms) l.movetime_ms = budget;
    }
    if (!l.depth && !l.nodes && !l.movetime_ms) l.movetime_ms = DEFAULT_MOVETIME_MS;
    *timed = l.movetime_ms > 0;
    return l;
}

/* The move of the level (skill_choose: a plain search at max, a random
 * pick among near-best moves below it); fills g->result. */
static int choose(DamaGame *g, const SearchLimits *l)
{
    char err[ERR_MAX];
    if (skill_choose(g->engine, g->game, current(g), g->rec.keys, g->rec.len, level_at(g->level), l, &g->rng, &g->result, err) != 0)
        return fail(g, DAMA_E_MEMORY, "%s", err);
    g->result_score = g->result.score;
    const MoveList *ml = legal(g);
    g->result_index = 0;
    for (int i = 0; i < ml->len; i++)
        if (same_move(&ml->moves[i], &g->result.best)) g->result_index = i;
    return DAMA_OK;
}

static int run_search(DamaGame *g)
{
    const char *reason;
    Outcome o = outcome(g, &reason);
    if (o != OUTCOME_NONE)
        return fail(g, DAMA_E_OVER, "the game is over (%s %s): nothing to search", outcome_pdn(o), reason ? reason : "");
    if (ensure_engine(g) != 0) return fail(g, DAMA_E_MEMORY, "out of memory (transposition table of %d MiB)", g->hash_mb);
    atomic_store(&g->stop, 0);
    bool timed;
    SearchLimits l = effective_limits(g, &timed);
    int rc = choose(g, &l);
    if (rc != DAMA_OK) return rc;
    g->has_result = true;
    g->result_ply = g->rec.len;
    g->result_key = g->rec.keys[g->rec.len];
    return ok(g);
}

int dama_search(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    int rc = run_search(g);
    if (rc != DAMA_OK) return rc;
    char text[MOVE_STR_MAX];
    g->game->move_to_str(current(g), &g->result.best, text);
    return out ? put_text(g, text, out, size) : ok(g);
}

int dama_play(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    int rc = run_search(g);
    if (rc != DAMA_OK) return rc;
    char text[MOVE_STR_MAX];
    g->game->move_to_str(current(g), &g->result.best, text);
    rc = apply(g, g->result_index);
    if (rc != DAMA_OK) return rc;
    return out ? put_text(g, text, out, size) : ok(g);
}

int dama_search_index(const DamaGame *g) { return g && g->has_result ? g->result_index : -1; }
int dama_search_score(const DamaGame *g) { return g && g->has_result ? g->result_score : 0; }
int dama_search_depth(const DamaGame *g) { return g && g->has_result ? g->result.depth : 0; }
uint64_t dama_search_nodes(const DamaGame *g) { return g && g->has_result ? g->result.nodes : 0; }

int dama_search_pv(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!g->has_result) return fail(g, DAMA_E_ARGUMENT, "no search yet");
    /* The PV starts at the position searched (before dama_play's move). */
    int base = g->result_ply;
    if (base > g->rec.len || g->rec.keys[base] != g->result_key)
        return fail(g, DAMA_E_ARGUMENT, "the position searched is no longer in the game (taken back)");
    Text t = {0};
    Position pos = g->rec.positions[base];
    for (int i = 0; i < g->result.pv_len; i++) {
        char move[MOVE_STR_MAX];
        g->game->move_to_str(&pos, &g->result.pv[i], move);
        text_add(&t, "%s%s", i ? " " : "", move);
        Position next;
        g->game->make_move(&pos, &g->result.pv[i], &next);
        pos = next;
    }
    if (!t.s) text_add(&t, "%s", "");
    if (t.oom) {
        free(t.s);
        return fail(g, DAMA_E_MEMORY, "out of memory");
    }
    int rc = put_text(g, t.s, out, size);
    free(t.s);
    return rc;
}

int dama_accept_draw(DamaGame *g, DamaColor side, int *accept)
{
    if (!g || !accept) return g ? fail(g, DAMA_E_ARGUMENT, "dama_accept_draw: accept is NULL") : DAMA_E_ARGUMENT;
    if (!valid_color(side)) return bad_color(g, "dama_accept_draw", side);
    const char *reason;
    Outcome o = outcome(g, &reason);
    if (o != OUTCOME_NONE) {
        *accept = o == OUTCOME_DRAW;
        return ok(g);
    }
    if (ensure_engine(g) != 0) return fail(g, DAMA_E_MEMORY, "out of memory (transposition table of %d MiB)", g->hash_mb);
    atomic_store(&g->stop, 0);
    bool timed;
    SearchLimits l = effective_limits(g, &timed);
    if (!g->limits[DAMA_LIMIT_DEPTH] && !g->limits[DAMA_LIMIT_NODES] && !g->limits[DAMA_LIMIT_MOVETIME_MS] && !timed) {
        l.nodes = DRAW_OFFER_NODES;
    }
    *accept = engine_accept_draw(g->engine, g->game, current(g), g->rec.keys, g->rec.len,
                                 side == DAMA_BLACK ? COLOR_BLACK : COLOR_WHITE, &l, DRAW_ACCEPT_CP, NULL)
                  ? 1
                  : 0;
    return ok(g);
}

int dama_evaluate(DamaGame *g) { return g ? g->game->evaluate(current(g), g->weights) : 0; }

/* ---- weights ---- */

int dama_weights_len(const DamaGame *g) { return g ? g->game->weights_len : 0; }
int dama_terms_count(const DamaGame *g) { return g ? g->game->terms_len : 0; }

static const EvalTerm *term_at(const DamaGame *g, int i) { return g && i >= 0 && i < g->game->terms_len ? &g->game->terms[i] : NULL; }

const char *dama_term_name(const DamaGame *g, int i) { return term_at(g, i) ? term_at(g, i)->name : NULL; }
int dama_term_offset(const DamaGame *g, int i) { return term_at(g, i) ? term_at(g, i)->offset : -1; }
int dama_term_size(const DamaGame *g, int i) { return term_at(g, i) ? term_at(g, i)->count : -1; }
const char *dama_term_doc(const DamaGame *g, int i) { return term_at(g, i) ? term_at(g, i)->doc : NULL; }

const char *dama_weights_layout(const DamaGame *g) { return g ? g->layout_text : NULL; }

const char *dama_weights_hash(DamaGame *g)
{
    if (!g) return NULL;
    weights_hash_text(g->game, g->weights, g->hash_text);
    return g->hash_text;
}

int dama_weights_get(DamaGame *g, int32_t *out, int len)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!out || len != g->game->weights_len)
        return fail(g, DAMA_E_ARGUMENT, "weights buffer of %d, %s has %d weights", len, g->game->name, g->game->weights_len);
    memcpy(out, g->weights, sizeof(int32_t) * (size_t)len);
    return ok(g);
}

static void weights_changed(DamaGame *g)
{
    g->has_result = false;
    if (g->engine) engine_clear(g->engine); /* TT scores came from the old weights */
}

int dama_weights_set(DamaGame *g, const int32_t *w, int len)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!w || len != g->game->weights_len)
        return fail(g, DAMA_E_WEIGHTS, "%d weights given, %s has %d", w ? len : 0, g->game->name, g->game->weights_len);
    for (int i = 0; i < len; i++)
        if (w[i] < -WEIGHT_VALUE_MAX || w[i] > WEIGHT_VALUE_MAX)
            return fail(g, DAMA_E_WEIGHTS, "weight %d is %d, outside -%d..%d", i, (int)w[i], WEIGHT_VALUE_MAX, WEIGHT_VALUE_MAX);
    memcpy(g->weights, w, sizeof(int32_t) * (size_t)len);
    weights_changed(g);
    return ok(g);
}

void dama_weights_default(DamaGame *g)
{
    if (!g) return;
    memcpy(g->weights, g->game->weights_default, sizeof(int32_t) * (size_t)g->game->weights_len);
    weights_changed(g);
}

int dama_weights_parse_json(DamaGame *g, const char *text)
{
    if (!g) return DAMA_E_ARGUMENT;
    char err[ERR_MAX];
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(g->game);
    if (!w) return fail(g, DAMA_E_MEMORY, "out of memory");
    if (weights_json_parse(g->game, text, w, err) != 0) return fail(g, DAMA_E_WEIGHTS, "%s", err);
    memcpy(g->weights, w, sizeof(int32_t) * (size_t)g->game->weights_len);
    weights_changed(g);
    return ok(g);
}

enum { JSON_FILE_MAX = 16 * 1024 * 1024 };

int dama_weights_load_json(DamaGame *g, const char *path)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!path) return fail(g, DAMA_E_ARGUMENT, "no path (NULL)");
    FILE *f = fopen(path, "rb");
    if (!f) return fail(g, DAMA_E_IO, "cannot open weights JSON '%.200s'", path);
    char *text = NULL;
    size_t len = 0, cap = 0;
    int rc = DAMA_OK;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *t = cap > JSON_FILE_MAX ? NULL : realloc(text, cap);
            if (!t) {
                rc = cap > JSON_FILE_MAX ? fail(g, DAMA_E_WEIGHTS, "weights JSON '%.200s' is larger than 16 MiB", path)
                                         : fail(g, DAMA_E_MEMORY, "out of memory");
                break;
            }
            text = t;
        }
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) {
            if (ferror(f)) rc = fail(g, DAMA_E_IO, "cannot read weights JSON '%.200s' (a directory?)", path);
            break;
        }
    }
    fclose(f);
    if (rc == DAMA_OK) {
        text[len] = '\0';
        if (strlen(text) != len) rc = fail(g, DAMA_E_WEIGHTS, "weights JSON '%.200s' contains a NUL byte", path);
    }
    if (rc == DAMA_OK) {
        char err[ERR_MAX];
        EVAL_AUTO_FREE int32_t *w = eval_weights_new(g->game);
        if (!w) rc = fail(g, DAMA_E_MEMORY, "out of memory");
        else if (weights_json_parse(g->game, text, w, err) != 0) rc = fail(g, DAMA_E_WEIGHTS, "%.200s: %s", path, err);
        else {
            memcpy(g->weights, w, sizeof(int32_t) * (size_t)g->game->weights_len);
            weights_changed(g);
            ok(g);
        }
    }
    free(text);
    return rc;
}
