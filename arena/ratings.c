/* ratings.c — maximum-likelihood ratings with a draw model; see ratings.h. */
#include "arena/ratings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Z95 1.959964
#define K_ELO (2.302585092994046 / 400.0) /* ln(10) / 400: f(x) = sigma(K x) */

enum { COUNT_LOSS = 0, COUNT_DRAW = 1, COUNT_WIN = 2 };

typedef struct Fit {
    int n;           /* players */
    int gauge;       /* the player whose rating is held at 0 */
    bool adv;        /* advantage is a free parameter */
    bool draw;       /* draw_elo is a free parameter (there are draws) */
    int m;           /* free parameters: n-1 ratings, [adv], [draw_elo] */
    double *cells;   /* n*n*3 counts: [white][black][black win, draw, white win] */
} Fit;

static void set_err(char err[RATINGS_ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, RATINGS_ERR_MAX, fmt, ap);
    va_end(ap);
}

static double sigmoid(double x)
{
    return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));
}

void ratings_model_probs(double ew, double eb, double advantage, double draw_elo, double p[3])
{
    double d = ew - eb + advantage;
    p[2] = sigmoid(K_ELO * (d - draw_elo));
    p[0] = sigmoid(K_ELO * (-d - draw_elo));
    p[1] = 1.0 - p[0] - p[2];
    if (p[1] < 0) p[1] = 0;
}

void ratings_options_default(RatingsOptions *o)
{
    o->anchor = -1;
    o->anchor_elo = 0;
    o->fit_advantage = true;
    o->prior = 0;
    o->names = NULL;
}

/* Player i as messages name it: 'NAME' when the options give names. */
static const char *who(const RatingsOptions *opt, int i, char buf[80])
{
    if (opt->names && opt->names[i]) snprintf(buf, 80, "'%.60s'", opt->names[i]);
    else snprintf(buf, 80, "%d", i);
    return buf;
}

/* Parameter vector theta: the free ratings (every player but the gauge, in
 * order), then adv if fitted, then draw_elo. */
static double rating_of(const Fit *f, const double *theta, int player)
{
    if (player == f->gauge) return 0;
    return theta[player < f->gauge ? player : player - 1];
}

static int rating_index(const Fit *f, int player)
{
    return player == f->gauge ? -1 : player < f->gauge ? player : player - 1;
}

/* Log-likelihood at theta, and its gradient into grad (may be NULL).
 * Returns -INFINITY outside the domain (draw_elo <= 0 with draws). */
static double loglik(const Fit *f, const double *theta, double *grad)
{
    int n = f->n;
    double adv = f->adv ? theta[n - 1] : 0;
    double draw = f->draw ? theta[f->m - 1] : 0;
    if (f->draw && !(draw > 1e-9)) return -INFINITY;
    if (grad) memset(grad, 0, sizeof(double) * (size_t)f->m);
    double ll = 0;
    for (int w = 0; w < n; w++) {
        double rw = rating_of(f, theta, w);
        for (int b = 0; b < n; b++) {
            const double *c = f->cells + ((size_t)w * (size_t)n + (size_t)b) * 3;
            if (c[0] == 0 && c[1] == 0 && c[2] == 0) continue;
            double delta = rw - rating_of(f, theta, b) + adv;
            double xw = K_ELO * (delta - draw), xl = K_ELO * (-delta - draw);
            double sw = sigmoid(xw), sl = sigmoid(xl);
            double pd = 1.0 - sw - sl;
            if (c[COUNT_DRAW] > 0 && !(pd > 0)) return -INFINITY;
            /* log sigma(x) without overflow */
            double lsw = xw >= 0 ? -log1p(exp(-xw)) : xw - log1p(exp(xw));
            double lsl = xl >= 0 ? -log1p(exp(-xl)) : xl - log1p(exp(xl));
            ll += c[COUNT_WIN] * lsw + c[COUNT_LOSS] * lsl + (c[COUNT_DRAW] > 0 ? c[COUNT_DRAW] * log(pd) : 0);
            if (!grad) continue;
            double gw = c[COUNT_WIN] * (1 - sw), gl = c[COUNT_LOSS] * (1 - sl);
            if (c[COUNT_DRAW] > 0) {
                gw -= c[COUNT_DRAW] * sw * (1 - sw) / pd;
                gl -= c[COUNT_DRAW] * sl * (1 - sl) / pd;
            }
            /* d xw/d delta = K, d xl/d delta = -K; d xw/d draw = d xl/d draw = -K */
            double gdelta = K_ELO * (gw - gl);
            int iw = rating_index(f, w), ib = rating_index(f, b);
            if (iw >= 0) grad[iw] += gdelta;
            if (ib >= 0) grad[ib] -= gdelta;
            if (f->adv) grad[n - 1] += gdelta;
            if (f->draw) grad[f->m - 1] -= K_ELO * (gw + gl);
        }
    }
    return ll;
}

