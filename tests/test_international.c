/* test_international.c — International draughts (10x10;
 * docs/rules/international.md):
 *   - the 10x10 board of the draughts core: numbering 1-50 against the
 *     book's squares, the neighbours of the ghost-square layout;
 *   - the rule book's worked examples and single rules as exact move lists;
 *   - the published perft of data/perft/other_variants.txt: from the start
 *     to depth 8, from the book's second position to depth 11 (deeper:
 *     test_variants_slow.c);
 *   - the properties every game must have (game_properties.h) over random
 *     games and king-rich placements;
 *   - the draw rules I-D2..I-D4, one case each side of every limit;
 *   - bad positions refused naming the game, the square and what was
 *     expected; notation read and written as the book writes it.
 * The independent reference generator (tests/ref/family_ref.py) compares
 * move lists on random positions in tests/cli/family_ref.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/eval.h"
#include "engine/game.h"
#include "engine/games/draughts/draughts.h"
#include "util/rng.h"

#include "game_properties.h"
#include "perft_table.h"

#define PERFT_FILE DAMA_SOURCE_DIR "/data/perft/other_variants.txt"

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("international");
    return G ? 0 : -1;
}

/* The legal moves of fen as the game writes them, sorted, space-joined. */
static void moves_text(const char *fen, char *out, size_t size)
{
    Position pos;
    parse_fen_or_fail(G, fen, &pos);
    MoveList list;
    G->gen_moves(&pos, &list, GEN_DISTINCT);
    static char text[MOVES_MAX][MOVE_STR_MAX];
    for (int i = 0; i < list.len; i++) G->move_to_str(&pos, &list.moves[i], text[i]);
    qsort(text, (size_t)list.len, sizeof text[0], (int (*)(const void *, const void *))strcmp);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < list.len && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", text[i]);
}

static void check_moves(const char *fen, const char *want, const char *why)
{
    char got[2048];
    moves_text(fen, got, sizeof got);
    if (strcmp(got, want) != 0) {
        print_error("%s (%s): got '%s', want '%s'\n", fen, why, got, want);
        fail();
    }
}

/* ------------------------------------------------------------------ */
/* The board                                                            */

static void test_numbering(void **state)
{
    (void)state;
    /* The book's squares (rule 2): number -> file and rank. */
    static const struct {
        int number;
        int file, rank; /* 0-based, a1 = (0, 0) */
    } SQ[] = {{1, 1, 9}, {5, 9, 9}, {6, 0, 8}, {10, 8, 8}, {31, 1, 3}, {35, 9, 3}, {46, 0, 0}, {50, 8, 0}, {28, 4, 4}};
    for (size_t i = 0; i < sizeof SQ / sizeof SQ[0]; i++) {
        int sq = draughts_square_from_number(NUMBERING_INTERNATIONAL, SQ[i].number);
        assert_int_equal(sq, draughts_square_at(GEOM_DIAGONAL10, SQ[i].rank, SQ[i].file));
        assert_int_equal(draughts_number_of_square(NUMBERING_INTERNATIONAL, sq), SQ[i].number);
    }
    assert_int_equal(draughts_square_from_number(NUMBERING_INTERNATIONAL, 0), -1);
    assert_int_equal(draughts_square_from_number(NUMBERING_INTERNATIONAL, 51), -1);
    assert_int_equal(draughts_square_at(GEOM_DIAGONAL10, 0, 1), -1); /* b1 is light */
    /* Every number is a distinct square; ghosts and light squares have none. */
    uint64_t seen = 0;
    for (int n = 1; n <= 50; n++) {
        int sq = draughts_square_from_number(NUMBERING_INTERNATIONAL, n);
        assert_true(sq >= 0 && sq <= 54 && sq % 11 != 5);
        assert_false(seen >> sq & 1);
        seen |= 1ULL << sq;
    }
    assert_int_equal(__builtin_popcountll(seen), 50);
    /* The long diagonal 46-41-37-32-28-23-19-14-10-5 is one NE step each. */
    static const int ROAD[] = {46, 41, 37, 32, 28, 23, 19, 14, 10, 5};
    for (int i = 0; i + 1 < 10; i++) {
        int a = draughts_square_from_number(NUMBERING_INTERNATIONAL, ROAD[i]);
        int b = draughts_square_from_number(NUMBERING_INTERNATIONAL, ROAD[i + 1]);
        assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][a][0], b);
        assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][b][3], a);
    }
    /* Off the board: 46 has no SW/NW/SE neighbour but 41; 5 none to the NE. */
    int s46 = draughts_square_from_number(NUMBERING_INTERNATIONAL, 46);
    assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][s46][1], -1);
    assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][s46][2], -1);
    assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][s46][3], -1);
    int s5 = draughts_square_from_number(NUMBERING_INTERNATIONAL, 5);
    assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][s5][0], -1);
    int s15 = draughts_square_from_number(NUMBERING_INTERNATIONAL, 15); /* j8: its NE is off the side */
    assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][s15][0], -1);
    assert_int_equal(draughts_tables.next[GEOM_DIAGONAL10][s15][1], draughts_square_from_number(NUMBERING_INTERNATIONAL, 10));
}

