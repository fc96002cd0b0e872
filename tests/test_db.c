/* test_db.c — the SQLite store as a file: opening, identity checks,
 * migrations (from damaged, old and older versions), failures (disk full,
 * lock timeout, a second open keeping the locks, process killed
 * mid-transaction), read-only opening and discarding, and the insert
 * benchmark. The tables' own tests are test_db_weights.c (weight sets) and
 * test_db_runs.c (runs, games and positions, tuning, matches, trains);
 * tests/db_test.h holds their shared helpers. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fork, waitpid, even under strict -std=c11 */

#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "db/db.h"
#include "engine/weights_id.h"
#include "db_test.h"

/* ---- opening, identity, migrations ---------------------------------------- */

static void test_create_open_reopen(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    char err[ERR_MAX] = "";
    Db *db = NULL;

    /* create=false: the file must exist */
    assert_int_equal(db_open(t.path, false, &db, err), -1);
    assert_null(db);
    assert_contains(err, t.path);
    assert_contains(err, "no such database file");

    db = open_ok(t.path, true);
    assert_string_equal(db_path(db), t.path);
    assert_false(db_in_transaction(db));
    db_close(db);

    /* migration step 1 applied: version, id, WAL, every table */
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    assert_int_equal(raw_int(t.path, "PRAGMA application_id"), DB_APPLICATION_ID);
    char mode[16];
    raw_text(t.path, "PRAGMA journal_mode", mode, sizeof mode);
    assert_string_equal(mode, "wal");
    static const char *const tables[] = {"runs",        "weight_sets",   "games",  "positions",
                                         "tuning_runs", "tuning_epochs", "matches"};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        char sql[128];
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'",
                 tables[i]);
        assert_int_equal(raw_int(t.path, sql), 1);
    }
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
                                     "AND name = 'positions_game_id'"),
                     1);

    /* reopen without create: no second migration, data kept */
    db = open_ok(t.path, false);
    int64_t run = 0;
    CHECK_OK(db_run_create(db, "selfplay", "russian", 7, "games=10", NULL, &run, err));
    db_close(db);
    db = open_ok(t.path, false);
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs"), 1);
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    temp_remove(&t);
}

static void test_empty_file_and_memory(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, true); /* an existing empty file is a new database */
    Db *db = open_ok(t.path, false);
    db_close(db);
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    temp_remove(&t);

    db = open_ok(":memory:", true);
    char err[ERR_MAX] = "";
    int64_t run = 0;
    CHECK_OK(db_run_create(db, "match", "russian", 1, NULL, NULL, &run, err));
    assert_int_equal(run, 1);
    db_close(db);
}

typedef struct ForeignCase {
    const char *label;
    const char *sql;  /* raw SQL making an SQLite file, or NULL for text */
    const char *text; /* file content when sql is NULL */
    const char *expect;
} ForeignCase;

