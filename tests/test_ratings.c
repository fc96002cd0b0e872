/* test_ratings.c — the maximum-likelihood rating fit (play/ratings.h).
 *
 * Recovery: games are simulated from the fit's own model with known
 * ratings (fixed seeds), fitted, and every player's true rating is checked
 * against its 95% interval; the share of covered (trial, player) checks must
 * be at least 95%. Exact cases: symmetric results give equal ratings; an
 * anchor shifts every rating; bad input is refused with a message.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena/ratings.h"
#include "util/rng.h"

typedef struct RecoveryCase {
    const char *name;
    int players;
    double elo[8];     /* true ratings (any offset: compared after centring) */
    double advantage;  /* true White advantage */
    double draw_elo;   /* true draw_elo */
    int games_per_pair; /* per ordered pair of players (each colour) */
    int trials;
    uint64_t seed;
} RecoveryCase;

static const RecoveryCase RECOVERY[] = {
    {"4 players, many draws", 4, {0, 40, 80, 200}, 30, 200, 60, 100, 1},
    {"6 players, few draws, no advantage", 6, {-150, -50, 0, 20, 60, 120}, 0, 40, 40, 60, 2},
    {"3 players, close", 3, {0, 10, 25}, 15, 120, 150, 100, 3},
};

static void simulate(const RecoveryCase *c, uint64_t *rng, RatingsGame *games, int64_t *len)
{
    int64_t k = 0;
    for (int w = 0; w < c->players; w++)
        for (int b = 0; b < c->players; b++) {
            if (w == b) continue;
            double p[3];
            ratings_model_probs(c->elo[w], c->elo[b], c->advantage, c->draw_elo, p);
            for (int i = 0; i < c->games_per_pair; i++) {
                double u = rng_unit(rng);
                int half = u < p[0] ? 0 : u < p[0] + p[1] ? 1 : 2;
                games[k++] = (RatingsGame){.white = w, .black = b, .white_half = half};
            }
        }
    *len = k;
}

static void test_recovery(void **state)
{
    (void)state;
    int64_t checks = 0, covered = 0, adv_checks = 0, adv_covered = 0;
    for (size_t ci = 0; ci < sizeof RECOVERY / sizeof RECOVERY[0]; ci++) {
        const RecoveryCase *c = &RECOVERY[ci];
        RatingsGame *games = malloc(sizeof *games * (size_t)(c->players * c->players * c->games_per_pair));
        assert_non_null(games);
        double mean = 0;
        for (int i = 0; i < c->players; i++) mean += c->elo[i] / c->players;
        uint64_t rng = c->seed;
        int64_t case_checks = 0, case_covered = 0;
        for (int t = 0; t < c->trials; t++) {
            int64_t len;
            simulate(c, &rng, games, &len);
            RatingsOptions o;
            ratings_options_default(&o);
            o.fit_advantage = c->advantage != 0;
            RatingsFit fit;
            char err[RATINGS_ERR_MAX];
            int rc = ratings_fit(c->players, games, len, &o, &fit, err);
            if (rc != 0) fail_msg("%s, trial %d: %s", c->name, t, err);
            double sum = 0;
            for (int i = 0; i < c->players; i++) {
                double truth = c->elo[i] - mean;
                case_checks++;
                if (fit.lower[i] <= truth && truth <= fit.upper[i]) case_covered++;
                assert_true(fit.upper[i] - fit.lower[i] > 0);
                sum += fit.elo[i];
            }
            assert_true(fabs(sum) < 1e-6); /* mean 0 */
            if (o.fit_advantage) {
                adv_checks++;
                if (fabs(fit.advantage - c->advantage) <= fit.advantage_error) adv_covered++;
            }
        }
        printf("# %s: %lld of %lld ratings within their 95%% intervals (%.1f%%)\n", c->name,
               (long long)case_covered, (long long)case_checks, 100.0 * (double)case_covered / (double)case_checks);
        checks += case_checks;
        covered += case_covered;
        free(games);
    }
    printf("# all cases: %lld of %lld (%.1f%%); White advantage within its interval in %lld of %lld trials\n",
           (long long)covered, (long long)checks, 100.0 * (double)covered / (double)checks, (long long)adv_covered,
           (long long)adv_checks);
    assert_true(checks == 4 * 100 + 6 * 60 + 3 * 100);
    assert_true(covered * 100 >= checks * 95);
    assert_true(adv_covered * 100 >= adv_checks * 90);
}

/* Every pair of players splits its games evenly with each colour: equal
 * ratings, and no advantage. */
static void test_symmetric(void **state)
{
    (void)state;
    RatingsGame games[3 * 2 * 4];
    int k = 0;
    for (int w = 0; w < 3; w++)
        for (int b = 0; b < 3; b++) {
            if (w == b) continue;
            games[k++] = (RatingsGame){w, b, 2};
            games[k++] = (RatingsGame){w, b, 0};
            games[k++] = (RatingsGame){w, b, 1};
            games[k++] = (RatingsGame){w, b, 1};
        }
    RatingsOptions o;
    ratings_options_default(&o);
    RatingsFit fit;
    char err[RATINGS_ERR_MAX];
    assert_int_equal(ratings_fit(3, games, k, &o, &fit, err), 0);
    for (int i = 0; i < 3; i++) {
        assert_true(fabs(fit.elo[i]) < 1e-3);
        assert_true(fit.error[i] > 50); /* 16 games each: wide */
        assert_int_equal(fit.games[i], 16);
        assert_true(fabs(fit.score[i] - 8) < 1e-12);
    }
    assert_true(fabs(fit.advantage) < 1e-3);
    /* p(draw) = 1/2 at equal ratings: 1 - 2 f(-d) = 1/2, f(-d) = 1/4, d = 400 log10(3) */
    assert_true(fabs(fit.draw_elo - 400 * log10(3.0)) < 0.01);

    /* an anchor moves every rating by the same amount; its interval is zero-width */
    o.anchor = 1;
    o.anchor_elo = 2000;
    assert_int_equal(ratings_fit(3, games, k, &o, &fit, err), 0);
    for (int i = 0; i < 3; i++) assert_true(fabs(fit.elo[i] - 2000) < 1e-3);
    assert_true(fit.error[1] == 0);
    assert_true(fit.error[0] > 50);
}

