/* db_merge.c — `dama db merge`: the self-play runs of shard databases
 * copied into one (contract in db.h, db_merge and db_merge_into); `dama db
 * upgrade` (db_upgrade). */
#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "db/db_internal.h"

/* S id -> T id, open addressing (ids are >= 1; 0 marks a free slot). */
typedef struct IdMap {
    int64_t *key, *val;
    size_t cap, len;
} IdMap;

static void idmap_free(IdMap *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static size_t slot_of(const IdMap *m, int64_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 17) & (m->cap - 1);
    while (m->key[i] && m->key[i] != key) i = (i + 1) & (m->cap - 1);
    return i;
}

static int64_t idmap_get(const IdMap *m, int64_t key)
{
    if (!m->cap) return 0;
    size_t i = slot_of(m, key);
    return m->key[i] ? m->val[i] : 0;
}

static int idmap_put(IdMap *m, int64_t key, int64_t val)
{
    if ((m->len + 1) * 2 > m->cap) {
        IdMap n = {0};
        n.cap = m->cap ? m->cap * 2 : 1024;
        n.key = calloc(n.cap, sizeof(int64_t));
        n.val = calloc(n.cap, sizeof(int64_t));
        if (!n.key || !n.val) {
            idmap_free(&n);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t j = slot_of(&n, m->key[i]);
                n.key[j] = m->key[i], n.val[j] = m->val[i];
            }
        n.len = m->len;
        idmap_free(m);
        *m = n;
    }
    size_t i = slot_of(m, key);
    if (!m->key[i]) m->len++;
    m->key[i] = key, m->val[i] = val;
    return 0;
}

/* One shard being merged into T. */
typedef struct Merge {
    Db *t;
    sqlite3 *s; /* the shard's read-only connection */
    const char *shard;
    IdMap runs, ws; /* shard id -> target id */
    DbMergeStats *st;
    char *err;
    bool busy; /* a target run is being written by another live process (err says so) */
} Merge;

static int fail_s(Merge *m, int rc, const char *what)
{
    if ((rc & 0xff) == SQLITE_CORRUPT)
        set_err(m->err, "shard %s: not a readable dama database: %s", m->shard, sqlite3_errstr(rc));
    else set_err(m->err, "shard %s: %s: %s", m->shard, what, sqlite3_errstr(rc));
    return -1;
}

static int prep_s(Merge *m, const char *sql, sqlite3_stmt **st)
{
    int rc = sqlite3_prepare_v2(m->s, sql, -1, st, NULL);
    if (rc != SQLITE_OK) {
        set_err(m->err, "shard %s: reading it: %s", m->shard, sqlite3_errmsg(m->s));
        return -1;
    }
    return 0;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : NULL;
}