static void test_foreign_files_refused(void **state)
{
    (void)state;
    static const ForeignCase cases[] = {
        {"text file", NULL, "this is not a database\n", "not an SQLite file"},
        {"short text file", NULL, "hi", "not an SQLite file"},
        {"long text file", NULL,
         "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n"
         "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n",
         "not an SQLite file"},
        {"SQLite with a table, no id", "CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES('a');",
         NULL, "no dama application_id"},
        {"SQLite with another id", "PRAGMA application_id = 305419896; CREATE TABLE t(x);", NULL,
         "application_id 0x12345678"},
        {"SQLite with another id, no tables", "PRAGMA application_id = 1;", NULL,
         "application_id 0x00000001"},
        {"SQLite with a user_version, no id", "PRAGMA user_version = 3;", NULL,
         "no dama application_id"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ForeignCase *c = &cases[i];
        TempDb t;
        temp_make(&t, !c->sql);
        if (c->sql) {
            raw_exec(t.path, c->sql);
        } else {
            FILE *f = fopen(t.path, "w");
            assert_non_null(f);
            fputs(c->text, f);
            fclose(f);
        }
        for (int create = 0; create < 2; create++) {
            Db *db = NULL;
            char err[ERR_MAX] = "";
            if (db_open(t.path, create, &db, err) == 0)
                fail_msg("%s: opened a foreign file", c->label);
            assert_null(db);
            assert_contains(err, t.path);
            assert_contains(err, "not a dama database");
            assert_contains(err, c->expect);
        }
        /* the foreign file was not touched (no WAL switch, no schema) */
        if (c->sql)
            assert_int_equal(raw_int(t.path, "SELECT count(*) FROM sqlite_master WHERE name = "
                                             "'positions'"),
                             0);
        temp_remove(&t);
    }

    /* a directory */
    Db *db = NULL;
    char err[ERR_MAX] = "";
    assert_int_equal(db_open("/tmp", true, &db, err), -1);
    assert_contains(err, "/tmp");
}

static void test_newer_schema_refused(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    db_close(open_ok(t.path, true));
    raw_exec(t.path, "PRAGMA user_version = 99");
    Db *db = NULL;
    char err[ERR_MAX] = "";
    assert_int_equal(db_open(t.path, false, &db, err), -1);
    assert_null(db);
    assert_contains(err, t.path);
    assert_contains(err, "schema version 99 is newer");
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), 99); /* untouched */
    temp_remove(&t);
}

static void test_migration_from_damaged_version(void **state)
{
    (void)state;
    /* A dama id with version 0 but the tables present: creating the schema
     * (schema.sql) again fails, the error says so, and nothing changes. */
    TempDb t;
    temp_make(&t, false);
    db_close(open_ok(t.path, true));
    raw_exec(t.path, "PRAGMA user_version = 0");
    Db *db = NULL;
    char err[ERR_MAX] = "";
    assert_int_equal(db_open(t.path, false, &db, err), -1);
    assert_contains(err, "creating schema version");
    assert_contains(err, "already exists");
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), 0);
    temp_remove(&t);
}

/* ---- failures --------------------------------------------------------------- */

static void test_disk_full_keeps_committed(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t run = 0;
    CHECK_OK(db_run_create(db, "selfplay", "russian", 1, NULL, NULL, &run, err));
    CHECK_OK(db_set_size_limit(db, 64 * 1024, err));
    int committed = 0, rc = 0;
    TestGame g;
    for (int i = 0; i < 10000 && rc == 0; i++) {
        test_game_make(&g, run, i, "1-0");
        rc = db_begin(db, err);
        if (rc == 0)
            rc = db_game_insert(db, &g.g, NULL, err);
        if (rc == 0)
            rc = db_commit(db, err);
        if (rc == 0)
            committed++;
        else
            db_rollback(db);
    }
    assert_int_equal(rc, -1);
    assert_true(committed > 0);
    assert_contains(err, t.path);
    assert_contains(err, "disk full");
    assert_false(db_in_transaction(db));
    /* a write outside a transaction fails the same way and rolls itself back */
    test_game_make(&g, run, committed, "1-0");
    assert_int_equal(db_game_insert(db, &g.g, NULL, err), -1);
    assert_contains(err, "disk full");
    db_close(db);

    db = open_ok(t.path, false);
    bool done[10000];
    int64_t stored = 0;
    CHECK_OK(db_run_game_indices(db, run, done, 10000, &stored, err));
    assert_int_equal(stored, committed);
    for (int i = 0; i < committed; i++)
        assert_true(done[i]);
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM positions"), committed * GAME_PLIES);
    char check[32];
    raw_text(t.path, "PRAGMA integrity_check", check, sizeof check);
    assert_string_equal(check, "ok");
    temp_remove(&t);
}

