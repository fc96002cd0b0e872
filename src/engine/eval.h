/* eval.h — the one primitive through which every evaluation term is added.
 *
 * A game's evaluation source is compiled twice: once plain (EVAL_TRACED 0)
 * and once traced (EVAL_TRACED 1), by including the same body file. The
 * primitive EVAL_ADD(index, count) adds count * weights[index] to the score
 * and, in the traced build, records count for that weight. The trace and the
 * evaluation therefore cannot drift apart.
 *
 * Use inside a function that has `const int32_t *w`, `int32_t score` and,
 * when traced, `EvalScratch *scratch` in scope.
 */
#ifndef DAMA_EVAL_H
#define DAMA_EVAL_H

#include <stdint.h>
#include <string.h>

#include "engine/game.h"

enum { EVAL_WEIGHTS_MAX = 1024 };

/* Dense per-weight coefficients while a traced evaluation runs. */
typedef struct EvalScratch {
    int32_t coef[EVAL_WEIGHTS_MAX];
} EvalScratch;

static inline void eval_scratch_clear(EvalScratch *s, int weights_len)
{
    memset(s->coef, 0, sizeof(int32_t) * (size_t)weights_len);
}

/* Compact the non-zero coefficients into the sparse trace (index order).
 * Returns 0, or -1 if a coefficient does not fit int16 or the trace is full. */
static inline int eval_scratch_to_trace(const EvalScratch *s, int weights_len, EvalTrace *trace)
{
    trace->len = 0;
    for (int i = 0; i < weights_len; i++) {
        if (!s->coef[i]) continue;
        if (trace->len == TRACE_MAX || s->coef[i] > INT16_MAX || s->coef[i] < INT16_MIN) return -1;
        trace->index[trace->len] = (uint16_t)i;
        trace->coef[trace->len] = (int16_t)s->coef[i];
        trace->len++;
    }
    return 0;
}

/* Run a game's traced evaluator and compact its coefficients into trace
 * (trace->len = -1 if they do not fit). Returns the evaluation. */
static inline int32_t eval_trace_with(int32_t (*traced)(const Position *, const int32_t *, EvalScratch *),
                                      int weights_len, const Position *pos, const int32_t *w, EvalTrace *trace)
{
    EvalScratch scratch;
    eval_scratch_clear(&scratch, weights_len);
    int32_t v = traced(pos, w, &scratch);
    if (eval_scratch_to_trace(&scratch, weights_len, trace) != 0) trace->len = -1;
    return v;
}

#endif
