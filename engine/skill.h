/* skill.h — named levels of play that people can beat, and the engine's
 * answer to a draw offer.
 *
 * A weakened level searches every root move to a small fixed depth (a
 * multi-PV-like loop over engine_search, one search per root move) and then
 * picks at random among the moves within `margin_cp` of the best, weighting
 * a move that is d centi-men worse by exp(-d / temperature_cp). The random
 * stream is the caller's (a splitmix64 state, util/rng.h): the same seed,
 * position and level give the same move. `max` is no weakening at all: the
 * caller's own search limits, the best move.
 *
 * Pure: no I/O, no globals; one Engine per thread as for engine_search.
 */
#ifndef DAMA_SKILL_H
#define DAMA_SKILL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "engine/search.h"

typedef struct SkillLevel {
    const char *name;     /* "beginner", "casual", "club", "strong", "max" */
    int depth;            /* plies each root move is searched to (after the move); 0 = full strength */
    int margin_cp;        /* candidates: root moves within this many centi-men of the best */
    int temperature_cp;   /* softmax temperature over the candidates' score deficits, centi-men */
    const char *doc;      /* one line for --help */
} SkillLevel;

/* The named level, or NULL. Names: beginner, casual, club, strong, max. */
const SkillLevel *skill_find(const char *name);
/* NULL-terminated list of the levels, weakest first. */
const SkillLevel *const *skill_list(void);

/* Choose a move at `level` for root (a position of `game`, the engine's game) (history as engine_search takes it:
 * history[len-1] is root's parent). A full-strength level (depth 0) runs
 * one engine_search with `limits`; a weakened one ignores `limits` and runs
 * one search of level->depth - 1 plies per root move, a root move that ends
 * the game (game_outcome with the history) scored by its result.
 * *rng is advanced by one draw for a weakened level. r receives the chosen
 * move in r->best, its score (side to move's view, centi-men or a win
 * score), the nodes of all searches, and the PV of the chosen move's
 * search (the move first). Returns 0; r->has_move is false when root has
 * no legal move. Returns -1 with err only when out of memory. */
int skill_choose(Engine *e, const Game *game, const Position *root, const uint64_t *history, int history_len, const SkillLevel *level,
                 const SearchLimits *limits, uint64_t *rng, SearchResult *r, char err[ERR_MAX]);

/* Should the engine accept a draw offered in `pos` (any side to move), the
 * engine playing `engine_side`? A search with `limits` scores the position;
 * the offer is accepted when the engine's score is at most accept_cp
 * (centi-men, e.g. 0: level or worse; a draw by the rules scores 0): a draw
 * or a lost position for it, as the Shatra rules' computer opponent does.
 * *score (may be NULL) receives the engine's score (its own view). Returns
 * true to accept. */
bool engine_accept_draw(Engine *e, const Game *game, const Position *pos, const uint64_t *history, int history_len, Color engine_side,
                        const SearchLimits *limits, int accept_cp, int *score);

#endif
