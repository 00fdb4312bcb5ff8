/* test_presplit.c -- RegionSplitter's algorithms and split-key lists.
 *
 * The algorithm vectors are HBase's own, from TestRegionSplitter
 * (hbase-server/src/test/java/org/apache/hadoop/hbase/util/):
 * testCreatePresplitTableHex / testCreatePresplitTableUniform (16 regions),
 * unitTestHexStringSplit, unitTestDecimalStringSplit and unitTestUniformSplit
 * (split(2), split(3)), and testUserInput's "too granular" precondition.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/presplit.h"
#include "core/regionmap.h"

/* ------------------------------------------------------------------ helpers */

/* Generates the keys and checks the shape every list must have: n-1 keys of
 * 8 bytes, strictly ascending, accepted by regionmap_new as n regions. */
static keyref *gen(presplit_algorithm a, uint32_t n, uint8_t **bytes)
{
    keyref *k = NULL;
    assert_int_equal(presplit_keys(a, n, &k, bytes), 0);
    assert_non_null(k);
    assert_non_null(*bytes);
    for (uint32_t i = 0; i + 1 < n; i++) {
        assert_int_equal(k[i].len, 8);
        if (i > 0)
            assert_true(key_compare(k[i - 1], k[i]) < 0);
    }
    return k;
}

static void assert_key_str(keyref k, const char *s)
{
    assert_int_equal(k.len, strlen(s));
    assert_memory_equal(k.data, s, k.len);
}

/* The 8-byte big-endian form of v. */
static void assert_key_u64(keyref k, uint64_t v)
{
    uint8_t b[8];
    for (int i = 7; i >= 0; i--, v >>= 8)
        b[i] = (uint8_t)v;
    assert_int_equal(k.len, 8);
    assert_memory_equal(k.data, b, 8);
}

/* Writes text to a fresh temporary file; returns its malloc'd path. */
static char *temp_file(const char *text, size_t len)
{
    char tmpl[] = "/tmp/test_presplit_XXXXXX";
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    char *p = malloc(sizeof tmpl);
    assert_non_null(p);
    memcpy(p, tmpl, sizeof tmpl);
    return p;
}

/* Reads text as a split file; returns presplit_read_file's result with the
 * message in err, "PATH" standing for the temporary path. */
static int read_text(const char *text, keyref **k, uint8_t **b, size_t *n,
                     char *err, size_t cap)
{
    char *path = temp_file(text, strlen(text));
    char raw[512];
    int rc = presplit_read_file(path, k, b, n, raw, sizeof raw);
    size_t pl = strlen(path);
    if (strncmp(raw, path, pl) == 0)
        snprintf(err, cap, "PATH%s", raw + pl);
    else
        snprintf(err, cap, "%s", raw);
    unlink(path);
    free(path);
    return rc;
}

/* ----------------------------------------------------------- HBase vectors */

static void test_hex_16_regions_like_hbase(void **state)
{
    (void)state;
    /* testCreatePresplitTableHex: 16 regions cut at 10000000 .. f0000000. */
    static const char *want[] = { "10000000", "20000000", "30000000", "40000000",
                                  "50000000", "60000000", "70000000", "80000000",
                                  "90000000", "a0000000", "b0000000", "c0000000",
                                  "d0000000", "e0000000", "f0000000" };
    uint8_t *b;
    keyref *k = gen(PRESPLIT_HEX, 16, &b);
    for (size_t i = 0; i < 15; i++)
        assert_key_str(k[i], want[i]);
    free(k);
    free(b);
}

static void test_hex_2_and_3_regions(void **state)
{
    (void)state;
    /* unitTestHexStringSplit: lower-case hex, zero-padded to 8. */
    uint8_t *b;
    keyref *k = gen(PRESPLIT_HEX, 2, &b);
    assert_key_str(k[0], "80000000");
    free(k);
    free(b);
    k = gen(PRESPLIT_HEX, 3, &b);
    assert_key_str(k[0], "55555555");
    assert_key_str(k[1], "aaaaaaaa");
    free(k);
    free(b);
}

static void test_decimal_2_and_3_regions(void **state)
{
    (void)state;
    /* unitTestDecimalStringSplit. */
    uint8_t *b;
    keyref *k = gen(PRESPLIT_DECIMAL, 2, &b);
    assert_key_str(k[0], "50000000");
    free(k);
    free(b);
    k = gen(PRESPLIT_DECIMAL, 3, &b);
    assert_key_str(k[0], "33333333");
    assert_key_str(k[1], "66666666");
    free(k);
    free(b);
}

