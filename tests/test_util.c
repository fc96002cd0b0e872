/* test_util.c — the checked number parser (util/num.h), the atomic file
 * writer (util/atomic_file.h), the text-line check (util/text.h) and the
 * time used per move (util/time_use.h).
 * Table-driven. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "util/atomic_file.h"
#include "util/num.h"
#include "util/text.h"
#include "util/time_use.h"

typedef struct IntCase {
    const char *text;
    int64_t min, max;
    NumStatus status;
    int64_t value;
} IntCase;

static const IntCase INT_CASES[] = {
    {"0", 0, 100, NUM_OK, 0},
    {"100", 0, 100, NUM_OK, 100},
    {"+7", 0, 100, NUM_OK, 7},
    {"-1", 0, 100, NUM_RANGE, 0},
    {"101", 0, 100, NUM_RANGE, 0},
    {"4294967297", 0, 100, NUM_RANGE, 0},          /* would wrap to 1 in an int */
    {"4294967298", 0, 1000000, NUM_RANGE, 0},      /* would wrap to 2 */
    {"99999999999999999999", INT64_MIN, INT64_MAX, NUM_RANGE, 0}, /* beyond int64 */
    {"9223372036854775807", INT64_MIN, INT64_MAX, NUM_OK, INT64_MAX},
    {"-9223372036854775808", INT64_MIN, INT64_MAX, NUM_OK, INT64_MIN},
    {"", 0, 100, NUM_EMPTY, 0},
    {" 5", 0, 100, NUM_MALFORMED, 0},
    {"5 ", 0, 100, NUM_MALFORMED, 0},
    {"5x", 0, 100, NUM_MALFORMED, 0},
    {"0x10", 0, 100, NUM_MALFORMED, 0},
    {"1e3", 0, 10000, NUM_MALFORMED, 0},
    {"-", 0, 100, NUM_MALFORMED, 0},
    {"abc", 0, 100, NUM_MALFORMED, 0},
};

static void test_parse_int(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof INT_CASES / sizeof INT_CASES[0]; i++) {
        const IntCase *c = &INT_CASES[i];
        int64_t v = -12345;
        NumStatus st = num_parse_int(c->text, c->min, c->max, &v);
        if (st != c->status) fail_msg("'%s': status %d, expected %d", c->text, st, c->status);
        if (st == NUM_OK && v != c->value) fail_msg("'%s': %lld", c->text, (long long)v);
        if (st != NUM_OK && v != -12345) fail_msg("'%s': output written on failure", c->text);
    }
}

typedef struct RealCase {
    const char *text;
    double min, max;
    NumStatus status;
    double value;
} RealCase;

static const RealCase REAL_CASES[] = {
    {"0.05", 0, 1, NUM_OK, 0.05},
    {"1e-7", 0, 1, NUM_OK, 1e-7},
    {"-1", 0, 86400, NUM_RANGE, 0},
    {"1e400", 0, 1e9, NUM_RANGE, 0},
    {"nan", 0, 1, NUM_MALFORMED, 0},
    {"inf", 0, 1, NUM_MALFORMED, 0},
    {"0x1p3", 0, 100, NUM_MALFORMED, 0},
    {"", 0, 1, NUM_EMPTY, 0},
    {"0.5.5", 0, 1, NUM_MALFORMED, 0},
    {" 1", 0, 2, NUM_MALFORMED, 0},
};

static void test_parse_real(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof REAL_CASES / sizeof REAL_CASES[0]; i++) {
        const RealCase *c = &REAL_CASES[i];
        double v = -1;
        NumStatus st = num_parse_real(c->text, c->min, c->max, &v);
        if (st != c->status) fail_msg("'%s': status %d, expected %d", c->text, st, c->status);
        if (st == NUM_OK && v != c->value) fail_msg("'%s': %g", c->text, v);
    }
}

