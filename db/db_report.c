/* db_report.c — the queries of `dama report` (contracts in db_report.h):
 * one read-only walker over the open connection fills a growing array of
 * typed rows, their texts copied into the result's memory; schema probes
 * for databases of older versions. */
#include "db/db_report.h"

#include "db/db_internal.h"

/* ---- a result's memory ------------------------------------------------------- */

/* Texts are copied into chunks that never move; rows are one array. */
typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    char text[];
} Chunk;

struct DbReportMem {
    void *rows;
    Chunk *chunks;
    bool oom;
};

void db_report_free(DbReportMem *mem)
{
    if (!mem) return;
    for (Chunk *c = mem->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(mem->rows);
    free(mem);
}

/* A copy of s in mem (NULL for NULL; NULL with mem->oom when out of memory). */
static const char *mem_text(DbReportMem *mem, const unsigned char *s)
{
    if (!s) return NULL;
    size_t len = strlen((const char *)s) + 1;
    Chunk *c = mem->chunks;
    if (!c || c->cap - c->used < len) {
        size_t cap = len > 4096 ? len : 4096;
        c = malloc(sizeof *c + cap);
        if (!c) {
            mem->oom = true;
            return NULL;
        }
        *c = (Chunk){.next = mem->chunks, .cap = cap};
        mem->chunks = c;
    }
    char *out = memcpy(c->text + c->used, s, len);
    c->used += len;
    return out;
}

/* ---- reading rows ------------------------------------------------------------ */

/* Column col of the current row: text (copied), real (NaN for NULL),
 * integer (0 for NULL) or integer with DB_NULL_INT for NULL. */
static const char *col_text(sqlite3_stmt *st, int col, DbReportMem *mem)
{
    return mem_text(mem, sqlite3_column_text(st, col));
}

static double col_real(sqlite3_stmt *st, int col)
{
    return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

static int64_t col_int(sqlite3_stmt *st, int col)
{
    return sqlite3_column_int64(st, col);
}

static int64_t col_opt(sqlite3_stmt *st, int col)
{
    return sqlite3_column_type(st, col) == SQLITE_NULL ? DB_NULL_INT : sqlite3_column_int64(st, col);
}

/* Fill row from the current row of st. */
typedef void (*RowFill)(sqlite3_stmt *st, void *row, DbReportMem *mem);

/* The rows of sql with ?1 = game (text or NULL) and ?2 = id, the parameters
 * the query names: *len rows of row_size bytes in (*mem)->rows. */
static int read_rows(Db *db, const char *sql, const char *game, int64_t id, size_t row_size, RowFill fill, int *len,
                     DbReportMem **mem, char err[ERR_MAX])
{
    *len = 0;
    *mem = NULL;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "preparing \"%.60s\"", sql);
        return -1;
    }
    int used = sqlite3_bind_parameter_count(st);
    if (used >= 1) rc = game ? sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC) : sqlite3_bind_null(st, 1);
    if (rc == SQLITE_OK && used >= 2) rc = sqlite3_bind_int64(st, 2, id);
    if (rc != SQLITE_OK) {
        dbi_fail(db, rc, err, "binding \"%.60s\"", sql);
        sqlite3_finalize(st);
        return -1;
    }
    DbReportMem *m = calloc(1, sizeof *m);
    char *rows = NULL;
    int n = 0, cap = 0;
    bool oom = !m;
    while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char *grown = realloc(rows, row_size * (size_t)cap);
            if (!grown) {
                oom = true;
                break;
            }
            rows = grown;
        }
        fill(st, rows + row_size * (size_t)n++, m);
        oom = m->oom;
    }
    sqlite3_finalize(st);
    if (m) m->rows = rows;
    else free(rows);
    if (oom || rc != SQLITE_DONE) {
        db_report_free(m);
        if (oom) set_err(err, "out of memory reading the database");
        else dbi_fail(db, rc, err, "reading \"%.60s\"", sql);
        return -1;
    }
    *len = n;
    *mem = m;
    return 0;
}

