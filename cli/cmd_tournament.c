/* cmd_tournament.c — `dama tournament`: round robin or gauntlet of any mix
 * of in-process dama engines (weight sets) and external Hub engines, on
 * paired openings (each opening with both colours), with clocks,
 * adjudication and recovery from failing engines; every game in SQLite, a
 * crosstable, pentanomial counts per pairing and ratings fitted together.
 * Rerunning the same command (or adding --resume) continues an interrupted
 * tournament. */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "dist/relay.h"
#include "arena/schedule_dist.h"
#include "cli/egtb_opts.h"
#include "cli/pdn_export.h"
#include "cli/ratings_table.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/eval.h"
#include "dist/dist.h"
#include "pdn/pdn.h"
#include "arena/play.h"
#include "arena/player.h"
#include "arena/ratings.h"
#include "arena/schedule.h"
#include "arena/stats.h"
#include "util/rng.h"
#include "util/atomic_file.h"

enum { ENGINES_MAX = 64 };

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (created if missing)", 0, 0},
    {"name", OPT_STR, NULL, "a name for the tournament", 0, 0},
    {"format", OPT_STR, "round-robin", "round-robin (every pairing) or gauntlet (the first engine against each other)", 0, 0},
    {"rounds", OPT_INT, "1", "rounds: each plays every pairing once with both colours on a new opening", 1, 1000000},
    {"concurrency", OPT_INT, "0", "games played at once (0: all cores)", 0, 256},
    {"nodes", OPT_INT, NULL, "default limit: search nodes per move", 1, CLI_INT_MAX},
    {"depth", OPT_INT, NULL, "default limit: search depth per move", 1, 100},
    {"movetime", OPT_INT, NULL, "default limit: milliseconds per move", 1, 86400000},
    {"tc", OPT_STR, NULL, "default limit: a game clock MS+INC (milliseconds), e.g. 10000+100", 0, 0},
    {"timeout", OPT_INT, NULL, "ms an engine may take beyond its movetime or clock (default 1000), or per move "
                               "without either (default 10000), before it loses by 'timeout'", 1, 86400000},
    {"hash", OPT_INT, "1", "transposition table MiB per in-process engine (each concurrent game has its own; a new game clears it, so keep it small at small node counts)", 1, 65536},
    {"openings", OPT_STR, NULL, "opening book file (label<TAB>position); default: the game's book, else random", 0, 0},
    {"random-plies", OPT_INT, "4", "plies of random openings when there is no book", 0, 40},
    {"balance", OPT_INT, "60", "random openings: redraw a line a 2000-node search scores beyond +-N centi-men", 0, 100000},
    {"max-plies", OPT_INT, "300", "move cap in plies (adjudicated draw 'move-cap')", 1, 1000000},
    {"resign-moves", OPT_INT, "0", "resign adjudication: moves in a row (0: off)", 0, 100000},
    {"resign-score", OPT_INT, "600", "resign adjudication: own score at most -N centi-men", 1, 100000},
    {"draw-moves", OPT_INT, "0", "draw adjudication: moves of each side in a row (0: off)", 0, 100000},
    {"draw-score", OPT_INT, "10", "draw adjudication: both scores within +-N centi-men", 0, 100000},
    {"draw-after", OPT_INT, "60", "draw adjudication: not before this ply", 0, 100000},
    {"seed", OPT_INT, "1", "seed (opening order, random openings)", 0, CLI_INT_MAX},
    {"ratings-interval", OPT_INT, "0", "print ratings every N games (0: at the end only)", 0, CLI_INT_MAX},
    {"anchor", OPT_STR, NULL, "ratings: NAME or NAME=ELO fixed (default: the mean is 0)", 0, 0},
    {"prior", OPT_REAL, "2", "ratings: virtual games per pair of players who met", 0, 1000000},
    CLI_EGTB_OPTS,
    {"egtb-adjudicate", OPT_FLAG, NULL, "with --egtb: end a game at the first database position whose result the "
                                        "move-count rules cannot change (reason 'egtb')", 0, 0},
    {"pdn-out", OPT_STR, NULL, "append every game to this PDN file as it ends (stored with the tournament: a resume "
                               "appends to it; another file on resume is refused)", 0, 0},
    {"resume", OPT_FLAG, NULL, "continue the tournament of this same command (rerunning it does too; an error "
                               "if there is none), or without engines the newest unfinished one (or --tournament N) "
                               "with its stored engines and options", 0, 0},
    {"tournament", OPT_INT, NULL, "with --resume: the tournament to continue", 1, CLI_INT_MAX},
    {"progress", OPT_REAL, "10", "seconds between progress lines (0: none)", 0, 86400},
    CLI_MPI_OPT,
    {0},
};

/* Options that do not change which games are played: left out of the
 * configuration that identifies a tournament for resume. */
static const char *const NOT_IDENTITY[] = {"db", "concurrency", "progress", "ratings-interval", "anchor",
                                           "prior", "pdn-out", "resume", "tournament", "mpi", NULL};

static bool is_identity(const char *name)
{
    for (int i = 0; NOT_IDENTITY[i]; i++)
        if (strcmp(NOT_IDENTITY[i], name) == 0) return false;
    return true;
}

/* The value of line "key = value" in a stored configuration (NULL if none). */
static const char *config_value(const char *line, const char *key, size_t *len)
{
    size_t k = strlen(key);
    if (strncmp(line, key, k) != 0 || strncmp(line + k, " = ", 3) != 0) return NULL;
    const char *v = line + k + 3, *end = strchr(v, '\n');
    *len = end ? (size_t)(end - v) : strlen(v);
    return v;
}

/* Line n (0-based) of text that starts with prefix, without its end;
 * NULL if none. */
static const char *nth_line(const char *text, const char *prefix, int n, int *len)
{
    size_t pl = strlen(prefix);
    for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
        if (strncmp(l, prefix, pl) != 0 || n-- > 0) continue;
        *len = (int)strcspn(l, "\n");
        return l;
    }
    return NULL;
}

