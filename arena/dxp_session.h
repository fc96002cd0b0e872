/* dxp_session.h — dama's engine playing games over DXP (protocol/dxp.h,
 * protocol/dxp_link.h) against another program, in either role:
 *
 *   follower   waits for a GAMEREQ, answers GAMEACC (0: accepted; 1: not
 *              version 01; 2: this game not, with a CHAT saying why), plays
 *              the colour asked, from the position asked, on the clock asked;
 *   initiator  sends a GAMEREQ for each of its games (thinking time,
 *              number of moves, the start position: A for the game's own,
 *              B with a board otherwise), colours alternating or fixed.
 *
 * Within a game MOVE messages alternate; the side to move ends the game
 * with GAMEEND when the rules end it (reason 1 when it lost, 2 a draw, 3 a
 * win), when the number of moves asked is reached or at max_plies (reason
 * 0); the other side answers GAMEEND. A CHAT is logged and counted. A
 * BACKREQ gets BACKACC 1 (dama plays engine games and takes no move back).
 * A message that cannot be read, or that comes where the protocol has no
 * place for it, gets a CHAT naming the problem ("dama: ...") and the
 * connection stays; an illegal MOVE ends the game (CHAT, then GAMEEND),
 * counted as won by dama ("illegal-move").
 *
 * Every wait is bounded: a message must come within timeout_s seconds (in
 * a game with a clock, plus the game's thinking time). Nothing here
 * prints except the one line a game to `out`.
 */
#ifndef DAMA_DXP_SESSION_H
#define DAMA_DXP_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena/player.h"
#include "engine/game.h"
#include "protocol/dxp_link.h"

struct Engine;
struct MoveBook;

typedef enum DxpColour { DXP_COLOUR_ALTERNATE = 0, DXP_COLOUR_WHITE = 1, DXP_COLOUR_BLACK = 2 } DxpColour;

typedef struct DxpSessionOptions {
    const Game *game;          /* one whose squares are 1..50 (dxp_game_fits) */
    const char *name;          /* dama's name in GAMEREQ / GAMEACC (1..32 printable ASCII) */
    struct Engine *engine;     /* dama's engine, weights set (not owned) */
    PlayerLimits limits;       /* with engine_limits: the limits of every move (time_ms+inc_ms: a clock of its own per game) */
    bool engine_limits;        /* false: the game's thinking time is dama's clock */
    int timeout_s;             /* longest wait for a message (>= 1) */
    int max_plies;             /* a game still going after this many plies is ended (>= 1) */
    /* initiator */
    int games;                 /* games to play (>= 1) */
    int minutes, moves;        /* GAMEREQ thinking time (0..999) and number of moves (0..999, 0: no limit) */
    const char *fen;           /* start position; NULL: the game's own (sent as A) */
    DxpColour colour;          /* dama's colour: alternating (White in games 1, 3, ...) or fixed */
    FILE *out;                 /* one line a game; NULL: none */
    volatile int *stop;        /* non-zero: end at the next message (GAMEEND with stop code 1 in a game) */
    const struct MoveBook *book; /* dama's move book (NULL: none; not owned): a book position gets a book move */
    uint64_t book_seed;        /* the seed of the book's choices */
} DxpSessionOptions;

typedef struct DxpSessionStats {
    int games;                       /* games accepted and started */
    int wins, draws, losses, unfinished; /* dama's results */
    int refused;                     /* game requests refused (by either side) */
    int bad_in;                      /* messages received that could not be read or had no place */
    int chats_in;                    /* CHAT messages received */
    int book_moves;                  /* dama's moves taken from its move book */
} DxpSessionStats;

/* Play as follower on a connected link until the initiator closes the
 * connection or asks for no more games (stop code 1). Returns 0, or -1 with
 * err: a timeout, the connection lost during a game, a send that failed,
 * the stop flag. */
int dxp_session_follow(const DxpSessionOptions *o, DxpLink *link, DxpSessionStats *st, char err[ERR_MAX]);

/* Play o->games games as initiator on a connected link. Returns 0 when
 * they were played or the follower refused or stopped (st says), or -1
 * with err as dxp_session_follow. */
int dxp_session_initiate(const DxpSessionOptions *o, DxpLink *link, DxpSessionStats *st, char err[ERR_MAX]);

#endif
