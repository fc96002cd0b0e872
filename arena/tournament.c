/* tournament.c — a round robin or gauntlet through the scheduler
 * (contracts in arena/tournament.h); the configuration compared with the
 * stored one and the PDN file's checks are in tournament_config.c. */
#include "arena/tournament.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arena/game_writer.h"
#include "arena/match_draws.h"
#include "arena/pdn_export.h"
#include "arena/preflight.h"
#include "arena/schedule.h"
#include "arena/schedule_dist.h"
#include "arena/tournament_config.h"
#include "db/db.h"
#include "db/weight_sets.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "engine/egtb/egtb.h"
#include "engine/eval.h"
#include "protocol/dxp.h"
#include "util/atomic_file.h"
#include "util/rng.h"

/* game index -> round, pairing, colour (0: pair_a plays White). */
static void game_slot(const TournamentResult *t, int64_t gi, int *round, int *pairing, int *swap)
{
    *swap = (int)(gi % 2);
    int64_t u = gi / 2;
    *pairing = (int)(u % t->pairings);
    *round = (int)(u / t->pairings);
}

void tournament_game_players(const TournamentResult *t, int64_t gi, int *white, int *black)
{
    int r, k, c;
    game_slot(t, gi, &r, &k, &c);
    *white = c ? t->pair_b[k] : t->pair_a[k];
    *black = c ? t->pair_a[k] : t->pair_b[k];
}

void tournament_result_free(TournamentResult *r)
{
    free(r->result);
    r->result = NULL;
    free(r->missed);
    r->missed = NULL;
}

/* One run: the options, what is stored, and the scheduler's view (one job
 * per game still to play). */
typedef struct Tour {
    const TournamentOptions *o;
    TournamentResult *r;
    Db *db;
    int32_t *weights[TOURNAMENT_ENGINES_MAX]; /* in-process engines' weights */
    int64_t ws_id[TOURNAMENT_ENGINES_MAX];
    int64_t pid[TOURNAMENT_ENGINES_MAX];      /* participants.id */
    char pdn_given[TOURNAMENT_PATH_MAX];      /* --pdn-out as an absolute path: stored, compared on resume */
    char pdn_path[TOURNAMENT_PATH_MAX];       /* where this session appends: the file stored with the tournament */
    FILE *pdn;
    char tournament_name[128];
    const OpeningBook *book;
    const int64_t *todo;
    int64_t offset;
} Tour;

static int load_result(void *ctx, const DbGameRow *g)
{
    TournamentResult *r = ctx;
    if (g->game_index < 0 || g->game_index >= r->games_total || !g->result) return 0;
    r->result[g->game_index] = (signed char)(strcmp(g->result, "1-0") == 0 ? 2 : strcmp(g->result, "0-1") == 0 ? 0 : 1);
    return 0;
}

/* On resume: the stored participants must be these engines, in order. */
static int fill_participant(void *ctx, const DbParticipant *p)
{
    Tour *t = ctx;
    if (p->idx < 0 || p->idx >= t->r->engines_len || strcmp(p->name, t->o->engines[p->idx].name) != 0) return 1;
    t->pid[p->idx] = p->id;
    t->ws_id[p->idx] = p->weight_set;
    return 0;
}

static const Opening *tour_opening(const Tour *t, int64_t gi)
{
    int r, k, c;
    game_slot(t->r, gi, &r, &k, &c);
    return &t->book->items[(t->offset + r) % t->book->len];
}

/* Store one finished game (caller holds the scheduler's lock). */
static int store_game(Tour *t, int64_t gi, const PlayRecord *rec, char err[ERR_MAX])
{
    TournamentResult *tr = t->r;
    const Opening *op = tour_opening(t, gi);
    int w, b, r, k, c;
    tournament_game_players(tr, gi, &w, &b);
    game_slot(tr, gi, &r, &k, &c);
    DbGame meta = {.run_id = tr->run_id, .game_index = gi, .game = tr->game->name, .opening = op->label,
                   .start_fen = op->fen, .white_ws = t->ws_id[w], .black_ws = t->ws_id[b], .seed = t->o->seed,
                   .result = outcome_pdn(rec->outcome), .reason = rec->reason, .plies = rec->plies,
                   .movetext = rec->movetext ? rec->movetext : ""};
    game_writer_set_times(&meta, rec);
    int64_t game_id = 0;
    int rc = db_begin(t->db, err);
    if (rc == 0) rc = db_game_insert(t->db, &meta, &game_id, err);
    if (rc == 0)
        rc = db_game_set_players(t->db, game_id, t->pid[w], t->pid[b], r, rec->detail[0] ? rec->detail : NULL, err);
    if (rc == 0) rc = db_commit(t->db, err);
    else db_rollback(t->db);
    if (rc != 0) return -1;
    if (t->pdn) {
        char created[32]; /* the day the database stores with the game (UTC), as pdn export's Date tag */
        time_t now = time(NULL);
        struct tm utc;
        if (!gmtime_r(&now, &utc) || strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0) created[0] = 0;
        DbGameRow row = {.id = game_id, .run_id = tr->run_id, .game_index = gi, .round = r,
                         .tournament_id = tr->tournament_id, .run_kind = "tournament", .game = tr->game->name,
                         .opening = op->label, .start_fen = op->fen, .white = tr->engines[w].name,
                         .black = tr->engines[b].name, .result = meta.result, .reason = rec->reason,
                         .movetext = meta.movetext, .plies = meta.plies, .created = created[0] ? created : NULL,
                         .tournament_name = t->tournament_name[0] ? t->tournament_name : NULL};
        char perr[ERR_MAX];
        if (pdn_export_row(t->pdn, &row, perr) != 0) {
            snprintf(err, ERR_MAX, "--pdn-out %.100s: %.140s", t->pdn_path, perr);
            return -1;
        }
        if (fflush(t->pdn) != 0) {
            snprintf(err, ERR_MAX, "--pdn-out: writing %.180s failed: %s", t->pdn_path, strerror(errno));
            return -1;
        }
    }
    tr->result[gi] = (signed char)outcome_score_white(rec->outcome);
    return 0;
}

