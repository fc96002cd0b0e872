/* db_weights.c — the weight_sets table: storing, loading and looking up
 * weight sets (contracts in db.h). */
#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db_internal.h"
#include "engine/weights_id.h"

static const char SQL_WS_INSERT[] =
    "INSERT INTO weight_sets(game, name, parent_id, how, run_id, terms, weights, hash, delta) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
/* The rows that may hold a content: same game and content hash (a full row
 * is compared by its text, a delta row by its resolved values). */
static const char SQL_WS_FIND[] =
    "SELECT id, delta, terms = ?3 AND weights = ?4 FROM weight_sets WHERE game = ?1 AND hash = ?2 "
    "ORDER BY id";
static const char SQL_WS_LOAD[] =
    "SELECT game, terms, weights, delta, parent_id FROM weight_sets WHERE id = ?1";

/* A delta row's chain of parents (delta rows of delta rows) is at most this
 * long: a longer one is refused as a likely cycle. */
enum { DELTA_DEPTH_MAX = 64 };

static int load_row(Db *db, int64_t id, const char *game, const char *const *names, int32_t *weights, int len,
                    int depth, char err[ERR_MAX]);

/* ---- weight sets ---------------------------------------------------------- */

static bool valid_weight_name(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (*s == ',' || *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            return false;
    return true;
}

void dbi_hash_text(const char *game, const char *terms, const char *values, char out[DB_HASH_HEX])
{
    snprintf(out, DB_HASH_HEX, "%016" PRIx64, weights_hash_canonical(game, terms, values));
}

/* Length of the table run at names[i]: L > 0 when names[i..i+L) are
 * exactly "P[0]", "P[1]", ..., "P[L-1]" for one prefix P (as
 * weight_names_new writes a table), else 0. */
static int table_run(const char *const *names, int i, int len)
{
    size_t n = strlen(names[i]);
    if (n < 4 || strcmp(names[i] + n - 3, "[0]") != 0) return 0;
    size_t plen = n - 2; /* with the '[' */
    int run = 1;
    for (; i + run < len; run++) {
        const char *c = names[i + run];
        if (strncmp(c, names[i], plen) != 0) break;
        c += plen;
        int v = 0, digits = 0;
        for (; *c >= '0' && *c <= '9' && digits < 10; c++, digits++) v = v * 10 + (*c - '0');
        if (!digits || (digits > 1 && c[-digits] == '0') || v != run || c[0] != ']' || c[1]) break;
    }
    return run;
}

/* Decimal text of v at out (at least 12 bytes); returns its length. */
static size_t put_int(char *out, int32_t v)
{
    char tmp[12];
    size_t n = 0, len = 0;
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    do tmp[n++] = (char)('0' + u % 10), u /= 10;
    while (u);
    if (v < 0) out[len++] = '-';
    while (n) out[len++] = tmp[--n];
    return len;
}

enum { TABLE_COMPACT_MIN = 65, RLE_MIN = 4 };

/* The text of names and values, comma-joined (allocated, free both).
 * Canonical (compact false): every name and every value, the text the
 * content hash is taken of. Stored (compact true): the same, except that
 * a table of TABLE_COMPACT_MIN or more weights (patterns) is named once as
 * "P[0..L-1]" and its values run-length coded, "v*n" for n >= RLE_MIN equal
 * values in a row; smaller tables and rows written before stay as they
 * were. */
static int weights_text_form(const char *const *names, const int32_t *weights, int len, bool compact,
                             char **terms_out, char **values_out)
{
    *terms_out = *values_out = NULL;
    if (len < 0) return -1;
    size_t names_size = 1;
    for (int i = 0; i < len; i++)
        names_size += strlen(names[i]) + 1;
    size_t values_size = (size_t)len * 12 + 1; /* "-2147483648," is 12 bytes */
    char *terms = malloc(names_size), *values = malloc(values_size);
    if (!terms || !values) {
        free(terms);
        free(values);
        return -1;
    }
    size_t tp = 0, vp = 0;
    values[0] = '\0';
    for (int i = 0; i < len;) {
        int run = compact ? table_run(names, i, len) : 0;
        if (run >= TABLE_COMPACT_MIN) {
            size_t plen = strlen(names[i]) - 3;
            tp += (size_t)snprintf(terms + tp, names_size - tp, "%s%.*s[0..%d]", i ? "," : "", (int)plen, names[i],
                                   run - 1);
            for (int j = i; j < i + run;) {
                int same = 1;
                while (j + same < i + run && weights[j + same] == weights[j]) same++;
                if (j) values[vp++] = ',';
                vp += put_int(values + vp, weights[j]);
                if (same >= RLE_MIN) {
                    values[vp++] = '*';
                    vp += put_int(values + vp, same);
                    j += same;
                } else j++;
            }
            values[vp] = '\0';
            i += run;
            continue;
        }
        size_t n = strlen(names[i]);
        if (i)
            terms[tp++] = ',';
        memcpy(terms + tp, names[i], n);
        tp += n;
        if (i) values[vp++] = ',';
        vp += put_int(values + vp, weights[i]);
        values[vp] = '\0';
        i++;
    }
    terms[tp] = '\0';
    *terms_out = terms;
    *values_out = values;
    return 0;
}


/* The hash from the names part's state h (weights_hash_names) over the
 * values, as hex. */
static void hash_values(uint64_t h, const int32_t *weights, int len, char out[DB_HASH_HEX])
{
    snprintf(out, DB_HASH_HEX, "%016" PRIx64, weights_hash_values(h, weights, len));
}

void db_weights_hash(const char *game, const char *const *names, const int32_t *weights, int len,
                     char out[DB_HASH_HEX])
{
    /* The hash of the canonical text (dbi_hash_text of weights_text), taken
     * piece by piece without building it. */
    hash_values(weights_hash_names(game, names, len), weights, len, out);
}

/* db_weights_hash, with the names part's state cached on the connection
 * (the many members of a run share their names: hashing 118,184 names took
 * most of the time of storing a member). */
static void content_hash(Db *db, const char *game, const char *const *names, const int32_t *weights, int len,
                         char out[DB_HASH_HEX])
{
    if (db->hash_names != names || db->hash_len != len || strcmp(db->hash_game, game) != 0) {
        db->hash_state = weights_hash_names(game, names, len);
        bool fits = strlen(game) < sizeof db->hash_game;
        db->hash_names = fits ? names : NULL;
        db->hash_len = len;
        snprintf(db->hash_game, sizeof db->hash_game, "%s", fits ? game : "");
        if (!fits) {
            hash_values(db->hash_state, weights, len, out);
            return;
        }
    }
    hash_values(db->hash_state, weights, len, out);
}

enum { FIND_CANDIDATES_MAX = 16 };

/* The oldest row with exactly this content (game, names and values); *id =
 * 0 if none. terms and values are the stored (compact) text of a full row,
 * or NULL: then full rows are compared by their values too. */
static int find_content(Db *db, const char *game, const char *hash, const char *terms, const char *values,
                        const char *const *names, const int32_t *weights, int len, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_WS_FIND, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    bind_text(st, 2, hash, &rc);
    bind_text(st, 3, terms ? terms : "", &rc);
    bind_text(st, 4, values ? values : "", &rc);
    /* Rows to compare by their values (loaded after this statement is done:
     * loading uses statements of its own). */
    int64_t check[FIND_CANDIDATES_MAX];
    int check_len = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t row = sqlite3_column_int64(st, 0);
        bool delta = sqlite3_column_int(st, 1) != 0, same_text = sqlite3_column_int(st, 2) != 0;
        rc = SQLITE_OK;
        if (!delta && terms) {
            if (same_text) {
                *id = row;
                break;
            }
        } else if (check_len < FIND_CANDIDATES_MAX)
            check[check_len++] = row;
    }
    if (rc == SQLITE_ROW || *id) rc = SQLITE_DONE;
    stmt_done(st);
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "looking up a weight set by content");
        return -1;
    }
    if (*id) check_len = 0; /* an older full row has it (candidates come in id order) */
    int32_t *tmp = check_len ? malloc((size_t)len * sizeof *tmp) : NULL;
    if (check_len && !tmp) {
        set_err(err, "looking up a weight set by content: out of memory");
        return -1;
    }
    for (int i = 0; i < check_len; i++) {
        char ignored[ERR_MAX];
        /* A row this dama cannot read (other names) is not this content. */
        if (load_row(db, check[i], game, names, tmp, len, 0, ignored) == 0 &&
            memcmp(tmp, weights, (size_t)len * sizeof *tmp) == 0) {
            if (!*id || check[i] < *id) *id = check[i];
            break;
        }
    }
    free(tmp);
    return 0;
}

