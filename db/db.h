/* db.h — dama's SQLite store: runs, weight sets, games with their positions,
 * tuning runs and matches (schema: db/schema.sql).
 *
 * A Db is one connection. It is not safe to use one Db from two threads at
 * once: give each thread its own Db, or serialise the calls. Several
 * processes may open the same file: the database is in WAL mode (readers do
 * not block the writer), every write transaction starts with BEGIN
 * IMMEDIATE, and a writer that finds another one waits up to the busy
 * timeout (DB_BUSY_TIMEOUT_MS) before failing with "database is locked".
 *
 * Durability: a committed transaction survives the process being killed at
 * any point (WAL, synchronous=NORMAL; a power failure may lose the last
 * commits but never corrupts the file). A failed write — full disk, I/O
 * error, lock timeout, constraint — leaves everything committed before it
 * intact.
 *
 * Transactions: a write function called outside db_begin/db_commit runs in
 * its own transaction. Called between db_begin and db_commit it joins the
 * caller's transaction. Any failed write (bad argument, constraint, full
 * disk, I/O error, lock timeout) rolls back the open transaction, the
 * caller's included, so a batch is stored whole or not at all; calling
 * db_rollback afterwards is harmless.
 *
 * Errors: functions returning int give 0 on success and -1 on failure, with
 * a message in err naming the file and the operation. Nothing is printed.
 *
 * Conventions: an id argument of 0 stores NULL (no parent, no run); a double
 * that is NaN stores NULL; a NULL string stores NULL. Seeds are stored as the
 * bit pattern of a signed 64-bit INTEGER and read back unchanged.
 */
#ifndef DAMA_DB_H
#define DAMA_DB_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h" /* ERR_MAX */
#include "util/time_use.h"

enum {
    DB_SCHEMA_VERSION = 11,     /* newest schema this binary knows (PRAGMA user_version): db/schema.sql */
    DB_BUSY_TIMEOUT_MS = 10000, /* default wait for another writer, milliseconds */
    DB_STATUS_MAX = 16,         /* run status text with its NUL ("interrupted") */
    DB_HASH_HEX = 17            /* weight-set content hash: 16 hex digits and a NUL */
};

/* PRAGMA application_id of a dama database: 'DAMA' in ASCII. */
#define DB_APPLICATION_ID 0x44414D41

typedef struct Db Db; /* opaque connection with its cached statements */

/* One stored position. On insert, game_id and id are ignored. result is the
 * game result from White's view (1, 0.5, 0; NaN reads a NULL). score is in
 * centi-men, White's view, meaningful only if has_score. */
typedef struct DbPosition {
    int64_t id;      /* positions.id (read only) */
    int64_t game_id; /* games.id (read only) */
    int ply;
    const char *fen;
    int stm; /* side to move: 0 White, 1 Black */
    int score;
    bool has_score;
    double result;
    bool quiet; /* the side to move has no capture */
} DbPosition;

/* One stored game with its positions. Strings may be NULL (stored as NULL)
 * except game; result is "1-0", "0-1" or "1/2-1/2". */
typedef struct DbGame {
    int64_t run_id;
    int64_t game_index; /* 0-based index of the game in its run */
    const char *game;   /* "russian", ... */
    const char *opening;
    const char *start_fen;
    int64_t white_ws, black_ws; /* weight set ids, 0 for NULL */
    uint64_t seed;
    const char *result;
    const char *reason; /* "no-moves", "D3".."D8", "move-cap", "adjudicated", ... */
    int plies;
    const char *movetext; /* PDN movetext */
    const char *detail;   /* NULL: none; the offending engine output of a crash, timeout or illegal move */
    const DbPosition *positions;
    int positions_len;
    /* The time each colour used ([0] White, [1] Black): its moves and the
     * wall and CPU seconds its player used for them (util/time_use.h).
     * Stored when timed, else NULL in the database. */
    bool timed;
    TimeUse time[2];
} DbGame;

/* A run as read back by db_run_get. Every string is allocated (NULL where the
 * column is NULL) and freed by db_run_clear. */
typedef struct DbRun {
    int64_t id;
    char *kind, *game, *status, *config, *note, *created, *finished;
    uint64_t seed;
} DbRun;

/* One tuning run (row of tuning_runs). */
typedef struct DbTuning {
    int64_t run_id;
    const char *game;
    int64_t base_ws, result_ws; /* weight set ids, 0 for NULL (result unknown yet) */
    double k;                   /* sigmoid scale; NaN for NULL */
    int64_t positions_train, positions_valid;
    double train_loss, valid_loss; /* NaN for NULL */
    const char *data;              /* which data was used: SQL filter, run ids */
} DbTuning;

/* One match between weight sets A and B; counts from A's view. penta[i]
 * counts game pairs in which A scored i/2 points. Doubles NaN for NULL. */
typedef struct DbMatch {
    int64_t run_id;
    const char *game;
    int64_t ws_a, ws_b;
    int64_t games, wins, draws, losses;
    int64_t penta[5];
    double elo, elo_lo, elo_hi; /* Elo difference A-B and its 95% interval */
    double llr;                 /* SPRT log-likelihood ratio of all the pairs played (final) */
    double sprt_llr;            /* the LLR when the SPRT decided (NaN while undecided) */
    int64_t sprt_pairs;         /* pairs counted at that decision (0 while undecided) */
    double sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta;
    const char *sprt_result; /* NULL while undecided, e.g. "H0", "H1" */
} DbMatch;

