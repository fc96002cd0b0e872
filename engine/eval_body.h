/* eval_body.h — include at the top of a game's evaluation body file, after
 * defining EVAL_TRACED to 0 or 1; define EVAL_EG_OFFSET (the game's
 * eg_offset) before the function. Provides:
 *   EVAL_FUNCTION(plain, traced) — the function header: plain(pos, w) or
 *       traced(pos, w, scratch), both returning the score (White's view);
 *   EVAL_ADD(index, count) — the one primitive: score += count * w[index]
 *       (opening) and score_eg += count * w[index + EVAL_EG_OFFSET]
 *       (endgame), and in the traced build (index, count) is appended to the
 *       scratch;
 *   EVAL_RETURN(phase, phase_max) — returns the tapered score (eval_taper)
 *       and, traced, records the phase.
 * The body declares `int32_t score = 0, score_eg = 0;`. */
#include "engine/eval.h"

#undef EVAL_FUNCTION
#undef EVAL_ADD
#undef EVAL_RETURN
#if EVAL_TRACED
#define EVAL_FUNCTION(plain, traced) int32_t traced(const Position *pos, const int32_t *w, EvalScratch *scratch)
#define EVAL_ADD(idx, count)                                                                       \
    do {                                                                                           \
        int32_t c_ = (count);                                                                      \
        score += c_ * w[idx];                                                                      \
        score_eg += c_ * w[(idx) + EVAL_EG_OFFSET];                                                \
        eval_scratch_add(scratch, (uint32_t)(idx), c_);                                            \
    } while (0)
#define EVAL_RETURN(ph_, ph_max_)                                                                   \
    do {                                                                                           \
        scratch->phase = (ph_);                                                                    \
        return eval_taper(score, score_eg, scratch->phase, (ph_max_));                             \
    } while (0)
#else
#define EVAL_FUNCTION(plain, traced) int32_t plain(const Position *pos, const int32_t *w)
#define EVAL_ADD(idx, count)                                                                       \
    do {                                                                                           \
        int32_t c_ = (count);                                                                      \
        score += c_ * w[idx];                                                                      \
        score_eg += c_ * w[(idx) + EVAL_EG_OFFSET];                                                \
    } while (0)
#define EVAL_RETURN(ph_, ph_max_) return eval_taper(score, score_eg, (ph_), (ph_max_))
#endif
