/* test_stats.c -- imbalance and window figures against hand-computed values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reports/stats.h"

#define EPS 1e-9

static void test_equal_counts_are_perfectly_even(void **state)
{
    (void)state;
    uint64_t x[] = { 7, 7, 7, 7, 7 };
    imbalance im = stats_imbalance(x, 5);
    assert_true(im.defined);
    assert_int_equal(im.total, 35);
    assert_float_equal(im.max_mean, 1.0, EPS);
    assert_float_equal(im.cov, 0.0, EPS);
    assert_float_equal(im.gini, 0.0, EPS);
    assert_float_equal(im.jain, 1.0, EPS);
    assert_int_equal(im.hottest, 0); /* lowest index on ties */
    assert_float_equal(im.hottest_share, 0.2, EPS);
}

static void test_all_on_one_server_is_worst(void **state)
{
    (void)state;
    uint64_t x[] = { 0, 0, 0, 1000, 0, 0, 0, 0 };
    imbalance im = stats_imbalance(x, 8);
    assert_true(im.defined);
    assert_float_equal(im.max_mean, 8.0, EPS);
    assert_float_equal(im.gini, 7.0 / 8.0, EPS);
    assert_float_equal(im.jain, 1.0 / 8.0, EPS);
    assert_float_equal(im.cov, sqrt(7.0), EPS); /* sd = mean * sqrt(n-1) */
    assert_int_equal(im.hottest, 3);
    assert_float_equal(im.hottest_share, 1.0, EPS);
}

/* {3, 1, 4, 2}: total 10, mean 2.5, max 4 at index 2.
 * variance = (0.25 + 2.25 + 2.25 + 0.25) / 4 = 1.25, CoV = sqrt(1.25) / 2.5.
 * Gini: sorted 1 2 3 4, sum i*x = 30, 2*30/(4*10) - 5/4 = 0.25.
 * Jain: 10^2 / (4 * 30) = 5/6. */
static void test_uneven_counts_by_hand(void **state)
{
    (void)state;
    uint64_t x[] = { 3, 1, 4, 2 };
    imbalance im = stats_imbalance(x, 4);
    assert_true(im.defined);
    assert_int_equal(im.max, 4);
    assert_float_equal(im.mean, 2.5, EPS);
    assert_float_equal(im.max_mean, 1.6, EPS);
    assert_float_equal(im.cov, sqrt(1.25) / 2.5, EPS);
    assert_float_equal(im.gini, 0.25, EPS);
    assert_float_equal(im.jain, 5.0 / 6.0, EPS);
    assert_int_equal(im.hottest, 2);
    assert_float_equal(im.hottest_share, 0.4, EPS);
    assert_int_equal(x[0], 3); /* the input is not sorted in place */
}

static void test_all_zero_or_empty_is_undefined(void **state)
{
    (void)state;
    uint64_t x[] = { 0, 0, 0 };
    imbalance im = stats_imbalance(x, 3);
    assert_false(im.defined);
    assert_true(isnan(im.max_mean) && isnan(im.cov) && isnan(im.gini) && isnan(im.jain));
    assert_true(isnan(im.hottest_share));
    assert_false(stats_imbalance(NULL, 0).defined);
}

static void test_server_counts_come_from_the_run(void **state)
{
    (void)state;
    server_result sv[3] = { { .name = "rs0", .writes = 1, .reads = 0 },
                            { .name = "rs1", .writes = 3, .reads = 5 },
                            { .name = "rs2", .writes = 0, .reads = 5 } };
    run_result run = { .nservers = 3, .servers = sv };
    imbalance w = stats_server_writes(&run), r = stats_server_reads(&run);
    assert_int_equal(w.total, 4);
    assert_int_equal(w.hottest, 1);
    assert_int_equal(r.total, 10);
    assert_int_equal(r.hottest, 1);
    assert_float_equal(r.max_mean, 1.5, EPS);
}

/* Window 0: {10, 0} -> 2.0; window 1 empty (skipped); window 2: {3, 1} -> 1.5. */
static void test_windows_skip_empty_ones(void **state)
{
    (void)state;
    uint64_t m[] = { 10, 0, 0, 0, 3, 1 };
    window_stats ws = stats_windows(m, 3, 2);
    assert_int_equal(ws.windows, 2);
    assert_float_equal(ws.mean_max_mean, 1.75, EPS);
    assert_float_equal(ws.worst_max_mean, 2.0, EPS);

    ws = stats_windows(m + 2, 1, 2);
    assert_int_equal(ws.windows, 0);
    assert_true(isnan(ws.mean_max_mean) && isnan(ws.worst_max_mean));
    assert_int_equal(stats_windows(NULL, 0, 4).windows, 0);
}

