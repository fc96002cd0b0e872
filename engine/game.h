/* game.h — the one interface through which search, self-play, tuner, database
 * and command line know a game (Russian draughts, Turkish draughts, Shatra).
 *
 * A game is a plug-in: a const Game table of functions over an opaque
 * position blob. Positions are copied, never shared: make writes the child
 * position into a separate buffer (copy-make), so "unmake" is dropping the
 * child. Every function here is pure and thread-safe once game_init_all()
 * has run (no globals are written after init).
 *
 * Squares are the game's own indices (0..63; Canadian draughts' 12x12
 * board 0..77); a Move's captured set is a bitset over those indices, bit
 * b standing for square b + Game.captured_shift (0 but on the 12x12 board,
 * whose captured pieces stand on indices 7..70). Move identity follows the D convention of
 * docs/rules/README.md: two routes with the same start, end, captured set
 * and promotion are one move.
 */
#ifndef DAMA_GAME_H
#define DAMA_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h" /* ERR_MAX, err_set */

enum {
    POS_SIZE_MAX = 160, /* bytes of the largest game's position struct */
    MOVES_MAX = 2048,   /* most legal moves of any position of any game (Shatra: over 1,100 seen) */
    FEN_MAX = 256,      /* longest position string, with its NUL */
    MOVE_STR_MAX = 160, /* longest move string, with its NUL */
    TRACE_MAX = 192,    /* most non-zero terms of one evaluation trace */
    PLY_MAX = 128       /* deepest search ply */
};

enum { GAME_ROYAL_VALUE = 100000 }; /* Game.capture_value of a capture that takes the royal piece */

typedef enum Color { COLOR_WHITE = 0, COLOR_BLACK = 1 } Color;

typedef enum MoveKind {
    MOVE_QUIET = 0,   /* step or slide */
    MOVE_CAPTURE = 1, /* a complete capture chain */
    MOVE_DROP = 2,    /* Shatra: a reserve piece placed from `from` onto `to` */
    MOVE_PROMOTE = 3  /* Shatra: a waiting shatra promotes in place */
} MoveKind;

/* One complete turn. 16 bytes; the route of a capture is not stored (it is
 * rebuilt for notation, see Game.move_to_str). */
typedef struct Move {
    uint64_t captured; /* captured squares (bitset: bit b is square b + Game.captured_shift) */
    uint8_t from;      /* start square (for a drop: where the piece stood) */
    uint8_t to;        /* end square */
    uint8_t kind;      /* MoveKind */
    uint8_t promo;     /* 0, or the game's piece type promoted to */
    uint8_t aux[4];    /* game-private detail (e.g. mid-chain promotion) */
} Move;

typedef struct MoveList {
    int len;
    Move moves[MOVES_MAX];
} MoveList;

/* An opaque position of any game. Only the owning game reads its bytes. */
typedef struct Position {
    _Alignas(16) unsigned char data[POS_SIZE_MAX];
} Position;

typedef enum Outcome {
    OUTCOME_NONE = 0,       /* game goes on */
    OUTCOME_WHITE_WINS = 1,
    OUTCOME_BLACK_WINS = 2,
    OUTCOME_DRAW = 3
} Outcome;

/* Sparse evaluation trace of a tapered evaluation (see Game.eg_offset):
 * with op = sum(coef[i] * weights[index[i]]) and eg = sum(coef[i] *
 * weights[index[i] + eg_offset]) over i < len, the static evaluation
 * (White's view, centi-men) is exactly eval_taper(op, eg, phase, phase_max)
 * of engine/eval.h. Indices are those of the opening weights (< eg_offset). */
typedef struct EvalTrace {
    int len;
    int phase; /* the position's material phase, 0 (bare endgame) .. phase_max */
    uint32_t index[TRACE_MAX]; /* weight index (any model size) */
    int16_t coef[TRACE_MAX];
} EvalTrace;

/* One evaluation term group: `count` consecutive weights named `name`. */
typedef struct EvalTerm {
    const char *name;
    int offset; /* index of its first weight */
    int count;  /* number of weights (1 for a scalar, 32 for a square table) */
    const char *doc;
} EvalTerm;

