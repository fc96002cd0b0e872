/* spsa_run.c — an SPSA run by games (contracts in tuner/spsa_run.h; the
 * gains, signs and update are spsa.c's).
 *
 * A point is one vector of VLEN = weights_len + SEARCH_PARAMS_COUNT int32:
 * the evaluation weights, then every search constant. A tuned parameter is
 * an index into it (idx[i] >= weights_len: search constant idx[i] -
 * weights_len), so weights and search constants are perturbed, rounded and
 * stored alike. */
#include "tuner/spsa_run.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/game_writer.h"
#include "arena/play.h"
#include "arena/preflight.h"
#include "arena/workers.h"
#include "db/db.h"
#include "db/weight_sets.h"
#include "engine/search.h"
#include "engine/weights_file.h"
#include "util/atomic_file.h"
#include "util/rng.h"
#include "util/text.h"

_Static_assert((int)SPSA_STATUS_MAX == (int)DB_STATUS_MAX, "a stored run's status fits SpsaResult.status");

/* Index of the weight named `name` (a term name with count 1, or NAME[i]),
 * or of a whole term (*count = its count). -1 if unknown. */
static int find_weights(const Game *g, const char *name, int *count)
{
    char base[SPSA_NAME_MAX];
    const char *br = strchr(name, '[');
    size_t n = br ? (size_t)(br - name) : strlen(name);
    if (n == 0 || n >= sizeof base) return -1;
    memcpy(base, name, n);
    base[n] = '\0';
    for (int t = 0; t < g->terms_len; t++) {
        const EvalTerm *term = &g->terms[t];
        if (strcmp(term->name, base) != 0) continue;
        if (!br) {
            *count = term->count;
            return term->offset;
        }
        char *end;
        long i = strtol(br + 1, &end, 10);
        if (end == br + 1 || strcmp(end, "]") != 0 || i < 0 || i >= term->count) return -1;
        *count = 1;
        return term->offset + (int)i;
    }
    return -1;
}

/* Length of a point: the weights, then the search constants. */
static int vec_len(const Game *g) { return g->weights_len + SEARCH_PARAMS_COUNT; }

/* Mark the search constants named in spec (comma-separated) in chosen[wl + i].
 * Returns 0, -1 (out of memory) or -2 (a bad name) with err. */
static int select_search(const Game *g, const char *spec, bool *chosen, char err[ERR_MAX])
{
    char *copy = strdup(spec), *save = NULL;
    if (!copy) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    int rc = 0, n = 0;
    if (text_list_has_empty(spec)) {
        snprintf(err, ERR_MAX, "--tune-search: an empty name in '%.60s' (NAME,NAME,...)", spec);
        free(copy);
        return -2;
    }
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ') tok++;
        int i = search_param_find(tok);
        if (i >= 0 && chosen[g->weights_len + i]) {
            snprintf(err, ERR_MAX, "--tune-search: %s is named twice", tok);
            rc = -2;
        } else if (i < 0) {
            snprintf(err, ERR_MAX, "--tune-search: '%.60s' is not a search parameter (dama search --list-params)",
                     tok);
            rc = -2;
        } else if (!search_param_applies(g, i)) {
            char why[ERR_MAX];
            search_param_applies_err(g, i, why);
            snprintf(err, ERR_MAX, "--tune-search: %.200s", why);
            rc = -2;
        } else if (strncmp(tok, "TM_", 3) == 0 || strncmp(tok, "SMP_", 4) == 0) {
            /* SPSA's games search one thread each to nodes or a depth: these would be noise to it */
            snprintf(err, ERR_MAX, "--tune-search: %s acts only in a %s, and SPSA's games search %s: it would tune "
                     "noise", tok, tok[0] == 'T' ? "search on a clock or a movetime" : "search of several threads",
                     tok[0] == 'T' ? "to a node count or a depth" : "one thread each");
            rc = -2;
        } else if (search_params()[i].min == search_params()[i].max) {
            snprintf(err, ERR_MAX, "--tune-search: %s has a single value and cannot be tuned", tok);
            rc = -2;
        } else {
            chosen[g->weights_len + i] = true;
            n++;
        }
    }
    if (rc == 0 && n == 0) {
        snprintf(err, ERR_MAX, "--tune-search: no parameter named in '%.60s'", spec);
        rc = -2;
    }
    free(copy);
    return rc;
}

