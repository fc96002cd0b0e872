/* cmd_train.c — `dama train`: gated generations, unattended and resumable
 * (the pipeline itself: train/train.h). Parses the options into
 * TrainOptions, opens the database (rank 0 of an MPI job), calls train_run
 * once and prints: train's own lines (one per stage, the ladder) on
 * stdout, the lines of each generation's self-play, tuning and matches on
 * stderr (cli/train_report.h). With --mpi under mpirun, rank 0 runs the
 * train and the other ranks play and tune their share of each stage. */
#include <stdlib.h>
#include <string.h>

#include "arena/match.h"
#include "cli/cli.h"
#include "cli/pipeline_opts.h"
#include "cli/run_common.h"
#include "cli/train_report.h"
#include "db/db.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "train/train.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"generations", OPT_INT, "3", "generations to reach (a larger N extends a stored train)", 1, 10000},
    {"weights", OPT_WEIGHTS, "default", "generation 0's weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"games-per-gen", OPT_INT, "200", "self-play games per generation (even)", 2, 100000000},
    {"nodes", OPT_INT, "2000", "search nodes per move in self-play, gate and ladder matches", 1, 1e12},
    {"window", OPT_INT, "2", "tune on the self-play data of the last W generations", 1, 1000},
    CLI_OPT_PERTURB,
    CLI_OPT_POPULATION,
    CLI_OPT_SPREAD,
    CLI_OPT_SPREAD_MIN,
    CLI_OPT_EPOCHS,
    CLI_OPT_LR,
    CLI_OPT_LAMBDA,
    CLI_OPT_PATTERNS,
    CLI_OPT_PATTERN_LR,
    CLI_OPT_PATTERN_LAMBDA,
    CLI_OPT_TUNE_BATCH,
    CLI_OPT_PATIENCE,
    CLI_OPT_K,
    CLI_OPT_SCORE_WEIGHT,
    CLI_OPT_VALID,
    {"gate-pairs", OPT_INT, "200", "most game pairs of a gate match (undecided after them: rejected)", 1, 100000000},
    {"elo0", OPT_REAL, "0", "gate SPRT H0 Elo (logistic)", -2000, 2000},
    {"elo1", OPT_REAL, "5", "gate SPRT H1 Elo (logistic)", -2000, 2000},
    {"alpha", OPT_REAL, "0.05", "gate SPRT false-positive rate", 1e-6, 0.5},
    {"beta", OPT_REAL, "0.05", "gate SPRT false-negative rate", 1e-6, 0.5},
    {"ladder-pairs", OPT_INT, "100", "game pairs of each accepted generation against generation 0 (0: no ladder)", 0, 100000000},
    CLI_OPT_TUNE_THREADS,
    RUN_OPT_HASH,
    {"seed", OPT_INT, "1", "train seed (self-play, split, openings of each generation derive from it)", 0, CLI_INT_MAX},
    {"progress", OPT_REAL, "30", "seconds between the self-play and match progress lines (0: none)", 0, 86400},
    {"ladder", OPT_FLAG, NULL, "print the ladder of a stored train (the newest of --game, or --train) and stop", 0, 0},
    {"train", OPT_INT, "0", "with --ladder: the train id (0: the newest of --game)", 0, CLI_INT_MAX},
    CLI_MPI_OPT,
    {0},
};

/* Options that do not change what a train computes: left out of its
 * identity, so a rerun with other values resumes it (a larger
 * --generations extends it). */
static const char *const NOT_IDENTITY[] = {"db", "threads", "generations", "progress", "hash", "ladder", "train", "mpi",
                                           NULL};
/* Without --patterns the table step and L2 change nothing: left out, so a
 * train stored before the options existed is still found. */
static const char *const NOT_IDENTITY_NO_PATTERNS[] = {"db",    "threads", "generations", "progress",       "hash",
                                                       "ladder", "train",   "mpi",         "pattern-lr", "pattern-lambda",
                                                       NULL};

