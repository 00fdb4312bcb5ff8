/* test_balancer.c -- HBase's stochastic balancer (the simple one: test_balancer_simple.c).
 *
 * Expected cost values are HBase's (TestDoubleArrayCost, testSkewCost) or
 * worked by hand from DoubleArrayCost's formulas: cost = (sqrt(dev) - min)
 * / (max - min), dev = sum (mean - x)^2, min = sqrt of the deviation with
 * every server within one unit of the mean, max = sqrt((total - mean)^2 +
 * (n - 1) mean^2).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/balancer.h"

/* splitmix64: the tests' seeded random source. */
static uint64_t test_random(void *ctx)
{
    uint64_t *state = ctx;
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint32_t test_below(void *ctx, uint32_t n)
{
    return (uint32_t)(test_random(ctx) % n);
}

static double test_unit(void *ctx)
{
    return (double)(test_random(ctx) >> 11) * (1.0 / 9007199254740992.0);
}

static balancer_config config(balancer_kind kind, uint64_t *seed)
{
    balancer_config cfg;
    balancer_defaults(&cfg, kind);
    cfg.random = (balancer_random){ test_below, test_unit, seed };
    return cfg;
}

/* One balancer run of a fresh balancer of cfg over c. */
static int64_t run_once(const balancer_config *cfg, cluster *c)
{
    balancer *b = balancer_new(cfg);
    assert_non_null(b);
    balancer_report report;
    int64_t moved = balancer_run(b, c, &report);
    assert_true(moved < 0 || report.moves == (uint64_t)moved);
    balancer_free(b);
    return moved;
}

/* Region i starts at the 2-byte key (i >> 8, i & 255); region 0 is below. */
static keyref region_key(uint8_t bytes[2], size_t i)
{
    bytes[0] = (uint8_t)(i >> 8);
    bytes[1] = (uint8_t)i;
    return keyref_of(bytes, 2);
}

/* `regions` regions, counts[s] of them on server s in index order (or all
 * on server 0 when counts is NULL); moves reset to 0. */
static cluster *cluster_with(uint32_t servers, size_t regions, const uint64_t *counts)
{
    keyref splits[256];
    uint8_t bytes[256][2];
    assert_true(regions <= 256);
    for (size_t i = 1; i < regions; i++)
        splits[i - 1] = region_key(bytes[i], i);
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    cluster *c = cluster_new(servers, splits, regions - 1, p, &bad);
    assert_non_null(c);
    size_t i = 0;
    for (uint32_t s = 0; counts && s < servers; s++)
        for (uint64_t k = 0; k < counts[s]; k++)
            cluster_move(c, i++, s);
    assert_true(!counts || i == regions);
    for (; i < regions; i++)
        cluster_move(c, i, 0);
    c->moves = 0;
    return c;
}

static cluster *cluster_with_regions_on_rs0(uint32_t servers, size_t regions)
{
    return cluster_with(servers, regions, NULL);
}

static void assert_balanced(const cluster *c)
{
    size_t n = regionmap_count(c->map);
    uint64_t lo = n / c->nservers, hi = lo + (n % c->nservers != 0);
    uint64_t total = 0;
    for (uint32_t s = 0; s < c->nservers; s++) {
        assert_true(c->servers[s].regions >= lo);
        assert_true(c->servers[s].regions <= hi);
        total += c->servers[s].regions;
    }
    assert_int_equal(total, n);
    /* The incremental counts agree with the regions' own assignment. */
    for (uint32_t s = 0; s < c->nservers; s++) {
        uint64_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += regionmap_get(c->map, i)->server == s;
        assert_int_equal(count, c->servers[s].regions);
    }
}

static uint64_t server_writes(const cluster *c, uint32_t s)
{
    uint64_t w = 0;
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        if (regionmap_get(c->map, i)->server == s)
            w += regionmap_get(c->map, i)->recent_writes;
    return w;
}

/* ---- defaults -------------------------------------------------------- */

static void test_defaults_are_hbase(void **state)
{
    (void)state;
    balancer_config cfg;
    balancer_defaults(&cfg, BALANCER_STOCHASTIC);
    assert_int_equal(cfg.kind, BALANCER_STOCHASTIC);
    assert_float_equal(cfg.slop, 0.2, 0);
    assert_int_equal(cfg.stochastic.max_steps, 1000000);
    assert_int_equal(cfg.stochastic.steps_per_region, 800);
    assert_float_equal(cfg.stochastic.min_cost_need_balance, 0.025, 0);
    assert_float_equal(cfg.stochastic.region_count_cost, 500, 0);
    assert_float_equal(cfg.stochastic.move_cost, 7, 0);
    assert_float_equal(cfg.stochastic.read_request_cost, 5, 0);
    assert_float_equal(cfg.stochastic.write_request_cost, 5, 0);
    assert_float_equal(cfg.stochastic.storefile_size_cost, 5, 0);
    assert_null(cfg.random.below);
    assert_null(cfg.random.unit);
}

/* ---- DoubleArrayCost ------------------------------------------------- */

static void test_array_cost_hbase_values(void **state)
{
    (void)state;
    double v[200];
    /* TestDoubleArrayCost.testComputeCost, with its tolerance 0.01. */
    for (int i = 0; i < 100; i++)
        v[i] = 10;
    assert_float_equal(balancer_array_cost(v, 100), 0, 0.01);
    for (int i = 0; i < 100; i++)
        v[i] = 0;
    v[100] = 100;
    assert_float_equal(balancer_array_cost(v, 101), 1, 0.01);
    for (int i = 0; i < 100; i++) {
        v[i] = 0;
        v[i + 100] = 100;
    }
    assert_float_equal(balancer_array_cost(v, 200), 0.0708, 0.01);
    /* By hand: dev = 200 * 50^2, min 0, max = sqrt(9950^2 + 199 * 50^2). */
    assert_float_equal(balancer_array_cost(v, 200),
                       sqrt(200 * 2500.0) / sqrt(9950.0 * 9950 + 199 * 2500.0), 1e-12);

    /* TestStochasticLoadBalancer.testSkewCost. */
    const double skew[][5] = { { 0, 0, 0, 0, 1 }, { 0, 0, 0, 1, 1 }, { 0, 0, 1, 1, 1 },
                               { 0, 1, 1, 1, 1 }, { 1, 1, 1, 1, 1 } };
    for (size_t k = 0; k < 5; k++)
        assert_float_equal(balancer_array_cost(skew[k], 5), 0, 0.01);
    const double worst[5] = { 10000, 0, 0, 0, 0 };
    assert_float_equal(balancer_array_cost(worst, 5), 1, 0.01);
    assert_float_equal(balancer_array_cost(NULL, 0), 0, 0);
}

static void test_array_cost_by_hand(void **state)
{
    (void)state;
    /* [3,1,0]: mean 4/3; dev 42/9; min: one server at 2, two at 1 -> 6/9;
     * max (8/3)^2 + 2 (4/3)^2 = 96/9. The 1/3 cancels. */
    const double a[] = { 3, 1, 0 };
    double want_a = (sqrt(42.0) - sqrt(6.0)) / (sqrt(96.0) - sqrt(6.0));
    assert_float_equal(balancer_array_cost(a, 3), want_a, 1e-12);
    assert_float_equal(want_a, 0.54858, 1e-5);
    /* [4,2,0]: mean 2, dev 8, min 0 (2 divides evenly), max 16 + 2*4 = 24. */
    const double b[] = { 4, 2, 0 };
    assert_float_equal(balancer_array_cost(b, 3), sqrt(8.0 / 24.0), 1e-12);
    /* Fewer units than servers: [1,0,0,0] is already the best. */
    const double c[] = { 1, 0, 0, 0 };
    assert_float_equal(balancer_array_cost(c, 4), 0, 0);
    /* [6,2,0,0]: mean 2, dev 16+0+4+4 = 24, min 0, max 36 + 3*4 = 48. */
    const double d[] = { 6, 2, 0, 0 };
    assert_float_equal(balancer_array_cost(d, 4), sqrt(24.0 / 48.0), 1e-12);
}

/* ---- the stochastic cost of a cluster -------------------------------- */

static void test_total_cost_of_hand_cluster(void **state)
{
    (void)state;
    uint64_t seed = 1;
    const uint64_t counts[] = { 3, 1, 0 };
    cluster *c = cluster_with(3, 4, counts);
    /* Regions 0-2 on rs0, region 3 on rs1. Writes per server [4,2,0],
     * reads per server [0,0,0]. */
    regionmap_at(c->map, 0)->recent_writes = 1;
    regionmap_at(c->map, 2)->recent_writes = 3;
    regionmap_at(c->map, 3)->recent_writes = 2;
    balancer_config cfg = config(BALANCER_STOCHASTIC, &seed);
    double count_cost = (sqrt(42.0) - sqrt(6.0)) / (sqrt(96.0) - sqrt(6.0));
    double write_cost = sqrt(8.0 / 24.0);
    assert_float_equal(balancer_total_cost(&cfg, c), 500 * count_cost + 5 * write_cost, 1e-9);

    /* Each function alone, by its multiplier. */
    balancer_config only = cfg;
    only.stochastic.region_count_cost = only.stochastic.move_cost = only.stochastic.read_request_cost = 0;
    only.stochastic.storefile_size_cost = 0;
    only.stochastic.write_request_cost = 1;
    assert_float_equal(balancer_total_cost(&only, c), write_cost, 1e-12);
    only.stochastic.write_request_cost = 0;
    only.stochastic.read_request_cost = 1;
    regionmap_at(c->map, 3)->recent_reads = 7;   /* reads [0,7,0] */
    assert_float_equal(balancer_total_cost(&only, c), 1, 1e-12);

    /* Store file size in MB from the cells stored: [2 MB, 0, 1 MB]. */
    only.stochastic.read_request_cost = 0;
    only.stochastic.storefile_size_cost = 1;
    cluster_move(c, 3, 2);
    uint8_t kb[2];
    uint32_t srv;
    uint64_t reply;
    assert_int_equal(cluster_write(c, region_key(kb, 1), 1u << 20, 1, &srv, &reply), 0);
    assert_int_equal(cluster_write(c, region_key(kb, 2), 1u << 20, 1, &srv, &reply), 0);
    assert_int_equal(cluster_write(c, region_key(kb, 3), 1u << 20, 1, &srv, &reply), 0);
    /* mean 1: dev 1+1+0 = 2; min 0; max 4 + 2 = 6. */
    assert_float_equal(balancer_total_cost(&only, c), sqrt(2.0 / 6.0), 1e-12);
    cluster_free(c);
}

/* ---- stochastic ------------------------------------------------------ */

static void test_stochastic_leaves_balanced_cluster(void **state)
{
    (void)state;
    uint64_t seed = 7;
    balancer_config cfg = config(BALANCER_STOCHASTIC, &seed);
    const uint64_t even[4] = { 2, 2, 2, 2 };
    cluster *c = cluster_with(4, 8, even);
    assert_float_equal(balancer_total_cost(&cfg, c), 0, 0);
    assert_int_equal(run_once(&cfg, c), 0);
    cluster_free(c);
    /* Below minCostNeedBalance: one hot region, default write multiplier:
     * 5 * 1 / 522 < 0.025, and the counts are even. */
    c = cluster_with(4, 8, even);
    regionmap_at(c->map, 0)->recent_writes = 1000;
    regionmap_at(c->map, 1)->recent_writes = 1000;
    assert_int_equal(run_once(&cfg, c), 0);
    cluster_free(c);
    /* One server: nothing to balance (MIN_SERVER_BALANCE = 2). */
    c = cluster_with_regions_on_rs0(1, 10);
    assert_int_equal(run_once(&cfg, c), 0);
    cluster_free(c);
}

static void test_stochastic_spreads_all_on_one(void **state)
{
    (void)state;
    uint64_t seed = 42;
    balancer_config cfg = config(BALANCER_STOCHASTIC, &seed);
    cluster *c = cluster_with_regions_on_rs0(4, 20);
    double before = balancer_total_cost(&cfg, c);
    assert_float_equal(before, 500, 1e-9);   /* region count skew at its worst */
    int64_t moved = run_once(&cfg, c);
    assert_true(moved >= 15);
    assert_int_equal((uint64_t)moved, c->moves);
    assert_balanced(c);
    assert_float_equal(balancer_total_cost(&cfg, c), 0, 1e-12);
    /* Moved regions are offline for the move pause. */
    cluster_free(c);
}

static void test_stochastic_move_cost_can_forbid_moves(void **state)
{
    (void)state;
    uint64_t seed = 3;
    balancer_config cfg = config(BALANCER_STOCHASTIC, &seed);
    cfg.stochastic.move_cost = 1e9;   /* one move of 20 costs 5e7 > 500 */
    cluster *c = cluster_with_regions_on_rs0(4, 20);
    assert_int_equal(run_once(&cfg, c), 0);
    assert_int_equal(c->servers[0].regions, 20);
    cluster_free(c);
}

static void test_stochastic_never_increases_cost(void **state)
{
    (void)state;
    uint64_t gen = 99;
    for (int trial = 0; trial < 40; trial++) {
        uint32_t servers = 2 + (uint32_t)(test_random(&gen) % 6);
        size_t regions = 1 + (size_t)(test_random(&gen) % 40);
        cluster *c = cluster_with_regions_on_rs0(servers, regions);
        for (size_t i = 0; i < regions; i++) {
            region *r = regionmap_at(c->map, i);
            cluster_move(c, i, (uint32_t)(test_random(&gen) % servers));
            r->recent_writes = test_random(&gen) % 1000;
            r->recent_reads = test_random(&gen) % 100;
        }
        uint64_t seed = (uint64_t)trial;
        balancer_config cfg = config(BALANCER_STOCHASTIC, &seed);
        cfg.stochastic.write_request_cost = (double)(test_random(&gen) % 1000);
        cfg.stochastic.max_steps = 20000;
        double before = balancer_total_cost(&cfg, c);
        int64_t moved = run_once(&cfg, c);
        assert_true(moved >= 0);
        double after = balancer_total_cost(&cfg, c);
        assert_true(after <= before);
        if (moved > 0)
            assert_true(after < before);
        cluster_free(c);
    }
}

static void test_stochastic_is_deterministic(void **state)
{
    (void)state;
    cluster *a = cluster_with_regions_on_rs0(5, 37);
    cluster *b = cluster_with_regions_on_rs0(5, 37);
    for (size_t i = 0; i < 37; i++) {
        regionmap_at(a->map, i)->recent_writes = (i * 7919) % 101;
        regionmap_at(b->map, i)->recent_writes = (i * 7919) % 101;
    }
    uint64_t seed_a = 2024, seed_b = 2024;
    balancer_config ca = config(BALANCER_STOCHASTIC, &seed_a);
    balancer_config cb = config(BALANCER_STOCHASTIC, &seed_b);
    int64_t ma = run_once(&ca, a), mb = run_once(&cb, b);
    assert_true(ma > 0);
    assert_int_equal(ma, mb);
    for (size_t i = 0; i < 37; i++)
        assert_int_equal(regionmap_get(a->map, i)->server, regionmap_get(b->map, i)->server);
    assert_int_equal(seed_a, seed_b);   /* the same draws were made */
    cluster_free(a);
    cluster_free(b);
}

static void test_stochastic_hot_server_sheds_writes(void **state)
{
    (void)state;
    uint64_t seed = 5;
    balancer_config cfg = config(BALANCER_STOCHASTIC, &seed);
    cfg.stochastic.write_request_cost = 1000;   /* write skew dominates */
    const uint64_t even[4] = { 2, 2, 2, 2 };
    cluster *c = cluster_with(4, 8, even);
    /* Both regions of rs0 are hot. */
    regionmap_at(c->map, 0)->recent_writes = 1000;
    regionmap_at(c->map, 1)->recent_writes = 1000;
    assert_int_equal(server_writes(c, 0), 2000);
    int64_t moved = run_once(&cfg, c);
    assert_true(moved > 0);
    /* The hot regions now sit on different servers. */
    assert_int_not_equal(regionmap_get(c->map, 0)->server, regionmap_get(c->map, 1)->server);
    for (uint32_t s = 0; s < 4; s++)
        assert_true(server_writes(c, s) <= 1000);
    assert_balanced(c);
    cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_hbase),
        cmocka_unit_test(test_array_cost_hbase_values),
        cmocka_unit_test(test_array_cost_by_hand),
        cmocka_unit_test(test_total_cost_of_hand_cluster),
        cmocka_unit_test(test_stochastic_leaves_balanced_cluster),
        cmocka_unit_test(test_stochastic_spreads_all_on_one),
        cmocka_unit_test(test_stochastic_move_cost_can_forbid_moves),
        cmocka_unit_test(test_stochastic_never_increases_cost),
        cmocka_unit_test(test_stochastic_is_deterministic),
        cmocka_unit_test(test_stochastic_hot_server_sheds_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
