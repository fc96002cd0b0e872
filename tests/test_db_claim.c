/* test_db_claim.c — one writer a run: claims of runs, trains and SPSA runs
 * (db_run_claim, db_run_claim_id, db_train_claim, db_spsa_claim), refusal
 * of a row whose owner lives (this host: the pid with its start time;
 * another host: always), take-over of a dead owner's row, db_release,
 * db_run_release and db_run_drop, two processes claiming at once, and a
 * new file another connection uses kept by db_close_discard_new.
 *
 * A live owner is a child process of the test that waits on a pipe; it
 * dies when the pipe is closed and is reaped, so "dead" is a fact, not a
 * timing. Databases are unique files under /tmp, removed with their -wal
 * and -shm files.
 */
#define _DEFAULT_SOURCE /* mkstemp, fork, waitpid, gethostname, usleep */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "db_files.h"
#include "db/db.h"

/* ---- helpers -------------------------------------------------------------- */

typedef struct TempDb {
    char path[64];
} TempDb;

static void temp_make(TempDb *t)
{
    snprintf(t->path, sizeof t->path, "/tmp/dama_test_claim_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
    unlink(t->path);
}

static void temp_remove(const TempDb *t) { db_files_remove(t->path); }

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    sqlite3_busy_timeout(h, 10000);
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("raw sql '%s': %s", sql, msg ? msg : "?");
    sqlite3_free(msg);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

static void raw_text(const char *path, const char *sql, char *out, size_t size)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const unsigned char *t = sqlite3_column_text(st, 0);
    snprintf(out, size, "%s", t ? (const char *)t : "(null)");
    sqlite3_finalize(st);
    sqlite3_close(h);
}

static int64_t raw_int(const char *path, const char *sql)
{
    char text[64];
    raw_text(path, sql, text, sizeof text);
    return strtoll(text, NULL, 10);
}

#define CHECK_OK(call)                                                                                                 \
    do {                                                                                                               \
        if ((call) != 0) fail_msg("%s: %s", #call, err);                                                              \
    } while (0)

static Db *open_ok(const char *path)
{
    Db *db = NULL;
    char err[ERR_MAX] = "";
    if (db_open(path, true, &db, err) != 0) fail_msg("db_open %s: %s", path, err);
    return db;
}

/* The start time of process pid (field 22 of /proc/PID/stat). */
static long long process_start(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    assert_non_null(p);
    p++;
    for (int field = 3; field < 22; field++) {
        while (*p == ' ') p++;
        while (*p && *p != ' ') p++;
    }
    return strtoll(p, NULL, 10);
}

/* A live process of this host that stays until owner_end. */
typedef struct Owner {
    int pid;
    int pipe_w;
} Owner;

static Owner owner_start(void)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    int pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[1]);
        char c;
        while (read(fds[0], &c, 1) > 0) {
        }
        _exit(0);
    }
    close(fds[0]);
    return (Owner){pid, fds[1]};
}

/* The owner ends and is reaped: its pid no longer exists. */
static void owner_end(Owner *o)
{
    close(o->pipe_w);
    int status;
    waitpid(o->pid, &status, 0);
}

/* Make row id of table the live process o's (status 'running'). */
static void give_to(const char *path, const char *table, int64_t id, const Owner *o, const char *host)
{
    char here[256] = "";
    gethostname(here, sizeof here);
    char sql[768];
    snprintf(sql, sizeof sql,
             "UPDATE %s SET status = 'running', finished = NULL, owner_pid = %d, owner_host = '%s', "
             "owner_start = %lld, owner_since = '2026-01-02T03:04:05Z' WHERE id = %lld",
             table, o->pid, host ? host : here, process_start(o->pid), (long long)id);
    raw_exec(path, sql);
}

/* ---- runs ----------------------------------------------------------------- */

/* A claim makes the run, a second claim of this process takes it again, a
 * done run is taken ('running') and handed back as it was. */
