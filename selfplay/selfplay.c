/* selfplay.c — a self-play run (contracts in selfplay/selfplay.h).
 *
 * Self-play over MPI (under mpirun -np K): game i is played by rank i mod K
 * (a shard R/S plays the games with i mod S = R: rank r those with
 * i = R + S * (r + K * j)); everything a game depends on comes from (run
 * seed, i), so the stored games are those of a one-process run whatever K.
 * Rank 0 alone has the database: it finds or makes the run and its members
 * (selfplay/members.h) and sends every rank the base weights, the members,
 * their ids and which games are stored already. Each rank plays its games
 * on its OpenMP workers; the main thread of a rank (MPI_THREAD_FUNNELED)
 * plays none: it runs the relay of dist/relay.h (the one distribution of
 * selfplay, match and tournament over MPI): on ranks 1.. it sends each
 * finished game to rank 0 (game_writer_encode), on rank 0 it receives them
 * into the one writer that also takes rank 0's own games. */
#include "selfplay/selfplay.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/game_writer.h"
#include "arena/openings.h"
#include "arena/play.h"
#include "arena/workers.h"
#include "db/db.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "engine/egtb/egtb.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "selfplay/members.h"
#include "util/clock.h"
#include "util/rng.h"

/* What rank 0 tells the others after the set-up. */
typedef struct SetupMsg {
    int64_t rc; /* SELFPLAY_SETUP_*: play, failed (rank 0 reports), nothing to play, stopped in the set-up, busy */
    int64_t run_id, already;
} SetupMsg;

/* The run as the workers and the relay share it. */
typedef struct Run {
    const SelfplayOptions *o;
    const Game *g;
    SelfplayMembers m;
    int32_t *base;
    bool *done;            /* o->games flags: stored before this session */
    OpeningBook book;
    int64_t offset;        /* the first pair's opening */
    int64_t first, stride; /* this rank's games: first + j * stride */
    GameWriter wr;
    SelfplayResult *r;
    DistRelay relay;
    bool dist;
    volatile int *stop;
    int64_t next;          /* this rank's next game index j */
    int workers_left;
} Run;

/* A stored game's counts (under the critical section game_writer). */
static void count_game(Run *run, int rank, Outcome oc, int plies)
{
    SelfplayResult *r = run->r;
    r->played++;
    r->positions += plies;
    r->rank_games[rank]++;
    r->wdl[oc == OUTCOME_WHITE_WINS ? 0 : oc == OUTCOME_DRAW ? 1 : 2]++;
    if (run->o->event) run->o->event(run->o->ctx, SELFPLAY_EVENT_GAME, r);
}

/* Rank 0's relay: a game of rank src (game_writer_encode's bytes) into the
 * writer; a bad one fails the writer, and relay_idle then stops every rank. */
static int relay_game(void *ctx, int src, const uint8_t *buf, size_t size, char err[ERR_MAX])
{
    (void)err;
    Run *run = ctx;
#pragma omp critical(game_writer)
    {
        Outcome oc = OUTCOME_NONE;
        int plies = 0;
        if (game_writer_add_encoded(&run->wr, buf, size, &oc, &plies) == 0) count_game(run, src, oc, plies);
    }
    return 0;
}

/* Between polls: the timed flush; a failed writer stops every rank. */
static bool relay_idle(void *ctx)
{
    Run *run = ctx;
    GameWriter *wr = &run->wr;
    bool failed;
#pragma omp critical(game_writer)
    {
        if (wr->len > 0 && clock_now_s() - wr->last_flush >= wr->flush_interval_s) game_writer_flush(wr);
        failed = wr->failed;
    }
    return failed;
}

/* A worker's failure (under the lock): the writer fails, every worker stops. */
static void fail(Run *run, int64_t i, const char *why)
{
#pragma omp critical(game_writer)
    {
        snprintf(run->wr.err, ERR_MAX, "game %lld: %.200s", (long long)i, why);
        run->wr.failed = true;
    }
}

/* The two members of game i (White's first): pairs mode plays pair p's
 * two members; population mode draws two distinct ones from (seed, p);
 * the second game of a pair swaps them. */
