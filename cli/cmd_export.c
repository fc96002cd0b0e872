/* cmd_export.c — `dama export`: a weight set as the engine's compiled-in
 * evaluation (the generated, self-contained games/<game>/weights.h), as
 * JSON for apps (read back by libdama-engine's dama_weights_load_json), or
 * as a weight file. Exporting the same weight set twice gives identical
 * bytes. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/weights_json.h"
#include "cli/cli.h"
#include "cli/run_common.h"
#include "tuner/tune_job.h"
#include "db/db.h"
#include "engine/eval.h"
#include "db/weight_sets.h"
#include "engine/weights_file.h"
#include "util/atomic_file.h"
#include "util/err.h"
#include "util/num.h"

#ifndef DAMA_SOURCE_DIR
#define DAMA_SOURCE_DIR "."
#endif

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"db", OPT_DB, "dama.sqlite", "SQLite database file", 0, 0},
    {"weights", OPT_WEIGHTS, "tuned", "weight set: " CLI_WEIGHTS_FORMS, 0, 0},
    {"format", OPT_STR, "c", "c (self-contained C/C++ header), json (for apps: terms, values, provenance) or cfg (weight file)", 0, 0},
    {"out", OPT_FILE, NULL, "file to write, - for standard output (c and json only; cfg is written to a file, atomically) (default for c: engine/games/<game>/weights.h of the source tree this dama was built from)", 0, 0},
    {"header", OPT_FILE, NULL, "header to write (the same as --format c --out PATH)", 0, 0},
    {"file", OPT_FILE, NULL, "also write a weight file", 0, 0},
    {"no-header", OPT_FLAG, NULL, "do not write the header (only --file)", 0, 0},
    {"force", OPT_FLAG, NULL, "replace an existing --out, --header or --file (never the database itself)", 0, 0},
    {0},
};

/* Write text to path (through the atomic writer), or to standard output
 * for "-". */
