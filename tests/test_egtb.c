/* test_egtb.c — endgame databases: indexing, retrograde build, the full
 * consistency pass, known positions of the rule book, the move-count
 * verdicts, probing through the search hook and adjudication, the file
 * format (checksums, resume, no half-written file). Each test builds tiny
 * databases (2-4 pieces) in a fresh temporary directory. */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/egtb/egtb.h"
#include "engine/egtb/egtb_file.h"
#include "engine/game.h"
#include "engine/search.h"
#include "engine/games/draughts/draughts.h"
#include "util/rng.h"

#define MAIN_ROAD 0x8040201008040201ULL
/* 10x10 board indices (draughts.h): the ghosts 5, 16, 27, 38, 49; rank 10 (50..54) */
#define GHOSTS10 ((1ULL << 5) | (1ULL << 16) | (1ULL << 27) | (1ULL << 38) | (1ULL << 49))
#define RANK10 (0x1FULL << 50)
/* 12x12 (draughts.h): the 72 squares of indices 0..77, White's crowning row 72..77, Black's 0..5 */
#define BOARD12 ((DraughtsWide)0x3F7FULL << 64 | 0xFBFFDFFEFFF7FFBFULL)
#define CROWN12_WHITE ((DraughtsWide)0x3FULL << 72)

static const Game *game(const char *name)
{
    game_init_all();
    const Game *g = game_find(name);
    assert_non_null(g);
    return g;
}

static void temp_dir(char out[64])
{
    snprintf(out, 64, "/tmp/dama-egtb-XXXXXX");
    assert_non_null(mkdtemp(out));
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

static void on_built(void *ctx, const EgtbBuildStats *s)
{
    int *counts = ctx;
    counts[0]++;
    if (s->reused) counts[1]++;
}

static void build(const Game *g, const char *dir, int pieces, const char *material)
{
    char err[ERR_MAX];
    EgtbMaterial m;
    EgtbBuildOptions o = {.pieces = pieces, .zstd_level = 3};
    if (material) {
        assert_int_equal(egtb_material_parse(material, &m, err), 0);
        o.only = &m;
    }
    int rc = egtb_build(g, dir, &o, err);
    if (rc != 0) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
}

static void pos_of(const Game *g, const char *fen, Position *pos)
{
    char err[ERR_MAX];
    assert_int_equal(g->pos_from_fen(pos, fen, err), 0);
}

/* index(decode(i)) == i over random indices of 2- to 5-piece materials
 * (no table needed), each board: 8x8 diagonal and orthogonal, 10x10, 12x12. */
static void test_index_round_trip(void **state)
{
    (void)state;
    const char *games[] = {"russian", "turkish", "international", "canadian"};
    for (int gi = 0; gi < 4; gi++) {
        const Game *g = game(games[gi]);
        const EgtbIndexer *ix = egtb_indexer(g);
        assert_non_null(ix);
        EgtbMaterial mats[512];
        int n = egtb_materials(5, mats, 512);
        assert_true(n > 20 && n <= 512);
        uint64_t rng = 7;
        int decoded = 0;
        for (int k = 0; k < 20000; k++) {
            EgtbMaterial m = mats[rng_splitmix64(&rng) % (uint64_t)n];
            uint64_t idx = rng_splitmix64(&rng) % ix->size(m), back;
            Position pos;
            if (!ix->decode(m, idx, &pos)) continue;
            decoded++;
            EgtbMaterial got = ix->material(&pos);
            assert_memory_equal(&got, &m, sizeof m);
            assert_true(ix->index(&pos, m, &back));
            assert_int_equal(back, idx);
            /* the decoded position is a legal one for the game's parser */
            char fen[FEN_MAX], err[ERR_MAX];
            Position again;
            g->pos_to_fen(&pos, fen);
            assert_int_equal(g->pos_from_fen(&again, fen, err), 0);
            assert_int_equal(g->hash(&again), g->hash(&pos));
            if (gi == 3) { /* 12x12: every piece on a square, no man on its crowning row */
                const DraughtsPosWide *w = (const DraughtsPosWide *)pos.data;
                assert_true(((w->pieces[0] | w->pieces[1]) & ~BOARD12) == 0 &&
                            (w->pieces[0] & ~w->kings & CROWN12_WHITE) == 0 &&
                            (w->pieces[1] & ~w->kings & 0x3FULL) == 0);
                continue;
            }
            const DraughtsPos *p = (const DraughtsPos *)pos.data;
            if (gi == 2) /* 10x10: no ghost index, no man on its crowning rank (ranks 10 and 1) */
                assert_true(((p->pieces[0] | p->pieces[1]) & GHOSTS10) == 0 &&
                            (p->pieces[0] & ~p->kings & RANK10) == 0 && (p->pieces[1] & ~p->kings & 0x1FULL) == 0);
        }
        assert_true(decoded > 15000);
    }
    assert_null(egtb_indexer(game("shatra")));
}

static void test_material_parse(void **state)
{
    (void)state;
    char err[ERR_MAX], name[32];
    EgtbMaterial m;
    assert_int_equal(egtb_material_parse("2k1m-1k", &m, err), 0);
    assert_int_equal(m.kings[0], 2);
    assert_int_equal(m.men[0], 1);
    assert_int_equal(m.kings[1], 1);
    assert_int_equal(m.men[1], 0);
    egtb_material_name(m, name);
    assert_string_equal(name, "2k1m-1k0m");
    assert_int_equal(egtb_material_parse(name, &m, err), 0);
    assert_int_equal(egtb_material_parse("3k", &m, err), -1);
    assert_non_null(strstr(err, "3k"));
    assert_int_equal(egtb_material_parse("2k-0k", &m, err), -1);
    assert_int_equal(egtb_material_parse("5k-5k", &m, err), -1);
    assert_int_equal(egtb_material_parse("2x-1k", &m, err), -1);
    /* a count given twice is neither added nor replaced */
    assert_int_equal(egtb_material_parse("2k2k-1k", &m, err), -1);
    assert_non_null(strstr(err, "the king count of the first side given twice"));
    assert_int_equal(egtb_material_parse("1k1m1k-1k", &m, err), -1);
    assert_int_equal(egtb_material_parse("1k-1m1m", &m, err), -1);
    assert_non_null(strstr(err, "the man count of the second side given twice"));
    assert_int_equal(egtb_material_parse("1k-1kjunk", &m, err), -1);
    assert_non_null(strstr(err, "'junk' after the second side's counts"));
    assert_int_equal(egtb_material_parse("0001k-1k", &m, err), 0); /* leading zeros are still one count */
    assert_int_equal(egtb_material_parse("99999999999k-1k", &m, err), -1); /* no overflow */
    assert_int_equal(egtb_material_parse("1m1k-1k", &m, err), 0);
    assert_int_equal(m.kings[0], 1);
    assert_int_equal(m.men[0], 1);
    assert_true(egtb_material_reaches((EgtbMaterial){{1, 0}, {2, 1}}, (EgtbMaterial){{0, 0}, {3, 1}}));
    assert_true(egtb_material_reaches((EgtbMaterial){{1, 0}, {2, 1}}, (EgtbMaterial){{0, 0}, {1, 1}}));
    assert_false(egtb_material_reaches((EgtbMaterial){{0, 0}, {3, 1}}, (EgtbMaterial){{1, 0}, {2, 1}}));
}

/* The larger material of `dama egtb draws`: pieces first, then kings. */
static void test_material_compare(void **state)
{
    (void)state;
    static const struct {
        const char *material;
        int cmp;
    } CASES[] = {
        {"3k-1k", 1},     {"1k-3k", -1},    {"1k-1k", 0},     {"1k1m-1k", 1}, /* more pieces */
        {"0k3m-1k", 1},   {"1k-0k3m", -1},  {"0k3m-2k", 1},   {"2k-0k3m", -1}, /* pieces before kings */
        {"2k-1k1m", 1},   {"1k1m-2k", -1},  {"1k1m-1k1m", 0}, {"0k2m-0k2m", 0}, /* equal pieces: kings */
    };
    char err[ERR_MAX];
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        EgtbMaterial m;
        assert_int_equal(egtb_material_parse(CASES[i].material, &m, err), 0);
        if (egtb_material_compare(m) != CASES[i].cmp) fail_msg("%s: %d", CASES[i].material, egtb_material_compare(m));
        assert_int_equal(egtb_material_canonical(m), CASES[i].cmp >= 0);
        assert_int_equal(egtb_material_compare(egtb_material_mirror(m)), -CASES[i].cmp);
    }
}

