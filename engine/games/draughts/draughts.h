/* draughts.h — shared board, position and rule switches of the 8x8 draughts
 * variants (Russian: diagonal; Turkish: orthogonal).
 *
 * A variant is a table of rule switches (DraughtsRules); the move generator
 * in draughts_impl.h is written once and specialised per variant by the
 * compiler (each variant's .c includes it with its own const rules).
 *
 * Board: one bit per square, square index = rank * 8 + file (a1 = 0,
 * b1 = 1, ..., h8 = 63). Russian uses only the dark squares (file + rank
 * even). White moves toward rank 8.
 */
#ifndef DAMA_DRAUGHTS_H
#define DAMA_DRAUGHTS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"

/* Rule switches of a draughts variant (sources: docs/rules/russian.md,
 * docs/rules/turkish.md). */
typedef struct DraughtsRules {
    bool orthogonal;          /* men and kings move along ranks/files (Turkish) */
    bool men_capture_back;    /* men capture backward too (Russian) */
    bool remove_at_once;      /* captured pieces leave the board as jumped (Turkish) */
    bool majority;            /* the capture taking most pieces is compulsory (Turkish) */
    bool crown_mid_capture;   /* a man crowned mid-capture goes on as a king (Russian) */
    bool no_reversal;         /* no 180-degree turn between two jumps (Turkish) */
    bool must_land_to_continue; /* a flying king must land where it can capture again (Russian) */
    int pieces_per_side;      /* men each side starts with: no position has more men + kings of a side */
} DraughtsRules;

/* A draughts position: 40 bytes. */
typedef struct DraughtsPos {
    uint64_t pieces[2]; /* occupied squares by colour (men and kings) */
    uint64_t kings;     /* squares holding a king, either colour */
    uint64_t key;       /* Zobrist key, kept incrementally */
    uint8_t side;       /* Color to move */
    uint8_t reversible; /* plies since the last capture or forward man move (capped at 255) */
    uint8_t material_plies; /* plies since the last capture or promotion (capped) */
    uint8_t pad[5];
} DraughtsPos;

enum { DRAUGHTS_DIRS = 4 };

/* Tables shared by the draughts variants, filled by draughts_init(). */
typedef struct DraughtsTables {
    int8_t next[2][64][DRAUGHTS_DIRS]; /* [orthogonal][square][dir]: neighbour or -1 */
    uint64_t step_mask[2][DRAUGHTS_DIRS]; /* squares a one-step shift may land on */
    int8_t delta[2][DRAUGHTS_DIRS];       /* square index change of one step */
    uint64_t zobrist[2][2][64];           /* [colour][king][square] */
    uint64_t zobrist_side;                /* xor-ed in when Black is to move */
    /* Pattern digits of the evaluations (docs/eval.md): base3[0][m] = sum
     * of 3^i over the set bits i of the byte m, base3[1][m] the same with
     * its 8 bits reversed (a region seen from the other side, the board
     * turned 180 degrees). State of a region = base3[.][own] + 2 *
     * base3[.][opponent's]. */
    uint16_t base3[2][256];
} DraughtsTables;

extern DraughtsTables draughts_tables;

/* Fill draughts_tables and the endgame indexing tables (draughts_egtb.h).
 * Idempotent, not thread-safe (the variants' Game.init call it). */
void draughts_init(void);

/* "a1".."h8" for square index 0..63; out needs 3 bytes. */
void draughts_square_name(int sq, char out[3]);
/* Parse "a1".."h8" at text; returns the square and sets *used to the
 * characters consumed, or -1. */
int draughts_square_parse(const char *text, int *used);

/* Zobrist key of a position computed from scratch. */
uint64_t draughts_hash_full(const DraughtsPos *p);

/* The board of p for a terminal (Game.board_text): ranks 8..1 (flip:
 * 1..8), Unicode circles for the men and kings, a dot on each empty square
 * a piece may stand on (all_squares: all 64, else the dark ones), the
 * files lettered below. Into out (size bytes, cut to fit). Pure. */
void draughts_board_text(const DraughtsPos *p, bool all_squares, bool flip, char *out, size_t size);

/* Russian (and English-checkers) 32-square numbering used by PDN files:
 * 1 = b8, 2 = d8, ..., 29 = a1, 32 = g1. Returns the square index, or -1. */
int draughts_square_from_number32(int number);

#endif
