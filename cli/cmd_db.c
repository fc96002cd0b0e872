/* cmd_db.c — `dama db merge SHARD... --into FILE`: the self-play runs of
 * shard databases (dama selfplay --shard R/K, or runs on other machines)
 * merged into one database, all or nothing, idempotently (db_merge_into in
 * db/db.h); `dama db upgrade FILE...`: existing databases migrated to this
 * dama's schema (db_upgrade), for the commands that only read. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "db/db.h"

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
    if (rc == -2) fprintf(stderr, "dama db merge: %s; %s is unchanged\n", err, into);
    else if (rc != 0) fprintf(stderr, "dama db merge: %s\n", err);
    if (rc != 0) return 1;
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
    for (int i = 1; i < a->positional_len; i++) {
        const char *path = a->positional[i];
        char err[ERR_MAX];
        bool upgraded = false;
        if (db_upgrade(path, &upgraded, err) != 0) {
            fprintf(stderr, "dama db upgrade: %s\n", err);
            return 1;
        }
        if (!upgraded) printf("%s: already at schema version %d\n", path, DB_SCHEMA_VERSION);
        else printf("%s: upgraded to schema version %d\n", path, DB_SCHEMA_VERSION);
    }
    return 0;
}

static int run(CliArgs *a)
{
    if (a->positional_len < 1) {
        fprintf(stderr, "dama db: name a subcommand: merge SHARD... --into FILE, or upgrade FILE...\n");
        return 2;
    }
    if (strcmp(a->positional[0], "merge") == 0) return merge(a);
    if (strcmp(a->positional[0], "upgrade") == 0) return upgrade(a);
    fprintf(stderr, "dama db: unknown subcommand '%s' (there are: merge SHARD... --into FILE, upgrade FILE...)\n",
            a->positional[0]);
    return 2;
}

const CliCommand cmd_db = {
    "db",
    "database tools: merge SHARD... --into FILE merges self-play shards in one transaction; upgrade FILE... "
    "migrates older databases to this dama's schema",
    "merge SHARD... --into FILE | upgrade FILE...", OPTS, run, 100000,
};
