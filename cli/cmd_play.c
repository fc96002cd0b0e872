/* cmd_play.c — `dama play`: a game against the engine in a terminal. The
 * board is drawn in Unicode from the position string; moves are typed in
 * the game's notation (full or short forms); takeback, resign and draw
 * offers (the engine answers with engine_accept_draw); Shatra's threatened
 * Biy is drawn in red when colour is on. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/num.h"
#include "db/db.h"
#include "engine/eval.h"
#include "engine/game_record.h"
#include "engine/search.h"
#include "engine/skill.h"
#include "db/weight_sets.h"

static const CliOpt OPTS[] = {
    {"game", OPT_STR, "russian", "game: russian, turkish or shatra", 0, 0},
    {"fen", OPT_STR, NULL, "start position (default: the game's start)", 0, 0},
    {"side", OPT_STR, "white", "the side you play: white or black", 0, 0},
    {"level", OPT_STR, "club", "engine level: beginner, casual, club, strong, max, or depth=N, nodes=N, time=MS", 0, 0},
    {"seed", OPT_INT, "1", "seed of the levels' random choices (same seed, same game)", 0, CLI_INT_MAX},
    {"weights", OPT_STR, "default", "engine weights: " CLI_WEIGHTS_FORMS, 0, 0},
    {"db", OPT_DB, "dama.sqlite", "database of tuned / db:ID weights", 0, 0},
    {"hash", OPT_INT, "32", "transposition table MiB", 1, 65536},
    {"color", OPT_STR, "auto", "ANSI colour: auto (when the output is a terminal), always or never", 0, 0},
    {"no-color", OPT_FLAG, NULL, "same as --color never", 0, 0},
    {0},
};

/* ---- the board ------------------------------------------------------------ */

enum { BOARD_FILES = 7, BOARD_RANKS = 14 };

/* The Unicode glyph of a piece letter of the position string, or NULL. */
static const char *draughts_glyph(char c)
{
    switch (c) {
    case 'w': return "\u25cb"; /* white man: white circle */
    case 'W': return "\u25ce"; /* white king: bullseye */
    case 'b': return "\u25cf"; /* black man: black circle */
    case 'B': return "\u25c9"; /* black king: fisheye */
    default: return NULL;
    }
}

static const char *shatra_glyph(char c)
{
    switch (c) {
    case 'K': return "\u2654"; /* Biy */
    case 'Q': return "\u2655"; /* Batyr */
    case 'R': return "\u2656"; /* Tura */
    case 'B': return "\u2657"; /* Yalkyn */
    case 'S': return "\u2659"; /* shatra */
    case 'k': return "\u265a";
    case 'q': return "\u265b";
    case 'r': return "\u265c";
    case 'b': return "\u265d";
    case 's': return "\u265f";
    default: return NULL;
    }
}

/* Draughts FEN as dama writes it ("W:Wa1,Kc3:Bb6"): board[rank][file] gets
 * 'w','W','b','B' or 0. Returns 0 or -1 if the text is not of that form. */
static int read_draughts_fen(const char *fen, char board[8][8])
{
    memset(board, 0, 64);
    const char *p = strchr(fen, ':');
    while (p) {
        p++;
        char colour = *p;
        if (colour != 'W' && colour != 'B') return -1;
        p++;
        while (*p && *p != ':') {
            bool king = *p == 'K';
            if (king) p++;
            if (p[0] < 'a' || p[0] > 'h' || !isdigit((unsigned char)p[1])) return -1;
            int file = p[0] - 'a', rank = atoi(p + 1) - 1;
            if (rank < 0 || rank > 7) return -1;
            board[rank][file] = colour == 'W' ? (king ? 'W' : 'w') : (king ? 'B' : 'b');
            p += 2;
            while (isdigit((unsigned char)*p)) p++;
            if (*p == ',') p++;
        }
        p = *p == ':' ? p : NULL;
    }
    return 0;
}

