/* db_train.c — gated generations of `dama train`: the trains and
 * generations tables, and the look-ups train needs (contracts in db.h). */
#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db_internal.h"

static const char SQL_TRAIN_FIND[] =
    "SELECT id, start_ws, status FROM trains WHERE game = ?1 AND seed = ?2 AND config = ?3 ORDER BY id DESC LIMIT 1";
static const char SQL_TRAIN_INSERT[] =
    "INSERT INTO trains(game, seed, config, start_ws, generations) VALUES(?1, ?2, ?3, ?4, ?5)";
static const char SQL_TRAIN_STATUS[] =
    "UPDATE trains SET status = ?2, generations = coalesce(?3, generations), "
    "finished = CASE WHEN ?2 = 'running' THEN NULL ELSE " NOW_SQL " END WHERE id = ?1";
static const char SQL_TRAIN_NEWEST[] = "SELECT id FROM trains WHERE game = ?1 ORDER BY id DESC LIMIT 1";
static const char SQL_TRAIN_GAME[] = "SELECT game FROM trains WHERE id = ?1";

static const char GEN_COLUMNS[] =
    "train_id, game, generation, stage, parent_generation, parent_ws, selfplay_run, data_runs, tuning_run, "
    "candidate_ws, gate_match, gate_elo, gate_elo_lo, gate_elo_hi, gate_games, accepted, reason, best_ws, "
    "ladder_match, ladder_elo, ladder_elo_lo, ladder_elo_hi, ladder_games";
static const char SQL_GEN_UPSERT[] =
    "INSERT INTO generations(train_id, game, generation, stage, parent_generation, parent_ws, selfplay_run, "
    "data_runs, tuning_run, candidate_ws, gate_match, gate_elo, gate_elo_lo, gate_elo_hi, gate_games, accepted, "
    "reason, best_ws, ladder_match, ladder_elo, ladder_elo_lo, ladder_elo_hi, ladder_games, finished) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, "
    "?23, CASE WHEN ?4 = 'done' THEN " NOW_SQL " END) "
    "ON CONFLICT(train_id, generation) DO UPDATE SET stage = excluded.stage, "
    "parent_generation = excluded.parent_generation, parent_ws = excluded.parent_ws, "
    "selfplay_run = excluded.selfplay_run, data_runs = excluded.data_runs, tuning_run = excluded.tuning_run, "
    "candidate_ws = excluded.candidate_ws, gate_match = excluded.gate_match, gate_elo = excluded.gate_elo, "
    "gate_elo_lo = excluded.gate_elo_lo, gate_elo_hi = excluded.gate_elo_hi, gate_games = excluded.gate_games, "
    "accepted = excluded.accepted, reason = excluded.reason, best_ws = excluded.best_ws, "
    "ladder_match = excluded.ladder_match, ladder_elo = excluded.ladder_elo, "
    "ladder_elo_lo = excluded.ladder_elo_lo, ladder_elo_hi = excluded.ladder_elo_hi, "
    "ladder_games = excluded.ladder_games, finished = coalesce(generations.finished, excluded.finished)";

int db_train_find(Db *db, const char *game, uint64_t seed, const char *config, int64_t *id, int64_t *start_ws,
                  char err[ERR_MAX])
{
    *id = 0;
    *start_ws = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_TRAIN_FIND, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    bind_i64(st, 2, (int64_t)seed, &rc);
    bind_text(st, 3, config, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        *start_ws = sqlite3_column_int64(st, 1);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) dbi_fail(db, rc, err, "looking up a %s train", game);
    stmt_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int db_train_claim(Db *db, const char *game, uint64_t seed, const char *config, int64_t start_ws, int generations,
                   DbClaim *c, char err[ERR_MAX])
{
    memset(c, 0, sizeof *c);
    bool own = false;
    int64_t id = 0, found_start = 0;
    int rc = tx_enter(db, &own, err);
    if (rc == 0) rc = db_train_find(db, game, seed, config, &id, &found_start, err);
    if (rc == 0 && !id) {
        c->created = true;
        rc = db_train_insert(db, game, seed, config, start_ws, generations, &id, err);
    }
    if (rc == 0) rc = dbi_claim_row(db, &DBI_OWNED_TRAINS, id, c, err);
    if (c->created) c->status[0] = '\0';
    if (rc == 0 && own) rc = db_commit(db, err);
    if (rc != 0) db_rollback(db);
    return rc;
}

int db_train_insert(Db *db, const char *game, uint64_t seed, const char *config, int64_t start_ws, int generations,
                    int64_t *id, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_TRAIN_INSERT, err);
    if (!st) return write_end(db, -1);
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    bind_i64(st, 2, (int64_t)seed, &rc);
    bind_text(st, 3, config, &rc);
    bind_id(st, 4, start_ws, &rc);
    bind_i64(st, 5, generations, &rc);
    int out = dbi_step_write(db, st, rc, err, "storing a train");
    if (out == 0) *id = sqlite3_last_insert_rowid(db->h);
    return write_end(db, out);
}

