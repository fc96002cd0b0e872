/* members.c — a self-play run's members and its set-up (contracts in
 * selfplay/members.h). */
#include "selfplay/members.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/weight_sets.h"
#include "engine/eval.h"
#include "util/clock.h"
#include "util/rng.h"

int selfplay_members_init(SelfplayMembers *m, const Game *g, int64_t len)
{
    memset(m, 0, sizeof *m);
    m->game = g;
    m->len = len;
    m->big = calloc((size_t)g->weights_len, 1);
    m->small = malloc(sizeof(int) * (size_t)g->weights_len);
    m->ws_ids = malloc(sizeof(int64_t) * (size_t)len);
    if (m->small && m->big) {
        for (int t = 0; t < g->terms_len; t++)
            if (eval_term_is_table(g, &g->terms[t])) memset(m->big + g->terms[t].offset, 1, (size_t)g->terms[t].count);
        for (int i = 0; i < g->weights_len; i++)
            if (!m->big[i]) m->small[m->n_small++] = i;
    }
    m->values = malloc(sizeof(int32_t) * (size_t)len * (size_t)(m->n_small ? m->n_small : 1));
    if (!m->big || !m->small || !m->ws_ids || !m->values) {
        selfplay_members_free(m);
        return -1;
    }
    return 0;
}

void selfplay_members_free(SelfplayMembers *m)
{
    free(m->big);
    free(m->small);
    free(m->ws_ids);
    free(m->values);
    m->big = NULL, m->small = NULL, m->ws_ids = NULL, m->values = NULL;
}

void selfplay_members_full(const SelfplayMembers *m, const int32_t *base, int64_t k, int32_t *out)
{
    memcpy(out, base, sizeof(int32_t) * (size_t)m->game->weights_len);
    for (int j = 0; j < m->n_small; j++) out[m->small[j]] = m->values[(size_t)k * (size_t)m->n_small + (size_t)j];
}

/* Member k's own weights (those outside the tables) from its full vector. */
static void members_keep(SelfplayMembers *m, int64_t k, const int32_t *full)
{
    for (int j = 0; j < m->n_small; j++) m->values[(size_t)k * (size_t)m->n_small + (size_t)j] = full[m->small[j]];
}

void selfplay_member_make(const Game *g, const int32_t *base, const uint8_t *big, int64_t k, bool pairs,
                          uint64_t seed, double spread, double spread_min, int32_t *out)
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

/* The members of a new run are committed MEMBERS_CHUNK at a time, or
 * after MEMBERS_CHUNK_S seconds, whichever comes first. */
enum { MEMBERS_CHUNK = 500 };
static const double MEMBERS_CHUNK_S = 0.5;

/* The set-up's state across its steps. */
typedef struct Setup {
    struct Db *db;
    const SelfplayOptions *o;
    SelfplayMembers *m;
    const int32_t *base;
    int32_t *full;       /* a member's full vector */
    const char **names;  /* the game's weight names */
    SelfplayResult *r;
    double start;        /* clock_now_s at the set-up's start */
    char was[DB_STATUS_MAX]; /* the run's status before this process took it ("" new) */
} Setup;

static void event(const Setup *s, SelfplayEvent ev)
{
    s->r->setup_seconds = clock_now_s() - s->start;
    if (s->o->event) s->o->event(s->o->ctx, ev, s->r);
}

/* Load the ws_len stored members. */
static int load_members(Setup *s, int ws_len, char err[ERR_MAX])
{
    const Game *g = s->o->game;
    SelfplayMembers *m = s->m;
    s->r->members_found = ws_len;
    for (int k = 0; k < ws_len; k++) {
        if (db_weights_load(s->db, m->ws_ids[k], g->name, s->names, s->full, g->weights_len, err) != 0) return -1;
        for (int i = 0; i < g->weights_len; i++)
            if (m->big[i] && s->full[i] != s->base[i]) {
                snprintf(err, ERR_MAX, "run %lld: member %d (weight set %lld) has its own %s; members differ from "
                         "the base only outside the pattern tables", (long long)s->r->run_id, k,
                         (long long)m->ws_ids[k], s->names[i]);
                return -1;
            }
        members_keep(m, k, s->full);
        s->r->members_loaded = k + 1;
        event(s, SELFPLAY_EVENT_MEMBER_LOADED);
    }
    return 0;
}

