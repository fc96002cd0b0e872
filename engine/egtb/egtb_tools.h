/* egtb_tools.h — the work of `dama egtb build|verify|probe|bench` on a
 * directory of tables (egtb.h): build with totals, verify with a sample
 * checked against a deep search, a position's value and its moves' values,
 * probe cost. Nothing here prints: per-material results, disagreements and
 * totals go to the caller. */
#ifndef DAMA_EGTB_TOOLS_H
#define DAMA_EGTB_TOOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/egtb/egtb.h"

enum { EGTB_TEXT_MAX = 64 }; /* a value as text ("win in 21 plies") with its NUL */

/* A value byte as text: "draw", "win in N plies", "loss in N plies" ("win in
 * 1 ply": singular for 1). */
void egtb_value_text(uint8_t v, char out[EGTB_TEXT_MAX]);

typedef struct EgtbBuildTotals {
    uint64_t positions;  /* every material's indices */
    uint64_t file_bytes;
    double seconds;      /* wall time of the whole build */
    int threads;         /* OpenMP threads it could use */
} EgtbBuildTotals;

/* The lock file of a table directory: one build a directory at a time. */
#define EGTB_BUILD_LOCK ".build-lock"
enum { EGTB_BUILD_BUSY = 2 }; /* egtb_build_dir: another process builds into the directory */

/* egtb_build into dir, made first with its parents if missing (as mkdir
 * -p; one that cannot be made is egtb_build's error), on `threads` OpenMP
 * threads (0: OpenMP's default; this sets the process's default), holding
 * an exclusive flock(2) on dir/EGTB_BUILD_LOCK for the whole build (the
 * kernel drops it when the process ends, killed or not; the file stays).
 * Each table is written to PATH.tmp and renamed, so a reader never sees a
 * half-written one. o->report still gets every material; *tot their sums.
 * Returns as egtb_build: 0, 1 stopped (o->stop), -1 with err; or
 * EGTB_BUILD_BUSY with err naming the process (pid, host, since) that
 * builds into dir now. Main thread only. */
int egtb_build_dir(const Game *game, const char *dir, int threads, const EgtbBuildOptions *o, EgtbBuildTotals *tot,
                   char err[ERR_MAX]);

/* A sampled position the search and the database disagree on. */
typedef void (*EgtbDisagreeFn)(void *ctx, const char fen[FEN_MAX], uint8_t value, bool search_win, int plies);

typedef struct EgtbCheckOptions {
    const EgtbMaterial *only;  /* that table (and what it turns into) only; NULL: every table */
    bool symmetry;             /* egtb_verify_only's symmetry */
    int threads;               /* OpenMP threads (0: OpenMP's default; sets the process's default) */
    int sample;                /* positions compared with a search (0: none) */
    int sample_depth;          /* plies */
    uint64_t seed;             /* of the sample */
    EgtbVerifyFn report;       /* every material's consistency (may be NULL) */
    /* after the consistency pass: mismatch (some value disagrees with its
     * children), its wall and CPU seconds (may be NULL) */
    void (*consistent)(void *ctx, bool mismatch, double wall_s, double cpu_s);
    EgtbDisagreeFn disagree;   /* may be NULL */
    void *ctx;
} EgtbCheckOptions;

typedef struct EgtbSampleStats {
    int positions;  /* sampled (fewer than asked when the others drawn were decided by a rule) */
    int proven;     /* results proven by the search */
    int agree, disagree, open;
} EgtbSampleStats;

/* Verify the tables of dir: every stored value against its children
 * (egtb_verify_only), then o->sample random positions (of o->only's table,
 * else of all) against a search of o->sample_depth plies: a search that
 * proves a result must agree with the database (a search win is a win
 * whatever its draw rules, which only ever add draws; the database's
 * distance is the shortest). Returns 0 all agree, 1 a mismatch or a
 * disagreement, -1 with err (I/O, a missing table, out of memory). Main
 * thread only. */
int egtb_check(const Game *game, const char *dir, const EgtbCheckOptions *o, EgtbSampleStats *st, char err[ERR_MAX]);

/* One move of a probed position and what the opponent faces after it. */
typedef struct EgtbMoveValue {
    char move[MOVE_STR_MAX];
    char what[EGTB_TEXT_MAX];  /* a value's text, "game over (REASON)" or "ends the game or leaves the database" */
} EgtbMoveValue;

typedef struct EgtbProbeReport {
    bool found;             /* the position is in the database */
    uint8_t value;
    EgtbVerdict verdict;    /* with the position's counters */
    int moves_len;
    EgtbMoveValue *moves;   /* every distinct move (owned; egtb_probe_report_free) */
} EgtbProbeReport;

/* The database value of position fen (its verdict with the counters) and
 * of each of its moves. Returns 0 (rep->found false: not in the database,
 * err saying why: too many pieces, or which material's table is missing
 * from dir, its file and the command that builds it), or -1 with err (a
 * bad position, no tables, out of memory). */
int egtb_probe_report(const Game *game, const char *dir, const char *fen, EgtbProbeReport *rep, char err[ERR_MAX]);
/* Free rep->moves (a report without moves, or freed already: a no-op). */
void egtb_probe_report_free(EgtbProbeReport *rep);

typedef struct EgtbBenchResult {
    double uncached_ns, cached_ns;         /* CPU time of this thread per probe */
    double uncached_wall_ns, cached_wall_ns;
    int materials;                         /* of the largest materials present, positions drawn from (<= 8) */
    char largest[32];                      /* the largest material's name */
    uint64_t checksum;                     /* of the values probed (16 bits) */
} EgtbBenchResult;

/* Probe cost: `probes` probes of the same 64 positions through a cache,
 * probes / 10 + 1 of 4,096 random positions of the largest materials
 * without one (a block decompressed each time); positions from seed.
 * Returns 0, or -1 with err (a table a probe found damaged among them). */
int egtb_bench(const Game *game, const char *dir, int64_t probes, uint64_t seed, EgtbBenchResult *res,
               char err[ERR_MAX]);

#endif
