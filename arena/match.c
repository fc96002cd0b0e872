/* match.c — a two-player match through the tournament scheduler
 * (contracts in arena/match.h): match_play, and match_run around it. */
#include "arena/match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/game_writer.h"
#include "arena/match_draws.h"
#include "arena/preflight.h"
#include "arena/schedule.h"
#include "arena/schedule_dist.h"
#include "db/db.h"
#include "db/weight_sets.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "engine/egtb/egtb.h"
#include "engine/eval.h"
#include "util/rng.h"

typedef struct MatchRun {
    const MatchPlan *plan;
    int64_t run_id, offset;
    GameWriter *wr;
    MatchResult *out;
    signed char *pair_result; /* 2 per pair: A's half points */
    bool *pair_done;          /* both games of the pair in */
    int64_t prefix;           /* pairs 0 .. prefix-1 are all in */
    MatchStats prefix_st;     /* their statistics: what the SPRT decides on */
    int64_t *todo;            /* job j plays pair todo[j]: the pairs not stored */
    int64_t *queued_pair;     /* the pair of each game given to the writer this session, in order */
    int64_t queued;
} MatchRun;

static const Opening *pair_opening(const MatchRun *mr, int64_t p)
{
    const MatchPlan *m = mr->plan;
    /* the book's lines in a seeded order, then the repeats in theirs */
    return p < m->book_len ? &m->book->items[(mr->offset + p) % m->book_len] : &m->book->items[p];
}

static void job_game(void *ctx, int64_t job, int k, int *white, int *black, Position *start)
{
    const MatchRun *mr = ctx;
    job = mr->todo[job];
    /* game 2p: A plays White; game 2p+1: A plays Black */
    *white = k == 0 ? 0 : 1;
    *black = k == 0 ? 1 : 0;
    char err[ERR_MAX];
    mr->plan->game->pos_from_fen(start, pair_opening(mr, job)->fen, err); /* checked before the run */
}

static int game_done(void *ctx, int64_t job, int k, int white, int black, const PlayRecord *rec, char err[ERR_MAX])
{
    MatchRun *mr = ctx;
    const MatchPlan *m = mr->plan;
    job = mr->todo[job];
    const Opening *op = pair_opening(mr, job);
    int white_half = outcome_score_white(rec->outcome);
    mr->pair_result[2 * job + k] = (signed char)(white == 0 ? white_half : 2 - white_half);
    mr->out->book_moves[white] += rec->book_moves[0];
    mr->out->book_moves[black] += rec->book_moves[1];
    if (rec->fault != PLAYER_OK && m->on_fault)
        m->on_fault(m->progress_ctx, 2 * job + k, rec->fault_side == COLOR_WHITE ? white : black, rec);
    /* a game of a pair half stored before a kill is played again (the pair
     * is one job) and not stored twice: the stored one counts (under a time
     * limit the replay may end otherwise, and the result printed would not
     * be the stored games') */
    if (m->stored && m->stored[2 * job + k] >= 0) {
        mr->pair_result[2 * job + k] = m->stored[2 * job + k];
        return 0;
    }
    DbGame meta = {.run_id = mr->run_id, .game_index = 2 * job + k, .game = m->game->name, .opening = op->label,
                   .start_fen = op->fen, .white_ws = m->ws_id[white], .black_ws = m->ws_id[black], .seed = m->seed};
    if (mr->wr->db) mr->queued_pair[mr->queued++] = job;
    if (mr->wr->db && game_writer_add(mr->wr, m->game, rec, &meta) != 0) {
        snprintf(err, ERR_MAX, "%s", mr->wr->err);
        return -1;
    }
    return 0;
}

/* The SPRT looks at the pairs in index order, each once all pairs before
 * it are in: the decision (pairs, LLR) is then the same whatever the
 * threads or MPI ranks, the order pairs end in, and the pairs a killed run
 * stored before it was resumed. Returns 1 when it decided now. */
