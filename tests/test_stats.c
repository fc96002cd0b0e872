/* test_stats.c — match statistics: Elo, intervals, LOS, SPRT, summary line.
 *
 * Every expected number below was computed by hand (arithmetic in the
 * comments) and checked independently with python3 on the formulas of
 * stats.h, never with this C code. The python used for the tables:
 *
 *   import math; z = 1.959964
 *   elo = lambda s: -400 * math.log10(1 / s - 1)
 *   L = lambda e: 1 / (1 + 10 ** (-e / 400))
 *   def est(counts, xs):            # counts and values, low to high
 *       n = sum(counts); p = [c / n for c in counts]
 *       m = sum(a * x for a, x in zip(p, xs))
 *       v = sum(a * (x - m) ** 2 for a, x in zip(p, xs)); se = math.sqrt(v / n)
 *       lo, hi = max(0, m - z * se), min(1, m + z * se)
 *       return m, v, elo(m), elo(lo), elo(hi), 0.5 * (1 + math.erf((m - .5) / (se * 2 ** .5)))
 *   def llr(counts, xs, e0, e1):
 *       c = [x if x > 0 else 1e-3 for x in counts]; n = sum(c); p = [x / n for x in c]
 *       m = sum(a * x for a, x in zip(p, xs)); v = sum(a * (x - m) ** 2 for a, x in zip(p, xs))
 *       s0, s1 = L(e0), L(e1)
 *       return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arena/match.h"
#include "arena/stats.h"
#include "db/db.h"

/* |actual - expected| <= tol, or both infinite with the same sign, or both NaN. */
static void check_near(double actual, double expected, double tol, const char *what, int line)
{
    int ok;
    if (isnan(expected))
        ok = isnan(actual);
    else if (isinf(expected))
        ok = isinf(actual) && signbit(actual) == signbit(expected);
    else
        ok = fabs(actual - expected) <= tol;
    if (!ok) {
        print_error("line %d: %s = %.9g, expected %.9g (tol %g)\n", line, what, actual, expected, tol);
        fail();
    }
}
#define assert_near(actual, expected, tol) check_near((actual), (expected), (tol), #actual, __LINE__)

static MatchStats make_wdl(int64_t w, int64_t d, int64_t l)
{
    MatchStats st;
    stats_init(&st);
    st.wins = w;
    st.draws = d;
    st.losses = l;
    return st;
}

static MatchStats make_ptnml(const int64_t penta[STATS_PENTA_LEN])
{
    MatchStats st;
    stats_init(&st);
    for (int k = 0; k < STATS_PENTA_LEN; k++)
        st.penta[k] = penta[k];
    return st;
}

static const SprtParams SPRT_0_10 = {.alpha = 0.05, .beta = 0.05, .elo0 = 0.0, .elo1 = 10.0};

/* ---- score <-> Elo ---------------------------------------------------- */

static void test_score_to_elo(void **state)
{
    (void)state;
    /* 1/0.5 - 1 = 1, log10 1 = 0: equal W and L is Elo 0 (and +0, not -0). */
    assert_near(stats_score_to_elo(0.5), 0.0, 1e-12);
    assert_false(signbit(stats_score_to_elo(0.5)));
    /* 1/0.75 - 1 = 1/3; -400 log10(1/3) = 400 * 0.4771213 = 190.8485. */
    assert_near(stats_score_to_elo(0.75), 190.848502, 1e-5);
    assert_near(stats_score_to_elo(0.25), -190.848502, 1e-5);
    /* 1/0.9 - 1 = 1/9; 400 log10 9 = 400 * 0.9542425 = 381.6970. */
    assert_near(stats_score_to_elo(0.9), 381.697004, 1e-5);
    /* 0% and 100% have no finite Elo: reported infinite, not clamped. */
    assert_near(stats_score_to_elo(0.0), -INFINITY, 0);
    assert_near(stats_score_to_elo(1.0), INFINITY, 0);
    assert_near(stats_score_to_elo(-0.1), -INFINITY, 0);
    assert_near(stats_score_to_elo(1.5), INFINITY, 0);
    assert_near(stats_score_to_elo(NAN), NAN, 0);

    /* 10^(-10/400) = 0.9440609; 1 / 1.9440609 = 0.5143872. */
    assert_near(stats_elo_to_score(10.0), 0.514387184, 1e-9);
    assert_near(stats_elo_to_score(0.0), 0.5, 1e-15);
    assert_near(stats_elo_to_score(190.848502), 0.75, 1e-8);
    for (double e = -600.0; e <= 600.0; e += 37.5)
        assert_near(stats_score_to_elo(stats_elo_to_score(e)), e, 1e-9);
}

/* ---- accumulator ------------------------------------------------------ */

