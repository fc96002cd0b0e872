/* ratings_table.h — rating fits as printed by `dama ratings` and
 * `dama tournament`. */
#ifndef DAMA_RATINGS_TABLE_H
#define DAMA_RATINGS_TABLE_H

#include <stdio.h>

#include "engine/game.h"
#include "arena/ratings.h"

enum { RATINGS_ANCHOR_MAX = 100000 }; /* the largest |ELO| an anchor may fix */

/* Parse --anchor "NAME" or "NAME=ELO" against names[0..len): *index and
 * *elo (0 when not given; |ELO| at most RATINGS_ANCHOR_MAX). Returns 0, or
 * -1 with a message naming the unknown player or the bad number. */
int ratings_parse_anchor(const char *text, const char *const *names, int len, int *index, double *elo,
                         char err[ERR_MAX]);

/* One line per player, best first: rank, name, Elo, +/- (95%), interval,
 * games, score %; then White's advantage and draw_elo. */
void ratings_table_print(FILE *out, const RatingsFit *fit, const char *const *names, const RatingsOptions *opt);

#endif
