/* cmd_status.c — `dama status`: what a game app needs to show a position:
 * the result if the game is over (by the rules that need no history), the
 * side to move, the number of legal moves, whether a capture is compulsory
 * (a finished game has neither: 0 and no) and, in games with a royal piece,
 * whether either one can be captured now (the Shatra program of the seed
 * lights a threatened Biy red).
 *
 * With --moves "m1 m2 ...", the moves are first played from the position
 * (each checked against the legal moves, none after the game has ended)
 * and the status is that of the final position with the whole game's
 * history counted: threefold repetition as well as the rules' counters.
 * The final position string is printed as "fen ...". */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"fen", OPT_STR, NULL, "position string (default: the start position)", 0, 0},
    {"moves", OPT_STR, NULL, "moves to play first, separated by spaces (full or short notation)", 0, 0},
    {0},
};

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    Position pos;
    if (cli_fen_position(a, g, &pos) != 0) return 1;
    const char *moves_text = cli_str(a, "moves");
    size_t cap = moves_text ? strlen(moves_text) / 2 + 2 : 1;
    uint64_t *keys = malloc(sizeof *keys * cap);
    char *copy = moves_text ? strdup(moves_text) : NULL;
    if (!keys || (moves_text && !copy)) {
        fprintf(stderr, "dama status: out of memory\n");
        free(keys);
        free(copy);
        return 1;
    }
    int plies = 0;
    const char *reason = NULL;
    char *save = NULL;
    for (char *tok = copy ? strtok_r(copy, " \t\n", &save) : NULL; tok; tok = strtok_r(NULL, " \t\n", &save)) {
        Outcome before = game_outcome(g, &pos, keys, plies, &reason, NULL);
        if (before != OUTCOME_NONE) {
            snprintf(err, ERR_MAX, "move %d '%.60s': the game is already over (%s %s)", plies + 1, tok,
                     outcome_pdn(before), reason ? reason : "");
            game_err_printable(err);
            fprintf(stderr, "dama status: --moves: %s\n", err);
            free(keys);
            free(copy);
            return 1;
        }
        Move m;
        if (g->move_from_str(&pos, tok, &m, err) != 0) {
            fprintf(stderr, "dama status: --moves: move %d: %s\n", plies + 1, err); /* err quotes the move */
            free(keys);
            free(copy);
            return 1;
        }
        keys[plies++] = g->hash(&pos);
        Position next;
        g->make_move(&pos, &m, &next);
        pos = next;
    }
    free(copy);
    MoveList moves;
    Outcome o = game_outcome(g, &pos, keys, plies, &reason, &moves);
    free(keys);
    /* a finished game has no move and nothing to capture, as `dama moves`
     * says: a rule may end it while moves remain (Shatra's Biys alone,
     * Turkish one piece each, threefold repetition) */
    bool over = o != OUTCOME_NONE;
    if (moves_text) {
        char fen[FEN_MAX];
        g->pos_to_fen(&pos, fen);
        printf("fen %s\nplies %d\n", fen, plies);
    }
    printf("result %s%s%s\n", outcome_pdn(o), reason ? " " : "", reason ? reason : "");
    printf("side %s\n", g->side_to_move(&pos) == COLOR_WHITE ? "white" : "black");
    printf("moves %d\n", over ? 0 : moves.len);
    printf("capture %s\n", !over && g->has_capture(&pos) ? "yes" : "no");
    if (g->royal_attacked) {
        printf("white-royal-attacked %s\n", g->royal_attacked(&pos, COLOR_WHITE) ? "yes" : "no");
        printf("black-royal-attacked %s\n", g->royal_attacked(&pos, COLOR_BLACK) ? "yes" : "no");
    }
    return 0;
}

const CliCommand cmd_status = {
    "status", "state of a position for a game app: result, side to move, moves, compulsory capture, threatened royal piece",
    "[--game G] [--fen FEN] [--moves \"M1 M2 ...\"]", OPTS, run, 0,
};
