/* egtb.h — endgame databases that dama builds itself: for every position
 * with few pieces, the result with the side to move and the distance to
 * the end of the game in plies (DTW), by retrograde analysis.
 *
 * Game-independent: a game takes part through an EgtbIndexer (material
 * signature, a bijection between the positions of one material and
 * 0..size-1, and un-moves of the quiet moves that keep the material); the
 * rules themselves (moves, captures, promotion, end-of-game rules) are the
 * game's own Game table functions, so the database follows the rules
 * exactly as dama plays them. A game's indexer is its Game.egtb; the
 * draughts boards' are in engine/games/draughts/draughts_egtb.c. Design, file format and how the Russian
 * move-count draw rules combine with the database: docs/egtb.md.
 *
 * Values: one byte per position. 0 = draw; v = d + 1 (d = 0..254) = the
 * game ends d plies from here with best play (the winner shortest, the
 * loser longest); d odd: the side to move wins, d even: it loses (d = 0:
 * no legal move now, or lost by a game rule). Counters (Russian D4-D8,
 * threefold repetition) are not part of a database position.
 *
 * Thread safety: an opened Egtb may be probed from any number of threads,
 * each with its own EgtbCache (or none); the one thing a probe changes, the
 * mapping of a table on its first probe, is made under a lock.
 */
#ifndef DAMA_EGTB_H
#define DAMA_EGTB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

enum {
    EGTB_VERSION = 1,
    EGTB_PIECES_MAX = 8,    /* most pieces a material signature may hold */
    EGTB_BLOCK = 4096,      /* positions (bytes) per compressed block */
    EGTB_DIST_MAX = 254     /* largest storable distance in plies */
};

/* A material signature: men and kings of each colour. */
typedef struct EgtbMaterial {
    uint8_t men[2];   /* [Color] */
    uint8_t kings[2]; /* [Color] */
} EgtbMaterial;

/* A game's indexing of database positions. Every function is pure and
 * thread-safe; positions passed in are the game's own (Game.pos_size). */
typedef struct EgtbIndexer {
    const Game *game;
    /* Positions (both sides to move) of material m, including unused
     * indices (decode returns false for those). 0 if m is not indexable. */
    uint64_t (*size)(EgtbMaterial m);
    /* Material of pos. */
    EgtbMaterial (*material)(const Position *pos);
    /* Index of pos within its material m; false if pos has no index (e.g.
     * a man on a square no legal game can put it on). */
    bool (*index)(const Position *pos, EgtbMaterial m, uint64_t *idx);
    /* The position of index idx of material m, counters zero; false for an
     * unused index. */
    bool (*decode)(EgtbMaterial m, uint64_t idx, Position *pos);
    /* Every position Q, side to move the opponent of pos's, from which a
     * quiet, material-keeping move (step or slide, no capture, no
     * promotion) of the game's geometry leads to pos; Q's legality (no
     * compulsory capture, no game rule ended it) is left to the caller.
     * Q has zeroed counters and no Zobrist key (0: the builder only
     * indexes Q and tests its legality; compute it before searching Q).
     * Calls fn(ctx, Q) once per such move; returns the number of calls. */
    int (*unmoves)(const Position *pos, void (*fn)(void *ctx, const Position *q), void *ctx);
    /* Plies the current material may last before a move-count draw rule
     * ends the game (Russian D4-D8 with the position's counters); INT32_MAX
     * where no such rule applies. May be NULL (no such rules). */
    int (*rule_plies_left)(const Position *pos);
    /* A symmetry of the board under which the game's rules and every
     * database value are invariant, mapping a position of material m to
     * one of the same material (Turkish: the left-right mirror, file a <->
     * h; rules/turkish.md: men step forward, left and right, kings move
     * along ranks and files, nothing depends on a file), or NULL (Russian:
     * the left-right mirror maps dark squares to light ones). Of each pair
     * {pos, image} one is the representative (a fixed rule of the game's,
     * cheaper than indexing both). Returns 0 when pos is the representative
     * (*self: pos is its own image), 1 when the image is. *image gets the
     * image either way (side to move kept, counters zero, no Zobrist key). The builder
     * and verify use it to solve only representatives and copy their
     * values to the images; tables stay complete, so probing does not use
     * it. */
    int (*symmetry)(const Position *pos, Position *image, bool *self);
    /* Materials whose move-count draws depend on where the pieces stand,
     * for which "d < rule_plies_left" is not exact (Russian D7: three
     * pieces against a lone king draw as soon as the king reaches the main
     * road with 10 plies counted, which a fastest win ignoring the count
     * may allow). counted(m, &exact) returns the count (plies) from which
     * the rules draw every position of m as set_count sets it (Russian:
     * 30; at most 127), and the builder then also solves m with the count
     * as part of the position: a counted table, DIR/GAME-MATERIAL.egtc
     * (docs/egtb.md). 0 for every other material. *exact: one count is
     * the whole state (every move advances the game's counters alike:
     * kings only), so the table's draws are draws; else set_count sets
     * the counters to the least favourable state of that count for the
     * side that wins (Russian with men: reversible = material_plies, as
     * if no man had moved), so a stored win or loss is sure and a stored
     * draw may be either. NULL: none. count and set_count are then
     * required. */
    int (*counted)(EgtbMaterial m, bool *exact);
    /* The count of pos (a counted material's position), and pos with its
     * counters set to plies. */
    int (*count)(const Position *pos);
    void (*set_count)(Position *pos, int plies);
} EgtbIndexer;

