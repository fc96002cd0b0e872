/* test_pdn.c — PDN reader, replay and writer (pdn/pdn.h).
 *
 * Expected token lists, lines and move numbers below are read off the test
 * texts by hand. The 1950 file's figures: 153 games (153 [White tags), and
 * game 1 ends "31. h4:f6 1-0" — 30 full moves and one White move = 61 plies.
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
#include "engine/game_record.h"
#include "pdn/pdn.h"

#define FILE_1950 DAMA_SOURCE_DIR "/data/games/russian_ussr_ch10_1950.pdn"

static const Game *russian(void)
{
    const Game *g = game_find("russian");
    assert_non_null(g);
    return g;
}

/* A reader over a copy of `text` (len bytes; -1: strlen). */
typedef struct StrReader {
    FILE *in;
    PdnReader *r;
} StrReader;

static StrReader open_text(const char *text, long len)
{
    StrReader s;
    size_t size = len < 0 ? strlen(text) : (size_t)len;
    s.in = tmpfile();
    assert_non_null(s.in);
    assert_int_equal(fwrite(text, 1, size, s.in), size);
    rewind(s.in);
    s.r = pdn_reader_new(s.in, "t.pdn");
    assert_non_null(s.r);
    return s;
}

static void close_text(StrReader *s)
{
    pdn_reader_free(s->r);
    fclose(s->in);
}

/* ------------------------------------------------------------------ */
/* Tokenizer                                                           */

typedef struct ExpectToken {
    PdnTokenKind kind;
    const char *text;
    const char *value;
    long number;
    int dots;
    long line;
} ExpectToken;

static void check_tokens(const char *text, long len, const ExpectToken *want, int want_len)
{
    StrReader s = open_text(text, len);
    char err[ERR_MAX] = "";
    for (int i = 0; i < want_len; i++) {
        PdnToken tok;
        int rc = pdn_read_token(s.r, &tok, err);
        if (rc != 1) print_error("token %d: rc %d, %s\n", i, rc, err);
        assert_int_equal(rc, 1);
        if (tok.kind != want[i].kind || strcmp(tok.text, want[i].text) != 0 ||
            strcmp(tok.value, want[i].value) != 0 || tok.number != want[i].number || tok.dots != want[i].dots ||
            tok.line != want[i].line) {
            print_error("token %d: kind %d text '%s' value '%s' number %ld dots %d line %ld; expected %d '%s' '%s' "
                        "%ld %d %ld\n",
                        i, tok.kind, tok.text, tok.value, tok.number, tok.dots, tok.line, want[i].kind, want[i].text,
                        want[i].value, want[i].number, want[i].dots, want[i].line);
            fail();
        }
    }
    PdnToken tok;
    assert_int_equal(pdn_read_token(s.r, &tok, err), 0);
    close_text(&s);
}

static void test_tokens_full(void **state)
{
    (void)state;
    /* BOM, CRLF, Cyrillic and escaped quotes in tags, a comment over two
     * lines, annotations glued and free-standing, a NAG, nested variations
     * with a ')' inside a comment, a ';' comment, a glued move number. */
    const char *text = "\xEF\xBB\xBF[Event \"\xD0\xA7\xD0\xB5\xD0\xBC\xD0\xBF \\\"\xD0\xA1\xD0\xA1\xD0\xA1\xD0\xA0\\\" "
                       "1950\"]\r\n"
                       "[White \"\xD0\x91\xD0\xBB\xD0\xB8\xD0\xBD\xD0\xB4\xD0\xB5\xD1\x80 \xD0\x91.\"]\r\n"
                       "\r\n"
                       "1. c3-d4 {a comment\r\nover two lines} d6-e5! 2.b2-c3 $14 (2. e3-f4 (2... e5xg3) {)}) "
                       "e7-d6?! ; rest of line\r\n"
                       "3... c7xe5 !? 22x15+ 1/2-1/2\r\n";
    const ExpectToken want[] = {
        {PDN_TOKEN_TAG, "Event", "\xD0\xA7\xD0\xB5\xD0\xBC\xD0\xBF \"\xD0\xA1\xD0\xA1\xD0\xA1\xD0\xA0\" 1950", 0, 0, 1},
        {PDN_TOKEN_TAG, "White", "\xD0\x91\xD0\xBB\xD0\xB8\xD0\xBD\xD0\xB4\xD0\xB5\xD1\x80 \xD0\x91.", 0, 0, 2},
        {PDN_TOKEN_MOVE_NUMBER, "", "", 1, 1, 4},
        {PDN_TOKEN_MOVE, "c3-d4", "", 0, 0, 4},
        {PDN_TOKEN_COMMENT, "a comment\r\nover two lines", "", 0, 0, 4},
        {PDN_TOKEN_MOVE, "d6-e5", "!", 0, 0, 5},
        {PDN_TOKEN_MOVE_NUMBER, "", "", 2, 1, 5},
        {PDN_TOKEN_MOVE, "b2-c3", "", 0, 0, 5},
        {PDN_TOKEN_NAG, "", "", 14, 0, 5},
        {PDN_TOKEN_VARIATION, "", "", 0, 0, 5},
        {PDN_TOKEN_MOVE, "e7-d6", "?!", 0, 0, 5},
        {PDN_TOKEN_COMMENT, " rest of line", "", 0, 0, 5},
        {PDN_TOKEN_MOVE_NUMBER, "", "", 3, 3, 6},
        {PDN_TOKEN_MOVE, "c7xe5", "", 0, 0, 6},
        {PDN_TOKEN_ANNOTATION, "", "!?", 0, 0, 6},
        {PDN_TOKEN_MOVE, "22x15", "", 0, 0, 6},
        {PDN_TOKEN_RESULT, "1/2-1/2", "", 0, 0, 6},
    };
    check_tokens(text, -1, want, (int)(sizeof want / sizeof want[0]));
}

