/* test_shatra.c — the rules of Shatra (docs/rules/shatra.md).
 *
 * Every move list below was worked out by hand from shatra.md, square by
 * square (the reasoning is in the comment of each case), and cross-checked
 * with the independent Python reference tests/ref/shatra_ref.py, never with
 * this C code. Moves are compared as sets of move strings (section 8); where
 * a capture has several routes (D convention: one move) any of them may be
 * written, so an expected entry lists them separated by '|'. An entry may add
 * "x=sq,sq,..." (the captured set). A drop entry "A*L" with a list L of
 * squares and ranges ("58*32-45,47-52") stands for the drops A*x, x in L.
 *
 * Board words (section 1): squares 1..62 from Black's fortress (top) to
 * White's (bottom); White moves up (toward smaller numbers). Rank 10 is
 * 11-17 (a10-g10), rank 9 18-24, rank 8 25-31, rank 7 32-38, rank 6 39-45,
 * rank 5 46-52; the d-file (great road) is 2 5 8 10 14 21 28 35 42 49 53 55
 * 58 61. In most cases the White Biy is parked on 46 (a5), where its steps
 * are 46-39, 46-40, 46-47, and the Black one on 17 (g10) or 11 (a10).
 *
 * Properties over random games and the evaluation are test_shatra_eval.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game.h"

#include "game_properties.h"
#include "perft_table.h"

#define PERFT_FILE DAMA_SOURCE_DIR "/data/perft/shatra.txt"
#define START "sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 1"

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("shatra");
    return G ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static void parse_or_fail(const char *fen, Position *pos) { parse_fen_or_fail(G, fen, pos); }

/* "29,30" -> bitset of square indices (square n is bit n - 1). */
static uint64_t squares_of(const char *list)
{
    uint64_t set = 0;
    for (const char *s = list; *s && *s != ' ';) {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (*end == '-') hi = strtol(end + 1, &end, 10);
        for (long n = lo; n <= hi; n++) set |= 1ULL << (n - 1);
        s = *end == ',' ? end + 1 : end;
    }
    return set;
}

enum { EXPECT_MAX = 128 };

typedef struct Expected {
    int len;
    char text[EXPECT_MAX][96]; /* routes '|'-separated, then options */
} Expected;

/* Expand drop ranges "A*L" into single entries. */
static void expand(const char *const *want, Expected *out)
{
    out->len = 0;
    for (int i = 0; want[i]; i++) {
        const char *star = strchr(want[i], '*');
        if (!star || !strpbrk(star, ",-")) {
            assert_true(out->len < EXPECT_MAX);
            snprintf(out->text[out->len++], sizeof out->text[0], "%s", want[i]);
            continue;
        }
        int from = atoi(want[i]);
        uint64_t to = squares_of(star + 1);
        for (int sq = 0; sq < 62; sq++) {
            if (!(to >> sq & 1)) continue;
            assert_true(out->len < EXPECT_MAX);
            snprintf(out->text[out->len++], sizeof out->text[0], "%d*%d", from, sq + 1);
        }
    }
}

static void check_entry_options(const char *entry, const Move *m, const char *text)
{
    const char *opt = strstr(entry, " x=");
    if (opt && m->captured != squares_of(opt + 3)) {
        print_error("%s: captured set is not {%s}\n", text, opt + 3);
        fail();
    }
}

/* The legal moves (D) of fen must be exactly `want` (NULL-terminated), the
 * P convention must count `paths` moves (-1: as many as D), and
 * has_capture must equal `compulsory`. */
static void check_moves_at(const char *fen, const char *const *want, int paths, bool compulsory, const char *what)
{
    Position pos;
    parse_or_fail(fen, &pos);
    Expected exp;
    expand(want, &exp);
    MoveList list;
    G->gen_moves(&pos, &list, GEN_DISTINCT);
    bool matched[EXPECT_MAX] = {false};
    bool ok = true;
    char text[MOVE_STR_MAX];
    for (int i = 0; i < list.len; i++) {
        G->move_to_str(&pos, &list.moves[i], text);
        int hit = -1;
        for (int j = 0; j < exp.len && hit < 0; j++)
            if (entry_has_route(exp.text[j], text)) hit = j;
        if (hit < 0) {
            print_error("%s: %s: unexpected move %s\n", what, fen, text);
            ok = false;
        } else if (matched[hit]) {
            print_error("%s: %s: move %s listed twice (one move in the D convention)\n", what, fen, text);
            ok = false;
        } else {
            matched[hit] = true;
            check_entry_options(exp.text[hit], &list.moves[i], text);
        }
    }
    for (int j = 0; j < exp.len; j++) {
        if (!matched[j]) {
            print_error("%s: %s: missing move %s\n", what, fen, exp.text[j]);
            ok = false;
        }
    }
    if (!ok) {
        print_moves(G, &pos, &list);
        fail();
    }
    if (G->has_capture(&pos) != compulsory) {
        print_error("%s: %s: has_capture is %d, expected %d\n", what, fen, G->has_capture(&pos), compulsory);
        fail();
    }
    MoveList plist;
    int np = G->gen_moves(&pos, &plist, GEN_PATHS);
    int want_paths = paths < 0 ? exp.len : paths;
    if (np != want_paths) {
        print_error("%s: %s: %d moves in the P convention, expected %d\n", what, fen, np, want_paths);
        fail();
    }
    assert_int_equal(G->perft(&pos, 1, GEN_DISTINCT), (uint64_t)exp.len);
    assert_int_equal(G->perft(&pos, 1, GEN_PATHS), (uint64_t)want_paths);
}