/* The tuned parameters: idx[i] is the point's entry of parameter i.
 * Returns 0, -1 (out of memory) or -2 (a bad name) with err. */
static int select_params(const Game *g, const char *spec, const int32_t *start, const SpsaOptions *o, SpsaParam **out,
                         int **idx_out, int *len_out, char err[ERR_MAX])
{
    int vl = vec_len(g);
    bool *chosen = calloc((size_t)vl, sizeof *chosen);
    if (!chosen) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    int src = o->search_params ? select_search(g, o->search_params, chosen, err) : 0;
    if (src != 0) {
        free(chosen);
        return src;
    }
    if (!spec && o->search_params) {
        /* only the search constants */
    } else if (!spec) {
        for (int t = 0; t < g->terms_len; t++)
            if (g->terms[t].count == 1 && g->terms[t].offset != g->scale_weight) chosen[g->terms[t].offset] = true;
    } else {
        if (text_list_has_empty(spec)) { /* as --tune-search's: a list with a hole is a typo */
            snprintf(err, ERR_MAX, "--params: an empty name in '%.60s' (NAME,NAME,...)", spec);
            free(chosen);
            return -2;
        }
        char *copy = strdup(spec), *save = NULL;
        if (!copy) {
            free(chosen);
            snprintf(err, ERR_MAX, "out of memory");
            return -1;
        }
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ') tok++;
            int count = 0, first = find_weights(g, tok, &count);
            if (first >= 0 && chosen[first]) {
                snprintf(err, ERR_MAX, "--params: %.60s is named twice", tok);
                free(copy);
                free(chosen);
                return -2;
            }
            if (first < 0) {
                snprintf(err, ERR_MAX,
                         "--params: '%.60s' is not a %s weight (the names: dama export --game %s --weights default "
                         "--format cfg --out FILE)",
                         tok, g->name, g->name);
                free(copy);
                free(chosen);
                return -2;
            }
            for (int i = first; i < first + count; i++) chosen[i] = true;
        }
        free(copy);
        if (chosen[g->scale_weight]) {
            snprintf(err, ERR_MAX, "--params: the scale weight (index %d) fixes the scale and is never tuned",
                     g->scale_weight);
            free(chosen);
            return -2;
        }
    }
    int len = 0;
    for (int i = 0; i < vl; i++) len += chosen[i];
    SpsaParam *p = calloc((size_t)(len ? len : 1), sizeof *p);
    int *idx = calloc((size_t)(len ? len : 1), sizeof *idx);
    const char **names = weight_names_new(g);
    if (!p || !idx || !names) {
        free(p);
        free(idx);
        free((void *)names);
        free(chosen);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    double c_frac = o->c_frac, c_min = o->c_min, r_end = o->r_end;
    double range = o->range;
    int n = 0;
    for (int i = 0; i < vl; i++) {
        if (!chosen[i]) continue;
        SpsaParam *q = &p[n];
        if (i >= g->weights_len) {
            const SearchParamInfo *sp = &search_params()[i - g->weights_len];
            snprintf(q->name, sizeof q->name, SPSA_SEARCH_PREFIX "%s", sp->name);
            q->theta = start[i];
            q->min = sp->min;
            q->max = sp->max;
            q->c_end = sp->step > 0 ? sp->step : 1;
            q->r_end = r_end;
            q->integer = 1;
            idx[n++] = i;
            continue;
        }
        snprintf(q->name, sizeof q->name, "%s", names[i]);
        q->theta = start[i];
        double mag = fabs((double)start[i]);
        double span = fmax(100.0, range * mag);
        /* never past what a weight file holds (the result is written as one) */
        q->min = fmax(q->theta - span, fmin(q->theta, -WEIGHTS_FILE_ABS_MAX));
        q->max = fmin(q->theta + span, fmax(q->theta, WEIGHTS_FILE_ABS_MAX));
        q->c_end = fmax(c_min, c_frac * mag);
        q->r_end = r_end;
        q->integer = 1;
        idx[n++] = i;
    }
    free((void *)names);
    free(chosen);
    *out = p;
    *idx_out = idx;
    *len_out = len;
    return 0;
}