static int write_out(const char *text, const char *path, const AtomicOptions *opts, char err[ERR_MAX])
{
    if (strcmp(path, "-") != 0) return weights_write_text(text, path, opts, err);
    if (errno = 0, fputs(text, stdout) == EOF || fflush(stdout) != 0) {
        snprintf(err, ERR_MAX, "writing standard output: %s", err_write_text(errno));
        return -1;
    }
    return 0;
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    const char *spec = cli_str(a, "weights");
    const char *format = cli_str(a, "format");
    if (strcmp(format, "c") != 0 && strcmp(format, "json") != 0 && strcmp(format, "cfg") != 0) {
        fprintf(stderr, "dama export: unknown --format '%s' (c, json or cfg)\n", format);
        return 2;
    }
    if (cli_str(a, "header") && (cli_str(a, "out") || strcmp(format, "c") != 0)) {
        fprintf(stderr, "dama export: --header PATH is --format c --out PATH: give one of them\n");
        return 2;
    }
    if (cli_flag(a, "no-header") && !cli_str(a, "file")) {
        fprintf(stderr, "dama export: --no-header needs --file (nothing to write)\n");
        return 2;
    }
    if (strcmp(format, "c") != 0 && !cli_str(a, "out")) {
        fprintf(stderr, "dama export: --format %s needs --out PATH%s\n", format,
                strcmp(format, "json") == 0 ? " (or --out - for standard output)" : "");
        return 2;
    }
    if (cli_str(a, "file") && strcmp(cli_str(a, "file"), "-") == 0) {
        fprintf(stderr, "dama export: --file writes a weight file (atomically): give a path, not '-' (standard "
                        "output is --out - with --format c or json)\n");
        return 2;
    }
    if (strcmp(format, "cfg") == 0 && cli_str(a, "out") && strcmp(cli_str(a, "out"), "-") == 0) {
        fprintf(stderr, "dama export: --format cfg writes a file (atomically): give --out PATH (--out - is for c and "
                        "json)\n");
        return 2;
    }
    bool needs_db = weights_spec_uses_db(g, spec);
    Db *db = NULL;
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(g);
    if (!w) {
        fprintf(stderr, "dama export: out of memory for %d weights\n", g->weights_len);
        return 1;
    }
    int64_t id = 0;
    int rc = needs_db ? db_open_for_reading(cli_str(a, "db"), &db, err) : 0;
    if (rc == 0) rc = weights_resolve_db(g, spec, db, w, &id, err);
    DbWeightsInfo info = {0};
    DbProvenance prov = {0};
    if (rc == 0 && id) rc = db_weights_info(db, id, &info, err);
    if (rc == 0 && id) rc = db_weights_provenance(db, id, &prov, err);
    int64_t rejected_train = 0;
    int rejected_gen = 0;
    double rejected_elo = NAN;
    if (rc == 0 && id) rc = db_weights_gate_rejected(db, id, &rejected_train, &rejected_gen, &rejected_elo, err);
    if (rc == 0 && rejected_train) /* `tuned`, the default, is the newest candidate, gated or not */
        fprintf(stderr, "dama export: warning: weight set %lld is train %lld's generation %d candidate, which failed "
                "its gate (Elo %+.1f against its parent): exported as asked; --weights best takes the best "
                "accepted generation\n", (long long)id, (long long)rejected_train, rejected_gen,
                isfinite(rejected_elo) ? num_shown(rejected_elo, 1) : 0.0);
    if (rc != 0) {
        fprintf(stderr, "dama export: %s\n", err);
        db_weights_info_clear(&info);
        db_close(db);
        return 1;
    }
    /* The lineage line: from the database, the compiled-in header, or the file. */
    char lineage[1024];
    bool is_default = strcmp(spec, "default") == 0 || strcmp(spec, "compiled-in") == 0;
    /* A stored set that is the compiled-in one, value for value and not
     * tuned (a train's start set: `best` before any accepted generation),
     * keeps the compiled-in lineage: rewriting the header names no new
     * provenance for the same weights. */
    bool builtin_same =
        id && !info.tuned && memcmp(w, g->weights_default(), sizeof *w * (size_t)g->weights_len) == 0;
    char vl[TUNE_LOSS_TEXT_MAX];
    if (builtin_same)
        snprintf(lineage, sizeof lineage, "%s", g->weights_lineage ? g->weights_lineage : "compiled-in");
    else if (id && info.tuned)
        snprintf(lineage, sizeof lineage, "weight set %lld \"%.100s\" (%.500s); positions %lld; K %.6f; loss %s; date %s",
                 (long long)id, info.name ? info.name : "", info.how ? info.how : "", (long long)info.positions, info.k,
                 tune_loss_text(info.valid_loss, 8, vl), info.created ? info.created : "-");
    else if (id)
        snprintf(lineage, sizeof lineage, "weight set %lld \"%.100s\" (%.500s); date %s", (long long)id,
                 info.name ? info.name : "", info.how ? info.how : "", info.created ? info.created : "-");
    else if (is_default)
        snprintf(lineage, sizeof lineage, "%s", g->weights_lineage ? g->weights_lineage : "compiled-in");
    else snprintf(lineage, sizeof lineage, "weight file %.900s", spec);

    const char *what = id ? "weight set" : "weights";
    char label[64];
    if (id) snprintf(label, sizeof label, "%lld", (long long)id);
    else snprintf(label, sizeof label, "%.60s", spec);
    const char *dest = cli_str(a, "header") ? cli_str(a, "header") : cli_str(a, "out");
    bool to_stdout = dest && strcmp(dest, "-") == 0;
    FILE *say = to_stdout ? stderr : stdout;
    const char *shown = to_stdout ? "standard output" : cli_str(a, "out"); /* in the "wrote" line */
    /* An explicit --out, --header or --file replaces an existing file only
     * with --force; the default header (the generated weights.h of the
     * source tree) is what export is for. None ever replaces the database
     * (or its -wal/-shm), whatever path names it. All are checked before
     * anything is written. */
    AtomicOptions file_opts = {.replace = cli_flag(a, "force"), .protect_db = cli_str(a, "db")};
    bool default_header = strcmp(format, "c") == 0 && !cli_str(a, "header") && !cli_str(a, "out");
    AtomicOptions out_opts = {.replace = cli_flag(a, "force") || default_header, .protect_db = cli_str(a, "db")};
    char path[1024];
    if (dest) snprintf(path, sizeof path, "%s", dest);
    else snprintf(path, sizeof path, "%s/engine/games/%s/weights.h", DAMA_SOURCE_DIR, g->name);
    char aerr[ATOMIC_ERR_MAX];
    bool writes_main = !(strcmp(format, "c") == 0 && cli_flag(a, "no-header")) && !to_stdout;
    /* one file for both: the second would replace the first */
    if (writes_main && cli_str(a, "file") && atomic_file_same(path, cli_str(a, "file"))) {
        fprintf(stderr, "dama export: %s %s and --file %s name the same file: give two paths\n",
                cli_str(a, "header") ? "--header" : dest ? "--out" : "the default header", path, cli_str(a, "file"));
        db_provenance_clear(&prov);
        db_weights_info_clear(&info);
        db_close(db);
        return 2;
    }
    if ((writes_main && atomic_file_check(path, &out_opts, aerr) != 0) ||
        (cli_str(a, "file") && atomic_file_check(cli_str(a, "file"), &file_opts, aerr) != 0)) {
        fprintf(stderr, "dama export: %s\n", aerr);
        db_provenance_clear(&prov);
        db_weights_info_clear(&info);
        db_close(db);
        return 1;
    }
    if (strcmp(format, "c") == 0 && !cli_flag(a, "no-header")) {
        ExportInfo ei = {.lineage = lineage};
        if (to_stdout) {
            errno = 0;
            rc = weights_export_header_stream(g, w, &ei, stdout, "standard output", err);
            if (rc != 0 && errno == EPIPE) snprintf(err, ERR_MAX, "writing standard output: %s", err_write_text(EPIPE));
        }
        else rc = weights_export_header(g, w, &ei, path, &out_opts, err);
        if (rc == 0) fprintf(say, "wrote %s (%s %s)\n", to_stdout ? shown : path, what, label);
    } else if (strcmp(format, "json") == 0) {
        WeightsProvenance p = {
            .lineage = lineage, .database = id ? cli_str(a, "db") : NULL, .weight_set_id = id, .parent_id = info.parent_id,
            .name = info.name, .how = info.how, .created = info.created, .run_id = prov.run_id, .run_kind = prov.run_kind,
            .run_created = prov.run_created, .run_status = prov.run_status, .tuning_run_id = prov.tuning_run_id, .k = prov.k,
            .train_loss = prov.train_loss, .valid_loss = prov.valid_loss, .positions_train = prov.positions_train,
            .positions_valid = prov.positions_valid, .tuning_data = prov.tuning_data, .match_id = prov.match_id,
            .match_opponent = prov.match_opponent, .games = prov.games, .wins = prov.wins, .draws = prov.draws,
            .losses = prov.losses, .elo = prov.elo, .elo_lo = prov.elo_lo, .elo_hi = prov.elo_hi, .llr = prov.llr};
        char *json = weights_json_format(g, w, &p);
        if (!json) {
            snprintf(err, ERR_MAX, "out of memory");
            rc = -1;
        } else rc = write_out(json, cli_str(a, "out"), &out_opts, err);
        free(json);
        if (rc == 0) fprintf(say, "wrote %s (%s %s, JSON)\n", shown, what, label);
    } else if (strcmp(format, "cfg") == 0) {
        char comment[1100];
        snprintf(comment, sizeof comment, "%s weights: %s", g->name, lineage);
        rc = weights_file_write(g, w, comment, cli_str(a, "out"), &out_opts, err); /* not "-": refused above */
        if (rc == 0) fprintf(say, "wrote %s (%s %s, weight file)\n", cli_str(a, "out"), what, label);
    }
    if (rc == 0 && cli_str(a, "file")) {
        char comment[1100];
        snprintf(comment, sizeof comment, "%s weights: %s", g->name, lineage);
        rc = weights_file_write(g, w, comment, cli_str(a, "file"), &file_opts, err);
        if (rc == 0) fprintf(say, "wrote %s\n", cli_str(a, "file"));
    }
    if (rc != 0 && err[0]) fprintf(stderr, "dama export: %s\n", err);
    db_provenance_clear(&prov);
    db_weights_info_clear(&info);
    db_close(db);
    return rc == 0 ? 0 : 1;
}

const CliCommand cmd_export = {
    "export", "write a weight set as the compiled-in C/C++ header, as JSON for apps, or as a weight file",
    "[--game G] [--db FILE] [--weights W] [--format c|json|cfg] [--out PATH|-] [--file PATH] [--force]", OPTS, run, 0,
};
