/* test_search.c — search: forced wins, determinism, limits, evaluation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/game.h"
#include "engine/games/draughts/draughts.h"
#include "engine/search.h"
#include "engine/weights_file.h"
#include "util/clock.h"

/* A Russian middlegame whose searches fill a table (node counts, threads, the table tests). */
#define TABLE_FEN "W:Wa1,e1,b2,f2,h2,c3,e3,g3,d4,f4:Bb6,f6,h6,a7,c7,e7,g7,d8,f8,h8"

static const Game *russian(void)
{
    game_init_all();
    return game_find("russian");
}

static void search_fen(const char *fen, const SearchLimits *lim, SearchResult *r, char best[MOVE_STR_MAX])
{
    const Game *g = russian();
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(g->pos_from_fen(&pos, fen, err), 0);
    Engine *e = engine_new(g, 4);
    assert_non_null(e);
    engine_search(e, &pos, NULL, 0, lim, r, NULL, NULL);
    if (r->has_move) g->move_to_str(&pos, &r->best, best);
    engine_free(e);
}

/* White king on a1 against a black man on c3 that can only step: the king
 * takes nothing yet, but Black to move after c3-b2/d2 loses the man. A
 * simpler exact case: White to move captures the last black piece and wins
 * at once (Black has no move). */
static void test_win_in_one(void **state)
{
    (void)state;
    SearchLimits lim = {.depth = 3};
    SearchResult r;
    char best[MOVE_STR_MAX];
    search_fen("W:Wc3:Bd4", &lim, &r, best);
    assert_true(r.has_move);
    assert_string_equal(best, "c3:e5");
    assert_int_equal(r.score, SCORE_WIN - 1); /* Black to move has no move at ply 1 */
    /* the same win as the only legal move, under a time or node limit: the
     * forced move is searched to depth 2, whose reply node sees Black has
     * no move (at depth 1 quiescence gave a plain score) */
    SearchLimits timed[] = {{.movetime_ms = 50}, {.nodes = 1000}};
    for (int i = 0; i < 2; i++) {
        search_fen("W:Wc1:Bb2", &timed[i], &r, best);
        assert_string_equal(best, "c1:a3");
        assert_int_equal(r.score, SCORE_WIN - 1);
    }
}

/* A lost position: every White move loses a piece; the score must be bad,
 * and a side with no move reports no move. */
static void test_no_move(void **state)
{
    (void)state;
    SearchLimits lim = {.depth = 4};
    SearchResult r;
    char best[MOVE_STR_MAX];
    search_fen("W:WKa1:Bb2,c3", &lim, &r, best);
    assert_false(r.has_move);
}

/* Quiescence plays out compulsory captures: White must take c3:e5:g7, Black
 * must retake h8:f6, then nothing hangs; the value is the static evaluation
 * of that final position (White to move, so White's view). */
static void test_quiescence_resolves_captures(void **state)
{
    (void)state;
    const Game *g = russian();
    Position pos, after;
    char err[ERR_MAX];
    assert_int_equal(g->pos_from_fen(&pos, "W:Wc3,a1:Bd4,f6,h8", err), 0);
    assert_int_equal(g->pos_from_fen(&after, "W:Wa1:Bf6", err), 0);
    Engine *e = engine_new(g, 1);
    int q = engine_quiescence(e, &pos);
    int expected = engine_evaluate(e, &after);
    engine_free(e);
    assert_int_equal(q, expected);
}

static void test_node_limit_deterministic(void **state)
{
    (void)state;
    SearchLimits lim = {.nodes = 30000};
    SearchResult a, b;
    char ba[MOVE_STR_MAX], bb[MOVE_STR_MAX];
    const char *start = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
    search_fen(start, &lim, &a, ba);
    search_fen(start, &lim, &b, bb);
    assert_string_equal(ba, bb);
    assert_int_equal(a.score, b.score);
    assert_int_equal(a.depth, b.depth);
    assert_true(a.nodes >= 30000 && a.nodes <= 30001);
    assert_int_equal(a.nodes, b.nodes);
}

static void test_depth_limit_and_pv_legal(void **state)
{
    (void)state;
    const Game *g = russian();
    SearchLimits lim = {.depth = 8};
    SearchResult r;
    char best[MOVE_STR_MAX];
    const char *fen = TABLE_FEN;
    search_fen(fen, &lim, &r, best);
    assert_int_equal(r.depth, 8);
    assert_true(r.pv_len >= 1);
    /* every PV move is legal in turn */
    Position pos, next;
    char err[ERR_MAX];
    g->pos_from_fen(&pos, fen, err);
    for (int i = 0; i < r.pv_len; i++) {
        MoveList list;
        g->gen_moves(&pos, &list, GEN_DISTINCT);
        bool found = false;
        for (int j = 0; j < list.len; j++)
            found |= memcmp(&list.moves[j], &r.pv[i], sizeof(Move)) == 0;
        assert_true(found);
        g->make_move(&pos, &r.pv[i], &next);
        pos = next;
    }
}

/* A node budget that ends an iteration after a better first root move was
 * found: the best move is that move, and the PV must start with it (it
 * used to keep the line of the last completed iteration: Russian start at
 * 511 nodes gave bestmove c3-d4 with pv e3-f4 ...). Every budget of the
 * sweep checks the same, in Russian and Shatra. */
