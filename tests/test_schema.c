/* test_schema.c — the database schema in one piece: a database made from
 * the version-1 schema (db/migrations/001_initial.sql) and upgraded by dama
 * through every migration step equals one that dama makes new from
 * db/schema.sql, whichever version it starts from; the steps on disk are
 * numbered 001 to DB_SCHEMA_VERSION without a gap; schema.sql alone (as
 * `sqlite3 FILE < db/schema.sql` applies it) makes a current dama database.
 *
 * "Equal" compares what SQLite keeps of a schema, normalized: every table,
 * index, trigger and view by name; each table's statement without comments,
 * spacing, identifier quotes or keyword case, its column definitions and
 * constraints as a set (ALTER TABLE ADD COLUMN splices a column into the
 * stored text after the older ones, schema.sql writes it in place); the
 * columns in order (pragma table_xinfo: name, type, NOT NULL, default,
 * primary key); foreign keys; indexes with their columns; user_version and
 * application_id. Databases live in temporary files under /tmp.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, open_memstream, opendir */

#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "db_files.h"
#include "db/db.h"

#define MIGRATIONS_DIR DAMA_SOURCE_DIR "/db/migrations"

/* ---- files and raw connections ---------------------------------------------- */

typedef struct TempDb {
    char path[64];
} TempDb;

static void temp_make(TempDb *t)
{
    snprintf(t->path, sizeof t->path, "/tmp/dama_test_schema_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
    unlink(t->path);
}

static void temp_remove(const TempDb *t) { db_files_remove(t->path); }

/* The whole file (NUL-terminated; free it). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    assert_true(len >= 0);
    rewind(f);
    char *s = malloc((size_t)len + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
    s[len] = '\0';
    fclose(f);
    return s;
}

/* Migration step 3 calls dama_weights_hash, which dama registers on its
 * connections; the raw ones here build empty tables, so a stub does. */
static void stub_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    sqlite3_result_null(ctx);
}

static sqlite3 *raw_open(const char *path)
{
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_create_function_v2(h, "dama_weights_hash", 3, SQLITE_UTF8, NULL, stub_hash, NULL, NULL,
                                                NULL),
                     SQLITE_OK);
    return h;
}

static void raw_exec(sqlite3 *h, const char *sql, const char *what)
{
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("%s: %s", what, msg ? msg : "?");
    sqlite3_free(msg);
}

static int64_t raw_int(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* ---- the migration files ---------------------------------------------------- */

enum { STEPS_MAX = 100 };

/* The paths of db/migrations/NNN_*.sql by step: steps[n] is step n (NULL
 * where none). Fails on a name that does not fit or a step given twice. */
static void migration_files(char *steps[STEPS_MAX])
{
    memset(steps, 0, sizeof(char *) * STEPS_MAX);
    DIR *d = opendir(MIGRATIONS_DIR);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        if (n[0] == '.') continue;
        if (len < 9 || !isdigit((unsigned char)n[0]) || !isdigit((unsigned char)n[1]) ||
            !isdigit((unsigned char)n[2]) || n[3] != '_' || strcmp(n + len - 4, ".sql") != 0)
            fail_msg("db/migrations/%s: not NNN_what.sql", n);
        int step = (n[0] - '0') * 100 + (n[1] - '0') * 10 + (n[2] - '0');
        assert_true(step > 0 && step < STEPS_MAX);
        if (steps[step]) fail_msg("db/migrations: two files for step %d (%s)", step, n);
        size_t size = sizeof MIGRATIONS_DIR + len + 1;
        steps[step] = malloc(size);
        assert_non_null(steps[step]);
        snprintf(steps[step], size, "%s/%s", MIGRATIONS_DIR, n);
    }
    closedir(d);
}

static void migration_files_free(char *steps[STEPS_MAX])
{
    for (int i = 0; i < STEPS_MAX; i++) free(steps[i]);
}

/* A database at schema version `version` as dama would have left it: the
 * version-1 schema and steps 2..version run raw, each setting its version. */
