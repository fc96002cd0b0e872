/* cmd_egtb.c — `dama egtb build|verify|probe|bench|draws`: endgame
 * databases, and the few-piece draw statistic of a match (draws). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "db/db.h"
#include "engine/egtb/egtb.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "util/clock.h"
#include "util/rng.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT_HELP("game: " CLI_EGTB_GAMES),
    {"dir", OPT_STR, "egtb", "directory of the tables (build: created if missing)", 0, 0},
    {"pieces", OPT_INT, "4", "build: every material with up to this many pieces (2..8)", 2, 8},
    {"material", OPT_STR, NULL, "build: only this material and those it turns into, e.g. 3k-1k, 2k1m-1k; verify: only this material's table", 0, 0},
    {"level", OPT_INT, "9", "build: zstd compression level (1..19)", 1, 19},
    {"threads", OPT_INT, "0", "build/verify: OpenMP threads (0: OpenMP's default)", 0, 256},
    {"no-symmetry", OPT_FLAG, NULL,
     "build/verify: solve (check against its children) every position, not one of each left-right mirrored pair "
     "(Turkish; the same tables, about twice the CPU)",
     0, 0},
    {"fen", OPT_STR, NULL, "probe: position string", 0, 0},
    {"sample", OPT_INT, "200", "verify: positions compared with a deep search (of --material's table if given, else of all; 0: none)", 0, 1000000},
    {"sample-depth", OPT_INT, "14", "verify: depth of each sample search, plies", 1, 60},
    {"seed", OPT_INT, "1", "verify/bench: random seed", 0, CLI_INT_MAX},
    {"probes", OPT_INT, "1000000", "bench: probes per measurement", 1, 100000000},
    {"db", OPT_DB, "dama.sqlite", "draws: the SQLite database of the match", 0, 0},
    {"match", OPT_INT, NULL, "draws: the match (matches.id) whose games are counted", 1, CLI_INT_MAX},
    {"reasons", OPT_STR, "D4,D5,D6,D7,D8", "draws: the draw reasons counted (comma-separated games.reason values)", 0, 0},
    {0},
};

/* CPU time of this thread: probe costs on a shared machine (wall time
 * counts the waits for a core). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process, every thread. */
static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void describe(uint8_t v, char *out, size_t n)
{
    if (egtb_is_draw(v)) snprintf(out, n, "draw");
    else snprintf(out, n, "%s in %d plies", egtb_is_win(v) ? "win" : "loss", egtb_dist(v));
}

static void on_built(void *ctx, const EgtbBuildStats *s)
{
    uint64_t *tot = ctx;
    char name[32];
    egtb_material_name(s->material, name);
    printf("%-12s %11llu positions  W %10llu D %10llu L %10llu  max %3d plies  %9llu bytes  %7.2f s  %7.1f CPU s%s\n",
           name,
           (unsigned long long)s->positions, (unsigned long long)s->wins, (unsigned long long)s->draws,
           (unsigned long long)s->losses, s->max_dist, (unsigned long long)s->file_bytes, s->seconds,
           s->cpu_seconds, s->reused ? "  (existing file)" : "");
    fflush(stdout);
    tot[0] += s->positions;
    tot[1] += s->file_bytes;
}

static int do_build(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    EgtbMaterial only;
    EgtbBuildOptions o = {.pieces = (int)cli_int(a, "pieces"), .zstd_level = (int)cli_int(a, "level"),
                          .no_symmetry = cli_flag(a, "no-symmetry"), .stop = &cli_stop_requested};
    if (cli_str(a, "material")) {
        if (egtb_material_parse(cli_str(a, "material"), &only, err) != 0) {
            fprintf(stderr, "dama egtb: --material: %s\n", err);
            return 2;
        }
        o.only = &only;
    } else if (o.pieces < 2 || o.pieces > EGTB_PIECES_MAX) {
        fprintf(stderr, "dama egtb: --pieces must be 2..%d, not %d\n", EGTB_PIECES_MAX, o.pieces);
        return 2;
    }
    if (o.zstd_level < 1 || o.zstd_level > 19) {
        fprintf(stderr, "dama egtb: --level must be 1..19\n");
        return 2;
    }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "%s", dir);
    for (char *p = cmd + 1; *p; p++) /* mkdir -p */
        if (*p == '/') {
            *p = 0;
            mkdir(cmd, 0777);
            *p = '/';
        }
    mkdir(cmd, 0777);
    uint64_t tot[2] = {0, 0};
    o.report = on_built;
    o.ctx = tot;
    cli_install_stop_handler();
    double t0 = clock_now_s();
    int rc = egtb_build(g, dir, &o, err);
    if (rc < 0) {
        fprintf(stderr, "dama egtb build: %s\n", err);
        return 1;
    }
    printf("total %llu positions, %llu bytes, %.1f s, %d threads%s\n", (unsigned long long)tot[0],
           (unsigned long long)tot[1], clock_now_s() - t0, omp_get_max_threads(),
           rc == 1 ? " (stopped: run the same command to resume)" : "");
    return rc == 1 ? 3 : 0;
}