/* Shatra position string: cells[1..62] get the piece letters (0 = empty). */
static int read_shatra_fen(const char *fen, char cells[63])
{
    memset(cells, 0, 63);
    int sq = 1;
    for (const char *p = fen; *p && *p != ' '; p++) {
        if (*p == '/') continue;
        if (isdigit((unsigned char)*p)) sq += *p - '0';
        else if (sq <= 62) cells[sq++] = *p;
        else return -1;
    }
    return sq == 63 ? 0 : -1;
}

typedef struct Style {
    bool colour;
} Style;

static void red(const Style *s, const char *text, FILE *out)
{
    if (s->colour) fprintf(out, "\033[1;31m%s\033[0m", text);
    else fputs(text, out);
}

/* Draw a draughts board from White's view (flip: Black's). Russian men
 * stand on the dark squares only; Turkish draughts uses all 64. */
static void draw_draughts(const Game *g, const Position *pos, bool flip, FILE *out)
{
    char fen[FEN_MAX];
    g->pos_to_fen(pos, fen);
    char board[8][8];
    if (read_draughts_fen(fen, board) != 0) {
        fprintf(out, "%s\n", fen);
        return;
    }
    bool all_squares = strcmp(g->name, "turkish") == 0;
    for (int r = 0; r < 8; r++) {
        int rank = flip ? r : 7 - r;
        fprintf(out, " %d ", rank + 1);
        for (int f = 0; f < 8; f++) {
            int file = flip ? 7 - f : f;
            const char *glyph = draughts_glyph(board[rank][file]);
            bool playing = all_squares || (rank + file) % 2 == 0;
            fprintf(out, " %s", glyph ? glyph : playing ? "\u00b7" : " ");
        }
        fputc('\n', out);
    }
    fputs("   ", out);
    for (int f = 0; f < 8; f++) fprintf(out, " %c", 'a' + (flip ? 7 - f : f));
    fputc('\n', out);
}

/* Shatra: 7 files by 14 ranks; empty squares show their number (moves are
 * written with them); a Biy that can be captured now is drawn in red. */
static void draw_shatra(const Game *g, const Position *pos, bool flip, const Style *st, FILE *out)
{
    char fen[FEN_MAX];
    g->pos_to_fen(pos, fen);
    char cells[63];
    if (read_shatra_fen(fen, cells) != 0) {
        fprintf(out, "%s\n", fen);
        return;
    }
    /* Square numbers of each row, left to right, and the first file. */
    static const int ROW_LEN[BOARD_RANKS] = {3, 3, 3, 1, 7, 7, 7, 7, 7, 7, 1, 3, 3, 3};
    bool attacked[2] = {false, false};
    if (g->royal_attacked) {
        attacked[COLOR_WHITE] = g->royal_attacked(pos, COLOR_WHITE);
        attacked[COLOR_BLACK] = g->royal_attacked(pos, COLOR_BLACK);
    }
    int first[BOARD_RANKS];
    for (int r = 0, sq = 1; r < BOARD_RANKS; r++) first[r] = sq, sq += ROW_LEN[r];
    for (int i = 0; i < BOARD_RANKS; i++) {
        int r = flip ? BOARD_RANKS - 1 - i : i;
        if (i == 7) fputs("      ~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n", out);
        fprintf(out, " %2d  ", BOARD_RANKS - r);
        int lead = (BOARD_FILES - ROW_LEN[r]) / 2;
        for (int f = 0; f < BOARD_FILES; f++) {
            int k = flip ? BOARD_FILES - 1 - f : f;
            if (k < lead || k >= lead + ROW_LEN[r]) {
                fputs("    ", out);
                continue;
            }
            int sq = first[r] + (k - lead);
            const char *glyph = shatra_glyph(cells[sq]);
            if (!glyph) {
                fprintf(out, " %2d ", sq);
                continue;
            }
            fputs("  ", out);
            bool biy = cells[sq] == 'K' || cells[sq] == 'k';
            Color c = isupper((unsigned char)cells[sq]) ? COLOR_WHITE : COLOR_BLACK;
            if (biy && attacked[c]) red(st, glyph, out);
            else fputs(glyph, out);
            fputs(" ", out);
        }
        fputc('\n', out);
    }
    fputs("       ", out);
    for (int f = 0; f < BOARD_FILES; f++) fprintf(out, "%c   ", 'a' + (flip ? BOARD_FILES - 1 - f : f));
    fputc('\n', out);
    for (int c = 0; c < 2; c++)
        if (attacked[c]) {
            fputs("  ", out);
            red(st, c == COLOR_WHITE ? "White's Biy can be captured" : "Black's Biy can be captured", out);
            fputc('\n', out);
        }
    /* the rest of the state: reserve, urgent pieces, counters */
    const char *rest = strchr(fen, ' ');
    if (rest) fprintf(out, "  state:%s\n", rest);
}

