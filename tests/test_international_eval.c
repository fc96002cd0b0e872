/* test_international_eval.c — International draughts' PATTERN term
 * (eval_terms.def, docs/eval.md): named cases worked out by hand, and the
 * evaluation and its trace against a reference that reads the 16 windows
 * square by square from the rank and file of each square (the engine reads
 * them with bit tricks on the folded board). The properties of the whole
 * evaluation (colour mirror, trace) are test_big_boards.c's. */
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

enum { REGIONS = 16, STATES = 6561 };

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("international");
    return G ? 0 : -1;
}

static int pattern_offset(void)
{
    for (int i = 0; i < G->terms_len; i++)
        if (strcmp(G->terms[i].name, "PATTERN") == 0) {
            assert_int_equal(G->terms[i].count, REGIONS * STATES);
            return G->terms[i].offset;
        }
    fail_msg("no PATTERN term");
    return -1;
}

/* Named cases: one pattern weight set (opening and endgame alike), every
 * other weight 0; the evaluation is that weight times the count worked out
 * by hand. Squares: 46 a1, 47 c1, 41 b2, 5 j10, 28 e5. */
static void test_pattern_cases(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int k, s, want; /* weight 7 at window k, state s; evaluation wanted */
        const char *why;
    } CASES[] = {
        /* Window 0 (a1-d4): a1, b2, c1 are digits 0, 1, 2 (files 0, 1, 2 of ranks 1-2). */
        {"W:W46,41,47:B5", 0, 1 + 3 + 9, 7, "White's window a1-d4"},
        /* Black's j10 is digit 0 of its own window 0 (the board turned round). */
        {"W:W46,41,47:B5", 0, 1, -7, "Black's view of j10"},
        /* j10 is digit 7 of White's window 15 (g7-j10), an opponent's piece: 2 * 3^7. */
        {"W:W46,41,47:B5", 15, 2 * 2187, 7, "White's view of j10"},
        /* Black's view of window 15 is the board's a1-d4 turned: a1, b2, c1 digits 7, 6, 5. */
        {"W:W46,41,47:B5", 15, 2 * (2187 + 729 + 243), -7, "Black's view of a1-d4"},
        /* A king counts as a piece; e5 lies in 4 windows: digit 6 of window 5
         * (c3-f6), 0 of window 10 (e5-h8), 4 of window 6 (e3-h6), 2 of window 9 (c5-f8). */
        {"B:WK28:B5", 5, 729, 7, "a king in window c3-f6"},
        {"B:WK28:B5", 10, 1, 7, "the same king in window e5-h8"},
        {"B:WK28:B5", 6, 81, 7, "digit 4 of window e3-h6"},
        {"B:WK28:B5", 9, 9, 7, "digit 2 of window c5-f8"},
    };
    int off = pattern_offset();
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(G);
    assert_non_null(w);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        memset(w, 0, (size_t)G->weights_len * sizeof *w);
        w[off + STATES * CASES[i].k + CASES[i].s] = 7;
        w[off + STATES * CASES[i].k + CASES[i].s + G->eg_offset] = 7;
        Position pos;
        parse_fen_or_fail(G, CASES[i].fen, &pos);
        int32_t v = G->evaluate(&pos, w);
        if (v != CASES[i].want)
            fail_msg("%s (%s): evaluation %d, want %d", CASES[i].why, CASES[i].fen, v, CASES[i].want);
    }
}

/* The state of window k as the owner c (0 White, 1 Black) sees it, square
 * by square from the term's doc: digit i on the owner's rank 2a + 2(i/4) +
 * (the dark one of the two ranks on that file), file 2b + i%4. Black's view
 * turns the board round. board[rank][file]: 0 empty, 1 White's, 2 Black's. */
static int ref_pattern_state(const int board[10][10], int k, int c)
{
    int a = k / 4, b = k % 4, state = 0, pow3 = 1;
    for (int i = 0; i < 8; i++, pow3 *= 3) {
        int file = 2 * b + i % 4, rank = 2 * a + 2 * (i / 4);
        if ((rank + file) % 2) rank++; /* the dark square of this file in the pair */
        int r = c == 1 ? 9 - rank : rank, f = c == 1 ? 9 - file : file;
        int v = board[r][f];
        state += pow3 * (v == 0 ? 0 : v == c + 1 ? 1 : 2);
    }
    return state;
}

/* A random placement, up to 20 pieces a side, kings at random (a man on
 * its crowning rank a king), side to move at random; its FEN in fen. */
static bool random_board(uint64_t *rng, int board[10][10], char fen[FEN_MAX])
{
    char side[2][FEN_MAX / 2 - 8] = {"", ""};
    int len[2] = {0, 0}, count[3] = {0, 0, 0};
    memset(board, 0, 100 * sizeof board[0][0]);
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 10; f++) {
            int sq = draughts_square_at(GEOM_DIAGONAL10, r, f), x = (int)rng_below(rng, 10);
            int c = x < 3 ? 1 : x < 6 ? 2 : 0;
            if (sq < 0 || !c || count[c] == 20) continue;
            board[r][f] = c;
            count[c]++;
            bool king = rng_below(rng, 5) == 0 || (c == 1 && r == 9) || (c == 2 && r == 0);
            int n = draughts_number_of_square(NUMBERING_INTERNATIONAL, sq);
            len[c - 1] += snprintf(side[c - 1] + len[c - 1], sizeof side[0] - (size_t)len[c - 1], "%s%s%d",
                                   len[c - 1] ? "," : "", king ? "K" : "", n);
        }
    if (!count[1] || !count[2]) return false;
    snprintf(fen, FEN_MAX, "%c:W%s:B%s", rng_below(rng, 2) ? 'B' : 'W', side[0], side[1]);
    return true;
}

/* With random pattern weights (opening = endgame) and every other weight
 * 0, the evaluation is exactly the sum over the 16 windows of White's state
 * weight minus Black's (ref_pattern_state), and the trace's pattern
 * entries rebuild it. */
static void test_pattern_reference(void **state)
{
    (void)state;
    int off = pattern_offset();
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(G);
    assert_non_null(w);
    uint64_t rng = rng_derive(0x494e5041ULL, 3);
    for (int i = 0; i < REGIONS * STATES; i++)
        w[off + i] = w[off + i + G->eg_offset] = (int32_t)rng_below(&rng, 2001) - 1000;
    int checked = 0;
    for (int n = 0; n < 3000; n++) {
        int board[10][10];
        char fen[FEN_MAX];
        if (!random_board(&rng, board, fen)) continue;
        Position pos;
        parse_fen_or_fail(G, fen, &pos);
        int64_t want = 0;
        for (int k = 0; k < REGIONS; k++)
            want += w[off + STATES * k + ref_pattern_state(board, k, 0)] -
                    w[off + STATES * k + ref_pattern_state(board, k, 1)];
        int32_t v = G->evaluate(&pos, w);
        if (v != want) fail_msg("%s: evaluation %d, square-by-square reference %lld", fen, v, (long long)want);
        EvalTrace t;
        assert_int_equal(G->evaluate_trace(&pos, w, &t), v);
        int64_t traced = 0;
        for (int e = 0; e < t.len; e++)
            if (t.index[e] >= (uint32_t)off && t.index[e] < (uint32_t)(off + REGIONS * STATES))
                traced += (int64_t)t.coef[e] * w[t.index[e]];
        if (traced != want)
            fail_msg("%s: pattern trace entries sum to %lld, want %lld", fen, (long long)traced, (long long)want);
        checked++;
    }
    assert_true(checked > 2900);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_cases),
        cmocka_unit_test(test_pattern_reference),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
