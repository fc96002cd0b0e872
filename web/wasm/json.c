/* json.c — the cJSON subset of include/cjson/cJSON.h for the WebAssembly
 * build: a recursive-descent JSON parser (RFC 8259) and a printer that
 * indents with tabs. Written for dama; only engine/weights_json.c uses it. */
#include <cjson/cJSON.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p;
    int depth;
} Parser;

static cJSON *item_new(int type)
{
    cJSON *it = calloc(1, sizeof *it);
    if (it) it->type = type;
    return it;
}

void cJSON_Delete(cJSON *item)
{
    while (item) {
        cJSON *next = item->next;
        cJSON_Delete(item->child);
        free(item->valuestring);
        free(item->string);
        free(item);
        item = next;
    }
}

static void skip_ws(Parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12)); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18)); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* One escape after the backslash at *s; writes its UTF-8 to o. */
static int unescape(const char **s, char *o, size_t *n)
{
    const char *e = *s + 1;
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = *e ? strchr(from, *e) : NULL;
    if (k) {
        o[(*n)++] = to[k - from];
        *s = e + 1;
        return 0;
    }
    unsigned cp, lo;
    if (*e != 'u' || hex4(e + 1, &cp) != 0) return -1;
    e += 5;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (e[0] != '\\' || e[1] != 'u' || hex4(e + 2, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF) return -1;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        e += 6;
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) return -1;
    *n += put_utf8(o + *n, cp);
    *s = e;
    return 0;
}

static char *parse_string(Parser *ps)
{
    const char *s = ps->p + 1, *end = s;
    while (*end && *end != '"') end += (*end == '\\' && end[1]) ? 2 : 1;
    if (*end != '"') return NULL;
    char *out = malloc((size_t)(end - s) + 1);
    size_t n = 0;
    while (out && s < end) {
        if ((unsigned char)*s < 0x20) break;
        if (*s != '\\') out[n++] = *s++;
        else if (unescape(&s, out, &n) != 0) break;
    }
    if (!out || s != end) {
        ps->p = s;
        free(out);
        return NULL;
    }
    out[n] = '\0';
    ps->p = end + 1;
    return out;
}

static cJSON *parse_value(Parser *ps);

static int parse_number(Parser *ps, cJSON *it)
{
    const char *s = ps->p;
    if (*s == '-') s++;
    if (*s == '0') s++;
    else if (*s >= '1' && *s <= '9') while (*s >= '0' && *s <= '9') s++;
    else return -1;
    if (*s == '.') {
        if (!(*++s >= '0' && *s <= '9')) return -1;
        while (*s >= '0' && *s <= '9') s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!(*s >= '0' && *s <= '9')) return -1;
        while (*s >= '0' && *s <= '9') s++;
    }
    it->valuedouble = strtod(ps->p, NULL);
    it->valueint = it->valuedouble >= 2147483647.0 ? 2147483647
                   : it->valuedouble <= -2147483648.0 ? (-2147483647 - 1) : (int)it->valuedouble;
    ps->p = s;
    return 0;
}

/* The members of an array or object, after its opening bracket. */
static int parse_members(Parser *ps, cJSON *it, char close, int keyed)
{
    skip_ws(ps);
    if (*ps->p == close) { ps->p++; return 0; }
    cJSON *last = NULL;
    for (;;) {
        skip_ws(ps);
        char *key = NULL;
        if (keyed) {
            if (*ps->p != '"' || !(key = parse_string(ps))) return -1;
            skip_ws(ps);
            if (*ps->p != ':') { free(key); return -1; }
            ps->p++;
        }
        cJSON *v = parse_value(ps);
        if (!v) { free(key); return -1; }
        v->string = key;
        if (last) { last->next = v; v->prev = last; } else it->child = v;
        last = v;
        it->child->prev = last;
        skip_ws(ps);
        if (*ps->p == close) { ps->p++; return 0; }
        if (*ps->p != ',') return -1;
        ps->p++;
    }
}

