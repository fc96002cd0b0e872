/* hub.c — the Hub protocol (version 2, Scan 3.1) over a file descriptor and
 * a stream; see hub.h and docs/hub.md. */
#include "protocol/hub.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book/book.h"
#include "dama/engine.h" /* DAMA_VERSION_STRING */
#include "db/db.h"
#include "engine/egtb/egtb.h"
#include "engine/eval.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "engine/skill.h"
#include "engine/timeman.h"
#include "db/weight_sets.h"
#include "protocol/hub_notation.h"
#include "util/clock.h"
#include "util/num.h"

/* ---- the engine ----------------------------------------------------------- */

enum {
    EGTB_CACHE_BLOCKS = 1024, /* the prober's cache, as self-play's */
    HUB_PANIC_MS = 50         /* a clock this short (after the lag margin) gets a depth-1 move: the
                                 * most the time manager keeps back (engine/timeman.h) */
};

typedef enum GoMode { GO_THINK, GO_PONDER, GO_ANALYZE } GoMode;

/* The longest path of a weight file, database or table directory, with its NUL (PATH_MAX). */
enum { HUB_PATH_MAX = 4096 };

/* The parameters the engine is built from (init, or a set-param after it). */
typedef struct EngineParams {
    char variant[32];
    int hash_mb;
    char weights[HUB_PATH_MAX];
    char db[HUB_PATH_MAX];
    char egtb_path[HUB_PATH_MAX]; /* "": no endgame database */
    bool egtb_optional;  /* egtb_path is the default directory (HubOptions.egtb_optional) */
    int egtb_pieces;     /* 0: every table it holds */
} EngineParams;

typedef struct Hub {
    FILE *out;
    pthread_mutex_t lock; /* output lines, `searching`, `ponder_hit` */
    pthread_cond_t wake;  /* a weakened level waiting in ponder: ponder-hit or stop */

    /* parameters */
    EngineParams p;      /* what the next engine is built from */
    char level[32];
    uint64_t seed;
    const MoveBook *book; /* HubOptions.book */
    const char *search_params; /* HubOptions.search_params */
    EngineParams loaded; /* the last parameters an engine was built from (at first: the command line's) */

    /* initialised engine */
    bool ready;
    const Game *game;
    Engine *engine;
    int32_t *weights_buf; /* the engine's weights (game->weights_len, heap) */
    Egtb *egtb;           /* open endgame database of egtb_path, or NULL */
    EgtbProber *prober;   /* its prober (used by the search thread only) */
    GameRecord rec;
    uint64_t rng;

    /* `level` */
    SearchLimits limits;
    bool clock;
    int64_t time_ms, inc_ms;
    int moves_to_go;

    /* the time a clock loses outside our search (see clock_lag) */
    int64_t lag_ms;         /* estimate, ms */
    bool last_clocked;      /* the previous `go think` had a clock: */
    int64_t last_time_ms, last_inc_ms; /* its clock, */
    int last_len;           /* the game's length then, */
    double last_own_ms;     /* and our own time from reading `go` to writing `done` */
    double go_read_s;       /* when the current `go` was read */

    /* the search */
    pthread_t thread;
    bool thread_live;
    bool searching;
    volatile int stop;
    bool ponder_hit;
    GoMode mode;
    double deadline; /* after ponder-hit with a clock: the reader stops the search then (0: none) */
    Position root;
    uint64_t *history;
    int history_len, history_cap;
    SearchLimits search_limits;
} Hub;

static void send_line(Hub *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&h->lock);
    vfprintf(h->out, fmt, ap);
    fputc('\n', h->out);
    fflush(h->out);
    pthread_mutex_unlock(&h->lock);
    va_end(ap);
}

enum { HUB_ERROR_SHOWN = 300 }; /* bytes of an error message sent, at most (then "...") */

/* Input quoted in an error: its first 60 bytes, then "..." if it is longer. */
typedef struct Quoted {
    char text[64];
} Quoted;

static Quoted quoted(const char *s)
{
    Quoted q;
    size_t n = strlen(s);
    snprintf(q.text, sizeof q.text, "%.*s%s", n > 60 ? 57 : (int)n, s, n > 60 ? "..." : "");
    return q;
}

/* error message="..." on one printable line: a double quote of the text
 * becomes ', any byte outside printable ASCII \xNN (the input quoted in it
 * may be binary; a backslash stays one, so a byte the game's parser already
 * wrote \xNN reads the same), and a message whose line would pass
 * HUB_ERROR_SHOWN bytes is cut before a byte (or \xNN) with "...". */
static void send_error(Hub *h, const char *fmt, ...)
{
    char msg[ERR_MAX + 64], out[HUB_ERROR_SHOWN + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t total = 0;
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++) total += *c < 0x20 || *c > 0x7e ? 4 : 1;
    size_t room = total <= HUB_ERROR_SHOWN ? HUB_ERROR_SHOWN : HUB_ERROR_SHOWN - 3, n = 0, i = 0;
    for (; msg[i]; i++) {
        unsigned char c = (unsigned char)msg[i];
        size_t k = c < 0x20 || c > 0x7e ? 4 : 1;
        if (n + k > room) break;
        if (k == 4) snprintf(out + n, sizeof out - n, "\\x%02X", c);
        else out[n] = c == '"' ? '\'' : (char)c;
        n += k;
    }
    if (msg[i]) memcpy(out + n, "...", 3), n += 3;
    out[n] = '\0';
    send_line(h, "error message=\"%s\"", out);
}

static void line_pv(const Game *g, const Position *root, const Move *pv, int len, char *out, size_t size)
{
    Position a = *root, b;
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < len; i++) {
        char text[MOVE_STR_MAX];
        hub_move_to_str(g, &a, &pv[i], text);
        int w = snprintf(out + n, size - n, "%s%s", i ? " " : "", text);
        if (w < 0 || (size_t)w >= size - n) break;
        n += (size_t)w;
        g->make_move(&a, &pv[i], &b);
        a = b;
    }
}

/* Score in men, side to move's view, as Scan writes it: a win in n plies
 * is 100 - n/100 (99.97: a win in 3 plies), a loss the negation; other
 * scores are centi-men / 100, kept below 90. */
