/* report_matches.c — the sections of `dama report`'s page on games between
 * players: matches (results, pentanomial counts, Elo, the SPRT's LLR path
 * recomputed by stats.c) and tournaments (crosstable, ratings fitted by
 * ratings.c). See report_internal.h. */
#define _GNU_SOURCE /* asprintf */
#include "report/report_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/ratings.h"
#include "arena/stats.h"

/* Whether match m has a 95% interval: none is stored (NULL) where it could
 * not be estimated (one pair, or every pair scored the same: arena/match.h);
 * a database written before that stored a zero-width one, lo = hi. */
static bool has_interval(const DbMatchRow *m)
{
    return !isnan(m->elo_lo) && !isnan(m->elo_hi) && m->elo_lo < m->elo_hi;
}

/* A side's engine as the page names it: at most SIDE_TEXT_MAX bytes, its
 * command or address cut to SIDE_SHOWN bytes. */
enum { SIDE_SHOWN = 60, SIDE_TEXT_MAX = 200 };

/* Side i's (0: A, 1: B) engine in match m: "#3 tuned" (its weight set), or
 * for one without (a Hub engine, a DXP program) what the match's
 * configuration names (db_match_side_name, each value cut to SIDE_SHOWN
 * bytes): "Hub './engine --x'", "DXP 127.0.0.1:27531", "DXP 127.0.0.1:0
 * started by './program'"; "external engine" where it does not say. */
static void side_text(const DbMatchRow *m, int i, char out[SIDE_TEXT_MAX])
{
    int64_t ws = i ? m->ws_b : m->ws_a;
    if (ws != DB_NULL_INT) snprintf(out, SIDE_TEXT_MAX, "#%lld %s", (long long)ws, report_str(i ? m->name_b : m->name_a));
    else db_match_side_name(m->config, i, SIDE_SHOWN, out, SIDE_TEXT_MAX);
}

/* Whether match m ran an SPRT: its bounds are stored (a match without one
 * stores none) and, where its run's configuration is stored, it has the
 * line "sprt = 1" (a match without --sprt stored the default bounds before
 * it stored none: an older database still has them). */
static bool had_sprt(const DbMatchRow *m)
{
    if (isnan(m->sprt_elo0)) return false;
    size_t n = 0;
    const char *v = db_config_value(m->config, "sprt", &n);
    return !m->config || (v && !(n == 1 && v[0] == '0'));
}

/* Match m's Elo and its 95% interval as the page says them, never "inf"
 * (as stats_format_line): "not estimable (score 100%)" at a score of 0% or
 * 100%; an interval with an infinite end by its finite one, "> 12.3,
 * upper end not estimable"; "not estimable" where none is stored. */
static void elo_text(const DbMatchRow *m, char elo[48], char interval[64])
{
    if (isnan(m->elo)) snprintf(elo, 48, "–");
    else if (isinf(m->elo)) snprintf(elo, 48, "not estimable (score %s)", m->elo > 0 ? "100%" : "0%");
    else snprintf(elo, 48, "%.1f", m->elo);
    if (!has_interval(m) || (isinf(m->elo_lo) && isinf(m->elo_hi))) snprintf(interval, 64, "not estimable");
    else if (isinf(m->elo_hi)) snprintf(interval, 64, "> %.1f, upper end not estimable", m->elo_lo);
    else if (isinf(m->elo_lo)) snprintf(interval, 64, "< %.1f, lower end not estimable", m->elo_hi);
    else snprintf(interval, 64, "[%.1f, %.1f]", m->elo_lo, m->elo_hi);
}

/* White's half points in a game result ("1-0" 2, "1/2-1/2" 1, "0-1" 0), -1
 * for none. */
static int white_half(const char *res)
{
    res = report_str(res);
    return strcmp(res, "1-0") == 0 ? 2 : strcmp(res, "0-1") == 0 ? 0 : strcmp(res, "1/2-1/2") == 0 ? 1 : -1;
}

