/* fuzz_move.c — the move-text parser of one game (FUZZ_GAME):
 * Game.move_from_str.
 *
 * Input: a position string on the first line (the start position when that
 * line is empty or rejected), the move text after the first newline.
 * Contract checked: a rejected move has a message; an accepted one is a
 * legal move of the position, and its full notation (move_to_str) parses
 * back to a move leading to the same position. */
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

static void child_fen(const Position *pos, const Move *m, char out[FEN_MAX])
{
    Position child;
    G->make_move(pos, m, &child);
    G->pos_to_fen(&child, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    char *move_text = strchr(text, '\n');
    if (move_text) *move_text++ = '\0';
    else move_text = text + strlen(text);
    Position pos;
    char err[ERR_MAX] = "";
    if (!text[0] || G->pos_from_fen(&pos, text, err) != 0) {
        if (G->pos_from_fen(&pos, G->start_fen, err) != 0) abort();
    }
    Move m;
    err[0] = '\0';
    if (G->move_from_str(&pos, move_text, &m, err) != 0) {
        fuzz_check_err("move_from_str", err);
        free(text);
        return 0;
    }
    char want[FEN_MAX], got[FEN_MAX], written[MOVE_STR_MAX];
    child_fen(&pos, &m, want);
    int n = G->gen_moves(&pos, &list, GEN_DISTINCT);
    bool legal = false;
    for (int i = 0; i < n && !legal; i++) {
        child_fen(&pos, &list.moves[i], got);
        legal = strcmp(got, want) == 0;
    }
    if (!legal) fuzz_fail("'%s' accepted in %s but leads to %s, which no legal move does", move_text, text, want);
    G->move_to_str(&pos, &m, written);
    Move again;
    if (G->move_from_str(&pos, written, &again, err) != 0)
        fuzz_fail("'%s' accepted, written as '%s', which is rejected: %s", move_text, written, err);
    child_fen(&pos, &again, got);
    if (strcmp(got, want) != 0) fuzz_fail("'%s' and its notation '%s' lead to different positions", move_text, written);
    free(text);
    return 0;
}
