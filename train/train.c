/* train.c — a train: its set-up, the generations loop on rank 0 and the
 * orders loop of the other ranks (contracts in train/train.h; the stages
 * in train/stages.c and train/matches.c). */
#include "train/train.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/weight_sets.h"
#include "dist/dist.h"
#include "dist/relay.h"
#include "engine/eval.h"
#include "train/stages.h"

enum { GEN_MAX = 10001 };

typedef struct Gens {
    DbGeneration *items; /* index = generation */
    int len;             /* rows read (generations 0..len-1 if complete) */
    int cap;
} Gens;

static int on_gen(void *ctx, const DbGeneration *g)
{
    Gens *gs = ctx;
    if (g->generation >= gs->cap) return 1;
    gs->items[g->generation] = *g;
    gs->items[g->generation].game = NULL;
    gs->items[g->generation].stage = NULL;
    /* stage as a static string: the walk's buffers end with the call */
    static const char *const STAGES[] = {"selfplay", "tune", "gate", "ladder", "done"};
    for (int i = 0; i < 5; i++)
        if (strcmp(g->stage, STAGES[i]) == 0) gs->items[g->generation].stage = STAGES[i];
    if (g->generation + 1 > gs->len) gs->len = g->generation + 1;
    return 0;
}

int train_generations_read(struct Db *db, int64_t id, DbGeneration **gens, int *len, char err[ERR_MAX])
{
    Gens gs = {.items = calloc(GEN_MAX, sizeof(DbGeneration)), .cap = GEN_MAX};
    *gens = NULL;
    *len = 0;
    if (!gs.items) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    if (db_generations_each(db, id, on_gen, &gs, err) != 0) {
        free(gs.items);
        return -1;
    }
    *gens = gs.items;
    *len = gs.len;
    return 0;
}

static DbGeneration gen_new(int64_t train_id, const Game *g, int generation)
{
    return (DbGeneration){.train_id = train_id, .game = g->name, .generation = generation, .stage = "selfplay",
                          .parent_generation = -1, .gate_elo = 0.0 / 0.0, .gate_elo_lo = 0.0 / 0.0,
                          .gate_elo_hi = 0.0 / 0.0, .accepted = -1, .ladder_elo = 0.0 / 0.0,
                          .ladder_elo_lo = 0.0 / 0.0, .ladder_elo_hi = 0.0 / 0.0};
}

/* Take the train (found, or made with its generation 0) for this process,
 * in one transaction. Returns 0, DB_BUSY or -1 with t->err. */
static int claim(Train *t, const char *config, char was[DB_STATUS_MAX])
{
    const TrainOptions *o = t->o;
    const Game *g = o->game;
    TrainResult *r = t->r;
    DbClaim c;
    int rc = db_begin(t->db, t->err);
    if (rc == 0) rc = db_train_claim(t->db, g->name, o->seed, config, r->start_ws, o->generations, &c, t->err);
    if (rc == DB_BUSY) return rc;
    if (rc == 0) {
        r->id = c.id;
        r->resumed = !c.created;
        snprintf(was, DB_STATUS_MAX, "%s", c.status);
    }
    if (rc == 0 && !r->resumed) /* a resume whose options changed starts afresh: said, naming the one left */
        rc = db_other_interrupted(t->db, "train", g->name, r->id, &r->other_interrupted, t->err);
    if (rc == 0 && !r->resumed) {
        DbGeneration g0 = gen_new(r->id, g, 0);
        g0.stage = "done";
        g0.candidate_ws = r->start_ws;
        g0.best_ws = r->start_ws;
        g0.accepted = 1;
        snprintf(g0.reason, sizeof g0.reason, "generation 0: the start weights (%s)", o->weights);
        g0.ladder_elo = 0;
        rc = db_generation_put(t->db, &g0, t->err);
    } else if (rc == 0) {
        rc = db_train_set_status(t->db, r->id, "running", o->generations, t->err);
    }
    if (rc == 0) rc = db_commit(t->db, t->err);
    if (rc != 0) {
        db_rollback(t->db); /* nothing was taken */
        r->id = 0;
    }
    return rc;
}

/* Find the train or make it with its generation 0, and take it; read its
 * generations into gs. config gets the identity (o->config and the start
 * weight set). Returns 0, DB_BUSY or -1 with t->err. */
