/* test_hub.c — the Hub protocol's line syntax (the sessions themselves are
 * tested by tests/cli/hub.sh; the clock's budget is the time manager's,
 * tests/test_timeman.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "protocol/hub.h"

typedef struct LineCase {
    const char *text;
    int rc;
    const char *command;
    int len;
    const char *args; /* "k=v|k=v" as parsed, or the error substring */
} LineCase;

static const LineCase LINE_CASES[] = {
    {"hub", 0, "hub", 0, ""},
    {"   ", 0, "", 0, ""},
    {"go think", 0, "go", 1, "think="},
    {"pos pos=W:Wa1,c3:Bb6 moves=\"c3-d4 b6-a5\"", 0, "pos", 2, "pos=W:Wa1,c3:Bb6|moves=c3-d4 b6-a5"},
    {"set-param name=variant value=\"\"", 0, "set-param", 2, "name=variant|value="},
    {"level  moves=9\ttime=291.587 inc=1\r", 0, "level", 3, "moves=9|time=291.587|inc=1"},
    {"pos pos=\"sqs/srs w 1-10,53-62 - - - 0 1\"", 0, "pos", 1, "pos=sqs/srs w 1-10,53-62 - - - 0 1"},
    {"id name=x author=\"A = B\"", 0, "id", 2, "name=x|author=A = B"},
    {"go think x=\"open", -1, NULL, 0, "unterminated"},
    {"go =x", -1, NULL, 0, "no name"},
    {"go \"x\"", -1, NULL, 0, "no name"},
    {"pos pos=\"a\"b", -1, NULL, 0, "after the closing quote"},
    {"pos pos=a\"b\"", -1, NULL, 0, "quote inside an unquoted value"},
    {"pos po\"s=1", -1, NULL, 0, "quote inside a name"},
};

static void test_parse_line(void **state)
{
    (void)state;
    HubLine *l = malloc(sizeof *l);
    assert_non_null(l);
    for (size_t c = 0; c < sizeof LINE_CASES / sizeof LINE_CASES[0]; c++) {
        const LineCase *t = &LINE_CASES[c];
        char err[ERR_MAX] = "";
        int rc = hub_parse_line(t->text, l, err);
        if (rc != t->rc) fail_msg("case %zu '%s': rc %d (%s)", c, t->text, rc, err);
        if (rc != 0) {
            if (!strstr(err, t->args)) fail_msg("case %zu: message '%s' lacks '%s'", c, err, t->args);
            continue;
        }
        assert_string_equal(l->command, t->command);
        assert_int_equal(l->len, t->len);
        char got[512] = "";
        size_t n = 0;
        for (int i = 0; i < l->len; i++)
            n += (size_t)snprintf(got + n, sizeof got - n, "%s%s=%s", i ? "|" : "", l->keys[i], l->values[i]);
        assert_string_equal(got, t->args);
    }
    /* hub_arg: present, flag, absent */
    assert_int_equal(hub_parse_line("go ponder depth=3", l, (char[ERR_MAX]){0}), 0);
    assert_string_equal(hub_arg(l, "ponder"), "");
    assert_string_equal(hub_arg(l, "depth"), "3");
    assert_null(hub_arg(l, "think"));
    /* too many arguments, too long */
    char many[600] = "go";
    for (int i = 0; i < HUB_ARGS_MAX + 1; i++) strcat(many, " a=1");
    char err[ERR_MAX];
    assert_int_equal(hub_parse_line(many, l, err), -1);
    assert_non_null(strstr(err, "more than"));
    char *longl = malloc(HUB_LINE_MAX + 10);
    memset(longl, 'x', HUB_LINE_MAX + 9);
    longl[HUB_LINE_MAX + 9] = '\0';
    assert_int_equal(hub_parse_line(longl, l, err), -1);
    assert_non_null(strstr(err, "longer than"));
    free(longl);
    free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
