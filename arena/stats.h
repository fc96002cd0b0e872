/* stats.h — match statistics for engine-vs-engine matches: W/D/L and
 * pentanomial counts, logistic Elo with 95% confidence intervals, LOS and the
 * SPRT (log-likelihood ratio, bounds, decision), as fastchess / fishtest /
 * OpenBench report them.
 *
 * Everything is seen from engine A (the candidate): a win is A's win. A game
 * pair is the two games of one opening with colours swapped; its pair score
 * for A is 0, 0.5, 1, 1.5 or 2 points, counted in penta[0..4] (index = half
 * points). "Score" below always means the mean per-game score in [0, 1]; for
 * pairs that is pair score / 2.
 *
 * Pure arithmetic: no I/O, no globals. A MatchStats is plain data with no
 * lock; give each worker its own and combine them with stats_merge.
 *
 * Sources of the formulas:
 *  [FC] fastchess, app/src/matchmaking/elo/elo_wdl.cpp, elo_pentanomial.cpp
 *       and sprt/sprt.cpp (github.com/Disservin/fastchess);
 *  [FT] fishtest, server/fishtest/stats/stat_util.py and LLRcalc.py
 *       (github.com/official-stockfish/fishtest);
 *  [VdB] M. Van den Bergh, "A simple approximation of the GSPRT",
 *       https://www.cantate.be/Fishtest/GSPRT_approximation.pdf;
 *  [Wald] A. Wald, "Sequential Analysis" (1947): SPRT bounds.
 */
#ifndef DAMA_STATS_H
#define DAMA_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    STATS_PENTA_LEN = 5,  /* pair scores 0, 0.5, 1, 1.5, 2 */
    /* Summary line buffer, with its NUL: the longest line (every count near
     * INT64_MAX, |LLR| up to ~1e41, extreme but valid SPRT parameters) is
     * about 340 characters. */
    STATS_LINE_MAX = 384
};

/* Standard normal quantile for a two-sided 95% interval, Phi^-1(0.975). */
#define STATS_Z95 1.959964

/* One game's result for engine A; the value is A's score in half points. */
typedef enum StatsResult {
    STATS_LOSS = 0,
    STATS_DRAW = 1,
    STATS_WIN = 2
} StatsResult;

/* Result counts of a match, from engine A's view. wins/draws/losses count
 * every game added (paired or not); penta counts complete pairs only. */
typedef struct MatchStats {
    int64_t wins;
    int64_t draws;
    int64_t losses;
    int64_t penta[STATS_PENTA_LEN]; /* pairs by A's pair score in half points */
} MatchStats;

/* An Elo estimate from one model (trinomial W/D/L or pentanomial pairs).
 * Score interval: score -/+ STATS_Z95 * sqrt(variance / n), clamped to
 * [0, 1]; elo_lower/elo_upper are its ends mapped through
 * stats_score_to_elo, and error = (elo_upper - elo_lower) / 2 as [FC] and
 * [FT] get_elo report "Elo +/- error". */
typedef struct EloEstimate {
    int64_t n;          /* samples: games (trinomial) or pairs (pentanomial) */
    double score;       /* mean per-game score of A, in [0, 1] */
    double variance;    /* variance of one sample's per-game score */
    double score_lower; /* 95% interval of the score, within [0, 1] */
    double score_upper;
    double elo;         /* logistic Elo of score; -inf at 0, +inf at 1 */
    double elo_lower;   /* logistic Elo of score_lower / score_upper */
    double elo_upper;
    double error;       /* (elo_upper - elo_lower) / 2; +inf if an end is infinite */
    double los;         /* likelihood of superiority, P(A stronger), in [0, 1] */
} EloEstimate;

/* SPRT parameters: H0 elo = elo0 against H1 elo = elo1, both in logistic
 * Elo (fastchess's default "logistic" model); alpha = type I error (false
 * accept of H1), beta = type II error. */
typedef struct SprtParams {
    double alpha;
    double beta;
    double elo0;
    double elo1;
} SprtParams;