/* The line of text whose key is the key of line (up to " = "). */
static const char *same_key(const char *text, const char *line, int *len)
{
    const char *eq = strstr(line, " = ");
    char key[80];
    snprintf(key, sizeof key, "%.*s = ", eq ? (int)(eq - line) : 0, line);
    return nth_line(text, key, 0, len);
}

/* Why configuration `given` is not the stored one of tournament tid: the
 * first engine, then the first option that differs. */
static void config_diff(const char *given, const char *stored, int64_t tid, char err[ERR_MAX])
{
    enum { W = 120 };
    for (int i = 0;; i++) {
        int gl = 0, sl = 0;
        const char *ge = nth_line(given, "engine = ", i, &gl), *se = nth_line(stored, "engine = ", i, &sl);
        if (!ge && !se) break;
        if (ge) ge += 9, gl -= 9;
        if (se) se += 9, sl -= 9;
        if (ge && se && gl == sl && strncmp(ge, se, (size_t)gl) == 0) continue;
        if (ge && se)
            snprintf(err, ERR_MAX, "--resume: engine %d is '%.*s' here but '%.*s' in tournament %lld", i + 1,
                     gl < W ? gl : W, ge, sl < W ? sl : W, se, (long long)tid);
        else if (ge)
            snprintf(err, ERR_MAX, "--resume: engine %d '%.*s' is given here, but tournament %lld has %d engines",
                     i + 1, gl < W ? gl : W, ge, (long long)tid, i);
        else
            snprintf(err, ERR_MAX, "--resume: tournament %lld also has engine %d '%.*s'", (long long)tid, i + 1,
                     sl < W ? sl : W, se);
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *from = pass ? given : stored, *other = pass ? stored : given;
        for (const char *l = from; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
            int n = (int)strcspn(l, "\n"), on = 0;
            if (strncmp(l, "engine = ", 9) == 0) continue;
            const char *o = same_key(other, l, &on);
            if (o && on == n && strncmp(o, l, (size_t)n) == 0) continue;
            if (!o && pass)
                snprintf(err, ERR_MAX, "--resume: '%.*s' is given here, but tournament %lld has no such option",
                         n < W ? n : W, l, (long long)tid);
            else if (!o)
                snprintf(err, ERR_MAX, "--resume: tournament %lld has '%.*s', not given here", (long long)tid,
                         n < W ? n : W, l);
            else
                snprintf(err, ERR_MAX, "--resume: '%.*s' here, but '%.*s' in tournament %lld", on < W ? on : W, o,
                         n < W ? n : W, l, (long long)tid);
            return;
        }
    }
    snprintf(err, ERR_MAX, "--resume: the configuration of tournament %lld is not this one", (long long)tid);
}

/* --resume without engines: take the engines and identity options of the
 * stored tournament (--tournament N, else the newest unfinished one). An
 * identity option given here must agree with the stored one. On success
 * a->positional points to *owned (free with free_owned). Returns 0 or -1
 * with err. */
static int resume_args(CliArgs *a, char ***owned, int *owned_len, int64_t *want_run, char err[ERR_MAX])
{
    Db *db = NULL;
    int64_t tid = cli_isset(a, "tournament") ? cli_int(a, "tournament") : 0, run_id = 0;
    DbRun run = {0};
    int rc = db_open(cli_str(a, "db"), false, &db, err);
    if (rc == 0) rc = db_tournament_find(db, &tid, &run_id, err);
    if (rc == 0 && !run_id) {
        if (cli_isset(a, "tournament"))
            snprintf(err, ERR_MAX, "--resume: no tournament %lld in %.200s", (long long)cli_int(a, "tournament"),
                     cli_str(a, "db"));
        else
            snprintf(err, ERR_MAX, "--resume: no unfinished tournament in %.150s (give its engines, or --tournament N)",
                     cli_str(a, "db"));
        rc = -1;
    }
    if (rc == 0) rc = db_run_get(db, run_id, &run, err);
    db_close(db);
    if (rc != 0) {
        db_run_clear(&run);
        return -1;
    }
    const char *cfg = run.config ? run.config : "";
    int engines = 0;
    for (const char *l = cfg; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) engines += strncmp(l, "engine = ", 9) == 0;
    *owned = calloc((size_t)(engines ? engines : 1), sizeof **owned);
    *owned_len = 0;
    if (!*owned) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    /* every identity option: the stored value, or unset when the stored configuration has none */
    for (int i = 0; rc == 0 && i < a->opts_len; i++) {
        const char *name = a->opts[i].name;
        if (!is_identity(name)) continue;
        const char *v = NULL;
        size_t vlen = 0;
        for (const char *l = cfg; *l && !v; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) v = config_value(l, name, &vlen);
        if (a->from_cli[i] && (!v || strlen(a->values[i]) != vlen || strncmp(a->values[i], v, vlen) != 0)) {
            snprintf(err, ERR_MAX, "--resume: --%s %.60s contradicts tournament %lld, which has %s%.*s", name,
                     a->values[i], (long long)tid, v ? "" : "no --", v ? (int)(vlen < 100 ? vlen : 100) : (int)strlen(name),
                     v ? v : name);
            rc = -1;
            break;
        }
        free(a->values[i]);
        a->values[i] = v ? strndup(v, vlen) : NULL;
        if (v && !a->values[i]) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
        }
    }
    for (const char *l = cfg; rc == 0 && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
        size_t n = strcspn(l, "\n");
        if (strncmp(l, "engine = ", 9) == 0) {
            if (!((*owned)[(*owned_len)++] = strndup(l + 9, n - 9))) {
                snprintf(err, ERR_MAX, "out of memory");
                rc = -1;
            }
            continue;
        }
        bool known = false;
        for (int i = 0; i < a->opts_len && !known; i++) {
            size_t k = strlen(a->opts[i].name);
            known = n > k + 3 && strncmp(l, a->opts[i].name, k) == 0 && strncmp(l + k, " = ", 3) == 0;
        }
        if (!known) {
            snprintf(err, ERR_MAX, "--resume: tournament %lld was stored with '%.*s', which this dama does not know",
                     (long long)tid, (int)(n < 100 ? n : 100), l);
            rc = -1;
        }
    }
    db_run_clear(&run);
    if (rc != 0) return -1;
    a->positional = *owned;
    a->positional_len = *owned_len;
    *want_run = run_id;
    return 0;
}

