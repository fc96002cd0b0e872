/* shatra.c — Shatra (Altai chess): position strings, move notation,
 * end-of-game rules and the game table. Rules: docs/rules/shatra.md
 * (section 8 is the text contract implemented here). */
#include "engine/games/shatra/shatra.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"
#include "engine/weights_id.h"
#include "engine/games/shatra/shatra_board.h"
#include "engine/games/shatra/shatra_rules.h"
#include "engine/games/shatra/weights.h"
#include "util/num.h"

/* The generated header in this build's term layout, set at init
 * (weights_laid_out: the header itself, or a copy in which a term added
 * since the export starts at 0 until the header is exported anew,
 * docs/contributing.md). */
static const WeightsHeader SH_HEADER = WEIGHTS_HEADER(SHATRA, shatra);
static int32_t sh_weights_laid[ST_WEIGHTS_LEN];
static const int32_t *sh_weights;

static const int32_t *sh_weights_default(void)
{
    return sh_weights ? sh_weights : sh_weights_laid;
}

void shatra_init(void)
{
    shatra_board_init();
    sh_weights = weights_laid_out(&shatra_game, &SH_HEADER, sh_weights_laid);
}

static const char PIECE_CHARS[SH_TYPES] = {'?', 'K', 'Q', 'R', 'B', 'S'};
static const char PROMO_CHARS[SH_TYPES] = {'?', '?', 'Q', 'R', 'B', '?'};

/* ------------------------------------------------------------------ */
/* Position strings                                                    */

static int fen_error(char err[ERR_MAX], const char *fen, const char *what)
{
    bool cut = strlen(fen) > 80; /* a long string is shown cut, marked "..." */
    snprintf(err, ERR_MAX, "bad position string '%.*s%s': %.150s", cut ? 77 : 80, fen, cut ? "..." : "", what);
    return -1;
}

static int piece_of_char(char ch, int *color)
{
    const char *s = strchr("KQRBS", toupper((unsigned char)ch));
    if (!s || !isalpha((unsigned char)ch)) return SH_EMPTY;
    *color = isupper((unsigned char)ch) ? COLOR_WHITE : COLOR_BLACK;
    return (int)(s - "KQRBS") + SH_BIY;
}

/* Parse a square-set field ("1-10,53-62", "7", "-") into a bitset. */
static int parse_square_set(const char *field, const char *name, uint64_t *set, char msg[160])
{
    *set = 0;
    if (strcmp(field, "-") == 0) return 0;
    const char *s = field;
    for (;;) {
        if (!isdigit((unsigned char)*s)) {
            snprintf(msg, 160, "%s field '%.40s': expected a square number at character %d", name, field,
                     (int)(s - field) + 1);
            return -1;
        }
        const char *at = s;
        int64_t lo = 0, hi = 0;
        bool bad = num_scan_digits(&s, 1, 62, &lo) != NUM_OK;
        hi = lo;
        if (*s == '-') {
            s++;
            if (!isdigit((unsigned char)*s)) {
                snprintf(msg, 160, "%s field '%.40s': expected a square number at character %d", name, field,
                         (int)(s - field) + 1);
                return -1;
            }
            bad |= num_scan_digits(&s, 1, 62, &hi) != NUM_OK;
        }
        if (bad || hi < lo) {
            snprintf(msg, 160, "%s field '%.40s': bad square or range '%.*s' at character %d (squares are 1-62)",
                     name, field, (int)(s - at < 40 ? s - at : 40), at, (int)(at - field) + 1);
            return -1;
        }
        for (long n = lo; n <= hi; n++) {
            if (*set & sh_bit((int)n - 1)) { /* as a square given twice on the board */
                snprintf(msg, 160, "%s field '%.40s': square %ld is listed twice (at character %d)", name, field, n,
                         (int)(at - field) + 1);
                return -1;
            }
            *set |= sh_bit((int)n - 1);
        }
        if (*s == '\0') return 0;
        if (*s != ',') {
            snprintf(msg, 160, "%s field '%.40s': unexpected '%c' at character %d", name, field, *s,
                     (int)(s - field) + 1);
            return -1;
        }
        s++;
    }
}

/* Write a square set as maximal runs: "1-10,53-62", "7", "-". */
static int write_square_set(uint64_t set, char *out, size_t size)
{
    if (!set) return snprintf(out, size, "-");
    int n = 0;
    bool first = true;
    while (set) {
        int lo = __builtin_ctzll(set), hi = lo;
        while (hi + 1 < SH_SQUARES && (set >> (hi + 1) & 1)) hi++;
        for (int s = lo; s <= hi; s++) set &= ~sh_bit(s);
        if (hi > lo)
            n += snprintf(out + n, size - (size_t)n, "%s%d-%d", first ? "" : ",", lo + 1, hi + 1);
        else
            n += snprintf(out + n, size - (size_t)n, "%s%d", first ? "" : ",", lo + 1);
        first = false;
    }
    return n;
}

