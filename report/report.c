/* report.c — `dama report`'s page (see report.h): its head, navigation and
 * style, the writers the sections share (report_internal.h), and the
 * self-play and tuning sections. Each section is one function: it reads
 * its rows (db/db_report.h), then writes a table and its plots. */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include "report/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "util/num.h"

/* ---- formatting ---------------------------------------------------------------- */

void cells_add(Cells *c, const char *fmt, ...)
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

void cells_free(Cells *c)
{
    for (int i = 0; i < c->len; i++) free(c->s[i]);
    free(c->s);
    *c = (Cells){0};
}

void cells_add_real(Cells *c, double v, int d)
{
    if (isnan(v)) cells_add(c, "–");
    else if (isinf(v)) cells_add(c, "%s", v > 0 ? "+inf" : "-inf");
    else cells_add(c, "%.*f", d, num_shown(v, d)); /* never "-0.0" */
}

void report_table(Report *r, const char *cls, const char *caption, const char *const *header, int cols, Cells *c)
{
    if (c->len % cols != 0) c->oom = true; /* a programming error: never a ragged table */
    svg_table(r->b, cls, caption, header, cols, (const char *const *)c->s, c->len / cols);
}

void report_p(Report *r, const char *cls, const char *text)
{
    svg_raw(r->b, "<p class=\"%s\">", cls);
    svg_text(r->b, text);
    svg_raw(r->b, "</p>\n");
}

void report_section_open(Report *r, const char *id, const char *title, const char *what)
{
    svg_raw(r->b, "<section id=\"%s\"><h2>", id);
    svg_text(r->b, title);
    svg_raw(r->b, "</h2>\n");
    if (what) report_p(r, "what", what);
}

void report_section_close(Report *r)
{
    svg_raw(r->b, "</section>\n");
}

void report_plot_failed(Report *r, const char *serr)
{
    char msg[SVG_ERR_MAX + 32];
    snprintf(msg, sizeof msg, "plot not drawn: %s", serr);
    report_p(r, "none", msg);
}

int report_oom(Report *r)
{
    snprintf(r->err, ERR_MAX, "out of memory");
    return -1;
}

/* ---- self-play runs ------------------------------------------------------------- */

/* How the games of a run (or tournament) ended: one bar per reason. */
static int reasons_plot(Report *r, int64_t run_id, const char *id, const char *what)
{
    DbEndReasons t;
    if (db_report_end_reasons(r->db, run_id, &t, r->err) != 0) return -1;
    const char **labels = calloc((size_t)t.len + 1, sizeof *labels);
    const char **colors = calloc((size_t)t.len + 1, sizeof *colors);
    double *v = calloc((size_t)t.len + 1, sizeof *v);
    if (!labels || !colors || !v) {
        free(labels), free(colors), free(v), db_report_free(t.mem);
        return report_oom(r);
    }
    for (int i = 0; i < t.len; i++) {
        const DbEndReason *e = &t.rows[i];
        labels[i] = report_str(e->reason);
        v[i] = (double)e->games;
        colors[i] = e->draws == e->games ? REPORT_COLOR_DRAW : e->draws == 0 ? REPORT_COLOR_WIN : REPORT_COLOR_MIXED;
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
    if (svg_bar_chart(r->b, &p, &bars, serr) != 0) report_plot_failed(r, serr);
    free(labels), free(colors), free(v), db_report_free(t.mem);
    return 0;
}

/* Game lengths: bins of a nice width (1, 2, 5 x 10^k plies), about 15 of them. */
static int plies_histogram(Report *r, int64_t run_id, const char *id, const char *what)
{
    DbPlies t;
    if (db_report_game_plies(r->db, run_id, &t, r->err) != 0) return -1;
    int64_t max = 0;
    for (int i = 0; i < t.len; i++)
        if (t.rows[i] > max) max = t.rows[i];
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
        int64_t pl = t.rows[i];
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
        if (svg_bar_chart(r->b, &p, &bars, serr) != 0) report_plot_failed(r, serr);
    }
    for (int k = 0; labels && k < nb; k++) free(labels[k]);
    free(labels), free(v), db_report_free(t.mem);
    return oom ? report_oom(r) : 0;
}

