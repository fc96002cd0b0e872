/* cmd_export.c — `dama export`: a weight set as the engine's compiled-in
 * evaluation (the generated games/<game>/weights.h) and/or a weight file.
 * Exporting the same weight set twice gives identical bytes. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_common.h"
#include "db/db.h"
#include "engine/eval.h"
#include "tune/weight_sets.h"
#include "tune/weights_file.h"
#include "util/atomic_file.h"

#ifndef DAMA_SOURCE_DIR
#define DAMA_SOURCE_DIR "."
#endif

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"db", OPT_STR, "dama.sqlite", "SQLite database file", 0, 0},
    {"weights", OPT_STR, "tuned", "weight set: db:ID or ID, 'tuned' (newest tuned), a weight file, or 'default'", 0, 0},
    {"header", OPT_STR, NULL, "header to write (default: src/games/<game>/weights.h of the source tree this dama was built from)", 0, 0},
    {"file", OPT_STR, NULL, "also write a weight file", 0, 0},
    {"no-header", OPT_FLAG, NULL, "do not write the header (only --file)", 0, 0},
    {"force", OPT_FLAG, NULL, "replace an existing --header or --file (never the database itself)", 0, 0},
    {0},
};

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    const char *spec = cli_str(a, "weights");
    if (cli_flag(a, "no-header") && !cli_str(a, "file")) {
        fprintf(stderr, "dama export: --no-header needs --file (nothing to write)\n");
        return 2;
    }
    bool needs_db = weights_spec_uses_db(g, spec);
    Db *db = NULL;
    int32_t w[EVAL_WEIGHTS_MAX];
    int64_t id = 0;
    int rc = needs_db ? db_open_readonly(cli_str(a, "db"), &db, err) : 0;
    if (rc == 0) rc = weights_resolve_db(g, spec, db, w, &id, err);
    DbWeightsInfo info = {0};
    if (rc == 0 && id) rc = db_weights_info(db, id, &info, err);
    if (rc != 0) {
        fprintf(stderr, "dama export: %s\n", err);
        db_close(db);
        return 1;
    }
    char hash[DB_HASH_HEX];
    const char **names = weight_names_new(g);
    if (!names) {
        fprintf(stderr, "dama export: out of memory\n");
        db_weights_info_clear(&info);
        db_close(db);
        return 1;
    }
    db_weights_hash(g->name, names, w, g->weights_len, hash);
    free((void *)names);
    ExportInfo ei = {.hash = hash, .weight_set_id = id, .weight_set_name = id ? info.name : spec, .how = id ? info.how : strcmp(spec, "default") == 0 ? "compiled-in" : "weight file",
                     .positions = info.tuned ? info.positions : 0, .k = info.k, .loss = info.valid_loss,
                     .date = info.created};
    /* --file and --header replace an existing file only with --force; the
     * default header (the generated weights.h of the source tree) is what
     * export is for. Neither ever replaces the database (or its -wal/-shm),
     * whatever path names it. Both are checked before anything is written. */
    AtomicOptions file_opts = {.replace = cli_flag(a, "force"), .protect_db = cli_str(a, "db")};
    AtomicOptions header_opts = {.replace = cli_flag(a, "force") || !cli_str(a, "header"), .protect_db = cli_str(a, "db")};
    char path[1024];
    if (cli_str(a, "header")) snprintf(path, sizeof path, "%s", cli_str(a, "header"));
    else snprintf(path, sizeof path, "%s/src/games/%s/weights.h", DAMA_SOURCE_DIR, g->name);
    char aerr[ATOMIC_ERR_MAX];
    if ((!cli_flag(a, "no-header") && atomic_file_check(path, &header_opts, aerr) != 0) ||
        (cli_str(a, "file") && atomic_file_check(cli_str(a, "file"), &file_opts, aerr) != 0)) {
        fprintf(stderr, "dama export: %s\n", aerr);
        db_weights_info_clear(&info);
        db_close(db);
        return 1;
    }
    if (!cli_flag(a, "no-header")) {
        rc = weights_export_header(g, w, &ei, path, &header_opts, err);
        if (rc == 0 && id) printf("wrote %s (weight set %lld)\n", path, (long long)id);
        else if (rc == 0) printf("wrote %s (weights %s)\n", path, spec);
    }
    if (rc == 0 && cli_str(a, "file")) {
        char comment[512];
        snprintf(comment, sizeof comment, "%s weights: weight set %lld (%.400s)", g->name, (long long)id,
                 ei.how ? ei.how : "");
        rc = weights_file_write(g, w, comment, cli_str(a, "file"), &file_opts, err);
        if (rc == 0) printf("wrote %s\n", cli_str(a, "file"));
    }
    if (rc != 0) fprintf(stderr, "dama export: %s\n", err);
    db_weights_info_clear(&info);
    db_close(db);
    return rc == 0 ? 0 : 1;
}

const CliCommand cmd_export = {
    "export", "write a weight set as the compiled-in weights header (and/or a weight file)",
    "[--game G] [--db FILE] [--weights tuned|ID|FILE] [--header PATH] [--file PATH] [--force]", OPTS, run, 0,
};