static int take_prefix(MatchRun *mr)
{
    const MatchPlan *m = mr->plan;
    MatchResult *r = mr->out;
    int halt = 0;
    while (mr->prefix < m->pairs && mr->pair_done[mr->prefix]) {
        int64_t p = mr->prefix++;
        stats_add_pair(&mr->prefix_st, (StatsResult)mr->pair_result[2 * p], (StatsResult)mr->pair_result[2 * p + 1]);
        if (!m->sprt || r->decision != SPRT_CONTINUE) continue;
        /* The normal approximation of the LLR is meaningless on a handful of
         * pairs (one kind of pair result has ~zero variance): no decision
         * before MATCH_SPRT_MIN_PAIRS. */
        double llr = stats_compute_llr_ptnml(&mr->prefix_st, &m->sprt_params);
        if (mr->prefix >= MATCH_SPRT_MIN_PAIRS) r->decision = stats_decide_sprt(&m->sprt_params, llr);
        if (r->decision != SPRT_CONTINUE) {
            halt = 1;
            r->decided_pairs = mr->prefix;
            r->decided_llr = llr;
        }
    }
    return halt;
}

static int job_done(void *ctx, int64_t job, char err[ERR_MAX])
{
    (void)err;
    MatchRun *mr = ctx;
    const MatchPlan *m = mr->plan;
    MatchResult *r = mr->out;
    job = mr->todo[job];
    stats_add_pair(&r->st, (StatsResult)mr->pair_result[2 * job], (StatsResult)mr->pair_result[2 * job + 1]);
    mr->pair_done[job] = true;
    int halt = r->decision != SPRT_CONTINUE;
    halt |= take_prefix(mr);
    if (m->progress) m->progress(m->progress_ctx, &r->st);
    return halt;
}

/* The pairs stored before (plan->stored): counted as played, the SPRT
 * taken over them; *todo_len the pairs still to play (none once the SPRT
 * decided on the stored ones). */
static void take_stored(MatchRun *mr, int64_t *todo_len)
{
    const MatchPlan *m = mr->plan;
    for (int64_t p = 0; m->stored && p < m->pairs; p++) {
        if (m->stored[2 * p] < 0 || m->stored[2 * p + 1] < 0) continue;
        mr->pair_result[2 * p] = m->stored[2 * p];
        mr->pair_result[2 * p + 1] = m->stored[2 * p + 1];
        mr->pair_done[p] = true;
        stats_add_pair(&mr->out->st, (StatsResult)m->stored[2 * p], (StatsResult)m->stored[2 * p + 1]);
    }
    take_prefix(mr);
    *todo_len = 0;
    if (mr->out->decision != SPRT_CONTINUE) return;
    for (int64_t p = 0; p < m->pairs; p++)
        if (!mr->pair_done[p]) mr->todo[(*todo_len)++] = p;
}

