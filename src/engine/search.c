/* search.c — PVS with a transposition table, capture-driven quiescence,
 * move ordering (TT move, captures by size, promotions, killers, history),
 * late-move reductions and iterative deepening. Game-independent: it sees
 * positions only through the Game table. */
#include "engine/search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3, QS_EVASIONS = 2 };

typedef struct TTEntry {
    uint64_t key;
    int16_t score;
    int8_t depth;
    uint8_t flag;
    uint8_t from, to;
    uint16_t capture_tag; /* low bits of a mix of the captured set and kind/promo */
} TTEntry;

typedef struct Frame {
    Position pos;
    MoveList moves;
    int scores[MOVES_MAX];
    Move killers[2];
} Frame;

struct Engine {
    const Game *game;
    const int32_t *weights;
    TTEntry *tt;
    uint64_t tt_mask;
    volatile int *stop_flag;
    EngineProbeFn probe;
    void *probe_ctx;
    /* per search */
    uint64_t nodes;
    uint64_t node_limit;
    int64_t deadline_ns;
    bool aborted;
    int root_depth;
    const uint64_t *history;
    int history_len;
    uint64_t keys[PLY_MAX + 1];
    int32_t hist[64][64];
    Frame frames[PLY_MAX + 1];
    int pv_len[PLY_MAX + 1];
    Move pv[PLY_MAX + 1][PLY_MAX + 1];
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static uint16_t capture_tag(const Move *m)
{
    uint64_t x = m->captured * 0x9E3779B97F4A7C15ULL;
    return (uint16_t)((x >> 48) ^ (uint16_t)(m->kind << 8) ^ m->promo);
}

static bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->kind == b->kind &&
           a->promo == b->promo;
}

Engine *engine_new(const Game *game, size_t hash_mb)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    if (hash_mb < 1) hash_mb = 1;
    uint64_t entries = (uint64_t)hash_mb * 1024 * 1024 / sizeof(TTEntry);
    uint64_t pow2 = 1;
    while (pow2 * 2 <= entries) pow2 *= 2;
    e->tt = calloc(pow2, sizeof(TTEntry));
    if (!e->tt) {
        free(e);
        return NULL;
    }
    e->tt_mask = pow2 - 1;
    e->game = game;
    e->weights = game->weights_default;
    return e;
}

void engine_free(Engine *e)
{
    if (!e) return;
    free(e->tt);
    free(e);
}

void engine_set_weights(Engine *e, const int32_t *weights)
{
    e->weights = weights ? weights : e->game->weights_default;
}

void engine_set_stop_flag(Engine *e, volatile int *stop) { e->stop_flag = stop; }

void engine_set_probe(Engine *e, EngineProbeFn fn, void *ctx)
{
    e->probe = fn;
    e->probe_ctx = ctx;
}

void engine_clear(Engine *e)
{
    memset(e->tt, 0, (e->tt_mask + 1) * sizeof(TTEntry));
    memset(e->hist, 0, sizeof e->hist);
    for (int i = 0; i <= PLY_MAX; i++) memset(e->frames[i].killers, 0, sizeof e->frames[i].killers);
}

int engine_evaluate(const Engine *e, const Position *pos)
{
    int32_t v = e->game->evaluate(pos, e->weights);
    /* Static values stay below the win scores whatever the weights. */
    if (v > SCORE_WIN_MIN - 1) v = SCORE_WIN_MIN - 1;
    if (v < -(SCORE_WIN_MIN - 1)) v = -(SCORE_WIN_MIN - 1);
    return e->game->side_to_move(pos) == COLOR_WHITE ? v : -v;
}

/* TT scores of won/lost positions are stored relative to the node. */
static int score_to_tt(int s, int ply) { return s >= SCORE_WIN_MIN ? s + ply : s <= -SCORE_WIN_MIN ? s - ply : s; }
static int score_from_tt(int s, int ply) { return s >= SCORE_WIN_MIN ? s - ply : s <= -SCORE_WIN_MIN ? s + ply : s; }

static bool time_up(Engine *e)
{
    if (e->node_limit && e->nodes >= e->node_limit) return true;
    if ((e->nodes & 1023) == 0) {
        if (e->stop_flag && *e->stop_flag) return true;
        if (e->deadline_ns && now_ns() >= e->deadline_ns) return true;
    }
    return false;
}

/* Repetition or a draw rule of the position at `ply`. */
static bool is_draw(Engine *e, int ply)
{
    const Position *pos = &e->frames[ply].pos;
    const char *reason;
    if (e->game->rule_outcome(pos, &reason) == OUTCOME_DRAW) return true;
    int window = e->game->reversible_plies(pos);
    uint64_t key = e->keys[ply];
    for (int back = 2; back <= window; back += 2) {
        int p = ply - back;
        uint64_t k = p >= 0 ? e->keys[p] : (e->history_len + p >= 0 ? e->history[e->history_len + p] : 0);
        if (p < 0 && e->history_len + p < 0) break;
        if (k == key) return true;
    }
    return false;
}

