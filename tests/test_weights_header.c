/* test_weights_header.c — the compiled-in weights (engine/weights_id.h,
 * weights_adopt): every game's generated weights.h was exported from its
 * current term list (a stale header fails here with what to run), is laid
 * out unchanged, and a header of an older or newer term list is laid out
 * by name: the groups it has are copied, the others are 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game.h"
#include "engine/weights_id.h"

static int setup(void **state)
{
    (void)state;
    game_init_all();
    return 0;
}

/* Every game's weights.h matches its eval_terms.def and is the default. */
static void test_headers_current(void **state)
{
    (void)state;
    for (const Game *const *p = game_list(); *p; p++) {
        const Game *g = *p;
        const WeightsHeader *h = g->weights_header;
        assert_non_null(h);
        int32_t *w = malloc(sizeof *w * (size_t)g->weights_len);
        assert_non_null(w);
        int missing = weights_adopt(g, h, w);
        if (missing)
            fail_msg("engine/games/%s/weights.h lacks %d term group(s) of eval_terms.def: run "
                     "`dama export --game %s --weights default` (docs/contributing.md)", g->name, missing, g->name);
        assert_int_equal(h->terms_len, g->terms_len);
        assert_int_equal(h->weights_len, g->weights_len);
        assert_memory_equal(w, h->weights, sizeof *w * (size_t)g->weights_len);
        assert_memory_equal(g->weights_default(), h->weights, sizeof *w * (size_t)g->weights_len);
        /* the header of this term list is used as it is: nothing copied */
        assert_ptr_equal(g->weights_default(), h->weights);
        assert_ptr_equal(weights_laid_out(g, h, w), h->weights);
        free(w);
    }
}

/* A header of another term list: the first game's terms with one group
 * renamed, one resized and one left out, in reverse order. */
static void test_header_other_layout(void **state)
{
    (void)state;
    const Game *g = game_find(GAME_DEFAULT_NAME);
    assert_non_null(g);
    assert_true(g->terms_len >= 4);
    int n = g->terms_len - 1; /* the last group left out */
    const char **names = calloc((size_t)n, sizeof *names);
    int *offsets = calloc((size_t)n, sizeof *offsets), *counts = calloc((size_t)n, sizeof *counts);
    int32_t *hw = calloc((size_t)g->weights_len, sizeof *hw), *w = malloc(sizeof *w * (size_t)g->weights_len);
    assert_true(names && offsets && counts && hw && w);
    int at = 0;
    for (int i = 0; i < n; i++) { /* reverse order: offsets follow the header's own order */
        const EvalTerm *t = &g->terms[n - 1 - i];
        names[i] = i == 0 ? "RENAMED" : t->name;
        counts[i] = i == 1 ? t->count + 1 : t->count;
        offsets[i] = at;
        for (int k = 0; k < counts[i]; k++) hw[at + k] = 1000 + (n - 1 - i);
        at += counts[i];
    }
    assert_true(at <= g->weights_len);
    WeightsHeader h = {names, offsets, counts, n, hw, at};
    /* not given: the renamed group, the resized group and the left-out one */
    assert_int_equal(weights_adopt(g, &h, w), 3);
    int32_t *laid = malloc(sizeof *laid * (size_t)g->weights_len);
    assert_non_null(laid);
    assert_ptr_equal(weights_laid_out(g, &h, laid), laid); /* another layout: laid out into the buffer */
    assert_memory_equal(laid, w, sizeof *w * (size_t)g->weights_len);
    free(laid);
    for (int t = 0; t < g->terms_len; t++) {
        const EvalTerm *term = &g->terms[t];
        bool given = t != n - 1 && t != n - 2 && t != n;
        for (int k = 0; k < term->count; k++) assert_int_equal(w[term->offset + k], given ? 1000 + t : 0);
    }
    free(names), free(offsets), free(counts), free(hw), free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_headers_current),
        cmocka_unit_test(test_header_other_layout),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