static void on_verified(void *ctx, const EgtbVerifyStats *s)
{
    (void)ctx;
    char name[32];
    egtb_material_name(s->material, name);
    printf("%-12s %11llu checked  %s", name, (unsigned long long)s->checked,
           s->mismatches || s->bad_index ? "MISMATCH" : "ok");
    if (s->mirrored) printf(" (%llu of them as the mirror image of one checked)", (unsigned long long)s->mirrored);
    if (s->mismatches || s->bad_index)
        printf(" (%llu values, %llu indices)", (unsigned long long)s->mismatches, (unsigned long long)s->bad_index);
    printf("\n");
    fflush(stdout);
}

/* Sample positions of the tables; a deep search that proves a result must
 * agree with the database (a search win is a win whatever its draw rules,
 * which only ever add draws; the database's distance is the shortest). */
static int verify_sample(const Game *g, Egtb *db, const EgtbMaterial *only, int count, int depth, uint64_t seed)
{
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial mats[1024];
    int nm = egtb_db_materials(db, mats, 1024);
    if (only) mats[0] = *only, nm = 1; /* --material: that table's positions only */
    Engine *e = engine_new(g, 16);
    if (!e || nm == 0) {
        engine_free(e);
        fprintf(stderr, "dama egtb verify: out of memory\n");
        return 1;
    }
    uint64_t rng = seed;
    int proven = 0, agree = 0, contra = 0, open = 0, i = 0;
    /* A table may hold few positions a search can take (a lone man's are
     * all decided by the rule): give up after this many draws. */
    for (int64_t tries = 0; i < count && tries < (int64_t)count * 1000 + 100000; tries++) {
        EgtbMaterial m = mats[rng_splitmix64(&rng) % (uint64_t)nm];
        uint64_t idx = rng_splitmix64(&rng) % ix->size(m);
        Position pos;
        if (!ix->decode(m, idx, &pos)) continue;
        MoveList moves;
        const char *why;
        if (game_outcome(g, &pos, NULL, 0, &why, &moves) != OUTCOME_NONE) continue;
        uint8_t v;
        if (!egtb_probe(db, NULL, &pos, &v)) continue;
        i++;
        engine_clear(e);
        SearchLimits lim = {.depth = depth};
        SearchResult r;
        engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
        bool win = r.score >= SCORE_WIN_MIN, loss = r.score <= -SCORE_WIN_MIN;
        if (!win && !loss) {
            open++;
            continue;
        }
        proven++;
        int d = SCORE_WIN - (win ? r.score : -r.score);
        bool ok = win ? egtb_is_win(v) && egtb_dist(v) <= d : egtb_is_loss(v);
        if (ok) {
            agree++;
        } else {
            contra++;
            char fen[FEN_MAX], what[64];
            g->pos_to_fen(&pos, fen);
            describe(v, what, sizeof what);
            printf("disagree: %s  database %s, search %s in %d plies\n", fen, what, win ? "win" : "loss", d);
        }
    }
    engine_free(e);
    printf("sample: %d positions%s, depth %d: %d results proven by the search, %d agree, %d disagree, %d left open\n",
           i, only ? " of that material" : " of all tables", depth, proven, agree, contra, open);
    if (i < count) printf("sample: only %d of the %d asked for: the other positions drawn were decided by a rule\n", i, count);
    return contra ? 1 : 0;
}

static int do_verify(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    EgtbMaterial only;
    if (cli_str(a, "material") && egtb_material_parse(cli_str(a, "material"), &only, err) != 0) {
        fprintf(stderr, "dama egtb verify: --material: %s\n", err);
        return 2;
    }
    double t0 = clock_now_s(), c0 = process_cpu_s();
    int rc = egtb_verify_only(g, dir, cli_str(a, "material") ? &only : NULL, !cli_flag(a, "no-symmetry"), on_verified,
                              NULL, err);
    if (rc < 0) {
        fprintf(stderr, "dama egtb verify: %s\n", err);
        return 1;
    }
    printf("consistency: %s (%.1f s, %.1f CPU s)\n", rc ? "MISMATCHES FOUND" : "every value agrees with its children",
           clock_now_s() - t0, process_cpu_s() - c0);
    int64_t sample = cli_int(a, "sample"), depth = cli_int(a, "sample-depth");
    /* --sample and --sample-depth: ranges checked by cli_parse */
    if (sample > 0) {
        Egtb *db = egtb_open(g, dir, false, err);
        if (!db) {
            fprintf(stderr, "dama egtb verify: %s\n", err);
            return 1;
        }
        rc |= verify_sample(g, db, cli_str(a, "material") ? &only : NULL, (int)sample, (int)depth, (uint64_t)cli_int(a, "seed"));
        egtb_close(db);
    }
    return rc ? 1 : 0;
}

