/* pdn.h — Portable Draughts Notation (PDN 3.0): reading, replaying, writing.
 *
 * Three layers:
 *   1. A streaming tokenizer (PdnReader, pdn_read_token) that knows only
 *      the PDN text format: tag pairs, move numbers, moves, annotations,
 *      NAGs, comments, variations, results. It never looks at a game's rules.
 *   2. A game splitter (pdn_read_game) that groups tokens into games: tag
 *      section, then movetext up to its result. Variations, comments and
 *      NAGs are dropped; annotation suffixes are split off the moves.
 *   3. Replay (pdn_replay_game): sets up the game named by the GameType tag
 *      (else by dama's Variant tag, else a fallback) at the FEN tag position, parses every move with the
 *      game's move_from_str against the current position and makes it.
 * And a writer (PdnMovetext, pdn_write_game) for self-play and export.
 *
 * Format reference: PDN 3.0 (pdn.fmjd.org). Accepted beyond the strict
 * standard, because real files use it: results 2-0, 0-2, 1-1 (Russian
 * scoring) and 0-0; CR, CRLF or LF line ends; a UTF-8 byte-order mark at the
 * start of the file (or of a concatenated file inside it); move numbers
 * glued to their move ("1.c3-d4"); a '%' in column 1 escapes the line.
 *
 * Errors: every reading function returns a status and, on failure, a
 * message "NAME:LINE: what" naming the file (the name given to the reader),
 * the line and, where known, the game number and the offending text.
 * Nothing here prints or exits. A reader is used by one thread at a time;
 * distinct readers are independent (no globals).
 */
#ifndef DAMA_PDN_H
#define DAMA_PDN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/game.h"

enum {
    PDN_RESULT_MAX = 8,      /* longest result token ("1/2-1/2") with its NUL */
    PDN_ANNOTATION_MAX = 4,  /* longest move annotation ("!?") with its NUL */
    PDN_LINE_WIDTH = 80,     /* the writer wraps movetext within this many columns */
    PDN_MESSAGE_MAX = 1024   /* replay messages: they quote a position and a move */
};

/* ------------------------------------------------------------------ */
/* Tokens                                                              */

typedef enum PdnTokenKind {
    PDN_TOKEN_TAG = 1,     /* [Name "value"]: text = name, value = value (unescaped UTF-8) */
    PDN_TOKEN_MOVE_NUMBER, /* "12." or "12...": number = 12, dots = 1 or 3 */
    PDN_TOKEN_MOVE,        /* move text, annotation suffix split off into value */
    PDN_TOKEN_ANNOTATION,  /* a free-standing "!", "?", "!!", "??", "!?", "?!": value = it, text "" */
    PDN_TOKEN_NAG,         /* "$n": number = n */
    PDN_TOKEN_COMMENT,     /* {...} or ; to end of line: text = the comment's inside */
    PDN_TOKEN_VARIATION,   /* a whole (...) variation, nesting included: text empty */
    PDN_TOKEN_RESULT       /* 1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 * : text = as written */
} PdnTokenKind;

/* One token. text and value point into the reader and stay valid until the
 * next call on that reader. */
typedef struct PdnToken {
    PdnTokenKind kind;
    const char *text;  /* NUL-terminated; "" when the kind has none */
    const char *value; /* tag value, or a move's annotation suffix ("" if none) */
    long number;       /* move number or NAG number, else 0 */
    int dots;          /* move numbers: 1 ("12.") or 3 ("12..."), else 0 */
    long line;         /* 1-based line where the token starts */
    bool blank_before; /* an empty line (blanks alone) stands between it and the token before */
} PdnToken;

typedef struct PdnReader PdnReader;

/* A reader of PDN text from `in` (not closed by the reader). `name` (copied)
 * names the input in messages, e.g. the file path. Returns NULL when out of
 * memory. Input is read in chunks: any file size works in O(1) memory
 * apart from the longest token. */
PdnReader *pdn_reader_new(FILE *in, const char *name);
/* Free the reader (NULL is fine); the FILE stays open. */
void pdn_reader_free(PdnReader *r);

/* The next token. Returns 1 with *tok set, 0 at end of input, or -1 with a
 * message in err ("NAME:LINE: ..." naming e.g. the unterminated comment,
 * tag or variation and the line it was opened on, a stray ']', '}' or ')',
 * a control byte, in a tag as elsewhere, that shows the input is not text,
 * a UTF-16 byte-order mark, the end of the input inside a tag pair). After
 * -1 the reader is not usable any more. */
