/* test_book.c — the move book (book/book.h): a written book reads back the
 * same for every game; lookup finds exactly the positions it holds; bad
 * lines are refused with the file and line; the choice is legal,
 * deterministic for a seed and follows the games; a book grown from a
 * database counts its games' moves and results. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_files.h"
#include "book/book.h"
#include "book/book_build.h"
#include "db/db.h"

typedef struct TempFile {
    char path[64];
} TempFile;

static void temp_file(TempFile *t, const char *text)
{
    snprintf(t->path, sizeof t->path, "/tmp/dama_test_book_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
    if (!text) return;
    FILE *f = fopen(t->path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    game_init_all();
    return 0;
}

/* The first two legal moves of the start position and of the position
 * after the first, added with known counts. */
static void fill(MoveBook *b, const Game *g, Position *start, Move first[2])
{
    char err[ERR_MAX];
    MoveList list;
    assert_int_equal(game_parse_position(g, NULL, start, err), 0);
    g->gen_moves(start, &list, GEN_DISTINCT);
    assert_true(list.len >= 2);
    first[0] = list.moves[0];
    first[1] = list.moves[1];
    assert_int_equal(book_add(b, start, &first[0], 7, 0.75, err), 0);
    assert_int_equal(book_add(b, start, &first[1], 3, 0.25, err), 0);
    Position child;
    g->make_move(start, &first[0], &child);
    g->gen_moves(&child, &list, GEN_DISTINCT);
    assert_int_equal(book_add(b, &child, &list.moves[0], 2, 0.5, err), 0);
}

static void test_round_trip_every_game(void **state)
{
    (void)state;
    for (const Game *const *gp = game_list(); *gp; gp++) {
        const Game *g = *gp;
        MoveBook b, r;
        Position start;
        Move first[2];
        char err[ERR_MAX];
        book_init(&b, g);
        fill(&b, g, &start, first);
        TempFile t;
        temp_file(&t, NULL);
        assert_int_equal(book_save(&b, t.path, &(AtomicOptions){.replace = true}, "a test\nof two lines", err), 0);
        if (book_load(&r, g, t.path, err) != 0) fail_msg("%s: %s", g->name, err);
        assert_ptr_equal(r.game, g);
        assert_int_equal(r.len, 2);
        const BookEntry *e = book_find(&r, &start);
        assert_non_null(e);
        assert_int_equal(e->len, 2);
        /* written most games first */
        assert_int_equal(e->moves[0].games, 7);
        assert_true(e->moves[0].move.from == first[0].from && e->moves[0].move.to == first[0].to);
        assert_float_equal(e->moves[0].score, 0.75, 1e-9);
        assert_int_equal(e->moves[1].games, 3);
        assert_float_equal(e->moves[1].score, 0.25, 1e-9);
        /* the header's game is found without being told */
        MoveBook any;
        assert_int_equal(book_load(&any, NULL, t.path, err), 0);
        assert_ptr_equal(any.game, g);
        book_free(&any);
        book_free(&r);
        book_free(&b);
        unlink(t.path);
    }
}

static void test_merge_and_lookup(void **state)
{
    (void)state;
    const Game *g = game_find("international");
    assert_non_null(g);
    MoveBook b;
    Position start;
    Move first[2];
    char err[ERR_MAX];
    book_init(&b, g);
    fill(&b, g, &start, first);
    assert_int_equal(book_add(&b, &start, &first[1], 1, 1.0, err), 0); /* 3 at 0.25 and 1 at 1: 4 at 0.4375 */
    const BookEntry *e = book_find(&b, &start);
    assert_int_equal(e->len, 2);
    assert_int_equal(e->moves[1].games, 4);
    assert_float_equal(e->moves[1].score, 0.4375, 1e-12);
    /* a position not added is not found, nor one with the other side to move */
    Position child, grandchild;
    MoveList list;
    g->make_move(&start, &first[1], &child);
    assert_null(book_find(&b, &child));
    g->make_move(&start, &first[0], &child);
    assert_non_null(book_find(&b, &child));
    g->gen_moves(&child, &list, GEN_DISTINCT);
    g->make_move(&child, &list.moves[list.len - 1], &grandchild);
    assert_null(book_find(&b, &grandchild));
    /* many positions: the table grows and still finds every one */
    Position p = start;
    for (int i = 0; i < 3000; i++) {
        g->gen_moves(&p, &list, GEN_DISTINCT);
        if (list.len == 0) break;
        assert_int_equal(book_add(&b, &p, &list.moves[0], 1, 0.5, err), 0);
        Position c;
        g->make_move(&p, &list.moves[0], &c);
        p = c;
    }
    assert_non_null(book_find(&b, &start));
    assert_non_null(book_find(&b, &child));
    book_free(&b);
}