/* ------------------------------------------------------------------ */
/* Perft: data/perft/shatra.txt (an independent implementation)  */

static void test_perft_table(void **state)
{
    (void)state;
    assert_int_equal(perft_table_check(G, PERFT_FILE, 1, 3), 3);
}

/* ------------------------------------------------------------------ */
/* The rules, one small position each                                  */

typedef struct RuleCase {
    const char *rule; /* section of shatra.md */
    const char *fen;
    int paths;       /* moves in the P convention, -1: same as D */
    bool compulsory; /* has_capture: a piece other than the Biy can capture */
    const char *moves[48];
} RuleCase;

#define K46 "46-39", "46-40", "46-47" /* the parked White Biy's steps */

static const RuleCase RULE_CASES[] = {
    /* Geometry through the gate d4 (53), open fortress: the Batyr reaches
     * the d-file both ways (49 .. 2; 55, 58, 61), the diagonals 50-44-38,
     * 48-40-32, 54 and 56 — nothing east or west (walls). In the open
     * fortress it may also be dropped. */
    {"1 lines through the gate",
     "3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 0 1",
     -1,
     false,
     {"53-49", "53-42", "53-35", "53-28", "53-21", "53-14", "53-10",          "53-8",
      "53-5",  "53-2",  "53-55", "53-58", "53-61", "53-50", "53-44",          "53-38",
      "53-48", "53-40", "53-32", "53-54", "53-56", K46,     "53*32-45,47-52", NULL}},
    /* The fortress corner c1 (60): up the c-file to 54 (c4 is a wall),
     * along rank 1 to 62, diagonally 58, 56 (f4 is a wall). */
    {"1 lines in the fortress",
     "3/3/3/1/6k/7/7/7/7/K6/1/3/3/Q2 w - - - - 0 1",
     -1,
     false,
     {"60-57", "60-54", "60-61", "60-62", "60-58", "60-56", K46, "60*32-45,47-52", NULL}},
    /* 44 (f6) is in White's half off the bank row: one step forward, 37.
     * 34 (c7) is on the bank row: forward 27 and diagonally forward 26, 28.
     * 20 (c9) is past the moat: forward 13, diagonally 12, 14, sideways 19,
     * 21. Nothing goes backward. */
    {"3 a shatra moves by zone",
     "3/3/3/1/6k/2S4/7/2S4/5S1/K6/1/3/3/3 w - - - - 0 1",
     -1,
     false,
     {"44-37", "34-27", "34-26", "34-28", "20-13", "20-12", "20-14", "20-19", "20-21", K46, NULL}},
    /* 48 (c5) on the first field row: 41, or two squares to 34 over the
     * empty 41. 50 (e5): 43, but not 36 (Black's shatra stands there).
     * 45 (g6) is not on the first field row: 38 only. */
    {"3 the two-step from the first field row",
     "3/3/3/1/6k/7/7/4s2/6S/K1S1S2/1/3/3/3 w - - - - 0 1",
     -1,
     false,
     {"48-41", "48-34", "50-43", "45-38", K46, NULL}},
    /* Black's gate d11 (10) is past the moat: forward 8, diagonally 7, 9;
     * no square beside it. */
    {"3 a shatra in the enemy gate",
     "3/3/3/S/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     false,
     {"10-7", "10-8", "10-9", K46, NULL}},
    /* 5 (d13) may step onto the back row 1, 2, 3; the pool holds a Batyr,
     * two Turas and two Yalkyns (White has none on the board), so each
     * arrival promotes, to a type the player chooses. Sideways 4, 6 do not. */
    {"3,6 arriving on the back row promotes, choosing the type",
     "3/1S1/3/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     false,
     {"5-1=Q", "5-1=R", "5-1=B", "5-2=Q", "5-2=R", "5-2=B", "5-3=Q", "5-3=R", "5-3=B", "5-4", "5-6", K46, NULL}},
    /* White's Batyr, Turas and Yalkyns are all on the board (first reserve
     * in the fortress): the pool is empty and the shatra on 2 waits, moving
     * only sideways (1, 3), never promoting. The fortress is closed: the
     * next reserve piece is the Yalkyn on 55 (54 is empty), dropped on any
     * empty square of 32-52 (46 holds the Biy). The Tura on 58 and the
     * Batyr on 61 have the Yalkyn on 55 in their way: no great-road exit. */
    {"6 a waiting shatra with an empty pool",
     "1S1/3/3/1/6k/7/7/7/7/K6/1/1B1/RRB/1Q1 w 55,57-59,61 - - - 0 1",
     -1,
     false,
     {"2-1", "2-3", K46, "55*32-45,47-52", NULL}},
    /* With a non-empty pool the waiting shatra promotes in place (its own
     * turn), or steps sideways along the back row and promotes there. */
    {"6 a waiting shatra promotes in place",
     "1S1/3/3/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     false,
     {"2=Q", "2=R", "2=B", "2-1=Q", "2-1=R", "2-1=B", "2-3=Q", "2-3=R", "2-3=B", K46, NULL}},
    /* ...but not while a capture is compulsory: 2 takes 5 (d13) landing on
     * 8 (backward captures are allowed). */
    {"4,6 no promotion in place while a capture is compulsory",
     "1S1/1s1/3/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"2:8 x=5", NULL}},
    /* White's shatra stepped 21-20 on its previous turn: it may not step
     * straight back to 21 now (19, 12, 13, 14 are fine). Black's entry
     * 45-44 does not bind White. */
    {"3 the sideways-step reversal ban",
     "3/3/3/1/6k/2S4/7/7/5s1/K6/1/3/3/3 w - - - 21-20,45-44 0 1",
     -1,
     false,
     {"20-19", "20-12", "20-13", "20-14", K46, NULL}},
    /* Black just played 13-27 (c10-c8) over 20. The shatra on 21 (d9) is
     * next to 20 and jumps it westward to 19, taking the shatra on 27; it
     * may also take 27 directly (south-west, landing 33). Either way 27 is
     * taken once, and nothing follows. */
    {"4 en passant", "3/3/3/1/k6/3S3/2s4/7/7/K6/1/3/3/3 w - - 20 - 0 1", -1, true, {"21:19 x=27", "21:33 x=27", NULL}},
    /* Black just played 15-29 over 22. 37 (f7) takes 30 (f8) landing 23,
     * then either jumps the skipped 22 westward to 21 (en passant inside the
     * chain) or 29 directly (south-west, to 35): the same piece taken two
     * ways, two moves with different ends. 37 may also take 29 directly
     * (north-west, to 21); from 21 the right is spent (29 is taken). */
    {"4 en passant inside a chain",
     "3/3/3/1/k6/7/4ss1/5S1/7/K6/1/3/3/3 w - - 22 - 0 1",
     -1,
     true,
     {"37:23:21 x=29,30", "37:23:35 x=29,30", "37:21 x=29", NULL}},
    /* The start position of White's fortress with the field empty: the
     * reserve pieces do not move; the Biy in its gate steps to 48, 49, 50
     * but not into the closed fortress (54-56), and may be dropped; the
     * next reserve piece is 54. The Tura on 55 has the Biy in its way. */
    {"3,5 first reserve: only the Biy in its gate moves; drops",
     "3/3/3/1/6k/7/7/7/7/7/K/BRB/SRS/SQS w 53-62 - - - 0 1",
     -1,
     false,
     {"53-48", "53-49", "53-50", "53*32-52", "54*32-52", NULL}},
    /* The gate is empty: the reserve Tura on 55 leaves by the great road to
     * any square from 49 up to Black's fortress (2), never stopping in its
     * own gate 53. The Batyr on 58 has the Tura in its way. */
    {"5 the great road, open",
     "3/3/3/1/6k/7/7/7/7/K6/1/BRB/SQS/SRS w 54-62 - - - 0 1",
     -1,
     false,
     {"55-49", "55-42", "55-35", "55-28", "55-21", "55-14", "55-10", "55-8", "55-5", "55-2", K46, "54*32-45,47-52",
      NULL}},
    /* White's own shatra on 42 blocks the road: only 55-49. */
    {"5 the great road, blocked",
     "3/3/3/1/6k/7/7/7/3S3/K6/1/BRB/SQS/SRS w 54-62 - - - 0 1",
     -1,
     false,
     {"55-49", "42-35", K46, "54*32-41,43-45,47-52", NULL}},
    /* A Black shatra on 42 instead: the reserve Tura captures along the
     * d-file by a long leap (compulsory), landing anywhere from 35 to 2. */
    {"5 the great road, capturing",
     "3/3/3/1/6k/7/7/7/3s3/K6/1/BRB/SQS/SRS w 54-62 - - - 0 1",
     -1,
     true,
     {"55:35", "55:28", "55:21", "55:14", "55:10", "55:8", "55:5", "55:2", NULL}},
    /* The shatra on 60 is still in the first reserve: the fortress is
     * closed. The Yalkyn on 38 slides south-west to 44, 50 but not into the
     * gate 53 (or 54 beyond); north-west 30, 22, 14. The Biy on 49 may step
     * back into its gate 53. The next reserve piece is 60. */
    {"5 a closed fortress refuses entry; the Biy may step into its gate",
     "3/3/3/1/6k/7/7/6B/7/3K3/1/3/3/S2 w 60 - - - 0 1",
     -1,
     false,
     {"38-44", "38-50", "38-30", "38-22", "38-14", "49-41", "49-42", "49-43", "49-48", "49-50", "49-53",
      "60*32-37,39-48,50-52", NULL}},
    /* The same with the reserve gone: the fortress is open. The Yalkyn may
     * go to 53 and 54; the shatra on 60 steps straight forward to 57, and
     * any piece in the open fortress may be dropped. */
    {"5 an open fortress",
     "3/3/3/1/6k/7/7/6B/7/3K3/1/3/3/S2 w - - - - 0 1",
     -1,
     false,
     {"38-44", "38-50", "38-53", "38-54", "38-30", "38-22", "38-14", "49-41", "49-42", "49-43", "49-48", "49-50",
      "49-53", "60-57", "60*32-37,39-48,50-52", NULL}},
    /* The Tura on 42 could jump Black's shatra in White's gate (53) only by
     * landing in the closed fortress (55): no capture. Its quiet moves:
     * north 35..2, south 49, east 43-45, west 39-41. */
    {"5 a capture may not land in the own closed fortress",
     "3/3/3/1/6k/7/7/7/3R3/K6/s/3/3/S2 w 60 - - - 0 1",
     -1,
     false,
     {"42-35", "42-28", "42-21", "42-14", "42-10", "42-8", "42-5", "42-2", "42-49", "42-43", "42-44", "42-45", "42-41",
      "42-40", "42-39", K46, "60*32-41,43-45,47-52", NULL}},
    /* Fortress open: the capture lands on 55, 58 or 61. */
    {"5 a capture lands in the own open fortress",
     "3/3/3/1/6k/7/7/7/3R3/K6/s/3/3/S2 w - - - - 0 1",
     -1,
     true,
     {"42:55 x=53", "42:58 x=53", "42:61 x=53", NULL}},
    /* The Biy may land in its closed fortress by capturing (49 over 53 to
     * 55). Only the Biy can capture, so its steps are legal too — but no
     * other non-capturing turn (no drop of the reserve shatra 60). */
    {"4,5 the Biy lands in its closed fortress; only the Biy can capture",
     "3/3/3/1/6k/7/7/7/7/3K3/s/3/3/S2 w 60 - - - 0 1",
     -1,
     false,
     {"49:55 x=53", "49-41", "49-42", "49-43", "49-48", "49-50", NULL}},
    /* The Biy on 46 takes 40 landing 34, then 28 landing 22; it may stop
     * after the first jump. Only the Biy captures: its steps 39, 47 too. */
    {"4 the Biy may stop a chain early",
     "3/3/3/1/6k/7/3s3/7/1s5/K6/1/3/3/3 w - - - - 0 1",
     4,
     false,
     {"46:34 x=40", "46:34:22 x=40,28", "46-39", "46-47", NULL}},
    /* Now the shatra on 45 can take 38 (to 31): a capture is compulsory,
     * the Biy's captures count, its steps do not. */
    {"4 another piece can capture: the turn must be a capture",
     "3/3/3/1/6k/7/3s3/6s/1s4S/K6/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"45:31 x=38", "46:34 x=40", "46:34:22 x=40,28", NULL}},
    /* 36 takes the Black Biy on 29 landing 22; the chain ends there (21
     * could be taken next) and with it the game. */
    {"4 capturing the Biy ends the chain",
     "3/3/3/1/7/3s3/4k2/4S2/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"36:22 x=29", NULL}},
    /* The Batyr on 49 takes the Biy on 28 and may land on any empty square
     * behind it (21 to 2); from 14 it could take 13 next, but the chain has
     * ended. */
    {"4 a long leap over the Biy lands anywhere",
     "3/3/3/1/2s4/7/3k3/7/7/K2Q3/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"49:21", "49:14", "49:10", "49:8", "49:5", "49:2", NULL}},
    /* The Batyr on 49 takes 35 and could land on 28, 21, 14, 10, 8, 5 or 2.
     * From 21 it can take 23 (east, over the empty 22, landing 24); from 10
     * too (south-east over 15, landing 31); from no other square. It must
     * land on 21 or 10. */
    {"4 a long leap must land where the chain can go on",
     "3/3/3/1/k6/5s1/7/3s3/7/K2Q3/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"49:21:24 x=35,23", "49:10:31 x=35,23", NULL}},
    /* 36 x 29 (to 22), x 21 (to 20), x 27 (to 34), x 35 back to its start
     * square 36, or the same circle the other way: one move, two routes.
     * Back on 36 it stops: 29 cannot be jumped twice. */
    {"4 a chain, no piece jumped twice, the start square landed on again",
     "3/3/3/1/k6/3s3/2s1s2/3sS2/7/K6/1/3/3/3 w - - - - 0 1",
     2,
     true,
     {"36:22:20:34:36|36:34:20:22:36 x=21,27,29,35", NULL}},
    /* Reserve on 56, 59, 60: 54 and 55 are empty, so the next reserve piece
     * is 56; 59 and 60 wait. */
    {"5 the next reserve piece, gaps skipped",
     "3/3/3/1/6k/7/7/7/7/K6/1/2B/2S/S2 w 56,59-60 - - - 0 1",
     -1,
     false,
     {K46, "56*32-45,47-52", NULL}},
    /* The Tura on 58 is urgent (its capture ended in the fortress): every
     * non-capturing turn is its drop — not the next reserve 54, not the
     * Biy's steps. */
    {"5 an urgent piece must be dropped",
     "3/3/3/1/6k/7/7/7/7/K6/1/S2/1R1/3 w 54,58 58 - - 0 1",
     -1,
     false,
     {"58*32-45,47-52", NULL}},
    /* Only the Biy can capture (46 x 40): the alternative to its capture is
     * the urgent drop, not a Biy step. */
    {"4,5 urgent piece and a Biy-only capture",
     "3/3/3/1/6k/7/7/7/1s5/K6/1/S2/1R1/3 w 54,58 58 - - 0 1",
     -1,
     false,
     {"46:34 x=40", "58*32-39,41-45,47-52", NULL}},
    /* A compulsory capture (45 x 38) comes before the urgent drop. */
    {"4,5 urgent piece and a compulsory capture",
     "3/3/3/1/6k/7/7/6s/6S/K6/1/S2/1R1/3 w 54,58 58 - - 0 1",
     -1,
     true,
     {"45:31 x=38", NULL}},
    /* Open fortress: the shatra on 57 (steps to 54) and the Yalkyn on 61
     * (to 59) may both be dropped, in any order. */
    {"5 an open fortress: any piece there may be dropped",
     "3/3/3/1/6k/7/7/7/7/K6/1/3/S2/1B1 w - - - - 0 1",
     -1,
     false,
     {"57-54", "61-59", K46, "57*32-45,47-52", "61*32-45,47-52", NULL}},
    /* The Yalkyn on Black's fortress square 1 cannot move (5 and 9 behind
     * it are occupied) but may be dropped onto Black's half, 11-31. */
    {"5 a piece on an enemy fortress square dropped into the enemy half",
     "B2/1s1/2s/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     false,
     {K46, "1*11-16,18-31", NULL}},
    /* 9 x 5 lands on the back row square 1 and must promote. As a Batyr or
     * Tura it goes on over 4 to 7; as a Yalkyn it cannot (its diagonal from
     * 1 holds the captured 5): three moves. */
    {"6 mid-chain promotion continues as the new piece",
     "3/ss1/2S/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"9:1=Q:7 x=4,5", "9:1=R:7 x=4,5", "9:1=B x=5", NULL}},
    /* The same with the pool empty (Batyr, two Turas, two Yalkyns on the
     * board, none able to capture): the shatra waits as a shatra on 1 and
     * goes on by a short leap over 4 to 7. */
    {"6 a chain through the back row with an empty pool",
     "3/ss1/2S/1/6k/7/7/7/5BB/K3RRQ/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"9:1:7 x=4,5", NULL}},
    /* Taking the Biy on 5 lands on the back row: nothing promotes. */
    {"6 a chain that takes the Biy does not promote",
     "3/sk1/2S/1/7/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     -1,
     true,
     {"9:1 x=5", NULL}},
    /* Black's Biy on 46 is walled in by White's shatras (39, 40, 47, with
     * 32, 34, 48 behind them): Black has no legal turn. */
    {"7 no legal turn", "3/3/3/1/7/7/7/S1S4/SS5/kSS4/1/3/3/2K b - - - - 0 1", -1, false, {NULL}},
    /* A side whose Biy has been captured has no turn. */
    {"7 the Biy captured: no turn", "3/3/3/1/7/7/7/7/7/K6/1/3/3/3 b - - - - 0 1", -1, false, {NULL}},
};

static void test_rule_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof RULE_CASES / sizeof RULE_CASES[0]; i++) {
        const RuleCase *c = &RULE_CASES[i];
        check_moves_at(c->fen, c->moves, c->paths, c->compulsory, c->rule);
    }
}

/* ------------------------------------------------------------------ */
/* Playing moves: the state the position string carries                */

static void play_text(Position *pos, const char *text) { play_move_text(G, pos, text); }

static void assert_fen(const Position *pos, const char *want) { assert_position_fen(G, pos, want); }

typedef struct PlayCase {
    const char *what;
    const char *fen;
    const char *moves[8];
    const char *want; /* position string after the moves */
} PlayCase;

static const PlayCase PLAY_CASES[] = {
    /* The start: 49-35 is a two-step (ep 42), the quiet counter stays 0
     * (a shatra move); Black's drop 9*22 takes the Yalkyn out of the
     * reserve; after Black's turn the move number grows. */
    {"two-step sets en passant; a drop leaves the reserve; move number",
     START,
     {"49-35", "9*22", NULL},
     "sqs/srs/br1/k/sssssss/4b2/7/3S3/7/SSS1SSS/K/BRB/SRS/SQS w 1-8,10,53-62 - - - 0 2"},
    /* The en-passant right lasts one turn: White's 54*39 clears it. */
    {"en passant lasts one turn",
     "sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS b 1-10,53-62 - - - 0 1",
     {"13-27", "54*39", NULL},
     "sqs/srs/brb/k/ss1ssss/7/2s4/7/B6/SSSSSSS/K/1RB/SRS/SQS b 1-10,53,55-62 - - - 0 2"},
    /* The Biy steps out of its gate: it leaves the first reserve. A Biy
     * step is a quiet ply for the 60-ply counter. */
    {"the Biy leaves the reserve; quiet plies count",
     "3/3/3/k/7/7/7/7/7/7/K/3/3/3 w 10,53 - - - 5 9",
     {"53-49", "10-14", NULL},
     "3/3/3/1/3k3/7/7/7/7/3K3/1/3/3/3 w - - - - 7 10"},
    /* The reserve Tura on 58 takes 55 and lands in its gate: it stays in
     * the reserve and becomes urgent; its next quiet turn is its drop. */
    {"a capture ending in the own fortress makes the piece urgent",
     "3/3/3/1/6k/7/7/7/7/K6/1/1s1/1R1/S2 w 58,60 - - - 0 1",
     {"58:53", "17-16", NULL},
     "3/3/3/1/5k1/7/7/7/7/K6/R/3/3/S2 w 53,60 53 - - 1 2"},
    {"the urgent drop settles it",
     "3/3/3/1/5k1/7/7/7/7/K6/R/3/3/S2 w 53,60 53 - - 1 2",
     {"53*35", NULL},
     "3/3/3/1/5k1/7/7/3R3/7/K6/1/3/3/S2 b 60 - - - 0 2"},
    /* Sideways steps: each side's entry is kept until its next turn; an
     * entry whose shatra is taken disappears. */
    {"sideways-step entries",
     "3/3/3/1/k6/2S4/7/7/5s1/K6/1/3/3/3 w - - - - 0 1",
     {"20-21", "44-43", NULL},
     "3/3/3/1/k6/3S3/7/7/4s2/K6/1/3/3/3 w - - - 20-21,44-43 0 2"},
    /* A waiting shatra promotes in place: the counter resets. */
    {"promotion in place",
     "1S1/3/3/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 12 30",
     {"2=R", NULL},
     "1R1/3/3/1/6k/7/7/7/7/K6/1/3/3/3 b - - - - 0 30"},
    /* Mid-chain promotion: the new Batyr ends on 7. */
    {"mid-chain promotion",
     "3/ss1/2S/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1",
     {"9:1=Q:7", NULL},
     "3/3/Q2/1/6k/7/7/7/7/K6/1/3/3/3 b - - - - 0 1"},
};

static void test_played_sequences(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PLAY_CASES / sizeof PLAY_CASES[0]; i++) {
        const PlayCase *c = &PLAY_CASES[i];
        Position pos;
        parse_or_fail(c->fen, &pos);
        for (int j = 0; c->moves[j]; j++) play_text(&pos, c->moves[j]);
        assert_fen(&pos, c->want);
    }
    /* After the urgent capture White's only quiet turns are the drops. */
    Position pos;
    parse_or_fail("3/3/3/1/5k1/7/7/7/7/K6/R/3/3/S2 w 53,60 53 - - 1 2", &pos);
    MoveList list;
    G->gen_moves(&pos, &list, GEN_DISTINCT);
    assert_int_equal(list.len, 20);
    for (int i = 0; i < list.len; i++) {
        assert_int_equal(list.moves[i].kind, MOVE_DROP);
        assert_int_equal(list.moves[i].from, 53 - 1);
    }
}

/* ------------------------------------------------------------------ */
/* End of the game, section 7, in its order                            */

typedef struct OutcomeCase {
    const char *what;
    const char *fen;
    Outcome outcome;
    const char *reason;
} OutcomeCase;

static const OutcomeCase OUTCOME_CASES[] = {
    {"Biy captured", "3/3/3/1/7/7/7/7/7/K6/1/3/3/3 b - - - - 0 1", OUTCOME_WHITE_WINS, "biy-captured"},
    {"Biy captured (Black)", "3/3/3/1/6k/7/7/7/7/7/1/3/3/3 w - - - - 0 1", OUTCOME_BLACK_WINS, "biy-captured"},
    /* The Biy captured comes first, even with 60 quiet plies. */
    {"Biy captured before 60 plies", "3/3/3/1/7/2s4/7/7/7/K6/1/3/3/3 b - - - - 60 40", OUTCOME_WHITE_WINS,
     "biy-captured"},
    {"no legal turn", "3/3/3/1/7/7/7/S1S4/SS5/kSS4/1/3/3/2K b - - - - 0 1", OUTCOME_WHITE_WINS, "no-moves"},
    /* No legal turn comes before the 60-ply draw. */
    {"no legal turn before 60 plies", "3/3/3/1/7/7/7/S1S4/SS5/kSS4/1/3/3/2K b - - - - 60 40", OUTCOME_WHITE_WINS,
     "no-moves"},
    {"only the two Biys", "3/3/3/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1", OUTCOME_DRAW, "biys-only"},
    /* Two Biys next to each other: the draw comes first, the capture is
     * not played. */
    {"only the two Biys, one could take the other", "3/3/3/1/7/7/7/7/1k5/K6/1/3/3/3 w - - - - 0 1", OUTCOME_DRAW,
     "biys-only"},
    {"60 quiet plies", "3/3/3/1/6k/2s4/7/7/7/K6/1/3/3/3 w - - - - 60 70", OUTCOME_DRAW, "quiet-60"},
    {"59 quiet plies", "3/3/3/1/6k/2s4/7/7/7/K6/1/3/3/3 w - - - - 59 70", OUTCOME_NONE, NULL},
};

static void test_outcomes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof OUTCOME_CASES / sizeof OUTCOME_CASES[0]; i++) {
        const OutcomeCase *c = &OUTCOME_CASES[i];
        Position pos;
        parse_or_fail(c->fen, &pos);
        const char *reason = NULL;
        Outcome o = game_outcome(G, &pos, NULL, 0, &reason, NULL);
        if (o != c->outcome || (c->reason ? !reason || strcmp(reason, c->reason) != 0 : reason != NULL)) {
            print_error("%s: %s: outcome %d (%s), expected %d (%s)\n", c->what, c->fen, o, reason ? reason : "-",
                        c->outcome, c->reason ? c->reason : "-");
            fail();
        }
        if (o == OUTCOME_DRAW) assert_rule_draw_listed(G, reason);
    }
    /* Threefold repetition: the Biys walk back and forth. */
    Position pos;
    parse_or_fail("3/3/3/1/6k/2s4/7/7/7/K6/1/3/3/3 w - - - - 0 1", &pos);
    uint64_t history[16];
    int len = 0;
    const char *walk[] = {"46-47", "17-16", "47-46", "16-17", "46-47", "17-16", "47-46", "16-17"};
    for (int i = 0; i < 8; i++) {
        history[len++] = G->hash(&pos);
        play_text(&pos, walk[i]);
        const char *reason = NULL;
        Outcome o = game_outcome(G, &pos, history, len, &reason, NULL);
        if (i < 7) {
            assert_int_equal(o, OUTCOME_NONE);
        } else {
            assert_int_equal(o, OUTCOME_DRAW);
            assert_string_equal(reason, "repetition");
        }
    }
    assert_int_equal(G->reversible_plies(&pos), 8);
}

/* ------------------------------------------------------------------ */
/* Position strings                                                    */

static void test_fen_round_trip(void **state)
{
    (void)state;
    static const char *const CANONICAL[] = {
        START,
        "sqs/srs/br1/k/sssssss/4b2/7/3S3/7/SSS1SSS/K/BRB/SRS/SQS w 1-8,10,53-62 - - - 0 2",
        "3/3/3/1/k6/7/4ss1/5S1/7/K6/1/3/3/3 w - - 22 - 0 1",
        "3/3/3/1/6k/2S4/7/7/5s1/K6/1/3/3/3 w - - - 21-20,45-44 0 1",
        "3/3/3/1/5k1/7/7/7/7/K6/R/3/3/S2 w 53,60 53 - - 1 2",
        "1S1/3/3/1/6k/7/7/7/7/K6/1/1B1/RRB/1Q1 w 55,57-59,61 - - - 0 1",
        "3/3/3/1/7/7/7/7/7/K6/1/3/3/3 b - - - - 255 65535",
    };
    for (size_t i = 0; i < sizeof CANONICAL / sizeof CANONICAL[0]; i++) {
        Position pos;
        parse_or_fail(CANONICAL[i], &pos);
        assert_fen(&pos, CANONICAL[i]);
    }
    /* Non-canonical input: ranges split, counters left out, entries out
     * of order. */
    Position pos;
    parse_or_fail("sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-5,6-10,53,54-62 - - -", &pos);
    assert_fen(&pos, START);
    parse_or_fail("3/3/3/1/6k/2S4/7/7/5s1/K6/1/3/3/3 w - - - 45-44,21-20 0 1", &pos);
    assert_fen(&pos, "3/3/3/1/6k/2S4/7/7/5s1/K6/1/3/3/3 w - - - 21-20,45-44 0 1");
    assert_string_equal(G->start_fen, START);
}

typedef struct BadFen {
    const char *fen;
    const char *err; /* part of the message */
} BadFen;

static const BadFen BAD_FENS[] = {
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS w 1-10,53-62 - - - 0 1", "ranks"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS/3 w 1-10,53-62 - - - 0 1", "more than 14 ranks"},
    {"sqx/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 1", "unknown piece 'x' at character 3"},
    {"sqs/srs/brb/k/ssssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 1", "rank 10"},
    {"sqs/srs/brb/k/sssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 1", "rank 10 has 7 squares"},
    {"sqs/srs/brb/k/sssssss/7/07/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 1",
     "rank 8: '0' at character 25 is no run of empty squares (1..7)"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS x 1-10,53-62 - - - 0 1", "side field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-63 - - - 0 1", "reserve field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-11 - - - 0 1", "reserve field: square 11"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-4,6-10,53-62 5 - - 0 1", "urgent field: square 5"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - 20 - 0 1", "ep field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - 12-13 0 1", "sidestep field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - 11-19 0 1", "not a sideways step"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - x 1", "quiet-plies field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 0", "move-number field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62", "needs the fields"},
    {"kqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w - - - - 0 1", "two Biys"},
    /* the side that just moved has no pieces at all (so no Biy: section 7) */
    {"3/3/3/1/7/7/7/7/7/7/K/3/3/3 w - - - - 0 1", "board: Black, who just moved, has no Biy"},
    {"3/3/3/k/7/7/7/7/7/7/1/3/3/3 b - - - - 0 1", "board: White, who just moved, has no Biy"},
    {"3/3/3/1/7/7/7/7/7/7/1/3/3/3 w - - - - 0 1", "board: Black, who just moved, has no Biy"},
    /* more of a kind than a side starts with (section 2; promotion only
     * brings back a captured kind, section 6) */
    {"qqq/qqq/qqq/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1", "Black has 9 Batyrs, more than the 1"},
    {"3/3/3/1/6k/7/7/7/7/K6/1/RRR/3/3 w - - - - 0 1", "White has 3 Turas, more than the 2"},
    {"3/3/3/1/bbb3k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1", "Black has 3 Yalkyns"},
    {"3/3/3/1/6k/7/7/7/SSSSSS1/SSSSSSK/1/3/3/3 w - - - - 0 1", "White has 12 shatras, more than the 11"},
    /* numbers that would wrap or overflow */
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-4294967358 - - - 0 1", "reserve field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - 4294967328 - 0 1", "ep field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 99999999999999999999 1", "quiet-plies field"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - 4294967307-4294967308 0 1", "sidestep field"},
    /* a square given twice in a square field, as on the board */
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62,53 - - - 0 1",
     "reserve field '1-10,53-62,53': square 53 is listed twice (at character 12)"},
    {"sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,5-7,53-62 - - - 0 1", "square 5 is listed twice"},
};

