/* egtb_probe.c — materials, file checks, memory-mapped probing with a
 * per-thread block cache. No OpenMP, SQLite or libconfig here: this part
 * belongs with the engine. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include "engine/egtb/egtb.h"
#include "engine/egtb/egtb_file.h"
#include "engine/search.h"

int egtb_material_compare(EgtbMaterial m)
{
    int w = m.men[0] + m.kings[0], b = m.men[1] + m.kings[1];
    if (w != b) return w > b ? 1 : -1;
    if (m.kings[0] != m.kings[1]) return m.kings[0] > m.kings[1] ? 1 : -1;
    return 0;
}

bool egtb_material_canonical(EgtbMaterial m) { return egtb_material_compare(m) >= 0; }

void egtb_material_name(EgtbMaterial m, char out[32])
{
    snprintf(out, 32, "%dk%dm-%dk%dm", m.kings[0], m.men[0], m.kings[1], m.men[1]);
}

void egtb_file_path(const char *dir, const Game *game, EgtbMaterial m, char *out, size_t size)
{
    char name[32];
    egtb_material_name(m, name);
    snprintf(out, size, "%s/%s-%s.egtb", dir, game->name, name);
}

void egtb_counted_path(const char *dir, const Game *game, EgtbMaterial m, char *out, size_t size)
{
    char name[32];
    egtb_material_name(m, name);
    snprintf(out, size, "%s/%s-%s.egtc", dir, game->name, name);
}

/* The magic of a table file: "DAMAEGTC" for a counted table (.egtc),
 * "DAMAEGTB" for the others, so that neither is read as the other. */
const char *egtb_file_magic(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".egtc") == 0 ? "DAMAEGTC" : "DAMAEGTB";
}

int egtb_materials(int pieces, EgtbMaterial *out, int cap)
{
    int n = 0;
    if (pieces > EGTB_PIECES_MAX) pieces = EGTB_PIECES_MAX;
    for (int total = 2; total <= pieces; total++)
        for (int men = 0; men <= total; men++)
            for (int wm = 0; wm <= men; wm++)
                for (int wk = 0; wk <= total - men; wk++) {
                    int bm = men - wm, bk = total - men - wk;
                    EgtbMaterial m = {{(uint8_t)wm, (uint8_t)bm}, {(uint8_t)wk, (uint8_t)bk}};
                    if (wm + wk == 0 || bm + bk == 0 || !egtb_material_canonical(m)) continue;
                    if (n < cap) out[n] = m;
                    n++;
                }
    return n;
}

int egtb_header_check(const EgtbHeader *h, const char *path, const Game *game, EgtbMaterial m,
                      uint64_t positions, uint64_t file_bytes, char err[ERR_MAX])
{
    if (file_bytes < sizeof *h || memcmp(h->magic, egtb_file_magic(path), 8) != 0) {
        snprintf(err, ERR_MAX, "%s: not a dama endgame table", path);
        return -1;
    }
    if (h->version != EGTB_VERSION) {
        snprintf(err, ERR_MAX, "%s: table version %u, this dama reads version %d (rebuild it)", path,
                 (unsigned)h->version, EGTB_VERSION);
        return -1;
    }
    if (h->header_bytes != sizeof *h) { /* the version's header size is fixed */
        snprintf(err, ERR_MAX, "%s: header of %u bytes, version %d's is %zu (damaged file; rebuild it)", path,
                 (unsigned)h->header_bytes, EGTB_VERSION, sizeof *h);
        return -1;
    }
    if (XXH64(h, offsetof(EgtbHeader, header_hash), 0) != h->header_hash) {
        snprintf(err, ERR_MAX, "%s: header checksum mismatch (damaged file)", path);
        return -1;
    }
    char name[32];
    egtb_material_name(m, name);
    if (strncmp(h->game, game->name, sizeof h->game) != 0 || h->men[0] != m.men[0] || h->men[1] != m.men[1] ||
        h->kings[0] != m.kings[0] || h->kings[1] != m.kings[1]) {
        snprintf(err, ERR_MAX, "%s: holds another game or material than %s %s", path, game->name, name);
        return -1;
    }
    if (h->positions != positions || h->block != EGTB_BLOCK ||
        h->nblocks != (positions + EGTB_BLOCK - 1) / EGTB_BLOCK ||
        h->payload_bytes != file_bytes - sizeof *h || h->payload_bytes < (h->nblocks + 1) * 8) {
        snprintf(err, ERR_MAX, "%s: size fields do not match the file (%llu bytes; damaged or truncated)", path,
                 (unsigned long long)file_bytes);
        return -1;
    }
    return 0;
}

