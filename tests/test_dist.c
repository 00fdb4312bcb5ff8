/* test_dist.c -- YCSB's request distributions: FNV-64 against YCSB's keys,
 * each kind's shape against its formula, growth, and reproducibility.
 *
 * The statistical checks use fixed seeds and bounds of at least five
 * standard deviations, so they are deterministic yet would catch a wrong
 * constant, a wrong mapping or an off-by-one in the range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <cmocka.h>

#include "workloads/dist.h"

/* zeta(n, theta) = sum_{i=1..n} i^-theta, for the expected frequencies. */
static double zeta(uint64_t n, double theta)
{
    double s = 0.0;
    for (uint64_t i = 1; i <= n; i++)
        s += pow((double)i, -theta);
    return s;
}

/* Draws n values from a fresh dist of `kind` over `items`, counting each
 * into counts[0..items) (callee-allocated, caller frees). */
static uint64_t *histogram(dist_kind kind, uint64_t items, uint64_t seed,
                           long n)
{
    dist *d = dist_new(kind, items);
    assert_non_null(d);
    uint64_t *counts = calloc(items, sizeof *counts);
    assert_non_null(counts);
    rng r;
    rng_seed(&r, seed);
    for (long i = 0; i < n; i++) {
        uint64_t v = dist_next(d, &r);
        assert_true(v < items);
        counts[v]++;
    }
    dist_free(d);
    return counts;
}

static uint64_t argmax(const uint64_t *counts, uint64_t items)
{
    uint64_t best = 0;
    for (uint64_t i = 1; i < items; i++)
        if (counts[i] > counts[best])
            best = i;
    return best;
}

/* YCSB's first hashed key is user6284781860667377211 (fnvhash64(0)); the
 * second, user8517097267634966620, is fnvhash64(1): computed with a script
 * that replays Utils.fnvhash64 in signed 64-bit arithmetic. */
static void test_fnvhash64_matches_ycsb(void **state)
{
    (void)state;
    assert_true(ycsb_fnvhash64(0) == 6284781860667377211ull);
    assert_true(ycsb_fnvhash64(1) == 8517097267634966620ull);
    assert_true(ycsb_fnvhash64(12345) == 1792800413050876852ull);
}

static void test_kind_names_round_trip(void **state)
{
    (void)state;
    const char *names[] = { "uniform", "zipfian", "scrambled_zipfian", "latest",
                            "hotspot", "sequential", "exponential" };
    for (int k = 0; k < 7; k++) {
        dist_kind kind = DIST_UNIFORM;
        assert_int_equal(dist_kind_parse(names[k], &kind), 0);
        assert_int_equal((int)kind, k);
        assert_string_equal(dist_kind_name(kind), names[k]);
    }
    dist_kind kind = DIST_LATEST;
    assert_int_equal(dist_kind_parse("zipf", &kind), -1);
    assert_int_equal(dist_kind_parse("Uniform", &kind), -1);
    assert_int_equal(dist_kind_parse("", &kind), -1);
    assert_int_equal((int)kind, DIST_LATEST);
}

/* Chi-square over 100 cells, 99 degrees of freedom (mean 99, sd 14). */
static void test_uniform_is_flat(void **state)
{
    (void)state;
    const uint64_t items = 100;
    const long n = 200000;
    uint64_t *c = histogram(DIST_UNIFORM, items, 1, n);
    double expect = (double)n / (double)items, chi2 = 0.0;
    for (uint64_t i = 0; i < items; i++)
        chi2 += ((double)c[i] - expect) * ((double)c[i] - expect) / expect;
    assert_true(chi2 < 99.0 + 7 * 14.0);
    free(c);
}

/* Gray's method returns 0 iff u * zetan < 1 and 1 iff 1 <= u * zetan <
 * 1 + 0.5^theta: frequencies 1/zetan and 0.5^theta/zetan exactly. */
static void test_zipfian_head_matches_theory(void **state)
{
    (void)state;
    const uint64_t items = 1000;
    const long n = 400000;
    uint64_t *c = histogram(DIST_ZIPFIAN, items, 2, n);
    double z = zeta(items, 0.99);
    double f0 = (double)c[0] / n, f1 = (double)c[1] / n;
    assert_true(fabs(f0 - 1.0 / z) < 0.02 / z);             /* 0.129 */
    assert_true(fabs(f1 - pow(0.5, 0.99) / z) < 0.03 / z);  /* 0.065 */
    assert_true(c[0] > c[1] && c[1] > c[2] && c[2] > c[3]);
    /* The tail is reached, up to the last item (about 1000^-0.99 / zeta
     * = 1.4e-4 of the draws: some 50 here). */
    assert_true(c[items - 1] > 10);
    free(c);
}

