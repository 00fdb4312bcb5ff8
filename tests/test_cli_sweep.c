/* test_cli_sweep.c -- `regionsim sweep` end to end: every format the same
 * bytes whatever --jobs, the figures moving with the swept variable as the
 * model says they must, assertions at every point, bad [sweep] input
 * refused with FILE:LINE and nothing on stdout, and the HTML page
 * well-formed with one chart per figure the text shows. Runs the
 * binary on tests/data/sweep-small.ini (12 runs, well under a second). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"

#include "tests/cli_support.h"

static char small[512];

static void test_every_format_is_the_same_whatever_the_jobs(void **state)
{
    (void)state;
    static const char *const formats[] = { "text", "json", "csv", "html" };
    for (size_t f = 0; f < 4; f++) {
        output one = run("sweep", small, "--format", formats[f], "--jobs", "1", NULL);
        output three = run("sweep", small, "--format", formats[f], "--jobs", "3", NULL);
        assert_int_equal(one.status, 0);
        assert_int_equal(three.status, 0);
        assert_true(strlen(one.out) > 100);
        assert_string_equal(one.out, three.out);
        output_free(&one);
        output_free(&three);
    }
}

/* A figure of the JSON's point p, run s. */
static double figure_at(json_object *points, size_t p, size_t s, const char *name)
{
    json_object *pt = json_object_array_get_idx(points, p);
    json_object *run = json_object_array_get_idx(member(pt, "runs"), s);
    return json_object_get_double(member(member(run, "figures"), name));
}

static void test_json_follows_the_buckets(void **state)
{
    (void)state;
    output o = run("sweep", small, "--format", "json", NULL);
    assert_int_equal(o.status, 0);
    json_object *doc = json_tokener_parse(o.out);
    assert_non_null(doc);
    json_object *sw = member(doc, "sweep");
    json_object *vars = member(sw, "variables");
    assert_int_equal(json_object_array_length(vars), 2);
    assert_string_equal(json_object_get_string(member(json_object_array_get_idx(vars, 0), "name")),
                        "b");
    json_object *points = member(sw, "points");
    assert_int_equal(json_object_array_length(points), 6);
    /* point index = b's index x 2 + servers' index: b = 1, 2, 4 at 4 servers */
    double w1 = figure_at(points, 0, 0, "write_max_mean"), w2 = figure_at(points, 2, 0, "write_max_mean"),
           w4 = figure_at(points, 4, 0, "write_max_mean");
    assert_true(w1 > w2 && w2 > w4);
    double r1 = figure_at(points, 0, 0, "rpcs_per_read_metric"),
           r4 = figure_at(points, 4, 0, "rpcs_per_read_metric");
    assert_true(r4 > r1);
    /* the unsalted scheme does not move with b */
    assert_true(figure_at(points, 0, 1, "write_max_mean") == figure_at(points, 4, 1, "write_max_mean"));
    /* every registry figure is there (a merge can rebuild the report) */
    json_object *figs = member(json_object_array_get_idx(member(json_object_array_get_idx(points, 0),
                                                                 "runs"), 0), "figures");
    assert_true(json_object_object_length(figs) > 90);
    json_object_put(doc);
    output_free(&o);
}

static void test_csv_is_one_row_per_point_and_scheme(void **state)
{
    (void)state;
    output o = run("sweep", small, "--format", "csv", NULL);
    assert_int_equal(o.status, 0);
    assert_int_equal(count_lines_with(o.out, ",tsdb,"), 6);
    assert_int_equal(count_lines_with(o.out, ",plain,"), 6);
    assert_true(!strncmp(o.out, "point,b,servers,scheme,run,writes,", 34));
    output_free(&o);
}

