/* pool.c — Pool checkers: American Pool checkers: men capture backward, flying kings, free choice.
 * Rules: docs/rules/pool.md; the move generator is the 8x8 draughts core
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
    .choice = CHOICE_FREE, /* any capture */
    .crown_mid_capture = false, /* crowned only where the move ends */
    .no_reversal = false,
    .must_land_to_continue = true, /* as Russian: the rule book's "all possible jumps" for a flying king */
    .pieces_per_side = 12,
    .numbering = NUMBERING_ENGLISH,
    .numeric = true,
    .title = "Pool checkers",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/diagonal/diagonal.h"
#include "engine/games/pool/weights.h"

DIAGONAL_WEIGHTS(POOL, pool)

static const DiagonalDraws DRAWS = {.quiet_id = "P-D3", .quiet_plies = 30, .big_id = "P-D2", .big_plies = 26, .big_all_kings = true,
                                    .big_unless_won = true};

DIAGONAL_RULES(pool, DRAWS, DRAUGHTS_EGTB_DIAGONAL)

static const char *const BENCH[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    DIAGONAL_BENCH_ENGLISH_NUMBERS,
    NULL,
};

const Game pool_game = {
    .name = "pool",
    .title = "Pool checkers",
    .pdn_gametype = 23,
    DIAGONAL_GAME_FIELDS(POOL, pool, diagonal_evaluate_flying, diagonal_trace_flying),
    .start_fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    .rule_outcome = rule_outcome,
    .repetition_reason = "P-D1",
    .rule_draw_reasons = "P-D2,P-D3",
    .bench_fens = BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .egtb = &EGTB,
    .move_examples = "22-18, 18x11, the full route 22x13x6x28 when two captures share start and end",
};
