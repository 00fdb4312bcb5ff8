/* test_sweep_baseline.c -- a sweep's figures against an earlier sweep's
 * JSON (reports/sweep_baseline.h), on tables made here (no runs):
 *  - the same table compared with its own JSON has no change at
 *    tolerance 0; one figure made worse is the one change, with the
 *    baseline's value as its JSON wrote it; a figure null in the baseline
 *    is not compared;
 *  - a loaded baseline is what its file held when loaded: the file
 *    replaced (by a better sweep's JSON), then removed, changes nothing
 *    of the comparison, while loading the replaced file again does;
 *  - one through a pipe (/dev/fd/N: a shell's <(...), /dev/stdin) loads
 *    once and compares as its file does;
 *  - a table of other points or schemes than the one it was loaded for
 *    is refused, not read out of bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"

#include "reports/json_read.h"
#include "reports/sweep_baseline.h"
#include "reports/sweep_report.h"

#define NPOINTS 2
#define NSCHEMES 2

/* A table of b = 1, 2 and the schemes tsdb and plain, its own storage. */
typedef struct table {
    sweep_table t;
    char *run_names[NPOINTS * NSCHEMES];
    double *figures;
} table;

static const char *const var_names[] = { "b" };
static const size_t var_nvalues[] = { NPOINTS };
static const char *const values[] = { "1", "2" };
static const char *const schemes[] = { "tsdb", "plain" };

/* Every figure of point p, scheme s: a value of its own, not an integer
 * (so that the JSON's 6 digits are what is compared). */
static void make_table(table *tb)
{
    memset(tb, 0, sizeof *tb);
    sweep_table *t = &tb->t;
    t->scenario = "unit";
    t->file = "unit.ini";
    t->nvars = 1;
    t->var_names = var_names;
    t->var_nvalues = var_nvalues;
    t->npoints = NPOINTS;
    t->values = values;
    t->nschemes = NSCHEMES;
    t->schemes = schemes;
    t->nfigures = sweep_figure_count();
    for (size_t i = 0; i < NPOINTS * NSCHEMES; i++)
        tb->run_names[i] = (char *)schemes[i % NSCHEMES];
    t->run_names = tb->run_names;
    tb->figures = calloc(NPOINTS * NSCHEMES * t->nfigures, sizeof *tb->figures);
    assert_non_null(tb->figures);
    for (size_t i = 0; i < NPOINTS * NSCHEMES * t->nfigures; i++)
        tb->figures[i] = 1.0 + (double)i / 7.0;
    t->figures = tb->figures;
}

/* Figure name of point p, scheme s. */
static double *slot(table *tb, size_t p, size_t s, const char *name)
{
    const figure *f = figure_find(name);
    assert_non_null(f);
    return &tb->figures[(p * NSCHEMES + s) * tb->t.nfigures + sweep_figure_slot(f)];
}

/* t's JSON report into a temporary file; its path (static storage, one
 * of two so that two can be alive). */
