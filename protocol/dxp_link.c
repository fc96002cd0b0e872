/* dxp_link.c — DXP layer 1: NUL-ended messages over TCP; see dxp_link.h. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "protocol/dxp_link.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

static int fail(char err[ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(char err[ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

int dxp_parse_address(const char *text, const char *default_host, bool allow_zero, char host[DXP_HOST_MAX],
                      int *port, char err[ERR_MAX])
{
    const char *colon = strrchr(text, ':');
    const char *p = colon ? colon + 1 : text;
    size_t hlen = colon ? (size_t)(colon - text) : 0;
    if (colon && hlen == 0) return fail(err, "address '%.80s': empty host before ':'", text);
    if (hlen >= DXP_HOST_MAX) return fail(err, "address '%.80s': host name too long", text);
    if (colon && hlen >= 2 && text[0] == '[' && text[hlen - 1] == ']') { /* [::1]:27531 */
        memcpy(host, text + 1, hlen - 2);
        host[hlen - 2] = '\0';
    } else if (colon) {
        memcpy(host, text, hlen);
        host[hlen] = '\0';
    } else {
        snprintf(host, DXP_HOST_MAX, "%s", default_host ? default_host : "127.0.0.1");
    }
    long v = 0;
    size_t digits = 0;
    for (; p[digits] >= '0' && p[digits] <= '9' && digits < 6; digits++) v = v * 10 + (p[digits] - '0');
    if (digits == 0 || p[digits] != '\0' || v > 65535 || (v == 0 && !allow_zero)) {
        return fail(err, "address '%.80s': port '%.20s' must be a number %s..65535", text, p, allow_zero ? "0" : "1");
    }
    *port = (int)v;
    return 0;
}

static bool runs_on(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
           c == ':';
}

int dxp_find_port(const char *text, size_t n, const char *host)
{
    size_t hlen = strlen(host);
    if (hlen == 0) return 0;
    const char *end = text + n;
    for (const char *at = text; (size_t)(end - at) >= hlen; at++) {
        if (memcmp(at, host, hlen) != 0) continue;
        const char *p = at + hlen;
        bool bracket = at > text && at[-1] == '[';
        if (at > text && !bracket && runs_on(at[-1])) continue;
        if (bracket) {
            if (p == end || *p != ']') continue;
            p++;
        }
        if (p == end || *p != ':') continue;
        long port = 0;
        int digits = 0;
        for (p++; p < end && *p >= '0' && *p <= '9' && digits < 6; p++, digits++) port = port * 10 + (*p - '0');
        if (digits == 0 || (p < end && *p >= '0' && *p <= '9') || port < 1 || port > 65535) continue;
        return (int)port;
    }
    return 0;
}

int dxp_lines_port(DxpLines *o, const char *buf, size_t n, const char *host)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] != '\n') {
            if (o->len < sizeof o->line) o->line[o->len++] = buf[i];
            else o->overlong = true;
            continue;
        }
        size_t len = o->len;
        if (len && !o->overlong && o->line[len - 1] == '\r') len--;
        int port = o->overlong ? 0 : dxp_find_port(o->line, len, host);
        if (len) memcpy(o->last, o->line, len), o->last_len = len;
        o->len = 0;
        o->overlong = false;
        if (port) return port;
    }
    return 0;
}

static int resolve(const char *host, int port, struct sockaddr_storage *sa, socklen_t *salen, char err[ERR_MAX])
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    int rc = getaddrinfo(host, ps, &hints, &res);
    if (rc != 0 || !res) return fail(err, "cannot resolve host '%.100s': %s", host, gai_strerror(rc));
    memcpy(sa, res->ai_addr, res->ai_addrlen);
    *salen = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static void set_nodelay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* one message a turn: send it now */
}

int dxp_listen(const char *host, int port, int *bound, char err[ERR_MAX])
{
    struct sockaddr_storage sa;
    socklen_t salen = 0;
    if (resolve(host, port, &sa, &salen, err) != 0) return -1;
    int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return fail(err, "socket: %s", strerror(errno));
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&sa, salen) != 0 || listen(fd, 4) != 0) {
        int e = errno;
        close(fd);
        return fail(err, "cannot listen on %.100s:%d: %s", host, port, strerror(e));
    }
    struct sockaddr_storage got;
    socklen_t glen = sizeof got;
    *bound = port;
    if (getsockname(fd, (struct sockaddr *)&got, &glen) == 0) {
        *bound = got.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&got)->sin6_port)
                                           : ntohs(((struct sockaddr_in *)&got)->sin_port);
    }
    return fd;
}

