/* canadian_eval.c — the plain Canadian evaluator and its tables. */
#define EVAL_TRACED 0
#include "engine/games/canadian/canadian_eval_body.h"

DraughtsWide canadian_main_road, canadian_centre6, canadian_centre12, canadian_back_rank[2];
int8_t canadian_pst_index[DRAUGHTS_INDEX_MAX];

void canadian_eval_init(void)
{
    static bool done;
    if (done) return;
    for (int sq = 0; sq < DRAUGHTS_INDEX_MAX; sq++) canadian_pst_index[sq] = (int8_t)(sq - (sq + 7) / 13); /* skip the ghosts */
    canadian_main_road = canadian_centre6 = canadian_centre12 = canadian_back_rank[0] = canadian_back_rank[1] = 0;
    for (int r = 0; r < 12; r++)
        for (int f = 0; f < 12; f++) {
            int sq = draughts_square_at(GEOM_DIAGONAL12, r, f);
            if (sq < 0) continue;
            DraughtsWide bit = (DraughtsWide)1 << sq;
            if (r == f) canadian_main_road |= bit;
            if (r >= 5 && r <= 6 && f >= 3 && f <= 8) canadian_centre6 |= bit;
            if (r >= 4 && r <= 7 && f >= 3 && f <= 8) canadian_centre12 |= bit;
            if (r == 0) canadian_back_rank[COLOR_WHITE] |= bit;
            if (r == 11) canadian_back_rank[COLOR_BLACK] |= bit;
        }
    done = true;
}