static void tour_job_game(void *ctx, int64_t job, int k, int *white, int *black, Position *start)
{
    (void)k;
    const Tour *t = ctx;
    int64_t gi = t->todo[job];
    tournament_game_players(t->r, gi, white, black);
    char err[ERR_MAX];
    t->r->game->pos_from_fen(start, tour_opening(t, gi)->fen, err); /* the book's lines were checked when read */
}

static int tour_game_done(void *ctx, int64_t job, int k, int white, int black, const PlayRecord *rec, char err[ERR_MAX])
{
    (void)k;
    Tour *t = ctx;
    int64_t gi = t->todo[job];
    if (store_game(t, gi, rec, err) != 0) return -1;
    t->r->done_games++;
    if (t->o->on_game) t->o->on_game(t->o->ctx, t->r, gi, white, black, rec);
    return 0;
}

/* Each game slot holds every in-process engine (schedule.c), each with its
 * own table: they must fit. Returns 0, or -1 with err. */
static int check_tables(const TournamentOptions *o, int64_t concurrency, char err[ERR_MAX])
{
    int n = o->engines_len;
    int64_t games = (int64_t)n * (n - 1) * o->rounds;
    int slots = (int)(concurrency < games ? concurrency : games);
    for (int i = 0; i < n; i++) {
        const PlayerSpec *s = &o->engines[i];
        if (s->kind != PLAYER_DAMA) continue;
        char opt[96];
        if (o->hash_mb == s->hash_mb) snprintf(opt, sizeof opt, "--hash %lld", (long long)s->hash_mb);
        else snprintf(opt, sizeof opt, "engine '%s': hash=%lld", s->name, (long long)s->hash_mb);
        if (preflight_check_hash(o->game, s->hash_mb, slots, opt, err) != 0) return -1;
    }
    return 0;
}

/* --resume that found no tournament of this configuration (or another
 * one than --tournament N): err names what differs from the one meant.
 * Returns -1. */
static int resume_refused(Tour *t, const char *config, const char *path, char err[ERR_MAX])
{
    const TournamentOptions *o = t->o;
    int64_t ctid = o->resume_tournament, crun = 0;
    DbRun run = {0};
    int rc = 0;
    if (o->resume_run) crun = o->resume_run, rc = db_tournament_by_run(t->db, crun, &ctid, err);
    else rc = db_tournament_find(t->db, &ctid, &crun, err);
    if (rc == 0 && !crun && !o->resume_tournament) {
        ctid = -1; /* none unfinished: compare with the newest */
        rc = db_tournament_find(t->db, &ctid, &crun, err);
    }
    if (rc == 0 && crun) rc = db_run_get(t->db, crun, &run, err);
    if (rc == 0 && crun) tournament_config_diff(config, run.config ? run.config : "", ctid, err);
    else if (rc == 0 && o->resume_tournament)
        snprintf(err, ERR_MAX, "--resume: no tournament %lld in %.200s", (long long)o->resume_tournament, path);
    else if (rc == 0)
        snprintf(err, ERR_MAX, "--resume: no tournament of this configuration in %.200s", path);
    db_run_clear(&run);
    return -1;
}

/* A new tournament's --pdn-out, where it holds something: it must end
 * with a line end, or the first game would be glued onto its last line (a
 * game cut off while it was written, or not PDN). 0, or -1 with err. */
static int pdn_ends_whole(const char *path, char err[ERR_MAX])
{
    FILE *f = fopen(path, "r");
    if (!f) return 0; /* made by the first game (the appendable check said why if it cannot be) */
    int last = fseek(f, -1, SEEK_END) == 0 ? fgetc(f) : '\n'; /* empty: nothing to glue onto */
    fclose(f);
    if (last == '\n') return 0;
    snprintf(err, ERR_MAX, "--pdn-out %.100s does not end with a line end (a game cut off? dama pdn check names it): "
             "give a new file, or one whose last game is whole", path);
    return -1;
}

