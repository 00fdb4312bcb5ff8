/* test_dist.c -- distribution names (zipfian is YCSB's; the rank-ordered
 * one is ranked_zipfian), FNV-64 against YCSB's keys, and the two
 * generators dist.c keeps: the ranked zipfian and a growing latest, each
 * against its formula, growth, and reproducibility. YCSB's own key choice
 * is tested in test_ycsb.c and, as the entities pattern uses it, in
 * test_pattern.c.
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
    const char *names[] = { "uniform", "zipfian", "ranked_zipfian", "latest",
                            "hotspot", "sequential", "exponential" };
    for (int k = 0; k < 7; k++) {
        dist_kind kind = DIST_UNIFORM;
        assert_int_equal(dist_kind_parse(names[k], &kind), 0);
        assert_int_equal((int)kind, k);
        assert_string_equal(dist_kind_name(kind), names[k]);
    }
    assert_int_equal(DIST_EXPONENTIAL, 6); /* the last: lists walk up to it */
    /* zipfian is YCSB's requestdistribution=zipfian (the scrambled one);
     * scrambled_zipfian is its synonym and formats as zipfian. */
    dist_kind kind = DIST_UNIFORM;
    assert_int_equal(dist_kind_parse("scrambled_zipfian", &kind), 0);
    assert_int_equal((int)kind, DIST_ZIPFIAN);
    assert_string_equal(dist_kind_name(kind), "zipfian");
    kind = DIST_LATEST;
    assert_int_equal(dist_kind_parse("zipf", &kind), -1);
    assert_int_equal(dist_kind_parse("Uniform", &kind), -1);
    assert_int_equal(dist_kind_parse("ranked", &kind), -1);
    assert_int_equal(dist_kind_parse("", &kind), -1);
    assert_int_equal((int)kind, DIST_LATEST);
}

/* dist_zeta adds the terms as YCSB's zetastatic does up to 10^8 terms;
 * past that (the Euler-Maclaurin tail) it continues the sum smoothly and
 * agrees with YCSB's ScrambledZipfianGenerator.ZETAN, its 10^10-term sum,
 * to that sum's rounding. */
static void test_zeta(void **state)
{
    (void)state;
    double s = 0.0;
    for (uint64_t i = 0; i < 1000; i++)
        s += 1 / pow((double)(i + 1), 0.99);
    assert_true(dist_zeta(1000) == s); /* bit for bit */
    assert_true(dist_zeta(0) == 0.0);
    double at = dist_zeta(100000000ull), past = dist_zeta(100000001ull);
    assert_true(fabs(past - at - pow(100000001.0, -0.99)) < 1e-9);
    assert_true(fabs(dist_zeta(10000000000ull) - 26.46902820178302) < 1e-9);
}

/* The rank-ordered zipfian (ranked_zipfian, `zipfian` before it became
 * YCSB's): Gray's method returns 0 iff u * zetan < 1 and 1 iff 1 <= u *
 * zetan < 1 + 0.5^theta: frequencies 1/zetan and 0.5^theta/zetan exactly. */
static void test_ranked_zipfian_head_matches_theory(void **state)
{
    (void)state;
    const uint64_t items = 1000;
    const long n = 400000;
    uint64_t *c = histogram(DIST_RANKED_ZIPFIAN, items, 2, n);
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
static void test_ranked_zipfian_growth_equals_fresh(void **state)
{
    (void)state;
    dist *grown = dist_new(DIST_RANKED_ZIPFIAN, 1000);
    dist *fresh = dist_new(DIST_RANKED_ZIPFIAN, 2000);
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

/* The sequence pattern's reads: a latest built over one item and grown
 * one insert at a time draws exactly what one built at the final size
 * draws (YCSB's stale eta would leave it degenerate: always the newest or
 * the one before). */
static void test_latest_grown_from_one_equals_fresh(void **state)
{
    (void)state;
    dist *grown = dist_new(DIST_LATEST, 1), *fresh = dist_new(DIST_LATEST, 3000);
    assert_non_null(grown);
    assert_non_null(fresh);
    for (uint64_t n = 2; n <= 3000; n++)
        dist_set_items(grown, n);
    rng a, b;
    rng_seed(&a, 11);
    rng_seed(&b, 11);
    int far = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t v = dist_next(grown, &a);
        assert_true(v == dist_next(fresh, &b));
        far |= v < 2990;
    }
    assert_true(far);
    dist_free(grown);
    dist_free(fresh);
}

/* Same seed, same sequence, for both kinds; another seed differs. */
static void test_deterministic(void **state)
{
    (void)state;
    static const dist_kind kinds[] = { DIST_RANKED_ZIPFIAN, DIST_LATEST };
    for (size_t i = 0; i < 2; i++) {
        dist_kind k = kinds[i];
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
        assert_true(differs);
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
        cmocka_unit_test(test_zeta),
        cmocka_unit_test(test_ranked_zipfian_head_matches_theory),
        cmocka_unit_test(test_ranked_zipfian_growth_equals_fresh),
        cmocka_unit_test(test_latest_favours_newest),
        cmocka_unit_test(test_latest_grown_from_one_equals_fresh),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
