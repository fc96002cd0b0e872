/* dama/engine.h — the public API of libdama-engine: the rules, evaluation
 * and search of Russian draughts, Turkish draughts, Shatra, the 8x8
 * draughts of Brazil, Pool, England, the Czech lands, Italy and Spain,
 * International draughts (10x10) and Canadian draughts (12x12), for game
 * apps. Compiles as C11 and as C++17; link with
 * `pkg-config --cflags --libs dama-engine` or CMake's find_package(dama)
 * (target dama::engine).
 *
 * Model. A DamaGame is one game in progress: its game (rules), start
 * position, every move applied and every position reached (so threefold
 * repetition and the draw counters are tracked inside), the weights of
 * its evaluation, its search limits and level of play, and the engine
 * (transposition table, about 16 MiB by default) that searches it. It is
 * an opaque handle: no struct layout is part of the API, so later versions
 * can change the internals without breaking apps built against this
 * header (see CHANGELOG.md).
 *
 * Errors. Every function that can fail returns a DamaStatus (DAMA_OK = 0)
 * and leaves a message naming the bad input in dama_last_error(game), e.g.
 * "illegal move 'c3-e5' (legal: a3-b4 c3-b4 ...)"; a failed call leaves the
 * game as it was. Nothing prints, nothing exits, nothing aborts on bad
 * input.
 *
 * Threads. One DamaGame must be used by one thread at a time (no internal
 * locks); different DamaGames may be used by different threads at once
 * (nothing is shared but read-only tables). The one exception is
 * dama_stop(), which any thread may call while a search runs.
 *
 * Text. Output buffers are (char *out, size_t size): the text is written
 * NUL-terminated; if it does not fit, as much as fits is written and
 * DAMA_E_BUFFER is returned. An out of NULL or a size of 0 is no buffer
 * (DAMA_E_ARGUMENT), except where a function says out may be NULL
 * (dama_search, dama_play: the move's text is then not written; dama_pdn's
 * sizing call). Move text is the game's notation as `dama
 * moves` writes it (every landing square: "c3:e5:g3"; Turkish "d4:d6:f6";
 * Shatra "41:27:13", "57*40", "13-3=R"; the numbered games start x end,
 * "22x13", see Squares); input move text may also be a short form the
 * game accepts. Position strings: PDN 3.0 FEN for draughts
 * ("W:Wa1,c3,Kd4:Bb6,f6", numbered "W:W21,22:B9"), the Shatra rule
 * book's section 8 for Shatra.
 * A position no game can reach is DAMA_E_POSITION (docs/rules/<game>.md,
 * "Positions dama rejects"), among them one where the side that just
 * moved has no pieces ("W:Wa1:B": its loss ended the game before this
 * turn); the side without pieces to move ("B:Wa1:B") is a finished game.
 *
 * Squares. dama_move_from/to/captures use the game's own square indices:
 * Russian and Turkish 0..63 with a1 = 0, b1 = 1, ..., h8 = 63 (rank * 8 +
 * file); Shatra 0..61, the rule book's square number minus one. The
 * other 8x8 games use Russian's board and indices (a1 dark, White on
 * ranks 1-3; the books that turn the board, Italian and Spanish, are its
 * mirror image), whatever their notation: Czech writes algebraic squares,
 * Brazilian, Pool, English, Italian and Spanish their book's numbers
 * 1-32 ("22-18", a capture "22x13", the route "22x13x6x28" only when two
 * moves share start and end; positions "B:W21,...:B1,..."). International
 * draughts (10x10) writes the FMJD numbers 1-50 the same way ("32-28",
 * "28x19", the route "6x28x14x3"; "W:W31,...:B1,...") and uses indices
 * (11 * rank + file) / 2 of the dark squares, rank and file 0..9 from a1
 * (a1 = 0, c1 = 1, ..., j10 = 54; 5, 16, 27, 38 and 49 are never used):
 * square 46 = a1 = 0, 32 = d4 = 18, 1 = b10 = 50. Canadian draughts
 * (12x12) writes its numbers 1-72 the same way and uses indices
 * (13 * rank + file) / 2, rank and file 0..11 (a1 = 0, ..., l12 = 77):
 * square 67 = a1 = 0, 72 = k1 = 5, 1 = b12 = 72, 6 = l12 = 77.
 */
