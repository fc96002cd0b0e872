/* cmd_tournament.c — `dama tournament`: round robin or gauntlet of any mix
 * of in-process dama engines (weight sets) and external Hub engines, on
 * paired openings (each opening with both colours), with clocks,
 * adjudication and recovery from failing engines; every game in SQLite, a
 * crosstable, pentanomial counts per pairing and ratings fitted together.
 * Rerunning the same command (or adding --resume) continues an interrupted
 * tournament. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/pdn_export.h"
#include "cli/ratings_table.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/eval.h"
#include "pdn/pdn.h"
#include "play/play.h"
#include "play/player.h"
#include "play/ratings.h"
#include "play/stats.h"
#include "util/rng.h"
#include "util/atomic_file.h"

enum { ENGINES_MAX = 64 };

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"name", OPT_STR, NULL, "a name for the tournament", 0, 0},
    {"format", OPT_STR, "round-robin", "round-robin (every pairing) or gauntlet (the first engine against each other)", 0, 0},
    {"rounds", OPT_INT, "1", "rounds: each plays every pairing once with both colours on a new opening", 1, 1000000},
    {"concurrency", OPT_INT, "0", "games played at once (0: all cores)", 0, 256},
    {"nodes", OPT_INT, NULL, "default limit: search nodes per move", 1, CLI_INT_MAX},
    {"depth", OPT_INT, NULL, "default limit: search depth per move", 1, 100},
    {"movetime", OPT_INT, NULL, "default limit: milliseconds per move", 1, 86400000},
    {"tc", OPT_STR, NULL, "default limit: a game clock MS+INC (milliseconds), e.g. 10000+100", 0, 0},
    {"timeout", OPT_INT, NULL, "ms an engine may take beyond its movetime or clock (default 1000), or per move "
                               "without either (default 10000), before it loses by 'timeout'", 1, 86400000},
    {"hash", OPT_INT, "1", "transposition table MiB per in-process engine (each concurrent game has its own; a new game clears it, so keep it small at small node counts)", 1, 65536},
    {"openings", OPT_STR, NULL, "opening book file (label<TAB>position); default: the game's book, else random", 0, 0},
    {"random-plies", OPT_INT, "4", "plies of random openings when there is no book", 0, 40},
    {"balance", OPT_INT, "60", "random openings: redraw a line a 2000-node search scores beyond +-N centi-men", 0, 100000},
    {"max-plies", OPT_INT, "300", "move cap in plies (adjudicated draw 'move-cap')", 1, 1000000},
    {"resign-moves", OPT_INT, "0", "resign adjudication: moves in a row (0: off)", 0, 100000},
    {"resign-score", OPT_INT, "600", "resign adjudication: own score at most -N centi-men", 1, 100000},
    {"draw-moves", OPT_INT, "0", "draw adjudication: moves of each side in a row (0: off)", 0, 100000},
    {"draw-score", OPT_INT, "10", "draw adjudication: both scores within +-N centi-men", 0, 100000},
    {"draw-after", OPT_INT, "60", "draw adjudication: not before this ply", 0, 100000},
    {"seed", OPT_INT, "1", "seed (opening order, random openings)", 0, CLI_INT_MAX},
    {"ratings-interval", OPT_INT, "0", "print ratings every N games (0: at the end only)", 0, CLI_INT_MAX},
    {"anchor", OPT_STR, NULL, "ratings: NAME or NAME=ELO fixed (default: the mean is 0)", 0, 0},
    {"prior", OPT_REAL, "2", "ratings: virtual games per pair of players who met", 0, 1000000},
    {"pdn-out", OPT_STR, NULL, "append every game to this PDN file as it ends", 0, 0},
    {"resume", OPT_FLAG, NULL, "continue the tournament of this same command (rerunning it does too); an error "
                               "if there is none", 0, 0},
    {"progress", OPT_REAL, "10", "seconds between progress lines (0: none)", 0, 86400},
    {0},
};

/* Options that do not change which games are played: left out of the
 * configuration that identifies a tournament for resume. */
