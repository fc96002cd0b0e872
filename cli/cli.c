/* cli.c — option parsing (getopt_long), configuration files (libconfig). */
#include "cli/cli.h"

#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <libconfig.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "db/weight_sets.h"
#include "dist/dist.h"
#include "protocol/dxp.h"
#include "util/atomic_file.h"
#include "util/file_read.h"
#include "util/num.h"
#include "util/text.h"

volatile int cli_stop_requested;

static const CliCommand *const *known_commands;

void cli_register_commands(const CliCommand *const *commands) { known_commands = commands; }

/* Is name a command (as a group) or an option of some command (as a
 * top-level value)? Unknown names in a config file are mistakes. */
static bool known_setting(const char *name, bool group)
{
    if (!known_commands) return true;
    for (int c = 0; known_commands[c]; c++) {
        if (group && strcmp(known_commands[c]->name, name) == 0) return true;
        if (!group)
            for (const CliOpt *o = known_commands[c]->opts; o->name; o++)
                if (strcmp(o->name, name) == 0) return true;
    }
    return false;
}

/* The first SIGINT/SIGTERM asks the running command to stop cleanly; a
 * second one ends the process at once, by that signal (what is committed
 * in the database stays: WAL). Only async-signal-safe calls here. */
static atomic_int stop_signals;

