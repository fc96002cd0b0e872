/* manual.h — dama's command reference, generated from the command table.
 *
 * The reference walks the same tables as `dama COMMAND --help` (each
 * command's name, summary, usage and CliOpt list, with the built-in
 * defaults and ranges) and adds the prose of cli/manual.txt (embedded at
 * build time), so the man page (`dama help --man`, installed as dama.1)
 * and docs/commands.md (`dama help --markdown`) cannot disagree with
 * --help.
 *
 * manual.txt holds an introduction, one text per command and the sections
 * after the commands (its header says how). The prose is written in a
 * small subset of Markdown that both outputs
 * understand: paragraphs separated by a blank line; a block of lines that
 * start with "- " is a bullet list (a line starting with two spaces
 * continues the item); a block of lines indented by four spaces is
 * verbatim; inline `code`, **bold** and [text](target) links, where a
 * target is a path from the repository root (docs/training.md#section),
 * rewritten relative to docs/ in Markdown and given in parentheses in the
 * man page. */
#ifndef DAMA_CLI_MANUAL_H
#define DAMA_CLI_MANUAL_H

#include <stdio.h>

struct CliCommand;

typedef enum CliManualFormat { CLI_MANUAL_MAN, CLI_MANUAL_MARKDOWN } CliManualFormat;

/* Write the command reference of commands (NULL-terminated, e.g.
 * cli_commands) to out, as a man page in roff (CLI_MANUAL_MAN) or as
 * Markdown (CLI_MANUAL_MARKDOWN). The output depends only on the tables
 * and the library version (no date, no build commit), so the committed
 * docs/commands.md can be compared with it. A command without a text in
 * manual.txt, or a text naming a command that is not in commands,
 * gets one warning line on stderr (the reference is still written: the
 * docs test fails on the warning). Returns the number of such warnings;
 * writing errors are left to the caller (ferror(out)). Main thread
 * only. */
int cli_manual_write(const struct CliCommand *const *commands, CliManualFormat format, FILE *out);

#endif
