/* cmd_train.c — `dama train`: gated generations, unattended and resumable.
 *
 * Generation 0 is the start weights. Generation i (1..N):
 *   selfplay  games with the current best weights, perturbed per game pair
 *             as `dama selfplay` does (seeded from the train seed and i);
 *   tune      a candidate tuned from the best weights on the self-play data
 *             of the last --window generations (tune/tune_job.h);
 *   gate      a match candidate (A) vs best (B): paired openings, both
 *             colours, pentanomial SPRT [elo0, elo1] at equal nodes; only
 *             H1 accepts (H0, or undecided after --gate-pairs, rejects;
 *             a candidate equal to its parent is rejected without a match);
 *   ladder    an accepted candidate becomes the best and is matched against
 *             generation 0 (--ladder-pairs): the Elo ladder.
 * Every stage is recorded in the generations table before the next starts,
 * so a rerun of the same command continues where the last one stopped (the
 * self-play run resumes its missing games; an unfinished match or tuning
 * is played again from its start, which at fixed nodes gives the same
 * result). Self-play and matches run in-process through the `selfplay` and
 * `match` commands (one implementation of each); their lines go to stderr,
 * train's own lines (one per stage, the ladder) to stdout. With --mpi
 * under mpirun, rank 0 runs the train (database, decisions, output) and
 * orders the other ranks through each stage (follow): they play their share
 * of the self-play and match games and of the tuner's passes, so the
 * ladder is the one of one process. */
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "dist/relay.h"
#include "tuner/dist_reducer.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/eval.h"
#include "dist/dist.h"
#include "tuner/tune_job.h"
#include "util/rng.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"generations", OPT_INT, "3", "generations to reach (a larger N extends a stored train)", 1, 10000},
    {"weights", OPT_STR, "default", "generation 0's weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"games-per-gen", OPT_INT, "200", "self-play games per generation (even)", 2, 100000000},
    {"nodes", OPT_INT, "2000", "search nodes per move in self-play, gate and ladder matches", 1, 1e12},
    {"window", OPT_INT, "2", "tune on the self-play data of the last W generations", 1, 1000},
    {"perturb", OPT_STR, "pairs", "self-play perturbation (as dama selfplay): pairs (two weight sets per game pair, stored as deltas of the best) or population (a fixed population)", 0, 0},
    {"population", OPT_INT, "8", "--perturb population: the best weights and population-1 perturbed copies", 2, 64},
    {"spread", OPT_REAL, "0.25", "self-play perturbation (as dama selfplay --spread)", 0, 10},
    {"spread-min", OPT_REAL, "6", "smallest perturbation scale, centi-men (as dama selfplay)", 0, 1000},
    {"epochs", OPT_INT, "200", "most tuning epochs per generation", 0, 1000000},
    {"lr", OPT_REAL, "2", "Adam learning rate (centi-men per step)", 1e-6, 1000},
    {"lambda", OPT_REAL, "1e-7", "L2 regularisation toward the best weights", 0, 1e6},
    {"patterns", OPT_FLAG, NULL, "each generation's tuning fits the pattern tables too (as dama tune --patterns; default: only the other terms)", 0, 0},
    {"pattern-lr", OPT_REAL, "0.5", "with --patterns: Adam learning rate of the pattern tables (0: --lr; as dama tune)", 0, 1000},
    {"pattern-lambda", OPT_REAL, "1e-8", "with --patterns: L2 of the pattern tables toward the best weights' (-1: --lambda; as dama tune)", -1, 1e6},
    {"batch", OPT_INT, "0", "tuning mini-batch size (0: full batch)", 0, 1000000000},
    {"patience", OPT_INT, "30", "stop tuning after this many epochs without a better validation loss", 1, 1000000},
    {"k", OPT_REAL, "0", "sigmoid scale K (0: fit it each generation)", 0, 100},
    {"score-weight", OPT_REAL, "0", "tuning target = (1-w) result + w expected score of the search score", 0, 1},
    {"valid", OPT_REAL, "0.1", "fraction of games held out for validation", 0.001, 0.5},
    {"gate-pairs", OPT_INT, "200", "most game pairs of a gate match (undecided after them: rejected)", 1, 100000000},
    {"elo0", OPT_REAL, "0", "gate SPRT H0 Elo (logistic)", -2000, 2000},
    {"elo1", OPT_REAL, "5", "gate SPRT H1 Elo (logistic)", -2000, 2000},
    {"alpha", OPT_REAL, "0.05", "gate SPRT false-positive rate", 1e-6, 0.5},
    {"beta", OPT_REAL, "0.05", "gate SPRT false-negative rate", 1e-6, 0.5},
    {"ladder-pairs", OPT_INT, "100", "game pairs of each accepted generation against generation 0 (0: no ladder)", 0, 100000000},
    {"threads", OPT_INT, "0", "threads (0: all cores); results do not depend on it", 0, 256},
    {"hash", OPT_INT, "16", "transposition table MiB per game worker", 1, 65536},
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

enum { GEN_MAX = 10001 };

typedef struct Gens {
    DbGeneration *items; /* index = generation */
    int len;             /* rows read (generations 0..len-1 if complete) */
    int cap;
} Gens;

static int on_gen(void *ctx, const DbGeneration *g)
{
    Gens *gs = ctx;
    if (g->generation >= gs->cap) return 1;
    gs->items[g->generation] = *g;
    gs->items[g->generation].game = NULL;
    gs->items[g->generation].stage = NULL;
    /* stage as a static string: the walk's buffers end with the call */
    static const char *const STAGES[] = {"selfplay", "tune", "gate", "ladder", "done"};
    for (int i = 0; i < 5; i++)
        if (strcmp(g->stage, STAGES[i]) == 0) gs->items[g->generation].stage = STAGES[i];
    if (g->generation + 1 > gs->len) gs->len = g->generation + 1;
    return 0;
}

/* A sub-command's argument list (owned strings). */
typedef struct Argv {
    char *v[64];
    int len;
} Argv;

static void argv_add(Argv *a, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void argv_add(Argv *a, const char *name, const char *fmt, ...)
{
    if (a->len + 2 >= (int)(sizeof a->v / sizeof a->v[0])) return; /* cannot happen: fixed lists below */
    a->v[a->len++] = strdup(name);
    if (fmt) {
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        a->v[a->len++] = strdup(buf);
    }
    a->v[a->len] = NULL;
}

static void argv_free(Argv *a)
{
    for (int i = 0; i < a->len; i++) free(a->v[i]);
    a->len = 0;
}

/* --mpi: rank 0 runs the train and tells the other ranks, before each
 * stage, what to run with it (dist_order_send): "run" and a sub-command's
 * arguments (selfplay, match: they share their games over the ranks),
 * "tune" and a generation's tuning (the ranks share its passes), "end" and
 * the exit status. An order is its words, each ended by a NUL. */
static int order_send(const char *kind, char *const *words, int len)
{
    size_t size = strlen(kind) + 1;
    for (int i = 0; i < len; i++) size += strlen(words[i]) + 1;
    char *buf = malloc(size), err[ERR_MAX];
    if (!buf) {
        fprintf(stderr, "dama train: out of memory for an order to the ranks\n");
        dist_abort(1);
    }
    size_t at = 0;
    memcpy(buf, kind, strlen(kind) + 1);
    at += strlen(kind) + 1;
    for (int i = 0; i < len; i++) {
        memcpy(buf + at, words[i], strlen(words[i]) + 1);
        at += strlen(words[i]) + 1;
    }
    int rc = dist_order_send(buf, size, err);
    free(buf);
    if (rc != 0) {
        fprintf(stderr, "dama train: rank 0: %s\n", err);
        dist_abort(1);
    }
    return 0;
}

/* Rank 0's exit status, sent to the other ranks (--mpi) as "end". */
static int train_end(int status)
{
    if (dist_size() > 1 && dist_rank() == 0) {
        char word[16];
        snprintf(word, sizeof word, "%d", status);
        char *words[1] = {word};
        order_send("end", words, 1);
    }
    return status;
}

/* Run a command in-process with args; its stdout goes to stderr (train's
 * stdout holds only its own lines). Train's own connection *db is closed
 * meanwhile and opened again after: the command opens the file itself, and
 * a second open in one process (db_open reads the file's header with
 * stdio) would release the POSIX locks of a connection held open
 * (fcntl locks belong to the process and go with any close of the file).
 * Returns the command's exit status (1 also when *db cannot be reopened:
 * err says why). */
static int run_command(const CliCommand *cmd, Argv *args, Db **db, const char *db_path, char err[ERR_MAX])
{
    for (int i = 0; i < args->len; i++)
        if (!args->v[i]) return 1; /* out of memory */
    if (dist_size() > 1 && order_send("run", args->v, args->len) != 0) return 1;
    db_close(*db);
    *db = NULL;
    CliArgs sub;
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved >= 0) dup2(STDERR_FILENO, STDOUT_FILENO);
    int rc = cli_parse(cmd, args->len, args->v, &sub);
    if (rc == 0) rc = cmd->run(&sub);
    else rc = rc > 0 ? 0 : 2;
    cli_free(&sub);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    char oerr[ERR_MAX];
    if (db_open(db_path, false, db, oerr) != 0) {
        snprintf(err, ERR_MAX, "%s", oerr);
        return 1;
    }
    return rc;
}

/* A seed for stage `what` of generation gen, within the options' range. */
static uint64_t stage_seed(uint64_t seed, int gen, uint64_t what)
{
    return rng_derive(rng_derive(seed, (uint64_t)gen), what) & ((1ULL << 53) - 1);
}

static void fmt_elo(char *out, size_t size, double elo, double lo, double hi)
{
    if (isnan(elo)) snprintf(out, size, "-");
    else if (isnan(lo) || isnan(hi) || isinf(lo) || isinf(hi)) snprintf(out, size, "%+.1f", elo);
    else snprintf(out, size, "%+.1f +- %.1f", elo, (hi - lo) / 2);
}

static int print_ladder(Db *db, int64_t train_id, const char *game, char err[ERR_MAX])
{
    Gens gs = {.items = calloc(GEN_MAX, sizeof(DbGeneration)), .cap = GEN_MAX};
    if (!gs.items) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    int rc = db_generations_each(db, train_id, on_gen, &gs, err);
    if (rc != 0) {
        free(gs.items);
        return -1;
    }
    int best = 0, accepted = 0;
    for (int i = 1; i < gs.len; i++)
        if (gs.items[i].accepted == 1) best = i, accepted++;
    printf("train %lld (%s): %d generation%s after 0, %d accepted; best: generation %d (weight set %lld)\n",
           (long long)train_id, game, gs.len > 0 ? gs.len - 1 : 0, gs.len == 2 ? "" : "s", accepted, best,
           (long long)(gs.len ? gs.items[best].candidate_ws : 0));
    printf("%4s %6s %9s %-22s %6s %-9s %-18s %6s\n", "gen", "parent", "candidate", "gate Elo vs parent", "games",
           "accepted", "Elo vs gen 0", "games");
    for (int i = 0; i < gs.len; i++) {
        const DbGeneration *g = &gs.items[i];
        char gate[48], ladder[48], parent[16], games[16], lgames[16];
        fmt_elo(gate, sizeof gate, g->gate_elo, g->gate_elo_lo, g->gate_elo_hi);
        fmt_elo(ladder, sizeof ladder, g->ladder_elo, g->ladder_elo_lo, g->ladder_elo_hi);
        snprintf(parent, sizeof parent, i == 0 ? "-" : "%d", g->parent_generation);
        snprintf(games, sizeof games, g->gate_match ? "%lld" : "-", (long long)g->gate_games);
        snprintf(lgames, sizeof lgames, g->ladder_match || i == 0 ? "%lld" : "-", (long long)g->ladder_games);
        const char *acc = i == 0 ? "start" : g->accepted == 1 ? "yes" : g->accepted == 0 ? "no" : g->stage;
        printf("%4d %6s %9lld %-22s %6s %-9s %-18s %6s\n", i, parent, (long long)g->candidate_ws, gate, games, acc,
               ladder, lgames);
    }
    free(gs.items);
    return 0;
}

static int ladder_only(CliArgs *a, const Game *g)
{
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
    } else {
        rc = db_train_newest(db, g->name, &id, err);
        if (rc == 0 && !id) {
            snprintf(err, ERR_MAX, "no %s train in %.150s (run dama train first)", g->name, cli_str(a, "db"));
            rc = -1;
        }
        snprintf(game, sizeof game, "%s", g->name);
    }
    if (rc == 0) rc = print_ladder(db, id, game, err);
    if (rc != 0) fprintf(stderr, "dama train: %s\n", err);
    db_close(db);
    return rc != 0 ? 1 : 0;
}

