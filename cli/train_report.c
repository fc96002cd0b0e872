/* train_report.c — the lines of `dama train` (contracts in
 * cli/train_report.h). */
#include "cli/train_report.h"

#include <math.h>
#include <stdlib.h>

#include "db/db.h"
#include "dist/dist.h"
#include "util/num.h"
#include "util/text.h"

void train_report_init(TrainReport *p, const TrainOptions *o, double interval_s)
{
    *p = (TrainReport){.o = o, .interval = interval_s, .shown = o->selfplay};
    p->shown.game = o->game;
    p->shown.games = o->games_per_gen;
    p->shown.nodes = o->nodes;
    p->shown.threads = o->threads;
    p->shown.shard_r = 0;
    p->shown.shard_k = 1;
    selfplay_report_init(&p->selfplay, &p->shown, stderr, interval_s);
    p->selfplay.in_train = true;
}

static void fmt_elo(char *out, size_t size, double elo, double lo, double hi)
{
    if (isfinite(elo)) elo = num_shown(elo, 1); /* a -1.9e-14 read "-0.0" */
    if (isnan(elo)) snprintf(out, size, "-");
    else if (isinf(elo)) snprintf(out, size, "not estimable (%s)", elo > 0 ? "100%" : "0%"); /* a score of 100% or 0% */
    else if (isnan(lo) || isnan(hi) || isinf(lo) || isinf(hi)) snprintf(out, size, "%+.1f", elo);
    else snprintf(out, size, "%+.1f +- %.1f", elo, (hi - lo) / 2);
}

static void match_start(TrainReport *p, const TrainMatch *m)
{
    char limit[64], ranks[48] = "";
    player_limits_text(&m->limits, limit, sizeof limit);
    if (dist_size() > 1) snprintf(ranks, sizeof ranks, " a rank, %d ranks over MPI", dist_size());
    fprintf(stderr, "match %s: run %lld, A = weight set %lld, B = weight set %lld, %lld pair%s, limit %s, %d thread%s%s\n",
            p->o->game->name, (long long)m->run_id, (long long)m->ws[0], (long long)m->ws[1], (long long)m->pairs,
            TEXT_PLURAL(m->pairs), limit, m->threads, TEXT_PLURAL(m->threads), ranks);
    run_progress_init(&p->match, "match", m->pairs * 2, p->interval);
}

/* The match's lines as `dama match` prints them (inside train: on stderr). */
static void match_end(const TrainReport *p, const TrainMatch *m, int status, const char *err)
{
    if (dist_rank() != 0) {
        if (status != 0) fprintf(stderr, "dama match: rank %d: %s\n", dist_rank(), err);
        return;
    }
    if (!m->played) {
        fprintf(stderr, "dama match: %s\n", err);
        return;
    }
    const MatchStats *st = &m->result.st;
    const SprtParams *sp = &m->sprt;
    char line[STATS_LINE_MAX];
    stats_format_line(st, m->gate ? sp : NULL, line); /* the LLR only where the SPRT gates */
    fprintf(stderr, "match %lld (run %lld): A = weight set %lld vs B = weight set %lld\n%s\n", (long long)m->id,
            (long long)m->run_id, (long long)m->ws[0], (long long)m->ws[1], line);
    if (m->gate) {
        fprintf(stderr, "SPRT [%g, %g] alpha %g beta %g: ", sp->elo0, sp->elo1, sp->alpha, sp->beta);
        SprtDecision d = m->result.decision;
        char said[96];
        stats_sprt_phrase(sp, d, said, sizeof said);
        if (d == SPRT_CONTINUE)
            fprintf(stderr, "%s\n", said);
        else
            fprintf(stderr, "%s after %lld pairs at LLR %.2f; the pairs already under way were finished: final LLR "
                    "%.2f after %lld pairs\n",
                    said,
                    (long long)m->result.decided_pairs, m->result.decided_llr, m->row->llr,
                    (long long)stats_count_pairs(st));
    }
    if (m->pairs > m->book_len)
        fprintf(stderr, "openings: %d book lines; pairs %d to %lld repeat them, each with %lld distinct random plies "
                "after the line (--repeat-book)\n", m->book_len, m->book_len + 1, (long long)m->pairs,
                (long long)p->o->repeat_plies);
    if (!m->result.complete)
        fprintf(stderr, "interrupted after %lld of %lld pair%s\n", (long long)stats_count_pairs(st), (long long)m->pairs,
                TEXT_PLURAL(m->pairs));
    if (status != 0) fprintf(stderr, "dama match: %s\n", err);
}

