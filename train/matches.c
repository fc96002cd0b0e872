/* matches.c — a generation's gate and ladder matches through match_play
 * (arena/match.h), on rank 0 and on the ranks that follow it (contracts in
 * train/stages.h). */
#include "train/stages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/match.h"
#include "arena/openings.h"
#include "arena/schedule_dist.h"
#include "db/weight_sets.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "engine/eval.h"

/* A match under way: its plan and what it needs. */
typedef struct Match {
    const TrainOptions *o;
    TrainMatch tm;
    DbMatch row;
    MatchPlan plan;
    OpeningBook book;
    int32_t *w[2];
    uint64_t seed;
    signed char *stored; /* 2 per pair: a resumed match's stored games (MatchPlan.stored) */
} Match;

static void event(const TrainOptions *o, TrainEvent ev)
{
    if (o->event) o->event(o->ctx, &ev);
}

/* MatchPlan.progress: a pair ended. */
static void progress(void *ctx, const MatchStats *st)
{
    const Match *m = ctx;
    event(m->o, (TrainEvent){.kind = TRAIN_EVENT_MATCH_PAIR, .match = &m->tm, .pairs = st});
}

/* MatchPlan.run_schedule over MPI: the pairs over the ranks (pair p on
 * rank p mod K), stored by rank 0. */
static int run_dist(void *ctx, const Schedule *s, ScheduleStats *stats, char err[ERR_MAX])
{
    (void)ctx;
    return dist_schedule_run(s, "match", stats, err);
}

/* The configuration text stored with a match's run: the lines `dama match`
 * stores for the matches train runs through it (what train gave at full
 * precision, the rest as their defaults are written), without the settings
 * that cannot change its games (where the database is, --threads, --hash,
 * --progress: `dama match` leaves them out too), so that a train resumed
 * with others resumes its match. legacy: with them, the text dama stored
 * before (a match stored under it is resumed: match_identity). Returns 0,
 * or -1 with err when the text does not fit (a cut text names another match). */
enum { MATCH_CONFIG_MAX = 4096 };

static int match_config(const Match *m, bool legacy, char config[MATCH_CONFIG_MAX], char err[ERR_MAX])
{
    const TrainOptions *o = m->o;
    const TrainMatch *tm = &m->tm;
    const SprtParams *sp = &tm->sprt;
    char sprt[200], db[MATCH_CONFIG_MAX] = "", machine[80] = "", progress[64] = "";
    if (tm->gate)
        snprintf(sprt, sizeof sprt, "sprt = 1\nelo0 = %.17g\nelo1 = %.17g\nalpha = %.17g\nbeta = %.17g\n", sp->elo0,
                 sp->elo1, sp->alpha, sp->beta);
    else
        snprintf(sprt, sizeof sprt, "elo0 = %g\nelo1 = %g\nalpha = %g\nbeta = %g\n", sp->elo0, sp->elo1, sp->alpha,
                 sp->beta);
    if (legacy) {
        snprintf(db, sizeof db, "db = %s\n", o->db_path);
        snprintf(machine, sizeof machine, "threads = %d\nhash = %lld\n", tm->threads, (long long)o->hash_mb);
        snprintf(progress, sizeof progress, "progress = %.17g\n", o->progress_s);
    }
    int n = snprintf(config, MATCH_CONFIG_MAX,
             "game = %s\n%sa = db:%lld\nb = db:%lld\npairs = %lld\nnodes = %llu\ndepth = 0\n"
             "%s%s%s%srandom-plies = %d\nbalance = %d\nmax-plies = %d\negtb-pieces = 0\n"
             "egtb-engines = both\nseed = %llu\nrepeat-book = 1\nrepeat-plies = %d\n%s%s",
             o->game->name, db, (long long)tm->ws[0], (long long)tm->ws[1], (long long)tm->pairs,
             (unsigned long long)o->nodes, machine, o->selfplay.openings ? "openings = " : "",
             o->selfplay.openings ? o->selfplay.openings : "", o->selfplay.openings ? "\n" : "",
             o->selfplay.random_plies, o->selfplay.balance, o->selfplay.max_plies, (unsigned long long)m->seed,
             o->repeat_plies, sprt, progress);
    if (n < 0 || n >= MATCH_CONFIG_MAX) /* cut, it would name another match */
        return err_set(err, "the gate match's settings are over %d bytes: the openings file's or the database's path "
                            "is too long", MATCH_CONFIG_MAX - 1);
    return 0;
}

