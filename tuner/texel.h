/* texel.h — the tuner core: fitting linear evaluation weights to game
 * results (Texel method), independent of any game.
 *
 * Model. A position p is stored as its sparse evaluation trace (see EvalTrace
 * in engine/game.h): e_p(w) = sum_i coef_i * w[index_i], White's view,
 * centi-men. Its stored result r_p is White's score, 0, 1/2 or 1. The loss is
 * the mean squared error of the Texel method (P. Österlund, "Texel's tuning
 * method", chessprogramming.org/Texel's_Tuning_Method):
 *
 *     sigma(e) = 1 / (1 + 10^(-K * e / 400))
 *     E(w, K)  = mean over p of (r_p - sigma(e_p(w)))^2
 *
 * The tuner fits K first (weights fixed), then the weights (K fixed) with
 * Adam (Kingma & Ba, "Adam: a method for stochastic optimization", 2015) on
 * a training set, keeping the weights of the best epoch on a held-out
 * validation set, and rounds them back to int32.
 *
 * Sparse models. A pass costs its positions' entries, never the model's
 * size: each block's gradient is a list of the weights it touches, and the
 * default lazy Adam (TEXEL_ADAM_LAZY) updates only the weights a mini-batch
 * touches. A weight skipped for k steps has its moments decayed by beta1^k
 * and beta2^k (what k steps of zero data gradient do to them) and the L2
 * gradient of the k skipped steps added to its next step (lazy
 * regularisation, B. Carpenter, "Lazy sparse stochastic gradient descent for
 * regularized multinomial logistic regression", 2008); it does not take the
 * momentum steps it skipped (as TensorFlow's LazyAdamOptimizer). When every
 * weight is touched every step this is dense Adam bit for bit. A weight no
 * position touches keeps its start, whatever the L2 anchor.
 *
 * Determinism. Every sum over positions is cut into blocks of
 * TEXEL_BLOCK_POSITIONS consecutive positions of the pass; each block is
 * summed in position order and the block sums are added in block order. The
 * cut depends on the data only, never on the thread count or the schedule,
 * so a run gives bit-identical losses and weights with any number of
 * threads. Mini-batch order comes from a seeded shuffle (util/rng.h) of
 * runs of TEXEL_SHUFFLE_CHUNK consecutive training positions.
 *
 * Shards. A pass can also be shared by R cooperating processes (ranks,
 * e.g. of MPI; see TexelReducer): each holds the same data and weights,
 * computes the blocks of its share (rank r of R: blocks [nb r / R,
 * nb (r + 1) / R) of the pass's nb), and a gather puts every rank's block
 * sums in block order on every rank, where they are added in block order as
 * above. Every rank thus holds the one-process sums bit for bit, applies the
 * same Adam step and ends with the same weights, for any R and thread count.
 *
 * Threads: functions here use OpenMP internally (`threads` arguments: 0 means
 * the OpenMP default, omp_get_max_threads()). A TexelData may be read by any
 * number of calls at once; appending to it is not thread-safe.
 */
#ifndef DAMA_TEXEL_H
#define DAMA_TEXEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct EvalTrace;

enum {
    TEXEL_ERR_MAX = ERR_MAX,      /* error message buffers: the one size, util/err.h */
    TEXEL_BLOCK_POSITIONS = 2048, /* positions per summation block (see above); a
                                   * batch runs on at most batch / 2048 threads */
    TEXEL_WEIGHTS_MAX = 1 << 24,  /* stored entries hold a 24-bit weight index */
    TEXEL_PHASE_MAX = 255,        /* a tapered position's phase is stored in a byte */
    TEXEL_SHUFFLE_CHUNK = 32      /* mini-batches shuffle runs of this many consecutive
                                   * training positions (memory locality) */
};

/* ---------------------------------------------------------------- dataset */

/* A compact in-memory set of positions: per position a uint32 offset into
 * the coded trace entries, a uint8 target, the int32 engine evaluation
 * recorded at load (for texel_data_check; texel_data_drop_evals frees it)
 * and, tapered, a uint8 phase. A position's entries are sorted by weight
 * index, equal indices merged (coefficients added, zeros dropped), and
 * coded as varints (7 bits a byte, low group first, high bit: more
 * follow): one token (delta << 3 | c) per entry, delta the index minus the
 * previous entry's (the first: minus 0), c 0..6 the coefficient +1, -1,
 * +2, -2, +3, -3, +4, c 7 an escape followed by a varint of the zigzagged
 * coefficient (2|c| or 2|c|-1 for negative c). An entry of a small model
 * takes one byte, one of a pattern table (deltas of thousands) three.
 * Cost: 6 + code bytes a position (+1 tapered, +4 until the evaluations are
 * dropped); 21 bytes for the Russian evaluation's traces (about 10 entries),
 * see README "Tuner". At most UINT32_MAX - 1 positions and code bytes.
 * Opaque; owned by the caller through new/free. */
