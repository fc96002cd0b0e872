/* test_skill.c — named levels of play and the draw-offer answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game_record.h"
#include "engine/skill.h"

static const Game *game(const char *name)
{
    game_init_all();
    const Game *g = game_find(name);
    assert_non_null(g);
    return g;
}

static void test_names(void **state)
{
    (void)state;
    const char *names[] = {"beginner", "casual", "club", "strong", "max"};
    int prev_depth = 0, prev_margin = 1 << 30;
    for (int i = 0; i < 5; i++) {
        const SkillLevel *l = skill_find(names[i]);
        assert_non_null(l);
        assert_ptr_equal(skill_list()[i], l);
        if (l->depth > 0) { /* weakest first: deeper and narrower as they go */
            assert_true(l->depth > prev_depth);
            assert_true(l->margin_cp < prev_margin);
            prev_depth = l->depth, prev_margin = l->margin_cp;
        }
    }
    assert_null(skill_list()[5]);
    assert_null(skill_find("grandmaster"));
    assert_null(skill_find(NULL));
}

/* Every level takes a win in one: c3:e5 leaves Black without a move. */
static void test_takes_the_win(void **state)
{
    (void)state;
    const Game *g = game("russian");
    Engine *e = engine_new(g, 1);
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(g->pos_from_fen(&pos, "W:Wc3,a1:Bd4,h8", err), 0);
    for (const SkillLevel *const *l = skill_list(); *l; l++) {
        for (uint64_t seed = 0; seed < 20; seed++) {
            uint64_t rng = seed;
            SearchLimits lim = {.depth = 4};
            SearchResult r;
            assert_int_equal(skill_choose(e, g, &pos, NULL, 0, *l, &lim, &rng, &r, err), 0);
            assert_true(r.has_move);
            char text[MOVE_STR_MAX];
            g->move_to_str(&pos, &r.best, text);
            assert_string_equal(text, "c3:e5");
        }
    }
    engine_free(e);
}

/* Weakened levels: deterministic for a seed, varied across seeds, and the
 * chosen move's score (recomputed here by a search of the child to the
 * level's depth) is within the level's margin of the best root move. */
static void test_near_best_at_random(void **state)
{
    (void)state;
    const char *games[] = {"russian", "turkish", "shatra"};
    for (int k = 0; k < 3; k++) {
        const Game *g = game(games[k]);
        Engine *e = engine_new(g, 2);
        GameRecord rec;
        char err[ERR_MAX];
        assert_int_equal(game_record_init(&rec, g, NULL, err), 0);
        const Position *root = game_record_position(&rec);
        MoveList list;
        int n = g->gen_moves(root, &list, GEN_DISTINCT);
        const SkillLevel *lv[] = {skill_find("beginner"), skill_find("casual")};
        for (int li = 0; li < 2; li++) {
            const SkillLevel *l = lv[li];
            int scores[MOVES_MAX], best = -SCORE_INF;
            for (int i = 0; i < n; i++) {
                Position child;
                g->make_move(root, &list.moves[i], &child);
                uint64_t key = g->hash(root);
                SearchLimits lim = {.depth = l->depth};
                SearchResult cr;
                engine_clear(e);
                engine_search(e, &child, &key, 1, &lim, &cr, NULL, NULL);
                scores[i] = -cr.score;
                if (scores[i] > best) best = scores[i];
            }
            int chosen[MOVES_MAX] = {0}, distinct = 0;
            for (uint64_t seed = 1; seed <= 40; seed++) {
                uint64_t rng = seed, rng2 = seed;
                SearchLimits none = {0};
                SearchResult a, b;
                engine_clear(e);
                assert_int_equal(skill_choose(e, g, root, NULL, 0, l, &none, &rng, &a, err), 0);
                engine_clear(e);
                assert_int_equal(skill_choose(e, g, root, NULL, 0, l, &none, &rng2, &b, err), 0);
                assert_memory_equal(&a.best, &b.best, sizeof a.best);
                assert_true(rng == rng2 && rng != seed);
                int idx = -1;
                for (int i = 0; i < n; i++)
                    if (memcmp(&list.moves[i], &a.best, sizeof a.best) == 0) idx = i;
                assert_true(idx >= 0);
                assert_int_equal(a.score, scores[idx]);
                if (best - scores[idx] > l->margin_cp)
                    fail_msg("%s %s: chose a move %d below the best (margin %d)", g->name, l->name,
                             best - scores[idx], l->margin_cp);
                if (!chosen[idx]++) distinct++;
                assert_memory_equal(&a.pv[0], &a.best, sizeof a.best);
            }
            if (distinct < 2) fail_msg("%s %s: one move for 40 seeds", g->name, l->name);
        }
        game_record_free(&rec);
        engine_free(e);
    }
}

