/* canadian_eval_body.h — the Canadian draughts evaluation, written once:
 * included by canadian_eval.c (EVAL_TRACED 0) and canadian_eval_traced.c
 * (EVAL_TRACED 1). Terms: eval_terms.def; every term is White minus
 * Black. Squares are the 12x12 indices of draughts.h (index = (13 * rank
 * + file) / 2; the turn by 180 degrees maps index s to 77 - s). */
#include "engine/eval_body.h"
#include "engine/games/canadian/canadian.h"
#include "engine/games/draughts/draughts.h"

/* Tables of canadian_eval.c, built by canadian_eval_init(). */
extern DraughtsWide canadian_main_road, canadian_centre6, canadian_centre12, canadian_back_rank[2];
extern int8_t canadian_pst_index[DRAUGHTS_INDEX_MAX];

static inline int ca_pop(DraughtsWide b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

#undef EVAL_EG_OFFSET
#define EVAL_EG_OFFSET CA_EG_OFFSET

EVAL_FUNCTION(canadian_evaluate, canadian_evaluate_traced)
{
    const DraughtsPosWide *p = (const DraughtsPosWide *)pos->data;
    int32_t score = 0, score_eg = 0;
    DraughtsWide all = p->pieces[0] | p->pieces[1];
    int total = ca_pop(all);
    for (int c = 0; c < 2; c++) {
        int sign = c == COLOR_WHITE ? 1 : -1;
        DraughtsWide own = p->pieces[c];
        DraughtsWide men = own & ~p->kings, kings = own & p->kings;
        DraughtsWide opp_kings = p->pieces[c ^ 1] & p->kings;
        EVAL_ADD(CA_MAN, sign * ca_pop(men));
        EVAL_ADD(CA_KING, sign * ca_pop(kings));
        int advance = 0;
        for (DraughtsWide b = men; b; b &= b - 1) {
            uint64_t lo = (uint64_t)b;
            int sq = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
            int own_sq = c == COLOR_WHITE ? sq : 77 - sq;
            EVAL_ADD(CA_MAN_PST + canadian_pst_index[own_sq], sign);
            advance += (2 * own_sq) / 13;
        }
        EVAL_ADD(CA_KING_MAIN_ROAD, sign * ca_pop(kings & canadian_main_road));
        EVAL_ADD(CA_KING_CENTRE, sign * ca_pop(kings & canadian_centre12));
        if (!opp_kings) EVAL_ADD(CA_BACK_GUARD, sign * ca_pop(men & canadian_back_rank[c]));
        EVAL_ADD(CA_CENTRE, sign * ca_pop(own & canadian_centre6));
        if (total <= 20) EVAL_ADD(CA_ENDGAME_ADVANCE, sign * advance);
        EVAL_ADD(CA_MOBILITY, sign * canadian_count_quiet(p, c));
        if (!opp_kings) EVAL_ADD(CA_KING_VS_MEN, sign * ca_pop(kings));
    }
    EVAL_ADD(CA_TEMPO, p->side == COLOR_WHITE ? 1 : -1);
    EVAL_RETURN(total < CA_PHASE_MAX ? total : CA_PHASE_MAX, CA_PHASE_MAX);
}
#undef EVAL_ADD
#undef EVAL_RETURN
