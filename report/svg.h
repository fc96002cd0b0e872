/* svg.h — dama's small plot writer for the HTML report (`dama report`):
 * inline SVG line plots (with optional error bars), bar charts, a lineage
 * tree, and HTML tables, written as text into a growable buffer. No
 * JavaScript: every plot is static markup that a browser draws with scripts
 * disabled.
 *
 * Text: every string that comes from outside (names, captions, labels:
 * they come from the database) is XML-escaped (& < > " ' as entities),
 * control characters other than tab and newline become U+FFFD, and bytes
 * that are not valid UTF-8 become U+FFFD, so the output is well-formed XML
 * whatever the input holds.
 *
 * Numbers: a plot refuses a point whose x or y (or error-bar end) is NaN or
 * infinite, with a message naming the plot, the series and the point (the
 * caller leaves such points out and says so). Each data point is written
 * with its values in data-x / data-y (and data-lo / data-hi) attributes,
 * printed with %.17g, so that a test reading the page can compare them with
 * the database exactly; a <title> child shows the value on hover.
 *
 * Axes: ticks are Heckbert's "loose labeling" with nice numbers (1, 2, 5 ×
 * 10^k): P. S. Heckbert, "Nice Numbers for Graph Labels", in A. S.
 * Glassner (ed.), Graphics Gems, Academic Press 1990, pp. 61–63 and
 * 657–659.
 *
 * Memory: an SvgBuf owns its text (free with svg_buf_free). An allocation
 * failure sets buf->oom and later writes do nothing; check it once at the
 * end. Pure text and arithmetic: no I/O, no globals; thread-safe for
 * distinct buffers. */
#ifndef DAMA_SVG_H
#define DAMA_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

enum {
    SVG_ERR_MAX = ERR_MAX, /* the one message size, util/err.h */
    SVG_TICKS_MAX = 32, /* most ticks on one axis */
    SVG_WIDTH = 640,    /* every plot's viewBox width (user units; the page scales it) */
    SVG_HEIGHT = 360    /* viewBox height */
};

typedef struct SvgBuf {
    char *text; /* NUL-terminated (NULL while empty) */
    size_t len; /* bytes, without the NUL */
    size_t cap;
    bool oom; /* an allocation failed: the text is incomplete */
} SvgBuf;

/* Append raw markup (printf format; nothing is escaped: for literal
 * markup and numbers only). */
