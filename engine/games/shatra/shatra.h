/* shatra.h — Shatra (Altai chess): the game table and its evaluation term
 * layout. Rules: docs/rules/shatra.md. */
#ifndef DAMA_SHATRA_H
#define DAMA_SHATRA_H

#include <stdint.h>

#include "engine/game.h"

/* Weight offsets, one per term group of eval_terms.def. */
enum ShatraTerm {
#define TERM(name, count, doc) ST_##name, ST_##name##_LAST = ST_##name + (count)-1,
#include "engine/games/shatra/eval_terms.def"
#undef TERM
    ST_EG_OFFSET, /* opening weights; the endgame twins (NAME_EG) follow */
    ST_EG_BEFORE_ = ST_EG_OFFSET - 1,
#define TERM(name, count, doc) ST_##name##_EG, ST_##name##_EG_LAST = ST_##name##_EG + (count)-1,
#include "engine/games/shatra/eval_terms.def"
#undef TERM
    ST_WEIGHTS_LEN
};
/* Tapered evaluation (Game.eg_offset): the phase is the material, pieces on the board and in reserve, capped at 36. */
enum { ST_PHASE_MAX = 36 };
enum { SHATRA_WEIGHTS_LEN_TERMS = ST_WEIGHTS_LEN };

struct EvalScratch;

extern const Game shatra_game;

/* Build the Shatra tables (geometry, Zobrist keys). Idempotent; called by
 * game_init_all (Game.init) from one thread. */
void shatra_init(void);

/* Game.board_text: the 7-file board, rank 14 at the top (flip: rank 1),
 * pieces as chess glyphs, empty squares as their numbers, the river between
 * ranks 8 and 7; a Biy that can be captured in red (colour) and named
 * below; then the rest of the position string (reserve, urgent pieces,
 * counters). Pure, thread-safe. */
void shatra_board_text(const Position *pos, bool flip, bool colour, char *out, size_t size);

/* Static evaluation, White's view, centi-shatras; pure, thread-safe. */
int32_t shatra_evaluate(const Position *pos, const int32_t *weights);
/* The same value, with the per-weight coefficients added into scratch
 * (the caller clears it first). */
int32_t shatra_evaluate_traced(const Position *pos, const int32_t *weights, struct EvalScratch *scratch);

#endif
