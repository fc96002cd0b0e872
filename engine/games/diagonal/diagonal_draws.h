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
    /* A single king against one or two pieces, one of them a king. */
    const char *small_id;
    int small_plies;
} DiagonalDraws;

/* Men and kings of each colour. */
static inline void diagonal_count(const DraughtsPos *p, int pieces[2], int kings[2])
{
    for (int c = 0; c < 2; c++) {
        pieces[c] = __builtin_popcountll(p->pieces[c]);
        kings[c] = __builtin_popcountll(p->pieces[c] & p->kings);
    }
}

/* Plies the material of pos may still last before one of r's rules draws
 * the game (0: it is drawn now); INT32_MAX if none applies. The reason of
 * the earliest rule goes to *reason. */
static inline int diagonal_plies_left(const DiagonalDraws *r, const DraughtsPos *p, const char **reason)
{
    int left = INT32_MAX;
    *reason = NULL;
    if (!p->pieces[0] || !p->pieces[1]) return left;
    if (r->quiet_plies) {
        left = r->quiet_plies - p->reversible;
        *reason = r->quiet_id;
    }
    int pieces[2], kings[2];
    diagonal_count(p, pieces, kings);
    for (int strong = 0; strong < 2; strong++) {
        int weak = strong ^ 1;
        if (pieces[weak] != 1 || kings[weak] != 1 || kings[strong] == 0) continue;
        int mp = p->material_plies;
        bool big = pieces[strong] == 3 && (!r->big_all_kings || kings[strong] == 3);
        if (r->big_plies && big && r->big_plies - mp < left) {
            left = r->big_plies - mp;
            *reason = r->big_id;
        }
        if (r->small_plies && pieces[strong] <= 2 && r->small_plies - mp < left) {
            left = r->small_plies - mp;
            *reason = r->small_id;
        }
    }
    return left < 0 ? 0 : left;
}

static inline Outcome diagonal_rule_outcome(const DiagonalDraws *r, const Position *pos, const char **reason)
{
    const char *why;
    if (diagonal_plies_left(r, (const DraughtsPos *)pos->data, &why) > 0) return OUTCOME_NONE;
    *reason = why;
    return OUTCOME_DRAW;
}

#endif
