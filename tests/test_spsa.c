/* test_spsa.c — SPSA gains, signs, updates, and recovery of a known optimum
 * from simulated noisy game results. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tuner/spsa.h"
#include "util/rng.h"

static const SpsaSchedule SCHED = {.iterations = 1000, .A = 100, .alpha = 0.602, .gamma = 0.101};

static void test_gains_at_ends(void **state)
{
    (void)state;
    SpsaParam p = {.name = "X", .theta = 0, .min = -10, .max = 10, .c_end = 4, .r_end = 0.002};
    double a, c;
    /* At k = N: c_N = c_end and a_N / c_N^2 = r_end. */
    spsa_gains(&SCHED, &p, SCHED.iterations, &a, &c);
    assert_true(fabs(c - 4.0) < 1e-12);
    assert_true(fabs(a / (c * c) - 0.002) < 1e-12);
    /* At k = 1, by hand: c_1 = 4 * 1000^0.101 = 4 * 2.00909 = 8.0364;
     * a_1 = 0.002 * 16 * (1100 / 101)^0.602 = 0.032 * 4.21034 = 0.13473. */
    spsa_gains(&SCHED, &p, 1, &a, &c);
    assert_true(fabs(c - 4.0 * pow(1000.0, 0.101)) < 1e-12);
    assert_true(fabs(c - 8.0364) < 1e-3);
    assert_true(fabs(a - 0.13473) < 1e-4);
    /* Both decrease with k. */
    double a2, c2;
    spsa_gains(&SCHED, &p, 500, &a2, &c2);
    assert_true(a2 < a && c2 < c && a2 > 0 && c2 > 4.0);
}

static void test_signs(void **state)
{
    (void)state;
    enum { LEN = 200 };
    int8_t d1[LEN], d2[LEN], d3[LEN];
    spsa_signs(7, 3, 0, LEN, d1);
    spsa_signs(7, 3, 0, LEN, d2);
    spsa_signs(7, 3, 1, LEN, d3);
    assert_memory_equal(d1, d2, LEN);
    int differ = 0, plus = 0;
    for (int i = 0; i < LEN; i++) {
        assert_true(d1[i] == 1 || d1[i] == -1);
        differ += d1[i] != d3[i];
        plus += d1[i] == 1;
    }
    /* Another pair gets other signs; about half are +1 (binomial(200, 1/2):
     * 100 +- 3 sigma = 100 +- 21.2). */
    assert_true(differ > 60);
    assert_true(plus > 78 && plus < 122);
}

static void test_points_clamped_and_rounded(void **state)
{
    (void)state;
    SpsaParam p[2] = {
        {.name = "A", .theta = 9, .min = 0, .max = 10, .c_end = 4, .r_end = 0.002, .integer = 1},
        {.name = "B", .theta = 0.25, .min = 0, .max = 1, .c_end = 0.1, .r_end = 0.002, .integer = 0},
    };
    int8_t delta[2] = {1, -1};
    double plus[2], minus[2];
    spsa_points(&SCHED, p, 2, SCHED.iterations, delta, plus, minus);
    assert_true(plus[0] == 10.0);  /* 9 + 4 clamped to 10 */
    assert_true(minus[0] == 5.0);  /* 9 - 4 */
    assert_true(fabs(plus[1] - 0.15) < 1e-12);
    assert_true(fabs(minus[1] - 0.35) < 1e-12);
}

static void test_update_direction(void **state)
{
    (void)state;
    SpsaParam p[3];
    for (int i = 0; i < 3; i++)
        p[i] = (SpsaParam){.theta = 0, .min = -100, .max = 100, .c_end = 2, .r_end = 0.01};
    int8_t delta[3];
    spsa_signs(11, 5, 0, 3, delta);
    int results[1] = {2}; /* theta+ won both games of the pair */
    assert_int_equal(spsa_update(&SCHED, p, 3, 5, 11, 1, results), 0);
    for (int i = 0; i < 3; i++) {
        double a, c;
        spsa_gains(&SCHED, &p[i], 5, &a, &c);
        /* theta moves toward theta+ by a/c * 2 */
        assert_true(fabs(p[i].theta - delta[i] * 2.0 * a / c) < 1e-12);
    }
    /* A drawn pair moves nothing. */
    SpsaParam q = p[0];
    results[0] = 0;
    assert_int_equal(spsa_update(&SCHED, &q, 1, 6, 11, 1, results), 0);
    assert_true(q.theta == p[0].theta);
}

