/* test_resolve.c — the capture line of a quiescence search (engine/resolve.h):
 * Russian positions whose capture lines were worked out by hand, with the
 * PV's length and leaf; the limits; quiet start positions of every game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game.h"
#include "engine/resolve.h"

static void test_russian_lines(void **state)
{
    (void)state;
    static const struct {
        const char *what, *fen;
        int plies;        /* PV length, -1: over the ply limit */
        int max_plies;
        const char *leaf; /* the PV's leaf as pos_to_fen writes it */
    } cases[] = {
        {"quiet: nothing to play out", "W:Wc3:Bh8", 0, 16, "W:Wc3:Bh8"},
        {"one forced capture ends the line", "W:Wc3,g3:Bd4", 1, 16, "B:Wg3,e5:B"},
        /* c3:e5 cannot go on to g7 (occupied); f6:d4 recaptures */
        {"capture, recapture", "W:Wc3:Bd4,f6,g7", 2, 16, "W:W:Bd4,g7"},
        /* c3:e5 loses both men to f6:d4:f2; e3:c5 ends the line */
        {"the better of two captures", "W:Wc3,e3:Bd4,f6,g7", 1, 16, "B:Wc3,c5:Bf6,g7"},
        {"a line longer than the limit", "W:Wc3:Bd4,f6,g7", -1, 1, NULL},
    };
    const Game *g = game_find("russian");
    assert_non_null(g);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Resolver *r = resolver_new(g, cases[i].max_plies, 100000);
        assert_non_null(r);
        Position pos, leaf;
        char err[ERR_MAX], fen[FEN_MAX];
        assert_int_equal(g->pos_from_fen(&pos, cases[i].fen, err), 0);
        int32_t score = 0;
        const int plies = resolver_run(r, &pos, g->weights_default(), &leaf, &score);
        if (plies >= 0)
            g->pos_to_fen(&leaf, fen);
        printf("%s: %s -> %d plies%s%s\n", cases[i].what, cases[i].fen, plies, plies >= 0 ? ", leaf " : "",
               plies >= 0 ? fen : "");
        assert_int_equal(plies, cases[i].plies);
        if (plies >= 0) {
            assert_string_equal(fen, cases[i].leaf);
            /* the value is the leaf's static evaluation, seen from pos's side to move */
            int32_t v = g->evaluate(&leaf, g->weights_default());
            if (g->side_to_move(&pos) != COLOR_WHITE)
                v = -v;
            assert_int_equal(score, v);
        }
        resolver_free(r);
    }
}

static void test_limits_and_games(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    assert_null(resolver_new(g, 0, 10));
    assert_null(resolver_new(g, 65, 10));
    assert_null(resolver_new(g, 8, 0));
    /* a node budget too small for the line */
    Resolver *r = resolver_new(g, 16, 2);
    Position pos, leaf;
    char err[ERR_MAX];
    assert_int_equal(g->pos_from_fen(&pos, "W:Wc3:Bd4,f6,g7", err), 0);
    assert_int_equal(resolver_run(r, &pos, g->weights_default(), &leaf, NULL), -1);
    resolver_free(r);
    resolver_free(NULL);
    /* every game's start position is resolved already */
    static const char *const names[] = {"russian", "turkish", "shatra"};
    for (int i = 0; i < 3; i++) {
        g = game_find(names[i]);
        assert_non_null(g);
        r = resolver_new(g, 16, 1000);
        assert_int_equal(g->pos_from_fen(&pos, g->start_fen, err), 0);
        assert_int_equal(resolver_run(r, &pos, g->weights_default(), &leaf, NULL), 0);
        assert_memory_equal(&leaf, &pos, g->pos_size);
        resolver_free(r);
    }
}

int main(void)
{
    game_init_all();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_russian_lines),
        cmocka_unit_test(test_limits_and_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
