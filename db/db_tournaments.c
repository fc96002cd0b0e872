/* db_tournaments.c — tournaments, participants and the read-only game
 * reader used by PDN export and ratings; see db.h. */
#include "db/db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_internal.h"

/* Prepare sql on db, run binder-free steps: a tiny statement helper. */
static sqlite3_stmt *prepare(Db *db, const char *sql, char err[ERR_MAX])
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "preparing \"%.60s\"", sql);
        return NULL;
    }
    return st;
}

static int bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
    return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

static int bind_id_or_null(sqlite3_stmt *st, int i, int64_t v)
{
    return v ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);
}

/* Step a write (bind status brc), finalize; own transaction when none is
 * open. A failure rolls back the open transaction (db.h's rule). */
static int write_one(Db *db, sqlite3_stmt *st, int brc, int64_t *id, const char *what, char err[ERR_MAX])
{
    bool own = !db_in_transaction(db);
    if (own && db_begin(db, err) != 0) {
        sqlite3_finalize(st);
        return -1;
    }
    int rc = brc == SQLITE_OK ? sqlite3_step(st) : brc;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "%s", what);
        sqlite3_finalize(st);
        db_rollback(db);
        return -1;
    }
    if (id) *id = sqlite3_last_insert_rowid(db->h);
    sqlite3_finalize(st);
    if (own && db_commit(db, err) != 0) return -1;
    return 0;
}

int db_tournament_insert(Db *db, const DbTournament *t, int64_t *id, char err[ERR_MAX])
{
    if (!t->format || (strcmp(t->format, "round-robin") && strcmp(t->format, "gauntlet"))) {
        set_err(err, "tournament format '%s': must be round-robin or gauntlet", t->format ? t->format : "(null)");
        db_rollback(db);
        return -1;
    }
    sqlite3_stmt *st = prepare(db,
                               "INSERT INTO tournaments(run_id, name, format, rounds, games_total, pdn_out) "
                               "VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                               err);
    if (!st) {
        db_rollback(db);
        return -1;
    }
    int rc = sqlite3_bind_int64(st, 1, t->run_id);
    if (rc == SQLITE_OK) rc = bind_text_or_null(st, 2, t->name);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 3, t->format, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 4, t->rounds);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 5, t->games_total);
    if (rc == SQLITE_OK) rc = bind_text_or_null(st, 6, t->pdn_out);
    return write_one(db, st, rc, id, "storing a tournament", err);
}

int db_tournament_pdn_out(Db *db, int64_t tid, char *out, size_t size, char err[ERR_MAX])
{
    out[0] = '\0';
    sqlite3_stmt *st = prepare(db, "SELECT pdn_out FROM tournaments WHERE id = ?1", err);
    if (!st) return -1;
    int rc = sqlite3_bind_int64(st, 1, tid);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        if (v && strlen(v) >= size) {
            set_err(err, "%s: tournament %" PRId64 ": its PDN file name is longer than %zu bytes", db_path(db), tid,
                    size - 1);
            sqlite3_finalize(st);
            return -1;
        }
        if (v) memcpy(out, v, strlen(v) + 1);
        rc = SQLITE_DONE;
    } else if (rc == SQLITE_DONE) {
        set_err(err, "%s: no tournament %" PRId64, db_path(db), tid);
        sqlite3_finalize(st);
        return -1;
    }
    if (rc != SQLITE_DONE)
        dbi_fail(db, rc, err, "reading the PDN file of tournament %" PRId64, tid);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int db_tournament_set_pdn_out(Db *db, int64_t tid, const char *path, char err[ERR_MAX])
{
    sqlite3_stmt *st = prepare(db, "UPDATE tournaments SET pdn_out = ?2 WHERE id = ?1", err);
    if (!st) return -1;
    int rc = sqlite3_bind_int64(st, 1, tid);
    if (rc == SQLITE_OK) rc = bind_text_or_null(st, 2, path);
    return write_one(db, st, rc, NULL, "storing the PDN file of a tournament", err);
}

