/* english.c — English draughts: English draughts / American checkers: short kings, men capture forward only, free choice.
 * Rules: docs/rules/english.md; the move generator is the 8x8 draughts core
 * (draughts_impl.h) under the switches below, the evaluation Russian's
 * terms with this game's own weights (engine/games/diagonal/diagonal.h). */
#include <stdint.h>

#include "engine/games/draughts/draughts.h"

static const DraughtsRules RULES = {
    .orthogonal = false,
    .men_capture_back = false,
    .short_kings = true,
    .men_spare_kings = false,
    .remove_at_once = false, /* removed when the move ends (Turkish strike) */
    .choice = CHOICE_FREE, /* any capture */
    .crown_mid_capture = false, /* crowned only where the move ends */
    .no_reversal = false,
    .must_land_to_continue = false, /* no flying kings */
    .pieces_per_side = 12,
    .numbering = NUMBERING_ENGLISH,
    .numeric = true,
    .title = "English draughts",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/diagonal/diagonal.h"
#include "engine/games/english/english.h"
#include "engine/games/english/weights.h"

DIAGONAL_WEIGHTS(ENGLISH, english)

static const DiagonalDraws DRAWS = {.quiet_id = "E-D2", .quiet_plies = 80};

DIAGONAL_RULES(english, DRAWS, DRAUGHTS_EGTB_DIAGONAL_SHORT)

static const char *const BENCH[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    DIAGONAL_BENCH_ENGLISH_NUMBERS,
    NULL,
};

const Game english_game = {
    .name = "english",
    .title = "English draughts",
    .pdn_gametype = 21,
    DIAGONAL_GAME_FIELDS(ENGLISH, english, english_evaluate_game, english_trace_game),
    .start_fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    /* The ACF's three-move deck, dealt in self-play and matches as the
     * federation deals it in tournaments (docs/rules/english.md). */
    .opening_book = "data/openings/english_3move_156.tsv",
    .rule_outcome = rule_outcome,
    .repetition_reason = "E-D1",
    .rule_draw_reasons = "E-D2",
    .bench_fens = BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .egtb = &EGTB,
    .move_examples = "22-18, 18x11, the full route 22x13x6x28 when two captures share start and end",
};

/* The quiet-move counter of short kings, for the evaluation's MOBILITY term
 * (english_eval.c; Italian's quiet moves are the same). */
int english_count_quiet(const DraughtsPos *p, int side) { return d_count_quiet_side(p, side); }
