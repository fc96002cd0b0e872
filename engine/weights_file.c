/* weights_file.c — weight files (libconfig) and the generated header. */
#include "engine/weights_file.h"

#include "engine/weights_id.h"

#include <fcntl.h>

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/weights_json.h"
#include "engine/eval.h"
#include "util/atomic_file.h"
#include "util/file_read.h"
#include "util/num.h"

static const EvalTerm *find_term(const Game *g, const char *name)
{
    for (int i = 0; i < g->terms_len; i++)
        if (strcmp(g->terms[i].name, name) == 0) return &g->terms[i];
    return NULL;
}

static int read_int(config_setting_t *s, int32_t *out)
{
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) return -1;
    long long v = config_setting_get_int64(s);
    if (v < -WEIGHTS_FILE_ABS_MAX || v > WEIGHTS_FILE_ABS_MAX) return -1;
    *out = (int32_t)v;
    return 0;
}

/* Largest weight file read (a JSON export of a pattern model is a few MiB). */
enum { WEIGHT_FILE_MAX = 256 << 20 };

/* The whole file, NUL-terminated, in *out (to free()) with its length.
 * Returns 0, or -1 with err naming the path and the system's reason. */
static int read_whole(const char *path, char **out, size_t *len, char err[ERR_MAX])
{
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int e = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (e) {
        if (fd >= 0) close(fd);
        return file_read_error(err, path, "weight file", e);
    }
    /* its size, its NUL and one byte more: the read that finds the end */
    size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 2 : 4096, n = 0;
    char *buf = NULL;
    for (;;) {
        if (n + 1 >= cap || !buf) {
            size_t want = buf ? cap * 2 : cap;
            if (want > (size_t)WEIGHT_FILE_MAX + 2) {
                snprintf(err, ERR_MAX, "weight file '%.200s': over %d MiB", path, WEIGHT_FILE_MAX >> 20);
                break;
            }
            char *b = realloc(buf, want);
            if (!b) {
                snprintf(err, ERR_MAX, "weight file '%.200s': out of memory", path);
                break;
            }
            buf = b;
            cap = want;
        }
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            snprintf(err, ERR_MAX, "cannot read weight file '%.200s': %s", path, strerror(errno));
            break;
        }
        if (got == 0) {
            buf[n] = '\0';
            close(fd);
            *out = buf;
            *len = n;
            return 0;
        }
        n += (size_t)got;
    }
    close(fd);
    free(buf);
    return -1;
}

/* A weight file in the JSON of `dama export --format json`
 * (api/weights_json.h): every term, strictly checked. */
static int parse_json(const Game *g, const char *path, const char *text, size_t len, int32_t *w, uint8_t *given,
                      char err[ERR_MAX])
{
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        snprintf(err, ERR_MAX, "weight file %.180s: a NUL byte at byte %zu (JSON text has none)", path,
                 (size_t)(nul - text) + 1);
        return -1;
    }
    char jerr[ERR_MAX];
    if (weights_json_parse(g, text, w, jerr) != 0) {
        snprintf(err, ERR_MAX, "weight file %.90s: %.150s", path, jerr);
        return -1;
    }
    memset(given, 1, (size_t)g->weights_len);
    return 0;
}

