/* italian.c — Italian draughts: Italian draughts: short kings, men capture forward only and never a king, four precedence tests.
 * Rules: docs/rules/italian.md; the move generator is the 8x8 draughts core
 * (draughts_impl.h) under the switches below, the evaluation Russian's
 * terms with this game's own weights (engine/games/diagonal/diagonal.h). */
#include <stdint.h>

#include "engine/games/draughts/draughts.h"

static const DraughtsRules RULES = {
    .orthogonal = false,
    .men_capture_back = false,
    .short_kings = true,
    .men_spare_kings = true,
    .remove_at_once = false, /* removed when the move ends (Turkish strike) */
    .choice = CHOICE_ITALIAN, /* pieces, then with a king, then kings, then the earliest king */
    .crown_mid_capture = false, /* crowned only where the move ends */
    .no_reversal = false,
    .must_land_to_continue = false, /* no flying kings */
    .pieces_per_side = 12,
    .numbering = NUMBERING_ITALIAN,
    .numeric = true,
    .title = "Italian draughts",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/diagonal/diagonal.h"
#include "engine/games/english/english.h"
#include "engine/games/italian/weights.h"

DIAGONAL_WEIGHTS(ITALIAN, italian)

static const DiagonalDraws DRAWS = {.quiet_id = "It-D2", .quiet_plies = 80};

DIAGONAL_RULES(italian, DRAWS, DRAUGHTS_EGTB_DIAGONAL_SHORT)

static const char *const BENCH[] = {
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "B:W19,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W18,19,21,22,23,25,26,28,30,32:B1,2,3,5,6,7,8,9,10,12",
    "B:W17,18,20,21,23,24,27,28,30,31:B2,4,5,6,7,8,9,10,11",
    "W:W17,18,22,23,27,28:B6,8,10,11,15,16",
    "W:W21,22,23,K32:BK1,11,12",
    "B:WK19,24,31:BK2,4,9",
    NULL,
};

const Game italian_game = {
    .name = "italian",
    .title = "Italian draughts",
    .pdn_gametype = 22,
    DIAGONAL_GAME_FIELDS(ITALIAN, italian, english_evaluate_game, english_trace_game),
    .start_fen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    .rule_outcome = rule_outcome,
    .repetition_reason = "It-D1",
    .rule_draw_reasons = "It-D2",
    .bench_fens = BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .egtb = &EGTB,
    .move_examples = "22-18, 18x11, the full route 22x13x6x28 when two captures share start and end",
};
