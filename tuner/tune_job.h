/* tune_job.h — one Texel tuning job from the database, as a library call:
 * load the stored self-play positions (traced once, checked against the
 * engine), put them in a canonical order, split them by game, fit K, run
 * Adam (tune/texel.h) from start weights, and store the result as a weight
 * set with its lineage, K and the losses of every epoch (a `tune` run and
 * a tuning row). `dama tune` and `dama train` are thin clients of it. */
#ifndef DAMA_TUNE_JOB_H
#define DAMA_TUNE_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/game.h"
#include "tuner/texel.h"

struct Db;
struct EgtbProber;
struct AtomicOptions;

enum { TUNE_JOB_NAME_MAX = 200 }; /* bytes of a weight set name */
enum { TUNE_JOB_MIN_POSITIONS = 100 }; /* fewer matching positions: nothing to tune on */

typedef struct TuneJobOptions {
    const Game *game;
    struct Db *db;         /* open for writing; not owned */
    const char *db_path;   /* the database's path, for messages */
    const int32_t *start;  /* start weights, game->weights_len; also the L2 anchor */
    const char *start_spec; /* how start was named ("default", "db:ID", a file), for its lineage */
    /* Which positions: those of these self-play runs ("3" or "1,2,5", run
     * ids separated by single commas; NULL: every self-play run of the
     * game), plus an optional extra SQL condition on positions p / games g
     * (NULL: none). Each named run must exist and be a self-play run of
     * the game. */
    const char *runs;
    /* Only the games of index below this in each run (0: every game): a
     * train's generation tunes on the games it asked for, not on those
     * another train (of more games a generation) added to the shared run. */
    int64_t games_below;
    const char *filter;
    bool all_positions; /* also positions with a capture pending (default: only quiet ones) */
    /* Data options (README "Tuning data"). resolve: a position with a
     * capture pending is replaced by the leaf of its quiescence search's
     * capture line (engine/resolve.h) when that leaf is quiet (else skipped
     * as before); applies to both sets. The rest shape the training set
     * only (the validation set stays whole, so its loss compares across
     * them): dedupe: positions with the same position key (game->hash_full)
     * become one whose target is the mean of theirs; per_game: at most this
     * many positions of one game (0: all); share: keep this share of the
     * positions, (0, 1]. Sampling is keyed on the game's content and the
     * ply, as the split is. share 0 means 1. */
    bool resolve;
    bool dedupe;
    int per_game;
    double share;
    double valid;       /* share of games held out for validation, (0, 0.5] */
    int epochs;         /* most epochs, >= 0 */
    double lr;          /* Adam learning rate, centi-men per step */
    double lambda;      /* L2 toward the start weights */
    /* Step and L2 of the pattern tables (eval_term_is_table, engine/eval.h),
     * fitted with `patterns`: pattern_lr <= 0 means lr, pattern_lambda < 0
     * means lambda (texel.h, TexelConfig.table). */
    double pattern_lr;
    double pattern_lambda;
    size_t batch;       /* mini-batch size, 0 = full batch */
    int patience;       /* epochs without a better validation loss before stopping */
    double k;           /* sigmoid scale; 0 = fit it first */
    double score_weight; /* target = (1-w) result + w expected score of the search score, [0, 1] */
    int threads;        /* >= 1; results do not depend on it */
    uint64_t seed;      /* split and mini-batch order */
    struct EgtbProber *egtb; /* NULL: none; else exact results of the positions it holds (not owned) */
    bool egtb_skip;     /* with egtb: leave its positions out instead of correcting their target */
    /* Fit the pattern tables too (eval_term_is_table, engine/eval.h, e.g.
     * PATTERN, docs/eval.md); false: they stay at their start values (a
     * few thousand positions overfit them at once). */
    bool patterns;
    const char *name;   /* name of the new weight set (checked by the caller), NULL: "tuned-<tuning id>" */
    const char *config; /* configuration text stored with the tune run */
    /* Also write the result to this weight file (NULL: none), before
     * anything is stored; out_opts as atomic_file_write's. */
    const char *out_path;
    const struct AtomicOptions *out_opts;
    /* Polled while loading and after every epoch: non-zero stops the job
     * (may be NULL). */
    volatile int *stop;
    /* On *stop after an epoch, store nothing (no weight file, weight set or
     * tuning result; the run "interrupted", taken again from scratch by the
     * next tune of the same configuration): a train's tuning, which must end
     * as an uninterrupted one would. false: the best weights so far are
     * stored, as `dama tune` does. */
    bool discard_interrupted;
    /* Shared by R processes (MPI ranks, texel.h "Shards"; NULL: this
     * process alone). Collective: every rank calls tune_job_run with the
     * same options and database. Rank r traces only the positions with id
     * % R == r; the traced positions are then gathered on every rank, so
     * each holds the one-process data (its canonical order does not depend
     * on the load order) and the tuner's passes are shared. Only rank 0
     * writes: the runs, weight sets, tuning rows, out_path and log. The
     * tuned weights are the one-process weights bit for bit on every
     * rank, for any R and thread count. */
    const TexelReducer *reducer;
    FILE *log;    /* progress lines (loading, K, epochs); NULL: silent */
    bool verbose; /* log every epoch (default: every 25th, the last and improvements at a stop) */
} TuneJobOptions;