int pdn_read_token(PdnReader *r, PdnToken *tok, char err[ERR_MAX]);

/* ------------------------------------------------------------------ */
/* Games                                                               */

typedef struct PdnTag {
    const char *name;  /* owned by the PdnGame when read; the caller's when written */
    const char *value;
    long line;         /* line of the tag in the file (0 when not read from one) */
} PdnTag;

typedef struct PdnMove {
    char text[MOVE_STR_MAX];             /* as written, annotation removed */
    char annotation[PDN_ANNOTATION_MAX]; /* "!", "?!"... glued to the move, or "" */
    long number;                         /* last move number written before it, 0 if none */
    int dots;                            /* 1 ("12.") or 3 ("12...") when a number stands right before it, else 0 */
    long line;
} PdnMove;

typedef struct PdnGame {
    long index;       /* 1-based position of the game in the file */
    long line;        /* line of its first token */
    PdnTag *tags;
    int tags_len;
    int tags_cap;
    PdnMove *moves;   /* the main line, in order */
    int moves_len;
    int moves_cap;
    char result[PDN_RESULT_MAX]; /* movetext result as written, "" if none */
    long result_line;
} PdnGame;

/* A zeroed game, ready for pdn_read_game. */
void pdn_game_init(PdnGame *game);
/* Free what the game owns; it is zeroed again and may be reused. */
void pdn_game_free(PdnGame *game);

/* Read the next game into `game` (its old content is freed first). A game
 * is its tag section followed by its movetext, up to and including the
 * result token; a game without a result ends where the next tag section
 * starts or at the end of input. Comments, variations and NAGs are dropped.
 * Returns 1 when a game was read, 0 at end of input (no more games), -1
 * with a message on a syntax error (see pdn_read_token; the game number is
 * added) or a move token longer than MOVE_STR_MAX - 1. */
int pdn_read_game(PdnReader *r, PdnGame *game, char err[ERR_MAX]);

/* Value of the tag `name` (ASCII case-insensitive), or NULL. */
const char *pdn_game_tag(const PdnGame *game, const char *name);
/* Line of the tag `name`, or 0. */
long pdn_game_tag_line(const PdnGame *game, const char *name);

/* Results: the outcome of a result text ("1-0" or "2-0": White wins, "0-1"
 * or "0-2": Black wins, "1/2-1/2", "1-1" or "0-0": draw — a double loss is
 * filed as a draw here, "*": unknown). Returns -1 when text is not a
 * result. */
int pdn_result_parse(const char *text, Outcome *outcome);

/* ------------------------------------------------------------------ */
/* Replay                                                              */

typedef struct PdnReplay {
    const Game *game;   /* the game played, NULL if none could be chosen */
    int plies;          /* moves made before the end or the failure */
    int fail_move;      /* index into pgame->moves of the failing move, -1 if none */
    long fail_number;   /* its move number: as written just before it, else counted on from
                         * the move before (1 for the text's first move) in pairs that begin
                         * with the game's first mover, game_first_mover */
    bool fail_black;    /* the failing move was Black's */
    char fen[FEN_MAX];  /* the position before the failing move, or the final one */
    char error[PDN_MESSAGE_MAX];   /* why the replay failed, "" if it did not */
    /* what replays but looks wrong, "" if nothing: a Result tag that differs from the
     * movetext result, no result at the end of the movetext (the game may be cut off),
     * moves after the rules ended the game, a tag written twice (the first is read);
     * several are joined by "; " */
    char warning[PDN_MESSAGE_MAX];
    /* GameType and Variant tags that name two different games, and which
     * was played (the GameType's), "" if they agree or one is missing */
    char game_warning[PDN_MESSAGE_MAX];
} PdnReplay;

/* Replay `pgame` from its FEN tag (or the start position). The game played
 * is the one whose pdn_gametype equals the GameType tag's first number when
 * the tag is present, else the game a Variant tag names ("shatra"), else
 * `fallback`. A Variant tag that names another game dama plays (by name or
 * title, any case) beside the GameType fills out->game_warning; a Variant
 * that names no game of dama's ("Standard") is not checked. Each move is parsed with
 * game->move_from_str against the current position and made.
 * Returns 0 when every move was played (out->fen is then the final
 * position); -1 when the game could not be set up (unknown GameType, bad
 * FEN tag, no game) or a move failed. out->error then names the move
 * number and text, its ply and line, the position (FEN) and the move
 * parser's message, e.g. "cannot play 24. c3:e5 (ply 47, line 125) in
 * position W:...: illegal move 'c3:e5'"; the caller adds the file and
 * game number (pgame->index). A Result tag that disagrees with the
 * movetext result (2-0 agrees with 1-0, 1-1 with 1/2-1/2), and a movetext
 * without a result (PDN ends every game with one: a game cut off at the
 * end of a truncated file has none), fill out->warning but are not a
 * failure. Thread-safe for distinct `out`. */
