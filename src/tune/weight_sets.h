/* weight_sets.h — a weight set named on the command line: "default" (the
 * compiled-in set), "db:ID" or "ID" (a weight set in the database), "tuned"
 * (the newest tuned set in the database) or a weight file; and storing the
 * set a run starts from. */
#ifndef DAMA_WEIGHT_SETS_H
#define DAMA_WEIGHT_SETS_H

#include <stdint.h>

#include "engine/eval.h"
#include "engine/game.h"

struct Db;


/* Without a database: spec NULL or "default" = the compiled-in weights;
 * anything else = a weight file. Fills weights[0..game->weights_len).
 * Returns 0 or -1 with err. */
int weights_resolve(const Game *game, const char *spec, int32_t *weights, char err[ERR_MAX]);

/* Names of the game's weights ("MAN", "MAN_PST[3]", ...): one allocation,
 * free() it. NULL if out of memory. */
const char **weight_names_new(const Game *g);

/* Weights named by spec: "default" (compiled in), "db:ID" or "ID" (weight set
 * in db), "tuned" (newest tuned weight set in db), or a weight file. *id
 * (may be NULL) receives the weight set id, 0 if not from db. */
int weights_resolve_db(const Game *g, const char *spec, struct Db *db, int32_t *weights, int64_t *id,
                       char err[ERR_MAX]);

/* Make sure the weights named by spec are a weight set in db: returns its id
 * (stored now with lineage "compiled-in" or "file PATH" if it was not from
 * db). */
int weights_store_base(struct Db *db, const Game *g, const char *spec, const int32_t *weights, const char **names,
                       int64_t run_id, int64_t *id, char err[ERR_MAX]);


#endif
