/* test_units.c -- counts, sizes and durations: strict and overflow-safe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "scenario/units.h"

static void test_counts(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(units_parse_count("0", &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(units_parse_count("18446744073709551615", &v), 0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(units_parse_count("18446744073709551616", &v), -1);
    assert_int_equal(units_parse_count("", &v), -1);
    assert_int_equal(units_parse_count("-1", &v), -1);
    assert_int_equal(units_parse_count("+1", &v), -1);
    assert_int_equal(units_parse_count(" 1", &v), -1);
    assert_int_equal(units_parse_count("1 ", &v), -1);
    assert_int_equal(units_parse_count("1k", &v), -1);
}

static void test_sizes(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(units_parse_size("4096", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(units_parse_size("7B", &v), 0);
    assert_int_equal(v, 7);
    assert_int_equal(units_parse_size("3KiB", &v), 0);
    assert_int_equal(v, 3072);
    assert_int_equal(units_parse_size("10GiB", &v), 0);
    assert_true(v == 10ull << 30);
    assert_int_equal(units_parse_size("16777215TiB", &v), 0);
    assert_int_equal(units_parse_size("16777216TiB", &v), -1); /* 2^64: overflow */
    assert_int_equal(units_parse_size("4MB", &v), -1);
    assert_int_equal(units_parse_size("4 MiB", &v), -1);
    assert_int_equal(units_parse_size("MiB", &v), -1);
}

static void test_durations(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(units_parse_duration("250us", &v), 0);
    assert_int_equal(v, 250);
    assert_int_equal(units_parse_duration("3ms", &v), 0);
    assert_int_equal(v, 3000);
    assert_int_equal(units_parse_duration("90s", &v), 0);
    assert_int_equal(v, 90000000);
    assert_int_equal(units_parse_duration("5m", &v), 0);
    assert_int_equal(v, 300000000);
    assert_int_equal(units_parse_duration("2h", &v), 0);
    assert_true(v == 7200000000ull);
    assert_int_equal(units_parse_duration("5", &v), -1); /* a unit is required */
    assert_int_equal(units_parse_duration("5min", &v), -1);
    assert_int_equal(units_parse_duration("5124095576h", &v), 0);
    assert_int_equal(units_parse_duration("5124095577h", &v), -1); /* overflow */
}

static void test_format_duration(void **state)
{
    (void)state;
    static const struct { uint64_t us; const char *text; } cases[] = {
        { 0, "0s" }, { 7, "7us" }, { 1500000, "1500ms" }, { 90000000, "90s" },
        { 1800000000ull, "30m" }, { 7200000000ull, "2h" }, { 3600000001ull, "3600000001us" },
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        units_format_duration(cases[i].us, buf, sizeof buf);
        assert_string_equal(buf, cases[i].text);
        uint64_t back;
        assert_int_equal(units_parse_duration(buf, &back), 0); /* round trip */
        assert_int_equal(back, cases[i].us);
    }
}

static void test_format_size(void **state)
{
    (void)state;
    static const struct { uint64_t bytes; const char *text; } cases[] = {
        { 0, "0B" }, { 100, "100B" }, { 1536, "1536B" }, { 4 << 20, "4MiB" },
        { 10ull << 30, "10GiB" }, { 3ull << 40, "3TiB" }, { 1536ull << 10, "1536KiB" },
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        units_format_size(cases[i].bytes, buf, sizeof buf);
        assert_string_equal(buf, cases[i].text);
        uint64_t back;
        assert_int_equal(units_parse_size(buf, &back), 0); /* round trip */
        assert_int_equal(back, cases[i].bytes);
    }
}

/* User text in a message: control bytes as \xNN (nothing raw reaches a
 * terminal), cut with "..." so that the message keeps its reason. */
static void test_escape(void **state)
{
    (void)state;
    char out[64];
    assert_string_equal(escape_text("plain", 20, out, sizeof out), "plain");
    assert_string_equal(escape_text("a\x1B[31mb\x7F\t", 40, out, sizeof out),
                        "a\\x1B[31mb\\x7F\\x09");
    assert_string_equal(escape_text("\xC3\xA9 \\x41", 20, out, sizeof out),
                        "\xC3\xA9 \\x41"); /* UTF-8 and backslashes as they are */
    /* exactly max characters: not cut */
    assert_string_equal(escape_text("0123456789", 10, out, sizeof out), "0123456789");
    assert_string_equal(escape_text("0123456789A", 10, out, sizeof out), "0123456...");
    /* never cut inside an escape */
    assert_string_equal(escape_text("012345\x01\x02", 10, out, sizeof out), "012345...");
    assert_string_equal(escape_text("012\x01", 10, out, sizeof out), "012\\x01");
    /* cap smaller than max: cap wins, still NUL-terminated */
    assert_string_equal(escape_text("0123456789", 100, out, 8), "0123...");
    assert_int_equal(strlen(escape_text("", 10, out, sizeof out)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_duration),
        cmocka_unit_test(test_format_size),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
