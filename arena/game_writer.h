/* game_writer.h — finished games on their way to the database. */
#ifndef DAMA_GAME_WRITER_H
#define DAMA_GAME_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "arena/play.h"

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

/* The time each colour used in rec (its moves, wall and CPU seconds) into
 * meta->time, meta->timed set: what game_writer_add stores with a game. */
void game_writer_set_times(struct DbGame *meta, const PlayRecord *rec);

/* A finished game as bytes, for the writer of another process (self-play
 * over MPI: ranks send their games to rank 0): everything
 * game_writer_add stores (the metadata, result, reason, movetext, detail,
 * the time each colour used, each position's FEN, side to move, score and
 * quiet flag), integers
 * little-endian. *out is allocated (free it), *size its bytes. Returns 0,
 * or -1 out of memory. Thread-safe (reads only its arguments). */
int game_writer_encode(const Game *g, const PlayRecord *rec, const struct DbGame *meta, uint8_t **out, size_t *size);

/* Queue a game encoded by game_writer_encode, as game_writer_add does; the
 * bytes are checked (lengths, ranges, nothing left over) and copied.
 * *outcome and *plies (either may be NULL) receive the game's. Returns 0,
 * or -1 with w->err naming the byte where a malformed encoding went wrong
 * (w->failed set). */
int game_writer_add_encoded(GameWriter *w, const uint8_t *buf, size_t size, Outcome *outcome, int *plies);
void game_writer_free(GameWriter *w);

#endif
