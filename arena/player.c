/* player.c — in-process and Hub engines behind one interface; see player.h. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "arena/player.h"

#include "book/book.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arena/player_dxp.h"
#include "db/weight_sets.h"
#include "book/book.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "protocol/dxp_link.h"
#include "protocol/hub_line.h"
#include "protocol/hub_notation.h" /* International: Hub's own strings */
#include "util/clock.h"
#include "util/num.h"
#include "util/text.h"

enum { START_TIMEOUT_MS = 10000, HANG_DEFAULT_MS = 10000, GRACE_MS = 1000 };

/* ---- limits and specs ------------------------------------------------------ */

/* A time in a spec or on a clock: at most a day, as --movetime (a larger one
 * would hold a game or a tournament for good). */
enum { PLAYER_MS_MAX = 86400000 };

/* util/num.h's whole-string integer: no blanks around it, nothing after it */
static int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    return num_parse_int(s, min, max, out) == NUM_OK ? 0 : -1;
}

int player_limits_set(PlayerLimits *l, const char *key, const char *value, char err[ERR_MAX])
{
    int64_t v = 0, inc = 0;
    if (strcmp(key, "nodes") == 0 || strcmp(key, "depth") == 0 || strcmp(key, "movetime") == 0) {
        int64_t max = key[0] == 'd' ? 100 : key[0] == 'm' ? PLAYER_MS_MAX : INT64_MAX;
        if (parse_i64(value, 1, max, &v) != 0) {
            return err_set(err, "%s=%.40s: need a positive integer%s", key, value,
                           key[0] == 'd' ? " <= 100" : key[0] == 'm' ? " <= 86400000 (a day)" : "");
        }
        int64_t hang = l->hang_ms;
        memset(l, 0, sizeof *l);
        l->hang_ms = hang;
        if (key[0] == 'n') l->nodes = (uint64_t)v;
        else if (key[0] == 'd') l->depth = (int)v;
        else l->movetime_ms = v;
        return 0;
    }
    if (strcmp(key, "time") == 0) {
        char a[64];
        snprintf(a, sizeof a, "%s", value);
        char *plus = strchr(a, '+');
        if (plus) *plus = '\0';
        if (parse_i64(a, 1, PLAYER_MS_MAX, &v) != 0 || (plus && parse_i64(plus + 1, 0, PLAYER_MS_MAX, &inc) != 0)) {
            return err_set(err, "time=%.40s: need MS or MS+INC (milliseconds, each at most 86400000, e.g. 10000+100)",
                           value);
        }
        int64_t hang = l->hang_ms;
        memset(l, 0, sizeof *l);
        l->hang_ms = hang;
        l->time_ms = v;
        l->inc_ms = inc;
        return 0;
    }
    if (strcmp(key, "timeout") == 0) {
        if (parse_i64(value, 1, PLAYER_MS_MAX, &v) != 0) {
            return err_set(err, "timeout=%.40s: need a positive number of milliseconds, at most 86400000", value);
        }
        l->hang_ms = v;
        return 0;
    }
    return 1;
}

void player_limits_text(const PlayerLimits *l, char *out, size_t size)
{
    if (l->nodes) snprintf(out, size, "nodes=%" PRIu64, l->nodes);
    else if (l->depth) snprintf(out, size, "depth=%d", l->depth);
    else if (l->movetime_ms) snprintf(out, size, "movetime=%" PRId64, l->movetime_ms);
    else if (l->time_ms) snprintf(out, size, "time=%" PRId64 "+%" PRId64, l->time_ms, l->inc_ms);
    else snprintf(out, size, "none");
    if (l->hang_ms) {
        size_t n = strlen(out);
        snprintf(out + n, size - n, ",timeout=%" PRId64, l->hang_ms);
    }
}

/* The params of a parsed spec: each name once; an in-process engine's a
 * search constant (engine/search.h) that does something in game, given an
 * integer of its range, kept in param_int; a DXP program has none. Returns
 * 0, or -1 with err. */
static int check_params(const Game *game, PlayerSpec *out, const char *text, char err[ERR_MAX])
{
    for (int i = 0; i < out->params_len; i++) {
        const char *name = out->param_name[i], *value = out->param_value[i];
        for (int j = 0; j < i; j++)
            if (strcmp(out->param_name[j], name) == 0)
                return err_set(err, "engine '%.100s': param.%.60s given twice", text, name);
        if (out->kind == PLAYER_DXP)
            return err_set(err, "engine '%.100s': param.%.60s: a DXP program takes no parameters (param. is for dama "
                           "and Hub engines)", text, name);
        if (out->kind != PLAYER_DAMA) continue; /* the Hub engine's own names: sent as set-param */
        int k = search_param_find(name);
        if (k < 0)
            return err_set(err, "engine '%.100s': param.%.60s: unknown search parameter (dama search --list-params)",
                           text, name);
        const SearchParamInfo *sp = &search_params()[k];
        char *end = NULL;
        errno = 0;
        long v = strtol(value, &end, 10);
        if (!*value || *end || errno || v < sp->min || v > sp->max)
            return err_set(err, "engine '%.100s': param.%s=%.40s: need an integer %d..%d", text, name, value, sp->min,
                           sp->max);
        if (!search_param_applies(game, k)) {
            char why[ERR_MAX];
            search_param_applies_err(game, k, why);
            return err_set(err, "engine '%.100s': param.%s: %.200s", text, name, why);
        }
        out->param_int[i] = (int)v;
    }
    return 0;
}