static const char *const NOT_IDENTITY[] = {"db", "concurrency", "progress", "ratings-interval", "anchor",
                                           "prior", "pdn-out", "resume", NULL};

typedef struct Tour {
    const Game *g;
    int n;
    PlayerSpec specs[ENGINES_MAX];
    int32_t *weights[ENGINES_MAX]; /* in-process engines' weights */
    int64_t ws_id[ENGINES_MAX];
    int64_t pid[ENGINES_MAX]; /* participants.id */
    int pairings;
    int pair_a[ENGINES_MAX * ENGINES_MAX / 2], pair_b[ENGINES_MAX * ENGINES_MAX / 2];
    int rounds;
    int64_t games_total;
    signed char *result; /* per game index: -1 not played, else White's half points */
    /* statistics */
    int64_t done_games;
    double engine_seconds;
} Tour;

/* game index -> round, pairing, colour (0: pair_a plays White). */
static void game_slot(const Tour *t, int64_t gi, int *round, int *pairing, int *swap)
{
    *swap = (int)(gi % 2);
    int64_t u = gi / 2;
    *pairing = (int)(u % t->pairings);
    *round = (int)(u / t->pairings);
}

static void game_players(const Tour *t, int64_t gi, int *white, int *black)
{
    int r, k, c;
    game_slot(t, gi, &r, &k, &c);
    *white = c ? t->pair_b[k] : t->pair_a[k];
    *black = c ? t->pair_a[k] : t->pair_b[k];
}

typedef struct Loaded {
    Tour *t;
    int64_t run_id;
} Loaded;

static int load_result(void *ctx, const DbGameRow *g)
{
    Tour *t = ((Loaded *)ctx)->t;
    if (g->game_index < 0 || g->game_index >= t->games_total || !g->result) return 0;
    t->result[g->game_index] = (signed char)(strcmp(g->result, "1-0") == 0 ? 2 : strcmp(g->result, "0-1") == 0 ? 0 : 1);
    return 0;
}

static void print_ratings(FILE *out, const Tour *t, const CliArgs *a)
{
    RatingsGame *games = malloc(sizeof *games * (size_t)(t->games_total ? t->games_total : 1));
    if (!games) return;
    int64_t len = 0;
    for (int64_t gi = 0; gi < t->games_total; gi++) {
        if (t->result[gi] < 0) continue;
        int w, b;
        game_players(t, gi, &w, &b);
        games[len++] = (RatingsGame){w, b, t->result[gi]};
    }
    const char *names[ENGINES_MAX];
    for (int i = 0; i < t->n; i++) names[i] = t->specs[i].name;
    RatingsOptions opt;
    ratings_options_default(&opt);
    opt.prior = cli_real(a, "prior");
    char err[ERR_MAX];
    if (cli_str(a, "anchor") && ratings_parse_anchor(cli_str(a, "anchor"), names, t->n, &opt.anchor, &opt.anchor_elo,
                                                     err) != 0) {
        fprintf(out, "ratings: %s\n", err);
        free(games);
        return;
    }
    RatingsFit fit;
    char rerr[RATINGS_ERR_MAX];
    if (len == 0) fprintf(out, "ratings: no games yet\n");
    else if (ratings_fit(t->n, games, len, &opt, &fit, rerr) != 0) fprintf(out, "%s\n", rerr);
    else {
        fprintf(out, "ratings after %lld games (maximum likelihood, all players together):\n", (long long)len);
        ratings_table_print(out, &fit, names, &opt);
    }
    free(games);
}

