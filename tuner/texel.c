/* texel.c — the tuner (see texel.h for the model and the formulas): its
 * configuration, the Adam steps, texel_tune and the throughput bench. The
 * position store is in texel_data.c, the passes, loss and K in
 * texel_loss.c; texel_internal.h is what they share. */
#include "tuner/texel.h"

#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "tuner/texel_internal.h"
#include "util/clock.h"
#include "util/rng.h"

_Static_assert(TEXEL_WEIGHTS_MAX == 1 << 24, "stored entries hold a 24-bit index");

void texel_set_err(char err[TEXEL_ERR_MAX], const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, TEXEL_ERR_MAX, fmt, ap);
    va_end(ap);
}

/* ============================================================= the tuner */

void texel_config_default(TexelConfig *cfg)
{
    *cfg = (TexelConfig){
        .k = 0,
        .k_lo = 0.01,
        .k_hi = 10,
        .epochs = 1000,
        .batch_size = 0,
        .lr = 1.0,
        .beta1 = 0.9,
        .beta2 = 0.999,
        .eps = 1e-10,
        .lambda = 0,
        .anchor = TEXEL_L2_START,
        .table = NULL,
        .table_lr = 0,
        .table_lambda = -1,
        .adam = TEXEL_ADAM_LAZY,
        .patience = 20,
        .threads = 0,
        .seed = 1,
        .progress = NULL,
        .progress_ctx = NULL,
        .reducer = NULL,
    };
}

static int check_config(const TexelConfig *cfg, char err[TEXEL_ERR_MAX])
{
    if (cfg->k <= 0 && texel_check_k_bracket(cfg->k_lo, cfg->k_hi, err) != 0)
        return -1;
    if (!isfinite(cfg->k)) {
        texel_set_err(err, "tuner: K %g is not finite", cfg->k);
        return -1;
    }
    if (cfg->epochs < 0 || cfg->patience < 0) {
        texel_set_err(err, "tuner: epochs %d and patience %d must be >= 0", cfg->epochs, cfg->patience);
        return -1;
    }
    if (!(cfg->lr > 0 && isfinite(cfg->lr))) {
        texel_set_err(err, "tuner: learning rate %g must be > 0", cfg->lr);
        return -1;
    }
    if (!(cfg->beta1 >= 0 && cfg->beta1 < 1 && cfg->beta2 >= 0 && cfg->beta2 < 1)) {
        texel_set_err(err, "tuner: Adam betas %g, %g must be in [0, 1)", cfg->beta1, cfg->beta2);
        return -1;
    }
    if (!(cfg->eps > 0 && isfinite(cfg->eps))) {
        texel_set_err(err, "tuner: Adam eps %g must be > 0", cfg->eps);
        return -1;
    }
    if (!(cfg->lambda >= 0 && isfinite(cfg->lambda))) {
        texel_set_err(err, "tuner: L2 lambda %g must be >= 0", cfg->lambda);
        return -1;
    }
    if (!isfinite(cfg->table_lr) || !isfinite(cfg->table_lambda)) {
        texel_set_err(err, "tuner: table step %g and L2 %g must be finite", cfg->table_lr, cfg->table_lambda);
        return -1;
    }
    if (cfg->adam != TEXEL_ADAM_LAZY && cfg->adam != TEXEL_ADAM_DENSE) {
        texel_set_err(err, "tuner: unknown Adam variant %d", (int)cfg->adam);
        return -1;
    }
    const TexelReducer *red = cfg->reducer;
    if (red && !(red->ranks >= 1 && red->rank >= 0 && red->rank < red->ranks && red->gather)) {
        texel_set_err(err, "tuner: reducer rank %d of %d (or its gather) is not valid", red->rank, red->ranks);
        return -1;
    }
    if (cfg->anchor != TEXEL_L2_START && cfg->anchor != TEXEL_L2_ZERO) {
        texel_set_err(err, "tuner: unknown L2 anchor %d", (int)cfg->anchor);
        return -1;
    }
    return 0;
}

static int check_indices(const uint32_t *idx, size_t len, size_t positions, const char *what,
                         char err[TEXEL_ERR_MAX])
{
    for (size_t i = 0; i < len; i++)
        if (idx[i] >= positions) {
            texel_set_err(err, "tuner: %s set entry %zu is position %u of only %zu", what, i,
                          (unsigned)idx[i], positions);
            return -1;
        }
    return 0;
}

