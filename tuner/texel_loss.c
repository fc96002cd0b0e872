/* texel_loss.c — the tuner's passes over the position store: the blocked
 * gradient and its merge, the passes shared by ranks, the loss and the fit
 * of K (texel.h, "loss" and "Shards"). */
#include "tuner/texel.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/texel_internal.h"

/* ============================================================== the passes */

enum { OWNER_SHIFT = 4 }; /* owners' ranges are multiples of 16 doubles (two cache lines) */

/* The entries of list[0..len) that lie in [lo, hi): all of them checked,
 * or, sorted, found by binary search. Stores the first in *first and
 * returns the end. */
static size_t own_range(const uint32_t *list, size_t len, bool sorted, size_t lo, size_t hi, size_t *first)
{
    if (!sorted) {
        *first = 0;
        return len;
    }
    size_t a = 0, b = len;
    while (a < b) {
        const size_t m = a + (b - a) / 2;
        if (list[m] < lo) a = m + 1; else b = m;
    }
    *first = a;
    b = len;
    size_t c = a;
    while (c < b) {
        const size_t m = c + (b - c) / 2;
        if (list[m] < hi) c = m + 1; else b = m;
    }
    return c;
}

void texel_grad_free(Grad *g)
{
    if (!g)
        return;
    free(g->acc), free(g->mark), free(g->units), free(g->grad), free(g->gmark);
    for (int b = 0; b < ROUND_BLOCKS; b++)
        free(g->slot[b].idx), free(g->slot[b].val);
    if (g->touched)
        for (int t = 0; t < g->threads; t++)
            free(g->touched[t]);
    free(g->touched), free(g->touched_len), free(g->own_lo);
    memset(g, 0, sizeof *g);
}

int texel_grad_init(Grad *g, size_t wn, int threads)
{
    memset(g, 0, sizeof *g);
    g->threads = threads;
    g->wn = wn;
    g->acc = calloc((size_t)threads * wn, sizeof *g->acc);
    g->mark = calloc((size_t)threads * wn, 1);
    g->units = malloc((size_t)threads * (wn + 1) * sizeof *g->units); /* wn + 1 a thread: block_sum writes one past its count */
    g->grad = calloc(wn, sizeof *g->grad);
    g->gmark = calloc(wn, 1);
    g->touched = calloc((size_t)threads, sizeof *g->touched);
    g->touched_len = calloc((size_t)threads, sizeof *g->touched_len);
    g->own_lo = malloc(((size_t)threads + 1) * sizeof *g->own_lo);
    if (!g->own_lo || !g->acc || !g->mark || !g->units || !g->grad || !g->gmark || !g->touched || !g->touched_len) {
        texel_grad_free(g);
        return -1;
    }
    /* owner t holds the weights own_lo[t] .. own_lo[t + 1] - 1 */
    const size_t run = (size_t)1 << OWNER_SHIFT, per = (wn / run / (size_t)threads + 1) * run;
    for (int t = 0; t <= threads; t++) {
        const size_t lo = (size_t)t * per;
        g->own_lo[t] = lo < wn ? lo : wn;
    }
    for (int t = 0; t < threads; t++)
        if (!(g->touched[t] = malloc(per * sizeof **g->touched))) {
            texel_grad_free(g);
            return -1;
        }
    return 0;
}

/* Zero the gradient of the last pass (its touched weights only). */
void texel_grad_clear(Grad *g)
{
    for (int t = 0; t < g->threads; t++) {
        for (size_t k = 0; k < g->touched_len[t]; k++) {
            const uint32_t j = g->touched[t][k];
            g->grad[j] = 0;
            g->gmark[j] = 0;
        }
        g->touched_len[t] = 0;
    }
}

/* Sum over positions idx[lo..hi) of (sigma - r)^2; if gr is not NULL, also
 * the block's gradient (sigma - r) * sigma * (1 - sigma) * coef_j (up to the
 * constant factor 2c, applied by the caller) into gr's slot `slot`, summed
 * in position order with the accumulator of thread `tid`. w and the slot's
 * indices are in the passes' layout (lay). */
