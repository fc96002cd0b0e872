/* test_russian.c — the rules of Russian draughts (docs/rules/russian.md).
 *
 * Every move list below was worked out by hand from russian.md, square by
 * square (the reasoning is in the comment of each case), and cross-checked
 * with the independent Python reference tests/ref/russian_ref.py, never with
 * this C code. Moves are compared as sets of full-notation strings; where a
 * move has several routes (D convention: one move) any of them may be
 * written, so an expected entry lists them separated by '|'. An entry may add
 * "x=sq,sq,..." (the captured set) and "promo" / "nopromo".
 *
 * Board words: White moves up (toward rank 8), Black down. Dark squares are
 * those with file + rank even counting a = 1: a1, c1, b2, ..., h8.
 *
 * Properties over random positions and the evaluation are
 * test_russian_eval.c's.
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
#include "engine/games/draughts/draughts.h"
#include "util/rng.h"

#include "game_properties.h"
#include "perft_table.h"

#define PERFT_FILE DAMA_SOURCE_DIR "/data/perft/russian.txt"

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("russian");
    return G ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static int sq_of(const char *name) { return (name[1] - '1') * 8 + (name[0] - 'a'); }

/* "c3,f2,f4" -> bitset of square indices (rank * 8 + file). */
static uint64_t squares_of(const char *list)
{
    uint64_t set = 0;
    for (const char *s = list; *s;) {
        set |= 1ULL << sq_of(s);
        s += 2;
        if (*s == ',') s++;
    }
    return set;
}

static void parse_or_fail(const char *fen, Position *pos) { parse_fen_or_fail(G, fen, pos); }

/* Check the captured set / promotion options of an entry against m. */
static void check_entry_options(const char *entry, const Move *m, const char *text)
{
    const char *opt = strchr(entry, ' ');
    while (opt) {
        opt++;
        if (strncmp(opt, "x=", 2) == 0) {
            char list[128];
            size_t len = strcspn(opt + 2, " ");
            snprintf(list, sizeof list, "%.*s", (int)len, opt + 2);
            if (m->captured != squares_of(list)) {
                print_error("%s: captured set is not {%s}\n", text, list);
                fail();
            }
        } else if (strncmp(opt, "promo", 5) == 0) {
            if (!m->promo) {
                print_error("%s: should crown the man\n", text);
                fail();
            }
        } else if (strncmp(opt, "nopromo", 7) == 0) {
            if (m->promo) {
                print_error("%s: should not crown\n", text);
                fail();
            }
        }
        opt = strchr(opt, ' ');
    }
}

/* The legal moves (D) of fen must be exactly `want` (NULL-terminated), and
 * the P convention must count `paths` moves (-1: as many as D). */
static void check_moves_at(const char *fen, const char *const *want, int paths, const char *what)
{
    Position pos;
    parse_or_fail(fen, &pos);
    MoveList list;
    G->gen_moves(&pos, &list, GEN_DISTINCT);
    int want_len = 0;
    while (want[want_len]) want_len++;
    bool matched[64] = {false};
    bool ok = true;
    bool any_capture = false;
    char text[MOVE_STR_MAX];
    for (int i = 0; i < list.len; i++) {
        G->move_to_str(&pos, &list.moves[i], text);
        any_capture |= list.moves[i].kind == MOVE_CAPTURE;
        int hit = -1;
        for (int j = 0; j < want_len && hit < 0; j++)
            if (entry_has_route(want[j], text)) hit = j;
        if (hit < 0) {
            print_error("%s: %s: unexpected move %s\n", what, fen, text);
            ok = false;
        } else if (matched[hit]) {
            print_error("%s: %s: move %s listed twice (one move in the D convention)\n", what, fen, text);
            ok = false;
        } else {
            matched[hit] = true;
            check_entry_options(want[hit], &list.moves[i], text);
        }
    }
    for (int j = 0; j < want_len; j++) {
        if (!matched[j]) {
            print_error("%s: %s: missing move %s\n", what, fen, want[j]);
            ok = false;
        }
    }
    if (!ok) {
        print_moves(G, &pos, &list);
        fail();
    }
    if (G->has_capture(&pos) != any_capture) {
        print_error("%s: %s: has_capture disagrees with the move list\n", what, fen);
        fail();
    }
    MoveList plist;
    int np = G->gen_moves(&pos, &plist, GEN_PATHS);
    int want_paths = paths < 0 ? want_len : paths;
    if (np != want_paths) {
        print_error("%s: %s: %d moves in the P convention, expected %d\n", what, fen, np, want_paths);
        fail();
    }
    assert_int_equal(G->perft(&pos, 1, GEN_DISTINCT), (uint64_t)want_len);
    assert_int_equal(G->perft(&pos, 1, GEN_PATHS), (uint64_t)want_paths);
}

/* ------------------------------------------------------------------ */
/* The move rules, one small position each                             */

typedef struct RuleCase {
    const char *rule; /* clause of russian.md "Moves" */
    const char *fen;
    int paths; /* moves in the P convention, -1: same as D */
    const char *moves[24];
} RuleCase;