/* read_rows into a DB_REPORT_ROWS result `out`: 0 or -1. */
#define READ(db, sql, game, id, fill, out, err)                                                                   \
    (read_rows(db, sql, game, id, sizeof *(out)->rows, fill, &(out)->len, &(out)->mem, err) == 0                 \
         ? ((out)->rows = (out)->mem->rows, 0)                                                                   \
         : ((out)->rows = NULL, -1))

/* Does the database have this table (and, when column is not NULL, this
 * column in it)? */
static int has_column(Db *db, const char *table, const char *column, bool *exists, char err[ERR_MAX])
{
    *exists = false;
    sqlite3_stmt *st = NULL;
    const char *sql = column ? "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2"
                             : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1";
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && column) rc = sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        dbi_fail(db, rc, err, "looking for %s%s%s", table, column ? "." : "", column ? column : "");
        sqlite3_finalize(st);
        return -1;
    }
    *exists = sqlite3_column_int64(st, 0) > 0;
    sqlite3_finalize(st);
    return 0;
}

int db_schema_version(Db *db, int64_t *version, char err[ERR_MAX])
{
    return dbi_query_int(db, "PRAGMA user_version", version, err);
}

/* ---- self-play runs ---------------------------------------------------------- */

static const char SQL_SELFPLAY[] =
    "SELECT r.id, r.game, r.status, r.created, "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id), "
    "(SELECT count(*) FROM positions p WHERE p.game_id IN (SELECT id FROM games g WHERE g.run_id = r.id)), "
    "(SELECT count(*) FROM positions p WHERE p.quiet = 1 AND p.game_id IN (SELECT id FROM games g WHERE g.run_id = r.id)), "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id AND g.result = '1-0'), "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id AND g.result = '1/2-1/2'), "
    "(SELECT count(*) FROM games g WHERE g.run_id = r.id AND g.result = '0-1'), "
    "(SELECT avg(g.plies) FROM games g WHERE g.run_id = r.id) "
    "FROM runs r WHERE r.kind = 'selfplay' AND (?1 IS NULL OR r.game = ?1) ORDER BY r.id";
static const char SQL_REASONS[] =
    "SELECT coalesce(reason, '(none)'), count(*), sum(result = '1/2-1/2') FROM games WHERE run_id = ?2 "
    "GROUP BY 1 ORDER BY 2 DESC, 1";
static const char SQL_PLIES[] = "SELECT plies FROM games WHERE run_id = ?2 AND plies IS NOT NULL";

static void fill_selfplay(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbSelfplayRun *)row = (DbSelfplayRun){
        .id = col_int(st, 0), .game = col_text(st, 1, mem), .status = col_text(st, 2, mem),
        .created = col_text(st, 3, mem), .games = col_int(st, 4), .positions = col_int(st, 5),
        .quiet_positions = col_int(st, 6), .white_wins = col_int(st, 7), .draws = col_int(st, 8),
        .black_wins = col_int(st, 9), .mean_plies = col_real(st, 10)};
}

int db_report_selfplay_runs(Db *db, const char *game, DbSelfplayRuns *out, char err[ERR_MAX])
{
    return READ(db, SQL_SELFPLAY, game, 0, fill_selfplay, out, err);
}

static void fill_reason(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbEndReason *)row = (DbEndReason){.reason = col_text(st, 0, mem), .games = col_int(st, 1), .draws = col_int(st, 2)};
}

int db_report_end_reasons(Db *db, int64_t run_id, DbEndReasons *out, char err[ERR_MAX])
{
    return READ(db, SQL_REASONS, NULL, run_id, fill_reason, out, err);
}

static void fill_plies(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    (void)mem;
    *(int64_t *)row = col_int(st, 0);
}

int db_report_game_plies(Db *db, int64_t run_id, DbPlies *out, char err[ERR_MAX])
{
    return READ(db, SQL_PLIES, NULL, run_id, fill_plies, out, err);
}

/* ---- tuning runs ------------------------------------------------------------- */

static const char SQL_TUNING[] =
    "SELECT t.id, t.run_id, t.game, t.base_ws, t.result_ws, t.k, t.positions_train, t.positions_valid, "
    "t.train_loss, t.valid_loss, t.data, t.created, r.status "
    "FROM tuning_runs t LEFT JOIN runs r ON r.id = t.run_id WHERE (?1 IS NULL OR t.game = ?1) ORDER BY t.id";