static void test_claim_resume(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t);
    Db *db = open_ok(t.path);
    char err[ERR_MAX] = "";
    DbClaim c;
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 1", NULL, &c, err));
    assert_true(c.created);
    assert_int_equal(c.id, 1);
    assert_string_equal(c.status, "");
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT owner_pid = %d AND owner_since IS NOT NULL FROM runs WHERE id = 1", (int)getpid());
    assert_int_equal(raw_int(t.path, sql), 1);
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 1", NULL, &c, err));
    assert_false(c.created);
    assert_int_equal(c.id, 1);
    assert_string_equal(c.status, "running");
    CHECK_OK(db_run_finish(db, 1, "done", err));
    char finished[64], again[64];
    raw_text(t.path, "SELECT finished FROM runs WHERE id = 1", finished, sizeof finished);
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 1", NULL, &c, err));
    assert_string_equal(c.status, "done");
    raw_text(t.path, "SELECT status FROM runs WHERE id = 1", again, sizeof again);
    assert_string_equal(again, "running");
    CHECK_OK(db_run_release(db, 1, c.status, err));
    raw_text(t.path, "SELECT status || ' ' || finished FROM runs WHERE id = 1", again, sizeof again);
    char want[80];
    snprintf(want, sizeof want, "done %s", finished);
    assert_string_equal(again, want);
    /* another key is another run */
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 2", NULL, &c, err));
    assert_true(c.created);
    assert_int_equal(c.id, 2);
    db_close(db);
    temp_remove(&t);
}

/* A run written by a live process of this host is refused, naming it; once
 * that process is gone the run is taken over. */
static void test_claim_live_then_dead(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t);
    Db *db = open_ok(t.path);
    char err[ERR_MAX] = "";
    DbClaim c;
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 1", NULL, &c, err));
    Owner o = owner_start();
    give_to(t.path, "runs", 1, &o, NULL);
    assert_int_equal(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 1", NULL, &c, err), DB_BUSY);
    assert_int_equal(c.id, 1);
    assert_int_equal(c.owner.pid, o.pid);
    assert_true(c.owner.here);
    assert_string_equal(c.owner.since, "2026-01-02T03:04:05Z");
    char want[160];
    snprintf(want, sizeof want, "run 1 is being written by process %d on this host since 2026-01-02T03:04:05Z", o.pid);
    if (!strstr(err, want)) fail_msg("refusal '%s' lacks '%s'", err, want);
    assert_int_equal(db_run_claim_id(db, 1, &c, err), DB_BUSY);
    /* the refusal stored nothing; inside a transaction it rolls it back */
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs"), 1);
    CHECK_OK(db_begin(db, err));
    assert_int_equal(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 1", NULL, &c, err), DB_BUSY);
    assert_false(db_in_transaction(db));
    /* dead (and not yet marked by an open's sweep): taken over */
    owner_end(&o);
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "a = 1", NULL, &c, err));
    assert_false(c.created);
    assert_string_equal(c.status, "running");
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT owner_pid = %d AND status = 'running' FROM runs WHERE id = 1", (int)getpid());
    assert_int_equal(raw_int(t.path, sql), 1);
    /* a pid reused by another process (another start time) is dead too */
    Owner o2 = owner_start();
    give_to(t.path, "runs", 1, &o2, NULL);
    raw_exec(t.path, "UPDATE runs SET owner_start = owner_start + 1 WHERE id = 1");
    CHECK_OK(db_run_claim_id(db, 1, &c, err));
    owner_end(&o2);
    /* a process that ended but is not reaped yet (a zombie: its parent, an
     * MPI daemon killed with it, may never reap it) is gone too */
    Owner o3 = owner_start();
    give_to(t.path, "runs", 1, &o3, NULL);
    assert_int_equal(db_run_claim_id(db, 1, &c, err), DB_BUSY);
    close(o3.pipe_w);
    char path[64], st[256] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", o3.pid);
    for (int i = 0; i < 100000 && !strstr(st, ") Z"); i++) { /* until it has exited */
        FILE *f = fopen(path, "r");
        if (f) {
            size_t n = fread(st, 1, sizeof st - 1, f);
            st[n] = '\0';
            fclose(f);
        }
        if (!strstr(st, ") Z")) usleep(1000);
    }
    assert_non_null(strstr(st, ") Z"));
    CHECK_OK(db_run_claim_id(db, 1, &c, err));
    waitpid(o3.pid, NULL, 0);
    db_close(db);
    temp_remove(&t);
}

/* Another host's owner counts as alive: refused with the way to take it
 * over, db_release frees it, then the claim takes it. */
