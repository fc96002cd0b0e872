/* play_term.h — a game between a person at a terminal and the engine (the
 * loop of `dama play`): the board drawn by the game (Game.board_text), moves
 * typed in the game's notation, takeback, resign and draw offers both
 * ways, and the movetext at the end. */
#ifndef DAMA_PLAY_TERM_H
#define DAMA_PLAY_TERM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "engine/skill.h"

typedef struct PlayTerm {
    Engine *engine;          /* the engine's, weights set; the caller's to free */
    const SkillLevel *level; /* how the engine chooses its moves (skill_choose) */
    SearchLimits limits;     /* its search limits at a full-strength level */
    const char *level_name;  /* the level as the person gave it, for the greeting */
    Color human;             /* the side the person plays */
    uint64_t seed;           /* the level's random choices (same seed, same game) */
    bool colour;             /* ANSI colour in the board */
    bool echo;               /* echo each line read (input not from a terminal) */
    FILE *in, *out;
} PlayTerm;

/* Play rec's game from its current position until it ends, the person
 * resigns, quits or input ends, or a draw is agreed; every move is applied
 * to rec (the caller's, of the engine's game). Writes the dialogue and,
 * last, the movetext to t->out. Returns 0 (the game ended, or the person
 * resigned, quit or agreed a draw), PLAY_EXIT_UNFINISHED when the input
 * ended mid-game (a script can tell it from a finished game), or 1 after a
 * message on stderr ("dama play: ...") when the input cannot be read or
 * the engine failed (out of memory, no move). */
#define PLAY_EXIT_UNFINISHED 3

int play_term_run(const PlayTerm *t, GameRecord *rec);

#endif
