/* draughts_impl.h — move generation, make, perft, position strings and move
 * notation of the draughts variants (8x8, 10x10 and 12x12, draughts.h), written
 * once.
 *
 * Include from exactly one .c file per variant, after defining
 *     static const DraughtsRules RULES = { ... };
 * Every function here is static and reads RULES as a compile-time constant,
 * so the compiler specialises the generator for the variant.
 *
 * Capture rules implemented (docs/rules/russian.md 3-9, turkish.md 3-10):
 * compulsory capture; chains continue while possible; a piece is never
 * jumped twice; captured pieces stay on the board as blockers until the turn
 * ends unless RULES.remove_at_once; a flying king lands on any empty square
 * behind the captured piece, restricted to those from which it can capture
 * again when RULES.must_land_to_continue; men crowned mid-capture continue as
 * kings when RULES.crown_mid_capture, else are crowned at the end of the
 * turn; RULES.choice keeps only the chains its precedence ranks highest
 * (d_cap_key); RULES.no_reversal forbids a 180-degree turn between two
 * jumps; RULES.short_kings makes kings step and jump one square at a time;
 * RULES.men_spare_kings keeps men from jumping kings.
 */
#ifndef DAMA_DRAUGHTS_IMPL_H
#define DAMA_DRAUGHTS_IMPL_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "engine/games/draughts/draughts.h"
#include "util/num.h"

#define D_FILE_A 0x0101010101010101ULL
#define D_FILE_H (D_FILE_A << 7)
#define D_RANK_1 0x00000000000000FFULL
#define D_RANK_8 0xFF00000000000000ULL
#define D_DARK 0xAA55AA55AA55AA55ULL /* a1, c1, ..., b2, ... (file + rank even) */

enum { ROUTE_LEN_MAX = 32, ROUTES_MAX = 4096 };

/* The sets of squares: 64 bits, or 128 for the 12x12 board (a variant
 * that plays on it defines DRAUGHTS_WIDE before including this file). */
#ifdef DRAUGHTS_WIDE
typedef DraughtsWide DBits;
typedef DraughtsPosWide DPos;
static inline int D_CTZ(DBits b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
static inline int D_POP(DBits b) { return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64)); }
/* Move.captured holds the squares from index 7 on (draughts.h). */
static inline uint64_t d_cap_pack(DBits b) { return (uint64_t)(b >> 7); }
static inline DBits d_cap_unpack(uint64_t c) { return (DBits)c << 7; }
#else
typedef uint64_t DBits;
typedef DraughtsPos DPos;
#define D_CTZ(b) __builtin_ctzll(b)
#define D_POP(b) __builtin_popcountll(b)
static inline uint64_t d_cap_pack(DBits b) { return b; }
static inline DBits d_cap_unpack(uint64_t c) { return c; }
#endif

static inline DBits d_bit(int sq) { return (DBits)1 << sq; }

#ifdef DRAUGHTS_WIDE
#define d_hash_full draughts_hash_full_wide
/* The 72 squares of the 12x12 board, and White's crowning row 72..77. */
#define D_BOARD12 ((DBits)0x3F7FULL << 64 | 0xFBFFDFFEFFF7FFBFULL)
#define D_CROWN12_WHITE ((DBits)0x3FULL << 72)
#else
#define d_hash_full draughts_hash_full
#define D_BOARD12 ((DBits)0) /* never read: no 12x12 game is narrow */
#define D_CROWN12_WHITE ((DBits)0)
#endif
static inline bool d_big(void) { return RULES.size == 10; }
static inline bool d_huge(void) { return RULES.size == 12; }
/* The variant's DraughtsGeometry: the index of its tables. */
static inline int d_geom(void)
{
    return d_huge() ? GEOM_DIAGONAL12 : d_big() ? GEOM_DIAGONAL10 : RULES.orthogonal ? GEOM_ORTHOGONAL8 : GEOM_DIAGONAL8;
}
/* The 50 squares of the 10x10 board: no ghost index (draughts.h). */
#define D_BOARD10 0x007DFFBFF7FEFFDFULL
/* Highest square index: the 180-degree turn maps sq to D_TOP - sq. */
#define D_TOP (d_huge() ? 77 : d_big() ? 54 : 63)
/* Numbered squares of the variant (32, 50 or 72), for parsing and messages. */
#define D_NSQ (d_huge() ? 72 : d_big() ? 50 : 32)

/* All pieces of a set shifted one step in direction d (see draughts.c). */
static inline DBits d_step(DBits b, int d)
{
    if (d_huge()) {
        switch (d) {
        case 0: return (b << 7) & D_BOARD12;
        case 1: return (b << 6) & D_BOARD12;
        case 2: return (b >> 6) & D_BOARD12;
        default: return (b >> 7) & D_BOARD12;
        }
    }
    if (d_big()) {
        switch (d) {
        case 0: return (b << 6) & D_BOARD10;
        case 1: return (b << 5) & D_BOARD10;
        case 2: return (b >> 5) & D_BOARD10;
        default: return (b >> 6) & D_BOARD10;
        }
    }
    if (!RULES.orthogonal) {
        switch (d) {
        case 0: return (b << 9) & ~D_FILE_A;
        case 1: return (b << 7) & ~D_FILE_H;
        case 2: return (b >> 7) & ~D_FILE_A;
        default: return (b >> 9) & ~D_FILE_H;
        }
    }
    switch (d) {
    case 0: return b << 8;
    case 1: return (b << 1) & ~D_FILE_A;
    case 2: return (b >> 1) & ~D_FILE_H;
    default: return b >> 8;
    }
}

static inline int d_delta(int d) { return draughts_tables.delta[d_geom()][d]; }
static inline int d_next(int sq, int d) { return draughts_tables.next[d_geom()][sq][d]; }

/* Directions a man of `side` moves in (bit d set): forward (and sideways
 * for orthogonal variants). */
static inline unsigned d_man_move_dirs(int side)
{
    if (!RULES.orthogonal) return side == COLOR_WHITE ? 0x3u : 0xCu;
    return side == COLOR_WHITE ? 0x7u : 0xEu;
}

static inline unsigned d_man_capture_dirs(int side)
{
    return RULES.men_capture_back ? 0xFu : d_man_move_dirs(side);
}

static inline DBits d_crown_rank(int side)
{
    if (d_huge()) return side == COLOR_WHITE ? D_CROWN12_WHITE : (DBits)0x3FULL; /* 72..77; 0..5 */
    if (d_big()) return side == COLOR_WHITE ? 0x7CULL << 48 : 0x1FULL; /* j10..b10 = 50..54; a1..i1 = 0..4 */
    return side == COLOR_WHITE ? D_RANK_8 : D_RANK_1;
}

/* The enemy pieces a man may jump: all of them, or only men (Italian). */
static inline DBits d_man_prey(DBits opp, DBits kings) { return RULES.men_spare_kings ? opp & ~kings : opp; }

/* The first square along d from sq that is not empty (a flying king's
 * sight line), or the neighbour (a short king); -1 off the board. */
static inline int d_king_sight(int sq, int d, DBits empty);

