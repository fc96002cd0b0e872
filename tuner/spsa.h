/* spsa.h — simultaneous perturbation stochastic approximation over a vector
 * of named parameters, the way engine testing frameworks tune by games.
 *
 * Each iteration k (1-based) perturbs every parameter at once by ±c_k (a
 * Rademacher sign per parameter and per game pair), plays the two points
 * theta+ = theta + c_k*delta and theta- = theta - c_k*delta against each
 * other, and moves theta along the measured difference:
 *
 *     theta_i += (a_k / c_k) * result * delta_i
 *
 * where result is theta+'s game points minus theta-'s over one game pair
 * (each game: +1 win, 0 draw, -1 loss; so result is in [-2, 2]).
 *
 * Gain sequences (Spall, "Implementation of the simultaneous perturbation
 * algorithm for stochastic optimization", IEEE Trans. Aerospace and
 * Electronic Systems 34(3), 1998: alpha = 0.602, gamma = 0.101, A about 10%
 * of the iterations), parametrised as fishtest does by the values wanted at
 * the last iteration N:
 *
 *     c_k = c_end * N^gamma / k^gamma
 *     a_k = r_end * c_end^2 * (A + N)^alpha / (A + k)^alpha
 *
 * so that c_N = c_end and a_N / c_N^2 = r_end.
 *
 * Pure arithmetic and a seeded sign stream: no I/O, no globals. The same
 * (seed, k, pair) always gives the same signs, so an iteration's update
 * depends only on theta_k and its results, never on thread count or order.
 */
#ifndef DAMA_SPSA_H
#define DAMA_SPSA_H

#include <stdint.h>

enum { SPSA_NAME_MAX = 64 };

typedef struct SpsaParam {
    char name[SPSA_NAME_MAX];
    double theta;    /* current value, in the parameter's own units */
    double min, max; /* theta and both points stay inside [min, max] */
    double c_end;    /* perturbation at the last iteration (> 0) */
    double r_end;    /* a_N / c_N^2 at the last iteration (> 0) */
    int integer;     /* 1: the engine uses the value rounded to an integer */
} SpsaParam;

typedef struct SpsaSchedule {
    int iterations; /* N >= 1 */
    double A;       /* stability constant >= 0 */
    double alpha;   /* learning-rate decay, 0.602 */
    double gamma;   /* perturbation decay, 0.101 */
} SpsaSchedule;

/* Check a schedule and a parameter list; 0, or -1 with a message in err
 * naming the bad value. */
int spsa_check(const SpsaSchedule *s, const SpsaParam *p, int len, char *err, int err_size);

/* Gains of iteration k (1 <= k <= N) for parameter p. */
void spsa_gains(const SpsaSchedule *s, const SpsaParam *p, int k, double *a_k, double *c_k);

/* Signs of iteration k, game pair j: delta[i] in {-1, +1}, from seed. */
void spsa_signs(uint64_t seed, int k, int j, int len, int8_t *delta);

/* The two points of one pair: plus[i] and minus[i] (clamped to [min, max]
 * and, for integer parameters, rounded to the nearest integer). */
void spsa_points(const SpsaSchedule *s, const SpsaParam *p, int len, int k, const int8_t *delta, double *plus,
                 double *minus);

/* Apply iteration k: results[j] (theta+'s points minus theta-'s over pair
 * j, in [-2, 2]) with the signs spsa_signs(seed, k, j) gives, for pairs
 * j = 0..pairs-1, summed in j order. theta is clamped to [min, max].
 * Returns 0, or -1 (out of memory; theta unchanged). */
int spsa_update(const SpsaSchedule *s, SpsaParam *p, int len, int k, uint64_t seed, int pairs, const int *results);

#endif
