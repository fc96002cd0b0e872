/* search.h — iterative-deepening alpha-beta (PVS) over any Game.
 *
 * One Engine per thread: it owns its transposition table, killer and
 * history tables and search stack; N engines run in one process without
 * locks. Scores are centi-men from the side to move's view; a won game is
 * SCORE_WIN - plies to the win, a lost one the negation. Searches limited by
 * depth or nodes are deterministic (same engine state in, same result out);
 * a movetime limit is not.
 */
#ifndef DAMA_SEARCH_H
#define DAMA_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

enum { SCORE_WIN = 30000, SCORE_WIN_MIN = SCORE_WIN - 1000, SCORE_INF = 32000 };

typedef struct SearchLimits {
    int depth;          /* plies; 0 = no depth limit (then nodes or movetime must be set) */
    uint64_t nodes;     /* node budget; 0 = none */
    int64_t movetime_ms; /* wall-clock budget in milliseconds; 0 = none */
} SearchLimits;

typedef struct SearchResult {
    bool has_move;   /* false when the root has no legal move */
    Move best;
    int score;       /* side to move's view, centi-men or a win score */
    int depth;       /* last completed iteration */
    uint64_t nodes;  /* all nodes visited, quiescence included */
    double seconds;
    int pv_len;
    Move pv[PLY_MAX];
} SearchResult;

/* Called after each completed iteration (may be NULL). */
typedef void (*SearchInfoFn)(void *ctx, const SearchResult *r);

typedef struct Engine Engine;

/* New engine for `game` with a transposition table of about hash_mb MiB
 * (rounded down to a power of two entries, at least 1 MiB). Uses the
 * game's compiled-in weights until engine_set_weights. NULL if out of
 * memory. Memory: the TT plus about 1.5 MiB of stacks. */
Engine *engine_new(const Game *game, size_t hash_mb);
void engine_free(Engine *e);
/* Weights used by the evaluation (not copied: must outlive the engine's use;
 * NULL restores the compiled-in ones). */
void engine_set_weights(Engine *e, const int32_t *weights);
/* Forget the TT, killers and history (a new game). */
void engine_clear(Engine *e);
/* Stop flag polled during the search (may be NULL): a non-zero value ends
 * the search as soon as one iteration has completed. */
void engine_set_stop_flag(Engine *e, volatile int *stop);

/* Search `root`. history[0..history_len) are the Zobrist keys of the game's
 * earlier positions (history[len-1] is root's parent), for repetition.
 * Returns 0; r->has_move is false if the root has no legal move. */
int engine_search(Engine *e, const Position *root, const uint64_t *history, int history_len,
                  const SearchLimits *limits, SearchResult *r, SearchInfoFn info, void *info_ctx);

/* Optional probe of an exact oracle (an endgame database), called at every
 * node below the root (whose moves are so scored exactly) after the draw
 * rules: returns true and sets *score, side to move's view, when pos's
 * value is known: 0 a draw, SCORE_WIN - d a win in d plies from pos,
 * -(SCORE_WIN - d) a loss in d plies. fn decides which positions it knows
 * (e.g. by piece count) and must be safe to call from the engine's thread;
 * ctx belongs to the caller. fn NULL removes the probe. */
typedef bool (*EngineProbeFn)(void *ctx, const Position *pos, int *score);
void engine_set_probe(Engine *e, EngineProbeFn fn, void *ctx);

/* Static evaluation from the side to move's view with the engine's weights. */
int engine_evaluate(const Engine *e, const Position *pos);

/* Quiescence value of pos at the root (captures resolved), side to move's view. */
int engine_quiescence(Engine *e, const Position *pos);

#endif
