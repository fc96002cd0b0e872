/* test_api.c — libdama-engine's public API (include/dama/engine.h):
 * moves against `dama moves` on thousands of positions of every game,
 * structured moves, apply/undo, history and draw counters, errors, PDN,
 * search limits, stop, levels, draw offers, weights (array and JSON,
 * refusals), and two games searching on two threads at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "engine/weights_json.h"
#include "db/db.h"
#include "dama/engine.h"
#include "engine/eval.h"
#include "engine/game.h"
#include "engine/weights_id.h"
#include "engine/games/russian/weights.h"
#include "engine/games/shatra/weights.h"
#include "engine/games/turkish/weights.h"
#include "db/weight_sets.h"
#include "engine/timeman.h"
#include "util/clock.h"
#include "util/rng.h"

#ifndef DAMA_BINARY
#define DAMA_BINARY "dama"
#endif

static const char *const GAMES[] = {"russian", "turkish", "shatra"};

static DamaGame *new_game(const char *name, const char *fen)
{
    char err[DAMA_ERROR_MAX];
    DamaGame *g = NULL;
    int rc = dama_game_new(name, fen, &g, err);
    if (rc != DAMA_OK) fail_msg("dama_game_new(%s, %s): %s", name, fen ? fen : "start", err);
    return g;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The API's moves of the current position, sorted, space-separated. */
static void api_moves(DamaGame *g, char *out, size_t size)
{
    int n = dama_moves_count(g);
    char **moves = calloc((size_t)n + 1, sizeof *moves);
    assert_non_null(moves);
    for (int i = 0; i < n; i++) {
        moves[i] = malloc(DAMA_MOVE_TEXT_MAX);
        assert_int_equal(dama_move_text(g, i, moves[i], DAMA_MOVE_TEXT_MAX), DAMA_OK);
    }
    qsort(moves, (size_t)n, sizeof *moves, cmp_str);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", moves[i]);
        assert_true(len < size);
        free(moves[i]);
    }
    free(moves);
}

/* Sort the words of a line in place. */
static void sort_words(char *line, char *out, size_t size)
{
    char *words[4096];
    int n = 0;
    for (char *w = strtok(line, " "); w && n < 4096; w = strtok(NULL, " ")) words[n++] = w;
    qsort(words, (size_t)n, sizeof *words, cmp_str);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", words[i]);
}

enum { PLAYOUT_PLIES = 80, LINE_MAX_BYTES = 65536 };

/* Random playouts through the API (moves applied by index); every position
 * reached and the API's moves there are compared with `dama moves --file`.
 * Each move is also checked structurally: found again from its text,
 * captures as many squares as its kind says, and apply + undo restores
 * the position. */
static void check_moves_against_cli(const char *name, int playouts)
{
    char fens_path[] = "/tmp/dama_api_fens_XXXXXX";
    int fd = mkstemp(fens_path);
    assert_true(fd >= 0);
    FILE *fens = fdopen(fd, "w");
    assert_non_null(fens);
    char **expected = NULL;
    int len = 0, cap = 0;
    uint64_t rng = 12345 + (uint64_t)strlen(name);
    static char moves[LINE_MAX_BYTES];
    for (int p = 0; p < playouts; p++) {
        DamaGame *g = new_game(name, NULL);
        for (int ply = 0; ply < PLAYOUT_PLIES && dama_result(g, NULL) == DAMA_ONGOING; ply++) {
            char fen[DAMA_POSITION_MAX];
            assert_int_equal(dama_position(g, fen, sizeof fen), DAMA_OK);
            api_moves(g, moves, sizeof moves);
            fprintf(fens, "%s\n", fen);
            if (len == cap) {
                cap = cap ? cap * 2 : 1024;
                expected = realloc(expected, sizeof *expected * (size_t)cap);
                assert_non_null(expected);
            }
            expected[len] = malloc(strlen(fen) + strlen(moves) + 2);
            sprintf(expected[len++], "%s\t%s", fen, moves);

            int n = dama_moves_count(g);
            int pick = (int)rng_below(&rng, (uint64_t)n);
            for (int i = 0; i < n; i += 1 + n / 8) {
                char text[DAMA_MOVE_TEXT_MAX];
                assert_int_equal(dama_move_text(g, i, text, sizeof text), DAMA_OK);
                int found = -1;
                assert_int_equal(dama_move_find(g, text, &found), DAMA_OK);
                assert_int_equal(found, i);
                int caps = dama_move_captures(g, i, NULL, 0);
                assert_true((caps > 0) == (dama_move_kind(g, i) == DAMA_MOVE_CAPTURE));
                assert_true(dama_move_from(g, i) >= 0 && dama_move_to(g, i) >= 0);
                assert_int_equal(dama_apply_index(g, i), DAMA_OK);
                assert_int_equal(dama_ply_count(g), ply + 1);
                assert_int_equal(dama_undo(g), DAMA_OK);
                char back[DAMA_POSITION_MAX];
                assert_int_equal(dama_position(g, back, sizeof back), DAMA_OK);
                assert_string_equal(back, fen);
            }
            assert_int_equal(dama_apply_index(g, pick), DAMA_OK);
        }
        dama_game_free(g);
    }
    fclose(fens);
    assert_true(len > playouts * 10);

    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' moves --game %s --file '%s'", DAMA_BINARY, name, fens_path);
    FILE *out = popen(cmd, "r");
    assert_non_null(out);
    static char line[LINE_MAX_BYTES], sorted[LINE_MAX_BYTES];
    int i = 0;
    while (fgets(line, sizeof line, out)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = '\0';
        sort_words(tab + 1, sorted, sizeof sorted);
        static char got[2 * LINE_MAX_BYTES + 2];
        snprintf(got, sizeof got, "%s\t%s", line, sorted);
        assert_true(i < len);
        if (strcmp(got, expected[i]) != 0) fail_msg("%s position %d:\n  dama moves: %s\n  API:        %s", name, i, got, expected[i]);
        free(expected[i]);
        i++;
    }
    assert_int_equal(pclose(out), 0);
    assert_int_equal(i, len);
    free(expected);
    unlink(fens_path);
    print_message("%s: %d positions agree with dama moves\n", name, len);
}

static void test_moves_russian(void **state)
{
    (void)state;
    check_moves_against_cli("russian", 40);
}

static void test_moves_turkish(void **state)
{
    (void)state;
    check_moves_against_cli("turkish", 40);
}

static void test_moves_shatra(void **state)
{
    (void)state;
    check_moves_against_cli("shatra", 160);
}

static void test_moves_international(void **state)
{
    (void)state;
    check_moves_against_cli("international", 30);
}

/* International draughts end to end: the 10x10 squares (engine.h,
 * Squares), the rules examples' captures as structured moves, FEN, PDN,
 * search, and a whole game played by the engine. */