static int parse_number(const char *field, const char *name, long lo, long hi, long *out, char msg[160])
{
    if (!isdigit((unsigned char)field[0])) {
        snprintf(msg, 160, "%s field '%.40s' is not a number", name, field);
        return -1;
    }
    const char *end = field;
    int64_t v = 0;
    NumStatus st = num_scan_digits(&end, lo, hi, &v);
    if (*end) {
        snprintf(msg, 160, "%s field '%.40s': unexpected '%c' at character %d", name, field, *end,
                 (int)(end - field) + 1);
        return -1;
    }
    if (st != NUM_OK) {
        snprintf(msg, 160, "%s field '%.40s' out of range %ld-%ld", name, field, lo, hi);
        return -1;
    }
    *out = (long)v;
    return 0;
}

/* Section 2 and 6: no side has more pieces of a type than it starts with. */
static int check_counts(const ShatraPos *p, char msg[160])
{
    static const char *const NAMES[SH_TYPES] = {"", "Biys", "Batyrs", "Turas", "Yalkyns", "shatras"};
    for (int c = 0; c < 2; c++)
        for (int t = SH_BIY; t < SH_TYPES; t++) {
            int n = __builtin_popcountll(p->color[c] & p->type[t]);
            if (t == SH_BIY && n > 1) {
                snprintf(msg, 160, "board: %s has %s Biys", c == COLOR_WHITE ? "White" : "Black",
                         n == 2 ? "two" : "more than two");
                return -1;
            }
            if (n > SH_START_COUNT[t]) {
                snprintf(msg, 160, "board: %s has %d %s, more than the %d it starts with (promotion only brings "
                         "back a captured piece)", c == COLOR_WHITE ? "White" : "Black", n, NAMES[t],
                         SH_START_COUNT[t]);
                return -1;
            }
        }
    return 0;
}

static int parse_board(ShatraPos *p, const char *board, char msg[160])
{
    const char *s = board;
    int idx = 0;
    for (int r = 0; r < 14; r++) {
        int width = shatra_rank_width[r], used = 0;
        while (*s && *s != '/') {
            int pos = (int)(s - board) + 1;
            if (isdigit((unsigned char)*s)) {
                int run = *s - '0';
                if (run < 1) {
                    snprintf(msg, 160, "board: rank %d: '0' at character %d is no run of empty squares (1..%d)",
                             14 - r, pos, width);
                    return -1;
                }
                if (used + run > width) {
                    snprintf(msg, 160, "board: rank %d has %d squares, '%c' at character %d overflows it", 14 - r,
                             width, *s, pos);
                    return -1;
                }
                used += run;
                idx += run;
            } else {
                int color;
                int ty = piece_of_char(*s, &color);
                if (ty == SH_EMPTY) {
                    snprintf(msg, 160, "board: unknown piece '%c' at character %d (K Q R B S, lower case for Black)",
                             *s, pos);
                    return -1;
                }
                if (used + 1 > width) {
                    snprintf(msg, 160, "board: rank %d has %d squares, '%c' at character %d overflows it", 14 - r,
                             width, *s, pos);
                    return -1;
                }
                p->color[color] |= sh_bit(idx);
                p->type[ty] |= sh_bit(idx);
                used++;
                idx++;
            }
            s++;
        }
        if (used != width) {
            snprintf(msg, 160, "board: rank %d has %d squares, the string gives %d", 14 - r, width, used);
            return -1;
        }
        if (r < 13) {
            if (*s != '/') {
                snprintf(msg, 160, "board: %d ranks given, 14 needed (rank 14 down to rank 1)", r + 1);
                return -1;
            }
            s++;
        } else if (*s) {
            snprintf(msg, 160, "board: more than 14 ranks ('%c' at character %d)", *s, (int)(s - board) + 1);
            return -1;
        }
    }
    return 0;
}

