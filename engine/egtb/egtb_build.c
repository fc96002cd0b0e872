/* egtb_build.c — retrograde analysis of every position of a material, the
 * table writer, and the full consistency check. OpenMP over the index.
 *
 * Per material (both sides to move, one table):
 * 1. Forward pass: every position is set up (indexer decode) and its moves
 *    generated with the game's own gen_moves/make_move. Children of another
 *    material (a capture or a promotion happened) are looked up in the
 *    tables built before; children of the same material are counted. A
 *    position with no move loses now; one ended by a game rule gets its
 *    result. A child that loses gives a tentative win (distance + 1); the
 *    longest external loss and any external draw are remembered.
 * 2. Backward passes, by distance L = 0, 1, 2, ...: every position whose
 *    result is final at L sends it to its predecessors (indexer un-moves,
 *    kept when the predecessor has no compulsory capture and no game rule
 *    has ended it): a loss at L makes them win at L + 1 (the first such
 *    distance is the shortest), a win at L uses up one of their counted
 *    children; the last one makes them lose at max(L + 1, longest external
 *    loss) unless an external child draws. What is left unresolved draws.
 */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include "engine/egtb/egtb.h"
#include "engine/egtb/egtb_file.h"
#include "util/clock.h"

typedef struct Builder {
    const Game *game;
    const EgtbIndexer *ix;
    uint8_t *vals[EGTB_KEYS]; /* values of the materials built or loaded so far */
    uint8_t *cvals[EGTB_KEYS]; /* counted tables (EgtbIndexer.counted) built or loaded so far */
    uint32_t flags[EGTB_KEYS]; /* header flags of the tables built or loaded (EGTB_FLAG_*) */
    uint64_t sizes[EGTB_KEYS];
    int (*sym)(const Position *, Position *, bool *); /* the indexer's symmetry, or NULL: not used */
} Builder;

/* Is pos the representative of its mirrored pair (EgtbIndexer.symmetry)?
 * Without a symmetry every position represents itself. *self: pos is its
 * own image; *image: the image (with a symmetry). */
static inline bool representative(const Builder *b, const Position *pos, Position *image, bool *self)
{
    *self = true;
    return !b->sym || b->sym(pos, image, self) == 0;
}

bool egtb_material_reaches(EgtbMaterial from, EgtbMaterial to)
{
    for (int c = 0; c < 2; c++) {
        int promoted = from.men[c] - to.men[c];
        if (promoted < 0) return false;
        if (to.men[c] + to.kings[c] > from.men[c] + from.kings[c]) return false;
        if (to.kings[c] > from.kings[c] + promoted) return false;
    }
    return true;
}

int egtb_material_parse(const char *text, EgtbMaterial *m, char err[ERR_MAX])
{
    memset(m, 0, sizeof *m);
    const char *s = text;
    for (int c = 0; c < 2; c++) {
        bool any = false, seen_k = false, seen_m = false;
        while (*s >= '0' && *s <= '9') {
            int n = 0;
            while (*s >= '0' && *s <= '9' && n <= EGTB_PIECES_MAX) n = n * 10 + (*s++ - '0');
            if (n > EGTB_PIECES_MAX || (*s != 'k' && *s != 'm')) {
                snprintf(err, ERR_MAX, "bad material '%.40s': expected counts like 2k1m-1k", text);
                return -1;
            }
            bool *seen = *s == 'k' ? &seen_k : &seen_m;
            if (*seen) { /* "2k2k" is not 4 kings, nor 2 */
                snprintf(err, ERR_MAX, "bad material '%.40s': %s count of %s side given twice", text,
                         *s == 'k' ? "the king" : "the man", c == 0 ? "the first" : "the second");
                return -1;
            }
            *seen = true;
            if (*s == 'k') m->kings[c] = (uint8_t)n;
            else m->men[c] = (uint8_t)n;
            s++;
            any = true;
        }
        if (!any || (c == 0 && *s++ != '-')) {
            snprintf(err, ERR_MAX, "bad material '%.40s': expected counts like 2k1m-1k", text);
            return -1;
        }
    }
    if (*s) {
        snprintf(err, ERR_MAX, "bad material '%.40s': '%.20s' after the second side's counts", text, s);
        return -1;
    }
    if (!(m->men[0] + m->kings[0]) || !(m->men[1] + m->kings[1]) || egtb_material_pieces(*m) > EGTB_PIECES_MAX) {
        snprintf(err, ERR_MAX, "bad material '%.40s': each side needs a piece, at most %d in all", text,
                 EGTB_PIECES_MAX);
        return -1;
    }
    return 0;
}

/* The byte of pos in tables[] (b->vals or b->cvals), through the colour
 * mirror when its material is not canonical; NULL when that material's
 * table is not there or pos has no index in it. */
static const uint8_t *table_byte(const Builder *b, uint8_t *const *tables, const Position *pos)
{
    EgtbMaterial m = b->ix->material(pos);
    Position mirrored;
    if (!egtb_material_canonical(m)) {
        b->game->pos_mirror(pos, &mirrored);
        pos = &mirrored;
        m = egtb_material_mirror(m);
    }
    int key = egtb_material_key(m);
    uint64_t idx;
    if (!tables[key] || !b->ix->index(pos, m, &idx) || idx >= b->sizes[key]) return NULL;
    return &tables[key][idx];
}

/* Value byte of a child position of another material than the one being
 * built (or of any position, in verification); *ok false when no table
 * holds it. */
static uint8_t lookup(const Builder *b, const Position *pos, bool *ok)
{
    EgtbMaterial m = b->ix->material(pos);
    Color stm = b->game->side_to_move(pos);
    if (m.men[stm] + m.kings[stm] == 0) return 1;      /* no pieces: lost now */
    if (m.men[stm ^ 1] + m.kings[stm ^ 1] == 0) return 2; /* cannot happen in play */
    const uint8_t *v = table_byte(b, b->vals, pos);
    if (!v) *ok = false;
    return v ? *v : 0;
}

