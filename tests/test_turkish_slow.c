/* test_turkish_slow.c — deeper perft of Turkish draughts against the published
 * figures of data/perft/turkish.txt (P convention, depths 7-8; its
 * header names the source). Our own move list (D convention) must count
 * fewer leaves there: routes that differ only in where a king paused are one
 * move (turkish.md "Reference figures"). Label `slow`: under a second in a
 * Release build. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/game.h"

#include "perft_table.h"

#define PERFT_FILE DAMA_SOURCE_DIR "/data/perft/turkish.txt"

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("turkish");
    return G ? 0 : -1;
}

static void test_perft_paths_deep(void **state)
{
    (void)state;
    /* D7, D8 of the P line. */
    assert_int_equal(perft_table_check(G, PERFT_FILE, 7, 8), 2);
}

static void test_perft_distinct_smaller(void **state)
{
    (void)state;
    static PerftRow rows[8];
    int n = perft_table_read(PERFT_FILE, rows, 8);
    int compared = 0;
    for (int r = 0; r < n; r++) {
        if (strcmp(rows[r].convention, "P") != 0) continue;
        Position pos;
        char err[ERR_MAX];
        assert_int_equal(G->pos_from_fen(&pos, rows[r].fen, err), 0);
        for (int i = 0; i < rows[r].len; i++) {
            if (rows[r].depth[i] < 7 || rows[r].depth[i] > 8) continue;
            uint64_t d = G->perft(&pos, rows[r].depth[i], GEN_DISTINCT);
            if (d >= rows[r].count[i]) {
                print_error("perft %d (D) = %llu, not below the published P figure %llu\n", rows[r].depth[i],
                            (unsigned long long)d, rows[r].count[i]);
                fail();
            }
            compared++;
        }
    }
    assert_int_equal(compared, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_paths_deep),
        cmocka_unit_test(test_perft_distinct_smaller),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