static void test_add_games_and_pairs(void **state)
{
    (void)state;
    MatchStats st;
    stats_init(&st);
    assert_int_equal(stats_add_pair(&st, STATS_WIN, STATS_WIN), 0);   /* 2   -> penta[4] */
    assert_int_equal(stats_add_pair(&st, STATS_WIN, STATS_LOSS), 0);  /* 1   -> penta[2] */
    assert_int_equal(stats_add_pair(&st, STATS_DRAW, STATS_DRAW), 0); /* 1   -> penta[2] */
    assert_int_equal(stats_add_pair(&st, STATS_LOSS, STATS_DRAW), 0); /* 0.5 -> penta[1] */
    assert_int_equal(stats_add_pair(&st, STATS_DRAW, STATS_WIN), 0);  /* 1.5 -> penta[3] */
    assert_int_equal(stats_add_pair(&st, STATS_LOSS, STATS_LOSS), 0); /* 0   -> penta[0] */
    assert_int_equal(stats_add_game(&st, STATS_WIN), 0);              /* unpaired */

    assert_int_equal(st.wins, 5);
    assert_int_equal(st.draws, 4);
    assert_int_equal(st.losses, 4);
    const int64_t penta[STATS_PENTA_LEN] = {1, 1, 2, 1, 1};
    for (int k = 0; k < STATS_PENTA_LEN; k++)
        assert_int_equal(st.penta[k], penta[k]);
    assert_int_equal(stats_count_games(&st), 13);
    assert_int_equal(stats_count_pairs(&st), 6);

    /* Bad results are refused and change nothing. */
    MatchStats before = st;
    assert_int_equal(stats_add_game(&st, (StatsResult)3), -1);
    assert_int_equal(stats_add_pair(&st, STATS_WIN, (StatsResult)-1), -1);
    assert_memory_equal(&st, &before, sizeof st);

    MatchStats sum;
    stats_init(&sum);
    stats_merge(&sum, &st);
    stats_merge(&sum, &st);
    assert_int_equal(sum.wins, 10);
    assert_int_equal(sum.draws, 8);
    assert_int_equal(sum.losses, 8);
    assert_int_equal(sum.penta[2], 4);
    assert_int_equal(stats_count_pairs(&sum), 12);
}

/* ---- trinomial Elo ---------------------------------------------------- */

typedef struct EloCase {
    int64_t counts[STATS_PENTA_LEN]; /* W, D, L for trinomial; penta[0..4] */
    double score, variance, elo, elo_lower, elo_upper, error, los;
} EloCase;

/* Hand arithmetic (z = 1.959964, se = sqrt(variance / n)):
 *
 * +30 =40 -30: score = (30 + 20)/100 = 0.5 -> Elo 0.
 *   variance = 0.3(0.5)^2 + 0.4(0)^2 + 0.3(0.5)^2 = 0.15
 *   se = sqrt(0.15/100) = 0.0387298, z se = 0.0759091
 *   score in [0.4240909, 0.5759091] -> Elo [-53.1580, +53.1580], error 53.1580
 *   LOS = Phi(0) = 0.5
 *
 * +60 =100 -40: score = (60 + 50)/200 = 0.55
 *   Elo = -400 log10(1/0.55 - 1) = -400 log10(0.8181818) = 34.8601
 *   variance = 0.3(0.45)^2 + 0.5(0.05)^2 + 0.2(0.55)^2
 *            = 0.06075 + 0.00125 + 0.0605 = 0.1225
 *   se = sqrt(0.1225/200) = 0.0247487, z se = 0.0485066
 *   score in [0.5014934, 0.5985066] -> Elo [1.0377, 69.3562]
 *   error = (69.3562 - 1.0377)/2 = 34.1593
 *   LOS = Phi(0.05/0.0247487) = Phi(2.020305) = 0.978324
 *
 * +3 =4 -13: score = (3 + 2)/20 = 0.25 -> Elo -190.8485
 *   variance = 0.15(0.75)^2 + 0.2(0.25)^2 + 0.65(0.25)^2
 *            = 0.084375 + 0.0125 + 0.040625 = 0.1375
 *   se = sqrt(0.1375/20) = 0.0829156, z se = 0.1625116
 *   score in [0.0874884, 0.4125116] -> Elo [-407.3152, -61.4252], error 172.9450
 *   LOS = Phi(-0.25/0.0829156) = Phi(-3.015113) = 0.00128442
 *
 * +1 =1 -0: score = 0.75 -> Elo 190.8485
 *   variance = 0.5(0.25)^2 + 0.5(0.25)^2 = 0.0625
 *   se = sqrt(0.0625/2) = 0.1767767, z se = 0.3464760
 *   score in [0.4035240, 1.0964760 -> clamped to 1] -> Elo [-67.8894, +inf]
 *   error +inf; LOS = Phi(0.25/0.1767767) = Phi(1.414214) = 0.921350
 *
 * +0 =50 -0: score 0.5, variance 0: Elo 0 +/- 0, LOS 0.5.
 * +10 =0 -0: score 1, variance 0: Elo +inf, both ends +inf, error +inf, LOS 1.
 * +0 =0 -7:  score 0: Elo -inf, error +inf, LOS 0.
 */
