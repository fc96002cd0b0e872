/* tune_shard.c — the tuning job over several ranks
 * (tune_job_internal.h): bytes through the reducer's gather of doubles,
 * the loaded positions of every rank joined on every rank, the ranks'
 * failures, and the blocks of a full batch a rank keeps. */
#include "tuner/tune_job_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing byte buffer; oom once an append failed (the rest are dropped). */
typedef struct Bytes {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} Bytes;

static void bytes_put(Bytes *b, const void *src, size_t n)
{
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        uint8_t *np = realloc(b->p, cap);
        if (!np) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void bytes_u64(Bytes *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++) x[i] = (uint8_t)(v >> 8 * i);
    bytes_put(b, x, 8);
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << 8 * i;
    return v;
}

enum { BYTES_PER_DOUBLE = 6 }; /* an integer below 2^48: exact, never a NaN pattern */

/* Every rank's mine[0..size) on every rank, in rank order, through the
 * reducer's gather of doubles (a count, then 6 bytes a double): *all
 * (malloc'd) holds them, rank r's at off[r] .. off[r + 1] (off has ranks
 * + 1 entries, malloc'd). Collective. Returns 0, or -1 with err. */
static int gather_bytes(const TexelReducer *red, const uint8_t *mine, size_t size, uint8_t **all, size_t **off,
                        char err[ERR_MAX])
{
    *all = NULL;
    *off = NULL;
    const size_t words = (size + BYTES_PER_DOUBLE - 1) / BYTES_PER_DOUBLE;
    double *out = malloc((1 + words) * sizeof *out);
    char terr[TEXEL_ERR_MAX] = "";
    double *got = NULL;
    size_t got_len = 0;
    int rc = 0;
    if (!out) { /* send nothing: every rank then finds this rank's part missing */
        rc = red->gather(red->ctx, NULL, 0, &got, &got_len, terr);
    } else {
        out[0] = (double)size;
        for (size_t w = 0; w < words; w++) {
            uint64_t v = 0;
            for (size_t k = 0; k < BYTES_PER_DOUBLE && w * BYTES_PER_DOUBLE + k < size; k++)
                v |= (uint64_t)mine[w * BYTES_PER_DOUBLE + k] << 8 * k;
            out[1 + w] = (double)v;
        }
        rc = red->gather(red->ctx, out, 1 + words, &got, &got_len, terr);
    }
    free(out);
    if (rc != 0) {
        free(got);
        snprintf(err, ERR_MAX, "gathering the positions: %.200s", terr);
        return -1;
    }
    size_t total = 0;
    for (size_t p = 0; p < got_len;) { /* the bytes in all, and a sanity check of the layout */
        const size_t n = (size_t)got[p];
        total += n;
        p += 1 + (n + BYTES_PER_DOUBLE - 1) / BYTES_PER_DOUBLE;
        if (p > got_len) total = SIZE_MAX;
        if (total == SIZE_MAX) break;
    }
    size_t *o = calloc((size_t)red->ranks + 1, sizeof *o);
    uint8_t *bytes = total != SIZE_MAX ? malloc(total ? total : 1) : NULL;
    if (!o || !bytes) {
        free(got), free(o), free(bytes);
        snprintf(err, ERR_MAX, total == SIZE_MAX ? "gathering the positions: a rank's part is malformed"
                                                 : "out of memory gathering the positions");
        return -1;
    }
    size_t at = 0, p = 0;
    int r = 0;
    for (; p < got_len && r < red->ranks; r++) {
        const size_t n = (size_t)got[p++];
        o[r] = at;
        for (size_t k = 0; k < n; k++) {
            const uint64_t v = (uint64_t)got[p + k / BYTES_PER_DOUBLE];
            bytes[at++] = (uint8_t)(v >> 8 * (k % BYTES_PER_DOUBLE));
        }
        p += (n + BYTES_PER_DOUBLE - 1) / BYTES_PER_DOUBLE;
    }
    free(got);
    if (r != red->ranks || p != got_len) {
        free(o), free(bytes);
        snprintf(err, ERR_MAX, "gathering the positions: %d of %d ranks sent their part", r, red->ranks);
        return -1;
    }
    o[r] = at;
    *all = bytes;
    *off = o;
    return 0;
}