typedef enum SprtDecision {
    SPRT_CONTINUE = 0, /* lower < LLR < upper: play on */
    SPRT_ACCEPT_H0 = 1, /* LLR <= lower: elo0 holds (reject the change) */
    SPRT_ACCEPT_H1 = 2  /* LLR >= upper: elo1 holds (accept the change) */
} SprtDecision;

/* Zero every count. */
void stats_init(MatchStats *st);

/* Count one game. Returns 0, or -1 (st unchanged) if result is not a
 * StatsResult. Use stats_add_pair instead for the two games of a pair, so
 * that the pentanomial counts see them. */
int stats_add_game(MatchStats *st, StatsResult result);

/* Count the two games of one opening with colours swapped (results from A's
 * view, in either order): both go into W/D/L and the pair goes into
 * penta[first + second]. Returns 0, or -1 (st unchanged) if either result is
 * not a StatsResult. */
int stats_add_pair(MatchStats *st, StatsResult first, StatsResult second);

/* Add every count of `from` into `into` (combining per-worker stats). */
void stats_merge(MatchStats *into, const MatchStats *from);

/* Number of games: wins + draws + losses. */
int64_t stats_count_games(const MatchStats *st);

/* Number of complete pairs: sum of penta[]. */
int64_t stats_count_pairs(const MatchStats *st);

/* Logistic Elo of a per-game score: elo = -400 log10(1/score - 1)
 * (the inverse of stats_elo_to_score; [FC] scoreToEloDiff). Returns -INFINITY
 * for score <= 0 and +INFINITY for score >= 1 (a 0% or 100% result has no
 * finite Elo; we report it infinite rather than clamp as [FT] elo() does),
 * NaN for NaN. */
double stats_score_to_elo(double score);

/* Expected per-game score of a logistic Elo difference:
 * score = 1 / (1 + 10^(-elo/400)) ([FC] leloToScore, [FT] L). */
double stats_elo_to_score(double elo);

/* Trinomial estimate from W/D/L ([FC] EloWDL): game scores x in {0, 1/2, 1}
 * with frequencies L/n, D/n, W/n, n = games;
 *   score = (W + D/2) / n,  variance = sum p_x (x - score)^2  (per game),
 *   standard error se = sqrt(variance / n),
 *   LOS = Phi((score - 1/2) / se) = (1 + erf((score - 1/2) / (se sqrt 2))) / 2
 *   ([FC] los(), [FT] get_elo; with se = 0 it is 1, 1/2 or 0 by the sign of
 *   score - 1/2). Interval and error as documented at EloEstimate.
 * A variance of 0 (all games one result) gives a zero-width interval; a score
 * of 0 or 1 gives infinite Elo and error. Returns 0, or -1 (out zeroed) when
 * there are no games. Counts are used as they are (no regularization). */
int stats_estimate_wdl(const MatchStats *st, EloEstimate *out);

/* Pentanomial estimate from the pair counts ([FC] EloPentanomial): per-pair
 * scores x = pair score / 2 in {0, 1/4, 1/2, 3/4, 1}, n = pairs, and the same
 * formulas as stats_estimate_wdl with variance the per-pair variance of x, so
 * se = sqrt(variance / pairs). It accounts for the correlation of the two
 * games of an opening, which the trinomial model ignores. Returns 0, or -1
 * (out zeroed) when there are no pairs. */
int stats_estimate_ptnml(const MatchStats *st, EloEstimate *out);

/* Whether e's interval says anything: false with fewer than 2 samples or a
 * variance of 0 (every game, or every pair, scored the same: all draws,
 * all wins, every pair 1-1), where the normal interval has zero width (or
 * an infinite Elo at 0% or 100%) however few the games. */
bool stats_interval_estimable(const EloEstimate *e);

/* Check SPRT parameters: 0 < alpha < 1, 0 < beta < 1, alpha + beta < 1,
 * finite elo0 < elo1 (the checks of [FC] SPRT::isValid). Returns 0, or -1
 * with a message naming the bad field and value in err (NUL-terminated,
 * truncated to err_size bytes; err may be NULL when err_size is 0). */
int stats_check_sprt(const SprtParams *sprt, char *err, size_t err_size);