typedef struct Verified {
    int tables;
    uint64_t checked, bad, mirrored;
} Verified;

static void on_verified(void *ctx, const EgtbVerifyStats *s)
{
    Verified *v = ctx;
    v->tables++;
    v->checked += s->checked;
    v->bad += s->mismatches + s->bad_index;
    v->mirrored += s->mirrored;
}

/* Every 2- and 3-piece Russian table, then the full consistency pass; a
 * deliberately wrong value is caught. */
static void test_russian_3_consistent(void **state)
{
    (void)state;
    const Game *g = game("russian");
    char dir[64], err[ERR_MAX];
    temp_dir(dir);
    build(g, dir, 3, NULL);
    Verified v = {0};
    assert_int_equal(egtb_verify(g, dir, on_verified, &v, err), 0);
    assert_int_equal(v.tables, 9); /* canonical materials with 2-3 pieces */
    assert_int_equal(v.bad, 0);
    assert_true(v.checked > 190000);

    /* Known values. */
    Egtb *db = egtb_open(g, dir, true, err);
    assert_non_null(db);
    assert_int_equal(egtb_pieces(db), 3);
    Position pos;
    uint8_t val;
    pos_of(g, "W:WKa1:BKh8", &pos); /* the a1 king can only move along the main road, into h8's capture */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_loss(val));
    assert_int_equal(egtb_dist(val), 2);
    pos_of(g, "W:WKc1:BKh8", &pos); /* apart and free: a draw */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_draw(val));
    pos_of(g, "W:WKa1:BKf6", &pos); /* a1 x f6, landing g7 or h8 */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_win(val));
    assert_int_equal(egtb_dist(val), 1);
    pos_of(g, "B:WKa1:BKf6", &pos); /* Black to move plays f6-h8: the position above */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_win(val));
    assert_int_equal(egtb_dist(val), 3);
    pos_of(g, "W:Wc3:Bd4", &pos); /* a man takes a man: White wins at once */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_win(val));
    assert_int_equal(egtb_dist(val), 1);
    pos_of(g, "B:Wc3:Bd4", &pos); /* Black to move takes c3 to b2 */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_int_equal(egtb_dist(val), 1);
    egtb_close(db);

    /* A changed byte is caught by the payload checksum. */
    char path[512];
    egtb_file_path(dir, g, (EgtbMaterial){{0, 0}, {1, 1}}, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -3, SEEK_END);
    int c = fgetc(f);
    fseek(f, -3, SEEK_END);
    fputc(c ^ 0x55, f);
    fclose(f);
    assert_null(egtb_open(g, dir, true, err));
    assert_non_null(strstr(err, "checksum"));
    assert_int_equal(egtb_verify(g, dir, NULL, NULL, err), -1);

    /* A missing child table is named (it was reported as mismatches of the
     * tables that turn into it, exit 1, with no word of the file). */
    assert_int_equal(remove(path), 0);
    assert_int_equal(egtb_verify(g, dir, NULL, NULL, err), -1);
    assert_non_null(strstr(err, "russian-1k0m-1k0m.egtb: table 1k0m-1k0m is missing"));
    remove_dir(dir);
}

/* Three kings against one (rule book D4/D7): with the lone king off the
 * main road and a White king on it, every quiet position with White to
 * move is a win, inside 15 moves; on the main road the lone king draws. */