int egtb_file_header(const char *path, const Game *game, EgtbMaterial m, uint64_t positions, char err[ERR_MAX])
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, ERR_MAX, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? 1 : -1;
    }
    struct stat st;
    EgtbHeader h;
    int rc = 0;
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, ERR_MAX, "%s: %s, not an endgame table file", path, S_ISDIR(st.st_mode) ? "a folder" : "not a file");
        rc = -1;
    } else if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof h || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
        snprintf(err, ERR_MAX, "%s: too short to be an endgame table", path);
        rc = -1;
    } else {
        rc = egtb_header_check(&h, path, game, m, positions, (uint64_t)st.st_size, err);
    }
    close(fd);
    return rc;
}

int egtb_file_map(const char *path, const Game *game, EgtbMaterial m, uint64_t positions, bool verify,
                  const unsigned char **map, uint64_t *map_len, char err[ERR_MAX])
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, ERR_MAX, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? 1 : -1;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, ERR_MAX, "%s: %s, not an endgame table file", path, S_ISDIR(st.st_mode) ? "a folder" : "not a file");
        close(fd);
        return -1;
    }
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(EgtbHeader)) {
        snprintf(err, ERR_MAX, "%s: too short to be an endgame table", path);
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        snprintf(err, ERR_MAX, "%s: mmap: %s", path, strerror(errno));
        return -1;
    }
    const EgtbHeader *h = p;
    if (egtb_header_check(h, path, game, m, positions, (uint64_t)st.st_size, err) != 0) {
        munmap(p, (size_t)st.st_size);
        return -1;
    }
    const unsigned char *payload = (const unsigned char *)p + sizeof *h;
    const uint64_t *off = (const uint64_t *)payload;
    bool ok = off[0] == (h->nblocks + 1) * 8 && off[h->nblocks] == h->payload_bytes;
    for (uint64_t i = 0; ok && i < h->nblocks; i++) ok = off[i] < off[i + 1];
    if (!ok) {
        snprintf(err, ERR_MAX, "%s: bad block offset table (damaged file)", path);
        munmap(p, (size_t)st.st_size);
        return -1;
    }
    if (verify && XXH64(payload, h->payload_bytes, 0) != h->payload_hash) {
        snprintf(err, ERR_MAX, "%s: payload checksum mismatch (damaged file)", path);
        munmap(p, (size_t)st.st_size);
        return -1;
    }
    *map = p;
    *map_len = (uint64_t)st.st_size;
    return 0;
}

static int unpack_block(ZSTD_DCtx *dctx, const unsigned char *map, uint64_t block, unsigned char *out)
{
    const EgtbHeader *h = (const EgtbHeader *)map;
    const unsigned char *payload = map + sizeof *h;
    const uint64_t *off = (const uint64_t *)payload;
    uint64_t want = block + 1 < h->nblocks ? EGTB_BLOCK : h->positions - block * EGTB_BLOCK;
    size_t got = dctx ? ZSTD_decompressDCtx(dctx, out, EGTB_BLOCK, payload + off[block], off[block + 1] - off[block])
                      : ZSTD_decompress(out, EGTB_BLOCK, payload + off[block], off[block + 1] - off[block]);
    return (ZSTD_isError(got) || got != want) ? -1 : 0;
}

int egtb_file_unpack(const unsigned char *map, const char *path, unsigned char *out, char err[ERR_MAX])
{
    const EgtbHeader *h = (const EgtbHeader *)map;
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    int rc = 0;
    for (uint64_t b = 0; b < h->nblocks && rc == 0; b++) {
        unsigned char buf[EGTB_BLOCK];
        if (unpack_block(dctx, map, b, buf) != 0) {
            snprintf(err, ERR_MAX, "%s: block %llu does not decompress (damaged file)", path, (unsigned long long)b);
            rc = -1;
            break;
        }
        uint64_t n = b + 1 < h->nblocks ? EGTB_BLOCK : h->positions - b * EGTB_BLOCK;
        memcpy(out + b * EGTB_BLOCK, buf, n);
    }
    ZSTD_freeDCtx(dctx);
    return rc;
}

/* ------------------------------------------------------------------ */