static int do_probe(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    Position pos;
    if (!cli_str(a, "fen")) {
        fprintf(stderr, "dama egtb probe: --fen is required\n");
        return 2;
    }
    if (game_parse_position(g, cli_str(a, "fen"), &pos, err) != 0) {
        fprintf(stderr, "dama egtb probe: %s\n", err);
        return 1;
    }
    Egtb *db = egtb_open(g, dir, false, err);
    if (!db) {
        fprintf(stderr, "dama egtb probe: %s\n", err);
        return 1;
    }
    uint8_t v;
    if (!egtb_probe(db, NULL, &pos, &v)) {
        printf("not in the database\n");
        egtb_close(db);
        return 0;
    }
    char what[64];
    describe(v, what, sizeof what);
    static const char *const VERDICT[] = {"open (the move-count rules may draw it first)", "win", "draw", "loss"};
    printf("%s\nwith the counters: %s\n", what, VERDICT[egtb_verdict(db, &pos, v)]);
    MoveList list;
    g->gen_moves(&pos, &list, GEN_DISTINCT);
    for (int i = 0; i < list.len; i++) {
        Position child;
        char text[MOVE_STR_MAX];
        uint8_t cv;
        g->make_move(&pos, &list.moves[i], &child);
        g->move_to_str(&pos, &list.moves[i], text);
        const char *why;
        Outcome o = g->rule_outcome(&child, &why);
        if (o != OUTCOME_NONE) snprintf(what, sizeof what, "game over (%s)", why);
        else if (!egtb_probe(db, NULL, &child, &cv)) snprintf(what, sizeof what, "ends the game or leaves the database");
        else describe(cv, what, sizeof what);
        printf("  %-16s opponent: %s\n", text, what);
    }
    egtb_close(db);
    return 0;
}

static int do_bench(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    Egtb *db = egtb_open(g, dir, false, err);
    if (!db) {
        fprintf(stderr, "dama egtb bench: %s\n", err);
        return 1;
    }
    int64_t n = cli_int(a, "probes");
    if (n < 1 || n > 100000000) {
        fprintf(stderr, "dama egtb bench: --probes must be 1..100000000\n");
        egtb_close(db);
        return 2;
    }
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial mats[1024];
    int nm = egtb_db_materials(db, mats, 1024);
    Position *pos = malloc(sizeof *pos * 4096);
    EgtbCache *cache = egtb_cache_new(1024);
    if (!pos || !cache || nm == 0) {
        fprintf(stderr, "dama egtb bench: out of memory\n");
        free(pos);
        egtb_cache_free(cache);
        egtb_close(db);
        return 1;
    }
    uint64_t rng = (uint64_t)cli_int(a, "seed");
    /* 4,096 random positions of the largest material class present. */
    int np = 0;
    while (np < 4096) {
        EgtbMaterial m = mats[nm - 1 - (int)(rng_splitmix64(&rng) % (uint64_t)(nm < 8 ? nm : 8))];
        if (ix->decode(m, rng_splitmix64(&rng) % ix->size(m), &pos[np])) np++;
    }
    uint64_t sum = 0;
    double t0 = clock_now_s(), c0 = cpu_s();
    int64_t un = n / 10 + 1;
    EgtbCache *one = egtb_cache_new(1); /* one set: random positions always miss */
    for (int64_t i = 0; i < un && one; i++) {
        uint8_t v = 0;
        egtb_probe(db, one, &pos[i & 4095], &v);
        sum += v;
    }
    double unc = (clock_now_s() - t0) / (double)un * 1e9, unc_cpu = (cpu_s() - c0) / (double)un * 1e9;
    egtb_cache_free(one);
    /* Cached: the same 64 positions over and over (their blocks stay). */
    for (int i = 0; i < 64; i++) {
        uint8_t v = 0;
        egtb_probe(db, cache, &pos[i], &v);
    }
    t0 = clock_now_s();
    c0 = cpu_s();
    for (int64_t i = 0; i < n; i++) {
        uint8_t v = 0;
        egtb_probe(db, cache, &pos[i & 63], &v);
        sum += v;
    }
    double cac = (clock_now_s() - t0) / (double)n * 1e9, cac_cpu = (cpu_s() - c0) / (double)n * 1e9;
    char name[32];
    egtb_material_name(mats[nm - 1], name);
    printf("probe: %.0f ns uncached (a block decompressed each time), %.0f ns cached, CPU time per probe; wall %.0f / %.0f ns "
           "(positions of the %d largest materials, up to %s; checksum %llu)\n",
           unc_cpu, cac_cpu, unc, cac, nm < 8 ? nm : 8, name, (unsigned long long)(sum & 0xFFFF));
    free(pos);
    egtb_cache_free(cache);
    egtb_close(db);
    return 0;
}

