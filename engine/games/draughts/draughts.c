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

int draughts_square_from_number(DraughtsNumbering nb, int number)
{
    if (number < 1 || number > 32) return -1;
    int row = (number - 1) / 4, j = (number - 1) % 4;
    switch (nb) {
    case NUMBERING_ENGLISH: return draughts_square_from_number32(number);
    case NUMBERING_ITALIAN: /* the English square of the same row, counted from the other end */
        return draughts_square_from_number32(4 * row + (3 - j) + 1);
    case NUMBERING_SPANISH: /* rank by rank from rank 1, files a..h here */
        return row * 8 + 2 * j + (row % 2);
    case NUMBERING_NONE: break;
    }
    return -1;
}

int draughts_number_of_square(DraughtsNumbering nb, int sq)
{
    for (int n = 1; n <= 32; n++)
        if (draughts_square_from_number(nb, n) == sq) return n;
    return 0;
}

/* The glyph of square sq: a piece, a dot on an empty playing square, or a
 * space. */
static const char *board_glyph(const DraughtsPos *p, int sq, bool playing)
{
    /* white man: white circle, white king: bullseye, black man: black
     * circle, black king: fisheye */
    static const char *const GLYPH[2][2] = {{"\u25cb", "\u25ce"}, {"\u25cf", "\u25c9"}};
    if (p->pieces[COLOR_WHITE] >> sq & 1) return GLYPH[0][p->kings >> sq & 1];
    if (p->pieces[COLOR_BLACK] >> sq & 1) return GLYPH[1][p->kings >> sq & 1];
    return playing ? "\u00b7" : " ";
}

void draughts_board_text(const DraughtsPos *p, bool all_squares, bool flip, char *out, size_t size)
{
    size_t used = 0;
    if (size) out[0] = '\0';
    for (int r = 0; r < 8; r++) {
        int rank = flip ? r : 7 - r;
        text_append(out, size, &used, " %d ", rank + 1);
        for (int f = 0; f < 8; f++) {
            int file = flip ? 7 - f : f, sq = rank * 8 + file;
            text_append(out, size, &used, " %s", board_glyph(p, sq, all_squares || (rank + file) % 2 == 0));
        }
        text_append(out, size, &used, "\n");
    }
    text_append(out, size, &used, "   ");
    for (int f = 0; f < 8; f++) text_append(out, size, &used, " %c", 'a' + (flip ? 7 - f : f));
    text_append(out, size, &used, "\n");
}

void draughts_board_text_numbered(const DraughtsPos *p, DraughtsNumbering nb, bool mirror, bool flip, char *out,
                                  size_t size)
{
    size_t used = 0;
    if (size) out[0] = '\0';
    for (int r = 0; r < 8; r++) {
        int rank = flip ? r : 7 - r;
        int numbers[4], nn = 0;
        text_append(out, size, &used, "  ");
        for (int f = 0; f < 8; f++) {
            int col = flip ? 7 - f : f; /* column on the drawn board, from White's left */
            int file = mirror ? 7 - col : col, sq = rank * 8 + file;
            bool playing = (rank + file) % 2 == 0;
            text_append(out, size, &used, " %s", board_glyph(p, sq, playing));
            if (playing && nn < 4) numbers[nn++] = draughts_number_of_square(nb, sq);
        }
        text_append(out, size, &used, "   ");
        for (int i = 0; i < nn; i++) text_append(out, size, &used, " %2d", numbers[i]);
        text_append(out, size, &used, "\n");
    }
}