static const RuleCase RULE_CASES[] = {
    /* c3 may go to b4 or d4, never back to b2 / d2; the man on h8 is far. */
    {"1 man steps forward only (White)", "W:Wc3:Bh8", -1, {"c3-b4", "c3-d4", NULL}},
    /* Black's forward is down the board. */
    {"1 man steps forward only (Black)", "B:Wa1:Bd6", -1, {"d6-c5", "d6-e5", NULL}},
    /* a3 and c3 may both go to b4; c3-d4 is blocked by White's own man. */
    {"1 own pieces block, edge man", "W:Wa3,c3,d4:Bh8", -1, {"a3-b4", "c3-b4", "d4-c5", "d4-e5", NULL}},
    /* e7-d8 and e7-f8 crown; even though the new king on d8 would see b6
     * (c7 empty, a5 empty behind) it is not a capture now: the move stops. */
    {"8 man crowned by a quiet move stops", "W:We7:Bb6", -1, {"e7-d8 promo", "e7-f8 promo", NULL}},
    {"8 black man crowned by a quiet move", "B:Wh6:Bb2", -1, {"b2-a1 promo", "b2-c1 promo", NULL}},
    /* d4 king: NE e5 then its own man f6 blocks; NW c5 b6 a7; SE e3 f2 g1;
     * SW c3 b2 a1 — 10 moves; f6 man: e7, g7. */
    {"2 king flies any distance, own piece blocks",
     "W:WKd4,f6:Bh8",
     -1,
     {"d4-e5", "d4-c5", "d4-b6", "d4-a7", "d4-e3", "d4-f2", "d4-g1", "d4-c3", "d4-b2", "d4-a1", "f6-e7", "f6-g7",
      NULL}},
    /* a1 sees h8 at the far end of the main road, no square behind it. */
    {"5 no capture without an empty square behind",
     "W:WKa1:Bh8",
     -1,
     {"a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", NULL}},
    /* d4 jumps c3 (behind it, SW) to b2. */
    {"4 man captures backward (White)", "W:Wd4:Bc3", -1, {"d4:b2 x=c3 nopromo", NULL}},
    /* Black e5 jumps f6 (behind it for Black, NE) to g7. */
    {"4 man captures backward (Black)", "B:Wf6:Be5", -1, {"e5:g7 x=f6", NULL}},
    /* c3 must take d4; g3's quiet moves f4 / h4 are not legal now. */
    {"3 capture is compulsory, quiet moves absent", "W:Wc3,g3:Bd4", -1, {"c3:e5 x=d4", NULL}},
    /* h2 sees f4 over g3 and lands on any of e5 d6 c7 b8, from none of
     * which it could capture again; c3's quiet moves are gone. */
    {"3,5 king captures at distance, several landing squares",
     "W:Wc3,Kh2:Bf4",
     -1,
     {"h2:e5 x=f4", "h2:d6 x=f4", "h2:c7 x=f4", "h2:b8 x=f4", NULL}},
    /* f4 and e5 stand next to each other on h2's diagonal: no capture. */
    {"5 two pieces in a row cannot be jumped", "W:WKh2:Bf4,e5", -1, {"h2-g3", "h2-g1", NULL}},
    /* Behind f4 only e5 is free: White's own d6 ends the landing squares. */
    {"5 landing squares end at the next piece", "W:WKh2,d6:Bf4", -1, {"h2:e5 x=f4", NULL}},
    /* c1:e3 takes one man, h4:f6:d8 takes two; both are legal. */
    {"3 free choice, no majority rule",
     "W:Wc1,h4:Bd2,e7,g5",
     -1,
     {"c1:e3 x=d2 nopromo", "h4:f6:d8 x=g5,e7 promo", NULL}},
    /* a1:c3 must go on over d4 to e5. */
    {"6 a capture chain is played to its end", "W:Wa1:Bb2,d4", -1, {"a1:c3:e5 x=b2,d4", NULL}},
    /* From c3 either b4 (to a5) or d4 (to e5). */
    {"6 a man chooses among continuations", "W:Wa1:Bb2,b4,d4", -1, {"a1:c3:a5 x=b2,b4", "a1:c3:e5 x=b2,d4", NULL}},
    /* a1 takes c3 and could land on d4 e5 f6 g7 h8; only from e5 can it go
     * on (over d6, c7 empty behind), so it must land on e5, then c7 or b8. */
    {"5 king must land where it can capture again",
     "W:WKa1:Bc3,d6",
     -1,
     {"a1:e5:c7 x=c3,d6", "a1:e5:b8 x=c3,d6", NULL}},
    /* russian.md worked example (Turkish strike): a5 takes c3 and must land
     * on e1 (from d2 the line d2-e3-f4 holds two men), takes f2 and must land
     * on g3, takes f4 and lands on e5 (d6 is Black's own). From e5, d4 has c3
     * behind it, captured but still on the board: the move ends. */
    {"5,7 Turkish strike (worked example)",
     "B:Wc3,d4,e3,f2,f4:BKa5,d6,e7",
     -1,
     {"a5:e1:g3:e5 x=c3,f2,f4 nopromo", NULL}},
    /* The reply of the worked example: d4 takes the king on e5, then e7,
     * crowning on d8. */
    {"4,6,8 after the Turkish strike", "W:Wd4,e3:BKe5,d6,e7", -1, {"d4:f6:d8 x=e5,e7 promo", NULL}},
    /* Seed 000's example after the Turkish strike: e1 takes c3 (must land a5: from b4 nothing
     * follows), c7 (to d8), e7 (must land f6), e5 (to d4). On d4 it stops:
     * c3 was taken already (it cannot be jumped twice) and c5 is White's. */
    {"7 a piece cannot be jumped twice (seed example)",
     "W:WKe1,c5:Bc3,c7,e5,e7",
     -1,
     {"e1:a5:d8:f6:d4 x=c3,c7,e7,e5", NULL}},
    /* b2 passes d4 on its way to e5's victim, later f2:b6 passes d4 again:
     * b2 x e5 (must land f6: g5 follows), x g5 to h4, x g3 (must land f2:
     * c5 follows), x c5 to b6 or a7. */
    {"7 a square may be crossed twice",
     "W:WKb2:Bc5,e5,g3,g5",
     -1,
     {"b2:f6:h4:f2:b6 x=e5,g5,g3,c5", "b2:f6:h4:f2:a7 x=e5,g5,g3,c5", NULL}},
    /* russian.md worked example: Black's man a5 takes b4, then either d2
     * (crowned on e1, as a king g3, e5, back to c3) or d4, f4, f2 (crowned on
     * e1) and d2 back to c3. Same start, end and captured set: one move (D),
     * two routes (P). On c3 it stops: b4 and d2 are taken, b2 has a1 behind.
     * c5 cannot take b4 (a3 behind) nor d4 (e3 behind). */
    {"8,9 man crowned mid-capture goes on as a king; two routes, one move",
     "B:Wa1,a3,b2,b4,d2,d4,e3,f2,f4:Ba5,c5,c7,e7,g7",
     2,
     {"a5:c3:e1:g3:e5:c3|a5:c3:e5:g3:e1:c3 x=b4,d2,f2,f4,d4 promo", NULL}},
    /* The reply of that worked example: b2 x c3, x c5, x c7 crowning on d8,
     * as a king x e7 (must land f6), x g7 to h8. */
    {"8 reply of the worked example",
     "W:Wa1,a3,b2,e3:BKc3,c5,c7,e7,g7",
     -1,
     {"b2:d4:b6:d8:f6:h8 x=c3,c5,c7,e7,g7 promo", NULL}},
    /* A man crowned on d8 flies on: d8 x c7 may land b6 or a5 (a man could
     * not reach a5). */
    {"8 crowned mid-capture, flies on as a king",
     "W:Wf6:Bc7,e7",
     -1,
     {"f6:d8:b6 x=e7,c7 promo", "f6:d8:a5 x=e7,c7 promo", NULL}},
    /* a1 x b2 may land c3 or d4; from both it takes e5 and lands f6, g7 or
     * h8: three moves (D), six landing paths (P). */
    {"9 pauses on one line: one move per end square",
     "W:WKa1:Bb2,e5",
     6,
     {"a1:c3:f6|a1:d4:f6 x=b2,e5", "a1:c3:g7|a1:d4:g7 x=b2,e5", "a1:c3:h8|a1:d4:h8 x=b2,e5", NULL}},
    /* As above, and from c3 the king could also take b4 sideways. d4 still
     * counts as a square it can go on from (straight ahead over e5): c3 and
     * d4 are both allowed. Seven landing paths, four moves. */
    {"5 going on straight ahead counts as going on",
     "W:WKa1:Bb2,b4,e5",
     7,
     {"a1:c3:a5 x=b2,b4", "a1:c3:f6|a1:d4:f6 x=b2,e5", "a1:c3:g7|a1:d4:g7 x=b2,e5", "a1:c3:h8|a1:d4:h8 x=b2,e5", NULL}},
    /* c3 x b4 a5 x b6 c7 x d6 e5 x d4 back on c3, or the same circle the
     * other way: the start square is landed on again; one move, two routes. */
    {"7,9 a capture may come back to its start square",
     "W:Wc3:Bb4,b6,d4,d6",
     2,
     {"c3:a5:c7:e5:c3|c3:e5:c7:a5:c3 x=b4,b6,d4,d6 nopromo", NULL}},
    /* a1: b2 is Black's and c3 behind it is occupied; no quiet move either. */
    {"end: a side with no legal move (blocked)", "W:Wa1:Bb2,c3", -1, {NULL}},
    {"end: a side with no pieces", "B:Wc3:B", -1, {NULL}},
};

