/* tune_job.c — the tuning pipeline of tune_job.h: positions from the
 * database, canonical order, split, K, Adam (tune/texel.c), storage. */
#include "tuner/tune_job.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "engine/egtb/egtb.h"
#include "engine/eval.h"
#include "engine/resolve.h"
#include "db/weight_sets.h"
#include "engine/weights_file.h"
#include "engine/weights_id.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/num.h"
#include "util/rng.h"

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

/* FNV-1a of s with its NUL (NULL as ""), from state h. */
static uint64_t fnv_str(uint64_t h, const char *s)
{
    if (!s) s = "";
    return weights_fnv1a(h, s, strlen(s) + 1);
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
    uint64_t h = WEIGHTS_FNV_BASIS;
    h = fnv_str(h, g->game);
    h = fnv_str(h, g->start_fen);
    h = fnv_str(h, g->movetext);
    h = fnv_str(h, g->result);
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
    uint64_t *pkeys; /* the position's key (game->hash_full), after resolving */
    int32_t *plies;
    int32_t *scores; /* search score, White's view; INT32_MIN if none */
    size_t keys_cap, len;
    int64_t bad_fen;
    bool interrupted; /* *stop was raised while loading */
    bool too_few;     /* fewer than TUNE_JOB_MIN_POSITIONS matched */
    volatile int *stop;
    EgtbProber *egtb;  /* NULL: no database */
    bool egtb_skip;    /* leave database positions out instead of correcting their target */
    int64_t egtb_known, egtb_changed;
    Resolver *resolver; /* NULL: positions with a capture pending are skipped (quiet_only) */
    int64_t resolved;
    char err[ERR_MAX];
} LoadCtx;

