/* shatra_rules.c — Shatra move generation, make and perft.
 * Rules: docs/rules/shatra.md; section numbers below refer to it. */
#include "engine/games/shatra/shatra_rules.h"

#include <assert.h>
#include <string.h>

#define SH_ALL ((1ULL << SH_SQUARES) - 1)

static const ShatraTables *const T = &shatra_tables;

static inline int first_square(uint64_t b, int d)
{
    /* Along a line the index rises in directions E, SE, S, SW (2..5). */
    return (d >= SH_E && d <= SH_SW) ? __builtin_ctzll(b) : 63 - __builtin_clzll(b);
}

/* Empty squares reached from sq along d before the first piece of occ. */
static inline uint64_t ray_reach(int sq, int d, uint64_t occ)
{
    uint64_t ray = T->ray[sq][d];
    uint64_t b = ray & occ;
    if (!b) return ray;
    int y = first_square(b, d);
    return ray & ~T->ray[y][d] & ~sh_bit(y);
}


static inline uint64_t slider_reach(int sq, int type, uint64_t occ)
{
    uint64_t r = 0;
    unsigned dirs = sh_slider_dirs(type);
    for (int d = 0; d < SH_DIRS; d++)
        if (dirs >> d & 1) r |= ray_reach(sq, d, occ);
    return r;
}

static inline uint64_t occupied(const ShatraPos *p) { return p->color[0] | p->color[1]; }

/* Squares the piece on `from` may not land on by a capture (section 5,
 * closed fortress): its own fortress and gate while closed, unless it is
 * the Biy or a first-reserve piece (which may re-enter within a chain). */
static inline uint64_t capture_no_land(const ShatraPos *p, int us, int from, int type)
{
    if (type == SH_BIY || (p->reserve >> from & 1) || !sh_closed(p, us)) return 0;
    return T->fort_gate[us];
}

/* En passant (section 4): the square skipped by the enemy two-step and the
 * shatra that made it; -1 when there is no right. */
static inline void ep_squares(const ShatraPos *p, int *via, int *victim)
{
    *via = *victim = -1;
    if (!p->ep) return;
    int v = p->ep - 1;
    int c = T->nb[v][T->forward[p->side ^ 1]];
    if (c < 0 || !(p->color[p->side ^ 1] & p->type[SH_SHATRA] & sh_bit(c))) return;
    *via = v;
    *victim = c;
}

/* ------------------------------------------------------------------ */
/* Capture chains (section 4)                                          */

typedef struct Chain {
    uint64_t occ;     /* occupied at the start of the turn, less the mover's start square */
    uint64_t opp;     /* enemy pieces */
    uint64_t opp_biy; /* the enemy Biy */
    uint64_t no_land; /* squares the mover may not land on */
    int from, us;
    unsigned pool; /* promotion pool of the mover's side (bit per type) */
    int ep_via, ep_victim;
    bool biy; /* the mover is the Biy: each landing may end the turn */
    GenMode mode;
    MoveList *list;
    int first; /* index in list of this piece's first move (D dedupe) */
    ShatraRoutes *routes;
    uint64_t count; /* neither list nor routes: landing paths counted (perft P) */
    int plen;
    int promo_at, promo;
    uint8_t path[SH_ROUTE_MAX];
} Chain;

/* Landing squares of a long leap of `type` from sq in direction d over the
 * first piece, if it is an enemy not yet jumped; *victim set. */
static inline uint64_t leap_lands(const Chain *c, int sq, int d, uint64_t captured, int *victim)
{
    uint64_t b = T->ray[sq][d] & c->occ;
    if (!b) return 0;
    int x = first_square(b, d);
    if (!((c->opp & ~captured) >> x & 1)) return 0;
    *victim = x;
    return ray_reach(x, d, c->occ) & ~c->no_land;
}

/* Can a long leaper of `type` on sq capture again (must-land rule)? */
static bool leaper_can_jump(const Chain *c, int sq, int type, uint64_t captured)
{
    unsigned dirs = sh_slider_dirs(type);
    for (int d = 0; d < SH_DIRS; d++) {
        int x;
        if ((dirs >> d & 1) && leap_lands(c, sq, d, captured, &x)) return true;
    }
    return false;
}

