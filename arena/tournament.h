/* tournament.h — a round robin or gauntlet of any mix of in-process dama
 * engines (weight sets) and external Hub engines, on paired openings (each
 * opening with both colours), with clocks, adjudication and recovery from
 * failing engines: every game stored as it ends (and appended to a PDN file
 * when asked), resumable. `dama tournament` is its command-line front.
 *
 * Games: round r, pairing k (every pair of engines, or the first engine
 * against each other in a gauntlet), colour c: game index (r * pairings +
 * k) * 2 + c, pair_a[k] White in c = 0. Opening of round r: line
 * (offset + r) mod len of the book, offset derived from the seed.
 *
 * Identity: a tournament is its configuration text (TournamentOptions
 * .identity plus one "engine = TEXT" line per engine), stored with its run;
 * running the same configuration again continues the stored tournament.
 *
 * Nothing here prints, but for an MPI job that must end at once
 * (dist_run_abort). */
#ifndef DAMA_TOURNAMENT_H
#define DAMA_TOURNAMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "arena/openings.h"
#include "arena/play.h"
#include "arena/player.h"
#include "arena/tournament_config.h"
#include "engine/game.h"
#include "util/time_use.h"

struct Db;

enum {
    TOURNAMENT_ENGINES_MAX = 64,
    TOURNAMENT_PAIRINGS_MAX = TOURNAMENT_ENGINES_MAX * (TOURNAMENT_ENGINES_MAX - 1) / 2,
    TOURNAMENT_GAMES_MAX = 10000000, /* games of one tournament (rounds x pairings x 2), at most */
};

/* What a tournament run found and played; filled by tournament_run (free
 * with tournament_result_free). */
typedef struct TournamentResult {
    int64_t tournament_id, run_id;
    const Game *game;
    int engines_len;
    const PlayerSpec *engines;  /* the options' */
    bool gauntlet;
    int pairings;
    int pair_a[TOURNAMENT_PAIRINGS_MAX], pair_b[TOURNAMENT_PAIRINGS_MAX];
    int rounds;
    int64_t games_total;
    signed char *result;        /* per game index: -1 not played, else White's half points (owned) */
    int64_t done_games;         /* games with a result, this session's and stored ones */
    bool resumed;               /* a stored tournament continued */
    /* a resume given another --pdn-out: the file the games go to now (the
     * games so far copied into it) and the one stored before ("" if none) */
    bool pdn_moved;
    char pdn_now[TOURNAMENT_PATH_MAX], pdn_before[TOURNAMENT_PATH_MAX];
    /* a resume whose PDN file ended inside a game (a kill or a full disk
     * while it was written): the bytes of that game cut off (it and the
     * games after it are written again from the database); 0 if none */
    int64_t pdn_cut_bytes;
    int concurrency;            /* games at once on each rank */
    int ranks;                  /* MPI ranks (1 without MPI) */
    bool writer;                /* this process stores (rank 0) */
    bool played;                /* the games ran: the counts below are set (rank 0: of every rank) */
    bool complete;              /* every game has a result */
    int64_t session_games;      /* games played this session */
    int64_t session_faults;     /* of them, lost by an engine fault */
    double session_wall_s;      /* wall time of this session's games */
    double outside_share;       /* share of the game slots' time outside the engines (schedule_outside_share) */
    /* rank 0, once played: the time each engine used over every stored
     * game of the tournament, a resumed one's earlier games too
     * (db_run_player_times); untimed: its engines' games stored without
     * times (a game counts once for each of its two engines) */
    bool timed;
    TimeUse time[TOURNAMENT_ENGINES_MAX];
    int64_t untimed;
    /* rank 0, once played with an endgame database (TournamentOptions
     * .egtb_dir): the missed wins of every stored game, per pairing k:
     * missed[k][0] drawn games, [1] of them passed through a database win
     * for pair_a[k] that it let go, [2] for pair_b[k] (counted as `dama
     * egtb draws` counts them, arena/match_draws.h); NULL otherwise (owned) */
    int64_t (*missed)[3];
} TournamentResult;