static void on_stop(int sig)
{
    /* Counted atomically: two signals delivered at once to two threads
     * still see one first and one second. */
    if (atomic_fetch_add(&stop_signals, 1) > 0) {
        atomic_file_remove_temps(); /* no half-written output's temporary file stays */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    cli_stop_requested = 1;
}

void cli_install_stop_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    /* Installed even where the signal was ignored at start (a background
     * job of a script ignores SIGINT): `kill -INT` stops a run cleanly. */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int opt_index(const CliArgs *a, const char *name)
{
    for (int i = 0; i < a->opts_len; i++)
        if (strcmp(a->opts[i].name, name) == 0) return i;
    return -1;
}

/* The option as the user wrote it: "--depth" on the command line, "depth
 * (FILE)" from a config file. */
static void opt_where(const CliOpt *o, const char *where, char *out, size_t size)
{
    if (where) snprintf(out, size, "%s (%s)", o->name, where);
    else snprintf(out, size, "--%s", o->name);
}

/* Check one value against its option's type and range; where is the config
 * file it came from, NULL for the command line. */
static bool valid_value(const char *command, const CliOpt *o, const char *v, const char *where)
{
    char what[600], msg[800];
    opt_where(o, where, what, sizeof what);
    if ((o->type == OPT_INT || o->type == OPT_REAL) && !(o->max > o->min)) {
        fprintf(stderr, "dama %s: internal error: option --%s has no range\n", command, o->name);
        return false;
    }
    NumStatus st = NUM_OK;
    if (o->type == OPT_INT) {
        int64_t x;
        st = num_parse_int(v, (int64_t)o->min, (int64_t)o->max, &x);
    } else if (o->type == OPT_REAL) {
        double x;
        st = num_parse_real(v, o->min, o->max, &x);
    } else if (o->type == OPT_DB) {
        const char *why = NULL;
        if (!*v) why = "an empty path makes SQLite use a temporary database, lost on exit";
        else if (strcmp(v, ":memory:") == 0) why = "':memory:' is a database in memory, lost on exit";
        else if (strncasecmp(v, "file:", 5) == 0) why = "SQLite URIs are not accepted";
        if (why) {
            fprintf(stderr, "dama %s: %s: '%.200s': %s; name a database file\n", command, what, v, why);
            return false;
        }
    } else if (o->type == OPT_FILE && !*v) {
        fprintf(stderr, "dama %s: %s: an empty path names no file\n", command, what);
        return false;
    } else if (o->type == OPT_LIST && v[strspn(v, " \t,")] == '\0') {
        fprintf(stderr, "dama %s: %s: '%.200s' names nothing: give one or more items\n", command, what, v);
        return false;
    } else if (o->type == OPT_WEIGHTS && weights_spec_check(v, msg) != 0) {
        fprintf(stderr, "dama %s: %s: %s\n", command, what, msg);
        return false;
    }
    if (st != NUM_OK) {
        num_format_error(msg, sizeof msg, what, v, strlen(v), st, o->min, o->max, o->type == OPT_REAL);
        fprintf(stderr, "dama %s: %s\n", command, msg);
        return false;
    }
    return true;
}

static void set_value(CliArgs *a, int i, const char *v)
{
    free(a->values[i]);
    a->values[i] = strdup(v);
}

/* A flag's value word, in any case: 1 for true/yes/on/1, 0 for
 * false/no/off/0, -1 for any other. */
static int flag_word(const char *v)
{
    static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
    for (int k = 0; k < 4; k++) {
        if (strcasecmp(v, yes[k]) == 0) return 1;
        if (strcasecmp(v, no[k]) == 0) return 0;
    }
    return -1;
}

/* Read one libconfig setting into option i (as text), checked like a
 * command-line value. Integer literals libconfig would misread were
 * refused before (num_check_config_file). */
static int config_value(CliArgs *a, int i, config_setting_t *s, const char *path)
{
    const CliOpt *o = &a->opts[i];
    char buf[64];
    int line = config_setting_source_line(s);
    a->config_line[i] = line;
    char where[600];
    snprintf(where, sizeof where, "%s:%d", path, line);
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        if (o->type == OPT_FLAG) { /* 1 or 0 as the words are; 2 or -1 is no flag's value */
            long long v = (long long)config_setting_get_int64(s);
            if (v != 0 && v != 1) {
                fprintf(stderr, "dama: %s: %s must be true or false, not %lld\n", where, o->name, v);
                return -1;
            }
            snprintf(buf, sizeof buf, "%lld", v);
        } else snprintf(buf, sizeof buf, "%lld", (long long)config_setting_get_int64(s));
        break;
    case CONFIG_TYPE_FLOAT:
        if (o->type != OPT_REAL) {
            fprintf(stderr, "dama: %s: %s must be %s\n", where, o->name,
                    o->type == OPT_INT ? "an integer" : o->type == OPT_FLAG ? "true or false" : "a string");
            return -1;
        }
        snprintf(buf, sizeof buf, "%.17g", config_setting_get_float(s));
        break;
    case CONFIG_TYPE_BOOL:
        if (o->type != OPT_FLAG) {
            fprintf(stderr, "dama: %s: %s must be %s, not true/false\n", where, o->name,
                    o->type == OPT_INT ? "an integer" : o->type == OPT_REAL ? "a number" : "a string");
            return -1;
        }
        snprintf(buf, sizeof buf, "%s", config_setting_get_bool(s) ? "1" : "0");
        break;
    case CONFIG_TYPE_STRING:
        if (o->type == OPT_FLAG) { /* a word cli_flag reads, nothing else: "ture" or "" is not true */
            const char *v = config_setting_get_string(s);
            int known = flag_word(v);
            if (known < 0) {
                char shown[80];
                text_escape(v, strlen(v), shown, sizeof shown);
                fprintf(stderr, "dama: %s: %s must be true or false, not '%s'\n", where, o->name, shown);
                return -1;
            }
            snprintf(buf, sizeof buf, "%d", known);
            break;
        }
        if (!valid_value(a->command, o, config_setting_get_string(s), where)) return -1;
        set_value(a, i, config_setting_get_string(s));
        a->from_config[i] = true;
        return 0;
    default:
        fprintf(stderr, "dama: %s: %s must be a scalar value\n", where, o->name);
        return -1;
    }
    if (!valid_value(a->command, o, buf, where)) return -1;
    set_value(a, i, buf);
    a->from_config[i] = true;
    return 0;
}

/* Does a top-level setting apply to command's option key? Every one does
 * but dxp's game: DXP plays only games numbered 1..50, and the top-level
 * game (russian in configs/dama.cfg) is made for the other commands; a
 * `dxp { game = ...; }` group still sets it. */
static bool top_level_applies(const char *command, const char *key)
{
    return !(strcmp(command, "dxp") == 0 && strcmp(key, "game") == 0);
}

