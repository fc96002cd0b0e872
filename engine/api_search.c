/* api_search.c — libdama-engine's public API (include/dama/engine.h):
 * search limits, levels of play, the search and its result, draw offers,
 * the evaluation and the weights (their terms, identity and JSON files).
 * The game, its moves and history are in api.c. Nothing here prints or
 * exits. */
#include "dama/engine.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/api_internal.h"
#include "engine/eval.h"
#include "engine/game.h"
#include "engine/search.h"
#include "engine/skill.h"
#include "engine/timeman.h"
#include "engine/weights_id.h"
#include "engine/weights_json.h"
#include "util/file_read.h"

/* MOVES_TO_GO_MAX: a larger moves-to-go is passed on as this (the time
 * manager counts at most 50 anyway). */
enum { HASH_MB_MAX = 65536, MOVES_TO_GO_MAX = 10000 };

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

/* ---- search ---- */

int dama_set_limit(DamaGame *g, int limit, int64_t value)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (limit < 0 || limit >= LIMITS_LEN) return api_fail(g, DAMA_E_ARGUMENT, "unknown limit %d (0..%d)", limit, LIMITS_LEN - 1);
    if (value < 0) return api_fail(g, DAMA_E_ARGUMENT, "limit %d: negative value %lld", limit, (long long)value);
    if (limit == DAMA_LIMIT_DEPTH && value > PLY_MAX - 8)
        return api_fail(g, DAMA_E_ARGUMENT, "depth %lld beyond the deepest search (%d plies)", (long long)value, PLY_MAX - 8);
    g->limits[limit] = value;
    return ok(g);
}

void dama_clear_limits(DamaGame *g)
{
    if (g) memset(g->limits, 0, sizeof g->limits);
}

static int poll_stop(void *ctx);

int dama_set_hash_mb(DamaGame *g, int mb)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (mb < 1 || mb > HASH_MB_MAX) return api_fail(g, DAMA_E_ARGUMENT, "hash size %d MiB out of range 1..%d", mb, HASH_MB_MAX);
    /* the new table made now, so that a size that cannot be had is told
     * here and the table before it stays (not at the next search) */
    Engine *e = engine_new(g->game, (size_t)mb);
    if (!e) return api_fail(g, DAMA_E_MEMORY, "out of memory (transposition table of %d MiB; the %d MiB one stays)", mb, g->hash_mb);
    engine_set_weights(e, g->weights);
    engine_set_stop_fn(e, poll_stop, g);
    engine_free(g->engine);
    g->engine = e;
    g->hash_mb = mb;
    return ok(g);
}

int dama_set_level(DamaGame *g, int level)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!level_at(level))
        return api_fail(g, DAMA_E_LEVEL, "unknown level %d (%d beginner .. %d max)", level, DAMA_LEVEL_BEGINNER, DAMA_LEVEL_MAX);
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
    if (!name) return api_fail(g, DAMA_E_ARGUMENT, "dama_set_level_name: name is NULL");
    for (int i = 1; level_at(i); i++)
        if (name && strcmp(name, level_at(i)->name) == 0) return dama_set_level(g, i);
    char names[160];
    level_names(names);
    return api_fail(g, DAMA_E_LEVEL, "unknown level '%.60s' (levels: %s)", name ? name : "(null)", names);
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

/* The limits of this search: the app's, the side to move's clock handed
 * to the search (the time manager, engine/timeman.h, makes its soft and
 * hard limits, as for the Hub engine and the players of matches), the
 * level's depth cap, and the default when nothing is set. A movetime set
 * beside a clock applies when it is shorter than the clock's hard limit
 * (a movetime of its own stands in for the clock). */