static const EloCase WDL_CASES[] = {
    {{30, 40, 30}, 0.5, 0.15, 0.0, -53.157980, 53.157980, 53.157980, 0.5},
    {{60, 100, 40}, 0.55, 0.1225, 34.860070, 1.037700, 69.356238, 34.159269, 0.978324124},
    {{3, 4, 13}, 0.25, 0.1375, -190.848502, -407.315233, -61.425231, 172.945001, 0.00128441576},
    {{1, 1, 0}, 0.75, 0.0625, 190.848502, -67.889412, INFINITY, INFINITY, 0.921350396},
    {{0, 50, 0}, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5},
    {{10, 0, 0}, 1.0, 0.0, INFINITY, INFINITY, INFINITY, INFINITY, 1.0},
    {{0, 0, 7}, 0.0, 0.0, -INFINITY, -INFINITY, -INFINITY, INFINITY, 0.0},
};

static void check_estimate(const EloEstimate *e, const EloCase *c, int64_t n)
{
    assert_int_equal(e->n, n);
    assert_near(e->score, c->score, 1e-12);
    assert_near(e->variance, c->variance, 1e-12);
    assert_near(e->elo, c->elo, 1e-5);
    assert_near(e->elo_lower, c->elo_lower, 1e-5);
    assert_near(e->elo_upper, c->elo_upper, 1e-5);
    assert_near(e->error, c->error, 1e-5);
    assert_near(e->los, c->los, 1e-8);
    assert_true(e->score_lower >= 0.0 && e->score_lower <= e->score);
    assert_true(e->score_upper <= 1.0 && e->score_upper >= e->score);
}

static void test_estimate_wdl(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof WDL_CASES / sizeof WDL_CASES[0]; i++) {
        const EloCase *c = &WDL_CASES[i];
        MatchStats st = make_wdl(c->counts[0], c->counts[1], c->counts[2]);
        EloEstimate e;
        assert_int_equal(stats_estimate_wdl(&st, &e), 0);
        check_estimate(&e, c, c->counts[0] + c->counts[1] + c->counts[2]);
        assert_int_equal(stats_interval_estimable(&e), c->variance > 0.0);
    }
    MatchStats none;
    stats_init(&none);
    EloEstimate e;
    assert_int_equal(stats_estimate_wdl(&none, &e), -1);
    assert_int_equal(e.n, 0);
}

/* ---- pentanomial Elo -------------------------------------------------- */

/* Hand arithmetic, x = pair score / 2 = 0, 1/4, 1/2, 3/4, 1:
 *
 * 5,20,40,25,10 (100 pairs):
 *   score = (20(0.25) + 40(0.5) + 25(0.75) + 10(1))/100 = 53.75/100 = 0.5375
 *   Elo = 400 log10(0.5375/0.4625) = 26.1067
 *   E[x^2] = (20(0.0625) + 40(0.25) + 25(0.5625) + 10)/100 = 0.353125
 *   variance = 0.353125 - 0.5375^2 = 0.353125 - 0.28890625 = 0.06421875
 *   se = sqrt(0.06421875/100) = 0.0253414, z se = 0.0496683
 *   score in [0.4878317, 0.5871683] -> Elo [-8.4570, 61.1958], error 34.8264
 *   LOS = Phi(0.0375/0.0253414) = Phi(1.479790) = 0.930535
 *   (the trinomial counts of the same games, +55 =105 -40, give
 *    variance 0.11734375 per game, error 33.2786: here the pairs are
 *    positively correlated, so the pentanomial interval is wider)
 *
 * 0,3,10,5,2 (20 pairs): score = (0.75 + 5 + 3.75 + 2)/20 = 0.575 -> Elo 52.5116
 *   E[x^2] = (3(0.0625) + 10(0.25) + 5(0.5625) + 2)/20 = 7.5/20 = 0.375
 *   variance = 0.375 - 0.330625 = 0.044375
 *   se = sqrt(0.044375/20) = 0.0471036, z se = 0.0923214
 *   score in [0.4826786, 0.6673214] -> Elo [-12.0409, 120.9241], error 66.4825
 *   LOS = Phi(0.075/0.0471036) = 0.944334
 *
 * 0,0,20,0,0: every pair 1-1: score 0.5, variance 0 -> 0 +/- 0, LOS 0.5.
 * 10,0,0,0,0: every pair lost: Elo -inf, error +inf, LOS 0.
 */