/* Open the dama database at path ("" or ":memory:" for a private in-memory
 * one). create=false: the file must exist. A missing or empty file (with
 * create) gets the current schema (db/schema.sql). Refuses, naming the
 * file: a file that is not SQLite; an SQLite file with a foreign
 * application_id, or with tables or a user_version but no dama id; a dama
 * database whose schema version is newer than DB_SCHEMA_VERSION. Applies
 * pending migrations (the steps of db/migrations/ after its version, all in
 * one BEGIN IMMEDIATE transaction, safe against a concurrent opener). Sets
 * WAL mode, foreign keys on, busy timeout DB_BUSY_TIMEOUT_MS.
 * On success *out owns the connection (free with db_close).
 *
 * A writing open also marks 'interrupted' every run, train and SPSA run
 * left 'running' by a process that is gone: one on this host (owner_host)
 * whose pid (owner_pid) no longer exists, or exists with another start time
 * (owner_start, from /proc/PID/stat; the pid was reused). Rows of other
 * hosts, and rows without an owner (runs stored by dama before schema 3,
 * trains and SPSA runs before 10), are left as they are (64 rows of a table
 * at most per open; the rest on the next). A missing file is made by
 * this open alone (O_EXCL: of two processes starting together one makes
 * it, the other opens it). When the open fails after making the file, the
 * file is removed again, unless another connection has it open
 * (db_close_discard_new). */
int db_open(const char *path, bool create, Db **out, char err[ERR_MAX]);

/* Open an existing dama database for reading only (SQLITE_OPEN_READONLY):
 * for commands that only read (export). Nothing is created, migrated or
 * marked; a missing file is an error saying so ("no such database file"),
 * an empty one ("no dama data"). A database of an older schema is refused
 * with a message naming it and `dama db upgrade FILE` (a read-only
 * connection cannot migrate it, and the read functions use the newest
 * schema's columns). */
int db_open_readonly(const char *path, Db **out, char err[ERR_MAX]);

/* Open an existing dama database for a command that only reads it (pdn
 * export, ratings): as db_open(path, false) when this process may write the
 * file and its folder (an older schema is upgraded, dead runs marked), else
 * as db_open_readonly, which then needs the current schema (an older one is
 * an error saying to open it once with write permission). Errors as those;
 * an empty file is refused ("no dama data") and left empty. */
int db_open_for_reading(const char *path, Db **out, char err[ERR_MAX]);

/* Close like db_close; and when this connection created the file (it did
 * not exist before db_open) and the database still holds no run, weight set
 * or game, remove it (with its -wal and -shm files), so a command that fails
 * leaves no empty database behind; a file that was empty (0 bytes) before
 * db_open is emptied again instead. Neither happens while any other
 * connection, of this process or another, has the file open (two copies
 * started together on a new file: the one that fails leaves the file to
 * the other); a process that opens the file meanwhile waits, and opens it
 * anew once it is gone. NULL is a no-op. */
void db_close_discard_new(Db *db);

/* Close the connection, rolling back an open transaction. NULL is a no-op. */
void db_close(Db *db);

/* The path given to db_open (owned by db). */
const char *db_path(const Db *db);

/* How long a write waits for another process's write lock, milliseconds
 * (0: fail at once). */
int db_set_busy_timeout(Db *db, int ms, char err[ERR_MAX]);

/* A long read stops when *stop becomes nonzero (polled by SQLite every
 * few thousand virtual-machine steps, so also while a slow query has no
 * row to give yet): the statement fails with SQLITE_INTERRUPT. NULL: no
 * such stop (the default). */
void db_set_stop(Db *db, volatile int *stop);

/* Cap the database file at about `bytes` (PRAGMA max_page_count; never below
 * its current size). Writes past the cap fail like a full disk (SQLITE_FULL):
 * to bound disk use, and to test the disk-full path. */
int db_set_size_limit(Db *db, int64_t bytes, char err[ERR_MAX]);

/* Start a write transaction (BEGIN IMMEDIATE: takes the write lock now,
 * waiting up to the busy timeout). Fails if one is already open. */
int db_begin(Db *db, char err[ERR_MAX]);

/* Commit. On failure the transaction is rolled back and nothing of it is
 * stored. */
int db_commit(Db *db, char err[ERR_MAX]);

/* Roll back the open transaction, if any. Never fails; NULL is a no-op. */
void db_rollback(Db *db);

/* True between db_begin and db_commit/db_rollback. */
bool db_in_transaction(const Db *db);

/* New run (status 'running', created now). kind: "selfplay", "tune", "tournament" or
 * "match"; config_text: the effective configuration; note may be NULL.
 * The calling process is recorded as its owner (pid, host, start time), so
 * a later writing db_open can tell a run whose process died. */
int db_run_create(Db *db, const char *kind, const char *game, uint64_t seed,
                  const char *config_text, const char *note, int64_t *run_id, char err[ERR_MAX]);

/* Set a run's status: "done" or "interrupted" stamp finished with now;
 * "running" (a resumed run) clears finished and makes the calling process
 * the run's owner. Error if the run does not exist. */
int db_run_finish(Db *db, int64_t run_id, const char *status, char err[ERR_MAX]);

/* The newest run with exactly this kind, game, seed and configuration text
 * (for resume). *run_id = 0 if none. status (may be NULL) receives its status. */
