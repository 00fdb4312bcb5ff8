/* test_split.c -- HBase's split policies and split restrictions.
 *
 * The policy tests port the expectations of HBase's TestRegionSplitPolicy
 * (max file size 1024, flush size 1024/8 = 128, the default jitter 0.25,
 * the busy policy's counters and timings); the restriction tests port
 * TestRegionSplitRestriction (prefix length 2, delimiter ','). Then the
 * refusals: middle row = first or last row, restricted point = region start
 * or outside the region.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/split.h"

static keyref S(const char *s) { return keyref_of(s, strlen(s)); }

static regionmap *one_region(void)
{
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    assert_non_null(m);
    return m;
}

/* TestRegionSplitPolicy's table: max 1024, flush 128, default jitter. */
static split_policy hbase_test_policy(split_kind kind)
{
    split_policy p;
    split_policy_defaults(&p, kind);
    p.max_bytes = 1024;
    p.flush_bytes = 1024 / 8;
    p.jitter_seed = 42;
    return p;
}

/* TestRegionSplitPolicy.assertWithinJitter. */
static void assert_within_jitter(uint64_t max, uint64_t size)
{
    assert_true((uint64_t)(max * 0.75) <= size);
    assert_true((uint64_t)(max * 1.25) >= size);
}

static void test_defaults_are_hbase(void **state)
{
    (void)state;
    split_policy p;
    split_policy_defaults(&p, SPLIT_STEPPING);
    assert_int_equal(p.kind, SPLIT_STEPPING);
    assert_true(p.max_bytes == 10ull * 1024 * 1024 * 1024);
    assert_int_equal(p.flush_bytes, 128u * 1024 * 1024);
    assert_true(p.jitter == 0.25);
    assert_true(p.busy_blocked_ratio == 0.2);
    assert_true(p.busy_min_age_us == 600000ull * 1000);
    assert_true(p.busy_window_us == 300000ull * 1000);
    assert_int_equal(p.restriction, RESTRICT_NONE);
    assert_int_equal(p.initial_bytes, 0);
}

/* doConstantSizePolicyTests: 2000 bytes split, 100 do not (max 1024). */
static void test_constant_size(void **state)
{
    (void)state;
    split_policy p = hbase_test_policy(SPLIT_CONSTANT);
    region r = { 0 };
    r.id = 7;
    assert_true(split_due(&p, &r, 2000, 1));
    assert_false(split_due(&p, &r, 100, 1));
    assert_false(split_due(&p, &r, 0, 1));
    /* The region count plays no part. */
    assert_true(split_due(&p, &r, 2000, 0));
    assert_true(split_due(&p, &r, 2000, 1000));
    /* Exactly at the desired size: not yet (store size > desired). */
    uint64_t d = split_desired_max(&p, &r);
    assert_false(split_due(&p, &r, d, 1));
    assert_true(split_due(&p, &r, d + 1, 1));
}

/* testCreateDefault: the desired size within the jitter of 1234 and 9999;
 * and the true bound: rate in [-jitter/2, +jitter/2). */
static void test_jitter_bounds_and_determinism(void **state)
{
    (void)state;
    const uint64_t maxes[] = { 1234, 9999, 10ull << 30 };
    for (size_t k = 0; k < 3; k++) {
        split_policy p = hbase_test_policy(SPLIT_CONSTANT);
        p.max_bytes = maxes[k];
        int below = 0, above = 0;
        for (uint64_t id = 0; id < 2000; id++) {
            region r = { 0 };
            r.id = id;
            uint64_t d = split_desired_max(&p, &r);
            assert_within_jitter(maxes[k], d);
            assert_true((double)d >= (double)maxes[k] * (1 - 0.125) - 1);
            assert_true((double)d < (double)maxes[k] * (1 + 0.125));
            below += d < maxes[k];
            above += d > maxes[k];
            assert_int_equal(d, split_desired_max(&p, &r)); /* same region, same draw */
        }
        assert_true(below > 800 && above > 800); /* uniform: both sides */
    }
    /* Same seed, same draws; another seed, other draws. */
    split_policy a = hbase_test_policy(SPLIT_CONSTANT), b = a;
    a.max_bytes = b.max_bytes = 1 << 30;
    b.jitter_seed = 43;
    int differ = 0;
    for (uint64_t id = 0; id < 100; id++) {
        region r = { 0 };
        r.id = id;
        differ += split_desired_max(&a, &r) != split_desired_max(&b, &r);
    }
    assert_true(differ > 90);
    /* Daughters share an id but not a start key: their draws differ. */
    size_t bad;
    keyref cut[] = { S("m") };
    regionmap *m = regionmap_new(cut, 1, &bad);
    region *lo = regionmap_at(m, 0), *hi = regionmap_at(m, 1);
    hi->id = lo->id;
    assert_true(split_desired_max(&a, lo) != split_desired_max(&a, hi));
    regionmap_free(m);
    /* Jitter 0: exactly the max. */
    a.jitter = 0;
    region r = { 0 };
    assert_int_equal(split_desired_max(&a, &r), 1 << 30);
}