static const EloCase PTNML_CASES[] = {
    {{5, 20, 40, 25, 10}, 0.5375, 0.06421875, 26.106693, -8.457049, 61.195802, 34.826426, 0.930535467},
    {{0, 3, 10, 5, 2}, 0.575, 0.044375, 52.511566, -12.040945, 120.924058, 66.482501, 0.944334008},
    {{0, 0, 20, 0, 0}, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5},
    {{10, 0, 0, 0, 0}, 0.0, 0.0, -INFINITY, -INFINITY, -INFINITY, INFINITY, 0.0},
};

static void test_estimate_ptnml(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PTNML_CASES / sizeof PTNML_CASES[0]; i++) {
        const EloCase *c = &PTNML_CASES[i];
        MatchStats st = make_ptnml(c->counts);
        EloEstimate e;
        assert_int_equal(stats_estimate_ptnml(&st, &e), 0);
        int64_t pairs = 0;
        for (int k = 0; k < STATS_PENTA_LEN; k++)
            pairs += c->counts[k];
        check_estimate(&e, c, pairs);
    }

    /* Same games as 5,20,40,25,10 counted through stats_add_pair:
     * LL x5, LD x20, WL x10 + DD x30, WD x25, WW x10 -> +55 =105 -40. */
    MatchStats st;
    stats_init(&st);
    for (int i = 0; i < 5; i++)
        stats_add_pair(&st, STATS_LOSS, STATS_LOSS);
    for (int i = 0; i < 20; i++)
        stats_add_pair(&st, STATS_LOSS, STATS_DRAW);
    for (int i = 0; i < 10; i++)
        stats_add_pair(&st, STATS_WIN, STATS_LOSS);
    for (int i = 0; i < 30; i++)
        stats_add_pair(&st, STATS_DRAW, STATS_DRAW);
    for (int i = 0; i < 25; i++)
        stats_add_pair(&st, STATS_DRAW, STATS_WIN);
    for (int i = 0; i < 10; i++)
        stats_add_pair(&st, STATS_WIN, STATS_WIN);
    EloEstimate p, t;
    assert_int_equal(stats_estimate_ptnml(&st, &p), 0);
    assert_int_equal(stats_estimate_wdl(&st, &t), 0);
    check_estimate(&p, &PTNML_CASES[0], 100);
    assert_near(t.score, p.score, 1e-12);
    assert_near(t.variance, 0.11734375, 1e-12);
    assert_near(t.error, 33.278593, 1e-5);

    MatchStats none = make_wdl(3, 0, 1); /* games but no pairs */
    assert_int_equal(stats_estimate_ptnml(&none, &p), -1);
}

/* ---- SPRT ------------------------------------------------------------- */

static void test_sprt_bounds(void **state)
{
    (void)state;
    double lower, upper;
    /* ln(0.05/0.95) = -ln 19 = -2.944439; ln(0.95/0.05) = ln 19 = 2.944439. */
    stats_compute_bounds(&SPRT_0_10, &lower, &upper);
    assert_near(lower, -2.944439, 1e-6);
    assert_near(upper, 2.944439, 1e-6);
    /* alpha 0.05, beta 0.1: ln(0.1/0.95) = -2.251292; ln(0.9/0.05) = ln 18 = 2.890372. */
    SprtParams p = {.alpha = 0.05, .beta = 0.1, .elo0 = -5, .elo1 = 0};
    stats_compute_bounds(&p, &lower, &upper);
    assert_near(lower, -2.251292, 1e-6);
    assert_near(upper, 2.890372, 1e-6);
}

static void test_sprt_check(void **state)
{
    (void)state;
    char err[128];
    assert_int_equal(stats_check_sprt(&SPRT_0_10, err, sizeof err), 0);
    static const SprtParams bad[] = {
        {0.0, 0.05, 0, 10},  {1.0, 0.05, 0, 10},  {0.05, 0.0, 0, 10},       {0.05, -1, 0, 10},
        {0.5, 0.5, 0, 10},   {0.05, 0.05, 5, 5},  {0.05, 0.05, 10, 0},      {NAN, 0.05, 0, 10},
        {0.05, 0.05, NAN, 10}, {0.05, 0.05, 0, INFINITY},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(stats_check_sprt(&bad[i], err, sizeof err), -1);
        assert_true(strncmp(err, "SPRT ", 5) == 0);
    }
    SprtParams p = SPRT_0_10;
    p.alpha = 1.5;
    stats_check_sprt(&p, err, sizeof err);
    assert_string_equal(err, "SPRT alpha = 1.5 must be in (0, 1)");
    p = SPRT_0_10;
    p.elo0 = 12;
    stats_check_sprt(&p, err, sizeof err);
    assert_string_equal(err, "SPRT elo0 = 12 must be below elo1");
    assert_int_equal(stats_check_sprt(&p, NULL, 0), -1);
}

typedef struct LlrCase {
    int64_t penta[STATS_PENTA_LEN];
    double elo0, elo1;
    double llr;
    SprtDecision decision; /* with alpha = beta = 0.05 */
} LlrCase;