static bool same_text(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* The first line where two run configurations differ, as "a" vs "b". */
static void config_difference(const char *a, const char *b, char *out, size_t size)
{
    a = a ? a : "";
    b = b ? b : "";
    while (*a || *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0) {
            snprintf(out, size, "'%.*s' vs '%.*s'", (int)(la < 80 ? la : 80), a, (int)(lb < 80 ? lb : 80), b);
            return;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
    snprintf(out, size, "(no line differs)");
}

/* The target id of shard weight set sid, inserted (parents first) when T
 * has no set of that content. */
static int map_ws(Merge *m, int64_t sid, int depth, int64_t *tid)
{
    *tid = idmap_get(&m->ws, sid);
    if (*tid) return 0;
    if (depth > 10000) {
        set_err(m->err, "shard %s: weight set %" PRId64 ": a lineage over 10000 sets deep (a cycle?)", m->shard, sid);
        return -1;
    }
    sqlite3_stmt *q;
    if (prep_s(m, "SELECT game, name, parent_id, how, run_id, created, terms, weights, hash, delta FROM weight_sets "
                  "WHERE id = ?",
               &q) != 0)
        return -1;
    sqlite3_bind_int64(q, 1, sid);
    int rc = sqlite3_step(q);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(q);
        if (rc == SQLITE_DONE) set_err(m->err, "shard %s: weight set %" PRId64 " is named but missing", m->shard, sid);
        else fail_s(m, rc, "reading a weight set");
        return -1;
    }
    const char *game = col_text(q, 0), *terms = col_text(q, 6), *values = col_text(q, 7);
    bool delta = sqlite3_column_int(q, 9) != 0;
    char hash[DB_HASH_HEX];
    if (col_text(q, 8)) snprintf(hash, sizeof hash, "%s", col_text(q, 8));
    else dbi_hash_text(game ? game : "", terms ? terms : "", values ? values : "", hash);
    /* A delta row is its parent's values with its own overrides: its parent
     * is mapped first, and the same content in T is a delta row with the
     * same text over that parent. */
    int64_t parent = 0, run = 0;
    if (sqlite3_column_type(q, 2) != SQLITE_NULL && delta &&
        map_ws(m, sqlite3_column_int64(q, 2), depth + 1, &parent) != 0) {
        sqlite3_finalize(q);
        return -1;
    }
    if (delta && !parent) {
        sqlite3_finalize(q);
        set_err(m->err, "shard %s: weight set %" PRId64 " is a delta without a parent", m->shard, sid);
        return -1;
    }
    /* The same content in T: that row (a weight set is its content). */
    sqlite3_stmt *f = dbi_stmt(m->t, "SELECT id FROM weight_sets WHERE game = ? AND hash = ? AND terms = ? AND weights = ? "
                                     "AND delta = ? AND (delta = 0 OR parent_id = ?) ORDER BY id LIMIT 1", m->err);
    int brc = SQLITE_OK;
    if (!f) {
        sqlite3_finalize(q);
        return -1;
    }
    bind_text(f, 1, game, &brc);
    bind_text(f, 2, hash, &brc);
    bind_text(f, 3, terms, &brc);
    bind_text(f, 4, values, &brc);
    bind_i64(f, 5, delta, &brc);
    bind_i64(f, 6, parent, &brc);
    rc = brc == SQLITE_OK ? sqlite3_step(f) : brc;
    if (rc == SQLITE_ROW) *tid = sqlite3_column_int64(f, 0);
    stmt_done(f);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        sqlite3_finalize(q);
        dbi_fail(m->t, rc, m->err, "merging shard %s: looking up a weight set", m->shard);
        return -1;
    }
    if (!*tid) {
        if (sqlite3_column_type(q, 2) != SQLITE_NULL && !delta &&
            map_ws(m, sqlite3_column_int64(q, 2), depth + 1, &parent) != 0) {
            sqlite3_finalize(q);
            return -1;
        }
        if (sqlite3_column_type(q, 4) != SQLITE_NULL) run = idmap_get(&m->runs, sqlite3_column_int64(q, 4));
        sqlite3_stmt *ins = dbi_stmt(m->t, "INSERT INTO weight_sets(game, name, parent_id, how, run_id, created, terms, "
                                           "weights, hash, delta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", m->err);
        if (!ins) {
            sqlite3_finalize(q);
            return -1;
        }
        brc = SQLITE_OK;
        bind_text(ins, 1, game, &brc);
        bind_text(ins, 2, col_text(q, 1), &brc);
        bind_id(ins, 3, parent, &brc);
        bind_text(ins, 4, col_text(q, 3), &brc);
        bind_id(ins, 5, run, &brc);
        bind_text(ins, 6, col_text(q, 5), &brc);
        bind_text(ins, 7, terms, &brc);
        bind_text(ins, 8, values, &brc);
        bind_text(ins, 9, hash, &brc);
        bind_i64(ins, 10, delta, &brc);
        if (dbi_step_write(m->t, ins, brc, m->err, "merging a weight set") != 0) {
            sqlite3_finalize(q);
            return -1;
        }
        *tid = sqlite3_last_insert_rowid(m->t->h);
        m->st->weight_sets_new++;
    }
    sqlite3_finalize(q);
    if (idmap_put(&m->ws, sid, *tid) != 0) {
        set_err(m->err, "out of memory");
        return -1;
    }
    return 0;
}

