/* test_tune_job.c — the tuning pipeline as a library call (tune/tune_job.h)
 * on a temporary database of real Russian self-play games: what it stores
 * (tune run, tuning row, weight set with its parent, losses per epoch), that
 * threads do not change the result, and the refusals and early stops it
 * reports (table-driven), and that a job shared by 3 ranks (threads with
 * an in-process gather standing in for MPI) gives the one-process weights
 * with only rank 0 writing; a tune killed while loading or tuning is tuned
 * again in its own run. Games: 80 played at 300 nodes per move from
 * random 4-ply openings (play/openings.h), stored through the game writer as
 * `dama selfplay` stores them. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */

#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "db/db.h"
#include "db_files.h"
#include "db_test.h" /* raw_int, raw_text: facts read over a connection of their own */
#include "engine/eval.h"
#include "engine/game.h"
#include "engine/search.h"
#include "arena/game_writer.h"
#include "arena/openings.h"
#include "arena/play.h"
#include "tuner/tune_job.h"
#include "db/weight_sets.h"

enum { GAMES = 80, NODES = 300 };

typedef struct Fixture {
    char path[64];
    const Game *g;
    int64_t selfplay_run, match_run;
    int32_t *start;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    game_init_all();
    f->g = game_find("russian");
    assert_non_null(f->g);
    snprintf(f->path, sizeof f->path, "/tmp/dama_test_tune_job_XXXXXX");
    int fd = mkstemp(f->path);
    assert_true(fd >= 0);
    close(fd);
    unlink(f->path);
    char err[ERR_MAX] = "";
    Db *db = NULL;
    assert_int_equal(db_open(f->path, true, &db, err), 0);
    f->start = eval_weights_new(f->g);
    assert_non_null(f->start);
    memcpy(f->start, f->g->weights_default(), sizeof(int32_t) * (size_t)f->g->weights_len);
    assert_int_equal(db_run_create(db, "selfplay", "russian", 1, "test", NULL, &f->selfplay_run, err), 0);
    assert_int_equal(db_run_create(db, "match", "russian", 1, "test", NULL, &f->match_run, err), 0);
    OpeningBook book;
    if (openings_random(f->g, GAMES / 2, 4, 7, 0, 0, &book, err) != 0) fail_msg("openings: %s", err);
    Engine *eng[2] = {engine_new(f->g, 1), engine_new(f->g, 1)};
    assert_non_null(eng[0]);
    assert_non_null(eng[1]);
    engine_set_weights(eng[0], f->start);
    engine_set_weights(eng[1], f->start);
    PlayRecord rec;
    assert_int_equal(play_record_init(&rec), 0);
    GameWriter wr;
    assert_int_equal(game_writer_init(&wr, db, 8, 1.0), 0);
    PlaySettings ps = {.nodes = NODES, .max_plies = 200};
    for (int i = 0; i < GAMES; i++) {
        const Opening *op = &book.items[(i / 2) % book.len];
        Position pos;
        assert_int_equal(f->g->pos_from_fen(&pos, op->fen, err), 0);
        assert_int_equal(play_game(f->g, eng, &pos, &ps, NULL, &rec, err), 0);
        DbGame meta = {.run_id = f->selfplay_run, .game_index = i, .game = "russian", .opening = op->label,
                       .start_fen = op->fen, .seed = (uint64_t)i};
        assert_int_equal(game_writer_add(&wr, f->g, &rec, &meta), 0);
    }
    assert_int_equal(game_writer_flush(&wr), 0);
    game_writer_free(&wr);
    play_record_free(&rec);
    engine_free(eng[0]);
    engine_free(eng[1]);
    openings_free(&book);
    db_close(db);
    /* The jobs tune from a worse start than the compiled-in weights, which
     * were fitted on 23,511 games: these few games find nothing to improve
     * on them on the held-out games, and the tests need a tuning that moves
     * weights. The start: the pattern tables (terms of more than 64
     * weights) and every single-weight term but the scale at 0 (halving
     * them would not do: a fitted K of twice the value undoes it). */
    for (int ti = 0; ti < f->g->terms_len; ti++) {
        const EvalTerm *t = &f->g->terms[ti];
        for (int j = t->offset; j < t->offset + t->count; j++)
            if (j != f->g->scale_weight && (t->count > 64 || t->count == 1)) f->start[j] = 0;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    db_files_remove(f->path);
    free(f->start);
    free(f);
    return 0;
}

static Db *open_db(const Fixture *f)
{
    Db *db = NULL;
    char err[ERR_MAX] = "";
    if (db_open(f->path, false, &db, err) != 0) fail_msg("db_open: %s", err);
    return db;
}

static TuneJobOptions options(const Fixture *f, Db *db)
{
    TuneJobOptions o;
    tune_job_options_default(&o, f->g);
    o.db = db;
    o.db_path = f->path;
    o.start = f->start;
    o.epochs = 60;
    o.lr = 5;
    /* 20 of the 80 games held out: with the default tenth (8 games) the
     * held-out loss follows a few games' chance (under the search of
     * 2026-12-05 no epoch bettered the start on them) */
    o.valid = 0.25;
    return o;
}

/* A full job: the stored rows and their lineage; 1 and 2 threads agree. */
static void test_tune_job_stores(void **state)
{
    Fixture *f = *state;
    const Game *g = f->g;
    int32_t *w[2] = {eval_weights_new(g), eval_weights_new(g)};
    TuneJobResult r[2];
    for (int t = 0; t < 2; t++) {
        Db *db = open_db(f);
        TuneJobOptions o = options(f, db);
        char runs[32], err[ERR_MAX] = "";
        snprintf(runs, sizeof runs, "%lld", (long long)f->selfplay_run);
        o.runs = runs;
        o.threads = 1 + t;
        o.name = "job-test";
        if (tune_job_run(&o, w[t], &r[t], err) != TUNE_JOB_DONE) fail_msg("tune_job_run: %s", err);
        db_close(db);
        assert_true(r[t].positions >= 100);
        assert_true(r[t].tuning_id > 0 && r[t].run_id > 0 && r[t].base_ws > 0);
        assert_true(r[t].texel.valid_loss <= r[t].texel.valid_loss_start);
        assert_true(r[t].texel.k > 0);
    }
    assert_memory_equal(w[0], w[1], sizeof(int32_t) * (size_t)g->weights_len);
    assert_int_equal(r[0].result_ws, r[1].result_ws); /* equal values: one weight set */
    assert_true(r[0].texel.valid_loss == r[1].texel.valid_loss);
    assert_int_equal(w[0][g->scale_weight], f->start[g->scale_weight]); /* frozen */
    /* the tuning moved weights and lowered the held-out loss */
    assert_true(r[0].result_ws != r[0].base_ws);
    assert_false(r[0].unchanged);
    assert_true(r[0].texel.valid_loss < r[0].texel.valid_loss_start);
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT parent_id = %lld AND name = 'job-test' FROM weight_sets WHERE id = %lld",
             (long long)r[0].base_ws, (long long)r[0].result_ws);
    assert_int_equal(raw_int(f->path, sql), 1);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM tuning_runs t JOIN runs r ON r.id = t.run_id WHERE t.id = %lld AND r.kind = 'tune' "
             "AND r.status = 'done' AND t.result_ws = %lld AND t.base_ws = %lld AND t.positions_train + "
             "t.positions_valid = %zu",
             (long long)r[0].tuning_id, (long long)r[0].result_ws, (long long)r[0].base_ws, r[0].positions);
    assert_int_equal(raw_int(f->path, sql), 1);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM tuning_epochs WHERE tuning_run_id = %lld",
             (long long)r[0].tuning_id);
    assert_int_equal(raw_int(f->path, sql), r[0].texel.epochs + 1); /* epoch 0 (the start) and each epoch */
    free(w[0]);
    free(w[1]);
}

