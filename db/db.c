/* db.c — the SQLite store's connection: opening, identity checks,
 * migrations, transactions and the helpers the table files share
 * (db_internal.h). Each table family has its own file (db_runs.c,
 * db_weights.c, db_games.c, db_tuning.c, db_matches.c, db_bench.c); see db.h
 * for the contracts and schema.sql for the tables. Statements are prepared
 * once per connection (lazily) and reset after each use; every SQLite call's
 * status is checked. */
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
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/db_internal.h"
#include "migrations_sql.h"
#include "schema_sql.h"
#include "util/text.h"

/* ---- migrations ---------------------------------------------------------- */

/* Step n brings the schema from version n-1 to n: db/migrations/NNN_*.sql,
 * embedded at build time (migrations_sql.h; the file says what the step
 * adds and why). A new database is made from schema.sql, the current schema,
 * at once. Append a step (and change schema.sql the same way), never edit
 * one. Step 3 calls dama_weights_hash, registered on every connection. */
typedef struct Migration {
    int version;
    const char *what;
    const char *sql;
} Migration;

static const Migration migrations[] = {
    {2, "SPSA runs and iterations", migration_002_spsa_sql},
    {3, "run owners, weight-set hashes, run members", migration_003_runs_weights_sql},
    {4, "matches: the SPRT's deciding LLR", migration_004_sprt_decision_sql},
    {5, "tournaments and participants", migration_005_tournaments_sql},
    {6, "trains and generations", migration_006_train_sql},
    {7, "runs of kind 'tournament'", migration_007_tournament_runs_sql},
    {8, "tournaments: the PDN output file", migration_008_tournament_pdn_sql},
    {9, "weight sets stored as deltas of their parent", migration_009_weight_deltas_sql},
    {10, "owners of trains and SPSA runs, and since when", migration_010_run_owners_sql},
    {11, "games: the time each side used", migration_011_time_used_sql},
};
_Static_assert(sizeof migrations / sizeof migrations[0] == DB_SCHEMA_VERSION - 1,
               "one migration step per schema version after the first");

/* ---- cached statements ---------------------------------------------------- */

static const char SQL_BEGIN[] = "BEGIN IMMEDIATE";
static const char SQL_COMMIT[] = "COMMIT";
static const char SQL_ROLLBACK[] = "ROLLBACK";

sqlite3_stmt *dbi_stmt(Db *db, const char *sql, char err[ERR_MAX])
{
    for (int i = 0; i < db->stmt_len; i++)
        if (db->stmt[i].sql == sql)
            return db->stmt[i].st;
    if (db->stmt_len == DB_STMT_MAX) {
        set_err(err, "%s: more than %d cached statements (raise DB_STMT_MAX)", db->path, DB_STMT_MAX);
        return NULL;
    }
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "preparing \"%.60s\"", sql);
        return NULL;
    }
    db->stmt[db->stmt_len++] = (DbStmt){.sql = sql, .st = st};
    return st;
}

/* ---- errors and statement helpers ------------------------------------------ */

/* Message for SQLite status rc while doing `what` (printf format). */
void dbi_fail(const Db *db, int rc, char err[ERR_MAX], const char *fmt, ...)
{
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *msg = db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);
    struct statvfs fs;
    int code = rc & 0xff;
    if ((code == SQLITE_CANTOPEN || code == SQLITE_READONLY || code == SQLITE_IOERR) &&
        ((db->h && sqlite3_system_errno(db->h) == EROFS) ||
         (db->path && statvfs(db->path, &fs) == 0 && (fs.f_flag & ST_RDONLY)))) {
        /* SQLite says "unable to open database file" (its -wal and -shm cannot be made) */
        set_err(err, "%s: %s: cannot write the database: its file system is mounted read-only", db->path, what);
        return;
    }
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
        /* a full disk can come as an I/O error (the -shm file or a page
         * that could not be written): say so */
        if (db->h && (sqlite3_system_errno(db->h) == ENOSPC || sqlite3_system_errno(db->h) == EDQUOT))
            set_err(err, "%s: %s: disk full (%s: %s)", db->path, what, msg, strerror(sqlite3_system_errno(db->h)));
        else
            set_err(err, "%s: %s: I/O error (%s)", db->path, what, msg);
        break;
    case SQLITE_NOTADB:
        set_err(err, "%s: not a dama database (not an SQLite file)", db->path);
        break;
    case SQLITE_CORRUPT: /* a damaged file: no step (what may quote SQL) helps the user */
        set_err(err, "%s: not a readable dama database: %s", db->path, msg);
        break;
    case SQLITE_READONLY:
        set_err(err,
                "%s: %s: cannot write the database: no write permission on the file, or on its folder "
                "(where SQLite keeps %s-wal and %s-shm)",
                db->path, what, db->path, db->path);
        break;
    default:
        set_err(err, "%s: %s: %s", db->path, what, msg);
        break;
    }
}
/* Step a write statement whose binds gave bind_rc; expect SQLITE_DONE. */
int dbi_step_write(Db *db, sqlite3_stmt *st, int bind_rc, char err[ERR_MAX], const char *what)
{
    int rc = bind_rc == SQLITE_OK ? sqlite3_step(st) : bind_rc;
    int out = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "%s", what);
        out = -1;
    }
    stmt_done(st);
    return out;
}

