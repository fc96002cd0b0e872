/* draughts.h — shared board, position and rule switches of the draughts
 * variants: the 8x8 ones (Russian: diagonal; Turkish: orthogonal),
 * International on 10x10 and Canadian on 12x12.
 *
 * A variant is a table of rule switches (DraughtsRules); the move generator
 * in draughts_impl.h is written once and specialised per variant by the
 * compiler (each variant's .c includes it with its own const rules).
 *
 * Boards (DraughtsGeometry), one bit per square index in a uint64_t
 * (DraughtsPos), or for 12x12 in an unsigned __int128 (DraughtsPosWide):
 * - 8x8: index = rank * 8 + file (a1 = 0, b1 = 1, ..., h8 = 63). The
 *   diagonal variants use only the dark squares (file + rank even).
 * - 10x10: only the 50 dark squares, index = (11 * rank + file) / 2
 *   (a1 = 0, c1 = 1, ..., i1 = 4, b2 = 6, ..., j10 = 54). The indices 5,
 *   16, 27, 38 and 49 are no square ("ghosts", never set): a diagonal step
 *   is then the same shift everywhere (+6 NE, +5 NW, -5 SE, -6 SW), and a
 *   step off the board's side lands on a ghost or outside 0..54.
 * - 12x12: the same on 72 dark squares, index = (13 * rank + file) / 2
 *   (a1 = 0, ..., l12 = 77; ghosts 6, 19, 32, 45, 58, 71; steps +7 NE,
 *   +6 NW, -6 SE, -7 SW). A captured piece never stands on the edge, so
 *   the squares a move captures lie in ranks 2-11, indices 7..70: a Move
 *   keeps them as the 64 bits from index 7 on (Move.captured).
 * White moves toward the last rank (8 or 10).
 */
#ifndef DAMA_DRAUGHTS_H
#define DAMA_DRAUGHTS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"

/* Which captures a player may choose among (the "capture choice" of
 * docs/rules/<game>.md). Among what the rule keeps, the choice is free. */
typedef enum DraughtsChoice {
    CHOICE_FREE,         /* any capture (Russian, Pool, English) */
    CHOICE_MAJORITY,     /* the most pieces, men and kings alike (Turkish, Brazilian) */
    CHOICE_KING_FIRST,   /* a king's capture when a king can capture (Czech) */
    CHOICE_PIECES_KINGS, /* the most pieces, then the most kings (Spanish) */
    CHOICE_ITALIAN,      /* the most pieces, then with a king, then the most
                          * kings, then the earliest king in jump order (Italian) */
} DraughtsChoice;

/* The board a variant plays on (DraughtsRules.size and .orthogonal). */
typedef enum DraughtsGeometry {
    GEOM_DIAGONAL8 = 0,   /* 8x8, diagonal moves (Russian and the 8x8 family) */
    GEOM_ORTHOGONAL8 = 1, /* 8x8, moves along ranks and files (Turkish) */
    GEOM_DIAGONAL10 = 2,  /* 10x10 dark squares (International) */
    GEOM_DIAGONAL12 = 3,  /* 12x12 dark squares (Canadian) */
    GEOM_COUNT = 4
} DraughtsGeometry;

/* How the dark squares are numbered (the game's PDN squares). The board
 * inside dama is always the one of draughts.h (a1 dark, White at ranks
 * 1-3); a game whose book turns the board (dark square at each player's
 * near right) is that board seen in a mirror, so only its numbers differ. */
typedef enum DraughtsNumbering {
    NUMBERING_NONE,    /* no numbers: algebraic squares only (Turkish) */
    NUMBERING_ENGLISH, /* 1 = b8, 4 = h8, 5 = a7, ..., 29 = a1, 32 = g1 (English,
                        * Pool, Brazilian; Russian and Czech PDN files) */
    NUMBERING_ITALIAN, /* the book's 1 = a8 .. 32 = h1 on the turned board:
                        * 1 = h8, 4 = b8, ..., 29 = g1, 32 = a1 here */
    NUMBERING_SPANISH, /* the book's 1 = h1 .. 32 = a8 on the turned board:
                        * 1 = a1, 4 = g1, 5 = b2, ..., 32 = h8 here */
    NUMBERING_INTERNATIONAL, /* 10x10, 1..50 (FMJD): 1 = b10, 5 = j10, 6 = a9, ...,
                              * 46 = a1, 50 = i1 */
    NUMBERING_CANADIAN, /* 12x12, 1..72, the same scheme: 1 = b12, 6 = l12, 7 = a11,
                         * ..., 67 = a1, 72 = k1 */
} DraughtsNumbering;

/* Rule switches of a draughts variant (sources: docs/rules/<game>.md). */
typedef struct DraughtsRules {
    bool orthogonal;          /* men and kings move along ranks/files (Turkish) */
    bool men_capture_back;    /* men capture backward too (Russian, Brazilian, Pool) */
    bool short_kings;         /* kings move and capture one square at a time (English, Italian) */
    bool men_spare_kings;     /* a man may not capture a king (Italian) */
    bool remove_at_once;      /* captured pieces leave the board as jumped (Turkish) */
    DraughtsChoice choice;    /* which captures may be chosen */
    bool crown_mid_capture;   /* a man crowned mid-capture goes on as a king (Russian) */
    bool no_reversal;         /* no 180-degree turn between two jumps (Turkish) */
    bool must_land_to_continue; /* a flying king must land where it can capture again (Russian) */
    /* The endgame counts of a lone king (FMJD: International, Brazilian,
     * Canadian) run from the first position of their class of material: a
     * crowning inside the class does not restart them, and the count of
     * three pieces runs on when the lone king's capture leaves one or two
     * (material_plies, big_plies; d_lone_class in draughts_impl.h). Off:
     * material_plies restarts at every capture and crowning. */
    bool lone_king_counts;
    int pieces_per_side;      /* men each side starts with: no position has more men + kings of a side */
    int size;                 /* board side: 8 (0 reads as 8), or 10 or 12 (diagonal only) */
    DraughtsNumbering numbering; /* square numbers read in positions and moves */
    bool numeric;             /* positions and moves are written with numbers, captures AxB */
    const char *title;        /* the game, as messages about its positions name it */
} DraughtsRules;