/* Which limit key a spec item sets ("timeout" is none: it goes with any). */
static bool is_limit_key(const char *key)
{
    return strcmp(key, "nodes") == 0 || strcmp(key, "depth") == 0 || strcmp(key, "movetime") == 0 ||
           strcmp(key, "time") == 0;
}

int player_spec_parse(const Game *game, const char *text, int index, const PlayerLimits *defaults,
                      int64_t default_hash_mb, PlayerSpec *out, char err[ERR_MAX])
{
    memset(out, 0, sizeof *out);
    if (!text[strspn(text, " \t")])
        return err_set(err, "engine %d is empty: give KEY=VALUE pairs (e.g. name=A,weights=default)", index + 1);
    char limit_key[64] = ""; /* the spec's own limit, if one */
    int dxp_port = -1;       /* dxp='s */
    char kind_key[64] = "";  /* the key that chose the kind: weights, cmd or dxp */
    char keys[24][64];       /* the keys given so far (a spec has at most a dozen kinds) */
    int keys_len = 0;
    out->limits = *defaults;
    out->hash_mb = default_hash_mb;
    snprintf(out->name, sizeof out->name, "engine %d", index + 1);
    snprintf(out->spec, sizeof out->spec, "default");
    const char *s = text;
    while (*s) {
        const char *eq = strchr(s, '=');
        const char *comma = strchr(s, ',');
        if (!eq || (comma && comma < eq)) {
            return err_set(err, "engine '%.100s': '%.*s' is not KEY=VALUE", text,
                           (int)(comma ? comma - s : (ptrdiff_t)strlen(s)), s);
        }
        char key[64];
        size_t klen = (size_t)(eq - s);
        snprintf(key, sizeof key, "%.*s", (int)(klen < sizeof key ? klen : sizeof key - 1), s);
        const char *v = eq + 1;
        size_t vlen = strcmp(key, "cmd") == 0 ? strlen(v) : (size_t)((comma ? comma : v + strlen(v)) - v);
        char value[PLAYER_SPEC_MAX];
        if (vlen >= sizeof value) {
            return err_set(err, "engine '%.100s': the value of %s is too long", text, key);
        }
        memcpy(value, v, vlen);
        value[vlen] = '\0';
        s = v + vlen;
        if (*s == ',' && !*++s) return err_set(err, "engine '%.100s': a ',' with no KEY=VALUE after it", text);
        /* a key once (param.NAME: check_params says which): the later value would win unseen */
        if (strncmp(key, "param.", 6) != 0) {
            for (int k = 0; k < keys_len; k++)
                if (strcmp(keys[k], key) == 0) return err_set(err, "engine '%.100s': %s= given twice", text, key);
            if (keys_len < (int)(sizeof keys / sizeof keys[0])) snprintf(keys[keys_len++], sizeof keys[0], "%s", key);
        }
        /* one engine a spec: weights=, cmd= or dxp= once (cmd= after dxp= is
         * the command that starts the DXP program) */
        bool kind = strcmp(key, "weights") == 0 || strcmp(key, "cmd") == 0 || strcmp(key, "dxp") == 0;
        if (kind && strcmp(key, "cmd") == 0 && out->kind == PLAYER_DXP) kind = false;
        if (kind && kind_key[0])
            return err_set(err, "engine '%.100s': %s= after %s=: give one of weights=, cmd= or dxp= "
                           "(with dxp=, cmd= starts the program)", text, key, kind_key);
        if (kind) snprintf(kind_key, sizeof kind_key, "%s", key);
        if (strcmp(key, "name") == 0) {
            if (!*value || strlen(value) >= sizeof out->name) {
                return err_set(err, "engine '%.100s': name must be 1..%d bytes of UTF-8 (a letter such as e-acute "
                               "takes 2)", text, PLAYER_NAME_MAX - 1);
            }
            char what[TEXT_WHAT_MAX]; /* stored, printed and written into PDN tags: text on one line */
            const char *tab = strchr(value, '\t'); /* a line may hold one; a table's column may not */
            if (tab) snprintf(what, sizeof what, "a tab at column %d (it breaks the tables' columns)", (int)(tab - value) + 1);
            if (tab || text_line_check(value, strlen(value), what) != 0) {
                char shown[160];
                text_escape(value, strlen(value), shown, sizeof shown);
                return err_set(err, "engine name '%s': %s", shown, what);
            }
            snprintf(out->name, sizeof out->name, "%.63s", value);
        } else if (strcmp(key, "weights") == 0) {
            char why[ERR_MAX];
            if (weights_spec_check(value, why) != 0) return err_set(err, "engine '%.100s': weights: %.120s", text, why);
            out->kind = PLAYER_DAMA;
            snprintf(out->spec, sizeof out->spec, "%s", value);
        } else if (strcmp(key, "cmd") == 0) {
            if (!*value) {
                return err_set(err, "engine '%.100s': empty cmd", text);
            }
            if (out->kind == PLAYER_DXP) { /* dxp=HOST:PORT,cmd=...: the command that starts it */
                snprintf(out->launch, sizeof out->launch, "%s", value);
                continue;
            }
            out->kind = PLAYER_HUB;
            snprintf(out->spec, sizeof out->spec, "%s", value);
        } else if (strcmp(key, "dxp") == 0) {
            char host[DXP_HOST_MAX], aerr[ERR_MAX];
            if (!strchr(value, ':')) {
                return err_set(err, "engine '%.100s': dxp=%.60s: need HOST:PORT", text, value);
            }
            if (dxp_parse_address(value, NULL, true, host, &dxp_port, aerr) != 0) {
                return err_set(err, "engine '%.100s': dxp=: %.140s", text, aerr);
            }
            out->kind = PLAYER_DXP;
            snprintf(out->spec, sizeof out->spec, "%s", value);
        } else if (strcmp(key, "book") == 0) {
            snprintf(out->book_path, sizeof out->book_path, "%s", value);
        } else if (strcmp(key, "hash") == 0) {
            if (parse_i64(value, 1, 65536, &out->hash_mb) != 0) {
                return err_set(err, "engine '%.100s': hash=%.40s: need 1..65536 (MiB)", text, value);
            }
        } else if (strncmp(key, "param.", 6) == 0 && key[6]) {
            if (out->params_len == PLAYER_PARAMS_MAX) {
                return err_set(err, "engine '%.100s': more than %d params", text, PLAYER_PARAMS_MAX);
            }
            snprintf(out->param_name[out->params_len], sizeof out->param_name[0], "%s", key + 6);
            snprintf(out->param_value[out->params_len], sizeof out->param_value[0], "%.127s", value);
            out->params_len++;
        } else {
            if (is_limit_key(key) && limit_key[0])
                return err_set(err, "engine '%.100s': give one limit, not %s= and %s=", text, limit_key, key);
            if (is_limit_key(key)) snprintf(limit_key, sizeof limit_key, "%s", key);
            char lerr[ERR_MAX];
            int rc = player_limits_set(&out->limits, key, value, lerr);
            if (rc != 0) {
                if (rc > 0)
                    snprintf(err, ERR_MAX, "engine '%.100s': unknown key '%.40s' (name, weights, cmd, dxp, book, hash, "
                                           "param.NAME, nodes, depth, movetime, time, timeout)", text, key);
                else snprintf(err, ERR_MAX, "engine '%.100s': %.140s", text, lerr);
                return -1;
            }
        }
    }
    /* port 0: the port the program picks, read from its output, so dama must start it */
    if (out->kind == PLAYER_DXP && !out->launch[0] && dxp_port == 0)
        return err_set(err, "engine '%.100s': dxp=%.60s: port 0 is the port the program picks, read from its output: "
                       "give cmd= to start it", text, out->spec);
    /* a DXP program keeps its own board: a move dama chose for it would never reach it */
    if (out->kind == PLAYER_DXP && out->book_path[0])
        return err_set(err, "engine '%.100s': book= is for dama and Hub engines, not a DXP program", text);
    return check_params(game, out, text, err);
}

