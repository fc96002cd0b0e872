/* hub_notation.c — Hub's position and move strings for International
 * draughts; see hub_notation.h. */
#include "protocol/hub_notation.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hub's board is International draughts' (PDN 3.0 GameType 20): a game is
 * known by its GameType here, not by its name. */
enum { HUB_PDN_GAMETYPE = 20 };

bool hub_native(const Game *g) { return g && g->pdn_gametype == HUB_PDN_GAMETYPE; }

/* The name of the game that speaks Hub's strings, for messages. */
static const char *native_name(void)
{
    for (const Game *const *g = game_list(); *g; g++)
        if (hub_native(*g)) return (*g)->name;
    return "none";
}

/* ---- positions ------------------------------------------------------------ */

/* A board of Hub's squares: side 'W' or 'B', sq[1..50] one of w b W B e. */
typedef struct HubBoard {
    char side;
    char sq[HUB_SQUARES + 1];
} HubBoard;

/* A number 1..HUB_SQUARES at *s, advancing *s; -1 if none. */
static int read_square(const char **s)
{
    if (!isdigit((unsigned char)**s)) return -1;
    int v = 0;
    while (isdigit((unsigned char)**s) && v <= HUB_SQUARES) v = v * 10 + (*(*s)++ - '0');
    return v >= 1 && v <= HUB_SQUARES && !isdigit((unsigned char)**s) ? v : -1;
}

/* The board of a numbered PDN FEN as the game writes it (`W:W31,K46:B1`,
 * ranges read too). Returns 0, or -1 if fen is not of that form. */
static int fen_board(const char *fen, HubBoard *b)
{
    memset(b->sq, 'e', sizeof b->sq);
    if (fen[0] != 'W' && fen[0] != 'B') return -1;
    b->side = fen[0];
    const char *p = fen + 1;
    while (*p == ':') {
        char colour = p[1];
        if (colour != 'W' && colour != 'B') return -1;
        p += 2;
        while (*p && *p != ':' && *p != '.') {
            bool king = *p == 'K';
            if (king) p++;
            int lo = read_square(&p), hi = lo;
            if (lo > 0 && *p == '-') p++, hi = read_square(&p);
            if (lo < 0 || hi < lo) return -1;
            for (int n = lo; n <= hi; n++) b->sq[n] = king ? colour : (char)tolower((unsigned char)colour);
            if (*p == ',') p++;
        }
    }
    if (*p == '.') p++;
    return *p ? -1 : 0;
}

static bool is_hub_string(const char *s)
{
    if ((s[0] != 'W' && s[0] != 'B') || !s[1]) return false;
    return s[1 + strspn(s + 1, "wbWBe")] == '\0';
}

/* Text meant as a Hub position string for the native game: letters only
 * (a FEN has ':', a keyword is start or startpos), two or more. */
static bool looks_like_hub_string(const char *s)
{
    if (strcmp(s, "start") == 0 || strcmp(s, "startpos") == 0 || !s[0] || !s[1]) return false;
    for (const char *p = s; *p; p++)
        if (!isalpha((unsigned char)*p)) return false;
    return true;
}

/* The native game's Hub string checked letter by letter: 0, or -1 with err
 * saying what was expected and where the first bad letter is. */
static int check_hub_string(const Game *g, const char *text, char err[ERR_MAX])
{
    size_t len = strlen(text);
    const char *more = len > 20 ? "..." : "";
    char what[120] = "";
    if (text[0] != 'W' && text[0] != 'B') {
        snprintf(what, sizeof what, "has '%c' at letter 1 (the side to move), not W or B", text[0]);
    } else {
        size_t bad = 1 + strspn(text + 1, "wbWBe");
        if (bad < len && bad <= HUB_SQUARES)
            snprintf(what, sizeof what, "has '%c' at letter %zu (square %zu), not w b W B or e", text[bad],
                     bad + 1, bad);
        else if (len != HUB_SQUARES + 1)
            snprintf(what, sizeof what, "has %zu letters, %s", len, len > HUB_SQUARES + 1 ? "too many" : "too few");
    }
    if (!what[0]) return 0;
    return err_set(err, "a Hub position string for variant %s is the side to move (W or B) and one letter per "
                        "square 1-%d (w b W B e), %d letters; '%.20s%s' %s",
                   g->name, HUB_SQUARES, HUB_SQUARES + 1, text, more, what);
}

