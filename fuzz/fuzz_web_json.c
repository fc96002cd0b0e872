/* fuzz_web_json.c — the WebAssembly build's JSON subset (web/wasm/json.c)
 * against Debian's cJSON, the library the native build uses for the same
 * files (engine/weights_json.c): whatever both parse must give the same
 * tree (types, keys, strings, numbers, order); what the subset prints must
 * parse back, in the subset and in cJSON, to that tree. The subset is
 * compiled in here under other names (webjson_*), beside the real cJSON. */
#include "fuzz_common.h"

#define cJSON_Delete webjson_Delete
#define cJSON_ParseWithOpts webjson_ParseWithOpts
#define cJSON_CreateObject webjson_CreateObject
#define cJSON_CreateArray webjson_CreateArray
#define cJSON_CreateNull webjson_CreateNull
#define cJSON_CreateNumber webjson_CreateNumber
#define cJSON_CreateString webjson_CreateString
#define cJSON_CreateRaw webjson_CreateRaw
#define cJSON_AddItemToArray webjson_AddItemToArray
#define cJSON_AddItemToObject webjson_AddItemToObject
#define cJSON_AddNullToObject webjson_AddNullToObject
#define cJSON_AddNumberToObject webjson_AddNumberToObject
#define cJSON_AddStringToObject webjson_AddStringToObject
#define cJSON_AddRawToObject webjson_AddRawToObject
#define cJSON_AddObjectToObject webjson_AddObjectToObject
#define cJSON_AddArrayToObject webjson_AddArrayToObject
#define cJSON_GetArraySize webjson_GetArraySize
#define cJSON_GetObjectItemCaseSensitive webjson_GetObjectItemCaseSensitive
#define cJSON_IsBool webjson_IsBool
#define cJSON_IsNull webjson_IsNull
#define cJSON_IsNumber webjson_IsNumber
#define cJSON_IsString webjson_IsString
#define cJSON_IsArray webjson_IsArray
#define cJSON_IsObject webjson_IsObject
#define cJSON_Print webjson_Print
#include "../web/wasm/json.c"
#undef cJSON_Delete
#undef cJSON_ParseWithOpts
#undef cJSON_Print

/* Debian's cJSON (its header was read above under the subset's names). */
cJSON *cJSON_ParseWithOpts(const char *value, const char **return_parse_end, cJSON_bool require_null_terminated);
void cJSON_Delete(cJSON *item);

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The same tree: types, keys, values and order. printed: b is a read
 * back of a's print, where a number out of double's range (parsed as an
 * infinity) is written null, as cJSON writes it. */
static bool same_tree(const cJSON *a, const cJSON *b, bool printed)
{
    for (; a || b; a = a->next, b = b->next) {
        if (!a || !b) return false;
        if (printed && (a->type & 0xff) == cJSON_Number && !isfinite(a->valuedouble) && (b->type & 0xff) == cJSON_NULL &&
            same_text(a->string, b->string))
            continue;
        if ((a->type & 0xff) != (b->type & 0xff) || !same_text(a->string, b->string)) return false;
        if ((a->type & 0xff) == cJSON_String && !same_text(a->valuestring, b->valuestring)) return false;
        if ((a->type & 0xff) == cJSON_Number && !(a->valuedouble == b->valuedouble || (isnan(a->valuedouble) && isnan(b->valuedouble))))
            return false;
        if (!same_tree(a->child, b->child, printed)) return false;
    }
    return true;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    cJSON *sub = webjson_ParseWithOpts(text, NULL, 1);
    cJSON *ref = cJSON_ParseWithOpts(text, NULL, 1);
    if (sub && ref && !same_tree(sub, ref, false)) fuzz_fail("the subset and cJSON parse '%.200s' into different trees", text);
    if (sub) {
        char *printed = webjson_Print(sub);
        if (!printed) fuzz_fail("the subset cannot print what it parsed from '%.200s'", text);
        cJSON *again = webjson_ParseWithOpts(printed, NULL, 1);
        cJSON *again_ref = cJSON_ParseWithOpts(printed, NULL, 1);
        if (!again || !same_tree(sub, again, true)) fuzz_fail("the subset's print of '%.200s' does not read back: '%.200s'", text, printed);
        if (!again_ref || !same_tree(sub, again_ref, true))
            fuzz_fail("cJSON reads the subset's print of '%.200s' differently: '%.200s'", text, printed);
        webjson_Delete(again);
        cJSON_Delete(again_ref);
        free(printed);
    }
    webjson_Delete(sub);
    cJSON_Delete(ref);
    free(text);
    return 0;
}
