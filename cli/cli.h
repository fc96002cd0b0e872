/* cli.h — the command-line layer: subcommand table, options with defaults
 * from configs/ (libconfig) overridden on the command line (getopt_long).
 *
 * Precedence: built-in default < config file section < command line.
 * The config file is --config FILE, else configs/dama.cfg when present in
 * the working directory; each subcommand reads
 * the group of its own name (e.g. selfplay: { games = 2000; }) and the
 * top-level scalars (e.g. game = "russian";), but for dxp's game (only
 * its group: DXP plays only games numbered 1..50). */
#ifndef DAMA_CLI_H
#define DAMA_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "db/db.h"
#include "engine/game.h"

/* OPT_DB: a database file that a command reads or stores into: an empty
 * path, ":memory:" or an SQLite URI ("file:...") would be a temporary or
 * re-interpreted database, so cli_parse refuses them.
 * OPT_FILE: a file path other than a database (an output, a parameter
 * file): cli_parse refuses an empty one, which names no file.
 * OPT_LIST: a text option that may be repeated on the command line; the
 * values are joined with ','.
 * OPT_WEIGHTS: a weight set (CLI_WEIGHTS_FORMS): cli_parse refuses an id
 * that is not an integer >= 1 ("db:abc", "train:0": weights_spec_check). */
typedef enum CliType { OPT_STR, OPT_INT, OPT_REAL, OPT_FLAG, OPT_DB, OPT_FILE, OPT_LIST, OPT_WEIGHTS } CliType;

/* Largest integer an option range may name (exact in a double). */
#define CLI_INT_MAX 9007199254740991.0

typedef struct CliOpt {
    const char *name;   /* long option name, also the config key */
    CliType type;
    const char *defval; /* default as text, NULL for none */
    const char *help;
    /* OPT_INT / OPT_REAL: the inclusive range every value must be in (from
     * the command line or a config file), shown in --help. An OPT_INT or
     * OPT_REAL option without one (min == max == 0) is a programming error
     * that cli_parse reports. */
    double min, max;
} CliOpt;

enum { CLI_OPTS_MAX = 48 };

typedef struct CliArgs {
    const char *command;
    const CliOpt *opts;
    int opts_len;
    char *values[CLI_OPTS_MAX]; /* NULL when unset */
    bool from_cli[CLI_OPTS_MAX];
    bool from_config[CLI_OPTS_MAX]; /* set by the config file (the command line may override it) */
    int config_line[CLI_OPTS_MAX];  /* its line there (when from_config) */
    int positional_len;
    char **positional;
    char config_path[512];
} CliArgs;

typedef struct CliCommand {
    const char *name;
    const char *summary;
    const char *usage; /* text after "dama NAME " */
    const CliOpt *opts; /* terminated by a {NULL} entry */
    int (*run)(CliArgs *args);
    int positional_max; /* words allowed besides options (0: none) */
} CliCommand;

/* Parse argv for a command. Returns 0 to run, 1 if --help was printed,
 * or -1 after printing an error to stderr. */
int cli_parse(const CliCommand *cmd, int argc, char **argv, CliArgs *out);
void cli_free(CliArgs *args);
void cli_print_help(const CliCommand *cmd, FILE *out);

const char *cli_str(const CliArgs *a, const char *name); /* NULL if unset */
/* Set option name's value after parsing (a value the command derives, such
 * as a default directory found on disk); it counts as set (cli_isset) and
 * goes into cli_config_text. Main thread only. */
void cli_set(CliArgs *a, const char *name, const char *value);
bool cli_isset(const CliArgs *a, const char *name);
/* Where option name's value came from: unset, its built-in default (or
 * cli_set), the config file (a->config_path), or the command line. */
typedef enum CliSource { CLI_FROM_NONE, CLI_FROM_DEFAULT, CLI_FROM_CONFIG, CLI_FROM_CLI } CliSource;
CliSource cli_source(const CliArgs *a, const char *name);
/* Typed accessors: values were validated by cli_parse (through the
 * checked parser of util/num.h, against the option's range). */
