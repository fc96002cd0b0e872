/* turkish_eval.c — the plain Turkish evaluator. */
#define EVAL_TRACED 0
#include "games/turkish/turkish_eval_body.h"