static inline const DPos *dp(const Position *pos) { return (const DPos *)pos->data; }
static inline DPos *dpw(Position *pos) { return (DPos *)pos->data; }

static inline int d_king_sight(int sq, int d, DBits empty)
{
    int s = d_next(sq, d);
    if (!RULES.short_kings)
        while (s >= 0 && (empty >> s & 1)) s = d_next(s, d);
    return s;
}

/* ------------------------------------------------------------------ */
/* Quiet moves                                                         */

static int d_gen_quiet(const DPos *p, MoveList *list)
{
    int side = p->side;
    DBits own = p->pieces[side];
    DBits empty = ~(p->pieces[0] | p->pieces[1]);
    DBits men = own & ~p->kings;
    DBits crown = d_crown_rank(side);
    unsigned dirs = d_man_move_dirs(side);
    int n = list->len;
    for (int d = 0; d < DRAUGHTS_DIRS; d++) {
        if (!(dirs >> d & 1)) continue;
        for (DBits to = d_step(men, d) & empty; to; to &= to - 1) {
            int sq = D_CTZ(to);
            Move *m = &list->moves[n++];
            *m = (Move){.from = (uint8_t)(sq - d_delta(d)), .to = (uint8_t)sq, .kind = MOVE_QUIET,
                        .promo = (uint8_t)((crown >> sq) & 1)};
        }
    }
    for (DBits k = own & p->kings; k; k &= k - 1) {
        int from = D_CTZ(k);
        for (int d = 0; d < DRAUGHTS_DIRS; d++) {
            for (int s = d_next(from, d); s >= 0 && (empty >> s & 1); s = RULES.short_kings ? -1 : d_next(s, d))
                list->moves[n++] = (Move){.from = (uint8_t)from, .to = (uint8_t)s, .kind = MOVE_QUIET};
        }
    }
    list->len = n;
    return n;
}

