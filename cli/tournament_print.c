/* tournament_print.c — a tournament's crosstable and ratings as `dama
 * tournament` prints them (contracts in cli/tournament_print.h). */
#include "cli/tournament_print.h"

#include <stdlib.h>
#include <string.h>

#include "arena/match_draws.h"
#include "arena/ratings.h"
#include "arena/stats.h"
#include "cli/ratings_table.h"
#include "util/text.h"

void tournament_print_results(FILE *out, const TournamentResult *t)
{
    int n = t->engines_len;
    double score[TOURNAMENT_ENGINES_MAX][TOURNAMENT_ENGINES_MAX] = {{0}};
    int games[TOURNAMENT_ENGINES_MAX][TOURNAMENT_ENGINES_MAX] = {{0}}, draws[TOURNAMENT_ENGINES_MAX][TOURNAMENT_ENGINES_MAX] = {{0}};
    for (int64_t gi = 0; gi < t->games_total; gi++) {
        if (t->result[gi] < 0) continue;
        int w, b;
        tournament_game_players(t, gi, &w, &b);
        score[w][b] += t->result[gi] / 2.0;
        score[b][w] += (2 - t->result[gi]) / 2.0;
        games[w][b]++;
        games[b][w]++;
        if (t->result[gi] == 1) draws[w][b]++, draws[b][w]++;
    }
    int width = 6;
    for (int i = 0; i < n; i++)
        if (text_chars(t->engines[i].name) > width) width = text_chars(t->engines[i].name);
    if (width > 24) width = 24;
    fprintf(out, "crosstable: points of the row against the column (games, draws)\n%-*s", width + 2, "");
    char name[4 * 24 + 1];
    for (int j = 0; j < n; j++) { /* right-aligned in 16 characters */
        int c = text_chars(t->engines[j].name);
        if (c > 16) c = 16;
        fprintf(out, " %*s%s", 16 - c, "", text_column(t->engines[j].name, c, name, sizeof name));
    }
    fprintf(out, " %16s\n", "total");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s  ", text_column(t->engines[i].name, width, name, sizeof name));
        double total = 0;
        int tg = 0;
        for (int j = 0; j < n; j++) {
            if (i == j || games[i][j] == 0) {
                fprintf(out, " %16s", i == j ? "-" : "");
                continue;
            }
            char cell[48];
            snprintf(cell, sizeof cell, "%.1f (%d, %d)", score[i][j], games[i][j], draws[i][j]);
            fprintf(out, " %16s", cell);
            total += score[i][j];
            tg += games[i][j];
        }
        char cell[48];
        snprintf(cell, sizeof cell, "%.1f/%d", total, tg);
        fprintf(out, " %16s\n", cell);
    }
    fprintf(out, "pairings (first named = A; pentanomial counts of A's pair scores 0, 1/2, 1, 3/2, 2):\n");
    for (int k = 0; k < t->pairings; k++) {
        MatchStats st;
        stats_init(&st);
        for (int r = 0; r < t->rounds; r++) {
            int64_t g0 = ((int64_t)r * t->pairings + k) * 2;
            int res[2] = {-1, -1};
            for (int c = 0; c < 2; c++) {
                int v = t->result[g0 + c];
                if (v < 0) continue;
                res[c] = c == 0 ? v : 2 - v; /* A's half points: A is White in game 0 */
            }
            if (res[0] >= 0 && res[1] >= 0) stats_add_pair(&st, (StatsResult)res[0], (StatsResult)res[1]);
            else if (res[0] >= 0) stats_add_game(&st, (StatsResult)res[0]);
            else if (res[1] >= 0) stats_add_game(&st, (StatsResult)res[1]);
        }
        if (stats_count_games(&st) == 0) continue;
        char line[STATS_LINE_MAX];
        stats_format_line(&st, NULL, line);
        fprintf(out, "  %s vs %s: %s\n", t->engines[t->pair_a[k]].name, t->engines[t->pair_b[k]].name, line);
    }
}

void tournament_print_missed(FILE *out, const TournamentResult *t, const char *dir)
{
    if (!t->missed) return;
    if (!dir) dir = "?"; /* the options' --egtb, set whenever tables were opened */
    fprintf(out, "missed wins per pairing (first named = A; endgame tables of %s):\n", dir);
    for (int k = 0; k < t->pairings; k++) {
        bool played = false;
        for (int r = 0; r < t->rounds && !played; r++) {
            int64_t g0 = ((int64_t)r * t->pairings + k) * 2;
            played = t->result[g0] >= 0 || t->result[g0 + 1] >= 0;
        }
        if (!played) continue;
        fprintf(out, "  %s vs %s: ", t->engines[t->pair_a[k]].name, t->engines[t->pair_b[k]].name);
        match_draws_print_missed(out, t->missed[k][0], &t->missed[k][1], dir); /* the line of dama match */
    }
}

/* Whether engine i plays on time (a movetime or a clock), not at a fixed
 * depth or node count. */