int64_t cli_int(const CliArgs *a, const char *name);
double cli_real(const CliArgs *a, const char *name);
bool cli_flag(const CliArgs *a, const char *name);
/* A value in its option's range that breaks a further constraint (an even
 * number, a bound set by another option): prints one line naming the
 * option, its value and that constraint on stderr — "dama selfplay: --games
 * 3: must be an even number (pairs with colours swapped)", or "games = 3
 * (FILE:LINE): ..." for a value from the config file — and returns 2, the exit
 * code of a bad option. One call per failing constraint; constraint is a
 * phrase such as "must be ...". Main thread only. */
int cli_bad_value(const CliArgs *a, const char *name, const char *constraint);

/* The game named by --game, the default game (GAME_DEFAULT_NAME) when it
 * is unset; prints an error naming the choices if unknown. */
const Game *cli_game(const CliArgs *a);

/* In an option's help text, CLI_GAMES stands for the registry's game names
 * ("russian, turkish or shatra"), CLI_EGTB_GAMES for those with endgame
 * databases (Game.egtb) and CLI_DXP_GAME for dxp's default game;
 * cli_print_help writes them out (cli_help_text). */
#define CLI_GAMES "{games}"
#define CLI_EGTB_GAMES "{egtb-games}"
#define CLI_DXP_GAME "{dxp-game}" /* cli_dxp_default_game's name */
/* The game dama dxp plays when none is named: the registry's first whose
 * squares are numbered 1..50 (dxp_game_fits); NULL if none. */
const Game *cli_dxp_default_game(void);
/* The --game option of every command that plays or reads one game; a
 * command whose --game means more says so with CLI_GAME_OPT_HELP. */
#define CLI_GAME_OPT_HELP(help) {"game", OPT_STR, GAME_DEFAULT_NAME, help, 0, 0}
#define CLI_GAME_OPT CLI_GAME_OPT_HELP("game: " CLI_GAMES)
/* An option's help as printed: help with CLI_GAMES and CLI_EGTB_GAMES
 * written out, into out (size bytes, cut to fit). For --help and any
 * other text made from the option tables. */
void cli_help_text(const char *help, char *out, size_t size);

/* How a message names option name: "--name", or "name (FILE:LINE)" when
 * its value came from the config file (a->config_path) and not the command
 * line. Written into out (size bytes; CLI_LABEL_MAX holds any), returned. */
enum { CLI_LABEL_MAX = 600 };
const char *cli_opt_label(const CliArgs *a, const char *name, char *out, size_t size);

/* Option name given on the command line, where it does nothing unless
 * one of the options of needed (NULL-terminated: flags on, or values set)
 * is given too: prints "dama CMD: --name does nothing without --x or --y"
 * and returns 2; else 0. (A config file may set it for the runs that use
 * it: only the command line is checked.) */
int cli_requires(const CliArgs *a, const char *name, const char *const *needed);

/* The position of --fen (the start position when unset) for game g into
 * pos. Returns 0, or 1 after "dama CMD: --fen: <why>" on stderr, the
 * config file and line named when the value came from one (a bad position
 * is bad input, exit 1). */
int cli_fen_position(const CliArgs *a, const Game *g, Position *pos);

/* The word an option's value is shown as in help and the manual: "" for a
 * flag, " N", " X", " FILE" (a database or another file) or " TEXT". */
const char *cli_opt_arg(const CliOpt *o);

/* The effective configuration as "key = value" lines, for storing with a
 * run; options named in skip (NULL-terminated, may be NULL) are left out. */
void cli_config_text(const CliArgs *a, const char *const *skip, char *out, size_t size);

/* Set once SIGINT/SIGTERM arrived (long runs poll it to stop cleanly). */
extern volatile int cli_stop_requested;
/* Install the handler: the first SIGINT/SIGTERM sets cli_stop_requested;
 * a second one ends the process at once (default action of that signal). */
void cli_install_stop_handler(void);

/* The command table (NULL-terminated), so that configuration files can be
 * checked against every command's options and group names. */