int db_run_find(Db *db, const char *kind, const char *game, uint64_t seed, const char *config_text,
                int64_t *run_id, char status[DB_STATUS_MAX], char err[ERR_MAX]);

/* ---- one writer a run (db_runs.c) -------------------------------------------
 * A run (runs), a train (trains) or an SPSA run (spsa_runs) has one writer
 * at a time: its owner (owner_pid, owner_host, owner_start, owner_since).
 * A command finds or makes its run and takes it in one BEGIN IMMEDIATE
 * transaction (a claim), so two copies started together cannot both make
 * it or both resume it. A claim of a row whose status is 'running' and whose
 * owner is alive is refused with DB_BUSY: alive is a process of this host
 * with the owner's pid and start time (/proc/PID/stat; a zombie, ended but
 * not reaped, is gone), and any process of another host (this one cannot
 * see it). A row whose owner is gone (killed,
 * or marked 'interrupted' by db_open's sweep) or unknown (stored before
 * schema 3, or a train or SPSA run before 10) is taken over. `dama db
 * release` (db_release) frees a row whose owner on another host is gone. */

/* What a claim returns when another live process writes the row (err
 * names it, its pid, host and since when, and how to take it over); also
 * the exit status of every command refused so (docs/commands.md). */
enum { DB_BUSY = 4 };

enum { DB_HOST_MAX = 256, DB_TIME_MAX = 24 };

/* The owner of a row as a claim reports it. */
typedef struct DbOwner {
    int64_t pid;            /* 0: unknown */
    char host[DB_HOST_MAX]; /* "" unknown */
    char since[DB_TIME_MAX]; /* when it took the row, UTC ISO 8601; "" unknown (taken before schema 10) */
    bool here;              /* its host is this one */
} DbOwner;

/* What a claim found and did. */
typedef struct DbClaim {
    int64_t id;                 /* the row taken; DB_BUSY: the row in use */
    bool created;               /* made by this claim */
    char status[DB_STATUS_MAX]; /* its status before the claim ("" when created) */
    DbOwner owner;              /* DB_BUSY: its live owner */
} DbClaim;

typedef enum DbClaimMode {
    DB_CLAIM_RESUME, /* take the newest run of the key (made when there is none): selfplay, tournament */
    DB_CLAIM_NEW,    /* make a new run, unless a run of the key is running with a live owner: tune, match */
} DbClaimMode;

/* Claim a run of this kind, game, seed and configuration text (as
 * db_run_create and db_run_find take them) for the calling process: one
 * transaction (the caller's, or one of its own) finds the run, refuses it
 * when its owner lives, else makes it 'running' with this process as its
 * owner (finished is kept: db_run_finish or db_run_release sets it); or
 * makes a new run. Returns 0 (*c filled), DB_BUSY (c->id and c->owner name
 * the run, err the refusal), or -1 with err. A failure or refusal inside
 * the caller's transaction rolls it back, as every write does. */
int db_run_claim(Db *db, DbClaimMode mode, const char *kind, const char *game, uint64_t seed,
                 const char *config_text, const char *note, DbClaim *c, char err[ERR_MAX]);

/* Claim run run_id itself (a tournament resumed by its id). As
 * db_run_claim; an error when there is no such run. */
int db_run_claim_id(Db *db, int64_t run_id, DbClaim *c, char err[ERR_MAX]);

/* Hand a claimed run back with status ("done", "interrupted", or the
 * status it had before the claim: c->status), without a new finished time
 * when it has one (a resumed run that had nothing left to do stays as it
 * was). Error if the run does not exist. */
int db_run_release(Db *db, int64_t run_id, const char *status, char err[ERR_MAX]);

/* Remove a run this process made by a claim and that nothing refers to
 * (no game, weight set, member, tuning run, match or tournament): a
 * command that failed before storing anything leaves no empty run. A run
 * that something refers to is marked 'interrupted' instead. */
int db_run_drop(Db *db, int64_t run_id, char err[ERR_MAX]);

/* `dama db release FILE WHAT:ID`: mark row id of what ("run", "train" or
 * "spsa") 'interrupted' when it is 'running', so that the next claim takes
 * it over: for a run whose owner was on another host that is gone (this
 * host's dead owners are taken over without it). *owner (may be NULL)
 * receives the owner it had, *was the status ("" when not running: nothing
 * changed). Refused with DB_BUSY when the owner is a live process of this
 * host (stop that instead). -1 with err: no such row, or a database error. */
int db_release(Db *db, const char *what, int64_t id, DbOwner *owner, char was[DB_STATUS_MAX], char err[ERR_MAX]);

/* Read run run_id into *run (allocated strings; free with db_run_clear).
 * Error if it does not exist. */
int db_run_get(Db *db, int64_t run_id, DbRun *run, char err[ERR_MAX]);

/* Free the strings of *run and zero it. NULL is a no-op. */
void db_run_clear(DbRun *run);

/* Store a weight set: names[i] is the name of weights[i] (i < len; no comma,
 * space or empty name). parent_id and run_id 0 for NULL; name may be NULL;
 * how (lineage) is required. *id receives the new id.
 *
 * A weight set is its content: when a set of the same game with the same
 * names and values is already stored, nothing is stored and *id receives
 * the oldest such row (its name, parent, lineage and run stay as they
 * were). Rows carry their content hash (db_weights_hash) in
 * weight_sets.hash. */
