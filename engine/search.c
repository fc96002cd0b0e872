/* search.c — iterative-deepening PVS over any Game (it sees positions only
 * through the Game table).
 *
 * - Transposition table of 64-byte buckets of four 16-byte entries: three
 *   depth-preferred slots (the least valuable by depth and age is replaced
 *   when the new entry is at least as deep or the old one is from an
 *   earlier search) and one always-replace slot; entries age by search
 *   generation. Entries are written and read as two 64-bit words, the key
 *   stored XOR the data, so a torn write by another thread reads as a miss
 *   (lazy SMP without locks; Hyatt and Mann's "lockless hashing").
 * - Aspiration windows from ASP_DEPTH; TT cutoffs at non-PV nodes, and
 *   with PV_TT_CUT from an exact entry at PV nodes too (the PV then ends
 *   there); internal iterative deepening at PV nodes without a TT move
 *   (IID_DEPTH, off); enhanced transposition cutoff (a
 *   child's TT bound refutes the node before any search); ProbCut (a
 *   reduced-depth null-window search above beta cuts a non-PV node);
 *   logarithmic late-move reductions; reverse futility, futility and
 *   late-move pruning at shallow non-PV nodes (off unless set); single-reply,
 *   royal-threat and horizon threat extensions; compulsory captures never
 *   end a line. A node whose side to move can take the enemy royal piece
 *   (Shatra's Biy) is a win at once; a position a rule decided is scored.
 * - Lazy SMP: helper threads iterate over the shared TT; every thread
 *   starts at the depth after the deepest one completed (helpers from the
 *   third on: odd ones a ply further), and a thread whose depth another
 *   completes drops its iteration and goes on (the main thread adopts that
 *   result), so no depth is finished twice; the first to complete the
 *   depth limit ends the search; the result is the deepest completed
 *   iteration. Optionally (SMP_DEFER_DEPTH) a move another thread is
 *   searching now is deferred to the end of the move list.
 * - Ordering: TT move, captures by what they take (Game.capture_value), promotions, two killers, the
 *   counter-move of the opponent's last move, history with depth-squared
 *   bonuses for the cutoff move and maluses for the quiet moves tried
 *   before it (gravity-bounded); optionally (CONT_HIST, off) a counter-move
 *   history keyed by the opponent's last destination square, updated the
 *   same way and added to the history order.
 * - Constants: engine/search_params.def. */
#include "engine/search.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "engine/timeman.h"

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3, TT_WAYS = 4, THREADS_MAX = 64, LMR_N = 64, BUSY_N = 1 << 13 };

/* One TT entry: data packs score (16), depth (8), flag (2), generation (6),
 * from (8), to (8), capture tag (16); check = key ^ data. */
typedef struct TTEntry {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} TTEntry;

typedef struct TTBucket {
    TTEntry e[TT_WAYS];
} TTBucket;

typedef struct TTHit {
    int score, depth, flag;
    uint8_t from, to;
    uint16_t tag;
} TTHit;

typedef struct Frame {
    Position pos;
    MoveList moves;
    int scores[MOVES_MAX];
    Move killers[2];
    Move move;       /* the move that led to this frame's position */
    int threat_ext;  /* threat extensions spent on the line to here */
    int evasions;    /* royal-threat evasions left to quiescence */
    int decided;     /* is_draw found the game decided by a rule: 1 the side to move won, -1 lost, 0 not */
} Frame;

typedef struct Worker {
    struct Engine *eng;
    int id;
    uint64_t nodes;
    bool aborted;
    bool superseded; /* the abort was another thread completing this iteration's depth */
    int root_depth;
    uint64_t keys[PLY_MAX + 2];
    int16_t hist[2][64][64];
    int16_t cont[2][64][64][64]; /* side, opponent's last destination, from, to */
    Move counter[64][64];
    Frame frames[PLY_MAX + 2];
    int pv_len[PLY_MAX + 2];
    Move pv[PLY_MAX + 2][PLY_MAX + 2];
    /* result of the worker's last completed iteration */
    int done_depth, done_score, done_pv_len;
    Move done_pv[PLY_MAX + 1];
    pthread_t thread;
} Worker;