static void test_locked_by_other_writer(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *a = open_ok(t.path, true);
    Db *b = open_ok(t.path, false);
    char err[ERR_MAX] = "";
    int64_t run = 0;
    CHECK_OK(db_set_busy_timeout(b, 100, err));
    CHECK_OK(db_begin(a, err));
    CHECK_OK(db_run_create(a, "selfplay", "russian", 1, NULL, NULL, &run, err));
    assert_int_equal(db_begin(b, err), -1);
    assert_contains(err, t.path);
    assert_contains(err, "database is locked");
    assert_contains(err, "100 ms");
    int64_t other = 0;
    assert_int_equal(db_run_create(b, "selfplay", "russian", 2, NULL, NULL, &other, err), -1);
    assert_contains(err, "database is locked");
    /* readers are not blocked by the writer (WAL) and see only committed data */
    int64_t found = -1;
    CHECK_OK(db_run_find(b, "selfplay", "russian", 1, NULL, &found, NULL, err));
    assert_int_equal(found, 0);
    CHECK_OK(db_commit(a, err));
    CHECK_OK(db_begin(b, err));
    CHECK_OK(db_run_create(b, "selfplay", "russian", 2, NULL, NULL, &other, err));
    CHECK_OK(db_commit(b, err));
    CHECK_OK(db_run_find(b, "selfplay", "russian", 1, NULL, &found, NULL, err));
    assert_int_equal(found, run);
    db_close(a);
    db_close(b);
    temp_remove(&t);
}

/* Opening a database a second time in one process must not drop the POSIX
 * locks of the first connection (closing any descriptor of a file releases
 * them all): another process would then see no reader, and the last one to
 * close could checkpoint and delete the write-ahead log under us. The SHARED
 * lock range is SQLite's: 510 bytes at PENDING_BYTE + 2 (os_unix.c). */
static void test_second_open_keeps_locks(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *a = open_ok(t.path, true);
    int64_t found = -1;
    char err[ERR_MAX] = "";
    CHECK_OK(db_run_find(a, "selfplay", "russian", 1, NULL, &found, NULL, err));
    for (int second = 0; second < 2; second++) {
        Db *b = NULL;
        if (second) b = open_ok(t.path, false);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            int fd = open(t.path, O_RDONLY);
            struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0x40000002, .l_len = 510};
            _exit(fd >= 0 && fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type == F_RDLCK ? 0 : 1);
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0); /* the first connection's SHARED lock is seen */
        if (b) db_close(b);
    }
    db_close(a);
    temp_remove(&t);
}

static void test_killed_mid_transaction(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    char err[ERR_MAX] = "";
    int64_t run = 0;
    Db *db = open_ok(t.path, true);
    CHECK_OK(db_run_create(db, "selfplay", "russian", 1, NULL, NULL, &run, err));
    db_close(db);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* child: commit game 0, then die inside the transaction of game 1 */
        Db *c = NULL;
        char cerr[ERR_MAX];
        TestGame g;
        if (db_open(t.path, false, &c, cerr) != 0)
            _exit(2);
        test_game_make(&g, run, 0, "1-0");
        if (db_game_insert(c, &g.g, NULL, cerr) != 0)
            _exit(3);
        test_game_make(&g, run, 1, "1-0");
        if (db_begin(c, cerr) != 0 || db_game_insert(c, &g.g, NULL, cerr) != 0)
            _exit(4);
        raise(SIGKILL);
        _exit(5);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    db = open_ok(t.path, false);
    bool done[2];
    int64_t stored = 0;
    CHECK_OK(db_run_game_indices(db, run, done, 2, &stored, err));
    assert_int_equal(stored, 1);
    assert_true(done[0]);
    assert_false(done[1]);
    /* the lock died with the process: writing goes on */
    TestGame g;
    test_game_make(&g, run, 1, "0-1");
    CHECK_OK(db_game_insert(db, &g.g, NULL, err));
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM positions"), 2 * GAME_PLIES);
    char check[32];
    raw_text(t.path, "PRAGMA integrity_check", check, sizeof check);
    assert_string_equal(check, "ok");
    temp_remove(&t);
}

