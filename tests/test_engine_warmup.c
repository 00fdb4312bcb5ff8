/* test_engine_warmup.c -- engine/engine_warmup.c: when a run leaves its
 * warm-up (the first balancer run at which the table has a region per
 * online server; none for a table pre-split a region a server; with
 * balancer = none, the split that gives one; never, for a run too short),
 * and measure_from = auto measuring from there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support.h"

#include "tests/engine_support.h"

/* A run of short_scenario's under measure_from = auto (the default). */
static void warmup_scenario(scenario *sc, const char *scheme)
{
    short_scenario(sc, scheme);
    sc->measure_auto = 1;
    sc->balancer_period_us = 10ull * 1000000; /* the first runs find fewer regions than servers */
    sc->balancer_phase_us = sc->balancer_period_us; /* runs at whole periods, not a drawn phase */
}

static uint64_t sum_warmup_writes(const run_result *r)
{
    uint64_t sum = 0;
    for (uint32_t s = 0; s < r->nservers; s++)
        sum += r->servers[s].warmup_writes;
    return sum;
}

/* Measured from the end of the warm-up: the figures count the writes from
 * there (fixed arrivals: 1,000 a second), the servers' and the latency's
 * too, and the warm-up's writes are each server's before it. */
static void assert_measured_from_warmup(const run_result *r, uint64_t total)
{
    assert_int_equal(r->measure_from_us, r->warmup_us);
    assert_true(r->measure_auto);
    uint64_t sum = 0;
    for (uint32_t s = 0; s < r->nservers; s++)
        sum += r->servers[s].writes;
    assert_int_equal(sum, r->writes);
    assert_int_equal(r->latency.count, r->writes);
    assert_int_equal(r->writes + sum_warmup_writes(r), total);
}

/* With a balancer: the warm-up ends at the first balancer run that finds a
 * region per server (not before: every earlier run found fewer), and the
 * figures count from there. */
static void test_warmup_ends_at_the_first_balancer_run_with_a_region_a_server(void **state)
{
    (void)state;
    char err[256];
    scenario sc;
    warmup_scenario(&sc, "monotonic");
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_true(r.warmup_ended);
    assert_true(r.warmup_us > sc.balancer_period_us); /* not the first run: it had too few */
    assert_int_equal(r.warmup_us % sc.balancer_period_us, 0);
    size_t k = r.warmup_us / sc.balancer_period_us - 1; /* that run in the log */
    assert_true(k < r.balancer_runs);
    /* a balancer run counts hbase:meta with the table's regions; the
     * warm-up asks for the table's own */
    uint64_t meta = (uint64_t)sc.system_regions;
    assert_true(r.balancer_log[k].regions - meta >= sc.servers);
    for (size_t i = 0; i < k; i++)
        assert_true(r.balancer_log[i].regions - meta < sc.servers);
    assert_int_equal(r.warmup_regions, r.balancer_log[k].regions - meta);
    assert_int_equal(r.warmup_servers, sc.servers);
    assert_int_equal(r.measure_regions, r.warmup_regions);
    assert_int_equal(r.measure_servers, sc.servers);
    assert_true(r.bytes_start > 0 && r.bytes_start < r.bytes);
    assert_int_equal(r.writes, 150000 - r.warmup_us / 1000); /* one write a ms from there */
    assert_measured_from_warmup(&r, 150000);
    /* the windows still cover the whole run; window figures start past it */
    uint64_t windows = 0;
    for (size_t i = 0; i < (size_t)r.nwindows * r.nservers; i++)
        windows += r.window_writes[i];
    assert_int_equal(windows, 150000);
    run_result_free(&r);
}

/* A table pre-split into a region a server has no warm-up: measured from 0. */
static void test_warmup_none_when_presplit_a_region_a_server(void **state)
{
    (void)state;
    char err[256];
    scenario sc;
    warmup_scenario(&sc, "salted"); /* 8 buckets on 8 servers */
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_true(r.warmup_ended);
    assert_int_equal(r.warmup_us, 0);
    assert_int_equal(r.warmup_regions, 8);
    assert_int_equal(r.measure_from_us, 0);
    assert_int_equal(r.writes, 150000);
    assert_int_equal(r.bytes_start, 0);
    assert_int_equal(r.measure_regions, 8);
    assert_int_equal(sum_warmup_writes(&r), 0);
    assert_measured_from_warmup(&r, 150000);
    run_result_free(&r);
}

