/* cmd_ratings.c — `dama ratings`: ratings of every player of a set of
 * stored games, fitted together by maximum likelihood (play/ratings.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/ratings_table.h"
#include "db/db.h"
#include "arena/ratings.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    {"db", OPT_DB, "dama.sqlite", "SQLite database file", 0, 0},
    {"tournament", OPT_INT, NULL, "the games of tournament N", 1, CLI_INT_MAX},
    {"match", OPT_INT, NULL, "the games of match N", 1, CLI_INT_MAX},
    {"run", OPT_INT, NULL, "the games of run N", 1, CLI_INT_MAX},
    {"filter", OPT_STR, NULL, "the games g for which this SQL condition holds", 0, 0},
    {"all", OPT_FLAG, NULL, "every stored game (the default; all of one game); players with the same name are one player", 0, 0},
    {"anchor", OPT_STR, NULL, "NAME or NAME=ELO: this player's rating is fixed (default: the mean is 0)", 0, 0},
    {"no-advantage", OPT_FLAG, NULL, "do not fit White's advantage (fix it at 0)", 0, 0},
    {"prior", OPT_REAL, "2", "virtual games per pair of players who met (keeps 100% scores finite; 0: none)", 0, 1000000},
    {0},
};

typedef struct Collect {
    char *names[RATINGS_PLAYERS_MAX];
    int len;
    RatingsGame *games;
    int64_t games_len, games_cap;
    int64_t self_games; /* finished games of a player against itself (left out) */
    char game[32];      /* the game (variant) of the games so far: one fit rates one game's players */
    char err[ERR_MAX];
} Collect;

/* A stored name as the tables show it, whole (malloc'd; NULL when out of
 * memory): a control byte as \xNN (tournament refuses them, but a
 * database is anyone's to edit, and an escape sequence would reach the
 * terminal). */
static char *shown_name(const char *name)
{
    size_t size = 4 * strlen(name) + 1, n = 0;
    char *out = malloc(size);
    if (!out) return NULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        n += (size_t)snprintf(out + n, size - n, *p < 0x20 || *p == 0x7f ? "\\x%02X" : "%c", *p);
    out[n] = '\0';
    return out;
}

static int player(Collect *c, const char *stored)
{
    char *name = shown_name(stored ? stored : "");
    if (!name) {
        snprintf(c->err, ERR_MAX, "out of memory");
        return -1;
    }
    for (int i = 0; i < c->len; i++)
        if (strcmp(c->names[i], name) == 0) {
            free(name);
            return i;
        }
    if (c->len == RATINGS_PLAYERS_MAX) {
        free(name);
        snprintf(c->err, ERR_MAX,
                 "more than %d players (the most one fit takes; a self-play run has a weight set for every "
                 "perturbed pair): rate a match or a tournament (--match N, --tournament N) or --filter the games",
                 RATINGS_PLAYERS_MAX);
        return -1;
    }
    c->names[c->len] = name;
    return c->len++;
}

static int collect(void *ctx, const DbGameRow *g)
{
    Collect *c = ctx;
    if (!g->result) return 0; /* unfinished */
    const char *game = g->game ? g->game : "";
    if (!c->game[0]) {
        snprintf(c->game, sizeof c->game, "%s", game);
    } else if (strcmp(c->game, game) != 0) { /* a player's name in two games is two players, and White's edge differs */
        snprintf(c->err, ERR_MAX, "the selection holds games of %.20s and of %.20s: rate one game at a time "
                 "(--filter \"g.game = '%.20s'\", or --match N, --tournament N)", c->game, game, c->game);
        return 1;
    }
    int half = strcmp(g->result, "1-0") == 0 ? 2 : strcmp(g->result, "0-1") == 0 ? 0 : 1;
    int w = player(c, g->white), b = player(c, g->black);
    if (w < 0 || b < 0) return 1; /* positive: the message is c->err */
    if (w == b) { /* a player against itself tells nothing */
        c->self_games++;
        return 0;
    }
    if (c->games_len == c->games_cap) {
        c->games_cap = c->games_cap ? c->games_cap * 2 : 1024;
        RatingsGame *n = realloc(c->games, sizeof *n * (size_t)c->games_cap);
        if (!n) {
            snprintf(c->err, ERR_MAX, "out of memory");
            return 1;
        }
        c->games = n;
    }
    c->games[c->games_len++] = (RatingsGame){.white = w, .black = b, .white_half = half};
    return 0;
}