int db_weights_insert(Db *db, const char *game, const char *name, int64_t parent_id,
                      const char *how, int64_t run_id, const char *const *names,
                      const int32_t *weights, int len, int64_t *id, char err[ERR_MAX]);

/* Store a weight set as a delta of parent_id (required, same game): the
 * row holds only the weights whose values differ from the parent's
 * (resolved), by name, and weight_sets.delta = 1. Otherwise as
 * db_weights_insert: the same content stored already (full or as a delta)
 * gives that row, and the content hash is that of the whole set, so
 * db_weights_find_hash and the exported weights' hash see no difference.
 * Use it for sets that differ from their parent in a few weights (the
 * members of a self-play run: some dozens of a model's 118,184). The
 * parent's values are cached on the connection (one set), so storing or
 * loading many deltas of one parent reads it once. */
int db_weights_insert_delta(Db *db, const char *game, const char *name, int64_t parent_id, const char *how,
                            int64_t run_id, const char *const *names, const int32_t *weights, int len, int64_t *id,
                            char err[ERR_MAX]);

/* Load weight set id into weights[0..len-1]. Checks that it belongs to game
 * (NULL: any game) and that its weight names are exactly names[0..len-1]
 * (the message names the first mismatch: count, position and both names);
 * parses the values strictly (decimal int32, comma-separated, nothing else).
 * A delta row (db_weights_insert_delta) is resolved: its parent's values
 * (a delta in turn, up to 64 deep: a longer chain is refused as a cycle)
 * with the weights it names set; a named weight this dama does not have,
 * or one out of this dama's order, is an error naming it. Not thread-safe
 * (one connection per thread, as for every call). weights is written only
 * on success. */
int db_weights_load(Db *db, int64_t id, const char *game, const char *const *names,
                    int32_t *weights, int len, char err[ERR_MAX]);

/* Store a game and all its positions, all or nothing (in its own
 * transaction, or in the caller's). Error if (run_id, game_index) is already
 * stored, if g->run_id or a weight set id does not exist, or if a field is
 * out of range (the message names the game and the position). *game_id (may
 * be NULL) receives the new games.id. */
int db_game_insert(Db *db, const DbGame *g, int64_t *game_id, char err[ERR_MAX]);

/* The time used in run_id's stored games, summed per side of a match:
 * side 0 is White in the games of even index and Black in the others (a
 * match's A, arena/match.h), side 1 the other way round. *untimed: the
 * games without stored times (stored before schema 11), left out of the
 * sums. Returns 0, or -1 with err. */
int db_run_match_times(Db *db, int64_t run_id, TimeUse sides[2], int64_t *untimed, char err[ERR_MAX]);

/* The time used in run_id's stored games, summed per player: out[i] over
 * the games whose white_player or black_player is players[i] (a
 * tournament's participants ids), for that player's colour. *untimed as
 * db_run_match_times. Returns 0, or -1 with err. */
int db_run_player_times(Db *db, int64_t run_id, const int64_t *players, int len, TimeUse *out, int64_t *untimed,
                        char err[ERR_MAX]);

/* What db_merge copied (counts over all shards; all 0 after a failure). */
typedef struct DbMergeStats {
    int64_t shards, runs_new, runs_matched, runs_skipped, weight_sets_new, games_new, games_same, positions_new;
} DbMergeStats;

/* Merge the self-play runs of the shard databases (paths) into db, in ONE
 * transaction: all of it or nothing (on any error the target is as it was).
 * A shard's run is the target's run of the same kind, game, seed and
 * configuration (the run's identity, as db_run_find), else a new run; a run
 * of the same kind, game and seed with another configuration contradicts it
 * (an error naming the first differing line). Weight sets are matched by
 * content (game, hash, terms and values; parents first), so a member stored
 * in several shards is one row. A game is identified by its run and game
 * index: one the target has already must be the same game (start position,
 * weight sets, seed, result, movetext), else an error naming the shard, run,
 * index and what differs; the same game is not copied again, so merging a
 * shard twice adds nothing. Positions come with their game. Runs of other
 * kinds (tune, match, tournament) are not copied (counted in
 * runs_skipped). A merged run is 'done' when every part of it was, else
 * 'interrupted'. Refused before anything is written: a missing shard, the
 * target itself, a shard named twice; then, per shard: a file that is not
 * a dama database, or of another schema version than the target's; a
 * target run that another live process writes (its owner: DB_BUSY). The
 * whole merge is one BEGIN IMMEDIATE transaction, so two merges at once
 * wait for each other (the busy timeout) and the second adds nothing that
 * the first added. Errors name the shard. Shards are opened read-only. */
int db_merge(Db *db, const char *const *shards, int shards_len, DbMergeStats *st, char err[ERR_MAX]);

/* `dama db merge`: db_merge into the database at `into` (opened for
 * writing, created if missing; closed after). Returns 0, -1 with err when
 * into cannot be opened, or -2 (DB_BUSY: a target run is being written)
 * with err when the merge failed: into is then as it was (a file this call
 * created is removed again). */
int db_merge_into(const char *into, const char *const *shards, int shards_len, DbMergeStats *st, char err[ERR_MAX]);

/* `dama db upgrade`: the existing database at path migrated to this
 * build's schema (db_open's migrations, each step in one transaction; dead
 * runs marked). *upgraded: false when it was at DB_SCHEMA_VERSION already.
 * Returns 0, or -1 with err (not a dama database, newer, not writable). */
