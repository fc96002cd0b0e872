/* test_schedule.c — the tournament scheduler (play/schedule.h): every game
 * of every job reported once with the players job_game named, results that
 * do not depend on the number of threads, a halt that lets the jobs under
 * way finish, the stop flag, failing callbacks. In-process Russian engines
 * at a few nodes per move. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/game.h"
#include "arena/schedule.h"
#include "engine/search.h"

enum { JOBS_MAX = 24, PLAYERS = 3 };

typedef struct Seen {
    const Game *g;
    int games_per_job;
    int reported[JOBS_MAX][2];
    int white[JOBS_MAX][2], black[JOBS_MAX][2];
    int plies[JOBS_MAX][2];
    Outcome outcome[JOBS_MAX][2];
    int jobs_done, halt_after, fail_at, made;
} Seen;

/* job j, game k: players (j % 3, (j + 1) % 3), swapped for k = 1 */
static void job_game(void *ctx, int64_t job, int k, int *white, int *black, Position *start)
{
    Seen *s = ctx;
    int a = (int)(job % PLAYERS), b = (int)((job + 1) % PLAYERS);
    *white = k ? b : a;
    *black = k ? a : b;
    char err[ERR_MAX];
    s->g->pos_from_fen(start, s->g->start_fen, err);
}

static int game_done(void *ctx, int64_t job, int k, int white, int black, const PlayRecord *rec, char err[ERR_MAX])
{
    Seen *s = ctx;
    s->reported[job][k]++;
    s->white[job][k] = white;
    s->black[job][k] = black;
    s->plies[job][k] = rec->plies;
    s->outcome[job][k] = rec->outcome;
    if (s->fail_at && job == s->fail_at) {
        snprintf(err, ERR_MAX, "job %lld refused", (long long)job);
        return -1;
    }
    return 0;
}

static int job_done(void *ctx, int64_t job, char err[ERR_MAX])
{
    (void)job;
    (void)err;
    Seen *s = ctx;
    s->jobs_done++;
    return s->halt_after && s->jobs_done >= s->halt_after ? 1 : 0;
}

static void player_made(void *ctx, int index, Player *p)
{
    Seen *s = ctx;
    assert_true(index >= 0 && index < PLAYERS);
    assert_non_null(player_engine(p)); /* in-process */
#pragma omp atomic
    s->made++;
}

typedef struct Case {
    const char *what;
    int jobs, games_per_job, concurrency;
    int halt_after, fail_at;
    bool stop_first;
    int rc;
    int jobs_min, jobs_max; /* finished jobs */
} Case;

static const Case CASES[] = {
    {"single games, 1 thread", 6, 1, 1, 0, 0, false, 0, 6, 6},
    {"single games, 2 threads", 6, 1, 2, 0, 0, false, 0, 6, 6},
    {"pairs, 2 threads", 8, 2, 2, 0, 0, false, 0, 8, 8},
    {"more threads than jobs", 2, 2, 4, 0, 0, false, 0, 2, 2},
    {"halt after 3 pairs: those under way finish", 12, 2, 2, 3, 0, false, 0, 3, 4},
    {"halt after 1 game, 1 thread", 12, 1, 1, 1, 0, false, 0, 1, 1},
    {"stop flag raised first", 6, 1, 2, 0, 0, true, 1, 0, 0},
    {"a failing callback", 6, 1, 1, 0, 2, false, -1, 2, 2},
    {"no jobs", 0, 1, 2, 0, 0, false, 0, 0, 0},
};

static void run_case(const Case *c, Seen *seen)
{
    const Game *g = game_find("russian");
    PlayerSpec specs[PLAYERS];
    char err[ERR_MAX];
    PlayerLimits lim = {.nodes = 60};
    for (int i = 0; i < PLAYERS; i++) {
        char text[32];
        snprintf(text, sizeof text, "name=P%d", i);
        assert_int_equal(player_spec_parse(g, text, i, &lim, 1, &specs[i], err), 0);
    }
    memset(seen, 0, sizeof *seen);
    seen->g = g;
    seen->games_per_job = c->games_per_job;
    seen->halt_after = c->halt_after;
    seen->fail_at = c->fail_at;
    volatile int stop = c->stop_first;
    Schedule s = {.game = g, .players_len = PLAYERS, .specs = specs, .jobs_len = c->jobs,
                  .games_per_job = c->games_per_job, .concurrency = c->concurrency,
                  .settings = {.max_plies = 40}, .stop = &stop, .ctx = seen, .job_game = job_game,
                  .player_made = player_made, .game_done = game_done, .job_done = job_done};
    ScheduleStats st;
    err[0] = '\0';
    int rc = schedule_run(&s, &st, err);
    assert_int_equal(rc, c->rc);
    if (c->rc < 0) assert_non_null(strstr(err, "refused"));
    if (c->rc >= 0) {
        assert_in_range(st.jobs, c->jobs_min, c->jobs_max);
        assert_int_equal(st.games, st.jobs * c->games_per_job);
        assert_int_equal(st.halted, c->halt_after > 0);
    }
    int64_t reported = 0;
    for (int j = 0; j < c->jobs; j++)
        for (int k = 0; k < c->games_per_job; k++) {
            assert_true(seen->reported[j][k] <= 1);
            if (!seen->reported[j][k]) continue;
            reported++;
            int w, b;
            Position start;
            job_game(seen, j, k, &w, &b, &start);
            assert_int_equal(seen->white[j][k], w);
            assert_int_equal(seen->black[j][k], b);
            assert_true(seen->plies[j][k] > 0 && seen->plies[j][k] <= 40);
            assert_int_not_equal(seen->outcome[j][k], OUTCOME_NONE);
        }
    if (c->rc >= 0) assert_int_equal(reported, st.games);
    /* each thread makes a player once per participant it meets */
    assert_true(seen->made <= PLAYERS * (c->concurrency < c->jobs ? c->concurrency : (c->jobs ? c->jobs : 1)));
    if (c->rc >= 0 && st.games > 0) {
        assert_true(st.engine_s > 0);
        double share = schedule_outside_share(&st);
        assert_true(share >= 0 && share < 1);
    }
}