static void test_rule_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof RULE_CASES / sizeof RULE_CASES[0]; i++) {
        const RuleCase *c = &RULE_CASES[i];
        check_moves_at(c->fen, c->moves, c->paths, c->rule);
    }
}

/* ------------------------------------------------------------------ */
/* Playing the worked examples                                          */

static void play_text(Position *pos, const char *text) { play_move_text(G, pos, text); }

static void assert_fen(const Position *pos, const char *want) { assert_position_fen(G, pos, want); }

static void test_worked_examples_played(void **state)
{
    (void)state;
    Position pos;
    /* Turkish strike: c3, f2, f4 leave the board only now; the king is on e5. */
    parse_or_fail("B:Wc3,d4,e3,f2,f4:BKa5,d6,e7", &pos);
    play_text(&pos, "a5:e1:g3:e5");
    assert_fen(&pos, "W:We3,d4:BKe5,d6,e7");
    play_text(&pos, "d4:f6:d8");
    assert_fen(&pos, "B:We3,Kd8:Bd6");
    /* Man crowned mid-capture, then White's reply. */
    parse_or_fail("B:Wa1,a3,b2,b4,d2,d4,e3,f2,f4:Ba5,c5,c7,e7,g7", &pos);
    play_text(&pos, "a5:c3:e5:g3:e1:c3");
    assert_fen(&pos, "W:Wa1,b2,a3,e3:BKc3,c5,c7,e7,g7");
    play_text(&pos, "b2:d4:b6:d8:f6:h8");
    assert_fen(&pos, "B:Wa1,a3,e3,Kh8:B");
    /* Quiet crowning: the new king on d8 waits for Black's reply. */
    parse_or_fail("W:We7:Bb6", &pos);
    play_text(&pos, "e7-d8");
    assert_fen(&pos, "B:WKd8:Bb6");
    MoveList list;
    G->gen_moves(&pos, &list, GEN_DISTINCT);
    assert_int_equal(list.len, 2); /* b6-a5, b6-c5 */
    /* A capture back to its start square keeps the man there. */
    parse_or_fail("W:Wc3:Bb4,b6,d4,d6", &pos);
    play_text(&pos, "c3:e5:c7:a5:c3");
    assert_fen(&pos, "B:Wc3:B");
}

