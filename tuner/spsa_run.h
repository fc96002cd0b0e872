/* spsa_run.h — an SPSA tuning run by games (the arithmetic is spsa.h's):
 * a chosen subset of a game's evaluation weights and search constants, each iteration's game
 * pairs of theta+ against theta- on paired openings played by OpenMP
 * workers, every iteration stored, a killed run resumed from its last
 * stored iteration, the result stored as a weight set with its lineage.
 * `dama spsa` is its command-line front. Nothing here prints. */
#ifndef DAMA_SPSA_RUN_H
#define DAMA_SPSA_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "arena/openings.h"
#include "engine/game.h"
#include "tuner/spsa.h"

struct Db;

enum { SPSA_STATUS_MAX = 16 };

/* A tuned search constant's name is this prefix and its name in
 * engine/search_params.def ("search:LMR_DIV"). */
#define SPSA_SEARCH_PREFIX "search:" /* a stored run's status with its NUL (DB_STATUS_MAX) */

/* What spsa_run found and did; free with spsa_result_free. */
typedef struct SpsaResult {
    int64_t spsa_id;            /* the stored SPSA run */
    int64_t base_ws;            /* the weight set it starts from */
    int64_t weight_set;         /* the result's weight set (0 until stored) */
    bool resumed;               /* a stored run continued */
    int64_t other_interrupted;  /* a new run: the newest interrupted run of the game (other options), 0 if none */
    char status[SPSA_STATUS_MAX]; /* resumed: its status before ("interrupted") */
    int done_before;            /* iterations stored before this session */
    int done;                   /* the last iteration done */
    bool complete;              /* every iteration done */
    int threads;                /* workers */
    int len;                    /* tuned weights */
    SpsaParam *params;          /* len: name, range, theta (owned) */
    int32_t *start;             /* len: each tuned weight's start value (owned) */
} SpsaResult;

typedef struct SpsaOptions {
    const Game *game;
    const char *db_path;        /* the database, when spsa_run is given none */
    const char *weights;        /* the start (db/weight_sets.h forms) */
    const char *params;         /* the weights tuned, comma-separated: a term name (all its weights) or NAME[i];
                                   NULL: every scalar term but the scale weight, or none when search_params is set (dama spsa --tune-search) */
    const char *search_params;  /* search constants tuned too, comma-separated (engine/search_params.def names;
                                   NULL: none). Each starts at the game's default, stays in the table's range and is
                                   perturbed by its step; its name is stored as "search:NAME" */
    SpsaSchedule schedule;      /* iterations N, A, alpha, gamma */
    int pairs;                  /* game pairs per iteration, each with its own signs */
    double c_frac, c_min;       /* c_end = max(c_min, c_frac * |start|) (centi-men) */
    double r_end;               /* a_N / c_N^2 */
    double range;               /* each weight stays within start +- max(100, range * |start|) */
    int threads;                /* concurrent pairs; 0: all cores */
    int64_t hash_mb;            /* TT MiB per worker, split between its two engines */
    OpeningsSource openings;
    uint64_t nodes;             /* per move, unless depth */
    int depth;                  /* per move (0: nodes) */
    int max_plies;
    uint64_t seed;              /* signs, opening order, random openings */
    const char *out;            /* also write the result as a weight file when the run completes
                                 * (NULL: none; an interrupted run's weights are its stored set) */
    bool force;                 /* out may replace an existing file (never the database) */
    const char *config;         /* the run's identity text: the same text continues a stored run */
    volatile int *stop;         /* Ctrl-C: the iteration under way is not counted; the run is "interrupted" */
    /* Optional: the run is stored or found, just before the first
     * iteration (the caller may print and install its Ctrl-C handler). */
    void (*on_start)(void *ctx, const SpsaResult *r);
    /* Optional: iteration k is stored; wdl: theta+'s wins, draws, losses. */
    void (*on_iteration)(void *ctx, const SpsaResult *r, int k, const int64_t wdl[3]);
    void *ctx;
} SpsaOptions;

/* Run (or continue) the SPSA run of o. db: an open database (kept open),
 * or NULL: o->db_path is opened (created if missing; a run refused before
 * anything was stored leaves no new file). --out is checked, the tables
 * must fit and the book is made before anything is stored. Returns the
 * command's exit status: 0 every iteration done, 3 interrupted (the result
 * so far is stored; running it again continues), 1 a failure, 2 a bad
 * parameter value (spsa_check), DB_BUSY the run is being written by
 * another live process (db_spsa_claim: nothing done); err says why. r is filled as far as the
 * run went (r->weight_set: the result is stored). Uses o->threads OpenMP
 * threads; main thread only. */
int spsa_run(struct Db *db, const SpsaOptions *o, SpsaResult *r, char err[ERR_MAX]);

/* Free what spsa_run allocated in r (params, start); r may be freed twice. */
void spsa_result_free(SpsaResult *r);

#endif
