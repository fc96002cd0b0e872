/* stderr_tail.h — the last bytes a program dama starts (a Hub engine,
 * arena/player.c; a DXP program, arena/player_dxp.c) writes on its
 * standard error, kept so that a start that fails or a game lost by a
 * fault can name them. The program's standard error is a pipe; our end is
 * read without waiting, as the program runs, so that a full pipe never
 * blocks it.
 *
 * A StderrTail is used by one thread at a time (the caller locks when a
 * thread drains it while another reads its text). */
#ifndef DAMA_STDERR_TAIL_H
#define DAMA_STDERR_TAIL_H

#include <stddef.h>

enum {
    STDERR_TAIL_MAX = 2048, /* bytes kept: the newest */
    STDERR_TAIL_SHOWN = 128 /* bytes of its text in a message, with the NUL */
};

typedef struct StderrTail {
    int fd;                      /* our end of the pipe (non-blocking), or -1 */
    char bytes[STDERR_TAIL_MAX]; /* the last bytes read, oldest first */
    size_t len;
} StderrTail;

/* No pipe, nothing kept. */
void stderr_tail_init(StderrTail *t);

/* A new pipe for a program about to start, what was kept dropped: both
 * ends close on exec; the write end goes to *child, for the child to put
 * on its descriptor 2 (dup2) and the parent to close once it forked; our
 * end is read without waiting. Returns 0, or -1 with errno (nothing open). */
int stderr_tail_open(StderrTail *t, int *child);

/* Read what the pipe holds now, never waiting (256 KiB at most a call: a
 * program that writes on and on cannot hold the caller), keeping the last
 * STDERR_TAIL_MAX bytes; our end is closed at the pipe's end (every writer
 * gone) or on an error. Nothing without a pipe. */
void stderr_tail_drain(StderrTail *t);

/* What was kept, for a message: its lines escaped (util/text.h
 * text_escape: a program's bytes are never printed raw), a final '\r'
 * dropped, blank ones left out, joined by " | ", cut to the newest that
 * fit in size bytes ("..." before them, from a line's start where one is
 * in reach); "" when it wrote nothing. size >= 8. */
void stderr_tail_text(const StderrTail *t, char *out, size_t size);

/* Close our end of the pipe (what was kept stays, for a message). */
void stderr_tail_close(StderrTail *t);

#endif
