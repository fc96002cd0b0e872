/* tournament_print.h — what `dama tournament` prints of a tournament
 * (arena/tournament.h): the crosstable, pentanomial counts per pairing and
 * the ratings fitted together. */
#ifndef DAMA_TOURNAMENT_PRINT_H
#define DAMA_TOURNAMENT_PRINT_H

#include <stdio.h>

#include "arena/tournament.h"

/* The crosstable (points of the row against the column, games, draws),
 * then one line of pentanomial counts per pairing that has games. */
void tournament_print_results(FILE *out, const TournamentResult *r);

/* Each engine's mean wall and CPU time per move over the stored games,
 * then whether the engines used equal time (the most against the least,
 * by the larger of the wall and CPU differences; util/time_use.h): a
 * rating is fair only at equal time used. Nothing when r->timed is not set. */
void tournament_print_times(FILE *out, const TournamentResult *r);

/* With an endgame database (r->missed set): per pairing that has games,
 * its missed wins as `dama match` prints them, A the first named ("  A1 vs
 * B1: missed wins: of N drawn games, a passed through a database win for
 * A, b for B (DIR)"), under one header line naming dir. Nothing without. */
void tournament_print_missed(FILE *out, const TournamentResult *r, const char *dir);

/* The ratings of the games played so far (maximum likelihood, all players
 * together), with prior virtual games per pair that met and anchor (NULL:
 * the mean is 0; "NAME" or "NAME=ELO"). A bad anchor or a failed fit is one
 * line in out. */
void tournament_print_ratings(FILE *out, const TournamentResult *r, double prior, const char *anchor);

#endif