/* Run statement text once (no rows expected). */
int dbi_exec(Db *db, const char *sql, char err[ERR_MAX], const char *what)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_IOERR
            || (rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT || !msg)
            dbi_fail(db, rc, err, "%s", what);
        else
            set_err(err, "%s: %s: %s", db->path, what, msg);
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* One integer from a one-row query (a PRAGMA). */
int dbi_query_int(Db *db, const char *sql, int64_t *value, char err[ERR_MAX])
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
        dbi_fail(db, rc, err, "reading %s", sql);
    (void)sqlite3_finalize(st); /* its error, if any, was just reported */
    return rc == SQLITE_OK ? 0 : -1;
}

static int query_text(Db *db, const char *sql, const char *what, char *out, size_t size, char err[ERR_MAX]);

/* One text from a one-row query, into out. */
int dbi_query_text(Db *db, const char *sql, char *out, size_t size, char err[ERR_MAX])
{
    return query_text(db, sql, NULL, out, size, err);
}

/* dbi_query_text whose failure is said as `what` (NULL: "running SQL"). */
static int query_text(Db *db, const char *sql, const char *what, char *out, size_t size, char err[ERR_MAX])
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
    if (rc != SQLITE_OK && what) dbi_fail(db, rc, err, "%s", what);
    else if (rc != SQLITE_OK) dbi_fail(db, rc, err, "running %s", sql);
    (void)sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : -1;
}

/* ---- opening -------------------------------------------------------------- */

/* Classify the file before SQLite touches it: 0 missing, 1 empty, 2 a
 * non-empty regular file (SQLite checks its header), -1 error (message set). */
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
    /* The SQLite header is checked by SQLite itself (SQLITE_NOTADB, "not an
     * SQLite file"), never by opening the file here: closing any descriptor
     * of the file drops every POSIX lock this process holds on it, including
     * the SHARED lock of another open connection, so another process could
     * then checkpoint and delete the write-ahead log under it. */
    return 2;
}

/* The message of a file that is an SQLite database but not dama's: another
 * application's id, or none. */
static int foreign_error(const char *path, int64_t app, int64_t objects, char err[ERR_MAX])
{
    if (app != 0)
        set_err(err, "%s: not a dama database (SQLite application_id 0x%08" PRIX32 ", dama's is 0x%08X)", path,
                (uint32_t)app, (unsigned)DB_APPLICATION_ID);
    else
        set_err(err, "%s: not a dama database (an SQLite database with %" PRId64 " schema object%s and no dama "
                "application_id)", path, objects, TEXT_PLURAL(objects));
    return -1;
}

/* Refuse foreign or too new files; *version receives user_version. */
static int check_identity(Db *db, int64_t *version, char err[ERR_MAX])
{
    /* one statement, so one snapshot: another process may be creating the
     * schema of a new file meanwhile */
    int64_t app = 0, objects = 0;
    char text[96] = "";
    if (query_text(db, "SELECT (SELECT application_id FROM pragma_application_id) || ' ' || "
                       "(SELECT user_version FROM pragma_user_version) || ' ' || "
                       "(SELECT count(*) FROM sqlite_master)", "reading its identity", text, sizeof text, err) != 0)
        return -1;
    long long a = 0, v = 0, n = 0;
    if (sscanf(text, "%lld %lld %lld", &a, &v, &n) != 3) {
        set_err(err, "%s: reading its identity: '%.40s'", db->path, text);
        return -1;
    }
    app = a, *version = v, objects = n;
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
    if (app != 0 || objects > 0 || *version != 0) return foreign_error(db->path, app, objects, err);
    return 0;
}

