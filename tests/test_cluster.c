/* test_cluster.c -- round-robin assignment, the write path, splits, moves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/cluster.h"

static keyref S(const char *s) { return keyref_of(s, strlen(s)); }

static void test_presplit_round_robin(void **state)
{
    (void)state;
    keyref splits[] = { S("b"), S("c"), S("d"), S("e") };
    split_policy p = { SPLIT_DISABLED, 0 };
    size_t bad;
    cluster *c = cluster_new(3, splits, 4, p, &bad);
    assert_non_null(c);
    /* 5 regions on 3 servers: rs0 rs1 rs2 rs0 rs1. */
    const uint32_t want[] = { 0, 1, 2, 0, 1 };
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(regionmap_at(c->map, i)->server, want[i]);
    assert_int_equal(c->servers[0].regions, 2);
    assert_int_equal(c->servers[1].regions, 2);
    assert_int_equal(c->servers[2].regions, 1);
    cluster_free(c);

    keyref bad_splits[] = { S("b"), S("a") };
    assert_null(cluster_new(3, bad_splits, 2, p, &bad));
    assert_int_equal(bad, 1);
}

static void test_write_routes_and_counts(void **state)
{
    (void)state;
    keyref splits[] = { S("m") };
    split_policy p = { SPLIT_DISABLED, 0 };
    size_t bad, ri;
    uint32_t s;
    cluster *c = cluster_new(2, splits, 1, p, &bad);
    assert_int_equal(cluster_write(c, S("a"), 30, &ri, &s), 0);
    assert_int_equal(ri, 0);
    assert_int_equal(s, 0);
    assert_int_equal(cluster_write(c, S("x"), 40, &ri, &s), 0);
    assert_int_equal(cluster_write(c, S("x"), 40, &ri, &s), 0);
    assert_int_equal(ri, 1);
    assert_int_equal(s, 1);
    assert_int_equal(c->servers[0].writes, 1);
    assert_int_equal(c->servers[1].writes, 2);
    assert_int_equal(c->servers[1].bytes, 80);
    assert_int_equal(cluster_rows(c), 2); /* "x" twice is one row */
    assert_int_equal(cluster_bytes(c), 110);
    cluster_free(c);
}

static void test_ascending_writes_split_and_daughters_stay(void **state)
{
    (void)state;
    split_policy p = { SPLIT_SIZE, 10000 };
    size_t bad, ri;
    uint32_t s;
    cluster *c = cluster_new(4, NULL, 0, p, &bad);
    char k[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 50, &ri, &s), 0);
        assert_int_equal(s, 0); /* no balancer: everything stays on rs0 */
    }
    /* 250 KB through 10 KB regions: ~2 splits per 10 KB of ascending keys. */
    assert_true(c->splits >= 20);
    assert_int_equal(regionmap_count(c->map), c->splits + 1);
    assert_int_equal(c->servers[0].regions, regionmap_count(c->map));
    for (size_t i = 0; i < regionmap_count(c->map); i++)
        assert_true(store_bytes(regionmap_at(c->map, i)->rows) <= 10000 + 50);
    assert_int_equal(cluster_rows(c), 5000);
    assert_int_equal(cluster_bytes(c), 5000 * 50);
    cluster_free(c);
}

static void test_move_updates_counts(void **state)
{
    (void)state;
    keyref splits[] = { S("m") };
    split_policy p = { SPLIT_DISABLED, 0 };
    size_t bad, ri;
    uint32_t s;
    cluster *c = cluster_new(3, splits, 1, p, &bad);
    cluster_move(c, 1, 2);
    assert_int_equal(c->moves, 1);
    cluster_move(c, 1, 2); /* already there: not a move */
    assert_int_equal(c->moves, 1);
    assert_int_equal(c->servers[1].regions, 0);
    assert_int_equal(c->servers[2].regions, 1);
    assert_int_equal(cluster_write(c, S("z"), 10, &ri, &s), 0);
    assert_int_equal(s, 2);
    cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presplit_round_robin),
        cmocka_unit_test(test_write_routes_and_counts),
        cmocka_unit_test(test_ascending_writes_split_and_daughters_stay),
        cmocka_unit_test(test_move_updates_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
