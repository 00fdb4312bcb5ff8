/* test_store_sampled.c -- the sampled row store against the exact store.
 *
 * Both stores get the same puts; the sampled store must answer exactly
 * while it holds no more rows than its capacity, and within bounds past
 * it: rows, range counts, the middle key (as a rank in the exact store),
 * splits (which keep both halves valid samples), determinism and bounded
 * memory. The bounds are a few times the error measured over the seeds
 * below (docs/store.md has the measured error on the examples).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/store.h"

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

enum order { ASCENDING, SALTED, RANDOM };

/* The key of put i: 9 or 16 bytes, by order. */
static size_t make_key(enum order o, uint64_t i, uint64_t *rng, uint8_t *k)
{
    uint64_t v = i;
    size_t n = 0;
    if (o == SALTED)
        k[n++] = (uint8_t)(xorshift(rng) % 8);
    if (o == RANDOM)
        v = xorshift(rng) % (i + 1000); /* some rows written again */
    if (o == ASCENDING)
        k[n++] = 'r';
    for (int b = 7; b >= 0; b--)
        k[n++] = (uint8_t)(v >> (8 * b));
    if (o == RANDOM)
        for (int b = 0; b < 7; b++)
            k[n++] = (uint8_t)(v * 2654435761u >> (b * 3));
    return n;
}

/* Puts n keys of order o, cell of 100..1099 bytes, into both stores. */
static void put_both(store *e, store *s, enum order o, uint64_t n, uint64_t seed)
{
    uint64_t rng = seed;
    uint8_t k[32];
    for (uint64_t i = 0; i < n; i++) {
        size_t len = make_key(o, i, &rng, k);
        uint32_t b = (uint32_t)(100 + xorshift(&rng) % 1000);
        assert_int_equal(store_put(e, keyref_of(k, len), b), 0);
        assert_int_equal(store_put(s, keyref_of(k, len), b), 0);
    }
}

/* The rank of k among e's rows (rows < k). */
static uint64_t rank_of(store *e, keyref k)
{
    return store_count_range(e, keyref_of((const uint8_t *)"\0", 1), k);
}

static double rel(double a, double b)
{
    return b == 0 ? (a == 0 ? 0 : 1) : (a > b ? a - b : b - a) / b;
}

static void test_exact_under_capacity(void **state)
{
    (void)state;
    for (int o = ASCENDING; o <= RANDOM; o++) {
        store *e = store_new(), *s = store_new_sampled(1024);
        assert_int_equal(store_kind_of(s), STORE_SAMPLED);
        assert_int_equal(store_kind_of(e), STORE_EXACT);
        put_both(e, s, (enum order)o, 900, 7); /* at most 900 rows < 1024 */
        assert_int_equal(store_rows(s), store_rows(e));
        assert_int_equal(store_bytes(s), store_bytes(e));
        assert_int_equal(store_cells(s), store_cells(e));
        keyref m1, m2, f1, f2, l1, l2;
        assert_int_equal(store_middle_key(e, &m1), 0);
        assert_int_equal(store_middle_key(s, &m2), 0);
        assert_int_equal(key_compare(m1, m2), 0);
        assert_int_equal(store_first_last(e, &f1, &l1), 0);
        assert_int_equal(store_first_last(s, &f2, &l2), 0);
        assert_int_equal(key_compare(f1, f2), 0);
        assert_int_equal(key_compare(l1, l2), 0);
        for (uint64_t i = 0; i < store_rows(e); i += 37) {
            keyref a, b;
            uint64_t ba, bb;
            assert_int_equal(store_row_at(e, i, &a, &ba), 0);
            assert_int_equal(store_row_at(s, i, &b, &bb), 0);
            assert_int_equal(key_compare(a, b), 0);
            assert_int_equal(ba, bb);
        }
        /* range counts between rows of the store, and a get */
        for (uint64_t i = 0; i + 50 < store_rows(e); i += 50) {
            keyref a, b;
            uint64_t x;
            assert_int_equal(store_row_at(e, i, &a, &x), 0);
            uint8_t lo[64], hi[64];
            memcpy(lo, a.data, a.len);
            size_t lol = a.len;
            assert_int_equal(store_row_at(e, i + 50, &b, &x), 0);
            memcpy(hi, b.data, b.len);
            size_t hil = b.len;
            assert_int_equal(store_count_range(s, keyref_of(lo, lol), keyref_of(hi, hil)),
                             store_count_range(e, keyref_of(lo, lol), keyref_of(hi, hil)));
        }
        /* a split keeps both halves exact */
        assert_int_equal(store_middle_key(e, &m1), 0);
        uint8_t at[64];
        size_t atl = m1.len;
        memcpy(at, m1.data, m1.len);
        store *eu = store_split(e, keyref_of(at, atl)), *su = store_split(s, keyref_of(at, atl));
        assert_non_null(eu);
        assert_non_null(su);
        assert_int_equal(store_kind_of(su), STORE_SAMPLED);
        assert_int_equal(store_rows(su), store_rows(eu));
        assert_int_equal(store_rows(s), store_rows(e));
        assert_int_equal(store_bytes(su), store_bytes(eu));
        assert_int_equal(store_bytes(s), store_bytes(e));
        assert_int_equal(store_cells(su) + store_cells(s), 900);
        assert_int_equal(store_first_last(su, &f2, &l2), 0);
        assert_int_equal(key_compare(f2, keyref_of(at, atl)), 0);
        store_free(eu);
        store_free(su);
        store_free(e);
        store_free(s);
    }
}

