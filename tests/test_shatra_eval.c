/* test_shatra_eval.c — Shatra over random games, and its evaluation: the
 * properties every game must have (game_properties.h: FEN and key round
 * trips, the colour mirror of moves, perft and evaluation, the trace
 * rebuilding the evaluation), the Biy's ring and the relation tables
 * against references that read the board square by square (docs/eval.md),
 * the "attacked" bit those use, and which terms this build computes. The
 * rules, case by case, are test_shatra.c's. Positions start from the
 * game's start position (G->start_fen). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "db/weight_sets.h"
#include "engine/eval.h"
#include "engine/game.h"
#include "engine/games/shatra/shatra_board.h"
#include "util/rng.h"

#include "game_properties.h"

static const Game *G;

static int setup(void **state)
{
    (void)state;
    game_init_all();
    G = game_find("shatra");
    return G ? 0 : -1;
}

static void parse_or_fail(const char *fen, Position *pos) { parse_fen_or_fail(G, fen, pos); }

/* ------------------------------------------------------------------ */
/* Properties over random games                                        */

static int mirror_sq(int sq) { return 61 - sq; } /* square n <-> 63 - n: the board turned round */

/* The properties of game_properties.h over random games from the start: a
 * Biy is taken only when nothing else is legal (longer games, more states).
 * Every position gets every check, the evaluation ones with the compiled-in
 * and random weights; the mirror's perft is compared to depth 2, and to
 * depth 3 every 7th ply of a game. */
static void test_random_games(void **state)
{
    (void)state;
    uint64_t seed = 0x5348415452410001ULL;
    EVAL_AUTO_FREE int32_t *w = prop_random_weights(G, &seed);
    const PropGame pg = {.game = G, .mirror_sq = mirror_sq, .capture_compulsory = false, .weights_extra = w};
    PropRun run;
    prop_begin(&run, &pg);
    static MoveList list;
    for (int game = 0; game < 1500; game++) {
        Position pos;
        parse_or_fail(G->start_fen, &pos);
        for (int ply = 0; ply < 200; ply++) {
            prop_check(&run, &pos, ply % 7 == 0 ? 3 : 2);
            G->gen_moves(&pos, &list, GEN_DISTINCT);
            if (list.len == 0) break;
            Position child;
            const Move *m = NULL;
            for (int tries = 0; tries < 8 && !m; tries++) {
                m = &list.moves[rng_below(&seed, (uint64_t)list.len)];
                G->make_move(&pos, m, &child);
                const char *reason;
                if (G->rule_outcome(&child, &reason) != OUTCOME_NONE && tries < 7) m = NULL;
            }
            pos = child;
        }
    }
    prop_end(&run);
    assert_true(run.positions > 10000);
    assert_int_equal(run.deep, run.positions);
}

/* One random legal move from pos (rng); false at the end of the game: no
 * move, or the move ends it by rule. */
static bool random_step(Position *pos, uint64_t *rng)
{
    static MoveList moves;
    G->gen_moves(pos, &moves, GEN_DISTINCT);
    if (moves.len == 0) return false;
    Position child;
    G->make_move(pos, &moves.moves[rng_below(rng, (uint64_t)moves.len)], &child);
    const char *reason;
    if (G->rule_outcome(&child, &reason) != OUTCOME_NONE) return false;
    *pos = child;
    return true;
}

/* BIY_RING (eval_terms.def, docs/eval.md) against a reference that reads
 * the board from the FEN, square by square, with the board's shape of
 * shatra.md section 1 (ranks 14..1; files c-e on ranks 14-12 and 3-1, d on
 * 11 and 4, a-g on 10-5): each Biy's 8 neighbours, digit d for direction
 * d = N, NE, E, SE, S, SW, W, NW of its owner's view (Black's board
 * turned), region 0 in its own fortress or gate (White ranks 1-4, Black
 * 11-14). Random table weights, every other weight 0, so the evaluation is
 * the table's sum exactly; the trace entries of the table must give it too.
 * Positions from random games (captures, drops, Biys on the field). */
static int ring_offset(void)
{
    for (int i = 0; i < G->terms_len; i++)
        if (strcmp(G->terms[i].name, "BIY_RING") == 0) {
            assert_int_equal(G->terms[i].count, 2 * 6561);
            return G->terms[i].offset;
        }
    fail_msg("no BIY_RING term");
    return -1;
}