int db_tournament_by_run(Db *db, int64_t run_id, int64_t *id, char err[ERR_MAX])
{
    *id = 0;
    sqlite3_stmt *st = prepare(db, "SELECT id FROM tournaments WHERE run_id = ?1", err);
    if (!st) return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) dbi_fail(db, rc, err, "looking up the tournament of run %" PRId64, run_id);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int db_tournament_find(Db *db, int64_t *id, int64_t *run_id, char err[ERR_MAX])
{
    int64_t want = *id;
    *id = *run_id = 0;
    sqlite3_stmt *st = prepare(db,
                               want > 0 ? "SELECT id, run_id FROM tournaments WHERE id = ?1"
                               : want < 0 ? "SELECT id, run_id FROM tournaments ORDER BY id DESC LIMIT 1"
                                          : "SELECT t.id, t.run_id FROM tournaments t JOIN runs r ON r.id = t.run_id "
                                            "WHERE r.status <> 'done' ORDER BY t.id DESC LIMIT 1",
                               err);
    if (!st) return -1;
    int rc = want > 0 ? sqlite3_bind_int64(st, 1, want) : SQLITE_OK;
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        *run_id = sqlite3_column_int64(st, 1);
        rc = SQLITE_DONE;
    }
    if (rc != SQLITE_DONE) dbi_fail(db, rc, err, "looking up a tournament");
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int db_participant_insert(Db *db, int64_t tid, const DbParticipant *p, int64_t *id, char err[ERR_MAX])
{
    if (!p->name || !p->kind || !p->spec || (strcmp(p->kind, "dama") && strcmp(p->kind, "hub"))) {
        set_err(err, "participant %d: name, kind (dama or hub) and spec are required", p->idx);
        db_rollback(db);
        return -1;
    }
    sqlite3_stmt *st = prepare(db,
                               "INSERT INTO participants(tournament_id, idx, name, kind, spec, limits, weight_set) "
                               "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                               err);
    if (!st) {
        db_rollback(db);
        return -1;
    }
    int rc = sqlite3_bind_int64(st, 1, tid);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 2, p->idx);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 3, p->name, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 4, p->kind, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 5, p->spec, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = bind_text_or_null(st, 6, p->limits);
    if (rc == SQLITE_OK) rc = bind_id_or_null(st, 7, p->weight_set);
    char what[128];
    snprintf(what, sizeof what, "storing participant '%.60s'", p->name);
    return write_one(db, st, rc, id, what, err);
}

int db_participants_each(Db *db, int64_t tid, int (*fn)(void *ctx, const DbParticipant *p), void *ctx,
                         char err[ERR_MAX])
{
    sqlite3_stmt *st = prepare(db,
                               "SELECT id, idx, name, kind, spec, limits, weight_set FROM participants "
                               "WHERE tournament_id = ?1 ORDER BY idx",
                               err);
    if (!st) return -1;
    int rc = sqlite3_bind_int64(st, 1, tid), out = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        DbParticipant p = {
            .id = sqlite3_column_int64(st, 0),
            .idx = sqlite3_column_int(st, 1),
            .name = (const char *)sqlite3_column_text(st, 2),
            .kind = (const char *)sqlite3_column_text(st, 3),
            .spec = (const char *)sqlite3_column_text(st, 4),
            .limits = (const char *)sqlite3_column_text(st, 5),
            .weight_set = sqlite3_column_int64(st, 6),
        };
        if (!p.name || !p.kind || !p.spec) {
            set_err(err, "%s: participant %" PRId64 ": name, kind or spec is NULL", db_path(db), p.id);
            out = -1;
            break;
        }
        if ((out = fn(ctx, &p)) != 0) break;
        rc = SQLITE_OK;
    }
    if (out == 0 && rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading participants");
        out = -1;
    }
    sqlite3_finalize(st);
    return out;
}

int db_game_set_players(Db *db, int64_t game_id, int64_t white_player, int64_t black_player, int round,
                        const char *detail, char err[ERR_MAX])
{
    sqlite3_stmt *st = prepare(db,
                               "UPDATE games SET white_player = ?2, black_player = ?3, round = ?4, detail = ?5 "
                               "WHERE id = ?1",
                               err);
    if (!st) {
        db_rollback(db);
        return -1;
    }
    int rc = sqlite3_bind_int64(st, 1, game_id);
    if (rc == SQLITE_OK) rc = bind_id_or_null(st, 2, white_player);
    if (rc == SQLITE_OK) rc = bind_id_or_null(st, 3, black_player);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 4, round);
    if (rc == SQLITE_OK) rc = bind_text_or_null(st, 5, detail);
    if (write_one(db, st, rc, NULL, "storing a game's players", err) != 0) return -1;
    if (sqlite3_changes(db->h) != 1) {
        set_err(err, "%s: storing a game's players: no game %" PRId64, db_path(db), game_id);
        db_rollback(db);
        return -1;
    }
    return 0;
}