static double hub_score(int score)
{
    int a = score < 0 ? -score : score;
    double v;
    if (a >= SCORE_WIN_MIN) v = 100.0 - (double)(SCORE_WIN - a) / 100.0;
    else v = a > 8999 ? 89.99 : (double)a / 100.0;
    return score < 0 ? -v : v;
}

static void send_info(Hub *h, const SearchResult *r)
{
    char pv[4096];
    line_pv(h->game, &h->root, r->pv, r->pv_len, pv, sizeof pv);
    double mnps = r->seconds > 0 ? (double)r->nodes / r->seconds * 1e-6 : 0.0;
    send_line(h, "info depth=%d score=%.2f nodes=%" PRIu64 " time=%.3f nps=%.2f pv=\"%s\"", r->depth,
              hub_score(r->score), r->nodes, r->seconds, mnps, pv);
}

static void on_info(void *ctx, const SearchResult *r) { send_info(ctx, r); }

static void *search_main(void *arg)
{
    Hub *h = arg;
    SearchResult r;
    char err[ERR_MAX] = "";
    const SkillLevel *skill = skill_find(h->level);
    pthread_mutex_lock(&h->lock);
    bool weakened = skill && skill->depth > 0 && h->mode != GO_ANALYZE;
    pthread_mutex_unlock(&h->lock);
    int rc = 0;
    if (weakened) {
        /* A weakened level chooses in one go; while pondering it waits. */
        pthread_mutex_lock(&h->lock);
        while (h->mode == GO_PONDER && !h->ponder_hit && !h->stop) pthread_cond_wait(&h->wake, &h->lock);
        pthread_mutex_unlock(&h->lock);
        volatile int *saved = &h->stop;
        volatile int no_stop = 0;
        /* A weakened choice is quick (fixed small depths): finish it even
         * after a stop, so that the move is one of the level's. */
        engine_set_stop_flag(h->engine, &no_stop);
        rc = skill_choose(h->engine, h->game, &h->root, h->history, h->history_len, skill, &h->search_limits, &h->rng,
                          &r, err);
        engine_set_stop_flag(h->engine, saved);
        if (rc == 0 && r.has_move) send_info(h, &r);
    } else {
        rc = engine_search(h->engine, &h->root, h->history, h->history_len, &h->search_limits, &r, on_info, h);
    }
    char move[MOVE_STR_MAX] = "", ponder[MOVE_STR_MAX] = "";
    if (rc == 0 && r.has_move) {
        hub_move_to_str(h->game, &h->root, &r.best, move);
        if (r.pv_len >= 2 && memcmp(&r.pv[0], &r.best, sizeof r.best) == 0) {
            Position next;
            h->game->make_move(&h->root, &r.best, &next);
            hub_move_to_str(h->game, &next, &r.pv[1], ponder);
        }
    }
    pthread_mutex_lock(&h->lock);
    h->searching = false;
    h->deadline = 0;
    h->last_own_ms = (clock_now_s() - h->go_read_s) * 1000.0;
    if (rc != 0) fprintf(h->out, "error message=\"%s\"\n", err);
    if (!move[0]) fprintf(h->out, "done\n");
    else if (ponder[0]) fprintf(h->out, "done move=%s ponder=%s\n", move, ponder);
    else fprintf(h->out, "done move=%s\n", move);
    fflush(h->out);
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

static bool is_searching(Hub *h)
{
    pthread_mutex_lock(&h->lock);
    bool s = h->searching;
    pthread_mutex_unlock(&h->lock);
    return s;
}

static void join_search(Hub *h)
{
    if (!h->thread_live) return;
    pthread_join(h->thread, NULL);
    h->thread_live = false;
}

static void stop_search(Hub *h)
{
    pthread_mutex_lock(&h->lock);
    h->stop = 1;
    pthread_cond_broadcast(&h->wake);
    pthread_mutex_unlock(&h->lock);
    join_search(h);
}

/* How long a search may run after ponder-hit. The search, started
 * without limits to ponder, cannot apply the time manager's soft limit
 * between its iterations, so the reader stops it when the soft limit
 * (timeman_budget of the clock: the time planned for a move) has passed. */
static int64_t limit_budget_ms(const Hub *h)
{
    if (!h->clock) return h->limits.movetime_ms;
    int64_t soft, hard;
    timeman_budget(h->time_ms, h->inc_ms, h->moves_to_go, &soft, &hard);
    return soft;
}

static void ponder_hit(Hub *h)
{
    pthread_mutex_lock(&h->lock);
    if (h->searching && h->mode == GO_PONDER) {
        h->ponder_hit = true;
        h->mode = GO_THINK;
        int64_t ms = limit_budget_ms(h);
        if (ms > 0) h->deadline = clock_now_s() + (double)ms * 1e-3;
        pthread_cond_broadcast(&h->wake);
    }
    pthread_mutex_unlock(&h->lock);
}

/* ---- commands ------------------------------------------------------------- */

/* The endgame database of the egtb-path param for game g, opened (*edb;
 * NULL: none asked for, or the default directory holds no table of g).
 * Returns 0, or -1 with err. */
static int egtb_load(const Hub *h, const Game *g, Egtb **edb, char err[ERR_MAX])
{
    *edb = NULL;
    if (!h->p.egtb_path[0] || (h->p.egtb_optional && !egtb_dir_has_tables(g, h->p.egtb_path))) return 0;
    char eerr[ERR_MAX];
    if (!(*edb = egtb_open(g, h->p.egtb_path, false, eerr))) return err_set(err, "egtb-path: %.240s", eerr);
    return 0;
}

/* A file (what) named by a value: there, not a directory, readable.
 * Returns 0, or -1 with err. */
static int file_check(const char *what, const char *path, char err[ERR_MAX])
{
    struct stat st;
    if (stat(path, &st) != 0)
        return err_set(err, "%s '%.300s' %s", what, path, errno == ENOENT ? "does not exist" : strerror(errno));
    if (S_ISDIR(st.st_mode)) return err_set(err, "%s '%.300s' is a directory", what, path);
    if (access(path, R_OK) != 0) return err_set(err, "%s '%.300s' cannot be read: %s", what, path, strerror(errno));
    return 0;
}

/* Before init, a value of weights, db or egtb-path is checked for the
 * faults that do not depend on the other parameters: its form (db:ID,
 * train:ID), that the file or directory it names is there. Whether the
 * combination loads (a weight file of the variant, a database holding the
 * set, the variant's tables) is init's to tell (init_fallback), so that the
 * order of the set-params does not matter. Returns 0, or -1 with err. */
static int value_check(const char *name, const char *value, char err[ERR_MAX])
{
    if (strcmp(name, "weights") == 0) {
        if (strcmp(value, "default") == 0 || strcmp(value, "compiled-in") == 0) return 0;
        if (weights_spec_needs_db(value)) return weights_spec_check(value, err);
        return file_check("weight file", value, err);
    }
    if (strcmp(name, "db") == 0) return file_check("database file", value, err);
    if (strcmp(name, "egtb-path") == 0 && value[0]) {
        struct stat st;
        if (stat(value, &st) != 0)
            return err_set(err, "endgame database directory '%.300s' %s", value,
                           errno == ENOENT ? "does not exist" : strerror(errno));
        if (!S_ISDIR(st.st_mode)) return err_set(err, "endgame database directory '%.300s' is not a directory", value);
    }
    return 0;
}

/* Give e the session's weights (h->weights_buf), stop flag and prober. */
static void engine_wire(Hub *h, Engine *e)
{
    engine_set_weights(e, h->weights_buf);
    engine_set_stop_flag(e, &h->stop);
    if (h->prober) engine_set_probe(e, egtb_engine_probe, h->prober);
}

/* Build the engine from the parameters (engine_init). Returns 0 or -1
 * with err; on failure the previous engine is kept, or was freed to make
 * room (h->engine NULL: engine_init builds it again). */
static int engine_build(Hub *h, char err[ERR_MAX])
{
    const Game *g = game_find(h->p.variant);
    if (!g) {
        return err_set(err, "unknown variant '%s'", h->p.variant);
    }
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(g);
    if (!w) {
        return err_set(err, "out of memory for %d weights", g->weights_len);
    }
    if (weights_resolve_path(g, h->p.weights, h->p.db, w, NULL, err) != 0) return -1;
    Egtb *edb = NULL;
    EgtbProber *prober = NULL;
    if (egtb_load(h, g, &edb, err) != 0) return -1;
    if (edb) {
        if (!(prober = egtb_prober_new(edb, h->p.egtb_pieces, EGTB_CACHE_BLOCKS))) {
            egtb_close(edb);
            return err_set(err, "out of memory for the endgame-database prober");
        }
    }
    Engine *e = engine_new(g, (size_t)h->p.hash_mb);
    if (!e && h->engine) {
        /* the old table and the new one may not fit at once (a hash near the
         * memory there is): the old one goes first (engine_init brings it
         * back if the new one does not fit alone either) */
        engine_free(h->engine);
        h->engine = NULL;
        e = engine_new(g, (size_t)h->p.hash_mb);
    }
    if (!e) {
        egtb_prober_free(prober);
        egtb_close(edb);
        return err_set(err, "hash %d: cannot allocate a transposition table of %d MiB (out of memory); set a "
                            "smaller hash", h->p.hash_mb, h->p.hash_mb);
    }
    /* the session's constants where they do something: `dama hub` refused
     * those that do nothing in its --game; another variant leaves them out */
    char skipped[ERR_MAX] = "";
    if (h->search_params && engine_set_params_applying(e, h->search_params, skipped, err) != 0) {
        engine_free(e);
        egtb_prober_free(prober);
        egtb_close(edb);
        return -1;
    }
    bool new_game = !h->ready || h->game != g;
    if (new_game) {
        GameRecord rec;
        if (game_record_init(&rec, g, NULL, err) != 0) {
            engine_free(e);
            egtb_prober_free(prober);
            egtb_close(edb);
            return -1;
        }
        if (h->ready) game_record_free(&h->rec);
        h->rec = rec;
    }
    engine_free(h->engine);
    h->engine = e;
    h->game = g;
    free(h->weights_buf);
    h->weights_buf = w;
    w = NULL; /* kept: the engine reads it */
    egtb_prober_free(h->prober);
    egtb_close(h->egtb);
    h->egtb = edb;
    h->prober = prober;
    engine_wire(h, e);
    h->rng = h->seed;
    h->ready = true;
    h->loaded = h->p;
    if (skipped[0] && new_game)
        send_line(h, "info message=\"search constants not applied in %s, where they do nothing: %s\"", g->name,
                  skipped);
    return 0;
}

/* Build the engine from the parameters. Returns 0 or -1 with err; on
 * failure the previous engine, if any, plays on: when engine_build freed
 * it to make room, it is made again from the parameters it was built from
 * (its weights, tables and constants are still the session's); when not
 * even that fits, the session has no engine, and the next pos or go
 * initialises one (init_fallback). */
static int engine_init(Hub *h, char err[ERR_MAX])
{
    if (engine_build(h, err) == 0) return 0;
    if (h->ready && !h->engine) {
        char skipped[ERR_MAX], perr[ERR_MAX];
        Engine *e = engine_new(h->game, (size_t)h->loaded.hash_mb);
        if (e && h->search_params && engine_set_params_applying(e, h->search_params, skipped, perr) != 0) {
            engine_free(e);
            e = NULL;
        }
        if (e) {
            engine_wire(h, e);
            h->engine = e;
        } else {
            game_record_free(&h->rec);
            h->ready = false;
        }
    }
    return -1;
}

/* Append to buf (ERR_MAX) ", " (unless it is empty) and the formatted text. */
static void list_add(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void list_add(char *buf, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n && n + 2 < ERR_MAX) memcpy(buf + n, ", ", 3), n += 2;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, ERR_MAX - n, fmt, ap);
    va_end(ap);
}

