/* fuzz_dxp.c — the DXP message reader (protocol/dxp.h: dxp_decode) and
 * what reads a message's board and move for one game (FUZZ_GAME, a game
 * numbered 1..50).
 *
 * Input: the bytes of one message as they come off the wire, up to its NUL
 * (an embedded NUL is the reader's to refuse).
 * Contract checked: a refused message has a message; an accepted one is
 * written back byte for byte (a name that starts with a blank or is all
 * blanks is the encoder's to refuse); a GAMEREQ board the game accepts is
 * written back unchanged; a MOVE that is legal in the start position
 * names that move's squares (and, when it lists them, its captured set). */
#include "fuzz_common.h"
#include "protocol/dxp.h"

#ifndef FUZZ_GAME
#error "FUZZ_GAME names the game"
#endif

static const Game *G;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    game_init_all();
    G = game_find(FUZZ_GAME);
    if (!G || !dxp_game_fits(G)) abort();
    return 0;
}

static void check_board(const DxpGameReq *r)
{
    Position pos;
    char err[ERR_MAX] = "", board[DXP_SQUARES + 1];
    Color side;
    if (dxp_board_to_position(G, r->to_move, r->board, &pos, err) != 0) {
        fuzz_check_err("dxp_board_to_position", err);
        return;
    }
    if (dxp_board_from_position(G, &pos, &side, board, err) != 0) fuzz_fail("board written back: %s", err);
    if (side != r->to_move || strcmp(board, r->board) != 0) fuzz_fail("board '%s' came back as '%s'", r->board, board);
}

static void check_move(const DxpMove *m)
{
    Position pos;
    Move mv;
    DxpMove back;
    char err[ERR_MAX] = "";
    if (game_parse_position(G, NULL, &pos, err) != 0) abort();
    if (dxp_move_to_game(G, &pos, m, &mv, err) != 0) {
        fuzz_check_err("dxp_move_to_game", err);
        return;
    }
    if (dxp_move_from_game(G, &pos, &mv, 0, &back, err) != 0) fuzz_fail("move written back: %s", err);
    if (back.from != m->from || back.to != m->to) fuzz_fail("move %d-%d came back as %d-%d", m->from, m->to, back.from, back.to);
    if (m->ncaptured && back.ncaptured != m->ncaptured) fuzz_fail("captured count changed");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    DxpMsg m;
    char err[ERR_MAX] = "", out[DXP_MSG_MAX + 1];
    if (dxp_decode((const char *)data, size, &m, err) != 0) {
        fuzz_check_err("dxp_decode", err);
        return 0;
    }
    int n = dxp_encode(&m, out, err);
    if (n < 0) {
        const char *name = m.type == DXP_GAMEREQ ? m.u.req.name : m.type == DXP_GAMEACC ? m.u.acc.name : NULL;
        if (!name || (name[0] && name[0] != ' ')) fuzz_fail("accepted message not written back: %s", err);
        return 0;
    }
    if ((size_t)n != size || memcmp(out, data, size) != 0) fuzz_fail("message '%.*s' written back as '%s'", (int)size, data, out);
    if (m.type == DXP_GAMEREQ && m.u.req.has_position) check_board(&m.u.req);
    if (m.type == DXP_MOVE) check_move(&m.u.move);
    return 0;
}