typedef struct TournamentOptions {
    const Game *game;
    const char *db_path;            /* the database, when tournament_run is given none (rank 0 opens it) */
    const char *name;               /* NULL: unnamed */
    bool gauntlet;                  /* else round robin */
    int rounds;                     /* >= 1 */
    int concurrency;                /* games at once; 0: all cores (shared by the ranks of a node) */
    int engines_len;                /* 2..TOURNAMENT_ENGINES_MAX */
    const PlayerSpec *engines;      /* parsed (player_spec_parse), names distinct */
    const char *const *engine_texts; /* each engine as given: its "engine = " line of the identity */
    int64_t hash_mb;                /* the default TT MiB, named in the message when an engine's does not fit */
    OpeningsSource openings;
    uint64_t seed;                  /* opening order, random openings */
    int max_plies;                  /* move cap */
    PlayAdjudication adj;
    const char *egtb_dir;           /* endgame database probed by the in-process engines (NULL: none) */
    int egtb_pieces;                /* probe at most this many pieces (0: all it holds) */
    bool egtb_adjudicate;           /* end a game at its first database position with a settled result */
    const char *pdn_out;            /* append every game to this PDN file (NULL: none); stored, so a resume
                                       appends to it */
    const char *identity;           /* "key = value" lines of the options that decide the games */
    bool resume;                    /* an error unless this configuration's tournament is stored */
    int64_t resume_tournament;      /* with resume: it must be this tournament (0: any) */
    int64_t resume_run;             /* the stored run whose configuration was rebuilt (tournament_stored_config;
                                       0: found by the identity) */
    volatile int *stop;             /* Ctrl-C: games under way stop unfinished; the run is "interrupted" */
    /* Optional, on every rank once the set-up is done, just before the first
     * game (the caller may print r's header and install its Ctrl-C handler). */
    void (*on_start)(void *ctx, const TournamentResult *r);
    /* Optional, rank 0, after game index gi (white, black: engine indexes)
     * is stored; under the scheduler's lock, one at a time. */
    void (*on_game)(void *ctx, const TournamentResult *r, int64_t gi, int white, int black, const PlayRecord *rec);
    void *ctx;
} TournamentOptions;

/* Play (or continue) the tournament of o. db: an open database (kept open),
 * or NULL: rank 0 opens o->db_path (created if missing; a start refused
 * before anything was stored leaves no new file). Before anything is
 * stored: the transposition tables must fit, the PDN file must be
 * appendable and not the database, every Hub engine must start. Then the
 * run, the tournament and its participants are stored in one transaction
 * (or the stored ones checked against these engines), every game as it
 * ends (with its PDN), and the run is marked "done" or "interrupted".
 * With MPI (dist_size() > 1; called on every rank after dist_init) game j
 * of those still to play is played by rank j mod K; rank 0 alone reads
 * and writes the database and the PDN file and sends the others the
 * weights and the results so far.
 * Returns the command's exit status: 0 every game played, 3 interrupted
 * (run again to continue), 1 a failure, 2 a bad --pdn-out path, DB_BUSY
 * the tournament is being played by another live process (its run's
 * owner: nothing done); err says
 * why (on ranks other than 0 "rank R: ..."; empty when rank 0 reports it).
 * With MPI, once the games ran, every rank returns rank 0's status. r is
 * filled as far as the run went (r->played: the games ran; rank 0 may
 * print the counts even after a failure). Main thread only. */
int tournament_run(struct Db *db, const TournamentOptions *o, TournamentResult *r, char err[ERR_MAX]);

/* Free what tournament_run allocated in r (its results); r may be freed
 * twice. */
void tournament_result_free(TournamentResult *r);

/* The engines (indexes) of game index gi: White and Black. */
void tournament_game_players(const TournamentResult *r, int64_t gi, int *white, int *black);

/* --resume without engines: the stored configuration text of tournament
 * *tournament_id (0: the newest unfinished one) of the database at db_path
 * (read only). On success *tournament_id and *run_id are set and *config
 * is malloc'd (free it). Returns 0, or -1 with err ("--resume: no
 * unfinished tournament in ...", a database error). */
int tournament_stored_config(const char *db_path, int64_t *tournament_id, int64_t *run_id, char **config,
                             char err[ERR_MAX]);

#endif
