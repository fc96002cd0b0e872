/* search.h — iterative-deepening alpha-beta (PVS) over any Game.
 *
 * One Engine per game being played: it owns its transposition table,
 * killer, counter-move and history tables and search stacks (one per
 * search thread, engine_set_threads); N engines run in one process
 * without locks. Scores are centi-men from the side to move's view; a won game is
 * SCORE_WIN - plies to the win, a lost one the negation. Searches limited by
 * depth or nodes are deterministic (same engine state in, same result out);
 * a movetime limit is not.
 */
#ifndef DAMA_SEARCH_H
#define DAMA_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

enum { SCORE_WIN = 30000, SCORE_WIN_MIN = SCORE_WIN - 1000, SCORE_INF = 32000 };

typedef struct SearchLimits {
    int depth;          /* plies; 0 = no depth limit (then nodes, movetime or a clock must be set) */
    uint64_t nodes;     /* node budget; 0 = none. The first iteration (depth 1) completes past it, so that
                         * the move comes from a search, unless it runs 100 times past it (dozens of kings
                         * a side); a stop, and the deadline of movetime or a clock, end depth 1 too
                         * (the best root move so far, else the first legal one). On several threads
                         * (lazy SMP) it is the nodes of all threads, counted in steps of 1,024 per
                         * thread: a search stops within about 1,024 nodes a thread past it */
    int64_t movetime_ms; /* wall-clock budget for this move in milliseconds; 0 = none */
    /* Clock (used when time_ms > 0 and movetime_ms is 0): time left on the
     * mover's clock, increment per move, moves until the next time control
     * (0 = sudden death / unknown). The time manager turns them into a soft
     * and a hard limit (engine_time_budget). */
    int64_t time_ms;
    int64_t inc_ms;
    int movestogo;
} SearchLimits;

/* Transposition table size (MiB) suited to one search of `limits` in a
 * fresh process: a new table's pages cost a fault each on first touch and
 * a large table misses the caches, so short searches get small tables:
 * movetime (or the clock's hard limit) / 25 ms rounded down to a power of
 * two, within 1..64; 16 for depth- or node-limited searches. (Measured: at
 * 100 ms/move a 4 MiB table reached depth 12-14 where 64 MiB reached 9-10.) */
size_t engine_hash_mb_for(const SearchLimits *limits);

/* The soft limit (no new iteration starts past it) and hard limit (the
 * search stops) in milliseconds for `limits`; both 0 when the limits name
 * no time. movetime: soft = hard = movetime. Clock (time_ms > 0): the time
 * manager's timeman_budget(time_ms, inc_ms, movestogo), engine/timeman.h.
 * Pure; thread-safe. */
void engine_time_budget(const SearchLimits *limits, int64_t *soft_ms, int64_t *hard_ms);

typedef struct SearchResult {
    bool has_move;   /* false when the root has no legal move */
    Move best;
    int score;       /* side to move's view, centi-men or a win score */
    int depth;       /* last completed iteration */
    uint64_t nodes;  /* all nodes visited, quiescence included */
    double seconds;     /* wall time of the search */
    double cpu_seconds; /* CPU time of its threads (the main one and every helper) */
    int pv_len;      /* pv[0] is best: the line of the last completed iteration, or of
                      * an unfinished one (fail-high, stop) whose move replaced it */
    Move pv[PLY_MAX];
} SearchResult;

/* Called after each completed iteration (may be NULL). */
typedef void (*SearchInfoFn)(void *ctx, const SearchResult *r);

typedef struct Engine Engine;

/* New engine for `game` with a transposition table of about hash_mb MiB
 * (rounded down to a power of two entries, at least 1 MiB). Uses the
 * game's compiled-in weights until engine_set_weights. NULL if out of
 * memory. Memory: the TT plus about 1.5 MiB of stacks. A table up to 64
 * MiB is made present (zeroed by the kernel) here, not by the first
 * search (docs/search.md, "Transposition table"). */
Engine *engine_new(const Game *game, size_t hash_mb);
/* engine_new, but the table is left to be faulted in as it is touched: for
 * an engine made only to see that the memory can be had (a preflight). */
Engine *engine_new_unpopulated(const Game *game, size_t hash_mb);
void engine_free(Engine *e);
/* Weights used by the evaluation (not copied: must outlive the engine's use;
 * NULL restores the compiled-in ones). */
void engine_set_weights(Engine *e, const int32_t *weights);
/* Forget the TT, killers, counter-moves and history: call at a new game
 * only; between the moves of one game the tables are kept (and TT entries
 * age by search generation). Touches the whole TT (cost ~ hash size). */
void engine_clear(Engine *e);
/* Stop flag polled during the search (may be NULL): a non-zero value ends
 * the search as soon as one iteration has completed. */
void engine_set_stop_flag(Engine *e, volatile int *stop);
/* Stop callback polled with the stop flag (every 1,024 nodes, on the
 * searching thread; NULL: none): a non-zero return ends the search as the
 * flag does. The engine library's API uses it for dama_stop and app
 * callbacks. */
void engine_set_stop_fn(Engine *e, int (*fn)(void *ctx), void *ctx);

