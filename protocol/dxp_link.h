/* dxp_link.h — DXP layer 1 (the protocol's SOCKET layer): messages over
 * a TCP stream, each sent as its characters followed by one NUL byte;
 * the protocol's port is 27531 (DXP_PORT). Source: the socket layer page
 * of the protocol's description (mesander.nl/damexchange/esocket.htm).
 *
 * A link is one connection plus an optional log: every message sent or
 * received is written to it on one line with the local time (to the
 * millisecond) and a direction mark, "> " sent, "< " received, "# " a
 * note; bytes outside printable ASCII are written as \xNN. Reads wait at
 * most the time given; a message longer than 127 bytes (no NUL within
 * them) is reported and skipped up to its NUL. Writes that cannot go out
 * (the peer is gone) fail with EPIPE, never SIGPIPE.
 *
 * A link is used by one thread at a time.
 */
#ifndef DAMA_DXP_LINK_H
#define DAMA_DXP_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "protocol/dxp.h"

enum { DXP_HOST_MAX = 256, DXP_LINK_BUF = 4096 };

typedef struct DxpLink {
    int fd;
    FILE *log;        /* NULL: no log */
    char buf[DXP_LINK_BUF]; /* bytes received and not yet handed out */
    size_t len;
    bool skipping;    /* inside an over-long message: dropping bytes up to its NUL */
    long sent, received; /* messages */
    long cut;            /* messages cut off by the close (bytes without their NUL): bad messages received */
} DxpLink;

/* "[HOST:]PORT" (HOST a name, an IPv4 address or an IPv6 one in brackets,
 * "[::1]:27531"; default 127.0.0.1 when
 * default_host is NULL; PORT 0..65535, 0 only when allow_zero: a free port
 * chosen at listen). Returns 0, or -1 with err naming the text. */
int dxp_parse_address(const char *text, const char *default_host, bool allow_zero, char host[DXP_HOST_MAX],
                      int *port, char err[ERR_MAX]);

/* The port of the first "HOST:PORT" in text[0..n) (a line another
 * program printed, such as dama dxp's "dxp: listening on 127.0.0.1:40123"):
 * host exactly as given, an IPv6 one bare or in brackets ("::1:PORT",
 * "[::1]:PORT"), not run on from a name or an address on its left (after a
 * letter, a digit, '.', '-' or ':'), PORT 1..65535 in decimal not followed
 * by a digit. Returns the port, or 0 when the text holds none. Pure. */
int dxp_find_port(const char *text, size_t n, const char *host);

enum { DXP_LINE_MAX = 512 }; /* bytes of a line of a program's output read for its port */

/* A program's output read line by line for the port it prints
 * (dxp_lines_port); zeroed to start. */
typedef struct DxpLines {
    char line[DXP_LINE_MAX]; /* the unfinished line: its first DXP_LINE_MAX bytes */
    size_t len;
    bool overlong;           /* it has more than DXP_LINE_MAX bytes: never read for a port */
    char last[DXP_LINE_MAX]; /* the last whole line with text (its first bytes, no '\r'), for a message */
    size_t last_len;
} DxpLines;

/* Take the next bytes buf[0..n) of a program's output, split into lines
 * on '\n' (in pieces of any size): the port of the first line ended in
 * them that holds host:PORT (dxp_find_port; a '\r' before the '\n' is
 * dropped), or 0 when none. A line of more than DXP_LINE_MAX bytes is
 * never read for a port: its bytes up to the next '\n' are dropped (kept
 * in last, cut). Bytes after the line with the port are not taken. Pure. */
int dxp_lines_port(DxpLines *o, const char *buf, size_t n, const char *host);

/* A listening TCP socket on host:port (port 0: the system picks one; *bound
 * receives the port). Returns the descriptor, or -1 with err. */
int dxp_listen(const char *host, int port, int *bound, char err[ERR_MAX]);

/* Wait up to timeout_ms for a connection on listening socket lfd; peer
 * receives "ADDRESS:PORT". Returns the connected descriptor, -2 after the
 * timeout, -1 with err on failure. */
int dxp_accept(int lfd, int timeout_ms, char peer[DXP_HOST_MAX + 8], char err[ERR_MAX]);

/* Connect to host:port, waiting up to timeout_ms. Returns the descriptor,
 * or -1 with err. */
int dxp_connect(const char *host, int port, int timeout_ms, char err[ERR_MAX]);

/* A link on a connected descriptor (owned: dxp_link_close closes it). */
void dxp_link_init(DxpLink *l, int fd, FILE *log);
void dxp_link_close(DxpLink *l);

/* Write a note line (the local time, then "# text") to log, if not NULL:
 * for what happens before a link exists. */
void dxp_log_note(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write a note line ("# text") to the log, if any. */
void dxp_link_note(DxpLink *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Send one message (its text without a NUL; 1..127 bytes). Returns 0, or
 * -1 with err (the connection is gone). */
int dxp_link_send(DxpLink *l, const char *msg, char err[ERR_MAX]);

/* Encode m and send it. Returns 0, or -1 with err. */
int dxp_link_send_msg(DxpLink *l, const DxpMsg *m, char err[ERR_MAX]);

typedef enum DxpRecv {
    DXP_RECV_MSG = 1,      /* msg holds a message (NUL-terminated; *len its length: it holds no NUL) */
    DXP_RECV_TIMEOUT = 0,  /* nothing complete within the time */
    DXP_RECV_CLOSED = -1,  /* the peer closed the connection (bytes of an unfinished message are dropped) */
    DXP_RECV_ERROR = -2,   /* a read error (err) */
    DXP_RECV_TOO_LONG = -3 /* a message of more than 127 bytes: err says so, msg holds its first 127 */
} DxpRecv;

/* Wait up to timeout_ms for the next message. */
DxpRecv dxp_link_recv(DxpLink *l, int timeout_ms, char msg[DXP_MSG_MAX + 1], size_t *len, char err[ERR_MAX]);

#endif
