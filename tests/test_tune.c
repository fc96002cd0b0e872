/* test_tune.c — fitting the tuner's model (tuner/texel_loss.c, texel.c) on
 * synthetic data of a known linear model: K, Adam (full and mini-batch,
 * lazy and dense, frozen weights, L2, a table's group), passes shared by
 * ranks, and the bench. The position store is test_tune_data.c's.
 *
 * The data come from texel_data_synthetic: true weights (weight 0 a man worth
 * 100, the rest uniform in [-50, 50]), random sparse traces, and results
 * drawn from the logistic model with a fixed seed, so the true weights and K
 * minimise the expected loss. Tolerances are stated where they are used. */
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/eval.h"
#include "engine/game.h"
#include "tuner/texel.h"
#include "util/rng.h"

enum { W_LEN = 64, TERMS = 10 };
#define K_TRUE 1.3

typedef struct Fixture {
    TexelData *data;
    TexelSplit split;
    int32_t truth[W_LEN];
    int32_t start[W_LEN]; /* truth perturbed by up to +-25, man exact */
    uint8_t frozen[W_LEN];
} Fixture;

static Fixture *fixture_new(size_t positions, uint64_t seed)
{
    char err[TEXEL_ERR_MAX];
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->data = texel_data_new(W_LEN);
    assert_non_null(f->data);
    assert_int_equal(texel_data_synthetic(f->data, positions, TERMS, K_TRUE, seed, f->truth, err), 0);
    assert_int_equal(texel_split_make(&f->split, positions, NULL, 0.1, seed, err), 0);
    uint64_t s = rng_derive(seed, 12345);
    for (int j = 0; j < W_LEN; j++)
        f->start[j] = f->truth[j] + (j ? (int32_t)rng_below(&s, 51) - 25 : 0);
    f->frozen[0] = 1;
    return f;
}

static void fixture_free(Fixture *f)
{
    texel_data_free(f->data);
    texel_split_free(&f->split);
    free(f);
}

static void error_stats(const int32_t *w, const int32_t *truth, double *mean_abs, int *max_abs)
{
    double sum = 0;
    *max_abs = 0;
    for (int j = 0; j < W_LEN; j++) {
        int d = abs(w[j] - truth[j]);
        sum += d;
        if (d > *max_abs)
            *max_abs = d;
    }
    *mean_abs = sum / W_LEN;
}

/* ------------------------------------------------------------------- K */

static void test_fit_k(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(200000, 11);
    double k, loss, loss_true, loss_other;
    assert_int_equal(texel_fit_k(f->data, f->split.train, f->split.train_len, f->truth, 0.01, 10,
                                 0, &k, &loss, err), 0);
    printf("fitted K %.4f (true %.2f), loss %.6f\n", k, K_TRUE, loss);
    /* tolerance: 3% of K (its sampling error here is about 0.5%) */
    assert_true(fabs(k - K_TRUE) < 0.03 * K_TRUE);
    assert_int_equal(texel_loss(f->data, f->split.train, f->split.train_len, f->truth, K_TRUE, 0,
                                &loss_true, err), 0);
    assert_true(loss <= loss_true); /* the minimum over K is at most any K's loss */
    assert_int_equal(texel_loss(f->data, f->split.train, f->split.train_len, f->truth, 1.1 * k, 0,
                                &loss_other, err), 0);
    assert_true(loss < loss_other);
    assert_int_equal(texel_fit_k(f->data, NULL, 100, f->truth, 1, 0.5, 0, &k, &loss, err), -1);
    assert_non_null(strstr(err, "bracket"));
    assert_int_equal(texel_loss(f->data, NULL, 0, f->truth, 1, 0, &loss, err), -1);
    fixture_free(f);
}

/* ---------------------------------------------------------------- Adam */

typedef struct Log {
    int calls;
    int last_epoch;
    double first_train, last_train;
    int stop_after; /* 0: never */
} Log;

static int log_epoch(void *ctx, const TexelEpoch *ep)
{
    Log *log = ctx;
    if (log->calls++ == 0)
        log->first_train = ep->train_loss;
    log->last_train = ep->train_loss;
    log->last_epoch = ep->epoch;
    return log->stop_after && ep->epoch >= log->stop_after;
}

/* Recovery tolerance: mean |w - truth| <= 2.5 and max <= 8 centi-men. The
 * sampling error of one weight with 180k training positions is about 1.5. */