static void make_old(const char *path, int version)
{
    char *steps[STEPS_MAX];
    migration_files(steps);
    sqlite3 *h = raw_open(path);
    for (int v = 1; v <= version; v++) {
        assert_non_null(steps[v]);
        char *sql = read_text(steps[v]);
        raw_exec(h, sql, steps[v]);
        free(sql);
        char pragmas[96];
        snprintf(pragmas, sizeof pragmas, "PRAGMA user_version = %d; PRAGMA application_id = %d", v,
                 DB_APPLICATION_ID);
        raw_exec(h, pragmas, "setting the version");
    }
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
    migration_files_free(steps);
}

/* dama opens path for writing (creating it or migrating it) and closes it. */
static void dama_open(const char *path, bool create)
{
    Db *db = NULL;
    char err[ERR_MAX] = "";
    if (db_open(path, create, &db, err) != 0) fail_msg("db_open %s: %s", path, err);
    db_close(db);
}

/* ---- the normalized schema -------------------------------------------------- */

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* sql without comments, keyword case, identifier quotes ("x", `x`, [x]) or
 * spacing (a space only between two words: "CHECK (a > 0)" and "check(a>0)"
 * are the same); text in '...' kept as it is. */
static char *normalize(const char *sql)
{
    size_t n = 0;
    char *out = malloc(strlen(sql) + 1);
    assert_non_null(out);
    bool space = false;
    for (const char *c = sql; *c;) {
        if (c[0] == '-' && c[1] == '-') {
            while (*c && *c != '\n') c++;
            space = true;
        } else if (c[0] == '/' && c[1] == '*') {
            const char *end = strstr(c + 2, "*/");
            c = end ? end + 2 : c + strlen(c);
            space = true;
        } else if (isspace((unsigned char)*c)) {
            c++;
            space = true;
        } else if (strchr("\"`[]", *c)) {
            c++; /* an identifier's quotes */
        } else if (*c == '\'') {
            space = false;
            out[n++] = *c++;
            while (*c) { /* to the closing quote; '' is a quote inside */
                if (*c == '\'' && c[1] != '\'') break;
                if (*c == '\'') out[n++] = *c++;
                out[n++] = *c++;
            }
            if (*c) out[n++] = *c++;
        } else {
            if (space && n > 0 && word_char(out[n - 1]) && word_char(*c)) out[n++] = ' ';
            space = false;
            out[n++] = (char)tolower((unsigned char)*c++);
        }
    }
    out[n] = '\0';
    return out;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A normalized CREATE TABLE with its column definitions and constraints
 * (the comma-separated items at the outer level of its parentheses) sorted,
 * one a line. */
static void table_sql(FILE *out, const char *sql)
{
    char *s = normalize(sql);
    char *open = strchr(s, '('), *close = strrchr(s, ')');
    assert_true(open && close && close > open);
    *open = *close = '\0';
    char *items[512];
    int len = 0, depth = 0;
    char *start = open + 1;
    for (char *c = open + 1;; c++) {
        if (*c == '\'') { /* a literal: skip to its end (normalize kept it whole) */
            for (c++; *c && *c != '\''; c++) {}
            continue;
        }
        if (*c == '(') depth++;
        else if (*c == ')') depth--;
        if (*c == '\0' || (*c == ',' && depth == 0)) {
            bool end = *c == '\0';
            *c = '\0';
            assert_true(len < 512);
            items[len++] = start;
            start = c + 1;
            if (end) break;
        }
    }
    qsort(items, (size_t)len, sizeof items[0], cmp_str);
    fprintf(out, "  %s(...)%s\n", s, close + 1);
    for (int i = 0; i < len; i++) fprintf(out, "    %s\n", items[i]);
    free(s);
}

/* Print every row of sql (?1 = name, ?2 = tbl) as one line after prefix. */
static void rows(FILE *out, sqlite3 *h, const char *prefix, const char *sql, const char *name, const char *tbl)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC), SQLITE_OK);
    if (sqlite3_bind_parameter_count(st) > 1)
        assert_int_equal(sqlite3_bind_text(st, 2, tbl, -1, SQLITE_STATIC), SQLITE_OK);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        fprintf(out, "  %s", prefix);
        for (int k = 0; k < sqlite3_column_count(st); k++) {
            const unsigned char *t = sqlite3_column_text(st, k);
            fprintf(out, " %s", t ? (const char *)t : "NULL");
        }
        fputc('\n', out);
    }
    assert_int_equal(rc, SQLITE_DONE);
    sqlite3_finalize(st);
}