/* Search `root`. history[0..history_len) are the Zobrist keys of the game's
 * earlier positions (history[len-1] is root's parent), for repetition.
 * Returns 0; r->has_move is false if the root has no legal move. */
int engine_search(Engine *e, const Position *root, const uint64_t *history, int history_len,
                  const SearchLimits *limits, SearchResult *r, SearchInfoFn info, void *info_ctx);

/* Optional probe of an exact oracle (an endgame database), called at every
 * node below the root (whose moves are so scored exactly) after the draw
 * rules: returns true and sets *score, side to move's view, when pos's
 * value is known: 0 a draw, SCORE_WIN - d a win in d plies from pos,
 * -(SCORE_WIN - d) a loss in d plies. fn decides which positions it knows
 * (e.g. by piece count) and must be safe to call from the engine's threads
 * (every search thread calls it); ctx belongs to the caller. fn NULL
 * removes the probe. */
typedef bool (*EngineProbeFn)(void *ctx, const Position *pos, int *score);
void engine_set_probe(Engine *e, EngineProbeFn fn, void *ctx);

/* Search parameters (engine/search_params.def): one table for all
 * games; a game changes defaults through Game.search_params. Indices are
 * stable within one build. */
typedef enum SearchParamId {
#define SP(name, def, lo, hi, step, needs, doc) SP_##name,
#include "engine/search_params.def"
#undef SP
    SEARCH_PARAMS_COUNT
} SearchParamId;

/* What a game must have for a search constant to do anything. */
typedef enum SearchParamNeeds {
    SEARCH_NEEDS_ANY = 0, /* every game */
    SEARCH_NEEDS_ROYAL,   /* a royal piece (Game.royal_attacked) */
    SEARCH_NEEDS_PIECES   /* a count of the pieces on the board (Game.piece_count) */
} SearchParamNeeds;

typedef struct SearchParamInfo {
    const char *name;
    int def; /* default of every game that does not list its own (Game.search_params) */
    int min, max, step;
    SearchParamNeeds needs;
    const char *doc;
} SearchParamInfo;

/* The parameter table (SEARCH_PARAMS_COUNT entries, static storage). */
const SearchParamInfo *search_params(void);
/* Default of parameter i for `game`: the game's own (Game.search_params)
 * if it lists one, else the table's. game may be NULL (the table's). */
int search_param_default(const Game *game, int i);
/* Index of the parameter named `name`, or -1. */
int search_param_find(const char *name);
/* Whether parameter i does anything in `game` (its SearchParamNeeds met;
 * game NULL: true). */
bool search_param_applies(const Game *game, int i);
/* The message for parameter i that does nothing in `game`, naming both
 * and what the parameter needs ("search parameter ROYAL_EXT does nothing
 * in russian: ..."). */
void search_param_applies_err(const Game *game, int i, char err[ERR_MAX]);
/* Set parameter `name` to `value` for this engine's next searches. Returns
 * 0, or -1 with a message naming the parameter (unknown, doing nothing in
 * the engine's game: search_param_applies, or the value outside its
 * range). Not thread-safe against a running search. */
int engine_set_param(Engine *e, const char *name, int value, char err[ERR_MAX]);
int engine_get_param(const Engine *e, int i);
/* Parse "NAME=VALUE[,NAME=VALUE...]" (also newlines, '#' comments: a file's
 * text) and apply each to e. Returns 0 or -1 with err naming the bad item
 * (a text of several lines: "line N: ..."); a name given twice is refused
 * ("LMR_BASE is set again (first on line 1)", "... is given twice"). */
int engine_set_params_text(Engine *e, const char *text, char err[ERR_MAX]);
/* As engine_set_params_text, but a constant that does nothing in e's game
 * (search_param_applies) is left out instead of refused, its name written
 * to skipped (names joined by ", ", each once; "" when none): for a
 * session that keeps one set of constants while its game changes (a Hub
 * engine's variant). A name unknown, a value not an integer or outside
 * its range is still refused. Returns 0 or -1 with err naming the item. */
int engine_set_params_applying(Engine *e, const char *text, char skipped[ERR_MAX], char err[ERR_MAX]);

/* Threads for one search (lazy SMP): helpers search the same root over the
 * shared transposition table (lock-free entries checked by key XOR data),
 * each at the depth after the deepest iteration completed (from the third
 * helper on, odd ones a ply further, within the depth limit); a thread
 * whose depth another completes drops that iteration, so no depth is
 * finished twice; the first thread to complete the depth limit ends the
 * search, and the result (and the info callback's last call) is the
 * deepest completed iteration of any thread. SMP_DEFER_DEPTH (search
 * parameter) defers moves another thread is searching.
 * n >= 1; returns 0, or -1 if out of memory (then the engine keeps its
 * former count). With n > 1 no search is deterministic. */
int engine_set_threads(Engine *e, int n);

/* Static evaluation from the side to move's view with the engine's weights. */
int engine_evaluate(const Engine *e, const Position *pos);

/* Quiescence value of pos at the root (captures resolved), side to move's view. */
int engine_quiescence(Engine *e, const Position *pos);

#endif