static void print_results(FILE *out, const Tour *t)
{
    int n = t->n;
    double score[ENGINES_MAX][ENGINES_MAX] = {{0}};
    int games[ENGINES_MAX][ENGINES_MAX] = {{0}}, draws[ENGINES_MAX][ENGINES_MAX] = {{0}};
    for (int64_t gi = 0; gi < t->games_total; gi++) {
        if (t->result[gi] < 0) continue;
        int w, b;
        game_players(t, gi, &w, &b);
        score[w][b] += t->result[gi] / 2.0;
        score[b][w] += (2 - t->result[gi]) / 2.0;
        games[w][b]++;
        games[b][w]++;
        if (t->result[gi] == 1) draws[w][b]++, draws[b][w]++;
    }
    int width = 6;
    for (int i = 0; i < n; i++)
        if ((int)strlen(t->specs[i].name) > width) width = (int)strlen(t->specs[i].name);
    if (width > 24) width = 24;
    fprintf(out, "crosstable: points of the row against the column (games, draws)\n%-*s", width + 2, "");
    for (int j = 0; j < n; j++) fprintf(out, " %16.*s", 16, t->specs[j].name);
    fprintf(out, " %16s\n", "total");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%-*.*s  ", width, width, t->specs[i].name);
        double total = 0;
        int tg = 0;
        for (int j = 0; j < n; j++) {
            if (i == j || games[i][j] == 0) {
                fprintf(out, " %16s", i == j ? "-" : "");
                continue;
            }
            char cell[48];
            snprintf(cell, sizeof cell, "%.1f (%d, %d)", score[i][j], games[i][j], draws[i][j]);
            fprintf(out, " %16s", cell);
            total += score[i][j];
            tg += games[i][j];
        }
        char cell[48];
        snprintf(cell, sizeof cell, "%.1f/%d", total, tg);
        fprintf(out, " %16s\n", cell);
    }
    fprintf(out, "pairings (first named = A; pentanomial counts of A's pair scores 0, 1/2, 1, 3/2, 2):\n");
    for (int k = 0; k < t->pairings; k++) {
        MatchStats st;
        stats_init(&st);
        for (int r = 0; r < t->rounds; r++) {
            int64_t g0 = ((int64_t)r * t->pairings + k) * 2;
            int res[2] = {-1, -1};
            for (int c = 0; c < 2; c++) {
                int v = t->result[g0 + c];
                if (v < 0) continue;
                res[c] = c == 0 ? v : 2 - v; /* A's half points: A is White in game 0 */
            }
            if (res[0] >= 0 && res[1] >= 0) stats_add_pair(&st, (StatsResult)res[0], (StatsResult)res[1]);
            else if (res[0] >= 0) stats_add_game(&st, (StatsResult)res[0]);
            else if (res[1] >= 0) stats_add_game(&st, (StatsResult)res[1]);
        }
        if (stats_count_games(&st) == 0) continue;
        char line[STATS_LINE_MAX];
        stats_format_line(&st, NULL, line);
        fprintf(out, "  %s vs %s: %s\n", t->specs[t->pair_a[k]].name, t->specs[t->pair_b[k]].name, line);
    }
}

typedef struct StoreCtx {
    Db *db;
    FILE *pdn;
    const char *pdn_path;
    char tournament_name[128];
    int64_t tournament_id;
} StoreCtx;

/* Store one finished game (caller holds the critical section). */
static int store_game(StoreCtx *sc, Tour *t, int64_t run_id, int64_t gi, const Opening *op, const PlayRecord *rec,
                      uint64_t seed, char err[ERR_MAX])
{
    int w, b, r, k, c;
    game_players(t, gi, &w, &b);
    game_slot(t, gi, &r, &k, &c);
    DbGame meta = {.run_id = run_id, .game_index = gi, .game = t->g->name, .opening = op->label,
                   .start_fen = op->fen, .white_ws = t->ws_id[w], .black_ws = t->ws_id[b], .seed = seed,
                   .result = outcome_pdn(rec->outcome), .reason = rec->reason, .plies = rec->plies,
                   .movetext = rec->movetext ? rec->movetext : ""};
    int64_t game_id = 0;
    int rc = db_begin(sc->db, err);
    if (rc == 0) rc = db_game_insert(sc->db, &meta, &game_id, err);
    if (rc == 0)
        rc = db_game_set_players(sc->db, game_id, t->pid[w], t->pid[b], r, rec->detail[0] ? rec->detail : NULL, err);
    if (rc == 0) rc = db_commit(sc->db, err);
    else db_rollback(sc->db);
    if (rc != 0) return -1;
    if (sc->pdn) {
        DbGameRow row = {.id = game_id, .run_id = run_id, .game_index = gi, .round = r,
                         .tournament_id = sc->tournament_id, .run_kind = "match", .game = t->g->name,
                         .opening = op->label, .start_fen = op->fen, .white = t->specs[w].name,
                         .black = t->specs[b].name, .result = meta.result, .reason = rec->reason,
                         .movetext = meta.movetext, .created = NULL,
                         .tournament_name = sc->tournament_name[0] ? sc->tournament_name : NULL};
        if (pdn_export_row(sc->pdn, &row, err) != 0 || fflush(sc->pdn) != 0) {
            snprintf(err, ERR_MAX, "writing %.200s failed", sc->pdn_path);
            return -1;
        }
    }
    t->result[gi] = (signed char)outcome_score_white(rec->outcome);
    return 0;
}