int weights_file_parse(const Game *g, const char *path, int32_t *w, uint8_t *given, char base[WEIGHTS_BASE_MAX],
                       char err[ERR_MAX])
{
    memset(given, 0, (size_t)g->weights_len);
    base[0] = '\0';
    char *text;
    size_t text_len;
    if (read_whole(path, &text, &text_len, err) != 0) return -1;
    /* a UTF-8 byte-order mark before JSON is ignored, as the library's JSON parser
     * does (RFC 8259 lets a parser ignore it); libconfig text keeps refusing one */
    size_t bom = text_len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    size_t lead = bom + strspn(text + bom, " \t\r\n");
    if (text[lead] == '{' || text[lead] == '[') { /* libconfig text never starts with a brace or a bracket */
        int jrc = parse_json(g, path, text, text_len, w, given, err);
        free(text);
        return jrc;
    }
    char nerr[ERR_MAX];
    if (num_check_config_file(path, nerr, sizeof nerr) < 0) { /* libconfig would misread these numbers */
        snprintf(err, ERR_MAX, "weight file %.240s", nerr);
        free(text);
        return -1;
    }
    config_t cfg;
    config_init(&cfg);
    int rc = -1;
    if (config_read_file(&cfg, path) != CONFIG_TRUE) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO) {
            snprintf(err, ERR_MAX, "cannot read weight file '%s'", path);
        } else { /* name the line too: "syntax error" alone does not say what is wrong (the line is text:
                  * num_check_config_file refused any byte that is not) */
            int line = config_error_line(&cfg);
            const char *at = text;
            for (int l = 1; l < line && at; l++)
                if ((at = strchr(at, '\n'))) at++;
            if (at) at += strspn(at, " \t");
            int len = at ? (int)strcspn(at, "\r\n") : 0;
            if (len > 60) len = 60;
            snprintf(err, ERR_MAX, "weight file %.100s:%d: %s in '%.*s' (in weights = { }, a term is NAME = integer; or NAME = [integers]; game and base are quoted strings)",
                     path, line, config_error_text(&cfg), len, at ? at : "");
        }
        free(text);
        goto out;
    }
    free(text);
    const char *game = NULL;
    if (!config_lookup_string(&cfg, "game", &game)) {
        config_setting_t *gs = config_lookup(&cfg, "game");
        if (gs) snprintf(err, ERR_MAX, "weight file %.150s:%d: game must be a quoted name, e.g. game = \"%s\";", path,
                         config_setting_source_line(gs), g->name);
        else snprintf(err, ERR_MAX, "weight file %s: missing 'game = \"...\";'", path);
        goto out;
    }
    if (strcmp(game, g->name) != 0) {
        snprintf(err, ERR_MAX, "weight file %s is for game '%s', not '%s'", path, game, g->name);
        goto out;
    }
    config_setting_t *bs = config_lookup(&cfg, "base");
    if (bs) {
        const char *b = config_setting_get_string(bs);
        bool db_ref = b && strncmp(b, "db:", 3) == 0 && b[3] && strspn(b + 3, "0123456789") == strlen(b + 3) &&
                      strlen(b) < WEIGHTS_BASE_MAX;
        if (!b || (strcmp(b, "default") != 0 && !db_ref)) {
            snprintf(err, ERR_MAX, "weight file %s:%d: base must be \"default\" or \"db:ID\"", path,
                     config_setting_source_line(bs));
            goto out;
        }
        snprintf(base, WEIGHTS_BASE_MAX, "%s", b);
    }
    for (int i = 0; i < config_setting_length(config_root_setting(&cfg)); i++) {
        const char *key = config_setting_name(config_setting_get_elem(config_root_setting(&cfg), (unsigned)i));
        if (strcmp(key, "game") != 0 && strcmp(key, "base") != 0 && strcmp(key, "weights") != 0) {
            snprintf(err, ERR_MAX, "weight file %s:%d: unknown setting '%s' (game, base, weights)", path,
                     config_setting_source_line(config_setting_get_elem(config_root_setting(&cfg), (unsigned)i)),
                     key);
            goto out;
        }
    }
    config_setting_t *ws = config_lookup(&cfg, "weights");
    if (!ws || !config_setting_is_group(ws)) {
        snprintf(err, ERR_MAX, "weight file %s: missing group 'weights = { ... };'", path);
        goto out;
    }
    for (int i = 0; i < config_setting_length(ws); i++) {
        config_setting_t *s = config_setting_get_elem(ws, (unsigned)i);
        const char *name = config_setting_name(s);
        int line = config_setting_source_line(s);
        const EvalTerm *t = find_term(g, name);
        if (!t) {
            snprintf(err, ERR_MAX, "weight file %s:%d: unknown term '%s' for %s", path, line, name, g->name);
            goto out;
        }
        if (t->count == 1) {
            if (read_int(s, &w[t->offset]) != 0) {
                snprintf(err, ERR_MAX, "weight file %s:%d: term %s needs one integer in -5000..5000", path, line, name);
                goto out;
            }
            given[t->offset] = 1;
            continue;
        }
        int type = config_setting_type(s);
        if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64) { /* one integer: every weight of the table */
            int32_t v;
            if (read_int(s, &v) != 0) {
                snprintf(err, ERR_MAX, "weight file %s:%d: term %s needs %d integers in -5000..5000 (or one for all)", path,
                         line, name, t->count);
                goto out;
            }
            for (int j = 0; j < t->count; j++) w[t->offset + j] = v, given[t->offset + j] = 1;
            continue;
        }
        if (!config_setting_is_array(s) && !config_setting_is_list(s)) {
            snprintf(err, ERR_MAX, "weight file %s:%d: term %s needs a list of %d integers (or one integer for all)", path,
                     line, name, t->count);
            goto out;
        }
        if (config_setting_length(s) != t->count) {
            snprintf(err, ERR_MAX, "weight file %s:%d: term %s has %d values, needs %d", path, line, name,
                     config_setting_length(s), t->count);
            goto out;
        }
        for (int j = 0; j < t->count; j++) {
            if (read_int(config_setting_get_elem(s, (unsigned)j), &w[t->offset + j]) != 0) {
                snprintf(err, ERR_MAX, "weight file %s:%d: term %s[%d] (element %d of %d) is not an integer in -5000..5000",
                         path, line, name, j, j + 1, t->count);
                goto out;
            }
            given[t->offset + j] = 1;
        }
    }
    if (!base[0]) { /* no base: every term must be there */
        /* the whole file name (its last 120 bytes if longer), the count, then
         * the first missing names, whole, as many as the message holds */
        static const char HINT[] = "; name every term or add base = \"default\";";
        size_t plen = strlen(path);
        char head[220];
        int hl = snprintf(head, sizeof head, "weight file %s%s: ", plen > 120 ? "..." : "", path + (plen > 120 ? plen - 120 : 0));
        int n = 0;
        for (int i = 0; i < g->terms_len; i++) n += !given[g->terms[i].offset];
        if (n) {
            char names[ERR_MAX] = "";
            size_t budget = ERR_MAX - 1 - (size_t)hl - (sizeof HINT - 1) - 48, len = 0; /* 48: the counts */
            int shown = 0;
            for (int i = 0; i < g->terms_len; i++) {
                if (given[g->terms[i].offset]) continue;
                size_t need = strlen(g->terms[i].name) + (shown ? 2 : 0);
                if (len + need > budget) break;
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", shown ? ", " : "", g->terms[i].name);
                shown++;
            }
            char more[32] = "";
            if (shown < n) snprintf(more, sizeof more, "%s%d more", shown ? " and " : "", n - shown);
            char msg[sizeof head + sizeof names + sizeof more + sizeof HINT + 48];
            snprintf(msg, sizeof msg, "%s%d of %d terms missing: %s%s%s", head, n, g->terms_len, names, more, HINT);
            size_t ml = strlen(msg) < ERR_MAX ? strlen(msg) : ERR_MAX - 1; /* it fits: the budget above */
            memcpy(err, msg, ml);
            err[ml] = '\0';
            goto out;
        }
    }
    rc = 0;