int db_train_set_status(Db *db, int64_t id, const char *status, int generations, char err[ERR_MAX])
{
    sqlite3_stmt *st = dbi_stmt(db, SQL_TRAIN_STATUS, err);
    if (!st) return write_end(db, -1);
    int rc = SQLITE_OK;
    bind_i64(st, 1, id, &rc);
    bind_text(st, 2, status, &rc);
    if (generations > 0) bind_i64(st, 3, generations, &rc);
    else if (rc == SQLITE_OK) rc = sqlite3_bind_null(st, 3);
    return write_end(db, dbi_step_write(db, st, rc, err, "setting a train's status"));
}

int db_train_newest(Db *db, const char *game, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_TRAIN_NEWEST, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) dbi_fail(db, rc, err, "looking up the newest %s train", game);
    stmt_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static double col_real(sqlite3_stmt *st, int i);

/* a candidate equal to its parent is its parent's set: not "rejected"; nor a set some gate accepted (or a start) */
static const char SQL_GEN_REJECTED[] =
    "SELECT train_id, generation, gate_elo FROM generations g WHERE candidate_ws = ?1 AND accepted = 0 "
    "AND candidate_ws IS NOT parent_ws AND NOT EXISTS (SELECT 1 FROM generations h WHERE h.candidate_ws = ?1 "
    "AND (h.accepted = 1 OR h.generation = 0)) ORDER BY id DESC LIMIT 1";

int db_weights_gate_rejected(Db *db, int64_t ws, int64_t *train, int *generation, double *gate_elo,
                             char err[ERR_MAX])
{
    *train = 0;
    *generation = 0;
    *gate_elo = NAN;
    sqlite3_stmt *st = dbi_stmt(db, SQL_GEN_REJECTED, err);
    if (!st) return -1;
    int rc = sqlite3_bind_int64(st, 1, ws);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *train = sqlite3_column_int64(st, 0);
        *generation = sqlite3_column_int(st, 1);
        *gate_elo = col_real(st, 2);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) dbi_fail(db, rc, err, "looking up the gate of weight set %" PRId64, ws);
    stmt_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int db_train_game(Db *db, int64_t id, char game[DB_GAME_NAME_MAX], char err[ERR_MAX])
{
    game[0] = '\0';
    sqlite3_stmt *st = dbi_stmt(db, SQL_TRAIN_GAME, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, id, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        snprintf(game, DB_GAME_NAME_MAX, "%s", t ? (const char *)t : "");
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        set_err(err, "%s: train %" PRId64 " does not exist", db_path(db), id);
        stmt_done(st);
        return -1;
    }
    if (rc != SQLITE_OK) dbi_fail(db, rc, err, "reading train %" PRId64, id);
    stmt_done(st);
    return rc == SQLITE_OK ? 0 : -1;
}

static void bind_gen(sqlite3_stmt *st, const void *row, int *rc)
{
    const DbGeneration *g = row;
    bind_i64(st, 1, g->train_id, rc);
    bind_text(st, 2, g->game, rc);
    bind_i64(st, 3, g->generation, rc);
    bind_text(st, 4, g->stage, rc);
    if (g->generation > 0) bind_i64(st, 5, g->parent_generation, rc);
    else if (*rc == SQLITE_OK) *rc = sqlite3_bind_null(st, 5);
    bind_id(st, 6, g->parent_ws, rc);
    bind_id(st, 7, g->selfplay_run, rc);
    bind_text(st, 8, g->data_runs[0] ? g->data_runs : NULL, rc);
    bind_id(st, 9, g->tuning_run, rc);
    bind_id(st, 10, g->candidate_ws, rc);
    bind_id(st, 11, g->gate_match, rc);
    bind_real(st, 12, g->gate_elo, rc);
    bind_real(st, 13, g->gate_elo_lo, rc);
    bind_real(st, 14, g->gate_elo_hi, rc);
    if (g->gate_match) bind_i64(st, 15, g->gate_games, rc);
    else if (*rc == SQLITE_OK) *rc = sqlite3_bind_null(st, 15);
    if (g->accepted >= 0) bind_i64(st, 16, g->accepted, rc);
    else if (*rc == SQLITE_OK) *rc = sqlite3_bind_null(st, 16);
    bind_text(st, 17, g->reason[0] ? g->reason : NULL, rc);
    bind_id(st, 18, g->best_ws, rc);
    bind_id(st, 19, g->ladder_match, rc);
    bind_real(st, 20, g->ladder_elo, rc);
    bind_real(st, 21, g->ladder_elo_lo, rc);
    bind_real(st, 22, g->ladder_elo_hi, rc);
    if (g->ladder_match || g->generation == 0) bind_i64(st, 23, g->ladder_games, rc);
    else if (*rc == SQLITE_OK) *rc = sqlite3_bind_null(st, 23);
}

