/* turkish.h — Turkish draughts (dama): the game table and its evaluation
 * term layout. Rules: docs/rules/turkish.md. */
#ifndef DAMA_TURKISH_H
#define DAMA_TURKISH_H

#include <stdint.h>

#include "engine/game.h"

/* Weight offsets, one per term group of eval_terms.def. */
enum TurkishTerm {
#define TERM(name, count, doc) TU_##name, TU_##name##_LAST = TU_##name + (count)-1,
#include "engine/games/turkish/eval_terms.def"
#undef TERM
    TU_EG_OFFSET, /* opening weights; the endgame twins (NAME_EG) follow */
    TU_EG_BEFORE_ = TU_EG_OFFSET - 1,
#define TERM(name, count, doc) TU_##name##_EG, TU_##name##_EG_LAST = TU_##name##_EG + (count)-1,
#include "engine/games/turkish/eval_terms.def"
#undef TERM
    TU_WEIGHTS_LEN
};
/* Tapered evaluation (Game.eg_offset): the phase is the material, men and kings on the board (32 at the start). */
enum { TU_PHASE_MAX = 32 };
enum { TURKISH_WEIGHTS_LEN_TERMS = TU_WEIGHTS_LEN };

struct EvalScratch;
struct DraughtsPos;

extern const Game turkish_game;

/* Static evaluation, White's view, centi-men; pure, thread-safe. */
int32_t turkish_evaluate(const Position *pos, const int32_t *weights);
/* The same value, with the per-weight coefficients added into scratch
 * (the caller clears it first). */
int32_t turkish_evaluate_traced(const Position *pos, const int32_t *weights, struct EvalScratch *scratch);

/* Non-capturing moves of side's men, and of its kings (for the evaluation). */
int turkish_count_men_moves(const struct DraughtsPos *p, int side);
int turkish_count_king_moves(const struct DraughtsPos *p, int side);

#endif
