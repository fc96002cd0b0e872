/* test_dxp.c — the DXP codec (protocol/dxp.h):
 *   - every message type written and read back, field by field, and the
 *     MOVE examples of the protocol's description read as it reads them;
 *   - each fixed-width field refused when it is not its digits, its
 *     width or its range, the error naming the field and its place;
 *   - whole messages refused: unknown type, wrong length, bytes outside
 *     1..127, too long, empty;
 *   - what the encoder refuses (names, ranges, chat lengths);
 *   - boards <-> International positions (the start, kings, the side to
 *     move; what the game refuses) and which games DXP can play;
 *   - moves <-> dama moves: every legal move of random games round trips,
 *     the two captures of one start and end told apart by their captured
 *     squares, a MOVE without its captured squares taken when unique and
 *     refused when ambiguous, an illegal move refused listing the legal
 *     ones;
 *   - addresses "[HOST:]PORT" as --listen and --connect read them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game.h"
#include "protocol/dxp.h"
#include "protocol/dxp_link.h"
#include "util/rng.h"

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("international");
    return G ? 0 : -1;
}

static void encode_ok(const DxpMsg *m, const char *want)
{
    char out[DXP_MSG_MAX + 1], err[ERR_MAX] = "";
    int n = dxp_encode(m, out, err);
    if (n < 0) print_error("encode: %s\n", err);
    assert_int_equal(n, (int)strlen(want));
    assert_string_equal(out, want);
}

static void decode_ok(const char *text, DxpMsg *m)
{
    char err[ERR_MAX] = "";
    int rc = dxp_decode(text, strlen(text), m, err);
    if (rc != 0) print_error("decode '%s': %s\n", text, err);
    assert_int_equal(rc, 0);
}

/* text is refused and the error holds every fragment given (NULL-ended). */
static void decode_bad(const char *text, size_t len, ...)
{
    DxpMsg m;
    char err[ERR_MAX] = "";
    if (dxp_decode(text, len, &m, err) == 0) {
        print_error("'%.*s' was read\n", (int)len, text);
        fail();
    }
    va_list ap;
    va_start(ap, len);
    for (const char *frag; (frag = va_arg(ap, const char *));) {
        if (!strstr(err, frag)) {
            print_error("'%.*s': error '%s' lacks '%s'\n", (int)len, text, err, frag);
            fail();
        }
    }
    va_end(ap);
}

#define BAD(text, ...) decode_bad(text, strlen(text), __VA_ARGS__, (const char *)NULL)

/* ------------------------------------------------------------------ */
/* Round trips                                                          */

static const char *START_BOARD = "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

static void test_gamereq(void **state)
{
    (void)state;
    DxpMsg m = {.type = DXP_GAMEREQ}, r;
    DxpGameReq *q = &m.u.req;
    q->version = 1;
    snprintf(q->name, sizeof q->name, "Test engine 2.0");
    q->follower = COLOR_BLACK;
    q->minutes = 7;
    q->moves = 75;
    encode_ok(&m, "R01Test engine 2.0                 Z007075A");
    decode_ok("R01Test engine 2.0                 Z007075A", &r);
    assert_int_equal(r.type, DXP_GAMEREQ);
    assert_int_equal(r.u.req.version, 1);
    assert_string_equal(r.u.req.name, "Test engine 2.0"); /* trailing blanks dropped */
    assert_int_equal(r.u.req.follower, COLOR_BLACK);
    assert_int_equal(r.u.req.minutes, 7);
    assert_int_equal(r.u.req.moves, 75);
    assert_false(r.u.req.has_position);
    /* With a position: B, the colour to move, 50 squares. */
    q->has_position = true;
    q->to_move = COLOR_BLACK;
    q->follower = COLOR_WHITE;
    q->minutes = 999;
    q->moves = 0;
    snprintf(q->board, sizeof q->board, "%s", START_BOARD);
    q->board[0] = 'Z';
    q->board[49] = 'W';
    char want[DXP_MSG_MAX + 1];
    snprintf(want, sizeof want, "R01Test engine 2.0                 W999000BZ%s", q->board);
    assert_int_equal(strlen(want), 94);
    encode_ok(&m, want);
    decode_ok(want, &r);
    assert_true(r.u.req.has_position);
    assert_int_equal(r.u.req.to_move, COLOR_BLACK);
    assert_int_equal(r.u.req.follower, COLOR_WHITE);
    assert_int_equal(r.u.req.minutes, 999);
    assert_string_equal(r.u.req.board, q->board);
    /* A name of exactly 32 characters fills its field. */
    memset(q->name, 'n', DXP_NAME_LEN);
    q->name[DXP_NAME_LEN] = '\0';
    q->has_position = false;
    char out[DXP_MSG_MAX + 1], err[ERR_MAX];
    assert_int_equal(dxp_encode(&m, out, err), 43);
    decode_ok(out, &r);
    assert_string_equal(r.u.req.name, q->name);
}

