/* texel_internal.h — what the tuner's own files share (texel_data.c, the
 * position store; texel_loss.c, the passes, the loss and K; texel.c, the
 * configuration, Adam, texel_tune and the bench): the store's layout and
 * entry decoding, the passes' weight layout, the gradient and shard types
 * and the functions one file calls in another. Private: included only by
 * tuner/texel*.c, never by another folder or a test; texel.h is the
 * interface. The helpers the passes run per entry (decode, lay) are static
 * inline here so they still inline into the hot loops. */
#ifndef DAMA_TUNER_TEXEL_INTERNAL_H
#define DAMA_TUNER_TEXEL_INTERNAL_H

#include <omp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"
#include "tuner/texel.h"

enum {
    ROUND_BLOCKS = 32 /* blocks summed per parallel round (bounds the buffers) */
};

struct TexelData {
    int weights_len;
    int eg_offset, phase_max;  /* tapered (eg_offset > 0) or plain (0, 0) */
    size_t len, cap;           /* positions */
    uint32_t *offset;          /* cap + 1 slots; position i owns the code bytes
                                * offset[i] .. offset[i + 1] - 1 */
    uint8_t *result;           /* target, White's expected score * TEXEL_TARGET_SCALE */
    int32_t *eval;             /* engine evaluation given on append; NULL once
                                * texel_data_drop_evals ran */
    bool evals_dropped;
    uint8_t *phase;            /* tapered: each position's phase (else NULL) */
    size_t entries;            /* entries stored in all (after merging) */
    size_t code_len, code_cap;
    uint8_t *code;             /* the entries, coded as texel.h describes */
};

/* Entry coding (texel.h, "dataset"), a stream-VByte layout (D. Lemire,
 * N. Kurz, C. Rupp, "Stream VByte: faster byte-oriented integer
 * compression", 2018): per position a varint item count, then 2-bit
 * lengths (1..4 bytes) of the items, four to a byte, then the items, little
 * endian. An item is a token (delta << 3 | c), c < 7 naming a coefficient
 * of COEF_OF_CODE; c == 7 says the next item is the zigzagged coefficient.
 * The lengths are known before the items are read, so decoding has no
 * load-to-load dependency. */
enum {
    CODE_ESCAPE = 7,
    ITEMS_MAX = 2 * TRACE_MAX,                  /* a token and an escape per entry */
    CODE_MAX = 2 + ITEMS_MAX / 4 + 4 * ITEMS_MAX, /* bytes of one position, at most */
    CODE_PAD = 4                                /* readable bytes past the end */
};
static const int8_t COEF_OF_CODE[CODE_ESCAPE] = {1, -1, 2, -2, 3, -3, 4};

static inline uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Decode position i's entries into idx[] and coef[] (at most TRACE_MAX
 * each; the coding stores no more); returns how many. Reads up to 3 bytes
 * past the position (the array keeps CODE_PAD bytes past its end). */
static inline int decode(const TexelData *d, size_t i, uint32_t *idx, double *coef)
{
    static const uint32_t mask[4] = {0xFFu, 0xFFFFu, 0xFFFFFFu, 0xFFFFFFFFu};
    const uint8_t *p = d->code + d->offset[i];
    uint32_t items = *p++;
    if (items >= 0x80)
        items = (items & 0x7F) | (uint32_t)*p++ << 7;
    const uint8_t *ctrl = p, *data = p + (items + 3) / 4;
    uint32_t j = 0;
    int n = 0;
    for (uint32_t k = 0; k < items; k++) {
        int len = ctrl[k >> 2] >> 2 * (k & 3) & 3;
        const uint32_t t = load32(data) & mask[len];
        data += len + 1;
        j += t >> 3;
        int32_t cf;
        if ((t & 7) != CODE_ESCAPE) {
            cf = COEF_OF_CODE[t & 7];
        } else {
            k++;
            len = ctrl[k >> 2] >> 2 * (k & 3) & 3;
            const uint32_t z = load32(data) & mask[len];
            data += len + 1;
            cf = (int32_t)(z >> 1) ^ -(int32_t)(z & 1);
        }
        idx[n] = j;
        coef[n++] = cf;
    }
    return n;
}

#define LN10 2.302585092994045684

/* Format a message into err (NULL: nothing), as snprintf, cut at
 * TEXEL_ERR_MAX bytes. */
