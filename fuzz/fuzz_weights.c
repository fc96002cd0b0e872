/* fuzz_weights.c — the weight-file reader (weights_file_read, libconfig
 * syntax) for every game, from a scratch file. Contract checked: a
 * rejected file has a message; an accepted one gives weights within the
 * reader's bounds that survive a write and a read back unchanged. */
#include "fuzz_common.h"

#include "engine/weights_file.h"
#include "util/atomic_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    game_init_all();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_temp(data, size);
    for (const Game *const *l = game_list(); *l; l++) {
        const Game *g = *l;
        int32_t *w = calloc((size_t)g->weights_len, sizeof *w), *back = calloc((size_t)g->weights_len, sizeof *back);
        if (!w || !back) abort();
        char err[ERR_MAX] = "";
        if (weights_file_read(g, path, w, err) != 0) {
            fuzz_check_err("weights_file_read", err);
        } else {
            if (weights_file_write(g, w, "fuzz", path, &(AtomicOptions){.replace = true}, err) != 0) fuzz_fail("writing accepted weights: %s", err);
            if (weights_file_read(g, path, back, err) != 0) fuzz_fail("written weights rejected: %s", err);
            if (memcmp(w, back, sizeof *w * (size_t)g->weights_len) != 0) fuzz_fail("weights changed in a round trip");
            fuzz_write_temp(data, size); /* the next game reads the input again */
        }
        free(w);
        free(back);
    }
    return 0;
}
