/* cmd_play.c — `dama play`: a game against the engine in a terminal. The
 * options become a PlayTerm (cli/play_term.h: the board, the moves typed in
 * the game's notation, takeback, resign and draw offers both ways). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/play_term.h"
#include "db/weight_sets.h"
#include "engine/eval.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "engine/skill.h"
#include "util/num.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"fen", OPT_STR, NULL, "start position (default: the game's start)", 0, 0},
    {"side", OPT_STR, "white", "the side you play: white or black", 0, 0},
    {"level", OPT_STR, "club", "engine level: beginner, casual, club, strong, max, or depth=N, nodes=N, time=MS", 0, 0},
    {"seed", OPT_INT, "1", "seed of the levels' random choices (same seed, same game)", 0, CLI_INT_MAX},
    {"weights", OPT_WEIGHTS, "default", "engine weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"db", OPT_DB, "dama.sqlite", "database of tuned / db:ID weights", 0, 0},
    {"hash", OPT_INT, "32", "transposition table MiB", 1, 65536},
    {"color", OPT_STR, "auto", "ANSI colour: auto (when the output is a terminal), always or never", 0, 0},
    {"no-color", OPT_FLAG, NULL, "same as --color never", 0, 0},
    {0},
};

/* --level: a named level, or depth=N / nodes=N / time=MS at full strength. */
/* --level: a named level, or depth=N (1..100), nodes=N (1..10^15) or
 * time=MS (1..86400000), the ranges of dama search's --depth, --nodes and
 * --movetime. -1 with err: the form, or the value and its range. */
static int parse_level(const char *text, const SkillLevel **level, SearchLimits *lim, char err[ERR_MAX])
{
    memset(lim, 0, sizeof *lim);
    *level = skill_find(text);
    if (*level) {
        if ((*level)->depth == 0) lim->movetime_ms = 1000; /* max: one second a move */
        return 0;
    }
    *level = skill_find("max");
    const char *eq = strchr(text, '=');
    if (!eq) eq = strchr(text, ':');
    snprintf(err, ERR_MAX, "expected beginner, casual, club, strong, max, depth=N, nodes=N or time=MS");
    if (!eq) return -1;
    size_t n = (size_t)(eq - text);
    int which = n == 5 && strncmp(text, "depth", 5) == 0   ? 0
                : n == 5 && strncmp(text, "nodes", 5) == 0 ? 1
                : (n == 4 && strncmp(text, "time", 4) == 0) || (n == 8 && strncmp(text, "movetime", 8) == 0) ? 2
                                                                                                           : -1;
    if (which < 0) return -1;
    static const double MAX[] = {100, 1e15, 86400000};
    int64_t v = 0; /* the checked parser: depth=4294967297 is no depth 1 */
    const char *num = eq + 1;
    NumStatus st = num_parse_int(num, 1, (int64_t)MAX[which], &v);
    if (st != NUM_OK) {
        num_format_error(err, ERR_MAX, which == 0 ? "depth" : which == 1 ? "nodes" : "time", num, strlen(num), st, 1,
                         MAX[which], 0);
        return -1;
    }
    if (which == 0) lim->depth = (int)v;
    else if (which == 1) lim->nodes = (uint64_t)v;
    else lim->movetime_ms = v;
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    const char *side = cli_str(a, "side");
    Color human;
    if (strcmp(side, "white") == 0 || strcmp(side, "w") == 0) human = COLOR_WHITE;
    else if (strcmp(side, "black") == 0 || strcmp(side, "b") == 0) human = COLOR_BLACK;
    else {
        return cli_bad_value(a, "side", "expected white or black");
    }
    const SkillLevel *level;
    SearchLimits lim;
    char lerr[ERR_MAX];
    if (parse_level(cli_str(a, "level"), &level, &lim, lerr) != 0) {
        fprintf(stderr, "dama play: --level '%s': %s\n", cli_str(a, "level"), lerr);
        return 2;
    }
    int64_t hash = cli_int(a, "hash"), seed = cli_int(a, "seed");
    /* --hash 1..65536 and --seed >= 0: checked by cli_parse */
    const char *cmode = cli_flag(a, "no-color") ? "never" : cli_str(a, "color");
    bool colour;
    if (strcmp(cmode, "always") == 0) colour = true;
    else if (strcmp(cmode, "never") == 0) colour = false;
    else if (strcmp(cmode, "auto") == 0) colour = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
    else {
        fprintf(stderr, "dama play: --color '%s': expected auto, always or never\n", cmode);
        return 2;
    }
    char err[ERR_MAX];
    EVAL_AUTO_FREE int32_t *weights = eval_weights_new(g);
    if (!weights) {
        fprintf(stderr, "dama play: out of memory for %d weights\n", g->weights_len);
        return 1;
    }
    if (weights_resolve_path(g, cli_str(a, "weights"), cli_str(a, "db"), weights, NULL, err) != 0) {
        char label[CLI_LABEL_MAX];
        fprintf(stderr, "dama play: %s: %s\n", cli_opt_label(a, "weights", label, sizeof label), err);
        return 1;
    }
    GameRecord rec;
    if (game_record_init(&rec, g, cli_str(a, "fen"), err) != 0) {
        fprintf(stderr, "dama play: %s\n", err);
        return 1;
    }
    Engine *e = engine_new(g, (size_t)hash);
    if (!e) {
        fprintf(stderr, "dama play: --hash %lld: cannot allocate a transposition table of %lld MiB (out of memory); "
                        "give a smaller value\n", (long long)hash, (long long)hash);
        game_record_free(&rec);
        return 1;
    }
    engine_set_weights(e, weights);
    PlayTerm t = {.engine = e,
                  .level = level,
                  .limits = lim,
                  .level_name = cli_str(a, "level"),
                  .human = human,
                  .seed = (uint64_t)seed,
                  .colour = colour,
                  .echo = !isatty(STDIN_FILENO),
                  .in = stdin,
                  .out = stdout};
    int rc = play_term_run(&t, &rec);
    engine_free(e);
    game_record_free(&rec);
    return rc;
}

const CliCommand cmd_play = {
    "play", "play against the engine in the terminal (Unicode board, takeback, draw offers, levels)",
    "[--game G] [--side white|black] [--level L] [--fen FEN]", OPTS, run, 0,
};
