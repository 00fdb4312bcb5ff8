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
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
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
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(2, splits, 1, p, &bad);
    assert_int_equal(cluster_write(c, S("a"), 30, 0, &s, &done), 0);
    assert_int_equal(s, 0);
    assert_int_equal(cluster_write(c, S("x"), 40, 0, &s, &done), 0);
    assert_int_equal(cluster_write(c, S("x"), 40, 0, &s, &done), 0);
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
    split_policy p = { .kind = SPLIT_SIZE, .max_bytes = 10000 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(4, NULL, 0, p, &bad);
    char k[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 50, 0, &s, &done), 0);
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

/* HBase looks at the split policy after a memstore flush
 * (MemStoreFlusher.flushRegion), not after every write: a region over its
 * size splits at the write that fills its memstore past the flush size. */
static void test_split_waits_for_the_flush(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_CONSTANT, .max_bytes = 10000, .flush_bytes = 4000 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(1, NULL, 0, p, &bad);
    char k[32];
    int i = 0;
    for (; c->splits == 0; i++) {
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 100, 0, &s, &done), 0);
        assert_true(i < 1000);
    }
    /* flushes at 4100, 8200 and 12300 bytes: the first past 10,000 is the
     * third, the 123rd write (a split on every write would be the 101st) */
    assert_int_equal(i, 123);
    cluster_free(c);
}

/* A daughter cannot split while its reference files count (HStore.canSplit;
 * compacted files count until the server's CompactedHFilesDischarger
 * archives them, every discharge_us from the server's start); a move
 * (a reopened region) frees it at once. */
static void test_daughter_waits_for_the_discharger(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_CONSTANT, .max_bytes = 10000, .flush_bytes = 1 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(2, NULL, 0, p, &bad);
    c->discharge_us = 60000000; /* one a minute */
    c->epoch_ms = 1000000;
    c->servers[0].start_ms = 1000000 - 10000; /* started 10 s before t = 0: runs at 50 s, 110 s */
    char k[32];
    int i = 0;
    for (; c->splits == 0; i++) {
        c->now_us = (uint64_t)i * 1000; /* a write a ms */
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 100, 0, &s, &done), 0);
    }
    region *top = regionmap_at(c->map, 1);
    assert_int_equal(top->refs_until_us, 50000000);
    /* the top daughter fills past its size long before 50 s: no split */
    for (; i < 40000; i++) {
        c->now_us = (uint64_t)i * 1000;
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 100, 0, &s, &done), 0);
    }
    assert_int_equal(c->splits, 1);
    /* past the discharger's run it splits at its next flush */
    c->now_us = 50000001;
    snprintf(k, sizeof k, "row%08d", i++);
    assert_int_equal(cluster_write(c, S(k), 100, 0, &s, &done), 0);
    assert_int_equal(c->splits, 2);
    /* the new top daughter waits for the run at 110 s, unless it moves */
    top = regionmap_at(c->map, 2);
    assert_int_equal(top->refs_until_us, 110000000);
    c->now_us = 60000000;
    cluster_move(c, 2, 1);
    assert_int_equal(regionmap_at(c->map, 2)->refs_until_us, 0);
    c->now_us = 70000000; /* past the move's pause */
    snprintf(k, sizeof k, "row%08d", i++);
    assert_int_equal(cluster_write(c, S(k), 100, 0, &s, &done), 0);
    assert_int_equal(c->splits, 3);
    cluster_free(c);
}

/* Daughters' regionId (SplitTableRegionProcedure): the split's time in ms,
 * or the parent's id + 1 when that is not later. */
static void test_daughter_ids_follow_hbase(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_SIZE, .max_bytes = 1000 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(1, NULL, 0, p, &bad);
    assert_int_equal(regionmap_get(c->map, 0)->id, 0);
    char k[32];
    int i = 0;
    for (; c->splits == 0; i++) { /* all at t = 0: the first split gets 0 + 1 */
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 50, 0, &s, &done), 0);
    }
    assert_int_equal(regionmap_get(c->map, 0)->id, 1);
    assert_int_equal(regionmap_get(c->map, 1)->id, 1);
    c->now_us = 7500000; /* 7.5 s: the next split's daughters get id 7500 */
    for (uint64_t before = c->splits; c->splits == before; i++) {
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 50, 0, &s, &done), 0);
    }
    size_t last = regionmap_count(c->map) - 1;
    assert_int_equal(regionmap_get(c->map, last)->id, 7500);
    assert_int_equal(regionmap_get(c->map, last - 1)->id, 7500);
    assert_int_equal(regionmap_get(c->map, 0)->id, 1);
    cluster_free(c);
}

