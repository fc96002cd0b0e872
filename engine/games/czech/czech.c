/* czech.c — Czech draughts: Czech draughts: men capture forward only, flying kings, a king's capture first.
 * Rules: docs/rules/czech.md; the move generator is the 8x8 draughts core
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
    .choice = CHOICE_KING_FIRST, /* a king's capture when a king can capture, else any */
    .crown_mid_capture = false, /* crowned only where the move ends */
    .no_reversal = false,
    .must_land_to_continue = true, /* as Russian */
    .pieces_per_side = 12,
    .numbering = NUMBERING_ENGLISH,
    .numeric = false,
    .title = "Czech draughts",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/diagonal/diagonal.h"
#include "engine/games/czech/weights.h"

DIAGONAL_WEIGHTS(CZECH, czech)

static const DiagonalDraws DRAWS = {.quiet_id = "C-D2", .quiet_plies = 30};

DIAGONAL_RULES(czech, DRAWS, DRAUGHTS_EGTB_DIAGONAL)

static const char *const BENCH[] = {
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,e1,b2,f2,h2,c3,e3,g3,d4,f4:Bb6,f6,h6,a7,c7,e7,g7,d8,f8,h8",
    "B:Wc1,e1,b2,d2,a3,c3,g3,b4,f4,h4:Bd6,f6,h6,a7,c7,e7,g7,b8,f8",
    "W:Wb2,d2,c3,e3,f4,h4:Ba5,c5,d6,f6,a7,e7",
    "W:WKa1,c3,e3,g3:BKh8,b6,d6",
    "B:WKd4,a3,c1:BKf8,h6,b8",
    NULL,
};

const Game czech_game = {
    .name = "czech",
    .title = "Czech draughts",
    .pdn_gametype = 29,
    DIAGONAL_GAME_FIELDS(CZECH, czech, diagonal_evaluate_flying, diagonal_trace_flying),
    .start_fen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    .rule_outcome = rule_outcome,
    .repetition_reason = "C-D1",
    .rule_draw_reasons = "C-D2",
    .bench_fens = BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .egtb = &EGTB,
    .move_examples = "c3-d4, a1:e5:c7, short forms like cd4 or a1:c7",
};
