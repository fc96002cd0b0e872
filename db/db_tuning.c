/* db_tuning.c — the tuning_runs and tuning_epochs tables (contracts in
 * db.h). */
#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db_internal.h"

static const char SQL_TUNING_INSERT[] =
    "INSERT INTO tuning_runs(run_id, game, base_ws, result_ws, k, "
    "positions_train, positions_valid, train_loss, valid_loss, data) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
static const char SQL_TUNING_UPDATE[] =
    "UPDATE tuning_runs SET run_id = ?1, game = ?2, base_ws = ?3, "
    "result_ws = ?4, k = ?5, positions_train = ?6, positions_valid = ?7, "
    "train_loss = ?8, valid_loss = ?9, data = ?10 WHERE id = ?11";
static const char SQL_TUNING_UNFINISHED[] =
    "SELECT id FROM tuning_runs WHERE run_id = ?1 AND k IS NULL AND result_ws IS NULL ORDER BY id DESC LIMIT 1";
static const char SQL_TUNING_OF_RUN[] =
    "SELECT id, base_ws, result_ws, k, positions_train, positions_valid, train_loss, valid_loss "
    "FROM tuning_runs WHERE run_id = ?1 ORDER BY id DESC LIMIT 1";
static const char SQL_EPOCHS_DELETE[] = "DELETE FROM tuning_epochs WHERE tuning_run_id = ?1";
static const char SQL_EPOCH_INSERT[] =
    "INSERT INTO tuning_epochs(tuning_run_id, epoch, train_loss, valid_loss) "
    "VALUES(?1, ?2, ?3, ?4)";

/* ---- tuning runs ---------------------------------------------------------- */

static void bind_tuning(sqlite3_stmt *st, const void *row, int *rc)
{
    const DbTuning *t = row;
    bind_id(st, 1, t->run_id, rc);
    bind_text(st, 2, t->game, rc);
    bind_id(st, 3, t->base_ws, rc);
    bind_id(st, 4, t->result_ws, rc);
    bind_real(st, 5, t->k, rc);
    bind_i64(st, 6, t->positions_train, rc);
    bind_i64(st, 7, t->positions_valid, rc);
    bind_real(st, 8, t->train_loss, rc);
    bind_real(st, 9, t->valid_loss, rc);
    bind_text(st, 10, t->data, rc);
}

int db_tuning_insert(Db *db, const DbTuning *t, int64_t *id, char err[ERR_MAX])
{
    return write_end(db, dbi_row_insert(db, SQL_TUNING_INSERT, bind_tuning, t, id, "storing a tuning run", err));
}

int db_tuning_update(Db *db, int64_t id, const DbTuning *t, char err[ERR_MAX])
{
    return write_end(db, dbi_row_update(db, SQL_TUNING_UPDATE, bind_tuning, t, 11, id, "tuning run", err));
}

int db_tuning_unfinished(Db *db, int64_t run_id, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_TUNING_UNFINISHED, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_DONE;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the tuning run of run %" PRId64, run_id);
        out = -1;
    }
    stmt_done(st);
    return out;
}

static double column_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? 0.0 / 0.0 : sqlite3_column_double(st, i);
}

int db_tuning_of_run(Db *db, int64_t run_id, int64_t *id, DbTuning *t, char err[ERR_MAX])
{
    *id = 0;
    *t = (DbTuning){.run_id = run_id, .k = 0.0 / 0.0, .train_loss = 0.0 / 0.0, .valid_loss = 0.0 / 0.0};
    sqlite3_stmt *st = dbi_stmt(db, SQL_TUNING_OF_RUN, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        t->base_ws = sqlite3_column_int64(st, 1);
        t->result_ws = sqlite3_column_int64(st, 2);
        t->k = column_real(st, 3);
        t->positions_train = sqlite3_column_int64(st, 4);
        t->positions_valid = sqlite3_column_int64(st, 5);
        t->train_loss = column_real(st, 6);
        t->valid_loss = column_real(st, 7);
        rc = SQLITE_DONE;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the tuning run of run %" PRId64, run_id);
        out = -1;
    }
    stmt_done(st);
    return out;
}

static int tuning_restart(Db *db, int64_t id, const DbTuning *t, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_EPOCHS_DELETE, err);
    if (!st)
        return -1;
    char what[80];
    snprintf(what, sizeof what, "clearing the epochs of tuning run %" PRId64, id);
    if (dbi_step_write(db, st, sqlite3_bind_int64(st, 1, id), err, what) != 0)
        return -1;
    return dbi_row_update(db, SQL_TUNING_UPDATE, bind_tuning, t, 11, id, "tuning run", err);
}

int db_tuning_restart(Db *db, int64_t id, const DbTuning *t, char err[ERR_MAX])
{
    return write_end(db, tuning_restart(db, id, t, err));
}

static int tuning_epoch_insert(Db *db, int64_t tuning_run_id, int epoch, double train_loss,
                               double valid_loss, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_EPOCH_INSERT, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, tuning_run_id, &rc);
    bind_i64(st, 2, epoch, &rc);
    bind_real(st, 3, train_loss, &rc);
    bind_real(st, 4, valid_loss, &rc);
    char what[80];
    snprintf(what, sizeof what, "storing epoch %d of tuning run %" PRId64, epoch, tuning_run_id);
    return dbi_step_write(db, st, rc, err, what);
}

int db_tuning_epoch_insert(Db *db, int64_t tuning_run_id, int epoch, double train_loss,
                           double valid_loss, char err[ERR_MAX])
{
    return write_end(db,
                     tuning_epoch_insert(db, tuning_run_id, epoch, train_loss, valid_loss, err));
}
