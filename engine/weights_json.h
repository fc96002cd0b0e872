/* weights_json.h — a weight set as JSON: written by `dama export --format
 * json`, read back by the engine library (dama_weights_load_json).
 *
 *     { "format": "dama-weights", "format_version": 1,
 *       "game": "russian", "title": "Russian draughts",
 *       "layout_version": "<16 hex>", "weights_len": 43,
 *       "hash": "<16 hex>",
 *       "terms": [ { "name": "MAN", "offset": 0, "count": 1,
 *                    "doc": "each man", "values": [100] }, ... ],
 *       "provenance": { "lineage": "...", "database": ..., "weight_set": ...,
 *                       "run": ..., "tuning": ..., "match": ... } }
 *
 * The layout version and hash are those of engine/weights_id.h. Reading
 * checks, in order: JSON syntax, format, game, layout version, every term
 * (known, right count, integers in -5000..5000, none missing or twice) and
 * the hash when present. Pure (no I/O), thread-safe. */
#ifndef DAMA_WEIGHTS_JSON_H
#define DAMA_WEIGHTS_JSON_H

#include <stdint.h>

#include "engine/game.h"

enum { WEIGHTS_JSON_FORMAT_VERSION = 1 };

/* Where a weight set came from; every field may be 0 / NULL (left out of
 * the JSON, or null). */
typedef struct WeightsProvenance {
    const char *lineage;  /* one line: weight set, how it was made, K, loss, date */
    const char *database; /* path of the database it was read from */
    int64_t weight_set_id, parent_id;
    const char *name, *how, *created;
    int64_t run_id; /* the run that made it (tuning or perturbation) */
    const char *run_kind, *run_created, *run_status;
    int64_t tuning_run_id; /* tuning run whose result it is */
    double k, train_loss, valid_loss;
    int64_t positions_train, positions_valid;
    const char *tuning_data; /* which data: the filter and run ids */
    int64_t match_id; /* its newest match (this set as A) */
    int64_t match_opponent; /* weight set B */
    int64_t games, wins, draws, losses;
    double elo, elo_lo, elo_hi, llr;
} WeightsProvenance;

/* The JSON text of weights[0..game->weights_len) (2-space indented, ends
 * with a newline; the same inputs give identical bytes). Returns a string
 * to free(), or NULL when out of memory. */
char *weights_json_format(const Game *game, const int32_t *weights, const WeightsProvenance *prov);

/* Parse JSON text into weights[0..game->weights_len). Returns 0, or -1
 * with a message naming the problem (and the term) in err; weights are
 * left untouched on failure. */
int weights_json_parse(const Game *game, const char *text, int32_t *weights, char err[ERR_MAX]);

#endif