/* ---- benchmark ------------------------------------------------------------ */

static void test_bench_insert(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    char err[ERR_MAX] = "";
    double rate = 0;
    const int positions = 200000;
    if (db_bench_insert(t.path, positions, &rate, err) != 0)
        fail_msg("db_bench_insert: %s", err);
    printf("db_bench_insert: %d positions, %.0f positions/s\n", positions, rate);
    assert_true(rate > 0);
    assert_int_equal(access(t.path, F_OK), -1); /* removed */

    /* refuses an existing file */
    temp_make(&t, true);
    assert_int_equal(db_bench_insert(t.path, 10, &rate, err), -1);
    assert_contains(err, "exists");
    temp_remove(&t);
}

static void test_migration_1_to_3(void **state)
{
    (void)state;
    /* A schema-1 database made by hand from 001_initial.sql, as dama wrote it
     * before schema 3: two weight sets of one run, one shared by nobody,
     * and a run left 'running'. */
    TempDb t;
    temp_make(&t, false);
    FILE *f = fopen(DAMA_SOURCE_DIR "/db/migrations/001_initial.sql", "r");
    assert_non_null(f);
    static char sql[32768];
    size_t n = fread(sql, 1, sizeof sql - 1, f);
    fclose(f);
    sql[n] = '\0';
    raw_exec(t.path, sql);
    raw_exec(t.path, "PRAGMA user_version = 1; PRAGMA application_id = 1145130305;"
                     "INSERT INTO runs(id, kind, game) VALUES(7, 'selfplay', 'russian');"
                     "INSERT INTO weight_sets(game, how, run_id, terms, weights) VALUES"
                     "('russian', 'compiled-in', 7, 'man,king', '100,-5'),"
                     "('russian', 'perturbed', 7, 'man,king', '100,-6'),"
                     "('russian', 'file x', NULL, 'man,king', '100,-7');");
    Db *db = open_ok(t.path, false);
    char err[ERR_MAX] = "";
    int64_t ids[4] = {0};
    int len = 0;
    CHECK_OK(db_weights_by_run(db, 7, ids, 4, &len, err));
    assert_int_equal(len, 2);
    assert_int_equal(ids[0], 1);
    assert_int_equal(ids[1], 2);
    /* the new insert path finds the migrated rows by content */
    static const char *const two[] = {"man", "king"};
    static const int32_t v1[] = {100, -5};
    int64_t id = 0;
    CHECK_OK(db_weights_insert(db, "russian", NULL, 0, "compiled-in", 0, two, v1, 2, &id, err));
    assert_int_equal(id, 1);
    db_close(db);
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), DB_SCHEMA_VERSION); /* through every later step */
    /* step 4: the SPRT's deciding LLR apart from the final one */
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM pragma_table_info('matches') "
                                     "WHERE name IN ('sprt_llr', 'sprt_pairs')"), 2);
    char hex[DB_HASH_HEX + 8];
    raw_text(t.path, "SELECT hash FROM weight_sets WHERE id = 1", hex, sizeof hex);
    assert_string_equal(hex, "eee94bb8c1aef694");
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM weight_sets"), 3);
    /* a run without an owner (schema 1) is left as it was */
    raw_text(t.path, "SELECT status FROM runs WHERE id = 7", hex, sizeof hex);
    assert_string_equal(hex, "running");
    temp_remove(&t);
}