/* testConstantSizePolicyWithJitter: a positive jitter on the largest max
 * size must not overflow (HBase clamps at Long.MAX_VALUE). */
static void test_jitter_does_not_overflow(void **state)
{
    (void)state;
    split_policy p = hbase_test_policy(SPLIT_CONSTANT);
    p.max_bytes = UINT64_MAX;
    region r = { 0 };
    while (split_desired_max(&p, &r) != UINT64_MAX) /* find a positive draw */
        r.id++;
    assert_false(split_due(&p, &r, 2000, 1));
    assert_false(split_due(&p, &r, UINT64_MAX, 1));
}

/* testIncreasingToUpperBoundRegionSplitPolicy. */
static void test_increasing_to_upper_bound(void **state)
{
    (void)state;
    split_policy p = hbase_test_policy(SPLIT_INCREASING);
    region r = { 0 };
    r.id = 3;
    /* No regions on the server: like the constant size policy. */
    assert_true(split_due(&p, &r, 2000, 0));
    assert_false(split_due(&p, &r, 100, 0));
    /* One region (itself): 2 x flush = 256. */
    assert_false(split_due(&p, &r, 128, 1));
    assert_true(split_due(&p, &r, 128 * 2 + 1, 1));
    assert_int_equal(split_size_to_check(&p, &r, 1), 256);
    /* Two: 256 * 8 = 2048 > max, so the jittered max. */
    assert_false(split_due(&p, &r, 128 * 2 + 1, 2));
    assert_true(split_due(&p, &r, (uint64_t)(1024 * 1.25 + 1), 2));
    /* Lots of regions, or none: the max size, within the jitter. */
    assert_within_jitter(1024, split_size_to_check(&p, &r, 1000));
    assert_within_jitter(1024, split_size_to_check(&p, &r, 0));
    assert_int_equal(split_size_to_check(&p, &r, 0), split_desired_max(&p, &r));

    /* The cube, with HBase's defaults (128 MiB flush, 10 GiB max, no
     * jitter): 256 MiB, 2 GiB, 6.75 GiB, then 10 GiB. */
    split_policy_defaults(&p, SPLIT_INCREASING);
    p.jitter = 0;
    const uint64_t mib = 1 << 20;
    assert_true(split_size_to_check(&p, &r, 1) == 256 * mib);
    assert_true(split_size_to_check(&p, &r, 2) == 2048 * mib);
    assert_true(split_size_to_check(&p, &r, 3) == 6912 * mib);
    assert_true(split_size_to_check(&p, &r, 4) == 10240 * mib);
    assert_true(split_size_to_check(&p, &r, 0) == 10240 * mib);
    /* n > 100: the max (HBase's overflow guard), even if the max is huge. */
    p.max_bytes = UINT64_MAX;
    assert_true(split_size_to_check(&p, &r, 100) == 256 * mib * 1000000);
    assert_true(split_size_to_check(&p, &r, 101) == UINT64_MAX);
    /* hbase.increasing.policy.initial.size replaces 2 x flush. */
    p.initial_bytes = 1000;
    assert_int_equal(split_size_to_check(&p, &r, 1), 1000);
    assert_int_equal(split_size_to_check(&p, &r, 2), 8000);
    assert_int_equal(split_size_to_check(&p, &r, 3), 27000);
}