/* A new tournament: its run (this process its owner), row and
 * participants (with the in-process engines' weight sets), in the open
 * transaction. */
static int store_new(Tour *t, const char *config, const char **names, char err[ERR_MAX])
{
    const TournamentOptions *o = t->o;
    TournamentResult *r = t->r;
    int rc = db_run_create(t->db, "tournament", o->game->name, o->seed, config, o->name, &r->run_id, err);
    DbTournament dt = {.run_id = r->run_id, .name = o->name, .format = o->gauntlet ? "gauntlet" : "round-robin",
                       .rounds = r->rounds, .games_total = r->games_total,
                       .pdn_out = t->pdn_given[0] ? t->pdn_given : NULL};
    if (rc == 0) rc = db_tournament_insert(t->db, &dt, &r->tournament_id, err);
    for (int i = 0; rc == 0 && i < r->engines_len; i++) {
        const PlayerSpec *s = &o->engines[i];
        if (s->kind == PLAYER_DAMA)
            rc = weights_store_base(t->db, o->game, s->spec, t->weights[i], names, r->run_id, &t->ws_id[i], err);
        char limits[128];
        player_limits_text(&s->limits, limits, sizeof limits);
        /* a program over DXP is stored as an external engine whose spec says
         * dxp= (and cmd= when dama starts it) */
        char spec[2 * PLAYER_SPEC_MAX + PLAYER_PARAMS_MAX * 200];
        snprintf(spec, sizeof spec, "%s%s%s%s", s->kind == PLAYER_DXP ? "dxp=" : "", s->spec,
                 s->kind == PLAYER_DXP && s->launch[0] ? ",cmd=" : "", s->kind == PLAYER_DXP ? s->launch : "");
        for (int k = 0; k < s->params_len; k++) { /* "default with param.LMR_DIV=200,param.X=1" */
            size_t len = strlen(spec);
            snprintf(spec + len, sizeof spec - len, "%sparam.%s=%s", k ? "," : " with ", s->param_name[k],
                     s->param_value[k]);
        }
        DbParticipant p = {.idx = i, .name = s->name, .kind = s->kind == PLAYER_DAMA ? "dama" : "hub",
                           .spec = spec, .limits = limits, .weight_set = t->ws_id[i]};
        if (rc == 0) rc = db_participant_insert(t->db, r->tournament_id, &p, &t->pid[i], err);
    }
    return rc;
}

/* The PDN file as this tournament left it: *games, the games of
 * tournament tid in it (their [Event "dama tournament TID" lines), and
 * *end, where its whole games end: its size when it ends as
 * pdn_write_game ends a game (the result, then a blank line), else the
 * start of its last game's [Event line (a kill or a full disk cut that
 * game while it was written; the games before it are whole: one write a
 * game); *cut_ours: that game is tournament tid's (another's, or text
 * that is no game, is not this tournament's to cut). A missing file is
 * empty. -1 when it cannot be read. */
static int pdn_whole(const char *path, int64_t tid, int64_t *games, off_t *end, bool *cut_ours)
{
    *games = 0;
    *end = 0;
    *cut_ours = false;
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT ? 0 : -1;
    char ours[64];
    int ours_len = snprintf(ours, sizeof ours, "[Event \"dama tournament %lld", (long long)tid);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    off_t at = 0, last_event = 0;
    bool last_ours = false, blank = false, nl = true;
    int blanks = 0; /* since the last [Event line: a game is its tags, a blank line, its moves, a blank line */
    while ((len = getline(&line, &cap, f)) >= 0) {
        if (strncmp(line, "[Event ", 7) == 0) {
            last_event = at;
            last_ours = len > ours_len && strncmp(line, ours, (size_t)ours_len) == 0 &&
                        (line[ours_len] == '"' || line[ours_len] == ' ');
            *games += last_ours;
            blanks = 0;
        }
        at += len;
        nl = line[len - 1] == '\n';
        blank = len == 1 && nl;
        blanks += blank;
    }
    bool read_ok = !ferror(f);
    free(line);
    fclose(f);
    if (!read_ok) return -1;
    *end = at;
    if (at > 0 && !(blank && nl)) { /* the last game was cut */
        *end = last_event;
        *games -= last_ours;
        *cut_ours = last_ours && blanks < 2; /* not text after a whole game */
    }
    return 0;
}

typedef struct PdnCatchUp {
    Tour *t;
    FILE *f;
    int64_t skip; /* the stored games the file holds */
    char *err;
} PdnCatchUp;

static int catch_up_game(void *ctx, const DbGameRow *g)
{
    PdnCatchUp *c = ctx;
    if (c->skip > 0) {
        c->skip--;
        return 0;
    }
    DbGameRow row = *g; /* as store_game wrote it */
    row.detail = NULL;
    row.tournament_name = c->t->tournament_name[0] ? c->t->tournament_name : NULL;
    return pdn_export_row(c->f, &row, c->err) != 0 ? -1 : 0;
}