/* A table is mapped when it is first probed, not at open: a process that
 * starts for one move (an outside referee's `dama search` a move) and
 * never reaches a few-piece position pays for no mapping, no page fault
 * and no unmapping of the tables (measured: about 10 ms of CPU a start
 * with the 45 Russian 5-piece tables, docs/egtb.md). */
enum { TABLE_UNMAPPED = 0, TABLE_MAPPED = 1, TABLE_FAILED = 2 };
typedef struct EgtbTable {
    EgtbMaterial m;
    _Atomic(const unsigned char *) map; /* NULL until mapped */
    uint64_t map_len;
    _Atomic int state;                  /* TABLE_* */
    char *path;
    char *error;                        /* why the mapping failed (TABLE_FAILED), without the path */
    _Atomic int damaged;                /* a probe found a block that does not unpack */
} EgtbTable;

/* A counted table (EgtbIndexer.counted): small (4 pieces), so read whole
 * into memory when first probed. */
enum { COUNTED_MAX = 8 };
typedef struct EgtbCounted {
    EgtbMaterial m;
    bool exact;             /* EgtbIndexer.counted's */
    char *path;
    char *error;            /* why it could not be read (TABLE_FAILED), without the path */
    _Atomic(uint8_t *) val; /* NULL until read */
    _Atomic int state;      /* TABLE_UNMAPPED, TABLE_MAPPED (read) or TABLE_FAILED */
} EgtbCounted;

struct Egtb {
    const Game *game;
    const EgtbIndexer *ix;
    int pieces;
    int16_t slot[EGTB_KEYS]; /* material key -> tables index + 1, 0 if absent */
    int ntables;
    EgtbTable *tables;
    pthread_mutex_t *map_lock; /* taken only to map a table the first time */
    int8_t cslot[EGTB_KEYS];   /* material key -> counted index + 1, 0 if none */
    int ncounted;
    EgtbCounted counted[COUNTED_MAX];
};

/* 4-way set-associative: a block goes to one set of 4 slots, the set's
 * slots replaced in turn. */
enum { CACHE_WAYS = 4 };
/* A tag's top bit: the block failed its checksum or did not unpack. It
 * stays in the cache as a miss that costs no second unpacking (the
 * mapping is read-only: the block cannot mend while the table is open). */
#define CACHE_DAMAGED (1ULL << 63)
struct EgtbCache {
    ZSTD_DCtx *dctx;
    uint64_t mask;    /* sets - 1 */
    uint64_t *tag;    /* (table + 1) << 40 | block, | CACHE_DAMAGED; 0 = empty */
    uint8_t *victim;  /* per set: the slot replaced next */
    unsigned char *data;
};