/* 8 windows of 2 servers; regions per window as given. */
static run_result steady_run(const uint64_t *writes, const uint64_t *regions, uint64_t from_us)
{
    run_result r = { 0 };
    static server_result sv[2] = { { .name = "rs0" }, { .name = "rs1" } };
    r.nservers = 2;
    r.servers = sv;
    r.window_us = 60000000;
    r.nwindows = 8;
    r.window_writes = (uint64_t *)writes;
    r.window_regions = (uint64_t *)regions;
    r.regions_start = 1;
    r.measure_from_us = from_us;
    return r;
}

/* The steady-state verdict: judged on the measured run's last quarter. */
static void test_steady_state(void **state)
{
    (void)state;
    const uint64_t even[16] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 };
    const uint64_t flat[8] = { 8, 8, 8, 8, 8, 8, 8, 8 };
    const uint64_t growing[8] = { 8, 8, 8, 8, 8, 8, 9, 12 };
    char note[256];
    run_result r = steady_run(even, flat, 0);
    assert_true(stats_steady(&r).steady);
    /* regions 8 -> 12 over the last 2 windows: 50% */
    r = steady_run(even, growing, 0);
    steady_state st = stats_steady(&r);
    assert_false(st.steady);
    assert_int_equal(st.regions_before, 8);
    assert_int_equal(st.regions_after, 12);
    stats_steady_note(&r, &st, note, sizeof note);
    assert_string_equal(note, "not steady: regions grew 50% in the last 2 min");
    /* measured from window 4: its quarter is window 7 alone, 9 -> 12 */
    r = steady_run(even, growing, 240000000);
    st = stats_steady(&r);
    assert_false(st.steady);
    assert_int_equal(st.regions_before, 9);
    /* a hotspot that moved from rs0 to rs1 in the last quarter */
    const uint64_t moving[16] = { 9, 1, 9, 1, 9, 1, 9, 1, 9, 1, 9, 1, 1, 9, 1, 9 };
    r = steady_run(moving, flat, 0);
    st = stats_steady(&r);
    assert_false(st.steady);
    assert_true(st.hottest_moved);
    stats_steady_note(&r, &st, note, sizeof note);
    assert_string_equal(note, "not steady: the hottest server moved from rs0 to rs1 in the "
                              "last 2 min");
    /* ... but an even pair trading first place is noise, not a move */
    const uint64_t noise[16] = { 5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 6, 5, 6, 5, 6, 5 };
    r = steady_run(noise, flat, 0);
    assert_true(stats_steady(&r).steady);
    /* fewer than 4 measured windows: not judged */
    r = steady_run(even, growing, 360000000);
    assert_true(stats_steady(&r).steady);
}

/* The mean cell of a kind over the page: every run's cells, zeros
 * included; reads only over the runs that read; 0 without cells. */
static void test_shared_mean(void **state)
{
    (void)state;
    uint64_t w0[2 * 2] = { 10, 30, 0, 40 }, w1[2 * 2] = { 4, 4, 4, 4 };
    uint64_t r0[2 * 2] = { 8, 0, 0, 0 }, r1[2 * 2] = { 100, 100, 100, 100 };
    uint64_t k0[2 * 3] = { 6, 0, 0, 0, 0, 0 };
    run_result runs[2] = {
        { .nservers = 2, .nwindows = 2, .window_writes = w0, .window_reads = r0, .reads = 1,
          .keyspace = { .nbuckets = 3, .writes = k0 } },
        { .nservers = 2, .nwindows = 2, .window_writes = w1, .window_reads = r1, .reads = 0 },
    };
    sim_results res = { .nruns = 2, .runs = runs };
    assert_true(fabs(stats_shared_mean(&res, STATS_SERVER_WRITES) - 96.0 / 8) < 1e-12);
    assert_true(fabs(stats_shared_mean(&res, STATS_SERVER_READS) - 8.0 / 4) < 1e-12); /* run 1 did not read */
    assert_true(fabs(stats_shared_mean(&res, STATS_KEY_WRITES) - 6.0 / 6) < 1e-12);
    assert_true(stats_shared_mean(&res, STATS_KEY_READS) == 0); /* no key reads anywhere */
    res.nruns = 0;
    assert_true(stats_shared_mean(&res, STATS_SERVER_WRITES) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_counts_are_perfectly_even),
        cmocka_unit_test(test_all_on_one_server_is_worst),
        cmocka_unit_test(test_uneven_counts_by_hand),
        cmocka_unit_test(test_all_zero_or_empty_is_undefined),
        cmocka_unit_test(test_server_counts_come_from_the_run),
        cmocka_unit_test(test_windows_skip_empty_ones),
        cmocka_unit_test(test_steady_state),
        cmocka_unit_test(test_shared_mean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
