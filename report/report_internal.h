/* report_internal.h — what the files of `dama report`'s page share (private
 * to report/): the page being written, table cells, and the small writers
 * every section uses (report.c). Each section is one function in the file
 * of its topic: report.c (self-play and tuning runs), report_weights.c
 * (weight sets and generations), report_matches.c (matches and
 * tournaments). A section reads its rows with db/db_report.h and only
 * formats them. Not thread-safe for one page. */
#ifndef DAMA_REPORT_INTERNAL_H
#define DAMA_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "db/db_report.h"
#include "report/report.h"
#include "report/svg.h"

/* The page being written. */
typedef struct Report {
    Db *db;
    const ReportOptions *o;
    SvgBuf *b;
    char *err; /* ERR_MAX */
} Report;

/* Colours of results (colour-blind safe: Okabe and Ito). */
#define REPORT_COLOR_WIN "#0072b2"
#define REPORT_COLOR_DRAW "#999999"
#define REPORT_COLOR_LOSS "#d55e00"
#define REPORT_COLOR_MIXED "#cc79a7"

/* A list of formatted strings for table cells, freed together; oom is set
 * when an allocation failed (the list is then short). */
typedef struct Cells {
    char **s;
    int len, cap;
    bool oom;
} Cells;

/* Append one cell, formatted like printf. */
void cells_add(Cells *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A real with d decimals, "–" for NaN, "+inf"/"-inf" spelled out. */
void cells_add_real(Cells *c, double v, int d);
void cells_free(Cells *c);

/* A table of cols columns from c's cells, row by row (a ragged list sets
 * c->oom); cls is its class, caption may be NULL. */
void report_table(Report *r, const char *cls, const char *caption, const char *const *header, int cols, Cells *c);
/* A paragraph of class cls with text (escaped). */
void report_p(Report *r, const char *cls, const char *text);
/* A section's start (its id, title and what it shows; what may be NULL) and end. */
void report_section_open(Report *r, const char *id, const char *title, const char *what);
void report_section_close(Report *r);
/* A plot that svg.h refused (a value the section did not filter): say so on
 * the page rather than lose the section. */
void report_plot_failed(Report *r, const char *serr);
/* Set r->err to "out of memory" and return -1. */
int report_oom(Report *r);

/* A text column: "" for NULL. */
static inline const char *report_str(const char *s)
{
    return s ? s : "";
}

/* An integer column that may be NULL (DB_NULL_INT) as text: "" for NULL. */
static inline const char *report_opt(char buf[24], int64_t v)
{
    if (v == DB_NULL_INT) return "";
    snprintf(buf, 24, "%lld", (long long)v);
    return buf;
}

/* An integer column that may be NULL, 0 for NULL. */
static inline int64_t report_or0(int64_t v)
{
    return v == DB_NULL_INT ? 0 : v;
}

/* The sections, in the page's order. 0, or -1 with r->err. */
int report_section_selfplay(Report *r);
int report_section_tuning(Report *r);
int report_section_weights(Report *r);
int report_section_matches(Report *r);
int report_section_tournaments(Report *r);
int report_section_generations(Report *r);

#endif
