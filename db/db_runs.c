/* db_runs.c — the runs table: one row per selfplay, tune, match or
 * tournament invocation; and the owners of runs, trains and SPSA runs: one
 * writer a row, taken by a claim (contracts in db.h). */
#include "db/db.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/db_internal.h"

static const char SQL_RUN_INSERT[] =
    "INSERT INTO runs(kind, game, status, seed, config, note, owner_pid, owner_host, owner_start, owner_since) "
    "VALUES(?1, ?2, 'running', ?3, ?4, ?5, ?6, ?7, ?8, " NOW_SQL ")";
static const char SQL_RUN_FINISH[] =
    "UPDATE runs SET status = ?2, finished = CASE WHEN ?2 = 'running' "
    "THEN NULL ELSE " NOW_SQL " END, "
    "owner_since = CASE WHEN ?2 = 'running' AND owner_pid IS NOT ?3 THEN " NOW_SQL " ELSE owner_since END, "
    "owner_pid = CASE WHEN ?2 = 'running' THEN ?3 ELSE owner_pid END, "
    "owner_host = CASE WHEN ?2 = 'running' THEN ?4 ELSE owner_host END, "
    "owner_start = CASE WHEN ?2 = 'running' THEN ?5 ELSE owner_start END WHERE id = ?1";
static const char SQL_RUN_RELEASE[] =
    "UPDATE runs SET status = ?2, finished = CASE WHEN ?2 = 'running' THEN NULL "
    "ELSE coalesce(finished, " NOW_SQL ") END WHERE id = ?1";
static const char SQL_RUN_RUNNING_KEY[] =
    "SELECT id FROM runs WHERE kind = ?1 AND game = ?2 AND seed = ?3 AND config IS ?4 AND status = 'running' "
    "ORDER BY id DESC";
static const char SQL_RUN_DELETE[] = "DELETE FROM runs WHERE id = ?1";
static const char SQL_RUN_MEMBER[] =
    "INSERT INTO run_weight_sets(run_id, member, ws_id) VALUES(?1, ?2, ?3)";
static const char SQL_RUN_FIND[] =
    "SELECT id, status FROM runs WHERE kind = ?1 AND game = ?2 AND seed = ?3 "
    "AND config IS ?4 ORDER BY id DESC LIMIT 1";
static const char SQL_RUN_GET[] =
    "SELECT kind, game, status, seed, config, note, created, finished "
    "FROM runs WHERE id = ?1";

/* ---- owners --------------------------------------------------------------- */

void dbi_hostname(char host[DBI_HOST_MAX])
{
    if (gethostname(host, DBI_HOST_MAX) != 0 || !host[0])
        snprintf(host, DBI_HOST_MAX, "?");
    host[DBI_HOST_MAX - 1] = '\0';
}

int dbi_process_start(int pid, int64_t *start)
{
    return dbi_process_state(pid, start, NULL);
}

int dbi_process_state(int pid, int64_t *start, char *state)
{
    *start = -1;
    if (state) *state = '?';
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* pid (comm) state ppid ...: comm may hold spaces and ')', so count the
     * fields after the last ')'; starttime is field 22, the 20th after it. */
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    p++;
    if (state && p[0] == ' ' && p[1]) *state = p[1]; /* field 3 */
    for (int field = 3; field < 22; field++) {
        while (*p == ' ')
            p++;
        while (*p && *p != ' ')
            p++;
    }
    char *end = NULL;
    long long v = strtoll(p, &end, 10);
    if (end == p || v < 0)
        return -1;
    *start = v;
    return 0;
}

/* Bind the calling process as owner: pid, host, start at parameters i..i+2. */
static void bind_owner(sqlite3_stmt *st, int i, char host[DBI_HOST_MAX], int *rc)
{
    int64_t start = -1;
    dbi_hostname(host);
    bind_i64(st, i, (int64_t)getpid(), rc);
    bind_text(st, i + 1, host, rc);
    if (dbi_process_start((int)getpid(), &start) == 0)
        bind_i64(st, i + 2, start, rc);
    else if (*rc == SQLITE_OK)
        *rc = sqlite3_bind_null(st, i + 2);
}