enum { PDN_PATH_MAX = 1024 };

/* path made absolute against the working folder (no symbolic link is
 * resolved: the file may not exist yet). Returns 0, or -1 with err. */
static int absolute_path(const char *path, char out[PDN_PATH_MAX], char err[ERR_MAX])
{
    char cwd[PDN_PATH_MAX];
    if (!*path) {
        snprintf(err, ERR_MAX, "an empty file name");
        return -1;
    }
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd)) {
        snprintf(err, ERR_MAX, "'%.100s': the working folder: %s", path, strerror(errno));
        return -1;
    }
    int n = path[0] == '/' ? snprintf(out, PDN_PATH_MAX, "%s", path)
                           : snprintf(out, PDN_PATH_MAX, "%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 : path);
    if (n < 0 || n >= PDN_PATH_MAX) {
        snprintf(err, ERR_MAX, "'%.100s...': longer than %d bytes as an absolute path", path, PDN_PATH_MAX - 1);
        return -1;
    }
    return 0;
}

/* Can games be appended to path (absolute)? An existing file must be a
 * writable file, a new one needs a writable folder. Checked before anything
 * is stored, so that a bad --pdn-out is not a tournament left "running".
 * Returns 0, or -1 with err. */
static int check_appendable(const char *path, char err[ERR_MAX])
{
    struct stat st;
    if (stat(path, &st) == 0) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : access(path, W_OK) != 0 ? errno : 0;
        if (e) snprintf(err, ERR_MAX, "cannot append to '%.180s': %s", path, strerror(e));
        return e ? -1 : 0;
    }
    if (errno != ENOENT) {
        snprintf(err, ERR_MAX, "cannot append to '%.180s': %s", path, strerror(errno));
        return -1;
    }
    char dir[PDN_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir) slash[1] = '\0';
    else if (slash) *slash = '\0';
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
        int e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : errno;
        snprintf(err, ERR_MAX, "cannot create '%.120s': its folder '%.100s': %s", path, dir, strerror(e));
        return -1;
    }
    return 0;
}

static void free_owned(char **owned, int len)
{
    for (int i = 0; owned && i < len; i++) free(owned[i]);
    free(owned);
}

typedef struct Tour {
    const Game *g;
    int n;
    PlayerSpec specs[ENGINES_MAX];
    int32_t *weights[ENGINES_MAX]; /* in-process engines' weights */
    int64_t ws_id[ENGINES_MAX];
    int64_t pid[ENGINES_MAX]; /* participants.id */
    int pairings;
    int pair_a[ENGINES_MAX * ENGINES_MAX / 2], pair_b[ENGINES_MAX * ENGINES_MAX / 2];
    int rounds;
    int64_t games_total;
    signed char *result; /* per game index: -1 not played, else White's half points */
    int64_t done_games;
} Tour;

/* game index -> round, pairing, colour (0: pair_a plays White). */
static void game_slot(const Tour *t, int64_t gi, int *round, int *pairing, int *swap)
{
    *swap = (int)(gi % 2);
    int64_t u = gi / 2;
    *pairing = (int)(u % t->pairings);
    *round = (int)(u / t->pairings);
}

static void game_players(const Tour *t, int64_t gi, int *white, int *black)
{
    int r, k, c;
    game_slot(t, gi, &r, &k, &c);
    *white = c ? t->pair_b[k] : t->pair_a[k];
    *black = c ? t->pair_a[k] : t->pair_b[k];
}

typedef struct Loaded {
    Tour *t;
    int64_t run_id;
} Loaded;

static int load_result(void *ctx, const DbGameRow *g)
{
    Tour *t = ((Loaded *)ctx)->t;
    if (g->game_index < 0 || g->game_index >= t->games_total || !g->result) return 0;
    t->result[g->game_index] = (signed char)(strcmp(g->result, "1-0") == 0 ? 2 : strcmp(g->result, "0-1") == 0 ? 0 : 1);
    return 0;
}

static void print_ratings(FILE *out, const Tour *t, const CliArgs *a)
{
    RatingsGame *games = malloc(sizeof *games * (size_t)(t->games_total ? t->games_total : 1));
    if (!games) return;
    int64_t len = 0;
    for (int64_t gi = 0; gi < t->games_total; gi++) {
        if (t->result[gi] < 0) continue;
        int w, b;
        game_players(t, gi, &w, &b);
        games[len++] = (RatingsGame){w, b, t->result[gi]};
    }
    const char *names[ENGINES_MAX];
    for (int i = 0; i < t->n; i++) names[i] = t->specs[i].name;
    RatingsOptions opt;
    ratings_options_default(&opt);
    opt.prior = cli_real(a, "prior");
    opt.names = names;
    char err[ERR_MAX];
    if (cli_str(a, "anchor") && ratings_parse_anchor(cli_str(a, "anchor"), names, t->n, &opt.anchor, &opt.anchor_elo,
                                                     err) != 0) {
        fprintf(out, "ratings: %s\n", err);
        free(games);
        return;
    }
    RatingsFit fit;
    char rerr[RATINGS_ERR_MAX];
    if (len == 0) fprintf(out, "ratings: no games yet\n");
    else if (ratings_fit(t->n, games, len, &opt, &fit, rerr) != 0) fprintf(out, "%s\n", rerr);
    else {
        fprintf(out, "ratings after %lld games (maximum likelihood, all players together):\n", (long long)len);
        ratings_table_print(out, &fit, names, &opt);
    }
    free(games);
}