static void score_moves(Engine *e, Frame *f, const Move *tt_move)
{
    for (int i = 0; i < f->moves.len; i++) {
        const Move *m = &f->moves.moves[i];
        int s;
        if (tt_move && same_move(m, tt_move))
            s = 1 << 30;
        else if (m->kind == MOVE_CAPTURE)
            s = (1 << 28) + __builtin_popcountll(m->captured) * 1024 + m->promo * 512;
        else if (m->promo)
            s = 1 << 27;
        else if (same_move(m, &f->killers[0]))
            s = (1 << 26) + 1;
        else if (same_move(m, &f->killers[1]))
            s = 1 << 26;
        else
            s = e->hist[m->from & 63][m->to & 63];
        f->scores[i] = s;
    }
}

/* Selection sort step: bring the best remaining move to index i. */
static void pick_move(Frame *f, int i)
{
    int best = i;
    for (int j = i + 1; j < f->moves.len; j++)
        if (f->scores[j] > f->scores[best]) best = j;
    if (best != i) {
        Move m = f->moves.moves[i];
        f->moves.moves[i] = f->moves.moves[best];
        f->moves.moves[best] = m;
        int s = f->scores[i];
        f->scores[i] = f->scores[best];
        f->scores[best] = s;
    }
}

/* Quiescence: compulsory captures are played out (no stand-pat while one is
 * pending); in games with a royal piece, a threatened royal piece is not
 * left to the static evaluation either: up to `evasions` times per line
 * every move is searched, like a check evasion. */
