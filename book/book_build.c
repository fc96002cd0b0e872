/* book_build.c — growing a move book from stored games; see book_build.h. */
#include "book/book_build.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "engine/game_record.h"
#include "pdn/pdn.h"

typedef struct BuildCtx {
    MoveBook *b;
    const BookBuildOptions *o;
    BookBuildStats *st;
    char *err;
} BuildCtx;

/* White's result of a stored game: 1, 0.5 or 0; -1 when none. */
static double white_result(const char *r)
{
    if (!r) return -1;
    if (strcmp(r, "1-0") == 0) return 1;
    if (strcmp(r, "0-1") == 0) return 0;
    if (strcmp(r, "1/2-1/2") == 0) return 0.5;
    return -1;
}

static bool fault_reason(const char *reason)
{
    static const char *const faults[] = {"crash", "timeout", "time-forfeit", "illegal-move"};
    for (size_t i = 0; reason && i < sizeof faults / sizeof *faults; i++)
        if (strcmp(reason, faults[i]) == 0) return true;
    return false;
}

/* Replay the first max_ply moves of g (pdn_stored_replay), counting each. */
static int replay(BuildCtx *c, const DbGameRow *g, double white)
{
    const Game *game = c->o->game;
    GameRecord rec;
    char perr[ERR_MAX];
    int rc = 0;
    if (pdn_stored_replay(game, g->start_fen, g->movetext, g->plies, c->o->max_ply, &rec, perr) != 0)
        rc = err_set(c->err, "game %" PRId64 ": %s", g->id, perr);
    for (int ply = 0; rc == 0 && ply < rec.len; ply++) {
        const Position *pos = &rec.positions[ply];
        double mover = game->side_to_move(pos) == COLOR_WHITE ? white : 1.0 - white;
        rc = book_add(c->b, pos, &rec.moves[ply], 1, mover, c->err);
    }
    game_record_free(&rec);
    return rc;
}

static int each_game(void *ctx, const DbGameRow *g)
{
    BuildCtx *c = ctx;
    c->st->games++;
    double white = white_result(g->result);
    if (white < 0 || fault_reason(g->reason)) {
        c->st->skipped++;
        return 0;
    }
    return replay(c, g, white) != 0 ? -1 : 0;
}

/* Drop the moves of e that fail the options. */
static void prune_entry(BookEntry *e, const BookBuildOptions *o)
{
    double best = -1;
    for (int i = 0; i < e->len; i++)
        if (e->moves[i].games >= o->min_games && e->moves[i].score > best) best = e->moves[i].score;
    int k = 0;
    for (int i = 0; i < e->len; i++) {
        const BookMove *m = &e->moves[i];
        if (m->games >= o->min_games && m->score >= o->min_score && m->score >= best - o->margin - 1e-12)
            e->moves[k++] = *m;
    }
    e->len = k;
}

static void prune(MoveBook *b, const BookBuildOptions *o, BookBuildStats *st)
{
    for (int64_t i = 0; i < b->cap; i++) {
        BookEntry *e = &b->slots[i];
        if (!e->fen) continue;
        st->moves_seen += e->len;
        prune_entry(e, o);
        if (e->len) {
            st->positions++;
            st->moves += e->len;
        }
    }
}

int book_build(MoveBook *b, const BookBuildOptions *o, BookBuildStats *st, char err[ERR_MAX])
{
    book_init(b, o->game);
    memset(st, 0, sizeof *st);
    if (o->max_ply < 1 || o->max_ply > BOOK_PLY_MAX) return err_set(err, "--max-ply must be 1..%d", BOOK_PLY_MAX);
    if (o->min_games < 1) return err_set(err, "--min-games must be at least 1");
    if (!(o->min_score >= 0 && o->min_score <= 1)) return err_set(err, "--min-score must be 0..1");
    if (!(o->margin >= 0 && o->margin <= 1)) return err_set(err, "--margin must be 0..1");
    Db *db = NULL;
    if (db_open_for_reading(o->db_path, &db, err) != 0) return -1;
    db_close(db);
    char filter[128];
    snprintf(filter, sizeof filter, "g.game = '%s'", o->game->name); /* a registry name: letters only */
    BuildCtx c = {.b = b, .o = o, .st = st, .err = err};
    int rc = db_game_rows_each(o->db_path, DB_SELECT_FILTER, 0, filter, each_game, &c, err);
    if (rc != 0) return -1;
    prune(b, o, st);
    return 0;
}
