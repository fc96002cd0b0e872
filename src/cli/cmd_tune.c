/* cmd_tune.c — `dama tune`: Texel tuning of the evaluation weights from the
 * stored self-play positions (logistic regression of the game result on the
 * static evaluation of quiet positions; K fitted first; Adam with L2 and a
 * held-out validation set). The new weight set is stored with its lineage,
 * K and losses per epoch. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/egtb_opts.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/eval.h"
#include "tune/texel.h"
#include "tune/weights_file.h"
#include "util/atomic_file.h"
#include "util/num.h"

enum { TUNE_NAME_MAX = 200 }; /* bytes of a weight set name given with --name */

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"db", OPT_DB, "dama.sqlite", "SQLite database file", 0, 0},
    {"weights", OPT_STR, "default", "starting weights: 'default' (compiled in), a weight file, db:ID or 'tuned'", 0, 0},
    {"runs", OPT_STR, NULL, "only positions of these self-play runs (comma-separated ids; default: all)", 0, 0},
    {"filter", OPT_STR, NULL, "extra SQL condition on positions p / games g (e.g. \"p.ply >= 8\")", 0, 0},
    {"all-positions", OPT_FLAG, NULL, "use positions with a capture pending too (default: only positions where neither side can capture)", 0, 0},
    {"valid", OPT_REAL, "0.1", "fraction of games held out for validation", 0.001, 0.5},
    {"epochs", OPT_INT, "400", "most epochs", 0, 1000000},
    {"lr", OPT_REAL, "2", "Adam learning rate (centi-men per step)", 1e-6, 1000},
    {"lambda", OPT_REAL, "1e-7", "L2 regularisation toward the starting weights", 0, 1e6},
    {"batch", OPT_INT, "0", "mini-batch size (0: full batch)", 0, 1000000000},
    {"patience", OPT_INT, "30", "stop after this many epochs without a better validation loss", 1, 1000000},
    {"k", OPT_REAL, "0", "sigmoid scale K (0: fit it first)", 0, 100},
    {"score-weight", OPT_REAL, "0", "target = (1-w) * result + w * expected score of the stored search score", 0, 1},
    {"threads", OPT_INT, "0", "threads (0: all cores); results do not depend on it", 0, 256},
    {"seed", OPT_INT, "1", "seed of the split and mini-batch order", 0, CLI_INT_MAX},
    {"out", OPT_STR, NULL, "also write the tuned weights to this weight file", 0, 0},
    {"force", OPT_FLAG, NULL, "let --out replace an existing file (never the database itself)", 0, 0},
    {"name", OPT_STR, NULL, "name of the new weight set (at most 200 bytes, stored whole)", 0, 0},
    {"verbose", OPT_FLAG, NULL, "print every epoch (default: every 25th and the last)", 0, 0},
    CLI_EGTB_OPTS,
    {"egtb-mode", OPT_STR, "target", "with --egtb, positions the database holds: 'target' (its exact result replaces the game's) or 'skip' (left out)", 0, 0},
    {0},
};

/* What a stored game is, as a 64-bit key: FNV-1a of its game, start
 * position, movetext and result (NUL-separated). Games with the same key
 * are the same game, so ordering and splitting by it do not depend on the
 * order the games were stored in (games.id). */
typedef struct GameKey {
    int64_t id;   /* games.id */
    uint64_t key;
} GameKey;

typedef struct GameKeys {
    GameKey *items; /* ascending id (db_games_each reads in id order) */
    size_t len, cap;
} GameKeys;

static uint64_t fnv1a(uint64_t h, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    do {
        h ^= *p;
        h *= 1099511628211ULL;
    } while (*p++);
    return h;
}

