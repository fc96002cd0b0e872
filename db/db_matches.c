/* db_matches.c — the matches table (contracts in db.h). */
#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/db_internal.h"

static const char SQL_MATCH_INSERT[] =
    "INSERT INTO matches(run_id, game, ws_a, ws_b, games, wins, draws, losses, "
    "penta0, penta1, penta2, penta3, penta4, elo, elo_lo, elo_hi, llr, "
    "sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, sprt_result, sprt_llr, sprt_pairs) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
    "?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)";
static const char SQL_MATCH_UPDATE[] =
    "UPDATE matches SET run_id = ?1, game = ?2, ws_a = ?3, ws_b = ?4, "
    "games = ?5, wins = ?6, draws = ?7, losses = ?8, penta0 = ?9, "
    "penta1 = ?10, penta2 = ?11, penta3 = ?12, penta4 = ?13, elo = ?14, "
    "elo_lo = ?15, elo_hi = ?16, llr = ?17, sprt_elo0 = ?18, "
    "sprt_elo1 = ?19, sprt_alpha = ?20, sprt_beta = ?21, "
    "sprt_result = ?22, sprt_llr = ?23, sprt_pairs = ?24 WHERE id = ?25";
static const char SQL_MATCH_OF_RUN[] = "SELECT id, ws_a, ws_b FROM matches WHERE run_id = ?1 ORDER BY id LIMIT 1";

/* ---- matches -------------------------------------------------------------- */

static void bind_match(sqlite3_stmt *st, const void *row, int *rc)
{
    const DbMatch *m = row;
    bind_id(st, 1, m->run_id, rc);
    bind_text(st, 2, m->game, rc);
    bind_id(st, 3, m->ws_a, rc);
    bind_id(st, 4, m->ws_b, rc);
    bind_i64(st, 5, m->games, rc);
    bind_i64(st, 6, m->wins, rc);
    bind_i64(st, 7, m->draws, rc);
    bind_i64(st, 8, m->losses, rc);
    for (int i = 0; i < 5; i++)
        bind_i64(st, 9 + i, m->penta[i], rc);
    bind_real(st, 14, m->elo, rc);
    bind_real(st, 15, m->elo_lo, rc);
    bind_real(st, 16, m->elo_hi, rc);
    bind_real(st, 17, m->llr, rc);
    bind_real(st, 18, m->sprt_elo0, rc);
    bind_real(st, 19, m->sprt_elo1, rc);
    bind_real(st, 20, m->sprt_alpha, rc);
    bind_real(st, 21, m->sprt_beta, rc);
    bind_text(st, 22, m->sprt_result, rc);
    /* the deciding LLR only with its pair count: NULL while undecided */
    bind_real(st, 23, m->sprt_pairs > 0 ? m->sprt_llr : 0.0 / 0.0, rc);
    if (m->sprt_pairs > 0) bind_i64(st, 24, m->sprt_pairs, rc);
    else if (*rc == SQLITE_OK) *rc = sqlite3_bind_null(st, 24);
}

int db_match_insert(Db *db, const DbMatch *m, int64_t *id, char err[ERR_MAX])
{
    return write_end(db, dbi_row_insert(db, SQL_MATCH_INSERT, bind_match, m, id, "storing a match", err));
}

int db_match_update(Db *db, int64_t id, const DbMatch *m, char err[ERR_MAX])
{
    return write_end(db, dbi_row_update(db, SQL_MATCH_UPDATE, bind_match, m, 25, id, "match", err));
}

int db_match_of_run(Db *db, int64_t run_id, int64_t *id, int64_t ws[2], char err[ERR_MAX])
{
    *id = ws[0] = ws[1] = 0;
    sqlite3_stmt *st = dbi_stmt(db, SQL_MATCH_OF_RUN, err);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        ws[0] = sqlite3_column_int64(st, 1); /* NULL reads 0 */
        ws[1] = sqlite3_column_int64(st, 2);
        rc = SQLITE_DONE;
    }
    int out = 0;
    if (rc != SQLITE_DONE) {
        dbi_fail(db, rc, err, "reading the match of run %" PRId64, run_id);
        out = -1;
    }
    stmt_done(st);
    return out;
}

const char *db_config_value(const char *config, const char *key, size_t *len)
{
    size_t klen = strlen(key);
    for (const char *p = config; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > klen + 3 && memcmp(p, key, klen) == 0 && memcmp(p + klen, " = ", 3) == 0) {
            *len = n - klen - 3;
            return p + klen + 3;
        }
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

/* Config value key of side (0: A, 1: B) into out, cut as db_match_side_name says; false when absent. */
static bool side_value(const char *config, int side, const char *what, size_t shown, char *out, size_t size)
{
    char key[8];
    size_t n = 0;
    snprintf(key, sizeof key, "%c-%s", 'a' + side, what);
    const char *v = db_config_value(config, key, &n);
    if (!v) return false;
    size_t keep = n;
    if (shown && n > shown) {
        keep = shown;
        while (keep > 0 && ((unsigned char)v[keep] & 0xC0) == 0x80) keep--;
    }
    snprintf(out, size, "%.*s%s", (int)keep, v, keep < n ? "…" : "");
    return true;
}

void db_match_side_name(const char *config, int side, size_t shown, char *out, size_t size)
{
    char dxp[DB_SIDE_NAME_MAX], cmd[DB_SIDE_NAME_MAX];
    bool is_dxp = side_value(config, side, "dxp", shown, dxp, sizeof dxp);
    bool has_cmd = side_value(config, side, "cmd", shown, cmd, sizeof cmd);
    if (is_dxp && has_cmd) snprintf(out, size, "DXP %s started by '%s'", dxp, cmd);
    else if (is_dxp) snprintf(out, size, "DXP %s", dxp);
    else if (has_cmd) snprintf(out, size, "Hub '%s'", cmd);
    else snprintf(out, size, "external engine");
}