/* Every object of the database at path, normalized, as text (free it). */
static char *schema_dump(const char *path)
{
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    fprintf(out, "application_id %lld\nuser_version %lld\n", (long long)raw_int(h, "PRAGMA application_id"),
            (long long)raw_int(h, "PRAGMA user_version"));
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name",
                                        -1, &st, NULL),
                     SQLITE_OK);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *tbl = (const char *)sqlite3_column_text(st, 2);
        const char *sql = (const char *)sqlite3_column_text(st, 3);
        fprintf(out, "%s %s on %s\n", type, name, tbl);
        if (strcmp(type, "table") == 0) {
            table_sql(out, sql);
            rows(out, h, "column",
                 "SELECT cid, name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?1) ORDER BY cid",
                 name, tbl);
            rows(out, h, "foreign key",
                 "SELECT \"from\", \"table\", \"to\", on_update, on_delete, \"match\" FROM pragma_foreign_key_list(?1) "
                 "ORDER BY 1, 2, 3",
                 name, tbl);
        } else if (sql) {
            char *s = normalize(sql);
            fprintf(out, "  %s\n", s);
            free(s);
        }
        if (strcmp(type, "index") == 0) {
            rows(out, h, "index column",
                 "SELECT seqno, cid, name, \"desc\", coll, \"key\" FROM pragma_index_xinfo(?1) ORDER BY seqno", name,
                 tbl);
            rows(out, h, "index", "SELECT \"unique\", origin, partial FROM pragma_index_list(?2) WHERE name = ?1", name,
                 tbl);
        }
    }
    assert_int_equal(rc, SQLITE_DONE);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
    fclose(out);
    return text;
}

