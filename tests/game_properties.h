/* game_properties.h — what every game must do, whatever its rules: checked
 * over many random positions by test_russian.c, test_turkish.c and
 * test_shatra.c, plus the small helpers those tests share. Each test file is
 * its own executable, so everything here is static inline. Include after
 * <cmocka.h> and "engine/game.h".
 *
 * The game comes in as a PropGame: the Game itself and what really differs
 * between games (the square a square goes to under the colour mirror, whether
 * a capture is always compulsory, ...). The positions come from the test
 * file: it makes them its own way (random games, random placements) and hands
 * each to prop_check, or hands its placement generator to prop_check_random.
 *
 * The properties (PROP_NAMES), for every position:
 *   FEN -> position -> FEN gives the same string and the same key;
 *   the incremental key equals hash_full, for the position and every child;
 *   perft(1) counts the generated moves, in both conventions;
 *   has_capture agrees with the moves (all captures when it says so; for a
 *   game where a capture is always compulsory, also the other way round);
 *   copy-make leaves the parent alone (every move, both conventions);
 *   every move's text (D convention) parses back to the same move;
 * and, unless the caller asks for the quick checks only (depth 0):
 *   mirroring twice is the identity; the mirrored position's key is right,
 *   its reversible plies the same, its rule_outcome the same with the
 *   colours swapped (same reason);
 *   the mirrored position has the mirrored moves, as multisets, in both
 *   conventions, and the same perft to the depth asked, in both conventions;
 *   evaluate(mirror) == -evaluate, and the trace rebuilds the evaluation
 *   exactly (indices in range), for the compiled-in weights and for the
 *   extra (random) weights.
 * Failures are counted per property and the first example of each printed;
 * prop_end fails the test when any property failed.
 */
#ifndef DAMA_TEST_GAME_PROPERTIES_H
#define DAMA_TEST_GAME_PROPERTIES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"
#include "util/rng.h"

/* ------------------------------------------------------------------ */
/* Small helpers over any game                                          */

static inline void parse_fen_or_fail(const Game *g, const char *fen, Position *pos)
{
    char err[ERR_MAX] = "";
    if (g->pos_from_fen(pos, fen, err) != 0) {
        print_error("cannot parse '%s': %s\n", fen, err);
        fail();
    }
}

/* A king-rich random draughts placement (8x8, algebraic FEN): 1..kings_max
 * kings and 0..men_max-1 men a side on distinct squares (the dark ones only
 * when dark_only); a man drawn on its crowning rank becomes a king. */
static inline void draughts_random_position(const Game *g, uint64_t *rng, Position *pos, bool dark_only, int kings_max,
                                            int men_max)
{
    int squares[64], ns = 0;
    for (int sq = 0; sq < 64; sq++)
        if (!dark_only || (sq % 8 + sq / 8) % 2 == 0) squares[ns++] = sq;
    for (int i = ns - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)rng_below(rng, (uint64_t)i + 1);
        int t = squares[i];
        squares[i] = squares[j];
        squares[j] = t;
    }
    int counts[2][2]; /* [colour][king] */
    for (int c = 0; c < 2; c++) {
        counts[c][1] = 1 + (int)rng_below(rng, (uint64_t)kings_max);
        counts[c][0] = (int)rng_below(rng, (uint64_t)men_max);
    }
    char fen[FEN_MAX];
    int len = snprintf(fen, sizeof fen, "%c", rng_below(rng, 2) ? 'B' : 'W');
    int next = 0;
    for (int c = 0; c < 2; c++) {
        len += snprintf(fen + len, sizeof fen - (size_t)len, ":%c", c ? 'B' : 'W');
        bool first = true;
        for (int king = 1; king >= 0; king--) {
            for (int k = 0; k < counts[c][king]; k++) {
                int sq = squares[next++];
                bool crown_rank = c == COLOR_WHITE ? sq / 8 == 7 : sq / 8 == 0;
                len += snprintf(fen + len, sizeof fen - (size_t)len, "%s%s%c%c", first ? "" : ",",
                                (king || crown_rank) ? "K" : "", 'a' + sq % 8, '1' + sq / 8);
                first = false;
            }
        }
    }
    parse_fen_or_fail(g, fen, pos);
}

