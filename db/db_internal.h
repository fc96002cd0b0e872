/* db_internal.h — what the store's files (db.c and db_*.c) share: the
 * connection, its statement cache and the checked-call helpers. Private to
 * db/: nothing outside it includes this.
 *
 * A table family lives in its own db_NAME.c: its statements are static
 * const char arrays there, prepared on first use by dbi_stmt (the array's
 * address is the cache key), and its public functions end in write_end so a
 * failed write rolls back the open transaction. */
#ifndef DAMA_DB_INTERNAL_H
#define DAMA_DB_INTERNAL_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db.h"

enum { DB_STMT_MAX = 64 /* cached statements per connection */ };

#define NOW_SQL "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

typedef struct DbStmt {
    const char *sql; /* static text: its address is the key */
    sqlite3_stmt *st;
} DbStmt;

struct Db {
    sqlite3 *h;
    char *path;
    int busy_ms;
    bool read_only; /* db_open_readonly */
    bool created;   /* the file did not exist before this open */
    bool was_empty; /* it existed with 0 bytes (db_close_discard_new empties it again) */
    struct DbiHold *hold; /* this connection's hold on the file (NULL: in memory, or none) */
    unsigned sidecars; /* read_only: dbi_sidecars(path) before the open */
    int stmt_len;
    DbStmt stmt[DB_STMT_MAX];
    /* The last parent of a delta weight set resolved (db_weights.c): its
     * id, game, the names array it was checked against and its values.
     * Weight-set rows are never changed once stored. */
    int64_t ws_cache_id;
    const char *const *ws_cache_names;
    char ws_cache_game[16];
    int ws_cache_len;
    int32_t *ws_cache;
    /* The content hash's state after the names (db_weights.c) of the last
     * names array hashed, with its length and game. */
    const char *const *hash_names;
    int hash_len;
    char hash_game[16];
    uint64_t hash_state;
};