/* Growing extends zeta incrementally over the same terms in the same
 * order, and eta follows the new count: a generator grown from 1000 to
 * 2000 items draws exactly what one built at 2000 draws. */
static void test_zipfian_growth_equals_fresh(void **state)
{
    (void)state;
    dist *grown = dist_new(DIST_ZIPFIAN, 1000), *fresh = dist_new(DIST_ZIPFIAN, 2000);
    assert_non_null(grown);
    assert_non_null(fresh);
    dist_set_items(grown, 2000);
    rng a, b;
    rng_seed(&a, 3);
    rng_seed(&b, 3);
    int above = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t v = dist_next(grown, &a);
        assert_true(v == dist_next(fresh, &b));
        above |= v >= 1000;
    }
    assert_true(above);
    dist_free(grown);
    dist_free(fresh);
}

/* The scrambled zipfian's top item is zipfian item 0, hashed: fnvhash64(0)
 * % items = 211 for 1000 items, with frequency 1/ZETAN (0.0378) plus its
 * share of the scattered tail (about 0.001). */
static void test_scrambled_zipfian_top_is_hash_of_zero(void **state)
{
    (void)state;
    const uint64_t items = 1000;
    const long n = 200000;
    uint64_t *c = histogram(DIST_SCRAMBLED_ZIPFIAN, items, 4, n);
    uint64_t top = ycsb_fnvhash64(0) % items;
    assert_true(top == 211);
    assert_true(argmax(c, items) == top);
    double f = (double)c[top] / n;
    assert_true(f > 1.0 / 26.46902820178302 && f < 1.0 / 26.46902820178302 + 0.004);
    /* The second zipfian item lands on fnvhash64(1) % items = 620. */
    uint64_t second = 0;
    for (uint64_t i = 0; i < items; i++)
        if (i != top && c[i] > c[second])
            second = i;
    assert_true(second == ycsb_fnvhash64(1) % items);
    free(c);
}

/* Latest: the newest item (items - 1) is the most popular, then the one
 * before; after growth the new last item takes over. */
static void test_latest_favours_newest(void **state)
{
    (void)state;
    const uint64_t items = 1000;
    dist *d = dist_new(DIST_LATEST, items);
    assert_non_null(d);
    uint64_t *c = calloc(items + 10, sizeof *c);
    assert_non_null(c);
    rng r;
    rng_seed(&r, 5);
    for (int i = 0; i < 100000; i++) {
        uint64_t v = dist_next(d, &r);
        assert_true(v < items);
        c[v]++;
    }
    assert_true(argmax(c, items) == items - 1);
    assert_true(c[items - 1] > c[items - 2] && c[items - 2] > c[items - 3]);
    /* Same shape as the zipfian over items - 1, mirrored. */
    double f = (double)c[items - 1] / 100000.0, z = zeta(items - 1, 0.99);
    assert_true(fabs(f - 1.0 / z) < 0.03 / z);

    dist_set_items(d, items + 10);
    for (uint64_t i = 0; i < items + 10; i++)
        c[i] = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t v = dist_next(d, &r);
        assert_true(v < items + 10);
        c[v]++;
    }
    assert_true(argmax(c, items + 10) == items + 9);
    assert_true(c[items + 8] > c[items - 1]);
    free(c);
    dist_free(d);

    /* One item: always it. */
    d = dist_new(DIST_LATEST, 1);
    assert_non_null(d);
    for (int i = 0; i < 10; i++)
        assert_true(dist_next(d, &r) == 0);
    dist_set_items(d, 3);
    for (int i = 0; i < 100; i++) {
        uint64_t v = dist_next(d, &r);
        assert_true(v >= 1 && v <= 2);
    }
    dist_free(d);
}

/* Hotspot: 80% of draws in the first 20% of items, uniform in each set. */
static void test_hotspot_fractions(void **state)
{
    (void)state;
    const uint64_t items = 1000;
    const long n = 200000;
    uint64_t *c = histogram(DIST_HOTSPOT, items, 6, n);
    uint64_t hot = 0;
    for (uint64_t i = 0; i < 200; i++)
        hot += c[i];
    assert_true(fabs((double)hot / n - 0.8) < 0.006);
    /* Hot items get 0.8/200 = 0.004 each, cold ones 0.2/800 = 0.00025. */
    assert_true(c[0] > 600 && c[199] > 600 && c[200] < 100 && c[999] < 100);
    assert_true(c[999] > 0);
    free(c);
}

