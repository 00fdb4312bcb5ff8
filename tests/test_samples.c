/* test_samples.c -- figures across samples (reports/samples.h), and the
 * folding of an assertion's results across samples (assertion_merge).
 *
 * The spread is checked on runs made by hand, whose figures are plain
 * counters (writes) or undefined (a rate over no time), against values
 * worked out here: min, median (odd and even counts, the mean of the middle
 * two), max, and how undefined samples are left out. Then the engine runs
 * a small scenario with three seeds and the recorded figures are checked
 * against each seed's own run: sample k is exactly the run of seed+k.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "tests/support.h"

#include "reports/assertion.h"
#include "reports/figures.h"
#include "reports/samples.h"
#include "engine/engine.h"
#include "scenario/scenario.h"

/* ---- by hand ---- */

/* res with two runs, "a" and "b", whose only figures that matter are
 * writes and the throughput (achieved: defined when time passed). */
static void two_runs(sim_results *res, uint64_t writes_a, uint64_t writes_b, uint64_t duration)
{
    memset(res, 0, sizeof *res);
    res->nruns = 2;
    res->runs = calloc(2, sizeof *res->runs);
    assert_non_null(res->runs);
    res->runs[0].scheme_name = strdup("a");
    res->runs[1].scheme_name = strdup("b");
    res->runs[0].writes = writes_a;
    res->runs[1].writes = writes_b;
    for (int i = 0; i < 2; i++) {
        res->runs[i].duration_us = duration;
        res->runs[i].achieved_per_s = (double)(i ? writes_b : writes_a);
    }
    res->seed = 7;
    res->nsamples = 1;
}

static void assert_spread(figure_spread s, double min, double median, double max,
                          uint32_t defined)
{
    assert_int_equal(s.defined, defined);
    if (defined == 0) {
        assert_true(isnan(s.min) && isnan(s.median) && isnan(s.max));
        return;
    }
    assert_double_equal(s.min, min, 1e-12);
    assert_double_equal(s.median, median, 1e-12);
    assert_double_equal(s.max, max, 1e-12);
}

static void test_one_sample_is_the_run(void **state)
{
    (void)state;
    sim_results res;
    two_runs(&res, 10, 20, 1000);
    const figure *writes = figure_find("writes");
    assert_non_null(writes);
    assert_spread(samples_spread(writes, &res, 0), 10, 10, 10, 1);
    assert_spread(samples_spread(writes, &res, 1), 20, 20, 20, 1);
    assert_double_equal(samples_value(writes, &res, 1, 0), 20, 0);
    /* begun with one sample: the same */
    assert_int_equal(samples_begin(&res, 1), 0);
    assert_non_null(res.sample_values);
    assert_spread(samples_spread(writes, &res, 1), 20, 20, 20, 1);
    sim_results_free(&res);
}

static void test_min_median_max(void **state)
{
    (void)state;
    sim_results res, s;
    two_runs(&res, 30, 5, 1000);
    assert_int_equal(samples_begin(&res, 4), 0);
    assert_int_equal(res.nsamples, 4);
    const figure *writes = figure_find("writes");
    /* run a: 30, 10, 40, 20 -> median (20 + 30) / 2; run b: 5, 5, 1, 9 -> (5 + 5) / 2 */
    uint64_t a[] = { 10, 40, 20 }, b[] = { 5, 1, 9 };
    for (uint32_t k = 1; k < 4; k++) {
        two_runs(&s, a[k - 1], b[k - 1], 1000);
        samples_record(&res, k, &s);
        sim_results_free(&s);
    }
    assert_spread(samples_spread(writes, &res, 0), 10, 25, 40, 4);
    assert_spread(samples_spread(writes, &res, 1), 1, 5, 9, 4);
    assert_double_equal(samples_value(writes, &res, 0, 2), 40, 0);
    /* the runs themselves stay the first sample's */
    assert_int_equal(res.runs[0].writes, 30);
    assert_double_equal(figure_value(writes, &res.runs[0], 0), 30, 0);
    sim_results_free(&res);
}