/* The checks every stored set passes: a game, a lineage, names that can be
 * stored comma-separated. */
static int check_insert(const char *game, const char *name, const char *how, const char *const *names, int len,
                        char err[ERR_MAX])
{
    if (!game || !how || len < 0) {
        set_err(err,
                "storing weight set '%s': game, lineage (how) and at least one weight are "
                "required",
                name ? name : "");
        return -1;
    }
    for (int i = 0; i < len; i++) {
        if (!valid_weight_name(names[i])) {
            set_err(err,
                    "storing weight set '%s': weight %d has name '%s' (empty, or with a "
                    "comma or space)",
                    name ? name : "", i, names[i] ? names[i] : "(null)");
            return -1;
        }
    }
    return 0;
}

/* Insert one row (the text is stored as given). */
static int insert_row(Db *db, const char *game, const char *name, int64_t parent_id, const char *how,
                      int64_t run_id, const char *terms, const char *values, const char *hash, bool delta,
                      int64_t *id, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_WS_INSERT, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    bind_text(st, 2, name, &rc);
    bind_id(st, 3, parent_id, &rc);
    bind_text(st, 4, how, &rc);
    bind_id(st, 5, run_id, &rc);
    bind_text(st, 6, terms, &rc);
    bind_text(st, 7, values, &rc);
    bind_text(st, 8, hash, &rc);
    bind_i64(st, 9, delta, &rc);
    int out = dbi_step_write(db, st, rc, err, "storing a weight set");
    if (out == 0)
        *id = sqlite3_last_insert_rowid(db->h);
    return out;
}

