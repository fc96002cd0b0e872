/* search_internal.h — what the search's own files share: the Engine and
 * its per-thread Worker and Frame, the transposition table's entry layout,
 * the search parameters' accessor P(), small helpers on moves, and the
 * one function one file calls in another. Private: included only by
 * engine/search*.c (and through them search_tt.h and search_order.h);
 * engine/search.h is the interface. The clock is util/clock.h's
 * (clock_now_ns: integer nanoseconds for the deadline checks).
 *
 * The files: search.c (iterative deepening, lazy SMP, time control,
 * engine_search), search_alphabeta.c (PVS, quiescence, pruning and
 * extensions, draws), search_tt.h (the transposition table) and
 * search_order.h (move ordering and history), both static inline so they
 * inline into the node functions as before, and search_engine.c (the
 * Engine's life: table allocation, threads, settings, search parameters).
 */
#ifndef DAMA_SEARCH_INTERNAL_H
#define DAMA_SEARCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/search.h"
#include "util/clock.h"

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
    uint64_t smp_counted; /* of them, added to Engine.smp_nodes */
    double cpu_seconds; /* a helper thread: the CPU time its last search took */
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
    /* Lazy SMP: the nodes of all threads, each adding its own in steps of
     * 1024, and a flag any thread sets when the search's limits (nodes,
     * deadline) are reached, which the main thread reads at every node:
     * a main thread starved of CPU by its helpers still stops in time. */
    _Atomic uint64_t smp_nodes;
    atomic_int smp_stop;
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

#define P(e, name) ((e)->params[SP_##name])

static inline uint16_t capture_tag(const Move *m)
{
    uint64_t x = m->captured * 0x9E3779B97F4A7C15ULL;
    return (uint16_t)((x >> 48) ^ (uint16_t)(m->kind << 8) ^ m->promo);
}

static inline bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->kind == b->kind &&
           a->promo == b->promo;
}

/* One iteration's search of the root (search_alphabeta.c): PVS of
 * w->frames[0] to `depth` plies within (alpha, beta); sets w->aborted when
 * a limit stopped it. */
int search_root(Worker *w, int depth, int alpha, int beta);

#endif
