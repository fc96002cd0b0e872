/* search.c — iterative-deepening PVS over any Game (it sees positions only
 * through the Game table): the iterations, aspiration windows, lazy SMP
 * and the time control of engine_search.
 *
 * - Aspiration windows from ASP_DEPTH, widened on a fail.
 * - Lazy SMP: helper threads iterate over the shared TT; every thread
 *   starts at the depth after the deepest one completed (helpers from the
 *   third on: odd ones a ply further), and a thread whose depth another
 *   completes drops its iteration and goes on (the main thread adopts that
 *   result), so no depth is finished twice; the first to complete the
 *   depth limit ends the search; the result is the deepest completed
 *   iteration.
 * - Time: the time manager's soft and hard limits (engine/timeman.h); no
 *   new iteration past half the soft limit (scaled when the best move
 *   changes or the score drops), a stop at the hard limit.
 * - The node search (PVS, quiescence, pruning, extensions) is
 *   search_alphabeta.c, the transposition table search_tt.h, move ordering
 *   search_order.h, the Engine's life and parameters search_engine.c;
 *   search_internal.h holds what they share.
 * - Constants: engine/search_params.def. */
#include "engine/search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "engine/search_internal.h"
#include "engine/timeman.h"
#include "util/clock.h"

size_t engine_hash_mb_for(const SearchLimits *lim)
{
    int64_t soft, hard;
    engine_time_budget(lim, &soft, &hard);
    if (hard <= 0) return 16;
    size_t mb = 1;
    while (mb < 64 && (int64_t)(mb * 2) * 25 <= hard) mb *= 2;
    return mb;
}

void engine_time_budget(const SearchLimits *lim, int64_t *soft_ms, int64_t *hard_ms)
{
    *soft_ms = *hard_ms = 0;
    if (lim->movetime_ms > 0) {
        *soft_ms = *hard_ms = lim->movetime_ms < TIMEMAN_CLOCK_MAX_MS ? lim->movetime_ms : TIMEMAN_CLOCK_MAX_MS;
        return;
    }
    if (lim->time_ms > 0) timeman_budget(lim->time_ms, lim->inc_ms, lim->movestogo, soft_ms, hard_ms);
}

/* A move of an unfinished iteration (a fail-high, or an interrupted
 * iteration whose first root move was searched) becomes the best move, and
 * its line the PV, so that the PV always starts with the best move; score
 * and depth stay those of the last completed iteration. */
static void keep_partial_pv(const Worker *w, SearchResult *r)
{
    if (w->pv_len[0] <= 0) return;
    r->best = w->pv[0][0];
    r->pv_len = w->pv_len[0];
    memcpy(r->pv, w->pv[0], sizeof(Move) * (size_t)r->pv_len);
}

/* Lazy SMP: a completed iteration deeper than any other thread's becomes
 * the search's best; reaching max_depth ends every thread's search. */
static void publish(Worker *w, int depth, int score)
{
    Engine *e = w->eng;
    if (e->threads < 2) return;
    pthread_mutex_lock(&e->best_lock);
    if (depth > e->best_depth) {
        e->best_depth = depth;
        e->best_score = score;
        e->best_pv_len = w->pv_len[0];
        memcpy(e->best_pv, w->pv[0], sizeof(Move) * (size_t)w->pv_len[0]);
        atomic_store_explicit(&e->completed, depth, memory_order_relaxed);
    }
    pthread_mutex_unlock(&e->best_lock);
}

/* The deepest completed iteration of any thread, when deeper than
 * `depth`: copied into r (main thread) and returned; else 0. */
static int adopt(Worker *w, int depth, SearchResult *r, int *score)
{
    Engine *e = w->eng;
    if (e->threads < 2) return 0;
    int got = 0;
    pthread_mutex_lock(&e->best_lock);
    if (e->best_depth > depth) {
        got = e->best_depth;
        if (score) *score = e->best_score;
        if (r) {
            r->depth = e->best_depth;
            r->score = e->best_score;
            r->pv_len = e->best_pv_len;
            memcpy(r->pv, e->best_pv, sizeof(Move) * (size_t)r->pv_len);
            if (r->pv_len > 0) r->best = r->pv[0];
        }
    }
    pthread_mutex_unlock(&e->best_lock);
    return got;
}

/* Plies past the deepest completed iteration that worker w starts its
 * next iteration at. */
static int smp_offset(const Worker *w)
{
    if (w->id == 0) return 0;
    if (w->id == 1) return P(w->eng, SMP_AHEAD); /* 0: the first helper races the main thread on its depth */
    return w->id & 1; /* more helpers: the odd ones a ply ahead */
}

