/* game_writer.c — finished games on their way to the database, in batched
 * transactions (contracts in play/game_writer.h). */
#include "arena/game_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "util/clock.h"

struct GamePending {
    DbGame game;
    DbPosition *positions;
    char *fens; /* plies * FEN_MAX */
    char *movetext;
    char opening[64];
    char start_fen[FEN_MAX];
    char detail[PLAYER_DETAIL_MAX]; /* the fault's detail, "" if none */
    char game_name[32], reason[64]; /* copies, for a game decoded from another process */
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
    snprintf(p->detail, sizeof p->detail, "%s", rec->detail);
    p->game.detail = p->detail[0] ? p->detail : NULL;
    p->game.positions = p->positions;
    p->game.positions_len = n;
    game_writer_set_times(&p->game, rec);
    return p;
}

void game_writer_set_times(DbGame *meta, const PlayRecord *rec)
{
    meta->timed = true;
    for (int c = 0; c < 2; c++) meta->time[c] = (TimeUse){.moves = rec->moves[c], .wall_s = rec->wall_s[c],
                                                          .cpu_s = rec->cpu_s[c]};
}

int game_writer_init(GameWriter *w, Db *db, int batch, double flush_interval_s)
{
    memset(w, 0, sizeof *w);
    w->db = db;
    w->batch = batch > 0 ? batch : 1;
    w->flush_interval_s = flush_interval_s;
    w->last_flush = clock_now_s();
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
    w->last_flush = clock_now_s();
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
    if (w->len == w->batch || clock_now_s() - w->last_flush >= w->flush_interval_s) return game_writer_flush(w);
    return 0;
}

/* ---- games between processes (game_writer_encode / _add_encoded) ------- */

/* The encoding, all integers little-endian: "DMG2", run_id, game_index,
 * white_ws, black_ws (int64), seed (uint64), outcome (uint8), plies
 * (uint32), the strings game, opening, start_fen, reason, movetext, detail
 * (uint32 length + bytes), White's and Black's moves (uint32), wall and
 * CPU seconds (the bits of a double, uint64), then per ply: fen (string),
 * stm (uint8), score (int32), quiet (uint8). */
typedef struct Buf {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} Buf;

static void put(Buf *b, const void *src, size_t n)
{
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n) cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void put_u64(Buf *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++) x[i] = (uint8_t)(v >> (8 * i));
    put(b, x, 8);
}

static void put_u32(Buf *b, uint32_t v)
{
    uint8_t x[4];
    for (int i = 0; i < 4; i++) x[i] = (uint8_t)(v >> (8 * i));
    put(b, x, 4);
}

static void put_u8(Buf *b, uint8_t v) { put(b, &v, 1); }

static void put_str(Buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}

int game_writer_encode(const Game *g, const PlayRecord *rec, const DbGame *meta, uint8_t **out, size_t *size)
{
    Buf b = {0};
    put(&b, "DMG2", 4);
    put_u64(&b, (uint64_t)meta->run_id);
    put_u64(&b, (uint64_t)meta->game_index);
    put_u64(&b, (uint64_t)meta->white_ws);
    put_u64(&b, (uint64_t)meta->black_ws);
    put_u64(&b, meta->seed);
    put_u8(&b, (uint8_t)rec->outcome);
    put_u32(&b, (uint32_t)rec->plies);
    put_str(&b, meta->game);
    put_str(&b, meta->opening);
    put_str(&b, meta->start_fen);
    put_str(&b, rec->reason);
    put_str(&b, rec->movetext);
    put_str(&b, rec->detail);
    for (int c = 0; c < 2; c++) {
        uint64_t wall, cpu;
        memcpy(&wall, &rec->wall_s[c], sizeof wall);
        memcpy(&cpu, &rec->cpu_s[c], sizeof cpu);
        put_u32(&b, (uint32_t)rec->moves[c]);
        put_u64(&b, wall);
        put_u64(&b, cpu);
    }
    char fen[FEN_MAX];
    for (int i = 0; i < rec->plies; i++) {
        g->pos_to_fen(&rec->positions[i], fen);
        put_str(&b, fen);
        put_u8(&b, (uint8_t)g->side_to_move(&rec->positions[i]));
        put_u32(&b, (uint32_t)rec->scores[i]);
        put_u8(&b, rec->quiet[i] ? 1 : 0);
    }
    if (b.oom) {
        free(b.p);
        return -1;
    }
    *out = b.p;
    *size = b.len;
    return 0;
}

typedef struct Rd {
    const uint8_t *p;
    size_t len, at;
    bool bad;
} Rd;

static uint64_t get_u(Rd *r, int n)
{
    if (r->bad || r->len - r->at < (size_t)n) {
        r->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)r->p[r->at + (size_t)i] << (8 * i);
    r->at += (size_t)n;
    return v;
}

