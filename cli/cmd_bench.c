/* cmd_bench.c — `dama bench`: fixed-work benchmarks. The search node count
 * depends only on the binary (same binary, same count); the rates depend on
 * the machine. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "db/db.h"
#include "engine/search.h"
#include "arena/openings.h"
#include "tuner/texel.h"
#include "util/clock.h"

#include <omp.h>
#include <unistd.h>

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"depth", OPT_INT, NULL, "search depth (default: the game's bench depth)", 1, 64},
    {"perft", OPT_FLAG, NULL, "also time perft from the start position (count-only last ply)", 0, 0},
    {"perft-depth", OPT_INT, NULL, "perft depth (default: the game's perft bench depth)", 1, 20},
    {"store", OPT_FLAG, NULL, "also time storing positions in SQLite (a temporary database)", 0, 0},
    {"tuner", OPT_FLAG, NULL, "also time the tuner on synthetic positions: memory, passes and epochs on 1 and --threads threads", 0, 0},
    {"tuner-only", OPT_FLAG, NULL, "only the tuner benchmark (no search)", 0, 0},
    {"positions", OPT_INT, "500000", "tuner benchmark: synthetic positions in memory", 1000, 100000000},
    {"model", OPT_STR, "small", "tuner benchmark model: small (256 weights, 25 entries), russian (today's tapered Russian evaluation: 2 x 43 weights, 10 entries) or patterns (2 x 59,092 weights: + 9 windows x 6,561 states, 28 entries)", 0, 0},
    {"batch", OPT_INT, "16384", "tuner benchmark: mini-batch of the timed epoch", 1, 100000000},
    {"all", OPT_FLAG, NULL, "every benchmark: search, perft, store, tuner", 0, 0},
    {"threads", OPT_INT, "0", "threads of the tuner benchmark (0: all cores)", 0, 256},
    {"search-param", OPT_LIST, NULL, "override a search constant: NAME=VALUE (repeatable; dama search --list-params)", 0, 0},
    {"search-threads", OPT_INT, "1", "threads of each bench search (lazy SMP; node counts then vary)", 1, 64},
    {"print-fens", OPT_FLAG, NULL, "print the bench positions (one per line) and exit", 0, 0},
    {"book", OPT_STR, NULL, "search the positions of this book file (label<TAB>position lines, as match --openings) instead of the game's bench positions", 0, 0},
    {"book-every", OPT_INT, "1", "with --book: every Nth line of the book, from its first", 1, 1000000},
    {"repeat", OPT_INT, "1", "repeat each measurement N times and report the median rate", 1, 100},
    {0},
};

/* CPU time of this process: on a shared machine the wall clock also counts
 * the time other processes held the core, the CPU time does not. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double median(double *v, int n);

/* The tuner on synthetic positions (texel_data_synthetic: uniform random
 * distinct weight indices, coefficients +-1 and +-2, so the entry counts,
 * not the index patterns, are realistic). Reports the memory, a loss and
 * gradient pass and one epoch of lazy Adam on 1 and on --threads threads. */