/* One search parameter whose default a game changes: its NAME in
 * engine/search_params.def and the game's value (in the parameter's range;
 * tests/test_search.c checks both for every game). */
typedef struct GameSearchParam {
    const char *name;
    int value;
} GameSearchParam;

enum { BOARD_TEXT_MAX = 4096 }; /* bytes of Game.board_text's picture, with its NUL */

struct EgtbIndexer; /* engine/egtb/egtb.h */

typedef enum GenMode {
    GEN_DISTINCT = 0, /* D convention: one move per (from, to, captured, promotion) */
    GEN_PATHS = 1,    /* P convention: one move per landing path (perft --paths) */
    GEN_SEQUENCES = 2 /* K convention, perft only (gen_moves lists D): one move per ordered
                       * sequence of captured pieces and end square (perft --sequences) */
} GenMode;

typedef struct Game {
    const char *name;      /* "russian", "turkish", "shatra" */
    const char *title;     /* "Russian draughts" */
    int pdn_gametype;      /* PDN GameType tag value, 0 if none */
    size_t pos_size;       /* bytes of the position struct (<= POS_SIZE_MAX) */
    const char *start_fen; /* start position string */

    /* Parse a position string. Returns 0, or -1 with a message naming the
     * problem in err. Counters not in the string start at zero. */
    int (*pos_from_fen)(Position *pos, const char *fen, char err[ERR_MAX]);
    /* Write the position string (round-trips through pos_from_fen). */
    void (*pos_to_fen)(const Position *pos, char out[FEN_MAX]);

    /* All legal moves into list (len set). Returns the number of moves. */
    int (*gen_moves)(const Position *pos, MoveList *list, GenMode mode);
    /* True if the side to move must capture (a capture is compulsory now). */
    bool (*has_capture)(const Position *pos);
    /* True if no capture is pending for either side: the side to move has
     * none and the other side would have none if it were to move. The
     * tuner fits the static evaluation on such positions only. */
    bool (*is_quiet)(const Position *pos);
    /* Child position after a legal move from gen_moves (copy-make). */
    void (*make_move)(const Position *pos, const Move *move, Position *child);

    Color (*side_to_move)(const Position *pos);
    uint64_t (*hash)(const Position *pos);      /* incremental Zobrist key */
    uint64_t (*hash_full)(const Position *pos); /* recomputed from scratch */
    /* Plies since the last irreversible turn: no earlier position can repeat. */
    int (*reversible_plies)(const Position *pos);
    /* Pieces of both sides on the board (men and kings), or NULL: the
     * game does not say (search parameters that need it do nothing). */
    int (*piece_count)(const Position *pos);
    /* Outcome by rules that need only this position and its counters (no
     * history, no move list): e.g. Russian D4-D8, Turkish lone man, Shatra
     * Biy captured. Sets *reason to a short id ("D5", "biy-captured"). */
    Outcome (*rule_outcome)(const Position *pos, const char **reason);
    /* Games with a royal piece (Shatra's Biy): can `side`'s royal piece be
     * captured by the opponent right now (as if the opponent were to move)?
     * NULL for games without one. */
    bool (*royal_attacked)(const Position *pos, Color side);
    /* Does a legal move of pos move (or drop) the royal piece? NULL for
     * games without one. Random openings leave the royal piece home. */
    bool (*move_is_royal)(const Position *pos, const Move *move);
    /* Move ordering, optional (NULL: captures ordered by the number of
     * pieces taken): the rough value of what the capture `move` of pos takes,
     * centi-men (a man or a shatra 100; fixed values, not the tuned weights),
     * GAME_ROYAL_VALUE or more when it takes the royal piece (that capture
     * wins the game); 0 for a move that captures nothing. Pure. */
    int (*capture_value)(const Position *pos, const Move *move);
    /* Reason id of a threefold repetition ("D3" in Russian draughts). */
    const char *repetition_reason;
    /* Every reason id with which rule_outcome draws a game (the move-count
     * and material rules), comma-separated: "D4,D5,D6,D7,D8" in Russian
     * draughts; NULL: none named (`dama egtb draws` then needs --reasons). */
    const char *rule_draw_reasons;
    /* Endgame knowledge for the search's static value, optional (NULL:
     * none). Is the material of pos a balance that the game's draw rules
     * make a draw whatever its size, `strong` being the side the static
     * value favours (Russian: one or two pieces against a lone king, rule
     * D8; three against a lone king on the main road, D7)? Sets
     * *plies_left to the plies a move-count rule leaves the current
     * material before it draws the game (INT32_MAX: none applies). With
     * the search parameters DRAWN_SCALE and COUNTER_RAMP set, the search
     * scales its static value down in such positions (as chess engines
     * scale toward the 50-move rule); by default they are off and this is
     * not called (Russian measured -3 +- 11 Elo with it, docs/search.md).
     * Pure. */
    bool (*drawish)(const Position *pos, Color strong, int *plies_left);

    /* Move text in the game's notation: full (every landing square) or, in
     * numbered notations, a capture as start x end unless another legal
     * move shares both; the route written for a multi-route move is chosen
     * deterministically. */
    void (*move_to_str)(const Position *pos, const Move *move, char out[MOVE_STR_MAX]);
    /* Parse move text against the legal moves of pos (full or short forms).
     * Returns 0, or -1 with a message (illegal, ambiguous, malformed) that
     * quotes the text, so callers add only where it was read. */
    int (*move_from_str)(const Position *pos, const char *text, Move *move, char err[ERR_MAX]);

    /* Leaf count to depth (plies), D or P convention, game rules' end
     * conditions ignored. Single-threaded, fast path. */
    uint64_t (*perft)(const Position *pos, int depth, GenMode mode);
    /* Does perft count GEN_SEQUENCES (K)? Else it must not be asked to. */
    bool perft_sequences;
    /* Move.captured's bit b is square index b + captured_shift (0 for
     * every game whose indices fit 64 bits). */
    int captured_shift;

    /* Evaluation: linear in int32 weights; returns White's view, centi-men. */
    int terms_len;             /* number of EvalTerm groups */
    const EvalTerm *terms;     /* term groups, in weight order */
    int weights_len;           /* total number of weights */
    int scale_weight;          /* the weight that fixes the scale (a man, a shatra = 100): never tuned or perturbed */
    /* Compiled-in weights in this build's term layout (weights_len of
     * them): the generated header (weights_header), laid out at init by
     * weights_laid_out. Before game_init_all they are all 0. */
    const int32_t *(*weights_default)(void);
    const struct WeightsHeader *weights_header; /* the generated weights.h as compiled */
    const char *weights_lineage;    /* where they came from (the header's <GAME>_WEIGHTS_LINEAGE) */
    /* Tapered evaluation (as Fruit, Ethereal and Scan: see
     * chessprogramming.org/Tapered_Eval): every term group has an opening
     * group NAME at weights [0, eg_offset) and an endgame twin NAME_EG at the
     * same place + eg_offset (weights_len == 2 * eg_offset); a position's
     * value is (op * phase + eg * (phase_max - phase)) / phase_max (C
     * division, truncating toward zero, so mirrored positions stay exactly
     * opposite), phase = its material, capped at phase_max. */
    int eg_offset;
    int phase_max;
    int32_t (*evaluate)(const Position *pos, const int32_t *weights);
    /* Same value as evaluate, plus the sparse trace of coefficients. */
    int32_t (*evaluate_trace)(const Position *pos, const int32_t *weights, EvalTrace *trace);
    /* Does this build's evaluation read term group `group` (an index of
     * terms, either phase)? A group it leaves out stays in the layout and
     * adds nothing, whatever its weights (Shatra's relation tables outside
     * the CMake option DAMA_SHATRA_RELATIONS). NULL: it reads every group. */
    bool (*term_computed)(int group);
    /* Mirror colours (board, side, state): for the symmetry property test. */
    void (*pos_mirror)(const Position *pos, Position *out);

    /* Benchmark: NULL-terminated position strings searched to bench_depth. */
    const char *const *bench_fens;
    int bench_depth;
    int perft_bench_depth; /* start-position perft depth of `dama bench --perft` */
    /* Opening book shipped with dama (path relative to the source tree), or
     * NULL: self-play and matches then use random balanced openings. */
    const char *opening_book;

    /* Build the game's tables (Zobrist keys, masks). Idempotent; called by
     * game_init_all() from one thread. NULL: nothing to build. */
    void (*init)(void);
    /* Search defaults that differ from engine/search_params.def's, ended
     * by {NULL, 0}; NULL: none (search_param_default). */
    const GameSearchParam *search_params;
    /* Endgame-database indexing (engine/egtb/egtb.h), or NULL: no
     * databases for this game (egtb_indexer). */
    const struct EgtbIndexer *egtb;

    /* Display: a picture of pos for a terminal, into out (size bytes, cut
     * to fit, always NUL-terminated): one line a rank, Unicode glyphs, the
     * ranks numbered at the left and the files lettered below; flip: seen
     * from Black's side; colour: ANSI red marks what the player must see
     * (Shatra's Biy that can be captured). NULL: front ends show the
     * position string. Pure, thread-safe. */
    void (*board_text)(const Position *pos, bool flip, bool colour, char *out, size_t size);
    /* Examples of move text for a player's help ("c3-d4, c3:e5:g7, ..."). */
    const char *move_examples;
    /* A square table's rows in weight order (lengths, ended by 0): weight
     * files lay a term of that many weights out like the board. NULL: the
     * 8x8 layouts (32 or 64 weights) only (engine/weights_file.c). */
    const unsigned char *board_rows;
    /* What an evaluation value of 100 is, for labels: "centi-men", "a
     * shatra = 100". */
    const char *value_unit;
    /* Where a build chooses the term groups term_computed leaves out (a
     * CMake option and the document that explains it), for messages;
     * NULL when term_computed is NULL. */
    const char *terms_build_option;
} Game;

