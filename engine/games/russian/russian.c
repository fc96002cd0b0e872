/* russian.c — Russian draughts: rule switches, end-of-game rules, game table.
 * Rules: docs/rules/russian.md. */
#include "engine/games/russian/russian.h"

#include <stdint.h>

#include "engine/eval.h"
#include "engine/weights_id.h"
#include "engine/games/draughts/draughts.h"
#include "engine/games/draughts/draughts_egtb.h"

static const DraughtsRules RULES = {
    .orthogonal = false,
    .men_capture_back = true,
    .remove_at_once = false, /* Turkish-strike rule: removed when the move ends */
    .short_kings = false,
    .men_spare_kings = false,
    .choice = CHOICE_FREE,
    .crown_mid_capture = true,
    .no_reversal = false, /* a reversal would cross the piece just taken, which still blocks */
    .pieces_per_side = 12,
    .must_land_to_continue = true,
    .numbering = NUMBERING_ENGLISH, /* PDN files number the squares */
    .numeric = false,
    .title = "Russian draughts",
};

#include "engine/games/draughts/draughts_impl.h"

#include "engine/games/russian/weights.h"

/* The generated header in this build's term layout, set at init
 * (weights_laid_out: the header itself, or a copy in which a term added
 * since the export starts at 0 until the header is exported anew,
 * docs/contributing.md). */
static const WeightsHeader RU_HEADER = WEIGHTS_HEADER(RUSSIAN, russian);
static int32_t ru_weights_laid[RU_WEIGHTS_LEN];
static const int32_t *ru_weights;

static const int32_t *ru_weights_default(void)
{
    return ru_weights ? ru_weights : ru_weights_laid;
}

#define MAIN_ROAD 0x8040201008040201ULL /* a1, b2, ..., h8 */

/* Draw rules D4-D8 (russian.md, "End of the game"). "n moves" = 2n plies.
 * Counters: material_plies counts plies since the last capture or promotion,
 * which is when the material balance a rule names first arose; reversible
 * counts plies since the last man move or capture. Threefold repetition (D3)
 * needs the game history and is checked by game_outcome. */
static Outcome ru_rule_outcome(const Position *pos, const char **reason)
{
    const DraughtsPos *p = dp(pos);
    uint64_t all = p->pieces[0] | p->pieces[1];
    if (!p->pieces[0] || !p->pieces[1]) return OUTCOME_NONE; /* decided by "no legal move" */
    int total = __builtin_popcountll(all);
    int kings[2], pieces[2];
    for (int c = 0; c < 2; c++) {
        kings[c] = __builtin_popcountll(p->pieces[c] & p->kings);
        pieces[c] = __builtin_popcountll(p->pieces[c]);
    }
    int mp = p->material_plies;
    for (int strong = 0; strong < 2; strong++) {
        int weak = strong ^ 1;
        if (pieces[weak] != 1 || kings[weak] != 1) continue;
        /* "not won by" the strong side's last counted move: a lone king
         * left without a move has lost, whatever else the counts say */
        if (kings[strong] >= 3 && mp >= 30) return d_draw_unless_won(p, "D4", reason);
        bool on_road = (p->pieces[weak] & MAIN_ROAD) != 0;
        if (pieces[strong] == 3 && kings[strong] >= 1 && on_road && mp >= 10)
            return d_draw_unless_won(p, "D7", reason);
        if (pieces[strong] <= 2 && kings[strong] >= 1 && mp >= 10) return d_draw_unless_won(p, "D8", reason);
    }
    if (p->reversible >= 30) return *reason = "D5", OUTCOME_DRAW;
    if (kings[0] && kings[1]) {
        int limit = total <= 3 ? 10 : total <= 5 ? 60 : total <= 7 ? 120 : 0;
        if (limit && mp >= limit) return *reason = "D6", OUTCOME_DRAW;
    }
    return OUTCOME_NONE;
}

/* Plies the current material may last before one of D4-D8 draws the game,
 * from the counters of pos (the same rules and counters as ru_rule_outcome);
 * INT32_MAX if none applies. A line of d more plies that keeps the material
 * ends in a rule draw unless d < this. The lone king stepping onto the main
 * road switches D7 on with the counter it already has: off the road with 8
 * or more plies counted, 0 is returned (the result is open). */
static int ru_plies_left(const Position *pos, bool off_road_open);

