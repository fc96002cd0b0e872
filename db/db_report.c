/* db_report.c — reading any table for `dama report`: one read-only query
 * walker over the open connection, and schema probes for databases of older
 * versions; see db.h. */
#include "db/db.h"

#include "db/db_internal.h"

struct DbRow {
    sqlite3_stmt *st;
};

int db_query_each(Db *db, const char *sql, const DbParam *params, int len, int (*fn)(void *ctx, const DbRow *row),
                  void *ctx, char err[ERR_MAX])
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "preparing \"%.60s\"", sql);
        return -1;
    }
    if (!sqlite3_stmt_readonly(st)) {
        sqlite3_finalize(st);
        set_err(err, "%s: \"%.60s\" would write: refused", db->path, sql);
        return -1;
    }
    int used = sqlite3_bind_parameter_count(st); /* parameters the query does not name are not bound */
    for (int i = 0; i < len && i < used && rc == SQLITE_OK; i++)
        rc = !params[i].is_text ? sqlite3_bind_int64(st, i + 1, params[i].i)
             : params[i].text   ? sqlite3_bind_text(st, i + 1, params[i].text, -1, SQLITE_STATIC)
                                : sqlite3_bind_null(st, i + 1);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "binding \"%.60s\"", sql);
        sqlite3_finalize(st);
        return -1;
    }
    DbRow row = {st};
    int out = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if ((out = fn(ctx, &row)) != 0) break;
    if (out == 0 && rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading \"%.60s\"", sql);
        out = -1;
    }
    sqlite3_finalize(st);
    return out;
}

int64_t db_row_int(const DbRow *row, int col)
{
    return sqlite3_column_int64(row->st, col);
}

double db_row_real(const DbRow *row, int col)
{
    return sqlite3_column_type(row->st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(row->st, col);
}

const char *db_row_text(const DbRow *row, int col)
{
    return (const char *)sqlite3_column_text(row->st, col);
}

bool db_row_null(const DbRow *row, int col)
{
    return sqlite3_column_type(row->st, col) == SQLITE_NULL;
}

int db_has_column(Db *db, const char *table, const char *column, bool *exists, char err[ERR_MAX])
{
    *exists = false;
    sqlite3_stmt *st = NULL;
    const char *sql = column ? "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2"
                             : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1";
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && column) rc = sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        dbi_fail(db, rc, err, "looking for %s%s%s", table, column ? "." : "", column ? column : "");
        sqlite3_finalize(st);
        return -1;
    }
    *exists = sqlite3_column_int64(st, 0) > 0;
    sqlite3_finalize(st);
    return 0;
}

int db_schema_version(Db *db, int64_t *version, char err[ERR_MAX])
{
    return dbi_query_int(db, "PRAGMA user_version", version, err);
}
