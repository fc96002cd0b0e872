/* turkish_eval_body.h — the Turkish evaluation, written once, compiled plain
 * (turkish_eval.c) and traced (turkish_eval_traced.c). Terms:
 * eval_terms.def; every term is White minus Black. */
#include "engine/eval_body.h"
#include "games/draughts.h"
#include "games/turkish/turkish.h"

#define TU_FILE_A 0x0101010101010101ULL
#define TU_FILE_H (TU_FILE_A << 7)

#undef EVAL_EG_OFFSET
#define EVAL_EG_OFFSET TU_EG_OFFSET

EVAL_FUNCTION(turkish_evaluate, turkish_evaluate_traced)
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
        EVAL_ADD(TU_MAN, sign * __builtin_popcountll(men));
        EVAL_ADD(TU_KING, sign * __builtin_popcountll(kings));
        /* Neighbours: beside on the rank; behind (toward the owner). */
        uint64_t beside = ((own << 1) & ~TU_FILE_A) | ((own >> 1) & ~TU_FILE_H);
        uint64_t behind = c == COLOR_WHITE ? own << 8 : own >> 8;
        EVAL_ADD(TU_PAIR_SIDE, sign * __builtin_popcountll(men & beside));
        EVAL_ADD(TU_PAIR_BEHIND, sign * __builtin_popcountll(men & behind));
        int advance = 0, runaway = 0;
        for (uint64_t b = men; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            int own_sq = c == COLOR_WHITE ? sq : 63 - sq;
            EVAL_ADD(TU_MAN_PST + own_sq, sign);
            advance += own_sq / 8;
            /* The files f-1..f+1 on every rank ahead of the man. */
            int f = sq % 8, r = sq / 8;
            uint64_t files = TU_FILE_A << f;
            if (f > 0) files |= TU_FILE_A << (f - 1);
            if (f < 7) files |= TU_FILE_A << (f + 1);
            uint64_t ahead = c == COLOR_WHITE ? (r == 7 ? 0 : ~0ULL << (8 * (r + 1))) : (r == 0 ? 0 : ~0ULL >> (8 * (8 - r)));
            if (own_sq / 8 >= 3 && !(files & ahead & all)) runaway++;
        }
        if (!opp_kings) {
            uint64_t home = c == COLOR_WHITE ? 0x000000000000FFFFULL : 0xFFFF000000000000ULL;
            EVAL_ADD(TU_BACK_GUARD, sign * __builtin_popcountll(men & home));
        }
        EVAL_ADD(TU_KING_LINES, sign * turkish_count_king_moves(p, c));
        EVAL_ADD(TU_MOBILITY, sign * turkish_count_men_moves(p, c));
        EVAL_ADD(TU_RUNAWAY_MAN, sign * runaway);
        if (total <= 12) EVAL_ADD(TU_ENDGAME_ADVANCE, sign * advance);
        if (!opp_kings) EVAL_ADD(TU_KING_VS_MEN, sign * __builtin_popcountll(kings));
    }
    EVAL_ADD(TU_TEMPO, p->side == COLOR_WHITE ? 1 : -1);
    EVAL_RETURN(total < TU_PHASE_MAX ? total : TU_PHASE_MAX, TU_PHASE_MAX);
}
#undef EVAL_ADD
#undef EVAL_RETURN