static void test_readonly_and_discard(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = NULL;
    char err[ERR_MAX] = "";
    /* read-only: a missing file is named and not created */
    assert_int_equal(db_open_readonly(t.path, &db, err), -1);
    assert_contains(err, "no such database file");
    assert_int_equal(access(t.path, F_OK), -1);
    /* a new database that stays empty is removed on discard */
    db = open_ok(t.path, true);
    db_close_discard_new(db);
    assert_int_equal(access(t.path, F_OK), -1);
    /* ... but kept once it holds something, or when it existed before */
    db = open_ok(t.path, true);
    int64_t run = 0;
    CHECK_OK(db_run_create(db, "match", "russian", 1, NULL, NULL, &run, err));
    db_close_discard_new(db);
    assert_int_equal(access(t.path, F_OK), 0);
    raw_exec(t.path, "DELETE FROM runs");
    db = open_ok(t.path, true);
    db_close_discard_new(db);
    assert_int_equal(access(t.path, F_OK), 0);
    /* read-only: reads work, writes fail, nothing changes */
    CHECK_OK(db_open_readonly(t.path, &db, err));
    assert_int_equal(db_run_create(db, "match", "russian", 1, NULL, NULL, &run, err), -1);
    assert_contains(err, t.path);
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs"), 0);
    temp_remove(&t);
    /* an empty file is not a database to read */
    temp_make(&t, true);
    assert_int_equal(db_open_readonly(t.path, &db, err), -1);
    assert_contains(err, "no dama data");
    temp_remove(&t);
}

/* Schema 7 rebuilds runs for kind 'tournament'; schema 8 gives a
 * tournament its PDN file. A database of the schema before 7 is made from
 * a new one by putting back the old runs table and dropping the PDN
 * column, the owner columns of step 10 and the time columns of step 11 (a
 * later step must be undone here too). */
