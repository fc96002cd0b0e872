/* shatra_board.h — Shatra internals shared by the rules code and the
 * evaluation: board geometry, the position struct, precomputed tables.
 * Rules: docs/rules/shatra.md (section numbers below refer to it).
 *
 * Squares: the rule book numbers them 1..62 top to bottom, left to right as
 * White sees the board (section 1). Internally square n is index n - 1
 * (0..61); a bitset holds bit (n - 1) for square n, and a Move's captured set
 * is such a bitset. Index i and 61 - i are mirror images (square n <-> 63 - n).
 */
#ifndef DAMA_SHATRA_BOARD_H
#define DAMA_SHATRA_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"

enum { SH_SQUARES = 62, SH_DIRS = 8, SH_ROUTE_MAX = 40 };

/* Piece types; the values are also Move.promo (Batyr, Tura, Yalkyn). */
typedef enum ShatraPiece {
    SH_EMPTY = 0,
    SH_BIY = 1,    /* K */
    SH_BATYR = 2,  /* Q */
    SH_TURA = 3,   /* R */
    SH_YALKYN = 4, /* B */
    SH_SHATRA = 5, /* S */
    SH_TYPES = 6
} ShatraPiece;

/* Directions, clockwise from north (toward rank 14 = toward Black); d and
 * d ^ 4 are opposite. N, NE, NW, W lower the index; S, SE, SW, E raise it. */
enum { SH_N, SH_NE, SH_E, SH_SE, SH_S, SH_SW, SH_W, SH_NW };

/* A Shatra position (104 bytes). State beyond the board, section 7/8:
 * first reserve, urgent pieces, en-passant square, sideways-step entries. */
typedef struct ShatraPos {
    uint64_t color[2];       /* occupied squares by colour */
    uint64_t type[SH_TYPES]; /* occupied squares by piece type ([0] unused, 0) */
    uint64_t reserve;        /* first-reserve pieces (either colour) */
    uint64_t urgent;         /* urgent pieces (a subset of reserve) */
    uint64_t key;            /* Zobrist key, incremental */
    uint8_t side;            /* Color to move */
    uint8_t ep;              /* square skipped by a two-step last turn: index + 1, or 0 */
    uint8_t sidestep[2][2];  /* [colour]: {X + 1, Y + 1} of its last sideways step, or 0s */
    uint8_t quiet;           /* plies of the 60-ply rule (capped at 255) */
    uint8_t pad;
    uint16_t reversible;  /* plies since the last irreversible turn (capped) */
    uint16_t move_number; /* starts at 1, grows after Black's turn */
    uint16_t pad2;
} ShatraPos;

/* Squares on each rank, rank 14 first (the rule book's order: square 1
 * is the left end of rank 14), ended by a 0 (Game.board_rows). */
extern const unsigned char shatra_rank_width[15];

typedef struct ShatraTables {
    int8_t nb[SH_SQUARES][SH_DIRS];             /* neighbour in direction d, or -1 (wall) */
    uint64_t ray[SH_SQUARES][SH_DIRS];          /* squares along the line from sq in d (sq excluded) */
    uint64_t king_nb[SH_SQUARES];               /* the 8 neighbours */
    uint8_t file[SH_SQUARES], rank[SH_SQUARES]; /* 0..6 (a..g), 1..14 */
    /* Zones, [colour] from that side's view. */
    uint64_t own_half[2];   /* White 32-52, Black 11-31 */
    uint64_t bank[2];       /* White 32-38, Black 25-31 */
    uint64_t first_row[2];  /* White 46-52, Black 11-17 */
    uint64_t fort[2];       /* own fortress without the gate: White 54-62, Black 1-9 */
    uint64_t fort_gate[2];  /* own fortress and gate: White 53-62, Black 1-10 */
    uint64_t back_row[2];   /* where its shatras promote: White 1-3, Black 60-62 */
    uint64_t road_start[2]; /* great-road fortress squares: White 55, 58, 61; Black 8, 5, 2 */
    uint64_t great_road;    /* the d-file */
    int8_t gate[2];         /* White 53, Black 10 (indices 52, 9) */
    int8_t forward[2];      /* SH_N for White, SH_S for Black */
    /* Shatra non-capturing steps (section 3), ignoring occupancy. */
    uint64_t shatra_step[2][SH_SQUARES];                  /* one-square steps */
    int8_t two_via[2][SH_SQUARES], two_to[2][SH_SQUARES]; /* two-step, or -1 */
    int8_t drop_order[2][9];                              /* next-reserve order: White 54..62, Black 9..1 */
    /* FORTRESS_STATE: b3[m] = sum of 3^i over the set bits i of a 10-bit
     * mask; b3_rev[m] the same with bit i read as bit 9 - i (Black's
     * fortress and gate, indices 0..9, in its owner's view). */
    uint16_t b3[1024], b3_rev[1024];
    /* PIECE_PAIR: dir_to[sq][n] = the direction d with nb[sq][d] == n, or
     * -1; pair_nb[c][sq] = the neighbours in c's view directions N, NE, E,
     * SE (each pair of own pieces counted once). */
    int8_t dir_to[SH_SQUARES][SH_SQUARES];
    /* slider_lines[ty - SH_BATYR][sq]: every square on the lines a Batyr,
     * Tura or Yalkyn on sq moves along (the rays of sh_slider_dirs). */
    uint64_t slider_lines[3][SH_SQUARES];
    uint64_t pair_nb[2][SH_SQUARES];
    /* Zobrist keys. */
    uint64_t zob_piece[2][SH_TYPES][SH_SQUARES];
    uint64_t zob_side, zob_reserve[SH_SQUARES], zob_urgent[SH_SQUARES], zob_ep[SH_SQUARES];
    uint64_t zob_sidestep[2][SH_SQUARES][2]; /* [colour][X][Y is east of X] */
} ShatraTables;

