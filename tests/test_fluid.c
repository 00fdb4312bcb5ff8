/* test_fluid.c -- the weighted engine's fluid queueing model (engine/fluid.h)
 * against hand-worked values, and the choice of engine and weight
 * (scenario/weighting.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "engine/fluid.h"
#include "scenario/scenario.h"
#include "scenario/weighting.h"

/* M/D/1 at rho = 0.5, S = 100 us: lambda = 0.005/us, E[S^2] = 1e4,
 * E[W] = 0.005 * 1e4 / (2 * 0.5) = 50 us. M/M/1 (E[S^2] = 2 S^2) at the
 * same rho: E[W] = rho S / (1 - rho) = 100 us. */
static void test_pk_mean(void **state)
{
    (void)state;
    assert_float_equal(fluid_pk_wait(0.005, 1e4, 0.5), 50.0, 1e-9);
    assert_float_equal(fluid_pk_wait(0.005, 2e4, 0.5), 100.0, 1e-9);
    assert_float_equal(fluid_pk_wait(0.009, 1e4, 0.9), 450.0, 1e-9); /* 0.009e4 / 0.2 */
    assert_float_equal(fluid_pk_wait(0, 1e4, 0), 0.0, 0);
}

/* The exponential tail is M/M/1's exactly: P(W > t) = rho exp(-mu (1 -
 * rho) t); with mu = 0.01/us, rho = 0.5: 0.5 exp(-0.005 t). Its mean
 * (100 us, above) gives rho / mean = 0.005: the same. */
static void test_tail_is_mm1(void **state)
{
    (void)state;
    for (double t = 0; t <= 2000; t += 250)
        assert_float_equal(fluid_wait_tail(0.5, 100, t), 0.5 * exp(-0.005 * t), 1e-12);
    assert_float_equal(fluid_wait_tail(0, 100, 10), 0.0, 0);
}

/* Quantiles: none wait below 1 - rho; above, (mean / rho) ln(rho / (1 - q)):
 * rho 0.5, mean 100: the p99 is 200 ln 50 = 782.4 us, the p75 200 ln 2. */
static void test_quantiles(void **state)
{
    (void)state;
    assert_float_equal(fluid_wait_quantile(0.5, 100, 0.3), 0.0, 0);
    assert_float_equal(fluid_wait_quantile(0.5, 100, 0.5), 0.0, 1e-12);
    assert_float_equal(fluid_wait_quantile(0.5, 100, 0.99), 200 * log(50), 1e-9);
    assert_float_equal(fluid_wait_quantile(0.5, 100, 0.75), 200 * log(2), 1e-9);
    /* the quantile inverts the tail */
    double t = fluid_wait_quantile(0.8, 300, 0.95);
    assert_float_equal(fluid_wait_tail(0.8, 300, t), 0.05, 1e-12);
}

/* A window of 1 s with 50 operations standing for 100 each, 100 us of
 * service, every 20 ms: each brings a 10 ms batch that drains before the
 * next, so none waits for a backlog; rho = 0.5 and the next window's mean
 * wait is P-K's: 5,000 / 1 s x (100 us)^2 / (2 x 0.5) = 50 us. A draw at
 * u below 1 - rho waits nothing; at u = 0.99 the p99, (50 / 0.5) ln 50. */
static void test_window_end(void **state)
{
    (void)state;
    fluid_server f;
    memset(&f, 0, sizeof f);
    for (int k = 0; k < 50; k++)
        assert_float_equal(fluid_arrive(&f, 20000ull * k, 100, 100, 0.999), 0.0, 0);
    fluid_window_end(&f, 1000000);
    assert_float_equal(f.rho, 0.5, 1e-12);
    assert_float_equal(f.wait_mean_us, 50.0, 1e-9);
    assert_int_equal(f.window_start_us, 1000000);
    assert_float_equal(f.n, 0, 0);
    fluid_server g = f;
    assert_float_equal(fluid_arrive(&g, 1500000, 1, 100, 0.2), 0.0, 0);
    g = f;
    assert_float_equal(fluid_arrive(&g, 1500000, 1, 100, 0.99), 100 * log(50), 1e-9);
}

/* Overload: 10 ms batches every 5 ms (rho 2). The k-th finds k x 5 ms of
 * work (each adds 10, 5 drain between) and waits for it less the slack
 * of 3 batches: max(0, 5k - 30) ms, growing without lag; an idle
 * stretch longer than the level drains it. */
static void test_backlog(void **state)
{
    (void)state;
    fluid_server f;
    memset(&f, 0, sizeof f);
    for (int k = 0; k < 40; k++) {
        double wait = fluid_arrive(&f, 5000ull * k, 100, 100, 0.0);
        double expect = 5000.0 * k - 30000.0;
        assert_float_equal(wait, expect > 0 ? expect : 0, 1e-6);
    }
    /* the level: 40 batches of 10 ms less 39 x 5 ms drained */
    assert_float_equal(f.level_us, 400000.0 - 195000.0, 1e-6);
    fluid_window_end(&f, 1000000);
    assert_float_equal(f.rho, 0.4, 1e-12); /* 400 ms of work in 1 s */
    /* 205 ms left at 195 ms: gone by 1 s */
    assert_float_equal(fluid_arrive(&f, 1000000, 1, 100, 0.0), 0.0, 0);

    /* a long batch (a read of 100 ms standing for 20: 2 s) raises the
     * slack: a small write right after it does not wait behind it */
    memset(&f, 0, sizeof f);
    assert_float_equal(fluid_arrive(&f, 0, 20, 100000, 0.0), 0.0, 0);
    assert_float_equal(fluid_arrive(&f, 1000, 20, 50, 0.0), 0.0, 0);
    assert_float_equal(f.level_us, 2000000.0 - 1000.0 + 1000.0, 1e-6);
}