static void chain_terminal(Chain *c, int sq, uint64_t captured)
{
    Move m = {.captured = captured,
              .from = (uint8_t)c->from,
              .to = (uint8_t)sq,
              .kind = MOVE_CAPTURE,
              .promo = (uint8_t)c->promo};
    if (c->promo) m.aux[0] = (uint8_t)(c->path[c->promo_at] + 1);
    if (c->routes) {
        ShatraRoutes *r = c->routes;
        if (r->len == SH_ROUTES_MAX) {
            r->truncated = true;
            return;
        }
        ShatraRoute *out = &r->routes[r->len++];
        out->move = m;
        out->len = c->plen;
        out->promo_at = c->promo ? c->promo_at : -1;
        memcpy(out->path, c->path, (size_t)c->plen);
        return;
    }
    MoveList *list = c->list;
    if (!list) {
        c->count++;
        return;
    }
    if (c->mode == GEN_DISTINCT && (captured & (captured - 1))) {
        for (int i = c->first; i < list->len; i++) {
            const Move *o = &list->moves[i];
            if (o->captured == captured && o->to == m.to && o->promo == m.promo) return;
        }
    }
    if (list->len < MOVES_MAX) list->moves[list->len++] = m;
}

static void chain_search(Chain *c, int sq, int type, uint64_t captured);

static void chain_land(Chain *c, int l, int type, uint64_t captured, bool took_biy)
{
    if (c->plen == SH_ROUTE_MAX) return; /* cannot happen: at most 17 jumps */
    c->path[c->plen++] = (uint8_t)l;
    if (took_biy) {
        /* Capturing the Biy ends the chain and the game; nothing promotes. */
        chain_terminal(c, l, captured);
    } else if (type == SH_SHATRA && (T->back_row[c->us] >> l & 1) && c->pool) {
        /* Section 6: it must promote, to a type of the pool, and goes on as
         * the new piece. */
        for (int t = SH_BATYR; t <= SH_YALKYN; t++) {
            if (!(c->pool >> t & 1)) continue;
            c->promo_at = c->plen - 1;
            c->promo = t;
            chain_search(c, l, t, captured);
        }
        c->promo = 0;
        c->promo_at = -1;
    } else {
        if (c->biy) chain_terminal(c, l, captured); /* the Biy may stop anywhere */
        chain_search(c, l, type, captured);
    }
    c->plen--;
}

static void chain_search(Chain *c, int sq, int type, uint64_t captured)
{
    uint64_t avail = c->opp & ~captured;
    uint64_t blocked = c->occ | c->no_land;
    bool any = false;
    if (type == SH_SHATRA || type == SH_BIY) {
        for (int d = 0; d < SH_DIRS; d++) {
            int x = T->nb[sq][d];
            if (x < 0) continue;
            if (avail >> x & 1) {
                int l = T->nb[x][d];
                if (l < 0 || (blocked >> l & 1)) continue;
                any = true;
                chain_land(c, l, type, captured | sh_bit(x), (c->opp_biy >> x) & 1);
            } else if (type == SH_SHATRA && x == c->ep_via && !(captured >> c->ep_victim & 1)) {
                /* En passant: over the skipped square, taking the two-stepper. */
                int l = T->nb[x][d];
                if (l < 0 || (blocked >> l & 1)) continue;
                any = true;
                chain_land(c, l, type, captured | sh_bit(c->ep_victim), false);
            }
        }
    } else {
        unsigned dirs = sh_slider_dirs(type);
        for (int d = 0; d < SH_DIRS; d++) {
            if (!(dirs >> d & 1)) continue;
            int x;
            uint64_t lands = leap_lands(c, sq, d, captured, &x);
            if (!lands) continue;
            any = true;
            uint64_t taken = captured | sh_bit(x);
            if (!(c->opp_biy >> x & 1)) {
                /* Must land where it can go on, if there is such a square. */
                uint64_t cont = 0;
                for (uint64_t b = lands; b; b &= b - 1) {
                    int l = __builtin_ctzll(b);
                    if (leaper_can_jump(c, l, type, taken)) cont |= sh_bit(l);
                }
                if (cont) lands = cont;
            }
            for (uint64_t b = lands; b; b &= b - 1)
                chain_land(c, __builtin_ctzll(b), type, taken, (c->opp_biy >> x) & 1);
        }
    }
    if (!any && captured && !c->biy) chain_terminal(c, sq, captured);
}