static int migrate_steps(Db *db, char err[ERR_MAX]);

/* Create the schema (version 0: a new database) or apply the migration
 * steps after the current version, in one transaction, with foreign keys off (a step may rebuild a table that others reference:
 * the pragma cannot change inside a transaction) and checked before the
 * commit. */
static int migrate(Db *db, char err[ERR_MAX])
{
    if (dbi_exec(db, "PRAGMA foreign_keys = OFF", err, "migrating") != 0)
        return -1;
    int rc = migrate_steps(db, err);
    char err2[ERR_MAX];
    if (dbi_exec(db, "PRAGMA foreign_keys = ON", err2, "migrating") != 0 && rc == 0) {
        memcpy(err, err2, ERR_MAX);
        rc = -1;
    }
    return rc;
}

/* Run sql, which brings the schema to version `to` (`what` names it for a
 * message), and set that version: inside migrate_steps' transaction. */
static int apply_sql(Db *db, const char *sql, int to, const char *what, char err[ERR_MAX])
{
    char pragmas[96];
    if (dbi_exec(db, sql, err, what) != 0)
        return -1;
    snprintf(pragmas, sizeof pragmas, "PRAGMA user_version = %d; PRAGMA application_id = %d", to, DB_APPLICATION_ID);
    return dbi_exec(db, pragmas, err, what);
}

static int migrate_steps(Db *db, char err[ERR_MAX])
{
    if (db_begin(db, err) != 0)
        return -1;
    int64_t version = 0;
    /* Re-check under the write lock: another process may have migrated. */
    if (check_identity(db, &version, err) != 0)
        goto fail;
    char what[128];
    snprintf(what, sizeof what, "creating schema version %d (schema.sql)", DB_SCHEMA_VERSION);
    if (version == 0 && apply_sql(db, schema_sql, DB_SCHEMA_VERSION, what, err) != 0)
        goto fail;
    for (size_t i = 0; version > 0 && i < sizeof migrations / sizeof migrations[0]; i++) {
        const Migration *m = &migrations[i];
        snprintf(what, sizeof what, "migrating to schema version %d (%s)", m->version, m->what);
        if (m->version > version && apply_sql(db, m->sql, m->version, what, err) != 0)
            goto fail;
    }
    int64_t broken = 0;
    if (dbi_query_int(db, "SELECT count(*) FROM pragma_foreign_key_check", &broken, err) != 0)
        goto fail;
    if (broken) {
        set_err(err, "%s: migrating to schema version %d: %" PRId64 " rows break a foreign key", db->path,
                DB_SCHEMA_VERSION, broken);
        goto fail;
    }
    return db_commit(db, err);
fail:
    db_rollback(db);
    return -1;
}

/* dama_weights_hash(game, terms, weights): db_weights_hash of stored text. */
static void sql_weights_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *game = (const char *)sqlite3_value_text(argv[0]);
    const char *terms = (const char *)sqlite3_value_text(argv[1]);
    const char *values = (const char *)sqlite3_value_text(argv[2]);
    if (!game || !terms || !values) {
        sqlite3_result_null(ctx);
        return;
    }
    char hex[DB_HASH_HEX];
    dbi_hash_text(game, terms, values, hex);
    sqlite3_result_text(ctx, hex, -1, SQLITE_TRANSIENT);
}

static void remove_side_files(const char *path)
{
    char side[4096];
    snprintf(side, sizeof side, "%s-wal", path);
    (void)remove(side);
    snprintf(side, sizeof side, "%s-shm", path);
    (void)remove(side);
}

void dbi_remove_files(const char *path)
{
    (void)remove(path); /* our own files: nothing to report */
    remove_side_files(path);
}

/* Mark 'interrupted' the runs, trains and SPSA runs of this host left
 * 'running' by dead owners. */
static int sweep_dead_runs(Db *db, char err[ERR_MAX])
{
    const DbiOwned *tables[] = {&DBI_OWNED_RUNS, &DBI_OWNED_TRAINS, &DBI_OWNED_SPSA};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (dbi_sweep_dead(db, tables[i], err) != 0) return -1;
    return 0;
}

