/* perft_table.h — read a published perft table of shared/data/perft/ (see
 * its README) and check a game's perft against it. Shared by the fast and
 * the slow perft tests; include after <cmocka.h> and "engine/game.h".
 *
 * Line format: `<FEN> ;<convention> ;D1 n ;D2 n ...`; '#' starts a comment.
 * Conventions: D (distinct moves, GEN_DISTINCT), P (landing paths,
 * GEN_PATHS); K (ordered capture sequences) has no generator of ours and is
 * skipped.
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
        GenMode mode = GEN_DISTINCT;
        if (strcmp(fields[1], "D") == 0)
            mode = GEN_DISTINCT;
        else if (strcmp(fields[1], "P") == 0)
            mode = GEN_PATHS;
        else if (strcmp(fields[1], "K") == 0)
            continue;
        else {
            print_error("%s:%d: unknown convention '%s'\n", path, lineno, fields[1]);
            fail();
        }
        Position pos;
        char err[ERR_MAX];
        if (game->pos_from_fen(&pos, fields[0], err) != 0) {
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

#endif
