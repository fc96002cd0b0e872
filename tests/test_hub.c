/* test_hub.c — the Hub protocol's line syntax, both the engine's strict
 * reading and the arena's lenient one; Hub's own strings for International
 * draughts (protocol/hub_notation.h) against the game's squares (the
 * sessions themselves are
 * tested by tests/cli/hub.sh; the clock's budget is the time manager's,
 * tests/test_timeman.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/games/draughts/draughts.h" /* the numbering, to check the captured squares independently */
#include "protocol/hub.h"
#include "protocol/hub_line.h"
#include "protocol/hub_notation.h"

typedef struct LineCase {
    const char *text;
    int rc;
    const char *command;
    int len;
    const char *args; /* "k=v|k=v" as parsed, or the error substring */
} LineCase;

static const LineCase LINE_CASES[] = {
    {"hub", 0, "hub", 0, ""},
    {"   ", 0, "", 0, ""},
    {"go think", 0, "go", 1, "think="},
    {"pos pos=W:Wa1,c3:Bb6 moves=\"c3-d4 b6-a5\"", 0, "pos", 2, "pos=W:Wa1,c3:Bb6|moves=c3-d4 b6-a5"},
    {"set-param name=variant value=\"\"", 0, "set-param", 2, "name=variant|value="},
    {"level  moves=9\ttime=291.587 inc=1\r", 0, "level", 3, "moves=9|time=291.587|inc=1"},
    {"pos pos=\"sqs/srs w 1-10,53-62 - - - 0 1\"", 0, "pos", 1, "pos=sqs/srs w 1-10,53-62 - - - 0 1"},
    {"id name=x author=\"A = B\"", 0, "id", 2, "name=x|author=A = B"},
    /* the messages, whole (a GUI sees them in "error message=...") */
    {"go think x=\"open", -1, NULL, 0, "argument 'x': unterminated quoted value"},
    {"go =x", -1, NULL, 0, "argument 1 has no name before '='"},
    {"go a=1 \"x\"", -1, NULL, 0, "argument 2 has no name before '\"'"},
    {"pos pos=\"a\"b", -1, NULL, 0, "argument 'pos': text after the closing quote"},
    {"pos pos=a\"b\"", -1, NULL, 0, "argument 'pos': a quote inside an unquoted value"},
    {"pos po\"s=1 x=2", -1, NULL, 0, "argument 1: a quote inside its name 'po\"s'"},
    {"set-param name=hash value=2 value=3", -1, NULL, 0, "argument 3: 'value' given twice"},
    {"go k=\"0123456789012345678901234567890123456789xyz", -1, NULL, 0,
     "argument 'k': unterminated quoted value"},
    {"go 0123456789012345678901234567890123456789xyz=\"v", -1, NULL, 0,
     "argument '0123456789012345678901234567890123456789': unterminated quoted value"},
};

static void test_parse_line(void **state)
{
    (void)state;
    HubLine *l = malloc(sizeof *l);
    assert_non_null(l);
    for (size_t c = 0; c < sizeof LINE_CASES / sizeof LINE_CASES[0]; c++) {
        const LineCase *t = &LINE_CASES[c];
        char err[ERR_MAX] = "";
        int rc = hub_parse_line(t->text, l, err);
        if (rc != t->rc) fail_msg("case %zu '%s': rc %d (%s)", c, t->text, rc, err);
        if (rc != 0) {
            if (!strstr(err, t->args)) fail_msg("case %zu: message '%s' lacks '%s'", c, err, t->args);
            continue;
        }
        assert_string_equal(l->command, t->command);
        assert_int_equal(l->len, t->len);
        char got[512] = "";
        size_t n = 0;
        for (int i = 0; i < l->len; i++)
            n += (size_t)snprintf(got + n, sizeof got - n, "%s%s=%s", i ? "|" : "", l->keys[i], l->values[i]);
        assert_string_equal(got, t->args);
    }
    /* hub_arg: present, flag, absent */
    assert_int_equal(hub_parse_line("go ponder depth=3", l, (char[ERR_MAX]){0}), 0);
    assert_string_equal(hub_arg(l, "ponder"), "");
    assert_string_equal(hub_arg(l, "depth"), "3");
    assert_null(hub_arg(l, "think"));
    /* too many arguments, too long */
    char many[600] = "go";
    for (int i = 0; i < HUB_ARGS_MAX + 1; i++) sprintf(many + strlen(many), " a%d=1", i); /* each name once */
    char err[ERR_MAX];
    assert_int_equal(hub_parse_line(many, l, err), -1);
    assert_non_null(strstr(err, "more than"));
    char *longl = malloc(HUB_LINE_MAX + 10);
    memset(longl, 'x', HUB_LINE_MAX + 9);
    longl[HUB_LINE_MAX + 9] = '\0';
    assert_int_equal(hub_parse_line(longl, l, err), -1);
    assert_non_null(strstr(err, "longer than"));
    free(longl);
    free(l);
}