typedef enum TuneJobStatus {
    TUNE_JOB_FAILED = -1,      /* err says why; a started run is marked interrupted */
    TUNE_JOB_DONE = 0,         /* tuned weights stored */
    TUNE_JOB_INTERRUPTED = 1,  /* *stop after an epoch: the best weights so far stored (none with
                                  discard_interrupted), run "interrupted" */
    TUNE_JOB_STOPPED_LOADING = 2, /* *stop while loading positions: nothing stored */
    TUNE_JOB_BUSY = 3,         /* a tune of the same game, seed and configuration is running in another live
                                  process: err names it; nothing stored (rank 0; the other ranks fail) */
} TuneJobStatus;

typedef struct TuneJobResult {
    TexelResult texel;        /* K, losses, epochs */
    size_t positions;         /* positions loaded */
    bool too_few;             /* TUNE_JOB_FAILED: fewer than TUNE_JOB_MIN_POSITIONS matched (err says how many) */
    int64_t skipped;          /* positions left out: a capture pending */
    int64_t egtb_known, egtb_changed; /* positions the egtb held; of them, with another game result */
    int64_t resolved;    /* positions replaced by their capture line's leaf */
    int64_t merged;      /* training positions merged into an equal one (dedupe) */
    int64_t sampled_out; /* training positions left out by per_game / share */
    double bytes_per_position; /* memory of the stored traces */
    size_t positions_held;     /* positions this process held while tuning: all, or over
                                  several ranks with full batches its blocks' */
    double load_seconds, tune_seconds;
    int64_t run_id;    /* the `tune` run */
    int64_t tuning_id; /* tuning_runs row */
    int64_t base_ws;   /* weight set of the start weights */
    int64_t result_ws; /* weight set of the tuned weights (0 if none was stored; base_ws when unchanged) */
    bool unchanged;    /* the tuned weights are the start's: no new weight set was stored, and the
                          tuning_runs row has no result_ws */
    bool existed;      /* the tuned weights equal weight set result_ws, stored before: no new row, and
                          that set keeps its name (TuneJobOptions.name is not stored) */
} TuneJobResult;

enum { TUNE_LOSS_TEXT_MAX = 32 };

/* A loss as printed: "%.*f" with `digits` decimals, or "-" when it is NaN
 * (no validation positions: an empty hold-out has no loss). Returns out. */
const char *tune_loss_text(double loss, int digits, char out[TUNE_LOSS_TEXT_MAX]);

/* Default options (as `dama tune`'s defaults) for game: every field not
 * named here must be set by the caller (db, db_path, start). */
void tune_job_options_default(TuneJobOptions *o, const Game *game);

/* TuneJobOptions.threads for a requested count: threads when > 0, else
 * every core this process may use (omp_get_num_procs). */
int tune_job_threads(int threads);

/* Is s a run-id list as TuneJobOptions.runs takes ("3", "1,2,5")? */
bool tune_job_valid_runs(const char *s);

/* Run the job: tuned[0..weights_len) receives the tuned weights, *r what
 * happened. The game's scale weight stays frozen. Fewer than 100 matching
 * positions is an error. Rank 0 claims the run before loading: a run of
 * the same game, seed and configuration that a killed or failed tune left
 * without its end is tuned again under its own ids (its tuning row's
 * epochs cleared), else a new run is made (removed again when the job
 * fails before storing anything). Returns a TuneJobStatus; TUNE_JOB_FAILED with err
 * naming the bad run, position or database failure. Not thread-safe on one
 * db; uses o->threads OpenMP threads. */
TuneJobStatus tune_job_run(const TuneJobOptions *o, int32_t *tuned, TuneJobResult *r, char err[ERR_MAX]);

#endif
