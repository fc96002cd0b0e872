/* api_internal.h — what the two files of the library API share: api.c
 * (a game, its position, moves, history, PDN and status) and
 * api_search.c (search, levels, draw offers, evaluation and weights). The
 * DamaGame behind the public handle, its error and text helpers and the
 * move helpers both use. Private: included only by engine/api*.c; the
 * interface is include/dama/engine.h. Nothing here is exported from the
 * shared library (symbols are hidden unless DAMA_API). */
#ifndef DAMA_ENGINE_API_INTERNAL_H
#define DAMA_ENGINE_API_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dama/engine.h"
#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "engine/weights_id.h"

enum { LIMITS_LEN = 8 }; /* DAMA_LIMIT_* */

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

/* ---- errors and text ---- */

/* Format the game's error message; returns status (for `return api_fail(...)`). */
int api_fail(DamaGame *g, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Clear the game's error message; DAMA_OK. */
static inline int ok(DamaGame *g)
{
    g->error[0] = '\0';
    return DAMA_OK;
}

/* Copy text to out[size]; DAMA_E_BUFFER (truncated) if it does not fit. */
int api_put_text(DamaGame *g, const char *text, char *out, size_t size);

/* A DamaColor argument is one of the two colours (a C caller may pass any
 * int). */
static inline bool valid_color(DamaColor side) { return side == DAMA_WHITE || side == DAMA_BLACK; }

/* DAMA_E_ARGUMENT with the message that fn was given a side that is no colour. */
int api_bad_color(DamaGame *g, const char *fn, DamaColor side);

/* A growing string (s NULL until the first api_text_add; the caller frees s). */
typedef struct Text {
    char *s;
    size_t len, cap;
    bool oom;
} Text;

/* Append to t, as printf; on failure t->oom is set and later adds do nothing. */
void api_text_add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the game ---- */

/* The position now (after the moves played). */
static inline const Position *current(const DamaGame *g) { return game_record_position(&g->rec); }

/* The legal moves of the position now, generated on first use. */
static inline const MoveList *legal(DamaGame *g)
{
    if (!g->moves_valid) {
        g->game->gen_moves(current(g), &g->legal, GEN_DISTINCT);
        g->moves_valid = true;
    }
    return &g->legal;
}

/* Are a and b the same move (squares, captures, kind, promotion)? */
static inline bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->kind == b->kind &&
           a->promo == b->promo;
}

/* The game's result by the rules (OUTCOME_NONE: it goes on), and why. */
static inline Outcome outcome(DamaGame *g, const char **reason)
{
    const char *why = NULL;
    Outcome o = game_record_outcome(&g->rec, &why, NULL);
    if (reason) *reason = why;
    return o;
}

/* Play legal move `index` of the position now: DAMA_OK, DAMA_E_OVER if the
 * game is over, DAMA_E_MOVE (index out of range) or DAMA_E_MEMORY. */
int api_apply(DamaGame *g, int index);

#endif