static int on_position(void *ctx, const DbPosition *p)
{
    LoadCtx *c = ctx;
    if (c->stop && *c->stop) {
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
        /* Resolving: the leaf of the capture line a quiescence search
         * plays (engine/resolve.h), if it is quiet, stands for the stored
         * position with the game's result. */
        Position leaf;
        if (!c->resolver || resolver_run(c->resolver, &pos, c->weights, &leaf, NULL) < 0 ||
            !c->game->is_quiet(&leaf)) {
            c->skipped++;
            return 0;
        }
        pos = leaf;
        c->resolved++;
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
        uint64_t *pk = realloc(c->pkeys, c->keys_cap * sizeof *pk);
        if (pk) c->pkeys = pk;
        if (!k || !s || !pl || !pk) {
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
    c->pkeys[c->len] = c->game->hash_full(&pos);
    c->keys[c->len++] = gk->key; /* split by game: positions of one game stay together */
    return 0;
}

typedef struct EpochCtx {
    Db *db;
    int64_t tuning_id;
    bool verbose;
    FILE *log;
    volatile int *stop;
    int last_printed;
    char err[ERR_MAX];
    int failed;
    int stopped; /* epoch after which a signal stopped the run, or -1 */
} EpochCtx;

const char *tune_loss_text(double loss, int digits, char out[TUNE_LOSS_TEXT_MAX])
{
    if (isnan(loss)) snprintf(out, TUNE_LOSS_TEXT_MAX, "-");
    else snprintf(out, TUNE_LOSS_TEXT_MAX, "%.*f", digits, loss);
    return out;
}

static int on_epoch(void *ctx, const TexelEpoch *e)
{
    EpochCtx *c = ctx;
    if (c->db && db_tuning_epoch_insert(c->db, c->tuning_id, e->epoch, e->train_loss, e->valid_loss, c->err) != 0) {
        c->failed = 1;
        return 1;
    }
    bool stop = c->stop && *c->stop;
    if (stop) c->stopped = e->epoch; /* the first signal: stop after this epoch */
    if (c->log && (c->verbose || e->epoch % 25 == 0 || stop)) {
        char vl[TUNE_LOSS_TEXT_MAX];
        fprintf(c->log, "epoch %4d: train %.6f  valid %s%s\n", e->epoch, e->train_loss,
                tune_loss_text(e->valid_loss, 6, vl), e->best ? "  *" : "");
        c->last_printed = e->epoch;
    }
    return stop ? 1 : 0;
}

/* ----------------------------------------------------------------- shards */

/* A growing byte buffer; oom once an append failed (the rest are dropped). */
typedef struct Bytes {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} Bytes;

static void bytes_put(Bytes *b, const void *src, size_t n)
{
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        uint8_t *np = realloc(b->p, cap);
        if (!np) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void bytes_u64(Bytes *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++) x[i] = (uint8_t)(v >> 8 * i);
    bytes_put(b, x, 8);
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << 8 * i;
    return v;
}

enum { BYTES_PER_DOUBLE = 6 }; /* an integer below 2^48: exact, never a NaN pattern */

/* Every rank's mine[0..size) on every rank, in rank order, through the
 * reducer's gather of doubles (a count, then 6 bytes a double): *all
 * (malloc'd) holds them, rank r's at off[r] .. off[r + 1] (off has ranks
 * + 1 entries, malloc'd). Collective. Returns 0, or -1 with err. */
static int gather_bytes(const TexelReducer *red, const uint8_t *mine, size_t size, uint8_t **all, size_t **off,
                        char err[ERR_MAX])
{
    *all = NULL;
    *off = NULL;
    const size_t words = (size + BYTES_PER_DOUBLE - 1) / BYTES_PER_DOUBLE;
    double *out = malloc((1 + words) * sizeof *out);
    char terr[TEXEL_ERR_MAX] = "";
    double *got = NULL;
    size_t got_len = 0;
    int rc = 0;
    if (!out) { /* send nothing: every rank then finds this rank's part missing */
        rc = red->gather(red->ctx, NULL, 0, &got, &got_len, terr);
    } else {
        out[0] = (double)size;
        for (size_t w = 0; w < words; w++) {
            uint64_t v = 0;
            for (size_t k = 0; k < BYTES_PER_DOUBLE && w * BYTES_PER_DOUBLE + k < size; k++)
                v |= (uint64_t)mine[w * BYTES_PER_DOUBLE + k] << 8 * k;
            out[1 + w] = (double)v;
        }
        rc = red->gather(red->ctx, out, 1 + words, &got, &got_len, terr);
    }
    free(out);
    if (rc != 0) {
        free(got);
        snprintf(err, ERR_MAX, "gathering the positions: %.200s", terr);
        return -1;
    }
    size_t total = 0;
    for (size_t p = 0; p < got_len;) { /* the bytes in all, and a sanity check of the layout */
        const size_t n = (size_t)got[p];
        total += n;
        p += 1 + (n + BYTES_PER_DOUBLE - 1) / BYTES_PER_DOUBLE;
        if (p > got_len) total = SIZE_MAX;
        if (total == SIZE_MAX) break;
    }
    size_t *o = calloc((size_t)red->ranks + 1, sizeof *o);
    uint8_t *bytes = total != SIZE_MAX ? malloc(total ? total : 1) : NULL;
    if (!o || !bytes) {
        free(got), free(o), free(bytes);
        snprintf(err, ERR_MAX, total == SIZE_MAX ? "gathering the positions: a rank's part is malformed"
                                                 : "out of memory gathering the positions");
        return -1;
    }
    size_t at = 0, p = 0;
    int r = 0;
    for (; p < got_len && r < red->ranks; r++) {
        const size_t n = (size_t)got[p++];
        o[r] = at;
        for (size_t k = 0; k < n; k++) {
            const uint64_t v = (uint64_t)got[p + k / BYTES_PER_DOUBLE];
            bytes[at++] = (uint8_t)(v >> 8 * (k % BYTES_PER_DOUBLE));
        }
        p += (n + BYTES_PER_DOUBLE - 1) / BYTES_PER_DOUBLE;
    }
    free(got);
    if (r != red->ranks || p != got_len) {
        free(o), free(bytes);
        snprintf(err, ERR_MAX, "gathering the positions: %d of %d ranks sent their part", r, red->ranks);
        return -1;
    }
    o[r] = at;
    *all = bytes;
    *off = o;
    return 0;
}

/* Did any rank fail (status != 0)? One flag a rank through the gather; a
 * gather failure counts as failing. Collective. */
static bool any_rank_failed(const TexelReducer *red, bool mine)
{
    const double flag = mine ? 1.0 : 0.0;
    double *all = NULL;
    size_t len = 0;
    char terr[TEXEL_ERR_MAX];
    bool any = red->gather(red->ctx, &flag, 1, &all, &len, terr) != 0;
    for (size_t i = 0; i < len; i++) any = any || all[i] != 0;
    free(all);
    return any;
}

/* "3" or "1,2,5": run ids separated by single commas. */
int tune_job_threads(int threads) { return threads > 0 ? threads : omp_get_num_procs(); }

bool tune_job_valid_runs(const char *s)
{
    bool digit = false;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9') digit = true;
        else if (*s == ',' && digit) digit = false;
        else return false;
    }
    return digit;
}

void tune_job_options_default(TuneJobOptions *o, const Game *game)
{
    *o = (TuneJobOptions){.game = game, .start_spec = "default", .valid = 0.1, .epochs = 400, .lr = 2,
                          .lambda = 1e-7, .pattern_lr = 0, .pattern_lambda = -1, .patience = 30,
                          .threads = 1, .seed = 1, .share = 1};
}

/* Every run named by o->runs exists and is a self-play run of this game
 * (else "only 0 positions match" would hide a typo). */
static int check_runs(const TuneJobOptions *o, char err[ERR_MAX])
{
    const char *runs = o->runs;
    if (runs && !tune_job_valid_runs(runs)) {
        snprintf(err, ERR_MAX, "--runs takes comma-separated run ids, not '%.150s'", runs);
        return -1;
    }
    for (const char *r = runs; r && *r;) {
        int64_t id = 0;
        const char *at = r;
        bool in_range = num_scan_digits(&r, 1, INT64_MAX, &id) == NUM_OK; /* tune_job_valid_runs checked the syntax */
        int len = (int)(r - at);
        if (*r == ',') r++;
        DbRun run;
        if (!in_range || db_run_get(o->db, id, &run, err) != 0) {
            snprintf(err, ERR_MAX, "--runs: run %.*s does not exist in %.150s", len < 24 ? len : 24, at,
                     o->db_path ? o->db_path : "the database");
            return -1;
        }
        int rc = 0;
        if (strcmp(run.kind ? run.kind : "", "selfplay") != 0 ||
            strcmp(run.game ? run.game : "", o->game->name) != 0) {
            snprintf(err, ERR_MAX, "--runs: run %lld is a %.20s %.20s run, not a %s self-play run", (long long)id,
                     run.game ? run.game : "?", run.kind ? run.kind : "?", o->game->name);
            rc = -1;
        }
        db_run_clear(&run);
        if (rc != 0) return rc;
    }
    return 0;
}

/* Load the positions into data (traced once; the tuner never calls the
 * engine again) in the canonical order; *keys and *scores (owned by the
 * caller afterwards) hold each position's game key and search score. */
/* Sharded loading (TuneJobOptions.reducer): this rank's traced positions
 * (checked against the engine already), its counters and its status (0,
 * or 1 failed / 2 interrupted with err) go to every rank; each puts all
 * ranks' positions in rank order into a new dataset that replaces
 * *data, and their keys into lc. A failure of any rank fails every rank
 * with the message of the first failing rank. Collective. */
static int gather_loaded(const TuneJobOptions *o, TexelData **data, LoadCtx *lc, int rc_in, char err[ERR_MAX])
{
    const TexelReducer *red = o->reducer;
    const Game *g = o->game;
    char terr[TEXEL_ERR_MAX] = "";
    uint8_t *packed = NULL;
    size_t psize = 0;
    int status = rc_in == 0 ? 0 : lc->interrupted ? 2 : 1;
    if (status == 0 && texel_data_pack(*data, 0, lc->len, &packed, &psize, terr) != 0) {
        snprintf(err, ERR_MAX, "%.200s", terr);
        status = 1;
    }
    Bytes b = {0};
    const size_t msg_len = status ? strlen(err) : 0;
    const uint64_t head[8] = {(uint64_t)status, status ? 0 : lc->len, (uint64_t)lc->skipped, (uint64_t)lc->resolved,
                              (uint64_t)lc->egtb_known, (uint64_t)lc->egtb_changed, msg_len, status ? 0 : psize};
    for (int i = 0; i < 8; i++) bytes_u64(&b, head[i]);
    bytes_put(&b, err, msg_len);
    for (size_t i = 0; status == 0 && i < lc->len; i++) {
        bytes_u64(&b, lc->keys[i]);
        bytes_u64(&b, lc->pkeys[i]);
        bytes_u64(&b, (uint64_t)(uint32_t)lc->plies[i] | (uint64_t)(uint32_t)lc->scores[i] << 32);
    }
    if (status == 0) bytes_put(&b, packed, psize);
    free(packed);
    uint8_t *all = NULL;
    size_t *off = NULL;
    int rc = b.oom ? gather_bytes(red, NULL, 0, &all, &off, err) : gather_bytes(red, b.p, b.len, &all, &off, err);
    free(b.p);
    if (rc == 0 && b.oom) {
        snprintf(err, ERR_MAX, "rank %d: out of memory packing its positions", red->rank);
        rc = -1;
    }
    /* the ranks' statuses first: a failing rank fails them all */
    size_t total = 0;
    int64_t sums[4] = {0};
    bool interrupted = false;
    for (int r = 0; rc == 0 && r < red->ranks; r++) {
        const uint8_t *p = all + off[r];
        const size_t size = off[r + 1] - off[r];
        uint64_t h[8];
        for (int i = 0; i < 8 && size >= 64; i++) h[i] = get_u64(p + 8 * i);
        if (size < 64 || h[6] > ERR_MAX || (h[0] == 0 && size != 64 + h[6] + 24 * h[1] + h[7])) {
            snprintf(err, ERR_MAX, "gathering the positions: rank %d's part is malformed", r);
            rc = -1;
        } else if (h[0] != 0) {
            if (h[0] == 2) interrupted = true;
            char msg[ERR_MAX];
            snprintf(msg, sizeof msg, "%.*s", (int)h[6], (const char *)p + 64);
            snprintf(err, ERR_MAX, "%s", msg);
            rc = -1;
        } else {
            total += h[1];
            for (int i = 0; i < 4; i++) sums[i] += (int64_t)h[2 + i];
        }
    }
    lc->interrupted = interrupted;
    TexelData *full = rc == 0 ? texel_data_new_tapered(g->weights_len, g->eg_offset, g->phase_max) : NULL;
    uint64_t *keys = NULL, *pkeys = NULL;
    int32_t *plies = NULL, *scores = NULL;
    if (rc == 0) {
        keys = malloc((total ? total : 1) * sizeof *keys);
        pkeys = malloc((total ? total : 1) * sizeof *pkeys);
        plies = malloc((total ? total : 1) * sizeof *plies);
        scores = malloc((total ? total : 1) * sizeof *scores);
        if (!full || !keys || !pkeys || !plies || !scores ||
            texel_data_reserve(full, total, 0, terr) != 0) {
            snprintf(err, ERR_MAX, "out of memory for %zu gathered positions", total);
            rc = -1;
        }
    }
    size_t at = 0;
    for (int r = 0; rc == 0 && r < red->ranks; r++) {
        const uint8_t *p = all + off[r];
        const size_t n = (size_t)get_u64(p + 8), m_len = (size_t)get_u64(p + 48);
        const uint8_t *k = p + 64 + m_len;
        for (size_t i = 0; i < n; i++, at++, k += 24) {
            keys[at] = get_u64(k);
            pkeys[at] = get_u64(k + 8);
            const uint64_t ps = get_u64(k + 16);
            plies[at] = (int32_t)(uint32_t)ps;
            scores[at] = (int32_t)(uint32_t)(ps >> 32);
        }
        if (texel_data_unpack(full, k, (size_t)get_u64(p + 56), terr) != 0) {
            snprintf(err, ERR_MAX, "rank %d's positions: %.200s", r, terr);
            rc = -1;
        }
    }
    free(all);
    free(off);
    if (rc != 0) {
        texel_data_free(full);
        free(keys), free(pkeys), free(plies), free(scores);
        return -1;
    }
    texel_data_free(*data);
    *data = full;
    lc->data = full;
    free(lc->keys), free(lc->pkeys), free(lc->plies), free(lc->scores);
    lc->keys = keys, lc->pkeys = pkeys, lc->plies = plies, lc->scores = scores;
    lc->len = lc->keys_cap = total;
    lc->skipped = sums[0], lc->resolved = sums[1], lc->egtb_known = sums[2], lc->egtb_changed = sums[3];
    return 0;
}

static int load_positions(const TuneJobOptions *o, TexelData **datap, char *filter, size_t filter_size, LoadCtx *lc,
                          int rc_in, char err[ERR_MAX])
{
    const Game *g = o->game;
    size_t n = (size_t)snprintf(filter, filter_size, "g.run_id IN (SELECT id FROM runs WHERE kind = 'selfplay')");
    if (!o->all_positions && !o->resolve) n += (size_t)snprintf(filter + n, filter_size - n, " AND p.quiet = 1");
    if (o->runs) n += (size_t)snprintf(filter + n, filter_size - n, " AND g.run_id IN (%s)", o->runs);
    if (o->filter) snprintf(filter + n, filter_size - n, " AND (%s)", o->filter);
    /* what this rank reads: its share of the positions (the stored filter
     * text names the whole set) */
    const TexelReducer *red = o->reducer;
    char query[2200];
    if (red && red->ranks > 1)
        snprintf(query, sizeof query, "(%s) AND p.id %% %d = %d", filter, red->ranks, red->rank);
    else
        snprintf(query, sizeof query, "%s", filter);
    TexelData *data = *datap;
    GameKeys gkeys = {0};
    lc->games = &gkeys;
    char gfilter[1024];
    snprintf(gfilter, sizeof gfilter, "g.game = '%s' AND g.run_id IN (SELECT id FROM runs WHERE kind = 'selfplay')%s%s%s",
             g->name, o->runs ? " AND g.run_id IN (" : "", o->runs ? o->runs : "", o->runs ? ")" : "");
    int rc = rc_in;
    if (rc == 0) rc = db_games_each(o->db, gfilter, on_game, &gkeys, err);
    if (rc > 0) {
        snprintf(err, ERR_MAX, "out of memory for the game keys");
        rc = -1;
    }
    if (rc == 0) {
        rc = db_positions_each(o->db, g->name, query, on_position, lc, err);
        if (rc > 0) {
            snprintf(err, ERR_MAX, "%s", lc->err);
            rc = -1;
        }
    }
    size_t bad = 0;
    char terr[TEXEL_ERR_MAX] = "";
    if (red) {
        /* each rank checks the traces it made, then all are gathered */
        if (rc == 0 && texel_data_check(data, o->start, 0, &bad, terr) != 0) {
            snprintf(err, ERR_MAX, "trace check failed: %.200s", terr);
            rc = -1;
        }
        rc = gather_loaded(o, datap, lc, rc, err);
        data = *datap;
    }
    if (rc == 0 && lc->len < TUNE_JOB_MIN_POSITIONS) {
        snprintf(err, ERR_MAX, "only %zu positions match in %.150s (a tune needs %d)", lc->len,
                 o->db_path ? o->db_path : "the database", TUNE_JOB_MIN_POSITIONS);
        lc->too_few = true;
        rc = -1;
    }
    /* The canonical order (what the positions are, not their ids): the
     * sums, the split and the mini-batch order then depend only on which
     * games are stored. */
    if (rc == 0) {
        PosOrder *po = malloc(lc->len * sizeof *po);
        uint32_t *order = malloc(lc->len * sizeof *order);
        uint64_t *keys = malloc(lc->len * sizeof *keys);
        uint64_t *pkeys = malloc(lc->len * sizeof *pkeys);
        int32_t *scores = malloc(lc->len * sizeof *scores);
        int32_t *plies = malloc(lc->len * sizeof *plies);
        if (!po || !order || !keys || !scores || !pkeys || !plies) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
        }
        for (size_t i = 0; rc == 0 && i < lc->len; i++)
            po[i] = (PosOrder){lc->keys[i], lc->plies[i], lc->scores[i], (uint32_t)i};
        if (rc == 0) qsort(po, lc->len, sizeof *po, pos_order_cmp);
        for (size_t i = 0; rc == 0 && i < lc->len; i++) {
            order[i] = po[i].index;
            keys[i] = lc->keys[po[i].index];
            pkeys[i] = lc->pkeys[po[i].index];
            scores[i] = lc->scores[po[i].index];
            plies[i] = lc->plies[po[i].index];
        }
        if (rc == 0 && texel_data_reorder(data, order, terr) != 0) {
            snprintf(err, ERR_MAX, "%.200s", terr);
            rc = -1;
        }
        if (rc == 0) {
            free(lc->keys);
            free(lc->scores);
            free(lc->pkeys);
            free(lc->plies);
            lc->keys = keys;
            lc->scores = scores;
            lc->pkeys = pkeys;
            lc->plies = plies;
            keys = NULL;
            scores = NULL;
            pkeys = NULL;
            plies = NULL;
        }
        free(po);
        free(order);
        free(keys);
        free(scores);
        free(pkeys);
        free(plies);
    }
    free(gkeys.items);
    lc->games = NULL;
    if (rc == 0 && !red && texel_data_check(data, o->start, 0, &bad, terr) != 0) {
        snprintf(err, ERR_MAX, "trace check failed: %.200s", terr);
        rc = -1;
    }
    return rc;
}