/* ------------------------------------------------------------------ */
/* Move text: full, short and x forms; rejections                      */

typedef struct ParseCase {
    const char *fen;  /* NULL: the start position */
    const char *text; /* input */
    const char *want; /* the move it must name (routes '|'-separated), or NULL: rejected */
    const char *err;  /* for a rejection: a part of the message */
} ParseCase;

#define MIDCROWN "B:Wa1,a3,b2,b4,d2,d4,e3,f2,f4:Ba5,c5,c7,e7,g7"
/* d8 x c7 then either a5 x b4 c3 x b2 a1, or b6 x c5 d4 x b2 a1: two
 * different moves from d8 to a1 (captured sets {c7,b4,b2} / {c7,c5,b2}). */
#define TWO_TO_A1 "W:WKd8:Bb2,b4,c5,c7"
/* c3 x b4 to a5; or c3 x e5 (must land f6), x g5 to h4, x g3 (must land e1:
 * b4 is in line again), x b4 to a5. */
#define SINGLE_AND_LONG "W:WKc3:Bg3,b4,e5,g5"

static const ParseCase PARSE_CASES[] = {
    {NULL, "c3-d4", "c3-d4", NULL},
    {NULL, "  c3-d4 ", "c3-d4", NULL},
    {NULL, "cd4", "c3-d4", NULL}, /* Russian short form: file of origin + end */
    {NULL, "ed4", "e3-d4", NULL},
    {NULL, "ab4", "a3-b4", NULL},
    {NULL, "22-18", "c3-d4", NULL}, /* PDN square numbers: 22 = c3, 18 = d4 */
    {NULL, "c3-c4", NULL, "illegal"},
    {NULL, "c3-e5", NULL, "illegal"},
    {NULL, "c3-b2", NULL, "illegal"}, /* backward */
    {NULL, "z9-a1", NULL, "bad square"},
    {NULL, "c3", NULL, "start and an end"},
    {NULL, "", NULL, "an empty move"},
    {NULL, " ", NULL, "an empty move"},
    {NULL, "d2-", NULL, "ends where a square is expected"},
    {NULL, "d2-xe3", NULL, "'x' at character 4 where a square is expected"},
    {NULL, "c3-d4 junk", NULL, "unexpected"},
    {"W:Wc3,g3:Bd4", "c3:e5", "c3:e5", NULL},
    {"W:Wc3,g3:Bd4", "c3xe5", "c3:e5", NULL},
    {"W:Wc3,g3:Bd4", "c:e5", "c3:e5", NULL},
    {"W:Wc3,g3:Bd4", "cxe5", "c3:e5", NULL},
    {"W:Wc3,g3:Bd4", "g3-h4", NULL, "compulsory"},
    {"W:Wa1:Bb2,d4", "a1:c3:e5", "a1:c3:e5", NULL},
    {"W:Wa1:Bb2,d4", "a1:e5", "a1:c3:e5", NULL},
    {"W:Wa1:Bb2,d4", "a1:c3", NULL, "illegal"}, /* the chain must be finished */
    {MIDCROWN, "a5:c3", "a5:c3:e1:g3:e5:c3|a5:c3:e5:g3:e1:c3", NULL},
    {MIDCROWN, "a5:c3:e1:g3:e5:c3", "a5:c3:e1:g3:e5:c3|a5:c3:e5:g3:e1:c3", NULL},
    {MIDCROWN, "a5:c3:e5:g3:e1:c3", "a5:c3:e1:g3:e5:c3|a5:c3:e5:g3:e1:c3", NULL},
    {MIDCROWN, "a5:d6:c3", NULL, "illegal"},
    {"W:WKa1:Bb2,e5", "a1:f6", "a1:c3:f6|a1:d4:f6", NULL},
    {"W:WKa1:Bb2,e5", "a1:d4:f6", "a1:c3:f6|a1:d4:f6", NULL},
    {"W:WKa1:Bb2,e5", "a1:e5:f6", NULL, "illegal"}, /* e5 is the victim, not a landing square */
    {TWO_TO_A1, "d8:a1", NULL, "ambiguous"},
    {TWO_TO_A1, "d8xa1", NULL, "ambiguous"},
    {TWO_TO_A1, "d:a1", NULL, "ambiguous"},
    {TWO_TO_A1, "d8:a5:c3:a1", "d8:a5:c3:a1", NULL},
    {TWO_TO_A1, "d8:b6:d4:a1", "d8:b6:d4:a1", NULL},
    {TWO_TO_A1, "d8:a5:a1", "d8:a5:c3:a1", NULL},
    {TWO_TO_A1, "d8:d4:a1", "d8:b6:d4:a1", NULL},
    {TWO_TO_A1, "d8:e5:a1", NULL, "illegal"},
    /* The full notation of a single capture, c3:a5, is also the short form
     * of c3:f6:h4:e1:a5: the text that names a whole route is that move. */
    {SINGLE_AND_LONG, "c3:a5", "c3:a5", NULL},
    {SINGLE_AND_LONG, "c3:f6:h4:e1:a5", "c3:f6:h4:e1:a5", NULL},
    {SINGLE_AND_LONG, "c3xa5", "c3:a5", NULL},
};

