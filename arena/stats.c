/* stats.c — match statistics: Elo, confidence intervals, LOS, SPRT.
 * Formulas and their sources are in stats.h. */
#include "arena/stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/num.h"

/* [FT] LLRcalc.regularize: the count that stands in for an empty bucket. */
#define REGULARIZE_EPSILON 1e-3

static int is_result(StatsResult result)
{
    return result == STATS_LOSS || result == STATS_DRAW || result == STATS_WIN;
}

void stats_init(MatchStats *st)
{
    memset(st, 0, sizeof *st);
}

static void count_game(MatchStats *st, StatsResult result)
{
    if (result == STATS_WIN)
        st->wins++;
    else if (result == STATS_DRAW)
        st->draws++;
    else
        st->losses++;
}

int stats_add_game(MatchStats *st, StatsResult result)
{
    if (!is_result(result))
        return -1;
    count_game(st, result);
    return 0;
}

int stats_add_pair(MatchStats *st, StatsResult first, StatsResult second)
{
    if (!is_result(first) || !is_result(second))
        return -1;
    count_game(st, first);
    count_game(st, second);
    st->penta[(int)first + (int)second]++;
    return 0;
}

void stats_merge(MatchStats *into, const MatchStats *from)
{
    into->wins += from->wins;
    into->draws += from->draws;
    into->losses += from->losses;
    for (int k = 0; k < STATS_PENTA_LEN; k++)
        into->penta[k] += from->penta[k];
}

int64_t stats_count_games(const MatchStats *st)
{
    return st->wins + st->draws + st->losses;
}

int64_t stats_count_pairs(const MatchStats *st)
{
    int64_t pairs = 0;
    for (int k = 0; k < STATS_PENTA_LEN; k++)
        pairs += st->penta[k];
    return pairs;
}

double stats_score_to_elo(double score)
{
    if (isnan(score))
        return score;
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    /* -400 log10(1/s - 1) = 400 log10(s / (1 - s)); this form gives +0 at 1/2 */
    return 400.0 * log10(score / (1.0 - score));
}

double stats_elo_to_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Mean and variance of the discrete distribution with weights w[i] (any
 * positive scale) at values x[i]; returns the total weight. */
static double moments(const double *w, const double *x, int len, double *mean, double *variance)
{
    double total = 0.0, m = 0.0, v = 0.0;
    for (int i = 0; i < len; i++)
        total += w[i];
    for (int i = 0; i < len; i++)
        m += w[i] / total * x[i];
    for (int i = 0; i < len; i++)
        v += w[i] / total * (x[i] - m) * (x[i] - m);
    *mean = m;
    *variance = v;
    return total;
}

/* Fill out from the distribution of n samples (weights = counts). */
static int estimate(const double *counts, const double *x, int len, int64_t n, EloEstimate *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0)
        return -1;

    double m, v;
    double total = moments(counts, x, len, &m, &v);
    double se = sqrt(v / total);

    out->n = n;
    out->score = m;
    out->variance = v;
    out->score_lower = fmax(0.0, m - STATS_Z95 * se);
    out->score_upper = fmin(1.0, m + STATS_Z95 * se);
    out->elo = stats_score_to_elo(m);
    out->elo_lower = stats_score_to_elo(out->score_lower);
    out->elo_upper = stats_score_to_elo(out->score_upper);
    if (isinf(out->elo_lower) || isinf(out->elo_upper))
        out->error = INFINITY;
    else
        out->error = (out->elo_upper - out->elo_lower) / 2.0;
    if (se > 0.0)
        out->los = 0.5 * (1.0 + erf((m - 0.5) / (se * sqrt(2.0))));
    else
        out->los = m > 0.5 ? 1.0 : m < 0.5 ? 0.0 : 0.5;
    return 0;
}

static const double WDL_X[3] = {0.0, 0.5, 1.0};
static const double PTNML_X[STATS_PENTA_LEN] = {0.0, 0.25, 0.5, 0.75, 1.0};

int stats_estimate_wdl(const MatchStats *st, EloEstimate *out)
{
    const double counts[3] = {(double)st->losses, (double)st->draws, (double)st->wins};
    return estimate(counts, WDL_X, 3, stats_count_games(st), out);
}