static void test_migration_tournament_runs(void **state)
{
    (void)state;
    enum { STEP = 7 };
    assert_int_equal(DB_SCHEMA_VERSION, 11);
    TempDb t;
    temp_make(&t, false);
    db_close(open_ok(t.path, true));
    char sql[8192];
    snprintf(sql, sizeof sql,
             "ALTER TABLE trains DROP COLUMN owner_pid; ALTER TABLE trains DROP COLUMN owner_host;\n"
             "ALTER TABLE trains DROP COLUMN owner_start; ALTER TABLE trains DROP COLUMN owner_since;\n"
             "ALTER TABLE spsa_runs DROP COLUMN owner_pid; ALTER TABLE spsa_runs DROP COLUMN owner_host;\n"
             "ALTER TABLE spsa_runs DROP COLUMN owner_start; ALTER TABLE spsa_runs DROP COLUMN owner_since;\n"
             "ALTER TABLE games DROP COLUMN white_moves; ALTER TABLE games DROP COLUMN black_moves;\n"
             "ALTER TABLE games DROP COLUMN white_wall_s; ALTER TABLE games DROP COLUMN black_wall_s;\n"
             "ALTER TABLE games DROP COLUMN white_cpu_s; ALTER TABLE games DROP COLUMN black_cpu_s;\n"
             "ALTER TABLE tournaments DROP COLUMN pdn_out;\n"
             "ALTER TABLE weight_sets DROP COLUMN delta;\n"
             "DROP TABLE runs;\n"
             "CREATE TABLE runs (\n"
             "    id       INTEGER PRIMARY KEY,\n"
             "    kind     TEXT NOT NULL CHECK (kind IN ('selfplay', 'tune', 'match')),\n"
             "    game     TEXT NOT NULL,\n"
             "    created  TEXT NOT NULL DEFAULT (strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now')),\n"
             "    finished TEXT,\n"
             "    status   TEXT NOT NULL DEFAULT 'running'\n"
             "             CHECK (status IN ('running', 'done', 'interrupted')),\n"
             "    seed     INTEGER,\n"
             "    config   TEXT,\n"
             "    note     TEXT\n"
             ", owner_pid INTEGER, owner_host TEXT, owner_start INTEGER);\n"
             "PRAGMA user_version = %d;\n"
             "INSERT INTO runs(id, kind, game, created, finished, status, seed, config, note, owner_pid, owner_host,"
             " owner_start) VALUES"
             " (3, 'selfplay', 'russian', '2026-01-02T03:04:05Z', '2026-01-02T04:00:00Z', 'done', 11, 'a = 1', 'n', 1, 'h', 9),"
             " (5, 'match', 'turkish', '2026-01-03T00:00:00Z', NULL, 'interrupted', 12, 'b = 2', NULL, NULL, NULL, NULL),"
             " (8, 'match', 'shatra', '2026-01-04T00:00:00Z', NULL, 'done', 13, 'c = 3', 'cup', NULL, NULL, NULL);\n"
             "INSERT INTO tournaments(id, run_id, name, format, rounds, games_total) VALUES (2, 8, 'cup', 'gauntlet', 1, 2);\n"
             "INSERT INTO participants(tournament_id, idx, name, kind, spec, limits) VALUES"
             " (2, 0, 'A', 'dama', 'default', 'nodes=10'), (2, 1, 'B', 'hub', 'dama hub', 'nodes=10');\n"
             "INSERT INTO games(run_id, game_index, game, result, plies, movetext) VALUES"
             " (3, 0, 'russian', '1-0', 1, '1. c3-d4 1-0'), (8, 0, 'shatra', '0-1', 0, '0-1');\n"
             "INSERT INTO matches(run_id, game, games) VALUES (5, 'turkish', 4);\n",
             STEP - 1);
    raw_exec(t.path, sql);
    char before[4096], after[4096];
    raw_text(t.path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = 'index' "
                     "ORDER BY name)", before, sizeof before);
    Db *db = open_ok(t.path, false);
    db_close(db);
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    /* every row and column kept; the tournament's run has its own kind */
    raw_text(t.path, "SELECT group_concat(r, ';') FROM (SELECT printf('%d|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s', "
                     "id, kind, game, created, finished, status, seed, config, note, owner_pid, owner_host, "
                     "owner_start) AS r FROM runs ORDER BY id)",
             after, sizeof after);
    assert_string_equal(after, "3|selfplay|russian|2026-01-02T03:04:05Z|2026-01-02T04:00:00Z|done|11|a = 1|n|1|h|9;"
                               "5|match|turkish|2026-01-03T00:00:00Z||interrupted|12|b = 2||||;"
                               "8|tournament|shatra|2026-01-04T00:00:00Z||done|13|c = 3|cup|||");
    raw_text(t.path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = 'index' "
                     "ORDER BY name)", after, sizeof after);
    assert_string_equal(after, before);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM games"), 2);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM participants"), 2);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM sqlite_master WHERE name = 'runs_new'"), 0);
    /* the new kind is accepted, others still refused, and the references to runs hold */
    db = open_ok(t.path, false);
    char err[ERR_MAX] = "";
    int64_t id = 0;
    CHECK_OK(db_run_create(db, "tournament", "russian", 1, "x", NULL, &id, err));
    assert_int_equal(id, 9);
    /* step 8: the migrated tournament has no PDN file; a new one keeps its own */
    char pdn[64] = "x";
    CHECK_OK(db_tournament_pdn_out(db, 2, pdn, sizeof pdn, err));
    assert_string_equal(pdn, "");
    DbTournament dt = {.run_id = id, .format = "round-robin", .rounds = 1, .games_total = 2, .pdn_out = "/tmp/t.pdn"};
    int64_t tid = 0;
    CHECK_OK(db_tournament_insert(db, &dt, &tid, err));
    CHECK_OK(db_tournament_pdn_out(db, tid, pdn, sizeof pdn, err));
    assert_string_equal(pdn, "/tmp/t.pdn");
    assert_int_equal(db_tournament_pdn_out(db, tid, pdn, 5, err), -1); /* does not fit */
    assert_contains(err, "longer than 4 bytes");
    assert_int_equal(db_tournament_pdn_out(db, 99, pdn, sizeof pdn, err), -1);
    assert_contains(err, "no tournament 99");
    assert_int_not_equal(db_run_create(db, "bogus", "russian", 1, "x", NULL, &id, err), 0);
    assert_contains(err, "must be selfplay, tune, match or tournament");
    db_close(db);
    raw_exec(t.path, "PRAGMA foreign_keys = ON");
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM pragma_foreign_key_list('games') WHERE \"table\" = 'runs'"), 1);
    temp_remove(&t);
}

