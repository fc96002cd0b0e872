/* hub_line.h — the syntax of a Hub protocol line, for both ends of the
 * pipe: the Hub engine reading a GUI's commands (protocol/hub.c) and the
 * arena reading a Hub engine's answers (arena/player.c).
 *
 * A line is `command key=value key="quoted value" flag ...`: words apart
 * by spaces, tabs, CR or LF; a value may be double-quoted, and then holds
 * spaces and '=' (there are no escapes inside quotes). One tokenizer
 * (hub_line_command, hub_line_next) reads it; the engine refuses a line
 * with a malformed argument (hub_parse_line: the message names it), the
 * arena reads an engine's line leniently (hub_line_value: a malformed
 * argument is taken as it stands). Pure; thread-safe.
 */
#ifndef DAMA_HUB_LINE_H
#define DAMA_HUB_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

enum { HUB_ARGS_MAX = 32, HUB_LINE_MAX = 65536 };

/* What is wrong with an argument (the strict reader refuses the line). */
typedef enum HubArgProblem {
    HUB_ARG_OK = 0,
    HUB_ARG_NO_NAME,       /* it starts with '=' or '"' */
    HUB_ARG_QUOTE_IN_NAME, /* a '"' inside its name */
    HUB_ARG_UNTERMINATED,  /* a quoted value without its closing quote (the value runs to the end) */
    HUB_ARG_AFTER_QUOTE,   /* text right after the closing quote (it starts the next argument) */
    HUB_ARG_QUOTE_IN_VALUE /* a '"' inside an unquoted value */
} HubArgProblem;

/* One argument, as spans of the line's text (not NUL-terminated). */
typedef struct HubArg {
    const char *key;
    size_t key_len;
    const char *value; /* a flag without '=': an empty span right after the key */
    size_t value_len;
    HubArgProblem problem;
} HubArg;

/* The command word of the line at *cursor: skips white space, sets
 * *command to the word's start and returns its length (0: an empty line),
 * and moves *cursor past it and one separator after it. */
size_t hub_line_command(const char **cursor, const char **command);

/* The next argument at *cursor: returns false at the end of the line, or
 * true with *arg (arg->problem says whether it is well-formed) and *cursor
 * past it and one separator after it (after a closing quote followed by
 * text, at that text). */
bool hub_line_next(const char **cursor, HubArg *arg);

/* The message for arg's problem, arg being argument number `number`
 * (1-based) of its line, e.g. "argument 'x': unterminated quoted value". */
void hub_arg_problem_text(const HubArg *arg, int number, char err[ERR_MAX]);

/* One protocol line, split: command and arguments as NUL-terminated
 * strings inside buf. */
typedef struct HubLine {
    char *command;
    int len;
    char *keys[HUB_ARGS_MAX];
    char *values[HUB_ARGS_MAX]; /* "" for a flag without a value */
    char buf[HUB_LINE_MAX];
} HubLine;

/* Split `text` into a HubLine (copied into line->buf), strictly: returns 0
 * (an empty line gives command ""), or -1 with err naming the problem
 * (hub_arg_problem_text; an argument's name given twice; too many
 * arguments; line too long). */
int hub_parse_line(const char *text, HubLine *line, char err[ERR_MAX]);

/* The value of `key` in line, or NULL when absent ("" for a flag). */
const char *hub_arg(const HubLine *line, const char *key);

/* Is the command word of `text` exactly `command`? */
bool hub_line_is(const char *text, const char *command);

/* Leniently, the value of the first argument named `key` in `text` (after
 * its command word), quotes removed, cut to size - 1 bytes, into out;
 * false if there is none. A malformed argument is read as it stands
 * (HubArgProblem), so an engine's sloppy line still gives what it can. */
bool hub_line_value(const char *text, const char *key, char *out, size_t size);

#endif
