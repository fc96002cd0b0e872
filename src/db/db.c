/* db.c — the SQLite store; see db.h for the contracts and schema.sql for the
 * tables. Statements are prepared once per connection (lazily) and reset
 * after each use; every SQLite call's status is checked. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, stat, even under strict -std=c11 */

#include "db/db.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "schema_sql.h"

/* ---- migrations ---------------------------------------------------------- */

/* Step n brings the schema from version n-1 to n. Append, never edit. */
typedef struct Migration {
    int version;
    const char *what;
    const char *sql;
} Migration;

static const Migration migrations[] = {
    {1, "create the schema (schema.sql)", schema_sql},
};
_Static_assert(sizeof migrations / sizeof migrations[0] == DB_SCHEMA_VERSION,
               "one migration step per schema version");

/* ---- cached statements ---------------------------------------------------- */

typedef enum StmtId {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_RUN_INSERT,
    ST_RUN_FINISH,
    ST_RUN_FIND,
    ST_RUN_GET,
    ST_WS_INSERT,
    ST_WS_LOAD,
    ST_GAME_INSERT,
    ST_POS_INSERT,
    ST_GAME_INDICES,
    ST_TUNING_INSERT,
    ST_TUNING_UPDATE,
    ST_EPOCH_INSERT,
    ST_MATCH_INSERT,
    ST_MATCH_UPDATE,
    ST_COUNT
} StmtId;

#define NOW_SQL "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_RUN_INSERT] = "INSERT INTO runs(kind, game, status, seed, config, note) "
                      "VALUES(?1, ?2, 'running', ?3, ?4, ?5)",
    [ST_RUN_FINISH] = "UPDATE runs SET status = ?2, finished = CASE WHEN ?2 = 'running' "
                      "THEN NULL ELSE " NOW_SQL " END WHERE id = ?1",
    [ST_RUN_FIND] = "SELECT id, status FROM runs WHERE kind = ?1 AND game = ?2 AND seed = ?3 "
                    "AND config IS ?4 ORDER BY id DESC LIMIT 1",
    [ST_RUN_GET] = "SELECT kind, game, status, seed, config, note, created, finished "
                   "FROM runs WHERE id = ?1",
    [ST_WS_INSERT] = "INSERT INTO weight_sets(game, name, parent_id, how, run_id, terms, weights) "
                     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [ST_WS_LOAD] = "SELECT game, terms, weights FROM weight_sets WHERE id = ?1",
    [ST_GAME_INSERT] = "INSERT INTO games(run_id, game_index, game, opening, start_fen, white_ws, "
                       "black_ws, seed, result, reason, plies, movetext) "
                       "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    [ST_POS_INSERT] = "INSERT INTO positions(game_id, ply, fen, stm, score, result, quiet) "
                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [ST_GAME_INDICES] = "SELECT game_index FROM games WHERE run_id = ?1",
    [ST_TUNING_INSERT] = "INSERT INTO tuning_runs(run_id, game, base_ws, result_ws, k, "
                         "positions_train, positions_valid, train_loss, valid_loss, data) "
                         "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    [ST_TUNING_UPDATE] = "UPDATE tuning_runs SET run_id = ?1, game = ?2, base_ws = ?3, "
                         "result_ws = ?4, k = ?5, positions_train = ?6, positions_valid = ?7, "
                         "train_loss = ?8, valid_loss = ?9, data = ?10 WHERE id = ?11",
    [ST_EPOCH_INSERT] = "INSERT INTO tuning_epochs(tuning_run_id, epoch, train_loss, valid_loss) "
                        "VALUES(?1, ?2, ?3, ?4)",
    [ST_MATCH_INSERT] = "INSERT INTO matches(run_id, game, ws_a, ws_b, games, wins, draws, losses, "
                        "penta0, penta1, penta2, penta3, penta4, elo, elo_lo, elo_hi, llr, "
                        "sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, sprt_result) "
                        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                        "?16, ?17, ?18, ?19, ?20, ?21, ?22)",
    [ST_MATCH_UPDATE] = "UPDATE matches SET run_id = ?1, game = ?2, ws_a = ?3, ws_b = ?4, "
                        "games = ?5, wins = ?6, draws = ?7, losses = ?8, penta0 = ?9, "
                        "penta1 = ?10, penta2 = ?11, penta3 = ?12, penta4 = ?13, elo = ?14, "
                        "elo_lo = ?15, elo_hi = ?16, llr = ?17, sprt_elo0 = ?18, "
                        "sprt_elo1 = ?19, sprt_alpha = ?20, sprt_beta = ?21, "
                        "sprt_result = ?22 WHERE id = ?23",
};

struct Db {
    sqlite3 *h;
    char *path;
    int busy_ms;
    sqlite3_stmt *stmt[ST_COUNT];
};

/* ---- errors --------------------------------------------------------------- */