struct Engine {
    const Game *game;
    const int32_t *weights;
    int params[SEARCH_PARAMS_COUNT];
    int8_t lmr[LMR_N][LMR_N];
    TTBucket *tt; /* anonymous mapping (zero pages, huge pages where the kernel allows) */
    size_t tt_bytes;
    uint64_t tt_mask;
    unsigned generation;
    volatile int *stop_flag;
    EngineProbeFn probe;
    void *probe_ctx;
    atomic_int stop_helpers;
    /* Lazy SMP: the deepest iteration any thread completed in this search
     * (under best_lock), and a flag set once it reaches max_depth. */
    pthread_mutex_t best_lock;
    int best_depth, best_score, best_pv_len;
    Move best_pv[PLY_MAX + 1];
    atomic_int completed; /* = best_depth, read without the lock */
    /* Moves being searched now by some thread (lazy SMP deferral): a hash of
     * (position key, move), set while the move is searched. */
    _Atomic uint64_t busy[BUSY_N];
    int threads;
    Worker *workers[THREADS_MAX];
    int (*stop_fn)(void *ctx);
    void *stop_ctx;
    /* per search */
    uint64_t node_limit;
    int64_t deadline_ns;
    const uint64_t *history;
    int history_len;
    Position root;
    int root_moves_len;
    int max_depth;
};

static const SearchParamInfo PARAMS[SEARCH_PARAMS_COUNT] = {
#define SP(name, def, lo, hi, step, doc) {#name, def, lo, hi, step, doc},
#include "engine/search_params.def"
#undef SP
};

#define P(e, name) ((e)->params[SP_##name])

const SearchParamInfo *search_params(void) { return PARAMS; }

int search_param_default(const Game *game, int i)
{
    for (const GameSearchParam *p = game ? game->search_params : NULL; p && p->name; p++)
        if (strcmp(p->name, PARAMS[i].name) == 0) return p->value;
    return PARAMS[i].def;
}

int search_param_find(const char *name)
{
    for (int i = 0; i < SEARCH_PARAMS_COUNT; i++)
        if (strcmp(PARAMS[i].name, name) == 0) return i;
    return -1;
}

static void build_lmr(Engine *e)
{
    double base = P(e, LMR_BASE) / 100.0, div = P(e, LMR_DIV) / 100.0;
    for (int d = 0; d < LMR_N; d++)
        for (int m = 0; m < LMR_N; m++) {
            double r = d && m ? base + log((double)d) * log((double)m) / div : 0;
            e->lmr[d][m] = (int8_t)(r < 0 ? 0 : r > 30 ? 30 : (int)r);
        }
}

int engine_set_param(Engine *e, const char *name, int value, char err[ERR_MAX])
{
    int i = search_param_find(name);
    if (i < 0) {
        snprintf(err, ERR_MAX, "unknown search parameter '%.64s' (dama search --list-params)", name);
        return -1;
    }
    if (value < PARAMS[i].min || value > PARAMS[i].max) {
        snprintf(err, ERR_MAX, "search parameter %s=%d outside its range %d..%d", name, value, PARAMS[i].min,
                 PARAMS[i].max);
        return -1;
    }
    e->params[i] = value;
    build_lmr(e);
    return 0;
}

int engine_get_param(const Engine *e, int i) { return e->params[i]; }

