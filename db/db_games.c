/* db_games.c — the games and positions tables: storing played games with
 * their positions, and reading them back through a filter (contracts in
 * db.h). */
#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db_internal.h"

static const char SQL_GAME_INSERT[] =
    "INSERT INTO games(run_id, game_index, game, opening, start_fen, white_ws, "
    "black_ws, seed, result, reason, plies, movetext, detail, white_moves, black_moves, white_wall_s, "
    "black_wall_s, white_cpu_s, black_cpu_s) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)";
static const char SQL_POS_INSERT[] =
    "INSERT INTO positions(game_id, ply, fen, stm, score, result, quiet) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)";
static const char SQL_GAME_RESULTS[] = "SELECT game_index, result FROM games WHERE run_id = ?1";
static const char SQL_GAME_INDICES[] =
    "SELECT game_index FROM games WHERE run_id = ?1";

/* ---- games and positions -------------------------------------------------- */

static bool valid_result(const char *r)
{
    return r && (!strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2"));
}

static bool valid_times(const TimeUse t[2])
{
    for (int c = 0; c < 2; c++)
        if (t[c].moves < 0 || !(t[c].wall_s >= 0) || !(t[c].cpu_s >= 0) || !isfinite(t[c].wall_s) ||
            !isfinite(t[c].cpu_s))
            return false;
    return true;
}

static int insert_game_rows(Db *db, const DbGame *g, int64_t *game_id, char err[ERR_MAX])
{
    char what[96];
    snprintf(what, sizeof what, "storing game %" PRId64 " of run %" PRId64, g->game_index,
             g->run_id);
    sqlite3_stmt *st = dbi_stmt(db, SQL_GAME_INSERT, err);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    bind_i64(st, 1, g->run_id, &rc);
    bind_i64(st, 2, g->game_index, &rc);
    bind_text(st, 3, g->game, &rc);
    bind_text(st, 4, g->opening, &rc);
    bind_text(st, 5, g->start_fen, &rc);
    bind_id(st, 6, g->white_ws, &rc);
    bind_id(st, 7, g->black_ws, &rc);
    bind_i64(st, 8, (int64_t)g->seed, &rc);
    bind_text(st, 9, g->result, &rc);
    bind_text(st, 10, g->reason, &rc);
    bind_i64(st, 11, g->plies, &rc);
    bind_text(st, 12, g->movetext, &rc);
    bind_text(st, 13, g->detail, &rc);
    for (int c = 0; c < 2 && g->timed; c++) {
        bind_i64(st, 14 + c, g->time[c].moves, &rc);
        bind_real(st, 16 + c, g->time[c].wall_s, &rc);
        bind_real(st, 18 + c, g->time[c].cpu_s, &rc);
    }
    for (int i = 14; i <= 19 && !g->timed && rc == SQLITE_OK; i++) rc = sqlite3_bind_null(st, i);
    if (dbi_step_write(db, st, rc, err, what) != 0)
        return -1;
    int64_t id = sqlite3_last_insert_rowid(db->h);

    st = dbi_stmt(db, SQL_POS_INSERT, err);
    if (!st)
        return -1;
    for (int i = 0; i < g->positions_len; i++) {
        const DbPosition *p = &g->positions[i];
        rc = SQLITE_OK;
        bind_i64(st, 1, id, &rc);
        bind_i64(st, 2, p->ply, &rc);
        bind_text(st, 3, p->fen, &rc);
        bind_i64(st, 4, p->stm, &rc);
        if (p->has_score)
            bind_i64(st, 5, p->score, &rc);
        else if (rc == SQLITE_OK)
            rc = sqlite3_bind_null(st, 5);
        bind_real(st, 6, p->result, &rc);
        bind_i64(st, 7, p->quiet, &rc);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc != SQLITE_DONE) {
            dbi_fail(db, rc, err, "%s: position %d (ply %d)", what, i, p->ply);
            stmt_done(st);
            return -1;
        }
        (void)sqlite3_reset(st); /* after SQLITE_DONE: returns SQLITE_OK */
    }
    (void)sqlite3_clear_bindings(st);
    if (game_id)
        *game_id = id;
    return 0;
}

