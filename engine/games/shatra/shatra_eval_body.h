/* shatra_eval_body.h — the Shatra evaluation, written once, compiled plain
 * (shatra_eval.c) and traced (shatra_eval_traced.c). Terms: eval_terms.def;
 * every term is White minus Black. */
#include "engine/eval_body.h"
#include "engine/games/shatra/shatra.h"
#include "engine/games/shatra/shatra_board.h"

/* The relation tables computed: SH_REL_* of shatra_board.h (the build's
 * DAMA_SHATRA_RELATIONS mask). */

#ifndef DAMA_SHATRA_EVAL_ONCE
#define DAMA_SHATRA_EVAL_ONCE
enum {
    SHATRA_RING_STATES = 6561,     /* 3^8: BIY_RING states of a region */
    SHATRA_FORTRESS_STATES = 59049 /* 3^10: FORTRESS_STATE states of a region */
};
static const int SHATRA_PST_BASE[SH_TYPES] = {0, ST_BIY_PST, ST_BATYR_PST, ST_TURA_PST, ST_YALKYN_PST, ST_SHATRA_PST};

/* Could a reserve Batyr or Tura of c leave by the great road now? */
static inline bool shatra_road_open(const ShatraPos *p, int c)
{
    const ShatraTables *t = &shatra_tables;
    uint64_t occ = p->color[0] | p->color[1];
    for (uint64_t b = p->color[c] & p->reserve & (p->type[SH_BATYR] | p->type[SH_TURA]) & t->road_start[c]; b;
         b &= b - 1) {
        for (int s = t->nb[__builtin_ctzll(b)][t->forward[c]]; s >= 0 && !(occ >> s & 1); s = t->nb[s][t->forward[c]])
            if (!(t->fort_gate[c] >> s & 1)) return true;
    }
    return false;
}
#endif

#undef EVAL_EG_OFFSET
#define EVAL_EG_OFFSET ST_EG_OFFSET