static void chain_init(Chain *c, const ShatraPos *p, GenMode mode, MoveList *list, ShatraRoutes *routes)
{
    int us = p->side;
    c->us = us;
    c->opp = p->color[us ^ 1];
    c->opp_biy = c->opp & p->type[SH_BIY];
    c->pool = sh_pool(p, us);
    ep_squares(p, &c->ep_via, &c->ep_victim);
    c->mode = mode;
    c->list = list;
    c->routes = routes;
    c->count = 0;
}

static void chain_from(Chain *c, const ShatraPos *p, int from)
{
    int type = sh_type_at(p, from);
    c->from = from;
    c->occ = occupied(p) & ~sh_bit(from);
    c->no_land = capture_no_land(p, c->us, from, type);
    c->biy = type == SH_BIY;
    c->first = c->list ? c->list->len : 0;
    c->plen = 0;
    c->promo = 0;
    c->promo_at = -1;
    chain_search(c, from, type, 0);
}

/* The pieces of `from` (the side to move's) that can start a capture:
 * a leaper (shatra, Biy) with an enemy piece, or for a shatra the
 * en-passant square, next to it and the square behind free; a slider with
 * an enemy piece first on one of its lines and a free square behind. With
 * `any`, it stops at the first one found. */
static uint64_t jumpers_among(const ShatraPos *p, uint64_t from, bool any)
{
    int us = p->side;
    uint64_t own = p->color[us], opp = p->color[us ^ 1];
    uint64_t occ = own | opp;
    bool closed = sh_closed(p, us);
    int ep_via, ep_victim;
    ep_squares(p, &ep_via, &ep_victim);
    const uint64_t ep_bit = ep_via >= 0 ? sh_bit(ep_via) : 0;
    uint64_t out = 0;
    for (uint64_t b = from & (p->type[SH_SHATRA] | p->type[SH_BIY]); b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        uint64_t fb = sh_bit(sq);
        bool shatra = (p->type[SH_SHATRA] & fb) != 0;
        uint64_t victims = opp | (shatra ? ep_bit : 0);
        if (!(T->king_nb[sq] & victims)) continue;
        uint64_t no_land = (closed && !(p->reserve & fb) && shatra) ? T->fort_gate[us] : 0;
        uint64_t blocked = (occ & ~fb) | no_land;
        for (int d = 0; d < SH_DIRS; d++) {
            int x = T->nb[sq][d];
            if (x < 0 || !(victims >> x & 1)) continue;
            int l = T->nb[x][d];
            if (l >= 0 && !(blocked >> l & 1)) {
                out |= fb;
                if (any) return out;
                break;
            }
        }
    }
    for (int ty = SH_BATYR; ty <= SH_YALKYN; ty++) {
        unsigned dirs = sh_slider_dirs(ty);
        for (uint64_t b = from & p->type[ty]; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            if (!(T->slider_lines[ty - SH_BATYR][sq] & opp)) continue;
            uint64_t fb = sh_bit(sq);
            uint64_t no_land = (closed && !(p->reserve & fb)) ? T->fort_gate[us] : 0;
            uint64_t o = occ & ~fb;
            for (int d = 0; d < SH_DIRS; d++) {
                if (!(dirs >> d & 1)) continue;
                uint64_t r = T->ray[sq][d] & o;
                if (!r) continue;
                int x = first_square(r, d);
                if (!(opp >> x & 1)) continue;
                if (ray_reach(x, d, o) & ~no_land) {
                    out |= fb;
                    if (any) return out;
                    break;
                }
            }
        }
    }
    return out;
}

/* Own pieces of the side to move that can make a first jump. */
static uint64_t first_jumpers(const ShatraPos *p) { return jumpers_among(p, p->color[p->side], false); }

bool shatra_capture_compulsory(const ShatraPos *p)
{
    if (!(p->color[p->side] & p->type[SH_BIY])) return false;
    return jumpers_among(p, p->color[p->side] & ~p->type[SH_BIY], true) != 0;
}

/* ------------------------------------------------------------------ */
/* Non-capturing turns (sections 3, 5, 6)                              */

