/* texel_data.c — the tuner's packed sparse position store (texel.h,
 * "dataset"): the entry coding, append, pack/unpack, the trace check,
 * reordering, synthetic data and the train/validation split. */
#include "tuner/texel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/texel_internal.h"
#include "util/rng.h"

/* The entry coding's writer (texel_internal.h describes the layout). */
static inline uint32_t code_of_coef(int32_t c)
{
    return c >= 1 && c <= 4 ? (uint32_t)(2 * c - 2) : c <= -1 && c >= -3 ? (uint32_t)(-2 * c - 1) : CODE_ESCAPE;
}

static inline int item_bytes(uint32_t v) { return v < 1u << 8 ? 1 : v < 1u << 16 ? 2 : v < 1u << 24 ? 3 : 4; }

/* Code n items into out; returns the bytes written (<= CODE_MAX). */
static size_t code_items(const uint32_t *item, int n, uint8_t *out)
{
    uint8_t *p = out;
    if (n >= 0x80) {
        *p++ = (uint8_t)(n | 0x80);
        *p++ = (uint8_t)(n >> 7);
    } else {
        *p++ = (uint8_t)n;
    }
    uint8_t *ctrl = p, *data = p + (n + 3) / 4;
    memset(ctrl, 0, (size_t)(n + 3) / 4);
    for (int k = 0; k < n; k++) {
        const int len = item_bytes(item[k]);
        ctrl[k >> 2] |= (uint8_t)((len - 1) << 2 * (k & 3));
        for (int b = 0; b < len; b++)
            *data++ = (uint8_t)(item[k] >> 8 * b);
    }
    return (size_t)(data - out);
}

/* ================================================================ dataset */

TexelData *texel_data_new(int weights_len)
{
    if (weights_len < 1 || weights_len > TEXEL_WEIGHTS_MAX)
        return NULL;
    TexelData *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->weights_len = weights_len;
    d->offset = malloc(sizeof *d->offset);
    if (!d->offset) {
        free(d);
        return NULL;
    }
    d->offset[0] = 0;
    d->code = calloc(CODE_PAD, 1);
    if (!d->code) {
        free(d->offset);
        free(d);
        return NULL;
    }
    return d;
}

TexelData *texel_data_new_tapered(int weights_len, int eg_offset, int phase_max)
{
    if (eg_offset < 1 || weights_len != 2 * eg_offset || phase_max < 1 || phase_max > TEXEL_PHASE_MAX)
        return NULL;
    TexelData *d = texel_data_new(weights_len);
    if (!d)
        return NULL;
    d->eg_offset = eg_offset;
    d->phase_max = phase_max;
    d->phase = malloc(1);
    if (!d->phase) {
        texel_data_free(d);
        return NULL;
    }
    return d;
}

void texel_data_free(TexelData *data)
{
    if (!data)
        return;
    free(data->offset);
    free(data->result);
    free(data->eval);
    free(data->phase);
    free(data->code);
    free(data);
}

/* Set the position capacity to exactly `cap` (>= len). */
static int resize_positions(TexelData *d, size_t cap)
{
    uint32_t *offset = realloc(d->offset, (cap + 1) * sizeof *offset);
    if (!offset)
        return -1;
    d->offset = offset;
    /* realloc(p, 0) may return NULL: keep at least one byte. */
    uint8_t *result = realloc(d->result, cap ? cap : 1);
    if (!result)
        return -1;
    d->result = result;
    if (!d->evals_dropped) {
        int32_t *eval = realloc(d->eval, (cap ? cap : 1) * sizeof *eval);
        if (!eval)
            return -1;
        d->eval = eval;
    }
    if (d->phase) {
        uint8_t *phase = realloc(d->phase, cap ? cap : 1);
        if (!phase)
            return -1;
        d->phase = phase;
    }
    d->cap = cap;
    return 0;
}

