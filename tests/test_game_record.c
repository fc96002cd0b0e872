/* test_game_record.c — a game in progress: moves by text, undo, history,
 * and the end of the game reached by play (repetition and each game's draw
 * rules), table-driven. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game_record.h"

static const Game *game(const char *name)
{
    game_init_all();
    const Game *g = game_find(name);
    assert_non_null(g);
    return g;
}

/* A line of play and how it ends: the outcome appears after the last move
 * and not before. Sources: docs/rules/russian.md (D3 threefold, D8 king
 * against king not won in 5 moves), turkish.md (threefold, one piece each,
 * lone man), shatra.md section 7 (threefold, 60 quiet plies; the counter is
 * the position string's 7th field). */
typedef struct EndCase {
    const char *game;
    const char *fen;
    const char *moves;
    Outcome outcome;
    const char *reason;
} EndCase;

static const EndCase END_CASES[] = {
    {"russian", "W:WKc1,a1:BKf8,h8", "c1-d2 f8-e7 d2-c1 e7-f8 c1-d2 f8-e7 d2-c1 e7-f8", OUTCOME_DRAW, "D3"},
    /* Black's king takes White's on d4 at ply 2: king against king, drawn
     * when not won by the 5th move (10 plies later). */
    {"russian", "W:WKa1,Kc1:BKh8", "a1-d4 h8:c3 c1-h6 c3-b4 h6-c1 b4-e1 c1-e3 e1-h4 e3-c1 h4-g3 c1-b2 g3-c7",
     OUTCOME_DRAW, "D8"},
    {"russian", "W:Wc3:Bd4,h8", "c3:e5 h8-g7 e5-f6 g7:e5", OUTCOME_BLACK_WINS, "no-moves"},
    {"turkish", "W:WKa1,b3:BKh8,g6", "a1-b1 h8-h7 b1-a1 h7-h8 a1-b1 h8-h7 b1-a1 h7-h8", OUTCOME_DRAW, "repetition"},
    {"turkish", "W:Wd4:Bd5,h7", "d4:d6", OUTCOME_DRAW, "one-each"},
    {"turkish", "W:WKa2,d4:Bd5,h7", "d4:d6", OUTCOME_WHITE_WINS, "lone-man"},
    {"shatra", "3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 0 1",
     "46-39 17-23 39-46 23-17 46-39 17-23 39-46 23-17", OUTCOME_DRAW, "repetition"},
    {"shatra", "3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 58 40", "46-39 17-23", OUTCOME_DRAW, "quiet-60"},
    {"shatra", "3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 0 1", "53-8 17-16 8-7 16-23 7:31", OUTCOME_WHITE_WINS,
     "biy-captured"},
};

static void test_end_by_play(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof END_CASES / sizeof END_CASES[0]; c++) {
        const EndCase *t = &END_CASES[c];
        const Game *g = game(t->game);
        GameRecord r;
        char err[ERR_MAX];
        assert_int_equal(game_record_init(&r, g, t->fen, err), 0);
        char moves[512];
        snprintf(moves, sizeof moves, "%s", t->moves);
        int plies = 0;
        for (char *tok = strtok(moves, " "); tok; tok = strtok(NULL, " ")) {
            const char *reason = "x";
            assert_int_equal(game_record_outcome(&r, &reason, NULL), OUTCOME_NONE);
            assert_null(reason);
            if (game_record_apply_text(&r, tok, err) != 0) fail_msg("case %zu move %s: %s", c, tok, err);
            plies++;
        }
        const char *reason = NULL;
        Outcome o = game_record_outcome(&r, &reason, NULL);
        if (o != t->outcome || !reason || strcmp(reason, t->reason) != 0)
            fail_msg("case %zu (%s %s): got %s %s, expected %s %s", c, t->game, t->fen, outcome_pdn(o),
                     reason ? reason : "(none)", outcome_pdn(t->outcome), t->reason);
        assert_int_equal(r.len, plies);
        /* No move is accepted once the game is over. */
        MoveList list;
        g->gen_moves(game_record_position(&r), &list, GEN_DISTINCT);
        if (list.len > 0) {
            assert_int_equal(game_record_apply(&r, &list.moves[0], err), -1);
            assert_non_null(strstr(err, "game is over"));
            assert_int_equal(r.len, plies);
        }
        /* Undoing the last move reopens the game. */
        assert_int_equal(game_record_undo(&r, 1), 0);
        assert_int_equal(game_record_outcome(&r, &reason, NULL), OUTCOME_NONE);
        game_record_free(&r);
    }
}

