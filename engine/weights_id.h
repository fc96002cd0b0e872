/* weights_id.h — identities of an evaluation layout and of a weight set:
 * the one definition of the weight-set hash, used by the exporters (C
 * header, JSON), the loaders, the library API and the database (db/db.h,
 * db_weights_hash, and the stored rows' hash column).
 *
 * Layout version: FNV-1a 64 over the game's name and, for every term of
 * its term list in order, "NAME:COUNT;" — it changes whenever a term is
 * added, removed, renamed, resized or moved, so weights exported for one
 * evaluation are never read into another. Weight-set hash: FNV-1a 64 over
 * the canonical text "game NUL names NUL values", names the comma-joined
 * weight names (NAME, or NAME[j] in a table) and values the comma-joined
 * decimal weights — the hash of the weight_sets row the weights were
 * exported from; stored hashes depend on these bytes, never change them.
 * FNV-1a: Fowler, Noll, Vo (offset basis 14695981039346656037, prime
 * 1099511628211), http://www.isthe.com/chongo/tech/comp/fnv/.
 * Pure functions, thread-safe. */
#ifndef DAMA_WEIGHTS_ID_H
#define DAMA_WEIGHTS_ID_H

#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

enum {
    WEIGHTS_ID_MAX = 32,     /* bytes of a layout or hash text, with its NUL */
    WEIGHT_VALUE_MAX = 5000  /* largest weight magnitude a file may give (far below the win scores) */
};

/* FNV-1a 64's offset basis: the state before any byte. */
#define WEIGHTS_FNV_BASIS 14695981039346656037ULL

/* FNV-1a 64 continued from state h over len bytes of data (the hash of
 * bytes B is weights_fnv1a(WEIGHTS_FNV_BASIS, B, len)). The one copy of
 * the function: the tuner's key of a stored game uses it too. */
uint64_t weights_fnv1a(uint64_t h, const void *data, size_t len);

uint64_t weights_layout_id(const Game *game);

/* The weight-set hash of `game`'s compiled term list with values weights
 * (game->weights_len of them). */
uint64_t weights_hash(const Game *game, const int32_t *weights);

/* The weight-set hash of its canonical text given as stored: game,
 * comma-joined names and comma-joined decimal values (no NULs inside). */
uint64_t weights_hash_canonical(const char *game, const char *names, const char *values);

/* The same hash taken piece by piece without building the text:
 * weights_hash_names is the state after "game NUL names NUL" (names[0..len)
 * joined by commas), weights_hash_values continues it over the values and
 * gives the hash. A caller hashing many weight sets of one name list keeps
 * the names' state and calls weights_hash_values for each. */
uint64_t weights_hash_names(const char *game, const char *const *names, int len);
uint64_t weights_hash_values(uint64_t names_state, const int32_t *weights, int len);

/* A generated weights.h as compiled (dama export --format c): its term
 * groups' names, offsets and counts and the weights in that order. */
typedef struct WeightsHeader {
    const char *const *names;
    const int *offsets, *counts;
    int terms_len;
    const int32_t *weights;
    int weights_len;
} WeightsHeader;

/* The WeightsHeader of the header whose macros start with P (RUSSIAN) and
 * whose arrays with p (russian). */
#define WEIGHTS_HEADER(P, p)                                                                                      \
    {p##_weights_term_names, p##_weights_term_offsets, p##_weights_term_counts, P##_WEIGHTS_TERMS_LEN, p##_weights, \
     P##_WEIGHTS_LEN}

/* Lay the weights of header h out in game's term layout, into
 * out[game->weights_len]: a term group with the same name and count in h is
 * copied, every other weight is 0. Returns the number of game's groups h
 * does not give this way: 0 when h was exported from this term list; after
 * a term is added, renamed or resized, the build still runs (the new group
 * at 0) and `dama export --weights default` writes the header anew
 * (docs/contributing.md). Thread-safe. */
int weights_adopt(const Game *game, const WeightsHeader *h, int32_t *out);

/* The compiled-in weights of header h in game's term layout: h's own
 * array when h was exported from this term list (the usual case: nothing
 * is copied, so a process pays no page faults for the games it does not
 * play), else buf[game->weights_len] laid out by weights_adopt. */
const int32_t *weights_laid_out(const Game *game, const WeightsHeader *h, int32_t *buf);

/* The layout id as 16 lower-case hex digits. */
void weights_layout_text(const Game *game, char out[WEIGHTS_ID_MAX]);
/* The hash as 16 lower-case hex digits. */
void weights_hash_text(const Game *game, const int32_t *weights, char out[WEIGHTS_ID_MAX]);

#endif
