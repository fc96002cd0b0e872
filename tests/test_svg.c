/* test_svg.c — the report's plot writer (report/svg.h): nice numbers
 * and ticks (Heckbert 1990: every expected value below worked out by hand
 * from the rule in svg.h), scales, XML escaping of text from the database,
 * empty and single-point series, refusal of NaN and infinity, bars, trees
 * and tables. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/svg.h"

static void check_near(double actual, double expected, double tol, const char *what, int line)
{
    bool ok = isnan(expected) ? isnan(actual) : fabs(actual - expected) <= tol;
    if (!ok) {
        print_error("line %d: %s = %.17g, expected %.17g\n", line, what, actual, expected);
        fail();
    }
}
#define assert_near(a, e, tol) check_near((a), (e), (tol), #a, __LINE__)

/* Occurrences of needle in hay. */
static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* ---- nice numbers and ticks ------------------------------------------------- */

static void test_nice_number(void **state)
{
    (void)state;
    static const struct {
        double x;
        bool round;
        double nice;
    } cases[] = {
        {123, false, 200},   /* f = 1.23: smallest nice >= f is 2 */
        {123, true, 100},    /* closest: 1 (f < 1.5) */
        {0.034, true, 0.05}, /* f = 3.4: 3 <= f < 7 gives 5 */
        {0.7, true, 1},      /* f = 7 rounds to 10 */
        {2.5, true, 2},      /* 1.5 <= f < 3 */
        {9.9, false, 10},
        {1, false, 1},
        {5, false, 5},
        {5.01, false, 10},
        {1e-9, true, 1e-9},
        {0, true, NAN},  /* not positive */
        {-3, false, NAN},
        {INFINITY, true, NAN},
        {NAN, true, NAN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_near(svg_nice_number(cases[i].x, cases[i].round), cases[i].nice, fabs(cases[i].nice) * 1e-12,
                   "nice number", (int)i);
}

static void test_ticks(void **state)
{
    (void)state;
    static const struct {
        double lo, hi;
        int target;
        double first, last, step;
        int len, decimals;
    } cases[] = {
        /* range nice(100) = 100, step nice(100/5 = 20) = 20 */
        {0, 100, 6, 0, 100, 20, 6, 0},
        /* nice(0.03, false) = 0.05, step nice(0.01) = 0.01 */
        {0.0812, 0.1113, 6, 0.08, 0.12, 0.01, 5, 2},
        /* one point: 5 widened by 0.5 each side; nice(1) = 1, step nice(0.2) = 0.2 */
        {5, 5, 6, 4.4, 5.6, 0.2, 7, 1},
        /* one point at 0: widened to -1..1; nice(2) = 2, step nice(0.4) = 0.5 */
        {0, 0, 6, -1, 1, 0.5, 5, 1},
        /* nice(10) = 10, step nice(2.5) = 2 */
        {-3, 7, 5, -4, 8, 2, 7, 0},
        /* nice(999999, false) = 1e6, step nice(2e5) = 2e5 */
        {1, 1e6, 6, 0, 1e6, 2e5, 6, 0},
        /* negative only: nice(40) = 50, step nice(12.5) = 10 */
        {-250, -210, 5, -250, -210, 10, 5, 0},
    };
    char err[SVG_ERR_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SvgTicks t;
        assert_int_equal(svg_ticks(cases[i].lo, cases[i].hi, cases[i].target, &t, err), 0);
        check_near(t.first, cases[i].first, 1e-9, "first", (int)i);
        check_near(t.last, cases[i].last, 1e-9, "last", (int)i);
        check_near(t.step, cases[i].step, 1e-12, "step", (int)i);
        assert_int_equal(t.len, cases[i].len);
        assert_int_equal(t.decimals, cases[i].decimals);
        /* the ticks cover the data and are evenly spaced */
        assert_true(t.v[0] <= cases[i].lo && t.v[t.len - 1] >= cases[i].hi - 1e-9);
        for (int k = 1; k < t.len; k++) assert_near(t.v[k] - t.v[k - 1], t.step, t.step * 1e-9);
    }
    /* a tick at zero is +0, never -0 or 1e-17 */
    SvgTicks t;
    assert_int_equal(svg_ticks(-0.3, 0.3, 6, &t, err), 0);
    bool zero = false;
    for (int k = 0; k < t.len; k++)
        if (t.v[k] == 0) {
            zero = true;
            assert_false(signbit(t.v[k]));
        }
    assert_true(zero);
}

static void test_ticks_refused(void **state)
{
    (void)state;
    static const struct {
        double lo, hi;
        int target;
        const char *says;
    } cases[] = {
        {NAN, 1, 6, "not finite"},  {0, INFINITY, 6, "not finite"}, {-INFINITY, 0, 6, "not finite"},
        {2, 1, 6, "reversed"},      {0, 1, 1, "ticks asked"},      {0, 1, SVG_TICKS_MAX + 1, "ticks asked"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SvgTicks t;
        char err[SVG_ERR_MAX] = "";
        assert_int_equal(svg_ticks(cases[i].lo, cases[i].hi, cases[i].target, &t, err), -1);
        if (!strstr(err, cases[i].says)) {
            print_error("case %zu: '%s' lacks '%s'\n", i, err, cases[i].says);
            fail();
        }
    }
}

static void test_scale(void **state)
{
    (void)state;
    static const struct {
        SvgScale s;
        double v, expected;
    } cases[] = {
        {{0, 10, 100, 200}, 5, 150},
        {{0, 10, 100, 200}, 0, 100},
        {{0, 10, 100, 200}, 12, 220},      /* linear beyond the domain */
        {{0, 1, 300, 40}, 0.25, 235},      /* a y axis: 300 - 0.25 * 260 */
        {{-4, 8, 72, 624}, -1, 210},       /* 72 + 3/12 * 552 */
        {{3, 3, 0, 100}, 3, 50},           /* an empty domain maps to the middle */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_near(svg_scale(&cases[i].s, cases[i].v), cases[i].expected, 1e-9, "scale", (int)i);
}

/* ---- text ------------------------------------------------------------------- */

static void test_escape(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain", "plain"},
        {"a&b<c>\"'", "a&amp;b&lt;c&gt;&quot;&#39;"},
        {"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
        {"tab\tnew\nline", "tab\tnew\nline"},
        {"\x01x\x1f\x7f", "\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd"},              /* control characters */
        {"caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80"}, /* valid UTF-8 */
        {"\xff", "\xef\xbf\xbd"},                                                 /* never a UTF-8 byte */
        {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},                                 /* overlong '/' */
        {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},                 /* a surrogate */
        {"x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd"},                               /* cut short */
        {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* above U+10FFFF */
        {"\xef\xbf\xbe", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},                 /* U+FFFE: not an XML character */
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SvgBuf b = {0};
        svg_text(&b, cases[i].in);
        assert_false(b.oom);
        assert_string_equal(b.text ? b.text : "", cases[i].out);
        svg_buf_free(&b);
    }
    SvgBuf b = {0};
    svg_text(&b, NULL);
    assert_int_equal(b.len, 0);
    svg_buf_free(&b);
}

static void test_text_cut(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        size_t max;
        const char *out;
    } cases[] = {
        {"short", 10, "short"},
        {"exactly", 7, "exactly"},
        {"abcdef", 3, "abc\xe2\x80\xa6"},
        {"h\xc3\xa9llo", 2, "h\xe2\x80\xa6"}, /* never inside the two bytes of e-acute */
        {"a<b>c", 2, "a&lt;\xe2\x80\xa6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SvgBuf b = {0};
        svg_text_cut(&b, cases[i].in, cases[i].max);
        assert_string_equal(b.text, cases[i].out);
        svg_buf_free(&b);
    }
}

static void test_raw_long(void **state)
{
    (void)state;
    /* longer than svg_raw's stack buffer */
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    SvgBuf b = {0};
    svg_raw(&b, "<%s>", big);
    assert_int_equal(b.len, sizeof big + 1);
    assert_int_equal(b.text[0], '<');
    assert_int_equal(b.text[b.len - 1], '>');
    assert_int_equal(strlen(b.text), b.len);
    svg_buf_free(&b);
}

/* ---- line plots -------------------------------------------------------------- */

static const SvgPlot PLOT = {.id = "loss", .title = "Loss <per> epoch & more", .caption = "what it \"shows\"",
                             .x_label = "epoch", .y_label = "loss (log-loss)"};

static void test_line_plot_points(void **state)
{
    (void)state;
    static const double x[] = {1, 2, 3}, y[] = {0.5, 0.25, 0.125}, y2[] = {0.6, 0.3};
    SvgSeries s[] = {{.name = "train", .x = x, .y = y, .len = 3}, {.name = "valid", .x = x, .y = y2, .len = 2}};
    SvgBuf b = {0};
    char err[SVG_ERR_MAX];
    assert_int_equal(svg_line_plot(&b, &PLOT, s, 2, err), 0);
    assert_int_equal(count(b.text, "<circle class=\"pt\""), 5);
    assert_int_equal(count(b.text, "<polyline"), 2);
    assert_int_equal(count(b.text, "data-x=\"3\" data-y=\"0.125\""), 1);
    assert_int_equal(count(b.text, "data-x=\"2\" data-y=\"0.29999999999999999\""), 1); /* %.17g of 0.3 */
    assert_non_null(strstr(b.text, "<figure class=\"plot\" id=\"loss\">"));
    assert_non_null(strstr(b.text, "Loss &lt;per&gt; epoch &amp; more"));
    assert_null(strstr(b.text, "<per>"));
    assert_non_null(strstr(b.text, "<figcaption>what it &quot;shows&quot;</figcaption>"));
    assert_non_null(strstr(b.text, "class=\"legend\"")); /* two series */
    svg_buf_free(&b);
}

static void test_line_plot_empty_and_single(void **state)
{
    (void)state;
    char err[SVG_ERR_MAX];
    /* no series at all, and a series with no points */
    for (int n = 0; n <= 1; n++) {
        SvgSeries s = {.name = "none", .len = 0};
        SvgBuf b = {0};
        assert_int_equal(svg_line_plot(&b, &PLOT, &s, n, err), 0);
        assert_non_null(strstr(b.text, "no data"));
        assert_int_equal(count(b.text, "<circle"), 0);
        assert_non_null(strstr(b.text, "</figure>"));
        svg_buf_free(&b);
    }
    /* one point: a dot, no line, an axis around it (4.4 .. 5.6 step 0.2) */
    static const double x[] = {3}, y[] = {5};
    SvgSeries one = {.name = "one", .x = x, .y = y, .len = 1};
    SvgBuf b = {0};
    assert_int_equal(svg_line_plot(&b, &PLOT, &one, 1, err), 0);
    assert_int_equal(count(b.text, "<circle class=\"pt\""), 1);
    assert_int_equal(count(b.text, "<polyline"), 0);
    assert_null(strstr(b.text, "no data"));
    assert_null(strstr(b.text, "class=\"legend\"")); /* one series: none unless asked */
    assert_non_null(strstr(b.text, ">4.4</text>"));
    assert_non_null(strstr(b.text, ">5.6</text>"));
    assert_null(strstr(b.text, "nan"));
    assert_null(strstr(b.text, "inf"));
    svg_buf_free(&b);
    SvgPlot with = PLOT;
    with.legend = true;
    assert_int_equal(svg_line_plot(&b, &with, &one, 1, err), 0);
    assert_non_null(strstr(b.text, "class=\"legend\""));
    assert_non_null(strstr(b.text, ">one</text>"));
    svg_buf_free(&b);
}

static void test_line_plot_refused(void **state)
{
    (void)state;
    static const double x[] = {1, 2, 3}, ynan[] = {1, NAN, 3}, yok[] = {1, 2, 3}, xinf[] = {1, INFINITY, 3};
    static const double lo[] = {0, 1, -INFINITY}, hi[] = {2, 3, 4};
    static const char *const two[] = {"a", "b"};
    const struct {
        SvgPlot p;
        SvgSeries s;
        const char *says;
    } cases[] = {
        {PLOT, {.name = "s", .x = x, .y = ynan, .len = 3}, "point 1"},
        {PLOT, {.name = "s", .x = xinf, .y = yok, .len = 3}, "point 1"},
        {PLOT, {.name = "s", .x = x, .y = yok, .lo = lo, .hi = hi, .len = 3}, "point 2"},
        {PLOT, {.name = "s", .x = x, .y = yok, .lo = lo, .len = 3}, "error-bar"},
        {{.id = "a b", .title = "t"}, {.name = "s", .x = x, .y = yok, .len = 3}, "only letters"},
        {{.id = "x", .title = NULL}, {.name = "s", .x = x, .y = yok, .len = 3}, "needs an id"},
        {{.id = "x", .title = "t", .x_labels = two, .x_labels_len = 2}, {.name = "s", .y = yok, .len = 3}, "x labels"},
        {{.id = "x", .title = "t", .y_refs = ynan + 1, .y_refs_len = 1}, {.name = "s", .x = x, .y = yok, .len = 3},
         "reference line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SvgBuf b = {0};
        svg_raw(&b, "before");
        char err[SVG_ERR_MAX] = "";
        assert_int_equal(svg_line_plot(&b, &cases[i].p, &cases[i].s, 1, err), -1);
        assert_string_equal(b.text, "before"); /* nothing written */
        if (!strstr(err, cases[i].says)) {
            print_error("case %zu: '%s' lacks '%s'\n", i, err, cases[i].says);
            fail();
        }
        svg_buf_free(&b);
    }
}

static void test_line_plot_categories_and_error_bars(void **state)
{
    (void)state;
    static const char *const labels[] = {"gen 0", "gen <1>", "gen 2"};
    static const double y[] = {0, 25.5, 40}, lo[] = {0, 10, 20}, hi[] = {0, 41, 60}, refs[] = {0};
    static const char *const ref_labels[] = {"Elo 0"};
    SvgPlot p = {.id = "ladder", .title = "Ladder", .caption = "c", .x_labels = labels, .x_labels_len = 3,
                 .y_refs = refs, .y_ref_labels = ref_labels, .y_refs_len = 1};
    SvgSeries s = {.name = "Elo", .y = y, .lo = lo, .hi = hi, .len = 3, .points_only = true};
    SvgBuf b = {0};
    char err[SVG_ERR_MAX];
    assert_int_equal(svg_line_plot(&b, &p, &s, 1, err), 0);
    assert_int_equal(count(b.text, "<circle class=\"pt\""), 3);
    assert_int_equal(count(b.text, "class=\"err\""), 3);
    assert_int_equal(count(b.text, "<polyline"), 0);
    assert_non_null(strstr(b.text, "data-x=\"1\" data-y=\"25.5\" data-lo=\"10\" data-hi=\"41\" data-label=\"gen &lt;1&gt;\""));
    assert_non_null(strstr(b.text, "class=\"ref\""));
    assert_non_null(strstr(b.text, ">Elo 0</text>"));
    svg_buf_free(&b);
}

/* ---- bars, trees, tables -------------------------------------------------------- */

static void test_bar_chart(void **state)
{
    (void)state;
    static const char *const labels[] = {"White wins", "draws", "Black <wins>"};
    static const double v[] = {3, 0, 5};
    static const char *const colors[] = {"#111111", NULL, "#333333"};
    SvgPlot p = {.id = "wdl", .title = "W/D/L", .caption = "c", .y_label = "games"};
    SvgBars bars = {.labels = labels, .values = v, .colors = colors, .len = 3};
    SvgBuf b = {0};
    char err[SVG_ERR_MAX];
    assert_int_equal(svg_bar_chart(&b, &p, &bars, err), 0);
    assert_int_equal(count(b.text, "<rect class=\"bar\""), 3);
    assert_non_null(strstr(b.text, "data-label=\"Black &lt;wins&gt;\" data-value=\"5\""));
    assert_non_null(strstr(b.text, "fill=\"#111111\""));
    svg_buf_free(&b);

    /* every bar zero, and no bars */
    static const double zero[] = {0, 0};
    SvgBars z = {.labels = labels, .values = zero, .len = 2};
    assert_int_equal(svg_bar_chart(&b, &p, &z, err), 0);
    assert_int_equal(count(b.text, "data-value=\"0\""), 2);
    svg_buf_free(&b);
    SvgBars none = {.len = 0};
    assert_int_equal(svg_bar_chart(&b, &p, &none, err), 0);
    assert_non_null(strstr(b.text, "no data"));
    svg_buf_free(&b);

    /* refused: a NaN value, an infinite error bar, a missing label */
    static const double bad[] = {1, NAN}, ok[] = {1, 2}, lo[] = {0, -INFINITY}, hi[] = {2, 3};
    static const char *const nolabel[] = {"a", NULL};
    const SvgBars refused[] = {{.labels = labels, .values = bad, .len = 2},
                               {.labels = labels, .values = ok, .lo = lo, .hi = hi, .len = 2},
                               {.labels = nolabel, .values = ok, .len = 2}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(svg_bar_chart(&b, &p, &refused[i], err), -1);
        assert_int_equal(b.len, 0);
        assert_non_null(strstr(err, "bar 1"));
    }
}

static void test_tree(void **state)
{
    (void)state;
    const SvgTreeNode nodes[] = {
        {.id = "1", .label = "1 compiled-in", .parent = -1},
        {.id = "2", .label = "2 tuned", .edge = "tuned by <run> 1", .parent = 0},
        {.id = "3", .label = "3 spsa", .edge = "spsa", .parent = 0},
        {.id = "4", .label = "4 tuned-2", .note = "K 0.8", .parent = 1},
        {.id = "9", .label = "other root", .parent = -1},
    };
    SvgPlot p = {.id = "lineage", .title = "Lineage", .caption = "c"};
    SvgBuf b = {0};
    char err[SVG_ERR_MAX];
    assert_int_equal(svg_tree(&b, &p, nodes, 5, err), 0);
    assert_int_equal(count(b.text, "<g class=\"node\""), 5);
    assert_int_equal(count(b.text, "class=\"edge\""), 3);
    assert_non_null(strstr(b.text, "data-id=\"4\" data-parent=\"2\""));
    assert_non_null(strstr(b.text, "data-id=\"9\" data-parent=\"\""));
    assert_non_null(strstr(b.text, "tuned by &lt;run&gt; 1"));
    /* three leaves (4, 3, 9) in 140-unit slots centred in 640: 3*140 = 420,
     * offset (640 - 420)/2 + 70 = 180; leaf 4 at 180, 3 at 320, 9 at 460;
     * node 2 over 4 (180), root 1 over 2 and 3 ((180 + 320)/2 = 250):
     * rect x = centre - 62 */
    assert_non_null(strstr(b.text, "data-id=\"1\" data-parent=\"\"><title>1 compiled-in</title><rect x=\"188.0\""));
    assert_non_null(strstr(b.text, "data-id=\"3\" data-parent=\"1\"><title>3 spsa — spsa</title><rect x=\"258.0\""));
    assert_non_null(strstr(b.text, "data-id=\"9\" data-parent=\"\"><title>other root</title><rect x=\"398.0\""));
    svg_buf_free(&b);

    const SvgTreeNode cycle[] = {{.id = "1", .label = "a", .parent = 1}, {.id = "2", .label = "b", .parent = 0}};
    assert_int_equal(svg_tree(&b, &p, cycle, 2, err), -1);
    assert_non_null(strstr(err, "node 0 has parent 1"));
    assert_int_equal(svg_tree(&b, &p, nodes, 0, err), -1);
    assert_int_equal(b.len, 0);
}

static void test_table(void **state)
{
    (void)state;
    const char *header[] = {"name", "Elo"};
    const char *cells[] = {"A <b>", "12.5", "B & C", "-3", NULL, "56%"};
    SvgBuf b = {0};
    svg_table(&b, "ratings", "Ratings \"now\"", header, 2, cells, 3);
    assert_non_null(strstr(b.text, "<table class=\"ratings\"><caption>Ratings &quot;now&quot;</caption>"));
    assert_non_null(strstr(b.text, "<td>A &lt;b&gt;</td><td class=\"num\">12.5</td>"));
    assert_non_null(strstr(b.text, "<td>B &amp; C</td><td class=\"num\">-3</td>"));
    assert_non_null(strstr(b.text, "<td></td><td class=\"num\">56%</td>"));
    assert_int_equal(count(b.text, "<tr>"), 4);
    svg_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nice_number),
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_ticks_refused),
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_text_cut),
        cmocka_unit_test(test_raw_long),
        cmocka_unit_test(test_line_plot_points),
        cmocka_unit_test(test_line_plot_empty_and_single),
        cmocka_unit_test(test_line_plot_refused),
        cmocka_unit_test(test_line_plot_categories_and_error_bars),
        cmocka_unit_test(test_bar_chart),
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
