/* manual.c — the command reference (man page and Markdown) from the
 * command table: every command's usage, summary and options as --help
 * shows them, with the prose of cli/manual.txt. */
#include "cli/manual.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "dama/engine.h" /* DAMA_VERSION_STRING */
#include "manual_text.h" /* generated from cli/manual.txt: manual_text[] */

/* ---- the prose of manual.txt ---- */

typedef enum { ENTRY_INTRO, ENTRY_COMMAND, ENTRY_SECTION } EntryKind;

typedef struct Entry {
    EntryKind kind;
    const char *name;        /* ENTRY_COMMAND: the command; ENTRY_SECTION: the Markdown title */
    const char *man_section; /* ENTRY_SECTION: the man page's .SH name */
    const char *text;        /* the prose, without the blank lines around it */
} Entry;

enum { ENTRIES_MAX = 64 };

typedef struct Manual {
    char *buf; /* a copy of manual_text, cut into the entries' strings */
    Entry entries[ENTRIES_MAX];
    int len;
} Manual;

/* Cut the copy of manual.txt into entries at its "@@ " lines. Returns the
 * number of problems, each with a line on stderr (an unknown entry kind, too
 * many entries, no introduction first, out of memory). */
static int manual_parse(Manual *m)
{
    memset(m, 0, sizeof *m);
    m->buf = strdup(manual_text);
    if (!m->buf) {
        fprintf(stderr, "dama help: out of memory\n");
        return 1;
    }
    int problems = 0;
    Entry *cur = NULL;
    for (char *line = m->buf; line && *line;) {
        char *eol = strchr(line, '\n');
        char *next = eol ? eol + 1 : NULL;
        if (strncmp(line, "@@ ", 3) == 0) {
            if (eol) *eol = '\0';
            if (line > m->buf) line[-1] = '\0'; /* ends the previous entry's text */
            cur = m->len < ENTRIES_MAX ? &m->entries[m->len++] : NULL;
            char *what = line + 3;
            if (!cur) {
                fprintf(stderr, "dama help: cli/manual.txt has more than %d entries\n", ENTRIES_MAX);
                problems++;
            } else if (strcmp(what, "intro") == 0) {
                cur->kind = ENTRY_INTRO;
            } else if (strncmp(what, "command ", 8) == 0) {
                cur->kind = ENTRY_COMMAND;
                cur->name = what + 8;
            } else if (strncmp(what, "section ", 8) == 0 && strstr(what, " | ")) {
                cur->kind = ENTRY_SECTION;
                cur->name = what + 8;
                char *bar = strstr(what, " | ");
                *bar = '\0';
                cur->man_section = bar + 3;
            } else {
                fprintf(stderr, "dama help: cli/manual.txt: unknown entry '@@ %s'\n", what);
                problems++;
                m->len--;
                cur = NULL;
            }
            if (cur) cur->text = next ? next : "";
        }
        line = next;
    }
    for (int i = 0; i < m->len; i++) { /* the blank lines around each text */
        Entry *e = &m->entries[i];
        while (*e->text == '\n') e->text++;
        char *end = (char *)e->text + strlen(e->text);
        while (end > e->text && end[-1] == '\n') *--end = '\0';
    }
    if (m->len == 0 || m->entries[0].kind != ENTRY_INTRO) {
        fprintf(stderr, "dama help: cli/manual.txt does not start with '@@ intro'\n");
        problems++;
    }
    return problems;
}

/* ---- the parts both formats share ---- */

/* The range --help appends to an option's help (" [1..100]"), or "". */
static void opt_range(const CliOpt *o, char *out, size_t size)
{
    out[0] = '\0';
    if (o->type == OPT_INT && o->max >= CLI_INT_MAX) snprintf(out, size, " [%.0f..]", o->min);
    else if (o->type == OPT_INT) snprintf(out, size, " [%.0f..%.0f]", o->min, o->max);
    else if (o->type == OPT_REAL) snprintf(out, size, " [%g..%g]", o->min, o->max);
}

static const char *text_of(const Manual *m, const char *command)
{
    for (int i = 0; i < m->len; i++)
        if (m->entries[i].kind == ENTRY_COMMAND && strcmp(m->entries[i].name, command) == 0)
            return m->entries[i].text;
    return NULL;
}

/* Blocks of the prose subset (manual.h): returns the length of the block
 * starting at s (up to a blank line or the end) and its kind. */