typedef struct TexelData TexelData;

/* An empty dataset for evaluations with `weights_len` weights
 * (1..TEXEL_WEIGHTS_MAX), the model e_p(w) above. Returns NULL if out of
 * memory or weights_len is out of range. */
TexelData *texel_data_new(int weights_len);

/* An empty dataset for a tapered evaluation (Game.eg_offset of
 * engine/game.h): weights_len == 2 * eg_offset, traces index the opening
 * weights (< eg_offset) and carry the position's phase (0..phase_max,
 * phase_max 1..TEXEL_PHASE_MAX), stored as one more byte a position. The
 * model is e_p(w) = (ph * op_p + (P - ph) * eg_p) / P with op_p = sum_i
 * coef_i * w[index_i] and eg_p = sum_i coef_i * w[index_i + eg_offset]; the
 * tuner fits the real-valued e_p, texel_data_check rebuilds it with the
 * engine's C division (eval_taper). Returns NULL if out of memory or the
 * sizes are out of range. */
TexelData *texel_data_new_tapered(int weights_len, int eg_offset, int phase_max);
void texel_data_free(TexelData *data); /* NULL is fine */

/* Reserve room for `positions` more positions and about `entries` more
 * trace entries (two code bytes each; more grows as needed), so loading a
 * known amount does not over-allocate. Returns 0, or -1 (out of memory, or
 * past the uint32 limits) with a message in err. */
int texel_data_reserve(TexelData *data, size_t positions, size_t entries,
                       char err[TEXEL_ERR_MAX]);

/* Append one position: its trace (repeated indices are merged, zero
 * coefficients dropped; tapered data also stores trace->phase), White's
 * result in half points (2 win, 1 draw, 0 loss, as outcome_score_white of game.h) and the engine's
 * evaluation (White's view, centi-men) of the same position with the weights
 * the trace will be checked against. Returns 0, or -1 with a message (index
 * >= weights_len, result not 0..2, negative trace length, out of memory,
 * more than UINT32_MAX - 1 positions or entries; tapered: an index of an
 * endgame weight, a phase out of 0..phase_max). The data is unchanged on
 * error. Not thread-safe. */
int texel_data_append(TexelData *data, const struct EvalTrace *trace, int result_half,
                      int32_t eval, char err[TEXEL_ERR_MAX]);

/* Free the engine evaluations recorded on append, once texel_data_check
 * has run: 4 bytes a position. texel_data_check then fails with a message;
 * later appends store no evaluation. Not thread-safe. */
void texel_data_drop_evals(TexelData *data);

/* Release the slack of the growing arrays (capacity = length). Returns 0,
 * or -1 if the allocator refused (the data stays valid). */
int texel_data_shrink(TexelData *data);

size_t texel_data_len(const TexelData *data);        /* positions */
size_t texel_data_entries(const TexelData *data);    /* stored (merged) trace entries in all */
int texel_data_weights_len(const TexelData *data);
int texel_data_result(const TexelData *data, size_t i); /* half points (nearest), i < len */

/* Targets: each position's training target is White's expected score in
 * [0, 1], stored in steps of 1/TEXEL_TARGET_SCALE; texel_data_append sets
 * it to the game result. texel_data_set_target replaces it, e.g. with a
 * blend of the result and the search score's expected score. Returns 0, or
 * -1 for i out of range or a target outside [0, 1]. */
enum { TEXEL_TARGET_SCALE = 254 };
double texel_data_target(const TexelData *data, size_t i);
int texel_data_set_target(TexelData *data, size_t i, double target);
/* Bytes used per position, all arrays counted (offset, target, eval unless
 * dropped, phase if tapered, coded entries), capacity slack not counted; 0
 * when empty. */
double texel_data_bytes_per_position(const TexelData *data);

/* Load check (STYLE.md, "Evaluation and tuning"): rebuild every position's
 * evaluation from its trace with `weights` (weights_len of them, exact int64
 * sum) and compare it with the engine value given on append. Returns 0 if
 * every |rebuilt - engine| <= tolerance (0: exact; 1: within one unit).
 * Otherwise returns -1, stores the index of the first mismatching position
 * in *bad (if bad is not NULL) and names it and both values in err.
 * Thread-safe; single-threaded. */