static void test_move_updates_counts(void **state)
{
    (void)state;
    keyref splits[] = { S("m") };
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(3, splits, 1, p, &bad);
    cluster_move(c, 1, 2);
    assert_int_equal(c->moves, 1);
    cluster_move(c, 1, 2); /* already there: not a move */
    assert_int_equal(c->moves, 1);
    assert_int_equal(c->servers[1].regions, 0);
    assert_int_equal(c->servers[2].regions, 1);
    assert_int_equal(cluster_write(c, S("z"), 10, 0, &s, &done), 0);
    assert_int_equal(s, 2);
    cluster_free(c);
}

/* What the journal was told of hbase:meta. */
typedef struct meta_journal {
    int moves, reassigns;
    uint32_t from, to;
    char key[32];
} meta_journal;

static void meta_record(void *ctx, cluster_change what, const region *r, keyref at,
                        uint32_t from, uint32_t to, const split_why *why)
{
    (void)why;
    meta_journal *j = ctx;
    if (r)
        return; /* a region of the table */
    j->moves += what == CLUSTER_MOVE;
    j->reassigns += what == CLUSTER_REASSIGN;
    j->from = from;
    j->to = to;
    assert_true(at.len < sizeof j->key);
    memcpy(j->key, at.data, at.len);
    j->key[at.len] = 0;
}

/* hbase:meta: none until placed; placed, it counts on its server's load
 * (not in its table regions) and in the balanced total; a move takes it
 * offline for the move pause, counts as a move and is journalled under
 * its region name; a retired server hands it on first, to the least
 * loaded other server (meta counted), and a server taking the retired
 * one's index keeps it. */
static void test_meta_region(void **state)
{
    (void)state;
    keyref splits[] = { S("m") };
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    cluster *c = cluster_new(4, splits, 1, p, &bad); /* regions on rs0, rs1 */
    assert_int_equal(c->meta_server, CLUSTER_NO_META);
    assert_int_equal(cluster_balanced_regions(c), 2);
    assert_int_equal(cluster_server_load(c, 0), 1);
    cluster_place_meta(c, 0);
    assert_int_equal(cluster_balanced_regions(c), 3);
    assert_int_equal(cluster_server_load(c, 0), 2);
    assert_int_equal(c->servers[0].regions, 1);
    assert_int_equal(c->moves, 0);

    meta_journal j = { 0 };
    c->journal = meta_record;
    c->journal_ctx = &j;
    c->move_offline_us = 1000;
    c->now_us = 5000;
    cluster_move_meta(c, 0); /* already there */
    assert_int_equal(c->moves, 0);
    cluster_move_meta(c, 3);
    assert_int_equal(c->meta_server, 3);
    assert_int_equal(c->meta_offline_until_us, 6000);
    assert_int_equal(c->moves, 1);
    assert_int_equal(j.moves, 1);
    assert_int_equal(j.from, 0);
    assert_int_equal(j.to, 3);
    assert_string_equal(j.key, "hbase:meta,,1");
    assert_int_equal(cluster_server_load(c, 3), 1);

    /* rs3 fails: meta goes to the least loaded other live server, rs2 */
    assert_int_equal(cluster_retire_server(c, 3, 90000), 0);
    assert_int_equal(c->meta_server, 2);
    assert_int_equal(c->meta_offline_until_us, 90000);
    assert_int_equal(j.reassigns, 1);
    assert_int_equal(j.to, 2);
    assert_int_equal(c->reassigned, 1);
    /* rs0 leaves: rs2, the last live server, takes its index 0 with meta */
    assert_int_equal(cluster_retire_server(c, 0, 90000), 0);
    assert_int_equal(c->servers[c->meta_server].id, 2);
    assert_int_equal(c->meta_server, 0);
    cluster_free(c);
}