static void game_members(const Run *run, int64_t i, int64_t mk[2])
{
    const SelfplayOptions *o = run->o;
    int64_t pair = i / 2;
    uint64_t prng = rng_derive(o->seed, (uint64_t)pair);
    int64_t ma, mb;
    if (o->perturb == SELFPLAY_PERTURB_PAIRS) {
        ma = 1 + 2 * pair;
        mb = 2 + 2 * pair;
    } else {
        ma = (int64_t)rng_below(&prng, (uint64_t)o->population);
        mb = (int64_t)rng_below(&prng, (uint64_t)o->population - 1);
        if (mb >= ma) mb++;
    }
    mk[0] = i % 2 ? mb : ma;
    mk[1] = i % 2 ? ma : mb;
}

/* One worker (an OpenMP thread): plays this rank's games until none is
 * left, each with its two engines; rank 0 queues them in the writer, the
 * others send them to rank 0 through the relay. */
static void worker(Run *run)
{
    const SelfplayOptions *o = run->o;
    const Game *g = run->g;
    int self = dist_rank();
    Worker wk;
    bool wok = worker_init(&wk, g, o->hash_mb, run->stop, &run->wr), ok = wok;
    PlayRecord *rec = &wk.rec;
    char werr[ERR_MAX];
    EgtbProber *prober = o->egtb ? egtb_prober_new(o->egtb, o->egtb_pieces, 1024) : NULL;
    ok = ok && (!o->egtb || prober);
    PlaySettings ps = {.nodes = o->depth ? 0 : o->nodes, .depth = o->depth, .max_plies = o->max_plies};
    int32_t *mw[2] = {eval_weights_new(g), eval_weights_new(g)}; /* this worker's two members */
    ok = ok && mw[0] && mw[1];
    if (prober && o->egtb_adjudicate) ps.adjudicate = egtb_adjudicate, ps.adjudicate_ctx = prober;
    if (ok && prober) {
        engine_set_probe(wk.eng[0], egtb_engine_probe, prober);
        engine_set_probe(wk.eng[1], egtb_engine_probe, prober);
    }
    for (;;) {
        int64_t j;
#pragma omp atomic capture
        j = run->next++;
        int64_t i = run->first + j * run->stride;
        if (i >= o->games) break;
        if (!ok || run->done[i] || *run->stop || run->wr.failed) continue;
        int64_t mk[2];
        game_members(run, i, mk);
        const Opening *op = &run->book.items[(run->offset + i / 2) % run->book.len];
        Position start;
        g->pos_from_fen(&start, op->fen, werr);
        for (int c = 0; c < 2; c++) selfplay_members_full(&run->m, run->base, mk[c], mw[c]);
        engine_set_weights(wk.eng[COLOR_WHITE], mw[0]);
        engine_set_weights(wk.eng[COLOR_BLACK], mw[1]);
        int prc = play_game(g, wk.eng, &start, &ps, run->stop, rec, werr);
        if (prc != 0) {
            if (prc < 0) fail(run, i, werr);
            continue;
        }
        DbGame meta = {.run_id = run->r->run_id, .game_index = i, .game = g->name, .opening = op->label,
                       .start_fen = op->fen, .white_ws = run->m.ws_ids[mk[0]], .black_ws = run->m.ws_ids[mk[1]],
                       .seed = rng_derive(o->seed, (uint64_t)i)};
        if (self != 0) { /* to rank 0, through the main thread */
            uint8_t *buf = NULL;
            size_t size = 0;
            if (game_writer_encode(g, rec, &meta, &buf, &size) != 0) {
                fail(run, i, "out of memory");
                continue;
            }
            dist_relay_push(&run->relay, buf, size);
            continue;
        }
#pragma omp critical(game_writer)
        {
            if (game_writer_add(&run->wr, g, rec, &meta) == 0) count_game(run, 0, rec->outcome, rec->plies);
        }
    }
    if (wok) worker_free(&wk);
    free(mw[0]), free(mw[1]);
    egtb_prober_free(prober);
    int left;
#pragma omp atomic capture
    left = --run->workers_left;
    if (left == 0 && run->dist) { /* the last worker: this rank's report */
        DistReport rep = {.rc = 0};
#pragma omp critical(game_writer)
        {
            rep.rc = run->wr.failed ? -1 : 0;
            snprintf(rep.err, ERR_MAX, "%s", run->wr.err);
        }
        dist_relay_workers_done(&run->relay, &rep);
    }
}