static int on_game(void *ctx, int64_t game_id, const DbGame *g)
{
    GameKeys *k = ctx;
    if (k->len == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 4096;
        GameKey *items = realloc(k->items, cap * sizeof *items);
        if (!items) return 1;
        k->items = items;
        k->cap = cap;
    }
    uint64_t h = 14695981039346656037ULL;
    h = fnv1a(h, g->game);
    h = fnv1a(h, g->start_fen);
    h = fnv1a(h, g->movetext);
    h = fnv1a(h, g->result);
    k->items[k->len++] = (GameKey){game_id, h};
    return 0;
}

static const GameKey *game_key_find(const GameKeys *k, int64_t id)
{
    size_t lo = 0, hi = k->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->items[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < k->len && k->items[lo].id == id ? &k->items[lo] : NULL;
}

/* A loaded position's place in the canonical order: by game key, then ply,
 * then search score. Positions equal in all three are the same position of
 * the same game with the same target, so their relative order is moot. */
typedef struct PosOrder {
    uint64_t key;
    int32_t ply, score;
    uint32_t index;
} PosOrder;

static int pos_order_cmp(const void *pa, const void *pb)
{
    const PosOrder *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    if (a->ply != b->ply) return a->ply < b->ply ? -1 : 1;
    if (a->score != b->score) return a->score < b->score ? -1 : 1;
    return 0;
}

typedef struct LoadCtx {
    const Game *game;
    const int32_t *weights;
    bool quiet_only; /* skip positions with a capture pending for either side */
    int64_t skipped;
    TexelData *data;
    const GameKeys *games;
    uint64_t *keys;  /* the game's key (GameKey) */
    int32_t *plies;
    int32_t *scores; /* search score, White's view; INT32_MIN if none */
    size_t keys_cap, len;
    int64_t bad_fen;
    bool interrupted; /* a signal came while loading */
    EgtbProber *egtb;  /* NULL: no database */
    bool egtb_skip;    /* leave database positions out instead of correcting their target */
    int64_t egtb_known, egtb_changed;
    char err[ERR_MAX];
} LoadCtx;

static int on_position(void *ctx, const DbPosition *p)
{
    LoadCtx *c = ctx;
    if (cli_stop_requested) {
        snprintf(c->err, ERR_MAX, "interrupted while loading positions; nothing stored");
        c->interrupted = true;
        return 1;
    }
    Position pos;
    char perr[ERR_MAX];
    if (c->game->pos_from_fen(&pos, p->fen, perr) != 0) {
        snprintf(c->err, ERR_MAX, "position %lld: %.200s", (long long)p->id, perr);
        return 1;
    }
    if (c->quiet_only && !c->game->is_quiet(&pos)) {
        c->skipped++;
        return 0;
    }
    EvalTrace trace;
    int32_t traced = c->game->evaluate_trace(&pos, c->weights, &trace);
    int32_t engine = c->game->evaluate(&pos, c->weights);
    if (trace.len < 0) {
        snprintf(c->err, ERR_MAX, "position %lld (%.120s): trace overflow", (long long)p->id, p->fen);
        return 1;
    }
    if (traced != engine) {
        snprintf(c->err, ERR_MAX, "position %lld (%.120s): traced evaluation %d != engine evaluation %d",
                 (long long)p->id, p->fen, traced, engine);
        return 1;
    }
    int half = p->result >= 0.75 ? 2 : p->result <= 0.25 ? 0 : 1;
    uint8_t ev;
    if (c->egtb && egtb_material_pieces(egtb_db_indexer(c->egtb->db)->material(&pos)) <=
                       (c->egtb->max_pieces ? c->egtb->max_pieces : EGTB_PIECES_MAX) &&
        egtb_probe(c->egtb->db, c->egtb->cache, &pos, &ev)) {
        /* The theoretical result: a stored position has lost its counters. */
        c->egtb_known++;
        if (c->egtb_skip) return 0;
        bool white = c->game->side_to_move(&pos) == COLOR_WHITE;
        int exact = egtb_is_draw(ev) ? 1 : egtb_is_win(ev) == white ? 2 : 0;
        if (exact != half) c->egtb_changed++;
        half = exact;
    }
    char terr[TEXEL_ERR_MAX];
    if (texel_data_append(c->data, &trace, half, engine, terr) != 0) {
        snprintf(c->err, ERR_MAX, "position %lld: %.200s", (long long)p->id, terr);
        return 1;
    }
    if (c->len == c->keys_cap) {
        c->keys_cap = c->keys_cap ? c->keys_cap * 2 : 65536;
        uint64_t *k = realloc(c->keys, c->keys_cap * sizeof *k);
        if (k) c->keys = k;
        int32_t *s = realloc(c->scores, c->keys_cap * sizeof *s);
        if (s) c->scores = s;
        int32_t *pl = realloc(c->plies, c->keys_cap * sizeof *pl);
        if (pl) c->plies = pl;
        if (!k || !s || !pl) {
            snprintf(c->err, ERR_MAX, "out of memory");
            return 1;
        }
    }
    const GameKey *gk = game_key_find(c->games, p->game_id);
    if (!gk) {
        snprintf(c->err, ERR_MAX, "position %lld: its game %lld was not read", (long long)p->id, (long long)p->game_id);
        return 1;
    }
    c->scores[c->len] = p->has_score ? p->score : INT32_MIN;
    c->plies[c->len] = p->ply;
    c->keys[c->len++] = gk->key; /* split by game: positions of one game stay together */
    return 0;
}

typedef struct EpochCtx {
    Db *db;
    int64_t tuning_id;
    bool verbose;
    int last_printed;
    char err[ERR_MAX];
    int failed;
    int stopped; /* epoch after which a signal stopped the run, or -1 */
} EpochCtx;

static int on_epoch(void *ctx, const TexelEpoch *e)
{
    EpochCtx *c = ctx;
    if (db_tuning_epoch_insert(c->db, c->tuning_id, e->epoch, e->train_loss, e->valid_loss, c->err) != 0) {
        c->failed = 1;
        return 1;
    }
    if (cli_stop_requested) c->stopped = e->epoch; /* the first signal: stop after this epoch */
    if (c->verbose || e->epoch % 25 == 0 || cli_stop_requested) {
        fprintf(stderr, "epoch %4d: train %.6f  valid %.6f%s\n", e->epoch, e->train_loss, e->valid_loss,
                e->best ? "  *" : "");
        c->last_printed = e->epoch;
    }
    return cli_stop_requested ? 1 : 0;
}

/* "3" or "1,2,5": run ids separated by single commas. */
static bool valid_id_list(const char *s)
{
    bool digit = false;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9') digit = true;
        else if (*s == ',' && digit) digit = false;
        else return false;
    }
    return digit;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    int threads = (int)cli_int(a, "threads");
    if (threads <= 0) threads = omp_get_num_procs();
    double valid = cli_real(a, "valid");
    double lr = cli_real(a, "lr"), lambda = cli_real(a, "lambda"), k = cli_real(a, "k");
    if (!(valid > 0 && valid <= 0.5) || cli_int(a, "epochs") < 0 || cli_int(a, "batch") < 0 || !(lr > 0 && lr <= 1000) ||
        !(lambda >= 0 && lambda <= 1e6) || !(k >= 0 && k <= 100) || threads > 256 || cli_int(a, "patience") < 1 ||
        !(cli_real(a, "score-weight") >= 0 && cli_real(a, "score-weight") <= 1)) {
        fprintf(stderr, "dama tune: need --valid in (0, 0.5], --epochs and --batch >= 0, --lr in (0, 1000], "
                        "--lambda in [0, 1e6], --k in [0, 100] (0: fit), --threads <= 256, --patience >= 1, "
                        "--score-weight in [0, 1]\n");
        return 2;
    }
    /* --name is stored whole or refused (never cut inside a character). */
    const char *wname = cli_str(a, "name");
    if (wname && (strlen(wname) > TUNE_NAME_MAX || !*wname || strpbrk(wname, "\n\r\t"))) {
        fprintf(stderr, "dama tune: --name: %s (at most %d bytes, no tab or line break)\n",
                !*wname ? "an empty name" : strlen(wname) > TUNE_NAME_MAX ? "too long" : "a control character",
                TUNE_NAME_MAX);
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
    if (runs && !valid_id_list(runs)) {
        fprintf(stderr, "dama tune: --runs takes comma-separated run ids, not '%s'\n", runs);
        return 2;
    }
    Db *db = NULL;
    EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
    EVAL_AUTO_FREE int32_t *tuned = eval_weights_new(g);
    EVAL_AUTO_FREE uint8_t *frozen = calloc((size_t)g->weights_len, 1);
    const char **names = weight_names_new(g);
    TexelData *data = texel_data_new_tapered(g->weights_len, g->eg_offset, g->phase_max);
    LoadCtx lc = {.game = g, .weights = start, .data = data, .quiet_only = !cli_flag(a, "all-positions")};
    int rc = names && data && start && tuned && frozen ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    /* SIGINT/SIGTERM: the first stops after the current epoch with the best
     * weights so far stored and the run marked interrupted; a second one
     * ends the process at once (cli_install_stop_handler). */
    cli_install_stop_handler();
    const char *emode = cli_str(a, "egtb-mode");
    if (strcmp(emode, "target") != 0 && strcmp(emode, "skip") != 0) {
        fprintf(stderr, "dama tune: --egtb-mode must be target or skip, not '%s'\n", emode);
        return 2;
    }
    lc.egtb_skip = strcmp(emode, "skip") == 0;
    Egtb *edb; /* closed at exit */
    if (cli_egtb_open(a, g, "tune", &edb) != 0) return 1;
    if (edb && !(lc.egtb = egtb_prober_new(edb, (int)cli_int(a, "egtb-pieces"), 1024))) {
        fprintf(stderr, "dama tune: out of memory\n");
        return 1;
    }
    if (rc == 0) rc = db_open(cli_str(a, "db"), false, &db, err);
    if (rc == 0) rc = weights_resolve_db(g, cli_str(a, "weights"), db, start, NULL, err);
    /* Every run named by --runs exists and is a self-play run of this game
     * (else "only 0 positions match" would hide a typo). */
    for (const char *r = runs; rc == 0 && r && *r;) {
        int64_t id = 0;
        const char *at = r;
        bool in_range = num_scan_digits(&r, 1, INT64_MAX, &id) == NUM_OK; /* valid_id_list checked the syntax */
        int len = (int)(r - at);
        if (*r == ',') r++;
        DbRun run;
        if (!in_range || db_run_get(db, id, &run, err) != 0) {
            snprintf(err, ERR_MAX, "--runs: run %.*s does not exist in %.150s", len < 24 ? len : 24, at,
                     cli_str(a, "db"));
            rc = -1;
            break;
        }
        if (strcmp(run.kind ? run.kind : "", "selfplay") != 0 || strcmp(run.game ? run.game : "", g->name) != 0) {
            snprintf(err, ERR_MAX, "--runs: run %lld is a %.20s %.20s run, not a %s self-play run", (long long)id,
                     run.game ? run.game : "?", run.kind ? run.kind : "?", g->name);
            rc = -1;
        }
        db_run_clear(&run);
    }

    /* Load positions (traced once; the tuner never calls the engine again). */
    char filter[2048];
    size_t n = (size_t)snprintf(filter, sizeof filter, "g.run_id IN (SELECT id FROM runs WHERE kind = 'selfplay')");
    if (!cli_flag(a, "all-positions")) n += (size_t)snprintf(filter + n, sizeof filter - n, " AND p.quiet = 1");
    if (runs) n += (size_t)snprintf(filter + n, sizeof filter - n, " AND g.run_id IN (%s)", runs);
    if (cli_str(a, "filter")) snprintf(filter + n, sizeof filter - n, " AND (%s)", cli_str(a, "filter"));
    double t0 = run_now_s();
    GameKeys gkeys = {0};
    lc.games = &gkeys;
    if (rc == 0) {
        char gfilter[1024];
        snprintf(gfilter, sizeof gfilter, "g.game = '%s' AND g.run_id IN (SELECT id FROM runs WHERE kind = 'selfplay')%s%s%s",
                 g->name, runs ? " AND g.run_id IN (" : "", runs ? runs : "", runs ? ")" : "");
        rc = db_games_each(db, gfilter, on_game, &gkeys, err);
        if (rc > 0) {
            snprintf(err, ERR_MAX, "out of memory for the game keys");
            rc = -1;
        }
    }
    if (rc == 0) {
        rc = db_positions_each(db, g->name, filter, on_position, &lc, err);
        if (rc > 0) {
            snprintf(err, ERR_MAX, "%s", lc.err);
            rc = -1;
        }
    }
    if (rc == 0 && lc.len < 100) {
        snprintf(err, ERR_MAX, "only %zu positions match in %.150s: run dama selfplay first", lc.len, cli_str(a, "db"));
        rc = -1;
    }
    /* The canonical order (what the positions are, not their ids): the
     * sums, the split and the mini-batch order then depend only on which
     * games are stored. */
    char terr[TEXEL_ERR_MAX] = "";
    if (rc == 0) {
        PosOrder *po = malloc(lc.len * sizeof *po);
        uint32_t *order = malloc(lc.len * sizeof *order);
        uint64_t *keys = malloc(lc.len * sizeof *keys);
        int32_t *scores = malloc(lc.len * sizeof *scores);
        if (!po || !order || !keys || !scores) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
        }
        for (size_t i = 0; rc == 0 && i < lc.len; i++)
            po[i] = (PosOrder){lc.keys[i], lc.plies[i], lc.scores[i], (uint32_t)i};
        if (rc == 0) qsort(po, lc.len, sizeof *po, pos_order_cmp);
        for (size_t i = 0; rc == 0 && i < lc.len; i++) {
            order[i] = po[i].index;
            keys[i] = lc.keys[po[i].index];
            scores[i] = lc.scores[po[i].index];
        }
        if (rc == 0 && texel_data_reorder(data, order, terr) != 0) {
            snprintf(err, ERR_MAX, "%.200s", terr);
            rc = -1;
        }
        if (rc == 0) {
            free(lc.keys);
            free(lc.scores);
            lc.keys = keys;
            lc.scores = scores;
            keys = NULL;
            scores = NULL;
        }
        free(po);
        free(order);
        free(keys);
        free(scores);
    }
    free(lc.plies);
    lc.plies = NULL;
    free(gkeys.items);
    size_t bad = 0;
    if (rc == 0 && texel_data_check(data, start, 0, &bad, terr) != 0) {
        snprintf(err, ERR_MAX, "trace check failed: %.200s", terr);
        rc = -1;
    }
    if (rc != 0) {
        fprintf(stderr, "dama tune: %s\n", err);
        texel_data_free(data);
        free(lc.keys);
        free(lc.scores);
        free((void *)names);
        db_close(db);
        return lc.interrupted ? 3 : 1;
    }
    texel_data_shrink(data);
    fprintf(stderr, "tune %s: %zu positions loaded and checked in %.1f s (%.1f bytes/position; %lld skipped: a capture pending), %d threads\n",
            g->name, lc.len, run_now_s() - t0, texel_data_bytes_per_position(data), (long long)lc.skipped, threads);
    if (lc.egtb)
        fprintf(stderr, "egtb: %lld positions in the database, %s (%lld had another game result)\n",
                (long long)lc.egtb_known, lc.egtb_skip ? "left out" : "exact result as target",
                (long long)lc.egtb_changed);
    egtb_prober_free(lc.egtb);
    lc.egtb = NULL;
    egtb_close(edb);

    TexelSplit split;
    rc = texel_split_make(&split, lc.len, lc.keys, valid, (uint64_t)cli_int(a, "seed"), terr);
    free(lc.keys);
    /* Blended targets: K is fitted on the game results first, then each
     * target mixes the result with the expected score of the search score,
     * 1 / (1 + 10^(-K score / 400)), scores of won games clamped. */
    double score_weight = cli_real(a, "score-weight");
    if (rc == 0 && score_weight > 0) {
        double kfit = k, kloss;
        if (kfit <= 0)
            rc = texel_fit_k(data, split.train, split.train_len, start, 0.01, 10, threads, &kfit, &kloss, terr);
        for (size_t i = 0; rc == 0 && i < lc.len; i++) {
            if (lc.scores[i] == INT32_MIN) continue;
            double s = lc.scores[i] > 3000 ? 3000 : lc.scores[i] < -3000 ? -3000 : lc.scores[i];
            double expected = 1.0 / (1.0 + pow(10.0, -kfit * s / 400.0));
            double target = (1 - score_weight) * texel_data_target(data, i) + score_weight * expected;
            texel_data_set_target(data, i, target);
        }
        k = kfit;
        if (rc == 0)
            fprintf(stderr, "targets: %.2f x result + %.2f x expected score of the search score (K %.4f)\n",
                    1 - score_weight, score_weight, kfit);
    }
    free(lc.scores);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.k = k;
    cfg.epochs = (int)cli_int(a, "epochs");
    cfg.lr = cli_real(a, "lr");
    cfg.lambda = cli_real(a, "lambda");
    cfg.batch_size = (size_t)cli_int(a, "batch");
    cfg.patience = (int)cli_int(a, "patience");
    cfg.threads = threads;
    cfg.seed = (uint64_t)cli_int(a, "seed");
    cfg.anchor = TEXEL_L2_START;

    /* The run, the base weight set and the tuning run row come first, so
     * every epoch's losses can be stored as they come. */
    int64_t run_id = 0, base_id = 0, tuning_id = 0, result_id = 0;
    char config[4096];
    cli_config_text(a, NULL, config, sizeof config);
    DbTuning t = {.game = g->name, .k = 0.0 / 0.0, .train_loss = 0.0 / 0.0, .valid_loss = 0.0 / 0.0,
                  .positions_train = (int64_t)split.train_len, .positions_valid = (int64_t)split.valid_len,
                  .data = filter};
    if (rc == 0) rc = db_begin(db, err);
    if (rc == 0) rc = db_run_create(db, "tune", g->name, cfg.seed, config, NULL, &run_id, err);
    if (rc == 0) rc = weights_store_base(db, g, cli_str(a, "weights"), start, names, run_id, &base_id, err);
    t.run_id = run_id;
    t.base_ws = base_id;
    if (rc == 0) rc = db_tuning_insert(db, &t, &tuning_id, err);
    if (rc == 0) rc = db_commit(db, err);
    else db_rollback(db);
    if (rc != 0) {
        fprintf(stderr, "dama tune: %s%s\n", err, terr[0] ? terr : "");
        texel_split_free(&split);
        texel_data_free(data);
        free((void *)names);
        db_close(db);
        return 1;
    }
    EpochCtx ec = {.db = db, .tuning_id = tuning_id, .verbose = cli_flag(a, "verbose"), .stopped = -1};
    cfg.progress = on_epoch;
    cfg.progress_ctx = &ec;
    /* The game's scale weight (a man, a shatra = 100) fixes the scale of
     * the evaluation and stays frozen. */
    frozen[g->scale_weight] = 1;
    TexelResult res;
    t0 = run_now_s();
    rc = texel_tune(data, &split, &cfg, start, frozen, tuned, &res, terr);
    double dt = run_now_s() - t0;
    if (ec.failed) rc = -1;
    bool interrupted = rc == 0 && ec.stopped >= 0 && res.stop == TEXEL_STOP_CALLER;
    if (interrupted)
        fprintf(stderr, "dama tune: interrupted after epoch %d; storing the best weights so far (epoch %d)\n",
                ec.stopped, res.best_epoch);
    if (rc != 0) {
        fprintf(stderr, "dama tune: %s\n", ec.failed ? ec.err : terr);
        db_run_finish(db, run_id, "interrupted", err);
    } else if (cli_str(a, "out")) {
        /* The weight file first: if it cannot be written nothing is stored. */
        char comment[256];
        snprintf(comment, sizeof comment, "tuning run %lld from weight set %lld, K %.4f, valid loss %.6f%s",
                 (long long)tuning_id, (long long)base_id, res.k, res.valid_loss,
                 interrupted ? " (interrupted: best epoch so far)" : "");
        rc = weights_file_write(g, tuned, comment, cli_str(a, "out"), &out_opts, err);
        if (rc != 0) {
            fprintf(stderr, "dama tune: %s\n", err);
            db_run_finish(db, run_id, "interrupted", err);
        }
    }
    if (rc == 0 && !ec.failed) {
        char how[200], name[TUNE_NAME_MAX + 1];
        snprintf(how, sizeof how, "tuned by tuning run %lld from weight set %lld (K %.4f, valid loss %.6f%s)",
                 (long long)tuning_id, (long long)base_id, res.k, res.valid_loss,
                 interrupted ? ", interrupted" : "");
        snprintf(name, sizeof name, "%s", cli_str(a, "name") ? cli_str(a, "name") : ""); /* checked: fits whole */
        if (!name[0]) snprintf(name, sizeof name, "tuned-%lld", (long long)tuning_id);
        t.result_ws = 0;
        t.k = res.k;
        t.train_loss = res.train_loss;
        t.valid_loss = res.valid_loss;
        rc = db_begin(db, err);
        if (rc == 0) rc = db_weights_insert(db, g->name, name, base_id, how, run_id, names, tuned, g->weights_len,
                                            &result_id, err);
        t.result_ws = result_id;
        if (rc == 0) rc = db_tuning_update(db, tuning_id, &t, err);
        if (rc == 0) rc = db_run_finish(db, run_id, interrupted ? "interrupted" : "done", err);
        if (rc == 0) rc = db_commit(db, err);
        else db_rollback(db);
        if (rc != 0) fprintf(stderr, "dama tune: %s\n", err);
    }
    if (rc == 0) {
        printf("tuning run %lld: K %.4f; loss train %.6f -> %.6f, valid %.6f -> %.6f (best epoch %d of %d); "
               "%.2f s, %.2f M positions/s per epoch pass\n",
               (long long)tuning_id, res.k, res.train_loss_start, res.train_loss, res.valid_loss_start,
               res.valid_loss, res.best_epoch, res.epochs, dt,
               dt > 0 ? (double)res.epochs * (double)lc.len / dt / 1e6 : 0.0);
        printf("weight set %lld stored (parent %lld)%s\n", (long long)result_id, (long long)base_id,
               interrupted ? "; run interrupted" : "");
        for (int i = 0; i < g->terms_len; i++) {
            const EvalTerm *term = &g->terms[i];
            if (term->count != 1) continue;
            printf("  %-18s %6d -> %6d\n", term->name, start[term->offset], tuned[term->offset]);
        }
        if (cli_str(a, "out")) printf("wrote %s\n", cli_str(a, "out"));
    }
    texel_split_free(&split);
    texel_data_free(data);
    free((void *)names);
    db_close(db);
    return rc != 0 ? 1 : interrupted ? 3 : 0;
}

const CliCommand cmd_tune = {
    "tune", "Texel-tune the evaluation weights from stored self-play positions",
    "[--game G] [--db FILE] [--weights W] [--runs IDS] [--epochs N]", OPTS, run, 0,
};