/* The plots of one self-play run: results, end reasons, game lengths. */
static int selfplay_plots(Report *r, const DbSelfplayRun *run)
{
    svg_raw(r->b, "<h3>Run %lld (", (long long)run->id);
    svg_text(r->b, report_str(run->game));
    svg_raw(r->b, ")</h3><div class=\"figs\">\n");
    char what[64], fid[64];
    snprintf(what, sizeof what, "run %lld", (long long)run->id);
    static const char *const labels[] = {"White wins", "draws", "Black wins"};
    const char *const colors[] = {REPORT_COLOR_WIN, REPORT_COLOR_DRAW, REPORT_COLOR_LOSS};
    double v[3] = {(double)run->white_wins, (double)run->draws, (double)run->black_wins};
    char title[96], caption[200];
    snprintf(title, sizeof title, "Results, %s", what);
    snprintf(caption, sizeof caption, "Results of the %lld games of %s, from White's view.", (long long)run->games,
             what);
    snprintf(fid, sizeof fid, "selfplay-%lld-results", (long long)run->id);
    SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "result", .y_label = "games"};
    SvgBars bars = {.labels = labels, .values = v, .colors = colors, .len = 3};
    char serr[SVG_ERR_MAX];
    if (svg_bar_chart(r->b, &p, &bars, serr) != 0) report_plot_failed(r, serr);
    snprintf(fid, sizeof fid, "selfplay-%lld-reasons", (long long)run->id);
    int rc = reasons_plot(r, run->id, fid, what);
    snprintf(fid, sizeof fid, "selfplay-%lld-plies", (long long)run->id);
    if (rc == 0) rc = plies_histogram(r, run->id, fid, what);
    svg_raw(r->b, "</div>\n");
    return rc;
}

int report_section_selfplay(Report *r)
{
    DbSelfplayRuns t;
    if (db_report_selfplay_runs(r->db, r->o->game, &t, r->err) != 0) return -1;
    report_section_open(r, "selfplay", "Self-play runs",
                        "Each dama selfplay run: its games and stored positions (quiet: no capture pending, the "
                        "tuner's data), the results from White's view, and how long the games were.");
    if (t.len == 0) report_p(r, "none", "No self-play runs in this database.");
    static const char *const head[] = {"run", "game", "status", "created", "games", "positions", "quiet positions",
                                       "White wins", "draws", "Black wins", "mean plies"};
    Cells c = {0};
    for (int i = 0; i < t.len; i++) {
        const DbSelfplayRun *run = &t.rows[i];
        cells_add(&c, "%lld", (long long)run->id);
        cells_add(&c, "%s", report_str(run->game));
        cells_add(&c, "%s", report_str(run->status));
        cells_add(&c, "%s", report_str(run->created));
        const int64_t counts[] = {run->games,      run->positions, run->quiet_positions,
                                  run->white_wins, run->draws,     run->black_wins};
        for (int k = 0; k < 6; k++) cells_add(&c, "%lld", (long long)counts[k]);
        cells_add_real(&c, run->mean_plies, 1);
    }
    if (t.len) report_table(r, "runs", NULL, head, 11, &c);
    bool oom = c.oom;
    cells_free(&c);
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    if (first > 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "Plots of the newest %d runs; the table lists all %d.", REPORT_RUNS_MAX, t.len);
        report_p(r, "note", msg);
    }
    int rc = 0;
    for (int i = t.len - 1; rc == 0 && i >= first; i--) rc = selfplay_plots(r, &t.rows[i]);
    report_section_close(r);
    db_report_free(t.mem);
    return oom ? report_oom(r) : rc;
}

/* ---- tuning runs ------------------------------------------------------------------ */

