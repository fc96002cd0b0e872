/* play.c — engine-vs-engine games and opening books. */
#include "play/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/search.h"
#include "pdn/pdn.h"
#include "util/rng.h"

int play_record_init(PlayRecord *r)
{
    memset(r, 0, sizeof *r);
    r->positions = malloc(sizeof(Position) * PLAY_PLIES_MAX);
    r->scores = malloc(sizeof(int32_t) * PLAY_PLIES_MAX);
    r->quiet = malloc(sizeof(bool) * PLAY_PLIES_MAX);
    if (!r->positions || !r->scores || !r->quiet) {
        play_record_free(r);
        return -1;
    }
    return 0;
}

void play_record_free(PlayRecord *r)
{
    free(r->positions);
    free(r->scores);
    free(r->quiet);
    free(r->movetext);
    memset(r, 0, sizeof *r);
}

int play_game(const Game *g, Engine *engines[2], const Position *start, const PlaySettings *s, volatile int *stop,
              PlayRecord *r, char err[ERR_MAX])
{
    uint64_t keys[PLAY_PLIES_MAX + 1];
    Position pos = *start;
    PdnMovetext mt;
    pdn_movetext_init(&mt, g->side_to_move(start));
    engine_clear(engines[0]);
    engine_clear(engines[1]);
    r->plies = 0;
    r->nodes = 0;
    r->outcome = OUTCOME_NONE;
    int max_plies = s->max_plies > 0 && s->max_plies < PLAY_PLIES_MAX ? s->max_plies : PLAY_PLIES_MAX;
    MoveList moves;
    for (;;) {
        const char *reason = NULL;
        Outcome o = game_outcome(g, &pos, keys, r->plies, &reason, &moves);
        if (o != OUTCOME_NONE) {
            r->outcome = o;
            r->reason = reason;
            break;
        }
        if (r->plies >= max_plies) {
            r->outcome = OUTCOME_DRAW;
            r->reason = "move-cap";
            break;
        }
        if (stop && *stop) {
            pdn_movetext_free(&mt);
            return 1;
        }
        Color side = g->side_to_move(&pos);
        SearchLimits lim = {.depth = s->depth, .nodes = s->nodes};
        SearchResult res;
        engine_search(engines[side], &pos, keys, r->plies, &lim, &res, NULL, NULL);
        if (!res.has_move) {
            snprintf(err, ERR_MAX, "engine found no move in a position with legal moves");
            pdn_movetext_free(&mt);
            return -1;
        }
        int i = r->plies;
        r->positions[i] = pos;
        r->scores[i] = side == COLOR_WHITE ? res.score : -res.score;
        r->quiet[i] = !g->has_capture(&pos);
        r->nodes += res.nodes;
        char text[MOVE_STR_MAX];
        g->move_to_str(&pos, &res.best, text);
        if (pdn_movetext_append(&mt, text) != 0) {
            snprintf(err, ERR_MAX, "out of memory");
            pdn_movetext_free(&mt);
            return -1;
        }
        keys[i] = g->hash(&pos);
        Position next;
        g->make_move(&pos, &res.best, &next);
        pos = next;
        r->plies++;
    }
    free(r->movetext);
    r->movetext = mt.text; /* ownership moves to the record */
    return 0;
}

