/* cmd_tournament.c — `dama tournament`: round robin or gauntlet of any mix
 * of in-process dama engines (weight sets) and external Hub engines, on
 * paired openings (each opening with both colours), with clocks,
 * adjudication and recovery from failing engines; every game in SQLite, a
 * crosstable, pentanomial counts per pairing and ratings fitted together.
 * Rerunning the same command (or adding --resume) continues an interrupted
 * tournament. The tournament itself is arena/tournament.h's. */
#include <stdlib.h>
#include <string.h>

#include "arena/tournament.h"
#include "book/book.h"
#include "cli/cli.h"
#include "cli/config_resume.h"
#include "cli/egtb_opts.h"
#include "cli/play_opts.h"
#include "cli/ratings_table.h"
#include "cli/run_common.h"
#include "cli/tournament_print.h"
#include "dist/dist.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"name", OPT_STR, NULL, "a name for the tournament", 0, 0},
    {"format", OPT_STR, "round-robin", "round-robin (every pairing) or gauntlet (the first engine against each other)", 0, 0},
    {"rounds", OPT_INT, "1", "rounds: each plays every pairing once with both colours on a new opening", 1, 1000000},
    {"concurrency", OPT_INT, "0", "games played at once (0: all cores)", 0, 256},
    {"nodes", OPT_INT, NULL, "default limit: search nodes per move", 1, CLI_INT_MAX},
    {"depth", OPT_INT, NULL, "default limit: search depth per move", 1, 100},
    {"movetime", OPT_INT, NULL, "default limit: milliseconds per move", 1, 86400000},
    {"tc", OPT_STR, NULL, "default limit: a game clock MS+INC (milliseconds), e.g. 10000+100", 0, 0},
    {"timeout", OPT_INT, NULL, "ms an engine may take beyond its movetime or clock (default 1000), or per move "
                               "without either (default 10000), before it loses by 'timeout'", 1, 86400000},
    {"hash", OPT_INT, "1", "transposition table MiB per in-process engine (each concurrent game has its own; a new game clears it, so keep it small at small node counts)", 1, 65536},
    CLI_OPENINGS_OPTS(100000),
    {"max-plies", OPT_INT, "300", "move cap in plies (adjudicated draw 'move-cap')", 1, 1000000},
    {"resign-moves", OPT_INT, "0", "resign adjudication: moves in a row (0: off)", 0, 100000},
    {"resign-score", OPT_INT, "600", "resign adjudication: own score at most -N centi-men", 1, 100000},
    {"draw-moves", OPT_INT, "0", "draw adjudication: moves of each side in a row (0: off)", 0, 100000},
    {"draw-score", OPT_INT, "10", "draw adjudication: both scores within +-N centi-men", 0, 100000},
    {"draw-after", OPT_INT, "60", "draw adjudication: not before this ply", 0, 100000},
    CLI_SEED_OPENINGS_OPT,
    {"ratings-interval", OPT_INT, "0", "print ratings every N games (0: at the end only)", 0, CLI_INT_MAX},
    {"anchor", OPT_STR, NULL, "ratings: NAME or NAME=ELO fixed (default: the mean is 0)", 0, 0},
    {"prior", OPT_REAL, "2", "ratings: virtual games per pair of players who met", 0, 1000000},
    CLI_EGTB_PLAY_OPTS,
    CLI_EGTB_ADJUDICATE_OPT,
    {"pdn-out", OPT_FILE, NULL, "append every game to this PDN file as it ends (stored with the tournament: a resume "
                               "appends to it; a new or empty file given on resume gets the games so far, then the "
                               "rest)", 0, 0},
    {"resume", OPT_FLAG, NULL, "continue the tournament of this same command (rerunning it does too; an error "
                               "if there is none), or without engines the newest unfinished one (or --tournament N) "
                               "with its stored engines and options", 0, 0},
    {"tournament", OPT_INT, NULL, "with --resume: the tournament to continue", 1, CLI_INT_MAX},
    CLI_PROGRESS_OPT("10"),
    CLI_MPI_OPT,
    {0},
};

