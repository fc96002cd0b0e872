/* perft_table.h — read a published perft table of data/perft/ (see
 * its README) and check a game's perft against it. Shared by the fast and
 * the slow perft tests; include after <cmocka.h> and "engine/game.h".
 *
 * Line format: `<FEN> ;<convention> ;D1 n ;D2 n ...`; '#' starts a comment.
 * Conventions: D (distinct moves, GEN_DISTINCT), P (landing paths,
 * GEN_PATHS), K (ordered capture sequences, GEN_SEQUENCES: checked for the
 * games whose perft counts it, Game.perft_sequences, else skipped).
 * A table of several games (other_variants.txt) starts each line with the
 * game's name, and `startpos` may stand for its start position:
 * `brazilian startpos ;D ;D1 7 ...`; perft_table_check reads only the lines
 * of its game. perft_table_read hands back the raw rows, for tests that hold
 * one convention's count against another's figures.
 */
#ifndef DAMA_TEST_PERFT_TABLE_H
#define DAMA_TEST_PERFT_TABLE_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Check every figure of `path` for depths in [min_depth, max_depth] against
 * game->perft. Returns the number of figures checked; fails on a mismatch or
 * a malformed line. */
static int perft_table_check(const Game *game, const char *path, int min_depth, int max_depth)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        print_error("cannot open %s\n", path);
        fail();
    }
    char line[4096];
    int checked = 0, lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[strspn(line, " \t")] == '\0') continue;
        char *fields[64];
        int n = 0;
        for (char *f = strtok(line, ";"); f && n < 64; f = strtok(NULL, ";")) {
            while (*f == ' ') f++;
            size_t len = strlen(f);
            while (len && f[len - 1] == ' ') f[--len] = '\0';
            fields[n++] = f;
        }
        if (n < 3) {
            print_error("%s:%d: expected FEN ;convention ;Dn count...\n", path, lineno);
            fail();
        }
        /* "NAME FEN" or "NAME startpos": a line of the game NAME */
        const char *fen = fields[0];
        size_t word = strspn(fen, "abcdefghijklmnopqrstuvwxyz");
        if (word > 1 && fen[word] == ' ') {
            if (strncmp(fen, game->name, word) != 0 || game->name[word] != '\0') continue;
            fen += word + 1;
            if (strcmp(fen, "startpos") == 0) fen = game->start_fen;
        }
        GenMode mode = GEN_DISTINCT;
        if (strcmp(fields[1], "D") == 0)
            mode = GEN_DISTINCT;
        else if (strcmp(fields[1], "P") == 0)
            mode = GEN_PATHS;
        else if (strcmp(fields[1], "K") == 0) {
            if (!game->perft_sequences) continue;
            mode = GEN_SEQUENCES;
        } else {
            print_error("%s:%d: unknown convention '%s'\n", path, lineno, fields[1]);
            fail();
        }
        Position pos;
        char err[ERR_MAX];
        if (game->pos_from_fen(&pos, fen, err) != 0) {
            print_error("%s:%d: %s\n", path, lineno, err);
            fail();
        }
        for (int i = 2; i < n; i++) {
            int depth;
            unsigned long long want;
            if (sscanf(fields[i], "D%d %llu", &depth, &want) != 2) {
                print_error("%s:%d: bad field '%s'\n", path, lineno, fields[i]);
                fail();
            }
            if (depth < min_depth || depth > max_depth) continue;
            uint64_t got = game->perft(&pos, depth, mode);
            if (got != want) {
                print_error("%s:%d: perft %d (%s) = %" PRIu64 ", published %llu\n", path, lineno, depth, fields[1], got,
                            want);
                fail();
            }
            checked++;
        }
    }
    fclose(in);
    return checked;
}

/* One line of a perft table: its position, convention and figures. */
enum { PERFT_ROW_DEPTHS_MAX = 32 };
typedef struct PerftRow {
    char fen[FEN_MAX];
    char convention[8];                                /* "D", "P" or "K" */
    int len;                                           /* figures on the line */
    int depth[PERFT_ROW_DEPTHS_MAX];                   /* plies */
    unsigned long long count[PERFT_ROW_DEPTHS_MAX];    /* published leaf count */
} PerftRow;

/* Read every line of `path` into rows (at most max). Returns the number of
 * rows; fails on a malformed line. For tests that compare conventions (the D
 * count against a published P figure) rather than check one convention. */
static inline int perft_table_read(const char *path, PerftRow *rows, int max)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        print_error("cannot open %s\n", path);
        fail();
    }
    char line[4096];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, in) && n < max) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[strspn(line, " \t")] == '\0') continue;
        PerftRow *row = &rows[n];
        memset(row, 0, sizeof *row);
        int field = 0;
        for (char *f = strtok(line, ";"); f; f = strtok(NULL, ";"), field++) {
            while (*f == ' ') f++;
            size_t len = strlen(f);
            while (len && f[len - 1] == ' ') f[--len] = '\0';
            if (field == 0) {
                snprintf(row->fen, sizeof row->fen, "%s", f);
            } else if (field == 1) {
                snprintf(row->convention, sizeof row->convention, "%s", f);
            } else if (row->len == PERFT_ROW_DEPTHS_MAX ||
                       sscanf(f, "D%d %llu", &row->depth[row->len], &row->count[row->len]) != 2) {
                print_error("%s:%d: bad field '%s'\n", path, lineno, f);
                fail();
            } else {
                row->len++;
            }
        }
        if (field < 3) {
            print_error("%s:%d: expected FEN ;convention ;Dn count...\n", path, lineno);
            fail();
        }
        n++;
    }
    fclose(in);
    return n;
}

#endif
