/* cmd_egtb.c — `dama egtb build|verify|probe|bench|draws`: endgame
 * databases (engine/egtb/egtb_tools.h), and the few-piece draw statistic
 * of a match (draws: arena/match_draws.h). */
#include <string.h>
#include <sys/stat.h>

#include "arena/match_draws.h"
#include "cli/cli.h"
#include "engine/egtb/egtb.h"
#include "engine/egtb/egtb_tools.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT_HELP("game: " CLI_EGTB_GAMES),
    {"dir", OPT_STR, NULL, "directory of the tables (build: created if missing); default: $DAMA_EGTB, else "
                           "$XDG_DATA_HOME/dama/egtb or ~/.local/share/dama/egtb, where every command that plays "
                           "finds them", 0, 0},
    {"pieces", OPT_INT, "4", "build: every material with up to this many pieces (2..8; not with --material)", 2, 8},
    {"material", OPT_STR, NULL, "build: only this material and those it turns into, e.g. 3k-1k, 2k1m-1k; verify: only this material's table", 0, 0},
    {"level", OPT_INT, "9", "build: zstd compression level (1..19)", 1, 19},
    {"threads", OPT_INT, "0", "build/verify: OpenMP threads (0: OpenMP's default)", 0, 256},
    {"no-symmetry", OPT_FLAG, NULL,
     "build/verify: solve (check against its children) every position, not one of each left-right mirrored pair "
     "(games whose indexer folds mirrored positions; the same tables, about twice the CPU)",
     0, 0},
    {"fen", OPT_STR, NULL, "probe: position string", 0, 0},
    {"sample", OPT_INT, "200", "verify: positions compared with a deep search (of --material's table if given, else of all; 0: none)", 0, 1000000},
    {"sample-depth", OPT_INT, "14", "verify: depth of each sample search, plies", 1, 60},
    {"seed", OPT_INT, "1", "verify/bench: random seed", 0, CLI_INT_MAX},
    {"probes", OPT_INT, "1000000", "bench: probes per measurement", 1, 100000000},
    {"db", OPT_DB, "dama.sqlite", "draws: the SQLite database of the match", 0, 0},
    {"match", OPT_INT, NULL, "draws: the match (matches.id) whose games are counted", 1, CLI_INT_MAX},
    {"reasons", OPT_STR, NULL, "draws: the draw reasons counted (comma-separated games.reason values: the game's own, or "
                               "one the match's draws were drawn by; another is refused); default: those of --game's "
                               "own move-count and material rules", 0, 0},
    {"list", OPT_FLAG, NULL, "draws: with tables, one line per missed win: the game, the engine that let it go, "
                             "the ply and position where it first held a database win, the distance, how the game ended",
     0, 0},
    {0},
};

static void on_built(void *ctx, const EgtbBuildStats *s)
{
    (void)ctx;
    char name[32];
    egtb_material_name(s->material, name);
    if (s->counted) { /* its counted table: results at count 0, and the count from which all are drawn */
        printf("%-12s counted: W %10llu D %10llu L %10llu at count 0, all drawn from count %d  %9llu bytes  %7.2f s  "
               "%7.1f CPU s%s\n",
               name, (unsigned long long)s->wins, (unsigned long long)s->draws, (unsigned long long)s->losses,
               s->max_dist, (unsigned long long)s->file_bytes, s->seconds, s->cpu_seconds,
               s->reused ? "  (existing file)" : "");
        fflush(stdout);
        return;
    }
    printf("%-12s %11llu positions  W %10llu D %10llu L %10llu  max %3d plies  %9llu bytes  %7.2f s  %7.1f CPU s%s\n",
           name, (unsigned long long)s->positions, (unsigned long long)s->wins, (unsigned long long)s->draws,
           (unsigned long long)s->losses, s->max_dist, (unsigned long long)s->file_bytes, s->seconds,
           s->cpu_seconds, s->reused ? "  (existing file)" : "");
    fflush(stdout);
}

