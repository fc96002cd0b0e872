/* dist_play.c — games over the ranks of an MPI job (contracts in
 * cli/dist_play.h). */
#include "cli/dist_play.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dist/dist.h"
#include "util/clock.h"

/* Tags of the relay's messages. */
enum { TAG_DATA = 1, TAG_DONE = 2, TAG_STOP = 3, TAG_FINAL = 4, TAG_HALT = 5, TAG_ORDER = 6 };

/* A waiting main thread polls MPI (dist_poll) every POLL_MS: each poll
 * costs tens of microseconds of CPU on a busy machine (Open MPI runs its
 * progress engine), so 1 ms polls took 20% of a self-play rank's CPU; a
 * game takes far longer than 10 ms. */
enum { POLL_MS = 10 };

static void sleep_ms(long ms) { nanosleep(&(struct timespec){0, ms * 1000000L}, NULL); }

struct DistMsg {
    uint8_t *buf;
    size_t size;
    DistMsg *next;
};

_Noreturn static void die(const char *command, const char *msg)
{
    fprintf(stderr, "dama %s: rank %d: %s\n", command, dist_rank(), msg);
    dist_abort(1);
}

int dist_node_cores(void)
{
    int cores = omp_get_num_procs();
    const char *local = dist_active() ? getenv("OMPI_COMM_WORLD_LOCAL_SIZE") : NULL;
    long per_node = local ? strtol(local, NULL, 10) : 1;
    if (per_node > 1) cores = cores / (int)per_node > 0 ? cores / (int)per_node : 1;
    return cores > 0 ? cores : 1;
}

int dist_relay_init(DistRelay *r)
{
    memset(r, 0, sizeof *r);
    r->tail = &r->head;
    r->reports = calloc((size_t)dist_size(), sizeof *r->reports);
    return r->reports ? 0 : -1;
}

void dist_relay_free(DistRelay *r)
{
    for (DistMsg *m = r->head, *n; m; m = n) {
        n = m->next;
        free(m->buf);
        free(m);
    }
    r->head = NULL;
    r->tail = &r->head;
    free(r->reports);
    r->reports = NULL;
}

void dist_relay_push(DistRelay *r, uint8_t *buf, size_t size)
{
    DistMsg *m = malloc(sizeof *m);
    if (!m) {
        /* a worker cannot return this to anyone: the job cannot go on */
        fprintf(stderr, "dama: rank %d: out of memory for a message to rank 0\n", dist_rank());
        abort();
    }
    *m = (DistMsg){buf, size, NULL};
#pragma omp critical(dist_outbox)
    {
        *r->tail = m;
        r->tail = &m->next;
    }
}

void dist_relay_workers_done(DistRelay *r, const DistReport *mine)
{
#pragma omp critical(dist_outbox)
    {
        r->mine = *mine;
        r->workers_done = 1;
    }
}

/* The next queued message (NULL if none) and whether the workers are done,
 * read together: a message queued before "done" is never missed. */
static DistMsg *pop(DistRelay *r, int *done)
{
    DistMsg *m;
#pragma omp critical(dist_outbox)
    {
        *done = r->workers_done;
        m = r->head;
        if (m) {
            r->head = m->next;
            if (!r->head) r->tail = &r->head;
        }
    }
    return m;
}

static void send_all(const char *command, int tag)
{
    char err[ERR_MAX];
    for (int q = 1; q < dist_size(); q++)
        if (dist_send_bytes(q, tag, "", 0, err) != 0) die(command, err);
}

