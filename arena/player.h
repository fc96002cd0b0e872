/* player.h — one side of a game: an in-process dama engine or an external
 * engine speaking the Hub protocol (version 2, as Scan 3.1 defines it) over
 * its standard input and output. Self-play, match and tournament games all
 * go through play_game_players (play.h) with two Players.
 *
 * External engines: the command runs under /bin/sh -c in its own process
 * group; a simple command is exec'd by that shell ("exec" is put before
 * it), and the process dies with the one that started it, even killed by
 * SIGKILL (PR_SET_PDEATHSIG; a command with shell operators keeps its shell,
 * and only what it execs itself dies with dama). Its standard input and
 * output are on a socket pair (a write to an engine that died fails with
 * EPIPE instead of raising SIGPIPE), its standard error on a pipe read as
 * it runs, the last 2 KiB kept (stderr_tail.h). Start-up: "hub" (until
 * "wait"; a declared "variant" parameter is set to the game's name, and
 * every param.NAME=VALUE of the spec is sent as set-param), "init" (until
 * "ready"); each game starts with
 * "new-game". A move: "pos pos=START moves=\"...\"" (the game's start
 * position and every move since, in the game's own notation, so that the
 * engine sees repetitions), "level ...", "go think"; then "info" lines
 * (score in men, as Scan writes it) up to "done move=...". An engine that
 * dies, does not answer in time or answers with a move that is not legal
 * is killed (SIGKILL to its process group) and started again for its next
 * game; what it wrote last is kept as the fault's detail.
 *
 * A Player is used by one thread at a time. Nothing here prints.
 */
#ifndef DAMA_PLAYER_H
#define DAMA_PLAYER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "arena/stderr_tail.h"
#include "engine/game.h"

struct Engine;
struct GameRecord;
struct MoveBook;

enum {
    PLAYER_NAME_MAX = 64,
    PLAYER_SPEC_MAX = 512,
    PLAYER_DETAIL_MAX = 512,   /* kept output of a failing engine, with its NUL */
    PLAYER_PARAMS_MAX = 8,
    PLAYER_LINE_MAX = 8192     /* longest line read from an engine */
};

/* What limits a player's moves. Exactly one of nodes, depth, movetime_ms
 * or a clock (time_ms > 0) is in force (the first set in that order). */
typedef struct PlayerLimits {
    uint64_t nodes;
    int depth;
    int64_t movetime_ms;
    int64_t time_ms, inc_ms; /* a game clock: time_ms at the start, inc_ms added after each move */
    int64_t hang_ms;         /* without a clock: the longest a move may take beyond movetime (0: 10,000) */
} PlayerLimits;

/* Set one limit from "KEY=VALUE" text: nodes=N, depth=N, movetime=MS,
 * time=MS+INC (or time=MS), timeout=MS (hang_ms). Setting one of the first
 * four clears the others. Returns 0, 1 when key is not a limit, -1 with err
 * naming the bad value. */
int player_limits_set(PlayerLimits *l, const char *key, const char *value, char err[ERR_MAX]);

/* The limits as text, e.g. "nodes=1000" or "time=10000+100". */
void player_limits_text(const PlayerLimits *l, char *out, size_t size);

typedef enum PlayerKind { PLAYER_DAMA = 0, PLAYER_HUB = 1, PLAYER_DXP = 2 } PlayerKind;

/* A participant as given on the command line:
 *   name=A,weights=tuned,nodes=1000            (in-process; weights default "default")
 *   name=B,cmd=dama hub --hash 8,movetime=20   (external Hub engine)
 *   name=C,dxp=127.0.0.1:27531,time=60000      (a program over DXP: arena/player_dxp.h)
 *   name=D,dxp=127.0.0.1:27600,cmd=dama dxp --listen 27600   (one dama starts, then connects to)
 *   name=E,dxp=127.0.0.1:0,cmd=dama dxp --listen 0   (one dama starts on the port it prints)
 * Keys: name, weights, hash (MiB), param.NAME=VALUE (in-process: a search
 * constant of engine/search.h, an integer of its range; Hub: a set-param
 * sent before init, whose `error` answer fails the start; not for DXP), dxp,
 * book (a move book file, book/book.h: loaded by the caller into book;
 * not for a DXP program, which keeps its own board),
 * the limits of player_limits_set, and cmd — which takes the rest of the
 * text, commas included, so it comes last. cmd after dxp is the command
 * that starts the DXP program (launch), not a Hub engine. dxp= is checked
 * as an address (HOST:PORT, port 0..65535); port 0 (the port the program
 * picks and prints) needs cmd=. */
typedef struct PlayerSpec {
    char name[PLAYER_NAME_MAX];
    PlayerKind kind;
    char spec[PLAYER_SPEC_MAX]; /* weights spec, the command, or DXP's HOST:PORT */
    char launch[PLAYER_SPEC_MAX]; /* DXP: the command that starts the program listening on spec ("": none; port 0: on the port it prints) */
    PlayerLimits limits;
    int64_t hash_mb;
    int params_len;
    char param_name[PLAYER_PARAMS_MAX][64];
    char param_value[PLAYER_PARAMS_MAX][128];
    int param_int[PLAYER_PARAMS_MAX]; /* in-process: the values as integers */
    char book_path[PLAYER_SPEC_MAX]; /* book=FILE ("" none) */
    /* The move book this player consults before it thinks (NULL: none;
     * not owned, of the player's game), and the seed of its choices. */
    const struct MoveBook *book;
    uint64_t book_seed;
} PlayerSpec;

