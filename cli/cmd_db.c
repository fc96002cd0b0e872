/* cmd_db.c — `dama db merge SHARD... --into FILE`: the self-play runs of
 * shard databases (dama selfplay --shard R/K, or runs on other machines)
 * merged into one database, all or nothing, idempotently (db_merge_into in
 * db/db.h); `dama db upgrade FILE...`: existing databases migrated to this
 * dama's schema (db_upgrade), for the commands that only read; `dama db
 * release FILE run:ID...`: a run whose writer on another host is gone,
 * freed for the next claim (db_release); `dama db check FILE...`: every
 * page of each file read and checked (db_check), which the other commands,
 * reading only the pages their queries reach, do not do. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "db/db.h"
#include "util/num.h"

static const CliOpt OPTS[] = {
    {"into", OPT_DB, NULL, "the database the shards are merged into (created if missing)", 0, 0},
    {0},
};

static int merge(CliArgs *a)
{
    const char *into = cli_str(a, "into");
    if (!into) {
        fprintf(stderr, "dama db merge: --into FILE is required (the database the shards are merged into)\n");
        return 2;
    }
    const char *const *shards = (const char *const *)a->positional + 1;
    int len = a->positional_len - 1;
    if (len < 1) {
        fprintf(stderr, "dama db merge: no shard given (dama db merge SHARD... --into %s)\n", into);
        return 2;
    }
    char err[ERR_MAX];
    DbMergeStats st;
    int rc = db_merge_into(into, shards, len, &st, err);
    if (rc == -2 || rc == DB_BUSY) fprintf(stderr, "dama db merge: %s; %s is unchanged\n", err, into);
    else if (rc != 0) fprintf(stderr, "dama db merge: %s\n", err);
    if (rc != 0) return rc == DB_BUSY ? DB_BUSY : 1;
    printf("merged %lld shard%s into %s: %lld new runs (%lld already there), %lld new weight sets, %lld new games "
           "(%lld already there), %lld new positions",
           (long long)st.shards, st.shards == 1 ? "" : "s", into, (long long)st.runs_new, (long long)st.runs_matched,
           (long long)st.weight_sets_new, (long long)st.games_new, (long long)st.games_same,
           (long long)st.positions_new);
    if (st.runs_skipped) printf("; %lld runs of other kinds left out", (long long)st.runs_skipped);
    printf("\n");
    return 0;
}

/* Each file is opened for writing (never created) and migrated step by
 * step (db_upgrade). */
static int upgrade(CliArgs *a)
{
    if (cli_str(a, "into")) {
        fprintf(stderr, "dama db upgrade: --into is for merge (dama db upgrade FILE...)\n");
        return 2;
    }
    if (a->positional_len < 2) {
        fprintf(stderr, "dama db upgrade: no database given (dama db upgrade FILE...)\n");
        return 2;
    }
    int status = 0; /* every file is tried: one that fails leaves the others as they were before */
    for (int i = 1; i < a->positional_len; i++) {
        const char *path = a->positional[i];
        char err[ERR_MAX];
        bool upgraded = false;
        if (db_upgrade(path, &upgraded, err) != 0) {
            fprintf(stderr, "dama db upgrade: %s\n", err);
            status = 1;
        } else if (!upgraded) {
            printf("%s: already at schema version %d\n", path, DB_SCHEMA_VERSION);
        } else {
            printf("%s: upgraded to schema version %d\n", path, DB_SCHEMA_VERSION);
        }
    }
    return status;
}

/* `dama db release FILE WHAT:ID...`: a run (train, SPSA run) left
 * 'running' by a process on another host that is gone, marked
 * 'interrupted' so that the same command takes it over (db_release). */
