/* members.h — the weight sets a self-play run plays with ("members"): the
 * base (member 0) and its perturbed copies, how they are made, and the
 * set-up that finds or makes the run and stores its members (selfplay.h).
 *
 * Members differ from the base only outside the pattern tables (terms of
 * more than 64 weights), so each keeps just those weights (small[],
 * n_small of them); a worker puts a member's full vector together before a
 * game. A pairs run of N games then costs N * n_small weights of memory,
 * not N * weights_len. */
#ifndef DAMA_SELFPLAY_MEMBERS_H
#define DAMA_SELFPLAY_MEMBERS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/game.h"
#include "selfplay/selfplay.h"

struct Db;

typedef struct SelfplayMembers {
    const Game *game;
    int64_t len;     /* members: 1 + games (pairs) or the population */
    uint8_t *big;    /* weights_len flags: the weight is in a pattern table */
    int *small;      /* the weights outside the pattern tables, n_small of them */
    int n_small;
    int32_t *values; /* len x n_small: each member's weights outside the tables */
    int64_t *ws_ids; /* len: each member's weight set */
} SelfplayMembers;

/* Room for len members of game g. Returns 0, or -1 out of memory (then
 * *m is freed). */
int selfplay_members_init(SelfplayMembers *m, const Game *g, int64_t len);
void selfplay_members_free(SelfplayMembers *m);

/* Member k's full weights into out (weights_len): the base, member k's
 * own weights over it. Thread-safe (reads only). */
void selfplay_members_full(const SelfplayMembers *m, const int32_t *base, int64_t k, int32_t *out);

/* Make member k of a run from the base: the base itself (k = 0) or a
 * perturbed copy. Population mode: copy k has its own perturbation. Pairs
 * mode: members 2p+1 and 2p+2 are base + delta_p and base - delta_p. Each
 * weight moves by N(0,1) * max(spread * |w|, spread_min) (centi-men),
 * drawn from a stream of (seed, k); the game's scale weight and the
 * pattern tables (big) are not perturbed. out gets weights_len values.
 * Thread-safe. */
void selfplay_member_make(const Game *g, const int32_t *base, const uint8_t *big, int64_t k, bool pairs,
                          uint64_t seed, double spread, double spread_min, int32_t *out);

/* What the set-up decided (SetupMsg.rc of selfplay.c). */
enum {
    SELFPLAY_SETUP_PLAY = 0,     /* play the games not in done[] */
    SELFPLAY_SETUP_FAILED = 1,   /* err says why */
    SELFPLAY_SETUP_NOTHING = -1, /* every game (of the shard) is stored */
    SELFPLAY_SETUP_STOPPED = -2, /* *stop during the set-up (r->end says where) */
    SELFPLAY_SETUP_BUSY = 2,     /* another live process writes the run: err names it */
};

/* The set-up of a run, on the writer (rank 0) only: resolve the base
 * weights (base, weights_len) in db; find the run of o's game, seed and
 * identity (o->config plus a hash of the base's values) and take it for
 * this process, or make it with its base, in one transaction (a run that
 * another live process writes is refused: SELFPLAY_SETUP_BUSY); load
 * its stored members into m and make and store the missing ones (a new
 * run, or a larger games in pairs mode), each as a delta of the base, in
 * transactions of a few hundred members or half a second: *o->stop is
 * polled between two, and what was stored stays for the resume. Then
 * done[0..o->games) marks the games stored, and a resumed run is marked
 * running again. r gets run_id, resumed, members_*, setup_seconds,
 * already, end; o->event the MEMBER events. Returns one of the
 * SELFPLAY_SETUP_* values; a stopped set-up marks the run interrupted. */
int selfplay_setup(struct Db *db, const SelfplayOptions *o, SelfplayMembers *m, int32_t *base, bool *done,
                   SelfplayResult *r, char err[ERR_MAX]);

#endif
