/* player_dxp.c — a program over DXP as a Player; see player_dxp.h. */
#define _GNU_SOURCE /* pipe2 */
#include "arena/player_dxp.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arena/stderr_tail.h"
#include "engine/game_record.h"
#include "protocol/dxp.h"
#include "protocol/dxp_link.h"
#include "util/clock.h"
#include "util/text.h"

enum {
    CONNECT_MS = 10000, /* to connect, and for a GAMEACC or a GAMEEND's answer */
    HANG_MS = 10000,    /* beyond the thinking time, without timeout= */
    SKIP_MAX = 1000,    /* chats and other messages skipped in one wait, at most */
    LAUNCH_MS = 20000,  /* a program dama starts (cmd=) has this long to open its port (and print it) */
    RETRY_MS = 50,      /* between its connection attempts */
    SHOWN_MAX = 160     /* bytes of its last line in a message (escaped), with the NUL */
};

typedef struct DxpRemote {
    DxpLink link;
    bool connected;
    bool in_game;
    Color colour; /* the program's, in the game going */
    pid_t pid;    /* the program dama started (cmd=), in its own process group; 0: none */
    pid_t pgid;   /* that group (its pid), kept once it was reaped: what it started lives on; 0: none */
    int starts;   /* how many times it was started */
    double started_at; /* when (clock_now_s): the start window runs from it */
    char how[64];      /* how it ended ("exit status 3"), once reaped while dama waited for it; "" */
    /* Its standard error, a pipe read by a thread (the drainer) from its
     * start until stop_launched ends it, its last bytes kept; with port 0
     * its standard output too, a pipe read here for the port it picked,
     * then handed to the drainer, which drops the rest. */
    StderrTail err;         /* under err_lock while the drainer runs */
    pthread_mutex_t err_lock;
    int out_fd;             /* the output pipe's read end; -1: none */
    atomic_bool out_handed; /* out_fd is the drainer's: the port was read */
    bool draining;          /* the drainer runs */
    pthread_t drainer;
    atomic_bool drain_stop;
    int known; /* plies of the game record that the program has seen */
    char last[4 * DXP_MSG_MAX + 1]; /* the last message read, escaped (text_escape), for details */
} DxpRemote;

DxpRemote *player_dxp_new(void)
{
    DxpRemote *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->link.fd = r->out_fd = -1;
    stderr_tail_init(&r->err);
    pthread_mutex_init(&r->err_lock, NULL);
    return r;
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* "exit status 3" or "killed by signal 9" from a wait status. */
static void status_text(int status, char *out, size_t size)
{
    if (WIFEXITED(status)) snprintf(out, size, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) snprintf(out, size, "killed by signal %d", WTERMSIG(status));
    else snprintf(out, size, "ended");
}

/* The drainer: keeps the last of the started program's standard error,
 * and reads its output once handed (out_handed) and drops it, so that the
 * program never waits on a full pipe, and never meets a closed one
 * (SIGPIPE) while it runs. It ends when both pipes have ended (every
 * writer gone), or at drain_stop, set once the program was ended: then
 * what its standard error still holds is read first. */
static void *drain(void *arg)
{
    DxpRemote *r = arg;
    char buf[4096];
    bool out_open = r->out_fd >= 0;
    for (;;) {
        bool stopping = atomic_load(&r->drain_stop);
        bool handed = out_open && atomic_load(&r->out_handed);
        int err_fd = r->err.fd; /* changed by this thread alone while it runs */
        if (stopping || (err_fd < 0 && !out_open)) break;
        struct pollfd pf[2];
        nfds_t n = 0;
        if (err_fd >= 0) pf[n++] = (struct pollfd){.fd = err_fd, .events = POLLIN};
        if (handed) pf[n++] = (struct pollfd){.fd = r->out_fd, .events = POLLIN};
        int rc = poll(n ? pf : NULL, n, 100); /* none: waits for the output to be handed */
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0) continue;
        if (err_fd >= 0 && pf[0].revents) {
            pthread_mutex_lock(&r->err_lock);
            stderr_tail_drain(&r->err);
            pthread_mutex_unlock(&r->err_lock);
        }
        if (handed && pf[n - 1].revents) {
            ssize_t got = read(r->out_fd, buf, sizeof buf);
            if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) out_open = false;
        }
    }
    pthread_mutex_lock(&r->err_lock);
    stderr_tail_drain(&r->err); /* what it wrote before it ended */
    pthread_mutex_unlock(&r->err_lock);
    return NULL;
}

