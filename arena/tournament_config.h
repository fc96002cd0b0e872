/* tournament_config.h — what arena/tournament.c checks about a
 * tournament's configuration and its PDN file (private to arena/). */
#ifndef DAMA_TOURNAMENT_CONFIG_H
#define DAMA_TOURNAMENT_CONFIG_H

#include <stdint.h>

#include "engine/game.h"

enum { TOURNAMENT_PATH_MAX = 1024 };

/* Why configuration text `given` is not the stored one of tournament tid
 * (both "key = value" lines, "engine = ..." first): the first engine, then
 * the first option that differs, as a "--resume: ..." message in err. */
void tournament_config_diff(const char *given, const char *stored, int64_t tid, char err[ERR_MAX]);

/* path made absolute against the working folder (no symbolic link is
 * resolved: the file may not exist yet). Returns 0, or -1 with err. */
int tournament_path_absolute(const char *path, char out[TOURNAMENT_PATH_MAX], char err[ERR_MAX]);

/* Can games be appended to path (absolute)? An existing file must be a
 * writable file holding PDN text (empty, or starting with a tag '[' or a
 * comment '{' after blanks, no NUL byte in its first 64 KiB: a database or
 * a program is refused), a new one needs a writable folder. Checked before anything
 * is stored, so that a bad --pdn-out is not a tournament left "running".
 * Returns 0, or -1 with err. */
int tournament_path_appendable(const char *path, char err[ERR_MAX]);

#endif
