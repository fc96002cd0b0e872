/* draughts_egtb.c — endgame-database indexing of the draughts boards
 * (contracts in draughts_egtb.h): the 8x8 diagonal board (32 dark squares),
 * the 8x8 orthogonal one (64 squares), the 10x10 diagonal one (50 dark
 * squares, International) and the 12x12 diagonal one (72 dark squares,
 * Canadian, on the 128-bit DraughtsPosWide).
 *
 * Index of a position of material (wm, wk, bm, bk), both sides to move:
 *     idx = side + 2 * (kings + K * (bmen + Cb * wmen))
 * wmen: colex rank of the white men among the squares a white man can
 * stand on (diagonal: the 28 dark squares below rank 8; orthogonal: ranks
 * 2-7, 48 squares: a man never moves backward, so no game puts a white man
 * on rank 1; 10x10: the 45 dark squares below rank 10; 12x12: the 66
 * below rank 12); bmen likewise for
 * Black (Cb = C(#squares, bm)). Squares count in board-index order. The
 * two men sets may overlap: such indices are unused. kings: the white kings' rank
 * among the F = playable - wm - bm squares the men leave free, times
 * C(F - wk, bk), plus the black kings' rank among the squares left after
 * that. Positions come back with zeroed counters.
 */
#include "engine/games/draughts/draughts_egtb.h"

#include <limits.h>
#include <string.h>

#include "engine/games/draughts/draughts.h"

typedef struct DVariant {
    int geom;                /* DraughtsGeometry: draughts_tables' board */
    int nsq;                 /* playable squares */
    int8_t sq_of[DRAUGHTS_INDEX_MAX];      /* playable index -> board square */
    int8_t pidx[DRAUGHTS_INDEX_MAX];       /* board square -> playable index, -1 */
    int nman[2];                           /* squares a man of each colour may stand on */
    int8_t man_sq[2][DRAUGHTS_INDEX_MAX];  /* man index -> board square */
    int8_t man_idx[2][DRAUGHTS_INDEX_MAX]; /* board square -> man index, -1 */
    unsigned man_dirs[2];    /* directions a man steps in (draughts_impl.h numbering) */
    bool short_kings;        /* kings step one square (English, Italian) */
} DVariant;

static DVariant DIAGONAL, DIAGONAL_SHORT, ORTHOGONAL, DIAGONAL10, DIAGONAL12;
static uint64_t BINOM[DRAUGHTS_INDEX_MAX + 1][9];

static uint64_t binom(int n, int k) { return (n < 0 || k < 0 || k > n) ? 0 : BINOM[n][k]; }

/* Is board index sq a square of geometry g (draughts_init has filled the
 * rank and file tables)? The 8x8 diagonal board uses the dark squares. */
static bool playable(int g, int sq)
{
    int rank = draughts_tables.rank[g][sq], file = draughts_tables.file[g][sq];
    return rank >= 0 && (g != GEOM_DIAGONAL8 || (file + rank) % 2 == 0);
}

static void variant_fill(DVariant *v, int g)
{
    memset(v, 0, sizeof *v);
    v->geom = g;
    memset(v->pidx, -1, sizeof v->pidx);
    memset(v->man_idx, -1, sizeof v->man_idx);
    int last = g == GEOM_DIAGONAL12 ? 11 : g == GEOM_DIAGONAL10 ? 9 : 7; /* the last rank */
    int top = g == GEOM_DIAGONAL12 ? DRAUGHTS_INDEX_MAX : 64;           /* board indices */
    for (int sq = 0; sq < top; sq++) {
        if (!playable(g, sq)) continue;
        int rank = draughts_tables.rank[g][sq];
        v->pidx[sq] = (int8_t)v->nsq;
        v->sq_of[v->nsq++] = (int8_t)sq;
        for (int c = 0; c < 2; c++) {
            bool ok = g == GEOM_ORTHOGONAL8 ? (rank >= 1 && rank <= 6)
                                            : (c == COLOR_WHITE ? rank < last : rank >= 1);
            if (!ok) continue;
            v->man_idx[c][sq] = (int8_t)v->nman[c];
            v->man_sq[c][v->nman[c]++] = (int8_t)sq;
        }
    }
    /* draughts_impl.h: diagonal 0 NE, 1 NW, 2 SE, 3 SW; orthogonal 0 N, 1 E, 2 W, 3 S */
    v->man_dirs[COLOR_WHITE] = g == GEOM_ORTHOGONAL8 ? 0x7u : 0x3u;
    v->man_dirs[COLOR_BLACK] = g == GEOM_ORTHOGONAL8 ? 0xEu : 0xCu;
}

