/* test_big_boards.c — the draughts games beyond 8x8: International
 * (10x10; docs/rules/international.md) and Canadian (12x12, its 128-bit
 * board; docs/rules/canadian.md):
 *   - the 10x10 and 12x12 boards of the draughts core: numbering 1-50 and
 *     1-72 against the books' squares, the neighbours of the ghost-square
 *     layouts;
 *   - the rule book's worked examples and single rules as exact move lists;
 *   - the published perft of data/perft/other_variants.txt to depth 8
 *     (deeper: test_variants_slow.c);
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

static const Game *G; /* the game under test: International unless a test sets Canadian */

static int setup(void **state)
{
    (void)state;
    game_init_all();
    return game_find("international") && game_find("canadian") ? 0 : -1;
}

static int use_international(void **state)
{
    (void)state;
    G = game_find("international");
    return 0;
}

static int use_canadian(void **state)
{
    (void)state;
    G = game_find("canadian");
    return 0;
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

/* The board under test: squares 1..n (50 or 72) in rows of 5 or 6. */
static bool wide(void) { return G->pos_size == sizeof(DraughtsPosWide); }
static int big_squares(void) { return wide() ? 72 : 50; }
static int big_row(void) { return wide() ? 6 : 5; }

/* 1-5 kings and 0..2 row - 3 men a side on random squares; a man drawn on
 * its crowning row becomes a king. */
static void random_position(uint64_t *rng, Position *pos)
{
    int n = big_squares(), order[72];
    for (int i = 0; i < n; i++) order[i] = i + 1;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint64_t)i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    char fen[FEN_MAX];
    int len = snprintf(fen, sizeof fen, "%c", rng_below(rng, 2) ? 'B' : 'W'), next = 0;
    for (int c = 0; c < 2; c++) {
        len += snprintf(fen + len, sizeof fen - (size_t)len, ":%c", c ? 'B' : 'W');
        int kings = 1 + (int)rng_below(rng, 5), men = (int)rng_below(rng, (uint64_t)(2 * big_row() - 2));
        for (int k = 0; k < kings + men; k++) {
            int sq = order[next++];
            bool crown = c == COLOR_WHITE ? sq <= big_row() : sq > n - big_row();
            len += snprintf(fen + len, sizeof fen - (size_t)len, "%s%s%d", k ? "," : "", (k < kings || crown) ? "K" : "", sq);
        }
    }
    parse_fen_or_fail(G, fen, pos);
}

/* The 180-degree turn: index s to top - s (54 on 10x10, 77 on 12x12). */
static int mirror_sq(int sq) { return (wide() ? 77 : 54) - sq; }

static bool has_king(const Position *pos)
{
    return wide() ? ((const DraughtsPosWide *)pos->data)->kings != 0 : ((const DraughtsPos *)pos->data)->kings != 0;
}

/* Every property of game_properties.h over `positions` positions: random
 * games from the start, then king-rich placements. */
static void check_properties(int positions, uint64_t seed)
{
    uint64_t wrng = seed;
    EVAL_AUTO_FREE int32_t *w = prop_random_weights(G, &wrng);
    const PropGame pg = {.game = G,
                         .mirror_sq = mirror_sq,
                         .capture_compulsory = true,
                         .weights_extra = w,
                         .counted = has_king,
                         .counted_name = "with kings"};
    const PropSource src = {.positions = positions,
                            .game_seed = seed + 1,
                            .game_plies = wide() ? 250 : 200,
                            .place_seed = seed + 2,
                            .place_plies = 6,
                            .place = random_position,
                            .perft_depth = 3};
    PropRun run;
    prop_check_random(&run, &pg, &src);
    assert_int_equal(run.positions, positions);
    assert_true(run.counted > run.positions / 3);
}

