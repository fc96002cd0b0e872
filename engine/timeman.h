/* timeman.h — the time manager: how much of a clock one move may use.
 *
 * The one allocator of search time in dama: engine_search turns a clock
 * (SearchLimits.time_ms / inc_ms / movestogo) into limits with it, and the
 * Hub engine (protocol/hub.c), the in-process players of matches and
 * tournaments (arena/player.c) and the library's clock limits
 * (engine/api_search.c, DamaLimit) hand their clocks to engine_search
 * rather than allocating time themselves.
 */
#ifndef DAMA_TIMEMAN_H
#define DAMA_TIMEMAN_H

#include <stdint.h>

/* The longest time the engine counts with, in milliseconds (about 31.7
 * years): a longer clock, increment or move time is read as this, so that
 * the time arithmetic (deadlines in nanoseconds) stays within int64_t. */
#define TIMEMAN_CLOCK_MAX_MS INT64_C(1000000000000)

/* The soft limit (no new iteration starts past it) and the hard limit (the
 * search stops) in milliseconds for a move with clock_ms left on the
 * mover's clock, inc_ms added per move and moves_to_go moves until the
 * next time control (0 or less: sudden death or unknown). With left =
 * clock_ms and inc = inc_ms, each taken into 0..TIMEMAN_CLOCK_MAX_MS, and
 * mtg = moves_to_go (at most 50; 30 when not given):
 *
 *   soft   = left / mtg + 3/4 inc
 *   hard   = max(soft, min(4 soft, left / 3 + inc))
 *   margin = min(left / 20, 50)      (5% of the clock, at most 50 ms)
 *   hard   = min(hard, left - margin), soft = min(soft, hard), both >= 1
 *
 * (integer division throughout). engine_search starts no new iteration
 * once half the soft limit has passed (the soft limit scaled up, never
 * past the hard one, when the best move changes or the score drops:
 * search_params.def TM_*) and stops at 97% of the hard limit.
 *
 * Source: dama's own constants, in engine/search.c (engine_time_budget)
 * since commit 105d849 ("clock limits with a time manager"); the scheme —
 * a per-move share of the clock plus most of the increment as a soft
 * limit checked between iterations, a multiple of it capped by a fraction
 * of the clock as a hard limit — is the usual one of iterative-deepening
 * engines (Ethereal's and Weiss's time managers have the same two
 * limits). Pure; thread-safe. */
void timeman_budget(int64_t clock_ms, int64_t inc_ms, int moves_to_go, int64_t *soft_ms, int64_t *hard_ms);

#endif