/* Position string fen is refused by the game named `name`, with a
 * message that contains `want` (what and where). */
static inline void check_refused(const char *name, const char *fen, const char *want)
{
    const Game *g = game_find(name);
    assert_non_null(g);
    Position pos;
    char err[ERR_MAX] = "";
    if (g->pos_from_fen(&pos, fen, err) == 0) {
        print_error("%s accepted %s\n", name, fen);
        fail();
    }
    if (!strstr(err, want)) {
        print_error("%s %s: '%s' lacks '%s'\n", name, fen, err, want);
        fail();
    }
}

/* An 8x8 draughts FEN of board[] (0 empty, 1 White's piece, 2 Black's;
 * kings where king[sq]; sq = row * 8 + file, a1 = 0), White to move when
 * wtm. */
static inline void draughts_board_fen(const int board[64], const bool king[64], bool wtm, char fen[FEN_MAX])
{
    int n = snprintf(fen, FEN_MAX, "%s", wtm ? "W" : "B");
    for (int c = 1; c <= 2; c++) {
        n += snprintf(fen + n, (size_t)(FEN_MAX - n), ":%s", c == 1 ? "W" : "B");
        bool first = true;
        for (int sq = 0; sq < 64; sq++) {
            if (board[sq] != c) continue;
            n += snprintf(fen + n, (size_t)(FEN_MAX - n), "%s%s%c%c", first ? "" : ",", king[sq] ? "K" : "",
                          'a' + sq % 8, '1' + sq / 8);
            first = false;
        }
    }
}

static inline void print_moves(const Game *g, const Position *pos, const MoveList *list)
{
    char fen[FEN_MAX], text[MOVE_STR_MAX];
    g->pos_to_fen(pos, fen);
    print_error("  moves of %s (%d):\n", fen, list->len);
    for (int i = 0; i < list->len; i++) {
        g->move_to_str(pos, &list->moves[i], text);
        print_error("    %s\n", text);
    }
}

/* Play move text on pos (it must name a legal move); the child's
 * incremental key must equal hash_full. */
static inline void play_move_text(const Game *g, Position *pos, const char *text)
{
    Move m;
    char err[ERR_MAX] = "";
    if (g->move_from_str(pos, text, &m, err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    Position child;
    g->make_move(pos, &m, &child);
    assert_true(g->hash(&child) == g->hash_full(&child));
    *pos = child;
}

static inline void assert_position_fen(const Game *g, const Position *pos, const char *want)
{
    char fen[FEN_MAX];
    g->pos_to_fen(pos, fen);
    if (strcmp(fen, want) != 0) {
        print_error("position %s, expected %s\n", fen, want);
        fail();
    }
}

/* A draw by rule_outcome with reason `id`: the id must be one of g's
 * rule_draw_reasons (the list `dama egtb draws` counts by default), and the
 * repetition reason (game_outcome's) none of them. */
static inline void assert_rule_draw_listed(const Game *g, const char *id)
{
    const char *list = g->rule_draw_reasons ? g->rule_draw_reasons : "";
    bool found = false, repetition = false;
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        found = found || (len == strlen(id) && strncmp(s, id, len) == 0);
        repetition = repetition || (len == strlen(g->repetition_reason) && strncmp(s, g->repetition_reason, len) == 0);
        s += len + (s[len] == ',');
    }
    if (!found || repetition) {
        print_error("%s: rule draw '%s' %s its rule_draw_reasons '%s'%s\n", g->name, id, found ? "in" : "not in", list,
                    repetition ? ", which name the repetition reason" : "");
        fail();
    }
}

/* Does `text` equal one of the '|'-separated routes at the start of `entry`
 * (which ends at a space or the end)? */
static inline bool entry_has_route(const char *entry, const char *text)
{
    size_t tlen = strlen(text);
    const char *s = entry;
    for (;;) {
        size_t len = strcspn(s, "| ");
        if (len == tlen && strncmp(s, text, len) == 0) return true;
        if (s[len] != '|') return false;
        s += len + 1;
    }
}

/* Move identity of game.h: start, end, captured set, promotion (and kind). */
static inline bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->promo == b->promo &&
           a->kind == b->kind;
}