static void test_pick(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    MoveBook b;
    Position start;
    Move first[2];
    book_init(&b, g);
    fill(&b, g, &start, first);
    int count[2] = {0, 0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        Move m, again;
        const BookMove *bm = NULL;
        assert_true(book_pick(&b, &start, seed, &m, &bm));
        assert_true(book_pick(&b, &start, seed, &again, NULL));
        assert_memory_equal(&m, &again, sizeof m); /* the same seed, the same move */
        assert_non_null(bm);
        int k = m.from == first[0].from && m.to == first[0].to ? 0 : 1;
        if (k == 1) assert_true(m.from == first[1].from && m.to == first[1].to);
        count[k]++;
    }
    /* 7 games against 3: about 280 and 120 of 400 */
    assert_true(count[0] > 220 && count[0] < 340);
    assert_true(count[1] > 60);
    Position child;
    g->make_move(&start, &first[1], &child);
    Move m;
    assert_false(book_pick(&b, &child, 1, &m, NULL));
    book_free(&b);
}

/* load a book of `body` (after a russian header unless the error is on line 1) and
 * expect an error naming `path:line` and `what`. */
static void expect_bad(const char *body, long line, const char *what)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s", line == 1 ? "" : "# dama book russian 1\n", body);
    TempFile t;
    temp_file(&t, text);
    MoveBook b;
    char err[ERR_MAX], where[96];
    assert_int_equal(book_load(&b, game_find("russian"), t.path, err), -1);
    snprintf(where, sizeof where, "%s:%ld: ", t.path, line);
    if (!strstr(err, where) || !strstr(err, what)) fail_msg("expected '%s' and '%s' in: %s", where, what, err);
    assert_null(b.slots);
    unlink(t.path);
}

#define START "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"

static void test_bad_lines(void **state)
{
    (void)state;
    expect_bad("W:Wa1\tc3-d4\t1\t0.5\n", 1, "not a dama book");
    expect_bad("# dama book russian 2\n", 1, "version 2");
    /* the header as book_save writes it, no looser (a version past int was read by sscanf) */
    expect_bad("# dama book  russian 1\n", 1, "not a dama book");
    expect_bad("# dama bo\n", 1, "not a dama book"); /* shorter than the prefix: nothing read past its end */
    expect_bad("# dama book russian 01\n", 1, "not a dama book");
    expect_bad("# dama book russian +1\n", 1, "not a dama book");
    expect_bad("# dama book russian 1 \n", 1, "not a dama book");
    expect_bad("# dama book russian 99999999999\n", 1, "not a dama book");
    expect_bad("# dama book russian 123456789\n", 1, "version 123456789");
    expect_bad("# dama book chess 1\n", 1, "unknown game 'chess'");
    expect_bad("# dama book turkish 1\n", 1, "a book of turkish, not of russian");
    expect_bad("# ok\n" START "\tc3-d4\t5\n", 3, "3 fields");
    expect_bad(START "\tc3-d4\t5\t0.5\textra\n", 2, "5 fields");
    expect_bad("\n" START "\tc3-d5\t5\t0.5\n", 3, "move:");
    expect_bad("W:Wz9:Bb6\tc3-d4\t5\t0.5\n", 2, "position:");
    expect_bad(START "\tc3-d4\t0\t0.5\n", 2, "games");
    expect_bad(START "\tc3-d4\tmany\t0.5\n", 2, "games");
    expect_bad(START "\tc3-d4\t5\t1.5\n", 2, "score");
    expect_bad(START "\tc3-d4\t5\tnan\n", 2, "score");
    expect_bad(START "\tc3-d4\t5\t0.5\n" START "\tc3-b4\t5\t0.5\n" START "\tc3-d4\t1\t0.5\n", 4, "given twice");
    expect_bad(START "\tc3-d4\t5\t0.5\x01\n", 2, "");
    expect_bad("", 1, "empty file");
    /* a file cut short mid-line: its last line (a plausible record) refused */
    expect_bad(START "\tc3-d4\t5\t0.5\n" START "\tc3-b4\t5\t0.2", 3, "no end of line: the file is truncated");
    expect_bad("# dama book russian 1", 1, "truncated");
    /* a good one with comments, blank lines and CRLF ends */
    TempFile t;
    temp_file(&t, "# dama book russian 1\r\n# note\r\n\r\n" START "\tc3-d4\t5\t0.5\r\n");
    MoveBook b;
    char err[ERR_MAX];
    assert_int_equal(book_load(&b, game_find("russian"), t.path, err), 0);
    assert_int_equal(b.len, 1);
    book_free(&b);
    unlink(t.path);
    assert_int_equal(book_load(&b, NULL, "/nonexistent/book", err), -1);
    assert_non_null(strstr(err, "/nonexistent/book"));
}