#ifndef DAMA_ENGINE_H
#define DAMA_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DAMA_VERSION_MAJOR 0
#define DAMA_VERSION_MINOR 1
#define DAMA_VERSION_PATCH 0
#define DAMA_VERSION_STRING "0.1.0"

#if defined(__GNUC__) || defined(__clang__)
#define DAMA_API __attribute__((visibility("default")))
#else
#define DAMA_API
#endif

/* A game in progress (opaque). */
typedef struct DamaGame DamaGame;

enum {
    DAMA_ERROR_MAX = 256,    /* bytes of a creation error message, with its NUL */
    DAMA_MOVE_TEXT_MAX = 160, /* bytes of the longest move text, with its NUL */
    DAMA_POSITION_MAX = 256  /* bytes of the longest position string, with its NUL */
};

typedef enum DamaStatus {
    DAMA_OK = 0,
    DAMA_E_ARGUMENT = 1, /* NULL pointer, index or value out of range */
    DAMA_E_GAME = 2,     /* unknown game name */
    DAMA_E_POSITION = 3, /* bad position string */
    DAMA_E_MOVE = 4,     /* malformed, illegal or ambiguous move text or index */
    DAMA_E_OVER = 5,     /* the game is over: no move may be applied or searched */
    DAMA_E_UNDO = 6,     /* no move to take back */
    DAMA_E_WEIGHTS = 7,  /* weights of another game or layout, wrong length, bad value, bad JSON */
    DAMA_E_IO = 8,       /* a file could not be read */
    DAMA_E_MEMORY = 9,   /* out of memory */
    DAMA_E_BUFFER = 10,  /* output buffer too small (output truncated) */
    DAMA_E_LEVEL = 11    /* unknown level of play */
} DamaStatus;

typedef enum DamaColor { DAMA_WHITE = 0, DAMA_BLACK = 1 } DamaColor;

typedef enum DamaResult {
    DAMA_ONGOING = 0,
    DAMA_WHITE_WINS = 1,
    DAMA_BLACK_WINS = 2,
    DAMA_DRAW = 3
} DamaResult;

typedef enum DamaMoveKind {
    DAMA_MOVE_QUIET = 0,   /* a step or a slide */
    DAMA_MOVE_CAPTURE = 1, /* a complete capture */
    DAMA_MOVE_DROP = 2,    /* Shatra: a reserve piece brought into play */
    DAMA_MOVE_PROMOTE = 3  /* Shatra: a waiting shatra promotes in place */
} DamaMoveKind;

/* Search limits (dama_set_limit). 0 = not set. When several are set the
 * search stops at the first one reached; with none set, a second per
 * move. Levels below max ignore them. The first iteration (1 ply)
 * completes past a node limit, so that the move comes from a search,
 * unless it runs 100 times past it (positions of dozens of kings a side);
 * dama_stop and a time limit end it too. The clock limits give the
 * time left and the increment of each side; the side to move's clock goes
 * to the engine's time manager (the one dama's Hub engine and matches
 * use), which sets two limits for this move, all in milliseconds: a soft
 * one, left / moves-to-go (default 30, at most 50) plus 3/4 of the
 * increment, past half of which no new iteration starts (more when the
 * best move changes or the score drops), and a hard one, at which the
 * search stops: four times the soft one, but at most a third of what is
 * left plus the increment (never below the soft one), and always short of
 * what is left by a margin of 5% of it, at most 50. A movetime set beside
 * a clock applies when it is shorter than the clock's hard limit. A
 * time beyond 10^12 ms (about 31.7 years) counts as that. */
typedef enum DamaLimit {
    DAMA_LIMIT_DEPTH = 0,        /* plies, at most 120 (DAMA_E_ARGUMENT beyond) */
    DAMA_LIMIT_NODES = 1,        /* nodes searched */
    DAMA_LIMIT_MOVETIME_MS = 2,  /* milliseconds for this move */
    DAMA_LIMIT_WHITE_TIME_MS = 3,
    DAMA_LIMIT_BLACK_TIME_MS = 4,
    DAMA_LIMIT_WHITE_INC_MS = 5,
    DAMA_LIMIT_BLACK_INC_MS = 6,
    DAMA_LIMIT_MOVES_TO_GO = 7   /* moves to the next time control */
} DamaLimit;