static void set_err(char err[ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_err(char err[ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_MAX, fmt, ap);
    va_end(ap);
}

/* Message for SQLite status rc while doing `what` (printf format). */
static void fail(const Db *db, int rc, char err[ERR_MAX], const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(const Db *db, int rc, char err[ERR_MAX], const char *fmt, ...)
{
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *msg = db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        set_err(err, "%s: %s: database is locked by another writer (waited %d ms)", db->path, what,
                db->busy_ms);
        break;
    case SQLITE_FULL:
        set_err(err, "%s: %s: disk full or size limit reached (%s)", db->path, what, msg);
        break;
    case SQLITE_IOERR:
        set_err(err, "%s: %s: I/O error (%s)", db->path, what, msg);
        break;
    case SQLITE_NOTADB:
        set_err(err, "%s: not a dama database (not an SQLite file)", db->path);
        break;
    default:
        set_err(err, "%s: %s: %s", db->path, what, msg);
        break;
    }
}

/* ---- small helpers -------------------------------------------------------- */

/* Binders: do nothing once *rc holds an error, so a chain is checked once. */
static void bind_i64(sqlite3_stmt *st, int i, int64_t v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = sqlite3_bind_int64(st, i, v);
}

static void bind_id(sqlite3_stmt *st, int i, int64_t v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = v ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = isnan(v) ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, v);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

/* Forget a statement's state. sqlite3_reset repeats the last step's error,
 * which the caller has already reported; clear_bindings always succeeds. */
static void stmt_done(sqlite3_stmt *st)
{
    (void)sqlite3_reset(st);
    (void)sqlite3_clear_bindings(st);
}

/* The cached statement id, prepared on first use; NULL with err set. */
static sqlite3_stmt *stmt_get(Db *db, StmtId id, char err[ERR_MAX])
{
    if (!db->stmt[id]) {
        int rc = sqlite3_prepare_v3(db->h, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
                                    &db->stmt[id], NULL);
        if (rc != SQLITE_OK) {
            fail(db, rc, err, "preparing \"%.60s\"", stmt_sql[id]);
            db->stmt[id] = NULL;
            return NULL;
        }
    }
    return db->stmt[id];
}

/* Step a write statement whose binds gave bind_rc; expect SQLITE_DONE. */
static int step_write(Db *db, sqlite3_stmt *st, int bind_rc, char err[ERR_MAX], const char *what)
{
    int rc = bind_rc == SQLITE_OK ? sqlite3_step(st) : bind_rc;
    int out = 0;
    if (rc != SQLITE_DONE) {
        fail(db, rc, err, "%s", what);
        out = -1;
    }
    stmt_done(st);
    return out;
}

/* Run statement text once (no rows expected). */
static int exec_sql(Db *db, const char *sql, char err[ERR_MAX], const char *what)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_IOERR
            || (rc & 0xff) == SQLITE_NOTADB || !msg)
            fail(db, rc, err, "%s", what);
        else
            set_err(err, "%s: %s: %s", db->path, what, msg);
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* One integer from a one-row query (a PRAGMA). */
static int query_int(Db *db, const char *sql, int64_t *value, char err[ERR_MAX])
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *value = sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            *value = 0;
            rc = SQLITE_OK;
        }
    }
    if (rc != SQLITE_OK)
        fail(db, rc, err, "reading %s", sql);
    (void)sqlite3_finalize(st); /* its error, if any, was just reported */
    return rc == SQLITE_OK ? 0 : -1;
}

/* One text from a one-row query, into out. */
static int query_text(Db *db, const char *sql, char *out, size_t size, char err[ERR_MAX])
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    out[0] = '\0';
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const unsigned char *t = sqlite3_column_text(st, 0);
            snprintf(out, size, "%s", t ? (const char *)t : "");
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            rc = SQLITE_OK;
        }
    }
    if (rc != SQLITE_OK)
        fail(db, rc, err, "running %s", sql);
    (void)sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : -1;
}

static char *dup_str(const char *s)
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
static int write_end(Db *db, int rc)
{
    if (rc != 0)
        db_rollback(db);
    return rc;
}

/* Join a transaction already open, or open one of our own. */
static int tx_enter(Db *db, bool *own, char err[ERR_MAX])
{
    *own = !db_in_transaction(db);
    return *own ? db_begin(db, err) : 0;
}

/* ---- opening -------------------------------------------------------------- */

/* Classify the file before SQLite touches it: 0 missing, 1 empty, 2 SQLite
 * header, -1 error (message set). */
static int probe_file(const char *path, char err[ERR_MAX])
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT)
            return 0;
        set_err(err, "%s: cannot open database: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(sb.st_mode)) {
        set_err(err, "%s: not a dama database (not a regular file)", path);
        return -1;
    }
    if (sb.st_size == 0)
        return 1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, "%s: cannot open database: %s", path, strerror(errno));
        return -1;
    }
    static const char magic[16] = "SQLite format 3";
    char head[16];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n != sizeof head || memcmp(head, magic, sizeof magic) != 0) {
        set_err(err, "%s: not a dama database (not an SQLite file)", path);
        return -1;
    }
    return 2;
}

/* Refuse foreign or too new files; *version receives user_version. */
static int check_identity(Db *db, int64_t *version, char err[ERR_MAX])
{
    int64_t app = 0, objects = 0;
    if (query_int(db, "PRAGMA application_id", &app, err) != 0
        || query_int(db, "PRAGMA user_version", version, err) != 0
        || query_int(db, "SELECT count(*) FROM sqlite_master", &objects, err) != 0)
        return -1;
    if (app == DB_APPLICATION_ID) {
        if (*version > DB_SCHEMA_VERSION) {
            set_err(err,
                    "%s: database schema version %" PRId64 " is newer than this dama knows "
                    "(%d); use a newer dama",
                    db->path, *version, DB_SCHEMA_VERSION);
            return -1;
        }
        return 0;
    }
    if (app != 0) {
        set_err(err,
                "%s: not a dama database (SQLite application_id 0x%08" PRIX32 ", dama's is 0x%08X)",
                db->path, (uint32_t)app, (unsigned)DB_APPLICATION_ID);
        return -1;
    }
    if (objects > 0 || *version != 0) {
        set_err(err,
                "%s: not a dama database (an SQLite database with %" PRId64
                " schema objects and no dama application_id)",
                db->path, objects);
        return -1;
    }
    return 0;
}

/* Apply the migration steps after the current version, in one transaction. */
static int migrate(Db *db, char err[ERR_MAX])
{
    if (db_begin(db, err) != 0)
        return -1;
    int64_t version = 0;
    /* Re-check under the write lock: another process may have migrated. */
    if (check_identity(db, &version, err) != 0)
        goto fail;
    for (size_t i = 0; i < sizeof migrations / sizeof migrations[0]; i++) {
        const Migration *m = &migrations[i];
        if (m->version <= version)
            continue;
        char what[96], sql[96];
        snprintf(what, sizeof what, "migrating to schema version %d (%s)", m->version, m->what);
        if (exec_sql(db, m->sql, err, what) != 0)
            goto fail;
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
                 m->version, DB_APPLICATION_ID);
        if (exec_sql(db, sql, err, what) != 0)
            goto fail;
    }
    return db_commit(db, err);
fail:
    db_rollback(db);
    return -1;
}