/* Store one new member k (a transaction is open). */
static int store_member(Setup *s, int64_t k, char err[ERR_MAX])
{
    const SelfplayOptions *o = s->o;
    const Game *g = o->game;
    SelfplayMembers *m = s->m;
    bool pairs = o->perturb == SELFPLAY_PERTURB_PAIRS;
    selfplay_member_make(g, s->base, m->big, k, pairs, o->seed, o->spread, o->spread_min, s->full);
    members_keep(m, k, s->full);
    char how[200], name[48];
    if (pairs)
        snprintf(how, sizeof how, "perturbed from %lld (pair %lld, %s delta, seed %llu, spread %g, min %g)",
                 (long long)m->ws_ids[0], (long long)(k - 1) / 2, k % 2 ? "+" : "-", (unsigned long long)o->seed,
                 o->spread, o->spread_min);
    else
        snprintf(how, sizeof how, "perturbed from %lld (member %lld, seed %llu, spread %g, min %g)",
                 (long long)m->ws_ids[0], (long long)k, (unsigned long long)o->seed, o->spread, o->spread_min);
    snprintf(name, sizeof name, "selfplay-%lld-m%lld", (long long)s->r->run_id, (long long)k);
    int rc = db_weights_insert_delta(s->db, g->name, name, m->ws_ids[0], how, s->r->run_id, s->names, s->full,
                                     g->weights_len, &m->ws_ids[k], err);
    if (rc == 0) rc = db_run_weights_add(s->db, s->r->run_id, (int)k, m->ws_ids[k], err);
    return rc;
}

/* The run's base, member 0 (a transaction is open). */
static int store_base(Setup *s, char err[ERR_MAX])
{
    SelfplayMembers *m = s->m;
    int rc = weights_store_base(s->db, s->o->game, s->o->weights, s->base, s->names, s->r->run_id, &m->ws_ids[0], err);
    if (rc == 0) rc = db_run_weights_add(s->db, s->r->run_id, 0, m->ws_ids[0], err);
    members_keep(m, 0, s->base);
    return rc;
}

/* Make the members from ws_len on (the base first when ws_len is 0), each
 * as a delta of the base, in chunks of MEMBERS_CHUNK members or
 * MEMBERS_CHUNK_S seconds. Sets *stopped when *stop came between two
 * chunks. Returns 0 or -1 with err (the open chunk is rolled back). */
static int store_members(Setup *s, int ws_len, bool *stopped, char err[ERR_MAX])
{
    const SelfplayOptions *o = s->o;
    SelfplayMembers *m = s->m;
    SelfplayResult *r = s->r;
    int rc = 0;
    if (ws_len == 0) {
        rc = db_begin(s->db, err);
        if (rc == 0) rc = store_base(s, err);
        if (rc == 0) rc = db_commit(s->db, err);
        ws_len = 1;
    }
    int64_t made = ws_len, chunk = 0;
    double chunk_start = clock_now_s();
    for (int64_t k = ws_len; rc == 0 && k < m->len; k++) {
        if (chunk == 0) {
            if (o->stop && *o->stop) {
                *stopped = true;
                break;
            }
            rc = db_begin(s->db, err);
            chunk_start = clock_now_s();
            if (rc != 0) break;
        }
        rc = store_member(s, k, err);
        chunk++;
        double now = clock_now_s();
        if (rc == 0 && (chunk >= MEMBERS_CHUNK || now - chunk_start >= MEMBERS_CHUNK_S || k + 1 == m->len)) {
            rc = db_commit(s->db, err);
            made = k + 1;
            chunk = 0;
            r->members_stored = made;
            if (rc == 0) event(s, SELFPLAY_EVENT_MEMBERS_STORED);
        }
    }
    if (rc != 0) db_rollback(s->db);
    r->members_stored = made;
    return rc;
}

/* The identity of the run: o->config and a hash of the base weights'
 * values ('default' names other weights after an export and rebuild). */
static void identity(const SelfplayOptions *o, const int32_t *base, char config[4096])
{
    snprintf(config, 4096, "%s", o->config ? o->config : "");
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < o->game->weights_len; i++)
        h = rng_derive(h, (uint64_t)(uint32_t)base[i] + ((uint64_t)i << 32));
    size_t len = strlen(config);
    snprintf(config + len, 4096 - len, "base-weights-hash = %016llx\n", (unsigned long long)h);
}

/* Give the run this process took back: its status before (a run with
 * nothing left to do, or a set-up that failed, stays as it was), or
 * `status` when it had none or was 'running' (made now, or taken from a
 * process that died before the sweep saw it). */
static void hand_back(const Setup *s, const char *status)
{
    char ferr[ERR_MAX];
    const char *was = s->was;
    bool keep = was[0] && strcmp(was, "running") != 0 && strcmp(status, "done") != 0;
    if (s->r->run_id) db_run_release(s->db, s->r->run_id, keep ? was : status, ferr);
}

/* Find the run and take it, or make it with its base: one transaction, so
 * that two processes started together cannot both make or resume it.
 * Returns 0, -1 with err, or SELFPLAY_SETUP_BUSY (err names the owner). */