const char *player_fault_reason(PlayerFault f)
{
    switch (f) {
    case PLAYER_CRASH: return "crash";
    case PLAYER_TIMEOUT: return "timeout";
    case PLAYER_TIME_FORFEIT: return "time-forfeit";
    case PLAYER_ILLEGAL: return "illegal-move";
    case PLAYER_STOPPED: return "stopped";
    case PLAYER_RESIGNED: return "resign";
    default: return "ok";
    }
}

/* ---- in-process ------------------------------------------------------------ */

void player_wrap_engine(Player *p, const Game *game, Engine *engine, const PlayerLimits *limits)
{
    memset(p, 0, sizeof *p);
    p->game = game;
    p->kind = PLAYER_DAMA;
    p->engine = engine;
    p->limits = *limits;
    p->fd = p->wfd = -1;
    stderr_tail_init(&p->err);
}

Player *player_new(const Game *game, const PlayerSpec *spec, const int32_t *weights, volatile int *stop,
                   char err[ERR_MAX])
{
    Player *p = calloc(1, sizeof *p);
    if (!p) goto oom;
    p->game = game;
    p->kind = spec->kind;
    p->limits = spec->limits;
    p->stop = stop;
    p->spec = spec;
    p->fd = p->wfd = -1;
    stderr_tail_init(&p->err);
    player_set_book(p, spec->book, spec->book_seed);
    if (spec->kind == PLAYER_DAMA) {
        p->engine = engine_new(game, (size_t)spec->hash_mb);
        p->owns_engine = true;
        p->weights = malloc(sizeof(int32_t) * (size_t)game->weights_len);
        if (!p->engine || !p->weights) goto oom;
        memcpy(p->weights, weights ? weights : game->weights_default(), sizeof(int32_t) * (size_t)game->weights_len);
        engine_set_weights(p->engine, p->weights);
        engine_set_stop_flag(p->engine, stop);
        for (int i = 0; i < spec->params_len; i++) /* checked by player_spec_parse */
            if (engine_set_param(p->engine, spec->param_name[i], spec->param_int[i], err) != 0) {
                player_free(p);
                return NULL;
            }
    } else if (spec->kind == PLAYER_DXP) {
        if (!(p->dxp = player_dxp_new())) goto oom;
    } else {
        p->buf = malloc(PLAYER_LINE_MAX);
        if (!p->buf) goto oom;
    }
    return p;
oom:
    snprintf(err, ERR_MAX, "out of memory for engine '%s'", spec->name);
    player_free(p);
    return NULL;
}

