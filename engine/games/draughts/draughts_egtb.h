/* draughts_egtb.h — endgame-database indexing of the draughts boards, by
 * geometry (8x8 diagonal: the 32 dark squares; 8x8 orthogonal: all 64;
 * 10x10 diagonal: the 50 dark squares; 12x12 diagonal: the 72 dark
 * squares, on the 128-bit DraughtsPosWide), for a variant's EgtbIndexer
 * (engine/egtb/egtb.h). A variant builds its own indexer from one of the
 * function sets below and adds what its rules bring (a move-count draw
 * rule, a symmetry):
 *
 *     static const EgtbIndexer EGTB = {.game = &my_game, DRAUGHTS_EGTB_DIAGONAL,
 *                                      .rule_plies_left = my_rule_plies_left};
 *
 * The index scheme is described in draughts_egtb.c. Every function is pure
 * and thread-safe once draughts_egtb_init() has run. */
#ifndef DAMA_DRAUGHTS_EGTB_H
#define DAMA_DRAUGHTS_EGTB_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/egtb/egtb.h"
#include "engine/game.h"

/* Fill the indexing tables (binomials, the squares of each geometry, read
 * from draughts_tables' rank and file tables, which must be filled).
 * Idempotent, not thread-safe: draughts_init() calls it, last. */
void draughts_egtb_init(void);

/* Material of a draughts position (men and kings by colour). */
EgtbMaterial draughts_egtb_material(const Position *pos);

/* EgtbIndexer.size, .index, .decode and .unmoves on the diagonal board. */
uint64_t draughts_egtb_diagonal_size(EgtbMaterial m);
bool draughts_egtb_diagonal_index(const Position *pos, EgtbMaterial m, uint64_t *idx);
bool draughts_egtb_diagonal_decode(EgtbMaterial m, uint64_t idx, Position *pos);
int draughts_egtb_diagonal_unmoves(const Position *pos, void (*fn)(void *ctx, const Position *q), void *ctx);
/* The unmoves of short kings (one step back; English, Italian): the same
 * board and index as the diagonal one. */
int draughts_egtb_diagonal_short_unmoves(const Position *pos, void (*fn)(void *ctx, const Position *q), void *ctx);

/* The same on the orthogonal board (men on ranks 2-7: a man never moves
 * backward, so none stands on its own first rank). */
uint64_t draughts_egtb_orthogonal_size(EgtbMaterial m);
bool draughts_egtb_orthogonal_index(const Position *pos, EgtbMaterial m, uint64_t *idx);
bool draughts_egtb_orthogonal_decode(EgtbMaterial m, uint64_t idx, Position *pos);
int draughts_egtb_orthogonal_unmoves(const Position *pos, void (*fn)(void *ctx, const Position *q), void *ctx);

/* The same on the 10x10 board (International; draughts.h's square indices
 * (11 * rank + file) / 2, men on the 45 squares short of their crowning
 * rank, flying kings). */
uint64_t draughts_egtb_diagonal10_size(EgtbMaterial m);
bool draughts_egtb_diagonal10_index(const Position *pos, EgtbMaterial m, uint64_t *idx);
bool draughts_egtb_diagonal10_decode(EgtbMaterial m, uint64_t idx, Position *pos);
int draughts_egtb_diagonal10_unmoves(const Position *pos, void (*fn)(void *ctx, const Position *q), void *ctx);

/* The same on the 12x12 board (Canadian) for a DraughtsPosWide: square
 * indices (13 * rank + file) / 2, men on the 66 squares short of their
 * crowning rank (White's 72..77, Black's 0..5), flying kings. The
 * material function counts the 128-bit sets. */
EgtbMaterial draughts_egtb_material_wide(const Position *pos);
uint64_t draughts_egtb_diagonal12_size(EgtbMaterial m);
bool draughts_egtb_diagonal12_index(const Position *pos, EgtbMaterial m, uint64_t *idx);
bool draughts_egtb_diagonal12_decode(EgtbMaterial m, uint64_t idx, Position *pos);
int draughts_egtb_diagonal12_unmoves(const Position *pos, void (*fn)(void *ctx, const Position *q), void *ctx);

/* EgtbIndexer.symmetry of the left-right mirror (file a <-> h), for a
 * variant whose rules and values it keeps (not a diagonal board: it maps
 * dark squares to light ones). The representative of a pair is the one
 * whose (white pieces, black pieces, kings) bitboards are smaller, in that
 * order. */
int draughts_egtb_mirror_files(const Position *pos, Position *image, bool *self);

/* The geometry's functions, as designated initializers of an EgtbIndexer. */
#define DRAUGHTS_EGTB_DIAGONAL                                                                          \
    .size = draughts_egtb_diagonal_size, .material = draughts_egtb_material,                           \
    .index = draughts_egtb_diagonal_index, .decode = draughts_egtb_diagonal_decode,                     \
    .unmoves = draughts_egtb_diagonal_unmoves
#define DRAUGHTS_EGTB_DIAGONAL_SHORT                                                                    \
    .size = draughts_egtb_diagonal_size, .material = draughts_egtb_material,                           \
    .index = draughts_egtb_diagonal_index, .decode = draughts_egtb_diagonal_decode,                     \
    .unmoves = draughts_egtb_diagonal_short_unmoves
#define DRAUGHTS_EGTB_ORTHOGONAL                                                                        \
    .size = draughts_egtb_orthogonal_size, .material = draughts_egtb_material,                         \
    .index = draughts_egtb_orthogonal_index, .decode = draughts_egtb_orthogonal_decode,                 \
    .unmoves = draughts_egtb_orthogonal_unmoves
#define DRAUGHTS_EGTB_DIAGONAL10                                                                        \
    .size = draughts_egtb_diagonal10_size, .material = draughts_egtb_material,                         \
    .index = draughts_egtb_diagonal10_index, .decode = draughts_egtb_diagonal10_decode,                 \
    .unmoves = draughts_egtb_diagonal10_unmoves
#define DRAUGHTS_EGTB_DIAGONAL12                                                                        \
    .size = draughts_egtb_diagonal12_size, .material = draughts_egtb_material_wide,                    \
    .index = draughts_egtb_diagonal12_index, .decode = draughts_egtb_diagonal12_decode,                 \
    .unmoves = draughts_egtb_diagonal12_unmoves

#endif