int db_upgrade(const char *path, bool *upgraded, char err[ERR_MAX]);

/* `dama db check`: the whole file at path read and checked by SQLite's
 * PRAGMA integrity_check (every page of every table and index, the free
 * list, each index against its table, NOT NULL and CHECK constraints),
 * through a read-only connection (no -wal or -shm left beside it). The
 * other commands read only the pages their queries reach, so a damaged
 * page elsewhere goes unnoticed by them until one does: this finds it.
 * *problems: how many problems SQLite listed, a line each (a result row
 * may hold several; 0: the file is sound; SQLite stops after DB_CHECK_MAX
 * rows), first: the first of them. Returns 0
 * (sound or not), or -1 with err when the file could not be checked at all
 * (missing, not SQLite, a damaged page SQLite needs before it can check:
 * "PATH: not a readable dama database: ..."). */
enum { DB_CHECK_MAX = 100 };
int db_check(const char *path, int64_t *problems, char *first, size_t first_size, char err[ERR_MAX]);

/* Which games of run_id are stored, for resume: done[i] = true if game_index
 * i is stored, for 0 <= i < len (indices outside are ignored). *stored (may
 * be NULL) receives how many of those are stored. */
int db_run_game_indices(Db *db, int64_t run_id, bool *done, int64_t len, int64_t *stored,
                        char err[ERR_MAX]);

/* The stored results of run_id's games, for resume: white_half[i] is
 * White's half points of game index i (2 a win, 1 a draw, 0 a loss), -1
 * when no game i is stored, for 0 <= i < len (indices outside are
 * ignored). */
int db_run_game_results(Db *db, int64_t run_id, signed char *white_half, int64_t len, char err[ERR_MAX]);

/* Whether filter_sql is an SQL condition db_positions_each can use (over
 * positions p and games g): 0, or -1 with err "filter 'F': SQLite's
 * message" (no path: the caller says where the filter came from). */
int db_positions_filter_check(Db *db, const char *filter_sql, char err[ERR_MAX]);

/* Call fn for each stored position of game (NULL: every game), in id order.
 * filter_sql (NULL or "" for none) is an extra SQL condition over positions
 * p and games g, e.g. "g.run_id IN (1,2) AND p.quiet = 1"; it must be a
 * read-only expression (rejected with the SQLite message otherwise). The
 * strings in *p are valid only during the call. A non-zero return from fn
 * stops the walk and is returned as is (err untouched). A row with a missing
 * or mistyped field is an error naming the position id. */
int db_positions_each(Db *db, const char *game, const char *filter_sql,
                      int (*fn)(void *ctx, const DbPosition *p), void *ctx, char err[ERR_MAX]);

/* Call fn for each stored game (without positions: positions NULL,
 * positions_len 0) in id order, with filter_sql an extra condition over
 * games g as in db_positions_each. Strings valid only during the call; a
 * non-zero return from fn stops the walk and is returned. */
int db_games_each(Db *db, const char *filter_sql,
                  int (*fn)(void *ctx, int64_t game_id, const DbGame *g), void *ctx,
                  char err[ERR_MAX]);

/* Store a tuning run; *id receives its id. */
int db_tuning_insert(Db *db, const DbTuning *t, int64_t *id, char err[ERR_MAX]);

/* Overwrite every field of tuning run id with *t (e.g. the result at the end). */
int db_tuning_update(Db *db, int64_t id, const DbTuning *t, char err[ERR_MAX]);

/* The (newest) tuning run of run_id: *id (0: none) and its row in *t (game
 * and data left NULL). */
int db_tuning_of_run(Db *db, int64_t run_id, int64_t *id, DbTuning *t, char err[ERR_MAX]);

/* The tuning run of run_id that never stored its end (k NULL and no
 * result: its process was killed, or failed, while tuning): *id, or 0
 * when there is none. */
int db_tuning_unfinished(Db *db, int64_t run_id, int64_t *id, char err[ERR_MAX]);

/* Tune tuning run id again from the start: its epochs deleted and its row
 * overwritten with *t; call it inside the caller's transaction (db_begin),
 * with the run's other rows. A rerun of a killed tune so leaves the rows of
 * one uninterrupted run. */
int db_tuning_restart(Db *db, int64_t id, const DbTuning *t, char err[ERR_MAX]);

/* Store the losses of one epoch (0-based) of tuning run tuning_run_id; error
 * if that epoch is already stored. NaN losses store NULL. */
int db_tuning_epoch_insert(Db *db, int64_t tuning_run_id, int epoch, double train_loss,
                           double valid_loss, char err[ERR_MAX]);

/* Store a match; *id receives its id. */
int db_match_insert(Db *db, const DbMatch *m, int64_t *id, char err[ERR_MAX]);

/* Overwrite every field of match id with *m (running totals, SPRT state). */
int db_match_update(Db *db, int64_t id, const DbMatch *m, char err[ERR_MAX]);

/* The value of line "key = value" of a run's configuration text (the
 * lines cli_config_text writes): a pointer into config and its length in
 * *len, or NULL when there is no such line or its value is empty. */
const char *db_config_value(const char *config, const char *key, size_t *len);

/* Side (0: A, 1: B) of a match whose engine has no weight set (a Hub
 * engine, a DXP program), as the match's configuration config names it:
 * "Hub 'CMD'", "DXP HOST:PORT", "DXP HOST:PORT started by 'CMD'", or
 * "external engine" where it does not say; each value whole (shown 0) or
 * cut to `shown` bytes at a UTF-8 character's start with "…" after it;
 * written into out (size bytes, cut to fit). */
