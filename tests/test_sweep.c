/* test_sweep.c -- a [sweep] section: expansion, substitution, each
 * point's scenario, and the messages of bad input (scenario/sweep.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support.h"

#include "scenario/sweep.h"

static int load(sweep *sw, const char *text, char *err, size_t cap)
{
    return sweep_load_text(sw, "x.ini", text, strlen(text), err, cap);
}

/* Loading must fail with a message holding every part given. */
static void assert_refused(const char *text, const char *part1, const char *part2)
{
    sweep sw;
    char err[1024] = "";
    if (load(&sw, text, err, sizeof err) == 0) {
        sweep_release(&sw);
        fail_msg("accepted: %s", text);
    }
    assert_contains(err, part1);
    if (part2)
        assert_contains(err, part2);
}

static void test_list_and_range_expand(void **state)
{
    (void)state;
    sweep sw;
    char err[1024];
    assert_int_equal(load(&sw, "[sweep]\nbuckets = 4, 8 ,16\nservers = 8..24 step 8\n"
                               "[scheme s]\nkey = salt($buckets) ts\n", err, sizeof err), 0);
    assert_int_equal(sw.nvars, 2);
    assert_int_equal(sw.vars[0].nvalues, 3);
    assert_int_equal(sw.vars[1].nvalues, 3);
    assert_true(sw.vars[1].is_setting);
    assert_false(sw.vars[0].is_setting);
    assert_int_equal(sw.npoints, 9);
    /* the first variable slowest */
    assert_string_equal(sweep_value(&sw, 0, 0), "4");
    assert_string_equal(sweep_value(&sw, 0, 1), "8");
    assert_string_equal(sweep_value(&sw, 1, 1), "16");
    assert_string_equal(sweep_value(&sw, 2, 1), "24");
    assert_string_equal(sweep_value(&sw, 3, 0), "8");
    assert_string_equal(sweep_value(&sw, 8, 0), "16");
    assert_string_equal(sweep_value(&sw, 8, 1), "24");
    char label[128];
    assert_string_equal(sweep_point_label(&sw, 5, label, sizeof label), "buckets=8 servers=24");
    sweep_release(&sw);

    assert_int_equal(load(&sw, "[sweep]\nn = 3..5 ; a comment\n[cluster]\nservers = $n\n", err,
                          sizeof err), 0);
    assert_int_equal(sw.npoints, 3);
    assert_string_equal(sweep_value(&sw, 2, 0), "5");
    sweep_release(&sw);
}

static void test_substitution_keeps_lines_and_comments(void **state)
{
    (void)state;
    sweep sw;
    char err[1024], *text;
    size_t len;
    const char *file = "; uses $b in a comment\n"
                       "[sweep]\n"
                       "b = 4, 16\n"
                       "[scheme s]\n"
                       "key = salt(${b}) ts ; $zz is a comment\n"
                       "[workload]\n"
                       "duration = $$b\n";
    assert_int_equal(load(&sw, file, err, sizeof err), 0);
    assert_int_equal(sweep_substitute(&sw, 1, &text, &len, err, sizeof err), 0);
    /* [sweep] lines are comments now: every line keeps its number */
    assert_string_equal(text, "; uses $b in a comment\n"
                              ";      \n"
                              ";        \n"
                              "[scheme s]\n"
                              "key = salt(16) ts ; $zz is a comment\n"
                              "[workload]\n"
                              "duration = $b\n");
    assert_int_equal(len, strlen(text));
    free(text);
    sweep_release(&sw);
}

static void test_point_scenarios(void **state)
{
    (void)state;
    sweep sw;
    char err[1024];
    scenario sc;
    assert_int_equal(load(&sw, "[sweep]\nservers = 2, 3\nb = 5, 7\n"
                               "[cluster]\nservers = 9\n"
                               "[scheme s]\nkey = salt($b) ts\n", err, sizeof err), 0);
    /* point 3: servers=3 b=7; the variable wins over the file's value */
    assert_int_equal(sweep_point_scenario(&sw, 3, NULL, NULL, 0, &sc, err, sizeof err), 0);
    assert_int_equal(sc.servers, 3);
    char expr[128];
    scenario_scheme_expr(&sc, 0, expr, sizeof expr);
    assert_string_equal(expr, "salt(7) ts");
    scenario_release(&sc);
    /* an option is applied at every point, under the variables */
    const char *keys[] = { "servers", "duration" }, *values[] = { "50", "2m" };
    assert_int_equal(sweep_point_scenario(&sw, 0, keys, values, 2, &sc, err, sizeof err), 0);
    assert_int_equal(sc.servers, 2);
    scenario_release(&sc);
    sweep_release(&sw);
}

static void test_a_bad_point_is_named(void **state)
{
    (void)state;
    sweep sw;
    char err[1024];
    scenario sc;
    assert_int_equal(load(&sw, "[sweep]\nn = 8, 0\n[cluster]\nservers = $n\n", err, sizeof err),
                     0);
    assert_int_equal(sweep_point_scenario(&sw, 0, NULL, NULL, 0, &sc, err, sizeof err), 0);
    scenario_release(&sc);
    assert_int_equal(sweep_point_scenario(&sw, 1, NULL, NULL, 0, &sc, err, sizeof err), -1);
    scenario_release(&sc);
    assert_contains(err, "x.ini:4: at n=0: ");
    assert_contains(err, "servers");
    sweep_release(&sw);

    assert_int_equal(load(&sw, "[sweep]\nservers = 4, 0\n", err, sizeof err), 0);
    assert_int_equal(sweep_point_scenario(&sw, 1, NULL, NULL, 0, &sc, err, sizeof err), -1);
    scenario_release(&sc);
    assert_contains(err, "x.ini:2: at servers=0: [sweep] servers: expected an integer");
    sweep_release(&sw);

    /* a scheme's mistake is named at its key's line */
    assert_int_equal(load(&sw, "[sweep]\nb = 2, 0\n[scheme s]\n; the key\nkey = salt($b) ts\n",
                          err, sizeof err), 0);
    assert_int_equal(sweep_point_scenario(&sw, 1, NULL, NULL, 0, &sc, err, sizeof err), -1);
    scenario_release(&sc);
    assert_contains(err, "x.ini:5: at b=0: scheme 's': ");
    sweep_release(&sw);
}