static void print_results(FILE *out, const Tour *t)
{
    int n = t->n;
    double score[ENGINES_MAX][ENGINES_MAX] = {{0}};
    int games[ENGINES_MAX][ENGINES_MAX] = {{0}}, draws[ENGINES_MAX][ENGINES_MAX] = {{0}};
    for (int64_t gi = 0; gi < t->games_total; gi++) {
        if (t->result[gi] < 0) continue;
        int w, b;
        game_players(t, gi, &w, &b);
        score[w][b] += t->result[gi] / 2.0;
        score[b][w] += (2 - t->result[gi]) / 2.0;
        games[w][b]++;
        games[b][w]++;
        if (t->result[gi] == 1) draws[w][b]++, draws[b][w]++;
    }
    int width = 6;
    for (int i = 0; i < n; i++)
        if ((int)strlen(t->specs[i].name) > width) width = (int)strlen(t->specs[i].name);
    if (width > 24) width = 24;
    fprintf(out, "crosstable: points of the row against the column (games, draws)\n%-*s", width + 2, "");
    for (int j = 0; j < n; j++) fprintf(out, " %16.*s", 16, t->specs[j].name);
    fprintf(out, " %16s\n", "total");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%-*.*s  ", width, width, t->specs[i].name);
        double total = 0;
        int tg = 0;
        for (int j = 0; j < n; j++) {
            if (i == j || games[i][j] == 0) {
                fprintf(out, " %16s", i == j ? "-" : "");
                continue;
            }
            char cell[48];
            snprintf(cell, sizeof cell, "%.1f (%d, %d)", score[i][j], games[i][j], draws[i][j]);
            fprintf(out, " %16s", cell);
            total += score[i][j];
            tg += games[i][j];
        }
        char cell[48];
        snprintf(cell, sizeof cell, "%.1f/%d", total, tg);
        fprintf(out, " %16s\n", cell);
    }
    fprintf(out, "pairings (first named = A; pentanomial counts of A's pair scores 0, 1/2, 1, 3/2, 2):\n");
    for (int k = 0; k < t->pairings; k++) {
        MatchStats st;
        stats_init(&st);
        for (int r = 0; r < t->rounds; r++) {
            int64_t g0 = ((int64_t)r * t->pairings + k) * 2;
            int res[2] = {-1, -1};
            for (int c = 0; c < 2; c++) {
                int v = t->result[g0 + c];
                if (v < 0) continue;
                res[c] = c == 0 ? v : 2 - v; /* A's half points: A is White in game 0 */
            }
            if (res[0] >= 0 && res[1] >= 0) stats_add_pair(&st, (StatsResult)res[0], (StatsResult)res[1]);
            else if (res[0] >= 0) stats_add_game(&st, (StatsResult)res[0]);
            else if (res[1] >= 0) stats_add_game(&st, (StatsResult)res[1]);
        }
        if (stats_count_games(&st) == 0) continue;
        char line[STATS_LINE_MAX];
        stats_format_line(&st, NULL, line);
        fprintf(out, "  %s vs %s: %s\n", t->specs[t->pair_a[k]].name, t->specs[t->pair_b[k]].name, line);
    }
}

typedef struct StoreCtx {
    Db *db;
    FILE *pdn;
    const char *pdn_path;
    char tournament_name[128];
    int64_t tournament_id;
} StoreCtx;

/* Store one finished game (caller holds the critical section). */
static int store_game(StoreCtx *sc, Tour *t, int64_t run_id, int64_t gi, const Opening *op, const PlayRecord *rec,
                      uint64_t seed, char err[ERR_MAX])
{
    int w, b, r, k, c;
    game_players(t, gi, &w, &b);
    game_slot(t, gi, &r, &k, &c);
    DbGame meta = {.run_id = run_id, .game_index = gi, .game = t->g->name, .opening = op->label,
                   .start_fen = op->fen, .white_ws = t->ws_id[w], .black_ws = t->ws_id[b], .seed = seed,
                   .result = outcome_pdn(rec->outcome), .reason = rec->reason, .plies = rec->plies,
                   .movetext = rec->movetext ? rec->movetext : ""};
    int64_t game_id = 0;
    int rc = db_begin(sc->db, err);
    if (rc == 0) rc = db_game_insert(sc->db, &meta, &game_id, err);
    if (rc == 0)
        rc = db_game_set_players(sc->db, game_id, t->pid[w], t->pid[b], r, rec->detail[0] ? rec->detail : NULL, err);
    if (rc == 0) rc = db_commit(sc->db, err);
    else db_rollback(sc->db);
    if (rc != 0) return -1;
    if (sc->pdn) {
        DbGameRow row = {.id = game_id, .run_id = run_id, .game_index = gi, .round = r,
                         .tournament_id = sc->tournament_id, .run_kind = "tournament", .game = t->g->name,
                         .opening = op->label, .start_fen = op->fen, .white = t->specs[w].name,
                         .black = t->specs[b].name, .result = meta.result, .reason = rec->reason,
                         .movetext = meta.movetext, .created = NULL,
                         .tournament_name = sc->tournament_name[0] ? sc->tournament_name : NULL};
        if (pdn_export_row(sc->pdn, &row, err) != 0 || fflush(sc->pdn) != 0) {
            snprintf(err, ERR_MAX, "--pdn-out: writing %.180s failed: %s", sc->pdn_path, strerror(errno));
            return -1;
        }
    }
    t->result[gi] = (signed char)outcome_score_white(rec->outcome);
    return 0;
}

/* On resume: the stored participants must be these engines, in order. */
static int fill_participant(void *ctx, const DbParticipant *p)
{
    Tour *t = ctx;
    if (p->idx < 0 || p->idx >= t->n || strcmp(p->name, t->specs[p->idx].name) != 0) return 1;
    t->pid[p->idx] = p->id;
    t->ws_id[p->idx] = p->weight_set;
    return 0;
}

/* The scheduler's view of a tournament: one job per game still to play. */
typedef struct TourRun {
    Tour *t;
    const CliArgs *a;
    StoreCtx *sc;
    const OpeningBook *book;
    const int64_t *todo;
    int64_t run_id, offset, interval;
    uint64_t seed;
    RunProgress *prog;
} TourRun;

