/* search_engine.c — the Engine's life (contracts in engine/search.h):
 * creation with its transposition table, threads, weights, stop and probe
 * hooks, clearing, and the search parameters (engine/search_params.def)
 * with the late-move reduction table built from them. */
#include "engine/search.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/search_internal.h"

static const SearchParamInfo PARAMS[SEARCH_PARAMS_COUNT] = {
#define SP(name, def, lo, hi, step, needs, doc) {#name, def, lo, hi, step, SEARCH_NEEDS_##needs, doc},
#include "engine/search_params.def"
#undef SP
};

const SearchParamInfo *search_params(void) { return PARAMS; }

int search_param_default(const Game *game, int i)
{
    for (const GameSearchParam *p = game ? game->search_params : NULL; p && p->name; p++)
        if (strcmp(p->name, PARAMS[i].name) == 0) return p->value;
    return PARAMS[i].def;
}

int search_param_find(const char *name)
{
    for (int i = 0; i < SEARCH_PARAMS_COUNT; i++)
        if (strcmp(PARAMS[i].name, name) == 0) return i;
    return -1;
}

bool search_param_applies(const Game *game, int i)
{
    if (!game) return true;
    switch (PARAMS[i].needs) {
    case SEARCH_NEEDS_ROYAL: return game->royal_attacked != NULL;
    case SEARCH_NEEDS_PIECES: return game->piece_count != NULL;
    default: return true;
    }
}

void search_param_applies_err(const Game *game, int i, char err[ERR_MAX])
{
    const char *need = "";
    switch (PARAMS[i].needs) {
    case SEARCH_NEEDS_ROYAL: need = "with a royal piece"; break;
    case SEARCH_NEEDS_PIECES: need = "that count their pieces (Game.piece_count)"; break;
    case SEARCH_NEEDS_ANY: need = "(every game)"; break;
    }
    snprintf(err, ERR_MAX, "search parameter %s does nothing in %s: it applies only to games %s", PARAMS[i].name,
             game ? game->name : "this game", need);
}

static void build_lmr(Engine *e)
{
    double base = P(e, LMR_BASE) / 100.0, div = P(e, LMR_DIV) / 100.0;
    for (int d = 0; d < LMR_N; d++)
        for (int m = 0; m < LMR_N; m++) {
            double r = d && m ? base + log((double)d) * log((double)m) / div : 0;
            e->lmr[d][m] = (int8_t)(r < 0 ? 0 : r > 30 ? 30 : (int)r);
        }
}

int engine_set_param(Engine *e, const char *name, int value, char err[ERR_MAX])
{
    int i = search_param_find(name);
    if (i < 0) {
        snprintf(err, ERR_MAX, "unknown search parameter '%.64s' (dama search --list-params)", name);
        return -1;
    }
    if (!search_param_applies(e->game, i)) {
        search_param_applies_err(e->game, i, err);
        return -1;
    }
    if (value < PARAMS[i].min || value > PARAMS[i].max) {
        snprintf(err, ERR_MAX, "search parameter %s=%d outside its range %d..%d", name, value, PARAMS[i].min,
                 PARAMS[i].max);
        return -1;
    }
    e->params[i] = value;
    build_lmr(e);
    return 0;
}

int engine_get_param(const Engine *e, int i) { return e->params[i]; }

/* Adds name to the ", "-separated list out (size bytes); each name comes
 * once (set_params_text refuses a name given twice). */
static void list_add(char *out, size_t size, const char *name)
{
    size_t n = strlen(out);
    snprintf(out + n, size - n, "%s%s", n ? ", " : "", name);
}

/* engine_set_params_text, or with skipped (skipped_size bytes) not NULL,
 * engine_set_params_applying. */
