/* game_writer.h — finished games on their way to the database. */
#ifndef DAMA_GAME_WRITER_H
#define DAMA_GAME_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "play/play.h"

struct Db;

/* Finished games on their way to the database: one writer, batched
 * transactions (a batch is stored whole or not at all). Not thread-safe:
 * callers serialise (an OpenMP critical section). */
typedef struct GamePending GamePending;
typedef struct GameWriter {
    struct Db *db;
    GamePending **pending;
    int len, batch;
    double last_flush, flush_interval_s;
    int64_t stored;
    bool failed;
    char err[ERR_MAX];
} GameWriter;

struct DbGame;
int game_writer_init(GameWriter *w, struct Db *db, int batch, double flush_interval_s);
/* Queue a played game with its metadata (copied); flushes when the batch is
 * full or the interval has passed. Returns 0 or -1 (w->err set, w->failed). */
int game_writer_add(GameWriter *w, const Game *g, const PlayRecord *rec, const struct DbGame *meta);
int game_writer_flush(GameWriter *w);
void game_writer_free(GameWriter *w);

#endif