/* Levels of play (dama_level_doc describes each). Below DAMA_LEVEL_MAX
 * the engine searches every root move to a small fixed depth and picks at
 * random (dama_set_seed) among the moves scoring within a margin of the
 * best, so that people can win: beginner (1 ply per root move, within 3
 * men), casual (2 plies, 1.5 men), club (4 plies, 0.6 men), strong (6
 * plies, 0.2 men); these ignore the search limits. max plays its best move
 * within the limits. */
typedef enum DamaLevel {
    DAMA_LEVEL_BEGINNER = 1,
    DAMA_LEVEL_CASUAL = 2,
    DAMA_LEVEL_CLUB = 3,
    DAMA_LEVEL_STRONG = 4,
    DAMA_LEVEL_MAX = 5
} DamaLevel;

/* Stop callback: polled during a search (every 1,024 nodes); a non-zero
 * return ends the search with the best move found so far. Runs on the
 * searching thread. */
typedef int (*DamaStopFn)(void *ctx);

/* ---- library ---- */

/* "0.1.0": the version of the library linked (may differ from
 * DAMA_VERSION_STRING, the header's). */
DAMA_API const char *dama_version(void);
/* Static text of a status code ("illegal move", ...); never NULL. */
DAMA_API const char *dama_status_text(int status);
/* Number of games, and the name of game i ("russian", "turkish",
 * "shatra", then the 8x8 variants "brazilian", "pool", "english", "czech",
 * "italian", "spanish", then the 10x10 "international" and the 12x12
 * "canadian"); NULL when i is out of range. */
DAMA_API int dama_games_count(void);
DAMA_API const char *dama_game_name_at(int i);

/* ---- a game ---- */

/* Start a game of `game` (a name of dama_game_name_at) from `position`
 * (NULL, "" or "start": the game's start position). On DAMA_OK *out is a
 * new game to free with dama_game_free; otherwise *out is NULL and, if err
 * is not NULL, err receives the message (DAMA_ERROR_MAX bytes). */
DAMA_API int dama_game_new(const char *game, const char *position, DamaGame **out, char *err);
/* Free a game (NULL is allowed). */
DAMA_API void dama_game_free(DamaGame *game);
/* Message of the last failed call on this game ("" if none); valid until
 * the next call on the game. */
DAMA_API const char *dama_last_error(const DamaGame *game);
/* Start again from `position` (as dama_game_new); history and the
 * engine's tables are cleared; weights, limits and level are kept. */
DAMA_API int dama_game_reset(DamaGame *game, const char *position);
/* The game's name ("russian") and title ("Russian draughts"). */
DAMA_API const char *dama_game_name(const DamaGame *game);
DAMA_API const char *dama_game_title(const DamaGame *game);

/* The current / start position string. */
DAMA_API int dama_position(DamaGame *game, char *out, size_t size);
DAMA_API int dama_start_position(DamaGame *game, char *out, size_t size);

/* ---- moves ---- */

/* Number of legal moves of the current position (D convention: routes
 * with the same start, end, captured set and promotion are one move).
 * When the game is over by a rule (dama_result) moves may remain, but
 * none can be applied. Moves are indexed 0..count-1 in a fixed order. */
DAMA_API int dama_moves_count(DamaGame *game);
/* Text of legal move `index`. */
DAMA_API int dama_move_text(DamaGame *game, int index, char *out, size_t size);
/* Structured legal move `index`: start and end square, DamaMoveKind, the
 * piece promoted to (0 for none; Shatra: 2 Batyr, 3 Tura, 4 Yalkyn;
 * draughts: 1 when the man crowns) — each -1 for a bad index. */
DAMA_API int dama_move_from(DamaGame *game, int index);
DAMA_API int dama_move_to(DamaGame *game, int index);
DAMA_API int dama_move_kind(DamaGame *game, int index);
DAMA_API int dama_move_promotion(DamaGame *game, int index);
/* Captured squares of move `index`, ascending, into squares[0..max);
 * returns how many it captures (may exceed max), -1 for a bad index, a
 * negative max or a NULL squares with max > 0 (squares NULL and max 0:
 * only the count). */
DAMA_API int dama_move_captures(DamaGame *game, int index, int *squares, int max);
/* Index of the legal move written `text` (full or short form), into
 * *index. DAMA_E_MOVE if malformed, illegal or ambiguous. */
