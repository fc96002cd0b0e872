/* skill.c — named levels of play and the draw-offer answer (see skill.h). */
#include "engine/skill.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"

static const SkillLevel BEGINNER = {"beginner", 1, 300, 150, "1 ply per root move, any move within 3 men of the best"};
static const SkillLevel CASUAL = {"casual", 2, 150, 60, "2 plies per root move, within 1.5 men"};
static const SkillLevel CLUB = {"club", 4, 60, 25, "4 plies per root move, within 0.6 men"};
static const SkillLevel STRONG = {"strong", 6, 20, 8, "6 plies per root move, within 0.2 men"};
static const SkillLevel MAX = {"max", 0, 0, 0, "full strength: the best move at the given depth, nodes or time"};

static const SkillLevel *const LEVELS[] = {&BEGINNER, &CASUAL, &CLUB, &STRONG, &MAX, NULL};

const SkillLevel *skill_find(const char *name)
{
    for (int i = 0; LEVELS[i]; i++)
        if (name && strcmp(LEVELS[i]->name, name) == 0) return LEVELS[i];
    return NULL;
}

const SkillLevel *const *skill_list(void) { return LEVELS; }

/* The mover's score of a finished game. */
static int outcome_score(Outcome o, Color mover)
{
    if (o == OUTCOME_DRAW) return 0;
    bool won = (o == OUTCOME_WHITE_WINS) == (mover == COLOR_WHITE);
    return won ? SCORE_WIN - 1 : -(SCORE_WIN - 1);
}

int skill_choose(Engine *e, const Game *g, const Position *root, const uint64_t *history, int history_len,
                 const SkillLevel *level, const SearchLimits *limits, uint64_t *rng, SearchResult *r, char err[ERR_MAX])
{
    if (!level || level->depth <= 0) return engine_search(e, root, history, history_len, limits, r, NULL, NULL);
    memset(r, 0, sizeof *r);
    MoveList *moves = malloc(sizeof *moves);
    uint64_t *keys = malloc(sizeof(uint64_t) * (size_t)(history_len + 1));
    int *scores = moves ? malloc(sizeof(int) * MOVES_MAX) : NULL;
    SearchResult *child = malloc(sizeof *child);
    if (!moves || !keys || !scores || !child) {
        free(moves), free(keys), free(scores), free(child);
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    if (history_len > 0) memcpy(keys, history, sizeof(uint64_t) * (size_t)history_len);
    keys[history_len] = g->hash(root);
    Color mover = g->side_to_move(root);
    g->gen_moves(root, moves, GEN_DISTINCT);
    if (moves->len == 0) {
        r->score = -SCORE_WIN;
        free(moves), free(keys), free(scores), free(child);
        return 0;
    }
    SearchLimits lim = {.depth = level->depth};
    int best = -SCORE_INF;
    for (int i = 0; i < moves->len; i++) {
        Position next;
        g->make_move(root, &moves->moves[i], &next);
        const char *reason;
        Outcome o = game_outcome(g, &next, keys, history_len + 1, &reason, NULL);
        int s;
        if (o != OUTCOME_NONE) {
            s = outcome_score(o, mover);
        } else {
            engine_search(e, &next, keys, history_len + 1, &lim, child, NULL, NULL);
            r->nodes += child->nodes;
            r->seconds += child->seconds;
            s = -child->score;
            /* one ply further from the root than from the child */
            if (s >= SCORE_WIN_MIN) s--;
            else if (s <= -SCORE_WIN_MIN) s++;
        }
        scores[i] = s;
        if (s > best) best = s;
    }
    /* A found win is played the fastest way; otherwise weigh the moves
     * within the margin by exp(-deficit / temperature). */
    double total = 0.0;
    double temp = level->temperature_cp > 0 ? level->temperature_cp : 1.0;
    for (int i = 0; i < moves->len; i++) {
        int deficit = best - scores[i];
        bool candidate = best >= SCORE_WIN_MIN ? deficit == 0 : deficit <= level->margin_cp;
        if (candidate) total += exp(-(double)deficit / temp);
    }
    double u = rng_unit(rng) * total;
    int pick = -1;
    for (int i = 0; i < moves->len; i++) {
        int deficit = best - scores[i];
        bool candidate = best >= SCORE_WIN_MIN ? deficit == 0 : deficit <= level->margin_cp;
        if (!candidate) continue;
        pick = i; /* the last candidate absorbs rounding */
        u -= exp(-(double)deficit / temp);
        if (u < 0) break;
    }
    r->has_move = true;
    r->best = moves->moves[pick];
    r->score = scores[pick];
    r->depth = level->depth + 1;
    r->pv[0] = r->best;
    r->pv_len = 1;
    /* The chosen move's line: search it once more (same depth, so the TT
     * answers at once) for its PV. */
    Position next;
    g->make_move(root, &r->best, &next);
    const char *reason;
    if (game_outcome(g, &next, keys, history_len + 1, &reason, NULL) == OUTCOME_NONE) {
        engine_search(e, &next, keys, history_len + 1, &lim, child, NULL, NULL);
        r->nodes += child->nodes;
        int n = child->pv_len < PLY_MAX - 1 ? child->pv_len : PLY_MAX - 1;
        memcpy(&r->pv[1], child->pv, sizeof(Move) * (size_t)n);
        r->pv_len = 1 + n;
    }
    free(moves), free(keys), free(scores), free(child);
    return 0;
}

bool engine_accept_draw(Engine *e, const Game *g, const Position *pos, const uint64_t *history, int history_len,
                        Color engine_side, const SearchLimits *limits, int accept_cp, int *score)
{
    const char *reason;
    Outcome o = game_outcome(g, pos, history, history_len, &reason, NULL);
    int s;
    if (o != OUTCOME_NONE) {
        s = outcome_score(o, engine_side);
    } else {
        SearchResult r;
        engine_search(e, pos, history, history_len, limits, &r, NULL, NULL);
        s = g->side_to_move(pos) == engine_side ? r.score : -r.score;
    }
    if (score) *score = s;
    return s <= accept_cp;
}
