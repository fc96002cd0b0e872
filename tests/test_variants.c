/* test_variants.c — the 8x8 variants of the draughts family (Brazilian,
 * Pool, English, Czech, Italian, Spanish; docs/rules/<game>.md):
 *   - the worked examples of each rule book as exact move lists;
 *   - the published perft figures of data/perft/other_variants.txt to
 *     depth 8, D and K conventions (deeper: test_variants_slow.c);
 *   - the properties every game must have (game_properties.h) over random
 *     games and king-rich placements;
 *   - the move-count draw rules, one case each side of every limit;
 *   - bad positions refused with the game, the square and what was
 *     expected named.
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
#include "arena/openings.h"
#include "engine/games/draughts/draughts.h"
#include "util/rng.h"

#include "game_properties.h"
#include "perft_table.h"

#define PERFT_FILE DAMA_SOURCE_DIR "/data/perft/other_variants.txt"
#define ENGLISH_BOOK DAMA_SOURCE_DIR "/data/openings/english_3move_156.tsv"

static const char *const VARIANTS[] = {"brazilian", "pool", "english", "czech", "italian", "spanish", NULL};

static int setup(void **state)
{
    (void)state;
    game_init_all();
    for (int i = 0; VARIANTS[i]; i++)
        if (!game_find(VARIANTS[i])) return -1;
    return 0;
}

static const Game *find(const char *name)
{
    const Game *g = game_find(name);
    assert_non_null(g);
    return g;
}

/* The legal moves of fen in g, as the game writes them, sorted and joined
 * by spaces, into out. */
static void moves_text(const Game *g, const char *fen, char *out, size_t size)
{
    Position pos;
    parse_fen_or_fail(g, fen, &pos);
    MoveList list;
    g->gen_moves(&pos, &list, GEN_DISTINCT);
    char text[MOVES_MAX][MOVE_STR_MAX];
    for (int i = 0; i < list.len; i++) g->move_to_str(&pos, &list.moves[i], text[i]);
    qsort(text, (size_t)list.len, sizeof text[0], (int (*)(const void *, const void *))strcmp);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < list.len && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", text[i]);
}

/* A position and its whole move list as the game writes it, sorted. */
typedef struct MoveCase {
    const char *game, *fen, *want, *why;
} MoveCase;

static void check_move_lists(const MoveCase *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char got[1024];
        moves_text(find(cases[i].game), cases[i].fen, got, sizeof got);
        if (strcmp(got, cases[i].want) != 0) {
            print_error("%s %s (%s): got '%s', want '%s'\n", cases[i].game, cases[i].fen, cases[i].why, got,
                        cases[i].want);
            fail();
        }
    }
}

/* ------------------------------------------------------------------ */
/* The rule books' worked examples (the positions and results are the   */
/* books'; the moves as dama writes them, sorted)                       */

