/* international_eval.c — the plain International evaluator and its tables. */
#define EVAL_TRACED 0
#include "engine/games/international/international_eval_body.h"

uint64_t international_runaway_cone[2][64];
uint64_t international_centre6, international_centre12, international_runaway_from[2];
int8_t international_pst_index[64];

void international_eval_init(void)
{
    static bool done;
    if (done) return;
    for (int sq = 0; sq < 64; sq++) international_pst_index[sq] = (int8_t)(sq - (sq + 6) / 11); /* skip the ghosts */
    international_centre6 = international_centre12 = 0;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 10; f++) {
            int sq = draughts_square_at(GEOM_DIAGONAL10, r, f);
            if (sq < 0) continue;
            if (r >= 4 && r <= 5 && f >= 2 && f <= 7) international_centre6 |= 1ULL << sq;
            if (r >= 3 && r <= 6 && f >= 2 && f <= 7) international_centre12 |= 1ULL << sq;
        }
    /* Squares a man on sq could step through on its way to the crowning
     * rank (the forward diagonal cone); men tested from the opponent's half. */
    for (int c = 0; c < 2; c++) {
        int dr = c == COLOR_WHITE ? 1 : -1;
        international_runaway_from[c] = 0;
        for (int sq = 0; sq < 64; sq++) {
            int r0 = draughts_tables.rank[GEOM_DIAGONAL10][sq], f0 = draughts_tables.file[GEOM_DIAGONAL10][sq];
            uint64_t cone = 0;
            if (r0 >= 0) {
                bool far = c == COLOR_WHITE ? r0 >= 5 && r0 <= 8 : r0 >= 1 && r0 <= 4;
                if (far) international_runaway_from[c] |= 1ULL << sq;
                for (int k = 1; k < 10; k++)
                    for (int f = f0 - k; f <= f0 + k; f++) {
                        int s = draughts_square_at(GEOM_DIAGONAL10, r0 + dr * k, f);
                        if (s >= 0) cone |= 1ULL << s;
                    }
            }
            international_runaway_cone[c][sq] = cone;
        }
    }
    done = true;
}
