/* test_regionmap.c -- routing, ranges and splits, checked against brute force. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/regionmap.h"

static keyref S(const char *s) { return keyref_of(s, strlen(s)); }

/* A test-local generator (core tests link core only). */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t random_key(uint64_t *x, uint8_t *out)
{
    /* Short keys over a small alphabet incl. 0x00 and 0xFF: many prefixes. */
    static const uint8_t alphabet[] = { 0x00, 0x01, 'a', 'b', 0x7f, 0x80, 0xfe, 0xff };
    size_t len = 1 + next_random(x) % 4;
    for (size_t i = 0; i < len; i++)
        out[i] = alphabet[next_random(x) % sizeof alphabet];
    return len;
}

static size_t route_brute_force(regionmap *m, keyref k)
{
    size_t found = SIZE_MAX;
    for (size_t i = 0; i < regionmap_count(m); i++) {
        if (region_contains(regionmap_at(m, i), k)) {
            assert_int_equal(found, SIZE_MAX); /* exactly one region holds k */
            found = i;
        }
    }
    assert_int_not_equal(found, SIZE_MAX);
    return found;
}

static void assert_tiling(regionmap *m)
{
    size_t n = regionmap_count(m);
    assert_int_equal(regionmap_at(m, 0)->start_len, 0);
    assert_int_equal(regionmap_at(m, n - 1)->end_len, 0);
    for (size_t i = 0; i + 1 < n; i++) {
        keyref end = region_end(regionmap_at(m, i));
        assert_true(end.len > 0);
        assert_int_equal(key_compare(end, region_start(regionmap_at(m, i + 1))), 0);
        assert_true(key_compare(region_start(regionmap_at(m, i)), end) < 0);
    }
}

static void test_single_region_takes_everything(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    assert_non_null(m);
    assert_int_equal(regionmap_count(m), 1);
    assert_int_equal(regionmap_route(m, S("a")), 0);
    assert_int_equal(regionmap_route(m, keyref_of("\xff\xff", 2)), 0);
    assert_int_equal(regionmap_route(m, keyref_of("\0", 1)), 0);
    size_t first, last;
    regionmap_range(m, S("a"), S(""), &first, &last);
    assert_int_equal(first, 0);
    assert_int_equal(last, 0);
    regionmap_free(m);
}

static void test_presplit_validation(void **state)
{
    (void)state;
    size_t bad = 99;
    keyref unsorted[] = { S("b"), S("a") };
    assert_null(regionmap_new(unsorted, 2, &bad));
    assert_int_equal(bad, 1);
    keyref dup[] = { S("a"), S("b"), S("b") };
    assert_null(regionmap_new(dup, 3, &bad));
    assert_int_equal(bad, 2);
    keyref empty[] = { S("") };
    assert_null(regionmap_new(empty, 1, &bad));
    assert_int_equal(bad, 0);
}

static void test_route_edges(void **state)
{
    (void)state;
    size_t bad;
    keyref splits[] = { S("b"), S("d") };
    regionmap *m = regionmap_new(splits, 2, &bad);
    assert_non_null(m);
    assert_tiling(m);
    /* Start inclusive, end exclusive; first and last regions unbounded. */
    assert_int_equal(regionmap_route(m, keyref_of("\0", 1)), 0);
    assert_int_equal(regionmap_route(m, S("a")), 0);
    assert_int_equal(regionmap_route(m, keyref_of("a\xff\xff", 3)), 0);
    assert_int_equal(regionmap_route(m, S("b")), 1);
    assert_int_equal(regionmap_route(m, keyref_of("b\0", 2)), 1);
    assert_int_equal(regionmap_route(m, S("c")), 1);
    assert_int_equal(regionmap_route(m, S("d")), 2);
    assert_int_equal(regionmap_route(m, keyref_of("\xff\xff\xff", 3)), 2);
    regionmap_free(m);
}

static void test_range_edges(void **state)
{
    (void)state;
    size_t bad, first, last;
    keyref splits[] = { S("b"), S("d") };
    regionmap *m = regionmap_new(splits, 2, &bad);
    regionmap_range(m, S("a"), S("b"), &first, &last); /* hi exclusive */
    assert_int_equal(first, 0);
    assert_int_equal(last, 0);
    regionmap_range(m, S("a"), keyref_of("b\0", 2), &first, &last);
    assert_int_equal(first, 0);
    assert_int_equal(last, 1);
    regionmap_range(m, S("b"), S("d"), &first, &last);
    assert_int_equal(first, 1);
    assert_int_equal(last, 1);
    regionmap_range(m, S("c"), S(""), &first, &last); /* unbounded */
    assert_int_equal(first, 1);
    assert_int_equal(last, 2);
    regionmap_free(m);
}

