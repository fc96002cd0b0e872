/* db_provenance.c — where a weight set came from (runs, tuning_runs,
 * matches), for `dama export`. Read-only. */
#include "db/db_internal.h"

#include <inttypes.h>
#include <math.h>

static int dup_col(sqlite3_stmt *st, int col, char **out)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    if (!t) return 0;
    *out = strdup((const char *)t);
    return *out ? 0 : -1;
}

/* Run one query with ?1 = id; on a row call fill. 0 (row or none) or -1. */
static int query(Db *db, const char *sql, int64_t id, DbProvenance *p, int (*fill)(sqlite3_stmt *, DbProvenance *),
                 char err[ERR_MAX], const char *what)
{
    sqlite3_stmt *st = dbi_stmt(db, sql, err);
    if (!st) return -1;
    int rc = sqlite3_bind_int64(st, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    int out = 0;
    if (rc == SQLITE_ROW) {
        if (fill(st, p) != 0) {
            set_err(err, "%s: reading the %s of weight set %" PRId64 ": out of memory", db->path, what, id);
            out = -1;
        }
    } else if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the %s of weight set %" PRId64, what, id);
        out = -1;
    }
    sqlite3_reset(st);
    return out;
}

static int fill_run(sqlite3_stmt *st, DbProvenance *p)
{
    p->run_id = sqlite3_column_int64(st, 0);
    return dup_col(st, 1, &p->run_kind) | dup_col(st, 2, &p->run_created) | dup_col(st, 3, &p->run_status);
}

/* A REAL column, NULL as NaN (written as null, not 0). */
static double real_or_nan(sqlite3_stmt *st, int col)
{
    return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

static int fill_tuning(sqlite3_stmt *st, DbProvenance *p)
{
    p->tuning_run_id = sqlite3_column_int64(st, 0);
    p->k = sqlite3_column_double(st, 1);
    p->train_loss = sqlite3_column_double(st, 2);
    /* NULL (an empty hold-out has no loss): NaN, written as null, not 0 */
    p->valid_loss = real_or_nan(st, 3);
    p->positions_train = sqlite3_column_int64(st, 4);
    p->positions_valid = sqlite3_column_int64(st, 5);
    return dup_col(st, 6, &p->tuning_data);
}

static int fill_match(sqlite3_stmt *st, DbProvenance *p)
{
    p->match_id = sqlite3_column_int64(st, 0);
    p->match_opponent = sqlite3_column_int64(st, 1);
    p->games = sqlite3_column_int64(st, 2);
    p->wins = sqlite3_column_int64(st, 3);
    p->draws = sqlite3_column_int64(st, 4);
    p->losses = sqlite3_column_int64(st, 5);
    /* NULL (no interval where none could be estimated: arena/match.h): NaN, written as null, not 0 */
    p->elo = real_or_nan(st, 6);
    p->elo_lo = real_or_nan(st, 7);
    p->elo_hi = real_or_nan(st, 8);
    p->llr = real_or_nan(st, 9);
    return 0;
}

static const char SQL_RUN[] = "SELECT r.id, r.kind, r.created, r.status FROM weight_sets w JOIN runs r ON r.id = w.run_id "
                              "WHERE w.id = ?1";
static const char SQL_TUNING[] = "SELECT id, k, train_loss, valid_loss, positions_train, positions_valid, data "
                                 "FROM tuning_runs WHERE result_ws = ?1 ORDER BY id DESC LIMIT 1";
static const char SQL_MATCH[] = "SELECT id, ws_b, games, wins, draws, losses, elo, elo_lo, elo_hi, llr "
                                "FROM matches WHERE ws_a = ?1 ORDER BY id DESC LIMIT 1";

int db_weights_provenance(Db *db, int64_t id, DbProvenance *p, char err[ERR_MAX])
{
    memset(p, 0, sizeof *p);
    if (query(db, SQL_RUN, id, p, fill_run, err, "run") != 0 || query(db, SQL_TUNING, id, p, fill_tuning, err, "tuning run") != 0 ||
        query(db, SQL_MATCH, id, p, fill_match, err, "match") != 0) {
        db_provenance_clear(p);
        return -1;
    }
    return 0;
}

void db_provenance_clear(DbProvenance *p)
{
    if (!p) return;
    free(p->run_kind);
    free(p->run_created);
    free(p->run_status);
    free(p->tuning_data);
    memset(p, 0, sizeof *p);
}