static void check_recovery(const Fixture *f, const int32_t *w, const TexelResult *res,
                           const char *label)
{
    double mean_abs, mean_start;
    int max_abs, max_start;
    error_stats(w, f->truth, &mean_abs, &max_abs);
    error_stats(f->start, f->truth, &mean_start, &max_start);
    printf("%s: K %.4f, epochs %d (best %d), train %.6f -> %.6f, valid %.6f -> %.6f, "
           "|w - truth| mean %.2f max %d (start mean %.2f max %d)\n",
           label, res->k, res->epochs, res->best_epoch, res->train_loss_start, res->train_loss,
           res->valid_loss_start, res->valid_loss, mean_abs, max_abs, mean_start, max_start);
    assert_int_equal(w[0], 100); /* frozen */
    assert_true(res->train_loss < res->train_loss_start);
    assert_true(res->valid_loss < res->valid_loss_start);
    /* K is fitted once, with the perturbed start weights (as Texel's method
     * fits it with the engine's weights): their noise biases it low, here by
     * about 10-15%; the weights are still recovered */
    assert_true(res->k < K_TRUE && res->k > 0.8 * K_TRUE);
    assert_true(mean_abs <= 2.5);
    assert_true(max_abs <= 8);
}

static void test_tune_full_batch(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(200000, 21);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.epochs = 400;
    cfg.lr = 1.0;
    Log log = {0};
    cfg.progress = log_epoch;
    cfg.progress_ctx = &log;
    int32_t w[W_LEN];
    TexelResult res;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), 0);
    assert_int_equal(log.calls, res.epochs + 1); /* epoch 0 too */
    assert_true(log.last_train < log.first_train);
    check_recovery(f, w, &res, "full batch");
    fixture_free(f);
}

static void test_tune_mini_batch(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(200000, 31);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.epochs = 60;
    cfg.batch_size = 8192;
    cfg.lr = 0.5;
    cfg.patience = 10;
    int32_t w[W_LEN];
    TexelResult res;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), 0);
    check_recovery(f, w, &res, "mini-batch");
    fixture_free(f);
}

/* Steps too small to survive rounding: epochs that beat the start with
 * real-valued weights (each a step toward the truth, up to 25 centi-men
 * away), rounded back onto the start. The result is the start, said as
 * such, never rounded weights that lose to it on the held-out positions. */
static void test_rounded_back_to_start(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(200000, 41);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.epochs = 3;
    cfg.lr = 0.05; /* full batch: 3 Adam steps move a weight by at most about 0.15 */
    cfg.k = K_TRUE;
    int32_t w[W_LEN];
    TexelResult res;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), 0);
    printf("rounded back: best epoch %d, rounded_back %d, valid %.8f -> %.8f (best real-valued %.8f)\n",
           res.best_epoch, res.rounded_back, res.valid_loss_start, res.valid_loss, res.best_valid_loss);
    assert_true(res.rounded_back >= 1);
    assert_true(res.best_valid_loss < res.valid_loss_start); /* an epoch did beat the start before rounding */
    assert_int_equal(res.best_epoch, 0);
    assert_memory_equal(w, f->start, sizeof w);
    assert_true(res.valid_loss == res.valid_loss_start && res.train_loss == res.train_loss_start);
    fixture_free(f);
}

/* 1 and 2 threads (and 3, an odd count) give bit-identical runs. */
static void test_threads_identical(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(60000, 41);
    const size_t batches[2] = {0, 5000};
    for (int b = 0; b < 2; b++) {
        TexelConfig cfg;
        texel_config_default(&cfg);
        cfg.epochs = 15;
        cfg.batch_size = batches[b];
        cfg.lambda = 1e-7;
        int32_t w[3][W_LEN];
        TexelResult res[3];
        const int threads[3] = {1, 2, 3};
        for (int t = 0; t < 3; t++) {
            if (t < 2) {
                omp_set_num_threads(threads[t]);
                cfg.threads = 0;
            } else {
                cfg.threads = threads[t];
            }
            assert_int_equal(
                texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w[t], &res[t], err), 0);
        }
        for (int t = 1; t < 3; t++) {
            assert_memory_equal(w[0], w[t], sizeof w[0]);
            res[0].step_seconds = res[t].step_seconds = 0; /* times */
            res[0].step_cpu_seconds = res[t].step_cpu_seconds = 0;
            assert_memory_equal(&res[0], &res[t], sizeof res[0]); /* every loss, bit for bit */
        }
    }
    omp_set_num_threads(2);
    fixture_free(f);
}

