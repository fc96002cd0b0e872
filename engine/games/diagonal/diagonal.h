/* diagonal.h — what the 8x8 diagonal variants of the draughts family
 * (Brazilian, Pool, English, Czech, Italian, Spanish) share beyond the
 * move generator: Russian's evaluation terms with each game's own
 * compiled-in weights, and the move-count draw rules as data.
 *
 * Include from a variant's .c after draughts_impl.h. The variant then
 * defines, for its name p (e.g. brazilian) and prefix P (BRAZILIAN):
 *     #include "engine/games/p/weights.h"        its generated header
 *     DIAGONAL_WEIGHTS(P, p)                     the header, laid out at init
 *     static const DiagonalDraws DRAWS = {...};  its draw rules
 *     const Game p_game = { ..., DIAGONAL_GAME_FIELDS(P, p, evaluate, trace), ... };
 * A variant is its folder and its registry line (engine/games/registry.c).
 */
#ifndef DAMA_DIAGONAL_H
#define DAMA_DIAGONAL_H

#include <stdint.h>

#include "engine/eval.h"
#include "engine/games/draughts/draughts.h"
#include "engine/games/diagonal/diagonal_draws.h"
#include "engine/games/draughts/draughts_egtb.h"
#include "engine/games/russian/russian.h"
#include "engine/weights_id.h"

/* A variant's Game.rule_outcome and its endgame indexer (its tables are
 * built with the move-count rules ending wins early, docs/egtb.md) from
 * its DiagonalDraws `draws`; geometry is DRAUGHTS_EGTB_DIAGONAL, or
 * DRAUGHTS_EGTB_DIAGONAL_SHORT for short kings. */
#define DIAGONAL_RULES(p, draws, geometry)                                                          \
    static Outcome rule_outcome(const Position *pos, const char **reason)                         \
    {                                                                                              \
        Outcome o = diagonal_rule_outcome(&draws, pos, reason);                                    \
        if (o == OUTCOME_DRAW && draws.big_unless_won && *reason == draws.big_id)                  \
            return d_draw_unless_won((const DraughtsPos *)pos->data, *reason, reason);             \
        return o;                                                                                  \
    }                                                                                              \
    static int rule_plies_left(const Position *pos)                                                \
    {                                                                                              \
        const char *why;                                                                           \
        return diagonal_plies_left(&draws, (const DraughtsPos *)pos->data, &why);                  \
    }                                                                                              \
    static const EgtbIndexer EGTB = {.game = &p##_game, geometry, .rule_plies_left = rule_plies_left};

/* Bench positions after the start in the English numbering (Brazilian,
 * Pool, English): Russian's bench positions, square for square. */
#define DIAGONAL_BENCH_ENGLISH_NUMBERS                                                             \
    "B:W18,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",                         \
        "W:W18,19,22,23,24,25,27,28,29,31:B2,3,4,5,6,7,8,9,11,12",                                 \
        "B:W17,19,20,21,22,24,25,26,30,31:B1,3,5,6,7,8,10,11,12", "W:W19,20,22,23,25,26:B5,7,10,11,13,14", \
        "W:W22,23,24,K29:BK4,9,10", "B:WK18,21,30:B1,K3,12"

/* The compiled-in weights of a variant: its generated header in this
 * build's term layout (weights_laid_out), set by its Game.init. */
#define DIAGONAL_WEIGHTS(P, p)                                                                     \
    extern const Game p##_game;                                                                    \
    static const WeightsHeader p##_header = WEIGHTS_HEADER(P, p);                                  \
    static int32_t p##_weights_laid[RU_WEIGHTS_LEN];                                               \
    static const int32_t *p##_weights_in_use;                                                      \
    static const int32_t *p##_weights_default(void)                                                \
    {                                                                                              \
        return p##_weights_in_use ? p##_weights_in_use : p##_weights_laid;                        \
    }                                                                                              \
    static void p##_init(void)                                                                     \
    {                                                                                              \
        draughts_init();                                                                           \
        russian_eval_init();                                                                       \
        p##_weights_in_use = weights_laid_out(&p##_game, &p##_header, p##_weights_laid);            \
    }

/* A square table (32 weights) rank by rank from the owner's first rank. */
static const unsigned char DIAGONAL_BOARD_ROWS[] = {4, 4, 4, 4, 4, 4, 4, 4, 0};

/* The Game fields every diagonal variant fills the same way; evaluate and
 * trace are the evaluators of its quiet-move rules (Russian's for flying
 * kings, English's for short ones). */
#define DIAGONAL_GAME_FIELDS(P, p, evaluate_fn, trace_fn)                                           \
    DRAUGHTS_GAME_FUNCTIONS, .terms_len = RUSSIAN_EVAL_TERMS_LEN, .terms = russian_eval_terms,      \
    .weights_len = RU_WEIGHTS_LEN, .eg_offset = RU_EG_OFFSET, .phase_max = RU_PHASE_MAX,            \
    .scale_weight = RU_MAN, .weights_default = p##_weights_default, .weights_header = &p##_header, \
    .weights_lineage = P##_WEIGHTS_LINEAGE, .evaluate = evaluate_fn, .evaluate_trace = trace_fn,   \
    .init = p##_init, .board_rows = DIAGONAL_BOARD_ROWS, .value_unit = "centi-men",                \
    .search_params = NULL

/* Evaluators with the Game table's signatures. */
static inline int32_t diagonal_evaluate_flying(const Position *pos, const int32_t *w)
{
    return russian_evaluate(pos, w);
}
static inline int32_t diagonal_trace_flying(const Position *pos, const int32_t *w, EvalTrace *trace)
{
    return eval_trace_with(russian_evaluate_traced, pos, w, trace);
}

#endif