/* The started program's pipes closed, its drainer ended (what its
 * standard error held kept). */
static void close_output(DxpRemote *r)
{
    if (r->draining) {
        atomic_store(&r->drain_stop, true);
        pthread_join(r->drainer, NULL);
        r->draining = false;
    }
    if (r->out_fd >= 0) close(r->out_fd);
    r->out_fd = -1;
    stderr_tail_close(&r->err);
}

/* The last of the started program's standard error (stderr_tail_text),
 * "" when it wrote none (or dama did not start it). */
static void stderr_text(DxpRemote *r, char out[STDERR_TAIL_SHOWN])
{
    pthread_mutex_lock(&r->err_lock);
    stderr_tail_text(&r->err, out, STDERR_TAIL_SHOWN);
    pthread_mutex_unlock(&r->err_lock);
}

/* The started program, ended: up to 200 ms to exit by itself (a follower
 * ends with its connection), then SIGKILL to its process group, which
 * ends what it started there too, even once it was reaped; then its
 * output's pipe closed. */
static void stop_launched(DxpRemote *r)
{
    for (int i = 0; r->pid > 0 && i < 40; i++) {
        if (waitpid(r->pid, NULL, WNOHANG) == r->pid) r->pid = 0;
        else pause_ms(5);
    }
    if (r->pid > 0) {
        kill(-r->pid, SIGKILL);
        kill(r->pid, SIGKILL);
        while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR) {}
        r->pid = 0;
    }
    if (r->pgid > 0) kill(-r->pgid, SIGKILL);
    r->pgid = 0;
    close_output(r);
}

/* The connection closed; a program dama started goes with it (it is
 * started again for the next game). */
static void drop(DxpRemote *r)
{
    if (r->connected) dxp_link_close(&r->link);
    r->connected = r->in_game = false;
    stop_launched(r);
}

/* Start spec->launch under /bin/sh -c in its own process group, dying
 * with dama (PR_SET_PDEATHSIG); standard input on /dev/null, standard
 * error into a pipe (r->err), standard output on /dev/null too, or into a
 * pipe (r->out_fd) when with_output; the drainer started. Returns 0, or -1
 * with err. */
static int launch(Player *p, bool with_output, char err[ERR_MAX])
{
    DxpRemote *r = p->dxp;
    char command[PLAYER_SPEC_MAX + 8];
    player_shell_command(p->spec->launch, command, sizeof command);
    int out[2] = {-1, -1}, err_end = -1;
    if ((with_output && pipe2(out, O_CLOEXEC) != 0) || stderr_tail_open(&r->err, &err_end) != 0) {
        int e = errno;
        if (out[0] >= 0) close(out[0]), close(out[1]);
        return snprintf(err, ERR_MAX, "cannot start '%.150s': %s", p->spec->launch, strerror(e)), -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        if (with_output) close(out[0]), close(out[1]);
        close(err_end);
        stderr_tail_close(&r->err);
        return snprintf(err, ERR_MAX, "cannot start '%.150s': %s", p->spec->launch, strerror(e)), -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        setpgid(0, 0);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) dup2(null, 0), dup2(null, 1);
        if (with_output) dup2(out[1], 1); /* the copies on 1 and 2 stay open across exec; the pipes' own ends close */
        dup2(err_end, 2);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    close(err_end);
    if (with_output) {
        close(out[1]);
        r->out_fd = out[0];
    }
    r->pid = r->pgid = pid;
    r->starts++;
    r->started_at = clock_now_s();
    r->how[0] = '\0';
    atomic_store(&r->out_handed, false);
    atomic_store(&r->drain_stop, false);
    sigset_t all, old; /* the drainer takes no signal: SIGINT goes to a thread that stops the run */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    r->draining = pthread_create(&r->drainer, NULL, drain, r) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r->draining) return 0;
    stop_launched(r);
    return snprintf(err, ERR_MAX, "cannot start '%.150s': no thread to read its output", p->spec->launch), -1;
}

