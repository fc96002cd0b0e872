/* run_common.c — shared plumbing of the long-running commands. */
#include "cli/run_common.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/db.h"
#include "engine/search.h"
#include "tune/weights_file.h"

#ifndef DAMA_SOURCE_DIR
#define DAMA_SOURCE_DIR "."
#endif

double run_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int run_check_play_opts(const CliArgs *a)
{
    int64_t nodes = cli_int(a, "nodes"), depth = cli_int(a, "depth"), threads = cli_int(a, "threads");
    int64_t hash = cli_int(a, "hash"), max_plies = cli_int(a, "max-plies");
    if (nodes < 1 || depth < 0 || depth > 100 || threads < 0 || threads > 256 || hash < 1 || hash > 65536 ||
        max_plies < 1) {
        fprintf(stderr, "dama %s: need --nodes >= 1, --depth 0..100, --threads 0..256, --hash 1..65536 (MiB), "
                        "--max-plies >= 1\n", a->command);
        return 2;
    }
    return 0;
}

void run_progress_init(RunProgress *p, const char *what, int64_t total, double interval_s)
{
    p->what = what;
    p->total = total;
    p->start = p->last = run_now_s();
    p->interval = interval_s;
}

void run_progress_update(RunProgress *p, int64_t done, const int64_t wdl[3], bool final)
{
    double now = run_now_s();
    if (!final && (p->interval <= 0 || now - p->last < p->interval)) return;
    p->last = now;
    double rate = now > p->start ? (double)done / (now - p->start) : 0;
    double eta = rate > 0 ? (double)(p->total - done) / rate : 0;
    fprintf(stderr, "%s: %lld/%lld games, %.2f games/s", p->what, (long long)done, (long long)p->total, rate);
    if (wdl) fprintf(stderr, ", W/D/L %lld/%lld/%lld", (long long)wdl[0], (long long)wdl[1], (long long)wdl[2]);
    if (!final) fprintf(stderr, ", ETA %dm%02ds", (int)eta / 60, (int)eta % 60);
    fputc('\n', stderr);
}

int run_openings(const Game *g, const CliArgs *a, uint64_t seed, OpeningBook *book, char err[ERR_MAX])
{
    const char *path = cli_str(a, "openings");
    if (path && strcmp(path, "random") != 0) return openings_read(g, path, book, err);
    if (!path && g->opening_book) {
        char full[1024];
        if (access(g->opening_book, R_OK) == 0) return openings_read(g, g->opening_book, book, err);
        snprintf(full, sizeof full, "%s/%s", DAMA_SOURCE_DIR, g->opening_book);
        if (access(full, R_OK) == 0) return openings_read(g, full, book, err);
    }
    int plies = (int)cli_int(a, "random-plies");
    if (plies < 0 || plies > 40) {
        snprintf(err, ERR_MAX, "--random-plies must be 0..40");
        return -1;
    }
    int balance = cli_isset(a, "balance") ? (int)cli_int(a, "balance") : 0;
    return openings_random(g, 1024, plies, seed, balance, 2000, book, err);
}

const char **run_weight_names_new(const Game *g)
{
    size_t n = (size_t)g->weights_len;
    const char **names = malloc(n * sizeof(char *) + n * 48);
    if (!names) return NULL;
    char *store = (char *)(names + n);
    for (int t = 0; t < g->terms_len; t++) {
        const EvalTerm *term = &g->terms[t];
        for (int j = 0; j < term->count; j++) {
            char *s = store + (size_t)(term->offset + j) * 48;
            if (term->count == 1) snprintf(s, 48, "%s", term->name);
            else snprintf(s, 48, "%s[%d]", term->name, j);
            names[term->offset + j] = s;
        }
    }
    return names;
}