static void test_pv_starts_with_best(void **state)
{
    (void)state;
    static const struct {
        const char *game;
        uint64_t first, step, last;
    } cases[] = {
        {"russian", 511, 1, 511},
        {"russian", 648, 1, 648},
        {"shatra", 1059, 1, 1059},
        {"russian", 100, 137, 8000},
        {"shatra", 100, 137, 8000},
    };
    game_init_all();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Game *g = game_find(cases[i].game);
        assert_non_null(g);
        Position pos;
        char err[ERR_MAX];
        assert_int_equal(game_parse_position(g, NULL, &pos, err), 0);
        for (uint64_t n = cases[i].first; n <= cases[i].last; n += cases[i].step) {
            Engine *e = engine_new(g, 1);
            assert_non_null(e);
            SearchLimits lim = {.nodes = n};
            SearchResult r;
            engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
            engine_free(e);
            assert_true(r.has_move);
            if (r.pv_len == 0) continue; /* no iteration searched a move */
            if (memcmp(&r.pv[0], &r.best, sizeof r.best) != 0)
                fail_msg("%s, %llu nodes: the PV does not start with the best move", g->name,
                         (unsigned long long)n);
        }
    }
}

/* Time manager: soft and hard limits from the clock (table). */
static void test_time_budget(void **state)
{
    (void)state;
    static const struct {
        SearchLimits lim;
        int64_t soft, hard;
    } cases[] = {
        {{.depth = 5}, 0, 0},
        {{.movetime_ms = 100}, 100, 100},
        {{.movetime_ms = 100, .time_ms = 5000}, 100, 100},        /* movetime wins */
        {{.time_ms = 60000}, 2000, 8000},                        /* 60000/30, 4x */
        {{.time_ms = 60000, .inc_ms = 1000}, 2750, 11000},       /* + 3/4 inc */
        {{.time_ms = 10000, .movestogo = 10}, 1000, 3333},       /* hard: time/3 */
        {{.time_ms = 1000, .movestogo = 1}, 950, 950},           /* margin 5% */
        {{.time_ms = 100000, .movestogo = 2}, 50000, 50000},     /* soft over time/3 */
        {{.time_ms = 1}, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t soft, hard;
        engine_time_budget(&cases[i].lim, &soft, &hard);
        assert_int_equal(soft, cases[i].soft);
        assert_int_equal(hard, cases[i].hard);
    }
    static const struct {
        SearchLimits lim;
        size_t mb;
    } sizes[] = {
        {{.depth = 12}, 16},          {{.nodes = 1000}, 16},         {{.movetime_ms = 10}, 1},
        {{.movetime_ms = 100}, 4},    {{.movetime_ms = 1000}, 32},   {{.movetime_ms = 100000}, 64},
        {{.time_ms = 60000}, 64},     {{.time_ms = 3000}, 16},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) assert_int_equal(engine_hash_mb_for(&sizes[i].lim), sizes[i].mb);
}

/* Search parameters: names, ranges and the NAME=VALUE text (table). */
static void test_params_text(void **state)
{
    (void)state;
    const Game *g = russian();
    static const struct {
        const char *text;
        int rc;
        const char *err_part; /* part of the message, or NULL */
    } cases[] = {
        {"", 0, NULL},
        {"ASP_WINDOW=40", 0, NULL},
        {"ASP_WINDOW=40, LMR_BASE = 80\n# comment\nPC_MARGIN=100 # trailing", 0, NULL},
        {"NO_SUCH=1", -1, "unknown search parameter 'NO_SUCH'"},
        {"ASP_WINDOW", -1, "expected NAME=VALUE"},
        {"ASP_WINDOW=abc", -1, "'abc' is not an integer"},
        {"ASP_WINDOW=4", -1, "outside its range 5..200"},
        {"ASP_WINDOW=20,LMR_DIV=99", -1, "LMR_DIV=99 outside"},
        {"ASP_WINDOW=99999999999", -1, "ASP_WINDOW=99999999999 outside its range 5..200"}, /* an integer, too big */
        {"NO_SUCH=99999999999", -1, "unknown search parameter 'NO_SUCH'"},
        /* a royal piece's constants: Russian has none */
        {"ROYAL_EXT=1", -1, "search parameter ROYAL_EXT does nothing in russian: it applies only to games with a royal piece"},
        {"ASP_WINDOW=40,QS_EVASIONS=0", -1, "search parameter QS_EVASIONS does nothing in russian"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Engine *e = engine_new(g, 1);
        char err[ERR_MAX] = "";
        int rc = engine_set_params_text(e, cases[i].text, err);
        assert_int_equal(rc, cases[i].rc);
        if (cases[i].err_part) assert_non_null(strstr(err, cases[i].err_part));
        engine_free(e);
    }
    Engine *e = engine_new(g, 1);
    char err[ERR_MAX];
    int asp = search_param_find("ASP_WINDOW"), pc = search_param_find("PC_MARGIN");
    assert_true(asp >= 0 && pc >= 0);
    assert_int_equal(engine_get_param(e, asp), search_param_default(g, asp));
    assert_int_equal(engine_set_params_text(e, "ASP_WINDOW=40,PC_MARGIN=100", err), 0);
    assert_int_equal(engine_get_param(e, asp), 40);
    assert_int_equal(engine_get_param(e, pc), 100);
    assert_int_equal(search_param_find("NOPE"), -1);
    engine_free(e);
    /* every default lies in its range, for every game; every parameter a
     * game lists (Game.search_params) exists */
    const SearchParamInfo *p = search_params();
    for (const Game *const *l = game_list(); *l; l++) {
        for (int i = 0; i < SEARCH_PARAMS_COUNT; i++) {
            int d = search_param_default(*l, i);
            assert_true(d >= p[i].min && d <= p[i].max && p[i].step > 0);
        }
        for (const GameSearchParam *sp = (*l)->search_params; sp && sp->name; sp++) {
            assert_true(search_param_find(sp->name) >= 0);
            assert_true(search_param_applies(*l, search_param_find(sp->name))); /* a default that does something */
        }
        /* a royal piece's constants apply where the game has one, and only there */
        int royal = search_param_find("ROYAL_EXT");
        assert_int_equal(search_param_applies(*l, royal), (*l)->royal_attacked != NULL);
        Engine *ge = engine_new(*l, 1);
        err[0] = '\0';
        assert_int_equal(engine_set_param(ge, "ROYAL_EXT", 1, err), (*l)->royal_attacked ? 0 : -1);
        if ((*l)->royal_attacked) assert_int_equal(engine_get_param(ge, royal), 1);
        else assert_non_null(strstr(err, (*l)->name));
        engine_free(ge);
    }
    assert_true(search_param_applies(NULL, search_param_find("ROYAL_EXT")));
    /* the games' own defaults (engine/search_params.def for the rest) */
    assert_int_equal(search_param_default(game_find("russian"), search_param_find("SINGLE_REPLY_EXT")), 2);
    assert_int_equal(search_param_default(game_find("turkish"), search_param_find("SINGLE_REPLY_EXT")), 1);
    assert_int_equal(search_param_default(game_find("shatra"), search_param_find("ASP_WINDOW")), 25);
    assert_int_equal(search_param_default(NULL, search_param_find("ASP_WINDOW")), 20);
}

/* engine_set_params_applying: the constants that do nothing in the game
 * are left out and named, the rest set, bad items still refused. */
static void test_params_applying(void **state)
{
    (void)state;
    static const struct {
        const char *game, *text;
        int rc;
        const char *skipped;  /* on success */
        int asp;              /* ASP_WINDOW after it (0: the game's default) */
        const char *err_part; /* on failure */
    } cases[] = {
        {"russian", "ROYAL_EXT=1,ASP_WINDOW=40", 0, "ROYAL_EXT", 40, NULL},
        {"russian", "ROYAL_EXT=1,QS_EVASIONS=0", 0, "ROYAL_EXT, QS_EVASIONS", 0, NULL},
        {"russian", "ROYAL_EXT=1,QS_EVASIONS=0,ROYAL_EXT=0", -1, NULL, 0, "search parameter ROYAL_EXT is given twice"},
        {"russian", "ASP_WINDOW=40\n# c\n ASP_WINDOW = 40\n", -1, NULL, 0,
         "line 3: ASP_WINDOW is set again (first on line 1)"},
        {"russian", "ASP_WINDOW=40\nNO_SUCH=1\n", -1, NULL, 0, "line 2: unknown search parameter 'NO_SUCH'"},
        {"russian", "ASP_WINDOW=40", 0, "", 40, NULL},
        {"shatra", "ROYAL_EXT=0,ASP_WINDOW=40", 0, "", 40, NULL}, /* applies: set */
        {"russian", "NO_SUCH=1", -1, NULL, 0, "unknown search parameter 'NO_SUCH'"},
        {"russian", "ASP_WINDOW=4", -1, NULL, 0, "outside its range 5..200"},
        {"russian", "ROYAL_EXT=x", -1, NULL, 0, "'x' is not an integer"},
    };
    int asp = search_param_find("ASP_WINDOW"), royal = search_param_find("ROYAL_EXT");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Game *g = game_find(cases[i].game);
        Engine *e = engine_new(g, 1);
        char skipped[ERR_MAX] = "x", err[ERR_MAX] = "";
        int rc = engine_set_params_applying(e, cases[i].text, skipped, err);
        assert_int_equal(rc, cases[i].rc);
        if (rc == 0) {
            assert_string_equal(skipped, cases[i].skipped);
            assert_int_equal(engine_get_param(e, asp), cases[i].asp ? cases[i].asp : search_param_default(g, asp));
            /* Russian's 0 left alone (ROYAL_EXT=1 not set), Shatra's 1 set to 0 */
            assert_int_equal(engine_get_param(e, royal), 0);
        } else {
            assert_non_null(strstr(err, cases[i].err_part));
        }
        engine_free(e);
    }
    /* out of its range where it does nothing: refused, not left out
     * quietly; whether it applies is checked before its range, so the
     * refusal says that it does nothing (not that 99 is out of 0..1) */
    Engine *e = engine_new(game_find("russian"), 1);
    char skipped[ERR_MAX] = "x", err[ERR_MAX] = "";
    assert_int_equal(engine_set_params_applying(e, "ROYAL_EXT=99", skipped, err), -1);
    assert_string_equal(err, "search parameter ROYAL_EXT does nothing in russian: it applies only to games with a "
                             "royal piece");
    engine_free(e);
}

/* Searches pos to `depth` twice on one engine of `mb` MiB: first with the
 * parameters `before` (NULL: the game's defaults), then, the tables
 * cleared, with `after` applied on top. */
static void search_before_after(const Game *g, const Position *pos, int depth, int mb, const char *before,
                                const char *after, SearchResult *a, SearchResult *b)
{
    char err[ERR_MAX];
    SearchLimits lim = {.depth = depth};
    Engine *e = engine_new(g, mb);
    if (before) assert_int_equal(engine_set_params_text(e, before, err), 0);
    engine_search(e, pos, NULL, 0, &lim, a, NULL, NULL);
    engine_clear(e);
    assert_int_equal(engine_set_params_text(e, after, err), 0);
    engine_search(e, pos, NULL, 0, &lim, b, NULL, NULL);
    engine_free(e);
}

/* A parameter changes the search (the reductions shape the tree). */
static void test_params_change_search(void **state)
{
    (void)state;
    const Game *g = russian();
    Position pos;
    char err[ERR_MAX];
    game_parse_position(g, NULL, &pos, err);
    SearchResult a, b;
    search_before_after(g, &pos, 9, 4, NULL, "LMR_BASE=0,LMR_DIV=600", &a, &b);
    assert_int_equal(a.depth, 9);
    assert_int_equal(b.depth, 9);
    assert_true(b.nodes > a.nodes); /* fewer reductions: more nodes */
}

/* Game-long tables: a second search of the same position after the first
 * is cheaper (TT kept); engine_clear restores the first count exactly. */
static void test_tables_kept_between_moves(void **state)
{
    (void)state;
    const Game *g = russian();
    Position pos;
    char err[ERR_MAX];
    game_parse_position(g, NULL, &pos, err);
    SearchLimits lim = {.depth = 10};
    SearchResult a, b, c;
    Engine *e = engine_new(g, 4);
    engine_search(e, &pos, NULL, 0, &lim, &a, NULL, NULL);
    engine_search(e, &pos, NULL, 0, &lim, &b, NULL, NULL);
    engine_clear(e);
    engine_search(e, &pos, NULL, 0, &lim, &c, NULL, NULL);
    assert_true(b.nodes < a.nodes);
    assert_int_equal(c.nodes, a.nodes);
    engine_free(e);
}

/* Lazy SMP: two threads find a legal move and complete the depth. */
static void test_threads(void **state)
{
    (void)state;
    const Game *g = russian();
    Position pos;
    char err[ERR_MAX];
    game_parse_position(g, NULL, &pos, err);
    SearchLimits lim = {.depth = 9};
    SearchResult r;
    Engine *e = engine_new(g, 4);
    assert_int_equal(engine_set_threads(e, 2), 0);
    engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
    assert_true(r.has_move);
    assert_int_equal(r.depth, 9);
    MoveList list;
    g->gen_moves(&pos, &list, GEN_DISTINCT);
    bool found = false;
    for (int j = 0; j < list.len; j++) found |= memcmp(&list.moves[j], &r.best, sizeof(Move)) == 0;
    assert_true(found);
    assert_int_equal(engine_set_threads(e, 1), 0);
    engine_free(e);
}

/* Lazy SMP on 2 and 3 threads, with and without the deferral of moves
 * another thread searches (SMP_DEFER_DEPTH 2, 64 = off), with the first
 * helper racing the main thread or a ply ahead (SMP_AHEAD 0, 1): a depth-limited
 * search ends at its depth (the first thread to complete it ends the
 * others), its move legal, and at every depth (reported through the info
 * callback in increasing order, helpers' iterations included) a PV that
 * starts with a legal move; where the 1-thread search proves a win, the
 * threaded one proves the same win (same score: the shortest one). */
static void info_depths(void *ctx, const SearchResult *r)
{
    int *last = ctx;
    assert_true(r->depth > *last);
    assert_true(r->pv_len >= 1);
    *last = r->depth;
}

/* A node budget on several threads counts all of them: each thread adds
 * its nodes after every 1,024 of its own and stops the search when the
 * total passes the budget, so with more threads than cores (a starved main
 * thread) the search ends within about 1,024 nodes a thread past it (it
 * ran 1.35 M nodes for a budget of 200 on 64 threads when only the main
 * thread's own nodes counted). */
static void test_threads_node_budget(void **state)
{
    (void)state;
    game_init_all();
    const Game *g = game_find("russian");
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(game_parse_position(g, NULL, &pos, err), 0);
    for (int threads = 2; threads <= 16; threads *= 2) {
        Engine *e = engine_new(g, 4);
        assert_int_equal(engine_set_threads(e, threads), 0);
        for (uint64_t budget = 200; budget <= 200000; budget *= 10) {
            SearchLimits lim = {.nodes = budget};
            SearchResult r;
            engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
            assert_true(r.has_move);
            assert_true(r.depth >= 1);
            assert_true(r.nodes <= budget + 1024 * (uint64_t)threads + 64);
            if (budget >= 20000) assert_true(r.nodes >= budget); /* not stopped before the budget */
        }
        engine_free(e);
    }
}

static void test_threads_depths(void **state)
{
    (void)state;
    static const struct {
        const char *game, *fen;
        int depth;
    } CASES[] = {
        {"russian", NULL, 12},
        {"turkish", NULL, 9},
        {"shatra", NULL, 6},
        {"russian", "W:WKa1,c3,e3,g3:Bd4,Kf6,b6,h6", 10}, /* won: 29995 */
        {"russian", "W:WKa1,c3:Bd4,Kf6,b4", 10},          /* won: 29995 */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int score1 = 0;
        for (int run = -1; run < 6; run++) {
            int threads = run < 0 ? 1 : 2 + run % 2, defer = run < 2 || run >= 4 ? 64 : 2, ahead = run >= 4;
            game_init_all();
            const Game *g = game_find(CASES[i].game);
            Position pos;
            char err[ERR_MAX];
            assert_int_equal(game_parse_position(g, CASES[i].fen, &pos, err), 0);
            SearchLimits lim = {.depth = CASES[i].depth};
            SearchResult r;
            Engine *e = engine_new(g, 4);
            assert_int_equal(engine_set_threads(e, threads), 0);
            assert_int_equal(engine_set_param(e, "SMP_DEFER_DEPTH", defer, err), 0);
            assert_int_equal(engine_set_param(e, "SMP_AHEAD", ahead, err), 0);
            int last = 0;
            engine_search(e, &pos, NULL, 0, &lim, &r, info_depths, &last);
            if (run < 0) score1 = r.score;
            else if (score1 >= SCORE_WIN_MIN || score1 <= -SCORE_WIN_MIN) assert_int_equal(r.score, score1);
            if (i >= 3) assert_int_equal(score1, 29995);
            if (run < 0) { /* the won positions finish early: the depth test is the threads' (above for them) */
                engine_free(e);
                continue;
            }
            if (i >= 3) { /* the main thread stops once the win is proven (depth > 5 + 2), its helpers with it */
                assert_true(r.depth >= SCORE_WIN - 29995 + 3 && r.depth <= CASES[i].depth);
            } else {
                assert_int_equal(r.depth, CASES[i].depth);
            }
            assert_int_equal(last, r.depth);
            MoveList list;
            g->gen_moves(&pos, &list, GEN_DISTINCT);
            bool found = false;
            for (int j = 0; j < list.len; j++) found |= memcmp(&list.moves[j], &r.best, sizeof(Move)) == 0;
            assert_true(found);
            assert_true(r.pv_len >= 1);
            assert_memory_equal(&r.pv[0], &r.best, sizeof(Move));
            engine_free(e);
        }
    }
}

/* Game.capture_value orders captures by what they take; a capture of the
 * royal piece (Shatra's Biy) is GAME_ROYAL_VALUE, and the search scores
 * it as the win it is at once, at any depth and with the pruning on. */
static void test_capture_value(void **state)
{
    (void)state;
    static const struct {
        const char *game, *fen, *move;
        int value;
    } CASES[] = {
        {"russian", "W:WKa1,c3:Bd4,Kf6,b4", "c3:e5:g7", 100 + 300}, /* a man and a king */
        {"russian", "W:WKa1,c3:Bd4,Kf6,b4", "c3:a5", 100},
        {"turkish", "W:Wd4:Bd5,Kd7", "d4:d6:d8", 100 + 300},
        {"shatra", "3/3/3/1/7/3s3/4k2/4S2/7/K6/1/3/3/3 w - - - - 0 1", "36:22", GAME_ROYAL_VALUE},
        {"shatra", "3/3/3/1/7/7/7/2k1s2/3S3/K6/1/3/3/3 w - - - - 0 1", "42:30", 100},
    };
    game_init_all();
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Game *g = game_find(CASES[i].game);
        assert_non_null(g->capture_value);
        Position pos;
        Move m;
        char err[ERR_MAX];
        if (game_parse_position(g, CASES[i].fen, &pos, err) != 0 || g->move_from_str(&pos, CASES[i].move, &m, err) != 0) {
            print_error("%s %s: %s\n", CASES[i].fen, CASES[i].move, err);
            fail();
        }
        assert_int_equal(g->capture_value(&pos, &m), CASES[i].value);
    }
    const Game *g = game_find("shatra");
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(game_parse_position(g, CASES[3].fen, &pos, err), 0);
    for (int depth = 1; depth <= 4; depth++)
        for (int prune = 0; prune < 2; prune++) {
            Engine *e = engine_new(g, 1);
            if (prune) assert_int_equal(engine_set_params_text(e, "RFP_DEPTH=3,FUT_DEPTH=2,LMP_DEPTH=3", err), 0);
            SearchLimits lim = {.depth = depth};
            SearchResult r;
            engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
            assert_int_equal(r.score, SCORE_WIN - 1);
            assert_int_equal(g->capture_value(&pos, &r.best), GAME_ROYAL_VALUE);
            engine_free(e);
        }
}

