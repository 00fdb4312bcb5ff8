/* test_baseline.c -- a run's figures against a previous run's JSON report
 * (reports/baseline.h).
 *
 * Runs a small scenario through the engine, writes its JSON report, and
 * compares runs with it: the same run has no change; the same scheme name
 * with a worse key (a timestamp instead of a salted one) regresses on the
 * figures where lower is better; a baseline of another scenario or schema
 * version, or not JSON at all, is refused with its path in the message;
 * a loaded baseline is what its file held when loaded (the file replaced
 * or removed after changes nothing), and one through a pipe compares as
 * its file does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"

#include <json-c/json.h>

#include "reports/baseline.h"
#include "reports/json_read.h"
#include "reports/report.h"
#include "engine/engine.h"
#include "scenario/scenario.h"

/* A 3-minute time series on 4 servers with one scheme labelled "mine". */
static void small_scenario(scenario *sc, const char *expr)
{
    char err[512];
    scenario_defaults(sc);
    sc->nschemes = 0;
    scenario_add_scheme(sc, "mine", expr);
    assert_int_equal(scenario_set(sc, NULL, "servers", "4", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "duration", "3m", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "region_size", "512KiB", err, sizeof err), 0);
    assert_int_equal(scenario_validate(sc, err, sizeof err), 0);
}

