/* egtb_tools.c — build, verify, probe and bench over a directory of tables
 * (contracts in engine/egtb/egtb_tools.h). */
#include "engine/egtb/egtb_tools.h"

#include "engine/egtb/egtb_file.h"

#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/search.h"
#include "util/clock.h"
#include "util/rng.h"

void egtb_value_text(uint8_t v, char out[EGTB_TEXT_MAX])
{
    if (egtb_is_draw(v)) snprintf(out, EGTB_TEXT_MAX, "draw");
    else snprintf(out, EGTB_TEXT_MAX, "%s in %d %s", egtb_is_win(v) ? "win" : "loss", egtb_dist(v),
                  egtb_dist(v) == 1 ? "ply" : "plies");
}

/* ---- build ---------------------------------------------------------------- */

typedef struct BuildRun {
    const EgtbBuildOptions *o;
    EgtbBuildTotals *tot;
} BuildRun;

static void on_built(void *ctx, const EgtbBuildStats *s)
{
    BuildRun *b = ctx;
    if (b->o->report) b->o->report(b->o->ctx, s);
    if (!s->counted) b->tot->positions += s->positions; /* a counted table holds the same positions again */
    b->tot->file_bytes += s->file_bytes;
}

/* Lock dir for this build: an exclusive flock(2) on its lock file
 * (EGTB_BUILD_LOCK), held until *fd is closed; the kernel drops it when
 * the process ends, however it ends. The file holds the holder's pid, host
 * and start (UTC) for the refusal of a second build. Returns 0 (*fd open),
 * EGTB_BUILD_BUSY with err naming the holder, or -1 with err. A directory
 * that cannot hold the file (it does not exist) is left to egtb_build's
 * error: 0 with *fd = -1. */
static int lock_dir(const char *dir, int *fd, char err[ERR_MAX])
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, EGTB_BUILD_LOCK);
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (*fd < 0) return 0;
    if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char holder[160] = "";
        /* the holder writes its line just after it took the lock: a moment */
        for (int i = 0; i < 40 && !holder[0]; i++) {
            ssize_t n = pread(*fd, holder, sizeof holder - 1, 0);
            holder[n > 0 ? n : 0] = '\0';
            if (!holder[0]) nanosleep(&(struct timespec){0, 5000000}, NULL);
        }
        holder[strcspn(holder, "\n")] = '\0';
        close(*fd);
        *fd = -1;
        if (e != EWOULDBLOCK) {
            snprintf(err, ERR_MAX, "cannot lock %.200s: %s", path, strerror(e));
            return -1;
        }
        snprintf(err, ERR_MAX, "the tables in %.40s are being built by %.100s; one build a directory at a time: wait "
                 "for it, or stop it and run this again", dir, holder[0] ? holder : "another process");
        return EGTB_BUILD_BUSY;
    }
    char host[64] = "?", since[32] = "";
    if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "?");
    host[sizeof host - 1] = '\0';
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(since, sizeof since, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char line[160];
    int len = snprintf(line, sizeof line, "process %ld on host %s since %s\n", (long)getpid(), host, since);
    /* who holds it, for the refusal only (a failed write changes nothing):
     * the line first, then the file cut to it, so it is never empty */
    if (len > 0 && pwrite(*fd, line, (size_t)len, 0) == len) (void)!ftruncate(*fd, len);
    return 0;
}

int egtb_build_dir(const Game *game, const char *dir, int threads, const EgtbBuildOptions *o, EgtbBuildTotals *tot,
                   char err[ERR_MAX])
{
    memset(tot, 0, sizeof *tot);
    if (threads > 0) omp_set_num_threads(threads);
    char path[4200];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) /* mkdir -p */
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0777);
            *p = '/';
        }
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        snprintf(err, ERR_MAX, "cannot create the directory '%.200s': %s", dir, strerror(errno));
        return -1;
    }
    int lock = -1;
    int rc = lock_dir(dir, &lock, err);
    if (rc != 0) return rc;
    BuildRun b = {.o = o, .tot = tot};
    EgtbBuildOptions mine = *o;
    mine.report = on_built;
    mine.ctx = &b;
    double t0 = clock_now_s();
    rc = egtb_build(game, dir, &mine, err);
    tot->seconds = clock_now_s() - t0;
    tot->threads = omp_get_max_threads();
    if (lock >= 0) close(lock); /* the lock goes with it */
    return rc;
}

