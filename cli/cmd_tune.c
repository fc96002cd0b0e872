/* cmd_tune.c — `dama tune`: Texel tuning of the evaluation weights from the
 * stored self-play positions (logistic regression of the game result on the
 * static evaluation of quiet positions; K fitted first; Adam with L2 and a
 * held-out validation set). The new weight set is stored with its lineage,
 * K and losses per epoch. With --mpi under mpirun the ranks share the
 * loading and every pass (tune_job.h, TuneJobOptions.reducer) and rank 0
 * alone writes and prints: the weights are those of one process. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tuner/dist_reducer.h"
#include "cli/egtb_opts.h"
#include "cli/pipeline_opts.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/eval.h"
#include "dist/dist.h"
#include "tuner/texel.h"
#include "tuner/tune_job.h"
#include "engine/weights_file.h"
#include "util/atomic_file.h"
#include "util/num.h"
#include "util/text.h"

enum { TUNE_NAME_MAX = TUNE_JOB_NAME_MAX }; /* bytes of a weight set name given with --name */

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file", 0, 0},
    {"weights", OPT_WEIGHTS, "default", "starting weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"runs", OPT_STR, NULL, "only positions of these self-play runs (comma-separated ids; default: all)", 0, 0},
    {"filter", OPT_STR, NULL, "extra SQL condition on positions p / games g (e.g. \"p.ply >= 8\")", 0, 0},
    {"all-positions", OPT_FLAG, NULL, "use positions with a capture pending too (default: only positions where neither side can capture)", 0, 0},
    {"resolve", OPT_FLAG, NULL, "replace a position with a capture pending by the quiet leaf of its quiescence search's capture line (default: skip it)", 0, 0},
    {"dedupe", OPT_FLAG, NULL, "training positions with the same position key become one, its target the mean of theirs", 0, 0},
    {"per-game", OPT_INT, "0", "at most N training positions of one game, drawn by game and ply (0: all)", 0, 100000},
    {"share", OPT_REAL, "1", "keep this share of the training positions, drawn by game and ply", 0.001, 1},
    CLI_OPT_VALID,
    CLI_OPT_EPOCHS,
    CLI_OPT_LR,
    CLI_OPT_LAMBDA,
    CLI_OPT_PATTERN_LR,
    CLI_OPT_PATTERN_LAMBDA,
    CLI_OPT_TUNE_BATCH,
    CLI_OPT_PATIENCE,
    CLI_OPT_K,
    CLI_OPT_SCORE_WEIGHT,
    CLI_OPT_TUNE_THREADS,
    {"seed", OPT_INT, "1", "seed of the split and mini-batch order", 0, CLI_INT_MAX},
    {"out", OPT_FILE, NULL, "also write the tuned weights to this weight file", 0, 0},
    {"force", OPT_FLAG, NULL, "let --out replace an existing file (never the database itself)", 0, 0},
    {"name", OPT_STR, NULL, "name of the new weight set (at most 200 bytes, stored whole)", 0, 0},
    {"verbose", OPT_FLAG, NULL, "print every epoch (default: every 25th and the last)", 0, 0},
    CLI_OPT_PATTERNS,
    CLI_MPI_OPT,
    CLI_EGTB_OPTS,
    {"egtb-mode", OPT_STR, "target", "with --egtb, positions the database holds: 'target' (its exact result replaces the game's) or 'skip' (left out)", 0, 0},
    {0},
};

/* The tuned weights are a weight set stored before: say which, and that
 * nothing new (not the --name either) was stored. */
static void print_existing(Db *db, const TuneJobResult *r, const char *wname, bool interrupted)
{
    DbWeightsInfo info = {0};
    char err[ERR_MAX], name[TUNE_NAME_MAX + 8] = "", parent[48] = "";
    if (db_weights_info(db, r->result_ws, &info, err) == 0) {
        if (info.name) snprintf(name, sizeof name, " '%s'", info.name);
        if (info.parent_id) snprintf(parent, sizeof parent, " (parent %lld)", (long long)info.parent_id);
    }
    printf("same weights as weight set %lld%s%s, stored before: no new weight set stored", (long long)r->result_ws,
           name, parent);
    if (wname && (!info.name || strcmp(info.name, wname) != 0))
        printf("; the name '%s' is not stored (a weight set keeps the name it was first stored with)", wname);
    printf("%s\n", interrupted ? "; run interrupted" : "");
    db_weights_info_clear(&info);
}

static int first_game(void *ctx, int64_t game_id, const DbGame *dg)
{
    (void)game_id;
    snprintf((char *)ctx, 40, "%s", dg->game ? dg->game : "");
    return 1; /* the first is enough */
}

/* The game of a self-play game stored in db that is not g's, into
 * out[40] ("" if none): a tune of too few positions names it. */
