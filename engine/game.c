/* game.c — the game-independent end-of-game logic and position parsing.
 * The list of games is one floor up, in games/registry.c. */
#include "engine/game.h"

#include <stdio.h>
#include <string.h>

Outcome game_outcome(const Game *game, const Position *pos, const uint64_t *history, int len,
                     const char **reason, MoveList *moves)
{
    const char *why = NULL;
    Outcome o = game->rule_outcome(pos, &why);
    if (o != OUTCOME_NONE) {
        *reason = why;
        return o;
    }
    MoveList local;
    MoveList *list = moves ? moves : &local;
    if (game->gen_moves(pos, list, GEN_DISTINCT) == 0) {
        *reason = "no-moves";
        return game->side_to_move(pos) == COLOR_WHITE ? OUTCOME_BLACK_WINS : OUTCOME_WHITE_WINS;
    }
    /* Threefold repetition: same position, same side to move, third time.
     * Only positions since the last irreversible turn can repeat, and only
     * every second one has the same side to move. */
    uint64_t key = game->hash(pos);
    int window = game->reversible_plies(pos);
    int seen = 1;
    for (int back = 2; back <= window && back <= len; back += 2) {
        if (history[len - back] == key && ++seen == 3) {
            *reason = game->repetition_reason ? game->repetition_reason : "repetition";
            return OUTCOME_DRAW;
        }
    }
    *reason = NULL;
    return OUTCOME_NONE;
}

/* Length of the valid UTF-8 sequence of 2..4 bytes at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
    size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t k = 1; k < len; k++)
        if ((s[k] & 0xc0) != 0x80) return 0;
    return len;
}

void game_err_printable(char err[ERR_MAX])
{
    const unsigned char *e = (const unsigned char *)err;
    size_t i = 0;
    while (e[i] >= 0x20 && e[i] < 0x7f) i++;
    if (!e[i]) return; /* printable ASCII already */
    char out[ERR_MAX];
    size_t n = 0;
    bool cut = false;
    for (i = 0; e[i];) {
        size_t len = e[i] >= 0x20 && e[i] < 0x7f ? 1 : utf8_len(e + i);
        size_t need = len ? len : 4;
        if (n + need > ERR_MAX - 4) {
            cut = true;
            break;
        }
        if (len) memcpy(out + n, err + i, len);
        else snprintf(out + n, 5, "\\x%02X", e[i]);
        n += need;
        i += len ? len : 1;
    }
    if (cut) memcpy(out + n, "...", 3), n += 3;
    out[n] = '\0';
    memcpy(err, out, n + 1);
}

int game_parse_position(const Game *game, const char *fen, Position *pos, char err[ERR_MAX])
{
    if (fen && !*fen) { /* an empty string is a mistake, never "the start position" */
        snprintf(err, ERR_MAX, "an empty position string (write 'start', or leave it out, for the start position)");
        return -1;
    }
    if (!fen || strcmp(fen, "start") == 0 || strcmp(fen, "startpos") == 0) fen = game->start_fen;
    return game->pos_from_fen(pos, fen, err);
}

Color game_first_mover(const Game *game)
{
    Position pos;
    char err[ERR_MAX];
    if (game->pos_from_fen(&pos, game->start_fen, err) != 0) return COLOR_WHITE; /* every start parses (tests) */
    return game->side_to_move(&pos);
}

const char *outcome_pdn(Outcome o)
{
    switch (o) {
    case OUTCOME_WHITE_WINS: return "1-0";
    case OUTCOME_BLACK_WINS: return "0-1";
    case OUTCOME_DRAW: return "1/2-1/2";
    default: return "*";
    }
}