static void test_properties(void **state)
{
    (void)state;
    check_properties(2000, 0x494e0000ULL);
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

/* I-D3 and I-D4 count from the first position of their material
 * (international.md rule 15): a crowning inside the material restarts
 * neither, and I-D3 runs on after the lone king's capture turns it into
 * I-D4 material, the first limit ending the game under its own id. Each
 * line is open after every ply but the last, and drawn after the last. */
static void test_draw_counts_by_class(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *moves, *id;
    } CASES[] = {
        /* a king and two men: 14 king moves each, a crowning at ply 29
         * (two kings and a man: the same rule), drawn at ply 32 */
        {"W:WK26,6,7:BK45",
         "26-12 45-50 12-8 50-45 8-12 45-50 12-8 50-44 8-3 44-40 3-12 40-35 12-3 35-30 3-9 30-25 9-4 25-20 "
         "4-10 20-15 10-5 15-4 5-14 4-15 14-5 15-4 5-14 4-15 7-2 15-47 2-7 47-42",
         "I-D3"},
        /* the lone king takes the man at ply 26: I-D4 counts from there
         * (to ply 36), I-D3 from ply 0 runs out first, at ply 32 */
        {"W:WK1,K2,36:BK45",
         "1-6 45-40 2-8 40-35 8-3 35-30 6-1 30-25 3-8 25-20 1-7 20-15 8-3 15-10 7-2 10-5 3-9 5-10 2-8 10-5 "
         "9-4 5-14 8-3 14-5 4-10 5x46 3-9 46-5 9-4 5-46 4-15 46-5",
         "I-D3"},
        /* a king and a man crowned at ply 3: I-D4 still ends at ply 10 */
        {"W:WK48,8:BK36", "48-42 36-41 8-2 41-36 42-48 36-41 48-42 41-36 42-48 36-41", "I-D4"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Position pos;
        uint64_t history[64];
        int len = 0;
        parse_fen_or_fail(G, CASES[i].fen, &pos);
        char moves[512];
        snprintf(moves, sizeof moves, "%s", CASES[i].moves);
        int plies = 0;
        for (char *w = strtok(moves, " "); w; w = strtok(NULL, " ")) plies++;
        snprintf(moves, sizeof moves, "%s", CASES[i].moves);
        int ply = 0;
        for (char *w = strtok(moves, " "); w; w = strtok(NULL, " ")) {
            Move m;
            char err[ERR_MAX];
            if (G->move_from_str(&pos, w, &m, err) != 0) {
                print_error("%s, ply %d: %s\n", CASES[i].fen, ply + 1, err);
                fail();
            }
            history[len++] = G->hash(&pos);
            Position child;
            G->make_move(&pos, &m, &child);
            pos = child;
            ply++;
            const char *why = NULL;
            Outcome o = game_outcome(G, &pos, history, len, &why, NULL);
            Outcome want = ply < plies ? OUTCOME_NONE : OUTCOME_DRAW;
            if (o != want || (want == OUTCOME_DRAW && strcmp(why, CASES[i].id) != 0)) {
                print_error("%s, ply %d of %d: outcome %d (%s), expected %d (%s)\n", CASES[i].fen, ply, plies, o,
                            why ? why : "-", want, want == OUTCOME_DRAW ? CASES[i].id : "-");
                fail();
            }
        }
    }
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
        /* a ',' with no square after it, a second '.': named with the place (one '.' is PDN 3.0's end) */
        {"international", "W:W31,32,:B1.", "a ',' at character 9 with no square after it (a ',' comes between two squares)"},
        {"international", "W:W31,32:B1,", "a ',' at character 12 with no square after it"},
        {"international", "W:W31,32:B1..", "a second '.' at character 13 (the position may end with one)"},
        {"canadian", "W:W31:B1,.", "a ',' at character 9 with no square after it"},
        {"russian", "W:Wc3,:Bd6", "a ',' at character 6 with no square after it"},
        {"russian", "W:Wc3:Bd6. .", "a second '.' at character 12"},
        {"turkish", "W:Wa3,:Ba6", "a ',' at character 6 with no square after it"},
        {"english", "B:W21,22,:B1", "a ',' at character 9 with no square after it"},
        {"czech", "W:Wa1:Bh8..\"", "a second '.' at character 11"},
        /* a blank inside: named where it is, not at the ':' after it */
        {"russian", "W:Wa1\t:Bh8", "a tab at character 6 inside the position"},
        {"international", "W:W31 :B1", "a blank at character 6 inside the position"},
        /* a tag's quotes and brackets around the position come in pairs (a stray one is no pasted tag) */
        {"russian", "\"W:Wa1:Bh8", "its '\"' are not paired around the position"},
        {"russian", "W:Wa1:Bh8\"", "its '\"' are not paired around the position"},
        {"international", "[W:W31:B1", "its '[' and ']' are not paired around the position"},
        {"international", "W:W31:B1.]", "its '[' and ']' are not paired around the position"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) check_refused(CASES[i].game, CASES[i].fen, CASES[i].want);
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
    parse_fen_or_fail(G, "[\"B:BK3,12:W27,K46.\"]", &pos); /* a tag's value in its brackets */
    parse_fen_or_fail(G, "\"B:BK3,12:W27,K46.\"", &pos); /* one '.', quoted as a PDN tag's value */
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

/* ------------------------------------------------------------------ */
/* Canadian draughts (12x12): International's rules on the 128-bit board */

static void test_canadian_numbering(void **state)
{
    (void)state;
    static const struct {
        int number, file, rank;
    } SQ[] = {{1, 1, 11}, {6, 11, 11}, {7, 0, 10}, {67, 0, 0}, {72, 10, 0}, {43, 0, 4}, {30, 11, 7}};
    for (size_t i = 0; i < sizeof SQ / sizeof SQ[0]; i++) {
        int sq = draughts_square_from_number(NUMBERING_CANADIAN, SQ[i].number);
        assert_int_equal(sq, draughts_square_at(GEOM_DIAGONAL12, SQ[i].rank, SQ[i].file));
        assert_int_equal(draughts_number_of_square(NUMBERING_CANADIAN, sq), SQ[i].number);
    }
    assert_int_equal(draughts_square_from_number(NUMBERING_CANADIAN, 73), -1);
    /* The long diagonal 67-61-...-12-6, one NE step each; indices up to 77. */
    static const int ROAD[] = {67, 61, 56, 50, 45, 39, 34, 28, 23, 17, 12, 6};
    for (int i = 0; i + 1 < 12; i++) {
        int a = draughts_square_from_number(NUMBERING_CANADIAN, ROAD[i]);
        int b = draughts_square_from_number(NUMBERING_CANADIAN, ROAD[i + 1]);
        assert_int_equal(draughts_tables.next[GEOM_DIAGONAL12][a][0], b);
        assert_int_equal(draughts_tables.next[GEOM_DIAGONAL12][b][3], a);
    }
    assert_int_equal(draughts_square_from_number(NUMBERING_CANADIAN, 6), 77);
    /* Every square a capture can take (off the edge) lies in indices 7..70:
     * the 64 bits a Move keeps (draughts.h). */
    for (int n = 1; n <= 72; n++) {
        int sq = draughts_square_from_number(NUMBERING_CANADIAN, n);
        int r = draughts_tables.rank[GEOM_DIAGONAL12][sq], f = draughts_tables.file[GEOM_DIAGONAL12][sq];
        if (r > 0 && r < 11 && f > 0 && f < 11) assert_true(sq >= 7 && sq <= 70);
    }
    char board[BOARD_TEXT_MAX];
    Position pos;
    parse_fen_or_fail(G, G->start_fen, &pos);
    G->board_text(&pos, false, false, board, sizeof board);
    assert_non_null(strstr(board, "  1  2  3  4  5  6\n"));
    assert_non_null(strstr(board, " 67 68 69 70 71 72\n"));
}

static void test_canadian_examples(void **state)
{
    (void)state;
    check_moves(G->start_fen, "43-37 44-37 44-38 45-38 45-39 46-39 46-40 47-40 47-41 48-41 48-42", "E1 start");
    check_moves("W:W14:B9,K10", "14x16", "E2 passing the last row: goes on as a man");
    check_moves("W:W37,K45:B34,50,61", "45x67", "E3 Turkish strike on the long diagonal; majority");
    check_moves("W:W50:BK44,45,34", "50x28", "E4 a king counts as one");
    /* A capture over pieces near the top of the 128-bit board (indices
     * over 63): the king on 67 takes 12 on the long diagonal and lands on 6. */
    check_moves("W:WK67:B12,1", "67x6", "a capture into the upper half of the board");
    check_moves("W:W14:B9", "14x3", "a man takes a piece of index 67 and is crowned on 3");
    check_moves("B:W14:B8", "8x21", "Black takes forward");
    /* The longest landing choice: ten squares behind b2 on the long diagonal. */
    check_moves("W:WK67:B61", "67x12 67x17 67x23 67x28 67x34 67x39 67x45 67x50 67x56 67x6", "ten landing squares");
}

static void test_canadian_perft(void **state)
{
    (void)state;
    assert_int_equal(perft_table_check(G, PERFT_FILE, 1, 8), 8);
}

/* Canadian's square table (72 weights) is a term the tuner fits, not a
 * pattern table it leaves to --patterns (eval_term_is_table); the
 * pattern tables of International and Russian are. */
static void test_tables_by_board(void **state)
{
    (void)state;
    static const struct {
        const char *game, *term;
        bool table;
    } CASES[] = {{"canadian", "MAN_PST", false},      {"canadian", "MAN_PST_EG", false},
                 {"international", "MAN_PST", false}, {"international", "PATTERN", true},
                 {"russian", "MAN_PST", false},       {"russian", "PATTERN_EG", true}};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Game *g = game_find(CASES[i].game);
        const EvalTerm *t = NULL;
        for (int k = 0; k < g->terms_len && !t; k++)
            if (strcmp(g->terms[k].name, CASES[i].term) == 0) t = &g->terms[k];
        assert_non_null(t);
        assert_int_equal(eval_term_is_table(g, t), CASES[i].table);
    }
}

static void test_canadian_properties(void **state)
{
    (void)state;
    check_properties(1500, 0x43410000ULL);
}

static void test_canadian_draws(void **state)
{
    (void)state;
    Position pos;
    const char *why = NULL;
    parse_fen_or_fail(G, "W:WK67,K68,K69:BK6", &pos);
    DraughtsPosWide *p = (DraughtsPosWide *)pos.data;
    p->material_plies = 31;
    assert_int_equal(G->rule_outcome(&pos, &why), OUTCOME_NONE);
    p->material_plies = 32;
    assert_int_equal(G->rule_outcome(&pos, &why), OUTCOME_DRAW);
    assert_string_equal(why, "Ca-D3"); /* three kings against one: 16 moves */
    parse_fen_or_fail(G, "W:WK67,40:BK6,30", &pos);
    p->reversible = 49;
    assert_int_equal(G->rule_outcome(&pos, &why), OUTCOME_NONE);
    p->reversible = 50;
    assert_int_equal(G->rule_outcome(&pos, &why), OUTCOME_DRAW);
    assert_string_equal(why, "Ca-D2"); /* 25 moves of kings only */
}

static void test_canadian_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *game, *fen, *want;
    } CASES[] = {
        {"canadian", "W:W73:B1", "bad square number '73' at character 4 (squares are 1..72 in Canadian draughts)"},
        {"canadian", "W:W5:B40", "a man on 5 stands on its crowning rank (White crowns on 1-6 in Canadian draughts)"},
        {"canadian", "W:W31-72:B1-30", "White has 42 pieces (men and kings), more than the 30 it starts with in Canadian draughts"},
        {"international", "W:W43-72:B1-30", "bad square range (squares are 1..50 in International draughts)"},
        {"russian", "W:W43-72:B1-30", "bad square number '43' at character 4 (squares are 1..32 in Russian draughts)"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) check_refused(CASES[i].game, CASES[i].fen, CASES[i].want);
    /* The writer lists every square, in order, White first. */
    Position pos;
    char fen[FEN_MAX];
    parse_fen_or_fail(G, "B:B60,K2:W67-72", &pos);
    G->pos_to_fen(&pos, fen);
    assert_string_equal(fen, "B:W67,68,69,70,71,72:BK2,60");
}

int main(void)
{
#define IN(t) cmocka_unit_test_setup(t, use_international)
#define CA(t) cmocka_unit_test_setup(t, use_canadian)
    const struct CMUnitTest tests[] = {
        IN(test_numbering),          IN(test_book_examples),        IN(test_rule_cases),
        IN(test_perft_published),    IN(test_properties),           IN(test_draw_rules),
        IN(test_draw_counts_by_class),
        IN(test_bad_positions),      IN(test_notation),             CA(test_canadian_numbering),
        CA(test_canadian_examples),  CA(test_canadian_perft),       CA(test_canadian_properties),
        CA(test_canadian_draws),     CA(test_canadian_bad_input),   CA(test_tables_by_board),
    };
#undef IN
#undef CA
    return cmocka_run_group_tests(tests, setup, NULL);
}
