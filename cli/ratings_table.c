/* ratings_table.c — printing rating fits; see ratings_table.h. */
#include "cli/ratings_table.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/num.h"
#include "util/text.h"

int ratings_parse_anchor(const char *text, const char *const *names, int len, int *index, double *elo,
                         char err[ERR_MAX])
{
    const char *eq = strrchr(text, '=');
    size_t n = eq ? (size_t)(eq - text) : strlen(text);
    *elo = 0;
    if (eq) { /* decimal only: strtod alone read "0x10" as 16 and " 100" as 100 */
        if (num_parse_real(eq + 1, -DBL_MAX, DBL_MAX, elo) != NUM_OK) {
            snprintf(err, ERR_MAX, "--anchor '%.100s': '%.40s' is not a rating", text, eq + 1);
            return -1;
        }
        if (fabs(*elo) > RATINGS_ANCHOR_MAX) { /* 1e308 printed a 300-digit rating */
            snprintf(err, ERR_MAX, "--anchor '%.100s': rating %.40s is beyond +-%d Elo", text, eq + 1,
                     RATINGS_ANCHOR_MAX);
            return -1;
        }
    }
    for (int i = 0; i < len; i++)
        if (strlen(names[i]) == n && strncmp(names[i], text, n) == 0) {
            *index = i;
            return 0;
        }
    /* the rated players are those of the games selected (a --filter may leave one out) */
    snprintf(err, ERR_MAX, "--anchor '%.100s': no player named '%.*s' among the %d rated (%s%s%s%s)", text,
             (int)(n > 80 ? 80 : n), text, len, len > 0 ? names[0] : "", len > 1 ? ", " : "",
             len > 1 ? names[1] : "", len > 2 ? ", ..." : "");
    return -1;
}

static const RatingsFit *sort_fit;

static int by_elo(const void *a, const void *b)
{
    double ea = sort_fit->elo[*(const int *)a], eb = sort_fit->elo[*(const int *)b];
    return ea < eb ? 1 : ea > eb ? -1 : *(const int *)a - *(const int *)b;
}

void ratings_table_print(FILE *out, const RatingsFit *fit, const char *const *names, const RatingsOptions *opt)
{
    int order[RATINGS_PLAYERS_MAX];
    for (int i = 0; i < fit->players; i++) order[i] = i;
    sort_fit = fit; /* qsort has no context argument; printing is single-threaded */
    qsort(order, (size_t)fit->players, sizeof order[0], by_elo);
    int width = 4;
    for (int i = 0; i < fit->players; i++)
        if (text_chars(names[i]) > width) width = text_chars(names[i]);
    if (width > 40) width = 40;
    fprintf(out, "%4s  %-*s %8s %7s  %-19s %7s %7s\n", "rank", width, "name", "Elo", "+/-", "95% interval", "games",
            "score");
    for (int k = 0; k < fit->players; k++) {
        int i = order[k];
        char interval[48];
        snprintf(interval, sizeof interval, "[%.1f, %.1f]", num_shown(fit->lower[i], 1), num_shown(fit->upper[i], 1));
        double pct = fit->games[i] ? 100.0 * fit->score[i] / (double)fit->games[i] : 0;
        char name[4 * 40 + 1];
        fprintf(out, "%4d  %s %8.1f %7.1f  %-19s %7lld %6.1f%%\n", k + 1, text_column(names[i], width, name, sizeof name),
                num_shown(fit->elo[i], 1), fit->error[i], interval, (long long)fit->games[i], pct);
    }
    /* (num_shown: a fit's 0 comes out as -1e-17 as often as +1e-17; printed as 0.0) */
    /* no draw among the games: draw_elo is 0 by definition, not a fit (arena/ratings.h) */
    char draws[64] = "draw_elo 0 (no draws)";
    if (fit->draw_elo != 0 || fit->draw_elo_error != 0)
        snprintf(draws, sizeof draws, "draw_elo %.1f +/- %.1f", num_shown(fit->draw_elo, 1), fit->draw_elo_error);
    /* (+ 0.0: a prior given as -0 is printed as 0) */
    fprintf(out, "White advantage %.1f +/- %.1f Elo%s, %s; %s, prior %g virtual games per pair\n",
            num_shown(fit->advantage, 1), fit->advantage_error, opt->fit_advantage ? "" : " (not fitted)", draws,
            opt->anchor >= 0 ? "anchored" : "mean 0", opt->prior + 0.0);
}