#define OWNED_TABLE(table, noun, what)                                                                     \
    {noun, what, "SELECT status, owner_pid, owner_host, owner_start, owner_since FROM " table " WHERE id = ?1",       \
     "UPDATE " table " SET status = 'running', owner_pid = ?2, owner_host = ?3, owner_start = ?4, "                  \
     "owner_since = " NOW_SQL " WHERE id = ?1",                                                                      \
     "UPDATE " table " SET status = 'interrupted', finished = " NOW_SQL " WHERE id = ?1 AND status = 'running'",    \
     "SELECT id, owner_pid, owner_start FROM " table " WHERE status = 'running' AND owner_host = ?1 "               \
     "AND owner_pid IS NOT NULL"}
const DbiOwned DBI_OWNED_RUNS = OWNED_TABLE("runs", "run", "run");
const DbiOwned DBI_OWNED_TRAINS = OWNED_TABLE("trains", "train", "train");
const DbiOwned DBI_OWNED_SPSA = OWNED_TABLE("spsa_runs", "SPSA run", "spsa");

bool dbi_owner_alive(const char *host, int64_t pid, int64_t start, bool has_start, bool *me)
{
    if (me) *me = false;
    if (!host || pid <= 0 || pid > INT32_MAX) return false; /* unknown: stored before owners were */
    char here[DBI_HOST_MAX];
    dbi_hostname(here);
    if (strcmp(host, here) != 0) return true; /* another host: this one cannot tell */
    int64_t now_start = -1;
    char state = '?';
    bool known = dbi_process_state((int)pid, &now_start, &state) == 0;
    if (known && (state == 'Z' || state == 'X')) return false; /* ended, not yet reaped by its parent */
    if (pid == (int64_t)getpid()) {
        if (has_start && known && now_start != start) return false; /* an earlier process with this pid */
        if (me) *me = true;
        return true;
    }
    if (kill((pid_t)pid, 0) != 0 && errno != EPERM) return false;
    if (has_start && known && now_start != start) return false; /* the pid was reused by another process */
    return true;
}

static void col_copy(sqlite3_stmt *st, int i, char *out, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, size, "%s", t ? (const char *)t : "");
}

/* The refusal of a claim or a release: who holds row id, and what to do. */
static void busy_message(const Db *db, const DbiOwned *t, int64_t id, const DbOwner *o, char err[ERR_MAX])
{
    char since[DB_TIME_MAX + 8] = "";
    if (o->since[0]) snprintf(since, sizeof since, " since %s", o->since);
    if (o->here)
        set_err(err, "%s %" PRId64 " is being written by process %" PRId64 " on this host%s; one process writes it at a "
                "time: wait for that one, or stop it and run this again", t->noun, id, o->pid, since);
    else
        set_err(err, "%s %" PRId64 " is being written by process %" PRId64 " on host %.40s%s; if that process is gone, "
                "take over with: dama db release %.60s %s:%" PRId64, t->noun, id, o->pid, o->host, since, db->path,
                t->what, id);
}

/* Row id's status and owner; *alive, *me as dbi_owner_alive. 0, or -1
 * with err (no such row). */
