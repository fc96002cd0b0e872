/* run_common.h — pieces shared by the long-running commands (selfplay,
 * match, tune): their common options, progress lines, and the
 * option-reading front ends of selfplay/ and arena/ and db/weight_sets.h. */
#ifndef DAMA_RUN_COMMON_H
#define DAMA_RUN_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/play_opts.h"
#include "arena/game_writer.h"
#include "arena/openings.h"
#include "arena/play.h"
#include "arena/workers.h"
#include "db/weight_sets.h"

/* The workers' tables: selfplay and match (RUN_PLAY_OPTS) and train. */
#define RUN_OPT_HASH {"hash", OPT_INT, "16", "transposition table MiB per worker (split between its two engines)", 1, 65536}

/* The options every command that plays games has (selfplay, match). */
#define RUN_PLAY_OPTS                                                                                                  \
    {"nodes", OPT_INT, "4000", "search nodes per move", 1, 1e12},                                                               \
        {"depth", OPT_INT, "0", "search depth per move instead of nodes (0: use nodes)", 0, 100},                              \
        {"threads", OPT_INT, "0", "concurrent games (0: all cores)", 0, 256},                                                  \
        RUN_OPT_HASH,                                                                                                          \
        CLI_OPENINGS_OPTS(30000),                                                                                              \
        {"max-plies", OPT_INT, "300", "move cap in plies; reaching it is recorded as adjudication 'move-cap'", 1, PLAY_PLIES_MAX}


/* --depth (not 0) and --nodes both on the command line of a command with
 * RUN_PLAY_OPTS (selfplay, spsa; match has its own choice of limits): the
 * depth would be used and the nodes silently not. Returns 0, or 2 after a
 * message naming both. */
int run_check_one_limit(const CliArgs *a, const char *cmd);

/* Before anything is stored: allocate (then free) `tables` engines of
 * table_mb MiB each for game g, as the command's workers will, so that a
 * --hash too large for this machine is an error up front instead of a
 * half-started run. Returns 0, or -1 with err naming `option` (e.g.
 * "--hash 65536"), the table count and size. Thread-safe. (Memory the
 * kernel overcommits can still run out later, when the tables fill.) */
int run_check_hash(const Game *g, int64_t table_mb, int tables, const char *option, char err[ERR_MAX]);

/* Before anything is stored: start the external Hub engine of spec once
 * (the "hub" / "init" handshake of player_new_game, its param.NAME values
 * set) and stop it, so that a command that cannot start (no such file, not
 * executable, exits or hangs during hub/init) is an error naming `who`
 * (e.g. "--a-cmd", "engine 'H'"), the command and why, instead of a run
 * whose every game is lost by that engine. Blocks up to the start-up
 * timeout (10 s). Returns 0, or -1 with err. Thread-safe. */
struct PlayerSpec;
int run_check_engine(const Game *g, const struct PlayerSpec *spec, const char *who, char err[ERR_MAX]);

typedef struct RunProgress {
    const char *what;
    int64_t total;
    double start, last, interval;
    /* games stored before this session (a resumed run): left out of the
     * rate, so games/s and ETA are those of this session's play */
    int64_t before;
    /* Over MPI: ranks > 1 adds each rank's games (rank_games[0..ranks)) to
     * the line; run_progress_init sets 0. */
    int ranks;
    const int64_t *rank_games;
    /* printed after W/D/L when not NULL (a match's Elo so far); init: NULL */
    const char *extra;
} RunProgress;

void run_progress_init(RunProgress *p, const char *what, int64_t total, double interval_s);
/* Print "what: done/total games, games/s, W/D/L, ETA" to stderr when the
 * interval has passed (or always when final). wdl may be NULL. */
void run_progress_update(RunProgress *p, int64_t done, const int64_t wdl[3], bool final);

/* The opening book of a run from --openings, --random-plies and --balance
 * (see openings_for_run in play/openings.h). */
int run_openings(const Game *g, const CliArgs *a, uint64_t seed, OpeningBook *book, char err[ERR_MAX]);

/* The content of the run's book as part of its identity: appends
 * "openings-content = HASH" (64-bit FNV-1a of its bytes, hex) to config
 * (size bytes in all) for --openings FILE, or without --openings for the
 * game's own book (openings_own_book; "openings-content = missing" where it
 * cannot be found and random lines are played), so that a book edited under
 * the same path, or another version's book, makes a new run instead of
 * mixing its openings into the old one's games. Nothing for --openings
 * random, '-', a file that is not regular (a pipe is read once, by the
 * loading) or cannot be read (loading it says why). */
void run_book_identity(const CliArgs *a, char *config, size_t size);

/* Appends "KEY-content = HASH" (FNV-1a of path's bytes) to config, as
 * run_book_identity for --openings: a move book (match's --a-book, a
 * tournament engine's book=) edited under the same path makes a new run.
 * Nothing for '-' or a file that is not regular or cannot be read. */
void run_file_identity(const char *key, const char *path, char *config, size_t size);

#endif