void match_fill_row(DbMatch *m, const MatchResult *r, const MatchPlan *plan)
{
    const MatchStats *st = &r->st;
    const SprtParams *sp = &plan->sprt_params;
    EloEstimate e;
    bool pairs = stats_count_pairs(st) > 0;
    int ok = pairs ? stats_estimate_ptnml(st, &e) : stats_estimate_wdl(st, &e);
    m->games = stats_count_games(st);
    m->wins = st->wins;
    m->draws = st->draws;
    m->losses = st->losses;
    for (int i = 0; i < 5; i++) m->penta[i] = st->penta[i];
    /* no interval (NULL) where none can be estimated (one pair or game, or
     * all scored the same: a zero-width one said nothing), as the summary
     * line (stats_format_line) says */
    bool interval = ok == 0 && stats_interval_estimable(&e);
    m->elo = ok == 0 ? e.elo : 0.0 / 0.0;
    m->elo_lo = interval ? e.elo_lower : 0.0 / 0.0;
    m->elo_hi = interval ? e.elo_upper : 0.0 / 0.0;
    /* no SPRT (dama match without --sprt, train's ladder): no LLR and no
     * bounds (NULL), not the defaults' */
    m->llr = !plan->sprt ? 0.0 / 0.0 : pairs ? stats_compute_llr_ptnml(st, sp) : stats_compute_llr_wdl(st, sp);
    m->sprt_elo0 = plan->sprt ? sp->elo0 : 0.0 / 0.0;
    m->sprt_elo1 = plan->sprt ? sp->elo1 : 0.0 / 0.0;
    m->sprt_alpha = plan->sprt ? sp->alpha : 0.0 / 0.0;
    m->sprt_beta = plan->sprt ? sp->beta : 0.0 / 0.0;
    SprtDecision d = r->decision;
    m->sprt_result = !plan->sprt ? NULL : d == SPRT_ACCEPT_H1 ? "H1" : d == SPRT_ACCEPT_H0 ? "H0" : NULL;
    /* the LLR that decided, kept apart from the final one (llr) */
    m->sprt_llr = d != SPRT_CONTINUE ? r->decided_llr : 0.0 / 0.0;
    m->sprt_pairs = d != SPRT_CONTINUE ? r->decided_pairs : 0;
}