static inline int move_cmp(const void *pa, const void *pb)
{
    const Move *a = pa, *b = pb;
    if (a->from != b->from) return a->from < b->from ? -1 : 1;
    if (a->to != b->to) return a->to < b->to ? -1 : 1;
    if (a->captured != b->captured) return a->captured < b->captured ? -1 : 1;
    if (a->promo != b->promo) return a->promo < b->promo ? -1 : 1;
    return (int)a->kind - (int)b->kind;
}

/* Arbitrary weights in [-100, 100], g->weights_len of them on the heap (the
 * caller frees them; fails the test when out of memory). */
static inline int32_t *prop_random_weights(const Game *g, uint64_t *rng)
{
    int32_t *w = eval_weights_new(g);
    assert_non_null(w);
    for (int i = 0; i < g->weights_len; i++) w[i] = (int32_t)rng_below(rng, 201) - 100;
    return w;
}

/* ------------------------------------------------------------------ */
/* The properties                                                       */

enum {
    PROP_FEN,
    PROP_HASH,
    PROP_PERFT1,
    PROP_CAPTURE,
    PROP_PARENT,
    PROP_TEXT,
    PROP_MIRROR,
    PROP_PERFT,
    PROP_EVAL_SYM,
    PROP_TRACE,
    PROP_N
};

static const char *const PROP_NAMES[PROP_N] = {
    "FEN -> position -> FEN",
    "incremental hash == hash_full",
    "perft(1) counts the generated moves",
    "has_capture == the moves are captures",
    "make leaves the parent alone",
    "move text parses back",
    "mirror has the mirrored moves",
    "mirror has the same perft",
    "evaluate(mirror) == -evaluate",
    "trace rebuilds the evaluation",
};

typedef struct PropGame {
    const Game *game;
    /* The square that square `sq` goes to under the colour mirror. */
    int (*mirror_sq)(int sq);
    /* True: the side to move must capture whenever it can (has_capture ==
     * some move is a capture). False: a capture may be optional (Shatra's
     * Biy), and only "has_capture => every move is a capture" holds. */
    bool capture_compulsory;
    const int32_t *weights_extra; /* more weights for the evaluation checks, or NULL */
    /* Optional: count the positions with a feature (coverage of the
     * generator; the test file asserts on it), named for the summary. */
    bool (*counted)(const Position *pos);
    const char *counted_name;
} PropGame;

typedef struct PropRun {
    const PropGame *pg;
    int failures[PROP_N];
    int positions;      /* checked */
    int deep;           /* of them with the mirror and evaluation checks */
    int deep_perft_max; /* deepest perft compared with the mirror's */
    int counted;        /* of them with pg->counted */
    int captures;       /* of them with has_capture */
    long moves;         /* moves made */
} PropRun;

static inline void prop_begin(PropRun *run, const PropGame *pg)
{
    memset(run, 0, sizeof *run);
    run->pg = pg;
}

static inline void prop_fail(PropRun *run, int prop, const Position *pos, const char *detail)
{
    if (run->failures[prop]++) return;
    char fen[FEN_MAX];
    run->pg->game->pos_to_fen(pos, fen);
    print_error("%s fails at %s: %s\n", PROP_NAMES[prop], fen, detail);
}

static inline uint64_t prop_mirror_set(const PropGame *pg, uint64_t b)
{
    uint64_t r = 0;
    int shift = pg->game->captured_shift; /* bit k is square k + shift */
    for (; b; b &= b - 1) r |= 1ULL << (pg->mirror_sq(__builtin_ctzll(b) + shift) - shift);
    return r;
}

/* The mirrored position's moves are the mirror images of pos's moves (in the
 * P convention as multisets: one entry per landing path). */