static int resize_code(TexelData *d, size_t cap)
{
    uint8_t *code = realloc(d->code, cap + CODE_PAD);
    if (!code)
        return -1;
    d->code = code;
    d->code_cap = cap;
    return 0;
}

/* Grow so that `positions` more positions and `bytes` more code bytes fit;
 * `exact` reserves just that, otherwise capacity grows by half. */
static int grow(TexelData *d, size_t positions, size_t bytes, bool exact, char err[TEXEL_ERR_MAX])
{
    const size_t limit = (size_t)UINT32_MAX - 1;
    if (positions > limit - d->len || bytes > limit - d->code_len) {
        texel_set_err(err, "tuning data: more than %zu positions or bytes of trace entries", limit);
        return -1;
    }
    size_t need = d->len + positions;
    if (need > d->cap) {
        size_t cap = exact ? need : d->cap + d->cap / 2 + 1024;
        cap = cap < need ? need : cap > limit ? limit : cap;
        if (resize_positions(d, cap) != 0) {
            texel_set_err(err, "tuning data: out of memory for %zu positions", cap);
            return -1;
        }
    }
    need = d->code_len + bytes;
    if (need > d->code_cap) {
        size_t cap = exact ? need : d->code_cap + d->code_cap / 2 + 65536;
        cap = cap < need ? need : cap > limit ? limit : cap;
        if (resize_code(d, cap) != 0) {
            texel_set_err(err, "tuning data: out of memory for %zu bytes of trace entries", cap);
            return -1;
        }
    }
    return 0;
}

int texel_data_reserve(TexelData *data, size_t positions, size_t entries, char err[TEXEL_ERR_MAX])
{
    /* about two bytes an entry (texel.h); more grows as needed */
    return grow(data, positions, entries > ((size_t)UINT32_MAX - 1) / 2 ? entries : 2 * entries, true, err);
}

int texel_data_append(TexelData *data, const EvalTrace *trace, int result_half, int32_t eval,
                      char err[TEXEL_ERR_MAX])
{
    if (result_half < 0 || result_half > 2) {
        texel_set_err(err, "tuning data: position %zu: result %d is not 0, 1 or 2 half points",
                      data->len, result_half);
        return -1;
    }
    if (trace->len < 0 || trace->len > TRACE_MAX) {
        texel_set_err(err, "tuning data: position %zu: trace length %d out of 0..%d", data->len,
                      trace->len, TRACE_MAX);
        return -1;
    }
    const uint32_t index_end = (uint32_t)(data->eg_offset ? data->eg_offset : data->weights_len);
    if (data->eg_offset && (trace->phase < 0 || trace->phase > data->phase_max)) {
        texel_set_err(err, "tuning data: position %zu: phase %d out of 0..%d", data->len, trace->phase,
                      data->phase_max);
        return -1;
    }
    /* sort by index (insertion sort: a trace is short), merge equal ones */
    uint32_t idx[TRACE_MAX];
    int32_t coef[TRACE_MAX];
    int n = 0;
    for (int i = 0; i < trace->len; i++) {
        const uint32_t j = trace->index[i];
        if (j >= index_end) {
            texel_set_err(err, "tuning data: position %zu: trace index %u >= %u %s", data->len, (unsigned)j,
                          (unsigned)index_end, data->eg_offset ? "opening weights" : "weights");
            return -1;
        }
        int k = n;
        while (k > 0 && idx[k - 1] > j)
            k--;
        if (k > 0 && idx[k - 1] == j) {
            coef[k - 1] += trace->coef[i];
            continue;
        }
        memmove(idx + k + 1, idx + k, (size_t)(n - k) * sizeof *idx);
        memmove(coef + k + 1, coef + k, (size_t)(n - k) * sizeof *coef);
        idx[k] = j;
        coef[k] = trace->coef[i];
        n++;
    }
    uint32_t item[ITEMS_MAX];
    int items = 0;
    uint32_t prev = 0;
    size_t kept = 0;
    for (int k = 0; k < n; k++) {
        if (coef[k] == 0)
            continue;
        const uint32_t c = code_of_coef(coef[k]);
        item[items++] = (idx[k] - prev) << 3 | c;
        if (c == CODE_ESCAPE)
            item[items++] = ((uint32_t)coef[k] << 1) ^ (coef[k] < 0 ? UINT32_MAX : 0);
        prev = idx[k];
        kept++;
    }
    uint8_t buf[CODE_MAX];
    const size_t bytes = code_items(item, items, buf);
    if (grow(data, 1, bytes, false, err) != 0)
        return -1;
    memcpy(data->code + data->code_len, buf, bytes);
    data->code_len += bytes;
    memset(data->code + data->code_len, 0, CODE_PAD); /* defined bytes for the 4-byte loads */
    data->entries += kept;
    data->result[data->len] = (uint8_t)(result_half * (TEXEL_TARGET_SCALE / 2));
    if (data->eval)
        data->eval[data->len] = eval;
    if (data->phase)
        data->phase[data->len] = (uint8_t)trace->phase;
    data->len++;
    data->offset[data->len] = (uint32_t)data->code_len;
    return 0;
}