static void test_three_kings_against_one(void **state)
{
    (void)state;
    const Game *g = game("russian");
    char dir[64], err[ERR_MAX];
    temp_dir(dir);
    build(g, dir, 0, "3k-1k");
    /* the tables as they were before counted tables: the verdict tests d
     * against rule_plies_left (test_counted_three_kings: with the table) */
    char cpath[256];
    egtb_counted_path(dir, g, (EgtbMaterial){{0, 0}, {3, 1}}, cpath, sizeof cpath);
    assert_int_equal(unlink(cpath), 0);
    Egtb *db = egtb_open(g, dir, true, err);
    assert_non_null(db);
    assert_int_equal(egtb_pieces(db), 0); /* materials with men are absent: no piece count is complete */
    {   /* an absent material is no probe: not in the database, verdict unknown, search left alone */
        Position out;
        uint8_t v = 77;
        int dist = -1, score = 0;
        pos_of(g, "W:WKa1,c3:BKh2", &out); /* 1k1m-1k0m: not built here */
        assert_false(egtb_probe(db, NULL, &out, &v));
        assert_int_equal(egtb_probe_verdict(db, NULL, &out, 0, &dist), EGTB_UNKNOWN);
        EgtbProber *pr = egtb_prober_new(db, 0, 16);
        assert_non_null(pr);
        assert_false(egtb_engine_probe(pr, &out, &score));
        egtb_prober_free(pr);
    }
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial m = {{0, 0}, {3, 1}};
    EgtbCache *cache = egtb_cache_new(256);
    assert_non_null(cache);
    uint64_t held = 0, held_won = 0, longest = 0;
    for (uint64_t i = 0; i < ix->size(m); i++) {
        Position pos;
        if (!ix->decode(m, i, &pos)) continue;
        const DraughtsPos *p = (const DraughtsPos *)pos.data;
        uint8_t v;
        assert_true(egtb_probe(db, cache, &pos, &v));
        if (egtb_is_win(v) && p->side == COLOR_WHITE && (uint64_t)egtb_dist(v) > longest)
            longest = (uint64_t)egtb_dist(v);
        if (p->side != COLOR_WHITE || (p->pieces[1] & MAIN_ROAD) || !(p->pieces[0] & MAIN_ROAD) || !g->is_quiet(&pos))
            continue;
        held++;
        if (egtb_is_win(v)) held_won++;
    }
    egtb_cache_free(cache);
    assert_true(held > 30000);
    assert_int_equal(held_won, held);
    assert_true(longest < 30); /* every win fits in D4's 15 moves */

    Position pos;
    uint8_t v;
    pos_of(g, "W:WKc1,Ke1,Kg1:BKa1", &pos); /* lone king in the main road's corner */
    assert_true(egtb_probe(db, NULL, &pos, &v));
    assert_true(egtb_is_draw(v));
    assert_int_equal(egtb_verdict(db, &pos, v), EGTB_DRAW);
    pos_of(g, "W:WKa3,Kc1,Ke1:BKh8", &pos);
    assert_true(egtb_probe(db, NULL, &pos, &v));
    assert_true(egtb_is_draw(v));
    pos_of(g, "W:WKa1,Kc1,Ke1:BKh2", &pos); /* White holds the main road */
    assert_true(egtb_probe(db, NULL, &pos, &v));
    assert_true(egtb_is_win(v));
    int d = egtb_dist(v);
    assert_true(d > 9 && d < 30);

    /* The counters: D4 leaves 30 - material_plies plies, D7 strikes as soon
     * as the lone king reaches the main road once 10 plies are counted. */
    DraughtsPos *p = (DraughtsPos *)pos.data;
    assert_int_equal(egtb_verdict(db, &pos, v), EGTB_WIN);
    p->material_plies = 7;
    assert_int_equal(egtb_verdict(db, &pos, v), d < 23 ? EGTB_WIN : EGTB_UNKNOWN);
    p->material_plies = 8;
    assert_int_equal(egtb_verdict(db, &pos, v), EGTB_UNKNOWN);
    p->material_plies = 0;
    p->reversible = (uint8_t)(30 - d); /* D5: only d - 1 more king plies */
    assert_int_equal(egtb_verdict(db, &pos, v), EGTB_UNKNOWN);
    p->reversible = (uint8_t)(29 - d);
    assert_int_equal(egtb_verdict(db, &pos, v), EGTB_WIN);
    p->reversible = 0;

    /* The search hook: the engine sees the exact win at once. */
    Engine *e = engine_new(g, 4);
    EgtbProber *pr = egtb_prober_new(db, 0, 64);
    assert_non_null(e);
    assert_non_null(pr);
    engine_set_probe(e, egtb_engine_probe, pr);
    SearchLimits lim = {.depth = 4};
    SearchResult r;
    engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
    assert_int_equal(r.score, SCORE_WIN - d);
    assert_true(pr->hits > 0);
    /* its move keeps the shortest win */
    Position child;
    g->make_move(&pos, &r.best, &child);
    assert_true(egtb_probe(db, NULL, &child, &v));
    assert_true(egtb_is_loss(v));
    assert_int_equal(egtb_dist(v), d - 1);
    /* without the probe, the same depth sees no win */
    engine_set_probe(e, NULL, NULL);
    engine_clear(e);
    engine_search(e, &pos, NULL, 0, &lim, &r, NULL, NULL);
    assert_true(r.score < SCORE_WIN_MIN);

    /* Adjudication. */
    const char *reason = NULL;
    assert_int_equal(egtb_adjudicate(pr, &pos, &reason), OUTCOME_WHITE_WINS);
    assert_string_equal(reason, "egtb");
    pos_of(g, "B:WKc1,Ke1,Kg1:BKa1", &pos); /* the lone king holds the main road */
    assert_true(egtb_probe(db, NULL, &pos, &v));
    assert_true(egtb_is_draw(v));
    p = (DraughtsPos *)pos.data;
    p->material_plies = 29; /* a draw stays a draw whatever the counters */
    assert_int_equal(egtb_adjudicate(pr, &pos, &reason), OUTCOME_DRAW);
    engine_free(e);
    egtb_prober_free(pr);
    egtb_close(db);
    remove_dir(dir);
}

/* The verdict of a child position as the counted solve takes it: no
 * piece left for the side to move is a loss, a verdict the counts leave
 * open a draw. */
static EgtbVerdict child_verdict(const Egtb *db, EgtbCache *cache, const Game *g, const Position *child)
{
    const DraughtsPos *c = (const DraughtsPos *)child->data;
    if (!c->pieces[c->side]) return EGTB_LOSS;
    int dist;
    EgtbVerdict v = egtb_probe_verdict(db, cache, child, 0, &dist);
    (void)g;
    return v == EGTB_UNKNOWN ? EGTB_DRAW : v;
}

static void set_count(Position *pos, int c)
{
    DraughtsPos *p = (DraughtsPos *)pos->data;
    p->material_plies = p->reversible = (uint8_t)c;
}

/* Three kings against a lone king with the counts (EgtbIndexer.counted):
 * every sampled position's verdict at counts 0 to 29 is the minimax of its
 * children's (a quiet move adds one to the count; D4 and D7 draw), the
 * counts cut the database's wins, and positions where the lone king can
 * still reach the main road in time are drawn though the database scores
 * them won within D4's limit; a search with the rules (no database) agrees
 * on positions of few plies left. */
