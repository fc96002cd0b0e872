/* dist.h — the distributed runtime (MPI) behind one small API.
 *
 * This module is the only code that includes <mpi.h>. Built with
 * -DDAMA_MPI=ON it wraps Open MPI (or any MPI-3 library); built without, the
 * same functions are a single-process stub: rank 0 of 1, collectives that
 * copy, and dist_init failing with "built without MPI; configure with
 * -DDAMA_MPI=ON", so callers need no #ifdefs.
 *
 * Threads: MPI is initialised with MPI_THREAD_FUNNELED. Only the thread that
 * called dist_init (the process's main thread, OpenMP's master thread) may
 * call the functions below; OpenMP workers never do.
 *
 * Errors: every function that communicates returns 0, or -1 with err naming
 * the call and MPI's own message. An MPI job aborts as a whole when one of
 * its processes dies (Open MPI's default), so a failed call usually never
 * returns; a rank that finds an error the others cannot see calls
 * dist_abort.
 *
 * Determinism: dist_sum_doubles and dist_allgather_doubles add or order in
 * rank order on one rank, never in the order messages arrive, so a run gives
 * the same bits every time for a given number of ranks; a caller that wants
 * the same bits for any number of ranks gathers fixed blocks of partial sums
 * (dist_allgather_doubles) and adds them in block order itself. */
#ifndef DAMA_DIST_H
#define DAMA_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h" /* ERR_MAX */

/* The message every command prints for --mpi in a build without MPI. */
#define DIST_NOT_BUILT "built without MPI; configure with -DDAMA_MPI=ON"

/* True in a -DDAMA_MPI=ON build. */
bool dist_built(void);

/* Start MPI (MPI_Init_thread, MPI_THREAD_FUNNELED) on the calling thread;
 * a second call is a no-op. Returns 0, or -1 with err (DIST_NOT_BUILT in a
 * build without MPI; the thread level MPI gave when it is below FUNNELED). */
int dist_init(char err[ERR_MAX]);

/* True between a successful dist_init and dist_finalize. */
bool dist_active(void);

/* End MPI (MPI_Finalize) if dist_init started it; safe to call always. */
void dist_finalize(void);

/* This process's rank, 0 .. dist_size() - 1; 0 and 1 when MPI is not active. */
int dist_rank(void);
int dist_size(void);

/* End the whole job at once with exit code code (MPI_Abort): what one rank
 * found wrong cannot leave the others waiting. Without MPI: exit(code).
 * Only the command layer and the runs over the ranks call this (never the
 * engine). */
_Noreturn void dist_abort(int code);

/* Wait until every rank has called it. */
int dist_barrier(char err[ERR_MAX]);

/* v[0..len) on every rank becomes the elementwise sum over ranks, added on
 * rank 0 in rank order (rank 0's value + rank 1's + ...) and broadcast, so
 * every rank holds the same bits, the same in every run with as many
 * ranks. len elements, any len (0 allowed). */
int dist_sum_doubles(double *v, size_t len, char err[ERR_MAX]);

/* v[0..len) becomes the elementwise sum over ranks (exact: integers). */
int dist_sum_int64(int64_t *v, size_t len, char err[ERR_MAX]);

/* Concatenate every rank's mine[0..lens[rank]) into all[] in rank order, on
 * every rank. lens[] (dist_size() entries, the same on every rank) counts
 * doubles; all holds their sum. */
int dist_allgather_doubles(const double *mine, const size_t *lens, double *all, char err[ERR_MAX]);

/* Broadcast size bytes of buf from root to every rank (size the same on
 * every rank). */
int dist_bcast_bytes(void *buf, size_t size, int root, char err[ERR_MAX]);

/* Send size bytes (< 2 GiB) to rank dest with tag (0 .. 32767); blocks until
 * the buffer may be reused. */
int dist_send_bytes(int dest, int tag, const void *buf, size_t size, char err[ERR_MAX]);

/* As dist_send_bytes, but waits by polling (MPI_Isend, then MPI_Test
 * every wait_ms milliseconds, sleeping in between) instead of inside
 * MPI_Send: a message over Open MPI's eager limit (4 KiB in shared
 * memory) waits until the receiver takes it, and MPI_Send spins a core for
 * all that time. */
int dist_send_bytes_polled(int dest, int tag, const void *buf, size_t size, int wait_ms, char err[ERR_MAX]);

/* Is a message waiting (any source, any tag)? Never blocks (MPI_Iprobe), so
 * a waiting rank can sleep between polls instead of spinning a core as a
 * blocking receive does in Open MPI. Returns 1 with *src, *tag and *size
 * (bytes) set, 0 when none, -1 on error. Without MPI: always 0. */
int dist_poll(int *src, int *tag, size_t *size, char err[ERR_MAX]);

/* Receive the message dist_poll announced (from src with tag) into buf,
 * which holds size bytes. */
int dist_recv_bytes(int src, int tag, void *buf, size_t size, char err[ERR_MAX]);

#endif