typedef struct Train {
    const Game *g;
    CliArgs *a;
    Db *db;
    const char *db_path;
    int64_t id;
    uint64_t seed;
    int threads;
    const char *config;
    const char **names;
    char err[ERR_MAX];
} Train;

/* The common options of the self-play and match sub-commands. */
static void common_args(const Train *t, Argv *v, const char *cmd, uint64_t seed)
{
    argv_add(v, cmd, NULL);
    if (t->a->config_path[0]) argv_add(v, "--config", "%s", t->a->config_path);
    argv_add(v, "--game", "%s", t->g->name);
    argv_add(v, "--db", "%s", t->db_path);
    argv_add(v, "--nodes", "%lld", (long long)cli_int(t->a, "nodes"));
    argv_add(v, "--threads", "%d", t->threads);
    argv_add(v, "--hash", "%lld", (long long)cli_int(t->a, "hash"));
    argv_add(v, "--seed", "%llu", (unsigned long long)seed);
    argv_add(v, "--progress", "%.17g", cli_real(t->a, "progress"));
}

/* Exit status of a failed sub-command as train's: 3 (interrupted: rerun
 * to resume) or 1. */
static int sub_status(int rc) { return rc == 3 ? 3 : 1; }

static int stage_selfplay(Train *t, DbGeneration *gen)
{
    uint64_t seed = stage_seed(t->seed, gen->generation, 0x73656c66ULL);
    Argv v = {0};
    common_args(t, &v, "selfplay", seed);
    argv_add(&v, "--games", "%lld", (long long)cli_int(t->a, "games-per-gen"));
    argv_add(&v, "--weights", "db:%lld", (long long)gen->parent_ws);
    argv_add(&v, "--perturb", "%s", cli_str(t->a, "perturb"));
    argv_add(&v, "--population", "%lld", (long long)cli_int(t->a, "population"));
    argv_add(&v, "--spread", "%.17g", cli_real(t->a, "spread"));
    argv_add(&v, "--spread-min", "%.17g", cli_real(t->a, "spread-min"));
    int rc = run_command(&cmd_selfplay, &v, &t->db, t->db_path, t->err);
    argv_free(&v);
    if (!t->db) return 1;
    if (rc != 0) {
        snprintf(t->err, ERR_MAX, "generation %d: self-play %s", gen->generation,
                 rc == 3 ? "interrupted; run the same command again to resume" : "failed");
        return sub_status(rc);
    }
    char status[DB_STATUS_MAX];
    int64_t run_id = 0;
    if (db_run_newest(t->db, "selfplay", t->g->name, seed, &run_id, status, t->err) != 0) return 1;
    if (!run_id || strcmp(status, "done") != 0) {
        snprintf(t->err, ERR_MAX, "generation %d: no finished self-play run with seed %llu", gen->generation,
                 (unsigned long long)seed);
        return 1;
    }
    gen->selfplay_run = run_id;
    gen->stage = "tune";
    if (db_generation_put(t->db, gen, t->err) != 0) return 1;
    printf("generation %d selfplay: run %lld, %lld games with weight set %lld (perturbed %s)\n", gen->generation,
           (long long)run_id, (long long)cli_int(t->a, "games-per-gen"), (long long)gen->parent_ws,
           strcmp(cli_str(t->a, "perturb"), "pairs") == 0 ? "per pair" : "as a fixed population");
    fflush(stdout);
    return 0;
}