/* One worker's iterative deepening. Helpers (id > 0) run until told to
 * stop; the main worker (id 0) drives the result. Returns nothing; results
 * are in w->done_*. */
static void iterate(Worker *w, SearchResult *r, const SearchLimits *limits, int64_t start, int64_t soft_ms,
                    int64_t hard_ms, SearchInfoFn info, void *info_ctx)
{
    Engine *e = w->eng;
    Frame *root = &w->frames[0];
    memcpy(&root->pos, &e->root, sizeof e->root);
    w->keys[0] = e->game->hash(&e->root);
    root->threat_ext = 0;
    root->evasions = P(e, QS_EVASIONS);
    w->nodes = w->smp_counted = 0;
    w->aborted = w->superseded = false;
    w->done_depth = 0;
    w->done_pv_len = 0;
    int prev = 0;
    Move prev_best = {0};
    double soft_scale = 1.0;
    int off = smp_offset(w);
    for (int depth = 1 + off; depth <= e->max_depth; depth++) {
        /* Lazy SMP: skip what another thread completed. */
        int other_score = 0;
        int other = adopt(w, depth - 1 - off, w->id == 0 ? r : NULL, &other_score);
        if (other) {
            /* a helper past the depth limit searches the limit itself:
             * the last iteration is the longest, and both share it */
            depth = other + 1 + off;
            if (w->id > 0 && depth > e->max_depth && other < e->max_depth) depth = e->max_depth;
            w->done_depth = other;
            prev = other_score;
            if (w->id == 0) {
                r->nodes = w->nodes;
                for (int t = 1; t < e->threads; t++) r->nodes += e->workers[t]->nodes;
                int64_t elapsed = clock_now_ns() - start;
                r->seconds = (double)elapsed * 1e-9;
                if (info) info(info_ctx, r);
                /* clock: the soft limit holds for an adopted iteration too */
                if (soft_ms > 0 && limits->movetime_ms <= 0 && (double)elapsed * 2 > (double)soft_ms * soft_scale * 1e6)
                    break;
            }
            if (depth > e->max_depth) break;
        }
        w->root_depth = depth;
        int v;
        int delta = P(e, ASP_WINDOW);
        int alpha = -SCORE_INF, beta = SCORE_INF;
        if (depth >= P(e, ASP_DEPTH) && w->done_depth > 0 && prev < SCORE_WIN_MIN && prev > -SCORE_WIN_MIN) {
            alpha = prev - delta;
            beta = prev + delta;
        }
        for (;;) {
            v = search_root(w, depth, alpha, beta);
            if (w->aborted) break;
            if (v <= alpha && alpha > -SCORE_INF) {
                beta = (alpha + beta) / 2;
                alpha = delta > 400 ? -SCORE_INF : v - delta;
            } else if (v >= beta && beta < SCORE_INF) {
                /* keep a fail-high's move: it is better than the old best */
                if (w->id == 0) keep_partial_pv(w, r);
                beta = delta > 400 ? SCORE_INF : v + delta;
            } else {
                break;
            }
            delta *= 2;
            if (alpha < -SCORE_INF) alpha = -SCORE_INF;
            if (beta > SCORE_INF) beta = SCORE_INF;
        }
        if (w->aborted && w->superseded) {
            /* another thread completed this depth: take its result, go on */
            w->aborted = w->superseded = false;
            depth--;
            continue;
        }
        if (w->aborted) {
            /* an interrupted iteration whose first move was searched gives a
             * move at least as good as the last completed one */
            if (w->id == 0) keep_partial_pv(w, r);
            break;
        }
        w->done_depth = depth;
        w->done_score = v;
        w->done_pv_len = w->pv_len[0];
        memcpy(w->done_pv, w->pv[0], sizeof(Move) * (size_t)w->done_pv_len);
        publish(w, depth, v);
        if (w->id > 0) {
            prev = v;
            continue;
        }
        r->score = v;
        r->depth = depth;
        r->pv_len = w->pv_len[0];
        memcpy(r->pv, w->pv[0], sizeof(Move) * (size_t)r->pv_len);
        if (r->pv_len > 0) r->best = r->pv[0];
        r->nodes = w->nodes;
        for (int t = 1; t < e->threads; t++) r->nodes += e->workers[t]->nodes;
        int64_t elapsed = clock_now_ns() - start;
        r->seconds = (double)elapsed * 1e-9;
        if (info) info(info_ctx, r);
        /* forced: no need to think, past depth 2 (at depth 1 the reply is
         * quiescence, which never asks whether the side to move has a move
         * at all: the only move that takes the last piece read as a plain
         * score) */
        if (e->root_moves_len == 1 && !limits->depth && depth >= 2) break;
        if (v >= SCORE_WIN_MIN || v <= -SCORE_WIN_MIN) {
            if (depth > SCORE_WIN - (v > 0 ? v : -v) + 2) break; /* win found and proven */
        }
        if (soft_ms > 0) {
            if (limits->movetime_ms <= 0) {
                /* clock: more time when the best move changed or the score dropped */
                soft_scale = 1.0;
                if (depth > 1 && r->pv_len > 0 && !same_move(&r->pv[0], &prev_best))
                    soft_scale *= P(e, TM_CHANGE_PCT) / 100.0;
                if (depth > 1 && v < prev - P(e, TM_DROP_CP)) soft_scale *= P(e, TM_DROP_PCT) / 100.0;
                double soft = (double)soft_ms * soft_scale;
                if (soft > (double)hard_ms) soft = (double)hard_ms;
                /* the next iteration takes about as long as all before it */
                if ((double)elapsed * 2 > soft * 1e6) break;
            } else if ((double)elapsed > (double)hard_ms * 1e6 * 0.97) {
                break;
            }
        }
        prev = v;
        if (r->pv_len > 0) prev_best = r->pv[0];
    }
}