static bool all_digits(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

int weights_resolve_db(const Game *g, const char *spec, Db *db, int32_t *w, int64_t *id, char err[ERR_MAX])
{
    if (id) *id = 0;
    if (!spec || strcmp(spec, "default") == 0 || strcmp(spec, "compiled-in") == 0) {
        memcpy(w, g->weights_default, sizeof(int32_t) * (size_t)g->weights_len);
        return 0;
    }
    const char *num = strncmp(spec, "db:", 3) == 0 ? spec + 3 : spec;
    bool from_db = all_digits(num) || strcmp(spec, "tuned") == 0;
    if (!from_db) return weights_file_read(g, spec, w, err);
    if (!db) {
        snprintf(err, ERR_MAX, "weights '%.60s' need a database (--db)", spec);
        return -1;
    }
    int64_t wid = 0;
    if (strcmp(spec, "tuned") == 0) {
        if (db_weights_newest(db, g->name, "tuned", &wid, err) != 0) return -1;
        if (!wid) {
            snprintf(err, ERR_MAX, "no tuned %s weight set in %.150s (run dama tune first)", g->name, db_path(db));
            return -1;
        }
    } else {
        wid = strtoll(num, NULL, 10);
    }
    const char **names = run_weight_names_new(g);
    if (!names) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    int rc = db_weights_load(db, wid, g->name, names, w, g->weights_len, err);
    free(names);
    if (rc == 0 && id) *id = wid;
    return rc;
}

int run_store_base(Db *db, const Game *g, const char *spec, const int32_t *w, const char **names, int64_t run_id,
                   int64_t *id, char err[ERR_MAX])
{
    int32_t tmp[1024];
    int64_t wid = 0;
    if (spec && (strncmp(spec, "db:", 3) == 0 || all_digits(spec) || strcmp(spec, "tuned") == 0)) {
        if (weights_resolve_db(g, spec, db, tmp, &wid, err) != 0) return -1;
        *id = wid;
        return 0;
    }
    bool builtin = !spec || strcmp(spec, "default") == 0 || strcmp(spec, "compiled-in") == 0;
    char how[600];
    snprintf(how, sizeof how, builtin ? "compiled-in" : "file %.500s", spec);
    return db_weights_insert(db, g->name, builtin ? "compiled-in" : "from-file", 0, how, run_id, names, w,
                             g->weights_len, id, err);
}

bool worker_init(Worker *w, const Game *g, int64_t hash_mb, GameWriter *wr)
{
    size_t each = (size_t)(hash_mb / 2 > 0 ? hash_mb / 2 : 1);
    memset(w, 0, sizeof *w);
    w->eng[0] = engine_new(g, each);
    w->eng[1] = engine_new(g, each);
    if (!w->eng[0] || !w->eng[1] || play_record_init(&w->rec) != 0) {
        engine_free(w->eng[0]);
        engine_free(w->eng[1]);
        memset(w, 0, sizeof *w);
#pragma omp critical(game_writer)
        {
            snprintf(wr->err, ERR_MAX, "out of memory for a worker's engines (--hash %lld MiB)", (long long)hash_mb);
            wr->failed = true;
        }
        return false;
    }
    engine_set_stop_flag(w->eng[0], &cli_stop_requested);
    engine_set_stop_flag(w->eng[1], &cli_stop_requested);
    return true;
}

void worker_free(Worker *w)
{
    play_record_free(&w->rec);
    engine_free(w->eng[0]);
    engine_free(w->eng[1]);
    memset(w, 0, sizeof *w);
}

struct GamePending {
    DbGame game;
    DbPosition *positions;
    char *fens; /* plies * FEN_MAX */
    char *movetext;
    char opening[64];
    char start_fen[FEN_MAX];
};

static void pending_free(GamePending *p)
{
    if (!p) return;
    free(p->positions);
    free(p->fens);
    free(p->movetext);
    free(p);
}

static GamePending *pending_make(const Game *g, const PlayRecord *rec, const DbGame *meta)
{
    GamePending *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    int n = rec->plies;
    p->positions = calloc((size_t)(n ? n : 1), sizeof(DbPosition));
    p->fens = malloc((size_t)(n ? n : 1) * FEN_MAX);
    p->movetext = strdup(rec->movetext ? rec->movetext : "");
    if (!p->positions || !p->fens || !p->movetext) {
        pending_free(p);
        return NULL;
    }
    double result = outcome_score_white(rec->outcome) / 2.0;
    for (int i = 0; i < n; i++) {
        char *fen = p->fens + (size_t)i * FEN_MAX;
        g->pos_to_fen(&rec->positions[i], fen);
        p->positions[i] = (DbPosition){.ply = i, .fen = fen, .stm = g->side_to_move(&rec->positions[i]),
                                       .score = rec->scores[i], .has_score = true, .result = result,
                                       .quiet = rec->quiet[i]};
    }
    p->game = *meta;
    snprintf(p->opening, sizeof p->opening, "%s", meta->opening ? meta->opening : "");
    snprintf(p->start_fen, sizeof p->start_fen, "%s", meta->start_fen ? meta->start_fen : "");
    p->game.opening = p->opening;
    p->game.start_fen = p->start_fen;
    p->game.result = outcome_pdn(rec->outcome);
    p->game.reason = rec->reason;
    p->game.plies = n;
    p->game.movetext = p->movetext;
    p->game.positions = p->positions;
    p->game.positions_len = n;
    return p;
}

int game_writer_init(GameWriter *w, Db *db, int batch, double flush_interval_s)
{
    memset(w, 0, sizeof *w);
    w->db = db;
    w->batch = batch > 0 ? batch : 1;
    w->flush_interval_s = flush_interval_s;
    w->last_flush = run_now_s();
    w->pending = calloc((size_t)w->batch, sizeof *w->pending);
    if (!w->pending) {
        snprintf(w->err, ERR_MAX, "out of memory");
        w->failed = true;
        return -1;
    }
    return 0;
}

int game_writer_flush(GameWriter *w)
{
    if (w->failed) return -1;
    if (w->len == 0) return 0;
    int rc = db_begin(w->db, w->err);
    for (int i = 0; rc == 0 && i < w->len; i++) rc = db_game_insert(w->db, &w->pending[i]->game, NULL, w->err);
    if (rc == 0) rc = db_commit(w->db, w->err);
    if (rc != 0) {
        db_rollback(w->db);
        w->failed = true;
    } else {
        w->stored += w->len;
    }
    for (int i = 0; i < w->len; i++) pending_free(w->pending[i]);
    w->len = 0;
    w->last_flush = run_now_s();
    return rc;
}

int game_writer_add(GameWriter *w, const Game *g, const PlayRecord *rec, const DbGame *meta)
{
    if (w->failed) return -1;
    GamePending *p = pending_make(g, rec, meta);
    if (!p) {
        snprintf(w->err, ERR_MAX, "out of memory");
        w->failed = true;
        return -1;
    }
    w->pending[w->len++] = p;
    if (w->len == w->batch || run_now_s() - w->last_flush >= w->flush_interval_s) return game_writer_flush(w);
    return 0;
}

void game_writer_free(GameWriter *w)
{
    for (int i = 0; i < w->len; i++) pending_free(w->pending[i]);
    free(w->pending);
    memset(w, 0, sizeof *w);
}