/* The indexer of `game` (its Game.egtb), or NULL if it has none. */
static inline const EgtbIndexer *egtb_indexer(const Game *game) { return game ? game->egtb : NULL; }

static inline int egtb_material_pieces(EgtbMaterial m) { return m.men[0] + m.men[1] + m.kings[0] + m.kings[1]; }
/* Colours swapped (the material of a position's mirror, Game.pos_mirror). */
static inline EgtbMaterial egtb_material_mirror(EgtbMaterial m)
{
    return (EgtbMaterial){{m.men[1], m.men[0]}, {m.kings[1], m.kings[0]}};
}
/* Only canonical materials are stored: White's side is the stronger or
 * equal one by (pieces, kings); others are probed through the mirror. */
bool egtb_material_canonical(EgtbMaterial m);
/* Which side holds the larger material, by pieces, then kings (the order
 * of egtb_material_canonical): 1 White, -1 Black, 0 equal. */
int egtb_material_compare(EgtbMaterial m);
/* "2k1m-1k" style text (White first): out needs 32 bytes. */
void egtb_material_name(EgtbMaterial m, char out[32]);
/* File name of a material's table in a directory: DIR/GAME-NAME.egtb;
 * of its counted table (EgtbIndexer.counted): DIR/GAME-NAME.egtc. */
void egtb_file_path(const char *dir, const Game *game, EgtbMaterial m, char *out, size_t size);
void egtb_counted_path(const char *dir, const Game *game, EgtbMaterial m, char *out, size_t size);

/* Every canonical material with 2..pieces pieces, both sides at least one
 * piece, in build order (fewer pieces first, then fewer men: a capture
 * removes a piece, a promotion a man, so children come first). Writes up
 * to cap entries to out and returns how many there are. */
int egtb_materials(int pieces, EgtbMaterial *out, int cap);

/* Value byte helpers. */
static inline bool egtb_is_draw(uint8_t v) { return v == 0; }
static inline int egtb_dist(uint8_t v) { return v - 1; }
static inline bool egtb_is_win(uint8_t v) { return v && ((v - 1) & 1); }
static inline bool egtb_is_loss(uint8_t v) { return v && !((v - 1) & 1); }

/* ------------------------------------------------------------------ */
/* Build and verify (OpenMP over the index)                           */

