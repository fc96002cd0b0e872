/* play.h — one engine-vs-engine game, recorded move by move: the one
 * game-playing path of self-play, matches and tournaments (two Players,
 * play/player.h; opening books: play/openings.h). */
#ifndef DAMA_PLAY_H
#define DAMA_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "arena/openings.h"
#include "arena/player.h"

struct Engine;

/* Adjudication by the engines' own scores, as cutechess-cli's -resign and
 * -draw: a side whose score (its own view) is at most -resign_score for
 * resign_moves of its moves in a row loses ("resign"); when both sides'
 * scores are within +-draw_score for draw_moves moves each in a row, from
 * ply draw_after on, the game is drawn ("adjudicated-draw"). Counts of 0
 * turn a rule off; a move without a score resets both counts. */
typedef struct PlayAdjudication {
    int resign_moves, resign_score; /* centi-men */
    int draw_moves, draw_score, draw_after;
} PlayAdjudication;

typedef struct PlaySettings {
    uint64_t nodes; /* node budget per move (deterministic); 0 = use depth (play_game only) */
    int depth;      /* depth limit per move; 0 = none (play_game only) */
    int max_plies;  /* move cap: reaching it is an adjudicated draw "move-cap" */
    PlayAdjudication adj;
    PlayerLimits limits; /* play_game: a movetime or clock here replaces nodes/depth */
    /* Optional adjudicator (e.g. egtb_adjudicate): asked before every move
     * once the rules have not ended the game; an outcome other than
     * OUTCOME_NONE ends it with *reason. ctx is the calling thread's. */
    Outcome (*adjudicate)(void *ctx, const Position *pos, const char **reason);
    void *adjudicate_ctx;
} PlaySettings;

enum { PLAY_PLIES_MAX = 1024 };

/* A played game. Positions [0, plies) are the positions before each move;
 * scores[i] is the mover's search score converted to White's view. */
typedef struct PlayRecord {
    Outcome outcome;
    const char *reason; /* "no-moves", "D3".."D8", "move-cap", ... (static string) */
    int plies;
    Position *positions; /* PLAY_PLIES_MAX each, owned */
    int32_t *scores;
    bool *quiet; /* side to move had no capture */
    char *movetext; /* PDN movetext, owned (NULL until a game was played) */
    uint64_t nodes; /* nodes searched by both sides */
    double engine_seconds;          /* wall time inside the players' moves */
    /* Each colour's moves and the wall and CPU seconds its player used for
     * them (PlayerMove.seconds, .cpu_seconds): the time each side used, so
     * that a match can show both sides' mean time per move. Only moves
     * made count: a think that ended in a fault (crash, timeout, illegal
     * move), a resignation or a stop is neither a move nor timed. */
    int moves[2];
    double wall_s[2], cpu_s[2];
    int book_moves[2];              /* each colour's moves taken from its player's move book */
    PlayerFault fault;              /* PLAYER_OK, or why the side `fault_side` lost */
    Color fault_side;
    char detail[PLAYER_DETAIL_MAX]; /* the fault's detail ("" if none) */
} PlayRecord;

/* Allocate the record's arrays. Returns 0 or -1 (out of memory). */
int play_record_init(PlayRecord *r);
void play_record_free(PlayRecord *r);

/* Play one game from `start` (history of keys before it: none). engines[c]
 * plays colour c with its own weights; both are cleared first. Stops at the
 * game's end (game_outcome), at the move cap, or when *stop becomes
 * non-zero (then returns 1 and the record is incomplete). Returns 0 when the
 * game finished, -1 with err on failure. */
int play_game(const Game *game, struct Engine *engines[2], const Position *start, const PlaySettings *s,
              volatile int *stop, PlayRecord *r, char err[ERR_MAX]);

/* Play one game from `start` between players[0] (White) and players[1]
 * (Black); both get player_new_game first. Ends by the rules
 * (game_record_outcome), the move cap, adjudication (s->adj), or a fault
 * of a player, who then loses (reason "crash", "timeout", "time-forfeit",
 * "illegal-move"; r->detail keeps what it wrote). Players with a clock
 * (PlayerLimits.time_ms) start with it full; the increment is added after
 * each move. Returns 0 when the game finished, 1 when *stop (or a player's
 * stop flag) was raised (the record is then incomplete), -1 with err on an
 * internal failure (out of memory). */
int play_game_players(const Game *game, Player *players[2], const Position *start, const PlaySettings *s,
                      volatile int *stop, PlayRecord *r, char err[ERR_MAX]);

#endif
