/* test_sweep_html.c -- the sweep's HTML charts (reports/sweep_html.c): the
 * x axis to scale (log, linear, or equal steps for values that are not
 * numbers), lines joined in ascending x, undefined values breaking a
 * line, and small multiples past 8 lines. Tables are made here by hand,
 * their values read as numbers by sim's sweep_value_numbers as a sweep's
 * are, so nothing is simulated. Every page is checked with xmllint (when
 * installed). */
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

#include "reports/sweep_report.h"
#include "scenario/sweep.h"
#include "tests/cli_support.h"

#define MAX_VALUES 4096

/* A table of nvars variables (their values comma-separated in lists[v])
 * and nschemes schemes; every figure of point p and scheme s is
 * 1 + p + 10 s, but point `undefined` (if < npoints) has NAN for scheme
 * 0. */
typedef struct made {
    sweep_table t;
    const char *names[4];
    size_t nvalues[4];
    char *split[4][64];
    const char *values[MAX_VALUES];
    double numbers[MAX_VALUES];
    const char *schemes[4];
    char *run_names[MAX_VALUES];
    double *figures;
    char *lists[4];
} made;

static void make(made *m, size_t nvars, const char *const *names, const char *const *lists,
                 size_t nschemes, size_t undefined)
{
    memset(m, 0, sizeof *m);
    size_t npoints = 1;
    for (size_t v = 0; v < nvars; v++) {
        m->names[v] = names[v];
        m->lists[v] = strdup(lists[v]);
        for (char *tok = strtok(m->lists[v], ","); tok; tok = strtok(NULL, ",")) {
            while (*tok == ' ')
                tok++;
            m->split[v][m->nvalues[v]++] = tok;
        }
        npoints *= m->nvalues[v];
    }
    assert_true(npoints * nvars <= MAX_VALUES && npoints * nschemes <= MAX_VALUES);
    for (size_t p = 0; p < npoints; p++) {
        size_t rest = p;
        for (size_t v = nvars; v-- > 0;) {
            m->values[p * nvars + v] = m->split[v][rest % m->nvalues[v]];
            rest /= m->nvalues[v];
        }
    }
    sweep_value_numbers(m->values, npoints, nvars, m->numbers);
    static const char *const scheme_names[] = { "salted", "plain", "osalt", "hashed" };
    for (size_t s = 0; s < nschemes; s++)
        m->schemes[s] = scheme_names[s];
    sweep_table *t = &m->t;
    t->scenario = "made";
    t->file = "made.ini";
    t->nvars = nvars;
    t->var_names = m->names;
    t->var_nvalues = m->nvalues;
    t->npoints = npoints;
    t->values = m->values;
    t->numbers = m->numbers;
    t->nschemes = nschemes;
    t->schemes = m->schemes;
    t->run_names = m->run_names;
    for (size_t i = 0; i < npoints * nschemes; i++)
        m->run_names[i] = (char *)m->schemes[i % nschemes];
    t->nfigures = sweep_figure_count();
    m->figures = malloc(npoints * nschemes * t->nfigures * sizeof *m->figures);
    assert_non_null(m->figures);
    for (size_t p = 0; p < npoints; p++)
        for (size_t s = 0; s < nschemes; s++)
            for (size_t k = 0; k < t->nfigures; k++)
                m->figures[(p * nschemes + s) * t->nfigures + k] =
                    p == undefined && s == 0 ? NAN : 1.0 + (double)p + 10.0 * (double)s;
    t->figures = m->figures;
}

static void unmake(made *m)
{
    free(m->figures);
    for (size_t v = 0; v < 4; v++)
        free(m->lists[v]);
}

/* The page for the table (malloc'd), checked to be well-formed XML. */
static char *page(const made *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    sweep_write_html(f, &m->t);
    assert_int_equal(fclose(f), 0);
    char path[64];
    snprintf(path, sizeof path, "/tmp/regionsim-sweep-html-%ld.html", (long)getpid());
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(text, out);
    fclose(out);
    assert_well_formed_xml(path);
    unlink(path);
    return text;
}