/* On resume: the stored participants must be these engines, in order. */
static int fill_participant(void *ctx, const DbParticipant *p)
{
    Tour *t = ctx;
    if (p->idx < 0 || p->idx >= t->n || strcmp(p->name, t->specs[p->idx].name) != 0) return 1;
    t->pid[p->idx] = p->id;
    t->ws_id[p->idx] = p->weight_set;
    return 0;
}

static int parse_engines(Tour *t, const CliArgs *a, char err[ERR_MAX])
{
    PlayerLimits def = {.nodes = 1000};
    const char *keys[] = {"nodes", "depth", "movetime", "tc"};
    int set = 0;
    for (int i = 0; i < 4; i++) {
        if (!cli_isset(a, keys[i])) continue;
        set++;
        char v[64];
        snprintf(v, sizeof v, "%s", cli_str(a, keys[i]));
        if (player_limits_set(&def, i == 3 ? "time" : keys[i], v, err) != 0) return -1;
    }
    if (set > 1) {
        snprintf(err, ERR_MAX, "give at most one of --nodes, --depth, --movetime, --tc (engines may override it)");
        return -1;
    }
    if (cli_isset(a, "timeout")) {
        char v[32];
        snprintf(v, sizeof v, "%s", cli_str(a, "timeout"));
        if (player_limits_set(&def, "timeout", v, err) != 0) return -1;
    }
    t->n = a->positional_len;
    if (t->n < 2 || t->n > ENGINES_MAX) {
        snprintf(err, ERR_MAX, "need 2..%d engines (e.g. name=A,weights=default name=B,cmd=\"dama hub\")", ENGINES_MAX);
        return -1;
    }
    int64_t hash = cli_int(a, "hash");
    for (int i = 0; i < t->n; i++) {
        if (player_spec_parse(a->positional[i], i, &def, hash, &t->specs[i], err) != 0) return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(t->specs[i].name, t->specs[j].name) == 0) {
                snprintf(err, ERR_MAX, "two engines are named '%s'", t->specs[i].name);
                return -1;
            }
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    Tour t;
    memset(&t, 0, sizeof t);
    t.g = g;
    if (parse_engines(&t, a, err) != 0) {
        fprintf(stderr, "dama tournament: %s\n", err);
        return 2;
    }
    const char *format = cli_str(a, "format");
    bool gauntlet = strcmp(format, "gauntlet") == 0;
    if (!gauntlet && strcmp(format, "round-robin") != 0) {
        fprintf(stderr, "dama tournament: --format '%s': must be round-robin or gauntlet\n", format);
        return 2;
    }
    int64_t rounds = cli_int(a, "rounds"), concurrency = cli_int(a, "concurrency"), max_plies = cli_int(a, "max-plies");
    if (rounds < 1 || rounds > 1000000 || concurrency < 0 || concurrency > 256 || max_plies < 1 ||
        cli_int(a, "hash") < 1 || cli_int(a, "hash") > 65536 || cli_int(a, "ratings-interval") < 0 ||
        cli_int(a, "resign-moves") < 0 || cli_int(a, "draw-moves") < 0 || cli_int(a, "resign-score") < 1 ||
        cli_int(a, "draw-score") < 0 || cli_int(a, "draw-after") < 0 || !(cli_real(a, "prior") >= 0)) {
        fprintf(stderr, "dama tournament: need --rounds >= 1, --concurrency 0..256, --max-plies >= 1, --hash 1..65536, "
                        "--resign-score >= 1 and the other counts >= 0\n");
        return 2;
    }
    if (concurrency == 0) concurrency = omp_get_num_procs();
    for (int i = 0; i < t.n; i++)
        for (int j = i + 1; j < t.n; j++) {
            if (gauntlet && i != 0) continue;
            t.pair_a[t.pairings] = i;
            t.pair_b[t.pairings] = j;
            t.pairings++;
        }
    t.rounds = (int)rounds;
    t.games_total = rounds * t.pairings * 2;
    uint64_t seed = (uint64_t)cli_int(a, "seed");

    /* identity of the tournament: the options that decide its games, and every engine */
    size_t cfg_size = 8192 + (size_t)t.n * (PLAYER_SPEC_MAX + 32);
    char *config = malloc(cfg_size);
    t.result = malloc((size_t)t.games_total);
    if (!config || !t.result) {
        fprintf(stderr, "dama tournament: out of memory\n");
        free(config);
        free(t.result);
        return 1;
    }
    memset(t.result, -1, (size_t)t.games_total);
    cli_config_text(a, NOT_IDENTITY, config, cfg_size);
    for (int i = 0; i < t.n; i++) {
        size_t len = strlen(config);
        snprintf(config + len, cfg_size - len, "engine = %s\n", a->positional[i]);
    }

    OpeningBook book = {0};
    Db *db = NULL;
    int64_t run_id = 0, tid = 0;
    const char **names = weight_names_new(g);
    int rc = names ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc == 0) rc = run_openings(g, a, seed, &book, err);
    if (rc == 0) rc = db_open(cli_str(a, "db"), true, &db, err);
    for (int i = 0; rc == 0 && i < t.n; i++) {
        if (t.specs[i].kind != PLAYER_DAMA) continue;
        t.weights[i] = eval_weights_new(g);
        if (!t.weights[i]) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
            break;
        }
        rc = weights_resolve_db(g, t.specs[i].spec, db, t.weights[i], NULL, err);
        if (rc != 0) {
            char e2[ERR_MAX];
            snprintf(e2, sizeof e2, "engine '%.40s': %.200s", t.specs[i].name, err);
            memcpy(err, e2, ERR_MAX);
        }
    }
    char status[DB_STATUS_MAX] = "";
    if (rc == 0) rc = db_run_find(db, "match", g->name, seed, config, &run_id, status, err);
    if (rc == 0 && run_id) rc = db_tournament_by_run(db, run_id, &tid, err);
    bool resumed = run_id && tid;
    if (rc == 0 && cli_flag(a, "resume") && !resumed) {
        snprintf(err, ERR_MAX, "--resume: no tournament of this configuration in %.200s", cli_str(a, "db"));
        rc = -1;
    }
    if (rc == 0 && !resumed) {
        rc = db_begin(db, err);
        if (rc == 0) rc = db_run_create(db, "match", g->name, seed, config, cli_str(a, "name"), &run_id, err);
        DbTournament dt = {.run_id = run_id, .name = cli_str(a, "name"), .format = gauntlet ? "gauntlet" : "round-robin",
                           .rounds = t.rounds, .games_total = t.games_total};
        if (rc == 0) rc = db_tournament_insert(db, &dt, &tid, err);
        for (int i = 0; rc == 0 && i < t.n; i++) {
            if (t.specs[i].kind == PLAYER_DAMA)
                rc = weights_store_base(db, g, t.specs[i].spec, t.weights[i], names, run_id, &t.ws_id[i], err);
            char limits[128];
            player_limits_text(&t.specs[i].limits, limits, sizeof limits);
            DbParticipant p = {.idx = i, .name = t.specs[i].name, .kind = t.specs[i].kind == PLAYER_DAMA ? "dama" : "hub",
                               .spec = t.specs[i].spec, .limits = limits, .weight_set = t.ws_id[i]};
            if (rc == 0) rc = db_participant_insert(db, tid, &p, &t.pid[i], err);
        }
        if (rc == 0) rc = db_commit(db, err);
        else db_rollback(db);
    }
    Loaded ld = {.t = &t, .run_id = run_id};
    if (rc == 0 && resumed) rc = db_participants_each(db, tid, fill_participant, &t, err);
    if (rc == 0 && resumed) rc = db_game_rows_each(db_path(db), DB_SELECT_RUN, run_id, NULL, load_result, &ld, err);
    if (rc == 0 && resumed) rc = db_run_finish(db, run_id, "running", err);
    if (rc != 0) {
        if (rc > 0) snprintf(err, ERR_MAX, "the stored participants of tournament %lld differ from these engines",
                             (long long)tid);
        fprintf(stderr, "dama tournament: %s\n", err);
        rc = 1;
        goto done;
    }
    for (int64_t gi = 0; gi < t.games_total; gi++) t.done_games += t.result[gi] >= 0;
    int64_t todo_len = 0;
    int64_t *todo = malloc(sizeof *todo * (size_t)(t.games_total ? t.games_total : 1));
    if (!todo) {
        fprintf(stderr, "dama tournament: out of memory\n");
        rc = 1;
        goto done;
    }
    for (int64_t gi = 0; gi < t.games_total; gi++)
        if (t.result[gi] < 0) todo[todo_len++] = gi;
    fprintf(stderr, "tournament %lld (run %lld) %s: %s, %d engines, %d rounds, %lld games (%lld %s), %lld concurrent\n",
            (long long)tid, (long long)run_id, g->name, gauntlet ? "gauntlet" : "round robin", t.n, t.rounds,
            (long long)t.games_total, (long long)(resumed ? t.done_games : 0), resumed ? "already played" : "stored",
            (long long)concurrency);

    StoreCtx sc = {.db = db, .pdn_path = cli_str(a, "pdn-out"), .tournament_id = tid};
    snprintf(sc.tournament_name, sizeof sc.tournament_name, "%s", cli_str(a, "name") ? cli_str(a, "name") : "");
    char aerr[ATOMIC_ERR_MAX];
    if (sc.pdn_path && atomic_file_not_db(sc.pdn_path, cli_str(a, "db"), aerr) != 0) { /* appending to it would corrupt it */
        fprintf(stderr, "dama tournament: --pdn-out: %s\n", aerr);
        free(todo);
        rc = 1;
        goto done;
    }
    if (sc.pdn_path && !(sc.pdn = fopen(sc.pdn_path, "a"))) {
        fprintf(stderr, "dama tournament: cannot write '%s'\n", sc.pdn_path);
        free(todo);
        rc = 1;
        goto done;
    }
    PlaySettings ps = {.max_plies = (int)max_plies,
                       .adj = {.resign_moves = (int)cli_int(a, "resign-moves"),
                               .resign_score = (int)cli_int(a, "resign-score"),
                               .draw_moves = (int)cli_int(a, "draw-moves"),
                               .draw_score = (int)cli_int(a, "draw-score"),
                               .draw_after = (int)cli_int(a, "draw-after")}};
    int64_t interval = cli_int(a, "ratings-interval");
    int64_t offset = (int64_t)(rng_derive(seed, 0x6f70656eULL) % (uint64_t)book.len);
    cli_install_stop_handler();
    bool failed = false;
    char fail_msg[ERR_MAX] = "";
    RunProgress prog;
    run_progress_init(&prog, "tournament", t.games_total, cli_real(a, "progress"));
    double t0 = run_now_s();
    int64_t played = 0, faults = 0;

