/* cmd_dxp.c — `dama dxp`: dama's engine over the DamExchange Protocol, as
 * follower (--listen) or initiator (--connect); arena/dxp_session.h plays,
 * protocol/dxp.h and protocol/dxp_link.h speak (docs/dxp.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/dxp_session.h"
#include "book/book.h"
#include "cli/cli.h"
#include "dama/engine.h" /* DAMA_VERSION_STRING */
#include "db/weight_sets.h"
#include "engine/search.h"
#include "protocol/dxp.h"
#include "protocol/dxp_link.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    {"game", OPT_STR, NULL, "game: one whose squares are numbered 1..50 (default: " CLI_DXP_GAME "; a top-level "
                            "game of the configuration file, made for the other commands, does not apply)", 0, 0},
    {"listen", OPT_STR, NULL, "follower: wait for one connection on [HOST:]PORT (HOST default 127.0.0.1; PORT 0: any free port, printed)", 0, 0},
    {"connect", OPT_STR, NULL, "initiator: connect to HOST:PORT and ask for --games games", 0, 0},
    {"games", OPT_INT, "2", "initiator: games to play", 1, 100000},
    {"time", OPT_INT, "5", "initiator: thinking time of each side for a whole game, minutes (GAMEREQ)", 0, 999},
    {"moves", OPT_INT, "0", "initiator: moves of a whole game (GAMEREQ; 0: no limit)", 0, 999},
    {"fen", OPT_STR, NULL, "initiator: start position (default: the game's, sent as the normal start)", 0, 0},
    {"color", OPT_STR, "alternate", "initiator: dama's colour: alternate (White in games 1, 3, ...), white or black", 0, 0},
    {"name", OPT_STR, NULL, "dama's name in GAMEREQ and GAMEACC, 1..32 printable characters (default: dama VERSION)", 0, 0},
    {"nodes", OPT_INT, NULL, "dama searches this many nodes a move instead of playing on the requested time", 1, 1e12},
    {"depth", OPT_INT, NULL, "dama searches to this depth instead of playing on the requested time", 1, 100},
    {"movetime", OPT_INT, NULL, "dama thinks this many milliseconds a move instead of playing on the requested time", 1, 86400000},
    {"tc", OPT_STR, NULL, "dama plays on this clock of its own, MS+INC (milliseconds) a game, instead of the requested time (whole minutes)", 0, 0},
    {"weights", OPT_WEIGHTS, "default", "dama's weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"db", OPT_DB, "dama.sqlite", "database for --weights tuned / db:ID (only read)", 0, 0},
    {"hash", OPT_INT, "64", "transposition table, MiB", 1, 65536},
    {"timeout", OPT_INT, "120", "seconds to wait for a connection or a message (in a game: plus its thinking time)", 1, 86400},
    {"max-plies", OPT_INT, "600", "a game still going after this many plies is ended (GAMEEND; a draw 'move-cap')", 1, 10000},
    {"log", OPT_FILE, NULL, "write every message sent and received, with the time, to this file", 0, 0},
    {"book", OPT_STR, NULL, "a move book of --game (dama book build): in one of its positions dama plays a book move without searching", 0, 0},
    {"book-seed", OPT_INT, "1", "the seed of --book's choices among a position's moves", 0, CLI_INT_MAX},
    {0},
};

static bool fits(const Game *g) { return dxp_game_fits(g); }

/* --game (or the dxp group's game): one that fits DXP, else NULL after a
 * message naming it and the games that do. */
static const Game *dxp_game(CliArgs *a)
{
    const Game *g = cli_isset(a, "game") ? cli_game(a) : cli_dxp_default_game();
    if (!cli_isset(a, "game") && !g) fprintf(stderr, "dama dxp: no game of this dama numbers its squares 1..50\n");
    if (!g || dxp_game_fits(g)) return g;
    char names[256], why[400];
    game_names(names, sizeof names, " or ", fits);
    snprintf(why, sizeof why, "DXP numbers the squares 1..50 and %s does not; the games that do are %s", g->name,
             names[0] ? names : "none");
    cli_bad_value(a, "game", why);
    return NULL;
}

static int set_limits(CliArgs *a, DxpSessionOptions *o)
{
    int given = cli_isset(a, "nodes") + cli_isset(a, "depth") + cli_isset(a, "movetime") + cli_isset(a, "tc");
    if (given > 1) {
        fprintf(stderr, "dama dxp: give one of --nodes, --depth, --movetime, --tc\n");
        return 2;
    }
    memset(&o->limits, 0, sizeof o->limits);
    o->engine_limits = given == 1;
    if (cli_isset(a, "nodes")) o->limits.nodes = (uint64_t)cli_int(a, "nodes");
    if (cli_isset(a, "depth")) o->limits.depth = (int)cli_int(a, "depth");
    if (cli_isset(a, "movetime")) o->limits.movetime_ms = cli_int(a, "movetime");
    char err[ERR_MAX];
    if (cli_isset(a, "tc") && player_limits_set(&o->limits, "time", cli_str(a, "tc"), err) != 0)
        return cli_bad_value(a, "tc", err);
    return 0;
}