/* Build the engine at init (or at the first pos or go without one). A
 * combination that does not load (the weights with the db and variant, the
 * tables of egtb-path with the variant, the hash) gets an error naming what
 * failed, and the engine is built from the last parameters that loaded (at
 * first: the command line's) for the failing parameters alone; when those
 * do not go with the variant asked for, the variant stays, with its
 * compiled-in weights, no tables and the last hash that loaded; only when
 * even that fails, the whole last set that loaded. So the engine is ready
 * and go plays. Returns 0 (ready), or -1 when not even those load (an
 * error sent). */
static int init_fallback(Hub *h, const char *command)
{
    char err[ERR_MAX];
    if (engine_init(h, err) == 0) return 0;
    const Game *g = game_find(h->p.variant);
    char werr[ERR_MAX] = "", eerr[ERR_MAX] = "";
    bool wfail = g && weights_check_path(g, h->p.weights, h->p.db, werr) != 0;
    Egtb *edb = NULL;
    bool efail = g && egtb_load(h, g, &edb, eerr) != 0;
    egtb_close(edb);
    /* a hash this machine cannot give (unpopulated: no memory touched) */
    Engine *probe = g && h->p.hash_mb != h->loaded.hash_mb ? engine_new_unpopulated(g, (size_t)h->p.hash_mb) : NULL;
    bool hfail = g && h->p.hash_mb != h->loaded.hash_mb && !probe;
    engine_free(probe);
    EngineParams asked = h->p;
    char what[ERR_MAX] = "";
    if (wfail) {
        list_add(what, "weights '%s'", h->p.weights);
        if (strcmp(h->p.db, h->loaded.db) != 0) list_add(what, "db '%s'", h->p.db);
        snprintf(err, sizeof err, "%s", werr);
        memcpy(h->p.weights, h->loaded.weights, sizeof h->p.weights);
        memcpy(h->p.db, h->loaded.db, sizeof h->p.db);
    }
    if (efail) {
        list_add(what, "egtb-path '%s'", h->p.egtb_path);
        if (!wfail) snprintf(err, sizeof err, "%s", strncmp(eerr, "egtb-path: ", 11) == 0 ? eerr + 11 : eerr);
        memcpy(h->p.egtb_path, h->loaded.egtb_path, sizeof h->p.egtb_path);
        h->p.egtb_optional = h->loaded.egtb_optional;
    }
    if (hfail || (!wfail && !efail)) { /* the hash (or the search constants, when the rest loaded) */
        list_add(what, "hash %d", h->p.hash_mb);
        if (wfail || efail) { /* err names the other failure: the hash's too (alone, err is the hash's) */
            size_t n = strlen(err);
            snprintf(err + n, sizeof err - n, "; hash %d: cannot allocate a transposition table of %d MiB (out of memory)",
                     h->p.hash_mb, h->p.hash_mb);
        }
        h->p.hash_mb = h->loaded.hash_mb;
    }
    char err2[ERR_MAX];
    if (engine_init(h, err2) != 0) {
        /* what loaded last does not go with the variant asked for: keep the
         * variant (a GUI that asked for a game must not get another's
         * moves), with its compiled-in weights, no tables and the hash that loaded */
        snprintf(h->p.weights, sizeof h->p.weights, "default");
        h->p.egtb_path[0] = '\0';
        h->p.egtb_optional = false;
        h->p.hash_mb = h->loaded.hash_mb;
        if (engine_init(h, err2) != 0) {
            h->p = h->loaded;
            if (engine_init(h, err2) != 0) {
                h->p = asked;
                send_error(h, "%s: %s; the last parameters that loaded do not load either: %s", command, err, err2);
                return -1;
            }
        }
    }
    char stays[ERR_MAX] = ""; /* every parameter that is not the one asked for */
    if (strcmp(h->p.variant, asked.variant) != 0) list_add(stays, "variant %s", h->p.variant);
    if (strcmp(h->p.weights, asked.weights) != 0) list_add(stays, "weights '%s'", h->p.weights);
    if (strcmp(h->p.db, asked.db) != 0) list_add(stays, "db '%s'", h->p.db);
    if (strcmp(h->p.egtb_path, asked.egtb_path) != 0) list_add(stays, "egtb-path '%s'", h->p.egtb_path);
    if (h->p.hash_mb != asked.hash_mb) list_add(stays, "hash %d", h->p.hash_mb);
    send_error(h, "%s: %s does not load; the engine plays with %s instead: %s", command, what, stays,
               err);
    return 0;
}

