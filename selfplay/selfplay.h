/* selfplay.h — a self-play run as one library call: parallel games with
 * varying weights into the database, resumable, over MPI when the job has
 * several ranks.
 *
 * Engines with varying weights play game pairs: pair p starts from one
 * opening and plays it twice with colours swapped. SELFPLAY_PERTURB_PAIRS
 * gives every pair its own random perturbation delta_p and plays
 * base + delta_p against base - delta_p, so that no playing style is tied
 * to many games (a fixed population lets the styles of its few members
 * correlate with their results, which the tuner would then learn);
 * SELFPLAY_PERTURB_POPULATION draws both players of a pair from a fixed
 * population of perturbed copies. Everything a game depends on is derived
 * from (run seed, pair index), so the games do not depend on the thread
 * count. OpenMP workers each own two engines; finished games go through one
 * writer that commits them in batches.
 *
 * Interrupted runs resume: the same game, seed and identity text
 * (SelfplayOptions.config) continue the same run and skip the stored games.
 * The set-up stores the members as deltas of the base (a few dozen weights
 * each), committed in chunks, and stops between two on *stop: a run
 * stopped there resumes by making the members still missing.
 *
 * `dama selfplay` and `dama train` are thin clients of it. Nothing here
 * prints, except the line of an MPI rank that ends the job (dist_abort)
 * on a failure the other ranks cannot see, as dist/relay.h does. */
#ifndef DAMA_SELFPLAY_H
#define DAMA_SELFPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"

struct Db;
struct Egtb;

typedef enum SelfplayPerturb {
    SELFPLAY_PERTURB_PAIRS,      /* base +- a fresh perturbation per game pair */
    SELFPLAY_PERTURB_POPULATION, /* a fixed population: the base and population-1 perturbed copies */
} SelfplayPerturb;

/* What a running self-play reports (SelfplayOptions.event), on the writer
 * (rank 0) only, with the run as it stands in SelfplayResult. */
typedef enum SelfplayEvent {
    SELFPLAY_EVENT_MEMBER_LOADED,  /* a stored member was loaded: members_loaded of members_found */
    SELFPLAY_EVENT_MEMBERS_STORED, /* new members were committed: members_stored of members */
    SELFPLAY_EVENT_START,          /* the set-up is done and the games start: run_id, resumed, already,
                                      to_play, openings, ranks */
    SELFPLAY_EVENT_GAME,           /* a game went to the writer: played, positions, wdl, rank_games
                                      (called under the writer's lock, from any thread) */
} SelfplayEvent;

/* How a run ended (SelfplayResult.end). */
typedef enum SelfplayEnd {
    SELFPLAY_END_FAILED,             /* before any game: err says why (empty on ranks 1..: rank 0 reports) */
    SELFPLAY_END_ALREADY_STORED,     /* every game (of the shard) was stored before: nothing played */
    SELFPLAY_END_SETUP_INTERRUPTED,  /* *stop while new members were stored: members_stored of members kept */
    SELFPLAY_END_SETUP_STOPPED,      /* *stop before the first game (members loaded, or another rank's view
                                        of SELFPLAY_END_SETUP_INTERRUPTED) */
    SELFPLAY_END_PLAYED,             /* games were played: complete, and err when the writer failed */
    SELFPLAY_END_BUSY,               /* another live process writes the run (run_id): err names it; nothing done */
} SelfplayEnd;

typedef enum SelfplayStatus {
    SELFPLAY_FAILED = -1,     /* err says why (empty on ranks 1..) */
    SELFPLAY_DONE = 0,        /* every game (of the shard) stored, now or before */
    SELFPLAY_INTERRUPTED = 1, /* *stop: what was played is stored; the same options resume the run */
    SELFPLAY_BUSY = 2,        /* another live process writes the run: err names it (exit status DB_BUSY) */
} SelfplayStatus;