enum { PACK_HEAD = 8 }; /* target, phase, eval (4), code length (2) */

int texel_data_pack(const TexelData *data, size_t lo, size_t hi, uint8_t **out, size_t *size,
                    char err[TEXEL_ERR_MAX])
{
    *out = NULL;
    *size = 0;
    if (hi > data->len || lo > hi) {
        texel_set_err(err, "tuning data: cannot pack positions %zu..%zu of %zu", lo, hi, data->len);
        return -1;
    }
    const size_t bytes = (hi - lo) * PACK_HEAD + (data->offset[hi] - data->offset[lo]);
    uint8_t *buf = malloc(bytes ? bytes : 1), *p = buf;
    if (!buf) {
        texel_set_err(err, "tuning data: out of memory packing %zu positions", hi - lo);
        return -1;
    }
    for (size_t i = lo; i < hi; i++) {
        const uint32_t ev = data->eval ? (uint32_t)data->eval[i] : 0;
        const uint32_t len = data->offset[i + 1] - data->offset[i];
        *p++ = data->result[i];
        *p++ = data->phase ? data->phase[i] : 0;
        for (int b = 0; b < 4; b++)
            *p++ = (uint8_t)(ev >> 8 * b);
        *p++ = (uint8_t)len;
        *p++ = (uint8_t)(len >> 8);
        memcpy(p, data->code + data->offset[i], len);
        p += len;
    }
    *out = buf;
    *size = bytes;
    return 0;
}

/* Is code[0..len) one position's coding (count, 2-bit lengths, items) with
 * its indices below index_end? Stores the entries in *entries. */
static bool code_valid(const uint8_t *code, size_t len, uint32_t index_end, size_t *entries)
{
    if (len < 1)
        return false;
    size_t at = 1;
    uint32_t items = code[0];
    if (items >= 0x80) {
        if (len < 2)
            return false;
        items = (items & 0x7F) | (uint32_t)code[1] << 7;
        at = 2;
    }
    if (items > ITEMS_MAX || len - at < (items + 3) / 4)
        return false;
    const uint8_t *ctrl = code + at;
    size_t data = at + (items + 3) / 4;
    uint64_t j = 0;
    *entries = 0;
    for (uint32_t k = 0; k < items; k++) {
        const size_t n = (size_t)(ctrl[k >> 2] >> 2 * (k & 3) & 3) + 1;
        if (len - data < n)
            return false;
        uint32_t t = 0;
        for (size_t b = 0; b < n; b++)
            t |= (uint32_t)code[data + b] << 8 * b;
        data += n;
        j += t >> 3;
        if (j >= index_end)
            return false;
        if ((t & 7) == CODE_ESCAPE) { /* the coefficient item follows */
            if (++k >= items)
                return false;
            const size_t m = (size_t)(ctrl[k >> 2] >> 2 * (k & 3) & 3) + 1;
            if (len - data < m)
                return false;
            data += m;
        }
        ++*entries;
    }
    return data == len;
}