static int ensure_ready(Hub *h)
{
    return h->ready ? 0 : init_fallback(h, "init");
}

static void on_hub(Hub *h)
{
    send_line(h, "id name=dama version=" DAMA_VERSION_STRING " author=\"the dama authors\" country=\"\"");
    char variants[128] = "";
    size_t n = 0;
    for (const Game *const *g = game_list(); *g; g++) {
        int w = snprintf(variants + n, sizeof variants - n, "%s%s", n ? " " : "", (*g)->name);
        if (w > 0 && (size_t)w < sizeof variants - n) n += (size_t)w;
    }
    send_line(h, "param name=variant value=%s type=enum values=\"%s\"", h->p.variant, variants);
    send_line(h, "param name=hash value=%d type=int min=1 max=65536", h->p.hash_mb);
    send_line(h, "param name=threads value=1 type=int min=1 max=1");
    send_line(h, "param name=weights value=\"%s\" type=string", h->p.weights);
    send_line(h, "param name=db value=\"%s\" type=string", h->p.db);
    char levels[128] = "";
    n = 0;
    for (const SkillLevel *const *l = skill_list(); *l; l++) {
        int w = snprintf(levels + n, sizeof levels - n, "%s%s", n ? " " : "", (*l)->name);
        if (w > 0 && (size_t)w < sizeof levels - n) n += (size_t)w;
    }
    send_line(h, "param name=level value=%s type=enum values=\"%s\"", h->level, levels);
    send_line(h, "param name=seed value=%" PRIu64 " type=int min=0 max=9223372036854775807", h->seed);
    send_line(h, "param name=egtb-path value=\"%s\" type=string", h->p.egtb_path);
    send_line(h, "param name=egtb-pieces value=%d type=int min=0 max=%d", h->p.egtb_pieces, EGTB_PIECES_MAX);
    send_line(h, "wait");
}

