/* stages.h — the stages of a train generation (train/train.h), and the
 * orders rank 0 sends the other ranks of an MPI job before each. Internal
 * to train/. */
#ifndef DAMA_TRAIN_STAGES_H
#define DAMA_TRAIN_STAGES_H

#include <stdint.h>

#include "db/db.h"
#include "train/train.h"
#include "util/rng.h"

/* A train under way on rank 0. */
typedef struct Train {
    const TrainOptions *o;
    struct Db *db;
    TrainResult *r;
    const char *config; /* the train's identity (o->config and the start weight set) */
    const char **names; /* the game's weight names */
    char err[ERR_MAX];
} Train;

/* What rank 0 tells the other ranks to do next: a plain struct (every
 * rank runs the same binary), sent whole. Each rank builds the stage's
 * options from its own TrainOptions and these values, as rank 0 does. */
typedef enum TrainOrderKind {
    TRAIN_ORDER_END = 1,  /* the train ended with status */
    TRAIN_ORDER_SELFPLAY, /* generation's self-play from parent_ws */
    TRAIN_ORDER_TUNE,     /* generation's tuning from parent_ws on data_runs */
    TRAIN_ORDER_MATCH,    /* generation's gate (gate 1) or ladder match of ws[0] vs ws[1] */
} TrainOrderKind;

typedef struct TrainOrder {
    int32_t kind;       /* a TrainOrderKind */
    int32_t generation;
    int32_t status;     /* TRAIN_ORDER_END: a TrainStatus */
    int32_t gate;
    int64_t parent_ws;
    int64_t ws[2];
    char data_runs[DB_DATA_RUNS_MAX];
} TrainOrder;

/* A seed for stage `what` of generation gen, within the range of a
 * command-line seed (53 bits). */
static inline uint64_t train_stage_seed(uint64_t seed, int gen, uint64_t what)
{
    return rng_derive(rng_derive(seed, (uint64_t)gen), what) & ((1ULL << 53) - 1);
}

/* Rank 0: send order to every other rank (no-op in one process). An MPI
 * error ends the job. Main thread. */
void train_order_send(const TrainOrder *order);

/* A line on stderr ("dama CMD: rank R: WHAT" on ranks 1..), then the end
 * of the job (dist_abort(1)): a failure the other ranks cannot see. */
_Noreturn void train_abort(const char *cmd, const char *what);

/* The stages on rank 0. Each sends its order first, stores the stage in
 * the generation's row and raises its event. Return 0, 1 (failed: t->err)
 * or 3 (interrupted: t->err says to run it again). gen0_ws: generation
 * 0's weight set. */
int train_stage_selfplay(Train *t, DbGeneration *gen);
int train_stage_tune(Train *t, const DbGeneration *gens, DbGeneration *gen);
int train_stage_gate(Train *t, DbGeneration *gen);
int train_stage_ladder(Train *t, int64_t gen0_ws, DbGeneration *gen);

/* The same stages on ranks 1.. (their share; rank 0 reports);
 * train_follow dispatches an order, train_follow_match plays a match's. */
void train_follow(const TrainOptions *o, const TrainOrder *order);
void train_follow_match(const TrainOptions *o, const TrainOrder *order);

#endif
