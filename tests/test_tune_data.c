/* test_tune_data.c — the tuner's position store (tuner/texel_data.c):
 * appending traces, the entry coding, the trace check, reordering, tapered
 * data, the train/validation split and packing for the shards, on synthetic
 * data of a known linear model (texel_data_synthetic) and hand-made traces.
 * Fitting the model (K, Adam, shards, the bench) is test_tune.c's.
 * Tolerances are stated where they are used. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/eval.h"
#include "engine/game.h"
#include "tuner/texel.h"

/* the synthetic model: weights, terms a position, the true K */
enum { W_LEN = 64, TERMS = 10 };
#define K_TRUE 1.3

/* ------------------------------------------------------------- dataset */

static void test_append_and_errors(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    TexelData *d = texel_data_new(8);
    assert_non_null(d);
    assert_null(texel_data_new(0));
    assert_null(texel_data_new(TEXEL_WEIGHTS_MAX + 1));

    /* coefficients beyond int8 range, a zero coefficient and a repeated index */
    EvalTrace t = {.len = 4};
    t.index[0] = 1, t.coef[0] = 300;
    t.index[1] = 2, t.coef[1] = -1000;
    t.index[2] = 3, t.coef[2] = 0;
    t.index[3] = 1, t.coef[3] = -5;
    const int32_t w[8] = {0, 7, -3, 999, 0, 0, 0, 0};
    const int32_t e = 300 * 7 - 1000 * -3 - 5 * 7;
    assert_int_equal(texel_data_append(d, &t, 2, e, err), 0);
    assert_int_equal(texel_data_len(d), 1);
    /* index 1 merged (300 - 5), index 3 dropped: 2 entries */
    assert_int_equal(texel_data_entries(d), 2);
    assert_int_equal(texel_data_result(d, 0), 2);
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), 0);

    t.index[0] = 8; /* out of range */
    assert_int_equal(texel_data_append(d, &t, 1, 0, err), -1);
    assert_non_null(strstr(err, "index 8"));
    t.index[0] = 1;
    assert_int_equal(texel_data_append(d, &t, 3, 0, err), -1);
    assert_non_null(strstr(err, "result 3"));
    t.len = -1;
    assert_int_equal(texel_data_append(d, &t, 1, 0, err), -1);
    assert_int_equal(texel_data_len(d), 1); /* unchanged by the failures */
    assert_int_equal(texel_data_entries(d), 2);

    t.len = 0; /* an empty trace evaluates to 0 */
    assert_int_equal(texel_data_append(d, &t, 0, 0, err), 0);
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), 0);
    assert_int_equal(texel_data_shrink(d), 0);
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), 0);
    /* dropping the evaluations saves their 4 bytes; the check then refuses */
    const double with_evals = texel_data_bytes_per_position(d);
    texel_data_drop_evals(d);
    assert_true(fabs(with_evals - texel_data_bytes_per_position(d) - 4) < 1e-9);
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), -1);
    assert_non_null(strstr(err, "dropped"));
    t.len = 1;
    assert_int_equal(texel_data_append(d, &t, 1, 0, err), 0);
    assert_int_equal(texel_data_len(d), 3);
    texel_data_free(d);
}

/* The entry coding (texel.h): code bytes of one entry, and the value read
 * back exactly (the check rebuilds coef * w[index] with w[index] = 1). */