/* ---- matches ---------------------------------------------------------------------- */

/* A's half points in a stored game of a match: A is White in game 2p and
 * Black in 2p + 1 (dama match), or by the weight sets when they differ. */
static int a_half(const DbMatchGame *g, int64_t ws_a, int64_t ws_b)
{
    int white = white_half(g->result);
    if (white < 0) return -1;
    bool a_white = g->game_index % 2 == 0;
    if (ws_a != ws_b && g->white_ws == ws_a && g->black_ws == ws_b) a_white = true;
    else if (ws_a != ws_b && g->white_ws == ws_b && g->black_ws == ws_a) a_white = false;
    return a_white ? white : 2 - white;
}

/* The SPRT's LLR after each complete pair, recomputed from the stored games
 * in pair order with stats_compute_llr_ptnml (dama stores the final LLR and
 * the one at the decision, not the path). */
static int llr_plot(Report *r, const DbMatchRow *m)
{
    SprtParams sp = {.alpha = m->sprt_alpha, .beta = m->sprt_beta, .elo0 = m->sprt_elo0, .elo1 = m->sprt_elo1};
    if (!had_sprt(m) || stats_check_sprt(&sp, NULL, 0) != 0) return 0; /* no SPRT */
    DbMatchGames g;
    if (db_report_run_games(r->db, m->run_id, &g, r->err) != 0) return -1;
    double *x = malloc(sizeof *x * ((size_t)g.len / 2 + 1)), *y = malloc(sizeof *y * ((size_t)g.len / 2 + 1));
    if (!x || !y) {
        free(x), free(y), db_report_free(g.mem);
        return report_oom(r);
    }
    int64_t ws_a = report_or0(m->ws_a), ws_b = report_or0(m->ws_b);
    MatchStats st;
    stats_init(&st);
    int n = 0, unpaired = 0;
    for (int k = 0; k + 1 < g.len; k++) {
        const DbMatchGame *a = &g.rows[k], *b = &g.rows[k + 1];
        if (a->game_index % 2 != 0 || b->game_index != a->game_index + 1 ||
            strcmp(report_str(a->opening), report_str(b->opening)) != 0) {
            unpaired++;
            continue;
        }
        int h0 = a_half(a, ws_a, ws_b), h1 = a_half(b, ws_a, ws_b);
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
    if (isfinite(m->llr)) bounds[nb++] = m->llr;
    char fid[64], title[96], caption[700], decided[160] = "";
    if (!isnan(m->sprt_llr))
        snprintf(decided, sizeof decided, " The SPRT decided %s after %lld pairs at LLR %.3f.",
                 report_str(m->sprt_result), (long long)m->sprt_pairs, m->sprt_llr);
    snprintf(fid, sizeof fid, "match-%lld-llr", (long long)m->id);
    snprintf(title, sizeof title, "SPRT LLR, match %lld [%g, %g]", (long long)m->id, sp.elo0, sp.elo1);
    snprintf(caption, sizeof caption,
             "Log-likelihood ratio of H1 (Elo %g) against H0 (Elo %g) after each game pair, recomputed from the "
             "stored games in pair order (pentanomial, as dama match computes it; the database keeps the final and "
             "the deciding LLR, not the path); the bounds are Wald's for alpha %g, beta %g.%s%s",
             sp.elo1, sp.elo0, sp.alpha, sp.beta, decided, unpaired ? " Games without their pair left out." : "");
    SvgSeries s = {.name = "LLR", .x = x, .y = y, .len = n};
    SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "game pairs", .y_label = "LLR",
                 .y_refs = bounds, .y_ref_labels = blabels, .y_refs_len = nb};
    char serr[SVG_ERR_MAX];
    if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) report_plot_failed(r, serr);
    free(x), free(y), db_report_free(g.mem);
    return 0;
}

/* Each side's mean time per move and their ratio with the verdict of
 * util/time_use.h: a strength figure is fair at equal time used. */