/* On resume: the PDN file holds the stored games in the order they were
 * stored (each appended after its commit), but a kill between a commit
 * and its append left the file without the last; the stored games beyond
 * the file's count are appended now, as they were. Returns 0, or -1 with
 * err. */
static int pdn_catch_up(Tour *t, const char *db_file, char err[ERR_MAX])
{
    int64_t have = 0, stored = 0;
    off_t end = 0;
    struct stat st;
    bool cut_ours;
    if (pdn_whole(t->pdn_path, t->r->tournament_id, &have, &end, &cut_ours) != 0) return 0; /* the append says why */
    if (stat(t->pdn_path, &st) == 0 && end < st.st_size) { /* a game cut: it is written again below */
        if (!cut_ours) {
            snprintf(err, ERR_MAX, "--pdn-out: %.120s ends inside a line that is no game of tournament %lld: "
                     "dama pdn check names it", t->pdn_path, (long long)t->r->tournament_id);
            return -1;
        }
        if (truncate(t->pdn_path, end) != 0) {
            snprintf(err, ERR_MAX, "--pdn-out: %.160s ends inside a game and cannot be cut back to its whole games: "
                     "%s", t->pdn_path, strerror(errno));
            return -1;
        }
        t->r->pdn_cut_bytes = (int64_t)(st.st_size - end);
    }
    for (int64_t gi = 0; gi < t->r->games_total; gi++) stored += t->r->result[gi] >= 0;
    if (have >= stored) return 0;
    PdnCatchUp c = {.t = t, .f = fopen(t->pdn_path, "a"), .skip = have, .err = err};
    if (!c.f) {
        snprintf(err, ERR_MAX, "--pdn-out: cannot append to '%.200s': %s", t->pdn_path, strerror(errno));
        return -1;
    }
    int rc = db_game_rows_each(db_file, DB_SELECT_RUN, t->r->run_id, NULL, catch_up_game, &c, err);
    if (fclose(c.f) != 0 && rc == 0) {
        snprintf(err, ERR_MAX, "--pdn-out: writing %.200s failed: %s", t->pdn_path, strerror(errno));
        rc = -1;
    }
    return rc != 0 ? -1 : 0;
}

/* A stored tournament continued: its participants (1 when they are not
 * these engines), the weights it started with (even if "tuned" now names
 * newer ones), the games played, its PDN file. */
static int load_stored(Tour *t, const char *path, char err[ERR_MAX])
{
    TournamentResult *r = t->r;
    int rc = db_participants_each(t->db, r->tournament_id, fill_participant, t, err);
    for (int i = 0; rc == 0 && i < r->engines_len; i++) {
        if (t->o->engines[i].kind != PLAYER_DAMA || !t->ws_id[i]) continue;
        char spec[32];
        snprintf(spec, sizeof spec, "db:%lld", (long long)t->ws_id[i]);
        rc = weights_resolve_db(r->game, spec, t->db, t->weights[i], NULL, err);
    }
    if (rc == 0) rc = db_game_rows_each(db_path(t->db), DB_SELECT_RUN, r->run_id, NULL, load_result, r, err);
    if (rc == 0) rc = db_tournament_pdn_out(t->db, r->tournament_id, t->pdn_path, sizeof t->pdn_path, err);
    int64_t tid = r->tournament_id;
    bool moved = false; /* --pdn-out names another file than the stored one */
    struct stat gs, ss;
    if (rc == 0 && t->pdn_given[0] && strcmp(t->pdn_given, t->pdn_path) != 0) {
        bool given_exists = stat(t->pdn_given, &gs) == 0;
        if (given_exists && t->pdn_path[0] && stat(t->pdn_path, &ss) == 0 && gs.st_dev == ss.st_dev &&
            gs.st_ino == ss.st_ino) {
            /* the stored file by another spelling (a link, another folder's relative path): the stored one */
        } else if (given_exists && (!S_ISREG(gs.st_mode) || gs.st_size > 0)) {
            /* another file becomes the tournament's (the stored one lost or unwritable, or none stored) and
             * gets every game so far first: it must hold nothing of its own, and be a file */
            if (t->pdn_path[0])
                snprintf(err, ERR_MAX, "--pdn-out: tournament %lld writes to %.150s; give that, no --pdn-out, or a "
                         "new or empty file", (long long)tid, t->pdn_path);
            else
                snprintf(err, ERR_MAX, "--pdn-out %.120s: tournament %lld was started without --pdn-out: give a new "
                         "or empty file (it gets the games so far)", t->pdn_given, (long long)tid);
            rc = -1;
        } else {
            moved = true;
        }
    }
    char aerr[ATOMIC_ERR_MAX];
    if (rc == 0 && t->pdn_path[0] && !t->pdn_given[0] && atomic_file_not_db(t->pdn_path, path, aerr) != 0) {
        snprintf(err, ERR_MAX, "the stored --pdn-out: %.200s", aerr);
        rc = -1;
    }
    if (rc == 0 && t->pdn_path[0] && !t->pdn_given[0] && tournament_path_appendable(t->pdn_path, aerr) != 0) {
        snprintf(err, ERR_MAX, "the stored --pdn-out: %.200s", aerr);
        rc = -1;
    }
    char was[TOURNAMENT_PATH_MAX];
    snprintf(was, sizeof was, "%s", t->pdn_path);
    if (moved) snprintf(t->pdn_path, sizeof t->pdn_path, "%s", t->pdn_given);
    if (rc == 0 && t->pdn_path[0]) rc = pdn_catch_up(t, db_path(t->db), err);
    /* stored only once it holds the games so far: a failed resume leaves the tournament's file as it was */
    if (rc == 0 && moved) rc = db_tournament_set_pdn_out(t->db, tid, t->pdn_path, err);
    if (rc == 0 && moved) {
        r->pdn_moved = true;
        snprintf(r->pdn_now, sizeof r->pdn_now, "%s", t->pdn_path);
        snprintf(r->pdn_before, sizeof r->pdn_before, "%s", was);
    }
    if (rc == 0) rc = db_run_finish(t->db, r->run_id, "running", err);
    return rc;
}

