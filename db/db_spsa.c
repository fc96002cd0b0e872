/* db_spsa.c — the spsa_runs and spsa_iterations tables: one SPSA tuning
 * run and the parameter vector after each of its iterations (contracts in
 * db.h). */
#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db_internal.h"

static const char SQL_SPSA_INSERT[] =
    "INSERT INTO spsa_runs(game, base_ws, seed, config, params, iterations, pairs, a_const, alpha, gamma) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
static const char SQL_SPSA_FIND[] =
    "SELECT id, status FROM spsa_runs WHERE game = ?1 AND seed = ?2 AND config IS ?3 "
    "ORDER BY id DESC LIMIT 1";
static const char SQL_SPSA_OTHER_INTERRUPTED[] =
    "SELECT id FROM spsa_runs WHERE game = ?1 AND status = 'interrupted' AND id != ?2 ORDER BY id DESC LIMIT 1";
static const char SQL_TRAIN_OTHER_INTERRUPTED[] =
    "SELECT id FROM trains WHERE game = ?1 AND status = 'interrupted' AND id != ?2 ORDER BY id DESC LIMIT 1";
static const char SQL_SPSA_LAST[] =
    "SELECT iter, theta FROM spsa_iterations WHERE spsa_run_id = ?1 ORDER BY iter DESC LIMIT 1";
static const char SQL_SPSA_ITER_INSERT[] =
    "INSERT INTO spsa_iterations(spsa_run_id, iter, wins, draws, losses, result, theta) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)";
static const char SQL_SPSA_FINISH[] =
    "UPDATE spsa_runs SET status = ?2, result_ws = ?3, finished = CASE WHEN ?2 = 'running' "
    "THEN NULL ELSE " NOW_SQL " END WHERE id = ?1";

static void bind_spsa(sqlite3_stmt *st, const void *row, int *rc)
{
    const DbSpsaRun *r = row;
    bind_text(st, 1, r->game, rc);
    bind_id(st, 2, r->base_ws, rc);
    bind_i64(st, 3, (int64_t)r->seed, rc);
    bind_text(st, 4, r->config, rc);
    bind_text(st, 5, r->params, rc);
    bind_i64(st, 6, r->iterations, rc);
    bind_i64(st, 7, r->pairs, rc);
    bind_real(st, 8, r->a_const, rc);
    bind_real(st, 9, r->alpha, rc);
    bind_real(st, 10, r->gamma, rc);
}

int db_spsa_insert(Db *db, const DbSpsaRun *r, int64_t *id, char err[ERR_MAX])
{
    return write_end(db, dbi_row_insert(db, SQL_SPSA_INSERT, bind_spsa, r, id, "storing an SPSA run", err));
}

int db_spsa_claim(Db *db, const DbSpsaRun *r, DbClaim *c, char err[ERR_MAX])
{
    memset(c, 0, sizeof *c);
    bool own = false;
    int64_t id = 0;
    int rc = tx_enter(db, &own, err);
    if (rc == 0) rc = db_spsa_find(db, r->game, r->seed, r->config, &id, NULL, err);
    if (rc == 0 && !id) {
        c->created = true;
        rc = dbi_row_insert(db, SQL_SPSA_INSERT, bind_spsa, r, &id, "storing an SPSA run", err);
    }
    if (rc == 0) rc = dbi_claim_row(db, &DBI_OWNED_SPSA, id, c, err);
    if (c->created) c->status[0] = '\0';
    if (rc == 0 && own) rc = db_commit(db, err);
    if (rc != 0) db_rollback(db);
    return rc;
}

int db_spsa_find(Db *db, const char *game, uint64_t seed, const char *config, int64_t *id,
                 char status[DB_STATUS_MAX], char err[ERR_MAX])
{
    *id = 0;
    if (status) status[0] = '\0';
    sqlite3_stmt *st = dbi_stmt(db, SQL_SPSA_FIND, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    bind_i64(st, 2, (int64_t)seed, &rc);
    bind_text(st, 3, config, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        if (status) {
            const unsigned char *s = sqlite3_column_text(st, 1);
            snprintf(status, DB_STATUS_MAX, "%s", s ? (const char *)s : "");
        }
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "looking up an SPSA run");
        stmt_done(st);
        return -1;
    }
    stmt_done(st);
    return 0;
}

int db_other_interrupted(Db *db, const char *what, const char *game, int64_t except, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    bool train = strcmp(what, "train") == 0;
    if (!train && strcmp(what, "spsa") != 0) {
        set_err(err, "db_other_interrupted: '%s' is neither spsa nor train", what);
        return -1;
    }
    sqlite3_stmt *st = dbi_stmt(db, train ? SQL_TRAIN_OTHER_INTERRUPTED : SQL_SPSA_OTHER_INTERRUPTED, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    bind_i64(st, 2, except, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) dbi_fail(db, rc, err, "looking up an interrupted %s", train ? "train" : "SPSA run");
    stmt_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int db_spsa_last(Db *db, int64_t id, int *iter, char **theta, char err[ERR_MAX])
{
    *iter = 0;
    *theta = NULL;
    sqlite3_stmt *st = dbi_stmt(db, SQL_SPSA_LAST, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, id, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *iter = sqlite3_column_int(st, 0);
        const unsigned char *s = sqlite3_column_text(st, 1);
        *theta = dup_str(s ? (const char *)s : "");
        rc = *theta ? SQLITE_DONE : SQLITE_NOMEM;
    }
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading SPSA run %" PRId64 "'s last iteration", id);
        stmt_done(st);
        return -1;
    }
    stmt_done(st);
    return 0;
}

int db_spsa_iteration_insert(Db *db, int64_t id, int iter, const int64_t wdl[3], int64_t result, const char *theta,
                             char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_SPSA_ITER_INSERT, err);
    if (!st) return write_end(db, -1);
    int rc = SQLITE_OK;
    bind_i64(st, 1, id, &rc);
    bind_i64(st, 2, iter, &rc);
    for (int i = 0; i < 3; i++) bind_i64(st, 3 + i, wdl[i], &rc);
    bind_i64(st, 6, result, &rc);
    bind_text(st, 7, theta, &rc);
    return write_end(db, dbi_step_write(db, st, rc, err, "storing an SPSA iteration"));
}

int db_spsa_finish(Db *db, int64_t id, const char *status, int64_t result_ws, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_SPSA_FINISH, err);
    if (!st) return write_end(db, -1);
    int rc = SQLITE_OK;
    bind_i64(st, 1, id, &rc);
    bind_text(st, 2, status, &rc);
    bind_id(st, 3, result_ws, &rc);
    return write_end(db, dbi_step_write(db, st, rc, err, "finishing an SPSA run"));
}
