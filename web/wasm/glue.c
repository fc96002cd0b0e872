/* glue.c — what the WebAssembly build (web/dama.wasm) adds to the engine
 * library's own exports (every DAMA_API function of include/dama/engine.h):
 * memory for the JavaScript side (web/dama.js) to pass strings and read
 * results, and a stop callback that asks the page. */
#include <stdlib.h>

#include "dama/engine.h"

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
