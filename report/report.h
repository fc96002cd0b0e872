/* report.h — `dama report`: one self-contained HTML page (inline SVG plots
 * from svg.h, inline CSS; no script, no network, no external font) of what
 * a dama database holds: self-play runs, tuning runs, weight sets and their
 * lineage, matches, tournaments and generations.
 *
 * Every number on the page is read from the database (or computed from its
 * rows the way dama computes it: tournament ratings by ratings.c, the SPRT
 * LLR path by stats.c), and every plotted point carries its values in data-
 * attributes (svg.h), so that a test can compare the page with sqlite3
 * queries on the same file. Text from the database is XML-escaped. The
 * page is well-formed XML as well as HTML.
 *
 * The database may be of an older schema version (a read-only connection
 * does not migrate it): a table or column it lacks is a section that says
 * so, not an error. */
#ifndef DAMA_REPORT_H
#define DAMA_REPORT_H

#include "db/db.h"
#include "report/svg.h"

enum {
    REPORT_RUNS_MAX = 12 /* per-run, per-match and per-tournament figures shown for the newest this many */
};

typedef struct ReportOptions {
    const char *game;      /* only this game's rows ("russian"); NULL: every game */
    const char *db_label;  /* the database as the page names it (its path) */
    const char *generated; /* when the page was made (shown as it is), NULL: not shown */
    int refresh_s;         /* > 0: the page asks the browser to reload it every refresh_s seconds (--watch) */
} ReportOptions;

/* Append the whole page for db to out. Returns 0, or -1 with err (a failed
 * query, out of memory); out may then hold part of a page, which the caller
 * must not write anywhere. db is only read. Not thread-safe for one Db. */
int report_html(Db *db, const ReportOptions *o, SvgBuf *out, char err[ERR_MAX]);

#endif
