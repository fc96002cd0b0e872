/* bench.h — fixed-work measurements of the engine (`dama bench`): the work
 * (nodes, leaves) depends only on the binary; the times on the machine. */
#ifndef DAMA_BENCH_H
#define DAMA_BENCH_H

#include <stdint.h>

#include "engine/game.h"
#include "engine/search.h"

/* One pass of a benchmark. */
typedef struct EngineBench {
    uint64_t count; /* nodes searched, or perft leaves */
    double wall_s;  /* wall seconds of the work itself (monotonic clock) */
    double cpu_s;   /* CPU seconds of the process in that time (all threads) */
    double clear_s; /* wall seconds of the TT clears (not in wall_s); 0 for perft */
} EngineBench;

/* Search each of positions[0..len) to `depth` plies with e, from a
 * cleared TT each (the node count depends on it; the clear, a memset of
 * the whole table, is timed apart: inside the searches' time it
 * understated nodes/s, most at small depths), no history. One thread of e
 * gives the same count every time. */
void engine_bench_search(Engine *e, const Position *positions, int len, int depth, EngineBench *out);

/* Perft of pos to depth (D convention, count-only last ply), one thread. */
void engine_bench_perft(const Game *game, const Position *pos, int depth, EngineBench *out);

#endif