/* Parse the sideways-step field: "X-Y[,X-Y]" or "-". */
static int parse_sidestep(ShatraPos *p, const char *field, char msg[160])
{
    if (strcmp(field, "-") == 0) return 0;
    const ShatraTables *t = &shatra_tables;
    const char *s = field;
    for (;;) {
        char *end;
        int64_t xv = 0, yv = 0;
        const char *q = s;
        bool in_range = num_scan_digits(&q, 1, 62, &xv) == NUM_OK;
        if (q == s || *q != '-' || !isdigit((unsigned char)q[1])) {
            snprintf(msg, 160, "sidestep field '%.40s': expected X-Y at character %d", field, (int)(s - field) + 1);
            return -1;
        }
        q++;
        in_range &= num_scan_digits(&q, 1, 62, &yv) == NUM_OK;
        end = (char *)q;
        long x = (long)xv, y = (long)yv;
        if (!in_range) {
            snprintf(msg, 160, "sidestep field '%.40s': a square at character %d is not 1-62", field,
                     (int)(s - field) + 1);
            return -1;
        }
        if (!(t->nb[x - 1][SH_E] == y - 1 || t->nb[x - 1][SH_W] == y - 1)) {
            snprintf(msg, 160, "sidestep field '%.40s': %ld-%ld is not a sideways step", field, x, y);
            return -1;
        }
        int color = (p->color[COLOR_WHITE] >> (y - 1) & 1) ? COLOR_WHITE : COLOR_BLACK;
        if (!(p->color[color] & p->type[SH_SHATRA] & sh_bit((int)y - 1))) {
            snprintf(msg, 160, "sidestep field '%.40s': no shatra stands on %ld", field, y);
            return -1;
        }
        uint64_t home = t->own_half[color] | t->fort_gate[color];
        if (home & (sh_bit((int)x - 1) | sh_bit((int)y - 1))) {
            snprintf(msg, 160, "sidestep field '%.40s': %s shatras step sideways only past the moat, not %ld-%ld",
                     field, color == COLOR_WHITE ? "White" : "Black", x, y);
            return -1;
        }
        if (p->sidestep[color][0]) {
            snprintf(msg, 160, "sidestep field '%.40s': two entries for %s", field,
                     color == COLOR_WHITE ? "White" : "Black");
            return -1;
        }
        p->sidestep[color][0] = (uint8_t)x;
        p->sidestep[color][1] = (uint8_t)y;
        if (*end == '\0') return 0;
        if (*end != ',') {
            snprintf(msg, 160, "sidestep field '%.40s': unexpected '%c' at character %d", field, *end,
                     (int)(end - field) + 1);
            return -1;
        }
        s = end + 1;
    }
}

static int sh_pos_from_fen_raw(Position *pos, const char *fen, char err[ERR_MAX])
{
    memset(pos, 0, sizeof *pos);
    ShatraPos *p = shpw(pos);
    const ShatraTables *t = &shatra_tables;
    char msg[160];
    char buf[FEN_MAX];
    const char *s = fen;
    while (isspace((unsigned char)*s)) s++;
    if (strnlen(s, sizeof buf) >= sizeof buf) {
        snprintf(msg, sizeof msg, "longer than %d bytes", FEN_MAX - 1);
        return fen_error(err, fen, msg);
    }
    snprintf(buf, sizeof buf, "%s", s);
    char *fields[9];
    int n = 0;
    for (char *f = strtok(buf, " \t\r\n"); f; f = strtok(NULL, " \t\r\n")) {
        if (n == 8) return fen_error(err, fen, "more than 8 fields");
        fields[n++] = f;
    }
    if (n < 6)
        return fen_error(
            err, fen,
            "needs the fields <board> <side> <reserve> <urgent> <ep> <sidestep> [<quiet-plies> <move-number>]");
    if (parse_board(p, fields[0], msg) != 0) return fen_error(err, fen, msg);
    if (check_counts(p, msg) != 0) return fen_error(err, fen, msg);
    if (strcmp(fields[1], "w") == 0)
        p->side = COLOR_WHITE;
    else if (strcmp(fields[1], "b") == 0)
        p->side = COLOR_BLACK;
    else {
        snprintf(msg, sizeof msg, "side field '%.20s' must be w or b", fields[1]);
        return fen_error(err, fen, msg);
    }
    /* Only the side to move may lack its Biy (it was just captured: the
     * game is over); the side that just moved always has one. */
    if (!(p->color[p->side ^ 1] & p->type[SH_BIY]))
        return fen_error(err, fen, p->side == COLOR_WHITE ? "board: Black, who just moved, has no Biy"
                                                          : "board: White, who just moved, has no Biy");
    if (parse_square_set(fields[2], "reserve", &p->reserve, msg) != 0) return fen_error(err, fen, msg);
    for (uint64_t b = p->reserve; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        bool ok = false;
        for (int c = 0; c < 2; c++) ok |= (p->color[c] & t->fort_gate[c] & sh_bit(sq)) != 0;
        if (!ok) {
            snprintf(msg, sizeof msg,
                     "reserve field: square %d holds no piece of the side whose fortress or gate it is", sq + 1);
            return fen_error(err, fen, msg);
        }
    }
    if (parse_square_set(fields[3], "urgent", &p->urgent, msg) != 0) return fen_error(err, fen, msg);
    if (p->urgent & ~p->reserve) {
        snprintf(msg, sizeof msg, "urgent field: square %d is not in the reserve field",
                 __builtin_ctzll(p->urgent & ~p->reserve) + 1);
        return fen_error(err, fen, msg);
    }
    if (strcmp(fields[4], "-") != 0) {
        long v;
        if (parse_number(fields[4], "ep", 1, 62, &v, msg) != 0) return fen_error(err, fen, msg);
        int via = (int)v - 1, mover = p->side ^ 1;
        int from = t->nb[via][t->forward[mover] ^ 4], to = t->nb[via][t->forward[mover]];
        bool ok = from >= 0 && to >= 0 && t->two_via[mover][from] == via &&
                  !((p->color[0] | p->color[1]) & (sh_bit(from) | sh_bit(via))) &&
                  (p->color[mover] & p->type[SH_SHATRA] & sh_bit(to));
        if (!ok) {
            snprintf(msg, sizeof msg,
                     "ep field: %ld is not a square just skipped by a two-step of %s (both squares behind the shatra "
                     "empty, its shatra on the next one)",
                     v, mover == COLOR_WHITE ? "White" : "Black");
            return fen_error(err, fen, msg);
        }
        p->ep = (uint8_t)v;
    }
    if (parse_sidestep(p, fields[5], msg) != 0) return fen_error(err, fen, msg);
    long quiet = 0, move_number = 1;
    if (n > 6 && parse_number(fields[6], "quiet-plies", 0, 255, &quiet, msg) != 0) return fen_error(err, fen, msg);
    if (n > 7 && parse_number(fields[7], "move-number", 1, 65535, &move_number, msg) != 0)
        return fen_error(err, fen, msg);
    p->quiet = (uint8_t)quiet;
    p->reversible = (uint16_t)quiet;
    p->move_number = (uint16_t)move_number;
    p->key = shatra_hash_full(p);
    return 0;
}