/* Observed information I = -Hessian by central differences of the gradient
 * (symmetrised). Returns 0, or -1 when a probe leaves the domain. */
static int information(const Fit *f, const double *theta, double *info, double *work)
{
    int m = f->m;
    double *tp = work, *gp = work + m, *gm = work + 2 * m;
    for (int j = 0; j < m; j++) {
        double h = 1e-4 * fmax(1.0, fabs(theta[j]));
        memcpy(tp, theta, sizeof(double) * (size_t)m);
        tp[j] = theta[j] + h;
        if (!isfinite(loglik(f, tp, gp))) return -1;
        tp[j] = theta[j] - h;
        if (!isfinite(loglik(f, tp, gm))) return -1;
        for (int i = 0; i < m; i++) info[(size_t)i * (size_t)m + (size_t)j] = -(gp[i] - gm[i]) / (2 * h);
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < i; j++) {
            double s = 0.5 * (info[(size_t)i * (size_t)m + (size_t)j] + info[(size_t)j * (size_t)m + (size_t)i]);
            info[(size_t)i * (size_t)m + (size_t)j] = info[(size_t)j * (size_t)m + (size_t)i] = s;
        }
    return 0;
}

/* Cholesky factor of the m x m symmetric matrix a (in place, lower part).
 * Returns -1 if it is not positive definite. */
static int cholesky(double *a, int m)
{
    for (int j = 0; j < m; j++) {
        double s = a[(size_t)j * (size_t)m + (size_t)j];
        for (int k = 0; k < j; k++) s -= a[(size_t)j * (size_t)m + (size_t)k] * a[(size_t)j * (size_t)m + (size_t)k];
        if (!(s > 0)) return -1;
        double d = sqrt(s);
        a[(size_t)j * (size_t)m + (size_t)j] = d;
        for (int i = j + 1; i < m; i++) {
            double t = a[(size_t)i * (size_t)m + (size_t)j];
            for (int k = 0; k < j; k++) t -= a[(size_t)i * (size_t)m + (size_t)k] * a[(size_t)j * (size_t)m + (size_t)k];
            a[(size_t)i * (size_t)m + (size_t)j] = t / d;
        }
    }
    return 0;
}

/* Solve L L^T x = b with the factor from cholesky (x may alias b). */
static void chol_solve(const double *l, int m, const double *b, double *x)
{
    for (int i = 0; i < m; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++) s -= l[(size_t)i * (size_t)m + (size_t)k] * x[k];
        x[i] = s / l[(size_t)i * (size_t)m + (size_t)i];
    }
    for (int i = m - 1; i >= 0; i--) {
        double s = x[i];
        for (int k = i + 1; k < m; k++) s -= l[(size_t)k * (size_t)m + (size_t)i] * x[k];
        x[i] = s / l[(size_t)i * (size_t)m + (size_t)i];
    }
}