/* A generation's tuning options (every rank the same: --mpi), from the
 * parent weight set parent_ws (start: its weights; spec gets "db:ID") and
 * the self-play runs (a list "3,5"); over several ranks with red's
 * reducer. The writer sets name and config. */
static void tune_options(const Train *t, Db *db, int64_t parent_ws, const char *runs, int generation,
                         const int32_t *start, char spec[32], TuneJobOptions *o, TexelReducer *red)
{
    snprintf(spec, 32, "db:%lld", (long long)parent_ws);
    tune_job_options_default(o, t->g);
    o->db = db;
    o->db_path = t->db_path;
    o->start = start;
    o->start_spec = spec;
    o->runs = runs;
    o->valid = cli_real(t->a, "valid");
    o->epochs = (int)cli_int(t->a, "epochs");
    o->lr = cli_real(t->a, "lr");
    o->lambda = cli_real(t->a, "lambda");
    o->patterns = cli_flag(t->a, "patterns");
    o->pattern_lr = cli_real(t->a, "pattern-lr");
    o->pattern_lambda = cli_real(t->a, "pattern-lambda");
    o->batch = (size_t)cli_int(t->a, "batch");
    o->patience = (int)cli_int(t->a, "patience");
    o->k = cli_real(t->a, "k");
    o->score_weight = cli_real(t->a, "score-weight");
    o->threads = t->threads;
    o->seed = stage_seed(t->seed, generation, 0x74756e65ULL);
    o->stop = &cli_stop_requested;
    o->log = dist_rank() == 0 ? stderr : NULL;
    if (dist_size() > 1) {
        dist_reducer_init(red);
        o->reducer = red;
    }
}