out:
    config_destroy(&cfg);
    return rc;
}

int weights_file_read(const Game *g, const char *path, int32_t *w, char err[ERR_MAX])
{
    EVAL_AUTO_FREE uint8_t *given = calloc((size_t)g->weights_len, 1);
    char base[WEIGHTS_BASE_MAX];
    EVAL_AUTO_FREE int32_t *v = eval_weights_new(g);
    if (!given || !v) {
        snprintf(err, ERR_MAX, "weight file %.100s: out of memory for %d weights", path, g->weights_len);
        return -1;
    }
    if (weights_file_parse(g, path, v, given, base, err) != 0) return -1;
    if (base[0] && strcmp(base, "default") != 0) {
        snprintf(err, ERR_MAX, "weight file %.100s: base = \"%s\" needs a database (--db)", path, base);
        return -1;
    }
    for (int i = 0; i < g->weights_len; i++) w[i] = given[i] ? v[i] : g->weights_default()[i];
    return 0;
}

/* Board-shaped tables. A table of as many weights as the game's board has
 * squares runs in the game's rows (Game.board_rows: an 8x8 draughts table
 * starts on the owner's first rank, so its far rank is its last row; the
 * 62-square board of docs/rules/shatra.md section 1 starts at square 1 on
 * the far side). Other tables of 32 or 64 weights run in 8 rows. A larger
 * table (patterns) runs 27 weights a row (3^3: the states of its first
 * three digits), with a comment opening each block of 6,561 (3^8 states:
 * one pattern region) when the count is a multiple of it. Any other count
 * is one row. */