static void test_counted_three_kings(void **state)
{
    (void)state;
    const Game *g = game("russian");
    char dir[64], err[ERR_MAX];
    temp_dir(dir);
    build(g, dir, 0, "3k-1k");
    Egtb *db = egtb_open(g, dir, true, err);
    assert_non_null(db);
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial m = {{0, 0}, {3, 1}};
    EgtbCache *cache = egtb_cache_new(256);
    MoveList *list = malloc(sizeof *list);
    assert_non_null(cache);
    assert_non_null(list);
    static const int counts[] = {0, 5, 8, 9, 10, 17, 25, 29, 30};
    uint64_t checked = 0, base_won = 0, won0 = 0, cut = 0;
    for (uint64_t i = 0; i < ix->size(m); i += 7) {
        Position pos, child;
        if (!ix->decode(m, i, &pos)) continue;
        uint8_t base, cv;
        assert_true(egtb_probe(db, cache, &pos, &base));
        bool exact = false;
        assert_int_equal(egtb_probe_counted(db, &pos, &cv, &exact), 1);
        assert_true(exact);
        const DraughtsPos *p = (const DraughtsPos *)pos.data;
        if (p->side == COLOR_WHITE && egtb_is_win(base)) base_won++;
        for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
            set_count(&pos, counts[k]);
            int dist;
            EgtbVerdict got = egtb_probe_verdict(db, cache, &pos, 0, &dist), want;
            const char *reason;
            if (g->rule_outcome(&pos, &reason) != OUTCOME_NONE) {
                want = EGTB_DRAW;
            } else {
                g->gen_moves(&pos, list, GEN_DISTINCT);
                bool win = false, all_lost = true;
                for (int j = 0; j < list->len; j++) {
                    g->make_move(&pos, &list->moves[j], &child);
                    EgtbVerdict cvd = child_verdict(db, cache, g, &child);
                    win |= cvd == EGTB_LOSS;
                    all_lost &= cvd == EGTB_WIN;
                }
                want = win ? EGTB_WIN : all_lost ? EGTB_LOSS : EGTB_DRAW;
            }
            assert_int_equal(got, want);
            checked++;
            if (counts[k] == 0 && p->side == COLOR_WHITE && got == EGTB_WIN) won0++;
            if (got == EGTB_DRAW && egtb_is_win(base) && egtb_dist(base) < 30 - counts[k] && !(p->pieces[1] & MAIN_ROAD))
                cut++;
        }
    }
    assert_true(checked > 250000);
    assert_true(won0 > 0 && won0 < base_won); /* the counts draw some of the database's wins even at count 0 */
    assert_true(cut > 0);
    /* From a game of dama against e509dbb (docs/egtb.md, Counted tables):
     * Black's three kings to move at count 7, won in 13 plies by the
     * database, within D4's 23 plies left (the verdict before counted
     * tables: a win), are won only from counts 0 and 1: later the lone
     * king gets to the main road in time. */
    Position pos;
    uint8_t base, cv;
    pos_of(g, "B:WKa3:BKf2,Kf4,Kh8", &pos);
    assert_true(egtb_probe(db, cache, &pos, &base));
    assert_true(egtb_is_win(base));
    assert_int_equal(egtb_dist(base), 13);
    assert_int_equal(egtb_probe_counted(db, &pos, &cv, NULL), 1);
    assert_int_equal(cv, 1 + 1);
    set_count(&pos, 7);
    int dist;
    assert_int_equal(egtb_probe_verdict(db, cache, &pos, 0, &dist), EGTB_DRAW);
    /* D4 gives way to a win on its last ply: a lone king blocked at count
     * 30 has lost, and the blocking move at count 29 wins (both read as
     * draws when the table took every position at count 30 as drawn). */
    Position blk;
    pos_of(g, "B:WKg1,Kg3,Kf4:BKh2", &blk);
    set_count(&blk, 30);
    assert_int_equal(egtb_probe_verdict(db, cache, &blk, 0, &dist), EGTB_LOSS);
    pos_of(g, "W:WKg1,Kg3,Kc7:BKh2", &blk);
    set_count(&blk, 29);
    assert_int_equal(egtb_probe_verdict(db, cache, &blk, 0, &dist), EGTB_WIN);

    /* A search with the rules and no database, where they leave few plies
     * (every line ends by D4 within 4 plies unless a capture resets the
     * count, as in W:WKc1,Kb2,Kf6:BKg1, won by giving two kings: 5 plies,
     * which the search's reductions hide at depth 10 and not at 12),
     * finds the same results at depth 14. */
    Engine *e = engine_new(g, 4);
    assert_non_null(e);
    uint64_t searched = 0, search_won = 0;
    for (uint64_t i = 0; i < ix->size(m) && searched < 150; i += 331) {
        Position q;
        if (!ix->decode(m, i, &q)) continue;
        for (int c = 26; c <= 26; c++) {
            set_count(&q, c);
            const char *reason;
            if (g->rule_outcome(&q, &reason) != OUTCOME_NONE || !g->is_quiet(&q)) continue;
            SearchLimits lim = {.depth = 30 - c + 10};
            SearchResult r;
            engine_clear(e);
            engine_search(e, &q, NULL, 0, &lim, &r, NULL, NULL);
            EgtbVerdict want = r.score >= SCORE_WIN_MIN ? EGTB_WIN : r.score <= -SCORE_WIN_MIN ? EGTB_LOSS : EGTB_DRAW;
            assert_int_equal(egtb_probe_verdict(db, cache, &q, 0, &dist), want);
            searched++;
            search_won += want == EGTB_WIN;
        }
    }
    assert_true(searched >= 150);
    assert_true(search_won > 0);
    EgtbProber *pr = egtb_prober_new(db, 0, 64);
    int score = 1;
    assert_true(egtb_engine_probe(pr, &pos, &score));
    assert_int_equal(score, 0);
    egtb_prober_free(pr);
    engine_free(e);
    free(list);
    egtb_cache_free(cache);
    egtb_close(db);
    remove_dir(dir);
}

/* A killed build resumes: intact files are reused, a missing or damaged
 * one is rebuilt, and no temporary file is left behind. */
static void test_resume_and_atomic_files(void **state)
{
    (void)state;
    const Game *g = game("russian");
    char dir[64], err[ERR_MAX], path[512];
    temp_dir(dir);
    int counts[2] = {0, 0};
    EgtbMaterial target = {{0, 0}, {2, 1}};
    EgtbBuildOptions o = {.only = &target, .zstd_level = 3, .report = on_built, .ctx = counts};
    assert_int_equal(egtb_build(g, dir, &o, err), 0);
    assert_int_equal(counts[0], 2); /* 1k-1k, 2k-1k */
    assert_int_equal(counts[1], 0);
    egtb_file_path(dir, g, (EgtbMaterial){{0, 0}, {1, 1}}, path, sizeof path);
    assert_int_equal(unlink(path), 0);
    counts[0] = counts[1] = 0;
    assert_int_equal(egtb_build(g, dir, &o, err), 0);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 1); /* 2k-1k reused */
    /* a truncated file (as a crash mid-write would leave under the final
     * name, which the builder never does) is rejected and rebuilt */
    egtb_file_path(dir, g, target, path, sizeof path);
    assert_int_equal(truncate(path, 200), 0);
    assert_null(egtb_open(g, dir, false, err));
    assert_non_null(strstr(err, path));
    counts[0] = counts[1] = 0;
    assert_int_equal(egtb_build(g, dir, &o, err), 0);
    assert_int_equal(counts[1], 1);
    Verified v = {0};
    assert_int_equal(egtb_verify(g, dir, on_verified, &v, err), 0);
    assert_int_equal(v.tables, 2);
    DIR *d = opendir(dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            files++;
            assert_null(strstr(e->d_name, ".tmp"));
        }
    closedir(d);
    assert_int_equal(files, 2);
    /* a stop request before the first material */
    volatile int stop = 1;
    o.stop = &stop;
    assert_int_equal(egtb_build(g, dir, &o, err), 1);
    /* not a directory */
    o.stop = NULL;
    assert_int_equal(egtb_build(g, "/nonexistent/egtb", &o, err), -1);
    assert_non_null(strstr(err, "/nonexistent/egtb"));
    remove_dir(dir);
}

/* A table damaged after its build, read as a search reads it (headers
 * checked, no payload checksum): one byte of a compressed block changed,
 * 200 times at random places. Every position of the damaged block probes
 * as its true value or as absent, never as another value (each frame's
 * content checksum), the damage is seen, and a block it did not touch
 * reads as before. */