typedef enum { BLOCK_PARA, BLOCK_LIST, BLOCK_CODE } BlockKind;

static size_t block_len(const char *s, BlockKind *kind)
{
    const char *end = strstr(s, "\n\n");
    size_t len = end ? (size_t)(end - s) : strlen(s);
    *kind = strncmp(s, "    ", 4) == 0 ? BLOCK_CODE : strncmp(s, "- ", 2) == 0 ? BLOCK_LIST : BLOCK_PARA;
    return len;
}

/* Next block start after one of length len (skipping the blank lines). */
static const char *next_block(const char *s, size_t len)
{
    s += len;
    while (*s == '\n') s++;
    return s;
}

/* A [text](target) link at s: fills the spans and returns its length, or 0. */
static size_t link_at(const char *s, size_t n, const char **text, size_t *text_len, const char **target,
                      size_t *target_len)
{
    if (s[0] != '[') return 0;
    const char *close = memchr(s, ']', n);
    if (!close || (size_t)(close - s) + 1 >= n || close[1] != '(') return 0;
    const char *rest = close + 2;
    const char *end = memchr(rest, ')', n - (size_t)(rest - s));
    if (!end) return 0;
    *text = s + 1;
    *text_len = (size_t)(close - s - 1);
    *target = rest;
    *target_len = (size_t)(end - rest);
    return (size_t)(end - s) + 1;
}

/* ---- roff ---- */

typedef struct Roff {
    FILE *out;
    bool line_start; /* next byte starts an output line */
} Roff;

static void roff_raw(Roff *r, const char *s)
{
    fputs(s, r->out);
    size_t n = strlen(s);
    if (n) r->line_start = s[n - 1] == '\n';
}

/* End the output line unless at the start of one. */
static void roff_newline(Roff *r)
{
    if (!r->line_start) fputc('\n', r->out);
    r->line_start = true;
}

/* One request line (".PP"), on a line of its own ("": end the line). */
static void roff_req(Roff *r, const char *req)
{
    roff_newline(r);
    if (!*req) return;
    fputs(req, r->out);
    fputc('\n', r->out);
    r->line_start = true;
}

/* Text bytes: backslashes escaped, a line never starting with a control
 * character, '-' as the minus sign where hyphen is false (options, code),
 * every other character beyond ASCII as a groff \[uXXXX] escape. */
static void roff_text(Roff *r, const char *s, size_t n, bool hyphen)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') {
            if (!r->line_start) fputc('\n', r->out);
            r->line_start = true;
            while (i + 1 < n && s[i + 1] == ' ') i++; /* a continued list item's indent */
            continue;
        }
        if (r->line_start && (c == '.' || c == '\'')) fputs("\\&", r->out);
        r->line_start = false;
        if (c == '\\') fputs("\\e", r->out);
        else if (c == '-' && !hyphen) fputs("\\-", r->out);
        else if (c < 0x80) fputc(c, r->out);
        else { /* UTF-8: one code point */
            int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
            uint32_t cp = c & (0x3F >> extra);
            for (int k = 0; k < extra && i + 1 < n; k++) cp = (cp << 6) | ((unsigned char)s[++i] & 0x3F);
            fprintf(r->out, "\\[u%04X]", (unsigned)cp);
        }
    }
}

/* Inline markup of the prose subset: `code` and **bold** in bold, links as
 * "text (target)" without the #fragment. */
static void roff_inline(Roff *r, const char *s, size_t n)
{
    bool code = false, bold = false;
    for (size_t i = 0; i < n;) {
        const char *text, *target;
        size_t text_len, target_len, link;
        if (s[i] == '`') {
            code = !code;
            roff_raw(r, code || bold ? "\\fB" : "\\fR");
            i++;
        } else if (!code && s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
            bold = !bold;
            roff_raw(r, bold ? "\\fB" : "\\fR");
            i += 2;
        } else if (!code && (link = link_at(s + i, n - i, &text, &text_len, &target, &target_len)) > 0) {
            roff_inline(r, text, text_len);
            const char *hash = memchr(target, '#', target_len);
            size_t path_len = hash ? (size_t)(hash - target) : target_len;
            if (path_len) {
                roff_raw(r, " (");
                roff_text(r, target, path_len, false);
                roff_raw(r, ")");
            }
            i += link;
        } else {
            size_t j = i + 1;
            while (j < n && s[j] != '`' && s[j] != '*' && s[j] != '[') j++;
            roff_text(r, s + i, j - i, !code);
            i = j;
        }
    }
    if (code || bold) roff_raw(r, "\\fR");
}

