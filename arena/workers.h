/* workers.h — one self-play or match worker: two engines and a game
 * record. */
#ifndef DAMA_WORKERS_H
#define DAMA_WORKERS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "arena/game_writer.h"
#include "arena/play.h"

struct Engine;

/* One self-play or match worker: two engines (hash_mb MiB split between
 * them, both stopped by Ctrl-C) and a game record. */
typedef struct Worker {
    struct Engine *eng[2];
    PlayRecord rec;
} Worker;
/* Both engines stop when *stop becomes non-zero (engine_set_stop_flag; the
 * flag must outlive the worker). Returns true, or false (out of memory)
 * with the worker freed and the failure recorded in wr (under the OpenMP critical section game_writer,
 * the one every user of a GameWriter in a parallel region must take). */
bool worker_init(Worker *w, const Game *g, int64_t hash_mb, volatile int *stop, GameWriter *wr);
void worker_free(Worker *w);

#endif