int texel_data_unpack(TexelData *data, const uint8_t *buf, size_t size, char err[TEXEL_ERR_MAX])
{
    const uint32_t index_end = (uint32_t)(data->eg_offset ? data->eg_offset : data->weights_len);
    size_t positions = 0, code = 0;
    for (size_t at = 0; at < size; positions++) { /* check every record first: all or nothing */
        size_t entries;
        const size_t len = size - at < PACK_HEAD ? 0 : (size_t)buf[at + 6] | (size_t)buf[at + 7] << 8;
        if (size - at < PACK_HEAD || size - at - PACK_HEAD < len ||
            buf[at] > TEXEL_TARGET_SCALE || (data->phase ? buf[at + 1] > data->phase_max : buf[at + 1] != 0) ||
            !code_valid(buf + at + PACK_HEAD, len, index_end, &entries)) {
            texel_set_err(err, "tuning data: packed position %zu (byte %zu of %zu) is malformed", positions, at, size);
            return -1;
        }
        at += PACK_HEAD + len;
        code += len;
    }
    if (grow(data, positions, code, false, err) != 0)
        return -1;
    for (size_t at = 0; at < size;) {
        const size_t len = (size_t)buf[at + 6] | (size_t)buf[at + 7] << 8;
        size_t entries = 0;
        code_valid(buf + at + PACK_HEAD, len, index_end, &entries);
        memcpy(data->code + data->code_len, buf + at + PACK_HEAD, len);
        data->code_len += len;
        data->entries += entries;
        data->result[data->len] = buf[at];
        if (data->eval)
            data->eval[data->len] = (int32_t)((uint32_t)buf[at + 2] | (uint32_t)buf[at + 3] << 8 |
                                              (uint32_t)buf[at + 4] << 16 | (uint32_t)buf[at + 5] << 24);
        if (data->phase)
            data->phase[data->len] = buf[at + 1];
        data->len++;
        data->offset[data->len] = (uint32_t)data->code_len;
        at += PACK_HEAD + len;
    }
    memset(data->code + data->code_len, 0, CODE_PAD);
    return 0;
}

void texel_data_drop_evals(TexelData *data)
{
    free(data->eval);
    data->eval = NULL;
    data->evals_dropped = true;
}

int texel_data_shrink(TexelData *data)
{
    if (resize_positions(data, data->len) != 0)
        return -1;
    return resize_code(data, data->code_len);
}

size_t texel_data_len(const TexelData *data) { return data->len; }
size_t texel_data_entries(const TexelData *data) { return data->entries; }
int texel_data_weights_len(const TexelData *data) { return data->weights_len; }
int texel_data_result(const TexelData *data, size_t i)
{
    return (data->result[i] + TEXEL_TARGET_SCALE / 4) / (TEXEL_TARGET_SCALE / 2);
}

double texel_data_target(const TexelData *data, size_t i) { return data->result[i] / (double)TEXEL_TARGET_SCALE; }

int texel_data_set_target(TexelData *data, size_t i, double target)
{
    if (i >= data->len || !(target >= 0.0 && target <= 1.0))
        return -1;
    data->result[i] = (uint8_t)lround(target * TEXEL_TARGET_SCALE);
    return 0;
}

double texel_data_bytes_per_position(const TexelData *data)
{
    if (data->len == 0)
        return 0;
    double per = sizeof *data->offset + sizeof *data->result + (data->eval ? sizeof *data->eval : 0) +
                 (data->phase ? 1 : 0);
    per += (double)data->code_len / (double)data->len;
    return per;
}

