/* hub.h — dama as an engine over a text stream: the Hub protocol, version 2,
 * as Scan 3.1 defines it (Fabien Letouzey's protocol.txt shipped with Scan:
 * "hub", "init", "pos", "level", "go", "stop", "ponder-hit", "ping",
 * "new-game", "set-param", "quit"; answers "id", "param", "wait", "ready",
 * "info", "done", "pong", "error"). docs/hub.md documents the session.
 * International draughts speaks Hub's own position and move strings
 * (protocol/hub_notation.h); every other game keeps its own notation, and
 * docs/hub.md lists where those differ from Hub's.
 *
 * The search runs in its own thread, so that "stop", "ping" and
 * "ponder-hit" are answered while it thinks; the reader never blocks the
 * search and the search never blocks the reader.
 */
#ifndef DAMA_HUB_H
#define DAMA_HUB_H

#include <stdint.h>
#include <stdio.h>

#include "engine/game.h"
struct MoveBook;
#include "protocol/hub_line.h" /* HubLine, hub_parse_line, hub_arg: the line syntax */

/* Defaults of the engine's parameters (the `dama hub` options). */
typedef struct HubOptions {
    const char *variant;  /* game name (game_find): russian, turkish, shatra, brazilian, ... */
    int hash_mb;          /* transposition table, MiB */
    const char *weights;  /* default, tuned, db:ID, ID or a weight file */
    const char *db;       /* database for tuned / db:ID weights */
    const char *level;    /* skill level name (engine/skill.h) */
    uint64_t seed;        /* seed of the skill levels' random choices */
    const char *egtb_path; /* endgame database directory (egtb/egtb.h); NULL or "": none */
    bool egtb_optional;    /* egtb_path is the default directory: a variant without tables there plays
                            * without a database (a path set by set-param egtb-path is not optional) */
    int egtb_pieces;       /* probe it at most at this many pieces (0: all it holds) */
    /* A move book (book/book.h; NULL: none; not owned, outlives the
     * session): a `go think` in one of its positions answers with a book
     * move (chosen from the seed param) and "info book=1", while the
     * session plays the book's game. */
    const struct MoveBook *book;
    /* Search constants set in every engine the session makes (whatever the
     * variant): "NAME=VALUE[,NAME=VALUE...]" as engine_set_params_text
     * reads it; NULL: the game's defaults. Not owned, outlives the session. */
    const char *search_params;
} HubOptions;

/* Run a session: read commands from file descriptor in_fd until "quit" or
 * end of input, write answers to out (flushed after each line). Bad input
 * gets an "error message=..." line and the session goes on. Returns 0, or
 * -1 with err when the session cannot run at all (out of memory, a thread
 * cannot start, a read error). Not reentrant on the same descriptors. */
int hub_run(int in_fd, FILE *out, const HubOptions *defaults, char err[ERR_MAX]);

#endif