static void test_odd_count_and_undefined_samples(void **state)
{
    (void)state;
    sim_results res, s;
    two_runs(&res, 3, 3, 0); /* no time: achieved undefined in sample 0 */
    assert_int_equal(samples_begin(&res, 5), 0);
    const figure *achieved = figure_find("achieved_ops_per_s"), *writes = figure_find("writes");
    assert_non_null(achieved);
    uint64_t w[] = { 9, 1, 7, 5 }, d[] = { 1000, 0, 1000, 1000 };
    for (uint32_t k = 1; k < 5; k++) {
        two_runs(&s, w[k - 1], w[k - 1], d[k - 1]);
        samples_record(&res, k, &s);
        sim_results_free(&s);
    }
    /* writes 3, 9, 1, 7, 5: median 5 */
    assert_spread(samples_spread(writes, &res, 0), 1, 5, 9, 5);
    /* achieved defined in samples 1, 3, 4 (9, 7, 5): median 7 */
    assert_spread(samples_spread(achieved, &res, 0), 5, 7, 9, 3);
    sim_results_free(&res);

    two_runs(&res, 3, 3, 0);
    assert_int_equal(samples_begin(&res, 2), 0);
    two_runs(&s, 3, 3, 0);
    samples_record(&res, 1, &s);
    sim_results_free(&s);
    assert_spread(samples_spread(achieved, &res, 0), 0, 0, 0, 0); /* never defined */
    sim_results_free(&res);
}

/* ---- assertion_merge ---- */

static assertion parsed(const char *text)
{
    assertion a;
    char err[256];
    if (assertion_parse(text, &a, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    return a;
}

static assertion_result one(const assertion *a, double value, int passed, uint64_t seed)
{
    return (assertion_result){ .assertion = a, .scheme = "s", .value = value, .passed = passed,
                               .seed = seed, .samples = 1, .samples_failed = !passed };
}

static void test_merge_keeps_the_worst(void **state)
{
    (void)state;
    assertion le = parsed("write_max_mean <= 1.2");
    assertion_result r = one(&le, 1.1, 1, 42);
    assertion_result x = one(&le, 1.15, 1, 43);
    assertion_merge(&r, &x); /* both pass: the nearer the bound */
    assert_true(r.passed);
    assert_double_equal(r.value, 1.15, 0);
    assert_int_equal(r.seed, 43);
    x = one(&le, 1.3, 0, 44);
    assertion_merge(&r, &x); /* a failure: the worst value, and 1 of 3 failed: it holds */
    assert_true(r.passed);
    assert_double_equal(r.value, 1.3, 0);
    assert_int_equal(r.seed, 44);
    x = one(&le, 1.1, 1, 45);
    assertion_merge(&r, &x); /* a later pass changes neither verdict nor value */
    assert_true(r.passed);
    assert_int_equal(r.seed, 44);
    x = one(&le, 1.3, 0, 46);
    assertion_merge(&r, &x); /* a tie keeps the earlier seed; 2 of 5 failed: it holds */
    assert_int_equal(r.seed, 44);
    assert_int_equal(r.samples, 5);
    assert_int_equal(r.samples_failed, 2);
    assert_true(r.passed);
    char held[512];
    assertion_describe(&r, held, sizeof held);
    if (!strstr(held, "passed ") || !strstr(held, "(seed 44, the worst of 5 samples; 2 failed, "
                                                  "fewer than half)"))
        fail_msg("%s", held);
    x = one(&le, NAN, 0, 47);
    x.why = "nothing was read";
    assertion_merge(&r, &x); /* undefined is worse than any value */
    assert_true(isnan(r.value));
    assert_string_equal(r.why, "nothing was read");
    assert_int_equal(r.samples_failed, 3);
    assert_false(r.passed); /* 3 of 6: not most of them passed (a tie fails) */
    x = one(&le, 1.3, 0, 48);
    assertion_merge(&r, &x);
    assert_false(r.passed); /* 4 of 7 failed */
    assert_int_equal(r.samples, 7);

    char line[512];
    assertion_describe(&r, line, sizeof line);
    if (!strstr(line, "(seed 47, the worst of 7 samples; 4 failed)"))
        fail_msg("%s", line);
}

static void test_merge_follows_the_operator(void **state)
{
    (void)state;
    assertion ge = parsed("achieved_ops_per_s >= 100");
    assertion_result r = one(&ge, 150, 1, 1), x = one(&ge, 120, 1, 2);
    assertion_merge(&r, &x); /* >=: the lowest is the worst */
    assert_double_equal(r.value, 120, 0);
    assertion eq = parsed("splits == 4");
    r = one(&eq, 4, 1, 1);
    x = one(&eq, 7, 0, 2);
    assertion_result y = one(&eq, 2, 0, 3);
    assertion_merge(&r, &x);
    assertion_merge(&r, &y); /* ==: the farthest from the bound (7 is 3 away, 2 is 2) */
    assert_double_equal(r.value, 7, 0);
    assert_int_equal(r.samples_failed, 2);
    assert_false(r.passed);
}

/* ---- through the engine ---- */

static void small_scenario(scenario *sc)
{
    char err[512];
    scenario_defaults(sc);
    sc->nschemes = 0;
    scenario_add_scheme(sc, "salted", "salt(4) ts");
    scenario_add_scheme(sc, "plain", "ts");
    assert_int_equal(scenario_set(sc, NULL, "servers", "4", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "duration", "2m", err, sizeof err), 0);
    assert_int_equal(scenario_set(sc, NULL, "region_size", "256KiB", err, sizeof err), 0);
    assert_int_equal(scenario_validate(sc, err, sizeof err), 0);
}

static void test_samples_are_the_seeds_own_runs(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc);
    char err[512];
    sim_results res, again;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    assert_int_equal(samples_begin(&res, 3), 0);
    for (uint32_t k = 1; k < 3; k++) {
        scenario other = sc;
        other.seed = sc.seed + k;
        assert_int_equal(engine_run_all(&other, NULL, &again, err, sizeof err), 0);
        samples_record(&res, k, &again);
        for (size_t i = 0; i < res.nruns; i++)
            for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
                double want = figure_value(f, &again.runs[i], 0), got = samples_value(f, &res, i, k);
                if (!(isnan(want) && isnan(got)) && want != got)
                    fail_msg("%s of %s, sample %u: %.17g, the seed's run %.17g", f->name,
                             res.runs[i].scheme_name, (unsigned)k, got, want);
            }
        sim_results_free(&again);
    }
    /* the seeds differ: salted's balance is not the same in all three */
    const figure *mm = figure_find("write_max_mean");
    figure_spread s = samples_spread(mm, &res, 0);
    assert_int_equal(s.defined, 3);
    assert_true(s.min <= s.median && s.median <= s.max);
    assert_true(s.min < s.max);
    sim_results_free(&res);
    scenario_release(&sc);
}

