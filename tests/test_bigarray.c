/* test_bigarray.c -- arrays grown past the mapping threshold keep their
 * contents, become mappings there, and free either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/bigarray.h"

static void test_grows_through_the_threshold(void **state)
{
    (void)state;
    void *a = NULL;
    int mapped = 0;
    size_t cap = 0, words = 0;
    for (size_t n = 64; n <= 8 * BIGARRAY_MAP_FROM; n *= 2) {
        assert_int_equal(bigarray_grow(&a, cap, n, &mapped), 0);
        assert_int_equal(mapped, n >= BIGARRAY_MAP_FROM); /* mappings are to be had here */
        uint32_t *w = a;
        for (size_t i = 0; i < words; i++) /* what was written is kept */
            assert_int_equal(w[i], (uint32_t)(i * 2654435761u));
        cap = n;
        for (; words < cap / sizeof *w; words++)
            w[words] = (uint32_t)(words * 2654435761u);
    }
    bigarray_free(a, cap, mapped);
}

static void test_small_arrays_stay_malloced(void **state)
{
    (void)state;
    void *a = NULL;
    int mapped = 0;
    assert_int_equal(bigarray_grow(&a, 0, 100, &mapped), 0);
    memset(a, 7, 100);
    assert_int_equal(bigarray_grow(&a, 100, 1000, &mapped), 0);
    assert_int_equal(mapped, 0);
    assert_int_equal(((unsigned char *)a)[99], 7);
    bigarray_free(a, 1000, mapped);
    bigarray_free(NULL, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows_through_the_threshold),
        cmocka_unit_test(test_small_arrays_stay_malloced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