/* A decimal integer in [lo, hi]. */
static bool parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    return num_parse_int(s, lo, hi, out) == NUM_OK; /* the one checked parser */
}

/* Seconds (a real number >= 0) as milliseconds. */
static bool parse_seconds(const char *s, int64_t *ms)
{
    double v;
    if (num_parse_real(s, 0, 1e9, &v) != NUM_OK) return false;
    *ms = (int64_t)(v * 1000.0 + 0.5);
    return true;
}

/* After init, a set-param of name that does not load: is it one of the
 * variant and a weights or egtb-path of another game, which load together
 * but not one at a time? The variant: always (the engine's weights and
 * tables are the old variant's); a weight file or set, or a table
 * directory: when it loads for another game than the variant (one that
 * loads for none, such as db:3 without a database, gets no hint). */
static bool other_game(const Hub *h, const char *name, const char *value, const char *variant)
{
    if (strcmp(name, "variant") == 0) return true;
    bool weights = strcmp(name, "weights") == 0;
    if (!weights && (strcmp(name, "egtb-path") != 0 || !value[0])) return false;
    for (const Game *const *g = game_list(); *g; g++) {
        char err[ERR_MAX];
        if (strcmp((*g)->name, variant) == 0) continue;
        if (weights ? weights_check_path(*g, value, h->p.db, err) == 0 : egtb_dir_has_tables(*g, value)) return true;
    }
    return false;
}

static void on_set_param(Hub *h, const HubLine *l)
{
    const char *name = hub_arg(l, "name"), *value = hub_arg(l, "value");
    if (!name || !value) {
        send_error(h, "set-param needs name=... value=...");
        return;
    }
    int64_t v;
    bool engine_param = false;
    const EngineParams old_p = h->p; /* restored when the new value does not load */
    if (strcmp(name, "variant") == 0) {
        if (!game_find(value)) {
            char names[256];
            game_names(names, sizeof names, ", ", NULL);
            send_error(h, "set-param variant: unknown game '%s' (%s)", quoted(value).text, names);
            return;
        }
        snprintf(h->p.variant, sizeof h->p.variant, "%s", value);
        engine_param = true;
    } else if (strcmp(name, "hash") == 0) {
        if (!parse_int(value, 1, 65536, &v)) {
            send_error(h, "set-param hash: '%s' is not an integer 1..65536 (MiB)", quoted(value).text);
            return;
        }
        h->p.hash_mb = (int)v;
        engine_param = true;
    } else if (strcmp(name, "threads") == 0) {
        if (!parse_int(value, 1, 1, &v)) {
            send_error(h, "set-param threads: '%s': the search uses one thread (1)", quoted(value).text);
            return;
        }
    } else if (strcmp(name, "weights") == 0 || strcmp(name, "db") == 0) {
        char *dst = strcmp(name, "weights") == 0 ? h->p.weights : h->p.db;
        size_t size = strcmp(name, "weights") == 0 ? sizeof h->p.weights : sizeof h->p.db;
        if (!*value || strlen(value) >= size) {
            send_error(h, "set-param %s: value %s (the value stays '%s')", name,
                       *value ? "too long" : "empty", quoted(dst).text);
            return;
        }
        snprintf(dst, size, "%s", value);
        engine_param = true;
    } else if (strcmp(name, "egtb-path") == 0) {
        if (strlen(value) >= sizeof h->p.egtb_path) { /* "" turns the database off */
            send_error(h, "set-param egtb-path: value too long");
            return;
        }
        snprintf(h->p.egtb_path, sizeof h->p.egtb_path, "%s", value);
        h->p.egtb_optional = false;
        engine_param = true;
    } else if (strcmp(name, "egtb-pieces") == 0) {
        if (!parse_int(value, 0, EGTB_PIECES_MAX, &v)) {
            send_error(h, "set-param egtb-pieces: '%s' is not an integer 0..%d (0: all)", quoted(value).text, EGTB_PIECES_MAX);
            return;
        }
        h->p.egtb_pieces = (int)v;
        engine_param = true;
    } else if (strcmp(name, "level") == 0 || strcmp(name, "skill") == 0) {
        if (!skill_find(value)) {
            send_error(h, "set-param level: unknown level '%s' (beginner, casual, club, strong, max)", quoted(value).text);
            return;
        }
        snprintf(h->level, sizeof h->level, "%s", value);
    } else if (strcmp(name, "seed") == 0) {
        if (!parse_int(value, 0, INT64_MAX, &v)) {
            send_error(h, "set-param seed: '%s' is not an integer 0..%" PRId64, quoted(value).text, INT64_MAX);
            return;
        }
        h->seed = (uint64_t)v;
        h->rng = h->seed;
    } else {
        send_error(h, "set-param: unknown parameter '%s'", quoted(name).text);
        return;
    }
    if (!engine_param) return;
    /* before init: only the value's own faults (value_check; init loads the
     * combination, whatever the order of the set-params); after init:
     * rebuild now, keep the old engine on failure */
    char err[ERR_MAX];
    bool is_variant = strcmp(name, "variant") == 0, is_egtb = strcmp(name, "egtb-path") == 0;
    bool unchanged = strcmp(name, "db") == 0 && strcmp(old_p.db, h->p.db) == 0; /* a GUI sends every param back */
    int rc = unchanged ? 0 : value_check(name, value, err); /* after init too: a db that is not there is refused */
    if (rc == 0 && h->ready) rc = engine_init(h, err);
    if (rc != 0) {
        char old[16];
        snprintf(old, sizeof old, "%d", strcmp(name, "hash") == 0 ? old_p.hash_mb : old_p.egtb_pieces);
        size_t n = strlen(name);
        const char *why = strncmp(err, name, n) == 0 && strncmp(err + n, ": ", 2) == 0 ? err + n + 2 : err;
        /* after init, the variant and a weights or egtb-path of its own: one at a time does not load */
        const char *hint = h->ready && other_game(h, name, value, old_p.variant)
                               ? "; to switch the variant with weights or egtb-path of its own, set weights=default "
                                 "and egtb-path empty first"
                               : "";
        /* with the hint, the reason and the old value are cut so that the
         * hint fits in the message's HUB_ERROR_SHOWN bytes */
        send_error(h, hint[0] ? "set-param %s: %.100s (the value stays '%.50s'%s)" : "set-param %s: %s (the value stays '%s'%s)",
                   name, why,
                   is_variant ? old_p.variant : strcmp(name, "weights") == 0 ? old_p.weights
                              : strcmp(name, "db") == 0                 ? old_p.db
                              : is_egtb                                 ? old_p.egtb_path
                                                                        : old, hint);
        h->p = old_p;
    }
}