static void test_move_from_str(void **state)
{
    (void)state;
    static const char *const two[] = {"d8:a5:c3:a1 x=c7,b4,b2", "d8:b6:d4:a1 x=c7,c5,b2", NULL};
    check_moves_at(TWO_TO_A1, two, -1, "two moves from d8 to a1");
    static const char *const single_and_long[] = {"c3:a5 x=b4", "c3:f6:h4:e1:a5 x=e5,g5,g3,b4", NULL};
    check_moves_at(SINGLE_AND_LONG, single_and_long, -1, "a single and a long capture from c3 to a5");
    int failures = 0;
    for (size_t i = 0; i < sizeof PARSE_CASES / sizeof PARSE_CASES[0]; i++) {
        const ParseCase *c = &PARSE_CASES[i];
        Position pos;
        parse_or_fail(c->fen ? c->fen : G->start_fen, &pos);
        Move m;
        char err[ERR_MAX] = "";
        int rc = G->move_from_str(&pos, c->text, &m, err);
        if (c->want) {
            char text[MOVE_STR_MAX] = "";
            if (rc == 0) G->move_to_str(&pos, &m, text);
            if (rc != 0 || !entry_has_route(c->want, text)) {
                print_error("%s '%s': rc %d (%s), expected %s\n", c->fen ? c->fen : "start", c->text, rc,
                            rc ? err : text, c->want);
                failures++;
            }
        } else if (rc == 0 || !strstr(err, c->err)) {
            print_error("%s '%s': rc %d, message '%s', expected a rejection saying '%s'\n", c->fen ? c->fen : "start",
                        c->text, rc, err, c->err);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

/* ------------------------------------------------------------------ */
/* Position strings                                                     */

static void test_fen_round_trip(void **state)
{
    (void)state;
    static const char *const canonical[] = {
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        "B:WKa1,c3:Bb6,Kh8",
        "W:W:Bb6",
        "B:Wa1:B", /* White took the last black piece: Black, to move, has lost */
        "B:WKb2,Kd2,e3:BKa7,c7,Kh8",
        "W:Wa1,b2,d2,f2,a3,e3,b4,d4,f4:Ba5,c5,c7,e7,g7",
    };
    for (size_t i = 0; i < sizeof canonical / sizeof canonical[0]; i++) {
        Position pos;
        char out[FEN_MAX];
        parse_or_fail(canonical[i], &pos);
        G->pos_to_fen(&pos, out);
        if (strcmp(out, canonical[i]) != 0) {
            print_error("'%s' reads back as '%s'\n", canonical[i], out);
            fail();
        }
    }
    assert_string_equal(G->start_fen, canonical[0]);
    /* Accepted spellings that are not canonical, and what they mean. */
    static const char *const same[][2] = {
        {"W:Wc3,a1:Bb6", "W:Wa1,c3:Bb6"},                 /* any order */
        {"W:W29,22:B1", "W:Wa1,c3:Bb8"},                  /* PDN numbers: 29 = a1, 22 = c3, 1 = b8 */
        {"W:W21-24:B1-4", "W:Wa3,c3,e3,g3:Bb8,d8,f8,h8"}, /* number ranges */
        {"b:wKa1:bh8", "B:WKa1:Bh8"},                     /* case */
        {"W:Wa1:Bh8.", "W:Wa1:Bh8"},                      /* PDN's closing dot */
        {"[FEN \"W:Wa1:Bh8\"]", NULL},                    /* a whole tag is not a position string */
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        Position pos;
        char out[FEN_MAX], err[ERR_MAX] = "";
        int rc = G->pos_from_fen(&pos, same[i][0], err);
        if (!same[i][1]) continue; /* either answer is fine, it must just not crash */
        if (rc != 0) {
            print_error("'%s' rejected: %s\n", same[i][0], err);
            fail();
        }
        G->pos_to_fen(&pos, out);
        if (strcmp(out, same[i][1]) != 0) {
            print_error("'%s' reads as '%s', expected '%s'\n", same[i][0], out, same[i][1]);
            fail();
        }
    }
}

static void test_fen_rejected(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"X:Wa1:Bb6", "side to move"},
        {"W:Wa2:Bb6", "a2"},       /* a light square */
        {"W:Wa1,a1:Bb6", "a1"},    /* listed twice */
        {"W:Wa1:Ba1", "a1"},       /* on both sides */
        {"W:Wb8:Bb6", "b8"},       /* White man on its crowning rank */
        {"B:Wc3:Ba1", "a1"},       /* Black man on its crowning rank */
        {"hello", "side to move"}, /* garbage */
        {"", "side to move"},
        {"W:Wz9:Bb6", "bad square"},
        {"W:Wa1:Bb6 junk", "unexpected"},
        {"W:Wa1;Bb6", "unexpected"},
        {"W:Xa1", "W or B"},
        {"W:W33", "bad square"},
        {"W:W0", "bad square"},
        {"W:W5-3", "range"},
        {"W:W1-4:B5", "crowning rank"},   /* numbers 1-4 are b8 d8 f8 h8: White men there */
        {"B:W5:B29-32", "crowning rank"}, /* numbers 29-32 are a1 c1 e1 g1: Black men there */
        {"W:Wf2-2:Bb6", "range"},         /* fuzz_position_russian: an algebraic start is no range (was a shift by -1) */
        /* positions that cannot arise, and numbers that would wrap */
        {"W:W5-18:B1", "White has 14 pieces (men and kings), more than the 12"},
        {"W:WK1:B9-28", "Black has 20 pieces"},
        {"W:WK1,K2,K3,K4,5-12,Ka1,Kc1:Bb2", "White has 14 pieces"}, /* kings count too */
        {"W:W4294967328:B20", "bad square number '4294967328' at character 4 (squares are 1..32 in Russian draughts)"}, /* not square 32 */
        {"W:W99999999999999999999:B1", "squares are 1..32"},
        {"W:W5-4294967300:B1", "bad square range"},
        {"W:Wa1:Bb6:Wc3", "a second white section"},
        {"W:Wa1:Bb6:Bd6", "a second black section"},
        /* the side that just moved has no pieces: it had no move, so the
         * game was over before this turn (End of the game: no-moves) */
        {"W:Wa1:B", "bad position string 'W:Wa1:B': Black, who just moved, has no pieces (it had no move: "
                    "the game was over before this turn)"},
        {"W:WKa1,c3", "Black, who just moved, has no pieces"}, /* no black section at all */
        {"B:W:Bb6", "White, who just moved, has no pieces"},
        {"W:W:B", "Black, who just moved, has no pieces"}, /* an empty board */
        {"B:W:B", "White, who just moved, has no pieces"},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position pos;
        char err[ERR_MAX] = "";
        int rc = G->pos_from_fen(&pos, bad[i][0], err);
        if (rc == 0 || !strstr(err, bad[i][1])) {
            print_error("'%s': rc %d, message '%s'; expected a rejection naming '%s'\n", bad[i][0], rc, err, bad[i][1]);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
    check_long_fen_rejected(G, "W:");
    /* the most a side can have is accepted: 12 men, or 12 pieces with kings */
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(G->pos_from_fen(&pos, "W:W5-16:B17-28", err), 0);
    assert_int_equal(G->pos_from_fen(&pos, "W:WK1,K2,K3,K4,5-12:B21-32", err), -1); /* Black men on 29-32 */
    assert_int_equal(G->pos_from_fen(&pos, "W:WK1,K2,K3,K4,5-12:B17-28", err), 0);
}

/* ------------------------------------------------------------------ */
/* End of the game: no move, D3-D8                                      */

typedef struct Line {
    Position pos;
    uint64_t history[512]; /* keys of the earlier positions */
    int len;
} Line;

static void line_start(Line *l, const char *fen)
{
    parse_or_fail(fen, &l->pos);
    l->len = 0;
}

static void line_make(Line *l, const Move *m)
{
    Position child;
    G->make_move(&l->pos, m, &child);
    l->history[l->len++] = G->hash(&l->pos);
    l->pos = child;
}

/* 'w'/'b' man, 'W'/'B' king, '.' empty — read off the position string. */
static char piece_at(const Position *pos, int sq)
{
    char fen[FEN_MAX];
    G->pos_to_fen(pos, fen);
    char colour = 0;
    for (const char *s = fen + 1; *s; s++) {
        if (*s == ':') {
            colour = s[1];
            s++;
            continue;
        }
        if (*s == ',') continue;
        bool king = *s == 'K';
        if (king) s++;
        if (sq_of(s) == sq) return king ? colour : (char)(colour - 'A' + 'a');
        s++;
    }
    return '.';
}

enum { STEP_KING, STEP_MAN, STEP_CROWN };
enum { ROAD_ANY, ROAD_ON, ROAD_OFF };

static bool on_main_road(int sq) { return sq % 9 == 0; } /* a1, b2, ..., h8 */

/* Could either side capture in pos (whoever is to move)? */
static bool any_capture(const Position *pos)
{
    if (G->has_capture(pos)) return true;
    char fen[FEN_MAX];
    G->pos_to_fen(pos, fen);
    fen[0] = fen[0] == 'W' ? 'B' : 'W';
    Position other;
    parse_or_fail(fen, &other);
    return G->has_capture(&other);
}

/* Play a quiet move of the kind asked for, picked at random (rng) among
 * those after which neither side could capture and the position is new.
 * When road != ROAD_ANY, the side road_side keeps its moves on / off the
 * main road. Returns false when there is no such move (the line is stuck). */
static bool line_step(Line *l, int kind, int road_side, int road, uint64_t *rng)
{
    MoveList list;
    G->gen_moves(&l->pos, &list, GEN_DISTINCT);
    int side = (int)G->side_to_move(&l->pos);
    int ok[MOVES_MAX], n = 0;
    for (int i = 0; i < list.len; i++) {
        const Move *m = &list.moves[i];
        if (m->kind != MOVE_QUIET || (m->promo != 0) != (kind == STEP_CROWN)) continue;
        char p = piece_at(&l->pos, m->from);
        if ((p == 'w' || p == 'b') != (kind != STEP_KING)) continue;
        if (road != ROAD_ANY && side == road_side && on_main_road(m->to) != (road == ROAD_ON)) continue;
        Position child;
        G->make_move(&l->pos, m, &child);
        if (any_capture(&child)) continue;
        uint64_t key = G->hash(&child);
        bool seen = key == G->hash(&l->pos);
        for (int k = 0; k < l->len && !seen; k++) seen = l->history[k] == key;
        if (!seen) ok[n++] = i;
    }
    if (!n) return false;
    line_make(l, &list.moves[ok[rng_below(rng, (uint64_t)n)]]);
    return true;
}

/* game_outcome must say `want` with `reason`; rule_outcome too when the
 * reason is one of the position's own rules (D4-D8), else nothing. */
static void expect_outcome(const Line *l, Outcome want, const char *reason, const char *what, int ply)
{
    const char *why = NULL, *gwhy = NULL;
    bool rule_level = reason && reason[0] == 'D' && reason[1] >= '4' && reason[1] <= '8';
    Outcome want_rule = rule_level ? want : OUTCOME_NONE;
    Outcome o = G->rule_outcome(&l->pos, &why);
    Outcome g = game_outcome(G, &l->pos, l->history, l->len, &gwhy, NULL);
    bool ok = o == want_rule && g == want;
    if (reason) ok = ok && gwhy && strcmp(gwhy, reason) == 0 && (!rule_level || (why && strcmp(why, reason) == 0));
    if (o == OUTCOME_DRAW && why) assert_rule_draw_listed(G, why);
    if (!ok) {
        char fen[FEN_MAX];
        G->pos_to_fen(&l->pos, fen);
        print_error("%s, ply %d (%s): rule_outcome %d (%s), game_outcome %d (%s); expected %d (%s)\n", what, ply, fen,
                    o, why ? why : "-", g, gwhy ? gwhy : "-", want, reason ? reason : "-");
        fail();
    }
}

typedef struct DrawCase {
    const char *rule;
    const char *fen;
    int plies;          /* play this many plies; no outcome before the last */
    const char *reason; /* outcome after the last ply: draw with this reason, or NULL (none) */
    int road_side;      /* the side whose moves keep on / off the main road */
    int road;
    const char *men; /* plies (from 1) at which a man moves instead of a king; 'c' = it crowns */
} DrawCase;

static const DrawCase DRAW_CASES[] = {
    /* 8 pieces (no D6), kings only: 15 moves each = 30 plies. */
    {"D5 15 king-only moves each", "W:Wa1,c1,Ka3,Kg1:Bf8,h8,Kb8,Kh6", 30, "D5", 0, ROAD_ANY, ""},
    /* A man move at ply 21 starts the count again: 21 + 30 = 51. */
    {"D5 reset by a man move", "W:Wa1,c1,Ka3,Kg1:Bf8,h8,Kb8,Kh6", 51, "D5", 0, ROAD_ANY, "21"},
    /* 3 kings against 1 (kept off the main road, else D7 would come at
     * ply 10): the strong side's 15th move is ply 29 or 30; the engine
     * counts 15 moves of each side (30 plies). D5 holds too; D4 is named. */
    {"D4 three kings against one", "W:WKc1,Ke1,Kg1:BKh6", 30, "D4", COLOR_BLACK, ROAD_OFF, ""},
    /* The man b6 moves at ply 11 and crowns at ply 21: the material changes
     * and D4 counts again from there (21 + 30 = 51; none at ply 30). */
    {"D4 restarts when the material changes", "W:WKc1,Ke1,Kg1,b6:BKh6", 51, "D4", COLOR_BLACK, ROAD_OFF, "11,21c"},
    /* K + man each (4 pieces): 30 moves = 60 plies; men move at 21/22 and
     * 41/42 so that D5 does not come first. */
    {"D6 4 pieces, 30 moves", "W:Wc3,Kh2:Bf6,Ka7", 60, "D6", 0, ROAD_ANY, "21,22,41,42"},
    /* 6 pieces: 60 moves = 120 plies. */
    {"D6 6 pieces, 60 moves", "W:Wa1,c1,Kh2:Bf8,h8,Ka7", 120, "D6", 0, ROAD_ANY, "21,22,41,42,61,62,81,82,101,102"},
    /* 2 kings + man against a king that keeps to the main road: 5 moves. */
    {"D7 three pieces against a king on the main road", "W:WKa3,Kc1,g1:BKd4", 10, "D7", COLOR_BLACK, ROAD_ON, ""},
    /* The same material with the lone king off the road: no D7; at ply 30
     * D5 (kings only, the man never moves). */
    {"D7 not off the main road", "W:WKa3,Kc1,g1:BKh4", 30, "D5", COLOR_BLACK, ROAD_OFF, ""},
    {"D8 two kings against one", "W:WKa1,Kc1:BKh4", 10, "D8", 0, ROAD_ANY, ""},
    {"D8 king and man against a king", "W:WKa1,c3:BKh4", 10, "D8", 0, ROAD_ANY, ""},
    {"D8 king against king", "W:WKa1:BKh4", 10, "D8", 0, ROAD_ANY, ""},
};

static bool ply_listed(const char *men, int ply, bool *crown)
{
    for (const char *s = men; *s;) {
        char *end;
        long v = strtol(s, &end, 10);
        bool c = *end == 'c';
        if (c) end++;
        if (v == ply) {
            *crown = c;
            return true;
        }
        s = *end == ',' ? end + 1 : end;
    }
    return false;
}

/* Play case c with the random picks of `seed`, checking the outcome after
 * every ply. Returns false if the line got stuck (no suitable move). */
static bool draw_line(const DrawCase *c, uint64_t seed)
{
    static Line line;
    uint64_t rng = rng_derive(0x44524157ULL, seed);
    line_start(&line, c->fen);
    expect_outcome(&line, OUTCOME_NONE, NULL, c->rule, 0);
    for (int ply = 1; ply <= c->plies; ply++) {
        bool crown = false;
        int kind = ply_listed(c->men, ply, &crown) ? (crown ? STEP_CROWN : STEP_MAN) : STEP_KING;
        if (!line_step(&line, kind, c->road_side, c->road, &rng)) return false;
        if (ply < c->plies || !c->reason)
            expect_outcome(&line, OUTCOME_NONE, NULL, c->rule, ply);
        else
            expect_outcome(&line, OUTCOME_DRAW, c->reason, c->rule, ply);
    }
    return true;
}

static void test_draw_rules(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof DRAW_CASES / sizeof DRAW_CASES[0]; i++) {
        const DrawCase *c = &DRAW_CASES[i];
        int played = 0;
        for (uint64_t seed = 0; seed < 64 && played < 3; seed++) played += draw_line(c, seed);
        if (played < 3) {
            print_error("%s: fewer than 3 of 64 random lines could be played out\n", c->rule);
            fail();
        }
    }
}

static void test_repetition_d3(void **state)
{
    (void)state;
    static Line line;
    /* Kings shuttle h2-g1 / a7-b8: the start position comes back after 4
     * and 8 plies; the third occurrence (ply 8) is a draw. */
    static const char *const moves[] = {"h2-g1", "a7-b8", "g1-h2", "b8-a7", "h2-g1", "a7-b8", "g1-h2", "b8-a7"};
    line_start(&line, "W:Wc1,Kh2:Bf8,Ka7");
    for (int ply = 1; ply <= 8; ply++) {
        Move m;
        char err[ERR_MAX];
        if (G->move_from_str(&line.pos, moves[ply - 1], &m, err) != 0) {
            print_error("%s\n", err);
            fail();
        }
        line_make(&line, &m);
        if (ply < 8)
            expect_outcome(&line, OUTCOME_NONE, NULL, "D3", ply);
        else
            expect_outcome(&line, OUTCOME_DRAW, "D3", "D3", ply);
    }
    /* A man move (ply 5) is irreversible: counting starts again after it.
     * The position after ply 5 recurs after plies 9 and 13: draw at 13. */
    line_start(&line, "W:Wc1,Kh2:Bf8,Ka7");
    static const char *const moves2[] = {"h2-g1", "a7-b8", "g1-h2", "b8-a7", "c1-d2", "a7-b8", "h2-g1",
                                         "b8-a7", "g1-h2", "a7-b8", "h2-g1", "b8-a7", "g1-h2"};
    for (int ply = 1; ply <= 13; ply++) {
        Move m;
        char err[ERR_MAX];
        if (G->move_from_str(&line.pos, moves2[ply - 1], &m, err) != 0) {
            print_error("%s\n", err);
            fail();
        }
        line_make(&line, &m);
        if (ply < 13)
            expect_outcome(&line, OUTCOME_NONE, NULL, "D3 after a man move", ply);
        else
            expect_outcome(&line, OUTCOME_DRAW, "D3", "D3 after a man move", ply);
    }
}

static void test_no_legal_move(void **state)
{
    (void)state;
    static Line line;
    line_start(&line, "W:Wa1:Bb2,c3"); /* White blocked */
    expect_outcome(&line, OUTCOME_BLACK_WINS, "no-moves", "blocked", 0);
    line_start(&line, "B:Wc3:B"); /* Black has no pieces */
    expect_outcome(&line, OUTCOME_WHITE_WINS, "no-moves", "no pieces", 0);
    /* Played into: Black's last man is taken. */
    line_start(&line, "W:Wc3:Bd4");
    Move m;
    char err[ERR_MAX];
    assert_int_equal(G->move_from_str(&line.pos, "c3:e5", &m, err), 0);
    line_make(&line, &m);
    expect_outcome(&line, OUTCOME_WHITE_WINS, "no-moves", "last man taken", 1);
    /* D4 and D8 draw what is "not won by" the strong side's last counted
     * move: a lone king blocked on that move has lost, even with D5 run out
     * on the same ply; one ply earlier, or with a move left, they draw. */
    static const struct {
        const char *fen;
        int plies;
        Outcome want;
        const char *reason;
    } COUNTED[] = {
        {"B:WKg1,Kg3,Kf4:BKh2", 30, OUTCOME_WHITE_WINS, "no-moves"}, /* D4's 30th ply, blocked */
        {"B:WKb2,Kc3:BKa1", 10, OUTCOME_WHITE_WINS, "no-moves"},     /* D8's 10th ply, blocked */
        {"B:WKg1,Kg3,Kf4:BKh4", 30, OUTCOME_DRAW, "D4"},             /* a move left: drawn */
        {"B:WKb2,Kd4:BKa1", 10, OUTCOME_DRAW, "D8"},
    };
    for (size_t i = 0; i < sizeof COUNTED / sizeof COUNTED[0]; i++) {
        line_start(&line, COUNTED[i].fen);
        DraughtsPos *p = (DraughtsPos *)line.pos.data;
        p->material_plies = p->reversible = (uint8_t)COUNTED[i].plies;
        expect_outcome(&line, COUNTED[i].want, COUNTED[i].reason, COUNTED[i].fen, COUNTED[i].plies);
    }
}

/* ------------------------------------------------------------------ */
/* Published perft figures                                             */

static void test_perft_published(void **state)
{
    (void)state;
    /* russian.txt: D1-D9 of the D line, D8-D9 of the P line and D1-D9 of
     * the K line (GEN_SEQUENCES). */
    int checked = perft_table_check(G, PERFT_FILE, 1, 9);
    assert_true(checked >= 9 + 2 + 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_cases),
        cmocka_unit_test(test_worked_examples_played),
        cmocka_unit_test(test_move_from_str),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_fen_rejected),
        cmocka_unit_test(test_draw_rules),
        cmocka_unit_test(test_repetition_d3),
        cmocka_unit_test(test_no_legal_move),
        cmocka_unit_test(test_perft_published),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