/* No epochs: the result is the start, the same weight set. */
static void test_tune_job_no_epochs(void **state)
{
    Fixture *f = *state;
    Db *db = open_db(f);
    TuneJobOptions o = options(f, db);
    o.epochs = 0;
    int64_t sets = raw_int(f->path, "SELECT count(*) FROM weight_sets");
    int32_t *w = eval_weights_new(f->g);
    TuneJobResult r;
    char err[ERR_MAX] = "";
    if (tune_job_run(&o, w, &r, err) != TUNE_JOB_DONE) fail_msg("tune_job_run: %s", err);
    db_close(db);
    assert_memory_equal(w, f->start, sizeof(int32_t) * (size_t)f->g->weights_len);
    assert_int_equal(r.result_ws, r.base_ws);
    assert_true(r.unchanged);
    /* the tuning row names no result: not the start as a set tuned from itself */
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT (result_ws IS NULL) * 1000 + base_ws FROM tuning_runs WHERE id = %lld",
             (long long)r.tuning_id);
    assert_int_equal(raw_int(f->path, sql), 1000 + r.base_ws);
    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM weight_sets"), sets); /* nothing new stored */
    free(w);
}

/* Refusals and early stops, each with its message; nothing is stored. */
static void test_tune_job_refusals(void **state)
{
    Fixture *f = *state;
    char match_run[32], both[64], selfplay[32];
    snprintf(match_run, sizeof match_run, "%lld", (long long)f->match_run);
    snprintf(selfplay, sizeof selfplay, "%lld", (long long)f->selfplay_run);
    snprintf(both, sizeof both, "%lld,99", (long long)f->selfplay_run);
    volatile int stop = 1;
    static char few[] = "p.ply < 1"; /* one position a game at most: fewer than 100 */
    const struct {
        const char *runs, *filter;
        volatile int *stop;
        TuneJobStatus status;
        const char *message;
        bool too_few; /* TuneJobResult.too_few */
    } cases[] = {
        {"1,,2", NULL, NULL, TUNE_JOB_FAILED, "--runs takes comma-separated run ids, not '1,,2'", false},
        {both, NULL, NULL, TUNE_JOB_FAILED, "--runs: run 99 does not exist", false},
        {match_run, NULL, NULL, TUNE_JOB_FAILED, "is a russian match run, not a russian self-play run", false},
        {selfplay, few, NULL, TUNE_JOB_FAILED, "positions match in", true},
        {selfplay, NULL, &stop, TUNE_JOB_STOPPED_LOADING, "interrupted while loading positions; nothing stored", false},
    };
    int64_t tunings = raw_int(f->path, "SELECT count(*) FROM tuning_runs");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Db *db = open_db(f);
        TuneJobOptions o = options(f, db);
        o.runs = cases[i].runs;
        o.filter = cases[i].filter;
        o.stop = cases[i].stop;
        int32_t *w = eval_weights_new(f->g);
        TuneJobResult r;
        char err[ERR_MAX] = "";
        TuneJobStatus st = tune_job_run(&o, w, &r, err);
        db_close(db);
        free(w);
        if (st != cases[i].status) fail_msg("case %zu: status %d, expected %d (%s)", i, st, cases[i].status, err);
        if (!strstr(err, cases[i].message)) fail_msg("case %zu: message '%s' lacks '%s'", i, err, cases[i].message);
        if (r.too_few != cases[i].too_few) fail_msg("case %zu: too_few %d (%s)", i, r.too_few, err);
    }
    assert_int_equal(raw_int(f->path, "SELECT count(*) FROM tuning_runs"), tunings);
}

