/* dxp.h — the DamExchange Protocol (DXP), layer 2: the text of its seven
 * messages, and the translation of its positions and moves into a game of
 * dama. Source: the protocol's description by its authors, published at
 * mesander.nl/damexchange (edxplg2.htm, egamereq.htm, egameacc.htm,
 * emove.htm, egameend.htm, echat.htm, the BACKREQ and BACKACC pages);
 * docs/dxp.md says what dama implements and where it is lenient.
 *
 * A message is 1..127 ASCII characters (bytes 1..127); its first character
 * names its type. Numbers are fixed-width decimal with leading zeros:
 *   C text                                     CHAT: 1..126 characters of text
 *   R vv name32 f ttt mmm A                     GAMEREQ, the normal start position
 *   R vv name32 f ttt mmm B s board50           GAMEREQ with a position
 *   A name32 c                                  GAMEACC
 *   M tttt ff tt nn cc...                       MOVE (nn captured squares, 2 digits each)
 *   E r s                                       GAMEEND
 *   B nnn s                                     BACKREQ
 *   K c                                         BACKACC
 * (no spaces: the fields follow each other). Colours are 'W' (White) and
 * 'Z' (Black, "zwart"); a board is 50 characters, square 1 first: 'e'
 * empty, 'w' 'z' men, 'W' 'Z' kings.
 *
 * Everything here is pure (no I/O, no globals) and thread-safe once
 * game_init_all() has run. Errors: -1 with a message in err that names the
 * field and the offending text, printable (control bytes as \xNN).
 */
#ifndef DAMA_DXP_H
#define DAMA_DXP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/game.h"

enum {
    DXP_MSG_MAX = 127,     /* longest message, characters, without the NUL that ends it on the wire */
    DXP_CHAT_MAX = 126,    /* longest chat text */
    DXP_NAME_LEN = 32,     /* a program's name: exactly this many characters, blank-padded */
    DXP_SQUARES = 50,      /* squares of a board (numbered 1..50) */
    DXP_CAPTURED_MAX = 20, /* most captured squares a MOVE lists */
    DXP_PORT = 27531,      /* the TCP port of the protocol's socket layer */
    DXP_VERSION = 1        /* the protocol version dama speaks ("01") */
};

typedef enum DxpType {
    DXP_CHAT = 'C',
    DXP_GAMEREQ = 'R',
    DXP_GAMEACC = 'A',
    DXP_MOVE = 'M',
    DXP_GAMEEND = 'E',
    DXP_BACKREQ = 'B',
    DXP_BACKACC = 'K'
} DxpType;

/* GAMEACC acceptance codes. */
enum {
    DXP_ACC_OK = 0,          /* the game is accepted */
    DXP_ACC_VERSION = 1,     /* the request's protocol version is not the follower's */
    DXP_ACC_NOT_THIS = 2,    /* not this game (time, position), another one is welcome */
    DXP_ACC_NO_GAMES = 3     /* no game at all */
};

/* GAMEEND reasons (informative) and stop codes. */
enum {
    DXP_END_UNKNOWN = 0, /* no reason given (always allowed, and the answer to a GAMEEND) */
    DXP_END_RESIGN = 1,  /* the sender gives up */
    DXP_END_DRAW = 2,    /* a draw (e.g. the third repetition) */
    DXP_END_WIN = 3,     /* the sender claims the win */
    DXP_STOP_NEXT = 0,   /* another game may follow */
    DXP_STOP_ALL = 1     /* no more games */
};

/* BACKACC codes. */
enum {
    DXP_BACK_OK = 0,        /* the moves are taken back */
    DXP_BACK_UNSUPPORTED = 1, /* the receiver does not take moves back */
    DXP_BACK_REFUSED = 2    /* it does, but not now */
};

typedef struct DxpGameReq {
    int version;                 /* 0..99; DXP_VERSION in what dama sends */
    char name[DXP_NAME_LEN + 1]; /* initiator's name, trailing blanks removed */
    Color follower;              /* the colour the follower plays */
    int minutes;                 /* thinking time of each side for the whole game, 0..999 */
    int moves;                   /* moves of the whole game, 0..999 (0: no limit) */
    bool has_position;           /* false: the normal start position, White to move */
    Color to_move;               /* with a position: the side to move */
    char board[DXP_SQUARES + 1]; /* with a position: 50 characters of e w z W Z, NUL-terminated */
} DxpGameReq;

