/* selfplay_report.c — a self-play run's lines (contracts in
 * cli/selfplay_report.h). */
#include "cli/selfplay_report.h"

#include "db/db.h"
#include "dist/dist.h"
#include "util/clock.h"
#include "util/text.h"

void selfplay_report_init(SelfplayReport *p, const SelfplayOptions *o, FILE *out, double interval_s)
{
    *p = (SelfplayReport){.o = o, .out = out, .interval = interval_s};
    run_progress_init(&p->prog, "selfplay", 0, 0);
}

static void banner(const SelfplayReport *p, const SelfplayResult *r)
{
    const SelfplayOptions *o = p->o;
    bool dist = r->ranks > 1;
    char shard[64] = "";
    int at = 0;
    if (o->shard_k > 1)
        at = snprintf(shard, sizeof shard, ", shard %lld/%lld", (long long)o->shard_r, (long long)o->shard_k);
    if (dist) snprintf(shard + at, sizeof shard - (size_t)at, ", %d ranks over MPI", r->ranks);
    char limit[48];
    if (o->depth) snprintf(limit, sizeof limit, "depth %d a move", o->depth);
    else snprintf(limit, sizeof limit, "%lld nodes/move", (long long)o->nodes);
    fprintf(stderr, "selfplay %s: run %lld%s, %lld games (%lld stored)%s, %s, %lld thread%s%s, %s, "
            "%d openings\n", o->game->name, (long long)r->run_id, r->resumed ? " resumed" : "", (long long)o->games,
            (long long)r->already, shard, limit, (long long)o->threads, TEXT_PLURAL(o->threads), dist ? " a rank" : "",
            o->perturb == SELFPLAY_PERTURB_PAIRS ? "base +- a perturbation per pair" : "fixed population",
            r->openings);
}

void selfplay_report_event(void *ctx, SelfplayEvent ev, const SelfplayResult *r)
{
    SelfplayReport *p = ctx;
    bool line = p->interval > 0 && r->setup_seconds - p->last_line >= p->interval;
    switch (ev) {
    case SELFPLAY_EVENT_MEMBER_LOADED:
        if (!line) return;
        p->last_line = r->setup_seconds;
        fprintf(stderr, "selfplay: set-up: %lld/%lld stored members loaded\n", (long long)r->members_loaded,
                (long long)r->members_found);
        return;
    case SELFPLAY_EVENT_MEMBERS_STORED:
        if (!line) return;
        p->last_line = r->setup_seconds;
        fprintf(stderr, "selfplay: set-up: %lld/%lld members stored (%.1f s)\n", (long long)r->members_stored,
                (long long)r->members, r->setup_seconds);
        return;
    case SELFPLAY_EVENT_START:
        banner(p, r);
        run_progress_init(&p->prog, "selfplay", r->to_play, p->interval);
        if (r->ranks > 1) p->prog.ranks = r->ranks, p->prog.rank_games = r->rank_games;
        return;
    case SELFPLAY_EVENT_GAME:
        run_progress_update(&p->prog, r->played, r->wdl, false);
        return;
    }
}

int selfplay_report_end(SelfplayReport *p, int status, const SelfplayResult *r, const char *err)
{
    const SelfplayOptions *o = p->o;
    int code = status == SELFPLAY_DONE ? 0 : status == SELFPLAY_INTERRUPTED ? 3 : status == SELFPLAY_BUSY ? DB_BUSY : 1;
    if (dist_rank() != 0) return code; /* rank 0 reports */
    switch (r->end) {
    case SELFPLAY_END_FAILED:
    case SELFPLAY_END_BUSY: /* err says who writes the run */
        break;
    case SELFPLAY_END_ALREADY_STORED:
        if (r->already == o->games)
            fprintf(p->out, "selfplay run %lld already holds these %lld games (same game, seed and configuration)%s\n",
                    (long long)r->run_id, (long long)o->games,
                    p->in_train ? "" : "; use another --seed or a larger --games for more");
        else
            fprintf(p->out, "selfplay run %lld already holds the %lld games of shard %lld/%lld\n",
                    (long long)r->run_id, (long long)((o->games - o->shard_r + o->shard_k - 1) / o->shard_k),
                    (long long)o->shard_r, (long long)o->shard_k);
        break;
    case SELFPLAY_END_SETUP_INTERRUPTED:
        fprintf(p->out, "selfplay run %lld: set-up interrupted with %lld of %lld members stored; run the same "
                "command again to resume\n", (long long)r->run_id, (long long)r->members_stored,
                (long long)r->members);
        break;
    case SELFPLAY_END_SETUP_STOPPED:
        fprintf(p->out, "selfplay run %lld: interrupted during the set-up; run the same command again to resume\n",
                (long long)r->run_id);
        break;
    case SELFPLAY_END_PLAYED: {
        run_progress_update(&p->prog, r->played, r->wdl, true);
        double dt = clock_now_s() - p->prog.start;
        /* a write that failed (a full disk) left played games unstored: the
         * positions are those played, so say both */
        char session[160];
        if (r->stored == r->played)
            snprintf(session, sizeof session, "%lld this session, %lld positions", (long long)r->stored,
                     (long long)r->positions);
        else
            snprintf(session, sizeof session, "%lld this session; %lld games and %lld positions played, %lld not stored",
                     (long long)r->stored, (long long)r->played, (long long)r->positions,
                     (long long)(r->played - r->stored));
        fprintf(p->out, "selfplay run %lld: %lld games stored (%s), %.2f games/s, White +%lld =%lld -%lld%s\n",
                (long long)r->run_id, (long long)r->total_stored, session, dt > 0 ? (double)r->played / dt : 0.0,
                (long long)r->wdl[0], (long long)r->wdl[1], (long long)r->wdl[2],
                r->complete         ? ""
                : err && err[0] ? " — stopped by the error below; run the same command again to resume once it is mended"
                                : " — interrupted; run the same command again to resume");
        if (r->ranks > 1) {
            fprintf(p->out, "  by rank:");
            for (int k = 0; k < r->ranks; k++) fprintf(p->out, " %d: %lld", k, (long long)r->rank_games[k]);
            fprintf(p->out, " games\n");
        }
        break;
    }
    }
    if (err && err[0]) fprintf(stderr, "dama selfplay: %s\n", err);
    return code;
}