/* Working memory of one tuning run. */
typedef struct Work {
    /* every array indexed in the passes' layout (lay) */
    double *w, *best, *anchor, *m, *v;
    uint8_t *frozen, *table; /* the caller's frozen and cfg->table, laid out (NULL: none) */
    uint64_t *last;  /* lazy Adam: the step of each weight's last update */
    uint32_t *order; /* shuffled training set (mini-batch only) */
    uint32_t *chunk; /* shuffled chunk numbers (mini-batch only) */
    Grad grad;
} Work;

static void work_free(Work *wk)
{
    free(wk->w), free(wk->best), free(wk->anchor), free(wk->m), free(wk->v);
    free(wk->frozen), free(wk->table);
    free(wk->last), free(wk->order), free(wk->chunk);
    texel_grad_free(&wk->grad);
}

/* beta^k for the lazy Adam's skipped steps: two table look-ups for k <
 * 2^20 (beta^(1024 hi) * beta^lo), pow beyond. beta^0 is exactly 1. */
enum { DECAY_LO = 1024 };
typedef struct Decay {
    double lo[DECAY_LO], hi[DECAY_LO];
} Decay;

static void decay_init(Decay *t, double beta)
{
    for (int i = 0; i < DECAY_LO; i++) {
        t->lo[i] = pow(beta, (double)i);
        t->hi[i] = pow(beta, (double)i * DECAY_LO);
    }
}

static inline double decay_pow(const Decay *t, double beta, uint64_t k)
{
    if (k < (uint64_t)DECAY_LO * DECAY_LO)
        return t->hi[k / DECAY_LO] * t->lo[k % DECAY_LO];
    return pow(beta, (double)k);
}

/* Step and L2 of each group: [0] the weights outside cfg->table, [1] those in it */
typedef struct GroupRates {
    double lr[2], lambda[2];
} GroupRates;

static GroupRates group_rates(const TexelConfig *cfg)
{
    GroupRates r = {{cfg->lr, cfg->table_lr > 0 ? cfg->table_lr : cfg->lr},
                    {cfg->lambda, cfg->table_lambda >= 0 ? cfg->table_lambda : cfg->lambda}};
    return r;
}

static inline int group_of(const uint8_t *table, size_t j)
{
    return table && table[j] ? 1 : 0;
}

/* sum over the free weights of lambda_j * (w_j - anchor_j)^2 */
static double l2_penalty(const TexelData *d, const Work *wk, const GroupRates *gr)
{
    double sum = 0;
    for (size_t i = 0; i < (size_t)d->weights_len; i++) { /* in weight order, whatever the layout */
        const size_t j = lay(d, i);
        if (!(wk->frozen && wk->frozen[j]))
            sum += gr->lambda[group_of(wk->table, j)] * (wk->w[j] - wk->anchor[j]) * (wk->w[j] - wk->anchor[j]);
    }
    return sum;
}

/* One Adam step on the weights the last pass touched (lazy) or on every
 * free weight (dense), clearing the pass's gradient behind it. Each owner
 * thread of the gradient updates its own weights: a weight's update reads
 * and writes only its own slots, so the result does not depend on the
 * threads. Lazy Adam: a weight last updated at step t0 < step - 1 skipped
 * k = step - t0 - 1 steps in which dense Adam would have seen no data
 * gradient: its moments decay in closed form, m *= beta1^k, v *= beta2^k
 * (the moment update with g = 0, k times), and the L2 gradient of those k
 * steps, 2 lambda (w - a) each (w did not move), is added to this step's,
 * as lazy regularisation does for sparse SGD (B. Carpenter, "Lazy sparse
 * stochastic gradient descent for regularized multinomial logistic
 * regression", 2008). The weight does not take the momentum steps it
 * skipped (as in TensorFlow's LazyAdamOptimizer). Every weight touched
 * every step: dense Adam exactly. With many touched weights an owner scans
 * its runs of weights in order rather than its touched list. */