/* The x of the first chart's first point whose tooltip says " at WHAT:". */
static double x_of(const char *html, const char *what)
{
    char needle[128];
    snprintf(needle, sizeof needle, " at %s: ", what);
    const char *hit = strstr(html, needle);
    if (!hit)
        fail_msg("no point at %s", what);
    const char *c = hit;
    while (c > html && strncmp(c, "<circle cx=\"", 12))
        c--;
    return strtod(c + 12, NULL);
}

static void assert_page_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("the page does not contain '%s'", part);
}

static size_t count(const char *text, const char *part)
{
    size_t n = 0;
    for (const char *p = strstr(text, part); p; p = strstr(p + 1, part))
        n++;
    return n;
}

/* 4, 8, 16, 20, 32, 64: a log axis, each doubling the same width, 16 and
 * 20 closer than 8 and 16. */
static void test_powers_of_two_on_a_log_axis(void **state)
{
    (void)state;
    made m;
    const char *names[] = { "buckets" }, *lists[] = { "4, 8, 16, 20, 32, 64" };
    make(&m, 1, names, lists, 1, (size_t)-1);
    char *html = page(&m);
    assert_page_contains(html, "buckets (log scale)");
    double x4 = x_of(html, "buckets=4"), x8 = x_of(html, "buckets=8"),
           x16 = x_of(html, "buckets=16"), x20 = x_of(html, "buckets=20"),
           x32 = x_of(html, "buckets=32"), x64 = x_of(html, "buckets=64");
    assert_double_equal(x4, 70, 0.05);
    assert_double_equal(x64, 620, 0.05);
    assert_double_equal(x8 - x4, x16 - x8, 0.15);
    assert_double_equal(x64 - x32, x16 - x8, 0.15);
    assert_true(x20 - x16 < (x16 - x8) / 2);
    assert_true(x16 < x20 && x20 < x32);
    free(html);
    unmake(&m);
}

/* 8..64 step 8: evenly spaced, a linear axis at equal distances. */
static void test_an_even_range_on_a_linear_axis(void **state)
{
    (void)state;
    made m;
    const char *names[] = { "servers" }, *lists[] = { "8, 16, 24, 32, 40, 48, 56, 64" };
    make(&m, 1, names, lists, 2, (size_t)-1);
    char *html = page(&m);
    assert_page_contains(html, "servers (linear scale)");
    double x8 = x_of(html, "servers=8"), x16 = x_of(html, "servers=16"),
           x56 = x_of(html, "servers=56"), x64 = x_of(html, "servers=64");
    assert_double_equal(x16 - x8, x64 - x56, 0.15);
    assert_double_equal(x16 - x8, 550.0 / 7, 0.15);
    free(html);
    unmake(&m);
}

/* 1, 2, 4 (a range of 4, under 8) stays linear, though it is even in
 * log; 1, 2, 4, 100 is a log axis (its widest gap is 4.6 of 6.6 doublings,
 * 70%, against 96 of 99, 97%, in linear). */
static void test_the_rule_needs_a_range_of_8(void **state)
{
    (void)state;
    made m;
    const char *names[] = { "n" }, *lists[] = { "1, 2, 4" };
    make(&m, 1, names, lists, 1, (size_t)-1);
    char *html = page(&m);
    assert_page_contains(html, "n (linear scale)");
    assert_double_equal(x_of(html, "n=2") - x_of(html, "n=1"), 550.0 / 3, 0.15);
    free(html);
    unmake(&m);
    const char *wide[] = { "1, 2, 4, 100" };
    make(&m, 1, names, wide, 1, (size_t)-1);
    html = page(&m);
    assert_page_contains(html, "n (log scale)");
    free(html);
    unmake(&m);
}

