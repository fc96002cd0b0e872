/* match.h — a match between two participants A and B on paired openings
 * (each opening played twice, A White then A Black), with pentanomial
 * counts, Elo and an optional SPRT: the two-player case of the tournament
 * scheduler (arena/schedule.h). match_run is a whole match as `dama match`
 * runs it (its command-line front): set-up, storage, MPI; match_play plays
 * one whose run and matches row exist: train_run (train/train.h) calls it
 * for the gate and ladder matches of each generation. Nothing here prints,
 * but for an MPI job that must end at once (dist_run_abort). */
#ifndef DAMA_MATCH_H
#define DAMA_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "arena/openings.h"
#include "arena/player.h"
#include "arena/stats.h"
#include "util/time_use.h"

struct Db;
struct DbMatch;
struct Egtb;
struct MoveBook;
struct Schedule;
struct ScheduleStats;
struct PlayRecord;

enum { MATCH_SPRT_MIN_PAIRS = 20 }; /* no SPRT decision before this many pairs */

typedef struct MatchPlan {
    const Game *game;
    /* A = 0, B = 1. specs[i].kind PLAYER_DAMA plays weights[i]
     * (game->weights_len values; NULL: the compiled-in set) with
     * specs[i].hash_mb MiB of TT; PLAYER_HUB runs specs[i].spec; PLAYER_DXP
     * connects to it (threads 1). The limits
     * of each spec apply to its moves. */
    PlayerSpec specs[2];
    const int32_t *weights[2];
    int64_t ws_id[2];           /* weight-set rows stored with the games (0: NULL) */
    const OpeningBook *book;    /* pair p < book_len plays items[(offset + p) % book_len], later ones items[p] */
    int book_len;               /* lines before openings_repeat's extra ones */
    int64_t pairs;              /* <= book->len */
    int threads;                /* concurrent pairs (>= 1) */
    int max_plies;
    uint64_t seed;              /* the order of the book's lines (and the stored games' seed) */
    bool sprt;
    SprtParams sprt_params;     /* checked (stats_check_sprt); also used for the LLR without sprt */
    /* endgame database (optional): probed by the in-process engines whose
     * probe[i] is set, at most egtb_pieces pieces (0: all), and with
     * egtb_adjudicate ending a game at its first database position */
    const struct Egtb *egtb;
    int egtb_pieces;
    bool probe[2], egtb_adjudicate;
    volatile int *stop;         /* Ctrl-C: games under way stop unfinished */
    /* Optional: runs the schedule instead of schedule_run (`match --mpi`:
     * dist_schedule_run, the pairs over the ranks of an MPI job, the
     * callbacks on rank 0). */
    int (*run_schedule)(void *ctx, const struct Schedule *s, struct ScheduleStats *stats, char err[ERR_MAX]);
    void *run_ctx;
    /* called after every complete pair (under the scheduler's lock; may be NULL) */
    void (*progress)(void *ctx, const MatchStats *st);
    void *progress_ctx;
    /* called with progress_ctx for every game a side (A = 0) lost by a fault
     * (rec->fault, rec->reason, rec->detail), game_index 2p or 2p+1 (under
     * the scheduler's lock; may be NULL) */
    void (*on_fault)(void *ctx, int64_t game_index, int side, const struct PlayRecord *rec);
    /* A resumed match (match_open_run): 2 * pairs values, A's half points
     * of game i already stored under the run (-1: not stored), the same on
     * every rank. Complete pairs count as played; a half-stored pair is
     * played again and its stored game not stored twice. NULL: a new match. */
    const signed char *stored;
} MatchPlan;

typedef struct MatchResult {
    MatchStats st;            /* A's view, complete pairs only */
    SprtDecision decision;    /* SPRT_CONTINUE when undecided (or no SPRT) */
    int64_t decided_pairs;    /* pairs counted when the SPRT decided */
    double decided_llr;       /* the LLR that decided */
    bool complete;            /* every pair played, or the SPRT decided */
    double wall_s, outside_share; /* the scheduler's figures (schedule_outside_share) */
    int64_t book_moves[2];    /* moves A and B took from their move books (every rank's games) */
    int64_t unstored_pairs;   /* pairs of st not stored whole when a write to the database
                               * failed (the next run plays them again) */
} MatchResult;

/* Fill the matches row m (counts, Elo with its 95% interval from the
 * pentanomial counts when there are pairs, else W/D/L, LLR, SPRT state)
 * from a result; run_id, game and ws_a/ws_b are left as they are. The
 * interval is NaN (stored NULL) where stats_interval_estimable is false. */