int texel_data_check(const TexelData *data, const int32_t *weights, int tolerance, size_t *bad,
                     char err[TEXEL_ERR_MAX])
{
    if (!data->eval) {
        texel_set_err(err, "trace check: the engine evaluations were dropped (texel_data_drop_evals)");
        return -1;
    }
    uint32_t idx[TRACE_MAX];
    double coef[TRACE_MAX];
    for (size_t i = 0; i < data->len; i++) {
        int64_t sum = 0, eg = 0;
        const int n = decode(data, i, idx, coef);
        for (int t = 0; t < n; t++) {
            sum += (int64_t)coef[t] * weights[idx[t]];
            if (data->phase)
                eg += (int64_t)coef[t] * weights[idx[t] + (uint32_t)data->eg_offset];
        }
        if (data->phase) /* as eval_taper of engine/eval.h: C division */
            sum = (sum * data->phase[i] + eg * (data->phase_max - data->phase[i])) / data->phase_max;
        int64_t diff = sum - data->eval[i];
        if (diff > tolerance || diff < -tolerance) {
            if (bad)
                *bad = i;
            texel_set_err(err,
                          "trace check: position %zu: trace rebuilds %lld, engine evaluates %ld "
                          "(difference %lld, tolerance %d)",
                          i, (long long)sum, (long)data->eval[i], (long long)diff, tolerance);
            return -1;
        }
    }
    return 0;
}

int texel_data_synthetic(TexelData *data, size_t positions, int terms, double k, uint64_t seed,
                         int32_t *true_weights, char err[TEXEL_ERR_MAX])
{
    const int w_len = data->weights_len;
    const int index_len = data->eg_offset ? data->eg_offset : w_len; /* trace indices */
    if (index_len < 2 || terms < 0 || terms > index_len - 1 || terms + 1 > TRACE_MAX || !(k > 0)) {
        texel_set_err(err, "synthetic data: need >= 2 weights, 0 <= terms <= weights - 1 and K > 0 "
                           "(weights %d, terms %d, K %g)", index_len, terms, k);
        return -1;
    }
    uint64_t rng = rng_derive(seed, 0);
    true_weights[0] = 100;
    for (int j = 1; j < w_len; j++)
        true_weights[j] = (int32_t)rng_below(&rng, 101) - 50;
    if (data->eg_offset)
        true_weights[data->eg_offset] = 100;
    if (texel_data_reserve(data, positions, positions * (size_t)(terms + 1), err) != 0)
        return -1;
    static const int16_t coefs[4] = {-2, -1, 1, 2};
    const double c = k * LN10 / 400.0;
    EvalTrace trace = {.phase = 0};
    for (size_t p = 0; p < positions; p++) {
        uint64_t s = rng_derive(seed, p + 1);
        trace.len = 0;
        int material = (int)rng_below(&s, 7) - 3;
        trace.index[trace.len] = 0;
        trace.coef[trace.len++] = (int16_t)material;
        int64_t e = 100 * (int64_t)material, e_eg = e;
        for (int t = 0; t < terms; t++) {
            uint32_t j;
            bool seen;
            do { /* distinct indices: rejection, terms <= index_len - 1 */
                j = (uint32_t)(1 + rng_below(&s, (uint64_t)index_len - 1));
                seen = false;
                for (int u = 1; u < trace.len; u++)
                    seen |= trace.index[u] == j;
            } while (seen);
            int16_t cf = coefs[rng_below(&s, 4)];
            trace.index[trace.len] = j;
            trace.coef[trace.len++] = cf;
            e += (int64_t)cf * true_weights[j];
            if (data->eg_offset)
                e_eg += (int64_t)cf * true_weights[j + (uint32_t)data->eg_offset];
        }
        if (data->eg_offset) { /* as eval_taper: C division */
            trace.phase = (int)rng_below(&s, (uint64_t)data->phase_max + 1);
            e = (e * trace.phase + e_eg * (data->phase_max - trace.phase)) / data->phase_max;
        }
        double prob = 1.0 / (1.0 + exp(-c * (double)e));
        int result = (rng_unit(&s) < prob) + (rng_unit(&s) < prob);
        if (texel_data_append(data, &trace, result, (int32_t)e, err) != 0)
            return -1;
    }
    return 0;
}