static void test_entry_coding(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    static const struct {
        uint32_t index;
        int16_t coef;
        int bytes; /* count, lengths, token, escaped coefficient */
    } cases[] = {
        {0, 1, 3},  {0, -3, 3},  {0, 4, 3},
        {0, -4, 4}, /* escape: zigzag 7 */
        {0, 5, 4},
        {31, 2, 3},    /* token 31 << 3 | 2 = 250 */
        {32, 1, 4},    /* token 256: two bytes */
        {6561, -1, 4}, /* a pattern table's stride */
        {(1u << 21) - 1, 1, 5},
        {(1u << 24) - 1, -32768, 2 + 4 + 2},
        {(1u << 24) - 1, 32767, 2 + 4 + 2},
    };
    int32_t *w = calloc(1u << 24, sizeof *w);
    assert_non_null(w);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TexelData *d = texel_data_new(1 << 24);
        EvalTrace t = {.len = 1};
        t.index[0] = cases[i].index, t.coef[0] = cases[i].coef;
        assert_int_equal(texel_data_append(d, &t, 1, cases[i].coef, err), 0);
        assert_int_equal(texel_data_shrink(d), 0);
        /* offset 4 + target 1 + evaluation 4, then the code */
        assert_true(fabs(texel_data_bytes_per_position(d) - (9 + cases[i].bytes)) < 1e-9);
        w[cases[i].index] = 1;
        assert_int_equal(texel_data_check(d, w, 0, NULL, err), 0);
        w[cases[i].index] = 0;
        texel_data_free(d);
    }
    /* 150 entries: a two-byte count, 38 bytes of lengths, 150 one-byte
     * tokens; values read back in any mix of signs */
    TexelData *d = texel_data_new(1 << 24);
    EvalTrace t = {.len = 150};
    int32_t e = 0;
    for (int k = 0; k < 150; k++) {
        t.index[k] = (uint32_t)(149 - k), t.coef[k] = (int16_t)(k % 2 ? -1 : 3);
        w[149 - k] = k;
        e += t.coef[k] * k;
    }
    assert_int_equal(texel_data_append(d, &t, 1, e, err), 0);
    assert_int_equal(texel_data_shrink(d), 0);
    assert_true(fabs(texel_data_bytes_per_position(d) - (9 + 2 + 38 + 150)) < 1e-9);
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), 0);
    texel_data_free(d);
    free(w);
}

/* The traced scratch (engine/eval.h): pairs appended in any order come out
 * sorted by index, equal indices added, zero sums and zero counts dropped;
 * an overflowing scratch or an int16 overflow is refused. */
static void test_scratch_merge(void **state)
{
    (void)state;
    static const struct {
        int n;
        uint32_t index[6];
        int32_t coef[6];
        int want_rc, want_len;
        uint32_t want_index[4];
        int16_t want_coef[4];
    } cases[] = {
        {0, {0}, {0}, 0, 0, {0}, {0}},
        {3, {5, 1, 5}, {2, 3, -1}, 0, 2, {1, 5}, {3, 1}},
        {4, {9, 2, 9, 2}, {1, -1, -1, 0}, 0, 1, {2}, {-1}},            /* 9 cancels out */
        {3, {16777215, 70000, 0}, {1, -2, 4}, 0, 3, {0, 70000, 16777215}, {4, -2, 1}},
        {2, {3, 3}, {30000, 30000}, -1, 0, {0}, {0}},                   /* past int16 */
        {6, {6, 5, 4, 3, 2, 1}, {1, 1, 1, 1, 1, 1}, 0, 4, {1, 2, 3, 4}, {1, 1, 1, 1}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        EvalScratch sc;
        eval_scratch_clear(&sc);
        for (int i = 0; i < cases[c].n; i++) eval_scratch_add(&sc, cases[c].index[i], cases[c].coef[i]);
        EvalTrace t;
        int rc = eval_scratch_to_trace(&sc, &t);
        assert_int_equal(rc, cases[c].want_rc);
        if (rc != 0) continue;
        int want_len = c == 5 ? 6 : cases[c].want_len;
        assert_int_equal(t.len, want_len);
        for (int i = 0; i < cases[c].want_len; i++) {
            assert_int_equal(t.index[i], cases[c].want_index[i]);
            assert_int_equal(t.coef[i], cases[c].want_coef[i]);
        }
    }
    /* more pairs than the scratch holds: refused, not truncated */
    EvalScratch sc;
    eval_scratch_clear(&sc);
    for (int i = 0; i <= EVAL_SCRATCH_MAX; i++) eval_scratch_add(&sc, (uint32_t)i, 1);
    EvalTrace t;
    assert_int_equal(eval_scratch_to_trace(&sc, &t), -1);
}

/* Weights of any size: indices up to TEXEL_WEIGHTS_MAX - 1 (24 bits) are
 * stored whole, with their coefficients' signs, next to small ones. */
static void test_large_model(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    const int n = TEXEL_WEIGHTS_MAX;
    TexelData *d = texel_data_new(n);
    assert_non_null(d);
    int32_t *w = calloc((size_t)n, sizeof *w);
    assert_non_null(w);
    w[0] = 100, w[65536] = -3, w[n - 1] = 11, w[n - 2] = 5;
    EvalTrace t = {.len = 4};
    t.index[0] = 0, t.coef[0] = 2;
    t.index[1] = 65536, t.coef[1] = -129; /* past uint16 and int8 */
    t.index[2] = (uint32_t)n - 2, t.coef[2] = -1;
    t.index[3] = (uint32_t)n - 1, t.coef[3] = 127;
    const int32_t e = 200 + 129 * 3 - 5 + 127 * 11;
    assert_int_equal(texel_data_append(d, &t, 1, e, err), 0);
    assert_int_equal(texel_data_entries(d), 4);
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), 0);
    w[n - 1] = 12; /* the top index is read, not wrapped */
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), -1);
    t.index[3] = (uint32_t)n; /* one past */
    assert_int_equal(texel_data_append(d, &t, 1, e, err), -1);
    assert_non_null(strstr(err, "index 16777216"));
    free(w);
    texel_data_free(d);
}

