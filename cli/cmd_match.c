/* cmd_match.c — `dama match`: engine-vs-engine match between two weight
 * sets on paired openings (each opening played with both colours), with
 * W/D/L, pentanomial counts, Elo with its 95% interval and an optional SPRT.
 * Games and the running totals are stored in the database; the match
 * itself is arena/match.h's match_run. */
#include <math.h>
#include <string.h>

#include "arena/match.h"
#include "arena/match_draws.h"
#include "arena/play.h"
#include "arena/stats.h"
#include "book/book.h"
#include "cli/cli.h"
#include "cli/egtb_opts.h"
#include "cli/play_opts.h"
#include "cli/run_common.h"
#include "dist/dist.h"
#include "protocol/dxp.h"
#include "protocol/dxp_link.h"
#include "util/num.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"a", OPT_WEIGHTS, "tuned", "engine A's weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"b", OPT_WEIGHTS, NULL, "engine B's weights, the same forms as --a (default: A's parent weight set, else 'default')", 0, 0},
    {"a-cmd", OPT_STR, NULL, "engine A is this external Hub engine (run with /bin/sh -c, e.g. 'dama hub') instead of weights", 0, 0},
    {"b-cmd", OPT_STR, NULL, "engine B is this external Hub engine instead of weights", 0, 0},
    {"a-book", OPT_STR, NULL, "engine A plays from this move book (dama book build) while the position is in it; "
                              "not the opening ballots of --openings", 0, 0},
    {"b-book", OPT_STR, NULL, "engine B's move book", 0, 0},
    {"a-dxp", OPT_STR, NULL, "engine A is a program listening for DXP on HOST:PORT (a game numbered 1..50; with --a-cmd: the command that starts it there, or with port 0 on the port it prints, HOST:PORT in a line of its output)", 0, 0},
    {"b-dxp", OPT_STR, NULL, "engine B is a program listening for DXP on HOST:PORT (with --b-cmd: the command that starts it; port 0: on the port it prints)", 0, 0},
    {"pairs", OPT_INT, "0", "game pairs (0: one per opening of the book; with random openings, 1024)", 0, 100000000},
    RUN_PLAY_OPTS,
    {"movetime", OPT_INT, NULL, "milliseconds per move instead of nodes", 1, 86400000},
    {"tc", OPT_STR, NULL, "a game clock MS+INC (milliseconds) per side instead of nodes; a late move loses", 0, 0},
    CLI_EGTB_PLAY_OPTS,
    {"egtb-engines", OPT_STR, "both", "with --egtb: the engines whose search probes it: both, a or b", 0, 0},
    CLI_EGTB_ADJUDICATE_OPT,
    CLI_SEED_OPENINGS_OPT,
    {"repeat-book", OPT_FLAG, NULL, "allow --pairs beyond the opening book (up to 1000000): each extra pair plays a book line followed by --repeat-plies distinct random plies", 0, 0},
    {"repeat-plies", OPT_INT, "4", "--repeat-book: random plies after the book line", 1, 40},
    {"sprt", OPT_FLAG, NULL, "stop early when the SPRT decides (never before 20 pairs)", 0, 0},
    {"elo0", OPT_REAL, "0", "SPRT H0 Elo (logistic)", -2000, 2000},
    {"elo1", OPT_REAL, "10", "SPRT H1 Elo (logistic)", -2000, 2000},
    {"alpha", OPT_REAL, "0.05", "SPRT false-positive rate", 1e-6, 0.5},
    {"beta", OPT_REAL, "0.05", "SPRT false-negative rate", 1e-6, 0.5},
    CLI_PROGRESS_OPT("5"),
    CLI_MPI_OPT,
    {0},
};

/* Options that do not change which games are played, left out of the
 * configuration that identifies a match (as selfplay and train do), so
 * that a rerun with other values resumes it: where the database is and
 * how its path is written (the run is looked up inside it), how many games
 * run at once (--threads: pair p's openings depend only on the seed and p),
 * the in-process engines' table size (--hash, a machine setting as in
 * selfplay; a --hash inside --a-cmd is part of that engine's command and
 * stays), the progress lines and the number of MPI ranks. --pairs stays:
 * another count is another match (its matches row, SPRT and summary are
 * those of its pairs). */
