/* test_split.c -- the size policy and HBase's split-point refusals. */
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

static void test_due_only_above_threshold(void **state)
{
    (void)state;
    split_policy p = { SPLIT_SIZE, 100 };
    split_policy off = { SPLIT_DISABLED, 100 };
    regionmap *m = one_region();
    region *r = regionmap_at(m, 0);
    assert_false(split_due(&p, r, 100));
    assert_true(split_due(&p, r, 101));
    assert_false(split_due(&off, r, 1000000));
    regionmap_free(m);
}

static void test_split_point_is_middle_by_size(void **state)
{
    (void)state;
    split_policy p = { SPLIT_SIZE, 100 };
    regionmap *m = one_region();
    region *r = regionmap_at(m, 0);
    /* a=10 b=10 c=100 d=10 e=10: byte 70 of 140 lies in c. */
    const char *rows[] = { "a", "b", "c", "d", "e" };
    const uint32_t sizes[] = { 10, 10, 100, 10, 10 };
    for (int i = 0; i < 5; i++)
        assert_int_equal(store_put(r->rows, S(rows[i]), sizes[i]), 0);
    keyref at;
    assert_int_equal(split_decide(&p, r, &at), 1);
    assert_int_equal(key_compare(at, S("c")), 0);
    regionmap_free(m);
}

static void test_refuses_when_middle_is_first_or_last_row(void **state)
{
    (void)state;
    split_policy p = { SPLIT_SIZE, 800 };
    regionmap *m = one_region();
    region *r = regionmap_at(m, 0);
    /* One huge first row: the middle is the first row, no split. */
    assert_int_equal(store_put(r->rows, S("a"), 1000), 0);
    assert_int_equal(store_put(r->rows, S("b"), 10), 0);
    keyref at;
    assert_int_equal(split_decide(&p, r, &at), 0);
    /* The policy looks again only after another max/8 bytes. */
    assert_int_equal(r->next_split_check, 1010 + 100);
    assert_false(split_due(&p, r, 1050));
    assert_true(split_due(&p, r, 1110));
    regionmap_free(m);

    m = one_region();
    r = regionmap_at(m, 0);
    assert_int_equal(store_put(r->rows, S("a"), 10), 0);
    assert_int_equal(store_put(r->rows, S("z"), 1000), 0);
    assert_int_equal(split_decide(&p, r, &at), 0); /* middle = last row */
    regionmap_free(m);

    m = one_region();
    r = regionmap_at(m, 0);
    assert_int_equal(store_put(r->rows, S("only"), 5000), 0); /* a single hot row */
    assert_int_equal(split_decide(&p, r, &at), 0);
    regionmap_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_due_only_above_threshold),
        cmocka_unit_test(test_split_point_is_middle_by_size),
        cmocka_unit_test(test_refuses_when_middle_is_first_or_last_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
