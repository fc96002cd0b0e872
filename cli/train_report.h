/* train_report.h — the lines of `dama train` (train/train.h): one line per
 * stage and the ladder on stdout; the lines of each generation's self-play
 * and matches, as `dama selfplay` and `dama match` print them, on stderr. */
#ifndef DAMA_CLI_TRAIN_REPORT_H
#define DAMA_CLI_TRAIN_REPORT_H

#include "cli/run_common.h"
#include "cli/selfplay_report.h"
#include "train/train.h"

typedef struct TrainReport {
    const TrainOptions *o;
    double interval;        /* seconds between progress lines (0: none) */
    SelfplayOptions shown;  /* a generation's self-play as its lines show it */
    SelfplayReport selfplay;
    RunProgress match;      /* the match under way */
} TrainReport;

/* Prepare p for the train of o (kept by pointer; call after o is filled,
 * then point o->selfplay.event/ctx at selfplay_report_event and
 * &p->selfplay, o->event/ctx at train_report_event and p). */
void train_report_init(TrainReport *p, const TrainOptions *o, double interval_s);

/* TrainOptions.event with ctx a TrainReport. */
void train_report_event(void *ctx, const TrainEvent *ev);

/* Print the ladder of train train_id (of game) on stdout: a summary line
 * and one row per generation. Returns 0, or -1 with err. */
int train_print_ladder(struct Db *db, int64_t train_id, const char *game, char err[ERR_MAX]);

#endif