static const Opening *tour_opening(const TourRun *tr, int64_t gi)
{
    int r, k, c;
    game_slot(tr->t, gi, &r, &k, &c);
    return &tr->book->items[(tr->offset + r) % tr->book->len];
}

static void tour_job_game(void *ctx, int64_t job, int k, int *white, int *black, Position *start)
{
    (void)k;
    const TourRun *tr = ctx;
    int64_t gi = tr->todo[job];
    game_players(tr->t, gi, white, black);
    char err[ERR_MAX];
    tr->t->g->pos_from_fen(start, tour_opening(tr, gi)->fen, err); /* the book's lines were checked when read */
}

static int tour_game_done(void *ctx, int64_t job, int k, int white, int black, const PlayRecord *rec, char err[ERR_MAX])
{
    (void)k;
    TourRun *tr = ctx;
    Tour *t = tr->t;
    int64_t gi = tr->todo[job];
    if (store_game(tr->sc, t, tr->run_id, gi, tour_opening(tr, gi), rec, tr->seed, err) != 0) return -1;
    t->done_games++;
    if (rec->fault != PLAYER_OK)
        fprintf(stderr, "game %lld/%lld: %s loses by %s: %.300s\n", (long long)gi + 1, (long long)t->games_total,
                t->specs[rec->fault_side == COLOR_WHITE ? white : black].name, rec->reason, rec->detail);
    run_progress_update(tr->prog, t->done_games, NULL, false);
    if (tr->interval > 0 && t->done_games % tr->interval == 0) print_ratings(stderr, t, tr->a);
    return 0;
}