static void test_other_messages(void **state)
{
    (void)state;
    DxpMsg m = {.type = DXP_GAMEACC}, r;
    snprintf(m.u.acc.name, sizeof m.u.acc.name, "Follower");
    m.u.acc.code = 2;
    encode_ok(&m, "AFollower                        2");
    decode_ok("AFollower                        2", &r);
    assert_string_equal(r.u.acc.name, "Follower");
    assert_int_equal(r.u.acc.code, 2);

    m = (DxpMsg){.type = DXP_GAMEEND};
    m.u.end.reason = DXP_END_DRAW;
    m.u.end.stop = DXP_STOP_ALL;
    encode_ok(&m, "E21");
    decode_ok("E30", &r);
    assert_int_equal(r.u.end.reason, DXP_END_WIN);
    assert_int_equal(r.u.end.stop, DXP_STOP_NEXT);

    m = (DxpMsg){.type = DXP_BACKREQ};
    m.u.back.move_number = 17;
    m.u.back.to_move = COLOR_BLACK;
    encode_ok(&m, "B017Z");
    decode_ok("B999W", &r);
    assert_int_equal(r.u.back.move_number, 999);
    assert_int_equal(r.u.back.to_move, COLOR_WHITE);

    m = (DxpMsg){.type = DXP_BACKACC};
    m.u.back_code = DXP_BACK_UNSUPPORTED;
    encode_ok(&m, "K1");
    decode_ok("K0", &r);
    assert_int_equal(r.u.back_code, DXP_BACK_OK);

    m = (DxpMsg){.type = DXP_CHAT};
    snprintf(m.u.chat, sizeof m.u.chat, "good game, see you at move 35?");
    encode_ok(&m, "Cgood game, see you at move 35?");
    decode_ok("C  spaces kept  ", &r);
    assert_string_equal(r.u.chat, "  spaces kept  ");
    char longest[DXP_MSG_MAX + 1];
    longest[0] = 'C';
    memset(longest + 1, 'x', DXP_CHAT_MAX);
    longest[DXP_MSG_MAX] = '\0';
    decode_ok(longest, &r);
    assert_int_equal(strlen(r.u.chat), DXP_CHAT_MAX);
}

