/* test_server.c -- FIFO service by Lindley's recursion, queue length,
 * offline regions, latency recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/server.h"

static void test_lindley_and_queue(void **state)
{
    (void)state;
    server s;
    memset(&s, 0, sizeof s);
    assert_int_equal(histogram_init(&s.latency, 4), 0);
    /* Ten RPCs of 10 us arriving 1 us apart: each waits for the one before. */
    for (uint64_t i = 0; i < 10; i++)
        assert_int_equal(server_serve(&s, i, 0, 10), (i + 1) * 10);
    assert_int_equal(s.longest_queue, 10);
    assert_int_equal(server_queue_at(&s, 9), 10);
    assert_int_equal(server_queue_at(&s, 35), 7);  /* done: 10, 20, 30 */
    assert_int_equal(server_queue_at(&s, 100), 0);
    assert_int_equal(s.busy_us, 100);
    assert_int_equal(s.rpcs, 10);
    /* An idle server starts at once. */
    assert_int_equal(server_serve(&s, 500, 0, 7), 507);
    /* An offline region: the reply waits for it, the server does not. */
    assert_int_equal(server_serve(&s, 600, 900, 5), 905);
    assert_int_equal(server_serve(&s, 601, 0, 5), 610); /* served at 605..610 */
    assert_int_equal(s.latency.count, 13);
    assert_int_equal(s.latency.max, 305);
    server_release(&s);
}

static void test_ring_grows_under_overload(void **state)
{
    (void)state;
    server s;
    memset(&s, 0, sizeof s);
    for (uint64_t i = 0; i < 100000; i++)
        assert_true(server_serve(&s, i, 0, 3) != UINT64_MAX);
    assert_int_equal(s.busy_until_us, 300000);
    assert_int_equal(server_queue_at(&s, 100000), 100000 - 100000 / 3);
    server_release(&s);
}

/* A service over 2^32 us (a gap the ring cannot hold in 32 bits) among
 * short ones: the queue still counts each RPC out at its completion. */
static void test_wide_gaps(void **state)
{
    (void)state;
    server s;
    memset(&s, 0, sizeof s);
    const uint64_t wide = 5000000000ull;
    uint64_t done = 0;
    for (uint64_t i = 0; i < 1000; i++) { /* every third one wide */
        uint64_t service = i % 3 == 1 ? wide : 10;
        done = server_serve(&s, i, 0, service);
        assert_int_equal(done, 10 * (i + 1 - (i + 2) / 3) + wide * ((i + 2) / 3));
    }
    assert_int_equal(s.longest_queue, 999); /* the first was done at 10 */
    assert_int_equal(server_queue_at(&s, 999), 999);
    assert_int_equal(server_queue_at(&s, 10 + wide - 1), 999); /* the wide one not yet */
    assert_int_equal(server_queue_at(&s, 10 + wide), 998);
    assert_int_equal(server_queue_at(&s, 20 + wide), 997);
    assert_int_equal(server_queue_at(&s, done - 1), 1);
    assert_int_equal(server_queue_at(&s, done), 0);
    /* an idle server starts afresh, and a wide gap after it is counted */
    assert_int_equal(server_serve(&s, done + 100, 0, 1), done + 101);
    assert_int_equal(server_serve(&s, done + 100, 0, wide), done + 101 + wide);
    assert_int_equal(server_queue_at(&s, done + 101), 1);
    assert_int_equal(server_queue_at(&s, done + 101 + wide), 0);
    server_release(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lindley_and_queue),
        cmocka_unit_test(test_ring_grows_under_overload),
        cmocka_unit_test(test_wide_gaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