/* Forward pruning (reverse futility, futility, late-move pruning), the
 * single-reply extension's modes, exact TT cutoffs at PV nodes, internal
 * iterative deepening and the counter-move history each cut the nodes of
 * depth-9 searches of the Russian bench positions, and every setting
 * still finds a move. The evaluation is a fixed weight file (7ad9123's
 * weights), not the compiled-in set: a margin in centi-men prunes more or
 * less as a refit rescales the evaluation (the refit of 2026-12-06 made
 * RFP_DEPTH=3 at margin 100 cost nodes on these positions). */
static void test_pruning_params(void **state)
{
    (void)state;
    static const char *const SETTINGS[] = {
        "RFP_DEPTH=3", "FUT_DEPTH=2", "LMP_DEPTH=3", "SINGLE_REPLY_EXT=2", "SINGLE_REPLY_EXT=0",
        "PV_TT_CUT=1", "IID_DEPTH=4", "CONT_HIST=1",
    };
    const Game *g = russian();
    char werr[ERR_MAX];
    int32_t *weights = malloc(sizeof *weights * (size_t)g->weights_len);
    assert_non_null(weights);
    if (weights_file_read(g, DAMA_SOURCE_DIR "/configs/weights/russian-7ad9123.cfg", weights, werr) != 0) {
        print_error("%s\n", werr);
        fail();
    }
    uint64_t base = 0;
    for (int i = -1; i < (int)(sizeof SETTINGS / sizeof SETTINGS[0]); i++) {
        uint64_t nodes = 0;
        for (int k = 0; g->bench_fens[k]; k++) {
            Position pos;
            char err[ERR_MAX];
            assert_int_equal(game_parse_position(g, g->bench_fens[k], &pos, err), 0);
            Engine *e = engine_new(g, 4);
            engine_set_weights(e, weights);
            /* the base: the table's values (Russian's own defaults tune
             * the aspiration window, LMR_MIN_DEPTH and reverse futility) */
            assert_int_equal(engine_set_params_text(e, "RFP_DEPTH=0,FUT_DEPTH=0,LMP_DEPTH=0,SINGLE_REPLY_EXT=1,PV_TT_CUT=0,"
                                                       "ASP_WINDOW=20,LMR_MIN_DEPTH=3,RFP_MARGIN=100", err), 0);
            if (i >= 0) assert_int_equal(engine_set_params_text(e, SETTINGS[i], err), 0);
            SearchLimits lim = {.depth = 9};
            SearchResult r;
            engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
            assert_true(r.has_move && r.depth >= 1 && r.depth <= 9); /* a proven win ends early */
            nodes += r.nodes;
            engine_free(e);
        }
        if (i < 0) {
            base = nodes;
        } else if (nodes >= base) {
            print_error("%s: %llu nodes on the bench positions (without: %llu)\n", SETTINGS[i], (unsigned long long)nodes,
                        (unsigned long long)base);
            fail();
        }
    }
    free(weights);
}