static void test_cases(void **state)
{
    (void)state;
    static Seen seen;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        fprintf(stderr, "case: %s\n", CASES[i].what);
        run_case(&CASES[i], &seen);
    }
}

/* The same games with 1 and 2 threads: a game depends only on its job. */
static void test_threads_do_not_change_games(void **state)
{
    (void)state;
    static Seen one, two;
    Case c1 = {"1 thread", 8, 2, 1, 0, 0, false, 0, 8, 8}, c2 = c1;
    c2.concurrency = 2;
    run_case(&c1, &one);
    run_case(&c2, &two);
    for (int j = 0; j < 8; j++)
        for (int k = 0; k < 2; k++) {
            assert_int_equal(one.plies[j][k], two.plies[j][k]);
            assert_int_equal(one.outcome[j][k], two.outcome[j][k]);
        }
}

static void test_outside_share(void **state)
{
    (void)state;
    ScheduleStats st = {.wall_s = 10, .engine_s = 19, .slots = 2};
    assert_true(schedule_outside_share(&st) > 0.0499 && schedule_outside_share(&st) < 0.0501);
    st.engine_s = 25; /* clock noise: never negative */
    assert_true(schedule_outside_share(&st) == 0);
    st = (ScheduleStats){0};
    assert_true(schedule_outside_share(&st) == 0);
}

/* dxp=HOST:PORT,cmd=...: a DXP program that dama starts (cmd= keeps its
 * commas, as always); dxp= alone none; cmd= alone a Hub engine. */
static void test_spec_dxp_launch(void **state)
{
    (void)state;
    PlayerLimits lim = {.nodes = 100};
    PlayerSpec s;
    char err[ERR_MAX];
    const Game *g = game_find("russian");
    assert_int_equal(player_spec_parse(g, "name=D,dxp=127.0.0.1:27600,time=5000+50,cmd=dama dxp --listen 27600,x", 0,
                                       &lim, 1, &s, err), 0);
    assert_int_equal(s.kind, PLAYER_DXP);
    assert_string_equal(s.spec, "127.0.0.1:27600");
    assert_string_equal(s.launch, "dama dxp --listen 27600,x");
    assert_int_equal(s.limits.time_ms, 5000);
    assert_int_equal(s.limits.inc_ms, 50);
    assert_int_equal(player_spec_parse(g, "name=D,dxp=127.0.0.1:27600", 0, &lim, 1, &s, err), 0);
    assert_int_equal(s.kind, PLAYER_DXP);
    assert_string_equal(s.launch, "");
    assert_int_equal(player_spec_parse(g, "name=H,cmd=dama hub", 0, &lim, 1, &s, err), 0);
    assert_int_equal(s.kind, PLAYER_HUB);
    assert_string_equal(s.spec, "dama hub");
    assert_string_equal(s.launch, "");
    assert_int_equal(player_spec_parse(g, "name=D,dxp=127.0.0.1:27600,cmd=", 0, &lim, 1, &s, err), -1);
    assert_non_null(strstr(err, "empty cmd"));
    /* port 0: the port the program prints, so dama must start it */
    assert_int_equal(player_spec_parse(g, "name=D,dxp=127.0.0.1:0,cmd=dama dxp --listen 0", 0, &lim, 1, &s, err), 0);
    assert_string_equal(s.spec, "127.0.0.1:0");
    assert_string_equal(s.launch, "dama dxp --listen 0");
    assert_int_equal(player_spec_parse(g, "name=D,dxp=127.0.0.1:0,nodes=5", 0, &lim, 1, &s, err), -1);
    assert_string_equal(err, "engine 'name=D,dxp=127.0.0.1:0,nodes=5': dxp=127.0.0.1:0: port 0 is the port the "
                             "program picks, read from its output: give cmd= to start it");
    /* one engine a spec: a second weights=, cmd= or dxp= is refused (the last one won) */
    assert_int_equal(player_spec_parse(g, "name=r,dxp=127.0.0.1:5,weights=default", 0, &lim, 1, &s, err), -1);
    assert_string_equal(err, "engine 'name=r,dxp=127.0.0.1:5,weights=default': weights= after dxp=: give one of "
                             "weights=, cmd= or dxp= (with dxp=, cmd= starts the program)");
    assert_int_equal(player_spec_parse(g, "name=r,weights=x.cfg,cmd=dama hub", 0, &lim, 1, &s, err), -1);
    assert_non_null(strstr(err, "cmd= after weights="));
    assert_int_equal(player_spec_parse(g, "name=r,weights=a,weights=b", 0, &lim, 1, &s, err), -1);
    assert_non_null(strstr(err, "weights= given twice"));
    assert_int_equal(player_spec_parse(g, "name=r,dxp=127.0.0.1:5,dxp=127.0.0.1:6", 0, &lim, 1, &s, err), -1);
    assert_non_null(strstr(err, "dxp= given twice"));
    assert_int_equal(player_spec_parse(g, "name=D,dxp=127.0.0.1:65536,cmd=x", 0, &lim, 1, &s, err), -1);
    assert_non_null(strstr(err, "port '65536' must be a number 0..65535"));
}