/* What a tune killed at some moment leaves, made by a child process that
 * then ends (its claim's owner is gone): with `epochs` < 0 the claimed run
 * alone (killed while loading), else also its tuning row and that many
 * epochs of made-up losses (killed while tuning). Returns the run's id. */
static int64_t killed_tune(const Fixture *f, const TuneJobOptions *o, int epochs)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* no OpenMP here: SQLite only */
        close(fds[0]);
        char err[ERR_MAX] = "";
        Db *db = NULL;
        DbClaim c;
        int64_t id = 0, tid = 0;
        int rc = db_open(f->path, false, &db, err);
        if (rc == 0) rc = db_run_claim(db, DB_CLAIM_NEW, "tune", f->g->name, o->seed, o->config, NULL, &c, err);
        if (rc == 0) id = c.id;
        DbTuning t = {.run_id = id, .game = f->g->name, .k = 0.0 / 0.0, .train_loss = 0.0 / 0.0,
                      .valid_loss = 0.0 / 0.0, .data = "killed"};
        if (rc == 0 && epochs >= 0) rc = db_tuning_insert(db, &t, &tid, err);
        for (int e = 0; rc == 0 && e < epochs; e++) rc = db_tuning_epoch_insert(db, tid, e, 9.0, 9.0, err);
        if (rc != 0) id = 0;
        if (write(fds[1], &id, sizeof id) != (ssize_t)sizeof id) id = 0;
        _exit(id ? 0 : 1); /* the connection is not closed: as a kill leaves it */
    }
    close(fds[1]);
    int64_t id = 0;
    assert_int_equal(read(fds[0], &id, sizeof id), (ssize_t)sizeof id);
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(id > 0);
    return id;
}

/* A tune killed while loading or while tuning, run again, is tuned again
 * in the run it claimed (and in its tuning row): one run, one tuning row,
 * the epochs of an uninterrupted tune; once done, the same tune again is a
 * new run. */
