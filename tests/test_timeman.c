/* test_timeman.c — the time manager (engine/timeman.h): soft and hard
 * limits of a clock, by table; each row's figures are worked out by hand
 * from the formula in timeman.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/search.h"
#include "engine/timeman.h"

typedef struct BudgetCase {
    int64_t clock_ms, inc_ms;
    int mtg;
    int64_t soft, hard;
    const char *why;
} BudgetCase;

static const BudgetCase CASES[] = {
    {60000, 0, 0, 2000, 8000, "sudden death: a 30th, hard 4x"},
    {60000, 1000, 0, 2750, 11000, "+ 3/4 of the increment"},
    {60000, -500, 0, 2000, 8000, "a negative increment counts as none"},
    {3000, 100, 0, 175, 700, "short clock with an increment"},
    {10000, 0, 10, 1000, 3333, "10 moves to go: hard is a third of the clock"},
    {60000, 0, 100, 1200, 4800, "moves to go above 50 count as 50"},
    {1000, 0, 1, 950, 950, "last move before the control: all but the 5% margin"},
    {100000, 0, 2, 50000, 50000, "soft over a third: hard = soft"},
    {600, 0, 0, 20, 80, "margin 5% of a short clock"},
    {1000, 2000, 0, 950, 950, "an increment larger than the clock: capped by the clock less the margin"},
    {1, 0, 0, 1, 1, "at least 1 ms"},
    {0, 0, 0, 1, 1, "an empty clock: 1 ms"},
    {-5, 100, 0, 1, 1, "a negative clock: 1 ms, the increment is not on it"},
    /* clock and increment beyond TIMEMAN_CLOCK_MAX_MS (1e12 ms) count as
     * it: 1e12 / 30 + 3/4 1e12 soft, hard the clock less 50 ms (3/4 of
     * INT64_MAX's increment overflowed int64_t) */
    {INT64_MAX, INT64_MAX, 0, 783333333333, 999999999950, "a clock and an increment of INT64_MAX ms"},
    {INT64_MAX, 0, 0, 33333333333, 133333333332, "a clock of INT64_MAX ms"},
};

static void test_budget(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const BudgetCase *c = &CASES[i];
        int64_t soft = -1, hard = -1;
        timeman_budget(c->clock_ms, c->inc_ms, c->mtg, &soft, &hard);
        if (soft != c->soft || hard != c->hard)
            fail_msg("case %zu (%s): budget(%lld, %lld, %d) = %lld/%lld, expected %lld/%lld", i, c->why,
                     (long long)c->clock_ms, (long long)c->inc_ms, c->mtg, (long long)soft, (long long)hard,
                     (long long)c->soft, (long long)c->hard);
    }
}

/* Whatever the clock, 1 <= soft <= hard, and hard leaves the margin on a
 * clock of 20 ms or more (below that the margin is 0 and 1 ms is the least). */
static void test_invariants(void **state)
{
    (void)state;
    static const int64_t clocks[] = {0, 1, 19, 20, 50, 333, 1000, 7777, 60000, 3600000};
    static const int64_t incs[] = {0, 1, 100, 1000, 100000};
    static const int mtgs[] = {0, 1, 2, 7, 40, 50, 1000};
    for (size_t a = 0; a < sizeof clocks / sizeof clocks[0]; a++)
        for (size_t b = 0; b < sizeof incs / sizeof incs[0]; b++)
            for (size_t m = 0; m < sizeof mtgs / sizeof mtgs[0]; m++) {
                int64_t soft, hard, left = clocks[a];
                timeman_budget(left, incs[b], mtgs[m], &soft, &hard);
                assert_true(soft >= 1 && soft <= hard);
                int64_t margin = left / 20 < 50 ? left / 20 : 50;
                if (left >= 20) assert_true(hard <= left - margin);
            }
}

/* engine_time_budget is the time manager for a clock, movetime as given. */
static void test_engine_uses_it(void **state)
{
    (void)state;
    SearchLimits lim = {.time_ms = 45000, .inc_ms = 300, .movestogo = 12};
    int64_t soft, hard, es, eh;
    timeman_budget(lim.time_ms, lim.inc_ms, lim.movestogo, &soft, &hard);
    engine_time_budget(&lim, &es, &eh);
    assert_int_equal(es, soft);
    assert_int_equal(eh, hard);
    SearchLimits mt = {.movetime_ms = 70, .time_ms = 45000};
    engine_time_budget(&mt, &es, &eh);
    assert_int_equal(es, 70);
    assert_int_equal(eh, 70);
    /* a movetime beyond TIMEMAN_CLOCK_MAX_MS counts as it (the search's
     * deadline in nanoseconds overflowed int64_t) */
    SearchLimits huge = {.movetime_ms = INT64_MAX};
    engine_time_budget(&huge, &es, &eh);
    assert_int_equal(es, TIMEMAN_CLOCK_MAX_MS);
    assert_int_equal(eh, TIMEMAN_CLOCK_MAX_MS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_invariants),
        cmocka_unit_test(test_engine_uses_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