static void test_tokens_results_and_lines(void **state)
{
    (void)state;
    /* Every result form; "10-14" is a numeric move, not a result. Lines end
     * with LF, CR and CRLF; a '%' line is skipped. */
    const char *text = "1-0\n0-1\r1/2-1/2\r\n2-0 0-2\n%escaped line\n1-1 0-0 * 10-14 c3-d4* 1.22-18";
    const ExpectToken want[] = {
        {PDN_TOKEN_RESULT, "1-0", "", 0, 0, 1},     {PDN_TOKEN_RESULT, "0-1", "", 0, 0, 2},
        {PDN_TOKEN_RESULT, "1/2-1/2", "", 0, 0, 3}, {PDN_TOKEN_RESULT, "2-0", "", 0, 0, 4},
        {PDN_TOKEN_RESULT, "0-2", "", 0, 0, 4},     {PDN_TOKEN_RESULT, "1-1", "", 0, 0, 6},
        {PDN_TOKEN_RESULT, "0-0", "", 0, 0, 6},     {PDN_TOKEN_RESULT, "*", "", 0, 0, 6},
        {PDN_TOKEN_MOVE, "10-14", "", 0, 0, 6},     {PDN_TOKEN_MOVE, "c3-d4", "", 0, 0, 6},
        {PDN_TOKEN_MOVE_NUMBER, "", "", 1, 1, 6},   {PDN_TOKEN_MOVE, "22-18", "", 0, 0, 6},
    };
    check_tokens(text, -1, want, (int)(sizeof want / sizeof want[0]));

    static const struct {
        const char *text;
        Outcome outcome;
    } RESULTS[] = {
        {"1-0", OUTCOME_WHITE_WINS}, {"2-0", OUTCOME_WHITE_WINS}, {"0-1", OUTCOME_BLACK_WINS},
        {"0-2", OUTCOME_BLACK_WINS}, {"1/2-1/2", OUTCOME_DRAW},   {"1-1", OUTCOME_DRAW},
        {"0-0", OUTCOME_DRAW},       {"*", OUTCOME_NONE},
    };
    for (size_t i = 0; i < sizeof RESULTS / sizeof RESULTS[0]; i++) {
        Outcome o = OUTCOME_NONE;
        assert_int_equal(pdn_result_parse(RESULTS[i].text, &o), 0);
        assert_int_equal(o, RESULTS[i].outcome);
    }
    Outcome o;
    assert_int_equal(pdn_result_parse("1-2", &o), -1);
    assert_int_equal(pdn_result_parse("", &o), -1);
}

/* ------------------------------------------------------------------ */
/* Syntax errors: message names the file, the line and the game         */

static void test_syntax_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *want; /* the whole message must start with this */
        long len;         /* bytes of text when it holds a NUL, else 0 */
    } CASES[] = {
        {"[Event \"x\"]\n[Site \"Moscow]\n1. c3-d4 *\n",
         "t.pdn:2 (game 1): tag [Site \"Moscow]: the value has no closing '\"' on its line", 0},
        {"[Event x]\n", "t.pdn:1 (game 1): tag [Event: the value must be in double quotes", 0},
        {"[Event \"x\"\n", "t.pdn:1 (game 1): tag [Event \"x\": ']' expected after the value", 0},
        {"[ \"x\"]\n", "t.pdn:1 (game 1): a tag name must follow '['", 0},
        {"[Event \"x\"]\n\n1. c3-d4 {oops\n2. d4-c5 *\n", "t.pdn:3 (game 1): comment '{' opened here is not closed by '}'", 0},
        {"[Event \"x\"]\n1. c3-d4 {oops\n*\n\n[Event \"y\"]\n1. c3-d4 {ok} *\n",
         "t.pdn:2 (game 1): comment '{' opened here is not closed before the tag pair on line 5", 0},
        {"1. c3-d4 (1... d6-c5 (1... b6-a5)\n*", "t.pdn:1 (game 1): variation '(' opened here is not closed by ')'", 0},
        {"[Event \"x\"]\n1. c3-d4 *\n\n[Event \"y\"]\n1. c3-d4 } *\n",
         "t.pdn:5 (game 2): unexpected '}' (no matching opening bracket or tag)", 0},
        {"1. c3-d4 $ *", "t.pdn:1 (game 1): '$' must be followed by a NAG number", 0},
        {"[Event \"x\"]\n1. c3-d4\x01 *", "t.pdn:2 (game 1): byte 0x01 is not PDN text", 0},
        /* a control byte inside a tag: a NUL cut the value short unseen (this FEN was read as W:Wc3:Bf6) */
        {"[FEN \"W:Wc3:Bf6\0junk\"]\n1. c3-d4 *\n", "t.pdn:1 (game 1): byte 0x00 is not PDN text", 34},
        {"[Event \"a\001b\"]\n1. c3-d4 *\n", "t.pdn:1 (game 1): byte 0x01 is not PDN text", 0},
        /* UTF-16, with its byte-order mark or without (it said 'a tag name must follow [') */
        {"\xff\xfe[\0E\0v\0", "t.pdn:1 (game 1): the input is UTF-16 (byte-order mark FF FE): PDN is read as UTF-8", 8},
        {"\xfe\xff\0[\0E\0v", "t.pdn:1 (game 1): the input is UTF-16 (byte-order mark FE FF)", 8},
        {"[\0E\0v\0", "t.pdn:1 (game 1): byte 0x00 is not PDN text (is this a PDN file? UTF-16 text has them", 6},
        /* a file cut short inside a tag pair (it said the value must be in double quotes) */
        {"[Event \"x\"]\n[Even", "t.pdn:2 (game 1): the input ends inside the tag [Even", 0},
        {"[Event \"x\"]\n[Event \"Mosc", "t.pdn:2 (game 1): the input ends inside the value of tag [Event \"Mosc", 0},
        {"[Event \"x\"]\n[Event \"y\"", "t.pdn:2 (game 1): the input ends inside the tag [Event \"y\" (no ']')", 0},
        {"[Event \"x\"]\n[", "t.pdn:2 (game 1): the input ends after '['", 0},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        StrReader s = open_text(CASES[i].text, CASES[i].len ? CASES[i].len : -1);
        PdnGame g;
        pdn_game_init(&g);
        char err[ERR_MAX] = "";
        int rc;
        while ((rc = pdn_read_game(s.r, &g, err)) == 1) continue;
        if (rc != -1 || strncmp(err, CASES[i].want, strlen(CASES[i].want)) != 0) {
            print_error("case %zu: rc %d, message '%s'\n  expected '%s...'\n", i, rc, err, CASES[i].want);
            fail();
        }
        pdn_game_free(&g);
        close_text(&s);
    }
}

