/* dist_reducer.c — the tuner's gather over MPI (dist_reducer.h). */
#include "tuner/dist_reducer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist/dist.h"

static int gather(void *ctx, const double *mine, size_t len, double **all, size_t *all_len, char err[TEXEL_ERR_MAX])
{
    (void)ctx;
    *all = NULL;
    *all_len = 0;
    const int n = dist_size(), me = dist_rank();
    int64_t *lens64 = calloc((size_t)n, sizeof *lens64);
    size_t *lens = calloc((size_t)n, sizeof *lens);
    if (!lens64 || !lens) {
        free(lens64), free(lens);
        snprintf(err, TEXEL_ERR_MAX, "rank %d: out of memory for the gather", me);
        return -1;
    }
    lens64[me] = (int64_t)len;
    int rc = dist_sum_int64(lens64, (size_t)n, err);
    size_t total = 0;
    for (int r = 0; rc == 0 && r < n; r++) total += lens[r] = (size_t)lens64[r];
    double *out = rc == 0 ? malloc((total ? total : 1) * sizeof *out) : NULL;
    if (rc == 0 && !out) {
        /* the others are in the collective: end the job rather than leave them */
        fprintf(stderr, "dama: rank %d: out of memory for %zu gathered doubles\n", me, total);
        dist_abort(1);
    }
    if (rc == 0) rc = dist_allgather_doubles(mine, lens, out, err);
    free(lens64), free(lens);
    if (rc != 0) {
        free(out);
        return -1;
    }
    *all = out;
    *all_len = total;
    return 0;
}

void dist_reducer_init(TexelReducer *red)
{
    *red = (TexelReducer){.rank = dist_rank(), .ranks = dist_size(), .gather = gather, .ctx = NULL};
}