static void draw(const Game *g, const Position *pos, bool flip, const Style *st, FILE *out)
{
    fputc('\n', out);
    if (strcmp(g->name, "shatra") == 0) draw_shatra(g, pos, flip, st, out);
    else draw_draughts(g, pos, flip, out);
}

/* ---- the game ------------------------------------------------------------- */

static const char *colour_name(Color c) { return c == COLOR_WHITE ? "White" : "Black"; }

/* --level: a named level, or depth=N / nodes=N / time=MS at full strength. */
static int parse_level(const char *text, const SkillLevel **level, SearchLimits *lim)
{
    memset(lim, 0, sizeof *lim);
    *level = skill_find(text);
    if (*level) {
        if ((*level)->depth == 0) lim->movetime_ms = 1000; /* max: one second a move */
        return 0;
    }
    *level = skill_find("max");
    const char *eq = strchr(text, '=');
    if (!eq) eq = strchr(text, ':');
    if (!eq) return -1;
    int64_t v = 0; /* the checked parser: depth=4294967297 is no depth 1 */
    if (num_parse_int(eq + 1, 1, 1000000000000000LL, &v) != NUM_OK) return -1;
    size_t n = (size_t)(eq - text);
    if (n == 5 && strncmp(text, "depth", 5) == 0 && v <= 100) lim->depth = (int)v;
    else if (n == 5 && strncmp(text, "nodes", 5) == 0) lim->nodes = (uint64_t)v;
    else if ((n == 4 && strncmp(text, "time", 4) == 0) || (n == 8 && strncmp(text, "movetime", 8) == 0))
        lim->movetime_ms = v;
    else return -1;
    return 0;
}

static void print_movetext(const GameRecord *rec, FILE *out)
{
    const Game *g = rec->game;
    fputs("moves:", out);
    for (int i = 0; i < rec->len; i++) {
        char text[MOVE_STR_MAX];
        game_record_move_text(rec, i, text);
        Color mover = g->side_to_move(&rec->positions[i]);
        if (mover == COLOR_WHITE) fprintf(out, " %d. %s", i / 2 + 1, text);
        else if (i == 0) fprintf(out, " 1... %s", text);
        else fprintf(out, " %s", text);
    }
    fputc('\n', out);
}