/* A rank other than 0 (--mpi): run rank 0's orders until "end". */
static int follow(Train *t)
{
    const Game *g = t->g;
    char err[ERR_MAX];
    for (;;) {
        uint8_t *buf = NULL;
        size_t size = 0;
        if (dist_order_wait(&buf, &size, err) != 0 || size == 0 || buf[size - 1] != 0) {
            fprintf(stderr, "dama train: rank %d: %s\n", dist_rank(), size ? "a malformed order" : err);
            dist_abort(1);
        }
        char *w[72];
        int n = 0;
        for (size_t at = 0; at < size && n < 72; at += strlen((char *)buf + at) + 1) w[n++] = (char *)buf + at;
        if (strcmp(w[0], "end") == 0 && n == 2) {
            int status = atoi(w[1]);
            free(buf);
            return status;
        }
        if (strcmp(w[0], "run") == 0 && n >= 2) {
            const CliCommand *cmd = strcmp(w[1], "selfplay") == 0 ? &cmd_selfplay
                                  : strcmp(w[1], "match") == 0  ? &cmd_match
                                                                : NULL;
            CliArgs sub;
            if (!cmd || cli_parse(cmd, n - 1, w + 1, &sub) != 0) {
                fprintf(stderr, "dama train: rank %d: an order it cannot run (%.40s)\n", dist_rank(), w[1]);
                dist_abort(1);
            }
            cmd->run(&sub); /* rank 0 reports how it went */
            cli_free(&sub);
        } else if (strcmp(w[0], "tune") == 0 && n == 4) {
            EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
            EVAL_AUTO_FREE int32_t *tuned = eval_weights_new(g);
            Db *db = NULL;
            int64_t parent = strtoll(w[1], NULL, 10);
            if (!start || !tuned || db_open(t->db_path, false, &db, err) != 0 ||
                db_weights_load(db, parent, g->name, t->names, start, g->weights_len, err) != 0) {
                fprintf(stderr, "dama train: rank %d: %s\n", dist_rank(), start && tuned ? err : "out of memory");
                dist_abort(1);
            }
            TuneJobOptions o;
            TexelReducer red;
            char spec[32];
            tune_options(t, db, parent, w[2], atoi(w[3]), start, spec, &o, &red);
            TuneJobResult r;
            tune_job_run(&o, tuned, &r, err); /* rank 0 reports how it went */
            db_close(db);
        } else {
            fprintf(stderr, "dama train: rank %d: an order it does not know (%.40s)\n", dist_rank(), w[0]);
            dist_abort(1);
        }
        free(buf);
    }
}