/* ---- verify --------------------------------------------------------------- */

/* Sample positions of the tables against a search of depth plies. Returns
 * 0, or -1 out of memory. */
static int verify_sample(const Game *g, Egtb *db, const EgtbCheckOptions *o, EgtbSampleStats *st)
{
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial mats[1024];
    int nm = egtb_db_materials(db, mats, 1024);
    if (o->only) mats[0] = *o->only, nm = 1; /* that material's positions only */
    Engine *e = engine_new(g, 16);
    if (!e || nm == 0) {
        engine_free(e);
        return -1;
    }
    uint64_t rng = o->seed;
    int count = o->sample, i = 0;
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
        SearchLimits lim = {.depth = o->sample_depth};
        SearchResult r;
        engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
        bool win = r.score >= SCORE_WIN_MIN, loss = r.score <= -SCORE_WIN_MIN;
        if (!win && !loss) {
            st->open++;
            continue;
        }
        st->proven++;
        int d = SCORE_WIN - (win ? r.score : -r.score);
        bool ok = win ? egtb_is_win(v) && egtb_dist(v) <= d : egtb_is_loss(v);
        if (ok) {
            st->agree++;
        } else {
            st->disagree++;
            char fen[FEN_MAX];
            g->pos_to_fen(&pos, fen);
            if (o->disagree) o->disagree(o->ctx, fen, v, win, d);
        }
    }
    engine_free(e);
    st->positions = i;
    return 0;
}

int egtb_check(const Game *game, const char *dir, const EgtbCheckOptions *o, EgtbSampleStats *st, char err[ERR_MAX])
{
    memset(st, 0, sizeof *st);
    if (o->threads > 0) omp_set_num_threads(o->threads);
    double t0 = clock_now_s(), c0 = clock_process_cpu_s();
    int rc = egtb_verify_only(game, dir, o->only, o->symmetry, o->report, o->ctx, err);
    if (rc < 0) return -1;
    if (o->consistent) o->consistent(o->ctx, rc != 0, clock_now_s() - t0, clock_process_cpu_s() - c0);
    if (o->sample <= 0) return rc ? 1 : 0;
    Egtb *db = egtb_open(game, dir, false, err);
    if (!db) return -1;
    int src = verify_sample(game, db, o, st);
    egtb_close(db);
    if (src != 0) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    return rc || st->disagree ? 1 : 0;
}

/* ---- probe ---------------------------------------------------------------- */

/* Why pos (not found in db) is not in the database: err gets a message
 * naming the material and, when its table is what is missing, the file in
 * dir and the command that builds it. */
static void not_found_why(const Game *g, const Egtb *db, const char *dir, const Position *pos, char err[ERR_MAX])
{
    EgtbMaterial m = egtb_db_indexer(db)->material(pos);
    int pieces = egtb_material_pieces(m);
    if (pieces > EGTB_PIECES_MAX) {
        snprintf(err, ERR_MAX, "not in the database: the position has %d pieces, a table at most %d", pieces,
                 EGTB_PIECES_MAX);
        return;
    }
    if (m.men[0] + m.kings[0] == 0 || m.men[1] + m.kings[1] == 0) {
        snprintf(err, ERR_MAX, "not in the database: a side has no pieces (the game is over)");
        return;
    }
    EgtbMaterial c = egtb_material_canonical(m) ? m : egtb_material_mirror(m);
    char name[32], path[4096];
    egtb_material_name(c, name);
    egtb_file_path(dir, g, c, path, sizeof path);
    /* a long path is shown by its end, marked "...": the file's name stays whole */
    size_t plen = strlen(path);
    const char *shown = plen > 90 ? path + plen - 87 : path;
    const char *cut = plen > 90 ? "..." : "";
    if (access(path, R_OK) != 0) {
        snprintf(err, ERR_MAX, "not in the database: no table of material %.16s%s: %s%s is missing (dama egtb "
                 "build --game %.24s --material %.16s builds it)", name,
                 c.men[0] == m.men[0] && c.kings[0] == m.kings[0] ? "" : ", colours swapped", cut, shown, g->name, name);
        return;
    }
    snprintf(err, ERR_MAX, "not in the database: the table of material %.16s (%s%s) has no index for this "
             "position (a man where no game can put it), or its block is unreadable", name, cut, shown);
}

