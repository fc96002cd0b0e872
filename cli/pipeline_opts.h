/* pipeline_opts.h — the options that `dama selfplay`, `dama tune` and
 * `dama train` share, each defined once (name, type, default, help,
 * range), so that their defaults cannot drift apart; and the reading of
 * them into the library's option structs. A command's table lists each
 * entry where it wants it (the order of a table is its --help order and
 * the order of a run's stored configuration). */
#ifndef DAMA_CLI_PIPELINE_OPTS_H
#define DAMA_CLI_PIPELINE_OPTS_H

#include "cli/cli.h"
#include "selfplay/selfplay.h"
#include "tuner/tune_job.h"

/* Self-play's perturbation (selfplay, train). */
#define CLI_OPT_PERTURB                                                                                          \
    {"perturb", OPT_STR, "pairs", "self-play perturbation: pairs (base +- a fresh perturbation per game pair, two " \
     "weight sets per pair stored as deltas of the base) or population (a fixed population)", 0, 0}
#define CLI_OPT_POPULATION                                                                                       \
    {"population", OPT_INT, "8", "--perturb population: the base and population-1 perturbed copies", 2, 64}
#define CLI_OPT_SPREAD                                                                                           \
    {"spread", OPT_REAL, "0.25", "perturbation: each weight moves by N(0,1) * max(spread*|w|, spread-min)", 0, 10}
#define CLI_OPT_SPREAD_MIN {"spread-min", OPT_REAL, "6", "smallest perturbation scale, centi-men", 0, 1000}

/* The tuning's fit (tune, train). */
#define CLI_OPT_VALID {"valid", OPT_REAL, "0.1", "fraction of games held out for validation", 0.001, 0.5}
#define CLI_OPT_EPOCHS {"epochs", OPT_INT, "400", "most tuning epochs", 0, 1000000}
#define CLI_OPT_LR {"lr", OPT_REAL, "2", "Adam learning rate (centi-men per step)", 1e-6, 1000}
#define CLI_OPT_LAMBDA                                                                                           \
    {"lambda", OPT_REAL, "1e-7", "L2 regularisation toward the weights the tuning starts from", 0, 1e6}
#define CLI_OPT_PATTERNS                                                                                         \
    {"patterns", OPT_FLAG, NULL, "the tuning fits the pattern tables too (PATTERN, docs/eval.md; default: they " \
     "keep their start values)", 0, 0}
#define CLI_OPT_PATTERN_LR                                                                                       \
    {"pattern-lr", OPT_REAL, "0.5", "with --patterns: Adam learning rate of the pattern tables (0: --lr; 0.5 " \
     "fitted the tables best at equal time, docs/eval.md)", 0, 1000}
#define CLI_OPT_PATTERN_LAMBDA                                                                                   \
    {"pattern-lambda", OPT_REAL, "1e-8", "with --patterns: L2 of the pattern tables toward their start (-1: " \
     "--lambda; docs/eval.md)", -1, 1e6}
#define CLI_OPT_TUNE_BATCH {"batch", OPT_INT, "0", "tuning mini-batch size (0: full batch)", 0, 1000000000}
#define CLI_OPT_PATIENCE                                                                                         \
    {"patience", OPT_INT, "30", "stop tuning after this many epochs without a better validation loss", 1, 1000000}
#define CLI_OPT_K {"k", OPT_REAL, "0", "sigmoid scale K (0: fit it before each tuning)", 0, 100}
#define CLI_OPT_SCORE_WEIGHT                                                                                     \
    {"score-weight", OPT_REAL, "0", "tuning target = (1-w) * result + w * expected score of the stored search " \
     "score", 0, 1}
#define CLI_OPT_TUNE_THREADS {"threads", OPT_INT, "0", "threads (0: all cores); results do not depend on it", 0, 256}

/* --perturb, --population, --spread and --spread-min into o. Returns 0,
 * or 2 after "dama COMMAND: --perturb must be ..." (or "--population does
 * nothing without --perturb population") on stderr. */
int cli_perturb_options(const CliArgs *a, SelfplayOptions *o);

/* The fit options above (valid .. score-weight, patterns) into o. */
void cli_tune_fit_options(const CliArgs *a, TuneJobOptions *o);
/* --pattern-lr or --pattern-lambda on the command line without
 * --patterns (they would do nothing): 2 after "dama COMMAND: --pattern-lr
 * does nothing without --patterns" on stderr; else 0. */
int cli_fit_requires(const CliArgs *a);

#endif
