/* book.c — the move book's table, lookup and choice; see book.h. The file
 * format is read and written by book_file.c. */
#include "book/book.h"

#include <stdlib.h>
#include <string.h>

#include "util/rng.h"

void book_init(MoveBook *b, const Game *game)
{
    memset(b, 0, sizeof *b);
    b->game = game;
}

void book_free(MoveBook *b)
{
    for (int64_t i = 0; i < b->cap; i++) {
        free(b->slots[i].fen);
        free(b->slots[i].moves);
    }
    free(b->slots);
    const Game *g = b->game;
    book_init(b, g);
}

/* The slot of (key, fen): its entry, or the empty slot where it goes. */
static BookEntry *slot_of(const MoveBook *b, uint64_t key, const char *fen)
{
    uint64_t mask = (uint64_t)b->cap - 1;
    for (uint64_t i = key & mask;; i = (i + 1) & mask) {
        BookEntry *e = &b->slots[i];
        if (!e->fen || (e->key == key && strcmp(e->fen, fen) == 0)) return e;
    }
}

static int grow(MoveBook *b, char err[ERR_MAX])
{
    if (b->len >= BOOK_ENTRIES_MAX) return err_set(err, "the book is full (%d positions)", BOOK_ENTRIES_MAX);
    int64_t cap = b->cap ? b->cap * 2 : 1024;
    BookEntry *n = calloc((size_t)cap, sizeof *n);
    if (!n) return err_set(err, "out of memory");
    MoveBook nb = *b;
    nb.slots = n;
    nb.cap = cap;
    for (int64_t i = 0; i < b->cap; i++)
        if (b->slots[i].fen) *slot_of(&nb, b->slots[i].key, b->slots[i].fen) = b->slots[i];
    free(b->slots);
    *b = nb;
    return 0;
}

static bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->kind == b->kind &&
           a->promo == b->promo;
}

static int entry_add(BookEntry *e, const Move *m, int64_t games, double score, char err[ERR_MAX])
{
    for (int i = 0; i < e->len; i++) {
        BookMove *bm = &e->moves[i];
        if (!same_move(&bm->move, m)) continue;
        double total = (double)bm->games + (double)games;
        bm->score = (bm->score * (double)bm->games + score * (double)games) / total;
        bm->games += games;
        return 0;
    }
    if (e->len == e->cap) {
        int cap = e->cap ? e->cap * 2 : 4;
        BookMove *n = realloc(e->moves, sizeof *n * (size_t)cap);
        if (!n) return err_set(err, "out of memory");
        e->moves = n;
        e->cap = cap;
    }
    e->moves[e->len++] = (BookMove){.move = *m, .games = games, .score = score};
    return 0;
}

int book_add(MoveBook *b, const Position *pos, const Move *m, int64_t games, double score, char err[ERR_MAX])
{
    if ((b->len + 1) * 4 > b->cap * 3 && grow(b, err) != 0) return -1;
    char fen[FEN_MAX];
    b->game->pos_to_fen(pos, fen);
    uint64_t key = b->game->hash(pos);
    BookEntry *e = slot_of(b, key, fen);
    if (!e->fen) {
        e->fen = strdup(fen);
        if (!e->fen) return err_set(err, "out of memory");
        e->key = key;
        b->len++;
    }
    return entry_add(e, m, games, score, err);
}

const BookEntry *book_find(const MoveBook *b, const Position *pos)
{
    if (!b || !b->len) return NULL;
    char fen[FEN_MAX];
    b->game->pos_to_fen(pos, fen);
    const BookEntry *e = slot_of(b, b->game->hash(pos), fen);
    return e->fen ? e : NULL;
}

/* Sorting context: qsort has none, so the move texts are made first. */
typedef struct SortItem {
    BookMove m;
    char text[MOVE_STR_MAX];
} SortItem;

static int cmp_item(const void *pa, const void *pb)
{
    const SortItem *a = pa, *b = pb;
    if (a->m.games != b->m.games) return a->m.games > b->m.games ? -1 : 1;
    if (a->m.score != b->m.score) return a->m.score > b->m.score ? -1 : 1;
    return strcmp(a->text, b->text);
}

void book_entry_sort(const MoveBook *b, BookEntry *e)
{
    Position pos;
    char err[ERR_MAX];
    SortItem *items = malloc(sizeof *items * (size_t)(e->len ? e->len : 1));
    if (!items || b->game->pos_from_fen(&pos, e->fen, err) != 0) {
        free(items);
        return;
    }
    for (int i = 0; i < e->len; i++) {
        items[i].m = e->moves[i];
        b->game->move_to_str(&pos, &e->moves[i].move, items[i].text);
    }
    qsort(items, (size_t)e->len, sizeof *items, cmp_item);
    for (int i = 0; i < e->len; i++) e->moves[i] = items[i].m;
    free(items);
}

static bool is_legal(const Game *g, const Position *pos, const Move *m)
{
    MoveList *list = malloc(sizeof *list);
    if (!list) return false;
    g->gen_moves(pos, list, GEN_DISTINCT);
    bool ok = false;
    for (int i = 0; i < list->len && !ok; i++) ok = same_move(&list->moves[i], m);
    free(list);
    return ok;
}

bool book_pick(const MoveBook *b, const Position *pos, uint64_t seed, Move *out, const BookMove **chosen)
{
    const BookEntry *e = book_find(b, pos);
    if (!e || e->len == 0) return false;
    int64_t total = 0;
    for (int i = 0; i < e->len; i++) total += e->moves[i].games;
    if (total <= 0) return false;
    uint64_t state = rng_derive(seed, e->key);
    int64_t r = (int64_t)rng_below(&state, (uint64_t)total);
    int pick = 0;
    while (pick < e->len - 1 && r >= e->moves[pick].games) r -= e->moves[pick++].games;
    const BookMove *bm = &e->moves[pick];
    if (!is_legal(b->game, pos, &bm->move)) return false; /* checked at load; a guard for hand-made tables */
    *out = bm->move;
    if (chosen) *chosen = bm;
    return true;
}
