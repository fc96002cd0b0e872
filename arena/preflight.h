/* preflight.h — the checks a run makes before it stores anything: that the
 * transposition tables its workers will hold fit in memory, and that an
 * external engine starts. A refused run then leaves no half-started run in
 * the database. Used by match, tournament and SPSA runs (and the command
 * line's run_check_hash / run_check_engine). Nothing here prints. */
#ifndef DAMA_PREFLIGHT_H
#define DAMA_PREFLIGHT_H

#include <stdint.h>

#include "engine/game.h"

struct PlayerSpec;

/* Allocate (then free) `tables` engines of table_mb MiB each for game g,
 * as a run's workers will, so that a --hash too large for this machine is
 * an error up front. Returns 0, or -1 with err naming `option` (e.g.
 * "--hash 65536"), the table count and size. Thread-safe. (Memory the
 * kernel overcommits can still run out later, when the tables fill.) */
int preflight_check_hash(const Game *g, int64_t table_mb, int tables, const char *option, char err[ERR_MAX]);

/* Start the external Hub engine of spec once (the "hub" / "init" handshake
 * of player_new_game, its param.NAME values set) and stop it, so that a
 * command that cannot start (no such file, not executable, exits or hangs
 * during hub/init) is an error naming `who` (e.g. "--a-cmd", "engine 'H'"),
 * the command and why. An in-process engine (PLAYER_DAMA) passes at once.
 * *stop (may be NULL) interrupts the start. Blocks up to the start-up
 * timeout (10 s). Returns 0, or -1 with err. Thread-safe. */
int preflight_check_engine(const Game *g, const struct PlayerSpec *spec, const char *who, volatile int *stop,
                           char err[ERR_MAX]);

#endif