int hub_pos_to_fen(const Game *g, const char *text, char fen[FEN_MAX], char err[ERR_MAX])
{
    if (!text) return 0;
    if (hub_native(g) ? !looks_like_hub_string(text) : !is_hub_string(text)) return 0;
    size_t len = strlen(text);
    const char *more = len > 20 ? "..." : "";
    if (!hub_native(g)) {
        return err_set(err, "a Hub position string ('%.20s%s', %zu characters) is read for variant %s only (%d "
                            "characters: the side to move and squares 1-%d); variant %s takes its own position "
                            "string (docs/hub.md), or pos=start",
                       text, more, len, native_name(), HUB_SQUARES + 1, HUB_SQUARES, g->name);
    }
    if (check_hub_string(g, text, err) != 0) return -1;
    size_t n = (size_t)snprintf(fen, FEN_MAX, "%c", text[0]);
    for (int c = 0; c < 2; c++) {
        char man = c ? 'b' : 'w', king = c ? 'B' : 'W';
        n += (size_t)snprintf(fen + n, FEN_MAX - n, ":%c", king);
        bool first = true;
        for (int sq = 1; sq <= HUB_SQUARES; sq++) {
            if (text[sq] != man && text[sq] != king) continue;
            n += (size_t)snprintf(fen + n, FEN_MAX - n, "%s%s%d", first ? "" : ",", text[sq] == king ? "K" : "", sq);
            first = false;
        }
    }
    return 1; /* at most 1 + 2 * 2 + 50 * 4 characters: well within FEN_MAX */
}

int hub_pos_string(const Game *g, const Position *pos, char out[HUB_POS_MAX], char err[ERR_MAX])
{
    char fen[FEN_MAX];
    HubBoard b;
    g->pos_to_fen(pos, fen);
    if (fen_board(fen, &b) != 0) return err_set(err, "%s: position '%.60s' is not a numbered FEN", g->name, fen);
    out[0] = b.side;
    memcpy(out + 1, b.sq + 1, HUB_SQUARES);
    out[HUB_SQUARES + 1] = '\0';
    return 0;
}

/* ---- moves ---------------------------------------------------------------- */

/* A move as Hub names it: start, end, step or capture, captured squares
 * (bit n-1 for square n). */
typedef struct HubMove {
    int from, to;
    bool capture;
    uint64_t caps;
} HubMove;

/* Parse Hub move text (`32-28`, `28x19`, `28x19x23`). Returns 0, or -1
 * with err quoting it. */
static int parse_hub_move(const char *text, HubMove *h, char err[ERR_MAX])
{
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    h->from = read_square(&s);
    h->capture = *s == 'x' || *s == 'X';
    h->caps = 0;
    bool sep = *s == '-' || h->capture;
    if (sep) s++;
    h->to = sep ? read_square(&s) : -1;
    while (h->from > 0 && h->to > 0 && h->capture && (*s == 'x' || *s == 'X')) {
        const char *at = s++;
        int c = read_square(&s);
        if (c < 0) {
            s = at; /* a trailing or bad "x": the check below refuses it */
            break;
        }
        if (h->caps >> (c - 1) & 1) /* a piece is captured once: the text is no move */
            return err_set(err, "move '%.60s': square %d is named twice among the captured squares", text, c);
        h->caps |= UINT64_C(1) << (c - 1);
    }
    while (isspace((unsigned char)*s)) s++;
    if (h->from < 0 || h->to < 0 || *s) {
        return err_set(err, "move '%.60s': Hub writes a step 32-28 and a capture 28x19, or 28x19x23 with the "
                            "captured squares (1-%d)",
                       text, HUB_SQUARES);
    }
    return 0;
}

/* The first and last square numbers of the game's own move text. */
static void text_ends(const char *t, int *from, int *to)
{
    *from = atoi(t);
    size_t n = strlen(t);
    while (n > 0 && isdigit((unsigned char)t[n - 1])) n--;
    *to = atoi(t + n);
}

/* How Hub names legal move m of pos (g native): the ends from the game's
 * text, the captured squares from the boards before and after (the
 * opponent's squares the move empties). Returns 0, or -1 when the game's
 * strings are not the numbered ones this reads. */
static int hub_move_of(const Game *g, const Position *pos, const Move *m, HubMove *h)
{
    char t[MOVE_STR_MAX];
    g->move_to_str(pos, m, t);
    text_ends(t, &h->from, &h->to);
    h->capture = m->kind == MOVE_CAPTURE;
    h->caps = 0;
    if (!h->capture) return 0;
    char f0[FEN_MAX], f1[FEN_MAX];
    Position child;
    HubBoard b0, b1;
    g->make_move(pos, m, &child);
    g->pos_to_fen(pos, f0);
    g->pos_to_fen(&child, f1);
    if (fen_board(f0, &b0) != 0 || fen_board(f1, &b1) != 0) return -1;
    char them = b0.side == 'W' ? 'b' : 'w';
    for (int n = 1; n <= HUB_SQUARES; n++)
        if (tolower((unsigned char)b0.sq[n]) == them && b1.sq[n] == 'e') h->caps |= UINT64_C(1) << (n - 1);
    return 0;
}

