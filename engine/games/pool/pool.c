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

static const DiagonalDraws DRAWS = {.quiet_id = "P-D3", .quiet_plies = 30, .big_id = "P-D2", .big_plies = 26, .big_all_kings = true};

static Outcome rule_outcome(const Position *pos, const char **reason) { return diagonal_rule_outcome(&DRAWS, pos, reason); }

static int rule_plies_left(const Position *pos)
{
    const char *why;
    return diagonal_plies_left(&DRAWS, dp(pos), &why);
}

static const char *const BENCH[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "B:W18,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W18,19,22,23,24,25,27,28,29,31:B2,3,4,5,6,7,8,9,11,12",
    "B:W17,19,20,21,22,24,25,26,30,31:B1,3,5,6,7,8,10,11,12",
    "W:W19,20,22,23,25,26:B5,7,10,11,13,14",
    "W:W22,23,24,K29:BK4,9,10",
    "B:WK18,21,30:B1,K3,12",
    NULL,
};

/* Endgame databases: the diagonal board; the move-count rules can end a
 * database's win early (docs/egtb.md). */
static const EgtbIndexer EGTB = {
    .game = &pool_game,
    DRAUGHTS_EGTB_DIAGONAL,
    .rule_plies_left = rule_plies_left,
};

const Game pool_game = {
    .name = "pool",
    .title = "Pool checkers",
    .pdn_gametype = 23,
    DIAGONAL_GAME_FIELDS(POOL, pool, diagonal_evaluate_flying, diagonal_trace_flying),
    .start_fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    .rule_outcome = rule_outcome,
    .repetition_reason = "P-D1",
    .bench_fens = BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .egtb = &EGTB,
    .move_examples = "22-18, 18x11, the full route 22x13x6x28 when two captures share start and end",
};
