/* dxp.c — DXP layer 2: messages, boards and moves; see dxp.h and docs/dxp.md. */
#include "protocol/dxp.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ----------------------------------------------------------- */

const char *dxp_type_name(int type)
{
    switch (type) {
    case DXP_CHAT: return "CHAT";
    case DXP_GAMEREQ: return "GAMEREQ";
    case DXP_GAMEACC: return "GAMEACC";
    case DXP_MOVE: return "MOVE";
    case DXP_GAMEEND: return "GAMEEND";
    case DXP_BACKREQ: return "BACKREQ";
    case DXP_BACKACC: return "BACKACC";
    default: return "unknown";
    }
}

/* text (n bytes) quoted for a message: printable ASCII as is, other bytes
 * as \xNN, at most 40 bytes of it ("..." after). */
static void quote(const char *text, size_t n, char *out, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < n && i < 40 && k + 5 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f) out[k++] = (char)c;
        else k += (size_t)snprintf(out + k, size - k, "\\x%02X", c);
    }
    if (n > 40 && k + 4 < size) memcpy(out + k, "...", 3), k += 3;
    out[k < size ? k : size - 1] = '\0';
}

static int fail(char err[ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(char err[ERR_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

static char colour_char(Color c) { return c == COLOR_WHITE ? 'W' : 'Z'; }

static bool valid_board_char(char c) { return c == 'e' || c == 'w' || c == 'z' || c == 'W' || c == 'Z'; }

/* ---- encoding ------------------------------------------------------------- */

static int check_name(const char *name, const char *what, char err[ERR_MAX])
{
    size_t n = strlen(name);
    if (n == 0 || n > DXP_NAME_LEN) return fail(err, "%s name must be 1..%d characters (has %zu)", what, DXP_NAME_LEN, n);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c > 0x7e) return fail(err, "%s name holds a byte that is not printable ASCII (\\x%02X)", what, c);
    }
    if (name[0] == ' ') return fail(err, "%s name must not start with a blank", what);
    return 0;
}

static int check_range(int v, int lo, int hi, const char *field, char err[ERR_MAX])
{
    if (v < lo || v > hi) return fail(err, "%s %d is outside %d..%d", field, v, lo, hi);
    return 0;
}

static int encode_req(const DxpGameReq *r, char *out, char err[ERR_MAX])
{
    if (check_range(r->version, 0, 99, "GAMEREQ version", err) || check_name(r->name, "GAMEREQ initiator", err) ||
        check_range(r->minutes, 0, 999, "GAMEREQ thinking time", err) ||
        check_range(r->moves, 0, 999, "GAMEREQ number of moves", err))
        return -1;
    int n = snprintf(out, DXP_MSG_MAX + 1, "R%02d%-32s%c%03d%03d%c", r->version, r->name, colour_char(r->follower),
                     r->minutes, r->moves, r->has_position ? 'B' : 'A');
    if (!r->has_position) return n;
    if (strlen(r->board) != DXP_SQUARES) return fail(err, "GAMEREQ board must be %d characters", DXP_SQUARES);
    for (int i = 0; i < DXP_SQUARES; i++) {
        if (!valid_board_char(r->board[i])) return fail(err, "GAMEREQ board: bad character on square %d", i + 1);
    }
    return n + snprintf(out + n, (size_t)(DXP_MSG_MAX + 1 - n), "%c%s", colour_char(r->to_move), r->board);
}

static int encode_move(const DxpMove *m, char *out, char err[ERR_MAX])
{
    if (check_range(m->seconds, 0, 9999, "MOVE time", err) || check_range(m->from, 1, DXP_SQUARES, "MOVE from", err) ||
        check_range(m->to, 1, DXP_SQUARES, "MOVE to", err) ||
        check_range(m->ncaptured, 0, DXP_CAPTURED_MAX, "MOVE number captured", err))
        return -1;
    int n = snprintf(out, DXP_MSG_MAX + 1, "M%04d%02d%02d%02d", m->seconds, m->from, m->to, m->ncaptured);
    for (int i = 0; i < m->ncaptured; i++) {
        if (check_range(m->captured[i], 1, DXP_SQUARES, "MOVE captured square", err)) return -1;
        n += snprintf(out + n, (size_t)(DXP_MSG_MAX + 1 - n), "%02d", m->captured[i]);
    }
    return n;
}

int dxp_encode(const DxpMsg *m, char out[DXP_MSG_MAX + 1], char err[ERR_MAX])
{
    out[0] = '\0';
    switch (m->type) {
    case DXP_CHAT: {
        size_t n = strlen(m->u.chat);
        if (n == 0 || n > DXP_CHAT_MAX) return fail(err, "CHAT text must be 1..%d characters (has %zu)", DXP_CHAT_MAX, n);
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)m->u.chat[i];
            if (c > 127) return fail(err, "CHAT text holds a byte outside ASCII (\\x%02X)", c);
        }
        return snprintf(out, DXP_MSG_MAX + 1, "C%s", m->u.chat);
    }
    case DXP_GAMEREQ: return encode_req(&m->u.req, out, err);
    case DXP_GAMEACC:
        if (check_name(m->u.acc.name, "GAMEACC follower", err) || check_range(m->u.acc.code, DXP_ACC_OK, DXP_ACC_NO_GAMES, "GAMEACC code", err))
            return -1;
        return snprintf(out, DXP_MSG_MAX + 1, "A%-32s%d", m->u.acc.name, m->u.acc.code);
    case DXP_MOVE: return encode_move(&m->u.move, out, err);
    case DXP_GAMEEND:
        if (check_range(m->u.end.reason, DXP_END_UNKNOWN, DXP_END_WIN, "GAMEEND reason", err) ||
            check_range(m->u.end.stop, DXP_STOP_NEXT, DXP_STOP_ALL, "GAMEEND stop code", err))
            return -1;
        return snprintf(out, DXP_MSG_MAX + 1, "E%d%d", m->u.end.reason, m->u.end.stop);
    case DXP_BACKREQ:
        if (check_range(m->u.back.move_number, 1, 999, "BACKREQ move number", err)) return -1;
        return snprintf(out, DXP_MSG_MAX + 1, "B%03d%c", m->u.back.move_number, colour_char(m->u.back.to_move));
    case DXP_BACKACC:
        if (check_range(m->u.back_code, 0, 9, "BACKACC code", err)) return -1;
        return snprintf(out, DXP_MSG_MAX + 1, "K%d", m->u.back_code);
    }
    return fail(err, "unknown message type %d", (int)m->type);
}