static void hub_move_text(const HubMove *h, char out[MOVE_STR_MAX])
{
    size_t n = (size_t)snprintf(out, MOVE_STR_MAX, "%d%c%d", h->from, h->capture ? 'x' : '-', h->to);
    for (int c = 1; c <= HUB_SQUARES; c++)
        if (h->caps >> (c - 1) & 1) n += (size_t)snprintf(out + n, MOVE_STR_MAX - n, "x%d", c);
}

void hub_move_to_str(const Game *g, const Position *pos, const Move *m, char out[MOVE_STR_MAX])
{
    HubMove h;
    if (!hub_native(g) || hub_move_of(g, pos, m, &h) != 0) {
        g->move_to_str(pos, m, out);
        return;
    }
    hub_move_text(&h, out);
}

/* The legal moves in Hub's form, for a message: "6x35x17x23x30, ..." cut
 * to fit out. */
static void list_moves(const Game *g, const Position *pos, const MoveList *list, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < list->len; i++) {
        char t[MOVE_STR_MAX];
        hub_move_to_str(g, pos, &list->moves[i], t);
        if (used + strlen(t) + 8 >= size) {
            snprintf(out + used, size - used, ", ...");
            return;
        }
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", t);
    }
}

int hub_move_from_str(const Game *g, const Position *pos, const char *text, Move *m, char err[ERR_MAX])
{
    if (!hub_native(g)) return g->move_from_str(pos, text, m, err);
    HubMove want;
    if (parse_hub_move(text, &want, err) != 0) return -1;
    MoveList *list = malloc(sizeof *list);
    if (!list) return err_set(err, "out of memory");
    g->gen_moves(pos, list, GEN_DISTINCT);
    int found = 0;
    Move cand[2];
    for (int i = 0; i < list->len && found < 2; i++) {
        HubMove h;
        if (hub_move_of(g, pos, &list->moves[i], &h) != 0) break;
        if (h.from == want.from && h.to == want.to && h.capture == want.capture && (want.caps & ~h.caps) == 0)
            cand[found++] = list->moves[i];
    }
    int rc = 0;
    if (found == 1) {
        *m = cand[0];
    } else if (found == 0) {
        char legal[100] = "";
        if (g->has_capture(pos)) list_moves(g, pos, list, legal, sizeof legal);
        rc = err_set(err, "illegal move '%.60s'%s%s%s", text, legal[0] ? " (a capture is compulsory: " : "", legal,
                     legal[0] ? ")" : "");
    } else {
        char a[MOVE_STR_MAX], b[MOVE_STR_MAX];
        hub_move_to_str(g, pos, &cand[0], a);
        hub_move_to_str(g, pos, &cand[1], b);
        rc = err_set(err, "ambiguous move '%.40s': %.60s or %.60s", text, a, b);
    }
    free(list);
    return rc;
}

int hub_apply_list(GameRecord *r, const char *list, char err[ERR_MAX])
{
    if (!hub_native(r->game)) return game_record_apply_list(r, list, err);
    int before = r->len, index = 0;
    const char *p = list ? list : "";
    for (;;) {
        p += strspn(p, " \t\r\n");
        if (!*p) return 0;
        size_t n = strcspn(p, " \t\r\n");
        char text[MOVE_STR_MAX], merr[ERR_MAX];
        index++;
        if (n >= sizeof text) {
            err_set(err, "move %d ('%.40s...') is too long", index, p);
            break;
        }
        memcpy(text, p, n);
        text[n] = '\0';
        const char *reason = NULL;
        Outcome o = game_record_outcome(r, &reason, NULL);
        Move m;
        if (o != OUTCOME_NONE) {
            err_set(err, "move %d: the game is over (%s %s): move '%.60s' cannot be played", index, outcome_pdn(o),
                    reason ? reason : "", text);
            break;
        }
        if (hub_move_from_str(r->game, game_record_position(r), text, &m, merr) != 0 ||
            game_record_apply(r, &m, merr) != 0) {
            err_set(err, "move %d: %.220s", index, merr);
            break;
        }
        p += n;
    }
    if (r->len > before) game_record_undo(r, r->len - before);
    return -1;
}