static int set_params_text(Engine *e, const char *text, char *skipped, size_t skipped_size, char err[ERR_MAX])
{
    if (skipped) skipped[0] = '\0';
    const char *p = text;
    int item = 0, line = 1, first_line[SEARCH_PARAMS_COUNT] = {0};
    const bool lines = strchr(text, '\n') != NULL; /* a file's text: errors name their line */
    char where[24] = "";
    while (*p) {
        if (lines) snprintf(where, sizeof where, "line %d: ", line);
        /* one item: up to ',' or newline; '#' starts a comment to the end of line */
        const char *end = p + strcspn(p, ",\n");
        char buf[128];
        size_t n = (size_t)(end - p);
        if (n >= sizeof buf) {
            snprintf(err, ERR_MAX, "%ssearch parameter item %d too long: '%.40s...'", where, item + 1, p);
            return -1;
        }
        memcpy(buf, p, n);
        buf[n] = '\0';
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *s = buf + strspn(buf, " \t\r");
        size_t len = strlen(s);
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r')) s[--len] = '\0';
        if (*s) {
            item++;
            char *eq = strchr(s, '=');
            if (!eq) {
                snprintf(err, ERR_MAX, "%ssearch parameter '%.64s': expected NAME=VALUE", where, s);
                return -1;
            }
            *eq = '\0';
            char *name = s, *val = eq + 1;
            size_t nl = strlen(name);
            while (nl && (name[nl - 1] == ' ' || name[nl - 1] == '\t')) name[--nl] = '\0';
            val += strspn(val, " \t");
            char *vend;
            long v = strtol(val, &vend, 10);
            if (!*val || *vend) {
                snprintf(err, ERR_MAX, "%ssearch parameter %.64s: '%.32s' is not an integer", where, name, val);
                return -1;
            }
            bool huge = v < -1000000 || v > 1000000; /* beyond every range: refused below with the text given */
            int i = search_param_find(name);
            if (i >= 0 && first_line[i]) { /* the later value would win unseen */
                if (lines)
                    snprintf(err, ERR_MAX, "%s%.64s is set again (first on line %d)", where, name, first_line[i]);
                else
                    snprintf(err, ERR_MAX, "search parameter %.64s is given twice", name);
                return -1;
            }
            if (i >= 0) first_line[i] = line;
            if (skipped && i >= 0 && !search_param_applies(e->game, i) && v >= PARAMS[i].min && v <= PARAMS[i].max) {
                list_add(skipped, skipped_size, PARAMS[i].name); /* left out: it does nothing here */
            } else if (engine_set_param(e, name, huge ? (v < 0 ? -1000001 : 1000001) : (int)v, err) != 0) {
                const char *range = strstr(err, "outside its range ");
                char msg[ERR_MAX];
                if (huge && range)
                    snprintf(msg, sizeof msg, "%ssearch parameter %.64s=%.32s %.60s", where, name, val, range);
                else
                    snprintf(msg, sizeof msg, "%s%.200s", where, err);
                memcpy(err, msg, ERR_MAX);
                return -1;
            }
        }
        if (*end == '\n') line++;
        p = *end ? end + 1 : end;
    }
    return 0;
}

int engine_set_params_text(Engine *e, const char *text, char err[ERR_MAX])
{
    return set_params_text(e, text, NULL, 0, err);
}

int engine_set_params_applying(Engine *e, const char *text, char skipped[ERR_MAX], char err[ERR_MAX])
{
    return set_params_text(e, text, skipped, ERR_MAX, err);
}

static Worker *worker_new(Engine *e, int id)
{
    Worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->eng = e;
    w->id = id;
    return w;
}

enum { TT_POPULATE_MB = 64 };

static Engine *engine_make(const Game *game, size_t hash_mb, bool populate_table)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    if (hash_mb < 1) hash_mb = 1;
    uint64_t buckets = (uint64_t)hash_mb * 1024 * 1024 / sizeof(TTBucket);
    uint64_t pow2 = 1;
    while (pow2 * 2 <= buckets) pow2 *= 2;
    /* An anonymous mapping is zeroed by the kernel. A table up to
     * TT_POPULATE_MB is made present at once (MAP_POPULATE): a search
     * reads a bucket before it writes it, and on a page never touched
     * that is two faults (the read maps the shared zero page, the write
     * copies it): a fresh `dama search --movetime 100` reached less than
     * half the nodes it reaches with its 4 MiB table populated (about 6 ms
     * of CPU; docs/search.md, "Transposition table"). A larger
     * table stays lazy, so that it costs nothing at start-up; huge pages
     * were tried and stall on compaction. */
    e->tt_bytes = (size_t)pow2 * sizeof(TTBucket);
