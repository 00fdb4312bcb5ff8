/* test_verdict.c -- a spread's class and words at and around every
 * threshold of reports/verdict.h; overload and the drain note at theirs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "reports/verdict.h"

static void test_classes_change_at_the_thresholds(void **state)
{
    (void)state;
    assert_int_equal(verdict_spread(1.0, 8), SPREAD_EVEN);
    assert_int_equal(verdict_spread(VERDICT_EVEN, 8), SPREAD_EVEN);
    assert_int_equal(verdict_spread(nextafter(VERDICT_EVEN, 2), 8), SPREAD_NEARLY_EVEN);
    assert_int_equal(verdict_spread(nextafter(VERDICT_UNEVEN, 0), 8), SPREAD_NEARLY_EVEN);
    assert_int_equal(verdict_spread(VERDICT_UNEVEN, 8), SPREAD_UNEVEN);
    assert_int_equal(verdict_spread(nextafter(4.0, 0), 8), SPREAD_UNEVEN);
    assert_int_equal(verdict_spread(4.0, 8), SPREAD_ONE_SERVER); /* half of 8 */
    assert_int_equal(verdict_spread(7.54, 20), SPREAD_UNEVEN);   /* 38% of 20 servers */
    assert_int_equal(verdict_spread(NAN, 8), SPREAD_UNDEFINED);
}

static void test_one_server_on_few_servers(void **state)
{
    (void)state;
    /* on 2 servers half of n is 1: an even spread must not be "one
     * server"; the class starts at VERDICT_UNEVEN there */
    assert_int_equal(verdict_spread(1.0, 1), SPREAD_EVEN);
    assert_int_equal(verdict_spread(1.0, 2), SPREAD_EVEN);
    assert_int_equal(verdict_spread(1.4, 2), SPREAD_NEARLY_EVEN);
    assert_int_equal(verdict_spread(1.5, 2), SPREAD_ONE_SERVER);
    assert_int_equal(verdict_spread(1.5, 3), SPREAD_ONE_SERVER);
    assert_int_equal(verdict_spread(3.0, 1), SPREAD_UNEVEN);
}

static void test_words_name_the_class(void **state)
{
    (void)state;
    assert_string_equal(verdict_spread_word(SPREAD_EVEN), "even");
    assert_string_equal(verdict_spread_word(SPREAD_NEARLY_EVEN), "nearly even");
    assert_string_equal(verdict_spread_word(SPREAD_UNEVEN), "uneven");
    assert_string_equal(verdict_spread_word(SPREAD_ONE_SERVER), "on one server");
    assert_string_equal(verdict_spread_word(SPREAD_UNDEFINED), "unmeasured");
}

static void words(char *buf, size_t cap, double mm, double wm, double share, uint32_t n)
{
    buf[0] = '\0';
    verdict_spread_words(buf, cap, "writes", mm, wm, share, n);
}

static void test_sentences(void **state)
{
    (void)state;
    char b[256];
    words(b, sizeof b, 1.05, 1.08, 0.13, 8);
    assert_string_equal(b, "writes even");
    words(b, sizeof b, 1.05, 1.2, 0.13, 8); /* the window figure is not even */
    assert_string_equal(b, "writes nearly even (max/mean 1.20)");
    words(b, sizeof b, 1.3, NAN, 0.16, 8);
    assert_string_equal(b, "writes nearly even (max/mean 1.30)");
    words(b, sizeof b, 2.333, 2.5, 0.2916, 8);
    assert_string_equal(b, "writes uneven: the busiest server takes 29.2% (max/mean 2.33)");
    words(b, sizeof b, 1.01, 2.0, 0.13, 8);
    assert_string_equal(b, "writes even over the run, uneven in each window (window max/mean 2.00)");
    words(b, sizeof b, 1.01, 8.0, 0.13, 8); /* a hotspot that moves */
    assert_string_equal(b, "one server at a time takes the writes (window max/mean 8.00 of 8)");
    words(b, sizeof b, 5.3333, 8.0, 0.66, 8);
    assert_string_equal(b, "one server takes the writes (max/mean 5.33 of 8)");
    words(b, sizeof b, NAN, NAN, NAN, 8);
    assert_string_equal(b, "writes unmeasured");
}

static void test_words_append_and_truncate(void **state)
{
    (void)state;
    char b[64] = "reads: ";
    verdict_spread_words(b, sizeof b, "reads", 1.0, NAN, 0.125, 8);
    assert_string_equal(b, "reads: reads even");
    char small[12] = "";
    verdict_spread_words(small, sizeof small, "writes", 2.333, 2.5, 0.29, 8);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, "writes unev", 11);
    char full[4] = "abc"; /* no room left: unchanged */
    verdict_spread_words(full, sizeof full, "writes", 1.0, NAN, 0.1, 8);
    assert_string_equal(full, "abc");
}

/* A run of 2 servers over `minutes` minutes offering 1000 ops/s, achieving
 * `done`, its busier server `busy` busy (the other half that). */
static run_result overload_run(server_result sv[2], double done, double busy, uint64_t minutes)
{
    memset(sv, 0, 2 * sizeof *sv);
    sv[0].busy = busy / 2;
    sv[1].busy = busy;
    return (run_result){ .nservers = 2, .servers = sv, .duration_us = minutes * 60000000,
                         .offered_per_s = 1000, .achieved_per_s = done };
}