int db_game_insert(Db *db, const DbGame *g, int64_t *game_id, char err[ERR_MAX])
{
    const char *bad = !g->game                                ? "no game name"
                      : g->result && !valid_result(g->result) ? "result must be 1-0, 0-1 or 1/2-1/2"
                      : g->timed && !valid_times(g->time)     ? "times used must be finite and >= 0"
                      : g->positions_len < 0 || (g->positions_len > 0 && !g->positions)
                          ? "bad position list"
                          : NULL;
    if (bad) {
        set_err(err, "storing game %" PRId64 " of run %" PRId64 ": %s", g->game_index, g->run_id,
                bad);
        return -1;
    }
    for (int i = 0; i < g->positions_len; i++) {
        if (!g->positions[i].fen) {
            set_err(err, "storing game %" PRId64 " of run %" PRId64 ": position %d has no FEN",
                    g->game_index, g->run_id, i);
            return -1;
        }
    }
    bool own;
    if (tx_enter(db, &own, err) != 0)
        return -1;
    if (write_end(db, insert_game_rows(db, g, game_id, err)) != 0)
        return -1;
    return own ? db_commit(db, err) : 0;
}

int db_run_game_indices(Db *db, int64_t run_id, bool *done, int64_t len, int64_t *stored,
                        char err[ERR_MAX])
{
    for (int64_t i = 0; i < len; i++)
        done[i] = false;
    if (stored)
        *stored = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_GAME_INDICES, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    int64_t count = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(st, 0);
        if (i >= 0 && i < len && !done[i]) {
            done[i] = true;
            count++;
        }
        rc = SQLITE_OK;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the stored games of run %" PRId64, run_id);
        out = -1;
    } else if (stored) {
        *stored = count;
    }
    stmt_done(st);
    return out;
}

int db_run_game_results(Db *db, int64_t run_id, signed char *white_half, int64_t len, char err[ERR_MAX])
{
    for (int64_t i = 0; i < len; i++)
        white_half[i] = -1;
    sqlite3_stmt *st = dbi_stmt(db, SQL_GAME_RESULTS, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(st, 0);
        const char *r = (const char *)sqlite3_column_text(st, 1);
        if (i >= 0 && i < len && r)
            white_half[i] = (signed char)(!strcmp(r, "1-0") ? 2 : !strcmp(r, "0-1") ? 0 : !strcmp(r, "1/2-1/2") ? 1 : -1);
        rc = SQLITE_OK;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the stored results of run %" PRId64, run_id);
        out = -1;
    }
    stmt_done(st);
    return out;
}

/* Prepare a one-statement, read-only query built from a caller's filter. */
static int prepare_filtered(Db *db, const char *sql, const char *filter, sqlite3_stmt **st,
                            char err[ERR_MAX])
{
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, st, &tail);
    if (rc != SQLITE_OK) {
        set_err(err, "%s: filter '%.80s': %s", db->path, filter, sqlite3_errmsg(db->h));
        return -1;
    }
    while (tail && (*tail == ' ' || *tail == '\n' || *tail == '\t'))
        tail++;
    if ((tail && *tail) || !sqlite3_stmt_readonly(*st)) {
        set_err(err, "%s: filter '%.80s': must be one read-only SQL condition", db->path, filter);
        (void)sqlite3_finalize(*st);
        *st = NULL;
        return -1;
    }
    return 0;
}

static char *filtered_sql(const char *head, const char *filter, const char *order)
{
    const char *f = filter && *filter ? filter : "1";
    size_t n = strlen(head) + strlen(f) + strlen(order) + 8;
    char *sql = malloc(n);
    if (sql)
        snprintf(sql, n, "%s (%s) %s", head, f, order);
    return sql;
}

static bool is_int_or_null(sqlite3_stmt *st, int col)
{
    int t = sqlite3_column_type(st, col);
    return t == SQLITE_INTEGER || t == SQLITE_NULL;
}

int db_positions_filter_check(Db *db, const char *filter_sql, char err[ERR_MAX])
{
    char *sql = filtered_sql("SELECT 1 FROM positions p JOIN games g ON g.id = p.game_id WHERE", filter_sql, "");
    if (!sql) {
        set_err(err, "%s: checking a filter: out of memory", db->path);
        return -1;
    }
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, &tail);
    bool one = rc == SQLITE_OK && !(tail && tail[strspn(tail, " \t\n")]) && sqlite3_stmt_readonly(st); /* tail is in sql */
    free(sql);
    const char *f = filter_sql ? filter_sql : "";
    if (rc != SQLITE_OK) {
        set_err(err, "filter '%.100s': %.140s", f, sqlite3_errmsg(db->h));
        return -1;
    }
    (void)sqlite3_finalize(st);
    if (!one) {
        set_err(err, "filter '%.100s': must be one read-only SQL condition", f);
        return -1;
    }
    return 0;
}

