/* weight_sets.c — naming a weight set on the command line ("default",
 * "db:ID", "tuned", a weight file) and making sure it is stored
 * (contracts in tune/weight_sets.h). */
#include "db/weight_sets.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "engine/eval.h"
#include "engine/weights_file.h"
#include "util/num.h"

static bool all_digits(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

int weights_resolve(const Game *g, const char *spec, int32_t *w, char err[ERR_MAX])
{
    return weights_resolve_db(g, spec, NULL, w, NULL, err);
}

const char **weight_names_new(const Game *g)
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


static int resolve_spec(const Game *g, const char *spec, Db *db, const char *base_db, int32_t *w, int64_t *id,
                        char err[ERR_MAX]);

/* A weight file, its left-out terms from its base: a "db:ID" base from db,
 * or when db is NULL from the database at base_db (opened read-only for it
 * alone, so that a file without such a base never opens one; the file is
 * parsed once). */
static int resolve_file(const Game *g, const char *path, Db *db, const char *base_db, int32_t *w, char err[ERR_MAX])
{
    EVAL_AUTO_FREE uint8_t *given = calloc((size_t)g->weights_len, 1);
    char base[WEIGHTS_BASE_MAX];
    EVAL_AUTO_FREE int32_t *v = eval_weights_new(g);
    if (!given || !v) {
        snprintf(err, ERR_MAX, "weight file %.100s: out of memory for %d weights", path, g->weights_len);
        return -1;
    }
    if (weights_file_parse(g, path, v, given, base, err) != 0) return -1;
    if (strncmp(base, "db:", 3) == 0) {
        char berr[ERR_MAX];
        Db *own = NULL;
        int rc = !db && base_db ? db_open_readonly(base_db, &own, berr) : 0;
        if (rc == 0) rc = resolve_spec(g, base, db ? db : own, NULL, w, NULL, berr);
        db_close(own);
        if (rc != 0) {
            snprintf(err, ERR_MAX, "weight file %.60s: base \"%.31s\": %.120s", path, base, berr);
            return -1;
        }
    } else {
        memcpy(w, g->weights_default(), sizeof(int32_t) * (size_t)g->weights_len);
    }
    for (int i = 0; i < g->weights_len; i++)
        if (given[i]) w[i] = v[i];
    return 0;
}

bool weights_spec_needs_db(const char *spec)
{
    if (!spec) return false;
    const char *num = strncmp(spec, "db:", 3) == 0 ? spec + 3 : spec;
    return all_digits(num) || strcmp(spec, "tuned") == 0 || strncmp(spec, "db:", 3) == 0 ||
           strcmp(spec, "best") == 0 || strncmp(spec, "train:", 6) == 0;
}

bool weights_spec_uses_db(const Game *g, const char *spec)
{
    if (weights_spec_needs_db(spec)) return true;
    if (!spec || strcmp(spec, "default") == 0 || strcmp(spec, "compiled-in") == 0) return false;
    EVAL_AUTO_FREE uint8_t *given = calloc((size_t)g->weights_len, 1);
    char base[WEIGHTS_BASE_MAX], err[ERR_MAX];
    EVAL_AUTO_FREE int32_t *v = eval_weights_new(g);
    return given && v && weights_file_parse(g, spec, v, given, base, err) == 0 && strncmp(base, "db:", 3) == 0;
}

/* The id of spec, one weights_spec_needs_db takes, that has one ("db:ID",
 * "ID", "train:ID"): *id (0 for the others). Returns 0, or -1 with err. */
static int spec_id(const char *spec, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    const char *what = "weight set id", *num = spec;
    if (strncmp(spec, "train:", 6) == 0) what = "train id", num = spec + 6;
    else if (strncmp(spec, "db:", 3) == 0) num = spec + 3;
    else if (!all_digits(spec)) return 0; /* "tuned", "best" */
    NumStatus st = num_parse_int(num, 1, INT64_MAX, id);
    if (st == NUM_OK) return 0;
    num_format_error(err, ERR_MAX, what, num, strlen(num), st, 1, 9.2e18, 0);
    return -1;
}

int weights_spec_check(const char *spec, char err[ERR_MAX])
{
    int64_t id;
    if (spec && !spec[strspn(spec, " \t")]) {
        snprintf(err, ERR_MAX, "an empty weight set (default, tuned, best, db:ID, train:ID or a weight file)");
        return -1;
    }
    return weights_spec_needs_db(spec) ? spec_id(spec, &id, err) : 0;
}

/* The weights of spec: the compiled-in ones, a weight file (resolve_file;
 * a "db:ID" base from db, else from the database at base_db when given), or a weight set of
 * db. */
static int resolve_spec(const Game *g, const char *spec, Db *db, const char *base_db, int32_t *w, int64_t *id,
                        char err[ERR_MAX])
{
    if (id) *id = 0;
    if (!spec || strcmp(spec, "default") == 0 || strcmp(spec, "compiled-in") == 0) {
        memcpy(w, g->weights_default(), sizeof(int32_t) * (size_t)g->weights_len);
        return 0;
    }
    if (!weights_spec_needs_db(spec)) return resolve_file(g, spec, db, base_db, w, err);
    if (!db) {
        snprintf(err, ERR_MAX, "weights '%.60s' need a database (--db)", spec);
        return -1;
    }
    int64_t wid = 0;
    if (strcmp(spec, "tuned") == 0) {
        if (db_weights_newest(db, g->name, "tuned", &wid, err) != 0) return -1;
        if (!wid) {
            snprintf(err, ERR_MAX, "no tuned %s weight set in %.100s (tune stores one only when it betters its start; or name another set: default, a weight file or db:ID)", g->name, db_path(db));
            return -1;
        }
    } else if (strcmp(spec, "best") == 0 || strncmp(spec, "train:", 6) == 0) {
        /* the best accepted generation of a train (dama train) */
        int64_t train = 0;
        if (spec[0] == 't' && spec_id(spec, &train, err) != 0) return -1;
        int generation = 0;
        int64_t found = 0;
        if (db_train_best(db, g->name, train, &wid, &generation, &found, err) != 0) return -1;
    } else if (spec_id(spec, &wid, err) != 0) {
        return -1;
    }
    const char **names = weight_names_new(g);
    if (!names) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    int rc = db_weights_load(db, wid, g->name, names, w, g->weights_len, err);
    free(names);
    if (rc == 0 && id) *id = wid;
    return rc;
}

int weights_uncomputed(const Game *g, const int32_t *w, char groups[ERR_MAX])
{
    groups[0] = 0;
    if (!g->term_computed) return 0;
    int n = 0;
    size_t len = 0;
    for (int k = 0; k < g->terms_len; k++) {
        const EvalTerm *t = &g->terms[k];
        if (t->offset >= g->eg_offset || g->term_computed(k)) continue; /* a group and its endgame twin together */
        int set = !w; /* no weights: the group itself counts */
        for (int j = 0; w && j < t->count; j++) set += (w[t->offset + j] != 0) + (w[t->offset + g->eg_offset + j] != 0);
        if (!set) continue;
        n += set;
        int m = snprintf(groups + len, ERR_MAX - len, "%s%s", len ? ", " : "", t->name);
        if (m > 0) len = len + (size_t)m < ERR_MAX ? len + (size_t)m : ERR_MAX - 1;
    }
    return n;
}

/* weights_resolve_db, with resolve_spec's base_db. */
static int resolve_and_warn(const Game *g, const char *spec, Db *db, const char *base_db, int32_t *w, int64_t *id,
                            char err[ERR_MAX])
{
    if (resolve_spec(g, spec, db, base_db, w, id, err) != 0) return -1;
    char groups[ERR_MAX];
    const int n = weights_uncomputed(g, w, groups);
    /* once a thread for the same weights (a Hub engine resolves them again
     * at every init and option change; a tournament, a train each of its
     * sets): the last few game-and-spec keys warned of */
    enum { WARNED = 16 };
    static _Thread_local char warned[WARNED][256];
    static _Thread_local int warned_next;
    char key[sizeof warned[0]];
    snprintf(key, sizeof key, "%s %s", g->name, spec ? spec : "default");
    bool seen = false;
    for (int i = 0; i < WARNED && !seen; i++) seen = strcmp(warned[i], key) == 0;
    if (n > 0 && !seen) {
        memcpy(warned[warned_next], key, sizeof key);
        warned_next = (warned_next + 1) % WARNED;
        fprintf(stderr,
                "dama: warning: weights '%.200s': %d weight%s not 0 in %s (either phase), which this build's %s evaluation "
                "does not compute (they add nothing; %s: %s)\n",
                spec ? spec : "default", n, n == 1 ? "" : "s", groups, g->name, g->title,
                g->terms_build_option ? g->terms_build_option : "the build's options");
    }
    return 0;
}

int weights_resolve_db(const Game *g, const char *spec, Db *db, int32_t *w, int64_t *id, char err[ERR_MAX])
{
    return resolve_and_warn(g, spec, db, NULL, w, id, err);
}

int weights_resolve_path(const Game *g, const char *spec, const char *db_path, int32_t *w, int64_t *id,
                         char err[ERR_MAX])
{
    /* a weight file opens the database only for a "db:ID" base (resolve_file) */
    if (!weights_spec_needs_db(spec)) return resolve_and_warn(g, spec, NULL, db_path, w, id, err);
    Db *db = NULL;
    if (db_open_readonly(db_path, &db, err) != 0) return -1;
    int rc = resolve_and_warn(g, spec, db, NULL, w, id, err);
    db_close(db);
    return rc;
}

int weights_check_path(const Game *g, const char *spec, const char *db_path, char err[ERR_MAX])
{
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(g);
    if (!w) return err_set(err, "out of memory for %d weights", g->weights_len);
    return weights_resolve_path(g, spec, db_path, w, NULL, err);
}

int weights_store_base(Db *db, const Game *g, const char *spec, const int32_t *w, const char **names, int64_t run_id,
                   int64_t *id, char err[ERR_MAX])
{
    int64_t wid = 0;
    if (weights_spec_needs_db(spec)) {
        /* only the id is wanted, but resolving checks the set (any size) */
        EVAL_AUTO_FREE int32_t *tmp = eval_weights_new(g);
        if (!tmp) {
            snprintf(err, ERR_MAX, "out of memory for %d weights", g->weights_len);
            return -1;
        }
        if (resolve_spec(g, spec, db, NULL, tmp, &wid, err) != 0) return -1;
        *id = wid;
        return 0;
    }
    bool builtin = !spec || strcmp(spec, "default") == 0 || strcmp(spec, "compiled-in") == 0;
    char how[600];
    snprintf(how, sizeof how, builtin ? "compiled-in" : "file %.500s", spec);
    return db_weights_insert(db, g->name, builtin ? "compiled-in" : "from-file", 0, how, run_id, names, w,
                             g->weights_len, id, err);
}
