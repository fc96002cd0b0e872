/* cmd_pdn.c — `dama pdn`: PDN files. `dama pdn check FILE` replays every
 * game of FILE and reports one line per game and a summary.
 * Exit: 0 every game replayed, 1 some game failed, 2 unreadable input.
 * What replays but looks wrong (a Result tag that differs from the
 * movetext result, a movetext without a result: perhaps cut off) is a
 * warning on the game's line, not a failure.
 * `dama pdn export` writes stored games as PDN 3.0 (exit 0; 1 on a
 * database or write error; 2 on bad usage). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "arena/pdn_export.h"
#include "db/db.h"
#include "pdn/pdn.h"
#include "util/file_read.h"
#include "util/text.h"

static const CliOpt OPTS[] = {
    CLI_GAME_OPT_HELP("check: game of the games without a GameType or Variant tag (" CLI_GAMES ")"),
    {"db", OPT_DB, "dama.sqlite", "export: SQLite database file", 0, 0},
    {"run", OPT_INT, NULL, "export: the games of run N", 1, CLI_INT_MAX},
    {"match", OPT_INT, NULL, "export: the games of match N", 1, CLI_INT_MAX},
    {"tournament", OPT_INT, NULL, "export: the games of tournament N", 1, CLI_INT_MAX},
    {"filter", OPT_STR, NULL, "export: the games g for which this SQL condition holds, e.g. \"g.result = '1-0'\"", 0, 0},
    {"out", OPT_FILE, NULL, "export: output file (also -o; - or none: standard output)", 0, 0},
    {"force", OPT_FLAG, NULL, "export: let --out replace an existing file (never the database itself)", 0, 0},
    {0},
};

/* The options of one subcommand only (--config: both); one given to the
 * other was ignored in silence (export --game turkish wrote the games of
 * every game), so it is refused. */
static const CliActionOpt ACTION_OPTS[] = {
    {"game", "check",
     "export writes the stored games of every game in the selection; --filter \"g.game = 'NAME'\" picks one game's"},
    {"db", "export", NULL},     {"run", "export", NULL},   {"match", "export", NULL},
    {"tournament", "export", NULL}, {"filter", "export", NULL}, {"out", "export", NULL},   {"force", "export", NULL},
};

static int check_action_opts(const CliArgs *a, const char *act)
{
    return cli_check_action_opts(a, act, ACTION_OPTS, sizeof ACTION_OPTS / sizeof ACTION_OPTS[0]);
}

static int export_games(const CliArgs *a)
{
    DbSelect sel;
    int64_t id;
    if (cli_game_selection(a, false, &sel, &id) != 0) return 2;
    char err[ERR_MAX];
    long games = 0;
    const char *out = cli_str(a, "out");
    if (out && strcmp(out, "-") == 0) out = NULL; /* standard output, as export and report take '-' */
    if (pdn_export_file(cli_str(a, "db"), sel, id, cli_str(a, "filter"), out, cli_flag(a, "force"), &games, err) != 0) {
        fprintf(stderr, "dama pdn export: %s\n", err);
        return 1;
    }
    if (out) fprintf(stderr, "dama pdn export: %ld games written to %s\n", games, out);
    return 0;
}

/* text as it is when it is text on one line (UTF-8, no control byte), else
 * escaped (text_escape: \xNN), so that a file's bytes never reach the
 * terminal raw. Returns out. */
static const char *shown_text(const char *text, char *out, size_t size)
{
    char what[TEXT_WHAT_MAX];
    if (!text || text_line_check(text, strlen(text), what) == 0) return text;
    text_escape(text, strlen(text), out, size);
    return out;
}

/* " (White - Black, Event)" from the tags present, or "". */
static void describe_game(const PdnGame *g, char *out, size_t size)
{
    char sw[200], sb[200], se[200];
    const char *white = shown_text(pdn_game_tag(g, "White"), sw, sizeof sw);
    const char *black = shown_text(pdn_game_tag(g, "Black"), sb, sizeof sb);
    const char *event = shown_text(pdn_game_tag(g, "Event"), se, sizeof se);
    char players[256] = "";
    if ((white && *white) || (black && *black))
        snprintf(players, sizeof players, "%.120s - %.120s", white && *white ? white : "?",
                 black && *black ? black : "?");
    bool has_event = event && *event;
    if (!players[0] && !has_event) {
        out[0] = '\0';
        return;
    }
    snprintf(out, size, " (%s%s%.120s)", players, players[0] && has_event ? ", " : "", has_event ? event : "");
}