/* ---- draws: who held the larger material in the few-piece rule draws ---- */

enum { DRAW_REASONS_MAX = 16 };

typedef struct DrawStats {
    const Game *game;
    const EgtbIndexer *ix;
    char reasons[DRAW_REASONS_MAX][16];
    int nreasons;
    int64_t count[DRAW_REASONS_MAX + 1][3]; /* [reason, last = all][A larger, B larger, equal] */
    int64_t games, draws;
    char *err;
} DrawStats;

/* The reasons list "D7,D8": 0, or 2 after a message naming the bad entry
 * (an empty one included: "D7,,D8", "D7,"). */
static int parse_reasons(const char *text, DrawStats *d)
{
    const char *p = text;
    for (;;) {
        size_t n = strcspn(p, ",");
        if (n == 0) {
            fprintf(stderr, "dama egtb draws: --reasons '%s': reason %d is empty\n", text, d->nreasons + 1);
            return 2;
        }
        if (n >= sizeof d->reasons[0]) {
            fprintf(stderr, "dama egtb draws: --reasons '%s': reason %d is longer than %zu characters\n", text,
                    d->nreasons + 1, sizeof d->reasons[0] - 1);
            return 2;
        }
        if (d->nreasons == DRAW_REASONS_MAX) {
            fprintf(stderr, "dama egtb draws: --reasons '%s': more than %d reasons\n", text, DRAW_REASONS_MAX);
            return 2;
        }
        memcpy(d->reasons[d->nreasons], p, n);
        d->reasons[d->nreasons++][n] = 0;
        if (!p[n]) return 0;
        p += n + 1;
    }
}

/* Replay the movetext (move numbers "12." / "12..." and a result skipped)
 * from the start position; 0, or -1 with d->err naming the game. */
static int final_position(DrawStats *d, const DbGameRow *g, GameRecord *rec)
{
    char err[ERR_MAX];
    if (game_record_init(rec, d->game, g->start_fen, err) != 0) {
        snprintf(d->err, ERR_MAX, "game %lld: start position: %.200s", (long long)g->id, err);
        return -1;
    }
    const char *p = g->movetext ? g->movetext : "";
    char tok[MOVE_STR_MAX * 2];
    while (*p) {
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
        size_t n = strcspn(p, " \n\t\r");
        if (n == 0) break;
        if (n >= sizeof tok) {
            snprintf(d->err, ERR_MAX, "game %lld: movetext token '%.40s...' too long", (long long)g->id, p);
            game_record_free(rec);
            return -1;
        }
        memcpy(tok, p, n);
        tok[n] = 0;
        p += n;
        bool number = tok[0] >= '0' && tok[0] <= '9' && tok[n - 1] == '.';
        bool result = !strcmp(tok, "1-0") || !strcmp(tok, "0-1") || !strcmp(tok, "1/2-1/2") || !strcmp(tok, "*") ||
                      !strcmp(tok, "2-0") || !strcmp(tok, "0-2") || !strcmp(tok, "1-1");
        if (number || result) continue;
        if (game_record_apply_text(rec, tok, err) != 0) {
            snprintf(d->err, ERR_MAX, "game %lld: ply %d: %.200s", (long long)g->id, rec->len + 1, err);
            game_record_free(rec);
            return -1;
        }
    }
    return 0;
}