static cJSON *parse_value(Parser *ps)
{
    skip_ws(ps);
    static const struct { const char *word; int type; } words[] = {
        {"null", cJSON_NULL}, {"true", cJSON_True}, {"false", cJSON_False}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i].word);
        if (strncmp(ps->p, words[i].word, n) == 0) {
            cJSON *it = item_new(words[i].type);
            if (it) { ps->p += n; it->valueint = words[i].type == cJSON_True; }
            return it;
        }
    }
    char c = *ps->p;
    int type = c == '"' ? cJSON_String : c == '[' ? cJSON_Array : c == '{' ? cJSON_Object : cJSON_Number;
    if ((type == cJSON_Array || type == cJSON_Object) && ++ps->depth > CJSON_NESTING_LIMIT) return NULL;
    cJSON *it = item_new(type);
    if (!it) return NULL;
    int rc;
    if (type == cJSON_String) rc = (it->valuestring = parse_string(ps)) ? 0 : -1;
    else if (type == cJSON_Number) rc = parse_number(ps, it);
    else {
        ps->p++;
        rc = parse_members(ps, it, type == cJSON_Array ? ']' : '}', type == cJSON_Object);
        ps->depth--;
    }
    if (rc != 0) {
        cJSON_Delete(it);
        return NULL;
    }
    return it;
}

cJSON *cJSON_ParseWithOpts(const char *text, const char **return_parse_end, cJSON_bool require_null_terminated)
{
    Parser ps = {text ? text : "", 0};
    cJSON *it = parse_value(&ps);
    if (it) skip_ws(&ps);
    if (it && require_null_terminated && *ps.p) {
        cJSON_Delete(it);
        it = NULL;
    }
    if (return_parse_end) *return_parse_end = ps.p;
    return it;
}

/* ---- building ---- */

cJSON *cJSON_CreateObject(void) { return item_new(cJSON_Object); }
cJSON *cJSON_CreateArray(void) { return item_new(cJSON_Array); }
cJSON *cJSON_CreateNull(void) { return item_new(cJSON_NULL); }

cJSON *cJSON_CreateNumber(double num)
{
    cJSON *it = item_new(cJSON_Number);
    if (it) {
        it->valuedouble = num;
        it->valueint = num >= 2147483647.0 ? 2147483647 : num <= -2147483648.0 ? (-2147483647 - 1) : (int)num;
    }
    return it;
}

static cJSON *with_text(int type, const char *s)
{
    cJSON *it = item_new(type);
    if (it && !(it->valuestring = strdup(s ? s : ""))) {
        free(it);
        return NULL;
    }
    return it;
}

cJSON *cJSON_CreateString(const char *s) { return with_text(cJSON_String, s); }
cJSON *cJSON_CreateRaw(const char *raw) { return with_text(cJSON_Raw, raw); }

cJSON_bool cJSON_AddItemToArray(cJSON *array, cJSON *item)
{
    if (!array || !item || item == array) return 0;
    if (!array->child) {
        array->child = item;
        item->prev = item;
    } else {
        cJSON *last = array->child->prev;
        last->next = item;
        item->prev = last;
        array->child->prev = item;
    }
    return 1;
}

cJSON_bool cJSON_AddItemToObject(cJSON *object, const char *key, cJSON *item)
{
    if (!object || !key || !item) return 0;
    char *k = strdup(key);
    if (!k) return 0;
    free(item->string);
    item->string = k;
    return cJSON_AddItemToArray(object, item);
}

static cJSON *add(cJSON *object, const char *key, cJSON *item)
{
    if (item && cJSON_AddItemToObject(object, key, item)) return item;
    cJSON_Delete(item);
    return NULL;
}

cJSON *cJSON_AddNullToObject(cJSON *o, const char *k) { return add(o, k, cJSON_CreateNull()); }
cJSON *cJSON_AddNumberToObject(cJSON *o, const char *k, double n) { return add(o, k, cJSON_CreateNumber(n)); }
cJSON *cJSON_AddStringToObject(cJSON *o, const char *k, const char *s) { return add(o, k, cJSON_CreateString(s)); }
cJSON *cJSON_AddRawToObject(cJSON *o, const char *k, const char *r) { return add(o, k, cJSON_CreateRaw(r)); }
cJSON *cJSON_AddObjectToObject(cJSON *o, const char *k) { return add(o, k, cJSON_CreateObject()); }
cJSON *cJSON_AddArrayToObject(cJSON *o, const char *k) { return add(o, k, cJSON_CreateArray()); }