/* ------------------------------------------------------------ shards */

/* An in-process stand-in for MPI: R threads, one a rank, each running the
 * same texel_tune with a reducer whose gather meets the others at a barrier
 * and copies every rank's payload in rank order. */
enum { FAKE_RANKS_MAX = 8 };

typedef struct FakeGroup {
    int ranks;
    int fail_at;  /* the gather call (1-based) that fails on every rank; 0: none */
    pthread_barrier_t barrier;
    const double *buf[FAKE_RANKS_MAX];
    size_t len[FAKE_RANKS_MAX];
} FakeGroup;

typedef struct FakeRank {
    FakeGroup *group;
    int rank;
    int calls; /* gathers so far */
    size_t doubles; /* doubles this rank sent in all */
    TexelReducer red;
    /* the job */
    const TexelData *data;
    const TexelSplit *split;
    TexelConfig cfg;
    const int32_t *start;
    const uint8_t *frozen;
    int32_t *out;
    TexelResult res;
    double k, loss;
    int what; /* 0: texel_tune, 1: texel_fit_k_sharded + texel_loss_sharded */
    int rc;
    char err[TEXEL_ERR_MAX];
} FakeRank;

static int fake_gather(void *ctx, const double *mine, size_t len, double **all, size_t *all_len,
                       char err[TEXEL_ERR_MAX])
{
    FakeRank *fr = ctx;
    FakeGroup *g = fr->group;
    fr->calls++;
    fr->doubles += len;
    g->buf[fr->rank] = mine;
    g->len[fr->rank] = len;
    pthread_barrier_wait(&g->barrier);
    size_t total = 0;
    for (int r = 0; r < g->ranks; r++)
        total += g->len[r];
    double *out = malloc((total ? total : 1) * sizeof *out);
    assert_non_null(out);
    size_t at = 0;
    for (int r = 0; r < g->ranks; r++) {
        if (g->len[r])
            memcpy(out + at, g->buf[r], g->len[r] * sizeof *out);
        at += g->len[r];
    }
    pthread_barrier_wait(&g->barrier); /* nobody reuses its buffer before all copied */
    *all = out;
    *all_len = total;
    if (fr->calls == g->fail_at) {
        snprintf(err, TEXEL_ERR_MAX, "fake gather %d failed", fr->calls);
        return -1;
    }
    return 0;
}

static void *fake_rank_main(void *arg)
{
    FakeRank *fr = arg;
    if (fr->what == 0) {
        fr->rc = texel_tune(fr->data, fr->split, &fr->cfg, fr->start, fr->frozen, fr->out, &fr->res, fr->err);
    } else {
        fr->rc = texel_fit_k_sharded(fr->data, fr->split->train, fr->split->train_len, fr->start, 0.01, 10,
                                     fr->cfg.threads, &fr->red, &fr->k, &fr->loss, fr->err);
        double l2 = 0;
        if (fr->rc == 0)
            fr->rc = texel_loss_sharded(fr->data, fr->split->valid, fr->split->valid_len, fr->start, fr->k,
                                        fr->cfg.threads, &fr->red, &l2, fr->err);
        fr->loss += l2;
    }
    return NULL;
}

/* Run the job on `ranks` fake ranks; rank r's weights go to out + r * wn. */
static void fake_run(FakeRank *fr, int ranks, int fail_at, int what, const TexelData *data,
                     const TexelSplit *split, const TexelConfig *cfg, const int32_t *start,
                     const uint8_t *frozen, int32_t *out, size_t wn)
{
    static FakeGroup g;
    memset(&g, 0, sizeof g);
    g.ranks = ranks;
    g.fail_at = fail_at;
    assert_int_equal(pthread_barrier_init(&g.barrier, NULL, (unsigned)ranks), 0);
    pthread_t th[FAKE_RANKS_MAX];
    for (int r = 0; r < ranks; r++) {
        fr[r] = (FakeRank){.group = &g, .rank = r, .data = data, .split = split, .cfg = *cfg,
                           .start = start, .frozen = frozen, .out = out + (size_t)r * wn, .what = what};
        fr[r].red = (TexelReducer){.rank = r, .ranks = ranks, .gather = fake_gather, .ctx = &fr[r]};
        fr[r].cfg.reducer = &fr[r].red;
    }
    for (int r = 0; r < ranks; r++)
        assert_int_equal(pthread_create(&th[r], NULL, fake_rank_main, &fr[r]), 0);
    for (int r = 0; r < ranks; r++)
        assert_int_equal(pthread_join(th[r], NULL), 0);
    pthread_barrier_destroy(&g.barrier);
}

