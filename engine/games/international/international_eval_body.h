/* international_eval_body.h — the International draughts evaluation,
 * written once: included by international_eval.c (EVAL_TRACED 0) and
 * international_eval_traced.c (EVAL_TRACED 1). Terms: eval_terms.def;
 * every term is White minus Black. Squares are the 10x10 indices of
 * draughts.h (index = (11 * rank + file) / 2; the turn by 180 degrees maps
 * index s to 54 - s). */
#include "engine/eval_body.h"
#include "engine/games/draughts/draughts.h"
#include "engine/games/international/international.h"

/* a1, b2, ..., j10: index 6 * rank */
#define IN_MAIN_ROAD 0x0041041041041041ULL
#define IN_RANK1 0x1FULL
#define IN_RANK10 (0x1FULL << 50)

/* Tables of international_eval.c, built by international_eval_init(). */
extern uint64_t international_runaway_cone[2][64];
extern uint64_t international_centre6, international_centre12, international_runaway_from[2];
extern int8_t international_pst_index[64];

#undef EVAL_EG_OFFSET
#define EVAL_EG_OFFSET IN_EG_OFFSET

EVAL_FUNCTION(international_evaluate, international_evaluate_traced)
{
    const DraughtsPos *p = (const DraughtsPos *)pos->data;
    int32_t score = 0, score_eg = 0;
    uint64_t all = p->pieces[0] | p->pieces[1];
    int total = __builtin_popcountll(all);
    for (int c = 0; c < 2; c++) {
        int sign = c == COLOR_WHITE ? 1 : -1;
        uint64_t own = p->pieces[c];
        uint64_t men = own & ~p->kings, kings = own & p->kings;
        uint64_t opp_kings = p->pieces[c ^ 1] & p->kings;
        EVAL_ADD(IN_MAN, sign * __builtin_popcountll(men));
        EVAL_ADD(IN_KING, sign * __builtin_popcountll(kings));
        int advance = 0, runaway = 0;
        for (uint64_t b = men; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            int own_sq = c == COLOR_WHITE ? sq : 54 - sq;
            EVAL_ADD(IN_MAN_PST + international_pst_index[own_sq], sign);
            advance += (2 * own_sq) / 11;
            if ((international_runaway_from[c] >> sq & 1) && !(international_runaway_cone[c][sq] & all)) runaway++;
        }
        EVAL_ADD(IN_KING_MAIN_ROAD, sign * __builtin_popcountll(kings & IN_MAIN_ROAD));
        EVAL_ADD(IN_KING_CENTRE, sign * __builtin_popcountll(kings & international_centre12));
        if (!opp_kings)
            EVAL_ADD(IN_BACK_GUARD, sign * __builtin_popcountll(men & (c == COLOR_WHITE ? IN_RANK1 : IN_RANK10)));
        EVAL_ADD(IN_CENTRE, sign * __builtin_popcountll(own & international_centre6));
        if (total <= 16) EVAL_ADD(IN_ENDGAME_ADVANCE, sign * advance);
        EVAL_ADD(IN_MOBILITY, sign * international_count_quiet(p, c));
        EVAL_ADD(IN_RUNAWAY_MAN, sign * runaway);
        if (!opp_kings) EVAL_ADD(IN_KING_VS_MEN, sign * __builtin_popcountll(kings));
    }
    EVAL_ADD(IN_TEMPO, p->side == COLOR_WHITE ? 1 : -1);
    EVAL_RETURN(total < IN_PHASE_MAX ? total : IN_PHASE_MAX, IN_PHASE_MAX);
}
#undef EVAL_ADD
#undef EVAL_RETURN
