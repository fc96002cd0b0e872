/* clock.h — the one clock helper: wall-clock seconds for rates, flush
 * intervals and deadlines, and CPU seconds for measurements that a shared
 * machine must not skew (the wall clock also counts the time other
 * processes held the core, the CPU time does not). */
#ifndef DAMA_CLOCK_H
#define DAMA_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline double clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds on the monotonic clock (CLOCK_MONOTONIC, POSIX): only differences
 * mean anything. Thread-safe. */
static inline double clock_now_s(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* The same clock in integer nanoseconds, for deadlines checked in hot
 * loops (the search's, every 1,024 nodes: integer compares, no floating
 * point). Thread-safe. */
static inline int64_t clock_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* CPU seconds used by this process, every thread together
 * (CLOCK_PROCESS_CPUTIME_ID, POSIX): only differences mean anything.
 * Thread-safe. */
static inline double clock_process_cpu_s(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

/* CPU seconds used by the calling thread (CLOCK_THREAD_CPUTIME_ID, POSIX):
 * only differences within one thread mean anything. Thread-safe. */
static inline double clock_thread_cpu_s(void) { return clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

#endif