/* The counted byte of pos (EgtbIndexer.counted) when its material's
 * counted table was built or loaded before; false otherwise. */
static bool lookup_counted(const Builder *b, const Position *pos, uint8_t *cv)
{
    const uint8_t *v = table_byte(b, b->cvals, pos);
    if (v) *cv = *v;
    return v != NULL;
}

/* The value of child, a position of another material than the one being
 * solved or checked: its stored value, or a draw where its material is
 * counted and the counted table says the rules draw it at child's count
 * (when counted_children: EGTB_FLAG_COUNTED_CHILDREN). *ok false: no
 * table holds it. */
static uint8_t lookup_child(const Builder *b, const Position *child, bool counted_children, bool *ok)
{
    uint8_t v = lookup(b, child, ok), cv;
    if (counted_children && *ok && !egtb_is_draw(v) && lookup_counted(b, child, &cv)) {
        EgtbVerdict r = egtb_counted_verdict(cv, b->ix->count(child));
        if (r != EGTB_WIN && r != EGTB_LOSS) v = 0;
    }
    return v;
}

/* Does material m turn into a counted material other than itself (by a
 * capture or a promotion)? Its table then takes those children at their
 * counted verdict (EGTB_FLAG_COUNTED_CHILDREN). */
static bool reaches_counted(const Builder *b, EgtbMaterial m)
{
    if (!b->ix->counted) return false;
    EgtbMaterial mats[1024];
    int nm = egtb_materials(egtb_material_pieces(m), mats, 1024);
    for (int i = 0; i < nm && i < 1024; i++) {
        bool exact;
        if (memcmp(&mats[i], &m, sizeof m) == 0 || !b->ix->counted(mats[i], &exact)) continue;
        if (egtb_material_reaches(m, mats[i]) || egtb_material_reaches(m, egtb_material_mirror(mats[i]))) return true;
    }
    return false;
}

/* Result of a position from its children's values (the minimax rule). */
static uint8_t from_children(bool any_loss, int min_loss, bool any_draw, int max_win, int moves)
{
    if (moves == 0) return 1;
    if (any_loss) return (uint8_t)(min_loss + 2);
    if (any_draw) return 0;
    return (uint8_t)(max_win + 2);
}

/* Value of a position the game's rules end now: 0 draw, 1 lost, 2 won
 * (a win for the side to move by rule is stored as won in 1; no game
 * reaches one). */
static bool rule_value(const Game *g, const Position *pos, uint8_t *v)
{
    const char *reason;
    Outcome o = g->rule_outcome(pos, &reason);
    if (o == OUTCOME_NONE) return false;
    if (o == OUTCOME_DRAW) *v = 0;
    else *v = (o == OUTCOME_WHITE_WINS) == (g->side_to_move(pos) == COLOR_WHITE) ? 2 : 1;
    return true;
}

typedef struct Propagate {
    const Builder *b;
    EgtbMaterial m;
    uint8_t *val, *cnt, *aux;
    int level;
    bool self; /* the position sending its result is its own mirror image */
    int *max_assigned;
    int *error;
} Propagate;

