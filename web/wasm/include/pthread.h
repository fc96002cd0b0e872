/* pthread.h for the single-threaded WebAssembly build (web/, docs/web.md):
 * wasi-libc has no threads. Mutexes are no-ops (one thread holds them) and
 * pthread_create fails, so the engine searches with its one thread (the
 * same path as `--threads 1` natively). */
#ifndef DAMA_WEB_PTHREAD_H
#define DAMA_WEB_PTHREAD_H

#include <errno.h>

typedef struct { int unused; } pthread_mutex_t;
typedef struct { int unused; } pthread_mutexattr_t;
typedef struct { int unused; } pthread_attr_t;
typedef int pthread_t;

static inline int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) { (void)m; (void)a; return 0; }
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
    (void)t; (void)a; (void)fn; (void)arg;
    return EAGAIN;
}
static inline int pthread_join(pthread_t t, void **ret) { (void)t; (void)ret; return EINVAL; }

#endif