DAMA_API int dama_move_find(DamaGame *game, const char *text, int *index);

/* Apply a legal move by text or by index; DAMA_E_OVER once the game is
 * over (by rule, no move, or threefold repetition). */
DAMA_API int dama_apply_move(DamaGame *game, const char *text);
DAMA_API int dama_apply_index(DamaGame *game, int index);
/* Take back the last move (DAMA_E_UNDO at the start). */
DAMA_API int dama_undo(DamaGame *game);

/* ---- history ---- */

/* Plies applied since the start position. */
DAMA_API int dama_ply_count(const DamaGame *game);
/* Text of the move of ply `ply` (0-based). */
DAMA_API int dama_history_move(DamaGame *game, int ply, char *out, size_t size);
/* The game as PDN: tags (Event, White, Black, Result, GameType, FEN when
 * not the start position) and movetext with the result. white/black may
 * be NULL ("?"); a control character in them (a newline, a tab) is
 * written as a space. *len (may be NULL) receives the full length without the
 * NUL, so a second call can size the buffer: out NULL with size 0 and len
 * set asks for the length only (DAMA_E_BUFFER, as for any text that does
 * not fit). */
DAMA_API int dama_pdn(DamaGame *game, const char *white, const char *black, char *out, size_t size,
                      size_t *len);

/* ---- status ---- */

/* The result of the current position with the whole history: a rule of
 * the game (Russian D4-D8, Turkish lone man, Shatra Biy captured, ...),
 * no legal move (the side to move loses) or threefold repetition. *reason
 * (may be NULL) receives a static id ("no-moves", "D3", "biy-captured",
 * "repetition", ...) or NULL while the game goes on. */
DAMA_API DamaResult dama_result(DamaGame *game, const char **reason);
DAMA_API DamaColor dama_side_to_move(const DamaGame *game);
/* 1 if the side to move must capture now, else 0. */
DAMA_API int dama_must_capture(const DamaGame *game);
/* 1 if the game has a royal piece (Shatra's Biy), else 0. */
DAMA_API int dama_has_royal(const DamaGame *game);
/* 1 if `side`'s royal piece could be captured now (as if the opponent
 * were to move): a GUI shows a threatened Biy. 0 otherwise and in games
 * without one; -1 when side is neither DAMA_WHITE nor DAMA_BLACK. */
DAMA_API int dama_royal_attacked(const DamaGame *game, DamaColor side);
/* Draw counters: plies since the last irreversible move (capture, a man's
 * step forward, drop, promotion: no earlier position can repeat; a Turkish
 * man's or a Shatra shatra's sideways step is reversible), and how many times the
 * current position has occurred in this game (1 = first time, 3 = draw). */
DAMA_API int dama_reversible_plies(const DamaGame *game);
DAMA_API int dama_repetitions(const DamaGame *game);

/* ---- search ---- */

/* Set one limit (DamaLimit; value >= 0, 0 clears it). */
DAMA_API int dama_set_limit(DamaGame *game, int limit, int64_t value);
/* Clear every limit. */
DAMA_API void dama_clear_limits(DamaGame *game);
/* Transposition table size in MiB (1..65536; default 16): the new table
 * is allocated now, cleared. DAMA_E_MEMORY when it cannot be: the table
 * before it (and its size) stays. */
DAMA_API int dama_set_hash_mb(DamaGame *game, int mb);
/* Level of play (DamaLevel), or by name ("beginner", "casual", "club",
 * "strong", "max"). Default DAMA_LEVEL_MAX. */
DAMA_API int dama_set_level(DamaGame *game, int level);
DAMA_API int dama_set_level_name(DamaGame *game, const char *name);
DAMA_API int dama_level(const DamaGame *game);
/* Name of a level ("club") and one line about it; NULL if none. */
DAMA_API const char *dama_level_name(int level);
DAMA_API const char *dama_level_doc(int level);
/* Seed of the level's random choices (default 0): same seed, limits
 * without time and same moves give the same choices. */
DAMA_API void dama_set_seed(DamaGame *game, uint64_t seed);
/* A callback polled during the search (NULL: none). */
DAMA_API void dama_set_stop_callback(DamaGame *game, DamaStopFn fn, void *ctx);
/* Ask a running search of `game` to stop soon (any thread may call it);
 * the flag is cleared when the next search starts. */
