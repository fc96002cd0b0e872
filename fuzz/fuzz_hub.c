/* fuzz_hub.c — Hub's own strings for International draughts
 * (protocol/hub_notation.h): hub_pos_to_fen and hub_move_from_str.
 *
 * Input: a `pos=` value on the first line (a Hub position string, a FEN or
 * anything; the start position when it is refused), the move text after
 * the first newline. Contract checked: a refused string or move has a
 * message; a Hub position string read is a FEN whose Hub string, if the
 * game takes it, is the input again; an accepted move is a legal move of
 * the position, and its Hub text (hub_move_to_str) reads back as the same
 * move. */
#include "fuzz_common.h"

#include "protocol/hub_notation.h"

static const Game *G;
static MoveList list;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    game_init_all();
    for (const Game *const *g = game_list(); *g && !G; g++)
        if (hub_native(*g)) G = *g;
    if (!G) abort();
    return 0;
}

static bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->kind == b->kind &&
           a->promo == b->promo;
}

/* The position of the first line, or the start. */
static void read_position(const char *text, Position *pos)
{
    char fen[FEN_MAX], err[ERR_MAX] = "";
    int hub = hub_pos_to_fen(G, text, fen, err);
    if (hub < 0) fuzz_check_err("hub_pos_to_fen", err);
    if (hub > 0 && G->pos_from_fen(pos, fen, err) == 0) {
        char back[HUB_POS_MAX];
        if (hub_pos_string(G, pos, back, err) != 0) fuzz_fail("'%s' read as %s, but not written back: %s", text, fen, err);
        if (strcmp(back, text) != 0) fuzz_fail("'%s' read as %s, written back as '%s'", text, fen, back);
        return;
    }
    if (hub == 0 && text[0] && G->pos_from_fen(pos, text, err) == 0) return;
    if (G->pos_from_fen(pos, G->start_fen, err) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    char *move_text = strchr(text, '\n');
    if (move_text) *move_text++ = '\0';
    else move_text = text + strlen(text);
    Position pos;
    read_position(text, &pos);
    Move m, again;
    char err[ERR_MAX] = "", written[MOVE_STR_MAX];
    if (hub_move_from_str(G, &pos, move_text, &m, err) != 0) {
        fuzz_check_err("hub_move_from_str", err);
        free(text);
        return 0;
    }
    int n = G->gen_moves(&pos, &list, GEN_DISTINCT);
    bool legal = false;
    for (int i = 0; i < n && !legal; i++) legal = same_move(&list.moves[i], &m);
    if (!legal) fuzz_fail("'%s' accepted in %s but is no legal move", move_text, text);
    hub_move_to_str(G, &pos, &m, written);
    if (hub_move_from_str(G, &pos, written, &again, err) != 0)
        fuzz_fail("'%s' accepted, written as '%s', which is rejected: %s", move_text, written, err);
    if (!same_move(&m, &again)) fuzz_fail("'%s' and its Hub text '%s' name different moves", move_text, written);
    free(text);
    return 0;
}