static void test_international(void **state)
{
    (void)state;
    DamaGame *g = new_game("international", NULL);
    assert_string_equal(dama_game_title(g), "International draughts");
    char text[DAMA_POSITION_MAX], moves[1024];
    api_moves(g, moves, sizeof moves);
    assert_string_equal(moves, "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30");
    /* 32 = d4 (rank 3, file 3), 28 = e5 (rank 4, file 4): index (11 * rank + file) / 2 */
    int i = -1;
    assert_int_equal(dama_move_find(g, "32-28", &i), DAMA_OK);
    assert_int_equal(dama_move_from(g, i), 18);
    assert_int_equal(dama_move_to(g, i), 24);
    for (const char *const *m = (const char *const[]){"32-28", "19-23", "28x19", "14x23", NULL}; *m; m++)
        assert_int_equal(dama_apply_move(g, *m), DAMA_OK);
    assert_int_equal(dama_position(g, text, sizeof text), DAMA_OK);
    assert_string_equal(text, "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,"
                              "12,13,15,16,17,18,20,23");
    char pdn[2048];
    assert_int_equal(dama_pdn(g, NULL, NULL, pdn, sizeof pdn, NULL), DAMA_OK);
    assert_non_null(strstr(pdn, "[GameType \"20\"]\n"));
    assert_non_null(strstr(pdn, "\n1. 32-28 19-23 2. 28x19 14x23 *\n"));

    /* rules E5: three captures of three pieces, two from 6 to 3 (full routes) */
    assert_int_equal(dama_game_reset(g, "W:WK6:B9,17,23,30,37"), DAMA_OK);
    api_moves(g, moves, sizeof moves);
    assert_string_equal(moves, "6x28x14x3 6x35 6x39x25x3");
    assert_int_equal(dama_move_find(g, "6x3", &i), DAMA_E_MOVE); /* ambiguous */
    assert_int_equal(dama_move_find(g, "6x39x25x3", &i), DAMA_OK);
    int caps[8];
    assert_int_equal(dama_move_captures(g, i, caps, 8), 3);
    /* 30 = i5 (rank 4, file 8), 17 = c7 (6, 2), 9 = g9 (8, 6); 6 = a9, 3 = f10 */
    assert_int_equal(caps[0], 26);
    assert_int_equal(caps[1], 34);
    assert_int_equal(caps[2], 47);
    assert_int_equal(dama_move_from(g, i), 44);
    assert_int_equal(dama_move_to(g, i), 52); /* (11 * 9 + 5) / 2 */
    dama_game_free(g);

    /* search: a forced win, and a whole game, engine against engine */
    g = new_game("international", "W:W28:B23");
    char move[DAMA_MOVE_TEXT_MAX];
    assert_int_equal(dama_set_limit(g, DAMA_LIMIT_DEPTH, 3), DAMA_OK);
    assert_int_equal(dama_search(g, move, sizeof move), DAMA_OK);
    assert_string_equal(move, "28x19");
    assert_true(dama_search_score(g) > 29000);
    dama_game_free(g);
    g = new_game("international", NULL);
    dama_set_limit(g, DAMA_LIMIT_NODES, 2000);
    int plies = 0;
    while (plies < 400 && dama_result(g, NULL) == DAMA_ONGOING && dama_play(g, move, sizeof move) == DAMA_OK) plies++;
    const char *reason = NULL;
    DamaResult r = dama_result(g, &reason);
    assert_true(r != DAMA_ONGOING);
    assert_int_equal(dama_ply_count(g), plies);
    print_message("international: a game of %d plies, %s\n", plies, reason ? reason : "?");
    dama_game_free(g);
}

/* Canadian draughts: the 12x12 indices (engine.h, Squares), captured
 * squares above index 63 through dama_move_captures, moves against the CLI. */
static void test_canadian(void **state)
{
    (void)state;
    check_moves_against_cli("canadian", 20);
    DamaGame *g = new_game("canadian", NULL);
    char moves[1024];
    api_moves(g, moves, sizeof moves);
    assert_string_equal(moves, "43-37 44-37 44-38 45-38 45-39 46-39 46-40 47-40 47-41 48-41 48-42");
    /* the man on 14 = d10 (rank 9, file 3) takes 9 = e11 (10, 4) and lands
     * on 3 = f12 (11, 5), crowned: index (13 * rank + file) / 2 */
    assert_int_equal(dama_game_reset(g, "W:W14:B9"), DAMA_OK);
    int i = -1, caps[4];
    assert_int_equal(dama_move_find(g, "14x3", &i), DAMA_OK);
    assert_int_equal(dama_move_from(g, i), 60);
    assert_int_equal(dama_move_to(g, i), 74);
    assert_int_equal(dama_move_captures(g, i, caps, 4), 1);
    assert_int_equal(caps[0], 67);
    /* E3: the king on 45 = e5 (4, 4) takes 50 = d4 (3, 3) and 61 = b2
     * (1, 1), ending on 67 = a1 */
    assert_int_equal(dama_game_reset(g, "W:W37,K45:B34,50,61"), DAMA_OK);
    assert_int_equal(dama_move_find(g, "45x67", &i), DAMA_OK);
    assert_int_equal(dama_move_captures(g, i, caps, 4), 2);
    assert_int_equal(caps[0], 7);
    assert_int_equal(caps[1], 21);
    dama_game_free(g);
}

/* NULL, "" and "start" all name the game's start position (engine.h). */
static void test_start_spellings(void **state)
{
    (void)state;
    for (int i = 0; i < dama_games_count(); i++) {
        const char *name = dama_game_name_at(i);
        char want[DAMA_POSITION_MAX] = "", got[DAMA_POSITION_MAX], err[DAMA_ERROR_MAX];
        const char *spellings[] = {NULL, "", "start"};
        for (int k = 0; k < 3; k++) {
            DamaGame *g = NULL;
            assert_int_equal(dama_game_new(name, spellings[k], &g, err), DAMA_OK);
            assert_int_equal(dama_position(g, got, sizeof got), DAMA_OK);
            if (k == 0) snprintf(want, sizeof want, "%s", got);
            assert_string_equal(got, want);
            assert_int_equal(dama_game_reset(g, spellings[k]), DAMA_OK);
            assert_int_equal(dama_position(g, got, sizeof got), DAMA_OK);
            assert_string_equal(got, want);
            dama_game_free(g);
        }
        assert_true(want[0] != '\0');
    }
}