/* Values listed out of order: placed by value, the line joined left to
 * right; durations are numbers, labelled as written. */
static void test_unsorted_durations_join_in_ascending_x(void **state)
{
    (void)state;
    made m;
    const char *names[] = { "duration" }, *lists[] = { "30m, 10m, 1h, 20m" };
    make(&m, 1, names, lists, 1, (size_t)-1);
    char *html = page(&m);
    assert_page_contains(html, "duration (linear scale)");
    double x10 = x_of(html, "duration=10m"), x20 = x_of(html, "duration=20m"),
           x30 = x_of(html, "duration=30m"), x60 = x_of(html, "duration=1h");
    assert_double_equal(x10, 70, 0.05);
    assert_double_equal(x60, 620, 0.05);
    assert_double_equal(x20 - x10, 110, 0.15);
    assert_double_equal(x30 - x20, 110, 0.15);
    assert_page_contains(html, ">1h</text>");
    /* the first line's path: x only goes up */
    const char *d = strstr(strstr(html, "data-series=\"0\""), "<path fill=\"none\" d=\"M");
    assert_non_null(d);
    d += strlen("<path fill=\"none\" d=\"M");
    double last = -1;
    for (int k = 0; k < 4; k++) {
        char *end;
        double x = strtod(d, &end);
        assert_true(x > last);
        last = x;
        strtod(end, &end); /* y */
        d = end + strlen(" L");
    }
    free(html);
    unmake(&m);
}

/* Names are not numbers: equal steps in sweep order; so is a mix of
 * kinds (a count and a duration). */
static void test_names_at_equal_steps(void **state)
{
    (void)state;
    made m;
    const char *names[] = { "prefix" }, *lists[] = { "salt(4), osalt(4), none" };
    make(&m, 1, names, lists, 1, (size_t)-1);
    char *html = page(&m);
    assert_page_contains(html, "prefix (equal steps, in sweep order)");
    assert_double_equal(x_of(html, "prefix=salt(4)"), 70, 0.05);
    assert_double_equal(x_of(html, "prefix=osalt(4)"), 345, 0.05);
    assert_double_equal(x_of(html, "prefix=none"), 620, 0.05);
    free(html);
    unmake(&m);
    const char *mixed[] = { "5, 10m, 1" };
    make(&m, 1, names, mixed, 1, (size_t)-1);
    html = page(&m);
    assert_page_contains(html, "prefix (equal steps, in sweep order)");
    assert_double_equal(x_of(html, "prefix=10m"), 345, 0.05);
    free(html);
    unmake(&m);
}

/* An undefined value breaks the line: a second "M" in its path, no point. */
static void test_an_undefined_value_breaks_the_line(void **state)
{
    (void)state;
    made m;
    const char *names[] = { "b" }, *lists[] = { "1, 2, 4, 8" };
    make(&m, 1, names, lists, 2, 1); /* b=2 undefined for the first scheme */
    char *html = page(&m);
    const char *g = strstr(html, "data-series=\"0\"");
    const char *end = strstr(g, "</g>");
    char *series = strndup(g, (size_t)(end - g));
    assert_int_equal(count(series, "<circle"), 3);
    assert_int_equal(count(series, " M"), 1);
    assert_null(strstr(series, "b=2:"));
    free(series);
    free(html);
    unmake(&m);
}

/* 2 variables x 6 values x 3 schemes: 18 lines, too many for 8 hues: a
 * panel per value of the second variable, 3 lines each, one legend of 3
 * entries; 2 x 2 x 2 (4 lines) stays one chart. */