typedef struct EgtbBuildStats {
    EgtbMaterial material;
    uint64_t positions; /* indices (both sides to move) */
    uint64_t wins, draws, losses; /* side to move's view, used indices only */
    int max_dist;       /* longest distance, plies */
    double seconds;     /* build time, wall (0 if loaded from an existing file) */
    double cpu_seconds; /* build time, CPU of every thread of the process (0 if loaded) */
    uint64_t file_bytes;
    bool reused;        /* the file existed and checked out; not rebuilt */
    bool counted;       /* the material's counted table (EgtbIndexer.counted): wins, draws and
                           losses at count 0, max_dist the count from which all are drawn */
} EgtbBuildStats;

/* Called after each material (may be NULL). */
typedef void (*EgtbBuildFn)(void *ctx, const EgtbBuildStats *s);

typedef struct EgtbBuildOptions {
    int pieces;                /* build every material with up to this many pieces */
    const EgtbMaterial *only;  /* or, if set: this material and those it can turn into */
    int zstd_level;            /* compression level (1..19) */
    bool no_symmetry;          /* solve every position, not one of each pair of EgtbIndexer.symmetry
                                  (the same table byte for byte, about twice the CPU) */
    volatile int *stop;        /* polled in a solve and between materials (may be NULL) */
    EgtbBuildFn report;        /* may be NULL */
    void *ctx;
} EgtbBuildOptions;

/* Build the materials of `game` chosen by o into `dir` (which must exist).
 * Materials whose file exists and checks out (header, checksum) are
 * loaded, not rebuilt: a killed build resumes. Each file is written to a
 * temporary name and renamed when complete, so no half-written table is
 * ever read. Returns 0, 1 if stopped, or -1 with err (I/O, out of memory,
 * a distance over EGTB_DIST_MAX, an indexing inconsistency). */
int egtb_build(const Game *game, const char *dir, const EgtbBuildOptions *o, char err[ERR_MAX]);

/* Does material `from` contain `to` among the materials its positions can
 * turn into by captures and promotions (itself included)? */
bool egtb_material_reaches(EgtbMaterial from, EgtbMaterial to);

/* Parse "2k1m-1k" / "2k1m-1k0m" (White's kings and men, '-', Black's).
 * Returns 0 or -1 with a message naming the text. */
int egtb_material_parse(const char *text, EgtbMaterial *m, char err[ERR_MAX]);

typedef struct EgtbVerifyStats {
    EgtbMaterial material;
    uint64_t checked;     /* used indices checked */
    uint64_t mismatches;  /* stored value differs from the value of its children */
    uint64_t bad_index;   /* decode/index round trip failed */
    uint64_t mirrored;    /* of those checked: compared with their mirror image's value instead
                             of their children's (symmetry on; the image is checked in full) */
    bool counted;         /* the material's counted table (EgtbIndexer.counted), solved again
                             from the tables and compared value for value */
} EgtbVerifyStats;

/* Full consistency pass over every table of `game` in dir: each stored
 * value must equal the minimax of its children's stored values (and game
 * rules at the position), and index(decode(i)) == i; a counted table
 * (EgtbIndexer.counted) must equal its solve from the tables. Checksums are checked
 * when the tables are opened. Returns 0 if all agree, 1 if any mismatch,
 * -1 with err on I/O errors or when a table is missing that a present
 * one turns into (err names its file). report (may be NULL) gets one call
 * per material. Not thread-safe on one dir while a build writes it. */
typedef void (*EgtbVerifyFn)(void *ctx, const EgtbVerifyStats *s);
int egtb_verify(const Game *game, const char *dir, EgtbVerifyFn report, void *ctx, char err[ERR_MAX]);
/* The same pass over one material only when `only` is set (its table
 * and those of the materials it turns into are loaded; -1 with err naming
 * the material when dir has no table of it). With `symmetry` and
 * an indexer that has one (EgtbIndexer.symmetry), a position whose mirror
 * image has the smaller index is checked to hold its image's value, and
 * only the image against its children: about half the CPU, resting on
 * the symmetry of the rules (tests/test_egtb.c checks it on the move
 * generator); egtb_verify checks every position against its children. */