static int bench_tuner(CliArgs *a, int repeat)
{
    static const struct {
        const char *name;
        int index_len, terms; /* opening weights; entries = terms + material */
    } models[] = {
        {"small", 0, 24},      /* plain, 256 weights */
        {"russian", 43, 9},    /* today's Russian evaluation: 10 entries a position */
        {"patterns", 43 + 9 * 6561, 27}, /* + 9 windows of 6,561 states, each seen from both sides */
    };
    const char *mname = cli_str(a, "model");
    int m = -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(mname, models[i].name) == 0) m = i;
    if (m < 0) {
        fprintf(stderr, "dama bench: --model '%s': expected small, russian or patterns\n", mname);
        return 2;
    }
    int threads = (int)cli_int(a, "threads");
    if (threads <= 0) threads = omp_get_num_procs();
    const size_t positions = (size_t)cli_int(a, "positions");
    const size_t batch = (size_t)cli_int(a, "batch");
    char err[TEXEL_ERR_MAX];
    TexelData *data = m == 0 ? texel_data_new(256)
                             : texel_data_new_tapered(2 * models[m].index_len, models[m].index_len, 24);
    const int wn = m == 0 ? 256 : 2 * models[m].index_len;
    int32_t *truth = malloc((size_t)wn * sizeof *truth), *start = calloc((size_t)wn, sizeof *start);
    int32_t *out = malloc((size_t)wn * sizeof *out);
    uint8_t *frozen = calloc((size_t)wn, 1);
    double t0 = clock_now_s();
    if (!data || !truth || !start || !out || !frozen ||
        texel_data_synthetic(data, positions, models[m].terms, 1.0, 1, truth, err) != 0 ||
        texel_data_check(data, truth, 0, NULL, err) != 0) {
        fprintf(stderr, "dama bench: %s\n", data && truth && start && out && frozen ? err : "out of memory");
        texel_data_free(data);
        free(truth), free(start), free(out), free(frozen);
        return 1;
    }
    texel_data_drop_evals(data); /* as dama tune does after its check */
    texel_data_shrink(data);
    const double load_s = clock_now_s() - t0;
    printf("tune: model %s, %d weights%s, %zu positions, %.1f entries/position, %.1f bytes/position "
           "(%.1f MiB), made in %.1f s\n",
           mname, wn, m ? " (tapered)" : "", positions, (double)texel_data_entries(data) / (double)positions,
           texel_data_bytes_per_position(data), texel_data_bytes_per_position(data) * (double)positions / 1048576.0,
           load_s);
    start[0] = 100, frozen[0] = 1;
    if (m) start[wn / 2] = 100, frozen[wn / 2] = 1;
    TexelSplit split;
    if (texel_split_make(&split, positions, NULL, 0, 1, err) != 0) {
        fprintf(stderr, "dama bench: %s\n", err);
        texel_data_free(data);
        free(truth), free(start), free(out), free(frozen);
        return 1;
    }
    const int counts[2] = {1, threads};
    int rc = 0;
    for (int t = 0; t < (threads > 1 ? 2 : 1) && rc == 0; t++) {
        double rates[100], epochs[100], cpu_pass[100], cpu_epoch[100];
        TexelBench tb = {0};
        for (int rep = 0; rep < repeat && rc == 0; rep++) {
            TexelConfig cfg;
            texel_config_default(&cfg);
            cfg.k = 1.0;
            cfg.epochs = 1;
            cfg.batch_size = batch;
            cfg.threads = counts[t];
            TexelResult res;
            if (texel_bench(data, truth, counts[t], 3, &tb, err) != 0 ||
                texel_tune(data, &split, &cfg, start, frozen, out, &res, err) != 0) {
                fprintf(stderr, "dama bench: %s\n", err);
                rc = 1;
                break;
            }
            rates[rep] = tb.evals_per_sec;
            epochs[rep] = res.step_seconds;
            cpu_pass[rep] = tb.cpu_seconds / 3;
            cpu_epoch[rep] = res.step_cpu_seconds;
        }
        if (rc == 0)
            printf("tune: %d thread%s: %.2f M position evaluations/s with gradient (a pass over all: %.3f s wall, "
                   "%.3f s CPU), one epoch of lazy Adam in batches of %zu: %.3f s wall, %.3f s CPU (medians of %d)\n",
                   counts[t], counts[t] == 1 ? "" : "s", median(rates, repeat) / 1e6,
                   (double)positions / median(rates, repeat), median(cpu_pass, repeat), batch, median(epochs, repeat),
                   median(cpu_epoch, repeat), repeat);
    }
    texel_split_free(&split);
    texel_data_free(data);
    free(truth), free(start), free(out), free(frozen);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    int depth = cli_isset(a, "depth") ? (int)cli_int(a, "depth") : g->bench_depth;
    int repeat = (int)cli_int(a, "repeat");
    /* --repeat and --depth: ranges checked by cli_parse (the game's own
     * bench depth is 1..64 too) */
    const bool tuner_only = cli_flag(a, "tuner-only");
    if (tuner_only && !cli_flag(a, "print-fens"))
        return bench_tuner(a, repeat);
    /* the positions: the game's bench list, or every Nth line of --book */
    OpeningBook book = {0};
    const char **fens = NULL;
    int npos = 0;
    if (cli_str(a, "book")) {
        char berr[ERR_MAX];
        if (openings_read(g, cli_str(a, "book"), &book, berr) != 0) {
            fprintf(stderr, "dama bench: %s\n", berr);
            return 1; /* bad input, as every command's --openings */
        }
        int every = (int)cli_int(a, "book-every"); /* 1..: checked by cli_parse */
        fens = malloc(sizeof *fens * (size_t)(book.len / every + 1));
        if (!fens) {
            openings_free(&book);
            fprintf(stderr, "dama bench: out of memory\n");
            return 1;
        }
        for (int i = 0; i < book.len; i += every) fens[npos++] = book.items[i].fen;
    } else {
        while (g->bench_fens[npos]) npos++;
        fens = malloc(sizeof *fens * (size_t)(npos ? npos : 1));
        if (!fens) {
            fprintf(stderr, "dama bench: out of memory\n");
            return 1;
        }
        for (int i = 0; i < npos; i++) fens[i] = g->bench_fens[i];
    }
    if (cli_flag(a, "print-fens")) {
        for (int i = 0; i < npos; i++) printf("%s\n", fens[i]);
        free(fens);
        openings_free(&book);
        return 0;
    }
    int sthreads = (int)cli_int(a, "search-threads"); /* 1..64: checked by cli_parse */
    double rates[100], secs[100], cpu_rates[100], clear_ms[100];
    /* The positions are read before any clock starts. */
    Position *positions = malloc(sizeof *positions * (size_t)(npos ? npos : 1));
    if (!positions) {
        fprintf(stderr, "dama bench: out of memory\n");
        free(fens);
        openings_free(&book);
        return 1;
    }
    for (int i = 0; i < npos; i++) {
        char err[ERR_MAX];
        if (game_parse_position(g, fens[i], &positions[i], err) != 0) {
            fprintf(stderr, "dama bench: %s\n", err);
            free(positions);
            free(fens);
            openings_free(&book);
            return 1;
        }
    }
    free(fens);
    openings_free(&book);
    uint64_t total = 0;
    for (int rep = 0; rep < repeat; rep++) {
        Engine *e = engine_new(g, 16);
        if (!e) {
            fprintf(stderr, "dama bench: out of memory\n");
            free(positions);
            return 1;
        }
        char perr[ERR_MAX];
        if (cli_search_params(e, NULL, cli_str(a, "search-param"), perr) != 0) {
            fprintf(stderr, "dama bench: %s\n", perr);
            engine_free(e);
            free(positions);
            return 1; /* as search's */
        }
        if (engine_set_threads(e, sthreads) != 0) {
            fprintf(stderr, "dama bench: out of memory\n");
            engine_free(e);
            free(positions);
            return 1;
        }
        total = 0;
        /* Each position starts from a cleared TT (the node count depends on
         * it), but the clear — a memset of the whole table — is timed on
         * its own: inside the searches' time it understated nodes/s, most
         * at small depths. */
        double dt = 0, dc = 0, dclear = 0;
        for (int i = 0; i < npos; i++) {
            double q0 = clock_now_s();
            engine_clear(e);
            dclear += clock_now_s() - q0;
            SearchLimits lim = {.depth = depth};
            SearchResult r;
            double t0 = clock_now_s(), c0 = cpu_s();
            engine_search(e, &positions[i], NULL, 0, &lim, &r, NULL, NULL);
            dt += clock_now_s() - t0;
            dc += cpu_s() - c0;
            total += r.nodes;
        }
        rates[rep] = dt > 0 ? (double)total / dt : 0;
        cpu_rates[rep] = dc > 0 ? (double)total / dc : 0;
        secs[rep] = dt;
        clear_ms[rep] = npos ? dclear * 1e3 / npos : 0;
        engine_free(e);
    }
    free(positions);
    printf("bench %s depth %d: %llu nodes\n", g->name, depth, (unsigned long long)total);
    printf("search: %.2f M nodes/s, %.3f s (medians of %d, %d search thread%s); %.2f M nodes per CPU second\n",
           median(rates, repeat) / 1e6, median(secs, repeat), repeat, sthreads, sthreads > 1 ? "s" : "",
           median(cpu_rates, repeat) / 1e6);
    printf("tt clear: %.2f ms per position, %d positions (median of %d; 16 MiB table, not in the search time)\n",
           median(clear_ms, repeat), npos, repeat);
    bool all = cli_flag(a, "all");
    if (all || cli_flag(a, "perft")) {
        int pd = cli_isset(a, "perft-depth") ? (int)cli_int(a, "perft-depth") : g->perft_bench_depth;
        if (pd < 1 || pd > 20) {
            fprintf(stderr, "dama bench: --perft-depth must be 1..20\n");
            return 2;
        }
        Position pos;
        char err[ERR_MAX];
        game_parse_position(g, NULL, &pos, err);
        uint64_t leaves = 0;
        for (int rep = 0; rep < repeat; rep++) {
            double t0 = clock_now_s(), c0 = cpu_s();
            leaves = g->perft(&pos, pd, GEN_DISTINCT);
            double dt = clock_now_s() - t0, dc = cpu_s() - c0;
            rates[rep] = dt > 0 ? (double)leaves / dt : 0;
            cpu_rates[rep] = dc > 0 ? (double)leaves / dc : 0;
        }
        printf("perft %s depth %d: %llu leaves, %.1f M leaves/s (median of %d, 1 thread); %.1f M leaves per CPU "
               "second\n",
               g->name, pd, (unsigned long long)leaves, median(rates, repeat) / 1e6, repeat,
               median(cpu_rates, repeat) / 1e6);
    }
    if (all || cli_flag(a, "store")) {
        char path[64], err[ERR_MAX];
        for (int rep = 0; rep < repeat; rep++) {
            snprintf(path, sizeof path, "/tmp/dama-bench-%ld-%d.sqlite", (long)getpid(), rep);
            if (db_bench_insert(path, 200000, &rates[rep], err) != 0) {
                fprintf(stderr, "dama bench: %s\n", err);
                return 1;
            }
        }
        printf("db: %.0f positions stored/s (200000 positions, one transaction per 80-ply game, median of %d)\n",
               median(rates, repeat), repeat);
    }
    if (all || cli_flag(a, "tuner"))
        return bench_tuner(a, repeat);
    return 0;
}

const CliCommand cmd_bench = {
    "bench", "benchmarks: fixed-depth search node count and nodes/s; perft, database and tuner rates",
    "[--game G] [--depth N] [--book FILE [--book-every N]] [--perft] [--store] [--tuner|--tuner-only [--model M] [--positions N]] [--all] [--repeat N]", OPTS, run, 0,
};
