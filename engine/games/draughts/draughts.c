/* draughts.c — tables and helpers shared by the draughts variants. */
#include "engine/games/draughts/draughts.h"

#include <ctype.h>
#include <string.h>

#include "engine/games/draughts/draughts_egtb.h"
#include "util/rng.h"
#include "util/text.h"

DraughtsTables draughts_tables;

/* Direction d and 3 - d are opposite.
 * Diagonal:   0 NE (+9; 10x10: +6), 1 NW (+7; +5), 2 SE (-7; -5), 3 SW (-9; -6).
 * Orthogonal: 0 N (+8),  1 E (+1),  2 W (-1),  3 S (-8). */
static const int dfile[GEOM_COUNT][4] = {{1, -1, 1, -1}, {0, 1, -1, 0}, {1, -1, 1, -1}, {1, -1, 1, -1}};
static const int drank[GEOM_COUNT][4] = {{1, 1, -1, -1}, {1, 0, 0, -1}, {1, 1, -1, -1}, {1, 1, -1, -1}};
static const int geom_size[GEOM_COUNT] = {8, 8, 10, 12};

int draughts_square_at(DraughtsGeometry g, int rank, int file)
{
    int n = geom_size[g];
    if (rank < 0 || rank >= n || file < 0 || file >= n) return -1;
    if (g == GEOM_DIAGONAL10) return (rank + file) % 2 ? -1 : (11 * rank + file) / 2;
    if (g == GEOM_DIAGONAL12) return (rank + file) % 2 ? -1 : (13 * rank + file) / 2;
    return rank * 8 + file;
}

static void init_geometry(DraughtsTables *t, int g)
{
    memset(t->rank[g], -1, sizeof t->rank[g]);
    memset(t->file[g], -1, sizeof t->file[g]);
    for (int r = 0; r < geom_size[g]; r++)
        for (int f = 0; f < geom_size[g]; f++) {
            int sq = draughts_square_at((DraughtsGeometry)g, r, f);
            if (sq < 0) continue;
            t->rank[g][sq] = (int8_t)r;
            t->file[g][sq] = (int8_t)f;
        }
    for (int d = 0; d < DRAUGHTS_DIRS; d++) {
        uint64_t mask = 0; /* the 64-bit boards' */
        for (int sq = 0; sq < DRAUGHTS_INDEX_MAX; sq++) {
            t->next[g][sq][d] = -1;
            if (t->rank[g][sq] < 0) continue;
            int to = draughts_square_at((DraughtsGeometry)g, t->rank[g][sq] + drank[g][d], t->file[g][sq] + dfile[g][d]);
            if (to < 0) continue;
            t->next[g][sq][d] = (int8_t)to;
            t->delta[g][d] = (int8_t)(to - sq);
            if (to < 64) mask |= 1ULL << to;
        }
        t->step_mask[g][d] = mask;
    }
}

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
    for (int g = 0; g < GEOM_COUNT; g++) init_geometry(t, g);
    uint64_t seed = 0x64616d617a6f6272ULL; /* fixed: keys are part of no file format */
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++)
            for (int sq = 0; sq < 64; sq++) t->zobrist[c][k][sq] = rng_splitmix64(&seed);
    t->zobrist_side = rng_splitmix64(&seed);
    for (int c = 0; c < 2; c++) /* the 12x12 board's indices 64..77, drawn after (the others' keys stay) */
        for (int k = 0; k < 2; k++)
            for (int sq = 64; sq < DRAUGHTS_INDEX_MAX; sq++) t->zobrist[c][k][sq] = rng_splitmix64(&seed);
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