static int loss_plot(Report *r, const DbTuningRunRow *t)
{
    DbEpochs e;
    if (db_report_epochs(r->db, t->id, &e, r->err) != 0) return -1;
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
            double v = s ? e.rows[k].valid_loss : e.rows[k].train_loss;
            if (!isfinite(v)) {
                skipped += !isnan(v); /* NULL (no validation set) is not worth a note */
                continue;
            }
            x[s][n[s]] = (double)e.rows[k].epoch;
            y[s][n[s]++] = v;
        }
    if (!oom) {
        char fid[64], title[96], caption[600];
        snprintf(fid, sizeof fid, "tuning-%lld-loss", (long long)t->id);
        snprintf(title, sizeof title, "Loss per epoch, tuning run %lld", (long long)t->id);
        snprintf(caption, sizeof caption,
                 "Texel loss (mean squared error of the game result against the sigmoid of the evaluation) on the "
                 "training and the held-out validation positions after each epoch; K %.4f, %lld training and %lld "
                 "validation positions.%s",
                 t->k, (long long)t->positions_train, (long long)t->positions_valid,
                 skipped ? " Non-finite losses left out." : "");
        SvgSeries s[2] = {{.name = "training", .x = x[0], .y = y[0], .len = n[0]},
                          {.name = "validation", .x = x[1], .y = y[1], .len = n[1]}};
        SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "epoch",
                     .y_label = "loss (mean squared error)"};
        char serr[SVG_ERR_MAX];
        if (svg_line_plot(r->b, &p, s, 2, serr) != 0) report_plot_failed(r, serr);
    }
    for (int s = 0; s < 2; s++) free(x[s]), free(y[s]);
    db_report_free(e.mem);
    return oom ? report_oom(r) : 0;
}

int report_section_tuning(Report *r)
{
    DbTuningRunRows t;
    if (db_report_tuning_runs(r->db, r->o->game, &t, r->err) != 0) return -1;
    report_section_open(r, "tuning", "Tuning runs",
                        "Each dama tune: the sigmoid scale K fitted first, the positions used (training and held-out "
                        "validation), the final losses, which data it read, and the loss after every epoch.");
    if (t.len == 0) report_p(r, "none", "No tuning runs in this database.");
    static const char *const head[] = {"tuning run", "run", "game",       "status",     "from weight set",
                                       "result",     "K",   "train pos.", "valid pos.", "train loss",
                                       "valid loss", "data"};
    Cells c = {0};
    for (int i = 0; i < t.len; i++) {
        const DbTuningRunRow *u = &t.rows[i];
        char buf[24];
        cells_add(&c, "%lld", (long long)u->id);
        cells_add(&c, "%s", report_opt(buf, u->run_id));
        cells_add(&c, "%s", report_str(u->game));
        cells_add(&c, "%s", report_str(u->status));
        cells_add(&c, "%s", report_opt(buf, u->base_ws));
        /* none yet, or no weight changed */
        cells_add(&c, "%s", u->result_ws == DB_NULL_INT ? "–" : report_opt(buf, u->result_ws));
        cells_add_real(&c, u->k, 4);
        cells_add(&c, "%lld", (long long)u->positions_train);
        cells_add(&c, "%lld", (long long)u->positions_valid);
        cells_add_real(&c, u->train_loss, 6);
        cells_add_real(&c, u->valid_loss, 6);
        cells_add(&c, "%s", report_str(u->data));
    }
    if (t.len) report_table(r, "tuning", NULL, head, 12, &c);
    bool oom = c.oom;
    cells_free(&c);
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    if (t.len) svg_raw(r->b, "<div class=\"figs\">\n");
    int rc = 0;
    for (int i = t.len - 1; rc == 0 && i >= first; i--) rc = loss_plot(r, &t.rows[i]);
    if (t.len) svg_raw(r->b, "</div>\n");
    report_section_close(r);
    db_report_free(t.mem);
    return oom ? report_oom(r) : rc;
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
    int (*write)(Report *r);
} SECTIONS[] = {{"selfplay", "Self-play runs", report_section_selfplay},
                {"tuning", "Tuning runs", report_section_tuning},
                {"weights", "Weight sets", report_section_weights},
                {"matches", "Matches", report_section_matches},
                {"tournaments", "Tournaments", report_section_tournaments},
                {"generations", "Generations", report_section_generations}};

int report_html(Db *db, const ReportOptions *o, SvgBuf *out, char err[ERR_MAX])
{
    Report r = {.db = db, .o = o, .b = out, .err = err};
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
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof SECTIONS / sizeof SECTIONS[0]; i++) rc = SECTIONS[i].write(&r);
    svg_raw(out, "</main>\n<footer>Written by dama report from the database alone: no script, no network.</footer>"
                 "</body></html>\n");
    if (rc == 0 && out->oom) {
        snprintf(err, ERR_MAX, "out of memory writing the page");
        rc = -1;
    }
    return rc;
}