void draughts_egtb_init(void)
{
    static bool done;
    if (done) return;
    for (int n = 0; n <= DRAUGHTS_INDEX_MAX; n++) {
        BINOM[n][0] = 1;
        for (int k = 1; k <= 8; k++) BINOM[n][k] = n == 0 ? 0 : BINOM[n - 1][k - 1] + BINOM[n - 1][k];
    }
    variant_fill(&DIAGONAL, GEOM_DIAGONAL8);
    variant_fill(&ORTHOGONAL, GEOM_ORTHOGONAL8);
    variant_fill(&DIAGONAL10, GEOM_DIAGONAL10);
    variant_fill(&DIAGONAL12, GEOM_DIAGONAL12);
    DIAGONAL_SHORT = DIAGONAL;
    DIAGONAL_SHORT.short_kings = true;
    done = true;
}

/* Bits set, without a call: the portable build has no POPCNT instruction,
 * and __builtin_popcountll becomes a libgcc call (a tenth of the builder's
 * time in a profile of a Turkish 4-piece material). */
static inline int popcount64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Position of the r-th (from 0) set bit of x, which has more than r. */
static inline int select_bit(uint64_t x, int r)
{
    int base = 0;
    for (int w = 32; w >= 8; w >>= 1) {
        uint64_t low = x & ((1ULL << w) - 1);
        int c = popcount64(low);
        if (r >= c) {
            r -= c;
            x >>= w;
            base += w;
        } else {
            x = low;
        }
    }
    for (; r > 0; r--) x &= x - 1; /* at most 7 in the last byte */
    return base + __builtin_ctzll(x);
}

static inline const DraughtsPos *cdp(const Position *p) { return (const DraughtsPos *)p->data; }

EgtbMaterial draughts_egtb_material(const Position *pos)
{
    const DraughtsPos *p = cdp(pos);
    EgtbMaterial m;
    for (int c = 0; c < 2; c++) {
        m.men[c] = (uint8_t)popcount64(p->pieces[c] & ~p->kings);
        m.kings[c] = (uint8_t)popcount64(p->pieces[c] & p->kings);
    }
    return m;
}

static uint64_t d_size(const DVariant *v, EgtbMaterial m)
{
    if (egtb_material_pieces(m) > EGTB_PIECES_MAX) return 0;
    int f = v->nsq - m.men[0] - m.men[1];
    if (f < m.kings[0] + m.kings[1]) return 0;
    return 2 * binom(v->nman[0], m.men[0]) * binom(v->nman[1], m.men[1]) * binom(f, m.kings[0]) *
           binom(f - m.kings[0], m.kings[1]);
}

/* Colex rank of the sorted values a[0] < a[1] < ... < a[k-1]. */
static inline uint64_t rank_set(const int *a, int k)
{
    uint64_t r = 0;
    for (int i = 0; i < k; i++) r += BINOM[a[i]][i + 1]; /* a[i] < 72, i + 1 <= EGTB_PIECES_MAX */
    return r;
}

/* Inverse of rank_set for k values below n. */
static inline void unrank_set(uint64_t r, int k, int n, int *a)
{
    int hi = n - 1;
    for (int i = k; i >= 1; i--) {
        /* the largest c in [i - 1, hi] with BINOM[c][i] <= r (BINOM[i - 1][i] = 0), by bisection */
        int lo = i - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (BINOM[mid][i] <= r) lo = mid;
            else hi = mid - 1;
        }
        a[i - 1] = lo;
        r -= BINOM[lo][i];
        hi = lo - 1;
    }
}