/* ------------------------------------------------------------------ */
/* Splitting into games                                                 */

static void test_split_games(void **state)
{
    (void)state;
    /* Game 1 has no result (ends at the next tag section), game 2 has no
     * tags, a comment between games and at the end makes no game. */
    const char *text = "{header comment}\n[Event \"one\"]\n1. c3-d4 d6-c5 2. b2-c3\n"
                       "[Event \"two\"]\n[Result \"0-1\"]\n1. c3-d4 0-1\n"
                       "{between}\n1. e3-f4 b6-a5 *\n"
                       "{trailing comment}\n";
    StrReader s = open_text(text, -1);
    PdnGame g;
    pdn_game_init(&g);
    char err[ERR_MAX];
    assert_int_equal(pdn_read_game(s.r, &g, err), 1);
    assert_int_equal(g.index, 1);
    assert_int_equal(g.line, 2);
    assert_string_equal(pdn_game_tag(&g, "event"), "one");
    assert_int_equal(g.moves_len, 3);
    assert_string_equal(g.moves[2].text, "b2-c3");
    assert_int_equal(g.moves[2].number, 2);
    assert_int_equal(g.moves[2].line, 3);
    assert_string_equal(g.result, "");

    assert_int_equal(pdn_read_game(s.r, &g, err), 1);
    assert_int_equal(g.index, 2);
    assert_int_equal(g.line, 4);
    assert_string_equal(pdn_game_tag(&g, "Event"), "two");
    assert_int_equal(pdn_game_tag_line(&g, "Result"), 5);
    assert_int_equal(g.moves_len, 1);
    assert_string_equal(g.result, "0-1");
    assert_int_equal(g.result_line, 6);

    assert_int_equal(pdn_read_game(s.r, &g, err), 1);
    assert_int_equal(g.index, 3);
    assert_int_equal(g.tags_len, 0);
    assert_int_equal(g.moves_len, 2);
    assert_string_equal(g.result, "*");

    assert_int_equal(pdn_read_game(s.r, &g, err), 0);
    pdn_game_free(&g);
    close_text(&s);
}

/* Input larger than the reader's chunk: a 100 kB comment, a token across
 * a chunk boundary, a BOM in the middle (two files concatenated). */
static void test_large_input(void **state)
{
    (void)state;
    const char *tiny = "[GameType \"25\"]\n[FEN \"W:Wc3,e1:Bd4,f6,b6\"]\n\n1. c3xg7 b6-a5 2. g7-h8 a5-b4 1-0\n";
    size_t cap = 1 << 22, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)sprintf(text + len, "{");
    memset(text + len, 'x', 100000);
    len += 100000;
    len += (size_t)sprintf(text + len, "}\n");
    int games = 3000;
    for (int i = 0; i < games; i++) {
        if (i == games / 2) len += (size_t)sprintf(text + len, "\xEF\xBB\xBF");
        len += (size_t)sprintf(text + len, "%s\n", tiny);
    }
    assert_true(len < cap);
    StrReader s = open_text(text, (long)len);
    PdnGame g;
    pdn_game_init(&g);
    PdnReplay rep;
    char err[ERR_MAX];
    int n = 0, rc;
    while ((rc = pdn_read_game(s.r, &g, err)) == 1) {
        n++;
        assert_int_equal(pdn_replay_game(&g, NULL, &rep), 0);
        assert_int_equal(rep.plies, 4);
    }
    assert_int_equal(rc, 0);
    assert_int_equal(n, games);
    pdn_game_free(&g);
    close_text(&s);
    free(text);
}

/* ------------------------------------------------------------------ */
/* Replay                                                              */