static void test_move_messages(void **state)
{
    (void)state;
    /* The description's two examples: 6-11 in 12 s; 5x25 taking 22, 12, 23, 20. */
    DxpMsg r;
    decode_ok("M0012061100", &r);
    assert_int_equal(r.u.move.seconds, 12);
    assert_int_equal(r.u.move.from, 6);
    assert_int_equal(r.u.move.to, 11);
    assert_int_equal(r.u.move.ncaptured, 0);
    decode_ok("M001205250422122320", &r);
    assert_int_equal(r.u.move.from, 5);
    assert_int_equal(r.u.move.to, 25);
    assert_int_equal(r.u.move.ncaptured, 4);
    int want[4] = {22, 12, 23, 20};
    for (int i = 0; i < 4; i++) assert_int_equal(r.u.move.captured[i], want[i]);
    encode_ok(&r, "M001205250422122320");
    /* Widths: 4 digits of time, 2 of each square, up to 20 captured. */
    DxpMsg m = {.type = DXP_MOVE};
    m.u.move = (DxpMove){.seconds = 9999, .from = 1, .to = 50, .ncaptured = 20};
    for (int i = 0; i < 20; i++) m.u.move.captured[i] = 50 - i;
    char out[DXP_MSG_MAX + 1], err[ERR_MAX];
    assert_int_equal(dxp_encode(&m, out, err), 51);
    assert_int_equal(strncmp(out, "M9999015020504948", 17), 0);
    decode_ok(out, &r);
    assert_memory_equal(&r.u.move, &m.u.move, sizeof m.u.move);
}

/* ------------------------------------------------------------------ */
/* Refusals                                                             */

static void test_field_errors(void **state)
{
    (void)state;
    char req[DXP_MSG_MAX + 1];
    /* GAMEREQ, each field in turn. */
    BAD("R0xName                            W005000A", "GAMEREQ", "version", "'0x'", "character 2", "2 decimal digits");
    BAD("R01Name                            X005000A", "follower colour", "'X'", "character 36", "W or Z");
    BAD("R01Name                            W0a5000A", "thinking time", "'0a5'", "character 37");
    BAD("R01Name                            W005-10A", "number of moves", "'-10'", "character 40");
    BAD("R01Name                            W005000C", "starting position 'C'", "character 43", "A or B");
    BAD("R01Na\tme                           W005000A", "name", "\\x09", "character 6");
    BAD("R01 tester                         W005000A", "name starts with a blank", "character 4"); /* padding on the left */
    BAD("A                                0", "name starts with a blank", "character 2"); /* an all-blank name */
    snprintf(req, sizeof req, "R01Name                            W005000AW%s", START_BOARD);
    BAD(req, "starting position A with 94 characters");
    snprintf(req, sizeof req, "R01Name                            W005000BQ%s", START_BOARD);
    BAD(req, "colour to move", "'Q'", "character 44");
    snprintf(req, sizeof req, "R01Name                            W005000BW%s", START_BOARD);
    req[44 + 16] = 'q';
    BAD(req, "square 17", "'q'", "character 61", "e, w, z, W or Z");
    BAD("R01Name                            W005000B", "starting position B with 43 characters");
    BAD("R01Name W005000A", "GAMEREQ: 16 characters, expected 43", "or 94");
    /* MOVE. */
    BAD("M001206110", "MOVE: 10 characters, expected 11");
    BAD("M00120611000", "MOVE: 12 characters, expected 11 for 0 captured squares");
    BAD("M00120611011", "expected 13 for 1 captured square");
    BAD("M0012001100", "from 00", "character 6", "outside 01..50");
    BAD("M0012065100", "to 51", "character 8");
    BAD("M00120611 0", "number captured ' 0'", "character 10");
    BAD("M0012061121", "number captured 21", "outside 00..20");
    BAD("M001A061100", "time '001A'", "character 2", "4 decimal digits");
    BAD("M00120525022222", "captured square 22 is listed twice");
    BAD("M0012052501x1", "captured square 'x1'", "character 12");
    BAD("M0012052501-1", "captured square '-1'");
    /* GAMEACC, GAMEEND, BACKREQ, BACKACC. */
    BAD("AName                           0", "GAMEACC: 33 characters, expected 34");
    BAD("AName                            x", "acceptance code 'x'", "character 34");
    BAD("AName                            4", "acceptance code 4 at character 34 is outside 0..3");
    BAD("E40", "reason 4 at character 2 is outside 0..3");
    BAD("E02", "stop code 2 at character 3 is outside 0..1");
    BAD("E0", "GAMEEND: 2 characters, expected 3");
    BAD("E0x", "stop code 'x'", "character 3");
    BAD("E000", "GAMEEND: 4 characters");
    BAD("B000W", "move number 000", "outside 001..999");
    BAD("B005Q", "colour to move 'Q'", "character 5");
    BAD("K", "BACKACC: 1 characters, expected 2");
    BAD("K12", "BACKACC: 3 characters");
    BAD("C", "CHAT without text");
}

