/* main.c — `dama`, one binary with git-style subcommands. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/manual.h"
#include "engine/game.h"
#include "dist/dist.h"
#include "util/atomic_file.h"
#include "util/err.h"

static const CliCommand *const *const COMMANDS = cli_commands;

static void usage(FILE *out)
{
    fprintf(out, "usage: dama COMMAND [options]   (dama COMMAND --help for its options)\n\n"
                 "Self-play training and evaluation tuning for draughts-family games.\n\ncommands:\n");
    for (int i = 0; COMMANDS[i]; i++) fprintf(out, "  %-10s %s\n", COMMANDS[i]->name, COMMANDS[i]->summary);
    fprintf(out, "\ngames:");
    for (const Game *const *g = game_list(); *g; g++) fprintf(out, " %s", (*g)->name);
    fprintf(out, "\n");
}

/* Standard output is flushed and closed before the exit code is decided:
 * a write that failed (a full disk, a pipe whose reader ended: EPIPE, a
 * quota) must not end in exit 0 with the output cut short. Returns rc, or
 * 1 when rc was 0 and the output was lost (message on stderr naming the
 * command; a command that failed already said why). */
static int close_stdout(const char *command, int rc)
{
    errno = 0;
    bool failed = ferror(stdout) != 0;
    int saved = errno;
    if (fclose(stdout) != 0) {
        failed = true;
        saved = errno;
    }
    if (!failed) return rc;
    if (rc == 0) /* a command that failed has said why */
        fprintf(stderr, "dama%s%s: writing standard output: %s\n", command ? " " : "", command ? command : "",
                err_write_text(saved));
    return rc ? rc : 1;
}

static int run_main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) argv[1] = "version"; /* the command, its arguments checked */
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        if (argc > 3) { /* "help --markdown --man", "help perft search": one word only */
            fprintf(stderr, "dama %s: give one command name, --man or --markdown (dama help lists the commands)\n",
                    argv[1]);
            return 2;
        }
        if (argc == 3) {
            /* "dama help CMD", "dama --help CMD": the command's help; the
             * command reference (cli/manual.h): dama.1 and docs/commands.md */
            if (strcmp(argv[2], "--man") == 0 || strcmp(argv[2], "--markdown") == 0) {
                cli_manual_write(COMMANDS, strcmp(argv[2], "--man") == 0 ? CLI_MANUAL_MAN : CLI_MANUAL_MARKDOWN, stdout);
                return 0;
            }
            for (int i = 0; COMMANDS[i]; i++)
                if (strcmp(COMMANDS[i]->name, argv[2]) == 0) {
                    cli_print_help(COMMANDS[i], stdout);
                    return 0;
                }
            fprintf(stderr, "dama %s: unknown command '%s' (dama help lists them)\n", argv[1], argv[2]);
            return 2;
        }
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    game_init_all();
    cli_register_commands(COMMANDS);
    for (int i = 0; COMMANDS[i]; i++) {
        if (strcmp(COMMANDS[i]->name, argv[1]) != 0) continue;
        CliArgs args;
        int rc = cli_parse(COMMANDS[i], argc - 1, argv + 1, &args);
        if (rc == 0) rc = COMMANDS[i]->run(&args);
        else rc = rc > 0 ? 0 : 2;
        cli_free(&args);
        return rc;
    }
    if (argv[1][0] == '-') /* an option first: every option belongs to a command and follows it */
        fprintf(stderr, "dama: '%s' before the command: options follow the command (dama COMMAND %s ...; dama help "
                        "lists the commands)\n", argv[1], argv[1]);
    else fprintf(stderr, "dama: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

/* SIGTERM, SIGINT or SIGHUP where the command has no stop handler of its
 * own (cli_install_stop_handler): its temporary files go (an output file
 * is renamed into place only whole: util/atomic_file.h), then the process
 * ends by that signal. */
static void on_end_signal(int sig)
{
    atomic_file_remove_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv)
{
    /* A reader that closes the pipe (`dama export --out - | head -1`) makes
     * a write fail with EPIPE instead of killing the process: the command
     * then ends through its own error path, which closes the database
     * (checkpointing and removing its -wal and -shm), and close_stdout
     * says the output was lost (exit 1). Engines and programs dama starts
     * get the default back before their exec (arena/player.c). */
    signal(SIGPIPE, SIG_IGN);
    static const int END_SIGNALS[] = {SIGTERM, SIGINT, SIGHUP};
    for (int i = 0; i < 3; i++) /* one ignored when dama started (nohup, `cmd &` in a script) stays ignored */
        if (signal(END_SIGNALS[i], on_end_signal) == SIG_IGN) signal(END_SIGNALS[i], SIG_IGN);
    int rc = run_main(argc, argv);
    dist_finalize(); /* a command run with --mpi started MPI (cli_mpi_start) */
    return close_stdout(argc >= 2 && argv[1][0] != '-' ? argv[1] : NULL, rc);
}