/* balancer = none: the warm-up ends as the split that makes a region a
 * server happens (nothing will spread the regions: the figures show it). */
static void test_warmup_without_a_balancer_ends_at_the_split(void **state)
{
    (void)state;
    char err[256];
    scenario sc;
    warmup_scenario(&sc, "monotonic");
    sc.balancer = BALANCER_NONE;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_true(r.warmup_ended);
    assert_int_equal(r.warmup_regions, sc.servers); /* a split adds one region at a time */
    assert_true(r.warmup_us > 0 && r.warmup_us % sc.balancer_period_us != 0);
    size_t split = 0; /* the split that made it: at the warm-up's end */
    for (size_t i = 0; i < r.nevents; i++)
        if (r.events[i].kind == TIMELINE_SPLIT && ++split == sc.servers - 1)
            assert_int_equal(r.events[i].t_us, r.warmup_us);
    assert_true(split >= sc.servers - 1);
    assert_int_equal(r.balancer_runs, 0);
    assert_measured_from_warmup(&r, 150000);
    run_result_free(&r);
}

/* A run that never leaves the warm-up is measured whole, and says so. */
static void test_warmup_that_never_ends_measures_the_whole_run(void **state)
{
    (void)state;
    char err[256];
    scenario sc;
    warmup_scenario(&sc, "monotonic");
    sc.region_max_bytes = 64ull << 20; /* never splits in 150 s */
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_false(r.warmup_ended);
    assert_int_equal(r.warmup_us, r.duration_us);
    assert_int_equal(r.warmup_regions, 1);
    assert_int_equal(r.measure_from_us, 0);
    assert_int_equal(r.writes, 150000);
    assert_int_equal(sum_warmup_writes(&r), 150000); /* the warm-up is the whole run */
    assert_int_equal(r.latency.count, 150000);
    run_result_free(&r);
}

/* An explicit measure_from (0: the old default) still measures from
 * there; the warm-up is detected all the same, for the reports. */
static void test_explicit_measure_from_still_detects_the_warmup(void **state)
{
    (void)state;
    char err[256];
    scenario sc;
    warmup_scenario(&sc, "monotonic");
    run_result automatic, whole;
    assert_int_equal(engine_run(&sc, 0, NULL, &automatic, err, sizeof err), 0);
    sc.measure_auto = 0;
    sc.measure_from_us = 0;
    assert_int_equal(engine_run(&sc, 0, NULL, &whole, err, sizeof err), 0);
    assert_false(whole.measure_auto);
    assert_int_equal(whole.measure_from_us, 0);
    assert_int_equal(whole.writes, 150000);
    assert_true(whole.warmup_ended);
    assert_int_equal(whole.warmup_us, automatic.warmup_us);
    assert_int_equal(whole.warmup_regions, automatic.warmup_regions);
    assert_int_equal(whole.measure_regions, 1);
    assert_true(automatic.writes < whole.writes);
    /* the same run otherwise: the windows agree */
    assert_memory_equal(whole.window_writes, automatic.window_writes,
                        (size_t)whole.nwindows * whole.nservers * sizeof(uint64_t));
    run_result_free(&automatic);
    run_result_free(&whole);
}

int main(void)
{
    test_plain_env();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warmup_ends_at_the_first_balancer_run_with_a_region_a_server),
        cmocka_unit_test(test_warmup_none_when_presplit_a_region_a_server),
        cmocka_unit_test(test_warmup_without_a_balancer_ends_at_the_split),
        cmocka_unit_test(test_warmup_that_never_ends_measures_the_whole_run),
        cmocka_unit_test(test_explicit_measure_from_still_detects_the_warmup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