int pdn_replay_game(const PdnGame *pgame, const Game *fallback, PdnReplay *out);

/* ------------------------------------------------------------------ */
/* Writing                                                             */

/* A movetext under construction: "1. c3-d4 d6-e5 2. ..." on one line. */
typedef struct PdnMovetext {
    char *text;   /* NUL-terminated, owned; "" after init */
    size_t len;   /* bytes of text before the NUL */
    size_t cap;
    long number;  /* move number of the next move */
    Color side;   /* side of the next move */
    Color leader; /* the game's first mover (game_first_mover): a move pair begins with its move */
} PdnMovetext;

/* Start an empty movetext whose first move is move 1 of `first`, in a game
 * whose move pairs begin with `leader`'s move (game_first_mover: White;
 * Black in English draughts and Pool checkers). A text that begins with
 * the other side's move writes it "1... move". Returns 0, or -1 when out
 * of memory (mt->text is then NULL; pdn_movetext_free is still safe). */
int pdn_movetext_init(PdnMovetext *mt, Color first, Color leader);
/* Append one move (full notation from game->move_to_str), with its number
 * when the leader moves or when it is the first move. Sides alternate.
 * Returns 0, or -1 when out of memory (mt unchanged). */
int pdn_movetext_append(PdnMovetext *mt, const char *move);
/* Free the text; mt is zeroed. */
void pdn_movetext_free(PdnMovetext *mt);

/* Write one game: the tags as [Name "value"] lines (quotes and backslashes
 * escaped), a blank line, the movetext wrapped at PDN_LINE_WIDTH columns
 * (never splitting a move number from its move), the result ("*" when
 * NULL) and a blank line. Returns 0, or -1 if writing failed (errno set by
 * stdio). */
int pdn_write_game(FILE *out, const PdnTag *tags, int tags_len, const char *movetext, const char *result);

/* A stored or just played game to write as PDN 3.0. Strings may be NULL
 * ("?" is written; result "*"). */
typedef struct PdnGameInfo {
    const Game *game;
    const char *event, *site, *date; /* date: ISO "YYYY-MM-DD..." (written "YYYY.MM.DD") */
    const char *round, *white, *black, *result;
    const char *start_fen;   /* written with SetUp "1" only when not the game's start position */
    const char *opening;     /* the opening's label (Opening tag), may be NULL */
    const char *termination; /* why the game ended: "no-moves", "D3", "crash", ... (Termination tag) */
    const char *movetext;    /* PDN movetext as stored */
} PdnGameInfo;

/* Write one game with the tags Event, Site, Date, Round, White, Black,
 * Result (the seven of PDN 3.0), GameType (when the game has a PDN number),
 * Variant (dama's game name: Shatra has no GameType number; the reader
 * uses Variant when GameType is missing), SetUp and FEN, Opening and
 * Termination. Returns 0, or -1 if writing failed. */
int pdn_write_game_info(FILE *out, const PdnGameInfo *info);

/* ------------------------------------------------------------------ */
/* Stored games                                                        */

struct GameRecord;
/* Replay a game as dama stores it (a start position and its PDN movetext:
 * move numbers, comments, variations and the result are skipped) into rec,
 * which this makes (game_record_init; the caller frees it, also after an
 * error): every move, or the first max_plies (0: all). plies is the
 * row's own count (-1: none to check): a movetext that holds another
 * number of moves (fewer than max_plies) is damaged. Returns 0, or -1
 * with err: "start position: ...", "ply N: ..." (a move that is not legal
 * there, or after the game's end), "its movetext holds N plies, the row
 * says M" or the reader's message for movetext that is no PDN. Used by
 * every reader of stored games (export, books, the draws of a match), so
 * that each refuses a damaged row alike. */
int pdn_stored_replay(const Game *game, const char *start_fen, const char *movetext, int plies, int max_plies,
                      struct GameRecord *rec, char err[ERR_MAX]);

#endif
