/* report.c — `dama report`'s page; see report.h. Each section is one
 * function: it queries the database, then writes a table and its plots. */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include "report/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "arena/ratings.h"
#include "arena/stats.h"

/* ---- query results held in memory --------------------------------------------- */

typedef struct Cell {
    char *s; /* the column as text (NULL for NULL) */
    double r; /* as a real (NaN for NULL) */
    int64_t i;
    bool null;
} Cell;

typedef struct Rows {
    int cols, len, cap;
    Cell *c;
    bool oom;
} Rows;

static int collect(void *ctx, const DbRow *row)
{
    Rows *t = ctx;
    if (t->len == t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        Cell *c = realloc(t->c, sizeof *c * (size_t)cap * (size_t)t->cols);
        if (!c) {
            t->oom = true;
            return 1;
        }
        t->c = c;
        t->cap = cap;
    }
    Cell *c = &t->c[(size_t)t->len * (size_t)t->cols];
    for (int k = 0; k < t->cols; k++) {
        const char *s = db_row_text(row, k);
        c[k] = (Cell){.s = s ? strdup(s) : NULL, .r = db_row_real(row, k), .i = db_row_int(row, k),
                      .null = db_row_null(row, k)};
        if (s && !c[k].s) t->oom = true;
    }
    t->len++;
    return t->oom ? 1 : 0;
}

static void rows_free(Rows *t)
{
    for (int k = 0; k < t->len * t->cols; k++) free(t->c[k].s);
    free(t->c);
    *t = (Rows){0};
}

static const Cell *cell(const Rows *t, int row, int col)
{
    return &t->c[(size_t)row * (size_t)t->cols + (size_t)col];
}

/* The text of a cell, "" for NULL. */
static const char *str(const Rows *t, int row, int col)
{
    const char *s = cell(t, row, col)->s;
    return s ? s : "";
}

typedef struct R {
    Db *db;
    const ReportOptions *o;
    SvgBuf *b;
    char *err; /* ERR_MAX */
} R;

/* Run sql with ?1 = the game filter (text or NULL) and ?2 = id. */
static int q(R *r, Rows *t, int cols, const char *sql, int64_t id)
{
    *t = (Rows){.cols = cols};
    DbParam p[2] = {{.is_text = true, .text = r->o->game}, {.i = id}};
    int rc = db_query_each(r->db, sql, p, 2, collect, t, r->err);
    if (t->oom) snprintf(r->err, ERR_MAX, "out of memory reading the database");
    if (rc != 0 || t->oom) {
        rows_free(t);
        return -1;
    }
    return 0;
}

/* ---- formatting ---------------------------------------------------------------- */

/* A list of formatted strings for table cells, freed together. */
typedef struct Cells {
    char **s;
    int len, cap;
    bool oom;
} Cells;

static void add(Cells *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(Cells *c, const char *fmt, ...)
{
    if (c->len == c->cap) {
        int cap = c->cap ? c->cap * 2 : 64;
        char **s = realloc(c->s, sizeof *s * (size_t)cap);
        if (!s) {
            c->oom = true;
            return;
        }
        c->s = s;
        c->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *out = NULL;
    if (vasprintf(&out, fmt, ap) < 0) {
        out = NULL;
        c->oom = true;
    }
    va_end(ap);
    c->s[c->len++] = out;
}

static void cells_free(Cells *c)
{
    for (int i = 0; i < c->len; i++) free(c->s[i]);
    free(c->s);
    *c = (Cells){0};
}

/* A real with d decimals, "–" for NULL or NaN, "inf"/"-inf" spelled out. */
static void add_real(Cells *c, double v, int d)
{
    if (isnan(v)) add(c, "–");
    else if (isinf(v)) add(c, "%s", v > 0 ? "+inf" : "-inf");
    else add(c, "%.*f", d, v);
}

static void table(R *r, const char *cls, const char *caption, const char *const *header, int cols, Cells *c)
{
    if (c->len % cols != 0) c->oom = true; /* a programming error: never a ragged table */
    svg_table(r->b, cls, caption, header, cols, (const char *const *)c->s, c->len / cols);
}

static void p_text(R *r, const char *cls, const char *text)
{
    svg_raw(r->b, "<p class=\"%s\">", cls);
    svg_text(r->b, text);
    svg_raw(r->b, "</p>\n");
}

static void section_open(R *r, const char *id, const char *title, const char *what)
{
    svg_raw(r->b, "<section id=\"%s\"><h2>", id);
    svg_text(r->b, title);
    svg_raw(r->b, "</h2>\n");
    if (what) p_text(r, "what", what);
}

static void section_close(R *r)
{
    svg_raw(r->b, "</section>\n");
}

/* A plot that svg.h refused (a value the section did not filter): say so
 * on the page rather than lose the section. */
static void plot_failed(R *r, const char *serr)
{
    char msg[SVG_ERR_MAX + 32];
    snprintf(msg, sizeof msg, "plot not drawn: %s", serr);
    p_text(r, "none", msg);
}

static const char *const COLOR_WIN = "#0072b2", *const COLOR_DRAW = "#999999", *const COLOR_LOSS = "#d55e00",
                          *const COLOR_MIXED = "#cc79a7";

/* ---- self-play runs ------------------------------------------------------------- */

static const char SQL_SELFPLAY[] =
    "SELECT r.id, r.game, r.status, r.created, "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id), "
    "(SELECT count(*) FROM positions p WHERE p.game_id IN (SELECT id FROM games g WHERE g.run_id = r.id)), "
    "(SELECT count(*) FROM positions p WHERE p.quiet = 1 AND p.game_id IN (SELECT id FROM games g WHERE g.run_id = r.id)), "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id AND g.result = '1-0'), "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id AND g.result = '1/2-1/2'), "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id AND g.result = '0-1'), "
    "(SELECT avg(g.plies) FROM games g WHERE g.run_id = r.id) "
    "FROM runs r WHERE r.kind = 'selfplay' AND (?1 IS NULL OR r.game = ?1) ORDER BY r.id";
static const char SQL_REASONS[] =
    "SELECT coalesce(reason, '(none)'), count(*), sum(result = '1/2-1/2') FROM games WHERE run_id = ?2 "
    "GROUP BY 1 ORDER BY 2 DESC, 1";
static const char SQL_PLIES[] = "SELECT plies FROM games WHERE run_id = ?2 AND plies IS NOT NULL";

/* How the games of a run (or tournament) ended: one bar per reason. */
static int reasons_plot(R *r, int64_t run_id, const char *id, const char *what)
{
    Rows t;
    if (q(r, &t, 3, SQL_REASONS, run_id) != 0) return -1;
    const char **labels = calloc((size_t)t.len + 1, sizeof *labels);
    const char **colors = calloc((size_t)t.len + 1, sizeof *colors);
    double *v = calloc((size_t)t.len + 1, sizeof *v);
    if (!labels || !colors || !v) {
        free(labels), free(colors), free(v), rows_free(&t);
        snprintf(r->err, ERR_MAX, "out of memory");
        return -1;
    }
    for (int i = 0; i < t.len; i++) {
        labels[i] = str(&t, i, 0);
        v[i] = (double)cell(&t, i, 1)->i;
        int64_t draws = cell(&t, i, 2)->i;
        colors[i] = draws == cell(&t, i, 1)->i ? COLOR_DRAW : draws == 0 ? COLOR_WIN : COLOR_MIXED;
    }
    char title[160], caption[400];
    snprintf(title, sizeof title, "How the games of %s ended", what);
    snprintf(caption, sizeof caption,
             "Games of %s by end reason (the rule or adjudication that ended them: no-moves, draw rules, move-cap, "
             "...); grey: every game drawn, blue: every game decided, pink: both.",
             what);
    SvgPlot p = {.id = id, .title = title, .caption = caption, .x_label = "end reason", .y_label = "games"};
    SvgBars bars = {.labels = labels, .values = v, .colors = colors, .len = t.len};
    char serr[SVG_ERR_MAX];
    if (svg_bar_chart(r->b, &p, &bars, serr) != 0) plot_failed(r, serr);
    free(labels), free(colors), free(v), rows_free(&t);
    return 0;
}