static int stage_tune(Train *t, const Gens *gs, DbGeneration *gen)
{
    const Game *g = t->g;
    /* the window: self-play runs of generations i-W+1 .. i */
    int w = (int)cli_int(t->a, "window");
    size_t n = 0;
    gen->data_runs[0] = '\0';
    for (int i = gen->generation - w + 1 < 1 ? 1 : gen->generation - w + 1; i <= gen->generation; i++) {
        int64_t run = i == gen->generation ? gen->selfplay_run : gs->items[i].selfplay_run;
        if (!run) continue;
        int k = snprintf(gen->data_runs + n, sizeof gen->data_runs - n, "%s%lld", n ? "," : "", (long long)run);
        if (k < 0 || (size_t)k >= sizeof gen->data_runs - n) {
            snprintf(t->err, ERR_MAX, "--window %d: too many runs to list", w);
            return 1;
        }
        n += (size_t)k;
    }
    if (dist_size() > 1) { /* the ranks tune with rank 0 */
        char parent[32], generation[16];
        snprintf(parent, sizeof parent, "%lld", (long long)gen->parent_ws);
        snprintf(generation, sizeof generation, "%d", gen->generation);
        char *words[3] = {parent, gen->data_runs, generation};
        order_send("tune", words, 3);
    }
    EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
    EVAL_AUTO_FREE int32_t *tuned = eval_weights_new(g);
    if (!start || !tuned) {
        snprintf(t->err, ERR_MAX, "out of memory for %d weights", g->weights_len);
        if (dist_size() > 1) dist_abort(1); /* the others are in the tuner */
        return 1;
    }
    if (db_weights_load(t->db, gen->parent_ws, g->name, t->names, start, g->weights_len, t->err) != 0) {
        if (dist_size() > 1) {
            fprintf(stderr, "dama train: %s\n", t->err);
            dist_abort(1);
        }
        return 1;
    }
    char spec[32], name[64], config[4600];
    snprintf(name, sizeof name, "train-%lld-gen-%d", (long long)t->id, gen->generation);
    snprintf(config, sizeof config, "%strain = %lld\ngeneration = %d\n", t->config, (long long)t->id,
             gen->generation);
    TuneJobOptions o;
    TexelReducer red;
    tune_options(t, t->db, gen->parent_ws, gen->data_runs, gen->generation, start, spec, &o, &red);
    o.name = name;
    o.config = config;
    TuneJobResult r;
    TuneJobStatus st = tune_job_run(&o, tuned, &r, t->err);
    if (st == TUNE_JOB_INTERRUPTED || st == TUNE_JOB_STOPPED_LOADING) {
        snprintf(t->err, ERR_MAX, "generation %d: tuning interrupted; run the same command again to resume",
                 gen->generation);
        return 3;
    }
    if (st != TUNE_JOB_DONE) {
        char why[120];
        memcpy(why, t->err, sizeof why - 1); /* t->err ends in a NUL within ERR_MAX; a longer one is cut */
        why[sizeof why - 1] = 0;
        /* too few positions: this generation's self-play, done, will not grow */
        snprintf(t->err, ERR_MAX, "generation %d: tuning: %s%s", gen->generation, why,
                 r.too_few ? ": start a new train (another --db) with more --games-per-gen" : "");
        return 1;
    }
    gen->tuning_run = r.tuning_id;
    gen->candidate_ws = r.result_ws;
    char v0[TUNE_LOSS_TEXT_MAX], v1[TUNE_LOSS_TEXT_MAX];
    printf("generation %d tune: tuning run %lld on runs %s (%zu positions), valid loss %s -> %s: "
           "candidate weight set %lld\n",
           gen->generation, (long long)r.tuning_id, gen->data_runs, r.positions,
           tune_loss_text(r.texel.valid_loss_start, 6, v0), tune_loss_text(r.texel.valid_loss, 6, v1),
           (long long)r.result_ws);
    if (r.result_ws == gen->parent_ws) {
        /* the same values are the same weight set: nothing to gate */
        gen->accepted = 0;
        snprintf(gen->reason, sizeof gen->reason, "the candidate equals its parent (tuning changed no weight)");
        gen->best_ws = gen->parent_ws;
        gen->stage = "done";
        printf("generation %d gate: rejected: %s\n", gen->generation, gen->reason);
    } else {
        gen->stage = "gate";
    }
    fflush(stdout);
    return db_generation_put(t->db, gen, t->err) != 0 ? 1 : 0;
}

