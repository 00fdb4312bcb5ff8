/* test_keyscheme.c -- bytes per field and per preset, ordering properties,
 * Phoenix hash vectors, salt spread, UID order, parse errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/keyscheme.h"

/* 2024-01-01T00:00:00Z in ms = 0x0000018CC251F400. */
#define TS0 UINT64_C(1704067200000)
static const uint8_t TS0_BE[8] = { 0x00, 0x00, 0x01, 0x8C, 0xC2, 0x51, 0xF4, 0x00 };

static keyscheme *parse_ok(const char *expr)
{
    char err[256];
    keyscheme *ks = NULL;
    if (keyscheme_parse(expr, &ks, err, sizeof err) != 0)
        fail_msg("'%s' did not parse: %s", expr, err);
    assert_non_null(ks);
    return ks;
}

static record rec_at(uint64_t ts_ms)
{
    record r = { ts_ms, 0, 0, 0, 0 };
    return r;
}

/* Encodes rec with a fresh encoder into out (KEYSCHEME_MAX_KEY bytes);
 * returns the key length. */
static size_t encode_once(const char *expr, const record *rec, uint8_t *out)
{
    keyscheme *ks = parse_ok(expr);
    keyencoder *ke = keyencoder_new(ks, 1);
    assert_non_null(ke);
    size_t n = keyencoder_encode(ke, rec, out, KEYSCHEME_MAX_KEY);
    assert_true(n >= 1 && n <= keyscheme_max_len(ks));
    keyencoder_free(ke);
    keyscheme_free(ks);
    return n;
}

static void expect_key(const char *expr, const record *rec, const void *want, size_t want_len)
{
    uint8_t key[KEYSCHEME_MAX_KEY];
    size_t n = encode_once(expr, rec, key);
    assert_int_equal(n, want_len);
    assert_memory_equal(key, want, want_len);
}

static void expect_text(const char *expr, const record *rec, const char *want)
{
    expect_key(expr, rec, want, strlen(want));
}

/* ---- fields ---- */

static void test_ts(void **state)
{
    (void)state;
    record r = rec_at(TS0);
    expect_key("ts", &r, TS0_BE, 8);
    expect_text("ts:str", &r, "1704067200000");
    r.ts_ms = 42;
    expect_text("ts:str", &r, "0000000000042");
}