static int weights_insert(Db *db, const char *game, const char *name, int64_t parent_id,
                          const char *how, int64_t run_id, const char *const *names,
                          const int32_t *weights, int len, int64_t *id, char err[ERR_MAX])
{
    if (len <= 0) len = -1; /* refused by check_insert */
    if (check_insert(game, name, how, names, len, err) != 0)
        return -1;
    char *terms = NULL, *values = NULL;
    char hash[DB_HASH_HEX];
    content_hash(db, game, names, weights, len, hash); /* of the canonical text */
    if (weights_text_form(names, weights, len, true, &terms, &values) != 0) {
        set_err(err, "storing weight set '%s': out of memory", name ? name : "");
        return -1;
    }
    int64_t existing = 0;
    int out = find_content(db, game, hash, terms, values, names, weights, len, &existing, err);
    if (out == 0 && existing)
        *id = existing;
    else if (out == 0)
        out = insert_row(db, game, name, parent_id, how, run_id, terms, values, hash, false, id, err);
    free(terms);
    free(values);
    return out;
}

int db_weights_insert(Db *db, const char *game, const char *name, int64_t parent_id,
                      const char *how, int64_t run_id, const char *const *names,
                      const int32_t *weights, int len, int64_t *id, char err[ERR_MAX])
{
    /* find-or-insert in one write transaction: two processes storing the
     * same weights at once get one row */
    bool own = false;
    int rc = tx_enter(db, &own, err);
    if (rc == 0) rc = weights_insert(db, game, name, parent_id, how, run_id, names, weights, len, id, err);
    if (rc == 0 && own) rc = db_commit(db, err);
    return write_end(db, rc);
}

/* The resolved values of parent (a delta row's base), from the
 * connection's one-entry cache when it holds them: the members of a
 * self-play run share one parent, which is then read and parsed once. */