bool tune_job_any_rank_failed(const TexelReducer *red, bool mine)
{
    const double flag = mine ? 1.0 : 0.0;
    double *all = NULL;
    size_t len = 0;
    char terr[TEXEL_ERR_MAX];
    bool any = red->gather(red->ctx, &flag, 1, &all, &len, terr) != 0;
    for (size_t i = 0; i < len; i++) any = any || all[i] != 0;
    free(all);
    return any;
}

int tune_job_gather_loaded(const TuneJobOptions *o, TexelData **data, LoadCtx *lc, int rc_in, char err[ERR_MAX])
{
    const TexelReducer *red = o->reducer;
    const Game *g = o->game;
    char terr[TEXEL_ERR_MAX] = "";
    uint8_t *packed = NULL;
    size_t psize = 0;
    int status = rc_in == 0 ? 0 : lc->interrupted ? 2 : 1;
    if (status == 0 && texel_data_pack(*data, 0, lc->len, &packed, &psize, terr) != 0) {
        snprintf(err, ERR_MAX, "%.200s", terr);
        status = 1;
    }
    Bytes b = {0};
    const size_t msg_len = status ? strlen(err) : 0;
    const uint64_t head[8] = {(uint64_t)status, status ? 0 : lc->len, (uint64_t)lc->skipped, (uint64_t)lc->resolved,
                              (uint64_t)lc->egtb_known, (uint64_t)lc->egtb_changed, msg_len, status ? 0 : psize};
    for (int i = 0; i < 8; i++) bytes_u64(&b, head[i]);
    bytes_put(&b, err, msg_len);
    for (size_t i = 0; status == 0 && i < lc->len; i++) {
        bytes_u64(&b, lc->keys[i]);
        bytes_u64(&b, lc->pkeys[i]);
        bytes_u64(&b, (uint64_t)(uint32_t)lc->plies[i] | (uint64_t)(uint32_t)lc->scores[i] << 32);
    }
    if (status == 0) bytes_put(&b, packed, psize);
    free(packed);
    uint8_t *all = NULL;
    size_t *off = NULL;
    int rc = b.oom ? gather_bytes(red, NULL, 0, &all, &off, err) : gather_bytes(red, b.p, b.len, &all, &off, err);
    free(b.p);
    if (rc == 0 && b.oom) {
        snprintf(err, ERR_MAX, "rank %d: out of memory packing its positions", red->rank);
        rc = -1;
    }
    /* the ranks' statuses first: a failing rank fails them all */
    size_t total = 0;
    int64_t sums[4] = {0};
    bool interrupted = false;
    for (int r = 0; rc == 0 && r < red->ranks; r++) {
        const uint8_t *p = all + off[r];
        const size_t size = off[r + 1] - off[r];
        uint64_t h[8];
        for (int i = 0; i < 8 && size >= 64; i++) h[i] = get_u64(p + 8 * i);
        if (size < 64 || h[6] > ERR_MAX || (h[0] == 0 && size != 64 + h[6] + 24 * h[1] + h[7])) {
            snprintf(err, ERR_MAX, "gathering the positions: rank %d's part is malformed", r);
            rc = -1;
        } else if (h[0] != 0) {
            if (h[0] == 2) interrupted = true;
            char msg[ERR_MAX];
            snprintf(msg, sizeof msg, "%.*s", (int)h[6], (const char *)p + 64);
            snprintf(err, ERR_MAX, "%s", msg);
            rc = -1;
        } else {
            total += h[1];
            for (int i = 0; i < 4; i++) sums[i] += (int64_t)h[2 + i];
        }
    }
    lc->interrupted = interrupted;
    TexelData *full = rc == 0 ? texel_data_new_tapered(g->weights_len, g->eg_offset, g->phase_max) : NULL;
    uint64_t *keys = NULL, *pkeys = NULL;
    int32_t *plies = NULL, *scores = NULL;
    if (rc == 0) {
        keys = malloc((total ? total : 1) * sizeof *keys);
        pkeys = malloc((total ? total : 1) * sizeof *pkeys);
        plies = malloc((total ? total : 1) * sizeof *plies);
        scores = malloc((total ? total : 1) * sizeof *scores);
        if (!full || !keys || !pkeys || !plies || !scores ||
            texel_data_reserve(full, total, 0, terr) != 0) {
            snprintf(err, ERR_MAX, "out of memory for %zu gathered positions", total);
            rc = -1;
        }
    }
    size_t at = 0;
    for (int r = 0; rc == 0 && r < red->ranks; r++) {
        const uint8_t *p = all + off[r];
        const size_t n = (size_t)get_u64(p + 8), m_len = (size_t)get_u64(p + 48);
        const uint8_t *k = p + 64 + m_len;
        for (size_t i = 0; i < n; i++, at++, k += 24) {
            keys[at] = get_u64(k);
            pkeys[at] = get_u64(k + 8);
            const uint64_t ps = get_u64(k + 16);
            plies[at] = (int32_t)(uint32_t)ps;
            scores[at] = (int32_t)(uint32_t)(ps >> 32);
        }
        if (texel_data_unpack(full, k, (size_t)get_u64(p + 56), terr) != 0) {
            snprintf(err, ERR_MAX, "rank %d's positions: %.200s", r, terr);
            rc = -1;
        }
    }
    free(all);
    free(off);
    if (rc != 0) {
        texel_data_free(full);
        free(keys), free(pkeys), free(plies), free(scores);
        return -1;
    }
    texel_data_free(*data);
    *data = full;
    lc->data = full;
    free(lc->keys), free(lc->pkeys), free(lc->plies), free(lc->scores);
    lc->keys = keys, lc->pkeys = pkeys, lc->plies = plies, lc->scores = scores;
    lc->len = lc->keys_cap = total;
    lc->skipped = sums[0], lc->resolved = sums[1], lc->egtb_known = sums[2], lc->egtb_changed = sums[3];
    return 0;
}