static void peer_text(const struct sockaddr_storage *sa, char *out, size_t size)
{
    char a[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (sa->ss_family == AF_INET) {
        const struct sockaddr_in *s = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &s->sin_addr, a, sizeof a);
        port = ntohs(s->sin_port);
    } else if (sa->ss_family == AF_INET6) {
        const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof a);
        port = ntohs(s->sin6_port);
    }
    snprintf(out, size, "%s:%d", a, port);
}

int dxp_accept(int lfd, int timeout_ms, char peer[DXP_HOST_MAX + 8], char err[ERR_MAX])
{
    struct pollfd pf = {.fd = lfd, .events = POLLIN};
    int rc;
    do rc = poll(&pf, 1, timeout_ms);
    while (rc < 0 && errno == EINTR);
    if (rc < 0) return fail(err, "poll: %s", strerror(errno));
    if (rc == 0) return -2;
    struct sockaddr_storage sa;
    socklen_t salen = sizeof sa;
    int fd = accept(lfd, (struct sockaddr *)&sa, &salen);
    if (fd < 0) return fail(err, "accept: %s", strerror(errno));
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    set_nodelay(fd);
    peer_text(&sa, peer, DXP_HOST_MAX + 8);
    return fd;
}

int dxp_connect(const char *host, int port, int timeout_ms, char err[ERR_MAX])
{
    struct sockaddr_storage sa;
    socklen_t salen = 0;
    if (resolve(host, port, &sa, &salen, err) != 0) return -1;
    int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return fail(err, "socket: %s", strerror(errno));
    int rc = connect(fd, (struct sockaddr *)&sa, salen);
    if (rc != 0 && errno == EINPROGRESS) {
        struct pollfd pf = {.fd = fd, .events = POLLOUT};
        do rc = poll(&pf, 1, timeout_ms);
        while (rc < 0 && errno == EINTR);
        int soerr = 0;
        socklen_t sl = sizeof soerr;
        if (rc == 0) soerr = ETIMEDOUT;
        else if (rc < 0) soerr = errno;
        else getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
        rc = soerr ? -1 : 0;
        errno = soerr;
    }
    if (rc != 0) {
        int e = errno;
        close(fd);
        return fail(err, "cannot connect to %.100s:%d: %s", host, port, strerror(e));
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    set_nodelay(fd);
    return fd;
}

void dxp_link_init(DxpLink *l, int fd, FILE *log)
{
    memset(l, 0, sizeof *l);
    l->fd = fd;
    l->log = log;
}

void dxp_link_close(DxpLink *l)
{
    if (l->fd >= 0) close(l->fd);
    l->fd = -1;
    if (l->log) fflush(l->log);
}

/* ---- the log ----------------------------------------------------------------- */

static void log_write(FILE *log, char mark, const char *text, size_t n)
{
    if (!log) return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    fprintf(log, "%s.%03ld %c ", when, ts.tv_nsec / 1000000, mark);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') fputc(c, log);
        else if (c == '\\') fputs("\\\\", log);
        else fprintf(log, "\\x%02X", c);
    }
    fputc('\n', log);
    fflush(log);
}

static void log_line(DxpLink *l, char mark, const char *text, size_t n) { log_write(l->log, mark, text, n); }

static void log_vnote(FILE *log, const char *fmt, va_list ap)
{
    if (!log) return;
    char text[ERR_MAX + 128];
    vsnprintf(text, sizeof text, fmt, ap);
    log_write(log, '#', text, strlen(text));
}

void dxp_log_note(FILE *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vnote(log, fmt, ap);
    va_end(ap);
}

void dxp_link_note(DxpLink *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vnote(l->log, fmt, ap);
    va_end(ap);
}

/* ---- sending and receiving ------------------------------------------------------- */