/* ---- decoding ------------------------------------------------------------- */

typedef struct Reader {
    const char *msg;
    size_t len;
    const char *type; /* "GAMEREQ" */
    char *err;
} Reader;

/* Decimal field of `width` digits at `at` (0-based) in lo..hi. */
static int field_num(const Reader *r, size_t at, int width, int lo, int hi, const char *field, int *out)
{
    int v = 0;
    for (int i = 0; i < width; i++) {
        char c = r->msg[at + (size_t)i];
        if (c < '0' || c > '9') {
            char q[64];
            quote(r->msg + at, (size_t)width, q, sizeof q);
            return fail(r->err, "%s: %s '%s' at character %zu must be %d decimal digits", r->type, field, q, at + 1,
                        width);
        }
        v = v * 10 + (c - '0');
    }
    if (v < lo || v > hi) {
        return fail(r->err, "%s: %s %0*d at character %zu is outside %0*d..%0*d", r->type, field, width, v, at + 1,
                    width, lo, width, hi);
    }
    *out = v;
    return 0;
}

static int field_colour(const Reader *r, size_t at, const char *field, Color *out)
{
    char c = r->msg[at];
    if (c != 'W' && c != 'Z') {
        char q[16];
        quote(&c, 1, q, sizeof q);
        return fail(r->err, "%s: %s '%s' at character %zu must be W or Z", r->type, field, q, at + 1);
    }
    *out = c == 'W' ? COLOR_WHITE : COLOR_BLACK;
    return 0;
}