/* Rank 0's set-up: the engines' weights, the tournament found (resumed) or
 * stored, and taken by this process. Returns 0, -1 with err, DB_BUSY with
 * err (another live process plays it), or 1 when the stored participants
 * are not these engines. */
static int set_up(Tour *t, const char *config, const char *path, char err[ERR_MAX])
{
    const TournamentOptions *o = t->o;
    TournamentResult *r = t->r;
    const char **names = weight_names_new(o->game);
    int rc = names ? 0 : -1;
    if (rc != 0) snprintf(err, ERR_MAX, "out of memory");
    for (int i = 0; rc == 0 && i < r->engines_len; i++) {
        if (o->engines[i].kind != PLAYER_DAMA) continue;
        rc = weights_resolve_db(o->game, o->engines[i].spec, t->db, t->weights[i], NULL, err);
        if (rc != 0) {
            char e2[ERR_MAX];
            snprintf(e2, sizeof e2, "engine '%.40s': %.200s", o->engines[i].name, err);
            memcpy(err, e2, ERR_MAX);
        }
    }
    /* Found and taken, or made: one transaction, so that two processes
     * started together cannot both make it or both resume it. */
    char status[DB_STATUS_MAX] = "";
    bool open = rc == 0 && (rc = db_begin(t->db, err)) == 0;
    if (rc == 0 && o->resume_run) { /* the stored tournament itself: its configuration was rebuilt */
        DbRun run = {0};
        rc = db_run_get(t->db, o->resume_run, &run, err);
        if (rc == 0 && strcmp(run.config ? run.config : "", config) == 0) r->run_id = o->resume_run;
        db_run_clear(&run);
    } else if (rc == 0) {
        rc = db_run_find(t->db, "tournament", o->game->name, o->seed, config, &r->run_id, status, err);
    }
    if (rc == 0 && r->run_id) rc = db_tournament_by_run(t->db, r->run_id, &r->tournament_id, err);
    r->resumed = r->run_id && r->tournament_id;
    bool refused = rc == 0 && o->resume &&
                   (!r->resumed || (o->resume_tournament && r->tournament_id != o->resume_tournament));
    DbClaim claim = {0};
    if (rc == 0 && !refused && r->resumed) rc = db_run_claim_id(t->db, r->run_id, &claim, err);
    if (rc == 0 && !refused && !r->resumed && t->pdn_given[0]) rc = pdn_ends_whole(t->pdn_given, err);
    if (rc == 0 && !refused && !r->resumed) rc = store_new(t, config, names, err);
    if (rc == 0 && !refused) rc = db_commit(t->db, err);
    if (open && (rc != 0 || refused)) db_rollback(t->db); /* nothing was taken */
    if (refused) rc = resume_refused(t, config, path, err);
    if (rc == 0 && !r->resumed) memcpy(t->pdn_path, t->pdn_given, sizeof t->pdn_path);
    if (rc == 0 && r->resumed && (rc = load_stored(t, path, err)) != 0) {
        /* give it back as it was: a stored tournament a bad option cannot change */
        char ferr[ERR_MAX];
        db_run_release(t->db, r->run_id, strcmp(claim.status, "running") ? claim.status : "interrupted", ferr);
    }
    free((void *)names);
    return rc;
}

/* Rank 0's verdict on the set-up, then what the others need: the weights
 * and the games played. Returns rank 0's rc (its message stays there). */
static int share_set_up(Tour *t, int rc)
{
    int64_t go = rc;
    char berr[ERR_MAX];
    int brc = dist_sync_polled(berr); /* the others wait without spinning while rank 0 sets up */
    if (brc == 0) brc = dist_bcast_bytes(&go, sizeof go, 0, berr);
    for (int i = 0; brc == 0 && go == 0 && i < t->r->engines_len; i++)
        if (t->o->engines[i].kind == PLAYER_DAMA)
            brc = dist_bcast_bytes(t->weights[i], sizeof(int32_t) * (size_t)t->o->game->weights_len, 0, berr);
    if (brc == 0 && go == 0) brc = dist_bcast_bytes(t->r->result, (size_t)t->r->games_total, 0, berr);
    if (brc != 0) dist_run_abort("tournament", true, berr);
    return (int)go;
}