/* ---- external: process and lines ------------------------------------------- */

static void remember(Player *p, const char *raw)
{
    /* the engine's bytes escaped (text_escape), never printed or stored
     * raw; the last lines kept, newest at the end, within PLAYER_DETAIL_MAX */
    char line[PLAYER_DETAIL_MAX];
    text_escape(raw, strlen(raw), line, sizeof line);
    size_t have = strlen(p->last), add = strlen(line) + 1;
    if (add >= sizeof p->last) {
        snprintf(p->last, sizeof p->last, "%s", line + (add - sizeof p->last + 1));
        return;
    }
    while (have + add >= sizeof p->last) {
        char *nl = strchr(p->last, '\n');
        if (!nl) {
            have = 0;
            p->last[0] = '\0';
            break;
        }
        memmove(p->last, nl + 1, strlen(nl + 1) + 1);
        have = strlen(p->last);
    }
    if (have) strcat(p->last, "\n");
    strcat(p->last, line);
}

static void hub_kill(Player *p)
{
    if (p->fd >= 0) close(p->fd);
    if (p->wfd >= 0) close(p->wfd);
    p->fd = p->wfd = -1;
    stderr_tail_close(&p->err);
    if (p->pid > 0) {
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    p->pid = 0;
    p->buf_len = 0;
}

/* How the process ended, if it did (non-blocking): "exit status 3". */
static void exit_text(Player *p, char *out, size_t size)
{
    int status = 0;
    out[0] = '\0';
    if (p->pid <= 0) return;
    for (int i = 0; i < 20; i++) { /* give a dying process 100 ms to be reaped */
        pid_t r = waitpid(p->pid, &status, WNOHANG);
        if (r == p->pid) {
            /* 127 and 126: what /bin/sh exits with when it cannot find or
             * cannot execute the command (POSIX, "Command Search and
             * Execution") */
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
            if (WIFEXITED(status))
                snprintf(out, size, "exit status %d%s", code,
                         code == 127   ? ": the shell found no such command"
                         : code == 126 ? ": the shell could not execute it"
                                       : "");
            else if (WIFSIGNALED(status)) snprintf(out, size, "killed by signal %d", WTERMSIG(status));
            p->pid = 0;
            return;
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
}

/* What went wrong, how the process ended (if it did), the last of its
 * standard error (when it wrote some: 127 bytes at most, the newest) and
 * the last lines it answered (200 bytes at most). */
static void fault_detail(Player *p, char *out, const char *what)
{
    char how[64], err[STDERR_TAIL_SHOWN], alive[128];
    exit_text(p, how, sizeof how);
    /* an end of its output from a process that is still there: it closed it */
    if (!how[0] && p->pid > 0 && strncmp(what, "the engine ended", 16) == 0) {
        snprintf(alive, sizeof alive, "the engine closed its output%.96s", what + 16);
        what = alive;
    }
    stderr_tail_drain(&p->err); /* what it wrote before it ended */
    stderr_tail_text(&p->err, err, sizeof err);
    snprintf(out, PLAYER_DETAIL_MAX, "%.96s%s%.60s%s%s%s; last output: %.200s", what, how[0] ? " (" : "", how,
             how[0] ? ")" : "", err[0] ? "; stderr: " : "", err, p->last[0] ? p->last : "(none)");
}

static int hub_send(Player *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int hub_send(Player *p, const char *fmt, ...)
{
    char line[PLAYER_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line - 1) return -1;
    line[n++] = '\n';
    for (int off = 0; off < n;) {
        ssize_t w = send(p->wfd, line + off, (size_t)(n - off), MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        off += (int)w;
    }
    return 0;
}

/* Read one line into out (without its end). Returns 1 with a line, 0 when
 * the deadline passed, -1 at end of output (the engine closed it or died),
 * -2 when the stop flag was raised. deadline <= 0: none. */
static int hub_read_line(Player *p, char *out, size_t size, double deadline)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->buf_len);
        if (nl || p->buf_len == PLAYER_LINE_MAX) {
            size_t n = nl ? (size_t)(nl - p->buf) : p->buf_len;
            size_t copy = n < size - 1 ? n : size - 1;
            memcpy(out, p->buf, copy);
            out[copy] = '\0';
            if (copy && out[copy - 1] == '\r') out[copy - 1] = '\0';
            size_t used = nl ? n + 1 : n;
            memmove(p->buf, p->buf + used, p->buf_len - used);
            p->buf_len -= used;
            remember(p, out);
            return 1;
        }
        if (p->stop && *p->stop) return -2;
        double left = deadline > 0 ? deadline - clock_now_s() : 1.0;
        if (left <= 0) return 0;
        int wait_ms = (int)(left * 1000) + 1;
        if (wait_ms > 50) wait_ms = 50; /* poll the stop flag */
        /* its standard error read meanwhile: a full pipe would block the engine */
        struct pollfd pfd[2] = {{.fd = p->fd, .events = POLLIN}, {.fd = p->err.fd, .events = POLLIN}};
        int r = poll(pfd, p->err.fd >= 0 ? 2 : 1, wait_ms);
        if (r < 0 && errno != EINTR) return -1;
        if (r <= 0) continue;
        if (p->err.fd >= 0 && pfd[1].revents) stderr_tail_drain(&p->err);
        if (!pfd[0].revents) continue;
        ssize_t got = read(p->fd, p->buf + p->buf_len, PLAYER_LINE_MAX - p->buf_len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) return -1;
        p->buf_len += (size_t)got;
    }
}

/* Wait for a line whose command is `cmd`. Returns 1, or hub_read_line's 0/-1/-2. */
static int hub_expect(Player *p, const char *cmd, double deadline, char *line, size_t size)
{
    for (;;) {
        int r = hub_read_line(p, line, size, deadline);
        if (r != 1) return r;
        if (hub_line_is(line, cmd)) return 1;
        if (strcmp(cmd, "ready") == 0 && hub_line_is(line, "error")) return -3; /* to set-param or init */
        if (hub_line_is(line, "param")) {
            char name[64];
            if (hub_line_value(line, "name", name, sizeof name) && strcmp(name, "variant") == 0) p->has_variant = true;
        }
    }
}

/* The command as /bin/sh -c runs it: a simple command (no shell operator
 * ; & | ( ) < > ` $( or newline) gets "exec" before its command word, after
 * any leading NAME=VALUE assignments, so that the shell becomes the engine
 * (same process, same parent-death signal) instead of staying as its
 * parent. Anything else runs as written (write exec in it for the same). */
void player_shell_command(const char *spec, char *out, size_t size)
{
    const char *s = spec + strspn(spec, " \t");
    if (strpbrk(spec, ";&|()<>`\n") || strstr(spec, "$(")) {
        snprintf(out, size, "%s", spec);
        return;
    }
    for (;;) { /* leading assignments: NAME=VALUE words without quotes */
        size_t name = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789");
        size_t word = strcspn(s, " \t");
        if (name == 0 || s[name] != '=' || (s[0] >= '0' && s[0] <= '9')) break;
        if (memchr(s, '"', word) || memchr(s, '\'', word) || memchr(s, '\\', word)) { /* not worth parsing */
            snprintf(out, size, "%s", spec);
            return;
        }
        s += word;
        s += strspn(s, " \t");
    }
    if (!*s || (strncmp(s, "exec", 4) == 0 && (s[4] == ' ' || s[4] == '\t'))) {
        snprintf(out, size, "%s", spec);
        return;
    }
    snprintf(out, size, "%.*sexec %s", (int)(s - spec), spec, s);
}

static PlayerFault hub_start(Player *p, char detail[PLAYER_DETAIL_MAX])
{
    char command[PLAYER_SPEC_MAX + 8];
    player_shell_command(p->spec->spec, command, sizeof command);
    pid_t parent = getpid();
    int sv[2], in[2] = {-1, -1}, err_end; /* sv: its standard output; in: its standard input */
    p->last[0] = '\0';
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(detail, PLAYER_DETAIL_MAX, "cannot start '%.300s': %s", p->spec->spec, strerror(errno));
        return PLAYER_CRASH;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 ||
        stderr_tail_open(&p->err, &err_end) != 0) { /* its standard error, kept for a fault's detail */
        snprintf(detail, PLAYER_DETAIL_MAX, "cannot start '%.300s': %s", p->spec->spec, strerror(errno));
        close(sv[0]);
        close(sv[1]);
        if (in[0] >= 0) close(in[0]), close(in[1]);
        return PLAYER_CRASH;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        close(in[0]);
        close(in[1]);
        close(err_end);
        stderr_tail_close(&p->err);
        snprintf(detail, PLAYER_DETAIL_MAX, "cannot start '%.300s': %s", p->spec->spec, strerror(errno));
        return PLAYER_CRASH;
    }
    if (pid == 0) {
        /* the engine dies with this process, even by SIGKILL (Linux: at the
         * end of the forking thread, which outlives its players) */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127); /* the parent died before the call */
        setpgid(0, 0);
        dup2(in[1], 0);
        dup2(sv[1], 1);
        dup2(err_end, 2);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also from here: no race with the child's own call */
    close(sv[1]);
    close(in[1]);
    close(err_end);
    p->fd = sv[0];
    p->wfd = in[0];
    p->pid = pid;
    p->buf_len = 0;
    p->has_variant = false;
    p->starts++;
    double deadline = clock_now_s() + START_TIMEOUT_MS / 1000.0;
    char line[PLAYER_LINE_MAX];
    int r = hub_send(p, "hub") == 0 ? hub_expect(p, "wait", deadline, line, sizeof line) : -1;
    if (r == 1) {
        if (p->has_variant && hub_send(p, "set-param name=variant value=%s", p->game->name) != 0) r = -1;
        for (int i = 0; r == 1 && i < p->spec->params_len; i++)
            if (hub_send(p, "set-param name=%s value=\"%s\"", p->spec->param_name[i], p->spec->param_value[i]) != 0)
                r = -1;
        if (r == 1) r = hub_send(p, "init") == 0 ? hub_expect(p, "ready", deadline, line, sizeof line) : -1;
    }
    if (r == 1) return PLAYER_OK;
    PlayerFault f = r == 0 ? PLAYER_TIMEOUT : r == -2 ? PLAYER_STOPPED : PLAYER_CRASH;
    if (r == -3) { /* its own words, escaped as remember() keeps them */
        char said[PLAYER_DETAIL_MAX - 64];
        text_escape(line, strlen(line), said, sizeof said);
        snprintf(detail, PLAYER_DETAIL_MAX, "it answered %s", said);
        hub_kill(p);
        return f;
    }
    fault_detail(p, detail, r == 0 ? "no answer to hub/init within 10 s" : "the engine ended during hub/init");
    hub_kill(p);
    return f;
}

PlayerFault player_new_game(Player *p, char detail[PLAYER_DETAIL_MAX])
{
    detail[0] = '\0';
    if (p->kind == PLAYER_DAMA) {
        engine_clear(p->engine);
        return PLAYER_OK;
    }
    if (p->kind == PLAYER_DXP) return player_dxp_new_game(p, detail);
    if (p->pid <= 0) {
        PlayerFault f = hub_start(p, detail);
        if (f != PLAYER_OK) return f;
    }
    if (hub_send(p, "new-game") != 0 || hub_send(p, "ping") != 0) {
        fault_detail(p, detail, "cannot write to the engine");
        hub_kill(p);
        return PLAYER_CRASH;
    }
    /* What it wrote after the previous game's last move (an `error`, a late
     * `info`) belongs to no game: read and drop it, up to the answer to this
     * ping, so that the new game's first search does not take it for its own;
     * it has the start's 10 s, or its timeout= when longer */
    char line[PLAYER_LINE_MAX];
    int64_t wait_ms = p->limits.hang_ms > START_TIMEOUT_MS ? p->limits.hang_ms : START_TIMEOUT_MS;
    int r = hub_expect(p, "pong", clock_now_s() + (double)wait_ms / 1000.0, line, sizeof line);
    if (r == 1) return PLAYER_OK;
    if (r == -2) {
        hub_kill(p);
        return PLAYER_STOPPED;
    }
    char what[96];
    if (r == 0) snprintf(what, sizeof what, "no pong to ping before the game within %g s", (double)wait_ms / 1000.0);
    else snprintf(what, sizeof what, "the engine ended before the game");
    fault_detail(p, detail, what);
    hub_kill(p);
    return r == 0 ? PLAYER_TIMEOUT : PLAYER_CRASH;
}

/* The clock an in-process engine's search sees: clock_ms less a reserve
 * of up to 200 ms (a quarter of a short clock) against scheduling delays,
 * at least 1 ms. The search's time manager (engine/timeman.h) turns it
 * and the increment into its soft and hard limits. */
static int64_t usable_clock_ms(int64_t clock_ms)
{
    int64_t reserve = clock_ms / 4 < 200 ? clock_ms / 4 : 200;
    int64_t usable = clock_ms - reserve;
    return usable < 1 ? 1 : usable; /* 0 would be no clock at all */
}

/* CPU seconds (user + system) of process pid and its descendants, from
 * /proc/PID/stat (utime, stime, cutime, cstime: fields 14 to 17) and
 * /proc/PID/task/TID/children (Linux 3.5+). 0 where /proc is missing. A
 * Hub engine started through /bin/sh -c may be the shell's child: its time
 * is counted with it. cutime and cstime are the children that ended and
 * were waited for: an engine that starts a process per move (an adapter
 * around `dama search`, scripts/hub_per_move.py) has its searches counted. */
static double tree_cpu_s(pid_t pid)
{
    if (pid <= 0) return 0;
    char path[96], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    double ticks = 0;
    const char *q = strrchr(buf, ')'); /* the command name may hold spaces */
    if (q) {
        unsigned long long ut = 0, st = 0;
        long long cut = 0, cst = 0;
        /* after ')': state (3), ppid (4), ... utime (14), stime (15), cutime (16), cstime (17) */
        int got = sscanf(q + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld", &ut, &st, &cut,
                         &cst);
        if (got >= 2) ticks = (double)(ut + st);
        if (got == 4 && cut > 0 && cst >= 0) ticks += (double)(cut + cst);
    }
    long hz = sysconf(_SC_CLK_TCK);
    double sum = hz > 0 ? ticks / (double)hz : 0;
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    f = fopen(path, "r");
    if (f) {
        int child;
        while (fscanf(f, "%d", &child) == 1) sum += tree_cpu_s((pid_t)child);
        fclose(f);
    }
    return sum;
}

static PlayerFault think_dama(Player *p, const GameRecord *rec, int64_t clock_ms, PlayerMove *out)
{
    SearchLimits lim = {.depth = p->limits.depth, .nodes = p->limits.nodes, .movetime_ms = p->limits.movetime_ms};
    if (p->limits.time_ms > 0) {
        lim.movetime_ms = 0;
        lim.time_ms = usable_clock_ms(clock_ms);
        lim.inc_ms = p->limits.inc_ms;
    }
    int hlen = 0;
    const uint64_t *hist = game_record_history(rec, &hlen);
    SearchResult res;
    double t0 = clock_now_s();
    engine_search(p->engine, game_record_position(rec), hist, hlen, &lim, &res, NULL, NULL);
    out->seconds = clock_now_s() - t0;
    if (p->stop && *p->stop) return PLAYER_STOPPED;
    if (!res.has_move) {
        snprintf(out->detail, PLAYER_DETAIL_MAX, "the engine found no move in a position with legal moves");
        return PLAYER_CRASH;
    }
    out->move = res.best;
    out->score = res.score;
    out->has_score = true;
    out->nodes = res.nodes;
    out->cpu_seconds = res.cpu_seconds;
    if (p->limits.time_ms > 0 && out->seconds * 1000 > (double)clock_ms) {
        snprintf(out->detail, PLAYER_DETAIL_MAX, "used %.1f ms with %" PRId64 " ms on its clock", out->seconds * 1000,
                 clock_ms);
        return PLAYER_TIME_FORFEIT;
    }
    return PLAYER_OK;
}

static PlayerFault think_hub(Player *p, const GameRecord *rec, int64_t clock_ms, PlayerMove *out)
{
    const Game *g = p->game;
    char start[FEN_MAX], serr[ERR_MAX];
    if (!hub_native(g) || hub_pos_string(g, game_record_start(rec), start, serr) != 0)
        g->pos_to_fen(game_record_start(rec), start); /* a Hub engine reads International's FEN too if it is dama */
    size_t cap = (size_t)rec->len * MOVE_STR_MAX + 1, n = 0;
    char *moves = malloc(cap);
    if (!moves) {
        snprintf(out->detail, PLAYER_DETAIL_MAX, "out of memory");
        return PLAYER_CRASH;
    }
    moves[0] = '\0';
    for (int i = 0; i < rec->len; i++) {
        char m[MOVE_STR_MAX];
        hub_move_to_str(g, &rec->positions[i], &rec->moves[i], m);
        n += (size_t)snprintf(moves + n, cap - n, "%s%s", i ? " " : "", m);
    }
    const PlayerLimits *l = &p->limits;
    char level[128];
    double budget_s; /* how long we wait for "done" */
    if (l->nodes) {
        snprintf(level, sizeof level, "level nodes=%" PRIu64, l->nodes);
        budget_s = (l->hang_ms ? l->hang_ms : HANG_DEFAULT_MS) / 1000.0;
    } else if (l->depth) {
        snprintf(level, sizeof level, "level depth=%d", l->depth);
        budget_s = (l->hang_ms ? l->hang_ms : HANG_DEFAULT_MS) / 1000.0;
    } else if (l->movetime_ms) {
        snprintf(level, sizeof level, "level move-time=%.3f", l->movetime_ms / 1000.0);
        budget_s = (l->movetime_ms + (l->hang_ms ? l->hang_ms : GRACE_MS)) / 1000.0;
    } else {
        snprintf(level, sizeof level, "level time=%.3f inc=%.3f", clock_ms / 1000.0, l->inc_ms / 1000.0);
        budget_s = (clock_ms + (l->hang_ms ? l->hang_ms : GRACE_MS)) / 1000.0;
    }
    p->last[0] = '\0';
    double t0 = clock_now_s(), c0 = tree_cpu_s(p->pid);
    int rc = hub_send(p, "pos pos=\"%s\" moves=\"%s\"", start, moves);
    free(moves);
    if (rc == 0) rc = hub_send(p, "%s", level);
    if (rc == 0) rc = hub_send(p, "go think");
    if (rc != 0) {
        fault_detail(p, out->detail, "cannot write to the engine");
        hub_kill(p);
        return PLAYER_CRASH;
    }
    char line[PLAYER_LINE_MAX];
    double deadline = t0 + budget_s;
    for (;;) {
        int r = hub_read_line(p, line, sizeof line, deadline);
        if (r == -2) {
            hub_kill(p);
            return PLAYER_STOPPED;
        }
        if (r == 0) {
            char what[96];
            snprintf(what, sizeof what, "no move within %.0f ms", budget_s * 1000);
            fault_detail(p, out->detail, what);
            hub_kill(p);
            return PLAYER_TIMEOUT;
        }
        if (r < 0) {
            fault_detail(p, out->detail, "the engine ended while thinking");
            hub_kill(p);
            return PLAYER_CRASH;
        }
        if (hub_line_is(line, "info")) {
            char v[64];
            if (hub_line_value(line, "score", v, sizeof v)) {
                char *end = NULL;
                double men = strtod(v, &end);
                /* a score the search could give: a NaN, an infinity or 1e30 men (beyond any int) is no
                 * score, and read as one it would adjudicate the game (a resignation) */
                if (end != v && isfinite(men) && fabs(men) * 100 <= SCORE_INF) {
                    out->score = (int)(men * 100 + (men < 0 ? -0.5 : 0.5));
                    out->has_score = true;
                }
            }
            if (hub_line_value(line, "nodes", v, sizeof v)) out->nodes = strtoull(v, NULL, 10);
            continue;
        }
        if (hub_line_is(line, "error")) { /* it refused the position or the search: the game is its to lose */
            fault_detail(p, out->detail, "the engine answered error during the game");
            hub_kill(p);
            return PLAYER_CRASH;
        }
        if (!hub_line_is(line, "done")) continue;
        out->seconds = clock_now_s() - t0;
        /* a process of the tree that ended during the move and is not yet waited for leaves the sum
         * (its time comes back in its parent's cutime only once reaped): the reading can fall, and a
         * negative time would make the game unstorable (it stopped a match against an engine that
         * crashed) */
        double cpu = tree_cpu_s(p->pid) - c0;
        out->cpu_seconds = cpu > 0 ? cpu : 0;
        char text[MOVE_STR_MAX], perr[ERR_MAX];
        if (!hub_line_value(line, "move", text, sizeof text) ||
            hub_move_from_str(g, game_record_position(rec), text, &out->move, perr) != 0) {
            char fen[FEN_MAX];
            g->pos_to_fen(game_record_position(rec), fen);
            char shown[PLAYER_DETAIL_MAX / 2]; /* its bytes escaped, as every line of an engine shown or stored */
            text_escape(line, strlen(line), shown, sizeof shown);
            snprintf(out->detail, PLAYER_DETAIL_MAX, "'%s' in %.100s", shown, fen);
            hub_kill(p);
            return PLAYER_ILLEGAL;
        }
        if (l->time_ms > 0 && out->seconds * 1000 > (double)clock_ms) {
            snprintf(out->detail, PLAYER_DETAIL_MAX, "answered after %.1f ms with %" PRId64 " ms on its clock",
                     out->seconds * 1000, clock_ms);
            return PLAYER_TIME_FORFEIT;
        }
        return PLAYER_OK;
    }
}

void player_set_book(Player *p, const MoveBook *book, uint64_t seed)
{
    p->book = book && book->game == p->game && p->kind != PLAYER_DXP ? book : NULL;
    p->book_seed = seed;
}

PlayerFault player_think(Player *p, const GameRecord *rec, int64_t clock_ms, PlayerMove *out)
{
    memset(out, 0, sizeof *out);
    if (p->book && book_pick(p->book, game_record_position(rec), p->book_seed, &out->move, NULL)) {
        out->from_book = true;
        return PLAYER_OK;
    }
    if (p->kind == PLAYER_DAMA) return think_dama(p, rec, clock_ms, out);
    if (p->kind == PLAYER_DXP) return player_dxp_think(p, rec, clock_ms, out);
    if (p->pid <= 0) {
        snprintf(out->detail, PLAYER_DETAIL_MAX, "the engine is not running");
        return PLAYER_CRASH;
    }
    return think_hub(p, rec, clock_ms, out);
}

void player_game_over(Player *p, const GameRecord *rec, Outcome o)
{
    if (p->kind == PLAYER_DXP) player_dxp_game_over(p, rec, o);
}

Engine *player_engine(Player *p)
{
    return p->kind == PLAYER_DAMA ? p->engine : NULL;
}

void player_free(Player *p)
{
    if (!p) return;
    if (p->kind == PLAYER_HUB && p->pid > 0) {
        if (hub_send(p, "quit") == 0) {
            for (int i = 0; i < 40; i++) { /* up to 200 ms to exit by itself */
                if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
                    p->pid = 0;
                    break;
                }
                struct timespec ts = {0, 5000000};
                nanosleep(&ts, NULL);
            }
        }
        hub_kill(p);
    }
    stderr_tail_close(&p->err);
    player_dxp_free(p);
    if (p->owns_engine) engine_free(p->engine);
    free(p->weights);
    free(p->buf);
    free(p);
}