/* Does word read as a move in any game's notation: squares (a letter and a
 * number, or a number) joined by '-', 'x' or ':' ("c3-d4", "32x23")? */
/* A word of a pos line that reads as a move: one with a digit (Hub's own
 * arguments are names; a move in any notation a game's parser takes,
 * "c3-d4", "fe5", "F6-E5", "57*40", "13-3=R", has one). */
static bool looks_like_move(const char *word)
{
    for (const char *p = word; *p; p++)
        if (*p >= '0' && *p <= '9') return true;
    return false;
}

static void on_pos(Hub *h, const HubLine *l)
{
    if (ensure_ready(h) != 0) return;
    /* "moves=c3-d4 f6-e5": the list unquoted; its second move would be an
     * unknown flag, ignored, and the engine would think in another game */
    for (int i = 0; i < l->len; i++)
        if (looks_like_move(l->keys[i])) {
            char word[128]; /* quoted() shows 60 bytes of it */
            snprintf(word, sizeof word, "%s%s%s", l->keys[i], l->values[i][0] ? "=" : "", l->values[i]);
            /* no '"' in the hint: a message's own quotes would show as "'", and
             * moves='M1 M2' is no Hub quoting */
            send_error(h, "pos: '%s' reads as a move outside moves=: a list of moves is quoted, in double quotes "
                          "after moves= (the previous game stays)", quoted(word).text);
            return;
        }
    const char *fen = hub_arg(l, "pos");
    const char *moves = hub_arg(l, "moves");
    GameRecord rec;
    char err[ERR_MAX], converted[FEN_MAX];
    int hub_string = hub_pos_to_fen(h->game, fen, converted, err); /* Hub's own string (International) */
    if (hub_string < 0) {
        send_error(h, "pos: %s", err);
        return;
    }
    if (game_record_init(&rec, h->game, hub_string ? converted : fen, err) != 0) {
        if (hub_string) send_error(h, "pos: Hub's '%.20s...' is the %s", fen, err); /* err quotes it as a FEN */
        else send_error(h, "pos: %s", err);
        return;
    }
    if (moves && hub_apply_list(&rec, moves, err) != 0) {
        send_error(h, "pos moves: %s", err);
        game_record_free(&rec);
        return;
    }
    game_record_free(&h->rec);
    h->rec = rec;
}

static void on_level(Hub *h, const HubLine *l)
{
    SearchLimits lim = {0};
    bool clock = false, any = false;
    int64_t time_ms = 0, inc_ms = 0, mtg = 0, v;
    for (int i = 0; i < l->len; i++) {
        const char *k = l->keys[i], *val = l->values[i];
        bool ok = true;
        char want[48] = "seconds >= 0"; /* what a bad value is told it must be */
        if (strcmp(k, "depth") == 0) {
            ok = parse_int(val, 1, PLY_MAX - 8, &v), lim.depth = (int)v;
            snprintf(want, sizeof want, "an integer 1..%d", PLY_MAX - 8);
        } else if (strcmp(k, "nodes") == 0) {
            ok = parse_int(val, 1, INT64_MAX, &v), lim.nodes = (uint64_t)v;
            snprintf(want, sizeof want, "an integer >= 1");
        } else if (strcmp(k, "move-time") == 0) {
            ok = parse_seconds(val, &lim.movetime_ms) && lim.movetime_ms > 0;
            snprintf(want, sizeof want, "seconds, at least 0.0005 (1 ms)");
        } else if (strcmp(k, "time") == 0) {
            ok = parse_seconds(val, &time_ms), clock = true;
        } else if (strcmp(k, "inc") == 0) {
            ok = parse_seconds(val, &inc_ms);
        } else if (strcmp(k, "moves") == 0) {
            ok = parse_int(val, 1, 10000, &mtg);
            snprintf(want, sizeof want, "an integer 1..10000");
        } else if (strcmp(k, "infinite") != 0) {
            continue; /* unknown arguments are ignored (protocol extensions) */
        }
        if (!ok) {
            send_error(h, "level %s: bad value '%s' (%s)", k, quoted(val).text, want);
            return;
        }
        any = true;
    }
    if (!any) {
        send_error(h, "level needs depth=, nodes=, move-time=, time= [inc=] [moves=] or infinite");
        return;
    }
    bool inc = hub_arg(l, "inc") != NULL, moves = hub_arg(l, "moves") != NULL;
    if ((inc || moves) && !clock) { /* alone they limit nothing: the next go searched until a stop */
        send_error(h, "level %s without time=: give the clock, time=S [inc=S] [moves=N]", inc ? "inc=" : "moves=");
        return;
    }
    h->limits = lim;
    h->clock = clock;
    h->time_ms = time_ms;
    h->inc_ms = inc_ms;
    h->moves_to_go = (int)mtg;
}

/* What a clock loses outside our search: our own time from reading `go`
 * to writing `done` is known, the time the manager charged is the drop of
 * the clock between two of our moves in one game (the clock of the
 * previous `go think` plus its increment, less the clock now). The
 * difference is the latency of the pipes, the manager and the scheduler;
 * the estimate follows the largest recent one (it decays by 1/8 a move),
 * kept to 0..2000 ms. Called at a `go think` with a clock, with the game's
 * length len. */
static void clock_lag(Hub *h, int len)
{
    if (!h->last_clocked || len != h->last_len + 2) return; /* not our next move of the same game */
    double used = (double)(h->last_time_ms + h->last_inc_ms - h->time_ms);
    double lag = used - h->last_own_ms;
    int64_t decayed = h->lag_ms - h->lag_ms / 8;
    int64_t obs = lag > 2000 ? 2000 : lag > 0 ? (int64_t)lag : 0;
    h->lag_ms = obs > decayed ? obs : decayed;
}