typedef struct SelfplayResult {
    SelfplayEnd end;
    int64_t run_id;         /* the run (0 before it was found or made) */
    bool resumed;           /* the run was stored before */
    int64_t members;        /* weight sets the run plays: 1 + games (pairs) or the population */
    int64_t members_found;  /* stored before this session */
    int64_t members_loaded; /* of them, loaded so far */
    int64_t members_stored; /* stored now: the run's members in the database */
    double setup_seconds;   /* since the set-up began (the MEMBER events) */
    int64_t already;        /* games stored before this session (every shard's) */
    int64_t to_play;        /* games this session plays (every rank's) */
    int openings;           /* lines of the opening book */
    int ranks;              /* MPI ranks (1: one process) */
    int64_t played, positions, wdl[3]; /* this session, White's view: wins, draws, losses */
    int64_t *rank_games;    /* ranks entries: games each rank stored this session (owned) */
    int64_t stored;         /* games the writer stored this session */
    int64_t total_stored;   /* the run's games after this session */
    bool complete;          /* every game (a shard: every game of the shard) stored */
} SelfplayResult;

typedef struct SelfplayOptions {
    const Game *game;
    int64_t games;        /* games of the run, even, >= 2: pairs with colours swapped */
    /* the search of every move: nodes, or depth when depth > 0 */
    uint64_t nodes;
    int depth;
    int max_plies;        /* move cap (plies), adjudicated 'move-cap' */
    int threads;          /* concurrent games of this process, >= 1 */
    int64_t hash_mb;      /* TT MiB per worker, split between its two engines */
    /* the opening book (openings_for_run): a file, NULL for the game's own
     * book, or random_plies random plies balanced to +-balance centi-men */
    const char *openings;
    int random_plies, balance;
    /* endgame database (NULL: none; not owned): probed by the engines at
     * most egtb_pieces pieces (0: all); egtb_adjudicate ends a game at its
     * first database position whose result the move-count rules cannot
     * change */
    const struct Egtb *egtb;
    int egtb_pieces;
    bool egtb_adjudicate;
    uint64_t seed;        /* run seed: game i depends on (seed, i) only */
    const char *weights;  /* the base weights, a spec of db/weight_sets.h */
    SelfplayPerturb perturb;
    int population;       /* SELFPLAY_PERTURB_POPULATION: members, 2..64 */
    /* each weight moves by N(0,1) * max(spread * |w|, spread_min) (centi-men) */
    double spread, spread_min;
    int batch;            /* games per database transaction (also flushed every second) */
    /* One shard of the run: the games i with i mod shard_k == shard_r
     * (0 <= shard_r < shard_k; 0 and 1: the whole run). */
    int64_t shard_r, shard_k;
    /* The run's identity besides game and seed: "key = value" lines of the
     * options that change which games are played (not games, threads,
     * hash, batch). A hash of the base weights' values is added to it. */
    const char *config;
    volatile int *stop;   /* non-zero stops cleanly (may be NULL) */
    /* Called on rank 0 as the run goes (may be NULL); see SelfplayEvent. */
    void (*event)(void *ctx, SelfplayEvent ev, const SelfplayResult *r);
    void *ctx;
} SelfplayOptions;

/* Play (or resume) the run of o. db: the database, open for writing, on
 * the writer (rank 0; a one-process run is rank 0); NULL on ranks 1.. of an
 * MPI job, which play their share (game i on rank i mod K) and send it to
 * rank 0. Over MPI every rank calls it with the same options (collective;
 * main thread). *r is filled on every rank (free it with
 * selfplay_result_free); the run, its members and the games are rank 0's
 * to report. Returns a SelfplayStatus: SELFPLAY_FAILED with err (a bad
 * weights spec or opening book, a member that does not fit the run, a
 * database error, out of memory). Uses o->threads OpenMP threads (plus the
 * main thread for messages over MPI). */
int selfplay_run(struct Db *db, const SelfplayOptions *o, SelfplayResult *r, char err[ERR_MAX]);

/* Free what *r owns; r stays valid (empty). */
void selfplay_result_free(SelfplayResult *r);

#endif