int db_open(const char *path, bool create, Db **out, char err[ERR_MAX])
{
    *out = NULL;
    if (!path) {
        set_err(err, "no database path given");
        return -1;
    }
    bool memory = path[0] == '\0' || strcmp(path, ":memory:") == 0;
    if (!memory) {
        int kind = probe_file(path, err);
        if (kind < 0)
            return -1;
        if (kind == 0 && !create) {
            set_err(err, "%s: no such database file", path);
            return -1;
        }
    }

    Db *db = calloc(1, sizeof *db);
    if (!db || !(db->path = dup_str(path))) {
        free(db);
        set_err(err, "%s: out of memory", path);
        return -1;
    }
    db->busy_ms = DB_BUSY_TIMEOUT_MS;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    int rc = sqlite3_open_v2(path, &db->h, flags, NULL);
    if (rc != SQLITE_OK) {
        fail(db, rc, err, "opening");
        goto fail;
    }
    rc = sqlite3_extended_result_codes(db->h, 1);
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(db->h, db->busy_ms);
    if (rc != SQLITE_OK) {
        fail(db, rc, err, "configuring the connection");
        goto fail;
    }

    int64_t version = 0;
    if (check_identity(db, &version, err) != 0)
        goto fail;
    if (!memory) {
        char mode[16];
        if (query_text(db, "PRAGMA journal_mode = WAL", mode, sizeof mode, err) != 0)
            goto fail;
        if (strcmp(mode, "wal") != 0) {
            set_err(err,
                    "%s: cannot use WAL mode (journal mode stays '%s'; a network file system?)",
                    path, mode);
            goto fail;
        }
    }
    if (exec_sql(db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", err,
                 "configuring the connection")
        != 0)
        goto fail;
    if (version < DB_SCHEMA_VERSION && migrate(db, err) != 0)
        goto fail;
    *out = db;
    return 0;
fail:
    db_close(db);
    return -1;
}

void db_close(Db *db)
{
    if (!db)
        return;
    if (db->h) {
        db_rollback(db);
        for (int i = 0; i < ST_COUNT; i++)
            (void)sqlite3_finalize(db->stmt[i]); /* errors were reported by the step */
        /* close_v2 cannot fail with finalized statements; it checkpoints the WAL */
        (void)sqlite3_close_v2(db->h);
    }
    free(db->path);
    free(db);
}

const char *db_path(const Db *db)
{
    return db->path;
}

int db_set_busy_timeout(Db *db, int ms, char err[ERR_MAX])
{
    if (ms < 0) {
        set_err(err, "busy timeout %d ms: must not be negative", ms);
        return -1;
    }
    int rc = sqlite3_busy_timeout(db->h, ms);
    if (rc != SQLITE_OK) {
        fail(db, rc, err, "setting the busy timeout");
        return -1;
    }
    db->busy_ms = ms;
    return 0;
}

int db_set_size_limit(Db *db, int64_t bytes, char err[ERR_MAX])
{
    int64_t page = 0, pages = 0;
    if (query_int(db, "PRAGMA page_size", &page, err) != 0)
        return -1;
    if (bytes <= 0 || page <= 0) {
        set_err(err, "%s: size limit %" PRId64 " bytes: must be positive", db->path, bytes);
        return -1;
    }
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %" PRId64,
             bytes / page > 0 ? bytes / page : 1);
    return query_int(db, sql, &pages, err);
}

/* ---- transactions --------------------------------------------------------- */

static int run_stmt(Db *db, StmtId id, char err[ERR_MAX], const char *what)
{
    sqlite3_stmt *st = stmt_get(db, id, err);
    if (!st)
        return -1;
    return step_write(db, st, SQLITE_OK, err, what);
}

int db_begin(Db *db, char err[ERR_MAX])
{
    if (db_in_transaction(db)) {
        set_err(err, "%s: beginning a transaction: one is already open", db->path);
        return -1;
    }
    return run_stmt(db, ST_BEGIN, err, "beginning a write transaction");
}

int db_commit(Db *db, char err[ERR_MAX])
{
    if (run_stmt(db, ST_COMMIT, err, "committing") != 0) {
        db_rollback(db);
        return -1;
    }
    return 0;
}

void db_rollback(Db *db)
{
    if (!db || !db_in_transaction(db))
        return; /* SQLite may already have rolled back after FULL/IOERR/BUSY */
    for (int i = 0; i < ST_COUNT; i++)
        if (db->stmt[i])
            stmt_done(db->stmt[i]);
    char ignored[ERR_MAX];
    if (run_stmt(db, ST_ROLLBACK, ignored, "rolling back") != 0)
        /* Last resort: uncached; a failed ROLLBACK leaves nothing to do. */
        (void)sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

bool db_in_transaction(const Db *db)
{
    return sqlite3_get_autocommit(db->h) == 0;
}

/* ---- runs ----------------------------------------------------------------- */

static bool valid_status(const char *s)
{
    return s && (!strcmp(s, "running") || !strcmp(s, "done") || !strcmp(s, "interrupted"));
}

static int run_create(Db *db, const char *kind, const char *game, uint64_t seed,
                      const char *config_text, const char *note, int64_t *run_id, char err[ERR_MAX])
{
    if (!kind || (strcmp(kind, "selfplay") && strcmp(kind, "tune") && strcmp(kind, "match"))) {
        set_err(err, "run kind '%s': must be selfplay, tune or match", kind ? kind : "(null)");
        return -1;
    }
    if (!game) {
        set_err(err, "creating a %s run: no game given", kind);
        return -1;
    }
    sqlite3_stmt *st = stmt_get(db, ST_RUN_INSERT, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, kind, &rc);
    bind_text(st, 2, game, &rc);
    bind_i64(st, 3, (int64_t)seed, &rc);
    bind_text(st, 4, config_text, &rc);
    bind_text(st, 5, note, &rc);
    if (step_write(db, st, rc, err, "creating a run") != 0)
        return -1;
    *run_id = sqlite3_last_insert_rowid(db->h);
    return 0;
}

int db_run_create(Db *db, const char *kind, const char *game, uint64_t seed,
                  const char *config_text, const char *note, int64_t *run_id, char err[ERR_MAX])
{
    return write_end(db, run_create(db, kind, game, seed, config_text, note, run_id, err));
}

static int run_finish(Db *db, int64_t run_id, const char *status, char err[ERR_MAX])
{
    if (!valid_status(status)) {
        set_err(err, "run status '%s': must be running, done or interrupted",
                status ? status : "(null)");
        return -1;
    }
    sqlite3_stmt *st = stmt_get(db, ST_RUN_FINISH, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, run_id, &rc);
    bind_text(st, 2, status, &rc);
    char what[64];
    snprintf(what, sizeof what, "setting run %" PRId64 " to %s", run_id, status);
    if (step_write(db, st, rc, err, what) != 0)
        return -1;
    if (sqlite3_changes(db->h) != 1) {
        set_err(err, "%s: %s: no such run", db->path, what);
        return -1;
    }
    return 0;
}

int db_run_finish(Db *db, int64_t run_id, const char *status, char err[ERR_MAX])
{
    return write_end(db, run_finish(db, run_id, status, err));
}

int db_run_find(Db *db, const char *kind, const char *game, uint64_t seed, const char *config_text,
                int64_t *run_id, char status[DB_STATUS_MAX], char err[ERR_MAX])
{
    *run_id = 0;
    if (status)
        status[0] = '\0';
    sqlite3_stmt *st = stmt_get(db, ST_RUN_FIND, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, kind, &rc);
    bind_text(st, 2, game, &rc);
    bind_i64(st, 3, (int64_t)seed, &rc);
    bind_text(st, 4, config_text, &rc);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *run_id = sqlite3_column_int64(st, 0);
        const unsigned char *s = sqlite3_column_text(st, 1);
        if (status)
            snprintf(status, DB_STATUS_MAX, "%s", s ? (const char *)s : "");
        rc = SQLITE_DONE;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        fail(db, rc, err, "looking up a %s run", kind ? kind : "(null)");
        out = -1;
    }
    stmt_done(st);
    return out;
}