static void params_text(const SpsaParam *p, int len, char **out)
{
    size_t size = (size_t)len * 160 + 1, used = 0;
    char *s = malloc(size);
    if (!s) {
        *out = NULL;
        return;
    }
    s[0] = '\0';
    for (int i = 0; i < len; i++)
        used += (size_t)snprintf(s + used, size - used, "%s %.17g %.17g %.17g %.17g %.17g\n", p[i].name, p[i].min,
                                 p[i].max, p[i].c_end, p[i].r_end, p[i].theta);
    *out = s;
}

static char *theta_text(const SpsaParam *p, int len)
{
    size_t size = (size_t)len * 26 + 1, used = 0;
    char *s = malloc(size);
    if (!s) return NULL;
    s[0] = '\0';
    for (int i = 0; i < len; i++) used += (size_t)snprintf(s + used, size - used, i ? " %.17g" : "%.17g", p[i].theta);
    return s;
}

/* theta from a stored iteration's text; -1 if it does not hold len values. */
static int theta_parse(SpsaParam *p, int len, const char *text)
{
    const char *s = text;
    for (int i = 0; i < len; i++) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || !isfinite(v)) return -1;
        p[i].theta = v;
        s = end;
    }
    while (*s == ' ') s++;
    return *s ? -1 : 0;
}

static void rounded_weights(const SpsaParam *p, const int *idx, int len, const double *theta, int32_t *w)
{
    for (int i = 0; i < len; i++) {
        double v = theta ? theta[i] : floor(p[i].theta + 0.5);
        w[idx[i]] = (int32_t)v;
    }
}


/* One run: the options, the database, the start and the parameters. */
typedef struct Spsa {
    const SpsaOptions *o;
    SpsaResult *r;
    Db *db;
    int32_t *start;      /* the start point: every weight, then every search constant (vec_len) */
    const char **names;  /* the game's weight names */
    int *idx;            /* idx[i]: the weight of parameter i */
    OpeningBook book;
} Spsa;

/* The start, the parameters, and the run found (its last stored theta) or
 * stored, taken by this process. Returns 0, -1 with err, -2 (a bad
 * parameter value) or -3 (another live process runs it) with err. */
static int set_up(Spsa *s, Db **own, char err[ERR_MAX])
{
    const SpsaOptions *o = s->o;
    const Game *g = o->game;
    SpsaResult *r = s->r;
    int rc = s->start && s->names ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc == 0 && !s->db) rc = db_open(o->db_path, true, own, err);
    if (!s->db) s->db = *own;
    if (rc == 0) rc = weights_resolve_db(g, o->weights, s->db, s->start, &r->base_ws, err);
    if (rc == 0) rc = select_params(g, o->params, s->start, o, &r->params, &s->idx, &r->len, err);
    if (rc == 0 && spsa_check(&o->schedule, r->params, r->len, err, ERR_MAX) != 0) rc = -2;
    if (rc == 0) rc = weights_store_base(s->db, g, o->weights, s->start, s->names, 0, &r->base_ws, err);
    /* The run found and taken, or stored, in one transaction: two copies
     * started together cannot both make it or both continue it. */
    char *params = NULL;
    if (rc == 0 && (params_text(r->params, r->len, &params), !params)) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    DbSpsaRun row = {.game = g->name, .base_ws = r->base_ws, .seed = o->seed, .config = o->config,
                     .params = params, .iterations = o->schedule.iterations, .pairs = o->pairs,
                     .a_const = o->schedule.A, .alpha = o->schedule.alpha, .gamma = o->schedule.gamma};
    DbClaim claim;
    if (rc == 0) {
        int crc = db_spsa_claim(s->db, &row, &claim, err);
        if (crc == DB_BUSY) rc = -3;
        else if (crc != 0) rc = -1;
        r->spsa_id = crc == 0 ? claim.id : 0;
        r->resumed = crc == 0 && !claim.created;
        if (crc == 0) snprintf(r->status, sizeof r->status, "%s", claim.status);
        if (crc == 0 && claim.created && db_other_interrupted(s->db, "spsa", o->game->name, claim.id,
                                                                   &r->other_interrupted, err) != 0)
            rc = -1;
    }
    free(params);
    if (rc == 0 && r->resumed) {
        char *stored_theta = NULL;
        rc = db_spsa_last(s->db, r->spsa_id, &r->done_before, &stored_theta, err);
        if (rc == 0 && stored_theta && theta_parse(r->params, r->len, stored_theta) != 0) {
            snprintf(err, ERR_MAX, "SPSA run %lld: iteration %d's stored values do not match %d parameters",
                     (long long)r->spsa_id, r->done_before, r->len);
            rc = -1;
        }
        if (rc == 0) rc = db_spsa_finish(s->db, r->spsa_id, "running", 0, err);
        free(stored_theta);
    }
    if (rc == 0 && !(r->start = malloc(sizeof *r->start * (size_t)(r->len ? r->len : 1)))) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < r->len; i++) r->start[i] = s->start[s->idx[i]];
    if (rc == 0 && o->on_start) o->on_start(o->ctx, r);
    return rc;
}