static inline void push(MoveList *list, int from, int to, int kind, int promo)
{
    if (list->len < MOVES_MAX)
        list->moves[list->len++] =
            (Move){.from = (uint8_t)from, .to = (uint8_t)to, .kind = (uint8_t)kind, .promo = (uint8_t)promo};
}

static inline void push_targets(MoveList *list, int from, uint64_t targets, int kind)
{
    for (; targets; targets &= targets - 1) push(list, from, __builtin_ctzll(targets), kind, 0);
}

/* The pieces the side may drop onto its own half (section 5, rules 1, 2,
 * 4) and onto the enemy half (rule 5). */
static inline void droppable(const ShatraPos *p, uint64_t *home, uint64_t *away)
{
    int us = p->side;
    uint64_t own = p->color[us];
    uint64_t res = p->reserve & own;
    uint64_t h = 0;
    if (res) {
        for (int i = 0; i < 9; i++) {
            int sq = T->drop_order[us][i];
            if (res >> sq & 1) {
                h |= sh_bit(sq);
                break;
            }
        }
    } else {
        h |= own & T->fort_gate[us];
    }
    h |= own & p->type[SH_BIY] & sh_bit(T->gate[us]);
    *home = h;
    *away = own & T->fort[us ^ 1] & ~p->type[SH_SHATRA];
}

/* The sideways step the shatra on sq may not reverse, as a square bit. */
static inline uint64_t sidestep_ban(const ShatraPos *p, int sq)
{
    const uint8_t *e = p->sidestep[p->side];
    return (e[0] && e[1] - 1 == sq) ? sh_bit(e[0] - 1) : 0;
}

static void gen_noncaptures(const ShatraPos *p, MoveList *list, bool only_biy)
{
    int us = p->side, them = us ^ 1;
    uint64_t own = p->color[us];
    uint64_t occ = occupied(p);
    uint64_t empty = ~occ & SH_ALL;
    uint64_t home_targets = T->own_half[us] & empty;
    uint64_t away_targets = T->own_half[them] & empty;
    uint64_t urgent = p->urgent & own;
    if (urgent) { /* section 5: every non-capturing turn is an urgent drop */
        for (uint64_t b = urgent; b; b &= b - 1) push_targets(list, __builtin_ctzll(b), home_targets, MOVE_DROP);
        return;
    }
    bool closed = sh_closed(p, us);
    uint64_t shut = closed ? T->fort_gate[us] : 0;
    uint64_t home, away;
    droppable(p, &home, &away);
    uint64_t biy = own & p->type[SH_BIY];
    if (biy) {
        int s = __builtin_ctzll(biy);
        push_targets(list, s, T->king_nb[s] & empty & ~(closed ? T->fort[us] : 0), MOVE_QUIET);
        if (home & biy) push_targets(list, s, home_targets, MOVE_DROP);
        if (away & biy) push_targets(list, s, away_targets, MOVE_DROP);
    }
    if (only_biy) return;
    uint64_t free_pieces = own & ~p->reserve;
    for (int ty = SH_BATYR; ty <= SH_YALKYN; ty++)
        for (uint64_t b = free_pieces & p->type[ty]; b; b &= b - 1) {
            int s = __builtin_ctzll(b);
            push_targets(list, s, slider_reach(s, ty, occ) & ~shut, MOVE_QUIET);
        }
    /* Great road: a reserve Batyr or Tura leaves along the d-file. */
    for (uint64_t b = own & p->reserve & (p->type[SH_BATYR] | p->type[SH_TURA]) & T->road_start[us]; b; b &= b - 1) {
        int s = __builtin_ctzll(b);
        push_targets(list, s, ray_reach(s, T->forward[us], occ) & ~T->fort_gate[us], MOVE_QUIET);
    }
    unsigned pool = sh_pool(p, us);
    uint64_t back = T->back_row[us];
    for (uint64_t b = free_pieces & p->type[SH_SHATRA]; b; b &= b - 1) {
        int s = __builtin_ctzll(b);
        uint64_t targets = T->shatra_step[us][s] & empty & ~shut & ~sidestep_ban(p, s);
        for (uint64_t tb = targets; tb; tb &= tb - 1) {
            int to = __builtin_ctzll(tb);
            if ((back >> to & 1) && pool) {
                for (int t = SH_BATYR; t <= SH_YALKYN; t++)
                    if (pool >> t & 1) push(list, s, to, MOVE_QUIET, t);
            } else {
                push(list, s, to, MOVE_QUIET, 0);
            }
        }
        int via = T->two_via[us][s];
        if (via >= 0 && (empty >> via & 1) && (empty >> T->two_to[us][s] & 1))
            push(list, s, T->two_to[us][s], MOVE_QUIET, 0);
        if ((back >> s & 1) && pool) /* a waiting shatra promotes in place */
            for (int t = SH_BATYR; t <= SH_YALKYN; t++)
                if (pool >> t & 1) push(list, s, s, MOVE_PROMOTE, t);
    }
    for (uint64_t b = home & ~biy; b; b &= b - 1) push_targets(list, __builtin_ctzll(b), home_targets, MOVE_DROP);
    for (uint64_t b = away & ~biy; b; b &= b - 1) push_targets(list, __builtin_ctzll(b), away_targets, MOVE_DROP);
}