static double block_sum(const TexelData *d, const uint32_t *idx, size_t lo, size_t hi,
                        const double *w, double c, Grad *gr, int slot, int tid)
{
    const uint32_t *offset = d->offset;
    double *acc = NULL;
    uint8_t *mark = NULL;
    uint32_t *units = NULL;
    BlockGrad *bg = NULL;
    size_t n = 0;
    if (gr) {
        acc = gr->acc + (size_t)tid * gr->wn;
        mark = gr->mark + (size_t)tid * gr->wn;
        units = gr->units + (size_t)tid * (gr->wn + 1);
        bg = &gr->slot[slot];
        /* a block touches at most (entries of the block) * (1 or 2)
         * weights, and an entry takes at least one code byte */
        const size_t first = offset[idx ? idx[lo] : lo];
        size_t entries = 0;
        if (idx) {
            for (size_t p = lo; p < hi; p++)
                entries += offset[idx[p] + 1] - offset[idx[p]];
        } else {
            entries = offset[hi] - first;
        }
        size_t need = entries * (d->phase ? 2 : 1);
        if (need > gr->wn)
            need = gr->wn;
        need += 2; /* the branch-free dense move below writes up to 2 slots past its last */
        if (need > bg->cap) {
            uint32_t *ni = realloc(bg->idx, need * sizeof *ni);
            if (ni)
                bg->idx = ni;
            double *nv = realloc(bg->val, need * sizeof *nv);
            if (nv)
                bg->val = nv;
            if (!ni || !nv) {
#pragma omp atomic write
                gr->oom = true;
                bg->len = 0;
                gr = NULL; /* loss only; the caller reports the failure */
            } else {
                bg->cap = need;
            }
        }
    }
    double loss = 0;
    uint32_t ix[TRACE_MAX];
    double cf[TRACE_MAX];
    if (d->phase) { /* tapered: e = (ph * op + (P - ph) * eg) / P */
        const double inv_p = 1.0 / d->phase_max;
        /* software pipeline: the next position is decoded, and its weights
         * and accumulators prefetched, before this one is evaluated (the
         * gathers from a large model miss the caches) */
        uint32_t ixb[2][TRACE_MAX];
        double cfb[2][TRACE_MAX];
        int lenb[2] = {0, 0};
        if (lo < hi)
            lenb[0] = decode(d, idx ? idx[lo] : lo, ixb[0], cfb[0]);
        for (size_t p = lo; p < hi; p++) {
            const int cur = (int)((p - lo) & 1);
            const size_t i = idx ? idx[p] : p;
            if (p + 1 < hi) {
                const int nx = cur ^ 1;
                lenb[nx] = decode(d, idx ? idx[p + 1] : p + 1, ixb[nx], cfb[nx]);
                for (int t = 0; t < lenb[nx]; t++) {
                    __builtin_prefetch(w + 2 * (size_t)ixb[nx][t], 0, 3);
                    if (gr)
                        __builtin_prefetch(acc + 2 * (size_t)ixb[nx][t], 1, 3);
                }
            }
            const uint32_t *ix_ = ixb[cur];
            const double *cf_ = cfb[cur];
            const int len = lenb[cur];
            const double f_op = d->phase[i] * inv_p, f_eg = 1.0 - f_op;
            double op = 0, eg = 0;
            for (int t = 0; t < len; t++) {
                const double *pair = w + 2 * (size_t)ix_[t];
                op += cf_[t] * pair[0];
                eg += cf_[t] * pair[1];
            }
            const double e = f_op * op + f_eg * eg;
            const double s = 1.0 / (1.0 + exp(-c * e));
            const double diff = s - d->result[i] * (1.0 / TEXEL_TARGET_SCALE);
            loss += diff * diff;
            if (gr) {
                const double f = diff * s * (1.0 - s);
                for (int t = 0; t < len; t++) { /* a position's units are distinct */
                    const uint32_t u = ix_[t];
                    const double fc = f * cf_[t];
                    units[n] = u; /* kept on the first touch (no branch to mispredict) */
                    n += mark[u] ^ 1u;
                    mark[u] = 1;
                    acc[2 * (size_t)u] += fc * f_op;
                    acc[2 * (size_t)u + 1] += fc * f_eg;
                }
            }
        }
    } else {
        for (size_t p = lo; p < hi; p++) {
            const size_t i = idx ? idx[p] : p;
            const int len = decode(d, i, ix, cf);
            double e = 0;
            for (int t = 0; t < len; t++)
                e += cf[t] * w[ix[t]];
            const double s = 1.0 / (1.0 + exp(-c * e));
            const double diff = s - d->result[i] * (1.0 / TEXEL_TARGET_SCALE);
            loss += diff * diff;
            if (gr) {
                const double f = diff * s * (1.0 - s);
                for (int t = 0; t < len; t++) {
                    const uint32_t u = ix[t];
                    units[n] = u;
                    n += mark[u] ^ 1u;
                    mark[u] = 1;
                    acc[u] += f * cf[t];
                }
            }
        }
    }
    if (gr) { /* move the block's sums into its slot, clearing behind */
        const size_t per = d->phase ? 2 : 1, all = unit_count(d);
        size_t k = 0;
        bg->sorted = n > all / DENSE_SHARE;
        if (bg->sorted && per == 2) { /* many: in unit order, every unit written, the marked kept */
            for (size_t u = 0; u < all; u++) {
                bg->idx[k] = (uint32_t)(2 * u);
                bg->idx[k + 1] = (uint32_t)(2 * u + 1);
                bg->val[k] = acc[2 * u];
                bg->val[k + 1] = acc[2 * u + 1];
                k += 2 * (size_t)mark[u];
                acc[2 * u] = acc[2 * u + 1] = 0;
                mark[u] = 0;
            }
        } else if (bg->sorted) {
            for (size_t u = 0; u < all; u++) {
                bg->idx[k] = (uint32_t)u;
                bg->val[k] = acc[u];
                k += mark[u];
                acc[u] = 0;
                mark[u] = 0;
            }
        } else {
            for (size_t q = 0; q < n; q++) {
                const size_t u = units[q];
                mark[u] = 0;
                for (size_t h = 0; h < per; h++) {
                    const size_t j = per * u + h;
                    bg->idx[k] = (uint32_t)j;
                    bg->val[k++] = acc[j];
                    acc[j] = 0;
                }
            }
        }
        bg->len = k;
    }
    return loss;
}