static void roff_prose(Roff *r, const char *s)
{
    while (*s) {
        BlockKind kind;
        size_t len = block_len(s, &kind);
        if (kind == BLOCK_CODE) {
            roff_req(r, ".PP");
            roff_req(r, ".RS 4");
            roff_req(r, ".nf");
            for (const char *line = s; line < s + len;) {
                const char *eol = memchr(line, '\n', (size_t)(s + len - line));
                size_t line_len = eol ? (size_t)(eol - line) : (size_t)(s + len - line);
                if (line_len >= 4) roff_text(r, line + 4, line_len - 4, false);
                else roff_raw(r, "\\&"); /* an empty line of the block */
                roff_newline(r);
                line += line_len + (eol ? 1 : 0);
            }
            roff_req(r, ".fi");
            roff_req(r, ".RE");
        } else if (kind == BLOCK_LIST) {
            for (const char *item = s; item < s + len;) {
                const char *next = item;
                do { /* the item runs to the next line that starts "- " */
                    next = memchr(next, '\n', (size_t)(s + len - next));
                    next = next ? next + 1 : s + len;
                } while (next < s + len && strncmp(next, "- ", 2) != 0);
                roff_req(r, ".IP \\(bu 2");
                size_t item_len = (size_t)(next - item) - 2;
                if (next < s + len) item_len--; /* the newline before the next item */
                roff_inline(r, item + 2, item_len);
                item = next;
            }
            roff_req(r, ".PP");
        } else {
            roff_req(r, ".PP");
            roff_inline(r, s, len);
        }
        s = next_block(s, len);
    }
}

static void roff_opt(Roff *r, const char *name, const char *arg, const char *help, const char *range,
                     const char *defval)
{
    roff_req(r, ".TP");
    roff_raw(r, "\\fB");
    roff_text(r, name, strlen(name), false);
    roff_raw(r, "\\fR");
    if (*arg) {
        roff_raw(r, " \\fI");
        roff_text(r, arg + 1, strlen(arg + 1), true);
        roff_raw(r, "\\fR");
    }
    roff_newline(r);
    roff_text(r, help, strlen(help), false);
    roff_text(r, range, strlen(range), false);
    if (defval) {
        roff_raw(r, " (default: ");
        roff_text(r, defval, strlen(defval), false);
        roff_raw(r, ")");
    }
}

/* The usage line: "dama NAME USAGE", in no-fill mode when the usage has
 * lines of its own (egtb's list of actions), each line as it is. */
static void roff_usage(Roff *r, const CliCommand *cmd)
{
    bool lines = strchr(cmd->usage, '\n') != NULL;
    if (lines) roff_req(r, ".nf");
    roff_raw(r, "\\fBdama ");
    roff_text(r, cmd->name, strlen(cmd->name), false);
    roff_raw(r, "\\fR");
    const char *s = cmd->usage;
    size_t len = strlen(s);
    while (len && s[len - 1] == ' ') len--;
    if (len) roff_raw(r, " ");
    for (size_t i = 0; i < len;) {
        const char *eol = memchr(s + i, '\n', len - i);
        size_t line_len = eol ? (size_t)(eol - (s + i)) : len - i;
        size_t indent = 0;
        while (i > 0 && indent < line_len && s[i + indent] == ' ') indent++;
        for (size_t k = 0; k < indent; k++) roff_raw(r, " "); /* kept in no-fill mode */
        if (i > 0 && line_len == 0) roff_raw(r, "\\&");
        roff_text(r, s + i + indent, line_len - indent, false);
        if (eol) roff_newline(r);
        i += line_len + (eol ? 1 : 0);
    }
    if (lines) roff_req(r, ".fi");
    else roff_req(r, ".br");
}

