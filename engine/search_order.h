/* search_order.h — move ordering of engine/search*.c: TT move, captures
 * by what they take (Game.capture_value), promotions, two killers, the
 * counter-move of the opponent's last move, history with depth-squared
 * bonuses for the cutoff move and maluses for the quiet moves tried
 * before it (gravity-bounded, hist_update); optionally (CONT_HIST, off) a
 * counter-move history keyed by the opponent's last destination square,
 * updated the same way and added to the history order. Private to the
 * search (search_internal.h); static inline: the node functions inline
 * them. */
#ifndef DAMA_SEARCH_ORDER_H
#define DAMA_SEARCH_ORDER_H

#include "engine/search_internal.h"

enum { ORD_TT = 1 << 30, ORD_CAPTURE = 1 << 28, ORD_PROMO = 1 << 27, ORD_KILLER = 1 << 26 };

/* Capture order by the game's victim values (capped below the TT move). */
static inline int capture_order(const Game *g, const Position *pos, const Move *m)
{
    int v = g->capture_value(pos, m);
    return v > GAME_ROYAL_VALUE ? GAME_ROYAL_VALUE * 8 : v * 8;
}

static inline void score_moves(Worker *w, int ply, const Move *tt_move)
{
    Frame *f = &w->frames[ply];
    const Game *g = w->eng->game;
    Color side = g->side_to_move(&f->pos);
    const Move *prev = ply > 0 ? &w->frames[ply].move : NULL;
    const Move *cm = prev ? &w->counter[prev->from & 63][prev->to & 63] : NULL;
    for (int i = 0; i < f->moves.len; i++) {
        const Move *m = &f->moves.moves[i];
        int s;
        if (tt_move && same_move(m, tt_move))
            s = ORD_TT;
        else if (m->kind == MOVE_CAPTURE)
            s = ORD_CAPTURE + (g->capture_value ? capture_order(g, &f->pos, m) : __builtin_popcountll(m->captured) * 1024) +
                m->promo * 512;
        else if (m->promo)
            s = ORD_PROMO;
        else if (same_move(m, &f->killers[0]))
            s = ORD_KILLER + 3;
        else if (same_move(m, &f->killers[1]))
            s = ORD_KILLER + 2;
        else if (cm && same_move(m, cm))
            s = ORD_KILLER + 1;
        else {
            s = w->hist[side][m->from & 63][m->to & 63];
            if (prev && P(w->eng, CONT_HIST)) s += P(w->eng, CONT_HIST) * w->cont[side][prev->to & 63][m->from & 63][m->to & 63];
        }
        f->scores[i] = s;
    }
}

/* Selection sort step: bring the best remaining move to index i. */
static inline void pick_move(Frame *f, int i)
{
    int best = i;
    for (int j = i + 1; j < f->moves.len; j++)
        if (f->scores[j] > f->scores[best]) best = j;
    if (best != i) {
        Move m = f->moves.moves[i];
        f->moves.moves[i] = f->moves.moves[best];
        f->moves.moves[best] = m;
        int s = f->scores[i];
        f->scores[i] = f->scores[best];
        f->scores[best] = s;
    }
}

static inline void hist_update(Worker *w, int16_t *h, int bonus)
{
    int max = P(w->eng, HIST_MAX);
    int v = *h;
    v += bonus - v * (bonus < 0 ? -bonus : bonus) / max;
    if (v > max) v = max;
    if (v < -max) v = -max;
    *h = (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
}

#endif