/* The games still to play, over the scheduler (over the ranks with MPI);
 * then the run marked done or interrupted. Returns the exit status. */
/* A drawn game's missed wins into its pairing's counts (match_draws). */
static void add_missed(void *ctx, int64_t gi, const bool won[2])
{
    TournamentResult *r = ctx;
    if (gi < 0 || gi >= r->games_total) return;
    int round, k, swap;
    game_slot(r, gi, &round, &k, &swap);
    r->missed[k][0]++;
    r->missed[k][1] += won[swap ? COLOR_BLACK : COLOR_WHITE]; /* pair_a is White in colour 0 */
    r->missed[k][2] += won[swap ? COLOR_WHITE : COLOR_BLACK];
}

/* The missed wins of every stored game of the tournament (over a
 * connection of their own; none for an in-memory database, which no other
 * connection sees). 0, or -1 with err. */
static int count_missed(Tour *t, const Egtb *edb, char err[ERR_MAX])
{
    TournamentResult *r = t->r;
    const char *path = db_path(t->db);
    if (!edb || !path || !path[0] || strcmp(path, ":memory:") == 0) return 0;
    if (!(r->missed = calloc((size_t)(r->pairings ? r->pairings : 1), sizeof *r->missed))) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    if (match_draws_missed_tournament(path, t->o->game, r->tournament_id, edb, add_missed, r, err) == 0) return 0;
    free(r->missed);
    r->missed = NULL;
    return -1;
}

static int play(Tour *t, const Egtb *edb, char err[ERR_MAX])
{
    const TournamentOptions *o = t->o;
    TournamentResult *r = t->r;
    const bool dist = r->ranks > 1;
    int64_t todo_len = 0;
    int64_t *todo = malloc(sizeof *todo * (size_t)(r->games_total ? r->games_total : 1));
    if (!todo) {
        snprintf(err, ERR_MAX, "out of memory");
        return 1;
    }
    for (int64_t gi = 0; gi < r->games_total; gi++)
        if (r->result[gi] < 0) todo[todo_len++] = gi;
    if (o->on_start) o->on_start(o->ctx, r);
    /* a buffer that holds a whole game, flushed after each: one write a game, so a
     * kill leaves whole games in the file (PDN of a game is a few KiB) */
    struct stat pst;
    bool pdn_made = t->pdn_path[0] && stat(t->pdn_path, &pst) != 0; /* made here: removed again if left empty */
    if (t->pdn_path[0] && (t->pdn = fopen(t->pdn_path, "a"))) setvbuf(t->pdn, NULL, _IOFBF, 1 << 20);
    if (t->pdn_path[0] && !t->pdn) {
        snprintf(err, ERR_MAX, "--pdn-out: cannot append to '%s': %s", t->pdn_path, strerror(errno));
        free(todo);
        return 1;
    }
    t->todo = todo;
    t->offset = (int64_t)(rng_derive(o->seed, 0x6f70656eULL) % (uint64_t)t->book->len);
    /* the in-process engines probe the endgame database (external ones have their own) */
    Schedule sch = {.game = o->game, .players_len = r->engines_len, .specs = o->engines, .weights = t->weights,
                    .jobs_len = todo_len, .games_per_job = 1, .concurrency = r->concurrency,
                    .settings = {.max_plies = o->max_plies, .adj = o->adj}, .stop = o->stop, .egtb = edb,
                    .egtb_pieces = o->egtb_pieces, .egtb_adjudicate = o->egtb_adjudicate, .ctx = t,
                    .job_game = tour_job_game, .game_done = tour_game_done};
    ScheduleStats sst;
    char fail_msg[ERR_MAX] = "";
    bool failed = (dist ? dist_schedule_run(&sch, "tournament", &sst, fail_msg) : schedule_run(&sch, &sst, fail_msg)) < 0;
    free(todo);
    if (t->pdn) fclose(t->pdn);
    t->pdn = NULL;
    /* a tournament stopped before its first game leaves no empty PDN file behind (a resume makes it again) */
    if (pdn_made && stat(t->pdn_path, &pst) == 0 && S_ISREG(pst.st_mode) && pst.st_size == 0) unlink(t->pdn_path);
    if (!r->writer) { /* rank 0 decides the exit status */
        if (failed) snprintf(err, ERR_MAX, "rank %d: %.236s", dist_rank(), fail_msg);
        return dist_relay_final("tournament", 1);
    }
    r->complete = r->done_games == r->games_total;
    char ferr[ERR_MAX];
    if (db_run_finish(t->db, r->run_id, r->complete ? "done" : "interrupted", ferr) != 0 && !failed) {
        failed = true;
        snprintf(fail_msg, sizeof fail_msg, "%s", ferr);
    }
    r->played = true;
    /* the time each engine used, over all the tournament's stored games */
    if (db_run_player_times(t->db, r->run_id, t->pid, r->engines_len, r->time, &r->untimed, ferr) == 0)
        r->timed = true;
    else if (!failed) {
        failed = true;
        snprintf(fail_msg, sizeof fail_msg, "%s", ferr);
    }
    if (!failed && count_missed(t, edb, ferr) != 0) { /* as `dama match` counts them */
        failed = true;
        snprintf(fail_msg, sizeof fail_msg, "%s", ferr);
    }
    r->session_games = sst.games;
    r->session_faults = sst.faults;
    r->session_wall_s = sst.wall_s;
    r->outside_share = schedule_outside_share(&sst);
    if (failed) snprintf(err, ERR_MAX, "%s", fail_msg);
    int rc = failed ? 1 : r->complete ? 0 : 3;
    return dist ? dist_relay_final("tournament", rc) : rc;
}