/* max is the plain search with the caller's limits. */
static void test_max_is_search(void **state)
{
    (void)state;
    const Game *g = game("turkish");
    Engine *e = engine_new(g, 2);
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(game_parse_position(g, NULL, &pos, err), 0);
    SearchLimits lim = {.nodes = 5000};
    SearchResult a, b;
    uint64_t rng = 7;
    engine_clear(e);
    engine_search(e, &pos, NULL, 0, &lim, &a, NULL, NULL);
    engine_clear(e);
    assert_int_equal(skill_choose(e, g, &pos, NULL, 0, skill_find("max"), &lim, &rng, &b, err), 0);
    assert_memory_equal(&a.best, &b.best, sizeof a.best);
    assert_int_equal(a.score, b.score);
    assert_int_equal(a.nodes, b.nodes);
    assert_true(rng == 7);
    engine_free(e);
}

/* Draw offers: declined when winning, accepted when lost or drawn by rule. */
typedef struct DrawCase {
    const char *game;
    const char *fen;
    const char *moves;
    Color engine;
    bool accept;
} DrawCase;

static const DrawCase DRAW_CASES[] = {
    {"russian", "W:WKa1,Kc1,Ke1,Kg1:Bh8", "", COLOR_WHITE, false},
    {"russian", "W:WKa1,Kc1,Ke1,Kg1:Bh8", "", COLOR_BLACK, true},
    {"russian", "B:WKa1,Kc1,Ke1,Kg1:Bh8", "", COLOR_WHITE, false},
    {"russian", "B:WKa1,Kc1,Ke1,Kg1:Bh8", "", COLOR_BLACK, true},
    /* threefold repetition reached: a draw whatever the material */
    {"russian", "W:WKc1,a1,c3:BKf8,h8", "c1-d2 f8-e7 d2-c1 e7-f8 c1-d2 f8-e7 d2-c1 e7-f8", COLOR_WHITE, true},
    {"turkish", "W:WKa1,Kb1,Kc1:Bh8", "", COLOR_WHITE, false},
    {"turkish", "W:WKa1,Kb1,Kc1:Bh8", "", COLOR_BLACK, true},
    {"shatra", "3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 0 1", "", COLOR_WHITE, false},
    {"shatra", "3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 0 1", "", COLOR_BLACK, true},
};

static void test_accept_draw(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof DRAW_CASES / sizeof DRAW_CASES[0]; c++) {
        const DrawCase *t = &DRAW_CASES[c];
        const Game *g = game(t->game);
        GameRecord rec;
        char err[ERR_MAX];
        assert_int_equal(game_record_init(&rec, g, t->fen, err), 0);
        assert_int_equal(game_record_apply_list(&rec, t->moves, err), 0);
        Engine *e = engine_new(g, 2);
        int len, score = 12345;
        const uint64_t *h = game_record_history(&rec, &len);
        SearchLimits lim = {.depth = 6};
        bool acc = engine_accept_draw(e, g, game_record_position(&rec), h, len, t->engine, &lim, 0, &score);
        if (acc != t->accept) fail_msg("case %zu: accept %d, score %d", c, acc, score);
        assert_int_not_equal(score, 12345);
        engine_free(e);
        game_record_free(&rec);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),          cmocka_unit_test(test_takes_the_win),
        cmocka_unit_test(test_near_best_at_random), cmocka_unit_test(test_max_is_search),
        cmocka_unit_test(test_accept_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