/* A game whose tags chose another game than the one --game named (the
 * tag that chose it into out) or whose GameType and Variant tags disagree
 * (replay->game_warning): the warning, "" if none. */
static void game_choice_warning(const PdnGame *g, const PdnReplay *replay, const Game *given, char *out, size_t size)
{
    out[0] = '\0';
    if (replay->game_warning[0]) snprintf(out, size, "%s", replay->game_warning);
    if (!given || !replay->game || replay->game == given) return;
    const char *tag = pdn_game_tag(g, "GameType") ? "GameType" : "Variant";
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%s tag \"%.40s\" (line %ld) names %s, not --game %s (which is for games "
             "without a GameType or Variant tag): read as %s", len ? "; " : "", tag, pdn_game_tag(g, tag),
             pdn_game_tag_line(g, tag), replay->game->name, given->name, replay->game->name);
}

/* given: the game of --game when the command line named one (else NULL) */
static int check_file(const char *path, const Game *fallback, const Game *given)
{
    bool std_in = strcmp(path, "-") == 0;
    char err[ERR_MAX];
    FILE *in = std_in ? stdin : file_open_read_as(path, "PDN file", err); /* a folder is said as such */
    if (!in) {
        fprintf(stderr, "dama pdn check: %s\n", err);
        return 2;
    }
    PdnReader *r = pdn_reader_new(in, std_in ? "(stdin)" : path);
    if (!r) {
        if (!std_in) fclose(in);
        fprintf(stderr, "dama pdn check: out of memory\n");
        return 2;
    }
    PdnGame game;
    pdn_game_init(&game);
    PdnReplay replay;
    long games = 0, ok = 0, failed = 0, warnings = 0, choices = 0, unfinished = 0;
    char first_failed[96] = "";
    int rc = 0;
    for (;;) {
        int got = pdn_read_game(r, &game, err);
        if (got < 0) {
            fprintf(stderr, "dama pdn check: %s\n", err);
            rc = 2;
        }
        if (got <= 0) break;
        games++;
        char who[400];
        describe_game(&game, who, sizeof who);
        if (pdn_replay_game(&game, fallback, &replay) == 0) {
            ok++;
            printf("game %ld%s: ok, %d %s", game.index, who, replay.plies, replay.plies == 1 ? "ply" : "plies");
        } else {
            failed++;
            printf("game %ld%s: %s", game.index, who, replay.error);
            if (failed <= 3) { /* the first failures, for the stderr summary */
                size_t len = strlen(first_failed);
                snprintf(first_failed + len, sizeof first_failed - len, "%s%ld", len ? ", " : "", game.index);
            }
        }
        char choice[2 * PDN_MESSAGE_MAX + 400];
        game_choice_warning(&game, &replay, given, choice, sizeof choice);
        if (choice[0]) { /* the first ones on stderr too, with the file: a game read as another than one may think */
            printf("; warning: %s", choice);
            if (++choices <= 3) fprintf(stderr, "dama pdn check: %s: game %ld: %s\n", path, game.index, choice);
        }
        if (replay.warning[0]) printf("; warning: %s", replay.warning);
        /* a game without its result was perhaps cut off: said on stderr too, as a failure is */
        if (!game.result[0] && replay.error[0] == '\0' && ++unfinished <= 3)
            fprintf(stderr, "dama pdn check: %s: game %ld: no result at the end of its movetext (line %ld): the game "
                    "may be cut off\n", path, game.index,
                    game.moves_len ? game.moves[game.moves_len - 1].line : game.line);
        if (replay.warning[0] || choice[0]) warnings++;
        putchar('\n');
    }
    if (rc == 0 && games == 0) {
        fprintf(stderr, "dama pdn check: %s: no PDN games found\n", path);
        rc = 2;
    }
    if (games > 0) { /* no summary for input that is not PDN at all */
        printf("%ld game%s, %ld ok, %ld failed", games, TEXT_PLURAL(games), ok, failed);
        if (warnings) printf(", %ld warning%s", warnings, TEXT_PLURAL(warnings));
        if (rc == 2) printf("; the file could not be read past game %ld (see stderr)", games); /* no clean count */
        putchar('\n');
    }
    if (choices > 3)
        fprintf(stderr, "dama pdn check: %s: %ld more games whose tags and --game name different games (see the "
                        "report on stdout)\n", path, choices - 3);
    if (unfinished > 3)
        fprintf(stderr, "dama pdn check: %s: %ld more games without a result at the end of their movetext (see the "
                        "report on stdout)\n", path, unfinished - 3);
    if (failed) /* the report is on stdout; a one-line summary for whoever reads stderr only */
        fprintf(stderr, "dama pdn check: %s: %ld of %ld games failed (game%s %s%s; see the report on stdout)\n",
                path, failed, games, failed == 1 ? "" : "s", first_failed, failed > 3 ? ", ..." : "");
    pdn_game_free(&game);
    pdn_reader_free(r);
    if (!std_in) fclose(in);
    return rc ? rc : failed ? 1 : 0;
}

