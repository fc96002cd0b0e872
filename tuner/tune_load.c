/* tune_load.c — the tuning job's positions (tune_job_internal.h): read
 * from the database, traced and checked against the engine, resolved or
 * corrected by an endgame database where asked, and put in the canonical
 * order by what the games are. */
#include "tuner/tune_job_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "engine/egtb/egtb.h"
#include "engine/resolve.h"
#include "engine/weights_id.h"
#include "util/num.h"

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
        bool white = c->game->side_to_move(&pos) == COLOR_WHITE;
        int exact = egtb_is_draw(ev) ? 1 : egtb_is_win(ev) == white ? 2 : 0;
        if (exact != half) c->egtb_changed++; /* counted when left out too */
        if (c->egtb_skip) return 0;
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

int tune_job_check_runs(const TuneJobOptions *o, char err[ERR_MAX])
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

int tune_job_load(const TuneJobOptions *o, TexelData **datap, char *filter, size_t filter_size, LoadCtx *lc,
                  int rc_in, char err[ERR_MAX])
{
    const Game *g = o->game;
    size_t n = (size_t)snprintf(filter, filter_size, "g.run_id IN (SELECT id FROM runs WHERE kind = 'selfplay')");
    if (!o->all_positions && !o->resolve) n += (size_t)snprintf(filter + n, filter_size - n, " AND p.quiet = 1");
    if (o->runs) n += (size_t)snprintf(filter + n, filter_size - n, " AND g.run_id IN (%s)", o->runs);
    if (o->games_below > 0)
        n += (size_t)snprintf(filter + n, filter_size - n, " AND g.game_index < %lld", (long long)o->games_below);
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
    char gfilter[1024], below[48] = "";
    if (o->games_below > 0) snprintf(below, sizeof below, " AND g.game_index < %lld", (long long)o->games_below);
    snprintf(gfilter, sizeof gfilter, "g.game = '%s' AND g.run_id IN (SELECT id FROM runs WHERE kind = 'selfplay')%s%s%s%s",
             g->name, o->runs ? " AND g.run_id IN (" : "", o->runs ? o->runs : "", o->runs ? ")" : "", below);
    int rc = rc_in;
    db_set_stop(o->db, lc->stop); /* a slow --filter gives no row to stop at */
    if (rc == 0) rc = db_games_each(o->db, gfilter, on_game, &gkeys, err);
    if (rc > 0) {
        snprintf(err, ERR_MAX, "out of memory for the game keys");
        rc = -1;
    }
    /* the user's --filter checked alone, so that SQLite's complaint quotes it and not the tuner's own conditions */
    char ferr[ERR_MAX];
    if (rc == 0 && o->filter && db_positions_filter_check(o->db, o->filter, ferr) != 0) {
        snprintf(err, ERR_MAX, "--%.250s", ferr);
        rc = -1;
    }
    if (rc == 0) {
        rc = db_positions_each(o->db, g->name, query, on_position, lc, err);
        if (rc > 0) {
            snprintf(err, ERR_MAX, "%s", lc->err);
            rc = -1;
        }
    }
    db_set_stop(o->db, NULL);
    if (rc != 0 && !lc->interrupted && lc->stop && *lc->stop) { /* SQLite's interrupt, in a query */
        snprintf(err, ERR_MAX, "interrupted while loading positions; nothing stored");
        lc->interrupted = true;
    }
    char dpath[4096], dwhy[ERR_MAX];
    if (rc == 0 && o->egtb && egtb_damage(o->egtb->db, dpath, dwhy) > 0) {
        /* its positions would keep their game results as targets, unsaid (each rank its share: before the gather,
         * which fails them all) */
        snprintf(err, ERR_MAX, "endgame table %.100s: %.60s: rebuild it (dama egtb build) or tune without --egtb",
                 dpath, dwhy);
        rc = -1;
    }
    size_t bad = 0;
    char terr[TEXEL_ERR_MAX] = "";
    if (red) {
        /* each rank checks the traces it made, then all are gathered */
        if (rc == 0 && texel_data_check(data, o->start, 0, &bad, terr) != 0) {
            snprintf(err, ERR_MAX, "trace check failed: %.200s", terr);
            rc = -1;
        }
        rc = tune_job_gather_loaded(o, datap, lc, rc, err);
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
