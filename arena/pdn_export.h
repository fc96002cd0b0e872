/* pdn_export.h — stored games as PDN 3.0 (`dama pdn export`, and
 * `dama tournament --pdn-out`). */
#ifndef DAMA_PDN_EXPORT_H
#define DAMA_PDN_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "db/db.h"

/* Write one stored game (as db_game_rows_each reads it): Event names its
 * tournament, match or run ("dama tournament 2 (name)", "dama match 3",
 * "dama selfplay run 1"); Round is the tournament round + 1, else the game
 * index + 1; Termination the stored reason. Returns 0, or -1 with err (an
 * unknown game, a write error). */
int pdn_export_row(FILE *out, const DbGameRow *g, char err[ERR_MAX]);

/* Write the selected games of the database at db_path (see
 * db_game_rows_each) to out_path (NULL: standard output) through the
 * atomic writer (util/atomic_file.h): whole or not at all, an existing file
 * replaced only when `replace` (--force), never the database itself.
 * *games receives the number written. Returns 0, or -1 with err. */
int pdn_export_file(const char *db_path, DbSelect select, int64_t id, const char *filter_sql, const char *out_path,
                    bool replace, long *games, char err[ERR_MAX]);

#endif