int match_play(Db *db, int64_t run_id, int64_t match_id, const MatchPlan *m, MatchResult *out, char err[ERR_MAX])
{
    memset(out, 0, sizeof *out);
    stats_init(&out->st);
    out->decision = SPRT_CONTINUE;
    if (m->pairs < 0 || m->pairs > m->book->len || m->book_len < 1 || m->book_len > m->book->len) {
        snprintf(err, ERR_MAX, "%lld pairs, but the opening book has %d lines", (long long)m->pairs, m->book->len);
        return -1;
    }
    for (int64_t p = 0; p < m->pairs && p < m->book->len; p++) {
        Position pos;
        if (m->game->pos_from_fen(&pos, m->book->items[p].fen, err) != 0) return -1;
    }
    size_t n = (size_t)(m->pairs > 0 ? m->pairs : 1);
    signed char *pair_result = malloc(n * 2);
    bool *pair_done = calloc(n, sizeof *pair_done);
    int64_t *todo = malloc(n * sizeof *todo);
    int64_t *queued_pair = malloc(2 * n * sizeof *queued_pair);
    if (!pair_result || !pair_done || !todo || !queued_pair) {
        free(pair_result), free(pair_done), free(todo), free(queued_pair);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    GameWriter wr;
    game_writer_init(&wr, db, 64, 1.0);
    MatchRun mr = {.plan = m, .run_id = run_id, .wr = &wr, .out = out, .pair_result = pair_result,
                   .pair_done = pair_done, .todo = todo, .queued_pair = queued_pair,
                   .offset = (int64_t)(rng_derive(m->seed, 0x6f70656eULL) % (uint64_t)m->book_len)};
    stats_init(&mr.prefix_st);
    int64_t todo_len = 0;
    take_stored(&mr, &todo_len);
    int32_t *weights[2] = {(int32_t *)m->weights[0], (int32_t *)m->weights[1]};
    Schedule s = {.game = m->game, .players_len = 2, .specs = m->specs, .weights = weights, .jobs_len = todo_len,
                  .games_per_job = 2, .concurrency = m->threads, .stop = m->stop, .ctx = &mr,
                  .settings = {.max_plies = m->max_plies}, .egtb = m->egtb, .egtb_pieces = m->egtb_pieces,
                  .egtb_probe = m->probe, .egtb_adjudicate = m->egtb_adjudicate, .job_game = job_game,
                  .game_done = game_done, .job_done = job_done};
    ScheduleStats sst = {0};
    int rc = todo_len == 0 ? 0
             : m->run_schedule ? m->run_schedule(m->run_ctx, &s, &sst, err)
                               : schedule_run(&s, &sst, err);
    out->wall_s = sst.wall_s;
    out->outside_share = schedule_outside_share(&sst);
    if (db && game_writer_flush(&wr) != 0 && rc >= 0) {
        snprintf(err, ERR_MAX, "%s", wr.err);
        rc = -1;
    }
    if (db && wr.failed) { /* the writer stores games in the order given: the first wr.stored */
        signed char *got = calloc(n, 1);
        for (int64_t i = 0; got && i < wr.stored && i < mr.queued; i++) got[mr.queued_pair[i]]++;
        for (int64_t p = 0; got && p < m->pairs; p++) {
            int before = m->stored ? (m->stored[2 * p] >= 0) + (m->stored[2 * p + 1] >= 0) : 0;
            if (pair_done[p] && before < 2 && got[p] < 2 - before) out->unstored_pairs++;
        }
        free(got);
    }
    out->complete = stats_count_pairs(&out->st) == m->pairs || out->decision != SPRT_CONTINUE;
    if (rc >= 0 && db) {
        DbMatch row = {.run_id = run_id, .game = m->game->name, .ws_a = m->ws_id[0], .ws_b = m->ws_id[1]};
        match_fill_row(&row, out, m);
        rc = db_match_update(db, match_id, &row, err);
        if (rc == 0) rc = db_run_finish(db, run_id, out->complete ? "done" : "interrupted", err);
    }
    game_writer_free(&wr);
    free(pair_result);
    free(pair_done);
    free(todo);
    free(queued_pair);
    return rc < 0 ? -1 : 0;
}

/* ---- the run of a match ------------------------------------------------ */

/* The weight sets of A and B stored (found by content, else stored with
 * run_id); a Hub engine (spec NULL) has none (0). */
static int store_weights(Db *db, const MatchPlan *plan, const char *const spec[2], const char **names, int64_t run_id,
                         int64_t ws[2], char err[ERR_MAX])
{
    for (int i = 0; i < 2; i++) {
        ws[i] = 0;
        if (spec[i] &&
            weights_store_base(db, plan->game, spec[i], plan->weights[i], names, run_id, &ws[i], err) != 0)
            return -1;
    }
    return 0;
}

/* The stored run claimed to resume (in the open transaction): its games'
 * results from A's view into stored. */
static int resume_run(Db *db, const MatchPlan *plan, MatchRows *rows, signed char *stored, char err[ERR_MAX])
{
    int rc = db_run_game_results(db, rows->run_id, stored, 2 * plan->pairs, err);
    for (int64_t p = 0; rc == 0 && p < plan->pairs; p++) {
        if (stored[2 * p + 1] >= 0) stored[2 * p + 1] = (signed char)(2 - stored[2 * p + 1]); /* A had Black */
        if (stored[2 * p] >= 0 && stored[2 * p + 1] >= 0) rows->stored_pairs++;
    }
    rows->resumed = rc == 0;
    return rc;
}

int match_open_run(Db *db, const MatchPlan *plan, const char *config, const char *const spec[2], const char **names,
                   MatchRows *rows, signed char *stored, char err[ERR_MAX])
{
    const Game *g = plan->game;
    memset(rows, 0, sizeof *rows);
    for (int64_t i = 0; i < 2 * plan->pairs; i++) stored[i] = -1;
    int64_t had[2] = {0, 0};
    /* The newest run of this match, claimed: refused (DB_BUSY) when
     * another live process plays it, else this process's. */
    DbClaim c;
    int rc = db_begin(db, err);
    if (rc == 0) rc = db_run_claim(db, DB_CLAIM_RESUME, "match", g->name, plan->seed, config, NULL, &c, err);
    if (rc != 0) return rc; /* a refusal or failure rolled the transaction back */
    rows->run_id = c.id;
    if (!c.created) rc = db_match_of_run(db, rows->run_id, &rows->match_id, had, err);
    if (rc == 0 && rows->match_id) rc = store_weights(db, plan, spec, names, rows->run_id, rows->ws, err);
    if (rc == 0 && rows->match_id && rows->ws[0] == had[0] && rows->ws[1] == had[1]) {
        rc = resume_run(db, plan, rows, stored, err);
        if (rc == 0) rc = db_commit(db, err);
        else db_rollback(db);
        return rc;
    }
    /* none, or its weights are others now ('tuned' names a newer set): a
     * new run, without the claim of the old one and the weight sets just
     * tied to it */
    if (rc == 0 && !c.created) {
        db_rollback(db);
        rc = db_begin(db, err);
        if (rc == 0) rc = db_run_claim(db, DB_CLAIM_NEW, "match", g->name, plan->seed, config, NULL, &c, err);
        if (rc != 0) return rc;
    }
    memset(rows, 0, sizeof *rows);
    rows->run_id = c.id;
    if (rc == 0) rc = store_weights(db, plan, spec, names, rows->run_id, rows->ws, err);
    DbMatch dm = {.run_id = rows->run_id, .game = g->name, .ws_a = rows->ws[0], .ws_b = rows->ws[1]};
    MatchResult empty = {.decision = SPRT_CONTINUE};
    stats_init(&empty.st);
    match_fill_row(&dm, &empty, plan);
    if (rc == 0) rc = db_match_insert(db, &dm, &rows->match_id, err);
    if (rc == 0) rc = db_commit(db, err);
    else db_rollback(db);
    return rc;
}

/* ---- a whole match ------------------------------------------------------- */

/* --mpi: the pairs over the ranks (pair p on rank p mod K), stored by rank 0. */
static int run_dist(void *ctx, const Schedule *s, ScheduleStats *stats, char err[ERR_MAX])
{
    (void)ctx;
    return dist_schedule_run(s, "match", stats, err);
}

/* The book of the match: made on every rank from the seed (--openings must
 * be readable on every node), repeated beyond its lines when asked.
 * Returns 0, or the exit status with err. */
static int match_book(const MatchOptions *o, MatchRunResult *r, OpeningBook *book, char err[ERR_MAX])
{
    const bool dist = r->ranks > 1;
    char oerr[ERR_MAX];
    if (openings_from_source(o->game, &o->openings, o->seed, book, err) != 0) {
        if (dist) dist_run_abort("match", false, err);
        return 1;
    }
    r->book_len = book->len;
    r->pairs = o->pairs ? o->pairs : book->len;
    if (r->pairs > book->len && !o->repeat_book) {
        /* Deterministic engines replay a repeated opening move for move:
         * the extra pairs would count the same games again. */
        snprintf(err, ERR_MAX, "--pairs %lld: the opening book has %d line%s (one pair each); give --pairs %d "
                 "or fewer, or --repeat-book to play each line again with distinct random plies after it",
                 (long long)r->pairs, book->len, book->len == 1 ? "" : "s", book->len);
        return 2;
    }
    if (r->pairs > book->len && openings_repeat(o->game, book, r->pairs, o->repeat_plies, o->seed, oerr) != 0) {
        snprintf(err, ERR_MAX, "--repeat-book: %.240s", oerr);
        if (dist) dist_run_abort("match", false, err);
        return 1;
    }
    return 0;
}

/* Side i (A = 0) is not an in-process engine. */
static bool external(const MatchOptions *o, int i)
{
    return o->cmds[i] || o->dxp[i];
}

/* Side i's name (who) and player spec: a DXP program (started by cmds[i]
 * when given), a Hub engine, or weights (ids: its weight set). */
static void match_side(const MatchOptions *o, int i, int64_t ids, char *who, size_t size, PlayerSpec *ps)
{
    PlayerKind kind = o->dxp[i] ? PLAYER_DXP : o->cmds[i] ? PLAYER_HUB : PLAYER_DAMA;
    if (o->dxp[i] && o->cmds[i]) snprintf(who, size, "DXP %.60s started by '%.80s'", o->dxp[i], o->cmds[i]);
    else if (o->dxp[i]) snprintf(who, size, "DXP %.150s", o->dxp[i]);
    else if (o->cmds[i]) snprintf(who, size, "'%.150s'", o->cmds[i]);
    else snprintf(who, size, "weight set %lld", (long long)ids);
    /* both engines in-process: the hash split between them as in self-play */
    *ps = (PlayerSpec){.kind = kind, .limits = o->limits, .hash_mb = o->hash_mb / 2 > 0 ? o->hash_mb / 2 : 1,
                       .book = o->books[i], .book_seed = o->seed};
    snprintf(ps->name, sizeof ps->name, "%c", 'A' + i);
    if (kind != PLAYER_DAMA) snprintf(ps->spec, sizeof ps->spec, "%s", kind == PLAYER_DXP ? o->dxp[i] : o->cmds[i]);
    if (kind == PLAYER_DXP && o->cmds[i]) snprintf(ps->launch, sizeof ps->launch, "%s", o->cmds[i]);
}

int match_identity(Db *db, const char *game, uint64_t seed, const char *config, const char *legacy,
                   const char **pick, char err[ERR_MAX])
{
    *pick = config;
    if (!legacy || strcmp(legacy, config) == 0) return 0;
    int64_t id = 0, old = 0;
    if (db_run_find(db, "match", game, seed, config, &id, NULL, err) != 0) return -1;
    if (id) return 0;
    if (db_run_find(db, "match", game, seed, legacy, &old, NULL, err) != 0) return -1;
    if (old) *pick = legacy;
    return 0;
}

/* Rank 0's set-up: the Hub engines start, A's and B's weights (w, ids),
 * and the run, the weight sets and the matches row stored in one
 * transaction, or the stored run of this match resumed (stored: its
 * games). *own: the database when this opened it. Returns 0, DB_BUSY (a
 * match of these options is running in another live process) or -1 with
 * err. */
static int match_store(Db *db, Db **own, const MatchOptions *o, int32_t *w[2], int64_t ids[2], MatchPlan *plan,
                       signed char *stored, MatchRunResult *r, char err[ERR_MAX])
{
    const Game *g = o->game;
    const char **names = weight_names_new(g);
    int rc = names ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    /* an engine command that cannot start is an error before the database
     * is touched, not a match of lost games */
    for (int i = 0; rc == 0 && i < 2; i++) {
        if (!o->cmds[i] || o->dxp[i]) continue; /* a DXP program serves one connection: not tried first */
        PlayerSpec ps = {.kind = PLAYER_HUB};
        snprintf(ps.name, sizeof ps.name, "%c", 'A' + i);
        snprintf(ps.spec, sizeof ps.spec, "%s", o->cmds[i]);
        rc = preflight_check_engine(g, &ps, i ? "--b-cmd" : "--a-cmd", o->stop, err);
    }
    if (rc == 0 && !db) rc = db_open(o->db_path, true, own, err);
    if (!db) db = *own;
    if (rc == 0 && !external(o, 0)) rc = weights_resolve_db(g, o->weights[0], db, w[0], &ids[0], err);
    const char *bspec = o->weights[1];
    char parent[32];
    if (rc == 0 && !bspec && external(o, 1)) bspec = "default"; /* not used */
    if (rc == 0 && !bspec) {
        DbWeightsInfo info = {0};
        if (ids[0] && db_weights_info(db, ids[0], &info, err) == 0 && info.parent_id) {
            snprintf(parent, sizeof parent, "db:%lld", (long long)info.parent_id);
            bspec = parent;
        } else {
            bspec = "default";
        }
        db_weights_info_clear(&info);
    }
    if (rc == 0 && !external(o, 1)) rc = weights_resolve_db(g, bspec, db, w[1], &ids[1], err);
    const char *spec[2] = {external(o, 0) ? NULL : o->weights[0], external(o, 1) ? NULL : bspec};
    MatchRows rows;
    const char *config = o->config;
    if (rc == 0) rc = match_identity(db, o->game->name, o->seed, o->config, o->legacy_config, &config, err);
    if (rc == 0) rc = match_open_run(db, plan, config, spec, names, &rows, stored, err);
    if (rc == 0) {
        ids[0] = plan->ws_id[0] = rows.ws[0];
        ids[1] = plan->ws_id[1] = rows.ws[1];
        r->run_id = rows.run_id;
        r->match_id = rows.match_id;
        r->stored_pairs = rows.resumed ? rows.stored_pairs : -1;
    }
    free((void *)names);
    return rc;
}

/* The missed wins of r's match, over all its stored games (read over a
 * connection of their own: match_draws_count; none for an in-memory
 * database, which no other connection sees). 0, or -1 with err. */
static int match_count_missed(Db *db, const Game *g, const Egtb *edb, MatchRunResult *r, char err[ERR_MAX])
{
    const char *path = db_path(db);
    if (!path || !path[0] || strcmp(path, ":memory:") == 0) return 0;
    MatchDraws d;
    memset(&d, 0, sizeof d); /* no reasons: only the missed wins are counted */
    if (match_draws_count(path, g, r->match_id, edb, &d, err) != 0) return -1;
    r->missed_counted = true;
    r->drawn = d.drawn;
    r->missed[0] = d.missed[0];
    r->missed[1] = d.missed[1];
    return 0;
}

/* Set up (rank 0 stores, the others get its verdict and both weight
 * vectors), then play. Returns the exit status. */
static int match_set_up_and_play(Db *db, const MatchOptions *o, MatchRunResult *r, const OpeningBook *book,
                                 const Egtb *edb, char err[ERR_MAX])
{
    const Game *g = o->game;
    const bool dist = r->ranks > 1;
    EVAL_AUTO_FREE int32_t *wa = eval_weights_new(g);
    EVAL_AUTO_FREE int32_t *wb = eval_weights_new(g);
    int32_t *w[2] = {wa, wb};
    int64_t ids[2] = {0, 0};
    signed char *stored = malloc((size_t)(r->pairs > 0 ? r->pairs : 1) * 2);
    int rc = wa && wb && stored ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc != 0 && dist) dist_run_abort("match", true, err);
    MatchPlan plan = {.game = g, .weights = {wa, wb}, .book = book, .book_len = r->book_len, .pairs = r->pairs,
                      .threads = r->threads, .max_plies = o->max_plies, .seed = o->seed, .sprt = o->sprt,
                      .sprt_params = o->sprt_params, .egtb = edb, .egtb_pieces = o->egtb_pieces,
                      .probe = {o->probe[0], o->probe[1]}, .egtb_adjudicate = o->egtb_adjudicate, .stop = o->stop};
    MatchResult *res = &r->res;
    *res = (MatchResult){.decision = SPRT_CONTINUE};
    stats_init(&res->st);
    Db *own = NULL;
    if (rc == 0 && r->writer) rc = match_store(db, &own, o, w, ids, &plan, stored, r, err);
    if (!db) db = own;
    if (dist) {
        int64_t go = rc;
        char berr[ERR_MAX];
        if (dist_sync_polled(berr) != 0 || dist_bcast_bytes(&go, sizeof go, 0, berr) != 0 ||
            (go == 0 && (dist_bcast_bytes(wa, sizeof(int32_t) * (size_t)g->weights_len, 0, berr) != 0 ||
                         dist_bcast_bytes(wb, sizeof(int32_t) * (size_t)g->weights_len, 0, berr) != 0 ||
                         dist_bcast_bytes(stored, (size_t)r->pairs * 2, 0, berr) != 0)))
            dist_run_abort("match", true, berr);
        rc = (int)go;
    }
    if (rc != 0) {
        if (!r->writer) err[0] = '\0'; /* rank 0 said why */
        db_close_discard_new(own);
        free(stored);
        return rc == DB_BUSY ? DB_BUSY : 1;
    }
    plan.stored = stored;
    for (int i = 0; i < 2; i++) match_side(o, i, ids[i], r->who[i], sizeof r->who[i], &plan.specs[i]);
    player_limits_text(&o->limits, r->limits, sizeof r->limits);
    if (o->on_start) o->on_start(o->ctx, r);
    plan.progress = o->progress;
    plan.on_fault = o->on_fault;
    plan.progress_ctx = o->ctx;
    if (dist) plan.run_schedule = run_dist;
    char merr[ERR_MAX];
    rc = match_play(r->writer ? db : NULL, r->run_id, r->match_id, &plan, res, merr);
    free(stored);
    plan.stored = NULL;
    if (!r->writer) { /* rank 0 decides the exit status */
        if (rc != 0) snprintf(err, ERR_MAX, "rank %d: %.236s", dist_rank(), merr);
        return dist_relay_final("match", 1);
    }
    DbMatch dm = {0};
    match_fill_row(&dm, res, &plan);
    r->llr = dm.llr;
    r->played = true;
    if (rc != 0) snprintf(err, ERR_MAX, "%s", merr);
    /* the time each side used, over all the match's stored games */
    char terr[ERR_MAX];
    if (rc == 0 && db_run_match_times(db, r->run_id, r->time, &r->untimed, terr) != 0) {
        snprintf(err, ERR_MAX, "%s", terr);
        rc = -1;
    }
    r->timed = rc == 0;
    if (rc == 0 && edb && match_count_missed(db, g, edb, r, terr) != 0) {
        snprintf(err, ERR_MAX, "%s", terr);
        rc = -1;
    }
    db_close_discard_new(own);
    int final_rc = rc != 0 ? 1 : res->complete ? 0 : 3;
    return dist ? dist_relay_final("match", final_rc) : final_rc;
}