/* A read RPC's service: 10 us plus 1 us a row. */
static uint64_t ten_plus_row(void *ctx, uint64_t rows)
{
    (void)ctx;
    return 10 + rows;
}

/* FIFO service: each RPC starts when the work before it is done. */
static void test_rpcs_queue_fifo(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(1, NULL, 0, p, &bad);
    const uint64_t arrive[] = { 0, 10, 20, 200 }, want[] = { 100, 200, 300, 300 + 100 };
    for (int i = 0; i < 4; i++) {
        c->now_us = arrive[i];
        assert_int_equal(cluster_write(c, S("k"), 10, 100, &s, &done), 0);
        assert_int_equal(done, want[i]);
        if (i == 2)
            assert_int_equal(server_queue_at(&c->servers[0], 20), 3);
    }
    /* At 200 the first two are done, the third is in service, the fourth waits. */
    assert_int_equal(server_queue_at(&c->servers[0], 200), 2);
    assert_int_equal(c->servers[0].longest_queue, 3);
    assert_int_equal(c->servers[0].busy_us, 400);
    assert_int_equal(c->servers[0].latency.count, 4);
    assert_int_equal(c->servers[0].latency.max, 280); /* the third: 20 -> 300 */
    cluster_free(c);
}

/* Splits and moves take regions offline; requests wait for them. */
static void test_offline_regions_delay_replies(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_SIZE, .max_bytes = 1000 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(2, NULL, 0, p, &bad);
    c->split_offline_us = 5000;
    c->move_offline_us = 7000;
    char k[16];
    int i = 0;
    while (c->splits == 0) {
        snprintf(k, sizeof k, "row%04d", i++);
        c->now_us = (uint64_t)i * 100;
        assert_int_equal(cluster_write(c, S(k), 100, 10, &s, &done), 0);
    }
    uint64_t split_at = c->now_us;
    assert_int_equal(done, split_at + 10); /* the write that split was served first */
    c->now_us = split_at + 1;
    assert_int_equal(cluster_write(c, S("row0000"), 100, 10, &s, &done), 0);
    assert_int_equal(done, split_at + 5000 + 10);
    c->now_us = split_at + 6000;
    cluster_move(c, 1, 1);
    c->now_us = split_at + 6001;
    assert_int_equal(cluster_write(c, S("row9999"), 100, 10, &s, &done), 0);
    assert_int_equal(s, 1);
    assert_int_equal(done, split_at + 6000 + 7000 + 10);
    /* A read waits too, and counts the row it found. */
    scan_cost cost = { 0, 0, 0 };
    assert_int_equal(cluster_scan(c, S("row9999"), keyref_of("row9999\0", 8), 0, 0,
                                  ten_plus_row, NULL, NULL, &cost, &s), 0);
    assert_int_equal(cost.reply_us, split_at + 6000 + 7000 + 11);
    assert_int_equal(cost.rpcs, 1);
    assert_int_equal(cost.rows, 1);
    assert_int_equal(c->servers[1].rows_scanned, 1);
    cluster_free(c);
}

/* hbase.regionserver.regionSplitLimit: a server at the limit splits no more. */
static void test_split_limit(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_SIZE, .max_bytes = 10000 };
    size_t bad;
    uint32_t s;
    uint64_t done;
    cluster *c = cluster_new(1, NULL, 0, p, &bad);
    c->split_limit = 4;
    char k[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(k, sizeof k, "row%08d", i);
        assert_int_equal(cluster_write(c, S(k), 50, 0, &s, &done), 0);
    }
    assert_int_equal(regionmap_count(c->map), 4);
    assert_int_equal(c->splits, 3);
    cluster_free(c);
}

/* A scan_rpc_fn for the scan tests: ctx counts RPCs per server (the
 * service time, ten_plus_row, ignores ctx). */
static int count_rpc(void *ctx, uint32_t server_id, keyref start)
{
    (void)start;
    ((uint64_t *)ctx)[server_id]++;
    return 0;
}