static void test_damaged_block_never_misread(void **state)
{
    (void)state;
    const Game *g = game("russian");
    char dir[64], err[ERR_MAX], path[512];
    temp_dir(dir);
    build(g, dir, 0, "3k-1k");
    EgtbMaterial m = {{0, 0}, {3, 1}};
    egtb_file_path(dir, g, m, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    EgtbHeader h;
    assert_int_equal(fread(&h, sizeof h, 1, f), 1);
    uint64_t *off = malloc((h.nblocks + 1) * sizeof *off);
    assert_non_null(off);
    assert_int_equal(fread(off, sizeof *off, h.nblocks + 1, f), h.nblocks + 1);
    assert_true(h.nblocks >= 8);
    Egtb *db = egtb_open(g, dir, true, err);
    assert_non_null(db);
    const EgtbIndexer *ix = egtb_db_indexer(db);
    uint64_t n = ix->size(m);
    uint8_t *truth = malloc(n), *ok = calloc(n, 1);
    Position *pos = malloc(n * sizeof *pos);
    assert_true(truth && ok && pos);
    for (uint64_t i = 0; i < n; i++)
        if (ix->decode(m, i, &pos[i]) && egtb_probe(db, NULL, &pos[i], &truth[i])) ok[i] = 1;
    egtb_close(db);
    uint64_t rng = 2026;
    int detected = 0;
    for (int trial = 0; trial < 200; trial++) {
        uint64_t at = sizeof h + off[0] + rng_below(&rng, off[h.nblocks] - off[0]); /* a byte of some frame */
        uint64_t b = 0;
        while (off[b + 1] <= at - sizeof h) b++;
        unsigned char was, now;
        assert_int_equal(fseek(f, (long)at, SEEK_SET), 0);
        assert_int_equal(fread(&was, 1, 1, f), 1);
        now = (unsigned char)(was ^ (1 + rng_below(&rng, 255)));
        assert_int_equal(fseek(f, (long)at, SEEK_SET), 0);
        assert_int_equal(fwrite(&now, 1, 1, f), 1);
        assert_int_equal(fflush(f), 0);
        db = egtb_open(g, dir, false, err); /* as search, self-play and matches open it */
        assert_non_null(db);
        EgtbCache *cache = egtb_cache_new(64);
        assert_non_null(cache);
        uint64_t other = ((b + h.nblocks / 2) % h.nblocks) * EGTB_BLOCK, absent = 0;
        for (uint64_t i = b * EGTB_BLOCK; i < (b + 1) * EGTB_BLOCK && i < n; i++) {
            uint8_t v;
            if (!ok[i]) continue;
            if (!egtb_probe(db, cache, &pos[i], &v)) absent++;
            else if (v != truth[i]) fail_msg("trial %d: byte %llu of block %llu changed, position %llu reads %u, "
                                             "not %u", trial, (unsigned long long)at, (unsigned long long)b,
                                             (unsigned long long)i, v, truth[i]);
        }
        detected += absent > 0;
        for (uint64_t i = other; i < other + EGTB_BLOCK && i < n; i++) {
            uint8_t v;
            if (ok[i]) assert_true(egtb_probe(db, cache, &pos[i], &v) && v == truth[i]);
        }
        egtb_cache_free(cache);
        egtb_close(db);
        assert_int_equal(fseek(f, (long)at, SEEK_SET), 0);
        assert_int_equal(fwrite(&was, 1, 1, f), 1);
        assert_int_equal(fflush(f), 0);
    }
    assert_true(detected >= 190); /* a changed byte that decodes to the same values is rare */
    fclose(f);
    free(off), free(truth), free(ok), free(pos);
    remove_dir(dir);
}

/* Tables opened as a search opens them are mapped when first probed. Every
 * position of every 3-piece Russian table reads the same as through an
 * open that maps and verifies all at once, from two threads probing the
 * unmapped tables together. A table whose block offsets are damaged opens
 * (its header is intact), reads as outside the database, and leaves the
 * other tables as they were; the verifying open names it. */
typedef struct {
    const Egtb *db;
    const EgtbMaterial *mats;
    int nmats;
    const uint8_t *const *truth;
    long mismatches, read;
} LazyProbe;

static void *lazy_probe_all(void *arg)
{
    LazyProbe *lp = arg;
    const EgtbIndexer *ix = egtb_db_indexer(lp->db);
    EgtbCache *cache = egtb_cache_new(16);
    for (int t = 0; t < lp->nmats; t++)
        for (uint64_t i = 0; i < ix->size(lp->mats[t]); i++) {
            Position pos;
            uint8_t v;
            if (!ix->decode(lp->mats[t], i, &pos)) continue;
            bool got = egtb_probe(lp->db, cache, &pos, &v);
            lp->read += got;
            if (got != (lp->truth[t][i] != 0xFF) || (got && v != lp->truth[t][i])) lp->mismatches++;
        }
    egtb_cache_free(cache);
    return NULL;
}

static void test_tables_mapped_on_first_probe(void **state)
{
    (void)state;
    const Game *g = game("russian");
    char dir[64], err[ERR_MAX], path[512];
    temp_dir(dir);
    build(g, dir, 3, NULL);
    Egtb *eager = egtb_open(g, dir, true, err);
    assert_non_null(eager);
    EgtbMaterial mats[16];
    int nmats = egtb_db_materials(eager, mats, 16);
    assert_int_equal(nmats, 9);
    const EgtbIndexer *ix = egtb_db_indexer(eager);
    uint8_t *truth[16];
    long known = 0;
    for (int t = 0; t < nmats; t++) {
        truth[t] = malloc(ix->size(mats[t]));
        assert_non_null(truth[t]);
        for (uint64_t i = 0; i < ix->size(mats[t]); i++) {
            Position pos;
            uint8_t v;
            truth[t][i] = 0xFF;
            if (ix->decode(mats[t], i, &pos) && egtb_probe(eager, NULL, &pos, &v)) truth[t][i] = v, known++;
        }
    }
    egtb_close(eager);
    assert_true(known > 190000);
    Egtb *lazy = egtb_open(g, dir, false, err);
    assert_non_null(lazy);
    assert_int_equal(egtb_pieces(lazy), 3);
    LazyProbe lp[2] = {{lazy, mats, nmats, (const uint8_t *const *)truth, 0, 0},
                       {lazy, mats, nmats, (const uint8_t *const *)truth, 0, 0}};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, lazy_probe_all, &lp[1]), 0);
    lazy_probe_all(&lp[0]);
    assert_int_equal(pthread_join(th, NULL), 0);
    egtb_close(lazy);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(lp[k].mismatches, 0);
        assert_int_equal(lp[k].read, known);
    }

    /* Damage the block offsets of 2k-1k: the first offset made wrong. */
    EgtbMaterial bad = {{0, 0}, {2, 1}};
    int bad_t = -1;
    for (int t = 0; t < nmats; t++)
        if (!memcmp(&mats[t], &bad, sizeof bad)) bad_t = t;
    assert_true(bad_t >= 0);
    egtb_file_path(dir, g, bad, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    uint64_t first = 0;
    assert_int_equal(fseek(f, (long)sizeof(EgtbHeader), SEEK_SET), 0);
    assert_int_equal(fwrite(&first, sizeof first, 1, f), 1);
    fclose(f);
    assert_null(egtb_open(g, dir, true, err));
    assert_non_null(strstr(err, path));
    lazy = egtb_open(g, dir, false, err);
    assert_non_null(lazy);
    long bad_known = 0;
    for (uint64_t i = 0; i < ix->size(bad); i++) bad_known += truth[bad_t][i] != 0xFF;
    assert_true(bad_known > 0);
    lp[0] = (LazyProbe){lazy, mats, nmats, (const uint8_t *const *)truth, 0, 0};
    lazy_probe_all(&lp[0]);
    assert_int_equal(lp[0].mismatches, bad_known); /* exactly the damaged table's positions are unknown */
    assert_int_equal(lp[0].read, known - bad_known);
    egtb_close(lazy);
    for (int t = 0; t < nmats; t++) free(truth[t]);
    remove_dir(dir);
}

