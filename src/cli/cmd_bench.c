/* cmd_bench.c — `dama bench`: fixed-work benchmarks. The search node count
 * depends only on the binary (same binary, same count); the rates depend on
 * the machine. */
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"
#include "db/db.h"
#include "engine/search.h"
#include "tune/texel.h"

#include <omp.h>
#include <unistd.h>

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"depth", OPT_INT, NULL, "search depth (default: the game's bench depth)", 1, 64},
    {"perft", OPT_FLAG, NULL, "also time perft from the start position (count-only last ply)", 0, 0},
    {"perft-depth", OPT_INT, NULL, "perft depth (default: the game's perft bench depth)", 1, 20},
    {"store", OPT_FLAG, NULL, "also time storing positions in SQLite (a temporary database)", 0, 0},
    {"tuner", OPT_FLAG, NULL, "also time the tuner's evaluations from sparse traces (synthetic data)", 0, 0},
    {"all", OPT_FLAG, NULL, "every benchmark: search, perft, store, tuner", 0, 0},
    {"threads", OPT_INT, "0", "threads of the tuner benchmark (0: all cores)", 0, 256},
    {"search-param", OPT_LIST, NULL, "override a search constant: NAME=VALUE (repeatable; dama search --list-params)", 0, 0},
    {"search-threads", OPT_INT, "1", "threads of each bench search (lazy SMP; node counts then vary)", 1, 64},
    {"print-fens", OPT_FLAG, NULL, "print the bench positions (one per line) and exit", 0, 0},
    {"repeat", OPT_INT, "1", "repeat each measurement N times and report the median rate", 1, 100},
    {0},
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this process: on a shared machine the wall clock also counts
 * the time other processes held the core, the CPU time does not. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
    if (repeat < 1 || repeat > 100 || depth < 1 || depth > 64) {
        fprintf(stderr, "dama bench: --repeat must be 1..100 and --depth 1..64\n");
        return 2;
    }
    if (cli_flag(a, "print-fens")) {
        for (int i = 0; g->bench_fens[i]; i++) printf("%s\n", g->bench_fens[i]);
        return 0;
    }
    int sthreads = (int)cli_int(a, "search-threads");
    if (sthreads < 1 || sthreads > 64) {
        fprintf(stderr, "dama bench: --search-threads must be 1..64\n");
        return 2;
    }
    double rates[100], secs[100], cpu_rates[100];
    uint64_t total = 0;
    for (int rep = 0; rep < repeat; rep++) {
        Engine *e = engine_new(g, 16);
        if (!e) {
            fprintf(stderr, "dama bench: out of memory\n");
            return 1;
        }
        char perr[ERR_MAX];
        if (cli_search_params(e, NULL, cli_str(a, "search-param"), perr) != 0) {
            fprintf(stderr, "dama bench: %s\n", perr);
            engine_free(e);
            return 2;
        }
        if (engine_set_threads(e, sthreads) != 0) {
            fprintf(stderr, "dama bench: out of memory\n");
            engine_free(e);
            return 1;
        }
        total = 0;
        double t0 = now_s(), c0 = cpu_s();
        for (int i = 0; g->bench_fens[i]; i++) {
            Position pos;
            char err[ERR_MAX];
            if (g->pos_from_fen(&pos, g->bench_fens[i], err) != 0) {
                fprintf(stderr, "dama bench: %s\n", err);
                engine_free(e);
                return 1;
            }
            engine_clear(e);
            SearchLimits lim = {.depth = depth};
            SearchResult r;
            engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
            total += r.nodes;
        }
        double dt = now_s() - t0, dc = cpu_s() - c0;
        rates[rep] = dt > 0 ? (double)total / dt : 0;
        cpu_rates[rep] = dc > 0 ? (double)total / dc : 0;
        secs[rep] = dt;
        engine_free(e);
    }
    printf("bench %s depth %d: %llu nodes\n", g->name, depth, (unsigned long long)total);
    printf("search: %.2f M nodes/s, %.3f s (medians of %d, %d search thread%s); %.2f M nodes per CPU second\n",
           median(rates, repeat) / 1e6, median(secs, repeat), repeat, sthreads, sthreads > 1 ? "s" : "",
           median(cpu_rates, repeat) / 1e6);
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
            double t0 = now_s(), c0 = cpu_s();
            leaves = g->perft(&pos, pd, GEN_DISTINCT);
            double dt = now_s() - t0, dc = cpu_s() - c0;
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
    if (all || cli_flag(a, "tuner")) {
        int threads = (int)cli_int(a, "threads");
        if (threads <= 0) threads = omp_get_num_procs();
        char err[TEXEL_ERR_MAX];
        TexelData *data = texel_data_new(256);
        int32_t truth[256];
        if (!data || texel_data_synthetic(data, 500000, 24, 1.3, 1, truth, err) != 0) {
            fprintf(stderr, "dama bench: %s\n", data ? err : "out of memory");
            texel_data_free(data);
            return 1;
        }
        TexelBench tb = {0};
        for (int rep = 0; rep < repeat; rep++) {
            if (texel_bench(data, truth, threads, 10, &tb, err) != 0) {
                fprintf(stderr, "dama bench: %s\n", err);
                texel_data_free(data);
                return 1;
            }
            rates[rep] = tb.evals_per_sec;
        }
        printf("tune: %.1f M position evaluations/s with gradient (%d threads, 500000 positions, 24 terms, "
               "%.1f bytes/position, median of %d)\n",
               median(rates, repeat) / 1e6, threads, tb.bytes_per_position, repeat);
        texel_data_free(data);
    }
    return 0;
}

const CliCommand cmd_bench = {
    "bench", "benchmarks: fixed-depth search node count and nodes/s; perft, database and tuner rates",
    "[--game G] [--depth N] [--perft] [--store] [--tuner] [--all] [--repeat N]", OPTS, run, 0,
};
