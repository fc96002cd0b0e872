/* schedule_dist.c — the tournament scheduler over the ranks of an MPI job
 * (contracts in arena/schedule_dist.h). */
#include "arena/schedule_dist.h"

#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "dist/relay.h"
#include "arena/play_msg.h"

/* ---- the scheduler over the ranks --------------------------------------- */

typedef struct DistSched {
    const Schedule *s;
    DistRelay relay;
    const char *command;
    int64_t first, stride;   /* this rank's jobs: first + j * stride */
    volatile int halt;       /* no new job (rank 0: a callback halted; ranks 1..: rank 0 said so) */
    bool failed;             /* rank 0: a callback failed */
    char err[ERR_MAX];
    PlayRecord rec;          /* rank 0: a received game */
} DistSched;

/* Kinds of the DATA messages of the scheduler: a game, or a whole job done. */
enum { MSG_GAME = 1, MSG_JOB = 2 };

static void d_job_game(void *ctx, int64_t job, int k, int *white, int *black, Position *start)
{
    DistSched *d = ctx;
    d->s->job_game(d->s->ctx, d->first + job * d->stride, k, white, black, start);
}

static void d_player_made(void *ctx, int index, Player *p)
{
    DistSched *d = ctx;
    d->s->player_made(d->s->ctx, index, p);
}

/* Rank 0: a callback's answer (under the dist_schedule lock). */
static int answer(DistSched *d, int rc, const char *msg)
{
    if (rc < 0 && !d->failed) {
        d->failed = true;
        snprintf(d->err, ERR_MAX, "%s", msg[0] ? msg : "a scheduler callback failed");
    }
    if (rc > 0) d->halt = 1;
    return rc;
}

static int root_game(DistSched *d, int64_t job, int k, int white, int black, const PlayRecord *rec)
{
    int rc = 0;
#pragma omp critical(dist_schedule)
    {
        if (d->failed) rc = -1;
        else if (d->s->game_done) {
            char cerr[ERR_MAX] = "";
            rc = answer(d, d->s->game_done(d->s->ctx, job, k, white, black, rec, cerr), cerr);
        }
    }
    return rc;
}

static int root_job(DistSched *d, int64_t job)
{
    int rc = 0;
#pragma omp critical(dist_schedule)
    {
        if (d->failed) rc = -1;
        else if (d->s->job_done) {
            char cerr[ERR_MAX] = "";
            rc = answer(d, d->s->job_done(d->s->ctx, job, cerr), cerr);
        }
    }
    return rc;
}

static int d_game_done(void *ctx, int64_t job, int k, int white, int black, const PlayRecord *rec, char err[ERR_MAX])
{
    DistSched *d = ctx;
    int64_t gjob = d->first + job * d->stride;
    if (dist_rank() == 0) {
        int rc = root_game(d, gjob, k, white, black, rec);
        if (rc < 0) snprintf(err, ERR_MAX, "%s", d->err);
        return rc < 0 ? -1 : d->halt ? 1 : 0;
    }
    uint8_t *buf = NULL;
    size_t size = 0;
    if (dist_record_encode(gjob, k, white, black, rec, &buf, &size) != 0) {
        snprintf(err, ERR_MAX, "out of memory for a game message");
        return -1;
    }
    uint8_t *msg = malloc(size + 1);
    if (!msg) {
        free(buf);
        snprintf(err, ERR_MAX, "out of memory for a game message");
        return -1;
    }
    msg[0] = MSG_GAME;
    memcpy(msg + 1, buf, size);
    free(buf);
    dist_relay_push(&d->relay, msg, size + 1);
    return d->halt ? 1 : 0;
}

static int d_job_done(void *ctx, int64_t job, char err[ERR_MAX])
{
    DistSched *d = ctx;
    int64_t gjob = d->first + job * d->stride;
    if (dist_rank() == 0) {
        int rc = root_job(d, gjob);
        if (rc < 0) snprintf(err, ERR_MAX, "%s", d->err);
        return rc < 0 ? -1 : d->halt ? 1 : 0;
    }
    uint8_t *msg = malloc(1 + sizeof gjob);
    if (!msg) {
        snprintf(err, ERR_MAX, "out of memory for a message");
        return -1;
    }
    msg[0] = MSG_JOB;
    memcpy(msg + 1, &gjob, sizeof gjob);
    dist_relay_push(&d->relay, msg, 1 + sizeof gjob);
    return d->halt ? 1 : 0;
}

/* Rank 0's main thread between polls: a failed callback stops every rank. */
static bool on_idle(void *ctx)
{
    DistSched *d = ctx;
    bool failed;
#pragma omp critical(dist_schedule)
    failed = d->failed;
    return failed;
}