/* Game lengths: bins of a nice width (1, 2, 5 x 10^k plies), about 15 of them. */
static int plies_histogram(R *r, int64_t run_id, const char *id, const char *what)
{
    Rows t;
    if (q(r, &t, 1, SQL_PLIES, run_id) != 0) return -1;
    int64_t max = 0;
    for (int i = 0; i < t.len; i++)
        if (cell(&t, i, 0)->i > max) max = cell(&t, i, 0)->i;
    int64_t w = max >= 15 ? (int64_t)svg_nice_number((double)max / 15, true) : 1;
    if (w < 1) w = 1;
    int nb = t.len ? (int)(max / w) + 1 : 0;
    double *v = calloc((size_t)nb + 1, sizeof *v);
    char **labels = calloc((size_t)nb + 1, sizeof *labels);
    bool oom = !v || !labels;
    for (int k = 0; !oom && k < nb; k++) {
        int rc = w == 1 ? asprintf(&labels[k], "%lld", (long long)k)
                        : asprintf(&labels[k], "%lld–%lld", (long long)(k * w), (long long)(k * w + w - 1));
        if (rc < 0) labels[k] = NULL, oom = true;
    }
    for (int i = 0; !oom && i < t.len; i++) {
        int64_t pl = cell(&t, i, 0)->i;
        if (pl >= 0) v[pl / w] += 1;
    }
    if (!oom) {
        char title[160], caption[400];
        snprintf(title, sizeof title, "Game length, %s", what);
        snprintf(caption, sizeof caption, "Games of %s by length in plies (half-moves), in bins of %lld plies; %d games.",
                 what, (long long)w, t.len);
        SvgPlot p = {.id = id, .title = title, .caption = caption, .x_label = "plies", .y_label = "games"};
        SvgBars bars = {.labels = (const char *const *)labels, .values = v, .len = nb};
        char serr[SVG_ERR_MAX];
        if (svg_bar_chart(r->b, &p, &bars, serr) != 0) plot_failed(r, serr);
    }
    for (int k = 0; labels && k < nb; k++) free(labels[k]);
    free(labels), free(v), rows_free(&t);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : 0;
}

static int section_selfplay(R *r)
{
    Rows t;
    if (q(r, &t, 11, SQL_SELFPLAY, 0) != 0) return -1;
    section_open(r, "selfplay", "Self-play runs",
                 "Each dama selfplay run: its games and stored positions (quiet: no capture pending, the tuner's "
                 "data), the results from White's view, and how long the games were.");
    if (t.len == 0) p_text(r, "none", "No self-play runs in this database.");
    static const char *const head[] = {"run", "game", "status", "created", "games", "positions", "quiet positions",
                                       "White wins", "draws", "Black wins", "mean plies"};
    Cells c = {0};
    for (int i = 0; i < t.len; i++) {
        add(&c, "%lld", (long long)cell(&t, i, 0)->i);
        for (int k = 1; k < 4; k++) add(&c, "%s", str(&t, i, k));
        for (int k = 4; k < 10; k++) add(&c, "%lld", (long long)cell(&t, i, k)->i);
        add_real(&c, cell(&t, i, 10)->r, 1);
    }
    if (t.len) table(r, "runs", NULL, head, 11, &c);
    bool oom = c.oom;
    cells_free(&c);
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    if (first > 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "Plots of the newest %d runs; the table lists all %d.", REPORT_RUNS_MAX, t.len);
        p_text(r, "note", msg);
    }
    int rc = 0;
    for (int i = t.len - 1; rc == 0 && i >= first; i--) {
        int64_t id = cell(&t, i, 0)->i;
        svg_raw(r->b, "<h3>Run %lld (", (long long)id);
        svg_text(r->b, str(&t, i, 1));
        svg_raw(r->b, ")</h3><div class=\"figs\">\n");
        char what[64], fid[64];
        snprintf(what, sizeof what, "run %lld", (long long)id);
        static const char *const labels[] = {"White wins", "draws", "Black wins"};
        const char *const colors[] = {COLOR_WIN, COLOR_DRAW, COLOR_LOSS};
        double v[3] = {(double)cell(&t, i, 7)->i, (double)cell(&t, i, 8)->i, (double)cell(&t, i, 9)->i};
        char title[96], caption[200];
        snprintf(title, sizeof title, "Results, %s", what);
        snprintf(caption, sizeof caption, "Results of the %lld games of %s, from White's view.",
                 (long long)cell(&t, i, 4)->i, what);
        snprintf(fid, sizeof fid, "selfplay-%lld-results", (long long)id);
        SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "result", .y_label = "games"};
        SvgBars bars = {.labels = labels, .values = v, .colors = colors, .len = 3};
        char serr[SVG_ERR_MAX];
        if (svg_bar_chart(r->b, &p, &bars, serr) != 0) plot_failed(r, serr);
        snprintf(fid, sizeof fid, "selfplay-%lld-reasons", (long long)id);
        rc = reasons_plot(r, id, fid, what);
        snprintf(fid, sizeof fid, "selfplay-%lld-plies", (long long)id);
        if (rc == 0) rc = plies_histogram(r, id, fid, what);
        svg_raw(r->b, "</div>\n");
    }
    section_close(r);
    rows_free(&t);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : rc;
}

/* ---- tuning runs ------------------------------------------------------------------ */

static const char SQL_TUNING[] =
    "SELECT t.id, t.run_id, t.game, t.base_ws, t.result_ws, t.k, t.positions_train, t.positions_valid, "
    "t.train_loss, t.valid_loss, t.data, t.created, r.status "
    "FROM tuning_runs t LEFT JOIN runs r ON r.id = t.run_id WHERE (?1 IS NULL OR t.game = ?1) ORDER BY t.id";
static const char SQL_EPOCHS[] =
    "SELECT epoch, train_loss, valid_loss FROM tuning_epochs WHERE tuning_run_id = ?2 ORDER BY epoch";

static int loss_plot(R *r, const Rows *t, int i)
{
    int64_t id = cell(t, i, 0)->i;
    Rows e;
    if (q(r, &e, 3, SQL_EPOCHS, id) != 0) return -1;
    double *x[2], *y[2];
    int n[2] = {0, 0};
    bool oom = false;
    for (int s = 0; s < 2; s++) {
        x[s] = malloc(sizeof(double) * ((size_t)e.len + 1));
        y[s] = malloc(sizeof(double) * ((size_t)e.len + 1));
        if (!x[s] || !y[s]) oom = true;
    }
    int skipped = 0;
    for (int k = 0; !oom && k < e.len; k++)
        for (int s = 0; s < 2; s++) {
            double v = cell(&e, k, 1 + s)->r;
            if (!isfinite(v)) {
                skipped += !cell(&e, k, 1 + s)->null; /* NULL (no validation set) is not worth a note */
                continue;
            }
            x[s][n[s]] = (double)cell(&e, k, 0)->i;
            y[s][n[s]++] = v;
        }
    if (!oom) {
        char fid[64], title[96], caption[600];
        snprintf(fid, sizeof fid, "tuning-%lld-loss", (long long)id);
        snprintf(title, sizeof title, "Loss per epoch, tuning run %lld", (long long)id);
        snprintf(caption, sizeof caption,
                 "Texel loss (mean squared error of the game result against the sigmoid of the evaluation) on the "
                 "training and the held-out validation positions after each epoch; K %.4f, %lld training and %lld "
                 "validation positions.%s",
                 cell(t, i, 5)->r, (long long)cell(t, i, 6)->i, (long long)cell(t, i, 7)->i,
                 skipped ? " Non-finite losses left out." : "");
        SvgSeries s[2] = {{.name = "training", .x = x[0], .y = y[0], .len = n[0]},
                          {.name = "validation", .x = x[1], .y = y[1], .len = n[1]}};
        SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "epoch",
                     .y_label = "loss (mean squared error)"};
        char serr[SVG_ERR_MAX];
        if (svg_line_plot(r->b, &p, s, 2, serr) != 0) plot_failed(r, serr);
    }
    for (int s = 0; s < 2; s++) free(x[s]), free(y[s]);
    rows_free(&e);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : 0;
}