/* Store one game of `plies` moves, `movetext`, with `result` under run. */
static void store_game(Db *db, int64_t run, int index, int plies, const char *movetext, const char *result)
{
    char err[ERR_MAX];
    DbGame g = {.run_id = run,
                .game_index = index,
                .game = "russian",
                .result = result,
                .reason = "no-moves",
                .plies = plies,
                .movetext = movetext};
    if (db_game_insert(db, &g, NULL, err) != 0) fail_msg("%s", err);
}

static void test_build(void **state)
{
    (void)state;
    TempFile t;
    temp_file(&t, NULL);
    unlink(t.path);
    Db *db;
    char err[ERR_MAX];
    int64_t run;
    assert_int_equal(db_open(t.path, true, &db, err), 0);
    assert_int_equal(db_run_create(db, "selfplay", "russian", 1, "x", NULL, &run, err), 0);
    store_game(db, run, 0, 3, "1. c3-d4 f6-g5 2. g3-h4", "1-0");
    store_game(db, run, 1, 2, "1. c3-d4 f6-e5 *", "0-1");
    store_game(db, run, 2, 2, "1. c3-d4 f6-g5", "1/2-1/2");
    store_game(db, run, 3, 1, "1. a3-b4", "0-1");
    store_game(db, run, 4, 1, "1. a3-b4", NULL); /* no result: left out */
    db_close(db);
    const Game *g = game_find("russian");
    BookBuildOptions o = {.game = g, .db_path = t.path, .max_ply = 2, .min_games = 1, .min_score = 0, .margin = 1};
    MoveBook b;
    BookBuildStats st;
    if (book_build(&b, &o, &st, err) != 0) fail_msg("%s", err);
    assert_int_equal(st.games, 5);
    assert_int_equal(st.skipped, 1);
    Position start, after;
    assert_int_equal(game_parse_position(g, NULL, &start, err), 0);
    const BookEntry *e = book_find(&b, &start);
    assert_non_null(e);
    assert_int_equal(e->len, 2);
    book_entry_sort(&b, (BookEntry *)e);
    assert_int_equal(e->moves[0].games, 3); /* c3-d4: 1 + 0 + 0.5 of 3 */
    assert_float_equal(e->moves[0].score, 0.5, 1e-12);
    assert_int_equal(e->moves[1].games, 1); /* a3-b4: lost */
    assert_float_equal(e->moves[1].score, 0.0, 1e-12);
    Move m;
    assert_int_equal(g->move_from_str(&start, "c3-d4", &m, err), 0);
    g->make_move(&start, &m, &after);
    e = book_find(&b, &after);
    assert_non_null(e);
    assert_int_equal(e->len, 2);       /* f6-g5 twice (Black 0 and 0.5), f6-e5 once (Black won) */
    assert_int_equal(st.positions, 2); /* ply 2 (g3-h4) is beyond --max-ply 2 */
    book_free(&b);
    /* --min-games 2 and a margin of 0.1: c3-d4 alone, then f6-g5 alone */
    o.min_games = 2;
    o.margin = 0.1;
    assert_int_equal(book_build(&b, &o, &st, err), 0);
    assert_int_equal(book_find(&b, &start)->len, 1);
    assert_int_equal(book_find(&b, &after)->len, 1);
    assert_int_equal(book_find(&b, &after)->moves[0].games, 2);
    book_free(&b);
    /* a stored move that is not legal is an error naming the game and ply */
    assert_int_equal(db_open(t.path, false, &db, err), 0);
    store_game(db, run, 5, 2, "1. c3-d4 c3-d4", "1-0");
    db_close(db);
    assert_int_equal(book_build(&b, &o, &st, err), -1);
    assert_non_null(strstr(err, "ply 2"));
    book_free(&b);
    db_files_remove(t.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_game),
        cmocka_unit_test(test_merge_and_lookup),
        cmocka_unit_test(test_pick),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_build),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
