/* cmd_hub.c — `dama hub`: dama as a Hub protocol engine on standard
 * input/output (play/hub.h; docs/hub.md). */
#include <stdio.h>
#include <unistd.h>

#include "arena/preflight.h"
#include "book/book.h"
#include "cli/cli.h"
#include "cli/egtb_opts.h"
#include "db/weight_sets.h"
#include "engine/search.h"
#include "engine/skill.h"
#include "protocol/hub.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT_HELP("initial value of the variant param: " CLI_GAMES),
    {"hash", OPT_INT, "64", "initial hash param: transposition table MiB", 1, 65536},
    {"weights", OPT_WEIGHTS, "default", "initial weights param: " CLI_WEIGHTS_FORMS, 0, 0},
    {"db", OPT_DB, "dama.sqlite", "initial db param: the database of tuned / db:ID weights", 0, 0},
    {"level", OPT_STR, "max", "initial level param: beginner, casual, club, strong or max", 0, 0},
    {"seed", OPT_INT, "0", "initial seed param of the levels' random choices", 0, CLI_INT_MAX},
    CLI_EGTB_PLAY_OPTS, /* the initial egtb-path and egtb-pieces params */
    {"search-param", OPT_LIST, NULL, "override a search constant in every engine of the session: NAME=VALUE "
                                     "(repeatable; dama search --list-params)", 0, 0},
    {"book", OPT_STR, NULL, "a move book of --game (dama book build): `go` in one of its positions answers with a "
                            "book move (chosen from the seed param) and `info book=1`", 0, 0},
    {0},
};

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    /* the default directory's tables (when --egtb is not given) are
     * optional: a variant without tables there plays without */
    bool egtb_given = cli_isset(a, "egtb");
    if (cli_egtb_default(a, g) != 0) return 2;
    int64_t hash = cli_int(a, "hash"), seed = cli_int(a, "seed");
    /* --hash 1..65536 and --seed >= 0: checked by cli_parse */
    if (!skill_find(cli_str(a, "level"))) {
        fprintf(stderr, "dama hub: unknown --level '%s' (beginner, casual, club, strong, max)\n", cli_str(a, "level"));
        return 2;
    }
    int checked = cli_check_search_param(a, g); /* checked here, so that a bad name fails at once */
    if (checked != 0) return checked;
    const char *sp = cli_str(a, "search-param");
    Egtb *edb; /* checked here, so that a bad directory fails at once; the session opens its own */
    if (cli_egtb_open(a, g, "hub", &edb) != 0) return 1;
    egtb_close(edb);
    char werr[ERR_MAX]; /* checked here as well, so that a bad --weights fails at once, not at the session's init */
    if (weights_check_path(g, cli_str(a, "weights"), cli_str(a, "db"), werr) != 0) {
        char label[CLI_LABEL_MAX];
        fprintf(stderr, "dama hub: %s: %s\n", cli_opt_label(a, "weights", label, sizeof label), werr);
        return 1;
    }
    /* and the table: the session falls back on the command line's parameters
     * (docs/hub.md), so a --hash this machine cannot give would leave no
     * engine at all (every go an error and a bare done) */
    char opt[32];
    snprintf(opt, sizeof opt, "--hash %lld", (long long)hash);
    if (preflight_check_hash(g, hash, 1, opt, werr) != 0) {
        fprintf(stderr, "dama hub: %s\n", werr);
        return 1;
    }
    HubOptions o = {.variant = g->name, .hash_mb = (int)hash, .weights = cli_str(a, "weights"),
                    .db = cli_str(a, "db"), .level = cli_str(a, "level"), .seed = (uint64_t)seed,
                    .egtb_path = cli_str(a, "egtb"), .egtb_pieces = (int)cli_int(a, "egtb-pieces"),
                    .egtb_optional = !egtb_given, .search_params = sp};
    char err[ERR_MAX];
    MoveBook book;
    book_init(&book, g);
    if (cli_str(a, "book") && book_load(&book, g, cli_str(a, "book"), err) != 0) {
        fprintf(stderr, "dama hub: --book: %s\n", err);
        return 1;
    }
    if (cli_str(a, "book")) o.book = &book;
    int rc = hub_run(STDIN_FILENO, stdout, &o, err);
    book_free(&book);
    if (rc != 0) {
        fprintf(stderr, "dama hub: %s\n", err);
        return 1;
    }
    return 0;
}

const CliCommand cmd_hub = {
    "hub", "engine protocol: Hub version 2 (Scan 3.1) on stdin/stdout, for GUIs and tournament managers",
    "[--game G] [--hash MB] [--weights W] [--level L] [--search-param NAME=VALUE]...", OPTS, run, 0,
};