/* The number of moves gen_noncaptures would write (perft leaves). */
static int count_noncaptures(const ShatraPos *p, bool only_biy)
{
    int us = p->side, them = us ^ 1;
    uint64_t own = p->color[us];
    uint64_t occ = occupied(p);
    uint64_t empty = ~occ & SH_ALL;
    int nhome = __builtin_popcountll(T->own_half[us] & empty);
    int naway = __builtin_popcountll(T->own_half[them] & empty);
    uint64_t urgent = p->urgent & own;
    if (urgent) return __builtin_popcountll(urgent) * nhome;
    bool closed = sh_closed(p, us);
    uint64_t shut = closed ? T->fort_gate[us] : 0;
    uint64_t home, away;
    droppable(p, &home, &away);
    uint64_t biy = own & p->type[SH_BIY];
    int n = 0;
    if (biy) {
        int s = __builtin_ctzll(biy);
        n += __builtin_popcountll(T->king_nb[s] & empty & ~(closed ? T->fort[us] : 0));
        if (home & biy) n += nhome;
        if (away & biy) n += naway;
    }
    if (only_biy) return n;
    uint64_t free_pieces = own & ~p->reserve;
    for (int ty = SH_BATYR; ty <= SH_YALKYN; ty++)
        for (uint64_t b = free_pieces & p->type[ty]; b; b &= b - 1)
            n += __builtin_popcountll(slider_reach(__builtin_ctzll(b), ty, occ) & ~shut);
    for (uint64_t b = own & p->reserve & (p->type[SH_BATYR] | p->type[SH_TURA]) & T->road_start[us]; b; b &= b - 1)
        n += __builtin_popcountll(ray_reach(__builtin_ctzll(b), T->forward[us], occ) & ~T->fort_gate[us]);
    unsigned pool = sh_pool(p, us);
    int npool = __builtin_popcount(pool);
    uint64_t back = T->back_row[us];
    for (uint64_t b = free_pieces & p->type[SH_SHATRA]; b; b &= b - 1) {
        int s = __builtin_ctzll(b);
        uint64_t targets = T->shatra_step[us][s] & empty & ~shut & ~sidestep_ban(p, s);
        n += __builtin_popcountll(targets & ~back) + __builtin_popcountll(targets & back) * (npool ? npool : 1);
        int via = T->two_via[us][s];
        if (via >= 0 && (empty >> via & 1) && (empty >> T->two_to[us][s] & 1)) n++;
        if (back >> s & 1) n += npool;
    }
    n += __builtin_popcountll(home & ~biy) * nhome + __builtin_popcountll(away & ~biy) * naway;
    return n;
}

/* ------------------------------------------------------------------ */
/* The legal move list                                                 */

/* Captures of the side to move: first the other pieces, then the Biy.
 * Returns a bitset of what could capture: bit 0 another piece, bit 1 the Biy. */