/* Schema 8 -> 9: every weight set stays a full one (delta 0), loads and is
 * found by content as before. */
static void test_migration_weight_deltas(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t id = 0, again = 0;
    CHECK_OK(db_weights_insert(db, "russian", "default", 0, "compiled-in", 0, ws_names, ws_values, WS_LEN, &id, err));
    db_close(db);
    raw_exec(t.path, "ALTER TABLE weight_sets DROP COLUMN delta; ALTER TABLE runs DROP COLUMN owner_since;"
                     "ALTER TABLE games DROP COLUMN white_moves; ALTER TABLE games DROP COLUMN black_moves;\n"
                     "ALTER TABLE games DROP COLUMN white_wall_s; ALTER TABLE games DROP COLUMN black_wall_s;\n"
                     "ALTER TABLE games DROP COLUMN white_cpu_s; ALTER TABLE games DROP COLUMN black_cpu_s;\n"
                     "ALTER TABLE trains DROP COLUMN owner_pid; ALTER TABLE trains DROP COLUMN owner_host;\n"
                     "ALTER TABLE trains DROP COLUMN owner_start; ALTER TABLE trains DROP COLUMN owner_since;\n"
                     "ALTER TABLE spsa_runs DROP COLUMN owner_pid; ALTER TABLE spsa_runs DROP COLUMN owner_host;\n"
                     "ALTER TABLE spsa_runs DROP COLUMN owner_start; ALTER TABLE spsa_runs DROP COLUMN owner_since;\n"
                     "PRAGMA user_version = 8;");
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM pragma_table_info('weight_sets') WHERE name = 'delta'"), 0);
    db = open_ok(t.path, false);
    int32_t out[WS_LEN];
    CHECK_OK(db_weights_load(db, id, "russian", ws_names, out, WS_LEN, err));
    assert_memory_equal(out, ws_values, sizeof out);
    CHECK_OK(db_weights_insert(db, "russian", "other", 0, "file x", 0, ws_names, ws_values, WS_LEN, &again, err));
    assert_int_equal(again, id);
    int32_t moved[WS_LEN];
    memcpy(moved, ws_values, sizeof moved);
    moved[4] = 3;
    CHECK_OK(db_weights_insert_delta(db, "russian", "m", id, "perturbed", 0, ws_names, moved, WS_LEN, &again, err));
    assert_int_equal(again, 2);
    CHECK_OK(db_weights_load(db, again, "russian", ws_names, out, WS_LEN, err));
    assert_memory_equal(out, moved, sizeof out);
    db_close(db);
    assert_int_equal(raw_int(t.path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    assert_int_equal(raw_int(t.path, "SELECT delta FROM weight_sets WHERE id = 1"), 0);
    assert_int_equal(raw_int(t.path, "SELECT delta FROM weight_sets WHERE id = 2"), 1);
    /* the column refuses anything but 0 and 1 */
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(t.path, &h), SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(h, "UPDATE weight_sets SET delta = 2 WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    temp_remove(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_open_reopen),
        cmocka_unit_test(test_empty_file_and_memory),
        cmocka_unit_test(test_foreign_files_refused),
        cmocka_unit_test(test_newer_schema_refused),
        cmocka_unit_test(test_migration_from_damaged_version),
        cmocka_unit_test(test_disk_full_keeps_committed),
        cmocka_unit_test(test_locked_by_other_writer),
        cmocka_unit_test(test_second_open_keeps_locks),
        cmocka_unit_test(test_killed_mid_transaction),
        cmocka_unit_test(test_bench_insert),
        cmocka_unit_test(test_migration_1_to_3),
        cmocka_unit_test(test_readonly_and_discard),
        cmocka_unit_test(test_migration_tournament_runs),
        cmocka_unit_test(test_migration_weight_deltas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
