/* weights_id.h — identities of an evaluation layout and of a weight set,
 * shared by the exporters (C header, JSON) and the JSON loader.
 *
 * Layout version: FNV-1a 64 over the game's name and, for every term of
 * its term list in order, "NAME:COUNT;" — it changes whenever a term is
 * added, removed, renamed, resized or moved, so weights exported for one
 * evaluation are never read into another. Weight-set hash: the content
 * hash of db/db.h (db_weights_hash): FNV-1a 64 over the bytes "game NUL
 * names NUL values", names the comma-joined weight names (NAME, or
 * NAME[j] in a table) and values the comma-joined decimal weights — the
 * hash of the weight_sets row the weights were exported from.
 * FNV-1a: Fowler, Noll, Vo (offset basis 14695981039346656037, prime
 * 1099511628211), http://www.isthe.com/chongo/tech/comp/fnv/.
 * Pure functions, thread-safe. */
#ifndef DAMA_WEIGHTS_ID_H
#define DAMA_WEIGHTS_ID_H

#include <stdint.h>

#include "engine/game.h"

enum {
    WEIGHTS_ID_MAX = 32,     /* bytes of a layout or hash text, with its NUL */
    WEIGHT_VALUE_MAX = 5000  /* largest weight magnitude a file may give (far below the win scores) */
};

uint64_t weights_layout_id(const Game *game);
uint64_t weights_hash(const Game *game, const int32_t *weights);
/* The layout id as 16 lower-case hex digits. */
void weights_layout_text(const Game *game, char out[WEIGHTS_ID_MAX]);
/* The hash as 16 lower-case hex digits. */
void weights_hash_text(const Game *game, const int32_t *weights, char out[WEIGHTS_ID_MAX]);

#endif
