/* glue.c — what the WebAssembly build (web/dama.wasm) adds to the engine
 * library's own exports (every DAMA_API function of include/dama/engine.h):
 * memory for the JavaScript side (web/dama.js) to pass strings and read
 * results, and a stop callback that asks the page. */
#include <stdlib.h>

#include "dama/engine.h"
#include "engine/bench.h"
#include "engine/game.h"

#define WEB_EXPORT __attribute__((visibility("default")))

/* Imported from JavaScript (module "dama"): non-zero when the page asked
 * the running search to stop (web/dama.js reads a shared flag). */
__attribute__((import_module("dama"), import_name("stop_requested"))) int web_stop_requested(void);

WEB_EXPORT void *web_alloc(size_t n) { return malloc(n ? n : 1); }
WEB_EXPORT void web_free(void *p) { free(p); }

static int stop_cb(void *ctx)
{
    (void)ctx;
    return web_stop_requested();
}

/* Polls the page's stop flag during every search of `game`. */
WEB_EXPORT void web_watch_stop(DamaGame *game) { dama_set_stop_callback(game, stop_cb, NULL); }

/* `dama bench`'s search benchmark in the page (docs/web.md): game `name`'s
 * bench positions, each to `depth` plies from a cleared 16 MiB table, one
 * thread (engine_bench_search, as cli/cmd_bench.c). out[0] = nodes (the
 * native build's count: the same work), out[1] = wall seconds. Returns 0,
 * or -1 for an unknown game, a bad position or no memory. */
WEB_EXPORT int web_bench(const char *name, int depth, double *out)
{
    DamaGame *setup = NULL; /* a game's creation runs the library's one-time set-up */
    if (dama_game_new(name, "start", &setup, NULL) != DAMA_OK) return -1;
    dama_game_free(setup);
    const Game *g = game_find(name);
    if (!g || depth < 1) return -1;
    int n = 0;
    while (g->bench_fens[n]) n++;
    Position *pos = malloc(sizeof *pos * (size_t)(n ? n : 1));
    Engine *e = engine_new(g, 16);
    char err[ERR_MAX];
    int rc = pos && e ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; i++)
        if (game_parse_position(g, g->bench_fens[i], &pos[i], err) != 0) rc = -1;
    if (rc == 0) {
        EngineBench b;
        engine_bench_search(e, pos, n, depth, &b);
        out[0] = (double)b.count;
        out[1] = b.wall_s;
    }
    engine_free(e);
    free(pos);
    return rc;
}