static int set_initiator(CliArgs *a, DxpSessionOptions *o)
{
    o->games = (int)cli_int(a, "games");
    o->minutes = (int)cli_int(a, "time");
    o->moves = (int)cli_int(a, "moves");
    if (o->minutes == 0 && !o->engine_limits) {
        return cli_bad_value(a, "time", "must be 1 or more unless --nodes, --depth or --movetime sets dama's limits");
    }
    const char *c = cli_str(a, "color");
    if (strcmp(c, "alternate") == 0) o->colour = DXP_COLOUR_ALTERNATE;
    else if (strcmp(c, "white") == 0) o->colour = DXP_COLOUR_WHITE;
    else if (strcmp(c, "black") == 0) o->colour = DXP_COLOUR_BLACK;
    else return cli_bad_value(a, "color", "must be alternate, white or black");
    o->fen = cli_str(a, "fen");
    if (o->fen) {
        Position pos;
        char err[ERR_MAX], board[DXP_SQUARES + 1];
        Color side;
        if (game_parse_position(o->game, o->fen, &pos, err) != 0 ||
            dxp_board_from_position(o->game, &pos, &side, board, err) != 0) {
            fprintf(stderr, "dama dxp: --fen: %s\n", err);
            return 2;
        }
    }
    return 0;
}

static void print_summary(const DxpSessionStats *st, const DxpLink *l)
{
    printf("dxp: %d game%s: %d won, %d drawn, %d lost, %d unfinished; %d refused; received %d bad message%s, "
           "%d chat%s; %ld message%s sent, %ld received\n",
           st->games, TEXT_PLURAL(st->games), st->wins, st->draws, st->losses, st->unfinished, st->refused,
           st->bad_in + (int)l->cut, TEXT_PLURAL(st->bad_in + (int)l->cut), st->chats_in, TEXT_PLURAL(st->chats_in),
           l->sent, TEXT_PLURAL(l->sent), l->received);
    if (st->book_moves) printf("dxp: %d book move%s\n", st->book_moves, TEXT_PLURAL(st->book_moves));
}

typedef struct Address {
    bool listening;
    char host[DXP_HOST_MAX];
    int port;
} Address;

/* --listen or --connect: 0, or 2 after a message. */
static int parse_address(CliArgs *a, Address *ad)
{
    char err[ERR_MAX];
    ad->listening = cli_isset(a, "listen");
    const char *opt = ad->listening ? "listen" : "connect";
    const char *text = cli_str(a, opt);
    if (!ad->listening && !strchr(text, ':')) {
        fprintf(stderr, "dama dxp: --connect %s: needs HOST:PORT\n", text);
        return 2;
    }
    if (dxp_parse_address(text, NULL, ad->listening, ad->host, &ad->port, err) != 0) {
        fprintf(stderr, "dama dxp: --%s: %s\n", opt, err);
        return 2;
    }
    return 0;
}

/* Connect or wait for the connection: the descriptor, or -1 after a
 * message. The wait for a connection looks at the stop flag (Ctrl-C,
 * SIGTERM) every WAIT_SLICE_MS. */
enum { WAIT_SLICE_MS = 250 };
static int open_connection(const Address *ad, int timeout_s, FILE *log, char peer[DXP_HOST_MAX + 8])
{
    char err[ERR_MAX];
    if (!ad->listening) {
        int fd = dxp_connect(ad->host, ad->port, timeout_s * 1000, err);
        if (fd < 0) fprintf(stderr, "dama dxp: %s\n", err);
        else snprintf(peer, DXP_HOST_MAX + 8, "%s:%d", ad->host, ad->port);
        return fd;
    }
    int bound = 0;
    int lfd = dxp_listen(ad->host, ad->port, &bound, err);
    if (lfd < 0) {
        fprintf(stderr, "dama dxp: %s\n", err);
        return -1;
    }
    printf("dxp: listening on %s:%d\n", ad->host, bound);
    fflush(stdout);
    dxp_log_note(log, "listening on %s:%d", ad->host, bound);
    int fd = -2;
    for (int64_t waited = 0; fd == -2 && waited < (int64_t)timeout_s * 1000 && !cli_stop_requested;
         waited += WAIT_SLICE_MS) {
        int64_t left = (int64_t)timeout_s * 1000 - waited;
        fd = dxp_accept(lfd, (int)(left < WAIT_SLICE_MS ? left : WAIT_SLICE_MS), peer, err);
    }
    close(lfd);
    if (fd == -2 && cli_stop_requested) fprintf(stderr, "dama dxp: stopped while waiting for a connection\n");
    else if (fd == -2) fprintf(stderr, "dama dxp: no connection within %d s\n", timeout_s);
    else if (fd < 0) fprintf(stderr, "dama dxp: %s\n", err);
    return fd < 0 ? -1 : fd;
}