static void run_all(const scenario *sc, sim_results *res)
{
    char err[512];
    if (engine_run_all(sc, NULL, res, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* The JSON report of sc's run, in a temporary file (its path returned). */
static const char *report_of(const scenario *sc)
{
    static char path[64];
    sim_results res;
    run_all(sc, &res);
    snprintf(path, sizeof path, "/tmp/baseline-XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    json_write(f, &res);
    assert_int_equal(fclose(f), 0);
    sim_results_free(&res);
    return path;
}

/* A gate of every scheme figure at the relative tolerance rel: with the
 * figures' default floors (BASELINE_TOLERANCE), else with rel as the
 * floor too (0: no change in what the report shows; 1e9: none counts). */
static const baseline_gate *gate_all(double rel)
{
    static baseline_gate g; /* (a test's own: one at a time) */
    char text[64], err[256];
    baseline_gate_init(&g);
    assert_int_equal(baseline_gate_figures(&g, "all", err, sizeof err), 0);
    snprintf(text, sizeof text, "%.17g", rel);
    assert_int_equal(baseline_gate_tolerance(&g, text, 0, err, sizeof err), 0);
    if (rel != BASELINE_TOLERANCE)
        assert_int_equal(baseline_gate_tolerance(&g, text, 1, err, sizeof err), 0);
    return &g;
}

/* The baseline at path loaded under the default size cap and compared
 * with res, every figure at the tolerance (gate_all) (a failure of either:
 * -1, its message in err). */
static int compare_with(const char *path, const sim_results *res, double tolerance,
                        baseline_report *r, char *err, size_t errcap)
{
    baseline *b;
    memset(r, 0, sizeof *r);
    if (baseline_load(path, JSON_READ_MAX_DEFAULT, &b, err, errcap) < 0)
        return -1;
    int rc = baseline_compare(b, res, gate_all(tolerance), r, err, errcap);
    baseline_free(b);
    return rc;
}

static void test_same_run_has_no_change(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "salt(4) ts");
    const char *path = report_of(&sc);
    sim_results res;
    run_all(&sc, &res);
    baseline_report r;
    char err[512];
    assert_int_equal(compare_with(path, &res, BASELINE_TOLERANCE, &r, err, sizeof err), 0);
    assert_true(r.compared > 10);
    assert_int_equal(r.nchanges, 0);
    assert_int_equal(r.regressions, 0);
    baseline_report_free(&r);
    /* like with like: the report's 6 digits against this run's, the same
     * even at tolerance 0 */
    assert_int_equal(compare_with(path, &res, 0, &r, err, sizeof err), 0);
    assert_true(r.compared > 10);
    if (r.nchanges)
        fail_msg("%zu changes at tolerance 0, the first %s: %.17g -> %.17g", r.nchanges,
                 r.changes[0].figure->name, r.changes[0].old.median, r.changes[0].new_value);
    baseline_report_free(&r);
    sim_results_free(&res);
    scenario_release(&sc);
    unlink(path);
}

static void test_worse_key_regresses(void **state)
{
    (void)state;
    scenario good, bad;
    small_scenario(&good, "salt(4) ts");
    small_scenario(&bad, "ts");
    const char *path = report_of(&good);
    sim_results res;
    run_all(&bad, &res);
    baseline_report r;
    char err[512];
    assert_int_equal(compare_with(path, &res, BASELINE_TOLERANCE, &r, err, sizeof err), 0);
    assert_true(r.regressions > 0);
    int write_max_mean = 0;
    for (size_t i = 0; i < r.nchanges; i++) {
        const baseline_change *c = &r.changes[i];
        assert_string_equal(c->scheme, "mine");
        if (!strcmp(c->figure->name, "write_max_mean")) {
            write_max_mean = 1;
            assert_int_equal(c->verdict, BASELINE_REGRESSION);
            assert_true(c->new_value > c->old.median);
        }
        if (c->verdict == BASELINE_REGRESSION)
            assert_true(c->figure->better != FIGURE_NEITHER);
    }
    assert_true(write_max_mean);
    baseline_report_free(&r);

    /* the other way round, the same changes are improvements */
    sim_results_free(&res);
    const char *bad_path = report_of(&bad);
    run_all(&good, &res);
    assert_int_equal(compare_with(bad_path, &res, BASELINE_TOLERANCE, &r, err, sizeof err), 0);
    int improved = 0;
    for (size_t i = 0; i < r.nchanges; i++)
        improved |= !strcmp(r.changes[i].figure->name, "write_max_mean") &&
                    r.changes[i].verdict == BASELINE_IMPROVEMENT;
    assert_true(improved);
    /* a tolerance large enough hides every change */
    baseline_report_free(&r);
    assert_int_equal(compare_with(bad_path, &res, 1e6, &r, err, sizeof err), 0);
    assert_int_equal(r.nchanges, 0);
    baseline_report_free(&r);
    sim_results_free(&res);
    scenario_release(&good);
    scenario_release(&bad);
    unlink(path);
    unlink(bad_path);
}

static void test_refusals(void **state)
{
    (void)state;
    scenario sc, other;
    char err[1024];
    small_scenario(&sc, "salt(4) ts");
    small_scenario(&other, "salt(4) ts");
    scenario_set(&other, NULL, "metrics", "7", err, sizeof err); /* another workload */
    sim_results res;
    run_all(&sc, &res);
    baseline_report r;

    const char *path = report_of(&other);
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, path);
    assert_contains(err, "another scenario");
    unlink(path);

    path = test_temp_file("baseline-v2", "{\"regionsim\": 2, \"runs\": []}\n");
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, "schema 2");
    unlink(path);

    path = test_temp_file("baseline-text", "scheme  example key\n");
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, path);
    unlink(path);

    assert_int_equal(compare_with("/nonexistent/old.json", &res, 0.05, &r, err, sizeof err),
                     -1);
    assert_contains(err, "/nonexistent/old.json");

    scenario_release(&other);
    small_scenario(&other, "ts"); /* the same scenario, but a scheme of another name */
    other.schemes[0].label = "theirs";
    path = report_of(&other);
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, "none of this run's schemes");
    unlink(path);

    /* a figure of another type, and figures with no value: refused */
    char text[512];
    snprintf(text, sizeof text, "{\"regionsim\": %d, \"runs\": [{\"scheme\": \"mine\", "
             "\"figures\": {\"write_cov\": \"0.5\"}}]}\n", REPORT_JSON_SCHEMA);
    path = test_temp_file("baseline-string", text);
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, "runs[0].figures.write_cov: expected a number or null, found a string "
                         "('0.5')");
    baseline *b = NULL;
    assert_int_equal(baseline_load(path, JSON_READ_MAX_DEFAULT, &b, err, sizeof err), -1);
    assert_null(b);
    unlink(path);
    snprintf(text, sizeof text, "{\"regionsim\": %d, \"runs\": [{\"scheme\": \"mine\", "
             "\"figures\": {\"write_cov\": null}}]}\n", REPORT_JSON_SCHEMA);
    path = test_temp_file("baseline-null", text);
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, "no figure to compare");
    unlink(path);
    /* measured otherwise: from 0 against past each run's warm-up (auto,
     * the default), two fixed starts, or "measure_auto" not a boolean */
    scenario_release(&other);
    small_scenario(&other, "salt(4) ts");
    assert_int_equal(scenario_set(&other, NULL, "measure_from", "0s", err, sizeof err), 0);
    path = report_of(&other);
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, "a baseline measured from 0 (measure_from); this run is measured from "
                         "each run's warm-up (measure_from = auto): compare runs measured alike");
    sim_results fixed;
    run_all(&other, &fixed); /* measured alike: compared */
    assert_int_equal(compare_with(path, &fixed, 0.05, &r, err, sizeof err), 0);
    assert_true(r.compared > 10);
    baseline_report_free(&r);
    sim_results_free(&fixed);
    assert_int_equal(scenario_set(&other, NULL, "measure_from", "1m", err, sizeof err), 0);
    run_all(&other, &fixed);
    assert_int_equal(compare_with(path, &fixed, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, "a baseline measured from 0 (measure_from); this run is measured from "
                         "1 min (measure_from)");
    sim_results_free(&fixed);
    unlink(path);
    snprintf(text, sizeof text, "{\"regionsim\": %d, \"measure_auto\": 1, \"runs\": [{\"scheme\": "
             "\"mine\", \"figures\": {\"write_cov\": 0.5}}]}\n", REPORT_JSON_SCHEMA);
    path = test_temp_file("baseline-auto", text);
    assert_int_equal(compare_with(path, &res, 0.05, &r, err, sizeof err), -1);
    assert_contains(err, "\"measure_auto\": expected true or false");
    unlink(path);
    /* over the size cap */
    path = report_of(&sc);
    assert_int_equal(baseline_load(path, 100, &b, err, sizeof err), -1);
    assert_contains(err, "over the 100B a JSON input may hold (--max-input SIZE raises the cap)");
    unlink(path);

    sim_results_free(&res);
    scenario_release(&sc);
    scenario_release(&other);
}