/* ENDING_PIECES: at few pieces every move is searched to full depth, and
 * a short win the reductions hide is found at a nominal depth that misses
 * it with them: W:WKc1,Kb2,Kf6:BKg1 wins in 5 plies (c1-e3, giving two
 * kings: g1:d4:a1 or g1:d4:h8, then f6:a1 or b2-a1 and a1:h8), 3 pieces
 * against 1; W:Wg1,Ka5,Ke5:Bh2,Ke3 wins in 9 (a5-b6, giving a king for
 * the lone man). A game without a piece count refuses the parameter. */
static void test_ending_pieces(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int depth;
    } cases[] = {{"W:WKc1,Kb2,Kf6:BKg1", 8}, {"W:Wg1,Ka5,Ke5:Bh2,Ke3", 12}};
    const Game *g = russian();
    char err[ERR_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos;
        assert_int_equal(game_parse_position(g, cases[i].fen, &pos, err), 0);
        SearchResult off, on;
        search_before_after(g, &pos, cases[i].depth, 16, NULL, "ENDING_PIECES=5", &off, &on);
        assert_true(off.score < SCORE_WIN_MIN);
        assert_true(on.score >= SCORE_WIN_MIN);
    }
    /* from the start position no node at depth 9 has 6 pieces or fewer:
     * the same tree, node for node */
    Position start;
    assert_int_equal(game_parse_position(g, NULL, &start, err), 0);
    SearchResult off, on;
    search_before_after(g, &start, 9, 16, "ENDING_PIECES=0", "ENDING_PIECES=6", &off, &on);
    assert_int_equal(on.nodes, off.nodes);
    assert_int_equal(on.score, off.score);
    Engine *e = engine_new(game_find("shatra"), 1);
    assert_int_equal(engine_set_param(e, "ENDING_PIECES", 6, err), -1);
    assert_string_equal(err, "search parameter ENDING_PIECES does nothing in shatra: it applies only to games that "
                             "count their pieces (Game.piece_count)");
    engine_free(e);
}