/* Pentanomial LLR, LLR = (s1 - s0)(2m - s0 - s1) / (2 v / N).
 *
 * 5,20,40,25,10, [0, 10]: m = 0.5375, v = 0.06421875, N = 100 (above);
 *   s0 = 0.5, s1 = 0.5143872; s1 - s0 = 0.0143872;
 *   2m - s0 - s1 = 1.075 - 1.0143872 = 0.0606128;
 *   2v/N = 0.001284375; LLR = 0.0143872 * 0.0606128 / 0.001284375 = 0.678967.
 *   (The exact GLR of fishtest's LLR_logistic is 0.671580 here.)
 * 5,20,40,25,10, [-5, 5]: s0 = 0.4928049, s1 = 0.5071951; s1 - s0 = 0.0143902;
 *   2m - s0 - s1 = 0.075; LLR = 0.0143902 * 0.075 / 0.001284375 = 0.840302.
 * 0,3,10,5,2, [0, 10]: penta[0] = 0 -> 1e-3, N = 20.001,
 *   m = 11.5/20.001 = 0.5749713, v = 0.0443893; LLR = 0.439375 (python).
 * 20,60,150,120,50, [0, 10]: N = 400, m = 0.575, v = 0.06625;
 *   LLR = 0.0143872 (1.15 - 1.0143872) / (2 (0.06625)/400) = 5.890073 >= 2.944 -> H1.
 *   (exact GLR 5.364655)
 * 45,130,200,90,35, [0, 10]: N = 500, m = 0.47, v = 0.0666;
 *   LLR = 0.0143872 (0.94 - 1.0143872) / (2 (0.0666)/500) = -4.017350 <= -2.944 -> H0.
 *   (exact GLR -3.892862)
 * 40,130,200,90,40, [0, 10]: N = 500, m = 0.48, v = 0.0671; LLR = -2.915344: continue.
 * 0,0,20,0,0, [0, 10]: only 1-1 pairs; regularized to 1e-3,1e-3,20,1e-3,1e-3,
 *   N = 20.004, m = 0.5, v = 1e-3 (0.25 + 0.0625 + 0.0625 + 0.25) / 20.004
 *   = 3.1243751e-05; LLR = 20.004 (0.0143872)(1 - 1.0143872) / (2 v)
 *   = 20.004 (-3.312530) = -66.263639 -> H0.
 * no pairs: LLR 0, continue.
 */
static const LlrCase LLR_CASES[] = {
    {{5, 20, 40, 25, 10}, 0, 10, 0.678966614, SPRT_CONTINUE},
    {{5, 20, 40, 25, 10}, -5, 5, 0.840301513, SPRT_CONTINUE},
    {{0, 3, 10, 5, 2}, 0, 10, 0.439375337, SPRT_CONTINUE},
    {{20, 60, 150, 120, 50}, 0, 10, 5.890072624, SPRT_ACCEPT_H1},
    {{45, 130, 200, 90, 35}, 0, 10, -4.017350293, SPRT_ACCEPT_H0},
    {{40, 130, 200, 90, 40}, 0, 10, -2.915344392, SPRT_CONTINUE},
    {{0, 0, 20, 0, 0}, 0, 10, -66.26363934, SPRT_ACCEPT_H0},
    {{0, 0, 0, 0, 0}, 0, 10, 0.0, SPRT_CONTINUE},
};

static void test_llr_ptnml(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof LLR_CASES / sizeof LLR_CASES[0]; i++) {
        const LlrCase *c = &LLR_CASES[i];
        MatchStats st = make_ptnml(c->penta);
        SprtParams p = {.alpha = 0.05, .beta = 0.05, .elo0 = c->elo0, .elo1 = c->elo1};
        double llr = stats_compute_llr_ptnml(&st, &p);
        assert_near(llr, c->llr, 1e-6);
        assert_int_equal(stats_decide_sprt(&p, llr), c->decision);
    }
}

static void test_llr_wdl(void **state)
{
    (void)state;
    /* +55 =105 -40, [0, 10]: N = 200, m = 0.5375, v = 0.11734375;
     *   LLR = 0.0143872 * 0.0606128 / (2 (0.11734375)/200) = 0.743157. */
    MatchStats st = make_wdl(55, 105, 40);
    assert_near(stats_compute_llr_wdl(&st, &SPRT_0_10), 0.743156533, 1e-6);
    /* +60 =100 -40: m = 0.55, v = 0.1225; LLR = 0.0143872 (0.0856128) / 0.001225 = 1.005492. */
    st = make_wdl(60, 100, 40);
    assert_near(stats_compute_llr_wdl(&st, &SPRT_0_10), 1.005491713, 1e-6);
    /* Equal results and a symmetric hypothesis pair: m = (s0 + s1)/2, LLR 0. */
    st = make_wdl(30, 40, 30);
    SprtParams sym = {.alpha = 0.05, .beta = 0.05, .elo0 = -5, .elo1 = 5};
    assert_near(stats_compute_llr_wdl(&st, &sym), 0.0, 1e-12);
    st = make_wdl(0, 0, 0);
    assert_near(stats_compute_llr_wdl(&st, &SPRT_0_10), 0.0, 0);
}