/* Bad input: codes and messages that name it; the game is unchanged. */
static void test_errors(void **state)
{
    (void)state;
    char err[DAMA_ERROR_MAX];
    DamaGame *g = (DamaGame *)&err; /* must be reset to NULL on failure */
    assert_int_equal(dama_game_new("chess", NULL, &g, err), DAMA_E_GAME);
    assert_null(g);
    assert_non_null(strstr(err, "chess"));
    assert_non_null(strstr(err, "shatra"));
    assert_int_equal(dama_game_new("russian", "W:Wz9:Bb6", &g, err), DAMA_E_POSITION);
    assert_null(g);
    assert_non_null(strstr(err, "z9"));
    /* the side that just moved has no pieces: the game was over before this
     * turn, so no such position is accepted (docs/rules/<game>.md) */
    static const char *const gone[][3] = {
        {"russian", "W:Wa1:B", "'W:Wa1:B': Black, who just moved, has no pieces"},
        {"turkish", "B:W:Ba6", "'B:W:Ba6': White, who just moved, has no pieces"},
        {"shatra", "3/3/3/1/7/7/7/7/7/7/K/3/3/3 w - - - - 0 1", "Black, who just moved, has no Biy"},
    };
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++) {
        g = (DamaGame *)&err;
        assert_int_equal(dama_game_new(gone[i][0], gone[i][1], &g, err), DAMA_E_POSITION);
        assert_null(g);
        if (!strstr(err, gone[i][2])) fail_msg("%s '%s': message '%s' lacks '%s'", gone[i][0], gone[i][1], err, gone[i][2]);
    }
    /* the side without pieces to move: a finished game, lost by no-moves */
    g = new_game("russian", "B:Wa1:B");
    const char *reason = NULL;
    assert_int_equal(dama_result(g, &reason), DAMA_WHITE_WINS);
    assert_non_null(reason);
    assert_string_equal(reason, "no-moves");
    assert_int_equal(dama_moves_count(g), 0);
    dama_game_free(g);
    assert_int_equal(dama_game_new("russian", NULL, NULL, NULL), DAMA_E_ARGUMENT);
    { /* a NULL pointer is DAMA_E_ARGUMENT, said as such (engine.h), not an unknown name or a syntax error */
        char nerr[DAMA_ERROR_MAX];
        DamaGame *none = NULL;
        assert_int_equal(dama_game_new(NULL, NULL, &none, nerr), DAMA_E_ARGUMENT);
        assert_string_equal(nerr, "dama_game_new: game is NULL");
        assert_null(none);
        DamaGame *h = new_game("russian", NULL);
        int n = dama_weights_len(h);
        assert_int_equal(dama_set_level_name(h, NULL), DAMA_E_ARGUMENT);
        assert_string_equal(dama_last_error(h), "dama_set_level_name: name is NULL");
        assert_int_equal(dama_weights_parse_json(h, NULL), DAMA_E_ARGUMENT);
        assert_string_equal(dama_last_error(h), "dama_weights_parse_json: text is NULL");
        assert_int_equal(dama_weights_get(h, NULL, n), DAMA_E_ARGUMENT);
        assert_string_equal(dama_last_error(h), "dama_weights_get: out is NULL");
        assert_int_equal(dama_weights_set(h, NULL, n), DAMA_E_ARGUMENT);
        assert_string_equal(dama_last_error(h), "dama_weights_set: weights is NULL");
        dama_game_free(h);
    }

    g = new_game("russian", NULL);
    char before[DAMA_POSITION_MAX], after[DAMA_POSITION_MAX];
    dama_position(g, before, sizeof before);
    static const struct {
        const char *text;
        const char *needle;
    } bad[] = {{"c3-e5", "c3-e5"}, {"zz", "zz"}, {"", ""}, {"a1-b2", "a1-b2"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(dama_apply_move(g, bad[i].text), DAMA_E_MOVE);
        assert_true(strlen(dama_last_error(g)) > 0);
        assert_non_null(strstr(dama_last_error(g), bad[i].needle));
    }
    assert_int_equal(dama_apply_move(g, NULL), DAMA_E_ARGUMENT); /* a NULL pointer, named */
    assert_string_equal(dama_last_error(g), "dama_apply_move: text is NULL");
    int found = -1;
    assert_int_equal(dama_move_find(g, NULL, &found), DAMA_E_ARGUMENT);
    assert_string_equal(dama_last_error(g), "dama_move_find: text is NULL");
    assert_int_equal(found, -1);
    char none[4];
    assert_int_equal(dama_position(g, none, 0), DAMA_E_ARGUMENT); /* no buffer: said so */
    assert_string_equal(dama_last_error(g), "no output buffer (size 0)");
    assert_int_equal(dama_apply_index(g, 7), DAMA_E_MOVE);
    assert_int_equal(dama_apply_index(g, -1), DAMA_E_MOVE);
    assert_int_equal(dama_move_from(g, 99), -1);
    assert_int_equal(dama_undo(g), DAMA_E_UNDO);
    dama_position(g, after, sizeof after);
    assert_string_equal(before, after);
    char tiny[4];
    assert_int_equal(dama_position(g, tiny, sizeof tiny), DAMA_E_BUFFER);
    assert_int_equal(strlen(tiny), 3);
    assert_int_equal(dama_set_limit(g, 42, 1), DAMA_E_ARGUMENT);
    assert_int_equal(dama_set_limit(g, DAMA_LIMIT_NODES, -5), DAMA_E_ARGUMENT);
    assert_int_equal(dama_set_level_name(g, "grandmaster"), DAMA_E_LEVEL);
    assert_int_equal(dama_set_level(g, 9), DAMA_E_LEVEL);
    assert_int_equal(dama_set_hash_mb(g, 0), DAMA_E_ARGUMENT);
    assert_string_equal(dama_status_text(DAMA_E_OVER), "game over");
    dama_game_free(g);
    dama_game_free(NULL);
}

/* Status of positions of each game, as the rule books define them. */
static void test_status(void **state)
{
    (void)state;
    static const struct {
        const char *game, *fen;
        DamaResult result;
        const char *reason;
        DamaColor side;
        int capture, moves;
    } rows[] = {
        {"russian", NULL, DAMA_ONGOING, NULL, DAMA_WHITE, 0, 7},
        {"russian", "W:Wc3:Bd4,f6,d6", DAMA_ONGOING, NULL, DAMA_WHITE, 1, 2},
        {"russian", "W:WKa1:Bb2,c3", DAMA_BLACK_WINS, "no-moves", DAMA_WHITE, 0, 0},
        {"turkish", NULL, DAMA_ONGOING, NULL, DAMA_WHITE, 0, 0},
        {"shatra", NULL, DAMA_ONGOING, NULL, DAMA_WHITE, 0, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        DamaGame *g = new_game(rows[i].game, rows[i].fen);
        const char *reason = "unset";
        assert_int_equal(dama_result(g, &reason), rows[i].result);
        if (rows[i].reason) assert_string_equal(reason, rows[i].reason);
        else assert_null(reason);
        assert_int_equal(dama_side_to_move(g), rows[i].side);
        assert_int_equal(dama_must_capture(g), rows[i].capture);
        if (rows[i].moves) assert_int_equal(dama_moves_count(g), rows[i].moves);
        assert_int_equal(dama_has_royal(g), strcmp(rows[i].game, "shatra") == 0);
        assert_int_equal(dama_royal_attacked(g, DAMA_WHITE), 0);
        if (rows[i].result != DAMA_ONGOING) {
            assert_int_equal(dama_apply_index(g, 0), DAMA_E_OVER);
            char move[DAMA_MOVE_TEXT_MAX];
            assert_int_equal(dama_search(g, move, sizeof move), DAMA_E_OVER);
        }
        dama_game_free(g);
    }
}

/* Threefold repetition is judged from the history kept inside: kings
 * shuffling reach the start position a third time (D3 in Russian). */
static void test_repetition(void **state)
{
    (void)state;
    DamaGame *g = new_game("russian", "W:WKc1,h2:BKf8,a7");
    static const char *const cycle[] = {"c1-d2", "f8-e7", "d2-c1", "e7-f8"};
    assert_int_equal(dama_repetitions(g), 1);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) {
            assert_int_equal(dama_result(g, NULL), DAMA_ONGOING);
            assert_int_equal(dama_apply_move(g, cycle[i]), DAMA_OK);
        }
        assert_int_equal(dama_repetitions(g), round + 2);
    }
    assert_int_equal(dama_reversible_plies(g), 8);
    const char *reason = NULL;
    assert_int_equal(dama_result(g, &reason), DAMA_DRAW);
    assert_string_equal(reason, "D3");
    assert_int_equal(dama_apply_move(g, "c1-d2"), DAMA_E_OVER);
    assert_int_equal(dama_undo(g), DAMA_OK);
    assert_int_equal(dama_result(g, NULL), DAMA_ONGOING);
    char move[DAMA_MOVE_TEXT_MAX];
    assert_int_equal(dama_history_move(g, 0, move, sizeof move), DAMA_OK);
    assert_string_equal(move, "c1-d2");
    assert_int_equal(dama_history_move(g, 7, move, sizeof move), DAMA_E_ARGUMENT);
    assert_int_equal(dama_game_reset(g, NULL), DAMA_OK);
    assert_int_equal(dama_ply_count(g), 0);
    assert_int_equal(dama_moves_count(g), 7);
    dama_game_free(g);
}