static int section_tuning(R *r)
{
    Rows t;
    if (q(r, &t, 13, SQL_TUNING, 0) != 0) return -1;
    section_open(r, "tuning", "Tuning runs",
                 "Each dama tune: the sigmoid scale K fitted first, the positions used (training and held-out "
                 "validation), the final losses, which data it read, and the loss after every epoch.");
    if (t.len == 0) p_text(r, "none", "No tuning runs in this database.");
    static const char *const head[] = {"tuning run", "run", "game",       "status",     "from weight set",
                                       "result",     "K",   "train pos.", "valid pos.", "train loss",
                                       "valid loss", "data"};
    Cells c = {0};
    for (int i = 0; i < t.len; i++) {
        add(&c, "%lld", (long long)cell(&t, i, 0)->i);
        add(&c, "%s", str(&t, i, 1));
        add(&c, "%s", str(&t, i, 2));
        add(&c, "%s", str(&t, i, 12));
        add(&c, "%s", str(&t, i, 3));
        add(&c, "%s", cell(&t, i, 4)->null ? "–" : str(&t, i, 4)); /* none yet, or no weight changed */
        add_real(&c, cell(&t, i, 5)->r, 4);
        add(&c, "%lld", (long long)cell(&t, i, 6)->i);
        add(&c, "%lld", (long long)cell(&t, i, 7)->i);
        add_real(&c, cell(&t, i, 8)->r, 6);
        add_real(&c, cell(&t, i, 9)->r, 6);
        add(&c, "%s", str(&t, i, 10));
    }
    if (t.len) table(r, "tuning", NULL, head, 12, &c);
    bool oom = c.oom;
    cells_free(&c);
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    if (t.len) svg_raw(r->b, "<div class=\"figs\">\n");
    int rc = 0;
    for (int i = t.len - 1; rc == 0 && i >= first; i--) rc = loss_plot(r, &t, i);
    if (t.len) svg_raw(r->b, "</div>\n");
    section_close(r);
    rows_free(&t);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : rc;
}

/* ---- weight sets ------------------------------------------------------------------- */

static const char SQL_WEIGHTS[] =
    "SELECT id, game, name, parent_id, how, created, terms, weights FROM weight_sets "
    "WHERE how NOT LIKE 'perturbed%' AND (?1 IS NULL OR game = ?1) ORDER BY id";
static const char SQL_PERTURBED[] =
    "SELECT parent_id, count(*), min(id), max(id) FROM weight_sets "
    "WHERE how LIKE 'perturbed%' AND (?1 IS NULL OR game = ?1) GROUP BY parent_id ORDER BY parent_id";

/* The value of the weight named `name` in a stored set (terms and weights:
 * comma-separated, same order). false when absent. */
static bool weight_of(const char *terms, const char *weights, const char *name, double *v)
{
    size_t nlen = strlen(name);
    const char *t = terms, *w = weights;
    while (t && w && *t) {
        const char *tc = strchr(t, ',');
        size_t tl = tc ? (size_t)(tc - t) : strlen(t);
        if (tl == nlen && strncmp(t, name, nlen) == 0) {
            char *end;
            double x = strtod(w, &end);
            if (end == w || (*end != ',' && *end != '\0')) return false;
            *v = x;
            return true;
        }
        const char *wc = strchr(w, ',');
        t = tc ? tc + 1 : NULL;
        w = wc ? wc + 1 : NULL;
    }
    return false;
}

/* The main terms of a game: its scalar term groups before its first table
 * (the material values: man and king; Biy, Batyr, Tura, Yalkyn, shatra and
 * their reserve values). */
static int main_terms(const Game *g, const char **names, int max)
{
    int n = 0;
    for (int i = 0; i < g->terms_len && n < max; i++) {
        if (g->terms[i].count != 1 || g->terms[i].offset >= g->eg_offset) break;
        names[n++] = g->terms[i].name;
    }
    return n;
}

enum { MAIN_TERMS_MAX = 16, PIECE_SETS_MAX = 40 };

/* Piece values of every (not perturbed) weight set of one game: a table, and
 * a plot of those that changed. */
static int piece_values(R *r, const Rows *t, const Game *g)
{
    const char *names[MAIN_TERMS_MAX];
    int nt = main_terms(g, names, MAIN_TERMS_MAX);
    if (nt == 0) return 0;
    int *rows = malloc(sizeof *rows * ((size_t)t->len + 1));
    if (!rows) {
        snprintf(r->err, ERR_MAX, "out of memory");
        return -1;
    }
    int n = 0;
    for (int i = 0; i < t->len; i++)
        if (strcmp(str(t, i, 1), g->name) == 0) rows[n++] = i;
    int first = n > PIECE_SETS_MAX ? n - PIECE_SETS_MAX : 0;
    int len = n - first;
    double *v = malloc(sizeof *v * ((size_t)len * (size_t)nt + 1));
    bool *have = malloc(sizeof *have * ((size_t)len * (size_t)nt + 1));
    char **labels = calloc((size_t)len + 1, sizeof *labels);
    Cells c = {0};
    bool oom = !v || !have || !labels;
    for (int k = 0; !oom && k < len; k++) {
        int i = rows[first + k];
        if (asprintf(&labels[k], "#%lld", (long long)cell(t, i, 0)->i) < 0) {
            labels[k] = NULL;
            oom = true;
            break;
        }
        add(&c, "%lld", (long long)cell(t, i, 0)->i);
        add(&c, "%s", str(t, i, 2));
        for (int j = 0; j < nt; j++) {
            have[k * nt + j] = weight_of(str(t, i, 6), str(t, i, 7), names[j], &v[k * nt + j]);
            if (have[k * nt + j]) add(&c, "%.0f", v[k * nt + j]);
            else add(&c, "–");
        }
    }
    if (!oom && len > 0) {
        svg_raw(r->b, "<h3>");
        svg_text(r->b, g->title);
        svg_raw(r->b, ": piece values</h3>\n");
        const char *head[MAIN_TERMS_MAX + 2] = {"weight set", "name"};
        for (int j = 0; j < nt; j++) head[2 + j] = names[j];
        svg_raw(r->b, "<div id=\"pieces-%s-table\">", g->name);
        table(r, "pieces", NULL, head, nt + 2, &c);
        svg_raw(r->b, "</div>\n");
        /* Plot the terms that changed (the scale weight and the values no
         * set moved are named in the caption instead). */
        SvgSeries s[MAIN_TERMS_MAX];
        double *ys = malloc(sizeof *ys * ((size_t)len * (size_t)nt + 1));
        int ns = 0;
        char fixed[400] = "";
        size_t fl = 0;
        for (int j = 0; ys && j < nt; j++) {
            bool all = true, changed = false;
            for (int k = 0; k < len; k++) {
                if (!have[k * nt + j] || !isfinite(v[k * nt + j])) all = false;
                else if (v[k * nt + j] != v[j]) changed = true;
            }
            if (!all) continue;
            if (!changed || g->terms[j].offset == g->scale_weight) {
                int w = snprintf(fixed + fl, sizeof fixed - fl, "%s%s %.0f", fl ? ", " : "", names[j], v[j]);
                if (w > 0 && (size_t)w < sizeof fixed - fl) fl += (size_t)w;
                continue;
            }
            for (int k = 0; k < len; k++) ys[ns * len + k] = v[k * nt + j];
            s[ns] = (SvgSeries){.name = names[j], .y = ys + ns * len, .len = len};
            ns++;
        }
        if (ys && ns == 0) {
            char msg[500];
            snprintf(msg, sizeof msg, "No piece value differs between these weight sets (%s): nothing to plot.", fixed);
            p_text(r, "none", msg);
        } else if (ys) {
            char fid[64], title[96], caption[700], y_label[96];
            snprintf(fid, sizeof fid, "pieces-%s", g->name);
            snprintf(title, sizeof title, "%s: piece values by weight set", g->title);
            snprintf(y_label, sizeof y_label, "value (%s)", g->value_unit ? g->value_unit : "centi-men");
            snprintf(caption, sizeof caption,
                     "Opening-phase values of the material terms in each weight set (compiled-in, tuned, SPSA, "
                     "generations; perturbed self-play members left out), oldest first%s%s%s.",
                     len < n ? " (the newest 40)" : "", fl ? "; unchanged or the fixed scale: " : "", fixed);
            SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "weight set",
                         .y_label = y_label,
                         .x_labels = (const char *const *)labels, .x_labels_len = len, .legend = true};
            char serr[SVG_ERR_MAX];
            svg_raw(r->b, "<div class=\"figs\">\n");
            if (svg_line_plot(r->b, &p, s, ns, serr) != 0) plot_failed(r, serr);
            svg_raw(r->b, "</div>\n");
        } else oom = true;
        free(ys);
    }
    oom = oom || c.oom;
    for (int k = 0; labels && k < len; k++) free(labels[k]);
    free(labels), free(v), free(have), free(rows);
    cells_free(&c);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : 0;
}

