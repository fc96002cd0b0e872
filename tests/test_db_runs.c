/* test_db_runs.c — runs and what they store: runs and their owners and
 * members, games and positions (insert, read, errors, rollback, resume
 * indices), tuning runs and matches, trains and generations. Helpers:
 * tests/db_test.h. */
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
    /* a filter checked alone: the message quotes it, not the query around it */
    CHECK_OK(db_positions_filter_check(db, "p.quiet = 1 AND g.result = '1-0'", err));
    assert_int_equal(db_positions_filter_check(db, "p.nonsense = 1", err), -1);
    assert_string_equal(err, "filter 'p.nonsense = 1': no such column: p.nonsense");
    assert_int_equal(db_positions_filter_check(db, "1); DROP TABLE games; SELECT (1", err), -1);
    assert_string_equal(err, "filter '1); DROP TABLE games; SELECT (1': must be one read-only SQL condition");
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

    db_close(db);

    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM generations"), 4);
    assert_int_equal(raw_int(t.path, "SELECT ladder_elo = 31.5 AND finished IS NOT NULL FROM generations "
                                     "WHERE generation = 2"),
                     1);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM generations WHERE finished IS NULL"), 1);
    assert_int_equal(raw_int(t.path, "SELECT generations * 10 + (status = 'done') FROM trains"), 51);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_game_insert_and_read),
        cmocka_unit_test(test_game_insert_errors),
        cmocka_unit_test(test_rollback_leaves_nothing),
        cmocka_unit_test(test_resume_indices),
        cmocka_unit_test(test_tuning_and_matches),
        cmocka_unit_test(test_trains_and_generations),
        cmocka_unit_test(test_run_members),
        cmocka_unit_test(test_dead_owner_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