/* Turkish: the lone-man and one-each rules as dama applies them, two kings
 * against one, and the consistency pass. */
static void test_turkish(void **state)
{
    (void)state;
    const Game *g = game("turkish");
    char dir[64], err[ERR_MAX];
    temp_dir(dir);
    build(g, dir, 0, "2k-1k");
    build(g, dir, 0, "1k1m-1m");
    build(g, dir, 0, "2m-1m");
    Verified v = {0};
    assert_int_equal(egtb_verify(g, dir, on_verified, &v, err), 0);
    assert_int_equal(v.bad, 0);
    Egtb *db = egtb_open(g, dir, true, err);
    assert_non_null(db);
    Position pos;
    uint8_t val;
    pos_of(g, "B:WKa1,b2:Bh6", &pos); /* lone man against a king and a man: lost at once */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_loss(val));
    assert_int_equal(egtb_dist(val), 0);
    pos_of(g, "W:WKa1:BKh8", &pos); /* one piece each, no capture: drawn at once */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_draw(val));
    pos_of(g, "W:WKa1:BKa5", &pos); /* one each, but the side to move takes */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_win(val));
    assert_int_equal(egtb_dist(val), 1);
    /* The rule book's end-of-game rules at exact positions (rules/turkish.md:
     * lone man, one each, promotion at the end of the move), hand-derived:
     * the side to move's result, 'W' win / 'D' draw / 'L' loss, and its
     * distance in plies (-1: not checked, only that it is not 0). */
    static const struct {
        const char *fen, *why;
        char result;
        int dist;
    } RULES[] = {
        {"W:Wb6:Bb7,Kd8", "a lone man against a king and a man loses at once, though it has a capture", 'L', 0},
        {"B:WKa1,b2:Ba5", "the same, Black's lone man", 'L', 0},
        {"W:WKa1,b2:Ba5", "White to move while Black has a lone man: won by rule ('won in 1')", 'W', 1},
        {"W:Wd7:BKa1", "every move (d7-d8 crowned, d7-c7, d7-e7) leaves one each, no capture: drawn", 'D', 0},
        {"B:WKd8:BKa1", "one king each after the crowning, no capture: drawn at once", 'D', 0},
        {"B:WKd4:Bd5", "one each, the side to move takes (d5:d3): wins", 'W', 1},
        {"W:WKd1:Bd5", "one each, the king takes at a distance (d1:d6..d8)", 'W', 1},
        {"W:WKd1:Bc5", "one each, no capture for either: drawn", 'D', 0},
        {"B:Wa2,b2:Bh7", "a lone man against two men: no rule (the other side has no king), played out", 'L', -1},
    };
    for (size_t k = 0; k < sizeof RULES / sizeof RULES[0]; k++) {
        pos_of(g, RULES[k].fen, &pos);
        assert_true(egtb_probe(db, NULL, &pos, &val));
        char got = egtb_is_draw(val) ? 'D' : egtb_is_win(val) ? 'W' : 'L';
        int dist = egtb_is_draw(val) ? 0 : egtb_dist(val);
        if (got != RULES[k].result || (RULES[k].dist >= 0 ? dist != RULES[k].dist : dist == 0))
            fail_msg("%s (%s): %c in %d plies, expected %c in %d", RULES[k].fen, RULES[k].why, got, dist,
                     RULES[k].result, RULES[k].dist);
    }
    pos_of(g, "W:WKa1,Kb1:BKh8", &pos); /* two kings win against one */
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_true(egtb_is_win(val));
    int d = egtb_dist(val);
    assert_true(d >= 3);
    /* no move-count rules in Turkish draughts: the verdict is the value */
    DraughtsPos *p = (DraughtsPos *)pos.data;
    p->material_plies = 200;
    p->reversible = 200;
    assert_int_equal(egtb_verdict(db, &pos, val), EGTB_WIN);
    /* a deep search that proves a result agrees with the database */
    const EgtbIndexer *ix = egtb_db_indexer(db);
    EgtbMaterial m = {{0, 0}, {2, 1}};
    Engine *e = engine_new(g, 4);
    uint64_t rng = 3;
    int proven = 0;
    for (int k = 0; k < 40; k++) {
        Position q;
        if (!ix->decode(m, rng_splitmix64(&rng) % ix->size(m), &q)) continue;
        const char *why;
        if (game_outcome(g, &q, NULL, 0, &why, NULL) != OUTCOME_NONE) continue;
        assert_true(egtb_probe(db, NULL, &q, &val));
        engine_clear(e);
        SearchLimits lim = {.depth = 9};
        SearchResult r;
        engine_search(e, &q, NULL, 0, &lim, &r, NULL, NULL);
        if (r.score >= SCORE_WIN_MIN) {
            proven++;
            assert_true(egtb_is_win(val));
            assert_true(egtb_dist(val) <= SCORE_WIN - r.score);
        } else if (r.score <= -SCORE_WIN_MIN) {
            proven++;
            assert_true(egtb_is_loss(val));
        }
    }
    assert_true(proven > 5);
    engine_free(e);
    egtb_close(db);
    remove_dir(dir);
}

/* Side to move's result of a probe: 'W', 'D' or 'L', and the distance. */
static char probe_result(const Game *g, const Egtb *db, const char *fen, int *dist)
{
    Position pos;
    uint8_t v;
    pos_of(g, fen, &pos);
    assert_true(egtb_probe(db, NULL, &pos, &v));
    *dist = egtb_is_draw(v) ? 0 : egtb_dist(v);
    return egtb_is_draw(v) ? 'D' : egtb_is_win(v) ? 'W' : 'L';
}

/* A position, why its value is what it is, and its value: 'W' won, 'L'
 * lost, 'D' drawn for the side to move, in dist plies. */
typedef struct ProbeCase {
    const char *fen, *why;
    char result;
    int dist;
} ProbeCase;

