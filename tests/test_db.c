/* test_db.c — the SQLite store: opening, identity checks, migrations, weight
 * sets, games and positions, transactions, resume, failures (disk full,
 * lock timeout, process killed mid-transaction) and the insert benchmark.
 *
 * Every database lives in a unique temporary file under /tmp (mkstemp) and
 * is removed with its -wal and -shm files. Facts the API does not expose
 * (user_version, application_id, row counts) are read with a separate raw
 * SQLite connection, as a user with sqlite3 would see them.
 */
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

/* ---- helpers -------------------------------------------------------------- */

typedef struct TempDb {
    char path[64];
} TempDb;

/* A unique path; the file exists (empty) unless `keep` is false. */
static void temp_make(TempDb *t, bool keep)
{
    snprintf(t->path, sizeof t->path, "/tmp/dama_test_db_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
    if (!keep)
        unlink(t->path);
}

static void temp_remove(const TempDb *t)
{
    char side[96];
    unlink(t->path);
    snprintf(side, sizeof side, "%s-wal", t->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", t->path);
    unlink(side);
}

/* Run sql on a raw connection (no dama checks). */
static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("raw sql '%s': %s", sql, msg ? msg : "?");
    sqlite3_free(msg);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

/* The integer of a one-row query on a raw connection. */
static int64_t raw_int(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    assert_int_equal(sqlite3_finalize(st), SQLITE_OK);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
    return v;
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
    assert_int_equal(sqlite3_finalize(st), SQLITE_OK);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

static Db *open_ok(const char *path, bool create)
{
    Db *db = NULL;
    char err[ERR_MAX] = "";
    if (db_open(path, create, &db, err) != 0)
        fail_msg("db_open %s: %s", path, err);
    assert_non_null(db);
    return db;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("expected '%s' in message: %s", part, text);
}

/* call must return 0; otherwise fail with the message in the local err. */
#define CHECK_OK(call)                                                                             \
    do {                                                                                           \
        if ((call) != 0)                                                                           \
            fail_msg("%s failed: %s", #call, err);                                                 \
    } while (0)

/* A short synthetic game: plies positions, results from White's view. */
enum { GAME_PLIES = 12 };
typedef struct TestGame {
    char fens[GAME_PLIES][80];
    DbPosition pos[GAME_PLIES];
    DbGame g;
} TestGame;

static void test_game_make(TestGame *t, int64_t run_id, int64_t index, const char *result)
{
    double r = !strcmp(result, "1-0") ? 1.0 : !strcmp(result, "0-1") ? 0.0 : 0.5;
    for (int i = 0; i < GAME_PLIES; i++) {
        snprintf(t->fens[i], sizeof t->fens[i], "%c:W21,22,23:B%d,2,3 g%lld", i % 2 ? 'B' : 'W',
                 1 + i, (long long)index);
        t->pos[i] = (DbPosition){.ply = i,
                                 .fen = t->fens[i],
                                 .stm = i % 2,
                                 .score = 10 * i - 30,
                                 .has_score = i != 3,
                                 .result = r,
                                 .quiet = i % 4 != 1};
    }
    t->g = (DbGame){.run_id = run_id,
                    .game_index = index,
                    .game = "russian",
                    .opening = "ab4 ba5",
                    .start_fen = "W:W21,22,23:B1,2,3",
                    .seed = 0xfedcba9876543210ULL,
                    .result = result,
                    .reason = "no-moves",
                    .plies = GAME_PLIES,
                    .movetext = "1. cd4 ba5 2. dc5 *",
                    .positions = t->pos,
                    .positions_len = GAME_PLIES};
}

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

/* ---- runs ----------------------------------------------------------------- */

static void test_runs(void **state)
{
    (void)state;
    Db *db = open_ok(":memory:", true);
    char err[ERR_MAX] = "";
    int64_t a = 0, b = 0, found = -1;
    char status[DB_STATUS_MAX];
    const uint64_t big_seed = 0x8000000000000001ULL; /* above INT64_MAX: stored as its bits */
    CHECK_OK(
        db_run_create(db, "selfplay", "russian", big_seed, "games=100\ndepth=6", "first", &a, err));
    CHECK_OK(
        db_run_create(db, "selfplay", "russian", big_seed, "games=100\ndepth=6", NULL, &b, err));
    assert_true(b > a);

    CHECK_OK(db_run_find(db, "selfplay", "russian", big_seed, "games=100\ndepth=6", &found, status,
                         err));
    assert_int_equal(found, b); /* the newest */
    assert_string_equal(status, "running");
    CHECK_OK(db_run_find(db, "selfplay", "russian", big_seed, "games=101\ndepth=6", &found, status,
                         err));
    assert_int_equal(found, 0);
    CHECK_OK(db_run_find(db, "tune", "russian", big_seed, "games=100\ndepth=6", &found, NULL, err));
    assert_int_equal(found, 0);

    CHECK_OK(db_run_finish(db, a, "interrupted", err));
    DbRun run;
    CHECK_OK(db_run_get(db, a, &run, err));
    assert_int_equal(run.id, a);
    assert_string_equal(run.kind, "selfplay");
    assert_string_equal(run.game, "russian");
    assert_string_equal(run.status, "interrupted");
    assert_string_equal(run.config, "games=100\ndepth=6");
    assert_string_equal(run.note, "first");
    assert_true(run.seed == big_seed);
    assert_non_null(run.created);
    assert_non_null(run.finished);
    db_run_clear(&run);

    CHECK_OK(db_run_finish(db, a, "running", err)); /* resumed: finished cleared */
    CHECK_OK(db_run_get(db, a, &run, err));
    assert_null(run.finished);
    db_run_clear(&run);
    CHECK_OK(db_run_get(db, b, &run, err));
    assert_null(run.note);
    db_run_clear(&run);

    /* errors */
    assert_int_equal(db_run_finish(db, 999, "done", err), -1);
    assert_contains(err, "no such run");
    assert_int_equal(db_run_finish(db, a, "paused", err), -1);
    assert_contains(err, "paused");
    assert_int_equal(db_run_get(db, 999, &run, err), -1);
    assert_contains(err, "run 999 not found");
    assert_int_equal(db_run_create(db, "play", "russian", 1, NULL, NULL, &a, err), -1);
    assert_contains(err, "run kind 'play'");
    db_close(db);
}

/* ---- weight sets ---------------------------------------------------------- */

static const char *const ws_names[] = {"man", "king", "pst[0]", "pst[1]", "tempo"};
static const int32_t ws_values[] = {100, 250, -7, INT32_MAX, INT32_MIN};
enum { WS_LEN = 5 };

static void test_weights_round_trip(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    char text_hash[DB_HASH_HEX + 8];
    int64_t id = 0, child = 0, run = 0;
    CHECK_OK(db_weights_insert(db, "russian", "default", 0, "compiled-in", 0, ws_names, ws_values,
                               WS_LEN, &id, err));
    CHECK_OK(db_run_create(db, "tune", "russian", 3, NULL, NULL, &run, err));
    const int32_t tuned[WS_LEN] = {100, 251, -7, INT32_MAX, INT32_MIN};
    CHECK_OK(db_weights_insert(db, "russian", NULL, id, "tuned by tuning run 1", run, ws_names,
                               tuned, WS_LEN, &child, err));
    assert_int_equal(child, 2);
    int32_t out[WS_LEN] = {0};
    CHECK_OK(db_weights_load(db, id, "russian", ws_names, out, WS_LEN, err));
    assert_memory_equal(out, ws_values, sizeof out);
    /* A weight set is its content: the same values again give the old row,
     * whatever the name, lineage and run; other names or another game do
     * not match. */
    int64_t again = 0;
    CHECK_OK(db_weights_insert(db, "russian", "other", 0, "file x.cfg", run, ws_names, ws_values,
                               WS_LEN, &again, err));
    assert_int_equal(again, id);
    CHECK_OK(db_weights_insert(db, "russian", NULL, 0, "compiled-in", 0, ws_names, tuned, WS_LEN,
                               &again, err));
    assert_int_equal(again, child);
    CHECK_OK(db_weights_insert(db, "turkish", NULL, 0, "compiled-in", 0, ws_names, ws_values,
                               WS_LEN, &again, err));
    assert_int_equal(again, 3);
    const char *const renamed[WS_LEN] = {"man", "king", "pst[0]", "pst[1]", "tempo2"};
    CHECK_OK(db_weights_insert(db, "russian", NULL, 0, "compiled-in", 0, renamed, ws_values,
                               WS_LEN, &again, err));
    assert_int_equal(again, 4);
    char hash[DB_HASH_HEX];
    db_weights_hash("russian", ws_names, tuned, WS_LEN, hash);
    CHECK_OK(db_weights_find_hash(db, "russian", hash, &again, err));
    assert_int_equal(again, child);
    CHECK_OK(db_weights_find_hash(db, "shatra", hash, &again, err));
    assert_int_equal(again, 0);
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM weight_sets"), 4);
    raw_text(t.path, "SELECT hash FROM weight_sets WHERE id = 2", text_hash, sizeof text_hash);
    assert_string_equal(text_hash, hash);

    /* readable with sqlite3 alone */
    char text[256];
    raw_text(t.path, "SELECT weights FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "100,250,-7,2147483647,-2147483648");
    raw_text(t.path, "SELECT terms FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "man,king,pst[0],pst[1],tempo");
    assert_int_equal(raw_int(t.path, "SELECT parent_id FROM weight_sets WHERE id = 2"), 1);
    assert_int_equal(raw_int(t.path, "SELECT parent_id IS NULL FROM weight_sets WHERE id = 1"), 1);
    temp_remove(&t);
}

typedef struct WsLoadCase {
    const char *label;
    const char *tamper; /* raw SQL run on weight set 1 first, or NULL */
    const char *game;
    int64_t id;
    const char *const *names;
    int len;
    const char *expect;
} WsLoadCase;

static const char *const names_renamed[] = {"man", "king", "psqt[0]", "pst[1]", "tempo"};
static const char *const names_short[] = {"man", "king", "pst[0]", "pst[1]"};
static const char *const names_long[] = {"man", "king", "pst[0]", "pst[1]", "tempo", "extra"};

/* A pattern-sized table (>= 65 weights named t[0], t[1], ...) is stored
 * compactly (named once as a range, its values run-length coded), loads
 * back exactly, keeps the canonical content hash, and a tampered range is
 * refused with the weight it breaks on. */
static void test_weights_compact_table(void **state)
{
    (void)state;
    enum { N = 2 + 100 };
    static char store[N][16];
    const char *names[N];
    int32_t values[N], back[N];
    names[0] = "man", names[1] = "tempo";
    values[0] = 100, values[1] = 4;
    for (int i = 0; i < 100; i++) {
        snprintf(store[2 + i], sizeof store[0], "pat[%d]", i);
        names[2 + i] = store[2 + i];
        values[2 + i] = i < 90 ? 0 : i - 95; /* 90 zeros, then -5..4 */
    }
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t id = 0, again = 0;
    CHECK_OK(db_weights_insert(db, "russian", "p", 0, "compiled-in", 0, names, values, N, &id, err));
    CHECK_OK(db_weights_insert(db, "russian", "p", 0, "compiled-in", 0, names, values, N, &again, err));
    assert_int_equal(again, id); /* the same content is found again */
    CHECK_OK(db_weights_load(db, id, "russian", names, back, N, err));
    assert_memory_equal(back, values, sizeof values);
    char hash[DB_HASH_HEX], stored[DB_HASH_HEX];
    db_weights_hash("russian", names, values, N, hash);
    db_close(db);
    raw_text(t.path, "SELECT hash FROM weight_sets WHERE id = 1", stored, sizeof stored);
    assert_string_equal(stored, hash);
    char text[512];
    raw_text(t.path, "SELECT terms FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "man,tempo,pat[0..99]");
    raw_text(t.path, "SELECT weights FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "100,4,0*90,-5,-4,-3,-2,-1,0,1,2,3,4");
    static const struct {
        const char *tamper, *expect;
    } BAD[] = {
        {"UPDATE weight_sets SET weights = '100,4,0*89,-5,-4,-3,-2,-1,0,1,2,3,4'", "only 101 weight values for 102 names"},
        {"UPDATE weight_sets SET weights = '100,4,0*91,-5,-4,-3,-2,-1,0,1,2,3,4'", "weight index 101 (0-based, of 102) '3'"},
        {"UPDATE weight_sets SET weights = '100,4,0*x,-5,-4,-3,-2,-1,0,1,2,3,4'", "weight index 2 (0-based, of 102) '0*x'"},
        {"UPDATE weight_sets SET terms = 'man,tempo,pat[0..98]'", "has 101 weights, but this dama's"},
        {"UPDATE weight_sets SET terms = 'man,tempo,pax[0..99]'", "weight 2 is 'pax[0]' in the database but 'pat[0]'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        raw_exec(t.path, BAD[i].tamper);
        db = open_ok(t.path, false);
        err[0] = '\0';
        assert_int_equal(db_weights_load(db, 1, "russian", names, back, N, err), -1);
        if (!strstr(err, BAD[i].expect)) fail_msg("%s: error '%s' lacks '%s'", BAD[i].tamper, err, BAD[i].expect);
        db_close(db);
        raw_exec(t.path, "UPDATE weight_sets SET terms = 'man,tempo,pat[0..99]', weights = '100,4,0*90,-5,-4,-3,-2,-1,0,1,2,3,4'");
    }
    temp_remove(&t);
}

static void test_weights_load_errors(void **state)
{
    (void)state;
    static const WsLoadCase cases[] = {
        {"missing id", NULL, "russian", 42, ws_names, WS_LEN, "weight set 42 not found"},
        {"other game", NULL, "turkish", 1, ws_names, WS_LEN,
         "is for game 'russian', not 'turkish'"},
        {"renamed weight", NULL, "russian", 1, names_renamed, WS_LEN,
         "weight 2 is 'pst[0]' in the database but 'psqt[0]' in this dama"},
        {"fewer names", NULL, "russian", 1, names_short, 4, "has 5 weights, but this dama's"},
        {"more names", NULL, "russian", 1, names_long, 6, "has 5 weights, but this dama's"},
        {"letter", "UPDATE weight_sets SET weights = '1,2,x,4,5'", "russian", 1, ws_names, WS_LEN,
         "weight index 2 (0-based, of 5) 'x'"},
        {"empty item", "UPDATE weight_sets SET weights = '1,,3,4,5'", "russian", 1, ws_names,
         WS_LEN, "weight index 1 (0-based, of 5) ''"},
        {"space", "UPDATE weight_sets SET weights = '1, 2,3,4,5'", "russian", 1, ws_names, WS_LEN,
         "weight index 1 (0-based, of 5) ' 2'"},
        {"overflow", "UPDATE weight_sets SET weights = '1,2,3,2147483648,5'", "russian", 1,
         ws_names, WS_LEN, "weight index 3 (0-based, of 5) '2147483648'"},
        {"huge", "UPDATE weight_sets SET weights = '1,2,3,4,99999999999999999999'", "russian", 1,
         ws_names, WS_LEN, "weight index 4 (0-based"},
        {"too few values", "UPDATE weight_sets SET weights = '1,2,3'", "russian", 1, ws_names,
         WS_LEN, "only 3 weight values for 5 names"},
        {"too many values", "UPDATE weight_sets SET weights = '1,2,3,4,5,6'", "russian", 1,
         ws_names, WS_LEN, "weight index 4 (0-based, of 5) '5'"},
        {"trailing comma", "UPDATE weight_sets SET weights = '1,2,3,4,5,'", "russian", 1, ws_names,
         WS_LEN, "weight index 4 (0-based, of 5) '5'"},
        {"decimal", "UPDATE weight_sets SET weights = '1,2,3.5,4,5'", "russian", 1, ws_names,
         WS_LEN, "weight index 2 (0-based, of 5) '3.5'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const WsLoadCase *c = &cases[i];
        TempDb t;
        temp_make(&t, false);
        Db *db = open_ok(t.path, true);
        char err[ERR_MAX] = "";
        int64_t id = 0;
        CHECK_OK(db_weights_insert(db, "russian", "w", 0, "compiled-in", 0, ws_names, ws_values,
                                   WS_LEN, &id, err));
        db_close(db);
        if (c->tamper)
            raw_exec(t.path, c->tamper);
        db = open_ok(t.path, false);
        int32_t out[8] = {11, 11, 11, 11, 11, 11, 11, 11};
        if (db_weights_load(db, c->id, c->game, c->names, out, c->len, err) == 0)
            fail_msg("%s: loaded", c->label);
        if (!strstr(err, c->expect))
            fail_msg("%s: expected '%s' in: %s", c->label, c->expect, err);
        assert_contains(err, t.path);
        for (int k = 0; k < 8; k++)
            assert_int_equal(out[k], 11); /* untouched on error */
        db_close(db);
        temp_remove(&t);
    }
}

static void test_weights_insert_errors(void **state)
{
    (void)state;
    Db *db = open_ok(":memory:", true);
    char err[ERR_MAX] = "";
    int64_t id = 0;
    static const char *const comma[] = {"man", "a,b"};
    static const char *const empty[] = {"man", ""};
    static const int32_t w[] = {1, 2};
    assert_int_equal(
        db_weights_insert(db, "russian", "x", 0, "compiled-in", 0, comma, w, 2, &id, err), -1);
    assert_contains(err, "weight 1 has name 'a,b'");
    assert_int_equal(
        db_weights_insert(db, "russian", "x", 0, "compiled-in", 0, empty, w, 2, &id, err), -1);
    assert_contains(err, "weight 1 has name ''");
    assert_int_equal(db_weights_insert(db, "russian", "x", 0, NULL, 0, ws_names, w, 2, &id, err),
                     -1);
    assert_contains(err, "lineage");
    /* foreign keys are enforced: no such parent */
    assert_int_equal(db_weights_insert(db, "russian", "x", 77, "perturbed from 77", 0, ws_names,
                                       ws_values, WS_LEN, &id, err),
                     -1);
    assert_contains(err, "FOREIGN KEY");
    db_close(db);
}

/* ---- games and positions -------------------------------------------------- */

typedef struct Collect {
    int len;
    DbPosition pos[64];
    char fens[64][80];
    int stop_after; /* 0: never */
} Collect;

static int collect_position(void *ctx, const DbPosition *p)
{
    Collect *c = ctx;
    if (c->len >= 64)
        return -5;
    c->pos[c->len] = *p;
    snprintf(c->fens[c->len], sizeof c->fens[c->len], "%s", p->fen);
    c->pos[c->len].fen = c->fens[c->len];
    c->len++;
    return c->stop_after && c->len >= c->stop_after ? 7 : 0;
}

typedef struct GameSeen {
    int len;
    int64_t ids[8];
    char result[8][16], movetext[8][64], opening[8][32];
    uint64_t seed[8];
    int64_t white_ws[8], plies[8];
} GameSeen;

static int collect_game(void *ctx, int64_t game_id, const DbGame *g)
{
    GameSeen *s = ctx;
    int i = s->len++;
    s->ids[i] = game_id;
    snprintf(s->result[i], sizeof s->result[i], "%s", g->result);
    snprintf(s->movetext[i], sizeof s->movetext[i], "%s", g->movetext);
    snprintf(s->opening[i], sizeof s->opening[i], "%s", g->opening ? g->opening : "(null)");
    s->seed[i] = g->seed;
    s->white_ws[i] = g->white_ws;
    s->plies[i] = g->plies;
    assert_null(g->positions);
    return 0;
}

static void test_game_insert_and_read(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t run = 0, ws = 0, gid = 0, gid2 = 0;
    CHECK_OK(db_run_create(db, "selfplay", "russian", 1, "cfg", NULL, &run, err));
    CHECK_OK(db_weights_insert(db, "russian", "w", 0, "compiled-in", 0, ws_names, ws_values, WS_LEN,
                               &ws, err));
    TestGame a, b;
    test_game_make(&a, run, 0, "1-0");
    a.g.white_ws = a.g.black_ws = ws;
    test_game_make(&b, run, 1, "1/2-1/2");
    b.g.opening = NULL;
    CHECK_OK(db_begin(db, err));
    assert_true(db_in_transaction(db));
    CHECK_OK(db_game_insert(db, &a.g, &gid, err));
    CHECK_OK(db_game_insert(db, &b.g, &gid2, err));
    CHECK_OK(db_commit(db, err));
    assert_false(db_in_transaction(db));
    assert_true(gid2 > gid);
    db_close(db);

    db = open_ok(t.path, false);
    Collect c = {0};
    CHECK_OK(db_positions_each(db, "russian", NULL, collect_position, &c, err));
    assert_int_equal(c.len, 2 * GAME_PLIES);
    for (int i = 0; i < GAME_PLIES; i++) {
        const DbPosition *p = &c.pos[i], *e = &a.pos[i];
        assert_int_equal(p->game_id, gid);
        assert_int_equal(p->ply, e->ply);
        assert_string_equal(p->fen, e->fen);
        assert_int_equal(p->stm, e->stm);
        assert_int_equal(p->has_score, e->has_score);
        if (e->has_score)
            assert_int_equal(p->score, e->score);
        assert_true(p->result == 1.0);
        assert_int_equal(p->quiet, e->quiet);
        assert_true(c.pos[GAME_PLIES + i].result == 0.5);
        assert_int_equal(c.pos[GAME_PLIES + i].game_id, gid2);
    }

    /* filters: by game, by column, by run; another game name matches nothing */
    Collect q = {0};
    CHECK_OK(
        db_positions_each(db, NULL, "p.quiet = 1 AND g.result = '1-0'", collect_position, &q, err));
    assert_int_equal(q.len, 9); /* plies 0..11 minus 1, 5, 9 */
    Collect none = {0};
    CHECK_OK(db_positions_each(db, "turkish", "", collect_position, &none, err));
    assert_int_equal(none.len, 0);
    Collect stop = {.stop_after = 3};
    assert_int_equal(db_positions_each(db, NULL, NULL, collect_position, &stop, err), 7);
    assert_int_equal(stop.len, 3);

    /* bad filters are refused with the SQLite message */
    assert_int_equal(db_positions_each(db, NULL, "p.nonsense = 1", collect_position, &none, err),
                     -1);
    assert_contains(err, "no such column: p.nonsense");
    assert_int_equal(db_positions_each(db, NULL, "1); DROP TABLE games; SELECT (1",
                                       collect_position, &none, err),
                     -1);
    assert_contains(err, "one read-only SQL condition");
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM games"), 2);

    GameSeen s = {0};
    CHECK_OK(db_games_each(db, "g.run_id = 1", collect_game, &s, err));
    assert_int_equal(s.len, 2);
    assert_int_equal(s.ids[0], gid);
    assert_string_equal(s.result[0], "1-0");
    assert_string_equal(s.result[1], "1/2-1/2");
    assert_string_equal(s.movetext[0], "1. cd4 ba5 2. dc5 *");
    assert_string_equal(s.opening[0], "ab4 ba5");
    assert_string_equal(s.opening[1], "(null)");
    assert_true(s.seed[0] == 0xfedcba9876543210ULL);
    assert_int_equal(s.white_ws[0], ws);
    assert_int_equal(s.white_ws[1], 0);
    assert_int_equal(s.plies[0], GAME_PLIES);
    db_close(db);

    /* a row spoiled with sqlite3 is reported with its id */
    raw_exec(t.path, "UPDATE positions SET score = 'lots' WHERE id = 5");
    db = open_ok(t.path, false);
    Collect bad = {0};
    assert_int_equal(db_positions_each(db, NULL, NULL, collect_position, &bad, err), -1);
    assert_contains(err, "position 5");
    assert_contains(err, "score is not an int32");
    db_close(db);
    temp_remove(&t);
}

static void test_game_insert_errors(void **state)
{
    (void)state;
    Db *db = open_ok(":memory:", true);
    char err[ERR_MAX] = "";
    int64_t run = 0;
    CHECK_OK(db_run_create(db, "selfplay", "russian", 1, NULL, NULL, &run, err));
    TestGame a;
    test_game_make(&a, run, 0, "1-0");
    a.g.result = "2-0";
    assert_int_equal(db_game_insert(db, &a.g, NULL, err), -1);
    assert_contains(err, "result must be");
    test_game_make(&a, 999, 0, "1-0"); /* no such run */
    assert_int_equal(db_game_insert(db, &a.g, NULL, err), -1);
    assert_contains(err, "storing game 0 of run 999");
    assert_contains(err, "FOREIGN KEY");
    test_game_make(&a, run, 0, "1-0");
    a.pos[4].stm = 2; /* violates CHECK: the whole game is rolled back */
    assert_int_equal(db_game_insert(db, &a.g, NULL, err), -1);
    assert_contains(err, "position 4 (ply 4)");
    assert_contains(err, "CHECK constraint failed");
    assert_false(db_in_transaction(db));
    Collect c = {0};
    CHECK_OK(db_positions_each(db, NULL, NULL, collect_position, &c, err));
    assert_int_equal(c.len, 0);
    bool done[1];
    int64_t stored = -1;
    CHECK_OK(db_run_game_indices(db, run, done, 1, &stored, err));
    assert_int_equal(stored, 0);
    db_close(db);
}

static void test_rollback_leaves_nothing(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t run = 0;
    CHECK_OK(db_run_create(db, "selfplay", "russian", 1, NULL, NULL, &run, err));
    TestGame a, b;
    test_game_make(&a, run, 0, "0-1");
    test_game_make(&b, run, 1, "0-1");
    CHECK_OK(db_begin(db, err));
    assert_int_equal(db_begin(db, err), -1); /* no nesting */
    assert_contains(err, "already open");
    CHECK_OK(db_game_insert(db, &a.g, NULL, err));
    CHECK_OK(db_game_insert(db, &b.g, NULL, err));
    CHECK_OK(db_weights_insert(db, "russian", "w", 0, "compiled-in", 0, ws_names, ws_values, WS_LEN,
                               &run, err));
    db_rollback(db);
    assert_false(db_in_transaction(db));
    db_rollback(db); /* harmless without a transaction */
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM games"), 0);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM positions"), 0);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM weight_sets"), 0);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs"), 1);

    /* db_close rolls back an open transaction too */
    db = open_ok(t.path, false);
    CHECK_OK(db_begin(db, err));
    CHECK_OK(db_game_insert(db, &a.g, NULL, err));
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM positions"), 0);

    /* a failed write inside the caller's transaction rolls back the whole batch */
    db = open_ok(t.path, false);
    CHECK_OK(db_begin(db, err));
    CHECK_OK(db_game_insert(db, &a.g, NULL, err));
    b.pos[2].result = 0.25; /* not a game result: CHECK constraint */
    assert_int_equal(db_game_insert(db, &b.g, NULL, err), -1);
    assert_contains(err, "storing game 1 of run 1: position 2 (ply 2)");
    assert_contains(err, "CHECK constraint failed");
    assert_false(db_in_transaction(db));
    assert_int_equal(db_commit(db, err), -1); /* nothing left to commit */
    db_rollback(db);
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM games"), 0);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM positions"), 0);
    temp_remove(&t);
}

static void test_resume_indices(void **state)
{
    (void)state;
    Db *db = open_ok(":memory:", true);
    char err[ERR_MAX] = "";
    int64_t run = 0, other = 0;
    CHECK_OK(db_run_create(db, "selfplay", "russian", 5, "n=6", NULL, &run, err));
    CHECK_OK(db_run_create(db, "selfplay", "russian", 6, "n=6", NULL, &other, err));
    static const int64_t stored_idx[] = {0, 2, 5, 9};
    TestGame t;
    for (size_t i = 0; i < sizeof stored_idx / sizeof stored_idx[0]; i++) {
        test_game_make(&t, run, stored_idx[i], "1/2-1/2");
        CHECK_OK(db_game_insert(db, &t.g, NULL, err));
    }
    test_game_make(&t, other, 1, "1-0");
    CHECK_OK(db_game_insert(db, &t.g, NULL, err));

    /* a game already stored is refused, the first copy stays */
    test_game_make(&t, run, 2, "1-0");
    assert_int_equal(db_game_insert(db, &t.g, NULL, err), -1);
    assert_contains(err, "storing game 2 of run 1");
    assert_contains(err, "UNIQUE");

    bool done[6];
    int64_t stored = 0;
    CHECK_OK(db_run_game_indices(db, run, done, 6, &stored, err));
    static const bool expect[6] = {true, false, true, false, false, true};
    for (int i = 0; i < 6; i++)
        assert_int_equal(done[i], expect[i]);
    assert_int_equal(stored, 3); /* index 9 is outside 0..5 */
    CHECK_OK(db_run_game_indices(db, 42, done, 6, &stored, err));
    assert_int_equal(stored, 0);
    db_close(db);
}

/* ---- tuning runs and matches ---------------------------------------------- */

static void test_tuning_and_matches(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t run = 0, ws = 0, tid = 0, mid = 0;
    CHECK_OK(db_run_create(db, "tune", "russian", 1, NULL, NULL, &run, err));
    CHECK_OK(db_weights_insert(db, "russian", "w", 0, "compiled-in", 0, ws_names, ws_values, WS_LEN,
                               &ws, err));
    DbTuning tr = {.run_id = run,
                   .game = "russian",
                   .base_ws = ws,
                   .k = NAN,
                   .positions_train = 900,
                   .positions_valid = 100,
                   .train_loss = NAN,
                   .valid_loss = NAN,
                   .data = "g.run_id IN (1)"};
    CHECK_OK(db_tuning_insert(db, &tr, &tid, err));
    CHECK_OK(db_tuning_epoch_insert(db, tid, 0, 0.25, 0.26, err));
    CHECK_OK(db_tuning_epoch_insert(db, tid, 1, 0.2, NAN, err));
    assert_int_equal(db_tuning_epoch_insert(db, tid, 1, 0.2, 0.2, err), -1);
    assert_contains(err, "epoch 1 of tuning run 1");
    tr.k = 1.13;
    tr.result_ws = ws;
    tr.train_loss = 0.2;
    tr.valid_loss = 0.21;
    CHECK_OK(db_tuning_update(db, tid, &tr, err));
    assert_int_equal(db_tuning_update(db, 99, &tr, err), -1);
    assert_contains(err, "no such tuning run");

    DbMatch m = {.run_id = run,
                 .game = "russian",
                 .ws_a = ws,
                 .ws_b = ws,
                 .games = 4,
                 .wins = 2,
                 .draws = 1,
                 .losses = 1,
                 .penta = {0, 0, 1, 1, 0},
                 .elo = 88.7,
                 .elo_lo = -50,
                 .elo_hi = 220,
                 .llr = NAN,
                 .sprt_elo0 = 0,
                 .sprt_elo1 = 5,
                 .sprt_alpha = 0.05,
                 .sprt_beta = 0.05};
    CHECK_OK(db_match_insert(db, &m, &mid, err));
    m.games = 6;
    m.penta[4] = 1;
    m.llr = 0.5;
    m.sprt_result = "H1";
    CHECK_OK(db_match_update(db, mid, &m, err));
    assert_int_equal(db_match_update(db, 99, &m, err), -1);
    assert_contains(err, "no such match");
    db_close(db);

    assert_int_equal(raw_int(t.path, "SELECT result_ws FROM tuning_runs WHERE id = 1"), ws);
    assert_int_equal(raw_int(t.path, "SELECT k = 1.13 FROM tuning_runs"), 1);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM tuning_epochs WHERE valid_loss IS NULL"),
                     1);
    assert_int_equal(raw_int(t.path, "SELECT games * 10 + penta4 FROM matches"), 61);
    assert_int_equal(raw_int(t.path, "SELECT sprt_result = 'H1' AND llr = 0.5 FROM matches"), 1);
    temp_remove(&t);
}

/* ---- trains and generations (dama train) ---------------------------------- */

static int collect_gen(void *ctx, const DbGeneration *g)
{
    DbGeneration *out = ctx;
    out[g->generation] = *g;
    out[g->generation].stage = NULL; /* valid only during the call */
    out[g->generation].game = NULL;
    return 0;
}

static void test_trains_and_generations(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t ws[4], train = 0, start = 0, id = 0;
    for (int i = 0; i < 4; i++) {
        int32_t v[WS_LEN];
        memcpy(v, ws_values, sizeof v);
        v[0] += i; /* four distinct weight sets */
        CHECK_OK(db_weights_insert(db, "russian", "w", i ? ws[0] : 0, "test", 0, ws_names, v, WS_LEN, &ws[i], err));
    }
    CHECK_OK(db_train_find(db, "russian", 7, "a = 1\n", &train, &start, err));
    assert_int_equal(train, 0);
    CHECK_OK(db_train_insert(db, "russian", 7, "a = 1\n", ws[0], 3, &train, err));
    CHECK_OK(db_train_find(db, "russian", 7, "a = 1\n", &id, &start, err));
    assert_int_equal(id, train);
    assert_int_equal(start, ws[0]);
    CHECK_OK(db_train_find(db, "russian", 8, "a = 1\n", &id, &start, err)); /* another seed: another train */
    assert_int_equal(id, 0);
    CHECK_OK(db_train_find(db, "russian", 7, "a = 2\n", &id, &start, err)); /* another configuration */
    assert_int_equal(id, 0);

    /* generation, stage, accepted, candidate, best: 0 is the start; 1 fails
     * its gate; 2 passes; 3 is still playing its self-play games */
    static const struct {
        int gen;
        const char *stage;
        int accepted, cand, best;
    } rows[] = {
        {0, "done", 1, 0, 0},
        {1, "done", 0, 1, 0},
        {2, "ladder", 1, 2, 2},
        {3, "selfplay", -1, -1, -1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        DbGeneration g = {.train_id = train, .game = "russian", .generation = rows[i].gen, .stage = rows[i].stage,
                          .parent_generation = rows[i].gen ? 0 : -1, .parent_ws = rows[i].gen ? ws[0] : 0,
                          .accepted = rows[i].accepted, .candidate_ws = rows[i].cand >= 0 ? ws[rows[i].cand] : 0,
                          .best_ws = rows[i].best >= 0 ? ws[rows[i].best] : 0, .gate_elo = NAN,
                          .gate_elo_lo = NAN, .gate_elo_hi = NAN, .ladder_elo = rows[i].gen == 0 ? 0 : NAN,
                          .ladder_elo_lo = NAN, .ladder_elo_hi = NAN};
        snprintf(g.data_runs, sizeof g.data_runs, rows[i].gen ? "%d,%d" : "", rows[i].gen, rows[i].gen + 10);
        snprintf(g.reason, sizeof g.reason, "row %zu", i);
        CHECK_OK(db_generation_put(db, &g, err));
    }
    int generation = 0;
    int64_t best = 0, of = 0;
    CHECK_OK(db_train_best(db, "russian", 0, &best, &generation, &of, err));
    assert_int_equal(best, ws[2]);
    assert_int_equal(generation, 2);
    assert_int_equal(of, train);
    /* the ladder stage done: an update keeps the row and stamps finished */
    DbGeneration back[4];
    memset(back, 0, sizeof back);
    CHECK_OK(db_generations_each(db, train, collect_gen, back, err));
    assert_int_equal(back[1].accepted, 0);
    assert_int_equal(back[3].accepted, -1);
    assert_int_equal(back[0].parent_generation, -1);
    assert_string_equal(back[2].data_runs, "2,12");
    assert_string_equal(back[0].data_runs, "");
    assert_true(isnan(back[2].ladder_elo));
    assert_true(back[0].ladder_elo == 0);
    back[2].game = "russian";
    back[2].stage = "done";
    back[2].ladder_match = 0;
    back[2].ladder_elo = 31.5;
    CHECK_OK(db_generation_put(db, &back[2], err));
    back[2].stage = "tuned"; /* not a stage */
    assert_int_equal(db_generation_put(db, &back[2], err), -1);
    assert_contains(err, "stage 'tuned' is not");
    /* train:ID of a missing train, and a game without trains */
    assert_int_equal(db_train_best(db, "russian", 99, &best, &generation, &of, err), -1);
    assert_contains(err, "no russian train 99");
    assert_int_equal(db_train_best(db, "turkish", 0, &best, &generation, &of, err), -1);
    assert_contains(err, "no turkish train");
    CHECK_OK(db_train_newest(db, "russian", &id, err));
    assert_int_equal(id, train);
    char game[DB_GAME_NAME_MAX];
    CHECK_OK(db_train_game(db, train, game, err));
    assert_string_equal(game, "russian");
    assert_int_equal(db_train_game(db, 42, game, err), -1);
    assert_contains(err, "train 42 does not exist");
    CHECK_OK(db_train_set_status(db, train, "done", 5, err));

    /* the newest match of A vs B after an id, with its run's status */
    int64_t run = 0, m1 = 0, m2 = 0, max = 0;
    CHECK_OK(db_run_create(db, "match", "russian", 3, NULL, NULL, &run, err));
    DbMatch m = {.run_id = run, .game = "russian", .ws_a = ws[2], .ws_b = ws[0], .games = 40, .elo = 12.5,
                 .elo_lo = -3, .elo_hi = 28, .llr = 3.1, .sprt_llr = 2.95, .sprt_pairs = 18, .sprt_result = "H1"};
    CHECK_OK(db_match_insert(db, &m, &m1, err));
    CHECK_OK(db_match_insert(db, &m, &m2, err));
    CHECK_OK(db_run_finish(db, run, "done", err));
    CHECK_OK(db_matches_max_id(db, &max, err));
    assert_int_equal(max, m2);
    DbMatchSummary ms;
    CHECK_OK(db_match_newest(db, ws[2], ws[0], 0, &ms, err));
    assert_int_equal(ms.id, m2);
    assert_string_equal(ms.status, "done");
    assert_string_equal(ms.sprt_result, "H1");
    assert_int_equal(ms.sprt_pairs, 18);
    assert_true(ms.elo == 12.5 && ms.sprt_llr == 2.95);
    CHECK_OK(db_match_newest(db, ws[2], ws[0], m2, &ms, err));
    assert_int_equal(ms.id, 0);
    CHECK_OK(db_match_newest(db, ws[0], ws[2], 0, &ms, err)); /* A and B are not interchangeable */
    assert_int_equal(ms.id, 0);
    char status[DB_STATUS_MAX];
    CHECK_OK(db_run_newest(db, "match", "russian", 3, &id, status, err));
    assert_int_equal(id, run);
    assert_string_equal(status, "done");
    CHECK_OK(db_run_newest(db, "selfplay", "russian", 3, &id, status, err));
    assert_int_equal(id, 0);
    db_close(db);

    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM generations"), 4);
    assert_int_equal(raw_int(t.path, "SELECT ladder_elo = 31.5 AND finished IS NOT NULL FROM generations "
                                     "WHERE generation = 2"),
                     1);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM generations WHERE finished IS NULL"), 1);
    assert_int_equal(raw_int(t.path, "SELECT generations * 10 + (status = 'done') FROM trains"), 51);
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

/* ---- schema 3: hashes, run owners, members, read-only, discard ------------ */

typedef struct HashCase {
    const char *game;
    const char *const *names;
    const int32_t *values;
    int len;
    const char *hex; /* FNV-1a 64 of game NUL terms NUL values, by hand (Python) */
} HashCase;

static void test_weights_hash(void **state)
{
    (void)state;
    static const char *const two[] = {"man", "king"};
    static const int32_t v1[] = {100, -5};
    static const int32_t v2[] = {100, -6};
    const HashCase cases[] = {
        {"russian", two, v1, 2, "eee94bb8c1aef694"},
    };
    char hex[DB_HASH_HEX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        db_weights_hash(cases[i].game, cases[i].names, cases[i].values, cases[i].len, hex);
        assert_string_equal(hex, cases[i].hex);
    }
    char other[DB_HASH_HEX];
    db_weights_hash("russian", two, v2, 2, other);
    assert_string_not_equal(hex, other);
    db_weights_hash("turkish", two, v1, 2, other);
    assert_string_not_equal(hex, other);
    /* the one definition (engine/weights_id.h): FNV-1a 64's published vector
     * ("a"), the stored text, and the piecewise hash at the int32 extremes */
    assert_true(weights_fnv1a(WEIGHTS_FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(weights_hash_canonical("russian", "man,king", "100,-5") == 0xeee94bb8c1aef694ULL);
    static const int32_t ext[] = {INT32_MIN, INT32_MAX, 0};
    static const char *const three[] = {"a", "b[0]", "b[1]"};
    assert_true(weights_hash_values(weights_hash_names("shatra", three, 3), ext, 3) ==
                weights_hash_canonical("shatra", "a,b[0],b[1]", "-2147483648,2147483647,0"));
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

static void test_run_members(void **state)
{
    (void)state;
    Db *db = open_ok(":memory:", true);
    char err[ERR_MAX] = "";
    int64_t run = 0, a = 0, b = 0;
    CHECK_OK(db_run_create(db, "selfplay", "russian", 1, NULL, NULL, &run, err));
    CHECK_OK(db_weights_insert(db, "russian", NULL, 0, "compiled-in", 0, ws_names, ws_values, WS_LEN, &a,
                               err));
    const int32_t other[WS_LEN] = {100, 1, 2, 3, 4};
    CHECK_OK(db_weights_insert(db, "russian", NULL, a, "perturbed", run, ws_names, other, WS_LEN, &b, err));
    /* members in member order, a row may be a member twice */
    CHECK_OK(db_run_weights_add(db, run, 0, b, err));
    CHECK_OK(db_run_weights_add(db, run, 1, a, err));
    CHECK_OK(db_run_weights_add(db, run, 2, b, err));
    assert_int_equal(db_run_weights_add(db, run, 1, b, err), -1);
    assert_contains(err, "member 1");
    int64_t ids[8];
    int len = 0;
    CHECK_OK(db_weights_by_run(db, run, ids, 8, &len, err));
    assert_int_equal(len, 3);
    assert_int_equal(ids[0], b);
    assert_int_equal(ids[1], a);
    assert_int_equal(ids[2], b);
    db_close(db);
}

/* A pid that surely belongs to no process now: a child that has exited
 * and been reaped. */
static pid_t dead_pid(void)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(0);
    int status = 0;
    waitpid(pid, &status, 0);
    return pid;
}

static void test_dead_owner_runs(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t ids[5] = {0};
    for (int i = 0; i < 5; i++)
        CHECK_OK(db_run_create(db, "tune", "russian", (uint64_t)i, NULL, NULL, &ids[i], err));
    CHECK_OK(db_run_finish(db, ids[4], "done", err));
    db_close(db);
    char host[256] = "";
    gethostname(host, sizeof host);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs WHERE owner_pid IS NOT NULL AND owner_host IS NOT NULL"), 5);
    char sql[512];
    /* run 1: a dead pid; run 2: another host; run 3: our pid reused by
     * another process (other start time); run 0: this live process. */
    snprintf(sql, sizeof sql, "UPDATE runs SET owner_pid = %d WHERE id = %lld; "
             "UPDATE runs SET owner_pid = %d, owner_host = 'elsewhere' WHERE id = %lld; "
             "UPDATE runs SET owner_start = owner_start + 1 WHERE id = %lld",
             (int)dead_pid(), (long long)ids[1], (int)dead_pid(), (long long)ids[2], (long long)ids[3]);
    raw_exec(t.path, sql);
    /* same process: owner_pid == getpid() counts as alive even with another
     * start time, so pretend run 3 belongs to our parent instead */
    snprintf(sql, sizeof sql, "UPDATE runs SET owner_pid = %d, owner_start = 1 WHERE id = %lld", (int)getppid(),
             (long long)ids[3]);
    raw_exec(t.path, sql);
    /* a read-only open marks nothing */
    CHECK_OK(db_open_readonly(t.path, &db, err));
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM runs WHERE status = 'running'"), 4);
    db_close(open_ok(t.path, false));
    const char *expect[5] = {"running", "interrupted", "running", "interrupted", "done"};
    for (int i = 0; i < 5; i++) {
        char status[32];
        snprintf(sql, sizeof sql, "SELECT status || CASE WHEN finished IS NULL THEN '' ELSE '+' END FROM runs WHERE id = %lld",
                 (long long)ids[i]);
        raw_text(t.path, sql, status, sizeof status);
        char want[32];
        snprintf(want, sizeof want, "%s%s", expect[i], strcmp(expect[i], "running") ? "+" : "");
        if (strcmp(status, want) != 0)
            fail_msg("run %d: status %s, expected %s", i, status, want);
    }
    /* a resumed run belongs to the process that resumed it */
    db = open_ok(t.path, false);
    CHECK_OK(db_run_finish(db, ids[1], "running", err));
    db_close(db);
    snprintf(sql, sizeof sql, "SELECT owner_pid = %d FROM runs WHERE id = %lld", (int)getpid(), (long long)ids[1]);
    assert_int_equal(raw_int(t.path, sql), 1);
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
 * column and the owner columns of step 10 (a later step must be undone here
 * too). */
static void test_migration_tournament_runs(void **state)
{
    (void)state;
    enum { STEP = 7 };
    assert_int_equal(DB_SCHEMA_VERSION, 10);
    TempDb t;
    temp_make(&t, false);
    db_close(open_ok(t.path, true));
    char sql[4096];
    snprintf(sql, sizeof sql,
             "ALTER TABLE trains DROP COLUMN owner_pid; ALTER TABLE trains DROP COLUMN owner_host;\n"
             "ALTER TABLE trains DROP COLUMN owner_start; ALTER TABLE trains DROP COLUMN owner_since;\n"
             "ALTER TABLE spsa_runs DROP COLUMN owner_pid; ALTER TABLE spsa_runs DROP COLUMN owner_host;\n"
             "ALTER TABLE spsa_runs DROP COLUMN owner_start; ALTER TABLE spsa_runs DROP COLUMN owner_since;\n"
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

/* Weight sets stored as deltas of their parent (schema 9): a member of a
 * self-play run differs from its base in a few weights. The row names only
 * those; loading resolves it through its parents (a chain); the content
 * hash and the look-up by content see the whole set, whichever way it was
 * stored; a damaged delta is refused naming what is wrong. */
static void test_weights_delta(void **state)
{
    (void)state;
    enum { N = 2 + 100 };
    static char store[N][16];
    const char *names[N];
    int32_t base[N], child[N], grand[N], back[N];
    names[0] = "man", names[1] = "tempo";
    for (int i = 0; i < 100; i++) {
        snprintf(store[2 + i], sizeof store[0], "pat[%d]", i);
        names[2 + i] = store[2 + i];
    }
    for (int i = 0; i < N; i++) base[i] = i * 3 - 50;
    memcpy(child, base, sizeof child);
    child[1] = 7, child[60] = -1000, child[N - 1] = INT32_MIN;
    memcpy(grand, child, sizeof grand);
    grand[0] = 101, grand[60] = base[60];
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t b = 0, c = 0, gc = 0, again = 0;
    CHECK_OK(db_weights_insert(db, "russian", "base", 0, "compiled-in", 0, names, base, N, &b, err));
    CHECK_OK(db_weights_insert_delta(db, "russian", "m1", b, "perturbed from 1", 0, names, child, N, &c, err));
    CHECK_OK(db_weights_insert_delta(db, "russian", "m2", c, "perturbed from 2", 0, names, grand, N, &gc, err));
    assert_int_equal(b, 1);
    assert_int_equal(c, 2);
    assert_int_equal(gc, 3);
    CHECK_OK(db_weights_load(db, c, "russian", names, back, N, err));
    assert_memory_equal(back, child, sizeof back);
    CHECK_OK(db_weights_load(db, gc, "russian", names, back, N, err));
    assert_memory_equal(back, grand, sizeof back);
    CHECK_OK(db_weights_load(db, b, "russian", names, back, N, err));
    assert_memory_equal(back, base, sizeof back);
    /* the same content again, either way, is the row that has it */
    CHECK_OK(db_weights_insert_delta(db, "russian", "x", b, "perturbed", 0, names, child, N, &again, err));
    assert_int_equal(again, c);
    CHECK_OK(db_weights_insert(db, "russian", "x", 0, "file x.cfg", 0, names, grand, N, &again, err));
    assert_int_equal(again, gc);
    CHECK_OK(db_weights_insert_delta(db, "russian", "x", gc, "perturbed", 0, names, base, N, &again, err));
    assert_int_equal(again, b);
    /* the hash is that of the whole set */
    char hash[DB_HASH_HEX];
    db_weights_hash("russian", names, grand, N, hash);
    CHECK_OK(db_weights_find_hash(db, "russian", hash, &again, err));
    assert_int_equal(again, gc);
    /* a delta needs a parent of the same game; a full set stored after its
     * delta twin finds the twin */
    assert_int_equal(db_weights_insert_delta(db, "russian", "y", 0, "perturbed", 0, names, base, N, &again, err), -1);
    assert_contains(err, "needs a parent weight set");
    child[5] = 1;
    assert_int_equal(db_weights_insert_delta(db, "turkish", "y", b, "perturbed", 0, names, child, N, &again, err), -1);
    assert_contains(err, "weight set 1 is for game 'russian', not 'turkish'");
    child[5] = base[5];
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM weight_sets"), 3);
    char text[256];
    raw_text(t.path, "SELECT delta || ' ' || parent_id || ' ' || terms || ' ' || weights FROM weight_sets WHERE id = 2",
             text, sizeof text);
    assert_string_equal(text, "1 1 tempo,pat[58],pat[99] 7,-1000,-2147483648");
    raw_text(t.path, "SELECT delta || ' ' || parent_id || ' ' || terms || ' ' || weights FROM weight_sets WHERE id = 3",
             text, sizeof text);
    assert_string_equal(text, "1 2 man,pat[58] 101,130");
    raw_text(t.path, "SELECT hash FROM weight_sets WHERE id = 3", text, sizeof text);
    assert_string_equal(text, hash);
    assert_int_equal(raw_int(t.path, "SELECT delta FROM weight_sets WHERE id = 1"), 0);

    /* a damaged delta (the chain's last row) */
    static const struct {
        const char *tamper, *expect;
    } BAD[] = {
        {"UPDATE weight_sets SET parent_id = NULL WHERE id = 3", "weight set 3 is a delta without a parent"},
        {"UPDATE weight_sets SET parent_id = 3 WHERE id = 3", "a chain of more than 64 deltas (a cycle?)"},
        {"UPDATE weight_sets SET parent_id = 9 WHERE id = 3", "weight set 9 not found"},
        {"UPDATE weight_sets SET terms = 'man,pat[58],pat[300]' WHERE id = 3", "only 2 weight values for 3 names"},
        {"UPDATE weight_sets SET terms = 'pat[58],man' WHERE id = 3", "its delta sets 'man', which is no weight of this dama's"},
        {"UPDATE weight_sets SET terms = 'man,pax[58]' WHERE id = 3", "its delta sets 'pax[58]'"},
        {"UPDATE weight_sets SET terms = 'man,pat[57..58]' WHERE id = 3", "only 2 weight values for 3 names"},
        {"UPDATE weight_sets SET weights = '101,x' WHERE id = 3", "weight index 1 (0-based, of 2) 'x'"},
        {"UPDATE weight_sets SET terms = '' WHERE id = 3", "a delta that names no weight but has values '101,130'"},
        {"UPDATE weight_sets SET game = 'shatra' WHERE id = 2", "weight set 2 is for game 'shatra', not 'russian'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        raw_exec(t.path, BAD[i].tamper);
        db = open_ok(t.path, false);
        err[0] = '\0';
        memcpy(back, base, sizeof back);
        assert_int_equal(db_weights_load(db, 3, "russian", names, back, N, err), -1);
        if (!strstr(err, BAD[i].expect)) fail_msg("%s: error '%s' lacks '%s'", BAD[i].tamper, err, BAD[i].expect);
        assert_memory_equal(back, base, sizeof back); /* untouched */
        db_close(db);
        raw_exec(t.path, "UPDATE weight_sets SET parent_id = 2, terms = 'man,pat[58]', weights = '101,130' WHERE id = 3;"
                         "UPDATE weight_sets SET game = 'russian' WHERE id = 2");
    }
    /* a range in a delta's names sets each weight of it */
    raw_exec(t.path, "UPDATE weight_sets SET terms = 'man,pat[57..58]', weights = '101,5,130' WHERE id = 3");
    db = open_ok(t.path, false);
    CHECK_OK(db_weights_load(db, 3, "russian", names, back, N, err));
    grand[59] = 5;
    assert_memory_equal(back, grand, sizeof back);
    db_close(db);
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
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_weights_round_trip),
        cmocka_unit_test(test_weights_load_errors),
        cmocka_unit_test(test_weights_compact_table),
        cmocka_unit_test(test_weights_insert_errors),
        cmocka_unit_test(test_game_insert_and_read),
        cmocka_unit_test(test_game_insert_errors),
        cmocka_unit_test(test_rollback_leaves_nothing),
        cmocka_unit_test(test_resume_indices),
        cmocka_unit_test(test_tuning_and_matches),
        cmocka_unit_test(test_trains_and_generations),
        cmocka_unit_test(test_disk_full_keeps_committed),
        cmocka_unit_test(test_locked_by_other_writer),
        cmocka_unit_test(test_second_open_keeps_locks),
        cmocka_unit_test(test_killed_mid_transaction),
        cmocka_unit_test(test_bench_insert),
        cmocka_unit_test(test_weights_hash),
        cmocka_unit_test(test_migration_1_to_3),
        cmocka_unit_test(test_run_members),
        cmocka_unit_test(test_dead_owner_runs),
        cmocka_unit_test(test_readonly_and_discard),
        cmocka_unit_test(test_migration_tournament_runs),
        cmocka_unit_test(test_weights_delta),
        cmocka_unit_test(test_migration_weight_deltas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
