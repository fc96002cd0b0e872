/* cmd_moves.c — `dama moves`: the legal moves of positions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/file_read.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT,
    {"fen", OPT_STR, NULL, "position string, or 'start' (default: the start position; an empty string is an error)", 0, 0},
    {"file", OPT_STR, NULL, "file with one position string (or 'start', as --fen) per line ('-': standard input; "
                            "a blank line, or a last line without its end of line, is an error); prints FEN<TAB>moves (the line, or the start position's "
                            "FEN), or FEN<TAB>game over: ... as --fen prints it",
     0, 0},
    {0},
};

/* The legal moves of pos, each followed by sep ('\n'), or separated by it
 * (' ', no end of line). A finished game has none (game_outcome: a rule
 * that ends it, such as Shatra's Biys alone or Turkish's one piece each,
 * or no legal move): then one "game over:" text instead, with its result
 * and reason as `dama status` gives them and who won (not an empty
 * output), ending in sep only when it is '\n'. */
static void print_moves(const Game *g, const Position *pos, char sep, FILE *out)
{
    MoveList list;
    const char *reason = NULL;
    Outcome o = game_outcome(g, pos, NULL, 0, &reason, &list);
    if (o != OUTCOME_NONE) {
        const char *who = o == OUTCOME_WHITE_WINS ? "white wins" : o == OUTCOME_BLACK_WINS ? "black wins" : "draw";
        const char *side = g->side_to_move(pos) == COLOR_WHITE ? "white" : "black";
        fprintf(out, "game over: %s %s (%s", outcome_pdn(o), reason ? reason : "", who);
        if (reason && strcmp(reason, "no-moves") == 0) fprintf(out, ", %s to move has no legal move", side);
        fputc(')', out);
        if (sep == '\n') fputc(sep, out);
        return;
    }
    char text[MOVE_STR_MAX];
    for (int i = 0; i < list.len; i++) {
        g->move_to_str(pos, &list.moves[i], text);
        fputs(text, out);
        if (sep == '\n' || i + 1 < list.len) fputc(sep, out);
    }
}

static int run(CliArgs *a)
{
    const Game *g = cli_game(a);
    if (!g) return 2;
    char err[ERR_MAX];
    Position pos;
    const char *file = cli_str(a, "file");
    /* exclusive, as the synopsis says (--file read its lines and dropped --fen);
     * a --fen of the config file gives way to a --file of the command line */
    if (file && cli_isset(a, "fen") &&
        !(cli_source(a, "file") == CLI_FROM_CLI && cli_source(a, "fen") != CLI_FROM_CLI)) {
        fprintf(stderr, "dama moves: give --fen or --file, not both\n");
        return 2;
    }
    if (!file) {
        if (cli_fen_position(a, g, &pos) != 0) return 1;
        print_moves(g, &pos, '\n', stdout);
        return 0;
    }
    FILE *in = strcmp(file, "-") == 0 ? stdin : file_open_read_as(file, "position file", err);
    if (!in) {
        fprintf(stderr, "dama moves: %s\n", err);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0, len;
    long lineno = 0;
    int rc = 0, got;
    errno = 0;
    while ((got = text_read_line(in, &line, &cap, &len)) != 0) {
        lineno++;
        if (got < 0) { /* cut short: "W:Wc3:Bd4,e5" read as "W:Wc3:Bd4" answers another position */
            fprintf(stderr, "dama moves: %s line %ld: " TEXT_LINE_CUT_MSG "\n", file, lineno);
            rc = 1;
            break;
        }
        /* never read a line cut at a NUL byte as a shorter one, nor echo bytes that are no text */
        char what[TEXT_WHAT_MAX];
        if (text_line_check(line, len, what)) {
            fprintf(stderr, "dama moves: %s line %ld: %s\n", file, lineno, what);
            rc = 1;
            continue;
        }
        /* one output line per position: a blank line would silently shift them */
        if (!line[strspn(line, " \t")]) {
            fprintf(stderr, "dama moves: %s line %ld: a blank line, not a position (one position per line)\n", file,
                    lineno);
            rc = 1;
            continue;
        }
        if (game_parse_position(g, line, &pos, err) != 0) { /* as --fen: 'start' too */
            fprintf(stderr, "dama moves: %s line %ld: %s\n", file, lineno, err);
            rc = 1;
            continue;
        }
        bool start = strcmp(line, "start") == 0 || strcmp(line, "startpos") == 0;
        printf("%s\t", start ? g->start_fen : line);
        print_moves(g, &pos, ' ', stdout); /* a finished game's result as --fen's: not an empty field */
        putchar('\n');
    }
    int read_errno = errno;
    free(line);
    if (rc == 0 && ferror(in)) { /* not the end of the file: stdin from a folder, an I/O error */
        fprintf(stderr, "dama moves: cannot read %s (after line %ld): %s\n", strcmp(file, "-") == 0 ? "stdin" : file,
                lineno, read_errno ? strerror(read_errno) : "read error");
        rc = 1;
    } else if (rc == 0 && lineno == 0) { /* nothing answered: an empty file is no list of positions */
        fprintf(stderr, "dama moves: %s holds no position (one position per line)\n",
                strcmp(file, "-") == 0 ? "stdin" : file);
        rc = 1;
    }
    if (in != stdin) fclose(in);
    return rc;
}

const CliCommand cmd_moves = {
    "moves", "list the legal moves of a position (full notation, D convention)",
    "[--game G] (--fen FEN | --file F)", OPTS, run, 0,
};