static bool d_index(const DVariant *v, const Position *pos, EgtbMaterial m, uint64_t *idx)
{
    const DraughtsPos *p = cdp(pos);
    int a[EGTB_PIECES_MAX];
    uint64_t men_rank[2];
    uint64_t men_all = (p->pieces[0] | p->pieces[1]) & ~p->kings;
    for (int c = 0; c < 2; c++) {
        int k = 0;
        for (uint64_t b = p->pieces[c] & ~p->kings; b; b &= b - 1) {
            int mi = v->man_idx[c][__builtin_ctzll(b)];
            if (mi < 0 || k == EGTB_PIECES_MAX) return false;
            a[k++] = mi;
        }
        if (k != m.men[c]) return false;
        men_rank[c] = rank_set(a, k);
    }
    /* Free-square index of a square: playable index minus men below it. */
    uint64_t king_rank[2];
    uint64_t wk_bits = p->pieces[0] & p->kings;
    for (int c = 0; c < 2; c++) {
        int k = 0;
        for (uint64_t b = p->pieces[c] & p->kings; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            int pi = v->pidx[sq];
            if (pi < 0 || k == EGTB_PIECES_MAX) return false;
            uint64_t below = (1ULL << sq) - 1;
            int fi = pi - popcount64(men_all & below);
            if (c == COLOR_BLACK) fi -= popcount64(wk_bits & below);
            a[k++] = fi;
        }
        if (k != m.kings[c]) return false;
        king_rank[c] = rank_set(a, k);
    }
    int f = v->nsq - m.men[0] - m.men[1];
    uint64_t kb = binom(f - m.kings[0], m.kings[1]);
    uint64_t kings = king_rank[0] * kb + king_rank[1];
    uint64_t K = binom(f, m.kings[0]) * kb;
    uint64_t cb = binom(v->nman[1], m.men[1]);
    *idx = p->side + 2 * (kings + K * (men_rank[1] + cb * men_rank[0]));
    return true;
}

static bool d_decode(const DVariant *v, EgtbMaterial m, uint64_t idx, Position *pos)
{
    memset(pos, 0, sizeof *pos);
    DraughtsPos *p = (DraughtsPos *)pos->data;
    p->side = (uint8_t)(idx & 1);
    idx >>= 1;
    int f = v->nsq - m.men[0] - m.men[1];
    uint64_t kb = binom(f - m.kings[0], m.kings[1]);
    uint64_t K = binom(f, m.kings[0]) * kb;
    uint64_t cb = binom(v->nman[1], m.men[1]);
    uint64_t kings = idx % K;
    idx /= K;
    uint64_t rank_b = idx % cb, rank_w = idx / cb;
    if (rank_w >= binom(v->nman[0], m.men[0])) return false;
    int a[EGTB_PIECES_MAX];
    uint64_t occ = 0;
    unrank_set(rank_w, m.men[0], v->nman[0], a);
    for (int i = 0; i < m.men[0]; i++) p->pieces[0] |= 1ULL << v->man_sq[0][a[i]];
    unrank_set(rank_b, m.men[1], v->nman[1], a);
    for (int i = 0; i < m.men[1]; i++) p->pieces[1] |= 1ULL << v->man_sq[1][a[i]];
    if (p->pieces[0] & p->pieces[1]) return false;
    occ = p->pieces[0] | p->pieces[1];
    /* Free squares as a mask of playable indices: the r-th free square is
     * its r-th set bit. */
    uint64_t free_p = v->nsq == 64 ? ~0ULL : (1ULL << v->nsq) - 1;
    for (uint64_t b = occ; b; b &= b - 1) free_p &= ~(1ULL << v->pidx[__builtin_ctzll(b)]);
    unrank_set(kings / kb, m.kings[0], f, a);
    uint64_t wk = 0, wk_p = 0;
    for (int i = 0; i < m.kings[0]; i++) {
        int pi = select_bit(free_p, a[i]);
        wk_p |= 1ULL << pi;
        wk |= 1ULL << v->sq_of[pi];
    }
    free_p &= ~wk_p;
    unrank_set(kings % kb, m.kings[1], f - m.kings[0], a);
    uint64_t bk = 0;
    for (int i = 0; i < m.kings[1]; i++) bk |= 1ULL << v->sq_of[select_bit(free_p, a[i])];
    p->pieces[0] |= wk;
    p->pieces[1] |= bk;
    p->kings = wk | bk;
    p->key = draughts_hash_full(p);
    return true;
}

