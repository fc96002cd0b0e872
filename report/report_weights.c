/* report_weights.c — the weight-set sections of `dama report`'s page: the
 * lineage of every weight set with the piece values of each game, and the
 * gated generations of `dama train` (their gate matches and Elo ladder).
 * See report_internal.h. */
#define _GNU_SOURCE /* asprintf */
#include "report/report_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"

/* ---- weight sets ------------------------------------------------------------------- */

/* The main terms of a game: its scalar term groups before its first table
 * (the material values: man and king; the royal and major pieces and
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

/* The piece values of len weight sets (v[k * nt + j]: set k, term j, where
 * have says so) of the n of game g. */
typedef struct Pieces {
    const Game *g;
    const char *names[MAIN_TERMS_MAX];
    int nt, len, n;
    double *v;
    bool *have;
    char **labels; /* "#id" of each set */
} Pieces;

/* Plot the terms that changed (the scale weight and the values no set moved
 * are named in the caption instead). false when out of memory. */
static bool pieces_plot(Report *r, const Pieces *pc)
{
    const Game *g = pc->g;
    int nt = pc->nt, len = pc->len;
    SvgSeries s[MAIN_TERMS_MAX];
    double *ys = malloc(sizeof *ys * ((size_t)len * (size_t)nt + 1));
    if (!ys) return false;
    int ns = 0;
    char fixed[400] = "";
    size_t fl = 0;
    for (int j = 0; j < nt; j++) {
        bool all = true, changed = false;
        for (int k = 0; k < len; k++) {
            if (!pc->have[k * nt + j] || !isfinite(pc->v[k * nt + j])) all = false;
            else if (pc->v[k * nt + j] != pc->v[j]) changed = true;
        }
        if (!all) continue;
        if (!changed || g->terms[j].offset == g->scale_weight) {
            int w = snprintf(fixed + fl, sizeof fixed - fl, "%s%s %.0f", fl ? ", " : "", pc->names[j], pc->v[j]);
            if (w > 0 && (size_t)w < sizeof fixed - fl) fl += (size_t)w;
            continue;
        }
        for (int k = 0; k < len; k++) ys[ns * len + k] = pc->v[k * nt + j];
        s[ns] = (SvgSeries){.name = pc->names[j], .y = ys + ns * len, .len = len};
        ns++;
    }
    if (ns == 0) {
        char msg[500];
        snprintf(msg, sizeof msg, "No piece value differs between these weight sets (%s): nothing to plot.", fixed);
        report_p(r, "none", msg);
    } else {
        char fid[64], title[96], caption[700], y_label[96];
        snprintf(fid, sizeof fid, "pieces-%s", g->name);
        snprintf(title, sizeof title, "%s: piece values by weight set", g->title);
        snprintf(y_label, sizeof y_label, "value (%s)", g->value_unit ? g->value_unit : "centi-men");
        snprintf(caption, sizeof caption,
                 "Opening-phase values of the material terms in each weight set (compiled-in, tuned, SPSA, "
                 "generations; perturbed self-play members left out), oldest first%s%s%s.",
                 len < pc->n ? " (the newest 40)" : "", fl ? "; unchanged or the fixed scale: " : "", fixed);
        SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "weight set",
                     .y_label = y_label,
                     .x_labels = (const char *const *)pc->labels, .x_labels_len = len, .legend = true};
        char serr[SVG_ERR_MAX];
        svg_raw(r->b, "<div class=\"figs\">\n");
        if (svg_line_plot(r->b, &p, s, ns, serr) != 0) report_plot_failed(r, serr);
        svg_raw(r->b, "</div>\n");
    }
    free(ys);
    return true;
}

/* Piece values of every (not perturbed) weight set of one game: a table, and
 * a plot of those that changed. */