static void test_uniform_16_regions_like_hbase(void **state)
{
    (void)state;
    /* testCreatePresplitTableUniform: {0x10,0,...,0} .. {0xf0,0,...,0}. */
    uint8_t *b;
    keyref *k = gen(PRESPLIT_UNIFORM, 16, &b);
    for (uint64_t i = 0; i < 15; i++)
        assert_key_u64(k[i], (i + 1) << 60);
    free(k);
    free(b);
}

static void test_uniform_2_and_3_regions(void **state)
{
    (void)state;
    /* unitTestUniformSplit: 80 00 00 00 00 00 00 00; 55 x 8 and AA x 8. */
    uint8_t *b;
    keyref *k = gen(PRESPLIT_UNIFORM, 2, &b);
    assert_key_u64(k[0], UINT64_C(0x8000000000000000));
    free(k);
    free(b);
    k = gen(PRESPLIT_UNIFORM, 3, &b);
    assert_key_u64(k[0], UINT64_C(0x5555555555555555));
    assert_key_u64(k[1], UINT64_C(0xAAAAAAAAAAAAAAAA));
    free(k);
    free(b);
}

static void test_fewer_than_two_regions_fails(void **state)
{
    (void)state;
    /* unitTestUniformSplit: split(1) throws. */
    for (int a = PRESPLIT_HEX; a <= PRESPLIT_UNIFORM; a++) {
        for (uint32_t n = 0; n < 2; n++) {
            static keyref dummy_key;
            static uint8_t dummy_byte;
            keyref *k = &dummy_key;
            uint8_t *b = &dummy_byte;
            assert_int_equal(presplit_keys((presplit_algorithm)a, n, &k, &b), -1);
            assert_null(k);
            assert_null(b);
        }
    }
}

static void test_decimal_too_granular_fails(void **state)
{
    (void)state;
    /* testUserInput: DecimalStringSplit "0".."9" into 11 regions is "too
     * granular"; the default range holds 10^8 rows, so 10^8 + 1 is. */
    keyref *k;
    uint8_t *b;
    assert_int_equal(presplit_keys(PRESPLIT_DECIMAL, 100000001u, &k, &b), -1);
    assert_null(k);
    assert_null(b);
    assert_int_equal(presplit_keys(PRESPLIT_DECIMAL, UINT32_MAX, &k, &b), -1);
}

/* ------------------------------------------------------ arithmetic, order */

static void test_last_region_gets_the_slop(void **state)
{
    (void)state;
    uint8_t *b;
    /* 10^8 / 7 = 14285714: the last key is 6 * that, not near 99999999. */
    keyref *k = gen(PRESPLIT_DECIMAL, 7, &b);
    assert_key_str(k[0], "14285714");
    assert_key_str(k[5], "85714284");
    free(k);
    free(b);
    /* 2^32 / 7 = 613566756 = 0x24924924. */
    k = gen(PRESPLIT_HEX, 7, &b);
    assert_key_str(k[0], "24924924");
    assert_key_str(k[5], "db6db6d8");
    free(k);
    free(b);
}

static void test_uniform_divides_two_to_the_64(void **state)
{
    (void)state;
    /* floor(2^64 / n), n dividing 2^64 - 1 or 2^64 or neither. */
    static const struct { uint32_t n; uint64_t size; } cases[] = {
        { 5, UINT64_C(0x3333333333333333) },
        { 6, UINT64_C(0x2AAAAAAAAAAAAAAA) },
        { 7, UINT64_C(0x2492492492492492) },
        { 256, UINT64_C(0x0100000000000000) },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t *b;
        keyref *k = gen(PRESPLIT_UNIFORM, cases[c].n, &b);
        for (uint32_t i = 0; i + 1 < cases[c].n; i++)
            assert_key_u64(k[i], (uint64_t)(i + 1) * cases[c].size);
        free(k);
        free(b);
    }
    /* 1000003 regions: interval floor(2^64 / 1000003) = 18446688733643. */
    uint8_t *b;
    keyref *k = gen(PRESPLIT_UNIFORM, 1000003, &b);
    assert_key_u64(k[0], UINT64_C(18446688733643));
    assert_key_u64(k[1000001], UINT64_C(18446688733643) * 1000002);
    free(k);
    free(b);
}

