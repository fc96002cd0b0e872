/* selfplay_report.h — the lines of a self-play run (selfplay/selfplay.h)
 * as `dama selfplay` prints them, and `dama train` for each generation's
 * self-play: set-up lines, the banner, progress lines, and the end. */
#ifndef DAMA_CLI_SELFPLAY_REPORT_H
#define DAMA_CLI_SELFPLAY_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/run_common.h"
#include "selfplay/selfplay.h"

typedef struct SelfplayReport {
    const SelfplayOptions *o;
    FILE *out;         /* the run's result lines: stdout, or stderr inside dama train */
    double interval;   /* seconds between progress and set-up lines (0: none) */
    double last_line;  /* set-up seconds of the last set-up line */
    RunProgress prog;  /* from SELFPLAY_EVENT_START */
    bool in_train;     /* a train's generation: no hint naming dama selfplay's options */
} SelfplayReport;

/* Prepare p for a run of o (kept by pointer). */
void selfplay_report_init(SelfplayReport *p, const SelfplayOptions *o, FILE *out, double interval_s);

/* SelfplayOptions.event with ctx a SelfplayReport: set-up lines and
 * progress lines on stderr, rate-limited to the interval; the banner
 * ("selfplay russian: run 3 resumed, ...") on stderr. Rank 0's thread
 * that calls it (under the writer's lock for SELFPLAY_EVENT_GAME). */
void selfplay_report_event(void *ctx, SelfplayEvent ev, const SelfplayResult *r);

/* After selfplay_run returned status with *r and err: on rank 0 prints how
 * the run ended (the final progress line and "selfplay run N: ... games
 * stored ..." on p->out, a failure as "dama selfplay: ERR" on stderr).
 * Returns the exit status: 0 done, 3 interrupted, 1 failed. */
int selfplay_report_end(SelfplayReport *p, int status, const SelfplayResult *r, const char *err);

#endif
