/* turkish.c — Turkish draughts: rule switches, end-of-game rules, game table.
 * Rules: docs/rules/turkish.md. */
#include "engine/games/turkish/turkish.h"

#include "engine/eval.h"
#include "engine/weights_id.h"
#include "engine/games/draughts/draughts.h"
#include "engine/games/draughts/draughts_egtb.h"

static const DraughtsRules RULES = {
    .orthogonal = true,
    .men_capture_back = false, /* men capture forward and sideways */
    .remove_at_once = true,    /* captured pieces leave as they are jumped */
    .short_kings = false,
    .men_spare_kings = false,
    .choice = CHOICE_MAJORITY, /* the most pieces, men and kings alike */
    .crown_mid_capture = false, /* a man crowned only when the move ends */
    .no_reversal = true,       /* no 180-degree turn between two jumps */
    .pieces_per_side = 16,
    .must_land_to_continue = false, /* implied by the majority rule */
    .numbering = NUMBERING_NONE,
    .numeric = false,
    .title = "Turkish draughts",
};

/* Rule switch: the lone-man win (turkish.md, "End of the game"); the seed
 * states it, the Turkish federation does not. On by default. */
static const bool LONE_MAN_WIN = true;

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/turkish/weights.h"

/* The generated header in this build's term layout, set at init
 * (weights_laid_out: the header itself, or a copy in which a term added
 * since the export starts at 0 until the header is exported anew,
 * docs/contributing.md). */
static const WeightsHeader TU_HEADER = WEIGHTS_HEADER(TURKISH, turkish);
static int32_t tu_weights_laid[TU_WEIGHTS_LEN];
static const int32_t *tu_weights;

static const int32_t *tu_weights_default(void)
{
    return tu_weights ? tu_weights : tu_weights_laid;
}

static void tu_init(void)
{
    draughts_init();
    tu_weights = weights_laid_out(&turkish_game, &TU_HEADER, tu_weights_laid);
}

/* turkish.md, "End of the game": one piece each is a draw unless the side to
 * move can capture; a single man against two or more pieces including a
 * king loses at once (switch). No pieces or no move: game_outcome. */
static Outcome tu_rule_outcome(const Position *pos, const char **reason)
{
    const DraughtsPos *p = dp(pos);
    int pieces[2] = {__builtin_popcountll(p->pieces[0]), __builtin_popcountll(p->pieces[1])};
    if (!pieces[0] || !pieces[1]) return OUTCOME_NONE;
    if (pieces[0] == 1 && pieces[1] == 1) {
        if (d_has_capture(p)) return OUTCOME_NONE;
        *reason = "one-each";
        return OUTCOME_DRAW;
    }
    if (LONE_MAN_WIN) {
        for (int strong = 0; strong < 2; strong++) {
            int weak = strong ^ 1;
            if (pieces[weak] == 1 && !(p->pieces[weak] & p->kings) && pieces[strong] >= 2 &&
                (p->pieces[strong] & p->kings)) {
                *reason = "lone-man";
                return strong == COLOR_WHITE ? OUTCOME_WHITE_WINS : OUTCOME_BLACK_WINS;
            }
        }
    }
    return OUTCOME_NONE;
}

int turkish_count_men_moves(const DraughtsPos *p, int side)
{
    uint64_t empty = ~(p->pieces[0] | p->pieces[1]);
    uint64_t men = p->pieces[side] & ~p->kings;
    unsigned dirs = d_man_move_dirs(side);
    int n = 0;
    for (int d = 0; d < DRAUGHTS_DIRS; d++)
        if (dirs >> d & 1) n += __builtin_popcountll(d_step(men, d) & empty);
    return n;
}

int turkish_count_king_moves(const DraughtsPos *p, int side)
{
    uint64_t empty = ~(p->pieces[0] | p->pieces[1]);
    int n = 0;
    for (uint64_t k = p->pieces[side] & p->kings; k; k &= k - 1) {
        int from = __builtin_ctzll(k);
        for (int d = 0; d < DRAUGHTS_DIRS; d++)
            for (int s = d_next(from, d); s >= 0 && (empty >> s & 1); s = d_next(s, d)) n++;
    }
    return n;
}