/* Whether the started program has ended: then reaped (pid cleared; pgid kept), its
 * wait status in r->how; false while it runs. */
static bool ended(DxpRemote *r)
{
    int status = 0;
    if (r->pid <= 0 || waitpid(r->pid, &status, WNOHANG) != r->pid) return false;
    status_text(status, r->how, sizeof r->how);
    r->pid = 0;
    return true;
}

/* Port 0: the port the started program picked, read from its output: the
 * first whole line that holds host:PORT (dxp_lines_port) within the start
 * window (LAUNCH_MS from its start), the rest of its output then handed to
 * the drainer. Returns the port, 0 stopped, or -1 with detail, the program
 * ended (it ended first, and its output was read to its end or to the
 * window's: its wait status; else no port in the window; with the last of
 * its standard error and the last line it printed). */
static int read_port(Player *p, const char *host, char detail[PLAYER_DETAIL_MAX])
{
    DxpRemote *r = p->dxp;
    DxpLines lines = {.len = 0};
    char last[SHOWN_MAX] = "";
    bool readable = true, gone = false;
    int port = 0;
    double deadline = r->started_at + LAUNCH_MS / 1000.0;
    while (!port) {
        if (p->stop && *p->stop) return 0;
        /* once it has ended, what it wrote before is in the pipe: read to
         * its end (a descendant may write on: never past the window) */
        if (!gone && ended(r)) gone = true;
        int left = (int)((deadline - clock_now_s()) * 1000.0);
        if (left <= 0) break;
        int step = left < RETRY_MS ? left : RETRY_MS;
        if (!readable) {
            if (gone) break;
            pause_ms(step);
            continue;
        }
        struct pollfd pf = {.fd = r->out_fd, .events = POLLIN};
        int rc = poll(&pf, 1, gone ? 0 : step);
        if (rc < 0 && errno == EINTR) continue;
        if (rc == 0 && gone) break;
        if (rc <= 0) {
            readable = rc == 0;
            continue;
        }
        char buf[1024];
        ssize_t n = read(r->out_fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) readable = false; /* its output closed (it may run on) */
        else port = dxp_lines_port(&lines, buf, (size_t)n, host);
    }
    /* found: the rest of its output is drained (connect_program names an
     * end that came first) */
    if (port) {
        atomic_store(&r->out_handed, true);
        return port;
    }
    stop_launched(r); /* first: what it wrote on its standard error is then all read */
    char err[STDERR_TAIL_SHOWN];
    stderr_text(r, err);
    if (lines.len) text_escape(lines.line, lines.len, last, SHOWN_MAX); /* one without its newline: named only */
    else if (lines.last_len) text_escape(lines.last, lines.last_len, last, SHOWN_MAX);
    char said[STDERR_TAIL_SHOWN + SHOWN_MAX + 48];
    size_t used = 0;
    said[0] = '\0';
    if (err[0]) text_append(said, sizeof said, &used, "stderr: %s; ", err);
    if (last[0]) text_append(said, sizeof said, &used, "its last line: \"%s\"", last);
    else text_append(said, sizeof said, &used, "it printed nothing");
    if (gone)
        snprintf(detail, PLAYER_DETAIL_MAX, "'%.150s' ended (%s) before it printed %.60s:PORT (%s)", p->spec->launch,
                 r->how, host, said);
    else
        snprintf(detail, PLAYER_DETAIL_MAX, "'%.150s' printed no %.60s:PORT in %d s (%s)", p->spec->launch, host,
                 LAUNCH_MS / 1000, said);
    return -1;
}

/* Connect to host:port; a program dama started is waited for: tried every
 * RETRY_MS while it runs, up to LAUNCH_MS from its start. Returns the
 * descriptor, or -1 with err. */
