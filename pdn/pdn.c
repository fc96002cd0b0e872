/* pdn.c — PDN 3.0 tokenizer, game splitter, replay and writer (see pdn.h). */
#include "pdn/pdn.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/text.h"

/* ------------------------------------------------------------------ */
/* Reader: buffered bytes with lookahead and line counting             */

enum { READ_CHUNK = 1 << 16 };

/* A growable NUL-terminated byte string. */
typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

struct PdnReader {
    FILE *in;
    char *name;
    unsigned char buf[READ_CHUNK];
    size_t pos, len;  /* unread bytes are buf[pos..len) */
    bool eof;
    int read_errno;   /* errno of a failed read, 0 if none */
    long line;        /* line of the next unread byte */
    bool line_start;  /* the next unread byte starts a line */
    Text text, value;
    bool oom;
    PdnToken pushed;  /* one token put back by pdn_read_game */
    bool has_pushed;
    long games;       /* games begun so far */
    bool in_game;     /* pdn_read_game has begun game `games` */
    bool splitting;   /* pdn_read_game is running: name the game in messages */
};

PdnReader *pdn_reader_new(FILE *in, const char *name)
{
    PdnReader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->name = strdup(name ? name : "(input)");
    if (!r->name) {
        free(r);
        return NULL;
    }
    r->in = in;
    r->line = 1;
    r->line_start = true;
    return r;
}

void pdn_reader_free(PdnReader *r)
{
    if (!r) return;
    free(r->name);
    free(r->text.s);
    free(r->value.s);
    free(r);
}

/* Byte k places ahead (k < READ_CHUNK), or EOF. */
static int peek_at(PdnReader *r, size_t k)
{
    if (r->pos + k >= r->len && !r->eof) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
        while (r->len <= k && !r->eof) {
            size_t n = fread(r->buf + r->len, 1, sizeof r->buf - r->len, r->in);
            if (n == 0) {
                r->eof = true;
                if (ferror(r->in)) r->read_errno = errno ? errno : EIO;
            }
            r->len += n;
        }
    }
    return r->pos + k < r->len ? r->buf[r->pos + k] : EOF;
}

static int peek(PdnReader *r) { return peek_at(r, 0); }

/* Consume one byte, counting lines (LF, CRLF and lone CR each end one). */
static int get(PdnReader *r)
{
    int c = peek(r);
    if (c == EOF) return EOF;
    r->pos++;
    if (c == '\n' || (c == '\r' && peek(r) != '\n')) {
        r->line++;
        r->line_start = true;
    } else if (c != '\r') {
        r->line_start = false;
    }
    return c;
}

static void text_clear(Text *t)
{
    t->len = 0;
    if (t->s) t->s[0] = '\0';
}