int engine_set_params_text(Engine *e, const char *text, char err[ERR_MAX])
{
    const char *p = text;
    int item = 0;
    while (*p) {
        /* one item: up to ',' or newline; '#' starts a comment to the end of line */
        const char *end = p + strcspn(p, ",\n");
        char buf[128];
        size_t n = (size_t)(end - p);
        if (n >= sizeof buf) {
            snprintf(err, ERR_MAX, "search parameter item %d too long: '%.40s...'", item + 1, p);
            return -1;
        }
        memcpy(buf, p, n);
        buf[n] = '\0';
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *s = buf + strspn(buf, " \t\r");
        size_t len = strlen(s);
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r')) s[--len] = '\0';
        if (*s) {
            item++;
            char *eq = strchr(s, '=');
            if (!eq) {
                snprintf(err, ERR_MAX, "search parameter '%.64s': expected NAME=VALUE", s);
                return -1;
            }
            *eq = '\0';
            char *name = s, *val = eq + 1;
            size_t nl = strlen(name);
            while (nl && (name[nl - 1] == ' ' || name[nl - 1] == '\t')) name[--nl] = '\0';
            val += strspn(val, " \t");
            char *vend;
            long v = strtol(val, &vend, 10);
            if (!*val || *vend) {
                snprintf(err, ERR_MAX, "search parameter %.64s: '%.32s' is not an integer", name, val);
                return -1;
            }
            bool huge = v < -1000000 || v > 1000000; /* beyond every range: refused below with the text given */
            if (engine_set_param(e, name, huge ? (v < 0 ? -1000001 : 1000001) : (int)v, err) != 0) {
                const char *range = strstr(err, "outside its range ");
                char msg[ERR_MAX];
                if (huge && range) {
                    snprintf(msg, sizeof msg, "search parameter %.64s=%.32s %.60s", name, val, range);
                    memcpy(err, msg, ERR_MAX);
                }
                return -1;
            }
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

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

static Worker *worker_new(Engine *e, int id)
{
    Worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->eng = e;
    w->id = id;
    return w;
}

Engine *engine_new(const Game *game, size_t hash_mb)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    if (hash_mb < 1) hash_mb = 1;
    uint64_t buckets = (uint64_t)hash_mb * 1024 * 1024 / sizeof(TTBucket);
    uint64_t pow2 = 1;
    while (pow2 * 2 <= buckets) pow2 *= 2;
    /* An anonymous mapping is zeroed by the kernel page by page on first
     * touch, so a large table costs nothing at start-up (but each page
     * touched costs a fault: keep the table small for short searches;
     * huge pages were tried and stall on compaction). */
    e->tt_bytes = (size_t)pow2 * sizeof(TTBucket);
    void *map = mmap(NULL, e->tt_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    e->tt = map == MAP_FAILED ? NULL : map;
    e->workers[0] = worker_new(e, 0);
    if (!e->tt || !e->workers[0]) {
        if (e->tt) munmap(e->tt, e->tt_bytes);
        free(e->workers[0]);
        free(e);
        return NULL;
    }
    e->threads = 1;
    pthread_mutex_init(&e->best_lock, NULL);
    e->tt_mask = pow2 - 1;
    e->game = game;
    e->weights = game->weights_default;
    for (int i = 0; i < SEARCH_PARAMS_COUNT; i++) e->params[i] = search_param_default(game, i);
    build_lmr(e);
    return e;
}

void engine_free(Engine *e)
{
    if (!e) return;
    for (int i = 0; i < e->threads; i++) free(e->workers[i]);
    munmap(e->tt, e->tt_bytes);
    pthread_mutex_destroy(&e->best_lock);
    free(e);
}

int engine_set_threads(Engine *e, int n)
{
    if (n < 1) n = 1;
    if (n > THREADS_MAX) n = THREADS_MAX;
    for (int i = e->threads; i < n; i++) {
        e->workers[i] = worker_new(e, i);
        if (!e->workers[i]) {
            for (int j = e->threads; j < i; j++) free(e->workers[j]);
            return -1;
        }
    }
    for (int i = n; i < e->threads; i++) free(e->workers[i]);
    e->threads = n;
    return 0;
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

void engine_set_stop_fn(Engine *e, int (*fn)(void *ctx), void *ctx)
{
    e->stop_fn = fn;
    e->stop_ctx = ctx;
}

void engine_clear(Engine *e)
{
    memset(e->tt, 0, (e->tt_mask + 1) * sizeof(TTBucket));
    e->generation = 0;
    for (int t = 0; t < e->threads; t++) {
        Worker *w = e->workers[t];
        memset(w->hist, 0, sizeof w->hist);
        memset(w->counter, 0, sizeof w->counter);
        memset(w->cont, 0, sizeof w->cont);
        for (int i = 0; i <= PLY_MAX + 1; i++) memset(w->frames[i].killers, 0, sizeof w->frames[i].killers);
    }
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

static uint64_t tt_pack(int score, int depth, int flag, unsigned gen, const Move *m)
{
    if (depth < -1) depth = -1;
    if (depth > 126) depth = 126;
    uint64_t d = (uint64_t)(uint16_t)(int16_t)score;
    d |= (uint64_t)(uint8_t)(int8_t)depth << 16;
    d |= (uint64_t)(flag & 3) << 24;
    d |= (uint64_t)(gen & 63) << 26;
    if (m) {
        d |= (uint64_t)m->from << 32;
        d |= (uint64_t)m->to << 40;
        d |= (uint64_t)capture_tag(m) << 48;
    }
    return d;
}

static void tt_unpack(uint64_t d, TTHit *h)
{
    h->score = (int16_t)(d & 0xFFFF);
    h->depth = (int8_t)((d >> 16) & 0xFF);
    h->flag = (int)((d >> 24) & 3);
    h->from = (uint8_t)(d >> 32);
    h->to = (uint8_t)(d >> 40);
    h->tag = (uint16_t)(d >> 48);
}

static bool tt_probe(const Engine *e, uint64_t key, TTHit *h)
{
    TTBucket *b = &e->tt[key & e->tt_mask];
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((c ^ d) == key && ((d >> 24) & 3)) {
            tt_unpack(d, h);
            return true;
        }
    }
    return false;
}

static void tt_store(Engine *e, uint64_t key, int score, int depth, int flag, const Move *m)
{
    TTBucket *b = &e->tt[key & e->tt_mask];
    unsigned gen = e->generation & 63;
    int slot = -1;
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((c ^ d) == key) {
            slot = i;
            TTHit old;
            tt_unpack(d, &old);
            /* keep a deeper bound of this search unless the new one is exact */
            if (flag != TT_EXACT && old.depth > depth + 2 && ((d >> 26) & 63) == gen) return;
            if (!m && old.flag) { /* no move of its own: keep the old one */
                uint64_t nd = tt_pack(score, depth, flag, gen, NULL) | (d & 0xFFFFFFFF00000000ULL);
                atomic_store_explicit(&b->e[i].data, nd, memory_order_relaxed);
                atomic_store_explicit(&b->e[i].check, key ^ nd, memory_order_relaxed);
                return;
            }
            break;
        }
    }
    if (slot < 0) {
        /* depth-preferred slots 0..2: the least valuable (shallow, old) */
        int worst = 0, worst_val = 1 << 30;
        for (int i = 0; i < TT_WAYS - 1; i++) {
            uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
            int dep = (int8_t)((d >> 16) & 0xFF), age = (int)((gen - ((d >> 26) & 63)) & 63);
            int val = ((d >> 24) & 3) ? dep - 8 * age : -1000;
            if (val < worst_val) {
                worst_val = val;
                worst = i;
            }
        }
        uint64_t wd = atomic_load_explicit(&b->e[worst].data, memory_order_relaxed);
        bool stale = !((wd >> 24) & 3) || ((wd >> 26) & 63) != gen;
        slot = stale || depth >= (int8_t)((wd >> 16) & 0xFF) ? worst : TT_WAYS - 1; /* else: always-replace */
    }
    uint64_t nd = tt_pack(score, depth, flag, gen, m);
    atomic_store_explicit(&b->e[slot].data, nd, memory_order_relaxed);
    atomic_store_explicit(&b->e[slot].check, key ^ nd, memory_order_relaxed);
}

static bool time_up(Worker *w)
{
    Engine *e = w->eng;
    if (w->id > 0 || w->done_depth >= 1) {
        /* Lazy SMP: another thread completed this iteration's depth (or the
         * last one): this iteration is superseded. */
        if (e->threads > 1 && (w->nodes & 1023) == 0 &&
            atomic_load_explicit(&e->completed, memory_order_relaxed) >= w->root_depth) {
            w->superseded = true;
            return true;
        }
    }
    if (w->id > 0)
        return (w->nodes & 1023) == 0 && atomic_load_explicit(&e->stop_helpers, memory_order_relaxed);
    if (w->done_depth < 1) return false; /* depth 1 always completes */
    if (e->node_limit && w->nodes >= e->node_limit) return true;
    if ((w->nodes & 1023) == 0) {
        if (e->stop_flag && *e->stop_flag) return true;
        if (e->stop_fn && e->stop_fn(e->stop_ctx)) return true;
        if (e->deadline_ns && now_ns() >= e->deadline_ns) return true;
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

enum { ORD_TT = 1 << 30, ORD_CAPTURE = 1 << 28, ORD_PROMO = 1 << 27, ORD_KILLER = 1 << 26 };

/* Capture order by the game's victim values (capped below the TT move). */
static int capture_order(const Game *g, const Position *pos, const Move *m)
{
    int v = g->capture_value(pos, m);
    return v > GAME_ROYAL_VALUE ? GAME_ROYAL_VALUE * 8 : v * 8;
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

static void score_moves(Worker *w, int ply, const Move *tt_move)
{
    Frame *f = &w->frames[ply];
    const Game *g = w->eng->game;
    Color side = g->side_to_move(&f->pos);
    const Move *prev = ply > 0 ? &w->frames[ply].move : NULL;
    const Move *cm = prev ? &w->counter[prev->from & 63][prev->to & 63] : NULL;
    for (int i = 0; i < f->moves.len; i++) {
        const Move *m = &f->moves.moves[i];
        int s;
        if (tt_move && same_move(m, tt_move))
            s = ORD_TT;
        else if (m->kind == MOVE_CAPTURE)
            s = ORD_CAPTURE + (g->capture_value ? capture_order(g, &f->pos, m) : __builtin_popcountll(m->captured) * 1024) +
                m->promo * 512;
        else if (m->promo)
            s = ORD_PROMO;
        else if (same_move(m, &f->killers[0]))
            s = ORD_KILLER + 3;
        else if (same_move(m, &f->killers[1]))
            s = ORD_KILLER + 2;
        else if (cm && same_move(m, cm))
            s = ORD_KILLER + 1;
        else {
            s = w->hist[side][m->from & 63][m->to & 63];
            if (prev && P(w->eng, CONT_HIST)) s += P(w->eng, CONT_HIST) * w->cont[side][prev->to & 63][m->from & 63][m->to & 63];
        }
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
    if (ply > 0 && is_draw(w, ply)) return 0;
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

static void hist_update(Worker *w, int16_t *h, int bonus)
{
    int max = P(w->eng, HIST_MAX);
    int v = *h;
    v += bonus - v * (bonus < 0 ? -bonus : bonus) / max;
    if (v > max) v = max;
    if (v < -max) v = -max;
    *h = (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
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
        if (is_draw(w, ply)) return 0;
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

    /* Reverse futility (static null move) and futility: a shallow non-PV
     * node with no capture pending for either side, whose static value is
     * far above beta, fails high; one far below alpha searches only its
     * first quiet move. */
    bool prune_ok = !pv_node && ply > 0 && !forced && !royal && beta < SCORE_WIN_MIN && alpha > -SCORE_WIN_MIN &&
                    depth <= (P(e, RFP_DEPTH) > P(e, FUT_DEPTH) ? P(e, RFP_DEPTH) : P(e, FUT_DEPTH)) &&
                    g->is_quiet(&f->pos);
    bool futile = false;
    if (prune_ok) {
        int ev = engine_evaluate(e, &f->pos);
        if (depth <= P(e, RFP_DEPTH) && ev - P(e, RFP_MARGIN) * depth >= beta) return ev;
        futile = depth <= P(e, FUT_DEPTH) && ev + P(e, FUT_MARGIN) * depth <= alpha;
    }
    int lmp_quiets = !pv_node && ply > 0 && !forced && !royal && depth <= P(e, LMP_DEPTH)
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
            if (depth >= P(e, LMR_MIN_DEPTH) && i >= P(e, LMR_MIN_MOVE) && !forced && quiet &&
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
        *soft_ms = *hard_ms = lim->movetime_ms;
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
    w->nodes = 0;
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
                int64_t elapsed = now_ns() - start;
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
            v = alphabeta(w, 0, depth, alpha, beta, true, true);
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
        int64_t elapsed = now_ns() - start;
        r->seconds = (double)elapsed * 1e-9;
        if (info) info(info_ctx, r);
        if (e->root_moves_len == 1 && !limits->depth) break; /* forced: no need to think */
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
    iterate(w, &dummy, &none, now_ns(), 0, 0, NULL, NULL);
    return NULL;
}

int engine_search(Engine *e, const Position *root, const uint64_t *history, int history_len,
                  const SearchLimits *limits, SearchResult *r, SearchInfoFn info, void *info_ctx)
{
    memset(r, 0, sizeof *r);
    int64_t start = now_ns();
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
    atomic_store(&e->completed, 0);
    e->best_depth = 0;
    int started = 1;
    for (int t = 1; t < e->threads; t++) {
        if (pthread_create(&e->workers[t]->thread, NULL, helper_main, e->workers[t]) != 0) break;
        started++;
    }
    iterate(e->workers[0], r, limits, start, soft_ms, hard_ms, info, info_ctx);
    atomic_store(&e->stop_helpers, 1);
    r->nodes = e->workers[0]->nodes;
    for (int t = 1; t < started; t++) {
        pthread_join(e->workers[t]->thread, NULL);
        r->nodes += e->workers[t]->nodes;
    }
    r->seconds = (double)(now_ns() - start) * 1e-9;
    if (adopt(e->workers[0], r->depth, r, NULL) && info) info(info_ctx, r); /* a helper's deeper completed iteration */
    return 0;
}
