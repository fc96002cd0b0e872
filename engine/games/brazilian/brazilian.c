/* brazilian.c — Brazilian draughts: International rules on the 8x8 board.
 * Rules: docs/rules/brazilian.md; the move generator is the 8x8 draughts core
 * (draughts_impl.h) under the switches below, the evaluation Russian's
 * terms with this game's own weights (engine/games/diagonal/diagonal.h). */
#include <stdint.h>

#include "engine/games/draughts/draughts.h"

static const DraughtsRules RULES = {
    .orthogonal = false,
    .men_capture_back = true,
    .short_kings = false,
    .men_spare_kings = false,
    .remove_at_once = false, /* removed when the move ends (Turkish strike) */
    .choice = CHOICE_MAJORITY, /* the most pieces, men and kings alike */
    .crown_mid_capture = false, /* crowned only where the move ends */
    .no_reversal = false,
    .must_land_to_continue = true, /* implied by the majority rule; prunes */
    .lone_king_counts = true,      /* I-D3, I-D4 by class of material */
    .pieces_per_side = 12,
    .numbering = NUMBERING_ENGLISH,
    .numeric = true,
    .title = "Brazilian draughts",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/diagonal/diagonal.h"
#include "engine/games/brazilian/weights.h"

DIAGONAL_WEIGHTS(BRAZILIAN, brazilian)

static const DiagonalDraws DRAWS = {.quiet_id = "B-D2", .quiet_plies = 40, .big_id = "B-D3", .big_plies = 32, .big_all_kings = false, .small_id = "B-D4", .small_plies = 10};

DIAGONAL_RULES(brazilian, DRAWS, DRAUGHTS_EGTB_DIAGONAL)

static const char *const BENCH[] = {
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    DIAGONAL_BENCH_ENGLISH_NUMBERS,
    NULL,
};

const Game brazilian_game = {
    .name = "brazilian",
    .title = "Brazilian draughts",
    .pdn_gametype = 26,
    DIAGONAL_GAME_FIELDS(BRAZILIAN, brazilian, diagonal_evaluate_flying, diagonal_trace_flying),
    .start_fen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    .rule_outcome = rule_outcome,
    .repetition_reason = "B-D1",
    .rule_draw_reasons = "B-D2,B-D3,B-D4",
    .bench_fens = BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .egtb = &EGTB,
    .move_examples = "22-18, 18x11, the full route 22x13x6x28 when two captures share start and end",
};