/* ------------------------------------------------------------------ */
/* The rule book's worked examples and single rules                     */

static void test_book_examples(void **state)
{
    (void)state;
    check_moves(G->start_fen, "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30", "E1 start");
    check_moves("W:W12,13:B8,9,17", "12x14", "E2 passing over the crowning row; majority");
    check_moves("W:W32:BK27,28,19", "32x14", "E3 a king counts as one");
    check_moves("W:W42,K46:B7,13,22,28,41,K49", "46x11 46x16", "E4 Turkish strike, landing choice, one move two routes");
    check_moves("W:WK6:B9,17,23,30,37", "6x28x14x3 6x35 6x39x25x3", "E5 same start and end: full routes");
}

static void test_rule_cases(void **state)
{
    (void)state;
    check_moves("W:W28:B23", "28x19", "a man takes forward");
    check_moves("W:W28:B33", "28x39", "and backward");
    check_moves("B:W33:B28", "28x39", "Black takes forward (down)");
    check_moves("W:W28:B22,23", "28x17 28x19", "free choice among captures of the same size");
    check_moves("W:W28,38:B13,23,43", "28x8", "majority: 28x19x8 takes two, 38x49 one");
    check_moves("W:W28,38:B13,23,33", "38x9", "majority: 38x29x18x9 takes three, 28x19x8 two");
    check_moves("W:W7:B2", "7-1", "a man on the edge of the board has no square behind 2 to land on");
    check_moves("W:WK46:B1", "46-10 46-14 46-19 46-23 46-28 46-32 46-37 46-41 46-5", "a king flies the long diagonal");
    check_moves("W:WK46:B28", "46x10 46x14 46x19 46x23 46x5", "a flying king lands on any square beyond");
    check_moves("W:WK46:B28,23", "46-32 46-37 46-41", "two pieces in a row cannot be jumped");
    check_moves("W:WK46:B28,19", "46x10 46x14 46x5", "a king takes two on one diagonal with a gap between");
    check_moves("W:W6:B3", "6-1", "a9 steps to b10 only");
    check_moves("B:W45:B40", "40-44", "Black steps toward 46-50; no square behind 45 on the board's side");
}

/* ------------------------------------------------------------------ */
/* Published perft                                                      */

static void test_perft_published(void **state)
{
    (void)state;
    /* D1-D8 of both lines (the start and the book's second position);
     * deeper in test_variants_slow.c. */
    assert_int_equal(perft_table_check(G, PERFT_FILE, 1, 8), 8 + 8);
}

/* ------------------------------------------------------------------ */
/* Properties over random positions                                     */

/* 1-5 kings and 0-7 men a side on random squares 1..50; a man drawn on
 * its crowning row becomes a king. */
