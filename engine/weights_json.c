/* weights_json.c — weight sets as JSON (cJSON, Debian libcjson-dev). */
#include "engine/weights_json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"
#include "engine/weights_id.h"

static bool add_str(cJSON *o, const char *key, const char *v)
{
    return v ? cJSON_AddStringToObject(o, key, v) != NULL : cJSON_AddNullToObject(o, key) != NULL;
}

static bool add_int(cJSON *o, const char *key, int64_t v) { return cJSON_AddNumberToObject(o, key, (double)v) != NULL; }

/* Reals with a fixed number of digits, so that repeat exports are
 * identical; null when not finite (an Elo of a match won or lost 100%). */
static bool add_real(cJSON *o, const char *key, double v, int digits)
{
    if (!isfinite(v)) return cJSON_AddNullToObject(o, key) != NULL;
    char text[64];
    snprintf(text, sizeof text, "%.*f", digits, v);
    return cJSON_AddRawToObject(o, key, text) != NULL;
}

static cJSON *provenance(const WeightsProvenance *p)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    bool ok = add_str(o, "lineage", p ? p->lineage : NULL) && add_str(o, "database", p ? p->database : NULL);
    if (ok && p && p->weight_set_id) {
        cJSON *w = cJSON_AddObjectToObject(o, "weight_set");
        ok = w && add_int(w, "id", p->weight_set_id) && add_str(w, "name", p->name) && add_str(w, "how", p->how) &&
             add_str(w, "created", p->created) &&
             (p->parent_id ? add_int(w, "parent_id", p->parent_id) : cJSON_AddNullToObject(w, "parent_id") != NULL);
    } else if (ok) ok = cJSON_AddNullToObject(o, "weight_set") != NULL;
    if (ok && p && p->run_id) {
        cJSON *r = cJSON_AddObjectToObject(o, "run");
        ok = r && add_int(r, "id", p->run_id) && add_str(r, "kind", p->run_kind) && add_str(r, "created", p->run_created) &&
             add_str(r, "status", p->run_status);
    } else if (ok) ok = cJSON_AddNullToObject(o, "run") != NULL;
    if (ok && p && p->tuning_run_id) {
        cJSON *t = cJSON_AddObjectToObject(o, "tuning");
        ok = t && add_int(t, "id", p->tuning_run_id) && add_real(t, "k", p->k, 6) && add_real(t, "train_loss", p->train_loss, 8) &&
             add_real(t, "valid_loss", p->valid_loss, 8) && add_int(t, "positions_train", p->positions_train) &&
             add_int(t, "positions_valid", p->positions_valid) && add_str(t, "data", p->tuning_data);
    } else if (ok) ok = cJSON_AddNullToObject(o, "tuning") != NULL;
    if (ok && p && p->match_id) {
        cJSON *m = cJSON_AddObjectToObject(o, "match");
        ok = m && add_int(m, "id", p->match_id) && add_int(m, "opponent_weight_set", p->match_opponent) &&
             add_int(m, "games", p->games) && add_int(m, "wins", p->wins) && add_int(m, "draws", p->draws) &&
             add_int(m, "losses", p->losses) && add_real(m, "elo", p->elo, 1) && add_real(m, "elo_lo", p->elo_lo, 1) &&
             add_real(m, "elo_hi", p->elo_hi, 1) && add_real(m, "llr", p->llr, 2);
    } else if (ok) ok = cJSON_AddNullToObject(o, "match") != NULL;
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* cJSON_Print indents with tabs and puts one after each colon; two spaces
 * (one after a colon) read better in a diff. */
static char *retab(char *text)
{
    if (!text) return NULL;
    size_t tabs = 0, len = strlen(text);
    for (size_t i = 0; i < len; i++) tabs += text[i] == '\t';
    char *out = malloc(len + tabs + 2);
    if (!out) {
        free(text);
        return NULL;
    }
    size_t j = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\t' && i > 0 && text[i - 1] == ':') out[j++] = ' ';
        else if (text[i] == '\t') {
            out[j++] = ' ';
            out[j++] = ' ';
        } else out[j++] = text[i];
    }
    out[j++] = '\n';
    out[j] = '\0';
    free(text);
    return out;
}

