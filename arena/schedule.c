/* schedule.c — the tournament scheduler (contracts in play/schedule.h). */
#include "arena/schedule.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/egtb/egtb.h"
#include "engine/search.h"
#include "util/clock.h"

enum { EGTB_CACHE_BLOCKS = 1024 }; /* per thread, as self-play's probers */

double schedule_outside_share(const ScheduleStats *st)
{
    double slot_s = st->wall_s * (st->slots > 0 ? st->slots : 1);
    if (!(slot_s > 0)) return 0;
    double share = 1.0 - st->engine_s / slot_s;
    return share < 0 ? 0 : share;
}

typedef struct Shared {
    const Schedule *s;
    ScheduleStats st;
    bool halt, failed, stopped;
    char err[ERR_MAX];
} Shared;

static void fail(Shared *sh, const char *msg)
{
    if (sh->failed) return;
    sh->failed = true;
    snprintf(sh->err, sizeof sh->err, "%s", msg);
}

/* Hand a callback's answer to the shared state (caller holds the lock). */
static void answer(Shared *sh, int rc, const char *msg)
{
    if (rc < 0) fail(sh, msg[0] ? msg : "a scheduler callback failed");
    else if (rc > 0) sh->halt = sh->st.halted = true;
}

static void play_jobs(Shared *sh)
{
    const Schedule *s = sh->s;
    Player **inst = calloc((size_t)s->players_len, sizeof *inst);
    PlayRecord rec;
    char err[ERR_MAX] = "";
    bool ok = inst && play_record_init(&rec) == 0;
    if (!ok) snprintf(err, sizeof err, "out of memory");
    EgtbProber *prober = NULL;
    if (ok && s->egtb && !(prober = egtb_prober_new(s->egtb, s->egtb_pieces, EGTB_CACHE_BLOCKS))) {
        snprintf(err, sizeof err, "out of memory for an endgame-database prober");
        ok = false;
    }
    PlaySettings ps = s->settings;
    if (prober && s->egtb_adjudicate) {
        ps.adjudicate = egtb_adjudicate;
        ps.adjudicate_ctx = prober;
    }
    if (!ok) {
#pragma omp critical(schedule)
        fail(sh, err);
    }
#pragma omp for schedule(dynamic, 1)
    for (int64_t job = 0; job < s->jobs_len; job++) {
        bool skip;
#pragma omp critical(schedule)
        {
            if (s->halt && *s->halt) sh->halt = sh->st.halted = true;
            skip = !ok || sh->halt || sh->failed || sh->stopped || (s->stop && *s->stop);
        }
        if (skip) continue;
        bool complete = true;
        for (int k = 0; k < s->games_per_job && complete; k++) {
            int w = 0, b = 0;
            Position start;
            s->job_game(s->ctx, job, k, &w, &b, &start);
            for (int c = 0; c < 2 && ok; c++) {
                int who = c ? b : w;
                if (inst[who]) continue;
                const int32_t *weights = s->weights ? s->weights[who] : NULL;
                inst[who] = player_new(s->game, &s->specs[who], weights, s->stop, err);
                if (!inst[who]) {
                    ok = false;
                    break;
                }
                Engine *e = player_engine(inst[who]);
                if (e && prober && (!s->egtb_probe || s->egtb_probe[who])) engine_set_probe(e, egtb_engine_probe, prober);
                if (s->player_made) s->player_made(s->ctx, who, inst[who]);
            }
            if (!ok) {
#pragma omp critical(schedule)
                fail(sh, err);
                complete = false;
                break;
            }
            Player *pl[2] = {inst[w], inst[b]};
            int prc = play_game_players(s->game, pl, &start, &ps, s->stop, &rec, err);
            /* a table found damaged read as absent in this game's probes:
             * the game is not what the tables would have made it, and is not
             * stored (damage is sticky: the games before did not touch it) */
            char dpath[4096], dwhy[ERR_MAX];
            if (prc == 0 && s->egtb && egtb_damage(s->egtb, dpath, dwhy) > 0) {
                snprintf(err, ERR_MAX, "endgame table %.100s: %.50s; the game that read it is not stored (rebuild "
                         "it, or play without it)", dpath, dwhy);
                prc = -1;
            }
            if (prc != 0) {
#pragma omp critical(schedule)
                {
                    if (prc < 0) fail(sh, err);
                    else sh->stopped = true;
                }
                complete = false;
                break;
            }
#pragma omp critical(schedule)
            {
                if (sh->failed) {
                    complete = false;
                } else {
                    sh->st.games++;
                    sh->st.engine_s += rec.engine_seconds;
                    if (rec.fault != PLAYER_OK) sh->st.faults++;
                    if (s->game_done) {
                        char cerr[ERR_MAX] = "";
                        answer(sh, s->game_done(s->ctx, job, k, w, b, &rec, cerr), cerr);
                    }
                }
            }
        }
        if (!complete) continue;
#pragma omp critical(schedule)
        {
            if (!sh->failed) {
                sh->st.jobs++;
                if (s->job_done) {
                    char cerr[ERR_MAX] = "";
                    answer(sh, s->job_done(s->ctx, job, cerr), cerr);
                }
            }
        }
    }
    for (int i = 0; inst && i < s->players_len; i++) player_free(inst[i]);
    free(inst);
    egtb_prober_free(prober);
    if (ok) play_record_free(&rec);
}

int schedule_run(const Schedule *s, ScheduleStats *stats, char err[ERR_MAX])
{
    Shared sh;
    memset(&sh, 0, sizeof sh);
    sh.s = s;
    int threads = s->concurrency > 0 ? s->concurrency : 1;
    if ((int64_t)threads > s->jobs_len) threads = s->jobs_len > 0 ? (int)s->jobs_len : 1;
    sh.st.slots = s->jobs_len > 0 ? threads : 0;
    double t0 = clock_now_s();
    if (s->jobs_len > 0) {
#pragma omp parallel num_threads(threads)
        play_jobs(&sh);
    }
    sh.st.wall_s = clock_now_s() - t0;
    if (stats) *stats = sh.st;
    if (sh.failed) {
        snprintf(err, ERR_MAX, "%s", sh.err);
        return -1;
    }
    return !sh.halt && sh.st.jobs < s->jobs_len ? 1 : 0;
}