/* The history handed to the search: the keys of every earlier position,
 * the parent last, each equal to a full recomputation. */
static void test_history_keys(void **state)
{
    (void)state;
    const char *names[] = {"russian", "turkish", "shatra"};
    for (int k = 0; k < 3; k++) {
        const Game *g = game(names[k]);
        GameRecord r;
        char err[ERR_MAX];
        assert_int_equal(game_record_init(&r, g, NULL, err), 0);
        Position pos;
        assert_int_equal(game_parse_position(g, NULL, &pos, err), 0);
        uint64_t expect[40];
        MoveList list;
        for (int i = 0; i < 40; i++) {
            const char *reason;
            if (game_record_outcome(&r, &reason, &list) != OUTCOME_NONE) break;
            expect[i] = g->hash_full(&pos);
            const Move *m = &list.moves[(unsigned)(i * 7) % (unsigned)list.len];
            Position next;
            g->make_move(&pos, m, &next);
            assert_int_equal(game_record_apply(&r, m, err), 0);
            pos = next;
        }
        int len = -1;
        const uint64_t *h = game_record_history(&r, &len);
        assert_int_equal(len, r.len);
        assert_true(len > 10);
        for (int i = 0; i < len; i++) assert_true(h[i] == expect[i]);
        assert_memory_equal(game_record_position(&r), &pos, g->pos_size);
        /* Undo then replay the same move gives the same position again. */
        Move last = r.moves[r.len - 1];
        assert_int_equal(game_record_undo(&r, 1), 0);
        assert_int_equal(game_record_apply(&r, &last, err), 0);
        assert_memory_equal(game_record_position(&r), &pos, g->pos_size);
        game_record_free(&r);
    }
}

/* Move text: full and short forms are applied, and each bad input is
 * refused with a message naming it, leaving the record unchanged. */
typedef struct TextCase {
    const char *game;
    const char *fen;
    const char *list;
    int rc;
    const char *message; /* substring of the error, or the full text of the last move applied */
} TextCase;

static const TextCase TEXT_CASES[] = {
    {"russian", NULL, "c3-d4 f6-g5", 0, "f6-g5"},
    {"russian", NULL, "cd4 fg5", 0, "f6-g5"},                        /* Russian short form */
    {"russian", "W:Wc3:Bd4,f6,d6", "c3:g7", 0, "c3:e5:g7"},        /* capture by start and end */
    {"russian", NULL, "c3-d4 c3-d4", -1, "move 2"},
    {"russian", NULL, "c3-d4 zz", -1, "'zz'"},
    {"russian", NULL, "a3-b5", -1, "a3-b5"},
    {"turkish", NULL, "d3-d4 e6-e5", 0, "e6-e5"},
    {"shatra", NULL, "49-42", 0, "49-42"},
    {"shatra", NULL, "49-42 1-2-3", -1, "move 2"},
    /* the move named once; a binary byte quoted as \xNN */
    {"russian", NULL, "c3-d4 c3-d4", -1, "move 2: illegal move 'c3-d4'"},
    {"russian", NULL, "c3\033[2J", -1, "move 1: move 'c3\\x1B[2J': unexpected '\\x1B'"},
    {"shatra", NULL, "49\001", -1, "'49\\x01'"},
};

/* game_err_printable: control bytes and broken UTF-8 as \xNN, valid UTF-8
 * kept, a message that grows past ERR_MAX cut with "...". */
