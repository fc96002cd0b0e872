/* openings.h — opening books: labelled start positions for self-play and
 * matches. */
#ifndef DAMA_OPENINGS_H
#define DAMA_OPENINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"

/* An opening book: labelled start positions. */
typedef struct Opening {
    char label[64];
    char fen[FEN_MAX];
} Opening;

typedef struct OpeningBook {
    int len;
    Opening *items; /* owned */
} OpeningBook;

/* Read a book file: one "label<TAB>position" per line, '#' comments. A
 * comment "# game: NAME" names the book's game: another than game is an
 * error (a book without one is taken as game's). Each position is checked
 * with the game's parser, and must have a move to play (not already
 * over); a third field on a line is an error, and so is a last line
 * without its end of line (the file was cut short: "W:W21,22:B1" cut from
 * "W:W21,22:B1,2" is another valid position). Returns 0, or -1 with a
 * message naming the file and line. */
int openings_read(const Game *game, const char *path, OpeningBook *book, char err[ERR_MAX]);

/* A book of `count` random but balanced openings: opening i plays `plies`
 * uniformly random legal plies from the start position, drawn from a
 * stream derived from (seed, i); a line is redrawn (next draw of the same
 * stream) when the game ends or when a search of balance_nodes nodes with
 * the compiled-in weights scores it outside +-balance_cp centi-men
 * (balance_cp <= 0: no balance check). Random plies never move a royal
 * piece (Game.move_is_royal). Labels list the moves played.
 * Deterministic for a given seed. */
int openings_random(const Game *game, int count, int plies, uint64_t seed, int balance_cp, uint64_t balance_nodes,
                    OpeningBook *book, char err[ERR_MAX]);
void openings_free(OpeningBook *book);

enum { OPENINGS_REPEAT_MAX = 1000000 };

/* Extend book to `total` lines (a match of more pairs than the book has,
 * asked for with --repeat-book): line k >= the book's length is book line
 * k mod length followed by `plies` (>= 1) uniformly random legal plies,
 * never a royal piece's, from a stream derived from (seed, k), redrawn
 * until the position is none of the book's so far (so no two pairs replay
 * the same games). Labels are "<book label> + <plies>". Deterministic for
 * a seed. Returns 0, or -1 with err (the book is then unchanged in
 * length). total <= OPENINGS_REPEAT_MAX. */
int openings_repeat(const Game *game, OpeningBook *book, int64_t total, int plies, uint64_t seed, char err[ERR_MAX]);

/* Where a run's book comes from (openings_for_run's arguments, as the
 * --openings, --random-plies and --balance options give them). */
typedef struct OpeningsSource {
    const char *path;  /* NULL: the game's own book, else random lines */
    int random_plies;  /* 0..40 */
    int balance_cp;    /* <= 0: no balance check */
} OpeningsSource;

/* The game's own book (Game.opening_book) as a run without a book file
 * reads it: its path in the working directory, else in the source tree
 * (DAMA_SOURCE_DIR), written to path. false where the game has none or
 * neither is readable (a run then plays random lines). */
bool openings_own_book(const Game *game, char *path, size_t size);

/* The book of a run: the file `path` when given (not "random"); else, when
 * path is NULL, the game's own book (Game.opening_book, looked up in the
 * working directory, then in the source tree); else `random_plies` (0..40)
 * random plies per line, balanced to +-balance_cp centi-men (<= 0: no
 * balance check), derived from seed (see openings_random). Returns 0, or -1
 * with err naming the file or the bad value. */
int openings_for_run(const Game *game, const char *path, int random_plies, int balance_cp, uint64_t seed,
                     OpeningBook *book, char err[ERR_MAX]);
/* openings_for_run with the arguments of src. */
int openings_from_source(const Game *game, const OpeningsSource *src, uint64_t seed, OpeningBook *book,
                         char err[ERR_MAX]);

#endif
