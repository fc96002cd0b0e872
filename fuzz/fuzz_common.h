/* fuzz_common.h — helpers shared by the libFuzzer targets of fuzz/.
 *
 * A target checks, besides "no crash, no sanitizer report, no leak", the
 * contract of the parser it feeds: a rejected input comes with a message,
 * and what a parser accepts can be written and read back unchanged. A
 * broken contract aborts with the input and what went wrong, so libFuzzer
 * saves the input as a crash artifact. */
#ifndef DAMA_FUZZ_COMMON_H
#define DAMA_FUZZ_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/game.h"

/* The input as a NUL-terminated string (bytes after an embedded NUL are
 * not seen by a C-string parser; that is the parser's contract). Caller
 * frees. */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Report a broken contract and abort (libFuzzer keeps the input). */
static inline void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "contract broken: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* A parser that failed must say why: a non-empty, terminated message. */
static inline void fuzz_check_err(const char *what, const char err[ERR_MAX])
{
    if (!memchr(err, '\0', ERR_MAX)) fuzz_fail("%s: error message not terminated", what);
    if (!err[0]) fuzz_fail("%s: failed without a message", what);
}

/* The scratch file's path; removed when the process exits normally (a
 * crash leaves it, beside libFuzzer's own copy of the input). */
static char fuzz_temp_path[512];

static inline void fuzz_remove_temp(void)
{
    if (fuzz_temp_path[0]) unlink(fuzz_temp_path);
}

/* A scratch file for parsers that read a path: created once per process
 * (mkstemp in $TMPDIR or /tmp), rewritten with each input. */
static inline const char *fuzz_write_temp(const uint8_t *data, size_t size)
{
    char *path = fuzz_temp_path;
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof fuzz_temp_path, "%s/dama-fuzz-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(path);
        if (fd < 0) abort();
        close(fd);
        atexit(fuzz_remove_temp);
    }
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    if (fclose(f) != 0) abort();
    return path;
}

#endif
