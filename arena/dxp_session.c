/* dxp_session.c — games over DXP in either role; see dxp_session.h and
 * docs/dxp.md. */
#include "arena/dxp_session.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game_record.h"
#include "engine/search.h"
#include "util/clock.h"

enum {
    SLICE_MS = 250,     /* a wait looks at the stop flag this often */
    WAIT_MSGS = 10000   /* messages one wait reads at most (chats, bad ones) before it gives up */
};

typedef enum Step { STEP_ON = 0, STEP_DONE = 1, STEP_CLOSED = 2, STEP_FAIL = -1 } Step;

typedef struct Session {
    const DxpSessionOptions *o;
    DxpLink *link;
    DxpSessionStats *st;
    char *err;
    bool peer_stops;  /* the peer's GAMEEND said stop code 1 */
    bool last_game;   /* initiator: the game being played is the last (stop code 1) */
    bool has_pending; /* follower: a GAMEREQ came during a game */
    DxpMsg pending;
    char peer[DXP_NAME_LEN + 1];
    double recv_s;    /* when the last message was read (clock_now_s): a move's clock starts there */
} Session;

typedef struct DGame {
    int number;   /* 1-based */
    GameRecord rec;
    Color us;
    Player player;
    int64_t clock_ms; /* dama's clock, with a clock */
    int wait_ms;      /* longest wait for the opponent's message */
    int cap;          /* plies after which the side to move ends the game */
    Outcome outcome;
    const char *reason;
} DGame;

/* ---- messages ------------------------------------------------------------------- */

static int send_msg(Session *s, const DxpMsg *m) { return dxp_link_send_msg(s->link, m, s->err); }

/* A CHAT "dama: ..." (cut to the 126 characters a chat holds; bytes
 * outside ASCII become '?'). */