static int section_weights(R *r)
{
    Rows t, pt;
    if (q(r, &t, 8, SQL_WEIGHTS, 0) != 0) return -1;
    if (q(r, &pt, 4, SQL_PERTURBED, 0) != 0) {
        rows_free(&t);
        return -1;
    }
    section_open(r, "weights", "Weight sets",
                 "Every evaluation weight set and where it came from (parent → child, labelled with how it was "
                 "made); the perturbed members of each self-play run are drawn as one node per parent.");
    if (t.len == 0 && pt.len == 0) p_text(r, "none", "No weight sets in this database.");
    int len = t.len + pt.len;
    SvgTreeNode *nodes = calloc((size_t)len + 1, sizeof *nodes);
    char **texts = calloc((size_t)len * 4 + 1, sizeof *texts);
    bool oom = !nodes || !texts;
    int n = 0;
    for (int i = 0; !oom && i < t.len; i++) {
        int64_t id = cell(&t, i, 0)->i, parent = cell(&t, i, 3)->i;
        int pi = -1; /* node k < i is row k */
        for (int k = 0; parent && k < i; k++)
            if (cell(&t, k, 0)->i == parent) pi = k;
        char **tx = &texts[4 * n];
        if (asprintf(&tx[0], "%lld", (long long)id) < 0 ||
            asprintf(&tx[1], "#%lld %s", (long long)id, str(&t, i, 2)) < 0 ||
            asprintf(&tx[2], "%s%s%s", str(&t, i, 1),
                     parent && pi < 0 ? ", parent " : "", parent && pi < 0 ? str(&t, i, 3) : "") < 0 ||
            asprintf(&tx[3], "%s", str(&t, i, 4)) < 0) {
            oom = true;
            break;
        }
        nodes[n] = (SvgTreeNode){.id = tx[0], .label = tx[1], .note = tx[2], .edge = pi >= 0 ? tx[3] : NULL,
                                 .parent = pi};
        n++;
    }
    /* The perturbed members, one node per parent, after their parent. */
    for (int i = 0; !oom && i < pt.len; i++) {
        int64_t parent = cell(&pt, i, 0)->i;
        int pi = -1;
        for (int k = 0; k < t.len && k < n; k++)
            if (!cell(&pt, i, 0)->null && cell(&t, k, 0)->i == parent) pi = k;
        char **tx = &texts[4 * n];
        if (asprintf(&tx[0], "p%lld", (long long)parent) < 0 ||
            asprintf(&tx[1], "%lld perturbed", (long long)cell(&pt, i, 1)->i) < 0 ||
            asprintf(&tx[2], "#%lld–#%lld", (long long)cell(&pt, i, 2)->i, (long long)cell(&pt, i, 3)->i) < 0 ||
            asprintf(&tx[3], "perturbed (self-play members)") < 0) {
            oom = true;
            break;
        }
        nodes[n] = (SvgTreeNode){.id = tx[0], .label = tx[1], .note = tx[2], .edge = pi >= 0 ? tx[3] : NULL,
                                 .parent = pi};
        n++;
    }
    if (!oom && n > 0) {
        /* svg_tree wants parents first: the weight sets are in id order
         * (a parent is stored before its children), and the perturbed
         * groups come after every set. */
        svg_raw(r->b, "<div class=\"figs\">\n");
        SvgPlot p = {.id = "lineage", .title = "Weight-set lineage",
                     .caption = "Each weight set (#id name, game) under the set it was made from; an edge says how "
                                "(tuned by a tuning run, SPSA, a generation, perturbed for self-play). A set whose "
                                "parent is not drawn names it."};
        char serr[SVG_ERR_MAX];
        if (svg_tree(r->b, &p, nodes, n, serr) != 0) plot_failed(r, serr);
        svg_raw(r->b, "</div>\n");
    }
    for (int i = 0; texts && i < 4 * len; i++) free(texts[i]);
    free(texts), free(nodes);
    int rc = oom ? -1 : 0;
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    for (const Game *const *g = game_list(); rc == 0 && *g; g++)
        if (!r->o->game || strcmp(r->o->game, (*g)->name) == 0) rc = piece_values(r, &t, *g);
    section_close(r);
    rows_free(&t);
    rows_free(&pt);
    return rc;
}

/* ---- matches ---------------------------------------------------------------------- */

static const char SQL_MATCHES[] =
    "SELECT m.id, m.run_id, m.game, m.ws_a, m.ws_b, wa.name, wb.name, m.games, m.wins, m.draws, m.losses, "
    "m.penta0, m.penta1, m.penta2, m.penta3, m.penta4, m.elo, m.elo_lo, m.elo_hi, m.llr, "
    "m.sprt_elo0, m.sprt_elo1, m.sprt_alpha, m.sprt_beta, m.sprt_result, %s, m.created "
    "FROM matches m LEFT JOIN weight_sets wa ON wa.id = m.ws_a LEFT JOIN weight_sets wb ON wb.id = m.ws_b "
    "WHERE (?1 IS NULL OR m.game = ?1) ORDER BY m.id";
static const char SQL_MATCH_GAMES[] =
    "SELECT game_index, white_ws, black_ws, result, opening FROM games WHERE run_id = ?2 ORDER BY game_index";

enum {
    M_ID, M_RUN, M_GAME, M_A, M_B, M_NAME_A, M_NAME_B, M_GAMES, M_W, M_D, M_L, M_P0, M_ELO = M_P0 + 5, M_LO, M_HI,
    M_LLR, M_E0, M_E1, M_ALPHA, M_BETA, M_RESULT, M_SPRT_LLR, M_SPRT_PAIRS, M_CREATED, M_COLS
};

/* A's half points in a stored game of a match: A is White in game 2p and
 * Black in 2p + 1 (dama match), or by the weight sets when they differ. */
static int a_half(const Rows *g, int k, int64_t ws_a, int64_t ws_b)
{
    const char *res = str(g, k, 3);
    int white = strcmp(res, "1-0") == 0 ? 2 : strcmp(res, "0-1") == 0 ? 0 : strcmp(res, "1/2-1/2") == 0 ? 1 : -1;
    if (white < 0) return -1;
    bool a_white = cell(g, k, 0)->i % 2 == 0;
    if (ws_a != ws_b && cell(g, k, 1)->i == ws_a && cell(g, k, 2)->i == ws_b) a_white = true;
    else if (ws_a != ws_b && cell(g, k, 1)->i == ws_b && cell(g, k, 2)->i == ws_a) a_white = false;
    return a_white ? white : 2 - white;
}

/* The SPRT's LLR after each complete pair, recomputed from the stored games
 * in pair order with stats_compute_llr_ptnml (dama stores the final LLR and
 * the one at the decision, not the path). */
static int llr_plot(R *r, const Rows *m, int i)
{
    SprtParams sp = {.alpha = cell(m, i, M_ALPHA)->r, .beta = cell(m, i, M_BETA)->r, .elo0 = cell(m, i, M_E0)->r,
                     .elo1 = cell(m, i, M_E1)->r};
    if (stats_check_sprt(&sp, NULL, 0) != 0) return 0; /* no SPRT parameters stored */
    int64_t id = cell(m, i, M_ID)->i;
    Rows g;
    if (q(r, &g, 5, SQL_MATCH_GAMES, cell(m, i, M_RUN)->i) != 0) return -1;
    double *x = malloc(sizeof *x * ((size_t)g.len / 2 + 1)), *y = malloc(sizeof *y * ((size_t)g.len / 2 + 1));
    if (!x || !y) {
        free(x), free(y), rows_free(&g);
        snprintf(r->err, ERR_MAX, "out of memory");
        return -1;
    }
    MatchStats st;
    stats_init(&st);
    int n = 0, unpaired = 0;
    for (int k = 0; k + 1 < g.len; k++) {
        if (cell(&g, k, 0)->i % 2 != 0 || cell(&g, k + 1, 0)->i != cell(&g, k, 0)->i + 1 ||
            strcmp(str(&g, k, 4), str(&g, k + 1, 4)) != 0) {
            unpaired++;
            continue;
        }
        int h0 = a_half(&g, k, cell(m, i, M_A)->i, cell(m, i, M_B)->i);
        int h1 = a_half(&g, k + 1, cell(m, i, M_A)->i, cell(m, i, M_B)->i);
        k++;
        if (h0 < 0 || h1 < 0) continue;
        stats_add_pair(&st, (StatsResult)h0, (StatsResult)h1);
        x[n] = (double)stats_count_pairs(&st);
        y[n] = stats_compute_llr_ptnml(&st, &sp);
        if (isfinite(y[n])) n++;
    }
    double bounds[3];
    stats_compute_bounds(&sp, &bounds[0], &bounds[1]);
    static const char *const blabels[] = {"accept H0", "accept H1", "stored final LLR"};
    int nb = 2;
    if (isfinite(cell(m, i, M_LLR)->r)) bounds[nb++] = cell(m, i, M_LLR)->r;
    char fid[64], title[96], caption[700], decided[160] = "";
    if (!cell(m, i, M_SPRT_LLR)->null)
        snprintf(decided, sizeof decided, " The SPRT decided %s after %lld pairs at LLR %.3f.", str(m, i, M_RESULT),
                 (long long)cell(m, i, M_SPRT_PAIRS)->i, cell(m, i, M_SPRT_LLR)->r);
    snprintf(fid, sizeof fid, "match-%lld-llr", (long long)id);
    snprintf(title, sizeof title, "SPRT LLR, match %lld [%g, %g]", (long long)id, sp.elo0, sp.elo1);
    snprintf(caption, sizeof caption,
             "Log-likelihood ratio of H1 (Elo %g) against H0 (Elo %g) after each game pair, recomputed from the "
             "stored games in pair order (pentanomial, as dama match computes it; the database keeps the final and "
             "the deciding LLR, not the path); the bounds are Wald's for alpha %g, beta %g.%s%s",
             sp.elo1, sp.elo0, sp.alpha, sp.beta, decided, unpaired ? " Games without their pair left out." : "");
    SvgSeries s = {.name = "LLR", .x = x, .y = y, .len = n};
    SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "game pairs", .y_label = "LLR",
                 .y_refs = bounds, .y_ref_labels = blabels, .y_refs_len = nb};
    char serr[SVG_ERR_MAX];
    if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) plot_failed(r, serr);
    free(x), free(y), rows_free(&g);
    return 0;
}