/* The target run of shard run (kind, game, seed, config): the same run
 * (all four equal), or a new one; a run of the same kind, game and seed
 * with another configuration contradicts it. */
static int map_run(Merge *m, sqlite3_stmt *r, int64_t *tid)
{
    int64_t sid = sqlite3_column_int64(r, 0), seed = sqlite3_column_int64(r, 7);
    const char *kind = col_text(r, 1), *game = col_text(r, 2), *status = col_text(r, 5), *config = col_text(r, 8);
    sqlite3_stmt *f = dbi_stmt(m->t, "SELECT id, config, status FROM runs WHERE kind = ? AND game = ? AND seed IS ? "
                                     "ORDER BY id", m->err);
    if (!f) return -1;
    int brc = SQLITE_OK, rc;
    bind_text(f, 1, kind, &brc);
    bind_text(f, 2, game, &brc);
    if (brc == SQLITE_OK)
        brc = sqlite3_column_type(r, 7) == SQLITE_NULL ? sqlite3_bind_null(f, 3) : sqlite3_bind_int64(f, 3, seed);
    *tid = 0;
    char other[200] = "", tstatus[DB_STATUS_MAX] = "";
    int64_t other_id = 0;
    while (brc == SQLITE_OK && (rc = sqlite3_step(f)) == SQLITE_ROW) {
        if (same_text(col_text(f, 1), config)) {
            *tid = sqlite3_column_int64(f, 0);
            snprintf(tstatus, sizeof tstatus, "%s", col_text(f, 2) ? col_text(f, 2) : "");
            break;
        }
        if (!other_id) {
            other_id = sqlite3_column_int64(f, 0);
            config_difference(config, col_text(f, 1), other, sizeof other);
        }
    }
    if (brc != SQLITE_OK) rc = brc;
    stmt_done(f);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        dbi_fail(m->t, rc, m->err, "merging shard %s: looking up a run", m->shard);
        return -1;
    }
    if (!*tid && other_id) {
        set_err(m->err, "shard %s: run %" PRId64 " (%s %s, seed %" PRIu64 ") contradicts run %" PRId64 " of the target, "
                "same kind, game and seed but another configuration: %s",
                m->shard, sid, kind ? kind : "", game ? game : "", (uint64_t)seed, other_id, other);
        return -1;
    }
    /* A run not done in every part is not done in the whole. */
    const char *merged = status && strcmp(status, "done") == 0 ? "done" : "interrupted";
    /* A target run that a live process writes has one writer: that one. */
    char berr[ERR_MAX];
    int busy = *tid ? dbi_row_busy(m->t, &DBI_OWNED_RUNS, *tid, berr) : 0;
    if (busy != 0) {
        set_err(m->err, "shard %s: target %.200s", m->shard, berr);
        m->busy = busy == DB_BUSY;
        return -1;
    }
    if (*tid) {
        m->st->runs_matched++;
        if (strcmp(merged, "done") != 0 && strcmp(tstatus, "interrupted") != 0) {
            sqlite3_stmt *u = dbi_stmt(m->t, "UPDATE runs SET status = 'interrupted' WHERE id = ?", m->err);
            if (!u) return -1;
            brc = SQLITE_OK;
            bind_i64(u, 1, *tid, &brc);
            if (dbi_step_write(m->t, u, brc, m->err, "merging a run's status") != 0) return -1;
        }
    } else {
        sqlite3_stmt *ins = dbi_stmt(m->t, "INSERT INTO runs(kind, game, created, finished, status, seed, config, note) "
                                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", m->err);
        if (!ins) return -1;
        brc = SQLITE_OK;
        bind_text(ins, 1, kind, &brc);
        bind_text(ins, 2, game, &brc);
        bind_text(ins, 3, col_text(r, 3), &brc);
        bind_text(ins, 4, col_text(r, 4), &brc);
        bind_text(ins, 5, merged, &brc);
        if (brc == SQLITE_OK)
            brc = sqlite3_column_type(r, 7) == SQLITE_NULL ? sqlite3_bind_null(ins, 6) : sqlite3_bind_int64(ins, 6, seed);
        bind_text(ins, 7, config, &brc);
        bind_text(ins, 8, col_text(r, 6), &brc);
        if (dbi_step_write(m->t, ins, brc, m->err, "merging a run") != 0) return -1;
        *tid = sqlite3_last_insert_rowid(m->t->h);
        m->st->runs_new++;
    }
    if (idmap_put(&m->runs, sid, *tid) != 0) {
        set_err(m->err, "out of memory");
        return -1;
    }
    return 0;
}

