/* egtb_file.h — the on-disk table format shared by the builder and the
 * prober (private to engine/egtb/). Layout of DIR/GAME-MATERIAL.egtb, all
 * integers little-endian:
 *
 *     EgtbHeader (128 bytes, its own XXH64 in header_hash; magic "DAMAEGTB",
 *     or "DAMAEGTC" in a counted table, DIR/GAME-MATERIAL.egtc)
 *     uint64 offsets[nblocks + 1]     block i is payload[offsets[i], offsets[i+1])
 *     zstd frames, one per block of EGTB_BLOCK value bytes (the last may be short),
 *     each with zstd's content checksum (tables built before 2026-12-05 have
 *     none; they read as before)
 *
 * payload = the offset table and the frames; payload_hash is its XXH64.
 * Files are written as NAME.tmp and renamed when complete (docs/egtb.md).
 */
#ifndef DAMA_EGTB_FILE_H
#define DAMA_EGTB_FILE_H

#include <stdint.h>

#include "engine/egtb/egtb.h"

typedef struct EgtbHeader {
    char magic[8];          /* "DAMAEGTB" */
    uint32_t version;       /* EGTB_VERSION */
    uint32_t header_bytes;  /* sizeof(EgtbHeader) */
    char game[16];          /* Game.name, NUL-padded */
    uint8_t men[2], kings[2];
    uint32_t block;         /* EGTB_BLOCK */
    uint64_t positions;     /* value bytes */
    uint64_t nblocks;
    uint64_t payload_bytes;
    uint64_t payload_hash;  /* XXH64(payload, seed 0) */
    uint64_t wins, draws, losses; /* side to move's view, used indices */
    uint32_t max_dist;
    uint32_t flags;         /* EGTB_FLAG_*; 0 in tables built before 2026-12-07 */
    uint64_t reserved[2];
    uint64_t header_hash;   /* XXH64 of the bytes before this field */
} EgtbHeader;

_Static_assert(sizeof(EgtbHeader) == 128, "header layout");

/* The table's children in a counted material (EgtbIndexer.counted) were
 * taken at the verdict of that material's counted table (a draw there is a
 * draw here), not at their stored value (docs/egtb.md). */
enum { EGTB_FLAG_COUNTED_CHILDREN = 1 };
/* A counted table (or a table with counted children) solved with a side
 * left without a move on a count's last ply lost there, not drawn (the
 * Russian D4, D7 and D8 give way to that win, 2026-12-08): one without it
 * is solved again. */
enum { EGTB_FLAG_BLOCKED_LOST = 2 };

/* Check a header read from a file against what is expected (m, game,
 * positions). Returns 0 or -1 with a message naming the file. */
int egtb_header_check(const EgtbHeader *h, const char *path, const Game *game, EgtbMaterial m,
                      uint64_t positions, uint64_t file_bytes, char err[ERR_MAX]);

/* "DAMAEGTC" for a counted table's path (.egtc), else "DAMAEGTB". */
const char *egtb_file_magic(const char *path);

/* Read and check a file's header only (no mapping). Returns 0, 1 when the
 * file does not exist, or -1 with a message naming the file. */
int egtb_file_header(const char *path, const Game *game, EgtbMaterial m, uint64_t positions, char err[ERR_MAX]);

/* Map a file, check header and (when verify) payload hash. On success
 * *map and *map_len hold the mapping (munmap when done). */
int egtb_file_map(const char *path, const Game *game, EgtbMaterial m, uint64_t positions, bool verify,
                  const unsigned char **map, uint64_t *map_len, char err[ERR_MAX]);

/* Decompress all values of a mapped file into out (positions bytes). */
int egtb_file_unpack(const unsigned char *map, const char *path, unsigned char *out, char err[ERR_MAX]);

/* Key of a material in the 9^4 lookup tables. */
static inline int egtb_material_key(EgtbMaterial m)
{
    return ((m.men[0] * 9 + m.men[1]) * 9 + m.kings[0]) * 9 + m.kings[1];
}
enum { EGTB_KEYS = 9 * 9 * 9 * 9 };

#endif