/* A movetime search stops near its budget. */
static void test_movetime(void **state)
{
    (void)state;
    SearchLimits lim = {.movetime_ms = 60};
    SearchResult r;
    char best[MOVE_STR_MAX];
    double c0 = clock_process_cpu_s();
    search_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", &lim, &r, best);
    assert_true(r.has_move);
    assert_true(r.depth >= 1);
    /* it searches until the deadline (nothing here is forced or proven),
     * never less: a loaded machine only makes the wall time longer */
    assert_true(r.seconds >= 0.050);
    /* and stops soon after it: the CPU time it used (which another process
     * holding the core does not stretch, as it does the wall time) is the
     * movetime and a margin for sanitizer builds */
    assert_true(clock_process_cpu_s() - c0 < 0.060 + 0.500);
}

/* Depth 1 completes past a node limit, but not without end: 25 kings a
 * side on the 12x12 board take millions of nodes at depth 1 (each king's
 * captures' quiescence); a node limit 100 times over, a stop, or the
 * deadline ends it with a legal move (the 2026-12-07 review: 2.5 M nodes
 * for --nodes 50, 30 kings a side searched for hours and ignored SIGTERM). */
static void test_depth1_bounded(void **state)
{
    (void)state;
    game_init_all();
    const Game *g = game_find("canadian");
    assert_non_null(g);
    char fen[512] = "W:W", err[ERR_MAX];
    for (int s = 48; s <= 72; s++) snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "K%d%s", s, s < 72 ? "," : "");
    strcat(fen, ":B");
    for (int s = 1; s <= 25; s++) snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "K%d%s", s, s < 25 ? "," : "");
    Position pos;
    assert_int_equal(g->pos_from_fen(&pos, fen, err), 0);
    MoveList legal;
    g->gen_moves(&pos, &legal, GEN_DISTINCT);
    Engine *e = engine_new(g, 4);
    assert_non_null(e);
    SearchResult r;
    SearchLimits nodes = {.nodes = 50};
    engine_search(e, &pos, NULL, 0, &nodes, &r, NULL, NULL);
    assert_true(r.has_move);
    assert_true(r.nodes <= 50 * 100 + 1024); /* checked every 1,024 nodes */
    bool found = false;
    for (int i = 0; i < legal.len; i++) found |= memcmp(&legal.moves[i], &r.best, sizeof r.best) == 0;
    assert_true(found);
    /* a stop already given: out at the first check, a legal move */
    volatile int stop = 1;
    engine_set_stop_flag(e, &stop);
    SearchLimits depth1 = {.depth = 1};
    engine_search(e, &pos, NULL, 0, &depth1, &r, NULL, NULL);
    assert_true(r.has_move && r.nodes <= 1024);
    engine_set_stop_flag(e, NULL);
    /* and a movetime's deadline */
    SearchLimits mt = {.movetime_ms = 50};
    double t0 = clock_now_s();
    engine_search(e, &pos, NULL, 0, &mt, &r, NULL, NULL);
    assert_true(r.has_move);
    assert_true(clock_now_s() - t0 < 5.0); /* without the bound: 5.9 s at --movetime 100 (25 kings), hours at 30 */
    engine_free(e);
}