int db_run_get(Db *db, int64_t run_id, DbRun *run, char err[ERR_MAX])
{
    memset(run, 0, sizeof *run);
    sqlite3_stmt *st = stmt_get(db, ST_RUN_GET, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int out = 0;
    if (rc == SQLITE_ROW) {
        char **fields[] = {&run->kind,   &run->game, &run->status,  NULL,
                           &run->config, &run->note, &run->created, &run->finished};
        for (int i = 0; i < 8; i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            if (fields[i] && t && !(*fields[i] = dup_str((const char *)t))) {
                set_err(err, "%s: reading run %" PRId64 ": out of memory", db->path, run_id);
                out = -1;
            }
        }
        run->seed = (uint64_t)sqlite3_column_int64(st, 3);
        run->id = run_id;
    } else if (rc == SQLITE_DONE) {
        set_err(err, "%s: run %" PRId64 " not found", db->path, run_id);
        out = -1;
    } else {
        fail(db, rc, err, "reading run %" PRId64, run_id);
        out = -1;
    }
    stmt_done(st);
    if (out != 0)
        db_run_clear(run);
    return out;
}

void db_run_clear(DbRun *run)
{
    if (!run)
        return;
    free(run->kind);
    free(run->game);
    free(run->status);
    free(run->config);
    free(run->note);
    free(run->created);
    free(run->finished);
    memset(run, 0, sizeof *run);
}

/* ---- weight sets ---------------------------------------------------------- */

static bool valid_weight_name(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (*s == ',' || *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            return false;
    return true;
}

static int weights_insert(Db *db, const char *game, const char *name, int64_t parent_id,
                          const char *how, int64_t run_id, const char *const *names,
                          const int32_t *weights, int len, int64_t *id, char err[ERR_MAX])
{
    if (!game || !how || len <= 0) {
        set_err(err,
                "storing weight set '%s': game, lineage (how) and at least one weight are "
                "required",
                name ? name : "");
        return -1;
    }
    size_t names_size = 1;
    for (int i = 0; i < len; i++) {
        if (!valid_weight_name(names[i])) {
            set_err(err,
                    "storing weight set '%s': weight %d has name '%s' (empty, or with a "
                    "comma or space)",
                    name ? name : "", i, names[i] ? names[i] : "(null)");
            return -1;
        }
        names_size += strlen(names[i]) + 1;
    }
    size_t values_size = (size_t)len * 12 + 1; /* "-2147483648," is 12 bytes */
    char *terms = malloc(names_size), *values = malloc(values_size);
    if (!terms || !values) {
        free(terms);
        free(values);
        set_err(err, "storing weight set '%s': out of memory", name ? name : "");
        return -1;
    }
    size_t tp = 0, vp = 0;
    for (int i = 0; i < len; i++) {
        size_t n = strlen(names[i]);
        if (i)
            terms[tp++] = ',';
        memcpy(terms + tp, names[i], n);
        tp += n;
        vp += (size_t)snprintf(values + vp, values_size - vp, i ? ",%" PRId32 : "%" PRId32,
                               weights[i]);
    }
    terms[tp] = '\0';

    int out = -1;
    sqlite3_stmt *st = stmt_get(db, ST_WS_INSERT, err);
    if (st) {
        int rc = SQLITE_OK;
        bind_text(st, 1, game, &rc);
        bind_text(st, 2, name, &rc);
        bind_id(st, 3, parent_id, &rc);
        bind_text(st, 4, how, &rc);
        bind_id(st, 5, run_id, &rc);
        bind_text(st, 6, terms, &rc);
        bind_text(st, 7, values, &rc);
        out = step_write(db, st, rc, err, "storing a weight set");
        if (out == 0)
            *id = sqlite3_last_insert_rowid(db->h);
    }
    free(terms);
    free(values);
    return out;
}

int db_weights_insert(Db *db, const char *game, const char *name, int64_t parent_id,
                      const char *how, int64_t run_id, const char *const *names,
                      const int32_t *weights, int len, int64_t *id, char err[ERR_MAX])
{
    return write_end(
        db, weights_insert(db, game, name, parent_id, how, run_id, names, weights, len, id, err));
}

/* Parse "v0,v1,..." strictly into out[len]; -1 with message on error. */
static int parse_weights(const Db *db, int64_t id, const char *text, int32_t *out, int len,
                         char err[ERR_MAX])
{
    const char *p = text;
    for (int i = 0; i < len; i++) {
        const char *start = p;
        bool neg = *p == '-';
        if (neg)
            p++;
        int64_t v = 0;
        const char *digits = p;
        while (*p >= '0' && *p <= '9' && p - digits < 11)
            v = v * 10 + (*p++ - '0');
        if (neg)
            v = -v;
        bool ok =
            p > digits && v >= INT32_MIN && v <= INT32_MAX && (*p == (i + 1 < len ? ',' : '\0'));
        if (!ok) {
            int n = (int)strcspn(start, ",");
            if (*p == '\0' && i + 1 < len && p > digits)
                set_err(err, "%s: weight set %" PRId64 ": only %d weight values for %d names",
                        db->path, id, i + 1, len);
            else
                set_err(err,
                        "%s: weight set %" PRId64 ": weight value %d '%.*s' is not a decimal "
                        "int32 (or more values than names)",
                        db->path, id, i, n > 40 ? 40 : n, start);
            return -1;
        }
        out[i] = (int32_t)v;
        if (*p == ',')
            p++;
    }
    return 0;
}

int db_weights_load(Db *db, int64_t id, const char *game, const char *const *names,
                    int32_t *weights, int len, char err[ERR_MAX])
{
    if (len <= 0) {
        set_err(err, "loading weight set %" PRId64 ": no weights expected", id);
        return -1;
    }
    sqlite3_stmt *st = stmt_get(db, ST_WS_LOAD, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int out = -1;
    int32_t *tmp = NULL;
    if (rc == SQLITE_DONE) {
        set_err(err, "%s: weight set %" PRId64 " not found", db->path, id);
        goto done;
    }
    if (rc != SQLITE_ROW) {
        fail(db, rc, err, "loading weight set %" PRId64, id);
        goto done;
    }
    const char *ws_game = (const char *)sqlite3_column_text(st, 0);
    const char *terms = (const char *)sqlite3_column_text(st, 1);
    const char *values = (const char *)sqlite3_column_text(st, 2);
    if (!ws_game || !terms || !values) {
        set_err(err, "%s: weight set %" PRId64 ": game, terms or weights is NULL", db->path, id);
        goto done;
    }
    if (game && strcmp(ws_game, game) != 0) {
        set_err(err, "%s: weight set %" PRId64 " is for game '%s', not '%s'", db->path, id, ws_game,
                game);
        goto done;
    }
    int stored = 1;
    for (const char *c = terms; *c; c++)
        stored += *c == ',';
    if (stored != len) {
        set_err(err,
                "%s: weight set %" PRId64 " has %d weights, but this dama's %s evaluation has %d "
                "(terms changed?)",
                db->path, id, stored, ws_game, len);
        goto done;
    }
    const char *t = terms;
    for (int i = 0; i < len; i++) {
        size_t n = strcspn(t, ",");
        if (strlen(names[i]) != n || memcmp(t, names[i], n) != 0) {
            set_err(err,
                    "%s: weight set %" PRId64 ": weight %d is '%.*s' in the database but '%s' in "
                    "this dama",
                    db->path, id, i, (int)(n > 60 ? 60 : n), t, names[i]);
            goto done;
        }
        t += n + (t[n] == ',');
    }
    tmp = malloc((size_t)len * sizeof *tmp);
    if (!tmp) {
        set_err(err, "%s: loading weight set %" PRId64 ": out of memory", db->path, id);
        goto done;
    }
    if (parse_weights(db, id, values, tmp, len, err) != 0)
        goto done;
    memcpy(weights, tmp, (size_t)len * sizeof *tmp);
    out = 0;
done:
    free(tmp);
    stmt_done(st);
    return out;
}

/* ---- games and positions -------------------------------------------------- */

static bool valid_result(const char *r)
{
    return r && (!strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2"));
}

static int insert_game_rows(Db *db, const DbGame *g, int64_t *game_id, char err[ERR_MAX])
{
    char what[96];
    snprintf(what, sizeof what, "storing game %" PRId64 " of run %" PRId64, g->game_index,
             g->run_id);
    sqlite3_stmt *st = stmt_get(db, ST_GAME_INSERT, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, g->run_id, &rc);
    bind_i64(st, 2, g->game_index, &rc);
    bind_text(st, 3, g->game, &rc);
    bind_text(st, 4, g->opening, &rc);
    bind_text(st, 5, g->start_fen, &rc);
    bind_id(st, 6, g->white_ws, &rc);
    bind_id(st, 7, g->black_ws, &rc);
    bind_i64(st, 8, (int64_t)g->seed, &rc);
    bind_text(st, 9, g->result, &rc);
    bind_text(st, 10, g->reason, &rc);
    bind_i64(st, 11, g->plies, &rc);
    bind_text(st, 12, g->movetext, &rc);
    if (step_write(db, st, rc, err, what) != 0)
        return -1;
    int64_t id = sqlite3_last_insert_rowid(db->h);

    st = stmt_get(db, ST_POS_INSERT, err);
    if (!st)
        return -1;
    for (int i = 0; i < g->positions_len; i++) {
        const DbPosition *p = &g->positions[i];
        rc = SQLITE_OK;
        bind_i64(st, 1, id, &rc);
        bind_i64(st, 2, p->ply, &rc);
        bind_text(st, 3, p->fen, &rc);
        bind_i64(st, 4, p->stm, &rc);
        if (p->has_score)
            bind_i64(st, 5, p->score, &rc);
        else if (rc == SQLITE_OK)
            rc = sqlite3_bind_null(st, 5);
        bind_real(st, 6, p->result, &rc);
        bind_i64(st, 7, p->quiet, &rc);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc != SQLITE_DONE) {
            fail(db, rc, err, "%s: position %d (ply %d)", what, i, p->ply);
            stmt_done(st);
            return -1;
        }
        (void)sqlite3_reset(st); /* after SQLITE_DONE: returns SQLITE_OK */
    }
    (void)sqlite3_clear_bindings(st);
    if (game_id)
        *game_id = id;
    return 0;
}

int db_game_insert(Db *db, const DbGame *g, int64_t *game_id, char err[ERR_MAX])
{
    const char *bad = !g->game                                ? "no game name"
                      : g->result && !valid_result(g->result) ? "result must be 1-0, 0-1 or 1/2-1/2"
                      : g->positions_len < 0 || (g->positions_len > 0 && !g->positions)
                          ? "bad position list"
                          : NULL;
    if (bad) {
        set_err(err, "storing game %" PRId64 " of run %" PRId64 ": %s", g->game_index, g->run_id,
                bad);
        return -1;
    }
    for (int i = 0; i < g->positions_len; i++) {
        if (!g->positions[i].fen) {
            set_err(err, "storing game %" PRId64 " of run %" PRId64 ": position %d has no FEN",
                    g->game_index, g->run_id, i);
            return -1;
        }
    }
    bool own;
    if (tx_enter(db, &own, err) != 0)
        return -1;
    if (write_end(db, insert_game_rows(db, g, game_id, err)) != 0)
        return -1;
    return own ? db_commit(db, err) : 0;
}

int db_run_game_indices(Db *db, int64_t run_id, bool *done, int64_t len, int64_t *stored,
                        char err[ERR_MAX])
{
    for (int64_t i = 0; i < len; i++)
        done[i] = false;
    if (stored)
        *stored = 0;
    sqlite3_stmt *st = stmt_get(db, ST_GAME_INDICES, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    int64_t count = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(st, 0);
        if (i >= 0 && i < len && !done[i]) {
            done[i] = true;
            count++;
        }
        rc = SQLITE_OK;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        fail(db, rc, err, "reading the stored games of run %" PRId64, run_id);
        out = -1;
    } else if (stored) {
        *stored = count;
    }
    stmt_done(st);
    return out;
}

/* Prepare a one-statement, read-only query built from a caller's filter. */
static int prepare_filtered(Db *db, const char *sql, const char *filter, sqlite3_stmt **st,
                            char err[ERR_MAX])
{
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, st, &tail);
    if (rc != SQLITE_OK) {
        set_err(err, "%s: filter '%.80s': %s", db->path, filter, sqlite3_errmsg(db->h));
        return -1;
    }
    while (tail && (*tail == ' ' || *tail == '\n' || *tail == '\t'))
        tail++;
    if ((tail && *tail) || !sqlite3_stmt_readonly(*st)) {
        set_err(err, "%s: filter '%.80s': must be one read-only SQL condition", db->path, filter);
        (void)sqlite3_finalize(*st);
        *st = NULL;
        return -1;
    }
    return 0;
}

static char *filtered_sql(const char *head, const char *filter, const char *order)
{
    const char *f = filter && *filter ? filter : "1";
    size_t n = strlen(head) + strlen(f) + strlen(order) + 8;
    char *sql = malloc(n);
    if (sql)
        snprintf(sql, n, "%s (%s) %s", head, f, order);
    return sql;
}

static bool is_int_or_null(sqlite3_stmt *st, int col)
{
    int t = sqlite3_column_type(st, col);
    return t == SQLITE_INTEGER || t == SQLITE_NULL;
}

int db_positions_each(Db *db, const char *game, const char *filter_sql,
                      int (*fn)(void *ctx, const DbPosition *p), void *ctx, char err[ERR_MAX])
{
    char *sql = filtered_sql("SELECT p.id, p.game_id, p.ply, p.fen, p.stm, p.score, p.result, "
                             "p.quiet FROM positions p JOIN games g ON g.id = p.game_id "
                             "WHERE (?1 IS NULL OR g.game = ?1) AND",
                             filter_sql, "ORDER BY p.id");
    if (!sql) {
        set_err(err, "%s: reading positions: out of memory", db->path);
        return -1;
    }
    sqlite3_stmt *st = NULL;
    int out = prepare_filtered(db, sql, filter_sql ? filter_sql : "", &st, err);
    free(sql);
    if (out != 0)
        return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        DbPosition p;
        p.id = sqlite3_column_int64(st, 0);
        p.game_id = sqlite3_column_int64(st, 1);
        p.ply = sqlite3_column_int(st, 2);
        p.fen = (const char *)sqlite3_column_text(st, 3);
        int64_t stm = sqlite3_column_int64(st, 4);
        p.stm = (int)stm;
        p.has_score = sqlite3_column_type(st, 5) != SQLITE_NULL;
        int64_t score = sqlite3_column_int64(st, 5);
        p.score = (int)score;
        int rtype = sqlite3_column_type(st, 6);
        p.result = rtype == SQLITE_NULL ? NAN : sqlite3_column_double(st, 6);
        p.quiet = sqlite3_column_int(st, 7) != 0;
        const char *bad = NULL;
        if (!p.fen)
            bad = "fen is NULL";
        else if (!is_int_or_null(st, 2))
            bad = "ply is not an integer";
        else if (sqlite3_column_type(st, 4) != SQLITE_INTEGER || (stm != 0 && stm != 1))
            bad = "stm is not 0 or 1";
        else if (!is_int_or_null(st, 5) || score < INT32_MIN || score > INT32_MAX)
            bad = "score is not an int32";
        else if (rtype != SQLITE_NULL && rtype != SQLITE_FLOAT && rtype != SQLITE_INTEGER)
            bad = "result is not a number";
        else if (!is_int_or_null(st, 7))
            bad = "quiet is not an integer";
        if (bad) {
            set_err(err, "%s: position %" PRId64 " (game %" PRId64 "): %s", db->path, p.id,
                    p.game_id, bad);
            out = -1;
            break;
        }
        int stop = fn(ctx, &p);
        if (stop != 0) {
            out = stop;
            break;
        }
        rc = SQLITE_OK;
    }
    if (out == 0 && rc != SQLITE_DONE) {
        fail(db, rc, err, "reading positions");
        out = -1;
    }
    (void)sqlite3_finalize(st); /* any error was reported above */
    return out;
}

int db_games_each(Db *db, const char *filter_sql,
                  int (*fn)(void *ctx, int64_t game_id, const DbGame *g), void *ctx,
                  char err[ERR_MAX])
{
    char *sql = filtered_sql("SELECT g.id, g.run_id, g.game_index, g.game, g.opening, g.start_fen, "
                             "g.white_ws, g.black_ws, g.seed, g.result, g.reason, g.plies, "
                             "g.movetext FROM games g WHERE",
                             filter_sql, "ORDER BY g.id");
    if (!sql) {
        set_err(err, "%s: reading games: out of memory", db->path);
        return -1;
    }
    sqlite3_stmt *st = NULL;
    int out = prepare_filtered(db, sql, filter_sql ? filter_sql : "", &st, err);
    free(sql);
    if (out != 0)
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        DbGame g = {0};
        int64_t id = sqlite3_column_int64(st, 0);
        g.run_id = sqlite3_column_int64(st, 1);
        g.game_index = sqlite3_column_int64(st, 2);
        g.game = (const char *)sqlite3_column_text(st, 3);
        g.opening = (const char *)sqlite3_column_text(st, 4);
        g.start_fen = (const char *)sqlite3_column_text(st, 5);
        g.white_ws = sqlite3_column_int64(st, 6);
        g.black_ws = sqlite3_column_int64(st, 7);
        g.seed = (uint64_t)sqlite3_column_int64(st, 8);
        g.result = (const char *)sqlite3_column_text(st, 9);
        g.reason = (const char *)sqlite3_column_text(st, 10);
        g.plies = sqlite3_column_int(st, 11);
        g.movetext = (const char *)sqlite3_column_text(st, 12);
        if (!is_int_or_null(st, 11) || !is_int_or_null(st, 8)) {
            set_err(err, "%s: game %" PRId64 ": plies or seed is not an integer", db->path, id);
            out = -1;
            break;
        }
        int stop = fn(ctx, id, &g);
        if (stop != 0) {
            out = stop;
            break;
        }
    }
    if (out == 0 && rc != SQLITE_DONE) {
        fail(db, rc, err, "reading games");
        out = -1;
    }
    (void)sqlite3_finalize(st);
    return out;
}