static int do_build(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    EgtbMaterial only;
    /* --pieces 2..8 (EGTB_PIECES_MAX) and --level 1..19: checked by cli_parse */
    EgtbBuildOptions o = {.pieces = (int)cli_int(a, "pieces"), .zstd_level = (int)cli_int(a, "level"),
                          .no_symmetry = cli_flag(a, "no-symmetry"), .stop = &cli_stop_requested,
                          .report = on_built};
    if (cli_str(a, "material") && egtb_material_parse(cli_str(a, "material"), &only, err) != 0) {
        fprintf(stderr, "dama egtb build: --material: %s\n", err);
        return 2;
    }
    if (cli_str(a, "material")) o.only = &only;
    cli_install_stop_handler();
    EgtbBuildTotals tot;
    int rc = egtb_build_dir(g, dir, (int)cli_int(a, "threads"), &o, &tot, err);
    if (rc < 0 || rc == EGTB_BUILD_BUSY) {
        fprintf(stderr, "dama egtb build: %s\n", err);
        return rc < 0 ? 1 : DB_BUSY; /* the exit status of a second writer, as for a run */
    }
    printf("total %llu positions, %llu bytes, %.1f s, %d thread%s%s\n", (unsigned long long)tot.positions,
           (unsigned long long)tot.file_bytes, tot.seconds, tot.threads, TEXT_PLURAL(tot.threads),
           rc == 1 ? " (stopped: run the same command to resume)" : "");
    return rc == 1 ? 3 : 0;
}

static void on_verified(void *ctx, const EgtbVerifyStats *s)
{
    (void)ctx;
    char name[32];
    egtb_material_name(s->material, name);
    if (s->counted) strcat(name, "+count");
    printf("%-12s %11llu checked  %s", name, (unsigned long long)s->checked,
           s->mismatches || s->bad_index ? "MISMATCH" : "ok");
    if (s->mirrored) printf(" (%llu of them as the mirror image of one checked)", (unsigned long long)s->mirrored);
    if (s->mismatches || s->bad_index)
        printf(" (%llu values, %llu indices)", (unsigned long long)s->mismatches, (unsigned long long)s->bad_index);
    printf("\n");
    fflush(stdout);
}

static void on_consistent(void *ctx, bool mismatch, double wall_s, double cpu_s)
{
    (void)ctx;
    printf("consistency: %s (%.1f s, %.1f CPU s)\n",
           mismatch ? "MISMATCHES FOUND" : "every value agrees with its children", wall_s, cpu_s);
}

static void on_disagree(void *ctx, const char fen[FEN_MAX], uint8_t value, bool search_win, int plies)
{
    (void)ctx;
    char what[EGTB_TEXT_MAX];
    egtb_value_text(value, what);
    printf("disagree: %s  database %s, search %s in %d %s\n", fen, what, search_win ? "win" : "loss", plies,
           plies == 1 ? "ply" : "plies");
}

/* The error of an action that reads tables (probe, verify, bench): where
 * --dir was not given and the default directory is not there, the message
 * says how it comes to be (dama egtb build writes it) or to give --dir;
 * any other error as it is. */
static void say_error(CliArgs *a, const Game *g, const char *act, const char *dir, const char *err)
{
    struct stat st;
    if (!cli_str(a, "dir") && stat(dir, &st) != 0 && strstr(err, dir))
        fprintf(stderr, "dama egtb %s: the default endgame database directory '%s' does not exist: build the tables "
                        "there with 'dama egtb build --game %s', or give --dir DIR\n", act, dir, g->name);
    else fprintf(stderr, "dama egtb %s: %s\n", act, err);
}

static int do_verify(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    EgtbMaterial only;
    if (cli_str(a, "material") && egtb_material_parse(cli_str(a, "material"), &only, err) != 0) {
        fprintf(stderr, "dama egtb verify: --material: %s\n", err);
        return 2;
    }
    /* --sample and --sample-depth: ranges checked by cli_parse */
    EgtbCheckOptions o = {.only = cli_str(a, "material") ? &only : NULL, .symmetry = !cli_flag(a, "no-symmetry"),
                          .threads = (int)cli_int(a, "threads"), .sample = (int)cli_int(a, "sample"),
                          .sample_depth = (int)cli_int(a, "sample-depth"), .seed = (uint64_t)cli_int(a, "seed"),
                          .report = on_verified, .consistent = on_consistent, .disagree = on_disagree};
    EgtbSampleStats st;
    int rc = egtb_check(g, dir, &o, &st, err);
    if (rc < 0) {
        say_error(a, g, "verify", dir, err);
        return 1;
    }
    if (o.sample > 0) {
        printf("sample: %d positions%s, depth %d: %d results proven by the search, %d agree, %d disagree, %d left "
               "open\n", st.positions, o.only ? " of that material" : " of all tables", o.sample_depth, st.proven,
               st.agree, st.disagree, st.open);
        if (st.positions < o.sample)
            printf("sample: only %d of the %d asked for: the other positions drawn were decided by a rule\n",
                   st.positions, o.sample);
    }
    return rc ? 1 : 0;
}