static int load_config(CliArgs *a, const char *path, bool required)
{
    if (!required && access(path, R_OK) != 0) return 0;
    char nerr[600];
    if (num_check_config_file(path, nerr, sizeof nerr) < 0) {
        fprintf(stderr, "dama: %s\n", nerr);
        return -1;
    }
    config_t cfg;
    config_init(&cfg);
    if (config_read_file(&cfg, path) != CONFIG_TRUE) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO) { /* libconfig keeps no reason: ask again */
            FILE *f = file_open_read(path);
            int e = f ? EIO : errno;
            if (f) fclose(f);
            char ferr[ERR_MAX];
            file_read_error(ferr, path, "config file", e);
            fprintf(stderr, "dama: %s\n", ferr);
        } else
            fprintf(stderr, "dama: %s:%d: %s\n", path, config_error_line(&cfg), config_error_text(&cfg));
        config_destroy(&cfg);
        return -1;
    }
    snprintf(a->config_path, sizeof a->config_path, "%s", path);
    config_setting_t *root = config_root_setting(&cfg);
    config_setting_t *group = config_setting_get_member(root, a->command);
    if (group && !config_setting_is_group(group)) group = NULL; /* a value or list of that name: said below */
    int rc = 0;
    for (int i = 0; i < a->opts_len && rc == 0; i++) {
        config_setting_t *s = config_setting_get_member(root, a->opts[i].name);
        if (s && !config_setting_is_group(s) && top_level_applies(a->command, a->opts[i].name))
            rc = config_value(a, i, s, path);
        if (rc == 0 && group) {
            s = config_setting_get_member(group, a->opts[i].name);
            if (s) rc = config_value(a, i, s, path);
        }
    }
    for (int j = 0; rc == 0 && j < config_setting_length(root); j++) {
        config_setting_t *s = config_setting_get_elem(root, (unsigned)j);
        bool is_group = config_setting_is_group(s);
        if (!is_group && config_setting_is_aggregate(s)) { /* a list or array: no option takes one */
            fprintf(stderr, "dama: %s:%d: '%s' is a list: a setting is one value (name = value;), a command's "
                            "settings a group (name: { ... };)\n", path, config_setting_source_line(s),
                    config_setting_name(s));
            rc = -1;
        } else if (!known_setting(config_setting_name(s), is_group)) {
            fprintf(stderr, "dama: %s:%d: unknown %s '%s'\n", path, config_setting_source_line(s),
                    is_group ? "command group" : "setting", config_setting_name(s));
            rc = -1;
        }
    }
    if (rc == 0 && group) { /* unknown keys in our own group are mistakes */
        for (int j = 0; j < config_setting_length(group); j++) {
            config_setting_t *s = config_setting_get_elem(group, (unsigned)j);
            if (opt_index(a, config_setting_name(s)) < 0) {
                fprintf(stderr, "dama: %s:%d: unknown setting '%s' in group '%s'\n", path,
                        config_setting_source_line(s), config_setting_name(s), a->command);
                rc = -1;
                break;
            }
        }
    }
    config_destroy(&cfg);
    return rc;
}

int cli_requires(const CliArgs *a, const char *name, const char *const *needed)
{
    if (cli_source(a, name) != CLI_FROM_CLI) return 0;
    char list[256] = "";
    size_t used = 0;
    for (int i = 0; needed[i]; i++) {
        int k = opt_index(a, needed[i]);
        bool on = k >= 0 && (a->opts[k].type == OPT_FLAG ? cli_flag(a, needed[i]) : cli_isset(a, needed[i]));
        if (on) return 0;
        const char *sep = i == 0 ? "" : needed[i + 1] ? ", " : " or ";
        int w = snprintf(list + used, sizeof list - used, "%s--%s", sep, needed[i]);
        if (w > 0 && (size_t)w < sizeof list - used) used += (size_t)w;
    }
    fprintf(stderr, "dama %s: --%s does nothing without %s\n", a->command, name, list);
    return 2;
}

const char *cli_opt_label(const CliArgs *a, const char *name, char *out, size_t size)
{
    int i = opt_index(a, name);
    if (i >= 0 && !a->from_cli[i] && a->from_config[i])
        snprintf(out, size, "%s (%s:%d)", name, a->config_path, a->config_line[i]);
    else snprintf(out, size, "--%s", name);
    return out;
}