/* This rank's line and the end of the job (a failure the others cannot see). */
static _Noreturn void abort_job(const char *what)
{
    fprintf(stderr, "dama selfplay: rank %d: %s\n", dist_rank(), what);
    dist_abort(1);
}

/* Play the games: the workers and, over MPI, the main thread's relay.
 * Returns the exit-status-like verdict of rank 0 (0 complete, 3
 * interrupted, 1 failed), the same on every rank. */
static int play(Run *run, struct Db *db)
{
    const SelfplayOptions *o = run->o;
    SelfplayResult *r = run->r;
    int self = dist_rank();
    game_writer_init(&run->wr, db, o->batch, 1.0); /* db is NULL on ranks 1..: nothing is added there */
    run->offset = (int64_t)(rng_derive(o->seed, 0x6f70656eULL) % (uint64_t)run->book.len);
    run->workers_left = o->threads;
    if (run->dist) {
        if (dist_relay_init(&run->relay) != 0) abort_job("out of memory");
        run->relay.on_data = relay_game;
        run->relay.on_idle = relay_idle;
        run->relay.ctx = run;
        run->relay.stop = run->stop;
    }
#pragma omp parallel num_threads(o->threads + (run->dist ? 1 : 0))
    if (run->dist && omp_get_thread_num() == 0)
        dist_relay_serve(&run->relay, "selfplay"); /* the main thread: messages only (MPI_THREAD_FUNNELED) */
    else
        worker(run);
    GameWriter *wr = &run->wr;
    if (run->dist && self == 0) /* a rank's failure is the run's */
        for (int k = 1; k < dist_size(); k++)
            if (run->relay.reports[k].rc < 0 && !wr->failed) {
                snprintf(wr->err, ERR_MAX, "rank %d: %.200s", k, run->relay.reports[k].err);
                wr->failed = true;
            }
    if (run->dist) dist_relay_free(&run->relay);
    if (self != 0) return dist_relay_final("selfplay", 1); /* rank 0's verdict */
    game_writer_flush(wr);
    r->stored = wr->stored;
    r->total_stored = r->already + wr->stored;
    /* Complete: every game (a shard: every game of the shard) stored. */
    r->complete = r->total_stored == o->games;
    if (o->shard_k > 1) {
        char cerr[ERR_MAX];
        int64_t stored = 0;
        r->complete = db_run_game_indices(db, r->run_id, run->done, o->games, &stored, cerr) == 0;
        for (int64_t i = o->shard_r; r->complete && i < o->games; i += o->shard_k) r->complete = run->done[i];
    }
    char ferr[ERR_MAX];
    db_run_finish(db, r->run_id, r->complete ? "done" : "interrupted", ferr);
    int verdict = wr->failed ? 1 : r->complete ? 0 : 3;
    return run->dist ? dist_relay_final("selfplay", verdict) : verdict;
}

/* Rank 0 tells the others how the set-up went and what they need; every
 * rank then holds msg, the base, the members and done[]. */
static void share_setup(Run *run, SetupMsg *msg)
{
    char err[ERR_MAX];
    size_t wlen = (size_t)run->g->weights_len, mlen = (size_t)run->m.len;
    int rc = dist_sync_polled(err); /* the others wait without spinning while rank 0 sets up */
    if (rc == 0) rc = dist_bcast_bytes(msg, sizeof *msg, 0, err);
    if (rc == 0 && msg->rc == SELFPLAY_SETUP_PLAY) {
        rc = dist_bcast_bytes(run->base, sizeof(int32_t) * wlen, 0, err);
        if (rc == 0) rc = dist_bcast_bytes(run->m.ws_ids, sizeof(int64_t) * mlen, 0, err);
        if (rc == 0) rc = dist_bcast_bytes(run->m.values, sizeof(int32_t) * mlen * (size_t)run->m.n_small, 0, err);
        if (rc == 0) rc = dist_bcast_bytes(run->done, sizeof(bool) * (size_t)run->o->games, 0, err);
    }
    if (rc != 0) abort_job(err);
}

