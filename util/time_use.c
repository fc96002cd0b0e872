/* time_use.c — time used per move and two players' use compared
 * (contracts in util/time_use.h). */
#include "util/time_use.h"

#include <math.h>
#include <stdio.h>

void time_use_add(TimeUse *a, const TimeUse *b)
{
    a->moves += b->moves;
    a->wall_s += b->wall_s;
    a->cpu_s += b->cpu_s;
}

double time_use_wall_ms(const TimeUse *t) { return t->moves > 0 ? 1000.0 * t->wall_s / (double)t->moves : NAN; }

double time_use_cpu_ms(const TimeUse *t) { return t->moves > 0 ? 1000.0 * t->cpu_s / (double)t->moves : NAN; }

/* a/b, NaN unless both are measured: numbers > 0 (a mean of 0 is a time
 * nobody measured, such as a DXP program's CPU time) */
static double ratio(double a, double b) { return isnan(a) || isnan(b) || a <= 0 || b <= 0 ? NAN : a / b; }

/* How far r is from 1, as the larger side's excess over the smaller:
 * r = 1.2 and r = 1/1.2 are both 20% more for one side. */
static double excess(double r) { return r >= 1 ? r - 1 : 1 / r - 1; }

/* A percentage at the precision the verdict prints it (0.1): a ratio of
 * 1.05 is 5.000000000000004% in doubles, printed and judged as 5.0%. */
static double tenths(double pct) { return round(pct * 10) / 10; }

void time_use_compare(const TimeUse *a, const TimeUse *b, double tolerance, TimeCompare *out)
{
    *out = (TimeCompare){.wall_ratio = ratio(time_use_wall_ms(a), time_use_wall_ms(b)),
                         .cpu_ratio = ratio(time_use_cpu_ms(a), time_use_cpu_ms(b)), .measure = "wall"};
    out->known = !isnan(out->wall_ratio);
    out->cpu_known = out->known && !isnan(out->cpu_ratio);
    if (!out->known) return;
    double ew = excess(out->wall_ratio), ec = out->cpu_known ? excess(out->cpu_ratio) : 0;
    /* inclusive, at the printed precision: "5.0% more" is within 5% */
    double limit = tenths(100.0 * tolerance);
    out->equal = tenths(100.0 * ew) <= limit && tenths(100.0 * ec) <= limit;
    double r = out->wall_ratio;
    if (ec > ew) out->measure = "CPU", r = out->cpu_ratio;
    out->more = r >= 1 ? 0 : 1;
    out->pct_more = tenths(100.0 * fmax(ew, ec));
}

void time_use_verdict(const TimeCompare *c, double tolerance, const char *a, const char *b, char *out, size_t size)
{
    if (size == 0) return;
    if (!c->known) snprintf(out, size, "time used: not measured");
    else if (c->equal)
        snprintf(out, size, "equal %stime used (within %g%%)%s", c->cpu_known ? "" : "wall ", 100 * tolerance,
                 c->cpu_known ? "" : "; CPU time not measured (a mean of 0: none taken, or less than the clock's tick)");
    else
        snprintf(out, size, "unequal time: %s used %.1f%% more %s time than %s%s", c->more ? b : a, c->pct_more,
                 c->measure, c->more ? a : b, c->cpu_known ? "" : "; CPU time not measured (a mean of 0: none taken, or less than the clock's tick)");
}

void time_use_format(const TimeUse *t, char *out, size_t size)
{
    if (size == 0) return;
    if (t->moves <= 0) snprintf(out, size, "no timed moves");
    else
        snprintf(out, size, "wall %.2f ms, CPU %.2f ms per move (%lld moves)", time_use_wall_ms(t),
                 time_use_cpu_ms(t), (long long)t->moves);
}
