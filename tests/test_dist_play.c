/* test_dist_play.c — the messages of games played over MPI ranks
 * (arena/play_msg.h: dist_record_encode / dist_record_decode, what a rank
 * sends rank 0 for match, tournament and train --mpi): a decoded record is
 * the played one field for field (result, reason, plies, every position,
 * score and quiet flag, movetext, nodes, fault and its detail) in each of
 * the three games; a reason is interned (the same pointer for the same
 * text, as a played record's static strings are); every truncation, a byte
 * left over, a wrong magic and fields out of range are refused with a
 * message naming the byte (the record keeps its plies and movetext). The relay
 * itself runs in tests/mpi (match.sh, tournament.sh, train.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena/play_msg.h"
#include "engine/game.h"
#include "arena/game_writer.h"
#include "arena/play.h"
#include "arena/workers.h"

static const char *const GAMES[] = {"russian", "turkish", "shatra"};

/* A game of g at 300 nodes a move, at most max_plies, into rec (a worker's). */
static void play(const Game *g, Worker *wk, int max_plies)
{
    char err[ERR_MAX];
    volatile int stop = 0;
    GameWriter none;
    game_writer_init(&none, NULL, 1, 1.0);
    assert_true(worker_init(wk, g, 2, &stop, &none));
    Position start;
    assert_int_equal(game_parse_position(g, NULL, &start, err), 0);
    PlaySettings ps = {.nodes = 300, .max_plies = max_plies};
    assert_int_equal(play_game(g, wk->eng, &start, &ps, NULL, &wk->rec, err), 0);
    game_writer_free(&none);
}

static void assert_same_record(const Game *g, const PlayRecord *a, const PlayRecord *b)
{
    assert_int_equal(a->outcome, b->outcome);
    assert_string_equal(a->reason, b->reason);
    assert_int_equal(a->plies, b->plies);
    assert_memory_equal(a->positions, b->positions, sizeof(Position) * (size_t)a->plies);
    for (int i = 0; i < a->plies; i++) {
        assert_int_equal(a->scores[i], b->scores[i]);
        assert_int_equal(a->quiet[i], b->quiet[i]);
        char fa[FEN_MAX], fb[FEN_MAX];
        g->pos_to_fen(&a->positions[i], fa);
        g->pos_to_fen(&b->positions[i], fb);
        assert_string_equal(fa, fb);
    }
    assert_string_equal(a->movetext, b->movetext);
    assert_true(a->nodes == b->nodes);
    assert_true(a->engine_seconds == b->engine_seconds);
    assert_int_equal(a->moves[0] + a->moves[1], a->plies); /* every move timed, on its side */
    for (int c = 0; c < 2; c++) {
        assert_int_equal(a->moves[c], b->moves[c]);
        assert_true(a->wall_s[c] == b->wall_s[c] && a->cpu_s[c] == b->cpu_s[c]);
        assert_int_equal(a->book_moves[c], b->book_moves[c]);
    }
    assert_int_equal(a->fault, b->fault);
    assert_int_equal(a->fault_side, b->fault_side);
    assert_string_equal(a->detail, b->detail);
}

static void test_round_trip(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof GAMES / sizeof GAMES[0]; k++) {
        const Game *g = game_find(GAMES[k]);
        assert_non_null(g);
        Worker wk;
        play(g, &wk, 60);
        assert_true(wk.rec.plies > 4);
        /* as a faulting Hub engine's game: a fault, its side and detail */
        const struct {
            PlayerFault fault;
            Color side;
            const char *detail;
        } cases[] = {{PLAYER_OK, COLOR_WHITE, ""}, {PLAYER_CRASH, COLOR_BLACK, "engine 'x' died: last output\nbye"}};
        const char *first_reason = NULL;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            wk.rec.book_moves[0] = (int)c, wk.rec.book_moves[1] = 1; /* as if from the players' books */
            wk.rec.fault = cases[c].fault;
            wk.rec.fault_side = cases[c].side;
            snprintf(wk.rec.detail, sizeof wk.rec.detail, "%s", cases[c].detail);
            uint8_t *buf = NULL;
            size_t size = 0;
            assert_int_equal(dist_record_encode(5 + (int64_t)c, 1, 3, 0, &wk.rec, &buf, &size), 0);
            PlayRecord got;
            assert_int_equal(play_record_init(&got), 0);
            int64_t job = -1;
            int kk = -1, white = -1, black = -1;
            char reason[64], err[ERR_MAX];
            assert_int_equal(dist_record_decode(g, buf, size, &job, &kk, &white, &black, &got, reason, err), 0);
            assert_true(job == 5 + (int64_t)c);
            assert_int_equal(kk, 1);
            assert_int_equal(white, 3);
            assert_int_equal(black, 0);
            assert_same_record(g, &wk.rec, &got);
            /* interned: the stored pointer outlives the message and the scratch */
            assert_true(got.reason != reason);
            if (!first_reason) first_reason = got.reason;
            assert_ptr_equal(got.reason, first_reason);
            play_record_free(&got);
            free(buf);
        }
        worker_free(&wk);
    }
}

static void test_malformed_refused(void **state)
{
    (void)state;
    const Game *g = game_find("russian");
    Worker wk;
    play(g, &wk, 12);
    uint8_t *buf = NULL;
    size_t size = 0;
    assert_int_equal(dist_record_encode(2, 0, 0, 1, &wk.rec, &buf, &size), 0);
    uint8_t *copy = malloc(size + 1);
    assert_non_null(copy);
    PlayRecord got;
    assert_int_equal(play_record_init(&got), 0);
    got.plies = 0;
    /* every truncation; then one byte left over, a wrong magic, outcome 7,
     * plies PLAY_PLIES_MAX + 1, fault 99, White's moves -1, White's book
     * moves -1, game k 2 (a job has 1 or 2) */
    enum { EXTRA = 8 };
    for (size_t len = 0; len < size + EXTRA; len++) {
        if (len == size) continue; /* the whole message: fine */
        memcpy(copy, buf, size);
        size_t n = len < size ? len : size;
        int32_t v;
        switch (len > size ? (int)(len - size) : 0) {
        case 1: copy[size] = 0, n = size + 1; break;
        case 2: copy[0] = 'X'; break;
        case 3: v = 7, memcpy(copy + 4 + 8 + 12, &v, 4); break;
        case 4: v = PLAY_PLIES_MAX + 1, memcpy(copy + 4 + 8 + 16, &v, 4); break;
        case 5: v = 99, memcpy(copy + 4 + 8 + 20, &v, 4); break;
        case 6: v = -1, memcpy(copy + 4 + 8 + 28 + 8 + 8, &v, 4); break;
        case 7: v = -1, memcpy(copy + 4 + 8 + 28 + 8 + 8 + 8 + 16 + 16, &v, 4); break;
        default: break;
        }
        if (len == size + EXTRA - 1) v = 2, memcpy(copy + 4 + 8, &v, 4);
        int64_t job;
        int kk, white, black;
        char reason[64], err[ERR_MAX] = "";
        assert_int_equal(dist_record_decode(g, copy, n, &job, &kk, &white, &black, &got, reason, err), -1);
        assert_non_null(strstr(err, "malformed at byte"));
        assert_int_equal(got.plies, 0); /* not taken over */
    }
    play_record_free(&got);
    free(copy);
    free(buf);
    worker_free(&wk);
}

int main(void)
{
    game_init_all();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_malformed_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