static void sh_pos_to_fen(const Position *pos, char out[FEN_MAX])
{
    const ShatraPos *p = shp(pos);
    int n = 0, idx = 0;
    for (int r = 0; r < 14; r++) {
        int run = 0;
        for (int f = 0; f < shatra_rank_width[r]; f++, idx++) {
            int ty = sh_type_at(p, idx);
            if (ty == SH_EMPTY) {
                run++;
                continue;
            }
            if (run) n += snprintf(out + n, FEN_MAX - (size_t)n, "%d", run);
            run = 0;
            char ch = PIECE_CHARS[ty];
            out[n++] = (p->color[COLOR_BLACK] >> idx & 1) ? (char)tolower((unsigned char)ch) : ch;
        }
        if (run) n += snprintf(out + n, FEN_MAX - (size_t)n, "%d", run);
        if (r < 13) out[n++] = '/';
    }
    n += snprintf(out + n, FEN_MAX - (size_t)n, " %c ", p->side == COLOR_WHITE ? 'w' : 'b');
    n += write_square_set(p->reserve, out + n, FEN_MAX - (size_t)n);
    out[n++] = ' ';
    n += write_square_set(p->urgent, out + n, FEN_MAX - (size_t)n);
    if (p->ep)
        n += snprintf(out + n, FEN_MAX - (size_t)n, " %d ", p->ep);
    else
        n += snprintf(out + n, FEN_MAX - (size_t)n, " - ");
    /* Sideways-step entries in increasing order of X, only while the
     * shatra still stands on Y. */
    int entries[2], ne = 0;
    for (int c = 0; c < 2; c++) {
        const uint8_t *e = p->sidestep[c];
        if (e[0] && (p->color[c] & p->type[SH_SHATRA] & sh_bit(e[1] - 1))) entries[ne++] = c;
    }
    if (ne == 2 && p->sidestep[entries[0]][0] > p->sidestep[entries[1]][0]) {
        int tmp = entries[0];
        entries[0] = entries[1];
        entries[1] = tmp;
    }
    if (!ne) n += snprintf(out + n, FEN_MAX - (size_t)n, "-");
    for (int i = 0; i < ne; i++)
        n += snprintf(out + n, FEN_MAX - (size_t)n, "%s%d-%d", i ? "," : "", p->sidestep[entries[i]][0],
                      p->sidestep[entries[i]][1]);
    snprintf(out + n, FEN_MAX - (size_t)n, " %d %d", p->quiet, p->move_number);
}

/* ------------------------------------------------------------------ */
/* Move notation (section 8)                                           */

static bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured && a->promo == b->promo &&
           a->kind == b->kind;
}

static int promo_char(int promo) { return promo >= SH_BATYR && promo <= SH_YALKYN ? PROMO_CHARS[promo] : '?'; }

static void write_route(const ShatraRoute *r, int from, char out[MOVE_STR_MAX])
{
    int n = snprintf(out, MOVE_STR_MAX, "%d", from + 1);
    for (int j = 0; j < r->len && n < MOVE_STR_MAX - 8; j++) {
        n += snprintf(out + n, MOVE_STR_MAX - (size_t)n, ":%d", r->path[j] + 1);
        if (j == r->promo_at) n += snprintf(out + n, MOVE_STR_MAX - (size_t)n, "=%c", promo_char(r->move.promo));
    }
}

static void sh_move_to_str(const Position *pos, const Move *m, char out[MOVE_STR_MAX])
{
    switch (m->kind) {
    case MOVE_DROP: snprintf(out, MOVE_STR_MAX, "%d*%d", m->from + 1, m->to + 1); return;
    case MOVE_PROMOTE: snprintf(out, MOVE_STR_MAX, "%d=%c", m->from + 1, promo_char(m->promo)); return;
    case MOVE_QUIET:
        if (m->promo)
            snprintf(out, MOVE_STR_MAX, "%d-%d=%c", m->from + 1, m->to + 1, promo_char(m->promo));
        else
            snprintf(out, MOVE_STR_MAX, "%d-%d", m->from + 1, m->to + 1);
        return;
    default: break;
    }
    ShatraRoutes *routes = malloc(sizeof *routes);
    if (routes) {
        shatra_routes_from(shp(pos), m->from, routes);
        for (int i = 0; i < routes->len; i++) {
            if (same_move(&routes->routes[i].move, m)) {
                write_route(&routes->routes[i], m->from, out);
                free(routes);
                return;
            }
        }
        free(routes);
    }
    /* Not a legal capture of this position: start:end. */
    if (m->promo)
        snprintf(out, MOVE_STR_MAX, "%d:%d=%c", m->from + 1, m->to + 1, promo_char(m->promo));
    else
        snprintf(out, MOVE_STR_MAX, "%d:%d", m->from + 1, m->to + 1);
}