static int section_matches(R *r)
{
    bool has_decision;
    if (db_has_column(r->db, "matches", "sprt_llr", &has_decision, r->err) != 0) return -1;
    char sql[sizeof SQL_MATCHES + 64];
    snprintf(sql, sizeof sql, SQL_MATCHES, has_decision ? "m.sprt_llr, m.sprt_pairs" : "NULL, NULL");
    Rows t;
    if (q(r, &t, M_COLS, sql, 0) != 0) return -1;
    section_open(r, "matches", "Matches",
                 "Each dama match: weight set A against B on paired openings (each opening with both colours), "
                 "results from A's view, the pentanomial counts of the game pairs, Elo with its 95% interval and "
                 "the SPRT.");
    if (t.len == 0) p_text(r, "none", "No matches in this database.");
    static const char *const head[] = {"match", "game", "A", "B", "games", "wins", "draws", "losses",
                                       "pentanomial (0, ½, 1, 1½, 2)", "Elo", "95% interval", "LLR", "SPRT"};
    Cells c = {0};
    for (int i = 0; i < t.len; i++) {
        add(&c, "%lld", (long long)cell(&t, i, M_ID)->i);
        add(&c, "%s", str(&t, i, M_GAME));
        add(&c, "#%s %s", str(&t, i, M_A), str(&t, i, M_NAME_A));
        add(&c, "#%s %s", str(&t, i, M_B), str(&t, i, M_NAME_B));
        for (int k = M_GAMES; k <= M_L; k++) add(&c, "%lld", (long long)cell(&t, i, k)->i);
        add(&c, "%lld, %lld, %lld, %lld, %lld", (long long)cell(&t, i, M_P0)->i, (long long)cell(&t, i, M_P0 + 1)->i,
            (long long)cell(&t, i, M_P0 + 2)->i, (long long)cell(&t, i, M_P0 + 3)->i,
            (long long)cell(&t, i, M_P0 + 4)->i);
        add_real(&c, cell(&t, i, M_ELO)->r, 1);
        add(&c, "[%.1f, %.1f]", cell(&t, i, M_LO)->r, cell(&t, i, M_HI)->r);
        add_real(&c, cell(&t, i, M_LLR)->r, 2);
        if (cell(&t, i, M_E0)->null) add(&c, "–");
        else add(&c, "[%g, %g] %s", cell(&t, i, M_E0)->r, cell(&t, i, M_E1)->r,
                 cell(&t, i, M_RESULT)->null ? "undecided" : str(&t, i, M_RESULT));
    }
    if (t.len) table(r, "matches", NULL, head, 13, &c);
    bool oom = c.oom;
    cells_free(&c);
    int rc = 0;
    if (t.len) {
        /* Elo of every match with its interval (finite ones). */
        double *y = malloc(sizeof *y * (size_t)t.len), *lo = malloc(sizeof *lo * (size_t)t.len),
               *hi = malloc(sizeof *hi * (size_t)t.len);
        char **labels = calloc((size_t)t.len, sizeof *labels);
        int n = 0, left = 0;
        oom = oom || !y || !lo || !hi || !labels;
        for (int i = 0; !oom && i < t.len; i++) {
            double e = cell(&t, i, M_ELO)->r, l = cell(&t, i, M_LO)->r, h = cell(&t, i, M_HI)->r;
            if (!isfinite(e) || !isfinite(l) || !isfinite(h)) {
                left++;
                continue;
            }
            if (asprintf(&labels[n], "#%lld", (long long)cell(&t, i, M_ID)->i) < 0) {
                labels[n] = NULL;
                oom = true;
                break;
            }
            y[n] = e, lo[n] = l, hi[n] = h;
            n++;
        }
        if (!oom) {
            svg_raw(r->b, "<div class=\"figs\">\n");
            static const double zero[] = {0};
            static const char *const zl[] = {"Elo 0"};
            char caption[300];
            snprintf(caption, sizeof caption,
                     "Elo of A against B in each match with its 95%% interval (pentanomial when there are pairs).%s",
                     left ? " Matches with an infinite Elo (a 0% or 100% score) are left out." : "");
            SvgSeries s = {.name = "Elo", .y = y, .lo = lo, .hi = hi, .len = n, .points_only = true};
            SvgPlot p = {.id = "matches-elo", .title = "Elo of every match", .caption = caption, .x_label = "match",
                         .y_label = "Elo (A − B)", .x_labels = (const char *const *)labels, .x_labels_len = n,
                         .y_refs = zero, .y_ref_labels = zl, .y_refs_len = 1};
            char serr[SVG_ERR_MAX];
            if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) plot_failed(r, serr);
            svg_raw(r->b, "</div>\n");
        }
        for (int i = 0; labels && i < n; i++) free(labels[i]);
        free(labels), free(y), free(lo), free(hi);
    }
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    for (int i = t.len - 1; !oom && rc == 0 && i >= first; i--) {
        int64_t id = cell(&t, i, M_ID)->i;
        svg_raw(r->b, "<h3>Match %lld: #%lld ", (long long)id, (long long)cell(&t, i, M_A)->i);
        svg_text(r->b, str(&t, i, M_NAME_A));
        svg_raw(r->b, " vs #%lld ", (long long)cell(&t, i, M_B)->i);
        svg_text(r->b, str(&t, i, M_NAME_B));
        svg_raw(r->b, "</h3><div class=\"figs\">\n");
        char fid[64], title[96], caption[300];
        static const char *const wdl[] = {"A wins", "draws", "A losses"};
        const char *const wdl_colors[] = {"#009e73", COLOR_DRAW, COLOR_LOSS};
        double v[5] = {(double)cell(&t, i, M_W)->i, (double)cell(&t, i, M_D)->i, (double)cell(&t, i, M_L)->i};
        snprintf(fid, sizeof fid, "match-%lld-wdl", (long long)id);
        snprintf(title, sizeof title, "Results, match %lld", (long long)id);
        snprintf(caption, sizeof caption, "The %lld games of match %lld from A's view.",
                 (long long)cell(&t, i, M_GAMES)->i, (long long)id);
        SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "result", .y_label = "games"};
        SvgBars bars = {.labels = wdl, .values = v, .colors = wdl_colors, .len = 3};
        char serr[SVG_ERR_MAX];
        if (svg_bar_chart(r->b, &p, &bars, serr) != 0) plot_failed(r, serr);
        static const char *const penta[] = {"0", "½", "1", "1½", "2"};
        for (int k = 0; k < 5; k++) v[k] = (double)cell(&t, i, M_P0 + k)->i;
        snprintf(fid, sizeof fid, "match-%lld-penta", (long long)id);
        snprintf(title, sizeof title, "Game pairs, match %lld", (long long)id);
        snprintf(caption, sizeof caption,
                 "Pentanomial counts: the game pairs (one opening, both colours) by A's points in the pair, 0 to 2; "
                 "Elo %.1f [%.1f, %.1f].",
                 cell(&t, i, M_ELO)->r, cell(&t, i, M_LO)->r, cell(&t, i, M_HI)->r);
        SvgPlot pp = {.id = fid, .title = title, .caption = caption, .x_label = "A's points in the pair",
                      .y_label = "game pairs"};
        SvgBars pb = {.labels = penta, .values = v, .len = 5};
        if (svg_bar_chart(r->b, &pp, &pb, serr) != 0) plot_failed(r, serr);
        rc = llr_plot(r, &t, i);
        svg_raw(r->b, "</div>\n");
    }
    section_close(r);
    rows_free(&t);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : rc;
}

