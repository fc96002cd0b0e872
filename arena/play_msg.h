/* play_msg.h — a played game as bytes (arena/play.h's PlayRecord), the
 * message a rank of an MPI job sends rank 0 for every finished game
 * (dist/relay.h carries it). Native byte order: the same binary on every
 * rank. */
#ifndef DAMA_PLAY_MSG_H
#define DAMA_PLAY_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"
#include "arena/play.h"

/* A finished game of a scheduler job as bytes (dist_schedule_run's
 * messages): job, game k of it, the players' indexes and the whole record.
 * *out is malloc'd. Returns 0, or -1 out of memory. Thread-safe. */
int dist_record_encode(int64_t job, int k, int white, int black, const PlayRecord *rec, uint8_t **out, size_t *size);

/* Decode what dist_record_encode wrote into rec (made by
 * play_record_init; its movetext is replaced; rec->reason is interned: a
 * string that lives as long as the process, as a played record's static
 * reason does; reason[] is scratch). Returns 0, or -1 with err
 * naming the byte where a malformed message went wrong (lengths, plies
 * over PLAY_PLIES_MAX, an outcome or fault out of range, bytes left over). */
int dist_record_decode(const Game *g, const uint8_t *buf, size_t size, int64_t *job, int *k, int *white, int *black,
                       PlayRecord *rec, char reason[64], char err[ERR_MAX]);

#endif