static void test_scan_digits(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        NumStatus status;
        int64_t value;
        int used;
    } cases[] = {
        {"32,", NUM_OK, 32, 2}, {"4294967328,", NUM_RANGE, 0, 10}, {"0", NUM_RANGE, 0, 1},
        {"a1", NUM_MALFORMED, 0, 0}, {"99999999999999999999999", NUM_RANGE, 0, 23},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].text;
        int64_t v = 0;
        NumStatus st = num_scan_digits(&s, 1, 32, &v);
        if (st != cases[i].status) fail_msg("'%s': status %d", cases[i].text, st);
        if (st == NUM_OK && v != cases[i].value) fail_msg("'%s': %lld", cases[i].text, (long long)v);
        if (s - cases[i].text != cases[i].used) fail_msg("'%s': used %d", cases[i].text, (int)(s - cases[i].text));
    }
}

/* num_shown: a value that prints as zero prints "0.0", never "-0.0". */
static void test_num_shown(void **state)
{
    (void)state;
    static const struct {
        double x;
        int decimals;
        const char *want;
    } cases[] = {
        {-0.0, 1, "0.0"},     {-1e-17, 1, "0.0"},   {-0.04, 1, "0.0"},  {-0.049, 1, "0.0"},
        {-0.051, 1, "-0.1"},  {-0.004, 2, "0.00"},  {-0.006, 2, "-0.01"}, {0.04, 1, "0.0"},
        {-12.34, 1, "-12.3"}, {-0.4, 0, "0"},       {-0.6, 0, "-1"},    {3.0, 1, "3.0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[32];
        snprintf(got, sizeof got, "%.*f", cases[i].decimals, num_shown(cases[i].x, cases[i].decimals));
        if (strcmp(got, cases[i].want) != 0) fail_msg("%g at %d decimals: '%s', expected '%s'", cases[i].x,
                                                      cases[i].decimals, got, cases[i].want);
    }
    assert_true(isinf(num_shown(-INFINITY, 1)) && num_shown(-INFINITY, 1) < 0);
    assert_true(isnan(num_shown(NAN, 1)));
}

static void test_error_text(void **state)
{
    (void)state;
    char err[256];
    num_format_error(err, sizeof err, "--depth", "4294967297", 10, NUM_RANGE, 0, 100, 0);
    assert_string_equal(err, "--depth: '4294967297' is out of range 0..100");
    num_format_error(err, sizeof err, "--lr", "x", 1, NUM_MALFORMED, 0, 1, 1);
    assert_string_equal(err, "--lr: 'x' is not a number");
    num_format_error(err, sizeof err, "--alpha", "2", 1, NUM_RANGE, 1e-6, 0.5, 1);
    assert_string_equal(err, "--alpha: '2' is out of range 1e-06..0.5");
}

/* libconfig text: 0 = accepted, else the line of the literal refused. */
static void test_config_literals(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line; /* 0: accepted */
    } cases[] = {
        {"a = 5;\nb = -2147483648;\nc = 2147483647;", 0},
        {"selfplay = { games = 4294967298; };", 1},
        {"weights = {\n  KING = 4294967396;\n};", 2},
        {"x = 99999999999999999999;", 1},
        {"x = 99999999999999999999L;", 1},
        {"x = 4294967298L;", 0},
        {"x = 0x100000000;", 1},
        {"x = 1e400;", 1},
        {"x = 1e-7; y = .5; z = -0.25e+3;", 0},
        {"# 4294967298 in a comment\nx = \"4294967298\"; /* 99999999999999999999 */ // 1e999", 0},
        {"MAN_PST = [1, 2, 3];\nKING2X = 3;", 0},
        {"s = \"a \\\" 4294967298\";\nt = 3000000000;", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        int rc = num_check_config_text(cases[i].text, strlen(cases[i].text), err, sizeof err);
        if (cases[i].line == 0 && rc != 0) fail_msg("case %zu refused: %s", i, err);
        if (cases[i].line != 0) {
            if (rc == 0) fail_msg("case %zu accepted", i);
            if (atoi(err) != cases[i].line) fail_msg("case %zu: '%s', expected line %d", i, err, cases[i].line);
        }
    }
}

static char dir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/dama_test_util_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void read_text(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    fclose(f);
}

static int count_files(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p && fscanf(p, "%d", &n) != 1) n = -1;
    if (p) pclose(p);
    return n;
}

typedef struct TextCase {
    const char *line;
    size_t len; /* bytes of line (NULs included) */
    size_t column;
    const char *what;
} TextCase;

