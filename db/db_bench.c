/* db_bench.c — the store benchmark: synthetic games into a scratch
 * database (contracts in db.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, stat, even under strict -std=c11 */

#include "db/db.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "db/db_internal.h"
#include "util/clock.h"

/* ---- benchmark ------------------------------------------------------------ */

int db_bench_insert(const char *path, int positions, double *positions_per_s, char err[ERR_MAX])
{
    enum { PLIES = 80 };
    *positions_per_s = 0;
    if (positions <= 0) {
        set_err(err, "database bench: positions must be positive, not %d", positions);
        return -1;
    }
    struct stat sb;
    if (stat(path, &sb) == 0) {
        set_err(err, "%s: database bench: the file exists; give a new path", path);
        return -1;
    }
    Db *db = NULL;
    if (db_open(path, true, &db, err) != 0) {
        dbi_remove_files(path); /* it did not exist: whatever is there is ours */
        return -1;
    }
    int out = -1;
    int64_t run_id = 0;
    DbPosition pos[PLIES];
    char fen_local[PLIES][96];
    /* Stored under the default game's name: the rows are only written,
     * never read as positions of a game. */
    if (db_run_create(db, "selfplay", GAME_DEFAULT_NAME, 1, "bench", NULL, &run_id, err) != 0)
        goto done;
    /* Synthetic draughts FENs of realistic length (~70 bytes). */
    for (int i = 0; i < PLIES; i++) {
        snprintf(fen_local[i], sizeof fen_local[i],
                 "%c:W%d,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,%d,12",
                 i % 2 ? 'B' : 'W', 13 + i % 8, 11 + i % 9);
        pos[i] = (DbPosition){.ply = i,
                              .fen = fen_local[i],
                              .stm = i % 2,
                              .score = i * 7 - 200,
                              .has_score = i % 5 != 0,
                              .result = 0.5,
                              .quiet = i % 3 != 0};
    }
    double t0 = clock_now_s();
    int stored = 0;
    for (int64_t game = 0; stored < positions; game++) {
        int len = positions - stored < PLIES ? positions - stored : PLIES;
        DbGame g = {.run_id = run_id,
                    .game_index = game,
                    .game = GAME_DEFAULT_NAME,
                    .opening = "bench",
                    .seed = (uint64_t)game,
                    .result = "1/2-1/2",
                    .reason = "move-cap",
                    .plies = len,
                    .movetext = "1. cd4 fe5 *",
                    .positions = pos,
                    .positions_len = len};
        if (db_begin(db, err) != 0 || db_game_insert(db, &g, NULL, err) != 0
            || db_commit(db, err) != 0) {
            db_rollback(db);
            goto done;
        }
        stored += len;
    }
    double s = clock_now_s() - t0;
    *positions_per_s = s > 0 ? positions / s : 0;
    out = 0;
done:
    db_close(db);
    dbi_remove_files(path);
    return out;
}
