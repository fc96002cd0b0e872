/* spsa.c — SPSA gains, signs and updates (contracts in tune/spsa.h). */
#include "tuner/spsa.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"

int spsa_check(const SpsaSchedule *s, const SpsaParam *p, int len, char *err, int err_size)
{
    if (s->iterations < 1) {
        snprintf(err, (size_t)err_size, "SPSA iterations %d: must be at least 1", s->iterations);
        return -1;
    }
    if (!(s->A >= 0) || !(s->alpha > 0 && s->alpha <= 1) || !(s->gamma > 0 && s->gamma <= 1)) {
        snprintf(err, (size_t)err_size, "SPSA schedule A %g alpha %g gamma %g: need A >= 0, 0 < alpha, gamma <= 1",
                 s->A, s->alpha, s->gamma);
        return -1;
    }
    if (len < 1) {
        snprintf(err, (size_t)err_size, "SPSA: no parameter to tune");
        return -1;
    }
    for (int i = 0; i < len; i++) {
        const SpsaParam *q = &p[i];
        if (!(q->min <= q->max) || !(q->theta >= q->min && q->theta <= q->max)) {
            snprintf(err, (size_t)err_size, "SPSA parameter %s: value %g outside its range [%g, %g]", q->name, q->theta,
                     q->min, q->max);
            return -1;
        }
        if (!(q->c_end > 0) || !(q->r_end > 0) || !isfinite(q->c_end) || !isfinite(q->r_end)) {
            snprintf(err, (size_t)err_size, "SPSA parameter %s: c_end %g and r_end %g must be positive", q->name,
                     q->c_end, q->r_end);
            return -1;
        }
    }
    return 0;
}

void spsa_gains(const SpsaSchedule *s, const SpsaParam *p, int k, double *a_k, double *c_k)
{
    double n = s->iterations;
    double c = p->c_end * pow(n, s->gamma);
    double a = p->r_end * p->c_end * p->c_end * pow(s->A + n, s->alpha);
    *c_k = c / pow((double)k, s->gamma);
    *a_k = a / pow(s->A + (double)k, s->alpha);
}

void spsa_signs(uint64_t seed, int k, int j, int len, int8_t *delta)
{
    uint64_t st = rng_derive(rng_derive(seed ^ 0x5350534155ULL, (uint64_t)k), (uint64_t)j);
    uint64_t bits = 0;
    for (int i = 0; i < len; i++) {
        if (i % 64 == 0) bits = rng_splitmix64(&st);
        delta[i] = (bits >> (i % 64)) & 1 ? 1 : -1;
    }
}

static double clamp_param(const SpsaParam *p, double v)
{
    if (v < p->min) v = p->min;
    if (v > p->max) v = p->max;
    return v;
}

static double applied(const SpsaParam *p, double v)
{
    v = clamp_param(p, v);
    if (p->integer) {
        v = floor(v + 0.5);
        if (v > p->max) v = floor(p->max);
        if (v < p->min) v = ceil(p->min);
    }
    return v;
}

void spsa_points(const SpsaSchedule *s, const SpsaParam *p, int len, int k, const int8_t *delta, double *plus,
                 double *minus)
{
    for (int i = 0; i < len; i++) {
        double a_k, c_k;
        spsa_gains(s, &p[i], k, &a_k, &c_k);
        plus[i] = applied(&p[i], p[i].theta + c_k * delta[i]);
        minus[i] = applied(&p[i], p[i].theta - c_k * delta[i]);
    }
}

int spsa_update(const SpsaSchedule *s, SpsaParam *p, int len, int k, uint64_t seed, int pairs, const int *results)
{
    int8_t *delta = malloc((size_t)len);
    double *step = calloc((size_t)len, sizeof *step);
    if (!delta || !step) {
        free(delta);
        free(step);
        return -1;
    }
    for (int j = 0; j < pairs; j++) {
        spsa_signs(seed, k, j, len, delta);
        for (int i = 0; i < len; i++) step[i] += (double)results[j] * delta[i];
    }
    for (int i = 0; i < len; i++) {
        double a_k, c_k;
        spsa_gains(s, &p[i], k, &a_k, &c_k);
        p[i].theta = clamp_param(&p[i], p[i].theta + a_k / c_k * step[i]);
    }
    free(delta);
    free(step);
    return 0;
}
