/* pdn_export.c — stored games as PDN 3.0; see pdn_export.h. */
#include "arena/pdn_export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/game_record.h"
#include "pdn/pdn.h"
#include "util/atomic_file.h"
#include "util/err.h"

int pdn_export_row(FILE *out, const DbGameRow *g, char err[ERR_MAX])
{
    const Game *game = game_find(g->game);
    if (!game) {
        snprintf(err, ERR_MAX, "game %" PRId64 ": unknown game '%.40s'", g->id, g->game);
        return -1;
    }
    /* a stored game is written only as it replays: a damaged row (a move
     * that is not legal, a start position that is none, fewer or more moves
     * than its plies) would be a PDN file no reader takes */
    GameRecord rec;
    char rerr[ERR_MAX];
    int rrc = pdn_stored_replay(game, g->start_fen, g->movetext, g->plies, 0, &rec, rerr);
    const char *rule_reason = NULL;
    Outcome rule = rrc == 0 ? game_record_outcome(&rec, &rule_reason, NULL) : OUTCOME_NONE;
    game_record_free(&rec);
    if (rrc != 0) {
        snprintf(err, ERR_MAX, "game %" PRId64 " does not replay: %.200s", g->id, rerr);
        return -1;
    }
    /* a result the rules contradict, or a tag value over two lines, is a
     * damaged row too (dama stores neither) */
    Outcome stored;
    if (rule != OUTCOME_NONE && g->result && pdn_result_parse(g->result, &stored) == 0 && stored != rule) {
        snprintf(err, ERR_MAX, "game %" PRId64 ": its result %.10s is not the one the rules gave, %s (%.20s): a "
                 "damaged row", g->id, g->result, outcome_pdn(rule), rule_reason ? rule_reason : "");
        return -1;
    }
    const char *values[] = {g->white, g->black, g->result, g->opening, g->reason, g->tournament_name,
                            g->start_fen, g->created};
    static const char *const fields[] = {"white player", "black player", "result", "opening", "reason",
                                         "tournament name", "start position", "date"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        for (const unsigned char *c = (const unsigned char *)values[i]; c && *c; c++)
            if (*c < 0x20 || *c == 0x7f) {
                snprintf(err, ERR_MAX, "game %" PRId64 ": its %s holds the control byte 0x%02x (a PDN tag is one "
                         "line): a damaged row", g->id, fields[i], *c);
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
        snprintf(err, ERR_MAX, "writing game %" PRId64 ": %s", g->id, err_write_text(errno));
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
                    bool replace, long *games, char err[ERR_MAX])
{
    *games = 0;
    Db *db = NULL;
    if (db_open_for_reading(db_path, &db, err) != 0) return -1; /* a dama database, migrated if writable */
    db_close(db);
    /* The file through the one atomic writer: replaced only with --force,
     * never the database itself (or its -wal / -shm). */
    AtomicOptions opts = {.replace = replace, .protect_db = db_path};
    AtomicFile af = {0};
    FILE *out = stdout;
    char aerr[ATOMIC_ERR_MAX];
    if (out_path) {
        if (atomic_file_open(&af, out_path, &opts, aerr) != 0) {
            snprintf(err, ERR_MAX, "%s", aerr);
            return -1;
        }
        out = af.f;
    }
    ExportCtx c = {.out = out, .err = err};
    int rc = db_game_rows_each(db_path, select, id, filter_sql, export_one, &c, err);
    if (rc > 0) rc = -1;
    if (!out_path && fflush(out) != 0 && rc == 0) {
        snprintf(err, ERR_MAX, "writing (stdout): %s", err_write_text(errno));
        rc = -1;
    }
    if (out_path) {
        if (rc == 0 && atomic_file_commit(&af, aerr) != 0) {
            snprintf(err, ERR_MAX, "%s", aerr);
            rc = -1;
        }
        if (rc != 0) atomic_file_abort(&af);
    }
    *games = c.games;
    return rc;
}