static void test_tune_job_killed(void **state)
{
    Fixture *f = *state;
    const char *configs[3] = {"uninterrupted", "killed while loading", "killed while tuning"};
    char sql[512], ref[4096] = "";
    int64_t last_run = 0;
    for (int i = 0; i < 3; i++) {
        Db *db = open_db(f);
        TuneJobOptions o = options(f, db);
        o.epochs = 8;
        o.config = configs[i];
        int64_t killed = i == 0 ? 0 : killed_tune(f, &o, i == 1 ? -1 : 5);
        int64_t killed_tuning = 0;
        if (i == 2) {
            snprintf(sql, sizeof sql, "SELECT id FROM tuning_runs WHERE run_id = %lld", (long long)killed);
            killed_tuning = raw_int(f->path, sql);
        }
        int32_t *w = eval_weights_new(f->g);
        TuneJobResult r;
        char err[ERR_MAX] = "";
        if (tune_job_run(&o, w, &r, err) != TUNE_JOB_DONE) fail_msg("%s: tune_job_run: %s", configs[i], err);
        if (killed) assert_int_equal(r.run_id, killed);
        if (killed_tuning) assert_int_equal(r.tuning_id, killed_tuning);
        snprintf(sql, sizeof sql,
                 "SELECT count(*) * 100 + sum(r.status = 'done') * 10 + (SELECT count(*) FROM tuning_runs t JOIN runs "
                 "u ON u.id = t.run_id WHERE u.config = '%s') FROM runs r WHERE r.kind = 'tune' AND r.config = '%s'",
                 configs[i], configs[i]);
        assert_int_equal(raw_int(f->path, sql), 111); /* one run, done, one tuning row */
        snprintf(sql, sizeof sql,
                 "SELECT group_concat(epoch || ':' || train_loss || ':' || valid_loss, ' ') FROM (SELECT * FROM "
                 "tuning_epochs WHERE tuning_run_id = %lld ORDER BY epoch)",
                 (long long)r.tuning_id);
        char epochs[4096];
        raw_text(f->path, sql, epochs, sizeof epochs);
        if (i == 0) snprintf(ref, sizeof ref, "%s", epochs);
        else assert_string_equal(epochs, ref);
        last_run = r.run_id;
        /* done: the same tune again is a new run */
        if (i == 2) {
            if (tune_job_run(&o, w, &r, err) != TUNE_JOB_DONE) fail_msg("a finished tune again: %s", err);
            assert_true(r.run_id != last_run);
        }
        db_close(db);
        free(w);
    }
}

/* ------------------------------------------------------------ shards */

enum { RANKS = 3 };

typedef struct Group {
    pthread_barrier_t barrier;
    const double *buf[RANKS];
    size_t len[RANKS];
} Group;

typedef struct Rank {
    Group *group;
    int rank;
    TexelReducer red;
    TuneJobOptions o;
    const Fixture *f;
    int32_t *w;
    TuneJobResult r;
    TuneJobStatus st;
    char err[ERR_MAX];
} Rank;

static int gather(void *ctx, const double *mine, size_t len, double **all, size_t *all_len, char err[TEXEL_ERR_MAX])
{
    (void)err;
    Rank *rk = ctx;
    Group *g = rk->group;
    g->buf[rk->rank] = mine;
    g->len[rk->rank] = len;
    pthread_barrier_wait(&g->barrier);
    size_t total = 0;
    for (int r = 0; r < RANKS; r++) total += g->len[r];
    double *out = malloc((total ? total : 1) * sizeof *out);
    assert_non_null(out);
    for (size_t r = 0, at = 0; r < RANKS; at += g->len[r], r++)
        if (g->len[r]) memcpy(out + at, g->buf[r], g->len[r] * sizeof *out);
    pthread_barrier_wait(&g->barrier);
    *all = out;
    *all_len = total;
    return 0;
}

static void *rank_main(void *arg)
{
    Rank *rk = arg;
    Db *db = open_db(rk->f);
    rk->o.db = db;
    rk->st = tune_job_run(&rk->o, rk->w, &rk->r, rk->err);
    db_close(db);
    return NULL;
}

