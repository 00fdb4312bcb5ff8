/* test_cli_samples.c -- the seeds as a user meets them: several by
 * default (the median and range of every headline figure), --samples N,
 * assertions held by most samples, baselines of any sample counts, and
 * advise scoring the medians.
 *
 * argv[1] is the path of the built binary, argv[2] the source tree
 * (tests/cli_support.h runs it in an environment set there).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "scenario/scenario.h" /* SCENARIO_DEFAULT_SAMPLES */
#include "tests/cli_support.h"

/* The number at runs[0].PATH... of a JSON report (spread entries nest). */
static double run_number(json_object *root, const char *a, const char *b, const char *c)
{
    json_object *v = member(json_object_array_get_idx(member(root, "runs"), 0), a);
    if (b) v = member(v, b);
    if (c) v = member(v, c);
    return json_object_get_double(v);
}

/* --samples N: the same output twice; every figure's spread brackets the
 * first sample's value; an assertion the seed's own run passes but another
 * sample fails fails the job (exit 1), naming the worst seed; a baseline of
 * another number of samples is refused; bad counts are usage errors. */
static void test_samples_exit_status(void **state)
{
    (void)state;
    char scheme[] = "--scheme=salt(4) ts";
    output a = run("run", "--duration", "3m", scheme, "--samples", "3", "--format", "json", NULL);
    output b = run("run", "--duration", "3m", scheme, "--samples", "3", "--format", "json", NULL);
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    output_free(&b);
    json_object *root = json_tokener_parse(a.out);
    assert_non_null(root);
    assert_int_equal(json_object_get_int64(member(root, "samples")), 3);
    double value = run_number(root, "figures", "write_max_mean", NULL);
    double lo = run_number(root, "spread", "write_max_mean", "min");
    double mid = run_number(root, "spread", "write_max_mean", "median");
    double hi = run_number(root, "spread", "write_max_mean", "max");
    assert_true(lo <= value && value <= hi);
    assert_true(lo <= mid && mid <= hi);
    assert_true(lo < hi); /* three seeds, three salts: not all alike */
    json_object_put(root);
    output_free(&a);

    /* An assertion holds when most samples hold it (the median's verdict):
     * one sample of three beyond the bound passes, saying so; two fail.
     * The JSON figures are rounded (6 digits): each bound lies halfway
     * between two samples, not at a rounded value itself */
    char one_off[96], two_off[96];
    if (mid < hi)
        snprintf(one_off, sizeof one_off, "write_max_mean <= %.17g", (mid + hi) / 2);
    else
        snprintf(one_off, sizeof one_off, "write_max_mean >= %.17g", (lo + mid) / 2);
    if (lo < mid)
        snprintf(two_off, sizeof two_off, "write_max_mean <= %.17g", (lo + mid) / 2);
    else
        snprintf(two_off, sizeof two_off, "write_max_mean >= %.17g", (mid + hi) / 2);
    output held = run("run", "--duration", "3m", scheme, "--samples", "3", "--assert", one_off,
                      NULL);
    assert_int_equal(held.status, 0);
    output_free(&held);
    held = run("run", "--duration", "3m", scheme, "--samples", "3", "--assert", one_off,
               "--format", "json", NULL);
    assert_non_null(strstr(held.out, "\"samples_failed\": 1}"));
    output_free(&held);
    output three = run("run", "--duration", "3m", scheme, "--samples", "3", "--assert", two_off,
                       NULL);
    assert_int_equal(three.status, 1);
    assert_non_null(strstr(three.err, "FAILED write_max_mean"));
    assert_non_null(strstr(three.err, "the worst of 3 samples; 2 failed)"));
    output_free(&three);
    (void)value;

    char base[] = "/tmp/regionsim-samples-XXXXXX";
    int fd = mkstemp(base);
    assert_true(fd >= 0);
    close(fd);
    output o = run("run", "--duration", "3m", scheme, "--samples", "2", "--format", "json", "-o",
                   base, NULL);
    assert_int_equal(o.status, 0);
    output_free(&o);
    o = run("run", "--duration", "3m", scheme, "--samples", "2", "--baseline", base, NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "figures within baseline"));
    output_free(&o);
    /* one run (seed 42, one of the baseline's samples) is within the
     * baseline's range: any numbers of samples compare (this was refused) */
    o = run("run", "--duration", "3m", scheme, "--samples", "1", "--baseline", base, NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "figures within baseline"));
    output_free(&o);
    unlink(base);

    assert_usage_error(run("run", "--duration", "1m", "--samples", "0", NULL), "samples", "0");
    assert_usage_error(run("run", "--duration", "1m", "--samples", "1001", NULL), "samples",
                       "1001");
    assert_usage_error(run("run", "--duration", "1m", "--scheme", "ts", "--seed",
                           "18446744073709551615", "--samples", "2", NULL), "samples", "2^64-1");
    output last = run("run", "--duration", "1m", "--scheme", "ts", "--seed",
                      "18446744073709551614", "--samples", "2", NULL);
    assert_int_equal(last.status, 0); /* the last seed there is */
    output_free(&last);
    assert_usage_error(run("run", "--duration", "1m", "--scheme", "ts", "--samples", "2",
                           "--write-trace", "/tmp/regionsim-never-written", NULL),
                       "--write-trace", "samples");
    assert_int_equal(access("/tmp/regionsim-never-written", F_OK), -1);
}