char *weights_json_format(const Game *g, const int32_t *w, const WeightsProvenance *prov)
{
    char layout[WEIGHTS_ID_MAX], hash[WEIGHTS_ID_MAX];
    weights_layout_text(g, layout);
    weights_hash_text(g, w, hash);
    cJSON *root = cJSON_CreateObject();
    bool ok = root && add_str(root, "format", "dama-weights") && add_int(root, "format_version", WEIGHTS_JSON_FORMAT_VERSION) &&
              add_str(root, "game", g->name) && add_str(root, "title", g->title) && add_str(root, "layout_version", layout) &&
              add_int(root, "weights_len", g->weights_len) && add_str(root, "hash", hash);
    cJSON *terms = ok ? cJSON_AddArrayToObject(root, "terms") : NULL;
    ok = terms != NULL;
    for (int i = 0; ok && i < g->terms_len; i++) {
        const EvalTerm *t = &g->terms[i];
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(terms, o);
        ok = ok && add_str(o, "name", t->name) && add_int(o, "offset", t->offset) && add_int(o, "count", t->count) &&
             add_str(o, "doc", t->doc);
        cJSON *values = ok ? cJSON_AddArrayToObject(o, "values") : NULL;
        ok = values != NULL;
        for (int j = 0; ok && j < t->count; j++) {
            cJSON *v = cJSON_CreateNumber(w[t->offset + j]);
            ok = v && cJSON_AddItemToArray(values, v);
        }
    }
    cJSON *p = ok ? provenance(prov) : NULL;
    ok = p && cJSON_AddItemToObject(root, "provenance", p);
    char *text = ok ? retab(cJSON_Print(root)) : NULL;
    cJSON_Delete(root);
    return text;
}

static const char *type_name(const cJSON *v)
{
    return !v ? "missing" : cJSON_IsNumber(v) ? "a number" : cJSON_IsString(v) ? "a string" : cJSON_IsArray(v) ? "an array"
           : cJSON_IsObject(v) ? "an object" : cJSON_IsBool(v) ? "a boolean" : "null";
}

/* The first key of object o that stands in it twice, or NULL (a JSON
 * reader keeps one of the two, so the other would be ignored unseen). */
static const char *duplicate_key(const cJSON *o)
{
    for (const cJSON *a = o ? o->child : NULL; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (a->string && b->string && strcmp(a->string, b->string) == 0) return a->string;
    return NULL;
}

/* The first key of object o that is not in known (NULL-terminated), or
 * NULL: a misspelt "hahs" would skip the hash check silently. */
static const char *unknown_key(const cJSON *o, const char *const *known)
{
    for (const cJSON *a = o ? o->child : NULL; a; a = a->next) {
        bool found = false;
        for (int k = 0; known[k] && !found; k++) found = a->string && strcmp(a->string, known[k]) == 0;
        if (!found) return a->string ? a->string : "";
    }
    return NULL;
}

/* The keys weights_json_format writes, at the top level and in a term. */
static const char *const TOP_KEYS[] = {"format", "format_version", "game", "title", "layout_version", "weights_len",
                                       "hash", "terms", "provenance", NULL};
static const char *const TERM_KEYS[] = {"name", "offset", "count", "doc", "values", NULL};

/* keys (NULL-terminated) as "a, b, c" in buf. */
static const char *key_list(const char *const *keys, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; keys[k] && n < size; k++) n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? ", " : "", keys[k]);
    return buf;
}

static bool is_int_in(const cJSON *v, double lo, double hi)
{
    return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi && floor(v->valuedouble) == v->valuedouble;
}

/* The numbers of text (outside its strings) against RFC 8259's grammar,
 * section 6: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)? — cJSON
 * reads "0100", "1.", ".5" or "+1" as numbers, which no strict JSON reader
 * does; and no string escapes a NUL. Returns 0, or -1 with err naming the
 * line and the number. */
static int numbers_check(const char *text, char err[ERR_MAX])
{
    long line = 1;
    bool in_string = false;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') line++;
        if (in_string) {
            /* a NUL escaped in a string: cJSON's C string ends there ("KING\u0000X" read as KING) */
            if (*p == '\\' && p[1] == 'u' && strncmp(p + 2, "0000", 4) == 0) {
                snprintf(err, ERR_MAX, "weights JSON: line %ld: a string holds \\u0000 (a NUL byte), which no name or "
                                       "text of a weight set has", line);
                return -1;
            }
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') in_string = false;
            continue;
        }
        if (*p == '"') {
            in_string = true;
            continue;
        }
        if (!(*p == '-' || *p == '+' || *p == '.' || (*p >= '0' && *p <= '9'))) continue;
        size_t len = strspn(p, "0123456789+-.eE");
        const char *q = p;
        bool ok = true;
        if (*q == '-') q++;
        if (*q == '0') q++;
        else if (*q >= '1' && *q <= '9') q += strspn(q, "0123456789");
        else ok = false;
        if (ok && *q == '.') {
            size_t d = strspn(q + 1, "0123456789");
            ok = d > 0;
            q += 1 + d;
        }
        if (ok && (*q == 'e' || *q == 'E')) {
            q++;
            if (*q == '+' || *q == '-') q++;
            size_t d = strspn(q, "0123456789");
            ok = d > 0;
            q += d;
        }
        if (!ok || q != p + len) {
            snprintf(err, ERR_MAX, "weights JSON: line %ld: '%.*s' is not a JSON number (RFC 8259: no leading zero, "
                     "no '+', digits on both sides of a '.')", line, (int)(len < 30 ? len : 30), p);
            return -1;
        }
        p += len - 1;
    }
    return 0;
}