/* The registry (engine/games/registry.c): */
/* Build every game's tables (Game.init of each). Idempotent; call once
 * before any other function here, from one thread. */
void game_init_all(void);

/* The game a command plays when none is named (its --game default, the
 * Hub's first variant): the one place that names it. */
extern const char GAME_DEFAULT_NAME[];

/* The game named `name`, or NULL. */
const Game *game_find(const char *name);
/* NULL-terminated list of all games. */
const Game *const *game_list(void);
/* The names of the games that keep accepts (keep NULL: every game), in
 * registry order, joined by ", " and by `last` before the final one
 * ("russian, turkish or shatra" with last " or "), into out (cut to size,
 * NUL-terminated). Returns the number of names written. */
int game_names(char *out, size_t size, const char *last, bool (*keep)(const Game *g));

/* Outcome of a game position given the Zobrist keys of the earlier
 * positions of the game (history[len-1] is the parent). Checks, in order:
 * rule_outcome, no legal move (side to move loses), threefold repetition
 * (reason "D3"/"repetition"). `moves` may be NULL; if not, it receives the
 * legal moves. */
Outcome game_outcome(const Game *game, const Position *pos, const uint64_t *history, int len,
                     const char **reason, MoveList *moves);

/* Make an error message printable in place: every byte that is neither
 * printable ASCII nor part of a valid UTF-8 sequence (control bytes, a
 * binary input quoted in it) becomes \xNN; a message that grows beyond
 * ERR_MAX is cut, ending in "...". The games' position and move parsers
 * pass their messages through it. */
void game_err_printable(char err[ERR_MAX]);

/* Parse a position string, or the start position when fen is NULL, "start"
 * or "startpos". An empty string is an error (-1 with err), like any
 * position the game's parser refuses. */
int game_parse_position(const Game *game, const char *fen, Position *pos, char err[ERR_MAX]);

/* The side that moves first in the game: the side to move of its start
 * position (White; Black in English draughts and Pool checkers). PDN
 * numbers the moves in pairs that begin with its move ("1. 11-15 23-19"). */
Color game_first_mover(const Game *game);

static inline int outcome_score_white(Outcome o)
{
    /* result from White's view in half points: 2 win, 1 draw, 0 loss */
    return o == OUTCOME_WHITE_WINS ? 2 : o == OUTCOME_BLACK_WINS ? 0 : 1;
}

const char *outcome_pdn(Outcome o); /* "1-0", "0-1", "1/2-1/2", "*" */

#endif