/* The folder of path ("." for a bare file name). */
static void parent_dir(const char *path, char *dir, size_t size)
{
    snprintf(dir, size, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, size, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
}

/* Why a database file cannot be made at path when its folder is the cause
 * (SQLite says only "unable to open database file"): the folder is missing,
 * not a folder, or not writable. Writes err and returns true then. */
static bool folder_unusable(const char *path, char err[ERR_MAX])
{
    struct stat st;
    if (stat(path, &st) == 0 || errno != ENOENT) return false; /* the file is there: not the folder's doing */
    char dir[4096];
    parent_dir(path, dir, sizeof dir);
    if (stat(dir, &st) != 0) {
        set_err(err, "%s: cannot create the database: folder '%.300s' %s", path, dir,
                errno == ENOENT ? "does not exist" : strerror(errno));
        return true;
    }
    if (!S_ISDIR(st.st_mode)) {
        set_err(err, "%s: cannot create the database: '%.300s' is not a folder", path, dir);
        return true;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        set_err(err, "%s: cannot create the database in folder '%.300s': %s", path, dir, strerror(errno));
        return true;
    }
    return false;
}

/* file:PATH?immutable=1 with PATH percent-encoded (RFC 3986 unreserved
 * characters and '/' kept); -1 if it does not fit. */
static int immutable_uri(const char *path, char *out, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    const char *head = "file:";
    for (const char *c = head; *c; c++) {
        if (n + 1 >= size) return -1;
        out[n++] = *c;
    }
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                     strchr("-._~/", *c) != NULL;
        if (n + (plain ? 1 : 3) >= size) return -1;
        if (plain) {
            out[n++] = (char)*c;
        } else {
            out[n++] = '%';
            out[n++] = hex[*c >> 4];
            out[n++] = hex[*c & 15];
        }
    }
    const char *tail = "?immutable=1";
    for (const char *c = tail; *c; c++) {
        if (n + 1 >= size) return -1;
        out[n++] = *c;
    }
    out[n] = '\0';
    return 0;
}

unsigned dbi_sidecars(const char *path)
{
    char side[4096];
    unsigned present = 0;
    snprintf(side, sizeof side, "%s-wal", path);
    if (access(side, F_OK) == 0) present |= 1;
    snprintf(side, sizeof side, "%s-shm", path);
    if (access(side, F_OK) == 0) present |= 2;
    return present;
}