/* The limits of a `go think` on the clock: the clock less twice the lag
 * estimate (a safety margin against our own overhead) goes to the search,
 * whose time manager (engine/timeman.h) sets its soft and hard limits.
 * When that leaves under HUB_PANIC_MS, the search is cut to depth 1 as
 * well: a move in well under a millisecond of CPU. */
static void clock_limits(const Hub *h, SearchLimits *lim)
{
    int64_t usable = h->time_ms - 2 * h->lag_ms;
    if (usable < HUB_PANIC_MS) lim->depth = 1;
    lim->movetime_ms = 0;
    lim->time_ms = usable > 1 ? usable : 1; /* 0 would be no clock at all */
    lim->inc_ms = h->inc_ms;
    lim->movestogo = h->moves_to_go;
}

/* A `go think` in a position of the book (of the game played): the book
 * move at once, said to be one ("info book=1"). Returns true if answered. */
static bool book_go(Hub *h)
{
    Move m;
    const Position *pos = game_record_position(&h->rec);
    if (!h->book || h->book->game != h->game || !book_pick(h->book, pos, h->seed, &m, NULL)) return false;
    char move[MOVE_STR_MAX];
    hub_move_to_str(h->game, pos, &m, move);
    h->last_clocked = false; /* no search: nothing to learn about the clock's lag */
    send_line(h, "info book=1 depth=0 nodes=0 pv=\"%s\"", move);
    send_line(h, "done move=%s", move);
    return true;
}

/* The mode of a `go` line: Hub's modes are think, ponder and analyze (none
 * is think); any other word without a value is no search to guess at, and
 * neither are two modes. An argument with a value is an unknown argument,
 * ignored as the protocol asks. Returns 0, or -1 after answering `error`. */
static int go_mode(Hub *h, const HubLine *l, GoMode *mode)
{
    static const char *const names[] = {"think", "ponder", "analyze"};
    static const GoMode modes[] = {GO_THINK, GO_PONDER, GO_ANALYZE};
    const char *named = NULL;
    *mode = GO_THINK;
    for (int i = 0; i < l->len; i++) {
        if (l->values[i][0]) continue;
        int m = 0;
        while (m < 3 && strcmp(l->keys[i], names[m]) != 0) m++;
        if (m == 3) {
            send_error(h, "go: unknown mode '%s' (think, ponder or analyze): no search", quoted(l->keys[i]).text);
            return -1;
        }
        if (named && named != names[m]) {
            send_error(h, "go: two modes, '%s' and '%s': no search", named, names[m]);
            return -1;
        }
        named = names[m];
        *mode = modes[m];
    }
    return 0;
}

static void on_go(Hub *h, const HubLine *l)
{
    double read_s = clock_now_s();
    GoMode mode;
    if (go_mode(h, l, &mode) != 0) {
        send_line(h, "done"); /* every go is answered by done, as a finished game's is */
        return;
    }
    if (ensure_ready(h) != 0) {
        send_line(h, "done");
        return;
    }
    const char *reason = NULL;
    Outcome o = game_record_outcome(&h->rec, &reason, NULL);
    if (o != OUTCOME_NONE) {
        send_error(h, "go: the game is over (%s %s)", outcome_pdn(o), reason ? reason : "");
        send_line(h, "done");
        return;
    }
    if (mode == GO_THINK && book_go(h)) return;
    int len;
    const uint64_t *hist = game_record_history(&h->rec, &len);
    if (len > h->history_cap) {
        int cap = len * 2;
        uint64_t *n = realloc(h->history, sizeof(uint64_t) * (size_t)cap);
        if (!n) {
            send_error(h, "go: out of memory");
            send_line(h, "done");
            return;
        }
        h->history = n;
        h->history_cap = cap;
    }
    if (len) memcpy(h->history, hist, sizeof(uint64_t) * (size_t)len);
    h->history_len = len;
    h->root = *game_record_position(&h->rec);
    SearchLimits lim = h->limits;
    if (mode == GO_PONDER) {
        lim.movetime_ms = 0; /* the clock starts at ponder-hit */
    } else if (h->clock) {
        clock_lag(h, len);
        clock_limits(h, &lim);
    }
    h->last_clocked = mode == GO_THINK && h->clock;
    h->search_limits = lim;
    h->last_time_ms = h->time_ms;
    h->last_inc_ms = h->inc_ms;
    h->last_len = len;
    h->go_read_s = read_s;
    h->mode = mode;
    h->stop = 0;
    h->ponder_hit = false;
    h->deadline = 0;
    h->searching = true;
    if (pthread_create(&h->thread, NULL, search_main, h) != 0) {
        h->searching = false;
        send_error(h, "go: cannot start the search thread");
        send_line(h, "done");
        return;
    }
    h->thread_live = true;
}

/* Handle one line, text[0..len) (NUL-terminated at len). Returns 1 on quit. */
static int handle(Hub *h, const char *text, size_t len, HubLine *l)
{
    char err[ERR_MAX];
    /* a NUL byte would cut the line short (one first made it empty, ignored unanswered) */
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        send_error(h, "a NUL byte at column %zu: line ignored", (size_t)(nul - text) + 1);
        return 0;
    }
    if (hub_parse_line(text, l, err) != 0) {
        send_error(h, "%s", err);
        return 0;
    }
    const char *c = l->command;
    if (!*c) return 0;
    if (is_searching(h)) {
        if (strcmp(c, "ping") == 0) send_line(h, "pong");
        else if (strcmp(c, "stop") == 0) stop_search(h);
        else if (strcmp(c, "ponder-hit") == 0) ponder_hit(h);
        else if (strcmp(c, "quit") == 0) {
            stop_search(h);
            return 1;
        } else
            send_error(h, "'%s' during a search: only ping, stop, ponder-hit and quit are accepted", quoted(c).text);
        return 0;
    }
    join_search(h);
    if (strcmp(c, "hub") == 0) on_hub(h);
    else if (strcmp(c, "set-param") == 0) on_set_param(h, l);
    else if (strcmp(c, "init") == 0) {
        if (init_fallback(h, "init") == 0) send_line(h, "ready");
    } else if (strcmp(c, "pos") == 0) on_pos(h, l);
    else if (strcmp(c, "level") == 0) on_level(h, l);
    else if (strcmp(c, "go") == 0) on_go(h, l);
    else if (strcmp(c, "ping") == 0) send_line(h, "pong");
    else if (strcmp(c, "new-game") == 0) {
        if (h->ready) engine_clear(h->engine);
        h->rng = h->seed;
    } else if (strcmp(c, "stop") == 0 || strcmp(c, "ponder-hit") == 0) {
        /* the search has already answered "done": nothing to do */
    } else if (strcmp(c, "quit") == 0) return 1;
    else send_error(h, "unknown command '%s'", quoted(c).text);
    return 0;
}

