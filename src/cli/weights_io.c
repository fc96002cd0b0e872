/* weights_io.c — resolve a --weights argument. */
#include "cli/weights_io.h"

#include <string.h>

#include "tune/weights_file.h"

int weights_resolve(const Game *g, const char *spec, int32_t *w, char err[ERR_MAX])
{
    if (!spec || strcmp(spec, "default") == 0 || strcmp(spec, "compiled-in") == 0) {
        memcpy(w, g->weights_default, sizeof(int32_t) * (size_t)g->weights_len);
        return 0;
    }
    return weights_file_read(g, spec, w, err);
}
