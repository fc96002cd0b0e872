/* egtb_opts.h — the endgame-database options shared by search, selfplay,
 * match and tune (--egtb DIR, --egtb-pieces N). */
#ifndef DAMA_CLI_EGTB_OPTS_H
#define DAMA_CLI_EGTB_OPTS_H

#include "cli/cli.h"
#include "engine/egtb/egtb.h"

#define CLI_EGTB_OPTS                                                                                      \
    {"egtb", OPT_STR, NULL, "endgame database directory (dama egtb build); unset: no database", 0, 0},          \
        {"egtb-pieces", OPT_INT, "0", "probe the database only at positions with at most N pieces (0: all it holds)", 0, 8}

/* The commands that play: --egtb defaults to the default directory
 * (egtb_default_dir) when it holds tables of the game; --no-egtb turns
 * that off. */
#define CLI_EGTB_PLAY_OPTS                                                                                             \
    {"egtb", OPT_STR, NULL,                                                                                            \
     "endgame database directory (dama egtb build); default: the default directory ($DAMA_EGTB, else "                 \
     "$XDG_DATA_HOME/dama/egtb or ~/.local/share/dama/egtb) when it holds the game's tables",                          \
     0, 0},                                                                                                            \
        {"egtb-pieces", OPT_INT, "0", "probe the database only at positions with at most N pieces (0: all it holds)",   \
         0, 8},                                                                                                        \
        {"no-egtb", OPT_FLAG, NULL, "no endgame database, not even the default directory's", 0, 0}

/* --egtb-adjudicate of the commands that play games with --egtb. */
#define CLI_EGTB_ADJUDICATE_OPT                                                                                        \
    {"egtb-adjudicate", OPT_FLAG, NULL, "with --egtb: end a game at the first database position whose result the "     \
                                        "move-count rules cannot change (reason 'egtb')", 0, 0}

/* For the commands with CLI_EGTB_PLAY_OPTS, after cli_parse: without
 * --egtb and --no-egtb, --egtb becomes the default directory when it holds
 * tables of g (so the run's stored configuration names it). Returns 0, or
 * 2 after a message (--egtb and --no-egtb together). */
int cli_egtb_default(CliArgs *a, const Game *g);

/* After cli_egtb_default (or for a command without the default, after
 * parsing): an option that only tunes the database's use (--egtb-pieces,
 * --egtb-adjudicate, --egtb-engines, --egtb-mode) given on the command line
 * when no database is in use is refused, so that it is never silently
 * ignored. Returns 0, or 2 after a message. Not for the Hub engine, whose
 * database may come later (egtb-path). */
int cli_egtb_dependents(const CliArgs *a);

/* Open the database named by --egtb (NULL in *db when unset). Returns 0, or
 * 1 after printing "dama CMD: message" (bad directory or files, bad
 * --egtb-pieces). */
int cli_egtb_open(const CliArgs *a, const Game *g, const char *cmd, Egtb **db);

#endif
