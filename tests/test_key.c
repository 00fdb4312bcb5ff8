/* test_key.c -- unsigned byte order and the HBase shell form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/key.h"

static keyref K(const char *s, size_t n) { return keyref_of(s, n); }

static void test_compare_unsigned_and_prefixes(void **state)
{
    (void)state;
    /* The empty key sorts first; a prefix sorts before its extensions. */
    assert_true(key_compare(K("", 0), K("a", 1)) < 0);
    assert_true(key_compare(K("a", 1), K("a\0", 2)) < 0);
    assert_true(key_compare(K("a\0", 2), K("ab", 2)) < 0);
    assert_true(key_compare(K("ab", 2), K("a", 1)) > 0);
    assert_int_equal(key_compare(K("abc", 3), K("abc", 3)), 0);
    assert_int_equal(key_compare(K("", 0), K(NULL, 0)), 0);
    /* 0xFF is the largest byte: unsigned, not signed, comparison. */
    assert_true(key_compare(K("\xff", 1), K("\x7f", 1)) > 0);
    assert_true(key_compare(K("\x80", 1), K("\x01\xff\xff", 3)) > 0);
    assert_true(key_compare(K("a\xff", 2), K("b", 1)) < 0);
}

static void test_format_like_hbase_shell(void **state)
{
    (void)state;
    char out[64];
    /* Bytes.toStringBinary: ' '..'~' except '\' literal, else \xNN upper. */
    const uint8_t k[] = { 'a', ' ', '~', 0x00, 0x1f, 0x7f, 0xff, '\\', 'Z' };
    size_t n = key_format(keyref_of(k, sizeof k), out, sizeof out);
    assert_string_equal(out, "a ~\\x00\\x1F\\x7F\\xFF\\x5CZ");
    assert_int_equal(n, strlen(out));
    assert_int_equal(key_format_len(keyref_of(k, sizeof k)), n);
    assert_int_equal(key_format(K("", 0), out, sizeof out), 0);
    assert_string_equal(out, "");
}

static void test_format_truncates_like_snprintf(void **state)
{
    (void)state;
    char out[6];
    size_t n = key_format(K("\x01\x02", 2), out, sizeof out);
    assert_int_equal(n, 8);
    assert_string_equal(out, "\\x01\\");
}

static void test_parse_round_trip_all_bytes(void **state)
{
    (void)state;
    uint8_t all[256], back[256];
    for (int i = 0; i < 256; i++)
        all[i] = (uint8_t)(255 - i);
    char text[1100];
    size_t n = key_format(keyref_of(all, 256), text, sizeof text);
    size_t len, bad;
    assert_int_equal(key_parse(text, n, back, sizeof back, &len, &bad), 0);
    assert_int_equal(len, 256);
    assert_memory_equal(all, back, 256);
}

/* key_is_formatted says yes to key_format's own output for every byte,
 * and no to any other string: a lower-case escape, a byte more or less. */
static void test_is_formatted_matches_format_only(void **state)
{
    (void)state;
    uint8_t all[256];
    for (int i = 0; i < 256; i++)
        all[i] = (uint8_t)i;
    char text[1100];
    key_format(keyref_of(all, 256), text, sizeof text);
    assert_true(key_is_formatted(keyref_of(all, 256), text));
    assert_false(key_is_formatted(keyref_of(all, 255), text));
    assert_true(key_is_formatted(K("", 0), ""));
    assert_false(key_is_formatted(K("", 0), "a"));
    assert_true(key_is_formatted(K("a\xab", 2), "a\\xAB"));
    assert_false(key_is_formatted(K("a\xab", 2), "a\\xab"));
    assert_false(key_is_formatted(K("a\xab", 2), "a\\xA"));
    assert_false(key_is_formatted(K("a\xab", 3), "a\\xAB"));
    assert_false(key_is_formatted(K("\\", 1), "\\"));
    assert_true(key_is_formatted(K("\\", 1), "\\x5C"));
}

static void test_parse_lower_case_hex_and_errors(void **state)
{
    (void)state;
    uint8_t out[8];
    size_t len, bad = 99;
    assert_int_equal(key_parse("\\xab\\xCDz", 9, out, sizeof out, &len, &bad), 0);
    assert_int_equal(len, 3);
    assert_int_equal(out[0], 0xab);
    assert_int_equal(out[1], 0xcd);
    assert_int_equal(out[2], 'z');
    /* A backslash not followed by xNN: the column of the backslash. */
    assert_int_equal(key_parse("ab\\q00", 6, out, sizeof out, &len, &bad), -1);
    assert_int_equal(bad, 2);
    assert_int_equal(key_parse("a\\x4", 4, out, sizeof out, &len, &bad), -1);
    assert_int_equal(bad, 1);
    assert_int_equal(key_parse("\\xG0", 4, out, sizeof out, &len, &bad), -1);
    assert_int_equal(bad, 0);
    /* Too long for the output buffer. */
    assert_int_equal(key_parse("123456789", 9, out, sizeof out, &len, &bad), -1);
    assert_int_equal(bad, 8);
}

static void test_copy(void **state)
{
    (void)state;
    assert_null(key_copy(K("", 0)));
    uint8_t *p = key_copy(K("\0\xff", 2));
    assert_non_null(p);
    assert_memory_equal(p, "\0\xff", 2);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_unsigned_and_prefixes),
        cmocka_unit_test(test_format_like_hbase_shell),
        cmocka_unit_test(test_format_truncates_like_snprintf),
        cmocka_unit_test(test_parse_round_trip_all_bytes),
        cmocka_unit_test(test_is_formatted_matches_format_only),
        cmocka_unit_test(test_parse_lower_case_hex_and_errors),
        cmocka_unit_test(test_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