int cli_fen_position(const CliArgs *a, const Game *g, Position *pos)
{
    char err[ERR_MAX], label[CLI_LABEL_MAX];
    if (game_parse_position(g, cli_str(a, "fen"), pos, err) == 0) return 0;
    fprintf(stderr, "dama %s: %s: %s\n", a->command, cli_opt_label(a, "fen", label, sizeof label), err);
    return 1;
}

const char *cli_opt_arg(const CliOpt *o)
{
    switch (o->type) {
    case OPT_FLAG: return "";
    case OPT_INT: return " N";
    case OPT_REAL: return " X";
    case OPT_DB:
    case OPT_FILE: return " FILE";
    default: return " TEXT";
    }
}

/* Help; with a (the built-in defaults and the config file applied), values
 * the config file changed are shown beside the built-in default. */
static void print_help(const CliCommand *cmd, const CliArgs *a, FILE *out)
{
    fprintf(out, "usage: dama %s %s\n\n%s\n\noptions:\n", cmd->name, cmd->usage, cmd->summary);
    int i = 0;
    for (const CliOpt *o = cmd->opts; o && o->name; o++, i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s", o->name, cli_opt_arg(o));
        char help[4096];
        cli_help_text(o->help, help, sizeof help);
        fprintf(out, "  %-24s %s", left, help);
        if (o->type == OPT_INT && o->max >= CLI_INT_MAX) fprintf(out, " [%.0f..]", o->min);
        else if (o->type == OPT_INT) fprintf(out, " [%.0f..%.0f]", o->min, o->max);
        else if (o->type == OPT_REAL) fprintf(out, " [%g..%g]", o->min, o->max);
        const char *now = a ? a->values[i] : NULL;
        bool changed = now && (!o->defval || strcmp(now, o->defval) != 0);
        char shown[64];
        if (changed && o->type == OPT_REAL) { /* as written: 0.05, not 0.050000000000000003 */
            double v = strtod(now, NULL);
            for (int prec = 6; prec <= 17; prec++) { /* the shortest text that reads back as v */
                snprintf(shown, sizeof shown, "%.*g", prec, v);
                if (strtod(shown, NULL) == v) break;
            }
            changed = !o->defval || strtod(o->defval, NULL) != v;
            now = shown;
        }
        if (o->defval && !changed) fprintf(out, " (default: %s)", o->defval);
        if (changed) fprintf(out, " (%s%s; %s: %s)", o->defval ? "default: " : "no default", o->defval ? o->defval : "",
                             a->config_path, now);
        fputc('\n', out);
    }
    fprintf(out, "  %-24s %s\n", "--config FILE", "read defaults from this libconfig file (default: configs/dama.cfg if present)");
    fprintf(out, "  %-24s %s\n", "--help", "show this help");
}

void cli_print_help(const CliCommand *cmd, FILE *out) { print_help(cmd, NULL, out); }

/* getopt_long reads an unambiguous start of an option as the option
 * (search's --moves as --movestogo): dama takes options only as written
 * in full. Each "--NAME" of argv (up to a "--") that is no option of cmd
 * but begins one or more is refused naming them; one that begins none is
 * left to getopt_long (refused by getopt_error). Returns 0, or -1 after
 * the message. */
static int refuse_abbreviations(const CliCommand *cmd, const struct option *lopts, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) break;
        if (strcmp(arg, "-o") == 0) i++; /* its value */
        if (strncmp(arg, "--", 2) != 0) continue;
        size_t len = strcspn(arg + 2, "=");
        const struct option *exact = NULL;
        char cands[400] = "";
        size_t used = 0;
        int n = 0;
        for (const struct option *o = lopts; o->name; o++) {
            if (strncmp(o->name, arg + 2, len) != 0) continue;
            if (strlen(o->name) == len) exact = o;
            n++;
            if (used < sizeof cands)
                used += (size_t)snprintf(cands + used, sizeof cands - used, "%s--%s", n > 1 ? ", " : "", o->name);
        }
        if (exact) {
            if (exact->has_arg == required_argument && !arg[2 + len]) i++; /* its value */
            continue;
        }
        if (n == 0) continue;
        fprintf(stderr, "dama %s: unknown option --%.*s (options are written in full): %s%s%s (see 'dama %s --help')\n",
                cmd->name, (int)len, arg + 2, n > 1 ? "" : "did you mean ", cands, n > 1 ? " begin so" : "?", cmd->name);
        return -1;
    }
    return 0;
}

