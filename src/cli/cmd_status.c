/* cmd_status.c — `dama status`: what a game app needs to show a position:
 * the result if the game is over (by the rules that need no history), the
 * side to move, the number of legal moves, whether a capture is compulsory
 * and, in games with a royal piece, whether either one can be captured now
 * (the Shatra program of the seed lights a threatened Biy red). */
#include "cli/cli.h"

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"fen", OPT_STR, NULL, "position string (default: the start position)", 0, 0},
    {0},
};

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    Position pos;
    if (game_parse_position(g, cli_str(a, "fen"), &pos, err) != 0) {
        fprintf(stderr, "dama status: %s\n", err);
        return 1;
    }
    MoveList moves;
    const char *reason = NULL;
    Outcome o = game_outcome(g, &pos, NULL, 0, &reason, NULL);
    g->gen_moves(&pos, &moves, GEN_DISTINCT);
    printf("result %s%s%s\n", outcome_pdn(o), reason ? " " : "", reason ? reason : "");
    printf("side %s\n", g->side_to_move(&pos) == COLOR_WHITE ? "white" : "black");
    printf("moves %d\n", moves.len);
    printf("capture %s\n", g->has_capture(&pos) ? "yes" : "no");
    if (g->royal_attacked) {
        printf("white-royal-attacked %s\n", g->royal_attacked(&pos, COLOR_WHITE) ? "yes" : "no");
        printf("black-royal-attacked %s\n", g->royal_attacked(&pos, COLOR_BLACK) ? "yes" : "no");
    }
    return 0;
}

const CliCommand cmd_status = {
    "status", "state of a position for a game app: result, side to move, moves, compulsory capture, threatened royal piece",
    "[--game G] [--fen FEN]", OPTS, run, 0,
};