/* ---- one-row records (tuning runs, matches) --------------------------------- */

typedef void (*RowBinder)(sqlite3_stmt *st, const void *row, int *rc);

/* Insert a record with statement s; *id receives its rowid. */
static int row_insert(Db *db, StmtId s, RowBinder bind, const void *row, int64_t *id, const char *what,
                      char err[ERR_MAX])
{
    sqlite3_stmt *st = stmt_get(db, s, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind(st, row, &rc);
    if (step_write(db, st, rc, err, what) != 0)
        return -1;
    *id = sqlite3_last_insert_rowid(db->h);
    return 0;
}

/* Overwrite record id with statement s, whose parameter id_param is the id. */
static int row_update(Db *db, StmtId s, RowBinder bind, const void *row, int id_param, int64_t id,
                      const char *noun, char err[ERR_MAX])
{
    sqlite3_stmt *st = stmt_get(db, s, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind(st, row, &rc);
    bind_i64(st, id_param, id, &rc);
    char what[64];
    snprintf(what, sizeof what, "updating %s %" PRId64, noun, id);
    if (step_write(db, st, rc, err, what) != 0)
        return -1;
    if (sqlite3_changes(db->h) != 1) {
        set_err(err, "%s: %s: no such %s", db->path, what, noun);
        return -1;
    }
    return 0;
}

/* ---- tuning runs and matches ---------------------------------------------- */

static void bind_tuning(sqlite3_stmt *st, const void *row, int *rc)
{
    const DbTuning *t = row;
    bind_id(st, 1, t->run_id, rc);
    bind_text(st, 2, t->game, rc);
    bind_id(st, 3, t->base_ws, rc);
    bind_id(st, 4, t->result_ws, rc);
    bind_real(st, 5, t->k, rc);
    bind_i64(st, 6, t->positions_train, rc);
    bind_i64(st, 7, t->positions_valid, rc);
    bind_real(st, 8, t->train_loss, rc);
    bind_real(st, 9, t->valid_loss, rc);
    bind_text(st, 10, t->data, rc);
}

int db_tuning_insert(Db *db, const DbTuning *t, int64_t *id, char err[ERR_MAX])
{
    return write_end(db, row_insert(db, ST_TUNING_INSERT, bind_tuning, t, id, "storing a tuning run", err));
}

int db_tuning_update(Db *db, int64_t id, const DbTuning *t, char err[ERR_MAX])
{
    return write_end(db, row_update(db, ST_TUNING_UPDATE, bind_tuning, t, 11, id, "tuning run", err));
}

static int tuning_epoch_insert(Db *db, int64_t tuning_run_id, int epoch, double train_loss,
                               double valid_loss, char err[ERR_MAX])
{
    sqlite3_stmt *st = stmt_get(db, ST_EPOCH_INSERT, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, tuning_run_id, &rc);
    bind_i64(st, 2, epoch, &rc);
    bind_real(st, 3, train_loss, &rc);
    bind_real(st, 4, valid_loss, &rc);
    char what[80];
    snprintf(what, sizeof what, "storing epoch %d of tuning run %" PRId64, epoch, tuning_run_id);
    return step_write(db, st, rc, err, what);
}

int db_tuning_epoch_insert(Db *db, int64_t tuning_run_id, int epoch, double train_loss,
                           double valid_loss, char err[ERR_MAX])
{
    return write_end(db,
                     tuning_epoch_insert(db, tuning_run_id, epoch, train_loss, valid_loss, err));
}

static void bind_match(sqlite3_stmt *st, const void *row, int *rc)
{
    const DbMatch *m = row;
    bind_id(st, 1, m->run_id, rc);
    bind_text(st, 2, m->game, rc);
    bind_id(st, 3, m->ws_a, rc);
    bind_id(st, 4, m->ws_b, rc);
    bind_i64(st, 5, m->games, rc);
    bind_i64(st, 6, m->wins, rc);
    bind_i64(st, 7, m->draws, rc);
    bind_i64(st, 8, m->losses, rc);
    for (int i = 0; i < 5; i++)
        bind_i64(st, 9 + i, m->penta[i], rc);
    bind_real(st, 14, m->elo, rc);
    bind_real(st, 15, m->elo_lo, rc);
    bind_real(st, 16, m->elo_hi, rc);
    bind_real(st, 17, m->llr, rc);
    bind_real(st, 18, m->sprt_elo0, rc);
    bind_real(st, 19, m->sprt_elo1, rc);
    bind_real(st, 20, m->sprt_alpha, rc);
    bind_real(st, 21, m->sprt_beta, rc);
    bind_text(st, 22, m->sprt_result, rc);
}

int db_match_insert(Db *db, const DbMatch *m, int64_t *id, char err[ERR_MAX])
{
    return write_end(db, row_insert(db, ST_MATCH_INSERT, bind_match, m, id, "storing a match", err));
}

int db_match_update(Db *db, int64_t id, const DbMatch *m, char err[ERR_MAX])
{
    return write_end(db, row_update(db, ST_MATCH_UPDATE, bind_match, m, 23, id, "match", err));
}

/* ---- benchmark ------------------------------------------------------------ */

static void remove_db_files(const char *path)
{
    char side[4096];
    (void)remove(path); /* cleanup of our own scratch files: nothing to report */
    snprintf(side, sizeof side, "%s-wal", path);
    (void)remove(side);
    snprintf(side, sizeof side, "%s-shm", path);
    (void)remove(side);
}

int db_bench_insert(const char *path, int positions, double *positions_per_s, char err[ERR_MAX])
{
    enum { PLIES = 80 };
    *positions_per_s = 0;
    if (positions <= 0) {
        set_err(err, "database bench: positions must be positive, not %d", positions);
        return -1;
    }
    struct stat sb;
    if (stat(path, &sb) == 0) {
        set_err(err, "%s: database bench: the file exists; give a new path", path);
        return -1;
    }
    Db *db = NULL;
    if (db_open(path, true, &db, err) != 0) {
        remove_db_files(path); /* it did not exist: whatever is there is ours */
        return -1;
    }
    int out = -1;
    int64_t run_id = 0;
    DbPosition pos[PLIES];
    char fen_local[PLIES][96];
    if (db_run_create(db, "selfplay", "russian", 1, "bench", NULL, &run_id, err) != 0)
        goto done;
    /* Synthetic Russian-draughts FENs of realistic length (~70 bytes). */
    for (int i = 0; i < PLIES; i++) {
        snprintf(fen_local[i], sizeof fen_local[i],
                 "%c:W%d,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,%d,12",
                 i % 2 ? 'B' : 'W', 13 + i % 8, 11 + i % 9);
        pos[i] = (DbPosition){.ply = i,
                              .fen = fen_local[i],
                              .stm = i % 2,
                              .score = i * 7 - 200,
                              .has_score = i % 5 != 0,
                              .result = 0.5,
                              .quiet = i % 3 != 0};
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int stored = 0;
    for (int64_t game = 0; stored < positions; game++) {
        int len = positions - stored < PLIES ? positions - stored : PLIES;
        DbGame g = {.run_id = run_id,
                    .game_index = game,
                    .game = "russian",
                    .opening = "bench",
                    .seed = (uint64_t)game,
                    .result = "1/2-1/2",
                    .reason = "move-cap",
                    .plies = len,
                    .movetext = "1. cd4 fe5 *",
                    .positions = pos,
                    .positions_len = len};
        if (db_begin(db, err) != 0 || db_game_insert(db, &g, NULL, err) != 0
            || db_commit(db, err) != 0) {
            db_rollback(db);
            goto done;
        }
        stored += len;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    *positions_per_s = s > 0 ? positions / s : 0;
    out = 0;
done:
    db_close(db);
    remove_db_files(path);
    return out;
}

/* ---- weight set look-ups ---------------------------------------------------- */

int db_weights_info(Db *db, int64_t id, DbWeightsInfo *info, char err[ERR_MAX])
{
    memset(info, 0, sizeof *info);
    static const char sql[] =
        "SELECT w.game, w.name, w.how, w.created, w.parent_id, w.run_id, t.k, t.valid_loss, "
        "t.positions_train + t.positions_valid FROM weight_sets w "
        "LEFT JOIN tuning_runs t ON t.result_ws = w.id WHERE w.id = ?1 ORDER BY t.id DESC LIMIT 1";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 1, id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int out = 0;
    if (rc == SQLITE_ROW) {
        char **fields[] = {&info->game, &info->name, &info->how, &info->created};
        for (int i = 0; i < 4; i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            if (t && !(*fields[i] = dup_str((const char *)t))) {
                set_err(err, "%s: reading weight set %" PRId64 ": out of memory", db->path, id);
                out = -1;
            }
        }
        info->id = id;
        info->parent_id = sqlite3_column_int64(st, 4);
        info->run_id = sqlite3_column_int64(st, 5);
        info->tuned = sqlite3_column_type(st, 6) != SQLITE_NULL;
        info->k = sqlite3_column_double(st, 6);
        info->valid_loss = sqlite3_column_double(st, 7);
        info->positions = sqlite3_column_int64(st, 8);
    } else if (rc == SQLITE_DONE) {
        set_err(err, "%s: weight set %" PRId64 " not found", db->path, id);
        out = -1;
    } else {
        fail(db, rc, err, "reading weight set %" PRId64, id);
        out = -1;
    }
    sqlite3_finalize(st);
    if (out != 0)
        db_weights_info_clear(info);
    return out;
}

void db_weights_info_clear(DbWeightsInfo *info)
{
    if (!info)
        return;
    free(info->game);
    free(info->name);
    free(info->how);
    free(info->created);
    memset(info, 0, sizeof *info);
}

int db_weights_by_run(Db *db, int64_t run_id, int64_t *ids, int max, int *len, char err[ERR_MAX])
{
    *len = 0;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "SELECT id FROM weight_sets WHERE run_id = ?1 ORDER BY id", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 1, run_id);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*len < max)
            ids[(*len)++] = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        fail(db, rc, err, "reading the weight sets of run %" PRId64, run_id);
        return -1;
    }
    return 0;
}

int db_weights_newest(Db *db, const char *game, const char *how_prefix, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h,
                                "SELECT id FROM weight_sets WHERE game = ?1 AND substr(how, 1, length(?2)) = ?2 "
                                "ORDER BY id DESC LIMIT 1",
                                -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 2, how_prefix, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        fail(db, rc, err, "looking up weight sets");
        return -1;
    }
    return 0;
}