static int run_session(const Address *ad, DxpSessionOptions *o, FILE *log)
{
    char peer[DXP_HOST_MAX + 8] = "";
    int fd = open_connection(ad, o->timeout_s, log, peer);
    if (fd < 0) return cli_stop_requested ? 3 : 1;
    printf("dxp: connected to %s as %s\n", peer, ad->listening ? "follower" : "initiator");
    fflush(stdout);
    DxpLink link;
    dxp_link_init(&link, fd, log);
    dxp_link_note(&link, "connected to %s", peer);
    DxpSessionStats st;
    char err[ERR_MAX];
    int rc = ad->listening ? dxp_session_follow(o, &link, &st, err) : dxp_session_initiate(o, &link, &st, err);
    if (rc != 0) dxp_link_note(&link, "session failed: %s", err);
    dxp_link_close(&link);
    print_summary(&st, &link);
    if (rc != 0) {
        fprintf(stderr, "dama dxp: %s\n", err);
        return cli_stop_requested ? 3 : 1;
    }
    return 0;
}

static int run(CliArgs *a)
{
    if (cli_isset(a, "listen") == cli_isset(a, "connect")) {
        fprintf(stderr, "dama dxp: give --listen [HOST:]PORT (follower) or --connect HOST:PORT (initiator)\n");
        return 2;
    }
    DxpSessionOptions o = {.timeout_s = (int)cli_int(a, "timeout"), .max_plies = (int)cli_int(a, "max-plies"),
                           .out = stdout, .stop = &cli_stop_requested};
    if (!(o.game = dxp_game(a))) return 2;
    char name[DXP_NAME_LEN + 1], err[ERR_MAX];
    snprintf(name, sizeof name, "dama %s", DAMA_VERSION_STRING);
    if (cli_isset(a, "name")) {
        DxpMsg probe = {.type = DXP_GAMEACC};
        const char *n = cli_str(a, "name");
        if (strlen(n) > DXP_NAME_LEN) return cli_bad_value(a, "name", "must be 1..32 printable characters");
        snprintf(probe.u.acc.name, sizeof probe.u.acc.name, "%s", n);
        char text[DXP_MSG_MAX + 1];
        if (dxp_encode(&probe, text, err) < 0) return cli_bad_value(a, "name", "must be 1..32 printable characters, the first not a blank");
        snprintf(name, sizeof name, "%s", n);
    }
    o.name = name;
    Address ad;
    int rc = parse_address(a, &ad);
    if (rc == 0) rc = set_limits(a, &o);
    if (rc == 0 && cli_isset(a, "connect")) rc = set_initiator(a, &o);
    if (rc != 0) return rc;
    int32_t *weights = malloc(sizeof(int32_t) * (size_t)o.game->weights_len);
    Engine *engine = engine_new(o.game, (size_t)cli_int(a, "hash"));
    if (!weights || !engine) {
        fprintf(stderr, "dama dxp: out of memory for the engine (--hash %lld)\n", (long long)cli_int(a, "hash"));
        free(weights);
        engine_free(engine);
        return 1;
    }
    FILE *log = NULL;
    if (weights_resolve_path(o.game, cli_str(a, "weights"), cli_str(a, "db"), weights, NULL, err) != 0) {
        char label[CLI_LABEL_MAX];
        fprintf(stderr, "dama dxp: %s: %s\n", cli_opt_label(a, "weights", label, sizeof label), err);
        rc = 1;
    } else if (cli_isset(a, "log") && !(log = fopen(cli_str(a, "log"), "w"))) {
        fprintf(stderr, "dama dxp: cannot write --log %s: %s\n", cli_str(a, "log"), strerror(errno));
        rc = 1;
    }
    MoveBook book;
    book_init(&book, o.game);
    if (rc == 0 && cli_str(a, "book") && book_load(&book, o.game, cli_str(a, "book"), err) != 0) {
        fprintf(stderr, "dama dxp: --book: %s\n", err);
        rc = 1;
    }
    if (cli_str(a, "book")) o.book = &book;
    o.book_seed = (uint64_t)cli_int(a, "book-seed");
    if (rc == 0) {
        engine_set_weights(engine, weights);
        engine_set_stop_flag(engine, &cli_stop_requested);
        o.engine = engine;
        cli_install_stop_handler();
        rc = run_session(&ad, &o, log);
    }
    if (log && fclose(log) != 0 && rc == 0) {
        fprintf(stderr, "dama dxp: cannot write --log %s: %s\n", cli_str(a, "log"), strerror(errno));
        rc = 1;
    }
    book_free(&book);
    engine_free(engine);
    free(weights);
    return rc;
}

const CliCommand cmd_dxp = {
    "dxp", "engine protocol: DXP (DamExchange) over TCP, follower (--listen) or initiator (--connect)",
    "(--listen [HOST:]PORT | --connect HOST:PORT) [--games N] [--time MIN] [--log FILE]", OPTS, run, 0,
};
