/* international_eval_traced.c — the same evaluation source, compiled traced. */
#define EVAL_TRACED 1
#include "engine/games/international/international_eval_body.h"