/* Set up (rank 0), share the set-up (MPI), count this session's games. */
static int prepare(Run *run, struct Db *db, char err[ERR_MAX])
{
    const SelfplayOptions *o = run->o;
    SelfplayResult *r = run->r;
    SetupMsg msg = {SELFPLAY_SETUP_PLAY, 0, 0};
    if (dist_rank() == 0) {
        msg.rc = selfplay_setup(db, o, &run->m, run->base, run->done, r, err);
        msg.run_id = r->run_id;
        msg.already = r->already;
    }
    if (run->dist) {
        share_setup(run, &msg);
        r->run_id = msg.run_id;
        r->already = msg.already;
        if (dist_rank() != 0 && msg.rc != SELFPLAY_SETUP_PLAY)
            r->end = msg.rc == SELFPLAY_SETUP_NOTHING   ? SELFPLAY_END_ALREADY_STORED
                   : msg.rc == SELFPLAY_SETUP_STOPPED ? SELFPLAY_END_SETUP_STOPPED
                   : msg.rc == SELFPLAY_SETUP_BUSY    ? SELFPLAY_END_BUSY
                                                      : SELFPLAY_END_FAILED;
    }
    if (msg.rc != SELFPLAY_SETUP_PLAY) return (int)msg.rc;
    r->to_play = 0;
    for (int64_t i = run->first; i < o->games; i += run->stride) r->to_play += !run->done[i];
    if (run->dist) dist_sum_int64(&r->to_play, 1, err); /* every rank's share */
    return SELFPLAY_SETUP_PLAY;
}

void selfplay_result_free(SelfplayResult *r)
{
    free(r->rank_games);
    r->rank_games = NULL;
}

int selfplay_run(struct Db *db, const SelfplayOptions *o, SelfplayResult *r, char err[ERR_MAX])
{
    static volatile int never; /* the stop flag of a run without one */
    const Game *g = o->game;
    memset(r, 0, sizeof *r);
    r->end = SELFPLAY_END_FAILED;
    err[0] = '\0';
    Run run = {.o = o, .g = g, .r = r, .dist = dist_size() > 1, .stop = o->stop ? o->stop : &never};
    r->ranks = dist_size();
    run.first = o->shard_r + o->shard_k * dist_rank();
    run.stride = o->shard_k * dist_size();
    if (openings_for_run(g, o->openings, o->random_plies, o->balance, o->seed, &run.book, err) != 0) {
        if (run.dist) {
            fprintf(stderr, "dama selfplay (over MPI): %s\n", err);
            dist_abort(1);
        }
        return SELFPLAY_FAILED;
    }
    r->openings = run.book.len;
    r->members = o->perturb == SELFPLAY_PERTURB_PAIRS ? 1 + o->games : o->population;
    run.base = eval_weights_new(g);
    run.done = calloc((size_t)o->games, sizeof(bool));
    r->rank_games = calloc((size_t)dist_size(), sizeof(int64_t)); /* stored this session, by rank */
    int status = SELFPLAY_FAILED;
    if (!run.base || !run.done || !r->rank_games || selfplay_members_init(&run.m, g, r->members) != 0) {
        snprintf(err, ERR_MAX, "out of memory");
        if (run.dist) abort_job(err);
        goto out;
    }
    int setup = prepare(&run, db, err);
    if (setup == SELFPLAY_SETUP_PLAY) {
        if (o->event && dist_rank() == 0) o->event(o->ctx, SELFPLAY_EVENT_START, r);
        r->end = SELFPLAY_END_PLAYED;
        int verdict = play(&run, db);
        if (dist_rank() == 0 && run.wr.failed) snprintf(err, ERR_MAX, "%s", run.wr.err);
        game_writer_free(&run.wr);
        status = verdict == 0 ? SELFPLAY_DONE : verdict == 3 ? SELFPLAY_INTERRUPTED : SELFPLAY_FAILED;
    } else {
        status = setup == SELFPLAY_SETUP_NOTHING   ? SELFPLAY_DONE
               : setup == SELFPLAY_SETUP_STOPPED ? SELFPLAY_INTERRUPTED
               : setup == SELFPLAY_SETUP_BUSY    ? SELFPLAY_BUSY
                                                 : SELFPLAY_FAILED;
    }
out:
    selfplay_members_free(&run.m);
    free(run.base);
    free(run.done);
    openings_free(&run.book);
    return status;
}