static const char SQL_EPOCHS[] =
    "SELECT epoch, train_loss, valid_loss FROM tuning_epochs WHERE tuning_run_id = ?2 ORDER BY epoch";

static void fill_tuning(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbTuningRunRow *)row = (DbTuningRunRow){
        .id = col_int(st, 0), .run_id = col_opt(st, 1), .game = col_text(st, 2, mem), .base_ws = col_opt(st, 3),
        .result_ws = col_opt(st, 4), .k = col_real(st, 5), .positions_train = col_int(st, 6),
        .positions_valid = col_int(st, 7), .train_loss = col_real(st, 8), .valid_loss = col_real(st, 9),
        .data = col_text(st, 10, mem), .created = col_text(st, 11, mem), .status = col_text(st, 12, mem)};
}

int db_report_tuning_runs(Db *db, const char *game, DbTuningRunRows *out, char err[ERR_MAX])
{
    return READ(db, SQL_TUNING, game, 0, fill_tuning, out, err);
}

static void fill_epoch(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    (void)mem;
    *(DbEpoch *)row = (DbEpoch){.epoch = col_int(st, 0), .train_loss = col_real(st, 1), .valid_loss = col_real(st, 2)};
}

int db_report_epochs(Db *db, int64_t id, DbEpochs *out, char err[ERR_MAX])
{
    return READ(db, SQL_EPOCHS, NULL, id, fill_epoch, out, err);
}

/* ---- weight sets ------------------------------------------------------------- */

static const char SQL_WEIGHTS[] =
    "SELECT id, game, name, parent_id, how, created, terms, weights FROM weight_sets "
    "WHERE how NOT LIKE 'perturbed%' AND (?1 IS NULL OR game = ?1) ORDER BY id";
static const char SQL_PERTURBED[] =
    "SELECT parent_id, count(*), min(id), max(id) FROM weight_sets "
    "WHERE how LIKE 'perturbed%' AND (?1 IS NULL OR game = ?1) GROUP BY parent_id ORDER BY parent_id";

static void fill_weights(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbWeightSetRow *)row = (DbWeightSetRow){
        .id = col_int(st, 0), .game = col_text(st, 1, mem), .name = col_text(st, 2, mem), .parent_id = col_int(st, 3),
        .how = col_text(st, 4, mem), .created = col_text(st, 5, mem), .terms = col_text(st, 6, mem),
        .weights = col_text(st, 7, mem)};
}

int db_report_weight_sets(Db *db, const char *game, DbWeightSetRows *out, char err[ERR_MAX])
{
    return READ(db, SQL_WEIGHTS, game, 0, fill_weights, out, err);
}

static void fill_perturbed(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    (void)mem;
    *(DbPerturbedGroup *)row = (DbPerturbedGroup){
        .parent_id = col_int(st, 0), .count = col_int(st, 1), .min_id = col_int(st, 2), .max_id = col_int(st, 3)};
}

int db_report_perturbed(Db *db, const char *game, DbPerturbedGroups *out, char err[ERR_MAX])
{
    return READ(db, SQL_PERTURBED, game, 0, fill_perturbed, out, err);
}

bool db_report_weight_value(const DbWeightSetRow *ws, const char *name, double *value)
{
    size_t nlen = strlen(name);
    const char *t = ws->terms, *w = ws->weights;
    while (t && w && *t) {
        const char *tc = strchr(t, ',');
        size_t tl = tc ? (size_t)(tc - t) : strlen(t);
        if (tl == nlen && strncmp(t, name, nlen) == 0) {
            char *end;
            double x = strtod(w, &end);
            if (end == w || (*end != ',' && *end != '\0')) return false;
            *value = x;
            return true;
        }
        const char *wc = strchr(w, ',');
        t = tc ? tc + 1 : NULL;
        w = wc ? wc + 1 : NULL;
    }
    return false;
}

/* ---- matches ----------------------------------------------------------------- */

