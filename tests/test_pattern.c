/* test_pattern.c -- the time-series pattern: staggered arrivals in time
 * order, one point per series per interval, ts_ms derived from t_us. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/pattern.h"

static pattern *make(uint32_t metrics, uint32_t hosts, uint64_t interval_us, uint64_t start_ms)
{
    timeseries_config cfg = { metrics, hosts, interval_us, start_ms };
    pattern *p = pattern_timeseries_new(&cfg);
    assert_non_null(p);
    return p;
}

static void test_rejects_bad_config(void **state)
{
    (void)state;
    timeseries_config bad[] = {
        { 0, 1, 1000, 0 }, { 1, 0, 1000, 0 }, { 1, 1, 0, 0 },
        { 65536, 65536, 1000, 0 }, /* 2^32 series: entity ids overflow */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_null(pattern_timeseries_new(&bad[i]));
    timeseries_config most = { 65535, 65537, 1000, 0 }; /* 2^32 - 1 series */
    pattern *p = pattern_timeseries_new(&most);
    assert_non_null(p);
    pattern_free(p);
}

static void test_rate(void **state)
{
    (void)state;
    pattern *p = make(3, 4, 10 * 1000000u, 0); /* 12 series every 10 s */
    assert_true(pattern_rate_per_s(p) > 1.2 - 1e-9 && pattern_rate_per_s(p) < 1.2 + 1e-9);
    pattern_free(p);
}

/* 3 metrics x 5 hosts over several rounds: times non-decreasing, every
 * series exactly once per interval, in entity order, fields consistent. */
static void test_rounds(void **state)
{
    (void)state;
    enum { M = 3, H = 5, S = M * H, ROUNDS = 4 };
    const uint64_t iv = 60 * 1000000u, start = 1704067200000u;
    pattern *p = make(M, H, iv, start);
    uint64_t prev = 0;
    for (uint64_t k = 0; k < ROUNDS; k++) {
        int seen[S] = { 0 };
        for (uint32_t i = 0; i < S; i++) {
            uint64_t t;
            record r;
            assert_int_equal(pattern_next(p, &t, &r), 1);
            assert_true(t >= prev);
            prev = t;
            assert_true(t >= k * iv && t < (k + 1) * iv);
            assert_true(t == k * iv + i * iv / S);
            assert_int_equal(r.entity, i);
            assert_int_equal(r.metric, i / H);
            assert_int_equal(r.host, i % H);
            assert_int_equal(r.entity, r.metric * H + r.host);
            assert_true(r.seq == k * S + i);
            assert_true(r.ts_ms == start + t / 1000);
            seen[r.entity]++;
        }
        for (int e = 0; e < S; e++)
            assert_int_equal(seen[e], 1);
    }
    pattern_free(p);
}

/* 3 series over 10 us: floor(i*10/3) = 0, 3, 6, then 10, 13, 16. */
static void test_uneven_stagger(void **state)
{
    (void)state;
    pattern *p = make(1, 3, 10, 0);
    const uint64_t want[] = { 0, 3, 6, 10, 13, 16 };
    for (size_t i = 0; i < 6; i++) {
        uint64_t t;
        record r;
        pattern_next(p, &t, &r);
        assert_true(t == want[i]);
    }
    pattern_free(p);
}

/* i * interval overflows 64 bits here; the offsets must not. */
static void test_huge_interval(void **state)
{
    (void)state;
    const uint64_t iv = UINT64_C(3) << 61;
    pattern *p = make(3, 1, iv, 0);
    const uint64_t want[] = { 0, UINT64_C(1) << 61, UINT64_C(1) << 62 };
    for (size_t i = 0; i < 3; i++) {
        uint64_t t;
        record r;
        pattern_next(p, &t, &r);
        assert_true(t == want[i]);
    }
    pattern_free(p);
}

/* After n arrivals, simulated time is about n / rate. */
static void test_observed_rate(void **state)
{
    (void)state;
    pattern *p = make(10, 100, 1000000u, 0); /* 1000 series per second */
    uint64_t t = 0;
    record r;
    for (int i = 0; i < 100000; i++)
        pattern_next(p, &t, &r);
    double seconds = (double)t / 1e6, expect = 100000 / pattern_rate_per_s(p);
    assert_true(seconds > expect * 0.99 && seconds < expect * 1.01);
    assert_true(r.ts_ms == t / 1000);
    pattern_free(p);
}

static void test_names(void **state)
{
    (void)state;
    char buf[32];
    assert_int_equal(pattern_metric_name(7, buf, sizeof buf), 10);
    assert_string_equal(buf, "metric.007");
    assert_int_equal(pattern_metric_name(1234, buf, sizeof buf), 11);
    assert_string_equal(buf, "metric.1234");
    assert_int_equal(pattern_host_name(3, buf, sizeof buf), 8);
    assert_string_equal(buf, "host0003");
    assert_int_equal(pattern_host_name(UINT32_MAX, buf, sizeof buf), 14);
    assert_string_equal(buf, "host4294967295");
    /* snprintf semantics: truncated, terminated, full length returned. */
    assert_int_equal(pattern_host_name(3, buf, 5), 8);
    assert_string_equal(buf, "host");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects_bad_config),
        cmocka_unit_test(test_rate),
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_uneven_stagger),
        cmocka_unit_test(test_huge_interval),
        cmocka_unit_test(test_observed_rate),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