static int piece_values(Report *r, const DbWeightSetRows *t, const Game *g)
{
    Pieces pc = {.g = g};
    int nt = pc.nt = main_terms(g, pc.names, MAIN_TERMS_MAX);
    if (nt == 0) return 0;
    int *rows = malloc(sizeof *rows * ((size_t)t->len + 1));
    if (!rows) return report_oom(r);
    int n = 0;
    for (int i = 0; i < t->len; i++)
        if (strcmp(report_str(t->rows[i].game), g->name) == 0) rows[n++] = i;
    int first = n > PIECE_SETS_MAX ? n - PIECE_SETS_MAX : 0;
    int len = pc.len = n - first;
    pc.n = n;
    pc.v = malloc(sizeof *pc.v * ((size_t)len * (size_t)nt + 1));
    pc.have = malloc(sizeof *pc.have * ((size_t)len * (size_t)nt + 1));
    pc.labels = calloc((size_t)len + 1, sizeof *pc.labels);
    Cells c = {0};
    bool oom = !pc.v || !pc.have || !pc.labels;
    for (int k = 0; !oom && k < len; k++) {
        const DbWeightSetRow *ws = &t->rows[rows[first + k]];
        if (asprintf(&pc.labels[k], "#%lld", (long long)ws->id) < 0) {
            pc.labels[k] = NULL;
            oom = true;
            break;
        }
        cells_add(&c, "%lld", (long long)ws->id);
        cells_add(&c, "%s", report_str(ws->name));
        for (int j = 0; j < nt; j++) {
            pc.have[k * nt + j] = db_report_weight_value(ws, pc.names[j], &pc.v[k * nt + j]);
            if (pc.have[k * nt + j]) cells_add(&c, "%.0f", pc.v[k * nt + j]);
            else cells_add(&c, "–");
        }
    }
    if (!oom && len > 0) {
        svg_raw(r->b, "<h3>");
        svg_text(r->b, g->title);
        svg_raw(r->b, ": piece values</h3>\n");
        const char *head[MAIN_TERMS_MAX + 2] = {"weight set", "name"};
        for (int j = 0; j < nt; j++) head[2 + j] = pc.names[j];
        svg_raw(r->b, "<div id=\"pieces-%s-table\">", g->name);
        report_table(r, "pieces", NULL, head, nt + 2, &c);
        svg_raw(r->b, "</div>\n");
        oom = !pieces_plot(r, &pc);
    }
    oom = oom || c.oom;
    for (int k = 0; pc.labels && k < len; k++) free(pc.labels[k]);
    free(pc.labels), free(pc.v), free(pc.have), free(rows);
    cells_free(&c);
    return oom ? report_oom(r) : 0;
}

/* The lineage tree: every weight set under its parent, and the perturbed
 * members of each self-play run as one node per parent. */