static void roff_command(Roff *r, const Manual *m, const CliCommand *cmd)
{
    roff_newline(r);
    roff_raw(r, ".SS \"dama ");
    roff_text(r, cmd->name, strlen(cmd->name), false);
    roff_raw(r, "\"\n");
    roff_usage(r, cmd);
    roff_text(r, cmd->summary, strlen(cmd->summary), false);
    const char *text = text_of(m, cmd->name);
    if (text) roff_prose(r, text);
    roff_req(r, ".PP");
    roff_raw(r, "Options:");
    for (const CliOpt *o = cmd->opts; o && o->name; o++) {
        char name[80], range[64], help[4096];
        snprintf(name, sizeof name, "--%s", o->name);
        opt_range(o, range, sizeof range);
        cli_help_text(o->help, help, sizeof help);
        roff_opt(r, name, cli_opt_arg(o), help, range, o->defval);
    }
    roff_opt(r, "--config", " FILE", "read defaults from this libconfig file (default: configs/dama.cfg if present)",
             "", NULL);
    roff_opt(r, "--help", "", "show this help", "", NULL);
}

static void write_man(const Manual *m, const CliCommand *const *commands, FILE *out)
{
    Roff r = {out, true};
    roff_raw(&r, ".\\\" generated by `dama help --man` from the option tables of cli/ (as --help) and cli/manual.txt\n");
    roff_raw(&r, ".TH DAMA 1 \"\" \"dama " DAMA_VERSION_STRING "\" \"dama manual\"\n");
    roff_raw(&r, ".nh\n.ad l\n"); /* no hyphenation (options, paths), ragged right */
    roff_raw(&r, ".SH NAME\ndama \\- self-play training and evaluation tuning for draughts-family games\n");
    roff_raw(&r, ".SH SYNOPSIS\n.B dama\n.I COMMAND\n.RI [ options ]\n.br\n.B dama\n.I COMMAND\n.B \\-\\-help\n");
    roff_req(&r, ".SH DESCRIPTION");
    roff_prose(&r, m->entries[0].text);
    roff_req(&r, ".SH COMMANDS");
    for (int i = 0; commands[i]; i++) roff_command(&r, m, commands[i]);
    for (int i = 0; i < m->len; i++) {
        if (m->entries[i].kind != ENTRY_SECTION) continue;
        roff_newline(&r);
        roff_raw(&r, ".SH \"");
        roff_text(&r, m->entries[i].man_section, strlen(m->entries[i].man_section), false);
        roff_raw(&r, "\"\n");
        roff_prose(&r, m->entries[i].text);
    }
    roff_newline(&r);
}

/* ---- Markdown ---- */

/* Text from the option tables, with the characters Markdown would read as
 * markup escaped. */
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_<>|#", *s)) fputc('\\', out);
        fputc(*s, out);
    }
}

/* Inline prose as it is, but link targets from the repository root made
 * relative to docs/ (where commands.md lies). */
static void md_inline(FILE *out, const char *s, size_t n)
{
    bool code = false;
    for (size_t i = 0; i < n;) {
        const char *text, *target;
        size_t text_len, target_len, link;
        if (s[i] == '`') code = !code;
        else if (!code && (link = link_at(s + i, n - i, &text, &text_len, &target, &target_len)) > 0) {
            fprintf(out, "[%.*s](", (int)text_len, text);
            if (target[0] == '#' || strncmp(target, "http", 4) == 0) fprintf(out, "%.*s", (int)target_len, target);
            else if (strncmp(target, "docs/", 5) == 0) fprintf(out, "%.*s", (int)target_len - 5, target + 5);
            else fprintf(out, "../%.*s", (int)target_len, target);
            fputc(')', out);
            i += link;
            continue;
        }
        fputc(s[i], out);
        i++;
    }
}

/* The prose's blocks, a blank line between two; verbatim blocks fenced
 * (an indented block after a list would continue its last item). */
static void md_prose(FILE *out, const char *s)
{
    for (bool first = true; *s; first = false) {
        BlockKind kind;
        size_t len = block_len(s, &kind);
        if (!first) fputc('\n', out);
        if (kind == BLOCK_CODE) {
            fputs("```\n", out);
            for (const char *line = s; line < s + len;) {
                const char *eol = memchr(line, '\n', (size_t)(s + len - line));
                size_t line_len = eol ? (size_t)(eol - line) : (size_t)(s + len - line);
                if (line_len >= 4) fprintf(out, "%.*s", (int)line_len - 4, line + 4);
                fputc('\n', out);
                line += line_len + (eol ? 1 : 0);
            }
            fputs("```\n", out);
        } else {
            md_inline(out, s, len);
            fputc('\n', out);
        }
        s = next_block(s, len);
    }
}

/* GitHub's anchor of a heading: lower case, spaces to '-', other
 * punctuation dropped. */