/* The table of pos's material is intact, or was found so before (in
 * checked[0..*len)); false with err naming the damaged file. */
static bool table_checked(const Game *g, const Egtb *db, const char *dir, const Position *pos, int *checked,
                          int *len, char err[ERR_MAX])
{
    EgtbMaterial m = egtb_table_material(db, pos);
    if (egtb_material_pieces(m) > EGTB_PIECES_MAX) return true; /* no table; the key is one-to-one up to 8 */
    int key = egtb_material_key(m);
    for (int i = 0; i < *len; i++)
        if (checked[i] == key) return true;
    EgtbMaterial table;
    char why[ERR_MAX];
    char path[4096];
    bool intact = egtb_table_intact(db, pos, &table, why);
    if (!intact) egtb_file_path(dir, g, table, path, sizeof path);
    else intact = egtb_counted_intact(db, pos, path, why); /* its counted table too (EgtbIndexer.counted) */
    if (!intact) {
        size_t plen = strlen(path); /* a long path is shown by its end: the file's name stays whole */
        snprintf(err, ERR_MAX, "%s%.120s: %.120s", plen > 120 ? "..." : "", plen > 120 ? path + plen - 117 : path, why);
        return false;
    }
    if (*len < 64) checked[(*len)++] = key;
    return true;
}