/* The positions rank r of R computes in a full-batch pass over idx[0..len)
 * (texel.h, "Shards"): idx[lo, hi) of its blocks [nb r / R, nb (r + 1) / R). */
static void own_range(size_t len, int rank, int ranks, size_t *lo, size_t *hi)
{
    const size_t blocks = (len + TEXEL_BLOCK_POSITIONS - 1) / TEXEL_BLOCK_POSITIONS;
    *lo = blocks * (size_t)rank / (size_t)ranks * TEXEL_BLOCK_POSITIONS;
    *hi = blocks * (size_t)(rank + 1) / (size_t)ranks * TEXEL_BLOCK_POSITIONS;
    if (*hi > len) *hi = len;
    if (*lo > *hi) *lo = *hi;
}

int tune_job_keep_own_blocks(const TexelReducer *red, const Game *g, TexelData **data, TexelSplit *split,
                             size_t *kept, char err[TEXEL_ERR_MAX])
{
    const size_t n = texel_data_len(*data);
    uint32_t *renum = malloc((n ? n : 1) * sizeof *renum);
    uint8_t *mark = calloc(n ? n : 1, 1);
    TexelData *mine = texel_data_new_tapered(g->weights_len, g->eg_offset, g->phase_max);
    int rc = renum && mark && mine ? 0 : -1;
    if (rc != 0) snprintf(err, TEXEL_ERR_MAX, "out of memory sharding %zu positions", n);
    size_t tlo = 0, thi = 0, vlo = 0, vhi = 0;
    own_range(split->train_len, red->rank, red->ranks, &tlo, &thi);
    own_range(split->valid_len, red->rank, red->ranks, &vlo, &vhi);
    for (size_t i = tlo; rc == 0 && i < thi; i++) mark[split->train[i]] = 1;
    for (size_t i = vlo; rc == 0 && i < vhi; i++) mark[split->valid[i]] = 1;
    if (rc == 0 && tlo == thi && vlo == vhi && n) mark[0] = 1; /* no block here: one position keeps indices valid */
    size_t len = 0;
    for (size_t p = 0; rc == 0 && p < n;) { /* runs of kept positions, copied as they are */
        if (!mark[p]) {
            p++;
            continue;
        }
        size_t q = p;
        while (q < n && mark[q]) renum[q++] = (uint32_t)len++;
        uint8_t *buf = NULL;
        size_t size = 0;
        rc = texel_data_pack(*data, p, q, &buf, &size, err);
        if (rc == 0) rc = texel_data_unpack(mine, buf, size, err);
        free(buf);
        p = q;
    }
    if (rc == 0) {
        for (size_t i = 0; i < split->train_len; i++) split->train[i] = i >= tlo && i < thi ? renum[split->train[i]] : 0;
        for (size_t i = 0; i < split->valid_len; i++) split->valid[i] = i >= vlo && i < vhi ? renum[split->valid[i]] : 0;
        texel_data_drop_evals(mine);
        texel_data_shrink(mine);
        texel_data_free(*data);
        *data = mine;
        mine = NULL;
        *kept = len;
    }
    texel_data_free(mine);
    free(renum);
    free(mark);
    return rc;
}