enum { DB_SIDE_NAME_MAX = 1024 };
void db_match_side_name(const char *config, int side, size_t shown, char *out, size_t size);

/* The match of run run_id (the first; a match's run has one): *id (0: none)
 * and its weight sets ws[0] (A) and ws[1] (B), 0 for NULL (a Hub engine). */
int db_match_of_run(Db *db, int64_t run_id, int64_t *id, int64_t ws[2], char err[ERR_MAX]);

/* Benchmark for `dama bench`: create a new database at path (which must not
 * exist), store `positions` synthetic positions as self-play does (games of
 * 80 plies, one transaction per game) and remove the files again. Sets
 * *positions_per_s to positions stored per second of wall time (insert loop
 * only, commits included). */
int db_bench_insert(const char *path, int positions, double *positions_per_s, char err[ERR_MAX]);

/* A weight set's metadata (allocated strings; free with
 * db_weights_info_clear). tuned, k, valid_loss and positions come from the
 * tuning run whose result it is, if any. */
typedef struct DbWeightsInfo {
    int64_t id, parent_id, run_id; /* 0 where NULL */
    char *game, *name, *how, *created;
    bool tuned;
    double k, valid_loss; /* valid_loss NaN where NULL (no validation positions) */
    int64_t positions;
} DbWeightsInfo;

/* Read weight set id's metadata. Error if it does not exist. */
int db_weights_info(Db *db, int64_t id, DbWeightsInfo *info, char err[ERR_MAX]);
void db_weights_info_clear(DbWeightsInfo *info);

/* The content hash of a weight set: 64-bit FNV-1a (Fowler, Noll, Vo;
 * offset basis 14695981039346656037, prime 1099511628211) of the bytes
 * game NUL terms NUL weights, where terms and weights are the comma-joined
 * names and decimal values exactly as stored, written as 16 lower-case hex
 * digits: the hash of engine/weights_id.h (weights_hash_names/_values),
 * defined there once. Pure; thread-safe. The generated weights.h of a game carries the
 * hash of the set it was exported from. */
void db_weights_hash(const char *game, const char *const *names, const int32_t *weights, int len,
                     char out[DB_HASH_HEX]);

/* The oldest weight set of game with content hash `hash`; *id = 0 if none. */
int db_weights_find_hash(Db *db, const char *game, const char *hash, int64_t *id, char err[ERR_MAX]);

/* Make weight set ws_id member number `member` (0-based) of run run_id
 * (table run_weight_sets): a run's members may be rows stored earlier by
 * another run, since equal contents share one row. Error if that member
 * number is taken. */
int db_run_weights_add(Db *db, int64_t run_id, int member, int64_t ws_id, char err[ERR_MAX]);

/* Ids of the member weight sets of run run_id, in member order (at most
 * max). */
int db_weights_by_run(Db *db, int64_t run_id, int64_t *ids, int max, int *len, char err[ERR_MAX]);

/* The newest weight set of game whose lineage text starts with how_prefix
 * (e.g. "tuned"); *id = 0 if none. */
int db_weights_newest(Db *db, const char *game, const char *how_prefix, int64_t *id, char err[ERR_MAX]);


/* One SPSA run (spsa_runs): the parameters tuned ("name min max c_end r_end
 * start" lines), the schedule, the games per iteration. A run is identified
 * for resume by (game, seed, config). */
typedef struct DbSpsaRun {
    const char *game;
    int64_t base_ws;     /* weight set the tuned weights start from (0: none) */
    uint64_t seed;
    const char *config;  /* effective configuration text */
    const char *params;  /* one line per parameter */
    int64_t iterations, pairs;
    double a_const, alpha, gamma;
} DbSpsaRun;

/* Claim the SPSA run of r's game, seed and configuration (the newest), or
 * store a new one from r, for the calling process (as db_run_claim with
 * DB_CLAIM_RESUME: 0, DB_BUSY or -1). */
int db_spsa_claim(Db *db, const DbSpsaRun *r, DbClaim *c, char err[ERR_MAX]);
/* Store a new SPSA run (status 'running'); *id receives its id. */
int db_spsa_insert(Db *db, const DbSpsaRun *r, int64_t *id, char err[ERR_MAX]);
/* The newest SPSA run with this game, seed and configuration (*id = 0 if
 * none); status (may be NULL) receives its status. */
int db_spsa_find(Db *db, const char *game, uint64_t seed, const char *config, int64_t *id,
                 char status[DB_STATUS_MAX], char err[ERR_MAX]);
/* The newest SPSA run (what "spsa") or train (what "train") of game left
 * 'interrupted', other than except (*id = 0 if none): a new one says it,
 * as its options differ. */
int db_other_interrupted(Db *db, const char *what, const char *game, int64_t except, int64_t *id, char err[ERR_MAX]);
/* The last stored iteration of run id: *iter (0 if none) and *theta (its
 * parameter values as text, malloc'd; NULL if none). */
int db_spsa_last(Db *db, int64_t id, int *iter, char **theta, char err[ERR_MAX]);
/* Store iteration iter of run id: theta+'s wins/draws/losses, the summed
 * pair results (theta+ points minus theta- points) and theta after it. */
int db_spsa_iteration_insert(Db *db, int64_t id, int iter, const int64_t wdl[3], int64_t result, const char *theta,
                             char err[ERR_MAX]);