static void test_small_multiples_past_8_lines(void **state)
{
    (void)state;
    made m;
    const char *names[] = { "buckets", "servers" },
               *lists[] = { "4, 8, 16, 20, 32, 64", "4, 8, 12, 16, 20, 24" };
    make(&m, 2, names, lists, 3, (size_t)-1);
    char *html = page(&m);
    const char *fig = strstr(html, "<figure class=\"chart panels\" data-figure=\"write_max_mean\"");
    assert_non_null(fig);
    char *one = strndup(fig, (size_t)(strstr(fig, "</figure>") - fig));
    assert_int_equal(count(one, "<svg "), 6);
    assert_int_equal(count(one, "data-panel="), 6);
    assert_int_equal(count(one, "<g class=\"series\""), 18);
    assert_int_equal(count(one, "<li>"), 3);
    assert_page_contains(one, ">servers=12</text>");
    assert_page_contains(one, "<li><span style=\"color:#e15759\">&#x2014;</span> osalt</li>");
    assert_null(strstr(one, "stroke-dasharray")); /* 3 hues a panel: no dashes needed */
    assert_page_contains(one, "osalt, servers=12 at buckets=20: "); /* tooltips say everything */
    free(one);
    free(html);
    unmake(&m);
    const char *few[] = { "4, 8", "4, 8" };
    make(&m, 2, names, few, 2, (size_t)-1);
    html = page(&m);
    assert_null(strstr(html, "data-panel="));
    assert_page_contains(html, "<li><span style=\"color:#f28e2b\">&#x2014;</span> salted, servers=8</li>");
    free(html);
    unmake(&m);
}

/* The y tick labels of the page's first chart, space-separated, into
 * buf. */
static void first_y_ticks(const char *html, char *buf, size_t cap)
{
    const char *end = strstr(html, "</svg>");
    assert_non_null(end);
    size_t at = 0;
    buf[0] = '\0';
    for (const char *p = strstr(html, "class=\"yt\""); p && p < end;
         p = strstr(p + 1, "class=\"yt\"")) {
        const char *v = strchr(p, '>') + 1, *e = strchr(v, '<');
        at += (size_t)snprintf(buf + at, cap - at, "%s%.*s", at ? " " : "", (int)(e - v), v);
    }
}

/* The y axis in round steps: every figure of point p is 1 + p (+ 10 a
 * scheme), so 6 points reach 6 (ticks 0 2 4 6) and 3 schemes 26 (0 10 20
 * 30), not the largest value cut in four. */
static void test_y_ticks_are_round(void **state)
{
    (void)state;
    made m;
    char ticks[256];
    const char *names[] = { "buckets" }, *lists[] = { "4, 8, 16, 20, 32, 64" };
    make(&m, 1, names, lists, 1, (size_t)-1);
    char *html = page(&m);
    first_y_ticks(html, ticks, sizeof ticks);
    assert_string_equal(ticks, "0 2 4 6");
    free(html);
    unmake(&m);
    make(&m, 1, names, lists, 3, (size_t)-1);
    html = page(&m);
    first_y_ticks(html, ticks, sizeof ticks);
    assert_string_equal(ticks, "0 10 20 30");
    free(html);
    unmake(&m);
    const char *two[] = { "b" }, *two_values[] = { "1, 2" }; /* 1 .. 2: 0 .. 2 by 0.5 */
    make(&m, 1, two, two_values, 1, (size_t)-1);
    html = page(&m);
    first_y_ticks(html, ticks, sizeof ticks);
    assert_string_equal(ticks, "0 0.5 1 1.5 2");
    free(html);
    unmake(&m);
}

int main(void)
{
    setenv("LC_ALL", "C", 1);
    setenv("TZ", "UTC", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_powers_of_two_on_a_log_axis),
        cmocka_unit_test(test_an_even_range_on_a_linear_axis),
        cmocka_unit_test(test_the_rule_needs_a_range_of_8),
        cmocka_unit_test(test_unsorted_durations_join_in_ascending_x),
        cmocka_unit_test(test_names_at_equal_steps),
        cmocka_unit_test(test_an_undefined_value_breaks_the_line),
        cmocka_unit_test(test_small_multiples_past_8_lines),
        cmocka_unit_test(test_y_ticks_are_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