int stats_estimate_ptnml(const MatchStats *st, EloEstimate *out)
{
    double counts[STATS_PENTA_LEN];
    for (int k = 0; k < STATS_PENTA_LEN; k++)
        counts[k] = (double)st->penta[k];
    return estimate(counts, PTNML_X, STATS_PENTA_LEN, stats_count_pairs(st), out);
}

bool stats_interval_estimable(const EloEstimate *e)
{
    return e->n >= 2 && e->variance > 0.0;
}

int stats_check_sprt(const SprtParams *sprt, char *err, size_t err_size)
{
    const char *field = NULL, *rule = NULL;
    double value = 0.0;
    if (!(sprt->alpha > 0.0 && sprt->alpha < 1.0)) {
        field = "alpha", value = sprt->alpha, rule = "must be in (0, 1)";
    } else if (!(sprt->beta > 0.0 && sprt->beta < 1.0)) {
        field = "beta", value = sprt->beta, rule = "must be in (0, 1)";
    } else if (!(sprt->alpha + sprt->beta < 1.0)) {
        field = "alpha + beta", value = sprt->alpha + sprt->beta, rule = "must be below 1";
    } else if (!isfinite(sprt->elo0)) {
        field = "elo0", value = sprt->elo0, rule = "must be finite";
    } else if (!isfinite(sprt->elo1)) {
        field = "elo1", value = sprt->elo1, rule = "must be finite";
    } else if (!(sprt->elo0 < sprt->elo1)) {
        field = "elo0", value = sprt->elo0, rule = "must be below elo1";
    }
    if (!field)
        return 0;
    if (err && err_size > 0)
        snprintf(err, err_size, "SPRT %s = %g %s", field, value, rule);
    return -1;
}

void stats_compute_bounds(const SprtParams *sprt, double *lower, double *upper)
{
    *lower = log(sprt->beta / (1.0 - sprt->alpha));
    *upper = log((1.0 - sprt->beta) / sprt->alpha);
}

/* [VdB] approximate GLR on regularized counts; see stats.h. */
static double llr_normal(const double *raw, const double *x, int len, const SprtParams *sprt)
{
    double counts[STATS_PENTA_LEN], raw_total = 0.0;
    for (int i = 0; i < len; i++) {
        raw_total += raw[i];
        counts[i] = raw[i] > 0.0 ? raw[i] : REGULARIZE_EPSILON;
    }
    if (raw_total <= 0.0)
        return 0.0;
    double m, v;
    double n = moments(counts, x, len, &m, &v);
    double s0 = stats_elo_to_score(sprt->elo0);
    double s1 = stats_elo_to_score(sprt->elo1);
    return (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v / n);
}

double stats_compute_llr_ptnml(const MatchStats *st, const SprtParams *sprt)
{
    double counts[STATS_PENTA_LEN];
    for (int k = 0; k < STATS_PENTA_LEN; k++)
        counts[k] = (double)st->penta[k];
    return llr_normal(counts, PTNML_X, STATS_PENTA_LEN, sprt);
}

double stats_compute_llr_wdl(const MatchStats *st, const SprtParams *sprt)
{
    const double counts[3] = {(double)st->losses, (double)st->draws, (double)st->wins};
    return llr_normal(counts, WDL_X, 3, sprt);
}

void stats_sprt_phrase(const SprtParams *sprt, SprtDecision d, char *out, size_t size)
{
    if (d == SPRT_CONTINUE)
        snprintf(out, size, "undecided");
    else if (sprt->elo0 >= 0)
        snprintf(out, size, "%s", d == SPRT_ACCEPT_H1 ? "H1 accepted (A is stronger)"
                                                      : "H0 accepted (A is not stronger by elo1)");
    else
        snprintf(out, size, "%s accepted (Elo nearer %+g than %+g)", d == SPRT_ACCEPT_H1 ? "H1" : "H0",
                 d == SPRT_ACCEPT_H1 ? sprt->elo1 : sprt->elo0, d == SPRT_ACCEPT_H1 ? sprt->elo0 : sprt->elo1);
}

