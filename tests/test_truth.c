/* test_truth.c -- the record of what was written, against brute force:
 * per entity, over all entities, and per metric (every series of it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "engine/truth.h"

static void test_empty(void **state)
{
    (void)state;
    truth t;
    truth_init(&t);
    truth_entry e;
    assert_int_equal(truth_last(&t, 3, &e), 0);
    assert_int_equal(truth_count_range(&t, 3, 0, UINT64_MAX), 0);
    assert_int_equal(truth_count_latest(&t, 3, 10), 0);
    assert_int_equal(truth_count_window(&t, 0, UINT64_MAX), 0);
    truth_track_metrics(&t);
    assert_int_equal(truth_count_metric(&t, 3, 0, UINT64_MAX), 0);
    truth_release(&t);
}

static void test_counts_match_brute_force(void **state)
{
    (void)state;
    enum { N = 20000, E = 37, HOSTS = 5 }; /* entity e is a series of metric e / HOSTS */
    truth t;
    truth_init(&t);
    truth_track_metrics(&t);
    static uint32_t ent[N];
    static uint64_t ts[N];
    uint64_t x = 99, now = 1000;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        now += (x >> 60); /* 0..15 ms later: ties happen */
        ent[i] = (uint32_t)((x >> 33) % E);
        ts[i] = now;
        assert_int_equal(truth_add(&t, ent[i], ent[i] / HOSTS, ts[i], (uint64_t)i), 0);
    }
    for (uint32_t e = 0; e < E; e++) {
        truth_entry last;
        int found = truth_last(&t, e, &last);
        int want_i = -1;
        uint64_t total = 0;
        for (int i = 0; i < N; i++)
            if (ent[i] == e) {
                want_i = i;
                total++;
            }
        assert_int_equal(found, want_i >= 0);
        if (found) {
            assert_true(last.seq == (uint64_t)want_i);
            assert_true(last.ts_ms == ts[want_i]);
        }
        assert_int_equal(truth_count_latest(&t, e, 5), total < 5 ? total : 5);
        for (int q = 0; q < 30; q++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t a = 1000 + (x >> 40) % (now - 900), b = a + (x >> 20) % 5000;
            uint64_t want = 0, want_all = 0;
            for (int i = 0; i < N; i++) {
                int in = ts[i] >= a && ts[i] <= b;
                want += in && ent[i] == e;
                want_all += in;
            }
            assert_int_equal(truth_count_range(&t, e, a, b), want);
            assert_int_equal(truth_count_window(&t, a, b), want_all);
        }
    }
    assert_int_equal(truth_count_range(&t, 0, 10, 5), 0);        /* empty interval */
    assert_int_equal(truth_count_range(&t, E + 100, 0, UINT64_MAX), 0); /* unknown entity */

    /* a metric's count is the sum over its series: bounds at written
     * times (inclusive, ties included), at 0 and at UINT64_MAX */
    for (uint32_t m = 0; m <= E / HOSTS + 2; m++) { /* the last two: never written */
        uint64_t total = 0;
        for (int i = 0; i < N; i++)
            total += ent[i] / HOSTS == m;
        assert_int_equal(truth_count_metric(&t, m, 0, UINT64_MAX), total);
        for (int q = 0; q < 60; q++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t a = q % 3 ? ts[(x >> 33) % N] : 1000 + (x >> 40) % (now - 900);
            uint64_t b = q % 2 ? ts[(x >> 13) % N] : a + (x >> 20) % 5000;
            uint64_t want = 0;
            for (int i = 0; i < N; i++)
                want += ent[i] / HOSTS == m && ts[i] >= a && ts[i] <= b;
            assert_int_equal(truth_count_metric(&t, m, a, b), want);
            uint64_t series = 0;
            for (uint32_t e = m * HOSTS; e < (m + 1) * HOSTS && e < E; e++)
                series += truth_count_range(&t, e, a, b);
            assert_int_equal(series, want);
        }
        uint64_t last = 0; /* from the newest time on */
        for (int i = 0; i < N; i++)
            last += ent[i] / HOSTS == m && ts[i] == ts[N - 1];
        assert_int_equal(truth_count_metric(&t, m, ts[N - 1], UINT64_MAX), last);
    }
    assert_int_equal(truth_count_metric(&t, 1, 10, 5), 0); /* empty interval */
    truth_release(&t);
}