/* The run's members: the same weight set at each member index. */
static int merge_members(Merge *m, int64_t sid, int64_t tid)
{
    sqlite3_stmt *q;
    if (prep_s(m, "SELECT member, ws_id FROM run_weight_sets WHERE run_id = ? ORDER BY member", &q) != 0) return -1;
    sqlite3_bind_int64(q, 1, sid);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t member = sqlite3_column_int64(q, 0), ws = 0, have = 0;
        if (map_ws(m, sqlite3_column_int64(q, 1), 0, &ws) != 0) break;
        sqlite3_stmt *f = dbi_stmt(m->t, "SELECT ws_id FROM run_weight_sets WHERE run_id = ? AND member = ?", m->err);
        if (!f) break;
        int brc = SQLITE_OK;
        bind_i64(f, 1, tid, &brc);
        bind_i64(f, 2, member, &brc);
        int frc = brc == SQLITE_OK ? sqlite3_step(f) : brc;
        if (frc == SQLITE_ROW) have = sqlite3_column_int64(f, 0);
        stmt_done(f);
        if (frc != SQLITE_ROW && frc != SQLITE_DONE) {
            dbi_fail(m->t, frc, m->err, "merging shard %s: reading run members", m->shard);
            break;
        }
        if (have && have != ws) {
            set_err(m->err, "shard %s: run %" PRId64 " member %" PRId64 " is another weight set than member %" PRId64
                    " of run %" PRId64 " of the target (weight sets %" PRId64 " and %" PRId64 " differ)",
                    m->shard, sid, member, member, tid, ws, have);
            break;
        }
        if (!have) {
            sqlite3_stmt *ins = dbi_stmt(m->t, "INSERT INTO run_weight_sets(run_id, member, ws_id) VALUES (?, ?, ?)", m->err);
            if (!ins) break;
            brc = SQLITE_OK;
            bind_i64(ins, 1, tid, &brc);
            bind_i64(ins, 2, member, &brc);
            bind_i64(ins, 3, ws, &brc);
            if (dbi_step_write(m->t, ins, brc, m->err, "merging a run member") != 0) break;
        }
    }
    sqlite3_finalize(q);
    if (rc == SQLITE_DONE) return 0;
    if (rc != SQLITE_ROW) fail_s(m, rc, "reading run members");
    return -1;
}

/* Copy the positions of shard game sg to target game tg. */
static int merge_positions(Merge *m, sqlite3_stmt *q, int64_t sg, int64_t tg)
{
    sqlite3_bind_int64(q, 1, sg);
    sqlite3_stmt *ins = dbi_stmt(m->t, "INSERT INTO positions(game_id, ply, fen, stm, score, result, quiet) "
                                       "VALUES (?, ?, ?, ?, ?, ?, ?)", m->err);
    int rc;
    while (ins && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        int brc = SQLITE_OK;
        bind_i64(ins, 1, tg, &brc);
        for (int c = 0; c < 6 && brc == SQLITE_OK; c++) brc = sqlite3_bind_value(ins, c + 2, sqlite3_column_value(q, c));
        if (dbi_step_write(m->t, ins, brc, m->err, "merging a position") != 0) {
            sqlite3_reset(q);
            return -1;
        }
        m->st->positions_new++;
    }
    sqlite3_reset(q);
    if (!ins) return -1;
    if (rc != SQLITE_DONE) return fail_s(m, rc, "reading positions");
    return 0;
}

