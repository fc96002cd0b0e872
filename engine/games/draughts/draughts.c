/* draughts.c — tables and helpers shared by the 8x8 draughts variants. */
#include "engine/games/draughts/draughts.h"

#include <ctype.h>
#include <string.h>

#include "engine/games/draughts/draughts_egtb.h"
#include "util/rng.h"
#include "util/text.h"

DraughtsTables draughts_tables;

/* Direction d and 3 - d are opposite.
 * Diagonal:   0 NE (+9), 1 NW (+7), 2 SE (-7), 3 SW (-9).
 * Orthogonal: 0 N (+8),  1 E (+1),  2 W (-1),  3 S (-8). */
static const int dfile[2][4] = {{1, -1, 1, -1}, {0, 1, -1, 0}};
static const int drank[2][4] = {{1, 1, -1, -1}, {1, 0, 0, -1}};

void draughts_init(void)
{
    static bool done;
    if (done) return;
    DraughtsTables *t = &draughts_tables;
    for (int m = 0; m < 256; m++) {
        int v = 0, r = 0;
        for (int i = 7; i >= 0; i--) {
            v = 3 * v + (m >> i & 1);
            r = 3 * r + (m >> (7 - i) & 1);
        }
        t->base3[0][m] = (uint16_t)v;
        t->base3[1][m] = (uint16_t)r;
    }
    for (int o = 0; o < 2; o++) {
        for (int d = 0; d < DRAUGHTS_DIRS; d++) {
            t->delta[o][d] = (int8_t)(drank[o][d] * 8 + dfile[o][d]);
            uint64_t mask = 0;
            for (int sq = 0; sq < 64; sq++) {
                int f = sq % 8 + dfile[o][d], r = sq / 8 + drank[o][d];
                bool ok = f >= 0 && f < 8 && r >= 0 && r < 8;
                t->next[o][sq][d] = ok ? (int8_t)(r * 8 + f) : -1;
                if (ok) mask |= 1ULL << (r * 8 + f);
            }
            t->step_mask[o][d] = mask;
        }
    }
    uint64_t seed = 0x64616d617a6f6272ULL; /* fixed: keys are part of no file format */
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++)
            for (int sq = 0; sq < 64; sq++) t->zobrist[c][k][sq] = rng_splitmix64(&seed);
    t->zobrist_side = rng_splitmix64(&seed);
    draughts_egtb_init();
    done = true;
}

void draughts_square_name(int sq, char out[3])
{
    out[0] = (char)('a' + sq % 8);
    out[1] = (char)('1' + sq / 8);
    out[2] = '\0';
}

int draughts_square_parse(const char *text, int *used)
{
    int f = tolower((unsigned char)text[0]) - 'a';
    int r = text[0] ? text[1] - '1' : -1;
    if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
    if (isdigit((unsigned char)text[2])) return -1; /* "a10" */
    *used = 2;
    return r * 8 + f;
}

uint64_t draughts_hash_full(const DraughtsPos *p)
{
    const DraughtsTables *t = &draughts_tables;
    uint64_t key = p->side == COLOR_BLACK ? t->zobrist_side : 0;
    for (int c = 0; c < 2; c++) {
        for (uint64_t b = p->pieces[c]; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            key ^= t->zobrist[c][(p->kings >> sq) & 1][sq];
        }
    }
    return key;
}

int draughts_square_from_number32(int number)
{
    if (number < 1 || number > 32) return -1;
    int row = (number - 1) / 4; /* 0 = rank 8 */
    int rank = 7 - row;
    int file = 2 * ((number - 1) % 4) + (row % 2 == 0 ? 1 : 0);
    return rank * 8 + file;
}

void draughts_board_text(const DraughtsPos *p, bool all_squares, bool flip, char *out, size_t size)
{
    /* white man: white circle, white king: bullseye, black man: black
     * circle, black king: fisheye */
    static const char *const GLYPH[2][2] = {{"\u25cb", "\u25ce"}, {"\u25cf", "\u25c9"}};
    size_t used = 0;
    if (size) out[0] = '\0';
    for (int r = 0; r < 8; r++) {
        int rank = flip ? r : 7 - r;
        text_append(out, size, &used, " %d ", rank + 1);
        for (int f = 0; f < 8; f++) {
            int file = flip ? 7 - f : f, sq = rank * 8 + file;
            const char *glyph = (p->pieces[COLOR_WHITE] >> sq & 1)   ? GLYPH[0][p->kings >> sq & 1]
                                : (p->pieces[COLOR_BLACK] >> sq & 1) ? GLYPH[1][p->kings >> sq & 1]
                                                                    : NULL;
            bool playing = all_squares || (rank + file) % 2 == 0;
            text_append(out, size, &used, " %s", glyph ? glyph : playing ? "\u00b7" : " ");
        }
        text_append(out, size, &used, "\n");
    }
    text_append(out, size, &used, "   ");
    for (int f = 0; f < 8; f++) text_append(out, size, &used, " %c", 'a' + (flip ? 7 - f : f));
    text_append(out, size, &used, "\n");
}