enum { PARSE_SQUARES_MAX = SH_ROUTE_MAX + 1 };

typedef struct ParsedMove {
    int kind; /* MOVE_QUIET ('-'), MOVE_CAPTURE (':'), MOVE_DROP ('*'), MOVE_PROMOTE (lone square) */
    int n;    /* squares given */
    int sq[PARSE_SQUARES_MAX];
    int promo;    /* piece type after '=', or 0 */
    int promo_at; /* index into sq of the square the '=' follows, or -1 */
} ParsedMove;

static int parse_move_text(const char *text, ParsedMove *pm, char err[ERR_MAX])
{
    const char *s = text;
    memset(pm, 0, sizeof *pm);
    pm->kind = -1;
    pm->promo_at = -1;
    while (isspace((unsigned char)*s)) s++;
    for (;;) {
        if (!isdigit((unsigned char)*s)) {
            snprintf(err, ERR_MAX, "move '%.60s': expected a square number at character %d", text, (int)(s - text) + 1);
            return -1;
        }
        const char *at = s;
        int64_t v = 0;
        if (num_scan_digits(&s, 1, 62, &v) != NUM_OK) {
            snprintf(err, ERR_MAX, "move '%.60s': square %.*s does not exist (squares are 1-62)", text,
                     (int)(s - at < 24 ? s - at : 24), at);
            return -1;
        }
        const char *end = s;
        if (pm->n == PARSE_SQUARES_MAX) {
            snprintf(err, ERR_MAX, "move '%.60s' is too long", text);
            return -1;
        }
        pm->sq[pm->n++] = (int)v - 1;
        s = end;
        if (*s == '=') {
            int color;
            int ty = piece_of_char(s[1], &color);
            if (pm->promo || !(ty >= SH_BATYR && ty <= SH_YALKYN)) {
                snprintf(err, ERR_MAX, "move '%.60s': bad promotion at character %d (=Q, =R or =B, once)", text,
                         (int)(s - text) + 1);
                return -1;
            }
            pm->promo = ty;
            pm->promo_at = pm->n - 1;
            s += 2;
        }
        int sep = *s == '-' ? MOVE_QUIET : *s == ':' ? MOVE_CAPTURE : *s == '*' ? MOVE_DROP : -1;
        if (sep < 0) break;
        if (pm->kind >= 0 && sep != pm->kind) {
            snprintf(err, ERR_MAX, "move '%.60s': mixed separators at character %d", text, (int)(s - text) + 1);
            return -1;
        }
        if (sep != MOVE_CAPTURE && pm->n >= 2) {
            snprintf(err, ERR_MAX, "move '%.60s': only a capture lists more than two squares", text);
            return -1;
        }
        pm->kind = sep;
        s++;
    }
    while (isspace((unsigned char)*s)) s++;
    if (*s) {
        snprintf(err, ERR_MAX, "move '%.60s': unexpected '%c' at character %d", text, *s, (int)(s - text) + 1);
        return -1;
    }
    if (pm->kind < 0) pm->kind = MOVE_PROMOTE;
    if (pm->kind == MOVE_PROMOTE && !pm->promo) {
        snprintf(err, ERR_MAX, "move '%.60s' needs a start and an end square", text);
        return -1;
    }
    if (pm->kind == MOVE_DROP && pm->promo) {
        snprintf(err, ERR_MAX, "move '%.60s': a drop does not promote", text);
        return -1;
    }
    if (pm->kind == MOVE_QUIET && pm->promo && pm->promo_at != 1) {
        snprintf(err, ERR_MAX, "move '%.60s': the promotion follows the end square", text);
        return -1;
    }
    return 0;
}

/* Does route r match the landing squares and promotion given exactly? */
static bool route_matches(const ShatraRoute *r, const ParsedMove *pm)
{
    if (r->len != pm->n - 1) return false;
    for (int j = 0; j < r->len; j++)
        if (r->path[j] != pm->sq[j + 1]) return false;
    if (!pm->promo) return r->promo_at < 0;
    return r->promo_at == pm->promo_at - 1 && r->move.promo == pm->promo;
}