static int load_parent(Db *db, int64_t parent, const char *game, const char *const *names, int32_t *weights,
                       int len, int depth, char err[ERR_MAX])
{
    if (db->ws_cache && db->ws_cache_id == parent && db->ws_cache_names == names && db->ws_cache_len == len &&
        strcmp(db->ws_cache_game, game) == 0) {
        memcpy(weights, db->ws_cache, (size_t)len * sizeof *weights);
        return 0;
    }
    if (load_row(db, parent, game, names, weights, len, depth, err) != 0) return -1;
    if (strlen(game) < sizeof db->ws_cache_game) {
        if (db->ws_cache_len != len) {
            free(db->ws_cache);
            db->ws_cache = malloc((size_t)len * sizeof *weights);
            db->ws_cache_len = db->ws_cache ? len : 0;
        }
        if (db->ws_cache) {
            memcpy(db->ws_cache, weights, (size_t)len * sizeof *weights);
            db->ws_cache_id = parent;
            db->ws_cache_names = names;
            snprintf(db->ws_cache_game, sizeof db->ws_cache_game, "%s", game);
        }
    }
    return 0;
}

static int weights_insert_delta(Db *db, const char *game, const char *name, int64_t parent_id, const char *how,
                                int64_t run_id, const char *const *names, const int32_t *weights, int len,
                                int64_t *id, char err[ERR_MAX])
{
    if (check_insert(game, name, how, names, 0, err) != 0) /* the names stored are checked below */
        return -1;
    if (len <= 0 || parent_id <= 0) {
        set_err(err, "storing weight set '%s' as a delta: it needs a parent weight set and at least one weight",
                name ? name : "");
        return -1;
    }
    char hash[DB_HASH_HEX];
    content_hash(db, game, names, weights, len, hash);
    int64_t existing = 0;
    if (find_content(db, game, hash, NULL, NULL, names, weights, len, &existing, err) != 0)
        return -1;
    if (existing) {
        *id = existing;
        return 0;
    }
    int32_t *base = malloc((size_t)len * sizeof *base);
    if (!base) {
        set_err(err, "storing weight set '%s': out of memory", name ? name : "");
        return -1;
    }
    if (load_parent(db, parent_id, game, names, base, len, 1, err) != 0) {
        free(base);
        return -1;
    }
    /* The weights that differ from the parent's, by name, in order. */
    size_t names_size = 1, values_size = 1;
    for (int i = 0; i < len; i++)
        if (weights[i] != base[i]) names_size += strlen(names[i]) + 1, values_size += 12;
    for (int i = 0; i < len; i++)
        if (weights[i] != base[i] && !valid_weight_name(names[i])) {
            set_err(err, "storing weight set '%s': weight %d has name '%s' (empty, or with a comma or space)",
                    name ? name : "", i, names[i] ? names[i] : "(null)");
            free(base);
            return -1;
        }
    char *terms = malloc(names_size), *values = malloc(values_size);
    int out = -1;
    if (!terms || !values) {
        set_err(err, "storing weight set '%s': out of memory", name ? name : "");
        goto done;
    }
    size_t tp = 0, vp = 0;
    for (int i = 0; i < len; i++) {
        if (weights[i] == base[i]) continue;
        if (tp) terms[tp++] = ',', values[vp++] = ',';
        size_t n = strlen(names[i]);
        memcpy(terms + tp, names[i], n);
        tp += n;
        vp += put_int(values + vp, weights[i]);
    }
    terms[tp] = values[vp] = '\0';
    out = insert_row(db, game, name, parent_id, how, run_id, terms, values, hash, true, id, err);
done:
    free(base);
    free(terms);
    free(values);
    return out;
}

int db_weights_insert_delta(Db *db, const char *game, const char *name, int64_t parent_id, const char *how,
                            int64_t run_id, const char *const *names, const int32_t *weights, int len, int64_t *id,
                            char err[ERR_MAX])
{
    bool own = false; /* find-or-insert in one write transaction, as above */
    int rc = tx_enter(db, &own, err);
    if (rc == 0) rc = weights_insert_delta(db, game, name, parent_id, how, run_id, names, weights, len, id, err);
    if (rc == 0 && own) rc = db_commit(db, err);
    return write_end(db, rc);
}

/* Parse "v0,v1,..." strictly into out[len] ("v*n": n >= 1 copies of v,
 * as weights_text_form writes tables); -1 with message on error. */
