/* err.h — the one size of an error-message buffer, and the helper that
 * fills one.
 *
 * Every function that can fail takes `char err[ERR_MAX]` and, on failure,
 * writes a one-line message there naming the bad input (STYLE.md: "returns
 * a status code and a message"); only main prints it. */
#ifndef DAMA_ERR_H
#define DAMA_ERR_H

enum { ERR_MAX = 256 }; /* bytes of an error-message buffer, with its NUL */

/* Format a message into err (printf-style, cut to ERR_MAX - 1 bytes) and
 * return -1, so that a failing path reads `return err_set(err, "...", x);`.
 * err may be NULL (nothing is written). Thread-safe for distinct buffers. */
int err_set(char err[ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The reason a write failed, for a message: EPIPE (its reader, such as
 * `| head`, ended) reads "output closed (its reader ended)", another errno
 * its strerror, 0 "write error". A static string. */
const char *err_write_text(int errnum);

#endif