/* The option getopt_long's value val stands for, as written: "--nodes",
 * "--config", "--help" or "-o". */
static void option_text(const CliCommand *cmd, int val, char *out, size_t size)
{
    if (val >= 1000) snprintf(out, size, "--%s", cmd->opts[val - 1000].name);
    else if (val == 'c') snprintf(out, size, "--config");
    else if (val == 'h') snprintf(out, size, "--help");
    else snprintf(out, size, "-%c", val);
}

/* dama's message for what getopt_long (opterr 0, optstring starting with
 * ':') returned as c, '?' or ':': an option that is none (one beginning
 * none of cmd's: refuse_abbreviations took the others), a missing value,
 * a value for a flag. */
static void getopt_error(const CliCommand *cmd, int c, char **argv)
{
    char name[80];
    if (c == ':') {
        option_text(cmd, optopt, name, sizeof name);
        fprintf(stderr, "dama %s: %s needs a value (see 'dama %s --help')\n", cmd->name, name, cmd->name);
    } else if (optopt >= 1000 || optopt == 'c' || optopt == 'h') {
        option_text(cmd, optopt, name, sizeof name);
        fprintf(stderr, "dama %s: %s takes no value (see 'dama %s --help')\n", cmd->name, name, cmd->name);
    } else if (optopt) {
        fprintf(stderr, "dama %s: unknown option -%c (see 'dama %s --help')\n", cmd->name, optopt, cmd->name);
    } else { /* a long option: the one getopt_long stepped over */
        const char *arg = argv[optind - 1];
        fprintf(stderr, "dama %s: unknown option %.*s (see 'dama %s --help')\n", cmd->name,
                (int)strcspn(arg, "="), arg, cmd->name);
    }
}

/* The name a bad command-line value is reported under: "egtb build" for a
 * command of actions (one that takes words besides options) whose first
 * word, argv[first] once getopt has moved the words last, is one, as the
 * command's own messages name it; else the command's name. */
static void action_name(const CliCommand *cmd, int argc, char **argv, int first, char *out, size_t size)
{
    snprintf(out, size, "%s", cmd->name);
    if (cmd->positional_max == 0 || first >= argc) return;
    const char *w = argv[first];
    size_t n = strspn(w, "abcdefghijklmnopqrstuvwxyz");
    if (n > 0 && n <= 16 && !w[n]) snprintf(out, size, "%s %s", cmd->name, w);
}

