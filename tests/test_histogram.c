/* test_histogram.c -- log-linear buckets: exact small values, bounded
 * relative error, quantiles checked against a sorted copy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/histogram.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void test_empty_and_small_values_are_exact(void **state)
{
    (void)state;
    histogram h;
    assert_int_equal(histogram_init(&h, 7), 0);
    assert_int_equal(histogram_quantile(&h, 0.5), 0);
    assert_true(histogram_mean(&h) == 0.0);
    for (uint64_t v = 1; v <= 100; v++)
        histogram_record(&h, v);
    /* Below 2^7 every value has its own bucket: quantiles are exact. */
    assert_int_equal(histogram_quantile(&h, 0.5), 50);
    assert_int_equal(histogram_quantile(&h, 0.99), 99);
    assert_int_equal(histogram_quantile(&h, 1.0), 100);
    assert_int_equal(histogram_quantile(&h, 0.001), 1);
    assert_true(histogram_mean(&h) == 50.5);
    assert_int_equal(h.max, 100);
    histogram_release(&h);
}

static void test_relative_error_is_bounded(void **state)
{
    (void)state;
    const unsigned bits[] = { 4, 7 };
    for (int b = 0; b < 2; b++) {
        histogram h;
        assert_int_equal(histogram_init(&h, bits[b]), 0);
        enum { N = 50000 };
        static uint64_t v[N];
        uint64_t x = 12345;
        for (int i = 0; i < N; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            v[i] = (x >> 11) >> ((x >> 3) % 52); /* spread over many powers of two */
            histogram_record(&h, v[i]);
        }
        qsort(v, N, sizeof v[0], cmp_u64);
        const double qs[] = { 0.1, 0.5, 0.9, 0.99, 0.999, 1.0 };
        double bound = 1.0 / (double)(1u << bits[b]);
        for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
            size_t rank = (size_t)(qs[i] * N + 0.999999);
            uint64_t truth = v[rank - 1], got = histogram_quantile(&h, qs[i]);
            /* The bucket's top: never below the truth, at most 1/2^bits above. */
            assert_true(got >= truth);
            assert_true((double)(got - truth) <= bound * (double)truth + 1.0);
        }
        assert_int_equal(histogram_quantile(&h, 1.0), v[N - 1]);
        histogram_release(&h);
    }
}

static void test_extremes(void **state)
{
    (void)state;
    histogram h;
    assert_int_equal(histogram_init(&h, 7), 0);
    histogram_record(&h, 0);
    histogram_record(&h, UINT64_MAX);
    assert_int_equal(histogram_quantile(&h, 0.5), 0);
    assert_true(histogram_quantile(&h, 1.0) == UINT64_MAX);
    histogram_release(&h);
}

static void test_clear_forgets_everything(void **state)
{
    (void)state;
    histogram h;
    assert_int_equal(histogram_init(&h, 4), 0);
    for (uint64_t v = 1; v < 5000; v += 7)
        histogram_record(&h, v);
    histogram_clear(&h);
    assert_int_equal(h.count, 0);
    assert_int_equal(h.max, 0);
    assert_int_equal(histogram_quantile(&h, 0.5), 0);
    histogram_record(&h, 3);
    assert_int_equal(h.count, 1);
    assert_int_equal(histogram_quantile(&h, 0.99), 3);
    assert_true(histogram_mean(&h) == 3.0);
    histogram_release(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_and_small_values_are_exact),
        cmocka_unit_test(test_relative_error_is_bounded),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_clear_forgets_everything),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
