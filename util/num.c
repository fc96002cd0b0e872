/* num.c — checked number parsing (see num.h). */
#include "util/num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file_read.h"
#include "util/text.h"

NumStatus num_parse_int(const char *text, int64_t min, int64_t max, int64_t *out)
{
    if (!text || !*text) return NUM_EMPTY;
    const char *p = text;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return NUM_MALFORMED;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q)) return NUM_MALFORMED;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end) return NUM_MALFORMED;
    if (errno == ERANGE || v < min || v > max) return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

NumStatus num_parse_real(const char *text, double min, double max, double *out)
{
    if (!text || !*text) return NUM_EMPTY;
    if (isspace((unsigned char)*text)) return NUM_MALFORMED;
    /* strtod also reads "nan", "inf" and hex floats: only decimal numbers. */
    for (const char *q = text; *q; q++)
        if (!isdigit((unsigned char)*q) && !strchr("+-.eE", *q)) return NUM_MALFORMED;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end) return NUM_MALFORMED;
    if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) return NUM_RANGE;
    if (!(v >= min && v <= max)) return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

NumStatus num_scan_digits(const char **s, int64_t min, int64_t max, int64_t *out)
{
    const char *p = *s;
    if (!isdigit((unsigned char)*p)) return NUM_MALFORMED;
    bool overflow = false;
    int64_t v = 0;
    for (; isdigit((unsigned char)*p); p++) {
        int d = *p - '0';
        if (v > (INT64_MAX - d) / 10) overflow = true;
        else v = v * 10 + d;
    }
    *s = p;
    if (overflow || v < min || v > max) return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

void num_format_error(char *err, size_t size, const char *what, const char *text, size_t text_len, NumStatus st,
                      double min, double max, int real)
{
    int n = (int)(text_len < 60 ? text_len : 60);
    const char *more = text_len > 60 ? "..." : "";
    if (st == NUM_EMPTY) snprintf(err, size, "%s: an empty value is not a number", what);
    else if (st == NUM_MALFORMED)
        snprintf(err, size, "%s: '%.*s%s' is not %s", what, n, text, more, real ? "a number" : "an integer");
    else if (real)
        snprintf(err, size, "%s: '%.*s%s' is out of range %g..%g", what, n, text, more, min, max);
    else
        snprintf(err, size, "%s: '%.*s%s' is out of range %.0f..%.0f", what, n, text, more, min, max);
}

/* ---- libconfig literals ---------------------------------------------------- */

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '*' || c == '-'; }

/* One number token t[0..n): 0, or -1 with the message. */
static int check_literal(const char *t, size_t n, int line, char *err, size_t size)
{
    char buf[128];
    if (n >= sizeof buf) {
        snprintf(err, size, "%d: number '%.40s...' is too long", line, t);
        return -1;
    }
    memcpy(buf, t, n);
    buf[n] = '\0';
    const char *digits = buf + (buf[0] == '+' || buf[0] == '-');
    bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    size_t len = n;
    int longs = 0;
    while (len > 0 && (buf[len - 1] == 'L' || buf[len - 1] == 'l')) {
        buf[--len] = '\0';
        longs++;
    }
    if (!hex && strpbrk(buf, ".eE")) { /* a real */
        errno = 0;
        double v = strtod(buf, NULL);
        if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) {
            snprintf(err, size, "%d: number '%s' is out of range", line, buf);
            return -1;
        }
        return 0;
    }
    errno = 0;
    char *end;
    long long v = 0;
    if (hex) {
        unsigned long long u = strtoull(digits, &end, 16);
        if (errno == ERANGE || u > (unsigned long long)INT64_MAX) errno = ERANGE;
        v = (long long)u;
        if (buf[0] == '-') v = -v;
    } else {
        v = strtoll(buf, &end, 10);
    }
    if (*end) return 0; /* not a number libconfig reads: its parser reports it */
    if (errno == ERANGE) {
        snprintf(err, size, "%d: integer '%s' is out of range %lld..%lld", line, t[0] == '+' ? buf + 1 : buf,
                 (long long)INT64_MIN, (long long)INT64_MAX);
        return -1;
    }
    if (longs == 0 && (v < INT32_MIN || v > INT32_MAX)) {
        snprintf(err, size, "%d: integer '%.*s' is out of range %d..%d (libconfig would read it as %d)", line,
                 (int)n, t, INT32_MIN, INT32_MAX, (int)(uint32_t)(uint64_t)v);
        return -1;
    }
    return 0;
}

