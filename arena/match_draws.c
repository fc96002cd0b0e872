/* match_draws.c — who held the larger material in the few-piece rule draws
 * of a match (contracts in arena/match_draws.h). */
#include "arena/match_draws.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "db/db.h"
#include "engine/egtb/egtb.h"
#include "engine/game_record.h"
#include "pdn/pdn.h"

typedef struct Counting {
    MatchDraws *d;
    const Game *game;
    const EgtbIndexer *ix;
    const Egtb *egtb;   /* NULL: no missed-win count */
    EgtbCache *cache;
    bool won[2];        /* the game being replayed: a database win for White, Black seen */
    MatchDrawsGame seen; /* where each was first seen (for MatchDraws.on_missed_game) */
    int ply;            /* of the position being probed */
    MatchDrawsMissedFn on_missed; /* a tournament's: each drawn game's wins, instead of d->missed */
    void *ctx;
    char *err;
} Counting;

/* A position of a drawn game being replayed: a database win for the side
 * to move that the move-count rules leave winnable (egtb_verdict, with the
 * replayed counters) is noted in c->won. */
static void probe_position(Counting *c, const Position *pos)
{
    uint8_t v;
    if (!egtb_probe(c->egtb, c->cache, pos, &v) || egtb_verdict(c->egtb, pos, v) != EGTB_WIN) return;
    Color side = c->game->side_to_move(pos);
    if (!c->won[side] && c->d->on_missed_game) {
        c->seen.ply[side] = c->ply;
        c->seen.dist[side] = egtb_dist(v);
        c->game->pos_to_fen(pos, c->seen.fen[side]);
    }
    c->won[side] = true;
}

/* Replay the stored game (pdn_stored_replay) from its start position,
 * probing every position when probe (c->egtb); 0, or -1 with c->err naming
 * the game (rec freed). */
static int final_position(Counting *c, const DbGameRow *g, GameRecord *rec, bool probe)
{
    char err[ERR_MAX];
    if (pdn_stored_replay(c->game, g->start_fen, g->movetext, g->plies, 0, rec, err) != 0) {
        snprintf(c->err, ERR_MAX, "game %lld: %.230s", (long long)g->id, err);
        game_record_free(rec);
        return -1;
    }
    for (c->ply = 0; probe && c->ply <= rec->len; c->ply++) probe_position(c, &rec->positions[c->ply]);
    c->ply = rec->len;
    return 0;
}

static int count_draw(void *ctx, const DbGameRow *g)
{
    Counting *c = ctx;
    MatchDraws *d = c->d;
    d->games++;
    if (!g->result || strcmp(g->result, "1/2-1/2") != 0 || !g->reason) return 0;
    if (!g->game || strcmp(g->game, c->game->name) != 0) {
        snprintf(c->err, ERR_MAX, "game %lld is %s, not %s (give --game)", (long long)g->id, g->game ? g->game : "?",
                 c->game->name);
        return -1;
    }
    int s = 0;
    while (s < d->seen_len && strncmp(d->seen[s], g->reason, MATCH_DRAW_REASON_LEN - 1) != 0) s++;
    if (s == d->seen_len && s < MATCH_DRAW_REASONS_MAX)
        snprintf(d->seen[d->seen_len++], MATCH_DRAW_REASON_LEN, "%s", g->reason);
    int r = -1;
    for (int i = 0; i < d->reasons_len; i++)
        if (strcmp(g->reason, d->reasons[i]) == 0) r = i;
    if (r < 0 && !c->egtb) return 0;
    GameRecord rec;
    c->won[0] = c->won[1] = false;
    if (final_position(c, g, &rec, c->egtb != NULL) != 0) return -1;
    int cmp = egtb_material_compare(c->ix->material(game_record_position(&rec)));
    game_record_free(&rec);
    /* match games: A has White in the even games (arena/match.c) */
    bool a_white = g->game_index % 2 == 0;
    if (c->egtb && c->on_missed) {
        c->on_missed(c->ctx, g->game_index, c->won);
    } else if (c->egtb) {
        d->drawn++;
        if (c->won[COLOR_WHITE]) d->missed[a_white ? 0 : 1]++;
        if (c->won[COLOR_BLACK]) d->missed[a_white ? 1 : 0]++;
        if (d->on_missed_game && (c->won[COLOR_WHITE] || c->won[COLOR_BLACK])) {
            c->seen.game_index = g->game_index;
            c->seen.reason = g->reason;
            c->seen.plies = c->ply;
            c->seen.won[0] = c->won[0], c->seen.won[1] = c->won[1];
            d->on_missed_game(d->missed_ctx, &c->seen);
        }
    }
    if (r < 0) return 0;
    int who = cmp == 0 ? 2 : (cmp > 0) == a_white ? 0 : 1;
    d->count[r][who]++;
    d->count[MATCH_DRAW_REASONS_MAX][who]++;
    d->draws++;
    return 0;
}

