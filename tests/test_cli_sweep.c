/* test_cli_sweep.c -- `regionsim sweep` end to end: every format the same
 * bytes whatever --jobs, the figures moving with the swept variable as the
 * model says they must, assertions at every point, bad [sweep] input
 * refused with FILE:LINE and nothing on stdout, and the HTML page
 * well-formed with one chart per figure the text shows, and --baseline
 * (points matched by value, regressions, refusals, --tolerance); --plan
 * into a directory that is not yours alone refused, a full disk leaving no
 * plan, and a plan whose scenario names files by relative paths run from
 * / and merged into the local report. Runs the binary on
 * tests/data/sweep-small.ini (12 runs, well under a second). */
#define _XOPEN_SOURCE 700 /* mkdtemp, realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
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

/* A point whose servers cannot keep up is named overloaded after the
 * table, with done/offered; one that keeps up is not, and a sweep that
 * keeps up everywhere has no such block. At 60 ms an RPC a server serves
 * 16.7 a second: one salt bucket's server takes all 40 (2.4 s of work a
 * second: 240.0%, and the queue never empties), two take 20 each plus
 * their scans, four keep up. */
static void test_overloaded_points_are_named(void **state)
{
    (void)state;
    output o = run("sweep", small, "--rpc-time", "60ms", NULL);
    assert_int_equal(o.status, 0);
    const char *block = strstr(o.out, "\noverloaded (a server over 100% busy, or under 99% of "
                                      "the offered operations done):\n");
    assert_non_null(block);
    assert_true(block > strstr(o.out, "scheme"));
    /* done: what the one server serves, 1 / 60 ms = 16.7 a second, though
     * its queue began in the warm-up (before measure_from) */
    assert_contains(block, "  at b=1 servers=4: tsdb: overloaded: 17 of 40 ops/s done, busiest "
                           "server 240.0% busy\n");
    assert_contains(block, "  at b=2 servers=8: tsdb: overloaded: "); /* half each: 120%+ */
    assert_null(strstr(block, "at b=4 servers=4: tsdb"));
    assert_contains(block, "at b=4 servers=4: plain: overloaded");
    output_free(&o);
    o = run("sweep", small, NULL);
    assert_int_equal(o.status, 0);
    assert_null(strstr(o.out, "overloaded ("));
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
    /* every point runs the default seeds: the worst seed's value, and how
     * many failed */
    assert_in(xml, ">write_max_mean &lt;= 2.5 [b=1 servers=8] for tsdb: value 8, bound "
                         "2.5 (seed 42, the worst of ");
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

/* ---- --baseline ---- */

/* text to a temporary file named after tag, its path into path (cap
 * bytes); returns path. */
static const char *temp_file(char *path, size_t cap, const char *tag, const char *text)
{
    snprintf(path, cap, "/tmp/regionsim-sweep-baseline-%ld-%s", (long)getpid(), tag);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* json with the first occurrence of from after the marker `after` (and
 * after `within` after it, when not NULL) replaced by to. malloc'd. */
static char *edit(const char *json, const char *after, const char *within, const char *from,
                  const char *to)
{
    const char *at = strstr(json, after);
    assert_non_null(at);
    if (within) {
        at = strstr(at, within);
        assert_non_null(at);
    }
    at = strstr(at, from);
    assert_non_null(at);
    size_t head = (size_t)(at - json), tail = strlen(at + strlen(from));
    char *out = malloc(head + strlen(to) + tail + 1);
    assert_non_null(out);
    memcpy(out, json, head);
    strcpy(out + head, to);
    strcat(out + head, at + strlen(from));
    return out;
}

/* json with the number after `"NAME": ` in point `index`'s run of scheme
 * replaced by value. malloc'd. */
static char *edit_figure(const char *json, int index, const char *scheme, const char *name,
                         const char *value)
{
    char point[32], run[64], key[80];
    snprintf(point, sizeof point, "{\"index\": %d,", index);
    snprintf(run, sizeof run, "{\"scheme\": \"%s\"", scheme);
    snprintf(key, sizeof key, "\"%s\": ", name);
    const char *at = strstr(strstr(strstr(json, point), run), key);
    assert_non_null(at);
    at += strlen(key);
    size_t len = strcspn(at, ",}");
    char old[64];
    assert_true(len < sizeof old);
    memcpy(old, at, len);
    old[len] = '\0';
    char from[160], to[160];
    snprintf(from, sizeof from, "%s%s", key, old);
    snprintf(to, sizeof to, "%s%s", key, value);
    return edit(json, point, run, from, to);
}

/* The line of text holding needle, copied into line (the test fails when
 * there is none). */
static const char *line_with(const char *text, const char *needle, char *line, size_t cap)
{
    const char *at = strstr(text, needle);
    assert_non_null(at);
    while (at > text && at[-1] != '\n')
        at--;
    size_t n = strcspn(at, "\n");
    assert_true(n < cap);
    memcpy(line, at, n);
    line[n] = '\0';
    return line;
}

/* text is one line, ended by its newline */
static void assert_one_line(const char *text)
{
    assert_non_null(strchr(text, '\n'));
    assert_string_equal(strchr(text, '\n'), "\n");
}

static char *sweep_json(void)
{
    output o = run("sweep", small, "--format", "json", NULL);
    assert_int_equal(o.status, 0);
    free(o.err);
    return o.out;
}

/* The figures a sweep's JSON report defines (not null), over every point
 * and run. */
static size_t defined_figures(const char *json)
{
    json_object *doc = json_tokener_parse(json);
    assert_non_null(doc);
    json_object *points = member(member(doc, "sweep"), "points");
    size_t n = 0;
    for (size_t p = 0; p < json_object_array_length(points); p++) {
        json_object *runs = member(json_object_array_get_idx(points, p), "runs");
        for (size_t r = 0; r < json_object_array_length(runs); r++) {
            json_object_object_foreach(member(json_object_array_get_idx(runs, r), "figures"),
                                       name, v) {
                (void)name;
                n += !json_object_is_type(v, json_type_null);
            }
        }
    }
    json_object_put(doc);
    return n;
}

/* The same sweep as its own baseline: every point and scheme compared, no
 * change even at --tolerance 0 (every figure, no floor), the report on
 * stdout the same bytes as without --baseline; a pass is one line. */
static void test_baseline_of_the_same_sweep_has_no_change(void **state)
{
    (void)state;
    char path[128], want[256];
    char *json = sweep_json();
    temp_file(path, sizeof path, "same.json", json);
    output plain = run("sweep", small, NULL);
    output o = run("sweep", small, "--baseline", path, NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, plain.out);
    snprintf(want, sizeof want, "regionsim sweep: ");
    assert_true(!strncmp(o.err, want, strlen(want)));
    snprintf(want, sizeof want, " figures within baseline %s at 6 points\n", path);
    assert_contains(o.err, want);
    assert_one_line(o.err); /* no table, nothing unmatched */
    output_free(&o);
    o = run("sweep", small, "--baseline", path, "--baseline-figures", "all", "--tolerance", "0",
            "--tolerance-abs", "0", NULL);
    assert_int_equal(o.status, 0);
    assert_contains(o.err, want);
    assert_one_line(o.err);
    /* every figure the JSON defines is compared (2 schemes x 6 points; some
     * figures, such as warmup_us, are defined at some points only) */
    size_t compared = strtoul(strstr(o.err, ": ") + 2, NULL, 10);
    assert_true(compared > 12 * 80);
    assert_int_equal(compared, defined_figures(json));
    output_free(&o);
    output_free(&plain);
    free(json);
    unlink(path);
}

/* A figure better in the baseline beyond the tolerance is a regression
 * (exit 1) named with its point and scheme, with the baseline, the limit
 * it crossed and the change; within it (--tolerance 0.5, or that figure's
 * own), not; one worse in the baseline is an improvement; a count that
 * moved (judged when chosen) is listed as changed and never fails. */
static void test_baseline_regression_names_point_and_scheme(void **state)
{
    (void)state;
    char path[128], line[512];
    char *json = sweep_json();
    /* b=2 servers=4 is point 2; tsdb's write_max_mean there is about 2.0 */
    char *better = edit_figure(json, 2, "tsdb", "write_max_mean", "1.5");
    char *both = edit_figure(better, 4, "tsdb", "write_max_mean", "3");
    char *edited = edit_figure(both, 3, "plain", "regions", "100");
    temp_file(path, sizeof path, "worse.json", edited);
    output o = run("sweep", small, "--baseline", path, "--baseline-figures", "headline,regions",
                   NULL);
    assert_int_equal(o.status, 1);
    assert_contains(o.err, "at 6 points, 1 regression\n");
    line_with(o.err, "REGRESSION", line, sizeof line);
    assert_contains(line, "  b=2 servers=4 tsdb ");
    assert_contains(line, " write_max_mean ");
    assert_contains(line, " 1.5 ");
    assert_contains(line, " <= 1.575 "); /* 1.5 + 5% */
    assert_int_equal(count_lines_with(o.err, "REGRESSION"), 1);
    line_with(o.err, " better", line, sizeof line);
    assert_contains(line, "b=4 servers=4 tsdb ");
    line_with(o.err, " changed", line, sizeof line);
    assert_contains(line, "b=2 servers=8 plain ");
    assert_contains(line, " regions ");
    /* the table's header, then regressions first */
    assert_true(strstr(o.err, "point ") < strstr(o.err, "REGRESSION"));
    assert_true(strstr(o.err, "REGRESSION") < strstr(o.err, " better"));
    output_free(&o);
    /* +34% is within 50%: no regression, one line */
    o = run("sweep", small, "--baseline", path, "--tolerance", "0.5", NULL);
    assert_int_equal(o.status, 0);
    assert_contains(o.err, "figures within baseline");
    assert_one_line(o.err);
    output_free(&o);
    o = run("sweep", small, "--baseline", path, "--tolerance", "write_max_mean=0.5", NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    o = run("sweep", small, "--baseline", path, "--tolerance", "0.3", NULL);
    assert_int_equal(o.status, 1);
    output_free(&o);
    /* a regression and a failed assertion: both reported, exit 1 */
    o = run("sweep", small, "--baseline", path, "--assert", "write_max_mean <= 2.5 for tsdb",
            NULL);
    assert_int_equal(o.status, 1);
    assert_contains(o.err, "at 6 points, 1 regression\n");
    assert_contains(o.err, "3 assertion results failed at 3 points");
    output_free(&o);
    free(json);
    free(better);
    free(both);
    free(edited);
    unlink(path);
}

/* Points are matched by value: a sweep with a value more (b = 8) compares
 * the six points both have and counts its two others; a baseline point
 * at a value this sweep lacks is counted on the other side. */
static void test_baseline_matches_points_by_value(void **state)
{
    (void)state;
    char path[128], ini[128];
    char *json = sweep_json();
    temp_file(path, sizeof path, "small.json", json);
    FILE *f = fopen(small, "r");
    assert_non_null(f);
    char *text = slurp(f);
    char *more = edit(text, "[sweep]", NULL, "b = 1, 2, 4", "b = 1, 8, 2, 4");
    temp_file(ini, sizeof ini, "more.ini", more);
    output o = run("sweep", ini, "--baseline", path, NULL);
    assert_int_equal(o.status, 0);
    assert_contains(o.err, "at 6 points (2 points of this sweep not in the baseline)\n");
    output_free(&o);
    /* the baseline has b=16 where this sweep has b=1 at 4 servers */
    char *moved = edit(json, "{\"index\": 0,", NULL, "\"b\": \"1\"", "\"b\": \"16\"");
    temp_file(path, sizeof path, "moved.json", moved);
    o = run("sweep", small, "--baseline", path, NULL);
    assert_int_equal(o.status, 0);
    assert_contains(o.err, "at 5 points (1 point of this sweep not in the baseline, 1 point of "
                           "the baseline not in this sweep)\n");
    output_free(&o);
    /* a scheme the baseline has and this sweep does not */
    char *scheme = edit(json, "\"schemes\": [", NULL, "\"plain\"]", "\"plain\", \"gone\"]");
    temp_file(path, sizeof path, "scheme.json", scheme);
    o = run("sweep", small, "--baseline", path, NULL);
    assert_int_equal(o.status, 0);
    assert_contains(o.err, "(1 scheme of the baseline not in this sweep)\n");
    output_free(&o);
    unlink(path);
    unlink(ini);
    free(json);
    free(text);
    free(more);
    free(moved);
    free(scheme);
}

/* A baseline that cannot be compared: exit 2, nothing on stdout, the file
 * and what differs named; before anything runs or is written. */
static void test_baseline_refused(void **state)
{
    (void)state;
    char path[128], out[128];
    char *json = sweep_json();
    static const struct { const char *from, *to, *want; } edits[] = {
        { "\"scenario\": \"sweep-small\"", "\"scenario\": \"other\"",
          "a baseline of another scenario ('other'; this sweep: 'sweep-small')" },
        { "{\"name\": \"servers\"", "{\"name\": \"hosts\"",
          "a baseline of other variables (b, hosts; this sweep: b, servers)" },
        { "\"version\": 1,", "\"version\": 7,", "a sweep report of version 7; this regionsim "
          "writes version 1" },
        { "\"version\": 1,", "", "a sweep report without a \"version\"" },
        { "\"sweep\": {", "\"regionsim\": 4, \"run\": {", "a run's JSON report, not a sweep's" },
        { "\"points\": [", "\"points\": 3, \"x\": [", "expected a sweep report" },
        { "\"values\": {\"b\": \"1\", ", "\"values\": {", "points[0]: expected {\"values\"" },
    };
    snprintf(out, sizeof out, "/tmp/regionsim-sweep-baseline-%ld-o.txt", (long)getpid());
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char *bad = edit(json, "", NULL, edits[i].from, edits[i].to);
        temp_file(path, sizeof path, "bad.json", bad);
        output o = run("sweep", small, "--baseline", path, "-o", out, NULL);
        assert_contains(o.err, edits[i].want);
        assert_contains(o.err, path);
        assert_usage_error(o, "regionsim sweep: --baseline ", NULL);
        assert_int_equal(access(out, F_OK), -1); /* no report written */
        free(bad);
    }
    /* measured otherwise (known once the sweep has run): refused, no report */
    temp_file(path, sizeof path, "measured.json", json);
    output m = run("sweep", small, "--baseline", path, "--measure-from", "auto", "-o", out, NULL);
    assert_contains(m.err, "a baseline measured from 2 min (measure_from); this sweep is measured "
                           "from each run's warm-up (measure_from = auto): compare sweeps "
                           "measured alike");
    assert_usage_error(m, "regionsim sweep: --baseline ", path);
    assert_int_equal(access(out, F_OK), -1);
    char *bad = edit(json, "", NULL, "\"measure_auto\": false", "\"measure_auto\": 0");
    temp_file(path, sizeof path, "bad.json", bad);
    assert_usage_error(run("sweep", small, "--baseline", path, NULL),
                       "\"measure_auto\": expected true or false", path);
    free(bad);
    /* no point in common */
    char *b1 = json, *b2 = NULL;
    const char *const values[] = { "\"b\": \"1\"", "\"b\": \"2\"", "\"b\": \"4\"" };
    const char *const others[] = { "\"b\": \"10\"", "\"b\": \"20\"", "\"b\": \"40\"" };
    for (size_t k = 0; k < 6; k++) {
        b2 = edit(b1, "\"points\": [", NULL, values[k / 2], others[k / 2]);
        if (b1 != json)
            free(b1);
        b1 = b2;
    }
    temp_file(path, sizeof path, "none.json", b1);
    assert_usage_error(run("sweep", small, "--baseline", path, NULL), "no point in common",
                       path);
    /* two points at the same values */
    free(b1);
    b1 = edit(json, "{\"index\": 1,", NULL, "\"servers\": \"8\"", "\"servers\": \"4\"");
    temp_file(path, sizeof path, "twice.json", b1);
    assert_usage_error(run("sweep", small, "--baseline", path, NULL),
                       "points[0] and points[1] have the same values", NULL);
    free(b1);
    temp_file(path, sizeof path, "cut.json", "{\"sweep\": ");
    assert_usage_error(run("sweep", small, "--baseline", path, NULL),
                       "not JSON (the file ends inside the document)", path);
    unlink(path);
    assert_usage_error(run("sweep", small, "--baseline", path, NULL), path, "No such file");
    free(json);
}

/* --tolerance: a relative change from 0 to 1e6, only with --baseline;
 * --baseline refused with --plan (pointing to merge) and --result. */
static void test_baseline_options(void **state)
{
    (void)state;
    static const char *const bad[] = { "-0.1", "nan", "1e7", "5%", "", "inf" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_usage_error(run("sweep", small, "--baseline", "/dev/null", "--tolerance", bad[i],
                               NULL), "--tolerance: expected a relative change", NULL);
    assert_usage_error(run("sweep", small, "--tolerance", "0.1", NULL),
                       "--tolerance: only with --baseline", NULL);
    assert_usage_error(run("sweep", small, "--baseline", "x.json", "--plan",
                           "/tmp/regionsim-no-plan", NULL),
                       "pass --baseline x.json to 'regionsim merge DIR'", NULL);
    assert_int_equal(access("/tmp/regionsim-no-plan", F_OK), -1);
    assert_usage_error(run("sweep", small, "--baseline", "x.json", "--result", "/tmp/r.json",
                           NULL), "--result", "--baseline");
    assert_usage_error(run("merge", "/tmp", "--tolerance", "0.1", NULL),
                       "--tolerance: only with --baseline", NULL);
    assert_usage_error(run("merge", "/tmp", "--baseline", "x.json", "--tolerance", "-1", NULL),
                       "--tolerance: expected a relative change", NULL);
    output o = run("sweep", "--help", NULL);
    assert_contains(o.out, "--baseline OLD.json");
    assert_contains(o.out, "--tolerance F");
    output_free(&o);
    o = run("merge", "--help", NULL);
    assert_contains(o.out, "--baseline OLD.json");
    output_free(&o);
}

/* ---- sweep --plan: directories that are yours, complete or absent,
 * paths that work from anywhere ---- */

/* A fresh directory under the run's temporary one, by its real path. */
static void plan_work_dir(char *out, size_t cap, const char *name)
{
    char made[PATH_MAX];
    snprintf(made, sizeof made, "/tmp/regionsim-cli-plan-XXXXXX");
    assert_non_null(mkdtemp(made));
    assert_non_null(realpath(made, out));
    assert_true(strlen(out) + strlen(name) + 2 < cap);
    strcat(out, "/");
    strcat(out, name);
    assert_int_equal(mkdir(out, 0755), 0);
}

/* Removes what plan_work_dir made (its parent too). */
static void plan_work_done(const char *dir)
{
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    *strrchr(parent, '/') = '\0';
    test_remove_tree(parent);
}

static int path_exists(const char *dir, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* A scenario that names its trace and split keys file relative to itself,
 * the trace through a variable, and a split keys file given relative to
 * the working directory: planned there, its jobs run from / (as ssh or
 * Slurm start them elsewhere), the merge is the local sweep's report. */
static void test_plan_with_relative_paths_runs_from_anywhere(void **state)
{
    (void)state;
    char w[PATH_MAX], path[PATH_MAX + 64], cmd[2 * PATH_MAX];
    plan_work_dir(w, sizeof w, "w");
    char old[PATH_MAX];
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(w), 0);
    assert_int_equal(mkdir("scn", 0755), 0);
    assert_int_equal(mkdir("scn/data", 0755), 0);
    static const char *const files[][2] = {
        { "scn/s.ini", "name = relative\n[sweep]\nt = a, b\nservers = 2, 4\n"
                       "[workload]\ntrace = data/$t.csv\n[scheme k]\nkey = key\n" },
        { "scn/data/a.csv", "0,put,a1,100\n1000,put,b2,100\n2000,get,a1\n" },
        { "scn/data/b.csv", "0,put,c1,100\n1000,put,d2,100\n" },
        { "keys.txt", "b\nc\n" },
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        FILE *f = fopen(files[i][0], "w");
        assert_non_null(f);
        fputs(files[i][1], f);
        assert_int_equal(fclose(f), 0);
    }
    output o = run("sweep", "scn/s.ini", "--split-keys-file", "keys.txt", "--plan", "plan", NULL);
    if (o.status != 0)
        fail_msg("sweep --plan exited %d: %s", o.status, o.err);
    output_free(&o);
    snprintf(cmd, sizeof cmd, "cd / && sh '%s/plan/jobs.txt'", w);
    assert_int_equal(system(cmd), 0);
    for (int p = 0; p < 4; p++) {
        snprintf(path, sizeof path, "plan/results/%04d.json", p);
        assert_int_equal(access(path, F_OK), 0);
    }
    output local = run("sweep", "scn/s.ini", "--split-keys-file", "keys.txt", NULL);
    snprintf(path, sizeof path, "%s/plan", w);
    output merged = run("merge", path, NULL);
    assert_int_equal(local.status, 0);
    assert_int_equal(merged.status, 0);
    assert_contains(local.out, "sweep relative: 4 points");
    assert_string_equal(merged.out, local.out);
    output_free(&local);
    output_free(&merged);
    /* an option's relative path alone (the scenario by its absolute path) */
    o = run("sweep", small, "--split-keys-file", "keys.txt", "--plan", "plan2", NULL);
    if (o.status != 0)
        fail_msg("sweep --plan exited %d: %s", o.status, o.err);
    output_free(&o);
    snprintf(cmd, sizeof cmd, "cd / && sh '%s/plan2/jobs.txt' 2>/dev/null", w);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(access("plan2/results/0005.json", F_OK), 0);
    assert_int_equal(chdir(old), 0);
    plan_work_done(w);
}

/* A directory others can write, or someone else's: exit 2, nothing on
 * stdout, the directory as it was. */
static void test_plan_refuses_a_directory_that_is_not_yours_alone(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    plan_work_dir(dir, sizeof dir, "open");
    assert_int_equal(chmod(dir, 0777), 0);
    assert_usage_error(run("sweep", small, "--plan", dir, NULL), dir,
                       "is writable by its group and everyone (mode 0777): a plan's directory "
                       "must be writable by you alone");
    assert_false(path_exists(dir, "jobs.txt"));
    plan_work_done(dir);
}

/* As root: an empty directory of another user's (nobody's), likewise. */
static void test_plan_refuses_another_user_s_directory(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    plan_work_dir(dir, sizeof dir, "theirs");
    assert_int_equal(chown(dir, 65534, 65534), 0);
    assert_usage_error(run("sweep", small, "--plan", dir, NULL), dir,
                       "uid 65534), not to you (root (uid 0)): a plan's directory must be "
                       "yours");
    assert_false(path_exists(dir, "jobs.txt"));
    plan_work_done(dir);
}

/* A full disk (files limited to a size): exit 2, the message says the
 * plan is incomplete, and nothing of it is left: not the binary's copy,
 * not a jobs.txt cut short. */
static void test_plan_on_a_full_disk_leaves_nothing(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64];
    plan_work_dir(dir, sizeof dir, "ref");
    assert_int_equal(rmdir(dir), 0);
    output o = run("sweep", small, "--plan", dir, "--slurm", NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    long point = 0, jobs;
    struct stat st;
    for (int p = 0; p < 6; p++) {
        snprintf(path, sizeof path, "%s/points/%04d.ini", dir, p);
        assert_int_equal(stat(path, &st), 0);
        point = st.st_size > point ? (long)st.st_size : point;
    }
    snprintf(path, sizeof path, "%s/jobs.txt", dir);
    assert_int_equal(stat(path, &st), 0);
    jobs = (long)st.st_size;
    test_remove_tree(dir);
    /* the binary's copy; the first file past the points; jobs.txt cut in two */
    const long limits[] = { 65536, point, jobs / 2 };
    for (size_t i = 0; i < 3; i++) {
        child_env env = plain_env;
        env.fsize_limit = limits[i];
        o = run_env(&env, "sweep", small, "--plan", dir, "--slurm", NULL);
        assert_int_equal(o.status, 2);
        assert_string_equal(o.out, "");
        assert_contains(o.err, dir);
        assert_contains(o.err, ": the plan is incomplete: ");
        assert_contains(o.err, "write failed: File too large; nothing of it was kept (the "
                               "directory, which this run made, is removed)");
        assert_int_equal(access(dir, F_OK), -1);
        output_free(&o);
    }
    plan_work_done(dir);
}

int main(int argc, char **argv)
{
    cli_args(argc, argv);
    snprintf(small, sizeof small, "%s/tests/data/sweep-small.ini", source_root);
    /* `cli_sweep_root` (--as-root): what only root can set up; without root
     * it exits 77, skipped, or fails under CI (tests/support.h) */
    if (test_has_arg(argc, argv, "--as-root")) {
        if (geteuid() != 0)
            return test_cannot_run("cli_sweep_root", "needs root (a directory of another "
                                   "user's)", test_in_ci());
        const struct CMUnitTest root_tests[] = {
            cmocka_unit_test(test_plan_refuses_another_user_s_directory),
        };
        return cmocka_run_group_tests(root_tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_format_is_the_same_whatever_the_jobs),
        cmocka_unit_test(test_json_follows_the_buckets),
        cmocka_unit_test(test_csv_is_one_row_per_point_and_scheme),
        cmocka_unit_test(test_overloaded_points_are_named),
        cmocka_unit_test(test_assertions_apply_at_every_point),
        cmocka_unit_test(test_junit_has_a_case_per_point),
        cmocka_unit_test(test_bad_input_exits_2_naming_the_line),
        cmocka_unit_test(test_html_has_a_chart_per_figure),
        cmocka_unit_test(test_baseline_of_the_same_sweep_has_no_change),
        cmocka_unit_test(test_baseline_regression_names_point_and_scheme),
        cmocka_unit_test(test_baseline_matches_points_by_value),
        cmocka_unit_test(test_baseline_refused),
        cmocka_unit_test(test_baseline_options),
        cmocka_unit_test(test_plan_with_relative_paths_runs_from_anywhere),
        cmocka_unit_test(test_plan_refuses_a_directory_that_is_not_yours_alone),
        cmocka_unit_test(test_plan_on_a_full_disk_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