extern ShatraTables shatra_tables;

/* Fill shatra_tables. Idempotent, not thread-safe (called by shatra_init, the game's Game.init). */
void shatra_board_init(void);

/* Zobrist key of p computed from scratch. */
uint64_t shatra_hash_full(const ShatraPos *p);

static inline uint64_t sh_bit(int sq) { return 1ULL << sq; }
/* Directions a slider moves along (bit d: direction d): the Batyr all 8,
 * the Tura N, E, S, W, the Yalkyn the diagonals (section 2). */
static inline unsigned sh_slider_dirs(int type) { return type == SH_BATYR ? 0xFFu : type == SH_TURA ? 0x55u : 0xAAu; }
static inline const ShatraPos *shp(const Position *pos) { return (const ShatraPos *)pos->data; }
static inline ShatraPos *shpw(Position *pos) { return (ShatraPos *)pos->data; }

/* Piece type on sq, or SH_EMPTY. */
static inline int sh_type_at(const ShatraPos *p, int sq)
{
    uint64_t b = sh_bit(sq);
    if (!((p->color[0] | p->color[1]) & b)) return SH_EMPTY;
    if (p->type[SH_SHATRA] & b) return SH_SHATRA;
    if (p->type[SH_BIY] & b) return SH_BIY;
    if (p->type[SH_BATYR] & b) return SH_BATYR;
    if (p->type[SH_TURA] & b) return SH_TURA;
    return SH_YALKYN;
}

/* Promotion pool of colour c (section 6): bit t set when a piece of type t
 * (Batyr, Tura, Yalkyn) may be promoted to — fewer than 1 / 2 / 2 of that
 * type of c stand on the board. */
/* Pieces of each type a side starts with (section 2: one Biy, one Batyr,
 * two Turas, two Yalkyns, eleven shatras). Promotion only brings back a
 * captured kind (section 6), so no position has more of a type. */
static const int SH_START_COUNT[SH_TYPES] = {0, 1, 1, 2, 2, 11};

static inline unsigned sh_pool(const ShatraPos *p, int c)
{
    uint64_t own = p->color[c];
    unsigned pool = 0;
    for (int t = SH_BATYR; t <= SH_YALKYN; t++)
        if (__builtin_popcountll(own & p->type[t]) < SH_START_COUNT[t]) pool |= 1u << t;
    return pool;
}

/* Is colour c's fortress closed (section 5): a first-reserve piece of c is
 * still there. Reserve pieces only ever stand in their own fortress/gate. */
static inline bool sh_closed(const ShatraPos *p, int c) { return (p->reserve & p->color[c]) != 0; }

/* Non-capturing moves of colour c's Batyrs, Turas and Yalkyns off the
 * first reserve (the evaluation's mobility term). */
int shatra_count_slider_moves(const ShatraPos *p, int c);
/* Can colour c capture now (any piece, the Biy included; en passant only
 * when c is to move)? */
bool shatra_side_can_capture(const ShatraPos *p, int c);
/* Is the Biy of colour c attacked: could the other side jump it now? */
bool shatra_biy_attacked(const ShatraPos *p, int c);
/* Could the other side jump colour c's piece on square index k now, with
 * the first jump of a capture (sections 4-5: the jumper's lines, a closed
 * fortress its own pieces may not land in; en passant not counted)? */
bool shatra_piece_attacked(const ShatraPos *p, int c, int k);
/* The pieces of colour c that shatra_piece_attacked finds attacked, as a
 * bitset, computed at once from the enemy's pieces (the evaluation's
 * PIECE_SAFETY; test_relation_tables checks it square by square against
 * shatra_piece_attacked). */
uint64_t shatra_attacked_set(const ShatraPos *p, int c);

/* The relation tables (FORTRESS_STATE, PIECE_SAFETY, PIECE_PAIR,
 * PIECE_SET) are computed only where the build's DAMA_SHATRA_RELATIONS
 * mask names them (CMake -DDAMA_SHATRA_RELATIONS=...; docs/eval.md,
 * "Shatra: fortress, safety and pairs"): the tables a build leaves out stay
 * in the weight layout and add nothing (Game.term_computed says which). */
#ifndef DAMA_SHATRA_RELATIONS
#define DAMA_SHATRA_RELATIONS 0
#endif
#define SH_REL_FORTRESS (DAMA_SHATRA_RELATIONS & 1)
#define SH_REL_SAFETY (DAMA_SHATRA_RELATIONS & 2)
#define SH_REL_PAIR (DAMA_SHATRA_RELATIONS & 4)
#define SH_REL_SET (DAMA_SHATRA_RELATIONS & 8)

#endif
