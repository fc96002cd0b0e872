/* openings.c — opening books: read from a file, drawn at random, or chosen
 * for a run (contracts in play/openings.h). */
#include "arena/openings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/search.h"
#include "util/file_read.h"
#include "util/rng.h"
#include "util/text.h"

#ifndef DAMA_SOURCE_DIR
#define DAMA_SOURCE_DIR "."
#endif

/* "PATH line N: WHY" with WHY whole (the reason comes last in it): a long
 * path keeps its last bytes, after "...". */
static void line_error(char err[ERR_MAX], const char *path, long lineno, const char *why)
{
    char where[32];
    snprintf(where, sizeof where, " line %ld: ", lineno);
    size_t whylen = strlen(why), plen = strlen(path), wl = strlen(where);
    size_t room = ERR_MAX - 1 > wl + whylen + 3 ? ERR_MAX - 1 - wl - whylen - 3 : 0;
    if (room < 40) room = 40; /* a reason too long to fit whole is cut at its end instead */
    const char *parts[4] = {plen > room ? "..." : "", plen > room ? path + plen - room : path, where, why};
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        size_t l = strlen(parts[i]);
        if (l > ERR_MAX - 1 - n) l = ERR_MAX - 1 - n;
        memcpy(err + n, parts[i], l);
        n += l;
    }
    err[n] = '\0';
}

/* A comment line "# game: NAME" (spaces around NAME allowed, the case of
 * NAME not counted): 1 when it names g, -1 with why when another game, 0
 * when the line is no such line. */
