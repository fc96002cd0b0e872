/* pdn_export.c — stored games as PDN 3.0; see pdn_export.h. */
#include "cli/pdn_export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdn/pdn.h"

int pdn_export_row(FILE *out, const DbGameRow *g, char err[ERR_MAX])
{
    const Game *game = game_find(g->game);
    if (!game) {
        snprintf(err, ERR_MAX, "game %" PRId64 ": unknown game '%.40s'", g->id, g->game);
        return -1;
    }
    char event[256], round[32];
    if (g->tournament_id)
        snprintf(event, sizeof event, "dama tournament %" PRId64 "%s%.180s%s", g->tournament_id,
                 g->tournament_name ? " (" : "", g->tournament_name ? g->tournament_name : "",
                 g->tournament_name ? ")" : "");
    else if (g->match_id)
        snprintf(event, sizeof event, "dama match %" PRId64, g->match_id);
    else
        snprintf(event, sizeof event, "dama %.40s run %" PRId64, g->run_kind, g->run_id);
    snprintf(round, sizeof round, "%" PRId64, (g->tournament_id ? g->round : g->game_index) + 1);
    PdnGameInfo info = {.game = game, .event = event, .site = "dama", .date = g->created, .round = round,
                        .white = g->white, .black = g->black, .result = g->result, .start_fen = g->start_fen,
                        .opening = g->opening, .termination = g->reason, .movetext = g->movetext};
    if (pdn_write_game_info(out, &info) != 0) {
        snprintf(err, ERR_MAX, "writing game %" PRId64 ": %s", g->id, strerror(errno));
        return -1;
    }
    return 0;
}

typedef struct ExportCtx {
    FILE *out;
    long games;
    char *err;
} ExportCtx;

static int export_one(void *ctx, const DbGameRow *g)
{
    ExportCtx *c = ctx;
    if (pdn_export_row(c->out, g, c->err) != 0) return -1;
    c->games++;
    return 0;
}

int pdn_export_file(const char *db_path, DbSelect select, int64_t id, const char *filter_sql, const char *out_path,
                    long *games, char err[ERR_MAX])
{
    *games = 0;
    Db *db = NULL;
    if (db_open(db_path, false, &db, err) != 0) return -1; /* a dama database, migrated */
    db_close(db);
    char tmp[1100] = "";
    FILE *out = stdout;
    if (out_path) {
        snprintf(tmp, sizeof tmp, "%.1000s.tmp.%ld", out_path, (long)getpid());
        out = fopen(tmp, "w");
        if (!out) {
            snprintf(err, ERR_MAX, "cannot write '%.200s': %s", tmp, strerror(errno));
            return -1;
        }
    }
    ExportCtx c = {.out = out, .err = err};
    int rc = db_game_rows_each(db_path, select, id, filter_sql, export_one, &c, err);
    if (rc > 0) rc = -1;
    if (fflush(out) != 0 && rc == 0) {
        snprintf(err, ERR_MAX, "writing '%.200s': %s", out_path ? out_path : "(stdout)", strerror(errno));
        rc = -1;
    }
    if (out_path) {
        if (fclose(out) != 0 && rc == 0) {
            snprintf(err, ERR_MAX, "writing '%.200s': %s", out_path, strerror(errno));
            rc = -1;
        }
        if (rc == 0 && rename(tmp, out_path) != 0) {
            snprintf(err, ERR_MAX, "cannot rename the temporary file to '%.150s': %s", out_path, strerror(errno));
            rc = -1;
        }
        if (rc != 0) remove(tmp);
    }
    *games = c.games;
    return rc;
}