/* A new engine's table is present before its first search: a search reads
 * a bucket before it writes it, and on a page of an anonymous mapping never
 * touched that is two page faults (the read maps the zero page, the write
 * copies it), which made a fresh `dama search --movetime 100` spend most of
 * its time in the kernel (docs/search.md). A 16 MiB table is 4,096 pages;
 * the search below stores in most of them, so a lazy table takes thousands
 * of faults in it (measured: 7,600 in a whole `dama search` process). What
 * is left is the workers' history tables and the allocator's. */
static long minor_faults(void)
{
    struct rusage ru;
    assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
    return ru.ru_minflt;
}

/* This process's resident memory in MiB (/proc/self/statm). */
static long resident_mib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld %ld", &size, &resident), 2);
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

static void test_fresh_table_present(void **state)
{
    (void)state;
    const Game *g = russian();
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(g->pos_from_fen(&pos, TABLE_FEN, err), 0);
    Engine *e = engine_new(g, 16);
    assert_non_null(e);
    SearchLimits lim = {.nodes = 200000};
    SearchResult r;
    long f0 = minor_faults();
    engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
    long faults = minor_faults() - f0;
    engine_free(e);
    assert_true(r.has_move);
    assert_true(r.nodes >= 100000);
    if (faults >= 2048) fail_msg("a search of %llu nodes on a new 16 MiB table took %ld page faults", (unsigned long long)r.nodes, faults);
}