static void adam_step(Work *wk, const TexelConfig *cfg, const GroupRates *gr, const Decay *decay,
                      uint64_t step, double scale, bool lazy)
{
    Grad *g = &wk->grad;
    const int owners = g->threads;
    const size_t wn = g->wn;
    size_t touched = 0;
    for (int o = 0; o < owners; o++)
        touched += g->touched_len[o];
    const bool scan = !lazy || touched > wn / DENSE_SHARE;
    const double bias1 = 1.0 - pow(cfg->beta1, (double)step);
    const double bias2 = 1.0 - pow(cfg->beta2, (double)step);
    const double b1 = cfg->beta1, b2 = cfg->beta2, eps = cfg->eps;
#pragma omp parallel for num_threads(owners) schedule(static, 1)
    for (int o = 0; o < owners; o++) {
        const uint32_t *list = g->touched[o];
        const size_t len = g->touched_len[o];
        size_t at = 0, j0 = g->own_lo[o];
        const size_t j_end = g->own_lo[o + 1];
        for (;;) {
            size_t j;
            if (scan) { /* the owner's weights in order */
                if (j0 >= j_end)
                    break;
                j = j0++;
                if (lazy && !g->gmark[j])
                    continue;
            } else {
                if (at >= len)
                    break;
                j = list[at++];
            }
            const double gj = g->grad[j];
            g->grad[j] = 0;
            g->gmark[j] = 0;
            if (wk->frozen && wk->frozen[j])
                continue;
            const int grp = group_of(wk->table, j);
            const double lam2 = 2.0 * gr->lambda[grp];
            double m = wk->m[j], v = wk->v[j], l2;
            if (lazy) {
                const uint64_t k = step - wk->last[j] - 1;
                if (k > 0) {
                    m *= decay_pow(&decay[0], cfg->beta1, k);
                    v *= decay_pow(&decay[1], cfg->beta2, k);
                }
                l2 = lam2 * (double)(k + 1) * (wk->w[j] - wk->anchor[j]);
                wk->last[j] = step;
            } else {
                l2 = lam2 * (wk->w[j] - wk->anchor[j]);
            }
            const double gv = gj * scale + l2;
            m = b1 * m + (1.0 - b1) * gv;
            v = b2 * v + (1.0 - b2) * gv * gv;
            wk->m[j] = m, wk->v[j] = v;
            wk->w[j] -= gr->lr[grp] * (m / bias1) / (sqrt(v / bias2) + eps);
        }
        g->touched_len[o] = 0;
    }
}

static int32_t round_weight(double x)
{
    if (x >= (double)INT32_MAX)
        return INT32_MAX;
    if (x <= (double)INT32_MIN)
        return INT32_MIN;
    return (int32_t)lround(x);
}