/* Read the single game of `text` and replay it with Russian as fallback. */
static int replay_text(const char *text, PdnReplay *rep)
{
    StrReader s = open_text(text, -1);
    PdnGame g;
    pdn_game_init(&g);
    char err[ERR_MAX];
    int rc = pdn_read_game(s.r, &g, err);
    if (rc != 1) print_error("%s\n", err);
    assert_int_equal(rc, 1);
    rc = pdn_replay_game(&g, russian(), rep);
    pdn_game_free(&g);
    close_text(&s);
    return rc;
}

static void canonical_fen(const char *fen, char out[FEN_MAX])
{
    Position pos;
    char err[ERR_MAX];
    assert_int_equal(russian()->pos_from_fen(&pos, fen, err), 0);
    russian()->pos_to_fen(&pos, out);
}

static void test_replay_tiny(void **state)
{
    (void)state;
    /* 'x' separators, the short capture c3xg7 (= c3:e5:g7), a numeric move
     * (31-26 = e1-d2), the file-of-origin forms bc3 and d:b4. */
    const char *text = "[Event \"tiny\"]\n[GameType \"25\"]\n[FEN \"W:Wc3,e1:Bd4,f6,b6\"]\n[Result \"2-0\"]\n\n"
                       "1. c3xg7 b6-a5 2. g7-h8 a5-b4 3. 31-26 bc3 4. d:b4 1-0\n";
    PdnReplay rep;
    assert_int_equal(replay_text(text, &rep), 0);
    assert_ptr_equal(rep.game, russian());
    assert_int_equal(rep.plies, 7);
    assert_int_equal(rep.fail_move, -1);
    assert_string_equal(rep.error, "");
    assert_string_equal(rep.warning, ""); /* 2-0 agrees with 1-0 */
    char want[FEN_MAX];
    canonical_fen("B:WKh8,b4:B", want);
    assert_string_equal(rep.fen, want);

    /* Black to move first, no move numbers at all, GameType with its
     * optional fields. */
    assert_int_equal(replay_text("[GameType \"25,W,8,8,A0,0\"]\n[FEN \"B:W21,22:B9\"]\n9-13 22-18 *", &rep), 0);
    assert_int_equal(rep.plies, 2);
}

/* The long GameType's board must be the game's: International's 20 on
 * 10x10, an 8x8 game's number on 8x8; fields left out are not checked. */
static void test_gametype_board(void **state)
{
    (void)state;
    PdnReplay rep;
    assert_int_equal(replay_text("[GameType \"20,W,10,10,N2,0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *", &rep), 0);
    assert_string_equal(rep.game->name, "international");
    assert_int_equal(rep.plies, 4);
    assert_int_equal(replay_text("[GameType \"20,W\"]\n\n1. 32-28 *", &rep), 0);
    /* a long form's fields, each as far as given, well-formed: "25,banana" is no board */
    assert_int_equal(replay_text("[GameType \"25,banana\"]\n\n1. c3-d4 *", &rep), -1);
    assert_non_null(strstr(rep.error, "GameType tag \"25,banana\" (line 1): the long form is type,first mover"));
    assert_int_equal(replay_text("[GameType \"25,W,8,8,A0,2\"]\n\n1. c3-d4 *", &rep), -1);
    assert_int_equal(replay_text("[GameType \"25,W,8,8,A0,0,1\"]\n\n1. c3-d4 *", &rep), -1);
    assert_int_equal(replay_text("[GameType \"25,W,8,x\"]\n\n1. c3-d4 *", &rep), -1);
    assert_int_equal(replay_text("[GameType \"25, W ,8,8\"]\n\n1. c3-d4 *", &rep), 0);
    /* the first mover must be the game's: colours read the wrong way round otherwise */
    assert_int_equal(replay_text("[GameType \"25, B ,8,8\"]\n\n1. c3-d4 *", &rep), -1);
    assert_string_equal(rep.error, "GameType \"25, B ,8,8\" (line 1) says Black moves first, but in Russian draughts "
                                   "(GameType 25) White does");
    assert_int_equal(replay_text("[GameType \"21,B,8,8,N1,0\"]\n\n1. 9-14 *", &rep), 0);
    assert_string_equal(rep.game->name, "english");
    assert_int_equal(replay_text("[GameType \"21,W\"]\n\n1. 9-14 *", &rep), -1);
    assert_int_equal(replay_text("[GameType \"20,W,8,8,N2,0\"]\n\n1. 32-28 *", &rep), -1);
    assert_string_equal(rep.error, "GameType \"20,W,8,8,N2,0\" (line 1) gives the board 8x8, but International draughts "
                                   "(GameType 20) is played on 10x10");
    assert_int_equal(replay_text("[GameType \"26,W,10,10,N2,0\"]\n\n1. 22-18 *", &rep), -1);
    assert_non_null(strstr(rep.error, "gives the board 10x10, but Brazilian draughts (GameType 26) is played on 8x8"));
    assert_int_equal(replay_text("[GameType \"30,W,8,8,A0,0\"]\n\n1. c3-c4 *", &rep), 0);
    assert_string_equal(rep.game->name, "turkish");
    /* blanks after the number, nothing else: "25 30" and "25 x" were read as 25 */
    assert_int_equal(replay_text("[GameType \"25 \"]\n\n1. c3-d4 *", &rep), 0);
    assert_int_equal(replay_text("[GameType \"25 ,W,8,8,A0,0\"]\n\n1. c3-d4 *", &rep), 0);
    assert_int_equal(replay_text("[GameType \"25 30\"]\n\n1. c3-d4 *", &rep), -1);
    assert_string_equal(rep.error, "GameType tag \"25 30\" (line 1) is not a game number");
    assert_int_equal(replay_text("[GameType \"25 x\"]\n\n1. c3-d4 *", &rep), -1);
    assert_string_equal(rep.error, "GameType tag \"25 x\" (line 1) is not a game number");
}