static void test_fen_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD_FENS / sizeof BAD_FENS[0]; i++) {
        Position pos;
        char err[ERR_MAX] = "";
        if (G->pos_from_fen(&pos, BAD_FENS[i].fen, err) == 0) {
            print_error("accepted bad position string %s\n", BAD_FENS[i].fen);
            fail();
        }
        if (!strstr(err, BAD_FENS[i].err)) {
            print_error("%s: message '%s' lacks '%s'\n", BAD_FENS[i].fen, err, BAD_FENS[i].err);
            fail();
        }
    }
    check_long_fen_rejected(G, "sqs/");
}

/* ------------------------------------------------------------------ */
/* Move text                                                           */

typedef struct ParseCase {
    const char *fen;  /* NULL: the start position */
    const char *text; /* input */
    const char *want; /* the move it must name, or NULL: rejected */
    const char *err;  /* for a rejection: a part of the message */
} ParseCase;

#define MIDCHAIN "3/ss1/2S/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1"
#define EPCHAIN "3/3/3/1/k6/7/4ss1/5S1/7/K6/1/3/3/3 w - - 22 - 0 1"
#define WAITING "1S1/3/3/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1"
#define LOOP "3/3/3/1/k6/3s3/2s1s2/3sS2/7/K6/1/3/3/3 w - - - - 0 1"

