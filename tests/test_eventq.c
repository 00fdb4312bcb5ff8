/* test_eventq.c -- order by time, then by push order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine/eventq.h"

static void test_pops_in_time_then_push_order(void **state)
{
    (void)state;
    eventq q;
    eventq_init(&q);
    event e;
    assert_int_equal(eventq_pop(&q, &e), 0);
    assert_int_equal(eventq_push(&q, 50, 1, 0), 0);
    assert_int_equal(eventq_push(&q, 10, 2, 0), 0);
    assert_int_equal(eventq_push(&q, 50, 3, 0), 0);
    assert_int_equal(eventq_push(&q, 10, 4, 0), 0);
    assert_int_equal(eventq_push(&q, 0, 5, 0), 0);
    const uint32_t want[] = { 5, 2, 4, 1, 3 };
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(eventq_pop(&q, &e), 1);
        assert_int_equal(e.kind, want[i]);
    }
    assert_int_equal(eventq_count(&q), 0);
    eventq_release(&q);
}

static void test_many_events_sorted(void **state)
{
    (void)state;
    eventq q;
    eventq_init(&q);
    uint64_t x = 12345;
    for (uint32_t i = 0; i < 10000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        assert_int_equal(eventq_push(&q, (x >> 33) % 1000, 0, i), 0);
    }
    event prev = { 0, 0, 0, 0 }, e;
    size_t n = 0;
    while (eventq_pop(&q, &e)) {
        if (n++)
            assert_true(e.t_us > prev.t_us || (e.t_us == prev.t_us && e.arg > prev.arg));
        prev = e;
    }
    assert_int_equal(n, 10000);
    eventq_release(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pops_in_time_then_push_order),
        cmocka_unit_test(test_many_events_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