static void serve_root(DistRelay *r, const char *command)
{
    char err[ERR_MAX];
    int left = dist_size() - 1; /* ranks yet to report */
    bool stop_sent = false, halt_sent = false, remote_failed = false;
    for (;;) {
        int src = 0, tag = 0;
        size_t size = 0;
        int got = dist_poll(&src, &tag, &size, err);
        if (got < 0) die(command, err);
        if (got == 1) {
            uint8_t *buf = malloc(size ? size : 1);
            if (!buf) die(command, "out of memory for a message");
            if (dist_recv_bytes(src, tag, buf, size, err) != 0) die(command, err);
            if (tag == TAG_DATA) {
                err[0] = 0;
                if (r->on_data && r->on_data(r->ctx, src, buf, size, err) != 0) {
                    char msg[ERR_MAX];
                    snprintf(msg, sizeof msg, "from rank %d: %.200s", src, err);
                    die(command, msg);
                }
            } else if (tag == TAG_DONE) {
                DistReport *rep = &r->reports[src];
                if (size == sizeof *rep) {
                    memcpy(rep, buf, sizeof *rep);
                    rep->err[ERR_MAX - 1] = 0;
                } else {
                    *rep = (DistReport){.rc = -1};
                    snprintf(rep->err, ERR_MAX, "a report of %zu bytes, not %zu", size, sizeof *rep);
                }
                remote_failed = remote_failed || rep->rc < 0;
                left--;
            } else {
                snprintf(err, ERR_MAX, "an unexpected message from rank %d (tag %d, %zu bytes)", src, tag, size);
                die(command, err);
            }
            free(buf);
            continue;
        }
        bool idle_stop = r->on_idle && r->on_idle(r->ctx);
        if (!stop_sent && ((r->stop && *r->stop) || idle_stop || remote_failed)) {
            if (r->stop) *r->stop = 1; /* rank 0's own workers too */
            send_all(command, TAG_STOP);
            stop_sent = true;
        }
        if (!halt_sent && r->halt && *r->halt) {
            send_all(command, TAG_HALT);
            halt_sent = true;
        }
        int done;
#pragma omp atomic read
        done = r->workers_done;
        if (done && left == 0) break;
        sleep_ms(POLL_MS);
    }
    r->reports[0] = r->mine;
}

static void serve_rank(DistRelay *r, const char *command)
{
    char err[ERR_MAX];
    for (;;) {
        int src = 0, tag = 0;
        size_t size = 0;
        int got = dist_poll(&src, &tag, &size, err);
        if (got < 0) die(command, err);
        if (got == 1) {
            char sink[1];
            if (size != 0 || (tag != TAG_STOP && tag != TAG_HALT)) {
                snprintf(err, ERR_MAX, "an unexpected message (tag %d, %zu bytes)", tag, size);
                die(command, err);
            }
            if (dist_recv_bytes(src, tag, sink, 0, err) != 0) die(command, err);
            if (tag == TAG_STOP && r->stop) *r->stop = 1;
            if (tag == TAG_HALT && r->halt) *r->halt = 1;
            continue;
        }
        int done;
        DistMsg *m = pop(r, &done);
        if (m) {
            /* polled: a game is over the eager limit, and MPI_Send would spin
             * until rank 0 takes it */
            if (dist_send_bytes_polled(0, TAG_DATA, m->buf, m->size, 1, err) != 0) die(command, err);
            free(m->buf);
            free(m);
            continue;
        }
        if (done) break;
        sleep_ms(POLL_MS);
    }
    if (dist_send_bytes_polled(0, TAG_DONE, &r->mine, sizeof r->mine, 1, err) != 0) die(command, err);
}

void dist_relay_serve(DistRelay *r, const char *command)
{
    if (dist_rank() == 0) serve_root(r, command);
    else serve_rank(r, command);
}

int dist_relay_final(const char *command, int rc)
{
    char err[ERR_MAX];
    if (dist_size() == 1) return rc;
    if (dist_rank() == 0) {
        int64_t msg = rc;
        for (int q = 1; q < dist_size(); q++)
            if (dist_send_bytes(q, TAG_FINAL, &msg, sizeof msg, err) != 0) die(command, err);
        return rc;
    }
    /* polling: a blocking receive would spin a core while rank 0 finishes */
    for (;;) {
        int src = 0, tag = 0;
        size_t size = 0;
        int got = dist_poll(&src, &tag, &size, err);
        if (got < 0) die(command, err);
        if (got == 0) {
            sleep_ms(POLL_MS);
            continue;
        }
        int64_t msg = 1;
        uint8_t sink[sizeof msg];
        if (size > sizeof msg || dist_recv_bytes(src, tag, sink, size, err) != 0)
            die(command, size > sizeof msg ? "an unexpected message" : err);
        if (tag != TAG_FINAL) continue; /* a late stop or halt */
        if (size == sizeof msg) memcpy(&msg, sink, sizeof msg);
        return (int)msg;
    }
}

