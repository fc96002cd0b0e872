/* text.c — reading and checking lines of text input, and appending to a
 * text buffer (contracts in util/text.h). */
#include "util/text.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* Length of the well-formed UTF-8 sequence at s[0..left) (2..4 bytes), or 0
 * (RFC 3629, section 4: the second byte's range depends on the first). */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    unsigned char c = s[0];
    size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!len || len > left) return 0;
    unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xc0) != 0x80) return 0;
    return len;
}

int text_read_line(FILE *f, char **line, size_t *cap, size_t *len)
{
    ssize_t got = getline(line, cap, f);
    if (got <= 0) return 0;
    size_t n = (size_t)got;
    *len = n;
    if ((*line)[n - 1] != '\n') return -1;
    n--;
    if (n && (*line)[n - 1] == '\r') n--;
    (*line)[n] = '\0';
    *len = n;
    return 1;
}

long text_cut_line(const char *text, size_t n)
{
    if (n == 0 || text[n - 1] == '\n') return 0;
    long lines = 1;
    for (size_t i = 0; i < n; i++) lines += text[i] == '\n';
    return lines;
}

size_t text_line_check(const char *line, size_t len, char what[TEXT_WHAT_MAX])
{
    const unsigned char *s = (const unsigned char *)line;
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        if (c == '\t' || (c >= 0x20 && c < 0x7f)) {
            i++;
            continue;
        }
        size_t u = c >= 0x80 ? utf8_len(s + i, len - i) : 0;
        if (u == 3 && c == 0xEF && s[i + 1] == 0xBB && s[i + 2] == 0xBF) { /* invisible in any message that quotes the line */
            snprintf(what, TEXT_WHAT_MAX, "a byte-order mark (U+FEFF) at column %zu", i + 1);
            return i + 1;
        }
        if (u) {
            i += u;
            continue;
        }
        if (c == 0) snprintf(what, TEXT_WHAT_MAX, "a NUL byte at column %zu", i + 1);
        else if (c < 0x80) snprintf(what, TEXT_WHAT_MAX, "non-printable byte 0x%02X at column %zu", c, i + 1);
        else snprintf(what, TEXT_WHAT_MAX, "byte 0x%02X at column %zu, not UTF-8", c, i + 1);
        return i + 1;
    }
    what[0] = '\0';
    return 0;
}

void text_append(char *out, size_t size, size_t *used, const char *fmt, ...)
{
    if (size == 0 || *used >= size - 1) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out + *used, size - *used, fmt, ap);
    va_end(ap);
    if (w < 0) return;
    *used = (size_t)w < size - *used ? *used + (size_t)w : size - 1;
}

/* The escaped form of byte c into one[5]; returns its length. */
static size_t escape_byte(unsigned char c, char one[5])
{
    if (c == '\\') return (size_t)snprintf(one, 5, "\\\\");
    if (c >= 0x20 && c < 0x7f) return (size_t)snprintf(one, 5, "%c", c);
    return (size_t)snprintf(one, 5, "\\x%02X", c);
}

size_t text_escape(const char *in, size_t n, char *out, size_t size)
{
    char one[5];
    size_t need = 0, k = 0, i = 0;
    for (size_t j = 0; j < n; j++) need += escape_byte((unsigned char)in[j], one);
    bool cut = need >= size; /* then room is kept for "..." */
    for (; i < n; i++) {
        size_t len = escape_byte((unsigned char)in[i], one);
        if (k + len + (cut ? 3 : 0) >= size) break;
        memcpy(out + k, one, len);
        k += len;
    }
    if (cut && k + 3 < size) memcpy(out + k, "...", 3), k += 3;
    if (size) out[k < size ? k : size - 1] = '\0';
    return i;
}

bool text_list_has_empty(const char *list)
{
    size_t n = strlen(list);
    return n == 0 || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,") != NULL;
}

bool text_list_has(const char *list, const char *item)
{
    size_t n = strlen(item);
    for (const char *p = list; p;) {
        if (strcspn(p, ",") == n && strncmp(p, item, n) == 0) return true;
        p = strchr(p, ',');
        if (p) p++;
    }
    return false;
}

int text_chars(const char *s)
{
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

const char *text_column(const char *s, int width, char *out, size_t size)
{
    size_t used = 0;
    int chars = 0;
    for (const char *p = s; *p;) {
        size_t len = 1;
        while (((unsigned char)p[len] & 0xC0) == 0x80) len++;
        if (chars == width || used + len >= size) break;
        memcpy(out + used, p, len);
        used += len, p += len, chars++;
    }
    for (; chars < width && used + 1 < size; chars++) out[used++] = ' ';
    out[used] = '\0';
    return out;
}