/* Both points of every pair of iteration k: theta+ and theta- as whole
 * weight vectors (pw: 2 per pair). Returns 0, or -1 out of memory. */
static int iteration_points(const Spsa *s, int k, int32_t *pw)
{
    const SpsaOptions *o = s->o;
    const SpsaResult *r = s->r;
    int wl = vec_len(o->game), len = r->len;
    for (int64_t j = 0; j < o->pairs; j++) {
        int8_t *delta = malloc((size_t)len);
        double *plus = malloc(sizeof(double) * (size_t)len), *minus = malloc(sizeof(double) * (size_t)len);
        if (!delta || !plus || !minus) {
            free(delta);
            free(plus);
            free(minus);
            return -1;
        }
        spsa_signs(o->seed, k, (int)j, len, delta);
        spsa_points(&o->schedule, r->params, len, k, delta, plus, minus);
        int32_t *wp = pw + (size_t)wl * 2 * (size_t)j, *wm = wp + wl;
        memcpy(wp, s->start, sizeof(int32_t) * (size_t)wl);
        memcpy(wm, s->start, sizeof(int32_t) * (size_t)wl);
        rounded_weights(r->params, s->idx, len, plus, wp);
        rounded_weights(r->params, s->idx, len, minus, wm);
        free(delta);
        free(plus);
        free(minus);
    }
    return 0;
}

/* The tuned search constants of point v set in e. Returns 0, or -1 with err
 * (a value outside the table's range: not expected, points are clamped). */
static int set_search_params(const Spsa *s, Engine *e, const int32_t *v, char err[ERR_MAX])
{
    int wl = s->o->game->weights_len;
    for (int i = 0; i < s->r->len; i++)
        if (s->idx[i] >= wl && engine_set_param(e, search_params()[s->idx[i] - wl].name, v[s->idx[i]], err) != 0)
            return -1;
    return 0;
}

/* The games of iteration k, one pair per job over the workers: results[j]
 * theta+'s points minus theta-'s, wdl[j] its wins, draws, losses. Returns
 * 0, or -1 when a worker failed or *stop (the iteration does not count). */
static int iteration_games(const Spsa *s, int k, const int32_t *pw, Worker *workers, const bool *worker_ok,
                           int *results, int64_t (*wdl)[3])
{
    const SpsaOptions *o = s->o;
    const Game *g = o->game;
    int64_t pairs = o->pairs;
    PlaySettings ps = {.nodes = o->depth ? 0 : o->nodes, .depth = o->depth, .max_plies = o->max_plies};
    const OpeningBook *book = &s->book;
    int64_t offset = book->len ? (int64_t)(rng_derive(o->seed, 0x6f70656eULL) % (uint64_t)book->len) : 0;
    volatile int failed = 0;
#pragma omp parallel for num_threads(s->r->threads) schedule(dynamic, 1)
    for (int64_t j = 0; j < pairs; j++) {
        int t = omp_get_thread_num();
        if (!worker_ok[t] || failed || *o->stop) {
            failed = 1;
            continue;
        }
        Worker *wk = &workers[t];
        const Opening *op = &book->items[(offset + (int64_t)(k - 1) * pairs + j) % book->len];
        char werr[ERR_MAX];
        Position startpos;
        g->pos_from_fen(&startpos, op->fen, werr);
        int vl = vec_len(g);
        const int32_t *wp = pw + (size_t)vl * 2 * (size_t)j, *wm = wp + vl;
        int points = 0;
        int64_t c[3] = {0, 0, 0};
        for (int game = 0; game < 2; game++) {
            /* game 0: theta+ plays White; game 1: theta+ plays Black */
            Color plus_color = game == 0 ? COLOR_WHITE : COLOR_BLACK;
            engine_set_weights(wk->eng[plus_color], wp);
            engine_set_weights(wk->eng[plus_color ^ 1], wm);
            if (set_search_params(s, wk->eng[plus_color], wp, werr) != 0 ||
                set_search_params(s, wk->eng[plus_color ^ 1], wm, werr) != 0) {
                failed = 1;
                break;
            }
            if (play_game(g, wk->eng, &startpos, &ps, o->stop, &wk->rec, werr) != 0) {
                failed = 1;
                break;
            }
            int white_half = outcome_score_white(wk->rec.outcome);
            int plus_half = plus_color == COLOR_WHITE ? white_half : 2 - white_half;
            points += plus_half - 1;
            c[plus_half == 2 ? 0 : plus_half == 1 ? 1 : 2]++;
        }
        results[j] = points;
        memcpy(wdl[j], c, sizeof c);
    }
    return failed ? -1 : 0;
}

