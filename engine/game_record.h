/* game_record.h — a game in progress, owned by one client (the engine
 * protocol, `dama play`, a tournament game): the start position, the moves
 * applied, every position reached and its Zobrist key.
 *
 * Why: a bare position string carries the draw rules' counters but not the
 * earlier positions, so a search or an end-of-game check given only the
 * current position is blind to threefold repetition. A GameRecord keeps the
 * whole history and hands it to game_outcome() and engine_search() in the
 * form they take.
 *
 * Pure: no I/O, no globals; the arrays grow on the heap (one record per
 * client, not shared between threads without a lock). Positions are the
 * game's own (game.h); move text is the game's own notation, full or short
 * forms (Game.move_from_str).
 */
#ifndef DAMA_GAME_RECORD_H
#define DAMA_GAME_RECORD_H

#include <stdint.h>

#include "engine/game.h"

typedef struct GameRecord {
    const Game *game;
    int len;              /* plies applied */
    int cap;              /* plies the arrays hold before growing */
    Move *moves;          /* moves[i] was played in positions[i] */
    Position *positions;  /* positions[0] = start .. positions[len] = current */
    uint64_t *keys;       /* keys[i] = game->hash(&positions[i]), i <= len */
} GameRecord;

/* Start a record at `fen` (NULL, "" or "start": the game's start position).
 * Returns 0, or -1 with err naming the bad position string (or "out of
 * memory"); on failure the record holds nothing and needs no free. */
int game_record_init(GameRecord *r, const Game *game, const char *fen, char err[ERR_MAX]);
void game_record_free(GameRecord *r);

/* Drop every move: the record is back at its start position. */
void game_record_clear(GameRecord *r);

/* Apply `move` to the current position. The move must be one of the legal
 * moves (compared by from, to, captured set, kind and promotion, the D
 * convention of game.h) and the game must not be over (game_outcome with
 * the whole history). Returns 0, or -1 with err (illegal move, game over,
 * out of memory); the record is unchanged on failure. */
int game_record_apply(GameRecord *r, const Move *move, char err[ERR_MAX]);

/* Apply a move given as text in the game's notation (full or short form).
 * Returns 0, or -1 with err naming the text (malformed, illegal, ambiguous,
 * game over). */
int game_record_apply_text(GameRecord *r, const char *text, char err[ERR_MAX]);

/* Apply a whitespace-separated list of moves in order (a Hub "moves"
 * value, a PDN-like list without move numbers). All or nothing: on error
 * the record is as it was, and err names the move's index (1-based) and
 * text. Returns 0 or -1. */
int game_record_apply_list(GameRecord *r, const char *list, char err[ERR_MAX]);

/* Take back the last `plies` moves (0 < plies <= len). Returns 0, or -1 if
 * fewer moves were played (then nothing is undone). */
int game_record_undo(GameRecord *r, int plies);

/* The current position (valid until the next apply/undo/free). */
const Position *game_record_position(const GameRecord *r);
/* The start position. */
const Position *game_record_start(const GameRecord *r);

/* The legal moves of the current position (D convention). Returns their
 * number. */
int game_record_legal_moves(const GameRecord *r, MoveList *list);

/* Outcome of the current position with the whole history: the game's rule
 * counters as the position carries them, no legal move, threefold
 * repetition (game_outcome of game.h). *reason gets a static id ("D3",
 * "no-moves", ...) or NULL. `moves` may be NULL; if not, it receives the
 * legal moves. */
Outcome game_record_outcome(const GameRecord *r, const char **reason, MoveList *moves);

/* The Zobrist keys of the positions before the current one, oldest first
 * (history[len-1] is the current position's parent), as engine_search and
 * game_outcome take them; *len receives their number (= plies played). */
const uint64_t *game_record_history(const GameRecord *r, int *len);

/* Text of move i (0 <= i < len) in full notation, written in the position
 * it was played from. */
void game_record_move_text(const GameRecord *r, int i, char out[MOVE_STR_MAX]);

#endif