static inline bool prop_mirror_moves_hold(const PropGame *pg, const Position *pos, const Position *mir, GenMode mode)
{
    const Game *g = pg->game;
    static MoveList list, mlist;
    g->gen_moves(pos, &list, mode);
    g->gen_moves(mir, &mlist, mode);
    if (list.len != mlist.len) return false;
    for (int k = 0; k < list.len; k++) {
        Move *m = &list.moves[k];
        m->from = (uint8_t)pg->mirror_sq(m->from);
        m->to = (uint8_t)pg->mirror_sq(m->to);
        m->captured = prop_mirror_set(pg, m->captured);
    }
    qsort(list.moves, (size_t)list.len, sizeof(Move), move_cmp);
    qsort(mlist.moves, (size_t)mlist.len, sizeof(Move), move_cmp);
    for (int k = 0; k < list.len; k++)
        if (!same_move(&list.moves[k], &mlist.moves[k])) return false;
    return true;
}

/* Colour symmetry of the evaluation and an exact trace, for weights w. */
static inline void prop_check_eval(PropRun *run, const Position *pos, const Position *mir, const int32_t *w,
                                   const char *which)
{
    const Game *g = run->pg->game;
    char detail[ERR_MAX];
    int32_t v = g->evaluate(pos, w);
    int32_t vm = g->evaluate(mir, w);
    if (vm != -v) {
        snprintf(detail, sizeof detail, "%s weights: %d vs %d", which, (int)v, (int)vm);
        prop_fail(run, PROP_EVAL_SYM, pos, detail);
    }
    EvalTrace trace;
    int32_t vt = g->evaluate_trace(pos, w, &trace);
    int64_t sum = 0;
    bool indices_ok = g->weights_len == 2 * g->eg_offset && trace.phase >= 0 && trace.phase <= g->phase_max;
    for (int k = 0; k < trace.len; k++) {
        if (trace.index[k] >= (uint32_t)g->eg_offset) { /* opening weights only */
            indices_ok = false;
            break;
        }
    }
    if (indices_ok && trace.len >= 0) sum = eval_trace_value(&trace, w, g->eg_offset, g->phase_max);
    if (vt != v || trace.len < 0 || !indices_ok || sum != v) {
        snprintf(detail, sizeof detail, "%s weights: evaluate %d, evaluate_trace %d, trace len %d sums to %lld%s",
                 which, (int)v, (int)vt, trace.len, (long long)sum, indices_ok ? "" : ", index out of range");
        prop_fail(run, PROP_TRACE, pos, detail);
    }
}

/* Every property of one position. depth > 0: the mirror and evaluation ones
 * too, comparing perft(depth) with the mirror's; depth 0: only the others. */