int texel_tune(const TexelData *data, const TexelSplit *split, const TexelConfig *cfg,
               const int32_t *start, const uint8_t *frozen, int32_t *weights_out,
               TexelResult *result, char err[TEXEL_ERR_MAX])
{
    if (check_config(cfg, err) != 0)
        return -1;
    if (split->train_len == 0) {
        texel_set_err(err, "tuner: empty training set");
        return -1;
    }
    if (check_indices(split->train, split->train_len, data->len, "training", err) != 0 ||
        check_indices(split->valid, split->valid_len, data->len, "validation", err) != 0)
        return -1;

    const int w_len = data->weights_len;
    const size_t wn = (size_t)w_len;
    const int threads = texel_thread_count(cfg->threads);
    const size_t n_train = split->train_len, n_valid = split->valid_len;
    const size_t batch = cfg->batch_size == 0 || cfg->batch_size > n_train ? n_train
                                                                           : cfg->batch_size;
    const bool mini = batch < n_train;

    const bool lazy = cfg->adam == TEXEL_ADAM_LAZY;
    const GroupRates gr = group_rates(cfg);
    Work wk = {0};
    wk.w = malloc(wn * sizeof *wk.w);
    wk.best = malloc(wn * sizeof *wk.best);
    wk.anchor = malloc(wn * sizeof *wk.anchor);
    wk.m = calloc(wn, sizeof *wk.m);
    wk.v = calloc(wn, sizeof *wk.v);
    wk.last = lazy ? calloc(wn, sizeof *wk.last) : NULL;
    wk.frozen = frozen ? malloc(wn) : NULL;
    wk.table = cfg->table ? malloc(wn) : NULL;
    wk.order = mini ? malloc(n_train * sizeof *wk.order) : NULL;
    wk.chunk = mini ? malloc((n_train / TEXEL_SHUFFLE_CHUNK + 1) * sizeof *wk.chunk) : NULL;
    if (!wk.w || !wk.best || !wk.anchor || !wk.m || !wk.v || (lazy && !wk.last) || (frozen && !wk.frozen) || (cfg->table && !wk.table) || (mini && (!wk.order || !wk.chunk)) ||
        texel_grad_init(&wk.grad, wn, threads) != 0) {
        work_free(&wk);
        texel_set_err(err, "tuner: out of memory for %d weights", w_len);
        return -1;
    }
    Decay *decay = NULL;
    if (lazy && !(decay = malloc(2 * sizeof *decay))) {
        work_free(&wk);
        texel_set_err(err, "tuner: out of memory");
        return -1;
    }
    if (lazy) {
        decay_init(&decay[0], cfg->beta1);
        decay_init(&decay[1], cfg->beta2);
    }
    int rc = -1;
    for (size_t i = 0; i < wn; i++) {
        const size_t j = lay(data, i);
        wk.w[j] = wk.best[j] = start[i];
        wk.anchor[j] = cfg->anchor == TEXEL_L2_ZERO ? 0.0 : start[i];
        if (wk.frozen)
            wk.frozen[j] = frozen[i];
        if (wk.table)
            wk.table[j] = cfg->table[i];
    }

    TexelResult res = {0};
    res.k = cfg->k;
    Shard sh = {.red = cfg->reducer, .frozen = wk.frozen};
    if (!(cfg->k > 0)) {
        double loss_k;
        texel_k_search(data, split->train, n_train, wk.w, cfg->k_lo, cfg->k_hi, threads, &sh, &res.k, &loss_k);
    }
    const double c = texel_k_scale(res.k);

    /* the loss of the current weights on both sets */
#define TRAIN_LOSS(w) (texel_pass(data, split->train, n_train, (w), c, threads, NULL, &sh) / (double)n_train)
#define VALID_LOSS(w) \
    (n_valid ? texel_pass(data, split->valid, n_valid, (w), c, threads, NULL, &sh) / (double)n_valid : NAN)

    res.train_loss_start = TRAIN_LOSS(wk.w);
    res.valid_loss_start = VALID_LOSS(wk.w);
    res.best_valid_loss = n_valid ? res.valid_loss_start
                                  : res.train_loss_start + l2_penalty(data, &wk, &gr);
    res.best_epoch = 0;
    res.stop = TEXEL_STOP_EPOCHS;
    bool stop = false;
    if (!sh.failed && cfg->progress) {
        TexelEpoch ep = {0, res.train_loss_start, res.valid_loss_start, true};
        stop = cfg->progress(cfg->progress_ctx, &ep) != 0;
    }
    if (!sh.failed && texel_shard_any(&sh, stop, &stop) == 0 && stop)
        res.stop = TEXEL_STOP_CALLER;
    if (sh.failed) {
        texel_set_err(err, "tuner: %s", sh.err);
        goto done;
    }

    uint64_t step = 0;
    int stale = 0;
    for (int epoch = 1; epoch <= cfg->epochs && res.stop == TEXEL_STOP_EPOCHS; epoch++) {
        const uint32_t *order = split->train;
        if (mini) {
            /* Fisher-Yates over chunks of TEXEL_SHUFFLE_CHUNK consecutive
             * training positions, seeded from (seed, epoch): a batch reads
             * memory in runs, not one cache miss a position */
            const size_t chunk = TEXEL_SHUFFLE_CHUNK, chunks = (n_train + chunk - 1) / chunk;
            for (size_t q = 0; q < chunks; q++)
                wk.chunk[q] = (uint32_t)q;
            uint64_t s = rng_derive(cfg->seed, (uint64_t)epoch);
            for (size_t i = chunks - 1; i > 0; i--) {
                size_t j = (size_t)rng_below(&s, (uint64_t)i + 1);
                uint32_t t = wk.chunk[i];
                wk.chunk[i] = wk.chunk[j];
                wk.chunk[j] = t;
            }
            size_t at = 0;
            for (size_t q = 0; q < chunks; q++) {
                const size_t lo = (size_t)wk.chunk[q] * chunk, hi = lo + chunk < n_train ? lo + chunk : n_train;
                memcpy(wk.order + at, split->train + lo, (hi - lo) * sizeof *wk.order);
                at += hi - lo;
            }
            order = wk.order;
        }
        const double t_steps = clock_now_s(), c_steps = clock_process_cpu_s();
        for (size_t first = 0; first < n_train; first += batch) {
            const size_t len = n_train - first < batch ? n_train - first : batch;
            texel_pass(data, order + first, len, wk.w, c, threads, &wk.grad, &sh);
            if (wk.grad.oom || sh.failed) {
                if (sh.failed)
                    texel_set_err(err, "tuner: %s", sh.err);
                else
                    texel_set_err(err, "tuner: out of memory for a block's gradient");
                goto done;
            }
            step++;
            adam_step(&wk, cfg, &gr, decay, step, 2.0 * c / (double)len, lazy);
        }
        res.step_seconds += clock_now_s() - t_steps;
        res.step_cpu_seconds += clock_process_cpu_s() - c_steps;
        res.epochs = epoch;

        TexelEpoch ep = {epoch, TRAIN_LOSS(wk.w), VALID_LOSS(wk.w), false};
        const double select =
            n_valid ? ep.valid_loss : ep.train_loss + l2_penalty(data, &wk, &gr);
        if (select < res.best_valid_loss) {
            ep.best = true;
            res.best_valid_loss = select;
            res.best_epoch = epoch;
            memcpy(wk.best, wk.w, wn * sizeof *wk.best);
            stale = 0;
        } else if (cfg->patience > 0 && ++stale >= cfg->patience) {
            res.stop = TEXEL_STOP_PATIENCE;
        }
        stop = !sh.failed && cfg->progress && cfg->progress(cfg->progress_ctx, &ep) != 0;
        if (!sh.failed && texel_shard_any(&sh, stop, &stop) == 0 && stop)
            res.stop = TEXEL_STOP_CALLER;
        if (sh.failed) {
            texel_set_err(err, "tuner: %s", sh.err);
            goto done;
        }
    }

    for (size_t i = 0; i < wn; i++) {
        if (!isfinite(wk.best[lay(data, i)])) {
            texel_set_err(err, "tuner: weight %zu diverged (%g); lower the learning rate", i, wk.best[lay(data, i)]);
            goto done;
        }
    }
    /* final losses with the rounded weights (frozen ones exactly as given) */
    for (size_t i = 0; i < wn; i++) {
        const size_t j = lay(data, i);
        wk.best[j] = (frozen && frozen[i]) ? start[i] : (double)round_weight(wk.best[j]);
    }
    res.train_loss = TRAIN_LOSS(wk.best);
    res.valid_loss = VALID_LOSS(wk.best);
    if (n_valid && res.best_epoch > 0 && !(res.valid_loss < res.valid_loss_start)) {
        /* selected on real-valued weights, worse once rounded: never a result that loses to its start on the
         * held-out positions (a 2026-12-07 Turkish train stored such a set; its gate then played 1,000 games) */
        res.rounded_back = res.best_epoch;
        res.best_epoch = 0;
        for (size_t i = 0; i < wn; i++) wk.best[lay(data, i)] = start[i];
        res.train_loss = res.train_loss_start;
        res.valid_loss = res.valid_loss_start;
    }
#undef TRAIN_LOSS
#undef VALID_LOSS
    res.gathered_bytes = sh.gathered;
    if (sh.failed) {
        texel_set_err(err, "tuner: %s", sh.err);
        goto done;
    }
    for (size_t i = 0; i < wn; i++)
        weights_out[i] = (int32_t)wk.best[lay(data, i)];
    *result = res;
    rc = 0;
done: /* every exit after the set-up: the shared buffer, the decay tables, the work arrays */
    free(sh.buf);
    free(decay);
    work_free(&wk);
    return rc;
}

