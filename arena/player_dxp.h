/* player_dxp.h — a Player (arena/player.h) that is a program reached over
 * DXP (protocol/dxp.h): dama is the initiator, the program the follower.
 * Spec key dxp=HOST:PORT (port 0 only with cmd=).
 *
 * The connection opens at the first game and serves every game of the
 * player one after the other. A game starts at the program's first move:
 * GAMEREQ with the position then (the normal start as A, any other as B),
 * the colour the program plays and the thinking time (the clock's minutes
 * rounded up, at least 1; 1 without a clock); each later move first sends
 * the opponent's reply as MOVE, then reads the program's MOVE. The game's
 * end is told (player_dxp_game_over); a game still going at the next one
 * (or the player's end) is closed with GAMEEND, and the answer awaited.
 * Chats are skipped; the program's GAMEEND with reason 1 (it gives up)
 * instead of a move is PLAYER_RESIGNED, one with another reason, a
 * refused GAMEREQ, a closed connection are a crash, a move not legal is
 * PLAYER_ILLEGAL, no move in time (its clock, or the whole game's
 * thinking time without one, plus timeout=) PLAYER_TIMEOUT. A fault's
 * detail quotes the last message read escaped (util/text.h text_escape).
 *
 *
 * With spec->launch (dxp=HOST:PORT,cmd=COMMAND) dama starts the program
 * itself before it connects: COMMAND under /bin/sh -c in its own process
 * group, standard input on /dev/null, dying with dama; its standard error
 * goes to a pipe that a thread reads until the program is gone, keeping
 * the last 2 KiB (arena/stderr_tail.h). dama then tries to connect every
 * 50 ms while it runs, up to 20 s from its start. With port 0 the program
 * picks its port: dama reads its standard output (a pipe) for the first
 * whole line holding HOST:PORT (dxp_find_port, HOST as given), within the
 * same 20 s, then connects there, and the same thread drains the rest of
 * its output until the program is gone (it never blocks on a full pipe,
 * nor gets SIGPIPE while it runs). A program that ends first (its wait
 * status) or prints no port in time fails the game's start as a crash, the
 * detail naming its last line. A start that fails and a fault name the
 * last lines of its standard error (stderr_tail_text), when it wrote some.
 * A connection dropped by a fault ends that program (SIGKILL to its group
 * after 200 ms), and the next game starts it again (and reads its port
 * again).
 *
 * Internal to arena/player.c. */
#ifndef DAMA_PLAYER_DXP_H
#define DAMA_PLAYER_DXP_H

#include "arena/player.h"

struct GameRecord;

/* The remote's state, owned by the Player (p->dxp). NULL if out of memory. */
struct DxpRemote *player_dxp_new(void);
PlayerFault player_dxp_new_game(Player *p, char detail[PLAYER_DETAIL_MAX]);
PlayerFault player_dxp_think(Player *p, const struct GameRecord *rec, int64_t clock_ms, PlayerMove *out);
/* The game ended (outcome o): the last move when the rules ended it on a
 * move the program has not seen, then GAMEEND (reason from dama's side:
 * 1 when the program won, 2 a draw, 3 when it lost; stop code 0) and its
 * answer (or the program's own GAMEEND, crossing it) within 10 s, else the
 * connection is dropped. Nothing when no game is going. */
void player_dxp_game_over(Player *p, const struct GameRecord *rec, Outcome o);
/* End a game going (GAMEEND, stop code 1), close, free p->dxp. */
void player_dxp_free(Player *p);
/* The command as player.c runs an engine's under /bin/sh -c (a simple one exec'd). */
void player_shell_command(const char *spec, char *out, size_t size);

#endif
