/* play_msg.c — a played game as bytes (contracts in arena/play_msg.h). */
#include "arena/play_msg.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/schedule.h"

/* "DPR2", job (int64), k, white, black, outcome, plies, fault, fault_side
 * (int32), nodes (uint64), engine_seconds (double), each colour's moves
 * (int32) and wall and CPU seconds (double), each colour's book moves
 * (int32), reason, movetext,
 * detail (uint32 length + bytes), then plies positions (pos_size bytes
 * each), scores (int32) and quiet flags (uint8). Native byte order: the
 * same binary on every rank. */
static const char MAGIC[4] = {'D', 'P', 'R', '3'};

typedef struct Out {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} Out;

static void put(Out *o, const void *src, size_t n)
{
    if (o->oom || n == 0) return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8192;
        while (cap < o->len + n) cap *= 2;
        uint8_t *q = realloc(o->p, cap);
        if (!q) {
            o->oom = true;
            return;
        }
        o->p = q, o->cap = cap;
    }
    memcpy(o->p + o->len, src, n);
    o->len += n;
}

static void put_str(Out *o, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    put(o, &n, sizeof n);
    put(o, s, n);
}

int dist_record_encode(int64_t job, int k, int white, int black, const PlayRecord *rec, uint8_t **out, size_t *size)
{
    Out o = {0};
    int32_t ints[7] = {k, white, black, (int32_t)rec->outcome, rec->plies, (int32_t)rec->fault, (int32_t)rec->fault_side};
    put(&o, MAGIC, sizeof MAGIC);
    put(&o, &job, sizeof job);
    put(&o, ints, sizeof ints);
    put(&o, &rec->nodes, sizeof rec->nodes);
    put(&o, &rec->engine_seconds, sizeof rec->engine_seconds);
    int32_t moves[2] = {rec->moves[0], rec->moves[1]};
    put(&o, moves, sizeof moves);
    put(&o, rec->wall_s, sizeof rec->wall_s);
    put(&o, rec->cpu_s, sizeof rec->cpu_s);
    int32_t book[2] = {rec->book_moves[0], rec->book_moves[1]};
    put(&o, book, sizeof book);
    put_str(&o, rec->reason);
    put_str(&o, rec->movetext);
    put_str(&o, rec->detail);
    size_t n = rec->plies > 0 ? (size_t)rec->plies : 0;
    put(&o, rec->positions, sizeof(Position) * n);
    put(&o, rec->scores, sizeof(int32_t) * n);
    for (size_t i = 0; i < n; i++) {
        uint8_t q = rec->quiet[i];
        put(&o, &q, 1);
    }
    if (o.oom) {
        free(o.p);
        return -1;
    }
    *out = o.p;
    *size = o.len;
    return 0;
}

typedef struct In {
    const uint8_t *p;
    size_t len, at;
    const char *bad; /* what went wrong, at byte `at` */
} In;

static bool take(In *in, void *dst, size_t n, const char *what)
{
    if (in->bad) return false;
    if (in->len - in->at < n) {
        in->bad = what;
        return false;
    }
    if (n) memcpy(dst, in->p + in->at, n);
    in->at += n;
    return true;
}

/* A string of at most max - 1 bytes into dst (NUL-terminated). */
static bool take_str(In *in, char *dst, size_t max, const char *what)
{
    uint32_t n = 0;
    if (!take(in, &n, sizeof n, what)) return false;
    if ((size_t)n >= max) {
        in->bad = what;
        return false;
    }
    if (!take(in, dst, n, what)) return false;
    dst[n] = 0;
    return true;
}

/* Reasons are static strings wherever a record is made, and the callbacks
 * (the game writer, a tournament's tables) keep the pointer: a decoded one
 * is interned here, for the life of the process. At most REASONS_MAX
 * distinct reasons (the rules, faults and adjudications have about 20). */
enum { REASONS_MAX = 128, REASON_LEN = 64 };
static char reasons[REASONS_MAX][REASON_LEN];
static int reasons_len;

static const char *intern_reason(const char *r)
{
    const char *out = NULL;
#pragma omp critical(dist_reasons)
    {
        for (int i = 0; i < reasons_len && !out; i++)
            if (strcmp(reasons[i], r) == 0) out = reasons[i];
        if (!out && reasons_len < REASONS_MAX) {
            snprintf(reasons[reasons_len], REASON_LEN, "%s", r);
            out = reasons[reasons_len++];
        }
    }
    return out;
}