static int read_owner(Db *db, const DbiOwned *t, int64_t id, char status[DB_STATUS_MAX], DbOwner *o, bool *alive,
                      bool *me, char err[ERR_MAX])
{
    memset(o, 0, sizeof *o);
    sqlite3_stmt *st = dbi_stmt(db, t->sql_owner, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, id, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    int out = 0;
    if (rc == SQLITE_ROW) {
        col_copy(st, 0, status, DB_STATUS_MAX);
        bool has_pid = sqlite3_column_type(st, 1) != SQLITE_NULL, has_host = sqlite3_column_type(st, 2) != SQLITE_NULL;
        o->pid = sqlite3_column_int64(st, 1);
        col_copy(st, 2, o->host, sizeof o->host);
        col_copy(st, 4, o->since, sizeof o->since);
        char here[DBI_HOST_MAX];
        dbi_hostname(here);
        o->here = strcmp(o->host, here) == 0;
        *alive = dbi_owner_alive(has_host ? o->host : NULL, has_pid ? o->pid : 0, sqlite3_column_int64(st, 3),
                                 sqlite3_column_type(st, 3) != SQLITE_NULL, me);
    } else if (rc == SQLITE_DONE) {
        set_err(err, "%s: no %s %" PRId64, db->path, t->noun, id);
        out = -1;
    } else {
        dbi_fail(db, rc, err, "reading the owner of %s %" PRId64, t->noun, id);
        out = -1;
    }
    stmt_done(st);
    return out;
}

int dbi_row_busy(Db *db, const DbiOwned *t, int64_t id, char err[ERR_MAX])
{
    bool alive = false, me = false;
    char status[DB_STATUS_MAX];
    DbOwner o;
    if (read_owner(db, t, id, status, &o, &alive, &me, err) != 0) return -1;
    if (strcmp(status, "running") != 0 || !alive || me) return 0;
    busy_message(db, t, id, &o, err);
    return DB_BUSY;
}

int dbi_claim_row(Db *db, const DbiOwned *t, int64_t id, DbClaim *c, char err[ERR_MAX])
{
    bool alive = false, me = false;
    c->id = id;
    if (read_owner(db, t, id, c->status, &c->owner, &alive, &me, err) != 0) return -1;
    if (strcmp(c->status, "running") == 0 && alive && !me) {
        busy_message(db, t, id, &c->owner, err);
        return DB_BUSY;
    }
    sqlite3_stmt *st = dbi_stmt(db, t->sql_take, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, id, &rc);
    char host[DBI_HOST_MAX];
    bind_owner(st, 2, host, &rc);
    char what[64];
    snprintf(what, sizeof what, "taking %s %" PRId64, t->noun, id);
    return dbi_step_write(db, st, rc, err, what);
}

int dbi_sweep_dead(Db *db, const DbiOwned *t, char err[ERR_MAX])
{
    char host[DBI_HOST_MAX];
    dbi_hostname(host);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, t->sql_running, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
    int64_t dead[64];
    int dead_len = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        bool has_start = sqlite3_column_type(st, 2) != SQLITE_NULL;
        if (!dbi_owner_alive(host, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), has_start, NULL) &&
            dead_len < 64)
            dead[dead_len++] = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    (void)sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "looking for %ss of dead processes", t->noun);
        return -1;
    }
    if (dead_len == 0) return 0;
    if (db_begin(db, err) != 0) return -1;
    sqlite3_stmt *up = dbi_stmt(db, t->sql_release, err);
    for (int i = 0; up && i < dead_len; i++) {
        rc = SQLITE_OK;
        bind_i64(up, 1, dead[i], &rc);
        if (dbi_step_write(db, up, rc, err, "marking a run of a dead process interrupted") != 0) up = NULL;
    }
    if (!up) {
        db_rollback(db);
        return -1;
    }
    return db_commit(db, err);
}

int db_release(Db *db, const char *what, int64_t id, DbOwner *owner, char was[DB_STATUS_MAX], char err[ERR_MAX])
{
    const DbiOwned *t = !what                       ? NULL
                      : strcmp(what, "run") == 0   ? &DBI_OWNED_RUNS
                      : strcmp(what, "train") == 0 ? &DBI_OWNED_TRAINS
                      : strcmp(what, "spsa") == 0  ? &DBI_OWNED_SPSA
                                                   : NULL;
    was[0] = '\0';
    if (!t) {
        set_err(err, "'%.40s': what to release is run, train or spsa", what ? what : "(null)");
        return -1;
    }
    DbOwner o;
    bool alive = false, me = false;
    char status[DB_STATUS_MAX];
    int rc = db_begin(db, err);
    if (rc == 0) rc = read_owner(db, t, id, status, &o, &alive, &me, err);
    if (owner && rc == 0) *owner = o;
    if (rc == 0 && strcmp(status, "running") == 0) {
        if (alive && o.here && !me) {
            set_err(err, "%s %" PRId64 " is being written by process %" PRId64 ", alive on this host: stop that "
                    "process instead (a stopped run resumes with the same command)", t->noun, id, o.pid);
            rc = DB_BUSY;
        } else {
            sqlite3_stmt *st = dbi_stmt(db, t->sql_release, err);
            int brc = SQLITE_OK;
            if (st) bind_i64(st, 1, id, &brc);
            rc = st ? dbi_step_write(db, st, brc, err, "releasing a run") : -1;
            if (rc == 0) snprintf(was, DB_STATUS_MAX, "%s", status);
        }
    }
    if (rc == 0) return db_commit(db, err);
    db_rollback(db);
    return rc;
}