/* A draughts position: 40 bytes. */
typedef struct DraughtsPos {
    uint64_t pieces[2]; /* occupied squares by colour (men and kings) */
    uint64_t kings;     /* squares holding a king, either colour */
    uint64_t key;       /* Zobrist key, kept incrementally */
    uint8_t side;       /* Color to move */
    uint8_t reversible; /* plies since the last capture or forward man move (capped at 255) */
    uint8_t material_plies; /* plies since the last capture or promotion (capped); under
                             * DraughtsRules.lone_king_counts, since the lone-king class began */
    uint8_t big_plies;      /* lone_king_counts: plies since three pieces began against the
                             * lone king, run on into the class of one or two (capped) */
    uint8_t pad[4];
} DraughtsPos;

/* The board of the 12x12 game: 128 bits a set. */
typedef unsigned __int128 DraughtsWide;

/* A 12x12 draughts position: the fields of DraughtsPos, the sets wider. */
typedef struct DraughtsPosWide {
    DraughtsWide pieces[2];
    DraughtsWide kings;
    uint64_t key;
    uint8_t side;
    uint8_t reversible;
    uint8_t material_plies;
    uint8_t big_plies;
    uint8_t pad[4];
} DraughtsPosWide;

enum { DRAUGHTS_DIRS = 4, DRAUGHTS_INDEX_MAX = 80 /* square indices of any board: 0..77 */ };

/* Tables shared by the draughts variants, filled by draughts_init();
 * [g] is a DraughtsGeometry. */
typedef struct DraughtsTables {
    int8_t next[GEOM_COUNT][DRAUGHTS_INDEX_MAX][DRAUGHTS_DIRS]; /* [g][square][dir]: neighbour or -1 */
    uint64_t step_mask[GEOM_COUNT][DRAUGHTS_DIRS]; /* squares a one-step shift may land on */
    int8_t delta[GEOM_COUNT][DRAUGHTS_DIRS];       /* square index change of one step */
    int8_t rank[GEOM_COUNT][DRAUGHTS_INDEX_MAX], file[GEOM_COUNT][DRAUGHTS_INDEX_MAX]; /* of each index, -1 if no square */
    uint64_t zobrist[2][2][DRAUGHTS_INDEX_MAX]; /* [colour][king][square] */
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

/* Square index of rank and file 0..size-1 on geometry g, or -1 (off the
 * board, or a light square of a dark-squares-only board). */
int draughts_square_at(DraughtsGeometry g, int rank, int file);

/* "a1".."h8" for square index 0..63; out needs 3 bytes. */
void draughts_square_name(int sq, char out[3]);
/* Parse "a1".."h8" at text; returns the square and sets *used to the
 * characters consumed, or -1. */
int draughts_square_parse(const char *text, int *used);

/* Zobrist key of a position computed from scratch. */
uint64_t draughts_hash_full(const DraughtsPos *p);
/* The same for a 12x12 position. */
uint64_t draughts_hash_full_wide(const DraughtsPosWide *p);

/* The board of p for a terminal (Game.board_text): ranks 8..1 (flip:
 * 1..8), Unicode circles for the men and kings, a dot on each empty square
 * a piece may stand on (all_squares: all 64, else the dark ones), the
 * files lettered below. Into out (size bytes, cut to fit). Pure. */
void draughts_board_text(const DraughtsPos *p, bool all_squares, bool flip, char *out, size_t size);
/* The same board as the game's book draws it: turned (mirror: files h..a,
 * the dark squares at each player's near right) and, when numbered, the
 * square numbers of nb beside it; 10 ranks for NUMBERING_INTERNATIONAL. */
void draughts_board_text_numbered(const DraughtsPos *p, DraughtsNumbering nb, bool mirror, bool flip, char *out,
                                  size_t size);
/* The same for a 12x12 position (NUMBERING_CANADIAN). */
void draughts_board_text_numbered_wide(const DraughtsPosWide *p, DraughtsNumbering nb, bool flip, char *out,
                                       size_t size);

/* How many numbered squares nb has: 32, 50 (International), 72
 * (Canadian), or 0 (none). */
int draughts_numbered_squares(DraughtsNumbering nb);
/* Square index of number 1..draughts_numbered_squares(nb) in numbering
 * nb, or -1 (out of range, or NUMBERING_NONE). */
int draughts_square_from_number(DraughtsNumbering nb, int number);
/* Number of square index sq in numbering nb, or 0 (no numbered square,
 * or NUMBERING_NONE). */
int draughts_number_of_square(DraughtsNumbering nb, int sq);

/* The English numbering (NUMBERING_ENGLISH): 1 = b8, 2 = d8, ..., 29 = a1,
 * 32 = g1. Returns the square index, or -1. */
int draughts_square_from_number32(int number);

#endif
