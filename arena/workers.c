/* workers.c — a self-play or match worker's engines and game record
 * (contracts in play/workers.h). */
#include "arena/workers.h"

#include <stdio.h>
#include <string.h>

#include "engine/search.h"

bool worker_init(Worker *w, const Game *g, int64_t hash_mb, volatile int *stop, GameWriter *wr)
{
    size_t each = (size_t)(hash_mb / 2 > 0 ? hash_mb / 2 : 1);
    memset(w, 0, sizeof *w);
    w->eng[0] = engine_new(g, each);
    w->eng[1] = engine_new(g, each);
    if (!w->eng[0] || !w->eng[1] || play_record_init(&w->rec) != 0) {
        engine_free(w->eng[0]);
        engine_free(w->eng[1]);
        memset(w, 0, sizeof *w);
#pragma omp critical(game_writer)
        {
            snprintf(wr->err, ERR_MAX, "out of memory for a worker's engines (--hash %lld MiB)", (long long)hash_mb);
            wr->failed = true;
        }
        return false;
    }
    engine_set_stop_flag(w->eng[0], stop);
    engine_set_stop_flag(w->eng[1], stop);
    return true;
}

void worker_free(Worker *w)
{
    play_record_free(&w->rec);
    engine_free(w->eng[0]);
    engine_free(w->eng[1]);
    memset(w, 0, sizeof *w);
}