/* Sum of squared errors over idx[0..len) (idx NULL: positions 0..len-1)
 * with real weights w and c = K ln 10 / 400. If gr is not NULL (its
 * gradient cleared, grad_clear) it receives sum (sigma - r) sigma (1 -
 * sigma) coef_j for every weight the positions touch, and gr->threads
 * threads are used; otherwise `threads`. Blocks of TEXEL_BLOCK_POSITIONS
 * are summed in block order: bit-identical for any thread count. Sets
 * gr->oom (and the gradient is incomplete) if a slot could not grow. */
static double pass_local(const TexelData *d, const uint32_t *idx, size_t len, const double *w, double c,
                         int threads, Grad *gr)
{
    const size_t blocks = (len + TEXEL_BLOCK_POSITIONS - 1) / TEXEL_BLOCK_POSITIONS;
    double total = 0;
    if (gr)
        threads = gr->threads;
    for (size_t first = 0; first < blocks; first += ROUND_BLOCKS) {
        const int round = (int)(blocks - first < ROUND_BLOCKS ? blocks - first : ROUND_BLOCKS);
        double sums[ROUND_BLOCKS];
        /* one parallel region a round: the blocks, a barrier, the merge */
#pragma omp parallel num_threads(round < threads ? round : threads)
        {
#pragma omp for schedule(dynamic, 1)
            for (int b = 0; b < round; b++) {
                const size_t lo = (first + (size_t)b) * TEXEL_BLOCK_POSITIONS;
                const size_t hi = lo + TEXEL_BLOCK_POSITIONS < len ? lo + TEXEL_BLOCK_POSITIONS : len;
                sums[b] = block_sum(d, idx, lo, hi, w, c, gr, b, omp_get_thread_num());
            }
            if (gr) {
                /* merge the slots in block order, each weight by its owner
                 * (every owner is run, whatever the team's size) */
                const int owners = gr->threads;
#pragma omp for schedule(static, 1)
                for (int o = 0; o < owners; o++) {
                    uint32_t *touched = gr->touched[o];
                    size_t tl = gr->touched_len[o];
                    const size_t own_lo = gr->own_lo[o], own_hi = gr->own_lo[o + 1];
                    for (int b = 0; b < round; b++) {
                        const BlockGrad *bg = &gr->slot[b];
                        size_t k0;
                        const size_t k1 = own_range(bg->idx, bg->len, bg->sorted, own_lo, own_hi, &k0);
                        for (size_t k = k0; k < k1; k++) {
                            const uint32_t j = bg->idx[k];
                            if (j < own_lo || j >= own_hi)
                                continue;
                            if (!gr->gmark[j]) {
                                gr->gmark[j] = 1;
                                touched[tl++] = j;
                            }
                            gr->grad[j] += bg->val[k];
                        }
                    }
                    gr->touched_len[o] = tl;
                }
            }
        }
        for (int b = 0; b < round; b++)
            total += sums[b];
    }
    return total;
}