/* ---- the read-only reader -------------------------------------------------- */

/* Only reading is allowed while a filter is compiled: no writes, pragmas,
 * attach, transactions or anything else. */
static int authorize_read(void *ctx, int action, const char *a, const char *b, const char *c, const char *d)
{
    (void)ctx, (void)a, (void)b, (void)c, (void)d;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    default:
        return SQLITE_DENY;
    }
}

int db_filter_check(const char *f, char err[ERR_MAX])
{
    if (!f || !f[strspn(f, " \t\r\n")]) {
        set_err(err, "an empty filter");
        return -1;
    }
    int depth = 0;
    for (const char *s = f; *s; s++) {
        char q = *s;
        if (q == '\'' || q == '"' || q == '`' || q == '[') {
            char close = q == '[' ? ']' : q;
            for (s++; *s && !(*s == close && s[1] != close); s++)
                if (*s == close) s++; /* doubled quote */
            if (!*s) {
                set_err(err, "filter '%.80s': unterminated quote", f);
                return -1;
            }
            continue;
        }
        if (q == ';' || (q == '-' && s[1] == '-') || (q == '/' && s[1] == '*')) {
            set_err(err, "filter '%.80s': must be one SQL condition (no ';' or comments)", f);
            return -1;
        }
        if (q == '(') depth++;
        if (q == ')' && --depth < 0) {
            set_err(err, "filter '%.80s': unbalanced ')'", f);
            return -1;
        }
    }
    if (depth != 0) {
        set_err(err, "filter '%.80s': unbalanced '('", f);
        return -1;
    }
    return 0;
}

