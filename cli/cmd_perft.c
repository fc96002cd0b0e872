/* cmd_perft.c — `dama perft`: leaf counts of the legal-move tree. */
#include <time.h>

#include "cli/cli.h"
#include "util/clock.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"fen", OPT_STR, NULL, "position string (default: the start position)", 0, 0},
    {"depth", OPT_INT, "6", "depth in plies", 0, 64},
    {"divide", OPT_FLAG, NULL, "print the count below each root move", 0, 0},
    {"paths", OPT_FLAG, NULL, "count every landing path (P convention) instead of distinct moves (D)", 0, 0},
    {"sequences", OPT_FLAG, NULL,
     "count every ordered sequence of captured pieces and end square (K convention; draughts games, not with --divide)",
     0, 0},
    {0},
};

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    Position pos;
    if (cli_fen_position(a, g, &pos) != 0) return 1;
    int64_t depth = cli_int(a, "depth");
    if (depth < 0 || depth > 64) {
        fprintf(stderr, "dama perft: --depth must be between 0 and 64\n");
        return 2;
    }
    GenMode mode = cli_flag(a, "paths") ? GEN_PATHS : GEN_DISTINCT;
    if (cli_flag(a, "sequences")) {
        const char *why = cli_flag(a, "paths")        ? "--sequences and --paths are two conventions: give one"
                          : cli_flag(a, "divide")     ? "--sequences cannot be combined with --divide (the root list is D)"
                          : !g->perft_sequences       ? "--sequences (K convention) is not defined for this game"
                                                      : NULL;
        if (why) {
            fprintf(stderr, "dama perft: %s (game %s)\n", why, g->name);
            return 2;
        }
        mode = GEN_SEQUENCES;
    }
    double t0 = clock_now_s();
    uint64_t total = 0;
    if (cli_flag(a, "divide") && depth >= 1) {
        MoveList list;
        g->gen_moves(&pos, &list, mode);
        for (int i = 0; i < list.len; i++) {
            Position child;
            char text[MOVE_STR_MAX];
            g->make_move(&pos, &list.moves[i], &child);
            uint64_t n = g->perft(&child, (int)depth - 1, mode);
            g->move_to_str(&pos, &list.moves[i], text);
            printf("%s %llu\n", text, (unsigned long long)n);
            total += n;
        }
    } else {
        total = g->perft(&pos, (int)depth, mode);
    }
    double dt = clock_now_s() - t0;
    printf("perft %d %llu\n", (int)depth, (unsigned long long)total);
    fprintf(stderr, "%.3f s, %.1f M leaves/s\n", dt, dt > 0 ? (double)total / dt / 1e6 : 0.0);
    return 0;
}

const CliCommand cmd_perft = {
    "perft", "count the leaf nodes of the legal-move tree (D convention; --paths for P, --sequences for K)",
    "[--game G] [--fen FEN] [--depth N] [--divide] [--paths | --sequences]", OPTS, run, 0,
};
