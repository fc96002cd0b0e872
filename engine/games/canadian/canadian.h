/* canadian.h — Canadian draughts (12x12): the game table and its
 * evaluation term layout. Rules: docs/rules/canadian.md. */
#ifndef DAMA_CANADIAN_H
#define DAMA_CANADIAN_H

#include <stdint.h>

#include "engine/game.h"
#include "engine/games/draughts/draughts.h"

/* Weight offsets, one per term group of eval_terms.def. */
enum CanadianTerm {
#define TERM(name, count, doc) CA_##name, CA_##name##_LAST = CA_##name + (count)-1,
#include "engine/games/canadian/eval_terms.def"
#undef TERM
    CA_EG_OFFSET, /* opening weights; the endgame twins (NAME_EG) follow */
    CA_EG_BEFORE_ = CA_EG_OFFSET - 1,
#define TERM(name, count, doc) CA_##name##_EG, CA_##name##_EG_LAST = CA_##name##_EG + (count)-1,
#include "engine/games/canadian/eval_terms.def"
#undef TERM
    CA_WEIGHTS_LEN
};
/* Tapered evaluation: the phase is the material, men and kings (60 at the start). */
enum { CA_PHASE_MAX = 60 };
enum {
    CANADIAN_EVAL_TERMS_LEN = 0
#define TERM(name, count, doc) +2
#include "engine/games/canadian/eval_terms.def"
#undef TERM
};

struct EvalScratch;

extern const Game canadian_game;

/* Build the evaluation's tables. Idempotent, not thread-safe. */
void canadian_eval_init(void);

/* Static evaluation, White's view, centi-men; pure, thread-safe. */
int32_t canadian_evaluate(const Position *pos, const int32_t *weights);
/* The same value, with the per-weight coefficients added into scratch. */
int32_t canadian_evaluate_traced(const Position *pos, const int32_t *weights, struct EvalScratch *scratch);

/* The generator's count of quiet moves of `side` (the MOBILITY term). */
int canadian_count_quiet(const DraughtsPosWide *p, int side);

#endif
