/* test_db_report.c — the queries of `dama report` (db/db_report.h): rows in
 * the page's order with their values typed (NULL as DB_NULL_INT, 0, NaN or
 * a NULL text, as each field says), the game filter, a table or column
 * that a database lacks said in the result, and a weight's value read from
 * a stored set. Databases live in temporary files under /tmp; rows are put
 * in with a raw SQLite connection, as a user with sqlite3 would. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */

#include <math.h>
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
#include "db/db_report.h"

typedef struct TempDb {
    char path[64];
} TempDb;

/* A new dama database holding sql's rows (run raw after the schema). */
static void make_db(TempDb *t, const char *sql)
{
    snprintf(t->path, sizeof t->path, "/tmp/dama_test_db_report_XXXXXX");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    close(fd);
    unlink(t->path);
    Db *db = NULL;
    char err[ERR_MAX] = "";
    if (db_open(t->path, true, &db, err) != 0) fail_msg("%s", err);
    db_close(db);
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(t->path, &h), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("%s: %s", sql, msg ? msg : "?");
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

static void temp_remove(const TempDb *t) { db_files_remove(t->path); }

static Db *open_read(const TempDb *t)
{
    Db *db = NULL;
    char err[ERR_MAX] = "";
    if (db_open_readonly(t->path, &db, err) != 0) fail_msg("%s", err);
    return db;
}

#define CHECK_OK(call)                                  \
    do {                                                \
        if ((call) != 0) fail_msg("%s: %s", #call, err); \
    } while (0)

static const char ROWS[] =
    "INSERT INTO runs(id, kind, game, status) VALUES (1, 'selfplay', 'russian', 'done'), "
    "(2, 'selfplay', 'turkish', 'running'), (3, 'match', 'russian', 'done');\n"
    "INSERT INTO games(id, run_id, game_index, game, result, reason, plies, opening, white_ws, black_ws) VALUES "
    "(1, 1, 0, 'russian', '1-0', 'no-moves', 10, 'a', NULL, NULL), (2, 1, 1, 'russian', '1/2-1/2', NULL, 20, 'a', "
    "NULL, NULL), (3, 1, 2, 'russian', '1/2-1/2', NULL, NULL, NULL, NULL, NULL), "
    "(4, 3, 0, 'russian', '0-1', 'no-moves', 7, 'o', 5, 6), (5, 3, 1, 'russian', '1-0', 'no-moves', 9, 'o', 6, 5);\n"
    /* the match's times: A White in game 0 (4 moves, 0.4 s wall, 0.2 s CPU), Black in game 1 (4, 0.8, 0.4) */
    "UPDATE games SET white_moves = 4, black_moves = 3, white_wall_s = 0.4, black_wall_s = 0.6, white_cpu_s = 0.2, "
    "black_cpu_s = 0.3 WHERE id = 4;\n"
    "UPDATE games SET white_moves = 5, black_moves = 4, white_wall_s = 1.0, black_wall_s = 0.8, white_cpu_s = 0.5, "
    "black_cpu_s = 0.4 WHERE id = 5;\n"
    "INSERT INTO positions(game_id, ply, fen, quiet) VALUES (1, 0, 'f', 1), (1, 1, 'f', 0), (2, 0, 'f', 1);\n"
    "INSERT INTO weight_sets(id, game, name, parent_id, how, terms, weights) VALUES "
    "(5, 'russian', 'base', NULL, 'compiled-in', 'man,king', '100,250'), "
    "(6, 'russian', NULL, 5, 'perturbed from 5', 'man', '101'), (7, 'russian', NULL, 5, 'perturbed from 5', 'man', "
    "'99');\n"
    "INSERT INTO tuning_runs(id, run_id, game, base_ws, result_ws, k, positions_train) VALUES "
    "(1, NULL, 'russian', 5, NULL, 1.5, NULL);\n"
    "INSERT INTO tuning_epochs VALUES (1, 2, 0.25, NULL), (1, 1, 0.5, 0.75);\n"
    "INSERT INTO matches(id, run_id, game, ws_a, ws_b, games, wins, penta2, elo, sprt_elo0, sprt_llr, sprt_pairs) "
    "VALUES (1, 3, 'russian', 6, NULL, 2, 1, 1, 0, 0, NULL, NULL);\n"
    "INSERT INTO trains(id, game, config, start_ws) VALUES (1, 'russian', 'c', 5);\n"
    "INSERT INTO generations(train_id, game, generation, stage, parent_generation, accepted, gate_games) VALUES "
    "(1, 'russian', 1, 'gate', 0, 0, 0), (1, 'russian', 0, 'done', NULL, NULL, NULL);\n";

static void test_rows_and_nulls(void **state)
{
    (void)state;
    TempDb t;
    make_db(&t, ROWS);
    Db *db = open_read(&t);
    char err[ERR_MAX] = "";

    DbSelfplayRuns sp;
    CHECK_OK(db_report_selfplay_runs(db, NULL, &sp, err));
    assert_int_equal(sp.len, 2);
    assert_int_equal(sp.rows[0].id, 1);
    assert_string_equal(sp.rows[0].status, "done");
    assert_int_equal(sp.rows[0].games, 3);
    assert_int_equal(sp.rows[0].positions, 3);
    assert_int_equal(sp.rows[0].quiet_positions, 2);
    assert_int_equal(sp.rows[0].white_wins, 1);
    assert_int_equal(sp.rows[0].draws, 2);
    assert_int_equal(sp.rows[0].black_wins, 0);
    assert_true(fabs(sp.rows[0].mean_plies - 15) < 1e-9);
    assert_true(isnan(sp.rows[1].mean_plies)); /* no games */
    db_report_free(sp.mem);
    CHECK_OK(db_report_selfplay_runs(db, "turkish", &sp, err)); /* the game filter */
    assert_int_equal(sp.len, 1);
    assert_int_equal(sp.rows[0].id, 2);
    db_report_free(sp.mem);

    DbEndReasons er;
    CHECK_OK(db_report_end_reasons(db, 1, &er, err));
    assert_int_equal(er.len, 2); /* most games first */
    assert_string_equal(er.rows[0].reason, "(none)");
    assert_int_equal(er.rows[0].games, 2);
    assert_int_equal(er.rows[0].draws, 2);
    db_report_free(er.mem);
    DbPlies pl;
    CHECK_OK(db_report_game_plies(db, 1, &pl, err));
    assert_int_equal(pl.len, 2); /* the game without a length left out */
    db_report_free(pl.mem);

    DbTuningRunRows tr;
    CHECK_OK(db_report_tuning_runs(db, NULL, &tr, err));
    assert_int_equal(tr.len, 1);
    assert_true(tr.rows[0].run_id == DB_NULL_INT && tr.rows[0].result_ws == DB_NULL_INT);
    assert_int_equal(tr.rows[0].base_ws, 5);
    assert_int_equal(tr.rows[0].positions_train, 0);
    assert_null(tr.rows[0].status); /* no run */
    assert_true(isnan(tr.rows[0].train_loss));
    db_report_free(tr.mem);
    DbEpochs ep;
    CHECK_OK(db_report_epochs(db, 1, &ep, err));
    assert_int_equal(ep.len, 2);
    assert_int_equal(ep.rows[0].epoch, 1);
    assert_true(isnan(ep.rows[1].valid_loss));
    db_report_free(ep.mem);

    DbWeightSetRows ws;
    CHECK_OK(db_report_weight_sets(db, NULL, &ws, err));
    assert_int_equal(ws.len, 1); /* perturbed members apart */
    assert_int_equal(ws.rows[0].parent_id, 0);
    double v = 0;
    assert_true(db_report_weight_value(&ws.rows[0], "king", &v));
    assert_true(v == 250);
    db_report_free(ws.mem);
    DbPerturbedGroups pg;
    CHECK_OK(db_report_perturbed(db, NULL, &pg, err));
    assert_int_equal(pg.len, 1);
    assert_int_equal(pg.rows[0].parent_id, 5);
    assert_int_equal(pg.rows[0].count, 2);
    assert_int_equal(pg.rows[0].min_id, 6);
    assert_int_equal(pg.rows[0].max_id, 7);
    db_report_free(pg.mem);

    DbMatchRows m;
    CHECK_OK(db_report_matches(db, NULL, &m, err));
    assert_int_equal(m.len, 1);
    assert_int_equal(m.rows[0].ws_a, 6);
    assert_true(m.rows[0].ws_b == DB_NULL_INT);
    assert_null(m.rows[0].name_a);
    assert_int_equal(m.rows[0].penta[2], 1);
    assert_true(isnan(m.rows[0].sprt_llr) && isnan(m.rows[0].llr));
    assert_null(m.rows[0].sprt_result);
    /* A: game 0's White and game 1's Black; B the others */
    assert_int_equal(m.rows[0].time[0].moves, 8);
    assert_int_equal(m.rows[0].time[1].moves, 8);
    assert_true(fabs(m.rows[0].time[0].wall_s - 1.2) < 1e-9 && fabs(m.rows[0].time[0].cpu_s - 0.6) < 1e-9);
    assert_true(fabs(m.rows[0].time[1].wall_s - 1.6) < 1e-9 && fabs(m.rows[0].time[1].cpu_s - 0.8) < 1e-9);
    assert_int_equal(m.rows[0].untimed, 0);
    db_report_free(m.mem);
    DbMatchGames mg;
    CHECK_OK(db_report_run_games(db, 3, &mg, err));
    assert_int_equal(mg.len, 2);
    assert_int_equal(mg.rows[1].white_ws, 6);
    assert_string_equal(mg.rows[1].result, "1-0");
    db_report_free(mg.mem);

    DbGenerationRows g;
    CHECK_OK(db_report_generations(db, NULL, &g, err));
    assert_true(g.exists && !g.missing);
    assert_int_equal(g.len, 2);
    assert_int_equal(g.rows[0].generation, 0); /* by generation */
    assert_true(g.rows[0].parent_generation == DB_NULL_INT && g.rows[0].accepted == DB_NULL_INT);
    assert_int_equal(g.rows[1].parent_generation, 0); /* 0 is not NULL */
    assert_int_equal(g.rows[1].accepted, 0);
    assert_int_equal(g.rows[1].gate_games, 0);
    db_report_free(g.mem);

    DbTournamentRows tn;
    CHECK_OK(db_report_tournaments(db, NULL, &tn, err));
    assert_true(tn.exists);
    assert_int_equal(tn.len, 0);
    db_report_free(tn.mem);
    db_close(db);
    temp_remove(&t);
}

/* A database whose tables lack what an older dama did not write (made by
 * hand: a read-only open refuses an older version). */
static void test_missing_tables_and_columns(void **state)
{
    (void)state;
    TempDb t;
    make_db(&t, "INSERT INTO runs(id, kind, game) VALUES (1, 'match', 'russian');"
                "INSERT INTO matches(run_id, game, sprt_elo0) VALUES (1, 'russian', 0);"
                "ALTER TABLE matches DROP COLUMN sprt_llr;"
                "ALTER TABLE matches DROP COLUMN sprt_pairs;"
                "DROP TABLE participants; DROP TABLE tournaments;"
                "ALTER TABLE generations DROP COLUMN ladder_games;"
                "ALTER TABLE games DROP COLUMN white_moves; ALTER TABLE games DROP COLUMN black_moves;"
                "ALTER TABLE games DROP COLUMN white_wall_s; ALTER TABLE games DROP COLUMN black_wall_s;"
                "ALTER TABLE games DROP COLUMN white_cpu_s; ALTER TABLE games DROP COLUMN black_cpu_s;");
    Db *db = open_read(&t);
    char err[ERR_MAX] = "";
    DbMatchRows m;
    CHECK_OK(db_report_matches(db, NULL, &m, err));
    assert_int_equal(m.len, 1);
    assert_true(isnan(m.rows[0].sprt_llr));
    assert_int_equal(m.rows[0].sprt_pairs, 0);
    assert_true(m.rows[0].time[0].moves == 0 && m.rows[0].time[1].moves == 0); /* no times before schema 11 */
    assert_true(m.rows[0].untimed == DB_NULL_INT);
    db_report_free(m.mem);
    DbTournamentRows tn;
    CHECK_OK(db_report_tournaments(db, NULL, &tn, err));
    assert_false(tn.exists);
    assert_int_equal(tn.len, 0);
    DbGenerationRows g;
    CHECK_OK(db_report_generations(db, NULL, &g, err));
    assert_true(g.exists);
    assert_string_equal(g.missing, "ladder_games");
    assert_int_equal(g.len, 0);
    db_close(db);
    temp_remove(&t);
}

static void test_weight_value(void **state)
{
    (void)state;
    static const struct {
        const char *terms, *weights, *name;
        bool found;
        double value;
    } cases[] = {
        {"man,king", "100,250", "man", true, 100},  {"man,king", "100,250", "king", true, 250},
        {"man,king", "100,250", "ki", false, 0},    {"man,king", "100", "king", false, 0},
        {"man,king", "100,x", "king", false, 0},    {"man,king", "100,-7", "king", true, -7},
        {"", "", "man", false, 0},                  {NULL, NULL, "man", false, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        DbWeightSetRow ws = {.terms = cases[i].terms, .weights = cases[i].weights};
        double v = 0;
        bool found = db_report_weight_value(&ws, cases[i].name, &v);
        if (found != cases[i].found || (found && v != cases[i].value))
            fail_msg("case %zu: found %d value %g", i, found, v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_and_nulls),
        cmocka_unit_test(test_missing_tables_and_columns),
        cmocka_unit_test(test_weight_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