static int ladder_only(CliArgs *a, const Game *g)
{
    static const char *const LADDER_OPTS[] = {"db", "game", "train", "ladder", "config", NULL};
    for (int i = 0; i < a->opts_len; i++) { /* a train's options: --ladder only prints a stored one */
        bool kept = false;
        for (int k = 0; LADDER_OPTS[k] && !kept; k++) kept = strcmp(LADDER_OPTS[k], a->opts[i].name) == 0;
        if (!kept && cli_source(a, a->opts[i].name) == CLI_FROM_CLI) {
            fprintf(stderr, "dama train: --%s does nothing with --ladder (it prints a stored train)\n", a->opts[i].name);
            return 2;
        }
    }
    char err[ERR_MAX];
    Db *db = NULL;
    if (db_open_for_reading(cli_str(a, "db"), &db, err) != 0) {
        fprintf(stderr, "dama train: %s\n", err);
        return 1;
    }
    int64_t id = cli_int(a, "train");
    char game[DB_GAME_NAME_MAX];
    int rc = 0;
    if (id) {
        rc = db_train_game(db, id, game, err);
        if (rc == 0 && cli_source(a, "game") == CLI_FROM_CLI && strcmp(game, g->name) != 0) {
            snprintf(err, ERR_MAX, "train %lld is a %s train, not %s", (long long)id, game, g->name);
            rc = -1;
        }
    } else {
        rc = db_train_newest(db, g->name, &id, err);
        if (rc == 0 && !id) {
            snprintf(err, ERR_MAX, "no %s train in %.150s (run dama train first)", g->name, cli_str(a, "db"));
            rc = -1;
        }
        snprintf(game, sizeof game, "%s", g->name);
    }
    if (rc == 0) rc = train_print_ladder(db, id, game, err);
    if (rc != 0) fprintf(stderr, "dama train: %s\n", err);
    db_close(db);
    return rc != 0 ? 1 : 0;
}

/* The built-in default of option name of cmd (its table is the one place
 * it is written), for the settings train's stages take from `dama
 * selfplay` and `dama match` without an option of their own. */
static double default_of(const CliCommand *cmd, const char *name)
{
    for (const CliOpt *op = cmd->opts; op->name; op++)
        if (strcmp(op->name, name) == 0 && op->defval) return strtod(op->defval, NULL);
    return 0;
}

/* The options into o (threads 0 stays 0: resolved once MPI is started).
 * Returns 0, or 2 after a message. */
