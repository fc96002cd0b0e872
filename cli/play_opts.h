/* play_opts.h — options that several game-playing commands (selfplay,
 * match, tournament, spsa) declare with the same meaning: one definition
 * each, so that their names, defaults and help cannot drift apart. */
#ifndef DAMA_CLI_PLAY_OPTS_H
#define DAMA_CLI_PLAY_OPTS_H

#include "arena/openings.h"
#include "cli/cli.h"

/* Where the games' openings come from (arena/openings.h); --balance's
 * upper bound is the command's own. */
#define CLI_OPENINGS_OPTS(balance_max)                                                                                 \
    {"openings", OPT_STR, NULL, "opening book file (label<TAB>position); default: the game's book, else 1024 random lines", 0, 0}, \
        {"random-plies", OPT_INT, "4", "plies of random openings when there is no book", 0, 40},                         \
        {"balance", OPT_INT, "60", "random openings: redraw a line a 2000-node search scores beyond +-N centi-men", 0,   \
         balance_max}

/* The seed of a match or tournament. */
#define CLI_SEED_OPENINGS_OPT {"seed", OPT_INT, "1", "seed (opening order, random openings)", 0, CLI_INT_MAX}

/* Progress lines on stderr every `seconds` (the command's default, text). */
#define CLI_PROGRESS_OPT(seconds) {"progress", OPT_REAL, seconds, "seconds between progress lines (0: none)", 0, 86400}

/* The values of CLI_OPENINGS_OPTS (an unset --balance: no balance check). */
void cli_openings_source(const CliArgs *a, OpeningsSource *src);

#endif