/* The iterations after the stored ones, each stored as it ends, until the
 * last, *stop or a failure. Returns 0 (r->done: the last iteration done),
 * or -1 with err. */
static int iterate(Spsa *s, char err[ERR_MAX])
{
    const SpsaOptions *o = s->o;
    SpsaResult *r = s->r;
    const Game *g = o->game;
    int threads = r->threads;
    int64_t pairs = o->pairs;
    int32_t *pw = malloc(sizeof(int32_t) * (size_t)vec_len(g) * 2 * (size_t)pairs);
    Worker *workers = calloc((size_t)threads, sizeof *workers);
    bool *worker_ok = calloc((size_t)threads, sizeof *worker_ok);
    int *results = calloc((size_t)pairs, sizeof *results);
    int64_t(*wdl)[3] = calloc((size_t)pairs, sizeof *wdl);
    int rc = 0;
    if (!pw || !workers || !worker_ok) {
        snprintf(err, ERR_MAX, "out of memory for %lld pairs", (long long)pairs);
        rc = -1;
    }
    GameWriter wr; /* only for worker_init's failure report: games are not stored */
    game_writer_init(&wr, s->db, 1, 1.0);
    if (rc == 0) {
        for (int t = 0; t < threads; t++) worker_ok[t] = worker_init(&workers[t], g, o->hash_mb, o->stop, &wr);
        if (wr.failed) {
            snprintf(err, ERR_MAX, "%s", wr.err);
            rc = -1;
        }
    }
    if (rc == 0 && (!results || !wdl)) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    int k = r->done_before + 1;
    for (; rc == 0 && k <= o->schedule.iterations && !*o->stop; k++) {
        if (iteration_points(s, k, pw) != 0) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
            break;
        }
        if (iteration_games(s, k, pw, workers, worker_ok, results, wdl) != 0) break; /* interrupted: not counted */
        if (spsa_update(&o->schedule, r->params, r->len, k, o->seed, (int)pairs, results) != 0) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
            break;
        }
        int64_t tot[3] = {0, 0, 0}, sum = 0;
        for (int64_t j = 0; j < pairs; j++) {
            sum += results[j];
            for (int i = 0; i < 3; i++) tot[i] += wdl[j][i];
        }
        char *text = theta_text(r->params, r->len);
        if (!text) snprintf(err, ERR_MAX, "out of memory");
        rc = text ? db_spsa_iteration_insert(s->db, r->spsa_id, k, tot, sum, text, err) : -1;
        free(text);
        if (o->on_iteration) o->on_iteration(o->ctx, r, k, tot);
    }
    r->done = k - 1;
    if (workers)
        for (int t = 0; t < threads; t++)
            if (worker_ok[t]) worker_free(&workers[t]);
    game_writer_free(&wr);
    free(workers);
    free(worker_ok);
    free(results);
    free(wdl);
    free(pw);
    return rc;
}

/* The result (values rounded) stored as a weight set with its lineage, the
 * run marked, and --out written. Returns 0 or -1 with err. */
