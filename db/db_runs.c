/* db_runs.c — the runs table: one row per selfplay, tune or match
 * invocation (contracts in db.h). */
#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/db_internal.h"

static const char SQL_RUN_INSERT[] =
    "INSERT INTO runs(kind, game, status, seed, config, note, owner_pid, owner_host, owner_start) "
    "VALUES(?1, ?2, 'running', ?3, ?4, ?5, ?6, ?7, ?8)";
static const char SQL_RUN_FINISH[] =
    "UPDATE runs SET status = ?2, finished = CASE WHEN ?2 = 'running' "
    "THEN NULL ELSE " NOW_SQL " END, "
    "owner_pid = CASE WHEN ?2 = 'running' THEN ?3 ELSE owner_pid END, "
    "owner_host = CASE WHEN ?2 = 'running' THEN ?4 ELSE owner_host END, "
    "owner_start = CASE WHEN ?2 = 'running' THEN ?5 ELSE owner_start END WHERE id = ?1";
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
    *start = -1;
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

bool dbi_process_zombie(int pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the state follows the command name */
    return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
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