/* SteppingSplitPolicy: the same steps as the increasing test, then the max
 * for any count but 1. */
static void test_stepping(void **state)
{
    (void)state;
    split_policy p = hbase_test_policy(SPLIT_STEPPING);
    region r = { 0 };
    r.id = 11;
    assert_true(split_due(&p, &r, 2000, 0));
    assert_false(split_due(&p, &r, 100, 0));
    assert_false(split_due(&p, &r, 128, 1));
    assert_true(split_due(&p, &r, 128 * 2 + 1, 1));
    assert_false(split_due(&p, &r, 128 * 2 + 1, 2));
    assert_true(split_due(&p, &r, (uint64_t)(1024 * 1.25 + 1), 2));
    assert_int_equal(split_size_to_check(&p, &r, 1), 256);
    for (uint64_t n = 2; n < 200; n += 7)
        assert_int_equal(split_size_to_check(&p, &r, n), split_desired_max(&p, &r));
    /* Unlike the increasing policy, 3 regions go straight to the max. */
    p.jitter = 0;
    p.max_bytes = 1 << 30;
    p.initial_bytes = 1000;
    assert_int_equal(split_size_to_check(&p, &r, 1), 1000);
    assert_int_equal(split_size_to_check(&p, &r, 3), 1 << 30);
}

/* The stepping policy caches a region's own size in next_split_check
 * (SPLIT_CHECK_UNLESS_ALONE) once it has looked with other regions on the
 * server: whatever the sequence of growing sizes and region counts after
 * that, split_due answers what the rule says (size > initial when alone,
 * > the jittered max otherwise), never skipping a write alone on its
 * server past the initial size. */
static void test_stepping_cache_is_exact(void **state)
{
    (void)state;
    split_policy p = hbase_test_policy(SPLIT_STEPPING);
    uint64_t seed = 7;
    int rounds_cached = 0;
    for (int round = 0; round < 200; round++) {
        region r = { 0 };
        r.id = (uint64_t)round;
        r.next_split_check = split_first_check(&p);
        uint64_t floor = r.next_split_check, desired = split_desired_max(&p, &r);
        int cached = 0;
        for (uint64_t bytes = 0; bytes < 1400; bytes += 1 + (seed >> 61)) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t n = (seed >> 33) % 4; /* 0 .. 3 regions on the server */
            int want = bytes >= floor && bytes > (n == 1 ? 256 : desired);
            assert_int_equal(split_due(&p, &r, bytes, n), want);
            cached |= (r.next_split_check & SPLIT_CHECK_UNLESS_ALONE) != 0;
        }
        rounds_cached += cached;
    }
    assert_true(rounds_cached > 150); /* the cache was there to skip */
    /* Alone past the initial size after caching: due. */
    region r = { 0 };
    r.id = 11;
    uint64_t desired = split_desired_max(&p, &r);
    assert_true(desired > 1024 * 7 / 8); /* above the floor: a look */
    assert_false(split_due(&p, &r, desired, 2));
    assert_true(r.next_split_check == ((desired + 1) | SPLIT_CHECK_UNLESS_ALONE));
    assert_false(split_due(&p, &r, desired, 3)); /* skipped: no hash */
    assert_true(split_due(&p, &r, desired, 1));
    assert_true(split_due(&p, &r, desired + 1, 3));
}

static void test_disabled_never(void **state)
{
    (void)state;
    split_policy p = hbase_test_policy(SPLIT_DISABLED);
    region r = { 0 };
    for (uint64_t n = 0; n < 5; n++) {
        assert_false(split_due(&p, &r, UINT64_MAX, n));
        assert_false(split_due(&p, &r, 2000, n));
    }
    split_busy_stats s;
    split_busy_start(&s, 0, 0, 0);
    assert_false(split_busy_due(&p, &s, 1ull << 40, 100, 100, NULL));
}