static int gen_captures(const ShatraPos *p, uint64_t jumpers, MoveList *list, GenMode mode)
{
    Chain c;
    chain_init(&c, p, mode, list, NULL);
    uint64_t biy = p->type[SH_BIY];
    for (uint64_t b = jumpers & ~biy; b; b &= b - 1) chain_from(&c, p, __builtin_ctzll(b));
    if (jumpers & biy) chain_from(&c, p, __builtin_ctzll(jumpers & biy));
    return ((jumpers & ~biy) ? 1 : 0) | ((jumpers & biy) ? 2 : 0);
}

int shatra_gen(const ShatraPos *p, MoveList *list, GenMode mode)
{
    list->len = 0;
    if (!(p->color[p->side] & p->type[SH_BIY])) return 0; /* Biy captured: game over */
    uint64_t jumpers = first_jumpers(p);
    if (jumpers & ~p->type[SH_BIY]) {
        gen_captures(p, jumpers, list, mode); /* compulsory; Biy captures count */
    } else if (jumpers) {
        gen_captures(p, jumpers, list, mode); /* only the Biy: it may also not capture */
        gen_noncaptures(p, list, true);
    } else {
        gen_noncaptures(p, list, false);
    }
    return list->len;
}

static uint64_t count_moves(const ShatraPos *p, GenMode mode)
{
    if (!(p->color[p->side] & p->type[SH_BIY])) return 0;
    uint64_t jumpers = first_jumpers(p);
    if (!jumpers) return (uint64_t)count_noncaptures(p, false);
    uint64_t n;
    if (mode == GEN_PATHS) { /* every landing path, no list (and no list cap) */
        Chain c;
        chain_init(&c, p, mode, NULL, NULL);
        for (uint64_t b = jumpers; b; b &= b - 1) chain_from(&c, p, __builtin_ctzll(b));
        n = c.count;
    } else {
        MoveList list;
        list.len = 0;
        gen_captures(p, jumpers, &list, mode);
        n = (uint64_t)list.len;
    }
    if (!(jumpers & ~p->type[SH_BIY])) n += (uint64_t)count_noncaptures(p, true);
    return n;
}

void shatra_routes_from(const ShatraPos *p, int from, ShatraRoutes *routes)
{
    Chain c;
    routes->len = 0;
    routes->truncated = false;
    chain_init(&c, p, GEN_PATHS, NULL, routes);
    chain_from(&c, p, from);
}

/* ------------------------------------------------------------------ */
/* Make                                                                */

static inline uint8_t sat8(uint8_t v) { return v == UINT8_MAX ? v : (uint8_t)(v + 1); }
static inline uint16_t sat16(uint16_t v) { return v == UINT16_MAX ? v : (uint16_t)(v + 1); }

#ifndef NDEBUG
/* Debug-only validity check of a position reached by make. */
static bool pos_valid(const ShatraPos *p)
{
    uint64_t all = p->color[0] | p->color[1], types = 0;
    if ((p->color[0] & p->color[1]) || (all & ~SH_ALL) || p->type[SH_EMPTY]) return false;
    for (int t = SH_BIY; t < SH_TYPES; t++) {
        if (types & p->type[t]) return false;
        types |= p->type[t];
    }
    if (types != all) return false;
    for (int c = 0; c < 2; c++) {
        if (__builtin_popcountll(p->color[c] & p->type[SH_BIY]) > 1) return false;
        if (p->reserve & p->color[c] & ~T->fort_gate[c]) return false;
    }
    if ((p->reserve & ~all) || (p->urgent & ~p->reserve)) return false;
    return p->key == shatra_hash_full(p);
}
#endif