static bool shard_reserve(Shard *sh, size_t more)
{
    if (sh->len + more <= sh->cap)
        return true;
    size_t cap = sh->cap ? sh->cap : 4096;
    while (cap < sh->len + more)
        cap *= 2;
    double *nb = realloc(sh->buf, cap * sizeof *nb);
    if (!nb)
        return false;
    sh->buf = nb;
    sh->cap = cap;
    return true;
}

/* pass_local's sums with the blocks shared by the ranks of sh->red: this
 * rank computes blocks [nb r / R, nb (r + 1) / R) in rounds as pass_local
 * does, appends each block's loss sum and gradient list to its payload in
 * block order, and after the gather every rank adds all blocks in block
 * order: the loss left to right, each weight's gradient by its owner
 * thread, as pass_local's merge. The same bits as pass_local for any R. A
 * rank whose slot or payload could not grow sends a block marked n = -1 or
 * nothing, so every rank finds the pass incomplete and fails alike. */
static double pass_sharded(const TexelData *d, const uint32_t *idx, size_t len, const double *w, double c,
                           int threads, Grad *gr, Shard *sh)
{
    const TexelReducer *red = sh->red;
    const size_t blocks = (len + TEXEL_BLOCK_POSITIONS - 1) / TEXEL_BLOCK_POSITIONS;
    const size_t b0 = blocks * (size_t)red->rank / (size_t)red->ranks;
    const size_t b1 = blocks * (size_t)(red->rank + 1) / (size_t)red->ranks;
    if (gr)
        threads = gr->threads;
    sh->len = 0;
    bool short_buf = false;
    for (size_t first = b0; first < b1; first += ROUND_BLOCKS) {
        const int round = (int)(b1 - first < ROUND_BLOCKS ? b1 - first : ROUND_BLOCKS);
        double sums[ROUND_BLOCKS];
#pragma omp parallel for num_threads(round < threads ? round : threads) schedule(dynamic, 1)
        for (int b = 0; b < round; b++) {
            const size_t lo = (first + (size_t)b) * TEXEL_BLOCK_POSITIONS;
            const size_t hi = lo + TEXEL_BLOCK_POSITIONS < len ? lo + TEXEL_BLOCK_POSITIONS : len;
            sums[b] = block_sum(d, idx, lo, hi, w, c, gr, b, omp_get_thread_num());
        }
        for (int b = 0; b < round && !short_buf; b++) {
            const BlockGrad *bg = gr ? &gr->slot[b] : NULL;
            const size_t n = gr && !gr->oom ? bg->len : 0;
            if (!shard_reserve(sh, 2 + 2 * n)) {
                short_buf = true;
                break;
            }
            sh->buf[sh->len++] = sums[b];
            const size_t at = sh->len++;
            size_t sent = 0;
            for (size_t k = 0; k < n; k++) {
                if (sh->frozen && sh->frozen[bg->idx[k]])
                    continue;
                sh->buf[sh->len++] = (double)bg->idx[k];
                sh->buf[sh->len++] = bg->val[k];
                sent++;
            }
            sh->buf[at] = gr && gr->oom ? -1.0 : (double)sent;
        }
    }
    if (short_buf)
        sh->len = 0; /* the others find this rank's blocks missing */
    double *all = NULL;
    size_t all_len = 0;
    if (red->gather(red->ctx, sh->buf, sh->len, &all, &all_len, sh->err) != 0) {
        free(all);
        sh->failed = true;
        return NAN;
    }
    sh->gathered += (double)all_len * sizeof *all;
    double total = 0;
    size_t count = 0;
    bool bad = false;
    for (size_t p = 0; p < all_len; count++) {
        if (all_len - p < 2 || !(all[p + 1] >= 0) || (all_len - p - 2) / 2 < (size_t)all[p + 1]) {
            bad = true;
            break;
        }
        total += all[p];
        p += 2 + 2 * (size_t)all[p + 1];
    }
    if (bad || count != blocks) {
        free(all);
        if (gr)
            gr->oom = true;
        sh->failed = true;
        texel_set_err(sh->err, "shared pass: %zu of %zu blocks arrived whole (a rank ran out of memory)",
                      bad ? 0 : count, blocks);
        return NAN;
    }
    if (gr) {
        const int owners = gr->threads;
#pragma omp parallel for num_threads(owners) schedule(static, 1)
        for (int o = 0; o < owners; o++) {
            uint32_t *touched = gr->touched[o];
            size_t tl = gr->touched_len[o];
            const size_t own_lo = gr->own_lo[o], own_hi = gr->own_lo[o + 1];
            for (size_t p = 0; p < all_len;) {
                const size_t n = (size_t)all[p + 1];
                const double *pair = all + p + 2;
                for (size_t k = 0; k < n; k++) {
                    const uint32_t j = (uint32_t)pair[2 * k];
                    if (j < own_lo || j >= own_hi)
                        continue;
                    if (!gr->gmark[j]) {
                        gr->gmark[j] = 1;
                        touched[tl++] = j;
                    }
                    gr->grad[j] += pair[2 * k + 1];
                }
                p += 2 + 2 * n;
            }
            gr->touched_len[o] = tl;
        }
    }
    free(all);
    return total;
}

