/* atomic_file.c — temp file, fsync, rename (see atomic_file.h). */
#include "util/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files that exist now, for atomic_file_remove_temps. A slot
 * is claimed, its path written, then marked taken; freed in the reverse
 * order: a signal handler reads only whole paths. */
static char temp_paths[ATOMIC_TEMPS_MAX][ATOMIC_PATH_MAX];
static atomic_int temp_taken[ATOMIC_TEMPS_MAX];
static atomic_int temp_claimed[ATOMIC_TEMPS_MAX];

static void temp_note(AtomicFile *af)
{
    af->slot = 0;
    for (int i = 0; i < ATOMIC_TEMPS_MAX; i++) {
        int free_slot = 0;
        if (!atomic_compare_exchange_strong(&temp_claimed[i], &free_slot, 1)) continue;
        memcpy(temp_paths[i], af->tmp, sizeof af->tmp);
        atomic_store(&temp_taken[i], 1);
        af->slot = i + 1;
        return;
    }
}

static void temp_forget(AtomicFile *af)
{
    if (af->slot <= 0 || af->slot > ATOMIC_TEMPS_MAX) return;
    atomic_store(&temp_taken[af->slot - 1], 0);
    atomic_store(&temp_claimed[af->slot - 1], 0);
    af->slot = 0;
}

void atomic_file_remove_temps(void)
{
    for (int i = 0; i < ATOMIC_TEMPS_MAX; i++)
        if (atomic_load(&temp_taken[i])) unlink(temp_paths[i]);
}