/* Fail, showing the first line that differs, when the dumps differ. */
static void assert_same_schema(const char *got, const char *want, const char *what)
{
    if (strcmp(got, want) == 0) return;
    const char *g = got, *w = want;
    int line = 1;
    while (*g && *g == *w) {
        if (*g == '\n') line++;
        g++, w++;
    }
    while (g > got && g[-1] != '\n') g--, w--;
    fprintf(stderr, "%s: schemas differ at line %d\n  got:  %.*s\n  want: %.*s\n", what, line,
            (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
    fail_msg("%s: the schemas differ (above)", what);
}

/* ---- tests ------------------------------------------------------------------ */

/* The steps on disk: 001 to DB_SCHEMA_VERSION, one each, none beyond. */
static void test_steps_numbered(void **state)
{
    (void)state;
    char *steps[STEPS_MAX];
    migration_files(steps);
    for (int v = 1; v < STEPS_MAX; v++) {
        if (v <= DB_SCHEMA_VERSION && !steps[v]) fail_msg("db/migrations: no file for step %03d", v);
        if (v > DB_SCHEMA_VERSION && steps[v])
            fail_msg("db/migrations: step %d is beyond DB_SCHEMA_VERSION %d", v, DB_SCHEMA_VERSION);
    }
    migration_files_free(steps);
}

/* schema.sql run by sqlite3 alone: a current dama database, the same as
 * one dama makes. */
static void test_schema_file_alone(void **state)
{
    (void)state;
    TempDb a, b;
    temp_make(&a);
    temp_make(&b);
    char *sql = read_text(DAMA_SOURCE_DIR "/db/schema.sql");
    sqlite3 *h = raw_open(a.path);
    raw_exec(h, sql, "db/schema.sql");
    assert_int_equal(raw_int(h, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    assert_int_equal(raw_int(h, "PRAGMA application_id"), DB_APPLICATION_ID);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
    free(sql);
    dama_open(a.path, false); /* dama takes it as current: nothing to migrate */
    dama_open(b.path, true);
    char *got = schema_dump(a.path), *want = schema_dump(b.path);
    assert_same_schema(got, want, "schema.sql run by sqlite3");
    free(got), free(want);
    temp_remove(&a);
    temp_remove(&b);
}

/* A database of every older version, upgraded by dama, equals a new one. */
static void test_every_version_upgrades_to_schema(void **state)
{
    (void)state;
    TempDb fresh;
    temp_make(&fresh);
    dama_open(fresh.path, true);
    char *want = schema_dump(fresh.path);
    assert_non_null(strstr(want, "table generations on generations")); /* the dump sees the tables */
    for (int v = 1; v < DB_SCHEMA_VERSION; v++) {
        TempDb old;
        temp_make(&old);
        make_old(old.path, v);
        dama_open(old.path, false);
        char *got = schema_dump(old.path);
        char what[64];
        snprintf(what, sizeof what, "upgraded from version %d", v);
        assert_same_schema(got, want, what);
        free(got);
        temp_remove(&old);
    }
    free(want);
    temp_remove(&fresh);
}

/* The comparison sees what it must: a column added, a CHECK changed, a
 * column's place, an index dropped; not comments, spacing or quotes. */
static void test_dump_tells_differences(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b;
        bool same;
    } cases[] = {
        {"CREATE TABLE t(a INTEGER CHECK (a > 0), b TEXT)", "CREATE TABLE t (\n  a INTEGER CHECK(a>0), -- x\n  b TEXT)",
         true},
        {"CREATE TABLE t(a INTEGER CHECK (a > 0), b TEXT)",
         "CREATE TABLE \"t\" (\n  a   integer check (a > 0), -- x\n  b TEXT /* y */)", true},
        {"CREATE TABLE t(a INTEGER CHECK (a > 0), b TEXT)", "CREATE TABLE t(a INTEGER CHECK (a > 1), b TEXT)", false},
        {"CREATE TABLE t(a INTEGER, b TEXT)", "CREATE TABLE t(b TEXT, a INTEGER)", false},
        {"CREATE TABLE t(a INTEGER, b TEXT)", "CREATE TABLE t(a INTEGER, b TEXT, c TEXT)", false},
        {"CREATE TABLE t(a, UNIQUE (a)); CREATE INDEX t_a ON t(a)", "CREATE TABLE t(a, UNIQUE (a))", false},
        {"CREATE TABLE t(a TEXT DEFAULT 'x y')", "CREATE TABLE t(a TEXT DEFAULT 'x  y')", false},
        {"CREATE TABLE t(a TEXT DEFAULT 'A')", "CREATE TABLE t(a TEXT DEFAULT 'a')", false},
        {"CREATE TABLE t(a TEXT); ALTER TABLE t ADD COLUMN b INTEGER", "CREATE TABLE t(a TEXT, b INTEGER)", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TempDb a, b;
        temp_make(&a);
        temp_make(&b);
        sqlite3 *h = raw_open(a.path);
        raw_exec(h, cases[i].a, cases[i].a);
        sqlite3_close(h);
        h = raw_open(b.path);
        raw_exec(h, cases[i].b, cases[i].b);
        sqlite3_close(h);
        char *da = schema_dump(a.path), *db = schema_dump(b.path);
        if ((strcmp(da, db) == 0) != cases[i].same)
            fail_msg("case %zu: expected %s:\n%s\n---\n%s", i, cases[i].same ? "same" : "different", da, db);
        free(da), free(db);
        temp_remove(&a);
        temp_remove(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_numbered),
        cmocka_unit_test(test_schema_file_alone),
        cmocka_unit_test(test_every_version_upgrades_to_schema),
        cmocka_unit_test(test_dump_tells_differences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
