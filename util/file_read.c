/* file_read.c — opening a file to read (see file_read.h). */
#include "util/file_read.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

FILE *file_open_read(const char *path)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (f) {
        int e = fstat(fileno(f), &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
        if (!e) return f;
        fclose(f);
        f = NULL;
        errno = e;
    }
    return f;
}

int file_read_error(char err[ERR_MAX], const char *path, const char *what, int e)
{
    if (e == EISDIR) {
        const char *article = what[0] && strchr("aeiouAEIOU", what[0]) ? "an" : "a";
        return err_set(err, "'%.200s' is a directory, not %s %s", path, article, what);
    }
    return err_set(err, "cannot read %s '%.200s': %s", what, path, strerror(e));
}

FILE *file_open_read_as(const char *path, const char *what, char err[ERR_MAX])
{
    FILE *f = file_open_read(path);
    if (!f) {
        int e = errno;
        file_read_error(err, path, what, e);
        errno = e;
    }
    return f;
}