static void time_cells(Cells *c, const DbMatchRow *m)
{
    for (int i = 0; i < 2; i++) {
        if (m->time[i].moves > 0)
            cells_add(c, "%.2f, %.2f", time_use_wall_ms(&m->time[i]), time_use_cpu_ms(&m->time[i]));
        else cells_add(c, "–");
    }
    TimeCompare tc;
    time_use_compare(&m->time[0], &m->time[1], TIME_USE_EQUAL, &tc);
    char verdict[320];
    time_use_verdict(&tc, TIME_USE_EQUAL, "A", "B", verdict, sizeof verdict);
    char left[64] = "";
    if (m->untimed > 0) snprintf(left, sizeof left, " (%lld games without times)", (long long)m->untimed);
    if (tc.cpu_known) cells_add(c, "%.3f, %.3f: %s%s", tc.wall_ratio, tc.cpu_ratio, verdict, left);
    else if (tc.known) cells_add(c, "%.3f, –: %s%s", tc.wall_ratio, verdict, left); /* a DXP side's CPU */
    else cells_add(c, "–");
}

/* The table of every match, its LLR and SPRT columns only when one of
 * them ran an SPRT ("–" in those of the others). false when out of
 * memory. */
static bool matches_table(Report *r, const DbMatchRows *t)
{
    enum { COLS = 16, COL_LLR = 11, COL_SPRT = 12 };
    static const char *const all[COLS] = {"match", "game", "A", "B", "games", "wins", "draws", "losses",
                                          "pentanomial (0, ½, 1, 1½, 2)", "Elo", "95% interval", "LLR", "SPRT",
                                          "A ms/move (wall, CPU)", "B ms/move (wall, CPU)", "time used A/B"};
    bool sprt = false;
    for (int i = 0; i < t->len; i++) sprt |= had_sprt(&t->rows[i]);
    const char *head[COLS];
    int cols = 0;
    for (int k = 0; k < COLS; k++)
        if (sprt || (k != COL_LLR && k != COL_SPRT)) head[cols++] = all[k];
    Cells c = {0};
    for (int i = 0; i < t->len; i++) {
        const DbMatchRow *m = &t->rows[i];
        char side[SIDE_TEXT_MAX];
        cells_add(&c, "%lld", (long long)m->id);
        cells_add(&c, "%s", report_str(m->game));
        for (int k = 0; k < 2; k++) {
            side_text(m, k, side);
            cells_add(&c, "%s", side);
        }
        const int64_t counts[] = {m->games, m->wins, m->draws, m->losses};
        for (int k = 0; k < 4; k++) cells_add(&c, "%lld", (long long)counts[k]);
        cells_add(&c, "%lld, %lld, %lld, %lld, %lld", (long long)m->penta[0], (long long)m->penta[1],
                  (long long)m->penta[2], (long long)m->penta[3], (long long)m->penta[4]);
        char elo[48], interval[64];
        elo_text(m, elo, interval);
        cells_add(&c, "%s", elo);
        cells_add(&c, "%s", interval);
        if (sprt && had_sprt(m)) {
            cells_add_real(&c, m->llr, 2);
            cells_add(&c, "[%g, %g] %s", m->sprt_elo0, m->sprt_elo1, m->sprt_result ? m->sprt_result : "undecided");
        } else if (sprt) {
            cells_add(&c, "–");
            cells_add(&c, "–");
        }
        time_cells(&c, m);
    }
    if (t->len) report_table(r, "matches", NULL, head, cols, &c);
    bool ok = !c.oom;
    cells_free(&c);
    return ok;
}