static const ParseCase PARSE_CASES[] = {
    {NULL, "49-42", "49-42", NULL},
    {NULL, " 49-35 ", "49-35", NULL},
    {NULL, "54*40", "54*40", NULL},
    {NULL, "53*40", "53*40", NULL},
    {NULL, "55*40", NULL, "illegal"}, /* not the next reserve piece */
    {NULL, "49-28", NULL, "illegal"},
    {NULL, "49-", NULL, "expected a square number"},
    {NULL, "63-42", NULL, "does not exist"},
    {NULL, "49-42x", NULL, "unexpected 'x'"},
    {NULL, "49", NULL, "needs a start and an end"},
    {NULL, "49-42-35", NULL, "only a capture"},
    {MIDCHAIN, "9:1=Q:7", "9:1=Q:7", NULL},
    {MIDCHAIN, "9:1=B", "9:1=B", NULL},
    {MIDCHAIN, "9:7=R", "9:1=R:7", NULL}, /* short form with the type */
    {MIDCHAIN, "9:7", NULL, "ambiguous move '9:7': 9:1=Q:7 or 9:1=R:7"}, /* Batyr or Tura */
    {MIDCHAIN, "9:1=K", NULL, "bad promotion"},
    {MIDCHAIN, "46-47", NULL, "a capture is compulsory"},
    {EPCHAIN, "37:23:21", "37:23:21", NULL},
    {EPCHAIN, "37:21", "37:21", NULL}, /* a full route (one jump), not the short form */
    {EPCHAIN, "37:35", "37:23:35", NULL},
    {LOOP, "36:34:20:22:36", "36:22:20:34:36", NULL}, /* either route names the move */
    {LOOP, "36:36", "36:22:20:34:36", NULL},
    {WAITING, "2=Q", "2=Q", NULL},
    {WAITING, "2-3=B", "2-3=B", NULL},
    {WAITING, "2-3", NULL, "ambiguous move '2-3': 2-3=Q, 2-3=R or 2-3=B"}, /* every move it may mean */
    {"3/3/3/1/6k/7/7/7/7/K6/1/S2/1R1/3 w 54,58 58 - - 0 1", "54*40", NULL, "an urgent piece must be dropped"},
};

