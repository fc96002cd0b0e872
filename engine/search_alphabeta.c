/* search_alphabeta.c — the node search of engine/search.c: PVS with
 * quiescence over any Game.
 *
 * - TT cutoffs at non-PV nodes, and with PV_TT_CUT from an exact entry at
 *   PV nodes too (the PV then ends there); internal iterative deepening at
 *   PV nodes without a TT move (IID_DEPTH, off); enhanced transposition
 *   cutoff (a child's TT bound refutes the node before any search);
 *   ProbCut (a reduced-depth null-window search above beta cuts a non-PV
 *   node); logarithmic late-move reductions; reverse futility, futility
 *   and late-move pruning at shallow non-PV nodes (off unless set);
 *   single-reply, royal-threat and horizon threat extensions; compulsory
 *   captures never end a line. A node whose side to move can take the
 *   enemy royal piece (Shatra's Biy) is a win at once; a position a rule
 *   decided is scored.
 * - Lazy SMP inside a node: optionally (SMP_DEFER_DEPTH) a move another
 *   thread is searching now is deferred to the end of the move list.
 * - The transposition table is search_tt.h, the move ordering
 *   search_order.h. */
#include "engine/search.h"

#include <stdatomic.h>
#include <string.h>

#include "engine/search_internal.h"
#include "engine/search_order.h"
#include "engine/search_tt.h"

/* The static value v (White's view) scaled by the game's endgame
 * knowledge (Game.drawish): DRAWN_SCALE/64 of it in a drawn material
 * balance, and x left/COUNTER_RAMP when a move-count rule will draw the
 * current material in left < COUNTER_RAMP plies. */
static int32_t endgame_scaled(const Engine *e, const Position *pos, int32_t v)
{
    int left = INT32_MAX;
    int64_t scale = e->game->drawish(pos, v > 0 ? COLOR_WHITE : COLOR_BLACK, &left) ? P(e, DRAWN_SCALE) : 64;
    int ramp = P(e, COUNTER_RAMP);
    if (left < ramp) scale = scale * left / ramp;
    return (int32_t)(v * scale / 64);
}

int engine_evaluate(const Engine *e, const Position *pos)
{
    int32_t v = e->game->evaluate(pos, e->weights);
    /* off (the defaults): not asked at all, this is every leaf */
    if (v && e->game->drawish && (P(e, DRAWN_SCALE) != 64 || P(e, COUNTER_RAMP) > 0)) v = endgame_scaled(e, pos, v);
    /* Static values stay below the win scores whatever the weights. */
    if (v > SCORE_WIN_MIN - 1) v = SCORE_WIN_MIN - 1;
    if (v < -(SCORE_WIN_MIN - 1)) v = -(SCORE_WIN_MIN - 1);
    return e->game->side_to_move(pos) == COLOR_WHITE ? v : -v;
}

enum { DEPTH1_NODES_FACTOR = 100 };

/* With helpers: after each 1024 nodes of a thread (its quiescence's
 * included), the nodes of all threads against the node limit (past it once
 * some thread completed depth 1, or DEPTH1_NODES_FACTOR times past it) and
 * the clock against the deadline; the main thread stops at its next node
 * when they are reached. */
static void smp_limits(Worker *w)
{
    Engine *e = w->eng;
    uint64_t add = w->nodes - w->smp_counted;
    w->smp_counted = w->nodes;
    uint64_t total = atomic_fetch_add_explicit(&e->smp_nodes, add, memory_order_relaxed) + add;
    bool hit = e->node_limit && (total / DEPTH1_NODES_FACTOR >= e->node_limit ||
                                 (total >= e->node_limit && atomic_load_explicit(&e->completed, memory_order_relaxed) >= 1));
    if (!hit && e->deadline_ns) hit = clock_now_ns() >= e->deadline_ns;
    if (hit) atomic_store_explicit(&e->smp_stop, 1, memory_order_relaxed);
}