EVAL_FUNCTION(shatra_evaluate, shatra_evaluate_traced)
{
    const ShatraPos *p = shp(pos);
    const ShatraTables *t = &shatra_tables;
    int32_t score = 0, score_eg = 0;
    uint64_t occ = p->color[0] | p->color[1];
    /* The relation tables' shared parts: the piece type of every Biy and
     * piece in play (box), the side to move's pieces its opponent could jump */
    uint8_t box[SH_SQUARES];
    uint64_t inplay = 0, attacked_mover = 0;
    int fort[2] = {0, 0};
    if (SH_REL_SAFETY || SH_REL_PAIR) {
        inplay = (occ & ~p->reserve) | p->type[SH_BIY];
        for (int ty = SH_BIY; ty < SH_TYPES; ty++)
            for (uint64_t b = p->type[ty] & inplay; b; b &= b - 1) box[__builtin_ctzll(b)] = (uint8_t)ty;
    }
    if (SH_REL_SAFETY) attacked_mover = shatra_attacked_set(p, p->side);
    if (SH_REL_FORTRESS) {
        /* FORTRESS_STATE: own fortress and gate, digit i for the owner's
         * view square 53 + i (White: index 52 + i; Black: 9 - i); the
         * table is large, so its two weights of each side are fetched
         * now and read at the end */
        const uint64_t w_own = p->color[COLOR_WHITE], b_own = p->color[COLOR_BLACK];
        fort[COLOR_WHITE] = ST_FORTRESS_STATE + SHATRA_FORTRESS_STATES * ((w_own & p->reserve) ? 0 : 1) +
                            t->b3[w_own >> 52 & 0x3FF] + 2 * t->b3[b_own >> 52 & 0x3FF];
        fort[COLOR_BLACK] = ST_FORTRESS_STATE + SHATRA_FORTRESS_STATES * ((b_own & p->reserve) ? 0 : 1) +
                            t->b3_rev[b_own & 0x3FF] + 2 * t->b3_rev[w_own & 0x3FF];
        for (int c = 0; c < 2; c++) {
            __builtin_prefetch(&w[fort[c]]);
            __builtin_prefetch(&w[fort[c] + EVAL_EG_OFFSET]);
        }
    }
    for (int c = 0; c < 2; c++) {
        int sign = c == COLOR_WHITE ? 1 : -1;
        uint64_t own = p->color[c];
        uint64_t res = own & p->reserve, play = own & ~p->reserve;
        uint64_t shatras = play & p->type[SH_SHATRA];
        EVAL_ADD(ST_BIY, sign * __builtin_popcountll(own & p->type[SH_BIY]));
        EVAL_ADD(ST_BATYR, sign * __builtin_popcountll(play & p->type[SH_BATYR]));
        EVAL_ADD(ST_TURA, sign * __builtin_popcountll(play & p->type[SH_TURA]));
        EVAL_ADD(ST_YALKYN, sign * __builtin_popcountll(play & p->type[SH_YALKYN]));
        EVAL_ADD(ST_SHATRA, sign * __builtin_popcountll(shatras));
        EVAL_ADD(ST_RESERVE_BATYR, sign * __builtin_popcountll(res & p->type[SH_BATYR]));
        EVAL_ADD(ST_RESERVE_TURA, sign * __builtin_popcountll(res & p->type[SH_TURA]));
        EVAL_ADD(ST_RESERVE_YALKYN, sign * __builtin_popcountll(res & p->type[SH_YALKYN]));
        EVAL_ADD(ST_RESERVE_SHATRA, sign * __builtin_popcountll(res & p->type[SH_SHATRA]));
        for (int ty = SH_BIY; ty < SH_TYPES; ty++) {
            uint64_t set = (ty == SH_BIY ? own : play) & p->type[ty];
            for (; set; set &= set - 1) {
                int sq = __builtin_ctzll(set);
                EVAL_ADD(SHATRA_PST_BASE[ty] + (c == COLOR_WHITE ? sq : 61 - sq), sign);
            }
        }
        uint64_t past_moat = ((1ULL << SH_SQUARES) - 1) & ~(t->own_half[c] | t->fort_gate[c]);
        int past = __builtin_popcountll(shatras & past_moat);
        EVAL_ADD(ST_SHATRA_PAST_MOAT, sign * past);
        if (sh_pool(p, c)) EVAL_ADD(ST_PROMOTION_POTENTIAL, sign * past);
        EVAL_ADD(ST_WAITING_SHATRA, sign * __builtin_popcountll(shatras & t->back_row[c]));
        if (!res) EVAL_ADD(ST_FORTRESS_OPEN, sign);
        EVAL_ADD(ST_URGENT, sign * __builtin_popcountll(p->urgent & own));
        uint64_t biy = own & p->type[SH_BIY];
        if (biy) {
            int k = __builtin_ctzll(biy);
            if (shatra_biy_attacked(p, c)) EVAL_ADD(ST_BIY_ATTACKED, sign);
            EVAL_ADD(ST_BIY_EXPOSED, sign * __builtin_popcountll(t->king_nb[k] & ~occ));
            EVAL_ADD(ST_BIY_DEFENDED, sign * __builtin_popcountll(t->king_nb[k] & own));
            if (t->fort_gate[c] & biy) EVAL_ADD(ST_BIY_HOME, sign);
            /* BIY_RING: digit d from the neighbour in direction d of the
             * owner's view (Black's board turned: direction d ^ 4) */
            const uint64_t opp = p->color[c ^ 1];
            const int turn = c == COLOR_WHITE ? 0 : 4;
            int ring = 0;
            for (int d = SH_DIRS - 1; d >= 0; d--) {
                const int n = t->nb[k][d ^ turn];
                const uint64_t b = n >= 0 ? sh_bit(n) : 0;
                ring = 3 * ring + ((own & b) ? 1 : (opp & b) ? 2 : 0);
            }
            EVAL_ADD(ST_BIY_RING + SHATRA_RING_STATES * ((t->fort_gate[c] & biy) ? 0 : 1) + ring, sign);
        }
        if (SH_REL_SAFETY || SH_REL_PAIR) {
            /* PIECE_SAFETY and PIECE_PAIR, over the own Biy and pieces in
             * play; the attack bit only for the side to move (the other
             * side's pieces: 0, docs/eval.md) */
            const uint64_t actors = inplay & own, others = inplay & p->color[c ^ 1];
            const uint64_t attacked = p->side == c ? attacked_mover : 0;
            const int turn = c == COLOR_WHITE ? 0 : 4, moving = p->side == c ? 0 : 1;
            for (uint64_t b = actors; b; b &= b - 1) {
                const int sq = __builtin_ctzll(b), ty = box[sq];
                if (SH_REL_SAFETY && ty != SH_BIY) {
                    const int n = __builtin_popcountll(t->king_nb[sq] & own);
                    const int a = (int)(attacked >> sq & 1);
                    EVAL_ADD(ST_PIECE_SAFETY + ((ty - SH_BATYR) * 2 + a) * 6 + (n < 2 ? n : 2) * 2 + moving, sign);
                }
                if (!SH_REL_PAIR) continue;
                for (uint64_t q = t->pair_nb[c][sq] & actors; q; q &= q - 1) {
                    const int nq = __builtin_ctzll(q);
                    EVAL_ADD(ST_PIECE_PAIR + 20 * (ty - 1) + 4 * (box[nq] - 1) + (t->dir_to[sq][nq] ^ turn), sign);
                }
                for (uint64_t q = t->king_nb[sq] & others; q; q &= q - 1) {
                    const int nq = __builtin_ctzll(q);
                    EVAL_ADD(ST_PIECE_PAIR + 100 + 40 * (ty - 1) + 8 * (box[nq] - 1) + (t->dir_to[sq][nq] ^ turn), sign);
                }
            }
        }
        if (SH_REL_SET) {
            EVAL_ADD(ST_PIECE_SET + 9 * __builtin_popcountll(own & p->type[SH_BATYR]) +
                         3 * __builtin_popcountll(own & p->type[SH_TURA]) + __builtin_popcountll(own & p->type[SH_YALKYN]),
                     sign);
        }
        EVAL_ADD(ST_MOBILITY, sign * shatra_count_slider_moves(p, c));
        if (shatra_road_open(p, c)) EVAL_ADD(ST_GREAT_ROAD_OPEN, sign);
        EVAL_ADD(ST_GREAT_ROAD_PIECE, sign * __builtin_popcountll(play & (p->type[SH_BATYR] | p->type[SH_TURA]) &
                                                                  t->great_road & ~t->fort_gate[c]));
    }
    if (SH_REL_FORTRESS) {
        EVAL_ADD(fort[COLOR_WHITE], 1);
        EVAL_ADD(fort[COLOR_BLACK], -1);
    }
    EVAL_ADD(ST_TEMPO, p->side == COLOR_WHITE ? 1 : -1);
    EVAL_RETURN(__builtin_popcountll(occ) < ST_PHASE_MAX ? __builtin_popcountll(occ) : ST_PHASE_MAX, ST_PHASE_MAX);
}
#undef EVAL_ADD
#undef EVAL_RETURN