/* board[rank][file] from a FEN's placement: 'K'/'k' etc., '.' empty, 0 off the board */
static void ring_board(const char *fen, char board[15][7])
{
    static const int lo[15] = {0, 2, 2, 2, 3, 0, 0, 0, 0, 0, 0, 3, 2, 2, 2};
    static const int hi[15] = {0, 4, 4, 4, 3, 6, 6, 6, 6, 6, 6, 3, 4, 4, 4};
    memset(board, 0, 15 * 7);
    int r = 14, f = lo[14];
    for (const char *c = fen; *c && *c != ' '; c++) {
        if (*c == '/') {
            r--;
            f = lo[r];
        } else if (*c >= '1' && *c <= '9') {
            for (int k = 0; k < *c - '0'; k++) board[r][f++] = '.';
        } else {
            board[r][f++] = *c;
        }
        assert_true(r >= 1 && f <= hi[r] + 1);
    }
}

static int ring_ref(const char board[15][7], bool white, int *zone)
{
    static const int df[8] = {0, 1, 1, 1, 0, -1, -1, -1}, dr[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    const char biy = white ? 'K' : 'k';
    for (int r = 1; r <= 14; r++)
        for (int f = 0; f < 7; f++) {
            if (board[r][f] != biy) continue;
            *zone = white ? (r <= 4 ? 0 : 1) : (r >= 11 ? 0 : 1);
            int s = 0, p3 = 1;
            for (int d = 0; d < 8; d++, p3 *= 3) {
                const int nf = f + (white ? df[d] : -df[d]), nr = r + (white ? dr[d] : -dr[d]);
                if (nf < 0 || nf > 6 || nr < 1 || nr > 14) continue;
                const char c = board[nr][nf];
                if (c == 0 || c == '.') continue;
                const bool own = (c >= 'A' && c <= 'Z') == white;
                s += (own ? 1 : 2) * p3;
            }
            return s;
        }
    return -1;
}

static void test_biy_ring(void **state)
{
    (void)state;
    const int off = ring_offset();
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(G);
    assert_non_null(w);
    uint64_t rng = rng_derive(0x52494E47ULL, 1);
    for (int i = 0; i < 2 * 6561; i++) w[off + i] = w[off + i + G->eg_offset] = (int32_t)rng_below(&rng, 2001) - 1000;
    int checked = 0, zones[2][2] = {{0}};
    for (int game = 0; game < 800; game++) {
        Position pos;
        parse_or_fail(G->start_fen, &pos);
        for (int ply = 0; ply < 160; ply++) {
            char fen[FEN_MAX], board[15][7];
            G->pos_to_fen(&pos, fen);
            ring_board(fen, board);
            int64_t want = 0;
            for (int c = 0; c < 2; c++) {
                int z = 0;
                const int s = ring_ref(board, c == 0, &z);
                if (s < 0) continue;
                zones[c][z]++;
                want += (c == 0 ? 1 : -1) * (int64_t)w[off + 6561 * z + s];
            }
            const int32_t v = G->evaluate(&pos, w);
            if (v != want) fail_msg("%s: evaluation %d, square-by-square reference %lld", fen, v, (long long)want);
            EvalTrace t;
            G->evaluate_trace(&pos, w, &t);
            int64_t traced = 0;
            for (int e = 0; e < t.len; e++)
                if (t.index[e] >= (uint32_t)off && t.index[e] < (uint32_t)off + 2 * 6561)
                    traced += (int64_t)t.coef[e] * w[t.index[e]];
            if (traced != want) fail_msg("%s: ring trace entries sum to %lld, want %lld", fen, (long long)traced, (long long)want);
            checked++;
            if (!random_step(&pos, &rng)) break;
        }
    }
    assert_true(checked > 8000);
    /* both sides' Biys were seen at home and out on the field */
    for (int c = 0; c < 2; c++)
        for (int z = 0; z < 2; z++) assert_true(zones[c][z] > 100);
}

/* FORTRESS_STATE, PIECE_SAFETY, PIECE_PAIR and PIECE_SET (eval_terms.def,
 * docs/eval.md) against a reference that reads the board, the first
 * reserve and the side to move from the FEN, square by square, with the
 * board's shape of shatra.md section 1 and its square numbers (1..62 in
 * the order the placement lists them). Only the "could the enemy jump it
 * now" bit of PIECE_SAFETY comes from the engine (shatra_piece_attacked);
 * test_piece_attacked checks that bit against the move generator. Random
 * weights in the four tables, every other weight 0, so the evaluation is
 * the tables' sum exactly, and the trace entries in them must give it too. */
typedef struct RelBoard {
    char piece[15][7];    /* 'K'/'k' etc., '.' empty, 0 off the board */
    int num[15][7];       /* square number 1..62, 0 off the board */
    bool reserve[63];     /* by square number: a first-reserve piece */
    bool white_to_move;
} RelBoard;

static int term_offset(const char *name, int count)
{
    for (int i = 0; i < G->terms_len; i++)
        if (strcmp(G->terms[i].name, name) == 0) {
            assert_int_equal(G->terms[i].count, count);
            return G->terms[i].offset;
        }
    fail_msg("no %s term", name);
    return -1;
}

static void rel_board(const char *fen, RelBoard *b)
{
    memset(b, 0, sizeof *b);
    ring_board(fen, b->piece);
    int n = 0;
    for (int r = 14; r >= 1; r--)
        for (int f = 0; f < 7; f++)
            if (b->piece[r][f]) b->num[r][f] = ++n;
    assert_int_equal(n, 62);
    const char *field = strchr(fen, ' ');
    assert_non_null(field);
    b->white_to_move = field[1] == 'w';
    const char *res = strchr(field + 1, ' ') + 1;
    while (*res != ' ' && *res != '-') { /* "1-10,53-62": numbers and ranges */
        char *end;
        long lo = strtol(res, &end, 10), hi = lo;
        if (*end == '-') hi = strtol(end + 1, &end, 10);
        for (long q = lo; q <= hi; q++) b->reserve[q] = true;
        res = *end == ',' ? end + 1 : end;
    }
}

static int rel_type(char c) /* 1 Biy .. 5 shatra */
{
    switch (c | 0x20) {
    case 'k': return 1;
    case 'q': return 2;
    case 'r': return 3;
    case 'b': return 4;
    default: return 5;
    }
}

/* The relation tables of this build's DAMA_SHATRA_RELATIONS mask (1
 * FORTRESS_STATE, 2 PIECE_SAFETY, 4 PIECE_PAIR, 8 PIECE_SET) square by
 * square; seen[] counts closed and open fortresses, unattacked and attacked
 * pieces, whatever the mask. */
static int64_t rel_ref(const RelBoard *b, const Position *pos, const int32_t *w, int off_f, int off_s, int off_p, int off_m,
                       int seen[4])
{
    const int mask = DAMA_SHATRA_RELATIONS;
    static const int df[8] = {0, 1, 1, 1, 0, -1, -1, -1}, dr[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    int64_t sum = 0;
    for (int c = 0; c < 2; c++) {
        const bool white = c == 0;
        const int sign = white ? 1 : -1;
        /* PIECE_SET and the fortress's openness */
        int cnt[6] = {0}, own_reserve = 0;
        for (int r = 1; r <= 14; r++)
            for (int f = 0; f < 7; f++) {
                const char pc = b->piece[r][f];
                if (!pc || pc == '.' || ((pc >= 'A' && pc <= 'Z') != white)) continue;
                cnt[rel_type(pc)]++;
                if (b->reserve[b->num[r][f]]) own_reserve++;
            }
        if (mask & 8) sum += sign * (int64_t)w[off_m + 9 * cnt[2] + 3 * cnt[3] + cnt[4]];
        /* FORTRESS_STATE: digit i on the owner's square 53 + i (Black: 10 - i) */
        int st = 0;
        for (int i = 0, p3 = 1; i < 10; i++, p3 *= 3) {
            const int q = white ? 53 + i : 10 - i;
            for (int r = 1; r <= 14; r++)
                for (int f = 0; f < 7; f++) {
                    if (b->num[r][f] != q || b->piece[r][f] == '.') continue;
                    st += ((b->piece[r][f] >= 'A' && b->piece[r][f] <= 'Z') == white ? 1 : 2) * p3;
                }
        }
        const int z = own_reserve ? 0 : 1;
        if (mask & 1) sum += sign * (int64_t)w[off_f + 59049 * z + st];
        seen[z]++;
        /* PIECE_SAFETY and PIECE_PAIR, over the own Biy and pieces in play */
        for (int r = 1; r <= 14; r++)
            for (int f = 0; f < 7; f++) {
                const char pc = b->piece[r][f];
                if (!pc || pc == '.' || ((pc >= 'A' && pc <= 'Z') != white)) continue;
                const int t1 = rel_type(pc);
                if (t1 != 1 && b->reserve[b->num[r][f]]) continue;
                int own_nb = 0;
                for (int d = 0; d < 8; d++) {
                    const int nf = f + (white ? df[d] : -df[d]), nr = r + (white ? dr[d] : -dr[d]);
                    if (nf < 0 || nf > 6 || nr < 1 || nr > 14 || !b->piece[nr][nf] || b->piece[nr][nf] == '.') continue;
                    const char q = b->piece[nr][nf];
                    const bool q_own = (q >= 'A' && q <= 'Z') == white;
                    if (q_own) own_nb++;
                    const int t2 = rel_type(q);
                    if (t2 != 1 && b->reserve[b->num[nr][nf]]) continue;
                    if ((mask & 4) && q_own && d < 4) sum += sign * (int64_t)w[off_p + 20 * (t1 - 1) + 4 * (t2 - 1) + d];
                    if ((mask & 4) && !q_own) sum += sign * (int64_t)w[off_p + 100 + 40 * (t1 - 1) + 8 * (t2 - 1) + d];
                }
                if (t1 == 1) continue;
                /* the attack bit: the side to move's pieces only */
                const int m = b->white_to_move == white ? 0 : 1;
                const int a = m == 0 && shatra_piece_attacked(shp(pos), c, b->num[r][f] - 1) ? 1 : 0;
                seen[2 + a]++;
                if (mask & 2) sum += sign * (int64_t)w[off_s + ((t1 - 2) * 2 + a) * 6 + (own_nb < 2 ? own_nb : 2) * 2 + m];
            }
    }
    return sum;
}

/* The evaluation and its trace against the reference above, for the
 * tables this build computes (none in the default build: they add nothing,
 * whatever their weights; .ci/run builds test_shatra with all four too). */
static void test_relation_tables(void **state)
{
    (void)state;
    const int off_f = term_offset("FORTRESS_STATE", 2 * 59049), off_s = term_offset("PIECE_SAFETY", 48);
    const int off_p = term_offset("PIECE_PAIR", 300), off_m = term_offset("PIECE_SET", 18);
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(G);
    assert_non_null(w);
    uint64_t rng = rng_derive(0x52454C53ULL, 1);
    const int offs[4] = {off_f, off_s, off_p, off_m}, lens[4] = {2 * 59049, 48, 300, 18};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < lens[k]; i++)
            w[offs[k] + i] = w[offs[k] + i + G->eg_offset] = (int32_t)rng_below(&rng, 2001) - 1000;
    int checked = 0, seen[4] = {0}, longest = 0;
    for (int game = 0; game < 600; game++) {
        Position pos;
        parse_or_fail(G->start_fen, &pos);
        for (int ply = 0; ply < 160; ply++) {
            char fen[FEN_MAX];
            RelBoard b;
            G->pos_to_fen(&pos, fen);
            rel_board(fen, &b);
            const int64_t want = rel_ref(&b, &pos, w, off_f, off_s, off_p, off_m, seen);
            const int32_t v = G->evaluate(&pos, w);
            if (v != want) fail_msg("%s: evaluation %d, square-by-square reference %lld", fen, v, (long long)want);
            EvalTrace t;
            G->evaluate_trace(&pos, w, &t);
            assert_true(t.len >= 0);
            if (t.len > longest) longest = t.len;
            int64_t traced = 0;
            for (int e = 0; e < t.len; e++)
                for (int k = 0; k < 4; k++)
                    if (t.index[e] >= (uint32_t)offs[k] && t.index[e] < (uint32_t)(offs[k] + lens[k]))
                        traced += (int64_t)t.coef[e] * w[t.index[e]];
            if (traced != want) fail_msg("%s: trace entries sum to %lld, want %lld", fen, (long long)traced, (long long)want);
            checked++;
            if (!random_step(&pos, &rng)) break;
        }
    }
    assert_true(checked > 8000);
    /* fortresses closed and open (random games seldom open one: 188 of
     * 18,408 at this seed), pieces attacked and not */
    assert_true(seen[0] > 5000 && seen[1] > 100 && seen[2] > 50000 && seen[3] > 1000);
    print_message("relation tables: %d positions, longest trace %d entries (TRACE_MAX %d)\n", checked, longest, TRACE_MAX);
}

/* Game.term_computed names exactly this build's relation tables (the
 * DAMA_SHATRA_RELATIONS mask) and every other group; a weight set with
 * weights in the tables it leaves out is reported by weights_uncomputed
 * (table names, weights counted in both phases), and its value is the
 * value without them. */
static void test_term_computed(void **state)
{
    (void)state;
    static const char *const REL[4] = {"FORTRESS_STATE", "PIECE_SAFETY", "PIECE_PAIR", "PIECE_SET"};
    assert_non_null(G->term_computed);
    int left_out = 0;
    for (int k = 0; k < G->terms_len; k++) {
        bool want = true;
        for (int r = 0; r < 4; r++) {
            char eg[40];
            snprintf(eg, sizeof eg, "%s_EG", REL[r]);
            if (strcmp(G->terms[k].name, REL[r]) == 0 || strcmp(G->terms[k].name, eg) == 0)
                want = (DAMA_SHATRA_RELATIONS >> r & 1) != 0;
        }
        if (G->term_computed(k) != want) fail_msg("term %s: computed %d, want %d", G->terms[k].name, !want, want);
    }
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(G);
    assert_non_null(w);
    memcpy(w, G->weights_default(), sizeof(int32_t) * (size_t)G->weights_len);
    char groups[ERR_MAX];
    assert_int_equal(weights_uncomputed(G, w, groups), 0);
    assert_string_equal(groups, "");
    /* one endgame weight alone counts, named by its group */
    const int off_set = term_offset("PIECE_SET", 18);
    w[off_set + G->eg_offset + 3] = -4;
    assert_int_equal(weights_uncomputed(G, w, groups), SH_REL_SET ? 0 : 1);
    assert_string_equal(groups, SH_REL_SET ? "" : "PIECE_SET");
    /* every weight of each table, both phases, set to 7..11 */
    const int counts[4] = {2 * 59049, 48, 300, 18};
    char want_groups[ERR_MAX] = "";
    for (int r = 0; r < 4; r++) {
        const int off = term_offset(REL[r], counts[r]);
        for (int i = 0; i < counts[r]; i++) w[off + i] = w[off + i + G->eg_offset] = 7 + i % 5;
        if (!(DAMA_SHATRA_RELATIONS >> r & 1)) {
            left_out += 2 * counts[r];
            if (want_groups[0]) strcat(want_groups, ", ");
            strcat(want_groups, REL[r]);
        }
    }
    assert_int_equal(weights_uncomputed(G, w, groups), left_out);
    assert_string_equal(groups, want_groups);
    /* without weights: the groups themselves */
    int tables_out = 0;
    for (int r = 0; r < 4; r++) tables_out += !(DAMA_SHATRA_RELATIONS >> r & 1);
    assert_int_equal(weights_uncomputed(G, NULL, groups), tables_out);
    assert_string_equal(groups, want_groups);
    /* the tables left out add nothing: the value equals that with them at 0 */
    EVAL_AUTO_FREE int32_t *w0 = eval_weights_new(G);
    assert_non_null(w0);
    memcpy(w0, w, sizeof(int32_t) * (size_t)G->weights_len);
    for (int r = 0; r < 4; r++) {
        if (DAMA_SHATRA_RELATIONS >> r & 1) continue;
        const int off = term_offset(REL[r], counts[r]);
        for (int i = 0; i < counts[r]; i++) w0[off + i] = w0[off + i + G->eg_offset] = 0;
    }
    Position pos;
    parse_or_fail(G->start_fen, &pos);
    uint64_t rng = rng_derive(0x54434D50ULL, 1);
    for (int ply = 0; ply < 120; ply++) {
        assert_int_equal(G->evaluate(&pos, w), G->evaluate(&pos, w0));
        if (!random_step(&pos, &rng)) break;
    }
}

/* shatra_piece_attacked against the move generator: with the enemy to
 * move (the FEN's side flipped; positions with an en-passant square
 * skipped, since the bit leaves en passant out), every piece the enemy's
 * one-piece captures take is attacked, and every attacked piece is taken
 * by some capture of the enemy. Plus exact positions. */
static void test_piece_attacked(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int square; /* 1..62 */
        bool white_piece, attacked;
    } CASES[] = {
        /* White's shatra on 36 (e7): Black's Biy on 29 (e8) jumps it to 43 (e6) */
        {"3/3/3/1/7/3s3/4k2/4S2/7/K6/1/3/3/3 w - - - - 0 1", 36, true, true},
        /* Black's shatra on 21 (d9): no White piece next to it or on its lines */
        {"3/3/3/1/7/3s3/4k2/4S2/7/K6/1/3/3/3 w - - - - 0 1", 21, false, false},
        /* 43 taken by a White shatra: 36 cannot be jumped from 29 */
        {"3/3/3/1/7/3s3/4k2/4S2/4S2/K6/1/3/3/3 w - - - - 0 1", 36, true, false},
        /* the same with Black to move: the bit does not depend on the side to move */
        {"3/3/3/1/7/3s3/4k2/4S2/7/K6/1/3/3/3 b - - - - 0 1", 36, true, true},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Position pos;
        parse_or_fail(CASES[i].fen, &pos);
        if (shatra_piece_attacked(shp(&pos), CASES[i].white_piece ? 0 : 1, CASES[i].square - 1) != CASES[i].attacked)
            fail_msg("%s: square %d attacked should be %d", CASES[i].fen, CASES[i].square, CASES[i].attacked);
    }
    uint64_t rng = rng_derive(0x41545421ULL, 1);
    static MoveList caps;
    int checked = 0, attacked = 0;
    for (int game = 0; game < 400; game++) {
        Position pos;
        parse_or_fail(G->start_fen, &pos);
        for (int ply = 0; ply < 160; ply++) {
            char fen[FEN_MAX], flipped[FEN_MAX];
            G->pos_to_fen(&pos, fen);
            /* the FEN's fields: placement side reserve urgent ep ... */
            snprintf(flipped, sizeof flipped, "%s", fen);
            char *side = strchr(flipped, ' ') + 1;
            const char *f = side;
            for (int k = 0; k < 4; k++) f = strchr(f, ' ') + 1;
            Position enemy_moves;
            char err[ERR_MAX];
            *side = *side == 'w' ? 'b' : 'w';
            if (*f == '-' && G->pos_from_fen(&enemy_moves, flipped, err) == 0) {
                const int e = *side == 'w' ? 0 : 1, c = e ^ 1;
                G->gen_moves(&enemy_moves, &caps, GEN_DISTINCT);
                uint64_t single = 0, any = 0;
                for (int m = 0; m < caps.len; m++) {
                    if (caps.moves[m].kind != MOVE_CAPTURE) continue;
                    any |= caps.moves[m].captured;
                    if (__builtin_popcountll(caps.moves[m].captured) == 1) single |= caps.moves[m].captured;
                }
                const ShatraPos *sp = shp(&pos);
                for (uint64_t b = sp->color[c] & ~sp->type[SH_BIY]; b; b &= b - 1) {
                    const int k = __builtin_ctzll(b);
                    const bool a = shatra_piece_attacked(sp, c, k);
                    attacked += a;
                    if ((single >> k & 1) && !a) fail_msg("%s: square %d taken by a one-piece capture, not attacked", fen, k + 1);
                    if (a && !(any >> k & 1)) fail_msg("%s: square %d attacked, taken by no capture", fen, k + 1);
                    checked++;
                }
            }
            if (!random_step(&pos, &rng)) break;
        }
    }
    assert_true(checked > 50000);
    assert_true(attacked > 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_biy_ring),
        cmocka_unit_test(test_relation_tables),
        cmocka_unit_test(test_piece_attacked),
        cmocka_unit_test(test_term_computed),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
