/* test_selfplay.c — a self-play run as a library call (selfplay/selfplay.h)
 * on temporary databases: the stored games do not depend on the thread
 * count (table-driven, both perturbation modes); a larger games extends the
 * run and an equal one finds it complete; a stop before the first game
 * leaves a set-up that the next call resumes; the events a run reports;
 * the failures it returns; and the members' perturbation. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */

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
#include "db/weight_sets.h"
#include "engine/eval.h"
#include "engine/game.h"
#include "selfplay/members.h"
#include "selfplay/selfplay.h"
#include "util/rng.h"

static void temp_path(char path[64])
{
    snprintf(path, 64, "/tmp/dama_test_selfplay_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
}

/* A hash of every stored game (index, result, movetext) of the database. */
static uint64_t games_hash(const char *path, int64_t *count)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT game_index, result, movetext FROM games ORDER BY game_index", -1,
                                        &st, NULL),
                     SQLITE_OK);
    uint64_t hash = 1;
    *count = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        hash = rng_derive(hash, (uint64_t)sqlite3_column_int64(st, 0));
        for (int c = 1; c < 3; c++) {
            const unsigned char *text = sqlite3_column_text(st, c);
            for (; text && *text; text++) hash = rng_derive(hash, *text);
        }
        (*count)++;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return hash;
}

/* What the events reported. */
typedef struct Seen {
    int starts, games, loaded, stored;
    int64_t last_played;
} Seen;

static void on_event(void *ctx, SelfplayEvent ev, const SelfplayResult *r)
{
    Seen *s = ctx;
    if (ev == SELFPLAY_EVENT_START) s->starts++;
    if (ev == SELFPLAY_EVENT_GAME) s->games++, s->last_played = r->played;
    if (ev == SELFPLAY_EVENT_MEMBER_LOADED) s->loaded++;
    if (ev == SELFPLAY_EVENT_MEMBERS_STORED) s->stored++;
}

static SelfplayOptions options(const Game *g, int64_t games, int threads, SelfplayPerturb perturb)
{
    return (SelfplayOptions){.game = g, .games = games, .nodes = 150, .max_plies = 200, .threads = threads,
                             .hash_mb = 2, .random_plies = 4, .seed = 11, .weights = "default", .perturb = perturb,
                             .population = 4, .spread = 0.25, .spread_min = 6, .batch = 3, .shard_k = 1,
                             .config = "test = 1\n"};
}

/* Run o on a new database at path; returns the status. */
static int run_on(const char *path, SelfplayOptions *o, SelfplayResult *r, Seen *seen, char err[ERR_MAX])
{
    Db *db = NULL;
    assert_int_equal(db_open(path, true, &db, err), 0);
    o->event = seen ? on_event : NULL;
    o->ctx = seen;
    int st = selfplay_run(db, o, r, err);
    db_close(db);
    return st;
}

static void test_threads_do_not_change_games(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    static const struct {
        SelfplayPerturb perturb;
        int threads[3];
    } CASES[] = {
        {SELFPLAY_PERTURB_PAIRS, {1, 2, 3}},
        {SELFPLAY_PERTURB_POPULATION, {1, 3, 2}},
    };
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        uint64_t first = 0;
        for (int k = 0; k < 3; k++) {
            char path[64], err[ERR_MAX];
            temp_path(path);
            SelfplayOptions o = options(g, 8, CASES[c].threads[k], CASES[c].perturb);
            SelfplayResult r;
            Seen seen = {0};
            assert_int_equal(run_on(path, &o, &r, &seen, err), SELFPLAY_DONE);
            assert_int_equal(r.end, SELFPLAY_END_PLAYED);
            assert_true(r.complete);
            assert_int_equal(r.total_stored, 8);
            assert_int_equal(r.members, CASES[c].perturb == SELFPLAY_PERTURB_PAIRS ? 9 : 4);
            assert_int_equal(r.members_stored, r.members);
            assert_int_equal(seen.starts, 1);
            assert_int_equal(seen.games, 8);
            assert_int_equal(seen.last_played, 8);
            int64_t count = 0;
            uint64_t h = games_hash(path, &count);
            assert_int_equal(count, 8);
            if (k == 0) first = h;
            else assert_true(h == first);
            selfplay_result_free(&r);
            db_files_remove(path);
        }
    }
}