static int sh_move_from_str_raw(const Position *pos, const char *text, Move *move, char err[ERR_MAX])
{
    const ShatraPos *p = shp(pos);
    ParsedMove pm;
    if (parse_move_text(text, &pm, err) != 0) return -1;
    MoveList *list = malloc(sizeof *list);
    ShatraRoutes *routes = pm.kind == MOVE_CAPTURE ? malloc(sizeof *routes) : NULL;
    if (!list || (pm.kind == MOVE_CAPTURE && !routes)) {
        free(list);
        free(routes);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    shatra_gen(p, list, GEN_DISTINCT);
    enum { CAND_MAX = 8 }; /* the moves an ambiguous text may mean, named in the message */
    Move cand[CAND_MAX];
    int found = 0;
    int from = pm.sq[0], to = pm.sq[pm.n - 1];
    if (pm.kind == MOVE_CAPTURE) {
        /* Full notation: a route of the move is exactly the given list. */
        shatra_routes_from(p, from, routes);
        for (int i = 0; i < list->len && found < CAND_MAX; i++) {
            const Move *m = &list->moves[i];
            if (m->kind != MOVE_CAPTURE || m->from != from || m->to != to) continue;
            bool exact = false;
            for (int r = 0; r < routes->len && !exact; r++)
                exact = same_move(&routes->routes[r].move, m) && route_matches(&routes->routes[r], &pm);
            if (exact) cand[found++] = *m;
        }
        /* Short form start:end (optionally =X): one move only. */
        if (found == 0 && pm.n == 2) {
            for (int i = 0; i < list->len && found < CAND_MAX; i++) {
                const Move *m = &list->moves[i];
                if (m->kind == MOVE_CAPTURE && m->from == from && m->to == to && (!pm.promo || m->promo == pm.promo))
                    cand[found++] = *m;
            }
        }
    } else {
        for (int i = 0; i < list->len && found < CAND_MAX; i++) {
            const Move *m = &list->moves[i];
            if (m->kind != pm.kind || m->from != from || m->to != to) continue;
            if (pm.promo ? m->promo != pm.promo : false) continue;
            cand[found++] = *m;
        }
    }
    int rc = 0;
    if (found == 1) {
        *move = cand[0];
    } else if (found == 0) {
        const char *why = "";
        if (shatra_capture_compulsory(p))
            why = " (a capture is compulsory)";
        else if (p->urgent & p->color[p->side])
            why = " (an urgent piece must be dropped)";
        snprintf(err, ERR_MAX, "illegal move '%.60s'%s", text, why);
        rc = -1;
    } else {
        /* every move it may mean: "5-2=Q, 5-2=R or 5-2=B" */
        int n = snprintf(err, ERR_MAX, "ambiguous move '%.40s': ", text);
        for (int i = 0; i < found && n > 0 && n < ERR_MAX; i++) {
            char m[MOVE_STR_MAX];
            sh_move_to_str(pos, &cand[i], m);
            n += snprintf(err + n, ERR_MAX - (size_t)n, "%s%.60s", i == 0 ? "" : i == found - 1 ? " or " : ", ", m);
        }
        rc = -1;
    }
    free(list);
    free(routes);
    return rc;
}

/* The parsers as the Game table gives them: messages made printable
 * (a binary input quoted in one is shown as \\xNN; game.h). */
static int sh_pos_from_fen(Position *pos, const char *fen, char err[ERR_MAX])
{
    int rc = sh_pos_from_fen_raw(pos, fen, err);
    if (rc != 0) game_err_printable(err);
    return rc;
}

static int sh_move_from_str(const Position *pos, const char *text, Move *move, char err[ERR_MAX])
{
    int rc = sh_move_from_str_raw(pos, text, move, err);
    if (rc != 0) game_err_printable(err);
    return rc;
}


/* ------------------------------------------------------------------ */
/* Game-table functions                                                */

static int sh_gen_moves(const Position *pos, MoveList *list, GenMode mode) { return shatra_gen(shp(pos), list, mode); }
static bool sh_has_capture(const Position *pos) { return shatra_capture_compulsory(shp(pos)); }
static bool sh_is_quiet(const Position *pos)
{
    const ShatraPos *p = shp(pos);
    return !shatra_side_can_capture(p, COLOR_WHITE) && !shatra_side_can_capture(p, COLOR_BLACK);
}
static void sh_make_move(const Position *pos, const Move *m, Position *child) { shatra_make(shp(pos), m, shpw(child)); }
static Color sh_side_to_move(const Position *pos) { return (Color)shp(pos)->side; }
static uint64_t sh_hash(const Position *pos) { return shp(pos)->key; }
static uint64_t sh_hash_full(const Position *pos) { return shatra_hash_full(shp(pos)); }
static int sh_reversible_plies(const Position *pos) { return shp(pos)->reversible; }
static uint64_t sh_perft(const Position *pos, int depth, GenMode mode) { return shatra_perft(shp(pos), depth, mode); }

/* Section 7, in its order. "No legal turn" (the side to move loses) and
 * threefold repetition are game_outcome's; the two draws checked here give
 * way to a loss by having no legal turn, which comes first. */
static Outcome sh_rule_outcome(const Position *pos, const char **reason)
{
    const ShatraPos *p = shp(pos);
    uint64_t biys = p->type[SH_BIY];
    bool white = (p->color[COLOR_WHITE] & biys) != 0, black = (p->color[COLOR_BLACK] & biys) != 0;
    if (!white || !black) {
        *reason = "biy-captured";
        if (white) return OUTCOME_WHITE_WINS;
        if (black) return OUTCOME_BLACK_WINS;
        /* Neither Biy (only from a position string): the side to move
         * cannot move; it has lost. */
        return p->side == COLOR_WHITE ? OUTCOME_BLACK_WINS : OUTCOME_WHITE_WINS;
    }
    bool only_biys = ((p->color[0] | p->color[1]) & ~biys) == 0;
    if (!only_biys && p->quiet < 60) return OUTCOME_NONE;
    MoveList list;
    if (shatra_gen(p, &list, GEN_DISTINCT) == 0) return OUTCOME_NONE; /* game_outcome: no legal turn */
    *reason = only_biys ? "biys-only" : "quiet-60";
    return OUTCOME_DRAW;
}

/* Can the Biy of `side` be captured right now, by any chain of the
 * opponent (as if the opponent were to move; the en-passant right only if
 * it really is)? */
static bool sh_move_is_royal(const Position *pos, const Move *m)
{
    const ShatraPos *p = (const ShatraPos *)pos->data;
    return m->kind != MOVE_PROMOTE && m->from < SH_SQUARES && (p->type[SH_BIY] >> m->from & 1);
}

static bool sh_royal_attacked(const Position *pos, Color side)
{
    ShatraPos q = *shp(pos);
    uint64_t biy = q.color[side] & q.type[SH_BIY];
    if (!biy) return false;
    if (q.side != (side ^ 1)) {
        q.side = (uint8_t)(side ^ 1);
        q.ep = 0;
    }
    if (!shatra_side_can_capture(&q, side ^ 1)) return false; /* no capture at all: no list needed */
    MoveList list;
    shatra_gen(&q, &list, GEN_DISTINCT);
    for (int i = 0; i < list.len; i++)
        if (list.moves[i].captured & biy) return true;
    return false;
}

/* Ordering values, centi-shatras: rounded from the tuned piece values in
 * play (README: Batyr 777, Tura 525, Yalkyn 352, shatra 100). */
static int sh_capture_value(const Position *pos, const Move *m)
{
    const ShatraPos *p = shp(pos);
    uint64_t c = m->captured & p->color[p->side ^ 1];
    if (!c) return 0;
    if (c & p->type[SH_BIY]) return GAME_ROYAL_VALUE;
    return 800 * __builtin_popcountll(c & p->type[SH_BATYR]) + 500 * __builtin_popcountll(c & p->type[SH_TURA]) +
           350 * __builtin_popcountll(c & p->type[SH_YALKYN]) + 100 * __builtin_popcountll(c & p->type[SH_SHATRA]);
}

static uint64_t mirror_set(uint64_t b)
{
    uint64_t r = 0;
    for (; b; b &= b - 1) r |= sh_bit(61 - __builtin_ctzll(b));
    return r;
}

static void sh_pos_mirror(const Position *pos, Position *out)
{
    const ShatraPos *p = shp(pos);
    memset(out, 0, sizeof *out);
    ShatraPos *q = shpw(out);
    q->color[COLOR_WHITE] = mirror_set(p->color[COLOR_BLACK]);
    q->color[COLOR_BLACK] = mirror_set(p->color[COLOR_WHITE]);
    for (int t = 0; t < SH_TYPES; t++) q->type[t] = mirror_set(p->type[t]);
    q->reserve = mirror_set(p->reserve);
    q->urgent = mirror_set(p->urgent);
    q->side = (uint8_t)(p->side ^ 1);
    q->ep = p->ep ? (uint8_t)(62 - (p->ep - 1)) : 0;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 2; i++) q->sidestep[c ^ 1][i] = p->sidestep[c][i] ? (uint8_t)(63 - p->sidestep[c][i]) : 0;
    q->quiet = p->quiet;
    q->reversible = p->reversible;
    q->move_number = p->move_number;
    q->key = shatra_hash_full(q);
}