static void help(FILE *out)
{
    fputs("  type a move in the game's notation (c3-d4, c3:e5:g7, short forms like cd4 or c3:g7;\n"
          "  Shatra 49-42, 41:27:13, drops 57*40, promotions 13-3=R), or:\n"
          "  moves     list the legal moves        undo      take back your last move\n"
          "  draw      offer a draw                resign    give up the game\n"
          "  board     draw the board again        help      this text\n"
          "  quit      leave the game\n",
          out);
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    const char *side = cli_str(a, "side");
    Color human;
    if (strcmp(side, "white") == 0 || strcmp(side, "w") == 0) human = COLOR_WHITE;
    else if (strcmp(side, "black") == 0 || strcmp(side, "b") == 0) human = COLOR_BLACK;
    else {
        fprintf(stderr, "dama play: --side '%s': expected white or black\n", side);
        return 2;
    }
    const SkillLevel *level;
    SearchLimits lim;
    if (parse_level(cli_str(a, "level"), &level, &lim) != 0) {
        fprintf(stderr, "dama play: --level '%s': expected beginner, casual, club, strong, max, depth=N, nodes=N or time=MS\n",
                cli_str(a, "level"));
        return 2;
    }
    int64_t hash = cli_int(a, "hash"), seed = cli_int(a, "seed");
    /* --hash 1..65536 and --seed >= 0: checked by cli_parse */
    const char *cmode = cli_flag(a, "no-color") ? "never" : cli_str(a, "color");
    Style st;
    if (strcmp(cmode, "always") == 0) st.colour = true;
    else if (strcmp(cmode, "never") == 0) st.colour = false;
    else if (strcmp(cmode, "auto") == 0) st.colour = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
    else {
        fprintf(stderr, "dama play: --color '%s': expected auto, always or never\n", cmode);
        return 2;
    }
    char err[ERR_MAX];
    EVAL_AUTO_FREE int32_t *weights = eval_weights_new(g);
    if (!weights) {
        fprintf(stderr, "dama play: out of memory for %d weights\n", g->weights_len);
        return 1;
    }
    if (weights_resolve_path(g, cli_str(a, "weights"), cli_str(a, "db"), weights, NULL, err) != 0) {
        fprintf(stderr, "dama play: %s\n", err);
        return 1;
    }
    GameRecord rec;
    if (game_record_init(&rec, g, cli_str(a, "fen"), err) != 0) {
        fprintf(stderr, "dama play: %s\n", err);
        return 1;
    }
    Engine *e = engine_new(g, (size_t)hash);
    if (!e) {
        fprintf(stderr, "dama play: --hash %lld: cannot allocate a transposition table of %lld MiB (out of memory); "
                        "give a smaller value\n", (long long)hash, (long long)hash);
        game_record_free(&rec);
        return 1;
    }
    engine_set_weights(e, weights);
    uint64_t rng = (uint64_t)seed;
    Color engine_side = human == COLOR_WHITE ? COLOR_BLACK : COLOR_WHITE;
    bool echo = !isatty(STDIN_FILENO);
    FILE *out = stdout;
    fprintf(out, "%s: you play %s, dama plays %s at level %s. Type 'help' for commands.\n", g->title,
             colour_name(human), colour_name(engine_side), cli_str(a, "level"));
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    bool show = true;
    int zero_run = 0; /* the engine's consecutive moves scored exactly 0 */
    for (;;) {
        const Position *pos = game_record_position(&rec);
        const char *reason = NULL;
        MoveList moves;
        Outcome o = game_record_outcome(&rec, &reason, &moves);
        Color stm = g->side_to_move(pos);
        if (show && (stm == human || o != OUTCOME_NONE)) {
            draw(g, pos, human == COLOR_BLACK, &st, out);
            show = false;
        }
        if (o != OUTCOME_NONE) {
            const char *who = o == OUTCOME_DRAW ? "draw" : (o == OUTCOME_WHITE_WINS) == (human == COLOR_WHITE) ? "you win" : "dama wins";
            fprintf(out, "game over: %s %s (%s)\n", outcome_pdn(o), reason ? reason : "", who);
            break;
        }
        if (stm == engine_side) {
            SearchResult r;
            int len;
            const uint64_t *hist = game_record_history(&rec, &len);
            if (skill_choose(e, g, pos, hist, len, level, &lim, &rng, &r, err) != 0 || !r.has_move) {
                fprintf(stderr, "dama play: %s\n", r.has_move ? err : "the engine found no move");
                rc = 1;
                break;
            }
            /* The Shatra rules' computer opponent resigns a lost game and
             * offers a draw it cannot avoid; dama does so for every game:
             * it resigns when its search sees a forced loss, and offers a
             * draw after three moves in a row scored exactly 0 (a
             * repetition or a draw rule in all its lines). */
            if (r.score <= -SCORE_WIN_MIN) {
                fprintf(out, "dama resigns: %s (you win)\n", human == COLOR_WHITE ? "1-0" : "0-1");
                break;
            }
            zero_run = r.score == 0 ? zero_run + 1 : 0;
            char text[MOVE_STR_MAX];
            g->move_to_str(pos, &r.best, text);
            if (game_record_apply(&rec, &r.best, err) != 0) {
                fprintf(stderr, "dama play: %s\n", err);
                rc = 1;
                break;
            }
            fprintf(out, "dama plays %s\n", text);
            show = true;
            const char *ignored;
            if (zero_run >= 3 && game_record_outcome(&rec, &ignored, NULL) == OUTCOME_NONE) {
                zero_run = 0;
                fprintf(out, "dama offers a draw: accept? (yes/no) ");
                fflush(out);
                if (getline(&line, &cap, stdin) < 0) {
                    fprintf(out, "\nend of input: game left unfinished\n");
                    break;
                }
                line[strcspn(line, "\r\n")] = '\0';
                if (echo) fprintf(out, "%s\n", line);
                if (strcmp(line, "yes") == 0 || strcmp(line, "y") == 0) {
                    fprintf(out, "draw agreed: 1/2-1/2\n");
                    break;
                }
                fprintf(out, "you decline the draw\n");
            }
            continue;
        }
        fprintf(out, "your move (%s%s): ", colour_name(stm), g->has_capture(pos) ? ", capture" : "");
        fflush(out);
        ssize_t n = getline(&line, &cap, stdin);
        if (n < 0) {
            fprintf(out, "\nend of input: game left unfinished\n");
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *cmd = line + strspn(line, " \t");
        for (char *end = cmd + strlen(cmd); end > cmd && isspace((unsigned char)end[-1]);) *--end = '\0';
        if (echo) fprintf(out, "%s\n", cmd);
        if (!*cmd) continue;
        if (strcmp(cmd, "help") == 0 || strcmp(cmd, "?") == 0) {
            help(out);
        } else if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "exit") == 0) {
            fprintf(out, "game left unfinished\n");
            break;
        } else if (strcmp(cmd, "board") == 0) {
            show = true;
        } else if (strcmp(cmd, "moves") == 0) {
            fputs(" ", out);
            for (int i = 0; i < moves.len; i++) {
                char text[MOVE_STR_MAX];
                g->move_to_str(pos, &moves.moves[i], text);
                fprintf(out, " %s", text);
            }
            fputc('\n', out);
        } else if (strcmp(cmd, "undo") == 0 || strcmp(cmd, "takeback") == 0) {
            /* back to the last position where it was your move before your last move */
            int back = 0;
            while (back < rec.len && g->side_to_move(&rec.positions[rec.len - back - 1]) != human) back++;
            if (back < rec.len) back++;
            else back = 0;
            if (back == 0 || game_record_undo(&rec, back) != 0) {
                fprintf(out, "nothing of yours to take back\n");
            } else {
                fprintf(out, "took back %d pl%s\n", back, back == 1 ? "y" : "ies");
                show = true;
            }
        } else if (strcmp(cmd, "resign") == 0) {
            fprintf(out, "you resign: %s (dama wins)\n", human == COLOR_WHITE ? "0-1" : "1-0");
            break;
        } else if (strcmp(cmd, "draw") == 0) {
            int len, score = 0;
            const uint64_t *hist = game_record_history(&rec, &len);
            SearchLimits dl = lim;
            if (level->depth > 0) dl = (SearchLimits){.depth = level->depth + 2};
            if (engine_accept_draw(e, g, pos, hist, len, engine_side, &dl, 0, &score)) {
                fprintf(out, "dama accepts the draw (its score %+.2f): 1/2-1/2 (agreed)\n", score / 100.0);
                break;
            }
            fprintf(out, "dama declines the draw (its score %+.2f)\n", score / 100.0);
        } else {
            if (game_record_apply_text(&rec, cmd, err) != 0) fprintf(out, "  %s (type 'moves' or 'help')\n", err);
            else show = true;
        }
    }
    print_movetext(&rec, out);
    free(line);
    engine_free(e);
    game_record_free(&rec);
    return rc;
}

const CliCommand cmd_play = {
    "play", "play against the engine in the terminal (Unicode board, takeback, draw offers, levels)",
    "[--game G] [--side white|black] [--level L] [--fen FEN]", OPTS, run, 0,
};
