/* db_report.h — what `dama report` reads from a database (db_report.c): one
 * function per query, each giving every row as a typed struct, in the
 * page's order. report/ only formats what these return.
 *
 * game: only that game's rows ("russian"); NULL: every game. The database
 * may be of an older schema version (a read-only connection does not
 * migrate it): a table or column it lacks is said in the result (exists,
 * missing), not an error.
 *
 * Values: an integer column that is NULL reads DB_NULL_INT where a field
 * says so, else 0; a real that is NULL reads NaN; a text that is NULL reads
 * NULL. Texts and rows live in the result's memory (mem) until
 * db_report_free(result.mem); a result of 0 rows may have mem NULL.
 *
 * Errors: 0, or -1 with err naming the file and the first 60 bytes of the
 * query (or "out of memory reading the database"); the result is then
 * empty. Not thread-safe for one Db (db.h). */
#ifndef DAMA_DB_REPORT_H
#define DAMA_DB_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "db/db.h"

/* An integer column that is NULL, where a field can tell it from 0. */
#define DB_NULL_INT INT64_MIN

typedef struct DbReportMem DbReportMem; /* a result's rows and texts */

/* Free a result's memory (NULL: nothing). Its rows and texts are gone. */
void db_report_free(DbReportMem *mem);

/* A result: len rows. */
#define DB_REPORT_ROWS(Row) \
    struct { \
        Row *rows; \
        int len; \
        DbReportMem *mem; \
    }

/* ---- self-play runs ---------------------------------------------------------- */

/* A run of kind 'selfplay' with its games counted (results from White's view). */
typedef struct DbSelfplayRun {
    int64_t id;
    const char *game, *status, *created;
    int64_t games, positions, quiet_positions; /* quiet: no capture pending */
    int64_t white_wins, draws, black_wins;
    double mean_plies; /* NaN: no games */
} DbSelfplayRun;
typedef DB_REPORT_ROWS(DbSelfplayRun) DbSelfplayRuns;

/* Every self-play run, by id. */
int db_report_selfplay_runs(Db *db, const char *game, DbSelfplayRuns *out, char err[ERR_MAX]);

/* The games of one run ending for one reason ("(none)" for NULL). */
typedef struct DbEndReason {
    const char *reason;
    int64_t games, draws;
} DbEndReason;
typedef DB_REPORT_ROWS(DbEndReason) DbEndReasons;

/* How the games of run run_id ended: most games first, then by reason. */
int db_report_end_reasons(Db *db, int64_t run_id, DbEndReasons *out, char err[ERR_MAX]);

typedef DB_REPORT_ROWS(int64_t) DbPlies;

/* The length in plies of every game of run run_id that has one (any order). */
int db_report_game_plies(Db *db, int64_t run_id, DbPlies *out, char err[ERR_MAX]);

/* ---- tuning runs ------------------------------------------------------------- */

typedef struct DbTuningRunRow {
    int64_t id;
    int64_t run_id, base_ws, result_ws; /* DB_NULL_INT when NULL */
    const char *game, *status;          /* status: its run's, NULL without one */
    const char *data, *created;
    double k, train_loss, valid_loss;
    int64_t positions_train, positions_valid;
} DbTuningRunRow;
typedef DB_REPORT_ROWS(DbTuningRunRow) DbTuningRunRows;

/* Every tuning run, by id. */
int db_report_tuning_runs(Db *db, const char *game, DbTuningRunRows *out, char err[ERR_MAX]);

typedef struct DbEpoch {
    int64_t epoch;
    double train_loss, valid_loss; /* NaN: NULL (no validation set) */
} DbEpoch;
typedef DB_REPORT_ROWS(DbEpoch) DbEpochs;

/* The epochs of tuning run id, in order. */
int db_report_epochs(Db *db, int64_t id, DbEpochs *out, char err[ERR_MAX]);

/* ---- weight sets ------------------------------------------------------------- */

/* A weight set as stored (a delta set's terms and weights are its delta). */
typedef struct DbWeightSetRow {
    int64_t id, parent_id; /* parent_id 0: none */
    const char *game, *name, *how, *created, *terms, *weights;
} DbWeightSetRow;
typedef DB_REPORT_ROWS(DbWeightSetRow) DbWeightSetRows;

/* Every weight set not perturbed for self-play, by id (a parent before its
 * children). */
int db_report_weight_sets(Db *db, const char *game, DbWeightSetRows *out, char err[ERR_MAX]);

/* The value of the weight named `name` in ws (its stored terms and weights:
 * comma-separated, same order; a delta set holds only its delta). false
 * when ws does not name it or its value is not a number. */
bool db_report_weight_value(const DbWeightSetRow *ws, const char *name, double *value);

