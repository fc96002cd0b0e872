/* texel.c — the tuner core (see texel.h for the model and the formulas). */
#include "tuner/texel.h"

#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/game.h"
#include "util/rng.h"

_Static_assert(TEXEL_WEIGHTS_MAX == 1 << 24, "stored entries hold a 24-bit index");

enum {
    ROUND_BLOCKS = 32 /* blocks summed per parallel round (bounds the buffers) */
};

struct TexelData {
    int weights_len;
    int eg_offset, phase_max;  /* tapered (eg_offset > 0) or plain (0, 0) */
    size_t len, cap;           /* positions */
    uint32_t *offset;          /* cap + 1 slots; position i owns the code bytes
                                * offset[i] .. offset[i + 1] - 1 */
    uint8_t *result;           /* target, White's expected score * TEXEL_TARGET_SCALE */
    int32_t *eval;             /* engine evaluation given on append; NULL once
                                * texel_data_drop_evals ran */
    bool evals_dropped;
    uint8_t *phase;            /* tapered: each position's phase (else NULL) */
    size_t entries;            /* entries stored in all (after merging) */
    size_t code_len, code_cap;
    uint8_t *code;             /* the entries, coded as texel.h describes */
};

/* Entry coding (texel.h, "dataset"), a stream-VByte layout (D. Lemire,
 * N. Kurz, C. Rupp, "Stream VByte: faster byte-oriented integer
 * compression", 2018): per position a varint item count, then 2-bit
 * lengths (1..4 bytes) of the items, four to a byte, then the items, little
 * endian. An item is a token (delta << 3 | c), c < 7 naming a coefficient
 * of COEF_OF_CODE; c == 7 says the next item is the zigzagged coefficient.
 * The lengths are known before the items are read, so decoding has no
 * load-to-load dependency. */
enum {
    CODE_ESCAPE = 7,
    ITEMS_MAX = 2 * TRACE_MAX,                  /* a token and an escape per entry */
    CODE_MAX = 2 + ITEMS_MAX / 4 + 4 * ITEMS_MAX, /* bytes of one position, at most */
    CODE_PAD = 4                                /* readable bytes past the end */
};
static const int8_t COEF_OF_CODE[CODE_ESCAPE] = {1, -1, 2, -2, 3, -3, 4};

static inline uint32_t code_of_coef(int32_t c)
{
    return c >= 1 && c <= 4 ? (uint32_t)(2 * c - 2) : c <= -1 && c >= -3 ? (uint32_t)(-2 * c - 1) : CODE_ESCAPE;
}

static inline int item_bytes(uint32_t v) { return v < 1u << 8 ? 1 : v < 1u << 16 ? 2 : v < 1u << 24 ? 3 : 4; }

static inline uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

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

/* Decode position i's entries into idx[] and coef[] (at most TRACE_MAX
 * each; the coding stores no more); returns how many. Reads up to 3 bytes
 * past the position (the array keeps CODE_PAD bytes past its end). */
static inline int decode(const TexelData *d, size_t i, uint32_t *idx, double *coef)
{
    static const uint32_t mask[4] = {0xFFu, 0xFFFFu, 0xFFFFFFu, 0xFFFFFFFFu};
    const uint8_t *p = d->code + d->offset[i];
    uint32_t items = *p++;
    if (items >= 0x80)
        items = (items & 0x7F) | (uint32_t)*p++ << 7;
    const uint8_t *ctrl = p, *data = p + (items + 3) / 4;
    uint32_t j = 0;
    int n = 0;
    for (uint32_t k = 0; k < items; k++) {
        int len = ctrl[k >> 2] >> 2 * (k & 3) & 3;
        const uint32_t t = load32(data) & mask[len];
        data += len + 1;
        j += t >> 3;
        int32_t cf;
        if ((t & 7) != CODE_ESCAPE) {
            cf = COEF_OF_CODE[t & 7];
        } else {
            k++;
            len = ctrl[k >> 2] >> 2 * (k & 3) & 3;
            const uint32_t z = load32(data) & mask[len];
            data += len + 1;
            cf = (int32_t)(z >> 1) ^ -(int32_t)(z & 1);
        }
        idx[n] = j;
        coef[n++] = cf;
    }
    return n;
}

#define LN10 2.302585092994045684

static void set_err(char err[TEXEL_ERR_MAX], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_err(char err[TEXEL_ERR_MAX], const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, TEXEL_ERR_MAX, fmt, ap);
    va_end(ap);
}

