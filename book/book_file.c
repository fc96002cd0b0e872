/* book_file.c — reading and writing move book files (format: book.h,
 * docs/book.md). */
#include "book/book.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/atomic_file.h"
#include "util/file_read.h"
#include "util/num.h"
#include "util/text.h"

enum { HEADER_WORDS = 4 };

static int line_error(char err[ERR_MAX], const char *path, long lineno, const char *what)
{
    return err_set(err, "%.120s:%ld: %s", path, lineno, what);
}

/* "# dama book GAME VERSION": the game into *game (checked against expect). */
static int read_header(const char *line, const Game *expect, const Game **game, char what[ERR_MAX])
{
    /* exactly as book_save writes it: one space each, the version in plain digits (no sign, no leading 0) */
    static const char PREFIX[] = "# dama book ";
    bool prefixed = strncmp(line, PREFIX, sizeof PREFIX - 1) == 0; /* then the name starts past it, not before */
    const char *nm = prefixed ? line + sizeof PREFIX - 1 : "", *sp = strchr(nm, ' ');
    const char *ver = sp ? sp + 1 : "";
    size_t digits = strspn(ver, "0123456789");
    char name[40] = "";
    if (!prefixed || !sp || sp == nm || (size_t)(sp - nm) >= sizeof name || digits == 0 || digits > 9 ||
        ver[digits] != '\0' || (ver[0] == '0' && digits > 1))
        return err_set(what, "not a dama book: the first line must be '# dama book GAME %d'", BOOK_FORMAT_VERSION);
    memcpy(name, nm, (size_t)(sp - nm));
    int version = atoi(ver); /* at most 9 digits: fits */
    if (version != BOOK_FORMAT_VERSION)
        return err_set(what, "book format version %d: this dama reads version %d", version, BOOK_FORMAT_VERSION);
    *game = game_find(name);
    if (!*game) return err_set(what, "unknown game '%s'", name);
    if (expect && *game != expect) return err_set(what, "a book of %s, not of %s", (*game)->name, expect->name);
    return 0;
}

/* Split line at tabs into exactly n fields. */
static int split(char *line, char **fields, int n)
{
    int k = 0;
    fields[k++] = line;
    for (char *p = line; *p; p++) {
        if (*p != '\t') continue;
        if (k == n) return k + 1;
        *p = '\0';
        fields[k++] = p + 1;
    }
    return k;
}

/* One record line into the book; what names the problem. */
static int read_record(MoveBook *b, char *line, char what[ERR_MAX])
{
    char *f[4];
    int n = split(line, f, 4);
    if (n != 4) return err_set(what, "%d fields: a line is FEN<TAB>MOVE<TAB>GAMES<TAB>SCORE", n);
    const Game *g = b->game;
    Position pos;
    char perr[ERR_MAX];
    if (g->pos_from_fen(&pos, f[0], perr) != 0) return err_set(what, "position: %s", perr);
    Move m;
    if (g->move_from_str(&pos, f[1], &m, perr) != 0) return err_set(what, "move: %s", perr);
    int64_t games;
    double score;
    NumStatus st = num_parse_int(f[2], 1, BOOK_GAMES_MAX, &games);
    if (st != NUM_OK) {
        num_format_error(what, ERR_MAX, "games", f[2], strlen(f[2]), st, 1, (double)BOOK_GAMES_MAX, 0);
        return -1;
    }
    st = num_parse_real(f[3], 0.0, 1.0, &score);
    if (st != NUM_OK) {
        num_format_error(what, ERR_MAX, "score", f[3], strlen(f[3]), st, 0, 1, 1);
        return -1;
    }
    const BookEntry *e = book_find(b, &pos);
    for (int i = 0; e && i < e->len; i++)
        if (e->moves[i].move.from == m.from && e->moves[i].move.to == m.to && e->moves[i].move.captured == m.captured &&
            e->moves[i].move.kind == m.kind && e->moves[i].move.promo == m.promo)
            return err_set(what, "move '%.60s' of this position is given twice", f[1]);
    return book_add(b, &pos, &m, games, score, what);
}