/* Options that do not change which games are played: left out of the
 * configuration that identifies a tournament for resume. */
static const char *const NOT_IDENTITY[] = {"db", "concurrency", "progress", "ratings-interval", "anchor",
                                           "prior", "pdn-out", "resume", "tournament", "mpi", NULL};

/* --resume without engines: the engines and identity options of the stored
 * tournament (--tournament N, else the newest unfinished one). On success
 * a's positional words are *owned and *want_run is the stored run. */
static int resume_args(CliArgs *a, char ***owned, int *owned_len, int64_t *want_run, char err[ERR_MAX])
{
    int64_t tid = cli_isset(a, "tournament") ? cli_int(a, "tournament") : 0;
    char *config = NULL, owner[48];
    if (tournament_stored_config(cli_str(a, "db"), &tid, want_run, &config, err) != 0) return -1;
    snprintf(owner, sizeof owner, "tournament %lld", (long long)tid);
    int rc = cli_config_resume(a, config, NOT_IDENTITY, "engine", owner, owned, owned_len, err);
    free(config);
    return rc;
}

static int parse_engines(const Game *g, PlayerSpec specs[TOURNAMENT_ENGINES_MAX], const CliArgs *a, char err[ERR_MAX])
{
    PlayerLimits def = {.nodes = 1000};
    const char *keys[] = {"nodes", "depth", "movetime", "tc", "timeout"};
    int set = 0; /* of the first four */
    for (int i = 0; i < 5; i++) {
        if (!cli_isset(a, keys[i])) continue;
        set += i < 4;
        char v[64];
        snprintf(v, sizeof v, "%s", cli_str(a, keys[i]));
        char why[ERR_MAX];
        if (player_limits_set(&def, i == 3 ? "time" : keys[i], v, why) != 0) { /* named as the option it came from */
            snprintf(err, ERR_MAX, "--%s: %.200s", keys[i], why);
            return -1;
        }
    } /* --timeout is a positive number (cli_parse): it cannot fail before this */
    if (set > 1) {
        snprintf(err, ERR_MAX, "give at most one of --nodes, --depth, --movetime, --tc (engines may override it)");
        return -1;
    }
    int n = a->positional_len;
    if (n < 2 || n > TOURNAMENT_ENGINES_MAX) {
        snprintf(err, ERR_MAX, "need 2..%d engines (e.g. name=A,weights=default name=B,cmd=\"dama hub\")",
                 TOURNAMENT_ENGINES_MAX);
        return -1;
    }
    int64_t hash = cli_int(a, "hash");
    for (int i = 0; i < n; i++) {
        if (player_spec_parse(g, a->positional[i], i, &def, hash, &specs[i], err) != 0) return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(specs[i].name, specs[j].name) == 0) {
                snprintf(err, ERR_MAX, "two engines are named '%.*s'", PLAYER_NAME_MAX - 1, specs[i].name);
                return -1;
            }
    }
    return 0;
}

/* What the command prints while the games are played. */
typedef struct Printer {
    const CliArgs *a;
    RunProgress prog;
    int64_t book_moves[TOURNAMENT_ENGINES_MAX]; /* each engine's moves from its move book, this session */
} Printer;

