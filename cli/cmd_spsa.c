/* cmd_spsa.c — `dama spsa`: tune a chosen subset of evaluation weights by
 * games with SPSA (tuner/spsa_run.h). Each iteration plays --pairs game
 * pairs of theta+ against theta- on paired openings; every iteration (theta
 * after it, theta+'s results) is stored, a killed run resumes from its last
 * stored iteration when the same command is run again, and the result is
 * stored as a weight set with its lineage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/play_opts.h"
#include "cli/run_common.h"
#include "tuner/spsa_run.h"
#include "util/text.h"
#include "util/clock.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"weights", OPT_WEIGHTS, "default", "weights to start from: " CLI_WEIGHTS_FORMS, 0, 0},
    {"params", OPT_STR, NULL,
     "weights to tune, comma-separated: a term name (all its weights) or NAME[i] (default: every scalar term but the "
     "scale weight; none when --tune-search is given alone)", 0, 0},
    {"tune-search", OPT_STR, NULL,
     "search constants to tune too, comma-separated (dama search --list-params): each from the game's default, within "
     "its range, perturbed by its step", 0, 0},
    {"iterations", OPT_INT, "200", "SPSA iterations N", 1, 1000000},
    {"pairs", OPT_INT, "8", "game pairs per iteration, each with its own signs", 1, 100000},
    {"A", OPT_REAL, "-1", "stability constant A (-1: 10% of the iterations)", -1, 1e7},
    {"alpha", OPT_REAL, "0.602", "learning-rate decay exponent", 0, 2},
    {"gamma", OPT_REAL, "0.101", "perturbation decay exponent", 0, 2},
    {"c-frac", OPT_REAL, "0.05", "final perturbation c_end as a fraction of |start value| ...", 0, 10},
    {"c-min", OPT_REAL, "2", "... but at least this many centi-men", 0, 1000},
    {"r-end", OPT_REAL, "0.002", "final a_N / c_N^2", 0, 10},
    {"range", OPT_REAL, "1", "each weight stays within start +- max(100, range * |start|), and in -5000..5000 (a weight file's bounds)", 0, 100},
    RUN_PLAY_OPTS,
    {"seed", OPT_INT, "1", "seed (signs, opening order, random openings)", 0, CLI_INT_MAX},
    {"out", OPT_FILE, NULL, "also write the result as a weight file", 0, 0},
    {"force", OPT_FLAG, NULL, "let --out replace an existing file (never the database itself)", 0, 0},
    CLI_PROGRESS_OPT("5"),
    {0},
};

/* What the command prints while the run goes. */
typedef struct Printer {
    const CliArgs *a;
    const Game *g;
    double last, t0; /* the last progress line, the first iteration's start (clock_now_s) */
} Printer;

static void on_start(void *ctx, const SpsaResult *r)
{
    Printer *p = ctx;
    const CliArgs *a = p->a;
    if (r->resumed)
        fprintf(stderr, "spsa %s: resuming run %lld (%s) after iteration %d of %lld\n", p->g->name,
                (long long)r->spsa_id, r->status, r->done_before, (long long)cli_int(a, "iterations"));
    else
        fprintf(stderr, "spsa %s: run %lld, %d parameters from weight set %lld, %lld iterations x %lld pairs, "
                        "%lld thread%s\n",
                p->g->name, (long long)r->spsa_id, r->len, (long long)r->base_ws, (long long)cli_int(a, "iterations"),
                (long long)cli_int(a, "pairs"), (long long)r->threads, TEXT_PLURAL(r->threads));
    if (r->other_interrupted) /* a resume whose options changed starts afresh: say which run it did not take */
        fprintf(stderr, "note: SPSA run %lld of %s, interrupted, was started with other options: this is a new run "
                        "(run %lld); the options of run %lld resume that one\n",
                (long long)r->other_interrupted, p->g->name, (long long)r->spsa_id, (long long)r->other_interrupted);
    cli_install_stop_handler();
    p->last = p->t0 = clock_now_s();
}