/* Sharded runs equal the one-process run bit for bit: every weight, K and
 * every loss, on every rank, for 1, 2, 3 and 7 ranks (7: more ranks than
 * the validation set's blocks, so some ranks send nothing) and 1 or 2
 * threads a rank; full batch with K fitted, mini-batches, dense Adam, L2,
 * tapered data, and a sparse model of 2^16 weights under lazy Adam. */
static void test_sharded_identical(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    enum { SPARSE = 1 << 16 };
    static const struct {
        const char *name;
        int model;        /* 0: 64 weights; 1: tapered 2 x 32; 2: 2^16 weights, 24 terms */
        size_t positions;
        size_t batch;
        TexelAdam adam;
        double k;         /* 0: fitted */
        double lambda;
        int epochs;
    } cases[] = {
        {"full batch, K fitted", 0, 30000, 0, TEXEL_ADAM_LAZY, 0, 1e-7, 12},
        {"mini-batch 5000", 0, 30000, 5000, TEXEL_ADAM_LAZY, 1.3, 1e-7, 6},
        {"dense Adam, mini-batch 7000", 0, 30000, 7000, TEXEL_ADAM_DENSE, 1.3, 1e-5, 5},
        {"tapered, K fitted", 1, 20000, 4096, TEXEL_ADAM_LAZY, 0, 0, 6},
        {"2^16 weights, lazy", 2, 40000, 8192, TEXEL_ADAM_LAZY, 1.0, 1e-6, 3},
    };
    static const int ranks[] = {1, 2, 3, 7};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const size_t wn = cases[c].model == 2 ? SPARSE : 64;
        TexelData *d = cases[c].model == 1 ? texel_data_new_tapered(64, 32, 24) : texel_data_new((int)wn);
        assert_non_null(d);
        int32_t *truth = malloc(wn * sizeof *truth), *start = calloc(wn, sizeof *start);
        int32_t *one = malloc(wn * sizeof *one), *out = malloc(FAKE_RANKS_MAX * wn * sizeof *out);
        uint8_t *frozen = calloc(wn, 1);
        assert_true(truth && start && one && out && frozen);
        assert_int_equal(texel_data_synthetic(d, cases[c].positions, cases[c].model == 2 ? 24 : 8, 1.2,
                                              100 + c, truth, err), 0);
        for (size_t j = 0; j < wn; j++)
            start[j] = cases[c].model == 2 ? 0 : truth[j] + (int32_t)(j * 7 % 31) - 15;
        start[0] = 100, frozen[0] = 1;
        if (cases[c].model == 1)
            start[32] = 100, frozen[32] = 1;
        TexelSplit split;
        assert_int_equal(texel_split_make(&split, texel_data_len(d), NULL, 0.1, 7, err), 0);
        TexelConfig cfg;
        texel_config_default(&cfg);
        cfg.k = cases[c].k;
        cfg.batch_size = cases[c].batch;
        cfg.adam = cases[c].adam;
        cfg.lambda = cases[c].lambda;
        cfg.epochs = cases[c].epochs;
        cfg.threads = 1;
        TexelResult base;
        assert_int_equal(texel_tune(d, &split, &cfg, start, frozen, one, &base, err), 0);
        assert_true(base.train_loss < base.train_loss_start);
        base.step_seconds = base.step_cpu_seconds = 0;
        for (size_t ri = 0; ri < sizeof ranks / sizeof ranks[0]; ri++) {
            for (int threads = 1; threads <= 2; threads++) {
                if (cases[c].model == 2 && (ranks[ri] == 2 || threads == 2))
                    continue; /* the big model: 1, 3 and 7 ranks on 1 thread are enough */
                FakeRank fr[FAKE_RANKS_MAX];
                cfg.threads = threads;
                fake_run(fr, ranks[ri], 0, 0, d, &split, &cfg, start, frozen, out, wn);
                for (int r = 0; r < ranks[ri]; r++) {
                    if (fr[r].rc != 0)
                        fail_msg("%s, %d ranks: rank %d failed: %s", cases[c].name, ranks[ri], r, fr[r].err);
                    if (memcmp(one, out + (size_t)r * wn, wn * sizeof *one) != 0)
                        fail_msg("%s, %d ranks x %d threads: rank %d's weights differ", cases[c].name,
                                 ranks[ri], threads, r);
                    assert_true(fr[r].res.gathered_bytes > 0);
                    fr[r].res.step_seconds = fr[r].res.step_cpu_seconds = fr[r].res.gathered_bytes = 0;
                    assert_memory_equal(&base, &fr[r].res, sizeof base); /* K, every loss, epochs */
                    assert_int_equal(fr[r].calls, fr[0].calls);
                }
                for (int r = 0; r < ranks[ri] && ranks[ri] <= 3; r++) /* every rank had blocks */
                    assert_true(fr[r].doubles > 2 * (size_t)fr[r].calls);
            }
        }
        free(truth), free(start), free(one), free(out), free(frozen);
        texel_split_free(&split);
        texel_data_free(d);
    }
}