static int connect_program(Player *p, const char *host, int port, char err[ERR_MAX])
{
    DxpRemote *r = p->dxp;
    int fd = dxp_connect(host, port, CONNECT_MS, err);
    while (fd < 0 && r->pid > 0 && clock_now_s() < r->started_at + LAUNCH_MS / 1000.0) {
        if (p->stop && *p->stop) return snprintf(err, ERR_MAX, "stopped"), -1;
        if (ended(r)) break;
        pause_ms(RETRY_MS);
        fd = dxp_connect(host, port, CONNECT_MS, err);
    }
    if (fd < 0 && r->how[0]) {
        snprintf(err, ERR_MAX, "'%.150s' ended (%s) before its port %d opened", p->spec->launch, r->how, port);
    } else if (fd < 0 && r->pid > 0) {
        size_t n = strlen(err);
        snprintf(err + n, ERR_MAX - n, " (%d s after starting '%.100s')", LAUNCH_MS / 1000, p->spec->launch);
    }
    return fd;
}

/* A fault: detail is what (dama's words: protocol/dxp.c quotes a
 * program's bytes as \xNN), with the last of the standard error of a
 * program dama started (when it wrote some) and the last message read
 * (escaped); the connection is dropped unless the game can still be
 * closed in order. */
static PlayerFault fault(DxpRemote *r, char *detail, PlayerFault f, const char *what)
{
    if (f != PLAYER_ILLEGAL && f != PLAYER_TIME_FORFEIT) drop(r); /* first: what it wrote before it went is all read */
    char err[STDERR_TAIL_SHOWN];
    stderr_text(r, err);
    size_t used = 0;
    detail[0] = '\0';
    text_append(detail, PLAYER_DETAIL_MAX, &used, "%.240s", what);
    if (err[0]) text_append(detail, PLAYER_DETAIL_MAX, &used, "; stderr: %s", err);
    text_append(detail, PLAYER_DETAIL_MAX, &used, "; last message: %s", r->last[0] ? r->last : "(none)");
    return f;
}

/* The next message other than a chat, of type want (0: any), within
 * timeout_ms: 1, 0 after the timeout, -1 closed or unreadable (err). */
static int read_msg(DxpRemote *r, int64_t timeout_ms, int want, volatile int *stop, DxpMsg *m, char err[ERR_MAX])
{
    double deadline = clock_now_s() + (double)timeout_ms / 1000.0;
    for (int i = 0; i < SKIP_MAX; i++) {
        if (stop && *stop) return snprintf(err, ERR_MAX, "stopped"), -2;
        int left = (int)((deadline - clock_now_s()) * 1000.0);
        if (left <= 0) return 0;
        char text[DXP_MSG_MAX + 1];
        size_t len = 0;
        DxpRecv got = dxp_link_recv(&r->link, left < 250 ? left : 250, text, &len, err);
        if (got == DXP_RECV_TIMEOUT) {
            i--; /* bounded by the deadline */
            continue;
        }
        if (got == DXP_RECV_CLOSED) return snprintf(err, ERR_MAX, "the connection closed"), -1;
        if (got != DXP_RECV_MSG) return -1;
        text_escape(text, len, r->last, sizeof r->last); /* the program's bytes, never printed or stored raw */
        if (dxp_decode(text, len, m, err) != 0) return -1;
        if (m->type == DXP_CHAT || (want && (int)m->type != want)) continue;
        return 1;
    }
    snprintf(err, ERR_MAX, "%d messages without the one expected", SKIP_MAX);
    return -1;
}

/* Close the game going: GAMEEND (stop code stop), then its answer. */
static void end_game(Player *p, int stop)
{
    DxpRemote *r = p->dxp;
    if (!r->in_game) return;
    r->in_game = false;
    char err[ERR_MAX];
    DxpMsg e = {.type = DXP_GAMEEND};
    e.u.end.stop = stop;
    if (dxp_link_send_msg(&r->link, &e, err) != 0 || read_msg(r, CONNECT_MS, DXP_GAMEEND, NULL, &e, err) != 1) drop(r);
}