int db_generation_put(Db *db, const DbGeneration *g, char err[ERR_MAX])
{
    static const char *const STAGES[] = {"selfplay", "tune", "gate", "ladder", "done", NULL};
    bool known = false;
    for (int i = 0; STAGES[i]; i++) known = known || (g->stage && strcmp(g->stage, STAGES[i]) == 0);
    if (!known) {
        set_err(err, "generation %d: stage '%s' is not selfplay, tune, gate, ladder or done", g->generation,
                g->stage ? g->stage : "(null)");
        return write_end(db, -1);
    }
    sqlite3_stmt *st = dbi_stmt(db, SQL_GEN_UPSERT, err);
    if (!st) return write_end(db, -1);
    int rc = SQLITE_OK;
    bind_gen(st, g, &rc);
    char what[64];
    snprintf(what, sizeof what, "storing generation %d", g->generation);
    return write_end(db, dbi_step_write(db, st, rc, err, what));
}

static double col_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? 0.0 / 0.0 : sqlite3_column_double(st, i);
}

static void col_text(sqlite3_stmt *st, int i, char *out, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, size, "%s", t ? (const char *)t : "");
}

int db_generations_each(Db *db, int64_t train_id, int (*fn)(void *ctx, const DbGeneration *g), void *ctx,
                        char err[ERR_MAX])
{
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT %s FROM generations WHERE train_id = ?1 ORDER BY generation", GEN_COLUMNS);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 1, train_id);
    int out = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        DbGeneration g = {0};
        char game[DB_GAME_NAME_MAX], stage[16];
        g.train_id = sqlite3_column_int64(st, 0);
        col_text(st, 1, game, sizeof game);
        g.game = game;
        g.generation = sqlite3_column_int(st, 2);
        col_text(st, 3, stage, sizeof stage);
        g.stage = stage;
        g.parent_generation = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 4);
        g.parent_ws = sqlite3_column_int64(st, 5);
        g.selfplay_run = sqlite3_column_int64(st, 6);
        col_text(st, 7, g.data_runs, sizeof g.data_runs);
        g.tuning_run = sqlite3_column_int64(st, 8);
        g.candidate_ws = sqlite3_column_int64(st, 9);
        g.gate_match = sqlite3_column_int64(st, 10);
        g.gate_elo = col_real(st, 11);
        g.gate_elo_lo = col_real(st, 12);
        g.gate_elo_hi = col_real(st, 13);
        g.gate_games = sqlite3_column_int64(st, 14);
        g.accepted = sqlite3_column_type(st, 15) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 15);
        col_text(st, 16, g.reason, sizeof g.reason);
        g.best_ws = sqlite3_column_int64(st, 17);
        g.ladder_match = sqlite3_column_int64(st, 18);
        g.ladder_elo = col_real(st, 19);
        g.ladder_elo_lo = col_real(st, 20);
        g.ladder_elo_hi = col_real(st, 21);
        g.ladder_games = sqlite3_column_int64(st, 22);
        if ((out = fn(ctx, &g)) != 0) break;
        rc = SQLITE_OK;
    }
    if (out == 0 && rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the generations of train %" PRId64, train_id);
        out = -1;
    }
    sqlite3_finalize(st);
    return out;
}

int db_train_best(Db *db, const char *game, int64_t train_id, int64_t *ws, int *generation, int64_t *train,
                  char err[ERR_MAX])
{
    static const char SQL[] =
        "SELECT g.candidate_ws, g.generation, g.train_id FROM generations g JOIN trains t ON t.id = g.train_id "
        "WHERE t.game = ?1 AND g.accepted = 1 AND g.train_id = "
        "CASE WHEN ?2 > 0 THEN ?2 ELSE (SELECT max(id) FROM trains WHERE game = ?1) END "
        "ORDER BY g.generation DESC LIMIT 1";
    *ws = 0;
    *generation = -1;
    *train = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL, err);
    if (!st) return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    bind_i64(st, 2, train_id, &rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *ws = sqlite3_column_int64(st, 0);
        *generation = sqlite3_column_int(st, 1);
        *train = sqlite3_column_int64(st, 2);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) dbi_fail(db, rc, err, "looking up the best %s generation", game);
    stmt_done(st);
    if (rc != SQLITE_DONE) return -1;
    if (!*ws) {
        char other[DB_GAME_NAME_MAX] = "", gerr[ERR_MAX];
        if (train_id > 0 && db_train_game(db, train_id, other, gerr) == 0 && other[0] && strcmp(other, game) != 0)
            set_err(err, "%s: train %" PRId64 " is a %s train, not %s (give --game %s)", db_path(db), train_id, other,
                    game, other);
        else if (train_id > 0) set_err(err, "%s: no %s train %" PRId64, db_path(db), game, train_id);
        else set_err(err, "%s: no %s train (run dama train first)", db_path(db), game);
        return -1;
    }
    return 0;
}