int dist_order_send(const void *buf, size_t size, char err[ERR_MAX])
{
    for (int q = 1; q < dist_size(); q++)
        if (dist_send_bytes_polled(q, TAG_ORDER, buf, size, 1, err) != 0) return -1;
    return 0;
}

int dist_order_wait(uint8_t **buf, size_t *size, char err[ERR_MAX])
{
    *buf = NULL;
    *size = 0;
    for (;;) {
        int src = 0, tag = 0;
        size_t n = 0;
        int got = dist_poll(&src, &tag, &n, err);
        if (got < 0) return -1;
        if (got == 0) {
            sleep_ms(POLL_MS);
            continue;
        }
        uint8_t *b = malloc(n ? n : 1);
        if (!b) {
            snprintf(err, ERR_MAX, "out of memory for an order of %zu bytes", n);
            return -1;
        }
        if (dist_recv_bytes(src, tag, b, n, err) != 0) {
            free(b);
            return -1;
        }
        if (tag != TAG_ORDER) { /* a late stop or halt */
            free(b);
            continue;
        }
        *buf = b;
        *size = n;
        return 0;
    }
}

int dist_sync_polled(char err[ERR_MAX])
{
    if (dist_size() == 1) return 0;
    if (dist_rank() == 0) return dist_order_send("", 0, err);
    uint8_t *buf = NULL;
    size_t size = 0;
    int rc = dist_order_wait(&buf, &size, err);
    free(buf);
    return rc;
}

/* ---- a scheduler job's game as bytes ------------------------------------ */

/* "DPR1", job (int64), k, white, black, outcome, plies, fault, fault_side
 * (int32), nodes (uint64), engine_seconds (double), reason, movetext,
 * detail (uint32 length + bytes), then plies positions (pos_size bytes
 * each), scores (int32) and quiet flags (uint8). Native byte order: the
 * same binary on every rank. */
static const char MAGIC[4] = {'D', 'P', 'R', '1'};

typedef struct Out {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} Out;

static void put(Out *o, const void *src, size_t n)
{
    if (o->oom || n == 0) return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8192;
        while (cap < o->len + n) cap *= 2;
        uint8_t *q = realloc(o->p, cap);
        if (!q) {
            o->oom = true;
            return;
        }
        o->p = q, o->cap = cap;
    }
    memcpy(o->p + o->len, src, n);
    o->len += n;
}

static void put_str(Out *o, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    put(o, &n, sizeof n);
    put(o, s, n);
}

int dist_record_encode(int64_t job, int k, int white, int black, const PlayRecord *rec, uint8_t **out, size_t *size)
{
    Out o = {0};
    int32_t ints[7] = {k, white, black, (int32_t)rec->outcome, rec->plies, (int32_t)rec->fault, (int32_t)rec->fault_side};
    put(&o, MAGIC, sizeof MAGIC);
    put(&o, &job, sizeof job);
    put(&o, ints, sizeof ints);
    put(&o, &rec->nodes, sizeof rec->nodes);
    put(&o, &rec->engine_seconds, sizeof rec->engine_seconds);
    put_str(&o, rec->reason);
    put_str(&o, rec->movetext);
    put_str(&o, rec->detail);
    size_t n = rec->plies > 0 ? (size_t)rec->plies : 0;
    put(&o, rec->positions, sizeof(Position) * n);
    put(&o, rec->scores, sizeof(int32_t) * n);
    for (size_t i = 0; i < n; i++) {
        uint8_t q = rec->quiet[i];
        put(&o, &q, 1);
    }
    if (o.oom) {
        free(o.p);
        return -1;
    }
    *out = o.p;
    *size = o.len;
    return 0;
}

typedef struct In {
    const uint8_t *p;
    size_t len, at;
    const char *bad; /* what went wrong, at byte `at` */
} In;

static bool take(In *in, void *dst, size_t n, const char *what)
{
    if (in->bad) return false;
    if (in->len - in->at < n) {
        in->bad = what;
        return false;
    }
    if (n) memcpy(dst, in->p + in->at, n);
    in->at += n;
    return true;
}

/* A string of at most max - 1 bytes into dst (NUL-terminated). */
static bool take_str(In *in, char *dst, size_t max, const char *what)
{
    uint32_t n = 0;
    if (!take(in, &n, sizeof n, what)) return false;
    if ((size_t)n >= max) {
        in->bad = what;
        return false;
    }
    if (!take(in, dst, n, what)) return false;
    dst[n] = 0;
    return true;
}