#define TEXT(s) s, sizeof s - 1
static const TextCase TEXT_CASES[] = {
    {TEXT("W:Wa1,c3:Bb8"), 0, ""},
    {TEXT("label\tW:Wa1"), 0, ""},                                    /* a tab is text */
    {TEXT("\xd0\x98\xd0\xb3\xd1\x80\xd0\xb0\tW:Wa1"), 0, ""},         /* UTF-8 (Cyrillic) */
    {TEXT("\xf0\x9f\x98\x80"), 0, ""},                                 /* 4 bytes, U+1F600 */
    {TEXT("W:Wa1,c3\0,e1"), 9, "a NUL byte at column 9"},
    {TEXT("\0"), 1, "a NUL byte at column 1"},
    {TEXT("ab\x01\x02"), 3, "non-printable byte 0x01 at column 3"},
    {TEXT("ab\r"), 3, "non-printable byte 0x0D at column 3"},       /* a lone CR is not a line end */
    {TEXT("\x7f"), 1, "non-printable byte 0x7F at column 1"},
    {TEXT("W:Wa1\xff"), 6, "byte 0xFF at column 6, not UTF-8"},
    {TEXT("\xc0\xaf"), 1, "byte 0xC0 at column 1, not UTF-8"},         /* overlong '/' */
    {TEXT("\xe0\x80\xaf"), 1, "byte 0xE0 at column 1, not UTF-8"},     /* overlong, 3 bytes */
    {TEXT("\xed\xa0\x80"), 1, "byte 0xED at column 1, not UTF-8"},     /* a surrogate, U+D800 */
    {TEXT("\xf4\x90\x80\x80"), 1, "byte 0xF4 at column 1, not UTF-8"}, /* past U+10FFFF */
    {TEXT("ab\xd0"), 3, "byte 0xD0 at column 3, not UTF-8"},           /* cut at the end */
    {TEXT("\x80"), 1, "byte 0x80 at column 1, not UTF-8"},             /* a lone continuation byte */
    /* a byte-order mark (Notepad's UTF-8): the position after it was quoted as if it were bad */
    {TEXT("\xef\xbb\xbfW:Wa1:Bb8"), 1, "a byte-order mark (U+FEFF) at column 1"},
    {TEXT("label\t\xef\xbb\xbf"), 7, "a byte-order mark (U+FEFF) at column 7"},
};
#undef TEXT

static void test_text_line_check(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof TEXT_CASES / sizeof TEXT_CASES[0]; i++) {
        const TextCase *c = &TEXT_CASES[i];
        char what[TEXT_WHAT_MAX] = "x";
        size_t col = text_line_check(c->line, c->len, what);
        if (col != c->column || strcmp(what, c->what) != 0)
            fail_msg("case %zu: column %zu '%s', expected %zu '%s'", i, col, what, c->column, c->what);
    }
}

/* text from another program, escaped: printable ASCII as is, a backslash
 * doubled, any other byte \xNN; cut whole, with "..." */
/* Lines read one at a time: "\n" and "\r\n" cut off, a NUL inside kept
 * and counted, a last line without "\n" reported as cut short (-1). */
