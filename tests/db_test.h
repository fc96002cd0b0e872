/* db_test.h — what the database tests share (test_db.c, test_db_weights.c,
 * test_db_runs.c, test_tune_job.c): temporary database files, a raw SQLite connection for
 * the facts the API does not expose, a synthetic game, a small weight set.
 * Each test file is its own executable, so the helpers are static inline.
 * Include after <cmocka.h>, in a file that defines _POSIX_C_SOURCE
 * 200809L (mkstemp) before any include.
 *
 * Every database lives in a unique temporary file under /tmp (mkstemp) and
 * is removed with its -wal and -shm files. Facts the API does not expose
 * (user_version, application_id, row counts) are read with a separate raw
 * SQLite connection, as a user with sqlite3 would see them. */
#ifndef DAMA_TEST_DB_TEST_H
#define DAMA_TEST_DB_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/db.h"
#include "db_files.h"

typedef struct TempDb {
    char path[64];
} TempDb;

/* A unique path; the file exists (empty) unless `keep` is false. */
static inline void temp_make(TempDb *t, bool keep)
{
    snprintf(t->path, sizeof t->path, "/tmp/dama_test_db_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
    if (!keep)
        unlink(t->path);
}

static inline void temp_remove(const TempDb *t) { db_files_remove(t->path); }

/* Run sql on a raw connection (no dama checks). */
static inline void raw_exec(const char *path, const char *sql)
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
static inline int64_t raw_int(const char *path, const char *sql)
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

static inline void raw_text(const char *path, const char *sql, char *out, size_t size)
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

static inline Db *open_ok(const char *path, bool create)
{
    Db *db = NULL;
    char err[ERR_MAX] = "";
    if (db_open(path, create, &db, err) != 0)
        fail_msg("db_open %s: %s", path, err);
    assert_non_null(db);
    return db;
}

static inline void assert_contains(const char *text, const char *part)
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

static inline void test_game_make(TestGame *t, int64_t run_id, int64_t index, const char *result)
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

/* A small weight set: names and values (the int32 extremes among them). */
static const char *const ws_names[] = {"man", "king", "pst[0]", "pst[1]", "tempo"};
static const int32_t ws_values[] = {100, 250, -7, INT32_MAX, INT32_MIN};
enum { WS_LEN = 5 };

#endif
