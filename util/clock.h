/* clock.h — wall-clock seconds for rates and flush intervals. */
#ifndef DAMA_CLOCK_H
#define DAMA_CLOCK_H

#include <time.h>

/* Seconds on the monotonic clock (CLOCK_MONOTONIC, POSIX): only differences
 * mean anything. Thread-safe. */
static inline double clock_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