/* A match of weight sets a vs b, pairs pairs; SPRT with sprt. */
static int play_match(Train *t, int gen, int64_t a, int64_t b, int64_t pairs, bool sprt, uint64_t seed,
                      DbMatchSummary *m)
{
    int64_t before = 0;
    if (db_matches_max_id(t->db, &before, t->err) != 0) return 1;
    Argv v = {0};
    common_args(t, &v, "match", seed);
    argv_add(&v, "--a", "db:%lld", (long long)a);
    argv_add(&v, "--b", "db:%lld", (long long)b);
    argv_add(&v, "--pairs", "%lld", (long long)pairs);
    argv_add(&v, "--repeat-book", NULL);
    if (sprt) {
        argv_add(&v, "--sprt", NULL);
        argv_add(&v, "--elo0", "%.17g", cli_real(t->a, "elo0"));
        argv_add(&v, "--elo1", "%.17g", cli_real(t->a, "elo1"));
        argv_add(&v, "--alpha", "%.17g", cli_real(t->a, "alpha"));
        argv_add(&v, "--beta", "%.17g", cli_real(t->a, "beta"));
    }
    int rc = run_command(&cmd_match, &v, &t->db, t->db_path, t->err);
    argv_free(&v);
    if (!t->db) return 1;
    if (rc != 0) {
        snprintf(t->err, ERR_MAX, "generation %d: %s match %s", gen, sprt ? "gate" : "ladder",
                 rc == 3 ? "interrupted; run the same command again to resume" : "failed");
        return sub_status(rc);
    }
    if (db_match_newest(t->db, a, b, before, m, t->err) != 0) return 1;
    if (!m->id || strcmp(m->status, "done") != 0) {
        snprintf(t->err, ERR_MAX, "generation %d: the %s match of weight sets %lld and %lld was not stored", gen,
                 sprt ? "gate" : "ladder", (long long)a, (long long)b);
        return 1;
    }
    return 0;
}

static int stage_gate(Train *t, DbGeneration *gen)
{
    DbMatchSummary m;
    int64_t pairs = cli_int(t->a, "gate-pairs");
    int rc = play_match(t, gen->generation, gen->candidate_ws, gen->parent_ws, pairs, true,
                        stage_seed(t->seed, gen->generation, 0x67617465ULL), &m);
    if (rc != 0) return rc;
    gen->gate_match = m.id;
    gen->gate_elo = m.elo;
    gen->gate_elo_lo = m.elo_lo;
    gen->gate_elo_hi = m.elo_hi;
    gen->gate_games = m.games;
    bool h1 = strcmp(m.sprt_result, "H1") == 0, h0 = strcmp(m.sprt_result, "H0") == 0;
    if (h1 || h0)
        snprintf(gen->reason, sizeof gen->reason, "SPRT [%g, %g] accepted %s after %lld pairs (LLR %.2f)",
                 cli_real(t->a, "elo0"), cli_real(t->a, "elo1"), m.sprt_result, (long long)m.sprt_pairs, m.sprt_llr);
    else
        snprintf(gen->reason, sizeof gen->reason, "SPRT [%g, %g] undecided after %lld pairs (LLR %.2f)",
                 cli_real(t->a, "elo0"), cli_real(t->a, "elo1"), (long long)(m.games / 2), m.llr);
    gen->accepted = h1 ? 1 : 0;
    gen->best_ws = h1 ? gen->candidate_ws : gen->parent_ws;
    gen->stage = h1 && cli_int(t->a, "ladder-pairs") > 0 ? "ladder" : "done";
    char elo[48];
    fmt_elo(elo, sizeof elo, m.elo, m.elo_lo, m.elo_hi);
    printf("generation %d gate: match %lld, candidate %lld vs best %lld: %s Elo in %lld games; %s: %s\n",
           gen->generation, (long long)m.id, (long long)gen->candidate_ws, (long long)gen->parent_ws, elo,
           (long long)m.games, h1 ? "accepted" : "rejected", gen->reason);
    fflush(stdout);
    return db_generation_put(t->db, gen, t->err) != 0 ? 1 : 0;
}