static void md_anchor(FILE *out, const char *title)
{
    for (; *title; title++) {
        unsigned char c = (unsigned char)*title;
        if (c == ' ') fputc('-', out);
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c >= 0x80) fputc(c, out);
        else if (c >= 'A' && c <= 'Z') fputc(c - 'A' + 'a', out);
    }
}

static void md_opt(FILE *out, const char *name, const char *arg, const char *help, const char *range,
                   const char *defval)
{
    fprintf(out, "- `%s%s` — ", name, arg);
    md_text(out, help);
    md_text(out, range);
    if (defval) fprintf(out, " (default: `%s`)", defval);
    fputc('\n', out);
}

static void md_command(FILE *out, const Manual *m, const CliCommand *cmd)
{
    fprintf(out, "\n## %s\n\n", cmd->name);
    md_text(out, cmd->summary);
    size_t len = strlen(cmd->usage);
    while (len && cmd->usage[len - 1] == ' ') len--;
    fprintf(out, ".\n\n```\ndama %s%s%.*s\n```\n\n", cmd->name, len ? " " : "", (int)len, cmd->usage);
    const char *text = text_of(m, cmd->name);
    if (text) {
        md_prose(out, text);
        fputc('\n', out);
    }
    fputs("Options:\n\n", out);
    for (const CliOpt *o = cmd->opts; o && o->name; o++) {
        char name[80], range[64], help[4096];
        snprintf(name, sizeof name, "--%s", o->name);
        opt_range(o, range, sizeof range);
        cli_help_text(o->help, help, sizeof help);
        md_opt(out, name, cli_opt_arg(o), help, range, o->defval);
    }
    md_opt(out, "--config", " FILE", "read defaults from this libconfig file (default: configs/dama.cfg if present)",
           "", NULL);
    md_opt(out, "--help", "", "show this help", "", NULL);
}

static void write_markdown(const Manual *m, const CliCommand *const *commands, FILE *out)
{
    fputs("# dama command reference\n\n"
          "<!-- generated by `dama help --markdown` from the option tables of cli/ (the ones --help prints)\n"
          "     and the prose of cli/manual.txt: do not edit; regenerate with\n"
          "     build/dama help --markdown > docs/commands.md -->\n\n",
          out);
    md_prose(out, m->entries[0].text);
    fputs("\n| command | what it does |\n|---|---|\n", out);
    for (int i = 0; commands[i]; i++) {
        fprintf(out, "| [%s](#%s) | ", commands[i]->name, commands[i]->name);
        md_text(out, commands[i]->summary);
        fputs(" |\n", out);
    }
    fputs("\nAfter the commands: ", out);
    bool first = true;
    for (int i = 0; i < m->len; i++) {
        if (m->entries[i].kind != ENTRY_SECTION) continue;
        fprintf(out, "%s[%s](#", first ? "" : ", ", m->entries[i].name);
        md_anchor(out, m->entries[i].name);
        fputc(')', out);
        first = false;
    }
    fputs(".\n", out);
    for (int i = 0; commands[i]; i++) md_command(out, m, commands[i]);
    for (int i = 0; i < m->len; i++) {
        if (m->entries[i].kind != ENTRY_SECTION) continue;
        fprintf(out, "\n## %s\n\n", m->entries[i].name);
        md_prose(out, m->entries[i].text);
    }
}

int cli_manual_write(const CliCommand *const *commands, CliManualFormat format, FILE *out)
{
    Manual m;
    int warnings = manual_parse(&m);
    if (!m.buf || m.len == 0) {
        free(m.buf);
        return warnings;
    }
    for (int i = 0; commands[i]; i++)
        if (!text_of(&m, commands[i]->name)) {
            fprintf(stderr, "dama help: command '%s' has no text in cli/manual.txt\n", commands[i]->name);
            warnings++;
        }
    for (int i = 0; i < m.len; i++) {
        if (m.entries[i].kind != ENTRY_COMMAND) continue;
        bool found = false;
        for (int j = 0; commands[j] && !found; j++) found = strcmp(commands[j]->name, m.entries[i].name) == 0;
        if (!found) {
            fprintf(stderr, "dama help: cli/manual.txt has a text for '%s', which is no command\n", m.entries[i].name);
            warnings++;
        }
    }
    if (format == CLI_MANUAL_MAN) write_man(&m, commands, out);
    else write_markdown(&m, commands, out);
    free(m.buf);
    return warnings;
}