static int do_probe(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    if (!cli_str(a, "fen")) {
        fprintf(stderr, "dama egtb probe: --fen is required\n");
        return 2;
    }
    EgtbProbeReport rep;
    if (egtb_probe_report(g, dir, cli_str(a, "fen"), &rep, err) != 0) {
        say_error(a, g, "probe", dir, err);
        return 1;
    }
    if (!rep.found) {
        fprintf(stderr, "dama egtb probe: %s\n", err);
        return 1;
    }
    char what[EGTB_TEXT_MAX];
    egtb_value_text(rep.value, what);
    static const char *const VERDICT[] = {"open (the move-count rules may draw it first)", "win", "draw", "loss"};
    /* a stored draw stays one whatever the counters: the line only for a stored win or loss */
    if (egtb_is_draw(rep.value)) printf("%s\n", what);
    else printf("%s\nwith the counters: %s\n", what, VERDICT[rep.verdict]);
    for (int i = 0; i < rep.moves_len; i++) printf("  %-16s opponent: %s\n", rep.moves[i].move, rep.moves[i].what);
    egtb_probe_report_free(&rep);
    return 0;
}

static int do_bench(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    EgtbBenchResult b; /* --probes 1..100000000: checked by cli_parse */
    if (egtb_bench(g, dir, cli_int(a, "probes"), (uint64_t)cli_int(a, "seed"), &b, err) != 0) {
        say_error(a, g, "bench", dir, err);
        return 1;
    }
    printf("probe: %.0f ns uncached (a block decompressed each time), %.0f ns cached, CPU time per probe; wall %.0f / "
           "%.0f ns (positions of the %d largest materials, up to %s; checksum %llu)\n",
           b.uncached_ns, b.cached_ns, b.uncached_wall_ns, b.cached_wall_ns, b.materials, b.largest,
           (unsigned long long)b.checksum);
    return 0;
}

/* ---- draws: who held the larger material in the few-piece rule draws ---- */

/* The reasons list "D7,D8": 0, or 2 after a message naming the bad entry
 * (an empty one included: "D7,,D8", "D7,"). */
static int parse_reasons(const char *text, MatchDraws *d)
{
    for (const char *p = text;; p += strcspn(p, ",") + 1) {
        size_t n = strcspn(p, ",");
        char why[64] = "";
        if (n == 0) snprintf(why, sizeof why, "reason %d is empty", d->reasons_len + 1);
        else if (n >= sizeof d->reasons[0])
            snprintf(why, sizeof why, "reason %d is longer than %zu characters", d->reasons_len + 1,
                     sizeof d->reasons[0] - 1);
        else if (d->reasons_len == MATCH_DRAW_REASONS_MAX)
            snprintf(why, sizeof why, "more than %d reasons", MATCH_DRAW_REASONS_MAX);
        if (why[0]) {
            fprintf(stderr, "dama egtb draws: --reasons '%s': %s\n", text, why);
            return 2;
        }
        memcpy(d->reasons[d->reasons_len], p, n);
        d->reasons[d->reasons_len++][n] = 0;
        if (!p[n]) return 0;
    }
}

/* --list: one line per side of a drawn game that let a database win go. */
static void on_missed_game(void *ctx, const MatchDrawsGame *m)
{
    (void)ctx;
    for (int side = 0; side < 2; side++) {
        if (!m->won[side]) continue;
        bool a = (m->game_index % 2 == 0) == (side == COLOR_WHITE); /* A has White in the even games */
        printf("missed: game %lld, %s (%s): ply %d %s, win in %d plies; drawn by %s at ply %d\n",
               (long long)m->game_index, a ? "A" : "B", side == COLOR_WHITE ? "White" : "Black", m->ply[side],
               m->fen[side], m->dist[side], m->reason ? m->reason : "?", m->plies);
    }
}

/* Is reason one of the game's own draw reasons (its repetition and rule
 * draws) or one the match's drawn games were drawn by (d->seen; d may be
 * NULL)? */
static bool reason_known(const Game *g, const MatchDraws *d, const char *reason)
{
    for (int k = 0; d && k < d->seen_len; k++)
        if (strcmp(d->seen[k], reason) == 0) return true;
    return (g->repetition_reason && strcmp(g->repetition_reason, reason) == 0) ||
           text_list_has(g->rule_draw_reasons, reason);
}