/* A training position's sampling key: its game's key and its ply, so the
 * choice depends on what the games are (as the split does), not on ids. */
static uint64_t sample_key(uint64_t seed, uint64_t game_key, int32_t ply)
{
    return rng_derive(seed ^ 0x5A3C96E1D2B4F087ULL, game_key ^ (uint64_t)(uint32_t)ply * 0x9E3779B97F4A7C15ULL);
}

typedef struct KeyIdx {
    uint64_t key;
    uint32_t idx;
} KeyIdx;

static int key_idx_cmp(const void *pa, const void *pb)
{
    const KeyIdx *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The training set's data options, in this order (the validation set is
 * left whole, so validation losses stay comparable across them):
 * dedupe: positions with the same position key become one, the first in
 * the canonical order, its target the mean of theirs (each occurrence one
 * vote; the count is not kept as a weight); per_game: at most that many
 * positions of a game, those with the lowest sampling keys; share: a
 * position stays iff its sampling key < share * 2^64. */
/* The positions rank r of R computes in a full-batch pass over idx[0..len)
 * (texel.h, "Shards"): idx[lo, hi) of its blocks [nb r / R, nb (r + 1) / R). */
static void own_range(size_t len, int rank, int ranks, size_t *lo, size_t *hi)
{
    const size_t blocks = (len + TEXEL_BLOCK_POSITIONS - 1) / TEXEL_BLOCK_POSITIONS;
    *lo = blocks * (size_t)rank / (size_t)ranks * TEXEL_BLOCK_POSITIONS;
    *hi = blocks * (size_t)(rank + 1) / (size_t)ranks * TEXEL_BLOCK_POSITIONS;
    if (*hi > len) *hi = len;
    if (*lo > *hi) *lo = *hi;
}