/* The walk of match_draws_count over the games of select id. */
static int count_games(const char *db_path, DbSelect select, int64_t id, Counting c, char err[ERR_MAX])
{
    const Game *game = c.game;
    c.ix = egtb_indexer(game);
    c.err = err;
    if (!c.ix) {
        snprintf(err, ERR_MAX, "no endgame database indexing for %s", game->name);
        return -1;
    }
    if (c.egtb && !(c.cache = egtb_cache_new(1024))) {
        snprintf(err, ERR_MAX, "out of memory for the endgame database's cache");
        return -1;
    }
    Db *db = NULL;
    if (db_open_for_reading(db_path, &db, err) != 0) {
        egtb_cache_free(c.cache);
        return -1;
    }
    db_close(db);
    char gerr[ERR_MAX];
    c.err = gerr;
    int rc = db_game_rows_each(db_path, select, id, NULL, count_draw, &c, gerr);
    egtb_cache_free(c.cache);
    if (rc != 0) { /* the reader's own messages name the file already, a game's do not */
        size_t n = strlen(db_path);
        bool named = strncmp(gerr, db_path, n) == 0 && gerr[n] == ':';
        if (named) snprintf(err, ERR_MAX, "%s", gerr);
        else { /* all of both when they fit */
            int elen = (int)strlen(gerr), plen = (int)n;
            if (plen + 2 + elen > ERR_MAX - 1) plen = ERR_MAX - 3 - elen > 0 ? ERR_MAX - 3 - elen : 0;
            snprintf(err, ERR_MAX, "%.*s: %.*s", plen, db_path, elen, gerr);
        }
        return -1;
    }
    char dpath[4096], dwhy[ERR_MAX];
    if (c.egtb && egtb_damage(c.egtb, dpath, dwhy) > 0) { /* its positions read as outside: wins not counted */
        snprintf(err, ERR_MAX, "endgame table %.100s: %.60s: the missed wins cannot be counted; rebuild it (dama egtb "
                 "build)", dpath, dwhy);
        return -1;
    }
    return 0;
}

int match_draws_count(const char *db_path, const Game *game, int64_t match_id, const Egtb *egtb, MatchDraws *d,
                      char err[ERR_MAX])
{
    return count_games(db_path, DB_SELECT_MATCH, match_id, (Counting){.d = d, .game = game, .egtb = egtb}, err);
}

int match_draws_missed_tournament(const char *db_path, const Game *game, int64_t tournament_id, const Egtb *egtb,
                                  MatchDrawsMissedFn fn, void *ctx, char err[ERR_MAX])
{
    MatchDraws d;
    memset(&d, 0, sizeof d); /* no reasons: only the missed wins */
    Counting c = {.d = &d, .game = game, .egtb = egtb, .on_missed = fn, .ctx = ctx};
    return count_games(db_path, DB_SELECT_TOURNAMENT, tournament_id, c, err);
}

void match_draws_print_missed(FILE *out, int64_t drawn, const int64_t missed[2], const char *dir)
{
    fprintf(out, "missed wins: of %lld drawn games, %lld passed through a database win for A, %lld for B (%s)\n",
            (long long)drawn, (long long)missed[0], (long long)missed[1], dir);
}