static const char *const NOT_IDENTITY[] = {"db", "threads", "hash", "progress", "mpi", NULL};
/* The identity a match was stored under before: every option but --mpi.
 * A match stored so, and none under NOT_IDENTITY's, is resumed. */
static const char *const NOT_IDENTITY_BEFORE[] = {"mpi", NULL};

/* What the command prints while the pairs are played. */
typedef struct Printer {
    const CliArgs *a;
    const Game *g;
    RunProgress prog;
    int64_t faults[2]; /* games A and B lost by a fault */
} Printer;

static void on_start(void *ctx, const MatchRunResult *r)
{
    Printer *p = ctx;
    if (r->writer) {
        char ranks[48] = "";
        if (r->ranks > 1) snprintf(ranks, sizeof ranks, " a rank, %d ranks over MPI", r->ranks);
        char resumed[64] = "";
        if (r->stored_pairs >= 0)
            snprintf(resumed, sizeof resumed, " (resumed: %lld pair%s stored)", (long long)r->stored_pairs,
                     TEXT_PLURAL(r->stored_pairs));
        fprintf(stderr, "match %s: run %lld%s, A = %s, B = %s, %lld pair%s, limit %s, %lld thread%s%s\n",
                p->g->name, (long long)r->run_id, resumed, r->who[0], r->who[1], (long long)r->pairs,
                TEXT_PLURAL(r->pairs), r->limits, (long long)r->threads, TEXT_PLURAL(r->threads), ranks);
        if (strcmp(r->who[0], r->who[1]) == 0) /* e.g. --a best --b default after a train that passed no gate */
            fprintf(stderr, "note: A and B are the same player (%s): the result shows only the games' noise\n",
                    r->who[0]);
    }
    cli_install_stop_handler();
    run_progress_init(&p->prog, "match", r->pairs * 2, r->writer ? cli_real(p->a, "progress") : 0);
    if (r->stored_pairs > 0) p->prog.before = 2 * r->stored_pairs;
}

static void progress(void *ctx, const MatchStats *st)
{
    Printer *p = ctx;
    int64_t wdl[3] = {st->wins, st->draws, st->losses};
    /* the Elo so far, of the whole pairs, as the final line gives it */
    char elo[64] = "";
    EloEstimate est;
    if (stats_count_pairs(st) >= 2 && stats_estimate_ptnml(st, &est) == 0 && stats_interval_estimable(&est) &&
        isfinite(est.elo) && isfinite(est.error))
        snprintf(elo, sizeof elo, "Elo %.1f +/- %.1f", num_shown(est.elo, 1), num_shown(est.error, 1));
    p->prog.extra = elo;
    run_progress_update(&p->prog, stats_count_games(st), wdl, false);
    p->prog.extra = NULL;
}

/* A game lost by an engine's fault: which, why and what it said. */
static void on_fault(void *ctx, int64_t game_index, int side, const PlayRecord *rec)
{
    Printer *p = ctx;
    p->faults[side]++;
    fprintf(stderr, "game %lld: %c loses by %s: %.300s\n", (long long)game_index + 1, 'A' + side, rec->reason,
            rec->detail);
}

/* Each side's mean time per move over the match's stored games, their
 * ratio and whether it is equal time used: a strength figure is fair only
 * at equal time used, not at equal settings. */
static void print_time_used(const MatchRunResult *r)
{
    for (int i = 0; i < 2; i++) {
        char t[128];
        time_use_format(&r->time[i], t, sizeof t);
        printf("time used by %c: %s\n", 'A' + i, t);
    }
    TimeCompare c;
    time_use_compare(&r->time[0], &r->time[1], TIME_USE_EQUAL, &c);
    char verdict[320];
    time_use_verdict(&c, TIME_USE_EQUAL, "A", "B", verdict, sizeof verdict);
    if (c.cpu_known) printf("time ratio A/B: wall %.3f, CPU %.3f: %s\n", c.wall_ratio, c.cpu_ratio, verdict);
    else if (c.known) printf("time ratio A/B: wall %.3f, CPU -: %s\n", c.wall_ratio, verdict); /* a DXP side */
    else printf("time ratio A/B: -: %s\n", verdict);
    if (r->untimed)
        printf("(%lld games stored without their times are left out)\n", (long long)r->untimed);
}