static void test_bytes_per_position(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    int32_t truth[256];
    /* 20 non-zero terms plus material of 256 weights: index deltas of about
     * 12 take one byte an entry (two from 32 on), plus 9 a position, the
     * count and 6 bytes of lengths */
    TexelData *d = texel_data_new(256);
    assert_int_equal(texel_data_synthetic(d, 10000, 20, 1.0, 7, truth, err), 0);
    double bytes = texel_data_bytes_per_position(d);
    printf("bytes per position (20 terms + material): %.2f\n", bytes);
    assert_true(bytes <= 9 + 7 + 2 * 21);
    assert_true(bytes >= 9 + 7 + 21);
    assert_int_equal(texel_data_check(d, truth, 0, NULL, err), 0);
    texel_data_free(d);
}

static void test_check_catches_mismatch(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    int32_t truth[W_LEN];
    TexelData *d = texel_data_new(W_LEN);
    assert_int_equal(texel_data_synthetic(d, 1000, TERMS, K_TRUE, 3, truth, err), 0);
    size_t bad = 77;
    assert_int_equal(texel_data_check(d, truth, 0, &bad, err), 0);
    assert_int_equal(bad, 77); /* untouched on success */

    /* plant a position whose engine value is one unit off */
    EvalTrace t = {.len = 2};
    t.index[0] = 0, t.coef[0] = 2;
    t.index[1] = 5, t.coef[1] = -1;
    int32_t e = 2 * truth[0] - truth[5];
    assert_int_equal(texel_data_append(d, &t, 1, e + 1, err), 0);
    assert_int_equal(texel_data_check(d, truth, 0, &bad, err), -1);
    assert_int_equal(bad, 1000);
    char want[96];
    snprintf(want, sizeof want, "position 1000: trace rebuilds %d, engine evaluates %d", e, e + 1);
    assert_non_null(strstr(err, want));
    assert_int_equal(texel_data_check(d, truth, 1, &bad, err), 0); /* within one unit */

    /* a second, larger mismatch later: the first one is still reported */
    assert_int_equal(texel_data_append(d, &t, 1, e - 40, err), 0);
    assert_int_equal(texel_data_check(d, truth, 0, &bad, err), -1);
    assert_int_equal(bad, 1000);
    assert_int_equal(texel_data_check(d, truth, 1, &bad, err), -1);
    assert_int_equal(bad, 1001);
    texel_data_free(d);
}

static void test_reorder(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    int32_t truth[W_LEN];
    TexelData *d = texel_data_new(W_LEN);
    enum { N = 1001 };
    assert_int_equal(texel_data_synthetic(d, N - 1, TERMS, K_TRUE, 5, truth, err), 0);
    /* the last position's engine value is one unit off: the check finds it
     * wherever the reordering puts it */
    EvalTrace t = {.len = 2};
    t.index[0] = 0, t.coef[0] = 2;
    t.index[1] = 5, t.coef[1] = -1;
    assert_int_equal(texel_data_append(d, &t, 1, 2 * truth[0] - truth[5] + 1, err), 0);
    static double before[N];
    static uint32_t order[N];
    for (size_t i = 0; i < N; i++) {
        before[i] = texel_data_target(d, i);
        order[i] = (uint32_t)(N - 1 - i);
    }
    double loss_before = 0, loss_after = 0;
    assert_int_equal(texel_loss(d, NULL, N, truth, K_TRUE, 1, &loss_before, err), 0);
    size_t entries = texel_data_entries(d);

    /* not a permutation (a repeat): refused, data unchanged */
    order[7] = order[8];
    assert_int_equal(texel_data_reorder(d, order, err), -1);
    assert_non_null(strstr(err, "not a permutation"));
    order[7] = (uint32_t)(N - 1 - 7);
    for (size_t i = 0; i < N; i++) assert_true(texel_data_target(d, i) == before[i]);

    assert_int_equal(texel_data_reorder(d, order, err), 0);
    assert_int_equal(texel_data_len(d), N);
    assert_int_equal(texel_data_entries(d), entries);
    for (size_t i = 0; i < N; i++) assert_true(texel_data_target(d, i) == before[N - 1 - i]);
    size_t bad = 77;
    assert_int_equal(texel_data_check(d, truth, 0, &bad, err), -1);
    assert_int_equal(bad, 0);
    assert_int_equal(texel_loss(d, NULL, N, truth, K_TRUE, 1, &loss_after, err), 0);
    assert_true(fabs(loss_after - loss_before) < 1e-12);
    texel_data_free(d);
}