Egtb *egtb_open(const Game *game, const char *dir, bool verify_checksums, char err[ERR_MAX])
{
    const EgtbIndexer *ix = egtb_indexer(game);
    if (!ix) {
        snprintf(err, ERR_MAX, "no endgame database support for %s", game->name);
        return NULL;
    }
    struct stat st; /* a missing folder or a file is said as such, not as a table that cannot be read */
    const char *bad = stat(dir, &st) != 0 ? (errno == ENOENT ? "does not exist" : strerror(errno))
                      : !S_ISDIR(st.st_mode) ? "is not a directory"
                                             : NULL;
    if (bad) {
        snprintf(err, ERR_MAX, "endgame database directory '%s' %s", dir, bad);
        return NULL;
    }
    enum { MAT_CAP = 1024 };
    EgtbMaterial *mats = malloc(sizeof *mats * MAT_CAP);
    Egtb *db = calloc(1, sizeof *db);
    if (db) db->tables = calloc(MAT_CAP, sizeof *db->tables);
    if (db) db->map_lock = malloc(sizeof *db->map_lock);
    if (!mats || !db || !db->tables || !db->map_lock || pthread_mutex_init(db->map_lock, NULL) != 0) {
        free(mats);
        if (db) free(db->tables);
        if (db) free(db->map_lock);
        free(db);
        snprintf(err, ERR_MAX, "out of memory");
        return NULL;
    }
    db->game = game;
    db->ix = ix;
    int n = egtb_materials(EGTB_PIECES_MAX, mats, MAT_CAP);
    if (n > MAT_CAP) n = MAT_CAP;
    int complete = 1; /* every material with <= complete pieces present */
    bool gap[EGTB_PIECES_MAX + 1] = {false};
    for (int i = 0; i < n; i++) {
        char path[4096];
        egtb_file_path(dir, game, mats[i], path, sizeof path);
        EgtbTable *t = &db->tables[db->ntables];
        char e2[ERR_MAX];
        int rc;
        if (verify_checksums) {
            const unsigned char *map = NULL;
            rc = egtb_file_map(path, game, mats[i], ix->size(mats[i]), true, &map, &t->map_len, e2);
            if (rc == 0) {
                atomic_store(&t->map, map);
                atomic_store(&t->state, TABLE_MAPPED);
            }
        } else {
            rc = egtb_file_header(path, game, mats[i], ix->size(mats[i]), e2);
        }
        if (rc == 1) {
            gap[egtb_material_pieces(mats[i])] = true;
            continue;
        }
        if (rc == 0 && !(t->path = strdup(path))) {
            snprintf(e2, ERR_MAX, "out of memory");
            const unsigned char *map = atomic_load(&t->map);
            if (map) munmap((void *)map, (size_t)t->map_len);
            rc = -1;
        }
        if (rc != 0) {
            snprintf(err, ERR_MAX, "%s", e2);
            egtb_close(db);
            free(mats);
            return NULL;
        }
        t->m = mats[i];
        db->ntables++;
        db->slot[egtb_material_key(mats[i])] = (int16_t)db->ntables;
        /* its counted table, when the material has one and it was built
         * (a database built before them has none: the verdict there stays
         * the test of d against rule_plies_left) */
        bool exact = false;
        if (ix->counted && ix->counted(mats[i], &exact) && db->ncounted < COUNTED_MAX) {
            egtb_counted_path(dir, game, mats[i], path, sizeof path);
            int crc = egtb_file_header(path, game, mats[i], ix->size(mats[i]), e2); /* 1: absent */
            EgtbCounted *c = &db->counted[db->ncounted];
            if (crc == 0 && !(c->path = strdup(path))) snprintf(e2, ERR_MAX, "out of memory"), crc = -1;
            if (crc < 0) { /* a damaged or foreign header: an error at open, as a table's */
                snprintf(err, ERR_MAX, "%s", e2);
                egtb_close(db);
                free(mats);
                return NULL;
            }
            if (crc == 0) {
                c->m = mats[i];
                c->exact = exact;
                db->cslot[egtb_material_key(mats[i])] = (int8_t)++db->ncounted;
            }
        }
    }
    free(mats);
    for (int p = 2; p <= EGTB_PIECES_MAX && !gap[p]; p++) complete = p;
    db->pieces = gap[2] ? 0 : complete;
    if (db->ntables == 0) {
        snprintf(err, ERR_MAX, "no %s endgame tables in '%s' (build them with dama egtb build)", game->name, dir);
        egtb_close(db);
        return NULL;
    }
    return db;
}

void egtb_close(Egtb *db)
{
    if (!db) return;
    for (int i = 0; i < db->ntables; i++) {
        const unsigned char *map = atomic_load(&db->tables[i].map);
        if (map) munmap((void *)map, (size_t)db->tables[i].map_len);
        free(db->tables[i].path);
        free(db->tables[i].error);
    }
    for (int i = 0; i < db->ncounted; i++) {
        free(db->counted[i].path);
        free(db->counted[i].error);
        free(atomic_load(&db->counted[i].val));
    }
    pthread_mutex_destroy(db->map_lock);
    free(db->map_lock);
    free(db->tables);
    free(db);
}

int egtb_pieces(const Egtb *db) { return db->pieces; }
const Game *egtb_game(const Egtb *db) { return db->game; }

int egtb_db_materials(const Egtb *db, EgtbMaterial *out, int cap)
{
    for (int i = 0; i < db->ntables && i < cap; i++) out[i] = db->tables[i].m;
    return db->ntables;
}
const EgtbIndexer *egtb_db_indexer(const Egtb *db) { return db->ix; }

/* The mapping of table t, made on first use (any thread; one maps, the
 * others wait for it). NULL when the file cannot be mapped or its block
 * offsets are damaged: the table's positions then read as unknown, as a
 * damaged block's do. */
