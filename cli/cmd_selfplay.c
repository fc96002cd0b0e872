/* cmd_selfplay.c — `dama selfplay`: parallel self-play into SQLite.
 *
 * Engines with varying weights play game pairs: pair p starts from one
 * opening and plays it twice with colours swapped. --perturb pairs (the
 * default) gives every pair its own random perturbation delta_p and plays
 * base + delta_p against base - delta_p, so that no playing style is tied
 * to many games (a fixed population lets the styles of its few members
 * correlate with their results, which the tuner would then learn);
 * --perturb population draws both players of a pair from a fixed
 * population of perturbed copies. Everything a game depends on is
 * derived from (run seed, pair index), so the games do not depend on the
 * thread count. OpenMP workers each own two engines; finished games go
 * through one writer (a critical section) that commits them in batches.
 * Interrupted runs resume: the same game, seed and configuration continue
 * the same run and skip the stored games. The set-up stores the members as
 * deltas of the base (a few dozen weights each), committed in chunks, and
 * stops between two on a signal: a run stopped there resumes by making the
 * members still missing. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/num.h"

#include "cli/cli.h"
#include "dist/relay.h"
#include "cli/egtb_opts.h"
#include "cli/run_common.h"
#include "db/weight_sets.h"
#include "db/db.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "dist/dist.h"
#include "arena/play.h"
#include "util/rng.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"games", OPT_INT, "2000", "number of games (an even number: pairs with colours swapped)", 2, 100000000},
    RUN_PLAY_OPTS,
    CLI_EGTB_OPTS,
    {"egtb-adjudicate", OPT_FLAG, NULL, "with --egtb: end a game at the first database position whose result the move-count rules cannot change (reason 'egtb')", 0, 0},
    {"seed", OPT_INT, "1", "run seed", 0, CLI_INT_MAX},
    {"weights", OPT_STR, "default", "base weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"perturb", OPT_STR, "pairs", "pairs: base +- a fresh perturbation per game pair; population: a fixed population", 0, 0},
    {"population", OPT_INT, "8", "--perturb population: the base and population-1 perturbed copies", 2, 64},
    {"spread", OPT_REAL, "0.25", "perturbation: each weight moves by N(0,1) * max(spread*|w|, spread-min)", 0, 10},
    {"spread-min", OPT_REAL, "6", "smallest perturbation scale, centi-men", 0, 1000},
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

/* Member k: the base (k = 0) or a perturbed copy. Population mode: copy k
 * has its own perturbation. Pairs mode: members 2p+1 and 2p+2 are
 * base + delta_p and base - delta_p. Each weight moves by
 * N(0,1) * max(spread * |w|, spread_min); the game's scale weight (the
 * man's or the shatra's value) and pattern tables are not perturbed. */
static void make_member(const Game *g, const int32_t *base, const uint8_t *big, int64_t k, bool pairs, uint64_t seed,
                        double spread, double spread_min, int32_t *out)
{
    memcpy(out, base, sizeof(int32_t) * (size_t)g->weights_len);
    if (k == 0) return;
    /* Pattern tables (big[i]: terms of more than 64 weights) are not
     * perturbed: noise on thousands of weights a position reads a handful
     * of is no playing style, and each member would store them all.
     * Skipping them draws nothing, so the other weights get the draws they
     * had before the tables existed. */
    int64_t stream = pairs ? (k - 1) / 2 : k;
    double sign = pairs && k % 2 == 0 ? -1.0 : 1.0;
    uint64_t rng = rng_derive(seed ^ 0x706f70756c617469ULL, (uint64_t)stream);
    for (int i = 0; i < g->weights_len; i++) {
        if (i == g->scale_weight || big[i]) continue;
        double u1 = rng_unit(&rng), u2 = rng_unit(&rng);
        double z = sqrt(-2.0 * log(u1 + 1e-300)) * cos(6.283185307179586 * u2);
        double scale = fabs((double)base[i]) * spread;
        if (scale < spread_min) scale = spread_min;
        out[i] = base[i] + (int32_t)lround(sign * z * scale);
    }
}