/* Rank 0's main thread: a message of another rank's workers. */
static int on_data(void *ctx, int src, const uint8_t *buf, size_t size, char err[ERR_MAX])
{
    DistSched *d = ctx;
    (void)src;
    int64_t job = 0;
    if (size == 1 + sizeof job && buf[0] == MSG_JOB) {
        memcpy(&job, buf + 1, sizeof job);
        if (job < 0 || job >= d->s->jobs_len) {
            snprintf(err, ERR_MAX, "a finished job %lld of %lld", (long long)job, (long long)d->s->jobs_len);
            return -1;
        }
        root_job(d, job);
        return 0;
    }
    if (size < 1 || buf[0] != MSG_GAME) {
        snprintf(err, ERR_MAX, "a message of %zu bytes that is neither a game nor a finished job", size);
        return -1;
    }
    int k = 0, white = 0, black = 0;
    char reason[64];
    if (dist_record_decode(d->s->game, buf + 1, size - 1, &job, &k, &white, &black, &d->rec, reason, err) != 0)
        return -1;
    if (job < 0 || job >= d->s->jobs_len || k >= d->s->games_per_job || white >= d->s->players_len ||
        black >= d->s->players_len) {
        snprintf(err, ERR_MAX, "a game of job %lld (game %d, players %d and %d) outside the schedule", (long long)job, k,
                 white, black);
        return -1;
    }
    root_game(d, job, k, white, black, &d->rec);
    return 0;
}

int dist_schedule_run(const Schedule *s, const char *command, ScheduleStats *stats, char err[ERR_MAX])
{
    const int ranks = dist_size(), me = dist_rank();
    if (ranks == 1) return schedule_run(s, stats, err);
    DistSched d = {.s = s, .command = command, .first = me, .stride = ranks};
    if (dist_relay_init(&d.relay) != 0 || (me == 0 && play_record_init(&d.rec) != 0)) {
        fprintf(stderr, "dama %s: rank %d: out of memory\n", command, me);
        dist_abort(1);
    }
    d.relay.on_data = on_data;
    d.relay.on_idle = on_idle;
    d.relay.ctx = &d;
    d.relay.stop = s->stop;
    d.relay.halt = &d.halt;
    Schedule mine = *s;
    mine.jobs_len = s->jobs_len > me ? (s->jobs_len - me + ranks - 1) / ranks : 0;
    mine.ctx = &d;
    mine.job_game = d_job_game;
    mine.player_made = s->player_made ? d_player_made : NULL;
    mine.game_done = d_game_done;
    mine.job_done = d_job_done;
    mine.halt = &d.halt;
    /* The main thread relays while a second thread runs the scheduler,
     * whose team of players is nested inside. */
    int levels = omp_get_max_active_levels();
    if (levels < 2) omp_set_max_active_levels(2);
    int rc = 0;
    ScheduleStats st = {0};
    char serr[ERR_MAX] = "";
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            dist_relay_serve(&d.relay, command);
        } else {
            rc = schedule_run(&mine, &st, serr);
            DistReport rep = {.rc = rc, .games = st.games, .jobs = st.jobs, .faults = st.faults, .slots = st.slots,
                              .engine_s = st.engine_s, .wall_s = st.wall_s, .halted = st.halted};
            snprintf(rep.err, ERR_MAX, "%s", serr);
            dist_relay_workers_done(&d.relay, &rep);
        }
    }
    if (levels < 2) omp_set_max_active_levels(levels);
    if (me != 0) {
        dist_relay_free(&d.relay);
        if (stats) *stats = st;
        if (rc < 0) snprintf(err, ERR_MAX, "%s", serr);
        return rc;
    }
    /* Rank 0: the whole job's figures and verdict. */
    ScheduleStats all = {0};
    int failed_rank = -1;
    bool stopped = false;
    for (int q = 0; q < ranks; q++) {
        const DistReport *rep = &d.relay.reports[q];
        all.games += rep->games;
        all.jobs += rep->jobs;
        all.faults += rep->faults;
        all.slots += (int)rep->slots;
        all.engine_s += rep->engine_s;
        if (rep->wall_s > all.wall_s) all.wall_s = rep->wall_s;
        all.halted = all.halted || rep->halted;
        if (rep->rc < 0 && failed_rank < 0) failed_rank = q;
        if (rep->rc == 1) stopped = true;
    }
    all.halted = all.halted || d.halt;
    if (stats) *stats = all;
    play_record_free(&d.rec);
    int out = 0;
    if (d.failed) {
        snprintf(err, ERR_MAX, "%s", d.err);
        out = -1;
    } else if (failed_rank >= 0) {
        snprintf(err, ERR_MAX, "rank %d: %.200s", failed_rank, d.relay.reports[failed_rank].err);
        out = -1;
    } else if (all.halted) {
        out = 0;
    } else if (stopped || all.jobs < s->jobs_len) {
        out = 1;
    }
    dist_relay_free(&d.relay);
    return out;
}

void dist_run_abort(const char *command, bool name_rank, const char *msg)
{
    if (name_rank) fprintf(stderr, "dama %s: rank %d: %s\n", command, dist_rank(), msg);
    else fprintf(stderr, "dama %s: %s\n", command, msg);
    dist_abort(1);
}
