/* bench.c — fixed-work measurements of the engine (contracts in
 * engine/bench.h). */
#include "engine/bench.h"

#include "util/clock.h"

void engine_bench_search(Engine *e, const Position *positions, int len, int depth, EngineBench *out)
{
    *out = (EngineBench){0};
    for (int i = 0; i < len; i++) {
        double q0 = clock_now_s();
        engine_clear(e);
        out->clear_s += clock_now_s() - q0;
        SearchLimits lim = {.depth = depth};
        SearchResult r;
        double t0 = clock_now_s(), c0 = clock_process_cpu_s();
        engine_search(e, &positions[i], NULL, 0, &lim, &r, NULL, NULL);
        out->wall_s += clock_now_s() - t0;
        out->cpu_s += clock_process_cpu_s() - c0;
        out->count += r.nodes;
    }
}

void engine_bench_perft(const Game *game, const Position *pos, int depth, EngineBench *out)
{
    *out = (EngineBench){0};
    double t0 = clock_now_s(), c0 = clock_process_cpu_s();
    out->count = game->perft(pos, depth, GEN_DISTINCT);
    out->wall_s = clock_now_s() - t0;
    out->cpu_s = clock_process_cpu_s() - c0;
}