uint64_t draughts_hash_full_wide(const DraughtsPosWide *p)
{
    const DraughtsTables *t = &draughts_tables;
    uint64_t key = p->side == COLOR_BLACK ? t->zobrist_side : 0;
    for (int c = 0; c < 2; c++)
        for (DraughtsWide b = p->pieces[c]; b; b &= b - 1) {
            uint64_t lo = (uint64_t)b;
            int sq = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
            key ^= t->zobrist[c][(int)(p->kings >> sq) & 1][sq];
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

int draughts_numbered_squares(DraughtsNumbering nb)
{
    return nb == NUMBERING_NONE ? 0 : nb == NUMBERING_INTERNATIONAL ? 50 : nb == NUMBERING_CANADIAN ? 72 : 32;
}

int draughts_square_from_number(DraughtsNumbering nb, int number)
{
    if (number < 1 || number > draughts_numbered_squares(nb)) return -1;
    int row = (number - 1) / 4, j = (number - 1) % 4;
    switch (nb) {
    case NUMBERING_ENGLISH: return draughts_square_from_number32(number);
    case NUMBERING_ITALIAN: /* the English square of the same row, counted from the other end */
        return draughts_square_from_number32(4 * row + (3 - j) + 1);
    case NUMBERING_SPANISH: /* rank by rank from rank 1, files a..h here */
        return row * 8 + 2 * j + (row % 2);
    case NUMBERING_INTERNATIONAL: { /* rows of 5 from rank 10, each from the left */
        int rank = 9 - (number - 1) / 5;
        return draughts_square_at(GEOM_DIAGONAL10, rank, 2 * ((number - 1) % 5) + (rank % 2));
    }
    case NUMBERING_CANADIAN: { /* rows of 6 from rank 12, each from the left */
        int rank = 11 - (number - 1) / 6;
        return draughts_square_at(GEOM_DIAGONAL12, rank, 2 * ((number - 1) % 6) + (rank % 2));
    }
    case NUMBERING_NONE: break;
    }
    return -1;
}

int draughts_number_of_square(DraughtsNumbering nb, int sq)
{
    for (int n = 1; n <= draughts_numbered_squares(nb); n++)
        if (draughts_square_from_number(nb, n) == sq) return n;
    return 0;
}

/* What stands on a square: 0 empty, 1 a white man, 2 a white king, 3 a
 * black man, 4 a black king. */
static int piece_code(bool white, bool black, bool king) { return white ? 1 + king : black ? 3 + king : 0; }

static int piece_at(const DraughtsPos *p, int sq)
{
    return piece_code(p->pieces[COLOR_WHITE] >> sq & 1, p->pieces[COLOR_BLACK] >> sq & 1, p->kings >> sq & 1);
}

static int piece_at_wide(const DraughtsPosWide *p, int sq)
{
    return piece_code(p->pieces[COLOR_WHITE] >> sq & 1, p->pieces[COLOR_BLACK] >> sq & 1, p->kings >> sq & 1);
}

/* The glyph of a piece code (piece_code), or on an empty square a dot
 * (playing) or a space. */
static const char *code_glyph(int code, bool playing)
{
    /* white man: white circle, white king: bullseye, black man: black
     * circle, black king: fisheye */
    static const char *const GLYPH[5] = {"", "\u25cb", "\u25ce", "\u25cf", "\u25c9"};
    return code ? GLYPH[code] : playing ? "\u00b7" : " ";
}

/* The glyph of square sq: a piece, a dot on an empty playing square, or a
 * space. */
static const char *board_glyph(const DraughtsPos *p, int sq, bool playing) { return code_glyph(piece_at(p, sq), playing); }
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

/* The numbered board of n ranks on geometry g, the piece on each square
 * from codes[index] (piece_code). */
static void board_numbered(const int8_t *codes, int n, DraughtsGeometry g, DraughtsNumbering nb, bool mirror, bool flip,
                           char *out, size_t size)
{
    size_t used = 0;
    if (size) out[0] = '\0';
    for (int r = 0; r < n; r++) {
        int rank = flip ? r : n - 1 - r;
        int numbers[6], nn = 0;
        text_append(out, size, &used, "  ");
        for (int f = 0; f < n; f++) {
            int col = flip ? n - 1 - f : f; /* column on the drawn board, from White's left */
            int file = mirror ? n - 1 - col : col, sq = draughts_square_at(g, rank, file);
            bool playing = (rank + file) % 2 == 0;
            text_append(out, size, &used, " %s", playing ? code_glyph(codes[sq], true) : " ");
            if (playing && nn < n / 2) numbers[nn++] = draughts_number_of_square(nb, sq);
        }
        text_append(out, size, &used, "   ");
        for (int i = 0; i < nn; i++) text_append(out, size, &used, " %2d", numbers[i]);
        text_append(out, size, &used, "\n");
    }
}

void draughts_board_text_numbered(const DraughtsPos *p, DraughtsNumbering nb, bool mirror, bool flip, char *out,
                                  size_t size)
{
    bool big = nb == NUMBERING_INTERNATIONAL;
    int8_t codes[64];
    for (int sq = 0; sq < 64; sq++) codes[sq] = (int8_t)piece_at(p, sq);
    board_numbered(codes, big ? 10 : 8, big ? GEOM_DIAGONAL10 : GEOM_DIAGONAL8, nb, mirror, flip, out, size);
}

void draughts_board_text_numbered_wide(const DraughtsPosWide *p, DraughtsNumbering nb, bool flip, char *out,
                                       size_t size)
{
    int8_t codes[DRAUGHTS_INDEX_MAX];
    for (int sq = 0; sq < DRAUGHTS_INDEX_MAX; sq++) codes[sq] = (int8_t)piece_at_wide(p, sq);
    board_numbered(codes, 12, GEOM_DIAGONAL12, nb, false, flip, out, size);
}
