/* match.h — a match between two participants A and B on paired openings
 * (each opening played twice, A White then A Black), with pentanomial
 * counts, Elo and an optional SPRT: the two-player case of the tournament
 * scheduler (play/schedule.h). `dama match` is its command-line front;
 * train_run (train/train.h) calls match_play directly for the gate and
 * ladder matches of each generation. Nothing here prints. */
#ifndef DAMA_MATCH_H
#define DAMA_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "arena/openings.h"
#include "arena/player.h"
#include "arena/stats.h"

struct Db;
struct DbMatch;
struct Egtb;
struct Schedule;
struct ScheduleStats;

enum { MATCH_SPRT_MIN_PAIRS = 20 }; /* no SPRT decision before this many pairs */

typedef struct MatchPlan {
    const Game *game;
    /* A = 0, B = 1. specs[i].kind PLAYER_DAMA plays weights[i]
     * (game->weights_len values; NULL: the compiled-in set) with
     * specs[i].hash_mb MiB of TT; PLAYER_HUB runs specs[i].spec. The limits
     * of each spec apply to its moves. */
    PlayerSpec specs[2];
    const int32_t *weights[2];
    int64_t ws_id[2];           /* weight-set rows stored with the games (0: NULL) */
    const OpeningBook *book;    /* pair p < book_len plays items[(offset + p) % book_len], later ones items[p] */
    int book_len;               /* lines before openings_repeat's extra ones */
    int64_t pairs;              /* <= book->len */
    int threads;                /* concurrent pairs (>= 1) */
    int max_plies;
    uint64_t seed;              /* the order of the book's lines (and the stored games' seed) */
    bool sprt;
    SprtParams sprt_params;     /* checked (stats_check_sprt); also used for the LLR without sprt */
    /* endgame database (optional): probed by the in-process engines whose
     * probe[i] is set, at most egtb_pieces pieces (0: all), and with
     * egtb_adjudicate ending a game at its first database position */
    const struct Egtb *egtb;
    int egtb_pieces;
    bool probe[2], egtb_adjudicate;
    volatile int *stop;         /* Ctrl-C: games under way stop unfinished */
    /* Optional: runs the schedule instead of schedule_run (`match --mpi`:
     * dist_schedule_run, the pairs over the ranks of an MPI job, the
     * callbacks on rank 0). */
    int (*run_schedule)(void *ctx, const struct Schedule *s, struct ScheduleStats *stats, char err[ERR_MAX]);
    void *run_ctx;
    /* called after every complete pair (under the scheduler's lock; may be NULL) */
    void (*progress)(void *ctx, const MatchStats *st);
    void *progress_ctx;
} MatchPlan;

typedef struct MatchResult {
    MatchStats st;            /* A's view, complete pairs only */
    SprtDecision decision;    /* SPRT_CONTINUE when undecided (or no SPRT) */
    int64_t decided_pairs;    /* pairs counted when the SPRT decided */
    double decided_llr;       /* the LLR that decided */
    bool complete;            /* every pair played, or the SPRT decided */
    double wall_s, outside_share; /* the scheduler's figures (schedule_outside_share) */
} MatchResult;

/* Fill the matches row m (counts, Elo with its 95% interval from the
 * pentanomial counts when there are pairs, else W/D/L, LLR, SPRT state)
 * from a result; run_id, game and ws_a/ws_b are left as they are. */
void match_fill_row(struct DbMatch *m, const MatchResult *r, const MatchPlan *plan);

/* Play the match of plan. Games go to db under run_id as they end (games
 * 2p and 2p+1 of pair p; batched), the matches row match_id (made by the
 * caller, with the run) is updated at the end, and the run is marked done
 * (every pair or an SPRT decision) or interrupted; db NULL stores nothing
 * (a rank other than 0 of `match --mpi`). SPRT: the pairs are taken in
 * index order, pair p once pairs 0..p are all in, so the decision is the
 * same for any threads or ranks; from MATCH_SPRT_MIN_PAIRS pairs on, a
 * decision starts no new pair; the pairs under way are finished and
 * counted in the final LLR, the deciding one is kept apart (sprt_llr,
 * sprt_pairs). Returns 0 (also when
 * interrupted: see out->complete), -1 with err (database, out of memory,
 * a bad opening). Thread safety: one call per plan; uses plan->threads
 * threads. */
int match_play(struct Db *db, int64_t run_id, int64_t match_id, const MatchPlan *plan, MatchResult *out,
               char err[ERR_MAX]);

#endif
