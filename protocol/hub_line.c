/* hub_line.c — the syntax of a Hub protocol line; see hub_line.h. */
#include "protocol/hub_line.h"

#include <string.h>

static const char SPACE[] = " \t\r\n";

static bool is_space(char c) { return c && strchr(SPACE, c); }

size_t hub_line_command(const char **cursor, const char **command)
{
    const char *p = *cursor + strspn(*cursor, SPACE);
    size_t n = strcspn(p, SPACE);
    *command = p;
    p += n;
    if (*p) p++;
    *cursor = p;
    return n;
}

bool hub_line_next(const char **cursor, HubArg *a)
{
    const char *p = *cursor + strspn(*cursor, SPACE);
    if (!*p) {
        *cursor = p;
        return false;
    }
    a->key = p;
    p += strcspn(p, " \t\r\n=");
    a->key_len = (size_t)(p - a->key);
    a->problem = a->key_len == 0 || a->key[0] == '"' ? HUB_ARG_NO_NAME
                 : memchr(a->key, '"', a->key_len)   ? HUB_ARG_QUOTE_IN_NAME
                                                     : HUB_ARG_OK;
    a->value = p;
    a->value_len = 0;
    if (*p == '=') {
        p++;
        if (*p == '"') {
            a->value = ++p;
            const char *end = strchr(p, '"');
            if (!end) {
                a->value_len = strlen(p);
                if (!a->problem) a->problem = HUB_ARG_UNTERMINATED;
                *cursor = p + a->value_len;
                return true;
            }
            a->value_len = (size_t)(end - p);
            p = end + 1;
            if (*p && !is_space(*p)) {
                if (!a->problem) a->problem = HUB_ARG_AFTER_QUOTE;
                *cursor = p; /* the text starts the next argument */
                return true;
            }
        } else {
            a->value = p;
            p += strcspn(p, SPACE);
            a->value_len = (size_t)(p - a->value);
            if (!a->problem && memchr(a->value, '"', a->value_len)) a->problem = HUB_ARG_QUOTE_IN_VALUE;
        }
    }
    if (*p) p++; /* one separator */
    *cursor = p;
    return true;
}

void hub_arg_problem_text(const HubArg *a, int number, char err[ERR_MAX])
{
    int kl = a->key_len < 40 ? (int)a->key_len : 40;
    switch (a->problem) {
    case HUB_ARG_OK: err[0] = '\0'; break;
    case HUB_ARG_NO_NAME:
        err_set(err, "argument %d has no name before '%c'", number, a->key_len ? a->key[0] : '=');
        break;
    case HUB_ARG_QUOTE_IN_NAME:
        err_set(err, "argument %d: a quote inside its name '%.*s'", number, kl, a->key);
        break;
    case HUB_ARG_UNTERMINATED: err_set(err, "argument '%.*s': unterminated quoted value", kl, a->key); break;
    case HUB_ARG_AFTER_QUOTE: err_set(err, "argument '%.*s': text after the closing quote", kl, a->key); break;
    case HUB_ARG_QUOTE_IN_VALUE: err_set(err, "argument '%.*s': a quote inside an unquoted value", kl, a->key); break;
    }
}

int hub_parse_line(const char *text, HubLine *line, char err[ERR_MAX])
{
    size_t n = strlen(text);
    if (n >= sizeof line->buf) return err_set(err, "line longer than %d bytes", HUB_LINE_MAX - 1);
    memcpy(line->buf, text, n + 1);
    line->len = 0;
    const char *p = line->buf, *command;
    size_t len = hub_line_command(&p, &command);
    /* spans of buf: NUL-terminate them in place (each end is at or before
     * the cursor, so the tokenizer never sees the NULs) */
    line->command = line->buf + (command - line->buf);
    line->command[len] = '\0';
    HubArg a;
    while (hub_line_next(&p, &a)) {
        if (line->len == HUB_ARGS_MAX) return err_set(err, "more than %d arguments", HUB_ARGS_MAX);
        if (a.problem != HUB_ARG_OK) {
            hub_arg_problem_text(&a, line->len + 1, err);
            return -1;
        }
        char *key = line->buf + (a.key - line->buf), *value = line->buf + (a.value - line->buf);
        key[a.key_len] = '\0';
        value[a.value_len] = '\0';
        for (int i = 0; i < line->len; i++) /* hub_arg reads the first: a second would be dropped unseen */
            if (strcmp(line->keys[i], key) == 0)
                return err_set(err, "argument %d: '%.40s' given twice", line->len + 1, key);
        line->keys[line->len] = key;
        line->values[line->len] = value;
        line->len++;
    }
    return 0;
}

const char *hub_arg(const HubLine *line, const char *key)
{
    for (int i = 0; i < line->len; i++)
        if (strcmp(line->keys[i], key) == 0) return line->values[i];
    return NULL;
}

bool hub_line_is(const char *text, const char *command)
{
    const char *p = text, *word;
    size_t n = hub_line_command(&p, &word);
    return n == strlen(command) && memcmp(word, command, n) == 0;
}

bool hub_line_value(const char *text, const char *key, char *out, size_t size)
{
    const char *p = text, *word;
    hub_line_command(&p, &word);
    size_t klen = strlen(key);
    HubArg a;
    while (hub_line_next(&p, &a)) {
        if (a.key_len != klen || memcmp(a.key, key, klen) != 0) continue;
        size_t n = a.value_len < size - 1 ? a.value_len : size - 1;
        memcpy(out, a.value, n);
        out[n] = '\0';
        return true;
    }
    return false;
}