/* The run of this tuning (rank 0, in its transaction): a run of the same
 * game, seed and configuration left interrupted before it stored its end
 * (killed, or failed: db_tuning_unfinished) is tuned again from scratch
 * under its own ids (*tuning_id set: the caller restarts that row), so a
 * killed tune rerun leaves the rows of one uninterrupted run; else a new
 * run (*tuning_id 0). Returns 0 or -1 with err. */
static int tune_run_open(const TuneJobOptions *o, uint64_t seed, int64_t *run_id, int64_t *tuning_id,
                         char err[ERR_MAX])
{
    const char *config = o->config ? o->config : "";
    char status[DB_STATUS_MAX] = "";
    *tuning_id = 0;
    int rc = db_run_find(o->db, "tune", o->game->name, seed, config, run_id, status, err);
    if (rc == 0 && *run_id && strcmp(status, "interrupted") == 0)
        rc = db_tuning_unfinished(o->db, *run_id, tuning_id, err);
    if (rc != 0) return -1;
    if (*tuning_id) return db_run_finish(o->db, *run_id, "running", err);
    return db_run_create(o->db, "tune", o->game->name, seed, config, NULL, run_id, err);
}

/* Sharded data: with full batches every pass of the tuner (K search,
 * gradients, training and validation losses) runs over split->train or
 * split->valid, and this rank computes only its blocks of each, so it
 * keeps only their positions: *data becomes those positions in the same
 * order, and the split's entries of its blocks are renumbered (the others,
 * never read here, become 0). The sums, and so the weights, are the bits
 * of the whole set. *kept gets the positions kept. Returns 0, or -1 with
 * err (out of memory; *data is then as it was). */