int texel_data_check(const TexelData *data, const int32_t *weights, int tolerance, size_t *bad,
                     char err[TEXEL_ERR_MAX]);

/* Fill `data` (appending) with `positions` synthetic positions of a known
 * linear model, for tests and for `dama bench`. True weights (written to
 * true_weights, texel_data_weights_len(data) of them, which must be >= 2):
 * weight 0 is a man worth 100; the others are uniform integers in [-50, 50].
 * Each position has a material difference in [-3, 3] (coefficient of weight
 * 0) and `terms` further entries with distinct indices in 1..weights_len-1
 * and coefficients in {-2, -1, 1, 2}. Its result is the sum of two
 * Bernoulli(sigma(e)) half points (so E[r] = sigma(e) with K = k: the true
 * weights minimise the expected loss) and its engine value is e exactly.
 * Tapered data: the terms index opening weights (< eg_offset), the endgame
 * weights are drawn likewise (weight eg_offset is a man, 100), each position
 * has a uniform phase in 0..phase_max and e is eval_taper's value.
 * Deterministic for a given seed. Returns 0, or -1 with a message. */
int texel_data_synthetic(TexelData *data, size_t positions, int terms, double k, uint64_t seed,
                         int32_t *true_weights, char err[TEXEL_ERR_MAX]);

/* Put the positions in the order given: position i becomes the old
 * position order[i] (order is a permutation of 0..len-1; anything else is
 * an error and leaves the data as it was). The tuner's sums run in
 * position order, so callers put positions in an order that depends on what
 * they are, not on where they came from, for results that do not depend on
 * storage order. Returns 0, or -1 with a message (not a permutation, out of
 * memory). Not thread-safe. */
int texel_data_reorder(TexelData *data, const uint32_t *order, char err[TEXEL_ERR_MAX]);

/* Positions as bytes, to move them between processes (e.g. ranks that
 * each loaded a share of the positions): texel_data_pack writes positions
 * [lo, hi) of data (hi <= len) into a new buffer *out (malloc'd, *size
 * bytes): per position its target byte, phase byte, engine evaluation (4
 * bytes, little endian; 0 once dropped), the length of its coded entries
 * (2 bytes) and the coded entries as stored. Returns 0, or -1 with a
 * message (out of memory). texel_data_unpack appends the positions of such
 * a buffer to data, which must have the same weights_len and taper; the
 * positions equal the packed ones byte for byte. Returns 0, or -1 with a
 * message naming the bad record (a truncated or malformed record, an index
 * past the weights, a phase out of range, out of memory); data is unchanged
 * on error. Not thread-safe on the data written. */
int texel_data_pack(const TexelData *data, size_t lo, size_t hi, uint8_t **out, size_t *size,
                    char err[TEXEL_ERR_MAX]);
int texel_data_unpack(TexelData *data, const uint8_t *buf, size_t size, char err[TEXEL_ERR_MAX]);

/* ------------------------------------------------------------------ split */

/* Positions split into a training and a validation set, as ascending
 * position indices. Owned by the caller (texel_split_free). */
typedef struct TexelSplit {
    uint32_t *train;
    size_t train_len;
    uint32_t *valid;
    size_t valid_len;
} TexelSplit;

/* Deterministic split of positions 0..positions-1 into *split (overwritten,
 * not freed; zeroed on error): position i goes to the
 * validation set iff rng_derive(seed, key_i) < valid_fraction * 2^64, with
 * key_i = keys[i], or i when keys is NULL. Passing a game id as the key keeps
 * all positions of one game on one side (their results are not independent).
 * valid_fraction in [0, 1) (0.1 is the usual choice). Returns 0, or -1 with a
 * message (bad fraction, too many positions, out of memory). */
int texel_split_make(TexelSplit *split, size_t positions, const uint64_t *keys,
                     double valid_fraction, uint64_t seed, char err[TEXEL_ERR_MAX]);
void texel_split_free(TexelSplit *split); /* zeroes it; a zeroed split is fine */

/* ---------------------------------------------------------------- shards */

/* Concatenate every rank's mine[0..len) in rank order into a new array
 * *all (malloc'd; the tuner frees it) of *all_len doubles, on every rank:
 * an allgather of variable length (dist.h's dist_allgather_doubles over
 * MPI; a test can fake it with threads). Called by every rank the same
 * number of times in the same order, from the thread that called the
 * tuner. Returns 0, or -1 with a message (the tuner then fails with it). */
typedef int (*TexelGather)(void *ctx, const double *mine, size_t len, double **all, size_t *all_len,
                           char err[TEXEL_ERR_MAX]);