void cli_register_commands(const CliCommand *const *commands);

/* Every subcommand in the order `dama --help` lists them, NULL-terminated
 * (commands.c). */
extern const CliCommand *const cli_commands[];

struct Engine;
/* Apply search parameters to an engine: first the file (NAME=VALUE lines,
 * '#' comments; may be NULL), then the list ("NAME=VALUE,..."; may be
 * NULL). A file whose last line has no end of line was cut short and is
 * refused. Returns 0, or -1 with err naming the file, item or parameter. */
int cli_search_params(struct Engine *e, const char *file, const char *list, char err[ERR_MAX]);

/* Checks a command's --search-param against game g on a scratch engine:
 * every name known, every value in its range, every constant one that does
 * something in g. Returns 0; 2 (a bad option value, as every command that
 * takes search constants answers it) after the message "dama COMMAND:
 * --search-param: ..." naming the item; 1 after "out of memory". Apply
 * them afterwards with cli_search_params. */
int cli_check_search_param(const CliArgs *a, const Game *g);

/* An option that only some actions of a command use: its name (without
 * "--"), the space-separated actions that take it ("build verify"), and
 * what to do instead (NULL: nothing said). */
typedef struct CliActionOpt {
    const char *option;
    const char *actions;
    const char *hint;
} CliActionOpt;

/* Checks that every option of table given on the command line is one that
 * action act takes. Returns 0, or 2 (a bad option) after the message "dama
 * COMMAND ACT: --OPT is for A and B, not ACT" (and " (HINT)") on stderr. Values from the
 * config file are left alone: its top-level settings (db, game, threads)
 * serve every command, each taking those it has. */
int cli_check_action_opts(const CliArgs *a, const char *act, const CliActionOpt *table, size_t len);

/* Every subcommand, defined in cmd_*.c. */
extern const CliCommand cmd_moves, cmd_perft, cmd_search, cmd_bench, cmd_pdn, cmd_selfplay, cmd_tune, cmd_export, cmd_match, cmd_status, cmd_spsa, cmd_hub, cmd_dxp, cmd_play, cmd_version, cmd_ratings, cmd_tournament, cmd_egtb, cmd_report, cmd_train, cmd_db, cmd_book;

/* `dama --version`: version, build commit, compiled-in weights' provenance. */
void cli_print_version(FILE *out);

/* Which stored games a command reads: at most one of --run, --match,
 * --tournament (an id >= 1) or --filter, and with all = true also --all (the
 * caller's flag). Fills *sel and *id (0 unless an id option). Returns 0, or
 * 2 after a message on stderr naming the command. */
int cli_game_selection(const CliArgs *a, bool all, DbSelect *sel, int64_t *id);

/* The --mpi option of the commands that run over MPI (mpi/dist.h). */
/* The accepted forms of every --weights (and --a, --b, weights=) value, one
 * string for every command's help (tune/weight_sets.h resolves them). */
#define CLI_WEIGHTS_FORMS                                                                                          \
    "'default' (compiled in), 'tuned' (newest tuned set in --db), 'best' (best accepted generation of the newest " \
    "dama train), 'train:ID', db:ID or ID, or a weight file (.cfg, or the JSON of export --format json)"

#define CLI_MPI_OPT {"mpi", OPT_FLAG, NULL, "run over MPI: start under mpirun -np K; rank 0 is the one database writer", 0, 0}

/* Start MPI when --mpi is set, or when the launcher's environment says this
 * process is one of several ranks (OMPI_COMM_WORLD_SIZE, PMI_SIZE > 1: --mpi
 * is implied there, as K copies of a one-process run would each do all the
 * work); a command without the option: no-op.
 * Returns 0 (MPI started, or not asked for), or 2 after a message on stderr
 * naming the command (a build without MPI: "built without MPI; configure
 * with -DDAMA_MPI=ON"). main() ends MPI (dist_finalize) after the command.
 * Main thread only. */
int cli_mpi_start(const CliArgs *a, const char *command);

#endif