static int count_draw(void *ctx, const DbGameRow *g)
{
    DrawStats *d = ctx;
    d->games++;
    if (!g->result || strcmp(g->result, "1/2-1/2") != 0 || !g->reason) return 0;
    if (!g->game || strcmp(g->game, d->game->name) != 0) {
        snprintf(d->err, ERR_MAX, "game %lld is %s, not %s (give --game)", (long long)g->id, g->game ? g->game : "?",
                 d->game->name);
        return -1;
    }
    int r = -1;
    for (int i = 0; i < d->nreasons; i++)
        if (strcmp(g->reason, d->reasons[i]) == 0) r = i;
    if (r < 0) return 0;
    GameRecord rec;
    if (final_position(d, g, &rec) != 0) return -1;
    int cmp = egtb_material_compare(d->ix->material(game_record_position(&rec)));
    game_record_free(&rec);
    /* match games: A has White in the even games (play/match.c) */
    bool a_white = g->game_index % 2 == 0;
    int who = cmp == 0 ? 2 : (cmp > 0) == a_white ? 0 : 1;
    d->count[r][who]++;
    d->count[DRAW_REASONS_MAX][who]++;
    d->draws++;
    return 0;
}

static int do_draws(CliArgs *a, const Game *g)
{
    char err[ERR_MAX];
    if (!cli_isset(a, "match")) {
        fprintf(stderr, "dama egtb draws: --match N is required (the match whose games are counted)\n");
        return 2;
    }
    DrawStats d = {.game = g, .ix = egtb_indexer(g), .err = err};
    if (parse_reasons(cli_str(a, "reasons"), &d) != 0) return 2;
    const char *path = cli_str(a, "db");
    Db *db = NULL;
    if (db_open_for_reading(path, &db, err) != 0) {
        fprintf(stderr, "dama egtb draws: %s\n", err);
        return 1;
    }
    db_close(db);
    int64_t id = cli_int(a, "match");
    int rc = db_game_rows_each(path, DB_SELECT_MATCH, id, NULL, count_draw, &d, err);
    if (rc != 0) { /* the reader's own messages name the file already, a game's do not */
        size_t n = strlen(path);
        bool named = strncmp(err, path, n) == 0 && err[n] == ':';
        fprintf(stderr, "dama egtb draws: %s%s%s\n", named ? "" : path, named ? "" : ": ", err);
        return 1;
    }
    printf("match %lld: %lld games, %lld drawn by %s; the larger material (pieces, then kings) at the end:\n",
           (long long)id, (long long)d.games, (long long)d.draws, cli_str(a, "reasons"));
    printf("%-8s %8s %8s %8s %8s\n", "reason", "draws", "A", "B", "equal");
    for (int i = 0; i <= d.nreasons; i++) {
        const int64_t *c = d.count[i == d.nreasons ? DRAW_REASONS_MAX : i];
        printf("%-8s %8lld %8lld %8lld %8lld\n", i == d.nreasons ? "all" : d.reasons[i],
               (long long)(c[0] + c[1] + c[2]), (long long)c[0], (long long)c[1], (long long)c[2]);
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (!egtb_indexer(g)) {
        fprintf(stderr, "dama egtb: no endgame database for %s (russian, turkish)\n", g->name);
        return 2;
    }
    if (a->positional_len != 1) {
        fprintf(stderr, "dama egtb: name an action: build, verify, probe, bench or draws\n");
        return 2;
    }
    int64_t threads = cli_int(a, "threads");
    if (threads < 0 || threads > 256) {
        fprintf(stderr, "dama egtb: --threads must be 0..256\n");
        return 2;
    }
    if (threads > 0) omp_set_num_threads((int)threads);
    const char *dir = cli_str(a, "dir");
    const char *act = a->positional[0];
    if (strcmp(act, "build") == 0) return do_build(a, g, dir);
    if (strcmp(act, "verify") == 0) return do_verify(a, g, dir);
    if (strcmp(act, "probe") == 0) return do_probe(a, g, dir);
    if (strcmp(act, "bench") == 0) return do_bench(a, g, dir);
    if (strcmp(act, "draws") == 0) return do_draws(a, g);
    fprintf(stderr, "dama egtb: unknown action '%s' (build, verify, probe, bench, draws)\n", act);
    return 2;
}

const CliCommand cmd_egtb = {
    "egtb",
    "endgame databases: build (retrograde analysis), verify, probe, bench; draws of a match",
    "build|verify|probe|bench|draws [--game G] [--dir D] [--pieces N | --material M] [--fen FEN]\n\n"
    "  build   every position with up to --pieces pieces (or --material and what it turns into):\n"
    "          win/draw/loss for the side to move and the distance to the end in plies;\n"
    "          one zstd-compressed file per material in --dir; a killed build resumes\n"
    "  verify  every stored value against its children's values, then --sample positions\n"
    "          against a deep search\n"
    "  probe   the database value of --fen and of each of its moves\n"
    "  bench   probe cost in ns, cached and uncached\n"
    "  draws   of the games of --match drawn by --reasons (the few-piece rules), in how many engine A\n"
    "          ended with the larger material (pieces, then kings), in how many B",
    OPTS, run, 1,
};