void dbi_close_read_handle(sqlite3 *h, const char *path, unsigned before)
{
    if (h) (void)sqlite3_close_v2(h);
    if ((before & 1) || !(dbi_sidecars(path) & ~before) || access(path, W_OK) != 0) return;
    sqlite3 *w = NULL;
    if (sqlite3_open_v2(path, &w, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
        (void)sqlite3_exec(w, "PRAGMA user_version", NULL, NULL, NULL); /* opens the log; errors: nothing to do */
    (void)sqlite3_close_v2(w); /* the last connection checkpoints (an empty log) and removes -wal and -shm */
}

void dbi_read_fail(const char *path, sqlite3 *h, int rc, char err[ERR_MAX], const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *msg = h ? sqlite3_errmsg(h) : sqlite3_errstr(rc);
    if ((rc & 0xff) == SQLITE_CORRUPT) set_err(err, "%s: not a readable dama database: %s", path, msg);
    else if ((rc & 0xff) == SQLITE_NOTADB) set_err(err, "%s: not a dama database (not an SQLite file)", path);
    else set_err(err, "%s: %s: %s", path, what, msg);
}

int db_check(const char *path, int64_t *problems, char *first, size_t first_size, char err[ERR_MAX])
{
    *problems = 0;
    if (first_size) first[0] = '\0';
    struct stat sb;
    if (stat(path, &sb) != 0) {
        set_err(err, "%s: cannot check: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISREG(sb.st_mode) && sb.st_size == 0) { /* SQLite reads it as a sound empty database: no dama schema */
        set_err(err, "%s: not a dama database (an empty file)", path);
        return -1;
    }
    sqlite3 *h = NULL;
    unsigned sidecars = 0;
    if (dbi_open_read_handle(path, DB_BUSY_TIMEOUT_MS, &h, &sidecars, err) != 0) return -1;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA integrity_check(%d)", (int)DB_CHECK_MAX);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            const char *text = (const char *)sqlite3_column_text(st, 0);
            if (!text || strcmp(text, "ok") == 0) continue;
            /* a row may hold several problems, a line each (one tree's), after a
             * "*** in database main ***" head: the lines are counted */
            for (const char *line = text; *line;) {
                size_t len = strcspn(line, "\n");
                if (len > 0 && strncmp(line, "*** in database ", 16) != 0) {
                    if (*problems == 0 && first_size) snprintf(first, first_size, "%.*s", (int)len, line);
                    ++*problems;
                }
                line += len + (line[len] == '\n');
            }
        }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
    int frc = sqlite3_finalize(st);
    if (rc == SQLITE_OK) rc = frc;
    /* a sound file of another application (or an empty SQLite database) is no sound dama database */
    int64_t app = 0, objects = 0;
    st = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(h, "SELECT (SELECT application_id FROM pragma_application_id), "
                                   "(SELECT count(*) FROM sqlite_master)", -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        app = sqlite3_column_int64(st, 0);
        objects = sqlite3_column_int64(st, 1);
        rc = SQLITE_OK;
    }
    frc = sqlite3_finalize(st);
    if (rc == SQLITE_OK) rc = frc;
    bool foreign = false;
    if (rc != SQLITE_OK) dbi_read_fail(path, h, rc, err, "checking the file");
    else if (app != DB_APPLICATION_ID) foreign = foreign_error(path, app, objects, err) != 0;
    dbi_close_read_handle(h, path, sidecars);
    return rc == SQLITE_OK && !foreign ? 0 : -1;
}

/* The message of a read-only open that failed with rc: a damaged file
 * said so, anything else as SQLite says it. */
static void read_open_error(const char *path, sqlite3 *h, int rc, char err[ERR_MAX])
{
    const char *msg = h ? sqlite3_errmsg(h) : sqlite3_errstr(rc);
    if ((rc & 0xff) == SQLITE_CORRUPT) set_err(err, "%s: not a readable dama database: %s", path, msg);
    else set_err(err, "%s: cannot open read-only: %s", path, msg);
}

int dbi_open_read_handle(const char *path, int busy_ms, sqlite3 **h, unsigned *sidecars, char err[ERR_MAX])
{
    *h = NULL;
    *sidecars = 0;
    if (probe_file(path, err) < 0) /* a directory or device: said as every other command says it */
        return -1;
    unsigned before = *sidecars = dbi_sidecars(path);
    int rc = sqlite3_open_v2(path, h, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_busy_timeout(*h, busy_ms);
    if (rc == SQLITE_OK) rc = sqlite3_exec(*h, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    if (rc == SQLITE_OK) return 0;
    if ((rc & 0xff) == SQLITE_NOTADB) {
        set_err(err, "%s: not a dama database (not an SQLite file)", path);
        dbi_close_read_handle(*h, path, before);
        *h = NULL;
        return -1;
    }
    /* SQLITE_READONLY without a -wal file, SQLITE_CANTOPEN with one */
    char dir[4096];
    parent_dir(path, dir, sizeof dir);
    if (((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN) || access(dir, W_OK) == 0) {
        read_open_error(path, *h, rc, err);
        dbi_close_read_handle(*h, path, before);
        *h = NULL;
        return -1;
    }
    sqlite3_close(*h);
    *h = NULL;
    char side[4096];
    struct stat sb;
    snprintf(side, sizeof side, "%s-wal", path);
    if (stat(side, &sb) == 0 && sb.st_size > 0) {
        set_err(err,
                "%s: cannot read: its write-ahead log %s is pending and this process cannot create %s-shm "
                "(no write permission on the folder); open it once where it can be written",
                path, side, path);
        return -1;
    }
    char uri[3 * 4096 + 32];
    if (immutable_uri(path, uri, sizeof uri) != 0) {
        set_err(err, "%s: path too long", path);
        return -1;
    }
    rc = sqlite3_open_v2(uri, h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(*h, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        read_open_error(path, *h, rc, err);
        sqlite3_close(*h);
        *h = NULL;
        return -1;
    }
    return 0;
}

/* PRAGMA journal_mode = WAL, its answer into jmode. Two processes that
 * open a new file at once both convert it, and each attempt holds a shared
 * lock while it waits for the other's to go: with the busy timeout they
 * wait for each other until it runs out. So each attempt does not wait,
 * and a busy one is tried again after a pause (doubling from a few
 * milliseconds, at most 50), for as long as the busy timeout. */
static int set_wal(Db *db, char *jmode, size_t size, char err[ERR_MAX])
{
    int rc = sqlite3_busy_timeout(db->h, 0);
    long pause_us = 1000 + (long)(getpid() % 7) * 500, waited_us = 0;
    sqlite3_stmt *st = NULL;
    while (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db->h, "PRAGMA journal_mode = WAL", -1, &st, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const unsigned char *t = sqlite3_column_text(st, 0);
            snprintf(jmode, size, "%s", t ? (const char *)t : "");
            rc = SQLITE_OK;
            break;
        }
        (void)sqlite3_finalize(st);
        st = NULL;
        if ((rc & 0xff) != SQLITE_BUSY || waited_us >= (long)db->busy_ms * 1000) break;
        struct timespec ts = {pause_us / 1000000, (pause_us % 1000000) * 1000};
        nanosleep(&ts, NULL);
        waited_us += pause_us;
        pause_us = pause_us * 2 > 50000 ? 50000 : pause_us * 2;
        rc = SQLITE_OK;
    }
    (void)sqlite3_finalize(st);
    int brc = sqlite3_busy_timeout(db->h, db->busy_ms);
    if (rc == SQLITE_OK) rc = brc;
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "running PRAGMA journal_mode = WAL");
        return -1;
    }
    return 0;
}

typedef enum OpenMode { OPEN_READ, OPEN_WRITE, OPEN_CREATE } OpenMode;

static int open_db(const char *path, OpenMode mode, Db **out, char err[ERR_MAX])
{
    *out = NULL;
    if (!path) {
        set_err(err, "no database path given");
        return -1;
    }
    bool memory = path[0] == '\0' || strcmp(path, ":memory:") == 0;
    bool created = false, was_empty = false;
    if (!memory) {
        int kind = probe_file(path, err);
        if (kind < 0)
            return -1;
        if (kind == 0 && mode != OPEN_CREATE) {
            set_err(err, "%s: no such database file", path);
            return -1;
        }
        if (kind == 1 && mode == OPEN_READ) {
            set_err(err, "%s: empty file: no dama data", path);
            return -1;
        }
    } else if (mode == OPEN_READ) {
        set_err(err, "'%s': no database file to read", path);
        return -1;
    }

    Db *db = calloc(1, sizeof *db);
    if (!db || !(db->path = dup_str(path))) {
        free(db);
        set_err(err, "%s: out of memory", path);
        return -1;
    }
    db->busy_ms = DB_BUSY_TIMEOUT_MS;
    db->read_only = mode == OPEN_READ;
    if (!memory) {
        /* held before SQLite opens it: made here when missing (one process
         * makes it), never removed under another connection */
        int64_t size = -1;
        db->hold = dbi_hold(path, mode == OPEN_CREATE, &created, &size);
        if (mode == OPEN_READ && size == 0) {
            set_err(err, "%s: empty file: no dama data", path);
            goto fail;
        }
        was_empty = db->hold && !created && size == 0;
    }
    int rc;
    if (mode == OPEN_READ && !memory) {
        if (dbi_open_read_handle(path, db->busy_ms, &db->h, &db->sidecars, err) != 0) goto fail;
    } else {
        int flags = mode == OPEN_READ ? SQLITE_OPEN_READONLY
                                      : SQLITE_OPEN_READWRITE | (mode == OPEN_CREATE ? SQLITE_OPEN_CREATE : 0);
        rc = sqlite3_open_v2(path, &db->h, flags, NULL);
        if (rc != SQLITE_OK) {
            if ((rc & 0xff) != SQLITE_CANTOPEN || !folder_unusable(path, err)) dbi_fail(db, rc, err, "opening");
            goto fail;
        }
    }
    db->created = created;
    db->was_empty = was_empty;
    rc = sqlite3_extended_result_codes(db->h, 1);
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(db->h, db->busy_ms);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db->h, "dama_weights_hash", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                        sql_weights_hash, NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "configuring the connection");
        goto fail;
    }

    int64_t version = 0;
    if (check_identity(db, &version, err) != 0)
        goto fail;
    if (mode == OPEN_READ) {
        if (version == 0) {
            set_err(err, "%s: no dama data (an SQLite database without dama's schema)", path);
            goto fail;
        }
        if (dbi_exec(db, "PRAGMA foreign_keys = ON", err, "configuring the connection") != 0)
            goto fail;
        *out = db;
        return 0;
    }
    if (!memory) {
        char jmode[16];
        if (set_wal(db, jmode, sizeof jmode, err) != 0)
            goto fail;
        if (strcmp(jmode, "wal") != 0) {
            set_err(err,
                    "%s: cannot use WAL mode (journal mode stays '%s'; a network file system?)",
                    path, jmode);
            goto fail;
        }
    }
    if (dbi_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", err,
                 "configuring the connection")
        != 0)
        goto fail;
    if (version < DB_SCHEMA_VERSION && migrate(db, err) != 0)
        goto fail;
    if (sweep_dead_runs(db, err) != 0)
        goto fail;
    *out = db;
    return 0;
fail:
    db->created = created;
    db->was_empty = was_empty;
    db_close_discard_new(db);
    return -1;
}