static void test_claim_other_host(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t);
    Db *db = open_ok(t.path);
    char err[ERR_MAX] = "", was[DB_STATUS_MAX];
    DbClaim c;
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "tournament", "turkish", 2, "x", "cup", &c, err));
    Owner o = owner_start();
    give_to(t.path, "runs", 1, &o, "elsewhere");
    owner_end(&o); /* its pid means nothing on this host */
    assert_int_equal(db_run_claim_id(db, 1, &c, err), DB_BUSY);
    assert_false(c.owner.here);
    assert_string_equal(c.owner.host, "elsewhere");
    char want[200];
    snprintf(want, sizeof want, "on host elsewhere since 2026-01-02T03:04:05Z; if that process is gone, take over "
             "with: dama db release %s run:1", t.path);
    if (!strstr(err, want)) fail_msg("refusal '%s' lacks '%s'", err, want);
    DbOwner owner;
    CHECK_OK(db_release(db, "run", 1, &owner, was, err));
    assert_string_equal(was, "running");
    assert_string_equal(owner.host, "elsewhere");
    char status[32];
    raw_text(t.path, "SELECT status || (finished IS NOT NULL) FROM runs WHERE id = 1", status, sizeof status);
    assert_string_equal(status, "interrupted1");
    /* nothing to release now */
    CHECK_OK(db_release(db, "run", 1, NULL, was, err));
    assert_string_equal(was, "");
    CHECK_OK(db_run_claim_id(db, 1, &c, err));
    assert_string_equal(c.status, "interrupted");
    /* errors: no such row, unknown table */
    assert_int_equal(db_release(db, "run", 99, NULL, was, err), -1);
    assert_non_null(strstr(err, "no run 99"));
    assert_int_equal(db_release(db, "match", 1, NULL, was, err), -1);
    db_close(db);
    temp_remove(&t);
}

/* db_release of a run whose owner lives on this host is refused. */
static void test_release_live(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t);
    Db *db = open_ok(t.path);
    char err[ERR_MAX] = "", was[DB_STATUS_MAX];
    DbClaim c;
    CHECK_OK(db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "shatra", 1, "", NULL, &c, err));
    Owner o = owner_start();
    give_to(t.path, "runs", 1, &o, NULL);
    assert_int_equal(db_release(db, "run", 1, NULL, was, err), DB_BUSY);
    assert_non_null(strstr(err, "alive on this host: stop that process instead"));
    char status[32];
    raw_text(t.path, "SELECT status FROM runs WHERE id = 1", status, sizeof status);
    assert_string_equal(status, "running");
    owner_end(&o);
    db_close(db);
    temp_remove(&t);
}

/* DB_CLAIM_NEW makes a new run each time, unless one of the key is being
 * written by a live process. */
static void test_claim_new(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t);
    Db *db = open_ok(t.path);
    char err[ERR_MAX] = "";
    DbClaim c;
    CHECK_OK(db_run_claim(db, DB_CLAIM_NEW, "match", "russian", 3, "m", NULL, &c, err));
    assert_true(c.created);
    CHECK_OK(db_run_finish(db, c.id, "done", err));
    CHECK_OK(db_run_claim(db, DB_CLAIM_NEW, "match", "russian", 3, "m", NULL, &c, err));
    assert_true(c.created);
    assert_int_equal(c.id, 2);
    Owner o = owner_start();
    give_to(t.path, "runs", 2, &o, NULL);
    assert_int_equal(db_run_claim(db, DB_CLAIM_NEW, "match", "russian", 3, "m", NULL, &c, err), DB_BUSY);
    assert_int_equal(c.id, 2);
    /* another seed is another match */
    CHECK_OK(db_run_claim(db, DB_CLAIM_NEW, "match", "russian", 4, "m", NULL, &c, err));
    assert_int_equal(c.id, 3);
    owner_end(&o);
    CHECK_OK(db_run_claim(db, DB_CLAIM_NEW, "match", "russian", 3, "m", NULL, &c, err));
    assert_int_equal(c.id, 4);
    db_close(db);
    temp_remove(&t);
}

/* A run that holds nothing goes; one that something refers to is marked
 * interrupted instead. */
static void test_run_drop(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t);
    Db *db = open_ok(t.path);
    char err[ERR_MAX] = "";
    DbClaim c;
    CHECK_OK(db_run_claim(db, DB_CLAIM_NEW, "tune", "russian", 1, "t", NULL, &c, err));
    CHECK_OK(db_run_drop(db, c.id, err));
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs"), 0);
    CHECK_OK(db_run_claim(db, DB_CLAIM_NEW, "tune", "russian", 1, "t", NULL, &c, err));
    const char *names[2] = {"A", "B"};
    const int32_t values[2] = {1, 2};
    int64_t ws = 0;
    CHECK_OK(db_weights_insert(db, "russian", "x", 0, "compiled-in", c.id, names, values, 2, &ws, err));
    CHECK_OK(db_run_drop(db, c.id, err));
    char status[32];
    raw_text(t.path, "SELECT status FROM runs", status, sizeof status);
    assert_string_equal(status, "interrupted");
    assert_false(db_in_transaction(db));
    db_close(db);
    temp_remove(&t);
}