static void test_book_examples(void **state)
{
    (void)state;
    static const MoveCase CASES[] = {
        {"brazilian", "W:W21-32:B1-12", "21-17 22-17 22-18 23-18 23-19 24-19 24-20", "E1 start"},
        {"brazilian", "W:W11:B6,7,18", "11x9", "E2 a man passing the back row stays a man"},
        {"brazilian", "W:WK1:B8,K10,22,27", "1x13 1x17", "E3 Turkish strike and majority"},
        {"brazilian", "W:W10,22:B7,8,18", "10x12", "E4 majority"},
        {"pool", "B:W21-32:B1-12", "10-14 10-15 11-15 11-16 12-16 9-13 9-14", "E1 start, Black first"},
        {"pool", "W:W10,22:B7,8,18", "10x12 22x15", "E2 free choice"},
        {"pool", "W:W27,K29:B10,22,23", "27x25 29x1 29x6", "E3 backward man capture, king landing"},
        {"pool", "W:WK22:B4,9,17,18,24", "22x13x6x28 22x15x28", "E4 shared start and end: full routes"},
        {"english", "B:W21-32:B1-12", "10-14 10-15 11-15 11-16 12-16 9-13 9-14", "E1 start"},
        {"english", "B:W18,25,26,27:B14,21", "14x30 14x32 21x30", "E2 crowning ends the move"},
        {"english", "W:WK22:B9,10,17,18", "22x15x6x13x22", "E3 a closed loop: one move"},
        {"english", "W:W22:B10,17,18,26", "22x13 22x6", "E4 men capture forward only"},
        {"czech", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
         "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4", "E1 start"},
        {"czech", "W:Wc3,Ka7:Bb2,d4,f6", "a7:e3 a7:f2 a7:g1", "E2 a king's capture first"},
        {"czech", "W:WKa1,Kh6:Bc3,d6,g5", "a1:e5:b8 a1:e5:c7 a1:f6:h4 h6:d2:b4:e7 h6:d2:b4:f8 h6:f4:b8 h6:f4:c7",
         "E3 free choice, landing rule"},
        {"czech", "W:Wd4,f4:Ba5,c3,e5,g5", "d4:f6 f4:d6 f4:h6", "E4 men capture forward only"},
        {"italian", "W:W21-32:B1-12", "21-17 21-18 22-18 22-19 23-19 23-20 24-20", "E1 start"},
        {"italian", "W:W22:BK18,19,28", "22x15", "E2 a man never takes a king"},
        {"italian", "W:W22,K31:BK18,19,28", "31x24", "E3 with a king first"},
        {"italian", "W:WK22:B18,K10,K19,12,27,28", "22x8", "E4 most kings, then the earliest king"},
        {"spanish", "W:W1-12:B21-32", "10-13 10-14 11-14 11-15 12-15 12-16 9-13", "E1 start"},
        {"spanish", "W:WK11,24:BK6,21,30,31", "11x2", "E2 quality"},
        {"spanish", "W:W11:BK15,14,21", "11x25", "E3 quantity before quality"},
        {"spanish", "W:WK14:BK10,11,19,25", "14x1 14x5", "E4 quality and Turkish strike"},
    };
    check_move_lists(CASES, sizeof CASES / sizeof CASES[0]);
}

/* Rules the examples leave implicit, one position each. */
static void test_rule_cases(void **state)
{
    (void)state;
    static const MoveCase CASES[] = {
        /* short kings step one square and jump only a neighbour */
        {"english", "W:WK14:B4", "14-10 14-17 14-18 14-9", "a short king's four steps"},
        {"english", "W:WK1:B10", "1-5 1-6", "a short king does not jump a piece two squares away"},
        {"italian", "W:WK32:B1", "32-28", "Italian numbering: 32 is the corner at White's near right"},
        /* a flying king (Brazilian) against a short one (English), same board */
        {"brazilian", "W:WK29:B4", "29-11 29-15 29-18 29-22 29-25 29-8", "a flying king on the long diagonal"},
        /* men capture backward only where the book says so */
        {"brazilian", "W:W14:B18", "14x23", "Brazilian men capture backward"},
        {"spanish", "W:W14:B10", "14-18 14-19", "Spanish men do not capture backward"},
        /* Czech: no king priority without a king capture; free choice */
        {"czech", "W:Wc3,e3:Bd4,f4,d6", "c3:e5:c7 e3:c5:e7 e3:g5", "free choice among men; a chain goes on"},
        /* Spanish numbering: White's men start on 1-12 and step up */
        {"spanish", "W:W1:B32", "1-5", "Spanish 1 is h1, stepping to 5"},
    };
    check_move_lists(CASES, sizeof CASES / sizeof CASES[0]);
}

/* ------------------------------------------------------------------ */
/* Published perft                                                      */

static void test_perft_published(void **state)
{
    (void)state;
    /* D1-D8 from the start; Brazilian's K line starts at D8, English's K
     * line has D1-D8. */
    static const struct {
        const char *game;
        int figures;
    } WANT[] = {{"brazilian", 8 + 1}, {"pool", 8}, {"english", 8}, {"czech", 8}, {"italian", 8}, {"spanish", 8}};
    for (size_t i = 0; i < sizeof WANT / sizeof WANT[0]; i++)
        assert_int_equal(perft_table_check(find(WANT[i].game), PERFT_FILE, 1, 8), WANT[i].figures);
}

/* ------------------------------------------------------------------ */
/* Properties over random positions                                     */

static const Game *PG_GAME;

/* A king-rich random placement (1-5 kings, 0-6 men a side): placed by the
 * Czech parser, whose algebraic squares name the board every variant
 * shares inside dama, then handed over as it stands. */
static void random_position(uint64_t *rng, Position *pos)
{
    draughts_random_position(find("czech"), rng, pos, true, 5, 7);
}