static int field_name(const Reader *r, size_t at, char out[DXP_NAME_LEN + 1])
{
    memcpy(out, r->msg + at, DXP_NAME_LEN);
    out[DXP_NAME_LEN] = '\0';
    for (int i = 0; i < DXP_NAME_LEN; i++) {
        unsigned char c = (unsigned char)out[i];
        if (c < 0x20 || c > 0x7e) {
            return fail(r->err, "%s: the name holds a control byte \\x%02X at character %zu", r->type, c,
                        at + (size_t)i + 1);
        }
    }
    if (out[0] == ' ') /* the padding is on the right: a leading blank is a field out of place */
        return fail(r->err, "%s: the name starts with a blank (character %zu; names are padded on the right)", r->type,
                    at + 1);
    int n = DXP_NAME_LEN;
    while (n > 0 && out[n - 1] == ' ') out[--n] = '\0';
    return 0;
}

static int want_len(const Reader *r, size_t want, const char *layout)
{
    if (r->len == want) return 0;
    return fail(r->err, "%s: %zu characters, expected %zu (%s)", r->type, r->len, want, layout);
}

static int decode_req(const Reader *r, DxpGameReq *q)
{
    enum { LEN_A = 43, LEN_B = 94 };
    if (r->len != LEN_A && r->len != LEN_B) {
        return fail(r->err, "%s: %zu characters, expected %d (start position A) or %d (position B)", r->type, r->len,
                    LEN_A, LEN_B);
    }
    memset(q, 0, sizeof *q);
    if (field_num(r, 1, 2, 0, 99, "version", &q->version) || field_name(r, 3, q->name) ||
        field_colour(r, 35, "follower colour", &q->follower) ||
        field_num(r, 36, 3, 0, 999, "thinking time", &q->minutes) ||
        field_num(r, 39, 3, 0, 999, "number of moves", &q->moves))
        return -1;
    char flag = r->msg[42];
    if (flag != 'A' && flag != 'B') {
        char qq[16];
        quote(&flag, 1, qq, sizeof qq);
        return fail(r->err, "%s: starting position '%s' at character 43 must be A or B", r->type, qq);
    }
    if ((flag == 'A') != (r->len == LEN_A)) {
        return fail(r->err, "%s: starting position %c with %zu characters (A has %d, B %d)", r->type, flag, r->len,
                    LEN_A, LEN_B);
    }
    q->has_position = flag == 'B';
    q->to_move = COLOR_WHITE;
    if (!q->has_position) return 0;
    if (field_colour(r, 43, "colour to move", &q->to_move)) return -1;
    for (int i = 0; i < DXP_SQUARES; i++) {
        char c = r->msg[44 + i];
        if (!valid_board_char(c)) {
            char qq[16];
            quote(&c, 1, qq, sizeof qq);
            return fail(r->err, "%s: square %d of the position is '%s' (character %d), expected e, w, z, W or Z",
                        r->type, i + 1, qq, 45 + i);
        }
        q->board[i] = c;
    }
    q->board[DXP_SQUARES] = '\0';
    return 0;
}

static int decode_move(const Reader *r, DxpMove *m)
{
    if (r->len < 11) return want_len(r, 11, "M, time 4, from 2, to 2, number captured 2, captured squares 2 each");
    memset(m, 0, sizeof *m);
    if (field_num(r, 1, 4, 0, 9999, "time", &m->seconds) || field_num(r, 5, 2, 1, DXP_SQUARES, "from", &m->from) ||
        field_num(r, 7, 2, 1, DXP_SQUARES, "to", &m->to) ||
        field_num(r, 9, 2, 0, DXP_CAPTURED_MAX, "number captured", &m->ncaptured))
        return -1;
    size_t want = 11 + 2 * (size_t)m->ncaptured;
    if (r->len != want) {
        return fail(r->err, "%s: %zu characters, expected %zu for %d captured square%s", r->type, r->len, want,
                    m->ncaptured, m->ncaptured == 1 ? "" : "s");
    }
    for (int i = 0; i < m->ncaptured; i++) {
        if (field_num(r, 11 + 2 * (size_t)i, 2, 1, DXP_SQUARES, "captured square", &m->captured[i])) return -1;
        for (int j = 0; j < i; j++) {
            if (m->captured[j] == m->captured[i]) {
                return fail(r->err, "%s: captured square %d is listed twice", r->type, m->captured[i]);
            }
        }
    }
    return 0;
}