/* ---- trains and SPSA runs -------------------------------------------------- */

static void test_train_and_spsa_claims(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t);
    Db *db = open_ok(t.path);
    char err[ERR_MAX] = "", was[DB_STATUS_MAX];
    const char *names[2] = {"A", "B"};
    const int32_t values[2] = {1, 2};
    int64_t ws = 0;
    CHECK_OK(db_weights_insert(db, "russian", "x", 0, "compiled-in", 0, names, values, 2, &ws, err));
    DbClaim c;
    CHECK_OK(db_train_claim(db, "russian", 5, "g = 1", ws, 2, &c, err));
    assert_true(c.created);
    assert_string_equal(c.status, "");
    CHECK_OK(db_train_set_status(db, c.id, "done", 0, err));
    CHECK_OK(db_train_claim(db, "russian", 5, "g = 1", ws, 3, &c, err));
    assert_false(c.created);
    assert_string_equal(c.status, "done");
    DbSpsaRun row = {.game = "russian", .base_ws = ws, .seed = 4, .config = "s", .params = "A 0 9 1 0.1 1",
                     .iterations = 3, .pairs = 2, .a_const = 1, .alpha = 0.6, .gamma = 0.1};
    CHECK_OK(db_spsa_claim(db, &row, &c, err));
    assert_true(c.created);
    Owner o = owner_start();
    give_to(t.path, "trains", 1, &o, NULL);
    give_to(t.path, "spsa_runs", 1, &o, NULL);
    assert_int_equal(db_train_claim(db, "russian", 5, "g = 1", ws, 3, &c, err), DB_BUSY);
    assert_non_null(strstr(err, "train 1 is being written by process"));
    assert_int_equal(db_spsa_claim(db, &row, &c, err), DB_BUSY);
    assert_non_null(strstr(err, "SPSA run 1 is being written by process"));
    assert_int_equal(db_release(db, "spsa", 1, NULL, was, err), DB_BUSY);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM trains") + raw_int(t.path, "SELECT count(*) FROM spsa_runs"),
                     2);
    owner_end(&o);
    /* a dead owner's train is marked interrupted by the next open, and taken */
    db_close(db);
    db = open_ok(t.path);
    char status[32];
    raw_text(t.path, "SELECT status FROM trains WHERE id = 1", status, sizeof status);
    assert_string_equal(status, "interrupted");
    CHECK_OK(db_train_claim(db, "russian", 5, "g = 1", ws, 3, &c, err));
    assert_string_equal(c.status, "interrupted");
    CHECK_OK(db_spsa_claim(db, &row, &c, err));
    assert_string_equal(c.status, "interrupted");
    db_close(db);
    temp_remove(&t);
}

/* ---- a new file two processes use ---------------------------------------- */

/* A process that opens path when told (a byte on go), says so (a byte on
 * ready), then, told again, stores a run and ends (exit 0: stored). */
static int opener_start(const char *path, int *go_w, int *ready_r)
{
    int go[2], ready[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(ready), 0);
    int pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(go[1]), close(ready[0]);
        char c = 0, err[ERR_MAX] = "";
        Db *db = NULL;
        int64_t id = 0;
        if (read(go[0], &c, 1) != 1 || db_open(path, true, &db, err) != 0) _exit(2);
        if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1) _exit(3);
        if (db_run_create(db, "selfplay", "russian", 7, "kept", NULL, &id, err) != 0) _exit(4);
        db_close(db);
        _exit(0);
    }
    close(go[0]), close(ready[1]);
    *go_w = go[1];
    *ready_r = ready[0];
    return pid;
}

/* A new (or empty) file that another connection has open is neither
 * removed nor emptied by db_close_discard_new of the one that made it (or
 * found it empty): the other process's run is in the file afterwards. The
 * same with the other connection in this process. A file nobody else has
 * open is removed (emptied) as before. */