static FILE *open_file(const char *path, char err[ERR_MAX])
{
    return file_open_read_as(path, "book", err);
}

/* One raw line (end of line cut off) at lineno: the header, a comment or a record. */
static int read_line(MoveBook *b, const Game *expect, char *line, size_t len, long lineno, char what[ERR_MAX])
{
    char bad[TEXT_WHAT_MAX];
    if (text_line_check(line, len, bad)) return err_set(what, "%s", bad);
    if (lineno == 1) {
        const Game *g = NULL;
        if (read_header(line, expect, &g, what) != 0) return -1;
        book_init(b, g);
        return 0;
    }
    if (line[0] == '#' || !line[strspn(line, " \t")]) return 0;
    return read_record(b, line, what);
}

int book_load(MoveBook *b, const Game *expect, const char *path, char err[ERR_MAX])
{
    book_init(b, expect);
    FILE *f = open_file(path, err);
    if (!f) return -1;
    char *line = NULL, what[ERR_MAX];
    size_t cap = 0, len;
    long lineno = 0;
    int rc = 0, got;
    while (rc == 0 && (got = text_read_line(f, &line, &cap, &len)) != 0) {
        lineno++;
        if (got < 0) { /* book_save ends every line: the file was cut short */
            rc = line_error(err, path, lineno, TEXT_LINE_CUT_MSG);
            break;
        }
        if (read_line(b, expect, line, len, lineno, what) != 0) rc = line_error(err, path, lineno, what);
    }
    if (rc == 0 && ferror(f)) rc = err_set(err, "reading book '%.200s': %s", path, strerror(errno));
    if (rc == 0 && lineno == 0) rc = line_error(err, path, 1, "empty file: not a dama book");
    free(line);
    fclose(f);
    if (rc != 0) book_free(b);
    return rc;
}

/* ---- writing ------------------------------------------------------------- */

static int cmp_fen(const void *pa, const void *pb)
{
    const BookEntry *a = *(BookEntry *const *)pa, *b = *(BookEntry *const *)pb;
    return strcmp(a->fen, b->fen);
}

static int write_entry(const MoveBook *b, FILE *out, BookEntry *e)
{
    Position pos;
    char perr[ERR_MAX], text[MOVE_STR_MAX];
    if (b->game->pos_from_fen(&pos, e->fen, perr) != 0) return -1;
    book_entry_sort(b, e);
    for (int i = 0; i < e->len; i++) {
        b->game->move_to_str(&pos, &e->moves[i].move, text);
        if (fprintf(out, "%s\t%s\t%" PRId64 "\t%.4f\n", e->fen, text, e->moves[i].games, e->moves[i].score) < 0)
            return -1;
    }
    return 0;
}

static int write_all(const MoveBook *b, FILE *out, const char *comment)
{
    if (fprintf(out, "# dama book %s %d\n", b->game->name, BOOK_FORMAT_VERSION) < 0) return -1;
    for (const char *c = comment; c && *c;) {
        size_t n = strcspn(c, "\n");
        if (fprintf(out, "# %.*s\n", (int)n, c) < 0) return -1;
        c += n + (c[n] == '\n');
    }
    BookEntry **order = malloc(sizeof *order * (size_t)(b->len ? b->len : 1));
    if (!order) return -1;
    int64_t k = 0;
    for (int64_t i = 0; i < b->cap; i++)
        if (b->slots[i].fen && b->slots[i].len) order[k++] = &b->slots[i];
    qsort(order, (size_t)k, sizeof *order, cmp_fen);
    int rc = 0;
    for (int64_t i = 0; i < k && rc == 0; i++) rc = write_entry(b, out, order[i]);
    free(order);
    return rc;
}

int book_save(const MoveBook *b, const char *path, const AtomicOptions *opts, const char *comment, char err[ERR_MAX])
{
    AtomicFile af = {0};
    if (atomic_file_open(&af, path, opts, err) != 0) return -1;
    if (write_all(b, af.f, comment) != 0) {
        int e = errno;
        atomic_file_abort(&af);
        return err_set(err, "writing book '%.200s': %s", path, e ? strerror(e) : "out of memory");
    }
    return atomic_file_commit(&af, err);
}