int dxp_link_send(DxpLink *l, const char *msg, char err[ERR_MAX])
{
    size_t n = strlen(msg);
    if (n == 0 || n > DXP_MSG_MAX) return fail(err, "a message is 1..%d bytes, not %zu", DXP_MSG_MAX, n);
    char wire[DXP_MSG_MAX + 1];
    memcpy(wire, msg, n + 1); /* with its NUL: the layer's end of message */
    size_t done = 0;
    while (done < n + 1) {
        ssize_t w = send(l->fd, wire + done, n + 1 - done, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return fail(err, "cannot send: %s", strerror(errno));
        done += (size_t)w;
    }
    l->sent++;
    log_line(l, '>', msg, n);
    return 0;
}

int dxp_link_send_msg(DxpLink *l, const DxpMsg *m, char err[ERR_MAX])
{
    char text[DXP_MSG_MAX + 1];
    if (dxp_encode(m, text, err) < 0) return -1;
    return dxp_link_send(l, text, err);
}

/* Take a complete message out of the buffer, if there is one: 1 (msg), 0
 * (none yet), DXP_RECV_TOO_LONG. */
static int take(DxpLink *l, char msg[DXP_MSG_MAX + 1], size_t *len, char err[ERR_MAX])
{
    for (;;) {
        char *nul = memchr(l->buf, '\0', l->len);
        if (l->skipping) { /* the rest of an over-long message */
            if (!nul) {
                l->len = 0;
                return 0;
            }
            size_t used = (size_t)(nul - l->buf) + 1;
            memmove(l->buf, l->buf + used, l->len - used);
            l->len -= used;
            l->skipping = false;
            continue;
        }
        if (nul && nul - l->buf <= DXP_MSG_MAX) {
            size_t n = (size_t)(nul - l->buf);
            memcpy(msg, l->buf, n + 1);
            memmove(l->buf, nul + 1, l->len - n - 1);
            l->len -= n + 1;
            *len = n;
            l->received++;
            log_line(l, '<', msg, n);
            return 1;
        }
        if (l->len <= DXP_MSG_MAX) return 0;
        /* 128 bytes or more without a NUL: not a message of this protocol */
        memcpy(msg, l->buf, DXP_MSG_MAX);
        msg[DXP_MSG_MAX] = '\0';
        *len = DXP_MSG_MAX;
        log_line(l, '<', msg, DXP_MSG_MAX);
        dxp_link_note(l, "the message above goes on past %d bytes without its NUL: skipped up to its NUL", DXP_MSG_MAX);
        l->skipping = true;
        memmove(l->buf, l->buf + DXP_MSG_MAX, l->len - DXP_MSG_MAX);
        l->len -= DXP_MSG_MAX;
        fail(err, "a message longer than %d bytes (no NUL after it)", DXP_MSG_MAX);
        return DXP_RECV_TOO_LONG;
    }
}

DxpRecv dxp_link_recv(DxpLink *l, int timeout_ms, char msg[DXP_MSG_MAX + 1], size_t *len, char err[ERR_MAX])
{
    double deadline = clock_now_s() + timeout_ms / 1000.0;
    for (;;) {
        int t = take(l, msg, len, err);
        if (t == 1) return DXP_RECV_MSG;
        if (t == DXP_RECV_TOO_LONG) return DXP_RECV_TOO_LONG;
        int left = (int)((deadline - clock_now_s()) * 1000.0);
        if (left <= 0) return DXP_RECV_TIMEOUT;
        struct pollfd pf = {.fd = l->fd, .events = POLLIN};
        int rc = poll(&pf, 1, left);
        if (rc < 0 && errno == EINTR) continue;
        if (rc < 0) {
            fail(err, "poll: %s", strerror(errno));
            return DXP_RECV_ERROR;
        }
        if (rc == 0) return DXP_RECV_TIMEOUT;
        ssize_t r = recv(l->fd, l->buf + l->len, sizeof l->buf - l->len, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            if (errno == ECONNRESET) {
                if (l->len) { /* as at a close: a message cut off */
                    dxp_link_note(l, "%zu bytes without their NUL dropped at the reset", l->len);
                    l->cut++;
                    l->len = 0;
                }
                return DXP_RECV_CLOSED;
            }
            fail(err, "cannot read: %s", strerror(errno));
            return DXP_RECV_ERROR;
        }
        if (r == 0) {
            if (l->len) {
                dxp_link_note(l, "%zu bytes without their NUL dropped at the close", l->len);
                l->cut++;
                l->len = 0;
            }
            return DXP_RECV_CLOSED;
        }
        l->len += (size_t)r;
    }
}