static int mirror_sq(int sq) { return 63 - sq; }

static bool has_king(const Position *pos) { return ((const DraughtsPos *)pos->data)->kings != 0; }

static void test_properties(void **state)
{
    (void)state;
    for (int v = 0; VARIANTS[v]; v++) {
        PG_GAME = find(VARIANTS[v]);
        uint64_t wrng = rng_derive(0x5641524eULL, (uint64_t)v);
        EVAL_AUTO_FREE int32_t *w = prop_random_weights(PG_GAME, &wrng);
        const PropGame pg = {.game = PG_GAME,
                             .mirror_sq = mirror_sq,
                             .capture_compulsory = true,
                             .weights_extra = w,
                             .counted = has_king,
                             .counted_name = "with kings"};
        const PropSource src = {.positions = 1500,
                                .game_seed = 0x46414d00ULL + (uint64_t)v,
                                .game_plies = 150,
                                .place_seed = 0x4b494e00ULL + (uint64_t)v,
                                .place_plies = 6,
                                .place = random_position,
                                .perft_depth = 3};
        PropRun run;
        prop_check_random(&run, &pg, &src);
        assert_int_equal(run.positions, 1500);
        assert_true(run.counted > run.positions / 3);
    }
}

/* ------------------------------------------------------------------ */
/* Draw rules                                                           */

/* g's rule_outcome for fen with the counters set: plies since the last
 * man move or capture, and since the material arose. */
static Outcome outcome_at(const Game *g, const char *fen, int reversible, int material_plies, const char **reason)
{
    Position pos;
    parse_fen_or_fail(g, fen, &pos);
    DraughtsPos *p = (DraughtsPos *)pos.data;
    p->reversible = (uint8_t)reversible;
    p->material_plies = (uint8_t)material_plies;
    *reason = NULL;
    return g->rule_outcome(&pos, reason);
}

static void test_draw_rules(void **state)
{
    (void)state;
    static const struct {
        const char *game, *fen;
        int plies_kept;    /* still open with this count */
        int reversible;    /* 1: the count is of plies without a man move or capture; 0: since the material arose */
        const char *id;    /* the rule that draws one ply later */
    } CASES[] = {
        {"brazilian", "W:WK1,K2,6:BK30", 31, 0, "B-D3"},   /* three pieces with a king against a king: 16 moves */
        {"brazilian", "W:WK1,6:BK30", 9, 0, "B-D4"},       /* king and man against a king: 5 moves */
        {"brazilian", "W:WK1,K2,6,7:BK30,20", 39, 1, "B-D2"}, /* 20 moves of kings only */
        {"pool", "W:WK1,K2,K3:BK30", 25, 0, "P-D2"},       /* three kings against one: 13 moves */
        {"pool", "W:WK1,K2,6:BK30,20", 29, 1, "P-D3"},     /* 15 moves without a man move or capture */
        {"english", "W:WK1,K2:BK30,K31", 79, 1, "E-D2"},    /* the 40-move rule */
        {"czech", "W:WKa1,Kc1:BKh8,Kf8", 29, 1, "C-D2"},    /* 15 moves */
        {"italian", "W:WK1,K2:BK30,K31", 79, 1, "It-D2"},   /* 40 moves */
        {"spanish", "W:WK1,K2:BK30,K31", 39, 1, "S-D2"},    /* 20 moves */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Game *g = find(CASES[i].game);
        const char *why;
        int kept = CASES[i].plies_kept;
        int rev = CASES[i].reversible ? kept : 0, mat = CASES[i].reversible ? 0 : kept;
        if (outcome_at(g, CASES[i].fen, rev, mat, &why) != OUTCOME_NONE) {
            print_error("%s %s: drawn (%s) after %d plies, one too early\n", CASES[i].game, CASES[i].fen, why, kept);
            fail();
        }
        rev += CASES[i].reversible ? 1 : 0;
        mat += CASES[i].reversible ? 0 : 1;
        assert_int_equal(outcome_at(g, CASES[i].fen, rev, mat, &why), OUTCOME_DRAW);
        assert_string_equal(why, CASES[i].id);
        assert_rule_draw_listed(g, why);
    }
    /* The material rules need a lone king: a lone man, or four pieces, keep playing. */
    const char *why;
    assert_int_equal(outcome_at(find("brazilian"), "W:WK1,K2,6:B20", 0, 100, &why), OUTCOME_NONE);
    assert_int_equal(outcome_at(find("brazilian"), "W:WK1,K2,6,7:BK30", 0, 100, &why), OUTCOME_NONE);
    assert_int_equal(outcome_at(find("pool"), "W:WK1,K2,6:BK30", 0, 100, &why), OUTCOME_NONE); /* not three kings */
    /* P-D2: the strong side must win "within 13 moves": a 13th move (the
     * 26th ply) that leaves the lone king without a move wins. */
    const Game *pool = find("pool");
    assert_int_equal(outcome_at(pool, "B:WK23,K27,K28:BK32", 0, 26, &why), OUTCOME_NONE);
    Position pos;
    parse_fen_or_fail(pool, "B:WK23,K27,K28:BK32", &pos);
    ((DraughtsPos *)pos.data)->material_plies = 26;
    assert_int_equal(game_outcome(pool, &pos, NULL, 0, &why, NULL), OUTCOME_WHITE_WINS);
    assert_string_equal(why, "no-moves");
    assert_int_equal(outcome_at(pool, "B:WK23,K27,K28:BK31", 0, 26, &why), OUTCOME_DRAW); /* a move left */
    assert_string_equal(why, "P-D2");
}

