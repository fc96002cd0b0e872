/* russian_eval_body.h — the evaluation of the 8x8 diagonal draughts
 * variants (Russian's terms), written once. Included by russian_eval.c
 * (EVAL_TRACED 0) and russian_eval_traced.c (EVAL_TRACED 1): the traced
 * evaluator is the same source compiled a second time. A variant whose
 * quiet moves differ from Russian's (short kings) compiles it again under
 * its own names, defining before the include
 *     DIAG_EVAL, DIAG_EVAL_TRACED  the two functions' names
 *     DIAG_COUNT_QUIET             its quiet-move counter (the MOBILITY term)
 * (engine/games/english/english_eval.c). Terms: eval_terms.def; every term
 * is White minus Black. */
#include "engine/eval_body.h"
#include "engine/games/draughts/draughts.h"
#include "engine/games/russian/russian.h"

#define RU_MAIN_ROAD 0x8040201008040201ULL
#define RU_CENTRE4 ((1ULL << 27) | (1ULL << 29) | (1ULL << 34) | (1ULL << 36)) /* d4 f4 c5 e5 */
#define RU_CENTRE8 (RU_CENTRE4 | (1ULL << 18) | (1ULL << 20) | (1ULL << 43) | (1ULL << 45))
#define RU_RANK1 0x00000000000000FFULL
#define RU_RANK8 0xFF00000000000000ULL
/* Men on these ranks are tested for a free run (White: ranks 5-7). */
#define RU_RUNAWAY_FROM_W 0x00FFFFFF00000000ULL
#define RU_RUNAWAY_FROM_B 0x00000000FFFFFF00ULL

#ifndef DIAG_EVAL
#define DIAG_EVAL russian_evaluate
#define DIAG_EVAL_TRACED russian_evaluate_traced
#define DIAG_COUNT_QUIET russian_count_quiet
#endif

extern uint64_t russian_runaway_cone[2][64];
int DIAG_COUNT_QUIET(const DraughtsPos *p, int side);

/* Pattern regions (eval_terms.def PATTERN, docs/eval.md). A region is read
 * from the folded board f = b | b >> 8, whose byte r holds the dark squares
 * of rows r and r+1 (bit = file): its 8 digits are the nibble of f at
 * shift lo (digits 0-3) and at shift hi (digits 4-7). Region k of the
 * owner's view of Black is region N-1-k of the board with its digits in
 * reverse order (the 180-degree turn), read through base3[1] of draughts_tables.
 * DAMA_RU_PATTERNS selects the set (an experiment switch, docs/eval.md):
 * 9 overlapping 4x4 windows (default), 4 disjoint 4x4 windows, 7 strips of
 * two rows, or 0 (none); every set uses the first N regions of the table. */
#ifndef DAMA_RU_PATTERNS
#define DAMA_RU_PATTERNS 9
#endif
#if DAMA_RU_PATTERNS == 9
static const uint8_t RU_REGION[][2] = {{0, 16}, {2, 18}, {4, 20}, {16, 32}, {18, 34}, {20, 36}, {32, 48}, {34, 50}, {36, 52}};
#elif DAMA_RU_PATTERNS == 4
static const uint8_t RU_REGION[][2] = {{0, 16}, {4, 20}, {32, 48}, {36, 52}};
#elif DAMA_RU_PATTERNS == 7
static const uint8_t RU_REGION[][2] = {{0, 4}, {8, 12}, {16, 20}, {24, 28}, {32, 36}, {40, 44}, {48, 52}};
#elif DAMA_RU_PATTERNS != 0
#error "DAMA_RU_PATTERNS must be 9, 4, 7 or 0"
#endif
enum { RU_PATTERN_STATES = 6561 };

#undef EVAL_EG_OFFSET
#define EVAL_EG_OFFSET RU_EG_OFFSET

EVAL_FUNCTION(DIAG_EVAL, DIAG_EVAL_TRACED)
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
        EVAL_ADD(RU_MAN, sign * __builtin_popcountll(men));
        EVAL_ADD(RU_KING, sign * __builtin_popcountll(kings));
        int advance = 0, runaway = 0;
        uint64_t runaway_from = c == COLOR_WHITE ? RU_RUNAWAY_FROM_W : RU_RUNAWAY_FROM_B;
        for (uint64_t b = men; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            int own_sq = c == COLOR_WHITE ? sq : 63 - sq;
            EVAL_ADD(RU_MAN_PST + own_sq / 2, sign);
            advance += own_sq / 8;
            if ((runaway_from >> sq & 1) && !(russian_runaway_cone[c][sq] & all)) runaway++;
        }
        EVAL_ADD(RU_KING_MAIN_ROAD, sign * __builtin_popcountll(kings & RU_MAIN_ROAD));
        EVAL_ADD(RU_KING_CENTRE, sign * __builtin_popcountll(kings & RU_CENTRE8));
        if (!opp_kings)
            EVAL_ADD(RU_BACK_GUARD, sign * __builtin_popcountll(men & (c == COLOR_WHITE ? RU_RANK1 : RU_RANK8)));
        EVAL_ADD(RU_CENTRE, sign * __builtin_popcountll(own & RU_CENTRE4));
        if (total <= 10) EVAL_ADD(RU_ENDGAME_ADVANCE, sign * advance);
        EVAL_ADD(RU_MOBILITY, sign * DIAG_COUNT_QUIET(p, c));
        EVAL_ADD(RU_RUNAWAY_MAN, sign * runaway);
        if (!opp_kings) EVAL_ADD(RU_KING_VS_MEN, sign * __builtin_popcountll(kings));
    }
#if DAMA_RU_PATTERNS
    {
        enum { N = (int)(sizeof RU_REGION / sizeof RU_REGION[0]) };
        const uint16_t(*base3)[256] = draughts_tables.base3;
        uint64_t fw = p->pieces[0] | p->pieces[0] >> 8, fb = p->pieces[1] | p->pieces[1] >> 8;
        /* unrolled: constant shifts (callgrind, bench depth 11: 0.959x the search instructions of the loop) */
#pragma GCC unroll 16
        for (int k = 0; k < N; k++) {
            unsigned lo = RU_REGION[k][0], hi = RU_REGION[k][1];
            unsigned wb = (unsigned)(fw >> lo & 15) | (unsigned)(fw >> hi & 15) << 4;
            unsigned bb = (unsigned)(fb >> lo & 15) | (unsigned)(fb >> hi & 15) << 4;
            EVAL_ADD(RU_PATTERN + RU_PATTERN_STATES * k + base3[0][wb] + 2 * base3[0][bb], 1);
            EVAL_ADD(RU_PATTERN + RU_PATTERN_STATES * (N - 1 - k) + base3[1][bb] + 2 * base3[1][wb], -1);
        }
    }
#endif
    EVAL_ADD(RU_TEMPO, p->side == COLOR_WHITE ? 1 : -1);
    EVAL_RETURN(total < RU_PHASE_MAX ? total : RU_PHASE_MAX, RU_PHASE_MAX);
}
#undef EVAL_ADD
#undef EVAL_RETURN