/* ---- runs ----------------------------------------------------------------- */

static bool valid_status(const char *s)
{
    return s && (!strcmp(s, "running") || !strcmp(s, "done") || !strcmp(s, "interrupted"));
}

static int run_create(Db *db, const char *kind, const char *game, uint64_t seed,
                      const char *config_text, const char *note, int64_t *run_id, char err[ERR_MAX])
{
    if (!kind || (strcmp(kind, "selfplay") && strcmp(kind, "tune") && strcmp(kind, "match") &&
                  strcmp(kind, "tournament"))) {
        set_err(err, "run kind '%s': must be selfplay, tune, match or tournament", kind ? kind : "(null)");
        return -1;
    }
    if (!game) {
        set_err(err, "creating a %s run: no game given", kind);
        return -1;
    }
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_INSERT, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, kind, &rc);
    bind_text(st, 2, game, &rc);
    bind_i64(st, 3, (int64_t)seed, &rc);
    bind_text(st, 4, config_text, &rc);
    bind_text(st, 5, note, &rc);
    char host[DBI_HOST_MAX];
    bind_owner(st, 6, host, &rc);
    if (dbi_step_write(db, st, rc, err, "creating a run") != 0)
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
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_FINISH, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, run_id, &rc);
    bind_text(st, 2, status, &rc);
    char host[DBI_HOST_MAX];
    bind_owner(st, 3, host, &rc);
    char what[64];
    snprintf(what, sizeof what, "setting run %" PRId64 " to %s", run_id, status);
    if (dbi_step_write(db, st, rc, err, what) != 0)
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
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_FIND, err);
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
        dbi_fail(db, rc, err, "looking up a %s run", kind ? kind : "(null)");
        out = -1;
    }
    stmt_done(st);
    return out;
}

/* DB_CLAIM_NEW: DB_BUSY when a run of the key is 'running' with a live
 * owner (not this process). */
static int busy_key(Db *db, const char *kind, const char *game, uint64_t seed, const char *config_text, DbClaim *c,
                    char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_RUNNING_KEY, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, kind, &rc);
    bind_text(st, 2, game, &rc);
    bind_i64(st, 3, (int64_t)seed, &rc);
    bind_text(st, 4, config_text, &rc);
    int64_t ids[64];
    int len = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (len < 64) ids[len++] = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    stmt_done(st);
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "looking up the running %s runs", kind);
        return -1;
    }
    for (int i = 0; i < len; i++) {
        bool alive = false, me = false;
        char status[DB_STATUS_MAX];
        if (read_owner(db, &DBI_OWNED_RUNS, ids[i], status, &c->owner, &alive, &me, err) != 0) return -1;
        if (alive && !me) {
            c->id = ids[i];
            snprintf(c->status, sizeof c->status, "%s", status);
            busy_message(db, &DBI_OWNED_RUNS, ids[i], &c->owner, err);
            return DB_BUSY;
        }
    }
    memset(&c->owner, 0, sizeof c->owner);
    return 0;
}