static void test_replay_broken(void **state)
{
    (void)state;
    /* White's 3rd move: no piece on c1. */
    const char *text = "[FEN \"W:Wc3,e1:Bd4,f6,b6\"]\n\n1. c3xg7 b6-a5\n2. g7-h8 a5-b4\n3. c1-d2 b4-a3 1-0\n";
    PdnReplay rep;
    assert_int_equal(replay_text(text, &rep), -1);
    assert_int_equal(rep.plies, 4);
    assert_int_equal(rep.fail_move, 4);
    assert_int_equal(rep.fail_number, 3);
    assert_false(rep.fail_black);
    char fen[FEN_MAX];
    canonical_fen("W:WKh8,e1:Bb4", fen);
    assert_string_equal(rep.fen, fen);
    char want[PDN_MESSAGE_MAX];
    snprintf(want, sizeof want, "cannot play 3. c1-d2 (ply 5, line 5) in position %s: illegal move 'c1-d2'", fen);
    assert_string_equal(rep.error, want);

    /* Black's 2nd move, and a capture refused: it is compulsory. */
    assert_int_equal(replay_text("1. c3-d4 f6-g5 2. d4-c5 g5-h4 *", &rep), -1);
    assert_int_equal(rep.fail_move, 3);
    assert_int_equal(rep.fail_number, 2);
    assert_true(rep.fail_black);
    assert_non_null(strstr(rep.error, "cannot play 2... g5-h4 (ply 4, line 1) in position B:"));
    assert_non_null(strstr(rep.error, "(a capture is compulsory: "));

    /* Numbers written only now and then: a move without one is counted on
     * from the move before it, a new number at each move of White (the
     * first mover). Ply 3 is move 2, not move 1. */
    assert_int_equal(replay_text("1. c3-d4 f6-g5 d4-c9 *", &rep), -1);
    assert_int_equal(rep.fail_move, 2);
    assert_int_equal(rep.fail_number, 2);
    assert_false(rep.fail_black);
    assert_non_null(strstr(rep.error, "cannot play 2. d4-c9 (ply 3, line 1) in position W:"));
    assert_int_equal(replay_text("1. c3-d4 f6-g5 d4-c5 g5-h9 *", &rep), -1);
    assert_int_equal(rep.fail_number, 2);
    assert_true(rep.fail_black);
    assert_non_null(strstr(rep.error, "cannot play 2... g5-h9 (ply 4, line 1) in position B:"));
    assert_int_equal(replay_text("5. c3-d4 f6-g5 g3-h4 b6-a5 h4-f9 *", &rep), -1);
    assert_int_equal(rep.fail_number, 7);
    assert_non_null(strstr(rep.error, "cannot play 7. h4-f9 (ply 5, line 1)"));
    /* a written number counts for the move after it: Black's, after "1..." */
    assert_int_equal(replay_text("[FEN \"B:Wc3:Bf6,b6\"]\n1... f6-g5 c3-d4 g5-h9 *", &rep), -1);
    assert_int_equal(rep.fail_number, 2);
    assert_non_null(strstr(rep.error, "cannot play 2... g5-h9 (ply 3, line 2)"));

    /* English draughts: Black moves first, so White's moves are the
     * second of each pair ("2... 22-18"), counted without move numbers. */
    assert_int_equal(replay_text("[GameType \"21\"]\n11-15 23-19 8-11 22-17 9-13 31-27 *", &rep), -1);
    assert_int_equal(rep.fail_move, 5);
    assert_int_equal(rep.fail_number, 3);
    assert_false(rep.fail_black);
    assert_non_null(strstr(rep.error, "cannot play 3... 31-27 (ply 6, line 2) in position W:"));
    assert_int_equal(replay_text("[GameType \"21\"]\n[FEN \"W:W21-32:B1-12\"]\n22-18 11-15 18-14 *", &rep), -1);
    assert_int_equal(rep.fail_number, 2);
    assert_false(rep.fail_black);
    assert_non_null(strstr(rep.error, "cannot play 2... 18-14 (ply 3, line 3)"));

    /* Set-up failures. */
    assert_int_equal(replay_text("[Event \"x\"]\n[GameType \"40\"]\n1. 32-28 *", &rep), -1);
    assert_null(rep.game);
    /* the list of known games grows with the registry */
    assert_non_null(strstr(rep.error, "GameType 40 (line 2) is not a game dama plays (known: 25 russian"));
    assert_int_equal(replay_text("[GameType \"draughts\"]\n*", &rep), -1);
    assert_non_null(strstr(rep.error, "GameType tag \"draughts\" (line 1) is not a game number"));
    assert_int_equal(replay_text("[Event \"x\"]\n[FEN \"W:Wz9:B1\"]\n1. c3-d4 *", &rep), -1);
    assert_non_null(strstr(rep.error, "FEN tag (line 2): "));
}