int texel_data_reorder(TexelData *data, const uint32_t *order, char err[TEXEL_ERR_MAX])
{
    const size_t n = data->len;
    uint8_t *seen = calloc(n ? n : 1, 1);
    uint32_t *offset = malloc((n + 1) * sizeof *offset);
    uint8_t *result = malloc(n ? n : 1);
    int32_t *eval = data->eval ? malloc((n ? n : 1) * sizeof *eval) : NULL;
    uint8_t *phase = data->phase ? malloc(n ? n : 1) : NULL;
    uint8_t *code = calloc(data->code_len + CODE_PAD, 1);
    int rc = seen && offset && result && (eval || !data->eval) && code && (phase || !data->phase) ? 0 : -1;
    if (rc != 0)
        texel_set_err(err, "reorder: out of memory for %zu positions", n);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (order[i] >= n || seen[order[i]]) {
            texel_set_err(err, "reorder: order[%zu] = %u is not a permutation of 0..%zu", i, (unsigned)order[i],
                          n ? n - 1 : 0);
            rc = -1;
        } else {
            seen[order[i]] = 1;
        }
    }
    if (rc == 0) {
        size_t e = 0;
        offset[0] = 0;
        for (size_t i = 0; i < n; i++) {
            const size_t from = order[i], first = data->offset[from], end = data->offset[from + 1];
            result[i] = data->result[from];
            if (eval)
                eval[i] = data->eval[from];
            if (phase)
                phase[i] = data->phase[from];
            memcpy(code + e, data->code + first, end - first);
            e += end - first;
            offset[i + 1] = (uint32_t)e;
        }
        free(data->offset);
        free(data->result);
        free(data->eval);
        free(data->code);
        free(data->phase);
        data->phase = phase;
        data->offset = offset;
        data->result = result;
        data->eval = eval;
        data->code = code;
        data->cap = n;
        data->code_cap = data->code_len;
        offset = NULL;
        result = NULL;
        eval = NULL;
        code = NULL;
        phase = NULL;
    }
    free(seen);
    free(offset);
    free(result);
    free(eval);
    free(code);
    free(phase);
    return rc;
}

/* ================================================================== split */

int texel_split_make(TexelSplit *split, size_t positions, const uint64_t *keys,
                     double valid_fraction, uint64_t seed, char err[TEXEL_ERR_MAX])
{
    memset(split, 0, sizeof *split);
    if (!(valid_fraction >= 0 && valid_fraction < 1)) {
        texel_set_err(err, "split: validation fraction %g is not in [0, 1)", valid_fraction);
        return -1;
    }
    if (positions > UINT32_MAX) {
        texel_set_err(err, "split: %zu positions is more than %u", positions, (unsigned)UINT32_MAX);
        return -1;
    }
    /* threshold = fraction * 2^64, computed without overflow */
    uint64_t threshold = (uint64_t)(valid_fraction * 0x1.0p64);
    size_t valid = 0;
    for (size_t i = 0; i < positions; i++)
        valid += rng_derive(seed, keys ? keys[i] : i) < threshold;
    split->train = malloc((positions - valid ? positions - valid : 1) * sizeof *split->train);
    split->valid = malloc((valid ? valid : 1) * sizeof *split->valid);
    if (!split->train || !split->valid) {
        texel_split_free(split);
        texel_set_err(err, "split: out of memory for %zu positions", positions);
        return -1;
    }
    for (size_t i = 0; i < positions; i++) {
        if (rng_derive(seed, keys ? keys[i] : i) < threshold)
            split->valid[split->valid_len++] = (uint32_t)i;
        else
            split->train[split->train_len++] = (uint32_t)i;
    }
    return 0;
}

void texel_split_free(TexelSplit *split)
{
    free(split->train);
    free(split->valid);
    memset(split, 0, sizeof *split);
}