static int32_t sh_evaluate(const Position *pos, const int32_t *w) { return shatra_evaluate(pos, w); }

static int32_t sh_evaluate_trace(const Position *pos, const int32_t *w, EvalTrace *trace)
{
    return eval_trace_with(shatra_evaluate_traced, pos, w, trace);
}

static const EvalTerm SH_TERMS[] = {
#define TERM(name, count, doc) {#name, ST_##name, count, doc},
#include "engine/games/shatra/eval_terms.def"
#undef TERM
#define TERM(name, count, doc) {#name "_EG", ST_##name##_EG, count, "endgame twin of " #name " (taper: Game.eg_offset): " doc},
#include "engine/games/shatra/eval_terms.def"
#undef TERM
};

static bool sh_term_computed(int group)
{
    if (group < 0 || group >= (int)(sizeof SH_TERMS / sizeof SH_TERMS[0])) return false;
    int off = SH_TERMS[group].offset;
    if (off >= ST_EG_OFFSET) off -= ST_EG_OFFSET;
    if (off == ST_FORTRESS_STATE) return SH_REL_FORTRESS != 0;
    if (off == ST_PIECE_SAFETY) return SH_REL_SAFETY != 0;
    if (off == ST_PIECE_PAIR) return SH_REL_PAIR != 0;
    if (off == ST_PIECE_SET) return SH_REL_SET != 0;
    return true;
}