static int parse_weights(const Db *db, int64_t id, const char *text, int32_t *out, int len,
                         char err[ERR_MAX])
{
    const char *p = text;
    for (int i = 0; i < len;) {
        const char *start = p;
        bool neg = *p == '-';
        if (neg)
            p++;
        int64_t v = 0;
        const char *digits = p;
        while (*p >= '0' && *p <= '9' && p - digits < 11)
            v = v * 10 + (*p++ - '0');
        if (neg)
            v = -v;
        int64_t copies = 1;
        bool ok = p > digits && v >= INT32_MIN && v <= INT32_MAX;
        if (ok && *p == '*') {
            const char *c = ++p;
            copies = 0;
            while (*p >= '0' && *p <= '9' && p - c < 10)
                copies = copies * 10 + (*p++ - '0');
            ok = p > c && copies >= 1 && copies <= len - i;
        }
        ok = ok && (*p == (i + copies < len ? ',' : '\0'));
        if (!ok) {
            int n = (int)strcspn(start, ",");
            if (*p == '\0' && i + copies < len && p > digits)
                set_err(err, "%s: weight set %" PRId64 ": only %d weight values for %d names",
                        db->path, id, (int)(i + copies), len);
            else
                set_err(err,
                        "%s: weight set %" PRId64 ": weight index %d (0-based, of %d) '%.*s' is not a decimal "
                        "int32 (or more values than names)",
                        db->path, id, i, len, n > 40 ? 40 : n, start);
            return -1;
        }
        for (int64_t k = 0; k < copies; k++)
            out[i++] = (int32_t)v;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* One item of a stored names text at t (up to the next comma or the end):
 * a name, or a table "P[a..b]" (a <= b). Sets the item's length, its
 * prefix length and range (a = b = -1 for a plain name). */
static void names_item(const char *t, size_t *n, size_t *plen, long *a, long *b)
{
    *n = strcspn(t, ",");
    *a = *b = -1;
    *plen = *n;
    const char *open = memchr(t, '[', *n);
    if (!open || *n < 7 || t[*n - 1] != ']') return;
    char *end;
    long lo = strtol(open + 1, &end, 10);
    if (end == open + 1 || end[0] != '.' || end[1] != '.') return;
    char *end2;
    long hi = strtol(end + 2, &end2, 10);
    if (end2 != t + *n - 1 || lo < 0 || hi < lo) return;
    *plen = (size_t)(open - t);
    *a = lo, *b = hi;
}

/* Set the weights a delta row (weight set id) overrides: terms names them
 * in this dama's order (plain names or "P[a..b]" ranges), values holds as
 * many values. */
static int apply_delta(const Db *db, int64_t id, const char *game, const char *terms, const char *values,
                       const char *const *names, int32_t *weights, int len, char err[ERR_MAX])
{
    if (!*terms) {
        if (*values) {
            set_err(err, "%s: weight set %" PRId64 ": a delta that names no weight but has values '%.40s'",
                    db->path, id, values);
            return -1;
        }
        return 0;
    }
    int64_t count = 0;
    for (const char *c = terms;;) {
        size_t n, plen;
        long a, b;
        names_item(c, &n, &plen, &a, &b);
        count += a < 0 ? 1 : b - a + 1;
        if (!c[n]) break;
        c += n + 1;
    }
    if (count > len) {
        set_err(err, "%s: weight set %" PRId64 ": a delta of %" PRId64 " weights, but this dama's %s evaluation has %d",
                db->path, id, count, game, len);
        return -1;
    }
    int32_t *v = malloc((size_t)count * sizeof *v);
    if (!v) {
        set_err(err, "%s: loading weight set %" PRId64 ": out of memory", db->path, id);
        return -1;
    }
    int out = parse_weights(db, id, values, v, (int)count, err);
    int at = 0, k = 0; /* the next weight that may be overridden; the next value */
    for (const char *t = terms; out == 0 && *t;) {
        size_t n, plen;
        long a, b;
        names_item(t, &n, &plen, &a, &b);
        for (long j = a; out == 0 && j <= (a < 0 ? -1 : b); j++) {
            char want[96];
            if (a < 0) snprintf(want, sizeof want, "%.*s", (int)(n > 90 ? 90 : n), t);
            else snprintf(want, sizeof want, "%.*s[%ld]", (int)(plen > 60 ? 60 : plen), t, j);
            int from = at;
            while (at < len && strcmp(names[at], want) != 0) at++;
            if (at == len) {
                set_err(err,
                        "%s: weight set %" PRId64 ": its delta sets '%s', which is no weight of this dama's %s "
                        "evaluation after weight %d '%s' (terms changed?)",
                        db->path, id, want, game, from, from < len ? names[from] : "");
                out = -1;
                break;
            }
            weights[at++] = v[k++];
        }
        t += n + (t[n] == ',');
    }
    free(v);
    return out;
}

/* Load weight set id resolved (a delta row: its parent's values, resolved
 * the same way, with its own overrides) into weights; depth counts the
 * delta rows above. */
static int load_row(Db *db, int64_t id, const char *game, const char *const *names, int32_t *weights, int len,
                    int depth, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_WS_LOAD, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int out = -1;
    int32_t *tmp = NULL;
    if (rc == SQLITE_DONE) {
        set_err(err, "%s: weight set %" PRId64 " not found", db->path, id);
        goto done;
    }
    if (rc != SQLITE_ROW) {
        dbi_fail(db, rc, err, "loading weight set %" PRId64, id);
        goto done;
    }
    const char *ws_game = (const char *)sqlite3_column_text(st, 0);
    const char *terms = (const char *)sqlite3_column_text(st, 1);
    const char *values = (const char *)sqlite3_column_text(st, 2);
    if (!ws_game || !terms || !values) {
        set_err(err, "%s: weight set %" PRId64 ": game, terms or weights is NULL", db->path, id);
        goto done;
    }
    if (game && strcmp(ws_game, game) != 0) {
        set_err(err, "%s: weight set %" PRId64 " is for game '%s', not '%s'", db->path, id, ws_game,
                game);
        goto done;
    }
    if (sqlite3_column_int(st, 3)) {
        /* A delta row: the statement is done with before the parent is read
         * (the same cached statement reads it). */
        int64_t parent = sqlite3_column_type(st, 4) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 4);
        char *g = dup_str(ws_game), *dt = dup_str(terms), *dv = dup_str(values);
        stmt_done(st);
        tmp = malloc((size_t)len * sizeof *tmp);
        if (!g || !dt || !dv || !tmp)
            set_err(err, "%s: loading weight set %" PRId64 ": out of memory", db->path, id);
        else if (!parent)
            set_err(err, "%s: weight set %" PRId64 " is a delta without a parent", db->path, id);
        else if (depth >= DELTA_DEPTH_MAX)
            set_err(err, "%s: weight set %" PRId64 ": a chain of more than %d deltas (a cycle?)", db->path, id,
                    DELTA_DEPTH_MAX);
        else if (load_parent(db, parent, g, names, tmp, len, depth + 1, err) == 0 &&
                 apply_delta(db, id, g, dt, dv, names, tmp, len, err) == 0) {
            memcpy(weights, tmp, (size_t)len * sizeof *tmp);
            out = 0;
        }
        free(g);
        free(dt);
        free(dv);
        free(tmp);
        return out;
    }
    int64_t stored = 0;
    for (const char *c = terms;;) {
        size_t n, plen;
        long a, b;
        names_item(c, &n, &plen, &a, &b);
        stored += a < 0 ? 1 : b - a + 1;
        if (!c[n]) break;
        c += n + 1;
    }
    if (stored != len) {
        set_err(err,
                "%s: weight set %" PRId64 " has %" PRId64 " weights, but this dama's %s evaluation has %d "
                "(terms changed?)",
                db->path, id, stored, ws_game, len);
        goto done;
    }
    const char *t = terms;
    for (int i = 0; i < len;) {
        size_t n, plen;
        long a, b;
        names_item(t, &n, &plen, &a, &b);
        if (a < 0) {
            if (strlen(names[i]) != n || memcmp(t, names[i], n) != 0) {
                set_err(err,
                        "%s: weight set %" PRId64 ": weight %d is '%.*s' in the database but '%s' in "
                        "this dama",
                        db->path, id, i, (int)(n > 60 ? 60 : n), t, names[i]);
                goto done;
            }
            i++;
        } else {
            for (long j = a; j <= b; j++, i++) {
                char want[96];
                snprintf(want, sizeof want, "%.*s[%ld]", (int)(plen > 60 ? 60 : plen), t, j);
                if (strcmp(want, names[i]) != 0) {
                    set_err(err,
                            "%s: weight set %" PRId64 ": weight %d is '%s' in the database but '%s' in "
                            "this dama",
                            db->path, id, i, want, names[i]);
                    goto done;
                }
            }
        }
        t += n + (t[n] == ',');
    }
    tmp = malloc((size_t)len * sizeof *tmp);
    if (!tmp) {
        set_err(err, "%s: loading weight set %" PRId64 ": out of memory", db->path, id);
        goto done;
    }
    if (parse_weights(db, id, values, tmp, len, err) != 0)
        goto done;
    memcpy(weights, tmp, (size_t)len * sizeof *tmp);
    out = 0;
done:
    free(tmp);
    stmt_done(st);
    return out;
}


int db_weights_load(Db *db, int64_t id, const char *game, const char *const *names,
                    int32_t *weights, int len, char err[ERR_MAX])
{
    if (len <= 0) {
        set_err(err, "loading weight set %" PRId64 ": no weights expected", id);
        return -1;
    }
    return load_row(db, id, game, names, weights, len, 0, err);
}

/* ---- weight set look-ups ---------------------------------------------------- */

int db_weights_info(Db *db, int64_t id, DbWeightsInfo *info, char err[ERR_MAX])
{
    memset(info, 0, sizeof *info);
    static const char sql[] =
        "SELECT w.game, w.name, w.how, w.created, w.parent_id, w.run_id, t.k, t.valid_loss, "
        "t.positions_train + t.positions_valid FROM weight_sets w "
        "LEFT JOIN tuning_runs t ON t.result_ws = w.id WHERE w.id = ?1 ORDER BY t.id DESC LIMIT 1";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 1, id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int out = 0;
    if (rc == SQLITE_ROW) {
        char **fields[] = {&info->game, &info->name, &info->how, &info->created};
        for (int i = 0; i < 4; i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            if (t && !(*fields[i] = dup_str((const char *)t))) {
                set_err(err, "%s: reading weight set %" PRId64 ": out of memory", db->path, id);
                out = -1;
            }
        }
        info->id = id;
        info->parent_id = sqlite3_column_int64(st, 4);
        info->run_id = sqlite3_column_int64(st, 5);
        info->tuned = sqlite3_column_type(st, 6) != SQLITE_NULL;
        info->k = sqlite3_column_double(st, 6);
        info->valid_loss = sqlite3_column_type(st, 7) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 7);
        info->positions = sqlite3_column_int64(st, 8);
    } else if (rc == SQLITE_DONE) {
        set_err(err, "%s: weight set %" PRId64 " not found", db->path, id);
        out = -1;
    } else {
        dbi_fail(db, rc, err, "reading weight set %" PRId64, id);
        out = -1;
    }
    sqlite3_finalize(st);
    if (out != 0)
        db_weights_info_clear(info);
    return out;
}

void db_weights_info_clear(DbWeightsInfo *info)
{
    if (!info)
        return;
    free(info->game);
    free(info->name);
    free(info->how);
    free(info->created);
    memset(info, 0, sizeof *info);
}

int db_weights_by_run(Db *db, int64_t run_id, int64_t *ids, int max, int *len, char err[ERR_MAX])
{
    *len = 0;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "SELECT ws_id FROM run_weight_sets WHERE run_id = ?1 ORDER BY member", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 1, run_id);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*len < max)
            ids[(*len)++] = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the weight sets of run %" PRId64, run_id);
        return -1;
    }
    return 0;
}

int db_weights_newest(Db *db, const char *game, const char *how_prefix, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h,
                                "SELECT id FROM weight_sets WHERE game = ?1 AND substr(how, 1, length(?2)) = ?2 "
                                "ORDER BY id DESC LIMIT 1",
                                -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 2, how_prefix, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "looking up weight sets");
        return -1;
    }
    return 0;
}

int db_weights_find_hash(Db *db, const char *game, const char *hash, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "SELECT id FROM weight_sets WHERE game = ?1 AND hash = ?2 ORDER BY id LIMIT 1",
                                -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "looking up weight set %.20s", hash);
        return -1;
    }
    return 0;
}