/* A string of at most max - 1 bytes into out (NUL-terminated); NULL out:
 * allocated. Returns the string or NULL (r->bad). */
static char *get_str(Rd *r, char *out, size_t max)
{
    uint64_t n = get_u(r, 4);
    if (r->bad || r->len - r->at < n || (out && n >= max) || memchr(r->p + r->at, 0, n)) {
        r->bad = true;
        return NULL;
    }
    char *s = out ? out : malloc(n + 1);
    if (!s) {
        r->bad = true;
        return NULL;
    }
    memcpy(s, r->p + r->at, n);
    s[n] = 0;
    r->at += n;
    return s;
}

int game_writer_add_encoded(GameWriter *w, const uint8_t *buf, size_t size, Outcome *outcome, int *plies)
{
    if (w->failed) return -1;
    Rd r = {buf, size, 0, false};
    GamePending *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(w->err, ERR_MAX, "out of memory");
        w->failed = true;
        return -1;
    }
    const char *what = "its header";
    if (size < 4 || memcmp(buf, "DMG2", 4) != 0) r.bad = true;
    r.at = 4;
    DbGame *m = &p->game;
    m->run_id = (int64_t)get_u(&r, 8);
    m->game_index = (int64_t)get_u(&r, 8);
    m->white_ws = (int64_t)get_u(&r, 8);
    m->black_ws = (int64_t)get_u(&r, 8);
    m->seed = get_u(&r, 8);
    uint64_t oc = get_u(&r, 1), n = get_u(&r, 4);
    if (oc > OUTCOME_DRAW || n > PLAY_PLIES_MAX) r.bad = true;
    get_str(&r, p->game_name, sizeof p->game_name);
    get_str(&r, p->opening, sizeof p->opening);
    get_str(&r, p->start_fen, sizeof p->start_fen);
    get_str(&r, p->reason, sizeof p->reason);
    p->movetext = get_str(&r, NULL, 0);
    get_str(&r, p->detail, sizeof p->detail);
    m->timed = true;
    for (int c = 0; c < 2; c++) {
        uint64_t moves = get_u(&r, 4), wall = get_u(&r, 8), cpu = get_u(&r, 8);
        m->time[c].moves = (int64_t)moves;
        memcpy(&m->time[c].wall_s, &wall, sizeof wall);
        memcpy(&m->time[c].cpu_s, &cpu, sizeof cpu);
        if (moves > PLAY_PLIES_MAX || !(m->time[c].wall_s >= 0) || !(m->time[c].cpu_s >= 0) ||
            !isfinite(m->time[c].wall_s) || !isfinite(m->time[c].cpu_s))
            r.bad = true;
    }
    if (!r.bad) {
        what = "its positions";
        p->positions = calloc(n ? n : 1, sizeof(DbPosition));
        p->fens = malloc((n ? n : 1) * FEN_MAX);
        if (!p->positions || !p->fens) r.bad = true;
    }
    double result = outcome_score_white((Outcome)oc) / 2.0;
    for (uint64_t i = 0; !r.bad && i < n; i++) {
        char *fen = p->fens + i * FEN_MAX;
        get_str(&r, fen, FEN_MAX);
        uint64_t stm = get_u(&r, 1);
        int32_t score = (int32_t)(uint32_t)get_u(&r, 4);
        uint64_t quiet = get_u(&r, 1);
        if (stm > 1 || quiet > 1) r.bad = true;
        p->positions[i] = (DbPosition){.ply = (int)i, .fen = fen, .stm = (int)stm, .score = score, .has_score = true,
                                       .result = result, .quiet = quiet != 0};
    }
    if (!r.bad && r.at != size) what = "its end (bytes left over)", r.bad = true;
    if (r.bad) {
        snprintf(w->err, ERR_MAX, "an encoded game of %zu bytes is malformed at byte %zu (%s)", size, r.at, what);
        w->failed = true;
        pending_free(p);
        return -1;
    }
    m->game = p->game_name;
    m->opening = p->opening;
    m->start_fen = p->start_fen;
    m->result = outcome_pdn((Outcome)oc);
    m->reason = p->reason;
    m->plies = (int)n;
    m->movetext = p->movetext;
    m->detail = p->detail[0] ? p->detail : NULL;
    m->positions = p->positions;
    m->positions_len = (int)n;
    if (outcome) *outcome = (Outcome)oc;
    if (plies) *plies = (int)n;
    w->pending[w->len++] = p;
    if (w->len == w->batch || clock_now_s() - w->last_flush >= w->flush_interval_s) return game_writer_flush(w);
    return 0;
}

void game_writer_free(GameWriter *w)
{
    for (int i = 0; i < w->len; i++) pending_free(w->pending[i]);
    free(w->pending);
    memset(w, 0, sizeof *w);
}