/* ---- reading ---- */

int cJSON_GetArraySize(const cJSON *array)
{
    int n = 0;
    for (const cJSON *c = array ? array->child : NULL; c; c = c->next) n++;
    return n;
}

cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *object, const char *key)
{
    for (cJSON *c = object && key ? object->child : NULL; c; c = c->next)
        if (c->string && strcmp(c->string, key) == 0) return c;
    return NULL;
}

cJSON_bool cJSON_IsBool(const cJSON *it) { return it && (it->type & (cJSON_True | cJSON_False)) != 0; }
cJSON_bool cJSON_IsNull(const cJSON *it) { return it && it->type == cJSON_NULL; }
cJSON_bool cJSON_IsNumber(const cJSON *it) { return it && it->type == cJSON_Number; }
cJSON_bool cJSON_IsString(const cJSON *it) { return it && it->type == cJSON_String; }
cJSON_bool cJSON_IsArray(const cJSON *it) { return it && it->type == cJSON_Array; }
cJSON_bool cJSON_IsObject(const cJSON *it) { return it && it->type == cJSON_Object; }

/* ---- printing ---- */

typedef struct {
    char *buf;
    size_t len, cap;
    int failed;
} Out;

static void out_put(Out *o, const char *s, size_t n)
{
    if (o->failed) return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = (o->cap ? o->cap * 2 : 256) + n;
        char *b = realloc(o->buf, cap);
        if (!b) { o->failed = 1; return; }
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void out_str(Out *o, const char *s) { out_put(o, s, strlen(s)); }

static void out_quoted(Out *o, const char *s)
{
    out_put(o, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        if (c == '"' || c == '\\') { esc[0] = '\\'; esc[1] = (char)c; out_put(o, esc, 2); }
        else if (c < 0x20) { snprintf(esc, sizeof esc, "\\u%04x", c); out_str(o, esc); }
        else out_put(o, (const char *)s, 1);
    }
    out_put(o, "\"", 1);
}

static void out_indent(Out *o, int depth)
{
    for (int i = 0; i < depth; i++) out_put(o, "\t", 1);
}

static void print_value(Out *o, const cJSON *it, int depth)
{
    char num[64];
    switch (it->type) {
    case cJSON_NULL: out_str(o, "null"); return;
    case cJSON_True: out_str(o, "true"); return;
    case cJSON_False: out_str(o, "false"); return;
    case cJSON_Raw: out_str(o, it->valuestring); return;
    case cJSON_String: out_quoted(o, it->valuestring); return;
    case cJSON_Number:
        if (!isfinite(it->valuedouble)) out_str(o, "null");
        else if (it->valuedouble == (double)it->valueint) { snprintf(num, sizeof num, "%d", it->valueint); out_str(o, num); }
        else { snprintf(num, sizeof num, "%.17g", it->valuedouble); out_str(o, num); }
        return;
    default: break;
    }
    int obj = it->type == cJSON_Object;
    out_str(o, obj ? "{" : "[");
    for (const cJSON *c = it->child; c; c = c->next) {
        if (obj) { out_str(o, "\n"); out_indent(o, depth + 1); out_quoted(o, c->string ? c->string : ""); out_str(o, ":\t"); }
        print_value(o, c, depth + 1);
        if (c->next) out_str(o, obj ? "," : ", ");
    }
    if (obj) { out_str(o, "\n"); out_indent(o, depth); }
    out_str(o, obj ? "}" : "]");
}

char *cJSON_Print(const cJSON *item)
{
    Out o = {0};
    if (!item) return NULL;
    print_value(&o, item, 0);
    if (o.failed) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}
