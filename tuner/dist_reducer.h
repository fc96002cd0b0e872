/* dist_reducer.h — the tuner's gather (tune/texel.h, TexelReducer) over
 * the ranks of MPI (mpi/dist.h), for the commands that tune with --mpi.
 * The tuner stays free of MPI; this is the one glue between them. */
#ifndef DAMA_DIST_REDUCER_H
#define DAMA_DIST_REDUCER_H

#include "tuner/texel.h"

/* A reducer of every rank of the job (rank dist_rank() of dist_size()):
 * each gather first sums the ranks' lengths (dist_sum_int64, exact), then
 * concatenates the payloads in rank order (dist_allgather_doubles), so
 * every rank receives the same array. Call after dist_init (a single
 * process without MPI gets rank 0 of 1, a copy). Main thread only, as
 * dist.h; errors name the MPI call. */
void dist_reducer_init(TexelReducer *red);

#endif