#define SHATRA_START "sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 1"

/* Positions from self-play games of the start weights: the opening, the
 * middle game (an en-passant right, an urgent piece, a sideways-step entry),
 * an open fortress. */
static const char *const SH_BENCH[] = {
    SHATRA_START,
    "sqs/srs/br1/k/s3ss1/7/1s2b2/S1S1S1R/7/3S1SS/K/2B/SRS/SQS w 1-8,10,53,56-62 - 19 - 0 9",
    "sqs/srs/b1b/1/1ss1ss1/3rk2/s5s/7/2S2B1/S4SS/K/1RB/SRS/SQS w 1-7,9,53,55-62 - - - 1 9",
    "sqs/s1s/b1b/1/2sr2s/1s2k2/S3s2/2S2RB/6S/SK3S1/1/1r1/2S/SQS w 1-4,6-7,9,59-62 - - - 0 18",
    "s1s/s2/3/1/s1S3b/k3s1R/7/2S1S2/5K1/5SS/1/2S/S1S/2S w 1,3-4,56-57,59,62 56 - - 0 18",
    "s2/3/3/1/2S3b/k4ss/7/4SSS/4SK1/2s1SSS/1/3/3/3 w 1 - - 49-48 0 23",
    NULL,
};

/* Search defaults measured for Shatra (engine/search_params.def gives the
 * evidence where it was written down). */
static const GameSearchParam SH_SEARCH[] = {
    {"ASP_WINDOW", 25}, {"LMR_MIN_MOVE", 2}, {"LMR_BASE", 80},     {"LMR_DIV", 180}, {"PC_MARGIN", 80},
    {"RFP_DEPTH", 3},   {"FUT_DEPTH", 1},    {"LMP_DEPTH", 3},     {"ETC_DEPTH", 5}, {"ROYAL_EXT", 1},
    {"PV_TT_CUT", 0},   {"SMP_AHEAD", 0},    {"THREAT_EXT_MAX", 1}, {"TM_DROP_CP", 40}, {NULL, 0},
};

const Game shatra_game = {
    .name = "shatra",
    .title = "Shatra",
    .pdn_gametype = 0,
    .pos_size = sizeof(ShatraPos),
    .start_fen = SHATRA_START,
    .pos_from_fen = sh_pos_from_fen,
    .pos_to_fen = sh_pos_to_fen,
    .gen_moves = sh_gen_moves,
    .has_capture = sh_has_capture,
    .is_quiet = sh_is_quiet,
    .make_move = sh_make_move,
    .side_to_move = sh_side_to_move,
    .hash = sh_hash,
    .hash_full = sh_hash_full,
    .reversible_plies = sh_reversible_plies,
    .rule_outcome = sh_rule_outcome,
    .royal_attacked = sh_royal_attacked,
    .move_is_royal = sh_move_is_royal,
    .capture_value = sh_capture_value,
    .repetition_reason = "repetition",
    .rule_draw_reasons = "biys-only,quiet-60",
    .move_to_str = sh_move_to_str,
    .move_from_str = sh_move_from_str,
    .perft = sh_perft,
    .terms_len = (int)(sizeof SH_TERMS / sizeof SH_TERMS[0]),
    .terms = SH_TERMS,
    .weights_len = ST_WEIGHTS_LEN,
    .eg_offset = ST_EG_OFFSET,
    .phase_max = ST_PHASE_MAX,
    .scale_weight = ST_SHATRA, /* a shatra in play = 100; the BIY term is 0 in every live position */
    .weights_default = sh_weights_default,
    .weights_header = &SH_HEADER,
    .weights_lineage = SHATRA_WEIGHTS_LINEAGE,
    .evaluate = sh_evaluate,
    .evaluate_trace = sh_evaluate_trace,
    .term_computed = sh_term_computed,
    .pos_mirror = sh_pos_mirror,
    .bench_fens = SH_BENCH,
    .bench_depth = 8,
    .perft_bench_depth = 5,
    .opening_book = NULL,
    .init = shatra_init,
    .search_params = SH_SEARCH,
    .egtb = NULL,
    .board_text = shatra_board_text,
    .move_examples = "49-42, 41:27:13, drops 57*40, promotions 13-3=R",
    .board_rows = shatra_rank_width,
    .value_unit = "a shatra = 100",
    .terms_build_option = "CMake -DDAMA_SHATRA_RELATIONS, docs/eval.md",
};

_Static_assert(sizeof(ShatraPos) <= POS_SIZE_MAX, "ShatraPos must fit a Position");