PlayerFault player_dxp_new_game(Player *p, char detail[PLAYER_DETAIL_MAX])
{
    DxpRemote *r = p->dxp;
    detail[0] = '\0';
    end_game(p, DXP_STOP_NEXT);
    if (r->connected) return PLAYER_OK;
    char host[DXP_HOST_MAX], err[ERR_MAX];
    int port = 0;
    bool launched = p->spec->launch[0] != '\0';
    if (dxp_parse_address(p->spec->spec, NULL, launched, host, &port, err) != 0) {
        snprintf(detail, PLAYER_DETAIL_MAX, "%s", err);
        return PLAYER_CRASH;
    }
    stop_launched(r); /* one that outlived its connection */
    if (launched && launch(p, port == 0, err) != 0) {
        snprintf(detail, PLAYER_DETAIL_MAX, "%s", err);
        return PLAYER_CRASH;
    }
    if (port == 0 && (port = read_port(p, host, detail)) <= 0) { /* the port it picked, read again at each start */
        stop_launched(r);
        if (port == 0) snprintf(detail, PLAYER_DETAIL_MAX, "stopped");
        return port == 0 ? PLAYER_STOPPED : PLAYER_CRASH;
    }
    int fd = connect_program(p, host, port, err);
    if (fd < 0) {
        stop_launched(r); /* first: what it wrote on its standard error is then all read */
        char said[STDERR_TAIL_SHOWN];
        stderr_text(r, said);
        snprintf(detail, PLAYER_DETAIL_MAX, "%s%s%s", err, said[0] ? "; stderr: " : "", said);
        return p->stop && *p->stop ? PLAYER_STOPPED : PLAYER_CRASH;
    }
    dxp_link_init(&r->link, fd, NULL);
    r->connected = true;
    r->last[0] = '\0';
    return PLAYER_OK;
}

/* GAMEREQ for the program to move in rec's current position. */
static PlayerFault start_game(Player *p, const GameRecord *rec, PlayerMove *out)
{
    DxpRemote *r = p->dxp;
    const Game *g = p->game;
    const Position *pos = game_record_position(rec);
    char err[ERR_MAX];
    DxpMsg m = {.type = DXP_GAMEREQ};
    DxpGameReq *q = &m.u.req;
    q->version = DXP_VERSION;
    snprintf(q->name, sizeof q->name, "dama");
    q->follower = g->side_to_move(pos);
    q->minutes = p->limits.time_ms > 0 ? (int)((p->limits.time_ms + 59999) / 60000) : 1;
    if (q->minutes > 999) q->minutes = 999;
    char fen[FEN_MAX];
    g->pos_to_fen(pos, fen);
    if (strcmp(fen, g->start_fen) != 0) {
        q->has_position = true;
        if (dxp_board_from_position(g, pos, &q->to_move, q->board, err) != 0)
            return fault(r, out->detail, PLAYER_CRASH, err);
    }
    if (dxp_link_send_msg(&r->link, &m, err) != 0) return fault(r, out->detail, PLAYER_CRASH, err);
    int got = read_msg(r, CONNECT_MS, DXP_GAMEACC, p->stop, &m, err);
    if (got == -2) return PLAYER_STOPPED;
    if (got != 1) return fault(r, out->detail, PLAYER_CRASH, got ? err : "no GAMEACC in time");
    if (m.u.acc.code != DXP_ACC_OK) {
        snprintf(err, sizeof err, "the game was refused (GAMEACC code %d)", m.u.acc.code);
        return fault(r, out->detail, PLAYER_CRASH, err);
    }
    r->in_game = true;
    r->colour = q->follower;
    r->known = rec->len;
    return PLAYER_OK;
}

