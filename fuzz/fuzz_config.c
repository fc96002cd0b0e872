/* fuzz_config.c — the configuration-file reader of the command line
 * (cli_parse with --config FILE, libconfig syntax) for every command, from
 * a scratch file. Its messages go to stderr (run with -close_fd_mask=2 to
 * keep the fuzzer's output readable). */
#include "fuzz_common.h"

#include "cli/cli.h"

static const CliCommand *const *const COMMANDS = cli_commands;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    game_init_all();
    cli_register_commands(COMMANDS);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_temp(data, size);
    for (int i = 0; COMMANDS[i]; i++) {
        char name[64], opt[] = "--config", file[512];
        snprintf(name, sizeof name, "%s", COMMANDS[i]->name);
        snprintf(file, sizeof file, "%s", path);
        char *argv[] = {name, opt, file, NULL};
        CliArgs args;
        (void)cli_parse(COMMANDS[i], 3, argv, &args);
        cli_free(&args);
    }
    return 0;
}