static void print_result(const MatchRunResult *r, const MatchOptions *o, const CliArgs *a)
{
    const MatchStats *st = &r->res.st;
    const SprtParams *sp = &o->sprt_params;
    char line[STATS_LINE_MAX];
    stats_format_line(st, o->sprt ? sp : NULL, line); /* the LLR only with --sprt */
    printf("match %lld (run %lld): A = %s vs B = %s\n%s\n", (long long)r->match_id, (long long)r->run_id, r->who[0],
           r->who[1], line);
    if (o->sprt) {
        SprtDecision decision = r->res.decision;
        char said[96];
        stats_sprt_phrase(sp, decision, said, sizeof said);
        printf("SPRT [%g, %g] alpha %g beta %g: ", sp->elo0, sp->elo1, sp->alpha, sp->beta);
        if (decision == SPRT_CONTINUE)
            printf("%s\n", said);
        else
            printf("%s after %lld pairs at LLR %.2f; the pairs already under way were finished: final LLR %.2f "
                   "after %lld pairs\n",
                   said, (long long)r->res.decided_pairs, r->res.decided_llr, r->llr, (long long)stats_count_pairs(st));
    }
    if (r->pairs > r->book_len)
        printf("openings: %d book lines; pairs %d to %lld repeat them, each with %lld distinct random plies after the "
               "line (--repeat-book)\n", r->book_len, r->book_len + 1, (long long)r->pairs,
               (long long)cli_int(a, "repeat-plies"));
    if (r->timed) print_time_used(r);
    if (r->missed_counted) /* as `dama egtb draws` counts them, over every stored game of the match */
        match_draws_print_missed(stdout, r->drawn, r->missed, o->egtb_dir);
    if (o->books[0] || o->books[1])
        printf("book moves: A %lld, B %lld\n", (long long)r->res.book_moves[0], (long long)r->res.book_moves[1]);
    if (!r->res.complete)
        printf("interrupted after %lld of %lld pair%s\n", (long long)stats_count_pairs(st), (long long)r->pairs,
               TEXT_PLURAL(r->pairs));
    if (r->res.unstored_pairs > 0)
        printf("not stored: %lld of the pairs above (a write to the database failed); the same command plays them "
               "again\n", (long long)r->res.unstored_pairs);
}

/* The search limit is one of these (--depth 0 is none: "use nodes"). */
static const char *const LIMIT_KEYS[] = {"movetime", "tc", "depth", "nodes"};
enum { LIMIT_KEYS_LEN = 4 };

static bool limit_given(const CliArgs *a, int k, CliSource from)
{
    return cli_source(a, LIMIT_KEYS[k]) == from && (k != 2 || cli_int(a, "depth") != 0);
}

/* "--nodes 300 and --movetime 5" (the command line's) or "nodes = 8000 and
 * movetime = 100" (the config file's) into out. */
static void limits_list(const CliArgs *a, CliSource from, char *out, size_t size)
{
    size_t len = 0;
    out[0] = 0;
    for (int k = 0; k < LIMIT_KEYS_LEN; k++) {
        if (!limit_given(a, k, from) || len >= size) continue;
        len += (size_t)snprintf(out + len, size - len, from == CLI_FROM_CLI ? "%s--%s %s" : "%s%s = %s",
                                len ? " and " : "", LIMIT_KEYS[k], cli_str(a, LIMIT_KEYS[k]));
    }
}

/* Which of the limits applies: the one of the command line (two there are
 * refused), else the config file's (two there are refused), else --nodes;
 * *replaces: whether the command line's replaces a config file's. Returns
 * the index in LIMIT_KEYS, or -1 after a message. */
