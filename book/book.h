/* book.h — an engine's move book: for a position, the moves dama's own
 * games played there, with how often and how well (docs/book.md).
 *
 * Not the opening ballots of arena/openings.h (start positions dealt to a
 * match): a MoveBook is consulted by a playing engine, move by move, and
 * answers with one of the moves it holds for the position on the board.
 *
 * File format (plain text, UTF-8, one record a line):
 *   # dama book GAME 1                      first line: the game and format version
 *   # anything                              comments, anywhere after it
 *   FEN<TAB>MOVE<TAB>GAMES<TAB>SCORE        one line per position and move
 * FEN is a position in the game's position string (any form its parser
 * takes; kept as the game writes it), MOVE a legal move there in the
 * game's notation, GAMES the games that played it (1..10^12), SCORE the
 * mover's mean result in them (0 loss .. 1 win, draws 0.5). A position and
 * move given twice is refused. Lines are written sorted by position
 * string, then by games (most first), so that files diff well; the reader
 * does not need any order.
 *
 * Lookup: positions are keyed by the game's Zobrist key (Game.hash) in an
 * open-addressing table and compared exactly by their position strings.
 *
 * Threads: a loaded book is read-only; any number of threads may probe it.
 * Errors: functions returning int give 0, or -1 with a message in err
 * naming the file and line. Nothing prints.
 */
#ifndef DAMA_BOOK_H
#define DAMA_BOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "util/atomic_file.h"

enum {
    BOOK_FORMAT_VERSION = 1,
    BOOK_ENTRIES_MAX = 1 << 24 /* positions a book may hold */
};
#define BOOK_GAMES_MAX 1000000000000LL /* largest GAMES field */

typedef struct BookMove {
    Move move;
    int64_t games; /* games that played it (>= 1) */
    double score;  /* the mover's mean result in them: 0 .. 1 */
} BookMove;

typedef struct BookEntry {
    uint64_t key; /* Game.hash of the position */
    char *fen;    /* the position as the game writes it (owned); NULL: empty slot */
    int len, cap;
    BookMove *moves; /* owned */
} BookEntry;

typedef struct MoveBook {
    const Game *game;
    int64_t len; /* positions held */
    int64_t cap; /* slots (a power of two, or 0) */
    BookEntry *slots;
} MoveBook;

/* An empty book of game (no allocation yet). */
void book_init(MoveBook *b, const Game *game);
void book_free(MoveBook *b);

/* Add `games` games of move m (legal in pos) scoring `score` (the mover's
 * mean, 0..1) to the book: a new line, or merged into the one it has
 * (games summed, scores averaged by games). Returns 0, or -1 with err
 * (out of memory, the table full). */
int book_add(MoveBook *b, const Position *pos, const Move *m, int64_t games, double score, char err[ERR_MAX]);

/* The entry of pos, or NULL when the book does not hold it. */
const BookEntry *book_find(const MoveBook *b, const Position *pos);

/* Read a book file. expect: the game the caller plays (NULL: the one the
 * header names); a file of another game is refused. Every line is checked
 * with the game's parsers: a bad line is refused naming path and line,
 * as is a last line without its end of line (a truncated file).
 * On failure b holds nothing (no need to free). */
int book_load(MoveBook *b, const Game *expect, const char *path, char err[ERR_MAX]);

/* Write the book to path atomically (util/atomic_file.h: a temporary
 * file, then rename; opts says whether an existing file may be replaced
 * and which database is never overwritten). comment (may be NULL) is
 * written as "# " lines after the header. */
int book_save(const MoveBook *b, const char *path, const AtomicOptions *opts, const char *comment, char err[ERR_MAX]);

/* The entry's moves sorted as written: most games first, then best score,
 * then move text. */
void book_entry_sort(const MoveBook *b, BookEntry *e);

/* Choose a book move for pos: among its moves, one drawn with probability
 * proportional to its games, from a stream derived from seed and the
 * position's key (the same seed and position always choose the same move).
 * Returns true with *out (and *chosen, may be NULL) set, false when pos is
 * not in the book or no book move is legal there. */
bool book_pick(const MoveBook *b, const Position *pos, uint64_t seed, Move *out, const BookMove **chosen);

#endif