/* Every query between writes, against brute force over the writes so
 * far: writes wait in a batch before their entities' lists get them
 * (truth.c), and counts start their searches where the last ended, so
 * queries must be right at any point of a batch, across batches, and for
 * bounds that slide forwards (as a dashboard's) and jump back. */
static void test_queries_between_writes(void **state)
{
    (void)state;
    enum { N = 13000, E = 29, HOSTS = 4, EVERY = 37 };
    truth t;
    truth_init(&t);
    truth_track_metrics(&t);
    static uint32_t ent[N];
    static uint64_t ts[N];
    uint64_t x = 7, now = 5000;
    for (int n = 0; n < N; n++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        now += (x >> 61); /* 0..7 ms later: ties happen */
        ent[n] = (uint32_t)((x >> 33) % E);
        ts[n] = now;
        assert_int_equal(truth_add(&t, ent[n], ent[n] / HOSTS, ts[n], (uint64_t)n), 0);
        if (n % EVERY)
            continue;
        uint32_t e = (uint32_t)((x >> 17) % E);
        uint64_t count = 0;
        for (int i = 0; i <= n; i++)
            count += ent[i] == e;
        assert_int_equal(truth_count(&t, e), count);
        assert_int_equal(truth_count_latest(&t, e, 3), count < 3 ? count : 3);
        uint64_t k = count ? (x >> 23) % count : 0; /* its k-th write (0: oldest) */
        truth_entry got;
        assert_int_equal(truth_nth(&t, e, k, &got), count > 0);
        assert_int_equal(truth_nth(&t, e, count, &got), 0);
        for (int i = 0, seen = 0; i <= n && count; i++)
            if (ent[i] == e && (uint64_t)seen++ == k) {
                assert_true(got.seq == (uint64_t)i && got.ts_ms == ts[i]);
                uint64_t newest;
                assert_int_equal(truth_nth_newest(&t, e, count - k, &newest), 1);
                assert_true(newest == ts[i]);
            }
        truth_entry last;
        assert_int_equal(truth_last(&t, e, &last), count > 0);
        for (int i = n; i >= 0 && count; i--)
            if (ent[i] == e) {
                assert_true(last.seq == (uint64_t)i);
                break;
            }
        /* a window ending now (sliding forwards), and one anywhere */
        uint64_t spans[2][2] = { { now > 300 ? now - 300 : 0, now },
                                 { 5000 + (x >> 40) % (now - 4999), 0 } };
        spans[1][1] = spans[1][0] + (x >> 20) % 400;
        for (int w = 0; w < 2; w++) {
            uint64_t a = spans[w][0], b = spans[w][1], want = 0, want_all = 0, want_m = 0;
            for (int i = 0; i <= n; i++) {
                int in = ts[i] >= a && ts[i] <= b;
                want += in && ent[i] == e;
                want_all += in;
                want_m += in && ent[i] / HOSTS == e / HOSTS;
            }
            assert_int_equal(truth_count_range(&t, e, a, b), want);
            assert_int_equal(truth_count_window(&t, a, b), want_all);
            assert_int_equal(truth_count_metric(&t, e / HOSTS, a, b), want_m);
        }
    }
    truth_release(&t);
}

/* Per-metric lists cost memory only when asked for: without
 * truth_track_metrics a run keeps none. */
static void test_metrics_only_when_tracked(void **state)
{
    (void)state;
    truth t;
    truth_init(&t);
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(truth_add(&t, i % 10, i % 3, 1000 + i, i), 0);
    assert_null(t.metrics);
    assert_int_equal(t.nmetrics, 0);
    assert_int_equal(truth_count_window(&t, 0, UINT64_MAX), 1000);
    truth_release(&t);

    truth_init(&t);
    truth_track_metrics(&t);
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(truth_add(&t, i % 10, 7 * (i % 3), 1000 + i, i), 0);
    assert_true(t.nmetrics >= 15); /* indexed by id: up to the largest, 14 */
    assert_int_equal(truth_count_metric(&t, 0, 0, UINT64_MAX), 334);
    assert_int_equal(truth_count_metric(&t, 7, 1000, 1002), 1);  /* write 1 */
    assert_int_equal(truth_count_metric(&t, 14, 1000, 1002), 1); /* write 2 */
    assert_int_equal(truth_count_metric(&t, 3, 0, UINT64_MAX), 0);
    truth_release(&t);
    assert_null(t.metrics);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_counts_match_brute_force),
        cmocka_unit_test(test_queries_between_writes),
        cmocka_unit_test(test_metrics_only_when_tracked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