/* Parse a participant of a game of `game`; limits start as *defaults, hash
 * as default_hash_mb. Returns 0, or -1 with err naming the bad key or value
 * (also: an empty text, two limits, a param given twice, an in-process
 * param unknown, out of range or doing nothing in game:
 * search_param_applies). A missing name is "engine N" with N = index + 1. */
int player_spec_parse(const Game *game, const char *text, int index, const PlayerLimits *defaults,
                      int64_t default_hash_mb, PlayerSpec *out, char err[ERR_MAX]);

typedef enum PlayerFault {
    PLAYER_OK = 0,
    PLAYER_CRASH,        /* the engine died, wrote something that is not the protocol at start-up, or
                          * answered `error` during a game (a Hub engine: killed, restarted for the next) */
    PLAYER_TIMEOUT,      /* no answer in time (killed) */
    PLAYER_TIME_FORFEIT, /* answered after its clock ran out */
    PLAYER_ILLEGAL,      /* answered with a move that is not legal here */
    PLAYER_STOPPED,      /* the stop flag was raised */
    PLAYER_RESIGNED      /* no fault: the player gave the game up (a DXP program's GAMEEND
                          * reason 1); play_game_players records a loss by "resign" */
} PlayerFault;

/* Reason id stored with a game lost by this fault ("crash", "timeout",
 * "time-forfeit", "illegal-move"; "resign" for PLAYER_RESIGNED). */
const char *player_fault_reason(PlayerFault f);

typedef struct PlayerMove {
    Move move;
    int score;      /* centi-men, side to move's view (when has_score) */
    bool has_score;
    uint64_t nodes;
    double seconds;     /* wall time of the move */
    double cpu_seconds; /* CPU time the player used for it: an in-process engine's search
                         * threads; a Hub engine's processes (its process group, read from
                         * /proc at clock-tick resolution; 0 where /proc is missing) */
    char detail[PLAYER_DETAIL_MAX]; /* on a fault: what went wrong and the engine's last output */
    bool from_book; /* the move came from the player's move book (no search) */
} PlayerMove;

/* A player. Public for stack allocation by wrappers; fields are private. */
typedef struct Player {
    const Game *game;
    PlayerKind kind;
    PlayerLimits limits;
    volatile int *stop;
    /* in-process */
    struct Engine *engine;
    bool owns_engine;
    int32_t *weights; /* owned copy, or NULL (the engine's own) */
    /* external */
    const PlayerSpec *spec;
    pid_t pid;       /* 0: not running */
    int fd;          /* our end of the engine's standard output (a socket pair's) */
    int wfd;         /* our end of its standard input: another pair, so that an engine
                      * closing its output is an end of file here */
    bool has_variant;
    char *buf;       /* PLAYER_LINE_MAX bytes of unread output */
    size_t buf_len;
    char last[PLAYER_DETAIL_MAX]; /* the last lines read, for fault details */
    StderrTail err;  /* the last of its standard error, for fault details */
    int starts;      /* how many times the process was started */
    /* over DXP */
    struct DxpRemote *dxp;
    /* move book (any kind): consulted before the engine */
    const struct MoveBook *book;
    uint64_t book_seed;
} Player;

/* A player around an existing engine (not owned; weights as the engine has
 * them): self-play and match. */
void player_wrap_engine(Player *p, const Game *game, struct Engine *engine, const PlayerLimits *limits);

/* A new player for spec: in-process with its own engine (hash_mb MiB) and a
 * copy of weights (game->weights_len values), or an external engine (not
 * started until player_new_game). Both stop when *stop (may be NULL)
 * becomes non-zero. spec must outlive the player. Returns NULL with err
 * when out of memory. */
Player *player_new(const Game *game, const PlayerSpec *spec, const int32_t *weights, volatile int *stop,
                   char err[ERR_MAX]);
/* The in-process engine of p (to set a probe or options), or NULL for an
 * external engine. Not owned by the caller. */
struct Engine *player_engine(Player *p);

/* Stop the engine ("quit", then SIGKILL if it does not exit) and free. */
void player_free(Player *p);

/* Prepare a new game: clear the engine's tables; an external engine is
 * started first if it is not running. A Hub engine is sent `new-game` and
 * `ping`, and what it wrote before its `pong` (an `error` after the
 * previous game's last move) is dropped, charged to no game. Returns
 * PLAYER_OK or the fault that kept the engine from starting or answering
 * (detail in out_detail: no `pong` within 10 s is a timeout). */
PlayerFault player_new_game(Player *p, char out_detail[PLAYER_DETAIL_MAX]);

/* Let p play from a move book (NULL: none; not owned; of p's game) with
 * choices drawn from seed (book_pick). player_new does this with the
 * spec's book. */
void player_set_book(Player *p, const struct MoveBook *book, uint64_t seed);

/* Choose a move in the current position of rec (not over). clock_ms: the
 * time left on the player's clock (ignored without a clock). A position
 * in the player's book gets a book move (out->from_book) without asking
 * the engine. Returns PLAYER_OK with out->move legal, PLAYER_RESIGNED
 * when the player gives the game up, or a fault (out->detail says what). */
PlayerFault player_think(Player *p, const struct GameRecord *rec, int64_t clock_ms, PlayerMove *out);

/* The game rec ended with outcome o (the referee's result, whatever ended
 * it): a program over DXP is told (arena/player_dxp.h); other players
 * need nothing. */
void player_game_over(Player *p, const struct GameRecord *rec, Outcome o);

#endif
