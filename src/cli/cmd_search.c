/* cmd_search.c — `dama search`: best move of a position. */
#include <string.h>

#include "cli/cli.h"
#include "cli/egtb_opts.h"
#include "tune/weight_sets.h"
#include "engine/search.h"

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"fen", OPT_STR, NULL, "position string (default: the start position)", 0, 0},
    {"depth", OPT_INT, NULL, "search depth in plies", 0, 100},
    {"nodes", OPT_INT, NULL, "node budget (deterministic)", 0, 1e15},
    {"movetime", OPT_INT, NULL, "time budget in milliseconds", 0, 86400000},
    {"hash", OPT_INT, "64", "transposition table size in MiB", 1, 65536},
    {"weights", OPT_STR, NULL, "weights: 'default' (compiled in), 'tuned', db:ID or a weight file", 0, 0},
    {"db", OPT_DB, "dama.sqlite", "database for --weights tuned / db:ID (only read)", 0, 0},
    {"quiet", OPT_FLAG, NULL, "print only the final result, no per-iteration lines", 0, 0},
    CLI_EGTB_OPTS,
    {0},
};

static void print_pv(const Game *g, const Position *root, const Move *pv, int len)
{
    Position a = *root, b;
    char text[MOVE_STR_MAX];
    for (int i = 0; i < len; i++) {
        g->move_to_str(&a, &pv[i], text);
        printf(" %s", text);
        g->make_move(&a, &pv[i], &b);
        a = b;
    }
}

typedef struct InfoCtx {
    const Game *game;
    const Position *root;
} InfoCtx;

static void on_info(void *ctx, const SearchResult *r)
{
    InfoCtx *c = ctx;
    printf("info depth %d score %d nodes %llu nps %.0f pv", r->depth, r->score, (unsigned long long)r->nodes,
           r->seconds > 0 ? (double)r->nodes / r->seconds : 0.0);
    print_pv(c->game, c->root, r->pv, r->pv_len);
    putchar('\n');
    fflush(stdout);
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    Position pos;
    if (game_parse_position(g, cli_str(a, "fen"), &pos, err) != 0) {
        fprintf(stderr, "dama search: %s\n", err);
        return 1;
    }
    SearchLimits lim = {.depth = (int)cli_int(a, "depth"), .nodes = (uint64_t)cli_int(a, "nodes"),
                        .movetime_ms = cli_int(a, "movetime")};
    if (lim.depth < 0 || lim.depth > 100 || cli_int(a, "nodes") < 0 || lim.movetime_ms < 0 || cli_int(a, "hash") < 1 ||
        cli_int(a, "hash") > 65536) {
        fprintf(stderr, "dama search: need --depth 0..100, --nodes and --movetime >= 0, --hash 1..65536 (MiB)\n");
        return 2;
    }
    if (!lim.depth && !lim.nodes && !lim.movetime_ms) lim.depth = 10;
    int32_t weights[EVAL_WEIGHTS_MAX];
    if (weights_resolve_path(g, cli_str(a, "weights"), cli_str(a, "db"), weights, NULL, err) != 0) {
        fprintf(stderr, "dama search: %s\n", err);
        return 1;
    }
    const char *reason = NULL;
    Outcome over = game_outcome(g, &pos, NULL, 0, &reason, NULL);
    if (over != OUTCOME_NONE) { /* nothing to search: the game is over */
        printf("bestmove (none)\nresult %s %s\n", outcome_pdn(over), reason ? reason : "");
        return 0;
    }
    Egtb *db;
    if (cli_egtb_open(a, g, "search", &db) != 0) return 1;
    EgtbProber *prober = db ? egtb_prober_new(db, (int)cli_int(a, "egtb-pieces"), 4096) : NULL;
    Engine *e = engine_new(g, (size_t)cli_int(a, "hash"));
    if (!e || (db && !prober)) {
        fprintf(stderr, "dama search: out of memory for the transposition table\n");
        engine_free(e);
        egtb_prober_free(prober);
        egtb_close(db);
        return 1;
    }
    if (prober) engine_set_probe(e, egtb_engine_probe, prober);
    engine_set_weights(e, weights);
    cli_install_stop_handler();
    engine_set_stop_flag(e, &cli_stop_requested);
    SearchResult r;
    InfoCtx ctx = {g, &pos};
    engine_search(e, &pos, NULL, 0, &lim, &r, cli_flag(a, "quiet") ? NULL : on_info, &ctx);
    {
        char text[MOVE_STR_MAX];
        g->move_to_str(&pos, &r.best, text);
        printf("bestmove %s\nscore %d\ndepth %d\nnodes %llu\npv", text, r.score, r.depth,
               (unsigned long long)r.nodes);
        print_pv(g, &pos, r.pv, r.pv_len);
        putchar('\n');
    }
    if (prober)
        printf("egtb %llu probes, %llu known\n", (unsigned long long)prober->probes, (unsigned long long)prober->hits);
    engine_free(e);
    egtb_prober_free(prober);
    egtb_close(db);
    return 0;
}

const CliCommand cmd_search = {
    "search", "search a position: best move, score, depth, nodes, PV",
    "[--game G] [--fen FEN] (--depth N | --nodes N | --movetime MS)", OPTS, run, 0,
};
