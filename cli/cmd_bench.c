/* cmd_bench.c — `dama bench`: fixed-work benchmarks. The search node count
 * depends only on the binary (same binary, same count); the rates depend on
 * the machine. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "db/db.h"
#include "engine/bench.h"
#include "engine/search.h"
#include "arena/openings.h"
#include "tuner/tune_bench.h"

#include <unistd.h>

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"depth", OPT_INT, NULL, "search depth (default: the game's bench depth)", 1, 64},
    {"perft", OPT_FLAG, NULL, "also time perft from the start position (count-only last ply)", 0, 0},
    {"perft-depth", OPT_INT, NULL, "perft depth (default: the game's perft bench depth)", 1, 20},
    {"store", OPT_FLAG, NULL, "also time storing positions in SQLite (a temporary database)", 0, 0},
    {"tuner", OPT_FLAG, NULL, "also time the tuner on synthetic positions: memory, passes and epochs on 1 and --threads threads", 0, 0},
    {"tuner-only", OPT_FLAG, NULL, "only the tuner benchmark (no search)", 0, 0},
    {"positions", OPT_INT, "500000", "tuner benchmark: synthetic positions in memory", 1000, 100000000},
    {"model", OPT_STR, "small", "tuner benchmark model: small (256 weights, 25 entries), tapered (2 x 43 weights, 10 entries: the draughts evaluations before their pattern tables) or patterns (2 x 59,092 weights: + 9 windows x 6,561 states, 28 entries)", 0, 0},
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

static double median(double *v, int n);

/* The tuner on synthetic positions (tuner/tune_bench.h): the memory, a
 * loss and gradient pass and one epoch of lazy Adam on 1 and on --threads
 * threads, medians of --repeat. */