static void test_check(void **state)
{
    (void)state;
    char err[128];
    SpsaParam p = {.name = "KING", .theta = 5, .min = 0, .max = 10, .c_end = 1, .r_end = 0.002};
    assert_int_equal(spsa_check(&SCHED, &p, 1, err, sizeof err), 0);
    SpsaParam bad = p;
    bad.theta = 11;
    assert_int_equal(spsa_check(&SCHED, &bad, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "KING"));
    bad = p;
    bad.c_end = 0;
    assert_int_equal(spsa_check(&SCHED, &bad, 1, err, sizeof err), -1);
    SpsaSchedule s = SCHED;
    s.iterations = 0;
    assert_int_equal(spsa_check(&s, &p, 1, err, sizeof err), -1);
    assert_int_equal(spsa_check(&SCHED, &p, 0, err, sizeof err), -1);
}

/* Simulated engines: Elo(theta) = -40 * sum(((theta_i - opt_i) / 10)^2).
 * A game between x and y: draw with probability 0.3, else x wins with the
 * logistic probability of Elo(x) - Elo(y). */
enum { DIM = 4 };
static const double OPT[DIM] = {30, -20, 55, 10};

static double elo_of(const double *x)
{
    double e = 0;
    for (int i = 0; i < DIM; i++) e -= 40 * ((x[i] - OPT[i]) / 10) * ((x[i] - OPT[i]) / 10);
    return e;
}

static int play_pair(const double *x, const double *y, uint64_t *rng)
{
    double p = 1 / (1 + pow(10, -(elo_of(x) - elo_of(y)) / 400));
    int r = 0;
    for (int g = 0; g < 2; g++) {
        double u = rng_unit(rng);
        if (u < 0.3) continue;
        r += rng_unit(rng) < p ? 1 : -1;
    }
    return r;
}

/* Run SPSA from theta = 0 on the simulated engines; returns the final Elo. */
static double run_synthetic(uint64_t seed, int from_k, int to_k, SpsaParam *p)
{
    enum { PAIRS = 4 };
    for (int k = from_k; k <= to_k; k++) {
        int results[PAIRS];
        for (int j = 0; j < PAIRS; j++) {
            int8_t delta[DIM];
            double plus[DIM], minus[DIM];
            spsa_signs(seed, k, j, DIM, delta);
            spsa_points(&SCHED, p, DIM, k, delta, plus, minus);
            uint64_t game_rng = rng_derive(seed * 77, (uint64_t)(k * PAIRS + j));
            results[j] = play_pair(plus, minus, &game_rng);
        }
        assert_int_equal(spsa_update(&SCHED, p, DIM, k, seed, PAIRS, results), 0);
    }
    double th[DIM];
    for (int i = 0; i < DIM; i++) th[i] = p[i].theta;
    return elo_of(th);
}

static void init_params(SpsaParam *p)
{
    for (int i = 0; i < DIM; i++) {
        p[i] = (SpsaParam){.theta = 0, .min = -100, .max = 100, .c_end = 4, .r_end = 0.05, .integer = 1};
        snprintf(p[i].name, sizeof p[i].name, "P%d", i);
    }
}

static void test_recovers_known_optimum(void **state)
{
    (void)state;
    /* Start: Elo -40 * (9 + 4 + 30.25 + 1) = -1770. Over 10 seeds, every
     * run must end within 40 Elo of the optimum, so each parameter within
     * sqrt(40/40)*10 = 10 of it (seen: 4.6 to 25.5 Elo short). */
    int good = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        SpsaParam p[DIM];
        init_params(p);
        double e = run_synthetic(seed, 1, SCHED.iterations, p);
        int near = e > -40;
        for (int i = 0; i < DIM; i++) near &= fabs(p[i].theta - OPT[i]) < 10;
        good += near;
        if (!near)
            printf("seed %llu: Elo %.1f theta %.1f %.1f %.1f %.1f\n", (unsigned long long)seed, e, p[0].theta,
                   p[1].theta, p[2].theta, p[3].theta);
    }
    assert_int_equal(good, 10);
}

static void test_resume_is_identical(void **state)
{
    (void)state;
    /* A run stopped after iteration 400 and resumed from theta written as
     * %.17g text equals the run that went straight through, when the games
     * of an iteration depend only on (seed, k, j) — as dama's do. */
    SpsaParam a[DIM], b[DIM];
    init_params(a);
    init_params(b);
    for (int k = 1; k <= 600; k++) run_synthetic(3, k, k, a);
    for (int k = 1; k <= 400; k++) run_synthetic(3, k, k, b);
    for (int i = 0; i < DIM; i++) {
        char text[64];
        snprintf(text, sizeof text, "%.17g", b[i].theta);
        b[i].theta = strtod(text, NULL);
    }
    for (int k = 401; k <= 600; k++) run_synthetic(3, k, k, b);
    for (int i = 0; i < DIM; i++) assert_true(a[i].theta == b[i].theta);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gains_at_ends),
        cmocka_unit_test(test_signs),
        cmocka_unit_test(test_points_clamped_and_rounded),
        cmocka_unit_test(test_update_direction),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_recovers_known_optimum),
        cmocka_unit_test(test_resume_is_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
