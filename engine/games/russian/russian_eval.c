/* russian_eval.c — the plain Russian evaluator and its tables. */
#define EVAL_TRACED 0
#include "engine/games/russian/russian_eval_body.h"

uint64_t russian_runaway_cone[2][64];

void russian_eval_init(void)
{
    /* Squares a man on sq could step through on its way to the crowning
     * rank (the forward diagonal cone, edges included). */
    for (int c = 0; c < 2; c++) {
        int dr = c == COLOR_WHITE ? 1 : -1;
        for (int sq = 0; sq < 64; sq++) {
            uint64_t cone = 0;
            int f0 = sq % 8, r0 = sq / 8;
            for (int k = 1; k < 8; k++) {
                int r = r0 + dr * k;
                if (r < 0 || r > 7) break;
                for (int f = f0 - k; f <= f0 + k; f++)
                    if (f >= 0 && f < 8 && ((f + r) % 2 == 0)) cone |= 1ULL << (r * 8 + f);
            }
            russian_runaway_cone[c][sq] = cone;
        }
    }
}