/* The pass of this process alone (sh NULL or without a reducer) or shared
 * by the ranks of sh->red: the same sums either way. */
double texel_pass(const TexelData *d, const uint32_t *idx, size_t len, const double *w, double c,
                  int threads, Grad *gr, Shard *sh)
{
    if (sh && sh->red)
        return pass_sharded(d, idx, len, w, c, threads, gr, sh);
    return pass_local(d, idx, len, w, c, threads, gr);
}

/* Did any rank ask to stop? One flag a rank, gathered (false alone). */
int texel_shard_any(Shard *sh, bool mine, bool *any)
{
    *any = mine;
    if (!sh->red)
        return 0;
    const double flag = mine ? 1.0 : 0.0;
    double *all = NULL;
    size_t all_len = 0;
    if (sh->red->gather(sh->red->ctx, &flag, 1, &all, &all_len, sh->err) != 0) {
        free(all);
        sh->failed = true;
        return -1;
    }
    for (size_t i = 0; i < all_len; i++)
        if (all[i] != 0)
            *any = true;
    free(all);
    return 0;
}

/* The weights as doubles in the passes' layout (lay). */
double *texel_weights_laid(const TexelData *d, const int32_t *weights)
{
    const size_t len = (size_t)d->weights_len;
    double *w = malloc(len * sizeof *w);
    if (w)
        for (size_t j = 0; j < len; j++)
            w[lay(d, j)] = weights[j];
    return w;
}

/* ========================================================= the loss and K */

int texel_loss(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
               double k, int threads, double *loss, char err[TEXEL_ERR_MAX])
{
    return texel_loss_sharded(data, idx, len, weights, k, threads, NULL, loss, err);
}