static int do_draws(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    if (!cli_isset(a, "match")) {
        fprintf(stderr, "dama egtb draws: --match N is required (the match whose games are counted)\n");
        return 2;
    }
    /* the game's own rule draws unless --reasons names others */
    const char *reasons = cli_str(a, "reasons") ? cli_str(a, "reasons") : g->rule_draw_reasons;
    if (!reasons) {
        fprintf(stderr, "dama egtb draws: %s names no rule draws of its own: give --reasons\n", g->name);
        return 2;
    }
    MatchDraws d;
    memset(&d, 0, sizeof d);
    if (parse_reasons(reasons, &d) != 0) return 2;
    int64_t id = cli_int(a, "match");
    /* the missed wins need the tables: those of --dir, which must hold the
     * game's (a --dir that does not printed the counts without a word), or
     * those of the default directory when it holds the game's */
    bool open_dir = cli_isset(a, "dir") || egtb_dir_has_tables(g, dir);
    Egtb *edb = open_dir ? egtb_open(g, dir, false, err) : NULL;
    if (open_dir && !edb) {
        fprintf(stderr, "dama egtb draws: --dir: %s\n", err);
        return 1;
    }
    if (cli_flag(a, "list") && !edb) {
        fprintf(stderr, "dama egtb draws: --list needs the tables (--dir, or the default directory with %s's)\n",
                g->name);
        return 2;
    }
    if (cli_flag(a, "list")) d.on_missed_game = on_missed_game;
    /* a reason neither the game's own nor met in the match is a typo, not zero draws: the reasons the
     * match's draws were drawn by first (no reasons and no tables: a read of the games, no replay) */
    bool own = true;
    for (int i = 0; i < d.reasons_len; i++) own = own && reason_known(g, NULL, d.reasons[i]);
    MatchDraws seen;
    memset(&seen, 0, sizeof seen);
    if (!own && match_draws_count(cli_str(a, "db"), g, id, NULL, &seen, err) != 0) {
        egtb_close(edb);
        fprintf(stderr, "dama egtb draws: %s\n", err);
        return 1;
    }
    for (int i = 0; !own && i < d.reasons_len; i++) {
        if (reason_known(g, &seen, d.reasons[i])) continue;
        char list[200] = "";
        size_t used = 0;
        for (int k = 0; k < seen.seen_len; k++)
            text_append(list, sizeof list, &used, "%s%s", k ? ", " : "", seen.seen[k]);
        char mine[120] = "";
        size_t o = 0;
        if (g->repetition_reason) text_append(mine, sizeof mine, &o, "%s", g->repetition_reason);
        if (g->rule_draw_reasons) text_append(mine, sizeof mine, &o, "%s%s", o ? "," : "", g->rule_draw_reasons);
        fprintf(stderr, "dama egtb draws: --reasons: '%s' is no draw reason of %s (its own: %s) and no game of "
                "match %lld was drawn by it (its draws: %s)\n", d.reasons[i], g->name, o ? mine : "none",
                (long long)id, used ? list : "none");
        egtb_close(edb);
        return 2;
    }
    int rc = match_draws_count(cli_str(a, "db"), g, id, edb, &d, err);
    egtb_close(edb);
    if (rc != 0) {
        fprintf(stderr, "dama egtb draws: %s\n", err);
        return 1;
    }
    printf("match %lld: %lld games, %lld drawn by %s; the larger material (pieces, then kings) at the end:\n",
           (long long)id, (long long)d.games, (long long)d.draws, reasons);
    printf("%-8s %8s %8s %8s %8s\n", "reason", "draws", "A", "B", "equal");
    for (int i = 0; i <= d.reasons_len; i++) {
        const int64_t *c = d.count[i == d.reasons_len ? MATCH_DRAW_REASONS_MAX : i];
        printf("%-8s %8lld %8lld %8lld %8lld\n", i == d.reasons_len ? "all" : d.reasons[i],
               (long long)(c[0] + c[1] + c[2]), (long long)c[0], (long long)c[1], (long long)c[2]);
    }
    if (edb)
        match_draws_print_missed(stdout, d.drawn, d.missed, dir);
    return 0;
}

/* The options each action takes (--game and --dir: every one); one given
 * to an action that does not use it would be ignored in silence, so it is
 * refused. */
static const CliActionOpt ACTION_OPTS[] = {
    {"pieces", "build", NULL},        {"material", "build verify", NULL}, {"level", "build", NULL},
    {"threads", "build verify", NULL}, {"no-symmetry", "build verify", NULL}, {"fen", "probe", NULL},
    {"sample", "verify", NULL},       {"sample-depth", "verify", NULL},   {"seed", "verify bench", NULL},
    {"probes", "bench", NULL},        {"db", "draws", NULL},              {"match", "draws", NULL},
    {"reasons", "draws", NULL},       {"list", "draws", NULL},
};

