/* play_term.c — the terminal game of `dama play` (contract in
 * cli/play_term.h). The board is the game's own picture (Game.board_text);
 * nothing here depends on which game is played. */
#include "cli/play_term.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pdn/pdn.h"
#include "util/text.h"

/* One game under way. */
typedef struct Session {
    const PlayTerm *t;
    const Game *g;
    GameRecord *rec;
    char *line; /* the last line read (getline's buffer) */
    size_t cap;
    uint64_t rng;
    bool show;    /* draw the board before the next prompt */
    int zero_run; /* the engine's consecutive moves scored exactly 0 */
} Session;

/* What a turn leaves: the game goes on, it is over (or left), or the
 * engine failed. */
enum { TURN_ON, TURN_END, TURN_EOF, TURN_FAIL };

static const char *colour_name(Color c) { return c == COLOR_WHITE ? "White" : "Black"; }

static void draw(const Session *s, const Position *pos)
{
    FILE *out = s->t->out;
    fputc('\n', out);
    char text[BOARD_TEXT_MAX];
    if (s->g->board_text) {
        s->g->board_text(pos, s->t->human == COLOR_BLACK, s->t->colour, text, sizeof text);
    } else {
        s->g->pos_to_fen(pos, text);
        strcat(text, "\n");
    }
    fputs(text, out);
}

static void help(const Session *s)
{
    const char *examples = s->g->move_examples;
    fprintf(s->t->out, "  type a move in the game's notation%s%s%s, or:\n", examples ? " (" : "",
            examples ? examples : "", examples ? ")" : "");
    fputs("  moves     list the legal moves        undo      take back your last move\n"
          "  draw      offer a draw                resign    give up the game\n"
          "  board     draw the board again        help      this text\n"
          "  quit      leave the game\n",
          s->t->out);
}

/* The game's moves numbered as in its PDN (pairs from the first mover). */
static void print_movetext(const GameRecord *rec, FILE *out)
{
    const Game *g = rec->game;
    PdnMovetext mt;
    bool fits = pdn_movetext_init(&mt, g->side_to_move(&rec->positions[0]), game_first_mover(g)) == 0;
    for (int i = 0; fits && i < rec->len; i++) {
        char text[MOVE_STR_MAX];
        game_record_move_text(rec, i, text);
        fits = pdn_movetext_append(&mt, text) == 0;
    }
    fprintf(out, "moves:%s%s\n", fits && mt.len ? " " : "", fits ? mt.text : " (out of memory)");
    pdn_movetext_free(&mt);
}

/* Read a line into s->line without its end (echoed when input is no
 * terminal): TURN_ON, TURN_EOF at end of input (after saying so), or
 * TURN_FAIL when the input cannot be read (said on stderr: a folder as
 * input, an I/O error). A line with a byte that is no text (a NUL: the
 * move before it would be played as if it were the whole line) is said and
 * read as an empty line. */
static int read_line(Session *s)
{
    errno = 0;
    ssize_t n = getline(&s->line, &s->cap, s->t->in);
    if (n < 0 && ferror(s->t->in)) {
        fprintf(stderr, "dama play: cannot read the input: %s\n", errno ? strerror(errno) : "read error");
        return TURN_FAIL;
    }
    if (n < 0) {
        fprintf(s->t->out, "\nend of input: game left unfinished\n");
        return TURN_EOF;
    }
    if (n > 0 && s->line[n - 1] == '\n') n--;
    if (n > 0 && s->line[n - 1] == '\r') n--;
    s->line[n] = '\0';
    char what[TEXT_WHAT_MAX];
    if (text_line_check(s->line, (size_t)n, what) != 0) {
        fprintf(s->t->out, "\nthat line has %s: ignored\n", what);
        s->line[0] = '\0';
    }
    return TURN_ON;
}

/* After three engine moves in a row scored exactly 0 (a repetition or a
 * draw rule in all its lines) the engine offers a draw. */
static int offer_draw(Session *s)
{
    FILE *out = s->t->out;
    const char *ignored;
    if (s->zero_run < 3 || game_record_outcome(s->rec, &ignored, NULL) != OUTCOME_NONE) return TURN_ON;
    s->zero_run = 0;
    fprintf(out, "dama offers a draw: accept? (yes/no) ");
    fflush(out);
    int rl = read_line(s);
    if (rl != TURN_ON) return rl;
    if (s->t->echo) fprintf(out, "%s\n", s->line);
    if (strcmp(s->line, "yes") == 0 || strcmp(s->line, "y") == 0) {
        fprintf(out, "draw agreed: 1/2-1/2\n");
        return TURN_END;
    }
    fprintf(out, "you decline the draw\n");
    return TURN_ON;
}

static int engine_turn(Session *s, const Position *pos)
{
    const PlayTerm *t = s->t;
    SearchResult r;
    char err[ERR_MAX];
    int len;
    const uint64_t *hist = game_record_history(s->rec, &len);
    if (skill_choose(t->engine, s->g, pos, hist, len, t->level, &t->limits, &s->rng, &r, err) != 0 || !r.has_move) {
        fprintf(stderr, "dama play: %s\n", r.has_move ? err : "the engine found no move");
        return TURN_FAIL;
    }
    /* The Shatra rules' computer opponent resigns a lost game and offers a
     * draw it cannot avoid; dama does so for every game: it resigns when
     * its search sees a forced loss (and offers draws, offer_draw). */
    if (r.score <= -SCORE_WIN_MIN) {
        fprintf(t->out, "dama resigns: %s (you win)\n", t->human == COLOR_WHITE ? "1-0" : "0-1");
        return TURN_END;
    }
    s->zero_run = r.score == 0 ? s->zero_run + 1 : 0;
    char text[MOVE_STR_MAX];
    s->g->move_to_str(pos, &r.best, text);
    if (game_record_apply(s->rec, &r.best, err) != 0) {
        fprintf(stderr, "dama play: %s\n", err);
        return TURN_FAIL;
    }
    fprintf(t->out, "dama plays %s\n", text);
    s->show = true;
    return offer_draw(s);
}