static void test_move_text(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PARSE_CASES / sizeof PARSE_CASES[0]; i++) {
        const ParseCase *c = &PARSE_CASES[i];
        Position pos;
        parse_or_fail(c->fen ? c->fen : START, &pos);
        Move m;
        char err[ERR_MAX] = "";
        int rc = G->move_from_str(&pos, c->text, &m, err);
        if (c->want) {
            if (rc != 0) {
                print_error("'%s': %s\n", c->text, err);
                fail();
            }
            char text[MOVE_STR_MAX];
            G->move_to_str(&pos, &m, text);
            if (strcmp(text, c->want) != 0) {
                print_error("'%s' names %s, expected %s\n", c->text, text, c->want);
                fail();
            }
        } else {
            if (rc == 0 || !strstr(err, c->err)) {
                print_error("'%s': rc %d, message '%s', expected a rejection with '%s'\n", c->text, rc, err, c->err);
                fail();
            }
        }
    }
}

/* royal_attacked: can a side's Biy be captured now, by any chain of the
 * opponent (as if the opponent were to move)? */
static void test_royal_attacked(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        bool white, black;
    } CASES[] = {
        {START, false, false},
        /* 36 jumps the Biy on 29 directly */
        {"3/3/3/1/7/3s3/4k2/4S2/7/K6/1/3/3/3 w - - - - 0 1", false, true},
        /* 36 x 29 to 22, then x the Biy on 21 to 20: the second jump; the
         * same with Black to move (White's chain still threatens). Black's
         * 29 could take 36 but not White's Biy. */
        {"3/3/3/1/7/3k3/4s2/4S2/7/K6/1/3/3/3 w - - - - 0 1", false, true},
        {"3/3/3/1/7/3k3/4s2/4S2/7/K6/1/3/3/3 b - - - - 0 1", false, true},
        /* the Biy captured: nothing to attack */
        {"3/3/3/1/7/7/7/7/7/K6/1/3/3/3 b - - - - 0 1", false, false},
    };
    assert_non_null(G->royal_attacked);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Position pos;
        parse_or_fail(CASES[i].fen, &pos);
        if (G->royal_attacked(&pos, COLOR_WHITE) != CASES[i].white ||
            G->royal_attacked(&pos, COLOR_BLACK) != CASES[i].black) {
            print_error("%s: royal_attacked white %d black %d, expected %d %d\n", CASES[i].fen,
                        G->royal_attacked(&pos, COLOR_WHITE), G->royal_attacked(&pos, COLOR_BLACK), CASES[i].white,
                        CASES[i].black);
            fail();
        }
    }
}

/* The start position's deeper figures: dama's, and the independent Python
 * reference tests/ref/shatra_ref.py gives the same at depths 4 and 5. */
static void test_perft_deeper(void **state)
{
    (void)state;
    Position pos;
    parse_or_fail(START, &pos);
    assert_int_equal(G->perft(&pos, 4, GEN_DISTINCT), 2130541);
    assert_int_equal(G->perft(&pos, 5, GEN_DISTINCT), 64705736);
    assert_int_equal(G->perft(&pos, 5, GEN_PATHS), 64705736);
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_table),
        cmocka_unit_test(test_rule_cases),
        cmocka_unit_test(test_played_sequences),
        cmocka_unit_test(test_outcomes),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_royal_attacked),
        cmocka_unit_test(test_perft_deeper),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
