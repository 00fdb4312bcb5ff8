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

#include "reports/baseline.h"
#include "reports/json_read.h"
#include "reports/report.h"
#include "sim/engine.h"
#include "sim/scenario.h"

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

/* The baseline at path loaded under the default size cap and compared
 * with res (a failure of either: -1, its message in err). */
static int compare_with(const char *path, const sim_results *res, double tolerance,
                        baseline_report *r, char *err, size_t errcap)
{
    baseline *b;
    memset(r, 0, sizeof *r);
    if (baseline_load(path, JSON_READ_MAX_DEFAULT, &b, err, errcap) < 0)
        return -1;
    int rc = baseline_compare(b, res, tolerance, r, err, errcap);
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
                 r.changes[0].figure->name, r.changes[0].old_value, r.changes[0].new_value);
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
            assert_true(c->new_value > c->old_value);
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
    assert_int_equal(compare_with(bad_path, &res, 1e9, &r, err, sizeof err), 0);
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
    assert_int_equal(baseline_compare(b, &res, 0, &r, err, sizeof err), 0);
    assert_true(r.compared > 10);
    assert_int_equal(r.nchanges, 0);
    baseline_report_free(&r);
    assert_int_equal(compare_with(path, &res, 0, &r, err, sizeof err), 0); /* read anew */
    assert_true(r.regressions > 0);
    baseline_report_free(&r);
    unlink(path); /* and gone */
    assert_int_equal(baseline_compare(b, &res, 0, &r, err, sizeof err), 0);
    assert_int_equal(r.nchanges, 0);
    baseline_report_free(&r);
    /* loaded values, not the document's tree: comparing twice gives the same */
    assert_int_equal(baseline_compare(b, &res, BASELINE_TOLERANCE, &r, err, sizeof err), 0);
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
    assert_int_equal(baseline_compare(b, &res, BASELINE_TOLERANCE, &from_pipe, err, sizeof err),
                     0);
    assert_int_equal(compare_with(path, &res, BASELINE_TOLERANCE, &from_file, err, sizeof err),
                     0);
    assert_true(from_pipe.regressions > 0);
    assert_int_equal(from_pipe.compared, from_file.compared);
    assert_int_equal(from_pipe.nchanges, from_file.nchanges);
    for (size_t i = 0; i < from_pipe.nchanges; i++) {
        assert_ptr_equal(from_pipe.changes[i].figure, from_file.changes[i].figure);
        assert_true(from_pipe.changes[i].old_value == from_file.changes[i].old_value);
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

/* The rule the sweeps share (baseline_judge): relative beyond the
 * tolerance, absolute from 0, the figure's direction, none for counts;
 * and --tolerance's bounds. */
static void test_judge_and_tolerance(void **state)
{
    (void)state;
    const figure *lower = figure_find("write_max_mean");   /* lower is better */
    const figure *higher = figure_find("write_jain");   /* higher is better */
    const figure *count = figure_find("regions");
    assert_non_null(lower);
    assert_non_null(count);
    assert_int_equal(lower->better, FIGURE_LOWER_BETTER);
    assert_int_equal(count->better, FIGURE_NEITHER);
    assert_int_equal(baseline_judge(lower, 2, 2.09, 0.05), BASELINE_SAME);
    assert_int_equal(baseline_judge(lower, 2, 2.11, 0.05), BASELINE_REGRESSION);
    assert_int_equal(baseline_judge(lower, 2, 1.89, 0.05), BASELINE_IMPROVEMENT);
    assert_int_equal(baseline_judge(lower, 2, 2.0000001, 0), BASELINE_REGRESSION);
    assert_int_equal(baseline_judge(lower, 0, 0.04, 0.05), BASELINE_SAME);
    assert_int_equal(baseline_judge(lower, 0, 0.06, 0.05), BASELINE_REGRESSION);
    assert_non_null(higher);
    assert_int_equal(higher->better, FIGURE_HIGHER_BETTER);
    assert_int_equal(baseline_judge(higher, 0.5, 0.6, 0.05), BASELINE_IMPROVEMENT);
    assert_int_equal(baseline_judge(higher, 0.5, 0.4, 0.05), BASELINE_REGRESSION);
    assert_int_equal(baseline_judge(count, 6, 1, 0.05), BASELINE_CHANGED);
    assert_int_equal(baseline_judge(count, 6, 6, 0), BASELINE_SAME);
    char buf[32];
    assert_string_equal(baseline_change_text(buf, sizeof buf, baseline_relative(2, 3)), "+50.0%");
    assert_string_equal(baseline_change_text(buf, sizeof buf, baseline_relative(0, 3)), "from 0");
    assert_string_equal(baseline_verdict_name(BASELINE_REGRESSION), "REGRESSION");
    double t = -1;
    assert_int_equal(baseline_parse_tolerance("0", &t), 0);
    assert_true(t == 0);
    assert_int_equal(baseline_parse_tolerance("1e6", &t), 0);
    static const char *const bad[] = { "", "-0.01", "1e7", "nan", "inf", "5%", "0.1 " };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(baseline_parse_tolerance(bad[i], &t), -1);
    assert_true(t == 1e6);
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
        cmocka_unit_test(test_judge_and_tolerance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