#pragma omp parallel num_threads((int)concurrency)
    {
        Player *inst[ENGINES_MAX] = {0};
        PlayRecord rec;
        char werr[ERR_MAX];
        bool ok = play_record_init(&rec) == 0;
        if (!ok) {
#pragma omp critical(tournament)
            {
                failed = true;
                snprintf(fail_msg, sizeof fail_msg, "out of memory");
            }
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t ti = 0; ti < todo_len; ti++) {
            if (!ok || failed || cli_stop_requested) continue;
            int64_t gi = todo[ti];
            int w, b, r, k, c;
            game_players(&t, gi, &w, &b);
            game_slot(&t, gi, &r, &k, &c);
            for (int s2 = 0; s2 < 2 && ok; s2++) {
                int who = s2 ? b : w;
                if (!inst[who] && !(inst[who] = player_new(g, &t.specs[who], t.weights[who], &cli_stop_requested, werr)))
                    ok = false;
            }
            if (!ok) {
#pragma omp critical(tournament)
                {
                    failed = true;
                    snprintf(fail_msg, sizeof fail_msg, "%s", werr);
                }
                continue;
            }
            const Opening *op = &book.items[(offset + r) % book.len];
            Position start;
            g->pos_from_fen(&start, op->fen, werr);
            Player *pl[2] = {inst[w], inst[b]};
            int prc = play_game_players(g, pl, &start, &ps, &cli_stop_requested, &rec, werr);
            if (prc != 0) {
                if (prc < 0) {
#pragma omp critical(tournament)
                    {
                        failed = true;
                        snprintf(fail_msg, sizeof fail_msg, "%s", werr);
                    }
                }
                continue;
            }
#pragma omp critical(tournament)
            {
                if (!failed && store_game(&sc, &t, run_id, gi, op, &rec, seed, werr) != 0) {
                    failed = true;
                    snprintf(fail_msg, sizeof fail_msg, "%s", werr);
                }
                if (!failed) {
                    played++;
                    t.done_games++;
                    t.engine_seconds += rec.engine_seconds;
                    if (rec.fault != PLAYER_OK) {
                        faults++;
                        fprintf(stderr, "game %lld: %s loses by %s: %.300s\n", (long long)gi,
                                t.specs[rec.fault_side == COLOR_WHITE ? w : b].name, rec.reason, rec.detail);
                    }
                    run_progress_update(&prog, t.done_games, NULL, false);
                    if (interval > 0 && t.done_games % interval == 0) print_ratings(stderr, &t, a);
                }
            }
        }
        for (int i = 0; i < t.n; i++) player_free(inst[i]);
        if (ok) play_record_free(&rec);
    }
    double wall = run_now_s() - t0;
    free(todo);
    if (sc.pdn) fclose(sc.pdn);
    bool complete = t.done_games == t.games_total;
    char ferr[ERR_MAX];
    if (db_run_finish(db, run_id, complete ? "done" : "interrupted", ferr) != 0 && !failed) {
        failed = true;
        snprintf(fail_msg, sizeof fail_msg, "%s", ferr);
    }
    printf("tournament %lld (run %lld): %lld of %lld games", (long long)tid, (long long)run_id,
           (long long)t.done_games, (long long)t.games_total);
    if (played > 0)
        printf("; this session %lld games in %.1f s (%.2f games/s), %.1f%% of the game slots' time outside the "
               "engines, %lld lost by an engine fault",
               (long long)played, wall, (double)played / wall,
               100.0 * (1.0 - t.engine_seconds / (wall * (double)(concurrency < todo_len ? concurrency : todo_len))),
               (long long)faults);
    printf("\n");
    print_results(stdout, &t);
    print_ratings(stdout, &t, a);
    if (!complete && !failed) printf("interrupted: run the same command again to continue\n");
    if (failed) fprintf(stderr, "dama tournament: %s\n", fail_msg);
    rc = failed ? 1 : complete ? 0 : 3;
done:
    for (int i = 0; i < t.n; i++) free(t.weights[i]);
    free((void *)names);
    db_close(db);
    openings_free(&book);
    free(config);
    free(t.result);
    return rc;
}

const CliCommand cmd_tournament = {
    "tournament",
    "round robin or gauntlet of dama and Hub engines: clocks, adjudication, crosstable, ratings, resume",
    "[options] ENGINE ENGINE... (ENGINE: name=A,weights=W,nodes=N | name=B,cmd=COMMAND, with limits nodes= "
    "depth= movetime= time=MS+INC timeout=MS, hash=MiB, param.NAME=VALUE; cmd= last)",
    OPTS, run, ENGINES_MAX,
};
