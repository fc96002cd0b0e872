/* match.c — a two-player match through the tournament scheduler
 * (contracts in play/match.h). */
#include "arena/match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "arena/game_writer.h"
#include "arena/schedule.h"
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
    const Opening *op = pair_opening(mr, job);
    int white_half = outcome_score_white(rec->outcome);
    mr->pair_result[2 * job + k] = (signed char)(white == 0 ? white_half : 2 - white_half);
    DbGame meta = {.run_id = mr->run_id, .game_index = 2 * job + k, .game = m->game->name, .opening = op->label,
                   .start_fen = op->fen, .white_ws = m->ws_id[white], .black_ws = m->ws_id[black], .seed = m->seed};
    if (mr->wr->db && game_writer_add(mr->wr, m->game, rec, &meta) != 0) {
        snprintf(err, ERR_MAX, "%s", mr->wr->err);
        return -1;
    }
    return 0;
}

static int job_done(void *ctx, int64_t job, char err[ERR_MAX])
{
    (void)err;
    MatchRun *mr = ctx;
    const MatchPlan *m = mr->plan;
    MatchResult *r = mr->out;
    stats_add_pair(&r->st, (StatsResult)mr->pair_result[2 * job], (StatsResult)mr->pair_result[2 * job + 1]);
    mr->pair_done[job] = true;
    int halt = r->decision != SPRT_CONTINUE;
    /* The SPRT looks at the pairs in index order, each once all pairs
     * before it are in: the decision (pairs, LLR) is then the same whatever
     * the threads or MPI ranks and the order pairs end in. */
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
    if (m->progress) m->progress(m->progress_ctx, &r->st);
    return halt;
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
    m->elo = ok == 0 ? e.elo : 0.0 / 0.0;
    m->elo_lo = ok == 0 ? e.elo_lower : 0.0 / 0.0;
    m->elo_hi = ok == 0 ? e.elo_upper : 0.0 / 0.0;
    m->llr = pairs ? stats_compute_llr_ptnml(st, sp) : stats_compute_llr_wdl(st, sp);
    m->sprt_elo0 = sp->elo0;
    m->sprt_elo1 = sp->elo1;
    m->sprt_alpha = sp->alpha;
    m->sprt_beta = sp->beta;
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
    signed char *pair_result = malloc((size_t)(m->pairs > 0 ? m->pairs : 1) * 2);
    bool *pair_done = calloc((size_t)(m->pairs > 0 ? m->pairs : 1), sizeof *pair_done);
    if (!pair_result || !pair_done) {
        free(pair_result), free(pair_done);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    GameWriter wr;
    game_writer_init(&wr, db, 64, 1.0);
    MatchRun mr = {.plan = m, .run_id = run_id, .wr = &wr, .out = out, .pair_result = pair_result,
                   .pair_done = pair_done, .offset = (int64_t)(rng_derive(m->seed, 0x6f70656eULL) % (uint64_t)m->book_len)};
    int32_t *weights[2] = {(int32_t *)m->weights[0], (int32_t *)m->weights[1]};
    Schedule s = {.game = m->game, .players_len = 2, .specs = m->specs, .weights = weights, .jobs_len = m->pairs,
                  .games_per_job = 2, .concurrency = m->threads, .stop = m->stop, .ctx = &mr,
                  .settings = {.max_plies = m->max_plies}, .egtb = m->egtb, .egtb_pieces = m->egtb_pieces,
                  .egtb_probe = m->probe, .egtb_adjudicate = m->egtb_adjudicate, .job_game = job_game,
                  .game_done = game_done, .job_done = job_done};
    ScheduleStats sst;
    stats_init(&mr.prefix_st);
    int rc = m->run_schedule ? m->run_schedule(m->run_ctx, &s, &sst, err) : schedule_run(&s, &sst, err);
    out->wall_s = sst.wall_s;
    out->outside_share = schedule_outside_share(&sst);
    if (db && game_writer_flush(&wr) != 0 && rc >= 0) {
        snprintf(err, ERR_MAX, "%s", wr.err);
        rc = -1;
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
    return rc < 0 ? -1 : 0;
}
