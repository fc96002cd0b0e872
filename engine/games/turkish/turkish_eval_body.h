/* turkish_eval_body.h — the Turkish evaluation, written once, compiled plain
 * (turkish_eval.c) and traced (turkish_eval_traced.c). Terms:
 * eval_terms.def; every term is White minus Black. */
#include "engine/eval_body.h"
#include "engine/games/draughts/draughts.h"
#include "engine/games/turkish/turkish.h"

#define TU_FILE_A 0x0101010101010101ULL
#define TU_FILE_H (TU_FILE_A << 7)

/* Pattern blocks (eval_terms.def PATTERN, docs/eval.md): 2x4 block k = 2p+h
 * is the nibble of rank 2p at file 4h (digits 0-3) and the one of rank
 * 2p+1 (digits 4-7): shift 16p + 4h; 4x2 block 8 + 4q + m is the 2-bit
 * pieces of ranks 4q..4q+3 at file 2m: shift 32q + 2m. Block k of Black's
 * view is block 7-k (2x4) or 23-k (4x2) of the board with its digits in
 * reverse order (the 180-degree turn), read through base3[1] of
 * draughts_tables. DAMA_TU_PATTERNS 0 compiles them out (an experiment
 * switch). */
#ifndef DAMA_TU_PATTERNS
#define DAMA_TU_PATTERNS 16
#endif
#if DAMA_TU_PATTERNS != 16 && DAMA_TU_PATTERNS != 0
#error "DAMA_TU_PATTERNS must be 16 or 0"
#endif
enum { TU_PATTERN_STATES = 6561 };

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
#if DAMA_TU_PATTERNS
    {
        /* Read with constant shifts (measured: the loops with variable
         * shifts cost 1.21x the scalar model's search instructions). 2x4:
         * byte 2p of w2[h] (b2[h]) is block 2p+h (ranks 2p and 2p+1, files 4h..4h+3:
         * the low nibbles of a rank, with the next rank's shifted above).
         * 4x2: byte 4q of w4[m] (b4[m]) is block 8+4q+m (the 2-bit pieces of
         * files 2m, 2m+1 on ranks 4q..4q+3, gathered a rank every 2 bits). */
        const uint16_t(*base3)[256] = draughts_tables.base3;
        const uint64_t nib = 0x0F0F0F0F0F0F0F0FULL, two = 0x0303030303030303ULL;
        uint64_t w2[2], b2[2], w4[4], b4[4];
        for (int h = 0; h < 2; h++) {
            uint64_t wn = p->pieces[0] >> (4 * h) & nib, bn = p->pieces[1] >> (4 * h) & nib;
            w2[h] = wn | wn >> 4, b2[h] = bn | bn >> 4;
        }
        for (int m = 0; m < 4; m++) {
            uint64_t wc = p->pieces[0] >> (2 * m) & two, bc = p->pieces[1] >> (2 * m) & two;
            w4[m] = wc | wc >> 6 | wc >> 12 | wc >> 18, b4[m] = bc | bc >> 6 | bc >> 12 | bc >> 18;
        }
#define TU_BLOCK(k, mirror, wsrc, bsrc, shift)                                                      \
    do {                                                                                           \
        unsigned w8 = (unsigned)((wsrc) >> (shift) & 0xFF), b8 = (unsigned)((bsrc) >> (shift) & 0xFF); \
        EVAL_ADD(TU_PATTERN + TU_PATTERN_STATES * (k) + base3[0][w8] + 2 * base3[0][b8], 1);       \
        EVAL_ADD(TU_PATTERN + TU_PATTERN_STATES * (mirror) + base3[1][b8] + 2 * base3[1][w8], -1); \
    } while (0)
#define TU_2X4(pr, h) TU_BLOCK(2 * (pr) + (h), 7 - (2 * (pr) + (h)), w2[h], b2[h], 16 * (pr))
#define TU_4X2(q, m) TU_BLOCK(8 + 4 * (q) + (m), 15 - 4 * (q) - (m), w4[m], b4[m], 32 * (q))
        TU_2X4(0, 0); TU_2X4(0, 1); TU_2X4(1, 0); TU_2X4(1, 1);
        TU_2X4(2, 0); TU_2X4(2, 1); TU_2X4(3, 0); TU_2X4(3, 1);
        TU_4X2(0, 0); TU_4X2(0, 1); TU_4X2(0, 2); TU_4X2(0, 3);
        TU_4X2(1, 0); TU_4X2(1, 1); TU_4X2(1, 2); TU_4X2(1, 3);
#undef TU_2X4
#undef TU_4X2
#undef TU_BLOCK
    }
#endif
    EVAL_ADD(TU_TEMPO, p->side == COLOR_WHITE ? 1 : -1);
    EVAL_RETURN(total < TU_PHASE_MAX ? total : TU_PHASE_MAX, TU_PHASE_MAX);
}
#undef EVAL_ADD
#undef EVAL_RETURN
