/* test_search.c — search: forced wins, determinism, limits, evaluation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game.h"
#include "engine/search.h"

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
    const char *fen = "W:Wa1,e1,b2,f2,h2,c3,e3,g3,d4,f4:Bb6,f6,h6,a7,c7,e7,g7,d8,f8,h8";
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_win_in_one),
        cmocka_unit_test(test_no_move),
        cmocka_unit_test(test_quiescence_resolves_captures),
        cmocka_unit_test(test_node_limit_deterministic),
        cmocka_unit_test(test_depth_limit_and_pv_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