int match_run(Db *db, const MatchOptions *o, MatchRunResult *r, char err[ERR_MAX])
{
    memset(r, 0, sizeof *r);
    err[0] = '\0';
    const Game *g = o->game;
    r->ranks = dist_size();
    r->writer = dist_rank() == 0;
    const bool dist = r->ranks > 1;
    Egtb *edb = NULL;
    char eerr[ERR_MAX];
    if (o->egtb_pieces < 0 || o->egtb_pieces > EGTB_PIECES_MAX)
        snprintf(err, ERR_MAX, "--egtb-pieces must be 0..%d", EGTB_PIECES_MAX);
    else if (o->egtb_dir && *o->egtb_dir && !(edb = egtb_open(g, o->egtb_dir, false, eerr)))
        snprintf(err, ERR_MAX, "--egtb: %.247s", eerr);
    if (err[0]) {
        if (dist) dist_run_abort("match", false, err);
        return 1;
    }
    r->threads = o->threads ? o->threads : dist_node_cores(); /* all cores, shared by the ranks of a node */
    if (o->dxp[0] || o->dxp[1]) {
        /* a DXP program plays one game at a time, on its one connection */
        if (o->threads > 1 || dist) {
            snprintf(err, ERR_MAX, "engine %c is reached over DXP and plays one game at a time: give --threads 1 "
                     "and one process", o->dxp[0] ? 'A' : 'B');
            if (dist) dist_run_abort("match", false, err);
            return 2;
        }
        r->threads = 1;
    }
    char opt[48]; /* each game slot holds its in-process engines, the hash split between them */
    snprintf(opt, sizeof opt, "--hash %lld", (long long)o->hash_mb);
    if (preflight_check_hash(g, o->hash_mb / 2 > 0 ? o->hash_mb / 2 : 1, r->threads * (!external(o, 0) + !external(o, 1)),
                             opt, err) != 0) {
        if (dist) dist_run_abort("match", false, err);
        egtb_close(edb);
        return 1;
    }
    OpeningBook book = {0};
    int rc = match_book(o, r, &book, err);
    if (rc == 0) rc = match_set_up_and_play(db, o, r, &book, edb, err);
    egtb_close(edb);
    openings_free(&book);
    return rc;
}
