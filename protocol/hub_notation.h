/* hub_notation.h — Hub's own position and move strings for the game Hub
 * was written for, International draughts (10x10, squares 1-50), as
 * Scan 3.1's protocol.txt defines them; for every other game the game's own
 * notation (game.h) passes through unchanged.
 *
 * Hub's strings (International only):
 *   position  one character for the side to move ('W', 'B') and one per
 *             square 1..50 in order: 'w' 'b' a white or black man, 'W' 'B'
 *             a king, 'e' empty (51 characters);
 *   move      a step as start-end (`32-28`); a capture as start x end, then
 *             every captured square, x-separated (`28x19x23`): the captured
 *             squares, never the landing ones, written in increasing order
 *             (Scan and Hub write them so, and pydraughts expects that).
 * On input the captured squares may come in any order, and some or all of
 * them may be left out as long as one legal capture fits (`28x19`).
 *
 * Used by both ends of a Hub pipe: the engine (protocol/hub.c) and the
 * arena's Hub players (arena/player.c). Built on the Game interface only
 * (the game's numbered PDN FEN and its move text), so no game's internals
 * are read here. Pure; thread-safe.
 */
#ifndef DAMA_HUB_NOTATION_H
#define DAMA_HUB_NOTATION_H

#include <stdbool.h>

#include "engine/game.h"
#include "engine/game_record.h"

enum {
    HUB_SQUARES = 50,                 /* squares of Hub's board (International, 1..50) */
    HUB_POS_MAX = HUB_SQUARES + 2     /* a Hub position string with its NUL */
};

/* Does game g speak Hub's own strings (International draughts)? */
bool hub_native(const Game *g);

/* A `pos=` value for game g as the game reads it. A Hub position string
 * (a 'W' or 'B' then only the letters w b W B e) becomes the game's FEN in
 * fen: returns 1. Any other text is left to the game: returns 0 (fen
 * untouched). Returns -1 with err when a Hub string does not fit: for a
 * game other than International, naming the variant that reads them; for
 * International, any text of letters only (but start, startpos) that is
 * not one, saying what is expected (W or B, then 50 of w b W B e) and the
 * first bad letter's place, or the length. */
int hub_pos_to_fen(const Game *g, const char *text, char fen[FEN_MAX], char err[ERR_MAX]);

/* The Hub position string of pos (g native). Returns 0, or -1 with err when
 * the game's FEN is not the numbered form this reads. */
int hub_pos_string(const Game *g, const Position *pos, char out[HUB_POS_MAX], char err[ERR_MAX]);

/* Move text as a Hub peer writes it: Hub's form for a native game, the
 * game's own move_to_str otherwise. */
void hub_move_to_str(const Game *g, const Position *pos, const Move *m, char out[MOVE_STR_MAX]);

/* Parse move text from a Hub peer against the legal moves of pos: Hub's
 * form for a native game, the game's own move_from_str otherwise. Returns
 * 0, or -1 with a message quoting the text (malformed, illegal,
 * ambiguous). */
int hub_move_from_str(const Game *g, const Position *pos, const char *text, Move *m, char err[ERR_MAX]);

/* game_record_apply_list with hub_move_from_str: a Hub `moves=` value
 * applied in order, all or nothing; err names the move's index (1-based)
 * and text. Returns 0 or -1. */
int hub_apply_list(GameRecord *r, const char *list, char err[ERR_MAX]);

#endif