static void propagate_one(void *ctx, const Position *q)
{
    Propagate *p = ctx;
    const Game *g = p->b->game;
    uint64_t qi;
    /* Only representatives are solved. A child c and its image send their
     * result once, as c: q's moves into the pair {c, image of c} are the
     * un-moves of c that give q or q's image, so q's representative takes
     * one step per un-move (two if q is its own image, below). If c is its
     * own image, its un-moves come in mirrored pairs and only those of
     * representatives count. */
    Position img;
    bool qself = false;
    if (!representative(p->b, q, &img, &qself)) {
        if (p->self) return;
        q = &img;
    }
    if (!p->b->ix->index(q, p->m, &qi)) return; /* a square no game reaches (Turkish men on rank 1/8) */
    /* A q whose value this step cannot change is skipped before the costly
     * legality checks (a capture pending, a game rule), which only ever
     * reject; the same tests are repeated where the value changes. */
    int L = p->level;
    uint8_t seen = __atomic_load_n(&p->val[qi], __ATOMIC_RELAXED);
    if ((L & 1) == 0 ? seen != 0 && (seen <= L + 2 || !egtb_is_win(seen)) : seen != 0) return;
    if (g->has_capture(q)) return; /* the quiet move was not legal there */
    const char *reason;
    if (g->rule_outcome(q, &reason) != OUTCOME_NONE) return;
    if ((L & 1) == 0) { /* child lost at L: q wins at L + 1 */
        uint8_t want = (uint8_t)(L + 2);
        uint8_t old = __atomic_load_n(&p->val[qi], __ATOMIC_RELAXED);
        while (old == 0 || old > want) {
            if (old != 0 && !egtb_is_win(old)) break; /* cannot happen: a loss has no losing child */
            if (__atomic_compare_exchange_n(&p->val[qi], &old, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                if (L + 1 > EGTB_DIST_MAX) __atomic_store_n(p->error, 2, __ATOMIC_RELAXED);
                break;
            }
        }
        return;
    }
    /* child won at L: one counted child fewer (two when q is its own
     * image and c is not: q's moves to c and to c's image are one un-move
     * of c, as q and its image are one position) */
    uint8_t old = __atomic_load_n(&p->val[qi], __ATOMIC_RELAXED);
    if (old != 0) return; /* already won (or, impossibly, lost) */
    uint8_t left = __atomic_sub_fetch(&p->cnt[qi], qself && !p->self ? 2 : 1, __ATOMIC_RELAXED);
    if (left >= 254) { /* below zero (a count is at most 254 before the step) */
        __atomic_store_n(p->error, 3, __ATOMIC_RELAXED);
        return;
    }
    if (left != 0 || p->aux[qi] == 255) return;
    int d = L + 1 > p->aux[qi] ? L + 1 : p->aux[qi];
    if (d > EGTB_DIST_MAX) {
        __atomic_store_n(p->error, 2, __ATOMIC_RELAXED);
        return;
    }
    __atomic_store_n(&p->val[qi], (uint8_t)(d + 1), __ATOMIC_RELAXED);
}

/* Solve material m into a new array of its values: 0, 1 when stopped
 * (*stop polled at every position and between levels: a large material
 * takes minutes), or -1 with err. */
static int solve(Builder *b, EgtbMaterial m, volatile int *stop, uint8_t **out, char err[ERR_MAX])
{
    uint64_t n = b->ix->size(m);
    bool counted_children = b->flags[egtb_material_key(m)] & EGTB_FLAG_COUNTED_CHILDREN;
    uint8_t *val = calloc(n, 1), *cnt = calloc(n, 1), *aux = calloc(n, 1);
    if (!val || !cnt || !aux) {
        free(val), free(cnt), free(aux);
        snprintf(err, ERR_MAX, "out of memory for %llu positions", (unsigned long long)n);
        return -1;
    }
    const Game *g = b->game;
    int error = 0, max_assigned = 0;
#pragma omp parallel if (n > 200000)
    {
        MoveList *list = malloc(sizeof *list);
        if (!list) __atomic_store_n(&error, 1, __ATOMIC_RELAXED);
        int local_max = 0;
#pragma omp for schedule(dynamic, 4096)
        for (uint64_t i = 0; i < n; i++) {
            if (!list || (stop && *stop)) continue;
            Position pos, child;
            if (!b->ix->decode(m, i, &pos)) {
                aux[i] = 255;
                continue;
            }
            bool self;
            if (!representative(b, &pos, &child, &self)) continue; /* its image's value, copied at the end */
            uint8_t v;
            if (rule_value(g, &pos, &v)) {
                val[i] = v;
                if (v == 0) aux[i] = 255;
                if (v > local_max) local_max = v;
                continue;
            }
            g->gen_moves(&pos, list, GEN_DISTINCT);
            if (list->len == 0) {
                val[i] = 1;
                continue;
            }
            int internal = 0, win = -1, loss_max = 0;
            bool draw = false;
            for (int k = 0; k < list->len; k++) {
                g->make_move(&pos, &list->moves[k], &child);
                EgtbMaterial cm = b->ix->material(&child);
                if (memcmp(&cm, &m, sizeof m) == 0) {
                    internal++;
                    continue;
                }
                bool ok = true;
                uint8_t cv = lookup_child(b, &child, counted_children, &ok);
                if (!ok) __atomic_store_n(&error, 4, __ATOMIC_RELAXED);
                if (egtb_is_draw(cv)) draw = true;
                else if (egtb_is_loss(cv)) {
                    if (win < 0 || egtb_dist(cv) + 1 < win) win = egtb_dist(cv) + 1;
                } else if (egtb_dist(cv) + 1 > loss_max) loss_max = egtb_dist(cv) + 1;
            }
            if (internal > 254) __atomic_store_n(&error, 3, __ATOMIC_RELAXED);
            cnt[i] = (uint8_t)internal;
            aux[i] = draw ? 255 : (uint8_t)(loss_max > 254 ? 254 : loss_max);
            if (loss_max > EGTB_DIST_MAX || win > EGTB_DIST_MAX) __atomic_store_n(&error, 2, __ATOMIC_RELAXED);
            if (win >= 0) val[i] = (uint8_t)(win + 1);
            else if (internal == 0 && !draw) val[i] = (uint8_t)(loss_max + 1);
            if (val[i] > local_max) local_max = val[i];
        }
#pragma omp critical(egtb_max)
        if (local_max > max_assigned) max_assigned = local_max;
        free(list);
    }
    for (int L = 0; L <= EGTB_DIST_MAX && !error && !(stop && *stop); L++) {
        uint8_t want = (uint8_t)(L + 1);
        int level_max = 0;
#pragma omp parallel if (n > 200000)
        {
            Propagate p = {b, m, val, cnt, aux, L, true, NULL, &error};
            int mine = 0;
#pragma omp for schedule(dynamic, 65536)
            for (uint64_t i = 0; i < n; i++) {
                if (__atomic_load_n(&val[i], __ATOMIC_RELAXED) != want || (stop && *stop)) continue;
                Position pos;
                b->ix->decode(m, i, &pos);
                Position img;
                representative(b, &pos, &img, &p.self);
                b->ix->unmoves(&pos, propagate_one, &p);
                mine = L + 2;
            }
#pragma omp critical(egtb_max)
            if (mine > level_max) level_max = mine;
        }
        if (level_max > max_assigned) max_assigned = level_max;
        /* Tentative external losses may lie further out than L + 2. */
        if (L + 1 >= max_assigned) {
            int far = 0;
#pragma omp parallel for reduction(max : far) if (n > 200000)
            for (uint64_t i = 0; i < n; i++)
                if (val[i] > want && val[i] > far) far = val[i];
            if (far <= want) break;
            max_assigned = far;
        }
    }
    if (stop && *stop && !error) { /* the values are partial: nothing kept */
        free(val), free(cnt), free(aux);
        return 1;
    }
    if (b->sym && !error) {
        /* The images take their representative's value. An image was left
         * untouched (value, count and aux 0); a representative never is
         * (no moves: lost; a draw: aux 255; no child in its own material:
         * a value), nor is an unused index (aux 255). */
#pragma omp parallel for schedule(dynamic, 65536) if (n > 200000)
        for (uint64_t i = 0; i < n; i++) {
            if (val[i] == 0 && cnt[i] == 0 && aux[i] == 0) continue;
            Position pos, img;
            bool self;
            uint64_t j;
            if (!b->ix->decode(m, i, &pos)) continue;
            if (!representative(b, &pos, &img, &self) || self) continue;
            if (!b->ix->index(&img, m, &j) || j >= n) {
                __atomic_store_n(&error, 4, __ATOMIC_RELAXED);
                continue;
            }
            val[j] = val[i];
        }
    }
    free(cnt);
    free(aux);
    if (error) {
        free(val);
        char name[32];
        egtb_material_name(m, name);
        snprintf(err, ERR_MAX, "%s %s: %s", g->name, name,
                 error == 1   ? "out of memory"
                 : error == 2 ? "a distance exceeds 254 plies (the value byte cannot hold it)"
                 : error == 3 ? "more than 254 quiet moves in one position"
                              : "a child position is missing from the tables built before (indexing bug)");
        return -1;
    }
    *out = val;
    return 0;
}

/* The counted solve of material m (EgtbIndexer.counted, docs/egtb.md):
 * the value of every position at every count c, from c = top - 1 (at top
 * the rules draw every position but one whose side to move has no move,
 * lost: a rule gives way to a win on the last counted move) down to 0,
 * each level from the one above
 * it: a quiet move keeps the material and adds one to the count; a
 * capture or a promotion leaves m for a material whose verdict the tables
 * built before give (its count starts at 0; a counted material's counted
 * table, else the stored result when d < rule_plies_left, else a draw).
 * Level values: 0 draw, 1 the side to move loses, 2 it wins
 * (rule_value's). The result: the counted byte of each position
 * (egtb_counted_verdict), the largest count at which it is won or lost;
 * a position won at c but not at a smaller count is an error (the rules
 * would not draw from a count on). 0, 1 when stopped, or -1 with err. */
/* A child of another material at its verdict, as the counted solve takes
 * it (count 0 after the capture or promotion): 2 the side to move there
 * wins, 1 it loses, 0 neither (a draw, or a result the rules may still
 * turn into a draw). */
static uint8_t counted_external(const Builder *b, const Position *child, int *error)
{
    const EgtbIndexer *ix = b->ix;
    uint8_t cv;
    if (lookup_counted(b, child, &cv)) { /* a counted material */
        EgtbVerdict r = egtb_counted_verdict(cv, ix->count(child));
        return r == EGTB_WIN ? 2 : r == EGTB_LOSS ? 1 : 0;
    }
    bool ok = true;
    uint8_t dv = lookup(b, child, &ok);
    if (!ok) __atomic_store_n(error, 4, __ATOMIC_RELAXED);
    int left = ix->rule_plies_left ? ix->rule_plies_left(child) : INT32_MAX;
    return !egtb_is_draw(dv) && egtb_dist(dv) < left ? (egtb_is_win(dv) ? 2 : 1) : 0;
}

enum { EXT_WIN = 1, EXT_NOT_ALL_WON = 2, EXT_UNUSED = 4 }; /* solve_counted's per-position flags */

static int solve_counted(Builder *b, EgtbMaterial m, int top, volatile int *stop, uint8_t **out, char err[ERR_MAX])
{
    const EgtbIndexer *ix = b->ix;
    const Game *g = b->game;
    uint64_t n = ix->size(m);
    /* What every count shares, found once: each position's children in m
     * (their indices, kids[off[i]..off[i+1])), what its children of other
     * materials give (ext), and the count from which the rules end it
     * (rule_from, with rule_val; top: not below top). Each count is then a
     * pass over those arrays, without move generation. */
    uint8_t *next = calloc(n, 1), *cur = calloc(n, 1), *res = calloc(n, 1), *ext = calloc(n, 1);
    uint8_t *rule_from = malloc(n), *rule_val = calloc(n, 1);
    uint64_t *off = calloc(n + 1, sizeof *off);
    uint32_t *kids = NULL;
    int error = n > UINT32_MAX ? 1 : 0;
    if (!next || !cur || !res || !ext || !rule_from || !rule_val || !off) error = 1;
    for (int pass = 0; pass < 2 && !error; pass++) {
#pragma omp parallel if (n > 200000)
        {
            MoveList *list = malloc(sizeof *list);
            if (!list) __atomic_store_n(&error, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 4096)
            for (uint64_t i = 0; i < n; i++) {
                Position pos, child;
                if (!list) continue;
                if (!ix->decode(m, i, &pos)) {
                    ext[i] = EXT_UNUSED;
                    rule_from[i] = 0;
                    continue;
                }
                if (pass == 0) { /* the rules by count: from a count on, always the same end */
                    rule_from[i] = (uint8_t)top;
                    for (int c = 0; c < top; c++) {
                        uint8_t v;
                        ix->set_count(&pos, c);
                        bool ends = rule_value(g, &pos, &v);
                        if (ends && rule_from[i] == top) rule_from[i] = (uint8_t)c, rule_val[i] = v;
                        else if (rule_from[i] < top && (!ends || v != rule_val[i]))
                            __atomic_store_n(&error, 5, __ATOMIC_RELAXED);
                    }
                    ix->set_count(&pos, 0);
                }
                g->gen_moves(&pos, list, GEN_DISTINCT);
                if (pass == 0) {
                    /* the level at top (next, before the first count): the rules'
                     * end there, or, where a rule gives way to a win on the last
                     * counted move (Russian D4: "not won by"), a side without a
                     * move has lost, at top too */
                    uint8_t v;
                    ix->set_count(&pos, top);
                    if (!rule_value(g, &pos, &v)) v = list->len == 0 ? 1 : 0;
                    next[i] = v;
                    res[i] = v == 2 ? (uint8_t)(1 + top) : v == 1 ? (uint8_t)(128 + top) : 0;
                    ix->set_count(&pos, 0);
                }
                uint64_t k = pass ? off[i] : 0;
                for (int q = 0; q < list->len; q++) {
                    g->make_move(&pos, &list->moves[q], &child);
                    EgtbMaterial cm = ix->material(&child);
                    if (memcmp(&cm, &m, sizeof m) == 0) {
                        uint64_t j = 0;
                        if (!ix->index(&child, m, &j) || j >= n) __atomic_store_n(&error, 4, __ATOMIC_RELAXED);
                        if (pass) kids[k] = (uint32_t)j;
                        k++;
                    } else if (pass == 0) {
                        uint8_t v = counted_external(b, &child, &error);
                        if (v == 1) ext[i] |= EXT_WIN;
                        if (v != 2) ext[i] |= EXT_NOT_ALL_WON;
                    }
                }
                if (pass == 0) off[i + 1] = k; /* the count, summed below */
            }
            free(list);
        }
        if (pass == 0 && !error) {
            for (uint64_t i = 0; i < n; i++) off[i + 1] += off[i];
            if (!(kids = malloc((off[n] ? off[n] : 1) * sizeof *kids))) error = 1;
        }
    }
    for (int c = top - 1; c >= 0 && !error; c--) {
        if (stop && *stop) { /* polled between counts */
            error = -1;
            break;
        }
#pragma omp parallel for schedule(dynamic, 16384) if (n > 200000)
        for (uint64_t i = 0; i < n; i++) {
            if (ext[i] & EXT_UNUSED) {
                cur[i] = 0;
                continue;
            }
            if (c >= rule_from[i]) {
                cur[i] = rule_val[i];
                continue;
            }
            bool win = ext[i] & EXT_WIN, all_won = !(ext[i] & EXT_NOT_ALL_WON);
            for (uint64_t k = off[i]; k < off[i + 1] && !win; k++) {
                uint8_t v = next[kids[k]];
                win = v == 1;
                all_won &= v == 2;
            }
            cur[i] = win ? 2 : all_won ? 1 : 0; /* no move: all_won, lost */
        }
#pragma omp parallel for if (n > 200000)
        for (uint64_t i = 0; i < n; i++) {
            uint8_t r = res[i];
            if (cur[i] == 2 ? r >= 128 : cur[i] == 1 ? r != 0 && r < 128 : r != 0) {
                __atomic_store_n(&error, 5, __ATOMIC_RELAXED);
                continue;
            }
            if (r == 0 && cur[i]) res[i] = (uint8_t)(cur[i] == 2 ? 1 + c : 128 + c);
        }
        uint8_t *t = next;
        next = cur;
        cur = t;
    }
    free(next), free(cur), free(ext), free(rule_from), free(rule_val), free(off), free(kids);
    if (error) {
        free(res);
        if (error < 0) return 1;
        char name[32];
        egtb_material_name(m, name);
        snprintf(err, ERR_MAX, "%s %s counted: %s", g->name, name,
                 error == 1   ? "out of memory"
                 : error == 5 ? "a result held at one count and not at a smaller one (the rules are not counted ones)"
                              : "a child position is missing from the tables built before (indexing bug)");
        return -1;
    }
    *out = res;
    return 0;
}

static void count_values(const EgtbIndexer *ix, EgtbMaterial m, const uint8_t *val, uint64_t n, EgtbBuildStats *s)
{
    uint64_t w = 0, d = 0, l = 0;
    int md = 0;
#pragma omp parallel if (n > 200000)
    {
        Position pos;
#pragma omp for reduction(+ : w, d, l) reduction(max : md)
        for (uint64_t i = 0; i < n; i++) {
            if (val[i] == 0) {
                if (ix->decode(m, i, &pos)) d++;
                continue;
            }
            if (egtb_is_win(val[i])) w++;
            else l++;
            if (egtb_dist(val[i]) > md) md = egtb_dist(val[i]);
        }
    }
    s->wins = w, s->draws = d, s->losses = l, s->max_dist = md;
}

static int write_table(const Game *game, const char *path, EgtbMaterial m, const uint8_t *val, uint64_t n,
                       const EgtbBuildStats *s, int level, uint32_t flags, uint64_t *bytes, char err[ERR_MAX])
{
    uint64_t nblocks = (n + EGTB_BLOCK - 1) / EGTB_BLOCK;
    size_t bound = ZSTD_compressBound(EGTB_BLOCK);
    unsigned char *frames = malloc(nblocks * bound);
    uint64_t *len = malloc(nblocks * sizeof *len), *off = malloc((nblocks + 1) * sizeof *off);
    if (!frames || !len || !off) {
        free(frames), free(len), free(off);
        snprintf(err, ERR_MAX, "out of memory compressing %.200s", path);
        return -1;
    }
    int bad = 0;
#pragma omp parallel if (n > 200000)
    {
        /* Each frame carries zstd's content checksum (XXH64 of the block's
         * values, low 32 bits), which every decompression checks: a block
         * damaged after the build reads as absent, never as other values. */
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        if (cctx && (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)) ||
                     ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)))) {
            ZSTD_freeCCtx(cctx);
            cctx = NULL;
        }