/* A table larger than TT_POPULATE_MB (64 MiB) stays lazy: engine_clear
 * gives its pages back instead of writing every one (a reset of a 2 GiB
 * table made all of it present), and the search after it is the fresh
 * engine's, node for node. */
static void test_large_table_clear_lazy(void **state)
{
    (void)state;
    const Game *g = russian();
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(g->pos_from_fen(&pos, TABLE_FEN, err), 0);
    Engine *e = engine_new(g, 256);
    assert_non_null(e);
    SearchLimits lim = {.depth = 6};
    SearchResult first, again;
    engine_search(e, &pos, NULL, 0, &lim, &first, NULL, NULL);
    long rss0 = resident_mib();
    engine_clear(e);
    long rss1 = resident_mib(); /* pages made present, whatever their size (huge pages fault 512 at a time) */
    engine_search(e, &pos, NULL, 0, &lim, &again, NULL, NULL);
    engine_free(e);
    if (rss1 - rss0 >= 64) fail_msg("clearing a lazy 256 MiB table made %ld MiB present", rss1 - rss0);
    assert_true(first.has_move && again.has_move);
    assert_int_equal(again.nodes, first.nodes);
    assert_int_equal(again.score, first.score);
}

/* The Russian position of fen, its material counter (plies since the last
 * capture or promotion) set to mp. */
static void russian_position(const char *fen, int mp, Position *pos)
{
    char err[ERR_MAX];
    assert_int_equal(russian()->pos_from_fen(pos, fen, err), 0);
    ((DraughtsPos *)pos->data)->material_plies = (uint8_t)mp;
}

/* engine_evaluate of fen (side to move's view) with DRAWN_SCALE and
 * COUNTER_RAMP set, the material counter set to mp; *raw gets the
 * unscaled static value in the same view. */
