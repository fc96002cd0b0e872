/* cmd_match.c — `dama match`: engine-vs-engine match between two weight
 * sets on paired openings (each opening played with both colours), with
 * W/D/L, pentanomial counts, Elo with its 95% interval and an optional SPRT.
 * Games and the running totals are stored in the database. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "dist/relay.h"
#include "arena/schedule_dist.h"
#include "cli/egtb_opts.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "dist/dist.h"
#include "arena/match.h"
#include "arena/play.h"
#include "arena/stats.h"
#include "util/rng.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"a", OPT_STR, "tuned", "engine A's weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"b", OPT_STR, NULL, "engine B's weights, the same forms as --a (default: A's parent weight set, else 'default')", 0, 0},
    {"a-cmd", OPT_STR, NULL, "engine A is this external Hub engine (run with /bin/sh -c, e.g. 'dama hub') instead of weights", 0, 0},
    {"b-cmd", OPT_STR, NULL, "engine B is this external Hub engine instead of weights", 0, 0},
    {"pairs", OPT_INT, "0", "game pairs (0: one per opening of the book)", 0, 100000000},
    RUN_PLAY_OPTS,
    {"movetime", OPT_INT, NULL, "milliseconds per move instead of nodes", 1, 86400000},
    {"tc", OPT_STR, NULL, "a game clock MS+INC (milliseconds) per side instead of nodes; a late move loses", 0, 0},
    CLI_EGTB_OPTS,
    {"egtb-engines", OPT_STR, "both", "with --egtb: the engines whose search probes it: both, a or b", 0, 0},
    {"egtb-adjudicate", OPT_FLAG, NULL, "with --egtb: end a game at the first database position whose result the move-count rules cannot change (reason 'egtb')", 0, 0},
    {"seed", OPT_INT, "1", "seed (opening order, random openings)", 0, CLI_INT_MAX},
    {"repeat-book", OPT_FLAG, NULL, "allow --pairs beyond the opening book: each extra pair plays a book line followed by --repeat-plies distinct random plies", 0, 0},
    {"repeat-plies", OPT_INT, "4", "--repeat-book: random plies after the book line", 1, 40},
    {"sprt", OPT_FLAG, NULL, "stop early when the SPRT decides (never before 20 pairs)", 0, 0},
    {"elo0", OPT_REAL, "0", "SPRT H0 Elo (logistic)", -2000, 2000},
    {"elo1", OPT_REAL, "10", "SPRT H1 Elo (logistic)", -2000, 2000},
    {"alpha", OPT_REAL, "0.05", "SPRT false-positive rate", 1e-6, 0.5},
    {"beta", OPT_REAL, "0.05", "SPRT false-negative rate", 1e-6, 0.5},
    {"progress", OPT_REAL, "5", "seconds between progress lines (0: none)", 0, 86400},
    CLI_MPI_OPT,
    {0},
};

static void progress(void *ctx, const MatchStats *st)
{
    int64_t wdl[3] = {st->wins, st->draws, st->losses};
    run_progress_update(ctx, stats_count_games(st), wdl, false);
}

/* --mpi: the pairs over the ranks (pair p on rank p mod K), stored by rank 0. */
static int run_dist(void *ctx, const Schedule *s, ScheduleStats *stats, char err[ERR_MAX])
{
    (void)ctx;
    return dist_schedule_run(s, "match", stats, err);
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    int64_t pairs = cli_int(a, "pairs"), nodes = cli_int(a, "nodes"), depth = cli_int(a, "depth");
    int64_t threads = cli_int(a, "threads"), max_plies = cli_int(a, "max-plies");
    int64_t hash = cli_int(a, "hash");
    if (pairs < 0) {
        fprintf(stderr, "dama match: --pairs must be >= 0\n");
        return 2;
    }
    const char *cmds[2] = {cli_str(a, "a-cmd"), cli_str(a, "b-cmd")};
    for (int i = 0; i < 2; i++)
        if (cmds[i] && (!*cmds[i] || strlen(cmds[i]) >= PLAYER_SPEC_MAX)) {
            fprintf(stderr, "dama match: --%c-cmd: need a command of 1..%d bytes\n", 'a' + i, PLAYER_SPEC_MAX - 1);
            return 2;
        }
    const char *probing = cli_str(a, "egtb-engines");
    bool probe_a = strcmp(probing, "both") == 0 || strcmp(probing, "a") == 0;
    bool probe_b = strcmp(probing, "both") == 0 || strcmp(probing, "b") == 0;
    if (!probe_a && !probe_b) {
        fprintf(stderr, "dama match: --egtb-engines must be both, a or b, not '%s'\n", probing);
        return 2;
    }
    if (cli_mpi_start(a, "match") != 0) return 2;
    const bool dist = dist_size() > 1, writer = dist_rank() == 0;
    Egtb *edb; /* closed at exit (early error returns leave it to the process end) */
    if (cli_egtb_open(a, g, "match", &edb) != 0) {
        if (dist) dist_abort(1);
        return 1;
    }
    if (threads == 0) threads = dist_node_cores(); /* all cores, shared by the ranks of a node */
    SprtParams sp = {.alpha = cli_real(a, "alpha"), .beta = cli_real(a, "beta"), .elo0 = cli_real(a, "elo0"),
                     .elo1 = cli_real(a, "elo1")};
    if (stats_check_sprt(&sp, err, sizeof err) != 0) {
        fprintf(stderr, "dama match: %s\n", err);
        return 2;
    }
    /* --movetime / --tc: the same limits as tournament engines (play/player.h) */
    PlayerLimits clock_limits = {0};
    if (cli_isset(a, "movetime") && cli_isset(a, "tc")) {
        fprintf(stderr, "dama match: give --movetime or --tc, not both\n");
        return 2;
    }
    for (int i = 0; i < 2; i++) {
        const char *key = i ? "tc" : "movetime";
        if (!cli_isset(a, key)) continue;
        char v[64];
        snprintf(v, sizeof v, "%s", cli_str(a, key));
        if (player_limits_set(&clock_limits, i ? "time" : "movetime", v, err) != 0) {
            fprintf(stderr, "dama match: --%s: %s\n", key, err);
            return 2;
        }
    }
    bool sprt = cli_flag(a, "sprt");
    uint64_t seed = (uint64_t)cli_int(a, "seed");
    char opt[48]; /* each game slot holds its in-process engines, the hash split between them */
    snprintf(opt, sizeof opt, "--hash %lld", (long long)hash);
    if (run_check_hash(g, hash / 2 > 0 ? hash / 2 : 1, (int)threads * (!cmds[0] + !cmds[1]), opt, err) != 0) {
        fprintf(stderr, "dama match: %s\n", err);
        if (dist) dist_abort(1);
        return 1;
    }
    /* Every rank makes the book itself (from the seed; --openings must be
     * readable on every node). */
    OpeningBook book;
    if (run_openings(g, a, seed, &book, err) != 0) {
        fprintf(stderr, "dama match: %s\n", err);
        if (dist) dist_abort(1);
        return 1;
    }
    int book_len = book.len;
    bool repeat = cli_flag(a, "repeat-book");
    if (pairs == 0) pairs = book.len;
    if (pairs > book.len && !repeat) {
        /* Deterministic engines replay a repeated opening move for move:
         * the extra pairs would count the same games again. */
        fprintf(stderr, "dama match: --pairs %lld: the opening book has %d line%s (one pair each); give --pairs %d "
                        "or fewer, or --repeat-book to play each line again with distinct random plies after it\n",
                (long long)pairs, book.len, book.len == 1 ? "" : "s", book.len);
        openings_free(&book);
        return 2;
    }
    if (pairs > book.len &&
        openings_repeat(g, &book, pairs, (int)cli_int(a, "repeat-plies"), seed, err) != 0) {
        fprintf(stderr, "dama match: --repeat-book: %s\n", err);
        openings_free(&book);
        if (dist) dist_abort(1);
        return 1;
    }

    Db *db = NULL;
    EVAL_AUTO_FREE int32_t *wa = eval_weights_new(g);
    EVAL_AUTO_FREE int32_t *wb = eval_weights_new(g);
    int64_t ida = 0, idb = 0, run_id = 0, match_id = 0;
    const char **names = weight_names_new(g);
    int rc = names && wa && wb ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc != 0 && dist) {
        fprintf(stderr, "dama match: rank %d: %s\n", dist_rank(), err);
        dist_abort(1);
    }
    MatchPlan plan = {.game = g, .weights = {wa, wb}, .book = &book, .book_len = book_len,
                      .pairs = pairs, .threads = (int)threads, .max_plies = (int)max_plies, .seed = seed,
                      .sprt = sprt, .sprt_params = sp, .egtb = edb, .egtb_pieces = (int)cli_int(a, "egtb-pieces"),
                      .probe = {probe_a, probe_b}, .egtb_adjudicate = cli_flag(a, "egtb-adjudicate"),
                      .stop = &cli_stop_requested};
    MatchResult res = {.decision = SPRT_CONTINUE};
    stats_init(&res.st);
    DbMatch dm = {.game = g->name};
    /* The set-up (database, weights, run) is rank 0's; it sends the
     * others whether to play and both engines' weights. */
    if (writer) {
        /* an engine command that cannot start is an error before the
         * database is touched, not a match of lost games */
        for (int i = 0; rc == 0 && i < 2; i++) {
            if (!cmds[i]) continue;
            PlayerSpec ps = {.kind = PLAYER_HUB};
            snprintf(ps.name, sizeof ps.name, "%c", 'A' + i);
            snprintf(ps.spec, sizeof ps.spec, "%s", cmds[i]);
            rc = run_check_engine(g, &ps, i ? "--b-cmd" : "--a-cmd", err);
        }
        if (rc == 0) rc = db_open(cli_str(a, "db"), true, &db, err);
        if (rc == 0 && !cmds[0]) rc = weights_resolve_db(g, cli_str(a, "a"), db, wa, &ida, err);
        const char *bspec = cli_str(a, "b");
        char parent[32];
        if (rc == 0 && !bspec && cmds[1]) bspec = "default"; /* not used */
        if (rc == 0 && !bspec) {
            DbWeightsInfo info = {0};
            if (ida && db_weights_info(db, ida, &info, err) == 0 && info.parent_id) {
                snprintf(parent, sizeof parent, "db:%lld", (long long)info.parent_id);
                bspec = parent;
            } else {
                bspec = "default";
            }
            db_weights_info_clear(&info);
        }
        if (rc == 0 && !cmds[1]) rc = weights_resolve_db(g, bspec, db, wb, &idb, err);
        char config[4096];
        /* --mpi is left out: a match is the same over any number of ranks */
        static const char *const not_identity[] = {"mpi", NULL};
        cli_config_text(a, not_identity, config, sizeof config);
        if (rc == 0) rc = db_begin(db, err);
        if (rc == 0) rc = db_run_create(db, "match", g->name, seed, config, NULL, &run_id, err);
        if (rc == 0 && !cmds[0]) rc = weights_store_base(db, g, cli_str(a, "a"), wa, names, run_id, &ida, err);
        if (rc == 0 && !cmds[1]) rc = weights_store_base(db, g, bspec, wb, names, run_id, &idb, err);
        plan.ws_id[0] = ida, plan.ws_id[1] = idb;
        dm = (DbMatch){.run_id = run_id, .game = g->name, .ws_a = ida, .ws_b = idb};
        match_fill_row(&dm, &res, &plan);
        if (rc == 0) rc = db_match_insert(db, &dm, &match_id, err);
        if (rc == 0) rc = db_commit(db, err);
        else db_rollback(db);
        if (rc != 0) fprintf(stderr, "dama match: %s\n", err);
    }
    if (dist) {
        int64_t go = rc;
        char berr[ERR_MAX];
        if (dist_sync_polled(berr) != 0 || dist_bcast_bytes(&go, sizeof go, 0, berr) != 0 ||
            (go == 0 && (dist_bcast_bytes(wa, sizeof(int32_t) * (size_t)g->weights_len, 0, berr) != 0 ||
                         dist_bcast_bytes(wb, sizeof(int32_t) * (size_t)g->weights_len, 0, berr) != 0))) {
            fprintf(stderr, "dama match: rank %d: %s\n", dist_rank(), berr);
            dist_abort(1);
        }
        rc = (int)go;
    }
    if (rc != 0) {
        free((void *)names);
        db_close_discard_new(db);
        openings_free(&book);
        return 1;
    }
    char who[2][160]; /* "weight set 3" or "'dama hub'" */
    for (int i = 0; i < 2; i++) {
        if (cmds[i]) snprintf(who[i], sizeof who[i], "'%.150s'", cmds[i]);
        else snprintf(who[i], sizeof who[i], "weight set %lld", (long long)(i ? idb : ida));
    }
    /* both engines in-process, hash split between them as in self-play; the
     * limits: --movetime or --tc, else --depth, else --nodes */
    PlayerLimits lim = clock_limits;
    if (!lim.movetime_ms && !lim.time_ms) {
        if (depth) lim.depth = (int)depth;
        else lim.nodes = (uint64_t)nodes;
    }
    char limit_text[64];
    player_limits_text(&lim, limit_text, sizeof limit_text);
    if (writer) {
        char ranks[48] = "";
        if (dist) snprintf(ranks, sizeof ranks, " a rank, %d ranks over MPI", dist_size());
        fprintf(stderr, "match %s: run %lld, A = %s, B = %s, %lld pairs, limit %s, %lld threads%s\n", g->name,
                (long long)run_id, who[0], who[1], (long long)pairs, limit_text, (long long)threads, ranks);
    }
    const char *labels[2] = {"A", "B"};
    for (int i = 0; i < 2; i++) {
        plan.specs[i] = (PlayerSpec){.kind = cmds[i] ? PLAYER_HUB : PLAYER_DAMA, .limits = lim,
                                     .hash_mb = hash / 2 > 0 ? hash / 2 : 1};
        snprintf(plan.specs[i].name, sizeof plan.specs[i].name, "%s", labels[i]);
        if (cmds[i]) snprintf(plan.specs[i].spec, sizeof plan.specs[i].spec, "%s", cmds[i]);
    }
    cli_install_stop_handler();
    RunProgress prog;
    run_progress_init(&prog, "match", pairs * 2, writer ? cli_real(a, "progress") : 0);
    plan.progress = progress;
    plan.progress_ctx = &prog;
    if (dist) plan.run_schedule = run_dist;
    char merr[ERR_MAX];
    rc = match_play(writer ? db : NULL, run_id, match_id, &plan, &res, merr);
    egtb_close(edb);
    if (!writer) { /* rank 0 prints and decides the exit code */
        if (rc != 0) fprintf(stderr, "dama match: rank %d: %s\n", dist_rank(), merr);
        free((void *)names);
        openings_free(&book);
        return dist_relay_final("match", 1);
    }
    match_fill_row(&dm, &res, &plan);
    const MatchStats st = res.st;
    SprtDecision decision = res.decision;
    int64_t decided_pairs = res.decided_pairs;
    double decided_llr = res.decided_llr;
    bool complete = res.complete;
    char line[STATS_LINE_MAX];
    stats_format_line(&st, &sp, line);
    printf("match %lld (run %lld): A = %s vs B = %s\n%s\n", (long long)match_id, (long long)run_id, who[0], who[1],
           line);
    if (sprt) {
        printf("SPRT [%g, %g] alpha %g beta %g: ", sp.elo0, sp.elo1, sp.alpha, sp.beta);
        if (decision == SPRT_CONTINUE)
            printf("undecided\n");
        else
            printf("%s after %lld pairs at LLR %.2f; the pairs already under way were finished: final LLR %.2f "
                   "after %lld pairs\n",
                   decision == SPRT_ACCEPT_H1 ? "H1 accepted (A is stronger)" : "H0 accepted (A is not stronger by elo1)",
                   (long long)decided_pairs, decided_llr, dm.llr, (long long)stats_count_pairs(&st));
    }
    if (pairs > book_len)
        printf("openings: %d book lines; pairs %d to %lld repeat them, each with %lld distinct random plies after the "
               "line (--repeat-book)\n", book_len, book_len + 1, (long long)pairs, (long long)cli_int(a, "repeat-plies"));
    if (!complete) printf("interrupted after %lld of %lld pairs\n", (long long)stats_count_pairs(&st), (long long)pairs);
    if (rc != 0) fprintf(stderr, "dama match: %s\n", merr);
    free((void *)names);
    db_close_discard_new(db);
    openings_free(&book);
    int final_rc = rc != 0 ? 1 : complete ? 0 : 3;
    return dist ? dist_relay_final("match", final_rc) : final_rc;
}

const CliCommand cmd_match = {
    "match", "engine-vs-engine match of two weight sets (or Hub engines): paired openings, Elo, SPRT",
    "[--game G] [--db FILE] [--a W | --a-cmd CMD] [--b W | --b-cmd CMD] [--pairs N] [--nodes N] [--sprt]", OPTS, run, 0,
};
