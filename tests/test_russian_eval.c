/* test_russian_eval.c — Russian draughts over random positions, and its
 * evaluation: the properties every game must have (game_properties.h: FEN
 * and key round trips, the colour mirror of moves, perft and evaluation,
 * the trace rebuilding the evaluation) and the PATTERN term against a
 * reference that reads the board square by square (docs/eval.md). The
 * rules, case by case, are test_russian.c's. */
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
#include "util/rng.h"

#include "game_properties.h"

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("russian");
    return G ? 0 : -1;
}

static void parse_or_fail(const char *fen, Position *pos) { parse_fen_or_fail(G, fen, pos); }

/* ------------------------------------------------------------------ */
/* Properties over random positions                                     */

/* A king-rich random placement: 1-5 kings and 0-6 men a side. */
static void random_position(uint64_t *rng, Position *pos) { draughts_random_position(G, rng, pos, true, 5, 7); }

static int mirror_sq(int sq) { return 63 - sq; } /* the board turned round: a1 <-> h8 */

static bool has_king(const Position *pos)
{
    char fen[FEN_MAX];
    G->pos_to_fen(pos, fen);
    return strchr(fen, 'K') != NULL;
}

/* The properties of game_properties.h over 6,000 positions: random games
 * from the start and king-rich random placements with a few random plies
 * after each; evaluation checked with the compiled-in and random weights. */
static void test_properties(void **state)
{
    (void)state;
    uint64_t wrng = rng_derive(0x57454947ULL, 0);
    EVAL_AUTO_FREE int32_t *w = prop_random_weights(G, &wrng);
    const PropGame pg = {.game = G,
                         .mirror_sq = mirror_sq,
                         .capture_compulsory = true,
                         .weights_extra = w,
                         .counted = has_king,
                         .counted_name = "with kings"};
    const PropSource src = {.positions = 6000,
                            .game_seed = 0x52555353ULL,
                            .game_plies = 150,
                            .place_seed = 0x4b494e47ULL,
                            .place_plies = 6,
                            .place = random_position,
                            .perft_depth = 3};
    PropRun run;
    prop_check_random(&run, &pg, &src);
    assert_int_equal(run.positions, 6000);
    assert_int_equal(run.deep, 6000);
    assert_true(run.counted > run.positions / 3);
}

/* ------------------------------------------------------------------ */
/* Patterns (eval_terms.def PATTERN, docs/eval.md)                      */

/* The state of 4x4 window k = 3a + b as the owner c (0 White, 1 Black)
 * sees it, square by square from the term's doc (the evaluation reads it
 * with bit tricks): digit i = 4 * (row pair) + file offset j sits on the
 * owner's row 2a + 2 * (i / 4) + (j & 1), file 2b + j; Black's view turns
 * the board round (row, file) -> (7 - row, 7 - file). board[sq]: 0 empty,
 * 1 White's piece, 2 Black's. */
static int ref_pattern_state(const int board[64], int k, int c)
{
    int a = k / 3, b = k % 3, state = 0, pow3 = 1;
    for (int i = 0; i < 8; i++, pow3 *= 3) {
        int j = i % 4, row = 2 * a + 2 * (i / 4) + (j & 1), file = 2 * b + j;
        if (c == 1) row = 7 - row, file = 7 - file;
        int v = board[row * 8 + file];
        state += pow3 * (v == 0 ? 0 : v == c + 1 ? 1 : 2);
    }
    return state;
}

static int pattern_offset(void)
{
    for (int i = 0; i < G->terms_len; i++)
        if (strcmp(G->terms[i].name, "PATTERN") == 0) {
            assert_int_equal(G->terms[i].count, 9 * 6561);
            return G->terms[i].offset;
        }
    fail_msg("no PATTERN term");
    return -1;
}

/* Named cases: one pattern weight set (opening and endgame alike, so the
 * taper leaves it whole), every other weight 0; the evaluation is that
 * weight times the count worked out by hand. */
