/* stages.c — a generation's self-play and tuning, on rank 0 and on the
 * ranks that follow it (contracts in train/stages.h). */
#include "train/stages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/weight_sets.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "engine/eval.h"
#include "tuner/dist_reducer.h"

void train_order_send(const TrainOrder *order)
{
    if (dist_size() < 2) return;
    char err[ERR_MAX];
    if (dist_order_send(order, sizeof *order, err) != 0) train_abort("train", err);
}

_Noreturn void train_abort(const char *cmd, const char *what)
{
    if (dist_rank() == 0) fprintf(stderr, "dama %s: %s\n", cmd, what);
    else fprintf(stderr, "dama %s: rank %d: %s\n", cmd, dist_rank(), what);
    dist_abort(1);
}

static void event(const TrainOptions *o, TrainEvent ev)
{
    if (o->event) o->event(o->ctx, &ev);
}

/* The configuration text that identifies a generation's self-play run
 * (db_run_find): the "key = value" lines `dama selfplay` stored for the
 * options train gave it (each in the form train wrote it, the rest as
 * their defaults), in that command's order; trains stored before train
 * called selfplay_run find their runs again. */
static void selfplay_identity(const SelfplayOptions *s, char config[4096])
{
    int n = snprintf(config, 4096, "game = %s\nnodes = %llu\ndepth = %d\n", s->game->name,
                     (unsigned long long)s->nodes, s->depth);
    if (s->openings && n >= 0 && n < 4096) n += snprintf(config + n, 4096 - (size_t)n, "openings = %s\n", s->openings);
    if (n >= 0 && n < 4096)
        snprintf(config + n, 4096 - (size_t)n,
                 "random-plies = %d\nbalance = %d\nmax-plies = %d\negtb-pieces = %d\n%sseed = %llu\nweights = %s\n"
                 "perturb = %s\npopulation = %d\nspread = %.17g\nspread-min = %.17g\n",
                 s->random_plies, s->balance, s->max_plies, s->egtb_pieces,
                 s->egtb_adjudicate ? "egtb-adjudicate = 1\n" : "", (unsigned long long)s->seed, s->weights,
                 s->perturb == SELFPLAY_PERTURB_PAIRS ? "pairs" : "population", s->population, s->spread,
                 s->spread_min);
}

/* A generation's self-play options (every rank the same): the template
 * with the train's games, search, seed and the parent weights (spec gets
 * "db:ID"). */
static void selfplay_options(const TrainOptions *o, int generation, int64_t parent_ws, char spec[32],
                             char config[4096], SelfplayOptions *s)
{
    *s = o->selfplay;
    s->game = o->game;
    s->games = o->games_per_gen;
    s->nodes = o->nodes;
    s->threads = o->threads;
    s->hash_mb = o->hash_mb;
    s->seed = train_stage_seed(o->seed, generation, 0x73656c66ULL);
    snprintf(spec, 32, "db:%lld", (long long)parent_ws);
    s->weights = spec;
    s->shard_r = 0;
    s->shard_k = 1;
    s->stop = o->stop;
    selfplay_identity(s, config);
    s->config = config;
}

/* selfplay_run with the generation's options; the SELFPLAY_END event on
 * every rank. Returns its SelfplayStatus, *run_id its run. */
static int selfplay(const TrainOptions *o, struct Db *db, int generation, int64_t parent_ws, int64_t *run_id,
                    char err[ERR_MAX])
{
    char spec[32], config[4096];
    SelfplayOptions s;
    selfplay_options(o, generation, parent_ws, spec, config, &s);
    SelfplayResult r;
    int st = selfplay_run(db, &s, &r, err);
    event(o, (TrainEvent){.kind = TRAIN_EVENT_SELFPLAY_END, .status = st, .selfplay = &r, .text = err});
    *run_id = r.run_id;
    selfplay_result_free(&r);
    return st;
}

int train_stage_selfplay(Train *t, DbGeneration *gen)
{
    const TrainOptions *o = t->o;
    train_order_send(&(TrainOrder){.kind = TRAIN_ORDER_SELFPLAY, .generation = gen->generation,
                                   .parent_ws = gen->parent_ws});
    int64_t run_id = 0;
    char err[ERR_MAX];
    int st = selfplay(o, t->db, gen->generation, gen->parent_ws, &run_id, err);
    if (st == SELFPLAY_BUSY) {
        snprintf(t->err, ERR_MAX, "generation %d: self-play: %.200s", gen->generation, err);
        return DB_BUSY;
    }
    if (st != SELFPLAY_DONE) {
        snprintf(t->err, ERR_MAX, "generation %d: self-play %s", gen->generation,
                 st == SELFPLAY_INTERRUPTED ? "interrupted; run the same command again to resume" : "failed");
        return st == SELFPLAY_INTERRUPTED ? 3 : 1;
    }
    gen->selfplay_run = run_id;
    gen->stage = "tune";
    if (db_generation_put(t->db, gen, t->err) != 0) return 1;
    event(o, (TrainEvent){.kind = TRAIN_EVENT_SELFPLAY, .train = t->r, .gen = gen});
    return 0;
}

