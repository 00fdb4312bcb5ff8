/* test_pattern.c -- every pattern kind: arrivals in time order at the
 * configured rate, and the records they carry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/pattern.h"

static pattern_config timeseries(uint32_t metrics, uint32_t hosts, uint64_t interval_us)
{
    pattern_config c = { .kind = PATTERN_TIMESERIES, .metrics = metrics, .hosts = hosts,
                         .tags = 1, .interval_us = interval_us };
    return c;
}

static pattern *make(const pattern_config *c)
{
    char err[256];
    pattern *p = pattern_new(c, 42, err, sizeof err);
    if (!p)
        fail_msg("pattern_new: %s", err);
    return p;
}

static void next(pattern *p, uint64_t *t, record *r)
{
    char err[256];
    assert_int_equal(pattern_next(p, t, r, err, sizeof err), 1);
}

static void test_rejects_bad_config(void **state)
{
    (void)state;
    pattern_config bad[] = {
        timeseries(0, 1, 1000), timeseries(1, 0, 1000), timeseries(1, 1, 0),
        timeseries(65536, 65536, 1000), /* 2^32 series: entity ids overflow */
        { .kind = PATTERN_ENTITIES, .records = 0, .rate_per_s = 10 },
        { .kind = PATTERN_ENTITIES, .records = 10, .rate_per_s = 0 },
        { .kind = PATTERN_ENTITIES, .records = 10, .rate_per_s = 5, .insert_fraction = 1.5 },
        { .kind = PATTERN_SEQUENCE, .rate_per_s = -1 },
        { .kind = PATTERN_TRACE, .trace_path = NULL },
        { .kind = PATTERN_TRACE, .trace_path = "/nonexistent/trace.csv" },
    };
    char err[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_null(pattern_new(&bad[i], 1, err, sizeof err));
        assert_true(err[0] != '\0'); /* every refusal says why */
    }
    pattern_config most = timeseries(65535, 65537, 1000); /* 2^32 - 1 series */
    pattern *p = make(&most);
    pattern_free(p);
}

/* 3 metrics x 5 hosts over several rounds: times non-decreasing, every
 * series exactly once per interval, in entity order, fields consistent. */
static void test_timeseries_rounds(void **state)
{
    (void)state;
    enum { M = 3, H = 5, S = M * H, ROUNDS = 4 };
    const uint64_t iv = 60 * 1000000u;
    pattern_config c = timeseries(M, H, iv);
    pattern *p = make(&c);
    uint64_t prev = 0;
    for (uint64_t k = 0; k < ROUNDS; k++) {
        int seen[S] = { 0 };
        for (uint32_t i = 0; i < S; i++) {
            uint64_t t;
            record r;
            next(p, &t, &r);
            assert_true(t >= prev);
            prev = t;
            assert_true(t == k * iv + i * iv / S);
            assert_int_equal(r.entity, i);
            assert_int_equal(r.metric, i / H);
            assert_int_equal(r.host, i % H);
            assert_int_equal(r.op, RECORD_PUT);
            assert_int_equal(r.naming, NAMING_SERIES);
            seen[r.entity]++;
        }
        for (int e = 0; e < S; e++)
            assert_int_equal(seen[e], 1);
    }
    assert_true(pattern_rate_per_s(p) > S / 60.0 - 1e-9 && pattern_rate_per_s(p) < S / 60.0 + 1e-9);
    pattern_free(p);
}

/* 3 series over 10 us: floor(i*10/3) = 0, 3, 6, then 10, 13, 16; and an
 * interval whose i * interval overflows 64 bits. */
static void test_timeseries_stagger_exact(void **state)
{
    (void)state;
    pattern_config c = timeseries(1, 3, 10);
    pattern *p = make(&c);
    const uint64_t want[] = { 0, 3, 6, 10, 13, 16 };
    for (size_t i = 0; i < 6; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(t == want[i]);
    }
    pattern_free(p);
    c = timeseries(3, 1, UINT64_C(3) << 61);
    p = make(&c);
    const uint64_t huge[] = { 0, UINT64_C(1) << 61, UINT64_C(1) << 62 };
    for (size_t i = 0; i < 3; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(t == huge[i]);
    }
    pattern_free(p);
}

static void test_timeseries_tags(void **state)
{
    (void)state;
    pattern_config c = timeseries(2, 3, 1000000);
    c.tags = 4;
    pattern *p = make(&c);
    int seen[2][3][4] = { { { 0 } } };
    for (int i = 0; i < 24; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_int_equal(r.entity, ((r.metric * 3) + r.host) * 4 + r.tag);
        assert_int_equal(r.naming, NAMING_SERIES_TAGGED);
        seen[r.metric][r.host][r.tag]++;
    }
    for (int m = 0; m < 2; m++)
        for (int h = 0; h < 3; h++)
            for (int g = 0; g < 4; g++)
                assert_int_equal(seen[m][h][g], 1);
    pattern_free(p);
}

