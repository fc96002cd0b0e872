/* resolve.c — the capture line of a quiescence search (see resolve.h). */
#include "engine/resolve.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct Resolver {
    const Game *g;
    int max_plies;
    uint64_t max_nodes, nodes;
    bool overflow;
    MoveList *lists;  /* one per ply */
    Position *leaves; /* per ply: the leaf of the best line below */
    Position *child;  /* per ply: the child being searched */
};

Resolver *resolver_new(const Game *g, int max_plies, uint64_t max_nodes)
{
    if (max_plies < 1 || max_plies > 64 || max_nodes < 1)
        return NULL;
    Resolver *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->g = g;
    r->max_plies = max_plies;
    r->max_nodes = max_nodes;
    r->lists = malloc((size_t)max_plies * sizeof *r->lists);
    r->leaves = malloc((size_t)(max_plies + 1) * sizeof *r->leaves);
    r->child = malloc((size_t)(max_plies + 1) * sizeof *r->child);
    if (!r->lists || !r->leaves || !r->child) {
        resolver_free(r);
        return NULL;
    }
    return r;
}

void resolver_free(Resolver *r)
{
    if (!r)
        return;
    free(r->lists);
    free(r->leaves);
    free(r->child);
    free(r);
}

/* Negamax over captures from pos at `ply`; the PV's leaf goes to
 * r->leaves[ply], its length to *plies. */
static int32_t search(Resolver *r, const Position *pos, int ply, int32_t alpha, int32_t beta,
                      const int32_t *weights, int *plies)
{
    const Game *g = r->g;
    r->nodes++;
    if (!g->has_capture(pos)) {
        memcpy(&r->leaves[ply], pos, g->pos_size);
        *plies = 0;
        const int32_t v = g->evaluate(pos, weights);
        return g->side_to_move(pos) == COLOR_WHITE ? v : -v;
    }
    if (ply >= r->max_plies || r->nodes >= r->max_nodes) {
        r->overflow = true;
        *plies = 0;
        return 0;
    }
    MoveList *list = &r->lists[ply];
    g->gen_moves(pos, list, GEN_DISTINCT);
    int32_t best = INT32_MIN + 1;
    for (int i = 0; i < list->len && !r->overflow; i++) {
        g->make_move(pos, &list->moves[i], &r->child[ply]);
        int below = 0;
        const int32_t v = -search(r, &r->child[ply], ply + 1, -beta, -alpha, weights, &below);
        if (v > best) {
            best = v;
            memcpy(&r->leaves[ply], &r->leaves[ply + 1], g->pos_size);
            *plies = below + 1;
            if (v > alpha)
                alpha = v;
            if (alpha >= beta)
                break;
        }
    }
    return best;
}

int resolver_run(Resolver *r, const Position *pos, const int32_t *weights, Position *leaf, int32_t *score)
{
    r->nodes = 0;
    r->overflow = false;
    int plies = 0;
    const int32_t v = search(r, pos, 0, INT32_MIN + 1, INT32_MAX, weights, &plies);
    if (r->overflow)
        return -1;
    memcpy(leaf, &r->leaves[0], r->g->pos_size);
    if (score)
        *score = v;
    return plies;
}