DAMA_API void dama_stop(DamaGame *game);

/* Search the current position for the side to move within the limits and
 * the level; writes the chosen move's text to out (DAMA_MOVE_TEXT_MAX
 * bytes suffice) and keeps the result for the dama_search_* accessors.
 * Does not apply the move (out may be NULL: the accessors alone). DAMA_E_OVER if the game is over. Searches
 * limited by depth or nodes only are deterministic. */
DAMA_API int dama_search(DamaGame *game, char *out, size_t size);
/* Search, then apply the chosen move (its text in out, may be NULL). An
 * out too small for the text (DAMA_E_BUFFER) or of size 0
 * (DAMA_E_ARGUMENT) fails the call: the move is not applied, and the
 * dama_search_* accessors give the search's result. */
DAMA_API int dama_play(DamaGame *game, char *out, size_t size);
/* Of the last search: index of the chosen move among the legal moves of
 * the position searched, its score (centi-men, the side to move's view;
 * beyond +-29000 a won/lost game), the depth completed (plies), the
 * nodes searched, and the principal variation as text. */
DAMA_API int dama_search_index(const DamaGame *game);
DAMA_API int dama_search_score(const DamaGame *game);
DAMA_API int dama_search_depth(const DamaGame *game);
DAMA_API uint64_t dama_search_nodes(const DamaGame *game);
DAMA_API int dama_search_pv(DamaGame *game, char *out, size_t size);

/* Should the engine, playing `side`, accept a draw offered now? Searches
 * the current position within the limits (200,000 nodes when none are
 * set) and accepts when its score for `side` is at most 0 centi-men (level
 * or worse for it), or when the game is already drawn. *accept gets 1 or
 * 0. DAMA_E_ARGUMENT when accept is NULL or side is neither DAMA_WHITE nor
 * DAMA_BLACK (*accept unchanged). */
DAMA_API int dama_accept_draw(DamaGame *game, DamaColor side, int *accept);

/* Static evaluation of the current position, centi-men, White's view. */
DAMA_API int dama_evaluate(DamaGame *game);

/* ---- weights ---- */

/* The evaluation is linear in int32 weights, grouped in named terms (a
 * scalar, or a table such as a value per square). */
DAMA_API int dama_weights_len(const DamaGame *game);
DAMA_API int dama_terms_count(const DamaGame *game);
/* Term i: name ("MAN"), first weight, number of weights, documentation;
 * NULL / -1 for a bad index. */
DAMA_API const char *dama_term_name(const DamaGame *game, int i);
DAMA_API int dama_term_offset(const DamaGame *game, int i);
DAMA_API int dama_term_size(const DamaGame *game, int i);
DAMA_API const char *dama_term_doc(const DamaGame *game, int i);
/* Layout version of the game's term list (a hex id of the term names and
 * sizes, as in exported JSON and C headers), and the hash of the weights
 * in use (16 hex digits, the content hash dama's database keeps for the
 * weight set, as exported). Static / per-game
 * text, valid until the next weights call. */
DAMA_API const char *dama_weights_layout(const DamaGame *game);
DAMA_API const char *dama_weights_hash(DamaGame *game);

/* Copy the weights in use into out[0..len); len must be dama_weights_len. */
DAMA_API int dama_weights_get(DamaGame *game, int32_t *out, int len);
/* Use weights[0..len) (copied; len must be dama_weights_len; each value in
 * -5000..5000). */
DAMA_API int dama_weights_set(DamaGame *game, const int32_t *weights, int len);
/* Back to the compiled-in weights. */
DAMA_API void dama_weights_default(DamaGame *game);
/* Use the weights of a JSON export (`dama export --format json`), from a
 * file or from text. Refused with DAMA_E_WEIGHTS (and a message saying
 * which) when the JSON is of another game or another layout version, a
 * term is missing, unknown or of the wrong size, a value is out of range,
 * a key stands twice in an object, a key is none the export writes, or its
 * hash does not match its values. */
DAMA_API int dama_weights_load_json(DamaGame *game, const char *path);
DAMA_API int dama_weights_parse_json(DamaGame *game, const char *text);

#ifdef __cplusplus
}
#endif

#endif
