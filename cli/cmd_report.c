/* cmd_report.c — `dama report`: the database as one self-contained HTML
 * page with SVG plots (report/report.h), written through the atomic
 * writer; --watch rewrites it every N seconds while a run goes on. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, gmtime_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "db/db.h"
#include "report/report.h"
#include "util/atomic_file.h"
#include "util/err.h"

static const CliOpt OPTS[] = {
    {"db", OPT_DB, "dama.sqlite", "SQLite database file (opened read-only)", 0, 0},
    {"out", OPT_FILE, "report.html", "HTML file to write (also -o; - for standard output)", 0, 0},
    {"game", OPT_STR, NULL, "only this game: " CLI_GAMES ", or all (default: all, or the config file's game)", 0, 0},
    {"force", OPT_FLAG, NULL, "replace an existing --out (never the database itself)", 0, 0},
    {"watch", OPT_INT, "0", "rewrite the page every N seconds until Ctrl-C (0: once); the page reloads itself as often",
     0, 86400},
    {0},
};

/* One page from a fresh read-only connection. */
static int make_page(const char *db_path, const ReportOptions *o, SvgBuf *page, char err[ERR_MAX])
{
    Db *db = NULL;
    if (db_open_readonly(db_path, &db, err) != 0) return -1;
    int rc = report_html(db, o, page, err);
    db_close(db);
    return rc;
}

static int write_page(const SvgBuf *page, const char *path, const AtomicOptions *opts, char err[ERR_MAX])
{
    if (strcmp(path, "-") == 0) {
        if (errno = 0, fwrite(page->text, 1, page->len, stdout) != page->len || fflush(stdout) != 0) {
            snprintf(err, ERR_MAX, "writing standard output: %s", err_write_text(errno));
            return -1;
        }
        return 0;
    }
    AtomicFile af;
    char aerr[ATOMIC_ERR_MAX];
    if (atomic_file_open(&af, path, opts, aerr) != 0) {
        snprintf(err, ERR_MAX, "%s", aerr);
        return -1;
    }
    if (fwrite(page->text, 1, page->len, af.f) != page->len) {
        atomic_file_abort(&af);
        snprintf(err, ERR_MAX, "%s: write failed", path);
        return -1;
    }
    if (atomic_file_commit(&af, aerr) != 0) {
        snprintf(err, ERR_MAX, "%s", aerr);
        return -1;
    }
    return 0;
}

static int run(CliArgs *a)
{
    const char *game = cli_str(a, "game");
    if (game && strcmp(game, "all") == 0) game = NULL;
    if (game && !game_find(game)) {
        char names[256], why[320];
        game_names(names, sizeof names, ", ", NULL);
        snprintf(why, sizeof why, "unknown game (%s or all)", names);
        return cli_bad_value(a, "game", why);
    }
    const char *db_path = cli_str(a, "db"), *out = cli_str(a, "out");
    int watch = (int)cli_int(a, "watch");
    bool to_stdout = strcmp(out, "-") == 0;
    if (to_stdout && watch) {
        fprintf(stderr, "dama report: --watch rewrites a file: give --out PATH\n");
        return 2;
    }
    AtomicOptions opts = {.replace = cli_flag(a, "force"), .protect_db = db_path};
    char aerr[ATOMIC_ERR_MAX];
    if (!to_stdout && atomic_file_check(out, &opts, aerr) != 0) {
        fprintf(stderr, "dama report: %s\n", aerr);
        return 1;
    }
    if (watch) cli_install_stop_handler();
    for (int pass = 0;; pass++) {
        char when[32];
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        ReportOptions o = {.game = game, .db_label = db_path, .generated = when, .refresh_s = watch};
        SvgBuf page = {0};
        char err[ERR_MAX];
        int rc = make_page(db_path, &o, &page, err);
        if (rc == 0) rc = write_page(&page, out, &opts, err);
        if (rc != 0) {
            fprintf(stderr, "dama report: %s\n", err);
            svg_buf_free(&page);
            return 1;
        }
        if (!to_stdout) fprintf(stdout, "wrote %s (%zu bytes)\n", out, page.len);
        fflush(stdout);
        svg_buf_free(&page);
        if (!watch) return 0;
        opts.replace = true; /* our own page from now on */
        for (int s = 0; s < watch && !cli_stop_requested; s++) {
            struct timespec second = {1, 0};
            nanosleep(&second, NULL);
        }
        if (cli_stop_requested) return 0;
    }
}

const CliCommand cmd_report = {
    "report", "the database as one self-contained HTML page with SVG plots (runs, tuning, weights, matches, ...)",
    "[--db FILE] [-o report.html] [--game G] [--force] [--watch N]", OPTS, run, 0,
};