/* The file at from copied to to. */
static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *text = test_read_file(from, &len);
    assert_non_null(text);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    free(text);
}

/* A loaded baseline is what the file held when it was loaded: the file
 * replaced (by a worse run's report), then removed, changes nothing of
 * the comparison; loading the replaced file again does (so the test can
 * tell). Before, the file was checked before the run and read again
 * after it, and a replaced file was compared in its new form. */
static void test_loaded_baseline_outlives_its_file(void **state)
{
    (void)state;
    scenario good, bad;
    small_scenario(&good, "salt(4) ts");
    small_scenario(&bad, "ts");
    char path[64], bad_path[64];
    snprintf(path, sizeof path, "%s", report_of(&good));
    snprintf(bad_path, sizeof bad_path, "%s", report_of(&bad));
    sim_results res;
    run_all(&good, &res);
    baseline *b = NULL;
    char err[1024];
    assert_int_equal(baseline_load(path, JSON_READ_MAX_DEFAULT, &b, err, sizeof err), 0);
    assert_non_null(b);
    copy_file(bad_path, path); /* replaced during "the run" */
    baseline_report r;
    assert_int_equal(baseline_compare(b, &res, gate_all(0), &r, err, sizeof err), 0);
    assert_true(r.compared > 10);
    assert_int_equal(r.nchanges, 0);
    baseline_report_free(&r);
    assert_int_equal(compare_with(path, &res, 0, &r, err, sizeof err), 0); /* read anew */
    assert_true(r.regressions > 0);
    baseline_report_free(&r);
    unlink(path); /* and gone */
    assert_int_equal(baseline_compare(b, &res, gate_all(0), &r, err, sizeof err), 0);
    assert_int_equal(r.nchanges, 0);
    baseline_report_free(&r);
    /* loaded values, not the document's tree: comparing twice gives the same */
    assert_int_equal(baseline_compare(b, &res, gate_all(BASELINE_TOLERANCE), &r, err, sizeof err), 0);
    assert_int_equal(r.nchanges, 0);
    baseline_report_free(&r);
    baseline_free(b);
    sim_results_free(&res);
    scenario_release(&good);
    scenario_release(&bad);
    unlink(bad_path);
}