static void run_ranks(Rank *rk, const Fixture *f, const TuneJobOptions *o)
{
    static Group g;
    memset(&g, 0, sizeof g);
    assert_int_equal(pthread_barrier_init(&g.barrier, NULL, RANKS), 0);
    pthread_t th[RANKS];
    for (int r = 0; r < RANKS; r++) {
        rk[r] = (Rank){.group = &g, .rank = r, .o = *o, .f = f, .w = eval_weights_new(f->g)};
        assert_non_null(rk[r].w);
        rk[r].red = (TexelReducer){.rank = r, .ranks = RANKS, .gather = gather, .ctx = &rk[r]};
        rk[r].o.reducer = &rk[r].red;
    }
    for (int r = 0; r < RANKS; r++) assert_int_equal(pthread_create(&th[r], NULL, rank_main, &rk[r]), 0);
    for (int r = 0; r < RANKS; r++) assert_int_equal(pthread_join(th[r], NULL), 0);
    pthread_barrier_destroy(&g.barrier);
}

/* 3 ranks, each tracing a third of the positions: the one-process weights,
 * K, losses and position counts on every rank, for the plain job and for
 * one with resolving, dedupe, blended targets and mini-batches; rank 0
 * alone stores (its weight set is the one-process set: equal values), the
 * others store nothing; a refusal fails every rank with its message. */
static void test_tune_job_sharded(void **state)
{
    Fixture *f = *state;
    const Game *g = f->g;
    for (int variant = 0; variant < 3; variant++) {
        Db *db = open_db(f);
        TuneJobOptions o = options(f, db);
        o.epochs = 25;
        static char few[] = "p.ply < 1";
        if (variant == 1) {
            o.resolve = true;
            o.dedupe = true;
            o.score_weight = 0.3;
            o.batch = 1000;
            o.threads = 2;
        }
        if (variant == 2) o.filter = few;
        int32_t *w = eval_weights_new(g);
        TuneJobResult r;
        char err[ERR_MAX] = "";
        TuneJobStatus st = tune_job_run(&o, w, &r, err);
        db_close(db);
        assert_int_equal(st, variant == 2 ? TUNE_JOB_FAILED : TUNE_JOB_DONE);
        const int64_t tunings = raw_int(f->path, "SELECT count(*) FROM tuning_runs");
        o.db = NULL;
        Rank rk[RANKS];
        run_ranks(rk, f, &o);
        for (int k = 0; k < RANKS; k++) {
            if (variant == 2) {
                assert_int_equal(rk[k].st, TUNE_JOB_FAILED);
                if (!strstr(rk[k].err, "positions match in")) fail_msg("rank %d: '%s'", k, rk[k].err);
                continue;
            }
            if (rk[k].st != TUNE_JOB_DONE) fail_msg("variant %d, rank %d: %s", variant, k, rk[k].err);
            assert_memory_equal(w, rk[k].w, sizeof(int32_t) * (size_t)g->weights_len);
            assert_int_equal(rk[k].r.positions, r.positions);
            assert_int_equal(rk[k].r.skipped, r.skipped);
            assert_int_equal(rk[k].r.resolved, r.resolved);
            assert_int_equal(rk[k].r.merged, r.merged);
            assert_memory_equal(&rk[k].r.texel.k, &r.texel.k, sizeof r.texel.k);
            assert_memory_equal(&rk[k].r.texel.valid_loss, &r.texel.valid_loss, sizeof r.texel.valid_loss);
            assert_int_equal(rk[k].r.texel.epochs, r.texel.epochs);
            assert_int_equal(rk[k].r.result_ws, k == 0 ? r.result_ws : 0);
            /* full batch: each rank held only its blocks' positions (sharded
             * data); mini-batches: all of them */
            assert_int_equal(r.positions_held, r.positions);
            if (variant == 0 && !(rk[k].r.positions_held < r.positions))
                fail_msg("rank %d held %zu of %zu positions", k, rk[k].r.positions_held, r.positions);
            if (variant == 1) assert_int_equal(rk[k].r.positions_held, r.positions);
            assert_int_equal(rk[k].r.run_id != 0, k == 0);
        }
        if (variant == 1) assert_true(r.resolved > 0 && r.merged > 0);
        assert_int_equal(raw_int(f->path, "SELECT count(*) FROM tuning_runs"), tunings + (variant == 2 ? 0 : 1));
        for (int k = 0; k < RANKS; k++) free(rk[k].w);
        free(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tune_job_stores),
        cmocka_unit_test(test_tune_job_no_epochs),
        cmocka_unit_test(test_tune_job_refusals),
        cmocka_unit_test(test_tune_job_killed),
        cmocka_unit_test(test_tune_job_sharded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