static void text_push(PdnReader *r, Text *t, int c)
{
    if (t->len + 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        char *s = realloc(t->s, cap);
        if (!s) {
            r->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    t->s[t->len++] = (char)c;
    t->s[t->len] = '\0';
}

static const char *text_str(const Text *t) { return t->s ? t->s : ""; }

/* "NAME:LINE (game N): message". */
static int reader_error(PdnReader *r, char err[ERR_MAX], long line, const char *fmt, ...)
{
    char what[ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char where[48] = "";
    if (r->splitting) snprintf(where, sizeof where, " (game %ld)", r->in_game ? r->games : r->games + 1);
    snprintf(err, ERR_MAX, "%.64s:%ld%.40s: %.120s", r->name, line, where, what);
    game_err_printable(err); /* a quoted word of a binary file */
    return -1;
}

static bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* Characters that end a word of movetext. */
static bool is_delimiter(int c)
{
    return c == EOF || is_space(c) || (c != 0 && strchr("{}()[];$\"", c) != NULL);
}

/* A byte that cannot occur in PDN text (binary input). */
static bool is_control(int c) { return c >= 0 && c < 0x20 && !is_space(c); }

static int not_text(PdnReader *r, char err[ERR_MAX], int c)
{
    if (c == 0) /* UTF-16 text has one in every ASCII character */
        return reader_error(r, err, r->line, "byte 0x00 is not PDN text (is this a PDN file? UTF-16 text has "
                                             "them: PDN is read as UTF-8)");
    return reader_error(r, err, r->line, "byte 0x%02x is not PDN text (is this a PDN file?)", c);
}

/* A UTF-16 byte-order mark (FF FE or FE FF) at the next byte? */
static bool is_utf16_bom(PdnReader *r)
{
    int a = peek(r), b = peek_at(r, 1);
    return (a == 0xFF && b == 0xFE) || (a == 0xFE && b == 0xFF);
}

static bool is_bom(PdnReader *r) { return peek(r) == 0xEF && peek_at(r, 1) == 0xBB && peek_at(r, 2) == 0xBF; }

/* Does a tag pair `[Name "` start at the next byte? (Used to notice a
 * comment or variation that swallowed the next game's tag section.) */
static bool looks_like_tag(PdnReader *r)
{
    if (peek(r) != '[') return false;
    size_t k = 1;
    while (k < 64 && (isalnum(peek_at(r, k)) || peek_at(r, k) == '_')) k++;
    if (k == 1) return false;
    while (k < 80 && (peek_at(r, k) == ' ' || peek_at(r, k) == '\t')) k++;
    return peek_at(r, k) == '"';
}

static int read_tag(PdnReader *r, PdnToken *tok, char err[ERR_MAX])
{
    long line = r->line;
    get(r); /* '[' */
    while (peek(r) == ' ' || peek(r) == '\t') get(r);
    while (isalnum(peek(r)) || peek(r) == '_') text_push(r, &r->text, get(r));
    if (is_control(peek(r))) return not_text(r, err, peek(r));
    if (r->text.len == 0 && peek(r) == EOF) return reader_error(r, err, line, "the input ends after '['");
    if (r->text.len == 0)
        return reader_error(r, err, line, "a tag name must follow '[' (tag pairs are [Name \"value\"])");
    const char *name = text_str(&r->text);
    while (peek(r) == ' ' || peek(r) == '\t') get(r);
    if (peek(r) == EOF) return reader_error(r, err, line, "the input ends inside the tag [%.40s", name);
    if (peek(r) != '"')
        return reader_error(r, err, line, "tag [%.40s: the value must be in double quotes", name);
    get(r);
    for (;;) {
        int c = peek(r);
        if (c == EOF)
            return reader_error(r, err, line, "the input ends inside the value of tag [%.40s \"%.40s", name,
                                text_str(&r->value));
        if (c == '\n' || c == '\r')
            return reader_error(r, err, line, "tag [%.40s \"%.40s: the value has no closing '\"' on its line", name,
                                text_str(&r->value));
        /* a NUL would cut the value short unseen ("W:Wc3:Bf6\0junk" read as W:Wc3:Bf6) */
        if (is_control(c)) return not_text(r, err, c);
        get(r);
        if (c == '"') break;
        if (c == '\\' && (peek(r) == '"' || peek(r) == '\\')) c = get(r);
        text_push(r, &r->value, c);
    }
    while (peek(r) == ' ' || peek(r) == '\t') get(r);
    if (peek(r) == EOF)
        return reader_error(r, err, line, "the input ends inside the tag [%.40s \"%.40s\" (no ']')", name,
                            text_str(&r->value));
    if (peek(r) != ']')
        return reader_error(r, err, line, "tag [%.40s \"%.40s\": ']' expected after the value", name,
                            text_str(&r->value));
    get(r);
    tok->kind = PDN_TOKEN_TAG;
    return 1;
}

static int read_brace_comment(PdnReader *r, PdnToken *tok, char err[ERR_MAX])
{
    long line = r->line;
    get(r); /* '{' */
    for (;;) {
        int c = peek(r);
        if (c == EOF) return reader_error(r, err, line, "comment '{' opened here is not closed by '}'");
        if (r->line_start && looks_like_tag(r))
            return reader_error(r, err, line, "comment '{' opened here is not closed before the tag pair on line %ld",
                                r->line);
        if (is_control(c)) return not_text(r, err, c); /* a binary file is no comment either */
        get(r);
        if (c == '}') break;
        text_push(r, &r->text, c);
    }
    tok->kind = PDN_TOKEN_COMMENT;
    return 1;
}

/* The rest of the line (a ';' comment, a '%' escape line); -1 with err at a
 * byte that is no text, as anywhere in the file. */
static int skip_line(PdnReader *r, Text *keep, char err[ERR_MAX])
{
    while (peek(r) != EOF && peek(r) != '\n' && peek(r) != '\r') {
        if (is_control(peek(r))) return not_text(r, err, peek(r));
        int c = get(r);
        if (keep) text_push(r, keep, c);
    }
    return 0;
}

/* A whole variation, nested ones and comments inside included. */
static int read_variation(PdnReader *r, PdnToken *tok, char err[ERR_MAX])
{
    long line = r->line;
    int depth = 0;
    for (;;) {
        int c = peek(r);
        if (c == EOF) return reader_error(r, err, line, "variation '(' opened here is not closed by ')'");
        if (r->line_start && looks_like_tag(r))
            return reader_error(r, err, line, "variation '(' opened here is not closed before the tag pair on line %ld",
                                r->line);
        if (c == '{') {
            PdnToken inner;
            if (read_brace_comment(r, &inner, err) < 0) return -1;
            text_clear(&r->text);
            continue;
        }
        if (is_control(c)) return not_text(r, err, c);
        get(r);
        if (c == ';' && skip_line(r, NULL, err) < 0) return -1;
        else if (c == '(') depth++;
        else if (c == ')' && --depth == 0) break;
    }
    tok->kind = PDN_TOKEN_VARIATION;
    return 1;
}

static bool is_result(const char *s)
{
    Outcome outcome;
    return pdn_result_parse(s, &outcome) == 0;
}

static bool is_annotation_char(char c) { return c == '!' || c == '?'; }

/* A word of movetext: move number, result, move or annotation. */
static int read_word(PdnReader *r, PdnToken *tok, char err[ERR_MAX])
{
    long line = r->line;
    /* A move number ends at its dots even when a move is glued to it. */
    size_t digits = 0;
    while (isdigit(peek_at(r, digits)) && digits < 18) digits++;
    if (digits > 0 && peek_at(r, digits) == '.') {
        long n = 0;
        for (size_t i = 0; i < digits; i++) n = n * 10 + (get(r) - '0');
        int dots = 0;
        while (peek(r) == '.') dots++, get(r);
        tok->kind = PDN_TOKEN_MOVE_NUMBER;
        tok->number = n;
        tok->dots = dots >= 3 ? 3 : 1;
        return 1;
    }
    while (!is_delimiter(peek(r))) {
        int c = get(r);
        if (is_control(c)) return not_text(r, err, c);
        text_push(r, &r->text, c);
    }
    char *s = r->text.s;
    if (r->oom || !s) return reader_error(r, err, line, "out of memory");
    if (is_result(s)) {
        tok->kind = PDN_TOKEN_RESULT;
        return 1;
    }
    /* Split off the annotation: trailing ! ? (and the * + # marks). */
    size_t n = r->text.len;
    while (n > 0 && (is_annotation_char(s[n - 1]) || strchr("*+#", s[n - 1]))) n--;
    for (size_t i = n; i < r->text.len; i++)
        if (is_annotation_char(s[i])) text_push(r, &r->value, s[i]);
    s[n] = '\0';
    r->text.len = n;
    tok->kind = n == 0 ? PDN_TOKEN_ANNOTATION : PDN_TOKEN_MOVE;
    return 1;
}

static int read_token(PdnReader *r, PdnToken *tok, char err[ERR_MAX])
{
    text_clear(&r->text);
    text_clear(&r->value);
    memset(tok, 0, sizeof *tok);
    bool content = true; /* the line being read holds something (the token before, an escape line) */
    for (;;) {
        int c = peek(r);
        if (c == EOF) {
            if (r->read_errno)
                return reader_error(r, err, r->line, "cannot read: %s", strerror(r->read_errno));
            return 0;
        }
        if (is_space(c)) {
            long line = r->line;
            get(r);
            if (r->line != line) { /* a line ended */
                if (!content) tok->blank_before = true;
                content = false;
            }
        } else if (c == 0xEF && is_bom(r)) { /* invisible: a '%' after it still starts the line */
            bool line_start = r->line_start;
            get(r), get(r), get(r);
            r->line_start = line_start;
        } else if (c == '%' && r->line_start) {
            if (skip_line(r, NULL, err) < 0) return -1; /* PDN escape line */
            content = true;
        } else {
            break;
        }
    }
    tok->line = r->line;
    int c = peek(r);
    int rc;
    if (is_control(c)) return not_text(r, err, c);
    if (is_utf16_bom(r))
        return reader_error(r, err, tok->line, "the input is UTF-16 (byte-order mark %02X %02X): PDN is read as "
                                               "UTF-8; convert it first (iconv -f UTF-16 -t UTF-8)", c, peek_at(r, 1));
    switch (c) {
    case '[': rc = read_tag(r, tok, err); break;
    case '{': rc = read_brace_comment(r, tok, err); break;
    case '(': rc = read_variation(r, tok, err); break;
    case ';':
        get(r);
        rc = skip_line(r, &r->text, err) < 0 ? -1 : 1;
        tok->kind = PDN_TOKEN_COMMENT;
        break;
    case '$': {
        get(r);
        if (!isdigit(peek(r))) return reader_error(r, err, tok->line, "'$' must be followed by a NAG number");
        long n = 0;
        while (isdigit(peek(r))) {
            if (n < 100000) n = n * 10 + (get(r) - '0');
            else get(r);
        }
        tok->kind = PDN_TOKEN_NAG;
        tok->number = n;
        rc = 1;
        break;
    }
    case ']': case '}': case ')': case '"':
        return reader_error(r, err, tok->line, "unexpected '%c' (no matching opening bracket or tag)", c);
    default: rc = read_word(r, tok, err); break;
    }
    if (rc > 0 && r->oom) return reader_error(r, err, tok->line, "out of memory");
    tok->text = text_str(&r->text);
    tok->value = text_str(&r->value);
    return rc;
}

int pdn_read_token(PdnReader *r, PdnToken *tok, char err[ERR_MAX])
{
    if (r->has_pushed) {
        r->has_pushed = false;
        *tok = r->pushed;
        return 1;
    }
    return read_token(r, tok, err);
}

/* ------------------------------------------------------------------ */
/* Games                                                               */

void pdn_game_init(PdnGame *game) { memset(game, 0, sizeof *game); }

void pdn_game_free(PdnGame *game)
{
    for (int i = 0; i < game->tags_len; i++) {
        free((void *)game->tags[i].name);
        free((void *)game->tags[i].value);
    }
    free(game->tags);
    free(game->moves);
    pdn_game_init(game);
}

static int add_tag(PdnGame *g, const PdnToken *tok)
{
    if (g->tags_len == g->tags_cap) {
        int cap = g->tags_cap ? g->tags_cap * 2 : 16;
        PdnTag *t = realloc(g->tags, (size_t)cap * sizeof *t);
        if (!t) return -1;
        g->tags = t;
        g->tags_cap = cap;
    }
    char *name = strdup(tok->text), *value = strdup(tok->value);
    if (!name || !value) {
        free(name);
        free(value);
        return -1;
    }
    g->tags[g->tags_len++] = (PdnTag){name, value, tok->line};
    return 0;
}

static int add_move(PdnGame *g, const PdnToken *tok, long number, int dots)
{
    if (g->moves_len == g->moves_cap) {
        int cap = g->moves_cap ? g->moves_cap * 2 : 128;
        PdnMove *m = realloc(g->moves, (size_t)cap * sizeof *m);
        if (!m) return -1;
        g->moves = m;
        g->moves_cap = cap;
    }
    PdnMove *m = &g->moves[g->moves_len++];
    snprintf(m->text, sizeof m->text, "%s", tok->text);
    snprintf(m->annotation, sizeof m->annotation, "%s", tok->value);
    m->number = number;
    m->dots = dots;
    m->line = tok->line;
    return 0;
}

/* The body of pdn_read_game, with r->splitting set. */
static int split_game(PdnReader *r, PdnGame *game, char err[ERR_MAX])
{
    bool started = false, movetext = false, blank = false;
    long number = 0;
    int dots = 0; /* of a number written since the last move */
    for (;;) {
        PdnToken tok;
        int rc = pdn_read_token(r, &tok, err);
        if (rc < 0) return -1;
        if (rc == 0) break;
        blank = blank || tok.blank_before; /* since the last token that was not a comment */
        if (tok.kind == PDN_TOKEN_COMMENT || tok.kind == PDN_TOKEN_VARIATION) continue;
        /* a tag after movetext begins the next game (this one had no
         * result); so does one after an empty line that ends a tag section
         * with no movetext (a game cut off after its tags: read alone, it
         * is said to have no moves and no result, not joined to the next) */
        if (tok.kind == PDN_TOKEN_TAG && (movetext || (blank && game->tags_len > 0))) {
            r->pushed = tok;
            r->has_pushed = true;
            break;
        }
        blank = false;
        if (!started) {
            started = true;
            r->in_game = true;
            game->index = ++r->games;
            game->line = tok.line;
        }
        switch (tok.kind) {
        case PDN_TOKEN_TAG:
            if (add_tag(game, &tok) != 0) return reader_error(r, err, tok.line, "out of memory");
            break;
        case PDN_TOKEN_MOVE:
            if (strlen(tok.text) >= MOVE_STR_MAX)
                return reader_error(r, err, tok.line, "'%.40s...' is too long for a move", tok.text);
            if (add_move(game, &tok, number, dots) != 0) return reader_error(r, err, tok.line, "out of memory");
            dots = 0;
            movetext = true;
            break;
        case PDN_TOKEN_MOVE_NUMBER:
            number = tok.number;
            dots = tok.dots;
            movetext = true;
            break;
        case PDN_TOKEN_RESULT:
            snprintf(game->result, sizeof game->result, "%s", tok.text);
            game->result_line = tok.line;
            return 1;
        default: /* annotations, NAGs */
            movetext = true;
            break;
        }
    }
    return started ? 1 : 0;
}

int pdn_read_game(PdnReader *r, PdnGame *game, char err[ERR_MAX])
{
    pdn_game_free(game);
    r->splitting = true;
    r->in_game = false;
    int rc = split_game(r, game, err);
    r->splitting = r->in_game = false;
    return rc;
}

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

static const PdnTag *find_tag(const PdnGame *game, const char *name)
{
    for (int i = 0; i < game->tags_len; i++)
        if (same_name(game->tags[i].name, name)) return &game->tags[i];
    return NULL;
}

const char *pdn_game_tag(const PdnGame *game, const char *name)
{
    const PdnTag *t = find_tag(game, name);
    return t ? t->value : NULL;
}

long pdn_game_tag_line(const PdnGame *game, const char *name)
{
    const PdnTag *t = find_tag(game, name);
    return t ? t->line : 0;
}

int pdn_result_parse(const char *text, Outcome *outcome)
{
    static const struct {
        const char *text;
        Outcome outcome;
    } RESULTS[] = {
        {"1-0", OUTCOME_WHITE_WINS}, {"2-0", OUTCOME_WHITE_WINS}, {"0-1", OUTCOME_BLACK_WINS},
        {"0-2", OUTCOME_BLACK_WINS}, {"1/2-1/2", OUTCOME_DRAW},   {"1-1", OUTCOME_DRAW},
        {"0-0", OUTCOME_DRAW},       {"*", OUTCOME_NONE},
    };
    for (size_t i = 0; i < sizeof RESULTS / sizeof RESULTS[0]; i++)
        if (strcmp(text, RESULTS[i].text) == 0) {
            *outcome = RESULTS[i].outcome;
            return 0;
        }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Replay                                                              */

/* The long GameType form "type,first-mover,files,ranks,notation,invert"
 * (PDN 3.0): do its files and ranks, where given, name the board of `game`
 * (square: Game.board_rows has one entry a rank)? Returns 0, or -1 with
 * the message. The fields given must each be well-formed (a prefix such
 * as "20,W" is read as far as it goes); more than six are refused. */
static int board_of_type(const Game *game, const char *text, long line, char error[PDN_MESSAGE_MAX])
{
    if (!strchr(text, ',')) return 0;
    /* the long form, whole: type,first mover,files,ranks,notation,invert ("20,W,10,10,N2,0") */
    char copy[64], *field[7];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *f = copy, *comma; n < 7; f = comma + 1) {
        comma = strchr(f, ',');
        if (comma) *comma = '\0';
        f += strspn(f, " \t");
        size_t len = strlen(f);
        while (len && (f[len - 1] == ' ' || f[len - 1] == '\t')) f[--len] = '\0';
        field[n++] = f;
        if (!comma) break;
    }
    /* each field given well-formed; a prefix of the form ("20,W") is read as far as it goes */
    char *end = NULL;
    bool ok = n <= 6 && (strcmp(field[1], "W") == 0 || strcmp(field[1], "B") == 0);
    long files = ok && n > 2 ? strtol(field[2], &end, 10) : 0;
    ok = ok && (n <= 2 || (*field[2] && !*end && files > 0));
    long ranks = ok && n > 3 ? strtol(field[3], &end, 10) : 0;
    ok = ok && (n <= 3 || (*field[3] && !*end && ranks > 0));
    ok = ok && (n <= 4 || (*field[4] && strspn(field[4], "ANSans0123456789") == strlen(field[4])));
    ok = ok && (n <= 5 || strcmp(field[5], "0") == 0 || strcmp(field[5], "1") == 0);
    if (!ok) {
        snprintf(error, PDN_MESSAGE_MAX, "GameType tag \"%.40s\" (line %ld): the long form is type,first mover (W or "
                 "B),files,ranks,notation,invert (0 or 1), e.g. \"20,W,10,10,N2,0\"", text, line);
        return -1;
    }
    /* the first mover given: the game's, or the colours would be read the wrong way round */
    Color first = strcmp(field[1], "W") == 0 ? COLOR_WHITE : COLOR_BLACK;
    if (n >= 2 && first != game_first_mover(game)) {
        snprintf(error, PDN_MESSAGE_MAX, "GameType \"%.40s\" (line %ld) says %s moves first, but in %s (GameType %d) "
                 "%s does", text, line, first == COLOR_WHITE ? "White" : "Black", game->title, game->pdn_gametype,
                 first == COLOR_WHITE ? "Black" : "White");
        return -1;
    }
    if (n < 4) return 0; /* no board given */
    int size = 0;
    while (game->board_rows && game->board_rows[size]) size++;
    if (size == 0 || (files == size && ranks == size)) return 0;
    snprintf(error, PDN_MESSAGE_MAX, "GameType \"%.40s\" (line %ld) gives the board %ldx%ld, but %s (GameType %d) is played on %dx%d",
             text, line, files, ranks, game->title, game->pdn_gametype, size, size);
    return -1;
}

static const Game *game_of_type(const char *text, long line, char error[PDN_MESSAGE_MAX])
{
    char *end;
    errno = 0;
    long type = strtol(text, &end, 10);
    const char *rest = end + strspn(end, " \t"); /* blanks may follow; then the long form's ',' or nothing */
    if (end == text || errno || (*rest && *rest != ',')) { /* "25 30" was read as 25 */
        snprintf(error, PDN_MESSAGE_MAX, "GameType tag \"%.40s\" (line %ld) is not a game number", text, line);
        return NULL;
    }
    char known[200] = "";
    size_t n = 0;
    for (const Game *const *g = game_list(); *g; g++) {
        if ((*g)->pdn_gametype == type && type != 0) return board_of_type(*g, text, line, error) == 0 ? *g : NULL;
        if ((*g)->pdn_gametype && n < sizeof known)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s%d %s", n ? ", " : "", (*g)->pdn_gametype,
                                  (*g)->name);
    }
    snprintf(error, PDN_MESSAGE_MAX, "GameType %ld (line %ld) is not a game dama plays (known: %s)", type, line, known);
    return NULL;
}

/* The game a Variant tag names: dama's name or the title, any case; NULL if none. */
static const Game *game_of_variant(const char *variant)
{
    for (const Game *const *g = game_list(); *g; g++)
        if (strcasecmp((*g)->name, variant) == 0 || strcasecmp((*g)->title, variant) == 0) return *g;
    return NULL;
}

/* Add one warning to out->warning, after "; " when it holds one already. */
static void add_warning(PdnReplay *out, const char *fmt, ...)
{
    size_t len = strlen(out->warning);
    if (len && len + 2 < sizeof out->warning) {
        memcpy(out->warning + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->warning + len, sizeof out->warning - len, fmt, ap);
    va_end(ap);
}

typedef struct TagAt {
    const char *name;
    int i;     /* its index in the game's tags */
    int first; /* the index of the first tag of its name */
} TagAt;

static int cmp_tag_name(const void *x, const void *y)
{
    const TagAt *a = x, *b = y;
    int c = strcasecmp(a->name, b->name);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

static int cmp_tag_index(const void *x, const void *y)
{
    const TagAt *a = x, *b = y;
    return (a->i > b->i) - (a->i < b->i);
}

/* A tag written twice: the first is read (find_tag); said once per name, at
 * its second writing, in the file's order. Sorted by name, not each tag
 * against those before it (200,000 tags took minutes). */
static void say_tags_again(const PdnGame *pgame, PdnReplay *out)
{
    int n = pgame->tags_len;
    if (n < 2) return;
    TagAt *t = malloc(sizeof *t * (size_t)n * 2);
    if (!t) return; /* a warning left unsaid, nothing misread */
    TagAt *second = t + n; /* the second writing of each name written again */
    for (int i = 0; i < n; i++) t[i] = (TagAt){.name = pgame->tags[i].name, .i = i, .first = -1};
    qsort(t, (size_t)n, sizeof *t, cmp_tag_name);
    int again = 0;
    for (int k = 1; k < n; k++)
        if (same_name(t[k].name, t[k - 1].name) && (k < 2 || !same_name(t[k].name, t[k - 2].name)))
            second[again++] = (TagAt){.name = t[k].name, .i = t[k].i, .first = t[k - 1].i};
    qsort(second, (size_t)again, sizeof *second, cmp_tag_index);
    for (int k = 0; k < again; k++)
        add_warning(out, "%.40s tag written again (line %ld; first at line %ld, which is read)",
                    pgame->tags[second[k].i].name, pgame->tags[second[k].i].line, pgame->tags[second[k].first].line);
    free(t);
}

int pdn_replay_game(const PdnGame *pgame, const Game *fallback, PdnReplay *out)
{
    memset(out, 0, sizeof *out);
    out->fail_move = -1;
    const Game *game = fallback;
    const char *type = pdn_game_tag(pgame, "GameType");
    const char *variant = pdn_game_tag(pgame, "Variant");
    if (type) {
        game = game_of_type(type, pdn_game_tag_line(pgame, "GameType"), out->error);
        if (!game) return -1;
        const Game *named = variant ? game_of_variant(variant) : NULL;
        if (named && named != game)
            snprintf(out->game_warning, sizeof out->game_warning,
                     "GameType tag \"%.20s\" (line %ld, %s) and Variant tag \"%.40s\" (line %ld, %s) name different "
                     "games: read as %s, by the GameType", type, pdn_game_tag_line(pgame, "GameType"), game->name,
                     variant, pdn_game_tag_line(pgame, "Variant"), named->name, game->name);
    } else if (variant) {
        game = game_of_variant(variant);
        if (!game) {
            snprintf(out->error, sizeof out->error, "Variant tag \"%.40s\" (line %ld) is not a game dama plays",
                     variant, pdn_game_tag_line(pgame, "Variant"));
            return -1;
        }
    }
    if (!game) {
        snprintf(out->error, sizeof out->error, "no GameType tag and no game given");
        return -1;
    }
    out->game = game;
    char err[ERR_MAX];
    Position pos;
    const char *fen = pdn_game_tag(pgame, "FEN");
    if (game_parse_position(game, fen, &pos, err) != 0) {
        snprintf(out->error, sizeof out->error, "FEN tag (line %ld): %s", pdn_game_tag_line(pgame, "FEN"), err);
        return -1;
    }
    /* SetUp says whether a FEN tag gives the start: one that disagrees is said */
    const char *setup = pdn_game_tag(pgame, "SetUp");
    if (setup && strcmp(setup, "1") == 0 && !fen)
        add_warning(out, "SetUp tag \"1\" (line %ld) and no FEN tag: read from the start position",
                    pdn_game_tag_line(pgame, "SetUp"));
    else if (setup && strcmp(setup, "0") == 0 && fen)
        add_warning(out, "SetUp tag \"0\" (line %ld) and a FEN tag (line %ld): the FEN is read",
                    pdn_game_tag_line(pgame, "SetUp"), pdn_game_tag_line(pgame, "FEN"));
    Color leader = game_first_mover(game);
    int over_at = -1; /* ply after which the rules had ended the game */
    const char *over_reason = NULL;
    Outcome over = OUTCOME_NONE;
    /* the keys of the positions before each ply: threefold repetition */
    uint64_t *keys = malloc(sizeof *keys * (size_t)(pgame->moves_len + 1));
    if (!keys) {
        snprintf(out->error, sizeof out->error, "out of memory for %d plies", pgame->moves_len);
        return -1;
    }
    long number = 1; /* the move number of moves[i]; the text's first is move 1, either side's */
    bool number_said = false, dots_said = false;
    for (int i = 0; i < pgame->moves_len; i++) {
        const PdnMove *pm = &pgame->moves[i];
        Move move;
        /* A number written before a move is that move's; a move after
         * another without one is the next move when the first mover plays
         * it ("1. c3-d4 f6-g5 d4-c5": d4-c5 is move 2). A written number
         * other than the one due is said once (it is read). */
        long due = i > 0 && game->side_to_move(&pos) == leader ? number + 1 : number;
        bool second_mover = game->side_to_move(&pos) != leader; /* "1. c3-d4 1... f6-e5": its number again */
        bool written = pm->dots != 0; /* a number right before it (pm->number alone is the last one written) */
        if (written && i > 0 && pm->number != due && !(second_mover && pm->number == pgame->moves[i - 1].number) &&
            !number_said) {
            add_warning(out, "move number %ld (line %ld) where move %ld is due", pm->number, pm->line, due);
            number_said = true;
        }
        /* "12..." marks the move of the side that moves second: before the first mover's move it is said once */
        if (pm->dots == 3 && game->side_to_move(&pos) == leader && !dots_said) {
            add_warning(out, "'%ld...' (line %ld) before a move of %s, which moves first ('%ld.')", pm->number, pm->line,
                        leader == COLOR_WHITE ? "White" : "Black", pm->number);
            dots_said = true;
        }
        /* from the game's start position (no FEN tag) move 1 is due; a FEN carries no move number */
        if (i == 0 && !fen && written && pm->number != 1) {
            add_warning(out, "move number %ld (line %ld) where move 1 is due (the start position)", pm->number,
                        pm->line);
        }
        if (written && (i == 0 || pm->number != pgame->moves[i - 1].number)) number = pm->number;
        else if (i > 0 && game->side_to_move(&pos) == leader) number++;
        if (over_at < 0 && (over = game_outcome(game, &pos, keys, i, &over_reason, NULL)) != OUTCOME_NONE)
            over_at = i;
        if (game->move_from_str(&pos, pm->text, &move, err) != 0) {
            out->fail_move = i;
            out->fail_black = game->side_to_move(&pos) == COLOR_BLACK;
            out->fail_number = number;
            game->pos_to_fen(&pos, out->fen);
            char shown[64]; /* the file's bytes, \xNN past printable ASCII: never raw to a terminal */
            text_escape(pm->text, strlen(pm->text), shown, sizeof shown);
            snprintf(out->error, sizeof out->error, "cannot play %ld%s %s (ply %d, line %ld) in position %s: %s",
                     out->fail_number, game->side_to_move(&pos) != leader ? "..." : ".", shown, i + 1, pm->line,
                     out->fen, err);
            free(keys);
            return -1;
        }
        keys[i] = game->hash(&pos);
        Position child;
        game->make_move(&pos, &move, &child);
        pos = child;
        out->plies++;
    }
    game->pos_to_fen(&pos, out->fen);
    /* the rules' result: where they ended the game, else at its last position */
    int final_at = over_at >= 0 ? over_at : out->plies;
    const char *final_reason = over_reason;
    Outcome final = over_at >= 0 ? over : game_outcome(game, &pos, keys, out->plies, &final_reason, NULL);
    free(keys);
    say_tags_again(pgame, out);
    if (over_at >= 0)
        add_warning(out, "the rules ended the game after ply %d (%s); %d more %s replayed", over_at, over_reason,
                    out->plies - over_at, out->plies - over_at == 1 ? "ply" : "plies");

    const char *tag = pdn_game_tag(pgame, "Result");
    long tag_line = pdn_game_tag_line(pgame, "Result");
    if (tag && pgame->result[0]) {
        Outcome a, b;
        if (pdn_result_parse(tag, &a) != 0)
            add_warning(out, "Result tag \"%.40s\" (line %ld) is not a result", tag, tag_line);
        else if (pdn_result_parse(pgame->result, &b) == 0 && a != b)
            add_warning(out, "Result tag \"%s\" (line %ld) differs from the movetext result \"%s\" (line %ld)", tag,
                        tag_line, pgame->result, pgame->result_line);
    }
    /* the result written (the movetext's, else the tag's) against the one the rules gave */
    Outcome written;
    const char *wtext = pgame->result[0] ? pgame->result : tag;
    long wline = pgame->result[0] ? pgame->result_line : tag_line;
    if (final != OUTCOME_NONE && wtext && pdn_result_parse(wtext, &written) == 0 && written != OUTCOME_NONE &&
        written != final)
        add_warning(out, "the result \"%s\" (line %ld) is not the one the rules gave: %s (%s) after ply %d", wtext,
                    wline, outcome_pdn(final), final_reason ? final_reason : "", final_at);
    if (pgame->result[0] && !pgame->moves_len && !pgame->tags_len) /* "... 1/2-1/2 0-1": no game of its own */
        add_warning(out, "a result alone (\"%s\", line %ld), with no tags and no moves: one written twice?",
                    pgame->result, pgame->result_line);
    if (!pgame->result[0]) { /* PDN ends every game's movetext with its result: a file cut short lost it */
        char where[96], said[96] = "";
        if (pgame->moves_len) snprintf(where, sizeof where, "no result after the last move (line %ld)",
                                       pgame->moves[pgame->moves_len - 1].line);
        else snprintf(where, sizeof where, "no moves and no result (the game starts at line %ld)", pgame->line);
        if (tag) snprintf(said, sizeof said, "; the Result tag (line %ld) says \"%.40s\"", tag_line, tag);
        add_warning(out, "%s: the game may be cut off (PDN ends every game with 1-0, 0-1, 1/2-1/2 or *%s)", where,
                    said);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

int pdn_movetext_init(PdnMovetext *mt, Color first, Color leader)
{
    memset(mt, 0, sizeof *mt);
    mt->number = 1;
    mt->side = first;
    mt->leader = leader;
    mt->text = calloc(1, 256);
    mt->cap = mt->text ? 256 : 0;
    return mt->text ? 0 : -1;
}

int pdn_movetext_append(PdnMovetext *mt, const char *move)
{
    char head[32] = "";
    if (mt->side == mt->leader) snprintf(head, sizeof head, "%s%ld. ", mt->len ? " " : "", mt->number);
    else if (mt->len == 0) snprintf(head, sizeof head, "%ld... ", mt->number);
    else snprintf(head, sizeof head, " ");
    size_t add = strlen(head) + strlen(move);
    if (mt->len + add + 1 > mt->cap) {
        size_t cap = mt->cap * 2 > mt->len + add + 1 ? mt->cap * 2 : mt->len + add + 256;
        char *t = realloc(mt->text, cap);
        if (!t) return -1;
        mt->text = t;
        mt->cap = cap;
    }
    mt->len += (size_t)snprintf(mt->text + mt->len, mt->cap - mt->len, "%s%s", head, move);
    if (mt->side != mt->leader) mt->number++;
    mt->side = mt->side == COLOR_WHITE ? COLOR_BLACK : COLOR_WHITE;
    return 0;
}

void pdn_movetext_free(PdnMovetext *mt)
{
    free(mt->text);
    memset(mt, 0, sizeof *mt);
}

/* Write the unit "a" or "a b" (b_len > 0), wrapping before it when the
 * line would grow past PDN_LINE_WIDTH columns. */
static void put_unit(FILE *out, const char *a, size_t a_len, const char *b, size_t b_len, size_t *column)
{
    size_t len = a_len + (b_len ? 1 + b_len : 0);
    if (*column > 0) {
        bool wrap = *column + 1 + len > PDN_LINE_WIDTH;
        fputc(wrap ? '\n' : ' ', out);
        *column = wrap ? 0 : *column + 1;
    }
    fwrite(a, 1, a_len, out);
    if (b_len) {
        fputc(' ', out);
        fwrite(b, 1, b_len, out);
    }
    *column += len;
}

int pdn_write_game(FILE *out, const PdnTag *tags, int tags_len, const char *movetext, const char *result)
{
    for (int i = 0; i < tags_len; i++) {
        fprintf(out, "[%s \"", tags[i].name);
        for (const char *v = tags[i].value; *v; v++) {
            if (*v == '"' || *v == '\\') fputc('\\', out);
            fputc(*v, out);
        }
        fputs("\"]\n", out);
    }
    if (tags_len > 0) fputc('\n', out);
    size_t column = 0;
    const char *s = movetext ? movetext : "";
    for (;;) {
        s += strspn(s, " \n");
        if (!*s) break;
        size_t len = strcspn(s, " \n");
        const char *next = s + len;
        size_t next_len = 0;
        if (s[len - 1] == '.') { /* a move number: keep it with its move */
            next += strspn(next, " \n");
            next_len = strcspn(next, " \n");
        }
        put_unit(out, s, len, next, next_len, &column);
        s = next + next_len;
    }
    const char *res = result ? result : "*";
    put_unit(out, res, strlen(res), "", 0, &column);
    fputs("\n\n", out);
    return ferror(out) ? -1 : 0;
}

int pdn_write_game_info(FILE *out, const PdnGameInfo *info)
{
    const Game *g = info->game;
    PdnTag tags[16];
    int n = 0;
    char gametype[16], date[16] = "????.??.??";
    if (info->date && strlen(info->date) >= 10 && info->date[4] == '-' && info->date[7] == '-')
        snprintf(date, sizeof date, "%.4s.%.2s.%.2s", info->date, info->date + 5, info->date + 8);
    tags[n++] = (PdnTag){"Event", info->event ? info->event : "?", 0};
    tags[n++] = (PdnTag){"Site", info->site ? info->site : "?", 0};
    tags[n++] = (PdnTag){"Date", date, 0};
    tags[n++] = (PdnTag){"Round", info->round ? info->round : "?", 0};
    tags[n++] = (PdnTag){"White", info->white ? info->white : "?", 0};
    tags[n++] = (PdnTag){"Black", info->black ? info->black : "?", 0};
    tags[n++] = (PdnTag){"Result", info->result ? info->result : "*", 0};
    if (g->pdn_gametype) {
        snprintf(gametype, sizeof gametype, "%d", g->pdn_gametype);
        tags[n++] = (PdnTag){"GameType", gametype, 0};
    }
    tags[n++] = (PdnTag){"Variant", g->name, 0};
    char start[FEN_MAX] = "";
    if (info->start_fen && *info->start_fen) {
        Position pos, def;
        char perr[ERR_MAX];
        if (g->pos_from_fen(&pos, info->start_fen, perr) == 0 && game_parse_position(g, NULL, &def, perr) == 0) {
            char a[FEN_MAX], b[FEN_MAX];
            g->pos_to_fen(&pos, a);
            g->pos_to_fen(&def, b);
            if (strcmp(a, b) != 0) snprintf(start, sizeof start, "%s", info->start_fen);
        } else {
            snprintf(start, sizeof start, "%s", info->start_fen); /* the reader will name it */
        }
    }
    if (start[0]) {
        tags[n++] = (PdnTag){"SetUp", "1", 0};
        tags[n++] = (PdnTag){"FEN", start, 0};
    }
    if (info->opening && *info->opening) tags[n++] = (PdnTag){"Opening", info->opening, 0};
    if (info->termination && *info->termination) tags[n++] = (PdnTag){"Termination", info->termination, 0};
    return pdn_write_game(out, tags, n, info->movetext, info->result);
}