static void *helper_main(void *arg)
{
    Worker *w = arg;
    SearchResult dummy;
    SearchLimits none = {0};
    double c0 = clock_thread_cpu_s();
    iterate(w, &dummy, &none, clock_now_ns(), 0, 0, NULL, NULL);
    w->cpu_seconds = clock_thread_cpu_s() - c0;
    return NULL;
}

int engine_search(Engine *e, const Position *root, const uint64_t *history, int history_len,
                  const SearchLimits *limits, SearchResult *r, SearchInfoFn info, void *info_ctx)
{
    memset(r, 0, sizeof *r);
    int64_t start = clock_now_ns();
    int64_t soft_ms, hard_ms;
    engine_time_budget(limits, &soft_ms, &hard_ms);
    if (limits->movetime_ms > 0) hard_ms = hard_ms * P(e, TM_MOVETIME_PCT) / 100;
    if (hard_ms > 2 && limits->movetime_ms > 0) hard_ms -= 1; /* process exit and output */
    e->node_limit = limits->nodes;
    e->deadline_ns = hard_ms > 0 ? start + hard_ms * 1000000LL : 0;
    e->history = history;
    e->history_len = history_len;
    e->generation++;
    e->root = *root;
    MoveList *root_moves = &e->workers[0]->frames[0].moves;
    e->game->gen_moves(root, root_moves, GEN_DISTINCT);
    e->root_moves_len = root_moves->len;
    if (root_moves->len == 0) {
        r->score = -SCORE_WIN;
        return 0;
    }
    r->has_move = true;
    r->best = root_moves->moves[0];
    e->max_depth = limits->depth > 0 ? limits->depth : PLY_MAX - 1;
    if (e->max_depth > PLY_MAX - 8) e->max_depth = PLY_MAX - 8;
    atomic_store(&e->stop_helpers, 0);
    atomic_store(&e->smp_nodes, 0);
    atomic_store(&e->smp_stop, 0);
    atomic_store(&e->completed, 0);
    e->best_depth = 0;
    int started = 1;
    for (int t = 1; t < e->threads; t++) {
        if (pthread_create(&e->workers[t]->thread, NULL, helper_main, e->workers[t]) != 0) break;
        started++;
    }
    double c0 = clock_thread_cpu_s();
    iterate(e->workers[0], r, limits, start, soft_ms, hard_ms, info, info_ctx);
    atomic_store(&e->stop_helpers, 1);
    r->nodes = e->workers[0]->nodes;
    r->cpu_seconds = clock_thread_cpu_s() - c0;
    for (int t = 1; t < started; t++) {
        pthread_join(e->workers[t]->thread, NULL);
        r->nodes += e->workers[t]->nodes;
        r->cpu_seconds += e->workers[t]->cpu_seconds;
    }
    r->seconds = (double)(clock_now_ns() - start) * 1e-9;
    if (adopt(e->workers[0], r->depth, r, NULL) && info) info(info_ctx, r); /* a helper's deeper completed iteration */
    return 0;
}
