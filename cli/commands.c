/* commands.c — the table of dama's subcommands (main.c dispatches on it;
 * the configuration-file fuzz target checks files against it). */
#include "cli/cli.h"

const CliCommand *const cli_commands[] = {
    &cmd_moves, &cmd_perft, &cmd_search, &cmd_bench, &cmd_pdn, &cmd_selfplay, &cmd_tune, &cmd_train, &cmd_export, &cmd_match, &cmd_status, &cmd_spsa, &cmd_hub, &cmd_dxp, &cmd_play, &cmd_version, &cmd_ratings, &cmd_tournament, &cmd_egtb, &cmd_book, &cmd_report, &cmd_db, NULL,
};