static int stage_ladder(Train *t, const Gens *gs, DbGeneration *gen)
{
    int64_t gen0 = gs->items[0].candidate_ws;
    DbMatchSummary m;
    int rc = play_match(t, gen->generation, gen->candidate_ws, gen0, cli_int(t->a, "ladder-pairs"), false,
                        stage_seed(t->seed, gen->generation, 0x6c616464ULL), &m);
    if (rc != 0) return rc;
    gen->ladder_match = m.id;
    gen->ladder_elo = m.elo;
    gen->ladder_elo_lo = m.elo_lo;
    gen->ladder_elo_hi = m.elo_hi;
    gen->ladder_games = m.games;
    gen->stage = "done";
    char elo[48];
    fmt_elo(elo, sizeof elo, m.elo, m.elo_lo, m.elo_hi);
    printf("generation %d ladder: match %lld, weight set %lld vs generation 0 (%lld): %s Elo in %lld games\n",
           gen->generation, (long long)m.id, (long long)gen->candidate_ws, (long long)gen0, elo, (long long)m.games);
    fflush(stdout);
    return db_generation_put(t->db, gen, t->err) != 0 ? 1 : 0;
}

static DbGeneration gen_new(int64_t train_id, const Game *g, int generation)
{
    return (DbGeneration){.train_id = train_id, .game = g->name, .generation = generation, .stage = "selfplay",
                          .parent_generation = -1, .gate_elo = 0.0 / 0.0, .gate_elo_lo = 0.0 / 0.0,
                          .gate_elo_hi = 0.0 / 0.0, .accepted = -1, .ladder_elo = 0.0 / 0.0,
                          .ladder_elo_lo = 0.0 / 0.0, .ladder_elo_hi = 0.0 / 0.0};
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (cli_flag(a, "ladder")) return ladder_only(a, g);
    if (cli_isset(a, "train") && cli_int(a, "train")) {
        fprintf(stderr, "dama train: --train ID goes with --ladder\n");
        return 2;
    }
    if (cli_int(a, "games-per-gen") % 2)
        return cli_bad_value(a, "games-per-gen", "must be an even number (pairs with colours swapped)");
    if (strcmp(cli_str(a, "perturb"), "pairs") != 0 && strcmp(cli_str(a, "perturb"), "population") != 0) {
        fprintf(stderr, "dama train: --perturb must be 'pairs' or 'population', not '%s'\n", cli_str(a, "perturb"));
        return 2;
    }
    if (!(cli_real(a, "elo1") > cli_real(a, "elo0"))) {
        char c[96];
        snprintf(c, sizeof c, "must be above --elo0 (%g)", cli_real(a, "elo0"));
        return cli_bad_value(a, "elo1", c);
    }
    if (cli_mpi_start(a, "train") != 0) return 2;
    const bool dist = dist_size() > 1;
    Train t = {.g = g, .a = a, .db_path = cli_str(a, "db"), .seed = (uint64_t)cli_int(a, "seed"),
               .threads = (int)cli_int(a, "threads")};
    if (t.threads <= 0) t.threads = dist_node_cores(); /* all cores, shared by the ranks of a node */
    { /* the self-play and match workers' tables (two engines of hash/2 each), before anything is stored */
        char opt[48], herr[ERR_MAX];
        int64_t hash = cli_int(a, "hash");
        snprintf(opt, sizeof opt, "--hash %lld", (long long)hash);
        if (run_check_hash(g, hash / 2 > 0 ? hash / 2 : 1, 2 * t.threads, opt, herr) != 0) {
            fprintf(stderr, "dama train: %s\n", herr);
            if (dist) dist_abort(1);
            return 1;
        }
    }
    EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
    t.names = weight_names_new(g);
    Gens gs = {.items = calloc(GEN_MAX, sizeof(DbGeneration)), .cap = GEN_MAX};
    if (!start || !t.names || !gs.items) {
        fprintf(stderr, "dama train: out of memory for %d weights\n", g->weights_len);
        if (dist) dist_abort(1);
        free((void *)t.names);
        free(gs.items);
        return 1;
    }
    cli_install_stop_handler();
    if (dist && dist_rank() != 0) { /* rank 0 decides and writes; this rank plays and tunes its share */
        int status = follow(&t);
        free((void *)t.names);
        free(gs.items);
        return status;
    }
    int generations = (int)cli_int(a, "generations");
    char config[4096];
    cli_config_text(a, cli_flag(a, "patterns") ? NOT_IDENTITY : NOT_IDENTITY_NO_PATTERNS, config, sizeof config);
    int64_t start_ws = 0, found_start = 0;
    int rc = db_open(t.db_path, true, &t.db, t.err);
    if (rc == 0) rc = weights_resolve_db(g, cli_str(a, "weights"), t.db, start, NULL, t.err);
    if (rc == 0) rc = weights_store_base(t.db, g, cli_str(a, "weights"), start, t.names, 0, &start_ws, t.err);
    /* generation 0's content is part of the identity ('default' names other
     * weights after an export and rebuild) */
    size_t clen = strlen(config);
    snprintf(config + clen, sizeof config - clen, "start-weight-set = %lld\n", (long long)start_ws);
    t.config = config;
    if (rc == 0) rc = db_train_find(t.db, g->name, t.seed, config, &t.id, &found_start, t.err);
    bool resumed = rc == 0 && t.id;
    if (rc == 0 && !resumed) {
        DbGeneration g0 = gen_new(0, g, 0);
        g0.stage = "done";
        g0.candidate_ws = start_ws;
        g0.best_ws = start_ws;
        g0.accepted = 1;
        snprintf(g0.reason, sizeof g0.reason, "generation 0: the start weights (%s)", cli_str(a, "weights"));
        g0.ladder_elo = 0;
        rc = db_begin(t.db, t.err);
        if (rc == 0) rc = db_train_insert(t.db, g->name, t.seed, config, start_ws, generations, &t.id, t.err);
        g0.train_id = t.id;
        if (rc == 0) rc = db_generation_put(t.db, &g0, t.err);
        if (rc == 0) rc = db_commit(t.db, t.err);
    } else if (rc == 0) {
        rc = db_train_set_status(t.db, t.id, "running", generations, t.err);
    }
    if (rc == 0) rc = db_generations_each(t.db, t.id, on_gen, &gs, t.err);
    if (rc == 0 && (gs.len < 1 || gs.items[0].candidate_ws != start_ws)) {
        snprintf(t.err, ERR_MAX, "train %lld has no generation 0", (long long)t.id);
        rc = -1;
    }
    if (rc != 0) {
        fprintf(stderr, "dama train: %s\n", t.err);
        free((void *)t.names);
        free(gs.items);
        db_close_discard_new(t.db); /* a database this failed set-up created goes again */
        return train_end(1);
    }
    char ranks_text[48] = "";
    if (dist) snprintf(ranks_text, sizeof ranks_text, " a rank, %d ranks over MPI", dist_size());
    fprintf(stderr, "train %s: train %lld%s, generations 1..%d, %lld games and %lld nodes/move per generation, "
                    "window %lld, gate SPRT [%g, %g] within %lld pairs, ladder %lld pairs, %d threads%s\n",
            g->name, (long long)t.id, resumed ? " resumed" : "", generations, (long long)cli_int(a, "games-per-gen"),
            (long long)cli_int(a, "nodes"), (long long)cli_int(a, "window"), cli_real(a, "elo0"),
            cli_real(a, "elo1"), (long long)cli_int(a, "gate-pairs"), (long long)cli_int(a, "ladder-pairs"),
            t.threads, dist ? ranks_text : "");
    printf("train %lld (%s)%s: generation 0 = weight set %lld\n", (long long)t.id, g->name,
           resumed ? " resumed" : "", (long long)start_ws);
    int status = 0;
    for (int i = 1; i <= generations && status == 0; i++) {
        DbGeneration *prev = &gs.items[i - 1];
        DbGeneration *gen = &gs.items[i];
        if (i >= gs.len) {
            /* a new generation from the best weights so far */
            int best_gen = prev->accepted == 1 ? i - 1 : prev->parent_generation;
            *gen = gen_new(t.id, g, i);
            gen->parent_generation = best_gen < 0 ? 0 : best_gen;
            gen->parent_ws = prev->best_ws;
            if (db_generation_put(t.db, gen, t.err) != 0) {
                status = 1;
                break;
            }
            gs.len = i + 1;
        }
        gen->game = g->name;
        if (strcmp(gen->stage, "done") == 0) continue;
        if (cli_stop_requested) {
            snprintf(t.err, ERR_MAX, "interrupted; run the same command again to resume");
            status = 3;
            break;
        }
        if (status == 0 && strcmp(gen->stage, "selfplay") == 0) status = stage_selfplay(&t, gen);
        if (status == 0 && strcmp(gen->stage, "tune") == 0) status = stage_tune(&t, &gs, gen);
        if (status == 0 && strcmp(gen->stage, "gate") == 0) status = stage_gate(&t, gen);
        if (status == 0 && strcmp(gen->stage, "ladder") == 0) status = stage_ladder(&t, &gs, gen);
    }
    char ferr[ERR_MAX];
    if (t.db) db_train_set_status(t.db, t.id, status == 0 ? "done" : "interrupted", 0, ferr);
    if (status != 0) fprintf(stderr, "dama train: %s\n", t.err);
    if (status == 0 && print_ladder(t.db, t.id, g->name, t.err) != 0) { /* t.db is open when status is 0 */
        fprintf(stderr, "dama train: %s\n", t.err);
        status = 1;
    }
    free((void *)t.names);
    free(gs.items);
    db_close(t.db);
    return train_end(status);
}

const CliCommand cmd_train = {
    "train", "gated generations: self-play, tune, SPRT gate vs the best, Elo ladder vs generation 0 (resumable)",
    "[--game G] [--db FILE] [--generations N] [--games-per-gen N] [--nodes N] [--ladder]", OPTS, run, 0,
};