/* engine_run_seeds' on_run: into res's (k, scheme) slots. */
static void record_seed(void *ctx, uint32_t k, size_t scheme, const run_result *run)
{
    samples_record_run(ctx, k, scheme, run);
}

/* The samples run side by side (engine_run_seeds, a task per seed and
 * scheme, recorded run by run) hold exactly what running each seed whole
 * and recording it gives, on one thread and on three. */
static void test_seeds_side_by_side_are_the_seeds_runs(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc);
    char err[512];
    sim_results serial, again;
    assert_int_equal(engine_run_all(&sc, NULL, &serial, err, sizeof err), 0);
    assert_int_equal(samples_begin(&serial, 4), 0);
    for (uint32_t k = 1; k < 4; k++) {
        scenario other = sc;
        other.seed = sc.seed + k;
        assert_int_equal(engine_run_all(&other, NULL, &again, err, sizeof err), 0);
        samples_record(&serial, k, &again);
        sim_results_free(&again);
    }
    const uint32_t threads[] = { 1, 3 };
    for (size_t t = 0; t < 2; t++) {
        sim_results res;
        sc.jobs = threads[t];
        assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
        assert_int_equal(samples_begin(&res, 4), 0);
        engine_seed_observer obs = { record_seed, NULL, &res };
        assert_int_equal(engine_run_seeds(&sc, 1, 4, &obs, err, sizeof err), 0);
        size_t n = (size_t)4 * res.nruns * res.nvalues;
        for (size_t i = 0; i < n; i++) {
            double a = serial.sample_values[i], b = res.sample_values[i];
            if (!(isnan(a) && isnan(b)) && a != b)
                fail_msg("jobs %u: value %zu is %.17g, the seed's own run %.17g",
                         (unsigned)threads[t], i, b, a);
        }
        sim_results_free(&res);
    }
    sim_results_free(&serial);
    scenario_release(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_sample_is_the_run),
        cmocka_unit_test(test_min_median_max),
        cmocka_unit_test(test_odd_count_and_undefined_samples),
        cmocka_unit_test(test_merge_keeps_the_worst),
        cmocka_unit_test(test_merge_follows_the_operator),
        cmocka_unit_test(test_samples_are_the_seeds_own_runs),
        cmocka_unit_test(test_seeds_side_by_side_are_the_seeds_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