static void test_message_errors(void **state)
{
    (void)state;
    BAD("garbage", "unknown message type 'g'", "'garbage'");
    BAD("Q", "unknown message type 'Q'");
    decode_bad("", 0, "empty message", (const char *)NULL);
    decode_bad("M00\x80", 4, "byte \\x80 at character 4", "outside ASCII", (const char *)NULL);
    decode_bad("C a\0b", 5, "byte \\x00 at character 4", (const char *)NULL);
    char big[DXP_MSG_MAX + 2];
    memset(big, 'C', sizeof big);
    decode_bad(big, DXP_MSG_MAX + 1, "128 characters, longer than 127", (const char *)NULL);
    decode_bad("\x01\x02", 2, "unknown message type '?'", "\\x01\\x02", (const char *)NULL);
}

static void encode_bad(const DxpMsg *m, const char *frag)
{
    char out[DXP_MSG_MAX + 1], err[ERR_MAX] = "";
    assert_int_equal(dxp_encode(m, out, err), -1);
    if (!strstr(err, frag)) {
        print_error("encoder error '%s' lacks '%s'\n", err, frag);
        fail();
    }
}

static void test_encode_errors(void **state)
{
    (void)state;
    DxpMsg m = {.type = DXP_GAMEREQ};
    DxpGameReq *q = &m.u.req;
    q->version = 1;
    memset(q->name, 'n', DXP_NAME_LEN);
    q->minutes = 5;
    encode_ok(&m, "R01nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnW005000A");
    q->name[0] = ' ';
    encode_bad(&m, "must not start with a blank");
    q->name[0] = '\0';
    encode_bad(&m, "initiator name must be 1..32 characters");
    snprintf(q->name, sizeof q->name, "a\nb");
    encode_bad(&m, "not printable ASCII");
    snprintf(q->name, sizeof q->name, "ok");
    q->minutes = 1000;
    encode_bad(&m, "thinking time 1000 is outside 0..999");
    q->minutes = 5;
    q->moves = -1;
    encode_bad(&m, "number of moves -1");
    q->moves = 0;
    q->has_position = true;
    snprintf(q->board, sizeof q->board, "%s", START_BOARD);
    q->board[5] = 'x';
    encode_bad(&m, "bad character on square 6");
    q->board[5] = '\0';
    encode_bad(&m, "board must be 50 characters");

    m = (DxpMsg){.type = DXP_MOVE};
    m.u.move = (DxpMove){.from = 0, .to = 5};
    encode_bad(&m, "MOVE from 0 is outside 1..50");
    m.u.move = (DxpMove){.from = 1, .to = 5, .seconds = 10000};
    encode_bad(&m, "MOVE time 10000");
    m.u.move = (DxpMove){.from = 1, .to = 5, .ncaptured = 21};
    encode_bad(&m, "number captured 21");
    m.u.move = (DxpMove){.from = 1, .to = 5, .ncaptured = 1, .captured = {51}};
    encode_bad(&m, "captured square 51");

    m = (DxpMsg){.type = DXP_CHAT};
    encode_bad(&m, "CHAT text must be 1..126 characters (has 0)");
    memset(m.u.chat, 'c', DXP_CHAT_MAX);
    char want[DXP_MSG_MAX + 1];
    memset(want, 'c', DXP_MSG_MAX);
    want[0] = 'C';
    want[DXP_MSG_MAX] = '\0';
    encode_ok(&m, want); /* the longest message */
    m = (DxpMsg){.type = DXP_GAMEEND};
    m.u.end.stop = 10;
    encode_bad(&m, "GAMEEND stop code 10");
    /* dama writes no code its own reader refuses: the ranges are the decoder's */
    m.u.end.stop = 2;
    encode_bad(&m, "GAMEEND stop code 2 is outside 0..1");
    m.u.end = (DxpGameEnd){.reason = 4, .stop = 1};
    encode_bad(&m, "GAMEEND reason 4 is outside 0..3");
    m.u.end.reason = 3;
    encode_ok(&m, "E31");
    m = (DxpMsg){.type = DXP_GAMEACC};
    snprintf(m.u.acc.name, sizeof m.u.acc.name, "f");
    m.u.acc.code = 4;
    encode_bad(&m, "GAMEACC code 4 is outside 0..3");
    m = (DxpMsg){.type = DXP_BACKACC, .u.back_code = 10};
    encode_bad(&m, "BACKACC code 10 is outside 0..9");
    m.u.back_code = 2;
    encode_ok(&m, "K2");
    m = (DxpMsg){.type = DXP_BACKREQ};
    encode_bad(&m, "BACKREQ move number 0");
    m = (DxpMsg){.type = (DxpType)'Q'};
    encode_bad(&m, "unknown message type");
}