int dxp_decode(const char *msg, size_t len, DxpMsg *out, char err[ERR_MAX])
{
    memset(out, 0, sizeof *out);
    if (len == 0) return fail(err, "empty message");
    if (len > DXP_MSG_MAX) return fail(err, "message of %zu characters, longer than %d", len, DXP_MSG_MAX);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)msg[i];
        if (c == 0 || c > 127) return fail(err, "byte \\x%02X at character %zu is outside ASCII 1..127", c, i + 1);
    }
    Reader r = {msg, len, dxp_type_name(msg[0]), err};
    out->type = (DxpType)msg[0];
    switch (msg[0]) {
    case DXP_CHAT:
        if (len < 2) return fail(err, "CHAT without text (1..%d characters expected)", DXP_CHAT_MAX);
        memcpy(out->u.chat, msg + 1, len - 1);
        out->u.chat[len - 1] = '\0';
        return 0;
    case DXP_GAMEREQ: return decode_req(&r, &out->u.req);
    case DXP_GAMEACC:
        if (want_len(&r, 34, "A, follower name 32, acceptance code 1")) return -1;
        if (field_name(&r, 1, out->u.acc.name)) return -1;
        return field_num(&r, 33, 1, DXP_ACC_OK, DXP_ACC_NO_GAMES, "acceptance code", &out->u.acc.code);
    case DXP_MOVE: return decode_move(&r, &out->u.move);
    case DXP_GAMEEND:
        if (want_len(&r, 3, "E, reason 1, stop code 1")) return -1;
        if (field_num(&r, 1, 1, DXP_END_UNKNOWN, DXP_END_WIN, "reason", &out->u.end.reason)) return -1;
        return field_num(&r, 2, 1, DXP_STOP_NEXT, DXP_STOP_ALL, "stop code", &out->u.end.stop);
    case DXP_BACKREQ:
        if (want_len(&r, 5, "B, move number 3, colour to move 1")) return -1;
        if (field_num(&r, 1, 3, 1, 999, "move number", &out->u.back.move_number)) return -1;
        return field_colour(&r, 4, "colour to move", &out->u.back.to_move);
    case DXP_BACKACC:
        if (want_len(&r, 2, "K, acceptance code 1")) return -1;
        return field_num(&r, 1, 1, 0, 9, "acceptance code", &out->u.back_code);
    default: {
        char q[64];
        quote(msg, len, q, sizeof q);
        return fail(err, "unknown message type '%c' in '%s' (expected C, R, A, M, E, B or K)",
                    isprint((unsigned char)msg[0]) ? msg[0] : '?', q);
    }
    }
}

/* ---- boards: through the game's position strings ------------------------------ */

/* Read a numbered position string "S:Wa,Kb,...:Bc,d-e" (what the games of
 * 1..50 squares write and read) into board (50 characters: e w z W Z) and
 * the side to move. */
static int board_from_fen(const char *fen, Color *side, char board[DXP_SQUARES + 1], char err[ERR_MAX])
{
    memset(board, 'e', DXP_SQUARES);
    board[DXP_SQUARES] = '\0';
    const char *s = fen;
    if (*s != 'W' && *s != 'B') return fail(err, "position '%.80s' does not start with W or B", fen);
    *side = *s == 'W' ? COLOR_WHITE : COLOR_BLACK;
    s++;
    while (*s == ':') {
        s++;
        if (*s != 'W' && *s != 'B') return fail(err, "position '%.80s': expected W or B after ':'", fen);
        bool white = *s++ == 'W';
        while (*s && *s != ':') {
            bool king = *s == 'K';
            if (king) s++;
            char *end = NULL;
            long lo = strtol(s, &end, 10), hi = lo;
            if (end == s) return fail(err, "position '%.80s' is not numbered (DXP numbers squares 1..50)", fen);
            s = end;
            if (*s == '-') {
                hi = strtol(s + 1, &end, 10);
                if (end == s + 1) return fail(err, "position '%.80s': bad range", fen);
                s = end;
            }
            if (lo < 1 || hi > DXP_SQUARES || hi < lo) {
                return fail(err, "position '%.80s' has square %ld outside 1..%d", fen, lo < 1 ? lo : hi, DXP_SQUARES);
            }
            for (long n = lo; n <= hi; n++) board[n - 1] = white ? (king ? 'W' : 'w') : (king ? 'Z' : 'z');
            if (*s == ',') s++;
            else if (*s && *s != ':') return fail(err, "position '%.80s': unexpected '%c'", fen, *s);
        }
    }
    if (*s) return fail(err, "position '%.80s': unexpected '%c'", fen, *s);
    return 0;
}

