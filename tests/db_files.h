/* db_files.h — removing a test's database file with the -wal and -shm
 * files SQLite keeps beside it (a connection that cannot write, a
 * read-only one among them, leaves them behind when it closes). */
#ifndef DAMA_TEST_DB_FILES_H
#define DAMA_TEST_DB_FILES_H

#include <stdio.h>
#include <unistd.h>

static inline void db_files_remove(const char *path)
{
    char side[4096];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

#endif
