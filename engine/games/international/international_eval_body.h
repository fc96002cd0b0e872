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

/* Pattern regions (eval_terms.def PATTERN, docs/eval.md): 16 overlapping
 * 4x4 windows, k = 4a + b, ranks 2a..2a+3, files 2b..2b+3. A window is
 * read from the board folded by files: in_files(b) has, for each pair of
 * ranks a (ranks 2a, 2a+1), bit 11a + file set when the dark square of that
 * pair on that file holds a piece (the two ranks' dark squares lie on
 * alternate files, so each file has one). The 4 dark squares of a window
 * on one pair of ranks are then the nibble at 11a + 2b, digits 0-3, and
 * those on the next pair the nibble 11 bits up, digits 4-7 (as Russian's
 * folded board); moved 7 bits down beside the first, the 8 digits are one
 * byte. The 180-degree turn maps window k to 15 - k with its
 * digits reversed: Black's view reads draughts_tables.base3[1].
 * DAMA_IN_PATTERNS=0 (an experiment switch) leaves the term out. */
#ifndef DAMA_IN_PATTERNS
#define DAMA_IN_PATTERNS 16
#endif
#if DAMA_IN_PATTERNS != 16 && DAMA_IN_PATTERNS != 0
#error "DAMA_IN_PATTERNS must be 16 or 0"
#endif
enum { IN_PATTERN_STATES = 6561, IN_PATTERN_REGIONS = 16 };
/* A bit pattern repeated at every pair of ranks (11 bits apart). */
#define IN_PAIRS(m) ((m) | (m) << 11 | (m) << 22 | (m) << 33 | (m) << 44)

/* Bits 0-4 of each 11-bit group to bits 0, 2, 4, 6, 8 (within the group). */
static inline uint64_t in_spread5(uint64_t v)
{
    v = (v | v << 4) & IN_PAIRS(0x10FULL);
    v = (v | v << 2) & IN_PAIRS(0x133ULL);
    return (v | v << 1) & IN_PAIRS(0x155ULL);
}

/* Each pair of ranks keeps 11 bits of the board: 0-4 the even rank's dark
 * squares (files 0, 2, .., 8), 5 a ghost, 6-10 the odd rank's (files 1, 3,
 * .., 9); interleaved they give one bit per file. */
static inline uint64_t in_files(uint64_t b)
{
    return in_spread5(b & IN_PAIRS(0x1FULL)) | in_spread5(b >> 6 & IN_PAIRS(0x1FULL)) << 1;
}

/* The 4 windows of files 2b..2b+3 (b a constant, so every shift and mask
 * is one): each pair of ranks' nibble of fw / fb with the next pair's moved
 * beside it, so window (a, b) is one byte; both views of each window. */
#define IN_PATTERN_FILES(b)                                                                                            \
    do {                                                                                                               \
        uint64_t lo_mask_ = IN_PAIRS(0xFULL << 2 * (b)), hi_mask_ = IN_PAIRS(0xF0ULL << 2 * (b));                      \
        uint64_t pw_ = (fw & lo_mask_) | (fw >> 7 & hi_mask_), pb_ = (fb & lo_mask_) | (fb >> 7 & hi_mask_);           \
        for (int a_ = 0; a_ < 4; a_++) {                                                                               \
            int k_ = 4 * a_ + (b), shift_ = 11 * a_ + 2 * (b);                                                         \
            unsigned wb_ = (unsigned)(pw_ >> shift_ & 255), bb_ = (unsigned)(pb_ >> shift_ & 255);                     \
            EVAL_ADD(IN_PATTERN + IN_PATTERN_STATES * k_ + base3[0][wb_] + 2 * base3[0][bb_], 1);                      \
            EVAL_ADD(IN_PATTERN + IN_PATTERN_STATES * (IN_PATTERN_REGIONS - 1 - k_) + base3[1][bb_] +                  \
                         2 * base3[1][wb_],                                                                            \
                     -1);                                                                                              \
        }                                                                                                              \
    } while (0)

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
#if DAMA_IN_PATTERNS
    {
        const uint16_t(*base3)[256] = draughts_tables.base3;
        uint64_t fw = in_files(p->pieces[0]), fb = in_files(p->pieces[1]);
        IN_PATTERN_FILES(0);
        IN_PATTERN_FILES(1);
        IN_PATTERN_FILES(2);
        IN_PATTERN_FILES(3);
    }
#endif
    EVAL_ADD(IN_TEMPO, p->side == COLOR_WHITE ? 1 : -1);
    EVAL_RETURN(total < IN_PHASE_MAX ? total : IN_PHASE_MAX, IN_PHASE_MAX);
}
#undef EVAL_ADD
#undef EVAL_RETURN