static void test_large_n_ascending(void **state)
{
    (void)state;
    for (int a = PRESPLIT_HEX; a <= PRESPLIT_UNIFORM; a++) {
        uint8_t *b;
        keyref *k = gen((presplit_algorithm)a, 1u << 20, &b);
        free(k);
        free(b);
    }
    uint8_t *b;
    /* 2^20 hex regions of 4096 rows: the last key is fffff000. */
    keyref *k = gen(PRESPLIT_HEX, 1u << 20, &b);
    assert_key_str(k[0], "00001000");
    assert_key_str(k[(1u << 20) - 2], "fffff000");
    free(k);
    free(b);
    /* 10^6 decimal regions of 100 rows. */
    k = gen(PRESPLIT_DECIMAL, 1000000, &b);
    assert_key_str(k[0], "00000100");
    assert_key_str(k[999998], "99999900");
    free(k);
    free(b);
}

static void test_every_small_n_makes_a_table(void **state)
{
    (void)state;
    for (int a = PRESPLIT_HEX; a <= PRESPLIT_UNIFORM; a++) {
        for (uint32_t n = 2; n <= 300; n++) {
            uint8_t *b;
            keyref *k = gen((presplit_algorithm)a, n, &b);
            size_t bad = 0;
            regionmap *m = regionmap_new(k, n - 1, &bad);
            assert_non_null(m);
            assert_int_equal(regionmap_count(m), n);
            regionmap_free(m);
            free(k);
            free(b);
        }
    }
}

/* ---------------------------------------------------------------- the file */