int dist_record_decode(const Game *g, const uint8_t *buf, size_t size, int64_t *job, int *k, int *white, int *black,
                       PlayRecord *rec, char reason[64], char err[ERR_MAX])
{
    (void)g;
    In in = {buf, size, 0, NULL};
    char magic[4];
    int32_t ints[7];
    if (take(&in, magic, sizeof magic, "the header") && memcmp(magic, MAGIC, sizeof MAGIC) != 0) in.bad = "the header";
    take(&in, job, sizeof *job, "the job");
    if (take(&in, ints, sizeof ints, "the counts")) {
        if (ints[3] < OUTCOME_NONE || ints[3] > OUTCOME_DRAW) in.bad = "the outcome";
        else if (ints[4] < 0 || ints[4] > PLAY_PLIES_MAX) in.bad = "the plies";
        else if (ints[5] < PLAYER_OK || ints[5] > PLAYER_STOPPED) in.bad = "the fault";
        else if (ints[6] != COLOR_WHITE && ints[6] != COLOR_BLACK) in.bad = "the fault's side";
        else if (ints[0] < 0 || ints[0] >= SCHEDULE_JOB_GAMES_MAX || ints[1] < 0 || ints[2] < 0) in.bad = "the players";
    }
    take(&in, &rec->nodes, sizeof rec->nodes, "the nodes");
    take(&in, &rec->engine_seconds, sizeof rec->engine_seconds, "the engine time");
    int32_t moves[2] = {0, 0};
    if (take(&in, moves, sizeof moves, "the moves") &&
        (moves[0] < 0 || moves[1] < 0 || moves[0] > PLAY_PLIES_MAX || moves[1] > PLAY_PLIES_MAX))
        in.bad = "the moves";
    rec->moves[0] = moves[0], rec->moves[1] = moves[1];
    take(&in, rec->wall_s, sizeof rec->wall_s, "the wall times");
    take(&in, rec->cpu_s, sizeof rec->cpu_s, "the CPU times");
    int32_t book[2] = {0, 0};
    if (take(&in, book, sizeof book, "the book moves") &&
        (book[0] < 0 || book[1] < 0 || book[0] > moves[0] || book[1] > moves[1]))
        in.bad = "the book moves";
    rec->book_moves[0] = book[0], rec->book_moves[1] = book[1];
    take_str(&in, reason, 64, "the reason");
    uint32_t mlen = 0;
    char *movetext = NULL;
    if (take(&in, &mlen, sizeof mlen, "the movetext") && mlen > in.len - in.at) in.bad = "the movetext";
    if (!in.bad && !(movetext = malloc((size_t)mlen + 1))) {
        snprintf(err, ERR_MAX, "out of memory for a movetext of %u bytes", mlen);
        return -1;
    }
    if (take(&in, movetext, mlen, "the movetext")) movetext[mlen] = 0;
    take_str(&in, rec->detail, sizeof rec->detail, "the detail");
    size_t n = in.bad ? 0 : (size_t)ints[4];
    take(&in, rec->positions, sizeof(Position) * n, "the positions");
    take(&in, rec->scores, sizeof(int32_t) * n, "the scores");
    for (size_t i = 0; i < n && !in.bad; i++) {
        uint8_t q = 0;
        if (take(&in, &q, 1, "the quiet flags")) rec->quiet[i] = q != 0;
    }
    if (!in.bad && in.at != in.len) in.bad = "bytes left over";
    const char *interned = in.bad ? NULL : intern_reason(reason);
    if (!in.bad && !interned) in.bad = "the reason (more distinct reasons than a run can have)";
    if (in.bad) {
        free(movetext);
        snprintf(err, ERR_MAX, "a game message of %zu bytes is malformed at byte %zu (%s)", size, in.at, in.bad);
        return -1;
    }
    *k = ints[0], *white = ints[1], *black = ints[2];
    rec->outcome = (Outcome)ints[3];
    rec->plies = ints[4];
    rec->fault = (PlayerFault)ints[5];
    rec->fault_side = (Color)ints[6];
    rec->reason = interned;
    free(rec->movetext);
    rec->movetext = movetext;
    return 0;
}
