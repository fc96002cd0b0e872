/* play.h — one engine-vs-engine game, recorded move by move. Shared by
 * self-play and matches (opening books: play/openings.h). */
#ifndef DAMA_PLAY_H
#define DAMA_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "play/openings.h"

struct Engine;

typedef struct PlaySettings {
    uint64_t nodes; /* node budget per move (deterministic); 0 = use depth */
    int depth;      /* depth limit per move; 0 = none */
    int max_plies;  /* move cap: reaching it is an adjudicated draw "move-cap" */
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

#endif
