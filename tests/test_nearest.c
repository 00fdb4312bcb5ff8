/* test_nearest.c -- core/nearest.h: the one edit distance of every "did
 * you mean", its limit, and which candidate a search keeps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/nearest.h"

static void test_distance_counts_one_per_edit(void **state)
{
    (void)state;
    assert_int_equal(nearest_distance("hashed", "hashed", 0), 0);
    assert_int_equal(nearest_distance("", "", 0), 0);
    assert_int_equal(nearest_distance("", "seed", 0), 4);
    assert_int_equal(nearest_distance("monotnic", "monotonic", 0), 1); /* an insertion */
    assert_int_equal(nearest_distance("seeed", "seed", 0), 1);         /* a deletion */
    assert_int_equal(nearest_distance("salter", "salted", 0), 1);      /* a substitution */
    assert_int_equal(nearest_distance("hahsed", "hashed", 0), 1);      /* a swap of neighbours */
    assert_int_equal(nearest_distance("--budgte", "--budget", 0), 1);
    assert_int_equal(nearest_distance("ab", "ba", 0), 1);
    assert_int_equal(nearest_distance("abc", "ca", 0), 3); /* no edit of a swapped pair */
    assert_int_equal(nearest_distance("kitten", "sitting", 0), 3);
    assert_int_equal(nearest_distance("sitting", "kitten", 0), 3);  /* symmetric */
}

static void test_case_is_folded_only_when_asked(void **state)
{
    (void)state;
    assert_int_equal(nearest_distance("RecordCount", "recordcount", 1), 0);
    assert_int_equal(nearest_distance("RecordCount", "recordcount", 0), 2);
    assert_int_equal(nearest_distance("FieldCuont", "fieldcount", 1), 1);
}

static void test_long_names_are_never_near(void **state)
{
    (void)state;
    char a[NEAREST_MAX_LEN + 2], b[NEAREST_MAX_LEN + 2];
    memset(a, 'x', NEAREST_MAX_LEN);
    a[NEAREST_MAX_LEN] = '\0';
    memcpy(b, a, sizeof a);
    assert_int_equal(nearest_distance(a, b, 0), 0); /* at the limit: compared */
    a[NEAREST_MAX_LEN] = 'x', a[NEAREST_MAX_LEN + 1] = '\0';
    assert_true(nearest_distance(a, b, 0) == NEAREST_FAR);
    assert_true(nearest_distance(b, a, 0) == NEAREST_FAR);
}

static void test_limit_is_two_or_a_third(void **state)
{
    (void)state;
    assert_int_equal(nearest_limit(""), 2);
    assert_int_equal(nearest_limit("seed"), 2);
    assert_int_equal(nearest_limit("write_max_men"), 4); /* 13 / 3 */
}

static void test_a_search_keeps_the_nearest_within_its_limit(void **state)
{
    (void)state;
    static const char *const presets[] = { "monotonic", "salted", "hashed", "seq",
                                           "seq-reversed" };
    nearest n = nearest_start("hahsed", nearest_limit("hahsed"), 0);
    for (size_t i = 0; i < 5; i++)
        nearest_offer(&n, presets[i]);
    assert_string_equal(n.best, "hashed");
    assert_int_equal(n.distance, 1);

    /* ties: the first offered ("ab" and "ba" are both 1 from "aa") */
    n = nearest_start("aa", 2, 0);
    nearest_offer(&n, "ab");
    nearest_offer(&n, "ba");
    assert_string_equal(n.best, "ab");
    n = nearest_start("aa", 2, 0);
    nearest_offer(&n, "ba");
    nearest_offer(&n, "ab");
    assert_string_equal(n.best, "ba");

    /* beyond the limit: none */
    n = nearest_start("zzzzzz", nearest_limit("zzzzzz"), 0);
    for (size_t i = 0; i < 5; i++)
        nearest_offer(&n, presets[i]);
    assert_null(n.best);
    assert_true(n.distance == NEAREST_FAR);

    /* a limit of 0 keeps only the word itself */
    n = nearest_start("seq", 0, 0);
    nearest_offer(&n, "sew");
    assert_null(n.best);
    nearest_offer(&n, "seq");
    assert_string_equal(n.best, "seq");

    /* no word, or no candidate: nothing */
    n = nearest_start(NULL, 2, 0);
    nearest_offer(&n, "seq");
    assert_null(n.best);
    n = nearest_start("seq", 2, 0);
    nearest_offer(&n, NULL);
    assert_null(n.best);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_counts_one_per_edit),
        cmocka_unit_test(test_case_is_folded_only_when_asked),
        cmocka_unit_test(test_long_names_are_never_near),
        cmocka_unit_test(test_limit_is_two_or_a_third),
        cmocka_unit_test(test_a_search_keeps_the_nearest_within_its_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