static const unsigned char *table_map(const Egtb *db, EgtbTable *t)
{
    const unsigned char *map = atomic_load_explicit(&t->map, memory_order_acquire);
    if (map || atomic_load_explicit(&t->state, memory_order_acquire) == TABLE_FAILED) return map;
    pthread_mutex_lock(db->map_lock);
    map = atomic_load_explicit(&t->map, memory_order_acquire);
    if (!map && atomic_load(&t->state) == TABLE_UNMAPPED) {
        char err[ERR_MAX];
        uint64_t len = 0;
        if (egtb_file_map(t->path, db->game, t->m, db->ix->size(t->m), false, &map, &len, err) == 0) {
            t->map_len = len;
            atomic_store_explicit(&t->map, map, memory_order_release);
            atomic_store(&t->state, TABLE_MAPPED);
        } else {
            map = NULL;
            size_t plen = strlen(t->path);
            const char *why = strncmp(err, t->path, plen) == 0 && err[plen] == ':' ? err + plen + 2 : err;
            t->error = strdup(why); /* NULL when out of memory: said as "cannot be mapped" */
            atomic_store_explicit(&t->state, TABLE_FAILED, memory_order_release);
        }
    }
    pthread_mutex_unlock(db->map_lock);
    return map;
}

EgtbCache *egtb_cache_new(int blocks)
{
    uint64_t n = 1;
    while ((int64_t)(n * CACHE_WAYS) < blocks) n *= 2;
    EgtbCache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->mask = n - 1;
    c->tag = calloc(n * CACHE_WAYS, sizeof *c->tag);
    c->victim = calloc(n, 1);
    c->data = malloc(n * CACHE_WAYS * EGTB_BLOCK);
    c->dctx = ZSTD_createDCtx();
    if (!c->tag || !c->victim || !c->data || !c->dctx) {
        egtb_cache_free(c);
        return NULL;
    }
    return c;
}

void egtb_cache_free(EgtbCache *c)
{
    if (!c) return;
    ZSTD_freeDCtx(c->dctx);
    free(c->tag);
    free(c->victim);
    free(c->data);
    free(c);
}

bool egtb_probe(const Egtb *db, EgtbCache *cache, const Position *pos, uint8_t *value)
{
    const EgtbIndexer *ix = db->ix;
    EgtbMaterial m = ix->material(pos);
    if (egtb_material_pieces(m) > EGTB_PIECES_MAX) return false;
    if (m.men[0] + m.kings[0] == 0 || m.men[1] + m.kings[1] == 0) return false;
    Position mirrored;
    if (!egtb_material_canonical(m)) {
        db->game->pos_mirror(pos, &mirrored);
        pos = &mirrored;
        m = egtb_material_mirror(m);
    }
    int slot = db->slot[egtb_material_key(m)];
    if (!slot) return false;
    uint64_t idx;
    if (!ix->index(pos, m, &idx)) return false;
    uint64_t block = idx / EGTB_BLOCK;
    const unsigned char *map = table_map(db, &db->tables[slot - 1]);
    if (!map) return false;
    EgtbTable *t = &db->tables[slot - 1];
    if (!cache) {
        unsigned char buf[EGTB_BLOCK];
        if (unpack_block(NULL, map, block, buf) != 0) {
            atomic_store_explicit(&t->damaged, 1, memory_order_relaxed);
            return false;
        }
        *value = buf[idx % EGTB_BLOCK];
        return true;
    }
    uint64_t tag = ((uint64_t)slot << 40) | block;
    uint64_t set = ((tag * 0x9E3779B97F4A7C15ULL) >> 32) & cache->mask;
    uint64_t *tags = cache->tag + set * CACHE_WAYS;
    int way = -1;
    for (int w = 0; w < CACHE_WAYS; w++) {
        if (tags[w] == tag) way = w;
        if (tags[w] == (tag | CACHE_DAMAGED)) return false; /* known damaged: not unpacked again */
    }
    if (way < 0) {
        way = cache->victim[set];
        cache->victim[set] = (uint8_t)((way + 1) % CACHE_WAYS);
        unsigned char *fill = cache->data + (set * CACHE_WAYS + (uint64_t)way) * EGTB_BLOCK;
        if (unpack_block(cache->dctx, map, block, fill) != 0) {
            tags[way] = tag | CACHE_DAMAGED;
            atomic_store_explicit(&t->damaged, 1, memory_order_relaxed);
            return false;
        }
        tags[way] = tag;
    }
    unsigned char *data = cache->data + (set * CACHE_WAYS + (uint64_t)way) * EGTB_BLOCK;
    *value = data[idx % EGTB_BLOCK];
    return true;
}