static int bench_tuner(CliArgs *a, int repeat)
{
    const char *mname = cli_str(a, "model");
    if (!tune_bench_model_known(mname)) {
        fprintf(stderr, "dama bench: --model '%s': expected " TUNE_BENCH_MODELS "\n", mname);
        return 2;
    }
    TuneBenchOptions o = {.model = mname,
                          .positions = (size_t)cli_int(a, "positions"),
                          .batch = (size_t)cli_int(a, "batch"),
                          .threads = (int)cli_int(a, "threads"),
                          .repeat = repeat};
    TuneBenchResult r;
    char err[TEXEL_ERR_MAX];
    int rc = tune_bench_run(&o, &r, err);
    if (r.weights)
        printf("tune: model %s, %d weights%s, %zu positions, %.1f entries/position, %.1f bytes/position "
               "(%.1f MiB), made in %.1f s\n",
               mname, r.weights, r.tapered ? " (tapered)" : "", o.positions, r.entries_per_position,
               r.bytes_per_position, r.bytes_per_position * (double)o.positions / 1048576.0, r.made_s);
    for (int t = 0; t < r.runs_len; t++) {
        TuneBenchRun *run = &r.runs[t];
        printf("tune: %d thread%s: %.2f M position evaluations/s with gradient (a pass over all: %.3f s wall, "
               "%.3f s CPU), one epoch of lazy Adam in batches of %zu: %.3f s wall, %.3f s CPU (medians of %d)\n",
               run->threads, run->threads == 1 ? "" : "s", median(run->evals_per_s, repeat) / 1e6,
               (double)o.positions / median(run->evals_per_s, repeat), median(run->pass_cpu_s, repeat), o.batch,
               median(run->epoch_s, repeat), median(run->epoch_cpu_s, repeat), repeat);
    }
    if (rc != 0) {
        fprintf(stderr, "dama bench: %s\n", err);
        return 1;
    }
    return 0;
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

/* The positions to search: the game's bench list, or every Nth line of
 * --book, parsed before any clock starts (with --print-fens only printed).
 * Returns 0 with *out (the caller frees it) and *len, or an exit code
 * after a message. */
static int bench_positions(const CliArgs *a, const Game *g, Position **out, int *len)
{
    *out = NULL;
    *len = 0;
    OpeningBook book = {0};
    const char *path = cli_str(a, "book");
    char err[ERR_MAX];
    if (path && openings_read(g, path, &book, err) != 0) {
        fprintf(stderr, "dama bench: %s\n", err);
        return 1; /* bad input, as every command's --openings */
    }
    int n = 0, every = path ? (int)cli_int(a, "book-every") : 1; /* 1..: checked by cli_parse */
    if (path) n = book.len;
    else while (g->bench_fens[n]) n++;
    Position *pos = malloc(sizeof *pos * (size_t)(n / every + 1));
    if (!pos) {
        openings_free(&book);
        fprintf(stderr, "dama bench: out of memory\n");
        return 1;
    }
    int k = 0, rc = 0;
    for (int i = 0; i < n && rc == 0; i += every) {
        const char *fen = path ? book.items[i].fen : g->bench_fens[i];
        if (cli_flag(a, "print-fens")) printf("%s\n", fen);
        else if (game_parse_position(g, fen, &pos[k++], err) != 0) rc = 1;
    }
    openings_free(&book);
    if (rc != 0) {
        fprintf(stderr, "dama bench: %s\n", err);
        free(pos);
        return rc;
    }
    *out = pos;
    *len = k;
    return 0;
}

/* One engine of the bench (16 MiB table, --search-param, --search-threads),
 * or NULL after a message. */
static Engine *bench_engine(const CliArgs *a, const Game *g)
{
    Engine *e = engine_new(g, 16);
    char err[ERR_MAX];
    if (!e) {
        fprintf(stderr, "dama bench: out of memory\n");
    } else if (cli_search_params(e, NULL, cli_str(a, "search-param"), err) != 0) {
        fprintf(stderr, "dama bench: %s\n", err); /* not met: run checked them */
    } else if (engine_set_threads(e, (int)cli_int(a, "search-threads")) != 0) { /* 1..64: checked by cli_parse */
        fprintf(stderr, "dama bench: out of memory\n");
    } else {
        return e;
    }
    engine_free(e);
    return NULL;
}

/* Search every position to depth, --repeat times: the node count (the
 * same every time) and the rates. Returns 0 or 1 after a message. */
static int bench_search(const CliArgs *a, const Game *g, const Position *positions, int npos, int depth, int repeat)
{
    double rates[100], secs[100], cpu_rates[100], clear_ms[100];
    uint64_t total = 0;
    for (int rep = 0; rep < repeat; rep++) {
        Engine *e = bench_engine(a, g);
        if (!e) return 1;
        EngineBench b;
        engine_bench_search(e, positions, npos, depth, &b);
        total = b.count;
        rates[rep] = b.wall_s > 0 ? (double)total / b.wall_s : 0;
        cpu_rates[rep] = b.cpu_s > 0 ? (double)total / b.cpu_s : 0;
        secs[rep] = b.wall_s;
        clear_ms[rep] = npos ? b.clear_s * 1e3 / npos : 0;
        engine_free(e);
    }
    int sthreads = (int)cli_int(a, "search-threads");
    printf("bench %s depth %d: %llu nodes\n", g->name, depth, (unsigned long long)total);
    printf("search: %.2f M nodes/s, %.3f s (medians of %d, %d search thread%s); %.2f M nodes per CPU second\n",
           median(rates, repeat) / 1e6, median(secs, repeat), repeat, sthreads, sthreads > 1 ? "s" : "",
           median(cpu_rates, repeat) / 1e6);
    printf("tt clear: %.2f ms per position, %d positions (median of %d; 16 MiB table, not in the search time)\n",
           median(clear_ms, repeat), npos, repeat);
    return 0;
}

/* Perft from the start position, count-only last ply, on one thread. */
static int bench_perft(const CliArgs *a, const Game *g, int repeat)
{
    int pd = cli_isset(a, "perft-depth") ? (int)cli_int(a, "perft-depth") : g->perft_bench_depth;
    if (pd < 1 || pd > 20) {
        fprintf(stderr, "dama bench: --perft-depth must be 1..20\n");
        return 2;
    }
    Position pos;
    char err[ERR_MAX];
    game_parse_position(g, NULL, &pos, err);
    double rates[100], cpu_rates[100];
    uint64_t leaves = 0;
    for (int rep = 0; rep < repeat; rep++) {
        EngineBench b;
        engine_bench_perft(g, &pos, pd, &b);
        leaves = b.count;
        rates[rep] = b.wall_s > 0 ? (double)leaves / b.wall_s : 0;
        cpu_rates[rep] = b.cpu_s > 0 ? (double)leaves / b.cpu_s : 0;
    }
    printf("perft %s depth %d: %llu leaves, %.1f M leaves/s (median of %d, 1 thread); %.1f M leaves per CPU "
           "second\n",
           g->name, pd, (unsigned long long)leaves, median(rates, repeat) / 1e6, repeat,
           median(cpu_rates, repeat) / 1e6);
    return 0;
}

/* Storing positions in a temporary database (db_bench_insert). */
static int bench_store(int repeat)
{
    double rates[100];
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
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    int checked = cli_check_search_param(a, g);
    if (checked != 0) return checked;
    static const char *const TUNER[] = {"tuner", "tuner-only", "all", NULL}, *const PERFT[] = {"perft", "all", NULL},
                             *const BOOK[] = {"book", NULL};
    static const char *const TUNER_OPTS[] = {"positions", "model", "batch", "threads"};
    for (size_t i = 0; i < sizeof TUNER_OPTS / sizeof TUNER_OPTS[0]; i++)
        if (cli_requires(a, TUNER_OPTS[i], TUNER) != 0) return 2;
    if (cli_requires(a, "perft-depth", PERFT) != 0 || cli_requires(a, "book-every", BOOK) != 0) return 2;
    int depth = cli_isset(a, "depth") ? (int)cli_int(a, "depth") : g->bench_depth;
    int repeat = (int)cli_int(a, "repeat");
    /* --repeat and --depth: ranges checked by cli_parse (the game's own
     * bench depth is 1..64 too) */
    if (cli_flag(a, "tuner-only") && !cli_flag(a, "print-fens")) return bench_tuner(a, repeat);
    Position *positions;
    int npos, rc = bench_positions(a, g, &positions, &npos);
    if (rc != 0 || cli_flag(a, "print-fens")) {
        free(positions);
        return rc;
    }
    rc = bench_search(a, g, positions, npos, depth, repeat);
    free(positions);
    bool all = cli_flag(a, "all");
    if (rc == 0 && (all || cli_flag(a, "perft"))) rc = bench_perft(a, g, repeat);
    if (rc == 0 && (all || cli_flag(a, "store"))) rc = bench_store(repeat);
    if (rc == 0 && (all || cli_flag(a, "tuner"))) rc = bench_tuner(a, repeat);
    return rc;
}

const CliCommand cmd_bench = {
    "bench", "benchmarks: fixed-depth search node count and nodes/s; perft, database and tuner rates",
    "[--game G] [--depth N] [--book FILE [--book-every N]] [--perft] [--store] [--tuner|--tuner-only [--model M] [--positions N]] [--all] [--repeat N]", OPTS, run, 0,
};