/* texel_fit_k_sharded and texel_loss_sharded: the one-process K and loss;
 * a gather failing (on every rank alike) fails every rank with its
 * message; a bad reducer is refused. */
static void test_sharded_k_loss_and_errors(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(30000, 51);
    double k1, l1, lv;
    assert_int_equal(texel_fit_k(f->data, f->split.train, f->split.train_len, f->start, 0.01, 10, 1, &k1, &l1, err), 0);
    assert_int_equal(texel_loss(f->data, f->split.valid, f->split.valid_len, f->start, k1, 1, &lv, err), 0);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.threads = 2;
    cfg.epochs = 3;
    int32_t out[FAKE_RANKS_MAX * W_LEN];
    FakeRank fr[FAKE_RANKS_MAX];
    fake_run(fr, 3, 0, 1, f->data, &f->split, &cfg, f->start, f->frozen, out, W_LEN);
    for (int r = 0; r < 3; r++) {
        assert_int_equal(fr[r].rc, 0);
        assert_memory_equal(&fr[r].k, &k1, sizeof k1);
        const double want = l1 + lv;
        assert_memory_equal(&fr[r].loss, &want, sizeof want);
        assert_true(fr[r].calls > 24); /* the scan and the golden-section steps, each shared */
    }
    static const struct {
        int what, fail_at;
        const char *msg;
    } fails[] = {
        {0, 1, "tuner: fake gather 1 failed"},  /* the K search's first pass */
        {0, 40, "tuner: fake gather 40 failed"}, /* a loss or step pass later on */
        {1, 2, "K search: fake gather 2 failed"},
    };
    for (size_t i = 0; i < sizeof fails / sizeof fails[0]; i++) {
        fake_run(fr, 3, fails[i].fail_at, fails[i].what, f->data, &f->split, &cfg, f->start, f->frozen, out, W_LEN);
        for (int r = 0; r < 3; r++) {
            assert_int_equal(fr[r].rc, -1);
            assert_string_equal(fr[r].err, fails[i].msg);
        }
    }
    TexelReducer bad = {.rank = 3, .ranks = 3, .gather = fake_gather};
    cfg.reducer = &bad;
    TexelResult res;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, out, &res, err), -1);
    assert_non_null(strstr(err, "reducer rank 3 of 3"));
    fixture_free(f);
}

/* Lazy Adam is dense Adam when every weight is touched every step: 64
 * weights, 10 terms a position, batches of 5,000 positions (and the full
 * batch) touch them all, so both give the same bits, L2 included. */
