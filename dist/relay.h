/* relay.h — the main thread's message loop of an MPI job (dist/dist.h):
 * ranks 1.. send what their workers queue to rank 0, the one database
 * writer. Used by `selfplay --mpi`, `match --mpi`, `tournament --mpi` and
 * `train --mpi` (the game-level messages are arena/play_msg.h, the
 * tournament scheduler over the ranks arena/schedule_dist.h).
 *
 * Job (game, pair) i of a run is played by rank i mod K, and everything it
 * depends on comes from the run's options and i, so the stored games are
 * those of one process whatever K. MPI is started with
 * MPI_THREAD_FUNNELED, so on every rank the main thread (the one that called
 * dist_init) does the messaging while OpenMP workers play; a waiting main
 * thread polls and sleeps (dist_poll), because a blocking receive spins a
 * core in Open MPI.
 *
 * DistRelay: ranks 1.. send the byte messages their workers queue
 * (dist_relay_push) and a report when their workers are done; rank 0 hands
 * every message to on_data, in the order each rank sent them, and tells the
 * others to stop (games under way end unfinished) or to halt (no new job;
 * the ones under way finish).
 *
 * Messages carry structs and positions as raw bytes: every rank runs the
 * same binary (mpirun starts one program); their lengths are checked. */
#ifndef DAMA_DIST_RELAY_H
#define DAMA_DIST_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

/* What a rank reports to rank 0 when its workers are done. */
typedef struct DistReport {
    int64_t rc;          /* 0 done (or halted), 1 stopped, -1 failed (err) */
    int64_t games, jobs, faults;
    int64_t slots;
    double engine_s, wall_s;
    bool halted;
    char err[ERR_MAX];
} DistReport;

typedef struct DistMsg DistMsg;

typedef struct DistRelay {
    /* Set before dist_relay_serve. */
    /* Rank 0: a message a worker of rank src queued (buf is the relay's,
     * valid for the call), called on the main thread in the order src sent
     * them. Returns 0, or -1 with err: the job is ended (dist_abort). */
    int (*on_data)(void *ctx, int src, const uint8_t *buf, size_t size, char err[ERR_MAX]);
    /* Rank 0, optional: called between polls on the main thread (a timed
     * flush); returns true to stop every rank (a failure). */
    bool (*on_idle)(void *ctx);
    void *ctx;
    volatile int *stop; /* rank 0: raised (Ctrl-C) -> STOP to every rank; ranks 1..: raised by a STOP */
    volatile int *halt; /* rank 0: raised -> HALT to every rank; ranks 1..: raised by a HALT (may be NULL) */
    /* The relay's own state (dist_relay_init). */
    DistMsg *head, **tail;
    int workers_done;
    DistReport mine;    /* this rank's report (dist_relay_workers_done) */
    DistReport *reports; /* rank 0: every rank's, reports[0] its own */
} DistRelay;

/* Prepare a relay (the callbacks and flags are the caller's to set after).
 * Returns 0, or -1 out of memory. Main thread. */
int dist_relay_init(DistRelay *r);
void dist_relay_free(DistRelay *r);

/* Queue buf (size bytes, malloc'd; the relay frees it) for rank 0. Any
 * thread of ranks 1.. (thread-safe). */
void dist_relay_push(DistRelay *r, uint8_t *buf, size_t size);

/* This rank's workers are done; *mine is its report. Any thread, once. */
void dist_relay_workers_done(DistRelay *r, const DistReport *mine);

/* The main thread's loop: returns when this rank's workers are done, its
 * queue is sent and (rank 0) every rank has reported (r->reports). An MPI
 * error, or on_data failing, prints "dama COMMAND: rank R: ..." and ends
 * the job (dist_abort(1)). Main thread only. */
void dist_relay_serve(DistRelay *r, const char *command);

/* After the run: rank 0 sends rc to every rank, the others wait for it
 * (polling). Returns rc on every rank. Main thread only. */
int dist_relay_final(const char *command, int rc);

/* Workers for an option of 0 ("all cores"): the cores this process may use
 * (omp_get_num_procs), shared by the ranks of this node under MPI (Open
 * MPI's OMPI_COMM_WORLD_LOCAL_SIZE; without binding, each of K ranks on a
 * node would start one worker per core). At least 1. */
int dist_node_cores(void);

/* Orders from rank 0 (`train --mpi`: which stage every rank runs next).
 * dist_order_send: rank 0 sends size bytes to every other rank.
 * dist_order_wait: ranks 1.. wait for the next order (polling and
 * sleeping, as the relay does; a late stop or halt of a finished relay is
 * skipped); *buf is malloc'd (free it). Both return 0, or -1 with err (an
 * MPI error, out of memory). Main thread only. */
int dist_order_send(const void *buf, size_t size, char err[ERR_MAX]);
int dist_order_wait(uint8_t **buf, size_t *size, char err[ERR_MAX]);

/* Ranks 1.. wait (polling, as dist_order_wait) until rank 0 calls it too:
 * before the collectives that follow rank 0's set-up (opening the
 * database, storing a run's members), during which a rank blocked in
 * MPI_Bcast would spin a core. Returns 0, or -1 with err. Main thread. */
int dist_sync_polled(char err[ERR_MAX]);

#endif