static inline void prop_check(PropRun *run, const Position *pos, int depth)
{
    const PropGame *pg = run->pg;
    const Game *g = pg->game;
    static MoveList list;
    char fen[FEN_MAX], fen2[FEN_MAX], text[MOVE_STR_MAX], err[ERR_MAX], detail[ERR_MAX + MOVE_STR_MAX + 8];
    run->positions++;
    if (pg->counted && pg->counted(pos)) run->counted++;
    bool capture = g->has_capture(pos);
    run->captures += capture;
    /* FEN -> position -> FEN */
    g->pos_to_fen(pos, fen);
    Position back;
    if (g->pos_from_fen(&back, fen, err) != 0) {
        prop_fail(run, PROP_FEN, pos, err);
    } else {
        g->pos_to_fen(&back, fen2);
        if (strcmp(fen, fen2) != 0 || g->hash(&back) != g->hash(pos)) prop_fail(run, PROP_FEN, pos, fen2);
    }
    if (g->hash(pos) != g->hash_full(pos)) prop_fail(run, PROP_HASH, pos, "the position itself");
    /* every move (both conventions): perft(1) counts them; has_capture
     * agrees; copy-make leaves the parent alone and the incremental key
     * equals the full one; every D move's text parses back to the move */
    for (int mode = 0; mode < 2; mode++) {
        const char *conv = mode == GEN_DISTINCT ? "D" : "P";
        int len = g->gen_moves(pos, &list, (GenMode)mode);
        if (len != list.len || g->perft(pos, 1, (GenMode)mode) != (uint64_t)list.len) {
            snprintf(detail, sizeof detail, "%s: %d moves, perft(1) %llu", conv, list.len,
                     (unsigned long long)g->perft(pos, 1, (GenMode)mode));
            prop_fail(run, PROP_PERFT1, pos, detail);
        }
        int captures = 0;
        for (int k = 0; k < list.len; k++) captures += list.moves[k].kind == MOVE_CAPTURE;
        bool capture_ok =
            pg->capture_compulsory ? captures == (capture ? list.len : 0) : !capture || captures == list.len;
        if (!capture_ok) {
            snprintf(detail, sizeof detail, "%s: has_capture %d, %d of %d moves capture", conv, capture, captures,
                     list.len);
            prop_fail(run, PROP_CAPTURE, pos, detail);
        }
        for (int k = 0; k < list.len; k++) {
            const Move *m = &list.moves[k];
            Position before = *pos, child;
            g->make_move(pos, m, &child);
            g->move_to_str(pos, m, text);
            run->moves++;
            if (memcmp(&before, pos, sizeof before) != 0) prop_fail(run, PROP_PARENT, pos, text);
            if (g->hash(&child) != g->hash_full(&child)) prop_fail(run, PROP_HASH, pos, text);
            if (mode != GEN_DISTINCT) continue;
            Move parsed;
            if (g->move_from_str(pos, text, &parsed, err) != 0) {
                snprintf(detail, sizeof detail, "%s: %s", text, err);
                prop_fail(run, PROP_TEXT, pos, detail);
            } else if (!same_move(&parsed, m)) {
                prop_fail(run, PROP_TEXT, pos, text);
            }
        }
    }
    if (depth <= 0) return;
    run->deep++;
    if (depth > run->deep_perft_max) run->deep_perft_max = depth;
    /* colour mirror: mirroring twice is the identity; the mirrored position
     * has the mirrored moves and the same perft */
    Position mir, mir2;
    g->pos_mirror(pos, &mir);
    g->pos_mirror(&mir, &mir2);
    g->pos_to_fen(&mir2, fen2);
    if (strcmp(fen, fen2) != 0 || g->hash(&mir2) != g->hash(pos))
        prop_fail(run, PROP_MIRROR, pos, "mirroring twice is not the identity");
    if (g->hash(&mir) != g->hash_full(&mir)) prop_fail(run, PROP_HASH, pos, "the mirrored position");
    /* the counters and the rules' verdict carry over, colours swapped */
    const char *why = NULL, *mwhy = NULL;
    Outcome o = g->rule_outcome(pos, &why), mo = g->rule_outcome(&mir, &mwhy);
    Outcome swapped = o == OUTCOME_WHITE_WINS ? OUTCOME_BLACK_WINS : o == OUTCOME_BLACK_WINS ? OUTCOME_WHITE_WINS : o;
    bool same_reason = o == OUTCOME_NONE || (why && mwhy && strcmp(why, mwhy) == 0);
    if (g->reversible_plies(&mir) != g->reversible_plies(pos) || mo != swapped || !same_reason) {
        snprintf(detail, sizeof detail, "reversible plies %d vs %d, rule_outcome %d (%s) vs %d (%s)",
                 g->reversible_plies(pos), g->reversible_plies(&mir), o, o && why ? why : "-", mo,
                 mo && mwhy ? mwhy : "-");
        prop_fail(run, PROP_MIRROR, pos, detail);
    }
    if (!prop_mirror_moves_hold(pg, pos, &mir, GEN_DISTINCT)) prop_fail(run, PROP_MIRROR, pos, "other moves (D)");
    if (!prop_mirror_moves_hold(pg, pos, &mir, GEN_PATHS)) prop_fail(run, PROP_MIRROR, pos, "other moves (P)");
    for (int mode = 0; mode < 2; mode++) {
        uint64_t a = g->perft(pos, depth, (GenMode)mode), b = g->perft(&mir, depth, (GenMode)mode);
        if (a != b) {
            snprintf(detail, sizeof detail, "perft(%d) %s: %llu vs %llu", depth, mode == GEN_DISTINCT ? "D" : "P",
                     (unsigned long long)a, (unsigned long long)b);
            prop_fail(run, PROP_PERFT, pos, detail);
        }
    }
    /* evaluation: colour symmetry, and the trace rebuilds it exactly */
    prop_check_eval(run, pos, &mir, g->weights_default(), "compiled-in");
    if (pg->weights_extra) prop_check_eval(run, pos, &mir, pg->weights_extra, "extra");
}