static int parse_engines(Tour *t, const CliArgs *a, char err[ERR_MAX])
{
    PlayerLimits def = {.nodes = 1000};
    const char *keys[] = {"nodes", "depth", "movetime", "tc"};
    int set = 0;
    for (int i = 0; i < 4; i++) {
        if (!cli_isset(a, keys[i])) continue;
        set++;
        char v[64];
        snprintf(v, sizeof v, "%s", cli_str(a, keys[i]));
        if (player_limits_set(&def, i == 3 ? "time" : keys[i], v, err) != 0) return -1;
    }
    if (set > 1) {
        snprintf(err, ERR_MAX, "give at most one of --nodes, --depth, --movetime, --tc (engines may override it)");
        return -1;
    }
    if (cli_isset(a, "timeout")) {
        char v[32];
        snprintf(v, sizeof v, "%s", cli_str(a, "timeout"));
        if (player_limits_set(&def, "timeout", v, err) != 0) return -1;
    }
    t->n = a->positional_len;
    if (t->n < 2 || t->n > ENGINES_MAX) {
        snprintf(err, ERR_MAX, "need 2..%d engines (e.g. name=A,weights=default name=B,cmd=\"dama hub\")", ENGINES_MAX);
        return -1;
    }
    int64_t hash = cli_int(a, "hash");
    for (int i = 0; i < t->n; i++) {
        if (player_spec_parse(a->positional[i], i, &def, hash, &t->specs[i], err) != 0) return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(t->specs[i].name, t->specs[j].name) == 0) {
                snprintf(err, ERR_MAX, "two engines are named '%s'", t->specs[i].name);
                return -1;
            }
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    Tour t;
    memset(&t, 0, sizeof t);
    char **owned = NULL;
    int owned_len = 0;
    int64_t want_run = 0; /* --resume without engines: the stored tournament's run */
    if (cli_isset(a, "tournament") && !cli_flag(a, "resume")) {
        fprintf(stderr, "dama tournament: --tournament N goes with --resume\n");
        return 2;
    }
    if (cli_mpi_start(a, "tournament") != 0) return 2;
    /* --mpi: the games over the ranks (game j of those to play on rank j
     * mod K); rank 0 alone reads and writes the database and the PDN file
     * and sends the others what they need. */
    const bool dist = dist_size() > 1, writer = dist_rank() == 0;
    if (dist && cli_flag(a, "resume") && a->positional_len == 0) {
        fprintf(stderr, "dama tournament: --resume over MPI needs the engines: run the same command again (the "
                        "ranks other than 0 cannot read the database)\n");
        return 2;
    }
    if (cli_flag(a, "resume") && a->positional_len == 0) {
        if (resume_args(a, &owned, &owned_len, &want_run, err) != 0) {
            fprintf(stderr, "dama tournament: %s\n", err);
            free_owned(owned, owned_len);
            return 1;
        }
        g = cli_game(a);
        if (!g) {
            free_owned(owned, owned_len);
            return 2;
        }
    }
    t.g = g;
    if (parse_engines(&t, a, err) != 0) {
        fprintf(stderr, "dama tournament: %s\n", err);
        free_owned(owned, owned_len);
        return 2;
    }
    const char *format = cli_str(a, "format");
    bool gauntlet = strcmp(format, "gauntlet") == 0;
    if (!gauntlet && strcmp(format, "round-robin") != 0) {
        fprintf(stderr, "dama tournament: --format '%s': must be round-robin or gauntlet\n", format);
        return 2;
    }
    int64_t rounds = cli_int(a, "rounds"), concurrency = cli_int(a, "concurrency"), max_plies = cli_int(a, "max-plies");
    /* these counts, --hash and --prior: ranges checked by cli_parse */
    if (concurrency == 0) concurrency = dist_node_cores(); /* all cores, shared by the ranks of a node */
    { /* each game slot holds every in-process engine (schedule.c); the probe is per engine */
        int slots = (int)(concurrency < t.n * (t.n - 1) * rounds ? concurrency : t.n * (t.n - 1) * rounds);
        for (int i = 0; i < t.n; i++) {
            if (t.specs[i].kind != PLAYER_DAMA) continue;
            char opt[96];
            if (cli_int(a, "hash") == t.specs[i].hash_mb) snprintf(opt, sizeof opt, "--hash %lld", (long long)t.specs[i].hash_mb);
            else snprintf(opt, sizeof opt, "engine '%s': hash=%lld", t.specs[i].name, (long long)t.specs[i].hash_mb);
            if (run_check_hash(g, t.specs[i].hash_mb, slots, opt, err) != 0) {
                fprintf(stderr, "dama tournament: %s\n", err);
                free_owned(owned, owned_len);
                return 1;
            }
        }
    }
    char aerr[ATOMIC_ERR_MAX]; /* before anything is stored: a refused command leaves no tournament */
    if (writer && cli_str(a, "pdn-out") && atomic_file_not_db(cli_str(a, "pdn-out"), cli_str(a, "db"), aerr) != 0) {
        fprintf(stderr, "dama tournament: --pdn-out: %s\n", aerr); /* appending to it would corrupt it */
        if (dist) dist_abort(1);
        free_owned(owned, owned_len);
        return 1;
    }
    char pdn_given[PDN_PATH_MAX] = ""; /* --pdn-out as an absolute path: stored, compared on resume */
    if (cli_str(a, "pdn-out") && absolute_path(cli_str(a, "pdn-out"), pdn_given, err) != 0) {
        fprintf(stderr, "dama tournament: --pdn-out: %s\n", err);
        free_owned(owned, owned_len);
        return 2;
    }
    if (pdn_given[0] && writer && check_appendable(pdn_given, err) != 0) {
        fprintf(stderr, "dama tournament: --pdn-out: %s\n", err);
        if (dist) dist_abort(1);
        free_owned(owned, owned_len);
        return 1;
    }
    Egtb *edb = NULL; /* closed at the end (early returns before any game leave it to the process end) */
    if (cli_egtb_open(a, g, "tournament", &edb) != 0) {
        if (dist) dist_abort(1);
        free_owned(owned, owned_len);
        return 1;
    }
    for (int i = 0; i < t.n; i++)
        for (int j = i + 1; j < t.n; j++) {
            if (gauntlet && i != 0) continue;
            t.pair_a[t.pairings] = i;
            t.pair_b[t.pairings] = j;
            t.pairings++;
        }
    t.rounds = (int)rounds;
    t.games_total = rounds * t.pairings * 2;
    uint64_t seed = (uint64_t)cli_int(a, "seed");

    /* identity of the tournament: the options that decide its games, and every engine */
    size_t cfg_size = 8192 + (size_t)t.n * (PLAYER_SPEC_MAX + 32);
    char *config = malloc(cfg_size);
    t.result = malloc((size_t)t.games_total);
    if (!config || !t.result) {
        fprintf(stderr, "dama tournament: out of memory\n");
        if (dist) dist_abort(1);
        free(config);
        free(t.result);
        return 1;
    }
    memset(t.result, -1, (size_t)t.games_total);
    /* without --egtb, --egtb-pieces changes nothing: left out, so that a
     * tournament stored before these options existed is still this one */
    const char *skip[sizeof NOT_IDENTITY / sizeof NOT_IDENTITY[0] + 1];
    size_t skip_len = 0;
    for (; NOT_IDENTITY[skip_len]; skip_len++) skip[skip_len] = NOT_IDENTITY[skip_len];
    if (!cli_isset(a, "egtb")) skip[skip_len++] = "egtb-pieces";
    skip[skip_len] = NULL;
    cli_config_text(a, skip, config, cfg_size);
    for (int i = 0; i < t.n; i++) {
        size_t len = strlen(config);
        snprintf(config + len, cfg_size - len, "engine = %s\n", a->positional[i]);
    }

    OpeningBook book = {0};
    Db *db = NULL;
    int64_t run_id = 0, tid = 0;
    const char **names = weight_names_new(g);
    int rc = names ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    if (rc == 0) rc = run_openings(g, a, seed, &book, err);
    /* an engine command that cannot start is an error before the database
     * is touched, not a tournament whose games that engine all lost */
    for (int i = 0; rc == 0 && writer && i < t.n; i++) {
        char who[PLAYER_NAME_MAX + 16];
        snprintf(who, sizeof who, "engine '%s'", t.specs[i].name);
        rc = run_check_engine(g, &t.specs[i], who, err);
    }
    if (rc == 0 && writer) rc = db_open(cli_str(a, "db"), true, &db, err);
    for (int i = 0; rc == 0 && i < t.n; i++) {
        if (t.specs[i].kind != PLAYER_DAMA) continue;
        t.weights[i] = eval_weights_new(g);
        if (!t.weights[i]) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
            break;
        }
        if (!writer) continue; /* rank 0 sends them */
        rc = weights_resolve_db(g, t.specs[i].spec, db, t.weights[i], NULL, err);
        if (rc != 0) {
            char e2[ERR_MAX];
            snprintf(e2, sizeof e2, "engine '%.40s': %.200s", t.specs[i].name, err);
            memcpy(err, e2, ERR_MAX);
        }
    }
    char status[DB_STATUS_MAX] = "";
    if (rc == 0 && !writer) {
        /* the others wait for rank 0's set-up */
    } else if (rc == 0 && want_run) { /* the stored tournament itself: its configuration was rebuilt above */
        DbRun run = {0};
        rc = db_run_get(db, want_run, &run, err);
        if (rc == 0 && strcmp(run.config ? run.config : "", config) == 0) run_id = want_run;
        db_run_clear(&run);
    } else if (rc == 0) {
        rc = db_run_find(db, "tournament", g->name, seed, config, &run_id, status, err);
    }
    if (rc == 0 && run_id) rc = db_tournament_by_run(db, run_id, &tid, err);
    bool resumed = run_id && tid;
    if (rc == 0 && cli_flag(a, "resume") && (!resumed || (cli_isset(a, "tournament") && tid != cli_int(a, "tournament")))) {
        /* name what differs from the tournament meant */
        int64_t ctid = cli_isset(a, "tournament") ? cli_int(a, "tournament") : 0, crun = 0;
        DbRun run = {0};
        if (want_run) crun = want_run, rc = db_tournament_by_run(db, crun, &ctid, err);
        else rc = db_tournament_find(db, &ctid, &crun, err);
        if (rc == 0 && !crun && !cli_isset(a, "tournament")) {
            ctid = -1; /* none unfinished: compare with the newest */
            rc = db_tournament_find(db, &ctid, &crun, err);
        }
        if (rc == 0 && crun) rc = db_run_get(db, crun, &run, err);
        if (rc == 0 && crun) config_diff(config, run.config ? run.config : "", ctid, err);
        else if (rc == 0 && cli_isset(a, "tournament"))
            snprintf(err, ERR_MAX, "--resume: no tournament %lld in %.200s", (long long)cli_int(a, "tournament"),
                     cli_str(a, "db"));
        else if (rc == 0)
            snprintf(err, ERR_MAX, "--resume: no tournament of this configuration in %.200s", cli_str(a, "db"));
        db_run_clear(&run);
        rc = -1;
    }
    if (rc == 0 && !resumed && writer) {
        rc = db_begin(db, err);
        if (rc == 0) rc = db_run_create(db, "tournament", g->name, seed, config, cli_str(a, "name"), &run_id, err);
        DbTournament dt = {.run_id = run_id, .name = cli_str(a, "name"), .format = gauntlet ? "gauntlet" : "round-robin",
                           .rounds = t.rounds, .games_total = t.games_total, .pdn_out = pdn_given[0] ? pdn_given : NULL};
        if (rc == 0) rc = db_tournament_insert(db, &dt, &tid, err);
        for (int i = 0; rc == 0 && i < t.n; i++) {
            if (t.specs[i].kind == PLAYER_DAMA)
                rc = weights_store_base(db, g, t.specs[i].spec, t.weights[i], names, run_id, &t.ws_id[i], err);
            char limits[128];
            player_limits_text(&t.specs[i].limits, limits, sizeof limits);
            DbParticipant p = {.idx = i, .name = t.specs[i].name, .kind = t.specs[i].kind == PLAYER_DAMA ? "dama" : "hub",
                               .spec = t.specs[i].spec, .limits = limits, .weight_set = t.ws_id[i]};
            if (rc == 0) rc = db_participant_insert(db, tid, &p, &t.pid[i], err);
        }
        if (rc == 0) rc = db_commit(db, err);
        else db_rollback(db);
    }
    Loaded ld = {.t = &t, .run_id = run_id};
    if (rc == 0 && resumed) rc = db_participants_each(db, tid, fill_participant, &t, err);
    /* the weights the tournament started with, even if "tuned" now names newer ones */
    for (int i = 0; rc == 0 && resumed && i < t.n; i++) {
        if (t.specs[i].kind != PLAYER_DAMA || !t.ws_id[i]) continue;
        char spec[32];
        snprintf(spec, sizeof spec, "db:%lld", (long long)t.ws_id[i]);
        rc = weights_resolve_db(g, spec, db, t.weights[i], NULL, err);
    }
    if (rc == 0 && resumed) rc = db_game_rows_each(db_path(db), DB_SELECT_RUN, run_id, NULL, load_result, &ld, err);
    char pdn_path[PDN_PATH_MAX] = ""; /* where this session appends: the file stored with the tournament */
    if (rc == 0 && !resumed && writer) memcpy(pdn_path, pdn_given, sizeof pdn_path);
    if (rc == 0 && resumed) rc = db_tournament_pdn_out(db, tid, pdn_path, sizeof pdn_path, err);
    if (rc == 0 && resumed && pdn_given[0] && strcmp(pdn_given, pdn_path) != 0) {
        if (pdn_path[0])
            snprintf(err, ERR_MAX, "--pdn-out %.70s: tournament %lld appends its games to %.70s (give that file, or no "
                     "--pdn-out)", pdn_given, (long long)tid, pdn_path);
        else
            snprintf(err, ERR_MAX, "--pdn-out %.70s: tournament %lld was started without --pdn-out, so the file would "
                     "lack its games so far (dama pdn export --tournament %lld writes them all)", pdn_given,
                     (long long)tid, (long long)tid);
        rc = -1;
    }
    if (rc == 0 && resumed && pdn_path[0] && !pdn_given[0] && atomic_file_not_db(pdn_path, cli_str(a, "db"), aerr) != 0) {
        snprintf(err, ERR_MAX, "the stored --pdn-out: %.200s", aerr);
        rc = -1;
    }
    if (rc == 0 && resumed && pdn_path[0] && !pdn_given[0] && check_appendable(pdn_path, aerr) != 0) {
        snprintf(err, ERR_MAX, "the stored --pdn-out: %.200s", aerr);
        rc = -1;
    }
    if (rc == 0 && resumed) rc = db_run_finish(db, run_id, "running", err);
    if (dist && !writer && rc != 0) { /* the book or memory of this rank: rank 0 cannot know */
        fprintf(stderr, "dama tournament: rank %d: %s\n", dist_rank(), err);
        dist_abort(1);
    }
    if (dist) { /* rank 0's verdict, then what the others need: weights and the games played */
        int64_t go = rc;
        char berr[ERR_MAX];
        int brc = dist_sync_polled(berr); /* the others wait without spinning while rank 0 sets up */
        if (brc == 0) brc = dist_bcast_bytes(&go, sizeof go, 0, berr);
        for (int i = 0; brc == 0 && go == 0 && i < t.n; i++)
            if (t.specs[i].kind == PLAYER_DAMA)
                brc = dist_bcast_bytes(t.weights[i], sizeof(int32_t) * (size_t)g->weights_len, 0, berr);
        if (brc == 0 && go == 0) brc = dist_bcast_bytes(t.result, (size_t)t.games_total, 0, berr);
        if (brc != 0) {
            fprintf(stderr, "dama tournament: rank %d: %s\n", dist_rank(), berr);
            dist_abort(1);
        }
        if (!writer && go != 0) { /* rank 0 said why */
            rc = 1;
            goto done;
        }
    }
    if (rc != 0) {
        if (rc > 0) snprintf(err, ERR_MAX, "the stored participants of tournament %lld differ from these engines",
                             (long long)tid);
        fprintf(stderr, "dama tournament: %s\n", err);
        rc = 1;
        goto done;
    }
    for (int64_t gi = 0; gi < t.games_total; gi++) t.done_games += t.result[gi] >= 0;
    int64_t todo_len = 0;
    int64_t *todo = malloc(sizeof *todo * (size_t)(t.games_total ? t.games_total : 1));
    if (!todo) {
        fprintf(stderr, "dama tournament: out of memory\n");
        rc = 1;
        goto done;
    }
    for (int64_t gi = 0; gi < t.games_total; gi++)
        if (t.result[gi] < 0) todo[todo_len++] = gi;
    if (writer) {
        char ranks[48] = "";
        if (dist) snprintf(ranks, sizeof ranks, " a rank, %d ranks over MPI", dist_size());
        fprintf(stderr, "tournament %lld (run %lld) %s: %s, %d engines, %d rounds, %lld games (%lld %s), %lld "
                "concurrent%s\n", (long long)tid, (long long)run_id, g->name, gauntlet ? "gauntlet" : "round robin",
                t.n, t.rounds, (long long)t.games_total, (long long)t.done_games,
                resumed ? "already played" : "stored", (long long)concurrency, ranks);
    }

    StoreCtx sc = {.db = db, .pdn_path = pdn_path[0] ? pdn_path : NULL, .tournament_id = tid};
    snprintf(sc.tournament_name, sizeof sc.tournament_name, "%s", cli_str(a, "name") ? cli_str(a, "name") : "");
    /* a buffer that holds a whole game, flushed after each: one write a game, so a
     * kill leaves whole games in the file (PDN of a game is a few KiB) */
    if (sc.pdn_path && (sc.pdn = fopen(sc.pdn_path, "a"))) setvbuf(sc.pdn, NULL, _IOFBF, 1 << 20);
    if (sc.pdn_path && !sc.pdn) {
        fprintf(stderr, "dama tournament: --pdn-out: cannot append to '%s': %s\n", sc.pdn_path, strerror(errno));
        free(todo);
        rc = 1;
        goto done;
    }
    PlaySettings ps = {.max_plies = (int)max_plies,
                       .adj = {.resign_moves = (int)cli_int(a, "resign-moves"),
                               .resign_score = (int)cli_int(a, "resign-score"),
                               .draw_moves = (int)cli_int(a, "draw-moves"),
                               .draw_score = (int)cli_int(a, "draw-score"),
                               .draw_after = (int)cli_int(a, "draw-after")}};
    cli_install_stop_handler();
    RunProgress prog;
    run_progress_init(&prog, "tournament", t.games_total, writer ? cli_real(a, "progress") : 0);
    TourRun tr = {.t = &t, .a = a, .sc = &sc, .book = &book, .todo = todo, .run_id = run_id, .seed = seed,
                  .interval = cli_int(a, "ratings-interval"),
                  .offset = (int64_t)(rng_derive(seed, 0x6f70656eULL) % (uint64_t)book.len), .prog = &prog};
    /* the in-process engines probe the endgame database (external ones have their own) */
    Schedule sch = {.game = g, .players_len = t.n, .specs = t.specs, .weights = t.weights, .jobs_len = todo_len,
                    .games_per_job = 1, .concurrency = (int)concurrency, .settings = ps, .stop = &cli_stop_requested,
                    .egtb = edb, .egtb_pieces = (int)cli_int(a, "egtb-pieces"),
                    .egtb_adjudicate = cli_flag(a, "egtb-adjudicate"), .ctx = &tr, .job_game = tour_job_game,
                    .game_done = tour_game_done};
    ScheduleStats sst;
    char fail_msg[ERR_MAX] = "";
    bool failed = (dist ? dist_schedule_run(&sch, "tournament", &sst, fail_msg) : schedule_run(&sch, &sst, fail_msg)) < 0;
    free(todo);
    if (sc.pdn) fclose(sc.pdn);
    if (!writer) { /* rank 0 prints and decides the exit code */
        if (failed) fprintf(stderr, "dama tournament: rank %d: %s\n", dist_rank(), fail_msg);
        rc = dist_relay_final("tournament", 1);
        goto done;
    }
    bool complete = t.done_games == t.games_total;
    char ferr[ERR_MAX];
    if (db_run_finish(db, run_id, complete ? "done" : "interrupted", ferr) != 0 && !failed) {
        failed = true;
        snprintf(fail_msg, sizeof fail_msg, "%s", ferr);
    }
    printf("tournament %lld (run %lld): %lld of %lld games", (long long)tid, (long long)run_id,
           (long long)t.done_games, (long long)t.games_total);
    if (sst.games > 0)
        printf("; this session %lld games in %.1f s (%.2f games/s), %.1f%% of the game slots' time outside the "
               "engines, %lld lost by an engine fault",
               (long long)sst.games, sst.wall_s, (double)sst.games / sst.wall_s, 100.0 * schedule_outside_share(&sst),
               (long long)sst.faults);
    printf("\n");
    print_results(stdout, &t);
    print_ratings(stdout, &t, a);
    if (!complete && !failed) printf("interrupted: run the same command again to continue\n");
    if (failed) fprintf(stderr, "dama tournament: %s\n", fail_msg);
    rc = failed ? 1 : complete ? 0 : 3;
    if (dist) rc = dist_relay_final("tournament", rc);
done:
    egtb_close(edb);
    for (int i = 0; i < t.n; i++) free(t.weights[i]);
    free((void *)names);
    db_close_discard_new(db); /* a failed start leaves no empty database */
    openings_free(&book);
    free(config);
    free(t.result);
    free_owned(owned, owned_len);
    return rc;
}

const CliCommand cmd_tournament = {
    "tournament",
    "round robin or gauntlet of dama and Hub engines: clocks, adjudication, crosstable, ratings, resume",
    "[options] ENGINE ENGINE... (ENGINE: name=A,weights=W,nodes=N | name=B,cmd=COMMAND, with limits nodes= "
    "depth= movetime= time=MS+INC timeout=MS, hash=MiB, param.NAME=VALUE; cmd= last; W: " CLI_WEIGHTS_FORMS ")",
    OPTS, run, ENGINES_MAX,
};