int db_open(const char *path, bool create, Db **out, char err[ERR_MAX])
{
    return open_db(path, create ? OPEN_CREATE : OPEN_WRITE, out, err);
}

/* Open read-only and refuse an older schema: a read-only connection cannot
 * migrate it, and the older tables would be misread (or fail on a missing
 * column). `how` says how to upgrade it. */
static int open_read_current(const char *path, const char *how, Db **out, char err[ERR_MAX])
{
    if (open_db(path, OPEN_READ, out, err) != 0) return -1;
    int64_t version = 0;
    if (dbi_query_int(*out, "PRAGMA user_version", &version, err) == 0 && version >= DB_SCHEMA_VERSION) return 0;
    if (version && version < DB_SCHEMA_VERSION)
        set_err(err, "%s: database schema version %" PRId64 " is older than this dama's (%d)%s", path, version,
                DB_SCHEMA_VERSION, how);
    db_close(*out);
    *out = NULL;
    return -1;
}

int db_open_readonly(const char *path, Db **out, char err[ERR_MAX])
{
    char how[ERR_MAX];
    snprintf(how, sizeof how, ": upgrade it with 'dama db upgrade %s' (any command that writes to it also does)", path);
    return open_read_current(path, how, out, err);
}

int db_open_for_reading(const char *path, Db **out, char err[ERR_MAX])
{
    *out = NULL;
    if (!path || !*path || access(path, F_OK) != 0) return open_db(path, OPEN_WRITE, out, err);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) { /* a write would make a schema in it */
        set_err(err, "%s: empty file: no dama data", path);
        return -1;
    }
    char dir[4096];
    parent_dir(path, dir, sizeof dir);
    if (access(path, W_OK) == 0 && access(dir, W_OK) == 0) return open_db(path, OPEN_WRITE, out, err);
    return open_read_current(path, " and the file is read-only here: open it once with write permission to upgrade it",
                             out, err);
}