typedef struct DxpGameAcc {
    char name[DXP_NAME_LEN + 1]; /* follower's name, trailing blanks removed */
    int code;                    /* DXP_ACC_*, 0..3 (the codes the protocol defines) */
} DxpGameAcc;

typedef struct DxpMove {
    int seconds;                    /* time used for the move, 0..9999 (informative) */
    int from, to;                   /* squares 1..50 */
    int ncaptured;                  /* 0..DXP_CAPTURED_MAX */
    int captured[DXP_CAPTURED_MAX]; /* the captured pieces' squares, any order */
} DxpMove;

typedef struct DxpGameEnd {
    int reason; /* DXP_END_*, 0..3 */
    int stop;   /* DXP_STOP_*, 0..1 */
} DxpGameEnd;

typedef struct DxpBackReq {
    int move_number; /* 1..999: the move to go back to */
    Color to_move;   /* the side to move there */
} DxpBackReq;

typedef struct DxpMsg {
    DxpType type;
    union {
        char chat[DXP_CHAT_MAX + 1];
        DxpGameReq req;
        DxpGameAcc acc;
        DxpMove move;
        DxpGameEnd end;
        DxpBackReq back;
        int back_code; /* BACKACC: DXP_BACK_*, any digit 0..9 (the BACKACC page was not read) */
    } u;
} DxpMsg;

/* The message type's name in the protocol's description ("GAMEREQ"), or
 * "unknown". */
const char *dxp_type_name(int type);

/* Write m's text into out (NUL-terminated). Returns its length, or -1 with
 * err when a field does not fit its width or range (a name longer than 32
 * characters or holding a byte outside printable ASCII, a square outside
 * 1..50, a chat of 0 or more than 126 characters, ...). */
int dxp_encode(const DxpMsg *m, char out[DXP_MSG_MAX + 1], char err[ERR_MAX]);

/* Read one message of len bytes (without the NUL that ended it on the
 * wire). Returns 0, or -1 with err naming the message type, the field, its
 * place (1-based character) and what was expected: an unknown type, a
 * length that is not the type's, a field that is not decimal digits, a
 * value out of range, a byte outside 1..127. Names may hold any printable
 * ASCII; their trailing blanks are dropped. */
int dxp_decode(const char *msg, size_t len, DxpMsg *out, char err[ERR_MAX]);

/* Does the game number its squares 1..50, as DXP does? (Asked through the
 * game's position strings: a position with a man on square 50 is read, one
 * on 51 is refused.) */
bool dxp_game_fits(const Game *g);

/* The board of pos (50 characters and a NUL) and its side to move. Returns
 * 0, or -1 with err when the game's position string is not a numbered one
 * with squares 1..50. */
int dxp_board_from_position(const Game *g, const Position *pos, Color *to_move, char board[DXP_SQUARES + 1],
                            char err[ERR_MAX]);

/* The position of a DXP board (50 characters) with to_move to move, read by
 * the game's own position parser (which refuses what the game does not
 * allow: a man on its crowning row, too many pieces). Returns 0, or -1 with
 * err naming the bad character and square, or the game's objection. */
int dxp_board_to_position(const Game *g, Color to_move, const char *board, Position *pos, char err[ERR_MAX]);

/* The DXP form of a legal move of pos: start and end square and the
 * squares of every piece it captures (ascending), time `seconds` (cut to
 * 0..9999). Returns 0, or -1 with err when the game's notation is not
 * numbered 1..50. */
int dxp_move_from_game(const Game *g, const Position *pos, const Move *move, int seconds, DxpMove *out,
                       char err[ERR_MAX]);

/* The legal move of pos that a DXP move names: the one with that start,
 * end and set of captured squares. A capture sent without its captured
 * squares (count 00) is taken when it is the only legal move from `from`
 * to `to`. Returns 0, or -1 with err: no such legal move (the legal moves
 * from that square are listed), or two that the move does not tell apart. */
int dxp_move_to_game(const Game *g, const Position *pos, const DxpMove *dm, Move *out, char err[ERR_MAX]);

/* The move as text for messages and logs: "32-28", "27x38 (captures 32)". */
void dxp_move_text(const DxpMove *dm, char *out, size_t size);

#endif