/* Past capacity: rows, whole-range and half-range counts, middle key. */
static void test_estimates(void **state)
{
    (void)state;
    const uint32_t cap = 256;
    for (int o = ASCENDING; o <= RANDOM; o++) {
        double worst_rows = 0, worst_mid = 0, worst_half = 0;
        for (uint64_t seed = 1; seed <= 8; seed++) {
            store *e = store_new(), *s = store_new_sampled(cap);
            put_both(e, s, (enum order)o, 200000, seed * 7919);
            double er = (double)store_rows(e);
            double r = rel((double)store_rows(s), er);
            if (r > worst_rows)
                worst_rows = r;
            keyref lo = keyref_of((const uint8_t *)"\0", 1), none = keyref_of(NULL, 0);
            assert_int_equal(store_count_range(s, lo, none), store_rows(s));
            keyref mid;
            assert_int_equal(store_middle_key(s, &mid), 0);
            uint8_t m[64];
            size_t ml = mid.len;
            memcpy(m, mid.data, ml);
            /* the middle key's rank in the exact store, as a share of rows;
             * bytes are uniform per cell, so the byte middle is near half */
            double share = (double)rank_of(e, keyref_of(m, ml)) / er;
            keyref em;
            assert_int_equal(store_middle_key(e, &em), 0);
            double eshare = (double)rank_of(e, em) / er;
            double d = share > eshare ? share - eshare : eshare - share;
            if (d > worst_mid)
                worst_mid = d;
            /* rows below the exact middle key */
            uint8_t emk[64];
            size_t eml = em.len;
            memcpy(emk, em.data, eml);
            double h = rel((double)store_count_range(s, lo, keyref_of(emk, eml)),
                           (double)store_count_range(e, lo, keyref_of(emk, eml)));
            if (h > worst_half)
                worst_half = h;
            /* within what the memory estimate counts a region (engine/budget.c:
             * sample_keys x (12 + 1.5 K) + 2 K + 128 bytes, K = 16 here) */
            assert_true(store_memory(s) <= cap * (12 + 1.5 * 16) + 2 * 16 + 128);
            store_free(e);
            store_free(s);
        }
        print_message("order %d: worst rows %.3f, middle key share %.3f, half count %.3f\n", o,
                      worst_rows, worst_mid, worst_half);
        /* 128..256 sampled rows: about 1/sqrt(128) = 0.09 relative, one sigma */
        assert_true(worst_rows < 0.25);
        assert_true(worst_mid < 0.15);
        assert_true(worst_half < 0.30);
    }
}

/* Repeated splits at the sampled middle key, as a region map does: the
 * halves stay valid samples, so their rows still add up (four pieces of
 * a sample of 128..256 rows: 32..64 rows each, about 15% error each). */
static void test_split_validity(void **state)
{
    (void)state;
    store *e = store_new(), *s = store_new_sampled(256);
    put_both(e, s, RANDOM, 300000, 99);
    store *es[4] = { e }, *ss[4] = { s };
    size_t n = 1;
    while (n < 4) {
        size_t w = n;
        for (size_t i = 0; i < w && n < 4; i++) {
            keyref mid;
            assert_int_equal(store_middle_key(ss[i], &mid), 0);
            uint8_t at[64];
            size_t l = mid.len;
            memcpy(at, mid.data, l);
            es[n] = store_split(es[i], keyref_of(at, l));
            ss[n] = store_split(ss[i], keyref_of(at, l));
            assert_non_null(es[n]);
            assert_non_null(ss[n]);
            n++;
        }
    }
    uint64_t er = 0, sr = 0, eb = 0, sb = 0, ec = 0, sc = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        er += store_rows(es[i]);
        sr += store_rows(ss[i]);
        eb += store_bytes(es[i]);
        sb += store_bytes(ss[i]);
        ec += store_cells(es[i]);
        sc += store_cells(ss[i]);
        double r = rel((double)store_rows(ss[i]), (double)store_rows(es[i]));
        if (r > worst)
            worst = r;
    }
    print_message("4 pieces: total rows rel %.4f, worst piece %.3f\n",
                  rel((double)sr, (double)er), worst);
    assert_int_equal(sb, eb); /* bytes and cells are conserved */
    assert_int_equal(sc, ec);
    assert_true(rel((double)sr, (double)er) < 0.10);
    assert_true(worst < 0.25); /* 0.081 measured; one sigma of a piece is about 0.15 */
    for (size_t i = 0; i < n; i++) {
        store_free(es[i]);
        store_free(ss[i]);
    }
}