static SearchLimits effective_limits(const DamaGame *g, bool *timed)
{
    SearchLimits l = {.depth = (int)g->limits[DAMA_LIMIT_DEPTH], .nodes = (uint64_t)g->limits[DAMA_LIMIT_NODES],
                      .movetime_ms = g->limits[DAMA_LIMIT_MOVETIME_MS]};
    bool black = g->game->side_to_move(current(g)) == COLOR_BLACK;
    int64_t left = g->limits[black ? DAMA_LIMIT_BLACK_TIME_MS : DAMA_LIMIT_WHITE_TIME_MS];
    int64_t inc = g->limits[black ? DAMA_LIMIT_BLACK_INC_MS : DAMA_LIMIT_WHITE_INC_MS];
    if (left > 0) {
        int64_t mtg = g->limits[DAMA_LIMIT_MOVES_TO_GO];
        int movestogo = mtg > MOVES_TO_GO_MAX ? MOVES_TO_GO_MAX : (int)mtg; /* 0: the time manager's default */
        int64_t soft, hard;
        timeman_budget(left, inc, movestogo, &soft, &hard);
        if (!l.movetime_ms || hard < l.movetime_ms) {
            l.movetime_ms = 0;
            l.time_ms = left;
            l.inc_ms = inc;
            l.movestogo = movestogo;
        }
    }
    if (!l.depth && !l.nodes && !l.movetime_ms && !l.time_ms) l.movetime_ms = DEFAULT_MOVETIME_MS;
    *timed = l.movetime_ms > 0 || l.time_ms > 0;
    return l;
}

/* The move of the level (skill_choose: a plain search at max, a random
 * pick among near-best moves below it); fills g->result. */
static int choose(DamaGame *g, const SearchLimits *l)
{
    char err[ERR_MAX];
    if (skill_choose(g->engine, g->game, current(g), g->rec.keys, g->rec.len, level_at(g->level), l, &g->rng, &g->result, err) != 0)
        return api_fail(g, DAMA_E_MEMORY, "%s", err);
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
        return api_fail(g, DAMA_E_OVER, "the game is over (%s %s): nothing to search", outcome_pdn(o), reason ? reason : "");
    if (ensure_engine(g) != 0) return api_fail(g, DAMA_E_MEMORY, "out of memory (transposition table of %d MiB)", g->hash_mb);
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
    return out ? api_put_text(g, text, out, size) : ok(g);
}

int dama_play(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    int rc = run_search(g);
    if (rc != DAMA_OK) return rc;
    char text[MOVE_STR_MAX];
    g->game->move_to_str(current(g), &g->result.best, text);
    /* The text first: a failed call leaves the game as it was, so a move
     * whose text does not fit (DAMA_E_BUFFER) is not applied. */
    if (out && (rc = api_put_text(g, text, out, size)) != DAMA_OK) return rc;
    rc = api_apply(g, g->result_index);
    return rc != DAMA_OK ? rc : ok(g);
}

int dama_search_index(const DamaGame *g) { return g && g->has_result ? g->result_index : -1; }
int dama_search_score(const DamaGame *g) { return g && g->has_result ? g->result_score : 0; }
int dama_search_depth(const DamaGame *g) { return g && g->has_result ? g->result.depth : 0; }
uint64_t dama_search_nodes(const DamaGame *g) { return g && g->has_result ? g->result.nodes : 0; }

int dama_search_pv(DamaGame *g, char *out, size_t size)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!g->has_result) return api_fail(g, DAMA_E_ARGUMENT, "no search yet");
    /* The PV starts at the position searched (before dama_play's move). */
    int base = g->result_ply;
    if (base > g->rec.len || g->rec.keys[base] != g->result_key)
        return api_fail(g, DAMA_E_ARGUMENT, "the position searched is no longer in the game (taken back)");
    Text t = {0};
    Position pos = g->rec.positions[base];
    for (int i = 0; i < g->result.pv_len; i++) {
        char move[MOVE_STR_MAX];
        g->game->move_to_str(&pos, &g->result.pv[i], move);
        api_text_add(&t, "%s%s", i ? " " : "", move);
        Position next;
        g->game->make_move(&pos, &g->result.pv[i], &next);
        pos = next;
    }
    if (!t.s) api_text_add(&t, "%s", "");
    if (t.oom) {
        free(t.s);
        return api_fail(g, DAMA_E_MEMORY, "out of memory");
    }
    int rc = api_put_text(g, t.s, out, size);
    free(t.s);
    return rc;
}