static const char *json_of(const table *tb)
{
    static char paths[2][64];
    static int next;
    char *path = paths[next++ % 2];
    snprintf(path, 64, "/tmp/sweep-baseline-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    sweep_write_json(f, &tb->t);
    assert_int_equal(fclose(f), 0);
    return path;
}

static sweep_baseline *load(const char *path, const table *tb)
{
    sweep_baseline *b = NULL;
    char err[1024];
    if (sweep_baseline_load(path, &tb->t, JSON_READ_MAX_DEFAULT, &b, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_non_null(b);
    assert_string_equal(sweep_baseline_path(b), path);
    return b;
}

/* A gate of every scheme figure at the relative tolerance rel, the
 * floor rel too (0: no change in what the report shows). */
static const baseline_gate *gate_all(double rel)
{
    static baseline_gate g; /* (a test's own: one at a time) */
    char text[64], err[256];
    baseline_gate_init(&g);
    assert_int_equal(baseline_gate_figures(&g, "all", err, sizeof err), 0);
    snprintf(text, sizeof text, "%.17g", rel);
    assert_int_equal(baseline_gate_tolerance(&g, text, 0, err, sizeof err), 0);
    assert_int_equal(baseline_gate_tolerance(&g, text, 1, err, sizeof err), 0);
    return &g;
}

static void compare_gate(const sweep_baseline *b, const table *tb, const baseline_gate *g,
                         sweep_baseline_report *r)
{
    char err[1024];
    if (sweep_baseline_compare(b, &tb->t, g, r, err, sizeof err) < 0)
        fail_msg("%s", err);
}

/* Every figure at the tolerance (gate_all). */
static void compare(const sweep_baseline *b, const table *tb, double tolerance,
                    sweep_baseline_report *r)
{
    compare_gate(b, tb, gate_all(tolerance), r);
}

static void test_changes_are_the_figures_that_moved(void **state)
{
    (void)state;
    table tb;
    make_table(&tb);
    size_t all = NPOINTS * NSCHEMES * tb.t.nfigures;
    double kept = *slot(&tb, 1, 0, "write_max_mean");
    *slot(&tb, 0, 1, "p99_latency_us") = NAN; /* null in the baseline: not compared */
    const char *path = json_of(&tb);
    *slot(&tb, 0, 1, "p99_latency_us") = 3;
    sweep_baseline *b = load(path, &tb);
    sweep_baseline_report r;
    compare(b, &tb, 0, &r);
    assert_int_equal(r.compared, all - 1);
    assert_int_equal(r.nchanges, 0);
    assert_int_equal(r.points, NPOINTS);
    sweep_baseline_report_free(&r);
    *slot(&tb, 1, 0, "write_max_mean") = 2 * kept; /* lower is better: a regression */
    compare(b, &tb, BASELINE_TOLERANCE, &r);
    assert_int_equal(r.nchanges, 1);
    assert_int_equal(r.regressions, 1);
    const sweep_baseline_change *c = &r.changes[0];
    assert_int_equal(c->point, 1);
    assert_int_equal(c->scheme, 0);
    assert_string_equal(c->figure->name, "write_max_mean");
    assert_true(c->old.median == baseline_as_written(kept));
    assert_true(c->old.min == c->old.median && c->old.max == c->old.median); /* one run */
    assert_true(c->new_value == baseline_as_written(2 * kept));
    assert_int_equal(c->verdict, BASELINE_REGRESSION);
    sweep_baseline_report_free(&r);
    sweep_baseline_free(b);
    unlink(path);
    free(tb.figures);
}

static void test_loaded_baseline_outlives_its_file(void **state)
{
    (void)state;
    table tb, better;
    make_table(&tb);
    make_table(&better);
    for (size_t p = 0; p < NPOINTS; p++) /* lower is better: this sweep regresses from it */
        *slot(&better, p, 0, "write_max_mean") /= 2;
    char path[64], better_path[64];
    snprintf(path, sizeof path, "%s", json_of(&tb));
    snprintf(better_path, sizeof better_path, "%s", json_of(&better));
    sweep_baseline *b = load(path, &tb);
    assert_int_equal(rename(better_path, path), 0); /* replaced during "the sweep" */
    sweep_baseline_report r;
    compare(b, &tb, 0, &r);
    assert_true(r.compared > 0);
    assert_int_equal(r.nchanges, 0);
    sweep_baseline_report_free(&r);
    sweep_baseline *again = load(path, &tb); /* the file read anew: it did change */
    compare(again, &tb, 0, &r);
    assert_int_equal(r.regressions, NPOINTS);
    sweep_baseline_report_free(&r);
    sweep_baseline_free(again);
    assert_int_equal(unlink(path), 0); /* and gone */
    compare(b, &tb, 0, &r);
    assert_int_equal(r.nchanges, 0);
    sweep_baseline_report_free(&r);
    sweep_baseline_free(b);
    free(tb.figures);
    free(better.figures);
}

static void test_baseline_from_a_pipe(void **state)
{
    (void)state;
    table tb, worse;
    make_table(&tb);
    make_table(&worse);
    *slot(&worse, 0, 1, "write_max_mean") *= 3;
    const char *path = json_of(&worse);
    size_t len;
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_true(len < 65536); /* fits a pipe's buffer: written before it is read */
    assert_int_equal(write(p[1], text, len), (ssize_t)len);
    close(p[1]);
    free(text);
    char fed[32];
    snprintf(fed, sizeof fed, "/dev/fd/%d", p[0]);
    sweep_baseline *from_pipe = load(fed, &tb);
    close(p[0]);
    sweep_baseline *from_file = load(path, &tb);
    sweep_baseline_report a, b;
    compare(from_pipe, &tb, BASELINE_TOLERANCE, &a);
    compare(from_file, &tb, BASELINE_TOLERANCE, &b);
    assert_int_equal(a.compared, b.compared);
    assert_int_equal(a.nchanges, 1);
    assert_int_equal(b.nchanges, 1);
    assert_int_equal(a.changes[0].verdict, BASELINE_IMPROVEMENT);
    assert_true(a.changes[0].old.median == b.changes[0].old.median);
    sweep_baseline_report_free(&a);
    sweep_baseline_report_free(&b);
    sweep_baseline_free(from_pipe);
    sweep_baseline_free(from_file);
    unlink(path);
    free(tb.figures);
    free(worse.figures);
}

static void test_another_table_is_refused(void **state)
{
    (void)state;
    table tb;
    make_table(&tb);
    const char *path = json_of(&tb);
    sweep_baseline *b = load(path, &tb);
    tb.t.npoints = 1; /* not the table it was loaded for */
    sweep_baseline_report r;
    char err[1024];
    assert_int_equal(sweep_baseline_compare(b, &tb.t, gate_all(0), &r, err, sizeof err), -1);
    assert_contains(err, path);
    assert_contains(err, "loaded for a sweep of 2 points and 2 schemes");
    assert_int_equal(r.nchanges, 0);
    assert_null(r.changes);
    sweep_baseline_free(b);
    unlink(path);
    free(tb.figures);
}

/* The default gate judges the headline figures only, by the same rule as
 * compare (baseline_judge): a figure made worse that is not one of them
 * is not a change; one that is, is. */
static void test_default_gate_judges_the_headline(void **state)
{
    (void)state;
    table tb;
    make_table(&tb);
    const char *path = json_of(&tb);
    sweep_baseline *b = load(path, &tb);
    baseline_gate g;
    baseline_gate_init(&g);
    sweep_baseline_report r;
    *slot(&tb, 0, 0, "p999_latency_us") *= 100; /* a tail: not judged */
    compare_gate(b, &tb, &g, &r);
    assert_int_equal(r.compared, NPOINTS * NSCHEMES * baseline_gate_count(&g));
    assert_int_equal(r.nchanges, 0);
    sweep_baseline_report_free(&r);
    *slot(&tb, 1, 1, "hottest_share") *= 2; /* a headline figure */
    compare_gate(b, &tb, &g, &r);
    assert_int_equal(r.regressions, 1);
    assert_string_equal(r.changes[0].figure->name, "hottest_share");
    sweep_baseline_report_free(&r);
    sweep_baseline_free(b);
    unlink(path);
    free(tb.figures);
}

/* A sweep's baseline whose runs have a "spread" (several samples a point)
 * is judged by it, as compare's: a value within the range passes, beyond
 * it fails; a malformed spread is refused with its JSON path. */
static void test_spread_of_a_sweep_baseline(void **state)
{
    (void)state;
    table tb;
    make_table(&tb);
    double v = *slot(&tb, 0, 0, "write_max_mean");
    const char *path = json_of(&tb);
    size_t len;
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    /* the first run of the first point: a spread of write_max_mean from
     * v to 3v */
    const char *at = strstr(text, "\"figures\": {");
    assert_non_null(at);
    char spread[256], *with = malloc(len + 512);
    assert_non_null(with);
    for (int bad = 0; bad < 2; bad++) {
        snprintf(spread, sizeof spread, "\"spread\": {\"write_max_mean\": {\"min\": %.17g, "
                 "\"median\": %.17g, \"max\": %s}}, ", v, 2 * v, bad ? "\"x\"" : "");
        if (!bad)
            snprintf(spread + strlen(spread) - 4, 64, "%.17g}}, ", 3 * v);
        size_t head = (size_t)(at - text);
        memcpy(with, text, head);
        strcpy(with + head, spread);
        strcat(with + head, at);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(with, f);
        assert_int_equal(fclose(f), 0);
        if (bad) {
            sweep_baseline *none = NULL;
            char err[1024];
            assert_int_equal(sweep_baseline_load(path, &tb.t, JSON_READ_MAX_DEFAULT, &none, err,
                                                 sizeof err), -1);
            assert_contains(err, "points[0].runs[0].spread.write_max_mean.max: expected a "
                                 "number or null, found a string ('x')");
            break;
        }
        sweep_baseline *b = load(path, &tb);
        baseline_gate g;
        baseline_gate_init(&g);
        sweep_baseline_report r;
        *slot(&tb, 0, 0, "write_max_mean") = 3 * v; /* the range's top: passes */
        compare_gate(b, &tb, &g, &r);
        assert_int_equal(r.nchanges, 0);
        sweep_baseline_report_free(&r);
        *slot(&tb, 0, 0, "write_max_mean") = 4.5 * v; /* the default gate: a band this wide */
        compare_gate(b, &tb, &g, &r);                 /* moved with the seed: not judged */
        assert_int_equal(r.nchanges, 0);
        assert_int_equal(r.moving, 1);
        sweep_baseline_report_free(&r);
        char gerr[256];
        assert_int_equal(baseline_gate_figures(&g, "headline", gerr, sizeof gerr), 0);
        *slot(&tb, 0, 0, "write_max_mean") = 3.5 * v; /* chosen: within it widened by half */
        compare_gate(b, &tb, &g, &r);
        assert_int_equal(r.nchanges, 0);
        sweep_baseline_report_free(&r);
        *slot(&tb, 0, 0, "write_max_mean") = 4.5 * v; /* beyond 4v by more than 5% */
        compare_gate(b, &tb, &g, &r);
        assert_int_equal(r.regressions, 1);
        assert_true(r.changes[0].old.min == v && r.changes[0].old.max == 3 * v);
        assert_true(r.changes[0].old.median == 2 * v);
        sweep_baseline_report_free(&r);
        *slot(&tb, 0, 0, "write_max_mean") = v;
        sweep_baseline_free(b);
    }
    free(with);
    free(text);
    unlink(path);
    free(tb.figures);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    setenv("LC_ALL", "C", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_changes_are_the_figures_that_moved),
        cmocka_unit_test(test_loaded_baseline_outlives_its_file),
        cmocka_unit_test(test_baseline_from_a_pipe),
        cmocka_unit_test(test_another_table_is_refused),
        cmocka_unit_test(test_default_gate_judges_the_headline),
        cmocka_unit_test(test_spread_of_a_sweep_baseline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