int db_positions_each(Db *db, const char *game, const char *filter_sql,
                      int (*fn)(void *ctx, const DbPosition *p), void *ctx, char err[ERR_MAX])
{
    char *sql = filtered_sql("SELECT p.id, p.game_id, p.ply, p.fen, p.stm, p.score, p.result, "
                             "p.quiet FROM positions p JOIN games g ON g.id = p.game_id "
                             "WHERE (?1 IS NULL OR g.game = ?1) AND",
                             filter_sql, "ORDER BY p.id");
    if (!sql) {
        set_err(err, "%s: reading positions: out of memory", db->path);
        return -1;
    }
    sqlite3_stmt *st = NULL;
    int out = prepare_filtered(db, sql, filter_sql ? filter_sql : "", &st, err);
    free(sql);
    if (out != 0)
        return -1;
    int rc = SQLITE_OK;
    bind_text(st, 1, game, &rc);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        DbPosition p;
        p.id = sqlite3_column_int64(st, 0);
        p.game_id = sqlite3_column_int64(st, 1);
        p.ply = sqlite3_column_int(st, 2);
        p.fen = (const char *)sqlite3_column_text(st, 3);
        int64_t stm = sqlite3_column_int64(st, 4);
        p.stm = (int)stm;
        p.has_score = sqlite3_column_type(st, 5) != SQLITE_NULL;
        int64_t score = sqlite3_column_int64(st, 5);
        p.score = (int)score;
        int rtype = sqlite3_column_type(st, 6);
        p.result = rtype == SQLITE_NULL ? NAN : sqlite3_column_double(st, 6);
        p.quiet = sqlite3_column_int(st, 7) != 0;
        const char *bad = NULL;
        if (!p.fen)
            bad = "fen is NULL";
        else if (!is_int_or_null(st, 2))
            bad = "ply is not an integer";
        else if (sqlite3_column_type(st, 4) != SQLITE_INTEGER || (stm != 0 && stm != 1))
            bad = "stm is not 0 or 1";
        else if (!is_int_or_null(st, 5) || score < INT32_MIN || score > INT32_MAX)
            bad = "score is not an int32";
        else if (rtype != SQLITE_NULL && rtype != SQLITE_FLOAT && rtype != SQLITE_INTEGER)
            bad = "result is not a number";
        else if (!is_int_or_null(st, 7))
            bad = "quiet is not an integer";
        if (bad) {
            set_err(err, "%s: position %" PRId64 " (game %" PRId64 "): %s", db->path, p.id,
                    p.game_id, bad);
            out = -1;
            break;
        }
        int stop = fn(ctx, &p);
        if (stop != 0) {
            out = stop;
            break;
        }
        rc = SQLITE_OK;
    }
    if (out == 0 && rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading positions");
        out = -1;
    }
    (void)sqlite3_finalize(st); /* any error was reported above */
    return out;
}

int db_games_each(Db *db, const char *filter_sql,
                  int (*fn)(void *ctx, int64_t game_id, const DbGame *g), void *ctx,
                  char err[ERR_MAX])
{
    char *sql = filtered_sql("SELECT g.id, g.run_id, g.game_index, g.game, g.opening, g.start_fen, "
                             "g.white_ws, g.black_ws, g.seed, g.result, g.reason, g.plies, "
                             "g.movetext FROM games g WHERE",
                             filter_sql, "ORDER BY g.id");
    if (!sql) {
        set_err(err, "%s: reading games: out of memory", db->path);
        return -1;
    }
    sqlite3_stmt *st = NULL;
    int out = prepare_filtered(db, sql, filter_sql ? filter_sql : "", &st, err);
    free(sql);
    if (out != 0)
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        DbGame g = {0};
        int64_t id = sqlite3_column_int64(st, 0);
        g.run_id = sqlite3_column_int64(st, 1);
        g.game_index = sqlite3_column_int64(st, 2);
        g.game = (const char *)sqlite3_column_text(st, 3);
        g.opening = (const char *)sqlite3_column_text(st, 4);
        g.start_fen = (const char *)sqlite3_column_text(st, 5);
        g.white_ws = sqlite3_column_int64(st, 6);
        g.black_ws = sqlite3_column_int64(st, 7);
        g.seed = (uint64_t)sqlite3_column_int64(st, 8);
        g.result = (const char *)sqlite3_column_text(st, 9);
        g.reason = (const char *)sqlite3_column_text(st, 10);
        g.plies = sqlite3_column_int(st, 11);
        g.movetext = (const char *)sqlite3_column_text(st, 12);
        if (!is_int_or_null(st, 11) || !is_int_or_null(st, 8)) {
            set_err(err, "%s: game %" PRId64 ": plies or seed is not an integer", db->path, id);
            out = -1;
            break;
        }
        int stop = fn(ctx, id, &g);
        if (stop != 0) {
            out = stop;
            break;
        }
    }
    if (out == 0 && rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading games");
        out = -1;
    }
    (void)sqlite3_finalize(st);
    return out;
}

