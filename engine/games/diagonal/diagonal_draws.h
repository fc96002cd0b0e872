/* diagonal_draws.h — the move-count draw rules of the diagonal draughts
 * variants (8x8 and International) as data: a variant fills a
 * DiagonalDraws from its rule book and calls diagonal_rule_outcome from
 * its Game.rule_outcome. */
#ifndef DAMA_DIAGONAL_DRAWS_H
#define DAMA_DIAGONAL_DRAWS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "engine/games/draughts/draughts.h"

/* Move-count draws, rule by rule ("n moves" = n moves of each side = 2n
 * plies; the rule books of docs/rules/). A plies field of 0 turns a rule
 * off; the ids name the rule in game records. */
typedef struct DiagonalDraws {
    const char *quiet_id; /* no man move and no capture for quiet_plies plies */
    int quiet_plies;
    /* A single king against three pieces of which at least one is a king
     * (all three kings when big_all_kings), for big_plies plies since the
     * material arose (the last capture or promotion). */
    const char *big_id;
    int big_plies;
    bool big_all_kings;
    /* big_id draws only if the strong side has not won by its last counted
     * move ("must win within": a lone king then left without a move has
     * lost; d_draw_unless_won in draughts_impl.h) */
    bool big_unless_won;
    /* A single king against one or two pieces, one of them a king; when
     * the game counts by class (DraughtsRules.lone_king_counts), the count
     * of big_id runs on into this material and the earlier limit ends the
     * game. */
    const char *small_id;
    int small_plies;
} DiagonalDraws;

/* Plies the material may still last before one of r's rules draws the
 * game (0: it is drawn now), from each colour's pieces and kings and the
 * position's counters (big_plies: DraughtsPos.big_plies, 0 where the game
 * does not count by class); INT32_MAX if none applies. The reason of the
 * earliest rule goes to *reason. */
static inline int diagonal_plies_left_counts(const DiagonalDraws *r, const int pieces[2], const int kings[2],
                                             int reversible, int material_plies, int big_plies,
                                             const char **reason)
{
    int left = INT32_MAX;
    *reason = NULL;
    if (!pieces[0] || !pieces[1]) return left;
    if (r->quiet_plies) {
        left = r->quiet_plies - reversible;
        *reason = r->quiet_id;
    }
    for (int strong = 0; strong < 2; strong++) {
        int weak = strong ^ 1;
        if (pieces[weak] != 1 || kings[weak] != 1 || kings[strong] == 0) continue;
        int mp = material_plies;
        bool big = pieces[strong] == 3 && (!r->big_all_kings || kings[strong] == 3);
        if (r->big_plies && big && r->big_plies - mp < left) {
            left = r->big_plies - mp;
            *reason = r->big_id;
        }
        if (r->small_plies && pieces[strong] <= 2 && r->small_plies - mp < left) {
            left = r->small_plies - mp;
            *reason = r->small_id;
        }
        if (r->small_plies && r->big_plies && pieces[strong] <= 2 && r->big_plies - big_plies < left) {
            left = r->big_plies - big_plies; /* the big count, run on */
            *reason = r->big_id;
        }
    }
    return left < 0 ? 0 : left;
}

/* The same for a 64-bit draughts position. */
static inline int diagonal_plies_left(const DiagonalDraws *r, const DraughtsPos *p, const char **reason)
{
    int pieces[2], kings[2];
    for (int c = 0; c < 2; c++) {
        pieces[c] = __builtin_popcountll(p->pieces[c]);
        kings[c] = __builtin_popcountll(p->pieces[c] & p->kings);
    }
    return diagonal_plies_left_counts(r, pieces, kings, p->reversible, p->material_plies, p->big_plies, reason);
}

static inline Outcome diagonal_rule_outcome(const DiagonalDraws *r, const Position *pos, const char **reason)
{
    const char *why;
    if (diagonal_plies_left(r, (const DraughtsPos *)pos->data, &why) > 0) return OUTCOME_NONE;
    *reason = why;
    return OUTCOME_DRAW;
}

#endif