#pragma omp for schedule(dynamic, 64)
        for (uint64_t i = 0; i < nblocks; i++) {
            uint64_t k = i + 1 < nblocks ? EGTB_BLOCK : n - i * EGTB_BLOCK;
            size_t r = cctx ? ZSTD_compress2(cctx, frames + i * bound, bound, val + i * EGTB_BLOCK, k) : 0;
            if (!cctx || ZSTD_isError(r)) bad = 1;
            else len[i] = r;
        }
        ZSTD_freeCCtx(cctx);
    }
    if (bad) {
        free(frames), free(len), free(off);
        snprintf(err, ERR_MAX, "zstd compression failed for %.200s", path);
        return -1;
    }
    off[0] = (nblocks + 1) * 8;
    for (uint64_t i = 0; i < nblocks; i++) off[i + 1] = off[i] + len[i];
    XXH64_state_t *hs = XXH64_createState();
    XXH64_reset(hs, 0);
    XXH64_update(hs, off, (nblocks + 1) * 8);
    for (uint64_t i = 0; i < nblocks; i++) XXH64_update(hs, frames + i * bound, len[i]);
    EgtbHeader h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, egtb_file_magic(path), 8);
    h.version = EGTB_VERSION;
    h.header_bytes = sizeof h;
    snprintf(h.game, sizeof h.game, "%s", game->name);
    memcpy(h.men, m.men, 2);
    memcpy(h.kings, m.kings, 2);
    h.block = EGTB_BLOCK;
    h.positions = n;
    h.nblocks = nblocks;
    h.payload_bytes = off[nblocks];
    h.payload_hash = XXH64_digest(hs);
    XXH64_freeState(hs);
    h.wins = s->wins, h.draws = s->draws, h.losses = s->losses, h.max_dist = (uint32_t)s->max_dist;
    h.flags = flags;
    h.header_hash = XXH64(&h, offsetof(EgtbHeader, header_hash), 0);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(off, 8, nblocks + 1, f) == nblocks + 1;
    for (uint64_t i = 0; ok && i < nblocks; i++) ok = fwrite(frames + i * bound, 1, len[i], f) == len[i];
    if (f) {
        ok = fflush(f) == 0 && ok && fsync(fileno(f)) == 0;
        ok = fclose(f) == 0 && ok;
    }
    *bytes = sizeof h + off[nblocks];
    free(frames), free(len), free(off);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, ERR_MAX, "cannot write %.200s: %s", f ? path : tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Load an existing table (checksum verified) into memory. 1: absent. */
