/* run_common.h — pieces shared by the long-running commands (selfplay,
 * match, tune): clocks, progress lines, openings, weight-set plumbing. */
#ifndef DAMA_RUN_COMMON_H
#define DAMA_RUN_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "play/play.h"

struct Db;

double run_now_s(void);

/* The options every command that plays games has (selfplay, match). */
#define RUN_PLAY_OPTS                                                                                                  \
    {"nodes", OPT_INT, "4000", "search nodes per move"},                                                               \
        {"depth", OPT_INT, "0", "search depth per move instead of nodes (0: use nodes)"},                              \
        {"threads", OPT_INT, "0", "concurrent games (0: all cores)"},                                                  \
        {"hash", OPT_INT, "16", "transposition table MiB per worker (split between its two engines)"},                 \
        {"openings", OPT_STR, NULL, "opening book file (label<TAB>position); default: the game's book, else random"},  \
        {"random-plies", OPT_INT, "4", "plies of random openings when there is no book"},                              \
        {"balance", OPT_INT, "60", "random openings: redraw a line a 2000-node search scores beyond +-N centi-men"},   \
        {"max-plies", OPT_INT, "300", "move cap in plies; reaching it is recorded as adjudication 'move-cap'"}

/* Check the RUN_PLAY_OPTS values (message to stderr naming the command).
 * Returns 0, or 2 (a usage error). */
int run_check_play_opts(const CliArgs *a);

typedef struct RunProgress {
    const char *what;
    int64_t total;
    double start, last, interval;
} RunProgress;

void run_progress_init(RunProgress *p, const char *what, int64_t total, double interval_s);
/* Print "what: done/total games, games/s, W/D/L, ETA" to stderr when the
 * interval has passed (or always when final). wdl may be NULL. */
void run_progress_update(RunProgress *p, int64_t done, const int64_t wdl[3], bool final);

/* The opening book of a run: --openings FILE, else the game's own book
 * (looked up in the working directory and the source tree), else
 * --random-plies random openings derived from seed. */
int run_openings(const Game *g, const CliArgs *a, uint64_t seed, OpeningBook *book, char err[ERR_MAX]);

/* Names of the game's weights ("MAN", "MAN_PST[3]", ...): one allocation,
 * free() it. NULL if out of memory. */
const char **run_weight_names_new(const Game *g);

/* Weights named by spec: "default" (compiled in), "db:ID" or "ID" (weight set
 * in db), "tuned" (newest tuned weight set in db), or a weight file. *id
 * (may be NULL) receives the weight set id, 0 if not from db. */
int weights_resolve_db(const Game *g, const char *spec, struct Db *db, int32_t *weights, int64_t *id,
                       char err[ERR_MAX]);

/* Make sure the weights named by spec are a weight set in db: returns its id
 * (stored now with lineage "compiled-in" or "file PATH" if it was not from
 * db). */
int run_store_base(struct Db *db, const Game *g, const char *spec, const int32_t *weights, const char **names,
                   int64_t run_id, int64_t *id, char err[ERR_MAX]);


/* One self-play or match worker: two engines (hash_mb MiB split between
 * them, both stopped by Ctrl-C) and a game record. */
typedef struct Worker {
    struct Engine *eng[2];
    PlayRecord rec;
} Worker;
struct GameWriter;
/* Returns true, or false (out of memory) with the worker freed and the
 * failure recorded in wr (under the OpenMP critical section game_writer,
 * the one every user of a GameWriter in a parallel region must take). */
bool worker_init(Worker *w, const Game *g, int64_t hash_mb, struct GameWriter *wr);
void worker_free(Worker *w);

/* Finished games on their way to the database: one writer, batched
 * transactions (a batch is stored whole or not at all). Not thread-safe:
 * callers serialise (an OpenMP critical section). */
typedef struct GamePending GamePending;
typedef struct GameWriter {
    struct Db *db;
    GamePending **pending;
    int len, batch;
    double last_flush, flush_interval_s;
    int64_t stored;
    bool failed;
    char err[ERR_MAX];
} GameWriter;

struct DbGame;
int game_writer_init(GameWriter *w, struct Db *db, int batch, double flush_interval_s);
/* Queue a played game with its metadata (copied); flushes when the batch is
 * full or the interval has passed. Returns 0 or -1 (w->err set, w->failed). */
int game_writer_add(GameWriter *w, const Game *g, const PlayRecord *rec, const struct DbGame *meta);
int game_writer_flush(GameWriter *w);
void game_writer_free(GameWriter *w);

#endif