/* A scan_rpc_fn that writes each RPC's start key into ctx, '|' between. */
static int note_start(void *ctx, uint32_t server_id, keyref start)
{
    (void)server_id;
    char *text = ctx;
    size_t n = strlen(text);
    snprintf(text + n, 64 - n, "%s%.*s", n ? "|" : "", (int)start.len, (const char *)start.data);
    return 0;
}

/* Scans: one RPC per region touched, rows from the stores, limits, reverse. */
static void test_scans_touch_regions_and_count_rows(void **state)
{
    (void)state;
    keyref splits[] = { S("c"), S("e") };
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    uint32_t s;
    uint64_t done, per_server[3] = { 0, 0, 0 };
    cluster *c = cluster_new(3, splits, 2, p, &bad);
    const char *rows[] = { "a1", "a2", "b1", "c1", "d1", "d2", "e1", "f1", "f2", "f3" };
    for (int i = 0; i < 10; i++)
        assert_int_equal(cluster_write(c, S(rows[i]), 10, 0, &s, &done), 0);
    scan_cost cost = { 0, 0, 0 };
    /* [b, f): regions 0, 1, 2; rows b1 c1 d1 d2 e1. */
    assert_int_equal(cluster_scan(c, S("b"), S("f"), 0, 0, ten_plus_row, count_rpc, per_server,
                                  &cost, &s), 0);
    assert_int_equal(cost.rpcs, 3);
    assert_int_equal(cost.rows, 5);
    assert_int_equal(per_server[0] + per_server[1] + per_server[2], 3);
    /* Each RPC starts at lo in the first region, at the region's start after. */
    char starts[64] = "";
    cost = (scan_cost){ 0, 0, 0 };
    assert_int_equal(cluster_scan(c, S("b"), S("f"), 0, 0, ten_plus_row, note_start, starts,
                                  &cost, &s), 0);
    assert_string_equal(starts, "b|c|e");
    starts[0] = '\0';
    assert_int_equal(cluster_scan(c, S("d"), S(""), 0, 1, ten_plus_row, note_start, starts,
                                  &cost, &s), 0);
    assert_string_equal(starts, "e|d"); /* reverse: from the top */
    /* The whole table, newest 4 from the top: f3 f2 f1 e1, all in region 2. */
    cost = (scan_cost){ 0, 0, 0 };
    assert_int_equal(cluster_scan(c, S(""), S(""), 4, 1, ten_plus_row, NULL, NULL, &cost, &s), 0);
    assert_int_equal(cost.rpcs, 1);
    assert_int_equal(cost.rows, 4);
    assert_int_equal(s, 2);
    /* Limit 3 from the bottom: a1 a2 b1 in region 0. */
    cost = (scan_cost){ 0, 0, 0 };
    assert_int_equal(cluster_scan(c, S(""), S(""), 3, 0, ten_plus_row, NULL, NULL, &cost, &s), 0);
    assert_int_equal(cost.rpcs, 1);
    assert_int_equal(cost.rows, 3);
    /* A miss still costs its RPC. */
    cost = (scan_cost){ 0, 0, 0 };
    assert_int_equal(cluster_scan(c, S("zz"), keyref_of("zz\0", 3), 0, 0, ten_plus_row, NULL, NULL,
                                  &cost, &s), 0);
    assert_int_equal(cost.rpcs, 1);
    assert_int_equal(cost.rows, 0);
    cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presplit_round_robin),
        cmocka_unit_test(test_write_routes_and_counts),
        cmocka_unit_test(test_ascending_writes_split_and_daughters_stay),
        cmocka_unit_test(test_daughter_ids_follow_hbase),
        cmocka_unit_test(test_move_updates_counts),
        cmocka_unit_test(test_meta_region),
        cmocka_unit_test(test_rpcs_queue_fifo),
        cmocka_unit_test(test_offline_regions_delay_replies),
        cmocka_unit_test(test_scans_touch_regions_and_count_rows),
        cmocka_unit_test(test_split_limit),
        cmocka_unit_test(test_split_waits_for_the_flush),
        cmocka_unit_test(test_daughter_waits_for_the_discharger),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
