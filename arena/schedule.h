/* schedule.h — the tournament scheduler: games between participants
 * (play/player.h) played concurrently, each through play_game_players.
 * `dama tournament` schedules every game of its round robin or gauntlet,
 * `dama match` is its two-player case (jobs of a game pair, so that an SPRT
 * stop lets the pairs under way finish).
 *
 * Work is a list of jobs; a job is one or two games played in order by one
 * thread. Each thread keeps its own Player for every participant it has met
 * (created on first use, in-process engines with their own TT; external
 * engines started once and restarted after a fault), so a thread never
 * shares an engine. The callbacks that see results run one at a time, under
 * the scheduler's lock; the others run on the playing thread without it.
 * Nothing here prints.
 */
#ifndef DAMA_SCHEDULE_H
#define DAMA_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "arena/play.h"
#include "arena/player.h"

struct Egtb;

enum { SCHEDULE_JOB_GAMES_MAX = 2 };

typedef struct Schedule {
    const Game *game;
    int players_len;
    const PlayerSpec *specs;        /* players_len; must outlive the run */
    int32_t *const *weights;        /* players_len: in-process engines' weights (NULL entry: the default) */
    int64_t jobs_len;
    int games_per_job;              /* 1 or 2 */
    int concurrency;                /* threads (>= 1) */
    PlaySettings settings;          /* every game's (egtb_adjudicate sets its adjudicator) */
    volatile int *stop;             /* Ctrl-C: games under way stop unfinished (may be NULL) */
    volatile int *halt;             /* raised: start no new job, finish those under way, as a callback's 1
                                       (may be NULL; dist_schedule_run raises it when rank 0 halts) */
    void *ctx;                      /* passed to every callback */

    /* Game k (0-based, < games_per_job) of job: its players (indexes into
     * specs) and start position. Required; no lock (must only read ctx). */
    void (*job_game)(void *ctx, int64_t job, int k, int *white, int *black, Position *start);
    /* Optional endgame database (egtb/egtb.h): each thread has its own
     * prober of it (at most egtb_pieces pieces; 0: all it holds), which the
     * in-process engines of participants with egtb_probe[i] set (NULL: all)
     * probe in their search; with egtb_adjudicate a game also ends at its
     * first database position whose result the draw rules cannot change
     * (reason "egtb"). */
    const struct Egtb *egtb;
    int egtb_pieces;
    const bool *egtb_probe;
    bool egtb_adjudicate;
    /* Optional: a thread made its Player for participant index (no lock). */
    void (*player_made)(void *ctx, int index, Player *p);
    /* Optional, under the lock: game k of job finished (rec complete).
     * Returns 0 to go on, 1 to start no new job (games under way finish and
     * are still reported), -1 with err to fail (nothing more is reported). */
    int (*game_done)(void *ctx, int64_t job, int k, int white, int black, const PlayRecord *rec, char err[ERR_MAX]);
    /* Optional, under the lock: every game of job finished; returns as game_done. */
    int (*job_done)(void *ctx, int64_t job, char err[ERR_MAX]);
} Schedule;

typedef struct ScheduleStats {
    int64_t games;         /* finished games reported */
    int64_t jobs;          /* finished jobs */
    int64_t faults;        /* games lost by a fault: crash, Hub error answer, timeout, time forfeit, illegal move */
    double wall_s;         /* wall time of the run */
    double engine_s;       /* wall time inside the players' moves, all games */
    int slots;             /* threads that could play: min(concurrency, jobs_len) */
    bool halted;           /* a callback asked for no new jobs */
} ScheduleStats;

/* Share of the game slots' time spent outside the engines' moves (0..1):
 * 1 - engine_s / (wall_s * slots). */
double schedule_outside_share(const ScheduleStats *st);

/* Play every job (or until a callback halts, *stop is raised, or a
 * failure). Returns 0 when every job finished or a callback halted, 1
 * when *stop interrupted it (finished games were reported), -1 with err on
 * a failure (out of memory, a failed callback; games under way are
 * dropped). stats may be NULL. Thread safety: one run per Schedule; the
 * callbacks must not call back into the scheduler. */
int schedule_run(const Schedule *s, ScheduleStats *stats, char err[ERR_MAX]);

#endif