/* testBusyRegionSplitPolicy, in microseconds. */
static void test_busy(void **state)
{
    (void)state;
    const uint64_t ms = 1000;
    split_policy p = hbase_test_policy(SPLIT_BUSY);
    p.busy_min_age_us = 1000000 * ms;
    p.busy_blocked_ratio = 0.1;
    split_busy_stats s;
    split_busy_start(&s, 0, 0, 0);
    /* Not enough time since the region came online. */
    assert_false(split_busy_due(&p, &s, 10 * ms, 10, 10, NULL));

    /* min age 0, 500 ms windows, started with counters 10/10. */
    p.busy_min_age_us = 0;
    p.busy_window_us = 500 * ms;
    split_busy_start(&s, 0, 10, 10);
    assert_false(split_busy_due(&p, &s, 300 * ms, 20, 10, NULL));
    /* 2 blocked of 10 since, but within the first window: rate 0. */
    assert_false(split_busy_due(&p, &s, 302 * ms, 30, 12, NULL));
    /* A full window: 4 blocked / 30 writes = 0.133 >= 0.1. */
    assert_true(split_busy_due(&p, &s, 502 * ms, 40, 14, NULL));
    assert_true(s.blocked_rate > 0.133 && s.blocked_rate < 0.134);

    /* Half a window on, no blocked writes: 0.5 * 0.133 + 0.5 * 0 < 0.1. */
    split_busy_stats t = s;
    double rate = split_busy_rate(&p, &t, 752 * ms, 50, 14);
    assert_true(rate > 0.0666 && rate < 0.0667);
    assert_false(split_busy_due(&p, &s, 752 * ms, 50, 14, NULL));
    /* ...but all blocked since: 0.5 * 0.133 + 0.5 * 1.0 >= 0.1. */
    assert_true(split_busy_due(&p, &s, 752 * ms, 50, 24, NULL));

    /* The busy policy splits on size too, like the increasing one. */
    region r = { 0 };
    assert_true(split_due(&p, &r, 128 * 2 + 1, 1));
    assert_false(split_due(&p, &r, 128 * 2 + 1, 2));
    /* Other policies never split for being busy. */
    p.kind = SPLIT_INCREASING;
    assert_false(split_busy_due(&p, &s, 2000 * ms, 1000, 1000, NULL));
}

/* Out-of-range settings fall back to HBase's defaults (0.2, 300 s). */
static void test_busy_invalid_settings(void **state)
{
    (void)state;
    const uint64_t s_us = 1000000;
    split_policy p = hbase_test_policy(SPLIT_BUSY);
    p.busy_min_age_us = 0;
    p.busy_blocked_ratio = 0; /* too low: 0.2 */
    p.busy_window_us = 0;     /* too low: 300 s */
    split_busy_stats s;
    split_busy_start(&s, 0, 0, 0);
    assert_false(split_busy_due(&p, &s, 299 * s_us, 100, 100, NULL)); /* first window */
    /* 20 / (100 + 0.00001) is just under 0.2: HBase's denominator guard. */
    assert_false(split_busy_due(&p, &s, 300 * s_us, 100, 20, NULL));
    split_busy_start(&s, 0, 0, 0);
    assert_true(split_busy_due(&p, &s, 300 * s_us, 100, 21, NULL));   /* 0.21 >= 0.2 */
    p.busy_blocked_ratio = 1.0; /* too high: 0.2 */
    split_busy_start(&s, 0, 0, 0);
    assert_true(split_busy_due(&p, &s, 300 * s_us, 100, 21, NULL));
    split_busy_start(&s, 0, 0, 0);
    assert_false(split_busy_due(&p, &s, 300 * s_us, 100, 19, NULL));
}

/* A region whose middle row by size is `mid`: small rows around it. */
static void put_around(region *r, const char *before, const char *mid, const char *after)
{
    assert_int_equal(store_put(r->rows, S(before), 10), 0);
    assert_int_equal(store_put(r->rows, S(mid), 100), 0);
    assert_int_equal(store_put(r->rows, S(after), 10), 0);
}