void texel_set_err(char err[TEXEL_ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* threads as the tuner's options give it: 0 means every core OpenMP has. */
static inline int texel_thread_count(int threads)
{
    return threads > 0 ? threads : omp_get_max_threads();
}

/* c = K ln 10 / 400, the sigmoid's scale on centi-men. */
static inline double texel_k_scale(double k) { return k * LN10 / 400.0; }

/* The passes' weight layout. A tapered model's weights are kept
 * interleaved, opening weight j at 2j and its endgame twin at 2j + 1, so
 * an entry's two weights (and its two gradient accumulators) share a cache
 * line; a plain model's are as given. A *unit* is what one stored entry
 * touches: the pair 2j, 2j + 1 (tapered) or the weight j. The layout moves
 * where a weight lives, never the order of any sum. */
static inline size_t lay(const TexelData *d, size_t j)
{
    const size_t eg = (size_t)d->eg_offset;
    return !eg ? j : j < eg ? 2 * j : 2 * (j - eg) + 1;
}

static inline size_t unit_count(const TexelData *d)
{
    return d->eg_offset ? (size_t)d->eg_offset : (size_t)d->weights_len;
}

/* A block with more touched units than units / DENSE_SHARE is moved into
 * its slot by a scan of the marks in unit order (the merge then adds in
 * ascending weight order, reading and writing memory in runs); fewer, in
 * first-touch order. Either way every weight is once in a slot. */
enum { DENSE_SHARE = 32 };

/* The sparse gradient of a pass and the scratch that builds it.
 *
 * A block's gradient is summed in position order into a thread's dense
 * accumulator `acc` (zero outside the block's touched weights), then moved
 * into the block's slot as a list of (weight, value) in first-touch order,
 * clearing the accumulator behind it: a block costs its own entries, never
 * the model's size. The slots of a round are then added into `grad` in block
 * order; weight j is added by the thread that owns it (owner t holds the
 * weights [lo_t, lo_t+1), ranges of equal length in multiples of 16, so
 * owners do not share cache lines), which also records it once in its
 * touched list. The sums are those of the dense method (each block in
 * position order, block sums in block order), bit for bit. */
typedef struct BlockGrad {
    uint32_t *idx;
    double *val;
    size_t len, cap;
    bool sorted; /* idx ascending */
} BlockGrad;

typedef struct Grad {
    int threads;        /* owners; the team of every region here */
    size_t wn;          /* weights */
    double *acc;        /* threads * wn accumulators, zero between blocks */
    uint8_t *mark;      /* threads * wn: unit touched in the current block */
    uint32_t *units;    /* threads * (wn + 1): the current block's touched units (and one slot
                         * the branch-free append writes past the last) */
    BlockGrad slot[ROUND_BLOCKS];
    size_t *own_lo;     /* threads + 1: owner t holds weights own_lo[t] .. own_lo[t + 1] - 1 */
    double *grad;       /* wn: the pass's gradient, zero outside touched */
    uint8_t *gmark;     /* wn: 1 on touched weights */
    uint32_t **touched; /* per owner: touched weights, in no particular order */
    size_t *touched_len;
    bool oom;           /* a slot could not grow */
} Grad;

/* A pass's link to the other ranks (texel.h, "Shards"): the reducer, this
 * rank's payload and the first failure, which every rank sees alike when it
 * comes from a block (all ranks fold the same gathered data). */
typedef struct Shard {
    const TexelReducer *red; /* NULL: this process alone */
    const uint8_t *frozen;   /* NULL, or weights whose gradient is not sent (never used) */
    double *buf;             /* this rank's blocks: loss, n, n (weight, value) pairs */
    size_t len, cap;
    double gathered;         /* bytes received by the gathers of the passes so far */
    bool failed;
    char err[TEXEL_ERR_MAX];
} Shard;

/* The gradient's buffers for wn weights (in the passes' layout) and
 * `threads` owner threads; 0, or -1 out of memory (g left empty). */
int texel_grad_init(Grad *g, size_t wn, int threads);
/* Free g's buffers (g NULL: nothing); g is left zeroed. */
void texel_grad_free(Grad *g);
/* Zero the gradient of the last pass (its touched weights only). */
void texel_grad_clear(Grad *g);

/* Sum of squared errors over idx[0..len) (idx NULL: positions 0..len-1)
 * with real weights w (the passes' layout, lay) and c = K ln 10 / 400, of
 * this process alone (sh NULL or without a reducer) or shared by the ranks
 * of sh->red: the same sums either way. If gr is not NULL (its gradient
 * cleared) it receives sum (sigma - r) sigma (1 - sigma) coef_j of every
 * weight touched, with gr->threads threads (otherwise `threads`); gr->oom
 * or sh->failed (with sh->err) say the sums are incomplete. Bit-identical
 * for any thread or rank count. */
double texel_pass(const TexelData *d, const uint32_t *idx, size_t len, const double *w, double c,
                  int threads, Grad *gr, Shard *sh);

/* Did any rank ask to stop? One flag a rank, gathered (false alone):
 * *any = mine or another's. 0, or -1 with sh->failed and sh->err set. */
int texel_shard_any(Shard *sh, bool mine, bool *any);

/* The weights as doubles in the passes' layout (lay); malloc'ed (the
 * caller frees), NULL out of memory. */
double *texel_weights_laid(const TexelData *d, const int32_t *weights);

/* Golden-section search of the loss over K in [lo, hi] (real weights w,
 * laid out): the best K seen and its mean loss. A shared pass's failure is
 * left in sh. */
void texel_k_search(const TexelData *d, const uint32_t *idx, size_t len, const double *w, double lo,
                    double hi, int threads, Shard *sh, double *k_out, double *loss_out);

/* 0 if 0 < lo < hi and hi is finite, else -1 with err set. */
int texel_check_k_bracket(double lo, double hi, char err[TEXEL_ERR_MAX]);

#endif