/* The tokenizer: one argument per line, its spans and its problem. */
typedef struct ArgCase {
    const char *text;
    HubArgProblem problem;
    const char *key, *value;
    const char *rest; /* where the cursor is left */
} ArgCase;

static const ArgCase ARG_CASES[] = {
    {"go k=v next", HUB_ARG_OK, "k", "v", "next"},
    {"go k next", HUB_ARG_OK, "k", "", "next"},
    {"go k=\"a b=c\" next", HUB_ARG_OK, "k", "a b=c", "next"},
    {"go k=", HUB_ARG_OK, "k", "", ""},
    {"go =v", HUB_ARG_NO_NAME, "", "v", ""},
    {"go \"k\"", HUB_ARG_NO_NAME, "\"k\"", "", ""},
    {"go k\"=1", HUB_ARG_QUOTE_IN_NAME, "k\"", "1", ""},
    {"go k=\"v w", HUB_ARG_UNTERMINATED, "k", "v w", ""},
    {"go k=\"v\"x=1", HUB_ARG_AFTER_QUOTE, "k", "v", "x=1"},
    {"go k=v\" next", HUB_ARG_QUOTE_IN_VALUE, "k", "v\"", "next"},
};

static void test_tokenizer(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof ARG_CASES / sizeof ARG_CASES[0]; c++) {
        const ArgCase *t = &ARG_CASES[c];
        const char *p = t->text, *command;
        assert_int_equal(hub_line_command(&p, &command), 2);
        assert_memory_equal(command, "go", 2);
        HubArg a;
        if (!hub_line_next(&p, &a)) fail_msg("case %zu '%s': no argument", c, t->text);
        if (a.problem != t->problem) fail_msg("case %zu '%s': problem %d, expected %d", c, t->text, a.problem, t->problem);
        assert_int_equal(a.key_len, strlen(t->key));
        assert_memory_equal(a.key, t->key, a.key_len);
        assert_int_equal(a.value_len, strlen(t->value));
        assert_memory_equal(a.value, t->value, a.value_len);
        assert_string_equal(p, t->rest);
    }
    const char *p = " \t", *command;
    assert_int_equal(hub_line_command(&p, &command), 0);
    HubArg a;
    assert_false(hub_line_next(&p, &a));
}

/* The arena's lenient reading of an engine's line: what the old reader of
 * arena/player.c gave, malformed arguments included. */
typedef struct ValueCase {
    const char *text, *key;
    size_t size;
    const char *value; /* NULL: absent */
} ValueCase;

static const ValueCase VALUE_CASES[] = {
    {"done move=c3-d4 ponder=f6-g5", "move", 64, "c3-d4"},
    {"done move=c3-d4 ponder=f6-g5", "ponder", 64, "f6-g5"},
    {"info depth=3 score=-0.25 pv=\"c3-d4 f6-g5\"", "pv", 64, "c3-d4 f6-g5"},
    {"info depth=3 score=-0.25 pv=\"c3-d4 f6-g5\"", "score", 64, "-0.25"},
    {"info score=0.1 pv=\"c3-d4", "pv", 64, "c3-d4"},       /* unterminated: to the end */
    {"info pv=\"a b\"score=0.5", "score", 64, "0.5"},      /* text after a quote: the next argument */
    {"info po\"s=1", "po\"s", 64, "1"},                    /* a quote in a name */
    {"info =5 nodes=7", "", 64, "5"},                       /* no name */
    {"done move=c3-d4\"", "move", 64, "c3-d4\""},          /* a quote in a value, kept */
    {"done move", "move", 64, ""},
    {"done", "move", 64, NULL},
    {"move x=1", "move", 64, NULL},                         /* the command word is not an argument */
    {"done move=abcdef", "move", 4, "abc"},                 /* cut to the buffer */
    {"done move=a move=b", "move", 64, "a"},                /* the first one */
};

