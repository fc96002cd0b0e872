/* russian.h — Russian draughts (shashki): the game table and its evaluation
 * term layout. Rules: docs/rules/russian.md. */
#ifndef DAMA_RUSSIAN_H
#define DAMA_RUSSIAN_H

#include <stdint.h>

#include "engine/game.h"

/* Weight offsets, one per term group of eval_terms.def. */
enum RussianTerm {
#define TERM(name, count, doc) RU_##name, RU_##name##_LAST = RU_##name + (count)-1,
#include "engine/games/russian/eval_terms.def"
#undef TERM
    RU_EG_OFFSET, /* opening weights; the endgame twins (NAME_EG) follow */
    RU_EG_BEFORE_ = RU_EG_OFFSET - 1,
#define TERM(name, count, doc) RU_##name##_EG, RU_##name##_EG_LAST = RU_##name##_EG + (count)-1,
#include "engine/games/russian/eval_terms.def"
#undef TERM
    RU_WEIGHTS_LEN
};
/* Tapered evaluation (Game.eg_offset): the phase is the material, men and kings on the board (24 at the start). */
enum { RU_PHASE_MAX = 24 };
enum { RUSSIAN_WEIGHTS_LEN_TERMS = RU_WEIGHTS_LEN
};
/* Term groups: each of eval_terms.def and its endgame twin. */
enum {
    RUSSIAN_EVAL_TERMS_LEN = 0
#define TERM(name, count, doc) +2
#include "engine/games/russian/eval_terms.def"
#undef TERM
};

struct Position;
struct EvalScratch;

extern const Game russian_game;

/* Build the evaluation's tables (runaway cones). Called by the Game.init of
 * every game that uses this evaluation; idempotent, not thread-safe. */
void russian_eval_init(void);

/* The evaluation terms (eval_terms.def and their endgame twins), in
 * weight order: Game.terms of Russian and of the diagonal variants that
 * share its evaluation. */
extern const EvalTerm russian_eval_terms[];
extern const int russian_eval_terms_len;

/* Static evaluation, White's view, centi-men; pure, thread-safe. */
int32_t russian_evaluate(const Position *pos, const int32_t *weights);
/* The same value, with the per-weight coefficients added into scratch
 * (the caller clears it first). */
int32_t russian_evaluate_traced(const Position *pos, const int32_t *weights, struct EvalScratch *scratch);

/* Plies the position's material may still last before a move-count draw
 * rule (D4-D8, shared/rules/russian.md) ends the game, from its counters;
 * INT32_MAX if none applies. Pure, thread-safe. The endgame database wins
 * only lines shorter than this (docs/egtb.md). */
int russian_rule_plies_left(const Position *pos);

#endif