void match_fill_row(struct DbMatch *m, const MatchResult *r, const MatchPlan *plan);

/* The run and matches row of a match, as match_open_run found or made them. */
typedef struct MatchRows {
    int64_t run_id, match_id;
    int64_t ws[2];            /* A's and B's weight sets (0: a Hub engine) */
    bool resumed;             /* a stored run of this match, continued */
    int64_t stored_pairs;     /* resumed: its complete pairs */
} MatchRows;

/* Rank 0, before match_play: the run and matches row of plan's match, in
 * one transaction. The newest run of kind "match" with plan's game and
 * seed and this configuration text is claimed (db_run_claim with
 * DB_CLAIM_RESUME): when another live process plays it, nothing is stored
 * and DB_BUSY returned. When its matches row names the same weight sets it
 * is resumed: the calling process its owner, its status running, and
 * stored (2 * plan->pairs values) filled as MatchPlan.stored wants, so
 * that a killed or stopped match run again plays only its missing pairs
 * and ends as one uninterrupted match (a finished one plays nothing).
 * Otherwise a new run (db_run_claim with DB_CLAIM_NEW), A's and B's weight
 * sets (spec[i] as weights_store_base takes it, with plan->weights[i];
 * spec[i] NULL: a Hub engine, no weight set) and an empty matches row are
 * stored, and stored is all -1. names: the game's weight names
 * (weight_names_new). Returns 0, DB_BUSY with err naming the owner, or -1
 * with err (nothing stored). */
int match_open_run(struct Db *db, const MatchPlan *plan, const char *config, const char *const spec[2],
                   const char **names, MatchRows *rows, signed char *stored, char err[ERR_MAX]);

/* The configuration text a match's run is stored under (match_open_run's
 * config): config, or legacy (NULL: none) when a run of kind "match" with
 * this game and seed has that text and none has config: a match an older
 * dama stored under a text with settings that cannot change its games
 * (--threads, --progress, ...), resumed under its own text. *pick is config
 * or legacy. Returns 0, or -1 with err. */
int match_identity(struct Db *db, const char *game, uint64_t seed, const char *config, const char *legacy,
                   const char **pick, char err[ERR_MAX]);

/* Play the match of plan. Games go to db under run_id as they end (games
 * 2p and 2p+1 of pair p; batched), the matches row match_id (made by the
 * caller, with the run) is updated at the end, and the run is marked done
 * (every pair or an SPRT decision) or interrupted; db NULL stores nothing
 * (a rank other than 0 of `match --mpi`). SPRT: the pairs are taken in
 * index order, pair p once pairs 0..p are all in, so the decision is the
 * same for any threads or ranks; from MATCH_SPRT_MIN_PAIRS pairs on, a
 * decision starts no new pair; the pairs under way are finished and
 * counted in the final LLR, the deciding one is kept apart (sprt_llr,
 * sprt_pairs). Returns 0 (also when
 * interrupted: see out->complete), -1 with err (database, out of memory,
 * a bad opening). Thread safety: one call per plan; uses plan->threads
 * threads. */
int match_play(struct Db *db, int64_t run_id, int64_t match_id, const MatchPlan *plan, MatchResult *out,
               char err[ERR_MAX]);

/* ---- a whole match: match_run ------------------------------------------- */

/* What match_run found and played. */
typedef struct MatchRunResult {
    int64_t run_id, match_id;
    char who[2][160];           /* A and B: "weight set 3", "'dama hub'" or "DXP 127.0.0.1:27531" */
    int64_t pairs;              /* pairs of the match (the book's lines when 0 was asked for) */
    int book_len;               /* the book's own lines (pairs beyond them repeat them) */
    char limits[64];            /* the limit of every move, as player_limits_text writes it */
    int threads;                /* concurrent pairs on each rank */
    int ranks;                  /* MPI ranks (1 without MPI) */
    bool writer;                /* this process stores (rank 0) */
    bool played;                /* the pairs ran (rank 0): res and llr are set */
    int64_t stored_pairs;       /* rank 0: the complete pairs of a resumed match; -1: a new match */
    MatchResult res;
    double llr;                 /* the final LLR as stored (of the pairs, else of W/D/L) */
    /* rank 0, once played: the time A (0) and B (1) used over every stored
     * game of the match, a resumed one's earlier games too
     * (db_run_match_times); untimed: its games stored without times */
    bool timed;
    TimeUse time[2];
    int64_t untimed;
    /* rank 0, once played with an endgame database (egtb_dir): the missed
     * wins over every stored game of the match, a resumed one's earlier
     * games too (match_draws_count, as `dama egtb draws` counts them): of
     * `drawn` drawn games, missed[0] passed through a database win for A
     * and let it go, missed[1] through one for B (a game can count for
     * both). missed_counted is false without a database. */
    bool missed_counted;
    int64_t drawn, missed[2];
} MatchRunResult;