static void test_text_read_line(void **state)
{
    (void)state;
    static const char in[] = "ab\n\r\nc\0d\r\n\nlast";
    FILE *f = fmemopen((void *)in, sizeof in - 1, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0, len = 99;
    assert_int_equal(text_read_line(f, &line, &cap, &len), 1);
    assert_int_equal(len, 2);
    assert_string_equal(line, "ab");
    assert_int_equal(text_read_line(f, &line, &cap, &len), 1);
    assert_int_equal(len, 0);
    assert_string_equal(line, "");
    assert_int_equal(text_read_line(f, &line, &cap, &len), 1);
    assert_int_equal(len, 3);
    assert_memory_equal(line, "c\0d", 4);
    assert_int_equal(text_read_line(f, &line, &cap, &len), 1);
    assert_int_equal(len, 0);
    assert_int_equal(text_read_line(f, &line, &cap, &len), -1);
    assert_int_equal(len, 4);
    assert_memory_equal(line, "last", 4);
    assert_int_equal(text_read_line(f, &line, &cap, &len), 0);
    fclose(f);
    free(line);
}

/* A text read whole: the number of its last line when that line is cut short. */
static void test_text_cut_line(void **state)
{
    (void)state;
    assert_int_equal(text_cut_line("", 0), 0);
    assert_int_equal(text_cut_line("A=1\n", 4), 0);
    assert_int_equal(text_cut_line("A=1", 3), 1);
    assert_int_equal(text_cut_line("A=1\nB=2\n\nC=20", 13), 4);
    assert_string_equal(TEXT_LINE_CUT_MSG, "the last line has no end of line: the file is truncated");
}

/* A comma list's empty items: the whole list, first, last, between two commas. */
static void test_text_list_has_empty(void **state)
{
    (void)state;
    assert_true(text_list_has_empty(""));
    assert_true(text_list_has_empty(","));
    assert_true(text_list_has_empty(",A"));
    assert_true(text_list_has_empty("A,"));
    assert_true(text_list_has_empty("A,,B"));
    assert_false(text_list_has_empty("A"));
    assert_false(text_list_has_empty("A,B, C"));
}

/* A comma list's entries, whole: none of a prefix, a suffix or the list itself */
static void test_text_list_has(void **state)
{
    (void)state;
    assert_true(text_list_has("D4,D5,D6", "D4"));
    assert_true(text_list_has("D4,D5,D6", "D5"));
    assert_true(text_list_has("D4,D5,D6", "D6"));
    assert_true(text_list_has("one-each", "one-each"));
    assert_false(text_list_has("D4,D5,D6", "D"));
    assert_false(text_list_has("D4,D5,D6", "D45"));
    assert_false(text_list_has("D4,D5,D6", "D4,D5"));
    assert_false(text_list_has("D4,D5,D6", ""));
    assert_false(text_list_has(NULL, "D4"));
    assert_true(text_list_has("A,,B", ""));
}

static void test_text_escape(void **state)
{
    (void)state;
    char out[64];
    static const char msg[] = "M\x1b[2J\xc3\xa9\\\x00z";
    assert_int_equal(text_escape(msg, sizeof msg - 1, out, sizeof out), sizeof msg - 1);
    assert_string_equal(out, "M\\x1B[2J\\xC3\\xA9\\\\\\x00z");
    /* 10 bytes of room, 10 needed: "ab" and "\x01" fit with "..." after them */
    assert_int_equal(text_escape("ab\001cdef", 7, out, 10), 3);
    assert_string_equal(out, "ab\\x01...");
    assert_int_equal(text_escape("abc", 3, out, 4), 3);
    assert_string_equal(out, "abc");
    assert_int_equal(text_escape("", 0, out, sizeof out), 0);
    assert_string_equal(out, "");
}

/* A table's column counts characters, never cuts one: "é" is 2 bytes, 1 character. */
static void test_text_column(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(text_chars(""), 0);
    assert_int_equal(text_chars("ab"), 2);
    assert_int_equal(text_chars("\xc3\xa9t\xc3\xa9"), 3);       /* été */
    assert_int_equal(text_chars("\xe2\x82\xac\xf0\x9f\x98\x80"), 2); /* a 3- and a 4-byte character */
    assert_string_equal(text_column("ab", 4, out, sizeof out), "ab  ");
    assert_string_equal(text_column("\xc3\xa9t\xc3\xa9", 5, out, sizeof out), "\xc3\xa9t\xc3\xa9  "); /* 3 + 2 */
    assert_string_equal(text_column("\xc3\xa9t\xc3\xa9", 2, out, sizeof out), "\xc3\xa9t");          /* cut after 2 */
    assert_string_equal(text_column("abc", 0, out, sizeof out), "");
    /* too small a buffer: whole characters only, padded as far as it holds, always terminated */
    assert_string_equal(text_column("\xc3\xa9\xc3\xa9", 2, out, 4), "\xc3\xa9 ");
    assert_string_equal(text_column("\xc3\xa9\xc3\xa9", 2, out, 2), " ");
}

static void test_atomic_replace_rules(void **state)
{
    (void)state;
    char db[300], other[300], link_to_db[300], newfile[300], text[64], err[ATOMIC_ERR_MAX];
    snprintf(db, sizeof db, "%s/d.sqlite", dir);
    snprintf(other, sizeof other, "%s/w.cfg", dir);
    snprintf(link_to_db, sizeof link_to_db, "%s/hard.cfg", dir);
    snprintf(newfile, sizeof newfile, "%s/new.cfg", dir);
    write_text(db, "database");
    write_text(other, "old");
    assert_int_equal(link(db, link_to_db), 0); /* another name, same inode */
    char db_dots[300];
    snprintf(db_dots, sizeof db_dots, "%s/./d.sqlite", dir);
    static const struct {
        int target; /* 0 new, 1 existing, 2 db itself, 3 db by a hard link, 4 db via ./ */
        bool replace;
        int rc;
        const char *msg;
    } cases[] = {
        {0, false, 0, NULL},
        {1, false, -1, "exists"},
        {1, true, 0, NULL},
        {2, true, -1, "is the database"},
        {3, true, -1, "is the database"},
        {4, true, -1, "is the database"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *paths[] = {newfile, other, db, link_to_db, db_dots};
        const char *path = paths[cases[i].target];
        AtomicOptions o = {.replace = cases[i].replace, .protect_db = db};
        AtomicFile af;
        int rc = atomic_file_open(&af, path, &o, err);
        if (rc != cases[i].rc) fail_msg("case %zu: rc %d (%s)", i, rc, err);
        if (rc != 0) {
            if (!strstr(err, cases[i].msg)) fail_msg("case %zu: message '%s'", i, err);
            continue;
        }
        fprintf(af.f, "new %zu", i);
        assert_int_equal(atomic_file_commit(&af, err), 0);
        read_text(path, text, sizeof text);
        char want[16];
        snprintf(want, sizeof want, "new %zu", i);
        assert_string_equal(text, want);
        unlink(newfile);
    }
    read_text(db, text, sizeof text);
    assert_string_equal(text, "database");
    /* an aborted write leaves the old file and no temporary file */
    AtomicOptions o = {.replace = true};
    AtomicFile af;
    int before = count_files();
    assert_int_equal(atomic_file_open(&af, other, &o, err), 0);
    assert_int_equal(count_files(), before + 1);
    fprintf(af.f, "half");
    atomic_file_abort(&af);
    read_text(other, text, sizeof text);
    assert_string_equal(text, "new 2");
    assert_int_equal(count_files(), before);
    /* a directory is never replaced */
    assert_int_equal(atomic_file_check(dir, &o, err), -1);
    assert_non_null(strstr(err, "not a regular file"));
}

/* A temporary file that cannot be created: the message names the failing
 * step and its errno (a missing folder; /proc, where creating a file fails
 * with ENOENT although the folder exists). */
static void test_atomic_open_error(void **state)
{
    (void)state;
    char path[300], err[ATOMIC_ERR_MAX];
    snprintf(path, sizeof path, "%s/none/x.cfg", dir);
    static const struct {
        const char *path;
        const char *msg;
    } cases[] = {
        {NULL, "/none': No such file or directory"},
        {"/proc/version", "failed: No such file or directory (the folder takes no new files)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        AtomicOptions o = {.replace = true};
        AtomicFile af;
        const char *p = cases[i].path ? cases[i].path : path;
        struct stat st;
        if (cases[i].path && stat(p, &st) != 0) continue; /* no /proc here */
        assert_int_equal(atomic_file_open(&af, p, &o, err), -1);
        if (!strstr(err, cases[i].msg) || !strstr(err, p)) fail_msg("case %zu: message '%s'", i, err);
        if (cases[i].path && !strstr(err, "creating the temporary file '/proc/version.tmp."))
            fail_msg("case %zu: the failing step not named: '%s'", i, err);
    }
}

/* A full disk: the stream is pointed at /dev/full, which fails every write
 * with ENOSPC; the commit reports it and the target stays as it was. */
static void test_atomic_write_error(void **state)
{
    (void)state;
    char path[300], text[64], err[ATOMIC_ERR_MAX];
    snprintf(path, sizeof path, "%s/keep.cfg", dir);
    write_text(path, "keep");
    AtomicOptions o = {.replace = true};
    AtomicFile af;
    assert_int_equal(atomic_file_open(&af, path, &o, err), 0);
    /* make every later write fail, as a full disk does */
    FILE *full = freopen("/dev/full", "w", af.f);
    assert_non_null(full);
    af.f = full;
    fprintf(af.f, "%*s", 100000, "x");
    assert_int_equal(atomic_file_commit(&af, err), -1);
    assert_non_null(strstr(err, "failed"));
    read_text(path, text, sizeof text);
    assert_string_equal(text, "keep");
}

/* A process killed while it writes: the handler of main.c removes every
 * temporary file the atomic writer knows (here: three open ones, one
 * committed before them stays whole, one aborted is gone already); a
 * committed file is never removed, and a slot is free again after its
 * commit. The child ends by the signal, as dama does. */
static void on_term(int sig)
{
    atomic_file_remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void test_atomic_killed(void **state)
{
    (void)state;
    int before = count_files();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char path[300], err[ATOMIC_ERR_MAX];
        AtomicOptions o = {.replace = true};
        /* more commits than slots: each frees its slot */
        for (int i = 0; i < 2 * ATOMIC_TEMPS_MAX; i++) {
            AtomicFile done;
            snprintf(path, sizeof path, "%s/done.cfg", dir);
            if (atomic_file_open(&done, path, &o, err) != 0) _exit(10);
            fprintf(done.f, "whole %d", i);
            if (atomic_file_commit(&done, err) != 0) _exit(11);
        }
        AtomicFile open_files[3], aborted;
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/open%d.cfg", dir, i);
            if (atomic_file_open(&open_files[i], path, &o, err) != 0) _exit(12);
            fprintf(open_files[i].f, "half");
            fflush(open_files[i].f);
        }
        snprintf(path, sizeof path, "%s/aborted.cfg", dir);
        if (atomic_file_open(&aborted, path, &o, err) != 0) _exit(13);
        atomic_file_abort(&aborted);
        signal(SIGTERM, on_term);
        raise(SIGTERM);
        _exit(14); /* not reached */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM) fail_msg("child status %d", status);
    /* only done.cfg is new: no temporary file, no target of the killed writes */
    assert_int_equal(count_files(), before + 1);
    char path[300], text[64];
    snprintf(path, sizeof path, "%s/done.cfg", dir);
    read_text(path, text, sizeof text);
    char want[32];
    snprintf(want, sizeof want, "whole %d", 2 * ATOMIC_TEMPS_MAX - 1);
    assert_string_equal(text, want);
}

/* ---- time used per move ---------------------------------------------------- */

static void test_time_use_means(void **state)
{
    (void)state;
    TimeUse t = {0};
    assert_true(isnan(time_use_wall_ms(&t)) && isnan(time_use_cpu_ms(&t)));
    char text[96];
    time_use_format(&t, text, sizeof text);
    assert_string_equal(text, "no timed moves");
    TimeUse g1 = {.moves = 40, .wall_s = 2.0, .cpu_s = 1.0}, g2 = {.moves = 10, .wall_s = 0.5, .cpu_s = 1.5};
    time_use_add(&t, &g1);
    time_use_add(&t, &g2);
    assert_int_equal(t.moves, 50);
    assert_true(fabs(time_use_wall_ms(&t) - 50.0) < 1e-9); /* 2.5 s over 50 moves */
    assert_true(fabs(time_use_cpu_ms(&t) - 50.0) < 1e-9);
    time_use_format(&g1, text, sizeof text);
    assert_string_equal(text, "wall 50.00 ms, CPU 25.00 ms per move (40 moves)");
}

typedef struct CompareCase {
    TimeUse a, b;
    bool known, equal;
    const char *verdict;
} CompareCase;

static void test_time_use_compare(void **state)
{
    (void)state;
    static const CompareCase cases[] = {
        /* equal means, and 5% exactly on either side: equal */
        {{10, 1.0, 1.0}, {20, 2.0, 2.0}, true, true, "equal time used (within 5%)"},
        {{10, 1.05, 1.0}, {10, 1.0, 1.0}, true, true, "equal time used (within 5%)"},
        {{10, 1.0, 1.0}, {10, 1.05, 1.05}, true, true, "equal time used (within 5%)"},
        {{10, 1.0, 1.05}, {10, 1.0, 1.0}, true, true, "equal time used (within 5%)"},
        {{100, 10.5, 1.0}, {100, 10.0, 1.0}, true, true, "equal time used (within 5%)"},
        /* 5.04% prints as 5.0%: equal; 5.06% prints as 5.1%: unequal, said so */
        {{10, 1.0504, 1.0}, {10, 1.0, 1.0}, true, true, "equal time used (within 5%)"},
        {{10, 1.0, 1.0}, {10, 1.0, 1.0506}, true, false, "unequal time: B used 5.1% more CPU time than A"},
        /* B used 25% more wall time; its CPU 10% more: wall is named */
        {{10, 0.8, 1.0}, {10, 1.0, 1.1}, true, false, "unequal time: B used 25.0% more wall time than A"},
        /* A's CPU differs most */
        {{10, 1.0, 1.5}, {10, 1.0, 1.0}, true, false, "unequal time: A used 50.0% more CPU time than B"},
        /* a side without timed moves, or one whose means are 0: not measured */
        {{0, 0, 0}, {10, 1.0, 1.0}, false, false, "time used: not measured"},
        {{10, 1.0, 1.0}, {10, 0.0, 0.0}, false, false, "time used: not measured"},
        {{10, 0.0, 0.0}, {10, 1.0, 1.0}, false, false, "time used: not measured"},
        /* a CPU mean of 0 (a DXP program's, not measured) is no "infinitely
         * less": the wall means alone are compared, and the CPU named unmeasured */
        {{10, 1.0, 0.0}, {10, 1.0, 1.0}, true, true, "equal wall time used (within 5%); CPU time not measured (a mean of 0: none taken, or less than the clock's tick)"},
        {{10, 1.2, 0.0}, {10, 1.0, 1.0}, true, false,
         "unequal time: A used 20.0% more wall time than B; CPU time not measured (a mean of 0: none taken, or less than the clock's tick)"},
        {{10, 1.0, 1.0}, {10, 1.5, 0.0}, true, false,
         "unequal time: B used 50.0% more wall time than A; CPU time not measured (a mean of 0: none taken, or less than the clock's tick)"},
        {{10, 1.0, 0.0}, {10, 1.0, 0.0}, true, true, "equal wall time used (within 5%); CPU time not measured (a mean of 0: none taken, or less than the clock's tick)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const CompareCase *c = &cases[i];
        TimeCompare tc;
        time_use_compare(&c->a, &c->b, TIME_USE_EQUAL, &tc);
        char verdict[256];
        time_use_verdict(&tc, TIME_USE_EQUAL, "A", "B", verdict, sizeof verdict);
        if (tc.known != c->known || tc.equal != c->equal || strcmp(verdict, c->verdict) != 0)
            fail_msg("case %zu: known %d equal %d '%s'", i, tc.known, tc.equal, verdict);
        if (tc.known) /* the ratios are a's means over b's */
            assert_true(fabs(tc.wall_ratio - time_use_wall_ms(&c->a) / time_use_wall_ms(&c->b)) < 1e-12);
        /* the CPU ratio only where both CPU means were measured */
        assert_int_equal(tc.cpu_known, tc.known && c->a.cpu_s > 0 && c->b.cpu_s > 0);
        assert_int_equal(isnan(tc.cpu_ratio), !tc.cpu_known);
    }
    /* the verdict is cut to the buffer, never overrun */
    TimeCompare tc;
    time_use_compare(&cases[7].a, &cases[7].b, TIME_USE_EQUAL, &tc);
    char small[12];
    time_use_verdict(&tc, TIME_USE_EQUAL, "A", "B", small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_int),
        cmocka_unit_test(test_parse_real),
        cmocka_unit_test(test_scan_digits),
        cmocka_unit_test(test_num_shown),
        cmocka_unit_test(test_error_text),
        cmocka_unit_test(test_config_literals),
        cmocka_unit_test(test_text_line_check),
        cmocka_unit_test(test_text_escape),
        cmocka_unit_test(test_text_column),
        cmocka_unit_test(test_text_list_has_empty),
        cmocka_unit_test(test_text_list_has),
        cmocka_unit_test(test_text_read_line),
        cmocka_unit_test(test_text_cut_line),
        cmocka_unit_test(test_time_use_means),
        cmocka_unit_test(test_time_use_compare),
        cmocka_unit_test_setup_teardown(test_atomic_replace_rules, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_atomic_write_error, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_atomic_open_error, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_atomic_killed, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