/* Each case probed in db gives its result and distance. */
static void check_probe_cases(const Game *g, const Egtb *db, const ProbeCase *cases, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        int dist;
        char got = probe_result(g, db, cases[k].fen, &dist);
        if (got != cases[k].result || dist != cases[k].dist)
            fail_msg("%s (%s): %c in %d plies, expected %c in %d", cases[k].fen, cases[k].why, got, dist,
                     cases[k].result, cases[k].dist);
    }
}

/* International draughts (10x10): every 2- and 3-piece table with the
 * consistency pass, and 3k-1k; hand-checked values (men capture backward,
 * kings fly, two kings do not beat one), the coups of three kings against
 * one that the old books give, and the 16-move rule I-D3 on a win. */
static void test_international(void **state)
{
    (void)state;
    const Game *g = game("international");
    char dir[64], err[ERR_MAX];
    temp_dir(dir);
    build(g, dir, 3, NULL);
    Verified v = {0};
    assert_int_equal(egtb_verify(g, dir, on_verified, &v, err), 0);
    assert_int_equal(v.tables, 9); /* canonical materials of 2-3 pieces */
    assert_int_equal(v.bad, 0);
    assert_int_equal(v.checked, 827020 - 80 - 3840 - 3520); /* used indices: men sets apart */
    build(g, dir, 0, "3k-1k"); /* verified with the 4- and 5-piece sets (docs/egtb.md), not here: time */
    Egtb *db = egtb_open(g, dir, true, err);
    assert_non_null(db);
    assert_int_equal(egtb_pieces(db), 3);
    /* Hand-derived: the side to move's result and distance in plies. The
     * squares: 46 = a1, 5 = j10, 28 = e5, 23 = f6, 33 = f4, 11 = b8. */
    static const ProbeCase CASES[] = {
        {"W:WK46:BK5", "both kings on the long diagonal, a1 to move: every step along it is taken", 'L', 2},
        {"W:WK47:BK5", "king against king, apart: a draw", 'D', 0},
        {"W:WK1,K2:BK46", "two kings against one in the corner of the long diagonal: a draw", 'D', 0},
        {"W:W28:B23", "a man takes forward, e5xg7", 'W', 1},
        {"W:W28:B33", "a man takes backward too, e5xg3", 'W', 1},
        {"B:W28:B33", "Black's man takes backward, f4xd6", 'W', 1},
        {"W:WK46,K37,K27:BK11", "27-22 sacrifices: 11x22x41 (the most pieces), 46x37 takes the king", 'W', 3},
        {"W:WK19,K27,K37:BK11",
         "27-22: 11 takes two (x37 or x19); a king that escapes to a corner of the long diagonal is shut in "
         "(19-5, 37-46)",
         'W', 5},
        {"W:WK46:BK13,K16,K27", "the lone king holds the long diagonal (Hoyle: 41, 37, 28 or 23)", 'D', 0},
        {"B:WK41:BK13,K16,K27", "46-41: safe", 'D', 0},
        {"B:WK23:BK13,K16,K27", "46-23: safe", 'D', 0},
        {"B:WK14:BK13,K16,K27", "46-14 loses to the coup (Hoyle: 5, 10 or 14)", 'W', 3},
        {"B:WK5:BK13,K16,K27", "46-5 loses", 'W', 3},
    };
    check_probe_cases(g, db, CASES, sizeof CASES / sizeof CASES[0]);
    /* I-D3: 32 - material_plies plies left; a win counts only inside them */
    Position pos;
    uint8_t val;
    pos_of(g, "W:WK46,K37,K27:BK11", &pos);
    assert_true(egtb_probe(db, NULL, &pos, &val));
    DraughtsPos *p = (DraughtsPos *)pos.data;
    assert_int_equal(egtb_verdict(db, &pos, val), EGTB_WIN);
    p->material_plies = 28;
    assert_int_equal(egtb_verdict(db, &pos, val), EGTB_WIN);
    p->material_plies = 29;
    assert_int_equal(egtb_verdict(db, &pos, val), EGTB_UNKNOWN);
    /* I-D4: two kings against one, 10 plies */
    pos_of(g, "W:WK46,K37:BK11", &pos);
    p = (DraughtsPos *)pos.data;
    p->material_plies = 9;
    assert_int_equal(egtb_probe_verdict(db, NULL, &pos, 0, &(int){0}), EGTB_DRAW);
    egtb_close(db);
    remove_dir(dir);
}

/* Canadian draughts (12x12, International's rules on 72 squares): every 2-
 * and 3-piece table on the 128-bit board, the consistency pass,
 * hand-checked values, and the rule Ca-D4 on a win. */
static void test_canadian(void **state)
{
    (void)state;
    const Game *g = game("canadian");
    char dir[64], err[ERR_MAX];
    temp_dir(dir);
    build(g, dir, 3, NULL);
    Verified v = {0};
    assert_int_equal(egtb_verify(g, dir, on_verified, &v, err), 0);
    assert_int_equal(v.tables, 9); /* canonical materials of 2-3 pieces */
    assert_int_equal(v.bad, 0);
    /* used indices: 2,563,488 less those whose men sets share a square
     * (60 squares both colours' men may stand on): 120 + 8,400 + 7,800 */
    assert_int_equal(v.checked, 2563488 - 120 - 8400 - 7800);
    Egtb *db = egtb_open(g, dir, true, err);
    assert_non_null(db);
    assert_int_equal(egtb_pieces(db), 3);
    /* The squares: 67 = a1, 6 = l12, 68 = c1, 45 = e5, 39 = f6, 51 = f4. */
    static const ProbeCase CASES[] = {
        {"W:WK67:BK6", "both kings on the long diagonal, a1 to move: every step along it is taken", 'L', 2},
        {"W:WK68:BK6", "king against king, apart: a draw", 'D', 0},
        {"W:WK1,K2:BK67", "two kings against one in the corner of the long diagonal: a draw", 'D', 0},
        {"W:W45:B39", "a man takes forward, e5xg7", 'W', 1},
        {"W:W45:B51", "a man takes backward too, e5xg3", 'W', 1},
        {"B:W45:B51", "Black's man takes backward, f4xd6", 'W', 1},
    };
    check_probe_cases(g, db, CASES, sizeof CASES / sizeof CASES[0]);
    /* Ca-D4: two pieces with a king against a lone king, 10 - material_plies
     * plies left; a win counts only inside them (a king takes e5xg7) */
    Position pos;
    uint8_t val;
    pos_of(g, "W:WK45,K1:BK39", &pos);
    assert_true(egtb_probe(db, NULL, &pos, &val));
    assert_int_equal(egtb_dist(val), 1);
    DraughtsPosWide *p = (DraughtsPosWide *)pos.data;
    p->material_plies = 8;
    assert_int_equal(egtb_verdict(db, &pos, val), EGTB_WIN);
    p->material_plies = 9;
    assert_int_equal(egtb_verdict(db, &pos, val), EGTB_UNKNOWN);
    egtb_close(db);
    remove_dir(dir);
}

