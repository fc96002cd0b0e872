/* cJSON.h for the WebAssembly build (web/, docs/web.md): the part of
 * cJSON's interface (Debian libcjson-dev, which has no wasm32 build) that
 * engine/weights_json.c uses, implemented in web/wasm/json.c. Same names,
 * types and meaning; parsing stops at CJSON_NESTING_LIMIT levels. */
#ifndef DAMA_WEB_CJSON_H
#define DAMA_WEB_CJSON_H

#include <stddef.h>

#define cJSON_Invalid 0
#define cJSON_False (1 << 0)
#define cJSON_True (1 << 1)
#define cJSON_NULL (1 << 2)
#define cJSON_Number (1 << 3)
#define cJSON_String (1 << 4)
#define cJSON_Array (1 << 5)
#define cJSON_Object (1 << 6)
#define cJSON_Raw (1 << 7)
#define CJSON_NESTING_LIMIT 1000

typedef int cJSON_bool;

typedef struct cJSON {
    struct cJSON *next, *prev, *child;
    int type;
    char *valuestring;
    int valueint;
    double valuedouble;
    char *string;
} cJSON;

cJSON *cJSON_ParseWithOpts(const char *text, const char **return_parse_end, cJSON_bool require_null_terminated);
char *cJSON_Print(const cJSON *item);
void cJSON_Delete(cJSON *item);

cJSON *cJSON_CreateObject(void);
cJSON *cJSON_CreateArray(void);
cJSON *cJSON_CreateNumber(double num);
cJSON *cJSON_CreateString(const char *s);
cJSON *cJSON_CreateNull(void);
cJSON *cJSON_CreateRaw(const char *raw);
cJSON_bool cJSON_AddItemToArray(cJSON *array, cJSON *item);
cJSON_bool cJSON_AddItemToObject(cJSON *object, const char *key, cJSON *item);
cJSON *cJSON_AddNullToObject(cJSON *object, const char *key);
cJSON *cJSON_AddNumberToObject(cJSON *object, const char *key, double num);
cJSON *cJSON_AddStringToObject(cJSON *object, const char *key, const char *s);
cJSON *cJSON_AddRawToObject(cJSON *object, const char *key, const char *raw);
cJSON *cJSON_AddObjectToObject(cJSON *object, const char *key);
cJSON *cJSON_AddArrayToObject(cJSON *object, const char *key);

int cJSON_GetArraySize(const cJSON *array);
cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *object, const char *key);

cJSON_bool cJSON_IsBool(const cJSON *item);
cJSON_bool cJSON_IsNull(const cJSON *item);
cJSON_bool cJSON_IsNumber(const cJSON *item);
cJSON_bool cJSON_IsString(const cJSON *item);
cJSON_bool cJSON_IsArray(const cJSON *item);
cJSON_bool cJSON_IsObject(const cJSON *item);

#define cJSON_ArrayForEach(element, array) \
    for (element = (array != NULL) ? (array)->child : NULL; element != NULL; element = element->next)

#endif