/* Elo of every match with its interval (finite ones). false when out of memory. */
static bool matches_elo_plot(Report *r, const DbMatchRows *t)
{
    double *y = malloc(sizeof *y * (size_t)t->len), *lo = malloc(sizeof *lo * (size_t)t->len),
           *hi = malloc(sizeof *hi * (size_t)t->len);
    char **labels = calloc((size_t)t->len, sizeof *labels);
    int n = 0, left = 0;
    bool oom = !y || !lo || !hi || !labels;
    for (int i = 0; !oom && i < t->len; i++) {
        const DbMatchRow *m = &t->rows[i];
        if (!isfinite(m->elo) || !has_interval(m) || !isfinite(m->elo_lo) || !isfinite(m->elo_hi)) {
            left++;
            continue;
        }
        if (asprintf(&labels[n], "#%lld", (long long)m->id) < 0) {
            labels[n] = NULL;
            oom = true;
            break;
        }
        y[n] = m->elo, lo[n] = m->elo_lo, hi[n] = m->elo_hi;
        n++;
    }
    if (!oom) {
        svg_raw(r->b, "<div class=\"figs\">\n");
        static const double zero[] = {0};
        static const char *const zl[] = {"Elo 0"};
        char caption[300];
        snprintf(caption, sizeof caption,
                 "Elo of A against B in each match with its 95%% interval (pentanomial when there are pairs).%s",
                 left ? " Matches with an infinite Elo (a 0% or 100% score) or no interval (one pair, or every pair "
                        "scored the same) are left out." : "");
        SvgSeries s = {.name = "Elo", .y = y, .lo = lo, .hi = hi, .len = n, .points_only = true};
        SvgPlot p = {.id = "matches-elo", .title = "Elo of every match", .caption = caption, .x_label = "match",
                     .y_label = "Elo (A − B)", .x_labels = (const char *const *)labels, .x_labels_len = n,
                     .y_refs = zero, .y_ref_labels = zl, .y_refs_len = 1};
        char serr[SVG_ERR_MAX];
        if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) report_plot_failed(r, serr);
        svg_raw(r->b, "</div>\n");
    }
    for (int i = 0; labels && i < n; i++) free(labels[i]);
    free(labels), free(y), free(lo), free(hi);
    return !oom;
}

/* The plots of one match: results, game pairs, LLR path. */
static int match_plots(Report *r, const DbMatchRow *m)
{
    char side[SIDE_TEXT_MAX];
    svg_raw(r->b, "<h3>Match %lld: ", (long long)m->id);
    side_text(m, 0, side);
    svg_text(r->b, side);
    svg_raw(r->b, " vs ");
    side_text(m, 1, side);
    svg_text(r->b, side);
    svg_raw(r->b, "</h3><div class=\"figs\">\n");
    char fid[64], title[96], caption[300];
    static const char *const wdl[] = {"A wins", "draws", "A losses"};
    const char *const wdl_colors[] = {"#009e73", REPORT_COLOR_DRAW, REPORT_COLOR_LOSS};
    double v[5] = {(double)m->wins, (double)m->draws, (double)m->losses};
    snprintf(fid, sizeof fid, "match-%lld-wdl", (long long)m->id);
    snprintf(title, sizeof title, "Results, match %lld", (long long)m->id);
    snprintf(caption, sizeof caption, "The %lld games of match %lld from A's view.", (long long)m->games,
             (long long)m->id);
    SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "result", .y_label = "games"};
    SvgBars bars = {.labels = wdl, .values = v, .colors = wdl_colors, .len = 3};
    char serr[SVG_ERR_MAX];
    if (svg_bar_chart(r->b, &p, &bars, serr) != 0) report_plot_failed(r, serr);
    static const char *const penta[] = {"0", "½", "1", "1½", "2"};
    for (int k = 0; k < 5; k++) v[k] = (double)m->penta[k];
    snprintf(fid, sizeof fid, "match-%lld-penta", (long long)m->id);
    snprintf(title, sizeof title, "Game pairs, match %lld", (long long)m->id);
    char elo[48], interval[64];
    elo_text(m, elo, interval);
    snprintf(caption, sizeof caption,
             "Pentanomial counts: the game pairs (one opening, both colours) by A's points in the pair, 0 to 2; "
             "Elo %s%s%s%s.",
             elo, isinf(m->elo) ? "" : " (95% interval ", isinf(m->elo) ? "" : interval, isinf(m->elo) ? "" : ")");
    SvgPlot pp = {.id = fid, .title = title, .caption = caption, .x_label = "A's points in the pair",
                  .y_label = "game pairs"};
    SvgBars pb = {.labels = penta, .values = v, .len = 5};
    if (svg_bar_chart(r->b, &pp, &pb, serr) != 0) report_plot_failed(r, serr);
    int rc = llr_plot(r, m);
    svg_raw(r->b, "</div>\n");
    return rc;
}

