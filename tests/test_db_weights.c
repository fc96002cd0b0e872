/* test_db_weights.c — the weight_sets table: round trip, the compact
 * form of pattern tables, load and insert errors, the content hash (the
 * one definition in engine/weights_id.h) and sets stored as deltas of
 * their parent. Helpers: tests/db_test.h. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fork, waitpid, even under strict -std=c11 */

#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "db/db.h"
#include "engine/weights_id.h"
#include "db_test.h"

/* ---- weight sets ---------------------------------------------------------- */

static void test_weights_round_trip(void **state)
{
    (void)state;
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    char text_hash[DB_HASH_HEX + 8];
    int64_t id = 0, child = 0, run = 0;
    CHECK_OK(db_weights_insert(db, "russian", "default", 0, "compiled-in", 0, ws_names, ws_values,
                               WS_LEN, &id, err));
    CHECK_OK(db_run_create(db, "tune", "russian", 3, NULL, NULL, &run, err));
    const int32_t tuned[WS_LEN] = {100, 251, -7, INT32_MAX, INT32_MIN};
    CHECK_OK(db_weights_insert(db, "russian", NULL, id, "tuned by tuning run 1", run, ws_names,
                               tuned, WS_LEN, &child, err));
    assert_int_equal(child, 2);
    int32_t out[WS_LEN] = {0};
    CHECK_OK(db_weights_load(db, id, "russian", ws_names, out, WS_LEN, err));
    assert_memory_equal(out, ws_values, sizeof out);
    /* A weight set is its content: the same values again give the old row,
     * whatever the name, lineage and run; other names or another game do
     * not match. */
    int64_t again = 0;
    CHECK_OK(db_weights_insert(db, "russian", "other", 0, "file x.cfg", run, ws_names, ws_values,
                               WS_LEN, &again, err));
    assert_int_equal(again, id);
    CHECK_OK(db_weights_insert(db, "russian", NULL, 0, "compiled-in", 0, ws_names, tuned, WS_LEN,
                               &again, err));
    assert_int_equal(again, child);
    CHECK_OK(db_weights_insert(db, "turkish", NULL, 0, "compiled-in", 0, ws_names, ws_values,
                               WS_LEN, &again, err));
    assert_int_equal(again, 3);
    const char *const renamed[WS_LEN] = {"man", "king", "pst[0]", "pst[1]", "tempo2"};
    CHECK_OK(db_weights_insert(db, "russian", NULL, 0, "compiled-in", 0, renamed, ws_values,
                               WS_LEN, &again, err));
    assert_int_equal(again, 4);
    char hash[DB_HASH_HEX];
    db_weights_hash("russian", ws_names, tuned, WS_LEN, hash);
    CHECK_OK(db_weights_find_hash(db, "russian", hash, &again, err));
    assert_int_equal(again, child);
    CHECK_OK(db_weights_find_hash(db, "shatra", hash, &again, err));
    assert_int_equal(again, 0);
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM weight_sets"), 4);
    raw_text(t.path, "SELECT hash FROM weight_sets WHERE id = 2", text_hash, sizeof text_hash);
    assert_string_equal(text_hash, hash);

    /* readable with sqlite3 alone */
    char text[256];
    raw_text(t.path, "SELECT weights FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "100,250,-7,2147483647,-2147483648");
    raw_text(t.path, "SELECT terms FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "man,king,pst[0],pst[1],tempo");
    assert_int_equal(raw_int(t.path, "SELECT parent_id FROM weight_sets WHERE id = 2"), 1);
    assert_int_equal(raw_int(t.path, "SELECT parent_id IS NULL FROM weight_sets WHERE id = 1"), 1);
    temp_remove(&t);
}

typedef struct WsLoadCase {
    const char *label;
    const char *tamper; /* raw SQL run on weight set 1 first, or NULL */
    const char *game;
    int64_t id;
    const char *const *names;
    int len;
    const char *expect;
} WsLoadCase;

static const char *const names_renamed[] = {"man", "king", "psqt[0]", "pst[1]", "tempo"};
static const char *const names_short[] = {"man", "king", "pst[0]", "pst[1]"};
static const char *const names_long[] = {"man", "king", "pst[0]", "pst[1]", "tempo", "extra"};

/* A pattern-sized table (>= 65 weights named t[0], t[1], ...) is stored
 * compactly (named once as a range, its values run-length coded), loads
 * back exactly, keeps the canonical content hash, and a tampered range is
 * refused with the weight it breaks on. */
static void test_weights_compact_table(void **state)
{
    (void)state;
    enum { N = 2 + 100 };
    static char store[N][16];
    const char *names[N];
    int32_t values[N], back[N];
    names[0] = "man", names[1] = "tempo";
    values[0] = 100, values[1] = 4;
    for (int i = 0; i < 100; i++) {
        snprintf(store[2 + i], sizeof store[0], "pat[%d]", i);
        names[2 + i] = store[2 + i];
        values[2 + i] = i < 90 ? 0 : i - 95; /* 90 zeros, then -5..4 */
    }
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t id = 0, again = 0;
    CHECK_OK(db_weights_insert(db, "russian", "p", 0, "compiled-in", 0, names, values, N, &id, err));
    CHECK_OK(db_weights_insert(db, "russian", "p", 0, "compiled-in", 0, names, values, N, &again, err));
    assert_int_equal(again, id); /* the same content is found again */
    CHECK_OK(db_weights_load(db, id, "russian", names, back, N, err));
    assert_memory_equal(back, values, sizeof values);
    char hash[DB_HASH_HEX], stored[DB_HASH_HEX];
    db_weights_hash("russian", names, values, N, hash);
    db_close(db);
    raw_text(t.path, "SELECT hash FROM weight_sets WHERE id = 1", stored, sizeof stored);
    assert_string_equal(stored, hash);
    char text[512];
    raw_text(t.path, "SELECT terms FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "man,tempo,pat[0..99]");
    raw_text(t.path, "SELECT weights FROM weight_sets WHERE id = 1", text, sizeof text);
    assert_string_equal(text, "100,4,0*90,-5,-4,-3,-2,-1,0,1,2,3,4");
    static const struct {
        const char *tamper, *expect;
    } BAD[] = {
        {"UPDATE weight_sets SET weights = '100,4,0*89,-5,-4,-3,-2,-1,0,1,2,3,4'", "only 101 weight values for 102 names"},
        {"UPDATE weight_sets SET weights = '100,4,0*91,-5,-4,-3,-2,-1,0,1,2,3,4'", "weight index 101 (0-based, of 102) '3'"},
        {"UPDATE weight_sets SET weights = '100,4,0*x,-5,-4,-3,-2,-1,0,1,2,3,4'", "weight index 2 (0-based, of 102) '0*x'"},
        {"UPDATE weight_sets SET terms = 'man,tempo,pat[0..98]'", "has 101 weights, but this dama's"},
        {"UPDATE weight_sets SET terms = 'man,tempo,pax[0..99]'", "weight 2 is 'pax[0]' in the database but 'pat[0]'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        raw_exec(t.path, BAD[i].tamper);
        db = open_ok(t.path, false);
        err[0] = '\0';
        assert_int_equal(db_weights_load(db, 1, "russian", names, back, N, err), -1);
        if (!strstr(err, BAD[i].expect)) fail_msg("%s: error '%s' lacks '%s'", BAD[i].tamper, err, BAD[i].expect);
        db_close(db);
        raw_exec(t.path, "UPDATE weight_sets SET terms = 'man,tempo,pat[0..99]', weights = '100,4,0*90,-5,-4,-3,-2,-1,0,1,2,3,4'");
    }
    temp_remove(&t);
}

static void test_weights_load_errors(void **state)
{
    (void)state;
    static const WsLoadCase cases[] = {
        {"missing id", NULL, "russian", 42, ws_names, WS_LEN, "weight set 42 not found"},
        {"other game", NULL, "turkish", 1, ws_names, WS_LEN,
         "is for game 'russian', not 'turkish'"},
        {"renamed weight", NULL, "russian", 1, names_renamed, WS_LEN,
         "weight 2 is 'pst[0]' in the database but 'psqt[0]' in this dama"},
        {"fewer names", NULL, "russian", 1, names_short, 4, "has 5 weights, but this dama's"},
        {"more names", NULL, "russian", 1, names_long, 6, "has 5 weights, but this dama's"},
        {"letter", "UPDATE weight_sets SET weights = '1,2,x,4,5'", "russian", 1, ws_names, WS_LEN,
         "weight index 2 (0-based, of 5) 'x'"},
        {"empty item", "UPDATE weight_sets SET weights = '1,,3,4,5'", "russian", 1, ws_names,
         WS_LEN, "weight index 1 (0-based, of 5) ''"},
        {"space", "UPDATE weight_sets SET weights = '1, 2,3,4,5'", "russian", 1, ws_names, WS_LEN,
         "weight index 1 (0-based, of 5) ' 2'"},
        {"overflow", "UPDATE weight_sets SET weights = '1,2,3,2147483648,5'", "russian", 1,
         ws_names, WS_LEN, "weight index 3 (0-based, of 5) '2147483648'"},
        {"huge", "UPDATE weight_sets SET weights = '1,2,3,4,99999999999999999999'", "russian", 1,
         ws_names, WS_LEN, "weight index 4 (0-based"},
        {"too few values", "UPDATE weight_sets SET weights = '1,2,3'", "russian", 1, ws_names,
         WS_LEN, "only 3 weight values for 5 names"},
        {"too many values", "UPDATE weight_sets SET weights = '1,2,3,4,5,6'", "russian", 1,
         ws_names, WS_LEN, "weight index 4 (0-based, of 5) '5'"},
        {"trailing comma", "UPDATE weight_sets SET weights = '1,2,3,4,5,'", "russian", 1, ws_names,
         WS_LEN, "weight index 4 (0-based, of 5) '5'"},
        {"decimal", "UPDATE weight_sets SET weights = '1,2,3.5,4,5'", "russian", 1, ws_names,
         WS_LEN, "weight index 2 (0-based, of 5) '3.5'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const WsLoadCase *c = &cases[i];
        TempDb t;
        temp_make(&t, false);
        Db *db = open_ok(t.path, true);
        char err[ERR_MAX] = "";
        int64_t id = 0;
        CHECK_OK(db_weights_insert(db, "russian", "w", 0, "compiled-in", 0, ws_names, ws_values,
                                   WS_LEN, &id, err));
        db_close(db);
        if (c->tamper)
            raw_exec(t.path, c->tamper);
        db = open_ok(t.path, false);
        int32_t out[8] = {11, 11, 11, 11, 11, 11, 11, 11};
        if (db_weights_load(db, c->id, c->game, c->names, out, c->len, err) == 0)
            fail_msg("%s: loaded", c->label);
        if (!strstr(err, c->expect))
            fail_msg("%s: expected '%s' in: %s", c->label, c->expect, err);
        assert_contains(err, t.path);
        for (int k = 0; k < 8; k++)
            assert_int_equal(out[k], 11); /* untouched on error */
        db_close(db);
        temp_remove(&t);
    }
}

static void test_weights_insert_errors(void **state)
{
    (void)state;
    Db *db = open_ok(":memory:", true);
    char err[ERR_MAX] = "";
    int64_t id = 0;
    static const char *const comma[] = {"man", "a,b"};
    static const char *const empty[] = {"man", ""};
    static const int32_t w[] = {1, 2};
    assert_int_equal(
        db_weights_insert(db, "russian", "x", 0, "compiled-in", 0, comma, w, 2, &id, err), -1);
    assert_contains(err, "weight 1 has name 'a,b'");
    assert_int_equal(
        db_weights_insert(db, "russian", "x", 0, "compiled-in", 0, empty, w, 2, &id, err), -1);
    assert_contains(err, "weight 1 has name ''");
    assert_int_equal(db_weights_insert(db, "russian", "x", 0, NULL, 0, ws_names, w, 2, &id, err),
                     -1);
    assert_contains(err, "lineage");
    /* foreign keys are enforced: no such parent */
    assert_int_equal(db_weights_insert(db, "russian", "x", 77, "perturbed from 77", 0, ws_names,
                                       ws_values, WS_LEN, &id, err),
                     -1);
    assert_contains(err, "FOREIGN KEY");
    db_close(db);
}

typedef struct HashCase {
    const char *game;
    const char *const *names;
    const int32_t *values;
    int len;
    const char *hex; /* FNV-1a 64 of game NUL terms NUL values, by hand (Python) */
} HashCase;

static void test_weights_hash(void **state)
{
    (void)state;
    static const char *const two[] = {"man", "king"};
    static const int32_t v1[] = {100, -5};
    static const int32_t v2[] = {100, -6};
    const HashCase cases[] = {
        {"russian", two, v1, 2, "eee94bb8c1aef694"},
    };
    char hex[DB_HASH_HEX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        db_weights_hash(cases[i].game, cases[i].names, cases[i].values, cases[i].len, hex);
        assert_string_equal(hex, cases[i].hex);
    }
    char other[DB_HASH_HEX];
    db_weights_hash("russian", two, v2, 2, other);
    assert_string_not_equal(hex, other);
    db_weights_hash("turkish", two, v1, 2, other);
    assert_string_not_equal(hex, other);
    /* the one definition (engine/weights_id.h): FNV-1a 64's published vector
     * ("a"), the stored text, and the piecewise hash at the int32 extremes */
    assert_true(weights_fnv1a(WEIGHTS_FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(weights_hash_canonical("russian", "man,king", "100,-5") == 0xeee94bb8c1aef694ULL);
    static const int32_t ext[] = {INT32_MIN, INT32_MAX, 0};
    static const char *const three[] = {"a", "b[0]", "b[1]"};
    assert_true(weights_hash_values(weights_hash_names("shatra", three, 3), ext, 3) ==
                weights_hash_canonical("shatra", "a,b[0],b[1]", "-2147483648,2147483647,0"));
}

/* Weight sets stored as deltas of their parent (schema 9): a member of a
 * self-play run differs from its base in a few weights. The row names only
 * those; loading resolves it through its parents (a chain); the content
 * hash and the look-up by content see the whole set, whichever way it was
 * stored; a damaged delta is refused naming what is wrong. */
static void test_weights_delta(void **state)
{
    (void)state;
    enum { N = 2 + 100 };
    static char store[N][16];
    const char *names[N];
    int32_t base[N], child[N], grand[N], back[N];
    names[0] = "man", names[1] = "tempo";
    for (int i = 0; i < 100; i++) {
        snprintf(store[2 + i], sizeof store[0], "pat[%d]", i);
        names[2 + i] = store[2 + i];
    }
    for (int i = 0; i < N; i++) base[i] = i * 3 - 50;
    memcpy(child, base, sizeof child);
    child[1] = 7, child[60] = -1000, child[N - 1] = INT32_MIN;
    memcpy(grand, child, sizeof grand);
    grand[0] = 101, grand[60] = base[60];
    TempDb t;
    temp_make(&t, false);
    Db *db = open_ok(t.path, true);
    char err[ERR_MAX] = "";
    int64_t b = 0, c = 0, gc = 0, again = 0;
    CHECK_OK(db_weights_insert(db, "russian", "base", 0, "compiled-in", 0, names, base, N, &b, err));
    CHECK_OK(db_weights_insert_delta(db, "russian", "m1", b, "perturbed from 1", 0, names, child, N, &c, err));
    CHECK_OK(db_weights_insert_delta(db, "russian", "m2", c, "perturbed from 2", 0, names, grand, N, &gc, err));
    assert_int_equal(b, 1);
    assert_int_equal(c, 2);
    assert_int_equal(gc, 3);
    CHECK_OK(db_weights_load(db, c, "russian", names, back, N, err));
    assert_memory_equal(back, child, sizeof back);
    CHECK_OK(db_weights_load(db, gc, "russian", names, back, N, err));
    assert_memory_equal(back, grand, sizeof back);
    CHECK_OK(db_weights_load(db, b, "russian", names, back, N, err));
    assert_memory_equal(back, base, sizeof back);
    /* the same content again, either way, is the row that has it */
    CHECK_OK(db_weights_insert_delta(db, "russian", "x", b, "perturbed", 0, names, child, N, &again, err));
    assert_int_equal(again, c);
    CHECK_OK(db_weights_insert(db, "russian", "x", 0, "file x.cfg", 0, names, grand, N, &again, err));
    assert_int_equal(again, gc);
    CHECK_OK(db_weights_insert_delta(db, "russian", "x", gc, "perturbed", 0, names, base, N, &again, err));
    assert_int_equal(again, b);
    /* the hash is that of the whole set */
    char hash[DB_HASH_HEX];
    db_weights_hash("russian", names, grand, N, hash);
    CHECK_OK(db_weights_find_hash(db, "russian", hash, &again, err));
    assert_int_equal(again, gc);
    /* a delta needs a parent of the same game; a full set stored after its
     * delta twin finds the twin */
    assert_int_equal(db_weights_insert_delta(db, "russian", "y", 0, "perturbed", 0, names, base, N, &again, err), -1);
    assert_contains(err, "needs a parent weight set");
    child[5] = 1;
    assert_int_equal(db_weights_insert_delta(db, "turkish", "y", b, "perturbed", 0, names, child, N, &again, err), -1);
    assert_contains(err, "weight set 1 is for game 'russian', not 'turkish'");
    child[5] = base[5];
    db_close(db);
    assert_int_equal(raw_int(t.path, "SELECT count(*) FROM weight_sets"), 3);
    char text[256];
    raw_text(t.path, "SELECT delta || ' ' || parent_id || ' ' || terms || ' ' || weights FROM weight_sets WHERE id = 2",
             text, sizeof text);
    assert_string_equal(text, "1 1 tempo,pat[58],pat[99] 7,-1000,-2147483648");
    raw_text(t.path, "SELECT delta || ' ' || parent_id || ' ' || terms || ' ' || weights FROM weight_sets WHERE id = 3",
             text, sizeof text);
    assert_string_equal(text, "1 2 man,pat[58] 101,130");
    raw_text(t.path, "SELECT hash FROM weight_sets WHERE id = 3", text, sizeof text);
    assert_string_equal(text, hash);
    assert_int_equal(raw_int(t.path, "SELECT delta FROM weight_sets WHERE id = 1"), 0);

    /* a damaged delta (the chain's last row) */
    static const struct {
        const char *tamper, *expect;
    } BAD[] = {
        {"UPDATE weight_sets SET parent_id = NULL WHERE id = 3", "weight set 3 is a delta without a parent"},
        {"UPDATE weight_sets SET parent_id = 3 WHERE id = 3", "a chain of more than 64 deltas (a cycle?)"},
        {"UPDATE weight_sets SET parent_id = 9 WHERE id = 3", "weight set 9 not found"},
        {"UPDATE weight_sets SET terms = 'man,pat[58],pat[300]' WHERE id = 3", "only 2 weight values for 3 names"},
        {"UPDATE weight_sets SET terms = 'pat[58],man' WHERE id = 3", "its delta sets 'man', which is no weight of this dama's"},
        {"UPDATE weight_sets SET terms = 'man,pax[58]' WHERE id = 3", "its delta sets 'pax[58]'"},
        {"UPDATE weight_sets SET terms = 'man,pat[57..58]' WHERE id = 3", "only 2 weight values for 3 names"},
        {"UPDATE weight_sets SET weights = '101,x' WHERE id = 3", "weight index 1 (0-based, of 2) 'x'"},
        {"UPDATE weight_sets SET terms = '' WHERE id = 3", "a delta that names no weight but has values '101,130'"},
        {"UPDATE weight_sets SET game = 'shatra' WHERE id = 2", "weight set 2 is for game 'shatra', not 'russian'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        raw_exec(t.path, BAD[i].tamper);
        db = open_ok(t.path, false);
        err[0] = '\0';
        memcpy(back, base, sizeof back);
        assert_int_equal(db_weights_load(db, 3, "russian", names, back, N, err), -1);
        if (!strstr(err, BAD[i].expect)) fail_msg("%s: error '%s' lacks '%s'", BAD[i].tamper, err, BAD[i].expect);
        assert_memory_equal(back, base, sizeof back); /* untouched */
        db_close(db);
        raw_exec(t.path, "UPDATE weight_sets SET parent_id = 2, terms = 'man,pat[58]', weights = '101,130' WHERE id = 3;"
                         "UPDATE weight_sets SET game = 'russian' WHERE id = 2");
    }
    /* a range in a delta's names sets each weight of it */
    raw_exec(t.path, "UPDATE weight_sets SET terms = 'man,pat[57..58]', weights = '101,5,130' WHERE id = 3");
    db = open_ok(t.path, false);
    CHECK_OK(db_weights_load(db, 3, "russian", names, back, N, err));
    grand[59] = 5;
    assert_memory_equal(back, grand, sizeof back);
    db_close(db);
    temp_remove(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_round_trip),
        cmocka_unit_test(test_weights_load_errors),
        cmocka_unit_test(test_weights_compact_table),
        cmocka_unit_test(test_weights_insert_errors),
        cmocka_unit_test(test_weights_hash),
        cmocka_unit_test(test_weights_delta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