static void start(const TrainReport *p, const TrainResult *r)
{
    const TrainOptions *o = p->o;
    char ranks[48] = "";
    if (dist_size() > 1) snprintf(ranks, sizeof ranks, " a rank, %d ranks over MPI", dist_size());
    fprintf(stderr, "train %s: train %lld%s, generations 1..%d, %lld games and %lld nodes/move per generation, "
            "window %d, gate SPRT [%g, %g] within %lld pair%s, ladder %lld pair%s, %d thread%s%s\n",
            o->game->name, (long long)r->id, r->resumed ? " resumed" : "", o->generations, (long long)o->games_per_gen,
            (long long)o->nodes, o->window, o->gate.elo0, o->gate.elo1, (long long)o->gate_pairs,
            TEXT_PLURAL(o->gate_pairs), (long long)o->ladder_pairs, TEXT_PLURAL(o->ladder_pairs), o->threads,
            TEXT_PLURAL(o->threads), ranks);
    if (r->other_interrupted)
        fprintf(stderr, "note: train %lld of %s, interrupted, was started with other options: this is a new train "
                        "(train %lld); the options of train %lld resume that one\n",
                (long long)r->other_interrupted, o->game->name, (long long)r->id, (long long)r->other_interrupted);
    printf("train %lld (%s)%s: generation 0 = weight set %lld\n", (long long)r->id, o->game->name,
           r->resumed ? " resumed" : "", (long long)r->start_ws);
    fflush(stdout); /* before the stages' lines, which flush, and stderr's */
}

/* A stage's line on stdout. */
static void stage(const TrainReport *p, const TrainEvent *ev)
{
    const DbGeneration *gen = ev->gen;
    char elo[48];
    switch (ev->kind) {
    case TRAIN_EVENT_SELFPLAY:
        printf("generation %d selfplay: run %lld, %lld games with weight set %lld (perturbed %s)\n", gen->generation,
               (long long)gen->selfplay_run, (long long)p->o->games_per_gen, (long long)gen->parent_ws,
               p->o->selfplay.perturb == SELFPLAY_PERTURB_PAIRS ? "per pair" : "as a fixed population");
        break;
    case TRAIN_EVENT_TUNE: {
        const TuneJobResult *r = ev->tune;
        char v0[TUNE_LOSS_TEXT_MAX], v1[TUNE_LOSS_TEXT_MAX];
        printf("generation %d tune: tuning run %lld on runs %s (%zu positions), valid loss %s -> %s: "
               "candidate weight set %lld%s\n",
               gen->generation, (long long)r->tuning_id, gen->data_runs, r->positions,
               tune_loss_text(r->texel.valid_loss_start, 6, v0), tune_loss_text(r->texel.valid_loss, 6, v1),
               (long long)r->result_ws, r->existed ? " (same weights as that set, stored before: not named again)" : "");
        if (gen->accepted == 0) printf("generation %d gate: rejected: %s\n", gen->generation, gen->reason);
        break;
    }
    case TRAIN_EVENT_GATE:
        fmt_elo(elo, sizeof elo, gen->gate_elo, gen->gate_elo_lo, gen->gate_elo_hi);
        printf("generation %d gate: match %lld, candidate %lld vs best %lld: Elo %s in %lld games; %s: %s\n",
               gen->generation, (long long)gen->gate_match, (long long)gen->candidate_ws, (long long)gen->parent_ws,
               elo, (long long)gen->gate_games, gen->accepted == 1 ? "accepted" : "rejected", gen->reason);
        break;
    case TRAIN_EVENT_LADDER:
        fmt_elo(elo, sizeof elo, gen->ladder_elo, gen->ladder_elo_lo, gen->ladder_elo_hi);
        printf("generation %d ladder: match %lld, weight set %lld vs generation 0 (%lld): Elo %s in %lld games\n",
               gen->generation, (long long)gen->ladder_match, (long long)gen->candidate_ws,
               (long long)ev->train->start_ws, elo, (long long)gen->ladder_games);
        break;
    default:
        return;
    }
    fflush(stdout);
}

