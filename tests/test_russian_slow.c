/* test_russian_slow.c — deep perft of Russian draughts against the published
 * figures of data/perft/russian.txt (depths 10-11; its README names
 * the sources). Label `slow`: a few seconds in a Release build. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/game.h"

#include "perft_table.h"

#define PERFT_FILE DAMA_SOURCE_DIR "/data/perft/russian.txt"

static void test_perft_deep(void **state)
{
    (void)state;
    game_init_all();
    const Game *g = game_find("russian");
    assert_non_null(g);
    /* D10, D11 of the D line; D10 of the P line; D10, D11 of the K line. */
    assert_true(perft_table_check(g, PERFT_FILE, 10, 11) >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
