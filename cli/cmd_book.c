/* cmd_book.c — `dama book build|probe`: a move book grown from the games of
 * a database, and the book moves of a position (book/book.h, docs/book.md). */
#include <inttypes.h>
#include <string.h>

#include "book/book.h"
#include "book/book_build.h"
#include "cli/cli.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT_HELP("build: the game whose stored games are read: " CLI_GAMES),
    {"db", OPT_DB, "dama.sqlite", "build: the SQLite database of the games (self-play, match, tournament)", 0, 0},
    {"max-ply", OPT_INT, "16", "build: the positions of the first N plies of each game", 1, BOOK_PLY_MAX},
    {"min-games", OPT_INT, "2", "build: keep a move played in at least N games", 1, CLI_INT_MAX},
    {"min-score", OPT_REAL, "0", "build: keep a move whose mover scored at least X on average (0 loss .. 1 win)", 0, 1},
    {"margin", OPT_REAL, "0.1", "build: keep a move at most X below the best kept move of its position", 0, 1},
    {"out", OPT_FILE, NULL, "build: the book file to write (atomically)", 0, 0},
    {"force", OPT_FLAG, NULL, "build: replace an existing --out file", 0, 0},
    {"book", OPT_STR, NULL, "probe: the book file", 0, 0},
    {"fen", OPT_STR, NULL, "probe: the position (default: the start position of the book's game)", 0, 0},
    {0},
};

/* The options of one action only (--config: both); one given to the other
 * action was ignored in silence (probe --game turkish read the book's own
 * game), so it is refused. */
static const CliActionOpt ACTION_OPTS[] = {
    {"game", "build", NULL},      {"db", "build", NULL},     {"max-ply", "build", NULL}, {"min-games", "build", NULL},
    {"min-score", "build", NULL}, {"margin", "build", NULL}, {"out", "build", NULL},     {"force", "build", NULL},
    {"book", "probe", NULL},      {"fen", "probe", NULL},
};

static int do_build(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    const char *out = cli_str(a, "out");
    if (!out) {
        fprintf(stderr, "dama book build: give --out FILE\n");
        return 2;
    }
    if (strcmp(out, "-") == 0) { /* it is no standard output here, and no file of that name is meant */
        fprintf(stderr, "dama book build: --out -: a book is a file, read by name (--book FILE): give a file name\n");
        return 2;
    }
    BookBuildOptions o = {.game = g,
                          .db_path = cli_str(a, "db"),
                          .max_ply = (int)cli_int(a, "max-ply"),
                          .min_games = cli_int(a, "min-games"),
                          .min_score = cli_real(a, "min-score"),
                          .margin = cli_real(a, "margin")};
    MoveBook b;
    BookBuildStats st;
    char err[ERR_MAX], note[512];
    /* the file is checked before the work: never the database, an existing one only with --force */
    AtomicOptions ao = {.replace = cli_flag(a, "force"), .protect_db = o.db_path};
    if (atomic_file_check(out, &ao, err) != 0) {
        fprintf(stderr, "dama book build: --out: %s\n", err);
        return 1;
    }
    int rc = book_build(&b, &o, &st, err);
    snprintf(note, sizeof note,
             "built by dama book build from %.200s: %" PRId64 " games (%" PRId64 " left out), "
             "first %d plies, min-games %" PRId64 ", min-score %.3f, margin %.3f",
             o.db_path, st.games - st.skipped, st.skipped, o.max_ply, o.min_games, o.min_score, o.margin);
    if (rc == 0 && st.positions == 0) { /* an empty book is no success: nothing is written */
        book_free(&b);
        fprintf(stderr, "dama book build: kept no position (%" PRId64 " games read, %" PRId64 " left out; ", st.games,
                st.skipped);
        if (st.games == 0) fprintf(stderr, "no stored game of %s", g->name);
        else if (st.games == st.skipped) fprintf(stderr, "every game left out: no result, or lost by a fault");
        else fprintf(stderr, "no move passed --min-games %" PRId64 " and --min-score %g", o.min_games, o.min_score);
        fprintf(stderr, "): %s not written\n", out);
        return 1;
    }
    if (rc == 0) rc = book_save(&b, out, &ao, note, err);
    book_free(&b);
    if (rc != 0) {
        fprintf(stderr, "dama book build: %s\n", err);
        return 1;
    }
    printf("%" PRId64 " games read (%" PRId64 " left out), %" PRId64 " moves counted; kept %" PRId64
           " positions, %" PRId64 " moves: %s\n",
           st.games, st.skipped, st.moves_seen, st.positions, st.moves, out);
    return 0;
}

static int do_probe(CliArgs *a)
{
    const char *path = cli_str(a, "book");
    if (!path) {
        fprintf(stderr, "dama book probe: give --book FILE\n");
        return 2;
    }
    MoveBook b;
    char err[ERR_MAX];
    if (book_load(&b, NULL, path, err) != 0) {
        fprintf(stderr, "dama book probe: %s\n", err);
        return 1;
    }
    Position pos;
    if (game_parse_position(b.game, cli_str(a, "fen"), &pos, err) != 0) {
        fprintf(stderr, "dama book probe: --fen: %s\n", err);
        book_free(&b);
        return 1; /* a bad position is bad input, as in moves, status and search */
    }
    const BookEntry *e = book_find(&b, &pos);
    if (!e || !e->len) printf("not in the book\n");
    for (int i = 0; e && i < e->len; i++) {
        char text[MOVE_STR_MAX];
        b.game->move_to_str(&pos, &e->moves[i].move, text);
        printf("%-12s games %8" PRId64 "  score %.4f\n", text, e->moves[i].games, e->moves[i].score);
    }
    book_free(&b);
    return 0;
}

static int run(CliArgs *a)
{
    if (a->positional_len != 1) {
        fprintf(stderr, "dama book: name an action: build or probe\n");
        return 2;
    }
    const char *act = a->positional[0];
    bool known = strcmp(act, "build") == 0 || strcmp(act, "probe") == 0;
    if (known && cli_check_action_opts(a, act, ACTION_OPTS, sizeof ACTION_OPTS / sizeof ACTION_OPTS[0]) != 0) return 2;
    if (strcmp(act, "build") == 0) return do_build(a);
    if (strcmp(act, "probe") == 0) return do_probe(a);
    fprintf(stderr, "dama book: unknown action '%s' (build, probe)\n", act);
    return 2;
}

const CliCommand cmd_book = {
    "book",
    "move books: build one from stored games, probe a position",
    "build|probe [--game G] [--db FILE] [--max-ply N] [--min-games N] [--min-score X] [--out FILE] "
    "[--book FILE] [--fen FEN]\n\n"
    "  build   count each move of the first --max-ply plies of the stored games of --game with the\n"
    "          mover's mean result; keep the moves that pass --min-games, --min-score and --margin;\n"
    "          write the book to --out\n"
    "  probe   the book moves of --fen in --book: games and the mover's mean score",
    OPTS,
    run,
    1,
};