int egtb_probe_report(const Game *g, const char *dir, const char *fen, EgtbProbeReport *rep, char err[ERR_MAX])
{
    memset(rep, 0, sizeof *rep);
    Position pos;
    if (game_parse_position(g, fen, &pos, err) != 0) return -1;
    Egtb *db = egtb_open(g, dir, false, err);
    if (!db) return -1;
    /* every table this report reads is checked whole first: a damaged block
     * would read as a position outside the database, a damaged value as
     * another value */
    int checked[64]; /* material keys of the tables found intact */
    int checked_len = 0;
    if (!table_checked(g, db, dir, &pos, checked, &checked_len, err)) {
        egtb_close(db);
        return -1;
    }
    if (!egtb_probe(db, NULL, &pos, &rep->value)) {
        not_found_why(g, db, dir, &pos, err);
        egtb_close(db);
        return 0;
    }
    rep->found = true;
    rep->verdict = egtb_verdict(db, &pos, rep->value);
    MoveList *list = malloc(sizeof *list);
    if (list) g->gen_moves(&pos, list, GEN_DISTINCT);
    rep->moves = list ? calloc((size_t)(list->len ? list->len : 1), sizeof *rep->moves) : NULL;
    if (!rep->moves) {
        free(list);
        egtb_close(db);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    for (int i = 0; i < list->len; i++) {
        EgtbMoveValue *m = &rep->moves[rep->moves_len++];
        Position child;
        uint8_t cv;
        g->make_move(&pos, &list->moves[i], &child);
        g->move_to_str(&pos, &list->moves[i], m->move);
        const char *why;
        Outcome o = g->rule_outcome(&child, &why);
        if (o == OUTCOME_NONE && !table_checked(g, db, dir, &child, checked, &checked_len, err)) {
            free(list);
            egtb_probe_report_free(rep);
            egtb_close(db);
            return -1;
        }
        if (o != OUTCOME_NONE) snprintf(m->what, sizeof m->what, "game over (%s)", why);
        else if (!egtb_probe(db, NULL, &child, &cv)) snprintf(m->what, sizeof m->what, "ends the game or leaves the database");
        else {
            egtb_value_text(cv, m->what);
            /* where the counts change it (the child's counters: one quiet ply more, or reset) */
            EgtbVerdict v = egtb_verdict(db, &child, cv);
            if (v == EGTB_DRAW && !egtb_is_draw(cv))
                snprintf(m->what + strlen(m->what), sizeof m->what - strlen(m->what), ", with the counters: draw");
            else if (v == EGTB_UNKNOWN)
                snprintf(m->what + strlen(m->what), sizeof m->what - strlen(m->what), ", with the counters: open");
        }
    }
    free(list);
    egtb_close(db);
    return 0;
}

void egtb_probe_report_free(EgtbProbeReport *rep)
{
    free(rep->moves);
    rep->moves = NULL;
    rep->moves_len = 0;
}

/* ---- bench ---------------------------------------------------------------- */

/* Uncached, then cached probes of pos (4,096 random positions); the
 * result's timings (the per-probe costs on this thread's CPU time: the
 * wall time also counts the waits for a core) and checksum. */
static void bench_probes(const Egtb *db, const Position *pos, EgtbCache *cache, int64_t n, EgtbBenchResult *res)
{
    uint64_t sum = 0;
    double t0 = clock_now_s(), c0 = clock_thread_cpu_s();
    int64_t un = n / 10 + 1;
    EgtbCache *one = egtb_cache_new(1); /* one set: random positions always miss */
    for (int64_t i = 0; i < un && one; i++) {
        uint8_t v = 0;
        egtb_probe(db, one, &pos[i & 4095], &v);
        sum += v;
    }
    res->uncached_wall_ns = (clock_now_s() - t0) / (double)un * 1e9;
    res->uncached_ns = (clock_thread_cpu_s() - c0) / (double)un * 1e9;
    egtb_cache_free(one);
    /* Cached: the same 64 positions over and over (their blocks stay). */
    for (int i = 0; i < 64; i++) {
        uint8_t v = 0;
        egtb_probe(db, cache, &pos[i], &v);
    }
    t0 = clock_now_s();
    c0 = clock_thread_cpu_s();
    for (int64_t i = 0; i < n; i++) {
        uint8_t v = 0;
        egtb_probe(db, cache, &pos[i & 63], &v);
        sum += v;
    }
    res->cached_wall_ns = (clock_now_s() - t0) / (double)n * 1e9;
    res->cached_ns = (clock_thread_cpu_s() - c0) / (double)n * 1e9;
    res->checksum = sum & 0xFFFF;
}

int egtb_bench(const Game *g, const char *dir, int64_t n, uint64_t seed, EgtbBenchResult *res, char err[ERR_MAX])
{
    memset(res, 0, sizeof *res);
    Egtb *db = egtb_open(g, dir, false, err);
    if (!db) return -1;
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial mats[1024];
    int nm = egtb_db_materials(db, mats, 1024);
    Position *pos = malloc(sizeof *pos * 4096);
    EgtbCache *cache = egtb_cache_new(1024);
    if (!pos || !cache || nm == 0) {
        snprintf(err, ERR_MAX, "out of memory");
        free(pos);
        egtb_cache_free(cache);
        egtb_close(db);
        return -1;
    }
    uint64_t rng = seed;
    /* 4,096 random positions of the largest material class present. */
    int np = 0;
    while (np < 4096) {
        EgtbMaterial m = mats[nm - 1 - (int)(rng_splitmix64(&rng) % (uint64_t)(nm < 8 ? nm : 8))];
        if (ix->decode(m, rng_splitmix64(&rng) % ix->size(m), &pos[np])) np++;
    }
    bench_probes(db, pos, cache, n, res);
    res->materials = nm < 8 ? nm : 8;
    egtb_material_name(mats[nm - 1], res->largest);
    free(pos);
    egtb_cache_free(cache);
    char dpath[4096], dwhy[ERR_MAX];
    int damaged = egtb_damage(db, dpath, dwhy); /* probes of its blocks missed: another checksum, other timings */
    if (damaged > 0)
        snprintf(err, ERR_MAX, "endgame table %.100s: %.60s: rebuild it (dama egtb build)", dpath, dwhy);
    egtb_close(db);
    return damaged > 0 ? -1 : 0;
}