/* The run's games: new ones copied with their positions; one already in
 * the target (same run and game index) must be the same game. */
static int merge_games(Merge *m, int64_t sid, int64_t tid, const char *label)
{
    sqlite3_stmt *q, *pq;
    if (prep_s(m, "SELECT id, game_index, game, opening, start_fen, white_ws, black_ws, seed, result, reason, plies, "
                  "movetext, created, round, detail, white_moves, black_moves, white_wall_s, black_wall_s, white_cpu_s, "
                  "black_cpu_s FROM games WHERE run_id = ? ORDER BY game_index", &q) != 0)
        return -1;
    if (prep_s(m, "SELECT ply, fen, stm, score, result, quiet FROM positions WHERE game_id = ? ORDER BY id", &pq) != 0) {
        sqlite3_finalize(q);
        return -1;
    }
    sqlite3_bind_int64(q, 1, sid);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t index = sqlite3_column_int64(q, 1), w = 0, b = 0;
        if (sqlite3_column_type(q, 5) != SQLITE_NULL && map_ws(m, sqlite3_column_int64(q, 5), 0, &w) != 0) break;
        if (sqlite3_column_type(q, 6) != SQLITE_NULL && map_ws(m, sqlite3_column_int64(q, 6), 0, &b) != 0) break;
        sqlite3_stmt *f = dbi_stmt(m->t, "SELECT start_fen, white_ws, black_ws, seed, result, movetext FROM games "
                                         "WHERE run_id = ? AND game_index = ?", m->err);
        if (!f) break;
        int brc = SQLITE_OK;
        bind_i64(f, 1, tid, &brc);
        bind_i64(f, 2, index, &brc);
        int frc = brc == SQLITE_OK ? sqlite3_step(f) : brc;
        const char *diff = NULL;
        if (frc == SQLITE_ROW) {
            if (!same_text(col_text(f, 0), col_text(q, 4))) diff = "start position";
            else if (sqlite3_column_int64(f, 1) != w || sqlite3_column_int64(f, 2) != b) diff = "weight sets";
            else if (sqlite3_column_int64(f, 3) != sqlite3_column_int64(q, 7)) diff = "seed";
            else if (!same_text(col_text(f, 4), col_text(q, 8))) diff = "result";
            else if (!same_text(col_text(f, 5), col_text(q, 11))) diff = "movetext";
        }
        stmt_done(f);
        if (frc != SQLITE_ROW && frc != SQLITE_DONE) {
            dbi_fail(m->t, frc, m->err, "merging shard %s: looking up a game", m->shard);
            break;
        }
        if (diff) {
            set_err(m->err, "shard %s: run %" PRId64 " (%s) game %" PRId64 " differs from game %" PRId64
                    " of run %" PRId64 " in the target (its %s)", m->shard, sid, label, index, index, tid, diff);
            break;
        }
        if (frc == SQLITE_ROW) {
            m->st->games_same++;
            continue;
        }
        sqlite3_stmt *ins = dbi_stmt(m->t, "INSERT INTO games(run_id, game_index, game, opening, start_fen, white_ws, "
                                           "black_ws, seed, result, reason, plies, movetext, created, round, detail, "
                                           "white_moves, black_moves, white_wall_s, black_wall_s, white_cpu_s, "
                                           "black_cpu_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                           "?, ?, ?)", m->err);
        if (!ins) break;
        brc = SQLITE_OK;
        bind_i64(ins, 1, tid, &brc);
        bind_i64(ins, 2, index, &brc);
        for (int c = 2; c <= 4 && brc == SQLITE_OK; c++) brc = sqlite3_bind_value(ins, c + 1, sqlite3_column_value(q, c));
        bind_id(ins, 6, w, &brc);
        bind_id(ins, 7, b, &brc);
        for (int c = 7; c <= 20 && brc == SQLITE_OK; c++) brc = sqlite3_bind_value(ins, c + 1, sqlite3_column_value(q, c));
        if (dbi_step_write(m->t, ins, brc, m->err, "merging a game") != 0) break;
        m->st->games_new++;
        if (merge_positions(m, pq, sqlite3_column_int64(q, 0), sqlite3_last_insert_rowid(m->t->h)) != 0) break;
    }
    sqlite3_finalize(q);
    sqlite3_finalize(pq);
    if (rc == SQLITE_DONE) return 0;
    if (rc != SQLITE_ROW) fail_s(m, rc, "reading games");
    return -1;
}

