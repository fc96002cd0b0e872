/* cmd_spsa.c — `dama spsa`: tune a chosen subset of evaluation weights by
 * games with SPSA (tune/spsa.h). Each iteration plays --pairs game pairs of
 * theta+ against theta- on paired openings with OpenMP workers; every
 * iteration (theta after it, theta+'s results) is stored, a killed run
 * resumes from its last stored iteration when the same command is run
 * again, and the result is stored as a weight set with its lineage. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/search.h"
#include "arena/play.h"
#include "tuner/spsa.h"
#include "engine/weights_file.h"
#include "util/atomic_file.h"
#include "util/rng.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"weights", OPT_STR, "default", "weights to start from: " CLI_WEIGHTS_FORMS, 0, 0},
    {"params", OPT_STR, NULL,
     "weights to tune, comma-separated: a term name (all its weights) or NAME[i] (default: every scalar term but the "
     "scale weight)", 0, 0},
    {"iterations", OPT_INT, "200", "SPSA iterations N", 1, 1000000},
    {"pairs", OPT_INT, "8", "game pairs per iteration, each with its own signs", 1, 100000},
    {"A", OPT_REAL, "-1", "stability constant A (-1: 10% of the iterations)", -1, 1e7},
    {"alpha", OPT_REAL, "0.602", "learning-rate decay exponent", 0, 2},
    {"gamma", OPT_REAL, "0.101", "perturbation decay exponent", 0, 2},
    {"c-frac", OPT_REAL, "0.05", "final perturbation c_end as a fraction of |start value| ...", 0, 10},
    {"c-min", OPT_REAL, "2", "... but at least this many centi-men", 0, 1000},
    {"r-end", OPT_REAL, "0.002", "final a_N / c_N^2", 0, 10},
    {"range", OPT_REAL, "1", "each weight stays within start +- max(100, range * |start|)", 0, 100},
    RUN_PLAY_OPTS,
    {"seed", OPT_INT, "1", "seed (signs, opening order, random openings)", 0, CLI_INT_MAX},
    {"out", OPT_STR, NULL, "also write the result as a weight file", 0, 0},
    {"force", OPT_FLAG, NULL, "let --out replace an existing file (never the database itself)", 0, 0},
    {"progress", OPT_REAL, "5", "seconds between progress lines (0: none)", 0, 86400},
    {0},
};

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

/* The tuned weights: idx[i] is the weight of parameter i. */
static int select_params(const Game *g, const char *spec, const int32_t *start, const CliArgs *a, SpsaParam **out,
                         int **idx_out, int *len_out, char err[ERR_MAX])
{
    bool *chosen = calloc((size_t)g->weights_len, sizeof *chosen);
    if (!chosen) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    if (!spec) {
        for (int t = 0; t < g->terms_len; t++)
            if (g->terms[t].count == 1 && g->terms[t].offset != g->scale_weight) chosen[g->terms[t].offset] = true;
    } else {
        char *copy = strdup(spec), *save = NULL;
        if (!copy) {
            free(chosen);
            snprintf(err, ERR_MAX, "out of memory");
            return -1;
        }
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ') tok++;
            int count = 0, first = find_weights(g, tok, &count);
            if (first < 0) {
                snprintf(err, ERR_MAX,
                         "--params: '%.60s' is not a %s weight (the names: dama export --game %s --weights default "
                         "--format cfg --out FILE)",
                         tok, g->name, g->name);
                free(copy);
                free(chosen);
                return -1;
            }
            for (int i = first; i < first + count; i++) chosen[i] = true;
        }
        free(copy);
        if (chosen[g->scale_weight]) {
            snprintf(err, ERR_MAX, "--params: the scale weight (index %d) fixes the scale and is never tuned",
                     g->scale_weight);
            free(chosen);
            return -1;
        }
    }
    int len = 0;
    for (int i = 0; i < g->weights_len; i++) len += chosen[i];
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
    double c_frac = cli_real(a, "c-frac"), c_min = cli_real(a, "c-min"), r_end = cli_real(a, "r-end");
    double range = cli_real(a, "range");
    int n = 0;
    for (int i = 0; i < g->weights_len; i++) {
        if (!chosen[i]) continue;
        SpsaParam *q = &p[n];
        snprintf(q->name, sizeof q->name, "%s", names[i]);
        q->theta = start[i];
        double mag = fabs((double)start[i]);
        double span = fmax(100.0, range * mag);
        q->min = fmax(q->theta - span, -1e9);
        q->max = fmin(q->theta + span, 1e9);
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

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    int64_t iterations = cli_int(a, "iterations"), pairs = cli_int(a, "pairs");
    /* --iterations 1..1000000 and --pairs 1..100000: checked by cli_parse */
    int64_t threads = cli_int(a, "threads"), hash = cli_int(a, "hash");
    if (threads == 0) threads = omp_get_num_procs();
    SpsaSchedule sched = {.iterations = (int)iterations, .A = cli_real(a, "A"), .alpha = cli_real(a, "alpha"),
                          .gamma = cli_real(a, "gamma")};
    if (sched.A == -1) sched.A = 0.1 * (double)iterations;
    uint64_t seed = (uint64_t)cli_int(a, "seed");
    {
        /* --out is checked before the games are played. */
        AtomicOptions out_opts = {.replace = cli_flag(a, "force"), .protect_db = cli_str(a, "db")};
        char aerr[ATOMIC_ERR_MAX];
        if (cli_str(a, "out") && atomic_file_check(cli_str(a, "out"), &out_opts, aerr) != 0) {
            fprintf(stderr, "dama spsa: --out: %s\n", aerr);
            return 1;
        }
    }

    char opt[48];
    snprintf(opt, sizeof opt, "--hash %lld", (long long)hash);
    if (run_check_hash(g, hash / 2 > 0 ? hash / 2 : 1, 2 * (int)threads, opt, err) != 0) { /* workers.c's split */
        fprintf(stderr, "dama spsa: %s\n", err);
        return 1;
    }

    OpeningBook book;
    if (run_openings(g, a, seed, &book, err) != 0) {
        fprintf(stderr, "dama spsa: %s\n", err);
        return 1;
    }
    int32_t *start = malloc(sizeof(int32_t) * (size_t)g->weights_len);
    const char **names = weight_names_new(g);
    Db *db = NULL;
    SpsaParam *p = NULL;
    int *idx = NULL, len = 0;
    int64_t base_ws = 0, spsa_id = 0;
    char *params = NULL, *stored_theta = NULL;
    int done_iter = 0, rc = start && names ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc == 0) rc = db_open(cli_str(a, "db"), true, &db, err);
    if (rc == 0) rc = weights_resolve_db(g, cli_str(a, "weights"), db, start, &base_ws, err);
    if (rc == 0) rc = select_params(g, cli_str(a, "params"), start, a, &p, &idx, &len, err);
    if (rc == 0 && spsa_check(&sched, p, len, err, ERR_MAX) != 0) {
        fprintf(stderr, "dama spsa: %s\n", err);
        rc = -2;
    }
    if (rc == 0) rc = weights_store_base(db, g, cli_str(a, "weights"), start, names, 0, &base_ws, err);
    static const char *const skip[] = {"threads", "progress", "db", "out", NULL};
    char config[4096];
    cli_config_text(a, skip, config, sizeof config);
    char status[DB_STATUS_MAX];
    if (rc == 0) rc = db_spsa_find(db, g->name, seed, config, &spsa_id, status, err);
    if (rc == 0 && spsa_id) {
        rc = db_spsa_last(db, spsa_id, &done_iter, &stored_theta, err);
        if (rc == 0 && stored_theta && theta_parse(p, len, stored_theta) != 0) {
            snprintf(err, ERR_MAX, "SPSA run %lld: iteration %d's stored values do not match %d parameters",
                     (long long)spsa_id, done_iter, len);
            rc = -1;
        }
        if (rc == 0) rc = db_spsa_finish(db, spsa_id, "running", 0, err);
        if (rc == 0)
            fprintf(stderr, "spsa %s: resuming run %lld (%s) after iteration %d of %lld\n", g->name,
                    (long long)spsa_id, status, done_iter, (long long)iterations);
    } else if (rc == 0) {
        params_text(p, len, &params);
        DbSpsaRun r = {.game = g->name, .base_ws = base_ws, .seed = seed, .config = config, .params = params,
                       .iterations = iterations, .pairs = pairs, .a_const = sched.A, .alpha = sched.alpha,
                       .gamma = sched.gamma};
        rc = params ? db_spsa_insert(db, &r, &spsa_id, err) : -1;
        if (rc == 0)
            fprintf(stderr, "spsa %s: run %lld, %d weights from weight set %lld, %lld iterations x %lld pairs, "
                            "%lld threads\n",
                    g->name, (long long)spsa_id, len, (long long)base_ws, (long long)iterations, (long long)pairs,
                    (long long)threads);
    }
    free(stored_theta);
    free(params);

    /* Per pair: theta+ and theta- as whole weight vectors. */
    int32_t *pw = NULL;
    Worker *workers = NULL;
    bool *worker_ok = NULL;
    if (rc == 0) {
        pw = malloc(sizeof(int32_t) * (size_t)g->weights_len * 2 * (size_t)pairs);
        workers = calloc((size_t)threads, sizeof *workers);
        worker_ok = calloc((size_t)threads, sizeof *worker_ok);
        if (!pw || !workers || !worker_ok) {
            snprintf(err, ERR_MAX, "out of memory for %lld pairs", (long long)pairs);
            rc = -1;
        }
    }
    GameWriter wr; /* only for worker_init's failure report: games are not stored */
    game_writer_init(&wr, db, 1, 1.0);
    if (rc == 0) {
        for (int t = 0; t < threads; t++) worker_ok[t] = worker_init(&workers[t], g, hash, &cli_stop_requested, &wr);
        if (wr.failed) {
            snprintf(err, ERR_MAX, "%s", wr.err);
            rc = -1;
        }
    }
    int *results = rc == 0 ? calloc((size_t)pairs, sizeof *results) : NULL;
    int64_t(*wdl)[3] = rc == 0 ? calloc((size_t)pairs, sizeof *wdl) : NULL;
    if (rc == 0 && (!results || !wdl)) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    PlaySettings ps = {.nodes = cli_int(a, "depth") ? 0 : (uint64_t)cli_int(a, "nodes"),
                       .depth = (int)cli_int(a, "depth"),
                       .max_plies = (int)cli_int(a, "max-plies")};
    int64_t offset = book.len ? (int64_t)(rng_derive(seed, 0x6f70656eULL) % (uint64_t)book.len) : 0;
    double progress = cli_real(a, "progress"), last = run_now_s(), t0 = last;
    int k = done_iter + 1;
    if (rc == 0) cli_install_stop_handler();
    for (; rc == 0 && k <= iterations && !cli_stop_requested; k++) {
        for (int64_t j = 0; j < pairs; j++) {
            int8_t *delta = malloc((size_t)len);
            double *plus = malloc(sizeof(double) * (size_t)len), *minus = malloc(sizeof(double) * (size_t)len);
            if (!delta || !plus || !minus) {
                free(delta);
                free(plus);
                free(minus);
                snprintf(err, ERR_MAX, "out of memory");
                rc = -1;
                break;
            }
            spsa_signs(seed, k, (int)j, len, delta);
            spsa_points(&sched, p, len, k, delta, plus, minus);
            int32_t *wp = pw + (size_t)g->weights_len * 2 * (size_t)j, *wm = wp + g->weights_len;
            memcpy(wp, start, sizeof(int32_t) * (size_t)g->weights_len);
            memcpy(wm, start, sizeof(int32_t) * (size_t)g->weights_len);
            rounded_weights(p, idx, len, plus, wp);
            rounded_weights(p, idx, len, minus, wm);
            free(delta);
            free(plus);
            free(minus);
        }
        if (rc != 0) break;
        volatile int failed = 0;
#pragma omp parallel for num_threads((int)threads) schedule(dynamic, 1)
        for (int64_t j = 0; j < pairs; j++) {
            int t = omp_get_thread_num();
            if (!worker_ok[t] || failed || cli_stop_requested) {
                failed = 1;
                continue;
            }
            Worker *wk = &workers[t];
            const Opening *op = &book.items[(offset + (int64_t)(k - 1) * pairs + j) % book.len];
            char werr[ERR_MAX];
            Position startpos;
            g->pos_from_fen(&startpos, op->fen, werr);
            int32_t *wp = pw + (size_t)g->weights_len * 2 * (size_t)j, *wm = wp + g->weights_len;
            int points = 0;
            int64_t c[3] = {0, 0, 0};
            for (int game = 0; game < 2; game++) {
                /* game 0: theta+ plays White; game 1: theta+ plays Black */
                Color plus_color = game == 0 ? COLOR_WHITE : COLOR_BLACK;
                engine_set_weights(wk->eng[plus_color], wp);
                engine_set_weights(wk->eng[plus_color ^ 1], wm);
                if (play_game(g, wk->eng, &startpos, &ps, &cli_stop_requested, &wk->rec, werr) != 0) {
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
        if (failed) break; /* interrupted: this iteration is not counted */
        if (spsa_update(&sched, p, len, k, seed, (int)pairs, results) != 0) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
            break;
        }
        int64_t tot[3] = {0, 0, 0}, sum = 0;
        for (int64_t j = 0; j < pairs; j++) {
            sum += results[j];
            for (int i = 0; i < 3; i++) tot[i] += wdl[j][i];
        }
        char *text = theta_text(p, len);
        rc = text ? db_spsa_iteration_insert(db, spsa_id, k, tot, sum, text, err) : -1;
        free(text);
        double now = run_now_s();
        if (progress > 0 && (now - last >= progress || k == iterations)) {
            last = now;
            fprintf(stderr, "spsa: iteration %d/%lld (%.2f it/s), theta+ W/D/L %lld/%lld/%lld:", k,
                    (long long)iterations, (double)(k - done_iter) / (now - t0 > 0 ? now - t0 : 1), (long long)tot[0],
                    (long long)tot[1], (long long)tot[2]);
            for (int i = 0; i < len && i < 8; i++) fprintf(stderr, " %s=%.1f", p[i].name, p[i].theta);
            fprintf(stderr, len > 8 ? " ...\n" : "\n");
        }
    }
    int last_done = k - 1;
    int exit_code = 0;
    if (rc == 0 && spsa_id) {
        /* Store the result (values rounded) with its lineage. */
        int32_t *w = malloc(sizeof(int32_t) * (size_t)g->weights_len);
        int64_t ws = 0;
        bool complete = last_done >= iterations;
        if (!w) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
        } else {
            memcpy(w, start, sizeof(int32_t) * (size_t)g->weights_len);
            rounded_weights(p, idx, len, NULL, w);
            char how[160], name[64];
            snprintf(how, sizeof how, "spsa run %lld, %d of %lld iterations x %lld pairs", (long long)spsa_id,
                     last_done, (long long)iterations, (long long)pairs);
            snprintf(name, sizeof name, "spsa-%lld", (long long)spsa_id);
            rc = db_weights_insert(db, g->name, name, base_ws, how, 0, names, w, g->weights_len, &ws, err);
            if (rc == 0) rc = db_spsa_finish(db, spsa_id, complete ? "done" : "interrupted", ws, err);
            if (rc == 0 && cli_str(a, "out")) {
                char comment[256];
                snprintf(comment, sizeof comment, "SPSA run %lld (weight set %lld): %s", (long long)spsa_id,
                         (long long)ws, how);
                AtomicOptions out_opts = {.replace = cli_flag(a, "force"), .protect_db = cli_str(a, "db")};
                rc = weights_file_write(g, w, comment, cli_str(a, "out"), &out_opts, err);
            }
            if (rc == 0) {
                printf("spsa %lld: weight set %lld after %d of %lld iterations (%s)\n", (long long)spsa_id,
                       (long long)ws, last_done, (long long)iterations, complete ? "done" : "interrupted");
                for (int i = 0; i < len; i++)
                    printf("  %-24s %6d -> %.1f\n", p[i].name, (int)start[idx[i]], p[i].theta);
            }
            free(w);
            if (!complete) exit_code = 3;
        }
    }
    if (workers)
        for (int t = 0; t < threads; t++)
            if (worker_ok[t]) worker_free(&workers[t]);
    game_writer_free(&wr);
    free(workers);
    free(worker_ok);
    free(results);
    free(wdl);
    free(pw);
    free(p);
    free(idx);
    free(start);
    free((void *)names);
    db_close_discard_new(db);
    openings_free(&book);
    if (rc == -2) return 2;
    if (rc != 0) {
        fprintf(stderr, "dama spsa: %s\n", err);
        return 1;
    }
    return exit_code;
}

const CliCommand cmd_spsa = {
    "spsa", "tune evaluation weights by games (SPSA: theta+ vs theta- on paired openings)",
    "[--game G] [--db FILE] [--params NAMES] [--iterations N] [--pairs N] [--nodes N]", OPTS, run, 0,
};
