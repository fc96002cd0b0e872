/* tune_bench.c — the tuner's speed on synthetic positions (contract in
 * tuner/tune_bench.h). */
#include "tuner/tune_bench.h"

#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"

static const struct {
    const char *name;
    int index_len, terms; /* opening weights (0: a plain model of 256); entries = terms + material */
} MODELS[] = {
    {"small", 0, 24},                /* plain, 256 weights */
    {"tapered", 43, 9},              /* 10 entries a position */
    {"patterns", 43 + 9 * 6561, 27}, /* + 9 windows of 6,561 states, each seen from both sides */
};
enum { MODELS_LEN = (int)(sizeof MODELS / sizeof MODELS[0]) };

static int model_find(const char *name)
{
    for (int i = 0; name && i < MODELS_LEN; i++)
        if (strcmp(name, MODELS[i].name) == 0) return i;
    return -1;
}

bool tune_bench_model_known(const char *name) { return model_find(name) >= 0; }

/* The buffers of one benchmark. */
typedef struct Bench {
    TexelData *data;
    int32_t *truth, *start, *out;
    uint8_t *frozen;
    TexelSplit split;
} Bench;

static void bench_free(Bench *b)
{
    texel_split_free(&b->split);
    texel_data_free(b->data);
    free(b->truth), free(b->start), free(b->out), free(b->frozen);
}

/* Repeat the measurements on `threads` threads into run. */
static int measure(const Bench *b, const TuneBenchOptions *o, int threads, TuneBenchRun *run, char err[TEXEL_ERR_MAX])
{
    run->threads = threads;
    TexelBench tb = {0};
    for (int rep = 0; rep < o->repeat; rep++) {
        TexelConfig cfg;
        texel_config_default(&cfg);
        cfg.k = 1.0;
        cfg.epochs = 1;
        cfg.batch_size = o->batch;
        cfg.threads = threads;
        TexelResult res;
        if (texel_bench(b->data, b->truth, threads, 3, &tb, err) != 0 ||
            texel_tune(b->data, &b->split, &cfg, b->start, b->frozen, b->out, &res, err) != 0)
            return -1;
        run->evals_per_s[rep] = tb.evals_per_sec;
        run->pass_cpu_s[rep] = tb.cpu_seconds / 3;
        run->epoch_s[rep] = res.step_seconds;
        run->epoch_cpu_s[rep] = res.step_cpu_seconds;
    }
    return 0;
}

int tune_bench_run(const TuneBenchOptions *o, TuneBenchResult *r, char err[TEXEL_ERR_MAX])
{
    memset(r, 0, sizeof *r);
    int m = model_find(o->model);
    if (m < 0) {
        snprintf(err, TEXEL_ERR_MAX, "unknown tuner benchmark model '%.40s' (%s)", o->model ? o->model : "",
                 TUNE_BENCH_MODELS);
        return -1;
    }
    if (o->repeat < 1 || o->repeat > TUNE_BENCH_REPEAT_MAX) {
        snprintf(err, TEXEL_ERR_MAX, "tuner benchmark: %d repeats (1..%d)", o->repeat, TUNE_BENCH_REPEAT_MAX);
        return -1;
    }
    const int threads = o->threads > 0 ? o->threads : omp_get_num_procs();
    const int wn = m == 0 ? 256 : 2 * MODELS[m].index_len;
    Bench b = {0};
    b.data = m == 0 ? texel_data_new(256) : texel_data_new_tapered(wn, MODELS[m].index_len, 24);
    b.truth = malloc((size_t)wn * sizeof *b.truth);
    b.start = calloc((size_t)wn, sizeof *b.start);
    b.out = malloc((size_t)wn * sizeof *b.out);
    b.frozen = calloc((size_t)wn, 1);
    double t0 = clock_now_s();
    if (!b.data || !b.truth || !b.start || !b.out || !b.frozen) {
        snprintf(err, TEXEL_ERR_MAX, "out of memory");
        bench_free(&b);
        return -1;
    }
    if (texel_data_synthetic(b.data, o->positions, MODELS[m].terms, 1.0, 1, b.truth, err) != 0 ||
        texel_data_check(b.data, b.truth, 0, NULL, err) != 0) {
        bench_free(&b);
        return -1;
    }
    texel_data_drop_evals(b.data); /* as dama tune does after its check */
    texel_data_shrink(b.data);
    r->made_s = clock_now_s() - t0;
    r->weights = wn;
    r->tapered = m != 0;
    r->entries_per_position = (double)texel_data_entries(b.data) / (double)o->positions;
    r->bytes_per_position = texel_data_bytes_per_position(b.data);
    b.start[0] = 100, b.frozen[0] = 1; /* the scale */
    if (m) b.start[wn / 2] = 100, b.frozen[wn / 2] = 1;
    if (texel_split_make(&b.split, o->positions, NULL, 0, 1, err) != 0) {
        bench_free(&b);
        return -1;
    }
    const int counts[2] = {1, threads};
    int rc = 0;
    for (int t = 0; t < (threads > 1 ? 2 : 1) && rc == 0; t++) {
        rc = measure(&b, o, counts[t], &r->runs[t], err);
        if (rc == 0) r->runs_len = t + 1;
    }
    bench_free(&b);
    return rc;
}