static void test_replay_result_warning(void **state)
{
    (void)state;
    PdnReplay rep;
    assert_int_equal(replay_text("[Result \"1-0\"]\n1. c3-d4 d6-c5\n0-1", &rep), 0);
    assert_string_equal(rep.warning, "Result tag \"1-0\" (line 1) differs from the movetext result \"0-1\" (line 3)");
    assert_int_equal(replay_text("[Result \"1/2-1/2\"]\n1. c3-d4 1-1", &rep), 0);
    assert_string_equal(rep.warning, "");
    assert_int_equal(replay_text("[Result \"won\"]\n1. c3-d4 1-0", &rep), 0);
    assert_string_equal(rep.warning, "Result tag \"won\" (line 1) is not a result");

    /* a movetext without its result: a game cut off at the end of a truncated file */
    assert_int_equal(replay_text("[Result \"1/2-1/2\"]\n\n1. c3-d4 d6-c5\n2. b2-c3 c7-d6", &rep), 0);
    assert_int_equal(rep.plies, 4);
    assert_string_equal(rep.warning, "no result after the last move (line 4): the game may be cut off (PDN ends every "
                                     "game with 1-0, 0-1, 1/2-1/2 or *; the Result tag (line 1) says \"1/2-1/2\")");
    assert_int_equal(replay_text("1. c3-d4", &rep), 0);
    assert_string_equal(rep.warning, "no result after the last move (line 1): the game may be cut off (PDN ends every "
                                     "game with 1-0, 0-1, 1/2-1/2 or *)");
    assert_int_equal(replay_text("[Event \"x\"]\n[Result \"1-0\"]\n", &rep), 0);
    assert_string_equal(rep.warning, "no moves and no result (the game starts at line 1): the game may be cut off "
                                     "(PDN ends every game with 1-0, 0-1, 1/2-1/2 or *; the Result tag (line 2) says "
                                     "\"1-0\")");
    /* "*" is a result (unknown): nothing to say */
    assert_int_equal(replay_text("[Result \"*\"]\n1. c3-d4 *", &rep), 0);
    assert_string_equal(rep.warning, "");
    /* two warnings are joined, neither lost: moves after the end (the kings' shuffle repeats the start a
     * third time after ply 8: D3 before D8's ten plies), and no result */
    assert_int_equal(replay_text("[FEN \"W:WKc1,Ke1:BKh8\"]\n1. c1-d2 h8-g7 2. d2-c1 g7-h8 3. c1-d2 h8-g7 "
                                 "4. d2-c1 g7-h8 5. c1-d2 h8-g7 6. d2-c1",
                                 &rep),
                     0);
    assert_string_equal(rep.warning, "the rules ended the game after ply 8 (D3); 3 more plies replayed; no result after "
                                     "the last move (line 2): the game may be cut off (PDN ends every game with 1-0, "
                                     "0-1, 1/2-1/2 or *)");
}

static void test_replay_game_tags(void **state)
{
    (void)state;
    PdnReplay rep;
    /* GameType and Variant name two games: the GameType's is played, and said so */
    assert_int_equal(replay_text("[GameType \"25\"]\n[Variant \"turkish\"]\n1. c3-d4 *", &rep), 0);
    assert_string_equal(rep.game->name, "russian");
    assert_string_equal(rep.game_warning, "GameType tag \"25\" (line 1, russian) and Variant tag \"turkish\" (line 2, "
                                          "turkish) name different games: read as russian, by the GameType");
    assert_int_equal(replay_text("[Variant \"Russian draughts\"]\n[GameType \"30\"]\n1. a3-a4 *", &rep), 0);
    assert_string_equal(rep.game->name, "turkish");
    assert_non_null(strstr(rep.game_warning, "Variant tag \"Russian draughts\" (line 1, russian)"));
    /* the same game by name or title, any case; a Variant dama does not know is not a game named */
    assert_int_equal(replay_text("[GameType \"25\"]\n[Variant \"Russian\"]\n1. c3-d4 *", &rep), 0);
    assert_string_equal(rep.game_warning, "");
    assert_int_equal(replay_text("[GameType \"30\"]\n[Variant \"turkish DRAUGHTS\"]\n1. a3-a4 *", &rep), 0);
    assert_string_equal(rep.game_warning, "");
    assert_int_equal(replay_text("[GameType \"25\"]\n[Variant \"Standard\"]\n1. c3-d4 *", &rep), 0);
    assert_string_equal(rep.game_warning, "");
    assert_int_equal(replay_text("[Variant \"turkish\"]\n1. a3-a4 *", &rep), 0);
    assert_string_equal(rep.game_warning, "");
    /* a Variant alone: by name or title too (it took only the lower-case name) */
    assert_int_equal(replay_text("[Variant \"Turkish draughts\"]\n1. a3-a4 *", &rep), 0);
    assert_int_equal(replay_text("[Variant \"Turkish\"]\n1. a3-a4 *", &rep), 0);
    assert_int_equal(replay_text("[Variant \"Russian draughts\"]\n1. c3-d4 *", &rep), 0);
    assert_int_equal(replay_text("[Variant \"Klingon\"]\n1. c3-d4 *", &rep), -1);
}

/* ------------------------------------------------------------------ */
/* Writer                                                              */