static int keep_own_blocks(const TexelReducer *red, const Game *g, TexelData **data, TexelSplit *split, size_t *kept,
                           char err[TEXEL_ERR_MAX])
{
    const size_t n = texel_data_len(*data);
    uint32_t *renum = malloc((n ? n : 1) * sizeof *renum);
    uint8_t *mark = calloc(n ? n : 1, 1);
    TexelData *mine = texel_data_new_tapered(g->weights_len, g->eg_offset, g->phase_max);
    int rc = renum && mark && mine ? 0 : -1;
    if (rc != 0) snprintf(err, TEXEL_ERR_MAX, "out of memory sharding %zu positions", n);
    size_t tlo = 0, thi = 0, vlo = 0, vhi = 0;
    own_range(split->train_len, red->rank, red->ranks, &tlo, &thi);
    own_range(split->valid_len, red->rank, red->ranks, &vlo, &vhi);
    for (size_t i = tlo; rc == 0 && i < thi; i++) mark[split->train[i]] = 1;
    for (size_t i = vlo; rc == 0 && i < vhi; i++) mark[split->valid[i]] = 1;
    if (rc == 0 && tlo == thi && vlo == vhi && n) mark[0] = 1; /* no block here: one position keeps indices valid */
    size_t len = 0;
    for (size_t p = 0; rc == 0 && p < n;) { /* runs of kept positions, copied as they are */
        if (!mark[p]) {
            p++;
            continue;
        }
        size_t q = p;
        while (q < n && mark[q]) renum[q++] = (uint32_t)len++;
        uint8_t *buf = NULL;
        size_t size = 0;
        rc = texel_data_pack(*data, p, q, &buf, &size, err);
        if (rc == 0) rc = texel_data_unpack(mine, buf, size, err);
        free(buf);
        p = q;
    }
    if (rc == 0) {
        for (size_t i = 0; i < split->train_len; i++) split->train[i] = i >= tlo && i < thi ? renum[split->train[i]] : 0;
        for (size_t i = 0; i < split->valid_len; i++) split->valid[i] = i >= vlo && i < vhi ? renum[split->valid[i]] : 0;
        texel_data_drop_evals(mine);
        texel_data_shrink(mine);
        texel_data_free(*data);
        *data = mine;
        mine = NULL;
        *kept = len;
    }
    texel_data_free(mine);
    free(renum);
    free(mark);
    return rc;
}