/* A generation's tuning options (every rank the same), from the parent
 * weight set parent_ws (start: its weights; spec gets "db:ID") and the
 * self-play runs (a list "3,5"); over several ranks with red's reducer.
 * The writer sets name and config. */
static void tune_options(const TrainOptions *o, struct Db *db, int64_t parent_ws, const char *runs, int generation,
                         const int32_t *start, char spec[32], TuneJobOptions *to, TexelReducer *red)
{
    snprintf(spec, 32, "db:%lld", (long long)parent_ws);
    *to = o->tune;
    to->game = o->game;
    to->db = db;
    to->db_path = o->db_path;
    to->start = start;
    to->start_spec = spec;
    to->runs = runs;
    to->games_below = o->games_per_gen; /* a run another train extended holds more */
    to->threads = o->threads;
    to->seed = train_stage_seed(o->seed, generation, 0x74756e65ULL);
    to->stop = o->stop;
    to->discard_interrupted = true; /* a resumed train tunes the generation again, as if never stopped */
    if (dist_rank() != 0) to->log = NULL; /* rank 0 logs */
    if (dist_size() > 1) {
        dist_reducer_init(red);
        to->reducer = red;
    }
}

/* The window: the self-play runs of generations i-W+1 .. i, as a list. */
static int window_runs(Train *t, const DbGeneration *gens, DbGeneration *gen)
{
    int w = t->o->window;
    size_t n = 0;
    gen->data_runs[0] = '\0';
    for (int i = gen->generation - w + 1 < 1 ? 1 : gen->generation - w + 1; i <= gen->generation; i++) {
        int64_t run = i == gen->generation ? gen->selfplay_run : gens[i].selfplay_run;
        if (!run) continue;
        int k = snprintf(gen->data_runs + n, sizeof gen->data_runs - n, "%s%lld", n ? "," : "", (long long)run);
        if (k < 0 || (size_t)k >= sizeof gen->data_runs - n) {
            snprintf(t->err, ERR_MAX, "--window %d: too many runs to list", w);
            return -1;
        }
        n += (size_t)k;
    }
    return 0;
}

/* After the tuning: the candidate, or its rejection when it equals its
 * parent (the same values are the same weight set: nothing to gate). */
static int tuned(Train *t, DbGeneration *gen, const TuneJobResult *r)
{
    gen->tuning_run = r->tuning_id;
    gen->candidate_ws = r->result_ws;
    if (r->result_ws == gen->parent_ws) {
        gen->accepted = 0;
        if (r->texel.rounded_back)
            snprintf(gen->reason, sizeof gen->reason,
                     "the candidate equals its parent (epoch %d's weights had the best held-out loss, but rounded "
                     "they were no better than the parent's)", r->texel.rounded_back);
        else if (r->texel.stop == TEXEL_STOP_PATIENCE && r->texel.best_epoch == 0)
            /* the first epochs overshot (docs/results/2026-12-06-shatra-hub-turkish-stall.md) */
            snprintf(gen->reason, sizeof gen->reason,
                     "the candidate equals its parent (no epoch's held-out loss fell below the start's within "
                     "--patience %d: give smaller steps, --lr and --pattern-lr, a larger --patience, or more games, "
                     "--games-per-gen)",
                     t->o->tune.patience);
        else
            snprintf(gen->reason, sizeof gen->reason, "the candidate equals its parent (tuning changed no weight)");
        gen->best_ws = gen->parent_ws;
        gen->stage = "done";
    } else {
        gen->stage = "gate";
    }
    event(t->o, (TrainEvent){.kind = TRAIN_EVENT_TUNE, .train = t->r, .gen = gen, .tune = r});
    return db_generation_put(t->db, gen, t->err) != 0 ? 1 : 0;
}

/* The generation's tuning finished already (its run done: the process was
 * killed after the tuning stored its result, before the generation moved
 * on): *r as tune_job_run gave it. Returns 1 found, 0 not, -1 with
 * t->err. */
static int tuned_before(Train *t, const DbGeneration *gen, const char *config, TuneJobResult *r)
{
    const TrainOptions *o = t->o;
    char status[DB_STATUS_MAX] = "";
    int64_t run_id = 0, id = 0;
    DbTuning row;
    memset(r, 0, sizeof *r);
    uint64_t seed = train_stage_seed(o->seed, gen->generation, 0x74756e65ULL); /* tune_options' */
    if (db_run_find(t->db, "tune", o->game->name, seed, config, &run_id, status, t->err) != 0) return -1;
    if (!run_id || strcmp(status, "done") != 0) return 0;
    if (db_tuning_of_run(t->db, run_id, &id, &row, t->err) != 0) return -1;
    if (!id) return 0;
    r->run_id = run_id;
    r->tuning_id = id;
    r->base_ws = row.base_ws;
    r->unchanged = row.result_ws == 0; /* no weight changed: the start is the result */
    r->result_ws = r->unchanged ? row.base_ws : row.result_ws;
    r->positions = (size_t)(row.positions_train + row.positions_valid);
    r->texel.k = row.k;
    r->texel.train_loss = row.train_loss;
    r->texel.valid_loss = row.valid_loss;
    r->texel.train_loss_start = r->texel.valid_loss_start = 0.0 / 0.0; /* not stored */
    return 1;
}

