/* play.c — one engine-vs-engine game, recorded move by move. */
#include "play/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    uint64_t keys[PLAY_PLIES_MAX + 1];
    Position pos = *start;
    PdnMovetext mt;
    pdn_movetext_init(&mt, g->side_to_move(start));
    engine_clear(engines[0]);
    engine_clear(engines[1]);
    r->plies = 0;
    r->nodes = 0;
    r->outcome = OUTCOME_NONE;
    int max_plies = s->max_plies > 0 && s->max_plies < PLAY_PLIES_MAX ? s->max_plies : PLAY_PLIES_MAX;
    MoveList moves;
    for (;;) {
        const char *reason = NULL;
        Outcome o = game_outcome(g, &pos, keys, r->plies, &reason, &moves);
        if (o != OUTCOME_NONE) {
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
            pdn_movetext_free(&mt);
            return 1;
        }
        Color side = g->side_to_move(&pos);
        SearchLimits lim = {.depth = s->depth, .nodes = s->nodes};
        SearchResult res;
        engine_search(engines[side], &pos, keys, r->plies, &lim, &res, NULL, NULL);
        if (!res.has_move) {
            snprintf(err, ERR_MAX, "engine found no move in a position with legal moves");
            pdn_movetext_free(&mt);
            return -1;
        }
        int i = r->plies;
        r->positions[i] = pos;
        r->scores[i] = side == COLOR_WHITE ? res.score : -res.score;
        r->quiet[i] = !g->has_capture(&pos);
        r->nodes += res.nodes;
        char text[MOVE_STR_MAX];
        g->move_to_str(&pos, &res.best, text);
        if (pdn_movetext_append(&mt, text) != 0) {
            snprintf(err, ERR_MAX, "out of memory");
            pdn_movetext_free(&mt);
            return -1;
        }
        keys[i] = g->hash(&pos);
        Position next;
        g->make_move(&pos, &res.best, &next);
        pos = next;
        r->plies++;
    }
    free(r->movetext);
    r->movetext = mt.text; /* ownership moves to the record */
    return 0;
}