void train_report_event(void *ctx, const TrainEvent *ev)
{
    TrainReport *p = ctx;
    switch (ev->kind) {
    case TRAIN_EVENT_START:
        start(p, ev->train);
        return;
    case TRAIN_EVENT_SELFPLAY_END:
        selfplay_report_end(&p->selfplay, ev->status, ev->selfplay, ev->text);
        selfplay_report_init(&p->selfplay, &p->shown, stderr, p->interval); /* the next generation's */
        p->selfplay.in_train = true;
        return;
    case TRAIN_EVENT_MATCH_START:
        match_start(p, ev->match);
        return;
    case TRAIN_EVENT_MATCH_PAIR: {
        int64_t wdl[3] = {ev->pairs->wins, ev->pairs->draws, ev->pairs->losses};
        run_progress_update(&p->match, stats_count_games(ev->pairs), wdl, false);
        return;
    }
    case TRAIN_EVENT_MATCH_END:
        match_end(p, ev->match, ev->status, ev->text);
        return;
    default:
        stage(p, ev);
        return;
    }
}

int train_print_ladder(struct Db *db, int64_t train_id, const char *game, char err[ERR_MAX])
{
    DbGeneration *gens;
    int len;
    if (train_generations_read(db, train_id, &gens, &len, err) != 0) return -1;
    int best = 0, accepted = 0;
    for (int i = 1; i < len; i++)
        if (gens[i].accepted == 1) best = i, accepted++;
    printf("train %lld (%s): %d generation%s after 0, %d accepted; best: generation %d (weight set %lld)\n",
           (long long)train_id, game, len > 0 ? len - 1 : 0, len == 2 ? "" : "s", accepted, best,
           (long long)(len ? gens[best].candidate_ws : 0));
    printf("%4s %6s %9s %-22s %6s %-9s %-20s %6s\n", "gen", "parent", "candidate", "gate Elo vs parent", "games",
           "accepted", "Elo vs gen 0", "games");
    for (int i = 0; i < len; i++) {
        const DbGeneration *g = &gens[i];
        char gate[48], ladder[48], parent[16], games[16], lgames[16];
        fmt_elo(gate, sizeof gate, g->gate_elo, g->gate_elo_lo, g->gate_elo_hi);
        fmt_elo(ladder, sizeof ladder, g->ladder_elo, g->ladder_elo_lo, g->ladder_elo_hi);
        snprintf(parent, sizeof parent, i == 0 ? "-" : "%d", g->parent_generation);
        snprintf(games, sizeof games, g->gate_match ? "%lld" : "-", (long long)g->gate_games);
        snprintf(lgames, sizeof lgames, g->ladder_match || i == 0 ? "%lld" : "-", (long long)g->ladder_games);
        /* a generation not finished: no candidate yet (0), and its stage, in
         * parentheses, where its verdict will be */
        char acc[24], cand[24] = "-";
        const char *verdict = i == 0 ? "start" : g->accepted == 1 ? "yes" : g->accepted == 0 ? "no" : NULL;
        if (verdict) snprintf(acc, sizeof acc, "%s", verdict);
        else snprintf(acc, sizeof acc, "(%.20s)", g->stage ? g->stage : "?");
        if (g->candidate_ws) snprintf(cand, sizeof cand, "%lld", (long long)g->candidate_ws);
        printf("%4d %6s %9s %-22s %6s %-9s %-20s %6s\n", i, parent, cand, gate, games, acc, ladder, lgames);
    }
    free(gens);
    return 0;
}
