/* num.h — the one checked number parser: every number read from the
 * command line, a configuration or weight file, or a position string goes
 * through it, so that no value wraps, is cut at a stray character or is
 * read with a silent default.
 *
 * Whole-string parsers accept an optional sign and decimal digits (reals:
 * anything strtod reads that is finite, no leading blanks, nothing after);
 * the range is inclusive. Pure functions, thread-safe. */
#ifndef DAMA_NUM_H
#define DAMA_NUM_H

#include <stddef.h>
#include <stdint.h>

typedef enum NumStatus {
    NUM_OK = 0,
    NUM_EMPTY = -1,     /* no text at all */
    NUM_MALFORMED = -2, /* not a number, or something after it */
    NUM_RANGE = -3      /* a number outside [min, max] (or beyond int64 / double) */
} NumStatus;

/* text (decimal integer, whole string) into *out when within [min, max]. */
NumStatus num_parse_int(const char *text, int64_t min, int64_t max, int64_t *out);
/* text (a finite real, whole string) into *out when within [min, max]. */
NumStatus num_parse_real(const char *text, double min, double max, double *out);
/* Decimal digits at *s (no sign): *out when within [min, max]; *s moves
 * past every digit read (also on NUM_RANGE). NUM_MALFORMED if no digit. */
NumStatus num_scan_digits(const char **s, int64_t min, int64_t max, int64_t *out);

/* "<what>: '<text>' is not an integer" / "... is out of range MIN..MAX":
 * the message for status st (text cut to 60 bytes). real: the range is
 * printed with %g. */
void num_format_error(char *err, size_t size, const char *what, const char *text, size_t text_len, NumStatus st,
                      double min, double max, int real);

/* x as it is to be printed with `decimals` digits after the point (0..9):
 * x itself, or +0.0 when it rounds to zero there, so that a value such as
 * -0.04 or -0.0 prints "0.0", never "-0.0". Pure. */
double num_shown(double x, int decimals);

/* libconfig 1.5 stores an integer literal that does not fit in 32 bits as
 * its low 32 bits (4294967396 reads as 100) and one beyond int64 as
 * garbage, without an error. Scan libconfig text (comments and strings
 * skipped) for integer literals that libconfig would misread: without an
 * L suffix beyond -2147483648..2147483647, with one beyond int64; and for
 * reals that overflow to infinity. Returns 0, or -1 with "LINE: message"
 * in err. */
int num_check_config_text(const char *text, size_t len, char *err, size_t size);
/* The same for a file, whose lines must be text (text_line_check: "a NUL
 * byte at column 9", which libconfig would blame on the text before it) and
 * whose last line must end (TEXT_LINE_CUT_MSG: a cut file can read as
 * other valid values), and that has no @include line (libconfig would read
 * the other file past these checks): 0, 1 if the file cannot be opened (libconfig will
 * say so itself), -1 with "PATH:LINE: message" in err, or "'PATH' is a
 * directory, not a config file". */
int num_check_config_file(const char *path, char *err, size_t size);

#endif
