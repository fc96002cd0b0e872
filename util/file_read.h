/* file_read.h — opening a file to read, and the one message for a file that
 * cannot be read: a folder given where a file is wanted is said as such
 * ("'X' is a directory, not a PDN file"), never read as an empty or broken
 * file ("cannot read at line 1"). Every command that reads a file by path
 * (PDN, opening and move books, weight files, search parameters, config
 * files, position files) goes through it. Pure apart from the file system;
 * thread-safe for distinct buffers. */
#ifndef DAMA_FILE_READ_H
#define DAMA_FILE_READ_H

#include <stdio.h>

#include "util/err.h"

/* path opened for reading ("r"), refused when it is a
 * folder. Returns the stream, or NULL with errno set (EISDIR for a folder),
 * for the caller's message naming the path. */
FILE *file_open_read(const char *path);

/* The one message for a file that cannot be read as a `what` (a noun such
 * as "PDN file", "opening book", "weight file"), from errno e: a folder
 * (EISDIR) is "'PATH' is a directory, not a PDN file" (an article by the
 * noun's first letter), anything else "cannot read PDN file 'PATH': REASON".
 * Into err (the path cut to 200 bytes); returns -1. */
int file_read_error(char err[ERR_MAX], const char *path, const char *what, int e);

/* file_open_read, with file_read_error's message in err when it fails
 * (NULL; errno kept). */
FILE *file_open_read_as(const char *path, const char *what, char err[ERR_MAX]);

#endif