/* ------------------------------------------------------------------ */
/* Boards and moves                                                     */

static void position_of(const char *fen, Position *pos)
{
    char err[ERR_MAX];
    if (game_parse_position(G, fen, pos, err) != 0) {
        print_error("%s: %s\n", fen ? fen : "start", err);
        fail();
    }
}

static void test_boards(void **state)
{
    (void)state;
    assert_true(dxp_game_fits(G));
    for (const Game *const *l = game_list(); *l; l++) {
        if (*l != G) assert_false(dxp_game_fits(*l)); /* every other game has fewer squares, or letters */
    }
    Position pos, back;
    char board[DXP_SQUARES + 1], err[ERR_MAX], fen[FEN_MAX];
    Color side;
    position_of(NULL, &pos);
    assert_int_equal(dxp_board_from_position(G, &pos, &side, board, err), 0);
    assert_string_equal(board, START_BOARD);
    assert_int_equal(side, COLOR_WHITE);
    /* Kings, Black to move, and back. */
    position_of("B:W27,K46:BK3,12", &pos);
    assert_int_equal(dxp_board_from_position(G, &pos, &side, board, err), 0);
    assert_int_equal(side, COLOR_BLACK);
    assert_string_equal(board, "eeZeeeeeeeezeeeeeeeeeeeeeeweeeeeeeeeeeeeeeeeeWeeee");
    assert_int_equal(dxp_board_to_position(G, side, board, &back, err), 0);
    G->pos_to_fen(&back, fen);
    assert_string_equal(fen, "B:W27,K46:BK3,12");
    /* What the game refuses, in its words; what is no board. */
    board[0] = 'w'; /* a white man on its crowning row */
    assert_int_equal(dxp_board_to_position(G, COLOR_WHITE, board, &back, err), -1);
    assert_non_null(strstr(err, "crowning"));
    board[0] = 'x';
    assert_int_equal(dxp_board_to_position(G, COLOR_WHITE, board, &back, err), -1);
    assert_non_null(strstr(err, "square 1 of the board is 'x'"));
    assert_int_equal(dxp_board_to_position(G, COLOR_WHITE, "eee", &back, err), -1);
    assert_non_null(strstr(err, "50 squares, not 3"));
}

