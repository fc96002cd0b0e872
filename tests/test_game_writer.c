/* test_game_writer.c — the game writer's encoding for other processes
 * (play/game_writer.h: game_writer_encode, game_writer_add_encoded, what
 * self-play over MPI sends to rank 0): a game stored from its encoding is
 * the game stored directly, column for column and position for position, in
 * each of the three games (the time each side used too); every truncation,
 * a wrong magic, bytes left over and a time that is not a finite
 * non-negative number are refused with a message naming the byte, and nothing is stored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "db/db.h"
#include "db_files.h"
#include "engine/game.h"
#include "arena/game_writer.h"
#include "arena/play.h"
#include "arena/workers.h"

static const char *const GAMES[] = {"russian", "turkish", "shatra"};

/* Every stored column of games and positions but ids and creation times,
 * one line a row, in order (the time each side used as stored: the same
 * bits through the encoding). */
static char *dump(const char *path)
{
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    const char *sql = "SELECT game_index || '|' || game || '|' || ifnull(opening, '') || '|' || start_fen || '|' || seed "
                      "|| '|' || result || '|' || reason || '|' || plies || '|' || movetext || '|' || ifnull(detail, '-') "
                      "|| '|' || white_moves || '|' || black_moves || '|' || printf('%!.17g|%!.17g|%!.17g|%!.17g', "
                      "white_wall_s, black_wall_s, white_cpu_s, black_cpu_s) FROM games UNION ALL SELECT ply || '|' || fen || '|' || stm || '|' || ifnull(score, '-') || '|' || "
                      "result || '|' || quiet FROM positions";
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *row = (const char *)sqlite3_column_text(st, 0);
        size_t n = strlen(row);
        while (len + n + 2 > cap) out = realloc(out, cap *= 2);
        memcpy(out + len, row, n);
        len += n;
        out[len++] = '\n';
        out[len] = 0;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

static Db *scratch_db(const char *path, int64_t *run_id)
{
    char err[ERR_MAX];
    db_files_remove(path);
    Db *db = NULL;
    assert_int_equal(db_open(path, true, &db, err), 0);
    assert_int_equal(db_run_create(db, "selfplay", "russian", 1, "test", NULL, run_id, err), 0);
    return db;
}

static void test_encoded_equals_direct(void **state)
{
    (void)state;
    char err[ERR_MAX];
    for (size_t k = 0; k < sizeof GAMES / sizeof GAMES[0]; k++) {
        const Game *g = game_find(GAMES[k]);
        assert_non_null(g);
        volatile int stop = 0;
        GameWriter none;
        game_writer_init(&none, NULL, 1, 1.0);
        Worker wk;
        assert_true(worker_init(&wk, g, 2, &stop, &none));
        Position start;
        assert_int_equal(game_parse_position(g, NULL, &start, err), 0);
        PlaySettings ps = {.nodes = 300, .max_plies = 40};
        assert_int_equal(play_game(g, wk.eng, &start, &ps, &stop, &wk.rec, err), 0);
        assert_true(wk.rec.plies > 4);
        char pa[64], pb[64];
        snprintf(pa, sizeof pa, "/tmp/test_gw_a_%ld.sqlite", (long)getpid());
        snprintf(pb, sizeof pb, "/tmp/test_gw_b_%ld.sqlite", (long)getpid());
        int64_t ra = 0, rb = 0;
        Db *a = scratch_db(pa, &ra), *b = scratch_db(pb, &rb);
        assert_true(ra == 1 && rb == 1);
        DbGame meta = {.run_id = 1, .game_index = 7, .game = g->name, .opening = "a label", .start_fen = g->start_fen,
                       .seed = 0xfedcba9876543210ULL};
        GameWriter wa, wb;
        game_writer_init(&wa, a, 64, 1e9);
        game_writer_init(&wb, b, 64, 1e9);
        assert_int_equal(game_writer_add(&wa, g, &wk.rec, &meta), 0);
        uint8_t *buf = NULL;
        size_t size = 0;
        assert_int_equal(game_writer_encode(g, &wk.rec, &meta, &buf, &size), 0);
        Outcome oc = OUTCOME_NONE;
        int plies = -1;
        assert_int_equal(game_writer_add_encoded(&wb, buf, size, &oc, &plies), 0);
        assert_int_equal(oc, wk.rec.outcome);
        assert_int_equal(plies, wk.rec.plies);
        assert_int_equal(game_writer_flush(&wa), 0);
        assert_int_equal(game_writer_flush(&wb), 0);
        game_writer_free(&wa);
        game_writer_free(&wb);
        db_close(a);
        db_close(b);
        char *da = dump(pa), *db_ = dump(pb);
        assert_true(strlen(da) > 100);
        assert_string_equal(da, db_);
        free(da);
        free(db_);
        free(buf);
        worker_free(&wk);
        game_writer_free(&none);
        db_files_remove(pa), db_files_remove(pb);
    }
}

static void test_malformed_refused(void **state)
{
    (void)state;
    char err[ERR_MAX];
    const Game *g = game_find("russian");
    volatile int stop = 0;
    GameWriter none;
    game_writer_init(&none, NULL, 1, 1.0);
    Worker wk;
    assert_true(worker_init(&wk, g, 2, &stop, &none));
    Position start;
    assert_int_equal(game_parse_position(g, NULL, &start, err), 0);
    PlaySettings ps = {.nodes = 200, .max_plies = 12};
    assert_int_equal(play_game(g, wk.eng, &start, &ps, &stop, &wk.rec, err), 0);
    DbGame meta = {.run_id = 1, .game_index = 0, .game = g->name, .opening = "x", .start_fen = g->start_fen, .seed = 1};
    uint8_t *buf = NULL;
    size_t size = 0;
    assert_int_equal(game_writer_encode(g, &wk.rec, &meta, &buf, &size), 0);
    uint8_t *copy = malloc(size + 1);
    assert_non_null(copy);
    /* Every truncation (a short message), one byte left over, a wrong magic,
     * a side to move of 2 in the first position, a wall time that is not a
     * number. */
    for (size_t len = 0; len <= size + 4; len++) {
        memcpy(copy, buf, size);
        size_t n = len;
        const char *want = "malformed";
        if (len == size) continue; /* the whole message: fine */
        if (len == size + 1) copy[size] = 0, n = size + 1;
        if (len == size + 2) copy[0] = 'X', n = size;
        if (len >= size + 3) {
            /* the header: magic 4, 5 x 8 ints, outcome 1, plies 4, then 6
             * strings, then each colour's times (moves 4, wall 8, CPU 8);
             * the first FEN follows them */
            size_t at = 4 + 40 + 1 + 4;
            for (int s = 0; s < 6; s++) {
                uint32_t l = (uint32_t)copy[at] | (uint32_t)copy[at + 1] << 8 | (uint32_t)copy[at + 2] << 16 |
                             (uint32_t)copy[at + 3] << 24;
                at += 4 + l;
            }
            if (len == size + 4) {
                copy[at + 4 + 7] = 0xff; /* White's wall seconds: the sign byte of the double, negative */
            } else {
                at += 2 * 20;
                uint32_t l = (uint32_t)copy[at] | (uint32_t)copy[at + 1] << 8;
                copy[at + 4 + l] = 2; /* stm */
            }
            n = size;
        }
        GameWriter w;
        game_writer_init(&w, NULL, 64, 1e9);
        assert_int_equal(game_writer_add_encoded(&w, copy, n, NULL, NULL), -1);
        assert_true(w.failed);
        assert_non_null(strstr(w.err, want));
        assert_int_equal(w.len, 0);
        game_writer_free(&w);
    }
    free(copy);
    free(buf);
    worker_free(&wk);
    game_writer_free(&none);
}

int main(void)
{
    game_init_all();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoded_equals_direct),
        cmocka_unit_test(test_malformed_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