static void test_sprt_decide_at_bounds(void **state)
{
    (void)state;
    double lower, upper;
    stats_compute_bounds(&SPRT_0_10, &lower, &upper);
    /* The bounds themselves stop the test; just inside them it goes on. */
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, upper), SPRT_ACCEPT_H1);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, nextafter(upper, 0.0)), SPRT_CONTINUE);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, lower), SPRT_ACCEPT_H0);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, nextafter(lower, 0.0)), SPRT_CONTINUE);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, 2.944), SPRT_CONTINUE);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, 2.945), SPRT_ACCEPT_H1);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, -2.944), SPRT_CONTINUE);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, -2.945), SPRT_ACCEPT_H0);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, 0.0), SPRT_CONTINUE);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, 100.0), SPRT_ACCEPT_H1);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, -INFINITY), SPRT_ACCEPT_H0);
    assert_int_equal(stats_decide_sprt(&SPRT_0_10, NAN), SPRT_CONTINUE);
}

/* ---- summary line ----------------------------------------------------- */

static void test_format_line(void **state)
{
    (void)state;
    char out[STATS_LINE_MAX];
    const char *want;

    /* Paired: pentanomial Elo 26.1067 +/- 34.8264, LLR 0.678967 (above). */
    const int64_t penta[STATS_PENTA_LEN] = {5, 20, 40, 25, 10};
    MatchStats st = make_ptnml(penta);
    st.wins = 55, st.draws = 105, st.losses = 40;
    want = "Games 200: +55 =105 -40 | Elo 26.1 +/- 34.8 (95%) | Ptnml 5,20,40,25,10"
           " | LLR 0.68 (-2.94, 2.94) [0, 10]";
    assert_int_equal(stats_format_line(&st, &SPRT_0_10, out), (int)strlen(want));
    assert_string_equal(out, want);

    /* A pair half played: W/D/L count its game, the Elo is the pairs', and
     * the line says so (a 2.5/5 line read "Elo 88.7" without a word). */
    const int64_t one_of_two[STATS_PENTA_LEN] = {0, 0, 1, 1, 0};
    st = make_ptnml(one_of_two);
    st.wins = 1, st.draws = 3, st.losses = 1;
    stats_format_line(&st, NULL, out);
    assert_non_null(strstr(out, "Games 5: +1 =3 -1 | Elo "));
    assert_non_null(strstr(out, " (of the 2 whole pairs; 1 unpaired game left out) | Ptnml 0,0,1,1,0"));
    st = make_ptnml(penta);
    st.wins = 55, st.draws = 105, st.losses = 40;
    stats_format_line(&st, NULL, out);
    assert_null(strstr(out, "unpaired"));

    /* Unpaired: trinomial Elo 34.8601 +/- 34.1593, trinomial LLR 1.005492. */
    st = make_wdl(60, 100, 40);
    SprtParams p = {.alpha = 0.05, .beta = 0.1, .elo0 = -2.5, .elo1 = 0.5};
    want = "Games 200: +60 =100 -40 | Elo 34.9 +/- 34.2 (95%)";
    assert_int_equal(stats_format_line(&st, NULL, out), (int)strlen(want));
    assert_string_equal(out, want);
    stats_format_line(&st, &p, out);
    assert_true(strstr(out, " | LLR ") != NULL);
    assert_true(strstr(out, "(-2.25, 2.89) [-2.5, 0.5]") != NULL);

    /* 100% and 0%: no finite Elo, said so (it printed "Elo inf"). */
    st = make_wdl(10, 0, 0);
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 10: +10 =0 -0 | Elo not estimable (score 100%)");
    st = make_wdl(0, 0, 3);
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 3: +0 =0 -3 | Elo not estimable (score 0%)");
    const int64_t all_won[STATS_PENTA_LEN] = {0, 0, 0, 0, 4};
    st = make_ptnml(all_won);
    st.wins = 8;
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 8: +8 =0 -0 | Elo not estimable (score 100%) | Ptnml 0,0,0,0,4");
    st = make_wdl(1, 0, 0); /* one game */
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 1: +1 =0 -0 | Elo not estimable (score 100%)");

    /* One pair of two draws (dama match --pairs 1): no "+/- 0.0", and the
     * LLR only when asked for. */
    const int64_t one_draw_pair[STATS_PENTA_LEN] = {0, 0, 1, 0, 0};
    st = make_ptnml(one_draw_pair);
    st.draws = 2;
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 2: +0 =2 -0 | Elo 0.0 (interval not estimable from 1 pair) | Ptnml 0,0,1,0,0");
    const int64_t two_even_pairs[STATS_PENTA_LEN] = {0, 0, 2, 0, 0};
    st = make_ptnml(two_even_pairs);
    st.wins = 1, st.draws = 2, st.losses = 1;
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 4: +1 =2 -1 | Elo 0.0 (interval not estimable: all 2 pairs scored the same)"
                             " | Ptnml 0,0,2,0,0");
    /* Two pairs of different scores: an interval (wide). */
    const int64_t two_pairs[STATS_PENTA_LEN] = {0, 0, 1, 1, 0};
    st = make_ptnml(two_pairs);
    st.wins = 1, st.draws = 3;
    stats_format_line(&st, NULL, out);
    assert_true(strstr(out, "| Elo 88.7 +/- ") != NULL);
    /* An interval with an infinite end (its score bound at 1 or 0) is given
     * by its finite end, never "+/- inf": four pairs mostly won or lost;
     * both ends infinite from a pair won and one lost. */
    static const struct {
        int64_t penta[STATS_PENTA_LEN];
        int64_t wins, draws, losses;
        const char *line;
    } open_ended[] = {
        {{0, 0, 0, 1, 3}, 7, 1, 0,
         "Games 8: +7 =1 -0 | Elo 470.4 (95% interval: > 277.2, upper end not estimable) | Ptnml 0,0,0,1,3"},
        {{3, 1, 0, 0, 0}, 0, 1, 7,
         "Games 8: +0 =1 -7 | Elo -470.4 (95% interval: < -277.2, lower end not estimable) | Ptnml 3,1,0,0,0"},
        {{1, 0, 0, 0, 1}, 2, 0, 2,
         "Games 4: +2 =0 -2 | Elo 0.0 (95% interval not estimable: both ends infinite) | Ptnml 1,0,0,0,1"},
    };
    for (size_t i = 0; i < sizeof open_ended / sizeof *open_ended; i++) {
        st = make_ptnml(open_ended[i].penta);
        st.wins = open_ended[i].wins, st.draws = open_ended[i].draws, st.losses = open_ended[i].losses;
        stats_format_line(&st, NULL, out);
        assert_string_equal(out, open_ended[i].line);
        assert_null(strstr(out, "inf)"));
    }
    st = make_wdl(0, 1, 0);
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 1: +0 =1 -0 | Elo 0.0 (interval not estimable from 1 game)");

    /* Nothing played: counts only; the LLR is 0. */
    stats_init(&st);
    stats_format_line(&st, NULL, out);
    assert_string_equal(out, "Games 0: +0 =0 -0");
    stats_format_line(&st, &SPRT_0_10, out);
    assert_string_equal(out, "Games 0: +0 =0 -0 | LLR 0.00 (-2.94, 2.94) [0, 10]");

    /* The longest lines still fit: counts near INT64_MAX (the LLR is then
     * about -4.77e15) and extreme but valid parameters. */
    const int64_t big[STATS_PENTA_LEN] = {INT64_MAX / 8, INT64_MAX / 8, INT64_MAX / 8, INT64_MAX / 8,
                                          INT64_MAX / 8};
    st = make_ptnml(big);
    st.wins = st.draws = st.losses = INT64_MAX / 4;
    int len = stats_format_line(&st, &SPRT_0_10, out);
    assert_true(len > 0 && len < STATS_LINE_MAX);
    assert_int_equal((int)strlen(out), len);
    const int64_t one_sided[STATS_PENTA_LEN] = {0, 0, 0, 0, INT64_MAX / 2};
    st = make_ptnml(one_sided);
    st.wins = INT64_MAX - 1;
    p = (SprtParams){.alpha = 4.9e-324, .beta = 1e-300, .elo0 = -1.234567e300, .elo1 = 1.234567e300};
    assert_int_equal(stats_check_sprt(&p, NULL, 0), 0);
    len = stats_format_line(&st, &p, out);
    assert_true(len > 0 && len < STATS_LINE_MAX);
    assert_int_equal((int)strlen(out), len);
}

