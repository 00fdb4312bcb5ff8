/* test_rng.c -- xoshiro256** and splitmix64 against published values,
 * reproducibility, stream independence, and unbiased bounded draws. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "workloads/rng.h"

/* xoshiro256** from state {1, 2, 3, 4}. The first two outputs by hand:
 * rotl(2*5, 7)*9 = 1280*9 = 11520; after one step s[1] = 0, so the second
 * is 0. The next two are the reference implementation's (also the test
 * vector of Rust's rand_xoshiro). */
static void test_xoshiro_known_answers(void **state)
{
    (void)state;
    rng r = { { 1, 2, 3, 4 } };
    assert_true(rng_next(&r) == 11520u);
    assert_true(rng_next(&r) == 0u);
    assert_true(rng_next(&r) == 1509978240u);
    assert_true(rng_next(&r) == 1215971899390074240u);
}

/* splitmix64 from 0 yields e220a8397b1dcdaf 6e789e6aa1b965f4
 * 06c45d188009454f f88bb8a8724c81ec (Vigna's splitmix64.c). */
static void test_seed_is_splitmix64(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 0);
    assert_true(r.s[0] == 0xE220A8397B1DCDAFu);
    assert_true(r.s[1] == 0x6E789E6AA1B965F4u);
    assert_true(r.s[2] == 0x06C45D188009454Fu);
    assert_true(r.s[3] == 0xF88BB8A8724C81ECu);
}

static void test_same_seed_same_sequence(void **state)
{
    (void)state;
    rng a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int differs = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a);
        assert_true(x == rng_next(&b));
        differs |= x != rng_next(&c);
    }
    assert_true(differs);
}

static void test_streams_differ(void **state)
{
    (void)state;
    rng s0 = rng_stream(7, 0), s1 = rng_stream(7, 1), again = rng_stream(7, 1);
    rng swapped = rng_stream(1, 7), other_seed = rng_stream(8, 1);
    int same01 = 0, same_swap = 0, same_seed = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x1 = rng_next(&s1);
        assert_true(x1 == rng_next(&again));
        same01 += x1 == rng_next(&s0);
        same_swap += x1 == rng_next(&swapped);
        same_seed += x1 == rng_next(&other_seed);
    }
    assert_int_equal(same01, 0);
    assert_int_equal(same_swap, 0);
    assert_int_equal(same_seed, 0);
}

static void test_below_bounds(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 1);
    const uint64_t ns[] = { 1, 2, 7, 1000, UINT32_MAX, (UINT64_C(1) << 63) + 1, UINT64_MAX };
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int i = 0; i < 10000; i++)
            assert_true(rng_below(&r, ns[k]) < ns[k]);
    assert_true(rng_below(&r, 1) == 0);
}

/* Chi-square of 100,000 draws over 10 cells: 9 degrees of freedom, mean 9;
 * P(chi2 > 50) is about 1e-7, so a failure means bias, not bad luck. */
static void test_below_uniform_chi_square(void **state)
{
    (void)state;
    enum { CELLS = 10, DRAWS = 100000 };
    long count[CELLS] = { 0 };
    rng r;
    rng_seed(&r, 2024);
    for (int i = 0; i < DRAWS; i++)
        count[rng_below(&r, CELLS)]++;
    double expect = (double)DRAWS / CELLS, chi2 = 0;
    for (int c = 0; c < CELLS; c++)
        chi2 += (count[c] - expect) * (count[c] - expect) / expect;
    assert_true(chi2 < 50.0);
}

/* n = 2/3 of 2^64: "next % n" would put 2/3 of the draws below n/2;
 * an unbiased draw puts half there. */
static void test_below_unbiased_for_large_n(void **state)
{
    (void)state;
    const uint64_t n = UINT64_C(0xAAAAAAAAAAAAAAAA);
    rng r;
    rng_seed(&r, 99);
    long low = 0;
    for (int i = 0; i < 100000; i++)
        low += rng_below(&r, n) < n / 2;
    assert_true(low > 48000 && low < 52000);
}

static void test_double_range_and_mean(void **state)
{
    (void)state;
    rng r;
    rng_seed(&r, 5);
    double sum = 0, lo = 1, hi = 0;
    for (int i = 0; i < 100000; i++) {
        double d = rng_double(&r);
        assert_true(d >= 0.0 && d < 1.0);
        sum += d;
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    assert_true(sum / 100000 > 0.49 && sum / 100000 < 0.51);
    assert_true(lo < 0.001 && hi > 0.999);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xoshiro_known_answers),
        cmocka_unit_test(test_seed_is_splitmix64),
        cmocka_unit_test(test_same_seed_same_sequence),
        cmocka_unit_test(test_streams_differ),
        cmocka_unit_test(test_below_bounds),
        cmocka_unit_test(test_below_uniform_chi_square),
        cmocka_unit_test(test_below_unbiased_for_large_n),
        cmocka_unit_test(test_double_range_and_mean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
