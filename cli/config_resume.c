/* config_resume.c — options back from a stored configuration (contracts
 * in cli/config_resume.h). */
#include "cli/config_resume.h"

#include <stdlib.h>
#include <string.h>

/* The next line of text after l. */
static const char *next_line(const char *l) { return l + strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n'); }

/* The value of line "key = value" (NULL if the line is not key's). */
static const char *config_value(const char *line, const char *key, size_t *len)
{
    size_t k = strlen(key);
    if (strncmp(line, key, k) != 0 || strncmp(line + k, " = ", 3) != 0) return NULL;
    const char *v = line + k + 3, *end = strchr(v, '\n');
    *len = end ? (size_t)(end - v) : strlen(v);
    return v;
}

static bool is_identity(const char *const *not_identity, const char *name)
{
    for (int i = 0; not_identity && not_identity[i]; i++)
        if (strcmp(not_identity[i], name) == 0) return false;
    return true;
}

/* Every identity option: the stored value, or unset when config has none. */
static int take_options(CliArgs *a, const char *config, const char *const *not_identity, const char *owner,
                        char err[ERR_MAX])
{
    for (int i = 0; i < a->opts_len; i++) {
        const char *name = a->opts[i].name;
        if (!is_identity(not_identity, name)) continue;
        const char *v = NULL;
        size_t vlen = 0;
        for (const char *l = config; *l && !v; l = next_line(l)) v = config_value(l, name, &vlen);
        if (a->from_cli[i] && (!v || strlen(a->values[i]) != vlen || strncmp(a->values[i], v, vlen) != 0)) {
            snprintf(err, ERR_MAX, "--resume: --%s %.60s contradicts %s, which has %s%.*s", name, a->values[i], owner,
                     v ? "" : "no --", v ? (int)(vlen < 100 ? vlen : 100) : (int)strlen(name), v ? v : name);
            return -1;
        }
        free(a->values[i]);
        a->values[i] = v ? strndup(v, vlen) : NULL;
        if (v && !a->values[i]) {
            snprintf(err, ERR_MAX, "out of memory");
            return -1;
        }
    }
    return 0;
}

int cli_config_resume(CliArgs *a, const char *config, const char *const *not_identity, const char *positional_key,
                      const char *owner, char ***owned, int *owned_len, char err[ERR_MAX])
{
    size_t pk = strlen(positional_key);
    int words = 0;
    for (const char *l = config; *l; l = next_line(l))
        words += strncmp(l, positional_key, pk) == 0 && strncmp(l + pk, " = ", 3) == 0;
    *owned = calloc((size_t)(words ? words : 1), sizeof **owned);
    *owned_len = 0;
    if (!*owned) {
        snprintf(err, ERR_MAX, "out of memory");
        return -1;
    }
    if (take_options(a, config, not_identity, owner, err) != 0) return -1;
    for (const char *l = config; *l; l = next_line(l)) {
        size_t n = strcspn(l, "\n");
        if (strncmp(l, positional_key, pk) == 0 && strncmp(l + pk, " = ", 3) == 0) {
            if (!((*owned)[(*owned_len)++] = strndup(l + pk + 3, n - pk - 3))) {
                snprintf(err, ERR_MAX, "out of memory");
                return -1;
            }
            continue;
        }
        /* what an option's file made (run_book_identity, run_file_identity:
         * "KEY-content = HASH"), not an option */
        const char *eq = strstr(l, " = ");
        bool known = eq && (size_t)(eq - l) < n && eq - l > 8 && strncmp(eq - 8, "-content", 8) == 0;
        for (int i = 0; i < a->opts_len && !known; i++) {
            size_t k = strlen(a->opts[i].name);
            known = n > k + 3 && strncmp(l, a->opts[i].name, k) == 0 && strncmp(l + k, " = ", 3) == 0;
        }
        if (!known) {
            snprintf(err, ERR_MAX, "--resume: %s was stored with '%.*s', which this dama does not know", owner,
                     (int)(n < 100 ? n : 100), l);
            return -1;
        }
    }
    a->positional = *owned;
    a->positional_len = *owned_len;
    return 0;
}

void cli_config_resume_free(char **owned, int owned_len)
{
    for (int i = 0; owned && i < owned_len; i++) free(owned[i]);
    free(owned);
}
