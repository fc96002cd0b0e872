/* train.h — gated generations, unattended and resumable, as one library
 * call: the pipeline of self-play, tuning and matches.
 *
 * Generation 0 is the start weights. Generation i (1..N):
 *   selfplay  games with the current best weights, perturbed per game pair
 *             (selfplay_run, seeded from the train seed and i);
 *   tune      a candidate tuned from the best weights on the self-play data
 *             of the last `window` generations (tune_job_run);
 *   gate      a match candidate (A) vs best (B): paired openings, both
 *             colours, pentanomial SPRT [elo0, elo1] at equal nodes
 *             (match_play); only H1 accepts (H0, or undecided after
 *             gate_pairs, rejects; a candidate equal to its parent is
 *             rejected without a match);
 *   ladder    an accepted candidate becomes the best and is matched against
 *             generation 0 (ladder_pairs): the Elo ladder.
 * Every stage is recorded in the generations table before the next starts,
 * so a rerun with the same options continues where the last one stopped
 * (the self-play run resumes its missing games; an unfinished match or
 * tuning is played again from its start, which at fixed nodes gives the
 * same result). Each stage's function returns the ids it stored; nothing
 * is looked up again.
 *
 * Over MPI (every rank calls train_run with the same options), rank 0
 * runs the train (database, decisions, events) and orders the other ranks
 * through each stage (TrainOrder, a plain struct: the stage and its
 * generation's values; each rank builds the stage's options from its own
 * TrainOptions as rank 0 does): they play their share of the self-play and
 * match games and of the tuner's passes, so the ladder is the one of one
 * process. Nothing here prints, except the line of an MPI rank that ends
 * the job (dist_abort) on a failure the other ranks cannot see. */
#ifndef DAMA_TRAIN_H
#define DAMA_TRAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "arena/match.h"
#include "arena/stats.h"
#include "engine/game.h"
#include "selfplay/selfplay.h"
#include "tuner/tune_job.h"

struct Db;
struct DbGeneration;
struct DbMatch;

typedef enum TrainStatus {
    TRAIN_FAILED = -1,     /* err says why */
    TRAIN_DONE = 0,        /* every generation done */
    TRAIN_INTERRUPTED = 1, /* *stop, or a stage interrupted: the same options resume */
    TRAIN_BUSY = 2,        /* another live process writes the train (or a run of its stage): err names it */
} TrainStatus;

typedef struct TrainResult {
    int64_t id;       /* the train (trains row) */
    bool resumed;     /* it was stored before */
    int64_t start_ws; /* generation 0's weight set */
    int64_t other_interrupted; /* a new train: the newest interrupted train of the game (other options), 0 if none */
} TrainResult;

/* A gate or ladder match as it is played and stored. */
typedef struct TrainMatch {
    bool gate;            /* the gate (with its SPRT) or a ladder match */
    int generation;
    int64_t id, run_id;   /* its matches row and run */
    int64_t ws[2];        /* A (the candidate) and B (the parent, or generation 0) */
    int64_t pairs;
    int book_len;         /* opening book lines; pairs beyond them repeat a line */
    PlayerLimits limits;  /* of both engines */
    int threads;
    SprtParams sprt;      /* the gate's SPRT; for a ladder match the LLR's only */
    bool played;          /* the set-up succeeded and the games started */
    MatchResult result;   /* (at the end) A's view */
    struct DbMatch *row;  /* (at the end) the row as stored: Elo, LLR, SPRT */
} TrainMatch;

typedef enum TrainEventKind {
    TRAIN_EVENT_START,        /* the train was found or made (train) */
    TRAIN_EVENT_SELFPLAY_END, /* a generation's selfplay_run returned (selfplay, status, text: its err);
                                 every rank */
    TRAIN_EVENT_SELFPLAY,     /* the self-play stage was stored (gen) */
    TRAIN_EVENT_TUNE,         /* the tuning stage was done (gen, tune); gen->stage "done" when the candidate
                                 equals its parent (rejected without a match) */
    TRAIN_EVENT_MATCH_START,  /* a gate or ladder match starts (match) */
    TRAIN_EVENT_MATCH_PAIR,   /* a pair of it ended (match, pairs: the counts so far); under the
                                 scheduler's lock */
    TRAIN_EVENT_MATCH_END,    /* the match ended (match, status, text: its err; on rank 0 also a set-up that
                                 failed, match->played false); every rank */
    TRAIN_EVENT_GATE,         /* the gate decided (gen: gate_* fields, accepted, reason) */
    TRAIN_EVENT_LADDER,       /* the ladder match was stored (gen: ladder_* fields; train->start_ws is
                                 generation 0) */
} TrainEventKind;

