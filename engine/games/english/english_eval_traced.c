/* english_eval_traced.c — the short-king evaluator, traced (english.h). */
#define EVAL_TRACED 1
#define DIAG_EVAL english_evaluate
#define DIAG_EVAL_TRACED english_evaluate_traced
#define DIAG_COUNT_QUIET english_count_quiet
#include "engine/games/russian/russian_eval_body.h"
