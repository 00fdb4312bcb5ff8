/* test_balancer.c -- region-count balancing: within floor/ceil, oldest first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/balancer.h"

static cluster *cluster_with_regions_on_rs0(uint32_t servers, size_t regions)
{
    keyref splits[256];
    uint8_t bytes[256][2];
    for (size_t i = 1; i < regions; i++) {
        bytes[i][0] = (uint8_t)(i >> 8);
        bytes[i][1] = (uint8_t)i;
        splits[i - 1] = keyref_of(bytes[i], 2);
    }
    split_policy p = { SPLIT_DISABLED, 0 };
    size_t bad;
    cluster *c = cluster_new(servers, splits, regions - 1, p, &bad);
    assert_non_null(c);
    for (size_t i = 0; i < regions; i++)
        cluster_move(c, i, 0);
    c->moves = 0;
    return c;
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

static void test_none_moves_nothing(void **state)
{
    (void)state;
    cluster *c = cluster_with_regions_on_rs0(4, 20);
    assert_int_equal(balancer_run(BALANCER_NONE, c), 0);
    assert_int_equal(c->servers[0].regions, 20);
    cluster_free(c);
}

static void test_all_on_one_server_spread_evenly(void **state)
{
    (void)state;
    for (uint32_t servers = 1; servers <= 9; servers++) {
        for (size_t regions = 1; regions <= 40; regions += 3) {
            cluster *c = cluster_with_regions_on_rs0(servers, regions);
            int64_t moved = balancer_run(BALANCER_REGION_COUNT, c);
            assert_balanced(c);
            /* Minimal: exactly the surplus of rs0 moves. */
            uint64_t ceil_avg = (regions + servers - 1) / servers;
            assert_int_equal(moved, regions - ceil_avg);
            /* A second pass finds nothing to do. */
            assert_int_equal(balancer_run(BALANCER_REGION_COUNT, c), 0);
            cluster_free(c);
        }
    }
}

static void test_oldest_regions_move_first(void **state)
{
    (void)state;
    cluster *c = cluster_with_regions_on_rs0(2, 4);
    /* Make region 3 the oldest by giving it the smallest id. */
    for (size_t i = 0; i < 4; i++)
        regionmap_at(c->map, i)->id = 10 + (3 - i);
    /* No empty-server alternation here: give rs1 a region first. */
    cluster_move(c, 2, 1);
    assert_int_equal(balancer_run(BALANCER_REGION_COUNT, c), 1);
    assert_int_equal(regionmap_at(c->map, 3)->server, 1); /* the oldest moved */
    assert_int_equal(regionmap_at(c->map, 0)->server, 0); /* the newest stayed */
    cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_none_moves_nothing),
        cmocka_unit_test(test_all_on_one_server_spread_evenly),
        cmocka_unit_test(test_oldest_regions_move_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
