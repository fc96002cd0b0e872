/* book_build.h — a move book grown from the games of a dama database
 * (`dama book build`; docs/book.md). */
#ifndef DAMA_BOOK_BUILD_H
#define DAMA_BOOK_BUILD_H

#include <stdint.h>

#include "book/book.h"

enum { BOOK_PLY_MAX = 200 };

typedef struct BookBuildOptions {
    const Game *game;
    const char *db_path; /* a dama database (self-play, match, tournament games) */
    int max_ply;         /* the positions before plies 0 .. max_ply-1 of each game (1..BOOK_PLY_MAX) */
    int64_t min_games;   /* a move is kept when played in at least this many games (>= 1) */
    double min_score;    /* ... and the mover scored at least this on average (0..1) */
    double margin;       /* ... and at most this much below the position's best kept move (0..1) */
} BookBuildOptions;

typedef struct BookBuildStats {
    int64_t games;            /* games read */
    int64_t skipped;          /* left out: no result, or lost by a fault (crash, timeout, illegal move) */
    int64_t moves_seen;       /* distinct (position, move) pairs counted */
    int64_t positions, moves; /* what the book keeps */
} BookBuildStats;

/* Count every (position, move) of the first max_ply plies of the stored
 * games of o->game, with the mover's result, and keep the moves that pass
 * the options (a position without one is dropped). b is initialised here
 * (free with book_free, also after a failure). A stored game whose moves
 * do not replay is an error naming its id and ply. Returns 0, or -1 with
 * err. */
int book_build(MoveBook *b, const BookBuildOptions *o, BookBuildStats *st, char err[ERR_MAX]);

#endif