int cli_parse(const CliCommand *cmd, int argc, char **argv, CliArgs *out)
{
    memset(out, 0, sizeof *out);
    out->command = cmd->name;
    out->opts = cmd->opts;
    while (cmd->opts[out->opts_len].name) out->opts_len++;
    struct option lopts[CLI_OPTS_MAX + 3];
    int n = 0;
    for (int i = 0; i < out->opts_len; i++)
        lopts[n++] = (struct option){cmd->opts[i].name, cmd->opts[i].type == OPT_FLAG ? no_argument : required_argument,
                                     NULL, 1000 + i};
    lopts[n++] = (struct option){"config", required_argument, NULL, 'c'};
    lopts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    lopts[n] = (struct option){NULL, 0, NULL, 0};

    /* "-o FILE" is short for --out FILE where a command has --out. */
    int out_opt = -1;
    for (int i = 0; i < out->opts_len; i++)
        if (strcmp(cmd->opts[i].name, "out") == 0) out_opt = i;
    const char *shorts = out_opt >= 0 ? ":ho:" : ":h"; /* ':': a missing value is told apart */

    if (refuse_abbreviations(cmd, lopts, argc, argv) != 0) return -1;

    /* First pass: --help and --config only, on a copy of argv: getopt
     * moves the words last as it goes, and a value-taking option left last
     * without its value ("egtb probe --fen") would take the moved word as
     * its value in the second pass instead of being said to need one. */
    const char *config = NULL;
    bool help = false;
    char **argv1 = malloc(sizeof *argv1 * (size_t)(argc + 1));
    if (!argv1) {
        fprintf(stderr, "dama %s: out of memory\n", cmd->name);
        return -1;
    }
    memcpy(argv1, argv, sizeof *argv1 * (size_t)argc);
    argv1[argc] = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv1, shorts, lopts, NULL)) != -1) {
        if (c == 'h') help = true;
        if (c == 'c') {
            if (config && strcmp(config, optarg) != 0)
                fprintf(stderr, "dama %s: warning: --config given twice ('%s', then '%s'): the last is used\n",
                        cmd->name, config, optarg);
            config = optarg;
        }
    }
    for (int i = 0; i < out->opts_len; i++)
        if (cmd->opts[i].defval) out->values[i] = strdup(cmd->opts[i].defval);
    int cfg = load_config(out, config ? config : "configs/dama.cfg", config != NULL);
    char who[64];
    action_name(cmd, argc, argv1, optind, who, sizeof who);
    free(argv1);
    if (help) { /* the help shows what the config file changed, if it loaded */
        print_help(cmd, cfg == 0 ? out : NULL, stdout);
        return 1;
    }
    if (cfg != 0) return -1;

    optind = 1;
    while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
        if (c == 'c' || c == 'h') continue;
        if (c == 'o' && out_opt >= 0) c = 1000 + out_opt;
        if (c < 1000) {
            getopt_error(cmd, c, argv);
            return -1;
        }
        int i = c - 1000;
        const char *v = cmd->opts[i].type == OPT_FLAG ? "1" : optarg;
        if (!valid_value(who, &cmd->opts[i], v, NULL)) return -1;
        /* An option given twice with two values: the last is taken, as
         * scripts that add to a base command line expect, and said (lists
         * add up instead). */
        if (cmd->opts[i].type != OPT_LIST && out->from_cli[i] && strcmp(out->values[i], v) != 0)
            fprintf(stderr, "dama %s: warning: --%s given twice ('%s', then '%s'): the last is used\n", who,
                    cmd->opts[i].name, out->values[i], v);
        if (cmd->opts[i].type == OPT_LIST && out->from_cli[i] && out->values[i]) {
            size_t len = strlen(out->values[i]) + strlen(v) + 2;
            char *joined = malloc(len);
            if (!joined) {
                fprintf(stderr, "dama %s: out of memory\n", cmd->name);
                return -1;
            }
            snprintf(joined, len, "%s,%s", out->values[i], v);
            free(out->values[i]);
            out->values[i] = joined;
        } else {
            set_value(out, i, v);
        }
        out->from_cli[i] = true;
    }
    out->positional = argv + optind;
    out->positional_len = argc - optind;
    if (out->positional_len > cmd->positional_max) {
        fprintf(stderr, "dama %s: unexpected argument '%s' (see 'dama %s --help')\n", cmd->name,
                out->positional[cmd->positional_max], cmd->name);
        return -1;
    }
    return 0;
}

void cli_free(CliArgs *a)
{
    for (int i = 0; i < a->opts_len; i++) free(a->values[i]);
}

const char *cli_str(const CliArgs *a, const char *name)
{
    int i = opt_index(a, name);
    return i < 0 ? NULL : a->values[i];
}

bool cli_isset(const CliArgs *a, const char *name) { return cli_str(a, name) != NULL; }

CliSource cli_source(const CliArgs *a, const char *name)
{
    int i = opt_index(a, name);
    if (i < 0 || !a->values[i]) return CLI_FROM_NONE;
    return a->from_cli[i] ? CLI_FROM_CLI : a->from_config[i] ? CLI_FROM_CONFIG : CLI_FROM_DEFAULT;
}

int64_t cli_int(const CliArgs *a, const char *name)
{
    const char *v = cli_str(a, name);
    return v ? strtoll(v, NULL, 10) : 0;
}

double cli_real(const CliArgs *a, const char *name)
{
    const char *v = cli_str(a, name);
    return v ? strtod(v, NULL) : 0.0;
}

int cli_bad_value(const CliArgs *a, const char *name, const char *constraint)
{
    int i = opt_index(a, name);
    const char *v = i < 0 ? NULL : a->values[i];
    bool from_file = i >= 0 && !a->from_cli[i] && a->from_config[i];
    if (from_file)
        fprintf(stderr, "dama %s: %s = %s (%s:%d): %s\n", a->command, name, v, a->config_path, a->config_line[i],
                constraint);
    else fprintf(stderr, "dama %s: --%s %s: %s\n", a->command, name, v ? v : "(unset)", constraint);
    return 2;
}