/* Several seeds by default (issue 28): run and compare report
 * SCENARIO_DEFAULT_SAMPLES seeds without being asked, their figures'
 * spread in the JSON and the medians with a range line in the text; the
 * samples after the first run side by side (a task per seed and scheme),
 * and the bytes are the same whatever the threads; --samples 1 is one
 * run as before; --write-trace without --samples records seed 42 alone
 * and says so, with --samples 2 it is refused. */
static void test_samples_by_default(void **state)
{
    (void)state;
    output o = run("run", "--duration", "2m", "--scheme", "ts", "--format", "json", NULL);
    assert_int_equal(o.status, 0);
    json_object *root = json_tokener_parse(o.out);
    assert_non_null(root);
    assert_int_equal(json_object_get_int64(member(root, "samples")), SCENARIO_DEFAULT_SAMPLES);
    assert_true(SCENARIO_DEFAULT_SAMPLES > 1);
    json_object *run0 = json_object_array_get_idx(member(root, "runs"), 0), *spread = NULL;
    assert_true(json_object_object_get_ex(run0, "spread", &spread));
    json_object_put(root);
    output_free(&o);

    o = run("run", "--duration", "2m", "--scheme", "ts", "--samples", "1", "--format", "json",
            NULL);
    assert_int_equal(o.status, 0);
    root = json_tokener_parse(o.out);
    assert_int_equal(json_object_get_int64(member(root, "samples")), 1);
    run0 = json_object_array_get_idx(member(root, "runs"), 0);
    assert_false(json_object_object_get_ex(run0, "spread", &spread));
    json_object_put(root);
    output_free(&o);
    o = run("compare", "--duration", "2m", "--samples", "1", NULL);
    assert_int_equal(o.status, 0);
    assert_null(strstr(o.out, "\nsamples "));
    assert_null(strstr(o.out, "range:"));
    output_free(&o);

    /* the default compare's text: medians of the seeds, a range line where
     * they differ; the same bytes on 1 thread and on 2 */
    output one = run("compare", "--duration", "10m", "--jobs", "1", NULL);
    output two = run("compare", "--duration", "10m", "--jobs", "2", NULL);
    assert_int_equal(one.status, 0);
    assert_int_equal(two.status, 0);
    char note[160];
    snprintf(note, sizeof note, "\nwhere the writes land\n(each figure the median of %d seeds, "
             "42..%d; range: min-max of those the seed moves)\n", SCENARIO_DEFAULT_SAMPLES,
             42 + SCENARIO_DEFAULT_SAMPLES - 1);
    assert_non_null(strstr(one.out, note));
    assert_non_null(strstr(one.out, "\n  range: "));
    assert_string_equal(one.out, two.out);
    output_free(&one);
    output_free(&two);

    char trace[] = "/tmp/regionsim-trace-XXXXXX";
    int fd = mkstemp(trace);
    assert_true(fd >= 0);
    close(fd);
    o = run("run", "--duration", "1m", "--scheme", "ts", "--write-trace", trace, "--format",
            "json", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "--write-trace records one run: seed 42 alone"));
    root = json_tokener_parse(o.out);
    assert_int_equal(json_object_get_int64(member(root, "samples")), 1);
    json_object_put(root);
    struct stat st;
    assert_int_equal(stat(trace, &st), 0);
    assert_true(st.st_size > 0);
    output_free(&o);
    o = run("run", "--duration", "1m", "--scheme", "ts", "--samples", "1", "--write-trace",
            trace, NULL); /* asked for one: nothing to say */
    assert_int_equal(o.status, 0);
    assert_null(strstr(o.err, "records one run"));
    output_free(&o);
    unlink(trace);
}

/* advise scores each candidate on the median across the seeds: with
 * --samples 3 a candidate's figures are what compare --samples 3 gives
 * as that scheme's spread median, not the first seed's value. */
static void test_advise_scores_the_median(void **state)
{
    (void)state;
    output a = run("advise", "--budget", "3", "--duration", "2m", "--samples", "3", "--format",
                   "json", NULL);
    assert_int_equal(a.status, 0);
    json_object *root = json_tokener_parse(a.out);
    assert_non_null(root);
    assert_int_equal(json_object_get_int64(member(root, "samples")), 3);
    json_object *cands = member(root, "candidates");
    size_t checked = 0;
    for (size_t i = 0; i < json_object_array_length(cands); i++) {
        json_object *c = json_object_array_get_idx(cands, i);
        const char *scheme = json_object_get_string(member(c, "scheme"));
        double got = json_object_get_double(member(member(c, "figures"), "write_max_mean"));
        output cmp = run("compare", "--scheme", scheme, "--duration", "2m", "--samples", "3",
                         "--format", "json", NULL);
        assert_int_equal(cmp.status, 0);
        json_object *doc = json_tokener_parse(cmp.out);
        double median = run_number(doc, "spread", "write_max_mean", "median");
        double first = run_number(doc, "figures", "write_max_mean", NULL);
        if (fabs(got - median) > 1e-5 * fabs(median)) /* the report prints 6 digits */
            fail_msg("%s: advise scored write_max_mean %.17g, the seeds' median is %.17g (seed "
                     "42's %.17g)", scheme, got, median, first);
        checked += first != median; /* a candidate where the two differ */
        json_object_put(doc);
        output_free(&cmp);
    }
    assert_true(checked >= 1);
    json_object_put(root);
    output_free(&a);
}

int main(int argc, char **argv)
{
    cli_args(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_exit_status),
        cmocka_unit_test(test_samples_by_default),
        cmocka_unit_test(test_advise_scores_the_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
