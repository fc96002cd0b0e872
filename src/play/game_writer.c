/* game_writer.c — finished games on their way to the database, in batched
 * transactions (contracts in play/game_writer.h). */
#include "play/game_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "util/clock.h"

struct GamePending {
    DbGame game;
    DbPosition *positions;
    char *fens; /* plies * FEN_MAX */
    char *movetext;
    char opening[64];
    char start_fen[FEN_MAX];
    char detail[PLAYER_DETAIL_MAX]; /* the fault's detail, "" if none */
};

static void pending_free(GamePending *p)
{
    if (!p) return;
    free(p->positions);
    free(p->fens);
    free(p->movetext);
    free(p);
}

static GamePending *pending_make(const Game *g, const PlayRecord *rec, const DbGame *meta)
{
    GamePending *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    int n = rec->plies;
    p->positions = calloc((size_t)(n ? n : 1), sizeof(DbPosition));
    p->fens = malloc((size_t)(n ? n : 1) * FEN_MAX);
    p->movetext = strdup(rec->movetext ? rec->movetext : "");
    if (!p->positions || !p->fens || !p->movetext) {
        pending_free(p);
        return NULL;
    }
    double result = outcome_score_white(rec->outcome) / 2.0;
    for (int i = 0; i < n; i++) {
        char *fen = p->fens + (size_t)i * FEN_MAX;
        g->pos_to_fen(&rec->positions[i], fen);
        p->positions[i] = (DbPosition){.ply = i, .fen = fen, .stm = g->side_to_move(&rec->positions[i]),
                                       .score = rec->scores[i], .has_score = true, .result = result,
                                       .quiet = rec->quiet[i]};
    }
    p->game = *meta;
    snprintf(p->opening, sizeof p->opening, "%s", meta->opening ? meta->opening : "");
    snprintf(p->start_fen, sizeof p->start_fen, "%s", meta->start_fen ? meta->start_fen : "");
    p->game.opening = p->opening;
    p->game.start_fen = p->start_fen;
    p->game.result = outcome_pdn(rec->outcome);
    p->game.reason = rec->reason;
    p->game.plies = n;
    p->game.movetext = p->movetext;
    snprintf(p->detail, sizeof p->detail, "%s", rec->detail);
    p->game.detail = p->detail[0] ? p->detail : NULL;
    p->game.positions = p->positions;
    p->game.positions_len = n;
    return p;
}

int game_writer_init(GameWriter *w, Db *db, int batch, double flush_interval_s)
{
    memset(w, 0, sizeof *w);
    w->db = db;
    w->batch = batch > 0 ? batch : 1;
    w->flush_interval_s = flush_interval_s;
    w->last_flush = clock_now_s();
    w->pending = calloc((size_t)w->batch, sizeof *w->pending);
    if (!w->pending) {
        snprintf(w->err, ERR_MAX, "out of memory");
        w->failed = true;
        return -1;
    }
    return 0;
}

int game_writer_flush(GameWriter *w)
{
    if (w->failed) return -1;
    if (w->len == 0) return 0;
    int rc = db_begin(w->db, w->err);
    for (int i = 0; rc == 0 && i < w->len; i++) rc = db_game_insert(w->db, &w->pending[i]->game, NULL, w->err);
    if (rc == 0) rc = db_commit(w->db, w->err);
    if (rc != 0) {
        db_rollback(w->db);
        w->failed = true;
    } else {
        w->stored += w->len;
    }
    for (int i = 0; i < w->len; i++) pending_free(w->pending[i]);
    w->len = 0;
    w->last_flush = clock_now_s();
    return rc;
}

int game_writer_add(GameWriter *w, const Game *g, const PlayRecord *rec, const DbGame *meta)
{
    if (w->failed) return -1;
    GamePending *p = pending_make(g, rec, meta);
    if (!p) {
        snprintf(w->err, ERR_MAX, "out of memory");
        w->failed = true;
        return -1;
    }
    w->pending[w->len++] = p;
    if (w->len == w->batch || clock_now_s() - w->last_flush >= w->flush_interval_s) return game_writer_flush(w);
    return 0;
}

void game_writer_free(GameWriter *w)
{
    for (int i = 0; i < w->len; i++) pending_free(w->pending[i]);
    free(w->pending);
    memset(w, 0, sizeof *w);
}