bool cli_flag(const CliArgs *a, const char *name)
{
    const char *v = cli_str(a, name);
    return v && flag_word(v) != 0;
}

const Game *cli_game(const CliArgs *a)
{
    const char *name = cli_str(a, "game");
    const Game *g = game_find(name ? name : GAME_DEFAULT_NAME);
    if (!g) {
        int i = opt_index(a, "game");
        if (i >= 0 && !a->from_cli[i] && a->from_config[i]) /* say where: the file and line */
            fprintf(stderr, "dama %s: game = \"%s\" (%s:%d): unknown game '%s' (choices:", a->command, name,
                    a->config_path, a->config_line[i], name);
        else fprintf(stderr, "dama %s: unknown game '%s' (choices:", a->command, name);
        for (const Game *const *l = game_list(); *l; l++) fprintf(stderr, " %s", (*l)->name);
        fprintf(stderr, ")\n");
    }
    return g;
}

static bool has_egtb(const Game *g) { return g->egtb != NULL; }

const Game *cli_dxp_default_game(void)
{
    for (const Game *const *l = game_list(); *l; l++)
        if (dxp_game_fits(*l)) return *l;
    return NULL;
}

static bool is_dxp_default(const Game *g) { return g == cli_dxp_default_game(); }

void cli_help_text(const char *help, char *out, size_t size)
{
    static const struct {
        const char *token;
        bool (*keep)(const Game *g);
    } TOKENS[] = {{CLI_GAMES, NULL}, {CLI_EGTB_GAMES, has_egtb}, {CLI_DXP_GAME, is_dxp_default}};
    size_t used = 0;
    if (size) out[0] = '\0';
    for (const char *h = help; *h && used + 1 < size;) {
        bool expanded = false;
        for (size_t t = 0; t < sizeof TOKENS / sizeof TOKENS[0] && !expanded; t++) {
            size_t n = strlen(TOKENS[t].token);
            if (strncmp(h, TOKENS[t].token, n) != 0) continue;
            game_names(out + used, size - used, " or ", TOKENS[t].keep);
            used += strlen(out + used);
            h += n;
            expanded = true;
        }
        if (!expanded) out[used++] = *h++, out[used] = '\0';
    }
}

void cli_set(CliArgs *a, const char *name, const char *value)
{
    int i = opt_index(a, name);
    if (i >= 0) set_value(a, i, value);
}

/* A number option's value as its identity: the value, not its spelling
 * ("050" is 50, ".25" and "0.250" are 0.25); the shortest form that reads
 * back as the same double, its exponent without '+' or leading zeros
 * ("1e-7", as the defaults are written). Other options: as given. */
static const char *canonical_value(const CliOpt *o, const char *v, char buf[64])
{
    if (o->type == OPT_INT) {
        int64_t x;
        if (num_parse_int(v, INT64_MIN, INT64_MAX, &x) != NUM_OK) return v;
        snprintf(buf, 64, "%lld", (long long)x);
        return buf;
    }
    if (o->type != OPT_REAL) return v;
    double x;
    if (num_parse_real(v, -DBL_MAX, DBL_MAX, &x) != NUM_OK) return v;
    if (x == (double)(int64_t)x && x > -1e15 && x < 1e15) { /* "10", not "1e1" */
        snprintf(buf, 64, "%lld", (long long)x);
        return buf;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, 64, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) break;
    }
    char *e = strchr(buf, 'e');
    if (e) { /* "1e-07" -> "1e-7", "1e+20" -> "1e20" */
        char *d = e + 1;
        if (*d == '+') memmove(d, d + 1, strlen(d));
        else if (*d == '-') d++;
        size_t zeros = strspn(d, "0");
        if (zeros && d[zeros]) memmove(d, d + zeros, strlen(d + zeros) + 1);
    }
    return buf;
}