static void other_game(Db *db, const Game *g, char out[40])
{
    char filter[160], err[ERR_MAX];
    snprintf(filter, sizeof filter, "g.game != '%s' AND g.run_id IN (SELECT id FROM runs WHERE kind = 'selfplay')",
             g->name);
    out[0] = '\0';
    if (db_games_each(db, filter, first_game, out, err) < 0) out[0] = '\0';
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (cli_fit_requires(a) != 0) return 2;
    if (cli_mpi_start(a, "tune") != 0) return 2;
    const bool mpi = dist_active(); /* --mpi, or implied under a launcher of several ranks */
    const bool writer = dist_rank() == 0; /* 0 without --mpi */
    char err[ERR_MAX];
    int threads = tune_job_threads((int)cli_int(a, "threads"));
    /* --valid, --epochs, --batch, --lr, --lambda, --k, --threads, --patience
     * and --score-weight: ranges checked by cli_parse */
    /* --name is stored whole or refused (never cut inside a character). */
    const char *wname = cli_str(a, "name");
    bool control = false; /* echoed to terminals and into generated headers */
    for (const unsigned char *c = (const unsigned char *)wname; c && *c && !control; c++)
        control = *c < 0x20 || *c == 0x7f;
    if (wname && (strlen(wname) > TUNE_NAME_MAX || !*wname || control)) {
        fprintf(stderr, "dama tune: --name: %s (at most %d bytes, no control byte: tab, line break, escape)\n",
                !*wname ? "an empty name" : strlen(wname) > TUNE_NAME_MAX ? "too long" : "a control character",
                TUNE_NAME_MAX);
        return 2;
    }
    if (cli_str(a, "filter") && db_filter_check(cli_str(a, "filter"), err) != 0) {
        fprintf(stderr, "dama tune: --filter: %s\n", err);
        return 2;
    }
    /* --out is checked before the (long) tuning, and written before anything
     * is stored. */
    AtomicOptions out_opts = {.replace = cli_flag(a, "force"), .protect_db = cli_str(a, "db")};
    char aerr[ATOMIC_ERR_MAX];
    if (cli_str(a, "out") && atomic_file_check(cli_str(a, "out"), &out_opts, aerr) != 0) {
        fprintf(stderr, "dama tune: --out: %s\n", aerr);
        return 1;
    }
    const char *runs = cli_str(a, "runs");
    if (runs && !tune_job_valid_runs(runs)) {
        fprintf(stderr, "dama tune: --runs takes comma-separated run ids, not '%s'\n", runs);
        return 2;
    }
    Db *db = NULL;
    EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
    EVAL_AUTO_FREE int32_t *tuned = eval_weights_new(g);
    if (!start || !tuned) {
        fprintf(stderr, "dama tune: out of memory\n");
        return 1;
    }
    /* SIGINT/SIGTERM: the first stops after the current epoch with the best
     * weights so far stored and the run marked interrupted; a second one
     * ends the process at once (cli_install_stop_handler). */
    cli_install_stop_handler();
    const char *emode = cli_str(a, "egtb-mode");
    if (strcmp(emode, "target") != 0 && strcmp(emode, "skip") != 0) {
        fprintf(stderr, "dama tune: --egtb-mode must be target or skip, not '%s'\n", emode);
        return 2;
    }
    if (cli_egtb_dependents(a) != 0) return 2;
    TuneJobOptions o;
    tune_job_options_default(&o, g);
    o.egtb_skip = strcmp(emode, "skip") == 0;
    Egtb *edb; /* closed at exit */
    if (cli_egtb_open(a, g, "tune", &edb) != 0) return 1;
    if (edb && !(o.egtb = egtb_prober_new(edb, (int)cli_int(a, "egtb-pieces"), 1024))) {
        fprintf(stderr, "dama tune: out of memory\n");
        return 1;
    }
    int rc = db_open(cli_str(a, "db"), false, &db, err);
    if (rc == 0) rc = weights_resolve_db(g, cli_str(a, "weights"), db, start, NULL, err);
    if (rc != 0) {
        fprintf(stderr, "dama tune: %s\n", err);
        if (mpi && dist_size() > 1) dist_abort(1); /* the other ranks may have opened it */
        egtb_prober_free(o.egtb);
        db_close(db);
        return 1;
    }
    char config[4096];
    cli_config_text(a, NULL, config, sizeof config);
    o.db = db;
    o.db_path = cli_str(a, "db");
    o.start = start;
    o.start_spec = cli_str(a, "weights");
    o.runs = runs;
    o.filter = cli_str(a, "filter");
    o.all_positions = cli_flag(a, "all-positions");
    o.resolve = cli_flag(a, "resolve");
    o.dedupe = cli_flag(a, "dedupe");
    o.per_game = (int)cli_int(a, "per-game");
    o.share = cli_real(a, "share");
    cli_tune_fit_options(a, &o);
    o.threads = threads;
    o.seed = (uint64_t)cli_int(a, "seed");
    o.name = wname;
    o.config = config;
    o.out_path = cli_str(a, "out");
    o.out_opts = &out_opts;
    o.stop = &cli_stop_requested;
    o.log = stderr;
    o.verbose = cli_flag(a, "verbose");
    TexelReducer red;
    if (mpi) {
        dist_reducer_init(&red);
        o.reducer = &red;
        if (writer) fprintf(stderr, "tune: %d MPI ranks x %d thread%s\n", red.ranks, threads, TEXT_PLURAL(threads));
    }
    TuneJobResult r;
    TuneJobStatus st = tune_job_run(&o, tuned, &r, err);
    egtb_prober_free(o.egtb);
    egtb_close(edb);
    if (st == TUNE_JOB_FAILED || st == TUNE_JOB_STOPPED_LOADING || st == TUNE_JOB_BUSY) {
        if (writer) { /* every rank failed alike */
            char other[40] = "";
            if (r.too_few) other_game(db, g, other);
            if (other[0])
                fprintf(stderr, "dama tune: %s: its self-play games are of %s (--game %s), not %s\n", err, other, other,
                        g->name);
            else fprintf(stderr, "dama tune: %s%s\n", err, r.too_few ? ": play more self-play games first (dama selfplay)" : "");
        }
        db_close(db);
        return st == TUNE_JOB_STOPPED_LOADING ? 3 : st == TUNE_JOB_BUSY ? DB_BUSY : 1;
    }
    bool interrupted = st == TUNE_JOB_INTERRUPTED;
    if (!writer) { /* rank 0 reports */
        db_close(db);
        return interrupted ? 3 : 0;
    }
    const TexelResult *res = &r.texel;
    double dt = r.tune_seconds;
    char v0[TUNE_LOSS_TEXT_MAX], v1[TUNE_LOSS_TEXT_MAX];
    printf("tuning run %lld: K %.4f; loss train %.6f -> %.6f, valid %s -> %s (best epoch %d of %d); "
           "%.2f s, %.2f M positions/s per epoch pass\n",
           (long long)r.tuning_id, res->k, res->train_loss_start, res->train_loss,
           tune_loss_text(res->valid_loss_start, 6, v0), tune_loss_text(res->valid_loss, 6, v1), res->best_epoch,
           res->epochs, dt,
           dt > 0 ? (double)res->epochs * (double)r.positions / dt / 1e6 : 0.0);
    if (r.unchanged) {
        printf("no weight changed (best epoch %d of %d): no new weight set stored; the start is weight set %lld%s\n",
               res->best_epoch, res->epochs, (long long)r.base_ws, interrupted ? "; run interrupted" : "");
        if (res->rounded_back)
            printf("epoch %d's weights had the best held-out loss, but rounded to whole numbers they were no better "
                   "than the start's: the start is kept (give more data, or smaller steps: --lr, --pattern-lr)\n",
                   res->rounded_back);
        else if (res->stop == TEXEL_STOP_PATIENCE && res->best_epoch == 0)
            printf("no epoch's held-out loss fell below the start's within --patience %d: give smaller steps (--lr, "
                   "--pattern-lr), a larger --patience, or more games\n",
                   o.patience);
    }
    else if (r.existed)
        print_existing(db, &r, wname, interrupted);
    else
        printf("weight set %lld stored (parent %lld)%s\n", (long long)r.result_ws, (long long)r.base_ws,
               interrupted ? "; run interrupted" : "");
    for (int i = 0; i < g->terms_len; i++) {
        const EvalTerm *term = &g->terms[i];
        if (term->count != 1) continue;
        printf("  %-18s %6d -> %6d\n", term->name, start[term->offset], tuned[term->offset]);
    }
    if (mpi)
        printf("shared passes: %d ranks, %.1f MB gathered by each rank in %d epochs (%.2f MB an epoch), "
               "Adam steps %.2f s wall, %.2f s CPU of rank 0\n",
               red.ranks, res->gathered_bytes / 1e6, res->epochs,
               res->epochs > 0 ? res->gathered_bytes / 1e6 / res->epochs : 0.0, res->step_seconds,
               res->step_cpu_seconds);
    if (cli_str(a, "out")) printf("wrote %s\n", cli_str(a, "out"));
    db_close(db);
    return interrupted ? 3 : 0;
}

const CliCommand cmd_tune = {
    "tune", "Texel-tune the evaluation weights from stored self-play positions",
    "[--game G] [--db FILE] [--weights W] [--runs IDS] [--epochs N]", OPTS, run, 0,
};