int russian_rule_plies_left(const Position *pos) { return ru_plies_left(pos, true); }

/* off_road_open: a lone king off the main road with 8 or more plies counted
 * against three pieces gives 0 (the database's view: the result is open);
 * else D7 is counted only once the king stands on the road. */
static int ru_plies_left(const Position *pos, bool off_road_open)
{
    const DraughtsPos *p = dp(pos);
    if (!p->pieces[0] || !p->pieces[1]) return INT32_MAX;
    int total = __builtin_popcountll(p->pieces[0] | p->pieces[1]);
    int kings[2], pieces[2];
    for (int c = 0; c < 2; c++) {
        kings[c] = __builtin_popcountll(p->pieces[c] & p->kings);
        pieces[c] = __builtin_popcountll(p->pieces[c]);
    }
    int mp = p->material_plies, left = 30 - p->reversible; /* D5 */
    for (int strong = 0; strong < 2; strong++) {
        int weak = strong ^ 1;
        if (pieces[weak] != 1 || kings[weak] != 1) continue;
        if (kings[strong] >= 3 && 30 - mp < left) left = 30 - mp; /* D4 */
        bool on_road = (p->pieces[weak] & MAIN_ROAD) != 0;
        if (pieces[strong] == 3 && kings[strong] >= 1) { /* D7 */
            int d7 = on_road ? 10 - mp : mp >= 8 && off_road_open ? 0 : INT32_MAX;
            if (d7 < left) left = d7;
        }
        if (pieces[strong] <= 2 && kings[strong] >= 1 && 10 - mp < left) left = 10 - mp; /* D8 */
    }
    if (kings[0] && kings[1]) { /* D6 */
        int limit = total <= 3 ? 10 : total <= 5 ? 60 : total <= 7 ? 120 : 0;
        if (limit && limit - mp < left) left = limit - mp;
    }
    return left < 0 ? 0 : left;
}

/* Game.drawish: the lone king holds one or two pieces (D8, and men that
 * crown reach it), or three when it stands on the main road (D7). The
 * 4-piece database agrees: 2 kings against a king are drawn in 78% of the
 * positions, a king and a man against a king in 78%, and the rest are
 * captures the search sees. */
static bool ru_drawish(const Position *pos, Color strong, int *plies_left)
{
    const DraughtsPos *p = dp(pos);
    *plies_left = ru_plies_left(pos, false);
    uint64_t weak = p->pieces[strong ^ 1];
    if (!weak || (weak & (weak - 1)) || !(weak & p->kings)) return false; /* not a lone king */
    int n = __builtin_popcountll(p->pieces[strong]);
    return n <= 2 || (n == 3 && (weak & MAIN_ROAD));
}

static int32_t ru_evaluate(const Position *pos, const int32_t *w) { return russian_evaluate(pos, w); }

static int32_t ru_evaluate_trace(const Position *pos, const int32_t *w, EvalTrace *trace)
{
    return eval_trace_with(russian_evaluate_traced, pos, w, trace);
}

const EvalTerm russian_eval_terms[] = {
#define TERM(name, count, doc) {#name, RU_##name, count, doc},
#include "engine/games/russian/eval_terms.def"
#undef TERM
#define TERM(name, count, doc) {#name "_EG", RU_##name##_EG, count, "endgame twin of " #name " (taper: Game.eg_offset): " doc},
#include "engine/games/russian/eval_terms.def"
#undef TERM
};

const int russian_eval_terms_len = RUSSIAN_EVAL_TERMS_LEN;
_Static_assert(sizeof russian_eval_terms / sizeof russian_eval_terms[0] == RUSSIAN_EVAL_TERMS_LEN, "term count");

static const char *const RU_BENCH[] = {
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,e1,b2,f2,h2,c3,e3,g3,d4,f4:Bb6,f6,h6,a7,c7,e7,g7,d8,f8,h8",
    "B:Wc1,e1,b2,d2,a3,c3,g3,b4,f4,h4:Bd6,f6,h6,a7,c7,e7,g7,b8,f8",
    "W:Wb2,d2,c3,e3,f4,h4:Ba5,c5,d6,f6,a7,e7",
    "W:WKa1,c3,e3,g3:BKh8,b6,d6",
    "B:WKd4,a3,c1:BKf8,h6,b8",
    NULL,
};