#define SQL_MATCHES(SPRT_DECISION, TIMES)                                                                       \
    "SELECT m.id, m.run_id, m.game, m.ws_a, m.ws_b, wa.name, wb.name, m.games, m.wins, m.draws, m.losses, "   \
    "m.penta0, m.penta1, m.penta2, m.penta3, m.penta4, m.elo, m.elo_lo, m.elo_hi, m.llr, "                     \
    "m.sprt_elo0, m.sprt_elo1, m.sprt_alpha, m.sprt_beta, m.sprt_result, " SPRT_DECISION ", m.created, "      \
    TIMES ", (SELECT config FROM runs WHERE id = m.run_id) "                                                \
    "FROM matches m LEFT JOIN weight_sets wa ON wa.id = m.ws_a LEFT JOIN weight_sets wb ON wb.id = m.ws_b " \
    "WHERE (?1 IS NULL OR m.game = ?1) ORDER BY m.id"
/* The time each side used over the match's games (schema 11): A is White
 * in the games of even index (dama match); then the games without times. */
#define RUN_SUM(EXPR) "(SELECT total(" EXPR ") FROM games g WHERE g.run_id = m.run_id)"
#define SIDE_COL(OWN, OTHER, COL) "CASE WHEN g.game_index % 2 = 0 THEN g." OWN "_" COL " ELSE g." OTHER "_" COL " END"
#define SIDE_SUMS(OWN, OTHER)                                                                                    \
    RUN_SUM(SIDE_COL(OWN, OTHER, "moves")) ", " RUN_SUM(SIDE_COL(OWN, OTHER, "wall_s")) ", "                    \
    RUN_SUM(SIDE_COL(OWN, OTHER, "cpu_s"))
#define MATCH_TIMES                                                                                              \
    SIDE_SUMS("white", "black") ", " SIDE_SUMS("black", "white")                                              \
    ", (SELECT count(*) - count(g.white_moves) FROM games g WHERE g.run_id = m.run_id)"
static const char SQL_MATCHES_11[] = SQL_MATCHES("m.sprt_llr, m.sprt_pairs", MATCH_TIMES);
static const char SQL_MATCHES_4[] = SQL_MATCHES("m.sprt_llr, m.sprt_pairs", "0, 0, 0, 0, 0, 0, NULL"); /* before 11 */
static const char SQL_MATCHES_1[] = SQL_MATCHES("NULL, NULL", "0, 0, 0, 0, 0, 0, NULL"); /* before schema 4 */
static const char SQL_RUN_GAMES[] =
    "SELECT game_index, white_ws, black_ws, result, opening FROM games WHERE run_id = ?2 ORDER BY game_index";

static void fill_match(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    DbMatchRow *m = row;
    *m = (DbMatchRow){
        .id = col_int(st, 0), .run_id = col_int(st, 1), .game = col_text(st, 2, mem), .ws_a = col_opt(st, 3),
        .ws_b = col_opt(st, 4), .name_a = col_text(st, 5, mem), .name_b = col_text(st, 6, mem),
        .games = col_int(st, 7), .wins = col_int(st, 8), .draws = col_int(st, 9), .losses = col_int(st, 10),
        .elo = col_real(st, 16), .elo_lo = col_real(st, 17), .elo_hi = col_real(st, 18), .llr = col_real(st, 19),
        .sprt_elo0 = col_real(st, 20), .sprt_elo1 = col_real(st, 21), .sprt_alpha = col_real(st, 22),
        .sprt_beta = col_real(st, 23), .sprt_result = col_text(st, 24, mem), .sprt_llr = col_real(st, 25),
        .sprt_pairs = col_int(st, 26), .created = col_text(st, 27, mem)};
    for (int k = 0; k < 5; k++) m->penta[k] = col_int(st, 11 + k);
    for (int i = 0; i < 2; i++)
        m->time[i] = (TimeUse){.moves = (int64_t)sqlite3_column_double(st, 28 + 3 * i),
                               .wall_s = sqlite3_column_double(st, 29 + 3 * i),
                               .cpu_s = sqlite3_column_double(st, 30 + 3 * i)};
    m->untimed = col_opt(st, 34);
    m->config = col_text(st, 35, mem);
}