/* Print the failures and a summary; fail if any property failed. */
static inline void prop_end(const PropRun *run)
{
    int total = 0;
    for (int p = 0; p < PROP_N; p++) {
        if (run->failures[p]) print_error("%s: %d failures\n", PROP_NAMES[p], run->failures[p]);
        total += run->failures[p];
    }
    const PropGame *pg = run->pg;
    char counted[96] = "";
    if (pg->counted) snprintf(counted, sizeof counted, "%d %s; ", run->counted, pg->counted_name);
    print_message("%s: %d positions (%d with the mirror checks, perft up to %d; %s%d with a capture), %ld moves made\n",
                  pg->game->name, run->positions, run->deep, run->deep_perft_max, counted, run->captures, run->moves);
    assert_int_equal(total, 0);
}

/* ------------------------------------------------------------------ */
/* Random positions: random games and random placements                 */

/* Random moves from pos, checking every position reached, pos too (mirror
 * perft to `depth`), until `plies` moves, no legal move, or `max` positions
 * checked. */
static inline void prop_playout(PropRun *run, Position pos, uint64_t *rng, int plies, int max, int depth)
{
    const Game *g = run->pg->game;
    static MoveList list;
    for (int ply = 0; ply < plies && run->positions < max; ply++) {
        prop_check(run, &pos, depth);
        if (g->gen_moves(&pos, &list, GEN_DISTINCT) == 0) break;
        Position child;
        g->make_move(&pos, &list.moves[rng_below(rng, (uint64_t)list.len)], &child);
        pos = child;
    }
}

/* Where prop_check_random takes its positions from. Fixed seeds. */
typedef struct PropSource {
    int positions;       /* how many to check in all */
    uint64_t game_seed;  /* random games from the start position, */
    int game_plies;      /* this long, until half the positions are in */
    uint64_t place_seed; /* then random placements (place), each followed */
    int place_plies;     /* by 1 to place_plies random plies */
    void (*place)(uint64_t *rng, Position *pos);
    int perft_depth; /* perft compared with the mirror's, every position */
} PropSource;

/* Check every property of src->positions positions (all of them). */
static inline void prop_check_random(PropRun *run, const PropGame *pg, const PropSource *src)
{
    prop_begin(run, pg);
    Position pos;
    for (uint64_t game = 0; run->positions < src->positions / 2; game++) {
        uint64_t rng = rng_derive(src->game_seed, game);
        parse_fen_or_fail(pg->game, pg->game->start_fen, &pos);
        prop_playout(run, pos, &rng, src->game_plies, src->positions, src->perft_depth);
    }
    for (uint64_t i = 0; run->positions < src->positions; i++) {
        uint64_t rng = rng_derive(src->place_seed, i);
        src->place(&rng, &pos);
        prop_playout(run, pos, &rng, 1 + (int)rng_below(&rng, (uint64_t)src->place_plies), src->positions,
                     src->perft_depth);
    }
    prop_end(run);
}


/* A position string of about 100 KB (prefix repeated) is refused as longer
 * than FEN_MAX, never read in part. */
static inline void check_long_fen_rejected(const Game *g, const char *prefix)
{
    size_t n = strlen(prefix), size = 100000;
    char *fen = malloc(size + 1);
    assert_non_null(fen);
    for (size_t i = 0; i < size; i++) fen[i] = prefix[i % n];
    fen[size] = '\0';
    Position pos;
    char err[ERR_MAX] = "";
    int rc = g->pos_from_fen(&pos, fen, err);
    free(fen);
    if (rc == 0 || !strstr(err, "longer than 255 bytes")) {
        print_error("%s: a 100 KB position string: rc %d, message '%s'\n", g->name, rc, err);
        fail();
    }
}

#endif
