/* match_draws.h — `dama egtb draws` (and the missed-wins line that ends
 * `dama match` with a database, arena/match.c): in the games of a stored match drawn
 * by the few-piece rules (reasons such as D7, D8), which engine ended with
 * the larger material (pieces, then kings): a sign of an engine that
 * settles for a draw it could have won. Reads the stored games (replaying
 * each drawn one to its end); nothing here prints. */
#ifndef DAMA_MATCH_DRAWS_H
#define DAMA_MATCH_DRAWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/game.h"

enum { MATCH_DRAW_REASONS_MAX = 16, MATCH_DRAW_REASON_LEN = 32 };

/* One drawn game that passed through a database win, for a listing
 * (MatchDraws.on_missed_game): the first such position of each side. */
typedef struct MatchDrawsGame {
    int64_t game_index;              /* games.game_index (A has White in the even ones) */
    const char *reason;              /* how the game was drawn (games.reason) */
    int plies;                       /* the game's length */
    bool won[2];                     /* [Color]: a win for that colour was seen and let go */
    int ply[2];                      /* [Color]: the ply of its first such position (0: the start) */
    int dist[2];                     /* [Color]: the database's distance there, plies */
    char fen[2][FEN_MAX];            /* [Color]: that position */
} MatchDrawsGame;

typedef struct MatchDraws {
    char reasons[MATCH_DRAW_REASONS_MAX][MATCH_DRAW_REASON_LEN]; /* the games.reason values counted (the caller's) */
    int reasons_len;
    /* [reason i, MATCH_DRAW_REASONS_MAX: all][A larger, B larger, equal] */
    int64_t count[MATCH_DRAW_REASONS_MAX + 1][3];
    int64_t games, draws;  /* the match's games, and those drawn by one of the reasons */
    /* every reason the match's drawn games were drawn by (the first
     * MATCH_DRAW_REASONS_MAX, in the order first met; longer ones cut) */
    char seen[MATCH_DRAW_REASONS_MAX][MATCH_DRAW_REASON_LEN];
    int seen_len;
    /* With a database: the drawn games (any reason) that passed through a
     * position it scores as won for the side to move, by who had that win
     * and let it go: [A, B] (a game where both did counts for each). */
    int64_t drawn, missed[2];
    /* May be set by the caller: called for each of those games, in the
     * order of the match's games (`dama egtb draws --list`). */
    void (*on_missed_game)(void *ctx, const MatchDrawsGame *g);
    void *missed_ctx;
} MatchDraws;

struct Egtb;
/* Count the draws of match match_id of the database at db_path (opened for
 * reading, migrated if writable) by d's reasons (its counts must be zero;
 * d->on_missed_game, if set, hears of each missed win):
 * A has White in the even games (arena/match.c). Every game must be of
 * `game`, which must have an endgame indexer. With egtb (may be NULL),
 * also the missed wins: every drawn game is replayed and each position the
 * database holds probed; a win counts when the move-count rules leave it
 * winnable from there (egtb_verdict, with the game's counters). Returns 0, or -1
 * with err (naming the file, and the game that cannot be replayed; or a
 * table found damaged, egtb_damage: its wins would go uncounted). */
int match_draws_count(const char *db_path, const Game *game, int64_t match_id, const struct Egtb *egtb,
                      MatchDraws *d, char err[ERR_MAX]);

/* Called for each drawn game (any reason) of a tournament, with its
 * games.game_index and whether it passed through a database win for
 * White (won[0], COLOR_WHITE) and for Black (won[1]) that was let go. */
typedef void (*MatchDrawsMissedFn)(void *ctx, int64_t game_index, const bool won[2]);

/* The missed wins of tournament tournament_id, counted as
 * match_draws_count counts them (egtb must not be NULL), given game by
 * game to fn, which knows the tournament's players (arena/tournament.c).
 * Returns 0, or -1 with err. */
int match_draws_missed_tournament(const char *db_path, const Game *game, int64_t tournament_id,
                                  const struct Egtb *egtb, MatchDrawsMissedFn fn, void *ctx, char err[ERR_MAX]);

/* The missed-wins line of `dama match` and `dama egtb draws`: "missed
 * wins: of N drawn games, a passed through a database win for A, b for B
 * (DIR)". */
void match_draws_print_missed(FILE *out, int64_t drawn, const int64_t missed[2], const char *dir);

#endif