static int choose_limit(const CliArgs *a, bool *replaces)
{
    int cli = -1, file = -1, n_cli = 0, n_file = 0;
    for (int k = 0; k < LIMIT_KEYS_LEN; k++) {
        if (limit_given(a, k, CLI_FROM_CLI)) cli = k, n_cli++;
        if (limit_given(a, k, CLI_FROM_CONFIG)) file = k, n_file++;
    }
    char list[256];
    if (n_cli > 1) {
        limits_list(a, CLI_FROM_CLI, list, sizeof list);
        fprintf(stderr, "dama match: give one search limit of --movetime, --tc, --depth and --nodes, not %s\n", list);
        return -1;
    }
    if (n_cli == 0 && n_file > 1) {
        limits_list(a, CLI_FROM_CONFIG, list, sizeof list);
        fprintf(stderr, "dama match: %s sets more than one search limit (%s): keep one there, or give one of "
                        "--movetime, --tc, --depth and --nodes\n", a->config_path, list);
        return -1;
    }
    *replaces = n_cli == 1 && n_file > 0;
    return n_cli ? cli : n_file ? file : 3;
}

/* The limit of choose_limit: --movetime / --tc as for tournament engines
 * (arena/player.h), --depth or --nodes. Returns 0, or 2 after a message. */
static int parse_limits(const CliArgs *a, PlayerLimits *lim)
{
    char err[ERR_MAX];
    *lim = (PlayerLimits){0};
    bool replaces = false;
    int k = choose_limit(a, &replaces);
    if (k < 0) return 2;
    if (k == 2) lim->depth = (int)cli_int(a, "depth");
    if (k == 3) lim->nodes = (uint64_t)cli_int(a, "nodes");
    if (k < 2) {
        char v[64];
        snprintf(v, sizeof v, "%s", cli_str(a, LIMIT_KEYS[k]));
        if (player_limits_set(lim, k ? "time" : "movetime", v, err) != 0) return cli_bad_value(a, LIMIT_KEYS[k], err);
    }
    if (replaces) { /* said once the value is known to be good */
        char list[256];
        limits_list(a, CLI_FROM_CONFIG, list, sizeof list);
        fprintf(stderr, "dama match: search limit --%s %s: the command line's wins over %s's %s\n", LIMIT_KEYS[k],
                cli_str(a, LIMIT_KEYS[k]), a->config_path, list);
    }
    return 0;
}

/* --a-book and --b-book into books[0..1] (NULL where not given). 0, or 1 after a message. */
static int load_books(const CliArgs *a, const Game *g, MoveBook books[2], MatchOptions *o)
{
    static const char *const keys[2] = {"a-book", "b-book"};
    for (int i = 0; i < 2; i++) {
        const char *path = cli_str(a, keys[i]);
        char err[ERR_MAX];
        book_init(&books[i], g);
        if (!path) continue;
        if (book_load(&books[i], g, path, err) != 0) {
            fprintf(stderr, "dama match: --%s: %s\n", keys[i], err);
            return 1;
        }
        o->books[i] = &books[i];
    }
    return 0;
}

/* --a-dxp / --b-dxp: HOST:PORT with a port 1..65535, or 0 with --X-cmd
 * (the port the program picks, read from its output), and a game whose
 * squares DXP numbers. Returns 0, or 2 after a message. */
static int check_dxp(const Game *g, const char *const dxp[2], const char *const cmds[2])
{
    for (int i = 0; i < 2; i++) {
        if (!dxp[i]) continue;
        char host[DXP_HOST_MAX], err[ERR_MAX] = "too long";
        int port = 0;
        if (strlen(dxp[i]) >= PLAYER_SPEC_MAX || !strchr(dxp[i], ':') ||
            dxp_parse_address(dxp[i], NULL, true, host, &port, err) != 0) {
            fprintf(stderr, "dama match: --%c-dxp: need HOST:PORT (port 1..65535, or 0 with --%c-cmd): %.200s\n",
                    'a' + i, 'a' + i, strchr(dxp[i], ':') ? err : dxp[i]);
            return 2;
        }
        if (port == 0 && !cmds[i]) {
            fprintf(stderr, "dama match: --%c-dxp %.200s: port 0 is the port the program picks, read from its output: "
                    "give --%c-cmd CMD to start it\n", 'a' + i, dxp[i], 'a' + i);
            return 2;
        }
        if (!dxp_game_fits(g)) {
            fprintf(stderr, "dama match: --%c-dxp: DXP numbers the squares 1..50, and %s does not\n", 'a' + i, g->name);
            return 2;
        }
    }
    return 0;
}