int dama_accept_draw(DamaGame *g, DamaColor side, int *accept)
{
    if (!g || !accept) return g ? api_fail(g, DAMA_E_ARGUMENT, "dama_accept_draw: accept is NULL") : DAMA_E_ARGUMENT;
    if (!valid_color(side)) return api_bad_color(g, "dama_accept_draw", side);
    const char *reason;
    Outcome o = outcome(g, &reason);
    if (o != OUTCOME_NONE) {
        *accept = o == OUTCOME_DRAW;
        return ok(g);
    }
    if (ensure_engine(g) != 0) return api_fail(g, DAMA_E_MEMORY, "out of memory (transposition table of %d MiB)", g->hash_mb);
    atomic_store(&g->stop, 0);
    bool timed;
    SearchLimits l = effective_limits(g, &timed);
    if (!g->limits[DAMA_LIMIT_DEPTH] && !g->limits[DAMA_LIMIT_NODES] && !g->limits[DAMA_LIMIT_MOVETIME_MS] &&
        !l.time_ms) /* none set (effective_limits' default movetime is not one): a fixed, deterministic size */
        l = (SearchLimits){.nodes = DRAW_OFFER_NODES};
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
    if (!out) return api_fail(g, DAMA_E_ARGUMENT, "dama_weights_get: out is NULL");
    if (len != g->game->weights_len)
        return api_fail(g, DAMA_E_ARGUMENT, "weights buffer of %d, %s has %d weights", len, g->game->name, g->game->weights_len);
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
    if (!w) return api_fail(g, DAMA_E_ARGUMENT, "dama_weights_set: weights is NULL");
    if (len != g->game->weights_len)
        return api_fail(g, DAMA_E_WEIGHTS, "%d weights given, %s has %d", len, g->game->name, g->game->weights_len);
    for (int i = 0; i < len; i++)
        if (w[i] < -WEIGHT_VALUE_MAX || w[i] > WEIGHT_VALUE_MAX)
            return api_fail(g, DAMA_E_WEIGHTS, "weight %d is %d, outside -%d..%d", i, (int)w[i], WEIGHT_VALUE_MAX, WEIGHT_VALUE_MAX);
    memcpy(g->weights, w, sizeof(int32_t) * (size_t)len);
    weights_changed(g);
    return ok(g);
}

void dama_weights_default(DamaGame *g)
{
    if (!g) return;
    memcpy(g->weights, g->game->weights_default(), sizeof(int32_t) * (size_t)g->game->weights_len);
    weights_changed(g);
}

int dama_weights_parse_json(DamaGame *g, const char *text)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!text) return api_fail(g, DAMA_E_ARGUMENT, "dama_weights_parse_json: text is NULL");
    char err[ERR_MAX];
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(g->game);
    if (!w) return api_fail(g, DAMA_E_MEMORY, "out of memory");
    if (weights_json_parse(g->game, text, w, err) != 0) return api_fail(g, DAMA_E_WEIGHTS, "%s", err);
    memcpy(g->weights, w, sizeof(int32_t) * (size_t)g->game->weights_len);
    weights_changed(g);
    return ok(g);
}

enum { JSON_FILE_MAX = 16 * 1024 * 1024 };

int dama_weights_load_json(DamaGame *g, const char *path)
{
    if (!g) return DAMA_E_ARGUMENT;
    if (!path) return api_fail(g, DAMA_E_ARGUMENT, "no path (NULL)");
    char ferr[ERR_MAX];
    FILE *f = file_open_read_as(path, "weights JSON", ferr); /* a folder is said as such */
    if (!f) return api_fail(g, DAMA_E_IO, "%s", ferr);
    char *text = NULL;
    size_t len = 0, cap = 0;
    int rc = DAMA_OK;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *t = cap > JSON_FILE_MAX ? NULL : realloc(text, cap);
            if (!t) {
                rc = cap > JSON_FILE_MAX ? api_fail(g, DAMA_E_WEIGHTS, "weights JSON '%.200s' is larger than 16 MiB", path)
                                         : api_fail(g, DAMA_E_MEMORY, "out of memory");
                break;
            }
            text = t;
        }
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) {
            if (ferror(f)) rc = api_fail(g, DAMA_E_IO, "cannot read weights JSON '%.200s'", path);
            break;
        }
    }
    fclose(f);
    if (rc == DAMA_OK) {
        text[len] = '\0';
        if (strlen(text) != len) rc = api_fail(g, DAMA_E_WEIGHTS, "weights JSON '%.200s' contains a NUL byte", path);
    }
    if (rc == DAMA_OK) {
        char err[ERR_MAX];
        EVAL_AUTO_FREE int32_t *w = eval_weights_new(g->game);
        if (!w) rc = api_fail(g, DAMA_E_MEMORY, "out of memory");
        else if (weights_json_parse(g->game, text, w, err) != 0) rc = api_fail(g, DAMA_E_WEIGHTS, "%.200s: %s", path, err);
        else {
            memcpy(g->weights, w, sizeof(int32_t) * (size_t)g->game->weights_len);
            weights_changed(g);
            ok(g);
        }
    }
    free(text);
    return rc;
}