static bool on_time(const TournamentResult *t, int i)
{
    return t->engines[i].limits.movetime_ms > 0 || t->engines[i].limits.time_ms > 0;
}

/* The engines that used the most and the least time by measure m (0:
 * wall, 1: CPU) among those with timed moves and a mean of that measure
 * (a DXP program's CPU time is not measured: 0); -1 when none. Where two
 * or more play on time, only those are compared: a depth- or node-limited
 * player beside them (a gauntlet's) is not meant to use their time. */
static void time_extremes(const TournamentResult *t, int m, int *most, int *least)
{
    *most = *least = -1;
    int timed = 0;
    for (int i = 0; i < t->engines_len; i++) timed += t->time[i].moves > 0 && on_time(t, i);
    for (int i = 0; i < t->engines_len; i++) {
        if (t->time[i].moves <= 0 || (timed >= 2 && !on_time(t, i))) continue;
        double v = m ? time_use_cpu_ms(&t->time[i]) : time_use_wall_ms(&t->time[i]);
        if (!(v > 0)) continue;
        if (*most < 0 || v > (m ? time_use_cpu_ms(&t->time[*most]) : time_use_wall_ms(&t->time[*most]))) *most = i;
        if (*least < 0 || v < (m ? time_use_cpu_ms(&t->time[*least]) : time_use_wall_ms(&t->time[*least]))) *least = i;
    }
}

void tournament_print_times(FILE *out, const TournamentResult *t)
{
    if (!t->timed) return;
    int width = 6;
    for (int i = 0; i < t->engines_len; i++)
        if (text_chars(t->engines[i].name) > width) width = text_chars(t->engines[i].name);
    if (width > 24) width = 24;
    fprintf(out, "time used per move (all stored games):\n");
    for (int i = 0; i < t->engines_len; i++) {
        char text[128];
        time_use_format(&t->time[i], text, sizeof text);
        char name[4 * 24 + 1];
        fprintf(out, "  %s  %s\n", text_column(t->engines[i].name, width, name, sizeof name), text);
    }
    /* the most against the least, by the measure whose spread is larger */
    TimeCompare best = {0};
    int pair[2] = {-1, -1};
    for (int m = 0; m < 2; m++) {
        int most, least;
        time_extremes(t, m, &most, &least);
        if (most < 0 || most == least) continue;
        TimeCompare c;
        time_use_compare(&t->time[most], &t->time[least], TIME_USE_EQUAL, &c);
        if (c.known && (!best.known || (!c.equal && c.pct_more > best.pct_more) || (best.equal && !c.equal)))
            best = c, pair[0] = most, pair[1] = least;
    }
    char verdict[320];
    if (pair[0] < 0) snprintf(verdict, sizeof verdict, "time used: not measured");
    else
        time_use_verdict(&best, TIME_USE_EQUAL, t->engines[pair[0]].name, t->engines[pair[1]].name, verdict,
                         sizeof verdict);
    int timed = 0, fixed = 0;
    for (int i = 0; i < t->engines_len; i++)
        if (t->time[i].moves > 0) timed += on_time(t, i), fixed += !on_time(t, i);
    fprintf(out, "  %s%s\n", verdict,
            timed >= 2 && fixed ? " among the engines on time (those at a fixed depth or node count left out)" : "");
    if (t->untimed) fprintf(out, "  (%lld engine-games stored without their times are left out)\n", (long long)t->untimed);
}

void tournament_print_ratings(FILE *out, const TournamentResult *t, double prior, const char *anchor)
{
    RatingsGame *games = malloc(sizeof *games * (size_t)(t->games_total ? t->games_total : 1));
    if (!games) return;
    int64_t len = 0;
    for (int64_t gi = 0; gi < t->games_total; gi++) {
        if (t->result[gi] < 0) continue;
        int w, b;
        tournament_game_players(t, gi, &w, &b);
        games[len++] = (RatingsGame){w, b, t->result[gi]};
    }
    const char *names[TOURNAMENT_ENGINES_MAX];
    for (int i = 0; i < t->engines_len; i++) names[i] = t->engines[i].name;
    RatingsOptions opt;
    ratings_options_default(&opt);
    opt.prior = prior;
    opt.names = names;
    char err[ERR_MAX];
    if (anchor && ratings_parse_anchor(anchor, names, t->engines_len, &opt.anchor, &opt.anchor_elo,
                                                     err) != 0) {
        fprintf(out, "ratings: %s\n", err);
        free(games);
        return;
    }
    RatingsFit fit;
    char rerr[RATINGS_ERR_MAX];
    if (len == 0) fprintf(out, "ratings: no games yet\n");
    else if (ratings_fit(t->engines_len, games, len, &opt, &fit, rerr) != 0) fprintf(out, "%s\n", rerr);
    else {
        fprintf(out, "ratings after %lld games (maximum likelihood, all players together):\n", (long long)len);
        ratings_table_print(out, &fit, names, &opt);
    }
    free(games);
}