enum { TABLE_ROW_BIG = 27, TABLE_REGION = 6561 };

/* Does a table of count weights run in the game's board rows? */
static bool board_shaped(const Game *g, int count)
{
    int squares = 0;
    for (int r = 0; g->board_rows && g->board_rows[r]; r++) squares += g->board_rows[r];
    return squares > 0 && count == squares;
}

static int table_rows(const Game *g, int count)
{
    if (board_shaped(g, count)) {
        int rows = 0;
        while (g->board_rows[rows]) rows++;
        return rows;
    }
    if (count > 64) return (count + TABLE_ROW_BIG - 1) / TABLE_ROW_BIG;
    return count == 32 || count == 64 ? 8 : 1;
}

/* The region a row opens (its index), or -1 when it opens none. */
static int table_region_at(int count, int row)
{
    if (count <= 64 || count % TABLE_REGION != 0 || (row * TABLE_ROW_BIG) % TABLE_REGION != 0) return -1;
    return row * TABLE_ROW_BIG / TABLE_REGION;
}

/* Row i of a table, in weight order: its first weight and its length. */
static void table_row(const Game *g, int count, int i, int *first, int *len)
{
    if (board_shaped(g, count)) {
        *first = 0;
        for (int k = 0; k < i; k++) *first += g->board_rows[k];
        *len = g->board_rows[i];
        return;
    }
    if (count > 64) {
        *first = i * TABLE_ROW_BIG;
        *len = count - *first < TABLE_ROW_BIG ? count - *first : TABLE_ROW_BIG;
        return;
    }
    *len = count == 32 ? 4 : count == 64 ? 8 : count;
    *first = i * *len;
}

static int commit(AtomicFile *af, char err[ERR_MAX])
{
    char aerr[ATOMIC_ERR_MAX];
    if (atomic_file_commit(af, aerr) == 0) return 0;
    snprintf(err, ERR_MAX, "%s", aerr);
    return -1;
}

static FILE *open_atomic(AtomicFile *af, const char *path, const AtomicOptions *opts, char err[ERR_MAX])
{
    char aerr[ATOMIC_ERR_MAX];
    if (atomic_file_open(af, path, opts, aerr) == 0) return af->f;
    snprintf(err, ERR_MAX, "%s", aerr);
    return NULL;
}

int weights_file_write(const Game *g, const int32_t *w, const char *comment, const char *path,
                       const AtomicOptions *opts, char err[ERR_MAX])
{
    AtomicFile af;
    FILE *f = open_atomic(&af, path, opts, err);
    if (!f) return -1;
    if (comment) {
        const char *c = comment;
        while (*c) {
            size_t n = strcspn(c, "\n");
            fprintf(f, "# %.*s\n", (int)n, c);
            c += n;
            if (*c) c++;
        }
    }
    fprintf(f, "game = \"%s\";\nweights = {\n", g->name);
    for (int i = 0; i < g->terms_len; i++) {
        const EvalTerm *t = &g->terms[i];
        if (t->count == 1) {
            fprintf(f, "  %s = %d;\n", t->name, w[t->offset]);
            continue;
        }
        bool same = t->count > 64;
        for (int j = 1; same && j < t->count; j++) same = w[t->offset + j] == w[t->offset];
        if (same) { /* a big table of one value (patterns not yet learned): one integer */
            fprintf(f, "  %s = %d; # all %d weights; %s\n", t->name, w[t->offset], t->count, t->doc);
            continue;
        }
        fprintf(f, "  %s = [ # %s\n", t->name, t->doc);
        for (int r = 0; r < table_rows(g, t->count); r++) {
            int first, len, region = table_region_at(t->count, r);
            table_row(g, t->count, r, &first, &len);
            if (region >= 0) fprintf(f, "    # region %d: %s[%d..%d]\n", region, t->name, first, first + TABLE_REGION - 1);
            for (int j = first; j < first + len; j++)
                fprintf(f, "%s%d%s", j == first ? "    " : " ", w[t->offset + j],
                        j + 1 == t->count ? "\n" : j + 1 == first + len ? ",\n" : ",");
        }
        fprintf(f, "  ];\n");
    }
    fprintf(f, "};\n");
    return commit(&af, err);
}

