/* weights_id.c — layout version and weight-set hash (FNV-1a 64). */
#include "engine/weights_id.h"

#include <stdio.h>
#include <string.h>

static const uint64_t FNV_BASIS = 14695981039346656037ULL, FNV_PRIME = 1099511628211ULL;

static uint64_t fnv_bytes(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv_bytes(h, s, strlen(s) + 1); }

uint64_t weights_layout_id(const Game *g)
{
    uint64_t h = fnv_str(FNV_BASIS, g->name);
    for (int i = 0; i < g->terms_len; i++) {
        char item[160];
        snprintf(item, sizeof item, "%s:%d;", g->terms[i].name, g->terms[i].count);
        h = fnv_bytes(h, item, strlen(item));
    }
    return h;
}

uint64_t weights_hash(const Game *g, const int32_t *w)
{
    uint64_t h = fnv_str(FNV_BASIS, g->name);
    for (int t = 0, first = 1; t < g->terms_len; t++) {
        const EvalTerm *term = &g->terms[t];
        for (int j = 0; j < term->count; j++, first = 0) {
            char name[160];
            int n = term->count == 1 ? snprintf(name, sizeof name, "%s%s", first ? "" : ",", term->name)
                                     : snprintf(name, sizeof name, "%s%s[%d]", first ? "" : ",", term->name, j);
            h = fnv_bytes(h, name, (size_t)n);
        }
    }
    h = fnv_bytes(h, "", 1);
    for (int i = 0; i < g->weights_len; i++) {
        char v[16];
        int n = snprintf(v, sizeof v, i ? ",%d" : "%d", (int)w[i]);
        h = fnv_bytes(h, v, (size_t)n);
    }
    return h;
}

void weights_layout_text(const Game *g, char out[WEIGHTS_ID_MAX])
{
    snprintf(out, WEIGHTS_ID_MAX, "%016llx", (unsigned long long)weights_layout_id(g));
}

void weights_hash_text(const Game *g, const int32_t *w, char out[WEIGHTS_ID_MAX])
{
    snprintf(out, WEIGHTS_ID_MAX, "%016llx", (unsigned long long)weights_hash(g, w));
}