/* ---- tournaments -------------------------------------------------------------------- */

static const char SQL_TOURNAMENTS[] =
    "SELECT t.id, t.run_id, t.name, t.format, t.rounds, t.games_total, r.game, r.status, t.created, "
    "(SELECT count(*) FROM games g WHERE g.run_id = t.run_id AND g.result IS NOT NULL) "
    "FROM tournaments t JOIN runs r ON r.id = t.run_id WHERE (?1 IS NULL OR r.game = ?1) ORDER BY t.id";
static const char SQL_PARTICIPANTS[] =
    "SELECT id, idx, name, kind, spec, limits, weight_set FROM participants WHERE tournament_id = ?2 ORDER BY idx";
static const char SQL_TOURNAMENT_GAMES[] =
    "SELECT g.white_player, g.black_player, g.result FROM games g JOIN tournaments t ON t.run_id = g.run_id "
    "WHERE t.id = ?2 AND g.result IS NOT NULL AND g.white_player IS NOT NULL AND g.black_player IS NOT NULL "
    "ORDER BY g.id";

static int tournament(R *r, const Rows *t, int i)
{
    int64_t tid = cell(t, i, 0)->i;
    Rows pl, g;
    if (q(r, &pl, 7, SQL_PARTICIPANTS, tid) != 0) return -1;
    if (q(r, &g, 3, SQL_TOURNAMENT_GAMES, tid) != 0) {
        rows_free(&pl);
        return -1;
    }
    int np = pl.len;
    svg_raw(r->b, "<h3>Tournament %lld", (long long)tid);
    if (str(t, i, 2)[0]) {
        svg_raw(r->b, ": ");
        svg_text(r->b, str(t, i, 2));
    }
    svg_raw(r->b, " (");
    svg_text(r->b, str(t, i, 6));
    svg_raw(r->b, ", ");
    svg_text(r->b, str(t, i, 3));
    svg_raw(r->b, ", %lld rounds, %lld of %lld games finished)</h3>\n", (long long)cell(t, i, 4)->i,
            (long long)cell(t, i, 9)->i, (long long)cell(t, i, 5)->i);
    double *pts = calloc((size_t)np * (size_t)np + 1, sizeof *pts);
    int64_t *games = calloc((size_t)np * (size_t)np + 1, sizeof *games);
    RatingsGame *rg = malloc(sizeof *rg * ((size_t)g.len + 1));
    int *ratings_index = malloc(sizeof *ratings_index * ((size_t)np + 1));
    Cells c = {0};
    bool oom = !pts || !games || !rg || !ratings_index;
    int64_t ng = 0;
    for (int k = 0; !oom && k < g.len; k++) {
        int w = -1, b = -1;
        for (int j = 0; j < np; j++) {
            if (cell(&pl, j, 0)->i == cell(&g, k, 0)->i) w = j;
            if (cell(&pl, j, 0)->i == cell(&g, k, 1)->i) b = j;
        }
        const char *res = str(&g, k, 2);
        int half = strcmp(res, "1-0") == 0 ? 2 : strcmp(res, "0-1") == 0 ? 0 : strcmp(res, "1/2-1/2") == 0 ? 1 : -1;
        if (w < 0 || b < 0 || w == b || half < 0) continue;
        pts[w * np + b] += half / 2.0;
        pts[b * np + w] += (2 - half) / 2.0;
        games[w * np + b]++;
        games[b * np + w]++;
        rg[ng++] = (RatingsGame){.white = w, .black = b, .white_half = half};
    }
    /* Crosstable: points of the row against the column (games). */
    const char **head = calloc((size_t)np + 4, sizeof *head);
    oom = oom || !head;
    if (!oom && np > 0) {
        head[0] = "#";
        head[1] = "player";
        for (int j = 0; j < np; j++) head[2 + j] = str(&pl, j, 2);
        head[np + 2] = "points";
        head[np + 3] = "games";
        for (int a = 0; a < np; a++) {
            double total = 0;
            int64_t tg = 0;
            add(&c, "%d", a + 1);
            add(&c, "%s", str(&pl, a, 2));
            for (int b = 0; b < np; b++) {
                if (a == b) add(&c, "·");
                else if (games[a * np + b] == 0) add(&c, "–");
                else add(&c, "%g/%lld", pts[a * np + b], (long long)games[a * np + b]);
                total += pts[a * np + b];
                tg += games[a * np + b];
            }
            add(&c, "%g", total);
            add(&c, "%lld", (long long)tg);
        }
        svg_raw(r->b, "<div id=\"tournament-%lld-crosstable\">", (long long)tid);
        table(r, "crosstable", "Crosstable: points of each row against each column (points/games)", head, np + 4, &c);
        svg_raw(r->b, "</div>\n");
    }
    cells_free(&c);
    /* Ratings of the players with games, fitted together (dama ratings'
     * defaults: mean 0, White's advantage fitted, prior 2). */
    int nr = 0;
    for (int a = 0; !oom && a < np; a++) {
        int64_t tg = 0;
        for (int b = 0; b < np; b++) tg += games[a * np + b];
        ratings_index[a] = tg > 0 && nr < RATINGS_PLAYERS_MAX ? nr++ : -1;
    }
    for (int64_t k = 0; !oom && k < ng; k++) {
        rg[k].white = ratings_index[rg[k].white];
        rg[k].black = ratings_index[rg[k].black];
    }
    int64_t kept = 0;
    for (int64_t k = 0; !oom && k < ng; k++)
        if (rg[k].white >= 0 && rg[k].black >= 0) rg[kept++] = rg[k];
    if (!oom && nr >= 2) {
        RatingsOptions opt;
        ratings_options_default(&opt);
        opt.prior = 2;
        const char *rnames[RATINGS_PLAYERS_MAX];
        for (int a = 0; a < np; a++)
            if (ratings_index[a] >= 0) rnames[ratings_index[a]] = str(&pl, a, 2);
        opt.names = rnames;
        RatingsFit *fit = malloc(sizeof *fit);
        char rerr[RATINGS_ERR_MAX];
        if (!fit) oom = true;
        else if (ratings_fit(nr, rg, kept, &opt, fit, rerr) != 0) {
            char msg[RATINGS_ERR_MAX + 40];
            snprintf(msg, sizeof msg, "Ratings not fitted: %s.", rerr);
            p_text(r, "none", msg);
        } else {
            /* best first */
            int order[RATINGS_PLAYERS_MAX], who[RATINGS_PLAYERS_MAX];
            for (int a = 0; a < np; a++)
                if (ratings_index[a] >= 0) who[ratings_index[a]] = a;
            for (int k = 0; k < nr; k++) order[k] = k;
            for (int k = 1; k < nr; k++)
                for (int m = k; m > 0 && fit->elo[order[m]] > fit->elo[order[m - 1]]; m--) {
                    int tmp = order[m];
                    order[m] = order[m - 1];
                    order[m - 1] = tmp;
                }
            static const char *const rhead[] = {"rank", "player", "Elo", "±", "95% interval", "games", "score"};
            double y[RATINGS_PLAYERS_MAX], lo[RATINGS_PLAYERS_MAX], hi[RATINGS_PLAYERS_MAX];
            const char *labels[RATINGS_PLAYERS_MAX];
            int n = 0;
            for (int k = 0; k < nr; k++) {
                int x = order[k];
                add(&c, "%d", k + 1);
                add(&c, "%s", str(&pl, who[x], 2));
                add(&c, "%.1f", fit->elo[x]);
                add(&c, "%.1f", fit->error[x]);
                add(&c, "[%.1f, %.1f]", fit->lower[x], fit->upper[x]);
                add(&c, "%lld", (long long)fit->games[x]);
                add(&c, "%.1f%%", fit->games[x] ? 100.0 * fit->score[x] / (double)fit->games[x] : 0.0);
                if (isfinite(fit->elo[x]) && isfinite(fit->lower[x]) && isfinite(fit->upper[x])) {
                    labels[n] = str(&pl, who[x], 2);
                    y[n] = fit->elo[x], lo[n] = fit->lower[x], hi[n] = fit->upper[x];
                    n++;
                }
            }
            char caption[400], fid[64], title[96];
            snprintf(caption, sizeof caption,
                     "Ratings fitted to all %lld games together (maximum likelihood, BayesElo's draw model, mean 0, "
                     "White's advantage %.1f Elo, prior 2 virtual games per pair, as dama ratings), 95%% intervals; "
                     "best first.",
                     (long long)kept, fit->advantage);
            svg_raw(r->b, "<div id=\"tournament-%lld-ratings-table\">", (long long)tid);
            table(r, "ratings", "Ratings", rhead, 7, &c);
            svg_raw(r->b, "</div><div class=\"figs\">\n");
            snprintf(fid, sizeof fid, "tournament-%lld-ratings", (long long)tid);
            snprintf(title, sizeof title, "Ratings, tournament %lld", (long long)tid);
            SvgSeries s = {.name = "Elo", .y = y, .lo = lo, .hi = hi, .len = n, .points_only = true};
            SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "player", .y_label = "Elo",
                         .x_labels = labels, .x_labels_len = n};
            char serr[SVG_ERR_MAX];
            if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) plot_failed(r, serr);
            svg_raw(r->b, "</div>\n");
            cells_free(&c);
        }
        free(fit);
    } else if (!oom) p_text(r, "none", "Fewer than two players have finished games: no ratings yet.");
    oom = oom || c.oom;
    cells_free(&c);
    free(head), free(pts), free(games), free(rg), free(ratings_index);
    rows_free(&pl);
    rows_free(&g);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : 0;
}