static int lineage(Report *r, const DbWeightSetRows *t, const DbPerturbedGroups *pt)
{
    int len = t->len + pt->len;
    SvgTreeNode *nodes = calloc((size_t)len + 1, sizeof *nodes);
    char **texts = calloc((size_t)len * 4 + 1, sizeof *texts);
    bool oom = !nodes || !texts;
    int n = 0;
    for (int i = 0; !oom && i < t->len; i++) {
        const DbWeightSetRow *ws = &t->rows[i];
        int64_t parent = ws->parent_id;
        int pi = -1; /* node k < i is row k */
        for (int k = 0; parent && k < i; k++)
            if (t->rows[k].id == parent) pi = k;
        char parent_text[24];
        snprintf(parent_text, sizeof parent_text, "%lld", (long long)parent);
        char **tx = &texts[4 * n];
        if (asprintf(&tx[0], "%lld", (long long)ws->id) < 0 ||
            asprintf(&tx[1], "#%lld %s", (long long)ws->id, report_str(ws->name)) < 0 ||
            asprintf(&tx[2], "%s%s%s", report_str(ws->game), parent && pi < 0 ? ", parent " : "",
                     parent && pi < 0 ? parent_text : "") < 0 ||
            asprintf(&tx[3], "%s", report_str(ws->how)) < 0) {
            oom = true;
            break;
        }
        nodes[n] = (SvgTreeNode){.id = tx[0], .label = tx[1], .note = tx[2], .edge = pi >= 0 ? tx[3] : NULL,
                                 .parent = pi};
        n++;
    }
    /* The perturbed members, one node per parent, after their parent. */
    for (int i = 0; !oom && i < pt->len; i++) {
        const DbPerturbedGroup *grp = &pt->rows[i];
        int pi = -1;
        for (int k = 0; k < t->len && k < n; k++)
            if (grp->parent_id && t->rows[k].id == grp->parent_id) pi = k;
        char **tx = &texts[4 * n];
        if (asprintf(&tx[0], "p%lld", (long long)grp->parent_id) < 0 ||
            asprintf(&tx[1], "%lld perturbed", (long long)grp->count) < 0 ||
            asprintf(&tx[2], "#%lld–#%lld", (long long)grp->min_id, (long long)grp->max_id) < 0 ||
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
        if (svg_tree(r->b, &p, nodes, n, serr) != 0) report_plot_failed(r, serr);
        svg_raw(r->b, "</div>\n");
    }
    for (int i = 0; texts && i < 4 * len; i++) free(texts[i]);
    free(texts), free(nodes);
    return oom ? report_oom(r) : 0;
}

int report_section_weights(Report *r)
{
    DbWeightSetRows t;
    DbPerturbedGroups pt;
    if (db_report_weight_sets(r->db, r->o->game, &t, r->err) != 0) return -1;
    if (db_report_perturbed(r->db, r->o->game, &pt, r->err) != 0) {
        db_report_free(t.mem);
        return -1;
    }
    report_section_open(r, "weights", "Weight sets",
                        "Every evaluation weight set and where it came from (parent → child, labelled with how it "
                        "was made); the perturbed members of each self-play run are drawn as one node per parent.");
    if (t.len == 0 && pt.len == 0) report_p(r, "none", "No weight sets in this database.");
    int rc = lineage(r, &t, &pt);
    for (const Game *const *g = game_list(); rc == 0 && *g; g++)
        if (!r->o->game || strcmp(r->o->game, (*g)->name) == 0) rc = piece_values(r, &t, *g);
    report_section_close(r);
    db_report_free(t.mem);
    db_report_free(pt.mem);
    return rc;
}

/* ---- generations ---------------------------------------------------------------------- */

/* The ladder of one train: the Elo of every accepted generation against
 * generation 0 with its 95% interval; and the gate Elo of every
 * generation that played its gate. */
static int ladder_plots(Report *r, const DbGenerationRow *gens, int len)
{
    int64_t train = gens[0].train_id;
    double *y = malloc(sizeof *y * ((size_t)len * 6 + 1));
    char **labels = calloc((size_t)len * 2 + 1, sizeof *labels);
    if (!y || !labels) {
        free(y), free(labels);
        return report_oom(r);
    }
    double *ly = y, *llo = y + len, *lhi = y + 2 * len, *gy = y + 3 * len, *glo = y + 4 * len, *ghi = y + 5 * len;
    char **ll = labels, **gl = labels + len;
    int nl = 0, ng = 0;
    bool oom = false;
    for (int i = 0; i < len && !oom; i++) {
        const DbGenerationRow *g = &gens[i];
        double e = g->ladder_elo, lo = g->ladder_elo_lo, hi = g->ladder_elo_hi;
        if (g->generation == 0 && isfinite(e) && (!isfinite(lo) || !isfinite(hi))) lo = hi = e; /* the origin */
        if (g->accepted == 1 && isfinite(e) && isfinite(lo) && isfinite(hi)) {
            if (asprintf(&ll[nl], "gen %lld", (long long)g->generation) < 0) ll[nl] = NULL, oom = true;
            else ly[nl] = e, llo[nl] = lo, lhi[nl] = hi, nl++;
        }
        e = g->gate_elo, lo = g->gate_elo_lo, hi = g->gate_elo_hi;
        if (!oom && isfinite(e) && isfinite(lo) && isfinite(hi)) {
            if (asprintf(&gl[ng], "gen %lld%s", (long long)g->generation, g->accepted == 1 ? " ✓" : "") < 0)
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
        if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) report_plot_failed(r, serr);
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
        if (svg_line_plot(r->b, &gp, &gs, 1, serr) != 0) report_plot_failed(r, serr);
        svg_raw(r->b, "</div>\n");
    }
    for (int i = 0; i < 2 * len; i++) free(labels[i]);
    free(labels), free(y);
    return oom ? report_oom(r) : 0;
}

/* "[lo, hi]" with one decimal, "–" when lo is NULL. */
/* An Elo cell: at a score of 0% or 100% the estimate is infinite, said as
 * the match table says it (report_matches.c), never "inf". */
static void add_elo(Cells *c, double elo)
{
    if (isinf(elo)) cells_add(c, "not estimable (score %s)", elo > 0 ? "100%" : "0%");
    else cells_add_real(c, elo, 1);
}

static void add_interval(Cells *c, double lo, double hi)
{
    if (isnan(lo) || isnan(hi)) cells_add(c, "–");
    else if (isinf(lo) && isinf(hi)) cells_add(c, "not estimable");
    else if (isinf(hi)) cells_add(c, "> %.1f, upper end not estimable", lo);
    else if (isinf(lo)) cells_add(c, "< %.1f, lower end not estimable", hi);
    else cells_add(c, "[%.1f, %.1f]", lo, hi);
}

/* The table and plots of one train: its len generations. */
static int train_table(Report *r, const DbGenerationRow *gens, int len)
{
    static const char *const head[] = {"train", "generation", "from", "stage", "candidate", "tuning run",
                                       "gate match", "gate Elo", "95% interval", "accepted", "why",
                                       "ladder Elo vs gen 0", "95% interval", "ladder games"};
    svg_raw(r->b, "<h3>Train %lld (", (long long)gens[0].train_id);
    svg_text(r->b, report_str(gens[0].game));
    svg_raw(r->b, ")</h3>\n");
    Cells c = {0};
    for (int i = 0; i < len; i++) {
        const DbGenerationRow *g = &gens[i];
        char buf[24];
        cells_add(&c, "%lld", (long long)g->train_id);
        cells_add(&c, "%lld", (long long)g->generation);
        cells_add(&c, "%s", report_opt(buf, g->parent_generation));
        cells_add(&c, "%s", report_str(g->stage));
        cells_add(&c, "%s", report_opt(buf, g->candidate_ws));
        cells_add(&c, "%s", report_opt(buf, g->tuning_run));
        cells_add(&c, "%s", report_opt(buf, g->gate_match));
        add_elo(&c, g->gate_elo);
        add_interval(&c, g->gate_elo_lo, g->gate_elo_hi);
        cells_add(&c, "%s", g->accepted == DB_NULL_INT ? "–" : g->accepted ? "yes" : "no");
        cells_add(&c, "%s", report_str(g->reason));
        add_elo(&c, g->ladder_elo);
        add_interval(&c, g->ladder_elo_lo, g->ladder_elo_hi);
        cells_add(&c, "%s", report_opt(buf, g->ladder_games));
    }
    svg_raw(r->b, "<div id=\"train-%lld-table\">", (long long)gens[0].train_id);
    report_table(r, "generations", NULL, head, 14, &c);
    svg_raw(r->b, "</div>\n");
    bool oom = c.oom;
    cells_free(&c);
    return oom ? report_oom(r) : ladder_plots(r, gens, len);
}

int report_section_generations(Report *r)
{
    report_section_open(r, "generations", "Generations",
                        "The gated generations of dama train: each candidate tuned from the best weights so far, its "
                        "gate match against them (only a candidate that passes becomes the best), and the Elo ladder "
                        "of the accepted generations against generation 0.");
    DbGenerationRows t;
    if (db_report_generations(r->db, r->o->game, &t, r->err) != 0) return -1;
    if (!t.exists || t.missing) {
        char msg[160];
        if (!t.exists) snprintf(msg, sizeof msg, "No generations table in this database: no generations.");
        else snprintf(msg, sizeof msg, "The generations table of this database has no column %s: not shown.", t.missing);
        report_p(r, "none", msg);
        report_section_close(r);
        db_report_free(t.mem);
        return 0;
    }
    if (t.len == 0) report_p(r, "none", "No generations in this database.");
    int rc = 0;
    for (int from = 0; rc == 0 && from < t.len;) {
        int to = from;
        while (to < t.len && t.rows[to].train_id == t.rows[from].train_id) to++;
        rc = train_table(r, &t.rows[from], to - from);
        from = to;
    }
    report_section_close(r);
    db_report_free(t.mem);
    return rc;
}