static int shape_training(const TuneJobOptions *o, TexelData *data, TexelSplit *split, const uint64_t *gkeys,
                          const uint64_t *pkeys, const int32_t *plies, TuneJobResult *r, char err[ERR_MAX])
{
    const size_t n = split->train_len;
    uint8_t *drop = calloc(n ? n : 1, 1);
    KeyIdx *ki = malloc((n ? n : 1) * sizeof *ki);
    if (!drop || !ki) {
        free(drop), free(ki);
        snprintf(err, ERR_MAX, "out of memory shaping the training set");
        return -1;
    }
    if (o->dedupe) {
        for (size_t t = 0; t < n; t++) ki[t] = (KeyIdx){pkeys[split->train[t]], (uint32_t)t};
        qsort(ki, n, sizeof *ki, key_idx_cmp);
        for (size_t a = 0; a < n;) {
            size_t b = a + 1;
            double sum = texel_data_target(data, split->train[ki[a].idx]);
            for (; b < n && ki[b].key == ki[a].key; b++) {
                sum += texel_data_target(data, split->train[ki[b].idx]);
                drop[ki[b].idx] = 1;
                r->merged++;
            }
            if (b - a > 1) texel_data_set_target(data, split->train[ki[a].idx], sum / (double)(b - a));
            a = b;
        }
    }
    if (o->per_game > 0) { /* a game's positions are consecutive in the canonical order */
        for (size_t a = 0; a < n;) {
            size_t b = a, m = 0;
            for (; b < n && gkeys[split->train[b]] == gkeys[split->train[a]]; b++)
                if (!drop[b]) ki[m++] = (KeyIdx){sample_key(o->seed, gkeys[split->train[b]], plies[split->train[b]]), (uint32_t)b};
            if (m > (size_t)o->per_game) {
                qsort(ki, m, sizeof *ki, key_idx_cmp);
                for (size_t k = (size_t)o->per_game; k < m; k++) drop[ki[k].idx] = 1, r->sampled_out++;
            }
            a = b;
        }
    }
    if (o->share > 0 && o->share < 1) {
        const uint64_t threshold = (uint64_t)(o->share * 0x1.0p64);
        for (size_t t = 0; t < n; t++)
            if (!drop[t] && sample_key(o->seed, gkeys[split->train[t]], plies[split->train[t]]) >= threshold)
                drop[t] = 1, r->sampled_out++;
    }
    size_t kept = 0;
    for (size_t t = 0; t < n; t++)
        if (!drop[t]) split->train[kept++] = split->train[t];
    split->train_len = kept;
    free(drop), free(ki);
    return 0;
}