/* Two players: the fit's difference equals the closed form of the model.
 * With adv = 0, W wins, D draws, L losses: f(D_elo - d) = W/n and
 * f(-D_elo - d) = L/n, so D_elo = 200 (logit(W/n) - logit(L/n)) / ln 10 * 2 / 2. */
static void test_two_players_closed_form(void **state)
{
    (void)state;
    RatingsGame games[40];
    int k = 0;
    /* player 1 scores 20 wins, 12 draws, 8 losses against player 0, colours balanced */
    for (int i = 0; i < 20; i++) games[k++] = (RatingsGame){i % 2 ? 1 : 0, i % 2 ? 0 : 1, i % 2 ? 2 : 0};
    for (int i = 0; i < 12; i++) games[k++] = (RatingsGame){i % 2, 1 - i % 2, 1};
    for (int i = 0; i < 8; i++) games[k++] = (RatingsGame){i % 2 ? 1 : 0, i % 2 ? 0 : 1, i % 2 ? 0 : 2};
    RatingsOptions o;
    ratings_options_default(&o);
    o.fit_advantage = false;
    RatingsFit fit;
    char err[RATINGS_ERR_MAX];
    assert_int_equal(ratings_fit(2, games, k, &o, &fit, err), 0);
    double pw = 20.0 / 40, pl = 8.0 / 40;
    /* K x_w = logit(pw), K x_l = logit(pl); x_w - x_l = 2 diff */
    double diff = (log(pw / (1 - pw)) - log(pl / (1 - pl))) / (2 * log(10.0) / 400);
    double draw = -(log(pw / (1 - pw)) + log(pl / (1 - pl))) / (2 * log(10.0) / 400);
    assert_true(fabs((fit.elo[1] - fit.elo[0]) - diff) < 0.01);
    assert_true(fabs(fit.draw_elo - draw) < 0.01);
    assert_true(fabs(fit.elo[0] + fit.elo[1]) < 1e-6);
}

typedef struct BadCase {
    const char *name;
    int players;
    RatingsGame games[4];
    int len;
    double prior;
    const char *message;
} BadCase;

static const BadCase BAD[] = {
    {"player out of range", 2, {{0, 2, 1}}, 1, 0, "out of range"},
    {"result out of range", 2, {{0, 1, 3}}, 1, 0, "out of range"},
    {"same player", 2, {{1, 1, 1}}, 1, 0, "out of range"},
    {"player without games", 3, {{0, 1, 1}, {1, 0, 2}}, 2, 0, "player 'C' has no games"},
    {"two groups", 4, {{0, 1, 1}, {1, 0, 2}, {2, 3, 1}, {3, 2, 0}}, 4, 0, "players 'A' and 'C' are in groups that never met"},
    {"all wins, no prior", 2, {{0, 1, 2}, {1, 0, 0}, {0, 1, 2}, {1, 0, 0}}, 4, 0, "infinite rating: give a prior of virtual games"},
    {"negative prior", 2, {{0, 1, 2}}, 1, -1, "prior"},
};

static void test_bad_input(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        const BadCase *c = &BAD[i];
        RatingsOptions o;
        ratings_options_default(&o);
        o.prior = c->prior;
        static const char *const names[] = {"A", "B", "C", "D"}; /* messages name players by name */
        o.names = names;
        RatingsFit fit;
        char err[RATINGS_ERR_MAX] = "";
        int rc = ratings_fit(c->players, c->games, c->len, &o, &fit, err);
        int want = strstr(c->message, "never met") ? RATINGS_DISCONNECTED : -1;
        if (rc != want || !strstr(err, c->message)) fail_msg("%s: rc %d, message '%s'", c->name, rc, err);
    }
    { /* without names: indices */
        RatingsOptions o;
        ratings_options_default(&o);
        RatingsFit fit;
        char err[RATINGS_ERR_MAX] = "";
        assert_int_equal(ratings_fit(4, BAD[4].games, BAD[4].len, &o, &fit, err), RATINGS_DISCONNECTED);
        assert_non_null(strstr(err, "players 0 and 2 are in groups that never met"));
    }
    /* the same all-wins games with a prior: finite, the winner ahead */
    RatingsOptions o;
    ratings_options_default(&o);
    o.prior = 2;
    RatingsFit fit;
    char err[RATINGS_ERR_MAX];
    if (ratings_fit(2, BAD[5].games, 4, &o, &fit, err) != 0) fail_msg("prior 2: %s", err);
    assert_true(fit.elo[0] > 50 && isfinite(fit.elo[0]));
    assert_true(fabs(fit.elo[0] + fit.elo[1]) < 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recovery),
        cmocka_unit_test(test_symmetric),
        cmocka_unit_test(test_two_players_closed_form),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