static void on_iteration(void *ctx, const SpsaResult *r, int k, const int64_t tot[3])
{
    Printer *p = ctx;
    double progress = cli_real(p->a, "progress"), now = clock_now_s();
    int64_t iterations = cli_int(p->a, "iterations");
    if (progress <= 0 || (now - p->last < progress && k != iterations)) return;
    p->last = now;
    fprintf(stderr, "spsa: iteration %d/%lld (%.2f it/s), theta+ W/D/L %lld/%lld/%lld:", k, (long long)iterations,
            (double)(k - r->done_before) / (now - p->t0 > 0 ? now - p->t0 : 1), (long long)tot[0], (long long)tot[1],
            (long long)tot[2]);
    for (int i = 0; i < r->len && i < 8; i++) fprintf(stderr, " %s=%.1f", r->params[i].name, r->params[i].theta);
    fprintf(stderr, r->len > 8 ? " ...\n" : "\n");
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* A list option's names (--params, --tune-search) trimmed of blanks and
 * sorted, so that neither blanks nor the order they are given in make
 * another run (a run is its game, seed and configuration text), and "KING "
 * is KING. A list with an empty name is left as given, for spsa_run to
 * refuse. */
static void sort_names(CliArgs *a, const char *option)
{
    const char *v = cli_str(a, option);
    if (!v || text_list_has_empty(v)) return;
    char *copy = strdup(v), *names[256], *save = NULL;
    size_t n = 0, len = strlen(v) + 1;
    char *out = malloc(len);
    if (!copy || !out) {
        free(copy);
        free(out);
        return; /* unsorted: only the run's identity depends on it */
    }
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == sizeof names / sizeof names[0]) { /* more names than constants: left for spsa_run to refuse */
            free(copy);
            free(out);
            return;
        }
        t += strspn(t, " ");
        for (size_t k = strlen(t); k > 0 && t[k - 1] == ' '; k--) t[k - 1] = '\0';
        names[n++] = t;
    }
    qsort(names, n, sizeof names[0], cmp_str);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i) strcat(out, ",");
        strcat(out, names[i]);
    }
    cli_set(a, option, out);
    free(out);
    free(copy);
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g || run_check_one_limit(a, "spsa") != 0) return 2;
    char err[ERR_MAX];
    /* --iterations 1..1000000 and --pairs 1..100000: checked by cli_parse */
    int64_t iterations = cli_int(a, "iterations");
    sort_names(a, "params");
    sort_names(a, "tune-search");
    SpsaOptions o = {
        .game = g, .db_path = cli_str(a, "db"), .weights = cli_str(a, "weights"), .params = cli_str(a, "params"),
        .search_params = cli_str(a, "tune-search"),
        .schedule = {.iterations = (int)iterations, .A = cli_real(a, "A"), .alpha = cli_real(a, "alpha"),
                     .gamma = cli_real(a, "gamma")},
        .pairs = (int)cli_int(a, "pairs"), .c_frac = cli_real(a, "c-frac"), .c_min = cli_real(a, "c-min"),
        .r_end = cli_real(a, "r-end"), .range = cli_real(a, "range"), .threads = (int)cli_int(a, "threads"),
        .hash_mb = cli_int(a, "hash"), .nodes = (uint64_t)cli_int(a, "nodes"), .depth = (int)cli_int(a, "depth"),
        .max_plies = (int)cli_int(a, "max-plies"), .seed = (uint64_t)cli_int(a, "seed"), .out = cli_str(a, "out"),
        .force = cli_flag(a, "force"), .stop = &cli_stop_requested};
    if (o.schedule.A == -1) o.schedule.A = 0.1 * (double)iterations;
    cli_openings_source(a, &o.openings);
    static const char *const skip[] = {"threads", "progress", "db", "out", "force", NULL};
    char config[4096];
    cli_config_text(a, skip, config, sizeof config);
    run_book_identity(a, config, sizeof config);
    o.config = config;
    Printer p = {.a = a, .g = g};
    o.on_start = on_start;
    o.on_iteration = on_iteration;
    o.ctx = &p;
    SpsaResult r;
    int rc = spsa_run(NULL, &o, &r, err);
    if (r.weight_set) {
        printf("spsa %lld: weight set %lld after %d of %lld iterations (%s)\n", (long long)r.spsa_id,
               (long long)r.weight_set, r.done, (long long)iterations, r.complete ? "done" : "interrupted");
        for (int i = 0; i < r.len; i++)
            printf("  %-24s %6d -> %.1f\n", r.params[i].name, (int)r.start[i], r.params[i].theta);
        const char *sep = "  search constants:";
        for (int i = 0; i < r.len; i++) {
            size_t pre = strlen(SPSA_SEARCH_PREFIX);
            if (strncmp(r.params[i].name, SPSA_SEARCH_PREFIX, pre) != 0) continue;
            printf("%s --search-param %s=%.0f", sep, r.params[i].name + pre, floor(r.params[i].theta + 0.5));
            sep = "";
        }
        if (!*sep) printf("\n");
        if (cli_str(a, "out") && r.complete)
            printf("wrote %s (weight set %lld)\n", cli_str(a, "out"), (long long)r.weight_set);
        else if (cli_str(a, "out"))
            printf("--out %s is written when the run completes (these weights now: dama export --game %s --db %s "
                   "--weights %lld --format cfg --out FILE)\n",
                   cli_str(a, "out"), g->name, cli_str(a, "db"), (long long)r.weight_set);
    }
    if (err[0]) fprintf(stderr, "dama spsa: %s\n", err);
    if (rc == 3) fprintf(stderr, "dama spsa: interrupted; run the same command again to resume\n");
    spsa_result_free(&r);
    return rc;
}

const CliCommand cmd_spsa = {
    "spsa", "tune evaluation weights and search constants by games (SPSA: theta+ vs theta- on paired openings)",
    "[--game G] [--db FILE] [--params NAMES] [--tune-search NAMES] [--iterations N] [--pairs N] [--nodes N]", OPTS, run, 0,
};