static int store_result(Spsa *s, const char *path, char err[ERR_MAX])
{
    const SpsaOptions *o = s->o;
    SpsaResult *r = s->r;
    const Game *g = o->game;
    int32_t *w = malloc(sizeof(int32_t) * (size_t)vec_len(g));
    if (!w) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    r->complete = r->done >= o->schedule.iterations;
    memcpy(w, s->start, sizeof(int32_t) * (size_t)vec_len(g));
    rounded_weights(r->params, s->idx, r->len, NULL, w);
    char how[160], name[64];
    snprintf(how, sizeof how, "spsa run %lld, %d of %lld iterations x %lld pairs", (long long)r->spsa_id, r->done,
             (long long)o->schedule.iterations, (long long)o->pairs);
    snprintf(name, sizeof name, "spsa-%lld", (long long)r->spsa_id);
    int64_t ws = 0;
    int rc = db_weights_insert(s->db, g->name, name, r->base_ws, how, 0, s->names, w, g->weights_len, &ws, err);
    if (rc == 0) rc = db_spsa_finish(s->db, r->spsa_id, r->complete ? "done" : "interrupted", ws, err);
    if (rc == 0 && o->out && r->complete) { /* interrupted: the file would stop the rerun that resumes */
        /* a weight file holds weights only: the tuned search constants go
         * into its comment, as the options that set them */
        char comment[2048];
        size_t used = (size_t)snprintf(comment, sizeof comment, "SPSA run %lld (weight set %lld): %s",
                                       (long long)r->spsa_id, (long long)ws, how);
        const char *sep = "; search constants, not in this file:";
        for (int i = 0; i < r->len && used < sizeof comment; i++) {
            if (s->idx[i] < g->weights_len) continue;
            used += (size_t)snprintf(comment + used, sizeof comment - used, "%s --search-param %s=%d", sep,
                                     search_params()[s->idx[i] - g->weights_len].name, (int)w[s->idx[i]]);
            sep = "";
        }
        AtomicOptions out_opts = {.replace = o->force, .protect_db = path};
        rc = weights_file_write(g, w, comment, o->out, &out_opts, err);
    }
    if (rc == 0) r->weight_set = ws;
    free(w);
    return rc;
}

int spsa_run(Db *db, const SpsaOptions *o, SpsaResult *r, char err[ERR_MAX])
{
    memset(r, 0, sizeof *r);
    err[0] = '\0';
    const Game *g = o->game;
    r->threads = o->threads ? o->threads : omp_get_num_procs();
    const char *path = db ? db_path(db) : o->db_path;
    /* --out is checked before the games are played. */
    AtomicOptions out_opts = {.replace = o->force, .protect_db = path};
    char aerr[ATOMIC_ERR_MAX];
    if (o->out && atomic_file_check(o->out, &out_opts, aerr) != 0) {
        snprintf(err, ERR_MAX, "--out: %.240s", aerr);
        return 1;
    }
    char opt[48];
    snprintf(opt, sizeof opt, "--hash %lld", (long long)o->hash_mb);
    if (preflight_check_hash(g, o->hash_mb / 2 > 0 ? o->hash_mb / 2 : 1, 2 * r->threads, opt, err) != 0)
        return 1; /* workers.c's split */
    Spsa s = {.o = o, .r = r, .db = db};
    if (openings_from_source(g, &o->openings, o->seed, &s.book, err) != 0) return 1;
    s.start = malloc(sizeof(int32_t) * (size_t)vec_len(g));
    s.names = weight_names_new(g);
    if (s.start)
        for (int i = 0; i < SEARCH_PARAMS_COUNT; i++) s.start[g->weights_len + i] = search_param_default(g, i);
    Db *own = NULL;
    int rc = set_up(&s, &own, err);
    if (rc == 0) rc = iterate(&s, err);
    if (rc == 0 && r->spsa_id) rc = store_result(&s, path, err);
    free(s.idx);
    free(s.start);
    free((void *)s.names);
    db_close_discard_new(own);
    openings_free(&s.book);
    if (rc == -2) return 2;
    if (rc == -3) return DB_BUSY;
    if (rc != 0) return 1;
    return r->complete ? 0 : 3;
}

void spsa_result_free(SpsaResult *r)
{
    free(r->params);
    free(r->start);
    r->params = NULL;
    r->start = NULL;
}