/* Set a run's status ("running", "done", "interrupted") and its result
 * weight set (0: none). */
int db_spsa_finish(Db *db, int64_t id, const char *status, int64_t result_ws, char err[ERR_MAX]);
/* ---- tournaments (db_tournaments.c) ---------------------------------------
 * A tournament is a run of kind "tournament" with one tournaments row and
 * its participants; its games are ordinary games of that run, with the
 * playing participants, the round and, when an engine failed, what it
 * wrote (games.white_player, black_player, round, detail). */

typedef struct DbTournament {
    int64_t run_id;
    const char *name;   /* may be NULL */
    const char *format; /* "round-robin" or "gauntlet" */
    int rounds;
    int64_t games_total;
    const char *pdn_out; /* the PDN file its games are appended to (absolute path), or NULL */
} DbTournament;

/* One participant. kind "dama" (in-process: spec names the weights) or
 * "hub" (an external engine: spec is its command), followed by " with
 * param.NAME=VALUE,..." when it was given params (another player than
 * without); limits is the time control as text ("nodes=1000"). weight_set
 * 0 for none. */
typedef struct DbParticipant {
    int64_t id; /* participants.id (read only) */
    int idx;    /* 0-based place in the tournament */
    const char *name, *kind, *spec, *limits;
    int64_t weight_set;
} DbParticipant;

/* Store a tournament; *id receives its id. */
int db_tournament_insert(Db *db, const DbTournament *t, int64_t *id, char err[ERR_MAX]);

/* The PDN file tournament tid appends its games to, as stored when it
 * started (out[0] = '\0' for none; an error if it does not fit in size
 * bytes or there is no tournament tid). */
int db_tournament_pdn_out(Db *db, int64_t tid, char *out, size_t size, char err[ERR_MAX]);

/* Make path (absolute, or NULL for none) the PDN file tournament tid
 * appends its games to (a resume given another --pdn-out). */
int db_tournament_set_pdn_out(Db *db, int64_t tid, const char *path, char err[ERR_MAX]);

/* The tournament of run run_id; *id = 0 if none. */
int db_tournament_by_run(Db *db, int64_t run_id, int64_t *id, char err[ERR_MAX]);

/* The run of tournament *id (> 0); with *id = 0 the newest tournament whose
 * run is not 'done', with *id = -1 the newest of all (*id receives it).
 * *id = *run_id = 0 when there is no such tournament (not an error). */
int db_tournament_find(Db *db, int64_t *id, int64_t *run_id, char err[ERR_MAX]);

/* Store participant p of tournament tid; *id receives participants.id.
 * Error if its idx or name is already taken in that tournament. */
int db_participant_insert(Db *db, int64_t tid, const DbParticipant *p, int64_t *id, char err[ERR_MAX]);

/* Call fn for each participant of tournament tid in idx order (strings valid
 * during the call). A non-zero return of fn stops and is returned. */
int db_participants_each(Db *db, int64_t tid, int (*fn)(void *ctx, const DbParticipant *p), void *ctx,
                         char err[ERR_MAX]);

/* Set the tournament fields of stored game game_id: the participants
 * (ids, 0 for NULL), the 0-based round and detail (NULL: none; the
 * offending engine output of a crash, timeout or illegal move). Joins the
 * caller's transaction like every write. */
int db_game_set_players(Db *db, int64_t game_id, int64_t white_player, int64_t black_player, int round,
                        const char *detail, char err[ERR_MAX]);

/* ---- reading games for export and ratings (db_tournaments.c) --------------- */

typedef enum DbSelect {
    DB_SELECT_ALL = 0,    /* every game */
    DB_SELECT_RUN,        /* the games of run id */
    DB_SELECT_MATCH,      /* the games of match id */
    DB_SELECT_TOURNAMENT, /* the games of tournament id */
    DB_SELECT_FILTER      /* the games g for which the SQL condition holds */
} DbSelect;

/* A stored game as export and ratings see it. white/black name the
 * players: the participant's name in a tournament, else "weight set N",
 * else in a match the engine as db_match_side_name names it (a Hub
 * engine's command, a DXP program's address), or "?" when unknown. tournament_id and match_id are 0 when the game is
 * not part of one; round is the tournament round, else the game index. */
typedef struct DbGameRow {
    int64_t id, run_id, game_index, round, tournament_id, match_id;
    const char *run_kind, *game, *opening, *start_fen, *white, *black, *result, *reason, *movetext;
    const char *created, *tournament_name, *detail;
    int plies;
} DbGameRow;

/* Is f one SQL condition, as the filters of db_game_rows_each and the
 * tuner's position filter must be: not blank, and outside string literals
 * and quoted names no ';', no comment, parentheses balanced and never
 * closing more than are open (so that it cannot break out of the
 * parentheses it is put in)? 0, or -1 with err quoting it. */
int db_filter_check(const char *f, char err[ERR_MAX]);

/* Call fn for each selected game of the database at path, in id order,
 * over a read-only connection of its own (the file must be a dama
 * database; db_open it once first so that it is migrated). With
 * DB_SELECT_FILTER, filter_sql is one SQL condition over games g (e.g.
 * "g.game = 'turkish' AND g.plies > 100"); it may use functions and
 * subqueries that read the database, nothing else: statements, comments,
 * unbalanced parentheses and anything but reading are refused (an SQLite
 * authorizer on a read-only connection). Strings are valid during the call;
 * a non-zero return of fn stops the walk and is returned. A missing id
 * (run, match or tournament) is an error naming it. */
