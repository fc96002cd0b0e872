/* tune_job_internal.h — what the files of the tuning job share
 * (tune_job.c: the options, the training set's shaping and tune_job_run;
 * tune_load.c: positions from the database in the canonical order;
 * tune_shard.c: the same over several ranks, through the reducer's
 * gather). Private: included only by tuner/tune_*.c; tune_job.h is the
 * interface. */
#ifndef DAMA_TUNE_JOB_INTERNAL_H
#define DAMA_TUNE_JOB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"
#include "tuner/texel.h"
#include "tuner/tune_job.h"
#include "util/err.h"

struct GameKeys;
struct Resolver;
struct EgtbProber;

/* The loading's state: the positions read so far, with their keys. */
typedef struct LoadCtx {
    const Game *game;
    const int32_t *weights;
    bool quiet_only; /* skip positions with a capture pending for either side */
    int64_t skipped;
    TexelData *data;
    const struct GameKeys *games;
    uint64_t *keys;  /* the game's key (GameKey) */
    uint64_t *pkeys; /* the position's key (game->hash_full), after resolving */
    int32_t *plies;
    int32_t *scores; /* search score, White's view; INT32_MIN if none */
    size_t keys_cap, len;
    int64_t bad_fen;
    bool interrupted; /* *stop was raised while loading */
    bool too_few;     /* fewer than TUNE_JOB_MIN_POSITIONS matched */
    volatile int *stop;
    struct EgtbProber *egtb;  /* NULL: no database */
    bool egtb_skip;    /* leave database positions out instead of correcting their target */
    int64_t egtb_known, egtb_changed;
    struct Resolver *resolver; /* NULL: positions with a capture pending are skipped (quiet_only) */
    int64_t resolved;
    char err[ERR_MAX];
} LoadCtx;

/* Every run named by o->runs exists and is a self-play run of this game
 * (else "only 0 positions match" would hide a typo). Returns 0, or -1
 * with err. */
int tune_job_check_runs(const TuneJobOptions *o, char err[ERR_MAX]);

/* Load the positions of o into *datap (traced once; the tuner never calls
 * the engine again) in the canonical order (by game key, ply, search
 * score); lc->keys, pkeys, plies and scores (the caller frees them) hold
 * each position's game key, position key, ply and search score. filter
 * gets the SQL condition that names the whole set (stored with the tuning
 * row). rc_in != 0: a failure before loading (with err), which a sharded
 * load still reports to the other ranks. Over several ranks
 * (o->reducer) each reads its share and tune_job_gather_loaded joins
 * them. Returns 0, or -1 with err (lc->interrupted, lc->too_few say
 * why). */
int tune_job_load(const TuneJobOptions *o, TexelData **datap, char *filter, size_t filter_size, LoadCtx *lc,
                  int rc_in, char err[ERR_MAX]);

/* Sharded loading (TuneJobOptions.reducer): this rank's traced positions
 * (checked against the engine already), its counters and its status (0,
 * or 1 failed / 2 interrupted with err) go to every rank; each puts all
 * ranks' positions in rank order into a new dataset that replaces
 * *data, and their keys into lc. A failure of any rank fails every rank
 * with the message of the first failing rank. Collective. */
int tune_job_gather_loaded(const TuneJobOptions *o, TexelData **data, LoadCtx *lc, int rc_in, char err[ERR_MAX]);

/* Did any rank fail (status != 0)? One flag a rank through the gather; a
 * gather failure counts as failing. Collective. */
bool tune_job_any_rank_failed(const TexelReducer *red, bool mine);

/* Sharded data: with full batches every pass of the tuner (K search,
 * gradients, training and validation losses) runs over split->train or
 * split->valid, and this rank computes only its blocks of each, so it
 * keeps only their positions: *data becomes those positions in the same
 * order, and the split's entries of its blocks are renumbered (the others,
 * never read here, become 0). The sums, and so the weights, are the bits
 * of the whole set. *kept gets the positions kept. Returns 0, or -1 with
 * err (out of memory; *data is then as it was). */
int tune_job_keep_own_blocks(const TexelReducer *red, const Game *g, TexelData **data, TexelSplit *split,
                             size_t *kept, char err[TEXEL_ERR_MAX]);

#endif