/* The target run's status once a shard's games are in: 'done' only when
 * the shard's run is done and the target's games are every index from 0
 * to its largest (shard R/K holds the indices i mod K = R: a shard merged
 * alone, or beside an unfinished one, leaves gaps); else 'interrupted'.
 * (A run whose part lacks only its last indices reads as whole.) A
 * shard finished and merged again completes its target. */
static int settle_status(Merge *m, sqlite3_stmt *r, int64_t tid)
{
    const char *status = col_text(r, 5);
    if (!status || strcmp(status, "done") != 0) return 0; /* map_run made the target 'interrupted' */
    sqlite3_stmt *q = dbi_stmt(m->t, "SELECT count(*) = coalesce(max(game_index) + 1, 0) FROM games WHERE run_id = ?",
                               m->err);
    if (!q) return -1;
    int brc = SQLITE_OK;
    bind_i64(q, 1, tid, &brc);
    int rc = brc == SQLITE_OK ? sqlite3_step(q) : brc;
    bool whole = rc == SQLITE_ROW && sqlite3_column_int(q, 0) != 0;
    stmt_done(q);
    if (rc != SQLITE_ROW) {
        dbi_fail(m->t, rc, m->err, "merging shard %s: counting a run's games", m->shard);
        return -1;
    }
    sqlite3_stmt *u = dbi_stmt(m->t, whole ? "UPDATE runs SET status = 'done', finished = coalesce(finished, ?2) "
                                             "WHERE id = ?1 AND status IS NOT 'done'"
                                           : "UPDATE runs SET status = 'interrupted' "
                                             "WHERE id = ?1 AND status IS NOT 'interrupted'",
                               m->err);
    if (!u) return -1;
    brc = SQLITE_OK;
    bind_i64(u, 1, tid, &brc);
    if (whole) bind_text(u, 2, col_text(r, 4), &brc);
    return dbi_step_write(m->t, u, brc, m->err, "merging a run's status");
}

static int merge_shard(Merge *m)
{
    sqlite3_stmt *r;
    if (prep_s(m, "SELECT id, kind, game, created, finished, status, note, seed, config FROM runs ORDER BY id", &r) != 0)
        return -1;
    int rc;
    while ((rc = sqlite3_step(r)) == SQLITE_ROW) {
        const char *kind = col_text(r, 1);
        if (!kind || strcmp(kind, "selfplay") != 0) {
            m->st->runs_skipped++;
            continue;
        }
        int64_t sid = sqlite3_column_int64(r, 0), tid = 0;
        char label[96];
        snprintf(label, sizeof label, "selfplay %s, seed %" PRIu64, col_text(r, 2) ? col_text(r, 2) : "?",
                 (uint64_t)sqlite3_column_int64(r, 7));
        if (map_run(m, r, &tid) != 0 || merge_members(m, sid, tid) != 0 || merge_games(m, sid, tid, label) != 0 ||
            settle_status(m, r, tid) != 0) {
            sqlite3_finalize(r);
            return -1;
        }
    }
    sqlite3_finalize(r);
    return rc == SQLITE_DONE ? 0 : fail_s(m, rc, "reading runs");
}

