/* preflight.c — checks before a run stores anything (contracts in
 * arena/preflight.h). */
#include "arena/preflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/player.h"
#include "engine/search.h"
#include "util/text.h"

int preflight_check_hash(const Game *g, int64_t table_mb, int tables, const char *option, char err[ERR_MAX])
{
    Engine **e = calloc((size_t)(tables > 0 ? tables : 1), sizeof *e);
    int made = 0;
    while (e && made < tables && (e[made] = engine_new_unpopulated(g, (size_t)table_mb))) made++;
    for (int i = 0; i < made; i++) engine_free(e[i]);
    free(e);
    if (e && made == tables) return 0;
    if (tables == 1)
        snprintf(err, ERR_MAX, "%s: cannot allocate a transposition table of %lld MiB (out of memory); give a smaller "
                 "value", option, (long long)table_mb);
    else
        snprintf(err, ERR_MAX, "%s: cannot allocate %d transposition tables of %lld MiB (%lld MiB in all; out of "
                 "memory); give a smaller value or fewer threads", option, tables, (long long)table_mb,
                 (long long)table_mb * tables);
    return -1;
}

int preflight_check_engine(const Game *g, const PlayerSpec *spec, const char *who, volatile int *stop,
                           char err[ERR_MAX])
{
    if (spec->kind != PLAYER_HUB) return 0;
    Player *p = player_new(g, spec, NULL, stop, err);
    if (!p) return -1;
    char detail[PLAYER_DETAIL_MAX];
    PlayerFault f = player_new_game(p, detail);
    player_free(p);
    if (f == PLAYER_OK) return 0;
    /* the detail of a start that failed names the command itself */
    const char *quoted_end = strncmp(detail, "cannot start '", 14) == 0 ? strstr(detail, "': ") : NULL;
    const char *why = quoted_end ? quoted_end + 3 : detail;
    if (f == PLAYER_STOPPED) why = "interrupted while starting it";
    size_t used = 0;
    err[0] = '\0';
    text_append(err, ERR_MAX, &used, "%.50s: cannot start '%.60s': ", who, spec->spec);
    text_append(err, ERR_MAX, &used, "%s", why); /* all that fits: its standard error comes early in it */
    return -1;
}
