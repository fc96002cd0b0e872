/* fuzz_position.c — the position-string parser of one game (FUZZ_GAME:
 * "russian", "turkish", "shatra"): Game.pos_from_fen.
 *
 * Contract checked: a rejected string has a message; an accepted one is a
 * position the engine can use — it is written back (pos_to_fen) and read
 * again to the same string, its incremental hash equals the one computed
 * from scratch, and its moves can be generated, written and made; and
 * every position a move reaches is accepted too (the parser refuses only
 * positions no game can reach: docs/rules/<game>.md, "Positions dama
 * rejects"). */
#include "fuzz_common.h"

#ifndef FUZZ_GAME
#error "FUZZ_GAME names the game"
#endif

static const Game *G;
static MoveList list;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    game_init_all();
    G = game_find(FUZZ_GAME);
    if (!G) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    Position pos, again, child;
    char err[ERR_MAX] = "", fen[FEN_MAX], fen2[FEN_MAX], move[MOVE_STR_MAX];
    if (G->pos_from_fen(&pos, text, err) != 0) {
        fuzz_check_err("pos_from_fen", err);
        free(text);
        return 0;
    }
    G->pos_to_fen(&pos, fen);
    if (G->pos_from_fen(&again, fen, err) != 0)
        fuzz_fail("'%s' was accepted, written as '%s', which is rejected: %s", text, fen, err);
    G->pos_to_fen(&again, fen2);
    if (strcmp(fen, fen2) != 0) fuzz_fail("'%s' written as '%s', read back and written as '%s'", text, fen, fen2);
    if (G->hash(&pos) != G->hash_full(&pos)) fuzz_fail("'%s': incremental hash differs from the full one", text);
    const char *reason = NULL;
    (void)G->rule_outcome(&pos, &reason);
    int n = G->gen_moves(&pos, &list, GEN_DISTINCT);
    if (n < 0 || n > MOVES_MAX) fuzz_fail("'%s': %d moves", text, n);
    for (int i = 0; i < n && i < 64; i++) {
        G->move_to_str(&pos, &list.moves[i], move);
        G->make_move(&pos, &list.moves[i], &child);
        if (G->hash(&child) != G->hash_full(&child)) fuzz_fail("'%s' after %s: hash drifted", fen, move);
        G->pos_to_fen(&child, fen2);
        if (G->pos_from_fen(&again, fen2, err) != 0)
            fuzz_fail("'%s' after %s is '%s', which is rejected: %s", fen, move, fen2, err);
    }
    free(text);
    return 0;
}