/* ============================================================ throughput */

int texel_bench(const TexelData *data, const int32_t *weights, int threads, int passes,
                TexelBench *bench, char err[TEXEL_ERR_MAX])
{
    if (data->len == 0 || passes < 1) {
        texel_set_err(err, "tuner bench: need positions (have %zu) and passes >= 1 (have %d)",
                      data->len, passes);
        return -1;
    }
    const int nt = texel_thread_count(threads);
    double *w = texel_weights_laid(data, weights);
    Grad gr;
    if (!w || texel_grad_init(&gr, (size_t)data->weights_len, nt) != 0) {
        free(w);
        texel_set_err(err, "tuner bench: out of memory");
        return -1;
    }
    const double c = texel_k_scale(1.0);
    texel_pass(data, NULL, data->len, w, c, nt, &gr, NULL); /* warm the caches and threads */
    texel_grad_clear(&gr);
    const double t0 = clock_now_s(), c0 = clock_process_cpu_s();
    for (int i = 0; i < passes; i++) {
        texel_pass(data, NULL, data->len, w, c, nt, &gr, NULL);
        texel_grad_clear(&gr);
    }
    const double seconds = clock_now_s() - t0;
    bench->cpu_seconds = clock_process_cpu_s() - c0;
    const bool oom = gr.oom;
    free(w);
    texel_grad_free(&gr);
    if (oom) {
        texel_set_err(err, "tuner bench: out of memory for a block's gradient");
        return -1;
    }
    bench->threads = nt;
    bench->evals = (uint64_t)passes * data->len;
    bench->seconds = seconds;
    bench->evals_per_sec = seconds > 0 ? (double)bench->evals / seconds : 0;
    bench->bytes_per_position = texel_data_bytes_per_position(data);
    return 0;
}