int openings_read(const Game *g, const char *path, OpeningBook *book, char err[ERR_MAX])
{
    memset(book, 0, sizeof *book);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, ERR_MAX, "cannot open opening book '%.200s'", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = 0, items_cap = 0;
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || !line[strspn(line, " \t")]) continue;
        char *tab = strchr(line, '\t');
        const char *label = tab ? line : "";
        const char *fen = tab ? tab + 1 : line;
        if (tab) *tab = '\0';
        Position pos;
        char perr[ERR_MAX];
        if (g->pos_from_fen(&pos, fen, perr) != 0) {
            snprintf(err, ERR_MAX, "%.100s line %ld: %.120s", path, lineno, perr);
            rc = -1;
            break;
        }
        if (book->len == items_cap) {
            items_cap = items_cap ? items_cap * 2 : 256;
            Opening *n = realloc(book->items, sizeof(Opening) * (size_t)items_cap);
            if (!n) {
                snprintf(err, ERR_MAX, "out of memory");
                rc = -1;
                break;
            }
            book->items = n;
        }
        Opening *o = &book->items[book->len++];
        snprintf(o->label, sizeof o->label, "%s", *label ? label : fen);
        g->pos_to_fen(&pos, o->fen);
    }
    free(line);
    fclose(f);
    if (rc == 0 && book->len == 0) {
        snprintf(err, ERR_MAX, "opening book '%.200s' has no positions", path);
        rc = -1;
    }
    if (rc != 0) openings_free(book);
    return rc;
}

int openings_random(const Game *g, int count, int plies, uint64_t seed, int balance_cp, uint64_t balance_nodes,
                    OpeningBook *book, char err[ERR_MAX])
{
    memset(book, 0, sizeof *book);
    book->items = calloc((size_t)count, sizeof(Opening));
    Engine *judge = balance_cp > 0 ? engine_new(g, 1) : NULL;
    if (!book->items || (balance_cp > 0 && !judge)) {
        snprintf(err, ERR_MAX, "out of memory");
        engine_free(judge);
        openings_free(book);
        return -1;
    }
    MoveList moves;
    for (int i = 0; i < count; i++) {
        uint64_t rng = rng_derive(seed, (uint64_t)i);
        for (int attempt = 0;; attempt++) {
            Position pos;
            game_parse_position(g, NULL, &pos, err);
            Opening *o = &book->items[i];
            size_t n = 0;
            o->label[0] = '\0';
            bool ok = true;
            for (int p = 0; p < plies && ok; p++) {
                const char *reason;
                if (game_outcome(g, &pos, NULL, 0, &reason, &moves) != OUTCOME_NONE) {
                    ok = false;
                    break;
                }
                /* Random plies leave a royal piece (Shatra's Biy) home. */
                int pool = 0;
                for (int k = 0; k < moves.len; k++)
                    if (!g->move_is_royal || !g->move_is_royal(&pos, &moves.moves[k])) moves.moves[pool++] = moves.moves[k];
                if (pool == 0) {
                    ok = false;
                    break;
                }
                const Move *m = &moves.moves[rng_below(&rng, (uint64_t)pool)];
                char text[MOVE_STR_MAX];
                g->move_to_str(&pos, m, text);
                int w = snprintf(o->label + n, sizeof o->label - n, "%s%s", p ? " " : "", text);
                if (w > 0 && (size_t)w < sizeof o->label - n) n += (size_t)w;
                Position next;
                g->make_move(&pos, m, &next);
                pos = next;
            }
            const char *reason;
            if (ok && game_outcome(g, &pos, NULL, 0, &reason, &moves) == OUTCOME_NONE) {
                bool balanced = true;
                if (judge) {
                    SearchLimits lim = {.nodes = balance_nodes ? balance_nodes : 2000};
                    SearchResult r;
                    engine_clear(judge);
                    engine_search(judge, &pos, NULL, 0, &lim, &r, NULL, NULL);
                    balanced = r.score <= balance_cp && r.score >= -balance_cp;
                }
                if (balanced) {
                    g->pos_to_fen(&pos, o->fen);
                    break;
                }
            }
            if (attempt > 1000) {
                snprintf(err, ERR_MAX, "cannot find %d random plies that keep the game going and balanced", plies);
                engine_free(judge);
                openings_free(book);
                return -1;
            }
        }
        book->len++;
    }
    engine_free(judge);
    return 0;
}

void openings_free(OpeningBook *book)
{
    free(book->items);
    memset(book, 0, sizeof *book);
}