/* Self-play over MPI (--mpi under mpirun -np K): game i is played by rank
 * i mod K (a shard, --shard R/S, plays the games with i mod S = R: rank r
 * those with i = R + S * (r + K * j));
 * everything a game depends on comes from (run seed, i), so the stored games
 * are those of a one-process run whatever K. Rank 0 alone opens the
 * database: it finds or makes the run and its members and sends every rank
 * the base weights, the members, their ids and which games are stored
 * already. Each rank plays its games on its OpenMP workers; the main thread
 * of a rank (MPI_THREAD_FUNNELED) plays none: it runs the relay of
 * cli/dist_play.h (the one distribution of selfplay, match and tournament
 * over MPI): on ranks 1.. it sends each finished game to rank 0
 * (game_writer_encode), on rank 0 it receives them into the one writer
 * that also takes rank 0's own games. */

/* What rank 0 tells the others after the set-up. */
typedef struct SetupMsg {
    int64_t rc; /* 0: play; 1: failed (rank 0 printed why); -1: nothing to play; -2: stopped in the set-up */
    int64_t run_id, already;
} SetupMsg;

/* Rank 0's relay: what a received game updates. */
typedef struct RelayCtx {
    GameWriter *wr;
    int64_t *played, *positions, *rank_games, *wdl;
    RunProgress *prog;
} RelayCtx;

/* A game of rank src (game_writer_encode's bytes) into the writer; a bad
 * one fails the writer, and relay_idle then stops every rank. */
static int relay_game(void *ctx, int src, const uint8_t *buf, size_t size, char err[ERR_MAX])
{
    (void)err;
    RelayCtx *c = ctx;
#pragma omp critical(game_writer)
    {
        Outcome oc = OUTCOME_NONE;
        int plies = 0;
        if (game_writer_add_encoded(c->wr, buf, size, &oc, &plies) == 0) {
            (*c->played)++;
            *c->positions += plies;
            c->rank_games[src]++;
            c->wdl[oc == OUTCOME_WHITE_WINS ? 0 : oc == OUTCOME_DRAW ? 1 : 2]++;
            run_progress_update(c->prog, *c->played, c->wdl, false);
        }
    }
    return 0;
}

/* The members of a new run are committed MEMBERS_CHUNK at a time, or
 * after MEMBERS_CHUNK_S seconds, whichever comes first. */
enum { MEMBERS_CHUNK = 500 };
static const double MEMBERS_CHUNK_S = 0.5;