/* ---- the stored row ---------------------------------------------------- */

/* match_fill_row stores an interval only where one can be estimated: none
 * (NaN, bound as NULL) from one pair or game, or when every pair or game
 * scored the same (all draws, all wins: a zero-width interval, which was
 * stored as [0.0, 0.0] or [inf, inf]), as the summary line says. */
static void test_fill_row_interval(void **state)
{
    (void)state;
    static const struct {
        int64_t penta[STATS_PENTA_LEN];
        int64_t w, d, l; /* games without pairs (penta all 0) */
        bool interval;
        double elo;
    } cases[] = {
        {{0, 0, 1, 0, 0}, 0, 0, 0, false, 0.0},         /* one pair */
        {{0, 0, 3, 0, 0}, 0, 0, 0, false, 0.0},         /* every pair 1-1 or two draws */
        {{0, 0, 0, 0, 4}, 0, 0, 0, false, INFINITY},    /* every game won */
        {{4, 0, 0, 0, 0}, 0, 0, 0, false, -INFINITY},   /* every game lost */
        {{0, 0, 1, 1, 0}, 0, 0, 0, true, 88.7},         /* 1 and 1.5: an interval */
        {{0, 1, 2, 1, 0}, 0, 0, 0, true, 0.0},          /* 0.5, 1, 1, 1.5 */
        {{0}, 0, 5, 0, false, 0.0},                     /* games only: all drawn */
        {{0}, 1, 0, 0, false, INFINITY},                /* one game */
        {{0}, 2, 1, 1, true, 88.7},                     /* score 5/8 over 4 games */
    };
    MatchPlan plan = {.sprt_params = SPRT_0_10};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MatchResult r = {.decision = SPRT_CONTINUE};
        r.st = make_ptnml(cases[i].penta);
        r.st.wins = cases[i].w, r.st.draws = cases[i].d, r.st.losses = cases[i].l;
        DbMatch m = {0};
        match_fill_row(&m, &r, &plan);
        assert_near(m.elo, cases[i].elo, 0.05);
        if (cases[i].interval != (!isnan(m.elo_lo) && !isnan(m.elo_hi))) {
            print_error("case %zu: interval [%g, %g], expected %s\n", i, m.elo_lo, m.elo_hi,
                        cases[i].interval ? "one" : "none");
            fail();
        }
        if (cases[i].interval) assert_true(m.elo_lo < m.elo && m.elo < m.elo_hi);
    }
}

