/* ratings.h — ratings of many players fitted together by maximum likelihood
 * from their games, with draws modelled (as BayesElo and Ordo do for chess).
 *
 * Model (BayesElo's, R. Coulom, "Bayesian Elo Rating",
 * https://www.remi-coulom.fr/Bayesian-Elo/): for a game of White i against
 * Black j, with f(x) = 1 / (1 + 10^(-x/400)),
 *   P(White wins) = f(r_i - r_j + adv - draw_elo),
 *   P(Black wins) = f(r_j - r_i - adv - draw_elo),
 *   P(draw)       = 1 - P(White wins) - P(Black wins).
 * r_i is player i's rating in Elo, adv the first player's advantage (fitted
 * or fixed at 0), draw_elo > 0 sets how often games are drawn. All are
 * fitted together by Newton's method on the log-likelihood. Ratings are
 * fixed up to a constant: either the mean is 0 or one player (the anchor)
 * has a given rating. In this model the rating difference of two players
 * with equal draw tendency is larger than the "logistic Elo of the score"
 * that `dama match` reports when many games are drawn (the two agree when
 * draws are rare).
 *
 * Intervals: 95% = estimate -/+ 1.959964 standard errors, the standard
 * errors from the inverse of the observed information (the negated Hessian
 * of the log-likelihood at the maximum), taken relative to the mean (or to
 * the anchor, whose own interval is then zero-width).
 *
 * A prior of `prior` virtual games between every two players who met,
 * split evenly into wins and losses for each side and colour (each scores
 * 1/2, like BayesElo's virtual draws, but without telling the fit anything
 * about the draw rate), keeps the fit finite when a player won or lost
 * every game; prior 0 is the plain maximum-likelihood fit. With no draw
 * among the games (real or virtual), draw_elo is 0.
 *
 * Pure arithmetic: no I/O, no globals; thread-safe for distinct objects.
 */
#ifndef DAMA_RATINGS_H
#define DAMA_RATINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

enum {
    RATINGS_PLAYERS_MAX = 128, /* most players of one fit */
    RATINGS_ERR_MAX = ERR_MAX, /* the one message size, util/err.h */
    RATINGS_DISCONNECTED = -2  /* ratings_fit: players in groups that never met */
};

/* One game: player indices and White's score in half points (2 win, 1
 * draw, 0 loss). */
typedef struct RatingsGame {
    int white, black;
    int white_half;
} RatingsGame;

typedef struct RatingsOptions {
    int anchor;          /* index of the anchored player, or -1: mean 0 */
    double anchor_elo;   /* the anchor's rating */
    bool fit_advantage;  /* fit adv; false: adv = 0 */
    double prior;        /* virtual games per pair of players who met (>= 0) */
    const char *const *names; /* players' names for messages (borrowed, `players` of them), or NULL: indices */
} RatingsOptions;

typedef struct RatingsFit {
    int players;
    double elo[RATINGS_PLAYERS_MAX];
    double lower[RATINGS_PLAYERS_MAX]; /* 95% interval */
    double upper[RATINGS_PLAYERS_MAX];
    double error[RATINGS_PLAYERS_MAX]; /* 1.96 standard errors (half the interval) */
    int64_t games[RATINGS_PLAYERS_MAX];   /* real games played */
    double score[RATINGS_PLAYERS_MAX];    /* points scored (1 a win, 1/2 a draw) */
    double advantage, advantage_error;    /* White's advantage, Elo, and 1.96 s.e. (0 if not fitted) */
    double draw_elo, draw_elo_error;
    double log_likelihood;
    int iterations;
} RatingsFit;

/* Default options: mean 0, advantage fitted, prior 0, no names. */
void ratings_options_default(RatingsOptions *o);

/* Fit `players` players (1..RATINGS_PLAYERS_MAX) from games[0..len).
 * Returns 0 with *fit filled; RATINGS_DISCONNECTED with a message in err
 * when players are in two groups that never met (ratings not comparable);
 * or -1 with a message in err: a player index out of range or a result not
 * 0..2, a player without games, a bad option, or a fit that does not
 * converge (e.g. a player who won every game with prior 0: its rating is
 * infinite). */
int ratings_fit(int players, const RatingsGame *games, int64_t len, const RatingsOptions *opt,
                RatingsFit *fit, char err[RATINGS_ERR_MAX]);

/* Expected outcome probabilities of White i vs Black j under the model:
 * p[0] Black wins, p[1] draw, p[2] White wins (for simulations and tests). */
void ratings_model_probs(double elo_white, double elo_black, double advantage, double draw_elo, double p[3]);

#endif