static inline void set_err(char err[ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void set_err(char err[ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_MAX, fmt, ap);
    va_end(ap);
}

/* Message for SQLite status rc while doing `what` (printf format), naming
 * the file; locks, full disks and I/O errors get their own words. */
void dbi_fail(const Db *db, int rc, char err[ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The cached statement for sql (static storage), prepared on first use;
 * NULL with err set. */
sqlite3_stmt *dbi_stmt(Db *db, const char *sql, char err[ERR_MAX]);

/* Step a write statement whose binds gave bind_rc; expect SQLITE_DONE.
 * Resets the statement. 0 or -1 with err. */
int dbi_step_write(Db *db, sqlite3_stmt *st, int bind_rc, char err[ERR_MAX], const char *what);
/* Run statement text once (no rows expected). */
int dbi_exec(Db *db, const char *sql, char err[ERR_MAX], const char *what);
/* One integer (0 if no row) or one text ("" if no row) from a one-row query. */
int dbi_query_int(Db *db, const char *sql, int64_t *value, char err[ERR_MAX]);
int dbi_query_text(Db *db, const char *sql, char *out, size_t size, char err[ERR_MAX]);

/* One-row records (tuning runs, matches): a binder fills a statement from
 * a struct; insert gives the new rowid, update overwrites row id (bound as
 * parameter id_param) and fails when there is no such row. */
typedef void (*RowBinder)(sqlite3_stmt *st, const void *row, int *rc);
int dbi_row_insert(Db *db, const char *sql, RowBinder bind, const void *row, int64_t *id, const char *what,
                   char err[ERR_MAX]);
int dbi_row_update(Db *db, const char *sql, RowBinder bind, const void *row, int id_param, int64_t id,
                   const char *noun, char err[ERR_MAX]);

/* Open the database file at path read-only into *h (SQLITE_OPEN_READONLY,
 * busy timeout set). SQLite reads a WAL database through its -shm file,
 * which it must be able to create: in a folder this process cannot write
 * (an archive, a read-only mount, another user's files) and with no -shm
 * there, the first read fails with SQLITE_READONLY. Then, when no write-ahead
 * log is pending (no -wal file, or an empty one: everything is in the
 * database file), the file is opened again as immutable (the URI parameter
 * immutable=1: no locks, no -shm), which reads it exactly; with a pending
 * log it cannot be read, and the message says why. 0, or -1 with err
 * naming the file (*h closed and NULL). Not safe against a writer that
 * starts while an immutable connection reads. *sidecars receives
 * dbi_sidecars(path) as it was before the open, for dbi_close_read_handle;
 * a failed open has already removed what it made. */
int dbi_open_read_handle(const char *path, int busy_ms, sqlite3 **h, unsigned *sidecars, char err[ERR_MAX]);

/* Which of the files SQLite keeps beside a WAL database exist now:
 * 1 for PATH-wal, 2 for PATH-shm. */
unsigned dbi_sidecars(const char *path);
/* The message of a failed read on a connection of dbi_open_read_handle
 * (h may be NULL), doing `what` (printf format): a damaged file or one
 * that is no SQLite file said so, as db_open says it (without `what`, which
 * may quote SQL); anything else "PATH: WHAT: SQLite's message". */
void dbi_read_fail(const char *path, sqlite3 *h, int rc, char err[ERR_MAX], const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Close a read-only handle h of path (NULL: none is open) and remove the
 * -wal and -shm files that reading made: a read-only connection opens them
 * for a WAL database but may not delete them when it closes, so a command
 * that only read (or failed to read: a corrupt file) would leave them
 * behind. When no -wal was there before (before: dbi_sidecars at the
 * open) and one is now, a read-write connection is opened and closed, and
 * SQLite's own close removes both files when it is the last connection —
 * with another connection open they stay, as they must. A file this
 * process cannot write keeps them. The database file is not changed (the
 * log is empty: a read-only connection writes none). */
void dbi_close_read_handle(sqlite3 *h, const char *path, unsigned before);

/* ---- holds (db_hold.c) --------------------------------------------------------
 * Every connection to a database file holds it (struct Db.hold): a
 * descriptor of the file with a read lock on a byte SQLite never locks
 * (an open file description lock), taken before SQLite opens the file. A
 * process removes or empties a file only under a write lock on that byte
 * (dbi_hold_sole), which it gets only when no other connection — of this
 * or another dama process — holds the file; and one that opens a file
 * waits for such a lock and then checks that the path still names the
 * file it opened (else it opens it again, made anew when it may create).
 * A connection of this process to the same file shares its hold. */
typedef struct DbiHold DbiHold;

/* Hold path for a new connection. The file is made here (O_EXCL: *made,
 * only one process makes it) when it is missing and create is set. *size:
 * its size once held (-1 unknown). NULL: no hold (missing without create,
 * or it cannot be opened: SQLite's open then says why); such a connection
 * never removes or empties the file. Thread-safe. */
DbiHold *dbi_hold(const char *path, bool create, bool *made, int64_t *size);

/* Is h the only connection to its file, in this process and every other?
 * When it is, h takes the write lock (kept until dbi_hold_release): no
 * other connection can open the file meanwhile. NULL: false. */
bool dbi_hold_sole(DbiHold *h);

/* Empty the file of a sole hold (after its connection closed). 0, or -1
 * (not sole, or the descriptor is read-only: the caller empties it by
 * path). */
int dbi_hold_truncate(DbiHold *h);

/* Drop one connection's share of h (after SQLite closed it; NULL: no-op).
 * Its descriptor is closed once no connection of this process uses the
 * file: closing a descriptor releases this process's POSIX locks on the
 * file, SQLite's among them. */
void dbi_hold_release(DbiHold *h);

/* Remove a database file with its -wal and -shm files (our own scratch or
 * just-created files; errors ignored). */
void dbi_remove_files(const char *path);

/* db_weights_hash of the stored text (game, comma-joined terms, comma-joined
 * values). */
void dbi_hash_text(const char *game, const char *terms, const char *values, char out[DB_HASH_HEX]);

/* The calling process as a run owner: host name (truncated, never empty:
 * "?" when unknown) and the start time of process pid in clock ticks since
 * boot (field 22 of /proc/PID/stat, proc(5)); -1 when unknown. */
enum { DBI_HOST_MAX = 256 };
void dbi_hostname(char host[DBI_HOST_MAX]);
int dbi_process_start(int pid, int64_t *start);
/* The same, and *state (may be NULL) the process state letter (field 3:
 * 'R', 'S', ..., 'Z' for a zombie: ended, its parent has not reaped it). */
int dbi_process_state(int pid, int64_t *start, char *state);

/* ---- owners (db_runs.c) ----------------------------------------------------
 * A table whose rows have one writer: runs, trains, spsa_runs (columns
 * status, owner_pid, owner_host, owner_start, owner_since). */
typedef struct DbiOwned {
    const char *noun;        /* "run", "train", "SPSA run": in messages */
    const char *what;        /* "run", "train", "spsa": `dama db release FILE WHAT:ID` */
    const char *sql_owner;   /* SELECT status, owner_pid, owner_host, owner_start, owner_since ... WHERE id = ?1 */
    const char *sql_take;    /* UPDATE: status 'running', the owner ?2 ?3 ?4, owner_since now, WHERE id = ?1 */
    const char *sql_release; /* UPDATE: status 'interrupted', finished now, WHERE id = ?1 AND status = 'running' */
    const char *sql_running; /* SELECT id, owner_pid, owner_start FROM ... WHERE status = 'running' AND owner_host = ?1 */
} DbiOwned;
extern const DbiOwned DBI_OWNED_RUNS, DBI_OWNED_TRAINS, DBI_OWNED_SPSA;

/* Is a row's owner alive, as a claim sees it: a process of this host with
 * pid (and start time, when known: has_start), or any owner on another
 * host. An unknown owner (host or pid NULL) is not. *me (may be NULL) is
 * set when the owner is the calling process. */
bool dbi_owner_alive(const char *host, int64_t pid, int64_t start, bool has_start, bool *me);

/* Take row id of table t for the calling process (a transaction is open):
 * DB_BUSY with err and c->owner when its status is 'running' and its owner
 * is alive and another process; else 'running' with this owner, c->status
 * its status before. 0, DB_BUSY, or -1 with err (no such row). */
int dbi_claim_row(Db *db, const DbiOwned *t, int64_t id, DbClaim *c, char err[ERR_MAX]);

/* Is row id of t 'running' with a live owner other than this process?
 * DB_BUSY with err saying who (the claim's refusal), 0 when not, -1 with
 * err (no such row). */
int dbi_row_busy(Db *db, const DbiOwned *t, int64_t id, char err[ERR_MAX]);

/* Mark 'interrupted' the rows of t left 'running' by dead owners of this
 * host (at most 64 a call). */
int dbi_sweep_dead(Db *db, const DbiOwned *t, char err[ERR_MAX]);

/* Binders: do nothing once *rc holds an error, so a chain is checked once. */
static inline void bind_i64(sqlite3_stmt *st, int i, int64_t v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = sqlite3_bind_int64(st, i, v);
}

/* An id of 0 binds NULL. */
static inline void bind_id(sqlite3_stmt *st, int i, int64_t v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = v ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);
}

/* NaN binds NULL. */
static inline void bind_real(sqlite3_stmt *st, int i, double v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = isnan(v) ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, v);
}

/* NULL binds NULL; the text must live until the statement is reset. */
static inline void bind_text(sqlite3_stmt *st, int i, const char *s, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

/* Forget a statement's state. sqlite3_reset repeats the last step's error,
 * which the caller has already reported; clear_bindings always succeeds. */
static inline void stmt_done(sqlite3_stmt *st)
{
    (void)sqlite3_reset(st);
    (void)sqlite3_clear_bindings(st);
}

static inline char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Every public write ends here: a failed write rolls back any open
 * transaction, the caller's included, so the store is never left with half
 * of something. */
static inline int write_end(Db *db, int rc)
{
    if (rc != 0)
        db_rollback(db);
    return rc;
}

/* Join a transaction already open, or open one of our own. */
static inline int tx_enter(Db *db, bool *own, char err[ERR_MAX])
{
    *own = !db_in_transaction(db);
    return *own ? db_begin(db, err) : 0;
}

#endif
