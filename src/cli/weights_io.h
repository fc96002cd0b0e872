/* weights_io.h — resolve a --weights argument of any command. */
#ifndef DAMA_WEIGHTS_IO_H
#define DAMA_WEIGHTS_IO_H

#include <stdint.h>

#include "engine/eval.h"
#include "engine/game.h"

#define EVAL_WEIGHTS_MAX_CLI EVAL_WEIGHTS_MAX

/* spec: NULL or "default" = the compiled-in weights; "db:PATH:ID" = weight
 * set ID of database PATH; anything else = a weight file. Fills
 * weights[0..game->weights_len). Returns 0 or -1 with err. */
int weights_resolve(const Game *game, const char *spec, int32_t *weights, char err[ERR_MAX]);

#endif
