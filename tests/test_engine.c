/* test_engine.c -- the engine's contract: runs are values, observers, errors,
 * windows and ticks. (The physics of the schemes is in test_physics.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/engine.h"

static void short_scenario(scenario *sc, const char *scheme)
{
    scenario_defaults(sc);
    sc->workload.duration_us = 150ull * 1000000; /* 2.5 min: the last window is half */
    sc->region_max_bytes = 256 * 1024;
    sc->balancer_period_us = 60ull * 1000000;
    sc->nschemes = 0;
    scenario_add_scheme(sc, NULL, scheme);
}

static void assert_same_result(const run_result *a, const run_result *b)
{
    assert_int_equal(a->writes, b->writes);
    assert_int_equal(a->splits, b->splits);
    assert_int_equal(a->moves, b->moves);
    assert_int_equal(a->rows, b->rows);
    assert_string_equal(a->key_example, b->key_example);
    for (uint32_t s = 0; s < a->nservers; s++)
        assert_int_equal(a->servers[s].writes, b->servers[s].writes);
    assert_memory_equal(a->window_writes, b->window_writes,
                        (size_t)a->nwindows * a->nservers * sizeof(uint64_t));
}

static void test_runs_are_values(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "salted");
    run_result a, b, c;
    assert_int_equal(engine_run(&sc, 0, NULL, &a, err, sizeof err), 0);
    /* A different run in between must not disturb the next one. */
    scenario other;
    short_scenario(&other, "monotonic");
    other.seed = 99;
    assert_int_equal(engine_run(&other, 0, NULL, &c, err, sizeof err), 0);
    assert_int_equal(engine_run(&sc, 0, NULL, &b, err, sizeof err), 0);
    assert_same_result(&a, &b);
    assert_true(a.splits > 0);
    run_result_free(&a);
    run_result_free(&b);
    run_result_free(&c);
}

static void test_windows_and_ticks(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "monotonic");
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.nwindows, 3);
    assert_int_equal(r.duration_us, sc.workload.duration_us);
    assert_int_equal(r.balancer_runs, 2); /* at 60 s and 120 s */
    uint64_t per_window[3] = { 0, 0, 0 };
    for (uint32_t w = 0; w < 3; w++)
        for (uint32_t s = 0; s < r.nservers; s++)
            per_window[w] += r.window_writes[w * r.nservers + s];
    /* 1,000 writes/s: 60,000 in each full minute, 30,000 in the half. */
    assert_int_equal(per_window[0], 60000);
    assert_int_equal(per_window[1], 60000);
    assert_int_equal(per_window[2], 30000);
    assert_int_equal(r.writes, 150000);
    assert_int_equal(r.key_bytes_min, 8);
    assert_int_equal(r.key_bytes_max, 8);
    assert_string_equal(r.scheme_name, "monotonic");
    assert_string_equal(r.scheme_expr, "ts");
    assert_string_equal(r.presplit, "none");
    run_result_free(&r);
}

typedef struct counter {
    uint64_t seen, stop_at;
    uint32_t last_server;
} counter;

static int count_writes(void *ctx, uint64_t t_us, const record *rec, keyref key,
                        const cluster *c, uint32_t s)
{
    assert_int_equal(rec->op, RECORD_PUT);
    counter *k = ctx;
    (void)t_us;
    assert_true(key.len > 0);
    assert_true(s < c->nservers);
    /* The observer sees the cluster as it is: the key routes to s. */
    assert_int_equal(regionmap_get(c->map, regionmap_route(c->map, key))->server, s);
    k->last_server = s;
    return ++k->seen == k->stop_at;
}

static void test_observer_sees_every_write_and_can_stop(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "salted");
    counter k = { 0, 12345, 0 };
    engine_observer obs = { count_writes, &k };
    run_result r;
    assert_int_equal(engine_run(&sc, 0, &obs, &r, err, sizeof err), 0);
    assert_int_equal(k.seen, 12345);
    assert_int_equal(r.writes, 12345);
    run_result_free(&r);
}

static void test_presplit_and_labels(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "hashed");
    sc.servers = 5;
    scenario_add_scheme(&sc, "my-key", "hash(3, entity) entity ts");
    scenario_add_scheme(&sc, NULL, "entity   ts");
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    assert_int_equal(res.nruns, 3);
    assert_int_equal(res.runs[0].regions_start, 5); /* one bucket per server */
    assert_string_equal(res.runs[0].scheme_expr, "hash(5, ts) ts");
    assert_int_equal(res.runs[1].regions_start, 3);
    assert_string_equal(res.runs[1].scheme_name, "my-key");
    assert_string_equal(res.runs[2].scheme_name, "entity ts"); /* normalised */
    assert_int_equal(res.runs[2].regions_start, 1);
    assert_non_null(strstr(res.workload, "50 metrics x 20 hosts"));
    sim_results_free(&res);

    sc.presplit = PRESPLIT_NONE;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    assert_int_equal(res.runs[0].regions_start, 1);
    sim_results_free(&res);
}

static void test_bad_scheme_is_an_error_with_no_result(void **state)
{
    (void)state;
    scenario sc;
    char err[256] = "";
    short_scenario(&sc, "monotonic");
    scenario_add_scheme(&sc, NULL, "ts nosuch");
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "nosuch"));
    assert_int_equal(res.nruns, 0);
    assert_null(res.runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_are_values),
        cmocka_unit_test(test_windows_and_ticks),
        cmocka_unit_test(test_observer_sees_every_write_and_can_stop),
        cmocka_unit_test(test_presplit_and_labels),
        cmocka_unit_test(test_bad_scheme_is_an_error_with_no_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