/* Same puts => the same answers and the same memory, byte for byte, in
 * this process and in any other: the sample is chosen by a fixed hash of
 * the key, no seed, no address. The pinned values are what the store
 * answered when this test was written (50,000 salted puts, 8 salts x 6,250
 * rows, into 64 sampled rows: its row estimate and middle key; memory
 * follows the struct's layout, so it is only compared); a change to the
 * hash or the threshold rule changes them, and must be made knowingly:
 * every sampled run's report changes with them. */
static void test_deterministic(void **state)
{
    (void)state;
    store *a = store_new_sampled(64), *b = store_new_sampled(64), *e = store_new();
    put_both(e, a, SALTED, 50000, 5);
    store_free(e);
    e = store_new();
    put_both(e, b, SALTED, 50000, 5);
    assert_int_equal(store_rows(a), store_rows(b));
    assert_int_equal(store_memory(a), store_memory(b));
    keyref x, y;
    assert_int_equal(store_middle_key(a, &x), 0);
    assert_int_equal(store_middle_key(b, &y), 0);
    assert_int_equal(key_compare(x, y), 0);
    static const uint8_t pinned_mid[] = { 0x03, 0, 0, 0, 0, 0, 0, 0x78, 0xe9 };
    assert_int_equal(store_rows(a), 40489); /* of 50,000 */
    assert_int_equal(key_compare(x, keyref_of(pinned_mid, sizeof pinned_mid)), 0);
    store_free(a);
    store_free(b);
    store_free(e);
}

/* A split whose lower half's new last row is longer than its old last:
 * the lower half ends at that row, whole, and the upper half starts at
 * the split key. */
static void test_split_to_a_longer_last_key(void **state)
{
    (void)state;
    store *s = store_new_sampled(16);
    uint8_t longer[40];
    memset(longer, 'a', sizeof longer);
    assert_int_equal(store_put(s, keyref_of((const uint8_t *)"b", 1), 10), 0);
    assert_int_equal(store_put(s, keyref_of(longer, sizeof longer), 10), 0);
    assert_int_equal(store_put(s, keyref_of((const uint8_t *)"c", 1), 10), 0);
    store *t = store_split(s, keyref_of((const uint8_t *)"b", 1));
    assert_non_null(t);
    keyref first, last;
    assert_int_equal(store_first_last(s, &first, &last), 0);
    assert_int_equal(key_compare(first, keyref_of(longer, sizeof longer)), 0);
    assert_int_equal(key_compare(last, keyref_of(longer, sizeof longer)), 0);
    assert_int_equal(store_rows(s), 1);
    assert_int_equal(store_first_last(t, &first, &last), 0);
    assert_int_equal(key_compare(first, keyref_of((const uint8_t *)"b", 1)), 0);
    assert_int_equal(key_compare(last, keyref_of((const uint8_t *)"c", 1)), 0);
    assert_int_equal(store_rows(t), 2);
    store_free(s);
    store_free(t);
}

/* Gets: one-key ranges count 1 inside [first, last], 0 outside. */
static void test_gets(void **state)
{
    (void)state;
    store *e = store_new(), *s = store_new_sampled(16);
    put_both(e, s, ASCENDING, 5000, 3);
    uint8_t k[32], hi[33];
    uint64_t rng = 0;
    size_t n = make_key(ASCENDING, 1234, &rng, k);
    memcpy(hi, k, n);
    hi[n] = 0;
    assert_int_equal(store_count_range(s, keyref_of(k, n), keyref_of(hi, n + 1)), 1);
    n = make_key(ASCENDING, 99999, &rng, k);
    memcpy(hi, k, n);
    hi[n] = 0;
    assert_int_equal(store_count_range(s, keyref_of(k, n), keyref_of(hi, n + 1)), 0);
    /* an empty store */
    store *z = store_new_sampled(16);
    keyref m;
    assert_int_equal(store_middle_key(z, &m), -1);
    assert_int_equal(store_rows(z), 0);
    assert_int_equal(store_count_range(z, keyref_of(k, n), keyref_of(NULL, 0)), 0);
    store_free(z);
    store_free(e);
    store_free(s);
}

/* A key handed out by the store can be put back into it. */
static void test_put_own_key(void **state)
{
    (void)state;
    store *s = store_new_sampled(16);
    uint8_t k[16];
    for (int i = 0; i < 1000; i++) {
        snprintf((char *)k, sizeof k, "row%05d", (i * 7919) % 1000);
        assert_int_equal(store_put(s, keyref_of(k, 8), 10), 0);
    }
    for (int i = 0; i < 100; i++) {
        keyref m, f, l;
        assert_int_equal(store_middle_key(s, &m), 0);
        assert_int_equal(store_put(s, m, 1), 0);
        assert_int_equal(store_first_last(s, &f, &l), 0);
        assert_int_equal(store_put(s, l, 1), 0);
        assert_int_equal(store_put(s, f, 1), 0);
    }
    assert_int_equal(store_cells(s), 1300);
    store_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_under_capacity),
        cmocka_unit_test(test_estimates),
        cmocka_unit_test(test_split_validity),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_split_to_a_longer_last_key),
        cmocka_unit_test(test_gets),
        cmocka_unit_test(test_put_own_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