void svg_raw(SvgBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append text XML-escaped (see the header comment); NULL appends nothing. */
void svg_text(SvgBuf *b, const char *s);
/* Append at most max_bytes of s, escaped, cut at a UTF-8 character
 * boundary, with "…" when cut. */
void svg_text_cut(SvgBuf *b, const char *s, size_t max_bytes);
void svg_buf_free(SvgBuf *b);

/* Heckbert's nice number: the 1, 2, 5 or 10 times a power of ten that is
 * closest to x (round) or the smallest not below x (!round). x > 0 and
 * finite; otherwise returns NaN. */
double svg_nice_number(double x, bool round);

/* Ticks for the data range [lo, hi] with about `target` ticks (2..
 * SVG_TICKS_MAX): step = nice(nice(hi - lo, false) / (target - 1), true),
 * first = floor(lo / step) * step, last = ceil(hi / step) * step, and
 * `decimals` = max(0, -floor(log10 step)) digits after the point for the
 * labels. An empty range (lo == hi: one point, or equal values) is widened
 * to lo - d .. hi + d with d = |lo| / 10, or 1 when lo is 0. Returns 0, or
 * -1 with err when lo or hi is NaN or infinite, lo > hi, or target is out
 * of range. */
typedef struct SvgTicks {
    double first, last, step; /* the axis runs from first to last */
    int len;                  /* ticks first, first + step, ..., last */
    double v[SVG_TICKS_MAX];
    int decimals;
} SvgTicks;
int svg_ticks(double lo, double hi, int target, SvgTicks *t, char err[SVG_ERR_MAX]);

/* A linear map of the data interval [d0, d1] onto [r0, r1] (SVG user
 * units; r0 > r1 for a y axis, which grows upward). d0 == d1 maps
 * everything to the middle. */
typedef struct SvgScale {
    double d0, d1, r0, r1;
} SvgScale;
double svg_scale(const SvgScale *s, double v);

/* What every plot has: an id (the figure's id attribute, for tests and
 * links; plain [A-Za-z0-9_-] text), a title (drawn at the top), axis labels
 * with their units ("loss (log-loss per position)", "plies"), and a
 * one-line caption under it saying what it shows. x_labels, when given,
 * make the x axis categorical: point i of a series is at x = i and is
 * labelled x_labels[i] (series x arrays are then ignored and may be NULL).
 * y_refs draws horizontal reference lines (e.g. the SPRT bounds, Elo 0)
 * with their labels. */
typedef struct SvgPlot {
    const char *id;
    const char *title;
    const char *caption;
    const char *x_label;
    const char *y_label;
    const char *const *x_labels;
    int x_labels_len;
    const double *y_refs;
    const char *const *y_ref_labels;
    int y_refs_len;
    bool y_from_zero; /* include 0 in the y range */
    bool legend;      /* a legend even for one series (always with more) */
} SvgPlot;

/* One series: len points (x[i], y[i]), drawn as a polyline with dots, or
 * only dots (points_only). lo/hi (optional, both or neither) are the
 * absolute lower and upper ends of an error bar at each point (e.g. Elo
 * 95% interval). */
typedef struct SvgSeries {
    const char *name;
    const double *x, *y;
    const double *lo, *hi;
    int len;
    bool points_only;
} SvgSeries;

/* A line plot of `len` series into b as <figure id=...><svg>...</svg>
 * <figcaption>...</figcaption></figure>. Axes with ticks from svg_ticks
 * over all the points (and error bars and reference lines), a legend when
 * there is more than one series (or p->legend). Series with no points are allowed (a plot
 * with no points at all says "no data"). Returns 0, or -1 with err (and b
 * unchanged) for a non-finite value, x_labels shorter than a series, or a
 * missing id/title. */
int svg_line_plot(SvgBuf *b, const SvgPlot *p, const SvgSeries *series, int len, char err[SVG_ERR_MAX]);

/* A bar chart: bar i has height values[i] from 0, labelled labels[i] under
 * it and its value above it (printed with value_decimals digits); lo/hi
 * (optional) give error bars. Bars are coloured by colors[i] when given (a
 * CSS colour such as "#009e73"), else the first palette colour. Each bar is
 * <rect class="bar" data-label=... data-value=...>. Returns 0, or -1 with
 * err for a non-finite value or a missing label. */
typedef struct SvgBars {
    const char *const *labels;
    const double *values;
    const double *lo, *hi;
    const char *const *colors;
    int len;
    int value_decimals;
} SvgBars;
int svg_bar_chart(SvgBuf *b, const SvgPlot *p, const SvgBars *bars, char err[SVG_ERR_MAX]);

/* A tree (weight-set lineage): nodes[i].parent is the index of its parent,
 * which must come earlier (parent < i), or -1 for a root. Drawn top-down:
 * roots at the top, each child one level below its parent, leaves spread
 * left to right in order and each parent centred over its children; an
 * edge from parent to child is labelled with the child's `edge` text (how
 * it was made). Each node is <g class="node" data-id=... data-parent=...>
 * with its label (and note under it). Returns 0, or -1 with err for a
 * parent index that is not earlier, or no nodes. */
typedef struct SvgTreeNode {
    const char *id;    /* data-id: e.g. the weight-set id */
    const char *label; /* first line, e.g. "42 tuned-1" */
    const char *note;  /* second line (may be NULL) */
    const char *edge;  /* how it was made from its parent (may be NULL) */
    int parent;
} SvgTreeNode;
int svg_tree(SvgBuf *b, const SvgPlot *p, const SvgTreeNode *nodes, int len, char err[SVG_ERR_MAX]);

/* An HTML table: a caption (may be NULL), cols header cells, rows rows of
 * cols cells each (cells[r * cols + c]; NULL writes an empty cell). Cells
 * whose text is a number (as strtod reads it whole) are right-aligned
 * (class "num"). Wrapped in <div class="table"> so that a wide table
 * scrolls on a phone instead of widening the page. cls, when given, is
 * added as the table's class. */
void svg_table(SvgBuf *b, const char *cls, const char *caption, const char *const *header, int cols,
               const char *const *cells, int rows);

#endif