static int run_claim(Db *db, DbClaimMode mode, const char *kind, const char *game, uint64_t seed,
                     const char *config_text, const char *note, DbClaim *c, char err[ERR_MAX])
{
    int64_t id = 0;
    int rc = 0;
    if (mode == DB_CLAIM_RESUME) rc = db_run_find(db, kind, game, seed, config_text, &id, NULL, err);
    else rc = busy_key(db, kind, game, seed, config_text, c, err);
    if (rc != 0) return rc;
    if (id) return dbi_claim_row(db, &DBI_OWNED_RUNS, id, c, err);
    c->created = true;
    return run_create(db, kind, game, seed, config_text, note, &c->id, err);
}

int db_run_claim(Db *db, DbClaimMode mode, const char *kind, const char *game, uint64_t seed,
                 const char *config_text, const char *note, DbClaim *c, char err[ERR_MAX])
{
    memset(c, 0, sizeof *c);
    bool own = false;
    int rc = tx_enter(db, &own, err);
    if (rc == 0) rc = run_claim(db, mode, kind, game, seed, config_text, note, c, err);
    if (rc == 0 && own) rc = db_commit(db, err);
    if (rc != 0) db_rollback(db);
    return rc;
}

int db_run_claim_id(Db *db, int64_t run_id, DbClaim *c, char err[ERR_MAX])
{
    memset(c, 0, sizeof *c);
    bool own = false;
    int rc = tx_enter(db, &own, err);
    if (rc == 0) rc = dbi_claim_row(db, &DBI_OWNED_RUNS, run_id, c, err);
    if (rc == 0 && own) rc = db_commit(db, err);
    if (rc != 0) db_rollback(db);
    return rc;
}

int db_run_release(Db *db, int64_t run_id, const char *status, char err[ERR_MAX])
{
    if (!valid_status(status)) {
        set_err(err, "run status '%s': must be running, done or interrupted", status ? status : "(null)");
        return write_end(db, -1);
    }
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_RELEASE, err);
    if (!st) return write_end(db, -1);
    int rc = SQLITE_OK;
    bind_i64(st, 1, run_id, &rc);
    bind_text(st, 2, status, &rc);
    char what[64];
    snprintf(what, sizeof what, "handing run %" PRId64 " back as %s", run_id, status);
    if (dbi_step_write(db, st, rc, err, what) != 0) return write_end(db, -1);
    if (sqlite3_changes(db->h) != 1) {
        set_err(err, "%s: %s: no such run", db->path, what);
        return write_end(db, -1);
    }
    return 0;
}

int db_run_drop(Db *db, int64_t run_id, char err[ERR_MAX])
{
    bool own = false;
    if (tx_enter(db, &own, err) != 0) return -1;
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_DELETE, err);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    if (st) {
        bind_i64(st, 1, run_id, &rc);
        if (rc == SQLITE_OK) rc = sqlite3_step(st);
        stmt_done(st);
    }
    /* Foreign keys are checked at once: a run something refers to stays. */
    if ((rc & 0xff) == SQLITE_CONSTRAINT) {
        if (db_run_finish(db, run_id, "interrupted", err) != 0) return -1;
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) {
        if (st) dbi_fail(db, rc, err, "removing the empty run %" PRId64, run_id);
        db_rollback(db);
        return -1;
    }
    return own ? db_commit(db, err) : 0;
}

int db_run_get(Db *db, int64_t run_id, DbRun *run, char err[ERR_MAX])
{
    memset(run, 0, sizeof *run);
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_GET, err);
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
        dbi_fail(db, rc, err, "reading run %" PRId64, run_id);
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

static int run_weights_add(Db *db, int64_t run_id, int member, int64_t ws_id, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_RUN_MEMBER, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, run_id, &rc);
    bind_i64(st, 2, member, &rc);
    bind_i64(st, 3, ws_id, &rc);
    char what[96];
    snprintf(what, sizeof what, "storing member %d (weight set %" PRId64 ") of run %" PRId64, member, ws_id,
             run_id);
    return dbi_step_write(db, st, rc, err, what);
}

int db_run_weights_add(Db *db, int64_t run_id, int member, int64_t ws_id, char err[ERR_MAX])
{
    return write_end(db, run_weights_add(db, run_id, member, ws_id, err));
}
