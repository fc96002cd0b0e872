/* shatra_eval.c — the plain Shatra evaluator. */
#define EVAL_TRACED 0
#include "engine/games/shatra/shatra_eval_body.h"