int dxp_board_from_position(const Game *g, const Position *pos, Color *to_move, char board[DXP_SQUARES + 1],
                            char err[ERR_MAX])
{
    char fen[FEN_MAX];
    g->pos_to_fen(pos, fen);
    return board_from_fen(fen, to_move, board, err);
}

/* Append ",K12" style items of one colour to a position string. */
static size_t fen_side(const char *board, char man, char king, char *out, size_t n, size_t size)
{
    bool first = true;
    for (int i = 0; i < DXP_SQUARES; i++) {
        if (board[i] != man && board[i] != king) continue;
        int w = snprintf(out + n, size - n, "%s%s%d", first ? "" : ",", board[i] == king ? "K" : "", i + 1);
        if (w > 0 && (size_t)w < size - n) n += (size_t)w;
        first = false;
    }
    return n;
}

int dxp_board_to_position(const Game *g, Color to_move, const char *board, Position *pos, char err[ERR_MAX])
{
    size_t len = strnlen(board, DXP_SQUARES + 1);
    if (len != DXP_SQUARES) return fail(err, "a board has %d squares, not %zu", DXP_SQUARES, len);
    for (int i = 0; i < DXP_SQUARES; i++) {
        if (!valid_board_char(board[i])) {
            char q[16];
            quote(board + i, 1, q, sizeof q);
            return fail(err, "square %d of the board is '%s', expected e, w, z, W or Z", i + 1, q);
        }
    }
    char fen[FEN_MAX];
    size_t n = (size_t)snprintf(fen, sizeof fen, "%c:W", to_move == COLOR_WHITE ? 'W' : 'B');
    n = fen_side(board, 'w', 'W', fen, n, sizeof fen);
    n += (size_t)snprintf(fen + n, sizeof fen - n, ":B");
    fen_side(board, 'z', 'Z', fen, n, sizeof fen);
    char gerr[ERR_MAX];
    if (g->pos_from_fen(pos, fen, gerr) == 0) return 0;
    /* The game quotes the position string it was given first: that string
     * is ours, not the peer's, so what follows it is the news. */
    const char *what = strstr(gerr, "': ");
    if (strncmp(gerr, "bad position string '", 21) == 0 && what) return fail(err, "the position: %s", what + 3);
    return fail(err, "the position: %s", gerr);
}

bool dxp_game_fits(const Game *g)
{
    Position p;
    char err[ERR_MAX], board[DXP_SQUARES + 1];
    Color side;
    if (g->pos_from_fen(&p, "W:W50:B1", err) != 0 || g->pos_from_fen(&p, "W:W51:B1", err) == 0) return false;
    if (game_parse_position(g, NULL, &p, err) != 0) return false;
    return dxp_board_from_position(g, &p, &side, board, err) == 0;
}

/* ---- moves -------------------------------------------------------------------- */

/* The leading and trailing square numbers of a move's text ("6x28x14x3":
 * 6 and 3). */
static int text_ends(const char *text, int *from, int *to)
{
    char *end = NULL;
    long a = strtol(text, &end, 10);
    if (end == text || !isdigit((unsigned char)text[0])) return -1;
    size_t n = strlen(text);
    size_t i = n;
    while (i > 0 && isdigit((unsigned char)text[i - 1])) i--;
    if (i == n) return -1;
    long b = strtol(text + i, NULL, 10);
    if (a < 1 || a > DXP_SQUARES || b < 1 || b > DXP_SQUARES) return -1;
    *from = (int)a;
    *to = (int)b;
    return 0;
}

