/* english.h — the evaluator of the short-king diagonal variants (English
 * draughts, Italian draughts): Russian's terms and evaluation source
 * (russian_eval_body.h) compiled with the short kings' quiet-move counter.
 * Rules: docs/rules/english.md, docs/rules/italian.md. */
#ifndef DAMA_ENGLISH_H
#define DAMA_ENGLISH_H

#include <stdint.h>

#include "engine/eval.h"
#include "engine/game.h"

struct DraughtsPos;

/* Static evaluation, White's view, centi-men; pure, thread-safe. */
int32_t english_evaluate(const Position *pos, const int32_t *weights);
int32_t english_evaluate_traced(const Position *pos, const int32_t *weights, struct EvalScratch *scratch);
/* Quiet moves of side with short kings (english.c). */
int english_count_quiet(const struct DraughtsPos *p, int side);

/* The same with the Game table's signatures. */
static inline int32_t english_evaluate_game(const Position *pos, const int32_t *w) { return english_evaluate(pos, w); }
static inline int32_t english_trace_game(const Position *pos, const int32_t *w, EvalTrace *trace)
{
    return eval_trace_with(english_evaluate_traced, pos, w, trace);
}

#endif