/* The weight sets perturbed from one parent (self-play members). */
typedef struct DbPerturbedGroup {
    int64_t parent_id; /* 0: none */
    int64_t count, min_id, max_id;
} DbPerturbedGroup;
typedef DB_REPORT_ROWS(DbPerturbedGroup) DbPerturbedGroups;

/* The perturbed weight sets grouped by parent, by parent id. */
int db_report_perturbed(Db *db, const char *game, DbPerturbedGroups *out, char err[ERR_MAX]);

/* ---- matches ----------------------------------------------------------------- */

/* A match with the names of its weight sets; counts from A's view. */
typedef struct DbMatchRow {
    int64_t id, run_id;
    int64_t ws_a, ws_b; /* DB_NULL_INT when NULL */
    const char *game, *name_a, *name_b, *created;
    int64_t games, wins, draws, losses;
    int64_t penta[5]; /* game pairs by A's points: 0, 1/2, 1, 3/2, 2 */
    double elo, elo_lo, elo_hi, llr;
    double sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta; /* NaN: no SPRT */
    const char *sprt_result;                            /* NULL while undecided */
    double sprt_llr;    /* LLR at the decision; NaN while undecided or before schema 4 */
    int64_t sprt_pairs; /* pairs counted at it */
    /* the time A (0) and B (1) used over the match's games, A White in the
     * games of even index (no timed moves before schema 11) */
    TimeUse time[2];
    int64_t untimed; /* its games without times; DB_NULL_INT before schema 11 */
    /* its run's configuration (runs.config: "name = value" lines, such as
     * "b-cmd = ./engine" or "a-dxp = 127.0.0.1:27531" for a side without a
     * weight set), NULL when none */
    const char *config;
} DbMatchRow;
typedef DB_REPORT_ROWS(DbMatchRow) DbMatchRows;

/* Every match, by id. */
int db_report_matches(Db *db, const char *game, DbMatchRows *out, char err[ERR_MAX]);

typedef struct DbMatchGame {
    int64_t game_index, white_ws, black_ws;
    const char *result, *opening;
} DbMatchGame;
typedef DB_REPORT_ROWS(DbMatchGame) DbMatchGames;

/* The games of run run_id, by game index. */
int db_report_run_games(Db *db, int64_t run_id, DbMatchGames *out, char err[ERR_MAX]);

/* ---- tournaments ------------------------------------------------------------- */

typedef struct DbTournamentRow {
    int64_t id, run_id, rounds, games_total, games_finished;
    const char *name, *format, *game, *status, *created;
} DbTournamentRow;
typedef struct DbTournamentRows {
    DbTournamentRow *rows;
    int len;
    DbReportMem *mem;
    bool exists; /* false: no tournaments table (a schema before 5) */
} DbTournamentRows;

/* Every tournament, by id. */
int db_report_tournaments(Db *db, const char *game, DbTournamentRows *out, char err[ERR_MAX]);

typedef struct DbParticipantRow {
    int64_t id, idx, weight_set; /* weight_set 0: none */
    const char *name, *kind, *spec, *limits;
    TimeUse time; /* over its games of the tournament, either colour (no timed moves before schema 11) */
} DbParticipantRow;
typedef DB_REPORT_ROWS(DbParticipantRow) DbParticipantRows;

/* The players of tournament id, by index. */
int db_report_participants(Db *db, int64_t id, DbParticipantRows *out, char err[ERR_MAX]);

/* A finished game of a tournament: participant ids and result. */
typedef struct DbTournamentGame {
    int64_t white, black;
    const char *result;
} DbTournamentGame;
typedef DB_REPORT_ROWS(DbTournamentGame) DbTournamentGames;

/* The finished games of tournament id with both players, in storing order. */
int db_report_tournament_games(Db *db, int64_t id, DbTournamentGames *out, char err[ERR_MAX]);

/* ---- generations ------------------------------------------------------------- */

typedef struct DbGenerationRow {
    int64_t train_id, generation;
    const char *stage, *reason, *game;
    /* DB_NULL_INT when NULL: */
    int64_t parent_generation, candidate_ws, tuning_run, gate_match, gate_games, accepted, ladder_match,
        ladder_games;
    double gate_elo, gate_elo_lo, gate_elo_hi, ladder_elo, ladder_elo_lo, ladder_elo_hi;
} DbGenerationRow;
typedef struct DbGenerationRows {
    DbGenerationRow *rows;
    int len;
    DbReportMem *mem;
    bool exists;         /* false: no generations table */
    const char *missing; /* a column the table lacks (static text; no rows then), NULL if none */
} DbGenerationRows;

/* Every generation of every train, by train and generation. */
int db_report_generations(Db *db, const char *game, DbGenerationRows *out, char err[ERR_MAX]);

#endif