int report_section_matches(Report *r)
{
    DbMatchRows t;
    if (db_report_matches(r->db, r->o->game, &t, r->err) != 0) return -1;
    report_section_open(r, "matches", "Matches",
                        "Each dama match: weight set A against B on paired openings (each opening with both colours), "
                        "results from A's view, the pentanomial counts of the game pairs, Elo with its 95% interval "
                        "and the SPRT.");
    if (t.len == 0) report_p(r, "none", "No matches in this database.");
    bool oom = !matches_table(r, &t);
    if (t.len) oom = !matches_elo_plot(r, &t) || oom;
    int rc = 0;
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    for (int i = t.len - 1; !oom && rc == 0 && i >= first; i--) rc = match_plots(r, &t.rows[i]);
    report_section_close(r);
    db_report_free(t.mem);
    return oom ? report_oom(r) : rc;
}

/* ---- tournaments -------------------------------------------------------------------- */

/* The finished games of one tournament between np players: points and
 * games of each pair (pts[w * np + b], games[...]), and the games for the
 * ratings (players by index). */
typedef struct Crosstable {
    int np;
    double *pts;
    int64_t *games;
    RatingsGame *rg;
    int64_t ng;
} Crosstable;

static bool crosstable_fill(Crosstable *x, const DbParticipantRows *pl, const DbTournamentGames *g)
{
    int np = x->np = pl->len;
    x->pts = calloc((size_t)np * (size_t)np + 1, sizeof *x->pts);
    x->games = calloc((size_t)np * (size_t)np + 1, sizeof *x->games);
    x->rg = malloc(sizeof *x->rg * ((size_t)g->len + 1));
    if (!x->pts || !x->games || !x->rg) return false;
    for (int k = 0; k < g->len; k++) {
        int w = -1, b = -1;
        for (int j = 0; j < np; j++) {
            if (pl->rows[j].id == g->rows[k].white) w = j;
            if (pl->rows[j].id == g->rows[k].black) b = j;
        }
        int half = white_half(g->rows[k].result);
        if (w < 0 || b < 0 || w == b || half < 0) continue;
        x->pts[w * np + b] += half / 2.0;
        x->pts[b * np + w] += (2 - half) / 2.0;
        x->games[w * np + b]++;
        x->games[b * np + w]++;
        x->rg[x->ng++] = (RatingsGame){.white = w, .black = b, .white_half = half};
    }
    return true;
}

static void crosstable_free(Crosstable *x)
{
    free(x->pts), free(x->games), free(x->rg);
}

/* Crosstable: points of the row against the column (games). false when out
 * of memory. */