/* Text as the body of a C string literal (quotes, backslashes and
 * control characters escaped); at most size-1 bytes. */
static void c_string(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && n + 5 < size; c++) {
        if (*c == '"' || *c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)*c;
        } else if (*c < 0x20 || *c == 0x7f) n += (size_t)snprintf(out + n, size - n, "\\%03o", *c);
        else out[n++] = (char)*c;
    }
    out[n] = '\0';
}

/* Text inside a C comment: no comment end, no newline. */
static void c_comment(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = text; *c && n + 2 < size; c++) {
        if (*c == '*' && c[1] == '/') {
            out[n++] = '*';
            out[n++] = ' ';
        } else out[n++] = *c == '\n' || *c == '\r' ? ' ' : *c;
    }
    out[n] = '\0';
}

static void header_print(FILE *f, const Game *g, const int32_t *w, const ExportInfo *info)
{
    char upper[64];
    size_t n = 0;
    for (; g->name[n] && n < sizeof upper - 1; n++) upper[n] = (char)toupper((unsigned char)g->name[n]);
    upper[n] = '\0';
    const char *lineage = info && info->lineage ? info->lineage : "-";
    char layout[WEIGHTS_ID_MAX], hash[WEIGHTS_ID_MAX], lit[2048], com[1024];
    weights_layout_text(g, layout);
    weights_hash_text(g, w, hash);
    /* Banner "weight set: ID "name" (how); ..." (dama --version shows it). */
    c_comment(strncmp(lineage, "weight set ", 11) == 0 ? lineage + 11 : lineage, com, sizeof com);
    c_string(lineage, lit, sizeof lit);
    fprintf(f, "/* generated by dama export — do not edit\n");
    fprintf(f, " * game: %s (%s)\n", g->name, g->title);
    fprintf(f, " * weight set: %s\n", com);
    fprintf(f, " * hash: %s; evaluation layout: %s (%d terms, %d weights)\n", hash, layout, g->terms_len, g->weights_len);
    fprintf(f, " * Self-contained: includes only <stdint.h>, compiles as C and as C++.\n */\n");
    fprintf(f, "#ifndef DAMA_%s_WEIGHTS_H\n#define DAMA_%s_WEIGHTS_H\n\n#include <stdint.h>\n\n", upper, upper);
    fprintf(f, "#define %s_WEIGHTS_GAME \"%s\"\n", upper, g->name);
    fprintf(f, "#define %s_WEIGHTS_LEN %d\n", upper, g->weights_len);
    fprintf(f, "#define %s_WEIGHTS_TERMS_LEN %d\n", upper, g->terms_len);
    fprintf(f, "#define %s_WEIGHTS_LAYOUT \"%s\" /* evaluation layout version (JSON \"layout_version\") */\n", upper, layout);
    fprintf(f, "#define %s_WEIGHTS_HASH \"%s\"\n", upper, hash);
    fprintf(f, "#define %s_WEIGHTS_LINEAGE \"%s\"\n\n", upper, lit);
    fprintf(f, "#if defined(__GNUC__) || defined(__clang__)\n#define %s_WEIGHTS_UNUSED __attribute__((unused))\n#else\n#define %s_WEIGHTS_UNUSED\n#endif\n\n",
            upper, upper);
    fprintf(f, "/* The weights in term order (see %s_weights_term_names); centi-men. */\n", g->name);
    fprintf(f, "static const int32_t %s_weights[] %s_WEIGHTS_UNUSED = {\n", g->name, upper);
    for (int i = 0; i < g->terms_len; i++) {
        const EvalTerm *t = &g->terms[i];
        if (t->count == 1) {
            fprintf(f, "    %d, /* %s [%d] */\n", w[t->offset], t->name, t->offset);
            continue;
        }
        if (t->count > 64)
            fprintf(f, "    /* %s [%d..%d], %d a line in weight order */\n", t->name, t->offset, t->offset + t->count - 1,
                    TABLE_ROW_BIG);
        else
            fprintf(f, "    /* %s [%d..%d], one board row per line in weight order */\n", t->name, t->offset,
                    t->offset + t->count - 1);
        for (int r = 0; r < table_rows(g, t->count); r++) {
            int first, len, region = table_region_at(t->count, r);
            table_row(g, t->count, r, &first, &len);
            if (region >= 0) fprintf(f, "    /* region %d [%d..] */\n", region, t->offset + first);
            fprintf(f, "   ");
            for (int j = first; j < first + len; j++) fprintf(f, " %d,", w[t->offset + j]);
            fputc('\n', f);
        }
    }
    fprintf(f, "};\n\n");
    fprintf(f, "/* The term layout: name, first weight, number of weights. */\n");
    fprintf(f, "static const char *const %s_weights_term_names[%s_WEIGHTS_TERMS_LEN] %s_WEIGHTS_UNUSED = {\n", g->name, upper, upper);
    for (int i = 0; i < g->terms_len; i++) fprintf(f, "    \"%s\",\n", g->terms[i].name);
    fprintf(f, "};\nstatic const int %s_weights_term_offsets[%s_WEIGHTS_TERMS_LEN] %s_WEIGHTS_UNUSED = {", g->name, upper, upper);
    for (int i = 0; i < g->terms_len; i++) fprintf(f, "%s%d", i ? ", " : "", g->terms[i].offset);
    fprintf(f, "};\nstatic const int %s_weights_term_counts[%s_WEIGHTS_TERMS_LEN] %s_WEIGHTS_UNUSED = {", g->name, upper, upper);
    for (int i = 0; i < g->terms_len; i++) fprintf(f, "%s%d", i ? ", " : "", g->terms[i].count);
    fprintf(f, "};\n\n");
    fprintf(f, "#if defined(__cplusplus) && __cplusplus >= 201103L\n");
    fprintf(f, "static_assert(sizeof(%s_weights) / sizeof(%s_weights[0]) == %s_WEIGHTS_LEN, \"%s weights: wrong count\");\n",
            g->name, g->name, upper, g->name);
    fprintf(f, "#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n");
    fprintf(f, "_Static_assert(sizeof(%s_weights) / sizeof(%s_weights[0]) == %s_WEIGHTS_LEN, \"%s weights: wrong count\");\n",
            g->name, g->name, upper, g->name);
    fprintf(f, "#endif\n\n#endif\n");
}