static bool time_up(Worker *w)
{
    Engine *e = w->eng;
    if (e->threads > 1) {
        if (w->nodes - w->smp_counted >= 1024) smp_limits(w);
        if (atomic_load_explicit(&e->smp_stop, memory_order_relaxed)) return true;
    }
    if (w->id > 0 || w->done_depth >= 1) {
        /* Lazy SMP: another thread completed this iteration's depth (or the
         * last one): this iteration is superseded. */
        if (e->threads > 1 && (w->nodes & 1023) == 0 &&
            atomic_load_explicit(&e->completed, memory_order_relaxed) >= w->root_depth) {
            w->superseded = true;
            return true;
        }
    }
    if (w->id > 0) return atomic_load_explicit(&e->stop_helpers, memory_order_relaxed);
    /* Depth 1 completes past the node limit, so that the move comes from a search, unless it runs
     * DEPTH1_NODES_FACTOR times past it: a position of dozens of kings a side can take millions of nodes
     * at depth 1 (their captures' quiescence), seconds to hours. A stop and the deadline end it too. */
    if (e->node_limit && w->done_depth >= 1 && w->nodes >= e->node_limit) return true;
    if ((w->nodes & 1023) == 0) {
        if (e->node_limit && w->nodes / DEPTH1_NODES_FACTOR >= e->node_limit) return true;
        if (e->stop_flag && *e->stop_flag) return true;
        if (e->stop_fn && e->stop_fn(e->stop_ctx)) return true;
        if (e->deadline_ns && clock_now_ns() >= e->deadline_ns) return true;
    }
    return false;
}

/* Repetition or a draw rule of the position at `ply`. */
static bool is_draw(Worker *w, int ply)
{
    Engine *e = w->eng;
    const Position *pos = &w->frames[ply].pos;
    const char *reason;
    Outcome o = e->game->rule_outcome(pos, &reason);
    if (o == OUTCOME_DRAW) return true;
    /* decided by a rule (Shatra: a Biy captured; Turkish: a lone man): not
     * a draw; the callers score it from the frame */
    w->frames[ply].decided =
        o == OUTCOME_NONE ? 0 : (o == OUTCOME_WHITE_WINS) == (e->game->side_to_move(pos) == COLOR_WHITE) ? 1 : -1;
    if (o != OUTCOME_NONE) return false;
    int window = e->game->reversible_plies(pos);
    uint64_t key = w->keys[ply];
    for (int back = 2; back <= window; back += 2) {
        int p = ply - back;
        if (p < 0 && e->history_len + p < 0) break;
        uint64_t k = p >= 0 ? w->keys[p] : e->history[e->history_len + p];
        if (k == key) return true;
    }
    return false;
}

/* The value of a draw inside the tree for the side to move at `ply`:
 * CONTEMPT centi-men below zero for the root's side, above it for the
 * other side (the root's side would rather play on than repeat). */
static inline int draw_score(const Worker *w, int ply)
{
    int c = P(w->eng, CONTEMPT);
    return ply & 1 ? c : -c;
}

/* A capture that takes the opponent's royal piece (the game ends with it):
 * the node is won next ply whatever else it holds. */
static bool royal_capture(const Game *g, const Position *pos, const MoveList *ml)
{
    if (!g->capture_value) return false;
    for (int i = 0; i < ml->len; i++)
        if (ml->moves[i].kind == MOVE_CAPTURE && g->capture_value(pos, &ml->moves[i]) >= GAME_ROYAL_VALUE) return true;
    return false;
}

static void make_child(Worker *w, int ply, const Move *m)
{
    Frame *child = &w->frames[ply + 1];
    w->eng->game->make_move(&w->frames[ply].pos, m, &child->pos);
    w->keys[ply + 1] = w->eng->game->hash(&child->pos);
    /* the child's TT bucket is fetched now, read when its search starts */
    __builtin_prefetch(&w->eng->tt[w->keys[ply + 1] & w->eng->tt_mask]);
    child->move = *m;
    child->threat_ext = w->frames[ply].threat_ext;
    child->evasions = w->frames[ply].evasions;
}

