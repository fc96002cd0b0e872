/* international.h — International draughts (10x10): the game table and its
 * evaluation term layout. Rules: docs/rules/international.md. */
#ifndef DAMA_INTERNATIONAL_H
#define DAMA_INTERNATIONAL_H

#include <stdint.h>

#include "engine/game.h"
#include "engine/games/draughts/draughts.h"

/* Weight offsets, one per term group of eval_terms.def. */
enum InternationalTerm {
#define TERM(name, count, doc) IN_##name, IN_##name##_LAST = IN_##name + (count)-1,
#include "engine/games/international/eval_terms.def"
#undef TERM
    IN_EG_OFFSET, /* opening weights; the endgame twins (NAME_EG) follow */
    IN_EG_BEFORE_ = IN_EG_OFFSET - 1,
#define TERM(name, count, doc) IN_##name##_EG, IN_##name##_EG_LAST = IN_##name##_EG + (count)-1,
#include "engine/games/international/eval_terms.def"
#undef TERM
    IN_WEIGHTS_LEN
};
/* Tapered evaluation (Game.eg_offset): the phase is the material, men and
 * kings on the board (40 at the start). */
enum { IN_PHASE_MAX = 40 };
/* Term groups: each of eval_terms.def and its endgame twin. */
enum {
    INTERNATIONAL_EVAL_TERMS_LEN = 0
#define TERM(name, count, doc) +2
#include "engine/games/international/eval_terms.def"
#undef TERM
};

struct EvalScratch;

extern const Game international_game;

/* Build the evaluation's tables (runaway cones). Idempotent, not
 * thread-safe (the game's init calls it). */
void international_eval_init(void);

/* Static evaluation, White's view, centi-men; pure, thread-safe. */
int32_t international_evaluate(const Position *pos, const int32_t *weights);
/* The same value, with the per-weight coefficients added into scratch. */
int32_t international_evaluate_traced(const Position *pos, const int32_t *weights, struct EvalScratch *scratch);

/* The generator's count of quiet moves of `side` (the MOBILITY term). */
int international_count_quiet(const DraughtsPos *p, int side);

#endif
