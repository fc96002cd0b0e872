/* db_hold.c — a connection's hold on its database file (db_internal.h):
 * a descriptor of the file with a read lock on one byte that SQLite never
 * locks, so that a process removes or empties a file only when no other
 * connection, of any dama process, has it open.
 *
 * The lock is an open file description lock (F_OFD_SETLK; flock where the
 * system has none): it belongs to the descriptor's open file description,
 * not to the process, so it neither mixes with nor releases SQLite's POSIX
 * locks. Closing a descriptor of the file does release every POSIX lock
 * this process holds on it, SQLite's included; so a hold's descriptor is
 * closed only when no other hold of this process is on the same file
 * (same device and inode) — until then it is parked, unlocked. */
#define _GNU_SOURCE /* F_OFD_SETLK, F_OFD_SETLKW */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "db/db_internal.h"

/* The byte locked: past SQLite's lock bytes (0x40000000 .. 0x400001ff). */
#define HOLD_BYTE 0x44414d41LL /* "DAMA" */

struct DbiHold {
    dev_t dev;
    ino_t ino;
    int fd;
    int refs;   /* connections of this process using it; 0: parked */
    pid_t pid;  /* the process that made it (a forked child does not share it) */
    bool sole;  /* write-locked by dbi_hold_sole */
    DbiHold *next;
};

static pthread_mutex_t holds_mutex = PTHREAD_MUTEX_INITIALIZER;
static DbiHold *holds; /* this process's holds, parked ones too */

/* Lock the hold byte of fd: F_RDLCK, F_WRLCK or F_UNLCK; wait: block until
 * granted. 0, or -1 with errno. */
static int lock_byte(int fd, short type, bool wait)
{
#ifdef F_OFD_SETLK
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = HOLD_BYTE, .l_len = 1};
    int rc;
    do rc = fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl);
    while (rc != 0 && errno == EINTR && wait);
    return rc;
#else
    int op = type == F_UNLCK ? LOCK_UN : type == F_WRLCK ? LOCK_EX : LOCK_SH;
    int rc;
    do rc = flock(fd, op | (wait ? 0 : LOCK_NB));
    while (rc != 0 && errno == EINTR && wait);
    return rc;
#endif
}

/* A hold of this process on dev/ino that a new connection may share. */
static DbiHold *find_live(dev_t dev, ino_t ino)
{
    for (DbiHold *h = holds; h; h = h->next)
        if (h->dev == dev && h->ino == ino && h->refs > 0 && !h->sole && h->pid == getpid()) return h;
    return NULL;
}

/* Open path for a hold: made (O_EXCL) when missing and create, else as it
 * is. -1: missing (errno ENOENT), or it cannot be opened. */
static int open_file(const char *path, bool create, bool *made)
{
    *made = false;
    if (create) {
        int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            *made = true;
            return fd;
        }
        if (errno != EEXIST) return -1;
    }
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EROFS || errno == EISDIR)) fd = open(path, O_RDONLY | O_CLOEXEC);
    return fd;
}

DbiHold *dbi_hold(const char *path, bool create, bool *made, int64_t *size)
{
    *made = false;
    *size = -1;
    for (int attempt = 0; attempt < 100; attempt++) {
        struct stat ps, fs;
        if (stat(path, &ps) == 0) {
            pthread_mutex_lock(&holds_mutex);
            DbiHold *h = find_live(ps.st_dev, ps.st_ino);
            if (h) h->refs++;
            pthread_mutex_unlock(&holds_mutex);
            if (h) {
                *size = (int64_t)ps.st_size;
                return h;
            }
        }
        bool fresh = false;
        int fd = open_file(path, create, &fresh);
        if (fd < 0) {
            if (errno == ENOENT && create) continue; /* removed after the stat: again */
            return NULL;
        }
        /* Wait for a process that is removing or emptying the file, then
         * make sure the path still names what was opened. */
        if (lock_byte(fd, F_RDLCK, true) != 0 || fstat(fd, &fs) != 0) {
            close(fd);
            return NULL;
        }
        if (stat(path, &ps) != 0 || ps.st_dev != fs.st_dev || ps.st_ino != fs.st_ino) {
            close(fd); /* removed, or another file in its place: no connection of ours is on it */
            continue;
        }
        DbiHold *h = calloc(1, sizeof *h);
        if (!h) {
            close(fd);
            return NULL;
        }
        *h = (DbiHold){.dev = fs.st_dev, .ino = fs.st_ino, .fd = fd, .refs = 1, .pid = getpid()};
        pthread_mutex_lock(&holds_mutex);
        h->next = holds;
        holds = h;
        pthread_mutex_unlock(&holds_mutex);
        *made = fresh;
        *size = (int64_t)fs.st_size;
        return h;
    }
    return NULL;
}

bool dbi_hold_sole(DbiHold *h)
{
    if (!h) return false;
    pthread_mutex_lock(&holds_mutex);
    bool sole = h->refs == 1 && h->pid == getpid() && lock_byte(h->fd, F_WRLCK, false) == 0;
    if (sole) h->sole = true;
    pthread_mutex_unlock(&holds_mutex);
    return sole;
}

int dbi_hold_truncate(DbiHold *h)
{
    return h && h->sole ? ftruncate(h->fd, 0) : -1;
}

void dbi_hold_release(DbiHold *h)
{
    if (!h) return;
    pthread_mutex_lock(&holds_mutex);
    if (h->refs > 0 && --h->refs > 0) {
        pthread_mutex_unlock(&holds_mutex);
        return;
    }
    /* parked: unlocked, so that it keeps no one from removing the file */
    (void)lock_byte(h->fd, F_UNLCK, false);
    h->sole = false;
    /* h itself may be freed below: compare against copies of its file's identity */
    dev_t dev = h->dev;
    ino_t ino = h->ino;
    bool in_use = false;
    for (DbiHold *o = holds; o; o = o->next)
        if (o != h && o->dev == dev && o->ino == ino && o->refs > 0) in_use = true;
    if (!in_use) { /* no connection of this process on the file: close its parked holds */
        for (DbiHold **p = &holds; *p;) {
            DbiHold *o = *p;
            if (o->dev == dev && o->ino == ino) {
                *p = o->next;
                close(o->fd);
                free(o);
            } else {
                p = &o->next;
            }
        }
    }
    pthread_mutex_unlock(&holds_mutex);
}
