/* weights_id.c — layout version and weight-set hash (FNV-1a 64); see
 * weights_id.h. */
#include "engine/weights_id.h"

#include <stdio.h>
#include <string.h>

static const uint64_t FNV_PRIME = 1099511628211ULL;

uint64_t weights_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* The string s with its NUL (the separator of the canonical text). */
static uint64_t fnv_str(uint64_t h, const char *s) { return weights_fnv1a(h, s, strlen(s) + 1); }

/* Decimal text of v at out (at least 12 bytes); returns its length. */
static size_t put_int(char *out, int32_t v)
{
    char tmp[12];
    size_t n = 0, len = 0;
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    do tmp[n++] = (char)('0' + u % 10), u /= 10;
    while (u);
    if (v < 0) out[len++] = '-';
    while (n) out[len++] = tmp[--n];
    return len;
}

/* Name number i of the names part: a comma before all but the first. */
static uint64_t hash_name(uint64_t h, int i, const char *name, size_t len)
{
    if (i) h = weights_fnv1a(h, ",", 1);
    return weights_fnv1a(h, name, len);
}

uint64_t weights_layout_id(const Game *g)
{
    uint64_t h = fnv_str(WEIGHTS_FNV_BASIS, g->name);
    for (int i = 0; i < g->terms_len; i++) {
        char item[160];
        snprintf(item, sizeof item, "%s:%d;", g->terms[i].name, g->terms[i].count);
        h = weights_fnv1a(h, item, strlen(item));
    }
    return h;
}

uint64_t weights_hash_names(const char *game, const char *const *names, int len)
{
    uint64_t h = fnv_str(WEIGHTS_FNV_BASIS, game);
    for (int i = 0; i < len; i++) h = hash_name(h, i, names[i], strlen(names[i]));
    return weights_fnv1a(h, "", 1);
}

uint64_t weights_hash_values(uint64_t h, const int32_t *weights, int len)
{
    for (int i = 0; i < len; i++) {
        char v[16];
        size_t n = 0;
        if (i) v[n++] = ',';
        n += put_int(v + n, weights[i]);
        h = weights_fnv1a(h, v, n);
    }
    return h;
}

uint64_t weights_hash_canonical(const char *game, const char *names, const char *values)
{
    uint64_t h = fnv_str(WEIGHTS_FNV_BASIS, game);
    h = fnv_str(h, names);
    return weights_fnv1a(h, values, strlen(values));
}

uint64_t weights_hash(const Game *g, const int32_t *w)
{
    uint64_t h = fnv_str(WEIGHTS_FNV_BASIS, g->name);
    for (int t = 0, i = 0; t < g->terms_len; t++) {
        const EvalTerm *term = &g->terms[t];
        for (int j = 0; j < term->count; j++, i++) {
            char name[160];
            int n = term->count == 1 ? snprintf(name, sizeof name, "%s", term->name)
                                     : snprintf(name, sizeof name, "%s[%d]", term->name, j);
            h = hash_name(h, i, name, (size_t)n);
        }
    }
    return weights_hash_values(weights_fnv1a(h, "", 1), w, g->weights_len);
}

void weights_layout_text(const Game *g, char out[WEIGHTS_ID_MAX])
{
    snprintf(out, WEIGHTS_ID_MAX, "%016llx", (unsigned long long)weights_layout_id(g));
}

static bool same_layout(const Game *g, const WeightsHeader *h)
{
    if (h->terms_len != g->terms_len || h->weights_len != g->weights_len) return false;
    for (int t = 0; t < g->terms_len; t++)
        if (strcmp(h->names[t], g->terms[t].name) != 0 || h->offsets[t] != g->terms[t].offset ||
            h->counts[t] != g->terms[t].count)
            return false;
    return true;
}

const int32_t *weights_laid_out(const Game *g, const WeightsHeader *h, int32_t *buf)
{
    if (same_layout(g, h)) return h->weights;
    weights_adopt(g, h, buf);
    return buf;
}

void weights_hash_text(const Game *g, const int32_t *w, char out[WEIGHTS_ID_MAX])
{
    snprintf(out, WEIGHTS_ID_MAX, "%016llx", (unsigned long long)weights_hash(g, w));
}

int weights_adopt(const Game *g, const WeightsHeader *h, int32_t *out)
{
    int missing = 0;
    memset(out, 0, sizeof *out * (size_t)g->weights_len);
    for (int t = 0; t < g->terms_len; t++) {
        const EvalTerm *term = &g->terms[t];
        int j = 0;
        while (j < h->terms_len && strcmp(h->names[j], term->name) != 0) j++;
        if (j == h->terms_len || h->counts[j] != term->count || h->offsets[j] < 0 ||
            h->offsets[j] + h->counts[j] > h->weights_len) {
            missing++;
            continue;
        }
        memcpy(out + term->offset, h->weights + h->offsets[j], sizeof *out * (size_t)term->count);
    }
    return missing;
}