static int game_line(const Game *g, const char *line, char why[ERR_MAX])
{
    const char *p = line + 1 + strspn(line + 1, " \t");
    if (strncmp(p, "game:", 5) != 0) return 0;
    p += 5 + strspn(p + 5, " \t");
    size_t n = strlen(p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
    for (char *c = name; *c; c++) {
        if (*c < 0x21 || *c > 0x7e) { /* never echoed: a comment may hold any byte */
            snprintf(why, ERR_MAX, "a '# game:' line whose name holds a byte that is no letter");
            return -1;
        }
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    }
    if (strcmp(name, g->name) == 0 || game_find(name) == g) return 1;
    snprintf(why, ERR_MAX, "a ballot of %s ('# game: %s'), not of %s", name, name, g->name);
    return -1;
}

/* Why the line (label, position; the position already read into pos) is
 * no ballot to deal: a third field, or a position that is already over.
 * Returns 0, or -1 with why. */
static int ballot_line_check(const Game *g, const char *fen, const Position *pos, char why[ERR_MAX])
{
    const char *tab = strchr(fen, '\t');
    if (tab) {
        snprintf(why, ERR_MAX, "a third field '%.60s%s' after the position (a line is label<TAB>position)", tab + 1,
                 strlen(tab + 1) > 60 ? "..." : "");
        return -1;
    }
    const char *reason = NULL;
    MoveList moves;
    if (game_outcome(g, pos, NULL, 0, &reason, &moves) != OUTCOME_NONE) {
        snprintf(why, ERR_MAX, "the position is already over (%s): a ballot needs a move to play",
                 reason ? reason : "the rules");
        return -1;
    }
    return 0;
}

int openings_read(const Game *g, const char *path, OpeningBook *book, char err[ERR_MAX])
{
    memset(book, 0, sizeof *book);
    FILE *f = file_open_read_as(path, "opening book", err);
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0, len;
    long lineno = 0;
    int rc = 0, items_cap = 0, got;
    while ((got = text_read_line(f, &line, &cap, &len)) != 0) {
        lineno++;
        if (got < 0) { /* a file cut short: its last position may read as another, valid one */
            line_error(err, path, lineno, TEXT_LINE_CUT_MSG);
            rc = -1;
            break;
        }
        char why[ERR_MAX];
        int tag = line[0] == '#' ? game_line(g, line, why) : 0;
        if (tag < 0) {
            line_error(err, path, lineno, why);
            rc = -1;
            break;
        }
        if (line[0] == '#') continue; /* a comment, whatever else it holds */
        /* a byte that is no text is named, never echoed or taken as the
         * line's end (a NUL would cut the line short) */
        char what[TEXT_WHAT_MAX];
        if (text_line_check(line, len, what)) {
            line_error(err, path, lineno, what);
            rc = -1;
            break;
        }
        if (line[0] == '#' || !line[strspn(line, " \t")]) continue;
        char *tab = strchr(line, '\t');
        const char *label = tab ? line : "";
        const char *fen = tab ? tab + 1 : line;
        if (tab) *tab = '\0';
        char *third = tab ? strchr(tab + 1, '\t') : NULL;
        if (third) *third = '\0'; /* the position alone to its parser; a third field is named after */
        Position pos;
        int bad = g->pos_from_fen(&pos, fen, why);
        if (third) *third = '\t';
        if (bad != 0 || ballot_line_check(g, fen, &pos, why) != 0) {
            line_error(err, path, lineno, why);
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
    if (rc == 0 && ferror(f)) {
        snprintf(err, ERR_MAX, "cannot read opening book '%.150s' after line %ld: %s", path, lineno, strerror(errno));
        rc = -1;
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
                int allowed = 0;
                for (int k = 0; k < moves.len; k++)
                    if (!g->move_is_royal || !g->move_is_royal(&pos, &moves.moves[k])) moves.moves[allowed++] = moves.moves[k];
                if (allowed == 0) {
                    ok = false;
                    break;
                }
                const Move *m = &moves.moves[rng_below(&rng, (uint64_t)allowed)];
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

/* Open-addressing set of position keys (0 marks an empty slot). */
static bool key_insert(uint64_t *set, size_t mask, uint64_t key)
{
    key |= 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
        if (set[i] == key) return false;
        if (set[i] == 0) {
            set[i] = key;
            return true;
        }
    }
}

int openings_repeat(const Game *g, OpeningBook *book, int64_t total, int plies, uint64_t seed, char err[ERR_MAX])
{
    if (total <= book->len) return 0;
    if (plies < 1 || total > OPENINGS_REPEAT_MAX || book->len < 1) {
        snprintf(err, ERR_MAX, "repeating the book needs --repeat-plies >= 1 and at most %d pairs", OPENINGS_REPEAT_MAX);
        return -1;
    }
    size_t cap = 1;
    while (cap < 2 * (size_t)total) cap <<= 1;
    uint64_t *keys = calloc(cap, sizeof *keys);
    Opening *items = realloc(book->items, sizeof(Opening) * (size_t)total);
    if (!keys || !items) {
        free(keys);
        if (items) book->items = items;
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    book->items = items;
    int len = book->len;
    Position pos, next;
    for (int i = 0; i < len; i++) {
        if (game_parse_position(g, items[i].fen, &pos, err) != 0) break;
        key_insert(keys, cap - 1, g->hash(&pos));
    }
    MoveList moves;
    int rc = 0;
    for (int64_t k = len; k < total && rc == 0; k++) {
        const Opening *base = &items[k % len];
        Opening *o = &items[k];
        uint64_t rng = rng_derive(seed ^ 0x7265706561742b00ULL, (uint64_t)k);
        bool found = false;
        for (int attempt = 0; attempt < 200 && !found; attempt++) {
            if (game_parse_position(g, base->fen, &pos, err) != 0) break;
            char line[256];
            size_t n = 0;
            bool ok = true;
            for (int p = 0; p < plies && ok; p++) {
                const char *reason;
                if (game_outcome(g, &pos, NULL, 0, &reason, &moves) != OUTCOME_NONE) {
                    ok = false;
                    break;
                }
                int allowed = 0;
                for (int m = 0; m < moves.len; m++)
                    if (!g->move_is_royal || !g->move_is_royal(&pos, &moves.moves[m])) moves.moves[allowed++] = moves.moves[m];
                if (allowed == 0) {
                    ok = false;
                    break;
                }
                const Move *m = &moves.moves[rng_below(&rng, (uint64_t)allowed)];
                char text[MOVE_STR_MAX];
                g->move_to_str(&pos, m, text);
                int w = snprintf(line + n, sizeof line - n, " %s", text);
                if (w > 0 && (size_t)w < sizeof line - n) n += (size_t)w;
                g->make_move(&pos, m, &next);
                pos = next;
            }
            const char *reason;
            if (!ok || game_outcome(g, &pos, NULL, 0, &reason, &moves) != OUTCOME_NONE) continue;
            if (!key_insert(keys, cap - 1, g->hash(&pos))) continue; /* a position already in the book */
            char base_label[31];
            memcpy(base_label, base->label, sizeof base_label - 1); /* items[k] and the base line are distinct */
            base_label[sizeof base_label - 1] = '\0';
            snprintf(o->label, sizeof o->label, "%s +%.31s", base_label, line);
            g->pos_to_fen(&pos, o->fen);
            found = true;
        }
        if (!found) {
            snprintf(err, ERR_MAX, "repeating the book: no new position for pair %lld after 200 draws of %d random "
                     "plies (more --repeat-plies, or fewer --pairs)", (long long)k, plies);
            rc = -1;
        }
    }
    free(keys);
    if (rc == 0) book->len = (int)total;
    return rc;
}

void openings_free(OpeningBook *book)
{
    free(book->items);
    memset(book, 0, sizeof *book);
}

bool openings_own_book(const Game *g, char *path, size_t size)
{
    if (!g->opening_book) return false;
    if (access(g->opening_book, R_OK) == 0) {
        snprintf(path, size, "%s", g->opening_book);
        return true;
    }
    int n = snprintf(path, size, "%s/%s", DAMA_SOURCE_DIR, g->opening_book);
    return n >= 0 && (size_t)n < size && access(path, R_OK) == 0;
}

int openings_for_run(const Game *g, const char *path, int random_plies, int balance_cp, uint64_t seed,
                     OpeningBook *book, char err[ERR_MAX])
{
    if (path && strcmp(path, "random") != 0) return openings_read(g, path, book, err);
    char full[1024];
    if (!path && openings_own_book(g, full, sizeof full)) return openings_read(g, full, book, err);
    if (!path && g->opening_book) {
        /* said, not silent: the game's own book is the documented default */
        fprintf(stderr,
                "dama: warning: %s's opening book %s is in neither the working folder nor %s: "
                "random balanced lines instead (--openings FILE or --openings random to choose)\n",
                g->name, g->opening_book, DAMA_SOURCE_DIR);
    }
    if (random_plies < 0 || random_plies > 40) {
        snprintf(err, ERR_MAX, "--random-plies must be 0..40");
        return -1;
    }
    return openings_random(g, 1024, random_plies, seed, balance_cp, 2000, book, err);
}

int openings_from_source(const Game *g, const OpeningsSource *src, uint64_t seed, OpeningBook *book, char err[ERR_MAX])
{
    return openings_for_run(g, src->path, src->random_plies, src->balance_cp, seed, book, err);
}