int db_game_rows_each(const char *path, DbSelect select, int64_t id, const char *filter_sql,
                      int (*fn)(void *ctx, const DbGameRow *g), void *ctx, char err[ERR_MAX]);

/* Where a weight set came from, for exports (owned strings; free with
 * db_provenance_clear): the run that made it, the tuning run whose result
 * it is, and its newest match as side A. Ids are 0 where there is none. */
typedef struct DbProvenance {
    int64_t run_id;
    char *run_kind, *run_created, *run_status;
    int64_t tuning_run_id;
    double k, train_loss, valid_loss;
    int64_t positions_train, positions_valid;
    char *tuning_data;
    int64_t match_id, match_opponent, games, wins, draws, losses;
    double elo, elo_lo, elo_hi, llr;
} DbProvenance;

/* Read the provenance of weight set id. 0, or -1 with err. */
int db_weights_provenance(Db *db, int64_t id, DbProvenance *p, char err[ERR_MAX]);
void db_provenance_clear(DbProvenance *p);

/* ---- the schema version (db_report.c; what `dama report` reads: db_report.h) - */

/* PRAGMA user_version: the schema version of the open database. */
int db_schema_version(Db *db, int64_t *version, char err[ERR_MAX]);

/* ---- gated generations (`dama train`; db_train.c) ------------------------ */

enum { DB_GAME_NAME_MAX = 32, DB_DATA_RUNS_MAX = 512, DB_REASON_MAX = 256 };

/* The train with exactly this game, seed and configuration text (the
 * resume key): *id and *start_ws (its generation 0), 0 if none. */
int db_train_find(Db *db, const char *game, uint64_t seed, const char *config, int64_t *id, int64_t *start_ws,
                  char err[ERR_MAX]);
/* Claim the train of this game, seed and configuration text, or make a
 * new one from start_ws (its generation 0 is the caller's to store, in the
 * same transaction), for the calling process (as db_run_claim with
 * DB_CLAIM_RESUME: 0, DB_BUSY or -1). */
int db_train_claim(Db *db, const char *game, uint64_t seed, const char *config, int64_t start_ws, int generations,
                   DbClaim *c, char err[ERR_MAX]);
/* A new train (status 'running') starting from weight set start_ws. */
int db_train_insert(Db *db, const char *game, uint64_t seed, const char *config, int64_t start_ws, int generations,
                    int64_t *id, char err[ERR_MAX]);
/* Status 'running' (clears finished), 'done' or 'interrupted' (stamps it);
 * generations > 0 also records the generations asked for. */
int db_train_set_status(Db *db, int64_t id, const char *status, int generations, char err[ERR_MAX]);
/* The newest train of game (*id 0 if none). */
int db_train_newest(Db *db, const char *game, int64_t *id, char err[ERR_MAX]);
/* Weight set ws as a train's candidate that failed its gate: *train, its
 * *generation and *gate_elo (NaN if not stored); *train 0 when ws is no
 * rejected candidate (an accepted one, a start, a candidate that equals
 * its parent, or no train's). 0, or -1 with err. */
int db_weights_gate_rejected(Db *db, int64_t ws, int64_t *train, int *generation, double *gate_elo,
                             char err[ERR_MAX]);
/* The game of train id; an error naming it when it does not exist. */
int db_train_game(Db *db, int64_t id, char game[DB_GAME_NAME_MAX], char err[ERR_MAX]);

/* One row of generations (schema 6; the columns are documented there).
 * Ids are 0 for NULL, Elo values NaN for NULL; accepted is -1 while the
 * gate has not decided; parent_generation is -1 for generation 0. */
typedef struct DbGeneration {
    int64_t train_id;
    const char *game;
    int generation;
    const char *stage; /* "selfplay", "tune", "gate", "ladder" or "done": the next stage to run */
    int parent_generation;
    int64_t parent_ws, selfplay_run;
    char data_runs[DB_DATA_RUNS_MAX]; /* comma-separated self-play run ids ("" for NULL) */
    int64_t tuning_run, candidate_ws, gate_match;
    double gate_elo, gate_elo_lo, gate_elo_hi;
    int64_t gate_games;
    int accepted;
    char reason[DB_REASON_MAX]; /* "" for NULL */
    int64_t best_ws, ladder_match;
    double ladder_elo, ladder_elo_lo, ladder_elo_hi;
    int64_t ladder_games;
} DbGeneration;

/* Insert or overwrite the row (train_id, generation); finished is stamped
 * the first time stage is 'done'. An unknown stage is an error. */
int db_generation_put(Db *db, const DbGeneration *g, char err[ERR_MAX]);
/* Every generation of a train in order; strings are valid during the call;
 * a non-zero return of fn stops the walk and is returned. */
int db_generations_each(Db *db, int64_t train_id, int (*fn)(void *ctx, const DbGeneration *g), void *ctx,
                        char err[ERR_MAX]);

/* The best weights of a train: the candidate of its highest accepted
 * generation (generation 0, the start weights, when no gate passed).
 * train_id 0: the newest train of game. *ws, *generation and *train (the
 * train's id) are set; an error names a missing train. */
int db_train_best(Db *db, const char *game, int64_t train_id, int64_t *ws, int *generation, int64_t *train,
                  char err[ERR_MAX]);


#endif