static void test_pdn(void **state)
{
    (void)state;
    DamaGame *g = new_game("russian", NULL);
    assert_int_equal(dama_apply_move(g, "c3-d4"), DAMA_OK);
    assert_int_equal(dama_apply_move(g, "f6-g5"), DAMA_OK);
    assert_int_equal(dama_apply_move(g, "g3-f4"), DAMA_OK);
    size_t len = 0;
    /* the sizing call (no buffer, size 0, len): the length and DAMA_E_BUFFER, as for text that does not fit */
    assert_int_equal(dama_pdn(g, "A \"x\"", NULL, NULL, 0, &len), DAMA_E_BUFFER);
    assert_true(len > 0);
    assert_non_null(strstr(dama_last_error(g), "(*len)"));
    size_t sized = len;
    assert_int_equal(dama_pdn(g, "A \"x\"", NULL, NULL, 0, NULL), DAMA_E_ARGUMENT); /* nowhere to say anything */
    char small[16];
    assert_int_equal(dama_pdn(g, "A \"x\"", NULL, small, sizeof small, &len), DAMA_E_BUFFER);
    char pdn[1024];
    assert_true(len < sizeof pdn);
    assert_int_equal(dama_pdn(g, "A \"x\"", NULL, pdn, sizeof pdn, NULL), DAMA_OK);
    assert_int_equal(strlen(pdn), len);
    assert_int_equal(sized, len);
    assert_non_null(strstr(pdn, "[White \"A \\\"x\\\"\"]\n"));
    assert_non_null(strstr(pdn, "[Black \"?\"]\n"));
    assert_non_null(strstr(pdn, "[Result \"*\"]\n"));
    assert_non_null(strstr(pdn, "[GameType \"25\"]\n"));
    assert_null(strstr(pdn, "[FEN"));
    assert_non_null(strstr(pdn, "\n1. c3-d4 f6-g5 2. g3-f4 *\n"));
    /* a tag is one line: control characters in a name are written as
     * spaces (a newline went into the tag, which PDN readers refuse) */
    assert_int_equal(dama_pdn(g, "Ann\nLee", "B\tob\r\x7f", pdn, sizeof pdn, NULL), DAMA_OK);
    assert_non_null(strstr(pdn, "[White \"Ann Lee\"]\n[Black \"B ob  \"]\n"));
    dama_game_free(g);

    g = new_game("russian", "B:Wc3:Bf6,h8");
    assert_int_equal(dama_apply_move(g, "f6-e5"), DAMA_OK);
    assert_int_equal(dama_pdn(g, NULL, NULL, pdn, sizeof pdn, NULL), DAMA_OK);
    assert_non_null(strstr(pdn, "[FEN \"B:Wc3:Bf6,h8\"]"));
    assert_non_null(strstr(pdn, "\n1... f6-e5 *\n"));
    dama_game_free(g);

    /* English draughts: Black moves first, a move pair begins with its move. */
    g = new_game("english", NULL);
    assert_int_equal(dama_apply_move(g, "11-15"), DAMA_OK);
    assert_int_equal(dama_apply_move(g, "23-19"), DAMA_OK);
    assert_int_equal(dama_apply_move(g, "8-11"), DAMA_OK);
    assert_int_equal(dama_pdn(g, NULL, NULL, pdn, sizeof pdn, NULL), DAMA_OK);
    assert_non_null(strstr(pdn, "[GameType \"21\"]\n"));
    assert_null(strstr(pdn, "[FEN"));
    assert_non_null(strstr(pdn, "\n1. 11-15 23-19 2. 8-11 *\n"));
    assert_int_equal(dama_game_reset(g, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"), DAMA_OK);
    assert_int_equal(dama_apply_move(g, "23-19"), DAMA_OK);
    assert_int_equal(dama_apply_move(g, "8-11"), DAMA_OK);
    assert_int_equal(dama_pdn(g, NULL, NULL, pdn, sizeof pdn, NULL), DAMA_OK);
    assert_non_null(strstr(pdn, "\n1... 23-19 2. 8-11 *\n"));
    dama_game_free(g);
}

/* Search: a forced capture, determinism under depth and node limits, a
 * stop callback, the clock. */
static int stop_now(void *ctx)
{
    (*(int *)ctx)++;
    return 1;
}

static void test_search(void **state)
{
    (void)state;
    DamaGame *g = new_game("russian", "W:Wc3:Bd4");
    char move[DAMA_MOVE_TEXT_MAX];
    assert_int_equal(dama_set_limit(g, DAMA_LIMIT_DEPTH, 3), DAMA_OK);
    assert_int_equal(dama_search(g, move, sizeof move), DAMA_OK);
    assert_string_equal(move, "c3:e5");
    assert_true(dama_search_score(g) > 29000);
    assert_int_equal(dama_play(g, move, sizeof move), DAMA_OK);
    assert_int_equal(dama_result(g, NULL), DAMA_WHITE_WINS);
    dama_game_free(g);

    /* dama_play with an output buffer too small for the move, or of size
     * 0: the call fails and no move is played (it was played, with a
     * truncated text and an error) */
    g = new_game("russian", NULL);
    dama_set_limit(g, DAMA_LIMIT_DEPTH, 2);
    char small[3], start[DAMA_POSITION_MAX], now[DAMA_POSITION_MAX];
    dama_position(g, start, sizeof start);
    assert_int_equal(dama_play(g, small, sizeof small), DAMA_E_BUFFER);
    assert_non_null(strstr(dama_last_error(g), "too small"));
    assert_int_equal(strlen(small), 2);
    assert_int_equal(dama_play(g, small, 0), DAMA_E_ARGUMENT);
    assert_int_equal(dama_ply_count(g), 0);
    dama_position(g, now, sizeof now);
    assert_string_equal(now, start);
    assert_true(dama_search_index(g) >= 0); /* the search's result stays */
    assert_int_equal(dama_play(g, move, sizeof move), DAMA_OK);
    assert_int_equal(dama_ply_count(g), 1);
    assert_int_equal(dama_play(g, NULL, 0), DAMA_OK); /* no text wanted */
    assert_int_equal(dama_ply_count(g), 2);
    dama_game_free(g);

    for (size_t k = 0; k < 3; k++) {
        char a[DAMA_MOVE_TEXT_MAX], b[DAMA_MOVE_TEXT_MAX], pv[1024];
        DamaGame *x = new_game(GAMES[k], NULL), *y = new_game(GAMES[k], NULL);
        dama_set_limit(x, DAMA_LIMIT_NODES, 30000);
        dama_set_limit(y, DAMA_LIMIT_NODES, 30000);
        assert_int_equal(dama_search(x, a, sizeof a), DAMA_OK);
        assert_int_equal(dama_search(y, b, sizeof b), DAMA_OK);
        assert_string_equal(a, b);
        assert_int_equal(dama_search_score(x), dama_search_score(y));
        assert_true(dama_search_depth(x) >= 2);
        assert_true(dama_search_nodes(x) >= 30000 && dama_search_nodes(x) < 31100);
        assert_int_equal(dama_search_pv(x, pv, sizeof pv), DAMA_OK);
        assert_int_equal(strncmp(pv, a, strlen(a)), 0);
        int idx = dama_search_index(x);
        char text[DAMA_MOVE_TEXT_MAX];
        assert_int_equal(dama_move_text(x, idx, text, sizeof text), DAMA_OK);
        assert_string_equal(text, a);
        /* a stop callback that says stop at once: a legal move all the same */
        int calls = 0;
        dama_clear_limits(x);
        dama_set_limit(x, DAMA_LIMIT_DEPTH, 60);
        dama_set_stop_callback(x, stop_now, &calls);
        assert_int_equal(dama_search(x, a, sizeof a), DAMA_OK);
        assert_true(calls > 0);
        assert_true(dama_search_nodes(x) < 5000);
        assert_int_equal(dama_move_find(x, a, &idx), DAMA_OK);
        dama_set_stop_callback(x, NULL, NULL);
        /* the clock: 2 s left and no increment, 30 moves to go: ~66 ms */
        dama_clear_limits(x);
        dama_set_limit(x, DAMA_LIMIT_WHITE_TIME_MS, 2000);
        dama_set_limit(x, DAMA_LIMIT_BLACK_TIME_MS, 1);
        assert_int_equal(dama_search(x, a, sizeof a), DAMA_OK);
        assert_int_equal(dama_move_find(x, a, &idx), DAMA_OK);
        dama_game_free(x);
        dama_game_free(y);
    }
}

/* The clock goes to the engine's time manager (engine/timeman.h): a
 * clock search stays within the hard limit timeman_budget gives, and a
 * movetime beside a clock applies when it is shorter. Bounds on the CPU
 * time the search used (a busy machine stretches the wall time only), with
 * wide margins; the search's deadlines are on the wall clock, so its CPU
 * time is at most the hard limit plus a poll interval. */
static void test_clock(void **state)
{
    (void)state;
    for (size_t k = 0; k < 3; k++) {
        DamaGame *g = new_game(GAMES[k], NULL);
        char move[DAMA_MOVE_TEXT_MAX];
        int idx;
        /* 2 s left, no increment: soft 66 ms, hard 264 ms (no limit at
         * all would be a second: the default) */
        int64_t soft, hard;
        timeman_budget(2000, 0, 0, &soft, &hard);
        assert_int_equal(soft, 66);
        assert_int_equal(hard, 264);
        dama_set_limit(g, DAMA_LIMIT_WHITE_TIME_MS, 2000);
        dama_set_limit(g, DAMA_LIMIT_BLACK_TIME_MS, 1);
        double c0 = clock_thread_cpu_s();
        assert_int_equal(dama_search(g, move, sizeof move), DAMA_OK);
        double used = clock_thread_cpu_s() - c0;
        if (used > (double)hard / 1000 * 1.5 + 0.1) fail_msg("%s: a clock search used %.3f s CPU, hard limit %lld ms", GAMES[k], used, (long long)hard);
        assert_true(dama_search_depth(g) >= 1);
        assert_int_equal(dama_move_find(g, move, &idx), DAMA_OK);
        /* a minute left (hard limit 8 s) and a movetime of 20 ms: the movetime */
        dama_set_limit(g, DAMA_LIMIT_WHITE_TIME_MS, 60000);
        dama_set_limit(g, DAMA_LIMIT_MOVETIME_MS, 20);
        c0 = clock_thread_cpu_s();
        assert_int_equal(dama_search(g, move, sizeof move), DAMA_OK);
        used = clock_thread_cpu_s() - c0;
        if (used > 0.02 * 1.5 + 0.1) fail_msg("%s: movetime 20 ms beside a clock: %.3f s CPU", GAMES[k], used);
        assert_int_equal(dama_move_find(g, move, &idx), DAMA_OK);
        /* Black to move reads Black's clock: 1 ms left, a legal move at once */
        assert_int_equal(dama_play(g, move, sizeof move), DAMA_OK);
        dama_clear_limits(g);
        dama_set_limit(g, DAMA_LIMIT_WHITE_TIME_MS, 600000);
        dama_set_limit(g, DAMA_LIMIT_BLACK_TIME_MS, 1);
        c0 = clock_thread_cpu_s();
        assert_int_equal(dama_search(g, move, sizeof move), DAMA_OK);
        used = clock_thread_cpu_s() - c0;
        if (used > 0.1) fail_msg("%s: Black with 1 ms left used %.3f s CPU", GAMES[k], used);
        assert_int_equal(dama_move_find(g, move, &idx), DAMA_OK);
        /* the largest clocks and movetime an int64_t holds, with a node
         * limit: the node limit ends the search (the time arithmetic does
         * not overflow into a deadline in the past) */
        static const int limits[] = {DAMA_LIMIT_WHITE_TIME_MS, DAMA_LIMIT_BLACK_TIME_MS, DAMA_LIMIT_WHITE_INC_MS,
                                     DAMA_LIMIT_BLACK_INC_MS, DAMA_LIMIT_MOVES_TO_GO};
        for (int huge_movetime = 0; huge_movetime < 2; huge_movetime++) {
            dama_clear_limits(g);
            if (huge_movetime) assert_int_equal(dama_set_limit(g, DAMA_LIMIT_MOVETIME_MS, INT64_MAX), DAMA_OK);
            else
                for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) assert_int_equal(dama_set_limit(g, limits[i], INT64_MAX), DAMA_OK);
            assert_int_equal(dama_set_limit(g, DAMA_LIMIT_NODES, 3000), DAMA_OK);
            assert_int_equal(dama_search(g, move, sizeof move), DAMA_OK);
            if (dama_search_nodes(g) < 3000) fail_msg("%s: huge %s, 3000 nodes: stopped after %llu nodes", GAMES[k], huge_movetime ? "movetime" : "clock", (unsigned long long)dama_search_nodes(g));
            assert_int_equal(dama_move_find(g, move, &idx), DAMA_OK);
        }
        dama_game_free(g);
    }
}

/* Levels: below max the choice is random among near-best moves — the
 * same seed gives the same move, different seeds give different moves;
 * every choice is legal. */
static void test_levels(void **state)
{
    (void)state;
    assert_string_equal(dama_level_name(DAMA_LEVEL_CLUB), "club");
    assert_null(dama_level_name(0));
    for (size_t k = 0; k < 3; k++) {
        DamaGame *g = new_game(GAMES[k], NULL);
        assert_int_equal(dama_level(g), DAMA_LEVEL_MAX);
        assert_int_equal(dama_set_level_name(g, "beginner"), DAMA_OK);
        assert_int_equal(dama_level(g), DAMA_LEVEL_BEGINNER);
        char first[DAMA_MOVE_TEXT_MAX] = "", move[DAMA_MOVE_TEXT_MAX];
        int distinct = 0;
        for (uint64_t seed = 0; seed < 12; seed++) {
            dama_set_seed(g, seed);
            assert_int_equal(dama_search(g, move, sizeof move), DAMA_OK);
            int idx;
            assert_int_equal(dama_move_find(g, move, &idx), DAMA_OK);
            char again[DAMA_MOVE_TEXT_MAX];
            dama_set_seed(g, seed);
            assert_int_equal(dama_search(g, again, sizeof again), DAMA_OK);
            assert_string_equal(move, again);
            if (seed == 0) strcpy(first, move);
            else distinct += strcmp(first, move) != 0;
        }
        assert_true(distinct > 0);
        dama_game_free(g);
    }
}

/* Every enum, colour and index argument out of its range: the documented
 * error (status, -1 or NULL), a message naming the argument, nothing
 * changed. */
static void test_bad_arguments(void **state)
{
    (void)state;
    DamaGame *g = new_game("shatra", NULL);
    char before[DAMA_POSITION_MAX], after[DAMA_POSITION_MAX], out[DAMA_MOVE_TEXT_MAX];
    dama_position(g, before, sizeof before);
    int accept = 7, squares[4];
    const DamaColor colors[] = {(DamaColor)2, (DamaColor)-1, (DamaColor)255};
    for (size_t i = 0; i < sizeof colors / sizeof colors[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "dama_accept_draw: side %d is neither DAMA_WHITE (0) nor DAMA_BLACK (1)", (int)colors[i]);
        assert_int_equal(dama_accept_draw(g, colors[i], &accept), DAMA_E_ARGUMENT);
        assert_string_equal(dama_last_error(g), want);
        assert_int_equal(accept, 7);
        assert_int_equal(dama_royal_attacked(g, colors[i]), -1);
    }
    assert_int_equal(dama_royal_attacked(g, DAMA_WHITE), 0); /* the start: neither Biy attacked */
    assert_int_equal(dama_royal_attacked(g, DAMA_BLACK), 0);
    assert_int_equal(dama_royal_attacked(NULL, DAMA_WHITE), 0);
    static const struct {
        int limit;
        int64_t value;
        const char *err;
    } limits[] = {{-1, 5, "unknown limit -1"}, {99, 5, "unknown limit 99"}, {DAMA_LIMIT_NODES, -1, "negative value -1"},
                  {DAMA_LIMIT_DEPTH, 1000, "depth 1000 beyond the deepest search"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        assert_int_equal(dama_set_limit(g, limits[i].limit, limits[i].value), DAMA_E_ARGUMENT);
        if (!strstr(dama_last_error(g), limits[i].err)) fail_msg("limit %d = %lld: '%s'", limits[i].limit, (long long)limits[i].value, dama_last_error(g));
    }
    static const int levels[] = {0, -1, 6, 1000};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        assert_int_equal(dama_set_level(g, levels[i]), DAMA_E_LEVEL);
        assert_null(dama_level_name(levels[i]));
        assert_null(dama_level_doc(levels[i]));
    }
    assert_int_equal(dama_level(g), DAMA_LEVEL_MAX);
    assert_int_equal(dama_set_hash_mb(g, 0), DAMA_E_ARGUMENT);
    assert_int_equal(dama_set_hash_mb(g, 65537), DAMA_E_ARGUMENT);
    int n = dama_moves_count(g);
    static const int indices[] = {-1, INT_MIN, 0x7fffffff};
    for (size_t i = 0; i < sizeof indices / sizeof indices[0]; i++) {
        int bad = indices[i];
        assert_int_equal(dama_move_text(g, bad, out, sizeof out), DAMA_E_MOVE);
        assert_int_equal(dama_move_from(g, bad), -1);
        assert_int_equal(dama_move_to(g, bad), -1);
        assert_int_equal(dama_move_kind(g, bad), -1);
        assert_int_equal(dama_move_promotion(g, bad), -1);
        assert_int_equal(dama_move_captures(g, bad, squares, 4), -1);
        assert_int_equal(dama_apply_index(g, bad), DAMA_E_MOVE);
        assert_int_equal(dama_history_move(g, bad, out, sizeof out), DAMA_E_ARGUMENT);
        assert_null(dama_term_name(g, bad));
        assert_null(dama_term_doc(g, bad));
        assert_int_equal(dama_term_offset(g, bad), -1);
        assert_int_equal(dama_term_size(g, bad), -1);
        assert_null(dama_game_name_at(bad));
    }
    assert_int_equal(dama_move_text(g, n, out, sizeof out), DAMA_E_MOVE); /* one past the last */
    assert_non_null(strstr(dama_last_error(g), "out of range"));
    assert_int_equal(dama_history_move(g, 0, out, sizeof out), DAMA_E_ARGUMENT); /* no ply played yet */
    assert_null(dama_term_name(g, dama_terms_count(g)));
    assert_null(dama_game_name_at(dama_games_count()));
    assert_int_equal(dama_move_captures(g, 0, squares, -1), -1);
    assert_int_equal(dama_move_captures(g, 0, NULL, 4), -1);
    assert_non_null(strstr(dama_last_error(g), "dama_move_captures: max 4 with no squares array"));
    assert_int_equal(dama_move_captures(g, 0, NULL, 0), 0); /* the count only: a start move captures nothing */
    assert_int_equal(dama_move_text(g, 0, NULL, 10), DAMA_E_ARGUMENT);
    assert_int_equal(dama_move_text(g, 0, out, 0), DAMA_E_ARGUMENT);
    assert_string_equal(dama_status_text(-1), "unknown status");
    assert_string_equal(dama_status_text(DAMA_E_LEVEL + 1), "unknown status");
    dama_position(g, after, sizeof after);
    assert_string_equal(before, after);
    assert_int_equal(dama_ply_count(g), 0);
    dama_game_free(g);
}

/* Draw offers: the side that is a king up declines, the other accepts; a
 * drawn game is accepted. */
static void test_draw_offer(void **state)
{
    (void)state;
    DamaGame *g = new_game("russian", "W:WKa1,Kc1,Ke1,g3:BKh8");
    dama_set_limit(g, DAMA_LIMIT_DEPTH, 6);
    int accept = -1;
    assert_int_equal(dama_accept_draw(g, DAMA_WHITE, &accept), DAMA_OK);
    assert_int_equal(accept, 0);
    assert_int_equal(dama_accept_draw(g, DAMA_BLACK, &accept), DAMA_OK);
    assert_int_equal(accept, 1);
    assert_int_equal(dama_accept_draw(g, DAMA_BLACK, NULL), DAMA_E_ARGUMENT);
    dama_game_free(g);
}

/* Weights: compiled-in, set from an array, JSON round trip and refusals. */
static void test_weights(void **state)
{
    (void)state;
    game_init_all();
    for (size_t k = 0; k < 3; k++) {
        DamaGame *g = new_game(GAMES[k], NULL);
        const Game *game = game_find(GAMES[k]);
        int n = dama_weights_len(g);
        assert_int_equal(n, game->weights_len);
        EVAL_AUTO_FREE int32_t *w = eval_weights_new(game);
        assert_non_null(w);
        assert_int_equal(dama_weights_get(g, w, n), DAMA_OK);
        assert_memory_equal(w, game->weights_default(), sizeof(int32_t) * (size_t)n);
        assert_int_equal(dama_weights_get(g, w, n - 1), DAMA_E_ARGUMENT);
        int terms = dama_terms_count(g), total = 0;
        for (int i = 0; i < terms; i++) {
            assert_int_equal(dama_term_offset(g, i), total);
            total += dama_term_size(g, i);
            assert_non_null(dama_term_name(g, i));
            assert_non_null(dama_term_doc(g, i));
        }
        assert_int_equal(total, n);
        assert_null(dama_term_name(g, terms));
        char hash[WEIGHTS_ID_MAX];
        weights_hash_text(game, game->weights_default(), hash);
        assert_string_equal(dama_weights_hash(g), hash);
        /* one hash: the database's content hash of the same set, and the
         * one the committed weights.h carries */
        const char **names = weight_names_new(game);
        assert_non_null(names);
        char db_hash[DB_HASH_HEX];
        db_weights_hash(game->name, names, game->weights_default(), n, db_hash);
        free((void *)names);
        assert_string_equal(hash, db_hash);
        static const char *const header_hash[] = {RUSSIAN_WEIGHTS_HASH, TURKISH_WEIGHTS_HASH, SHATRA_WEIGHTS_HASH};
        static const char *const header_layout[] = {RUSSIAN_WEIGHTS_LAYOUT, TURKISH_WEIGHTS_LAYOUT, SHATRA_WEIGHTS_LAYOUT};
        assert_string_equal(hash, header_hash[k]);
        assert_string_equal(dama_weights_layout(g), header_layout[k]);

        /* an array: the scale weight doubled changes the evaluation */
        DamaGame *ref = new_game(GAMES[k], "start");
        EVAL_AUTO_FREE int32_t *changed = eval_weights_new(game);
        assert_non_null(changed);
        memcpy(changed, w, sizeof(int32_t) * (size_t)n);
        for (int i = 0; i < n; i++) changed[i] = w[i] / 2;
        assert_int_equal(dama_weights_set(g, changed, n), DAMA_OK);
        assert_string_not_equal(dama_weights_hash(g), hash);
        changed[0] = 6000;
        assert_int_equal(dama_weights_set(g, changed, n), DAMA_E_WEIGHTS);
        assert_non_null(strstr(dama_last_error(g), "6000"));
        assert_int_equal(dama_weights_set(g, changed, n + 1), DAMA_E_WEIGHTS);
        dama_weights_default(g);
        assert_string_equal(dama_weights_hash(g), hash);

        /* JSON round trip: half the weights, exported and read back */
        for (int i = 0; i < n; i++) changed[i] = w[i] / 2;
        /* a match won 100%: an infinite Elo is written null, the JSON stays valid */
        WeightsProvenance prov = {.lineage = "test", .weight_set_id = 7, .name = "half", .how = "halved",
                                  .match_id = 3, .games = 8, .wins = 8, .elo = INFINITY, .elo_lo = -INFINITY, .llr = NAN};
        char *json = weights_json_format(game, changed, &prov);
        assert_non_null(json);
        char *json2 = weights_json_format(game, changed, &prov);
        assert_string_equal(json, json2); /* same input, same bytes */
        assert_non_null(strstr(json, "\"elo\": null"));
        assert_non_null(strstr(json, "\"llr\": null"));
        assert_null(strstr(json, "inf"));
        free(json2);
        assert_int_equal(dama_weights_parse_json(g, json), DAMA_OK);
        EVAL_AUTO_FREE int32_t *back = eval_weights_new(game);
        assert_non_null(back);
        dama_weights_get(g, back, n);
        assert_memory_equal(back, changed, sizeof(int32_t) * (size_t)n);
        /* ... from a file */
        char path[] = "/tmp/dama_api_json_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
        close(fd);
        dama_weights_default(g);
        assert_int_equal(dama_weights_load_json(g, path), DAMA_OK);
        dama_weights_get(g, back, n);
        assert_memory_equal(back, changed, sizeof(int32_t) * (size_t)n);
        unlink(path);
        assert_int_equal(dama_weights_load_json(g, path), DAMA_E_IO);
        assert_non_null(strstr(dama_last_error(g), "cannot read weights JSON '/tmp/dama_api_json_"));
        assert_int_equal(dama_weights_load_json(g, "/tmp"), DAMA_E_IO); /* a folder: said as such */
        assert_string_equal(dama_last_error(g), "'/tmp' is a directory, not a weights JSON");
        /* another game's JSON is refused, naming both games */
        const char *other = GAMES[(k + 1) % 3];
        DamaGame *o = new_game(other, NULL);
        assert_int_equal(dama_weights_parse_json(o, json), DAMA_E_WEIGHTS);
        assert_non_null(strstr(dama_last_error(o), GAMES[k]));
        assert_non_null(strstr(dama_last_error(o), other));
        dama_game_free(o);
        /* another layout version is refused */
        char layout[WEIGHTS_ID_MAX];
        weights_layout_text(game, layout);
        char *at = strstr(json, layout);
        assert_non_null(at);
        at[0] = at[0] == '0' ? '1' : '0';
        dama_weights_default(g);
        assert_int_equal(dama_weights_parse_json(g, json), DAMA_E_WEIGHTS);
        assert_non_null(strstr(dama_last_error(g), "layout version"));
        at[0] = layout[0];
        /* what the file says of itself is checked: its length, title, a term's offset, count and doc (the
         * first occurrence of each key, the top level's or the first term's; its value up to the next ',') */
        static const struct {
            const char *key, *value, *message;
        } meta[] = {{"\"weights_len\": ", "5", "\"weights_len\" is another number"},
                    {"\"weights_len\": ", "\"lots\"", "\"weights_len\" is a string"},
                    {"\"title\": ", "12", "\"title\" is a number, not a string"},
                    {"\"offset\": ", "9999", "\"offset\" is another number, this engine's is 0"},
                    {"\"count\": ", "3", "\"count\" is another number, this engine's is 1"},
                    {"\"doc\": ", "7", "\"doc\" is a number, not a string"},
                    {"\"format_version\": ", "2", "\"format_version\" is not 1..1 (written by a newer dama?)"},
                    {"\"format_version\": ", "\"1\"", "\"format_version\" is not 1..1"}};
        for (size_t m = 0; m < sizeof meta / sizeof meta[0]; m++) {
            char *from = strstr(json, meta[m].key);
            assert_non_null(from);
            const char *rest = strchr(from, ',');
            assert_non_null(rest);
            size_t len = strlen(json) + strlen(meta[m].value) + 1;
            char *edited = malloc(len);
            assert_non_null(edited);
            snprintf(edited, len, "%.*s%s%s", (int)(from - json + strlen(meta[m].key)), json, meta[m].value, rest);
            assert_int_equal(dama_weights_parse_json(g, edited), DAMA_E_WEIGHTS);
            if (!strstr(dama_last_error(g), meta[m].message))
                fail_msg("%s%s: '%s' lacks '%s'", meta[m].key, meta[m].value, dama_last_error(g), meta[m].message);
            if (meta[m].value[0] == '"' && strstr(dama_last_error(g), "newer")) /* a string is no newer version */
                fail_msg("%s%s: '%s'", meta[m].key, meta[m].value, dama_last_error(g));
            free(edited);
        }
        /* an edited value no longer matches the hash */
        char *values = strstr(json, "\"values\": [");
        assert_non_null(values);
        char *digit = values + strlen("\"values\": [");
        while (*digit && !(*digit >= '1' && *digit <= '8')) digit++;
        assert_true(*digit);
        (*digit)++;
        assert_int_equal(dama_weights_parse_json(g, json), DAMA_E_WEIGHTS);
        assert_non_null(strstr(dama_last_error(g), "hash"));
        assert_int_equal(dama_weights_parse_json(g, "{ \"format\": "), DAMA_E_WEIGHTS);
        assert_non_null(strstr(dama_last_error(g), "syntax error"));
        assert_int_equal(dama_weights_parse_json(g, "[1, 2]"), DAMA_E_WEIGHTS);
        assert_int_equal(dama_weights_parse_json(g, "{\"format\": \"dama-weights\", \"game\": \"russian\"}"),
                         DAMA_E_WEIGHTS);
        assert_non_null(strstr(dama_last_error(g), "no \"format_version\" (a dama weights export has one, 1..1)"));
        /* failures left the compiled-in weights in place */
        assert_string_equal(dama_weights_hash(g), hash);
        free(json);
        dama_game_free(ref);
        dama_game_free(g);
    }
}

/* Two games searched on two threads at once give the results of the same
 * searches one after the other (no shared mutable state). */
typedef struct ThreadJob {
    const char *game;
    char move[DAMA_MOVE_TEXT_MAX];
    int score;
} ThreadJob;

static void *thread_search(void *arg)
{
    ThreadJob *job = arg;
    DamaGame *g = NULL;
    if (dama_game_new(job->game, NULL, &g, NULL) != DAMA_OK) return NULL;
    dama_set_limit(g, DAMA_LIMIT_NODES, 40000);
    for (int i = 0; i < 6 && dama_result(g, NULL) == DAMA_ONGOING; i++) dama_play(g, NULL, 0);
    dama_search(g, job->move, sizeof job->move);
    job->score = dama_search_score(g);
    dama_game_free(g);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    ThreadJob seq[2] = {{.game = "russian"}, {.game = "shatra"}}, par[2] = {{.game = "russian"}, {.game = "shatra"}};
    for (int i = 0; i < 2; i++) thread_search(&seq[i]);
    pthread_t t[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, thread_search, &par[i]), 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) {
        assert_true(strlen(seq[i].move) > 0);
        assert_string_equal(seq[i].move, par[i].move);
        assert_int_equal(seq[i].score, par[i].score);
    }
}

