/* egtb_dir.c — where endgame databases live by default (contracts in
 * engine/egtb/egtb.h). */
#include "engine/egtb/egtb.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int egtb_default_dir(char *out, size_t size)
{
    out[0] = '\0';
    const char *env = getenv("DAMA_EGTB");
    int n;
    if (env) {
        if (!*env) return -1; /* set and empty: no default database */
        n = snprintf(out, size, "%s", env);
    } else if ((env = getenv("XDG_DATA_HOME")) && *env == '/') {
        n = snprintf(out, size, "%s/dama/egtb", env);
    } else if ((env = getenv("HOME")) && *env) {
        n = snprintf(out, size, "%s/.local/share/dama/egtb", env);
    } else {
        return -1;
    }
    if (n < 0 || (size_t)n >= size) {
        out[0] = '\0';
        return -1;
    }
    return 0;
}

bool egtb_dir_has_tables(const Game *game, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return false;
    size_t glen = strlen(game->name);
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        found = len > glen + 6 && strncmp(e->d_name, game->name, glen) == 0 && e->d_name[glen] == '-' &&
                strcmp(e->d_name + len - 5, ".egtb") == 0;
    }
    closedir(d);
    return found;
}