TuneJobStatus tune_job_run(const TuneJobOptions *o, int32_t *tuned, TuneJobResult *r, char err[ERR_MAX])
{
    /* shared by ranks: only rank 0 writes (the database, out_path, the log) */
    const bool writer = !o->reducer || o->reducer->rank == 0;
    TuneJobOptions local = *o;
    if (!writer) local.log = NULL, local.out_path = NULL;
    o = &local;
    const Game *g = o->game;
    *r = (TuneJobResult){0};
    err[0] = '\0';
    uint8_t *frozen = calloc((size_t)g->weights_len, 1);
    uint8_t *table = calloc((size_t)g->weights_len, 1);
    const char **names = weight_names_new(g);
    TexelData *data = texel_data_new_tapered(g->weights_len, g->eg_offset, g->phase_max);
    LoadCtx lc = {.game = g, .weights = o->start, .data = data, .quiet_only = !o->all_positions, .stop = o->stop,
                  .egtb = o->egtb, .egtb_skip = o->egtb_skip};
    if (o->resolve && !o->all_positions) lc.resolver = resolver_new(g, 32, 100000);
    int rc = names && data && frozen && table && (lc.resolver || !o->resolve || o->all_positions) ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc == 0) rc = check_runs(o, err);

    char filter[2048];
    double t0 = clock_now_s();
    if (rc == 0 || o->reducer) rc = load_positions(o, &data, filter, sizeof filter, &lc, rc, err);
    r->positions = lc.len;
    r->too_few = lc.too_few;
    r->skipped = lc.skipped;
    r->egtb_known = lc.egtb_known;
    r->egtb_changed = lc.egtb_changed;
    r->resolved = lc.resolved;
    resolver_free(lc.resolver);
    lc.resolver = NULL;
    if (rc != 0) {
        texel_data_free(data);
        free(lc.keys);
        free(lc.scores);
        free(lc.plies);
        free(lc.pkeys);
        free((void *)names);
        free(frozen);
        free(table);
        return lc.interrupted ? TUNE_JOB_STOPPED_LOADING : TUNE_JOB_FAILED;
    }
    texel_data_drop_evals(data); /* checked: 4 bytes a position less */
    texel_data_shrink(data);
    r->load_seconds = clock_now_s() - t0;
    r->bytes_per_position = texel_data_bytes_per_position(data);
    if (o->log) {
        fprintf(o->log,
                "tune %s: %zu positions loaded and checked in %.1f s (%.1f bytes/position; %lld skipped: a capture "
                "pending%s), %d threads\n",
                g->name, lc.len, r->load_seconds, r->bytes_per_position, (long long)lc.skipped,
                o->resolve ? " after resolving" : "", o->threads);
        if (o->resolve)
            fprintf(o->log, "resolve: %lld positions replaced by the quiet leaf of their capture line\n",
                    (long long)lc.resolved);
        if (o->egtb)
            fprintf(o->log, "egtb: %lld positions in the database, %s (%lld had another game result)\n",
                    (long long)lc.egtb_known, o->egtb_skip ? "left out" : "exact result as target",
                    (long long)lc.egtb_changed);
    }

    char terr[TEXEL_ERR_MAX] = "";
    TexelSplit split;
    rc = texel_split_make(&split, lc.len, lc.keys, o->valid, o->seed, terr);
    /* Blended targets: K is fitted on the game results first, then each
     * target mixes the result with the expected score of the search score,
     * 1 / (1 + 10^(-K score / 400)), scores of won games clamped. */
    double k = o->k;
    if (rc == 0 && o->score_weight > 0) {
        double kfit = k, kloss;
        if (kfit <= 0)
            rc = texel_fit_k_sharded(data, split.train, split.train_len, o->start, 0.01, 10, o->threads, o->reducer,
                                     &kfit, &kloss, terr);
        for (size_t i = 0; rc == 0 && i < lc.len; i++) {
            if (lc.scores[i] == INT32_MIN) continue;
            double s = lc.scores[i] > 3000 ? 3000 : lc.scores[i] < -3000 ? -3000 : lc.scores[i];
            double expected = 1.0 / (1.0 + pow(10.0, -kfit * s / 400.0));
            double target = (1 - o->score_weight) * texel_data_target(data, i) + o->score_weight * expected;
            texel_data_set_target(data, i, target);
        }
        k = kfit;
        if (rc == 0 && o->log)
            fprintf(o->log, "targets: %.2f x result + %.2f x expected score of the search score (K %.4f)\n",
                    1 - o->score_weight, o->score_weight, kfit);
    }
    free(lc.scores);
    lc.scores = NULL;
    if (rc == 0 && (o->dedupe || o->per_game > 0 || (o->share > 0 && o->share < 1))) {
        const size_t before = split.train_len;
        rc = shape_training(o, data, &split, lc.keys, lc.pkeys, lc.plies, r, err);
        if (rc == 0 && o->log)
            fprintf(o->log, "training set: %zu -> %zu positions (%lld merged as duplicates, %lld sampled out)\n",
                    before, split.train_len, (long long)r->merged, (long long)r->sampled_out);
        if (rc == 0 && split.train_len == 0) {
            snprintf(err, ERR_MAX, "no training positions left after --dedupe/--per-game/--share");
            rc = -1;
        }
        if (rc != 0) snprintf(terr, TEXEL_ERR_MAX, "%.200s", err);
    }
    free(lc.keys);
    free(lc.pkeys);
    free(lc.plies);
    lc.keys = NULL;
    lc.pkeys = NULL;
    lc.plies = NULL;
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.k = k;
    cfg.epochs = o->epochs;
    cfg.lr = o->lr;
    cfg.lambda = o->lambda;
    cfg.batch_size = o->batch;
    cfg.patience = o->patience;
    cfg.threads = o->threads;
    cfg.seed = o->seed;
    cfg.anchor = TEXEL_L2_START;
    cfg.reducer = o->reducer;
    /* the pattern tables (terms of more than 64 weights) take their own
     * step and L2 */
    for (int ti = 0; ti < g->terms_len; ti++)
        if (g->terms[ti].count > 64) memset(table + g->terms[ti].offset, 1, (size_t)g->terms[ti].count);
    cfg.table = table;
    cfg.table_lr = o->pattern_lr;
    cfg.table_lambda = o->pattern_lambda;

    /* The run, the base weight set and the tuning run row come first, so
     * every epoch's losses can be stored as they come. */
    int64_t run_id = 0, base_id = 0, tuning_id = 0, result_id = 0;
    DbTuning t = {.game = g->name, .k = 0.0 / 0.0, .train_loss = 0.0 / 0.0, .valid_loss = 0.0 / 0.0,
                  .positions_train = (int64_t)split.train_len, .positions_valid = (int64_t)split.valid_len,
                  .data = filter};
    if (rc != 0) snprintf(err, ERR_MAX, "%.200s", terr);
    if (rc == 0 && writer) rc = db_begin(o->db, err);
    if (rc == 0 && writer) {
        rc = tune_run_open(o, cfg.seed, &run_id, &tuning_id, err);
        if (rc == 0)
            rc = weights_store_base(o->db, g, o->start_spec ? o->start_spec : "default", o->start, names, run_id,
                                    &base_id, err);
        t.run_id = run_id;
        t.base_ws = base_id;
        if (rc == 0 && tuning_id) rc = db_tuning_restart(o->db, tuning_id, &t, err);
        else if (rc == 0) rc = db_tuning_insert(o->db, &t, &tuning_id, err);
        if (rc == 0) rc = db_commit(o->db, err);
        else db_rollback(o->db);
    }
    r->run_id = run_id;
    r->base_ws = base_id;
    r->tuning_id = tuning_id;
    if (o->reducer && any_rank_failed(o->reducer, rc != 0) && rc == 0) {
        snprintf(err, ERR_MAX, "rank 0 could not store the tuning run (its message says why)");
        rc = -1;
    }
    if (rc != 0) {
        texel_split_free(&split);
        texel_data_free(data);
        free((void *)names);
        free(frozen);
        free(table);
        return TUNE_JOB_FAILED;
    }
    EpochCtx ec = {.db = writer ? o->db : NULL, .tuning_id = tuning_id, .verbose = o->verbose, .log = o->log, .stop = o->stop,
                   .stopped = -1};
    cfg.progress = on_epoch;
    cfg.progress_ctx = &ec;
    /* The game's scale weight (a man, a shatra = 100) fixes the scale of
     * the evaluation and stays frozen. */
    frozen[g->scale_weight] = 1;
    for (int ti = 0; !o->patterns && ti < g->terms_len; ti++)
        if (g->terms[ti].count > 64) memset(frozen + g->terms[ti].offset, 1, (size_t)g->terms[ti].count);
    TexelResult *res = &r->texel;
    /* Over several ranks with full batches, each rank holds only the
     * positions of its blocks from here on (mini-batches draw positions
     * from the whole set: every rank keeps all). */
    const TexelReducer *red = o->reducer;
    const size_t all_positions = texel_data_len(data);
    r->positions_held = all_positions;
    if (red && red->ranks > 1 && (cfg.batch_size == 0 || (size_t)cfg.batch_size >= split.train_len)) {
        size_t kept = 0;
        rc = keep_own_blocks(red, g, &data, &split, &kept, terr);
        if (rc == 0) r->positions_held = kept;
        /* collective: every rank's status and count, to every rank */
        double mine2[2] = {rc != 0 ? 1.0 : 0.0, (double)kept}, *all2 = NULL;
        size_t all2_len = 0;
        char gerr[TEXEL_ERR_MAX] = "";
        bool others_failed = red->gather(red->ctx, mine2, 2, &all2, &all2_len, gerr) != 0 ||
                             all2_len != 2 * (size_t)red->ranks;
        for (size_t q = 0; !others_failed && q < all2_len; q += 2) others_failed = all2[q] != 0;
        if (others_failed && rc == 0) {
            snprintf(terr, TEXEL_ERR_MAX, "another rank could not shard the positions (out of memory)%s%.150s",
                     gerr[0] ? ": " : "", gerr);
            rc = -1;
        }
        if (rc == 0 && o->log && writer) {
            fprintf(o->log, "sharded: the ranks hold");
            for (int q = 0; q < red->ranks; q++) fprintf(o->log, "%s%.0f", q ? "/" : " ", all2[2 * q + 1]);
            fprintf(o->log, " of the %zu positions (their blocks of the full batch)\n", all_positions);
        }
        free(all2);
        if (rc != 0) {
            snprintf(err, ERR_MAX, "%.200s", terr);
            char ferr0[ERR_MAX];
            if (writer) db_run_finish(o->db, run_id, "interrupted", ferr0);
            texel_split_free(&split);
            texel_data_free(data);
            free((void *)names);
            free(frozen);
            free(table);
            return TUNE_JOB_FAILED;
        }
    }
    t0 = clock_now_s();
    rc = texel_tune(data, &split, &cfg, o->start, frozen, tuned, res, terr);
    r->tune_seconds = clock_now_s() - t0;
    if (ec.failed) rc = -1;
    bool interrupted = rc == 0 && ec.stopped >= 0 && res->stop == TEXEL_STOP_CALLER;
    if (interrupted && o->log)
        fprintf(o->log, "tune: interrupted after epoch %d; storing the best weights so far (epoch %d)\n", ec.stopped,
                res->best_epoch);
    char ferr[ERR_MAX];
    if (rc != 0) {
        snprintf(err, ERR_MAX, "%s", ec.failed ? ec.err : terr);
        if (writer) db_run_finish(o->db, run_id, "interrupted", ferr);
    } else if (o->out_path) {
        /* The weight file first: if it cannot be written nothing is stored. */
        char comment[256];
        char vl[TUNE_LOSS_TEXT_MAX];
        snprintf(comment, sizeof comment, "tuning run %lld from weight set %lld, K %.4f, valid loss %s%s",
                 (long long)tuning_id, (long long)base_id, res->k, tune_loss_text(res->valid_loss, 6, vl),
                 interrupted ? " (interrupted: best epoch so far)" : "");
        rc = weights_file_write(g, tuned, comment, o->out_path, o->out_opts, err);
        if (rc != 0) db_run_finish(o->db, run_id, "interrupted", ferr);
    }
    if (rc == 0 && writer) {
        char how[200], name[TUNE_JOB_NAME_MAX + 1];
        char vl[TUNE_LOSS_TEXT_MAX];
        snprintf(how, sizeof how, "tuned by tuning run %lld from weight set %lld (K %.4f, valid loss %s%s)",
                 (long long)tuning_id, (long long)base_id, res->k, tune_loss_text(res->valid_loss, 6, vl),
                 interrupted ? ", interrupted" : "");
        snprintf(name, sizeof name, "%s", o->name ? o->name : ""); /* the caller checked that it fits whole */
        if (!name[0]) snprintf(name, sizeof name, "tuned-%lld", (long long)tuning_id);
        t.result_ws = 0;
        t.k = res->k;
        t.train_loss = res->train_loss;
        t.valid_loss = res->valid_loss;
        /* No weight changed (--epochs 0, or no epoch beat the start): the
         * result is the start set itself, and no new row is stored, so the
         * tuning row names no result (a result_ws equal to base_ws would
         * read as a set tuned from itself, and give the start the
         * provenance of this run). */
        r->unchanged = memcmp(tuned, o->start, sizeof(int32_t) * (size_t)g->weights_len) == 0;
        rc = db_begin(o->db, err);
        if (rc == 0 && r->unchanged) result_id = base_id;
        else if (rc == 0) {
            rc = db_weights_insert(o->db, g->name, name, base_id, how, run_id, names, tuned, g->weights_len,
                                   &result_id, err);
            t.result_ws = result_id;
        }
        if (rc == 0) {
            if (rc == 0) rc = db_tuning_update(o->db, tuning_id, &t, err);
            if (rc == 0) rc = db_run_finish(o->db, run_id, interrupted ? "interrupted" : "done", err);
            if (rc == 0) rc = db_commit(o->db, err);
            else db_rollback(o->db);
        }
    }
    r->result_ws = rc == 0 ? result_id : 0;
    texel_split_free(&split);
    texel_data_free(data);
    free((void *)names);
    free(frozen);
    free(table);
    return rc != 0 ? TUNE_JOB_FAILED : interrupted ? TUNE_JOB_INTERRUPTED : TUNE_JOB_DONE;
}