/* A table that cannot be had: dama_set_hash_mb says so at once and the
 * table before it stays (it freed that table and failed at the next
 * search). In a child whose address space is capped at 1 GiB above what
 * it uses; not under AddressSanitizer, whose shadow memory needs more. */
static void test_hash_memory(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#else
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        DamaGame *g = NULL;
        char err[256], out[64];
        if (dama_game_new("russian", NULL, &g, err) != DAMA_OK) _exit(10);
        if (dama_set_hash_mb(g, 8) != DAMA_OK) _exit(11);
        if (dama_set_limit(g, DAMA_LIMIT_DEPTH, 4) != DAMA_OK) _exit(12);
        long vm = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &vm) != 1) _exit(13);
        fclose(f);
        struct rlimit rl = {.rlim_cur = (rlim_t)vm * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30)};
        rl.rlim_max = rl.rlim_cur;
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(14);
        if (dama_set_hash_mb(g, 4096) != DAMA_E_MEMORY) _exit(15);
        if (!strstr(dama_last_error(g), "4096 MiB; the 8 MiB one stays")) _exit(16);
        if (dama_search(g, out, sizeof out) != DAMA_OK) _exit(17); /* with the 8 MiB table */
        if (dama_set_hash_mb(g, 16) != DAMA_OK) _exit(18);
        if (dama_search(g, out, sizeof out) != DAMA_OK) _exit(19);
        dama_game_free(g);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_spellings), cmocka_unit_test(test_errors),  cmocka_unit_test(test_bad_arguments), cmocka_unit_test(test_status),     cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_pdn),           cmocka_unit_test(test_search),     cmocka_unit_test(test_clock),      cmocka_unit_test(test_levels),
        cmocka_unit_test(test_draw_offer),    cmocka_unit_test(test_weights),    cmocka_unit_test(test_threads), cmocka_unit_test(test_hash_memory),
        cmocka_unit_test(test_moves_russian), cmocka_unit_test(test_moves_turkish), cmocka_unit_test(test_moves_shatra),
        cmocka_unit_test(test_moves_international), cmocka_unit_test(test_international), cmocka_unit_test(test_canadian),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