static void test_discard_keeps_shared_file(void **state)
{
    (void)state;
    for (int empty = 0; empty < 2; empty++) {
        TempDb t;
        temp_make(&t);
        if (empty) fclose(fopen(t.path, "w"));
        int go, ready;
        int pid = opener_start(t.path, &go, &ready);
        Db *made = open_ok(t.path); /* made the file (or found it empty) */
        char c;
        assert_int_equal(write(go, "g", 1), 1);
        assert_int_equal(read(ready, &c, 1), 1); /* the other process has it open */
        db_close_discard_new(made);                /* failed before storing anything */
        assert_int_equal(access(t.path, F_OK), 0);
        assert_int_equal(write(go, "g", 1), 1);
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
        close(go), close(ready);
        assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs WHERE config = 'kept'"), 1);
        temp_remove(&t);

        /* two connections of this process */
        temp_make(&t);
        if (empty) fclose(fopen(t.path, "w"));
        made = open_ok(t.path);
        Db *other = open_ok(t.path);
        db_close_discard_new(made);
        assert_int_equal(access(t.path, F_OK), 0);
        int64_t id = 0;
        char err[ERR_MAX] = "";
        CHECK_OK(db_run_create(other, "selfplay", "russian", 7, "kept", NULL, &id, err));
        db_close(other);
        assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs WHERE config = 'kept'"), 1);
        temp_remove(&t);

        /* alone: removed, or emptied again */
        temp_make(&t);
        if (empty) fclose(fopen(t.path, "w"));
        db_close_discard_new(open_ok(t.path));
        struct stat sb;
        if (empty) assert_true(stat(t.path, &sb) == 0 && sb.st_size == 0);
        else assert_int_equal(access(t.path, F_OK), -1);
        char side[96];
        snprintf(side, sizeof side, "%s-wal", t.path);
        assert_int_equal(access(side, F_OK), -1);
        temp_remove(&t);
    }
}

/* ---- two processes at once ------------------------------------------------- */

/* Two processes, released together, claim the same run: one makes it, the
 * other is refused; never two runs. Repeated to give the race its chances. */
static void test_claim_race(void **state)
{
    (void)state;
    for (int round = 0; round < 8; round++) {
        TempDb t;
        temp_make(&t);
        db_close(open_ok(t.path));
        int go[2], result[2], hold[2];
        assert_int_equal(pipe(go), 0);
        assert_int_equal(pipe(result), 0);
        assert_int_equal(pipe(hold), 0);
        int pids[2];
        for (int k = 0; k < 2; k++) {
            pids[k] = fork();
            assert_true(pids[k] >= 0);
            if (pids[k] == 0) {
                close(go[1]), close(result[0]), close(hold[1]);
                Db *db = NULL;
                char err[ERR_MAX], c = 0;
                int out = 9;
                if (db_open(t.path, false, &db, err) == 0 && read(go[0], &c, 1) == 1) {
                    DbClaim cl;
                    int rc = round % 2 ? db_run_claim(db, DB_CLAIM_RESUME, "selfplay", "russian", 5, "r", NULL, &cl, err)
                                       : db_run_claim(db, DB_CLAIM_NEW, "tune", "russian", 5, "r", NULL, &cl, err);
                    out = rc == 0 ? (cl.created ? 1 : 2) : rc == DB_BUSY ? 3 : 4;
                }
                char b = (char)out;
                if (write(result[1], &b, 1) != 1) _exit(1);
                while (read(hold[0], &c, 1) > 0) { /* the owner stays alive until both answered */
                }
                db_close(db);
                _exit(0);
            }
        }
        close(go[0]), close(result[1]), close(hold[0]);
        assert_int_equal(write(go[1], "gg", 2), 2);
        char got[2];
        for (int k = 0; k < 2; k++) assert_int_equal(read(result[0], &got[k], 1), 1);
        close(hold[1]);
        for (int k = 0; k < 2; k++) waitpid(pids[k], NULL, 0);
        close(go[1]), close(result[0]);
        int created = (got[0] == 1) + (got[1] == 1), busy = (got[0] == 3) + (got[1] == 3);
        if (created != 1 || busy != 1) fail_msg("round %d: answers %d and %d (1 made, 3 refused)", round, got[0], got[1]);
        assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs"), 1);
        temp_remove(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_claim_resume),      cmocka_unit_test(test_claim_live_then_dead),
        cmocka_unit_test(test_claim_other_host),  cmocka_unit_test(test_release_live),
        cmocka_unit_test(test_claim_new),         cmocka_unit_test(test_run_drop),
        cmocka_unit_test(test_train_and_spsa_claims), cmocka_unit_test(test_claim_race),
        cmocka_unit_test(test_discard_keeps_shared_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
