/* tune_bench.h — the tuner's speed on synthetic positions (`dama bench
 * --tuner`): the memory a position takes, a loss-and-gradient pass and one
 * epoch of lazy Adam, on one thread and on more. The positions are
 * texel_data_synthetic's (uniform random distinct weight indices,
 * coefficients +-1 and +-2), so the entry counts of a model, not the index
 * patterns, are realistic. Timed with the wall and CPU clocks: figures vary
 * run to run, unlike a search bench's node count. */
#ifndef DAMA_TUNE_BENCH_H
#define DAMA_TUNE_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "tuner/texel.h"

enum { TUNE_BENCH_REPEAT_MAX = 100 };

/* The models, for messages. small: 256 plain weights, 25 entries a
 * position; tapered: 2 x 43 weights, 10 entries (the size of the draughts
 * evaluations before their pattern tables); patterns: 2 x 59,092 weights,
 * 28 entries (+ 9 windows of 6,561 states, each seen from both sides). */
#define TUNE_BENCH_MODELS "small, tapered or patterns"

typedef struct TuneBenchOptions {
    const char *model; /* one of TUNE_BENCH_MODELS */
    size_t positions;  /* synthetic positions in memory (>= 1) */
    size_t batch;      /* mini-batch of the timed epoch (>= 1) */
    int threads;       /* threads of the second measurement; 0: all cores (the first is on 1) */
    int repeat;        /* 1..TUNE_BENCH_REPEAT_MAX measurements of each */
} TuneBenchOptions;

/* The measurements on one thread count, one value a repeat. */
typedef struct TuneBenchRun {
    int threads;
    double evals_per_s[TUNE_BENCH_REPEAT_MAX]; /* position evaluations with gradient, wall clock */
    double pass_cpu_s[TUNE_BENCH_REPEAT_MAX];  /* CPU seconds of one pass over all positions */
    double epoch_s[TUNE_BENCH_REPEAT_MAX];     /* one epoch of lazy Adam, wall seconds */
    double epoch_cpu_s[TUNE_BENCH_REPEAT_MAX]; /* the same, CPU seconds of the process */
} TuneBenchRun;

typedef struct TuneBenchResult {
    int weights;     /* weights of the model; 0 until its positions are made */
    bool tapered;    /* opening and endgame weights */
    double entries_per_position, bytes_per_position;
    double made_s;   /* wall seconds to make and check the positions */
    int runs_len;    /* thread counts measured: 1, or 2 (1 thread, then threads) */
    TuneBenchRun runs[2];
} TuneBenchResult;

/* Is `name` one of TUNE_BENCH_MODELS? */
bool tune_bench_model_known(const char *name);

/* Make o->positions positions of model o->model and time the tuner on
 * them (1 thread, then o->threads unless that is 1). Returns 0, or -1 with
 * a message (an unknown model, out of memory, a failed pass); r then holds
 * what was measured before (weights 0 if no position was made, runs_len
 * the thread counts completed). Uses every core it is given; one call at a
 * time. */
int tune_bench_run(const TuneBenchOptions *o, TuneBenchResult *r, char err[TEXEL_ERR_MAX]);

#endif
