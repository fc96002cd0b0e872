/* international.c — International draughts (10x10, FMJD rules): the rules
 * table, the draw rules, the game table. Rules: docs/rules/international.md;
 * the move generator is the draughts core (draughts_impl.h) on the 10x10
 * board of draughts.h, under Brazilian's switches (Brazilian is these rules
 * on 8x8). */
#include "engine/games/international/international.h"

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
    .pieces_per_side = 20,
    .size = 10,
    .numbering = NUMBERING_INTERNATIONAL,
    .numeric = true,
    .title = "International draughts",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/diagonal/diagonal_draws.h"
#include "engine/games/draughts/draughts_egtb.h"
#include "engine/games/international/weights.h"

static const WeightsHeader IN_HEADER = WEIGHTS_HEADER(INTERNATIONAL, international);
static int32_t in_weights_laid[IN_WEIGHTS_LEN];
static const int32_t *in_weights;

static const int32_t *in_weights_default(void) { return in_weights ? in_weights : in_weights_laid; }

/* Draw rules I-D2..I-D4 (international.md, "End of the game"); I-D1
 * (threefold repetition) is game_outcome's. */
static const DiagonalDraws DRAWS = {.quiet_id = "I-D2", .quiet_plies = 50, .big_id = "I-D3", .big_plies = 32,
                                    .big_all_kings = false, .small_id = "I-D4", .small_plies = 10};

static Outcome in_rule_outcome(const Position *pos, const char **reason)
{
    return diagonal_rule_outcome(&DRAWS, pos, reason);
}

/* Plies the material may still last under I-D2..I-D4 (EgtbIndexer): a
 * database win counts only when it ends sooner (docs/egtb.md). */
static int in_rule_plies_left(const Position *pos)
{
    const char *why;
    return diagonal_plies_left(&DRAWS, (const DraughtsPos *)pos->data, &why);
}

static const EgtbIndexer IN_EGTB = {.game = &international_game, DRAUGHTS_EGTB_DIAGONAL10,
                                    .rule_plies_left = in_rule_plies_left};

static int32_t in_evaluate(const Position *pos, const int32_t *w) { return international_evaluate(pos, w); }

static int32_t in_evaluate_trace(const Position *pos, const int32_t *w, EvalTrace *trace)
{
    return eval_trace_with(international_evaluate_traced, pos, w, trace);
}

static const EvalTerm IN_TERMS[] = {
#define TERM(name, count, doc) {#name, IN_##name, count, doc},
#include "engine/games/international/eval_terms.def"
#undef TERM
#define TERM(name, count, doc) {#name "_EG", IN_##name##_EG, count, "endgame twin of " #name " (taper: Game.eg_offset): " doc},
#include "engine/games/international/eval_terms.def"
#undef TERM
};
_Static_assert(sizeof IN_TERMS / sizeof IN_TERMS[0] == INTERNATIONAL_EVAL_TERMS_LEN, "term count");

/* The start, a middlegame with captures about, an ending with kings. */
static const char *const IN_BENCH[] = {
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
    "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
    "B:W27,28,31,32,33,36,37,38,39,41,42,43,44,47,48:B3,4,6,8,9,11,12,13,14,16,17,18,19,21,23",
    "W:W29,33,34,38,39,43,45,48,49:B7,12,13,14,17,18,19,22,24",
    "W:WK46,30,34,39:BK5,12,18",
    NULL,
};

static void in_init(void)
{
    draughts_init();
    international_eval_init();
    in_weights = weights_laid_out(&international_game, &IN_HEADER, in_weights_laid);
}

/* A square table (50 weights) rank by rank from the owner's first rank. */
static const unsigned char IN_BOARD_ROWS[] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0};

const Game international_game = {
    .name = "international",
    .title = "International draughts",
    .pdn_gametype = 20,
    DRAUGHTS_GAME_FUNCTIONS,
    .start_fen = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,"
                 "14,15,16,17,18,19,20",
    .rule_outcome = in_rule_outcome,
    .repetition_reason = "I-D1",
    .rule_draw_reasons = "I-D2,I-D3,I-D4",
    .terms_len = INTERNATIONAL_EVAL_TERMS_LEN,
    .terms = IN_TERMS,
    .weights_len = IN_WEIGHTS_LEN,
    .eg_offset = IN_EG_OFFSET,
    .phase_max = IN_PHASE_MAX,
    .scale_weight = IN_MAN,
    .weights_default = in_weights_default,
    .weights_header = &IN_HEADER,
    .weights_lineage = INTERNATIONAL_WEIGHTS_LINEAGE,
    .evaluate = in_evaluate,
    .evaluate_trace = in_evaluate_trace,
    .bench_fens = IN_BENCH,
    .bench_depth = 9,
    .perft_bench_depth = 8,
    .opening_book = NULL, /* balanced random lines */
    .init = in_init,
    .search_params = NULL,
    .egtb = &IN_EGTB,
    .move_examples = "32-28, 28x19, the full route 6x28x14x3 when two captures share start and end",
    .board_rows = IN_BOARD_ROWS,
    .value_unit = "centi-men",
};

int international_count_quiet(const DraughtsPos *p, int side) { return d_count_quiet_side(p, side); }