/* The plan of order's match (every rank the same) and its opening book.
 * Returns 0, or -1 with err. */
static int prepare(Match *m, const TrainOrder *order, char err[ERR_MAX])
{
    const TrainOptions *o = m->o;
    const Game *g = o->game;
    bool gate = order->gate != 0;
    TrainMatch *tm = &m->tm;
    *tm = (TrainMatch){.gate = gate, .generation = order->generation, .ws = {order->ws[0], order->ws[1]},
                       .pairs = gate ? o->gate_pairs : o->ladder_pairs, .threads = o->threads,
                       .sprt = gate ? o->gate : o->ladder, .limits = {.nodes = o->nodes}, .row = &m->row};
    m->seed = train_stage_seed(o->seed, order->generation, gate ? 0x67617465ULL : 0x6c616464ULL);
    if (stats_check_sprt(&tm->sprt, err, ERR_MAX) != 0) return -1;
    /* Every rank makes the book itself (from the seed). */
    if (openings_for_run(g, o->selfplay.openings, o->selfplay.random_plies, o->selfplay.balance, m->seed, &m->book,
                         err) != 0) {
        if (dist_size() > 1) train_abort("match", err);
        return -1;
    }
    tm->book_len = m->book.len;
    if (tm->pairs > m->book.len && openings_repeat(g, &m->book, tm->pairs, o->repeat_plies, m->seed, err) != 0) {
        char what[ERR_MAX];
        snprintf(what, sizeof what, "--repeat-book: %.200s", err);
        if (dist_size() > 1) train_abort("match", what);
        snprintf(err, ERR_MAX, "%s", what);
        return -1;
    }
    m->w[0] = eval_weights_new(g);
    m->w[1] = eval_weights_new(g);
    m->stored = malloc((size_t)(tm->pairs > 0 ? tm->pairs : 1) * 2);
    if (!m->w[0] || !m->w[1] || !m->stored) {
        if (dist_size() > 1) train_abort("match", "out of memory");
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    m->plan = (MatchPlan){.game = g, .weights = {m->w[0], m->w[1]}, .book = &m->book, .book_len = tm->book_len,
                          .pairs = tm->pairs, .threads = o->threads, .max_plies = o->selfplay.max_plies,
                          .seed = m->seed, .sprt = gate, .sprt_params = tm->sprt, .probe = {true, true},
                          .stop = o->stop, .progress = progress, .progress_ctx = m};
    if (dist_size() > 1) m->plan.run_schedule = run_dist;
    const char *labels[2] = {"A", "B"};
    for (int i = 0; i < 2; i++) {
        m->plan.specs[i] = (PlayerSpec){.kind = PLAYER_DAMA, .limits = tm->limits,
                                        .hash_mb = o->hash_mb / 2 > 0 ? o->hash_mb / 2 : 1};
        snprintf(m->plan.specs[i].name, sizeof m->plan.specs[i].name, "%s", labels[i]);
    }
    return 0;
}

/* Rank 0's set-up: both engines' weights, and the match's run, both
 * weight sets tied to it and its matches row stored, or the stored run of
 * this match (killed before its generation moved on) resumed, its games in
 * m->stored (match_open_run). */
static int store(Match *m, struct Db *db, const char **names, char err[ERR_MAX])
{
    const Game *g = m->o->game;
    TrainMatch *tm = &m->tm;
    char spec[2][32], config[MATCH_CONFIG_MAX], legacy[MATCH_CONFIG_MAX];
    for (int i = 0; i < 2; i++) {
        snprintf(spec[i], sizeof spec[i], "db:%lld", (long long)tm->ws[i]);
        if (weights_resolve_db(g, spec[i], db, m->w[i], &tm->ws[i], err) != 0) return -1;
    }
    if (match_config(m, false, config, err) != 0 || match_config(m, true, legacy, err) != 0) return -1;
    const char *specs[2] = {spec[0], spec[1]}, *identity = config;
    MatchRows rows = {0};
    int rc = match_identity(db, g->name, m->seed, config, legacy, &identity, err);
    if (rc == 0) rc = match_open_run(db, &m->plan, identity, specs, names, &rows, m->stored, err);
    tm->run_id = rows.run_id;
    tm->id = rows.match_id;
    if (rc == 0) tm->ws[0] = rows.ws[0], tm->ws[1] = rows.ws[1];
    m->plan.ws_id[0] = tm->ws[0], m->plan.ws_id[1] = tm->ws[1];
    m->row = (DbMatch){.run_id = tm->run_id, .game = g->name, .ws_a = tm->ws[0], .ws_b = tm->ws[1]};
    tm->result = (MatchResult){.decision = SPRT_CONTINUE};
    stats_init(&tm->result.st);
    match_fill_row(&m->row, &tm->result, &m->plan);
    return rc;
}

/* Play order's match on every rank: rank 0 (db, names) stores it and
 * sends the others whether to play and both engines' weights. Returns, on
 * every rank, rank 0's verdict: 0 complete, 3 interrupted, 1 failed (err
 * on rank 0; the match's own failure also in the MATCH_END event). */
static int play(Match *m, const TrainOrder *order, struct Db *db, const char **names, char err[ERR_MAX])
{
    const TrainOptions *o = m->o;
    bool dist = dist_size() > 1, writer = dist_rank() == 0;
    int rc = prepare(m, order, err);
    if (rc == 0 && writer) rc = store(m, db, names, err);
    if (rc != 0 && writer) event(o, (TrainEvent){.kind = TRAIN_EVENT_MATCH_END, .match = &m->tm, .status = -1,
                                                 .text = err});
    if (dist) {
        int64_t go = rc;
        size_t size = sizeof(int32_t) * (size_t)o->game->weights_len;
        char berr[ERR_MAX];
        if (dist_sync_polled(berr) != 0 || dist_bcast_bytes(&go, sizeof go, 0, berr) != 0 ||
            (go == 0 && (dist_bcast_bytes(m->w[0], size, 0, berr) != 0 || dist_bcast_bytes(m->w[1], size, 0, berr) != 0 ||
                         dist_bcast_bytes(m->stored, (size_t)m->tm.pairs * 2, 0, berr) != 0)))
            train_abort("match", berr);
        rc = (int)go;
    }
    if (rc != 0) return 1;
    m->plan.stored = m->stored;
    if (writer) event(o, (TrainEvent){.kind = TRAIN_EVENT_MATCH_START, .match = &m->tm});
    char merr[ERR_MAX];
    m->tm.played = true;
    rc = match_play(writer ? db : NULL, m->tm.run_id, m->tm.id, &m->plan, &m->tm.result, merr);
    if (writer) match_fill_row(&m->row, &m->tm.result, &m->plan);
    event(o, (TrainEvent){.kind = TRAIN_EVENT_MATCH_END, .match = &m->tm, .status = rc, .text = merr});
    if (!writer) return dist_relay_final("match", 1); /* rank 0 decides */
    int verdict = rc != 0 ? 1 : m->tm.result.complete ? 0 : 3;
    if (rc != 0) snprintf(err, ERR_MAX, "%s", merr);
    return dist ? dist_relay_final("match", verdict) : verdict;
}

static void match_free(Match *m)
{
    free(m->w[0]);
    free(m->w[1]);
    free(m->stored);
    openings_free(&m->book);
}

void train_follow_match(const TrainOptions *o, const TrainOrder *order)
{
    Match m = {.o = o};
    char err[ERR_MAX];
    play(&m, order, NULL, NULL, err); /* rank 0 reports how it went */
    match_free(&m);
}

/* Rank 0: the match of candidate a against b for generation gen; *m the
 * stored row (its Elo, LLR, SPRT) and *id its id. Returns 0, or 1 / 3 with
 * t->err. */
static int train_match(Train *t, const DbGeneration *gen, bool gate, int64_t a, int64_t b, DbMatch *row, int64_t *id)
{
    TrainOrder order = {.kind = TRAIN_ORDER_MATCH, .generation = gen->generation, .gate = gate, .ws = {a, b}};
    train_order_send(&order);
    Match m = {.o = t->o};
    char err[ERR_MAX] = "";
    int rc = play(&m, &order, t->db, t->names, err);
    *row = m.row;
    *id = m.tm.id;
    match_free(&m);
    if (rc != 0)
        snprintf(t->err, ERR_MAX, "generation %d: %s match %s", gen->generation, gate ? "gate" : "ladder",
                 rc == 3 ? "interrupted; run the same command again to resume" : "failed");
    return rc == 3 ? 3 : rc != 0 ? 1 : 0;
}

int train_stage_gate(Train *t, DbGeneration *gen)
{
    const TrainOptions *o = t->o;
    DbMatch m;
    int64_t id = 0;
    int rc = train_match(t, gen, true, gen->candidate_ws, gen->parent_ws, &m, &id);
    if (rc != 0) return rc;
    gen->gate_match = id;
    gen->gate_elo = m.elo;
    gen->gate_elo_lo = m.elo_lo;
    gen->gate_elo_hi = m.elo_hi;
    gen->gate_games = m.games;
    const char *result = m.sprt_result ? m.sprt_result : "";
    bool h1 = strcmp(result, "H1") == 0, h0 = strcmp(result, "H0") == 0;
    if (h1 || h0)
        snprintf(gen->reason, sizeof gen->reason, "SPRT [%g, %g] accepted %s after %lld pairs (LLR %.2f)",
                 o->gate.elo0, o->gate.elo1, result, (long long)m.sprt_pairs, m.sprt_llr);
    else
        snprintf(gen->reason, sizeof gen->reason, "SPRT [%g, %g] undecided after %lld pairs (LLR %.2f)",
                 o->gate.elo0, o->gate.elo1, (long long)(m.games / 2), m.llr);
    gen->accepted = h1 ? 1 : 0;
    gen->best_ws = h1 ? gen->candidate_ws : gen->parent_ws;
    gen->stage = h1 && o->ladder_pairs > 0 ? "ladder" : "done";
    event(o, (TrainEvent){.kind = TRAIN_EVENT_GATE, .train = t->r, .gen = gen});
    return db_generation_put(t->db, gen, t->err) != 0 ? 1 : 0;
}

int train_stage_ladder(Train *t, int64_t gen0_ws, DbGeneration *gen)
{
    DbMatch m;
    int64_t id = 0;
    int rc = train_match(t, gen, false, gen->candidate_ws, gen0_ws, &m, &id);
    if (rc != 0) return rc;
    gen->ladder_match = id;
    gen->ladder_elo = m.elo;
    gen->ladder_elo_lo = m.elo_lo;
    gen->ladder_elo_hi = m.elo_hi;
    gen->ladder_games = m.games;
    gen->stage = "done";
    event(t->o, (TrainEvent){.kind = TRAIN_EVENT_LADDER, .train = t->r, .gen = gen});
    return db_generation_put(t->db, gen, t->err) != 0 ? 1 : 0;
}