typedef struct ChildKey {
    uint64_t w, b, k;
} ChildKey;

static int child_key_cmp(const void *x, const void *y)
{
    const ChildKey *a = x, *c = y;
    if (a->w != c->w) return a->w < c->w ? -1 : 1;
    if (a->b != c->b) return a->b < c->b ? -1 : 1;
    if (a->k != c->k) return a->k < c->k ? -1 : 1;
    return 0;
}

/* The children of pos, each mapped through the symmetry when mirror, as
 * sorted bitboard triples; returns how many. */
static int children_keys(const Game *g, const EgtbIndexer *ix, const Position *pos, bool mirror, ChildKey *out)
{
    MoveList list;
    g->gen_moves(pos, &list, GEN_DISTINCT);
    for (int i = 0; i < list.len; i++) {
        Position c, img;
        bool self;
        g->make_move(pos, &list.moves[i], &c);
        if (mirror) ix->symmetry(&c, &img, &self);
        const DraughtsPos *d = (const DraughtsPos *)(mirror ? img.data : c.data);
        out[i] = (ChildKey){d->pieces[0], d->pieces[1], d->kings};
    }
    qsort(out, (size_t)list.len, sizeof *out, child_key_cmp);
    return list.len;
}

/* Turkish left-right mirror symmetry (EgtbIndexer.symmetry, used by the
 * builder to solve one position of each mirrored pair): the rules commute
 * with it (the image's moves are the images of the moves, same captures,
 * same game rules), one of each pair is the representative, and tables
 * built with it are byte for byte those built without. */
static void test_turkish_symmetry(void **state)
{
    (void)state;
    const Game *g = game("turkish");
    const EgtbIndexer *ix = egtb_indexer(g);
    assert_non_null(ix->symmetry);
    assert_null(egtb_indexer(game("russian"))->symmetry);
    /* Random positions of the 4- and 5-piece materials, and of 2k-2k (an
     * image equal to its position needs every colour and kind of piece in
     * mirrored pairs: none has 3 or 5 pieces). */
    EgtbMaterial mats[512];
    int n = egtb_materials(5, mats, 512);
    uint64_t rng = 11;
    int tried = 0, selfs = 0, reps = 0;
    static ChildKey a[MOVES_MAX], b[MOVES_MAX];
    for (int k = 0; k < 20000; k++) {
        EgtbMaterial m = k % 4 == 0 ? (EgtbMaterial){{0, 0}, {2, 2}} : mats[rng_splitmix64(&rng) % (uint64_t)n];
        Position pos, img, back;
        if (!ix->decode(m, rng_splitmix64(&rng) % ix->size(m), &pos)) continue;
        tried++;
        bool self, self2;
        int r1 = ix->symmetry(&pos, &img, &self);
        int r2 = ix->symmetry(&img, &back, &self2);
        assert_int_equal(self, self2);
        if (self) {
            assert_int_equal(r1, 0);
            assert_int_equal(r2, 0);
            selfs++;
        } else {
            assert_int_equal(r1 + r2, 1); /* exactly one of the pair represents it */
            reps += r1 == 0;
        }
        const DraughtsPos *p = (const DraughtsPos *)pos.data, *q = (const DraughtsPos *)back.data;
        assert_true(p->pieces[0] == q->pieces[0] && p->pieces[1] == q->pieces[1] && p->kings == q->kings);
        uint64_t idx;
        assert_true(ix->index(&img, m, &idx)); /* the image is a position of the same material */
        const char *why;
        assert_int_equal(g->rule_outcome(&pos, &why), g->rule_outcome(&img, &why));
        assert_int_equal(g->has_capture(&pos), g->has_capture(&img));
        int na = children_keys(g, ix, &pos, true, a), nb = children_keys(g, ix, &img, false, b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, (size_t)na * sizeof *a);
    }
    if (!(tried > 15000 && selfs > 0 && reps > tried / 3)) fail_msg("tried %d selfs %d reps %d", tried, selfs, reps);
    /* the mirror of a named position: a1 <-> h1, the side to move kept */
    Position pos, img;
    bool self;
    pos_of(g, "B:WKa1,b2:Bh6", &pos);
    ix->symmetry(&pos, &img, &self);
    char fen[FEN_MAX];
    DraughtsPos *d = (DraughtsPos *)img.data;
    d->key = draughts_hash_full(d);
    g->pos_to_fen(&img, fen);
    Position want;
    pos_of(g, "B:WKh1,g2:Ba6", &want);
    char fen2[FEN_MAX];
    g->pos_to_fen(&want, fen2);
    assert_string_equal(fen, fen2);

    /* Built with and without: the same files. */
    char d1[64], d2[64], err[ERR_MAX];
    temp_dir(d1);
    temp_dir(d2);
    EgtbBuildOptions o = {.pieces = 3, .zstd_level = 3, .no_symmetry = true};
    assert_int_equal(egtb_build(g, d1, &o, err), 0);
    o.no_symmetry = false;
    assert_int_equal(egtb_build(g, d2, &o, err), 0);
    n = egtb_materials(3, mats, 512);
    for (int i = 0; i < n; i++) {
        char p1[512], p2[512];
        egtb_file_path(d1, g, mats[i], p1, sizeof p1);
        egtb_file_path(d2, g, mats[i], p2, sizeof p2);
        FILE *f1 = fopen(p1, "rb"), *f2 = fopen(p2, "rb");
        assert_non_null(f1);
        assert_non_null(f2);
        int c1, c2;
        long at = 0;
        do {
            c1 = fgetc(f1), c2 = fgetc(f2);
            if (c1 != c2) fail_msg("%s and %s differ at byte %ld", p1, p2, at);
            at++;
        } while (c1 != EOF);
        assert_true(at > 128);
        fclose(f1);
        fclose(f2);
    }
    /* verify with the symmetry: images compared with their representative */
    Verified v = {0};
    assert_int_equal(egtb_verify_only(g, d2, NULL, true, on_verified, &v, err), 0);
    assert_int_equal(v.bad, 0);
    assert_true(v.checked > 1000000);
    assert_int_equal(v.mirrored * 2, v.checked); /* no position of 2-3 pieces is its own image */
    remove_dir(d1);
    remove_dir(d2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_round_trip),
        cmocka_unit_test(test_material_parse),
        cmocka_unit_test(test_material_compare),
        cmocka_unit_test(test_russian_3_consistent),
        cmocka_unit_test(test_three_kings_against_one),
        cmocka_unit_test(test_counted_three_kings),
        cmocka_unit_test(test_resume_and_atomic_files),
        cmocka_unit_test(test_damaged_block_never_misread),
        cmocka_unit_test(test_tables_mapped_on_first_probe),
        cmocka_unit_test(test_turkish),
        cmocka_unit_test(test_turkish_symmetry),
        cmocka_unit_test(test_international),
        cmocka_unit_test(test_canadian),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
