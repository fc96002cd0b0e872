/* relay.c — the main thread's message loop of an MPI job (contracts in
 * dist/relay.h). */
#include "dist/relay.h"

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