/* A baseline through a pipe (/dev/fd/N: a shell's <(...), /dev/stdin)
 * loads once and compares as the file does. */
static void test_baseline_from_a_pipe(void **state)
{
    (void)state;
    scenario sc, worse;
    small_scenario(&sc, "salt(4) ts");
    small_scenario(&worse, "ts");
    char path[64];
    snprintf(path, sizeof path, "%s", report_of(&worse));
    size_t len;
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t writer = fork(); /* a report is larger than a pipe's buffer: written meanwhile */
    assert_true(writer >= 0);
    if (writer == 0) {
        close(p[0]);
        for (size_t at = 0; at < len;) {
            ssize_t k = write(p[1], text + at, len - at);
            if (k <= 0)
                _exit(1);
            at += (size_t)k;
        }
        _exit(0);
    }
    close(p[1]);
    free(text);
    char fed[32];
    snprintf(fed, sizeof fed, "/dev/fd/%d", p[0]);
    sim_results res;
    run_all(&sc, &res);
    baseline *b = NULL;
    char err[1024];
    assert_int_equal(baseline_load(fed, JSON_READ_MAX_DEFAULT, &b, err, sizeof err), 0);
    close(p[0]);
    int status;
    assert_int_equal(waitpid(writer, &status, 0), writer);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    baseline_report from_pipe, from_file;
    assert_int_equal(baseline_compare(b, &res, gate_all(BASELINE_TOLERANCE), &from_pipe, err,
                                      sizeof err),
                     0);
    assert_int_equal(compare_with(path, &res, BASELINE_TOLERANCE, &from_file, err, sizeof err),
                     0);
    assert_true(from_pipe.regressions > 0);
    assert_int_equal(from_pipe.compared, from_file.compared);
    assert_int_equal(from_pipe.nchanges, from_file.nchanges);
    for (size_t i = 0; i < from_pipe.nchanges; i++) {
        assert_ptr_equal(from_pipe.changes[i].figure, from_file.changes[i].figure);
        assert_true(from_pipe.changes[i].old.median == from_file.changes[i].old.median);
        assert_int_equal(from_pipe.changes[i].verdict, from_file.changes[i].verdict);
    }
    baseline_report_free(&from_pipe);
    baseline_report_free(&from_file);
    baseline_free(b);
    sim_results_free(&res);
    scenario_release(&sc);
    scenario_release(&worse);
    unlink(path);
}

static baseline_band one(double x)
{
    return (baseline_band){ x, x, x };
}

static baseline_band band(double lo, double median, double hi)
{
    return (baseline_band){ lo, median, hi };
}

/* The rule every baseline shares (baseline_judge), against one value:
 * relative beyond the tolerance, the absolute floor (what made write_cov
 * 0.00226 -> 0.00242 a "regression" of +7%), the figure's direction, none
 * for counts; the edge crossed as the limit. */