void db_close_discard_new(Db *db)
{
    if (!db)
        return;
    bool remove_it = db->created || db->was_empty;
    const bool empty_it = db->was_empty;
    /* Only a file no other connection has open is ours to remove: the
     * sole hold keeps new ones out until the files are gone. */
    if (remove_it && !dbi_hold_sole(db->hold))
        remove_it = false;
    if (remove_it && db->h) {
        int64_t rows = 0;
        char ignored[ERR_MAX];
        db_rollback(db);
        /* Only a database with no data is ours to remove. */
        int64_t tables = 0;
        if (dbi_query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'", &tables,
                          ignored)
            != 0)
            remove_it = false;
        else if (tables > 0
                 && (dbi_query_int(db,
                                   "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM weight_sets) "
                                   "+ (SELECT count(*) FROM games)",
                                   &rows, ignored)
                         != 0
                     || rows != 0))
            remove_it = false;
    }
    char *path = remove_it ? dup_str(db->path) : NULL;
    DbiHold *hold = db->hold;
    db->hold = NULL;
    db_close(db);
    if (path && empty_it) {
        /* an empty file given to us: empty again, its side files gone */
        if (dbi_hold_truncate(hold) != 0) {
            FILE *f = fopen(path, "wb");
            if (f)
                (void)fclose(f);
        }
        remove_side_files(path);
    } else if (path)
        dbi_remove_files(path);
    dbi_hold_release(hold);
    free(path);
}

