/* registry.c — the list of games dama knows (game_find, game_list,
 * game_init_all; contracts in engine/game.h). This is the one shared file a
 * new game touches: one line in GAMES[] and, if it has tables to build, one
 * call in game_init_all(). The engine itself knows games only through
 * engine/game.h. */
#include "engine/game.h"

#include <string.h>

#include "games/draughts.h"
#include "games/russian/russian.h"
#include "games/shatra/shatra.h"
#include "games/turkish/turkish.h"

static const Game *const GAMES[] = {
    &russian_game,
    &turkish_game,
    &shatra_game,
    NULL,
};

void game_init_all(void)
{
    draughts_init();
    russian_eval_init();
    shatra_init();
}

const Game *game_find(const char *name)
{
    for (int i = 0; GAMES[i]; i++)
        if (name && strcmp(GAMES[i]->name, name) == 0) return GAMES[i];
    return NULL;
}

const Game *const *game_list(void) { return GAMES; }