/* 0, or 2 after a message naming an option given on the command line that
 * action act does not use, or --pieces with --material. */
static int check_action_opts(const CliArgs *a, const char *act)
{
    if (cli_check_action_opts(a, act, ACTION_OPTS, sizeof ACTION_OPTS / sizeof ACTION_OPTS[0]) != 0) return 2;
    if (strcmp(act, "build") == 0 && cli_source(a, "material") == CLI_FROM_CLI && cli_source(a, "pieces") == CLI_FROM_CLI) {
        fprintf(stderr, "dama egtb build: --pieces and --material exclude each other: --pieces N builds every "
                        "material of up to N pieces, --material M that material and those it turns into\n");
        return 2;
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (!egtb_indexer(g)) {
        char names[160];
        cli_help_text("endgame databases exist for " CLI_EGTB_GAMES, names, sizeof names);
        fprintf(stderr, "dama egtb: no endgame database for %s (%s)\n", g->name, names);
        return 2;
    }
    if (a->positional_len != 1) {
        fprintf(stderr, "dama egtb: name an action: build, verify, probe, bench or draws\n");
        return 2;
    }
    static const char *const ACTIONS[] = {"build", "verify", "probe", "bench", "draws"};
    for (size_t i = 0; i < sizeof ACTIONS / sizeof ACTIONS[0]; i++)
        if (strcmp(a->positional[0], ACTIONS[i]) == 0 && check_action_opts(a, ACTIONS[i]) != 0) return 2;
    if (cli_flag(a, "no-symmetry") && !egtb_indexer(g)->symmetry) { /* nothing folded: nothing to turn off */
        fprintf(stderr, "dama egtb: --no-symmetry does nothing in %s: its tables fold no mirrored positions\n", g->name);
        return 2;
    }
    /* --threads 0..256 (build and verify: their OpenMP threads): checked by cli_parse */
    const char *dir = cli_str(a, "dir");
    char dflt[4096];
    if (dir && !*dir) {
        fprintf(stderr, "dama egtb: --dir: an empty path: name a directory, or leave --dir out for the default\n");
        return 2;
    }
    if (!dir) {
        if (egtb_default_dir(dflt, sizeof dflt) != 0) {
            fprintf(stderr, "dama egtb: no default directory (DAMA_EGTB is empty, or neither XDG_DATA_HOME nor "
                            "HOME is set): give --dir\n");
            return 2;
        }
        dir = dflt;
    }
    const char *act = a->positional[0];
    if (strcmp(act, "build") == 0) return do_build(a, g, dir);
    if (strcmp(act, "verify") == 0) return do_verify(a, g, dir);
    if (strcmp(act, "probe") == 0) return do_probe(a, g, dir);
    if (strcmp(act, "bench") == 0) return do_bench(a, g, dir);
    if (strcmp(act, "draws") == 0) return do_draws(a, g, dir);
    fprintf(stderr, "dama egtb: unknown action '%s' (build, verify, probe, bench, draws)\n", act);
    return 2;
}

const CliCommand cmd_egtb = {
    "egtb",
    "endgame databases: build (retrograde analysis), verify, probe, bench; draws of a match",
    "build|verify|probe|bench|draws [--game G] [--dir D] [--pieces N | --material M] [--fen FEN]\n\n"
    "  build   every position with up to --pieces pieces (or --material and what it turns into):\n"
    "          win/draw/loss for the side to move and the distance to the end in plies;\n"
    "          one zstd-compressed file per material in --dir (and a counted table, .egtc, solved with the\n"
    "          move count, of each material whose draw rules depend on where the pieces stand); a killed build resumes\n"
    "  verify  every stored value against its children's values, then --sample positions\n"
    "          against a deep search\n"
    "  probe   the database value of --fen and of each of its moves\n"
    "  bench   probe cost in ns, cached and uncached\n"
    "  draws   of the games of --match drawn by --reasons (the few-piece rules), in how many engine A\n"
    "          ended with the larger material (pieces, then kings), in how many B; with the tables of\n"
    "          --dir, the missed wins: drawn games that passed through a database win, by who let it go\n\n"
    "  Each option below names the actions it is for; one given to another action is refused (exit 2),\n"
    "  and so is build with both --pieces and --material.",
    OPTS, run, 1,
};