/* Does the regular file at path hold exactly len bytes equal to text? */
static bool file_holds(const char *path, const char *text, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != (uint64_t)len) return false;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char buf[1 << 14];
    size_t off = 0, got;
    bool same = true;
    while (same && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        same = off + got <= len && memcmp(buf, text + off, got) == 0;
        off += got;
    }
    same = same && !ferror(f) && off == len;
    fclose(f);
    return same;
}

int weights_export_header(const Game *g, const int32_t *w, const ExportInfo *info, const char *path,
                          const AtomicOptions *opts, char err[ERR_MAX])
{
    /* a header that already holds these bytes is left alone: rewritten, its
     * new time would rebuild the engine, the library and the web page */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        header_print(m, g, w, info);
        bool same = fclose(m) == 0 && text && file_holds(path, text, len);
        free(text);
        if (same) return 0;
    }
    AtomicFile af;
    FILE *f = open_atomic(&af, path, opts, err);
    if (!f) return -1;
    header_print(f, g, w, info);
    return commit(&af, err);
}

int weights_export_header_stream(const Game *g, const int32_t *w, const ExportInfo *info, FILE *f, const char *name,
                                 char err[ERR_MAX])
{
    header_print(f, g, w, info);
    if (fflush(f) != 0 || ferror(f)) return err_set(err, "writing the header to %s failed", name);
    return 0;
}

int weights_write_text(const char *text, const char *path, const AtomicOptions *opts, char err[ERR_MAX])
{
    AtomicFile af;
    FILE *f = open_atomic(&af, path, opts, err);
    if (!f) return -1;
    fputs(text, f);
    return commit(&af, err);
}