typedef struct MatchOptions {
    const Game *game;
    const char *db_path;        /* the database, when match_run is given none (rank 0 opens it) */
    /* A = 0, B = 1: a program over DXP when dxp[i] is set (HOST:PORT,
     * arena/player_dxp.h; cmds[i] then the command that starts it, or
     * NULL; port 0 needs it: the port it prints), else an external Hub engine when cmds[i] is set (run with
     * /bin/sh -c), else weights[i] in-process (db/weight_sets.h forms; B
     * NULL: A's parent weight set, else "default"). A DXP program plays one
     * game at a time: threads must be 0 (taken as 1) or 1, and one rank. */
    const char *weights[2];
    const char *cmds[2];
    /* A's and B's move books (book/book.h; NULL: none; of o->game, not
     * owned): a position in it gets a book move, chosen from o->seed.
     * Not the opening ballots of `openings`. */
    const struct MoveBook *books[2];
    const char *dxp[2];
    int64_t pairs;              /* game pairs (0: one per opening of the book) */
    PlayerLimits limits;        /* of every move of both engines */
    int threads;                /* concurrent pairs; 0: all cores (shared by the ranks of a node) */
    int64_t hash_mb;            /* TT MiB per game slot, split between its in-process engines */
    OpeningsSource openings;
    bool repeat_book;           /* pairs beyond the book: each line again with repeat_plies random plies after it */
    int repeat_plies;
    int max_plies;
    uint64_t seed;              /* the order of the book's lines, random openings */
    bool sprt;
    SprtParams sprt_params;     /* checked (stats_check_sprt) */
    const char *egtb_dir;       /* endgame database (NULL: none), probed by the engines with probe[i] */
    int egtb_pieces;
    bool probe[2], egtb_adjudicate;
    const char *config;         /* the run's configuration text (its identity), stored with it */
    const char *legacy_config;  /* NULL, or the identity an older dama stored the same match under: a run
                                 * stored under it (and none under config) is resumed, keeping its text */
    volatile int *stop;         /* Ctrl-C: games under way stop unfinished; the run is "interrupted" */
    /* Optional, on every rank once the set-up is done, just before the
     * first game (the caller may print r's header and install its Ctrl-C
     * handler). */
    void (*on_start)(void *ctx, const MatchRunResult *r);
    /* Optional, rank 0: after every complete pair (MatchPlan.progress). */
    void (*progress)(void *ctx, const MatchStats *st);
    /* Optional, rank 0: a game lost by a fault (MatchPlan.on_fault). */
    void (*on_fault)(void *ctx, int64_t game_index, int side, const struct PlayRecord *rec);
    void *ctx;
} MatchOptions;

/* A whole match: before anything is stored the tables must fit, the book
 * is made (every rank makes its own, from the seed) and every Hub engine
 * must start; then A's and B's weights are resolved, the run, both weight
 * sets and the matches row are stored in one transaction (or the stored
 * run of the same match resumed: match_open_run), and the pairs are
 * played (match_play). db: an open database (kept open), or NULL: rank
 * 0 opens o->db_path (created if missing; a start refused before anything
 * was stored leaves no new file). With MPI (dist_size() > 1; called on
 * every rank after dist_init) pair p is played by rank p mod K and rank 0
 * alone stores. Returns the command's exit status: 0 every pair played
 * (or the SPRT decided), 3 interrupted, 1 a failure, 2 more pairs than
 * the book has without repeat_book, DB_BUSY a match of the same options
 * (game, seed, o->config) running in another live process (its claim
 * refused: nothing stored); err says why (on ranks other than 0
 * "rank R: ..."; empty when rank 0 reports it). With MPI, once the pairs
 * ran, every rank returns rank 0's status. r->played: the counts are set
 * (rank 0 may print them even after a failure). Main thread only. */
int match_run(struct Db *db, const MatchOptions *o, MatchRunResult *r, char err[ERR_MAX]);

#endif