static void test_assertions_apply_at_every_point(void **state)
{
    (void)state;
    output o = run("sweep", small, "--assert", "write_max_mean <= 2.5 for tsdb", NULL);
    assert_int_equal(o.status, 1);
    /* b=1 fails at both server counts, b=2 at 8 servers: three lines */
    assert_int_equal(count_lines_with(o.err, "FAILED"), 3);
    assert_contains(o.err, "at b=1 servers=4: FAILED");
    assert_contains(o.err, "at b=2 servers=8: FAILED");
    assert_true(strstr(o.err, "at b=4 servers=4") == NULL);
    assert_contains(o.out, "assertions: 6 checked over the points, 3 failed");
    output_free(&o);
    o = run("sweep", small, "--assert", "write_max_mean <= 8.5", NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    o = run("sweep", small, "--assert", "write_max_men <= 8", NULL);
    assert_int_equal(o.status, 2);
    assert_contains(o.err, "did you mean 'write_max_mean'");
    assert_string_equal(o.out, "");
    output_free(&o);
}

/* strstr's verdict without printing hay (which GCC's -Wformat-overflow
 * cannot prove is not NULL once inlined into assert_contains) */
#define assert_in(hay, needle) assert_non_null(strstr((hay), (needle)))

/* --junit: a testcase per assertion, scheme and point, the point in the
 * name; the file is written even when an assertion fails (exit 1), and
 * refused with --plan (the merge writes it) and --result. */
static void test_junit_has_a_case_per_point(void **state)
{
    (void)state;
    char junit[64];
    snprintf(junit, sizeof junit, "/tmp/regionsim-sweep-junit-%ld.xml", (long)getpid());
    unlink(junit);
    output o = run("sweep", small, "--assert", "write_max_mean <= 2.5 for tsdb", "--junit",
                   junit, NULL);
    assert_int_equal(o.status, 1);
    output_free(&o);
    FILE *f = fopen(junit, "r");
    assert_non_null(f);
    char *xml = slurp(f);
    assert_non_null(xml);
    assert_int_equal(count_lines_with(xml, "<testcase "), 6);
    assert_int_equal(count_lines_with(xml, "<failure "), 3);
    assert_in(xml, "<testsuite name=\"sweep-small\" tests=\"6\" failures=\"3\"");
    assert_in(xml, "<testcase name=\"write_max_mean &lt;= 2.5 [b=2 servers=8]\" "
                         "classname=\"sweep-small.tsdb\" time=\"0\">");
    assert_in(xml, "<testcase name=\"write_max_mean &lt;= 2.5 [b=4 servers=4]\" "
                         "classname=\"sweep-small.tsdb\" time=\"0\"/>");
    assert_in(xml, ">write_max_mean &lt;= 2.5 [b=1 servers=8] for tsdb: value 8, bound "
                         "2.5</failure>");
    free(xml);
    assert_well_formed_xml(junit);
    unlink(junit);
    assert_usage_error(run("sweep", small, "--junit", junit, "--plan", "/tmp/regionsim-no-plan",
                           NULL), "pass --junit", "to 'regionsim merge DIR'");
    assert_usage_error(run("sweep", small, "--junit", junit, "--result", "/tmp/r.json", NULL),
                       "--result", "--junit");
    assert_int_equal(access(junit, F_OK), -1);
    assert_int_equal(access("/tmp/regionsim-no-plan", F_OK), -1);
}

/* Writes text to a temporary file; returns its path (static buffer). */
static const char *scenario_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/regionsim-sweep-%ld.ini", (long)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_bad_input_exits_2_naming_the_line(void **state)
{
    (void)state;
    static const struct { const char *text, *want; } cases[] = {
        { "[sweep]\nb = 4..1\n", ".ini:2: [sweep] b: expected a range whose start" },
        { "[sweep]\nb = 1\n[scheme s]\nkey = salt($c) ts\n", ".ini:4: unknown sweep variable '$c'" },
        { "[sweep]\nb = 2, 0\n[cluster]\nservers = $b\n", ".ini:4: at b=0: " },
        { "[sweep]\nservers = 2, 0\n", ".ini:2: at servers=0: [sweep] servers: expected" },
        { "[sweep]\nb = 1, 2\n", ".ini:2: [sweep] b: expected a scenario setting" },
        { "[cluster]\nservers = 2\n", ".ini: expected a [sweep] section" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *path = scenario_file(cases[i].text);
        output o = run("sweep", path, NULL);
        assert_int_equal(o.status, 2);
        assert_string_equal(o.out, "");
        assert_contains(o.err, cases[i].want);
        output_free(&o);
        unlink(path);
    }
    output o = run("sweep", small, "--format", "pdf", NULL);
    assert_int_equal(o.status, 2);
    assert_contains(o.err, "--format: expected text, json, csv or html, found 'pdf'");
    output_free(&o);
}

static void test_html_has_a_chart_per_figure(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/regionsim-sweep-%ld.html", (long)getpid());
    output o = run("sweep", small, "--format", "html", "-o", path, NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "");
    output_free(&o);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *html = slurp(f);
    output text = run("sweep", small, NULL);
    /* the text's columns note names each shown figure once: " = NAME" */
    size_t shown = 0;
    for (const char *p = strstr(text.out, "columns"); p && (p = strstr(p, " = ")); p += 3)
        shown++;
    assert_int_equal(shown, 8);
    assert_int_equal(count_lines_with(html, "<figure class=\"chart\""), shown);
    assert_contains(html, "data-figure=\"rpcs_per_read_metric\"");
    /* a line per scheme and server count: 2 x 2, four legend entries a chart */
    assert_int_equal(count_lines_with(html, "<g class=\"series\""), shown * 4);
    assert_well_formed_xml(path);
    free(html);
    output_free(&text);
    unlink(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cli_sweep PATH-TO-REGIONSIM [SOURCE-ROOT]\n");
        return 2;
    }
    binary = argv[1];
    source_root = argc > 2 ? argv[2] : ".";
    snprintf(small, sizeof small, "%s/tests/data/sweep-small.ini", source_root);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_format_is_the_same_whatever_the_jobs),
        cmocka_unit_test(test_json_follows_the_buckets),
        cmocka_unit_test(test_csv_is_one_row_per_point_and_scheme),
        cmocka_unit_test(test_assertions_apply_at_every_point),
        cmocka_unit_test(test_junit_has_a_case_per_point),
        cmocka_unit_test(test_bad_input_exits_2_naming_the_line),
        cmocka_unit_test(test_html_has_a_chart_per_figure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