static int set_up(Train *t, Gens *gs, char config[4096])
{
    const TrainOptions *o = t->o;
    const Game *g = o->game;
    TrainResult *r = t->r;
    EVAL_AUTO_FREE int32_t *start = eval_weights_new(g);
    if (!start) {
        snprintf(t->err, ERR_MAX, "out of memory for %d weights", g->weights_len);
        return -1;
    }
    /* "best", "train:ID" and "tuned" name what the train itself changes: the
     * spec is the identity, and a train found by it keeps its generation 0 */
    const char *spec = o->weights ? o->weights : "default";
    bool moving = strcmp(spec, "best") == 0 || strcmp(spec, "tuned") == 0 || strncmp(spec, "train:", 6) == 0;
    int64_t found = 0;
    int rc = 0;
    if (moving) {
        snprintf(config, 4096, "%sstart-weights = %s\n", o->config ? o->config : "", spec);
        rc = db_train_find(t->db, g->name, o->seed, config, &found, &r->start_ws, t->err);
    }
    if (rc == 0 && !found) rc = weights_resolve_db(g, o->weights, t->db, start, NULL, t->err);
    if (rc == 0 && !found) rc = weights_store_base(t->db, g, o->weights, start, t->names, 0, &r->start_ws, t->err);
    /* otherwise generation 0's content is part of the identity ('default'
     * names other weights after an export and rebuild) */
    if (!moving)
        snprintf(config, 4096, "%sstart-weight-set = %lld\n", o->config ? o->config : "", (long long)r->start_ws);
    t->config = config;
    char was[DB_STATUS_MAX] = "";
    if (rc == 0) rc = claim(t, config, was);
    if (rc != 0) return rc;
    rc = db_generations_each(t->db, r->id, on_gen, gs, t->err);
    if (rc == 0 && (gs->len < 1 || gs->items[0].candidate_ws != r->start_ws)) {
        snprintf(t->err, ERR_MAX, "train %lld has no generation 0", (long long)r->id);
        rc = -1;
    }
    if (rc != 0) { /* give the train back as it was */
        char ferr[ERR_MAX];
        db_train_set_status(t->db, r->id, was[0] && strcmp(was, "running") != 0 ? was : "interrupted", 0, ferr);
    }
    return rc;
}

/* Generation i's row: read, or new from the best weights so far. */
static int generation(Train *t, Gens *gs, int i)
{
    DbGeneration *prev = &gs->items[i - 1];
    DbGeneration *gen = &gs->items[i];
    if (i >= gs->len) {
        int best_gen = prev->accepted == 1 ? i - 1 : prev->parent_generation;
        *gen = gen_new(t->r->id, t->o->game, i);
        gen->parent_generation = best_gen < 0 ? 0 : best_gen;
        gen->parent_ws = prev->best_ws;
        if (db_generation_put(t->db, gen, t->err) != 0) return -1;
        gs->len = i + 1;
    }
    gen->game = t->o->game->name;
    return 0;
}

/* The generations 1..o->generations, each stage in turn. Returns 0, 1 or
 * 3 (t->err). */
static int generations(Train *t, Gens *gs)
{
    const TrainOptions *o = t->o;
    for (int i = 1; i <= o->generations; i++) {
        if (generation(t, gs, i) != 0) return 1;
        DbGeneration *gen = &gs->items[i];
        if (strcmp(gen->stage, "done") == 0) continue;
        if (o->stop && *o->stop) {
            snprintf(t->err, ERR_MAX, "interrupted; run the same command again to resume");
            return 3;
        }
        int status = 0;
        if (strcmp(gen->stage, "selfplay") == 0) status = train_stage_selfplay(t, gen);
        if (status == 0 && strcmp(gen->stage, "tune") == 0) status = train_stage_tune(t, gs->items, gen);
        if (status == 0 && strcmp(gen->stage, "gate") == 0) status = train_stage_gate(t, gen);
        if (status == 0 && strcmp(gen->stage, "ladder") == 0)
            status = train_stage_ladder(t, gs->items[0].candidate_ws, gen);
        if (status != 0) return status;
    }
    return 0;
}

/* A rank other than 0: rank 0's orders until it ends. */
static int follow(const TrainOptions *o)
{
    for (;;) {
        uint8_t *buf = NULL;
        size_t size = 0;
        char err[ERR_MAX];
        if (dist_order_wait(&buf, &size, err) != 0) train_abort("train", err);
        if (size != sizeof(TrainOrder)) train_abort("train", "a malformed order");
        TrainOrder order;
        memcpy(&order, buf, sizeof order);
        free(buf);
        order.data_runs[sizeof order.data_runs - 1] = '\0';
        if (order.kind == TRAIN_ORDER_END) return order.status;
        train_follow(o, &order);
    }
}

int train_run(struct Db *db, const TrainOptions *o, TrainResult *r, char err[ERR_MAX])
{
    memset(r, 0, sizeof *r);
    err[0] = '\0';
    if (dist_rank() != 0) return follow(o); /* rank 0 decides and writes; this rank plays and tunes its share */
    Train t = {.o = o, .db = db, .r = r, .names = weight_names_new(o->game)};
    Gens gs = {.items = calloc(GEN_MAX, sizeof(DbGeneration)), .cap = GEN_MAX};
    int status = 1;
    char config[4096];
    if (!t.names || !gs.items) snprintf(t.err, ERR_MAX, "out of memory for %d weights", o->game->weights_len);
    else if ((status = set_up(&t, &gs, config)) == 0) status = -1; /* set up: run the generations */
    else if (status != DB_BUSY) status = 1;
    if (status == -1) {
        if (o->event) o->event(o->ctx, &(TrainEvent){.kind = TRAIN_EVENT_START, .train = r});
        status = generations(&t, &gs);
        char ferr[ERR_MAX];
        db_train_set_status(db, r->id, status == 0 ? "done" : "interrupted", 0, ferr);
    }
    free((void *)t.names);
    free(gs.items);
    snprintf(err, ERR_MAX, "%s", status != 0 ? t.err : "");
    int result = status == 0 ? TRAIN_DONE : status == 3 ? TRAIN_INTERRUPTED : status == DB_BUSY ? TRAIN_BUSY : TRAIN_FAILED;
    train_order_send(&(TrainOrder){.kind = TRAIN_ORDER_END, .status = result});
    return result;
}