static bool crosstable_table(Report *r, int64_t tid, const DbParticipantRows *pl, const Crosstable *x)
{
    int np = x->np;
    const char **head = calloc((size_t)np + 5, sizeof *head);
    if (!head) return false;
    Cells c = {0};
    if (np > 0) {
        head[0] = "#";
        head[1] = "player";
        for (int j = 0; j < np; j++) head[2 + j] = report_str(pl->rows[j].name);
        head[np + 2] = "points";
        head[np + 3] = "games";
        head[np + 4] = "ms/move (wall, CPU)";
        for (int a = 0; a < np; a++) {
            double total = 0;
            int64_t tg = 0;
            cells_add(&c, "%d", a + 1);
            cells_add(&c, "%s", report_str(pl->rows[a].name));
            for (int b = 0; b < np; b++) {
                if (a == b) cells_add(&c, "·");
                else if (x->games[a * np + b] == 0) cells_add(&c, "–");
                else cells_add(&c, "%g/%lld", x->pts[a * np + b], (long long)x->games[a * np + b]);
                total += x->pts[a * np + b];
                tg += x->games[a * np + b];
            }
            cells_add(&c, "%g", total);
            cells_add(&c, "%lld", (long long)tg);
            const TimeUse *tu = &pl->rows[a].time;
            if (tu->moves > 0) cells_add(&c, "%.2f, %.2f", time_use_wall_ms(tu), time_use_cpu_ms(tu));
            else cells_add(&c, "–");
        }
        svg_raw(r->b, "<div id=\"tournament-%lld-crosstable\">", (long long)tid);
        report_table(r, "crosstable",
                     "Crosstable: points of each row against each column (points/games), and the time each player "
                     "used per move over its games",
                     head, np + 5, &c);
        svg_raw(r->b, "</div>\n");
    }
    bool ok = !c.oom;
    cells_free(&c);
    free(head);
    return ok;
}

/* The ratings table and plot of a fit of nr players (who[k]: the
 * participant of rated player k) from kept games. false when out of memory. */