/* m's DXP form read back is m itself. */
static void round_trip(const Position *pos, const Move *m)
{
    DxpMove dm;
    Move back;
    char err[ERR_MAX] = "";
    assert_int_equal(dxp_move_from_game(G, pos, m, 3, &dm, err), 0);
    assert_int_equal(__builtin_popcountll(m->captured), dm.ncaptured);
    /* through the message text too */
    DxpMsg msg = {.type = DXP_MOVE}, r;
    msg.u.move = dm;
    char text[DXP_MSG_MAX + 1];
    assert_true(dxp_encode(&msg, text, err) > 0);
    decode_ok(text, &r);
    if (dxp_move_to_game(G, pos, &r.u.move, &back, err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    assert_int_equal(back.from, m->from);
    assert_int_equal(back.to, m->to);
    assert_true(back.captured == m->captured);
}

static void test_moves_random_games(void **state)
{
    (void)state;
    uint64_t rng = 29;
    int moves = 0, captures = 0;
    MoveList *list = malloc(sizeof *list);
    assert_non_null(list);
    for (int game = 0; game < 12; game++) {
        Position pos, child;
        position_of(NULL, &pos);
        for (int ply = 0; ply < 200; ply++) {
            if (G->gen_moves(&pos, list, GEN_DISTINCT) == 0) break;
            for (int i = 0; i < list->len; i++) {
                round_trip(&pos, &list->moves[i]);
                moves++;
                captures += list->moves[i].captured != 0;
            }
            G->make_move(&pos, &list->moves[rng_below(&rng, (uint64_t)list->len)], &child);
            pos = child;
        }
    }
    free(list);
    assert_true(moves > 5000);
    assert_true(captures > 200);
}

static void test_moves_exact(void **state)
{
    (void)state;
    Position pos;
    Move m;
    char err[ERR_MAX], text[MOVE_STR_MAX];
    /* A king on 6 has two captures that end on 3, over different pieces. */
    position_of("W:WK6:B9,17,23,30,37", &pos);
    MoveList list;
    G->gen_moves(&pos, &list, GEN_DISTINCT);
    int to3 = 0;
    DxpMove seen[2];
    for (int i = 0; i < list.len; i++) {
        DxpMove dm;
        assert_int_equal(dxp_move_from_game(G, &pos, &list.moves[i], 0, &dm, err), 0);
        if (dm.to != 3) continue;
        assert_int_equal(dm.from, 6);
        round_trip(&pos, &list.moves[i]);
        seen[to3++] = dm;
    }
    assert_int_equal(to3, 2);
    assert_int_equal(seen[0].ncaptured, 3);
    assert_int_equal(seen[1].ncaptured, 3);
    assert_memory_not_equal(seen[0].captured, seen[1].captured, sizeof seen[0].captured);
    /* Without its captured squares the move is ambiguous. */
    DxpMove bare = {.from = 6, .to = 3};
    assert_int_equal(dxp_move_to_game(G, &pos, &bare, &m, err), -1);
    assert_non_null(strstr(err, "ambiguous: 2 legal moves go from 6 to 3"));
    /* ... and 6x35, the only move to 35, is taken without them. */
    bare.to = 35;
    assert_int_equal(dxp_move_to_game(G, &pos, &bare, &m, err), 0);
    DxpMove full;
    assert_int_equal(dxp_move_from_game(G, &pos, &m, 0, &full, err), 0);
    dxp_move_text(&full, text, sizeof text);
    assert_string_equal(text, "6x35 (captures 17,23,30)"); /* the majority: three pieces, as every capture here */
    /* Captured squares that are not the move's: refused, the legal ones listed. */
    DxpMove wrong = {.from = 6, .to = 35, .ncaptured = 1, .captured = {17}};
    assert_int_equal(dxp_move_to_game(G, &pos, &wrong, &m, err), -1);
    assert_non_null(strstr(err, "6x35 (captures 17) is not legal here (legal from 6: "));
    assert_non_null(strstr(err, "6x35 (captures 17,23,30)"));
    /* The start: 32-28 is legal; 46-41 and 32-23 are not. */
    position_of(NULL, &pos);
    DxpMove quiet = {.from = 32, .to = 28};
    assert_int_equal(dxp_move_to_game(G, &pos, &quiet, &m, err), 0);
    G->move_to_str(&pos, &m, text);
    assert_string_equal(text, "32-28");
    quiet = (DxpMove){.from = 46, .to = 41};
    assert_int_equal(dxp_move_to_game(G, &pos, &quiet, &m, err), -1);
    assert_non_null(strstr(err, "no legal move starts on square 46"));
    quiet = (DxpMove){.from = 32, .to = 23};
    assert_int_equal(dxp_move_to_game(G, &pos, &quiet, &m, err), -1);
    assert_non_null(strstr(err, "move 32-23 is not legal here (legal from 32: "));
    assert_non_null(strstr(err, "32-27"));
    assert_non_null(strstr(err, "32-28"));
}

static void test_addresses(void **state)
{
    (void)state;
    char host[DXP_HOST_MAX], err[ERR_MAX];
    int port = -1;
    assert_int_equal(dxp_parse_address("27531", NULL, false, host, &port, err), 0);
    assert_string_equal(host, "127.0.0.1");
    assert_int_equal(port, DXP_PORT);
    assert_int_equal(dxp_parse_address("0.0.0.0:0", NULL, true, host, &port, err), 0);
    assert_string_equal(host, "0.0.0.0");
    assert_int_equal(port, 0);
    assert_int_equal(dxp_parse_address("[::1]:65535", NULL, false, host, &port, err), 0);
    assert_string_equal(host, "::1");
    assert_int_equal(port, 65535);
    assert_int_equal(dxp_parse_address("example.org:1", NULL, false, host, &port, err), 0);
    assert_string_equal(host, "example.org");
    static const char *const bad[][2] = {
        {"host:0", "port '0' must be a number 1..65535"}, {"host:65536", "port '65536'"}, {"host:", "port ''"},
        {":5", "empty host"},  {"host:5x", "port '5x'"}, {"host:-1", "port '-1'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(dxp_parse_address(bad[i][0], NULL, false, host, &port, err), -1);
        if (!strstr(err, bad[i][1])) {
            print_error("%s: '%s' lacks '%s'\n", bad[i][0], err, bad[i][1]);
            fail();
        }
    }
}

/* dxp_find_port: the port of the first HOST:PORT in a line, host as
 * given, standing alone, port 1..65535 ended by a non-digit. */
static void test_find_port(void **state)
{
    (void)state;
    static const struct {
        const char *text, *host;
        int port;
    } cases[] = {
        {"dxp: listening on 127.0.0.1:40123", "127.0.0.1", 40123}, /* dama dxp --listen 0 */
        {"127.0.0.1:1", "127.0.0.1", 1},
        {"at 127.0.0.1:65535.", "127.0.0.1", 65535},
        {"ready (127.0.0.1:27531)\r", "127.0.0.1", 27531},
        {"127.0.0.1:0 then 127.0.0.1:5000", "127.0.0.1", 5000}, /* port 0 is no port: the next one */
        {"127.0.0.1:65536 127.0.0.1:7", "127.0.0.1", 7},
        {"127.0.0.1:1234567", "127.0.0.1", 0},
        {"127.0.0.10:4000", "127.0.0.1", 0},  /* another address: host runs on */
        {"27.0.0.1:4000", "7.0.0.1", 0},      /* ... and on the left */
        {"localhost.lan:4000", "localhost", 0},
        {"localhost:4000", "localhost", 4000},
        {"127.0.0.1 port 4000", "127.0.0.1", 0},
        {"127.0.0.1:", "127.0.0.1", 0},
        {"listening on ::1:40000", "::1", 40000},
        {"listening on [::1]:40001", "::1", 40001},
        {"[::1:40002", "::1", 0},             /* a bracket not closed */
        {"0.0.0.0:4000", "127.0.0.1", 0},
        {"", "127.0.0.1", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = dxp_find_port(cases[i].text, strlen(cases[i].text), cases[i].host);
        if (got != cases[i].port) {
            print_error("'%s' on %s: %d, expected %d\n", cases[i].text, cases[i].host, got, cases[i].port);
            fail();
        }
    }
    /* only the n bytes given are read */
    assert_int_equal(dxp_find_port("127.0.0.1:4000", 12, "127.0.0.1"), 40);
    assert_int_equal(dxp_find_port("127.0.0.1:4000", 9, "127.0.0.1"), 0);
}

/* dxp_lines_port: a program's output in pieces; a line longer than
 * DXP_LINE_MAX is never read for a port, the line after it is. */
static void test_lines_port(void **state)
{
    (void)state;
    const char *host = "127.0.0.1";
    /* in pieces: the line is read once whole, a '\r' before its '\n' dropped */
    DxpLines o = {.len = 0};
    const char *first = "hello\nlistening on 127.0.0.1:40";
    assert_int_equal(dxp_lines_port(&o, first, strlen(first), host), 0);
    assert_int_equal(dxp_lines_port(&o, "123\r", 4, host), 0);
    assert_int_equal(dxp_lines_port(&o, "\nmore", 5, host), 40123);
    assert_int_equal(o.last_len, strlen("listening on 127.0.0.1:40123"));
    assert_memory_equal(o.last, "listening on 127.0.0.1:40123", o.last_len);

    /* an overlong line, the address across the DXP_LINE_MAX boundary: its
     * first bytes alone would read as port 40; the next line is read */
    char text[2 * DXP_LINE_MAX];
    size_t at = DXP_LINE_MAX - strlen("127.0.0.1:40");
    memset(text, 'x', at);
    text[at - 1] = ' ';
    int n = snprintf(text + at, sizeof text - at, "127.0.0.1:40123\nready 127.0.0.1:5000\n");
    size_t len = at + (size_t)n;
    o = (DxpLines){.len = 0};
    assert_int_equal(dxp_lines_port(&o, text, len, host), 5000);
    assert_memory_equal(o.last, "ready 127.0.0.1:5000", o.last_len);
    for (size_t piece = 1; piece <= 7; piece += 3) { /* the same in pieces */
        o = (DxpLines){.len = 0};
        int port = 0;
        for (size_t i = 0; i < len && !port; i += piece)
            port = dxp_lines_port(&o, text + i, len - i < piece ? len - i : piece, host);
        assert_int_equal(port, 5000);
    }
    /* an overlong line alone gives no port, and is kept (cut) for a message */
    o = (DxpLines){.len = 0};
    assert_int_equal(dxp_lines_port(&o, text, at + strlen("127.0.0.1:40123\n"), host), 0);
    assert_int_equal(o.last_len, DXP_LINE_MAX);
    assert_false(o.overlong);
    assert_int_equal(o.len, 0);
    /* a line of exactly DXP_LINE_MAX bytes is read */
    memset(text, 'x', DXP_LINE_MAX);
    memcpy(text + DXP_LINE_MAX - strlen(" 127.0.0.1:7"), " 127.0.0.1:7", strlen(" 127.0.0.1:7"));
    text[DXP_LINE_MAX] = '\n';
    o = (DxpLines){.len = 0};
    assert_int_equal(dxp_lines_port(&o, text, DXP_LINE_MAX + 1, host), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gamereq),
        cmocka_unit_test(test_other_messages),
        cmocka_unit_test(test_move_messages),
        cmocka_unit_test(test_field_errors),
        cmocka_unit_test(test_message_errors),
        cmocka_unit_test(test_encode_errors),
        cmocka_unit_test(test_boards),
        cmocka_unit_test(test_moves_random_games),
        cmocka_unit_test(test_moves_exact),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_find_port),
        cmocka_unit_test(test_lines_port),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