void shatra_make(const ShatraPos *p, const Move *m, ShatraPos *q)
{
    int us = p->side, them = us ^ 1;
    int from = m->from, to = m->to;
    uint64_t fb = sh_bit(from), tb = sh_bit(to);
    int ty = sh_type_at(p, from);
    uint64_t key = p->key ^ T->zob_side;
    *q = *p;
    if (p->ep) key ^= T->zob_ep[p->ep - 1];
    q->ep = 0;
    if (p->sidestep[us][0]) {
        int x = p->sidestep[us][0] - 1, y = p->sidestep[us][1] - 1;
        key ^= T->zob_sidestep[us][x][y > x];
        q->sidestep[us][0] = q->sidestep[us][1] = 0;
    }
    bool reset_quiet = false, irreversible = false;
    if (m->kind == MOVE_PROMOTE) {
        q->type[SH_SHATRA] &= ~fb;
        q->type[m->promo] |= fb;
        key ^= T->zob_piece[us][SH_SHATRA][from] ^ T->zob_piece[us][m->promo][from];
        reset_quiet = irreversible = true;
    } else {
        int nt = m->promo ? m->promo : ty;
        q->color[us] = (p->color[us] & ~fb) | tb;
        q->type[ty] &= ~fb;
        q->type[nt] |= tb;
        key ^= T->zob_piece[us][ty][from] ^ T->zob_piece[us][nt][to];
        for (uint64_t b = m->captured; b; b &= b - 1) {
            int x = __builtin_ctzll(b);
            uint64_t xb = sh_bit(x);
            key ^= T->zob_piece[them][sh_type_at(p, x)][x];
            if (p->reserve & xb) key ^= T->zob_reserve[x];
            if (p->urgent & xb) key ^= T->zob_urgent[x];
        }
        if (m->captured) {
            q->color[them] &= ~m->captured;
            for (int t = SH_BIY; t < SH_TYPES; t++) q->type[t] &= ~m->captured;
            q->reserve &= ~m->captured;
            q->urgent &= ~m->captured;
            if (q->sidestep[them][0] && (m->captured >> (q->sidestep[them][1] - 1) & 1)) {
                int x = q->sidestep[them][0] - 1, y = q->sidestep[them][1] - 1;
                key ^= T->zob_sidestep[them][x][y > x];
                q->sidestep[them][0] = q->sidestep[them][1] = 0;
            }
            reset_quiet = irreversible = true;
        }
        /* Reserve status is settled when the turn ends (section 5). */
        if (p->reserve & fb) {
            key ^= T->zob_reserve[from];
            q->reserve &= ~fb;
            bool was_urgent = (p->urgent & fb) != 0;
            if (was_urgent) {
                key ^= T->zob_urgent[from];
                q->urgent &= ~fb;
            }
            if (m->kind != MOVE_DROP && (T->fort_gate[us] & tb)) {
                key ^= T->zob_reserve[to];
                q->reserve |= tb;
                if (m->kind == MOVE_CAPTURE || was_urgent) {
                    key ^= T->zob_urgent[to];
                    q->urgent |= tb;
                }
            }
            irreversible = true;
        }
        if (m->kind == MOVE_DROP) reset_quiet = true;
        if (m->promo) reset_quiet = irreversible = true;
        if (m->kind == MOVE_QUIET && ty == SH_SHATRA) {
            reset_quiet = true;
            if (T->rank[from] == T->rank[to]) {
                if (!m->promo) {
                    q->sidestep[us][0] = (uint8_t)(from + 1);
                    q->sidestep[us][1] = (uint8_t)(to + 1);
                    key ^= T->zob_sidestep[us][from][to > from];
                }
            } else {
                irreversible = true;
                if (T->two_to[us][from] == to) {
                    int via = T->two_via[us][from];
                    q->ep = (uint8_t)(via + 1);
                    key ^= T->zob_ep[via];
                }
            }
        }
    }
    q->quiet = reset_quiet ? 0 : sat8(p->quiet);
    q->reversible = irreversible ? 0 : sat16(p->reversible);
    if (us == COLOR_BLACK && q->move_number < UINT16_MAX) q->move_number++;
    q->side = (uint8_t)them;
    q->key = key;
    assert(pos_valid(q));
}

/* ------------------------------------------------------------------ */
/* Perft                                                               */

static uint64_t perft_rec(const ShatraPos *p, int depth, GenMode mode)
{
    if (depth == 1) return count_moves(p, mode);
    MoveList list;
    shatra_gen(p, &list, mode);
    uint64_t nodes = 0;
    ShatraPos child;
    for (int i = 0; i < list.len; i++) {
        shatra_make(p, &list.moves[i], &child);
        nodes += perft_rec(&child, depth - 1, mode);
    }
    return nodes;
}

uint64_t shatra_perft(const ShatraPos *p, int depth, GenMode mode)
{
    if (depth <= 0) return 1;
    return perft_rec(p, depth, mode);
}

/* ------------------------------------------------------------------ */
/* Helpers of the evaluation                                           */