static int32_t tu_evaluate(const Position *pos, const int32_t *w) { return turkish_evaluate(pos, w); }

static int32_t tu_evaluate_trace(const Position *pos, const int32_t *w, EvalTrace *trace)
{
    return eval_trace_with(turkish_evaluate_traced, pos, w, trace);
}

static const EvalTerm TU_TERMS[] = {
#define TERM(name, count, doc) {#name, TU_##name, count, doc},
#include "engine/games/turkish/eval_terms.def"
#undef TERM
#define TERM(name, count, doc) {#name "_EG", TU_##name##_EG, count, "endgame twin of " #name " (taper: Game.eg_offset): " doc},
#include "engine/games/turkish/eval_terms.def"
#undef TERM
};

static const char *const TU_BENCH[] = {
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,d2,e2,g2,h2,a3,c3,d3,f3,g3,c4,f4:Ba5,d5,h5,b6,c6,e6,f6,g6,a7,c7,d7,f7,h7",
    "W:Wb2,c3,e3,f4,g4,a5:Bc5,d6,f6,g6,b7,h7",
    "W:WKd1,c4,g4:BKe8,b6,f6",
    "B:WKa1,Kh2,d5:BKd8,c6,e6,f7",
    NULL,
};

/* Search defaults measured for Turkish draughts (engine/search_params.def
 * gives the evidence); ASP_WINDOW, LMR_MIN_DEPTH, LMR_DIV and RFP_DEPTH
 * tuned by games (dama spsa --tune-search, 1,936 games at 20,000 nodes a
 * move: docs/results/2026-12-05-spsa-search.md) and kept after an SPRT
 * [0, 10] at equal time used against the values before (H1 after 740
 * games, +17.9 +- 12.9 Elo): docs/results/2026-12-05-turkish-search-match.md. */
static const GameSearchParam TU_SEARCH[] = {
    {"SINGLE_REPLY_EXT", 1},
    {"PV_TT_CUT", 0},
    {"SMP_AHEAD", 0},
    {"ASP_WINDOW", 12},
    {"LMR_MIN_DEPTH", 2},
    {"LMR_DIV", 184},
    {"RFP_DEPTH", 2},
    {NULL, 0},
};

/* Endgame databases: the orthogonal board; the left-right mirror keeps the
 * rules (men step forward, left and right; kings move along ranks and
 * files; nothing depends on a file: rules/turkish.md), so only one
 * position of each mirrored pair is solved. */
static const EgtbIndexer TU_EGTB = {
    .game = &turkish_game,
    DRAUGHTS_EGTB_ORTHOGONAL,
    .rule_plies_left = NULL,
    .symmetry = draughts_egtb_mirror_files,
};

/* A square table (64 weights) rank by rank from the owner's first rank. */
static const unsigned char TU_BOARD_ROWS[] = {8, 8, 8, 8, 8, 8, 8, 8, 0};

const Game turkish_game = {
    .name = "turkish",
    .title = "Turkish draughts",
    .pdn_gametype = 30,
    DRAUGHTS_GAME_FUNCTIONS,
    .start_fen = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    .rule_outcome = tu_rule_outcome,
    .repetition_reason = "repetition",
    .rule_draw_reasons = "one-each",
    .terms_len = (int)(sizeof TU_TERMS / sizeof TU_TERMS[0]),
    .terms = TU_TERMS,
    .weights_len = TU_WEIGHTS_LEN,
    .eg_offset = TU_EG_OFFSET,
    .phase_max = TU_PHASE_MAX,
    .scale_weight = TU_MAN,
    .weights_default = tu_weights_default,
    .weights_header = &TU_HEADER,
    .weights_lineage = TURKISH_WEIGHTS_LINEAGE,
    .evaluate = tu_evaluate,
    .evaluate_trace = tu_evaluate_trace,
    .bench_fens = TU_BENCH,
    .bench_depth = 10,
    .perft_bench_depth = 8,
    .opening_book = NULL,
    .init = tu_init,
    .search_params = TU_SEARCH,
    .egtb = &TU_EGTB,
    .move_examples = "d3-d4, d4:d6:f6, short forms like dd4 or d4:f6",
    .board_rows = TU_BOARD_ROWS,
    .value_unit = "centi-men",
};