/* Between polls: the timed flush; a failed writer stops every rank. */
static bool relay_idle(void *ctx)
{
    RelayCtx *c = ctx;
    bool failed;
#pragma omp critical(game_writer)
    {
        if (c->wr->len > 0 && run_now_s() - c->wr->last_flush >= c->wr->flush_interval_s) game_writer_flush(c->wr);
        failed = c->wr->failed;
    }
    return failed;
}

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

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    int64_t games = cli_int(a, "games"), population = cli_int(a, "population");
    const char *perturb = cli_str(a, "perturb");
    bool pairs_mode = strcmp(perturb, "pairs") == 0;
    if (!pairs_mode && strcmp(perturb, "population") != 0) {
        fprintf(stderr, "dama selfplay: --perturb must be 'pairs' or 'population', not '%s'\n", perturb);
        return 2;
    }
    int64_t nodes = cli_int(a, "nodes"), depth = cli_int(a, "depth"), threads = cli_int(a, "threads");
    int64_t max_plies = cli_int(a, "max-plies"), batch = cli_int(a, "batch");
    int64_t hash = cli_int(a, "hash");
    /* the ranges of --games, --population, --batch and the spreads were
     * checked by cli_parse; what is left is one constraint */
    if (games % 2) return cli_bad_value(a, "games", "must be an even number (pairs with colours swapped)");
    /* The shard (--shard R/K: the games i with i mod K = R; the whole run
     * is 0/1), and this rank's games in it: i = first + j * stride. */
    int64_t shard_r = 0, shard_k = 1;
    if (cli_isset(a, "shard") && parse_shard(cli_str(a, "shard"), &shard_r, &shard_k, err) != 0) {
        fprintf(stderr, "dama selfplay: %s\n", err);
        return 2;
    }
    if (cli_mpi_start(a, "selfplay") != 0) return 2;
    bool dist = dist_size() > 1; /* the main thread of each rank communicates */
    int64_t first = shard_r + shard_k * dist_rank(), stride = shard_k * dist_size();
    Egtb *edb; /* closed at exit (early error returns leave it to the process end) */
    if (cli_egtb_open(a, g, "selfplay", &edb) != 0) {
        if (dist) dist_abort(1);
        return 1;
    }
    if (threads == 0) threads = dist_node_cores(); /* all cores, shared by the ranks of a node */
    uint64_t seed = (uint64_t)cli_int(a, "seed");
    char opt[48];
    snprintf(opt, sizeof opt, "--hash %lld", (long long)hash);
    if (run_check_hash(g, hash / 2 > 0 ? hash / 2 : 1, 2 * (int)threads, opt, err) != 0) { /* workers.c's split */
        fprintf(stderr, "dama selfplay: %s\n", err);
        return 1;
    }

    OpeningBook book;
    if (run_openings(g, a, seed, &book, err) != 0) {
        fprintf(stderr, "dama selfplay%s: %s\n", dist ? " (over MPI)" : "", err);
        if (dist) dist_abort(1);
        return 1;
    }
    EVAL_AUTO_FREE int32_t *base = eval_weights_new(g);
    if (!base) {
        fprintf(stderr, "dama selfplay: out of memory for %d weights\n", g->weights_len);
        if (dist) dist_abort(1);
        return 1;
    }
    /* Members: 0 is the base; pairs mode adds two per game pair. Members
     * differ from the base only outside the pattern tables (see
     * make_member), so each keeps just those weights (small[], n_small of
     * them); a worker puts a member's full vector together before a game.
     * A pairs run of N games then costs N * n_small weights of memory, not
     * N * weights_len. */
    int64_t members_len = pairs_mode ? 1 + games : population;
    int64_t run_id = 0, *ws_ids = malloc(sizeof(int64_t) * (size_t)members_len);
    int *small = malloc(sizeof(int) * (size_t)g->weights_len), n_small = 0;
    EVAL_AUTO_FREE uint8_t *big = calloc((size_t)g->weights_len, 1);
    if (small && big) {
        for (int t = 0; t < g->terms_len; t++)
            if (g->terms[t].count > 64) memset(big + g->terms[t].offset, 1, (size_t)g->terms[t].count);
        for (int i = 0; i < g->weights_len; i++)
            if (!big[i]) small[n_small++] = i;
    }
    int32_t *members = malloc(sizeof(int32_t) * (size_t)members_len * (size_t)(n_small ? n_small : 1));
    EVAL_AUTO_FREE int32_t *full = eval_weights_new(g);
    const char **names = weight_names_new(g);
    bool *done = calloc((size_t)games, sizeof(bool));
    int rc = 0;
    if (!members || !names || !ws_ids || !small || !big || !full || !done) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    if (rc != 0 && dist) {
        fprintf(stderr, "dama selfplay: rank %d: %s\n", dist_rank(), err);
        dist_abort(1);
    }
    Db *db = NULL;
    int64_t already = 0;
    bool resumed = false;
    SetupMsg setup = {0, 0, 0};
    /* The set-up: on rank 0 only (one process, or rank 0 of the job). */
    if (rc == 0 && dist_rank() == 0) {
        if (db_open(cli_str(a, "db"), true, &db, err) != 0 ||
            weights_resolve_db(g, cli_str(a, "weights"), db, base, NULL, err) != 0)
            rc = -1;
        /* SIGINT/SIGTERM from here on stop cleanly (a signal during the
         * set-up stops before the first game). */
        cli_install_stop_handler();
        /* Find or create the run, and its population of weight sets. */
        char config[4096];
        cli_config_text(a, NOT_IDENTITY, config, sizeof config);
        {
            /* The base weights' content is part of the run's identity:
             * 'default' names other weights after an export and rebuild. */
            uint64_t h = 0x9E3779B97F4A7C15ULL;
            for (int i = 0; i < g->weights_len; i++)
                h = rng_derive(h, (uint64_t)(uint32_t)base[i] + ((uint64_t)i << 32));
            size_t len = strlen(config);
            snprintf(config + len, sizeof config - len, "base-weights-hash = %016llx\n", (unsigned long long)h);
        }
        int ws_len = 0;
        char status[DB_STATUS_MAX] = "";
        if (rc == 0) rc = db_run_find(db, "selfplay", g->name, seed, config, &run_id, status, err);
        resumed = rc == 0 && run_id;
        if (rc == 0 && resumed) rc = db_weights_by_run(db, run_id, ws_ids, (int)members_len, &ws_len, err);
        /* Fewer than expected: a set-up stopped before all were stored. */
        if (rc == 0 && resumed && (ws_len < 1 || ws_len > members_len)) {
            snprintf(err, ERR_MAX, "run %lld has %d weight sets, expected %lld", (long long)run_id, ws_len,
                     (long long)members_len);
            rc = -1;
        }
        /* Stored members are loaded; missing ones (a new run, or a larger
         * --games in pairs mode) are made and stored, each as a delta of the
         * base (db_weights_insert_delta: its few dozen weights outside the
         * pattern tables, not the whole model), in transactions of
         * MEMBERS_CHUNK members or MEMBERS_CHUNK_S seconds: a signal stops
         * between two, and what was stored stays for the resume. */
        double setup_start = run_now_s(), last_line = setup_start;
        double line_s = cli_real(a, "progress"); /* 0: no set-up lines */
        for (int k = 0; rc == 0 && k < ws_len; k++) {
            rc = db_weights_load(db, ws_ids[k], g->name, names, full, g->weights_len, err);
            for (int i = 0; rc == 0 && i < g->weights_len; i++)
                if (big[i] && full[i] != base[i]) {
                    snprintf(err, ERR_MAX, "run %lld: member %d (weight set %lld) has its own %s; members differ from "
                             "the base only outside the pattern tables", (long long)run_id, k, (long long)ws_ids[k], names[i]);
                    rc = -1;
                }
            for (int j = 0; rc == 0 && j < n_small; j++) members[(size_t)k * (size_t)n_small + (size_t)j] = full[small[j]];
            if (rc == 0 && line_s > 0 && run_now_s() - last_line >= line_s) {
                last_line = run_now_s();
                fprintf(stderr, "selfplay: set-up: %d/%d stored members loaded\n", k + 1, ws_len);
            }
        }
        bool setup_stopped = false;
        if (rc == 0 && ws_len < members_len) {
            rc = db_begin(db, err);
            if (rc == 0 && !resumed) rc = db_run_create(db, "selfplay", g->name, seed, config, NULL, &run_id, err);
            if (rc == 0 && ws_len == 0) {
                rc = weights_store_base(db, g, cli_str(a, "weights"), base, names, run_id, &ws_ids[0], err);
                if (rc == 0) rc = db_run_weights_add(db, run_id, 0, ws_ids[0], err);
                for (int j = 0; j < n_small; j++) members[j] = base[small[j]];
                ws_len = 1;
            }
            /* The run and its base are committed first, so a run killed
             * while its members are made resumes (the missing members are
             * made then). */
            if (rc == 0) rc = db_commit(db, err);
            int64_t made = ws_len, chunk = 0;
            double chunk_start = run_now_s();
            for (int64_t k = ws_len; rc == 0 && k < members_len; k++) {
                if (chunk == 0) {
                    if (cli_stop_requested) {
                        setup_stopped = true;
                        break;
                    }
                    rc = db_begin(db, err);
                    chunk_start = run_now_s();
                    if (rc != 0) break;
                }
                int32_t *w = full;
                make_member(g, base, big, k, pairs_mode, seed, cli_real(a, "spread"), cli_real(a, "spread-min"), w);
                for (int j = 0; j < n_small; j++) members[(size_t)k * (size_t)n_small + (size_t)j] = w[small[j]];
                char how[200], name[48];
                if (pairs_mode)
                    snprintf(how, sizeof how, "perturbed from %lld (pair %lld, %s delta, seed %llu, spread %g, min %g)",
                             (long long)ws_ids[0], (long long)(k - 1) / 2, k % 2 ? "+" : "-", (unsigned long long)seed,
                             cli_real(a, "spread"), cli_real(a, "spread-min"));
                else
                    snprintf(how, sizeof how, "perturbed from %lld (member %lld, seed %llu, spread %g, min %g)",
                             (long long)ws_ids[0], (long long)k, (unsigned long long)seed, cli_real(a, "spread"),
                             cli_real(a, "spread-min"));
                snprintf(name, sizeof name, "selfplay-%lld-m%lld", (long long)run_id, (long long)k);
                rc = db_weights_insert_delta(db, g->name, name, ws_ids[0], how, run_id, names, w, g->weights_len,
                                             &ws_ids[k], err);
                if (rc == 0) rc = db_run_weights_add(db, run_id, (int)k, ws_ids[k], err);
                chunk++;
                double now = run_now_s();
                if (rc == 0 && (chunk >= MEMBERS_CHUNK || now - chunk_start >= MEMBERS_CHUNK_S || k + 1 == members_len)) {
                    rc = db_commit(db, err);
                    made = k + 1;
                    chunk = 0;
                    if (rc == 0 && line_s > 0 && now - last_line >= line_s) {
                        last_line = now;
                        fprintf(stderr, "selfplay: set-up: %lld/%lld members stored (%.1f s)\n", (long long)made,
                                (long long)members_len, now - setup_start);
                    }
                }
            }
            if (rc != 0) db_rollback(db);
            ws_len = (int)made;
            if (rc == 0 && setup_stopped) {
                char ferr[ERR_MAX];
                db_run_finish(db, run_id, "interrupted", ferr);
                printf("selfplay run %lld: set-up interrupted with %lld of %lld members stored; run the same command "
                       "again to resume\n", (long long)run_id, (long long)made, (long long)members_len);
                setup.rc = -2;
            }
        }
        if (setup.rc == 0 && rc == 0 && cli_stop_requested) {
            /* A stop while the stored members were loaded: nothing played. */
            char ferr[ERR_MAX];
            if (run_id) db_run_finish(db, run_id, "interrupted", ferr);
            printf("selfplay run %lld: interrupted during the set-up; run the same command again to resume\n",
                   (long long)run_id);
            setup.rc = -2;
        }
        if (setup.rc == 0 && rc == 0) rc = db_run_game_indices(db, run_id, done, games, &already, err);
        /* Already stored: every game, or (a shard) every game of this shard. */
        int64_t shard_left = 0;
        for (int64_t i = shard_r; rc == 0 && i < games; i += shard_k) shard_left += !done[i];
        if (setup.rc != 0) {
            /* stopped in the set-up (said above) */
        } else if (rc == 0 && resumed && (already == games || shard_left == 0)) {
            if (already == games)
                printf("selfplay run %lld already holds these %lld games (same game, seed and configuration); "
                       "use another --seed or a larger --games for more\n", (long long)run_id, (long long)games);
            else
                printf("selfplay run %lld already holds the %lld games of shard %lld/%lld\n", (long long)run_id,
                       (long long)((games - shard_r + shard_k - 1) / shard_k), (long long)shard_r, (long long)shard_k);
            setup.rc = -1;
        } else if (rc == 0 && resumed) {
            rc = db_run_finish(db, run_id, "running", err);
        }
        if (rc != 0) {
            fprintf(stderr, "dama selfplay: %s\n", err);
            setup.rc = 1;
        }
        setup.run_id = run_id;
        setup.already = already;
    }
    /* Rank 0 tells the others how the set-up went and what they need. */
    if (dist) {
        int brc = dist_sync_polled(err); /* the others wait without spinning while rank 0 sets up */
        if (brc == 0) brc = dist_bcast_bytes(&setup, sizeof setup, 0, err);
        if (brc == 0 && setup.rc == 0) {
            brc = dist_bcast_bytes(base, sizeof(int32_t) * (size_t)g->weights_len, 0, err);
            if (brc == 0) brc = dist_bcast_bytes(ws_ids, sizeof(int64_t) * (size_t)members_len, 0, err);
            if (brc == 0)
                brc = dist_bcast_bytes(members, sizeof(int32_t) * (size_t)members_len * (size_t)n_small, 0, err);
            if (brc == 0) brc = dist_bcast_bytes(done, sizeof(bool) * (size_t)games, 0, err);
        }
        if (brc != 0) {
            fprintf(stderr, "dama selfplay: rank %d: %s\n", dist_rank(), err);
            dist_abort(1);
        }
        run_id = setup.run_id;
        already = setup.already;
        /* A signal stops every rank cleanly (mpirun forwards SIGINT and
         * SIGTERM; rank 0 also passes a stop on). */
        if (dist_rank() != 0) cli_install_stop_handler();
    }
    if (setup.rc != 0) {
        free(members);
        free(small);
        free(ws_ids);
        free(names);
        free(done);
        db_close_discard_new(db);
        openings_free(&book);
        return setup.rc == -1 ? 0 : setup.rc == -2 ? 3 : 1;
    }
    int64_t to_play = 0;
    for (int64_t i = first; i < games; i += stride) to_play += !done[i];
    int64_t *rank_games = calloc((size_t)dist_size(), sizeof(int64_t)); /* stored this session, by rank */
    if (!rank_games) {
        fprintf(stderr, "dama selfplay: out of memory\n");
        dist_abort(1);
    }
    if (dist) dist_sum_int64(&to_play, 1, err); /* every rank's share */
    if (dist_rank() == 0) {
        char shard[64] = "";
        int at = 0;
        if (shard_k > 1) at = snprintf(shard, sizeof shard, ", shard %lld/%lld", (long long)shard_r, (long long)shard_k);
        if (dist) snprintf(shard + at, sizeof shard - (size_t)at, ", %d ranks over MPI", dist_size());
        fprintf(stderr, "selfplay %s: run %lld%s, %lld games (%lld stored)%s, %lld nodes/move, %lld threads%s, %s, "
                "%d openings\n", g->name, (long long)run_id, resumed ? " resumed" : "", (long long)games,
                (long long)already, shard, (long long)nodes, (long long)threads, dist ? " a rank" : "",
                pairs_mode ? "base +- a perturbation per pair" : "fixed population", book.len);
    }

    GameWriter wr;
    game_writer_init(&wr, db, (int)batch, 1.0); /* db is NULL on ranks 1..: nothing is added there */
    int64_t played = 0, positions = 0, wdl[3] = {0, 0, 0};
    RunProgress prog;
    run_progress_init(&prog, "selfplay", to_play, dist_rank() == 0 ? cli_real(a, "progress") : 0);
    if (dist) prog.ranks = dist_size(), prog.rank_games = rank_games;
    PlaySettings ps = {.nodes = depth ? 0 : (uint64_t)nodes, .depth = (int)depth, .max_plies = (int)max_plies};
    int64_t offset = (int64_t)(rng_derive(seed, 0x6f70656eULL) % (uint64_t)book.len);
    int64_t next = 0;                /* this rank's next game: first + next * stride */
    int workers_left = (int)threads; /* workers still playing */
    int self = dist_rank();
    RelayCtx rctx = {.wr = &wr, .played = &played, .positions = &positions, .rank_games = rank_games, .wdl = wdl,
                     .prog = &prog};
    DistRelay relay;
    if (dist) {
        if (dist_relay_init(&relay) != 0) {
            fprintf(stderr, "dama selfplay: rank %d: out of memory\n", self);
            dist_abort(1);
        }
        relay.on_data = relay_game;
        relay.on_idle = relay_idle;
        relay.ctx = &rctx;
        relay.stop = &cli_stop_requested;
    }