#if defined(MAP_POPULATE) && !defined(__wasi__) /* wasi-libc's emulation would link its file-reading path */
    int populate = populate_table && e->tt_bytes <= (size_t)TT_POPULATE_MB << 20 ? MAP_POPULATE : 0;
#else
    (void)populate_table;
    int populate = 0;
#endif
    void *map = mmap(NULL, e->tt_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
    if (map == MAP_FAILED && populate) /* a libc that does not take the flag (wasi-libc's emulation) */
        map = mmap(NULL, e->tt_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    e->tt = map == MAP_FAILED ? NULL : map;
    e->workers[0] = worker_new(e, 0);
    if (!e->tt || !e->workers[0]) {
        if (e->tt) munmap(e->tt, e->tt_bytes);
        free(e->workers[0]);
        free(e);
        return NULL;
    }
    e->threads = 1;
    pthread_mutex_init(&e->best_lock, NULL);
    e->tt_mask = pow2 - 1;
    e->game = game;
    e->weights = game->weights_default();
    for (int i = 0; i < SEARCH_PARAMS_COUNT; i++) e->params[i] = search_param_default(game, i);
    build_lmr(e);
    return e;
}

Engine *engine_new(const Game *game, size_t hash_mb) { return engine_make(game, hash_mb, true); }

Engine *engine_new_unpopulated(const Game *game, size_t hash_mb) { return engine_make(game, hash_mb, false); }

void engine_free(Engine *e)
{
    if (!e) return;
    for (int i = 0; i < e->threads; i++) free(e->workers[i]);
    munmap(e->tt, e->tt_bytes);
    pthread_mutex_destroy(&e->best_lock);
    free(e);
}

int engine_set_threads(Engine *e, int n)
{
    if (n < 1) n = 1;
    if (n > THREADS_MAX) n = THREADS_MAX;
    for (int i = e->threads; i < n; i++) {
        e->workers[i] = worker_new(e, i);
        if (!e->workers[i]) {
            for (int j = e->threads; j < i; j++) free(e->workers[j]);
            return -1;
        }
    }
    for (int i = n; i < e->threads; i++) free(e->workers[i]);
    e->threads = n;
    return 0;
}

void engine_set_weights(Engine *e, const int32_t *weights)
{
    e->weights = weights ? weights : e->game->weights_default();
}

void engine_set_stop_flag(Engine *e, volatile int *stop) { e->stop_flag = stop; }

void engine_set_probe(Engine *e, EngineProbeFn fn, void *ctx)
{
    e->probe = fn;
    e->probe_ctx = ctx;
}

void engine_set_stop_fn(Engine *e, int (*fn)(void *ctx), void *ctx)
{
    e->stop_fn = fn;
    e->stop_ctx = ctx;
}

void engine_clear(Engine *e)
{
    /* A table larger than TT_POPULATE_MB stays lazy (engine_make): its pages
     * are given back, to come again zeroed when touched; written over, every
     * page of it would be made present (dama_game_reset of a 2 GiB table took
     * 2 GiB at once). A smaller one stays present, its pages written over. */
#if defined(__linux__) && defined(MADV_DONTNEED) /* zero-filled when touched again: Linux's promise, not POSIX's */
    bool dropped = e->tt_bytes > (size_t)TT_POPULATE_MB << 20 && madvise(e->tt, e->tt_bytes, MADV_DONTNEED) == 0;
#else
    bool dropped = false;
#endif
    if (!dropped) memset(e->tt, 0, (e->tt_mask + 1) * sizeof(TTBucket));
    e->generation = 0;
    for (int t = 0; t < e->threads; t++) {
        Worker *w = e->workers[t];
        memset(w->hist, 0, sizeof w->hist);
        memset(w->counter, 0, sizeof w->counter);
        memset(w->cont, 0, sizeof w->cont);
        for (int i = 0; i <= PLY_MAX + 1; i++) memset(w->frames[i].killers, 0, sizeof w->frames[i].killers);
    }
}