static int decide_on(const split_policy *p, const char *before, const char *mid,
                     const char *after, char *out, size_t cap)
{
    regionmap *m = one_region();
    region *r = regionmap_at(m, 0);
    put_around(r, before, mid, after);
    keyref at;
    uint8_t buf[64];
    int ok = split_decide(p, r, &at, buf, sizeof buf);
    if (ok) {
        assert_ptr_equal(at.data, buf); /* copied: outlives the store */
        assert_true(at.len < cap);
        memcpy(out, at.data, at.len);
        out[at.len] = '\0';
    }
    regionmap_free(m);
    return ok;
}

/* TestRegionSplitRestriction and TestRegionSplitPolicy.testCustomPolicy /
 * testDelimitedKeyPrefixRegionSplitPolicy. */
static void test_restriction_points(void **state)
{
    (void)state;
    char out[64];
    split_policy p = hbase_test_policy(SPLIT_CONSTANT);
    /* None: "abcd" stays "abcd". */
    assert_true(decide_on(&p, "a", "abcd", "b", out, sizeof out));
    assert_string_equal(out, "abcd");
    /* KeyPrefix, length 2: "abcd" -> "ab", "a" -> "a". */
    p.restriction = RESTRICT_KEY_PREFIX;
    p.prefix_len = 2;
    assert_true(decide_on(&p, "a", "abcd", "b", out, sizeof out));
    assert_string_equal(out, "ab");
    assert_true(decide_on(&p, "0", "a", "b", out, sizeof out));
    assert_string_equal(out, "a");
    /* A prefix length of 0 restricts nothing (HBase: <= 0, no restriction). */
    p.prefix_len = 0;
    assert_true(decide_on(&p, "a", "abcd", "b", out, sizeof out));
    assert_string_equal(out, "abcd");
    /* DelimitedKeyPrefix ',': "ab,cd" -> "ab", "efg,h" -> "efg", "ijk" stays. */
    p.restriction = RESTRICT_DELIMITED;
    p.delimiter = ',';
    assert_true(decide_on(&p, "a", "ab,cd", "b", out, sizeof out));
    assert_string_equal(out, "ab");
    assert_true(decide_on(&p, "e", "efg,h", "f", out, sizeof out));
    assert_string_equal(out, "efg");
    assert_true(decide_on(&p, "i", "ijk", "j", out, sizeof out));
    assert_string_equal(out, "ijk");
    /* Only the first delimiter counts. */
    assert_true(decide_on(&p, "a", "u1,m,x", "z", out, sizeof out));
    assert_string_equal(out, "u1");
}

/* The restricted point is refused when it equals the region's start, lies
 * before it, or is empty; the policy then looks again later. */
static void test_restriction_refusals(void **state)
{
    (void)state;
    size_t bad;
    keyref at;
    split_policy p = hbase_test_policy(SPLIT_CONSTANT);
    p.restriction = RESTRICT_KEY_PREFIX;
    p.prefix_len = 2;

    /* Region ["ab", +inf): middle "abc" -> "ab" = the start key. */
    keyref cut[] = { S("ab") };
    regionmap *m = regionmap_new(cut, 1, &bad);
    region *r = regionmap_at(m, 1);
    put_around(r, "ab1", "abc", "ac");
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0);
    assert_int_equal(r->next_split_check, 120 + 128); /* another flush */
    assert_false(split_due(&p, r, 120 + 127, 1));
    regionmap_free(m);

    /* Region ["abc", +inf): middle "abd" -> "ab" < start: outside. */
    keyref cut2[] = { S("abc") };
    m = regionmap_new(cut2, 1, &bad);
    r = regionmap_at(m, 1);
    put_around(r, "abc1", "abd", "abz");
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0);
    /* Without the restriction the same region splits at "abd". */
    split_policy plain = hbase_test_policy(SPLIT_CONSTANT);
    assert_int_equal(split_decide(&plain, r, &at, NULL, 0), 1);
    assert_int_equal(key_compare(at, S("abd")), 0);
    regionmap_free(m);

    /* Delimited: region ["u1,", +inf), middle "u1,b" -> "u1" < start. */
    p.restriction = RESTRICT_DELIMITED;
    p.delimiter = ',';
    keyref cut3[] = { S("u1,") };
    m = regionmap_new(cut3, 1, &bad);
    r = regionmap_at(m, 1);
    put_around(r, "u1,a", "u1,b", "u1,c");
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0);
    regionmap_free(m);

    /* A delimiter first: the empty point is refused. */
    char out[8];
    assert_false(decide_on(&p, "+", ",x", "a", out, sizeof out));

    /* A restricted point inside the region is accepted even when it is not
     * a stored row: region ["a", "m"), middle "cat,1" -> "cat". */
    keyref cut4[] = { S("a"), S("m") };
    m = regionmap_new(cut4, 2, &bad);
    r = regionmap_at(m, 1);
    put_around(r, "b", "cat,1", "d");
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 1);
    assert_int_equal(key_compare(at, S("cat")), 0);
    assert_int_equal(regionmap_split(m, 1, at, 7), 0);
    regionmap_free(m);
}