static void test_movetext(void **state)
{
    (void)state;
    PdnMovetext mt;
    assert_int_equal(pdn_movetext_init(&mt, COLOR_WHITE, COLOR_WHITE), 0);
    assert_string_equal(mt.text, "");
    const char *moves[] = {"c3-d4", "d6-c5", "b2-c3", "c5:e3"};
    for (int i = 0; i < 4; i++) assert_int_equal(pdn_movetext_append(&mt, moves[i]), 0);
    assert_string_equal(mt.text, "1. c3-d4 d6-c5 2. b2-c3 c5:e3");
    assert_int_equal(mt.len, strlen(mt.text));
    pdn_movetext_free(&mt);

    assert_int_equal(pdn_movetext_init(&mt, COLOR_BLACK, COLOR_WHITE), 0);
    for (int i = 0; i < 3; i++) assert_int_equal(pdn_movetext_append(&mt, moves[i]), 0);
    assert_string_equal(mt.text, "1... c3-d4 2. d6-c5 b2-c3");
    pdn_movetext_free(&mt);

    /* English draughts and Pool: Black moves first, and a move pair begins
     * with Black's move ("1. 11-15 23-19"); a text that begins with
     * White's move writes it "1... ". */
    const char *en[] = {"11-15", "23-19", "8-11", "22-17"};
    assert_int_equal(pdn_movetext_init(&mt, COLOR_BLACK, COLOR_BLACK), 0);
    for (int i = 0; i < 4; i++) assert_int_equal(pdn_movetext_append(&mt, en[i]), 0);
    assert_string_equal(mt.text, "1. 11-15 23-19 2. 8-11 22-17");
    pdn_movetext_free(&mt);
    assert_int_equal(pdn_movetext_init(&mt, COLOR_WHITE, COLOR_BLACK), 0);
    for (int i = 1; i < 4; i++) assert_int_equal(pdn_movetext_append(&mt, en[i]), 0);
    assert_string_equal(mt.text, "1... 23-19 2. 8-11 22-17");
    pdn_movetext_free(&mt);
}

/* The first mover of every game: Black in English draughts and Pool
 * checkers (their rule books), White elsewhere. */
static void test_first_mover(void **state)
{
    (void)state;
    for (const Game *const *g = game_list(); *g; g++) {
        bool black = strcmp((*g)->name, "english") == 0 || strcmp((*g)->name, "pool") == 0;
        assert_int_equal(game_first_mover(*g), black ? COLOR_BLACK : COLOR_WHITE);
    }
}