static void test_pattern_cases(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int k, s, want; /* weight 7 at window k, state s; evaluation wanted */
        const char *why;
    } CASES[] = {
        /* a1 c1 b2 d2 a3 c3: digits 0,2,1,3 (row pair 0) and 4,6 (a3, c3) own. */
        {"W:Wa1,b2,c1,d2,a3,c3:Bh8", 0, 1 + 3 + 9 + 27 + 81 + 729, 7, "White's a1-d4 window"},
        /* Black's h8 is digit 0 of its own a1-d4 window (the board turned round). */
        {"W:Wa1,b2,c1,d2,a3,c3:Bh8", 0, 1, -7, "Black's view of h8"},
        /* h8 is digit 7 of White's e5-h8 window, an opponent's piece: 2 * 3^7. */
        {"W:Wa1,b2,c1,d2,a3,c3:Bh8", 8, 2 * 2187, 7, "White's view of h8"},
        /* A king counts as a piece: Kd4 is digit 7 of window 0 and digit 5 of window 1 (e3: 4 + 1). */
        {"B:WKd4:Bh8", 0, 2187, 7, "a king in White's window 0"},
        {"B:WKd4:Bh8", 1, 243, 7, "the same king in window 1 (c3-f6)"},
        /* The empty state is counted for both sides and cancels. */
        {"W:Wa1:Bh8", 4, 0, 0, "an empty centre window, both sides"},
    };
    int off = pattern_offset();
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(G);
    assert_non_null(w);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        memset(w, 0, (size_t)G->weights_len * sizeof *w);
        w[off + 6561 * CASES[i].k + CASES[i].s] = 7;
        w[off + 6561 * CASES[i].k + CASES[i].s + G->eg_offset] = 7;
        Position pos;
        parse_or_fail(CASES[i].fen, &pos);
        int32_t v = G->evaluate(&pos, w);
        if (v != CASES[i].want) fail_msg("%s (%s): evaluation %d, want %d", CASES[i].why, CASES[i].fen, v, CASES[i].want);
    }
}

/* Random placements: with random pattern weights (opening = endgame) and
 * every other weight 0, the evaluation is exactly the sum over the 9
 * windows of White's state weight minus Black's, the states computed
 * square by square (ref_pattern_state); and the trace holds exactly those
 * entries. */
static void test_pattern_reference(void **state)
{
    (void)state;
    int off = pattern_offset();
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(G);
    assert_non_null(w);
    uint64_t rng = rng_derive(0x50415454ULL, 1);
    for (int i = 0; i < 9 * 6561; i++) w[off + i] = w[off + i + G->eg_offset] = (int32_t)rng_below(&rng, 2001) - 1000;
    int checked = 0;
    for (int n = 0; n < 3000; n++) {
        int board[64] = {0}, count[3] = {0};
        bool king[64] = {false};
        for (int sq = 0; sq < 64; sq++) {
            if ((sq % 8 + sq / 8) % 2 != 0) continue; /* light square */
            int r = (int)rng_below(&rng, 10), c = r < 2 ? 1 : r < 4 ? 2 : 0;
            if (!c || count[c] == 12) continue;
            board[sq] = c;
            count[c]++;
            king[sq] = rng_below(&rng, 4) == 0 || (c == 1 && sq / 8 == 7) || (c == 2 && sq / 8 == 0);
        }
        if (!count[1] || !count[2]) continue;
        char fen[FEN_MAX];
        draughts_board_fen(board, king, rng_below(&rng, 2) == 0, fen);
        Position pos;
        parse_or_fail(fen, &pos);
        int64_t want = 0;
        for (int k = 0; k < 9; k++)
            want += w[off + 6561 * k + ref_pattern_state(board, k, 0)] - w[off + 6561 * k + ref_pattern_state(board, k, 1)];
        int32_t v = G->evaluate(&pos, w);
        if (v != want) fail_msg("%s: evaluation %d, square-by-square reference %lld", fen, v, (long long)want);
        EvalTrace t;
        G->evaluate_trace(&pos, w, &t);
        int64_t traced = 0;
        for (int e = 0; e < t.len; e++)
            if (t.index[e] >= (uint32_t)off && t.index[e] < (uint32_t)off + 9 * 6561) traced += (int64_t)t.coef[e] * w[t.index[e]];
        if (traced != want) fail_msg("%s: pattern trace entries sum to %lld, want %lld", fen, (long long)traced, (long long)want);
        checked++;
    }
    assert_true(checked > 2900);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_pattern_cases),
        cmocka_unit_test(test_pattern_reference),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
