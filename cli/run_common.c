/* run_common.c — option checks and progress lines shared by the
 * long-running commands; the game-playing machinery is in selfplay/ and arena/. */
#include "cli/run_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena/player.h"
#include "arena/preflight.h"
#include "util/clock.h"
#include "util/file_read.h"


int run_check_hash(const Game *g, int64_t table_mb, int tables, const char *option, char err[ERR_MAX])
{
    return preflight_check_hash(g, table_mb, tables, option, err);
}

int run_check_one_limit(const CliArgs *a, const char *cmd)
{
    if (cli_source(a, "depth") != CLI_FROM_CLI || cli_int(a, "depth") == 0 || cli_source(a, "nodes") != CLI_FROM_CLI)
        return 0;
    fprintf(stderr, "dama %s: give --depth or --nodes, not both (--depth %s and --nodes %s)\n", cmd, cli_str(a, "depth"),
            cli_str(a, "nodes"));
    return 2;
}

void run_progress_init(RunProgress *p, const char *what, int64_t total, double interval_s)
{
    p->what = what;
    p->total = total;
    p->start = p->last = clock_now_s();
    p->interval = interval_s;
    p->before = 0;
    p->ranks = 0;
    p->rank_games = NULL;
    p->extra = NULL;
}

void run_progress_update(RunProgress *p, int64_t done, const int64_t wdl[3], bool final)
{
    double now = clock_now_s();
    if (!final && (p->interval <= 0 || now - p->last < p->interval)) return;
    p->last = now;
    int64_t played = done > p->before ? done - p->before : 0;
    double rate = now > p->start ? (double)played / (now - p->start) : 0;
    double eta = rate > 0 ? (double)(p->total - done) / rate : 0;
    fprintf(stderr, "%s: %lld/%lld games, %.2f games/s", p->what, (long long)done, (long long)p->total, rate);
    if (wdl) fprintf(stderr, ", W/D/L %lld/%lld/%lld", (long long)wdl[0], (long long)wdl[1], (long long)wdl[2]);
    if (p->extra && p->extra[0]) fprintf(stderr, ", %s", p->extra);
    if (!final) fprintf(stderr, ", ETA %dm%02ds", (int)eta / 60, (int)eta % 60);
    if (p->ranks > 1 && p->rank_games) {
        fprintf(stderr, ", by rank");
        for (int r = 0; r < p->ranks; r++) fprintf(stderr, "%s%lld", r ? "/" : " ", (long long)p->rank_games[r]);
    }
    fputc('\n', stderr);
}

int run_openings(const Game *g, const CliArgs *a, uint64_t seed, OpeningBook *book, char err[ERR_MAX])
{
    int balance = cli_isset(a, "balance") ? (int)cli_int(a, "balance") : 0;
    return openings_for_run(g, cli_str(a, "openings"), (int)cli_int(a, "random-plies"), balance, seed, book, err);
}

void run_book_identity(const CliArgs *a, char *config, size_t size)
{
    const char *path = cli_str(a, "openings");
    char own[1024];
    size_t n = strlen(config);
    if (!path) { /* the game's own book, as openings_for_run finds it, or random lines where it is missing */
        const Game *g = cli_game(a);
        if (!g || !g->opening_book) return;
        if (!openings_own_book(g, own, sizeof own)) {
            if (n < size) snprintf(config + n, size - n, "openings-content = missing\n");
            return;
        }
        path = own;
    }
    run_file_identity("openings", path, config, size);
}

void run_file_identity(const char *key, const char *path, char *config, size_t size)
{
    size_t n = strlen(config);
    struct stat st; /* a pipe would be drained before the book is read from it */
    if (!path[0] || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return;
    FILE *f = file_open_read(path);
    if (!f) return;
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, 64 bits */
    unsigned char buf[1 << 15];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++) h = (h ^ buf[i]) * 0x100000001b3ULL;
    bool whole = !ferror(f);
    fclose(f);
    if (whole && n < size) snprintf(config + n, size - n, "%s-content = %016llx\n", key, (unsigned long long)h);
}

int run_check_engine(const Game *g, const PlayerSpec *spec, const char *who, char err[ERR_MAX])
{
    return preflight_check_engine(g, spec, who, &cli_stop_requested, err);
}