static void test_lazy_equals_dense(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(60000, 43);
    const size_t batches[2] = {0, 5000};
    for (int b = 0; b < 2; b++) {
        TexelConfig cfg;
        texel_config_default(&cfg);
        cfg.epochs = 12;
        cfg.batch_size = batches[b];
        cfg.lambda = 1e-5;
        int32_t w[2][W_LEN];
        TexelResult res[2];
        const TexelAdam adam[2] = {TEXEL_ADAM_LAZY, TEXEL_ADAM_DENSE};
        for (int t = 0; t < 2; t++) {
            cfg.adam = adam[t];
            assert_int_equal(
                texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w[t], &res[t], err), 0);
        }
        assert_true(res[0].train_loss < res[0].train_loss_start);
        assert_memory_equal(w[0], w[1], sizeof w[0]);
        res[0].step_seconds = res[1].step_seconds = 0;
        res[0].step_cpu_seconds = res[1].step_cpu_seconds = 0;
        assert_memory_equal(&res[0], &res[1], sizeof res[0]);
    }
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.adam = (TexelAdam)7;
    int32_t w[W_LEN];
    TexelResult res;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), -1);
    assert_non_null(strstr(err, "Adam variant 7"));
    fixture_free(f);

    /* where they differ: a weight no position touches keeps its start under
     * lazy Adam, while dense Adam's L2 toward zero pulls it in */
    TexelData *d = texel_data_new(4);
    EvalTrace t = {.len = 2};
    for (int i = 0; i < 400; i++) {
        t.index[0] = 0, t.coef[0] = (int16_t)(i % 3 - 1);
        t.index[1] = 1 + (uint32_t)(i % 2), t.coef[1] = (int16_t)(i % 5 - 2);
        assert_int_equal(texel_data_append(d, &t, i % 3, 0, err), 0);
    }
    TexelSplit all;
    assert_int_equal(texel_split_make(&all, 400, NULL, 0, 1, err), 0);
    texel_config_default(&cfg);
    cfg.k = 1;
    cfg.epochs = 20;
    cfg.lambda = 1e-3;
    cfg.anchor = TEXEL_L2_ZERO;
    const int32_t start4[4] = {100, 10, -10, 50};
    const uint8_t frozen4[4] = {1, 0, 0, 0};
    int32_t w4[4];
    assert_int_equal(texel_tune(d, &all, &cfg, start4, frozen4, w4, &res, err), 0);
    assert_int_equal(w4[3], 50);
    cfg.adam = TEXEL_ADAM_DENSE;
    assert_int_equal(texel_tune(d, &all, &cfg, start4, frozen4, w4, &res, err), 0);
    assert_true(w4[3] < 40);
    texel_split_free(&all);
    texel_data_free(d);
}

/* Sparse models: 2^20 weights, 120,000 positions of 24 terms (each weight
 * in about 2.7 positions), batches of 8,192 touch about 17% of the weights
 * each. The run is bit-identical on 1 and 2 threads, lowers both losses (a
 * little: a few noisy results a weight) from a start of zeros and moves the
 * weights toward the truth. */
static void test_million_weights(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    enum { N = 1 << 20 };
    TexelData *d = texel_data_new(N);
    assert_non_null(d);
    int32_t *truth = malloc(N * sizeof *truth), *start = calloc(N, sizeof *start);
    int32_t *w1 = malloc(N * sizeof *w1), *w2 = malloc(N * sizeof *w2);
    uint8_t *frozen = calloc(N, 1);
    assert_true(truth && start && w1 && w2 && frozen);
    assert_int_equal(texel_data_synthetic(d, 120000, 24, 1.0, 61, truth, err), 0);
    start[0] = 100;
    frozen[0] = 1;
    TexelSplit split;
    assert_int_equal(texel_split_make(&split, texel_data_len(d), NULL, 0.1, 5, err), 0);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.k = 1.0;
    cfg.epochs = 4;
    cfg.batch_size = 8192;
    cfg.lr = 3;
    cfg.lambda = 1e-6;
    TexelResult r1, r2;
    omp_set_num_threads(1);
    assert_int_equal(texel_tune(d, &split, &cfg, start, frozen, w1, &r1, err), 0);
    omp_set_num_threads(2);
    assert_int_equal(texel_tune(d, &split, &cfg, start, frozen, w2, &r2, err), 0);
    printf("2^20 weights: train %.6f -> %.6f, valid %.6f -> %.6f, best epoch %d\n", r1.train_loss_start,
           r1.train_loss, r1.valid_loss_start, r1.valid_loss, r1.best_epoch);
    assert_memory_equal(w1, w2, N * sizeof *w1);
    assert_true(r1.step_seconds > 0);
    r1.step_seconds = r2.step_seconds = 0;
    r1.step_cpu_seconds = r2.step_cpu_seconds = 0;
    assert_memory_equal(&r1, &r2, sizeof r1);
    assert_true(r1.train_loss < r1.train_loss_start);
    assert_true(r1.valid_loss < r1.valid_loss_start);
    assert_int_equal(w1[0], 100);
    /* moved toward the truth: sum of w * truth > 0 over the weights */
    double dot = 0;
    int moved = 0;
    for (int j = 1; j < N; j++) {
        dot += (double)w1[j] * truth[j];
        moved += w1[j] != 0;
    }
    printf("2^20 weights: %d moved, correlation sign %+.0f\n", moved, dot);
    assert_true(dot > 0);
    assert_true(moved > N / 5);
    texel_split_free(&split);
    texel_data_free(d);
    free(truth), free(start), free(w1), free(w2), free(frozen);
}