/* R processes sharing the passes of one run (see "Shards" above). Every
 * rank passes the same data, split, config and start weights (else the
 * results are undefined). The payload of a pass is, per block, its loss
 * sum, its touched-weight count n and n (weight, gradient) pairs, as
 * doubles: at most 2 + 2 * min(weights, 2 * block entries) doubles a block
 * (frozen weights are left out: their gradient is never used), the whole
 * pass's gradient lists on every rank (docs/scaling.md). A
 * rank with no block of a pass (more ranks than blocks) sends nothing. */
typedef struct TexelReducer {
    int rank, ranks; /* 0 <= rank < ranks */
    TexelGather gather;
    void *ctx;
} TexelReducer;

/* ----------------------------------------------------------- loss and K */

/* The loss E(w, K) above over the positions idx[0..len-1] (idx NULL: the
 * positions 0..len-1) with integer weights. Returns 0 and stores the loss,
 * or -1 with a message (empty set, out of memory). An empty set is an error
 * rather than a NaN. */
int texel_loss(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
               double k, int threads, double *loss, char err[TEXEL_ERR_MAX]);
/* texel_loss with its pass shared by the ranks of red (NULL: alone);
 * collective: every rank calls it with the same arguments, and all get the
 * one-process loss bit for bit. */
int texel_loss_sharded(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
                       double k, int threads, const TexelReducer *red, double *loss,
                       char err[TEXEL_ERR_MAX]);

/* Fit K with the weights fixed: minimise E(w, K) over K in [k_lo, k_hi]
 * (0 < k_lo < k_hi; the usual bracket is [0.01, 10]) by a scan of 24
 * log-spaced points, then golden-section search on the bracket around the
 * best point to a relative width of 1e-7. Stores K and its loss. Returns 0,
 * or -1 with a message. */
int texel_fit_k(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
                double k_lo, double k_hi, int threads, double *k, double *loss,
                char err[TEXEL_ERR_MAX]);
/* texel_fit_k with every pass shared by the ranks of red (NULL: alone);
 * collective, as texel_loss_sharded; every rank gets the one-process K. */
int texel_fit_k_sharded(const TexelData *data, const uint32_t *idx, size_t len, const int32_t *weights,
                        double k_lo, double k_hi, int threads, const TexelReducer *red, double *k,
                        double *loss, char err[TEXEL_ERR_MAX]);

/* ------------------------------------------------------------ the tuner */

typedef enum TexelL2Anchor {
    TEXEL_L2_START = 0, /* pull the weights toward the starting weights */
    TEXEL_L2_ZERO = 1   /* pull the weights toward zero */
} TexelL2Anchor;

/* How Adam updates the weights after a mini-batch. */
typedef enum TexelAdam {
    TEXEL_ADAM_LAZY = 0, /* only the weights the batch touches (sparse, for
                          * models of millions of weights; see texel.c) */
    TEXEL_ADAM_DENSE = 1 /* every free weight every step (Kingma & Ba) */
} TexelAdam;

typedef enum TexelStop {
    TEXEL_STOP_EPOCHS = 0,   /* ran all epochs */
    TEXEL_STOP_PATIENCE = 1, /* early stop: validation loss stopped improving */
    TEXEL_STOP_CALLER = 2    /* the progress callback asked to stop */
} TexelStop;

/* One epoch's report. Losses are E(w, K) without the L2 term, with the
 * current (real-valued) weights. Epoch 0 is the starting point. */
typedef struct TexelEpoch {
    int epoch;
    double train_loss;
    double valid_loss; /* NaN when the validation set is empty */
    bool best;         /* best epoch so far: lowest validation loss, or with
                        * no validation set, lowest training loss + L2 term */
} TexelEpoch;

/* Called after each epoch (and for epoch 0) from the calling thread. Return
 * 0 to go on, non-zero to stop (the best weights so far are kept). */
typedef int (*TexelProgress)(void *ctx, const TexelEpoch *epoch);