static int release(CliArgs *a)
{
    if (cli_str(a, "into")) {
        fprintf(stderr, "dama db release: --into is for merge (dama db release FILE run:ID...)\n");
        return 2;
    }
    if (a->positional_len < 3) {
        fprintf(stderr, "dama db release: give the database and what to release (dama db release FILE run:ID, "
                        "train:ID or spsa:ID)\n");
        return 2;
    }
    const char *path = a->positional[1];
    for (int i = 2; i < a->positional_len; i++) { /* every one checked before the database is opened */
        const char *colon = strchr(a->positional[i], ':');
        int64_t id = 0;
        size_t wl = colon ? (size_t)(colon - a->positional[i]) : 0;
        bool known = (wl == 3 && strncmp(a->positional[i], "run", 3) == 0) ||
                     (wl == 5 && strncmp(a->positional[i], "train", 5) == 0) ||
                     (wl == 4 && strncmp(a->positional[i], "spsa", 4) == 0);
        if (!colon || !known || num_parse_int(colon + 1, 1, INT64_MAX, &id) != NUM_OK) {
            fprintf(stderr, "dama db release: '%s': expected run:ID, train:ID or spsa:ID\n", a->positional[i]);
            return 2;
        }
    }
    Db *db = NULL;
    char err[ERR_MAX];
    if (db_open(path, false, &db, err) != 0) {
        fprintf(stderr, "dama db release: %s\n", err);
        return 1;
    }
    int status = 0; /* every one is tried; the exit status is the first failure's */
    for (int i = 2; i < a->positional_len; i++) {
        const char *arg = a->positional[i], *colon = strchr(arg, ':');
        char what[16];
        snprintf(what, sizeof what, "%.*s", (int)(colon - arg < 15 ? colon - arg : 15), arg);
        int64_t id = 0;
        (void)num_parse_int(colon + 1, 1, INT64_MAX, &id);
        DbOwner o;
        char was[DB_STATUS_MAX];
        int rc = db_release(db, what, id, &o, was, err);
        if (rc != 0) {
            fprintf(stderr, "dama db release: %s\n", err);
            if (!status) status = rc == DB_BUSY ? DB_BUSY : 1;
        } else if (!was[0]) {
            printf("%s: %s is not running: nothing to release\n", path, arg);
        } else {
            printf("%s: %s released (its owner was process %lld on %s%s%s); the same command takes it over\n", path,
                   arg, (long long)o.pid, o.here ? "this host" : o.host[0] ? o.host : "an unknown host",
                   o.since[0] ? " since " : "", o.since);
        }
    }
    db_close(db);
    return status;
}

/* `dama db check FILE...`: each file read whole through a read-only
 * connection (PRAGMA integrity_check, db_check). Exit 0 when every file
 * is sound, 1 when one is damaged or cannot be checked (all are checked). */
static int check(CliArgs *a)
{
    if (cli_str(a, "into")) {
        fprintf(stderr, "dama db check: --into is for merge (dama db check FILE...)\n");
        return 2;
    }
    if (a->positional_len < 2) {
        fprintf(stderr, "dama db check: no database given (dama db check FILE...)\n");
        return 2;
    }
    int status = 0;
    for (int i = 1; i < a->positional_len; i++) {
        const char *path = a->positional[i];
        char err[ERR_MAX], first[ERR_MAX];
        int64_t problems = 0;
        if (db_check(path, &problems, first, sizeof first, err) != 0) {
            fprintf(stderr, "dama db check: %s\n", err);
            status = 1;
        } else if (problems > 0) {
            fprintf(stderr, "dama db check: %s: damaged: %s (%s%lld problem%s found)\n", path, first,
                    problems >= DB_CHECK_MAX ? "at least " : "", (long long)problems, problems == 1 ? "" : "s");
            status = 1;
        } else {
            printf("%s: ok\n", path);
        }
    }
    return status;
}

static int run(CliArgs *a)
{
    if (a->positional_len < 1) {
        fprintf(stderr, "dama db: name a subcommand: merge SHARD... --into FILE, upgrade FILE..., release FILE "
                        "run:ID..., or check FILE...\n");
        return 2;
    }
    if (strcmp(a->positional[0], "merge") == 0) return merge(a);
    if (strcmp(a->positional[0], "upgrade") == 0) return upgrade(a);
    if (strcmp(a->positional[0], "release") == 0) return release(a);
    if (strcmp(a->positional[0], "check") == 0) return check(a);
    fprintf(stderr, "dama db: unknown subcommand '%s' (there are: merge SHARD... --into FILE, upgrade FILE..., "
                    "release FILE run:ID..., check FILE...)\n",
            a->positional[0]);
    return 2;
}

const CliCommand cmd_db = {
    "db",
    "database tools: merge SHARD... --into FILE merges self-play shards in one transaction; upgrade FILE... "
    "migrates older databases to this dama's schema; release FILE run:ID... frees a run whose writer on another "
    "host is gone; check FILE... reads every page of each file and says whether it is sound (the other commands "
    "read only the pages they need)",
    "merge SHARD... --into FILE | upgrade FILE... | release FILE run:ID|train:ID|spsa:ID... | check FILE...", OPTS, run, 100000,
};