int db_report_matches(Db *db, const char *game, DbMatchRows *out, char err[ERR_MAX])
{
    bool has_decision, has_times;
    *out = (DbMatchRows){0};
    if (has_column(db, "matches", "sprt_llr", &has_decision, err) != 0) return -1;
    if (has_column(db, "games", "white_moves", &has_times, err) != 0) return -1;
    const char *sql = has_times ? SQL_MATCHES_11 : has_decision ? SQL_MATCHES_4 : SQL_MATCHES_1;
    return READ(db, sql, game, 0, fill_match, out, err);
}

static void fill_run_game(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbMatchGame *)row = (DbMatchGame){.game_index = col_int(st, 0), .white_ws = col_int(st, 1),
                                        .black_ws = col_int(st, 2), .result = col_text(st, 3, mem),
                                        .opening = col_text(st, 4, mem)};
}

int db_report_run_games(Db *db, int64_t run_id, DbMatchGames *out, char err[ERR_MAX])
{
    return READ(db, SQL_RUN_GAMES, NULL, run_id, fill_run_game, out, err);
}

/* ---- tournaments ------------------------------------------------------------- */

static const char SQL_TOURNAMENTS[] =
    "SELECT t.id, t.run_id, t.name, t.format, t.rounds, t.games_total, r.game, r.status, t.created, "
    "(SELECT count(*) FROM games g WHERE g.run_id = t.run_id AND g.result IS NOT NULL) "
    "FROM tournaments t JOIN runs r ON r.id = t.run_id WHERE (?1 IS NULL OR r.game = ?1) ORDER BY t.id";
#define SQL_PARTICIPANTS_(TIMES)                                                                                  \
    "SELECT p.id, p.idx, p.name, p.kind, p.spec, p.limits, p.weight_set, " TIMES                                 \
    " FROM participants p WHERE p.tournament_id = ?2 ORDER BY p.idx"
/* The time the player used over its games of the tournament, either colour
 * (schema 11): moves, wall and CPU seconds. */
#define PLAYER_SUM(COL)                                                                                           \
    "(SELECT total(CASE WHEN g.white_player = p.id THEN g.white_" COL " ELSE g.black_" COL " END) FROM games g " \
    "WHERE g.run_id = (SELECT run_id FROM tournaments WHERE id = p.tournament_id) "                               \
    "AND p.id IN (g.white_player, g.black_player))"
static const char SQL_PARTICIPANTS_11[] =
    SQL_PARTICIPANTS_(PLAYER_SUM("moves") ", " PLAYER_SUM("wall_s") ", " PLAYER_SUM("cpu_s"));
static const char SQL_PARTICIPANTS[] = SQL_PARTICIPANTS_("0, 0, 0"); /* before schema 11 */
static const char SQL_TOURNAMENT_GAMES[] =
    "SELECT g.white_player, g.black_player, g.result FROM games g JOIN tournaments t ON t.run_id = g.run_id "
    "WHERE t.id = ?2 AND g.result IS NOT NULL AND g.white_player IS NOT NULL AND g.black_player IS NOT NULL "
    "ORDER BY g.id";

static void fill_tournament(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbTournamentRow *)row = (DbTournamentRow){
        .id = col_int(st, 0), .run_id = col_int(st, 1), .name = col_text(st, 2, mem), .format = col_text(st, 3, mem),
        .rounds = col_int(st, 4), .games_total = col_int(st, 5), .game = col_text(st, 6, mem),
        .status = col_text(st, 7, mem), .created = col_text(st, 8, mem), .games_finished = col_int(st, 9)};
}

int db_report_tournaments(Db *db, const char *game, DbTournamentRows *out, char err[ERR_MAX])
{
    *out = (DbTournamentRows){0};
    if (has_column(db, "tournaments", NULL, &out->exists, err) != 0) return -1;
    if (!out->exists) return 0;
    return READ(db, SQL_TOURNAMENTS, game, 0, fill_tournament, out, err);
}

