/* registry.c — the list of games dama knows (game_find, game_list,
 * game_init_all, game_names) and the default game; contracts in
 * engine/game.h. A game is its folder under engine/games/ and one line in
 * DAMA_GAMES below: everything else that differs by game (tables to build,
 * search defaults, endgame indexing, display) is a field of its Game
 * table. Nothing outside engine/games/ names a game but GAME_DEFAULT_NAME. */
#include "engine/game.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The games, in the order every list shows them. A game NAME defines
 * `const Game NAME_game` in its folder; adding one is adding its line. */
#define DAMA_GAMES(GAME) \
    GAME(russian)        \
    GAME(turkish)        \
    GAME(shatra)         \
    GAME(brazilian)      \
    GAME(pool)           \
    GAME(english)        \
    GAME(czech)          \
    GAME(italian)        \
    GAME(spanish)        \
    GAME(international)

#define GAME(name) extern const Game name##_game;
DAMA_GAMES(GAME)
#undef GAME

static const Game *const GAMES[] = {
#define GAME(name) &name##_game,
    DAMA_GAMES(GAME)
#undef GAME
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

const char GAME_DEFAULT_NAME[] = "russian";

void game_init_all(void)
{
    for (int i = 0; GAMES[i]; i++)
        if (GAMES[i]->init) GAMES[i]->init();
}

const Game *game_find(const char *name)
{
    for (int i = 0; GAMES[i]; i++)
        if (name && strcmp(GAMES[i]->name, name) == 0) return GAMES[i];
    return NULL;
}

const Game *const *game_list(void) { return GAMES; }

int game_names(char *out, size_t size, const char *last, bool (*keep)(const Game *g))
{
    const Game *kept[sizeof GAMES / sizeof GAMES[0]];
    int n = 0;
    for (int i = 0; GAMES[i]; i++)
        if (!keep || keep(GAMES[i])) kept[n++] = GAMES[i];
    size_t used = 0;
    if (size) out[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        int w = snprintf(out + used, size - used, "%s%s", i == 0 ? "" : i == n - 1 ? last : ", ", kept[i]->name);
        if (w < 0) break;
        used += (size_t)w;
    }
    return n;
}