/* ---- the time each side used ---------------------------------------------- */

/* A's moves are White's in the games of even index and Black's in the
 * others (arena/match.h); B's the other way round. One row: untimed
 * games, then A's and B's moves, wall and CPU seconds (NULL sums: 0). */
static const char SQL_MATCH_TIMES[] =
    "SELECT count(*) - count(white_moves), "
    "total(CASE WHEN game_index % 2 = 0 THEN white_moves ELSE black_moves END), "
    "total(CASE WHEN game_index % 2 = 0 THEN white_wall_s ELSE black_wall_s END), "
    "total(CASE WHEN game_index % 2 = 0 THEN white_cpu_s ELSE black_cpu_s END), "
    "total(CASE WHEN game_index % 2 = 0 THEN black_moves ELSE white_moves END), "
    "total(CASE WHEN game_index % 2 = 0 THEN black_wall_s ELSE white_wall_s END), "
    "total(CASE WHEN game_index % 2 = 0 THEN black_cpu_s ELSE white_cpu_s END) "
    "FROM games WHERE run_id = ?1";
/* Per player id: untimed games, moves, wall and CPU seconds, over both colours. */
static const char SQL_PLAYER_TIMES[] =
    "SELECT player, count(*) - count(moves), total(moves), total(wall), total(cpu) FROM ("
    "SELECT white_player AS player, white_moves AS moves, white_wall_s AS wall, white_cpu_s AS cpu "
    "FROM games WHERE run_id = ?1 UNION ALL "
    "SELECT black_player, black_moves, black_wall_s, black_cpu_s FROM games WHERE run_id = ?1) "
    "WHERE player IS NOT NULL GROUP BY player";

/* The sums at columns at.. (moves, wall, cpu) of st. */
static TimeUse time_cols(sqlite3_stmt *st, int at)
{
    return (TimeUse){.moves = (int64_t)sqlite3_column_double(st, at), .wall_s = sqlite3_column_double(st, at + 1),
                     .cpu_s = sqlite3_column_double(st, at + 2)};
}

int db_run_match_times(Db *db, int64_t run_id, TimeUse sides[2], int64_t *untimed, char err[ERR_MAX])
{
    sides[0] = sides[1] = (TimeUse){0};
    *untimed = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_MATCH_TIMES, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        *untimed = sqlite3_column_int64(st, 0);
        sides[0] = time_cols(st, 1);
        sides[1] = time_cols(st, 4);
        rc = SQLITE_DONE;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the time used in run %" PRId64, run_id);
        out = -1;
    }
    stmt_done(st);
    return out;
}

int db_run_player_times(Db *db, int64_t run_id, const int64_t *players, int len, TimeUse *out, int64_t *untimed,
                        char err[ERR_MAX])
{
    for (int i = 0; i < len; i++)
        out[i] = (TimeUse){0};
    *untimed = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_PLAYER_TIMES, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t player = sqlite3_column_int64(st, 0);
        for (int i = 0; i < len; i++) {
            if (players[i] != player)
                continue;
            *untimed += sqlite3_column_int64(st, 1);
            out[i] = time_cols(st, 2);
        }
        rc = SQLITE_OK;
    }
    int res = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the time used in run %" PRId64, run_id);
        res = -1;
    }
    stmt_done(st);
    return res;
}
