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
 *
 * Cost. The traced scratch is an append-only list of (index, count) pairs,
 * sorted and merged once at the end (duplicates added, zeros dropped), so a
 * traced evaluation costs O(k log k) in the k terms it adds and nothing per
 * weight of the model: a model may have any number of weights (patterns).
 */
#ifndef DAMA_EVAL_H
#define DAMA_EVAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"

enum { EVAL_SCRATCH_MAX = 1024 }; /* most EVAL_ADD calls of one traced evaluation */

/* The (index, count) pairs of one traced evaluation, in the order added.
 * len > EVAL_SCRATCH_MAX means it overflowed (the trace is then refused). */
typedef struct EvalScratch {
    int len;
    int phase; /* set by the traced evaluation (EVAL_RETURN) */
    uint32_t index[EVAL_SCRATCH_MAX];
    int32_t coef[EVAL_SCRATCH_MAX];
} EvalScratch;

static inline void eval_scratch_clear(EvalScratch *s) { s->len = 0, s->phase = 0; }

/* Is term t of game g a pattern table: more weights than a square table
 * of the game has (64, or the game's board when it is larger: Canadian's
 * 72)? The tuner fits such terms only when asked (dama tune --patterns),
 * with their own step and L2, and self-play never perturbs them. */
static inline bool eval_term_is_table(const Game *g, const EvalTerm *t)
{
    int squares = 0;
    for (const unsigned char *r = g->board_rows; r && *r; r++) squares += *r;
    return t->count > (squares > 64 ? squares : 64);
}

/* The tapered value of opening sum op and endgame sum eg at phase
 * 0..phase_max (phase_max > 0): (op * phase + eg * (phase_max - phase)) /
 * phase_max, C division (toward zero: the value of the mirrored position is
 * exactly the negation). Equal sums give op itself. */
static inline int32_t eval_taper(int64_t op, int64_t eg, int phase, int phase_max)
{
    return (int32_t)((op * phase + eg * (phase_max - phase)) / phase_max);
}

/* The value a trace stands for with weights w (see EvalTrace), exactly as
 * the evaluation computes it; indices must be < eg_offset. */
static inline int32_t eval_trace_value(const EvalTrace *t, const int32_t *w, int eg_offset, int phase_max)
{
    int64_t op = 0, eg = 0;
    for (int i = 0; i < t->len; i++) {
        op += (int64_t)t->coef[i] * w[t->index[i]];
        eg += (int64_t)t->coef[i] * w[t->index[i] + (uint32_t)eg_offset];
    }
    return eval_taper(op, eg, t->phase, phase_max);
}

static inline void eval_scratch_add(EvalScratch *s, uint32_t index, int32_t coef)
{
    if (coef == 0) return;
    if (s->len < EVAL_SCRATCH_MAX) {
        s->index[s->len] = index;
        s->coef[s->len] = coef;
    }
    s->len++;
}

/* Sort the scratch by index (insertion sort on index: a scratch holds a few
 * hundred pairs, mostly in index order already), add the counts of equal
 * indices and write the non-zero sums into the sparse trace (index order).
 * Returns 0, or -1 if the scratch overflowed, a sum does not fit int16 or
 * the trace is full. */
static inline int eval_scratch_to_trace(EvalScratch *s, EvalTrace *trace)
{
    trace->len = 0;
    if (s->len > EVAL_SCRATCH_MAX) return -1;
    for (int i = 1; i < s->len; i++) {
        uint32_t ix = s->index[i];
        int32_t c = s->coef[i];
        int j = i;
        for (; j > 0 && s->index[j - 1] > ix; j--) {
            s->index[j] = s->index[j - 1];
            s->coef[j] = s->coef[j - 1];
        }
        s->index[j] = ix;
        s->coef[j] = c;
    }
    for (int i = 0; i < s->len;) {
        uint32_t ix = s->index[i];
        int64_t sum = 0;
        for (; i < s->len && s->index[i] == ix; i++) sum += s->coef[i];
        if (sum == 0) continue;
        if (trace->len == TRACE_MAX || sum > INT16_MAX || sum < INT16_MIN) return -1;
        trace->index[trace->len] = ix;
        trace->coef[trace->len] = (int16_t)sum;
        trace->len++;
    }
    return 0;
}

/* Run a game's traced evaluator and compact its coefficients into trace
 * (trace->len = -1 if they do not fit). Returns the evaluation. The scratch
 * (8 KiB) is a local of this call. */
static inline int32_t eval_trace_with(int32_t (*traced)(const Position *, const int32_t *, EvalScratch *),
                                      const Position *pos, const int32_t *w, EvalTrace *trace)
{
    EvalScratch scratch;
    eval_scratch_clear(&scratch);
    int32_t v = traced(pos, w, &scratch);
    if (eval_scratch_to_trace(&scratch, trace) != 0) trace->len = -1;
    trace->phase = scratch.phase;
    return v;
}

/* A weight vector of g (g->weights_len int32, zeroed) on the heap, so a
 * model may have any number of weights; the caller frees it. NULL if out of
 * memory. */
static inline int32_t *eval_weights_new(const Game *g)
{
    return (int32_t *)calloc((size_t)(g->weights_len > 0 ? g->weights_len : 1), sizeof(int32_t));
}

/* Frees a heap variable when it goes out of scope (GNU C cleanup
 * attribute, as systemd's _cleanup_free_): `EVAL_AUTO_FREE int32_t *w =
 * eval_weights_new(g);` needs no free on any return path. */
static inline void eval_free_ptr(void *p) { free(*(void **)p); }
#define EVAL_AUTO_FREE __attribute__((cleanup(eval_free_ptr)))

#endif