static int section_tournaments(R *r)
{
    section_open(r, "tournaments", "Tournaments",
                 "Each dama tournament: the crosstable (points of each row against each column) and the ratings of "
                 "all players fitted together with 95% intervals.");
    bool exists;
    if (db_has_column(r->db, "tournaments", NULL, &exists, r->err) != 0) return -1;
    if (!exists) {
        p_text(r, "none", "No tournaments table in this database (schema before version 5): no tournaments.");
        section_close(r);
        return 0;
    }
    Rows t;
    if (q(r, &t, 10, SQL_TOURNAMENTS, 0) != 0) return -1;
    if (t.len == 0) p_text(r, "none", "No tournaments in this database.");
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    int rc = 0;
    for (int i = t.len - 1; rc == 0 && i >= first; i--) rc = tournament(r, &t, i);
    section_close(r);
    rows_free(&t);
    return rc;
}

/* ---- generations ---------------------------------------------------------------------- */

/* The columns of the generations table (schema 6, `dama train`) that the
 * section reads; a database whose table lacks one says so. */
static const char *const GEN_COLUMNS[] = {"train_id",    "generation",   "stage",         "parent_generation",
                                          "candidate_ws", "tuning_run",  "gate_match",    "gate_elo",
                                          "gate_elo_lo",  "gate_elo_hi", "gate_games",    "accepted",
                                          "reason",       "ladder_match", "ladder_elo",   "ladder_elo_lo",
                                          "ladder_elo_hi", "ladder_games", "game"};
enum {
    G_TRAIN, G_GEN, G_STAGE, G_PARENT, G_CAND, G_TUNING, G_GATE, G_GATE_ELO, G_GATE_LO, G_GATE_HI, G_GATE_GAMES,
    G_ACCEPTED, G_REASON, G_LADDER, G_LADDER_ELO, G_LADDER_LO, G_LADDER_HI, G_LADDER_GAMES, G_GAME, G_COLS
};
_Static_assert(sizeof GEN_COLUMNS / sizeof GEN_COLUMNS[0] == G_COLS, "one name per generations column");

static const char SQL_GENERATIONS[] =
    "SELECT train_id, generation, stage, parent_generation, candidate_ws, tuning_run, gate_match, gate_elo, "
    "gate_elo_lo, gate_elo_hi, gate_games, accepted, reason, ladder_match, ladder_elo, ladder_elo_lo, ladder_elo_hi, "
    "ladder_games, game FROM generations WHERE (?1 IS NULL OR game = ?1) ORDER BY train_id, generation";

/* The ladder of one train: the Elo of every accepted generation against
 * generation 0 with its 95% interval; and the gate Elo of every
 * generation that played its gate. */
static int ladder_plots(R *r, const Rows *t, int from, int to)
{
    int64_t train = cell(t, from, G_TRAIN)->i;
    int len = to - from;
    double *y = malloc(sizeof *y * ((size_t)len * 6 + 1));
    char **labels = calloc((size_t)len * 2 + 1, sizeof *labels);
    if (!y || !labels) {
        free(y), free(labels);
        snprintf(r->err, ERR_MAX, "out of memory");
        return -1;
    }
    double *ly = y, *llo = y + len, *lhi = y + 2 * len, *gy = y + 3 * len, *glo = y + 4 * len, *ghi = y + 5 * len;
    char **ll = labels, **gl = labels + len;
    int nl = 0, ng = 0;
    bool oom = false;
    for (int i = from; i < to && !oom; i++) {
        int64_t gen = cell(t, i, G_GEN)->i;
        double e = cell(t, i, G_LADDER_ELO)->r, lo = cell(t, i, G_LADDER_LO)->r, hi = cell(t, i, G_LADDER_HI)->r;
        if (gen == 0 && isfinite(e) && (!isfinite(lo) || !isfinite(hi))) lo = hi = e; /* the ladder's origin */
        if (cell(t, i, G_ACCEPTED)->i == 1 && isfinite(e) && isfinite(lo) && isfinite(hi)) {
            if (asprintf(&ll[nl], "gen %lld", (long long)gen) < 0) ll[nl] = NULL, oom = true;
            else ly[nl] = e, llo[nl] = lo, lhi[nl] = hi, nl++;
        }
        e = cell(t, i, G_GATE_ELO)->r, lo = cell(t, i, G_GATE_LO)->r, hi = cell(t, i, G_GATE_HI)->r;
        if (!oom && isfinite(e) && isfinite(lo) && isfinite(hi)) {
            if (asprintf(&gl[ng], "gen %lld%s", (long long)gen, cell(t, i, G_ACCEPTED)->i == 1 ? " ✓" : "") < 0)
                gl[ng] = NULL, oom = true;
            else gy[ng] = e, glo[ng] = lo, ghi[ng] = hi, ng++;
        }
    }
    if (!oom) {
        static const double zero[] = {0};
        static const char *const zl[] = {"generation 0"};
        char fid[64], title[96], caption[400];
        snprintf(fid, sizeof fid, "train-%lld-ladder", (long long)train);
        snprintf(title, sizeof title, "Elo ladder, train %lld", (long long)train);
        snprintf(caption, sizeof caption,
                 "Elo of each accepted generation against generation 0 (its ladder match, paired openings) with the "
                 "95%% interval; generation 0 is the origin.");
        svg_raw(r->b, "<div class=\"figs\">\n");
        SvgSeries s = {.name = "Elo vs generation 0", .y = ly, .lo = llo, .hi = lhi, .len = nl};
        SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "generation",
                     .y_label = "Elo vs generation 0", .x_labels = (const char *const *)ll, .x_labels_len = nl,
                     .y_refs = zero, .y_ref_labels = zl, .y_refs_len = 1};
        char serr[SVG_ERR_MAX];
        if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) plot_failed(r, serr);
        static const char *const gz[] = {"no change"};
        snprintf(fid, sizeof fid, "train-%lld-gates", (long long)train);
        snprintf(title, sizeof title, "Gate matches, train %lld", (long long)train);
        snprintf(caption, sizeof caption,
                 "Elo of each generation's candidate against the best weights before it (the gate match, SPRT) with "
                 "the 95%% interval; ✓: accepted.");
        SvgSeries gs = {.name = "gate Elo", .y = gy, .lo = glo, .hi = ghi, .len = ng, .points_only = true};
        SvgPlot gp = {.id = fid, .title = title, .caption = caption, .x_label = "generation",
                      .y_label = "Elo vs the parent", .x_labels = (const char *const *)gl, .x_labels_len = ng,
                      .y_refs = zero, .y_ref_labels = gz, .y_refs_len = 1};
        if (svg_line_plot(r->b, &gp, &gs, 1, serr) != 0) plot_failed(r, serr);
        svg_raw(r->b, "</div>\n");
    }
    for (int i = 0; i < 2 * len; i++) free(labels[i]);
    free(labels), free(y);
    if (oom) snprintf(r->err, ERR_MAX, "out of memory");
    return oom ? -1 : 0;
}