static void test_file_with_comments_blank_lines_and_crlf(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    const char *text = "# split points\r\n"
                       "\r\n"
                       "\\x23hash\n"      /* a key starting with '#' */
                       "a b\r\n"          /* spaces belong to the key */
                       "\n"
                       "#\\xFF not a key\n"
                       "b\\x00\\xff\n"
                       "zz";              /* no final newline */
    assert_int_equal(read_text(text, &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_key_str(k[0], "#hash");
    assert_key_str(k[1], "a b");
    assert_int_equal(k[2].len, 3);
    assert_memory_equal(k[2].data, "b\0\xff", 3);
    assert_key_str(k[3], "zz");
    free(k);
    free(b);
}

static void test_file_empty_gives_no_keys(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n = 99;
    char err[512];
    assert_int_equal(read_text("# nothing\n\n", &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 0);
    assert_null(k);
    assert_null(b);
}

static void test_file_bad_escape_column(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(read_text("a\n# x\nbc\\xZ1\n", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "PATH:3: bad escape at column 3: expected \\xNN");
    assert_null(k);
    assert_null(b);
    assert_int_equal(n, 0);
    /* A truncated escape at the end of a CRLF line: the '\r' is not part of it. */
    assert_int_equal(read_text("ab\\x4\r\n", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "PATH:1: bad escape at column 3: expected \\xNN");
}

static void test_file_not_ascending_shows_both_keys(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(read_text("\\x00a\n\n\\xFF\n# c\n\\x7F\\x5C\n", &k, &b, &n, err,
                               sizeof err), -1);
    assert_string_equal(err, "PATH:5: key \"\\x7F\\x5C\" is not after the previous "
                             "key \"\\xFF\" (line 3)");
    assert_null(k);
    /* Equal keys are refused too, written in either hex case. */
    assert_int_equal(read_text("row\\x0A\nrow\\x0a\n", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "PATH:2: key \"row\\x0A\" is not after the previous "
                             "key \"row\\x0A\" (line 1)");
}

static void test_file_key_too_long(void **state)
{
    (void)state;
    size_t len = KEY_MAX_LEN + 1;
    char *text = malloc(len + 2);
    assert_non_null(text);
    memset(text, 'k', len);
    text[len] = '\n';
    text[len + 1] = '\0';
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(read_text(text, &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "PATH:1: key too long: expected at most 32767 bytes "
                             "(HBase's row limit)");
    /* Exactly KEY_MAX_LEN is fine. */
    text[len - 1] = '\n';
    text[len] = '\0';
    assert_int_equal(read_text(text, &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(k[0].len, KEY_MAX_LEN);
    free(k);
    free(b);
    free(text);
}

static void test_file_missing(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(presplit_read_file("/nonexistent/splits.txt", &k, &b, &n, err,
                                        sizeof err), -1);
    assert_string_equal(err, "/nonexistent/splits.txt: cannot open: No such file or directory");
    assert_null(k);
    assert_null(b);
}

static void test_file_error_truncated_to_errcap(void **state)
{
    (void)state;
    char *path = temp_file("b\na\n", 4);
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[8];
    memset(err, 'x', sizeof err);
    assert_int_equal(presplit_read_file(path, &k, &b, &n, err, sizeof err), -1);
    assert_int_equal(strlen(err), sizeof err - 1);
    assert_memory_equal(err, path, sizeof err - 1);
    /* errcap 0: nothing written. */
    assert_int_equal(presplit_read_file(path, &k, &b, &n, err, 0), -1);
    unlink(path);
    free(path);
}

static void test_file_keys_make_a_table(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(read_text("g\nm\nt\n", &k, &b, &n, err, sizeof err), 0);
    size_t bad;
    regionmap *m = regionmap_new(k, n, &bad);
    assert_non_null(m);
    assert_int_equal(regionmap_count(m), 4);
    assert_int_equal(regionmap_route(m, keyref_of("h", 1)), 1);
    regionmap_free(m);
    free(k);
    free(b);
}

/* An endless line (/dev/zero) is refused at 1 MiB, as a trace line is. The
 * reader used to take getline's out-of-memory failure for the end of the
 * file and hand back no keys (an unsplit table, exit 0): run in a child
 * with its address space limited, so that the old reader failed quickly
 * instead of eating the machine's memory. */
#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_SANITIZER 1
#endif
#endif
static void test_file_endless_line_is_refused_not_taken_for_the_end(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
#ifndef ADDRESS_SANITIZER /* ASan reserves terabytes of shadow: no limit there */
        struct rlimit lim = { 256u << 20, 256u << 20 };
        setrlimit(RLIMIT_AS, &lim);
#endif
        alarm(60);
        keyref *k;
        uint8_t *b;
        size_t n;
        char err[512];
        int rc = presplit_read_file("/dev/zero", &k, &b, &n, err, sizeof err);
        _exit(rc == -1 && !strcmp(err, "/dev/zero:1: line too long: expected at most "
                                       "1048576 characters") ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_file_line_limit_is_exact(void **state)
{
    (void)state;
    size_t max = 1u << 20;
    char *text = malloc(max + 3);
    assert_non_null(text);
    memset(text, 'k', max + 1);
    memcpy(text + max, "\r\n", 3); /* max characters and "\r\n": fine (then too long a key) */
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(read_text(text, &k, &b, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: key too long"));
    memcpy(text + max, "k\n", 3); /* one more */
    assert_int_equal(read_text(text, &k, &b, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: line too long: expected at most 1048576 characters"));
    free(text);
}

/* A read error is reported, never taken for the end of the file. */
static void test_file_read_errors_are_reported(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    /* reading /proc/self/mem from offset 0 (an unmapped page) fails with EIO */
    assert_int_equal(presplit_read_file("/proc/self/mem", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "/proc/self/mem:1: read error: Input/output error");
    assert_int_equal(presplit_read_file("/tmp", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "/tmp:1: read error: Is a directory");
    assert_null(k);
    assert_null(b);
}

/* A UTF-8 byte order mark at the start of the file is skipped: it is not
 * part of the first key. */
static void test_file_byte_order_mark_is_skipped(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(read_text("\xEF\xBB\xBF" "a\nb\n", &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_key_str(k[0], "a");
    assert_key_str(k[1], "b");
    free(k);
    free(b);
    assert_int_equal(read_text("\xEF\xBB\xBF" "# keys\r\nm\r\n", &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_key_str(k[0], "m");
    free(k);
    free(b);
    /* only at the start of the file: elsewhere the bytes are key bytes */
    assert_int_equal(read_text("a\n\xEF\xBB\xBF" "b\n", &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_key_str(k[1], "\xEF\xBB\xBF" "b");
    free(k);
    free(b);
}

static void test_file_path_control_bytes_escaped(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[512];
    assert_int_equal(presplit_read_file("/nonexistent/\x1B[2Jx", &k, &b, &n, err, sizeof err),
                     -1);
    assert_string_equal(err, "/nonexistent/\\x1B[2Jx: cannot open: No such file or directory");
}

/* ---------------------------------------------------------------- the list */

static void test_list_separators(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[256];
    assert_int_equal(presplit_parse_list("  \\x2C, a,b\t\n c\\x20d ", &k, &b, &n, err,
                                         sizeof err), 0);
    assert_int_equal(n, 4);
    assert_key_str(k[0], ",");
    assert_key_str(k[1], "a");
    assert_key_str(k[2], "b");
    assert_key_str(k[3], "c d");
    free(k);
    free(b);
    assert_int_equal(presplit_parse_list("a b,c", &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    free(k);
    free(b);
}

/* A list that names no key, or an empty key between commas, is refused:
 * it used to mean "no split" (or a key fewer) without a word. */
static void test_list_empty_keys_are_refused(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[256];
    assert_int_equal(presplit_parse_list(" , ", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 1 is empty: expected a key before the ',' at column 2");
    assert_null(k);
    assert_null(b);
    assert_int_equal(n, 0);
    assert_int_equal(presplit_parse_list("", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "expected at least one key, found none");
    assert_int_equal(presplit_parse_list(" \t ", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "expected at least one key, found none");
    assert_int_equal(presplit_parse_list("a,,b", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 2 is empty: expected a key before the ',' at column 3");
    assert_int_equal(presplit_parse_list("a, ,b", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 2 is empty: expected a key before the ',' at column 4");
    assert_int_equal(presplit_parse_list("a,b, ", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 3 is empty: expected a key after the ',' at column 4");
    assert_int_equal(presplit_parse_list(",a", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 1 is empty: expected a key before the ',' at column 1");
}

static void test_list_errors(void **state)
{
    (void)state;
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[256];
    assert_int_equal(presplit_parse_list("a, b\\xZZ", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 2: bad escape at column 5: expected \\xNN");
    assert_null(k);
    assert_null(b);
    assert_int_equal(n, 0);
    assert_int_equal(presplit_parse_list("a,c,b", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 3: key \"b\" is not after the previous key \"c\" (key 2)");
    assert_int_equal(presplit_parse_list("\\xFF \\xFF", &k, &b, &n, err, sizeof err), -1);
    assert_string_equal(err, "key 2: key \"\\xFF\" is not after the previous key \"\\xFF\" (key 1)");
}

static void test_list_round_trips_generated_keys(void **state)
{
    (void)state;
    /* UniformSplit keys written as a list and read back. Shell form prints
     * 0x2C and 0x20 as ',' and ' ', which a list takes as separators, so
     * those two bytes are written \x2C and \x20. */
    uint8_t *gb;
    keyref *g = gen(PRESPLIT_UNIFORM, 40, &gb);
    char text[40 * 40];
    size_t len = 0;
    for (size_t i = 0; i < 39; i++) {
        for (size_t j = 0; j < g[i].len; j++) {
            uint8_t c = g[i].data[j];
            if (c == ',' || c == ' ')
                len += (size_t)snprintf(text + len, sizeof text - len, "\\x%02X", c);
            else
                len += key_format(keyref_of(&c, 1), text + len, sizeof text - len);
        }
        if (i + 1 < 39)
            text[len++] = ','; /* between keys: a trailing ',' is an empty key */
    }
    text[len] = '\0';
    assert_non_null(strstr(text, "\\x2C")); /* the case arises: 0x2C appears */
    keyref *k;
    uint8_t *b;
    size_t n;
    char err[256];
    assert_int_equal(presplit_parse_list(text, &k, &b, &n, err, sizeof err), 0);
    assert_int_equal(n, 39);
    for (size_t i = 0; i < 39; i++)
        assert_int_equal(key_compare(g[i], k[i]), 0);
    free(k);
    free(b);
    free(g);
    free(gb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hex_16_regions_like_hbase),
        cmocka_unit_test(test_hex_2_and_3_regions),
        cmocka_unit_test(test_decimal_2_and_3_regions),
        cmocka_unit_test(test_uniform_16_regions_like_hbase),
        cmocka_unit_test(test_uniform_2_and_3_regions),
        cmocka_unit_test(test_fewer_than_two_regions_fails),
        cmocka_unit_test(test_decimal_too_granular_fails),
        cmocka_unit_test(test_last_region_gets_the_slop),
        cmocka_unit_test(test_uniform_divides_two_to_the_64),
        cmocka_unit_test(test_large_n_ascending),
        cmocka_unit_test(test_every_small_n_makes_a_table),
        cmocka_unit_test(test_file_with_comments_blank_lines_and_crlf),
        cmocka_unit_test(test_file_empty_gives_no_keys),
        cmocka_unit_test(test_file_bad_escape_column),
        cmocka_unit_test(test_file_not_ascending_shows_both_keys),
        cmocka_unit_test(test_file_key_too_long),
        cmocka_unit_test(test_file_missing),
        cmocka_unit_test(test_file_error_truncated_to_errcap),
        cmocka_unit_test(test_file_keys_make_a_table),
        cmocka_unit_test(test_file_endless_line_is_refused_not_taken_for_the_end),
        cmocka_unit_test(test_file_line_limit_is_exact),
        cmocka_unit_test(test_file_read_errors_are_reported),
        cmocka_unit_test(test_file_byte_order_mark_is_skipped),
        cmocka_unit_test(test_file_path_control_bytes_escaped),
        cmocka_unit_test(test_list_separators),
        cmocka_unit_test(test_list_empty_keys_are_refused),
        cmocka_unit_test(test_list_errors),
        cmocka_unit_test(test_list_round_trips_generated_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