static int scaled_value(const char *fen, int drawn_scale, int ramp, int mp, int *raw)
{
    const Game *g = russian();
    Position pos;
    char err[ERR_MAX];
    russian_position(fen, mp, &pos);
    Engine *e = engine_new(g, 1);
    assert_int_equal(engine_set_param(e, "DRAWN_SCALE", drawn_scale, err), 0);
    assert_int_equal(engine_set_param(e, "COUNTER_RAMP", ramp, err), 0);
    int32_t v = g->evaluate(&pos, g->weights_default());
    *raw = g->side_to_move(&pos) == COLOR_WHITE ? v : -v;
    int scaled = engine_evaluate(e, &pos);
    engine_free(e);
    return scaled;
}

/* Russian endgame knowledge (Game.drawish): one or two pieces against a
 * lone king (D8), three against a lone king on the main road (D7) keep
 * DRAWN_SCALE/64 of the static value; three against a king off the road,
 * four against one, and a lone man are not drawn balances; a counter that
 * leaves fewer than COUNTER_RAMP plies scales the value by left/RAMP. */
static void test_drawn_material_scaled(void **state)
{
    (void)state;
    int raw;
    static const char *drawn[] = {"W:WKa1,Kc3:BKh2", "B:WKa1,e3:BKh2", "W:WKa3,Kc1,Ke1:BKd4", "W:WKd4:BKh2"};
    for (size_t i = 0; i < sizeof drawn / sizeof *drawn; i++) {
        int v = scaled_value(drawn[i], 8, 0, 0, &raw);
        assert_int_not_equal(raw, 0);
        assert_int_equal(v, raw * 8 / 64);
        assert_int_equal(scaled_value(drawn[i], 64, 0, 0, &raw), raw); /* 64: no knowledge */
    }
    static const char *open[] = {"W:WKa3,Kc1,Ke1:BKa7", "W:WKa3,Kc1,Ke1,Kg1:BKd4", "W:WKa1,Kc3:Bh6", "W:WKa1,Kc3:BKh2,Kh8"};
    for (size_t i = 0; i < sizeof open / sizeof *open; i++) {
        int v = scaled_value(open[i], 8, 0, 0, &raw);
        assert_int_equal(v, raw);
    }
    /* three kings against a king off the road: D4 leaves 30 - 24 = 6 plies,
     * inside a ramp of 16: x 6/16; the off-road D7 count is not the eval's */
    int v = scaled_value("W:WKa3,Kc1,Ke1:BKa7", 8, 16, 24, &raw);
    assert_int_equal(v, (int)((int64_t)raw * (64 * 6 / 16) / 64));
    assert_int_equal(scaled_value("W:WKa3,Kc1,Ke1:BKa7", 8, 16, 8, &raw), raw); /* 22 plies left: outside */
    /* on the road D7 leaves 10 - 4 = 6: both the drawn scale and the ramp */
    v = scaled_value("W:WKa3,Kc1,Ke1:BKd4", 8, 16, 4, &raw);
    assert_int_equal(v, (int)((int64_t)raw * (8 * 6 / 16) / 64));
}

/* CONTEMPT: a draw inside the tree is worth -CONTEMPT to the root's side.
 * Two kings against a king one ply before D8's count runs out: every move
 * (none captures) draws, so the root's value is the draw's, 0 without
 * contempt and -CONTEMPT with it, for either side to move; a repetition of
 * the game's history scores the same. */
static int contempt_score(const char *fen, int contempt, int mp)
{
    Position pos;
    char err[ERR_MAX];
    russian_position(fen, mp, &pos);
    Engine *e = engine_new(russian(), 4);
    assert_int_equal(engine_set_param(e, "CONTEMPT", contempt, err), 0);
    SearchLimits lim = {.depth = 6};
    SearchResult r;
    engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
    assert_true(r.has_move);
    engine_free(e);
    return r.score;
}

static void test_contempt(void **state)
{
    (void)state;
    assert_int_equal(contempt_score("W:WKa1,Kc3:BKh2", 0, 9), 0);
    assert_int_equal(contempt_score("W:WKa1,Kc3:BKh2", 20, 9), -20);
    assert_int_equal(contempt_score("B:WKa1,Kc3:BKh2", 35, 9), -35);
    /* with the count far from its end the strong side's value is its own */
    assert_true(contempt_score("W:WKa1,Kc3:BKh2", 20, 0) > 0);
    char err[ERR_MAX];
    Engine *e = engine_new(russian(), 1);
    assert_int_not_equal(engine_set_param(e, "CONTEMPT", 101, err), 0);
    engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_win_in_one),
        cmocka_unit_test(test_no_move),
        cmocka_unit_test(test_quiescence_resolves_captures),
        cmocka_unit_test(test_node_limit_deterministic),
        cmocka_unit_test(test_depth_limit_and_pv_legal),
        cmocka_unit_test(test_pv_starts_with_best),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_params_text),
        cmocka_unit_test(test_params_applying),
        cmocka_unit_test(test_params_change_search),
        cmocka_unit_test(test_tables_kept_between_moves),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_threads_depths),
        cmocka_unit_test(test_threads_node_budget),
        cmocka_unit_test(test_capture_value),
        cmocka_unit_test(test_pruning_params),
        cmocka_unit_test(test_ending_pieces),
        cmocka_unit_test(test_movetime),
        cmocka_unit_test(test_depth1_bounded),
        cmocka_unit_test(test_fresh_table_present),
        cmocka_unit_test(test_large_table_clear_lazy),
        cmocka_unit_test(test_drawn_material_scaled),
        cmocka_unit_test(test_contempt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