/* Quiescence: compulsory captures are played out (no stand-pat while one is
 * pending); in games with a royal piece, a threatened royal piece is not
 * left to the static evaluation either: up to QS_EVASIONS times per line
 * every move is searched, like a check evasion. */
static int quiescence(Worker *w, int ply, int alpha, int beta)
{
    Engine *e = w->eng;
    Frame *f = &w->frames[ply];
    w->nodes++;
    w->pv_len[ply] = 0;
    if (ply > 0 && is_draw(w, ply)) return draw_score(w, ply);
    if (ply > 0 && f->decided) return f->decided > 0 ? SCORE_WIN - ply : -SCORE_WIN + ply;
    int known;
    if (ply > 0 && e->probe && e->probe(e->probe_ctx, &f->pos, &known)) return score_from_tt(known, ply);
    if (ply >= PLY_MAX) return engine_evaluate(e, &f->pos);
    bool threatened = f->evasions > 0 && e->game->royal_attacked &&
                      e->game->royal_attacked(&f->pos, e->game->side_to_move(&f->pos));
    if (threatened) f->evasions--;
    if (!threatened && !e->game->has_capture(&f->pos)) return engine_evaluate(e, &f->pos);
    e->game->gen_moves(&f->pos, &f->moves, GEN_DISTINCT);
    if (f->moves.len == 0) return -SCORE_WIN + ply;
    if (e->game->royal_attacked && royal_capture(e->game, &f->pos, &f->moves)) return SCORE_WIN - ply - 1;
    score_moves(w, ply, NULL);
    int best = -SCORE_INF;
    for (int i = 0; i < f->moves.len; i++) {
        pick_move(f, i);
        make_child(w, ply, &f->moves.moves[i]);
        int v = -quiescence(w, ply + 1, -beta, -alpha);
        if (w->aborted) return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    return best;
}

static void update_pv(Worker *w, int ply, const Move *m)
{
    w->pv[ply][0] = *m;
    int n = w->pv_len[ply + 1];
    memcpy(&w->pv[ply][1], w->pv[ply + 1], sizeof(Move) * (size_t)n);
    w->pv_len[ply] = n + 1;
}

static int alphabeta(Worker *w, int ply, int depth, int alpha, int beta, bool pv_node, bool allow_pc);

/* The busy table of lazy SMP's deferral: one word per slot, the hash of
 * (position key, move) of a move some thread is searching (0: none). A
 * collision only defers or fails to defer a move: never a wrong value. */
static uint64_t busy_key(uint64_t key, const Move *m)
{
    uint64_t x = key ^ (((uint64_t)m->from << 40 | (uint64_t)m->to << 32 | capture_tag(m)) * 0x9E3779B97F4A7C15ULL);
    return x ? x : 1;
}

static bool busy_test(Engine *e, uint64_t mkey)
{
    return atomic_load_explicit(&e->busy[mkey & (BUSY_N - 1)], memory_order_relaxed) == mkey;
}

static void busy_set(Engine *e, uint64_t mkey)
{
    atomic_store_explicit(&e->busy[mkey & (BUSY_N - 1)], mkey, memory_order_relaxed);
}

static void busy_clear(Engine *e, uint64_t mkey)
{
    uint64_t expect = mkey;
    atomic_compare_exchange_strong_explicit(&e->busy[mkey & (BUSY_N - 1)], &expect, 0, memory_order_relaxed,
                                            memory_order_relaxed);
}

/* The opponent of the side to move could capture now (the side to move
 * has no capture itself). */
static bool opponent_threat(const Game *g, const Position *pos)
{
    return !g->has_capture(pos) && !g->is_quiet(pos);
}

static int alphabeta(Worker *w, int ply, int depth, int alpha, int beta, bool pv_node, bool allow_pc)
{
    Engine *e = w->eng;
    const Game *g = e->game;
    Frame *f = &w->frames[ply];
    w->pv_len[ply] = 0;
    if (ply > 0) {
        if (time_up(w)) {
            w->aborted = true;
            return 0;
        }
        if (is_draw(w, ply)) return draw_score(w, ply);
        if (f->decided) return f->decided > 0 ? SCORE_WIN - ply : -SCORE_WIN + ply; /* a rule ended the game */
        /* Mate-distance pruning. */
        int lo = -SCORE_WIN + ply, hi = SCORE_WIN - ply - 1;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
        if (alpha >= beta) return alpha;
    }
    if (ply >= PLY_MAX - 1) return engine_evaluate(e, &f->pos);
    bool forced = g->has_capture(&f->pos);
    if (depth <= 0 && !forced) {
        /* Horizon: a capture threatened by the opponent is not left to the
         * static evaluation; the line gets one more ply (bounded per line). */
        if (P(e, THREAT_EXT) && f->threat_ext < P(e, THREAT_EXT_MAX) && opponent_threat(g, &f->pos)) {
            f->threat_ext++;
            depth = 1;
        } else {
            return quiescence(w, ply, alpha, beta);
        }
    }
    if (depth < 0) depth = 0;
    w->nodes++;
    int known;
    if (ply > 0 && e->probe && e->probe(e->probe_ctx, &f->pos, &known)) return score_from_tt(known, ply);

    uint64_t key = w->keys[ply];
    TTHit hit;
    bool have_hit = tt_probe(e, key, &hit);
    if (have_hit && (!pv_node || (P(e, PV_TT_CUT) && hit.flag == TT_EXACT)) && hit.depth >= depth && ply > 0) {
        int s = score_from_tt(hit.score, ply);
        if (hit.flag == TT_EXACT || (hit.flag == TT_LOWER && s >= beta) || (hit.flag == TT_UPPER && s <= alpha))
            return s;
    }

    /* Royal threat: a threatened royal piece costs no depth. */
    bool royal = g->royal_attacked && P(e, ROYAL_EXT) && g->royal_attacked(&f->pos, g->side_to_move(&f->pos));
    /* Few pieces: every move searched to full depth (ENDING_PIECES). */
    bool ending = P(e, ENDING_PIECES) && g->piece_count && g->piece_count(&f->pos) <= P(e, ENDING_PIECES);

    /* Reverse futility (static null move) and futility: a shallow non-PV
     * node with no capture pending for either side, whose static value is
     * far above beta, fails high; one far below alpha searches only its
     * first quiet move. */
    bool prune_ok = !pv_node && ply > 0 && !forced && !royal && !ending && beta < SCORE_WIN_MIN &&
                    alpha > -SCORE_WIN_MIN &&
                    depth <= (P(e, RFP_DEPTH) > P(e, FUT_DEPTH) ? P(e, RFP_DEPTH) : P(e, FUT_DEPTH)) &&
                    g->is_quiet(&f->pos);
    bool futile = false;
    if (prune_ok) {
        int ev = engine_evaluate(e, &f->pos);
        if (depth <= P(e, RFP_DEPTH) && ev - P(e, RFP_MARGIN) * depth >= beta) return ev;
        futile = depth <= P(e, FUT_DEPTH) && ev + P(e, FUT_MARGIN) * depth <= alpha;
    }
    int lmp_quiets = !pv_node && ply > 0 && !forced && !royal && !ending && depth <= P(e, LMP_DEPTH)
                         ? P(e, LMP_BASE) + depth * depth * P(e, LMP_MUL) / 100
                         : MOVES_MAX;

    /* ProbCut: a shallower null-window search well above beta predicts a
     * fail-high of the full one. */
    if (!pv_node && allow_pc && ply > 0 && !forced && !royal && depth >= P(e, PC_DEPTH) &&
        beta > -SCORE_WIN_MIN && beta < SCORE_WIN_MIN) {
        int rbeta = beta + P(e, PC_MARGIN);
        if (rbeta < SCORE_WIN_MIN) {
            int v = alphabeta(w, ply, depth - P(e, PC_REDUCTION), rbeta - 1, rbeta, false, false);
            if (w->aborted) return 0;
            if (v >= rbeta) return v;
            have_hit = tt_probe(e, key, &hit); /* the verification may have found a move */
        }
    }

    /* Internal iterative deepening: a PV node without a TT move finds one
     * with a shallower search first. */
    if (pv_node && ply > 0 && depth >= P(e, IID_DEPTH) && (!have_hit || hit.from == hit.to)) {
        alphabeta(w, ply, depth - P(e, IID_REDUCTION), alpha, beta, true, allow_pc);
        if (w->aborted) return 0;
        have_hit = tt_probe(e, key, &hit);
    }

    g->gen_moves(&f->pos, &f->moves, GEN_DISTINCT);
    if (f->moves.len == 0) return -SCORE_WIN + ply;
    if (ply > 0 && g->royal_attacked && royal_capture(g, &f->pos, &f->moves)) return SCORE_WIN - ply - 1;
    Move tt_move;
    const Move *ttm = NULL;
    if (have_hit) {
        for (int i = 0; i < f->moves.len; i++) {
            const Move *m = &f->moves.moves[i];
            if (m->from == hit.from && m->to == hit.to && capture_tag(m) == hit.tag) {
                tt_move = *m;
                ttm = &tt_move;
                break;
            }
        }
    }

    /* Enhanced transposition cutoff: a child whose TT upper bound already
     * refutes it (its value <= -beta) proves this node >= beta. */
    if (!pv_node && ply > 0 && depth >= P(e, ETC_DEPTH)) {
        Frame *child = &w->frames[ply + 1];
        for (int i = 0; i < f->moves.len; i++) {
            Position cp;
            g->make_move(&f->pos, &f->moves.moves[i], &cp);
            uint64_t ck = g->hash(&cp);
            TTHit ch;
            if (tt_probe(e, ck, &ch) && ch.depth >= depth - 1 && (ch.flag == TT_UPPER || ch.flag == TT_EXACT)) {
                int s = -score_from_tt(ch.score, ply + 1);
                if (s >= beta) {
                    /* the child may be a repetition: only trust it when not a draw */
                    child->pos = cp;
                    w->keys[ply + 1] = ck;
                    if (!is_draw(w, ply + 1)) {
                        tt_store(e, key, score_to_tt(s, ply), depth, TT_LOWER, &f->moves.moves[i]);
                        return s;
                    }
                }
            }
        }
    }

    score_moves(w, ply, ttm);

    /* A forced single reply costs no depth; nor does a threatened royal piece. */
    bool single = f->moves.len == 1 && (P(e, SINGLE_REPLY_EXT) == 1 || (P(e, SINGLE_REPLY_EXT) == 2 && pv_node));
    if (ply > 0 && (single || royal) && ply < 2 * w->root_depth + 8) depth++;

    Color side = g->side_to_move(&f->pos);
    int best = -SCORE_INF, orig_alpha = alpha;
    Move best_move = f->moves.moves[0];
    bool have_best = false;
    int quiets_tried = 0, quiets_seen = 0;
    Move quiets[64];
    /* Lazy SMP: a move after the first that another thread is searching
     * now is deferred to the end of the list (Kerrigan's simplified
     * ABDADA), so that the threads split the node's moves. */
    bool defer_ok = e->threads > 1 && depth >= P(e, SMP_DEFER_DEPTH);
    int deferred[MOVES_MAX], ndeferred = 0;
    for (int n = 0; n < f->moves.len + ndeferred; n++) {
        bool second = n >= f->moves.len;
        int i = second ? deferred[n - f->moves.len] : n;
        if (!second) pick_move(f, i);
        const Move *m = &f->moves.moves[i];
        bool quiet = m->kind != MOVE_CAPTURE && !m->promo;
        if (!second && quiet && quiets_seen++ && have_best && f->scores[i] < ORD_KILLER &&
            (futile || quiets_seen > lmp_quiets))
            continue; /* pruned (never the first move, a killer or the counter-move) */
        uint64_t mkey = 0;
        if (defer_ok && i > 0) {
            mkey = busy_key(key, m);
            if (!second && busy_test(e, mkey)) {
                deferred[ndeferred++] = i;
                continue;
            }
            busy_set(e, mkey);
        }
        make_child(w, ply, m);
        int v;
        if (i == 0) {
            v = -alphabeta(w, ply + 1, depth - 1, -beta, -alpha, pv_node, true);
        } else {
            int r = 0;
            if (depth >= P(e, LMR_MIN_DEPTH) && i >= P(e, LMR_MIN_MOVE) && !forced && !ending && quiet &&
                f->scores[i] < ORD_KILLER) {
                r = e->lmr[depth < LMR_N ? depth : LMR_N - 1][i < LMR_N ? i : LMR_N - 1];
                if (pv_node && r > 0) r--;
                if (P(e, LMR_HIST)) {
                    if (f->scores[i] < 0) r++;
                    else if (f->scores[i] > P(e, HIST_MAX) / 2 && r > 0) r--;
                }
                if (r > depth - 2) r = depth - 2;
                if (r < 0) r = 0;
            }
            v = -alphabeta(w, ply + 1, depth - 1 - r, -alpha - 1, -alpha, false, true);
            if (!w->aborted && v > alpha && r)
                v = -alphabeta(w, ply + 1, depth - 1, -alpha - 1, -alpha, false, true);
            if (!w->aborted && v > alpha && pv_node && v < beta)
                v = -alphabeta(w, ply + 1, depth - 1, -beta, -alpha, true, true);
        }
        if (mkey) busy_clear(e, mkey);
        if (w->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = *m;
            have_best = true;
            if (v > alpha) {
                alpha = v;
                if (pv_node) update_pv(w, ply, m);
                if (v >= beta) {
                    if (quiet) {
                        if (!same_move(m, &f->killers[0])) {
                            f->killers[1] = f->killers[0];
                            f->killers[0] = *m;
                        }
                        if (ply > 0) w->counter[f->move.from & 63][f->move.to & 63] = *m;
                        int bonus = depth * depth;
                        if (bonus > P(e, HIST_BONUS_MAX)) bonus = P(e, HIST_BONUS_MAX);
                        hist_update(w, &w->hist[side][m->from & 63][m->to & 63], bonus);
                        for (int q = 0; q < quiets_tried; q++)
                            hist_update(w, &w->hist[side][quiets[q].from & 63][quiets[q].to & 63], -bonus);
                        if (ply > 0 && P(e, CONT_HIST)) {
                            int16_t (*c)[64] = w->cont[side][f->move.to & 63];
                            hist_update(w, &c[m->from & 63][m->to & 63], bonus);
                            for (int q = 0; q < quiets_tried; q++)
                                hist_update(w, &c[quiets[q].from & 63][quiets[q].to & 63], -bonus);
                        }
                    }
                    break;
                }
            }
        }
        if (quiet && quiets_tried < 64) quiets[quiets_tried++] = *m;
    }
    (void)have_best;
    int flag = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(e, key, score_to_tt(best, ply), depth, flag, flag == TT_UPPER && !ttm ? NULL : &best_move);
    return best;
}

int search_root(Worker *w, int depth, int alpha, int beta) { return alphabeta(w, 0, depth, alpha, beta, true, true); }

int engine_quiescence(Engine *e, const Position *pos)
{
    Worker *w = e->workers[0];
    memcpy(&w->frames[0].pos, pos, sizeof *pos);
    w->keys[0] = e->game->hash(pos);
    w->frames[0].evasions = P(e, QS_EVASIONS);
    e->history = NULL;
    e->history_len = 0;
    w->aborted = false;
    e->node_limit = 0;
    e->deadline_ns = 0;
    return quiescence(w, 0, -SCORE_INF, SCORE_INF);
}