/* `undo`: back to the last position where it was the person's move
 * before their last move. */
static void undo(Session *s)
{
    GameRecord *rec = s->rec;
    int back = 0;
    while (back < rec->len && s->g->side_to_move(&rec->positions[rec->len - back - 1]) != s->t->human) back++;
    if (back < rec->len) back++;
    else back = 0;
    if (back == 0 || game_record_undo(rec, back) != 0) {
        fprintf(s->t->out, "nothing of yours to take back\n");
    } else {
        fprintf(s->t->out, "took back %d pl%s\n", back, back == 1 ? "y" : "ies");
        s->show = true;
    }
}

/* `draw`: the engine answers the person's offer (engine_accept_draw). */
static int draw_offered(Session *s, const Position *pos)
{
    const PlayTerm *t = s->t;
    int len, score = 0;
    const uint64_t *hist = game_record_history(s->rec, &len);
    SearchLimits dl = t->limits;
    if (t->level->depth > 0) dl = (SearchLimits){.depth = t->level->depth + 2};
    Color engine_side = t->human == COLOR_WHITE ? COLOR_BLACK : COLOR_WHITE;
    if (engine_accept_draw(t->engine, s->g, pos, hist, len, engine_side, &dl, 0, &score)) {
        fprintf(t->out, "dama accepts the draw (its score %+.2f): 1/2-1/2 (agreed)\n", score / 100.0);
        return TURN_END;
    }
    fprintf(t->out, "dama declines the draw (its score %+.2f)\n", score / 100.0);
    return TURN_ON;
}

static int human_turn(Session *s, const Position *pos, const MoveList *moves)
{
    FILE *out = s->t->out;
    fprintf(out, "your move (%s%s): ", colour_name(s->g->side_to_move(pos)), s->g->has_capture(pos) ? ", capture" : "");
    fflush(out);
    int rl = read_line(s);
    if (rl != TURN_ON) return rl;
    char *cmd = s->line + strspn(s->line, " \t");
    for (char *end = cmd + strlen(cmd); end > cmd && isspace((unsigned char)end[-1]);) *--end = '\0';
    if (s->t->echo) fprintf(out, "%s\n", cmd);
    if (!*cmd) return TURN_ON;
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "?") == 0) {
        help(s);
    } else if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "exit") == 0) {
        fprintf(out, "game left unfinished\n");
        return TURN_END;
    } else if (strcmp(cmd, "board") == 0) {
        s->show = true;
    } else if (strcmp(cmd, "moves") == 0) {
        fputs(" ", out);
        for (int i = 0; i < moves->len; i++) {
            char text[MOVE_STR_MAX];
            s->g->move_to_str(pos, &moves->moves[i], text);
            fprintf(out, " %s", text);
        }
        fputc('\n', out);
    } else if (strcmp(cmd, "undo") == 0 || strcmp(cmd, "takeback") == 0) {
        undo(s);
    } else if (strcmp(cmd, "resign") == 0) {
        fprintf(out, "you resign: %s (dama wins)\n", s->t->human == COLOR_WHITE ? "0-1" : "1-0");
        return TURN_END;
    } else if (strcmp(cmd, "draw") == 0) {
        return draw_offered(s, pos);
    } else if (!strpbrk(cmd, "0123456789")) { /* every move names a square by a digit */
        fprintf(out, "  '%.60s' is no command and no move (type 'help' for the commands, 'moves' for the moves)\n", cmd);
    } else {
        char err[ERR_MAX];
        if (game_record_apply_text(s->rec, cmd, err) != 0) fprintf(out, "  %s (type 'moves' or 'help')\n", err);
        else s->show = true;
    }
    return TURN_ON;
}

int play_term_run(const PlayTerm *t, GameRecord *rec)
{
    Session s = {.t = t, .g = rec->game, .rec = rec, .rng = t->seed, .show = true};
    Color engine_side = t->human == COLOR_WHITE ? COLOR_BLACK : COLOR_WHITE;
    fprintf(t->out, "%s: you play %s, dama plays %s at level %s. Type 'help' for commands.\n", s.g->title,
            colour_name(t->human), colour_name(engine_side), t->level_name);
    int turn = TURN_ON;
    while (turn == TURN_ON) {
        const Position *pos = game_record_position(rec);
        const char *reason = NULL;
        MoveList moves;
        Outcome o = game_record_outcome(rec, &reason, &moves);
        Color stm = s.g->side_to_move(pos);
        if (s.show && (stm == t->human || o != OUTCOME_NONE)) {
            draw(&s, pos);
            s.show = false;
        }
        if (o != OUTCOME_NONE) {
            const char *who = o == OUTCOME_DRAW                                         ? "draw"
                              : (o == OUTCOME_WHITE_WINS) == (t->human == COLOR_WHITE) ? "you win"
                                                                                        : "dama wins";
            fprintf(t->out, "game over: %s %s (%s)\n", outcome_pdn(o), reason ? reason : "", who);
            break;
        }
        turn = stm == engine_side ? engine_turn(&s, pos) : human_turn(&s, pos, &moves);
    }
    print_movetext(rec, t->out);
    free(s.line);
    return turn == TURN_FAIL ? 1 : turn == TURN_EOF ? PLAY_EXIT_UNFINISHED : 0;
}