/* With jitter every point is late by [0, jitter) and still in time order. */
static void test_timeseries_jitter(void **state)
{
    (void)state;
    const uint64_t iv = 1000000, jitter = 300000;
    pattern_config c = timeseries(4, 25, iv);
    c.jitter_us = jitter;
    pattern *p = make(&c);
    uint64_t prev = 0, late_sum = 0;
    uint32_t per_series[100] = { 0 };
    for (int i = 0; i < 100 * 50; i++) {
        uint64_t t;
        record r;
        next(p, &t, &r);
        assert_true(t >= prev);
        prev = t;
        uint64_t round = per_series[r.entity]++;
        uint64_t on_time = round * iv + r.entity * iv / 100;
        assert_true(t >= on_time && t < on_time + jitter);
        late_sum += t - on_time;
    }
    /* Uniform lateness: mean about jitter / 2. */
    double mean = (double)late_sum / 5000.0;
    assert_true(mean > jitter * 0.45 && mean < jitter * 0.55);
    pattern_free(p);
}

static void test_entities_draw_and_insert(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_ENTITIES, .records = 1000, .rate_per_s = 500,
                         .distribution = DIST_UNIFORM, .naming = NAMING_DOMAIN,
                         .insert_fraction = 0.1 };
    pattern *p = make(&c);
    uint64_t t, prev = 0;
    record r;
    uint32_t max_id = 0, inserts = 0;
    for (int i = 0; i < 10000; i++) {
        next(p, &t, &r);
        assert_true(t >= prev);
        prev = t;
        assert_int_equal(r.naming, NAMING_DOMAIN);
        if (r.entity >= 1000 + inserts) /* a new entity: exactly the next id */
            assert_int_equal(r.entity, 1000 + inserts++);
        if (r.entity > max_id)
            max_id = r.entity;
    }
    /* About 10% of 10,000 operations inserted. */
    assert_true(inserts > 850 && inserts < 1150);
    assert_int_equal(max_id, 1000 + inserts - 1);
    /* Fixed arrivals at 500/s: the 10,000th at 19.998 s. */
    assert_true(t == 19998000);
    pattern_free(p);
}

static void test_sequence_ids_and_poisson_rate(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_SEQUENCE, .rate_per_s = 2000,
                         .arrivals = ARRIVALS_POISSON, .naming = NAMING_ID };
    pattern *p = make(&c);
    uint64_t t = 0, prev = 0;
    record r;
    for (uint32_t i = 0; i < 20000; i++) {
        next(p, &t, &r);
        assert_int_equal(r.entity, i);
        assert_true(t >= prev);
        prev = t;
    }
    /* 20,000 Poisson arrivals at 2,000/s: about 10 s (sd ~0.07 s). */
    assert_true(t > 9600000 && t < 10400000);
    pattern_free(p);
}

static void test_same_seed_same_operations(void **state)
{
    (void)state;
    pattern_config c = { .kind = PATTERN_ENTITIES, .records = 5000, .rate_per_s = 100,
                         .distribution = DIST_ZIPFIAN, .arrivals = ARRIVALS_POISSON };
    char err[64];
    pattern *a = pattern_new(&c, 7, err, sizeof err), *b = pattern_new(&c, 7, err, sizeof err);
    pattern *other = pattern_new(&c, 8, err, sizeof err);
    int differs = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t ta, tb, to;
        record ra, rb, ro;
        next(a, &ta, &ra);
        next(b, &tb, &rb);
        next(other, &to, &ro);
        assert_true(ta == tb);
        assert_int_equal(ra.entity, rb.entity);
        differs |= ta != to || ra.entity != ro.entity;
    }
    assert_true(differs);
    pattern_free(a);
    pattern_free(b);
    pattern_free(other);
}

static void test_record_names(void **state)
{
    (void)state;
    char buf[64];
    record r = { .metric = 7, .host = 3, .naming = NAMING_SERIES };
    assert_int_equal(record_name(&r, buf, sizeof buf), 19);
    assert_string_equal(buf, "metric.007/host0003");
    r.naming = NAMING_SERIES_TAGGED;
    r.tag = 2;
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "metric.007/host0003/tag02");
    r = (record){ .entity = 0, .naming = NAMING_USER };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "user6284781860667377211"); /* YCSB's first key */
    r = (record){ .entity = 42 * 4 + 0, .naming = NAMING_DOMAIN };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "www.site00042.com");
    r = (record){ .entity = 42, .naming = NAMING_ID };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "0000000042");
    const uint8_t key[] = { 'a', 0xff, ',' };
    r = (record){ .key = key, .key_len = 3, .naming = NAMING_KEY };
    record_name(&r, buf, sizeof buf);
    assert_string_equal(buf, "a\\xFF,");
    /* snprintf semantics: truncated, terminated, full length returned. */
    r = (record){ .metric = 7, .host = 3, .naming = NAMING_SERIES };
    assert_int_equal(record_name(&r, buf, 8), 19);
    assert_string_equal(buf, "metric.");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects_bad_config),
        cmocka_unit_test(test_timeseries_rounds),
        cmocka_unit_test(test_timeseries_stagger_exact),
        cmocka_unit_test(test_timeseries_tags),
        cmocka_unit_test(test_timeseries_jitter),
        cmocka_unit_test(test_entities_draw_and_insert),
        cmocka_unit_test(test_sequence_ids_and_poisson_rate),
        cmocka_unit_test(test_same_seed_same_operations),
        cmocka_unit_test(test_record_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