/* Near rho = 1 the draw's rho is capped and the mean wait held to the
 * window's length. */
static void test_caps(void **state)
{
    (void)state;
    fluid_server f;
    memset(&f, 0, sizeof f);
    for (int k = 0; k < 999; k++) /* 999 x 10 x 100 us: rho 0.999 in 1 s */
        fluid_arrive(&f, 1001ull * k, 10, 100, 0.0);
    fluid_window_end(&f, 1000000);
    assert_float_equal(f.rho, 0.999, 1e-12);
    double capped = fluid_pk_wait(9990 / 1e6, 1e4, FLUID_RHO_MAX);
    assert_float_equal(f.wait_mean_us, capped, 1e-6);
    for (int k = 0; k < 9; k++) /* few, huge: P-K well past the window */
        fluid_arrive(&f, 1000000 + 100000ull * k, 1, 1e5, 0.0);
    fluid_window_end(&f, 2000000);
    assert_true(f.wait_mean_us > 0 && f.wait_mean_us <= 1e6);
}

static void ts_scenario(scenario *sc, uint64_t minutes)
{
    scenario_defaults(sc);
    sc->workload.duration_us = minutes * 60000000ull;
}

/* auto: the default (1.8 M writes) runs per-op; a month is weighted with
 * a weight coprime with its 1,000 series; per-op refuses nothing, weighted
 * refuses what it cannot run. */
static void test_resolve(void **state)
{
    (void)state;
    static scenario sc; /* large: not on the stack */
    char err[512];
    weighting w;
    ts_scenario(&sc, 30);
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 0);
    assert_int_equal(w.weight, 1);
    assert_float_equal(w.ops, 1.8e6, 0.5);

    /* A month at HBase's sizes scaled by 2560 (51.2 KiB flushes): the
     * weight keeps 64 weighted puts in a flush. */
    ts_scenario(&sc, 30 * 24 * 60);
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "2560", err, sizeof err), 0);
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 1);
    uint64_t most = scenario_flush_bytes(&sc) / (WEIGHT_PUTS_PER_FLUSH * scenario_cell_overhead(&sc));
    assert_true(w.weight >= 2 && w.weight <= most + 10); /* + the coprime step */
    /* Flushes of a few bytes (1 KiB regions): per-op. */
    sc.region_max_bytes = 1024;
    sc.flush_bytes = 0; /* unset: region size / 80 */
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 0);

    /* A month at HBase's sizes (10 GiB, 128 MiB: the default), in the
     * default window = auto: 1 h, 720 windows */
    ts_scenario(&sc, 30 * 24 * 60);
    assert_int_equal(scenario_window_us(&sc), 3600000000ull);
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 1);
    assert_true(w.weight > 1);
    assert_true(w.weight % 2 != 0 && w.weight % 5 != 0); /* 1000 = 2^3 5^3 */
    /* 8 servers x 720 windows x 1600 = 9,216,000 events: 2.592e9 / 9.216e6 */
    assert_true(w.weight >= 282 && w.weight <= 1000 + 282);
    /* ... reading, at most WEIGHT_READS_MAX (+ the coprime step): a read's
     * rows scanned grow with the weight */
    assert_int_equal(scenario_set(&sc, NULL, "read_fraction", "0.001", err, sizeof err), 0);
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 1);
    assert_true(w.weight >= 2 && w.weight <= WEIGHT_READS_MAX + 1);
    assert_true(w.weight % 2 != 0 && w.weight % 5 != 0);
    assert_int_equal(scenario_set(&sc, NULL, "read_fraction", "0", err, sizeof err), 0);
    assert_int_equal(weighting_resolve(&sc, 1, &w, err, sizeof err), 0); /* a trace written */
    assert_int_equal(w.weighted, 0);

    sc.engine = ENGINE_MODE_PER_OP;
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 0);

    ts_scenario(&sc, 30);
    sc.engine = ENGINE_MODE_WEIGHTED;
    sc.weight = 10;
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 1);
    assert_int_equal(w.weight, 11); /* 10 shares 2 and 5 with 1000 series */
    sc.workload.pattern.jitter_us = 1000;
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "jitter"));
    sc.engine = ENGINE_MODE_AUTO;
    sc.weight = 0;
    assert_int_equal(weighting_resolve(&sc, 0, &w, err, sizeof err), 0);
    assert_int_equal(w.weighted, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pk_mean),
        cmocka_unit_test(test_tail_is_mm1),
        cmocka_unit_test(test_quantiles),
        cmocka_unit_test(test_window_end),
        cmocka_unit_test(test_backlog),
        cmocka_unit_test(test_caps),
        cmocka_unit_test(test_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
