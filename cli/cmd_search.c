/* cmd_search.c — `dama search`: best move of a position. */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/egtb_opts.h"
#include "db/weight_sets.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "util/file_read.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"fen", OPT_STR, NULL, "position string (default: the start position)", 0, 0},
    {"depth", OPT_INT, NULL, "search depth in plies (no limit given at all: 10)", 1, 100},
    {"nodes", OPT_INT, NULL, "node budget (deterministic on one thread; the first iteration finishes past it, up to 100 times it; all threads' nodes)", 1, 1e15},
    {"movetime", OPT_INT, NULL, "time budget in milliseconds", 1, 86400000},
    {"time", OPT_INT, NULL, "clock: milliseconds left for the side to move (time manager)", 1, 864000000},
    {"inc", OPT_INT, NULL, "clock: increment per move in milliseconds", 0, 86400000},
    {"movestogo", OPT_INT, NULL, "clock: moves to the next time control (default: unknown)", 0, 1000},
    {"threads", OPT_INT, "1", "search threads (lazy SMP over the shared transposition table)", 1, 64},
    {"search-param", OPT_LIST, NULL, "override a search constant: NAME=VALUE (repeatable; see --list-params)", 0, 0},
    {"search-params", OPT_FILE, NULL, "file of NAME=VALUE lines ('#' comments), applied before --search-param", 0, 0},
    {"list-params", OPT_FLAG, NULL, "print the search parameters of the game (name, value, range, step) and exit", 0, 0},
    {"hash", OPT_INT, NULL, "transposition table size in MiB (default: by the time budget, 4 at 100 ms; 16 for depth or nodes)", 1, 65536},
    {"weights", OPT_WEIGHTS, NULL, "weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"db", OPT_DB, "dama.sqlite", "database for --weights tuned / db:ID (only read)", 0, 0},
    {"quiet", OPT_FLAG, NULL, "print only the final result, no per-iteration lines", 0, 0},
    CLI_EGTB_PLAY_OPTS,
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

int cli_search_params(struct Engine *e, const char *file, const char *list, char err[ERR_MAX])
{
    if (file) {
        FILE *f = file_open_read_as(file, "search parameter file", err);
        if (!f) return -1;
        char text[16384];
        size_t n = fread(text, 1, sizeof text - 1, f);
        bool more = fgetc(f) != EOF;
        int read_errno = ferror(f) ? errno : 0;
        fclose(f);
        text[n] = '\0';
        if (read_errno) {
            snprintf(err, ERR_MAX, "cannot read search parameter file '%.200s': %s", file, strerror(read_errno));
            return -1;
        }
        if (more) {
            snprintf(err, ERR_MAX, "search parameter file '%.200s' is over 16 KiB", file);
            return -1;
        }
        long cut = text_cut_line(text, n); /* cut short: "LMR_DIV=20" of "LMR_DIV=200" is another valid value */
        if (cut) {
            snprintf(err, ERR_MAX, "%.150s line %ld: " TEXT_LINE_CUT_MSG, file, cut);
            return -1;
        }
        /* a byte that is no text (a NUL hid the rest of the file; a byte-order mark made the first name "unknown") */
        long line_no = 1;
        for (const char *l = text; l < text + n; line_no++) {
            const char *nl = memchr(l, '\n', (size_t)(text + n - l));
            size_t len = (size_t)((nl ? nl : text + n) - l);
            char what[TEXT_WHAT_MAX];
            if (text_line_check(l, len > 0 && l[len - 1] == '\r' ? len - 1 : len, what)) {
                snprintf(err, ERR_MAX, "%.150s line %ld: %s", file, line_no, what);
                return -1;
            }
            l += len + 1;
        }
        char perr[ERR_MAX];
        if (engine_set_params_text(e, text, perr) != 0) { /* "FILE line N: ...", or "FILE: ..." */
            snprintf(err, ERR_MAX, "%.100s%s%.150s", file, strncmp(perr, "line ", 5) == 0 ? " " : ": ", perr);
            return -1;
        }
    }
    if (list && engine_set_params_text(e, list, err) != 0) return -1;
    return 0;
}

int cli_check_search_param(const CliArgs *a, const Game *g)
{
    const char *list = cli_str(a, "search-param");
    if (!list) return 0;
    Engine *scratch = engine_new(g, 1);
    if (!scratch) {
        fprintf(stderr, "dama %s: out of memory\n", a->command);
        return 1;
    }
    char err[ERR_MAX];
    int rc = engine_set_params_text(scratch, list, err);
    engine_free(scratch);
    if (rc == 0) return 0;
    fprintf(stderr, "dama %s: --search-param: %s\n", a->command, err);
    return 2;
}

static void list_params(const Game *g, const Engine *e)
{
    const SearchParamInfo *p = search_params();
    printf("# search parameters of %s: name value default min max step\n", g->name);
    for (int i = 0; i < SEARCH_PARAMS_COUNT; i++)
        if (search_param_applies(g, i)) /* one that does nothing here is refused here: not listed */
            printf("%-16s %6d %6d %6d %6d %5d  %s\n", p[i].name, engine_get_param(e, i), search_param_default(g, i),
                   p[i].min, p[i].max, p[i].step, p[i].doc);
}

/* The search stops at one limit: two given at once (depth and a time, a
 * clock and a movetime, ...) would leave one of them unused or make the
 * result depend on which ends first. Returns 0, or 2 after a message
 * naming both. */
static int check_one_limit(const CliArgs *a)
{
    static const char *const keys[] = {"depth", "nodes", "movetime", "time"};
    const char *first = NULL;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (!cli_isset(a, keys[k])) continue;
        if (!first) {
            first = keys[k];
            continue;
        }
        fprintf(stderr, "dama search: --%s %s and --%s %s are two search limits: give one of --depth, --nodes, "
                        "--movetime and --time (the clock, with --inc and --movestogo)\n",
                first, cli_str(a, first), keys[k], cli_str(a, keys[k]));
        return 2;
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (cli_egtb_default(a, g) != 0 || cli_egtb_dependents(a) != 0) return 2;
    int checked = cli_check_search_param(a, g);
    if (checked != 0) return checked;
    if (cli_flag(a, "list-params")) {
        Engine *e = engine_new(g, 1);
        char perr[ERR_MAX];
        if (!e) return 1;
        if (cli_search_params(e, cli_str(a, "search-params"), cli_str(a, "search-param"), perr) != 0) {
            fprintf(stderr, "dama search: %s\n", perr); /* the file's: --search-param was checked */
            engine_free(e);
            return 1;
        }
        list_params(g, e);
        engine_free(e);
        return 0;
    }
    char err[ERR_MAX];
    Position pos;
    if (cli_fen_position(a, g, &pos) != 0) return 1;
    SearchLimits lim = {.depth = (int)cli_int(a, "depth"), .nodes = (uint64_t)cli_int(a, "nodes"),
                        .movetime_ms = cli_int(a, "movetime"), .time_ms = cli_int(a, "time"),
                        .inc_ms = cli_int(a, "inc"), .movestogo = (int)cli_int(a, "movestogo")};
    /* every limit's range was checked by cli_parse */
    if (check_one_limit(a) != 0) return 2;
    if (!lim.time_ms) /* one message per option that needs the clock */
        for (const char *const *o = (const char *const[]){"inc", "movestogo", NULL}; *o; o++)
            if (cli_isset(a, *o)) return cli_bad_value(a, *o, "needs --time (the clock)");
    if (!lim.depth && !lim.nodes && !lim.movetime_ms && !lim.time_ms) lim.depth = 10;
    EVAL_AUTO_FREE int32_t *weights = eval_weights_new(g);
    if (!weights) {
        fprintf(stderr, "dama search: out of memory for %d weights\n", g->weights_len);
        return 1;
    }
    if (weights_resolve_path(g, cli_str(a, "weights"), cli_str(a, "db"), weights, NULL, err) != 0) {
        char label[CLI_LABEL_MAX];
        fprintf(stderr, "dama search: %s: %s\n", cli_opt_label(a, "weights", label, sizeof label), err);
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
    size_t hash_mb = cli_isset(a, "hash") ? (size_t)cli_int(a, "hash") : engine_hash_mb_for(&lim);
    Engine *e = engine_new(g, hash_mb);
    if (!e || (db && !prober)) {
        if (!e)
            fprintf(stderr, "dama search: %s%zu: cannot allocate a transposition table of %zu MiB (out of memory); give a "
                            "smaller value\n", cli_isset(a, "hash") ? "--hash " : "the default hash ", hash_mb, hash_mb);
        else fprintf(stderr, "dama search: out of memory for the endgame database's cache\n");
        engine_free(e);
        egtb_prober_free(prober);
        egtb_close(db);
        return 1;
    }
    if (prober) engine_set_probe(e, egtb_engine_probe, prober);
    engine_set_weights(e, weights);
    int fail = 0;
    if (cli_search_params(e, cli_str(a, "search-params"), cli_str(a, "search-param"), err) != 0) {
        fprintf(stderr, "dama search: %s\n", err); /* the file's (bad input, 1): --search-param was checked */
        fail = 1;
    } else if (prober && cli_int(a, "threads") > 1) {
        fprintf(stderr, "dama search: --threads above 1 with an endgame database is not supported (its prober is not shared between threads)\n");
        fail = 2;
    } else if (engine_set_threads(e, (int)cli_int(a, "threads")) != 0) {
        fprintf(stderr, "dama search: out of memory for %d threads\n", (int)cli_int(a, "threads"));
        fail = 1;
    }
    if (fail) {
        engine_free(e);
        egtb_prober_free(prober);
        egtb_close(db);
        return fail;
    }
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
        if (r.pv_len > 0) print_pv(g, &pos, r.pv, r.pv_len);
        else if (r.has_move) printf(" %s", text); /* the line starts with the move, as documented */
        putchar('\n');
        if (r.has_move && r.depth == 0)
            fprintf(stderr, "note: the limit ended the search within its first iteration: the move is the best of "
                            "those searched so far, and its score is no measure (give more time or nodes)\n");
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
    "[--game G] [--fen FEN] (--depth N | --nodes N | --movetime MS | --time MS [--inc MS] [--movestogo N]) [--threads N] [--search-param NAME=VALUE]... [--list-params]", OPTS, run, 0,
};