static void test_entity_and_seq(void **state)
{
    (void)state;
    record r = { TS0, 42, 0x01020304u, 7, 3 };
    expect_key("entity", &r, "\x01\x02\x03\x04", 4);
    expect_text("entity:str", &r, "metric.007/host0003");
    expect_key("seq", &r, "\0\0\0\0\0\0\0\x2a", 8);
    expect_text("seq:str", &r, "00000000000000000042");
    r.seq = UINT64_MAX;
    expect_text("seq:str", &r, "18446744073709551615");
    expect_key("entity seq:str ts", &r, "\x01\x02\x03\x04" "18446744073709551615"
               "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 32);
}

static void test_reverse(void **state)
{
    (void)state;
    record r = rec_at(TS0);
    expect_key("reverse(ts)", &r, "\x00\xF4\x51\xC2\x8C\x01\x00\x00", 8);
    expect_text("reverse(ts:str)", &r, "0000027604071");
    /* transforms compose: a reversed 2-byte hash prefix, then ts */
    uint8_t plain[KEYSCHEME_MAX_KEY], mirrored[KEYSCHEME_MAX_KEY];
    size_t n = encode_once("hash(300, ts)", &r, plain);
    assert_int_equal(n, 2);
    assert_int_equal(encode_once("reverse(hash(300, ts)) ts", &r, mirrored), 10);
    assert_memory_equal(mirrored + 2, TS0_BE, 8);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(mirrored[i], plain[n - 1 - i]);
}

/* Phoenix SaltingUtil: h = 1; h = 31*h + (signed byte); bucket = |h| % N.
 * By hand, entity 0x000001FF = bytes 00 00 01 FF:
 *   1 -> 31*1+0 = 31 -> 31*31+0 = 961 -> 961*31+1 = 29792
 *     -> 29792*31 + (-1) = 923551;  923551 % 8 = 7,  923551 % 20 = 11.
 * Entity 0x00000080 = bytes 00 00 00 80 (0x80 is -128 as a Java byte):
 *   1 -> 31 -> 961 -> 29791 -> 29791*31 - 128 = 923393;  923393 % 20 = 13
 *   (an unsigned byte would give 923649 % 20 = 9).
 * TS0's 8 bytes hash to -1887723321 (the int wraps): |h| % 8 = 1,
 * % 256 = 57; TS0+1 hashes to -1887723320: % 8 = 0. These agree with
 * SaltingUtil.getSaltingByte run under Java. */
static void test_hash_phoenix_vectors(void **state)
{
    (void)state;
    record r = { TS0, 0, 0x000001FFu, 0, 0 };
    expect_key("hash(8, entity)", &r, "\x07", 1);
    expect_key("hash(20, entity)", &r, "\x0B", 1);
    r.entity = 0x80;
    expect_key("hash(20, entity)", &r, "\x0D", 1);

    r = rec_at(TS0);
    uint8_t want[9] = { 0x01 };
    memcpy(want + 1, TS0_BE, 8);
    expect_key("hash(8, ts) ts", &r, want, 9);
    expect_key("hash(256, ts)", &r, "\x39", 1);
    expect_key("hash(1000, ts)", &r, "\x01\x41", 2); /* 1887723321 % 1000 = 321 */
    r.ts_ms = TS0 + 1;
    expect_key("hash(8, ts)", &r, "\x00", 1);
    /* inner fields are hashed as one byte string, here entity 0x000001FF
     * then TS0 (12 bytes, h = 1237269093; % 256 = 101, Java-checked) */
    record e = { TS0, 0, 0x000001FFu, 0, 0 };
    expect_key("hash(256, entity ts)", &e, "\x65", 1);
    expect_key("hash(256, entity reverse(reverse(ts)))", &e, "\x65", 1);
}

static void test_hash_deterministic_and_spread(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("hash(8, ts) ts");
    keyencoder *e1 = keyencoder_new(ks, 1), *e2 = keyencoder_new(ks, 999);
    long hits[8] = { 0 };
    for (uint64_t i = 0; i < 8000; i++) {
        record r = rec_at(TS0 + i);
        uint8_t k1[16], k2[16];
        size_t n1 = keyencoder_encode(e1, &r, k1, sizeof k1);
        size_t n2 = keyencoder_encode(e2, &r, k2, sizeof k2);
        assert_int_equal(n1, 9);
        assert_int_equal(n2, 9);
        assert_memory_equal(k1, k2, 9);
        assert_true(k1[0] < 8);
        hits[k1[0]]++;
    }
    for (int b = 0; b < 8; b++)
        assert_true(hits[b] > 0);
    keyencoder_free(e1);
    keyencoder_free(e2);
    keyscheme_free(ks);
}

/* hash() input is discarded: a scheme whose peak exceeds its max_len must
 * encode correctly into a buffer of exactly max_len bytes. */
static void test_hash_peak_small_buffer(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("hash(8, ts ts ts)");
    assert_int_equal(keyscheme_max_len(ks), 1);
    keyencoder *ke = keyencoder_new(ks, 1);
    record r = rec_at(TS0);
    uint8_t tight[1], roomy[64];
    assert_int_equal(keyencoder_encode(ke, &r, tight, sizeof tight), 1);
    assert_int_equal(keyencoder_encode(ke, &r, roomy, sizeof roomy), 1);
    assert_int_equal(tight[0], roomy[0]);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

static void salt_counts(const char *expr, uint64_t seed, long *counts, size_t buckets, int draws)
{
    keyscheme *ks = parse_ok(expr);
    keyencoder *ke = keyencoder_new(ks, seed);
    size_t width = 0;
    assert_int_equal(keyscheme_buckets(ks, &width), buckets);
    for (int i = 0; i < draws; i++) {
        record r = rec_at(TS0);
        uint8_t k[16];
        assert_int_equal(keyencoder_encode(ke, &r, k, sizeof k), width + 8);
        uint32_t b = width == 1 ? k[0] : (uint32_t)k[0] << 8 | k[1];
        assert_true(b < buckets);
        assert_memory_equal(k + width, TS0_BE, 8);
        counts[b]++;
    }
    keyencoder_free(ke);
    keyscheme_free(ks);
}

static void test_salt_uniform_and_reproducible(void **state)
{
    (void)state;
    long a[16] = { 0 }, b[16] = { 0 }, c[16] = { 0 };
    salt_counts("salt(16) ts", 7, a, 16, 16000);
    salt_counts("salt(16) ts", 7, b, 16, 16000);
    salt_counts("salt(16) ts", 8, c, 16, 16000);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    for (int i = 0; i < 16; i++)
        assert_true(a[i] > 800 && a[i] < 1200); /* mean 1000, sd about 31 */

    long *wide = calloc(1000, sizeof *wide);
    salt_counts("salt(1000) ts", 3, wide, 1000, 100000);
    for (int i = 0; i < 1000; i++)
        assert_true(wide[i] > 0);
    free(wide);
}

/* Same seed, same keys, record after record. */
static void test_salt_sequence_reproducible(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("salt(8) ts");
    keyencoder *a = keyencoder_new(ks, 11), *b = keyencoder_new(ks, 11);
    for (int i = 0; i < 100; i++) {
        record r = rec_at(TS0 + (uint64_t)i);
        uint8_t ka[16], kb[16];
        keyencoder_encode(a, &r, ka, sizeof ka);
        keyencoder_encode(b, &r, kb, sizeof kb);
        assert_memory_equal(ka, kb, 9);
    }
    keyencoder_free(a);
    keyencoder_free(b);
    keyscheme_free(ks);
}

static void test_bucket_prefix(void **state)
{
    (void)state;
    size_t width = 99;
    uint8_t p[2];
    keyscheme *ks = parse_ok("salt(256) ts");
    assert_int_equal(keyscheme_buckets(ks, &width), 256);
    assert_int_equal(width, 1);
    assert_int_equal(keyscheme_bucket_prefix(ks, 255, p), 1);
    assert_int_equal(p[0], 0xFF);
    keyscheme_free(ks);

    ks = parse_ok("hash(300, ts) ts");
    assert_int_equal(keyscheme_buckets(ks, &width), 300);
    assert_int_equal(width, 2);
    assert_int_equal(keyscheme_bucket_prefix(ks, 299, p), 2);
    assert_int_equal(p[0], 0x01);
    assert_int_equal(p[1], 0x2B);
    keyscheme_free(ks);

    ks = parse_ok("ts salt(8)"); /* a bucket field not in front is no prefix */
    assert_int_equal(keyscheme_buckets(ks, &width), 0);
    keyscheme_free(ks);
    ks = parse_ok("salt(65536) ts");
    assert_int_equal(keyscheme_buckets(ks, &width), 65536);
    assert_int_equal(width, 2);
    keyscheme_free(ks);
}

/* ---- ordering ---- */

static int key_less(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    int c = memcmp(a, b, n);
    return c < 0 || (c == 0 && na < nb);
}

static void expect_sorted_by_time(const char *expr)
{
    keyscheme *ks = parse_ok(expr);
    keyencoder *ke = keyencoder_new(ks, 1);
    uint8_t prev[64], cur[64];
    size_t np = 0;
    for (uint64_t i = 0; i < 5000; i++) {
        record r = { TS0 + i * 997, i, 5, 1, 1 };
        size_t n = keyencoder_encode(ke, &r, cur, sizeof cur);
        if (i)
            assert_true(key_less(prev, np, cur, n));
        memcpy(prev, cur, n);
        np = n;
    }
    keyencoder_free(ke);
    keyscheme_free(ks);
}

static void test_monotonic_keys_sort_in_time_order(void **state)
{
    (void)state;
    expect_sorted_by_time("ts");
    expect_sorted_by_time("ts:str");
    expect_sorted_by_time("entity ts");
    expect_sorted_by_time("seq");
    expect_sorted_by_time("seq:str");
}

static void test_reversed_keys_do_not(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("reverse(ts)");
    keyencoder *ke = keyencoder_new(ks, 1);
    uint8_t a[8], b[8];
    int out_of_order = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        record ra = rec_at(TS0 + i), rb = rec_at(TS0 + i + 1);
        keyencoder_encode(ke, &ra, a, sizeof a);
        keyencoder_encode(ke, &rb, b, sizeof b);
        assert_int_not_equal(a[0], b[0]); /* consecutive ts differ in the first byte */
        out_of_order += !key_less(a, 8, b, 8);
    }
    assert_true(out_of_order > 0); /* 0xFF -> 0x00 at every carry */
    keyencoder_free(ke);
    keyscheme_free(ks);
}

/* ---- OpenTSDB ---- */

static void test_uid_first_use_order(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("uid(metric, 3) uid(host, 2)");
    assert_int_equal(keyscheme_max_len(ks), 5);
    keyencoder *ke = keyencoder_new(ks, 1);
    const struct { uint32_t metric, host; const char *key; } steps[] = {
        { 7, 9, "\x00\x00\x01" "\x00\x01" },   /* metric 7 seen first: uid 1 */
        { 2, 9, "\x00\x00\x02" "\x00\x01" },
        { 7, 4, "\x00\x00\x01" "\x00\x02" },
        { 1000, 0, "\x00\x00\x03" "\x00\x03" }, /* grows the table */
        { 2, 4, "\x00\x00\x02" "\x00\x02" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        record r = { TS0, i, 0, steps[i].metric, steps[i].host };
        uint8_t k[8];
        assert_int_equal(keyencoder_encode(ke, &r, k, sizeof k), 5);
        assert_memory_equal(k, steps[i].key, 5);
    }
    /* tables are per encoder: a new run starts again from 1 */
    keyencoder *fresh = keyencoder_new(ks, 1);
    record r = { TS0, 0, 0, 2, 4 };
    uint8_t k[8];
    keyencoder_encode(fresh, &r, k, sizeof k);
    assert_memory_equal(k, "\x00\x00\x01" "\x00\x01", 5);
    keyencoder_free(fresh);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

static void test_hour(void **state)
{
    (void)state;
    /* 2024-01-01T00:30:00.123Z -> base hour 1704067200 = 0x65920080 */
    record r = rec_at(UINT64_C(1704069000123));
    expect_key("hour(ts)", &r, "\x65\x92\x00\x80", 4);
    r.ts_ms = TS0 + 3600 * 1000 - 1;
    expect_key("hour(ts)", &r, "\x65\x92\x00\x80", 4);
    r.ts_ms = TS0 + 3600 * 1000;
    expect_key("hour(ts)", &r, "\x65\x92\x0E\x90", 4);
}

static void test_opentsdb_preset_bytes(void **state)
{
    (void)state;
    char expr[128];
    assert_int_equal(keyscheme_preset_expr("opentsdb", 8, expr, sizeof expr), 0);
    keyscheme *ks = parse_ok(expr);
    assert_int_equal(keyscheme_max_len(ks), 13);
    keyencoder *ke = keyencoder_new(ks, 1);
    uint8_t k[16];
    /* [metric uid][base hour][tagk uid of "host"][tagv uid of the host] */
    record r1 = { UINT64_C(1704069000123), 0, 0, 7, 3 };
    record r2 = { UINT64_C(1704069000123), 1, 0, 7, 5 };
    record r3 = { UINT64_C(1704069000123), 2, 0, 1, 3 };
    assert_int_equal(keyencoder_encode(ke, &r1, k, sizeof k), 13);
    assert_memory_equal(k, "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x01", 13);
    keyencoder_encode(ke, &r2, k, sizeof k);
    assert_memory_equal(k, "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x02", 13);
    keyencoder_encode(ke, &r3, k, sizeof k);
    assert_memory_equal(k, "\x00\x00\x02" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x01", 13);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

/* ---- presets ---- */

static void test_presets(void **state)
{
    (void)state;
    static const struct { const char *name, *expr; size_t max_len; } want[] = {
        { "monotonic", "ts", 8 },
        { "salted", "salt(8) ts", 9 },
        { "hashed", "hash(8, ts) ts", 9 },
        { "reversed", "reverse(ts)", 8 },
        { "promoted", "entity ts", 12 },
        { "opentsdb", "uid(metric, 3) hour(ts) tags", 13 },
    };
    assert_int_equal(keyscheme_preset_count(), 6);
    for (size_t i = 0; i < 6; i++) {
        char expr[128];
        assert_string_equal(keyscheme_preset_name(i), want[i].name);
        assert_int_equal(keyscheme_preset_expr(want[i].name, 8, expr, sizeof expr), 0);
        assert_string_equal(expr, want[i].expr);
        keyscheme *ks = parse_ok(expr);
        assert_string_equal(keyscheme_expr(ks), expr); /* already normal */
        assert_int_equal(keyscheme_max_len(ks), want[i].max_len);
        keyscheme_free(ks);
    }
    char expr[128];
    assert_int_equal(keyscheme_preset_expr("salted", 300, expr, sizeof expr), 0);
    assert_string_equal(expr, "salt(300) ts");
    assert_int_equal(keyscheme_preset_expr("nosuch", 8, expr, sizeof expr), -1);
    assert_int_equal(keyscheme_preset_expr("hashed", 8, expr, 5), -1); /* too small */
    assert_null(keyscheme_preset_name(6));
}

static void test_preset_bytes(void **state)
{
    (void)state;
    record r = { TS0, 0, 0x00000102u, 1, 2 };
    expect_key("ts", &r, TS0_BE, 8);
    expect_key("entity ts", &r, "\x00\x00\x01\x02" "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 12);
    expect_key("reverse(ts)", &r, "\x00\xF4\x51\xC2\x8C\x01\x00\x00", 8);
    expect_key("hash(8, ts) ts", &r, "\x01" "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 9);
}

/* ---- the language ---- */

static void test_normalised_expression(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "  hash( 8 ,ts   )ts ", "hash(8, ts) ts" },
        { "salt(008)\tts:str", "salt(8) ts:str" },
        { "uid(metric,3) hour( ts ) tags", "uid(metric, 3) hour(ts) tags" },
        { "hash(4,entity   ts) reverse(seq : str)", "hash(4, entity ts) reverse(seq:str)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        keyscheme *ks = parse_ok(cases[i][0]);
        assert_string_equal(keyscheme_expr(ks), cases[i][1]);
        keyscheme_free(ks);
    }
}

static void expect_error(const char *expr, const char *want_prefix, const char *also)
{
    static char sentinel;
    char err[512];
    keyscheme *ks = (keyscheme *)(void *)&sentinel; /* must be reset to NULL */
    assert_int_equal(keyscheme_parse(expr, &ks, err, sizeof err), -1);
    assert_null(ks);
    if (strncmp(err, want_prefix, strlen(want_prefix)) != 0)
        fail_msg("'%s': got \"%s\", want prefix \"%s\"", expr, err, want_prefix);
    if (also && !strstr(err, also))
        fail_msg("'%s': got \"%s\", want it to mention \"%s\"", expr, err, also);
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_error("", "column 1: expected a field name (", "found end of input");
    expect_error("   ", "column 4: expected a field name", "found end of input");
    expect_error("ts foo", "column 4: expected a field name (ts, entity, seq, salt, hash, "
                 "reverse, uid, hour, tags) or end of input, found 'foo'", NULL);
    expect_error("salt(8x) ts", "column 7: expected ')' after the bucket count, found 'x'", NULL);
    expect_error("salt(0) ts", "column 6: expected a bucket count 1..65536, found '0'", NULL);
    expect_error("salt(65537) ts", "column 6: expected a bucket count", "found '65537'");
    expect_error("salt(99999999999999999999999)", "column 6: expected a bucket count", NULL);
    expect_error("salt 8", "column 6: expected '(' after salt, found '8'", NULL);
    expect_error("hash(8 ts) ts", "column 8: expected ',' after the bucket count, found 'ts'", NULL);
    expect_error("hash(8, ) ts", "column 9: expected a field name", "found ')'");
    expect_error("hash(8, ts", "column 11: expected a field name", "or ')', found end of input");
    expect_error("salt(8):str", "column 8: expected no ':str' after salt", "found ':'");
    expect_error("ts:txt", "column 4: expected 'str' after ':', found 'txt'", NULL);
    expect_error("uid(tagk, 3)", "column 5: expected a name kind", "found 'tagk'");
    expect_error("uid(metric, 9)", "column 13: expected a UID width 1..8, found '9'", NULL);
    expect_error("reverse(ts ts)", "column 12: expected ')' after the field", "found 'ts'");
    expect_error("hour(seq)", "column 6: expected 'ts', found 'seq'", NULL);
    expect_error("ts)", "column 3: expected a field name", "found ')'");
    expect_error("ts \xC3\xA9", "column 4: expected a field name", "found '\xC3\xA9'");
    expect_error("tags(3)", "column 5: expected a field name", "found '('");

    /* nesting: 16 levels parse, 17 do not */
    char deep[256] = "", deeper[300] = "";
    for (int i = 0; i < 15; i++)
        strcat(deep, "reverse(");
    strcat(deep, "ts");
    for (int i = 0; i < 15; i++)
        strcat(deep, ")");
    keyscheme *ks = parse_ok(deep);
    keyscheme_free(ks);
    snprintf(deeper, sizeof deeper, "reverse(%s)", deep);
    expect_error(deeper, "column 129: expected at most 16 nested fields", NULL);

    /* key length: 512 timestamps are 4096 bytes, 513 too many */
    char *many = malloc(513 * 3 + 1);
    many[0] = '\0';
    for (int i = 0; i < 512; i++)
        strcat(many, "ts ");
    ks = parse_ok(many);
    assert_int_equal(keyscheme_max_len(ks), KEYSCHEME_MAX_KEY);
    keyscheme_free(ks);
    strcat(many, "ts");
    expect_error(many, "column 1: expected a key of at most 4096 bytes", "4104");
    free(many);

    /* a small or absent error buffer is never overrun */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    assert_int_equal(keyscheme_parse("nope", &ks, tiny, 4), -1);
    assert_string_equal(tiny, "col");
    assert_int_equal(tiny[4], 'x');
    assert_int_equal(keyscheme_parse("nope", &ks, NULL, 0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ts),
        cmocka_unit_test(test_entity_and_seq),
        cmocka_unit_test(test_reverse),
        cmocka_unit_test(test_hash_phoenix_vectors),
        cmocka_unit_test(test_hash_deterministic_and_spread),
        cmocka_unit_test(test_hash_peak_small_buffer),
        cmocka_unit_test(test_salt_uniform_and_reproducible),
        cmocka_unit_test(test_salt_sequence_reproducible),
        cmocka_unit_test(test_bucket_prefix),
        cmocka_unit_test(test_monotonic_keys_sort_in_time_order),
        cmocka_unit_test(test_reversed_keys_do_not),
        cmocka_unit_test(test_uid_first_use_order),
        cmocka_unit_test(test_hour),
        cmocka_unit_test(test_opentsdb_preset_bytes),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_preset_bytes),
        cmocka_unit_test(test_normalised_expression),
        cmocka_unit_test(test_parse_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