static void test_judge_tolerance_and_floor(void **state)
{
    (void)state;
    const figure *lower = figure_find("write_max_mean");   /* lower is better */
    const figure *higher = figure_find("write_jain");      /* higher is better */
    const figure *count = figure_find("regions");
    const figure *cov = figure_find("write_cov");
    assert_non_null(lower);
    assert_non_null(higher);
    assert_non_null(count);
    assert_non_null(cov);
    assert_int_equal(lower->better, FIGURE_LOWER_BETTER);
    assert_int_equal(higher->better, FIGURE_HIGHER_BETTER);
    assert_int_equal(count->better, FIGURE_NEITHER);
    baseline_tol rel = { 0.05, 0 }, none = { 0, 0 };
    double limit = 0;
    assert_int_equal(baseline_judge(lower, one(2), 2.09, rel, NULL), BASELINE_SAME);
    assert_int_equal(baseline_judge(lower, one(2), 2.11, rel, &limit), BASELINE_REGRESSION);
    assert_true(limit == 2 + 0.05 * 2);
    assert_int_equal(baseline_judge(lower, one(2), 1.89, rel, &limit), BASELINE_IMPROVEMENT);
    assert_true(limit == 2 - 0.05 * 2);
    assert_int_equal(baseline_judge(lower, one(2), 2.0000001, none, NULL), BASELINE_REGRESSION);
    assert_int_equal(baseline_judge(lower, one(2), 2, none, NULL), BASELINE_SAME);
    assert_int_equal(baseline_judge(lower, one(0), 1e-9, rel, NULL), BASELINE_REGRESSION);
    /* the floor: the write_cov, relative +7%, absolute 0.00016 */
    baseline_tol cov_tol = baseline_default_tol(cov);
    assert_true(cov_tol.absolute == 0.01);
    assert_int_equal(baseline_judge(cov, one(0.00226), 0.00242, rel, NULL), BASELINE_REGRESSION);
    assert_int_equal(baseline_judge(cov, one(0.00226), 0.00242, cov_tol, &limit), BASELINE_SAME);
    assert_true(limit == 0.00226 + 0.01);
    assert_int_equal(baseline_judge(cov, one(0.00226), 0.0123, cov_tol, NULL),
                     BASELINE_REGRESSION);
    /* the floor is a floor: a large value's relative slack is larger */
    assert_int_equal(baseline_judge(lower, one(8), 8.39, (baseline_tol){ 0.05, 0.05 }, NULL),
                     BASELINE_SAME);
    assert_int_equal(baseline_judge(higher, one(0.5), 0.6, rel, NULL), BASELINE_IMPROVEMENT);
    assert_int_equal(baseline_judge(higher, one(0.5), 0.4, rel, NULL), BASELINE_REGRESSION);
    assert_int_equal(baseline_judge(count, one(6), 1, rel, NULL), BASELINE_CHANGED);
    assert_int_equal(baseline_judge(count, one(6), 6, none, NULL), BASELINE_SAME);
    char buf[32];
    assert_string_equal(baseline_change_text(buf, sizeof buf, baseline_relative(2, 3)), "+50.0%");
    assert_string_equal(baseline_change_text(buf, sizeof buf, baseline_relative(0, 3)), "from 0");
    assert_string_equal(baseline_verdict_name(BASELINE_REGRESSION), "REGRESSION");
}

/* Against a baseline's spread: a value anywhere in its samples' range,
 * widened at each edge by that edge's tolerance, is the same; beyond it
 * a regression or an improvement by the figure's direction. The same
 * values against one run of the median fail. */
static void test_judge_spread(void **state)
{
    (void)state;
    const figure *wmm = figure_find("write_max_mean");
    const figure *done = figure_find("achieved_ops_per_s");
    assert_non_null(wmm);
    assert_non_null(done);
    baseline_tol t = { 0.05, 0.05 };
    double limit = 0;
    /* the timestamp key's whole-run max/mean: 2 to 4 across seeds */
    baseline_band seeds = band(2, 2, 4);
    assert_int_equal(baseline_judge(wmm, seeds, 4, t, NULL), BASELINE_SAME);
    assert_int_equal(baseline_judge(wmm, one(2), 4, t, NULL), BASELINE_REGRESSION);
    /* the seeds' band 2..4 widened by half its width (1) at each edge, then 5% */
    assert_int_equal(baseline_judge(wmm, seeds, 5.25, t, NULL), BASELINE_SAME); /* 5 + 5% */
    assert_int_equal(baseline_judge(wmm, seeds, 5.26, t, &limit), BASELINE_REGRESSION);
    assert_true(limit == 5.25);
    assert_int_equal(baseline_judge(wmm, seeds, 0.95, t, NULL), BASELINE_SAME); /* 1 - 0.05 */
    assert_int_equal(baseline_judge(wmm, seeds, 0.94, t, &limit), BASELINE_IMPROVEMENT);
    assert_true(limit == 0.95);
    /* higher is better: the low edge is the one that fails */
    baseline_tol done_tol = baseline_default_tol(done);
    assert_true(done_tol.relative == 0.02 && done_tol.absolute == 1);
    baseline_band rate = band(999.25, 1000, 1000);
    assert_int_equal(baseline_judge(done, rate, 979, done_tol, NULL), BASELINE_SAME);
    assert_int_equal(baseline_judge(done, rate, 978, done_tol, &limit), BASELINE_REGRESSION);
    assert_true(limit == 998.875 - 0.02 * 998.875); /* 999.25 less half the band's 0.75 */
    assert_int_equal(baseline_judge(done, rate, 1030, done_tol, NULL), BASELINE_IMPROVEMENT);
}

