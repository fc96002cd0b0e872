/* schedule_dist.h — the tournament scheduler (arena/schedule.h) over the
 * ranks of an MPI job (dist/relay.h): `match --mpi`, `tournament --mpi`. */
#ifndef DAMA_SCHEDULE_DIST_H
#define DAMA_SCHEDULE_DIST_H

#include <stdbool.h>

#include "arena/schedule.h"
#include "engine/game.h"

/* schedule_run (arena/schedule.h) over the ranks of the job: job j of s is
 * played by rank j mod K on its own s->concurrency threads; s's callbacks
 * game_done and job_done run on rank 0 only, for every rank's games (with
 * the job's index in s, one at a time, in the order each rank finished
 * them); job_game and player_made run on the rank that plays. A callback's
 * halt (1) starts no new job on any rank (pairs under way finish); a
 * callback's failure (-1), or *s->stop on any rank, stops every rank.
 * stats on rank 0 add up every rank's (wall_s: the longest). Returns as
 * schedule_run, on rank 0 for the whole job; on ranks 1.. for their part
 * (the caller then takes rank 0's verdict with dist_relay_final). Call on
 * every rank with the same s (callbacks may differ), after dist_init;
 * main thread only. Without MPI (one rank) it is schedule_run. */
int dist_schedule_run(const Schedule *s, const char *command, ScheduleStats *stats, char err[ERR_MAX]);

/* A failure one rank of an MPI job finds that the others cannot see (a
 * match's or tournament's set-up): prints "dama COMMAND: MSG" (with
 * name_rank "dama COMMAND: rank R: MSG") on stderr, the one message before
 * the job ends, and ends every rank (dist_abort(1)). Main thread only. */
_Noreturn void dist_run_abort(const char *command, bool name_rank, const char *msg);

#endif