static int find_root(int *parent, int x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

int ratings_fit(int players, const RatingsGame *games, int64_t len, const RatingsOptions *opt, RatingsFit *out,
                char err[RATINGS_ERR_MAX])
{
    memset(out, 0, sizeof *out);
    if (players < 1 || players > RATINGS_PLAYERS_MAX) {
        set_err(err, "ratings: %d players (need 1..%d)", players, RATINGS_PLAYERS_MAX);
        return -1;
    }
    if (!(opt->prior >= 0) || !isfinite(opt->prior)) {
        set_err(err, "ratings: prior %g must be >= 0", opt->prior);
        return -1;
    }
    if (opt->anchor < -1 || opt->anchor >= players) {
        set_err(err, "ratings: anchor %d is not a player index", opt->anchor);
        return -1;
    }
    int n = players;
    Fit f = {.n = n, .gauge = opt->anchor >= 0 ? opt->anchor : 0, .adv = opt->fit_advantage};
    f.m = n - 1 + (f.adv ? 1 : 0) + 1; /* the draw parameter is dropped below if there are no draws */
    int m = f.m;
    f.cells = calloc((size_t)n * (size_t)n * 3, sizeof(double));
    double *theta = calloc((size_t)m, sizeof(double)), *grad = calloc((size_t)m, sizeof(double));
    double *step = calloc((size_t)m, sizeof(double)), *trial = calloc((size_t)m, sizeof(double));
    double *info = calloc((size_t)m * (size_t)m, sizeof(double)), *work = calloc((size_t)m * 3, sizeof(double));
    double *cov = calloc((size_t)m * (size_t)m, sizeof(double));
    int parent[RATINGS_PLAYERS_MAX];
    int rc = -1;
    if (!f.cells || !theta || !grad || !step || !trial || !info || !work || !cov) {
        set_err(err, "ratings: out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) parent[i] = i;
    for (int64_t k = 0; k < len; k++) {
        const RatingsGame *g = &games[k];
        if (g->white < 0 || g->white >= n || g->black < 0 || g->black >= n || g->white == g->black ||
            g->white_half < 0 || g->white_half > 2) {
            set_err(err, "ratings: game %lld: players %d-%d or result %d out of range", (long long)k, g->white,
                    g->black, g->white_half);
            goto done;
        }
        f.cells[((size_t)g->white * (size_t)n + (size_t)g->black) * 3 + (size_t)g->white_half] += 1;
        out->games[g->white]++;
        out->games[g->black]++;
        out->score[g->white] += g->white_half / 2.0;
        out->score[g->black] += (2 - g->white_half) / 2.0;
        parent[find_root(parent, g->white)] = find_root(parent, g->black);
    }
    for (int i = 0; i < n; i++) {
        if (out->games[i] == 0 && n > 1) {
            char wi[80];
            set_err(err, "ratings: player %s has no games", who(opt, i, wi));
            goto done;
        }
        if (find_root(parent, i) != find_root(parent, 0)) {
            char w0[80], wi[80];
            set_err(err, "ratings: players %s and %s are in groups that never met: their ratings are not comparable",
                    who(opt, 0, w0), who(opt, i, wi));
            rc = RATINGS_DISCONNECTED;
            goto done;
        }
    }
    if (opt->prior > 0) {
        for (int w = 0; w < n; w++)
            for (int b = w + 1; b < n; b++) {
                double *cwb = f.cells + ((size_t)w * (size_t)n + (size_t)b) * 3;
                double *cbw = f.cells + ((size_t)b * (size_t)n + (size_t)w) * 3;
                bool met = cwb[0] + cwb[1] + cwb[2] + cbw[0] + cbw[1] + cbw[2] > 0;
                if (!met) continue;
                for (int k = 0; k < 3; k += 2) {
                    cwb[k] += opt->prior / 4;
                    cbw[k] += opt->prior / 4;
                }
            }
    }
    double draws = 0;
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) draws += f.cells[i * 3 + COUNT_DRAW];
    f.draw = draws > 0;
    if (!f.draw) f.m = m = m - 1;
    out->players = n;
    if (n == 1) {
        out->elo[0] = opt->anchor >= 0 ? opt->anchor_elo : 0;
        out->lower[0] = out->upper[0] = out->elo[0];
        rc = 0;
        goto done;
    }
    /* Without any draw, draw_elo is 0 (not fitted): the fit of the ratings
     * is then the plain Bradley-Terry one. */
    if (f.draw) theta[m - 1] = 100;
    double ll = loglik(&f, theta, grad);
    int it;
    bool converged = false;
    for (it = 0; it < 500; it++) {
        if (information(&f, theta, info, work) != 0) break;
        memcpy(cov, info, sizeof(double) * (size_t)m * (size_t)m);
        double damp = 0;
        while (cholesky(cov, m) != 0) {
            damp = damp ? damp * 10 : 1e-6;
            if (damp > 1e6) break;
            memcpy(cov, info, sizeof(double) * (size_t)m * (size_t)m);
            for (int i = 0; i < m; i++) cov[(size_t)i * (size_t)m + (size_t)i] += damp;
        }
        if (damp > 1e6) break;
        chol_solve(cov, m, grad, step);
        double t = 1.0, nl = -INFINITY;
        for (int half = 0; half < 60; half++, t *= 0.5) {
            for (int i = 0; i < m; i++) trial[i] = theta[i] + t * step[i];
            if (f.draw && trial[m - 1] < 0.5) trial[m - 1] = 0.5; /* a floor: draw_elo 0.5 is no draw tendency at all */
            nl = loglik(&f, trial, NULL);
            if (nl >= ll) break;
        }
        if (!(nl >= ll)) { /* no ascent along the Newton direction: at the maximum */
            converged = true;
            break;
        }
        double moved = 0;
        for (int i = 0; i < m; i++) moved = fmax(moved, fabs(trial[i] - theta[i]));
        memcpy(theta, trial, sizeof(double) * (size_t)m);
        ll = loglik(&f, theta, grad);
        if (moved < 1e-7) {
            converged = true;
            break;
        }
    }
    out->iterations = it;
    for (int i = 0; i < m; i++)
        if (!isfinite(theta[i]) || fabs(theta[i]) > 4000) converged = false;
    if (!converged || information(&f, theta, info, work) != 0) {
        set_err(err, "ratings: the fit does not converge (a player who won or lost every game has an infinite "
                     "rating: give a prior of virtual games, as dama ratings --prior N > 0 does)");
        goto done;
    }
    memcpy(cov, info, sizeof(double) * (size_t)m * (size_t)m);
    if (cholesky(cov, m) != 0) {
        set_err(err, "ratings: the information matrix is singular (too few games to rate these players)");
        goto done;
    }
    /* covariance = info^-1, column by column */
    double *inv = info; /* info is not needed any more */
    for (int j = 0; j < m; j++) {
        memset(step, 0, sizeof(double) * (size_t)m);
        step[j] = 1;
        chol_solve(cov, m, step, trial);
        for (int i = 0; i < m; i++) inv[(size_t)i * (size_t)m + (size_t)j] = trial[i];
    }
    double mean = 0;
    for (int i = 0; i < n; i++) mean += rating_of(&f, theta, i);
    mean /= n;
    for (int i = 0; i < n; i++) {
        double var;
        if (opt->anchor >= 0) {
            out->elo[i] = opt->anchor_elo + rating_of(&f, theta, i);
            int ii = rating_index(&f, i);
            var = ii < 0 ? 0 : inv[(size_t)ii * (size_t)m + (size_t)ii];
        } else {
            out->elo[i] = rating_of(&f, theta, i) - mean;
            /* c_i = r_i - mean(r) = sum_j a_j r_j over the free ratings j,
             * a_j = [j == i] - 1/n; var = a^T C a */
            var = 0;
            for (int p = 0; p < n; p++) {
                int ip = rating_index(&f, p);
                if (ip < 0) continue;
                double ap = (p == i) - 1.0 / n;
                for (int q = 0; q < n; q++) {
                    int iq = rating_index(&f, q);
                    if (iq < 0) continue;
                    double aq = (q == i) - 1.0 / n;
                    var += ap * aq * inv[(size_t)ip * (size_t)m + (size_t)iq];
                }
            }
        }
        double e = Z95 * sqrt(var > 0 ? var : 0);
        out->error[i] = e;
        out->lower[i] = out->elo[i] - e;
        out->upper[i] = out->elo[i] + e;
    }
    if (f.adv) {
        out->advantage = theta[n - 1];
        out->advantage_error = Z95 * sqrt(fmax(0, inv[(size_t)(n - 1) * (size_t)m + (size_t)(n - 1)]));
    }
    if (f.draw) {
        out->draw_elo = theta[m - 1];
        out->draw_elo_error = Z95 * sqrt(fmax(0, inv[(size_t)(m - 1) * (size_t)m + (size_t)(m - 1)]));
    }
    out->log_likelihood = ll;
    rc = 0;
done:
    free(f.cells);
    free(theta);
    free(grad);
    free(step);
    free(trial);
    free(info);
    free(work);
    free(cov);
    return rc;
}