/* The checks before anything is stored: tables, the PDN file, the endgame
 * database. Returns 0, or the exit status with err (an MPI job is ended
 * where rank 0 alone can see the fault). */
static int check_start(Tour *t, const char *path, Egtb **edb, char err[ERR_MAX])
{
    const TournamentOptions *o = t->o;
    const bool dist = t->r->ranks > 1, writer = t->r->writer;
    /* every game has its slot in memory before the first is played (a result byte, a place in the queue) */
    int64_t pairings = o->gauntlet ? o->engines_len - 1 : (int64_t)o->engines_len * (o->engines_len - 1) / 2;
    if ((int64_t)o->rounds * pairings * 2 > TOURNAMENT_GAMES_MAX) {
        snprintf(err, ERR_MAX, "%d rounds of %lld pairings are %lld games: at most %d (give fewer rounds)", o->rounds,
                 (long long)pairings, (long long)o->rounds * pairings * 2, TOURNAMENT_GAMES_MAX);
        return 2;
    }
    for (int i = 0; i < o->engines_len; i++) {
        if (o->engines[i].kind != PLAYER_DXP) continue;
        if (!dxp_game_fits(o->game)) { /* its games would all be lost by faults, the run ending 0 */
            char names[120];
            game_names(names, sizeof names, " or ", dxp_game_fits);
            snprintf(err, ERR_MAX, "engine '%.40s' is reached over DXP, which numbers the squares 1..50, and %.20s "
                     "does not: give --game %.60s", o->engines[i].name, o->game->name, names[0] ? names : "(none)");
            return 2;
        }
        /* a DXP program plays one game at a time, on its one connection */
        if (o->concurrency > 1 || dist) {
            snprintf(err, ERR_MAX, "engine '%.60s' is reached over DXP and plays one game at a time: give "
                     "--concurrency 1 and one process", o->engines[i].name);
            return 2;
        }
        t->r->concurrency = 1;
    }
    if (check_tables(o, t->r->concurrency, err) != 0) return 1;
    char aerr[ATOMIC_ERR_MAX];
    if (writer && o->pdn_out && atomic_file_not_db(o->pdn_out, path, aerr) != 0) {
        snprintf(err, ERR_MAX, "--pdn-out: %.244s", aerr); /* appending to it would corrupt it */
        if (dist) dist_run_abort("tournament", false, err);
        return 1;
    }
    if (o->pdn_out && tournament_path_absolute(o->pdn_out, t->pdn_given, aerr) != 0) {
        snprintf(err, ERR_MAX, "--pdn-out: %.244s", aerr);
        return 2;
    }
    if (t->pdn_given[0] && writer && tournament_path_appendable(t->pdn_given, aerr) != 0) {
        snprintf(err, ERR_MAX, "--pdn-out: %.244s", aerr);
        if (dist) dist_run_abort("tournament", false, err);
        return 1;
    }
    if (o->egtb_pieces < 0 || o->egtb_pieces > EGTB_PIECES_MAX)
        snprintf(err, ERR_MAX, "--egtb-pieces must be 0..%d", EGTB_PIECES_MAX);
    else if (o->egtb_dir && *o->egtb_dir && !(*edb = egtb_open(o->game, o->egtb_dir, false, aerr)))
        snprintf(err, ERR_MAX, "--egtb: %.247s", aerr);
    else
        return 0;
    if (dist) dist_run_abort("tournament", false, err);
    return 1;
}

static void make_pairings(TournamentResult *r, const TournamentOptions *o)
{
    for (int i = 0; i < o->engines_len; i++)
        for (int j = i + 1; j < o->engines_len; j++) {
            if (o->gauntlet && i != 0) continue;
            r->pair_a[r->pairings] = i;
            r->pair_b[r->pairings] = j;
            r->pairings++;
        }
    r->rounds = o->rounds;
    r->games_total = (int64_t)o->rounds * r->pairings * 2;
}