static bool ratings_table(Report *r, int64_t tid, const DbParticipantRows *pl, const RatingsFit *fit, int nr,
                          const int *who, int64_t kept)
{
    /* best first */
    int order[RATINGS_PLAYERS_MAX];
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
    Cells c = {0};
    for (int k = 0; k < nr; k++) {
        int x = order[k];
        const char *name = report_str(pl->rows[who[x]].name);
        cells_add(&c, "%d", k + 1);
        cells_add(&c, "%s", name);
        cells_add(&c, "%.1f", fit->elo[x]);
        cells_add(&c, "%.1f", fit->error[x]);
        cells_add(&c, "[%.1f, %.1f]", fit->lower[x], fit->upper[x]);
        cells_add(&c, "%lld", (long long)fit->games[x]);
        cells_add(&c, "%.1f%%", fit->games[x] ? 100.0 * fit->score[x] / (double)fit->games[x] : 0.0);
        if (isfinite(fit->elo[x]) && isfinite(fit->lower[x]) && isfinite(fit->upper[x])) {
            labels[n] = name;
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
    report_table(r, "ratings", "Ratings", rhead, 7, &c);
    svg_raw(r->b, "</div><div class=\"figs\">\n");
    snprintf(fid, sizeof fid, "tournament-%lld-ratings", (long long)tid);
    snprintf(title, sizeof title, "Ratings, tournament %lld", (long long)tid);
    SvgSeries s = {.name = "Elo", .y = y, .lo = lo, .hi = hi, .len = n, .points_only = true};
    SvgPlot p = {.id = fid, .title = title, .caption = caption, .x_label = "player", .y_label = "Elo",
                 .x_labels = labels, .x_labels_len = n};
    char serr[SVG_ERR_MAX];
    if (svg_line_plot(r->b, &p, &s, 1, serr) != 0) report_plot_failed(r, serr);
    svg_raw(r->b, "</div>\n");
    bool ok = !c.oom;
    cells_free(&c);
    return ok;
}

/* Ratings of the players with games, fitted together (dama ratings'
 * defaults: mean 0, White's advantage fitted, prior 2). false when out of
 * memory. */
static bool ratings(Report *r, int64_t tid, const DbParticipantRows *pl, Crosstable *x)
{
    int np = x->np, nr = 0;
    int *ratings_index = malloc(sizeof *ratings_index * ((size_t)np + 1));
    if (!ratings_index) return false;
    for (int a = 0; a < np; a++) {
        int64_t tg = 0;
        for (int b = 0; b < np; b++) tg += x->games[a * np + b];
        ratings_index[a] = tg > 0 && nr < RATINGS_PLAYERS_MAX ? nr++ : -1;
    }
    RatingsGame *rg = x->rg;
    for (int64_t k = 0; k < x->ng; k++) {
        rg[k].white = ratings_index[rg[k].white];
        rg[k].black = ratings_index[rg[k].black];
    }
    int64_t kept = 0;
    for (int64_t k = 0; k < x->ng; k++)
        if (rg[k].white >= 0 && rg[k].black >= 0) rg[kept++] = rg[k];
    bool ok = true;
    if (nr >= 2) {
        RatingsOptions opt;
        ratings_options_default(&opt);
        opt.prior = 2;
        const char *rnames[RATINGS_PLAYERS_MAX];
        int who[RATINGS_PLAYERS_MAX];
        for (int a = 0; a < np; a++) {
            if (ratings_index[a] < 0) continue;
            rnames[ratings_index[a]] = report_str(pl->rows[a].name);
            who[ratings_index[a]] = a;
        }
        opt.names = rnames;
        RatingsFit *fit = malloc(sizeof *fit);
        char rerr[RATINGS_ERR_MAX];
        if (!fit) ok = false;
        else if (ratings_fit(nr, rg, kept, &opt, fit, rerr) != 0) {
            char msg[RATINGS_ERR_MAX + 40];
            snprintf(msg, sizeof msg, "Ratings not fitted: %s.", rerr);
            report_p(r, "none", msg);
        } else ok = ratings_table(r, tid, pl, fit, nr, who, kept);
        free(fit);
    } else report_p(r, "none", "Fewer than two players have finished games: no ratings yet.");
    free(ratings_index);
    return ok;
}

static int tournament(Report *r, const DbTournamentRow *t)
{
    DbParticipantRows pl;
    DbTournamentGames g;
    if (db_report_participants(r->db, t->id, &pl, r->err) != 0) return -1;
    if (db_report_tournament_games(r->db, t->id, &g, r->err) != 0) {
        db_report_free(pl.mem);
        return -1;
    }
    svg_raw(r->b, "<h3>Tournament %lld", (long long)t->id);
    if (report_str(t->name)[0]) {
        svg_raw(r->b, ": ");
        svg_text(r->b, t->name);
    }
    svg_raw(r->b, " (");
    svg_text(r->b, report_str(t->game));
    svg_raw(r->b, ", ");
    svg_text(r->b, report_str(t->format));
    svg_raw(r->b, ", %lld rounds, %lld of %lld games finished)</h3>\n", (long long)t->rounds,
            (long long)t->games_finished, (long long)t->games_total);
    Crosstable x = {0};
    bool ok = crosstable_fill(&x, &pl, &g) && crosstable_table(r, t->id, &pl, &x) && ratings(r, t->id, &pl, &x);
    crosstable_free(&x);
    db_report_free(pl.mem);
    db_report_free(g.mem);
    return ok ? 0 : report_oom(r);
}

int report_section_tournaments(Report *r)
{
    report_section_open(r, "tournaments", "Tournaments",
                        "Each dama tournament: the crosstable (points of each row against each column) and the "
                        "ratings of all players fitted together with 95% intervals.");
    DbTournamentRows t;
    if (db_report_tournaments(r->db, r->o->game, &t, r->err) != 0) return -1;
    if (!t.exists) {
        report_p(r, "none", "No tournaments table in this database (schema before version 5): no tournaments.");
        report_section_close(r);
        return 0;
    }
    if (t.len == 0) report_p(r, "none", "No tournaments in this database.");
    int first = t.len > REPORT_RUNS_MAX ? t.len - REPORT_RUNS_MAX : 0;
    int rc = 0;
    for (int i = t.len - 1; rc == 0 && i >= first; i--) rc = tournament(r, &t.rows[i]);
    report_section_close(r);
    db_report_free(t.mem);
    return rc;
}