static void ru_init(void)
{
    draughts_init();
    russian_eval_init();
    ru_weights = weights_laid_out(&russian_game, &RU_HEADER, ru_weights_laid);
}

/* Three pieces with a king against a lone king, where D7 makes the result
 * depend on the count and on where the lone king stands (it draws on
 * reaching the main road with 10 plies counted): solved with the count
 * (EgtbIndexer.counted). Three kings: every move adds one to both
 * counters, so the count is the whole state and the table exact, to D4's
 * 30. With men (two kings and a man, a king and two men), a man's move
 * resets D5's counter and not D7's: the table takes the two as equal (as
 * if no man had moved: D5 at 30), so its wins are sure and its draws may
 * hide a win that a man's move keeps alive (unknown to the verdict). */
static int ru_egtb_counted(EgtbMaterial m, bool *exact)
{
    *exact = m.men[0] == 0;
    return m.kings[0] + m.men[0] == 3 && m.kings[0] >= 1 && m.kings[1] == 1 && m.men[1] == 0 ? 30 : 0;
}

static int ru_egtb_count(const Position *pos)
{
    const DraughtsPos *p = dp(pos);
    return p->material_plies > p->reversible ? p->material_plies : p->reversible;
}

static void ru_egtb_set_count(Position *pos, int plies)
{
    DraughtsPos *p = (DraughtsPos *)pos->data;
    p->material_plies = p->reversible = (uint8_t)plies;
}

/* Endgame databases: the diagonal board, and the D4-D8 move counts that
 * can end a database's win early (docs/egtb.md). */
static const EgtbIndexer RU_EGTB = {
    .game = &russian_game,
    DRAUGHTS_EGTB_DIAGONAL,
    .rule_plies_left = russian_rule_plies_left,
    .counted = ru_egtb_counted,
    .count = ru_egtb_count,
    .set_count = ru_egtb_set_count,
};

/* A square table (32 weights) rank by rank from the owner's first rank. */
static const unsigned char RU_BOARD_ROWS[] = {4, 4, 4, 4, 4, 4, 4, 4, 0};

/* Search defaults tuned for Russian draughts by games (dama spsa
 * --tune-search, 5,104 games at 20,000 nodes a move) and kept after an
 * SPRT [0, 10] at equal time used against engine/search_params.def's
 * values (H1 after 620 games, +16.3 +- 12.0 Elo):
 * docs/results/2026-12-05-spsa-search.md. */
static const GameSearchParam RU_SEARCH[] = {
    {"ASP_WINDOW", 11},
    {"LMR_MIN_DEPTH", 2},
    {"RFP_DEPTH", 3},
    {"RFP_MARGIN", 86},
    {NULL, 0},
};

const Game russian_game = {
    .name = "russian",
    .title = "Russian draughts",
    .pdn_gametype = 25,
    DRAUGHTS_GAME_FUNCTIONS,
    .start_fen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    .rule_outcome = ru_rule_outcome,
    .repetition_reason = "D3",
    .rule_draw_reasons = "D4,D5,D6,D7,D8",
    .drawish = ru_drawish,
    .terms_len = RUSSIAN_EVAL_TERMS_LEN,
    .terms = russian_eval_terms,
    .weights_len = RU_WEIGHTS_LEN,
    .eg_offset = RU_EG_OFFSET,
    .phase_max = RU_PHASE_MAX,
    .scale_weight = RU_MAN,
    .weights_default = ru_weights_default,
    .weights_header = &RU_HEADER,
    .weights_lineage = RUSSIAN_WEIGHTS_LINEAGE,
    .evaluate = ru_evaluate,
    .evaluate_trace = ru_evaluate_trace,
    .bench_fens = RU_BENCH,
    .bench_depth = 11,
    .perft_bench_depth = 10,
    .opening_book = "data/openings/russian_ballots_745.tsv",
    .init = ru_init,
    .search_params = RU_SEARCH,
    .egtb = &RU_EGTB,
    .move_examples = "c3-d4, c3:e5:g7, short forms like cd4 or c3:g7",
    .board_rows = RU_BOARD_ROWS,
    .value_unit = "centi-men",
};

/* The evaluation body, compiled twice (plain and traced) below and in
 * russian_eval_traced.c, needs the generator's mobility counter. */
int russian_count_quiet(const DraughtsPos *p, int side);
int russian_count_quiet(const DraughtsPos *p, int side) { return d_count_quiet_side(p, side); }