int egtb_verify_only(const Game *game, const char *dir, const EgtbMaterial *only, bool symmetry, EgtbVerifyFn report,
                     void *ctx, char err[ERR_MAX]);

/* ------------------------------------------------------------------ */
/* Probing                                                            */

typedef struct Egtb Egtb;
typedef struct EgtbCache EgtbCache;

/* The default directory of endgame databases, which `dama egtb build`
 * writes and every command that plays finds without flags: $DAMA_EGTB
 * when set (set and empty: none), else $XDG_DATA_HOME/dama/egtb (an
 * absolute XDG_DATA_HOME), else $HOME/.local/share/dama/egtb (the XDG
 * base directory specification's default data home). Returns 0 with the
 * path in out (size bytes), or -1 (out "") when there is none. */
int egtb_default_dir(char *out, size_t size);

/* Does dir hold at least one table file of game (GAME-MATERIAL.egtb)?
 * false for a missing or unreadable directory. Reads names only. */
bool egtb_dir_has_tables(const Game *game, const char *dir);

/* Open the tables of `game` found in dir: every file's header is read and
 * checked; a table is memory-mapped (and its block offsets checked) when it
 * is first probed, or here, with the checksum of every file, when
 * verify_checksums. Missing materials are simply absent. Returns NULL with
 * err on a bad file or if no table is found. */
Egtb *egtb_open(const Game *game, const char *dir, bool verify_checksums, char err[ERR_MAX]);
void egtb_close(Egtb *db);
/* Most pieces of any material fully present (every material with that
 * many pieces or fewer is there). */
int egtb_pieces(const Egtb *db);
const Game *egtb_game(const Egtb *db);
/* The materials present (up to cap written to out); returns how many. */
int egtb_db_materials(const Egtb *db, EgtbMaterial *out, int cap);
const EgtbIndexer *egtb_db_indexer(const Egtb *db);

/* A per-thread cache of decompressed blocks (blocks: slot count, rounded
 * up to a power of two; each slot EGTB_BLOCK bytes). NULL if out of
 * memory. Not thread-safe: one per thread. */
EgtbCache *egtb_cache_new(int blocks);
void egtb_cache_free(EgtbCache *c);

/* The value byte of pos. Returns true when pos is in the database (its
 * material is present and indexable, its block decompresses and, in a
 * table built with block checksums, matches its checksum), false
 * otherwise. cache may be NULL (every probe decompresses its block).
 * Counters are ignored. */
bool egtb_probe(const Egtb *db, EgtbCache *cache, const Position *pos, uint8_t *value);

/* The material pos's table is stored as (pos's material, colours
 * swapped when that is the canonical form). */
EgtbMaterial egtb_table_material(const Egtb *db, const Position *pos);

/* Does the table of pos's material (either colour; *table gets the
 * material it is stored as) hold the payload its header's checksum
 * describes? true when it does, and when db has no such table. A probe
 * checks the header (on open) and the one block it decompresses (its
 * zstd checksum: a damaged block reads as absent, false from egtb_probe;
 * tables built before the block checksums have none); this reads the
 * whole table, for a diagnostic (`dama egtb probe`), never inside a
 * search. When false, why says what is wrong (without the file's name):
 * the table could not be mapped or its block offsets are damaged, or its
 * payload checksum does not match. */
bool egtb_table_intact(const Egtb *db, const Position *pos, EgtbMaterial *table, char why[ERR_MAX]);

/* What a database value means for a position with its counters: the
 * database result where the distance fits in the plies the move-count
 * rules leave (EgtbIndexer.rule_plies_left), else unknown (the rules may
 * turn it into a draw). A draw is always a draw. */