static void test_err_printable(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain text", "plain text"},
        {"tab\there", "tab\\x09here"},
        {"esc \033[31m red", "esc \\x1B[31m red"},
        {"caf\xc3\xa9 ok", "caf\xc3\xa9 ok"},           /* UTF-8 e-acute */
        {"bad \xc3( utf8", "bad \\xC3( utf8"},          /* a lead byte without its continuation */
        {"\xff\xfe", "\\xFF\\xFE"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[ERR_MAX];
        snprintf(err, sizeof err, "%s", cases[i].in);
        game_err_printable(err);
        if (strcmp(err, cases[i].out) != 0) fail_msg("case %zu: '%s', expected '%s'", i, err, cases[i].out);
    }
    char err[ERR_MAX];
    memset(err, 1, ERR_MAX - 1); /* 255 control bytes: 4 bytes each when shown */
    err[ERR_MAX - 1] = '\0';
    game_err_printable(err);
    assert_true(strlen(err) <= ERR_MAX - 1);
    assert_string_equal(err + strlen(err) - 7, "\\x01...");
    assert_int_equal(strncmp(err, "\\x01\\x01", 8), 0);
}

static void test_move_text(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof TEXT_CASES / sizeof TEXT_CASES[0]; c++) {
        const TextCase *t = &TEXT_CASES[c];
        const Game *g = game(t->game);
        GameRecord r;
        char err[ERR_MAX] = "";
        assert_int_equal(game_record_init(&r, g, t->fen, err), 0);
        int rc = game_record_apply_list(&r, t->list, err);
        if (rc != t->rc) fail_msg("case %zu '%s': rc %d (%s)", c, t->list, rc, err);
        if (rc == 0) {
            char text[MOVE_STR_MAX];
            game_record_move_text(&r, r.len - 1, text);
            assert_string_equal(text, t->message);
        } else {
            if (!strstr(err, t->message)) fail_msg("case %zu: message '%s' lacks '%s'", c, err, t->message);
            assert_int_equal(r.len, 0); /* all or nothing */
        }
        game_record_free(&r);
    }
}

static void test_bad_start_and_undo(void **state)
{
    (void)state;
    const Game *g = game("russian");
    GameRecord r;
    char err[ERR_MAX] = "";
    assert_int_equal(game_record_init(&r, g, "W:Wa2:Bb8", err), -1);
    assert_non_null(strstr(err, "a2"));
    assert_int_equal(game_record_init(&r, g, "start", err), 0);
    assert_int_equal(game_record_undo(&r, 1), -1);
    assert_int_equal(game_record_apply_list(&r, "c3-d4 f6-e5 d4:f6", err), 0);
    assert_int_equal(game_record_undo(&r, 4), -1);
    assert_int_equal(r.len, 3);
    assert_int_equal(game_record_undo(&r, 2), 0);
    char text[MOVE_STR_MAX];
    game_record_move_text(&r, 0, text);
    assert_string_equal(text, "c3-d4");
    game_record_clear(&r);
    assert_int_equal(r.len, 0);
    assert_memory_equal(game_record_position(&r), game_record_start(&r), g->pos_size);
    game_record_free(&r);
}

/* The arrays grow past their first 64 plies and keep every key; undo and
 * replay reuse them. */
static void test_growth(void **state)
{
    (void)state;
    const Game *g = game("turkish");
    GameRecord r;
    char err[ERR_MAX];
    assert_int_equal(game_record_init(&r, g, NULL, err), 0);
    for (int round = 0; round < 50; round++) {
        assert_int_equal(game_record_apply_list(&r, "d3-d4 e6-e5", err), 0);
        assert_int_equal(game_record_undo(&r, 2), 0);
    }
    MoveList list;
    int played = 0;
    while (played < 300) {
        const char *reason;
        if (game_record_outcome(&r, &reason, &list) != OUTCOME_NONE) break;
        assert_int_equal(game_record_apply(&r, &list.moves[0], err), 0);
        played++;
    }
    assert_true(played > 64 && played < 300); /* the first-generated move each ply: the game ends at ply 91 */
    const char *why = NULL;
    assert_int_not_equal(game_record_outcome(&r, &why, NULL), OUTCOME_NONE);
    assert_non_null(why);
    assert_true(r.cap >= r.len);
    int len;
    const uint64_t *h = game_record_history(&r, &len);
    for (int i = 0; i < len; i++) assert_true(h[i] == g->hash_full(&r.positions[i]));
    game_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_end_by_play),     cmocka_unit_test(test_history_keys),
        cmocka_unit_test(test_move_text),       cmocka_unit_test(test_bad_start_and_undo),
        cmocka_unit_test(test_growth),          cmocka_unit_test(test_err_printable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