static void test_overloaded_at_its_thresholds(void **state)
{
    (void)state;
    server_result sv[2];
    run_result r = overload_run(sv, 1000, VERDICT_OVERLOAD_BUSY, 30);
    assert_false(verdict_overloaded(&r)); /* exactly 100% busy, everything done */
    sv[1].busy = nextafter(VERDICT_OVERLOAD_BUSY, 2);
    assert_true(verdict_overloaded(&r));
    r = overload_run(sv, 1000 * VERDICT_OVERLOAD_DONE, 0.5, 30);
    assert_false(verdict_overloaded(&r)); /* 99% done */
    r.achieved_per_s = nextafter(1000 * VERDICT_OVERLOAD_DONE, 0);
    assert_true(verdict_overloaded(&r));
    r = overload_run(sv, 0, 0, 0); /* no time: not judged */
    assert_false(verdict_overloaded(&r));
    r = overload_run(sv, 0, 0, 30);
    r.offered_per_s = 0; /* nothing offered */
    assert_false(verdict_overloaded(&r));
}

static void test_overload_note_says_done_of_offered(void **state)
{
    (void)state;
    server_result sv[2];
    char b[256];
    run_result r = overload_run(sv, 316.2, 9.294, 30);
    assert_true(verdict_overload_note(b, sizeof b, &r));
    assert_string_equal(b, "overloaded: 316 of 1000 ops/s done, busiest server 929.4% busy");
    r = overload_run(sv, 1000, 1.05, 30); /* busy alone */
    assert_true(verdict_overload_note(b, sizeof b, &r));
    assert_string_equal(b, "overloaded: 1000 of 1000 ops/s done, busiest server 105.0% busy");
    r = overload_run(sv, 999, 0.6, 30);
    assert_false(verdict_overload_note(b, sizeof b, &r));
    assert_string_equal(b, "");
}

static void test_drain_note_when_a_latency_is_longer_than_the_run(void **state)
{
    (void)state;
    server_result sv[2];
    char b[512];
    run_result r = overload_run(sv, 316, 9.3, 30);
    r.unfinished = 1231362;
    r.latency = (latency_summary){ .count = 10, .p50_us = 3490000000ull,
                                   .p99_us = 14630000000ull, .p999_us = 14898000000ull,
                                   .max_us = 14975000000ull };
    assert_true(verdict_drain_note(b, sizeof b, &r));
    assert_string_equal(b, "p99 14630 s is longer than the 30 min run: 1231362 operations were "
                           "still queued at its end and drained after it, with no new arrivals");
    /* only the max is: the max is named */
    r.latency.p99_us = r.latency.p999_us = 60000000;
    r.latency.max_us = 1800000001;
    r.unfinished = 1;
    assert_true(verdict_drain_note(b, sizeof b, &r));
    assert_non_null(strstr(b, "max 1800 s is longer than the 30 min run: 1 operation was still"));
    /* measured from 10 min: the span is 20 min, and the p99.9 is past it */
    r.measure_from_us = 600000000;
    r.latency.p999_us = 1200000001;
    assert_true(verdict_drain_note(b, sizeof b, &r));
    assert_string_equal(b, "p99.9 1200 s is longer than the 20 min measured: 1 operation was "
                           "still queued at the run's end and drained after it, with no new "
                           "arrivals");
    /* no latency longer than the span (the max equal to it): no note */
    r.latency.p999_us = r.latency.max_us = 1200000000;
    assert_false(verdict_drain_note(b, sizeof b, &r));
    assert_string_equal(b, "");
    r.latency = (latency_summary){ 0 }; /* nothing timed */
    assert_false(verdict_drain_note(b, sizeof b, &r));
}

/* Across seeds the words are the medians', then how many seeds earn the
 * same words and the range of max/mean: monotonic's 20 seeds in issue 28
 * run 1.33-5.33 around a median of 2.67. */
static void test_seeds_words(void **state)
{
    (void)state;
    const double mm[5] = { 2.67, 1.33, 5.33, 2.67, 4.00 }, wm[5] = { 8, 8, 8, 8, 8 };
    char b[256] = "";
    verdict_spread_words(b, sizeof b, "writes", 2.67, 8, 0.33, 8);
    verdict_seeds_words(b, sizeof b, mm, wm, 5, 2.67, 8, 8);
    /* window 8.00 of 8 in every seed: "one server at a time" but for 5.33
     * and 4.00 (at least half of 8: one server outright) */
    assert_string_equal(b, "one server at a time takes the writes (window max/mean 8.00 of 8); "
                           "so in 3 of 5 seeds (max/mean 1.33-5.33)");
    const double even[3] = { 1.00, 1.01, 1.00 };
    char e[128] = "writes even";
    verdict_seeds_words(e, sizeof e, even, NULL, 3, 1.00, NAN, 8);
    assert_string_equal(e, "writes even; so in all 3 seeds (max/mean 1.00-1.01)");
    const double flat[2] = { 1.00, 1.00 };
    char f[64] = "x";
    verdict_seeds_words(f, sizeof f, flat, NULL, 2, 1.00, NAN, 8);
    assert_string_equal(f, "x; so in all 2 seeds"); /* no range when it prints as one */
    char g[64] = "x";
    verdict_seeds_words(g, sizeof g, flat, NULL, 1, 1.00, NAN, 8);
    assert_string_equal(g, "x"); /* one seed: nothing to say */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_change_at_the_thresholds),
        cmocka_unit_test(test_one_server_on_few_servers),
        cmocka_unit_test(test_words_name_the_class),
        cmocka_unit_test(test_sentences),
        cmocka_unit_test(test_words_append_and_truncate),
        cmocka_unit_test(test_overloaded_at_its_thresholds),
        cmocka_unit_test(test_overload_note_says_done_of_offered),
        cmocka_unit_test(test_drain_note_when_a_latency_is_longer_than_the_run),
        cmocka_unit_test(test_seeds_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