int train_stage_tune(Train *t, const DbGeneration *gens, DbGeneration *gen)
{
    const TrainOptions *o = t->o;
    const Game *g = o->game;
    if (window_runs(t, gens, gen) != 0) return 1;
    char spec[32], name[64], config[4600];
    snprintf(name, sizeof name, "train-%lld-gen-%d", (long long)t->r->id, gen->generation);
    snprintf(config, sizeof config, "%strain = %lld\ngeneration = %d\n", t->config, (long long)t->r->id,
             gen->generation);
    TuneJobResult r;
    int before = tuned_before(t, gen, config, &r);
    if (before < 0) return 1;
    if (before) return tuned(t, gen, &r);
    TrainOrder order = {.kind = TRAIN_ORDER_TUNE, .generation = gen->generation, .parent_ws = gen->parent_ws};
    memcpy(order.data_runs, gen->data_runs, sizeof order.data_runs);
    train_order_send(&order); /* the ranks tune with rank 0 */
    EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
    EVAL_AUTO_FREE int32_t *out = eval_weights_new(g);
    if (!start || !out) {
        snprintf(t->err, ERR_MAX, "out of memory for %d weights", g->weights_len);
        if (dist_size() > 1) dist_abort(1); /* the others are in the tuner */
        return 1;
    }
    if (db_weights_load(t->db, gen->parent_ws, g->name, t->names, start, g->weights_len, t->err) != 0) {
        if (dist_size() > 1) train_abort("train", t->err);
        return 1;
    }
    TuneJobOptions to;
    TexelReducer red;
    tune_options(o, t->db, gen->parent_ws, gen->data_runs, gen->generation, start, spec, &to, &red);
    to.name = name;
    to.config = config;
    TuneJobStatus st = tune_job_run(&to, out, &r, t->err);
    if (st == TUNE_JOB_INTERRUPTED || st == TUNE_JOB_STOPPED_LOADING) {
        snprintf(t->err, ERR_MAX, "generation %d: tuning interrupted; run the same command again to resume",
                 gen->generation);
        return 3;
    }
    if (st != TUNE_JOB_DONE) {
        char why[120];
        memcpy(why, t->err, sizeof why - 1); /* t->err ends in a NUL within ERR_MAX; a longer one is cut */
        why[sizeof why - 1] = 0;
        /* too few positions: this generation's self-play, done, will not grow */
        snprintf(t->err, ERR_MAX, "generation %d: tuning: %s%s", gen->generation, why,
                 r.too_few ? ": start a new train with more --games-per-gen" : "");
        return 1;
    }
    return tuned(t, gen, &r);
}

/* A rank other than 0: its share of a generation's tuning. */
static void follow_tune(const TrainOptions *o, const TrainOrder *order)
{
    const Game *g = o->game;
    char err[ERR_MAX];
    EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
    EVAL_AUTO_FREE int32_t *out = eval_weights_new(g);
    const char **names = weight_names_new(g);
    struct Db *db = NULL;
    if (!start || !out || !names) train_abort("train", "out of memory");
    if (db_open(o->db_path, false, &db, err) != 0 ||
        db_weights_load(db, order->parent_ws, g->name, names, start, g->weights_len, err) != 0)
        train_abort("train", err);
    TuneJobOptions to;
    TexelReducer red;
    char spec[32];
    tune_options(o, db, order->parent_ws, order->data_runs, order->generation, start, spec, &to, &red);
    TuneJobResult r;
    tune_job_run(&to, out, &r, err); /* rank 0 reports how it went */
    db_close(db);
    free((void *)names);
}

void train_follow(const TrainOptions *o, const TrainOrder *order)
{
    int64_t run_id;
    switch (order->kind) {
    case TRAIN_ORDER_SELFPLAY: {
        char err[ERR_MAX];
        selfplay(o, NULL, order->generation, order->parent_ws, &run_id, err); /* rank 0 reports how it went */
        return;
    }
    case TRAIN_ORDER_TUNE:
        follow_tune(o, order);
        return;
    case TRAIN_ORDER_MATCH:
        train_follow_match(o, order);
        return;
    default: {
        char what[64];
        snprintf(what, sizeof what, "an order it does not know (%d)", (int)order->kind);
        train_abort("train", what);
    }
    }
}
