/* test_variants_slow.c — deep perft of the draughts family (Brazilian, Pool,
 * English, Czech, Italian, Spanish, International) against every published figure of
 * data/perft/other_variants.txt from depth 9 on: D to depth 12 (English 13,
 * 1.77 G leaves; International 11 from the start), K to 12 where given. Label `slow`: a few minutes in a
 * Release build. Depths 1-8 are test_variants.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/game.h"

#include "perft_table.h"

#define PERFT_FILE DAMA_SOURCE_DIR "/data/perft/other_variants.txt"

static void test_perft_deep(void **state)
{
    (void)state;
    game_init_all();
    static const struct {
        const char *game;
        int figures;
    } WANT[] = {
        {"brazilian", 4 + 4}, /* D9-D12, K9-K12 */
        {"pool", 4},
        {"english", 4 + 2}, /* K9-K12 of the K line; D12, D13 of the D line */
        {"czech", 4},
        {"italian", 4},
        {"spanish", 4},
        {"international", 3 + 5}, /* start D9-D11 (1.67 G leaves); the second position D9-D13 */
    };
    for (size_t i = 0; i < sizeof WANT / sizeof WANT[0]; i++) {
        const Game *g = game_find(WANT[i].game);
        assert_non_null(g);
        assert_int_equal(perft_table_check(g, PERFT_FILE, 9, 13), WANT[i].figures);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