static bool same_file(const struct stat *a, const char *path)
{
    struct stat b;
    return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

static int check_not_db(const struct stat *st, const char *path, const char *db, char err[ATOMIC_ERR_MAX])
{
    static const char *const SUFFIX[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; db && i < 4; i++) {
        char p[ATOMIC_PATH_MAX];
        snprintf(p, sizeof p, "%s%s", db, SUFFIX[i]);
        if (same_file(st, p)) {
            snprintf(err, ATOMIC_ERR_MAX, "refusing to write '%.100s': it is the database %.100s%s", path, db,
                     SUFFIX[i]);
            return -1;
        }
    }
    return 0;
}

/* path spelled as its folder's real path and its last name (the file
 * itself need not exist); false if the folder cannot be resolved. */
static bool canonical_name(const char *path, char out[ATOMIC_PATH_MAX])
{
    char d[ATOMIC_PATH_MAX], b[ATOMIC_PATH_MAX], real[PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    snprintf(b, sizeof b, "%s", path);
    if (!realpath(dirname(d), real)) return false;
    return snprintf(out, ATOMIC_PATH_MAX, "%s/%s", real, basename(b)) < ATOMIC_PATH_MAX;
}

bool atomic_file_same(const char *a, const char *b)
{
    struct stat sa, sb;
    bool has_a = stat(a, &sa) == 0, has_b = stat(b, &sb) == 0;
    if (has_a && has_b) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (has_a != has_b) return false;
    char ca[ATOMIC_PATH_MAX], cb[ATOMIC_PATH_MAX];
    if (canonical_name(a, ca) && canonical_name(b, cb)) return strcmp(ca, cb) == 0;
    return strcmp(a, b) == 0;
}

int atomic_file_not_db(const char *path, const char *db_path, char err[ATOMIC_ERR_MAX])
{
    struct stat st;
    if (!path) return 0;
    if (stat(path, &st) == 0) return check_not_db(&st, path, db_path, err);
    /* not there yet: the database may not be either (both made by this
     * command): compare the names */
    static const char *const SUFFIX[] = {"", "-wal", "-shm", "-journal"};
    char a[ATOMIC_PATH_MAX], b[ATOMIC_PATH_MAX], p[ATOMIC_PATH_MAX];
    if (!db_path || !canonical_name(path, a)) return 0;
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s%s", db_path, SUFFIX[i]);
        if (canonical_name(p, b) && strcmp(a, b) == 0) {
            snprintf(err, ATOMIC_ERR_MAX, "refusing to write '%.100s': it is the database %.100s%s", path, db_path,
                     SUFFIX[i]);
            return -1;
        }
    }
    return 0;
}

/* A new file's folder: there, a folder, and writable (else -1 with err). */
static int check_folder(const char *path, char err[ATOMIC_ERR_MAX])
{
    char dir[ATOMIC_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    const char *d = dirname(dir);
    struct stat st;
    const char *why = stat(d, &st) != 0 ? strerror(errno)
                      : !S_ISDIR(st.st_mode)       ? "not a folder"
                      : access(d, W_OK | X_OK) != 0 ? strerror(errno)
                                                    : NULL;
    if (!why) return 0;
    snprintf(err, ATOMIC_ERR_MAX, "cannot write '%.80s': its folder '%.80s': %.50s", path, d, why);
    return -1;
}

int atomic_file_check(const char *path, const AtomicOptions *opts, char err[ATOMIC_ERR_MAX])
{
    static const AtomicOptions none = {0};
    if (!opts) opts = &none;
    if (!path || !*path) {
        snprintf(err, ATOMIC_ERR_MAX, "an empty file name");
        return -1;
    }
    if (strlen(path) > ATOMIC_PATH_MAX - 32) {
        snprintf(err, ATOMIC_ERR_MAX, "file name '%.60s...' is too long", path);
        return -1;
    }
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) /* not there: still never the database's name (its -wal may come later) */
            return atomic_file_not_db(path, opts->protect_db, err) != 0 ? -1 : check_folder(path, err);
        snprintf(err, ATOMIC_ERR_MAX, "cannot write '%.150s': %.80s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, ATOMIC_ERR_MAX, "refusing to replace '%.180s': not a regular file", path);
        return -1;
    }
    if (check_not_db(&st, path, opts->protect_db, err) != 0) return -1;
    if (!opts->replace) {
        snprintf(err, ATOMIC_ERR_MAX, "'%.180s' exists (%s replaces it)", path,
                 opts->force_hint ? opts->force_hint : "--force");
        return -1;
    }
    return 0;
}

int atomic_file_open(AtomicFile *af, const char *path, const AtomicOptions *opts, char err[ATOMIC_ERR_MAX])
{
    memset(af, 0, sizeof *af);
    if (atomic_file_check(path, opts, err) != 0) return -1;
    snprintf(af->path, sizeof af->path, "%s", path);
    snprintf(af->tmp, sizeof af->tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(af->tmp);
    if (fd < 0) {
        /* name the step that failed: the folder, or the temporary file in it */
        int e = errno;
        char dir[ATOMIC_PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        const char *d = dirname(dir);
        struct stat st;
        if (stat(d, &st) != 0)
            snprintf(err, ATOMIC_ERR_MAX, "cannot write '%.80s': its folder '%.80s': %.50s", path, d, strerror(errno));
        else
            snprintf(err, ATOMIC_ERR_MAX, "cannot write '%.50s': creating the temporary file '%.70s' failed: %.40s%s",
                     path, af->tmp, strerror(e), e == ENOENT ? " (the folder takes no new files)" : "");
        af->tmp[0] = '\0';
        return -1;
    }
    temp_note(af);
    /* mkstemp makes 0600; a weight file or header is an ordinary file. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    af->f = fdopen(fd, "w");
    if (!af->f) {
        snprintf(err, ATOMIC_ERR_MAX, "cannot write '%.150s': %.80s", af->tmp, strerror(errno));
        close(fd);
        unlink(af->tmp);
        temp_forget(af);
        af->tmp[0] = '\0';
        return -1;
    }
    return 0;
}

void atomic_file_abort(AtomicFile *af)
{
    if (af->f) fclose(af->f);
    af->f = NULL;
    if (af->tmp[0]) unlink(af->tmp);
    temp_forget(af);
    af->tmp[0] = '\0';
}

int atomic_file_commit(AtomicFile *af, char err[ATOMIC_ERR_MAX])
{
    if (!af->f) {
        snprintf(err, ATOMIC_ERR_MAX, "'%.180s' is not open for writing", af->path);
        return -1;
    }
    bool bad = fflush(af->f) != 0 || ferror(af->f) != 0;
    int saved = errno;
    if (!bad && fsync(fileno(af->f)) != 0) {
        bad = true;
        saved = errno;
    }
    if (fclose(af->f) != 0 && !bad) {
        bad = true;
        saved = errno;
    }
    af->f = NULL;
    if (bad) {
        snprintf(err, ATOMIC_ERR_MAX, "writing '%.150s' failed: %.80s", af->path, strerror(saved));
        atomic_file_abort(af);
        return -1;
    }
    if (rename(af->tmp, af->path) != 0) {
        snprintf(err, ATOMIC_ERR_MAX, "cannot rename '%.100s' to '%.80s': %.50s", af->tmp, af->path, strerror(errno));
        atomic_file_abort(af);
        return -1;
    }
    temp_forget(af);
    af->tmp[0] = '\0';
    /* The rename itself is durable once the folder is synced. */
    char dir[ATOMIC_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", af->path);
    int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}
