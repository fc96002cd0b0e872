/* shatra_board.c — Shatra board geometry and Zobrist keys (shatra.md 1). */
#include "engine/games/shatra/shatra_board.h"

#include <string.h>

#include "util/rng.h"

ShatraTables shatra_tables;

const unsigned char shatra_rank_width[15] = {3, 3, 3, 1, 7, 7, 7, 7, 7, 7, 1, 3, 3, 3, 0};

/* Files a..g occupied on each rank 14..1 (section 1 diagram). */
static const struct {
    int lo, hi;
} RANK_FILES[14] = {
    {2, 4}, {2, 4}, {2, 4}, {3, 3},                 /* ranks 14..11: Black fortress, gate */
    {0, 6}, {0, 6}, {0, 6}, {0, 6}, {0, 6}, {0, 6}, /* ranks 10..5: the field */
    {3, 3}, {2, 4}, {2, 4}, {2, 4},                 /* ranks 4..1: White gate, fortress */
};

static const int DFILE[SH_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int DRANK[SH_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};

static uint64_t range_mask(int lo, int hi) /* squares lo..hi, numbered 1..62 */
{
    uint64_t m = 0;
    for (int n = lo; n <= hi; n++) m |= sh_bit(n - 1);
    return m;
}

static uint64_t mirror_mask(uint64_t m)
{
    uint64_t r = 0;
    for (; m; m &= m - 1) r |= sh_bit(61 - __builtin_ctzll(m));
    return r;
}

void shatra_board_init(void)
{
    static bool done;
    if (done) return;
    ShatraTables *t = &shatra_tables;
    memset(t, 0, sizeof *t);
    int grid[15][7]; /* [rank 1..14][file]: index or -1 */
    for (int r = 0; r < 15; r++)
        for (int f = 0; f < 7; f++) grid[r][f] = -1;
    for (int m = 0; m < 1024; m++)
        for (int i = 0, p3 = 1; i < 10; i++, p3 *= 3) {
            if (m >> i & 1) t->b3[m] = (uint16_t)(t->b3[m] + p3);
            if (m >> (9 - i) & 1) t->b3_rev[m] = (uint16_t)(t->b3_rev[m] + p3);
        }
    int idx = 0;
    for (int row = 0; row < 14; row++) {
        int r = 14 - row;
        for (int f = RANK_FILES[row].lo; f <= RANK_FILES[row].hi; f++) {
            grid[r][f] = idx;
            t->file[idx] = (uint8_t)f;
            t->rank[idx] = (uint8_t)r;
            idx++;
        }
    }
    for (int sq = 0; sq < SH_SQUARES; sq++) {
        for (int d = 0; d < SH_DIRS; d++) {
            int f = t->file[sq] + DFILE[d], r = t->rank[sq] + DRANK[d];
            int n = (f >= 0 && f < 7 && r >= 1 && r <= 14) ? grid[r][f] : -1;
            t->nb[sq][d] = (int8_t)n;
            if (n >= 0) t->king_nb[sq] |= sh_bit(n);
        }
    }
    for (int sq = 0; sq < SH_SQUARES; sq++)
        for (int d = 0; d < SH_DIRS; d++)
            for (int s = t->nb[sq][d]; s >= 0; s = t->nb[s][d]) t->ray[sq][d] |= sh_bit(s);
    for (int ty = SH_BATYR; ty <= SH_YALKYN; ty++)
        for (int sq = 0; sq < SH_SQUARES; sq++) {
            t->slider_lines[ty - SH_BATYR][sq] = 0;
            for (int d = 0; d < SH_DIRS; d++)
                if (sh_slider_dirs(ty) >> d & 1) t->slider_lines[ty - SH_BATYR][sq] |= t->ray[sq][d];
        }
    memset(t->dir_to, -1, sizeof t->dir_to);
    for (int sq = 0; sq < SH_SQUARES; sq++)
        for (int d = 0; d < SH_DIRS; d++) {
            const int n = t->nb[sq][d];
            if (n < 0) continue;
            t->dir_to[sq][n] = (int8_t)d;
            /* Black's view turns the board: its direction d is ours d ^ 4 */
            if (d < 4) t->pair_nb[COLOR_WHITE][sq] |= sh_bit(n);
            if ((d ^ 4) < 4) t->pair_nb[COLOR_BLACK][sq] |= sh_bit(n);
        }

    t->own_half[COLOR_WHITE] = range_mask(32, 52);
    t->bank[COLOR_WHITE] = range_mask(32, 38);
    t->first_row[COLOR_WHITE] = range_mask(46, 52);
    t->fort[COLOR_WHITE] = range_mask(54, 62);
    t->fort_gate[COLOR_WHITE] = range_mask(53, 62);
    t->back_row[COLOR_WHITE] = range_mask(1, 3);
    t->road_start[COLOR_WHITE] = sh_bit(55 - 1) | sh_bit(58 - 1) | sh_bit(61 - 1);
    const int road[] = {2, 5, 8, 10, 14, 21, 28, 35, 42, 49, 53, 55, 58, 61};
    for (size_t i = 0; i < sizeof road / sizeof road[0]; i++) t->great_road |= sh_bit(road[i] - 1);
    t->own_half[COLOR_BLACK] = mirror_mask(t->own_half[COLOR_WHITE]);
    t->bank[COLOR_BLACK] = mirror_mask(t->bank[COLOR_WHITE]);
    t->first_row[COLOR_BLACK] = mirror_mask(t->first_row[COLOR_WHITE]);
    t->fort[COLOR_BLACK] = mirror_mask(t->fort[COLOR_WHITE]);
    t->fort_gate[COLOR_BLACK] = mirror_mask(t->fort_gate[COLOR_WHITE]);
    t->back_row[COLOR_BLACK] = mirror_mask(t->back_row[COLOR_WHITE]);
    t->road_start[COLOR_BLACK] = mirror_mask(t->road_start[COLOR_WHITE]);
    t->gate[COLOR_WHITE] = 53 - 1;
    t->gate[COLOR_BLACK] = 10 - 1;
    t->forward[COLOR_WHITE] = SH_N;
    t->forward[COLOR_BLACK] = SH_S;
    for (int i = 0; i < 9; i++) {
        t->drop_order[COLOR_WHITE][i] = (int8_t)(54 + i - 1);
        t->drop_order[COLOR_BLACK][i] = (int8_t)(9 - i - 1);
    }

    /* Shatra steps by zone (section 3), White's view; Black mirrored. */
    uint64_t past_moat = range_mask(1, 31);
    for (int sq = 0; sq < SH_SQUARES; sq++) {
        uint64_t b = sh_bit(sq), steps = 0;
        unsigned dirs;
        if (b & t->back_row[COLOR_WHITE])
            dirs = 1u << SH_E | 1u << SH_W;
        else if (b & past_moat)
            dirs = 1u << SH_N | 1u << SH_NE | 1u << SH_NW | 1u << SH_E | 1u << SH_W;
        else if (b & t->bank[COLOR_WHITE])
            dirs = 1u << SH_N | 1u << SH_NE | 1u << SH_NW;
        else
            dirs = 1u << SH_N; /* own half off the bank row; own fortress and gate */
        for (int d = 0; d < SH_DIRS; d++)
            if ((dirs >> d & 1) && t->nb[sq][d] >= 0) steps |= sh_bit(t->nb[sq][d]);
        t->shatra_step[COLOR_WHITE][sq] = steps;
        t->shatra_step[COLOR_BLACK][61 - sq] = mirror_mask(steps);
        int via = -1, to = -1;
        if (b & t->first_row[COLOR_WHITE]) {
            via = t->nb[sq][SH_N];
            to = t->nb[via][SH_N];
        }
        t->two_via[COLOR_WHITE][sq] = (int8_t)via;
        t->two_to[COLOR_WHITE][sq] = (int8_t)to;
        t->two_via[COLOR_BLACK][61 - sq] = (int8_t)(via < 0 ? -1 : 61 - via);
        t->two_to[COLOR_BLACK][61 - sq] = (int8_t)(to < 0 ? -1 : 61 - to);
    }

    uint64_t seed = 0x7368617472616b79ULL; /* fixed: keys are part of no file format */
    for (int c = 0; c < 2; c++)
        for (int ty = 0; ty < SH_TYPES; ty++)
            for (int sq = 0; sq < SH_SQUARES; sq++) t->zob_piece[c][ty][sq] = rng_splitmix64(&seed);
    t->zob_side = rng_splitmix64(&seed);
    for (int sq = 0; sq < SH_SQUARES; sq++) {
        t->zob_reserve[sq] = rng_splitmix64(&seed);
        t->zob_urgent[sq] = rng_splitmix64(&seed);
        t->zob_ep[sq] = rng_splitmix64(&seed);
        for (int c = 0; c < 2; c++)
            for (int e = 0; e < 2; e++) t->zob_sidestep[c][sq][e] = rng_splitmix64(&seed);
    }
    done = true;
}

uint64_t shatra_hash_full(const ShatraPos *p)
{
    const ShatraTables *t = &shatra_tables;
    uint64_t key = p->side == COLOR_BLACK ? t->zob_side : 0;
    for (int c = 0; c < 2; c++)
        for (uint64_t b = p->color[c]; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            key ^= t->zob_piece[c][sh_type_at(p, sq)][sq];
        }
    for (uint64_t b = p->reserve; b; b &= b - 1) key ^= t->zob_reserve[__builtin_ctzll(b)];
    for (uint64_t b = p->urgent; b; b &= b - 1) key ^= t->zob_urgent[__builtin_ctzll(b)];
    if (p->ep) key ^= t->zob_ep[p->ep - 1];
    for (int c = 0; c < 2; c++)
        if (p->sidestep[c][0]) {
            int x = p->sidestep[c][0] - 1, y = p->sidestep[c][1] - 1;
            key ^= t->zob_sidestep[c][x][y > x];
        }
    return key;
}
