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

int game_parse_position(const Game *game, const char *fen, Position *pos, char err[ERR_MAX])
{
    if (fen && !*fen) { /* an empty string is a mistake, never "the start position" */
        snprintf(err, ERR_MAX, "an empty position string (write 'start', or leave it out, for the start position)");
        return -1;
    }
    if (!fen || strcmp(fen, "start") == 0 || strcmp(fen, "startpos") == 0) fen = game->start_fen;
    return game->pos_from_fen(pos, fen, err);
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