/* --a W / --b W for a side that is a program (--X-dxp or --X-cmd): the
 * program plays with its own weights, so the option would be ignored.
 * Returns 0, or 2 after a message. */
static int check_weights_unused(const CliArgs *a)
{
    static const char *const side[2] = {"a", "b"}, *const dxp[2] = {"a-dxp", "b-dxp"},
                             *const cmd[2] = {"a-cmd", "b-cmd"};
    for (int i = 0; i < 2; i++) {
        const char *program = cli_isset(a, dxp[i]) ? dxp[i] : cli_isset(a, cmd[i]) ? cmd[i] : NULL;
        CliSource from = cli_source(a, side[i]);
        if (!program || from == CLI_FROM_DEFAULT || from == CLI_FROM_NONE) continue;
        fprintf(stderr,
                "dama match: --%s %.100s with --%s: engine %c is the program, which plays with its own weights "
                "(leave out --%s)\n",
                side[i], cli_str(a, side[i]), program, 'A' + i, side[i]);
        return 2;
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (cli_egtb_default(a, g) != 0 || cli_egtb_dependents(a) != 0) return 2;
    /* options that would do nothing, yet would make another match than the one to resume */
    static const char *const SPRT[] = {"sprt", NULL}, *const REPEAT[] = {"repeat-book", NULL};
    static const char *const SPRT_OPTS[] = {"elo0", "elo1", "alpha", "beta"};
    for (size_t i = 0; i < sizeof SPRT_OPTS / sizeof SPRT_OPTS[0]; i++)
        if (cli_requires(a, SPRT_OPTS[i], SPRT) != 0) return 2;
    if (cli_requires(a, "repeat-plies", REPEAT) != 0) return 2;
    char err[ERR_MAX];
    MatchOptions o = {
        .game = g, .db_path = cli_str(a, "db"), .weights = {cli_str(a, "a"), cli_str(a, "b")},
        .cmds = {cli_str(a, "a-cmd"), cli_str(a, "b-cmd")}, .dxp = {cli_str(a, "a-dxp"), cli_str(a, "b-dxp")}, .pairs = cli_int(a, "pairs"),
        .threads = (int)cli_int(a, "threads"), .hash_mb = cli_int(a, "hash"), .repeat_book = cli_flag(a, "repeat-book"),
        .repeat_plies = (int)cli_int(a, "repeat-plies"), .max_plies = (int)cli_int(a, "max-plies"),
        .seed = (uint64_t)cli_int(a, "seed"), .sprt = cli_flag(a, "sprt"),
        .sprt_params = {.alpha = cli_real(a, "alpha"), .beta = cli_real(a, "beta"), .elo0 = cli_real(a, "elo0"),
                        .elo1 = cli_real(a, "elo1")},
        .egtb_dir = cli_str(a, "egtb"), .egtb_pieces = (int)cli_int(a, "egtb-pieces"),
        .egtb_adjudicate = cli_flag(a, "egtb-adjudicate"), .stop = &cli_stop_requested};
    cli_openings_source(a, &o.openings);
    if (o.pairs < 0) {
        fprintf(stderr, "dama match: --pairs must be >= 0\n");
        return 2;
    }
    if (o.sprt && o.pairs < MATCH_SPRT_MIN_PAIRS && dist_rank() == 0) /* said at once, not as a bare "undecided" at the end */
        fprintf(stderr, "note: --pairs %lld is below %d: the SPRT decides no sooner than %d pairs, so this match "
                "ends undecided\n", (long long)o.pairs, MATCH_SPRT_MIN_PAIRS, MATCH_SPRT_MIN_PAIRS);
    for (int i = 0; i < 2; i++)
        if (o.cmds[i] && (!*o.cmds[i] || strlen(o.cmds[i]) >= PLAYER_SPEC_MAX)) {
            fprintf(stderr, "dama match: --%c-cmd: need a command of 1..%d bytes\n", 'a' + i, PLAYER_SPEC_MAX - 1);
            return 2;
        }
    if (check_dxp(g, o.dxp, o.cmds) != 0) return 2;
    if (check_weights_unused(a) != 0) return 2;
    for (int i = 0; i < 2; i++)
        if (o.dxp[i] && cli_str(a, i ? "b-book" : "a-book")) {
            /* the program keeps its own board: a move dama chose for it would be missing there */
            fprintf(stderr, "dama match: --%c-book: a DXP program plays its own moves (give it its own book)\n",
                    'a' + i);
            return 2;
        }
    const char *probing = cli_str(a, "egtb-engines");
    o.probe[0] = strcmp(probing, "both") == 0 || strcmp(probing, "a") == 0;
    o.probe[1] = strcmp(probing, "both") == 0 || strcmp(probing, "b") == 0;
    if (!o.probe[0] && !o.probe[1]) {
        fprintf(stderr, "dama match: --egtb-engines must be both, a or b, not '%s'\n", probing);
        return 2;
    }
    if (cli_mpi_start(a, "match") != 0) return 2;
    if (stats_check_sprt(&o.sprt_params, err, sizeof err) != 0) {
        fprintf(stderr, "dama match: %s\n", err);
        return 2;
    }
    if (parse_limits(a, &o.limits) != 0) return 2;
    char config[4096], legacy[4096];
    cli_config_text(a, NOT_IDENTITY, config, sizeof config);
    run_book_identity(a, config, sizeof config);
    if (cli_str(a, "a-book")) run_file_identity("a-book", cli_str(a, "a-book"), config, sizeof config);
    if (cli_str(a, "b-book")) run_file_identity("b-book", cli_str(a, "b-book"), config, sizeof config);
    cli_config_text(a, NOT_IDENTITY_BEFORE, legacy, sizeof legacy);
    o.config = config;
    o.legacy_config = legacy;
    Printer p = {.a = a, .g = g};
    o.on_start = on_start;
    o.progress = progress;
    o.on_fault = on_fault;
    o.ctx = &p;
    MoveBook books[2];
    if (load_books(a, g, books, &o) != 0) {
        book_free(&books[0]);
        return 1;
    }
    MatchRunResult r;
    int rc = match_run(NULL, &o, &r, err);
    if (r.played) print_result(&r, &o, a);
    if (r.played && (p.faults[0] || p.faults[1]))
        printf("games lost by an engine fault (crash, error answer, timeout, illegal or late move): A %lld, B %lld\n",
               (long long)p.faults[0], (long long)p.faults[1]);
    if (err[0]) fprintf(stderr, "dama match: %s\n", err);
    int64_t games = r.played ? stats_count_games(&r.res.st) : 0;
    if (rc == 0 && games > 0 && p.faults[0] + p.faults[1] >= games) {
        /* no game was played out: nothing to rate (an engine that never answered) */
        fprintf(stderr, "dama match: every game was lost by an engine fault (A %lld, B %lld): see the lines above\n",
                (long long)p.faults[0], (long long)p.faults[1]);
        rc = 1;
    }
    book_free(&books[0]);
    book_free(&books[1]);
    return rc;
}

const CliCommand cmd_match = {
    "match", "engine-vs-engine match of two weight sets (or Hub or DXP engines): paired openings, Elo, SPRT",
    "[--game G] [--db FILE] [--a W | --a-cmd CMD | --a-dxp HOST:PORT] [--b W | --b-cmd CMD | --b-dxp HOST:PORT] "
    "[--pairs N] [--nodes N] [--sprt]", OPTS, run, 0,
};
