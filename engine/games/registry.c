/* registry.c — the list of games dama knows (game_find, game_list,
 * game_init_all; contracts in engine/game.h). This is the one shared file a
 * new game touches: one line in GAMES[] and, if it has tables to build, one
 * call in game_init_all(). The engine itself knows games only through
 * engine/game.h. */
#include "engine/game.h"

#include <string.h>
#include <unistd.h>

#include "engine/games/draughts/draughts.h"
#include "engine/games/russian/russian.h"
#include "engine/games/shatra/shatra.h"
#include "engine/games/turkish/turkish.h"

static const Game *const GAMES[] = {
    &russian_game,
    &turkish_game,
    &shatra_game,
    NULL,
};

/* A build with DAMA_POPCNT (CMake, on by default on x86-64) uses the POPCNT
 * instruction everywhere; this file alone is compiled without it, so the
 * check below runs before any of it and stops with a message, not SIGILL,
 * on a CPU without it (x86-64 CPUs before 2008-09). It runs when the
 * program or the library loads. */
#if defined(DAMA_POPCNT) && defined(__x86_64__)
__attribute__((constructor)) static void cpu_check(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt")) return;
    static const char msg[] = "dama: this build uses the POPCNT instruction, which this CPU lacks; "
                              "rebuild with cmake -DDAMA_POPCNT=OFF\n";
    ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)n;
    _exit(1);
}
#endif

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
