/* egtb_opts.c — opening the endgame database named on the command line. */
#include "cli/egtb_opts.h"

int cli_egtb_open(const CliArgs *a, const Game *g, const char *cmd, Egtb **db)
{
    *db = NULL;
    int64_t pieces = cli_int(a, "egtb-pieces");
    if (pieces < 0 || pieces > EGTB_PIECES_MAX) {
        fprintf(stderr, "dama %s: --egtb-pieces must be 0..%d\n", cmd, EGTB_PIECES_MAX);
        return 1;
    }
    const char *dir = cli_str(a, "egtb");
    if (!dir) return 0;
    if (!*dir) {
        fprintf(stderr, "dama %s: --egtb: an empty path: name a directory, or give --no-egtb\n", cmd);
        return 1;
    }
    char err[ERR_MAX];
    *db = egtb_open(g, dir, false, err);
    if (!*db) {
        fprintf(stderr, "dama %s: --egtb: %s\n", cmd, err);
        return 1;
    }
    return 0;
}

int cli_egtb_default(CliArgs *a, const Game *g)
{
    if (cli_flag(a, "no-egtb")) {
        if (cli_isset(a, "egtb")) {
            fprintf(stderr, "dama %s: give --egtb DIR or --no-egtb, not both\n", a->command);
            return 2;
        }
        return 0;
    }
    char dir[4096];
    if (cli_isset(a, "egtb") || egtb_default_dir(dir, sizeof dir) != 0 || !egtb_dir_has_tables(g, dir)) return 0;
    cli_set(a, "egtb", dir);
    return 0;
}

int cli_egtb_dependents(const CliArgs *a)
{
    static const char *const DEPENDENTS[] = {"egtb-pieces", "egtb-adjudicate", "egtb-engines", "egtb-mode"};
    if (cli_str(a, "egtb")) return 0;
    for (size_t i = 0; i < sizeof DEPENDENTS / sizeof DEPENDENTS[0]; i++)
        if (cli_source(a, DEPENDENTS[i]) == CLI_FROM_CLI) {
            fprintf(stderr, "dama %s: --%s is for a run with an endgame database, and none is in use: give --egtb DIR "
                            "(without it, only a default directory that holds the game's tables is used)\n",
                    a->command, DEPENDENTS[i]);
            return 2;
        }
    return 0;
}