static int quiescence(Engine *e, int ply, int alpha, int beta, int evasions)
{
    Frame *f = &e->frames[ply];
    e->nodes++;
    e->pv_len[ply] = 0;
    if (ply > 0 && is_draw(e, ply)) return 0;
    int known;
    if (ply > 0 && e->probe && e->probe(e->probe_ctx, &f->pos, &known)) return score_from_tt(known, ply);
    if (ply >= PLY_MAX) return engine_evaluate(e, &f->pos);
    bool threatened = evasions > 0 && e->game->royal_attacked &&
                      e->game->royal_attacked(&f->pos, e->game->side_to_move(&f->pos));
    if (threatened) evasions--;
    if (!threatened && !e->game->has_capture(&f->pos)) return engine_evaluate(e, &f->pos);
    /* A capture is compulsory (or the royal piece must be saved): no
     * stand-pat, search every move. */
    e->game->gen_moves(&f->pos, &f->moves, GEN_DISTINCT);
    if (f->moves.len == 0) return -SCORE_WIN + ply;
    score_moves(e, f, NULL);
    int best = -SCORE_INF;
    for (int i = 0; i < f->moves.len; i++) {
        pick_move(f, i);
        e->game->make_move(&f->pos, &f->moves.moves[i], &e->frames[ply + 1].pos);
        e->keys[ply + 1] = e->game->hash(&e->frames[ply + 1].pos);
        int v = -quiescence(e, ply + 1, -beta, -alpha, evasions);
        if (e->aborted) return 0;
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

static void update_pv(Engine *e, int ply, const Move *m)
{
    e->pv[ply][0] = *m;
    int n = e->pv_len[ply + 1];
    memcpy(&e->pv[ply][1], e->pv[ply + 1], sizeof(Move) * (size_t)n);
    e->pv_len[ply] = n + 1;
}

static int alphabeta(Engine *e, int ply, int depth, int alpha, int beta, bool pv_node)
{
    Frame *f = &e->frames[ply];
    e->pv_len[ply] = 0;
    if (ply > 0) {
        if (time_up(e)) {
            e->aborted = true;
            return 0;
        }
        if (is_draw(e, ply)) return 0;
        /* Mate-distance pruning. */
        int lo = -SCORE_WIN + ply, hi = SCORE_WIN - ply - 1;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
        if (alpha >= beta) return alpha;
    }
    if (ply >= PLY_MAX) return engine_evaluate(e, &f->pos);
    bool forced = e->game->has_capture(&f->pos);
    if (depth <= 0 && !forced) return quiescence(e, ply, alpha, beta, QS_EVASIONS);
    if (depth < 0) depth = 0;
    e->nodes++;
    int known;
    if (ply > 0 && e->probe && e->probe(e->probe_ctx, &f->pos, &known)) return score_from_tt(known, ply);

    uint64_t key = e->keys[ply];
    TTEntry *te = &e->tt[key & e->tt_mask];
    Move tt_move;
    bool have_tt_move = false;
    if (te->key == key) {
        if (te->flag) {
            tt_move = (Move){0};
            have_tt_move = true;
        }
        if (!pv_node && te->depth >= depth && ply > 0) {
            int s = score_from_tt(te->score, ply);
            if (te->flag == TT_EXACT || (te->flag == TT_LOWER && s >= beta) || (te->flag == TT_UPPER && s <= alpha))
                return s;
        }
    }

    e->game->gen_moves(&f->pos, &f->moves, GEN_DISTINCT);
    if (f->moves.len == 0) return -SCORE_WIN + ply;
    const Move *ttm = NULL;
    if (have_tt_move) {
        for (int i = 0; i < f->moves.len; i++) {
            const Move *m = &f->moves.moves[i];
            if (m->from == te->from && m->to == te->to && capture_tag(m) == te->capture_tag) {
                tt_move = *m;
                ttm = &tt_move;
                break;
            }
        }
    }
    score_moves(e, f, ttm);

    /* A forced single reply costs no depth. */
    if (f->moves.len == 1 && ply > 0) depth++;

    int best = -SCORE_INF, orig_alpha = alpha;
    Move best_move = f->moves.moves[0];
    Frame *child = &e->frames[ply + 1];
    for (int i = 0; i < f->moves.len; i++) {
        pick_move(f, i);
        const Move *m = &f->moves.moves[i];
        e->game->make_move(&f->pos, m, &child->pos);
        e->keys[ply + 1] = e->game->hash(&child->pos);
        int v;
        if (i == 0) {
            v = -alphabeta(e, ply + 1, depth - 1, -beta, -alpha, pv_node);
        } else {
            int r = 0;
            if (depth >= 3 && i >= 3 && !forced && !m->promo && f->scores[i] < (1 << 26)) r = i >= 8 ? 2 : 1;
            v = -alphabeta(e, ply + 1, depth - 1 - r, -alpha - 1, -alpha, false);
            if (!e->aborted && v > alpha && (r || (pv_node && v < beta)))
                v = -alphabeta(e, ply + 1, depth - 1, -beta, -alpha, pv_node);
        }
        if (e->aborted) return 0;
        if (v > best) {
            best = v;
            best_move = *m;
            if (v > alpha) {
                alpha = v;
                update_pv(e, ply, m);
                if (v >= beta) {
                    if (m->kind == MOVE_QUIET && !m->promo) {
                        if (!same_move(m, &f->killers[0])) {
                            f->killers[1] = f->killers[0];
                            f->killers[0] = *m;
                        }
                        int32_t *h = &e->hist[m->from & 63][m->to & 63];
                        *h += depth * depth;
                        if (*h > (1 << 24)) {
                            for (int a = 0; a < 64; a++)
                                for (int b = 0; b < 64; b++) e->hist[a][b] /= 2;
                        }
                    }
                    break;
                }
            }
        }
    }
    te->key = key;
    te->score = (int16_t)score_to_tt(best, ply);
    te->depth = (int8_t)(depth > 127 ? 127 : depth);
    te->flag = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    te->from = best_move.from;
    te->to = best_move.to;
    te->capture_tag = capture_tag(&best_move);
    return best;
}

int engine_quiescence(Engine *e, const Position *pos)
{
    memcpy(&e->frames[0].pos, pos, sizeof *pos);
    e->keys[0] = e->game->hash(pos);
    e->history = NULL;
    e->history_len = 0;
    e->aborted = false;
    e->node_limit = 0;
    e->deadline_ns = 0;
    return quiescence(e, 0, -SCORE_INF, SCORE_INF, QS_EVASIONS);
}

int engine_search(Engine *e, const Position *root, const uint64_t *history, int history_len,
                  const SearchLimits *limits, SearchResult *r, SearchInfoFn info, void *info_ctx)
{
    memset(r, 0, sizeof *r);
    int64_t start = now_ns();
    e->nodes = 0;
    e->node_limit = limits->nodes;
    e->deadline_ns = limits->movetime_ms > 0 ? start + limits->movetime_ms * 1000000LL : 0;
    e->history = history;
    e->history_len = history_len;
    e->aborted = false;
    memcpy(&e->frames[0].pos, root, sizeof *root);
    e->keys[0] = e->game->hash(root);

    MoveList *root_moves = &e->frames[0].moves;
    e->game->gen_moves(root, root_moves, GEN_DISTINCT);
    if (root_moves->len == 0) {
        r->score = -SCORE_WIN;
        return 0;
    }
    r->has_move = true;
    r->best = root_moves->moves[0];
    int max_depth = limits->depth > 0 ? limits->depth : PLY_MAX - 1;
    if (max_depth > PLY_MAX - 8) max_depth = PLY_MAX - 8;
    for (int depth = 1; depth <= max_depth; depth++) {
        e->root_depth = depth;
        int v = alphabeta(e, 0, depth, -SCORE_INF, SCORE_INF, true);
        if (e->aborted) break;
        r->score = v;
        r->depth = depth;
        r->pv_len = e->pv_len[0];
        memcpy(r->pv, e->pv[0], sizeof(Move) * (size_t)r->pv_len);
        if (r->pv_len > 0) r->best = r->pv[0];
        r->nodes = e->nodes;
        r->seconds = (double)(now_ns() - start) * 1e-9;
        if (info) info(info_ctx, r);
        if (root_moves->len == 1 && !limits->depth) break; /* forced: no need to think */
        if (v >= SCORE_WIN_MIN || v <= -SCORE_WIN_MIN) {
            if (depth > SCORE_WIN - (v > 0 ? v : -v) + 2) break; /* win found and proven */
        }
        if (e->deadline_ns && (now_ns() - start) * 2 > limits->movetime_ms * 1000000LL) break;
    }
    r->nodes = e->nodes;
    r->seconds = (double)(now_ns() - start) * 1e-9;
    return 0;
}
