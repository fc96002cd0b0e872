/* search_tt.h — the transposition table of engine/search*.c: 64-byte
 * buckets of four 16-byte entries: three depth-preferred slots (the least
 * valuable by depth and age is replaced when the new entry is at least as
 * deep or the old one is from an earlier search) and one always-replace
 * slot; entries age by search generation. Entries are written and read as
 * two 64-bit words, the key stored XOR the data, so a torn write by
 * another thread reads as a miss (lazy SMP without locks; Hyatt and
 * Mann's "lockless hashing"). Private to the search (search_internal.h);
 * static inline: the node functions inline them. */
#ifndef DAMA_SEARCH_TT_H
#define DAMA_SEARCH_TT_H

#include "engine/search_internal.h"

/* TT scores of won/lost positions are stored relative to the node. */
static inline int score_to_tt(int s, int ply) { return s >= SCORE_WIN_MIN ? s + ply : s <= -SCORE_WIN_MIN ? s - ply : s; }
static inline int score_from_tt(int s, int ply) { return s >= SCORE_WIN_MIN ? s - ply : s <= -SCORE_WIN_MIN ? s + ply : s; }

static inline uint64_t tt_pack(int score, int depth, int flag, unsigned gen, const Move *m)
{
    if (depth < -1) depth = -1;
    if (depth > 126) depth = 126;
    uint64_t d = (uint64_t)(uint16_t)(int16_t)score;
    d |= (uint64_t)(uint8_t)(int8_t)depth << 16;
    d |= (uint64_t)(flag & 3) << 24;
    d |= (uint64_t)(gen & 63) << 26;
    if (m) {
        d |= (uint64_t)m->from << 32;
        d |= (uint64_t)m->to << 40;
        d |= (uint64_t)capture_tag(m) << 48;
    }
    return d;
}

static inline void tt_unpack(uint64_t d, TTHit *h)
{
    h->score = (int16_t)(d & 0xFFFF);
    h->depth = (int8_t)((d >> 16) & 0xFF);
    h->flag = (int)((d >> 24) & 3);
    h->from = (uint8_t)(d >> 32);
    h->to = (uint8_t)(d >> 40);
    h->tag = (uint16_t)(d >> 48);
}

static inline bool tt_probe(const Engine *e, uint64_t key, TTHit *h)
{
    TTBucket *b = &e->tt[key & e->tt_mask];
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((c ^ d) == key && ((d >> 24) & 3)) {
            tt_unpack(d, h);
            return true;
        }
    }
    return false;
}

static inline void tt_store(Engine *e, uint64_t key, int score, int depth, int flag, const Move *m)
{
    TTBucket *b = &e->tt[key & e->tt_mask];
    unsigned gen = e->generation & 63;
    int slot = -1;
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((c ^ d) == key) {
            slot = i;
            TTHit old;
            tt_unpack(d, &old);
            /* keep a deeper bound of this search unless the new one is exact */
            if (flag != TT_EXACT && old.depth > depth + 2 && ((d >> 26) & 63) == gen) return;
            if (!m && old.flag) { /* no move of its own: keep the old one */
                uint64_t nd = tt_pack(score, depth, flag, gen, NULL) | (d & 0xFFFFFFFF00000000ULL);
                atomic_store_explicit(&b->e[i].data, nd, memory_order_relaxed);
                atomic_store_explicit(&b->e[i].check, key ^ nd, memory_order_relaxed);
                return;
            }
            break;
        }
    }
    if (slot < 0) {
        /* depth-preferred slots 0..2: the least valuable (shallow, old) */
        int worst = 0, worst_val = 1 << 30;
        for (int i = 0; i < TT_WAYS - 1; i++) {
            uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
            int dep = (int8_t)((d >> 16) & 0xFF), age = (int)((gen - ((d >> 26) & 63)) & 63);
            int val = ((d >> 24) & 3) ? dep - 8 * age : -1000;
            if (val < worst_val) {
                worst_val = val;
                worst = i;
            }
        }
        uint64_t wd = atomic_load_explicit(&b->e[worst].data, memory_order_relaxed);
        bool stale = !((wd >> 24) & 3) || ((wd >> 26) & 63) != gen;
        slot = stale || depth >= (int8_t)((wd >> 16) & 0xFF) ? worst : TT_WAYS - 1; /* else: always-replace */
    }
    uint64_t nd = tt_pack(score, depth, flag, gen, m);
    atomic_store_explicit(&b->e[slot].data, nd, memory_order_relaxed);
    atomic_store_explicit(&b->e[slot].check, key ^ nd, memory_order_relaxed);
}

#endif