static void test_bad_sections_are_refused(void **state)
{
    (void)state;
    assert_refused("[cluster]\nservers = 3\n", "x.ini: expected a [sweep] section", NULL);
    assert_refused("[sweep]\n[cluster]\nservers = 3\n", "at least one", NULL);
    assert_refused("[sweep]\nb =\n", "x.ini:2: [sweep] b: expected a value", NULL);
    assert_refused("[sweep]\nb = 1,,2\n[cluster]\nservers=$b\n", "x.ini:2:",
                   "between every two commas");
    assert_refused("[sweep]\nb = 1..0\n", "x.ini:2:", "start is at most its end");
    assert_refused("[sweep]\nb = 1..5 stp 2\n", "x.ini:2:", "A..B step S, found '1..5 stp 2'");
    assert_refused("[sweep]\nb = 1..x\n", "x.ini:2:", "integer range");
    assert_refused("[sweep]\nb = 0..9 step 0\n", "x.ini:2:", "a step of 1 or more");
    assert_refused("[sweep]\nb = 0..18446744073709551615\n", "x.ini:2:", "at most 10000 values");
    assert_refused("[sweep]\nb = 0..99999999999999999999\n", "x.ini:2:", "integer range");
    assert_refused("[sweep]\nb = 1111111111111111111111111111111111111111111111111111111111111111"
                   "11111..2\n", "x.ini:2:", "integer range"); /* found by fuzz_sweep */
    assert_refused("[sweep]\na = 1..100\nb = 1..101\n[cluster]\nservers=$a$b\n", "x.ini:3:",
                   "at most 10000 points");
    assert_refused("[sweep]\nb = 2\nb = 3\n", "x.ini:3:", "'b' is already defined");
    assert_refused("[sweep]\n9b = 2\n", "x.ini:2:", "expected a variable name");
    assert_refused("[sweep]\nb = 1, 2\n[scheme s]\nkey = salt(4) ts\n", "x.ini:2:",
                   "neither");
    assert_refused("[sweep]\nb = 1\n[scheme s]\nkey = salt($c) ts\n", "x.ini:4:",
                   "unknown sweep variable '$c'; expected one of the [sweep] section's: b");
    assert_refused("[sweep]\nb = 1\n[cluster]\nservers = ${b\n", "x.ini:4:", "'${b'");
    assert_refused("[sweep]\nb = 1\n[cluster]\nservers = $ 3\n", "x.ini:4:",
                   "expected a sweep variable after '$'");
    assert_refused("[sweep]\nb = 1, $c\n", "x.ini:2:", "no '$'");
    assert_refused("[sweep]\njust words\n", "x.ini:2:", "expected 'NAME = VALUES'");
}

/* Values as numbers for the charts: plain numbers, durations, sizes, each
 * variable all of one kind, or NAN at every point. */
static void test_values_as_numbers(void **state)
{
    (void)state;
    /* 3 points x 5 variables: plain, durations, sizes, a mix, names */
    const char *values[] = { "4",   "10m", "64MiB", "5",   "salt",
                             "0.5", "1h",  "512",   "10m", "osalt",
                             "-2e3", "90s", "1KiB", "1",   "none" };
    double n[15];
    sweep_value_numbers(values, 3, 5, n);
    assert_double_equal(n[0], 4, 0);
    assert_double_equal(n[5], 0.5, 0);
    assert_double_equal(n[10], -2000, 0);
    assert_double_equal(n[1], 600e6, 0);
    assert_double_equal(n[6], 3600e6, 0);
    assert_double_equal(n[11], 90e6, 0);
    assert_double_equal(n[2], 64.0 * 1024 * 1024, 0);
    assert_double_equal(n[7], 512, 0);
    assert_double_equal(n[12], 1024, 0);
    for (size_t p = 0; p < 3; p++) {
        assert_true(isnan(n[p * 5 + 3]));
        assert_true(isnan(n[p * 5 + 4]));
    }
    /* strict: no inf, hex, spaces, a bare sign or dot, a dangling exponent */
    static const char *const bad[] = { "inf", "nan", "0x10", " 4", "4 ", "-", ".", "1e", "1e+",
                                       "+4", "4.5.1", "1e400" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *one[] = { bad[i] };
        double x = 0;
        sweep_value_numbers(one, 1, 1, &x);
        if (!isnan(x))
            fail_msg("'%s' read as %g", bad[i], x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_and_range_expand),
        cmocka_unit_test(test_substitution_keeps_lines_and_comments),
        cmocka_unit_test(test_point_scenarios),
        cmocka_unit_test(test_a_bad_point_is_named),
        cmocka_unit_test(test_bad_sections_are_refused),
        cmocka_unit_test(test_values_as_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
