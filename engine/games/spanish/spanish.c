/* spanish.c — Spanish draughts: Spanish draughts: men capture forward only, flying kings, quantity then quality.
 * Rules: docs/rules/spanish.md; the move generator is the 8x8 draughts core
 * (draughts_impl.h) under the switches below, the evaluation Russian's
 * terms with this game's own weights (engine/games/diagonal/diagonal.h). */
#include <stdint.h>

#include "engine/games/draughts/draughts.h"

static const DraughtsRules RULES = {
    .orthogonal = false,
    .men_capture_back = false,
    .short_kings = false,
    .men_spare_kings = false,
    .remove_at_once = false, /* removed when the move ends (Turkish strike) */
    .choice = CHOICE_PIECES_KINGS, /* the most pieces, then the most kings */
    .crown_mid_capture = false, /* crowned only where the move ends */
    .no_reversal = false,
    .must_land_to_continue = true, /* implied by the quantity rule; prunes */
    .pieces_per_side = 12,
    .numbering = NUMBERING_SPANISH,
    .numeric = true,
    .title = "Spanish draughts",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/diagonal/diagonal.h"
#include "engine/games/spanish/weights.h"

DIAGONAL_WEIGHTS(SPANISH, spanish)

static const DiagonalDraws DRAWS = {.quiet_id = "S-D2", .quiet_plies = 40};

DIAGONAL_RULES(spanish, DRAWS, DRAUGHTS_EGTB_DIAGONAL)

static const char *const BENCH[] = {
    "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32",
    "B:W1,2,3,4,5,6,7,8,9,10,11,14:B21,22,23,24,25,26,27,28,29,30,31,32",
    "W:W1,3,5,7,8,10,11,12,14,15:B21,23,24,25,26,27,28,30,31,32",
    "B:W2,3,5,6,9,10,12,13,15,16:B22,23,24,25,26,27,28,29,31",
    "W:W5,6,10,11,15,16:B17,18,22,23,25,27",
    "W:WK1,10,11,12:B21,22,K32",
    "B:W2,9,K14:B24,29,K31",
    NULL,
};

const Game spanish_game = {
    .name = "spanish",
    .title = "Spanish draughts",
    .pdn_gametype = 24,
    DIAGONAL_GAME_FIELDS(SPANISH, spanish, diagonal_evaluate_flying, diagonal_trace_flying),
    .start_fen = "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32",
    .rule_outcome = rule_outcome,
    .repetition_reason = "S-D1",
    .rule_draw_reasons = "S-D2",
    .bench_fens = BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .egtb = &EGTB,
    .move_examples = "22-18, 18x11, the full route 22x13x6x28 when two captures share start and end",
};