static int parse(CliArgs *a, const Game *g, TrainOptions *o)
{
    if (cli_isset(a, "train") && cli_int(a, "train")) {
        fprintf(stderr, "dama train: --train ID goes with --ladder\n");
        return 2;
    }
    if (cli_int(a, "games-per-gen") % 2)
        return cli_bad_value(a, "games-per-gen", "must be an even number (pairs with colours swapped)");
    SelfplayOptions perturb;
    if (cli_perturb_options(a, &perturb) != 0 || cli_fit_requires(a) != 0) return 2;
    if (!(cli_real(a, "elo1") > cli_real(a, "elo0"))) {
        char c[96];
        snprintf(c, sizeof c, "must be above --elo0 (%g)", cli_real(a, "elo0"));
        return cli_bad_value(a, "elo1", c);
    }
    const CliCommand *sp = &cmd_selfplay, *ma = &cmd_match;
    *o = (TrainOptions){
        .game = g, .db_path = cli_str(a, "db"), .generations = (int)cli_int(a, "generations"),
        .weights = cli_str(a, "weights"), .games_per_gen = cli_int(a, "games-per-gen"),
        .window = (int)cli_int(a, "window"), .nodes = (uint64_t)cli_int(a, "nodes"),
        .threads = (int)cli_int(a, "threads"), .hash_mb = cli_int(a, "hash"), .seed = (uint64_t)cli_int(a, "seed"),
        .gate_pairs = cli_int(a, "gate-pairs"),
        .gate = {.alpha = cli_real(a, "alpha"), .beta = cli_real(a, "beta"), .elo0 = cli_real(a, "elo0"),
                 .elo1 = cli_real(a, "elo1")},
        .ladder_pairs = cli_int(a, "ladder-pairs"),
        .ladder = {.alpha = default_of(ma, "alpha"), .beta = default_of(ma, "beta"), .elo0 = default_of(ma, "elo0"),
                   .elo1 = default_of(ma, "elo1")},
        .repeat_plies = (int)default_of(ma, "repeat-plies"), .progress_s = cli_real(a, "progress"),
        .stop = &cli_stop_requested};
    o->selfplay = (SelfplayOptions){
        .perturb = perturb.perturb, .population = perturb.population, .spread = perturb.spread,
        .spread_min = perturb.spread_min, .depth = (int)default_of(sp, "depth"),
        .max_plies = (int)default_of(sp, "max-plies"), .random_plies = (int)default_of(sp, "random-plies"),
        .balance = (int)default_of(sp, "balance"), .batch = (int)default_of(sp, "batch"),
        .egtb_pieces = (int)default_of(sp, "egtb-pieces")};
    tune_job_options_default(&o->tune, g);
    cli_tune_fit_options(a, &o->tune);
    o->tune.log = stderr;
    if (o->gate_pairs < MATCH_SPRT_MIN_PAIRS && dist_rank() == 0) /* a trial run with small gates: say it at once */
        fprintf(stderr, "note: --gate-pairs %lld is below %d: the gate's SPRT decides no sooner than %d pairs, so no "
                "generation can pass its gate (nothing is exported)\n", (long long)o->gate_pairs,
                MATCH_SPRT_MIN_PAIRS, MATCH_SPRT_MIN_PAIRS);
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (cli_flag(a, "ladder")) return ladder_only(a, g);
    TrainOptions o;
    int rc = parse(a, g, &o);
    if (rc != 0) return rc;
    if (cli_mpi_start(a, "train") != 0) return 2;
    const bool dist = dist_size() > 1;
    if (o.threads <= 0) o.threads = dist_node_cores(); /* all cores, shared by the ranks of a node */
    char err[ERR_MAX];
    { /* the self-play and match workers' tables (two engines of hash/2 each), before anything is stored */
        char opt[48];
        snprintf(opt, sizeof opt, "--hash %lld", (long long)o.hash_mb);
        if (run_check_hash(g, o.hash_mb / 2 > 0 ? o.hash_mb / 2 : 1, 2 * o.threads, opt, err) != 0) {
            fprintf(stderr, "dama train: %s\n", err);
            if (dist) dist_abort(1);
            return 1;
        }
    }
    char config[4096];
    cli_config_text(a, cli_flag(a, "patterns") ? NOT_IDENTITY : NOT_IDENTITY_NO_PATTERNS, config, sizeof config);
    run_book_identity(a, config, sizeof config);
    o.config = config;
    TrainReport rep;
    train_report_init(&rep, &o, cli_real(a, "progress"));
    o.event = train_report_event;
    o.ctx = &rep;
    o.selfplay.event = selfplay_report_event;
    o.selfplay.ctx = &rep.selfplay;
    cli_install_stop_handler();
    Db *db = NULL; /* rank 0 decides and writes; the others play and tune their share */
    if (dist_rank() == 0 && db_open(o.db_path, true, &db, err) != 0) {
        fprintf(stderr, "dama train: %s\n", err);
        if (dist) dist_abort(1);
        return 1;
    }
    TrainResult r;
    int st = train_run(db, &o, &r, err);
    int status = st == TRAIN_DONE ? 0 : st == TRAIN_INTERRUPTED ? 3 : st == TRAIN_BUSY ? DB_BUSY : 1;
    if (dist_rank() == 0) {
        if (status != 0) fprintf(stderr, "dama train: %s\n", err);
        if (status == 0 && train_print_ladder(db, r.id, g->name, err) != 0) {
            fprintf(stderr, "dama train: %s\n", err);
            status = 1;
        }
    }
    db_close_discard_new(db); /* a database this failed set-up created goes again */
    return status;
}

const CliCommand cmd_train = {
    "train", "gated generations: self-play, tune, SPRT gate vs the best, Elo ladder vs generation 0 (resumable)",
    "[--game G] [--db FILE] [--generations N] [--games-per-gen N] [--nodes N] [--ladder]", OPTS, run, 0,
};