static void test_resume_and_complete(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    char path[64], err[ERR_MAX];
    temp_path(path);
    SelfplayOptions o = options(g, 4, 2, SELFPLAY_PERTURB_PAIRS);
    SelfplayResult r;
    assert_int_equal(run_on(path, &o, &r, NULL, err), SELFPLAY_DONE);
    int64_t run_id = r.run_id;
    assert_false(r.resumed);
    selfplay_result_free(&r);
    /* a larger games extends the run: the missing members are made */
    o.games = 6;
    Seen seen = {0};
    assert_int_equal(run_on(path, &o, &r, &seen, err), SELFPLAY_DONE);
    assert_int_equal(r.run_id, run_id);
    assert_true(r.resumed);
    assert_int_equal(r.already, 4);
    assert_int_equal(r.played, 2);
    assert_int_equal(r.members_found, 5);
    assert_int_equal(r.members_stored, 7);
    assert_int_equal(seen.loaded, 5);
    selfplay_result_free(&r);
    /* the same again: nothing to play */
    assert_int_equal(run_on(path, &o, &r, NULL, err), SELFPLAY_DONE);
    assert_int_equal(r.end, SELFPLAY_END_ALREADY_STORED);
    assert_int_equal(r.run_id, run_id);
    selfplay_result_free(&r);
    /* another identity is another run */
    o.config = "test = 2\n";
    assert_int_equal(run_on(path, &o, &r, NULL, err), SELFPLAY_DONE);
    assert_true(r.run_id != run_id);
    selfplay_result_free(&r);
    db_files_remove(path);
}

static void test_stop_in_setup_resumes(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    char path[64], err[ERR_MAX];
    temp_path(path);
    volatile int stop = 1;
    SelfplayOptions o = options(g, 4, 1, SELFPLAY_PERTURB_PAIRS);
    o.stop = &stop;
    SelfplayResult r;
    assert_int_equal(run_on(path, &o, &r, NULL, err), SELFPLAY_INTERRUPTED);
    assert_int_equal(r.end, SELFPLAY_END_SETUP_INTERRUPTED);
    assert_int_equal(r.members_stored, 1); /* the run and its base, committed first */
    int64_t run_id = r.run_id;
    selfplay_result_free(&r);
    stop = 0;
    assert_int_equal(run_on(path, &o, &r, NULL, err), SELFPLAY_DONE);
    assert_int_equal(r.run_id, run_id);
    assert_true(r.resumed);
    assert_int_equal(r.members_found, 1);
    assert_int_equal(r.total_stored, 4);
    selfplay_result_free(&r);
    db_files_remove(path);
}

static void test_failures(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    static const struct {
        const char *weights, *openings, *expect;
    } CASES[] = {
        {"db:99", NULL, "weight set 99"},
        {"default", "/nonexistent/book.tsv", "/nonexistent/book.tsv"},
    };
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        char path[64], err[ERR_MAX];
        temp_path(path);
        SelfplayOptions o = options(g, 4, 1, SELFPLAY_PERTURB_PAIRS);
        o.weights = CASES[c].weights;
        o.openings = CASES[c].openings;
        SelfplayResult r;
        assert_int_equal(run_on(path, &o, &r, NULL, err), SELFPLAY_FAILED);
        assert_int_equal(r.end, SELFPLAY_END_FAILED);
        assert_non_null(strstr(err, CASES[c].expect));
        selfplay_result_free(&r);
        db_files_remove(path);
    }
}

/* Pairs mode: members 2p+1 and 2p+2 are base + delta and base - delta;
 * the pattern tables and the scale weight are never perturbed. */
static void test_member_make(void **state)
{
    (void)state;
    for (const Game *const *gp = game_list(); *gp; gp++) {
        const Game *g = *gp;
        SelfplayMembers m;
        assert_int_equal(selfplay_members_init(&m, g, 3), 0);
        int32_t *base = eval_weights_new(g), *plus = eval_weights_new(g), *minus = eval_weights_new(g);
        assert_int_equal(weights_resolve(g, "default", base, (char[ERR_MAX]){0}), 0);
        selfplay_member_make(g, base, m.big, 1, true, 5, 0.25, 6, plus);
        selfplay_member_make(g, base, m.big, 2, true, 5, 0.25, 6, minus);
        int moved = 0;
        for (int i = 0; i < g->weights_len; i++) {
            if (i == g->scale_weight || m.big[i]) {
                assert_int_equal(plus[i], base[i]);
                assert_int_equal(minus[i], base[i]);
                continue;
            }
            int d = plus[i] - base[i], e = base[i] - minus[i];
            assert_true(d - e >= -1 && d - e <= 1); /* mirrored (rounding aside) */
            moved += d != 0;
        }
        assert_true(moved > 0);
        free(base), free(plus), free(minus);
        selfplay_members_free(&m);
    }
}

int main(void)
{
    game_init_all();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_do_not_change_games),
        cmocka_unit_test(test_resume_and_complete),
        cmocka_unit_test(test_stop_in_setup_resumes),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_member_make),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