EgtbMaterial egtb_table_material(const Egtb *db, const Position *pos)
{
    EgtbMaterial m = db->ix->material(pos);
    return egtb_material_canonical(m) ? m : egtb_material_mirror(m);
}

bool egtb_table_intact(const Egtb *db, const Position *pos, EgtbMaterial *table, char why[ERR_MAX])
{
    EgtbMaterial m = egtb_table_material(db, pos);
    *table = m;
    if (egtb_material_pieces(m) > EGTB_PIECES_MAX || m.men[0] + m.kings[0] == 0 || m.men[1] + m.kings[1] == 0)
        return true;
    int slot = db->slot[egtb_material_key(m)];
    if (!slot) return true;
    EgtbTable *t = &db->tables[slot - 1];
    const unsigned char *map = table_map(db, t);
    if (!map) {
        snprintf(why, ERR_MAX, "%s", t->error ? t->error : "cannot be mapped (out of memory)");
        return false;
    }
    const EgtbHeader *h = (const EgtbHeader *)map;
    if (XXH64(map + sizeof *h, h->payload_bytes, 0) == h->payload_hash) return true;
    snprintf(why, ERR_MAX, "payload checksum mismatch (damaged file; the dama egtb build that made it rebuilds it)");
    return false;
}

/* The values of counted table c, read and checked on first use (any
 * thread; one reads, the others wait). NULL when it cannot be read: its
 * positions then get the verdict of d against rule_plies_left. */
static const uint8_t *counted_values(const Egtb *db, EgtbCounted *c)
{
    uint8_t *val = atomic_load_explicit(&c->val, memory_order_acquire);
    if (val || atomic_load_explicit(&c->state, memory_order_acquire) == TABLE_FAILED) return val;
    pthread_mutex_lock(db->map_lock);
    val = atomic_load_explicit(&c->val, memory_order_acquire);
    if (!val && atomic_load(&c->state) == TABLE_UNMAPPED) {
        char err[ERR_MAX];
        uint64_t n = db->ix->size(c->m), len = 0;
        const unsigned char *map = NULL;
        val = malloc(n);
        snprintf(err, ERR_MAX, "out of memory");
        if (val && egtb_file_map(c->path, db->game, c->m, n, true, &map, &len, err) == 0) {
            int rc = egtb_file_unpack(map, c->path, val, err);
            munmap((void *)map, (size_t)len);
            if (rc != 0) free(val), val = NULL;
        } else {
            free(val), val = NULL;
        }
        if (!val) {
            size_t plen = strlen(c->path);
            c->error = strdup(strncmp(err, c->path, plen) == 0 && err[plen] == ':' ? err + plen + 2 : err);
        }
        if (val) atomic_store_explicit(&c->val, val, memory_order_release);
        atomic_store_explicit(&c->state, val ? TABLE_MAPPED : TABLE_FAILED, memory_order_release);
    }
    pthread_mutex_unlock(db->map_lock);
    return val;
}

int egtb_probe_counted(const Egtb *db, const Position *pos, uint8_t *cv, bool *exact)
{
    if (!db->ncounted) return 0;
    const EgtbIndexer *ix = db->ix;
    EgtbMaterial m = ix->material(pos);
    if (egtb_material_pieces(m) > EGTB_PIECES_MAX) return 0;
    Position mirrored;
    if (!egtb_material_canonical(m)) {
        db->game->pos_mirror(pos, &mirrored);
        pos = &mirrored;
        m = egtb_material_mirror(m);
    }
    int slot = db->cslot[egtb_material_key(m)];
    if (!slot) return 0;
    EgtbCounted *c = (EgtbCounted *)&db->counted[slot - 1];
    const uint8_t *val = counted_values(db, c);
    uint64_t idx;
    if (!val || !ix->index(pos, m, &idx) || idx >= ix->size(m)) return -1;
    *cv = val[idx];
    if (exact) *exact = c->exact;
    return 1;
}

int egtb_damage(const Egtb *db, char path[4096], char why[ERR_MAX])
{
    int n = 0;
    for (int i = 0; i < db->ntables; i++) {
        EgtbTable *t = &db->tables[i];
        bool failed = atomic_load_explicit(&t->state, memory_order_acquire) == TABLE_FAILED;
        if (!failed && !atomic_load_explicit(&t->damaged, memory_order_relaxed)) continue;
        if (n++ == 0) {
            snprintf(path, 4096, "%s", t->path);
            snprintf(why, ERR_MAX, "%s", !failed ? "a block does not decompress (damaged file)"
                                         : t->error ? t->error : "cannot be mapped (out of memory)");
        }
    }
    for (int i = 0; i < db->ncounted; i++) {
        const EgtbCounted *c = &db->counted[i];
        if (atomic_load_explicit(&c->state, memory_order_acquire) != TABLE_FAILED) continue;
        if (n++ == 0) {
            snprintf(path, 4096, "%s", c->path);
            snprintf(why, ERR_MAX, "%s", c->error ? c->error : "cannot be read");
        }
    }
    return n;
}

