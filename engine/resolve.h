/* resolve.h — quiet positions for the tuner: the leaf of the capture line
 * a quiescence search would play from a position.
 *
 * From a position where the side to move must capture, the resolver
 * searches the capture moves only (captures are compulsory in all three
 * games, so there is no stand-pat while one is pending), negamax with
 * alpha-beta over the static evaluation at the first position of each line
 * where the side to move has no capture, and returns that leaf of the
 * principal variation. The Texel method fits the static evaluation on
 * quiet positions (P. Österlund, "Texel's tuning method",
 * chessprogramming.org/Texel's_Tuning_Method: "positions where the
 * quiescence search ... returns the static evaluation"); replacing a stored
 * position by its qsearch PV leaf keeps positions that "no capture pending"
 * alone would drop. The leaf may still have a capture pending for the side
 * not to move (a threat); game->is_quiet tells.
 *
 * Library code: no globals, no I/O. A Resolver is one thread's scratch (it
 * holds a move list per ply); use one per thread. */
#ifndef DAMA_RESOLVE_H
#define DAMA_RESOLVE_H

#include <stdint.h>

#include "engine/game.h"

typedef struct Resolver Resolver;

/* A resolver for game g searching capture lines of at most max_plies plies
 * (1..64) and max_nodes nodes (>= 1) a call. NULL if out of memory or the
 * limits are out of range. */
Resolver *resolver_new(const Game *g, int max_plies, uint64_t max_nodes);
void resolver_free(Resolver *r); /* NULL is fine */

/* Resolve pos with `weights` (g->weights_len of them): writes the leaf of
 * the capture line's PV to *leaf (pos itself when the side to move has no
 * capture) and, if score is not NULL, the line's value (side to move's
 * view at pos, centi-men). Returns the PV's length in plies (0: pos was
 * resolved already), or -1 if a line reached max_plies or the search
 * max_nodes (*leaf is then unspecified). */
int resolver_run(Resolver *r, const Position *pos, const int32_t *weights, Position *leaf, int32_t *score);

#endif
