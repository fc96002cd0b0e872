/* atomic_file.h — the one way dama writes a file (weight files, generated
 * headers, tune --out): into a temporary file in the target's folder,
 * flushed and fsync'ed, then renamed over the target and the folder
 * fsync'ed. A full disk, a crash or a kill leaves either the old file or
 * the new one, never half of one.
 *
 * Replacing: an existing target is replaced only when the caller allows it
 * (the user's --force); a target that is not a regular file (directory,
 * device, FIFO, symbolic link) is never replaced; and a target that is the
 * same file (device and inode) as one of the protected paths — the open
 * database and its -wal / -shm / -journal files — is refused whatever
 * path spells it, --force or not.
 *
 * Not thread-safe per AtomicFile; distinct AtomicFiles are independent. */
#ifndef DAMA_ATOMIC_FILE_H
#define DAMA_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/err.h"

enum { ATOMIC_PATH_MAX = 4096, ATOMIC_ERR_MAX = ERR_MAX /* the one message size, util/err.h */ };

typedef struct AtomicFile {
    FILE *f; /* write here between open and commit */
    char tmp[ATOMIC_PATH_MAX];
    char path[ATOMIC_PATH_MAX];
    int slot; /* 1 + its place among the temporary files a signal removes (0: none; a zeroed AtomicFile is safe) */
} AtomicFile;

typedef struct AtomicOptions {
    bool replace;            /* an existing regular file may be replaced (--force) */
    const char *force_hint;  /* named in the "exists" message, e.g. "--force"; NULL: "--force" */
    const char *protect_db;  /* a database path: the file, -wal, -shm and -journal are never replaced (may be NULL) */
} AtomicOptions;

/* Check the target and create the temporary file. Returns 0 (af->f open),
 * or -1 with a message naming the path. */
int atomic_file_open(AtomicFile *af, const char *path, const AtomicOptions *opts, char err[ATOMIC_ERR_MAX]);
/* Flush, fsync, close and rename into place. Returns 0, or -1 with a
 * message (the temporary file is removed; the target is untouched). */
int atomic_file_commit(AtomicFile *af, char err[ATOMIC_ERR_MAX]);
/* Drop the temporary file (the target is untouched). Safe after a failed
 * open or commit. */
void atomic_file_abort(AtomicFile *af);

/* Remove every temporary file an atomic_file_open made and no commit or
 * abort has yet removed. Async-signal-safe (unlink only): for a handler of
 * SIGTERM / SIGINT / SIGHUP that then ends the process, so that a killed
 * command leaves neither half a file nor its temporary file. At most
 * ATOMIC_TEMPS_MAX temporary files are known at once (more are written as
 * usual, but a kill leaves them). */
enum { ATOMIC_TEMPS_MAX = 8 };
void atomic_file_remove_temps(void);

/* Is path the database db_path or one of its -wal / -shm / -journal files
 * (same device and inode, whatever path spells it)? Returns -1 with a
 * message if so, else 0. For files a command appends to (never through
 * the atomic writer), so that appending can never touch the database. */
int atomic_file_not_db(const char *path, const char *db_path, char err[ATOMIC_ERR_MAX]);

/* Do paths a and b name one file? The same device and inode when both
 * exist; else the same folder (by its real path) and last name, so that
 * "./x.h" and "x.h" are one file before either is made. */
bool atomic_file_same(const char *a, const char *b);

/* Check only (no file made): would atomic_file_open accept path? Lets a
 * command refuse before it does any work. 0 or -1 with err. */
int atomic_file_check(const char *path, const AtomicOptions *opts, char err[ATOMIC_ERR_MAX]);

#endif