static int run(CliArgs *a)
{
    DbSelect sel;
    int64_t id;
    if (cli_game_selection(a, cli_flag(a, "all"), &sel, &id) != 0) return 2;
    RatingsOptions opt;
    ratings_options_default(&opt);
    opt.fit_advantage = !cli_flag(a, "no-advantage");
    opt.prior = cli_real(a, "prior");
    if (!(opt.prior >= 0)) {
        fprintf(stderr, "dama ratings: --prior must be >= 0\n");
        return 2;
    }
    char err[ERR_MAX];
    Db *db = NULL;
    if (db_open_for_reading(cli_str(a, "db"), &db, err) != 0) {
        fprintf(stderr, "dama ratings: %s\n", err);
        return 1;
    }
    db_close(db);
    Collect c = {0};
    int rc = db_game_rows_each(cli_str(a, "db"), sel, id, cli_str(a, "filter"), collect, &c, err);
    if (rc != 0) fprintf(stderr, "dama ratings: %s\n", rc > 0 ? c.err : err);
    if (rc == 0 && c.games_len == 0) {
        if (c.self_games > 0) /* e.g. a match of --a best --b default after a train that passed no gate */
            fprintf(stderr, "dama ratings: no finished games between two players in the selection (its %lld "
                    "finished game%s had the same player on both sides: %.100s%s)\n", (long long)c.self_games,
                    TEXT_PLURAL(c.self_games), c.names[0], c.len > 1 ? ", ..." : "");
        else
            fprintf(stderr, "dama ratings: no finished games between two players in the selection\n");
        rc = 1;
    }
    if (rc == 0 && cli_str(a, "anchor") &&
        ratings_parse_anchor(cli_str(a, "anchor"), (const char *const *)c.names, c.len, &opt.anchor,
                             &opt.anchor_elo, err) != 0) {
        fprintf(stderr, "dama ratings: %s\n", err);
        rc = 2;
    }
    opt.names = (const char *const *)c.names;
    RatingsFit fit;
    char rerr[RATINGS_ERR_MAX];
    int frc = rc == 0 ? ratings_fit(c.len, c.games, c.games_len, &opt, &fit, rerr) : 0;
    if (frc != 0) {
        fprintf(stderr, "dama ratings: %s\n", strncmp(rerr, "ratings: ", 9) == 0 ? rerr + 9 : rerr);
        if (frc == RATINGS_DISCONNECTED && sel == DB_SELECT_ALL) /* self-play's pairs each play only themselves */
            fprintf(stderr, "dama ratings: --all rates every stored game together; self-play's perturbed pairs play "
                            "only each other: rate a match or tournament (--match N, --tournament N) or a --filter "
                            "that joins its players\n");
        rc = 1;
    }
    if (rc == 0) {
        printf("%lld %s games, %d players\n", (long long)c.games_len, c.game, c.len);
        ratings_table_print(stdout, &fit, (const char *const *)c.names, &opt);
    }
    for (int i = 0; i < c.len; i++) free(c.names[i]);
    free(c.games);
    return rc < 0 ? 1 : rc;
}

const CliCommand cmd_ratings = {
    "ratings", "ratings of all players of stored games, fitted together (maximum likelihood, draws modelled)",
    "[--db FILE] [--tournament N | --match N | --run N | --filter SQL | --all] [--anchor NAME[=ELO]]", OPTS, run, 0,
};
