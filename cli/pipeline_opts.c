/* pipeline_opts.c — reading the options selfplay, tune and train share
 * (contracts in cli/pipeline_opts.h). */
#include "cli/pipeline_opts.h"

#include <string.h>

int cli_perturb_options(const CliArgs *a, SelfplayOptions *o)
{
    const char *perturb = cli_str(a, "perturb");
    bool pairs = strcmp(perturb, "pairs") == 0;
    if (!pairs && strcmp(perturb, "population") != 0) {
        fprintf(stderr, "dama %s: --perturb must be 'pairs' or 'population', not '%s'\n", a->command, perturb);
        return 2;
    }
    if (pairs && cli_source(a, "population") == CLI_FROM_CLI) { /* pairs perturb each pair afresh */
        fprintf(stderr, "dama %s: --population does nothing without --perturb population\n", a->command);
        return 2;
    }
    o->perturb = pairs ? SELFPLAY_PERTURB_PAIRS : SELFPLAY_PERTURB_POPULATION;
    o->population = (int)cli_int(a, "population");
    o->spread = cli_real(a, "spread");
    o->spread_min = cli_real(a, "spread-min");
    return 0;
}

void cli_tune_fit_options(const CliArgs *a, TuneJobOptions *o)
{
    o->valid = cli_real(a, "valid");
    o->epochs = (int)cli_int(a, "epochs");
    o->lr = cli_real(a, "lr");
    o->lambda = cli_real(a, "lambda");
    o->patterns = cli_flag(a, "patterns");
    o->pattern_lr = cli_real(a, "pattern-lr");
    o->pattern_lambda = cli_real(a, "pattern-lambda");
    o->batch = (size_t)cli_int(a, "batch");
    o->patience = (int)cli_int(a, "patience");
    o->k = cli_real(a, "k");
    o->score_weight = cli_real(a, "score-weight");
}

int cli_fit_requires(const CliArgs *a)
{
    static const char *const PATTERNS[] = {"patterns", NULL};
    if (cli_requires(a, "pattern-lr", PATTERNS) != 0 || cli_requires(a, "pattern-lambda", PATTERNS) != 0) return 2;
    return 0;
}
