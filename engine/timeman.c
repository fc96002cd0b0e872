/* timeman.c — the time manager; the formula and its source are in
 * timeman.h. */
#include "engine/timeman.h"

enum {
    TM_MTG_DEFAULT = 30, /* moves to go when the clock does not say */
    TM_MTG_MAX = 50,     /* a longer horizon is no different */
    TM_MARGIN_MS = 50    /* the most kept back from the clock */
};

void timeman_budget(int64_t clock_ms, int64_t inc_ms, int moves_to_go, int64_t *soft_ms, int64_t *hard_ms)
{
    /* Clamped to TIMEMAN_CLOCK_MAX_MS so that the arithmetic below (and
     * the search's deadline in nanoseconds) cannot overflow. */
    int64_t left = clock_ms > 0 ? (clock_ms < TIMEMAN_CLOCK_MAX_MS ? clock_ms : TIMEMAN_CLOCK_MAX_MS) : 0;
    int64_t inc = inc_ms > 0 ? (inc_ms < TIMEMAN_CLOCK_MAX_MS ? inc_ms : TIMEMAN_CLOCK_MAX_MS) : 0;
    int64_t margin = left / 20 < TM_MARGIN_MS ? left / 20 : TM_MARGIN_MS;
    int mtg = moves_to_go > 0 ? (moves_to_go < TM_MTG_MAX ? moves_to_go : TM_MTG_MAX) : TM_MTG_DEFAULT;
    int64_t soft = left / mtg + inc * 3 / 4;
    int64_t hard = soft * 4 < left / 3 + inc ? soft * 4 : left / 3 + inc;
    if (hard < soft) hard = soft; /* few moves to go: the soft share may exceed a third */
    int64_t cap = left - margin;
    if (hard > cap) hard = cap;
    if (soft > hard) soft = hard;
    if (hard < 1) hard = 1;
    if (soft < 1) soft = 1;
    *soft_ms = soft;
    *hard_ms = hard;
}