void cli_config_text(const CliArgs *a, const char *const *skip, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < a->opts_len && n < size; i++) {
        if (!a->values[i]) continue;
        bool skipped = false;
        for (int j = 0; skip && skip[j]; j++) skipped |= strcmp(skip[j], a->opts[i].name) == 0;
        if (skipped) continue;
        char buf[64];
        int w = snprintf(out + n, size - n, "%s = %s\n", a->opts[i].name,
                         canonical_value(&a->opts[i], a->values[i], buf));
        if (w < 0) break;
        n += (size_t)w;
    }
}

/* Does the space-separated list hold word? */
static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p; p += strcspn(p, " "), p += *p == ' ')
        if (strncmp(p, word, n) == 0 && (p[n] == ' ' || p[n] == 0)) return true;
    return false;
}

int cli_check_action_opts(const CliArgs *a, const char *act, const CliActionOpt *table, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const char *o = table[i].option;
        if (cli_source(a, o) != CLI_FROM_CLI || has_word(table[i].actions, act)) continue;
        char list[64];
        snprintf(list, sizeof list, "%s", table[i].actions);
        char *sp = strchr(list, ' ');
        if (sp) *sp = 0;
        fprintf(stderr, "dama %s %s: --%s is for %s%s%s, not %s%s%s%s\n", a->command, act, o, list, sp ? " and " : "",
                sp ? sp + 1 : "", act, table[i].hint ? " (" : "", table[i].hint ? table[i].hint : "",
                table[i].hint ? ")" : "");
        return 2;
    }
    return 0;
}

int cli_game_selection(const CliArgs *a, bool all, DbSelect *sel, int64_t *id)
{
    static const char *const which[] = {"run", "match", "tournament", "filter"};
    int chosen = -1, count = all ? 1 : 0;
    for (int i = 0; i < 4; i++)
        if (cli_isset(a, which[i])) {
            chosen = i;
            count++;
        }
    if (count > 1) {
        fprintf(stderr, "dama %s: give at most one of --run, --match, --tournament, --filter%s\n", a->command,
                all ? ", --all" : "");
        return 2;
    }
    *sel = chosen == 0 ? DB_SELECT_RUN : chosen == 1 ? DB_SELECT_MATCH : chosen == 2 ? DB_SELECT_TOURNAMENT
         : chosen == 3 ? DB_SELECT_FILTER : DB_SELECT_ALL;
    *id = chosen >= 0 && chosen < 3 ? cli_int(a, which[chosen]) : 0;
    if (chosen >= 0 && chosen < 3 && *id < 1) {
        fprintf(stderr, "dama %s: --%s must be >= 1\n", a->command, which[chosen]);
        return 2;
    }
    char err[ERR_MAX];
    if (chosen == 3 && db_filter_check(cli_str(a, "filter"), err) != 0) { /* a value against its rules: exit 2 */
        fprintf(stderr, "dama %s: --filter: %s\n", a->command, err);
        return 2;
    }
    return 0;
}

/* The rank count of a job this process was started in, from the launcher's
 * environment (Open MPI's mpirun: OMPI_COMM_WORLD_SIZE; MPICH, Slurm's PMI:
 * PMI_SIZE); 0 when none says. */
static long launcher_ranks(void)
{
    const char *names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        char *end;
        long n = v ? strtol(v, &end, 10) : 0;
        if (v && *v && !*end && n > 0) return n;
    }
    return 0;
}

int cli_mpi_start(const CliArgs *a, const char *command)
{
    bool has = false;
    for (int i = 0; i < a->opts_len; i++) has = has || strcmp(a->opts[i].name, "mpi") == 0;
    if (!has) return 0;
    long ranks = launcher_ranks();
    /* K > 1 copies of a command without --mpi would each do all the work
     * (and collide in one database): under a launcher of several ranks
     * --mpi is implied. */
    if (!cli_flag(a, "mpi") && ranks <= 1) return 0;
    /* A rank ends when its launcher is gone: the output it forwards is
     * closed, and the default SIGPIPE (main ignores it) ends the rank at
     * its next line instead of letting it work on alone. */
    signal(SIGPIPE, SIG_DFL);
    char err[ERR_MAX];
    if (dist_init(err) == 0) return 0;
    if (!cli_flag(a, "mpi"))
        fprintf(stderr, "dama %s: started as one of %ld MPI ranks, but %s\n", command, ranks, err);
    else fprintf(stderr, "dama %s: --mpi: %s\n", command, err);
    return 2;
}
