/* weight_sets.h — a weight set named on the command line: "default" (the
 * compiled-in set), "db:ID" or "ID" (a weight set in the database), "tuned"
 * (the newest tuned set in the database) or a weight file; and storing the
 * set a run starts from. */
#ifndef DAMA_WEIGHT_SETS_H
#define DAMA_WEIGHT_SETS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/eval.h"
#include "engine/game.h"

struct Db;


/* The one weight resolver every command uses (through one of the three
 * entry points below): spec NULL, "default" or "compiled-in" = the
 * compiled-in weights; "db:ID" or "ID" = weight set ID of the database;
 * "tuned" = its newest tuned set; "best" = the best accepted generation of
 * the newest train of the game, "train:ID" = that of train ID (dama train;
 * generation 0 when no gate passed); anything else = a weight file (whose
 * left-out terms come from its base, weights_file.h). Each fills
 * weights[0..game->weights_len) and returns 0, or -1 with err.
 *
 * weights_resolve: without a database (a db spec is an error). */
int weights_resolve(const Game *game, const char *spec, int32_t *weights, char err[ERR_MAX]);

/* Names of the game's weights ("MAN", "MAN_PST[3]", ...): one allocation,
 * free() it. NULL if out of memory. */
const char **weight_names_new(const Game *g);

/* With an open database db (may be NULL: then as weights_resolve). *id
 * (may be NULL) receives the weight set id, 0 if not from db. */
int weights_resolve_db(const Game *g, const char *spec, struct Db *db, int32_t *weights, int64_t *id,
                       char err[ERR_MAX]);

/* Of the term groups this build's evaluation leaves out (Game.term_computed),
 * how many weights of w are not 0, either phase: their names go to groups
 * ("PIECE_PAIR, PIECE_SET"; "" if none). w NULL: every group left out is
 * named, and the count is of groups. weights_resolve_db warns of them on
 * stderr (once a thread for each game and spec, of the last 16): such weights add
 * nothing in this build. */
int weights_uncomputed(const Game *g, const int32_t *w, char groups[ERR_MAX]);

/* With the database at db_path, opened read-only (it must exist) only when
 * spec needs it, and closed again: for commands that have no database open
 * (search, play, hub). */
int weights_resolve_path(const Game *g, const char *spec, const char *db_path, int32_t *weights, int64_t *id,
                         char err[ERR_MAX]);
/* Do the weights of spec (with the database at db_path) load for game g?
 * weights_resolve_path into a buffer of its own, dropped: 0, or -1 with err
 * (out of memory included). */
int weights_check_path(const Game *g, const char *spec, const char *db_path, char err[ERR_MAX]);

/* Does spec name a weight set of the database ("db:ID", "ID", "tuned",
 * "best", "train:ID")? */
bool weights_spec_needs_db(const char *spec);
/* The same, or spec is a weight file with base = "db:ID". */
bool weights_spec_uses_db(const Game *g, const char *spec);
/* The form of spec, without a database: the number of "db:ID", "ID" and
 * "train:ID" an integer >= 1. Returns 0 (also for every other spec, a weight
 * file included: only its reading tells), or -1 with err ("weight set id:
 * 'abc' is not an integer", "train id: '0' is out of range 1.."), the
 * message weights_resolve_db gives; a blank spec is refused too ("an empty
 * weight set"). The command line checks every weights
 * option with it (OPT_WEIGHTS), a usage error. */
int weights_spec_check(const char *spec, char err[ERR_MAX]);

/* Make sure the weights named by spec are a weight set in db: returns its id
 * (stored now with lineage "compiled-in" or "file PATH" if it was not from
 * db). */
int weights_store_base(struct Db *db, const Game *g, const char *spec, const int32_t *weights, const char **names,
                       int64_t run_id, int64_t *id, char err[ERR_MAX]);


#endif