typedef enum EgtbVerdict { EGTB_UNKNOWN = 0, EGTB_WIN = 1, EGTB_DRAW = 2, EGTB_LOSS = 3 } EgtbVerdict;
EgtbVerdict egtb_verdict(const Egtb *db, const Position *pos, uint8_t value);

/* A counted table's byte (EgtbIndexer.counted): 0 drawn at every count;
 * 1..127 the side to move wins when the count is at most cv - 1, else
 * draws; 128..255 it loses when the count is at most cv - 128, else
 * draws. A win (loss) at count c is one at every smaller count: the rules
 * only draw from a count on. */
static inline EgtbVerdict egtb_counted_verdict(uint8_t cv, int count)
{
    if (cv == 0) return EGTB_DRAW;
    if (cv < 128) return count <= cv - 1 ? EGTB_WIN : EGTB_DRAW;
    return count <= cv - 128 ? EGTB_LOSS : EGTB_DRAW;
}

/* The counted table's byte of pos when pos's material is counted and db
 * holds its table (read whole into memory, and its checksum checked, on
 * first use): 1; 0 when db has no counted table of pos's material; -1
 * when it has one that cannot be read (damaged: egtb_counted_intact says
 * why). *exact (may be NULL): the material's counted table is exact
 * (EgtbIndexer.counted). egtb_verdict uses it for such positions: a win
 * or a loss it stores is the verdict, and so is a draw of an exact table;
 * a draw of another is unknown, and so is every position of a damaged
 * one (as a damaged block's positions read as outside the database). */
int egtb_probe_counted(const Egtb *db, const Position *pos, uint8_t *cv, bool *exact);
/* How many of db's tables the probes so far found damaged (a table that
 * could not be mapped or read, or one with a block that does not
 * decompress): their positions read as outside the database, so a command
 * whose result rests on them (a tuning's targets, a count of missed wins)
 * says so. path and why: the first of them (why without the path). */
int egtb_damage(const Egtb *db, char path[4096], char why[ERR_MAX]);
/* Can the counted table of pos's material be read (true also when there
 * is none)? false with its path and why (`dama egtb probe`'s check). */
bool egtb_counted_intact(const Egtb *db, const Position *pos, char path[4096], char why[ERR_MAX]);

/* Probe + verdict for position pos that has at most `max_pieces` pieces
 * (0: the database's own limit). *dist gets the distance in plies (0 for a
 * draw). Returns EGTB_UNKNOWN when not in the database or the counters
 * leave the result open. */
EgtbVerdict egtb_probe_verdict(const Egtb *db, EgtbCache *cache, const Position *pos, int max_pieces, int *dist);

/* ------------------------------------------------------------------ */
/* Glue for search and games                                          */

/* One thread's view of a database: what the search probe and the
 * adjudicator need. Create one per thread (the cache is not shared). */
typedef struct EgtbProber {
    const Egtb *db;
    EgtbCache *cache;
    int max_pieces; /* probe positions with at most this many pieces (0: all the database has) */
    uint64_t probes, hits;
} EgtbProber;

/* New prober over db with a cache of cache_blocks blocks; NULL if out of
 * memory. */
EgtbProber *egtb_prober_new(const Egtb *db, int max_pieces, int cache_blocks);
void egtb_prober_free(EgtbProber *p);

/* An EngineProbeFn (engine/search.h) over an EgtbProber (ctx): a known
 * verdict (egtb_probe_verdict) becomes a draw or a win/loss score of its
 * distance; unknown positions are left to the search. */
bool egtb_engine_probe(void *ctx, const Position *pos, int *score);

/* Adjudication of a game position by the database (ctx: an EgtbProber):
 * the outcome for a known verdict (reason "egtb"), OUTCOME_NONE otherwise. */
Outcome egtb_adjudicate(void *ctx, const Position *pos, const char **reason);

#endif