int weights_json_parse(const Game *g, const char *text, int32_t *weights, char err[ERR_MAX])
{
    if (text && numbers_check(text, err) != 0) return -1;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text ? text : "", &end, true);
    if (!root) {
        size_t at = end && text ? (size_t)(end - text) : 0;
        long line = 1;
        for (size_t i = 0; text && i < at; i++) line += text[i] == '\n';
        snprintf(err, ERR_MAX, "weights JSON: syntax error at line %ld (byte %zu)", line, at);
        return -1;
    }
    int rc = -1;
    EVAL_AUTO_FREE int32_t *w = eval_weights_new(g);
    bool *seen = calloc((size_t)(g->weights_len > 0 ? g->weights_len : 1), sizeof *seen);
    char layout[WEIGHTS_ID_MAX], hash[WEIGHTS_ID_MAX];
    const cJSON *v;
    if (!w || !seen) {
        snprintf(err, ERR_MAX, "weights JSON: out of memory");
        goto out;
    }
    if (!cJSON_IsObject(root)) {
        snprintf(err, ERR_MAX, "weights JSON: the top level is %s, not an object", type_name(root));
        goto out;
    }
    const char *twice = duplicate_key(root);
    if (twice) {
        snprintf(err, ERR_MAX, "weights JSON: the key \"%.60s\" appears twice at the top level", twice);
        goto out;
    }
    const char *odd = unknown_key(root, TOP_KEYS);
    if (odd) {
        char known[200];
        snprintf(err, ERR_MAX, "weights JSON: unknown key \"%.60s\" at the top level (known: %s)", odd,
                 key_list(TOP_KEYS, known, sizeof known));
        goto out;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(v) || strcmp(v->valuestring, "dama-weights") != 0) {
        snprintf(err, ERR_MAX, "weights JSON: \"format\" is not \"dama-weights\" (not a dama weights export)");
        goto out;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "format_version");
    if (!v) {
        snprintf(err, ERR_MAX, "weights JSON: no \"format_version\" (a dama weights export has one, 1..%d)",
                 WEIGHTS_JSON_FORMAT_VERSION);
        goto out;
    }
    if (!is_int_in(v, 1, WEIGHTS_JSON_FORMAT_VERSION)) {
        /* a larger integer: a newer dama's; anything else: not one of dama's */
        bool newer = cJSON_IsNumber(v) && v->valuedouble > WEIGHTS_JSON_FORMAT_VERSION && v->valuedouble < 1e9 &&
                     v->valuedouble == (double)(int64_t)v->valuedouble; /* cast only in range */
        snprintf(err, ERR_MAX, "weights JSON: \"format_version\" is not 1..%d%s", WEIGHTS_JSON_FORMAT_VERSION,
                 newer ? " (written by a newer dama?)" : "");
        goto out;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "game");
    if (!cJSON_IsString(v)) {
        snprintf(err, ERR_MAX, "weights JSON: \"game\" is %s, not a string", type_name(v));
        goto out;
    }
    if (strcmp(v->valuestring, g->name) != 0) {
        snprintf(err, ERR_MAX, "weights JSON is for game '%.60s', not '%s'", v->valuestring, g->name);
        goto out;
    }
    weights_layout_text(g, layout);
    v = cJSON_GetObjectItemCaseSensitive(root, "layout_version");
    if (!cJSON_IsString(v)) {
        snprintf(err, ERR_MAX, "weights JSON: \"layout_version\" is %s, not a string", type_name(v));
        goto out;
    }
    if (strcmp(v->valuestring, layout) != 0) {
        snprintf(err, ERR_MAX,
                 "weights JSON has evaluation layout version %.40s, this engine's %s layout is %s (its terms changed: "
                 "export the weights again with this dama)",
                 v->valuestring, g->name, layout);
        goto out;
    }
    /* what the file says of itself, where it says it, is this engine's: never read past unchecked */
    v = cJSON_GetObjectItemCaseSensitive(root, "weights_len");
    if (v && !is_int_in(v, g->weights_len, g->weights_len)) {
        snprintf(err, ERR_MAX, "weights JSON: \"weights_len\" is %s, not %d (the %s layout's)",
                 cJSON_IsNumber(v) ? "another number" : type_name(v), g->weights_len, g->name);
        goto out;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "title");
    if (v && !cJSON_IsString(v)) {
        snprintf(err, ERR_MAX, "weights JSON: \"title\" is %s, not a string", type_name(v));
        goto out;
    }
    const cJSON *terms = cJSON_GetObjectItemCaseSensitive(root, "terms");
    if (!cJSON_IsArray(terms)) {
        snprintf(err, ERR_MAX, "weights JSON: \"terms\" is %s, not an array", type_name(terms));
        goto out;
    }
    int ti = 0;
    const cJSON *term;
    cJSON_ArrayForEach(term, terms)
    {
        ti++;
        if ((twice = duplicate_key(term))) {
            snprintf(err, ERR_MAX, "weights JSON: term %d has the key \"%.60s\" twice", ti, twice);
            goto out;
        }
        if ((odd = unknown_key(term, TERM_KEYS))) {
            char known[200];
            snprintf(err, ERR_MAX, "weights JSON: term %d has an unknown key \"%.60s\" (known: %s)", ti, odd,
                     key_list(TERM_KEYS, known, sizeof known));
            goto out;
        }
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(term, "name");
        if (!cJSON_IsString(name)) {
            snprintf(err, ERR_MAX, "weights JSON: term %d has no \"name\" string", ti);
            goto out;
        }
        const EvalTerm *t = NULL;
        for (int i = 0; i < g->terms_len; i++)
            if (strcmp(g->terms[i].name, name->valuestring) == 0) t = &g->terms[i];
        if (!t) {
            snprintf(err, ERR_MAX, "weights JSON: unknown term '%.60s' for %s", name->valuestring, g->name);
            goto out;
        }
        if (seen[t->offset]) {
            snprintf(err, ERR_MAX, "weights JSON: term %s appears twice", t->name);
            goto out;
        }
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(term, "offset");
        const cJSON *cnt = cJSON_GetObjectItemCaseSensitive(term, "count");
        const cJSON *doc = cJSON_GetObjectItemCaseSensitive(term, "doc");
        if (at && !is_int_in(at, t->offset, t->offset)) {
            snprintf(err, ERR_MAX, "weights JSON: term %s: \"offset\" is %s, this engine's is %d", t->name,
                     cJSON_IsNumber(at) ? "another number" : type_name(at), t->offset);
            goto out;
        }
        if (cnt && !is_int_in(cnt, t->count, t->count)) {
            snprintf(err, ERR_MAX, "weights JSON: term %s: \"count\" is %s, this engine's is %d", t->name,
                     cJSON_IsNumber(cnt) ? "another number" : type_name(cnt), t->count);
            goto out;
        }
        if (doc && !cJSON_IsString(doc)) {
            snprintf(err, ERR_MAX, "weights JSON: term %s: \"doc\" is %s, not a string", t->name, type_name(doc));
            goto out;
        }
        const cJSON *values = cJSON_GetObjectItemCaseSensitive(term, "values");
        if (cJSON_IsArray(values) && cJSON_GetArraySize(values) != t->count) {
            snprintf(err, ERR_MAX, "weights JSON: term %s has %d values, needs %d", t->name, cJSON_GetArraySize(values),
                     t->count);
            goto out;
        }
        if (!cJSON_IsArray(values)) {
            snprintf(err, ERR_MAX, "weights JSON: term %s needs \"values\": an array of %d integers", t->name, t->count);
            goto out;
        }
        int j = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, values)
        {
            if (!is_int_in(x, -WEIGHT_VALUE_MAX, WEIGHT_VALUE_MAX)) {
                snprintf(err, ERR_MAX, "weights JSON: term %s[%d] (element %d of %d) is not an integer in -%d..%d",
                         t->name, j, j + 1, t->count, WEIGHT_VALUE_MAX, WEIGHT_VALUE_MAX);
                goto out;
            }
            w[t->offset + j] = (int32_t)x->valuedouble;
            seen[t->offset + j] = true;
            j++;
        }
    }
    for (int i = 0; i < g->terms_len; i++) {
        if (!seen[g->terms[i].offset]) {
            snprintf(err, ERR_MAX, "weights JSON: term %s is missing", g->terms[i].name);
            goto out;
        }
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "hash");
    if (v && !cJSON_IsNull(v)) {
        weights_hash_text(g, w, hash);
        if (!cJSON_IsString(v) || strcmp(v->valuestring, hash) != 0) {
            snprintf(err, ERR_MAX,
                     "weights JSON: \"hash\" %.40s does not match its values (%s): edited or damaged (remove \"hash\" "
                     "to load edited values)",
                     cJSON_IsString(v) ? v->valuestring : type_name(v), hash);
            goto out;
        }
    }
    memcpy(weights, w, sizeof(int32_t) * (size_t)g->weights_len);
    rc = 0;
out:
    free(seen);
    cJSON_Delete(root);
    return rc;
}
