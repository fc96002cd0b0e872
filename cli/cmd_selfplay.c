/* cmd_selfplay.c — `dama selfplay`: parallel self-play into SQLite (the
 * run itself: selfplay/selfplay.h). Parses the options into
 * SelfplayOptions, opens the database (rank 0 of an MPI job), calls
 * selfplay_run once and prints its lines (cli/selfplay_report.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/egtb_opts.h"
#include "cli/pipeline_opts.h"
#include "cli/run_common.h"
#include "cli/selfplay_report.h"
#include "db/db.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "selfplay/selfplay.h"
#include "util/num.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"games", OPT_INT, "2000", "number of games (an even number: pairs with colours swapped)", 2, 100000000},
    RUN_PLAY_OPTS,
    CLI_EGTB_PLAY_OPTS,
    {"egtb-adjudicate", OPT_FLAG, NULL, "with --egtb: end a game at the first database position whose result the move-count rules cannot change (reason 'egtb')", 0, 0},
    {"seed", OPT_INT, "1", "run seed", 0, CLI_INT_MAX},
    {"weights", OPT_WEIGHTS, "default", "base weights: " CLI_WEIGHTS_FORMS, 0, 0},
    CLI_OPT_PERTURB,
    CLI_OPT_POPULATION,
    CLI_OPT_SPREAD,
    CLI_OPT_SPREAD_MIN,
    {"batch", OPT_INT, "64", "games per database transaction (also flushed every second)", 1, 100000},
    {"progress", OPT_REAL, "2", "seconds between progress lines (0: none)", 0, 86400},
    CLI_MPI_OPT,
    {"shard", OPT_STR, NULL, "R/K: play only the games i with i mod K = R (one shard of a run; dama db merge joins shards)", 0, 0},
    {0},
};

/* Options that do not change which games are played (left out of the run's
 * identity, so a run can be resumed with other values). */
/* --games is left out too: a larger --games extends the same run (game i
 * depends only on the seed and i). */
static const char *const NOT_IDENTITY[] = {"db", "threads", "batch", "progress", "hash", "games", "mpi", "shard", NULL};

/* --shard R/K: R and K (0 <= R < K <= 1e6). Returns 0 or -1 with err. */
static int parse_shard(const char *text, int64_t *r, int64_t *k, char err[ERR_MAX])
{
    const char *slash = text ? strchr(text, '/') : NULL;
    char head[32];
    if (!slash || (size_t)(slash - text) >= sizeof head) {
        snprintf(err, ERR_MAX, "--shard '%.40s': expected R/K (this process plays the games i with i mod K = R)",
                 text ? text : "");
        return -1;
    }
    memcpy(head, text, (size_t)(slash - text));
    head[slash - text] = 0;
    if (num_parse_int(head, 0, 999999, r) != NUM_OK || num_parse_int(slash + 1, 1, 1000000, k) != NUM_OK || *r >= *k) {
        snprintf(err, ERR_MAX, "--shard '%.40s': expected R/K with 0 <= R < K <= 1000000", text);
        return -1;
    }
    return 0;
}

/* The options into o (threads 0 stays 0: the caller resolves it). Returns
 * 0, or 2 after a message naming the bad option. */
static int parse(CliArgs *a, const Game *g, SelfplayOptions *o)
{
    SelfplayOptions perturb;
    if (cli_perturb_options(a, &perturb) != 0) return 2;
    /* the ranges of --games, --population, --batch and the spreads were
     * checked by cli_parse; what is left is one constraint */
    if (cli_int(a, "games") % 2) return cli_bad_value(a, "games", "must be an even number (pairs with colours swapped)");
    *o = (SelfplayOptions){
        .game = g, .games = cli_int(a, "games"), .nodes = (uint64_t)cli_int(a, "nodes"),
        .depth = (int)cli_int(a, "depth"), .max_plies = (int)cli_int(a, "max-plies"),
        .threads = (int)cli_int(a, "threads"), .hash_mb = cli_int(a, "hash"), .openings = cli_str(a, "openings"),
        .random_plies = (int)cli_int(a, "random-plies"),
        .balance = cli_isset(a, "balance") ? (int)cli_int(a, "balance") : 0,
        .egtb_pieces = (int)cli_int(a, "egtb-pieces"), .egtb_adjudicate = cli_flag(a, "egtb-adjudicate"),
        .seed = (uint64_t)cli_int(a, "seed"), .weights = cli_str(a, "weights"), .perturb = perturb.perturb,
        .population = perturb.population, .spread = perturb.spread, .spread_min = perturb.spread_min,
        .batch = (int)cli_int(a, "batch"), .shard_k = 1, .stop = &cli_stop_requested};
    /* The shard (--shard R/K: the games i with i mod K = R; the whole run
     * is 0/1). */
    char err[ERR_MAX];
    if (cli_isset(a, "shard") && parse_shard(cli_str(a, "shard"), &o->shard_r, &o->shard_k, err) != 0) {
        fprintf(stderr, "dama selfplay: %s\n", err);
        return 2;
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (cli_egtb_default(a, g) != 0 || cli_egtb_dependents(a) != 0 || run_check_one_limit(a, "selfplay") != 0) return 2;
    SelfplayOptions o;
    int rc = parse(a, g, &o);
    if (rc != 0) return rc;
    if (cli_mpi_start(a, "selfplay") != 0) return 2;
    bool dist = dist_size() > 1; /* the main thread of each rank communicates */
    Egtb *edb;
    if (cli_egtb_open(a, g, "selfplay", &edb) != 0) {
        if (dist) dist_abort(1);
        return 1;
    }
    o.egtb = edb;
    if (o.threads == 0) o.threads = dist_node_cores(); /* all cores, shared by the ranks of a node */
    char err[ERR_MAX], opt[48];
    snprintf(opt, sizeof opt, "--hash %lld", (long long)o.hash_mb);
    if (run_check_hash(g, o.hash_mb / 2 > 0 ? o.hash_mb / 2 : 1, 2 * o.threads, opt, err) != 0) { /* workers.c's split */
        fprintf(stderr, "dama selfplay: %s\n", err);
        egtb_close(edb);
        return 1;
    }
    /* Rank 0 alone has the database. */
    Db *db = NULL;
    if (dist_rank() == 0 && db_open(cli_str(a, "db"), true, &db, err) != 0) {
        fprintf(stderr, "dama selfplay: %s\n", err);
        if (dist) dist_abort(1);
        egtb_close(edb);
        return 1;
    }
    char config[4096];
    cli_config_text(a, NOT_IDENTITY, config, sizeof config);
    run_book_identity(a, config, sizeof config);
    o.config = config;
    /* SIGINT/SIGTERM stop cleanly, in the set-up (before the first game)
     * or between games. */
    cli_install_stop_handler();
    SelfplayReport rep;
    selfplay_report_init(&rep, &o, stdout, cli_real(a, "progress"));
    o.event = selfplay_report_event;
    o.ctx = &rep;
    SelfplayResult r;
    int st = selfplay_run(db, &o, &r, err);
    egtb_close(edb);
    rc = selfplay_report_end(&rep, st, &r, err);
    selfplay_result_free(&r);
    db_close_discard_new(db);
    return rc;
}

const CliCommand cmd_selfplay = {
    "selfplay", "parallel self-play with varying weights; stores games and positions in SQLite",
    "[--game G] [--db FILE] [--games N] [--nodes N] [--threads N] [--seed S]", OPTS, run, 0,
};