/* The gate: the headline figures by default, a chosen set otherwise,
 * unknown names refused naming the token; per-figure tolerances win over
 * the global ones in either order; a figure's own tolerance on a figure
 * not judged is refused. */
static void test_gate(void **state)
{
    (void)state;
    baseline_gate g;
    char err[512];
    baseline_gate_init(&g);
    static const char *const headline[] = {
        "write_max_mean", "write_window_max_mean", "hottest_share", "read_max_mean",
        "rpcs_per_read", "rows_scanned_per_row", "achieved_ops_per_s", "busiest_busy",
        "p99_latency_us",
    };
    for (size_t i = 0; i < sizeof headline / sizeof *headline; i++) {
        const figure *f = figure_find(headline[i]);
        assert_non_null(f);
        if (!baseline_gate_judges(&g, f))
            fail_msg("%s: not judged by default", headline[i]);
    }
    assert_int_equal(baseline_gate_count(&g), sizeof headline / sizeof *headline);
    static const char *const not_judged[] = { "write_cov", "p999_latency_us", "mean_latency_us",
                                              "regions", "max_latency_us" };
    for (size_t i = 0; i < sizeof not_judged / sizeof *not_judged; i++)
        assert_false(baseline_gate_judges(&g, figure_find(not_judged[i])));
    baseline_tol t = baseline_gate_tol(&g, figure_find("p99_latency_us"));
    assert_true(t.relative == 0.10 && t.absolute == 1000);
    t = baseline_gate_tol(&g, figure_find("regions"));
    assert_true(t.relative == BASELINE_TOLERANCE && t.absolute == 0);
    t = baseline_gate_tol(&g, figure_find("write_worst_window_max_mean"));
    assert_true(t.absolute == 0.05);

    /* chosen: the first list replaces the default, the next adds */
    assert_int_equal(baseline_gate_figures(&g, "write_cov,p999_latency_us", err, sizeof err), 0);
    assert_int_equal(baseline_gate_count(&g), 2);
    assert_false(baseline_gate_judges(&g, figure_find("write_max_mean")));
    assert_int_equal(baseline_gate_figures(&g, "headline", err, sizeof err), 0);
    assert_int_equal(baseline_gate_count(&g), 2 + sizeof headline / sizeof *headline);
    assert_int_equal(baseline_gate_figures(&g, "all", err, sizeof err), 0);
    size_t scheme_figures = 0;
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
        scheme_figures++;
    assert_int_equal(baseline_gate_count(&g), scheme_figures);
    static const struct { const char *list, *says; } bad[] = {
        { "write_max_mean,wrte_cov", "unknown figure 'wrte_cov' (did you mean 'write_cov'?)" },
        { "server_busy", "'server_busy' is a server figure" },
        { "write_cov,,regions", "expected a figure name" },
        { "", "expected a figure name" },
        { "Headline", "unknown figure 'Headline'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        baseline_gate_init(&g);
        assert_int_equal(baseline_gate_figures(&g, bad[i].list, err, sizeof err), -1);
        assert_contains(err, "--baseline-figures: ");
        assert_contains(err, bad[i].says);
    }

    /* tolerances: a figure's own wins over every figure's, in either order */
    baseline_gate_init(&g);
    assert_int_equal(baseline_gate_tolerance(&g, "write_max_mean=0.5", 0, err, sizeof err), 0);
    assert_int_equal(baseline_gate_tolerance(&g, "0.2", 0, err, sizeof err), 0);
    assert_int_equal(baseline_gate_tolerance(&g, "hottest_share=0.02", 1, err, sizeof err), 0);
    assert_int_equal(baseline_gate_tolerance(&g, "0", 1, err, sizeof err), 0);
    t = baseline_gate_tol(&g, figure_find("write_max_mean"));
    assert_true(t.relative == 0.5 && t.absolute == 0);
    t = baseline_gate_tol(&g, figure_find("hottest_share"));
    assert_true(t.relative == 0.2 && t.absolute == 0.02);
    assert_int_equal(baseline_gate_check(&g, err, sizeof err), 0);
    static const struct { const char *text; int absolute; const char *says; } bad_tol[] = {
        { "", 0, "--tolerance: expected a relative change" },
        { "-0.01", 0, "expected a relative change" },
        { "1e7", 0, "expected a relative change" },
        { "nan", 0, "expected a relative change" },
        { "inf", 0, "expected a relative change" },
        { "5%", 0, "found '5%'" },
        { "0.1 ", 0, "expected a relative change" },
        { "write_max_mean=", 0, "found 'write_max_mean='" },
        { "=0.1", 0, "expected a figure name" },
        { "write_max_men=0.1", 0, "unknown figure 'write_max_men' (did you mean "
                                  "'write_max_mean'?)" },
        { "1e16", 1, "--tolerance-abs: expected an absolute change" },
        { "server_busy=0.1", 1, "'server_busy' is a server figure" },
    };
    for (size_t i = 0; i < sizeof bad_tol / sizeof *bad_tol; i++) {
        baseline_gate_init(&g);
        assert_int_equal(baseline_gate_tolerance(&g, bad_tol[i].text, bad_tol[i].absolute, err,
                                                 sizeof err), -1);
        assert_contains(err, bad_tol[i].says);
    }
    baseline_gate_init(&g);
    assert_int_equal(baseline_gate_tolerance(&g, "1e6", 0, err, sizeof err), 0);
    assert_int_equal(baseline_gate_tolerance(&g, "1e15", 1, err, sizeof err), 0);

    /* a tolerance of a figure not judged would be silently unused */
    baseline_gate_init(&g);
    assert_int_equal(baseline_gate_tolerance(&g, "p999_latency_us=0.5", 0, err, sizeof err), 0);
    assert_int_equal(baseline_gate_check(&g, err, sizeof err), -1);
    assert_contains(err, "--tolerance p999_latency_us=0.5: p999_latency_us is not judged; add it "
                         "with --baseline-figures headline,p999_latency_us");
    assert_int_equal(baseline_gate_figures(&g, "headline,p999_latency_us", err, sizeof err), 0);
    assert_int_equal(baseline_gate_check(&g, err, sizeof err), 0);
}

/* The JSON report at path with "samples" set to n and each run given a
 * "spread" of every figure with a number in its "figures": min lo x, the
 * value as median, max hi x (a band around the one run's values). */
static void fake_samples(const char *path, int n, double lo, double hi)
{
    char err[512];
    json_object *root = json_read_file(path, JSON_READ_MAX_DEFAULT, NULL, err, sizeof err);
    assert_non_null(root);
    json_object_object_add(root, "samples", json_object_new_int(n));
    json_object *runs = json_member(root, "runs", json_type_array);
    assert_non_null(runs);
    for (size_t i = 0; i < json_object_array_length(runs); i++) {
        json_object *run = json_object_array_get_idx(runs, i);
        json_object *figures = json_member(run, "figures", json_type_object);
        json_object *spread = json_object_new_object();
        json_object_object_foreach(figures, name, v) {
            if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
                continue;
            double x = json_object_get_double(v);
            json_object *s = json_object_new_object();
            json_object_object_add(s, "min", json_object_new_double(x * lo));
            json_object_object_add(s, "median", json_object_new_double(x));
            json_object_object_add(s, "max", json_object_new_double(x * hi));
            json_object_object_add(spread, name, s);
        }
        json_object_object_add(run, "spread", spread);
    }
    assert_int_equal(json_object_to_file_ext(path, root, JSON_C_TO_STRING_PLAIN), 0);
    json_object_put(root);
}

/* A baseline of several samples is judged by its spread: the worse key's
 * run fails against one salted run and against a spread as narrow as one
 * run, passes against a spread wide enough to hold it; one run compares
 * with a baseline of 3 samples (before, refused: "medians and single runs
 * do not compare"). A "samples" that is not a whole number is refused. */
static void test_baseline_of_samples(void **state)
{
    (void)state;
    scenario good, bad;
    small_scenario(&good, "salt(4) ts");
    small_scenario(&bad, "ts");
    char path[64];
    snprintf(path, sizeof path, "%s", report_of(&good));
    sim_results res;
    run_all(&bad, &res);
    baseline_gate g;
    baseline_gate_init(&g);
    baseline *b;
    baseline_report r;
    char err[1024];
    for (int k = 0; k < 4; k++) {
        if (k == 1)
            fake_samples(path, 3, 1, 1);  /* a spread as narrow as one run */
        if (k == 2)
            fake_samples(path, 3, 0.5, 20); /* wide enough for the timestamp key */
        if (k == 3) /* the same, the headline chosen: every figure judged */
            assert_int_equal(baseline_gate_figures(&g, "headline", err, sizeof err), 0);
        assert_int_equal(baseline_load(path, JSON_READ_MAX_DEFAULT, &b, err, sizeof err), 0);
        if (k == 2) { /* the default gate leaves figures that wide unjudged */
            int rc = baseline_compare(b, &res, &g, &r, err, sizeof err);
            if (rc == 0) {
                assert_int_equal(r.regressions, 0);
                assert_true(r.moving >= 4);
                baseline_report_free(&r);
            } else {
                assert_non_null(strstr(err, "no figure compared"));
            }
            baseline_free(b);
            continue;
        }
        assert_int_equal(baseline_compare(b, &res, &g, &r, err, sizeof err), 0);
        assert_int_equal(r.samples, 1);
        assert_int_equal(r.old_samples, k ? 3 : 1);
        assert_int_equal(r.moving, 0);
        assert_true(r.compared >= 4);
        if (k < 2 && r.regressions == 0)
            fail_msg("case %d: the timestamp key passed against the salted key", k);
        if (k == 3 && r.regressions)
            fail_msg("within the spread: %zu regressions, the first %s", r.regressions,
                     r.changes[0].figure->name);
        for (size_t i = 0; i < r.nchanges; i++) /* only the gate's figures */
            assert_true(baseline_headline(r.changes[i].figure));
        baseline_report_free(&r);
        baseline_free(b);
    }
    static const char *const bad_samples[] = { "0", "\"3\"", "1.5", "-2" };
    for (size_t i = 0; i < sizeof bad_samples / sizeof *bad_samples; i++) {
        char text[512];
        snprintf(text, sizeof text, "{\"regionsim\": %d, \"samples\": %s, \"runs\": "
                 "[{\"scheme\": \"mine\", \"figures\": {\"write_cov\": 0.5}}]}\n",
                 REPORT_JSON_SCHEMA, bad_samples[i]);
        const char *p = test_temp_file("baseline-samples", text);
        assert_int_equal(baseline_load(p, JSON_READ_MAX_DEFAULT, &b, err, sizeof err), -1);
        assert_contains(err, "samples: expected a whole number of samples from 1, found");
        unlink(p);
    }
    sim_results_free(&res);
    scenario_release(&good);
    scenario_release(&bad);
    unlink(path);
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    setenv("LC_ALL", "C", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_run_has_no_change),
        cmocka_unit_test(test_worse_key_regresses),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_loaded_baseline_outlives_its_file),
        cmocka_unit_test(test_baseline_from_a_pipe),
        cmocka_unit_test(test_judge_tolerance_and_floor),
        cmocka_unit_test(test_judge_spread),
        cmocka_unit_test(test_gate),
        cmocka_unit_test(test_baseline_of_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