#pragma omp parallel num_threads((int)threads + (dist ? 1 : 0))
    if (dist && omp_get_thread_num() == 0) {
        dist_relay_serve(&relay, "selfplay"); /* the main thread: messages only (MPI_THREAD_FUNNELED) */
    } else {
        Worker wk;
        bool wok = worker_init(&wk, g, hash, &cli_stop_requested, &wr), ok = wok;
        Engine **eng = wk.eng;
        PlayRecord *rec = &wk.rec;
        char werr[ERR_MAX];
        EgtbProber *prober = edb ? egtb_prober_new(edb, (int)cli_int(a, "egtb-pieces"), 1024) : NULL;
        ok = ok && (!edb || prober);
        PlaySettings mps = ps;
        int32_t *mw[2] = {eval_weights_new(g), eval_weights_new(g)}; /* this worker's two members */
        ok = ok && mw[0] && mw[1];
        if (prober && cli_flag(a, "egtb-adjudicate")) mps.adjudicate = egtb_adjudicate, mps.adjudicate_ctx = prober;
        if (ok && prober) {
            engine_set_probe(eng[0], egtb_engine_probe, prober);
            engine_set_probe(eng[1], egtb_engine_probe, prober);
        }
        for (;;) {
            int64_t j;
#pragma omp atomic capture
            j = next++;
            int64_t i = first + j * stride;
            if (i >= games) break;
            if (!ok || done[i] || cli_stop_requested || wr.failed) continue;
            int64_t pair = i / 2;
            uint64_t prng = rng_derive(seed, (uint64_t)pair);
            int64_t ma, mb;
            if (pairs_mode) {
                ma = 1 + 2 * pair;
                mb = 2 + 2 * pair;
            } else {
                ma = (int64_t)rng_below(&prng, (uint64_t)population);
                mb = (int64_t)rng_below(&prng, (uint64_t)population - 1);
                if (mb >= ma) mb++;
            }
            if (i % 2) {
                int64_t t = ma;
                ma = mb;
                mb = t;
            }
            const Opening *op = &book.items[(offset + pair) % book.len];
            Position start;
            g->pos_from_fen(&start, op->fen, werr);
            int64_t mk[2] = {ma, mb};
            for (int c = 0; ok && c < 2; c++) { /* the member's full vector: the base, its own weights over it */
                memcpy(mw[c], base, sizeof(int32_t) * (size_t)g->weights_len);
                for (int jj = 0; jj < n_small; jj++)
                    mw[c][small[jj]] = members[(size_t)mk[c] * (size_t)n_small + (size_t)jj];
            }
            engine_set_weights(eng[COLOR_WHITE], mw[0]);
            engine_set_weights(eng[COLOR_BLACK], mw[1]);
            int prc = play_game(g, eng, &start, &mps, &cli_stop_requested, rec, werr);
            if (prc != 0) {
                if (prc < 0) {
#pragma omp critical(game_writer)
                    {
                        snprintf(wr.err, ERR_MAX, "game %lld: %.200s", (long long)i, werr);
                        wr.failed = true;
                    }
                }
                continue;
            }
            DbGame meta = {.run_id = run_id, .game_index = i, .game = g->name, .opening = op->label,
                           .start_fen = op->fen, .white_ws = ws_ids[ma], .black_ws = ws_ids[mb],
                           .seed = rng_derive(seed, (uint64_t)i)};
            if (self != 0) { /* to rank 0, through the main thread */
                uint8_t *buf = NULL;
                size_t size = 0;
                if (game_writer_encode(g, rec, &meta, &buf, &size) != 0) {
#pragma omp critical(game_writer)
                    {
                        snprintf(wr.err, ERR_MAX, "game %lld: out of memory", (long long)i);
                        wr.failed = true;
                    }
                    continue;
                }
                dist_relay_push(&relay, buf, size);
                continue;
            }
#pragma omp critical(game_writer)
            {
                if (game_writer_add(&wr, g, rec, &meta) == 0) {
                    played++;
                    positions += rec->plies;
                    rank_games[0]++;
                    wdl[rec->outcome == OUTCOME_WHITE_WINS ? 0 : rec->outcome == OUTCOME_DRAW ? 1 : 2]++;
                    run_progress_update(&prog, played, wdl, false);
                }
            }
        }
        if (wok) worker_free(&wk);
        free(mw[0]), free(mw[1]);
        egtb_prober_free(prober);
        int left;
#pragma omp atomic capture
        left = --workers_left;
        if (left == 0 && dist) { /* the last worker: this rank's report */
            DistReport rep = {.rc = 0};
#pragma omp critical(game_writer)
            {
                rep.rc = wr.failed ? -1 : 0;
                snprintf(rep.err, ERR_MAX, "%s", wr.err);
            }
            dist_relay_workers_done(&relay, &rep);
        }
    }
    if (dist && self == 0) /* a rank's failure is the run's */
        for (int r = 1; r < dist_size(); r++)
            if (relay.reports[r].rc < 0 && !wr.failed) {
                snprintf(wr.err, ERR_MAX, "rank %d: %.200s", r, relay.reports[r].err);
                wr.failed = true;
            }
    if (dist) dist_relay_free(&relay);
    egtb_close(edb);
    int final_rc = 0;
    if (self == 0) {
        game_writer_flush(&wr);
        run_progress_update(&prog, played, wdl, true);
        int64_t total_stored = already + wr.stored;
        /* Complete: every game (a shard: every game of the shard) stored. */
        bool complete = total_stored == games;
        if (shard_k > 1) {
            char cerr[ERR_MAX];
            int64_t stored = 0;
            complete = db_run_game_indices(db, run_id, done, games, &stored, cerr) == 0;
            for (int64_t i = shard_r; complete && i < games; i += shard_k) complete = done[i];
        }
        char ferr[ERR_MAX];
        db_run_finish(db, run_id, complete ? "done" : "interrupted", ferr);
        double dt = run_now_s() - prog.start;
        printf("selfplay run %lld: %lld games stored (%lld this session, %lld positions), %.2f games/s, "
               "White +%lld =%lld -%lld%s\n",
               (long long)run_id, (long long)total_stored, (long long)wr.stored, (long long)positions,
               dt > 0 ? (double)played / dt : 0.0, (long long)wdl[0], (long long)wdl[1], (long long)wdl[2],
               complete ? "" : " — interrupted; run the same command again to resume");
        if (dist) {
            printf("  by rank:");
            for (int r = 0; r < dist_size(); r++) printf(" %d: %lld", r, (long long)rank_games[r]);
            printf(" games\n");
        }
        if (wr.failed) fprintf(stderr, "dama selfplay: %s\n", wr.err);
        final_rc = wr.failed ? 1 : complete ? 0 : 3;
        if (dist) final_rc = dist_relay_final("selfplay", final_rc);
    } else {
        final_rc = dist_relay_final("selfplay", 1); /* rank 0's verdict */
    }
    game_writer_free(&wr);
    free(rank_games);
    free(members);
    free(small);
    free(ws_ids);
    free(names);
    free(done);
    db_close_discard_new(db);
    openings_free(&book);
    return final_rc;
}

const CliCommand cmd_selfplay = {
    "selfplay", "parallel self-play with varying weights; stores games and positions in SQLite",
    "[--game G] [--db FILE] [--games N] [--nodes N] [--threads N] [--seed S]", OPTS, run, 0,
};