/* ------------------------------------------------------------------ */
/* Bad positions                                                        */

static void test_bad_positions(void **state)
{
    (void)state;
    static const struct {
        const char *game, *fen, *want;
    } CASES[] = {
        {"brazilian", "W:W31-50:B1-20", "bad square range (squares are 1..32 in Brazilian draughts)"}, /* a 10x10 FEN */
        {"english", "B:W33:B1", "bad square number '33' at character 4 (squares are 1..32 in English draughts)"},
        {"italian", "W:Wa1:Bb8", "bad square at character 4 (Italian draughts names squares with numbers 1..32)"},
        {"spanish", "W:W29:B1", "a man on 29 stands on its crowning rank (White crowns on 29-32 in Spanish draughts)"},
        {"pool", "B:W1:B30", "a man on 1 stands on its crowning rank (White crowns on 1-4 in Pool checkers)"},
        {"czech", "W:Wb8:Ba1", "a man on b8 stands on its crowning rank (White crowns on rank 8 in Czech draughts)"},
        {"brazilian", "W:W1-13:B20", "a man in the range stands on its crowning rank (square 1; White crowns on 1-4"},
        {"english", "W:W13-25:B1", "White has 13 pieces (men and kings), more than the 12 it starts with in English draughts"},
        {"czech", "W:W0:B1", "bad square number '0' at character 4 (squares are 1..32 in Czech draughts)"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) check_refused(CASES[i].game, CASES[i].fen, CASES[i].want);
}

/* Numbered games write numbers and read back what they write; a capture
 * is start x end unless it must be told apart. */
static void test_notation_round_trip(void **state)
{
    (void)state;
    static const struct {
        const char *game, *in, *out;
    } CASES[] = {
        {"brazilian", "W:W21-32:B1-12", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"},
        {"spanish", "W:WK14:BK10,11,19,25", "W:WK14:BK10,11,19,25"},
        {"italian", "B:W32,K1:B5", "B:WK1,32:B5"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const Game *g = find(CASES[i].game);
        Position pos;
        char fen[FEN_MAX];
        parse_fen_or_fail(g, CASES[i].in, &pos);
        g->pos_to_fen(&pos, fen);
        assert_string_equal(fen, CASES[i].out);
    }
    /* 22x28 is one of two captures from 22 to 28: refused as ambiguous,
     * each full route accepted. */
    const Game *pool = find("pool");
    Position pos;
    Move m;
    char err[ERR_MAX];
    parse_fen_or_fail(pool, "W:WK22:B4,9,17,18,24", &pos);
    assert_int_equal(pool->move_from_str(&pos, "22x28", &m, err), -1);
    assert_non_null(strstr(err, "ambiguous"));
    assert_int_equal(pool->move_from_str(&pos, "22x15x28", &m, err), 0);
    assert_int_equal(__builtin_popcountll(m.captured), 2);
    assert_int_equal(pool->move_from_str(&pos, "22x13x6x28", &m, err), 0);
    assert_int_equal(__builtin_popcountll(m.captured), 3);
    /* Bad move text names the square, the game and its squares; an
     * illegal move while a capture is due lists the captures. */
    const Game *english = find("english");
    parse_fen_or_fail(english, "W:WK22:B4,9,17,18,24", &pos);
    assert_int_equal(english->move_from_str(&pos, "22x28", &m, err), -1);
    assert_string_equal(err, "illegal move '22x28' (a capture is compulsory: 22x15, 22x6)");
    assert_int_equal(english->move_from_str(&pos, "0-5", &m, err), -1);
    assert_string_equal(err, "move '0-5': bad square '0' at character 1 (English draughts names squares with numbers 1..32)");
    assert_int_equal(english->move_from_str(&pos, "c3-d4", &m, err), -1);
    assert_non_null(strstr(err, "bad square 'c3' at character 1 (English draughts names squares with numbers 1..32)"));
    /* a separator where a square belongs is named, not quoted as '' */
    assert_int_equal(english->move_from_str(&pos, "xx", &m, err), -1);
    assert_string_equal(err, "move 'xx': 'x' at character 1 where a square is expected (English draughts names squares "
                             "with numbers 1..32)");
    assert_int_equal(english->move_from_str(&pos, "22--18", &m, err), -1);
    assert_non_null(strstr(err, "move '22--18': '-' at character 4 where a square is expected"));
    assert_int_equal(english->move_from_str(&pos, "22-", &m, err), -1);
    assert_non_null(strstr(err, "move '22-' ends where a square is expected"));
}

/* A capture mark (x, X or :) on a step is refused naming the move, in
 * every draughts game of the registry (the 8x8 variants, Russian,
 * Turkish, International, Canadian); the step itself, as the game writes
 * it, is read; a capture keeps each of its forms. */
static void test_capture_mark_on_step(void **state)
{
    (void)state;
    static const char MARKS[] = {'x', 'X', ':'};
    int games = 0;
    for (const Game *const *l = game_list(); *l; l++) {
        const Game *g = *l;
        if (strcmp(g->name, "shatra") == 0) continue; /* its own notation and parser */
        games++;
        Position pos;
        parse_fen_or_fail(g, g->start_fen, &pos);
        MoveList list;
        g->gen_moves(&pos, &list, GEN_DISTINCT);
        for (int i = 0; i < list.len; i++) {
            char text[MOVE_STR_MAX], bad[MOVE_STR_MAX], err[ERR_MAX], want[ERR_MAX];
            Move m;
            g->move_to_str(&pos, &list.moves[i], text);
            assert_int_equal(g->move_from_str(&pos, text, &m, err), 0);
            for (size_t k = 0; k < sizeof MARKS; k++) {
                snprintf(bad, sizeof bad, "%s", text);
                char *dash = strchr(bad, '-');
                assert_non_null(dash);
                *dash = MARKS[k];
                assert_int_equal(g->move_from_str(&pos, bad, &m, err), -1);
                snprintf(want, sizeof want, "move '%.20s': '%c' marks a capture, and %.20s captures nothing (write %.20s)", bad,
                         MARKS[k], text, text);
                if (strcmp(err, want) != 0) print_error("%s: '%s' gave '%s'\n", g->name, bad, err);
                assert_string_equal(err, want);
            }
        }
    }
    assert_int_equal(games, 10);
    /* Russian's short forms: cd4 is a step, c:d4 is not */
    const Game *ru = find("russian");
    Position pos;
    Move m;
    char err[ERR_MAX];
    parse_fen_or_fail(ru, ru->start_fen, &pos);
    assert_int_equal(ru->move_from_str(&pos, "cd4", &m, err), 0);
    assert_int_equal(ru->move_from_str(&pos, "c:d4", &m, err), -1);
    assert_string_equal(err, "move 'c:d4': ':' marks a capture, and c3-d4 captures nothing (write c3-d4)");
    /* a capture written with '-' stays read, as does Russian's x */
    parse_fen_or_fail(ru, "W:Wc3:Bd4", &pos);
    assert_int_equal(ru->move_from_str(&pos, "c3-e5", &m, err), 0);
    assert_int_equal(m.kind, MOVE_CAPTURE);
    assert_int_equal(ru->move_from_str(&pos, "c3xe5", &m, err), 0);
    const Game *in = find("international");
    parse_fen_or_fail(in, in->start_fen, &pos);
    assert_int_equal(in->move_from_str(&pos, "32x28", &m, err), -1);
    assert_string_equal(err, "move '32x28': 'x' marks a capture, and 32-28 captures nothing (write 32-28)");
}

/* ------------------------------------------------------------------ */
/* English's three-move deck (data/openings/english_3move_156.tsv)      */

/* Play the space-separated moves of line from the start of g into pos;
 * fails the test naming the move the game refuses. Returns the count. */
static int play_line(const Game *g, const char *line, Position *pos)
{
    parse_fen_or_fail(g, g->start_fen, pos);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", line);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save), n++) {
        Move m;
        char err[ERR_MAX] = "";
        if (g->move_from_str(pos, tok, &m, err) != 0) {
            print_error("%s: move %d '%s' refused: %s\n", line, n + 1, tok, err);
            fail();
        }
        Position child;
        g->make_move(pos, &m, &child);
        *pos = child;
    }
    return n;
}

/* Every line of the deck is the position its label's three moves reach
 * from the start; 156 distinct positions; all seven first moves dealt;
 * the 18 barred openings of its header are legal three-move lines that
 * the deck does not deal, and the 12 added in 2003 are in it. */
static void test_english_three_move_deck(void **state)
{
    (void)state;
    const Game *g = find("english");
    assert_string_equal(g->opening_book, "data/openings/english_3move_156.tsv");
    OpeningBook book = {0};
    char err[ERR_MAX] = "";
    if (openings_read(g, ENGLISH_BOOK, &book, err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    assert_int_equal(book.len, 156);
    int first_moves = 0; /* bit per first move's from-square 9..12 and to-square 13..16 */
    for (int i = 0; i < book.len; i++) {
        const char *moves = strchr(book.items[i].label, ':');
        assert_non_null(moves);
        char want_label[32];
        snprintf(want_label, sizeof want_label, "3-move %d:", i + 1);
        assert_memory_equal(book.items[i].label, want_label, strlen(want_label));
        Position pos;
        assert_int_equal(play_line(g, moves + 2, &pos), 3);
        char fen[FEN_MAX];
        g->pos_to_fen(&pos, fen);
        if (strcmp(fen, book.items[i].fen) != 0) {
            print_error("%s: the moves reach %s, the book says %s\n", book.items[i].label, fen, book.items[i].fen);
            fail();
        }
        for (int j = 0; j < i; j++) assert_string_not_equal(book.items[j].fen, book.items[i].fen);
        int from = atoi(moves + 2), to = atoi(strchr(moves + 2, '-') + 1);
        first_moves |= 1 << (from - 9) << (to - 13) * 4;
    }
    /* 9-13 9-14 10-14 10-15 11-15 11-16 12-16 */
    assert_int_equal(first_moves, (1 << 0) | (1 << 4) | (1 << 5) | (1 << 9) | (1 << 10) | (1 << 14) | (1 << 15));

    FILE *f = fopen(ENGLISH_BOOK, "r");
    assert_non_null(f);
    char line[512];
    int section = 0, added = 0, barred = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '#') break;
        if (strstr(line, "added in 2003")) section = 1;
        else if (strstr(line, "Barred")) section = 2;
        else if (section && strncmp(line, "#   ", 4) == 0) {
            line[strcspn(line, "\n")] = '\0';
            Position pos;
            assert_int_equal(play_line(g, line + 4, &pos), 3);
            char fen[FEN_MAX];
            g->pos_to_fen(&pos, fen);
            bool dealt = false;
            for (int i = 0; i < book.len; i++) dealt = dealt || strcmp(fen, book.items[i].fen) == 0;
            if (dealt != (section == 1)) {
                print_error("'%s' is %s the deck\n", line + 4, dealt ? "in" : "not in");
                fail();
            }
            section == 1 ? added++ : barred++;
        }
    }
    fclose(f);
    assert_int_equal(added, 12);
    assert_int_equal(barred, 18);
    openings_free(&book);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_book_examples),   cmocka_unit_test(test_rule_cases),
        cmocka_unit_test(test_perft_published), cmocka_unit_test(test_properties),
        cmocka_unit_test(test_draw_rules),      cmocka_unit_test(test_bad_positions),
        cmocka_unit_test(test_notation_round_trip), cmocka_unit_test(test_english_three_move_deck),
        cmocka_unit_test(test_capture_mark_on_step),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
