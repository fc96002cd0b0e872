/* text.h — lines of text files read as input (opening books, move books,
 * position lists, search parameters): one line at a time with its end cut
 * off, a last line without its end of line refused as a file cut short,
 * and a byte that is no text named with its column instead of being
 * echoed, or cutting the line short. Pure apart from the stream read;
 * thread-safe. */
#ifndef DAMA_TEXT_H
#define DAMA_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { TEXT_WHAT_MAX = 64 };

/* The plural ending of an English noun after the count n: "" for 1, "s"
 * otherwise ("1 thread", "2 threads", "0 pairs"). */
#define TEXT_PLURAL(n) ((n) == 1 ? "" : "s")

/* The one message for a last line without its end of line (after the
 * caller's "FILE line N: " or "FILE:N: "): every file dama writes ends its
 * lines, so such a line was cut short, and a value cut short may read as
 * another, valid one ("LMR_DIV=20" of "LMR_DIV=200"). */
#define TEXT_LINE_CUT_MSG "the last line has no end of line: the file is truncated"

/* Read the next line of f into *line (grown as needed; *cap its size, as
 * getline's) with its end of line ("\n", or "\r\n") cut off and a NUL in
 * its place; *len is its length without the end (NUL bytes inside count).
 * Returns 1 for a line, 0 at the end of the file or on a read error
 * (ferror tells), or -1 for a last line without its end of line (a file cut
 * short: TEXT_LINE_CUT_MSG; *line holds it as read). */
int text_read_line(FILE *f, char **line, size_t *cap, size_t *len);

/* For a text read whole (text[0..n)): the 1-based number of its last line
 * when that line has no end of line (TEXT_LINE_CUT_MSG), or 0 when the text
 * ends with "\n" or is empty. */
long text_cut_line(const char *text, size_t n);

/* Check line[0..len) (one line without its end: a final "\n" or "\r\n" is
 * the caller's to drop) for a byte that is no text: a NUL, a control byte
 * other than tab (0x01..0x1F, 0x7F, a lone CR included), or a byte that is
 * not part of a well-formed UTF-8 sequence (RFC 3629: no overlong forms,
 * surrogates or code points past U+10FFFF), or a byte-order mark (U+FEFF,
 * which an editor may put first: a message quoting the line would not
 * show it). Returns 0, or the 1-based
 * column (in bytes) of the first such byte, with what it is in
 * what[TEXT_WHAT_MAX]: "a NUL byte at column 9", "non-printable byte 0x01
 * at column 3", "byte 0xFF at column 5, not UTF-8". */
size_t text_line_check(const char *line, size_t len, char what[TEXT_WHAT_MAX]);

/* The characters of UTF-8 text s (bytes that do not continue a sequence:
 * a column of a table counts these, not bytes). */
int text_chars(const char *s);

/* s in a column `width` characters wide, for a table (width >= 0): cut
 * after width characters (never inside one), then padded with spaces to
 * width characters; into out (size bytes, at least 4 * width + 1 hold any
 * text). Returns out. */
const char *text_column(const char *s, int width, char *out, size_t size);

/* in[0..n) as one line of printable ASCII into out (size bytes, always
 * NUL-terminated): bytes 0x20..0x7E as they are, a backslash as "\\",
 * every other byte (control bytes, NUL, bytes past 0x7E) as "\xNN"; what
 * does not fit whole is left out, "..." after the last that fits (size
 * >= 4). For text that came from another program (a message read from a
 * socket), before it is printed or stored. Returns the bytes of in
 * written. */
size_t text_escape(const char *in, size_t n, char *out, size_t size);

/* Append printf-formatted text at out + *used (out holds size bytes): the
 * text is cut to fit and out stays NUL-terminated; *used grows by what was
 * written, never past size - 1. For building a multi-line text (a board
 * picture) in a caller's buffer. */
void text_append(char *out, size_t size, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Whether a comma-separated list has an empty item: empty itself, a comma
 * first or last, or two commas together. */
bool text_list_has_empty(const char *list);

/* Whether a comma-separated list (NULL: none) holds item exactly, as one
 * whole entry ("D4,D5" holds "D5", not "D" or "D4,D5"). */
bool text_list_has(const char *list, const char *item);

#endif
