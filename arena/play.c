/* play.c — one engine-vs-engine game, recorded move by move. */
#include "arena/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game_record.h"
#include "engine/search.h"
#include "pdn/pdn.h"
#include "util/rng.h"

int play_record_init(PlayRecord *r)
{
    memset(r, 0, sizeof *r);
    r->positions = malloc(sizeof(Position) * PLAY_PLIES_MAX);
    r->scores = malloc(sizeof(int32_t) * PLAY_PLIES_MAX);
    r->quiet = malloc(sizeof(bool) * PLAY_PLIES_MAX);
    if (!r->positions || !r->scores || !r->quiet) {
        play_record_free(r);
        return -1;
    }
    return 0;
}

void play_record_free(PlayRecord *r)
{
    free(r->positions);
    free(r->scores);
    free(r->quiet);
    free(r->movetext);
    memset(r, 0, sizeof *r);
}

int play_game(const Game *g, Engine *engines[2], const Position *start, const PlaySettings *s, volatile int *stop,
              PlayRecord *r, char err[ERR_MAX])
{
    PlayerLimits lim = {.nodes = s->nodes, .depth = s->depth};
    if (s->limits.movetime_ms > 0 || s->limits.time_ms > 0) lim = s->limits;
    Player p[2];
    player_wrap_engine(&p[0], g, engines[0], &lim);
    player_wrap_engine(&p[1], g, engines[1], &lim);
    Player *players[2] = {&p[0], &p[1]};
    return play_game_players(g, players, start, s, stop, r, err);
}

static void end_by_fault(PlayRecord *r, Color side, PlayerFault f, const char *detail)
{
    r->outcome = side == COLOR_WHITE ? OUTCOME_BLACK_WINS : OUTCOME_WHITE_WINS;
    r->reason = player_fault_reason(f);
    r->fault = f;
    r->fault_side = side;
    snprintf(r->detail, sizeof r->detail, "%s", detail);
}

int play_game_players(const Game *g, Player *players[2], const Position *start, const PlaySettings *s,
                      volatile int *stop, PlayRecord *r, char err[ERR_MAX])
{
    char fen[FEN_MAX];
    g->pos_to_fen(start, fen);
    GameRecord gr;
    if (game_record_init(&gr, g, fen, err) != 0) return -1;
    PdnMovetext mt;
    if (pdn_movetext_init(&mt, g->side_to_move(start), game_first_mover(g)) != 0) {
        game_record_free(&gr);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    r->plies = 0;
    r->nodes = 0;
    r->engine_seconds = 0;
    for (int c = 0; c < 2; c++) r->moves[c] = 0, r->wall_s[c] = 0, r->cpu_s[c] = 0, r->book_moves[c] = 0;
    r->outcome = OUTCOME_NONE;
    r->reason = NULL;
    r->fault = PLAYER_OK;
    r->detail[0] = '\0';
    int rc = 0;
    int max_plies = s->max_plies > 0 && s->max_plies < PLAY_PLIES_MAX ? s->max_plies : PLAY_PLIES_MAX;
    int64_t clock[2];
    int resign_count[2] = {0, 0}, draw_count = 0;
    const PlayAdjudication *adj = &s->adj;
    for (int c = 0; c < 2 && r->outcome == OUTCOME_NONE; c++) {
        clock[c] = players[c]->limits.time_ms;
        char detail[PLAYER_DETAIL_MAX];
        PlayerFault f = player_new_game(players[c], detail);
        if (f == PLAYER_STOPPED) rc = 1;
        else if (f != PLAYER_OK) end_by_fault(r, (Color)c, f, detail);
    }
    while (rc == 0 && r->outcome == OUTCOME_NONE) {
        const char *reason = NULL;
        Outcome o = game_record_outcome(&gr, &reason, NULL);
        if (o != OUTCOME_NONE) {
            r->outcome = o;
            r->reason = reason;
            break;
        }
        if (s->adjudicate && (o = s->adjudicate(s->adjudicate_ctx, game_record_position(&gr), &reason)) != OUTCOME_NONE) {
            r->outcome = o;
            r->reason = reason;
            break;
        }
        if (r->plies >= max_plies) {
            r->outcome = OUTCOME_DRAW;
            r->reason = "move-cap";
            break;
        }
        if (stop && *stop) {
            rc = 1;
            break;
        }
        const Position *pos = game_record_position(&gr);
        Color side = g->side_to_move(pos);
        Player *pl = players[side];
        PlayerMove pm;
        PlayerFault f = player_think(pl, &gr, clock[side], &pm);
        r->engine_seconds += pm.seconds;
        r->nodes += pm.nodes;
        if (f == PLAYER_STOPPED) {
            rc = 1;
            break;
        }
        if (f == PLAYER_RESIGNED) { /* a result, not a fault */
            r->outcome = side == COLOR_WHITE ? OUTCOME_BLACK_WINS : OUTCOME_WHITE_WINS;
            r->reason = player_fault_reason(f);
            break;
        }
        if (f != PLAYER_OK) {
            end_by_fault(r, side, f, pm.detail);
            break;
        }
        /* a move made: its time counts (a think that ended in a fault, a
         * resignation or a stop made none, so a per-move mean leaves it out) */
        r->moves[side]++;
        r->wall_s[side] += pm.seconds;
        r->cpu_s[side] += pm.cpu_seconds;
        r->book_moves[side] += pm.from_book;
        if (pl->limits.time_ms > 0) clock[side] += pl->limits.inc_ms - (int64_t)(pm.seconds * 1000);
        int i = r->plies;
        r->positions[i] = *pos;
        r->scores[i] = !pm.has_score ? 0 : side == COLOR_WHITE ? pm.score : -pm.score;
        r->quiet[i] = !g->has_capture(pos);
        char text[MOVE_STR_MAX];
        g->move_to_str(pos, &pm.move, text);
        if (pdn_movetext_append(&mt, text) != 0 || game_record_apply(&gr, &pm.move, err) != 0) {
            if (!err[0]) snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
            break;
        }
        r->plies++;
        /* adjudication by the engines' scores */
        if (!pm.has_score) {
            resign_count[0] = resign_count[1] = draw_count = 0;
            continue;
        }
        resign_count[side] = pm.score <= -adj->resign_score ? resign_count[side] + 1 : 0;
        draw_count = pm.score <= adj->draw_score && pm.score >= -adj->draw_score ? draw_count + 1 : 0;
        if (adj->resign_moves > 0 && resign_count[side] >= adj->resign_moves) {
            r->outcome = side == COLOR_WHITE ? OUTCOME_BLACK_WINS : OUTCOME_WHITE_WINS;
            r->reason = "resign";
        } else if (adj->draw_moves > 0 && r->plies >= adj->draw_after && draw_count >= 2 * adj->draw_moves) {
            r->outcome = OUTCOME_DRAW;
            r->reason = "adjudicated-draw";
        }
    }
    for (int c = 0; rc == 0 && c < 2; c++) player_game_over(players[c], &gr, r->outcome);
    game_record_free(&gr);
    if (rc != 0) {
        pdn_movetext_free(&mt);
        return rc;
    }
    free(r->movetext);
    r->movetext = mt.text; /* ownership moves to the record */
    return 0;
}
