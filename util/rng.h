/* rng.h — small deterministic generators (no global state).
 * splitmix64: Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators" (OOPSLA 2014); constants from the public-domain reference. */
#ifndef DAMA_RNG_H
#define DAMA_RNG_H

#include <stdint.h>

/* Next value of a splitmix64 stream; advances *state. */
static inline uint64_t rng_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Seed of item `index` of a run seeded with `seed` (self-play game i, ...):
 * independent of thread count and order. */
static inline uint64_t rng_derive(uint64_t seed, uint64_t index)
{
    uint64_t s = seed ^ (index * 0xD1B54A32D192ED03ULL);
    rng_splitmix64(&s);
    return rng_splitmix64(&s);
}

/* Uniform integer in [0, n), n > 0. */
static inline uint64_t rng_below(uint64_t *state, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)rng_splitmix64(state) * n) >> 64);
}

/* Uniform double in [0, 1). */
static inline double rng_unit(uint64_t *state)
{
    return (double)(rng_splitmix64(state) >> 11) * 0x1.0p-53;
}

#endif