static int load_table(const Builder *b, const char *path, EgtbMaterial m, uint8_t **out, uint64_t *bytes,
                      EgtbHeader *hdr, char err[ERR_MAX])
{
    uint64_t n = b->ix->size(m);
    const unsigned char *map;
    uint64_t map_len;
    int rc = egtb_file_map(path, b->game, m, n, true, &map, &map_len, err);
    if (rc != 0) return rc;
    uint8_t *val = malloc(n);
    if (!val) {
        munmap((void *)map, map_len);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    if (hdr) *hdr = *(const EgtbHeader *)map;
    rc = egtb_file_unpack(map, path, val, err);
    munmap((void *)map, map_len);
    if (rc != 0) {
        free(val);
        return -1;
    }
    *out = val;
    *bytes = map_len;
    return 0;
}

/* The counted table of m (EgtbIndexer.counted) after m's own table:
 * loaded when m's table was and it checks out (checksum, and the count it
 * was solved to: the header's max_dist), else solved and written. 0, 1
 * if stopped (o->stop), or -1 with err. */
static int build_counted(Builder *b, const char *dir, EgtbMaterial m, int top, bool base_reused,
                         const EgtbBuildOptions *o, char err[ERR_MAX])
{
    if (top > 127) {
        snprintf(err, ERR_MAX, "%s: a counted material's count may not exceed 127 (%d)", b->game->name, top);
        return -1;
    }
    EgtbBuildStats cs;
    memset(&cs, 0, sizeof cs);
    cs.material = m;
    cs.positions = b->ix->size(m);
    cs.counted = true;
    cs.max_dist = top;
    char path[4096], e2[ERR_MAX];
    egtb_counted_path(dir, b->game, m, path, sizeof path);
    uint8_t *val = NULL;
    double t0 = clock_now_s(), c0 = clock_process_cpu_s();
    EgtbHeader have;
    if (base_reused && load_table(b, path, m, &val, &cs.file_bytes, &have, e2) == 0 && have.max_dist == (uint32_t)top &&
        (have.flags & EGTB_FLAG_BLOCKED_LOST)) {
        cs.reused = true;
    } else { /* absent, damaged, solved to another count or under the older rule: solved again */
        free(val);
        val = NULL;
        int rc = solve_counted(b, m, top, o->stop, &val, err);
        if (rc != 0) return rc;
    }
    uint64_t w = 0, d = 0, l = 0;
    for (uint64_t i = 0; i < cs.positions; i++) {
        Position pos;
        if (val[i] == 0) d += b->ix->decode(m, i, &pos);
        else if (val[i] < 128) w++;
        else l++;
    }
    cs.wins = w, cs.draws = d, cs.losses = l;
    int rc = cs.reused ? 0
                       : write_table(b->game, path, m, val, cs.positions, &cs, o->zstd_level, EGTB_FLAG_BLOCKED_LOST,
                                     &cs.file_bytes, err);
    if (rc != 0) {
        free(val);
        return -1;
    }
    b->cvals[egtb_material_key(m)] = val; /* the materials that turn into m use it */
    if (!cs.reused) {
        cs.seconds = clock_now_s() - t0;
        cs.cpu_seconds = clock_process_cpu_s() - c0;
    }
    if (o->report) o->report(o->ctx, &cs);
    return 0;
}

static void builder_free(Builder *b)
{
    for (int i = 0; i < EGTB_KEYS; i++) free(b->vals[i]), free(b->cvals[i]);
    free(b);
}

int egtb_build(const Game *game, const char *dir, const EgtbBuildOptions *o, char err[ERR_MAX])
{
    const EgtbIndexer *ix = egtb_indexer(game);
    if (!ix) {
        snprintf(err, ERR_MAX, "no endgame database support for %s", game->name);
        return -1;
    }
    int pieces = o->only ? egtb_material_pieces(*o->only) : o->pieces;
    if (pieces < 2 || pieces > EGTB_PIECES_MAX) {
        snprintf(err, ERR_MAX, "pieces must be 2..%d, not %d", EGTB_PIECES_MAX, pieces);
        return -1;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, ERR_MAX, "'%s' is not a directory", dir);
        return -1;
    }
    EgtbMaterial mats[1024];
    int nm = egtb_materials(pieces, mats, 1024);
    Builder *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    b->game = game;
    b->ix = ix;
    b->sym = o->no_symmetry ? NULL : ix->symmetry;
    int rc = 0;
    for (int i = 0; i < nm && rc == 0; i++) {
        EgtbMaterial m = mats[i];
        if (o->only && !egtb_material_reaches(*o->only, m) &&
            !egtb_material_reaches(*o->only, egtb_material_mirror(m)))
            continue;
        if (o->stop && *o->stop) {
            rc = 1;
            break;
        }
        EgtbBuildStats s;
        memset(&s, 0, sizeof s);
        s.material = m;
        s.positions = ix->size(m);
        char path[4096];
        egtb_file_path(dir, game, m, path, sizeof path);
        int key = egtb_material_key(m);
        uint8_t *val = NULL;
        char e2[ERR_MAX];
        double t0 = clock_now_s(), c0 = clock_process_cpu_s();
        uint32_t want = reaches_counted(b, m) ? EGTB_FLAG_COUNTED_CHILDREN | EGTB_FLAG_BLOCKED_LOST : 0;
        b->flags[key] = want;
        EgtbHeader have;
        int lr = load_table(b, path, m, &val, &s.file_bytes, &have, e2);
        if (lr == 0 && have.flags != want) { /* built before counted tables, or before their rule: built again */
            free(val);
            val = NULL;
            lr = 1;
        }
        if (lr == 0) {
            s.reused = true;
        } else {
            /* absent, or damaged (a half-written file is never renamed in
             * place; a damaged one is rebuilt) */
            if ((rc = solve(b, m, o->stop, &val, err)) != 0) break; /* 1: stopped */
        }
        b->vals[key] = val;
        b->sizes[key] = s.positions;
        count_values(ix, m, val, s.positions, &s);
        if (!s.reused && write_table(game, path, m, val, s.positions, &s, o->zstd_level, b->flags[key], &s.file_bytes,
                                     err) != 0) {
            rc = -1;
            break;
        }
        if (!s.reused) { /* solve, count and write */
            s.seconds = clock_now_s() - t0;
            s.cpu_seconds = clock_process_cpu_s() - c0;
        }
        if (o->report) o->report(o->ctx, &s);
        bool exact;
        int top = ix->counted ? ix->counted(m, &exact) : 0;
        if (top > 0 && (rc = build_counted(b, dir, m, top, s.reused, o, err)) != 0) break;
    }
    builder_free(b);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Verification                                                        */

int egtb_verify(const Game *game, const char *dir, EgtbVerifyFn report, void *ctx, char err[ERR_MAX])
{
    return egtb_verify_only(game, dir, NULL, false, report, ctx, err);
}

int egtb_verify_only(const Game *game, const char *dir, const EgtbMaterial *only, bool symmetry, EgtbVerifyFn report,
                     void *ctx, char err[ERR_MAX])
{
    const EgtbIndexer *ix = egtb_indexer(game);
    if (!ix) {
        snprintf(err, ERR_MAX, "no endgame database support for %s", game->name);
        return -1;
    }
    EgtbMaterial mats[1024];
    int nm = egtb_materials(EGTB_PIECES_MAX, mats, 1024);
    Builder *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    b->game = game;
    b->ix = ix;
    b->sym = symmetry ? ix->symmetry : NULL;
    int found = 0;
    bool *gone = calloc((size_t)nm, sizeof *gone);
    if (!gone) {
        builder_free(b);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    for (int i = 0; i < nm; i++) {
        /* one material's pass needs its table and its children's */
        if (only && !egtb_material_reaches(*only, mats[i]) && !egtb_material_reaches(*only, egtb_material_mirror(mats[i])))
            continue;
        char path[4096];
        egtb_file_path(dir, game, mats[i], path, sizeof path);
        uint64_t bytes;
        int key = egtb_material_key(mats[i]);
        EgtbHeader hdr;
        int lr = load_table(b, path, mats[i], &b->vals[key], &bytes, &hdr, err);
        if (lr == 0) b->flags[key] = hdr.flags;
        if (lr < 0) {
            free(gone);
            builder_free(b);
            return -1;
        }
        bool exact;
        if (lr == 0 && ix->counted && ix->counted(mats[i], &exact)) { /* its counted table, when built */
            egtb_counted_path(dir, game, mats[i], path, sizeof path);
            b->sizes[key] = ix->size(mats[i]);
            if (load_table(b, path, mats[i], &b->cvals[key], &bytes, NULL, err) < 0) {
                free(gone);
                builder_free(b);
                return -1;
            }
        }
        if (lr == 0) {
            b->sizes[key] = ix->size(mats[i]);
            found++;
        } else gone[i] = true;
    }
    if (!found) {
        snprintf(err, ERR_MAX, "no %s endgame tables in '%s'", game->name, dir);
        free(gone);
        builder_free(b);
        return -1;
    }
    if (only && (!egtb_material_canonical(*only) || !b->vals[egtb_material_key(*only)])) {
        char name[32];
        egtb_material_name(*only, name);
        snprintf(err, ERR_MAX, "no %s table of %s in '%s'%s", game->name, name, dir,
                 egtb_material_canonical(*only) ? "" : " (only materials with White the stronger side are stored)");
        free(gone);
        builder_free(b);
        return -1;
    }
    /* A table whose children's table is absent cannot be checked: every
     * position with a move into that material would count as a mismatch,
     * and the file to blame is the missing one, so name it. */
    for (int i = 0; i < nm; i++) {
        if (!b->vals[egtb_material_key(mats[i])]) continue;
        for (int j = 0; j < nm; j++) {
            if (!gone[j] || j == i) continue;
            if (!egtb_material_reaches(mats[i], mats[j]) && !egtb_material_reaches(mats[i], egtb_material_mirror(mats[j])))
                continue;
            char have[32], need[32], path[4096];
            egtb_material_name(mats[i], have);
            egtb_material_name(mats[j], need);
            egtb_file_path(dir, game, mats[j], path, sizeof path);
            snprintf(err, ERR_MAX, "%.120s: table %.16s is missing, and %.16s turns into it (dama egtb build --game %s --material %.16s builds it)",
                     path, need, have, game->name, need);
            free(gone);
            builder_free(b);
            return -1;
        }
    }
    free(gone);
    /* A table that took its children in a counted material at their counted
     * verdict cannot be checked without that counted table: name it. */
    for (int i = 0; i < nm; i++) {
        int ki = egtb_material_key(mats[i]);
        if (!b->vals[ki] || !(b->flags[ki] & EGTB_FLAG_COUNTED_CHILDREN)) continue;
        for (int j = 0; j < nm; j++) {
            bool exact;
            int kj = egtb_material_key(mats[j]);
            if (j == i || !ix->counted || !ix->counted(mats[j], &exact) || b->cvals[kj]) continue;
            if (!egtb_material_reaches(mats[i], mats[j]) && !egtb_material_reaches(mats[i], egtb_material_mirror(mats[j])))
                continue;
            char have[32], need[32], path[4096];
            egtb_material_name(mats[i], have);
            egtb_material_name(mats[j], need);
            egtb_counted_path(dir, game, mats[j], path, sizeof path);
            snprintf(err, ERR_MAX, "%.80s: counted table %.16s is missing, and %.16s turns into it (dama egtb build "
                     "--game %.16s --material %.16s builds it)", path, need, have, game->name, need);
            builder_free(b);
            return -1;
        }
    }
    int any_bad = 0;
    for (int i = 0; i < nm; i++) {
        EgtbMaterial m = mats[i];
        int key = egtb_material_key(m);
        const uint8_t *val = b->vals[key];
        if (!val || (only && memcmp(&m, only, sizeof m) != 0)) continue;
        uint64_t n = b->sizes[key], checked = 0, mism = 0, badidx = 0, missing = 0, mirrored = 0;
        bool counted_children = b->flags[key] & EGTB_FLAG_COUNTED_CHILDREN;
#pragma omp parallel if (n > 200000)
        {
            MoveList *list = malloc(sizeof *list);
#pragma omp for schedule(dynamic, 4096) reduction(+ : checked, mism, badidx, missing, mirrored)
            for (uint64_t k = 0; k < n; k++) {
                Position pos, child;
                if (!list || !ix->decode(m, k, &pos)) continue;
                checked++;
                uint64_t back;
                if (!ix->index(&pos, m, &back) || back != k) badidx++;
                bool self;
                uint64_t r;
                if (!representative(b, &pos, &child, &self)) { /* its image is checked against its children */
                    mirrored++;
                    if (!ix->index(&child, m, &r) || r >= n) badidx++;
                    else if (val[r] != val[k]) mism++;
                    continue;
                }
                uint8_t want;
                if (!rule_value(game, &pos, &want)) {
                    game->gen_moves(&pos, list, GEN_DISTINCT);
                    bool any_loss = false, any_draw = false;
                    int min_loss = 0, max_win = 0;
                    for (int j = 0; j < list->len; j++) {
                        game->make_move(&pos, &list->moves[j], &child);
                        bool ok = true;
                        EgtbMaterial cm = ix->material(&child);
                        uint8_t cv = memcmp(&cm, &m, sizeof m) == 0 ? lookup(b, &child, &ok)
                                                                     : lookup_child(b, &child, counted_children, &ok);
                        if (!ok) {
                            missing++;
                            any_draw = true; /* unknown child: cannot check this one */
                            continue;
                        }
                        if (egtb_is_draw(cv)) any_draw = true;
                        else if (egtb_is_loss(cv)) {
                            if (!any_loss || egtb_dist(cv) < min_loss) min_loss = egtb_dist(cv);
                            any_loss = true;
                        } else if (egtb_dist(cv) > max_win) max_win = egtb_dist(cv);
                    }
                    want = from_children(any_loss, min_loss, any_draw, max_win, list->len);
                }
                if (want != val[k]) mism++;
            }
            free(list);
        }
        EgtbVerifyStats s = {m, checked, mism + missing, badidx, mirrored, false};
        if (mism || badidx || missing) any_bad = 1;
        if (report) report(ctx, &s);
        /* its counted table: solved again from the tables loaded and
         * compared byte for byte */
        bool exact;
        int top = ix->counted ? ix->counted(m, &exact) : 0;
        uint8_t *fresh = NULL;
        if (top > 0 && b->cvals[key]) {
            if (solve_counted(b, m, top, NULL, &fresh, err) != 0) {
                builder_free(b);
                return -1;
            }
            EgtbVerifyStats cs = {m, 0, 0, 0, 0, true};
            for (uint64_t k = 0; k < n; k++) {
                Position pos;
                if (!ix->decode(m, k, &pos)) continue;
                cs.checked++;
                cs.mismatches += fresh[k] != b->cvals[key][k];
            }
            free(fresh);
            if (cs.mismatches) any_bad = 1;
            if (report) report(ctx, &cs);
        }
    }
    builder_free(b);
    return any_bad;
}