typedef struct TrainEvent {
    TrainEventKind kind;
    const TrainResult *train;
    const struct DbGeneration *gen;
    int status;                     /* SELFPLAY_END: a SelfplayStatus; MATCH_END: match_play's 0 or -1 */
    const SelfplayResult *selfplay;
    const TuneJobResult *tune;
    const TrainMatch *match;
    const MatchStats *pairs;
    const char *text;
} TrainEvent;

typedef struct TrainOptions {
    const Game *game;
    const char *db_path;   /* the database's path: ranks 1.. open it to tune; stored with the matches */
    int generations;       /* generations to reach (a larger one extends a stored train) */
    const char *weights;   /* generation 0's weights: a spec of db/weight_sets.h */
    int64_t games_per_gen; /* self-play games of a generation, even */
    int window;            /* tune on the self-play data of the last `window` generations */
    uint64_t nodes;        /* search nodes per move in self-play and matches */
    int threads;           /* >= 1: concurrent games, tuning threads */
    int64_t hash_mb;       /* TT MiB per game worker (split between its two engines) */
    uint64_t seed;         /* self-play, split and openings of each generation derive from it */
    /* A generation's self-play: the template's perturbation (perturb,
     * population, spread, spread_min) and game settings (depth, max_plies,
     * openings, random_plies, balance, egtb, batch), and its event
     * callback; train_run sets game, games, nodes, threads, hash_mb, seed,
     * weights (the parent), shard (all), config and stop. The matches play
     * with its max_plies, openings, random_plies and balance too. */
    SelfplayOptions selfplay;
    /* A generation's tuning: the template's fit (valid, epochs, lr,
     * lambda, pattern options, batch, patience, k, score_weight,
     * resolve...) and log (rank 0); train_run sets db, db_path, start,
     * start_spec, runs, threads, seed, name, config, stop and, over MPI,
     * reducer. */
    TuneJobOptions tune;
    int64_t gate_pairs;    /* most pairs of a gate match */
    SprtParams gate;       /* its SPRT (checked by the caller: elo1 > elo0) */
    int64_t ladder_pairs;  /* pairs of a ladder match (0: no ladder) */
    SprtParams ladder;     /* the LLR stored with a ladder match */
    int repeat_plies;      /* random plies after a repeated book line (pairs beyond the book) */
    double progress_s;     /* the progress interval, recorded with the matches' configuration */
    const char *config;    /* the train's identity besides game and seed ("key = value" lines) */
    volatile int *stop;    /* non-zero stops at the next stage or game (may be NULL) */
    void (*event)(void *ctx, const TrainEvent *ev); /* may be NULL; rank 0 unless said otherwise */
    void *ctx;
} TrainOptions;

/* Run (or resume) the train of o to o->generations. db: open for writing
 * on rank 0 (a one-process train is rank 0); NULL on ranks 1.. of an MPI
 * job, which follow rank 0's orders until it ends (collective; main
 * thread). Generation 0 is the weight set of o->weights; the train is
 * found by game, seed and o->config plus that weight set's id, else made,
 * and taken by this process (db_train_claim; one that another live process
 * writes is refused: TRAIN_BUSY with err naming it).
 * *r gets the train (rank 0). Returns a TrainStatus, the same on every
 * rank: TRAIN_FAILED with err on rank 0 (a stage that failed, naming its
 * generation; a database error; too few positions to tune, saying to
 * start a new train with more games), TRAIN_INTERRUPTED with err saying
 * to run it again. Uses o->threads OpenMP threads. */
int train_run(struct Db *db, const TrainOptions *o, TrainResult *r, char err[ERR_MAX]);

/* The generations of train id, in order: (*gens)[g] is generation g, *len
 * rows (malloc'd: free it; game is NULL, stage a static string). Returns
 * 0, or -1 with err. */
int train_generations_read(struct Db *db, int64_t id, struct DbGeneration **gens, int *len, char err[ERR_MAX]);

#endif