/* Tapered data: traces of opening indices plus a phase; the value and the
 * check follow eval_taper (engine/eval.h) exactly; endgame indices and
 * phases out of range are refused; reordering moves the phases; with
 * EG = OP the loss is that of the plain model. */
static void test_tapered(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    assert_null(texel_data_new_tapered(10, 4, 24)); /* not 2 * eg_offset */
    assert_null(texel_data_new_tapered(8, 4, 0));
    assert_null(texel_data_new_tapered(8, 4, TEXEL_PHASE_MAX + 1));
    TexelData *d = texel_data_new_tapered(8, 4, 24);
    TexelData *plain = texel_data_new(4);
    assert_non_null(d);
    assert_non_null(plain);
    const int32_t w[8] = {100, 0, 7, 0, /* endgame: */ 120, 0, -5, 0};
    static const struct {
        int phase, c0, c2;
        int32_t value; /* (op * phase + eg * (24 - phase)) / 24, toward zero */
    } cases[] = {
        {10, 3, -1, 335},  /* op 293, eg 365: 8040 / 24 */
        {24, 3, -1, 293},  /* opening */
        {0, 3, -1, 365},   /* bare endgame */
        {7, -1, 2, -117},  /* op -86, eg -130: -2812 / 24 = -117.2 -> -117 */
        {5, -1, 1, -118},  /* op -93, eg -125: -2840 / 24 = -118.3 -> -118 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EvalTrace t = {.len = 2, .phase = cases[i].phase};
        t.index[0] = 0, t.coef[0] = (int16_t)cases[i].c0;
        t.index[1] = 2, t.coef[1] = (int16_t)cases[i].c2;
        int32_t v = eval_trace_value(&t, w, 4, 24);
        assert_int_equal(v, cases[i].value);
        assert_int_equal(texel_data_append(d, &t, 1, v, err), 0);
        assert_int_equal(texel_data_append(plain, &t, 1, 0, err), 0);
    }
    assert_int_equal(texel_data_check(d, w, 0, NULL, err), 0);
    /* 9 + 1 (phase) + count, lengths and a byte for each of the two entries */
    assert_true(fabs(texel_data_bytes_per_position(d) - (10 + 4)) < 1e-9);
    EvalTrace t = {.len = 1, .phase = 12};
    t.index[0] = 4, t.coef[0] = 1; /* an endgame weight: not a trace index */
    assert_int_equal(texel_data_append(d, &t, 1, 0, err), -1);
    assert_non_null(strstr(err, "opening weights"));
    t.index[0] = 1, t.phase = 25;
    assert_int_equal(texel_data_append(d, &t, 1, 0, err), -1);
    assert_non_null(strstr(err, "phase 25"));
    t.phase = -1;
    assert_int_equal(texel_data_append(d, &t, 1, 0, err), -1);
    t.phase = 12; /* a wrong engine value is caught, at its position */
    assert_int_equal(texel_data_append(d, &t, 1, 1, err), 0);
    size_t bad = 0;
    assert_int_equal(texel_data_check(d, w, 0, &bad, err), -1);
    assert_int_equal(bad, 5);
    /* reversed: every phase moves with its position (the check still holds
     * for the first five, now at 1..5, and finds the bad one at 0) */
    uint32_t order[6] = {5, 4, 3, 2, 1, 0};
    assert_int_equal(texel_data_reorder(d, order, err), 0);
    assert_int_equal(texel_data_check(d, w, 0, &bad, err), -1);
    assert_int_equal(bad, 0);
    assert_int_equal(texel_data_reorder(d, order, err), 0);
    /* EG = OP: the tapered loss is the plain loss (positions 0..4) */
    const int32_t same[8] = {100, 0, 7, 0, 100, 0, 7, 0};
    double lt = 0, lp = 0;
    assert_int_equal(texel_loss(d, NULL, 5, same, 1.0, 1, &lt, err), 0);
    assert_int_equal(texel_loss(plain, NULL, 5, same, 1.0, 1, &lp, err), 0);
    assert_true(fabs(lt - lp) < 1e-12);
    /* and EG != OP changes it */
    assert_int_equal(texel_loss(d, NULL, 5, w, 1.0, 1, &lt, err), 0);
    assert_true(fabs(lt - lp) > 1e-6);
    texel_data_free(d);
    texel_data_free(plain);

    /* synthetic tapered data: exact against its trace, and a short lazy
     * Adam run on it (gradients into both halves) lowers the loss from a
     * start of zeros, bit-identically on 1 and 2 threads */
    TexelData *syn = texel_data_new_tapered(2 * 300, 300, 24);
    int32_t truth[600], start[600] = {100}, w1[600], w2[600];
    uint8_t frozen[600] = {1};
    start[300] = 100;
    frozen[300] = 1;
    assert_int_equal(texel_data_synthetic(syn, 20000, 12, 1.0, 3, truth, err), 0);
    assert_int_equal(truth[300], 100);
    assert_int_equal(texel_data_check(syn, truth, 0, NULL, err), 0);
    TexelSplit split;
    assert_int_equal(texel_split_make(&split, 20000, NULL, 0.1, 1, err), 0);
    TexelConfig cfg;
    texel_config_default(&cfg);
    cfg.k = 1;
    cfg.epochs = 5;
    cfg.batch_size = 4096;
    TexelResult r1, r2;
    cfg.threads = 1;
    assert_int_equal(texel_tune(syn, &split, &cfg, start, frozen, w1, &r1, err), 0);
    cfg.threads = 2;
    assert_int_equal(texel_tune(syn, &split, &cfg, start, frozen, w2, &r2, err), 0);
    assert_memory_equal(w1, w2, sizeof w1);
    assert_true(r1.valid_loss < r1.valid_loss_start);
    int moved_eg = 0;
    for (int j = 301; j < 600; j++)
        moved_eg += w1[j] != 0;
    assert_true(moved_eg > 200);
    texel_split_free(&split);
    texel_data_free(syn);
}

/* ---------------------------------------------------------------- split */

static void test_split_deterministic(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    enum { N = 100000 };
    TexelSplit a, b, c;
    assert_int_equal(texel_split_make(&a, N, NULL, 0.1, 42, err), 0);
    assert_int_equal(texel_split_make(&b, N, NULL, 0.1, 42, err), 0);
    assert_int_equal(texel_split_make(&c, N, NULL, 0.1, 43, err), 0);
    assert_int_equal(a.train_len + a.valid_len, N);
    assert_int_equal(a.valid_len, b.valid_len);
    assert_memory_equal(a.valid, b.valid, a.valid_len * sizeof *a.valid);
    assert_memory_equal(a.train, b.train, a.train_len * sizeof *a.train);
    /* 10% within 5 standard deviations (sd = sqrt(N * 0.09) ~ 95) */
    assert_true(a.valid_len > 9500 && a.valid_len < 10500);
    /* disjoint, ascending, covering */
    char *seen = calloc(N, 1);
    for (size_t i = 0; i < a.train_len; i++)
        seen[a.train[i]]++, assert_true(i == 0 || a.train[i] > a.train[i - 1]);
    for (size_t i = 0; i < a.valid_len; i++)
        seen[a.valid[i]]++, assert_true(i == 0 || a.valid[i] > a.valid[i - 1]);
    for (int i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    free(seen);
    /* another seed gives another split */
    assert_true(c.valid_len != a.valid_len ||
                memcmp(c.valid, a.valid, a.valid_len * sizeof *a.valid) != 0);

    /* keyed by game: all positions of a game on one side */
    uint64_t keys[1000];
    for (int i = 0; i < 1000; i++)
        keys[i] = (uint64_t)(i / 40); /* 25 games of 40 positions */
    TexelSplit g;
    assert_int_equal(texel_split_make(&g, 1000, keys, 0.3, 5, err), 0);
    char side[1000];
    for (size_t i = 0; i < g.train_len; i++)
        side[g.train[i]] = 't';
    for (size_t i = 0; i < g.valid_len; i++)
        side[g.valid[i]] = 'v';
    for (int i = 0; i < 1000; i++)
        assert_int_equal(side[i], side[i / 40 * 40]);
    assert_true(g.valid_len % 40 == 0);

    TexelSplit z;
    assert_int_equal(texel_split_make(&z, N, NULL, 0.0, 1, err), 0);
    assert_int_equal(z.valid_len, 0);
    texel_split_free(&z);
    assert_int_equal(texel_split_make(&z, N, NULL, 1.0, 1, err), -1);
    assert_non_null(strstr(err, "fraction"));
    texel_split_free(&a), texel_split_free(&b), texel_split_free(&c);
    texel_split_free(&g), texel_split_free(&z);
}

/* ------------------------------------------------------------ shards */

/* Packed in three pieces and unpacked in order, data is the same: entries,
 * bytes, evaluations (the check passes), every loss bit for bit; malformed
 * records are refused and leave the data as it was. */
static void test_pack_unpack(void **state)
{
    (void)state;
    char err[TEXEL_ERR_MAX];
    for (int tapered = 0; tapered < 2; tapered++) {
        TexelData *d = tapered ? texel_data_new_tapered(64, 32, 24) : texel_data_new(64);
        TexelData *e = tapered ? texel_data_new_tapered(64, 32, 24) : texel_data_new(64);
        int32_t truth[64];
        assert_int_equal(texel_data_synthetic(d, 5000, 12, 1.0, 9, truth, err), 0);
        const size_t cut[4] = {0, 1234, 1235, 5000};
        for (int k = 0; k < 3; k++) {
            uint8_t *buf;
            size_t size;
            assert_int_equal(texel_data_pack(d, cut[k], cut[k + 1], &buf, &size, err), 0);
            assert_int_equal(texel_data_unpack(e, buf, size, err), 0);
            free(buf);
        }
        assert_int_equal(texel_data_len(e), 5000);
        assert_int_equal(texel_data_entries(e), texel_data_entries(d));
        assert_true(texel_data_bytes_per_position(e) == texel_data_bytes_per_position(d));
        assert_int_equal(texel_data_check(e, truth, 0, NULL, err), 0);
        double ld, le;
        assert_int_equal(texel_loss(d, NULL, 5000, truth, 1.0, 1, &ld, err), 0);
        assert_int_equal(texel_loss(e, NULL, 5000, truth, 1.0, 1, &le, err), 0);
        assert_memory_equal(&ld, &le, sizeof ld);
        for (size_t i = 0; i < 5000; i += 499)
            assert_true(texel_data_target(d, i) == texel_data_target(e, i));

        uint8_t *buf;
        size_t size;
        assert_int_equal(texel_data_pack(d, 0, 3, &buf, &size, err), 0);
        static const struct {
            size_t at;     /* byte changed (SIZE_MAX: cut the last byte) */
            uint8_t value;
        } bad[] = {
            {SIZE_MAX, 0}, /* truncated */
            {0, 255},      /* target past TEXEL_TARGET_SCALE */
            {1, 25},       /* phase past 24 (or any phase, untapered) */
            {6, 0},        /* code length 0 */
            {8, 0x7F},     /* more items than the code holds */
        };
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            uint8_t copy[4096];
            assert_true(size <= sizeof copy);
            memcpy(copy, buf, size);
            size_t n = size;
            if (bad[b].at == SIZE_MAX)
                n--;
            else
                copy[bad[b].at] = bad[b].value;
            if (bad[b].at == 1 && !tapered)
                copy[1] = 1;
            assert_int_equal(texel_data_unpack(e, copy, n, err), -1);
            assert_non_null(strstr(err, "malformed"));
            assert_int_equal(texel_data_len(e), 5000);
        }
        free(buf);
        assert_int_equal(texel_data_pack(d, 10, 5, &buf, &size, err), -1);
        texel_data_free(d);
        texel_data_free(e);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_append_and_errors),
        cmocka_unit_test(test_entry_coding),
        cmocka_unit_test(test_scratch_merge),
        cmocka_unit_test(test_large_model),
        cmocka_unit_test(test_bytes_per_position),
        cmocka_unit_test(test_check_catches_mismatch),
        cmocka_unit_test(test_reorder),
        cmocka_unit_test(test_tapered),
        cmocka_unit_test(test_split_deterministic),
        cmocka_unit_test(test_pack_unpack),
    };
    if (argc > 1) /* a glob of test names, for a quick rerun of one */
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
