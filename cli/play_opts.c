/* play_opts.c — reading the shared game-playing options (cli/play_opts.h). */
#include "cli/play_opts.h"

void cli_openings_source(const CliArgs *a, OpeningsSource *src)
{
    src->path = cli_str(a, "openings");
    src->random_plies = (int)cli_int(a, "random-plies");
    src->balance_cp = cli_isset(a, "balance") ? (int)cli_int(a, "balance") : 0;
}