static void test_lenient(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof VALUE_CASES / sizeof VALUE_CASES[0]; c++) {
        const ValueCase *t = &VALUE_CASES[c];
        char out[64] = "?";
        bool found = hub_line_value(t->text, t->key, out, t->size);
        if (found != (t->value != NULL)) fail_msg("case %zu '%s' key '%s': found %d", c, t->text, t->key, found);
        if (found) assert_string_equal(out, t->value);
    }
    assert_true(hub_line_is("done move=c3-d4", "done"));
    assert_true(hub_line_is("done", "done"));
    assert_true(hub_line_is("done\tmove=c3-d4", "done"));
    assert_false(hub_line_is("donex", "done"));
    assert_false(hub_line_is("don", "done"));
    assert_false(hub_line_is("info done", "done"));
    assert_false(hub_line_is("", "done"));
}

/* The captured squares of Hub text "AxB[xC...]" as a bitset (bit n-1 for
 * square n), -1 on a text that is not of that form. */
static int64_t text_caps(const char *t)
{
    int64_t caps = 0;
    const char *x = strchr(t, 'x');
    if (!x || !(x = strchr(x + 1, 'x'))) return 0;
    while (x && *x == 'x') {
        char *end;
        long n = strtol(x + 1, &end, 10);
        if (n < 1 || n > 50) return -1;
        caps |= INT64_C(1) << (n - 1);
        x = end;
    }
    return x && *x ? -1 : caps;
}

/* Random games of International (seeded, bounded): every position's Hub
 * string reads back as the same position, and every legal move's Hub text
 * names its start, end and captured squares as the board's numbering does
 * and reads back as the same move. */
static void test_international_strings(void **state)
{
    (void)state;
    const Game *g = game_find("international");
    assert_non_null(g);
    assert_true(hub_native(g));
    uint64_t rng = 12345;
    MoveList *list = malloc(sizeof *list);
    assert_non_null(list);
    int positions = 0, moves = 0, captures = 0, multi = 0;
    for (int game = 0; game < 12; game++) {
        Position pos;
        char err[ERR_MAX];
        assert_int_equal(game_parse_position(g, NULL, &pos, err), 0);
        for (int ply = 0; ply < 160 && g->gen_moves(&pos, list, GEN_DISTINCT) > 0; ply++) {
            char hub[HUB_POS_MAX], fen[FEN_MAX], fen0[FEN_MAX];
            assert_int_equal(hub_pos_string(g, &pos, hub, err), 0);
            assert_int_equal(strlen(hub), 51);
            assert_int_equal(hub_pos_to_fen(g, hub, fen, err), 1);
            Position back;
            assert_int_equal(g->pos_from_fen(&back, fen, err), 0);
            g->pos_to_fen(&pos, fen0);
            g->pos_to_fen(&back, fen);
            assert_string_equal(fen, fen0);
            assert_int_equal(g->hash(&back), g->hash(&pos));
            positions++;
            for (int i = 0; i < list->len; i++) {
                const Move *m = &list->moves[i];
                char t[MOVE_STR_MAX], want[16];
                hub_move_to_str(g, &pos, m, t);
                snprintf(want, sizeof want, "%d%c%d", draughts_number_of_square(NUMBERING_INTERNATIONAL, m->from),
                         m->kind == MOVE_CAPTURE ? 'x' : '-', draughts_number_of_square(NUMBERING_INTERNATIONAL, m->to));
                if (strncmp(t, want, strlen(want)) != 0) fail_msg("'%s' in %s does not start %s", t, fen0, want);
                int64_t caps = 0;
                for (uint64_t b = m->captured; b; b &= b - 1)
                    caps |= INT64_C(1) << (draughts_number_of_square(NUMBERING_INTERNATIONAL, __builtin_ctzll(b)) - 1);
                if (text_caps(t) != caps) fail_msg("'%s' in %s: captured squares differ from the move's", t, fen0);
                Move r;
                if (hub_move_from_str(g, &pos, t, &r, err) != 0) fail_msg("'%s' in %s: %s", t, fen0, err);
                assert_true(r.from == m->from && r.to == m->to && r.captured == m->captured && r.kind == m->kind);
                moves++;
                captures += m->kind == MOVE_CAPTURE;
                multi += __builtin_popcountll(m->captured) >= 2;
            }
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            Position child;
            g->make_move(&pos, &list->moves[rng % (uint64_t)list->len], &child);
            pos = child;
        }
    }
    free(list);
    print_message("international: %d positions, %d moves, %d captures (%d of two pieces or more)\n", positions, moves,
                  captures, multi);
    assert_true(captures > 100 && multi > 10); /* the captures were exercised */
}