int shatra_count_slider_moves(const ShatraPos *p, int c)
{
    uint64_t occ = occupied(p);
    uint64_t shut = sh_closed(p, c) ? T->fort_gate[c] : 0;
    int n = 0;
    for (int ty = SH_BATYR; ty <= SH_YALKYN; ty++)
        for (uint64_t b = p->color[c] & ~p->reserve & p->type[ty]; b; b &= b - 1)
            n += __builtin_popcountll(slider_reach(__builtin_ctzll(b), ty, occ) & ~shut);
    return n;
}

bool shatra_side_can_capture(const ShatraPos *p, int c)
{
    ShatraPos q = *p;
    if (q.side != c) {
        q.side = (uint8_t)c;
        q.ep = 0;
    }
    return jumpers_among(&q, q.color[q.side], true) != 0;
}

bool shatra_piece_attacked(const ShatraPos *p, int c, int k)
{
    int e = c ^ 1;
    uint64_t occ = occupied(p);
    uint64_t enemy = p->color[e];
    bool closed = sh_closed(p, e);
    for (int d = 0; d < SH_DIRS; d++) {
        /* A jumper coming from direction d ^ 4 lands behind square k in d. */
        uint64_t b = T->ray[k][d ^ 4] & occ;
        if (!b) continue;
        int y = first_square(b, d ^ 4);
        if (!(enemy >> y & 1)) continue;
        int ty = sh_type_at(p, y);
        uint64_t no_land = (closed && ty != SH_BIY && !(p->reserve >> y & 1)) ? T->fort_gate[e] : 0;
        uint64_t lands;
        if (ty == SH_SHATRA || ty == SH_BIY) {
            if (y != T->nb[k][d ^ 4] || T->nb[k][d] < 0) continue;
            lands = sh_bit(T->nb[k][d]) & ~occ;
        } else {
            if (!(sh_slider_dirs(ty) >> d & 1)) continue;
            lands = ray_reach(k, d, occ);
        }
        if (lands & ~no_land) return true;
    }
    return false;
}

uint64_t shatra_attacked_set(const ShatraPos *p, int c)
{
    const int e = c ^ 1;
    const uint64_t occ = occupied(p), own = p->color[c], enemy = p->color[e];
    const bool closed = sh_closed(p, e);
    uint64_t attacked = 0;
    /* a leaper jumps a neighbour to the square right behind it */
    for (uint64_t b = enemy & (p->type[SH_SHATRA] | p->type[SH_BIY]); b; b &= b - 1) {
        const int y = __builtin_ctzll(b);
        if (!(T->king_nb[y] & own & ~attacked)) continue;
        const uint64_t no_land = (closed && (p->type[SH_SHATRA] >> y & 1) && !(p->reserve >> y & 1)) ? T->fort_gate[e] : 0;
        for (int d = 0; d < SH_DIRS; d++) {
            const int x = T->nb[y][d];
            if (x < 0 || !(own >> x & 1) || (attacked >> x & 1)) continue;
            const int l = T->nb[x][d];
            if (l >= 0 && !((occ | no_land) >> l & 1)) attacked |= sh_bit(x);
        }
    }
    /* a slider jumps the first piece on its line to any empty square behind it */
    for (int ty = SH_BATYR; ty <= SH_YALKYN; ty++) {
        const unsigned dirs = sh_slider_dirs(ty);
        for (uint64_t b = enemy & p->type[ty]; b; b &= b - 1) {
            const int y = __builtin_ctzll(b);
            if (!(T->slider_lines[ty - SH_BATYR][y] & own)) continue;
            const uint64_t no_land = (closed && !(p->reserve >> y & 1)) ? T->fort_gate[e] : 0;
            for (int d = 0; d < SH_DIRS; d++) {
                if (!(dirs >> d & 1)) continue;
                const uint64_t on = T->ray[y][d] & occ;
                if (!(on & own)) continue;
                const int x = first_square(on, d);
                if (own >> x & 1 && (ray_reach(x, d, occ) & ~no_land)) attacked |= sh_bit(x);
            }
        }
    }
    return attacked;
}

bool shatra_biy_attacked(const ShatraPos *p, int c)
{
    uint64_t biy = p->color[c] & p->type[SH_BIY];
    return biy && shatra_piece_attacked(p, c, __builtin_ctzll(biy));
}
