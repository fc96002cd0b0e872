/* config_resume.h — a command's options taken back from the configuration
 * text stored with a run (cli_config_text's "key = value" lines), for a
 * --resume that names no engines (`dama tournament --resume`). */
#ifndef DAMA_CLI_CONFIG_RESUME_H
#define DAMA_CLI_CONFIG_RESUME_H

#include "cli/cli.h"

/* Every option of a not named in not_identity (NULL-terminated) gets its
 * stored value, or none when config has no line of it; an option given on
 * the command line must agree with the stored value. The lines
 * "POSITIONAL_KEY = TEXT" become a's positional words, in order (*owned,
 * *owned_len: free them with cli_config_resume_free after a is done).
 * `owner` names the stored run in messages ("tournament 3"). Returns 0, or
 * -1 with err ("--resume: --rounds 2 contradicts tournament 3, which has
 * 4", a line this dama does not know, out of memory). */
int cli_config_resume(CliArgs *a, const char *config, const char *const *not_identity, const char *positional_key,
                      const char *owner, char ***owned, int *owned_len, char err[ERR_MAX]);

/* Free what cli_config_resume made (NULL is a no-op). */
void cli_config_resume_free(char **owned, int owned_len);

#endif
