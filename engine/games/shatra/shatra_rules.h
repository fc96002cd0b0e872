/* shatra_rules.h — Shatra move generation, make and perft (shatra.md 3-7),
 * used by the game table (shatra.c) and the evaluation. Pure functions of
 * the position; thread-safe once shatra_board_init() has run. */
#ifndef DAMA_SHATRA_RULES_H
#define DAMA_SHATRA_RULES_H

#include "engine/games/shatra/shatra_board.h"

/* All legal turns (section 3-6) into list; returns their number. The D
 * convention keeps one move per (from, to, captured set, promotion type);
 * GEN_PATHS keeps one per landing path (and promotion choice). A side whose
 * Biy has been captured has no turn (the game is over, section 7).
 * Moves: MOVE_QUIET (step, slide, great-road exit; promo = type on arrival
 * on the back row), MOVE_CAPTURE (promo = type promoted to on the way or at
 * the end, aux[0] = index + 1 of the square where it promoted, 0 if none:
 * for information only, move identity ignores aux), MOVE_DROP (from = where
 * the piece stood), MOVE_PROMOTE (a waiting shatra, from == to). At most
 * MOVES_MAX moves are written. */
int shatra_gen(const ShatraPos *p, MoveList *list, GenMode mode);

/* Is a capture compulsory now: can a piece other than the Biy capture?
 * (Section 4: the Biy is never obliged; if only the Biy can capture, the
 * side may also make a non-capturing Biy turn.) */
bool shatra_capture_compulsory(const ShatraPos *p);

/* Child position after a legal move of p (copy-make). */
void shatra_make(const ShatraPos *p, const Move *m, ShatraPos *q);

/* Leaf count to depth >= 1. */
uint64_t shatra_perft(const ShatraPos *p, int depth, GenMode mode);

/* One capture route: the landing squares in order and where a shatra
 * promoted on the way (index into path, or -1). */
typedef struct ShatraRoute {
    Move move;
    int len;
    int promo_at;
    uint8_t path[SH_ROUTE_MAX];
} ShatraRoute;

enum { SH_ROUTES_MAX = 4096 };

typedef struct ShatraRoutes {
    int len;
    bool truncated;
    ShatraRoute routes[SH_ROUTES_MAX];
} ShatraRoutes;

/* Every capture route (every landing path, every prefix for the Biy) of the
 * piece on `from`, in a fixed order. Caller owns *routes (large: malloc). */
void shatra_routes_from(const ShatraPos *p, int from, ShatraRoutes *routes);

#endif
