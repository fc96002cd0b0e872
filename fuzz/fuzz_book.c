/* fuzz_book.c — the move book reader (book_load, book/book.h) from a
 * scratch file, any game the header names. Contract checked: a rejected
 * file has a message; an accepted one is written (book_save) and read back
 * with the same positions and moves, and writing that again gives the same
 * bytes (the scores are written to four decimals, so the first write may
 * round them; from then on the text is stable). */
#include "fuzz_common.h"

#include "book/book.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    game_init_all();
    return 0;
}

/* The whole file at path (caller frees), its length in *len. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 4096 > cap && !(buf = realloc(buf, cap = n + 65536))) abort();
        got = fread(buf + n, 1, 4096, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

static int64_t count_moves(const MoveBook *b)
{
    int64_t n = 0;
    for (int64_t i = 0; i < b->cap; i++)
        if (b->slots[i].fen) n += b->slots[i].len;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_temp(data, size);
    MoveBook a, b;
    char err[ERR_MAX] = "";
    if (book_load(&a, NULL, path, err) != 0) {
        fuzz_check_err("book_load", err);
        return 0;
    }
    char out[600];
    snprintf(out, sizeof out, "%s.book", path);
    if (book_save(&a, out, &(AtomicOptions){.replace = true}, "fuzz", err) != 0)
        fuzz_fail("writing an accepted book: %s", err);
    if (book_load(&b, a.game, out, err) != 0) fuzz_fail("a written book rejected: %s", err);
    if (b.len != a.len || count_moves(&b) != count_moves(&a)) fuzz_fail("positions or moves changed in a round trip");
    size_t len1, len2;
    char *first = slurp(out, &len1);
    if (book_save(&b, out, &(AtomicOptions){.replace = true}, "fuzz", err) != 0)
        fuzz_fail("writing the book again: %s", err);
    char *second = slurp(out, &len2);
    if (len1 != len2 || memcmp(first, second, len1) != 0) fuzz_fail("a book read back does not write the same text");
    free(first);
    free(second);
    unlink(out);
    book_free(&a);
    book_free(&b);
    return 0;
}