void db_close(Db *db)
{
    if (!db)
        return;
    if (db->h) {
        db_rollback(db);
        for (int i = 0; i < db->stmt_len; i++)
            (void)sqlite3_finalize(db->stmt[i].st); /* errors were reported by the step */
        /* close_v2 cannot fail with finalized statements; it checkpoints the WAL */
        if (db->read_only) dbi_close_read_handle(db->h, db->path, db->sidecars); /* and what reading made */
        else (void)sqlite3_close_v2(db->h);
    }
    dbi_hold_release(db->hold); /* after SQLite: closing its descriptor would drop SQLite's locks */
    free(db->ws_cache);
    free(db->path);
    free(db);
}

const char *db_path(const Db *db)
{
    return db->path;
}

static int stop_poll(void *ctx) { return *(volatile int *)ctx != 0; }

void db_set_stop(Db *db, volatile int *stop)
{
    sqlite3_progress_handler(db->h, stop ? 10000 : 0, stop ? stop_poll : NULL, (void *)stop);
}

int db_set_busy_timeout(Db *db, int ms, char err[ERR_MAX])
{
    if (ms < 0) {
        set_err(err, "busy timeout %d ms: must not be negative", ms);
        return -1;
    }
    int rc = sqlite3_busy_timeout(db->h, ms);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "setting the busy timeout");
        return -1;
    }
    db->busy_ms = ms;
    return 0;
}

int db_set_size_limit(Db *db, int64_t bytes, char err[ERR_MAX])
{
    int64_t page = 0, pages = 0;
    if (dbi_query_int(db, "PRAGMA page_size", &page, err) != 0)
        return -1;
    if (bytes <= 0 || page <= 0) {
        set_err(err, "%s: size limit %" PRId64 " bytes: must be positive", db->path, bytes);
        return -1;
    }
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %" PRId64,
             bytes / page > 0 ? bytes / page : 1);
    return dbi_query_int(db, sql, &pages, err);
}

/* ---- transactions --------------------------------------------------------- */

static int run_stmt(Db *db, const char *sql, char err[ERR_MAX], const char *what)
{
    sqlite3_stmt *st = dbi_stmt(db, sql, err);
    if (!st)
        return -1;
    return dbi_step_write(db, st, SQLITE_OK, err, what);
}

int db_begin(Db *db, char err[ERR_MAX])
{
    if (db_in_transaction(db)) {
        set_err(err, "%s: beginning a transaction: one is already open", db->path);
        return -1;
    }
    return run_stmt(db, SQL_BEGIN, err, "beginning a write transaction");
}

int db_commit(Db *db, char err[ERR_MAX])
{
    if (run_stmt(db, SQL_COMMIT, err, "committing") != 0) {
        db_rollback(db);
        return -1;
    }
    return 0;
}

void db_rollback(Db *db)
{
    if (!db || !db_in_transaction(db))
        return; /* SQLite may already have rolled back after FULL/IOERR/BUSY */
    for (int i = 0; i < db->stmt_len; i++)
        stmt_done(db->stmt[i].st);
    char ignored[ERR_MAX];
    if (run_stmt(db, SQL_ROLLBACK, ignored, "rolling back") != 0)
        /* Last resort: uncached; a failed ROLLBACK leaves nothing to do. */
        (void)sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

bool db_in_transaction(const Db *db)
{
    return sqlite3_get_autocommit(db->h) == 0;
}

/* ---- one-row records (tuning runs, matches) --------------------------------- */

int dbi_row_insert(Db *db, const char *sql, RowBinder bind, const void *row, int64_t *id, const char *what,
                      char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, sql, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind(st, row, &rc);
    if (dbi_step_write(db, st, rc, err, what) != 0)
        return -1;
    *id = sqlite3_last_insert_rowid(db->h);
    return 0;
}

int dbi_row_update(Db *db, const char *sql, RowBinder bind, const void *row, int id_param, int64_t id,
                      const char *noun, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, sql, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind(st, row, &rc);
    bind_i64(st, id_param, id, &rc);
    char what[64];
    snprintf(what, sizeof what, "updating %s %" PRId64, noun, id);
    if (dbi_step_write(db, st, rc, err, what) != 0)
        return -1;
    if (sqlite3_changes(db->h) != 1) {
        set_err(err, "%s: %s: no such %s", db->path, what, noun);
        return -1;
    }
    return 0;
}