bool egtb_counted_intact(const Egtb *db, const Position *pos, char path[4096], char why[ERR_MAX])
{
    EgtbMaterial m = egtb_table_material(db, pos);
    if (egtb_material_pieces(m) > EGTB_PIECES_MAX) return true;
    int slot = db->cslot[egtb_material_key(m)];
    if (!slot) return true;
    EgtbCounted *c = (EgtbCounted *)&db->counted[slot - 1];
    if (counted_values(db, c)) return true;
    snprintf(path, 4096, "%s", c->path);
    snprintf(why, ERR_MAX, "%s", c->error ? c->error : "cannot be read");
    return false;
}

EgtbVerdict egtb_verdict(const Egtb *db, const Position *pos, uint8_t value)
{
    if (egtb_is_draw(value)) return EGTB_DRAW;
    uint8_t cv;
    bool exact;
    int found = egtb_probe_counted(db, pos, &cv, &exact);
    if (found < 0) return EGTB_UNKNOWN; /* its counted table is damaged: the position reads as outside */
    if (found > 0) {
        EgtbVerdict r = egtb_counted_verdict(cv, db->ix->count(pos));
        return r == EGTB_DRAW && !exact ? EGTB_UNKNOWN : r;
    }
    int left = db->ix->rule_plies_left ? db->ix->rule_plies_left(pos) : INT32_MAX;
    if (egtb_dist(value) >= left) return EGTB_UNKNOWN;
    return egtb_is_win(value) ? EGTB_WIN : EGTB_LOSS;
}

EgtbVerdict egtb_probe_verdict(const Egtb *db, EgtbCache *cache, const Position *pos, int max_pieces, int *dist)
{
    EgtbMaterial m = db->ix->material(pos);
    int limit = max_pieces > 0 ? max_pieces : EGTB_PIECES_MAX;
    if (egtb_material_pieces(m) > limit) return EGTB_UNKNOWN;
    uint8_t v;
    if (!egtb_probe(db, cache, pos, &v)) return EGTB_UNKNOWN;
    EgtbVerdict r = egtb_verdict(db, pos, v);
    *dist = r == EGTB_DRAW || r == EGTB_UNKNOWN ? 0 : egtb_dist(v);
    return r;
}

EgtbProber *egtb_prober_new(const Egtb *db, int max_pieces, int cache_blocks)
{
    EgtbProber *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->db = db;
    p->max_pieces = max_pieces;
    p->cache = egtb_cache_new(cache_blocks);
    if (!p->cache) {
        free(p);
        return NULL;
    }
    return p;
}

void egtb_prober_free(EgtbProber *p)
{
    if (!p) return;
    egtb_cache_free(p->cache);
    free(p);
}

bool egtb_engine_probe(void *ctx, const Position *pos, int *score)
{
    EgtbProber *p = ctx;
    int dist;
    EgtbVerdict v = egtb_probe_verdict(p->db, p->cache, pos, p->max_pieces, &dist);
    p->probes++;
    if (v == EGTB_UNKNOWN) return false;
    p->hits++;
    *score = v == EGTB_DRAW ? 0 : v == EGTB_WIN ? SCORE_WIN - dist : -(SCORE_WIN - dist);
    return true;
}

Outcome egtb_adjudicate(void *ctx, const Position *pos, const char **reason)
{
    EgtbProber *p = ctx;
    int dist;
    EgtbVerdict v = egtb_probe_verdict(p->db, p->cache, pos, p->max_pieces, &dist);
    if (v == EGTB_UNKNOWN) return OUTCOME_NONE;
    *reason = "egtb";
    if (v == EGTB_DRAW) return OUTCOME_DRAW;
    bool white = p->db->game->side_to_move(pos) == COLOR_WHITE;
    return (v == EGTB_WIN) == white ? OUTCOME_WHITE_WINS : OUTCOME_BLACK_WINS;
}