/* Reasons are static strings wherever a record is made, and the callbacks
 * (the game writer, a tournament's tables) keep the pointer: a decoded one
 * is interned here, for the life of the process. At most REASONS_MAX
 * distinct reasons (the rules, faults and adjudications have about 20). */
enum { REASONS_MAX = 128, REASON_LEN = 64 };
static char reasons[REASONS_MAX][REASON_LEN];
static int reasons_len;

static const char *intern_reason(const char *r)
{
    const char *out = NULL;
#pragma omp critical(dist_reasons)
    {
        for (int i = 0; i < reasons_len && !out; i++)
            if (strcmp(reasons[i], r) == 0) out = reasons[i];
        if (!out && reasons_len < REASONS_MAX) {
            snprintf(reasons[reasons_len], REASON_LEN, "%s", r);
            out = reasons[reasons_len++];
        }
    }
    return out;
}

int dist_record_decode(const Game *g, const uint8_t *buf, size_t size, int64_t *job, int *k, int *white, int *black,
                       PlayRecord *rec, char reason[64], char err[ERR_MAX])
{
    (void)g;
    In in = {buf, size, 0, NULL};
    char magic[4];
    int32_t ints[7];
    if (take(&in, magic, sizeof magic, "the header") && memcmp(magic, MAGIC, sizeof MAGIC) != 0) in.bad = "the header";
    take(&in, job, sizeof *job, "the job");
    if (take(&in, ints, sizeof ints, "the counts")) {
        if (ints[3] < OUTCOME_NONE || ints[3] > OUTCOME_DRAW) in.bad = "the outcome";
        else if (ints[4] < 0 || ints[4] > PLAY_PLIES_MAX) in.bad = "the plies";
        else if (ints[5] < PLAYER_OK || ints[5] > PLAYER_STOPPED) in.bad = "the fault";
        else if (ints[6] != COLOR_WHITE && ints[6] != COLOR_BLACK) in.bad = "the fault's side";
        else if (ints[0] < 0 || ints[0] >= SCHEDULE_JOB_GAMES_MAX || ints[1] < 0 || ints[2] < 0) in.bad = "the players";
    }
    take(&in, &rec->nodes, sizeof rec->nodes, "the nodes");
    take(&in, &rec->engine_seconds, sizeof rec->engine_seconds, "the engine time");
    take_str(&in, reason, 64, "the reason");
    uint32_t mlen = 0;
    char *movetext = NULL;
    if (take(&in, &mlen, sizeof mlen, "the movetext") && mlen > in.len - in.at) in.bad = "the movetext";
    if (!in.bad && !(movetext = malloc((size_t)mlen + 1))) {
        snprintf(err, ERR_MAX, "out of memory for a movetext of %u bytes", mlen);
        return -1;
    }
    if (take(&in, movetext, mlen, "the movetext")) movetext[mlen] = 0;
    take_str(&in, rec->detail, sizeof rec->detail, "the detail");
    size_t n = in.bad ? 0 : (size_t)ints[4];
    take(&in, rec->positions, sizeof(Position) * n, "the positions");
    take(&in, rec->scores, sizeof(int32_t) * n, "the scores");
    for (size_t i = 0; i < n && !in.bad; i++) {
        uint8_t q = 0;
        if (take(&in, &q, 1, "the quiet flags")) rec->quiet[i] = q != 0;
    }
    if (!in.bad && in.at != in.len) in.bad = "bytes left over";
    const char *interned = in.bad ? NULL : intern_reason(reason);
    if (!in.bad && !interned) in.bad = "the reason (more distinct reasons than a run can have)";
    if (in.bad) {
        free(movetext);
        snprintf(err, ERR_MAX, "a game message of %zu bytes is malformed at byte %zu (%s)", size, in.at, in.bad);
        return -1;
    }
    *k = ints[0], *white = ints[1], *black = ints[2];
    rec->outcome = (Outcome)ints[3];
    rec->plies = ints[4];
    rec->fault = (PlayerFault)ints[5];
    rec->fault_side = (Color)ints[6];
    rec->reason = interned;
    free(rec->movetext);
    rec->movetext = movetext;
    return 0;
}

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