int db_game_rows_each(const char *path, DbSelect select, int64_t id, const char *filter_sql,
                      int (*fn)(void *ctx, const DbGameRow *g), void *ctx, char err[ERR_MAX])
{
    static const char head[] =
        "SELECT g.id, g.run_id, g.game_index, coalesce(g.round, g.game_index), coalesce(t.id, 0), "
        "coalesce((SELECT m.id FROM matches m WHERE m.run_id = g.run_id ORDER BY m.id LIMIT 1), 0), "
        "r.kind, g.game, g.opening, g.start_fen, "
        "coalesce(pw.name, 'weight set ' || g.white_ws), coalesce(pb.name, 'weight set ' || g.black_ws), "
        "g.result, g.reason, g.movetext, g.created, t.name, g.detail, g.plies, r.config "
        "FROM games g JOIN runs r ON r.id = g.run_id "
        "LEFT JOIN tournaments t ON t.run_id = g.run_id "
        "LEFT JOIN participants pw ON pw.id = g.white_player "
        "LEFT JOIN participants pb ON pb.id = g.black_player WHERE ";
    const char *cond = "1";
    const char *what = "run";
    switch (select) {
    case DB_SELECT_ALL: cond = "1"; break;
    case DB_SELECT_RUN: cond = "g.run_id = ?1"; what = "run"; break;
    case DB_SELECT_MATCH: cond = "g.run_id = (SELECT run_id FROM matches WHERE id = ?1)"; what = "match"; break;
    case DB_SELECT_TOURNAMENT: cond = "g.run_id = (SELECT run_id FROM tournaments WHERE id = ?1)"; what = "tournament"; break;
    case DB_SELECT_FILTER:
        if (db_filter_check(filter_sql, err) != 0) return -1;
        cond = filter_sql;
        break;
    default: set_err(err, "bad game selection %d", (int)select); return -1;
    }
    size_t n = strlen(head) + strlen(cond) + 32;
    char *sql = malloc(n);
    if (!sql) {
        set_err(err, "out of memory");
        return -1;
    }
    snprintf(sql, n, "%s(%s) ORDER BY g.id", head, cond);
    sqlite3 *h = NULL;
    int rc;
    sqlite3_stmt *st = NULL;
    int out = 0;
    unsigned sidecars = 0;
    if (dbi_open_read_handle(path, DB_BUSY_TIMEOUT_MS, &h, &sidecars, err) != 0) {
        out = -1;
        goto done;
    }
    if (select == DB_SELECT_MATCH || select == DB_SELECT_TOURNAMENT || select == DB_SELECT_RUN) {
        static const char *const exists[] = {[DB_SELECT_RUN] = "SELECT count(*) FROM runs WHERE id = ?1",
                                             [DB_SELECT_MATCH] = "SELECT count(*) FROM matches WHERE id = ?1",
                                             [DB_SELECT_TOURNAMENT] = "SELECT count(*) FROM tournaments WHERE id = ?1"};
        rc = sqlite3_prepare_v2(h, exists[select], -1, &st, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 1, id);
        if (rc == SQLITE_OK) rc = sqlite3_step(st); /* a damaged page fails here, never taken for a row */
        if (rc == SQLITE_ROW && sqlite3_column_int64(st, 0) == 0) {
            set_err(err, "%s: no %s %" PRId64, path, what, id);
            out = -1;
        } else if (rc != SQLITE_ROW) {
            dbi_read_fail(path, h, rc, err, "looking up %s %" PRId64, what, id);
            out = -1;
        }
        sqlite3_finalize(st);
        st = NULL;
        if (out) goto done;
    }
    if (select == DB_SELECT_FILTER) sqlite3_set_authorizer(h, authorize_read, NULL);
    const char *tail = NULL;
    rc = sqlite3_prepare_v2(h, sql, -1, &st, &tail);
    if (select == DB_SELECT_FILTER) sqlite3_set_authorizer(h, NULL, NULL);
    if (rc != SQLITE_OK || (tail && *tail) || !sqlite3_stmt_readonly(st)) {
        if (select == DB_SELECT_FILTER)
            set_err(err, "%s: filter '%.80s': %s", path, filter_sql,
                    rc != SQLITE_OK ? sqlite3_errmsg(h) : "must be one read-only SQL condition");
        else
            dbi_read_fail(path, h, rc, err, "reading games");
        out = -1;
        goto done;
    }
    if (select != DB_SELECT_ALL && select != DB_SELECT_FILTER) sqlite3_bind_int64(st, 1, id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        DbGameRow g = {
            .id = sqlite3_column_int64(st, 0),
            .run_id = sqlite3_column_int64(st, 1),
            .game_index = sqlite3_column_int64(st, 2),
            .round = sqlite3_column_int64(st, 3),
            .tournament_id = sqlite3_column_int64(st, 4),
            .match_id = sqlite3_column_int64(st, 5),
            .run_kind = (const char *)sqlite3_column_text(st, 6),
            .game = (const char *)sqlite3_column_text(st, 7),
            .opening = (const char *)sqlite3_column_text(st, 8),
            .start_fen = (const char *)sqlite3_column_text(st, 9),
            .white = (const char *)sqlite3_column_text(st, 10),
            .black = (const char *)sqlite3_column_text(st, 11),
            .result = (const char *)sqlite3_column_text(st, 12),
            .reason = (const char *)sqlite3_column_text(st, 13),
            .movetext = (const char *)sqlite3_column_text(st, 14),
            .created = (const char *)sqlite3_column_text(st, 15),
            .tournament_name = (const char *)sqlite3_column_text(st, 16),
            .detail = (const char *)sqlite3_column_text(st, 17),
            .plies = sqlite3_column_int(st, 18),
        };
        if (!g.game || !g.run_kind) {
            set_err(err, "%s: game %" PRId64 ": no game name", path, g.id);
            out = -1;
            break;
        }
        /* a side without a weight set or a participant: a match's Hub engine or DXP program, named
         * by its command or address (game 2p: A plays White), so that two engines are never one "?" */
        char names[2][DB_SIDE_NAME_MAX];
        const char *config = (const char *)sqlite3_column_text(st, 19);
        for (int c = 0; c < 2; c++) {
            const char **name = c ? &g.black : &g.white;
            if (*name) continue;
            if (strcmp(g.run_kind, "match") == 0)
                db_match_side_name(config, (int)(g.game_index % 2) ^ c, 0, names[c], sizeof names[c]);
            else snprintf(names[c], sizeof names[c], "?");
            *name = names[c];
        }
        if ((out = fn(ctx, &g)) != 0) break;
    }
    if (out == 0 && rc != SQLITE_DONE) {
        if (select == DB_SELECT_FILTER && (rc & 0xff) != SQLITE_CORRUPT)
            set_err(err, "%s: filter '%.80s': %s", path, filter_sql, sqlite3_errmsg(h));
        else
            dbi_read_fail(path, h, rc, err, "reading games");
        out = -1;
    }
done:
    sqlite3_finalize(st);
    if (h) dbi_close_read_handle(h, path, sidecars);
    free(sql);
    return out;
}