/* match_fill_row stores the SPRT's bounds and LLR only for a match that ran
 * one: without --sprt (and in train's ladder) they are NaN, bound as NULL,
 * not the default bounds with an LLR nobody asked for. */
static void test_fill_row_sprt(void **state)
{
    (void)state;
    const int64_t penta[STATS_PENTA_LEN] = {5, 20, 40, 25, 10};
    MatchResult r = {.decision = SPRT_CONTINUE};
    r.st = make_ptnml(penta);
    for (int sprt = 0; sprt < 2; sprt++) {
        MatchPlan plan = {.sprt = sprt, .sprt_params = SPRT_0_10};
        DbMatch m = {0};
        match_fill_row(&m, &r, &plan);
        assert_near(m.elo, 26.1, 0.05); /* the Elo either way */
        if (sprt) {
            assert_near(m.llr, 0.68, 0.005);
            assert_true(m.sprt_elo0 == 0 && m.sprt_elo1 == 10 && m.sprt_alpha == 0.05 && m.sprt_beta == 0.05);
        } else {
            assert_true(isnan(m.llr));
            assert_true(isnan(m.sprt_elo0) && isnan(m.sprt_elo1) && isnan(m.sprt_alpha) && isnan(m.sprt_beta));
        }
        assert_null(m.sprt_result);
    }
}

/* The decision said as what it means: "A is stronger" only when elo0 >= 0
 * (bounds [-400, -200] accepted H1 for two equal engines: "not much weaker") */
static void test_sprt_phrase(void **state)
{
    (void)state;
    char out[96];
    stats_sprt_phrase(&SPRT_0_10, SPRT_ACCEPT_H1, out, sizeof out);
    assert_string_equal(out, "H1 accepted (A is stronger)");
    stats_sprt_phrase(&SPRT_0_10, SPRT_ACCEPT_H0, out, sizeof out);
    assert_string_equal(out, "H0 accepted (A is not stronger by elo1)");
    stats_sprt_phrase(&SPRT_0_10, SPRT_CONTINUE, out, sizeof out);
    assert_string_equal(out, "undecided");
    const SprtParams neg = {.alpha = 0.05, .beta = 0.05, .elo0 = -400, .elo1 = -200};
    stats_sprt_phrase(&neg, SPRT_ACCEPT_H1, out, sizeof out);
    assert_string_equal(out, "H1 accepted (Elo nearer -200 than -400)");
    stats_sprt_phrase(&neg, SPRT_ACCEPT_H0, out, sizeof out);
    assert_string_equal(out, "H0 accepted (Elo nearer -400 than -200)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_score_to_elo),
        cmocka_unit_test(test_add_games_and_pairs),
        cmocka_unit_test(test_estimate_wdl),
        cmocka_unit_test(test_estimate_ptnml),
        cmocka_unit_test(test_sprt_bounds),
        cmocka_unit_test(test_sprt_check),
        cmocka_unit_test(test_llr_ptnml),
        cmocka_unit_test(test_llr_wdl),
        cmocka_unit_test(test_sprt_decide_at_bounds),
        cmocka_unit_test(test_format_line),
        cmocka_unit_test(test_fill_row_interval),
        cmocka_unit_test(test_fill_row_sprt),
        cmocka_unit_test(test_sprt_phrase),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
