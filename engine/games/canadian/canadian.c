/* canadian.c — Canadian draughts (12x12): the rules table, the draw rules,
 * the game table. Rules: docs/rules/canadian.md; the move generator is the
 * draughts core (draughts_impl.h) on the 12x12 board of draughts.h (its
 * 128-bit sets: DRAUGHTS_WIDE), under International's switches: the game
 * is International draughts on the larger board. */
#include "engine/games/canadian/canadian.h"

#include <stdint.h>

#include "engine/eval.h"
#include "engine/weights_id.h"

static const DraughtsRules RULES = {
    .orthogonal = false,
    .men_capture_back = true,
    .short_kings = false,
    .men_spare_kings = false,
    .remove_at_once = false,    /* removed when the move ends (Turkish strike) */
    .choice = CHOICE_MAJORITY,  /* the most pieces, men and kings alike */
    .crown_mid_capture = false, /* crowned only where the move ends */
    .no_reversal = false,
    .must_land_to_continue = true, /* implied by the majority rule; prunes */
    .lone_king_counts = true,      /* I-D3, I-D4 by class of material */
    .pieces_per_side = 30,
    .size = 12,
    .numbering = NUMBERING_CANADIAN,
    .numeric = true,
    .title = "Canadian draughts",
};

#define DRAUGHTS_WIDE 1
#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/canadian/weights.h"
#include "engine/games/diagonal/diagonal_draws.h"
#include "engine/games/draughts/draughts_egtb.h"

static const WeightsHeader CA_HEADER = WEIGHTS_HEADER(CANADIAN, canadian);
static int32_t ca_weights_laid[CA_WEIGHTS_LEN];
static const int32_t *ca_weights;

static const int32_t *ca_weights_default(void) { return ca_weights ? ca_weights : ca_weights_laid; }

/* Draw rules Ca-D2..Ca-D4 (canadian.md: International's I-D2..I-D4); Ca-D1
 * (threefold repetition) is game_outcome's. */
static const DiagonalDraws DRAWS = {.quiet_id = "Ca-D2", .quiet_plies = 50, .big_id = "Ca-D3", .big_plies = 32,
                                    .big_all_kings = false, .small_id = "Ca-D4", .small_plies = 10};

/* Plies the material may last under Ca-D2..Ca-D4 (0: drawn now), the
 * earliest rule's id to *why. */
static int ca_plies_left(const Position *pos, const char **why)
{
    const DraughtsPosWide *p = dp(pos);
    int pieces[2], kings[2];
    for (int c = 0; c < 2; c++) {
        pieces[c] = D_POP(p->pieces[c]);
        kings[c] = D_POP(p->pieces[c] & p->kings);
    }
    return diagonal_plies_left_counts(&DRAWS, pieces, kings, p->reversible, p->material_plies, p->big_plies, why);
}

static Outcome ca_rule_outcome(const Position *pos, const char **reason)
{
    const char *why;
    if (ca_plies_left(pos, &why) > 0) return OUTCOME_NONE;
    *reason = why;
    return OUTCOME_DRAW;
}

/* EgtbIndexer.rule_plies_left: a database win counts only when it ends
 * sooner (docs/egtb.md). */
static int ca_rule_plies_left(const Position *pos)
{
    const char *why;
    return ca_plies_left(pos, &why);
}

static const EgtbIndexer CA_EGTB = {.game = &canadian_game, DRAUGHTS_EGTB_DIAGONAL12,
                                    .rule_plies_left = ca_rule_plies_left};

static int32_t ca_evaluate(const Position *pos, const int32_t *w) { return canadian_evaluate(pos, w); }

static int32_t ca_evaluate_trace(const Position *pos, const int32_t *w, EvalTrace *trace)
{
    return eval_trace_with(canadian_evaluate_traced, pos, w, trace);
}

static const EvalTerm CA_TERMS[] = {
#define TERM(name, count, doc) {#name, CA_##name, count, doc},
#include "engine/games/canadian/eval_terms.def"
#undef TERM
#define TERM(name, count, doc) {#name "_EG", CA_##name##_EG, count, "endgame twin of " #name " (taper: Game.eg_offset): " doc},
#include "engine/games/canadian/eval_terms.def"
#undef TERM
};
_Static_assert(sizeof CA_TERMS / sizeof CA_TERMS[0] == CANADIAN_EVAL_TERMS_LEN, "term count");

/* The start, an opening with contact, an ending with kings. */
static const char *const CA_BENCH[] = {
    "W:W43-72:B1-30",
    "B:W38,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71:"
    "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,33",
    "W:WK67,40,45,52:BK6,20,27",
    NULL,
};

static void ca_init(void)
{
    draughts_init();
    canadian_eval_init();
    ca_weights = weights_laid_out(&canadian_game, &CA_HEADER, ca_weights_laid);
}

/* A square table (72 weights) rank by rank from the owner's first rank. */
static const unsigned char CA_BOARD_ROWS[] = {6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0};

const Game canadian_game = {
    .name = "canadian",
    .title = "Canadian draughts",
    .pdn_gametype = 27,
    DRAUGHTS_GAME_FUNCTIONS,
    .captured_shift = 7, /* Move.captured keeps indices 7..70 (draughts.h) */
    .start_fen = "W:W43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72:"
                 "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30",
    .rule_outcome = ca_rule_outcome,
    .repetition_reason = "Ca-D1",
    .rule_draw_reasons = "Ca-D2,Ca-D3,Ca-D4",
    .terms_len = CANADIAN_EVAL_TERMS_LEN,
    .terms = CA_TERMS,
    .weights_len = CA_WEIGHTS_LEN,
    .eg_offset = CA_EG_OFFSET,
    .phase_max = CA_PHASE_MAX,
    .scale_weight = CA_MAN,
    .weights_default = ca_weights_default,
    .weights_header = &CA_HEADER,
    .weights_lineage = CANADIAN_WEIGHTS_LINEAGE,
    .evaluate = ca_evaluate,
    .evaluate_trace = ca_evaluate_trace,
    .bench_fens = CA_BENCH,
    .bench_depth = 8,
    .perft_bench_depth = 7,
    .opening_book = NULL, /* balanced random lines */
    .init = ca_init,
    .search_params = NULL,
    .egtb = &CA_EGTB,
    .move_examples = "45-39, 45x67, the full route with every landing square when two captures share start and end",
    .board_rows = CA_BOARD_ROWS,
    .value_unit = "centi-men",
};

int canadian_count_quiet(const DraughtsPosWide *p, int side) { return d_count_quiet_side(p, side); }