static int thread_count(int threads)
{
    return threads > 0 ? threads : omp_get_max_threads();
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
        set_err(err, "tuning data: more than %zu positions or bytes of trace entries", limit);
        return -1;
    }
    size_t need = d->len + positions;
    if (need > d->cap) {
        size_t cap = exact ? need : d->cap + d->cap / 2 + 1024;
        cap = cap < need ? need : cap > limit ? limit : cap;
        if (resize_positions(d, cap) != 0) {
            set_err(err, "tuning data: out of memory for %zu positions", cap);
            return -1;
        }
    }
    need = d->code_len + bytes;
    if (need > d->code_cap) {
        size_t cap = exact ? need : d->code_cap + d->code_cap / 2 + 65536;
        cap = cap < need ? need : cap > limit ? limit : cap;
        if (resize_code(d, cap) != 0) {
            set_err(err, "tuning data: out of memory for %zu bytes of trace entries", cap);
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
        set_err(err, "tuning data: position %zu: result %d is not 0, 1 or 2 half points",
                data->len, result_half);
        return -1;
    }
    if (trace->len < 0 || trace->len > TRACE_MAX) {
        set_err(err, "tuning data: position %zu: trace length %d out of 0..%d", data->len,
                trace->len, TRACE_MAX);
        return -1;
    }
    const uint32_t index_end = (uint32_t)(data->eg_offset ? data->eg_offset : data->weights_len);
    if (data->eg_offset && (trace->phase < 0 || trace->phase > data->phase_max)) {
        set_err(err, "tuning data: position %zu: phase %d out of 0..%d", data->len, trace->phase,
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
            set_err(err, "tuning data: position %zu: trace index %u >= %u %s", data->len, (unsigned)j,
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
        set_err(err, "tuning data: cannot pack positions %zu..%zu of %zu", lo, hi, data->len);
        return -1;
    }
    const size_t bytes = (hi - lo) * PACK_HEAD + (data->offset[hi] - data->offset[lo]);
    uint8_t *buf = malloc(bytes ? bytes : 1), *p = buf;
    if (!buf) {
        set_err(err, "tuning data: out of memory packing %zu positions", hi - lo);
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
            set_err(err, "tuning data: packed position %zu (byte %zu of %zu) is malformed", positions, at, size);
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
        set_err(err, "trace check: the engine evaluations were dropped (texel_data_drop_evals)");
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
            set_err(err,
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
        set_err(err, "synthetic data: need >= 2 weights, 0 <= terms <= weights - 1 and K > 0 "
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
        set_err(err, "reorder: out of memory for %zu positions", n);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (order[i] >= n || seen[order[i]]) {
            set_err(err, "reorder: order[%zu] = %u is not a permutation of 0..%zu", i, (unsigned)order[i],
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
        set_err(err, "split: validation fraction %g is not in [0, 1)", valid_fraction);
        return -1;
    }
    if (positions > UINT32_MAX) {
        set_err(err, "split: %zu positions is more than %u", positions, (unsigned)UINT32_MAX);
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
        set_err(err, "split: out of memory for %zu positions", positions);
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

/* ============================================================== the passes */

/* The sparse gradient of a pass and the scratch that builds it.
 *
 * A block's gradient is summed in position order into a thread's dense
 * accumulator `acc` (zero outside the block's touched weights), then moved
 * into the block's slot as a list of (weight, value) in first-touch order,
 * clearing the accumulator behind it: a block costs its own entries, never
 * the model's size. The slots of a round are then added into `grad` in block
 * order; weight j is added by the thread that owns it (owner t holds the
 * weights [lo_t, lo_t+1), ranges of equal length in multiples of 16, so
 * owners do not share cache lines), which also records it once in its
 * touched list. The sums are those of the dense method (each block in
 * position order, block sums in block order), bit for bit. */
typedef struct BlockGrad {
    uint32_t *idx;
    double *val;
    size_t len, cap;
    bool sorted; /* idx ascending */
} BlockGrad;

typedef struct Grad {
    int threads;        /* owners; the team of every region here */
    size_t wn;          /* weights */
    double *acc;        /* threads * wn accumulators, zero between blocks */
    uint8_t *mark;      /* threads * wn: unit touched in the current block */
    uint32_t *units;    /* threads * (wn + 1): the current block's touched units (and one slot
                         * the branch-free append writes past the last) */
    BlockGrad slot[ROUND_BLOCKS];
    size_t *own_lo;     /* threads + 1: owner t holds weights own_lo[t] .. own_lo[t + 1] - 1 */
    double *grad;       /* wn: the pass's gradient, zero outside touched */
    uint8_t *gmark;     /* wn: 1 on touched weights */
    uint32_t **touched; /* per owner: touched weights, in no particular order */
    size_t *touched_len;
    bool oom;           /* a slot could not grow */
} Grad;

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

static void grad_free(Grad *g)
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

static int grad_init(Grad *g, size_t wn, int threads)
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
        grad_free(g);
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
            grad_free(g);
            return -1;
        }
    return 0;
}

/* Zero the gradient of the last pass (its touched weights only). */
static void grad_clear(Grad *g)
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

/* The passes' weight layout. A tapered model's weights are kept
 * interleaved, opening weight j at 2j and its endgame twin at 2j + 1, so
 * an entry's two weights (and its two gradient accumulators) share a cache
 * line; a plain model's are as given. A *unit* is what one stored entry
 * touches: the pair 2j, 2j + 1 (tapered) or the weight j. The layout moves
 * where a weight lives, never the order of any sum. */
static inline size_t lay(const TexelData *d, size_t j)
{
    const size_t eg = (size_t)d->eg_offset;
    return !eg ? j : j < eg ? 2 * j : 2 * (j - eg) + 1;
}

static inline size_t unit_count(const TexelData *d)
{
    return d->eg_offset ? (size_t)d->eg_offset : (size_t)d->weights_len;
}

/* A block with more touched units than units / DENSE_SHARE is moved into
 * its slot by a scan of the marks in unit order (the merge then adds in
 * ascending weight order, reading and writing memory in runs); fewer, in
 * first-touch order. Either way every weight is once in a slot. */
enum { DENSE_SHARE = 32 };

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

/* A pass's link to the other ranks (texel.h, "Shards"): the reducer, this
 * rank's payload and the first failure, which every rank sees alike when it
 * comes from a block (all ranks fold the same gathered data). */
typedef struct Shard {
    const TexelReducer *red; /* NULL: this process alone */
    const uint8_t *frozen;   /* NULL, or weights whose gradient is not sent (never used) */
    double *buf;             /* this rank's blocks: loss, n, n (weight, value) pairs */
    size_t len, cap;
    double gathered;         /* bytes received by the gathers of the passes so far */
    bool failed;
    char err[TEXEL_ERR_MAX];
} Shard;

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
        set_err(sh->err, "shared pass: %zu of %zu blocks arrived whole (a rank ran out of memory)",
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
static double pass(const TexelData *d, const uint32_t *idx, size_t len, const double *w, double c,
                   int threads, Grad *gr, Shard *sh)
{
    if (sh && sh->red)
        return pass_sharded(d, idx, len, w, c, threads, gr, sh);
    return pass_local(d, idx, len, w, c, threads, gr);
}

/* Did any rank ask to stop? One flag a rank, gathered (false alone). */
static int shard_any(Shard *sh, bool mine, bool *any)
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
static double *to_double(const TexelData *d, const int32_t *weights)
{
    const size_t len = (size_t)d->weights_len;
    double *w = malloc(len * sizeof *w);
    if (w)
        for (size_t j = 0; j < len; j++)
            w[lay(d, j)] = weights[j];
    return w;
}

static double k_scale(double k) { return k * LN10 / 400.0; }

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
        set_err(err, "loss: no positions");
        return -1;
    }
    double *w = to_double(data, weights);
    if (!w) {
        set_err(err, "loss: out of memory");
        return -1;
    }
    Shard sh = {.red = red};
    *loss = pass(data, idx, len, w, k_scale(k), thread_count(threads), NULL, &sh) / (double)len;
    free(w);
    free(sh.buf);
    if (sh.failed) {
        set_err(err, "loss: %s", sh.err);
        return -1;
    }
    return 0;
}

/* Golden-section search of the loss over K (real weights w). */
static void fit_k(const TexelData *d, const uint32_t *idx, size_t len, const double *w,
                  double lo, double hi, int threads, Shard *sh, double *k_out, double *loss_out)
{
    enum { SCAN = 24 };
    const double n = (double)len;
    double ks[SCAN], ls[SCAN];
    int best = 0;
    for (int i = 0; i < SCAN; i++) {
        ks[i] = lo * pow(hi / lo, (double)i / (SCAN - 1));
        ls[i] = pass(d, idx, len, w, k_scale(ks[i]), threads, NULL, sh) / n;
        if (ls[i] < ls[best])
            best = i;
    }
    double a = ks[best > 0 ? best - 1 : 0], b = ks[best < SCAN - 1 ? best + 1 : SCAN - 1];
    const double invphi = 0.61803398874989484820; /* (sqrt(5) - 1) / 2 */
    double x1 = b - invphi * (b - a), x2 = a + invphi * (b - a);
    double f1 = pass(d, idx, len, w, k_scale(x1), threads, NULL, sh) / n;
    double f2 = pass(d, idx, len, w, k_scale(x2), threads, NULL, sh) / n;
    for (int it = 0; it < 200 && b - a > 1e-7 * (a + b); it++) {
        if (f1 <= f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - invphi * (b - a);
            f1 = pass(d, idx, len, w, k_scale(x1), threads, NULL, sh) / n;
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + invphi * (b - a);
            f2 = pass(d, idx, len, w, k_scale(x2), threads, NULL, sh) / n;
        }
    }
    /* the best of the points seen: the scan point or the final pair */
    *k_out = ks[best], *loss_out = ls[best];
    if (f1 < *loss_out)
        *k_out = x1, *loss_out = f1;
    if (f2 < *loss_out)
        *k_out = x2, *loss_out = f2;
}

static int check_k_bracket(double lo, double hi, char err[TEXEL_ERR_MAX])
{
    if (!(lo > 0 && hi > lo && isfinite(hi))) {
        set_err(err, "K search: bracket [%g, %g] must satisfy 0 < lo < hi", lo, hi);
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
    if (check_k_bracket(k_lo, k_hi, err) != 0)
        return -1;
    if (len == 0) {
        set_err(err, "K search: no positions");
        return -1;
    }
    double *w = to_double(data, weights);
    if (!w) {
        set_err(err, "K search: out of memory");
        return -1;
    }
    Shard sh = {.red = red};
    fit_k(data, idx, len, w, k_lo, k_hi, thread_count(threads), &sh, k, loss);
    free(w);
    free(sh.buf);
    if (sh.failed) {
        set_err(err, "K search: %s", sh.err);
        return -1;
    }
    return 0;
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
    if (cfg->k <= 0 && check_k_bracket(cfg->k_lo, cfg->k_hi, err) != 0)
        return -1;
    if (!isfinite(cfg->k)) {
        set_err(err, "tuner: K %g is not finite", cfg->k);
        return -1;
    }
    if (cfg->epochs < 0 || cfg->patience < 0) {
        set_err(err, "tuner: epochs %d and patience %d must be >= 0", cfg->epochs, cfg->patience);
        return -1;
    }
    if (!(cfg->lr > 0 && isfinite(cfg->lr))) {
        set_err(err, "tuner: learning rate %g must be > 0", cfg->lr);
        return -1;
    }
    if (!(cfg->beta1 >= 0 && cfg->beta1 < 1 && cfg->beta2 >= 0 && cfg->beta2 < 1)) {
        set_err(err, "tuner: Adam betas %g, %g must be in [0, 1)", cfg->beta1, cfg->beta2);
        return -1;
    }
    if (!(cfg->eps > 0 && isfinite(cfg->eps))) {
        set_err(err, "tuner: Adam eps %g must be > 0", cfg->eps);
        return -1;
    }
    if (!(cfg->lambda >= 0 && isfinite(cfg->lambda))) {
        set_err(err, "tuner: L2 lambda %g must be >= 0", cfg->lambda);
        return -1;
    }
    if (!isfinite(cfg->table_lr) || !isfinite(cfg->table_lambda)) {
        set_err(err, "tuner: table step %g and L2 %g must be finite", cfg->table_lr, cfg->table_lambda);
        return -1;
    }
    if (cfg->adam != TEXEL_ADAM_LAZY && cfg->adam != TEXEL_ADAM_DENSE) {
        set_err(err, "tuner: unknown Adam variant %d", (int)cfg->adam);
        return -1;
    }
    const TexelReducer *red = cfg->reducer;
    if (red && !(red->ranks >= 1 && red->rank >= 0 && red->rank < red->ranks && red->gather)) {
        set_err(err, "tuner: reducer rank %d of %d (or its gather) is not valid", red->rank, red->ranks);
        return -1;
    }
    if (cfg->anchor != TEXEL_L2_START && cfg->anchor != TEXEL_L2_ZERO) {
        set_err(err, "tuner: unknown L2 anchor %d", (int)cfg->anchor);
        return -1;
    }
    return 0;
}

static int check_indices(const uint32_t *idx, size_t len, size_t positions, const char *what,
                         char err[TEXEL_ERR_MAX])
{
    for (size_t i = 0; i < len; i++)
        if (idx[i] >= positions) {
            set_err(err, "tuner: %s set entry %zu is position %u of only %zu", what, i,
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
    grad_free(&wk->grad);
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
        set_err(err, "tuner: empty training set");
        return -1;
    }
    if (check_indices(split->train, split->train_len, data->len, "training", err) != 0 ||
        check_indices(split->valid, split->valid_len, data->len, "validation", err) != 0)
        return -1;

    const int w_len = data->weights_len;
    const size_t wn = (size_t)w_len;
    const int threads = thread_count(cfg->threads);
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
        grad_init(&wk.grad, wn, threads) != 0) {
        work_free(&wk);
        set_err(err, "tuner: out of memory for %d weights", w_len);
        return -1;
    }
    Decay *decay = NULL;
    if (lazy && !(decay = malloc(2 * sizeof *decay))) {
        work_free(&wk);
        set_err(err, "tuner: out of memory");
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
        fit_k(data, split->train, n_train, wk.w, cfg->k_lo, cfg->k_hi, threads, &sh, &res.k, &loss_k);
    }
    const double c = k_scale(res.k);

    /* the loss of the current weights on both sets */
#define TRAIN_LOSS(w) (pass(data, split->train, n_train, (w), c, threads, NULL, &sh) / (double)n_train)
#define VALID_LOSS(w) \
    (n_valid ? pass(data, split->valid, n_valid, (w), c, threads, NULL, &sh) / (double)n_valid : NAN)

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
    if (!sh.failed && shard_any(&sh, stop, &stop) == 0 && stop)
        res.stop = TEXEL_STOP_CALLER;
    if (sh.failed) {
        set_err(err, "tuner: %s", sh.err);
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
        const double t_steps = omp_get_wtime();
        const clock_t c_steps = clock();
        for (size_t first = 0; first < n_train; first += batch) {
            const size_t len = n_train - first < batch ? n_train - first : batch;
            pass(data, order + first, len, wk.w, c, threads, &wk.grad, &sh);
            if (wk.grad.oom || sh.failed) {
                if (sh.failed)
                    set_err(err, "tuner: %s", sh.err);
                else
                    set_err(err, "tuner: out of memory for a block's gradient");
                goto done;
            }
            step++;
            adam_step(&wk, cfg, &gr, decay, step, 2.0 * c / (double)len, lazy);
        }
        res.step_seconds += omp_get_wtime() - t_steps;
        res.step_cpu_seconds += (double)(clock() - c_steps) / CLOCKS_PER_SEC;
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
        if (!sh.failed && shard_any(&sh, stop, &stop) == 0 && stop)
            res.stop = TEXEL_STOP_CALLER;
        if (sh.failed) {
            set_err(err, "tuner: %s", sh.err);
            goto done;
        }
    }

    for (size_t i = 0; i < wn; i++) {
        if (!isfinite(wk.best[lay(data, i)])) {
            set_err(err, "tuner: weight %zu diverged (%g); lower the learning rate", i, wk.best[lay(data, i)]);
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
#undef TRAIN_LOSS
#undef VALID_LOSS
    res.gathered_bytes = sh.gathered;
    if (sh.failed) {
        set_err(err, "tuner: %s", sh.err);
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
        set_err(err, "tuner bench: need positions (have %zu) and passes >= 1 (have %d)",
                data->len, passes);
        return -1;
    }
    const int nt = thread_count(threads);
    double *w = to_double(data, weights);
    Grad gr;
    if (!w || grad_init(&gr, (size_t)data->weights_len, nt) != 0) {
        free(w);
        set_err(err, "tuner bench: out of memory");
        return -1;
    }
    const double c = k_scale(1.0);
    pass(data, NULL, data->len, w, c, nt, &gr, NULL); /* warm the caches and threads */
    grad_clear(&gr);
    const double t0 = omp_get_wtime();
    const clock_t c0 = clock();
    for (int i = 0; i < passes; i++) {
        pass(data, NULL, data->len, w, c, nt, &gr, NULL);
        grad_clear(&gr);
    }
    const double seconds = omp_get_wtime() - t0;
    bench->cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
    const bool oom = gr.oom;
    free(w);
    grad_free(&gr);
    if (oom) {
        set_err(err, "tuner bench: out of memory for a block's gradient");
        return -1;
    }
    bench->threads = nt;
    bench->evals = (uint64_t)passes * data->len;
    bench->seconds = seconds;
    bench->evals_per_sec = seconds > 0 ? (double)bench->evals / seconds : 0;
    bench->bytes_per_position = texel_data_bytes_per_position(data);
    return 0;
}