static int d_unmoves(const DVariant *v, const Position *pos, void (*fn)(void *, const Position *), void *ctx)
{
    const DraughtsPos *p = cdp(pos);
    int mover = p->side ^ 1, g = v->geom;
    uint64_t empty = ~(p->pieces[0] | p->pieces[1]);
    int n = 0;
    Position qpos;
    memset(&qpos, 0, sizeof qpos);
    DraughtsPos *q = (DraughtsPos *)qpos.data;
    for (uint64_t b = p->pieces[mover]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        bool king = p->kings >> sq & 1;
        for (int d = 0; d < DRAUGHTS_DIRS; d++) {
            if (king) {
                for (int s = draughts_tables.next[g][sq][d]; s >= 0 && (empty >> s & 1);
                     s = v->short_kings ? -1 : draughts_tables.next[g][s][d]) {
                    *q = *p;
                    q->pieces[mover] ^= (1ULL << sq) | (1ULL << s);
                    q->kings ^= (1ULL << sq) | (1ULL << s);
                    q->side = (uint8_t)mover;
                    q->reversible = q->material_plies = q->big_plies = 0;
                    q->key = 0; /* not computed: see EgtbIndexer.unmoves */
                    fn(ctx, &qpos);
                    n++;
                }
            } else if (v->man_dirs[mover] >> d & 1) {
                int s = draughts_tables.next[g][sq][3 - d]; /* where a step in d came from */
                if (s < 0 || !(empty >> s & 1) || v->man_idx[mover][s] < 0) continue;
                *q = *p;
                q->pieces[mover] ^= (1ULL << sq) | (1ULL << s);
                q->side = (uint8_t)mover;
                q->reversible = q->material_plies = q->big_plies = 0;
                q->key = 0;
                fn(ctx, &qpos);
                n++;
            }
        }
    }
    return n;
}

/* Each byte's bits in reverse order: the files of every rank mirrored. */
static inline uint64_t mirror_files(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    return ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
}

int draughts_egtb_mirror_files(const Position *pos, Position *image, bool *self)
{
    const DraughtsPos *p = cdp(pos);
    uint64_t w = mirror_files(p->pieces[0]), b = mirror_files(p->pieces[1]), k = mirror_files(p->kings);
    int c = w != p->pieces[0] ? (w < p->pieces[0] ? 1 : -1)
            : b != p->pieces[1] ? (b < p->pieces[1] ? 1 : -1)
            : k != p->kings     ? (k < p->kings ? 1 : -1)
                                : 0;
    *self = c == 0;
    /* Only the DraughtsPos part is written (the rest of a Position is
     * never read by a draughts game); every call of the builder's
     * backward step makes one. */
    DraughtsPos *q = (DraughtsPos *)image->data;
    memset(q, 0, sizeof *q);
    q->pieces[0] = w;
    q->pieces[1] = b;
    q->kings = k;
    q->side = p->side;
    return c > 0;
}

uint64_t draughts_egtb_diagonal_size(EgtbMaterial m) { return d_size(&DIAGONAL, m); }
bool draughts_egtb_diagonal_index(const Position *pos, EgtbMaterial m, uint64_t *idx)
{
    return d_index(&DIAGONAL, pos, m, idx);
}
bool draughts_egtb_diagonal_decode(EgtbMaterial m, uint64_t idx, Position *pos)
{
    return d_decode(&DIAGONAL, m, idx, pos);
}
int draughts_egtb_diagonal_unmoves(const Position *pos, void (*fn)(void *, const Position *), void *ctx)
{
    return d_unmoves(&DIAGONAL, pos, fn, ctx);
}

int draughts_egtb_diagonal_short_unmoves(const Position *pos, void (*fn)(void *, const Position *), void *ctx)
{
    return d_unmoves(&DIAGONAL_SHORT, pos, fn, ctx);
}

uint64_t draughts_egtb_orthogonal_size(EgtbMaterial m) { return d_size(&ORTHOGONAL, m); }
bool draughts_egtb_orthogonal_index(const Position *pos, EgtbMaterial m, uint64_t *idx)
{
    return d_index(&ORTHOGONAL, pos, m, idx);
}
bool draughts_egtb_orthogonal_decode(EgtbMaterial m, uint64_t idx, Position *pos)
{
    return d_decode(&ORTHOGONAL, m, idx, pos);
}
int draughts_egtb_orthogonal_unmoves(const Position *pos, void (*fn)(void *, const Position *), void *ctx)
{
    return d_unmoves(&ORTHOGONAL, pos, fn, ctx);
}

uint64_t draughts_egtb_diagonal10_size(EgtbMaterial m) { return d_size(&DIAGONAL10, m); }
bool draughts_egtb_diagonal10_index(const Position *pos, EgtbMaterial m, uint64_t *idx)
{
    return d_index(&DIAGONAL10, pos, m, idx);
}
bool draughts_egtb_diagonal10_decode(EgtbMaterial m, uint64_t idx, Position *pos)
{
    return d_decode(&DIAGONAL10, m, idx, pos);
}
int draughts_egtb_diagonal10_unmoves(const Position *pos, void (*fn)(void *, const Position *), void *ctx)
{
    return d_unmoves(&DIAGONAL10, pos, fn, ctx);
}

