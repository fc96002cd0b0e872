/* shatra_display.c — the Shatra board for a terminal (Game.board_text;
 * contract in shatra.h). Board: docs/rules/shatra.md section 1. */
#include "engine/games/shatra/shatra.h"

#include <string.h>

#include "engine/games/shatra/shatra_board.h"
#include "util/text.h"

enum { BOARD_FILES = 7, BOARD_RANKS = 14 };

/* The chess glyph of a piece (white outlined, black filled). */
static const char *glyph(int type, Color c)
{
    static const char *const GLYPH[2][SH_TYPES] = {
        {NULL, "\u2654", "\u2655", "\u2656", "\u2657", "\u2659"}, /* Biy, Batyr, Tura, Yalkyn, shatra */
        {NULL, "\u265a", "\u265b", "\u265c", "\u265d", "\u265f"},
    };
    return GLYPH[c][type];
}

static void red(bool colour, const char *text, char *out, size_t size, size_t *used)
{
    if (colour) text_append(out, size, used, "\033[1;31m%s\033[0m", text);
    else text_append(out, size, used, "%s", text);
}

/* One rank (r: 0 = rank 14) of the 7-file board, its squares centred;
 * first: the index of its leftmost square. */
static void rank_text(const ShatraPos *p, int r, int first, bool flip, bool colour, const bool attacked[2], char *out,
                      size_t size, size_t *used)
{
    int width = shatra_rank_width[r], lead = (BOARD_FILES - width) / 2;
    text_append(out, size, used, " %2d  ", BOARD_RANKS - r);
    for (int f = 0; f < BOARD_FILES; f++) {
        int k = flip ? BOARD_FILES - 1 - f : f;
        if (k < lead || k >= lead + width) {
            text_append(out, size, used, "    ");
            continue;
        }
        int sq = first + (k - lead), type = sh_type_at(p, sq);
        if (type == SH_EMPTY) { /* empty squares show their number: moves are written with them */
            text_append(out, size, used, " %2d ", sq + 1);
            continue;
        }
        Color c = (p->color[COLOR_BLACK] >> sq & 1) ? COLOR_BLACK : COLOR_WHITE;
        text_append(out, size, used, "  ");
        if (type == SH_BIY && attacked[c]) red(colour, glyph(type, c), out, size, used);
        else text_append(out, size, used, "%s", glyph(type, c));
        text_append(out, size, used, " ");
    }
    text_append(out, size, used, "\n");
}

void shatra_board_text(const Position *pos, bool flip, bool colour, char *out, size_t size)
{
    const ShatraPos *p = (const ShatraPos *)pos->data;
    size_t used = 0;
    if (size) out[0] = '\0';
    const bool attacked[2] = {shatra_game.royal_attacked(pos, COLOR_WHITE),
                              shatra_game.royal_attacked(pos, COLOR_BLACK)};
    int first[BOARD_RANKS];
    for (int r = 0, sq = 0; r < BOARD_RANKS; r++) first[r] = sq, sq += shatra_rank_width[r];
    for (int i = 0; i < BOARD_RANKS; i++) {
        int r = flip ? BOARD_RANKS - 1 - i : i;
        if (i == 7) text_append(out, size, &used, "      ~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"); /* the river */
        rank_text(p, r, first[r], flip, colour, attacked, out, size, &used);
    }
    text_append(out, size, &used, "       ");
    for (int f = 0; f < BOARD_FILES; f++) text_append(out, size, &used, "%c   ", 'a' + (flip ? BOARD_FILES - 1 - f : f));
    text_append(out, size, &used, "\n");
    for (int c = 0; c < 2; c++)
        if (attacked[c]) {
            text_append(out, size, &used, "  ");
            red(colour, c == COLOR_WHITE ? "White's Biy can be captured" : "Black's Biy can be captured", out, size,
                &used);
            text_append(out, size, &used, "\n");
        }
    /* the rest of the state: reserve, urgent pieces, counters */
    char fen[FEN_MAX];
    shatra_game.pos_to_fen(pos, fen);
    const char *rest = strchr(fen, ' ');
    if (rest) text_append(out, size, &used, "  state:%s\n", rest);
}
