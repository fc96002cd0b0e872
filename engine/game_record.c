/* game_record.c — a game in progress: start position, moves, positions and
 * keys (see game_record.h). */
#include "engine/game_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(GameRecord *r, int need)
{
    if (need <= r->cap) return 0;
    int cap = r->cap ? r->cap : 64;
    while (cap < need) cap *= 2;
    Move *m = realloc(r->moves, sizeof(Move) * (size_t)cap);
    if (!m) return -1;
    r->moves = m;
    Position *p = realloc(r->positions, sizeof(Position) * (size_t)(cap + 1));
    if (!p) return -1;
    r->positions = p;
    uint64_t *k = realloc(r->keys, sizeof(uint64_t) * (size_t)(cap + 1));
    if (!k) return -1;
    r->keys = k;
    r->cap = cap;
    return 0;
}

int game_record_init(GameRecord *r, const Game *g, const char *fen, char err[ERR_MAX])
{
    memset(r, 0, sizeof *r);
    r->game = g;
    if (grow(r, 64) != 0) {
        game_record_free(r);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    if (game_parse_position(g, fen, &r->positions[0], err) != 0) {
        game_record_free(r);
        return -1;
    }
    r->keys[0] = g->hash(&r->positions[0]);
    return 0;
}

void game_record_free(GameRecord *r)
{
    free(r->moves);
    free(r->positions);
    free(r->keys);
    memset(r, 0, sizeof *r);
}

void game_record_clear(GameRecord *r) { r->len = 0; }

const Position *game_record_position(const GameRecord *r) { return &r->positions[r->len]; }
const Position *game_record_start(const GameRecord *r) { return &r->positions[0]; }

int game_record_legal_moves(const GameRecord *r, MoveList *list)
{
    return r->game->gen_moves(game_record_position(r), list, GEN_DISTINCT);
}

Outcome game_record_outcome(const GameRecord *r, const char **reason, MoveList *moves)
{
    return game_outcome(r->game, game_record_position(r), r->keys, r->len, reason, moves);
}

const uint64_t *game_record_history(const GameRecord *r, int *len)
{
    *len = r->len;
    return r->keys;
}

static bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->kind == b->kind &&
           a->promo == b->promo;
}

int game_record_apply(GameRecord *r, const Move *move, char err[ERR_MAX])
{
    const Game *g = r->game;
    MoveList list;
    const char *reason = NULL;
    Outcome o = game_record_outcome(r, &reason, &list);
    if (o != OUTCOME_NONE) {
        snprintf(err, ERR_MAX, "the game is over (%s %s): no move can be played", outcome_pdn(o),
                 reason ? reason : "");
        return -1;
    }
    const Move *legal = NULL;
    for (int i = 0; i < list.len && !legal; i++)
        if (same_move(&list.moves[i], move)) legal = &list.moves[i];
    if (!legal) {
        snprintf(err, ERR_MAX, "move from square %d to square %d is not legal here", move->from, move->to);
        return -1;
    }
    if (grow(r, r->len + 1) != 0) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    const Position *pos = &r->positions[r->len];
    r->moves[r->len] = *legal;
    g->make_move(pos, legal, &r->positions[r->len + 1]);
    r->keys[r->len + 1] = g->hash(&r->positions[r->len + 1]);
    r->len++;
    return 0;
}

int game_record_apply_text(GameRecord *r, const char *text, char err[ERR_MAX])
{
    const char *reason = NULL;
    Outcome o = game_record_outcome(r, &reason, NULL);
    if (o != OUTCOME_NONE) {
        snprintf(err, ERR_MAX, "the game is over (%s %s): move '%.60s' cannot be played", outcome_pdn(o),
                 reason ? reason : "", text);
        return -1;
    }
    Move m;
    if (r->game->move_from_str(game_record_position(r), text, &m, err) != 0) return -1; /* it quotes the text */
    return game_record_apply(r, &m, err);
}

int game_record_apply_list(GameRecord *r, const char *list, char err[ERR_MAX])
{
    int before = r->len, index = 0;
    const char *p = list ? list : "";
    for (;;) {
        p += strspn(p, " \t\r\n");
        if (!*p) return 0;
        size_t n = strcspn(p, " \t\r\n");
        char text[MOVE_STR_MAX];
        index++;
        if (n >= sizeof text) {
            snprintf(err, ERR_MAX, "move %d ('%.40s...') is too long", index, p);
            r->len = before;
            return -1;
        }
        memcpy(text, p, n);
        text[n] = '\0';
        char merr[ERR_MAX];
        if (game_record_apply_text(r, text, merr) != 0) {
            snprintf(err, ERR_MAX, "move %d: %.220s", index, merr);
            r->len = before;
            return -1;
        }
        p += n;
    }
}

int game_record_undo(GameRecord *r, int plies)
{
    if (plies <= 0 || plies > r->len) return -1;
    r->len -= plies;
    return 0;
}

void game_record_move_text(const GameRecord *r, int i, char out[MOVE_STR_MAX])
{
    r->game->move_to_str(&r->positions[i], &r->moves[i], out);
}
