/* cmd_egtb.c — `dama egtb build|verify|probe|bench`: endgame databases. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "egtb/egtb.h"
#include "engine/search.h"
#include "util/rng.h"

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian or turkish", 0, 0},
    {"dir", OPT_STR, "egtb", "directory of the tables (build: created if missing)", 0, 0},
    {"pieces", OPT_INT, "4", "build: every material with up to this many pieces (2..8)", 2, 8},
    {"material", OPT_STR, NULL, "build: only this material and those it turns into, e.g. 3k-1k, 2k1m-1k", 0, 0},
    {"level", OPT_INT, "9", "build: zstd compression level (1..19)", 1, 19},
    {"threads", OPT_INT, "0", "build/verify: OpenMP threads (0: OpenMP's default)", 0, 256},
    {"fen", OPT_STR, NULL, "probe: position string", 0, 0},
    {"sample", OPT_INT, "200", "verify: positions compared with a deep search (0: none)", 0, 1000000},
    {"sample-depth", OPT_INT, "14", "verify: depth of each sample search, plies", 1, 60},
    {"seed", OPT_INT, "1", "verify/bench: random seed", 0, CLI_INT_MAX},
    {"probes", OPT_INT, "1000000", "bench: probes per measurement", 1, 100000000},
    {0},
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this thread: probe costs on a shared machine (wall time
 * counts the waits for a core). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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
    printf("%-12s %11llu positions  W %10llu D %10llu L %10llu  max %3d plies  %9llu bytes  %7.2f s%s\n", name,
           (unsigned long long)s->positions, (unsigned long long)s->wins, (unsigned long long)s->draws,
           (unsigned long long)s->losses, s->max_dist, (unsigned long long)s->file_bytes, s->seconds,
           s->reused ? "  (existing file)" : "");
    fflush(stdout);
    tot[0] += s->positions;
    tot[1] += s->file_bytes;
}

static int do_build(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    EgtbMaterial only;
    EgtbBuildOptions o = {.pieces = (int)cli_int(a, "pieces"), .zstd_level = (int)cli_int(a, "level"),
                          .stop = &cli_stop_requested};
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
    double t0 = now_s();
    int rc = egtb_build(g, dir, &o, err);
    if (rc < 0) {
        fprintf(stderr, "dama egtb build: %s\n", err);
        return 1;
    }
    printf("total %llu positions, %llu bytes, %.1f s, %d threads%s\n", (unsigned long long)tot[0],
           (unsigned long long)tot[1], now_s() - t0, omp_get_max_threads(),
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
    if (s->mismatches || s->bad_index)
        printf(" (%llu values, %llu indices)", (unsigned long long)s->mismatches, (unsigned long long)s->bad_index);
    printf("\n");
    fflush(stdout);
}

/* Sample positions of the tables; a deep search that proves a result must
 * agree with the database (a search win is a win whatever its draw rules,
 * which only ever add draws; the database's distance is the shortest). */
static int verify_sample(const Game *g, Egtb *db, int count, int depth, uint64_t seed)
{
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial mats[1024];
    int nm = egtb_db_materials(db, mats, 1024);
    Engine *e = engine_new(g, 16);
    if (!e || nm == 0) {
        engine_free(e);
        fprintf(stderr, "dama egtb verify: out of memory\n");
        return 1;
    }
    uint64_t rng = seed;
    int proven = 0, agree = 0, contra = 0, open = 0;
    for (int i = 0; i < count;) {
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
    printf("sample: %d positions, depth %d: %d results proven by the search, %d agree, %d disagree, %d left open\n",
           count, depth, proven, agree, contra, open);
    return contra ? 1 : 0;
}

static int do_verify(CliArgs *a, const Game *g, const char *dir)
{
    char err[ERR_MAX];
    double t0 = now_s();
    int rc = egtb_verify(g, dir, on_verified, NULL, err);
    if (rc < 0) {
        fprintf(stderr, "dama egtb verify: %s\n", err);
        return 1;
    }
    printf("consistency: %s (%.1f s)\n", rc ? "MISMATCHES FOUND" : "every value agrees with its children", now_s() - t0);
    int64_t sample = cli_int(a, "sample"), depth = cli_int(a, "sample-depth");
    if (sample < 0 || depth < 1 || depth > 60) {
        fprintf(stderr, "dama egtb verify: --sample must be >= 0 and --sample-depth 1..60\n");
        return 2;
    }
    if (sample > 0) {
        Egtb *db = egtb_open(g, dir, false, err);
        if (!db) {
            fprintf(stderr, "dama egtb verify: %s\n", err);
            return 1;
        }
        rc |= verify_sample(g, db, (int)sample, (int)depth, (uint64_t)cli_int(a, "seed"));
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
    double t0 = now_s(), c0 = cpu_s();
    int64_t un = n / 10 + 1;
    EgtbCache *one = egtb_cache_new(1); /* one set: random positions always miss */
    for (int64_t i = 0; i < un && one; i++) {
        uint8_t v = 0;
        egtb_probe(db, one, &pos[i & 4095], &v);
        sum += v;
    }
    double unc = (now_s() - t0) / (double)un * 1e9, unc_cpu = (cpu_s() - c0) / (double)un * 1e9;
    egtb_cache_free(one);
    /* Cached: the same 64 positions over and over (their blocks stay). */
    for (int i = 0; i < 64; i++) {
        uint8_t v = 0;
        egtb_probe(db, cache, &pos[i], &v);
    }
    t0 = now_s();
    c0 = cpu_s();
    for (int64_t i = 0; i < n; i++) {
        uint8_t v = 0;
        egtb_probe(db, cache, &pos[i & 63], &v);
        sum += v;
    }
    double cac = (now_s() - t0) / (double)n * 1e9, cac_cpu = (cpu_s() - c0) / (double)n * 1e9;
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

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    if (!egtb_indexer(g)) {
        fprintf(stderr, "dama egtb: no endgame database for %s (russian, turkish)\n", g->name);
        return 2;
    }
    if (a->positional_len != 1) {
        fprintf(stderr, "dama egtb: name an action: build, verify, probe or bench\n");
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
    fprintf(stderr, "dama egtb: unknown action '%s' (build, verify, probe, bench)\n", act);
    return 2;
}

const CliCommand cmd_egtb = {
    "egtb",
    "endgame databases: build (retrograde analysis), verify, probe, bench",
    "build|verify|probe|bench [--game G] [--dir D] [--pieces N | --material M] [--fen FEN]\n\n"
    "  build   every position with up to --pieces pieces (or --material and what it turns into):\n"
    "          win/draw/loss for the side to move and the distance to the end in plies;\n"
    "          one zstd-compressed file per material in --dir; a killed build resumes\n"
    "  verify  every stored value against its children's values, then --sample positions\n"
    "          against a deep search\n"
    "  probe   the database value of --fen and of each of its moves\n"
    "  bench   probe cost in ns, cached and uncached",
    OPTS, run, 1,
};