/* param.NAME=VALUE: an in-process engine's search constant, checked at
 * parse time and set in the engine player_new makes; a Hub engine's kept
 * as given; two limits, a repeated param and an empty spec refused. */
static void test_spec_params(void **state)
{
    (void)state;
    PlayerLimits lim = {.nodes = 100};
    PlayerSpec s;
    char err[ERR_MAX];
    const Game *g = game_find("russian");
    assert_int_equal(player_spec_parse(g, "name=A,param.LMR_DIV=300,weights=default", 0, &lim, 1, &s, err), 0);
    assert_int_equal(s.params_len, 1);
    assert_int_equal(s.param_int[0], 300);
    volatile int stop = 0;
    Player *p = player_new(g, &s, NULL, &stop, err);
    assert_non_null(p);
    assert_int_equal(engine_get_param(p->engine, search_param_find("LMR_DIV")), 300);
    player_free(p);
    const char *bad[][2] = {
        {"name=A,param.NOPE=1", "param.NOPE: unknown search parameter"},
        {"name=A,param.LMR_DIV=9999", "param.LMR_DIV=9999: need an integer 100..600"},
        {"name=A,param.LMR_DIV=abc", "param.LMR_DIV=abc: need an integer"},
        {"name=A,param.LMR_DIV=", "param.LMR_DIV=: need an integer"},
        {"name=A,param.LMR_DIV=200,param.LMR_DIV=300", "param.LMR_DIV given twice"},
        /* a constant that does nothing in Russian (no royal piece) */
        {"name=A,param.ROYAL_EXT=1", "param.ROYAL_EXT: search parameter ROYAL_EXT does nothing in russian: it applies "
                                     "only to games with a royal piece"},
        {"name=D,dxp=127.0.0.1:27600,param.X=1", "a DXP program takes no parameters"},
        {"name=A,depth=3,nodes=5", "give one limit, not depth= and nodes="},
        {"name=A,time=1000+10,movetime=5", "give one limit, not time= and movetime="},
        {"", "engine 1 is empty"},
        {"  ", "engine 1 is empty"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(player_spec_parse(g, bad[i][0], 0, &lim, 1, &s, err), -1);
        if (!strstr(err, bad[i][1])) fail_msg("'%s': %s", bad[i][0], err);
    }
    /* a limit with timeout= is still one limit; a Hub engine's names are its own */
    assert_int_equal(player_spec_parse(g, "name=A,depth=3,timeout=500", 0, &lim, 1, &s, err), 0);
    assert_int_equal(s.limits.depth, 3);
    assert_int_equal(player_spec_parse(g, "name=H,param.level=casual,cmd=dama hub", 0, &lim, 1, &s, err), 0);
    assert_int_equal(s.params_len, 1);
    assert_string_equal(s.param_value[0], "casual");
    /* ROYAL_EXT in a game with a royal piece; a Hub engine's own names are not checked */
    const Game *shatra = game_find("shatra");
    assert_int_equal(player_spec_parse(shatra, "name=A,param.ROYAL_EXT=0", 0, &lim, 1, &s, err), 0);
    assert_int_equal(s.param_int[0], 0);
    assert_int_equal(player_spec_parse(g, "name=H,param.ROYAL_EXT=1,cmd=dama hub", 0, &lim, 1, &s, err), 0);
}

int main(void)
{
    game_init_all();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_threads_do_not_change_games),
        cmocka_unit_test(test_outside_share),
        cmocka_unit_test(test_spec_dxp_launch),
        cmocka_unit_test(test_spec_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
