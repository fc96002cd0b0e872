/* eval_body.h — include at the top of a game's evaluation body file, after
 * defining EVAL_TRACED to 0 or 1. Provides:
 *   EVAL_FUNCTION(plain, traced) — the function header: plain(pos, w) or
 *       traced(pos, w, scratch), both returning the score (White's view);
 *   EVAL_ADD(index, count) — the one primitive: score += count * w[index],
 *       and in the traced build (index, count) is appended to the scratch.
 * The body declares `int32_t score = 0;` and returns it. */
#include "engine/eval.h"

#undef EVAL_FUNCTION
#undef EVAL_ADD
#if EVAL_TRACED
#define EVAL_FUNCTION(plain, traced) int32_t traced(const Position *pos, const int32_t *w, EvalScratch *scratch)
#define EVAL_ADD(idx, count)                                                                       \
    do {                                                                                           \
        int32_t c_ = (count);                                                                      \
        score += c_ * w[idx];                                                                      \
        eval_scratch_add(scratch, (uint32_t)(idx), c_);                                            \
    } while (0)
#else
#define EVAL_FUNCTION(plain, traced) int32_t plain(const Position *pos, const int32_t *w)
#define EVAL_ADD(idx, count) (score += (count)*w[idx])
#endif
