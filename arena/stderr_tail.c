/* stderr_tail.c — the last of a started program's standard error; see stderr_tail.h. */
#define _GNU_SOURCE /* pipe2 */

#include "arena/stderr_tail.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/text.h"

void stderr_tail_init(StderrTail *t)
{
    t->fd = -1;
    t->len = 0;
}

int stderr_tail_open(StderrTail *t, int *child)
{
    int ends[2];
    stderr_tail_close(t);
    t->len = 0;
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    /* ours alone: O_NONBLOCK is the read end's, the program's end blocks as usual */
    int flags = fcntl(ends[0], F_GETFL);
    if (flags < 0 || fcntl(ends[0], F_SETFL, flags | O_NONBLOCK) != 0) {
        int e = errno;
        close(ends[0]);
        close(ends[1]);
        errno = e;
        return -1;
    }
    t->fd = ends[0];
    *child = ends[1];
    return 0;
}

void stderr_tail_drain(StderrTail *t)
{
    char chunk[4096];
    for (int i = 0; t->fd >= 0 && i < 64; i++) {
        ssize_t got = read(t->fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && errno == EAGAIN) return;
        if (got <= 0) { /* closed (or broken): nothing more to read */
            stderr_tail_close(t);
            return;
        }
        size_t n = (size_t)got, keep = sizeof t->bytes;
        if (n >= keep) {
            memcpy(t->bytes, chunk + n - keep, keep);
            t->len = keep;
            continue;
        }
        if (t->len + n > keep) { /* drop the oldest */
            size_t drop = t->len + n - keep;
            memmove(t->bytes, t->bytes + drop, t->len - drop);
            t->len -= drop;
        }
        memcpy(t->bytes + t->len, chunk, n);
        t->len += n;
    }
}

void stderr_tail_text(const StderrTail *t, char *out, size_t size)
{
    char all[4 * STDERR_TAIL_MAX + 1];
    size_t n = 0;
    all[0] = '\0';
    for (size_t i = 0; i < t->len;) {
        const char *s = t->bytes + i, *nl = memchr(s, '\n', t->len - i);
        size_t len = nl ? (size_t)(nl - s) : t->len - i;
        i += len + (nl ? 1 : 0);
        if (len && s[len - 1] == '\r') len--;
        if (len == 0 || n + 4 >= sizeof all) continue;
        if (n) n += (size_t)snprintf(all + n, sizeof all - n, " | ");
        n += text_escape(s, len, all + n, sizeof all - n) ? strlen(all + n) : 0;
    }
    if (n < size) {
        snprintf(out, size, "%s", all);
        return;
    }
    const char *tail = all + n - (size - 4); /* "..." and the NUL */
    const char *sep = strstr(tail, " | ");
    if (sep && sep + 3 < all + n) tail = sep + 3; /* from a line's start where one is in reach */
    snprintf(out, size, "...%s", tail);
}

void stderr_tail_close(StderrTail *t)
{
    if (t->fd >= 0) close(t->fd);
    t->fd = -1;
}
