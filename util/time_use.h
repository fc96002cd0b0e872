/* time_use.h — the time a player used for its moves, summed over games, and
 * the comparison of two players' use: the honest yardstick of a strength
 * figure is equal time *used*, not equal settings (two engines given the
 * same --movetime may use quite different time).
 *
 * A sum holds moves and the wall and CPU seconds the player used for them
 * (arena/player.h: PlayerMove.seconds, .cpu_seconds; the CPU time of a Hub
 * engine is that of its process tree). Means are milliseconds per move.
 * Two players used equal time when both their wall and their CPU means are
 * within TIME_USE_EQUAL (5%) of each other, as scripts/elo_match.py says.
 * Pure functions, thread-safe. */
#ifndef DAMA_TIME_USE_H
#define DAMA_TIME_USE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIME_USE_EQUAL 0.05 /* the largest relative difference still "equal time" */

typedef struct TimeUse {
    int64_t moves;        /* moves timed */
    double wall_s, cpu_s; /* seconds used for them, summed */
} TimeUse;

/* a += b. */
void time_use_add(TimeUse *a, const TimeUse *b);

/* Mean wall / CPU milliseconds per move; NaN when no move was timed. */
double time_use_wall_ms(const TimeUse *t);
double time_use_cpu_ms(const TimeUse *t);

/* Two players' time use compared: ratios a/b of the means (NaN when
 * either side has no timed move or a mean of 0: a mean of 0 is no
 * measurement, as the CPU time of a program over DXP, never "infinitely
 * less"), whether both are equal, and, when not, which measure differs most
 * ("wall" or "CPU"), which player used more of it (0: a, 1: b) and by how
 * many percent of the other's mean. Without a CPU measure of both (a DXP
 * program's CPU time is 0) the wall means alone are compared and the
 * verdict says the CPU time was not measured.
 * Equal: for wall and CPU (where measured), the side that used more used at
 * most 100 x tolerance percent more, counted in percent rounded to 0.1 as
 * the verdict prints it, bounds included (5.0% more is within 5%; 5.1% is
 * not). */
typedef struct TimeCompare {
    bool known;            /* both have timed moves and wall means > 0 */
    bool cpu_known;        /* known, and both CPU means are > 0 too */
    double wall_ratio, cpu_ratio;
    bool equal;
    const char *measure;   /* "wall" or "CPU" (static), the larger difference */
    int more;              /* 0: a used more of it, 1: b */
    double pct_more;       /* (more's mean / the other's - 1) * 100, rounded to 0.1 */
} TimeCompare;

void time_use_compare(const TimeUse *a, const TimeUse *b, double tolerance, TimeCompare *out);

/* The verdict of c for players named a and b, into out (NUL-terminated,
 * cut to size): "equal time used (within 5%)", "unequal time: A used 12.3%
 * more CPU time than B", or "time used: not measured" (c->known false);
 * without CPU measures "equal wall time used (within 5%); CPU time not
 * measured" or "unequal time: A used 12.3% more wall time than B; CPU time
 * not measured". */
void time_use_verdict(const TimeCompare *c, double tolerance, const char *a, const char *b, char *out, size_t size);

/* "wall 12.30 ms, CPU 11.90 ms per move (456 moves)", or "no timed moves". */
void time_use_format(const TimeUse *t, char *out, size_t size);

#endif