static int claim(Setup *s, const char *config, char err[ERR_MAX])
{
    const SelfplayOptions *o = s->o;
    SelfplayResult *r = s->r;
    DbClaim c;
    int rc = db_begin(s->db, err);
    if (rc == 0) rc = db_run_claim(s->db, DB_CLAIM_RESUME, "selfplay", o->game->name, o->seed, config, NULL, &c, err);
    if (rc == 0 || rc == DB_BUSY) r->run_id = c.id;
    if (rc == DB_BUSY) {
        r->end = SELFPLAY_END_BUSY;
        return SELFPLAY_SETUP_BUSY;
    }
    r->resumed = rc == 0 && !c.created;
    snprintf(s->was, sizeof s->was, "%s", rc == 0 ? c.status : "");
    /* The run and its base are committed first, so a run killed while its
     * members are made resumes (the missing members are made then). */
    if (rc == 0 && c.created) rc = store_base(s, err);
    if (rc == 0) rc = db_commit(s->db, err);
    if (rc != 0) {
        db_rollback(s->db); /* nothing was taken */
        r->run_id = 0;
        r->resumed = false;
    }
    return rc;
}

/* Find the run, load what it has stored, make what it lacks. Returns 0,
 * -1 with err, SELFPLAY_SETUP_BUSY or SELFPLAY_SETUP_STOPPED (r->end set). */
static int find_or_make(Setup *s, char err[ERR_MAX])
{
    const SelfplayOptions *o = s->o;
    SelfplayResult *r = s->r;
    SelfplayMembers *m = s->m;
    char config[4096];
    identity(o, s->base, config);
    int rc = claim(s, config, err);
    if (rc != 0) return rc;
    int ws_len = 1; /* a new run: its base, stored with it */
    if (r->resumed && db_weights_by_run(s->db, r->run_id, m->ws_ids, (int)m->len, &ws_len, err) != 0) return -1;
    /* Fewer than expected: a set-up stopped before all were stored. */
    if (r->resumed && (ws_len < 1 || ws_len > m->len)) {
        snprintf(err, ERR_MAX, "run %lld has %d weight sets, expected %lld", (long long)r->run_id, ws_len,
                 (long long)m->len);
        return -1;
    }
    /* Stored members are loaded; missing ones (a new run, or a larger
     * games in pairs mode) are made and stored. */
    if (r->resumed && load_members(s, ws_len, err) != 0) return -1;
    r->members_stored = ws_len;
    if (ws_len < m->len) {
        bool stopped = false;
        if (store_members(s, ws_len, &stopped, err) != 0) return -1;
        if (stopped) {
            char ferr[ERR_MAX];
            db_run_finish(s->db, r->run_id, "interrupted", ferr);
            r->end = SELFPLAY_END_SETUP_INTERRUPTED;
            return SELFPLAY_SETUP_STOPPED;
        }
    }
    if (o->stop && *o->stop) {
        /* A stop while the stored members were loaded: nothing played. */
        char ferr[ERR_MAX];
        if (r->run_id) db_run_finish(s->db, r->run_id, "interrupted", ferr);
        r->end = SELFPLAY_END_SETUP_STOPPED;
        return SELFPLAY_SETUP_STOPPED;
    }
    return 0;
}

int selfplay_setup(struct Db *db, const SelfplayOptions *o, SelfplayMembers *m, int32_t *base, bool *done,
                   SelfplayResult *r, char err[ERR_MAX])
{
    const Game *g = o->game;
    Setup s = {.db = db, .o = o, .m = m, .base = base, .r = r, .start = clock_now_s()};
    EVAL_AUTO_FREE int32_t *full = eval_weights_new(g);
    s.full = full;
    s.names = weight_names_new(g);
    int rc = full && s.names ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc == 0) rc = weights_resolve_db(g, o->weights, db, base, NULL, err);
    if (rc == 0) {
        rc = find_or_make(&s, err);
        if (rc == -1) hand_back(&s, "interrupted");
    }
    free((void *)s.names);
    if (rc == SELFPLAY_SETUP_STOPPED || rc == SELFPLAY_SETUP_BUSY) return rc;
    if (rc == 0) rc = db_run_game_indices(db, r->run_id, done, o->games, &r->already, err);
    if (rc != 0) {
        hand_back(&s, "interrupted");
        r->end = SELFPLAY_END_FAILED;
        return SELFPLAY_SETUP_FAILED;
    }
    /* Already stored: every game, or (a shard) every game of this shard. */
    int64_t shard_left = 0;
    for (int64_t i = o->shard_r; i < o->games; i += o->shard_k) shard_left += !done[i];
    if (r->resumed && (r->already == o->games || shard_left == 0)) {
        hand_back(&s, r->already == o->games ? "done" : "interrupted");
        r->end = SELFPLAY_END_ALREADY_STORED;
        return SELFPLAY_SETUP_NOTHING;
    }
    if (r->resumed && db_run_finish(db, r->run_id, "running", err) != 0) {
        r->end = SELFPLAY_END_FAILED;
        return SELFPLAY_SETUP_FAILED;
    }
    return SELFPLAY_SETUP_PLAY;
}
