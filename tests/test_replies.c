/* test_replies.c -- the reply times in flight (a small heap, a radix heap
 * when many wait) against brute force: what is due and what is counted,
 * at every step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "engine/replies.h"

static void test_empty(void **state)
{
    (void)state;
    replies r;
    replies_init(&r);
    assert_int_equal(replies_due(&r, UINT64_MAX, 0), 0);
    assert_int_equal(replies_count(&r), 0);
    replies_release(&r);
}

/* Pushes later than now (a tick to 2^40 us later: ties, near and far),
 * takes what is due as now moves on (by small steps and large jumps), and
 * checks the count of replies at or after `from` and what is left. */
static void test_matches_brute_force(void **state)
{
    (void)state;
    enum { N = 60000 };
    static uint64_t held[N]; /* brute force: the replies not yet due */
    size_t nheld = 0;
    replies r;
    replies_init(&r);
    uint64_t x = 3, now = 1000, from = 5000;
    for (int i = 0; i < 3; i++) { /* replies at `from` itself count */
        assert_int_equal(replies_push(&r, now, from), 0);
        held[nheld++] = from;
    }
    for (int step = 0; step < N; step++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int pushes = (int)(x >> 62); /* 0..3 */
        for (int p = 0; p < pushes && nheld < N; p++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int bits = (int)((x >> 58) % 41); /* up to 2^40 later */
            uint64_t t = now + 1 + ((x >> 8) & ((1ull << bits) - 1));
            if (p == 1 && nheld) /* a tie with one already held */
                t = held[(x >> 30) % nheld];
            assert_int_equal(replies_push(&r, now, t), 0);
            held[nheld++] = t;
        }
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        now += (x >> 63) ? (x >> 50) % 64 : ((x >> 20) & ((1ull << ((x >> 58) % 36)) - 1));
        size_t want = 0;
        for (size_t i = 0; i < nheld;) {
            if (held[i] <= now) {
                want += held[i] >= from;
                held[i] = held[--nheld];
            } else {
                i++;
            }
        }
        assert_int_equal(replies_due(&r, now, from), want);
        assert_int_equal(replies_count(&r), nheld);
    }
    assert_int_equal(replies_due(&r, UINT64_MAX, 0), nheld);
    assert_int_equal(replies_count(&r), 0);
    replies_release(&r);
}

/* Many waiting at once (as when reads overload the servers): the replies
 * move from the small heap to the buckets and back once few are left,
 * and the counts stay right through both moves, twice over. */
static void test_many_waiting(void **state)
{
    (void)state;
    enum { N = 20000 };
    static uint64_t held[N];
    replies r;
    replies_init(&r);
    uint64_t x = 11, now = 0, from = 300000;
    for (int round = 0; round < 2; round++) {
        size_t nheld = 0;
        for (int i = 0; i < N; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            held[nheld] = now + 1 + (x >> 44); /* up to 2^20 us later */
            assert_int_equal(replies_push(&r, now, held[nheld]), 0);
            nheld++;
            if (i % 500 == 0) { /* a little time passes while they arrive */
                now += 50;
                size_t want = 0;
                for (size_t k = 0; k < nheld;)
                    if (held[k] <= now) {
                        want += held[k] >= from;
                        held[k] = held[--nheld];
                    } else {
                        k++;
                    }
                assert_int_equal(replies_due(&r, now, from), want);
            }
        }
        assert_true(replies_count(&r) == nheld && nheld > 4096);
        while (nheld) {
            now += 1000;
            size_t want = 0;
            for (size_t k = 0; k < nheld;)
                if (held[k] <= now) {
                    want += held[k] >= from;
                    held[k] = held[--nheld];
                } else {
                    k++;
                }
            assert_int_equal(replies_due(&r, now, from), want);
            assert_int_equal(replies_count(&r), nheld);
        }
    }
    replies_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_matches_brute_force),
        cmocka_unit_test(test_many_waiting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