static int section_generations(R *r)
{
    section_open(r, "generations", "Generations",
                 "The gated generations of dama train: each candidate tuned from the best weights so far, its gate "
                 "match against them (only a candidate that passes becomes the best), and the Elo ladder of the "
                 "accepted generations against generation 0.");
    bool exists;
    if (db_has_column(r->db, "generations", NULL, &exists, r->err) != 0) return -1;
    if (!exists) {
        p_text(r, "none", "No generations table in this database: no generations.");
        section_close(r);
        return 0;
    }
    for (int k = 0; k < G_COLS; k++) {
        if (db_has_column(r->db, "generations", GEN_COLUMNS[k], &exists, r->err) != 0) return -1;
        if (!exists) {
            char msg[160];
            snprintf(msg, sizeof msg, "The generations table of this database has no column %s: not shown.",
                     GEN_COLUMNS[k]);
            p_text(r, "none", msg);
            section_close(r);
            return 0;
        }
    }
    Rows t;
    if (q(r, &t, G_COLS, SQL_GENERATIONS, 0) != 0) return -1;
    if (t.len == 0) p_text(r, "none", "No generations in this database.");
    static const char *const head[] = {"train", "generation", "from", "stage", "candidate", "tuning run",
                                       "gate match", "gate Elo", "95% interval", "accepted", "why",
                                       "ladder Elo vs gen 0", "95% interval", "ladder games"};
    int rc = 0;
    for (int from = 0; rc == 0 && from < t.len;) {
        int to = from;
        while (to < t.len && cell(&t, to, G_TRAIN)->i == cell(&t, from, G_TRAIN)->i) to++;
        svg_raw(r->b, "<h3>Train %lld (", (long long)cell(&t, from, G_TRAIN)->i);
        svg_text(r->b, str(&t, from, G_GAME));
        svg_raw(r->b, ")</h3>\n");
        Cells c = {0};
        for (int i = from; i < to; i++) {
            add(&c, "%lld", (long long)cell(&t, i, G_TRAIN)->i);
            add(&c, "%lld", (long long)cell(&t, i, G_GEN)->i);
            add(&c, "%s", str(&t, i, G_PARENT));
            add(&c, "%s", str(&t, i, G_STAGE));
            add(&c, "%s", str(&t, i, G_CAND));
            add(&c, "%s", str(&t, i, G_TUNING));
            add(&c, "%s", str(&t, i, G_GATE));
            add_real(&c, cell(&t, i, G_GATE_ELO)->r, 1);
            if (cell(&t, i, G_GATE_LO)->null) add(&c, "–");
            else add(&c, "[%.1f, %.1f]", cell(&t, i, G_GATE_LO)->r, cell(&t, i, G_GATE_HI)->r);
            add(&c, "%s", cell(&t, i, G_ACCEPTED)->null ? "–" : cell(&t, i, G_ACCEPTED)->i ? "yes" : "no");
            add(&c, "%s", str(&t, i, G_REASON));
            add_real(&c, cell(&t, i, G_LADDER_ELO)->r, 1);
            if (cell(&t, i, G_LADDER_LO)->null) add(&c, "–");
            else add(&c, "[%.1f, %.1f]", cell(&t, i, G_LADDER_LO)->r, cell(&t, i, G_LADDER_HI)->r);
            add(&c, "%s", str(&t, i, G_LADDER_GAMES));
        }
        svg_raw(r->b, "<div id=\"train-%lld-table\">", (long long)cell(&t, from, G_TRAIN)->i);
        table(r, "generations", NULL, head, 14, &c);
        svg_raw(r->b, "</div>\n");
        bool oom = c.oom;
        cells_free(&c);
        if (oom) {
            snprintf(r->err, ERR_MAX, "out of memory");
            rc = -1;
        } else rc = ladder_plots(r, &t, from, to);
        from = to;
    }
    section_close(r);
    rows_free(&t);
    return rc;
}

/* ---- the page ---------------------------------------------------------------------------- */

static const char CSS[] =
    ":root{color-scheme:light}"
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:0;color:#1a1a1a;"
    "background:#fafafa}"
    "header,main,footer{max-width:1180px;margin:0 auto;padding:0 16px}"
    "h1{font-size:1.6em;margin:16px 0 4px}h2{font-size:1.3em;border-bottom:2px solid #0072b2;padding-bottom:2px;"
    "margin-top:32px}h3{font-size:1.05em;margin:20px 0 6px}"
    "nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:6px 16px}nav a{color:#0050a0}"
    "p.what{color:#444;margin:4px 0 10px}p.none{color:#666;font-style:italic}p.note{color:#666;font-size:.9em}"
    ".figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,420px),1fr));gap:12px}"
    "figure{margin:0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:6px;min-width:0}"
    "figure.wide{margin:10px 0}"
    "figure svg{display:block;width:100%;height:auto}"
    "figure .scroll{overflow-x:auto}figure .scroll svg{width:auto;max-width:none}"
    "figcaption{font-size:.85em;color:#444;padding:4px 4px 0}"
    "svg text{font-family:inherit;font-size:12px;fill:#222}svg .ptitle{font-size:14px;font-weight:600}"
    "svg .alabel{font-size:12px;fill:#444}svg .grid{stroke:#e4e4e4}svg .frame,svg .tick{stroke:#555}"
    "svg .ref{stroke:#888;stroke-dasharray:5 4}svg .reflabel{fill:#666;font-size:11px}"
    "svg .line{stroke-width:2}svg .err{stroke-width:1.5}svg .value{font-size:11px;fill:#333}"
    "svg .nodata{fill:#888;font-size:16px}svg .bg{fill:#fff}"
    "svg .node rect{fill:#eef5fb;stroke:#0072b2}svg .node .note{font-size:10px;fill:#555}"
    "svg .edge{stroke:#888;stroke-width:1.5}svg .elabel{font-size:10px;fill:#666}"
    ".table{overflow-x:auto;margin:8px 0}table{border-collapse:collapse;background:#fff;font-size:.9em}"
    "caption{text-align:left;font-weight:600;padding:4px 0}"
    "th,td{border:1px solid #ddd;padding:3px 7px;white-space:nowrap}th{background:#f0f0f0}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}"
    "footer{color:#777;font-size:.85em;padding:24px 16px}"
    "@media (max-width:600px){body{font-size:14px}h1{font-size:1.3em}.figs{grid-template-columns:1fr}"
    "svg text{font-size:14px}svg .ptitle{font-size:16px}svg .value,svg .reflabel{font-size:12px}}";

static const struct {
    const char *id, *title;
} SECTIONS[] = {{"selfplay", "Self-play runs"}, {"tuning", "Tuning runs"}, {"weights", "Weight sets"},
                {"matches", "Matches"},         {"tournaments", "Tournaments"}, {"generations", "Generations"}};

int report_html(Db *db, const ReportOptions *o, SvgBuf *out, char err[ERR_MAX])
{
    R r = {.db = db, .o = o, .b = out, .err = err};
    err[0] = '\0';
    int64_t version = 0;
    if (db_schema_version(db, &version, err) != 0) return -1;
    svg_raw(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
                 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
                 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
                 "img-src data:\"/>");
    if (o->refresh_s > 0) svg_raw(out, "<meta http-equiv=\"refresh\" content=\"%d\"/>", o->refresh_s);
    svg_raw(out, "<title>dama report: ");
    svg_text(out, o->db_label);
    svg_raw(out, "</title><style>%s</style></head>\n<body><header><h1>dama report</h1><p class=\"what\">Database <code>",
            CSS);
    svg_text(out, o->db_label);
    svg_raw(out, "</code>, schema version %lld", (long long)version);
    if (o->game) {
        svg_raw(out, ", game ");
        svg_text(out, o->game);
    }
    if (o->generated) {
        svg_raw(out, ", generated ");
        svg_text(out, o->generated);
    }
    if (o->refresh_s > 0) svg_raw(out, ", rewritten every %d s", o->refresh_s);
    svg_raw(out, ".</p><nav><ul>");
    for (size_t i = 0; i < sizeof SECTIONS / sizeof SECTIONS[0]; i++)
        svg_raw(out, "<li><a href=\"#%s\">%s</a></li>", SECTIONS[i].id, SECTIONS[i].title);
    svg_raw(out, "</ul></nav></header>\n<main>\n");
    int rc = section_selfplay(&r);
    if (rc == 0) rc = section_tuning(&r);
    if (rc == 0) rc = section_weights(&r);
    if (rc == 0) rc = section_matches(&r);
    if (rc == 0) rc = section_tournaments(&r);
    if (rc == 0) rc = section_generations(&r);
    svg_raw(out, "</main>\n<footer>Written by dama report from the database alone: no script, no network.</footer>"
                 "</body></html>\n");
    if (rc == 0 && out->oom) {
        snprintf(err, ERR_MAX, "out of memory writing the page");
        rc = -1;
    }
    return rc;
}