static int chat(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int chat(Session *s, const char *fmt, ...)
{
    DxpMsg m = {.type = DXP_CHAT};
    char text[ERR_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(text, sizeof text, "dama: ");
    vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    for (char *c = text; *c; c++) {
        if ((unsigned char)*c > 127 || (unsigned char)*c < 0x20) *c = '?';
    }
    size_t len = strnlen(text, DXP_CHAT_MAX);
    memcpy(m.u.chat, text, len);
    m.u.chat[len] = '\0';
    return send_msg(s, &m);
}

static int send_end(Session *s, int reason, int stop)
{
    DxpMsg m = {.type = DXP_GAMEEND};
    m.u.end.reason = reason;
    m.u.end.stop = stop;
    return send_msg(s, &m);
}

static bool stopping(const Session *s) { return s->o->stop && *s->o->stop; }

/* The stop code dama sends: 1 when it wants no further game. */
static int our_stop_code(const Session *s) { return stopping(s) || s->last_game ? DXP_STOP_ALL : DXP_STOP_NEXT; }

/* A message that has no place here: counted, answered by a chat. */
static int misplaced(Session *s, const DxpMsg *m, const char *where)
{
    s->st->bad_in++;
    return chat(s, "%s has no place %s (ignored)", dxp_type_name(m->type), where);
}

typedef enum Got { GOT_MSG = 1, GOT_TIMEOUT = 0, GOT_CLOSED = -1, GOT_ERROR = -2, GOT_STOPPED = -3 } Got;

/* The deadline (clock_now_s()) of a wait of wait_ms from now. */
static double deadline_in(int wait_ms) { return clock_now_s() + wait_ms / 1000.0; }

/* The next message that can be read, other than a CHAT, before the
 * deadline (clock_now_s(); the caller sets it once for all the messages of
 * one wait, so that neither chats, unreadable messages nor misplaced ones
 * put it off: a peer that chats every 0.1 s is timed out as one that is
 * silent). Chats are counted; a message that cannot be read is counted and
 * answered by a chat naming the problem, and the wait goes on (to the same
 * end). */
static Got next_msg(Session *s, double deadline, DxpMsg *m)
{
    for (int i = 0; i < WAIT_MSGS; i++) {
        if (stopping(s)) return GOT_STOPPED;
        char text[DXP_MSG_MAX + 1];
        size_t len = 0;
        double left_ms = (deadline - clock_now_s()) * 1000.0;
        if (left_ms <= 0.0) return GOT_TIMEOUT;
        int slice = left_ms < SLICE_MS ? (int)left_ms + 1 : SLICE_MS;
        DxpRecv r = dxp_link_recv(s->link, slice, text, &len, s->err);
        if (r == DXP_RECV_TIMEOUT) {
            i--; /* a quiet slice is not a message */
            continue;
        }
        if (r == DXP_RECV_CLOSED) return GOT_CLOSED;
        if (r == DXP_RECV_ERROR) return GOT_ERROR;
        s->recv_s = clock_now_s();
        char derr[ERR_MAX];
        if (r == DXP_RECV_TOO_LONG) {
            s->st->bad_in++;
            if (chat(s, "malformed message: longer than %d characters (ignored)", DXP_MSG_MAX) != 0) return GOT_ERROR;
            continue;
        }
        if (dxp_decode(text, len, m, derr) != 0) {
            s->st->bad_in++;
            if (chat(s, "malformed message: %s (ignored)", derr) != 0) return GOT_ERROR;
            continue;
        }
        if (m->type == DXP_CHAT) {
            s->st->chats_in++;
            continue;
        }
        return GOT_MSG;
    }
    snprintf(s->err, ERR_MAX, "%d messages without one that has its place: giving up", WAIT_MSGS);
    return GOT_ERROR;
}

/* err for a wait that ended without a message; STEP_CLOSED when the peer
 * closed. */
static Step wait_failed(Session *s, Got g, int timeout_ms, const char *what)
{
    if (g == GOT_CLOSED) return STEP_CLOSED;
    if (g == GOT_TIMEOUT) {
        snprintf(s->err, ERR_MAX, "no %s within %d s", what, timeout_ms / 1000);
        chat(s, "no %s within %d s: closing", what, timeout_ms / 1000);
    } else if (g == GOT_STOPPED) {
        snprintf(s->err, ERR_MAX, "stopped while waiting for %s", what);
    }
    return STEP_FAIL;
}

/* ---- one game ---------------------------------------------------------------------- */

static void set_result(DGame *g, Outcome o, const char *reason)
{
    g->outcome = o;
    g->reason = reason;
}

static Outcome win_for(Color c) { return c == COLOR_WHITE ? OUTCOME_WHITE_WINS : OUTCOME_BLACK_WINS; }

/* After dama sent GAMEEND: the peer's GAMEEND in answer. */
static Step wait_end(Session *s, DGame *g)
{
    DxpMsg m;
    double deadline = deadline_in(g->wait_ms);
    for (int i = 0; i < WAIT_MSGS; i++) {
        Got got = next_msg(s, deadline, &m);
        if (got == GOT_CLOSED) { /* the game is over: a peer may leave without answering */
            s->peer_stops = true;
            dxp_link_note(s->link, "the peer closed the connection instead of answering GAMEEND");
            return STEP_DONE;
        }
        if (got != GOT_MSG) return wait_failed(s, got, g->wait_ms, "GAMEEND in answer");
        if (m.type == DXP_GAMEEND) {
            if (m.u.end.stop == DXP_STOP_ALL) s->peer_stops = true;
            return STEP_DONE;
        }
        if (misplaced(s, &m, "before the answer to dama's GAMEEND") != 0) return STEP_FAIL;
    }
    return STEP_FAIL;
}

/* dama ends the game on its turn: reason from its view. */
static Step end_game(Session *s, DGame *g, int reason)
{
    if (send_end(s, reason, our_stop_code(s)) != 0) return STEP_FAIL;
    return wait_end(s, g);
}

static Step our_turn(Session *s, DGame *g)
{
    const char *reason = NULL;
    Outcome o = game_record_outcome(&g->rec, &reason, NULL);
    if (o != OUTCOME_NONE) {
        set_result(g, o, reason);
        int code = o == OUTCOME_DRAW ? DXP_END_DRAW : o == win_for(g->us) ? DXP_END_WIN : DXP_END_RESIGN;
        return end_game(s, g, code);
    }
    if (g->rec.len >= g->cap) {
        set_result(g, OUTCOME_DRAW, "move-cap");
        return end_game(s, g, DXP_END_UNKNOWN);
    }
    PlayerMove pm;
    PlayerFault f = player_think(&g->player, &g->rec, g->clock_ms, &pm);
    if (f == PLAYER_STOPPED || stopping(s)) {
        send_end(s, DXP_END_UNKNOWN, DXP_STOP_ALL);
        snprintf(s->err, ERR_MAX, "stopped during game %d", g->number);
        return STEP_FAIL;
    }
    if (f != PLAYER_OK && f != PLAYER_TIME_FORFEIT) { /* a move over time is still a move */
        snprintf(s->err, ERR_MAX, "dama's engine failed in game %d: %.200s", g->number, pm.detail);
        send_end(s, DXP_END_UNKNOWN, DXP_STOP_ALL);
        return STEP_FAIL;
    }
    s->st->book_moves += pm.from_book;
    DxpMsg m = {.type = DXP_MOVE};
    if (dxp_move_from_game(s->o->game, game_record_position(&g->rec), &pm.move, (int)(pm.seconds + 0.5), &m.u.move,
                           s->err) != 0 ||
        send_msg(s, &m) != 0 || game_record_apply(&g->rec, &pm.move, s->err) != 0)
        return STEP_FAIL;
    if (g->player.limits.time_ms > 0) {
        /* the clock as the other side sees it: from the opponent's move read
         * (or the game's start) to this one sent, whole milliseconds up */
        double used_ms = (clock_now_s() - (s->recv_s > 0 ? s->recv_s : clock_now_s())) * 1000.0;
        if (used_ms < pm.seconds * 1000.0) used_ms = pm.seconds * 1000.0;
        g->clock_ms -= (int64_t)ceil(used_ms);
        if (g->clock_ms < 1) g->clock_ms = 1;
        g->clock_ms += g->player.limits.inc_ms; /* a clock of dama's own (--tc) may add after each move */
    }
    return STEP_ON;
}

/* The peer ended the game (its GAMEEND, not an answer): dama answers, and
 * the result is the rules' when they ended the game, else the peer's word. */
static Step peer_ended(Session *s, DGame *g, const DxpGameEnd *e)
{
    if (e->stop == DXP_STOP_ALL) s->peer_stops = true;
    const char *reason = NULL;
    Outcome o = game_record_outcome(&g->rec, &reason, NULL);
    Color them = (Color)!g->us;
    if (o != OUTCOME_NONE) set_result(g, o, reason);
    else if (e->reason == DXP_END_RESIGN) set_result(g, win_for(g->us), "resign");
    else if (e->reason == DXP_END_DRAW) set_result(g, OUTCOME_DRAW, "draw-claimed");
    else if (e->reason == DXP_END_WIN) set_result(g, win_for(them), "win-claimed");
    else set_result(g, OUTCOME_NONE, "ended");
    return send_end(s, DXP_END_UNKNOWN, our_stop_code(s)) == 0 ? STEP_DONE : STEP_FAIL;
}

static Step their_move(Session *s, DGame *g, const DxpMove *dm)
{
    Move mv;
    char merr[ERR_MAX];
    const Position *pos = game_record_position(&g->rec);
    if (dxp_move_to_game(s->o->game, pos, dm, &mv, merr) != 0) {
        s->st->bad_in++;
        char fen[FEN_MAX];
        s->o->game->pos_to_fen(pos, fen);
        if (chat(s, "illegal move: %s; the game ends", merr) != 0) return STEP_FAIL;
        set_result(g, win_for(g->us), "illegal-move");
        dxp_link_note(s->link, "illegal move in %s: %s", fen, merr);
        return end_game(s, g, DXP_END_UNKNOWN);
    }
    const char *reason = NULL;
    if (game_record_outcome(&g->rec, &reason, NULL) != OUTCOME_NONE) {
        return STEP_ON; /* over by dama's rules: dama's turn now ends it */
    }
    return game_record_apply(&g->rec, &mv, s->err) == 0 ? STEP_ON : STEP_FAIL;
}

static Step their_turn(Session *s, DGame *g)
{
    DxpMsg m;
    double deadline = deadline_in(g->wait_ms);
    for (int i = 0; i < WAIT_MSGS; i++) {
        Got got = next_msg(s, deadline, &m);
        if (got != GOT_MSG) {
            Step st = wait_failed(s, got, g->wait_ms, "move");
            if (st == STEP_FAIL && got == GOT_STOPPED) send_end(s, DXP_END_UNKNOWN, DXP_STOP_ALL);
            return st;
        }
        switch (m.type) {
        case DXP_MOVE: return their_move(s, g, &m.u.move);
        case DXP_GAMEEND: return peer_ended(s, g, &m.u.end);
        case DXP_BACKREQ: {
            DxpMsg k = {.type = DXP_BACKACC};
            k.u.back_code = DXP_BACK_UNSUPPORTED;
            if (send_msg(s, &k) != 0) return STEP_FAIL;
            continue;
        }
        case DXP_GAMEREQ:
            if (s->o->games == 0) { /* follower: a new game replaces this one */
                s->pending = m;
                s->has_pending = true;
                set_result(g, OUTCOME_NONE, "abandoned");
                return STEP_DONE;
            }
            /* fall through */
        default:
            if (misplaced(s, &m, "while dama waits for a move") != 0) return STEP_FAIL;
        }
    }
    return STEP_FAIL;
}

static void report(Session *s, DGame *g)
{
    DxpSessionStats *st = s->st;
    if (g->outcome == OUTCOME_NONE) st->unfinished++;
    else if (g->outcome == OUTCOME_DRAW) st->draws++;
    else if (g->outcome == win_for(g->us)) st->wins++;
    else st->losses++;
    if (!s->o->out) return;
    const char *w = g->us == COLOR_WHITE ? s->o->name : s->peer;
    const char *b = g->us == COLOR_WHITE ? s->peer : s->o->name;
    fprintf(s->o->out, "game %d: %s (White) - %s (Black): %s %s, %d plies\n", g->number, w, b,
            outcome_pdn(g->outcome), g->reason ? g->reason : "", g->rec.len);
    fflush(s->o->out);
}

/* Play a game from g->rec's start; g->us, wait_ms and the player set. */
static Step play(Session *s, DGame *g)
{
    s->st->games++;
    set_result(g, OUTCOME_NONE, "unfinished");
    char detail[PLAYER_DETAIL_MAX];
    player_new_game(&g->player, detail);
    dxp_link_note(s->link, "game %d: dama plays %s", g->number, g->us == COLOR_WHITE ? "White" : "Black");
    Step st = STEP_ON;
    /* each turn adds a ply, or ends the game: bounded by the cap */
    for (int turn = 0; st == STEP_ON && turn <= g->cap + 2; turn++) {
        bool ours = s->o->game->side_to_move(game_record_position(&g->rec)) == g->us;
        st = ours ? our_turn(s, g) : their_turn(s, g);
    }
    if (st == STEP_ON) {
        snprintf(s->err, ERR_MAX, "game %d did not end within %d turns", g->number, g->cap + 2);
        st = STEP_FAIL;
    }
    report(s, g);
    return st;
}

/* Set up game `number` from a start position string (NULL: the game's). */
static int game_init(Session *s, DGame *g, int number, const char *fen, Color us, int minutes, int moves)
{
    const DxpSessionOptions *o = s->o;
    memset(g, 0, sizeof *g);
    g->number = number;
    g->us = us;
    if (game_record_init(&g->rec, o->game, fen, s->err) != 0) return -1;
    PlayerLimits lim = o->limits;
    if (!o->engine_limits) {
        memset(&lim, 0, sizeof lim);
        lim.time_ms = (int64_t)minutes * 60000;
    }
    player_wrap_engine(&g->player, o->game, o->engine, &lim);
    player_set_book(&g->player, o->book, o->book_seed);
    g->clock_ms = lim.time_ms;
    g->wait_ms = (o->timeout_s + minutes * 60) * 1000;
    g->cap = o->max_plies;
    if (moves > 0 && 2 * moves < g->cap) g->cap = 2 * moves;
    return 0;
}

/* ---- follower -------------------------------------------------------------------- */

/* Answer a GAMEREQ: GAMEACC with code, and a chat saying why when not 0. */
static int accept_code(Session *s, int code, const char *why)
{
    if (code != DXP_ACC_OK) {
        s->st->refused++;
        if (chat(s, "game refused: %s", why) != 0) return -1;
    }
    DxpMsg a = {.type = DXP_GAMEACC};
    snprintf(a.u.acc.name, sizeof a.u.acc.name, "%s", s->o->name);
    a.u.acc.code = code;
    return send_msg(s, &a);
}

/* The start position string of a GAMEREQ into fen ("" for the game's own);
 * -1 with why when it cannot be played. */
static int request_position(Session *s, const DxpGameReq *r, char fen[FEN_MAX], char why[ERR_MAX])
{
    fen[0] = '\0';
    if (!r->has_position) return 0;
    Position pos;
    if (dxp_board_to_position(s->o->game, r->to_move, r->board, &pos, why) != 0) return -1;
    s->o->game->pos_to_fen(&pos, fen);
    const char *reason = NULL;
    if (game_outcome(s->o->game, &pos, NULL, 0, &reason, NULL) != OUTCOME_NONE) {
        snprintf(why, ERR_MAX, "the position is already over (%s)", reason ? reason : "no move");
        return -1;
    }
    return 0;
}

/* A GAMEREQ: refused (STEP_ON), or game *number + 1 played. */
static Step follow_request(Session *s, const DxpGameReq *r, int *number)
{
    char why[ERR_MAX], fen[FEN_MAX];
    snprintf(s->peer, sizeof s->peer, "%s", r->name[0] ? r->name : "?");
    if (r->version != DXP_VERSION) {
        snprintf(why, sizeof why, "dama speaks DXP version %02d, the request is version %02d", DXP_VERSION, r->version);
        return accept_code(s, DXP_ACC_VERSION, why) == 0 ? STEP_ON : STEP_FAIL;
    }
    if (request_position(s, r, fen, why) != 0) {
        return accept_code(s, DXP_ACC_NOT_THIS, why) == 0 ? STEP_ON : STEP_FAIL;
    }
    if (r->minutes == 0 && !s->o->engine_limits) {
        snprintf(why, sizeof why, "a thinking time of 000 minutes (dama needs 1 or more)");
        return accept_code(s, DXP_ACC_NOT_THIS, why) == 0 ? STEP_ON : STEP_FAIL;
    }
    if (accept_code(s, DXP_ACC_OK, "") != 0) return STEP_FAIL;
    DGame g;
    if (game_init(s, &g, ++*number, fen[0] ? fen : NULL, r->follower, r->minutes, r->moves) != 0) return STEP_FAIL;
    Step st = play(s, &g);
    game_record_free(&g.rec);
    return st;
}

int dxp_session_follow(const DxpSessionOptions *o, DxpLink *link, DxpSessionStats *st, char err[ERR_MAX])
{
    DxpSessionOptions fo = *o;
    fo.games = 0; /* marks the follower */
    Session s = {.o = &fo, .link = link, .st = st, .err = err};
    memset(st, 0, sizeof *st);
    err[0] = '\0';
    int number = 0;
    double deadline = deadline_in(o->timeout_s * 1000);
    for (int i = 0; i < WAIT_MSGS; i++) {
        DxpMsg m;
        if (s.has_pending) {
            m = s.pending;
            s.has_pending = false;
        } else {
            Got got = next_msg(&s, deadline, &m);
            if (got == GOT_CLOSED) return 0;
            if (got != GOT_MSG) return wait_failed(&s, got, o->timeout_s * 1000, "GAMEREQ") == STEP_CLOSED ? 0 : -1;
        }
        if (m.type == DXP_GAMEREQ) {
            Step step = follow_request(&s, &m.u.req, &number);
            if (step == STEP_CLOSED) {
                snprintf(err, ERR_MAX, "the initiator closed the connection during game %d", number);
                return -1;
            }
            if (step == STEP_FAIL) return -1;
            if (s.peer_stops && !s.has_pending) return 0;
            deadline = deadline_in(o->timeout_s * 1000); /* the next GAMEREQ's wait */
            continue;
        }
        if (m.type == DXP_BACKREQ || m.type == DXP_MOVE || m.type == DXP_GAMEEND || m.type == DXP_GAMEACC ||
            m.type == DXP_BACKACC) {
            if (misplaced(&s, &m, "outside a game") != 0) return -1;
        }
    }
    snprintf(err, ERR_MAX, "%d messages in one session: giving up", WAIT_MSGS);
    return -1;
}

/* ---- initiator ------------------------------------------------------------------- */

static Color initiator_colour(const DxpSessionOptions *o, int i)
{
    if (o->colour == DXP_COLOUR_WHITE) return COLOR_WHITE;
    if (o->colour == DXP_COLOUR_BLACK) return COLOR_BLACK;
    return i % 2 == 0 ? COLOR_WHITE : COLOR_BLACK;
}

/* Send game i's GAMEREQ and read the GAMEACC: its code, or -1. */
static int request(Session *s, int i, Color us)
{
    const DxpSessionOptions *o = s->o;
    DxpMsg r = {.type = DXP_GAMEREQ};
    DxpGameReq *q = &r.u.req;
    q->version = DXP_VERSION;
    snprintf(q->name, sizeof q->name, "%s", o->name);
    q->follower = (Color)!us;
    q->minutes = o->minutes;
    q->moves = o->moves;
    if (o->fen) {
        Position pos;
        if (game_parse_position(o->game, o->fen, &pos, s->err) != 0 ||
            dxp_board_from_position(o->game, &pos, &q->to_move, q->board, s->err) != 0)
            return -1;
        q->has_position = true;
    }
    if (send_msg(s, &r) != 0) return -1;
    int wait_ms = o->timeout_s * 1000;
    double deadline = deadline_in(wait_ms);
    for (int k = 0; k < WAIT_MSGS; k++) {
        DxpMsg m;
        Got got = next_msg(s, deadline, &m);
        if (got != GOT_MSG) {
            if (wait_failed(s, got, wait_ms, "GAMEACC") == STEP_CLOSED) {
                snprintf(s->err, ERR_MAX, "the follower closed the connection before answering game %d", i + 1);
            }
            return -1;
        }
        if (m.type == DXP_GAMEACC) {
            snprintf(s->peer, sizeof s->peer, "%s", m.u.acc.name[0] ? m.u.acc.name : "?");
            return m.u.acc.code;
        }
        if (misplaced(s, &m, "before the GAMEACC") != 0) return -1;
    }
    return -1;
}

int dxp_session_initiate(const DxpSessionOptions *o, DxpLink *link, DxpSessionStats *st, char err[ERR_MAX])
{
    Session s = {.o = o, .link = link, .st = st, .err = err};
    memset(st, 0, sizeof *st);
    err[0] = '\0';
    for (int i = 0; i < o->games; i++) {
        s.last_game = i == o->games - 1;
        Color us = initiator_colour(o, i);
        int code = request(&s, i, us);
        if (code < 0) return -1;
        if (code != DXP_ACC_OK) {
            st->refused++;
            dxp_link_note(link, "game %d refused by the follower (GAMEACC code %d)", i + 1, code);
            if (o->out) fprintf(o->out, "game %d: refused by %s (acceptance code %d)\n", i + 1, s.peer, code);
            return 0;
        }
        DGame g;
        if (game_init(&s, &g, i + 1, o->fen, us, o->minutes, o->moves) != 0) return -1;
        Step step = play(&s, &g);
        game_record_free(&g.rec);
        if (step == STEP_FAIL) return -1;
        if (step == STEP_CLOSED) {
            snprintf(err, ERR_MAX, "the follower closed the connection during game %d", i + 1);
            return -1;
        }
        if (s.peer_stops && !s.last_game) {
            dxp_link_note(link, "the follower wants no further game");
            return 0;
        }
    }
    return 0;
}