static void random_position(uint64_t *rng, Position *pos)
{
    int order[50];
    for (int i = 0; i < 50; i++) order[i] = i + 1;
    for (int i = 49; i > 0; i--) {
        int j = (int)rng_below(rng, (uint64_t)i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    char fen[FEN_MAX];
    int len = snprintf(fen, sizeof fen, "%c", rng_below(rng, 2) ? 'B' : 'W'), next = 0;
    for (int c = 0; c < 2; c++) {
        len += snprintf(fen + len, sizeof fen - (size_t)len, ":%c", c ? 'B' : 'W');
        int kings = 1 + (int)rng_below(rng, 5), men = (int)rng_below(rng, 8);
        for (int k = 0; k < kings + men; k++) {
            int n = order[next++];
            bool crown = c == COLOR_WHITE ? n <= 5 : n >= 46;
            len += snprintf(fen + len, sizeof fen - (size_t)len, "%s%s%d", k ? "," : "", (k < kings || crown) ? "K" : "", n);
        }
    }
    parse_fen_or_fail(G, fen, pos);
}

static int mirror_sq(int sq) { return 54 - sq; }

static bool has_king(const Position *pos) { return ((const DraughtsPos *)pos->data)->kings != 0; }

static void test_properties(void **state)
{
    (void)state;
    uint64_t wrng = 0x494e5457ULL;
    EVAL_AUTO_FREE int32_t *w = prop_random_weights(G, &wrng);
    const PropGame pg = {.game = G,
                         .mirror_sq = mirror_sq,
                         .capture_compulsory = true,
                         .weights_extra = w,
                         .counted = has_king,
                         .counted_name = "with kings"};
    const PropSource src = {.positions = 2000,
                            .game_seed = 0x494e0001ULL,
                            .game_plies = 200,
                            .place_seed = 0x494e0002ULL,
                            .place_plies = 6,
                            .place = random_position,
                            .perft_depth = 3};
    PropRun run;
    prop_check_random(&run, &pg, &src);
    assert_int_equal(run.positions, 2000);
    assert_true(run.counted > run.positions / 3);
}

/* ------------------------------------------------------------------ */
/* Draw rules                                                           */

static Outcome outcome_at(const char *fen, int reversible, int material_plies, const char **reason)
{
    Position pos;
    parse_fen_or_fail(G, fen, &pos);
    DraughtsPos *p = (DraughtsPos *)pos.data;
    p->reversible = (uint8_t)reversible;
    p->material_plies = (uint8_t)material_plies;
    *reason = NULL;
    return G->rule_outcome(&pos, reason);
}

static void test_draw_rules(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int plies_kept, reversible;
        const char *id;
    } CASES[] = {
        {"W:WK46,K47,K48:BK3", 31, 0, "I-D3"},       /* the book's example: 16 moves */
        {"W:WK46,K47,30:BK3", 31, 0, "I-D3"},        /* two kings and a man */
        {"W:WK46,30,31:BK3", 31, 0, "I-D3"},         /* a king and two men */
        {"W:WK46,K47:BK3", 9, 0, "I-D4"},            /* two kings against one: 5 moves */
        {"W:WK46,30:BK3", 9, 0, "I-D4"},             /* a king and a man */
        {"B:WK46:BK3", 9, 0, "I-D4"},                /* a king against a king */
        {"W:WK46,K47,30,31:BK3,K4", 49, 1, "I-D2"},  /* 25 moves of kings only */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *why;
        int kept = CASES[i].plies_kept;
        int rev = CASES[i].reversible ? kept : 0, mat = CASES[i].reversible ? 0 : kept;
        if (outcome_at(CASES[i].fen, rev, mat, &why) != OUTCOME_NONE) {
            print_error("%s: drawn (%s) after %d plies, one too early\n", CASES[i].fen, why, kept);
            fail();
        }
        rev += CASES[i].reversible ? 1 : 0;
        mat += CASES[i].reversible ? 0 : 1;
        assert_int_equal(outcome_at(CASES[i].fen, rev, mat, &why), OUTCOME_DRAW);
        assert_string_equal(why, CASES[i].id);
    }
    const char *why;
    assert_int_equal(outcome_at("W:WK46,K47,30:B3", 0, 100, &why), OUTCOME_NONE);      /* a lone man */
    assert_int_equal(outcome_at("W:WK46,K47,30,31:BK3", 0, 100, &why), OUTCOME_NONE);  /* four pieces */
    assert_int_equal(outcome_at("W:W46,47,30:BK3", 0, 100, &why), OUTCOME_NONE);       /* no king: no rule */
    /* A repeated position is I-D1 (game_outcome, the history's). */
    assert_string_equal(G->repetition_reason, "I-D1");
}

/* ------------------------------------------------------------------ */
/* Bad input and notation                                               */

static void test_bad_positions(void **state)
{
    (void)state;
    static const struct {
        const char *game, *fen, *want;
    } CASES[] = {
        {"international", "W:W51:B1", "bad square number '51' at character 4 (squares are 1..50 in International draughts)"},
        {"international", "W:W0:B1", "bad square number '0' at character 4 (squares are 1..50 in International draughts)"},
        {"international", "W:W3:B20", "a man on 3 stands on its crowning rank (White crowns on 1-5 in International draughts)"},
        {"international", "B:W40:B47", "a man on 47 stands on its crowning rank (Black crowns on 46-50 in International draughts)"},
        {"international", "W:W21-50:B1-20", "White has 30 pieces (men and kings), more than the 20 it starts with in International draughts"},
        {"international", "W:Wa1:B20", "bad square at character 4 (International draughts names squares with numbers 1..50)"},
        {"international", "W:W30:B44-47", "a man in the range stands on its crowning rank (square 46; Black crowns on 46-50"},
        {"russian", "W:W31-50:B1-20", "bad square range (squares are 1..32 in Russian draughts)"}, /* a 10x10 FEN to 8x8 */
        {"brazilian", "W:W31-50:B1-20", "bad square range (squares are 1..32 in Brazilian draughts)"},
        {"english", "B:W35:B1", "bad square number '35' at character 4 (squares are 1..32 in English draughts)"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Game *g = game_find(CASES[i].game);
        assert_non_null(g);
        Position pos;
        char err[ERR_MAX] = "";
        if (g->pos_from_fen(&pos, CASES[i].fen, err) == 0) {
            print_error("%s accepted %s\n", CASES[i].game, CASES[i].fen);
            fail();
        }
        if (!strstr(err, CASES[i].want)) {
            print_error("%s %s: '%s' lacks '%s'\n", CASES[i].game, CASES[i].fen, err, CASES[i].want);
            fail();
        }
    }
    check_long_fen_rejected(G, "W:W31,32,33:B1,2,3,");
}

static void test_notation(void **state)
{
    (void)state;
    Position pos;
    char fen[FEN_MAX];
    parse_fen_or_fail(G, "W:W31-50:B1-20", &pos);
    G->pos_to_fen(&pos, fen);
    assert_string_equal(fen, G->start_fen);
    parse_fen_or_fail(G, "B:BK3,12:W27,K46.", &pos);
    G->pos_to_fen(&pos, fen);
    assert_string_equal(fen, "B:W27,K46:BK3,12");
    /* Short and full forms; an ambiguous short form is refused. */
    Move m;
    char err[ERR_MAX], text[MOVE_STR_MAX];
    parse_fen_or_fail(G, "W:WK6:B9,17,23,30,37", &pos);
    assert_int_equal(G->move_from_str(&pos, "6x3", &m, err), -1);
    assert_non_null(strstr(err, "ambiguous"));
    assert_int_equal(G->move_from_str(&pos, "6x28x14x3", &m, err), 0);
    assert_int_equal(__builtin_popcountll(m.captured), 3);
    G->move_to_str(&pos, &m, text);
    assert_string_equal(text, "6x28x14x3");
    assert_int_equal(G->move_from_str(&pos, "6x35", &m, err), 0);
    G->move_to_str(&pos, &m, text);
    assert_string_equal(text, "6x35");
    /* Bad move text names the square and the game's squares; an illegal
     * move while a capture is due lists the captures. */
    assert_int_equal(G->move_from_str(&pos, "6-51", &m, err), -1);
    assert_string_equal(err, "move '6-51': bad square '51' at character 3 (International draughts names squares with numbers 1..50)");
    assert_int_equal(G->move_from_str(&pos, "6-1", &m, err), -1);
    assert_string_equal(err, "illegal move '6-1' (a capture is compulsory: 6x35, 6x28x14x3, 6x39x25x3)");
    /* The board as the book draws it: rank 10 on top, numbers beside. */
    char board[BOARD_TEXT_MAX];
    parse_fen_or_fail(G, G->start_fen, &pos);
    G->board_text(&pos, false, false, board, sizeof board);
    assert_non_null(strstr(board, "  1  2  3  4  5\n"));
    assert_non_null(strstr(board, " 46 47 48 49 50\n"));
    int lines = 0;
    for (const char *s = board; *s; s++) lines += *s == '\n';
    assert_int_equal(lines, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering),       cmocka_unit_test(test_book_examples),
        cmocka_unit_test(test_rule_cases),      cmocka_unit_test(test_perft_published),
        cmocka_unit_test(test_properties),      cmocka_unit_test(test_draw_rules),
        cmocka_unit_test(test_bad_positions),   cmocka_unit_test(test_notation),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