static void test_split_moves_rows_and_rejects_bad_points(void **state)
{
    (void)state;
    size_t bad;
    keyref splits[] = { S("m") };
    regionmap *m = regionmap_new(splits, 1, &bad);
    const char *rows[] = { "a", "c", "e", "g", "k" };
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(store_put(regionmap_at(m, 0)->rows, S(rows[i]), 10), 0);
    regionmap_at(m, 0)->server = 3;
    /* Not strictly inside region 0 = [-inf, m): its start, outside, empty. */
    assert_int_equal(regionmap_split(m, 0, S(""), 7), -1);
    assert_int_equal(regionmap_split(m, 0, S("m"), 7), -1);
    assert_int_equal(regionmap_split(m, 0, S("z"), 7), -1);
    assert_int_equal(regionmap_split(m, 1, S("m"), 7), -1);
    assert_int_equal(regionmap_count(m), 2);

    uint64_t parent_id = regionmap_at(m, 0)->id;
    assert_int_equal(regionmap_split(m, 0, S("e"), 7), 0);
    assert_int_equal(regionmap_count(m), 3);
    assert_tiling(m);
    region *lo = regionmap_at(m, 0), *hi = regionmap_at(m, 1);
    assert_int_equal(store_rows(lo->rows), 2);
    assert_int_equal(store_rows(hi->rows), 3);
    assert_int_equal(store_bytes(lo->rows) + store_bytes(hi->rows), 50);
    assert_int_equal(lo->server, 3); /* daughters stay on the parent's server */
    assert_int_equal(hi->server, 3);
    assert_int_equal(parent_id, 0); /* a new table's regions share regionId 0 */
    assert_int_equal(regionmap_at(m, 2)->id, 0);
    assert_int_equal(lo->id, 7);    /* the daughters share the id given */
    assert_int_equal(hi->id, 7);
    assert_int_equal(key_compare(region_end(lo), S("e")), 0);
    assert_int_equal(key_compare(region_end(hi), S("m")), 0);
    assert_int_equal(regionmap_route(m, S("e")), 1);
    assert_int_equal(regionmap_route(m, S("d")), 0);
    /* The last region can split too. */
    assert_int_equal(regionmap_split(m, 2, keyref_of("\xff", 1), 7), 0);
    assert_int_equal(regionmap_route(m, keyref_of("\xff\0", 2)), 3);
    assert_tiling(m);
    regionmap_free(m);
}

static void test_routing_matches_brute_force_after_many_splits(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    uint64_t x = 7;
    uint8_t k[8];
    for (int i = 0; i < 3000; i++) {
        size_t len = random_key(&x, k);
        keyref key = keyref_of(k, len);
        size_t r = regionmap_route(m, key);
        assert_int_equal(r, route_brute_force(m, key));
        /* Split the region holding this key at the key when allowed. */
        if (i % 3 == 0)
            (void)regionmap_split(m, r, key, 7);
    }
    assert_true(regionmap_count(m) > 100);
    assert_tiling(m);
    for (int i = 0; i < 20000; i++) {
        size_t len = random_key(&x, k);
        keyref key = keyref_of(k, len);
        assert_int_equal(regionmap_route(m, key), route_brute_force(m, key));
        uint8_t k2[8];
        size_t len2 = random_key(&x, k2);
        keyref a = key, b = keyref_of(k2, len2);
        if (key_compare(a, b) > 0) {
            keyref t = a;
            a = b;
            b = t;
        }
        if (key_compare(a, b) == 0)
            continue;
        size_t first, last;
        regionmap_range(m, a, b, &first, &last);
        /* Brute force: regions overlapping [a, b). */
        for (size_t j = 0; j < regionmap_count(m); j++) {
            region *r = regionmap_at(m, j);
            int starts_before_b = key_compare(region_start(r), b) < 0;
            int ends_after_a = r->end_len == 0 || key_compare(region_end(r), a) > 0;
            int touched = starts_before_b && ends_after_a;
            assert_int_equal(touched, j >= first && j <= last);
        }
    }
    regionmap_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_region_takes_everything),
        cmocka_unit_test(test_presplit_validation),
        cmocka_unit_test(test_route_edges),
        cmocka_unit_test(test_range_edges),
        cmocka_unit_test(test_split_moves_rows_and_rejects_bad_points),
        cmocka_unit_test(test_routing_matches_brute_force_after_many_splits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