int hub_run(int in_fd, FILE *out, const HubOptions *d, char err[ERR_MAX])
{
    /* a path cut to fit would load another file, or none, with no word at the start */
    const char *const paths[][2] = {{"--weights", d->weights}, {"--db", d->db}, {"--egtb", d->egtb_path}};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (paths[i][1] && strlen(paths[i][1]) >= HUB_PATH_MAX)
            return err_set(err, "%s: a path of %zu bytes (at most %d)", paths[i][0], strlen(paths[i][1]),
                           HUB_PATH_MAX - 1);
    Hub *h = calloc(1, sizeof *h);
    HubLine *line = malloc(sizeof *line);
    size_t cap = HUB_LINE_MAX + 1; /* a longest line (HUB_LINE_MAX - 1 bytes), its newline and a NUL */
    char *buf = malloc(cap);
    if (!h || !line || !buf) {
        free(h), free(line), free(buf);
        return err_set(err, "out of memory");
    }
    h->out = out;
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->wake, NULL);
    snprintf(h->p.variant, sizeof h->p.variant, "%s", d->variant ? d->variant : GAME_DEFAULT_NAME);
    h->p.hash_mb = d->hash_mb > 0 ? d->hash_mb : 64;
    snprintf(h->p.weights, sizeof h->p.weights, "%s", d->weights ? d->weights : "default");
    snprintf(h->p.db, sizeof h->p.db, "%s", d->db ? d->db : "dama.sqlite");
    snprintf(h->level, sizeof h->level, "%s", d->level ? d->level : "max");
    h->seed = d->seed;
    h->rng = d->seed;
    snprintf(h->p.egtb_path, sizeof h->p.egtb_path, "%s", d->egtb_path ? d->egtb_path : "");
    h->p.egtb_optional = d->egtb_optional;
    h->p.egtb_pieces = d->egtb_pieces;
    h->book = d->book;
    h->search_params = d->search_params;
    h->loaded = h->p; /* the command line's: `dama hub` checked they load */
    h->limits.movetime_ms = 1000; /* until a `level` command: one second a move */

    size_t len = 0;
    bool discarding = false; /* inside a line too long to keep */
    bool eof_seen = false;
    int rc = 0;
    for (;;) {
        int timeout = -1;
        pthread_mutex_lock(&h->lock);
        double deadline = h->searching ? h->deadline : 0;
        pthread_mutex_unlock(&h->lock);
        if (deadline > 0) {
            double left = deadline - clock_now_s();
            timeout = left <= 0 ? 0 : (int)(left * 1000.0) + 1;
        }
        struct pollfd pfd = {.fd = in_fd, .events = POLLIN};
        int pr = poll(&pfd, 1, timeout);
        if (pr < 0) {
            if (errno == EINTR) continue;
            snprintf(err, ERR_MAX, "reading the input: %s", strerror(errno));
            rc = -1;
            break;
        }
        if (pr == 0) { /* the clock ran out after ponder-hit */
            pthread_mutex_lock(&h->lock);
            if (h->searching && h->deadline > 0 && clock_now_s() >= h->deadline) {
                h->stop = 1;
                h->deadline = 0;
            }
            pthread_mutex_unlock(&h->lock);
            continue;
        }
        ssize_t n = read(in_fd, buf + len, cap - len - 1);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            snprintf(err, ERR_MAX, "reading the input: %s", strerror(errno));
            rc = -1;
            break;
        }
        bool eof = n == 0;
        len += (size_t)n;
        buf[len] = '\0';
        bool quit = false;
        char *start = buf;
        for (;;) {
            char *nl = memchr(start, '\n', len - (size_t)(start - buf));
            if (!nl) break;
            *nl = '\0';
            if (!discarding && handle(h, start, (size_t)(nl - start), line)) {
                quit = true;
                break;
            }
            discarding = false;
            start = nl + 1;
        }
        if (quit) break;
        len -= (size_t)(start - buf);
        memmove(buf, start, len);
        if (len >= cap - 1) { /* no newline in a full buffer */
            if (!discarding) send_error(h, "line longer than %d bytes: ignored", HUB_LINE_MAX - 1);
            discarding = true;
            len = 0;
        }
        if (eof) {
            eof_seen = true;
            buf[len] = '\0';
            if (len && !discarding && !is_searching(h)) handle(h, buf, len, line);
            break;
        }
    }
    /* quit: stop any search and leave. End of input: a search with a bound
     * (depth, nodes, time) may finish and answer first, so that a script
     * piped in gets its results; an infinite or pondering one is stopped. */
    if (h->thread_live) {
        SearchLimits *sl = &h->search_limits;
        bool bounded = sl->depth > 0 || sl->nodes > 0 || sl->movetime_ms > 0 || sl->time_ms > 0;
        pthread_mutex_lock(&h->lock);
        bool pondering = h->mode == GO_PONDER;
        pthread_mutex_unlock(&h->lock);
        if (!rc && eof_seen && bounded && !pondering) join_search(h);
        else stop_search(h);
    }
    engine_free(h->engine);
    egtb_prober_free(h->prober);
    egtb_close(h->egtb);
    if (h->ready) game_record_free(&h->rec);
    free(h->history);
    free(h->weights_buf);
    pthread_cond_destroy(&h->wake);
    pthread_mutex_destroy(&h->lock);
    free(h), free(line), free(buf);
    return rc;
}