static void test_write_game(void **state)
{
    (void)state;
    PdnMovetext mt;
    assert_int_equal(pdn_movetext_init(&mt, COLOR_WHITE, COLOR_WHITE), 0);
    for (int i = 0; i < 60; i++) assert_int_equal(pdn_movetext_append(&mt, i % 2 ? "d6:f4:d2:b4" : "c3-d4"), 0);
    const PdnTag tags[] = {{"Event", "say \"hi\" \\o/", 0}, {"White", "\xD0\x91\xD0\xBB", 0}};
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(pdn_write_game(f, tags, 2, mt.text, "1-0"), 0);
    rewind(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "[Event \"say \\\"hi\\\" \\\\o/\"]\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "[White \"\xD0\x91\xD0\xBB\"]\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "1. c3-d4 d6:f4:d2:b4 2. c3-d4 d6:f4:d2:b4 3. c3-d4 d6:f4:d2:b4 4. c3-d4\n");
    int lines = 1;
    size_t total = strlen(line) - 1;
    while (fgets(line, sizeof line, f) && line[0] != '\n') {
        size_t n = strlen(line) - 1;
        assert_true(n <= PDN_LINE_WIDTH);
        assert_true(line[n - 1] != '.'); /* a move number stays with its move */
        total += n + 1;
        lines++;
    }
    assert_int_equal(total, mt.len + strlen(" 1-0")); /* only spaces became line breaks */
    assert_true(lines > 1);

    /* Read back. */
    rewind(f);
    PdnReader *r = pdn_reader_new(f, "w.pdn");
    PdnGame g;
    pdn_game_init(&g);
    char err[ERR_MAX];
    assert_int_equal(pdn_read_game(r, &g, err), 1);
    assert_string_equal(pdn_game_tag(&g, "Event"), "say \"hi\" \\o/");
    assert_int_equal(g.moves_len, 60);
    assert_string_equal(g.moves[59].text, "d6:f4:d2:b4");
    assert_int_equal(g.moves[59].number, 30);
    assert_string_equal(g.result, "1-0");
    assert_int_equal(pdn_read_game(r, &g, err), 0);
    pdn_game_free(&g);
    pdn_reader_free(r);
    fclose(f);
    pdn_movetext_free(&mt);
}

/* ------------------------------------------------------------------ */
/* The 1950 USSR championship file                                     */

static void test_file_1950(void **state)
{
    (void)state;
    const Game *ru = russian();
    FILE *in = fopen(FILE_1950, "rb");
    if (!in) {
        print_error("cannot open %s (data/games/ of the repository)\n", FILE_1950);
        fail();
    }
    PdnReader *r = pdn_reader_new(in, FILE_1950);
    PdnGame g;
    pdn_game_init(&g);
    PdnReplay rep, again;
    char err[ERR_MAX];
    FILE *out = tmpfile();
    assert_non_null(out);
    int games = 0, ok = 0, rc;
    while ((rc = pdn_read_game(r, &g, err)) == 1) {
        games++;
        assert_int_equal(g.index, games);
        /* the file numbers every move: White's move n is ply 2n-1 */
        for (int i = 0; i < g.moves_len; i++) assert_int_equal(g.moves[i].number, 1 + i / 2);
        if (pdn_replay_game(&g, ru, &rep) != 0) {
            print_error("game %d: %s\n", games, rep.error);
            continue;
        }
        assert_string_equal(rep.warning, "");
        assert_int_equal(rep.plies, g.moves_len);
        if (games == 1) {
            assert_int_equal(rep.plies, 61);
            assert_string_equal(pdn_game_tag(&g, "White"), "\xD0\x91\xD0\xBB\xD0\xB8\xD0\xBD\xD0\xB4\xD0\xB5\xD1\x80 "
                                                           "\xD0\x91.");
        }
        ok++;
        /* Write it again in full notation for the round trip below. */
        Position pos;
        assert_int_equal(game_parse_position(ru, pdn_game_tag(&g, "FEN"), &pos, err), 0);
        PdnMovetext mt;
        assert_int_equal(pdn_movetext_init(&mt, ru->side_to_move(&pos), COLOR_WHITE), 0);
        for (int i = 0; i < g.moves_len; i++) {
            Move m;
            Position child;
            char text[MOVE_STR_MAX];
            assert_int_equal(ru->move_from_str(&pos, g.moves[i].text, &m, err), 0);
            ru->move_to_str(&pos, &m, text);
            assert_int_equal(pdn_movetext_append(&mt, text), 0);
            ru->make_move(&pos, &m, &child);
            pos = child;
        }
        assert_int_equal(pdn_write_game(out, g.tags, g.tags_len, mt.text, g.result), 0);
        pdn_movetext_free(&mt);
    }
    if (rc < 0) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(games, 153);
    assert_int_equal(ok, 153);
    pdn_reader_free(r);

    /* Round trip: the rewritten file replays to the same final positions. */
    rewind(in);
    rewind(out);
    PdnReader *orig = pdn_reader_new(in, FILE_1950), *copy = pdn_reader_new(out, "copy.pdn");
    PdnGame h;
    pdn_game_init(&h);
    for (int i = 0; i < 153; i++) {
        assert_int_equal(pdn_read_game(orig, &g, err), 1);
        assert_int_equal(pdn_read_game(copy, &h, err), 1);
        assert_int_equal(pdn_replay_game(&g, ru, &rep), 0);
        assert_int_equal(pdn_replay_game(&h, ru, &again), 0);
        assert_int_equal(again.plies, rep.plies);
        assert_string_equal(again.fen, rep.fen);
        assert_string_equal(pdn_game_tag(&h, "Black"), pdn_game_tag(&g, "Black"));
    }
    assert_int_equal(pdn_read_game(copy, &h, err), 0);
    pdn_game_free(&g);
    pdn_game_free(&h);
    pdn_reader_free(orig);
    pdn_reader_free(copy);
    fclose(out);
    fclose(in);
}

static int setup(void **state)
{
    (void)state;
    game_init_all();
    return 0;
}

/* A stored game replayed as every reader of the database replays it */
static void test_stored_replay(void **state)
{
    (void)state;
    const Game *ru = game_find("russian");
    GameRecord rec;
    char err[ERR_MAX];
    const char *text = "1. c3-d4 f6-e5 {a comment} 2. d4:f6 (2. a3-b4) g7:e5 1-0";
    assert_int_equal(pdn_stored_replay(ru, NULL, text, 4, 0, &rec, err), 0);
    assert_int_equal(rec.len, 4);
    char last[MOVE_STR_MAX];
    game_record_move_text(&rec, 3, last);
    assert_string_equal(last, "g7:e5");
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, text, 4, 3, &rec, err), 0); /* the first max_plies */
    assert_int_equal(rec.len, 3);
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, "", 0, 0, &rec, err), 0);
    assert_int_equal(rec.len, 0);
    game_record_free(&rec);
    /* the row's plies: a movetext with other moves is damaged (also one cut short, or none: a NULL);
     * past max_plies the rest is not read */
    assert_int_equal(pdn_stored_replay(ru, NULL, text, 5, 0, &rec, err), -1);
    assert_string_equal(err, "its movetext holds 4 plies, the row says 5");
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, NULL, 40, 10, &rec, err), -1);
    assert_string_equal(err, "its movetext holds 0 plies, the row says 40");
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, text, 40, 3, &rec, err), 0);
    assert_int_equal(rec.len, 3);
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, text, 3, 0, &rec, err), -1);
    game_record_free(&rec);
    /* read to max_plies: more moves than the row says are damage too */
    assert_int_equal(pdn_stored_replay(ru, NULL, text, 2, 3, &rec, err), -1);
    assert_string_equal(err, "its movetext holds at least 3 plies, the row says 2");
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, text, 3, 3, &rec, err), 0);
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, "1. c3-d4 d4-e5", -1, 0, &rec, err), -1);
    assert_non_null(strstr(err, "ply 2: "));
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, "1. c3-d4 * f6-e5", -1, 0, &rec, err), -1);
    assert_string_equal(err, "'f6-e5' after the result '*' (line 1)");
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, "W:W:B", "", -1, 0, &rec, err), -1);
    assert_non_null(strstr(err, "start position: "));
    game_record_free(&rec);
    assert_int_equal(pdn_stored_replay(ru, NULL, "1. c3-d4 )", -1, 0, &rec, err), -1);
    game_record_free(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens_full),
        cmocka_unit_test(test_tokens_results_and_lines),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_split_games),
        cmocka_unit_test(test_large_input),
        cmocka_unit_test(test_replay_tiny),
        cmocka_unit_test(test_replay_broken),
        cmocka_unit_test(test_replay_result_warning), cmocka_unit_test(test_replay_game_tags),
        cmocka_unit_test(test_movetext),
        cmocka_unit_test(test_first_mover),
        cmocka_unit_test(test_gametype_board),
        cmocka_unit_test(test_write_game),
        cmocka_unit_test(test_file_1950),
        cmocka_unit_test(test_stored_replay),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