typedef struct TexelConfig {
    double k;            /* sigmoid scale; <= 0: fit K on the training set first */
    double k_lo, k_hi;   /* bracket of the K search */
    int epochs;          /* most epochs (passes over the training set) */
    size_t batch_size;   /* positions per Adam step; 0: full batch */
    double lr;           /* Adam step size, centi-men per step */
    double beta1, beta2; /* Adam moment decays */
    double eps;          /* Adam denominator guard (gradients here are small) */
    double lambda;       /* L2: adds lambda * sum (w_j - anchor_j)^2 over free weights */
    TexelL2Anchor anchor;
    /* A second group of weights with its own step and L2, e.g. pattern
     * tables: each of their weights is seen by a few positions, so at the
     * step of the scalar terms they fit the noise of those positions.
     * table[j] != 0 puts weight j in the group (NULL: no weight is); its
     * weights use table_lr (<= 0: lr) and table_lambda (< 0: lambda). With
     * the loss a mean over the training positions, a fixed L2 shrinks a
     * weight the more the fewer positions it is seen in (its data gradient
     * grows with its count, the L2 gradient does not). */
    const uint8_t *table;
    double table_lr;
    double table_lambda;
    TexelAdam adam;      /* lazy (default) or dense updates */
    int patience;        /* stop after this many epochs without a better
                          * validation loss; 0: never stop early */
    int threads;         /* 0: OpenMP default */
    uint64_t seed;       /* mini-batch shuffle */
    TexelProgress progress; /* may be NULL; with a reducer it runs on every
                             * rank, and a stop asked on any rank stops all */
    void *progress_ctx;
    const TexelReducer *reducer; /* NULL: this process alone; else every
                                  * pass (K search, losses, gradients) is
                                  * shared by its ranks, see "Shards" */
} TexelConfig;

/* Defaults: k 0 (fit), bracket [0.01, 10], 1000 epochs, full batch, lr 1,
 * beta1 0.9, beta2 0.999, eps 1e-10, lambda 0 toward the start, no table
 * group (table NULL, table_lr 0, table_lambda -1: as the rest), lazy Adam,
 * patience 20,
 * threads 0, seed 1, no callback, no reducer. */
void texel_config_default(TexelConfig *cfg);

typedef struct TexelResult {
    double k;                 /* K used (given or fitted) */
    double train_loss_start;  /* with the starting weights */
    double valid_loss_start;  /* NaN when the validation set is empty */
    double best_valid_loss;   /* at the best epoch, real-valued weights; when the
                               * validation set is empty, the training loss plus
                               * the L2 term (the objective) */
    int best_epoch;           /* 0: no epoch beat the start (or its rounded weights did not) */
    int rounded_back;         /* the best epoch when its weights, rounded, were no better than
                               * the start on the validation set: the start was kept (best_epoch
                               * 0); else 0 */
    int epochs;               /* epochs run */
    TexelStop stop;
    double train_loss;        /* final, with the rounded int32 weights */
    double valid_loss;        /* final, rounded weights; NaN if no validation set */
    double step_seconds;      /* wall time of the Adam steps (gradient passes and
                               * updates) of all epochs, loss passes not counted */
    double step_cpu_seconds;  /* the same in CPU time of the process (all threads) */
    double gathered_bytes;    /* with a reducer: bytes each rank received from the
                               * gathers of all passes (0 alone) */
} TexelResult;

/* Tune: fit K unless cfg->k > 0, then run Adam from `start` on split->train,
 * selecting on split->valid, and write the best weights rounded to the
 * nearest int32 into weights_out (weights_len of them; may alias start);
 * when those rounded weights are no better than the start on split->valid
 * (rounding can take back a small gain, and overshoot), the start itself
 * (result->rounded_back says which epoch it replaced).
 * frozen (NULL: none) marks weights that keep their starting value, e.g.
 * the man value that sets the scale. Deterministic for a given data, split
 * and config, whatever the thread count and, with cfg->reducer, whatever
 * the number of ranks (collective: every rank calls it alike). Returns 0
 * and fills *result, or -1 with a message (bad config, empty training set,
 * out of memory on any rank, a failed gather); weights_out is untouched on
 * error. */
int texel_tune(const TexelData *data, const TexelSplit *split, const TexelConfig *cfg,
               const int32_t *start, const uint8_t *frozen, int32_t *weights_out,
               TexelResult *result, char err[TEXEL_ERR_MAX]);

/* ------------------------------------------------------------ throughput */

typedef struct TexelBench {
    int threads;           /* threads used */
    double evals_per_sec;  /* positions evaluated per second (loss + gradient) */
    double seconds;        /* wall time measured */
    double cpu_seconds;    /* CPU time of the process (all threads) in that time */
    uint64_t evals;        /* positions evaluated */
    double bytes_per_position;
} TexelBench;

/* Throughput of the tuner's inner loop: `passes` loss-and-gradient passes
 * over all positions of data with `weights` (K = 1), timed with the wall
 * clock (so the figure, unlike a search bench, varies run to run). Returns
 * 0, or -1 with a message (empty data, passes < 1, out of memory). */
int texel_bench(const TexelData *data, const int32_t *weights, int threads, int passes,
                TexelBench *bench, char err[TEXEL_ERR_MAX]);

#endif