/* "shard PATH: what" — once: the message of an open or a query names the
 * file already. */
static void shard_err(char err[ERR_MAX], const char *shard, const char *serr)
{
    size_t n = strlen(shard);
    if (strncmp(serr, shard, n) == 0 && serr[n] == ':') set_err(err, "shard %s", serr);
    else set_err(err, "shard %s: %s", shard, serr);
}

int db_merge(Db *db, const char *const *shards, int shards_len, DbMergeStats *st, char err[ERR_MAX])
{
    memset(st, 0, sizeof *st);
    struct stat tst;
    bool have_t = stat(db->path, &tst) == 0;
    /* Every shard is checked before anything is written. */
    for (int i = 0; i < shards_len; i++) {
        struct stat sst;
        if (stat(shards[i], &sst) != 0) {
            set_err(err, "shard %s: %s", shards[i], strerror(errno));
            return -1;
        }
        if (have_t && sst.st_dev == tst.st_dev && sst.st_ino == tst.st_ino) {
            set_err(err, "shard %s is the target database itself", shards[i]);
            return -1;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(shards[j], shards[i]) == 0) {
                set_err(err, "shard %s is named twice", shards[i]);
                return -1;
            }
    }
    if (db_begin(db, err) != 0) return -1;
    int rc = 0;
    bool busy = false;
    for (int i = 0; rc == 0 && i < shards_len; i++) {
        Db *s = NULL;
        char serr[ERR_MAX];
        if (db_open_readonly(shards[i], &s, serr) != 0) {
            shard_err(err, shards[i], serr);
            rc = -1;
            break;
        }
        int64_t version = 0;
        if (dbi_query_int(s, "PRAGMA user_version", &version, serr) != 0) {
            shard_err(err, shards[i], serr);
            rc = -1;
        } else if (version != DB_SCHEMA_VERSION) {
            /* db_open_readonly refuses older and newer schemas already */
            set_err(err, "shard %s: schema version %" PRId64 ", the target's is %d", shards[i], version,
                    DB_SCHEMA_VERSION);
            rc = -1;
        }
        Merge m = {.t = db, .s = s ? s->h : NULL, .shard = shards[i], .st = st, .err = err};
        if (rc == 0) rc = merge_shard(&m);
        if (m.busy) busy = true;
        idmap_free(&m.runs);
        idmap_free(&m.ws);
        db_close(s);
        if (rc == 0) st->shards++;
    }
    if (rc == 0) rc = db_commit(db, err);
    if (rc != 0) {
        db_rollback(db);
        memset(st, 0, sizeof *st);
    }
    return rc != 0 && busy ? DB_BUSY : rc;
}

int db_merge_into(const char *into, const char *const *shards, int shards_len, DbMergeStats *st, char err[ERR_MAX])
{
    memset(st, 0, sizeof *st);
    Db *db = NULL;
    if (db_open(into, true, &db, err) != 0) return -1;
    int rc = db_merge(db, shards, shards_len, st, err);
    if (rc != 0) {
        db_close_discard_new(db);
        return rc == DB_BUSY ? DB_BUSY : -2;
    }
    db_close(db);
    return 0;
}

int db_upgrade(const char *path, bool *upgraded, char err[ERR_MAX])
{
    Db *db = NULL;
    *upgraded = true;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) { /* SQLite would make it one */
        set_err(err, "%s: an empty file, not a dama database (nothing to upgrade)", path);
        return -1;
    }
    if (db_open_readonly(path, &db, err) == 0) { /* already at this schema: nothing to do */
        *upgraded = false;
        db_close(db);
        db = NULL;
    }
    /* opened for writing (never created): older schemas are migrated */
    if (db_open(path, false, &db, err) != 0) return -1;
    db_close(db);
    return 0;
}
