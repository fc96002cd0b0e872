/* test_train.c — the train pipeline as a library call (train/train.h) on
 * temporary databases: the stages run in order through selfplay_run,
 * tune_job_run and match_play, and the generation rows hold the ids those
 * calls returned (table-driven: an easy gate that accepts and ladders, a
 * candidate equal to its parent rejected without a match); a rerun finds
 * the train done; a stop before the first stage interrupts it. */
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

#include "db/db.h"
#include "db_files.h"
#include "engine/game.h"
#include "train/train.h"

static void temp_path(char path[64])
{
    snprintf(path, 64, "/tmp/dama_test_train_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
}

/* The events of a train, in order (a match's pairs counted apart), with
 * the ids the stages reported. */
typedef struct Seen {
    TrainEventKind kinds[32];
    int len;
    int64_t selfplay_run, tuning_run, match_ids[2];
    int matches, pairs;
} Seen;

static void on_event(void *ctx, const TrainEvent *ev)
{
    Seen *s = ctx;
    if (ev->kind == TRAIN_EVENT_MATCH_PAIR) {
        s->pairs++;
        return;
    }
    if (s->len < 32) s->kinds[s->len++] = ev->kind;
    if (ev->kind == TRAIN_EVENT_SELFPLAY_END) s->selfplay_run = ev->selfplay->run_id;
    if (ev->kind == TRAIN_EVENT_TUNE) s->tuning_run = ev->tune->tuning_id;
    if (ev->kind == TRAIN_EVENT_MATCH_END && s->matches < 2) s->match_ids[s->matches++] = ev->match->id;
}

static TrainOptions options(const Game *g, const char *path, int epochs, volatile int *stop, Seen *seen)
{
    /* generation 0 is a deliberately poor set (tests/cli/russian-poor.cfg)
     * and no games are held out, so that 40 epochs on 20 games always better
     * it (whether an epoch betters a set on two held-out games is their
     * chance, from the compiled-in set or this one) */
    TrainOptions o = {.game = g, .db_path = path, .generations = 1, .weights = DAMA_SOURCE_DIR "/tests/cli/russian-poor.cfg", .games_per_gen = 20,
                      .window = 2, .nodes = 200, .threads = 2, .hash_mb = 16, .seed = 1, .gate_pairs = 24,
                      .gate = {.alpha = 0.05, .beta = 0.05, .elo0 = -400, .elo1 = -200}, .ladder_pairs = 2,
                      .ladder = {.alpha = 0.05, .beta = 0.05, .elo0 = 0, .elo1 = 10}, .repeat_plies = 4,
                      .config = "test = 1\n", .stop = stop, .event = on_event, .ctx = seen};
    o.selfplay = (SelfplayOptions){.perturb = SELFPLAY_PERTURB_PAIRS, .population = 8, .spread = 0.25,
                                   .spread_min = 6, .max_plies = 300, .random_plies = 4, .balance = 60, .batch = 64};
    tune_job_options_default(&o.tune, g);
    o.tune.epochs = epochs;
    o.tune.lr = 5;
    o.tune.valid = 0.001;
    return o;
}

static int run_on(const char *path, const TrainOptions *o, TrainResult *r, char err[ERR_MAX])
{
    Db *db = NULL;
    assert_int_equal(db_open(path, true, &db, err), 0);
    int st = train_run(db, o, r, err);
    db_close(db);
    return st;
}

static void test_train_stages(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    static const struct {
        int epochs;
        bool gated; /* a candidate that differs from its parent: gate (and ladder) matches */
    } CASES[] = {{40, true}, {0, false}};
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        char path[64], err[ERR_MAX];
        temp_path(path);
        Seen seen = {0};
        TrainOptions o = options(g, path, CASES[c].epochs, NULL, &seen);
        TrainResult r;
        assert_int_equal(run_on(path, &o, &r, err), TRAIN_DONE);
        assert_false(r.resumed);
        assert_int_equal(seen.kinds[0], TRAIN_EVENT_START);
        assert_int_equal(seen.kinds[1], TRAIN_EVENT_SELFPLAY_END);
        assert_int_equal(seen.kinds[2], TRAIN_EVENT_SELFPLAY);
        assert_int_equal(seen.kinds[3], TRAIN_EVENT_TUNE);
        Db *db = NULL;
        assert_int_equal(db_open(path, false, &db, err), 0);
        DbGeneration *gens;
        int len;
        assert_int_equal(train_generations_read(db, r.id, &gens, &len, err), 0);
        assert_int_equal(len, 2);
        assert_int_equal(gens[0].candidate_ws, r.start_ws);
        assert_string_equal(gens[1].stage, "done");
        assert_int_equal(gens[1].selfplay_run, seen.selfplay_run);
        assert_int_equal(gens[1].tuning_run, seen.tuning_run);
        if (CASES[c].gated) {
            assert_int_equal(seen.kinds[4], TRAIN_EVENT_MATCH_START);
            assert_int_equal(seen.kinds[5], TRAIN_EVENT_MATCH_END);
            assert_int_equal(seen.kinds[6], TRAIN_EVENT_GATE);
            assert_int_equal(gens[1].gate_match, seen.match_ids[0]);
            assert_true(seen.pairs >= 20);
            assert_true(gens[1].accepted == 1 || gens[1].accepted == 0);
            if (gens[1].accepted == 1) {
                assert_int_equal(seen.kinds[9], TRAIN_EVENT_LADDER);
                assert_int_equal(gens[1].ladder_match, seen.match_ids[1]);
                assert_int_equal(gens[1].ladder_games, 4);
            }
        } else {
            assert_int_equal(seen.len, 4); /* equal to its parent: no match */
            assert_int_equal(gens[1].accepted, 0);
            assert_int_equal(gens[1].candidate_ws, gens[1].parent_ws);
            assert_int_equal(gens[1].gate_match, 0);
        }
        free(gens);
        db_close(db);
        /* a rerun finds the train done: no stage runs again */
        Seen again = {0};
        o.ctx = &again;
        int64_t id = r.id;
        assert_int_equal(run_on(path, &o, &r, err), TRAIN_DONE);
        assert_true(r.resumed);
        assert_int_equal(r.id, id);
        assert_int_equal(again.len, 1);
        db_files_remove(path);
    }
}

static void test_train_stop(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    char path[64], err[ERR_MAX];
    temp_path(path);
    volatile int stop = 1;
    Seen seen = {0};
    TrainOptions o = options(g, path, 5, &stop, &seen);
    TrainResult r;
    assert_int_equal(run_on(path, &o, &r, err), TRAIN_INTERRUPTED);
    assert_non_null(strstr(err, "run the same command again"));
    assert_int_equal(seen.len, 1); /* START only */
    db_files_remove(path);
}

int main(void)
{
    game_init_all();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_train_stages),
        cmocka_unit_test(test_train_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