int tournament_run(Db *db, const TournamentOptions *o, TournamentResult *r, char err[ERR_MAX])
{
    memset(r, 0, sizeof *r);
    err[0] = '\0';
    const Game *g = o->game;
    r->game = g;
    r->engines_len = o->engines_len;
    r->engines = o->engines;
    r->gauntlet = o->gauntlet;
    r->ranks = dist_size();
    r->writer = dist_rank() == 0;
    r->concurrency = o->concurrency ? o->concurrency : dist_node_cores(); /* all cores, shared by a node's ranks */
    const bool dist = r->ranks > 1, writer = r->writer;
    const char *path = db ? db_path(db) : o->db_path;
    Tour t = {.o = o, .r = r, .db = db};
    snprintf(t.tournament_name, sizeof t.tournament_name, "%s", o->name ? o->name : "");
    Egtb *edb = NULL;
    int rc = check_start(&t, path, &edb, err);
    if (rc != 0) return rc;
    make_pairings(r, o);

    /* identity of the tournament: the options that decide its games, and every engine */
    size_t cfg_size = 8192 + (size_t)o->engines_len * (PLAYER_SPEC_MAX + 32);
    char *config = malloc(cfg_size);
    r->result = malloc((size_t)(r->games_total ? r->games_total : 1));
    if (!config || !r->result) {
        snprintf(err, ERR_MAX, "out of memory");
        if (dist) dist_run_abort("tournament", false, err);
        free(config);
        egtb_close(edb);
        return 1;
    }
    memset(r->result, -1, (size_t)r->games_total);
    snprintf(config, cfg_size, "%s", o->identity ? o->identity : "");
    for (int i = 0; i < o->engines_len; i++) {
        size_t len = strlen(config);
        snprintf(config + len, cfg_size - len, "engine = %s\n", o->engine_texts[i]);
    }

    OpeningBook book = {0};
    Db *own = NULL;
    rc = openings_from_source(g, &o->openings, o->seed, &book, err);
    /* an engine command that cannot start is an error before the database
     * is touched, not a tournament whose games that engine all lost */
    for (int i = 0; rc == 0 && writer && i < o->engines_len; i++) {
        char who[PLAYER_NAME_MAX + 16];
        snprintf(who, sizeof who, "engine '%s'", o->engines[i].name);
        rc = preflight_check_engine(g, &o->engines[i], who, o->stop, err);
    }
    if (rc == 0 && writer && !db) rc = db_open(o->db_path, true, &own, err);
    if (!t.db) t.db = own;
    for (int i = 0; rc == 0 && i < o->engines_len; i++) {
        if (o->engines[i].kind != PLAYER_DAMA) continue;
        if (!(t.weights[i] = eval_weights_new(g))) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
        }
    }
    if (rc == 0 && writer) rc = set_up(&t, config, path, err); /* the others wait for rank 0's */
    if (dist && !writer && rc != 0) dist_run_abort("tournament", true, err); /* this rank's book or memory */
    int go = 0;
    if (dist && (go = share_set_up(&t, rc)) != 0 && !writer) { /* rank 0 said why */
        err[0] = '\0';
        rc = go == DB_BUSY ? DB_BUSY : 1;
    } else if (rc == DB_BUSY) { /* err names the process that plays it */
    } else if (rc != 0) {
        if (rc > 0)
            snprintf(err, ERR_MAX, "the stored participants of tournament %lld differ from these engines",
                     (long long)r->tournament_id);
        rc = 1;
    } else {
        for (int64_t gi = 0; gi < r->games_total; gi++) r->done_games += r->result[gi] >= 0;
        t.book = &book;
        rc = play(&t, edb, err);
    }
    egtb_close(edb);
    for (int i = 0; i < o->engines_len; i++) free(t.weights[i]);
    db_close_discard_new(own); /* a failed start leaves no empty database */
    openings_free(&book);
    free(config);
    return rc;
}

int tournament_stored_config(const char *db_path, int64_t *tournament_id, int64_t *run_id, char **config,
                             char err[ERR_MAX])
{
    Db *db = NULL;
    int64_t asked = *tournament_id;
    DbRun run = {0};
    *run_id = 0;
    *config = NULL;
    int rc = db_open(db_path, false, &db, err);
    if (rc == 0) rc = db_tournament_find(db, tournament_id, run_id, err);
    if (rc == 0 && !*run_id) {
        if (asked)
            snprintf(err, ERR_MAX, "--resume: no tournament %lld in %.200s", (long long)asked, db_path);
        else
            snprintf(err, ERR_MAX, "--resume: no unfinished tournament in %.150s (give its engines, or --tournament N)",
                     db_path);
        rc = -1;
    }
    if (rc == 0) rc = db_run_get(db, *run_id, &run, err);
    db_close(db);
    if (rc == 0 && !(*config = strdup(run.config ? run.config : ""))) {
        snprintf(err, ERR_MAX, "out of memory");
        rc = -1;
    }
    db_run_clear(&run);
    return rc == 0 ? 0 : -1;
}