/* ------------------------------------------------------------------ */
/* The 12x12 board (Canadian): the same index on DraughtsPosWide, whose
 * sets are 128 bits (square indices 0..77, draughts.h). Kept apart from
 * the 64-bit functions above so that those stay as they were. */

typedef DraughtsWide WBits;

static inline int w_pop(WBits x) { return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64)); }
static inline int w_ctz(WBits x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline WBits w_bit(int sq) { return (WBits)1 << sq; }
/* Position of the r-th (from 0) set bit of x, which has more than r. */
static inline int w_select(WBits x, int r)
{
    uint64_t lo = (uint64_t)x;
    int c = popcount64(lo);
    return r < c ? select_bit(lo, r) : 64 + select_bit((uint64_t)(x >> 64), r - c);
}

static inline const DraughtsPosWide *cwp(const Position *p) { return (const DraughtsPosWide *)p->data; }

static EgtbMaterial w_material(const Position *pos)
{
    const DraughtsPosWide *p = cwp(pos);
    EgtbMaterial m;
    for (int c = 0; c < 2; c++) {
        m.men[c] = (uint8_t)w_pop(p->pieces[c] & ~p->kings);
        m.kings[c] = (uint8_t)w_pop(p->pieces[c] & p->kings);
    }
    return m;
}

static bool w_index(const DVariant *v, const Position *pos, EgtbMaterial m, uint64_t *idx)
{
    const DraughtsPosWide *p = cwp(pos);
    int a[EGTB_PIECES_MAX];
    uint64_t men_rank[2], king_rank[2];
    WBits men_all = (p->pieces[0] | p->pieces[1]) & ~p->kings;
    for (int c = 0; c < 2; c++) {
        int k = 0;
        for (WBits b = p->pieces[c] & ~p->kings; b; b &= b - 1) {
            int sq = w_ctz(b);
            int mi = sq < DRAUGHTS_INDEX_MAX ? v->man_idx[c][sq] : -1;
            if (mi < 0 || k == EGTB_PIECES_MAX) return false;
            a[k++] = mi;
        }
        if (k != m.men[c]) return false;
        men_rank[c] = rank_set(a, k);
    }
    WBits wk_bits = p->pieces[0] & p->kings;
    for (int c = 0; c < 2; c++) {
        int k = 0;
        for (WBits b = p->pieces[c] & p->kings; b; b &= b - 1) {
            int sq = w_ctz(b);
            int pi = sq < DRAUGHTS_INDEX_MAX ? v->pidx[sq] : -1;
            if (pi < 0 || k == EGTB_PIECES_MAX) return false;
            WBits below = w_bit(sq) - 1;
            int fi = pi - w_pop(men_all & below);
            if (c == COLOR_BLACK) fi -= w_pop(wk_bits & below);
            a[k++] = fi;
        }
        if (k != m.kings[c]) return false;
        king_rank[c] = rank_set(a, k);
    }
    int f = v->nsq - m.men[0] - m.men[1];
    uint64_t kb = binom(f - m.kings[0], m.kings[1]);
    uint64_t K = binom(f, m.kings[0]) * kb;
    uint64_t cb = binom(v->nman[1], m.men[1]);
    *idx = p->side + 2 * (king_rank[0] * kb + king_rank[1] + K * (men_rank[1] + cb * men_rank[0]));
    return true;
}

/* Zobrist key from scratch: the 12x12 generator's d_hash_full (draughts_impl.h). */
static bool w_decode(const DVariant *v, EgtbMaterial m, uint64_t idx, Position *pos)
{
    memset(pos, 0, sizeof *pos);
    DraughtsPosWide *p = (DraughtsPosWide *)pos->data;
    p->side = (uint8_t)(idx & 1);
    idx >>= 1;
    int f = v->nsq - m.men[0] - m.men[1];
    uint64_t kb = binom(f - m.kings[0], m.kings[1]);
    uint64_t K = binom(f, m.kings[0]) * kb;
    uint64_t cb = binom(v->nman[1], m.men[1]);
    uint64_t kings = idx % K;
    idx /= K;
    uint64_t rank_b = idx % cb, rank_w = idx / cb;
    if (rank_w >= binom(v->nman[0], m.men[0])) return false;
    int a[EGTB_PIECES_MAX];
    unrank_set(rank_w, m.men[0], v->nman[0], a);
    for (int i = 0; i < m.men[0]; i++) p->pieces[0] |= w_bit(v->man_sq[0][a[i]]);
    unrank_set(rank_b, m.men[1], v->nman[1], a);
    for (int i = 0; i < m.men[1]; i++) p->pieces[1] |= w_bit(v->man_sq[1][a[i]]);
    if (p->pieces[0] & p->pieces[1]) return false;
    /* Free squares as a mask of playable indices (72 bits). */
    WBits free_p = w_bit(v->nsq) - 1;
    for (WBits b = p->pieces[0] | p->pieces[1]; b; b &= b - 1) free_p &= ~w_bit(v->pidx[w_ctz(b)]);
    unrank_set(kings / kb, m.kings[0], f, a);
    WBits wk = 0, wk_p = 0;
    for (int i = 0; i < m.kings[0]; i++) {
        int pi = w_select(free_p, a[i]);
        wk_p |= w_bit(pi);
        wk |= w_bit(v->sq_of[pi]);
    }
    free_p &= ~wk_p;
    unrank_set(kings % kb, m.kings[1], f - m.kings[0], a);
    WBits bk = 0;
    for (int i = 0; i < m.kings[1]; i++) bk |= w_bit(v->sq_of[w_select(free_p, a[i])]);
    p->pieces[0] |= wk;
    p->pieces[1] |= bk;
    p->kings = wk | bk;
    p->key = draughts_hash_full_wide(p);
    return true;
}

/* One un-move of mover's piece from sq back to s (king: stays a king). */
static void w_emit(const DraughtsPosWide *p, int mover, int sq, int s, bool king, Position *qpos,
                   void (*fn)(void *, const Position *), void *ctx)
{
    DraughtsPosWide *q = (DraughtsPosWide *)qpos->data;
    WBits move = w_bit(sq) | w_bit(s);
    *q = *p;
    q->pieces[mover] ^= move;
    if (king) q->kings ^= move;
    q->side = (uint8_t)mover;
    q->reversible = q->material_plies = q->big_plies = 0;
    q->key = 0; /* not computed: see EgtbIndexer.unmoves */
    fn(ctx, qpos);
}

static int w_unmoves(const DVariant *v, const Position *pos, void (*fn)(void *, const Position *), void *ctx)
{
    const DraughtsPosWide *p = cwp(pos);
    int mover = p->side ^ 1, g = v->geom;
    WBits occ = p->pieces[0] | p->pieces[1];
    int n = 0;
    Position qpos;
    memset(&qpos, 0, sizeof qpos);
    for (WBits b = p->pieces[mover]; b; b &= b - 1) {
        int sq = w_ctz(b);
        bool king = (int)(p->kings >> sq) & 1;
        for (int d = 0; d < DRAUGHTS_DIRS; d++) {
            if (king) {
                for (int s = draughts_tables.next[g][sq][d]; s >= 0 && !(int)(occ >> s & 1);
                     s = draughts_tables.next[g][s][d]) {
                    w_emit(p, mover, sq, s, true, &qpos, fn, ctx);
                    n++;
                }
            } else if (v->man_dirs[mover] >> d & 1) {
                int s = draughts_tables.next[g][sq][3 - d]; /* where a step in d came from */
                if (s < 0 || (int)(occ >> s & 1) || v->man_idx[mover][s] < 0) continue;
                w_emit(p, mover, sq, s, false, &qpos, fn, ctx);
                n++;
            }
        }
    }
    return n;
}

EgtbMaterial draughts_egtb_material_wide(const Position *pos) { return w_material(pos); }
uint64_t draughts_egtb_diagonal12_size(EgtbMaterial m) { return d_size(&DIAGONAL12, m); }
bool draughts_egtb_diagonal12_index(const Position *pos, EgtbMaterial m, uint64_t *idx)
{
    return w_index(&DIAGONAL12, pos, m, idx);
}
bool draughts_egtb_diagonal12_decode(EgtbMaterial m, uint64_t idx, Position *pos)
{
    return w_decode(&DIAGONAL12, m, idx, pos);
}
int draughts_egtb_diagonal12_unmoves(const Position *pos, void (*fn)(void *, const Position *), void *ctx)
{
    return w_unmoves(&DIAGONAL12, pos, fn, ctx);
}