/* Does option `name` (without "--", up to '=') take a value? */
static bool takes_value(const char *name, size_t len)
{
    if (len == 6 && strncmp(name, "config", 6) == 0) return true;
    for (const CliOpt *o = OPTS; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) return o->type != OPT_FLAG;
    return false;
}

static int run(CliArgs *a)
{
    if (a->positional_len >= 1 && strcmp(a->positional[0], "export") == 0) {
        if (a->positional_len > 1) {
            fprintf(stderr, "dama pdn export: unexpected argument '%s'\n", a->positional[1]);
            return 2;
        }
        if (check_action_opts(a, "export") != 0) return 2;
        return export_games(a);
    }
    if (a->positional_len < 1 || strcmp(a->positional[0], "check") != 0) {
        if (a->positional_len) fprintf(stderr, "dama pdn: unknown subcommand '%s'", a->positional[0]);
        else fprintf(stderr, "dama pdn: a subcommand is needed");
        fprintf(stderr, " (usage: dama pdn %s)\n", cmd_pdn.usage);
        return 2;
    }
    /* Options may follow FILE ("check FILE --game russian"): move them in
     * front of the positional arguments and parse the subcommand again. */
    int n = a->positional_len;
    char **argv = malloc((size_t)(n + 1) * sizeof *argv);
    char **rest = malloc((size_t)(n + 1) * sizeof *rest);
    if (!argv || !rest) {
        free(argv);
        free(rest);
        fprintf(stderr, "dama pdn: out of memory\n");
        return 2;
    }
    int argc = 0, rest_len = 0;
    argv[argc++] = a->positional[0];
    for (int i = 1; i < n; i++) {
        char *s = a->positional[i];
        if (strcmp(s, "--") == 0) {
            while (++i < n) rest[rest_len++] = a->positional[i];
        } else if (strncmp(s, "--", 2) == 0) {
            argv[argc++] = s;
            if (!strchr(s, '=') && takes_value(s + 2, strlen(s + 2)) && i + 1 < n) argv[argc++] = a->positional[++i];
        } else {
            rest[rest_len++] = s;
        }
    }
    for (int i = 0; i < rest_len; i++) argv[argc++] = rest[i];
    argv[argc] = NULL;
    free(rest);

    CliArgs sub;
    int rc = cli_parse(&cmd_pdn, argc, argv, &sub);
    if (rc != 0) {
        cli_free(&sub);
        free(argv);
        return rc > 0 ? 0 : 2;
    }
    /* --game given after "check" wins over one given before it. */
    const Game *g = cli_game(sub.from_cli[0] /* OPTS[0] is --game */ ? &sub : a);
    if (check_action_opts(a, "check") != 0 || check_action_opts(&sub, "check") != 0) rc = 2;
    else if (!g) rc = 2;
    else if (sub.positional_len != 1) {
        fprintf(stderr, "dama pdn check: exactly one FILE is needed (usage: dama pdn %s)\n", cmd_pdn.usage);
        rc = 2;
    } else {
        rc = check_file(sub.positional[0], g, sub.from_cli[0] || a->from_cli[0] ? g : NULL);
    }
    cli_free(&sub);
    free(argv);
    return rc;
}

const CliCommand cmd_pdn = {
    "pdn", "PDN game files: check replays every game of FILE ('-': standard input); export writes stored games",
    "check FILE [--game G] | export [--db F] [--run N | --match N | --tournament N | --filter SQL] [-o FILE]", OPTS,
    run, 2,
};