int num_check_config_text(const char *text, size_t len, char *err, size_t size)
{
    int line = 1;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (c == '"') {
            for (i++; i < len && text[i] != '"'; i++) {
                if (text[i] == '\\' && i + 1 < len) i++;
                if (text[i] == '\n') line++;
            }
            i++;
        } else if (c == '#' || (c == '/' && i + 1 < len && text[i + 1] == '/')) {
            while (i < len && text[i] != '\n') i++;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            for (i += 2; i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/'); i++)
                if (text[i] == '\n') line++;
            i += 2;
        } else if (isalpha((unsigned char)c) || c == '*' || c == '@') {
            for (i++; i < len && name_char(text[i]); i++) {}
        } else if (isdigit((unsigned char)c) ||
                   ((c == '+' || c == '-' || c == '.') && i + 1 < len &&
                    (isdigit((unsigned char)text[i + 1]) || text[i + 1] == '.'))) {
            size_t start = i++;
            while (i < len) {
                char d = text[i];
                if (isalnum((unsigned char)d) || d == '.') i++;
                else if ((d == '+' || d == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E')) i++;
                else break;
            }
            if (check_literal(text + start, i - start, line, err, size) != 0) return -1;
        } else {
            i++;
        }
    }
    return 0;
}

int num_check_config_file(const char *path, char *err, size_t size)
{
    FILE *f = file_open_read(path);
    if (!f && errno == EISDIR) { /* libconfig would only say it cannot read it */
        char msg[ERR_MAX];
        file_read_error(msg, path, "config file", EISDIR);
        snprintf(err, size, "%s", msg);
        return -1;
    }
    if (!f) return 1;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        if (len == cap) {
            char *b = cap < ((size_t)64 << 20) ? realloc(buf, cap * 2) : NULL;
            if (!b) break;
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    if (!buf || !feof(f)) {
        int read_errno = ferror(f) ? errno : 0; /* a folder: EISDIR */
        fclose(f);
        free(buf);
        if (read_errno)
            snprintf(err, size, "%.200s: cannot read: %s", path, strerror(read_errno));
        else
            snprintf(err, size, "%.200s: cannot read the whole file (over 64 MiB, or out of memory)", path);
        return -1;
    }
    fclose(f);
    char msg[256];
    /* a byte that is no text (a NUL: a binary file given as config): libconfig
     * would stop there and blame the text before it */
    long line = 1;
    for (size_t at = 0; at < len && rc == 0; line++) {
        const char *nl = memchr(buf + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - buf) : len, n = end - at;
        if (nl && n > 0 && buf[end - 1] == '\r') n--;
        char what[TEXT_WHAT_MAX];
        size_t lead = 0;
        while (lead < n && (buf[at + lead] == ' ' || buf[at + lead] == '\t')) lead++;
        if (text_line_check(buf + at, n, what)) {
            snprintf(err, size, "%.150s:%ld: %s", path, line, what);
            rc = -1;
        } else if (n - lead >= 8 && memcmp(buf + at + lead, "@include", 8) == 0) {
            /* libconfig would read the other file unchecked (numbers, lines) and
             * name this one in its errors */
            snprintf(err, size, "%.150s:%ld: @include is not supported: put the included settings in this file",
                     path, line);
            rc = -1;
        }
        at = end + 1;
    }
    long cut = text_cut_line(buf, len); /* "games = 40" of "games = 4000;" reads as another valid value */
    if (rc == 0 && num_check_config_text(buf, len, msg, sizeof msg) != 0) {
        snprintf(err, size, "%.150s:%s", path, msg);
        rc = -1;
    } else if (rc == 0 && cut) {
        snprintf(err, size, "%.150s:%ld: " TEXT_LINE_CUT_MSG, path, cut);
        rc = -1;
    }
    free(buf);
    return rc;
}

double num_shown(double x, int decimals)
{
    /* printf rounds half to even on the binary value: compare with what it
     * prints, not with a threshold */
    char text[64];
    snprintf(text, sizeof text, "%.*f", decimals, fabs(x));
    return strtod(text, NULL) == 0 ? 0.0 : x;
}