int texel_loss_sharded(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
                       double k, int threads, const TexelReducer *red, double *loss,
                       char err[TEXEL_ERR_MAX])
{
    if (len == 0) {
        texel_set_err(err, "loss: no positions");
        return -1;
    }
    double *w = texel_weights_laid(data, weights);
    if (!w) {
        texel_set_err(err, "loss: out of memory");
        return -1;
    }
    Shard sh = {.red = red};
    *loss = texel_pass(data, idx, len, w, texel_k_scale(k), texel_thread_count(threads), NULL, &sh) / (double)len;
    free(w);
    free(sh.buf);
    if (sh.failed) {
        texel_set_err(err, "loss: %s", sh.err);
        return -1;
    }
    return 0;
}

/* Golden-section search of the loss over K (real weights w). */
void texel_k_search(const TexelData *d, const uint32_t *idx, size_t len, const double *w,
                    double lo, double hi, int threads, Shard *sh, double *k_out, double *loss_out)
{
    enum { SCAN = 24 };
    const double n = (double)len;
    double ks[SCAN], ls[SCAN];
    int best = 0;
    for (int i = 0; i < SCAN; i++) {
        ks[i] = lo * pow(hi / lo, (double)i / (SCAN - 1));
        ls[i] = texel_pass(d, idx, len, w, texel_k_scale(ks[i]), threads, NULL, sh) / n;
        if (ls[i] < ls[best])
            best = i;
    }
    double a = ks[best > 0 ? best - 1 : 0], b = ks[best < SCAN - 1 ? best + 1 : SCAN - 1];
    const double invphi = 0.61803398874989484820; /* (sqrt(5) - 1) / 2 */
    double x1 = b - invphi * (b - a), x2 = a + invphi * (b - a);
    double f1 = texel_pass(d, idx, len, w, texel_k_scale(x1), threads, NULL, sh) / n;
    double f2 = texel_pass(d, idx, len, w, texel_k_scale(x2), threads, NULL, sh) / n;
    for (int it = 0; it < 200 && b - a > 1e-7 * (a + b); it++) {
        if (f1 <= f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - invphi * (b - a);
            f1 = texel_pass(d, idx, len, w, texel_k_scale(x1), threads, NULL, sh) / n;
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + invphi * (b - a);
            f2 = texel_pass(d, idx, len, w, texel_k_scale(x2), threads, NULL, sh) / n;
        }
    }
    /* the best of the points seen: the scan point or the final pair */
    *k_out = ks[best], *loss_out = ls[best];
    if (f1 < *loss_out)
        *k_out = x1, *loss_out = f1;
    if (f2 < *loss_out)
        *k_out = x2, *loss_out = f2;
}

int texel_check_k_bracket(double lo, double hi, char err[TEXEL_ERR_MAX])
{
    if (!(lo > 0 && hi > lo && isfinite(hi))) {
        texel_set_err(err, "K search: bracket [%g, %g] must satisfy 0 < lo < hi", lo, hi);
        return -1;
    }
    return 0;
}

int texel_fit_k(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
                double k_lo, double k_hi, int threads, double *k, double *loss,
                char err[TEXEL_ERR_MAX])
{
    return texel_fit_k_sharded(data, idx, len, weights, k_lo, k_hi, threads, NULL, k, loss, err);
}

int texel_fit_k_sharded(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
                        double k_lo, double k_hi, int threads, const TexelReducer *red, double *k,
                        double *loss, char err[TEXEL_ERR_MAX])
{
    if (texel_check_k_bracket(k_lo, k_hi, err) != 0)
        return -1;
    if (len == 0) {
        texel_set_err(err, "K search: no positions");
        return -1;
    }
    double *w = texel_weights_laid(data, weights);
    if (!w) {
        texel_set_err(err, "K search: out of memory");
        return -1;
    }
    Shard sh = {.red = red};
    texel_k_search(data, idx, len, w, k_lo, k_hi, texel_thread_count(threads), &sh, k, loss);
    free(w);
    free(sh.buf);
    if (sh.failed) {
        texel_set_err(err, "K search: %s", sh.err);
        return -1;
    }
    return 0;
}