static void on_start(void *ctx, const TournamentResult *r)
{
    Printer *p = ctx;
    if (r->writer) {
        char ranks[48] = "";
        if (r->ranks > 1) snprintf(ranks, sizeof ranks, " a rank, %d ranks over MPI", r->ranks);
        fprintf(stderr, "tournament %lld (run %lld) %s: %s, %d engines, %d round%s, %lld games (%lld %s), %lld "
                "concurrent%s\n", (long long)r->tournament_id, (long long)r->run_id, r->game->name,
                r->gauntlet ? "gauntlet" : "round robin", r->engines_len, r->rounds, TEXT_PLURAL(r->rounds),
                (long long)r->games_total,
                (long long)r->done_games, r->resumed ? "already played" : "stored", (long long)r->concurrency, ranks);
        if (r->pdn_moved)
            fprintf(stderr, "note: its games now go to %s%s%s (the games so far copied into it)\n", r->pdn_now,
                    r->pdn_before[0] ? ", not " : "", r->pdn_before);
        if (r->pdn_cut_bytes)
            fprintf(stderr, "note: its PDN file ended inside a game (cut off while written): those %lld bytes "
                    "removed, and the game written again from the database\n", (long long)r->pdn_cut_bytes);
    }
    cli_install_stop_handler();
    run_progress_init(&p->prog, "tournament", r->games_total, r->writer ? cli_real(p->a, "progress") : 0);
    p->prog.before = r->done_games;
}

static void on_game(void *ctx, const TournamentResult *r, int64_t gi, int white, int black, const PlayRecord *rec)
{
    Printer *p = ctx;
    p->book_moves[white] += rec->book_moves[0];
    p->book_moves[black] += rec->book_moves[1];
    if (rec->fault != PLAYER_OK)
        fprintf(stderr, "game %lld/%lld: %s loses by %s: %.300s\n", (long long)gi + 1, (long long)r->games_total,
                r->engines[rec->fault_side == COLOR_WHITE ? white : black].name, rec->reason, rec->detail);
    run_progress_update(&p->prog, r->done_games, NULL, false);
    int64_t interval = cli_int(p->a, "ratings-interval");
    if (interval > 0 && r->done_games % interval == 0)
        tournament_print_ratings(stderr, r, cli_real(p->a, "prior"), cli_str(p->a, "anchor"));
}

static void print_summary(const TournamentResult *r, const CliArgs *a, bool failed)
{
    printf("tournament %lld (run %lld): %lld of %lld games", (long long)r->tournament_id, (long long)r->run_id,
           (long long)r->done_games, (long long)r->games_total);
    if (r->session_games > 0)
        printf("; this session %lld games in %.1f s (%.2f games/s), %.1f%% of the game slots' time outside the "
               "engines, %lld lost by an engine fault (crash, error answer, timeout, illegal or late move)",
               (long long)r->session_games, r->session_wall_s, (double)r->session_games / r->session_wall_s,
               100.0 * r->outside_share, (long long)r->session_faults);
    printf("\n");
    tournament_print_results(stdout, r);
    tournament_print_times(stdout, r);
    tournament_print_missed(stdout, r, cli_str(a, "egtb"));
    tournament_print_ratings(stdout, r, cli_real(a, "prior"), cli_str(a, "anchor"));
    if (!r->complete && !failed) printf("interrupted: run the same command again to continue\n");
}

/* The options as arena/tournament.h takes them (engines parsed already). */
static void options(const CliArgs *a, const Game *g, const PlayerSpec *specs, char *identity, size_t identity_size,
                    TournamentOptions *o)
{
    *o = (TournamentOptions){
        .game = g, .db_path = cli_str(a, "db"), .name = cli_str(a, "name"),
        .gauntlet = strcmp(cli_str(a, "format"), "gauntlet") == 0, .rounds = (int)cli_int(a, "rounds"),
        .concurrency = (int)cli_int(a, "concurrency"), .engines_len = a->positional_len, .engines = specs,
        .engine_texts = (const char *const *)a->positional, .hash_mb = cli_int(a, "hash"),
        .seed = (uint64_t)cli_int(a, "seed"), .max_plies = (int)cli_int(a, "max-plies"),
        .adj = {.resign_moves = (int)cli_int(a, "resign-moves"), .resign_score = (int)cli_int(a, "resign-score"),
                .draw_moves = (int)cli_int(a, "draw-moves"), .draw_score = (int)cli_int(a, "draw-score"),
                .draw_after = (int)cli_int(a, "draw-after")},
        .egtb_dir = cli_str(a, "egtb"), .egtb_pieces = (int)cli_int(a, "egtb-pieces"),
        .egtb_adjudicate = cli_flag(a, "egtb-adjudicate"), .pdn_out = cli_str(a, "pdn-out"), .identity = identity,
        .resume = cli_flag(a, "resume"), .resume_tournament = cli_isset(a, "tournament") ? cli_int(a, "tournament") : 0,
        .stop = &cli_stop_requested};
    cli_openings_source(a, &o->openings);
    /* without --egtb, --egtb-pieces changes nothing: left out, so that a
     * tournament stored before these options existed is still this one */
    const char *skip[sizeof NOT_IDENTITY / sizeof NOT_IDENTITY[0] + 1];
    size_t skip_len = 0;
    for (; NOT_IDENTITY[skip_len]; skip_len++) skip[skip_len] = NOT_IDENTITY[skip_len];
    if (!cli_isset(a, "egtb")) skip[skip_len++] = "egtb-pieces";
    skip[skip_len] = NULL;
    cli_config_text(a, skip, identity, identity_size);
    run_book_identity(a, identity, identity_size);
    for (int i = 0; i < a->positional_len; i++) { /* book=: its bytes, as --openings' */
        if (!specs[i].book_path[0]) continue;
        char key[32];
        snprintf(key, sizeof key, "engine-%d-book", i + 1);
        run_file_identity(key, specs[i].book_path, identity, identity_size);
    }
}