static void test_frozen_l2_and_stop(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(30000, 51);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.k = K_TRUE; /* given K: no search */
    cfg.epochs = 30;
    uint8_t frozen[W_LEN] = {0};
    for (int j = 0; j < W_LEN; j += 3)
        frozen[j] = 1;
    int32_t w[W_LEN];
    TexelResult res;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, frozen, w, &res, err), 0);
    assert_true(res.k == K_TRUE);
    int moved = 0;
    for (int j = 0; j < W_LEN; j++) {
        if (frozen[j])
            assert_int_equal(w[j], f->start[j]);
        else
            moved += w[j] != f->start[j];
    }
    assert_true(moved > 0);

    /* strong L2 toward the start keeps the start; toward zero shrinks */
    cfg.lambda = 1.0;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), 0);
    for (int j = 0; j < W_LEN; j++)
        assert_true(abs(w[j] - f->start[j]) <= 1);
    cfg.anchor = TEXEL_L2_ZERO;
    cfg.lr = 5;
    cfg.epochs = 100;
    cfg.patience = 0;
    TexelSplit train_only; /* no validation set: selection on the training loss */
    assert_int_equal(texel_split_make(&train_only, texel_data_len(f->data), NULL, 0, 1, err), 0);
    assert_int_equal(texel_tune(f->data, &train_only, &cfg, f->start, f->frozen, w, &res, err), 0);
    assert_true(isnan(res.valid_loss) && isnan(res.valid_loss_start));
    double sum_start = 0, sum_w = 0;
    for (int j = 1; j < W_LEN; j++)
        sum_start += abs(f->start[j]), sum_w += abs(w[j]);
    printf("L2 toward zero: sum abs %.0f -> %.0f, best epoch %d\n", sum_start, sum_w, res.best_epoch);
    assert_true(sum_w < 0.2 * sum_start);
    assert_int_equal(w[0], 100);

    /* the callback stops the run; the best weights so far are kept */
    cfg.lambda = 0;
    cfg.anchor = TEXEL_L2_START;
    cfg.lr = 1;
    Log log = {.stop_after = 3};
    cfg.progress = log_epoch;
    cfg.progress_ctx = &log;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), 0);
    assert_int_equal(res.stop, TEXEL_STOP_CALLER);
    assert_int_equal(res.epochs, 3);
    assert_int_equal(log.last_epoch, 3);

    /* patience: with a huge step the validation loss soon stops improving;
     * the run stops `patience` epochs after its best epoch */
    cfg.progress = NULL;
    cfg.lr = 1000;
    cfg.patience = 4;
    cfg.epochs = 100;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), 0);
    assert_int_equal(res.stop, TEXEL_STOP_PATIENCE);
    assert_true(res.epochs < 100);
    assert_int_equal(res.epochs, res.best_epoch + 4);

    /* bad configurations are refused with a message */
    int32_t untouched[W_LEN];
    memcpy(untouched, w, sizeof w);
    cfg.lr = -1;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), -1);
    assert_non_null(strstr(err, "learning rate"));
    cfg.lr = 1;
    cfg.beta2 = 1;
    assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, w, &res, err), -1);
    assert_memory_equal(untouched, w, sizeof w);
    texel_split_free(&train_only);
    fixture_free(f);
}

/* A group of weights with its own step and L2 (TexelConfig.table, the
 * pattern tables of dama tune --patterns): the odd weights are the group.
 * Each row: the group's step and L2, and what the group's weights do. */