static void fill_participant(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbParticipantRow *)row = (DbParticipantRow){
        .id = col_int(st, 0), .idx = col_int(st, 1), .name = col_text(st, 2, mem), .kind = col_text(st, 3, mem),
        .spec = col_text(st, 4, mem), .limits = col_text(st, 5, mem), .weight_set = col_int(st, 6),
        .time = {.moves = (int64_t)sqlite3_column_double(st, 7), .wall_s = sqlite3_column_double(st, 8),
                 .cpu_s = sqlite3_column_double(st, 9)}};
}

int db_report_participants(Db *db, int64_t id, DbParticipantRows *out, char err[ERR_MAX])
{
    bool has_times;
    *out = (DbParticipantRows){0};
    if (has_column(db, "games", "white_moves", &has_times, err) != 0) return -1;
    return READ(db, has_times ? SQL_PARTICIPANTS_11 : SQL_PARTICIPANTS, NULL, id, fill_participant, out, err);
}

static void fill_tournament_game(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbTournamentGame *)row =
        (DbTournamentGame){.white = col_int(st, 0), .black = col_int(st, 1), .result = col_text(st, 2, mem)};
}

int db_report_tournament_games(Db *db, int64_t id, DbTournamentGames *out, char err[ERR_MAX])
{
    return READ(db, SQL_TOURNAMENT_GAMES, NULL, id, fill_tournament_game, out, err);
}

/* ---- generations ------------------------------------------------------------- */

/* The columns of the generations table (schema 6, `dama train`) read here,
 * in the query's order. */
static const char *const GEN_COLUMNS[] = {"train_id",    "generation",   "stage",         "parent_generation",
                                          "candidate_ws", "tuning_run",  "gate_match",    "gate_elo",
                                          "gate_elo_lo",  "gate_elo_hi", "gate_games",    "accepted",
                                          "reason",       "ladder_match", "ladder_elo",   "ladder_elo_lo",
                                          "ladder_elo_hi", "ladder_games", "game"};
static const char SQL_GENERATIONS[] =
    "SELECT train_id, generation, stage, parent_generation, candidate_ws, tuning_run, gate_match, gate_elo, "
    "gate_elo_lo, gate_elo_hi, gate_games, accepted, reason, ladder_match, ladder_elo, ladder_elo_lo, ladder_elo_hi, "
    "ladder_games, game FROM generations WHERE (?1 IS NULL OR game = ?1) ORDER BY train_id, generation";

static void fill_generation(sqlite3_stmt *st, void *row, DbReportMem *mem)
{
    *(DbGenerationRow *)row = (DbGenerationRow){
        .train_id = col_int(st, 0), .generation = col_int(st, 1), .stage = col_text(st, 2, mem),
        .parent_generation = col_opt(st, 3), .candidate_ws = col_opt(st, 4), .tuning_run = col_opt(st, 5),
        .gate_match = col_opt(st, 6), .gate_elo = col_real(st, 7), .gate_elo_lo = col_real(st, 8),
        .gate_elo_hi = col_real(st, 9), .gate_games = col_opt(st, 10), .accepted = col_opt(st, 11),
        .reason = col_text(st, 12, mem), .ladder_match = col_opt(st, 13), .ladder_elo = col_real(st, 14),
        .ladder_elo_lo = col_real(st, 15), .ladder_elo_hi = col_real(st, 16), .ladder_games = col_opt(st, 17),
        .game = col_text(st, 18, mem)};
}

int db_report_generations(Db *db, const char *game, DbGenerationRows *out, char err[ERR_MAX])
{
    *out = (DbGenerationRows){0};
    if (has_column(db, "generations", NULL, &out->exists, err) != 0) return -1;
    if (!out->exists) return 0;
    for (size_t k = 0; k < sizeof GEN_COLUMNS / sizeof GEN_COLUMNS[0]; k++) {
        bool exists;
        if (has_column(db, "generations", GEN_COLUMNS[k], &exists, err) != 0) return -1;
        if (!exists) {
            out->missing = GEN_COLUMNS[k];
            return 0;
        }
    }
    return READ(db, SQL_GENERATIONS, game, 0, fill_generation, out, err);
}