/* Wald's SPRT bounds [Wald], as [FC] and [FT]:
 *   lower = ln(beta / (1 - alpha)),  upper = ln((1 - beta) / alpha).
 * alpha = beta = 0.05 gives -/+ 2.944439. Parameters must pass
 * stats_check_sprt. */
void stats_compute_bounds(const SprtParams *sprt, double *lower, double *upper);

/* Log-likelihood ratio of H1 against H0 from the pair counts, by the normal
 * (Brownian) approximation of the generalized SPRT [VdB], which is [FT]
 * LLRcalc.LLR_alt2 times the sample count:
 *   s0 = stats_elo_to_score(elo0), s1 = stats_elo_to_score(elo1),
 *   c_k = penta[k], with any c_k = 0 replaced by 1e-3 ([FT] regularize,
 *         [FC] regularize: keeps the variance non-zero),
 *   N = sum c_k, p_k = c_k / N, x_k = k / 4,
 *   m = sum p_k x_k, v = sum p_k (x_k - m)^2   (per pair, of pair score / 2),
 *   LLR = (s1 - s0) (2m - s0 - s1) / (2 v / N).
 * (Current fishtest and fastchess compute the exact GLR from the maximum-
 * likelihood distributions; for the small Elo differences of SPRT the two
 * agree closely [VdB].) Returns 0 when there are no pairs. */
double stats_compute_llr_ptnml(const MatchStats *st, const SprtParams *sprt);

/* The same approximation on the trinomial counts: c = (L, D, W) regularized
 * as above, x = 0, 1/2, 1, N = games (not pairs). Returns 0 with no games.
 * Use it only for unpaired games: it ignores the pair correlation. */
double stats_compute_llr_wdl(const MatchStats *st, const SprtParams *sprt);

/* What an SPRT decision says, as a phrase for a result line: "H1 accepted
 * (A is stronger)" when elo0 >= 0, else "H1 accepted (Elo nearer elo1 than
 * elo0)" with the numbers (bounds below 0 test "not much weaker", not
 * "stronger"); H0 alike; "undecided" for SPRT_CONTINUE. */
void stats_sprt_phrase(const SprtParams *sprt, SprtDecision d, char *out, size_t size);

/* SPRT decision for an LLR against stats_compute_bounds: SPRT_ACCEPT_H1 when
 * LLR >= upper, SPRT_ACCEPT_H0 when LLR <= lower (the bounds themselves
 * stop the test, as in Wald's "continue while lower < LLR < upper"),
 * SPRT_CONTINUE otherwise, including a NaN LLR. */
SprtDecision stats_decide_sprt(const SprtParams *sprt, double llr);

/* One-line summary into out, always NUL-terminated, e.g.
 *   "Games 200: +55 =105 -40 | Elo 26.1 +/- 34.8 (95%) | Ptnml 5,20,40,25,10
 *    | LLR 0.68 (-2.94, 2.94) [0, 10]"   (one line, no newline).
 * The Elo part is pentanomial when there are pairs, trinomial otherwise, and
 * is left out with no games; at a score of 0% or 100% (an infinite Elo) it
 * is "Elo not estimable (score 100%)"; where stats_interval_estimable is
 * false it is the Elo alone, then "(interval not estimable from 1 pair)" or
 * "(interval not estimable: all N games scored the same)" instead of "+/-
 * 0.0 (95%)"; an interval with an infinite end is its finite end, "Elo
 * 88.7 (95% interval: > 12.3, upper end not estimable)" (or "< X, lower
 * end"), never "+/- inf"; with pairs and games outside them (a pair half
 * played: W/D/L count them) the Elo part ends "(of the N whole pairs; M
 * unpaired game(s) left out)"; the Ptnml part is
 * left out with no pairs; the LLR part (pentanomial LLR when there are pairs,
 * trinomial otherwise; bounds; [elo0, elo1]) is left out when sprt is NULL.
 * Any counts with parameters that pass stats_check_sprt fit. Returns the
 * length of the full line like snprintf (>= STATS_LINE_MAX would mean it was
 * truncated). */
int stats_format_line(const MatchStats *st, const SprtParams *sprt, char out[STATS_LINE_MAX]);

#endif