/* Hub strings in the wrong place, and the other games' own notation. */
static void test_hub_strings_refused(void **state)
{
    (void)state;
    const Game *in = game_find("international"), *br = game_find("brazilian");
    char fen[FEN_MAX] = "untouched", err[ERR_MAX];
    assert_int_equal(hub_pos_to_fen(in, "W:W31:B1", fen, err), 0); /* a FEN: the game's to read */
    assert_int_equal(hub_pos_to_fen(in, "start", fen, err), 0);
    assert_int_equal(hub_pos_to_fen(in, NULL, fen, err), 0);
    assert_string_equal(fen, "untouched");
    assert_int_equal(hub_pos_to_fen(in, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", fen, err), -1);
    assert_non_null(strstr(err, "variant international is the side to move (W or B) and one letter per square "
                                "1-50 (w b W B e), 51 letters"));
    assert_non_null(strstr(err, "has 33 letters, too few"));
    char start[64] = "W";
    for (int i = 1; i <= 50; i++) start[i] = i <= 20 ? 'b' : i <= 30 ? 'e' : 'w';
    start[51] = '\0';
    assert_int_equal(hub_pos_to_fen(in, start, fen, err), 1);
    assert_string_equal(fen, "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,"
                             "12,13,14,15,16,17,18,19,20");
    /* a letter too many, the side in lower case, a bad square letter: what and where */
    char bad[64];
    snprintf(bad, sizeof bad, "%se", start);
    assert_int_equal(hub_pos_to_fen(in, bad, fen, err), -1);
    assert_non_null(strstr(err, "51 letters; 'Wbbbbbbbbbbbbbbbbbbb...' has 52 letters, too many"));
    snprintf(bad, sizeof bad, "w%s", start + 1);
    assert_int_equal(hub_pos_to_fen(in, bad, fen, err), -1);
    assert_non_null(strstr(err, "'wbbbbbbbbbbbbbbbbbbb...' has 'w' at letter 1 (the side to move), not W or B"));
    snprintf(bad, sizeof bad, "%s", start);
    bad[25] = 'x';
    assert_int_equal(hub_pos_to_fen(in, bad, fen, err), -1);
    assert_non_null(strstr(err, "has 'x' at letter 26 (square 25), not w b W B or e"));
    bad[25] = 'E'; /* case matters: Hub's empty square is 'e' */
    assert_int_equal(hub_pos_to_fen(in, bad, fen, err), -1);
    assert_non_null(strstr(err, "has 'E' at letter 26 (square 25)"));
    assert_int_equal(hub_pos_to_fen(in, "startpos", fen, err), 0); /* keywords stay the game's */
    assert_int_equal(hub_pos_to_fen(br, start, fen, err), -1);
    assert_non_null(strstr(err, "read for variant international only (51 characters"));
    assert_non_null(strstr(err, "variant brazilian takes"));
    /* an 8x8 game's moves are its own: Brazilian's 14x23 as the game writes it */
    assert_false(hub_native(br));
    Position pos;
    assert_int_equal(br->pos_from_fen(&pos, "B:W18:B14", err), 0);
    Move m;
    assert_int_equal(hub_move_from_str(br, &pos, "14x23", &m, err), 0);
    char t[MOVE_STR_MAX], own[MOVE_STR_MAX];
    hub_move_to_str(br, &pos, &m, t);
    br->move_to_str(&pos, &m, own);
    assert_string_equal(t, own);
}

int main(void)
{
    game_init_all();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_line),
        cmocka_unit_test(test_tokenizer),
        cmocka_unit_test(test_lenient),
        cmocka_unit_test(test_international_strings),
        cmocka_unit_test(test_hub_strings_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