PlayerFault player_dxp_think(Player *p, const GameRecord *rec, int64_t clock_ms, PlayerMove *out)
{
    DxpRemote *r = p->dxp;
    const Game *g = p->game;
    char err[ERR_MAX];
    if (!r->connected) return fault(r, out->detail, PLAYER_CRASH, "not connected");
    double t0 = clock_now_s();
    if (r->in_game && rec->len != r->known + 1) end_game(p, DXP_STOP_NEXT); /* another game: start it afresh */
    if (!r->in_game) {
        PlayerFault f = start_game(p, rec, out);
        if (f != PLAYER_OK) return f;
    } else {
        DxpMsg m = {.type = DXP_MOVE};
        if (dxp_move_from_game(g, &rec->positions[r->known], &rec->moves[r->known], 0, &m.u.move, err) != 0 ||
            dxp_link_send_msg(&r->link, &m, err) != 0)
            return fault(r, out->detail, PLAYER_CRASH, err);
    }
    const PlayerLimits *l = &p->limits;
    int64_t hang = l->hang_ms ? l->hang_ms : HANG_MS;
    int64_t budget = (l->time_ms > 0 ? clock_ms : 60000) + hang;
    DxpMsg m;
    int got = read_msg(r, budget, 0, p->stop, &m, err);
    out->seconds = clock_now_s() - t0;
    if (got == -2) return PLAYER_STOPPED;
    if (got == 0) {
        snprintf(err, sizeof err, "no move within %" PRId64 " ms", budget);
        return fault(r, out->detail, PLAYER_TIMEOUT, err);
    }
    if (got < 0) return fault(r, out->detail, PLAYER_CRASH, err);
    if (m.type == DXP_GAMEEND) {
        r->in_game = false;
        DxpMsg e = {.type = DXP_GAMEEND};
        dxp_link_send_msg(&r->link, &e, err);
        if (m.u.end.reason == DXP_END_RESIGN) return PLAYER_RESIGNED; /* it gives up: a loss, no fault */
        snprintf(err, sizeof err, "the program ended the game (GAMEEND reason %d)", m.u.end.reason);
        return fault(r, out->detail, PLAYER_CRASH, err);
    }
    if (m.type != DXP_MOVE) {
        snprintf(err, sizeof err, "%s instead of a move", dxp_type_name(m.type));
        return fault(r, out->detail, PLAYER_CRASH, err);
    }
    if (dxp_move_to_game(g, game_record_position(rec), &m.u.move, &out->move, err) != 0) {
        return fault(r, out->detail, PLAYER_ILLEGAL, err); /* the game stays open: the next one closes it */
    }
    r->known = rec->len + 1;
    if (l->time_ms > 0 && out->seconds * 1000 > (double)clock_ms) {
        snprintf(err, sizeof err, "answered after %.1f ms with %" PRId64 " ms on its clock", out->seconds * 1000,
                 clock_ms);
        return fault(r, out->detail, PLAYER_TIME_FORFEIT, err);
    }
    return PLAYER_OK;
}

void player_dxp_game_over(Player *p, const GameRecord *rec, Outcome o)
{
    DxpRemote *r = p->dxp;
    if (!r || !r->connected || !r->in_game) return;
    char err[ERR_MAX];
    const char *why = NULL;
    /* the rules ended it on its opponent's move: the program sees that
     * move, so that it finds the end itself */
    if (game_record_outcome(rec, &why, NULL) != OUTCOME_NONE && rec->len == r->known + 1) {
        DxpMsg m = {.type = DXP_MOVE};
        if (dxp_move_from_game(p->game, &rec->positions[r->known], &rec->moves[r->known], 0, &m.u.move, err) != 0 ||
            dxp_link_send_msg(&r->link, &m, err) != 0) {
            drop(r);
            return;
        }
        r->known = rec->len;
    }
    r->in_game = false;
    /* GAMEEND from dama's side (the program's opponent): it gives up when
     * the program won, claims the win when the program lost */
    Outcome program_wins = r->colour == COLOR_WHITE ? OUTCOME_WHITE_WINS : OUTCOME_BLACK_WINS;
    DxpMsg e = {.type = DXP_GAMEEND};
    e.u.end.reason = o == OUTCOME_DRAW ? DXP_END_DRAW : o == program_wins ? DXP_END_RESIGN : DXP_END_WIN;
    e.u.end.stop = DXP_STOP_NEXT;
    if (dxp_link_send_msg(&r->link, &e, err) != 0 || read_msg(r, CONNECT_MS, DXP_GAMEEND, NULL, &e, err) != 1) drop(r);
}

void player_dxp_free(Player *p)
{
    if (!p->dxp) return;
    end_game(p, DXP_STOP_ALL);
    drop(p->dxp);
    pthread_mutex_destroy(&p->dxp->err_lock);
    free(p->dxp);
    p->dxp = NULL;
}