static int d_count_quiet_side(const DPos *p, int side)
{
    DBits own = p->pieces[side];
    DBits empty = ~(p->pieces[0] | p->pieces[1]);
    DBits men = own & ~p->kings;
    unsigned dirs = d_man_move_dirs(side);
    int n = 0;
    for (int d = 0; d < DRAUGHTS_DIRS; d++)
        if (dirs >> d & 1) n += D_POP(d_step(men, d) & empty);
    for (DBits k = own & p->kings; k; k &= k - 1) {
        int from = D_CTZ(k);
        for (int d = 0; d < DRAUGHTS_DIRS; d++)
            for (int s = d_next(from, d); s >= 0 && (empty >> s & 1); s = RULES.short_kings ? -1 : d_next(s, d)) n++;
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Captures                                                            */

static bool d_has_capture(const DPos *p)
{
    int side = p->side;
    DBits own = p->pieces[side], opp = p->pieces[side ^ 1];
    DBits empty = ~(own | opp);
    DBits men = own & ~p->kings;
    unsigned dirs = d_man_capture_dirs(side);
    DBits prey = d_man_prey(opp, p->kings);
    for (int d = 0; d < DRAUGHTS_DIRS; d++)
        if ((dirs >> d & 1) && (d_step(d_step(men, d) & prey, d) & empty)) return true;
    for (DBits k = own & p->kings; k; k &= k - 1) {
        int from = D_CTZ(k);
        for (int d = 0; d < DRAUGHTS_DIRS; d++) {
            int s = d_king_sight(from, d, empty);
            if (s < 0 || !(opp >> s & 1)) continue;
            int l = d_next(s, d);
            if (l >= 0 && (empty >> l & 1)) return true;
        }
    }
    return false;
}

typedef struct DRoute {
    Move move;
    uint64_t key; /* precedence of this route (d_cap_key) */
    int len; /* landing squares */
    uint8_t path[ROUTE_LEN_MAX];
} DRoute;

typedef struct DRoutes {
    int len;
    bool truncated;
    DRoute routes[ROUTES_MAX];
} DRoutes;

typedef struct DCapture {
    DBits opp;   /* enemy pieces when the turn starts */
    DBits empty; /* empty squares when the turn starts, plus the start square */
    int side;
    int from;
    bool man;  /* the capturing piece started the turn as a man */
    DBits kings0; /* enemy kings when the turn starts */
    uint64_t best;   /* highest precedence (d_cap_key) of a chain found so far */
    uint32_t order;  /* Italian: kings among the pieces jumped so far, first jump at bit 31 */
    GenMode mode;
    MoveList *list; /* generation: where moves go */
    uint32_t *paths; /* if set: D list, paths[i] counts the landing paths of move i */
    DRoutes *routes; /* route enumeration (notation) instead of generation */
    DBits only;   /* route enumeration: jump only these pieces (the wanted move's) */
    uint64_t *seen;  /* K convention (mode GEN_SEQUENCES, perft only): sequences counted so far */
    int nseen, seen_max;
    int plen;
    uint8_t path[ROUTE_LEN_MAX];
} DCapture;

static inline DBits d_cap_empty(const DCapture *c, DBits captured)
{
    return RULES.remove_at_once ? c->empty | captured : c->empty;
}

/* Can a king (or man) on sq capture again, having taken `captured`, last
 * jump in direction lastdir? */
static bool d_can_continue(const DCapture *c, int sq, bool king, DBits captured, int lastdir)
{
    DBits empty = d_cap_empty(c, captured);
    DBits opp = c->opp & ~captured;
    for (int d = 0; d < DRAUGHTS_DIRS; d++) {
        if (RULES.no_reversal && lastdir >= 0 && d == 3 - lastdir) continue;
        int s;
        if (!king) {
            if (!(d_man_capture_dirs(c->side) >> d & 1)) continue;
            s = d_next(sq, d);
            if (s >= 0 && !(d_man_prey(opp, c->kings0) >> s & 1)) continue;
        } else {
            s = d_king_sight(sq, d, empty);
        }
        if (s < 0 || !(opp >> s & 1)) continue;
        int l = d_next(s, d);
        if (l >= 0 && (empty >> l & 1)) return true;
    }
    return false;
}

/* K convention: is the route just completed (c->path to end) a sequence
 * of captured pieces not counted yet? Records it. The pieces are read off
 * the landing squares: each leg jumps the one piece of `captured` on it
 * that the route has not jumped before. */
__attribute__((noinline, cold)) static bool d_seq_new(DCapture *c, int end, DBits captured)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL * (uint64_t)(c->from + 1);
    DBits done = 0;
    int prev = c->from;
    const DraughtsTables *t = &draughts_tables;
    int g = d_geom();
    for (int i = 0; i < c->plen; i++) {
        int l = c->path[i];
        int dr = t->rank[g][l] - t->rank[g][prev], df = t->file[g][l] - t->file[g][prev];
        int d = -1; /* the direction from prev to l (draughts.c's numbering) */
        for (int k = 0; k < DRAUGHTS_DIRS && d < 0 && (dr || df); k++) {
            int q = t->next[g][prev][k];
            if (q >= 0 && (t->rank[g][q] - t->rank[g][prev]) * dr >= 0 && (t->file[g][q] - t->file[g][prev]) * df >= 0 &&
                ((t->rank[g][q] != t->rank[g][prev]) == (dr != 0)) && ((t->file[g][q] != t->file[g][prev]) == (df != 0)))
                d = k;
        }
        for (int q = d < 0 ? l : t->next[g][prev][d]; q >= 0 && q != l; q = t->next[g][q][d])
            if ((captured & ~done) >> q & 1) {
                done |= d_bit(q);
                h = (h ^ (uint64_t)(q + 1)) * 0x100000001b3ULL;
            }
        prev = l;
    }
    h = (h ^ (uint64_t)(end + 101)) * 0x100000001b3ULL;
    for (int i = 0; i < c->nseen; i++)
        if (c->seen[i] == h) return false;
    if (c->nseen < c->seen_max) c->seen[c->nseen++] = h;
    return true;
}

/* Precedence of a complete chain under RULES.choice: of all chains, only
 * those with the highest key are legal moves (free choice: all keys 0). */
static inline uint64_t d_cap_key(const DCapture *c, DBits captured)
{
    uint64_t taken = (uint64_t)D_POP(captured);
    uint64_t kings = (uint64_t)D_POP(captured & c->kings0);
    switch (RULES.choice) {
    case CHOICE_MAJORITY: return taken;
    case CHOICE_KING_FIRST: return c->man ? 0 : 1;
    case CHOICE_PIECES_KINGS: return taken << 8 | kings;
    case CHOICE_ITALIAN: return taken << 48 | (uint64_t)!c->man << 40 | kings << 32 | c->order;
    case CHOICE_FREE: break;
    }
    return 0;
}

static void d_cap_terminal(DCapture *c, int sq, bool king, DBits captured)
{
    bool promo = c->man && (king || (d_crown_rank(c->side) >> sq & 1));
    Move m = {.captured = d_cap_pack(captured), .from = (uint8_t)c->from, .to = (uint8_t)sq, .kind = MOVE_CAPTURE,
              .promo = (uint8_t)promo};
    if (c->routes) {
        DRoutes *r = c->routes;
        if (c->only != ~(DBits)0 && captured != c->only) return; /* a route of another move */
        if (r->len == ROUTES_MAX) {
            r->truncated = true;
            return;
        }
        DRoute *out = &r->routes[r->len++];
        out->move = m;
        out->key = d_cap_key(c, captured);
        out->len = c->plen;
        memcpy(out->path, c->path, (size_t)c->plen);
        return;
    }
    MoveList *list = c->list;
    int taken = D_POP(captured);
    if (RULES.choice != CHOICE_FREE) {
        uint64_t key = d_cap_key(c, captured);
        if (key < c->best) return;
        if (key > c->best) {
            c->best = key;
            list->len = 0;
            if (c->mode == GEN_SEQUENCES) c->nseen = 0;
        }
    }
    if ((c->mode == GEN_DISTINCT || c->paths) && taken >= 2) {
        for (int i = 0; i < list->len; i++) {
            const Move *o = &list->moves[i];
            if (o->captured == m.captured && o->from == m.from && o->to == m.to && o->promo == m.promo) {
                if (c->paths && (c->mode != GEN_SEQUENCES || d_seq_new(c, sq, captured))) c->paths[i]++;
                return;
            }
        }
    }
    if (c->mode == GEN_SEQUENCES && taken >= 2) d_seq_new(c, sq, captured);
    if (list->len < MOVES_MAX) {
        if (c->paths) c->paths[list->len] = 1;
        list->moves[list->len++] = m;
    }
}

static void d_cap_search(DCapture *c, int sq, bool king, DBits captured, int lastdir)
{
    DBits empty = d_cap_empty(c, captured);
    DBits opp = c->opp & ~captured & c->only;
    bool any = false;
    for (int d = 0; d < DRAUGHTS_DIRS; d++) {
        if (RULES.no_reversal && lastdir >= 0 && d == 3 - lastdir) continue;
        if (!king) {
            if (!(d_man_capture_dirs(c->side) >> d & 1)) continue;
            int n1 = d_next(sq, d);
            if (n1 < 0 || !(d_man_prey(opp, c->kings0) >> n1 & 1)) continue;
            int n2 = d_next(n1, d);
            if (n2 < 0 || !(empty >> n2 & 1)) continue;
            any = true;
            bool crowned = RULES.crown_mid_capture && (d_crown_rank(c->side) >> n2 & 1);
            c->path[c->plen++] = (uint8_t)n2;
            d_cap_search(c, n2, crowned, captured | d_bit(n1), d);
            c->plen--;
            continue;
        }
        int s = d_king_sight(sq, d, empty);
        if (s < 0 || !(opp >> s & 1)) continue;
        int l = d_next(s, d);
        if (l < 0 || !(empty >> l & 1)) continue;
        any = true;
        DBits taken = captured | d_bit(s);
        uint32_t order = c->order;
        if (RULES.choice == CHOICE_ITALIAN && (c->kings0 >> s & 1))
            c->order |= 1u << (31 - D_POP(captured));
        if (RULES.short_kings) {
            c->path[c->plen++] = (uint8_t)l;
            d_cap_search(c, l, true, taken, d);
            c->plen--;
            if (RULES.choice == CHOICE_ITALIAN) c->order = order;
            continue;
        }
        DBits empty_after = d_cap_empty(c, taken);
        int lands[10], nl = 0; /* a long diagonal less the king and its prey: 10 on 12x12 */
        unsigned cont = 0;
        for (; l >= 0 && (empty_after >> l & 1); l = d_next(l, d)) {
            if (RULES.must_land_to_continue && d_can_continue(c, l, true, taken, d)) cont |= 1u << nl;
            lands[nl++] = l;
        }
        for (int i = 0; i < nl; i++) {
            if (cont && !(cont >> i & 1)) continue;
            c->path[c->plen++] = (uint8_t)lands[i];
            d_cap_search(c, lands[i], true, taken, d);
            c->plen--;
        }
        if (RULES.choice == CHOICE_ITALIAN) c->order = order;
    }
    if (!any && captured) d_cap_terminal(c, sq, king, captured);
}

static void d_cap_init(DCapture *c, const DPos *p, GenMode mode, MoveList *list, DRoutes *routes)
{
    c->side = p->side;
    c->opp = p->pieces[p->side ^ 1];
    c->only = ~(DBits)0;
    c->paths = NULL;
    c->best = 0;
    /* read only by the rules that weigh kings, and by the K convention
     * (seen and nseen: d_gen_captures_counted) */
    if (RULES.choice != CHOICE_FREE || RULES.men_spare_kings) c->kings0 = p->kings & c->opp;
    if (RULES.choice == CHOICE_ITALIAN) c->order = 0;
    c->mode = mode;
    c->list = list;
    c->routes = routes;
    c->plen = 0;
}

static void d_cap_from(DCapture *c, const DPos *p, int from)
{
    c->from = from;
    c->man = !(p->kings >> from & 1);
    c->empty = ~(p->pieces[0] | p->pieces[1]) | d_bit(from);
    c->plen = 0;
    d_cap_search(c, from, !c->man, 0, -1);
}

/* Men that can make a first jump: a man on s jumps in direction d when the
 * neighbour in d is an enemy piece with an empty square behind it. */
static inline DBits d_men_capturers(const DPos *p)
{
    int side = p->side;
    DBits own = p->pieces[side], opp = p->pieces[side ^ 1];
    DBits empty = ~(own | opp);
    DBits men = own & ~p->kings, from = 0;
    unsigned dirs = d_man_capture_dirs(side);
    DBits prey = d_man_prey(opp, p->kings);
    for (int d = 0; d < DRAUGHTS_DIRS; d++)
        if (dirs >> d & 1) from |= d_step(d_step(empty, 3 - d) & prey, 3 - d);
    return from & men;
}

static int d_gen_captures(const DPos *p, MoveList *list, GenMode mode)
{
    DCapture c;
    d_cap_init(&c, p, mode, list, NULL);
    DBits from = d_men_capturers(p) | (p->pieces[p->side] & p->kings);
    for (DBits b = from; b; b &= b - 1) d_cap_from(&c, p, D_CTZ(b));
    return list->len;
}

static int d_gen(const DPos *p, MoveList *list, GenMode mode)
{
    list->len = 0;
    if (d_has_capture(p)) return d_gen_captures(p, list, mode);
    return d_gen_quiet(p, list);
}

/* A draw by a rule that ends the game only if the strong side has not won
 * by its last counted move (Russian D4, D7, D8; Pool P-D2): when the side
 * to move has no legal move that move has won, and the rule gives way to
 * "no legal move" (OUTCOME_NONE: game_outcome and the search find the
 * loss); else a draw with reason id. */
static inline Outcome d_draw_unless_won(const DPos *p, const char *id, const char **reason)
{
    MoveList list;
    if (d_gen(p, &list, GEN_DISTINCT) == 0) return OUTCOME_NONE;
    *reason = id;
    return OUTCOME_DRAW;
}

/* ------------------------------------------------------------------ */
/* Make                                                                */

static inline uint8_t d_sat_inc(uint8_t v) { return v == 255 ? v : (uint8_t)(v + 1); }

/* The lone-king class of p's material (RULES.lone_king_counts): 1 when a
 * single king faces three pieces of which one or more are kings, 2 when it
 * faces one or two such pieces, else 0 (international.md I-D3, I-D4). */
static inline int d_lone_class(const DPos *p)
{
    for (int weak = 0; weak < 2; weak++) {
        DBits w = p->pieces[weak], s = p->pieces[weak ^ 1];
        if ((w & (w - 1)) || !(w & p->kings)) continue;
        if (!(s & p->kings)) return 0;
        int n = D_POP(s);
        return n == 3 ? 1 : n <= 2 ? 2 : 0;
    }
    return 0;
}

/* The counters of q after a capture or crowning from p, under
 * RULES.lone_king_counts: each count runs from the first position of its
 * class; the count of three pieces runs on into the class of one or two
 * (the game ends at whichever limit comes first, international.md I-D4). */
static inline void d_lone_counts(const DPos *p, DPos *q)
{
    int was = d_lone_class(p), is = d_lone_class(q);
    if (is && is == was) {
        q->material_plies = d_sat_inc(p->material_plies);
        q->big_plies = d_sat_inc(p->big_plies);
    } else {
        q->material_plies = 0;
        q->big_plies = was == 1 && is == 2 ? d_sat_inc(p->material_plies) : 0;
    }
}

static void d_make(const DPos *p, const Move *m, DPos *q)
{
    const DraughtsTables *t = &draughts_tables;
    int us = p->side, them = us ^ 1;
    int king = (int)(p->kings >> m->from & 1);
    uint64_t key = p->key ^ t->zobrist_side ^ t->zobrist[us][king][m->from] ^
                   t->zobrist[us][king | m->promo][m->to];
    *q = *p;
    /* Captured pieces go first: a king may end its chain on a square it
     * emptied earlier in the same chain (Turkish draughts). */
    if (m->captured) {
        DBits captured = d_cap_unpack(m->captured);
        for (DBits b = captured; b; b &= b - 1) {
            int sq = D_CTZ(b);
            key ^= t->zobrist[them][(p->kings >> sq) & 1][sq];
        }
        q->pieces[them] &= ~captured;
        q->kings &= ~captured;
    }
    DBits move_bits = d_bit(m->from) ^ d_bit(m->to);
    q->pieces[us] ^= move_bits;
    if (king)
        q->kings ^= move_bits;
    else if (m->promo)
        q->kings |= d_bit(m->to);
    q->key = key;
    q->side = (uint8_t)them;
    /* A capture or a man's step forward can never be undone. A Turkish man's
     * sideways step can (it may step back on its next turn), so it keeps the
     * repetition window open: a man moving along its rank is reversible. */
    bool forward = !king && (!RULES.orthogonal || (m->from >> 3) != (m->to >> 3));
    q->reversible = (m->captured || forward) ? 0 : d_sat_inc(p->reversible);
    if (!RULES.lone_king_counts) {
        q->material_plies = (m->captured || m->promo) ? 0 : d_sat_inc(p->material_plies);
    } else if (m->captured || m->promo) {
        d_lone_counts(p, q);
    } else {
        q->material_plies = d_sat_inc(p->material_plies);
        q->big_plies = d_sat_inc(p->big_plies);
    }
}

/* ------------------------------------------------------------------ */
/* Perft                                                               */

/* The D list of captures with each move's number of landing paths (P), or
 * of distinct sequences of captured pieces (K: mode GEN_SEQUENCES). */
static int d_gen_captures_counted(const DPos *p, MoveList *list, uint32_t paths[MOVES_MAX], GenMode mode)
{
    DCapture c;
    uint64_t seen[ROUTES_MAX];
    list->len = 0;
    d_cap_init(&c, p, mode == GEN_SEQUENCES ? GEN_SEQUENCES : GEN_DISTINCT, list, NULL);
    c.paths = paths;
    c.seen = seen;
    c.nseen = 0;
    c.seen_max = ROUTES_MAX;
    DBits from = d_men_capturers(p) | (p->pieces[p->side] & p->kings);
    for (DBits b = from; b; b &= b - 1) d_cap_from(&c, p, D_CTZ(b));
    return list->len;
}

static uint64_t d_count_moves(const DPos *p, GenMode mode)
{
    if (!d_has_capture(p)) return (uint64_t)d_count_quiet_side(p, p->side);
    MoveList list;
    list.len = 0;
    if (mode == GEN_DISTINCT) return (uint64_t)d_gen_captures(p, &list, mode);
    uint32_t paths[MOVES_MAX];
    uint64_t n = 0;
    d_gen_captures_counted(p, &list, paths, mode);
    for (int i = 0; i < list.len; i++) n += paths[i];
    return n;
}

/* Make without the Zobrist key and counters: perft needs neither. */
static inline void d_make_bare(const DPos *p, const Move *m, DPos *q)
{
    int us = p->side, them = us ^ 1;
    DBits move_bits = d_bit(m->from) ^ d_bit(m->to);
    q->pieces[us] = p->pieces[us] ^ move_bits;
    DBits captured = d_cap_unpack(m->captured);
    q->pieces[them] = p->pieces[them] & ~captured;
    DBits kings = p->kings & ~captured; /* first: see d_make */
    if (kings >> m->from & 1)
        kings ^= move_bits;
    else if (m->promo)
        kings |= d_bit(m->to);
    q->kings = kings;
    q->side = (uint8_t)them;
}

/* Perft. The P count is computed over the D list: the routes of one D move
 * lead to the same position, so each child counts paths times. */
static uint64_t d_perft_rec(const DPos *p, int depth, GenMode mode)
{
    if (depth == 1) return d_count_moves(p, mode);
    MoveList list;
    uint32_t paths[MOVES_MAX];
    bool counted = mode != GEN_DISTINCT && d_has_capture(p);
    if (counted)
        d_gen_captures_counted(p, &list, paths, mode);
    else
        d_gen(p, &list, GEN_DISTINCT);
    uint64_t nodes = 0;
    DPos child;
    for (int i = 0; i < list.len; i++) {
        d_make_bare(p, &list.moves[i], &child);
        uint64_t n = d_perft_rec(&child, depth - 1, mode);
        nodes += counted ? n * paths[i] : n;
    }
    return nodes;
}

/* ------------------------------------------------------------------ */
/* Game-table functions                                                */

static int dg_gen_moves(const Position *pos, MoveList *list, GenMode mode)
{
    return d_gen(dp(pos), list, mode == GEN_SEQUENCES ? GEN_DISTINCT : mode); /* K: perft only */
}
static bool dg_has_capture(const Position *pos) { return d_has_capture(dp(pos)); }
static bool dg_is_quiet(const Position *pos)
{
    DPos other = *dp(pos);
    other.side ^= 1;
    return !d_has_capture(dp(pos)) && !d_has_capture(&other);
}
static void dg_make_move(const Position *pos, const Move *m, Position *child) { d_make(dp(pos), m, dpw(child)); }
static Color dg_side_to_move(const Position *pos) { return (Color)dp(pos)->side; }
static uint64_t dg_hash(const Position *pos) { return dp(pos)->key; }
static uint64_t dg_hash_full(const Position *pos) { return d_hash_full(dp(pos)); }
static int dg_reversible_plies(const Position *pos) { return dp(pos)->reversible; }
static int dg_piece_count(const Position *pos) { return D_POP(dp(pos)->pieces[0] | dp(pos)->pieces[1]); }

static uint64_t dg_perft(const Position *pos, int depth, GenMode mode)
{
    if (depth <= 0) return 1;
    return d_perft_rec(dp(pos), depth, mode);
}

static void dg_pos_mirror(const Position *pos, Position *out)
{
    /* 180-degree rotation with colours swapped: square s -> D_TOP - s. */
    const DPos *p = dp(pos);
    DPos *q = dpw(out);
    memset(out, 0, sizeof *out);
    DBits w = 0, b = 0, k = 0;
    for (int sq = 0; sq <= D_TOP; sq++) {
        if (p->pieces[0] >> sq & 1) b |= d_bit(D_TOP - sq);
        if (p->pieces[1] >> sq & 1) w |= d_bit(D_TOP - sq);
        if (p->kings >> sq & 1) k |= d_bit(D_TOP - sq);
    }
    q->pieces[0] = w;
    q->pieces[1] = b;
    q->kings = k;
    q->side = (uint8_t)(p->side ^ 1);
    q->reversible = p->reversible;
    q->material_plies = p->material_plies;
    q->big_plies = p->big_plies;
    q->key = d_hash_full(q);
}

/* ------------------------------------------------------------------ */
/* Position strings: PDN 3.0 FEN, "W:Wa1,c3,Kd4:Bb6,f6"                 */

static bool d_playable(int sq)
{
    if (d_huge()) return (bool)(D_BOARD12 >> sq & 1);
    return d_big() ? (D_BOARD10 >> sq & 1) : RULES.orthogonal || (D_DARK >> sq & 1);
}

/* Where colour c crowns, for messages: "White crowns on 1-4 in Brazilian
 * draughts". */
static const char *d_crown_text(int c)
{
    static _Thread_local char text[96];
    const char *who = c == COLOR_WHITE ? "White" : "Black";
    if (!RULES.numeric) {
        snprintf(text, sizeof text, "%s crowns on rank %d in %s", who, c == COLOR_WHITE ? 8 : 1, RULES.title);
        return text;
    }
    int lo = D_NSQ + 1, hi = 0;
    for (int n = 1; n <= D_NSQ; n++) {
        int sq = draughts_square_from_number(RULES.numbering, n);
        if (d_crown_rank(c) >> sq & 1) lo = n < lo ? n : lo, hi = n > hi ? n : hi;
    }
    snprintf(text, sizeof text, "%s crowns on %d-%d in %s", who, lo, hi, RULES.title);
    return text;
}

/* The name of square sq as the variant writes it: "a1" or "29"; out needs
 * 3 bytes. */
static void d_square_name(int sq, char out[3])
{
    if (RULES.numeric)
        snprintf(out, 3, "%d", draughts_number_of_square(RULES.numbering, sq));
    else
        draughts_square_name(sq, out);
}

/* Does the variant read square numbers (1..32, or 1..50)? */
static inline bool d_numbered(void) { return RULES.numbering != NUMBERING_NONE; }

/* How the variant names squares, for messages. */
static const char *d_square_names(void)
{
    if (d_big() || d_huge()) return d_huge() ? "with numbers 1..72" : "with numbers 1..50";
    return RULES.numeric ? "with numbers 1..32" : d_numbered() ? "a1..h8 or 1..32" : "a1..h8";
}

static int d_fen_error(char err[ERR_MAX], const char *fen, const char *what)
{
    bool cut = strlen(fen) > 100; /* a long string is shown cut, marked "..." */
    snprintf(err, ERR_MAX, "bad position string '%.*s%s': %.130s", cut ? 97 : 100, fen, cut ? "..." : "", what);
    return -1;
}


/* Parse one square token at *s: a number 1..32 when the variant numbers
 * its squares, an algebraic name unless it writes numbers. Numbers go
 * through the checked parser: 4294967328 is no square 32. */
static int d_parse_square_token(const char **s)
{
    const char *t = *s;
    if (isdigit((unsigned char)*t)) {
        if (!d_numbered()) return -1;
        int64_t n;
        if (num_scan_digits(s, 1, D_NSQ, &n) != NUM_OK) return -1;
        return draughts_square_from_number(RULES.numbering, (int)n);
    }
    if (RULES.numeric) return -1;
    int used = 0;
    int sq = draughts_square_parse(t, &used);
    if (sq >= 0) *s = t + used;
    return sq;
}

/* A parsed board that cannot arise in a game: more men and kings of a side
 * than it starts with (promotion turns a man into a king, nothing adds a
 * piece), or no piece of the side that just moved (docs/rules: a side
 * without pieces has no move and has lost, so no turn follows). Men on
 * their crowning rank are refused while parsing. 0, or -1 with msg. */
static int d_check_possible(const DPos *p, char msg[160])
{
    for (int c = 0; c < 2; c++) {
        int n = D_POP(p->pieces[c]);
        if (n > RULES.pieces_per_side) {
            snprintf(msg, 160, "%s has %d pieces (men and kings), more than the %d it starts with in %s",
                     c == COLOR_WHITE ? "White" : "Black", n, RULES.pieces_per_side, RULES.title);
            return -1;
        }
    }
    /* The side that just moved had a move, so it had a piece, and a move
     * never removes the mover's own pieces: without one the game ended
     * (no-moves) before this turn. */
    if (!p->pieces[!p->side]) {
        snprintf(msg, 160, "%s, who just moved, has no pieces (it had no move: the game was over before this turn)",
                 p->side == COLOR_WHITE ? "Black" : "White");
        return -1;
    }
    return 0;
}

static int dg_pos_from_fen_raw(Position *pos, const char *fen, char err[ERR_MAX])
{
    memset(pos, 0, sizeof *pos);
    DPos *p = dpw(pos);
    const char *s = fen;
    char msg[160];
    size_t flen = strnlen(fen, FEN_MAX);
    if (flen >= FEN_MAX) {
        snprintf(msg, sizeof msg, "longer than %d bytes", FEN_MAX - 1);
        return d_fen_error(err, fen, msg);
    }
    bool section_seen[2] = {false, false};
    int quotes = 0, brackets = 0; /* those opened before the position: each must close after it */
    for (; isspace((unsigned char)*s) || *s == '"' || *s == '['; s++) {
        quotes += *s == '"';
        brackets += *s == '[';
    }
    char side = (char)toupper((unsigned char)*s);
    if (side != 'W' && side != 'B') return d_fen_error(err, fen, "side to move must be W or B");
    p->side = side == 'W' ? COLOR_WHITE : COLOR_BLACK;
    s++;
    while (*s == ':') {
        s++;
        char col = (char)toupper((unsigned char)*s);
        if (col != 'W' && col != 'B') {
            snprintf(msg, sizeof msg, "expected W or B at character %d", (int)(s - fen) + 1);
            return d_fen_error(err, fen, msg);
        }
        int c = col == 'W' ? COLOR_WHITE : COLOR_BLACK;
        if (section_seen[c]) {
            snprintf(msg, sizeof msg, "a second %s section at character %d", c == COLOR_WHITE ? "white" : "black",
                     (int)(s - fen) + 1);
            return d_fen_error(err, fen, msg);
        }
        section_seen[c] = true;
        s++;
        while (*s && *s != ':' && *s != '.' && *s != '"' && *s != ']' && !isspace((unsigned char)*s)) {
            bool king = false;
            if (*s == 'K' || *s == 'k') {
                king = true;
                s++;
            }
            const char *tok = s;
            int sq = d_parse_square_token(&s);
            if (sq < 0 && d_numbered() && isdigit((unsigned char)*tok)) {
                int digits = (int)strspn(tok, "0123456789");
                snprintf(msg, sizeof msg, "bad square number '%.*s%s' at character %d (squares are 1..%d in %s)",
                         digits < 24 ? digits : 24, tok, digits < 24 ? "" : "...", (int)(tok - fen) + 1, D_NSQ,
                         RULES.title);
                return d_fen_error(err, fen, msg);
            }
            if (sq < 0) {
                snprintf(msg, sizeof msg, "bad square at character %d (%s names squares %s)", (int)(tok - fen) + 1,
                         RULES.title, d_square_names());
                return d_fen_error(err, fen, msg);
            }
            int last = sq;
            if (*s == '-' && d_numbered() && !isdigit((unsigned char)*tok)) /* "f2-2" is no range */
                return d_fen_error(err, fen, "bad square range (a range joins two square numbers)");
            if (*s == '-' && d_numbered() && isdigit((unsigned char)s[1]) && isdigit((unsigned char)*tok)) {
                /* numeric range 1-12 */
                s++;
                int64_t lo = 0, hi = 0;
                const char *t = tok;
                num_scan_digits(&t, 1, D_NSQ, &lo); /* read above */
                if (num_scan_digits(&s, 1, D_NSQ, &hi) != NUM_OK || hi < lo)
                {
                    snprintf(msg, sizeof msg, "bad square range (squares are 1..%d in %s)", D_NSQ, RULES.title);
                    return d_fen_error(err, fen, msg);
                }
                last = -1;
                for (long n = lo; n <= hi; n++) {
                    int q = draughts_square_from_number(RULES.numbering, (int)n);
                    if ((p->pieces[0] | p->pieces[1]) >> q & 1) return d_fen_error(err, fen, "a square is listed twice");
                    if (!king && (d_crown_rank(c) >> q & 1)) {
                        snprintf(msg, sizeof msg, "a man in the range stands on its crowning rank (square %ld; %s)",
                                 n, d_crown_text(c));
                        return d_fen_error(err, fen, msg);
                    }
                    p->pieces[c] |= d_bit(q);
                    if (king) p->kings |= d_bit(q);
                }
            }
            if (last >= 0) {
                char name[3];
                d_square_name(sq, name);
                if (!d_playable(sq)) {
                    snprintf(msg, sizeof msg, "square %s is not a playing square", name);
                    return d_fen_error(err, fen, msg);
                }
                if ((p->pieces[0] | p->pieces[1]) >> sq & 1) {
                    snprintf(msg, sizeof msg, "square %s is listed twice", name);
                    return d_fen_error(err, fen, msg);
                }
                if (!king && (d_crown_rank(c) >> sq & 1)) {
                    snprintf(msg, sizeof msg, "a man on %s stands on its crowning rank (%s)", name, d_crown_text(c));
                    return d_fen_error(err, fen, msg);
                }
                p->pieces[c] |= d_bit(sq);
                if (king) p->kings |= d_bit(sq);
            }
            if (*s == ',') {
                s++;
                if (!*s || *s == ':' || *s == '.' || *s == '"' || *s == ']' || isspace((unsigned char)*s)) {
                    snprintf(msg, sizeof msg, "a ',' at character %d with no square after it (a ',' comes "
                             "between two squares)", (int)(s - fen));
                    return d_fen_error(err, fen, msg);
                }
            } else if (*s && *s != ':' && *s != '.' && *s != '"' && *s != ']' && !isspace((unsigned char)*s)) {
                snprintf(msg, sizeof msg, "unexpected '%c' at character %d", *s, (int)(s - fen) + 1);
                return d_fen_error(err, fen, msg);
            }
        }
    }
    /* PDN 3.0's FEN may end with one '.' (and a tag's '"' and ']') */
    const char *blank = NULL; /* the first blank after the sections */
    for (bool dot = false; *s == '.' || *s == '"' || *s == ']' || isspace((unsigned char)*s); s++) {
        if (!blank && isspace((unsigned char)*s)) blank = s;
        quotes -= *s == '"';
        brackets -= *s == ']';
        if (*s != '.') continue;
        if (dot) {
            snprintf(msg, sizeof msg, "a second '.' at character %d (the position may end with one)",
                     (int)(s - fen) + 1);
            return d_fen_error(err, fen, msg);
        }
        dot = true;
    }
    if (*s && blank && *s == ':') { /* "W:Wa1 :Bh8": the blank ended the position */
        snprintf(msg, sizeof msg, "a %s at character %d inside the position (its sections are joined by ':' "
                 "without blanks)", *blank == '\t' ? "tab" : "blank", (int)(blank - fen) + 1);
        return d_fen_error(err, fen, msg);
    }
    if (*s) {
        snprintf(msg, sizeof msg, "unexpected '%c' at character %d", *s, (int)(s - fen) + 1);
        return d_fen_error(err, fen, msg);
    }
    if (quotes || brackets) /* a pasted tag's value must be whole */
        return d_fen_error(err, fen, quotes ? "its '\"' are not paired around the position"
                                            : "its '[' and ']' are not paired around the position");
    if (d_check_possible(p, msg) != 0) return d_fen_error(err, fen, msg);
    p->key = d_hash_full(p);
    return 0;
}

static void dg_pos_to_fen(const Position *pos, char out[FEN_MAX])
{
    const DPos *p = dp(pos);
    int n = snprintf(out, FEN_MAX, "%c", p->side == COLOR_WHITE ? 'W' : 'B');
    for (int c = 0; c < 2; c++) {
        n += snprintf(out + n, FEN_MAX - (size_t)n, ":%c", c == COLOR_WHITE ? 'W' : 'B');
        bool first = true;
        for (int i = 0; i < (D_NSQ > 64 ? D_NSQ : 64); i++) { /* numbers in increasing order, else squares a1, b1, ... */
            int sq = RULES.numeric ? (i < D_NSQ ? draughts_square_from_number(RULES.numbering, i + 1) : -1) : i;
            if (sq < 0 || !(p->pieces[c] >> sq & 1)) continue;
            char name[3];
            d_square_name(sq, name);
            n += snprintf(out + n, FEN_MAX - (size_t)n, "%s%s%s", first ? "" : ",",
                          (p->kings >> sq & 1) ? "K" : "", name);
            first = false;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Move notation                                                       */

/* Every capture route of the piece on `from` that jumps only pieces of
 * `only` (a move's captured set: its routes; ~0: all routes of all lengths,
 * majority not applied). Caller owns *routes. */
static void d_routes_from(const DPos *p, int from, DBits only, DRoutes *routes)
{
    DCapture c;
    routes->len = 0;
    routes->truncated = false;
    d_cap_init(&c, p, GEN_PATHS, NULL, routes);
    c.only = only;
    d_cap_from(&c, p, from);
}

static bool d_same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->promo == b->promo &&
           a->kind == b->kind;
}

/* Does another legal move of p share m's start and end square (a
 * capture then needs its landing squares to be told apart)? */
static bool d_end_shared(const DPos *p, const Move *m)
{
    if (m->from == m->to) return true;
    MoveList *list = malloc(sizeof *list);
    if (!list) return true; /* the full form is never wrong */
    d_gen(p, list, GEN_DISTINCT);
    bool shared = false;
    for (int i = 0; i < list->len && !shared; i++)
        shared = list->moves[i].from == m->from && list->moves[i].to == m->to && !d_same_move(&list->moves[i], m);
    free(list);
    return shared;
}

/* A move as the variant writes it: quiet a-b; a capture with every landing
 * square (a:b:c), or, in numbered notation, start x end (AxB) unless
 * another move shares both, then AxCx..xB. The route written is the first
 * of the highest precedence (Italian: the one that passes the tests). */
static void dg_move_to_str(const Position *pos, const Move *m, char out[MOVE_STR_MAX])
{
    char a[3], b[3];
    d_square_name(m->from, a);
    d_square_name(m->to, b);
    if (m->kind != MOVE_CAPTURE) {
        snprintf(out, MOVE_STR_MAX, "%s-%s", a, b);
        return;
    }
    char sep = RULES.numeric ? 'x' : ':';
    if (RULES.numeric && !d_end_shared(dp(pos), m)) {
        snprintf(out, MOVE_STR_MAX, "%s%c%s", a, sep, b);
        return;
    }
    DRoutes *routes = malloc(sizeof *routes);
    int n = snprintf(out, MOVE_STR_MAX, "%s", a);
    const DRoute *best = NULL;
    if (routes) {
        d_routes_from(dp(pos), m->from, d_cap_unpack(m->captured), routes);
        for (int i = 0; i < routes->len; i++) {
            const DRoute *r = &routes->routes[i];
            if (d_same_move(&r->move, m) && (!best || r->key > best->key)) best = r;
        }
        for (int j = 0; best && j < best->len && n < MOVE_STR_MAX - 4; j++) {
            d_square_name(best->path[j], b);
            n += snprintf(out + n, MOVE_STR_MAX - (size_t)n, "%c%s", sep, b);
        }
    }
    if (!best) { /* not a legal capture of this position: write start:end */
        d_square_name(m->to, b);
        snprintf(out + n, MOVE_STR_MAX - (size_t)n, "%c%s", sep, b);
    }
    free(routes);
}

/* Is `want` (len n) a subsequence of route r's landing squares ending at its end? */
static bool d_route_fits(const DRoute *r, const int *want, int n)
{
    int j = 0;
    for (int i = 0; i < r->len && j < n; i++)
        if (r->path[i] == want[j]) j++;
    return j == n;
}

static int dg_move_from_str_raw(const Position *pos, const char *text, Move *move, char err[ERR_MAX])
{
    const DPos *p = dp(pos);
    int sq[ROUTE_LEN_MAX + 1], n = 0, from_file = -1;
    char capture_mark = 0; /* the first ':', 'x' or 'X' written: the text says it is a capture */
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    /* Russian short form: file of origin + destination ("ed4", "b:d6"). */
    if (!RULES.numeric && s[0] >= 'a' && s[0] <= 'h' && !isdigit((unsigned char)s[1])) {
        from_file = s[0] - 'a';
        s++;
        if (*s == ':' || *s == 'x') capture_mark = *s;
        if (*s == ':' || *s == 'x' || *s == '-') s++;
    }
    for (;;) {
        if (n == ROUTE_LEN_MAX + 1) {
            snprintf(err, ERR_MAX, "move '%.60s' is too long", text);
            return -1;
        }
        const char *tok = s;
        int v = d_parse_square_token(&s);
        if (v < 0) {
            int len = (int)strcspn(tok, "-:xX \t");
            if (!*tok && n == 0 && from_file < 0)
                snprintf(err, ERR_MAX, "an empty move (%s names squares %s)", RULES.title, d_square_names());
            else if (!*tok)
                snprintf(err, ERR_MAX, "move '%.60s' ends where a square is expected (%s names squares %s)", text,
                         RULES.title, d_square_names());
            else if (len == 0) /* a separator where a square belongs: "xx", "c3-x4" */
                snprintf(err, ERR_MAX, "move '%.60s': '%c' at character %d where a square is expected (%s names "
                         "squares %s)", text, *tok, (int)(tok - text) + 1, RULES.title, d_square_names());
            else
                snprintf(err, ERR_MAX, "move '%.60s': bad square '%.*s' at character %d (%s names squares %s)", text,
                         len < 12 ? len : 12, tok, (int)(tok - text) + 1, RULES.title, d_square_names());
            return -1;
        }
        sq[n++] = v;
        if (*s == '-' || *s == ':' || *s == 'x' || *s == 'X') {
            if (*s != '-' && !capture_mark) capture_mark = *s;
            s++;
            continue;
        }
        break;
    }
    while (isspace((unsigned char)*s)) s++;
    if (*s) {
        snprintf(err, ERR_MAX, "move '%.60s': unexpected '%c' at character %d (a move joins its squares with '-', a "
                 "capture with '%s')", text, *s, (int)(s - text) + 1, RULES.numeric ? "x" : ":' or 'x");
        return -1;
    }
    if (from_file < 0 && n < 2) {
        snprintf(err, ERR_MAX, "move '%.60s' needs a start and an end square", text);
        return -1;
    }
    MoveList *list = malloc(sizeof *list);
    DRoutes *routes = malloc(sizeof *routes);
    if (!list || !routes) {
        free(list);
        free(routes);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    d_gen(p, list, GEN_DISTINCT);
    int found = 0;
    Move cand[2];
    int end = sq[n - 1];
    /* Full notation first: a move one of whose routes is exactly the given
     * landing list is meant even if a longer route also fits the squares. */
    if (from_file < 0 && n >= 2 && d_has_capture(p)) {
        for (int i = 0; i < list->len && found < 2; i++) {
            const Move *m = &list->moves[i];
            if (m->from != sq[0] || m->to != end || m->kind != MOVE_CAPTURE) continue;
            d_routes_from(p, m->from, d_cap_unpack(m->captured), routes);
            bool exact = false;
            for (int r = 0; r < routes->len && !exact; r++) {
                const DRoute *rt = &routes->routes[r];
                if (!d_same_move(&rt->move, m) || rt->len != n - 1) continue;
                exact = true;
                for (int j = 0; j < rt->len && exact; j++) exact = rt->path[j] == sq[j + 1];
            }
            if (exact) cand[found++] = *m;
        }
        if (found == 1) {
            *move = cand[0];
            free(list);
            free(routes);
            return 0;
        }
        found = 0;
    }
    for (int i = 0; i < list->len && found < 2; i++) {
        const Move *m = &list->moves[i];
        if (m->to != end) continue;
        if (from_file >= 0 ? (m->from % 8 != from_file || n != 1) : m->from != sq[0]) continue;
        if (m->kind == MOVE_CAPTURE && from_file < 0 && n > 2) {
            /* the given landing squares must lie on one route of this move */
            d_routes_from(p, m->from, d_cap_unpack(m->captured), routes);
            bool ok = false;
            for (int r = 0; r < routes->len && !ok; r++)
                ok = d_same_move(&routes->routes[r].move, m) && d_route_fits(&routes->routes[r], sq + 1, n - 1);
            if (!ok) continue;
        } else if (m->kind == MOVE_QUIET && n > 2) {
            continue;
        }
        cand[found++] = *m;
    }
    int rc = 0;
    if (found == 1 && capture_mark && cand[0].kind != MOVE_CAPTURE) {
        char plain[MOVE_STR_MAX];
        dg_move_to_str(pos, &cand[0], plain);
        snprintf(err, ERR_MAX, "move '%.60s': '%c' marks a capture, and %.12s captures nothing (write %.12s)", text,
                 capture_mark, plain, plain);
        rc = -1;
    } else if (found == 1) {
        *move = cand[0];
    } else if (found == 0) {
        char legal[100] = "";
        if (d_has_capture(p)) { /* name the captures the rules allow: the one meant may be among them */
            size_t used = 0;
            for (int i = 0; i < list->len; i++) {
                char t[MOVE_STR_MAX];
                dg_move_to_str(pos, &list->moves[i], t);
                if (used + strlen(t) + 8 >= sizeof legal) { /* room for ", ..." */
                    snprintf(legal + used, sizeof legal - used, ", ...");
                    break;
                }
                used += (size_t)snprintf(legal + used, sizeof legal - used, "%s%s", i ? ", " : "", t);
            }
        }
        snprintf(err, ERR_MAX, "illegal move '%.60s'%s%s%s", text, legal[0] ? " (a capture is compulsory: " : "",
                 legal, legal[0] ? ")" : "");
        rc = -1;
    } else {
        char a[MOVE_STR_MAX], b[MOVE_STR_MAX];
        dg_move_to_str(pos, &cand[0], a);
        dg_move_to_str(pos, &cand[1], b);
        snprintf(err, ERR_MAX, "ambiguous move '%.40s': %.60s or %.60s", text, a, b);
        rc = -1;
    }
    free(list);
    free(routes);
    return rc;
}

/* The parsers as the Game table gives them: messages made printable
 * (a binary input quoted in one is shown as \\xNN; game.h). */
static int dg_pos_from_fen(Position *pos, const char *fen, char err[ERR_MAX])
{
    int rc = dg_pos_from_fen_raw(pos, fen, err);
    if (rc != 0) game_err_printable(err);
    return rc;
}

static int dg_move_from_str(const Position *pos, const char *text, Move *move, char err[ERR_MAX])
{
    int rc = dg_move_from_str_raw(pos, text, move, err);
    if (rc != 0) game_err_printable(err);
    return rc;
}

/* Ordering value of a capture: a man 100, a king 300 (a rough king value
 * for ordering only; the evaluation's are tuned). */
static int dg_capture_value(const Position *pos, const Move *m)
{
    DBits captured = d_cap_unpack(m->captured), kings = captured & dp(pos)->kings;
    return 100 * D_POP(captured & ~kings) + 300 * D_POP(kings);
}

/* The Game-table fields every draughts variant fills the same way. */
/* Game.board_text: the board of this variant's geometry. */
static void dg_board_text(const Position *pos, bool flip, bool colour, char *out, size_t size)
{
    (void)colour; /* nothing to mark in red */
#ifdef DRAUGHTS_WIDE
    draughts_board_text_numbered_wide(dp(pos), RULES.numbering, flip, out, size);
#else
    if (RULES.numeric) {
        /* the book's board: turned where its dark corner is on the right */
        bool mirror = RULES.numbering == NUMBERING_ITALIAN || RULES.numbering == NUMBERING_SPANISH;
        draughts_board_text_numbered(dp(pos), RULES.numbering, mirror, flip, out, size);
        return;
    }
    draughts_board_text(dp(pos), RULES.orthogonal, flip, out, size);
#endif
}

#define DRAUGHTS_GAME_FUNCTIONS                                                                    \
    .pos_size = sizeof(DPos), .pos_from_fen = dg_pos_from_fen, .pos_to_fen = dg_pos_to_fen, \
    .gen_moves = dg_gen_moves, .has_capture = dg_has_capture, .is_quiet = dg_is_quiet,             \
    .make_move = dg_make_move,                                                                     \
    .side_to_move = dg_side_to_move, .hash = dg_hash, .hash_full = dg_hash_full,                   \
    .reversible_plies = dg_reversible_plies, .piece_count = dg_piece_count,                        \
    .move_to_str = dg_move_to_str,                                                                 \
    .move_from_str = dg_move_from_str, .perft = dg_perft, .pos_mirror = dg_pos_mirror,             \
    .capture_value = dg_capture_value, .board_text = dg_board_text, .perft_sequences = true

#endif
