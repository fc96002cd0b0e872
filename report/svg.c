/* svg.c — the report's plot writer; see svg.h. */
#include "report/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Okabe & Ito's colour-blind-safe palette (M. Okabe, K. Ito, "Color
 * Universal Design", 2002), darkest first. */
static const char *const PALETTE[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"};
enum { PALETTE_LEN = sizeof PALETTE / sizeof PALETTE[0] };

/* The plot area inside the viewBox. */
enum { AREA_LEFT = 72, AREA_RIGHT = SVG_WIDTH - 16, AREA_TOP = 44, AREA_BOTTOM = SVG_HEIGHT - 56 };

/* ---- the buffer ------------------------------------------------------------ */

static bool reserve(SvgBuf *b, size_t more)
{
    if (b->oom) return false;
    if (b->len + more + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more + 1) {
        if (cap > ((size_t)-1) / 2) {
            b->oom = true;
            return false;
        }
        cap *= 2;
    }
    char *t = realloc(b->text, cap);
    if (!t) {
        b->oom = true;
        return false;
    }
    b->text = t;
    b->cap = cap;
    return true;
}

static void put(SvgBuf *b, const char *s, size_t n)
{
    if (!reserve(b, n)) return;
    memcpy(b->text + b->len, s, n);
    b->len += n;
    b->text[b->len] = '\0';
}

void svg_raw(SvgBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[512];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        put(b, small, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void svg_buf_free(SvgBuf *b)
{
    free(b->text);
    *b = (SvgBuf){0};
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if the bytes there
 * are not one (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF). */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n == 0) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (c == 0xe0 && s[1] < 0xa0) return 0; /* overlong */
    if (c == 0xed && s[1] >= 0xa0) return 0; /* surrogate */
    if (c == 0xf0 && s[1] < 0x90) return 0; /* overlong */
    if (c == 0xf4 && s[1] >= 0x90) return 0; /* above U+10FFFF */
    if (c == 0xef && s[1] == 0xbf && s[2] >= 0xbe) return 0; /* U+FFFE, U+FFFF: not XML characters */
    return n;
}

static const char REPLACEMENT[] = "\xef\xbf\xbd"; /* U+FFFD */

/* Escape s[0..n) into b. */
static void escape(SvgBuf *b, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, run = 0; /* bytes [run, i) are copied as they are */
    while (i < n) {
        unsigned c = u[i];
        const char *rep = NULL;
        size_t step = 1;
        if (c == '&') rep = "&amp;";
        else if (c == '<') rep = "&lt;";
        else if (c == '>') rep = "&gt;";
        else if (c == '"') rep = "&quot;";
        else if (c == '\'') rep = "&#39;";
        else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) rep = REPLACEMENT;
        else if (c >= 0x80) {
            /* utf8_len stops at the first byte that does not continue the
             * sequence (the NUL at the latest) */
            int len = utf8_len(u + i);
            if (len == 0 || (size_t)len > n - i) rep = REPLACEMENT;
            else step = (size_t)len;
        }
        if (rep) {
            put(b, s + run, i - run);
            put(b, rep, strlen(rep));
            i += 1;
            run = i;
        } else i += step;
    }
    put(b, s + run, n - run);
}

void svg_text(SvgBuf *b, const char *s)
{
    if (s) escape(b, s, strlen(s));
}

void svg_text_cut(SvgBuf *b, const char *s, size_t max_bytes)
{
    if (!s) return;
    size_t n = strlen(s);
    if (n <= max_bytes) {
        escape(b, s, n);
        return;
    }
    size_t cut = max_bytes;
    while (cut > 0 && (((unsigned char)s[cut]) & 0xc0) == 0x80) cut--;
    escape(b, s, cut);
    put(b, "\xe2\x80\xa6", 3); /* … */
}

/* ---- numbers ---------------------------------------------------------------- */

double svg_nice_number(double x, bool round)
{
    if (!(x > 0) || !isfinite(x)) return NAN;
    double e = floor(log10(x));
    double p = pow(10, e);
    double f = x / p; /* 1 <= f < 10, up to rounding: 0.7 / 0.1 is 6.9999... */
    if (fabs(f - nearbyint(f)) < 1e-9 * f) f = nearbyint(f);
    double nice;
    if (round) nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    else nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nice * p;
}

int svg_ticks(double lo, double hi, int target, SvgTicks *t, char err[SVG_ERR_MAX])
{
    *t = (SvgTicks){0};
    if (!isfinite(lo) || !isfinite(hi)) {
        snprintf(err, SVG_ERR_MAX, "axis range %g..%g is not finite", lo, hi);
        return -1;
    }
    if (lo > hi) {
        snprintf(err, SVG_ERR_MAX, "axis range %g..%g is reversed", lo, hi);
        return -1;
    }
    if (target < 2 || target > SVG_TICKS_MAX) {
        snprintf(err, SVG_ERR_MAX, "%d ticks asked (2..%d)", target, SVG_TICKS_MAX);
        return -1;
    }
    if (lo == hi) {
        double d = lo == 0 ? 1 : fabs(lo) / 10;
        lo -= d;
        hi += d;
    }
    double range = svg_nice_number(hi - lo, false);
    double step = svg_nice_number(range / (target - 1), true);
    if (!isfinite(step) || !(step > 0)) {
        snprintf(err, SVG_ERR_MAX, "axis range %g..%g has no usable step", lo, hi);
        return -1;
    }
    double first = floor(lo / step) * step, last = ceil(hi / step) * step;
    /* Nice steps keep the count near target; guard the array anyway. */
    while ((last - first) / step + 1.5 > SVG_TICKS_MAX) {
        step = svg_nice_number(step * 1.5, false);
        first = floor(lo / step) * step;
        last = ceil(hi / step) * step;
    }
    t->first = first;
    t->last = last;
    t->step = step;
    t->len = (int)floor((last - first) / step + 0.5) + 1;
    for (int i = 0; i < t->len; i++) {
        double v = first + i * step;
        t->v[i] = fabs(v) < step * 1e-9 ? 0.0 : v; /* no -0 or 1e-17 labels */
    }
    int dec = (int)-floor(log10(step));
    t->decimals = dec > 0 ? dec : 0;
    return 0;
}

double svg_scale(const SvgScale *s, double v)
{
    if (s->d1 == s->d0) return (s->r0 + s->r1) / 2;
    return s->r0 + (v - s->d0) * (s->r1 - s->r0) / (s->d1 - s->d0);
}

/* A tick label: %.*f, or %g for very large or small magnitudes. */
static void tick_label(char *out, size_t size, double v, int decimals)
{
    if (v != 0 && (fabs(v) >= 1e7 || decimals > 6)) snprintf(out, size, "%g", v);
    else snprintf(out, size, "%.*f", decimals, v);
}

/* ---- shared plot parts ------------------------------------------------------ */

static void figure_open(SvgBuf *b, const SvgPlot *p, int width, int height, bool scroll)
{
    svg_raw(b, "<figure class=\"plot%s\" id=\"", scroll ? " wide" : "");
    svg_text(b, p->id);
    svg_raw(b, "\">");
    if (scroll) svg_raw(b, "<div class=\"scroll\">");
    svg_raw(b,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\"%s>"
            "<title>",
            width, height, scroll ? "" : " preserveAspectRatio=\"xMidYMid meet\"");
    svg_text(b, p->title);
    svg_raw(b, "</title>");
    if (scroll) svg_raw(b, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\"/>", width, height);
    svg_raw(b, "<text class=\"ptitle\" x=\"%d\" y=\"22\" text-anchor=\"middle\">", width / 2);
    svg_text_cut(b, p->title, 120);
    svg_raw(b, "</text>");
}

static void figure_close(SvgBuf *b, const SvgPlot *p, bool scroll)
{
    svg_raw(b, "</svg>");
    if (scroll) svg_raw(b, "</div>");
    svg_raw(b, "<figcaption>");
    svg_text(b, p->caption);
    svg_raw(b, "</figcaption></figure>\n");
}

static void axis_labels(SvgBuf *b, const SvgPlot *p)
{
    if (p->x_label) {
        svg_raw(b, "<text class=\"alabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (AREA_LEFT + AREA_RIGHT) / 2,
                SVG_HEIGHT - 10);
        svg_text_cut(b, p->x_label, 100);
        svg_raw(b, "</text>");
    }
    if (p->y_label) {
        svg_raw(b, "<text class=\"alabel\" transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">",
                (AREA_TOP + AREA_BOTTOM) / 2);
        svg_text_cut(b, p->y_label, 60);
        svg_raw(b, "</text>");
    }
}

static void y_axis(SvgBuf *b, const SvgTicks *t, const SvgScale *ys)
{
    svg_raw(b, "<g class=\"axis y\">");
    for (int i = 0; i < t->len; i++) {
        double y = svg_scale(ys, t->v[i]);
        char lab[64];
        tick_label(lab, sizeof lab, t->v[i], t->decimals);
        svg_raw(b,
                "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" data-tick=\"%.17g\">%s</text>",
                AREA_LEFT, y, AREA_RIGHT, y, AREA_LEFT - 6, y + 4, t->v[i], lab);
    }
    svg_raw(b, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>", AREA_LEFT, AREA_TOP, AREA_LEFT,
            AREA_BOTTOM);
}

/* Category labels along x: every k-th so that at most about 12 show. */
static void x_categories(SvgBuf *b, const char *const *labels, int n, const SvgScale *xs)
{
    svg_raw(b, "<g class=\"axis x\">");
    size_t cut = n > 8 ? 10 : 18, widest = 1;
    for (int i = 0; i < n; i++) {
        size_t l = labels[i] ? strlen(labels[i]) : 0;
        if (l > widest) widest = l < cut ? l : cut + 1;
    }
    /* every k-th label, so that labels of about 8 units a character (the
     * page's 14-unit phone font) do not overlap */
    double slot = n > 0 ? (double)(AREA_RIGHT - AREA_LEFT) / n : 1;
    int every = (int)ceil((8.0 * (double)widest + 8) / slot);
    if (every < 1) every = 1;
    for (int i = 0; i < n; i++) {
        double x = svg_scale(xs, i);
        svg_raw(b, "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, AREA_BOTTOM, x,
                AREA_BOTTOM + 4);
        if (i % every != 0 || !labels[i]) continue;
        svg_raw(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, AREA_BOTTOM + 18);
        svg_text_cut(b, labels[i], cut);
        svg_raw(b, "</text>");
    }
    svg_raw(b, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>", AREA_LEFT, AREA_BOTTOM,
            AREA_RIGHT, AREA_BOTTOM);
}

static void x_axis(SvgBuf *b, const SvgTicks *t, const SvgScale *xs)
{
    svg_raw(b, "<g class=\"axis x\">");
    for (int i = 0; i < t->len; i++) {
        double x = svg_scale(xs, t->v[i]);
        char lab[64];
        tick_label(lab, sizeof lab, t->v[i], t->decimals);
        svg_raw(b,
                "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" data-tick=\"%.17g\">%s</text>",
                x, AREA_BOTTOM, x, AREA_BOTTOM + 4, x, AREA_BOTTOM + 18, t->v[i], lab);
    }
    svg_raw(b, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>", AREA_LEFT, AREA_BOTTOM,
            AREA_RIGHT, AREA_BOTTOM);
}

static void no_data(SvgBuf *b)
{
    svg_raw(b, "<text class=\"nodata\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no data</text>",
            (AREA_LEFT + AREA_RIGHT) / 2, (AREA_TOP + AREA_BOTTOM) / 2);
}

static void ref_lines(SvgBuf *b, const SvgPlot *p, const SvgScale *ys)
{
    for (int i = 0; i < p->y_refs_len; i++) {
        double y = svg_scale(ys, p->y_refs[i]);
        svg_raw(b,
                "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" data-y=\"%.17g\"/>"
                "<text class=\"reflabel\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                AREA_LEFT, y, AREA_RIGHT, y, p->y_refs[i], AREA_RIGHT - 4, y - 4);
        if (p->y_ref_labels) svg_text_cut(b, p->y_ref_labels[i], 40);
        svg_raw(b, "</text>");
    }
}

static int check_plot(const SvgPlot *p, char err[SVG_ERR_MAX])
{
    if (!p->id || !p->id[0] || !p->title) {
        snprintf(err, SVG_ERR_MAX, "a plot needs an id and a title");
        return -1;
    }
    for (const char *c = p->id; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
              *c == '_')) {
            snprintf(err, SVG_ERR_MAX, "plot id '%.60s': only letters, digits, '-' and '_'", p->id);
            return -1;
        }
    for (int i = 0; i < p->y_refs_len; i++)
        if (!isfinite(p->y_refs[i])) {
            snprintf(err, SVG_ERR_MAX, "plot %.60s: reference line %d is %g", p->id, i, p->y_refs[i]);
            return -1;
        }
    return 0;
}

static void widen(double v, double *lo, double *hi)
{
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

/* ---- line plots ------------------------------------------------------------- */

int svg_line_plot(SvgBuf *b, const SvgPlot *p, const SvgSeries *series, int len, char err[SVG_ERR_MAX])
{
    if (check_plot(p, err) != 0) return -1;
    bool cat = p->x_labels != NULL;
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    int points = 0;
    for (int s = 0; s < len; s++) {
        const SvgSeries *se = &series[s];
        const char *name = se->name ? se->name : "";
        if (se->len > 0 && (!se->y || (!cat && !se->x) || (!se->lo) != (!se->hi))) {
            snprintf(err, SVG_ERR_MAX, "plot %.60s, series '%.60s': missing x, y or one error-bar end", p->id, name);
            return -1;
        }
        if (cat && se->len > p->x_labels_len) {
            snprintf(err, SVG_ERR_MAX, "plot %.60s, series '%.60s': %d points but %d x labels", p->id, name, se->len,
                     p->x_labels_len);
            return -1;
        }
        for (int i = 0; i < se->len; i++) {
            double x = cat ? i : se->x[i], y = se->y[i];
            double lo = se->lo ? se->lo[i] : y, hi = se->hi ? se->hi[i] : y;
            if (!isfinite(x) || !isfinite(y) || !isfinite(lo) || !isfinite(hi)) {
                snprintf(err, SVG_ERR_MAX, "plot %.60s, series '%.60s', point %d: x %g, y %g, interval %g..%g (not finite)",
                         p->id, name, i, x, y, lo, hi);
                return -1;
            }
            widen(x, &xlo, &xhi);
            widen(y, &ylo, &yhi);
            widen(lo, &ylo, &yhi);
            widen(hi, &ylo, &yhi);
            points++;
        }
    }
    figure_open(b, p, SVG_WIDTH, SVG_HEIGHT, false);
    axis_labels(b, p);
    if (points == 0 && !cat) {
        svg_raw(b, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", AREA_LEFT, AREA_BOTTOM, AREA_RIGHT,
                AREA_BOTTOM);
        no_data(b);
        figure_close(b, p, false);
        return 0;
    }
    for (int i = 0; i < p->y_refs_len; i++) widen(p->y_refs[i], &ylo, &yhi);
    if (p->y_from_zero) widen(0, &ylo, &yhi);
    if (points == 0) ylo = 0, yhi = 1;
    SvgTicks yt, xt;
    char terr[SVG_ERR_MAX];
    if (svg_ticks(ylo, yhi, 6, &yt, terr) != 0) {
        snprintf(err, SVG_ERR_MAX, "plot %.60s: %.150s", p->id, terr);
        return -1; /* unreachable: the values are finite */
    }
    SvgScale ys = {yt.first, yt.last, AREA_BOTTOM, AREA_TOP};
    SvgScale xs;
    y_axis(b, &yt, &ys);
    if (cat) {
        int n = p->x_labels_len;
        xs = (SvgScale){-0.5, n - 0.5, AREA_LEFT, AREA_RIGHT};
        x_categories(b, p->x_labels, n, &xs);
    } else {
        if (svg_ticks(xlo, xhi, 8, &xt, terr) != 0) {
            snprintf(err, SVG_ERR_MAX, "plot %.60s: %.150s", p->id, terr);
            return -1;
        }
        xs = (SvgScale){xt.first, xt.last, AREA_LEFT, AREA_RIGHT};
        x_axis(b, &xt, &xs);
    }
    ref_lines(b, p, &ys);
    for (int s = 0; s < len; s++) {
        const SvgSeries *se = &series[s];
        const char *color = PALETTE[s % PALETTE_LEN];
        svg_raw(b, "<g class=\"series\" data-series=\"%d\" data-name=\"", s);
        svg_text(b, se->name);
        svg_raw(b, "\" data-points=\"%d\" stroke=\"%s\" fill=\"%s\">", se->len, color, color);
        if (!se->points_only && se->len > 1) {
            svg_raw(b, "<polyline class=\"line\" fill=\"none\" points=\"");
            for (int i = 0; i < se->len; i++)
                svg_raw(b, "%s%.1f,%.1f", i ? " " : "", svg_scale(&xs, cat ? i : se->x[i]), svg_scale(&ys, se->y[i]));
            svg_raw(b, "\"/>");
        }
        double r = se->len > 200 ? 1.2 : se->len > 60 ? 2 : 3.5;
        for (int i = 0; i < se->len; i++) {
            double x = cat ? i : se->x[i];
            double cx = svg_scale(&xs, x), cy = svg_scale(&ys, se->y[i]);
            if (se->lo) {
                double y0 = svg_scale(&ys, se->lo[i]), y1 = svg_scale(&ys, se->hi[i]);
                svg_raw(b,
                        "<path class=\"err\" fill=\"none\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>",
                        cx, y0, y1, cx - 5, y0, cx + 5, cx - 5, y1, cx + 5);
            }
            svg_raw(b, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" data-x=\"%.17g\" data-y=\"%.17g\"", cx,
                    cy, r, x, se->y[i]);
            if (se->lo) svg_raw(b, " data-lo=\"%.17g\" data-hi=\"%.17g\"", se->lo[i], se->hi[i]);
            if (cat) {
                svg_raw(b, " data-label=\"");
                svg_text(b, p->x_labels[i]);
                svg_raw(b, "\"");
            }
            svg_raw(b, "><title>");
            svg_text(b, se->name);
            if (cat) {
                svg_raw(b, " ");
                svg_text(b, p->x_labels[i]);
                svg_raw(b, ": %.6g", se->y[i]);
            } else svg_raw(b, " (%.6g, %.6g)", x, se->y[i]);
            if (se->lo) svg_raw(b, " [%.6g, %.6g]", se->lo[i], se->hi[i]);
            svg_raw(b, "</title></circle>");
        }
        svg_raw(b, "</g>");
    }
    if (len > 1 || (len == 1 && p->legend)) {
        svg_raw(b, "<g class=\"legend\">");
        for (int s = 0; s < len; s++) {
            int y = AREA_TOP + 6 + 16 * s;
            svg_raw(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
                    AREA_RIGHT - 150, y, PALETTE[s % PALETTE_LEN], AREA_RIGHT - 134, y + 10);
            svg_text_cut(b, series[s].name, 24);
            svg_raw(b, "</text>");
        }
        svg_raw(b, "</g>");
    }
    figure_close(b, p, false);
    return 0;
}

/* ---- bar charts -------------------------------------------------------------- */

int svg_bar_chart(SvgBuf *b, const SvgPlot *p, const SvgBars *bars, char err[SVG_ERR_MAX])
{
    if (check_plot(p, err) != 0) return -1;
    if ((!bars->lo) != (!bars->hi) || (bars->len > 0 && (!bars->labels || !bars->values))) {
        snprintf(err, SVG_ERR_MAX, "plot %.60s: bars without labels, values or one error-bar end", p->id);
        return -1;
    }
    double ylo = 0, yhi = 0;
    for (int i = 0; i < bars->len; i++) {
        double v = bars->values[i], lo = bars->lo ? bars->lo[i] : v, hi = bars->hi ? bars->hi[i] : v;
        if (!bars->labels[i]) {
            snprintf(err, SVG_ERR_MAX, "plot %.60s: bar %d has no label", p->id, i);
            return -1;
        }
        if (!isfinite(v) || !isfinite(lo) || !isfinite(hi)) {
            snprintf(err, SVG_ERR_MAX, "plot %.60s, bar %d '%.60s': value %g, interval %g..%g (not finite)", p->id, i,
                     bars->labels[i], v, lo, hi);
            return -1;
        }
        widen(v, &ylo, &yhi);
        widen(lo, &ylo, &yhi);
        widen(hi, &ylo, &yhi);
    }
    for (int i = 0; i < p->y_refs_len; i++) widen(p->y_refs[i], &ylo, &yhi);
    figure_open(b, p, SVG_WIDTH, SVG_HEIGHT, false);
    axis_labels(b, p);
    if (bars->len == 0) {
        svg_raw(b, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", AREA_LEFT, AREA_BOTTOM, AREA_RIGHT,
                AREA_BOTTOM);
        no_data(b);
        figure_close(b, p, false);
        return 0;
    }
    if (ylo == yhi) yhi = 1; /* every bar 0 */
    SvgTicks yt;
    char terr[SVG_ERR_MAX];
    if (svg_ticks(ylo, yhi, 6, &yt, terr) != 0) {
        snprintf(err, SVG_ERR_MAX, "plot %.60s: %.150s", p->id, terr);
        return -1;
    }
    SvgScale ys = {yt.first, yt.last, AREA_BOTTOM, AREA_TOP};
    SvgScale xs = {-0.5, bars->len - 0.5, AREA_LEFT, AREA_RIGHT};
    y_axis(b, &yt, &ys);
    x_categories(b, bars->labels, bars->len, &xs);
    ref_lines(b, p, &ys);
    double slot = (double)(AREA_RIGHT - AREA_LEFT) / bars->len, w = slot * 0.72;
    double y0 = svg_scale(&ys, 0);
    svg_raw(b, "<g class=\"bars\" data-bars=\"%d\">", bars->len);
    for (int i = 0; i < bars->len; i++) {
        double v = bars->values[i], x = svg_scale(&xs, i), y = svg_scale(&ys, v);
        double top = v >= 0 ? y : y0, h = fabs(y - y0);
        const char *color = bars->colors && bars->colors[i] ? bars->colors[i] : PALETTE[0];
        svg_raw(b, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"", x - w / 2, top,
                w, h);
        svg_text(b, color);
        svg_raw(b, "\" data-label=\"");
        svg_text(b, bars->labels[i]);
        svg_raw(b, "\" data-value=\"%.17g\"", v);
        if (bars->lo) svg_raw(b, " data-lo=\"%.17g\" data-hi=\"%.17g\"", bars->lo[i], bars->hi[i]);
        svg_raw(b, "><title>");
        svg_text(b, bars->labels[i]);
        svg_raw(b, ": %.*f", bars->value_decimals, v);
        if (bars->lo) svg_raw(b, " [%.*f, %.*f]", bars->value_decimals, bars->lo[i], bars->value_decimals, bars->hi[i]);
        svg_raw(b, "</title></rect>");
        if (bars->lo) {
            double e0 = svg_scale(&ys, bars->lo[i]), e1 = svg_scale(&ys, bars->hi[i]);
            svg_raw(b, "<path class=\"err\" fill=\"none\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>", x, e0,
                    e1, x - 5, e0, x + 5, x - 5, e1, x + 5);
        }
        if (bars->len <= 24)
            svg_raw(b, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>", x,
                    (v >= 0 ? y : y0) - 4, bars->value_decimals, v);
    }
    svg_raw(b, "</g>");
    figure_close(b, p, false);
    return 0;
}

/* ---- trees -------------------------------------------------------------------- */

enum { NODE_W = 124, NODE_H = 34, LEVEL_H = 92, LEAF_W = 140 };

int svg_tree(SvgBuf *b, const SvgPlot *p, const SvgTreeNode *nodes, int len, char err[SVG_ERR_MAX])
{
    if (check_plot(p, err) != 0) return -1;
    if (len <= 0) {
        snprintf(err, SVG_ERR_MAX, "plot %.60s: a tree needs nodes", p->id);
        return -1;
    }
    for (int i = 0; i < len; i++)
        if (nodes[i].parent < -1 || nodes[i].parent >= i) {
            snprintf(err, SVG_ERR_MAX, "plot %.60s: node %d has parent %d (must be -1 or an earlier node)", p->id, i,
                     nodes[i].parent);
            return -1;
        }
    int *depth = calloc((size_t)len, sizeof *depth);
    double *x = calloc((size_t)len, sizeof *x);
    int *order = calloc((size_t)len, sizeof *order);   /* preorder */
    int *first = malloc(sizeof *first * (size_t)len);  /* first child */
    int *next = malloc(sizeof *next * (size_t)len);    /* next sibling */
    int *last = malloc(sizeof *last * (size_t)len);    /* last child so far */
    int *stack = malloc(sizeof *stack * (size_t)len);
    if (!depth || !x || !order || !first || !next || !last || !stack) {
        free(depth), free(x), free(order), free(first), free(next), free(last), free(stack);
        b->oom = true;
        snprintf(err, SVG_ERR_MAX, "plot %.60s: out of memory", p->id);
        return -1;
    }
    for (int i = 0; i < len; i++) first[i] = next[i] = last[i] = -1;
    int max_depth = 0;
    for (int i = 0; i < len; i++) {
        int par = nodes[i].parent;
        if (par < 0) continue;
        depth[i] = depth[par] + 1;
        if (depth[i] > max_depth) max_depth = depth[i];
        if (last[par] < 0) first[par] = i;
        else next[last[par]] = i;
        last[par] = i;
    }
    /* Preorder walk: leaves get consecutive slots. */
    int leaves = 0, olen = 0;
    for (int root = 0; root < len; root++) {
        if (nodes[root].parent >= 0) continue;
        int sp = 0;
        stack[sp++] = root;
        while (sp > 0) {
            int v = stack[--sp];
            order[olen++] = v;
            if (first[v] < 0) x[v] = leaves++;
            /* push children in reverse so the first is visited first */
            int kids = 0;
            for (int c = first[v]; c >= 0; c = next[c]) kids++;
            int k = sp + kids - 1;
            for (int c = first[v]; c >= 0; c = next[c]) stack[k--] = c;
            sp += kids;
        }
    }
    /* Parents over the middle of their children, deepest first (reverse preorder). */
    for (int k = olen - 1; k >= 0; k--) {
        int v = order[k];
        if (first[v] >= 0) x[v] = (x[first[v]] + x[last[v]]) / 2;
    }
    int width = leaves * LEAF_W + 40;
    if (width < SVG_WIDTH) width = SVG_WIDTH;
    int height = AREA_TOP + 10 + max_depth * LEVEL_H + NODE_H + 16;
    double off = (width - leaves * LEAF_W) / 2.0 + LEAF_W / 2.0;
    bool scroll = width > SVG_WIDTH;
    figure_open(b, p, width, height, scroll);
    svg_raw(b, "<g class=\"tree\" data-nodes=\"%d\">", len);
    for (int i = 0; i < len; i++) {
        int par = nodes[i].parent;
        if (par < 0) continue;
        double x0 = off + x[par] * LEAF_W, y0 = AREA_TOP + 10 + depth[par] * LEVEL_H + NODE_H;
        double x1 = off + x[i] * LEAF_W, y1 = AREA_TOP + 10 + depth[i] * LEVEL_H;
        svg_raw(b, "<path class=\"edge\" fill=\"none\" d=\"M%.1f %.1fC%.1f %.1f %.1f %.1f %.1f %.1f\"/>", x0, y0, x0,
                (y0 + y1) / 2, x1, (y0 + y1) / 2, x1, y1);
        if (nodes[i].edge) {
            svg_raw(b, "<text class=\"elabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x1, y1 - 8);
            svg_text_cut(b, nodes[i].edge, 20);
            svg_raw(b, "<title>");
            svg_text(b, nodes[i].edge);
            svg_raw(b, "</title></text>");
        }
    }
    for (int i = 0; i < len; i++) {
        double cx = off + x[i] * LEAF_W, y = AREA_TOP + 10 + depth[i] * LEVEL_H;
        svg_raw(b, "<g class=\"node\" data-id=\"");
        svg_text(b, nodes[i].id);
        svg_raw(b, "\" data-parent=\"");
        if (nodes[i].parent >= 0) svg_text(b, nodes[nodes[i].parent].id);
        svg_raw(b, "\"><title>");
        svg_text(b, nodes[i].label);
        if (nodes[i].note) {
            svg_raw(b, " — ");
            svg_text(b, nodes[i].note);
        }
        if (nodes[i].edge) {
            svg_raw(b, " — ");
            svg_text(b, nodes[i].edge);
        }
        svg_raw(b,
                "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" rx=\"5\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                cx - NODE_W / 2.0, y, NODE_W, NODE_H, cx, y + 14);
        svg_text_cut(b, nodes[i].label, 20);
        svg_raw(b, "</text>");
        if (nodes[i].note) {
            svg_raw(b, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", cx, y + 28);
            svg_text_cut(b, nodes[i].note, 22);
            svg_raw(b, "</text>");
        }
        svg_raw(b, "</g>");
    }
    svg_raw(b, "</g>");
    figure_close(b, p, scroll);
    free(depth), free(x), free(order), free(first), free(next), free(last), free(stack);
    return 0;
}

/* ---- tables -------------------------------------------------------------------- */

static bool is_number(const char *s)
{
    if (!s || !*s) return false;
    char *end;
    strtod(s, &end);
    return *end == '\0' || (end[0] == '%' && end[1] == '\0');
}

void svg_table(SvgBuf *b, const char *cls, const char *caption, const char *const *header, int cols,
               const char *const *cells, int rows)
{
    svg_raw(b, "<div class=\"table\"><table");
    if (cls) {
        svg_raw(b, " class=\"");
        svg_text(b, cls);
        svg_raw(b, "\"");
    }
    svg_raw(b, ">");
    if (caption) {
        svg_raw(b, "<caption>");
        svg_text(b, caption);
        svg_raw(b, "</caption>");
    }
    svg_raw(b, "<thead><tr>");
    for (int c = 0; c < cols; c++) {
        svg_raw(b, "<th scope=\"col\">");
        svg_text(b, header[c]);
        svg_raw(b, "</th>");
    }
    svg_raw(b, "</tr></thead><tbody>");
    for (int r = 0; r < rows; r++) {
        svg_raw(b, "<tr>");
        for (int c = 0; c < cols; c++) {
            const char *v = cells[(size_t)r * (size_t)cols + (size_t)c];
            svg_raw(b, is_number(v) ? "<td class=\"num\">" : "<td>");
            svg_text(b, v);
            svg_raw(b, "</td>");
        }
        svg_raw(b, "</tr>");
    }
    svg_raw(b, "</tbody></table></div>\n");
}