static void test_table_group(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    Fixture *f = fixture_new(30000, 53);
    uint8_t table[W_LEN] = {0};
    for (int j = 1; j < W_LEN; j += 2)
        table[j] = 1;
    enum { SAME, STAY, MOVE };
    static const struct {
        double table_lr, table_lambda;
        TexelAdam adam;
        int group, rest; /* SAME: as the run without a group; STAY: within 1 of the start; MOVE: some moved */
    } rows[] = {
        {0, -1, TEXEL_ADAM_LAZY, SAME, SAME},     /* defaults: the group is the rest */
        {1.0, 1e-7, TEXEL_ADAM_LAZY, SAME, SAME}, /* given as the rest's: the same bits */
        {1.0, 1e-7, TEXEL_ADAM_DENSE, SAME, SAME},
        {0, 1.0, TEXEL_ADAM_LAZY, STAY, MOVE},    /* strong L2 on the group only */
        {0, 1.0, TEXEL_ADAM_DENSE, STAY, MOVE},
        {1e-6, -1, TEXEL_ADAM_LAZY, STAY, MOVE},  /* a tiny step for the group only */
    };
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.k = K_TRUE;
    cfg.epochs = 12;
    cfg.batch_size = 5000;
    cfg.lambda = 1e-7;
    cfg.patience = 0;
    int32_t plain[2][W_LEN], w[W_LEN];
    TexelResult res, res_plain[2];
    for (int a = 0; a < 2; a++) {
        cfg.adam = a ? TEXEL_ADAM_DENSE : TEXEL_ADAM_LAZY;
        assert_int_equal(texel_tune(f->data, &f->split, &cfg, f->start, f->frozen, plain[a], &res_plain[a], err), 0);
    }
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        TexelConfig c = cfg;
        c.adam = rows[r].adam;
        c.table = table;
        c.table_lr = rows[r].table_lr;
        c.table_lambda = rows[r].table_lambda;
        assert_int_equal(texel_tune(f->data, &f->split, &c, f->start, f->frozen, w, &res, err), 0);
        const int32_t *p = plain[rows[r].adam == TEXEL_ADAM_DENSE];
        int moved[2] = {0, 0}, far[2] = {0, 0}, differ[2] = {0, 0};
        for (int j = 1; j < W_LEN; j++) {
            moved[table[j]] += w[j] != f->start[j];
            far[table[j]] += abs(w[j] - f->start[j]) > 1;
            differ[table[j]] += w[j] != p[j];
        }
        printf("row %zu: group moved %d (beyond 1: %d), rest moved %d\n", r, moved[1], far[1], moved[0]);
        const int want[2] = {rows[r].rest, rows[r].group};
        for (int g = 0; g < 2; g++) {
            if (want[g] == SAME)
                assert_int_equal(differ[g], 0);
            else if (want[g] == STAY)
                assert_int_equal(far[g], 0);
            else
                assert_true(far[g] > 5);
        }
        if (rows[r].group == SAME)
            assert_true(res.valid_loss == res_plain[rows[r].adam == TEXEL_ADAM_DENSE].valid_loss);
    }
    /* a step or L2 that is not a number is refused */
    TexelConfig bad = cfg;
    bad.table = table;
    bad.table_lr = NAN;
    assert_int_equal(texel_tune(f->data, &f->split, &bad, f->start, f->frozen, w, &res, err), -1);
    assert_non_null(strstr(err, "table step"));
    fixture_free(f);
}

/* ----------------------------------------------------------- throughput */

static void test_bench(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    int32_t truth[256];
    TexelData *d = texel_data_new(256);
    assert_int_equal(texel_data_synthetic(d, 200000, 24, 1.0, 9, truth, err), 0);
    for (int threads = 1; threads <= 2; threads++) {
        TexelBench b;
        assert_int_equal(texel_bench(d, truth, threads, 5, &b, err), 0);
        printf("texel bench: %d thread(s), %.2f M evaluations/s (%llu in %.3f s), "
               "%.1f bytes/position\n",
               b.threads, b.evals_per_sec / 1e6, (unsigned long long)b.evals, b.seconds,
               b.bytes_per_position);
        assert_int_equal(b.threads, threads);
        assert_true(b.evals_per_sec > 0);
    }
    TexelBench b;
    assert_int_equal(texel_bench(d, truth, 1, 0, &b, err), -1);
    texel_data_free(d);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_k),
        cmocka_unit_test(test_tune_full_batch),
        cmocka_unit_test(test_tune_mini_batch),
        cmocka_unit_test(test_rounded_back_to_start),
        cmocka_unit_test(test_threads_identical),
        cmocka_unit_test(test_sharded_identical),
        cmocka_unit_test(test_sharded_k_loss_and_errors),
        cmocka_unit_test(test_lazy_equals_dense),
        cmocka_unit_test(test_million_weights),
        cmocka_unit_test(test_frozen_l2_and_stop),
        cmocka_unit_test(test_table_group),
        cmocka_unit_test(test_bench),
    };
    if (argc > 1) /* a glob of test names, for a quick rerun of one */
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
