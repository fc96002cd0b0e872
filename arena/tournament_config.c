/* tournament_config.c — a tournament's configuration compared with the
 * stored one, and its PDN file checked (contracts in
 * arena/tournament_config.h). */
#include "arena/tournament_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Line n (0-based) of text that starts with prefix, without its end;
 * NULL if none. */
static const char *nth_line(const char *text, const char *prefix, int n, int *len)
{
    size_t pl = strlen(prefix);
    for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
        if (strncmp(l, prefix, pl) != 0 || n-- > 0) continue;
        *len = (int)strcspn(l, "\n");
        return l;
    }
    return NULL;
}

/* The line of text whose key is the key of line (up to " = "). */
static const char *same_key(const char *text, const char *line, int *len)
{
    const char *eq = strstr(line, " = ");
    char key[80];
    snprintf(key, sizeof key, "%.*s = ", eq ? (int)(eq - line) : 0, line);
    return nth_line(text, key, 0, len);
}

void tournament_config_diff(const char *given, const char *stored, int64_t tid, char err[ERR_MAX])
{
    enum { W = 120 };
    for (int i = 0;; i++) {
        int gl = 0, sl = 0;
        const char *ge = nth_line(given, "engine = ", i, &gl), *se = nth_line(stored, "engine = ", i, &sl);
        if (!ge && !se) break;
        if (ge) ge += 9, gl -= 9;
        if (se) se += 9, sl -= 9;
        if (ge && se && gl == sl && strncmp(ge, se, (size_t)gl) == 0) continue;
        if (ge && se)
            snprintf(err, ERR_MAX, "--resume: engine %d is '%.*s' here but '%.*s' in tournament %lld", i + 1,
                     gl < W ? gl : W, ge, sl < W ? sl : W, se, (long long)tid);
        else if (ge)
            snprintf(err, ERR_MAX, "--resume: engine %d '%.*s' is given here, but tournament %lld has %d engines",
                     i + 1, gl < W ? gl : W, ge, (long long)tid, i);
        else
            snprintf(err, ERR_MAX, "--resume: tournament %lld also has engine %d '%.*s'", (long long)tid, i + 1,
                     sl < W ? sl : W, se);
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *from = pass ? given : stored, *other = pass ? stored : given;
        for (const char *l = from; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
            int n = (int)strcspn(l, "\n"), on = 0;
            if (strncmp(l, "engine = ", 9) == 0) continue;
            const char *o = same_key(other, l, &on);
            if (o && on == n && strncmp(o, l, (size_t)n) == 0) continue;
            if (!o && pass)
                snprintf(err, ERR_MAX, "--resume: '%.*s' is given here, but tournament %lld has no such option",
                         n < W ? n : W, l, (long long)tid);
            else if (!o)
                snprintf(err, ERR_MAX, "--resume: tournament %lld has '%.*s', not given here", (long long)tid,
                         n < W ? n : W, l);
            else
                snprintf(err, ERR_MAX, "--resume: '%.*s' here, but '%.*s' in tournament %lld", on < W ? on : W, o,
                         n < W ? n : W, l, (long long)tid);
            return;
        }
    }
    snprintf(err, ERR_MAX, "--resume: the configuration of tournament %lld is not this one", (long long)tid);
}

int tournament_path_absolute(const char *path, char out[TOURNAMENT_PATH_MAX], char err[ERR_MAX])
{
    char cwd[TOURNAMENT_PATH_MAX];
    if (!*path) {
        snprintf(err, ERR_MAX, "an empty file name");
        return -1;
    }
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd)) {
        snprintf(err, ERR_MAX, "'%.100s': the working folder: %s", path, strerror(errno));
        return -1;
    }
    int n = path[0] == '/' ? snprintf(out, TOURNAMENT_PATH_MAX, "%s", path)
                           : snprintf(out, TOURNAMENT_PATH_MAX, "%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 : path);
    if (n < 0 || n >= TOURNAMENT_PATH_MAX) {
        snprintf(err, ERR_MAX, "'%.100s...': longer than %d bytes as an absolute path", path, TOURNAMENT_PATH_MAX - 1);
        return -1;
    }
    return 0;
}

/* An existing file that games are appended to must be PDN text: its
 * start (after a byte-order mark and blanks) a tag '[' or a comment '{',
 * and no NUL byte in its first 64 KiB; anything else (a database, a
 * program, other text) would be damaged by the appends. */
static int pdn_text_check(const char *path, char err[ERR_MAX])
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, ERR_MAX, "cannot read '%.180s': %s", path, strerror(errno));
        return -1;
    }
    enum { HEAD = 1 << 16 };
    unsigned char *buf = malloc(HEAD);
    size_t n = buf ? fread(buf, 1, HEAD, f) : 0;
    fclose(f);
    if (!buf) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    size_t i = n >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf ? 3 : 0;
    while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n')) i++;
    const unsigned char *nul = memchr(buf, 0, n);
    int rc = 0;
    if (nul) {
        snprintf(err, ERR_MAX, "'%.100s' is not a PDN file (a NUL byte at offset %zu): games are appended only "
                 "to a PDN file, a new or an empty one", path, (size_t)(nul - buf));
        rc = -1;
    } else if (i < n && buf[i] != '[' && buf[i] != '{') { /* blanks only are fine */
        snprintf(err, ERR_MAX, "'%.100s' is not a PDN file (it starts with '%c', not a tag '['): games are "
                 "appended only to a PDN file, a new or an empty one", path,
                 buf[i] >= 0x20 && buf[i] < 0x7f ? buf[i] : '?');
        rc = -1;
    }
    free(buf);
    return rc;
}

int tournament_path_appendable(const char *path, char err[ERR_MAX])
{
    struct stat st;
    if (stat(path, &st) == 0) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : access(path, W_OK) != 0 ? errno : 0;
        if (e) snprintf(err, ERR_MAX, "cannot append to '%.180s': %s", path, strerror(e));
        if (e || !S_ISREG(st.st_mode) || st.st_size == 0) return e ? -1 : 0;
        return pdn_text_check(path, err);
    }
    if (errno != ENOENT) {
        snprintf(err, ERR_MAX, "cannot append to '%.180s': %s", path, strerror(errno));
        return -1;
    }
    char dir[TOURNAMENT_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir) slash[1] = '\0';
    else if (slash) *slash = '\0';
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
        int e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : errno;
        snprintf(err, ERR_MAX, "cannot create '%.120s': its folder '%.100s': %s", path, dir, strerror(e));
        return -1;
    }
    return 0;
}