static void test_split_point_is_middle_by_size(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_SIZE, .max_bytes = 100 };
    regionmap *m = one_region();
    region *r = regionmap_at(m, 0);
    /* a=10 b=10 c=100 d=10 e=10: byte 70 of 140 lies in c. */
    const char *rows[] = { "a", "b", "c", "d", "e" };
    const uint32_t sizes[] = { 10, 10, 100, 10, 10 };
    for (int i = 0; i < 5; i++)
        assert_int_equal(store_put(r->rows, S(rows[i]), sizes[i]), 0);
    keyref at;
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 1);
    assert_int_equal(key_compare(at, S("c")), 0);
    /* A buffer too small: the point stays in the store. */
    uint8_t none[1];
    assert_int_equal(split_decide(&p, r, &at, none, 0), 1);
    assert_ptr_not_equal(at.data, none);
    assert_int_equal(key_compare(at, S("c")), 0);
    regionmap_free(m);
}

static void test_refuses_when_middle_is_first_or_last_row(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_SIZE, .max_bytes = 800 }; /* no flush size: look again after max/8 */
    regionmap *m = one_region();
    region *r = regionmap_at(m, 0);
    /* One huge first row: the middle is the first row, no split. */
    assert_int_equal(store_put(r->rows, S("a"), 1000), 0);
    assert_int_equal(store_put(r->rows, S("b"), 10), 0);
    assert_true(split_due(&p, r, 1010, 1));
    keyref at;
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0);
    /* The policy looks again only after another max/8 bytes. */
    assert_int_equal(r->next_split_check, 1010 + 100);
    assert_false(split_due(&p, r, 1050, 1));
    assert_true(split_due(&p, r, 1110, 1));
    /* With a flush size, after another flush. */
    p.flush_bytes = 64;
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0);
    assert_int_equal(r->next_split_check, 1010 + 64);
    regionmap_free(m);

    m = one_region();
    r = regionmap_at(m, 0);
    assert_int_equal(store_put(r->rows, S("a"), 10), 0);
    assert_int_equal(store_put(r->rows, S("z"), 1000), 0);
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0); /* middle = last row */
    regionmap_free(m);

    m = one_region();
    r = regionmap_at(m, 0);
    assert_int_equal(store_put(r->rows, S("only"), 5000), 0); /* a single hot row */
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0);
    regionmap_free(m);

    m = one_region(); /* an empty store */
    r = regionmap_at(m, 0);
    assert_int_equal(split_decide(&p, r, &at, NULL, 0), 0);
    regionmap_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_hbase),
        cmocka_unit_test(test_constant_size),
        cmocka_unit_test(test_jitter_bounds_and_determinism),
        cmocka_unit_test(test_jitter_does_not_overflow),
        cmocka_unit_test(test_increasing_to_upper_bound),
        cmocka_unit_test(test_stepping),
        cmocka_unit_test(test_disabled_never),
        cmocka_unit_test(test_busy),
        cmocka_unit_test(test_busy_invalid_settings),
        cmocka_unit_test(test_stepping_cache_is_exact),
        cmocka_unit_test(test_restriction_points),
        cmocka_unit_test(test_restriction_refusals),
        cmocka_unit_test(test_split_point_is_middle_by_size),
        cmocka_unit_test(test_refuses_when_middle_is_first_or_last_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