/* The move books of the engines with book=FILE (books[i] for specs[i]; all
 * initialised, free with free_books). 0, or -1 with err naming the engine. */
static int load_books(PlayerSpec *specs, int n, const Game *g, uint64_t seed, MoveBook *books, char err[ERR_MAX])
{
    for (int i = 0; i < n; i++) book_init(&books[i], g);
    for (int i = 0; i < n; i++) {
        if (!specs[i].book_path[0]) continue;
        char berr[ERR_MAX];
        if (book_load(&books[i], g, specs[i].book_path, berr) != 0)
            return err_set(err, "engine '%s': book: %.180s", specs[i].name, berr);
        specs[i].book = &books[i];
        specs[i].book_seed = seed;
    }
    return 0;
}

static void free_books(MoveBook *books, int n)
{
    for (int i = 0; i < n; i++) book_free(&books[i]);
}

/* "book moves: A 12, C 0" for the engines with a book (nothing without one). */
static void print_book_moves(const Printer *p, const PlayerSpec *specs, int n)
{
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (!specs[i].book) continue;
        printf("%s%s %lld", any ? ", " : "book moves (this session): ", specs[i].name, (long long)p->book_moves[i]);
        any = true;
    }
    if (any) printf("\n");
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    char **owned = NULL;
    int owned_len = 0;
    int64_t want_run = 0; /* --resume without engines: the stored tournament's run */
    if (cli_isset(a, "tournament") && !cli_flag(a, "resume")) {
        fprintf(stderr, "dama tournament: --tournament N goes with --resume\n");
        return 2;
    }
    const char *name = cli_str(a, "name");
    char what[TEXT_WHAT_MAX]; /* stored, printed and written into PDN's Event tag: text on one line */
    if (name && text_line_check(name, strlen(name), what) != 0) {
        char shown[200];
        text_escape(name, strlen(name), shown, sizeof shown);
        fprintf(stderr, "dama tournament: --name '%s': %s\n", shown, what);
        return 2;
    }
    if (cli_mpi_start(a, "tournament") != 0) return 2;
    /* --mpi: the games over the ranks; rank 0 alone reads and writes the
     * database and the PDN file (arena/tournament.h) */
    if (dist_size() > 1 && cli_flag(a, "resume") && a->positional_len == 0) {
        fprintf(stderr, "dama tournament: --resume over MPI needs the engines: run the same command again (the "
                        "ranks other than 0 cannot read the database)\n");
        return 2;
    }
    int rc = 0;
    if (cli_flag(a, "resume") && a->positional_len == 0) {
        if (resume_args(a, &owned, &owned_len, &want_run, err) != 0) rc = 1;
        else if (!(g = cli_game(a))) rc = -2;
        if (rc == 1) fprintf(stderr, "dama tournament: %s\n", err);
    }
    /* a resumed tournament keeps its stored database setting */
    if (rc == 0 && !(cli_flag(a, "resume") && a->positional_len == 0) &&
        (cli_egtb_default(a, g) != 0 || cli_egtb_dependents(a) != 0))
        rc = -2;
    PlayerSpec specs[TOURNAMENT_ENGINES_MAX];
    MoveBook books[TOURNAMENT_ENGINES_MAX];
    int books_len = 0;
    if (rc == 0 && parse_engines(g, specs, a, err) != 0) {
        fprintf(stderr, "dama tournament: %s\n", err);
        rc = -2;
    }
    if (rc == 0) {
        books_len = a->positional_len;
        if (load_books(specs, books_len, g, (uint64_t)cli_int(a, "seed"), books, err) != 0) {
            fprintf(stderr, "dama tournament: %s\n", err);
            rc = 1;
        }
    }
    const char *format = cli_str(a, "format");
    if (rc == 0 && strcmp(format, "gauntlet") != 0 && strcmp(format, "round-robin") != 0) {
        cli_bad_value(a, "format", "must be round-robin or gauntlet");
        rc = -2;
    }
    if (rc == 0 && cli_str(a, "anchor")) { /* checked before the first game, not after the last */
        const char *names[TOURNAMENT_ENGINES_MAX];
        int n = a->positional_len < TOURNAMENT_ENGINES_MAX ? a->positional_len : TOURNAMENT_ENGINES_MAX, index;
        double elo;
        for (int i = 0; i < n; i++) names[i] = specs[i].name;
        if (ratings_parse_anchor(cli_str(a, "anchor"), names, n, &index, &elo, err) != 0) {
            fprintf(stderr, "dama tournament: %s\n", err);
            rc = -2;
        }
    }
    if (rc != 0) {
        free_books(books, books_len);
        cli_config_resume_free(owned, owned_len);
        return rc < 0 ? 2 : rc;
    }
    static char identity[8192 + TOURNAMENT_ENGINES_MAX * (PLAYER_SPEC_MAX + 32)]; /* as the run's, for any engines */
    TournamentOptions o;
    options(a, g, specs, identity, sizeof identity, &o);
    Printer p = {.a = a};
    o.resume_run = want_run;
    o.on_start = on_start;
    o.on_game = on_game;
    o.ctx = &p;
    TournamentResult r;
    rc = tournament_run(NULL, &o, &r, err);
    if (r.played) print_summary(&r, a, err[0] != '\0');
    if (r.played) print_book_moves(&p, specs, books_len);
    if (err[0]) fprintf(stderr, "dama tournament: %s\n", err);
    if (rc == 0 && r.played && r.writer && r.session_games > 0 && r.session_faults >= r.session_games) {
        /* as a match's: no game was played out, nothing to rate (an engine that never answered) */
        fprintf(stderr, "dama tournament: every game of this session (%lld) was lost by an engine fault: see the lines "
                "above\n", (long long)r.session_games);
        rc = 1;
    }
    tournament_result_free(&r);
    free_books(books, books_len);
    cli_config_resume_free(owned, owned_len);
    return rc;
}

const CliCommand cmd_tournament = {
    "tournament",
    "round robin or gauntlet of dama and Hub engines: clocks, adjudication, crosstable, ratings, resume",
    "[options] ENGINE ENGINE... (ENGINE: name=A,weights=W,nodes=N | name=B,cmd=COMMAND | name=C,dxp=HOST:PORT[,cmd=CMD] "
    "(port 0 with cmd=: the port CMD prints), "
    "with limits nodes= "
    "depth= movetime= time=MS+INC timeout=MS, hash=MiB, book=FILE, param.NAME=VALUE; cmd= last; W: " CLI_WEIGHTS_FORMS ")",
    OPTS, run, TOURNAMENT_ENGINES_MAX,
};
