/* turkish_eval.c — the plain Turkish evaluator. */
#define EVAL_TRACED 0
#include "engine/games/turkish/turkish_eval_body.h"