static void test_sequential_wraps_and_grows(void **state)
{
    (void)state;
    dist *d = dist_new(DIST_SEQUENTIAL, 5);
    assert_non_null(d);
    rng r;
    rng_seed(&r, 7);
    const uint64_t want[] = { 0, 1, 2, 3, 4, 0, 1, 2 };
    for (int i = 0; i < 8; i++)
        assert_true(dist_next(d, &r) == want[i]);
    dist_set_items(d, 7);
    const uint64_t then[] = { 3, 4, 5, 6, 0, 1 };
    for (int i = 0; i < 6; i++)
        assert_true(dist_next(d, &r) == then[i]);
    dist_free(d);
}

/* Exponential: x = -ln(u) / gamma with gamma = -ln(0.05) / (0.857 items),
 * mapped as CoreWorkload does, item = (items - 1) - floor(x), redrawn
 * while negative (x >= items). So P(x < 0.857 items) = 0.95 before the
 * redraw and 0.95 / (1 - 0.05^(1/0.857)) = 0.97973 after it. */
static void test_exponential_percentile(void **state)
{
    (void)state;
    const uint64_t items = 1000;
    const long n = 200000;
    const double frac = 0.8571428571;
    uint64_t *c = histogram(DIST_EXPONENTIAL, items, 8, n);
    double range = (double)items * frac;
    uint64_t within = 0;
    for (uint64_t v = 0; v < items; v++)
        if ((double)(items - 1 - v) < range)
            within += c[v];
    double expect = 0.95 / (1.0 - pow(0.05, (double)items / range));
    assert_true(fabs(expect - 0.97973) < 1e-4);
    assert_true(fabs((double)within / n - expect) < 0.002);
    /* The newest 100 items get (1 - e^(-100 gamma)) / 0.97973 = 30% of the
     * draws, the oldest 100 (e^(-900 gamma) - e^(-1000 gamma)) / 0.97973 =
     * 1.3%. */
    uint64_t newest = 0, oldest = 0;
    for (uint64_t i = 0; i < 100; i++) {
        newest += c[items - 1 - i];
        oldest += c[i];
    }
    double gamma = -log(0.05) / range;
    double total = 1.0 - exp(-gamma * (double)items);
    assert_true(fabs((double)newest / n - (1.0 - exp(-100 * gamma)) / total) < 0.006);
    assert_true(fabs((double)oldest / n -
                     (exp(-900 * gamma) - exp(-1000 * gamma)) / total) < 0.002);
    free(c);
}

/* Same seed, same sequence, for every kind; another seed differs. */
static void test_deterministic(void **state)
{
    (void)state;
    for (int k = DIST_UNIFORM; k <= DIST_EXPONENTIAL; k++) {
        dist *a = dist_new((dist_kind)k, 500), *b = dist_new((dist_kind)k, 500);
        dist *c = dist_new((dist_kind)k, 500);
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(c);
        rng ra, rb, rc;
        rng_seed(&ra, 99);
        rng_seed(&rb, 99);
        rng_seed(&rc, 100);
        int differs = 0;
        for (int i = 0; i < 2000; i++) {
            if (i == 1000) {
                dist_set_items(a, 600);
                dist_set_items(b, 600);
                dist_set_items(c, 600);
            }
            uint64_t x = dist_next(a, &ra);
            assert_true(x == dist_next(b, &rb));
            differs |= x != dist_next(c, &rc);
        }
        assert_true(differs == (k != DIST_SEQUENTIAL));
        dist_free(a);
        dist_free(b);
        dist_free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fnvhash64_matches_ycsb),
        cmocka_unit_test(test_kind_names_round_trip),
        cmocka_unit_test(test_uniform_is_flat),
        cmocka_unit_test(test_zipfian_head_matches_theory),
        cmocka_unit_test(test_zipfian_growth_equals_fresh),
        cmocka_unit_test(test_scrambled_zipfian_top_is_hash_of_zero),
        cmocka_unit_test(test_latest_favours_newest),
        cmocka_unit_test(test_hotspot_fractions),
        cmocka_unit_test(test_sequential_wraps_and_grows),
        cmocka_unit_test(test_exponential_percentile),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