int dxp_move_from_game(const Game *g, const Position *pos, const Move *move, int seconds, DxpMove *out,
                       char err[ERR_MAX])
{
    memset(out, 0, sizeof *out);
    out->seconds = seconds < 0 ? 0 : seconds > 9999 ? 9999 : seconds;
    char text[MOVE_STR_MAX];
    g->move_to_str(pos, move, text);
    if (text_ends(text, &out->from, &out->to) != 0) {
        return fail(err, "move '%.60s' is not numbered 1..%d as DXP needs", text, DXP_SQUARES);
    }
    Position child;
    g->make_move(pos, move, &child);
    char before[DXP_SQUARES + 1], after[DXP_SQUARES + 1];
    Color s0, s1;
    if (dxp_board_from_position(g, pos, &s0, before, err) != 0 || dxp_board_from_position(g, &child, &s1, after, err) != 0)
        return -1;
    /* The captured pieces: the opponent's pieces that the move removed. */
    const char *theirs = s0 == COLOR_WHITE ? "zZ" : "wW";
    for (int i = 0; i < DXP_SQUARES; i++) {
        if (strchr(theirs, before[i]) && after[i] == 'e') {
            if (out->ncaptured == DXP_CAPTURED_MAX) return fail(err, "move '%.60s' captures more than %d pieces", text,
                                                               DXP_CAPTURED_MAX);
            out->captured[out->ncaptured++] = i + 1;
        }
    }
    return 0;
}

static uint64_t captured_mask(const DxpMove *m)
{
    uint64_t mask = 0;
    for (int i = 0; i < m->ncaptured; i++) mask |= 1ULL << m->captured[i];
    return mask;
}

void dxp_move_text(const DxpMove *dm, char *out, size_t size)
{
    int n = snprintf(out, size, "%d%c%d", dm->from, dm->ncaptured ? 'x' : '-', dm->to);
    for (int i = 0; i < dm->ncaptured && n > 0 && (size_t)n < size; i++) {
        n += snprintf(out + n, size - (size_t)n, "%s%d%s", i ? "," : " (captures ", dm->captured[i],
                      i == dm->ncaptured - 1 ? ")" : "");
    }
}

int dxp_move_to_game(const Game *g, const Position *pos, const DxpMove *dm, Move *out, char err[ERR_MAX])
{
    MoveList *list = malloc(sizeof *list);
    if (!list) return fail(err, "out of memory");
    g->gen_moves(pos, list, GEN_DISTINCT);
    uint64_t want = captured_mask(dm);
    int found = 0, same_ends = 0;
    char legal[512] = "";
    size_t ln = 0;
    for (int i = 0; i < list->len; i++) {
        DxpMove c;
        if (dxp_move_from_game(g, pos, &list->moves[i], 0, &c, err) != 0) {
            free(list);
            return -1;
        }
        if (c.from == dm->from && ln < sizeof legal - 64) {
            char t[160];
            dxp_move_text(&c, t, sizeof t);
            ln += (size_t)snprintf(legal + ln, sizeof legal - ln, "%s%s", ln ? ", " : "", t);
        }
        if (c.from != dm->from || c.to != dm->to) continue;
        same_ends++;
        /* without its captured squares a move is named by its ends alone */
        if (dm->ncaptured == 0 || captured_mask(&c) == want) {
            if (found++ == 0) *out = list->moves[i];
        }
    }
    free(list);
    char t[160];
    dxp_move_text(dm, t, sizeof t);
    if (dm->ncaptured == 0 && same_ends > 1) {
        return fail(err, "move %s is ambiguous: %d legal moves go from %d to %d (a MOVE must list the captured "
                    "squares)", t, same_ends, dm->from, dm->to);
    }
    if (found == 1) return 0;
    if (found > 1) return fail(err, "move %s matches %d legal moves", t, found);
    if (!ln) return fail(err, "move %s is not legal here: no legal move starts on square %d", t, dm->from);
    return fail(err, "move %s is not legal here (legal from %d: %s)", t, dm->from, legal);
}