SprtDecision stats_decide_sprt(const SprtParams *sprt, double llr)
{
    double lower, upper;
    stats_compute_bounds(sprt, &lower, &upper);
    if (llr >= upper)
        return SPRT_ACCEPT_H1;
    if (llr <= lower)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE;
}

/* snprintf at out + *len, keeping *len the length of the full line. */
#define APPEND(...)                                                                     \
    do {                                                                                \
        size_t used_ = (size_t)len < STATS_LINE_MAX ? (size_t)len : STATS_LINE_MAX - 1; \
        int n_ = snprintf(out + used_, STATS_LINE_MAX - used_, __VA_ARGS__);            \
        if (n_ > 0)                                                                     \
            len += n_;                                                                  \
    } while (0)

int stats_format_line(const MatchStats *st, const SprtParams *sprt, char out[STATS_LINE_MAX])
{
    int len = 0;
    int64_t pairs = stats_count_pairs(st);
    out[0] = '\0';

    APPEND("Games %lld: +%lld =%lld -%lld", (long long)stats_count_games(st), (long long)st->wins,
           (long long)st->draws, (long long)st->losses);

    EloEstimate est;
    int have = pairs > 0 ? stats_estimate_ptnml(st, &est) : stats_estimate_wdl(st, &est);
    if (have == 0) { /* a value that rounds to zero prints 0.0, not -0.0 */
        est.elo = num_shown(est.elo, 1);
        est.elo_lower = num_shown(est.elo_lower, 1);
        est.elo_upper = num_shown(est.elo_upper, 1);
    }
    const char *unit = pairs > 0 ? "pair" : "game";
    /* never "inf": a score of 0% or 100% has no finite Elo, and an
     * interval with an infinite end (its score bound at 0 or 1) is given
     * by its finite end */
    if (have == 0 && !isfinite(est.elo))
        APPEND(" | Elo not estimable (score %s)", est.elo > 0 ? "100%" : "0%");
    else if (have == 0 && stats_interval_estimable(&est) && isfinite(est.error))
        APPEND(" | Elo %.1f +/- %.1f (95%%)", est.elo, est.error);
    else if (have == 0 && stats_interval_estimable(&est) && isfinite(est.elo_lower))
        APPEND(" | Elo %.1f (95%% interval: > %.1f, upper end not estimable)", est.elo, est.elo_lower);
    else if (have == 0 && stats_interval_estimable(&est) && isfinite(est.elo_upper))
        APPEND(" | Elo %.1f (95%% interval: < %.1f, lower end not estimable)", est.elo, est.elo_upper);
    else if (have == 0 && stats_interval_estimable(&est))
        APPEND(" | Elo %.1f (95%% interval not estimable: both ends infinite)", est.elo);
    else if (have == 0 && est.n < 2)
        APPEND(" | Elo %.1f (interval not estimable from 1 %s)", est.elo, unit);
    else if (have == 0)
        APPEND(" | Elo %.1f (interval not estimable: all %lld %ss scored the same)", est.elo, (long long)est.n, unit);

    int64_t unpaired = stats_count_games(st) - pairs - pairs; /* counts near INT64_MAX: no 2 * pairs */
    if (pairs > 0 && unpaired > 0) /* a pair half played (an interrupted run): in W/D/L, not in the Elo */
        APPEND(" (of the %lld whole pairs; %lld unpaired game%s left out)", (long long)pairs, (long long)unpaired,
               unpaired == 1 ? "" : "s");

    if (pairs > 0)
        APPEND(" | Ptnml %lld,%lld,%lld,%lld,%lld", (long long)st->penta[0], (long long)st->penta[1],
               (long long)st->penta[2], (long long)st->penta[3], (long long)st->penta[4]);

    if (sprt) {
        double lower, upper;
        stats_compute_bounds(sprt, &lower, &upper);
        double llr = pairs > 0 ? stats_compute_llr_ptnml(st, sprt) : stats_compute_llr_wdl(st, sprt);
        APPEND(" | LLR %.2f (%.2f, %.2f) [%g, %g]", num_shown(llr, 2), lower, upper, sprt->elo0, sprt->elo1);
    }
    return len;
}
