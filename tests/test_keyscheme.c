/* test_keyscheme.c -- bytes per field and per preset, ordering properties,
 * Phoenix and OpenTSDB salt vectors (worked by hand from the published
 * algorithms), MD5 vectors (RFC 1321), salt spread, UID order, presets as
 * expressions, parse errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/key.h"
#include "workloads/keyscheme.h"
#include "workloads/record.h"

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
    record r = { .ts_ms = ts_ms };
    return r;
}

/* A time-series record (naming NAMING_SERIES). */
static record series(uint64_t ts_ms, uint64_t seq, uint32_t entity, uint32_t metric, uint32_t host)
{
    record r = { .ts_ms = ts_ms, .seq = seq, .entity = entity, .metric = metric, .host = host };
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
    record r = series(TS0, 42, 0x01020304u, 7, 3);
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

/* Phoenix SaltingUtil: h = 1; h = 31*h + (signed byte);
 * bucket = Math.abs(h % N), which is |h| mod N.
 * By hand, entity 0x000001FF = bytes 00 00 01 FF:
 *   1 -> 31*1+0 = 31 -> 31*31+0 = 961 -> 961*31+1 = 29792
 *     -> 29792*31 + (-1) = 923551;  923551 % 8 = 7,  923551 % 20 = 11.
 * Entity 0x00000080 = bytes 00 00 00 80 (0x80 is -128 as a Java byte):
 *   1 -> 31 -> 961 -> 29791 -> 29791*31 - 128 = 923393;  923393 % 20 = 13
 *   (an unsigned byte would give 923649 % 20 = 9).
 * TS0's 8 bytes hash to -1887723321 (the int wraps): |h| % 8 = 1,
 * % 256 = 57; TS0+1 hashes to -1887723320: % 8 = 0. These agree with
 * SaltingUtil.getSaltingByte of the released Phoenix jar: each key is in
 * tests/data/phoenix_salt.tsv (test_salt_reference.c checks them all). */
static void test_hash_phoenix_vectors(void **state)
{
    (void)state;
    record r = series(TS0, 0, 0x000001FFu, 0, 0);
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
    record e = series(TS0, 0, 0x000001FFu, 0, 0);
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
        record r = series(TS0 + i * 997, i, 5, 1, 1);
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
        record r = series(TS0, i, 0, steps[i].metric, steps[i].host);
        uint8_t k[8];
        assert_int_equal(keyencoder_encode(ke, &r, k, sizeof k), 5);
        assert_memory_equal(k, steps[i].key, 5);
    }
    /* tables are per encoder: a new run starts again from 1 */
    keyencoder *fresh = keyencoder_new(ks, 1);
    record r = series(TS0, 0, 0, 2, 4);
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
    record r1 = series(UINT64_C(1704069000123), 0, 0, 7, 3);
    record r2 = series(UINT64_C(1704069000123), 1, 0, 7, 5);
    record r3 = series(UINT64_C(1704069000123), 2, 0, 1, 3);
    assert_int_equal(keyencoder_encode(ke, &r1, k, sizeof k), 13);
    assert_memory_equal(k, "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x01", 13);
    keyencoder_encode(ke, &r2, k, sizeof k);
    assert_memory_equal(k, "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x02", 13);
    keyencoder_encode(ke, &r3, k, sizeof k);
    assert_memory_equal(k, "\x00\x00\x02" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x01", 13);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

/* ---- revts ---- */

/* Long.MAX_VALUE - TS0 = 9223372036854775807 - 1704067200000
 * = 9223370332787575807 = 0x7FFFFE733DAE0BFF. */
static const uint8_t REVTS0_BE[8] = { 0x7F, 0xFF, 0xFE, 0x73, 0x3D, 0xAE, 0x0B, 0xFF };

static void test_revts(void **state)
{
    (void)state;
    record r = rec_at(TS0);
    expect_key("revts", &r, REVTS0_BE, 8);
    expect_text("revts:str", &r, "9223370332787575807");
    r.ts_ms = 0;
    expect_key("revts", &r, "\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 8);
    r.ts_ms = UINT64_C(9223372036854775807) - 42;
    expect_text("revts:str", &r, "0000000000000000042"); /* 19 digits, zero-padded */
    r.ts_ms = UINT64_MAX;                                  /* beyond Long.MAX_VALUE */
    expect_text("revts:str", &r, "0000000000000000000");
    keyscheme *ks = parse_ok("revts:str");
    assert_int_equal(keyscheme_max_len(ks), 19);
    keyscheme_free(ks);
}

/* Newest first: for ts1 < ts2, revts(ts2) sorts before revts(ts1), in both
 * forms, and after an entity prefix. */
static void test_revts_sorts_newest_first(void **state)
{
    (void)state;
    static const char *const exprs[] = { "revts", "revts:str", "entity revts" };
    for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++) {
        keyscheme *ks = parse_ok(exprs[e]);
        keyencoder *ke = keyencoder_new(ks, 1);
        uint8_t older[32], newer[32];
        for (uint64_t i = 0; i < 2000; i++) {
            record r1 = series(TS0 + i * 7919, 0, 9, 0, 0), r2 = r1;
            r2.ts_ms += 1 + i % 5;
            size_t n1 = keyencoder_encode(ke, &r1, older, sizeof older);
            size_t n2 = keyencoder_encode(ke, &r2, newer, sizeof newer);
            assert_int_equal(n1, n2);
            assert_true(memcmp(newer, older, n1) < 0);
        }
        keyencoder_free(ke);
        keyscheme_free(ks);
    }
}

/* ---- literals ---- */

static void test_literals(void **state)
{
    (void)state;
    record r = series(TS0, 42, 0, 7, 3);
    expect_text("\"foo\"", &r, "foo");
    expect_text("entity:str \"#\" ts:str", &r, "metric.007/host0003#1704067200000");
    expect_text("seq:str - ts:str", &r, "00000000000000000042-1704067200000");
    expect_key("\"\\x00\\\"\\\\\\xff\"", &r, "\x00\"\\\xFF", 4);
    expect_key("\"\\x00ab\"", &r, "\x00" "ab", 3);
    expect_text("entity:str\"#\"ts:str", &r, "metric.007/host0003#1704067200000");
    /* every separator is its own byte */
    const char *seps = "#-|/.~+@!=";
    for (const char *c = seps; *c; c++) {
        char expr[8];
        snprintf(expr, sizeof expr, "%c ts", *c);
        uint8_t want[9] = { (uint8_t)*c };
        memcpy(want + 1, TS0_BE, 8);
        expect_key(expr, &r, want, 9);
    }
    keyscheme *ks = parse_ok("ts \"\" ts"); /* an empty string is allowed inside a key */
    assert_int_equal(keyscheme_max_len(ks), 16);
    keyscheme_free(ks);
}

/* ---- md5 ---- */

static void test_md5(void **state)
{
    (void)state;
    record r = rec_at(TS0);
    /* RFC 1321, A.5 test suite */
    expect_key("md5(\"\")", &r, "\xd4\x1d\x8c\xd9\x8f\x00\xb2\x04\xe9\x80\x09\x98\xec\xf8\x42\x7e", 16);
    expect_text("md5(\"\"):str", &r, "d41d8cd98f00b204e9800998ecf8427e");
    expect_text("md5(\"abc\"):str", &r, "900150983cd24fb0d6963f7d28e17f72");
    expect_text("md5(\"a\" \"bc\"):str", &r, "900150983cd24fb0d6963f7d28e17f72"); /* one byte string */
    expect_key("md5(\"abc\")[0:4]", &r, "\x90\x01\x50\x98", 4);
    expect_text("md5(\"abc\")[14:16]:str", &r, "7f72");
    /* MD5 of TS0's 8 bytes = 87e248c7e2668d55d107686bb173da4e */
    expect_key("md5(ts)", &r, "\x87\xe2\x48\xc7\xe2\x66\x8d\x55\xd1\x07\x68\x6b\xb1\x73\xda\x4e", 16);
    expect_text("md5(ts):str", &r, "87e248c7e2668d55d107686bb173da4e");
    expect_text("md5(ts)[0:4]:str", &r, "87e248c7");
    uint8_t want[12] = { 0x87, 0xe2, 0x48, 0xc7 };
    memcpy(want + 4, TS0_BE, 8);
    expect_key("md5(ts)[0:4] ts", &r, want, 12);

    static const struct { const char *expr; size_t len; } lens[] = {
        { "md5(ts)", 16 }, { "md5(ts):str", 32 }, { "md5(ts)[0:4]", 4 },
        { "md5(ts)[3:4]:str", 2 }, { "md5(entity:str)", 16 },
    };
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        keyscheme *ks = parse_ok(lens[i].expr);
        assert_int_equal(keyscheme_max_len(ks), lens[i].len);
        keyscheme_free(ks);
    }
}

/* md5's input is discarded: its peak is above max_len; a buffer of exactly
 * max_len bytes still works. */
static void test_md5_small_buffer(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("md5(ts ts ts)[0:2]");
    assert_int_equal(keyscheme_max_len(ks), 2);
    keyencoder *ke = keyencoder_new(ks, 1);
    record r = rec_at(TS0);
    uint8_t tight[2], roomy[64];
    assert_int_equal(keyencoder_encode(ke, &r, tight, sizeof tight), 2);
    assert_int_equal(keyencoder_encode(ke, &r, roomy, sizeof roomy), 2);
    assert_memory_equal(tight, roomy, 2);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

/* Consecutive timestamps land far apart: the first byte differs for all but
 * about 1 in 256 pairs. */
static void test_md5_scatters(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("md5(ts)");
    keyencoder *ke = keyencoder_new(ks, 1);
    int differ = 0;
    uint8_t prev[16], cur[16];
    for (uint64_t i = 0; i <= 1000; i++) {
        record r = rec_at(TS0 + i);
        keyencoder_encode(ke, &r, cur, sizeof cur);
        if (i)
            differ += prev[0] != cur[0];
        memcpy(prev, cur, sizeof cur);
    }
    assert_true(differ > 980);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

/* ---- names: revdomain, key, entity:str in every naming style ---- */

static void test_revdomain(void **state)
{
    (void)state;
    record r = rec_at(TS0);
    expect_text("revdomain(\"www.example.com\")", &r, "com.example.www");
    expect_text("revdomain(\"localhost\")", &r, "localhost");
    expect_text("revdomain(\"a..b\")", &r, "b..a");
    expect_text("revdomain(\".a.\")", &r, ".a.");
    expect_text("revdomain(\"\") \"x\"", &r, "x");
    record d = { .ts_ms = TS0, .entity = 42 * 4 + 1, .naming = NAMING_DOMAIN };
    expect_text("entity:str", &d, "mail.site00042.com");
    expect_text("revdomain(entity:str)", &d, "com.site00042.mail");
    record s = series(TS0, 0, 0, 7, 3);
    expect_text("revdomain(entity:str)", &s, "007/host0003.metric");
}

static void test_key(void **state)
{
    (void)state;
    static const uint8_t raw[5] = { 'r', 0x00, 0xFF, '\\', 'w' };
    record t = { .ts_ms = TS0, .naming = NAMING_KEY, .key = raw, .key_len = 5 };
    expect_key("key", &t, raw, 5);
    expect_text("entity:str", &t, "r\\x00\\xFF\\x5Cw"); /* shell form, as record_name gives it */
    uint8_t k[KEYSCHEME_MAX_KEY];
    assert_int_equal(encode_once("salt(8) key", &t, k), 6);
    assert_true(k[0] < 8);
    assert_memory_equal(k + 1, raw, 5);

    /* no key given: the entity's name */
    record s = series(TS0, 0, 0, 7, 3);
    expect_text("key", &s, "metric.007/host0003");
    record u = { .ts_ms = TS0, .entity = 12, .naming = NAMING_USER };
    char name[RECORD_NAME_MAX + 1];
    size_t n = record_name(&u, name, sizeof name);
    assert_true(n > 4 && memcmp(name, "user", 4) == 0);
    expect_text("key", &u, name);
    expect_text("entity:str", &u, name);

    /* a trace key as long as HBase allows is kept whole; its shell form as
     * a name is cut at KEYSCHEME_MAX_NAME */
    uint8_t *big = malloc(KEY_MAX_LEN);
    memset(big, 0xff, KEY_MAX_LEN);
    record b = { .ts_ms = TS0, .naming = NAMING_KEY, .key = big, .key_len = KEY_MAX_LEN };
    keyscheme *ks = parse_ok("key");
    assert_int_equal(keyscheme_max_len(ks), KEYSCHEME_MAX_NAME);
    keyscheme_free(ks);
    assert_int_equal(encode_once("key", &b, k), KEY_MAX_LEN);
    assert_memory_equal(k, big, KEY_MAX_LEN);
    assert_int_equal(encode_once("entity:str", &b, k), KEYSCHEME_MAX_NAME);
    free(big);
}

/* ---- UIDs of entities, tags(2) ---- */

static void test_uid_entity(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("uid(entity, 2) uid(metric, 1)");
    keyencoder *ke = keyencoder_new(ks, 1);
    const struct { uint32_t entity, metric; const char *key; } steps[] = {
        { 500, 9, "\x00\x01" "\x01" },  /* its own UID space: both start at 1 */
        { 3, 9, "\x00\x02" "\x01" },
        { 500, 4, "\x00\x01" "\x02" },
        { 70000, 4, "\x00\x03" "\x02" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        record r = series(TS0, i, steps[i].entity, steps[i].metric, 0);
        uint8_t k[8];
        assert_int_equal(keyencoder_encode(ke, &r, k, sizeof k), 3);
        assert_memory_equal(k, steps[i].key, 3);
    }
    keyencoder_free(ke);
    keyscheme_free(ks);
}

/* tags(2) = [tagk "host"][tagv host][tagk "tag1"][tagv "t<tag>"]; tag
 * values share one UID space, as in OpenTSDB (one "tagv" UniqueId). */
static void test_tags_two(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("tags(2) uid(host, 1)");
    assert_int_equal(keyscheme_max_len(ks), 13);
    keyencoder *ke = keyencoder_new(ks, 1);
    const struct { uint32_t host, tag; const char *key; } steps[] = {
        { 3, 5, "\x00\x00\x01" "\x00\x00\x01" "\x00\x00\x02" "\x00\x00\x02" "\x01" },
        { 3, 6, "\x00\x00\x01" "\x00\x00\x01" "\x00\x00\x02" "\x00\x00\x03" "\x01" },
        { 4, 5, "\x00\x00\x01" "\x00\x00\x04" "\x00\x00\x02" "\x00\x00\x02" "\x04" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        record r = series(TS0, i, 0, 0, steps[i].host);
        r.tag = steps[i].tag;
        uint8_t k[16];
        assert_int_equal(keyencoder_encode(ke, &r, k, sizeof k), 13);
        assert_memory_equal(k, steps[i].key, 13);
    }
    keyencoder_free(ke);
    keyscheme_free(ks);
    record r = series(TS0, 0, 0, 0, 3);
    expect_key("tags(1)", &r, "\x00\x00\x01" "\x00\x00\x01", 6);
}

/* ---- Phoenix's salt: psalt ---- */

/* psalt(N) = Phoenix's salt byte of the bytes after it (SaltingUtil
 * getSaltedKey hashes the key behind the salt byte):
 *   bytes 00 00 01 FF: h = 923551 (worked in test_hash_phoenix_vectors);
 *     923551 % 8 = 7.
 *   TS0: h = -1887723321; Java: h % 8 = -1, Math.abs -> 1; h % 20 = -1 -> 1;
 *     h % 256 = -57 -> 57 = 0x39.
 *   bytes 96 00 F6 01 F4 FE (signed -106 0 -10 1 -12 -2):
 *     1 -> 31-106 = -75 -> -2325 -> -72085 -> -2234634 -> -69273666
 *     -> -2147483648 = Integer.MIN_VALUE. Math.abs(MIN % 20) = |-8| = 8
 *     (the old formula Math.abs(MIN) % 20 gave -8, a byte 0xF8).
 *   the trace key 72 00 FF 5C 77 ('r' 0 -1 '\' 'w'):
 *     1 -> 145 -> 4495 -> 139344 -> 4319756 -> 133912555; % 8 = 3. */
static void test_psalt_phoenix_vectors(void **state)
{
    (void)state;
    record r = rec_at(TS0);
    expect_key("psalt(8) \"\\x00\\x00\\x01\\xFF\"", &r, "\x07\x00\x00\x01\xFF", 5);
    uint8_t want[9] = { 0x01 };
    memcpy(want + 1, TS0_BE, 8);
    expect_key("psalt(8) ts", &r, want, 9);
    expect_key("psalt(20) ts", &r, want, 9);
    want[0] = 0x39;
    expect_key("psalt(256) ts", &r, want, 9);
    expect_key("psalt(20) \"\\x96\\x00\\xF6\\x01\\xF4\\xFE\"", &r, "\x08\x96\x00\xF6\x01\xF4\xFE", 7);
    expect_key("hash(20, \"\\x96\\x00\\xF6\\x01\\xF4\\xFE\")", &r, "\x08", 1);
    static const uint8_t raw[5] = { 'r', 0x00, 0xFF, '\\', 'w' };
    record t = { .ts_ms = TS0, .naming = NAMING_KEY, .key = raw, .key_len = 5 };
    expect_key("psalt(8) key", &t, "\x03" "r\x00\xFF\\w", 6);
    /* only what follows counts: ts before the salt is not hashed */
    record e = series(TS0, 0, 0x000001FFu, 0, 0);
    expect_key("ts psalt(8) entity", &e, "\x00\x00\x01\x8C\xC2\x51\xF4\x00" "\x07" "\x00\x00\x01\xFF", 13);
    /* nothing follows: the hash of no bytes is 1 */
    expect_key("ts psalt(8)", &e, "\x00\x00\x01\x8C\xC2\x51\xF4\x00" "\x01", 9);
}

/* Schemes a and b, each with an encoder seeded with `seed`, give the same
 * bytes for n varied records (salts drawn alike, UIDs assigned alike). */
static void assert_same_keys(const char *a_expr, const char *b_expr, uint64_t seed, uint64_t n)
{
    keyscheme *a = parse_ok(a_expr), *b = parse_ok(b_expr);
    keyencoder *ea = keyencoder_new(a, seed), *eb = keyencoder_new(b, seed);
    for (uint64_t j = 0; j < n; j++) {
        record r = series(TS0 + j * 1000 + j * 31, j * 7, (uint32_t)(j * 2654435761u),
                          (uint32_t)(j % 8), (uint32_t)(j % 5));
        r.tag = (uint32_t)(j % 3);
        uint8_t ka[KEYSCHEME_MAX_KEY], kb[KEYSCHEME_MAX_KEY];
        size_t na = keyencoder_encode(ea, &r, ka, sizeof ka);
        assert_int_equal(na, keyencoder_encode(eb, &r, kb, sizeof kb));
        assert_memory_equal(ka, kb, na);
    }
    keyencoder_free(ea);
    keyencoder_free(eb);
    keyscheme_free(a);
    keyscheme_free(b);
}

/* psalt(N) rest == hash(N, rest) rest, for any rest. */
static void test_psalt_is_hash_of_the_rest(void **state)
{
    (void)state;
    assert_same_keys("psalt(16) entity seq:str reverse(ts)",
                     "hash(16, entity seq:str reverse(ts)) entity seq:str reverse(ts)", 1, 500);
}

/* ---- OpenTSDB's salt: osalt ---- */

/* OpenTSDB RowKey.prefixKeyWithSalt: salt_base = the metric UID and the tag
 * bytes (the key after the salt without the 4 timestamp bytes);
 * modulo = Arrays.hashCode(salt_base) % buckets, negated if negative.
 * First record: salt_base = 00 00 01 | 00 00 01 00 00 01, so
 *   h = 31^9 + 31^6 + 31^3 + 1 = 26440509694144 = 6156 * 2^32 + 691019968;
 *   691019968 % 20 = 8, % 8 = 0, % 300 = 268 = 0x010C.
 * With tags(2): 00 00 01 | 00 00 01 00 00 01 00 00 02 00 00 02 hashes to
 *   -112887424; Java: % 20 = -4, negated: 4.
 * Nested, osalt(4) osalt(8) ...: the inner salt is 0 (above); the outer
 *   hashes 00 | 00 00 01 | 00 00 01 00 00 01: 31^10 + 31^6 + 31^3 + 1
 *   = 819628286980801 + 887533473 = 819629174514274 -> mod 2^32
 *   = 3385549410, as an int -909417886; % 4 = -2, negated: 2. */
static void test_osalt_opentsdb_vectors(void **state)
{
    (void)state;
    record r = series(UINT64_C(1704069000123), 0, 0, 7, 3);
    const char *rest = "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x01";
    uint8_t want[24];
    want[0] = 8;
    memcpy(want + 1, rest, 13);
    expect_key("osalt(20) uid(metric, 3) hour(ts) tags", &r, want, 14);
    want[0] = 0;
    expect_key("osalt(8) uid(metric, 3) hour(ts) tags", &r, want, 14);
    want[0] = 0x01;
    want[1] = 0x0C;
    memcpy(want + 2, rest, 13);
    expect_key("osalt(300) uid(metric, 3) hour(ts) tags", &r, want, 15);
    want[0] = 2;
    want[1] = 0;
    memcpy(want + 2, rest, 13);
    expect_key("osalt(4) osalt(8) uid(metric, 3) hour(ts) tags", &r, want, 15);

    record r2 = r;
    r2.tag = 9;
    want[0] = 4;
    memcpy(want + 1, "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01\x00\x00\x01\x00\x00\x02\x00\x00\x02", 19);
    expect_key("osalt(20) uid(metric, 3) hour(ts) tags(2)", &r2, want, 20);
}

/* A time field inside another field is hashed like any byte by an osalt
 * outside it, and an osalt nested in a hash skips only its own list's time
 * fields: 'osalt(5) hash(3, osalt(5) ts)' is [outer salt][hash byte b],
 * the outer salt Arrays.hashCode({b}) % 5 = (31 + b) % 5. Its skip slots
 * once covered the inner osalt's too, and the hash read past the key
 * (fuzz_keyscheme: heap-buffer-overflow in rest_hash). Also: an outer
 * osalt's time fields around a nested one keep their own slots. */
static void test_osalt_around_a_nested_osalt(void **state)
{
    (void)state;
    for (uint64_t seq = 0; seq < 50; seq++) {
        record r = series(UINT64_C(1704069000123) + seq * 7919, seq, seq % 7, 1, 0);
        uint8_t k[KEYSCHEME_MAX_KEY];
        assert_int_equal(encode_once("osalt(5) hash(3, osalt(5) ts)", &r, k), 2);
        assert_true(k[1] < 3);
        assert_int_equal(k[0], (31 + k[1]) % 5);
        /* [salt][ts 8][hash byte][ts 8]: the outer osalt hashes only the
         * hash byte, leaving out its own two ts */
        assert_int_equal(encode_once("osalt(7) ts hash(3, osalt(5) ts) ts", &r, k), 18);
        assert_true(k[9] < 3);
        assert_int_equal(k[0], (31 + k[9]) % 7);
    }
}

/* osalt leaves time fields out, wherever they stand in its list: the salt
 * stays with the series, hour after hour. */
static void test_osalt_ignores_time(void **state)
{
    (void)state;
    static const char *const exprs[] = {
        "osalt(20) uid(metric, 3) hour(ts) tags",
        "osalt(20) uid(metric, 3) ts tags",
        "osalt(20) uid(metric, 3) revts:str tags",
        "osalt(20) hour(ts) uid(metric, 3) ts:str tags ts",
    };
    for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++) {
        keyscheme *ks = parse_ok(exprs[e]);
        keyencoder *ke = keyencoder_new(ks, 1);
        for (uint64_t i = 0; i < 100; i++) {
            record r = series(TS0 + i * 3600 * 1000 + i, i, 0, 7, 3);
            uint8_t k[64];
            keyencoder_encode(ke, &r, k, sizeof k);
            assert_int_equal(k[0], 8); /* as in test_osalt_opentsdb_vectors */
        }
        keyencoder_free(ke);
        keyscheme_free(ks);
    }
    /* a time field inside another field is hashed like any byte */
    record r1 = series(TS0, 0, 0, 7, 3), r2 = series(TS0 + 1, 0, 0, 7, 3);
    uint8_t k1[64], k2[64];
    int differ = 0;
    for (int i = 0; i < 8; i++, r2.ts_ms++) {
        encode_once("osalt(65536) reverse(ts)", &r1, k1);
        encode_once("osalt(65536) reverse(ts)", &r2, k2);
        differ += memcmp(k1, k2, 2) != 0;
    }
    assert_true(differ > 0);
}

/* ---- the letter form of buckets ---- */

/* The HBase Reference Guide's salting example: foo0001..foo0004 under
 * one-letter prefixes. Phoenix hashes of "foo000N", N = 1..4:
 *   1060729510 .. 1060729513 (consecutive: only the last byte differs);
 *   % 4 = 2, 3, 0, 1: c, d, a, b. */
static void test_letters(void **state)
{
    (void)state;
    static const char *const want[] = { "c-foo0001", "d-foo0002", "a-foo0003", "b-foo0004" };
    for (int i = 0; i < 4; i++) {
        const char *name = want[i] + 2; /* foo0001 .. foo0004 */
        record t = { .ts_ms = TS0, .naming = NAMING_KEY, .key = (const uint8_t *)name, .key_len = 7 };
        expect_text("hash(4, key):str \"-\" key", &t, want[i]);
        char psalted[16];
        snprintf(psalted, sizeof psalted, "%c%s", want[i][0], name);
        expect_text("psalt(4):str key", &t, psalted);
    }
    record x0 = rec_at(TS0);
    expect_text("hash(8, ts):str", &x0, "b"); /* bucket 1 (test_hash_phoenix_vectors) */
    record r = series(UINT64_C(1704069000123), 0, 0, 7, 3);
    expect_key("osalt(20):str uid(metric, 3) hour(ts) tags", &r,
               "i" "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x01", 14);

    long seen[26] = { 0 };
    keyscheme *ks = parse_ok("salt(26):str ts");
    assert_int_equal(keyscheme_max_len(ks), 9);
    keyencoder *ke = keyencoder_new(ks, 5);
    for (int i = 0; i < 2600; i++) {
        record x = rec_at(TS0);
        uint8_t k[16];
        keyencoder_encode(ke, &x, k, sizeof k);
        assert_true(k[0] >= 'a' && k[0] <= 'z');
        seen[k[0] - 'a']++;
    }
    for (int b = 0; b < 26; b++)
        assert_true(seen[b] > 0);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

static void test_bucket_prefix_new_fields(void **state)
{
    (void)state;
    static const struct { const char *expr; uint32_t n; size_t width; uint32_t b; const char *prefix; } cases[] = {
        { "psalt(256) ts", 256, 1, 255, "\xFF" },
        { "osalt(20) uid(metric, 3) hour(ts) tags", 20, 1, 19, "\x13" },
        { "osalt(300) uid(metric, 3) hour(ts) tags", 300, 2, 299, "\x01\x2B" },
        { "salt(4):str ts", 4, 1, 3, "d" },
        { "hash(4, key):str \"-\" key", 4, 1, 0, "a" },
        { "psalt(26):str ts", 26, 1, 25, "z" },
        { "osalt(8):str uid(metric, 3)", 8, 1, 2, "c" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        keyscheme *ks = parse_ok(cases[i].expr);
        size_t width = 0;
        uint8_t p[2];
        assert_int_equal(keyscheme_buckets(ks, &width), cases[i].n);
        assert_int_equal(width, cases[i].width);
        assert_int_equal(keyscheme_bucket_prefix(ks, cases[i].b, p), cases[i].width);
        assert_memory_equal(p, cases[i].prefix, cases[i].width);
        keyscheme_free(ks);
    }
    keyscheme *ks = parse_ok("md5(ts)");
    assert_int_equal(keyscheme_buckets(ks, NULL), 0);
    keyscheme_free(ks);
}

/* ---- presets ---- */

static const struct {
    const char *name, *expr;  /* expr with N = 8 */
    size_t max_len;
} PRESETS8[] = {
    { "monotonic", "ts", 8 },
    { "salted", "salt(8) ts", 9 },
    { "hashed", "hash(8, ts) ts", 9 },
    { "reversed", "reverse(ts)", 8 },
    { "promoted", "entity ts", 12 },
    { "revts", "entity revts", 12 },
    { "md5", "md5(ts)", 16 },
    { "opentsdb", "uid(metric, 3) hour(ts) tags", 13 },
    { "opentsdb-salted", "osalt(8) uid(metric, 3) hour(ts) tags", 14 },
    { "revdomain", "revdomain(entity:str) ts", KEYSCHEME_MAX_NAME + 8 },
    { "seq", "seq", 8 },
    { "seq-reversed", "reverse(seq:str)", 20 },
};
#define NPRESETS (sizeof PRESETS8 / sizeof PRESETS8[0])

static void test_presets(void **state)
{
    (void)state;
    assert_int_equal(keyscheme_preset_count(), NPRESETS);
    for (size_t i = 0; i < NPRESETS; i++) {
        char expr[128];
        assert_string_equal(keyscheme_preset_name(i), PRESETS8[i].name);
        assert_int_equal(keyscheme_preset_expr(PRESETS8[i].name, 8, expr, sizeof expr), 0);
        assert_string_equal(expr, PRESETS8[i].expr);
        keyscheme *ks = parse_ok(expr);
        assert_string_equal(keyscheme_expr(ks), expr); /* already normal */
        assert_int_equal(keyscheme_max_len(ks), PRESETS8[i].max_len);
        keyscheme_free(ks);
    }
    char expr[128];
    assert_int_equal(keyscheme_preset_expr("salted", 300, expr, sizeof expr), 0);
    assert_string_equal(expr, "salt(300) ts");
    assert_int_equal(keyscheme_preset_expr("opentsdb-salted", 20, expr, sizeof expr), 0);
    assert_string_equal(expr, "osalt(20) uid(metric, 3) hour(ts) tags");
    assert_int_equal(keyscheme_preset_expr("nosuch", 8, expr, sizeof expr), -1);
    assert_int_equal(keyscheme_preset_expr("hashed", 8, expr, 5), -1); /* too small */
    assert_null(keyscheme_preset_name(NPRESETS));
}

/* A misspelt preset finds its preset; a word far from every one, or an
 * expression, finds none; a preset finds itself. */
static void test_preset_nearest(void **state)
{
    (void)state;
    assert_string_equal(keyscheme_preset_nearest("monotnic"), "monotonic");
    assert_string_equal(keyscheme_preset_nearest("hahsed"), "hashed");
    assert_string_equal(keyscheme_preset_nearest("salt"), "salted");
    assert_string_equal(keyscheme_preset_nearest("opentsdb-slated"), "opentsdb-salted");
    assert_string_equal(keyscheme_preset_nearest("seq_reversed"), "seq-reversed");
    for (size_t i = 0; i < NPRESETS; i++)
        assert_string_equal(keyscheme_preset_nearest(PRESETS8[i].name), PRESETS8[i].name);
    assert_null(keyscheme_preset_nearest("salt(8) tss"));
    assert_null(keyscheme_preset_nearest("nosuchfield"));
    assert_null(keyscheme_preset_nearest(NULL));
}

/* --servers allows 100,000 but a bucket prefix holds 65,536 buckets: a
 * bucketed preset on more servers than that is capped, never an
 * expression (salt(70000)) the parser refuses. */
static void test_preset_buckets_capped_at_65536(void **state)
{
    (void)state;
    static const char *const bucketed[] = { "salted", "hashed", "opentsdb-salted" };
    char expr[128];
    for (size_t i = 0; i < 3; i++) {
        for (uint32_t n = 65536; n <= 100000; n += 34464 / 2) {
            assert_int_equal(keyscheme_preset_expr(bucketed[i], n, expr, sizeof expr), 0);
            assert_non_null(strstr(expr, "(65536"));
            keyscheme *ks = parse_ok(expr);
            assert_int_equal(keyscheme_buckets(ks, NULL), 65536);
            keyscheme_free(ks);
        }
    }
    assert_int_equal(keyscheme_preset_expr("salted", 70000, expr, sizeof expr), 0);
    assert_string_equal(expr, "salt(65536) ts");
    assert_int_equal(keyscheme_preset_expr("salted", 65535, expr, sizeof expr), 0);
    assert_string_equal(expr, "salt(65535) ts"); /* below the cap: one per server */
}

/* A preset is its expression: the same seed and records give the same
 * bytes whether the scheme came from the preset's name or was typed. */
static void test_preset_is_its_expression(void **state)
{
    (void)state;
    for (size_t i = 0; i < NPRESETS; i++) {
        char expr[128];
        assert_int_equal(keyscheme_preset_expr(PRESETS8[i].name, 8, expr, sizeof expr), 0);
        assert_same_keys(expr, PRESETS8[i].expr, 77, 300);
    }
}

/* Exact bytes of every preset for one record: TS0, seq 42, entity 0x102,
 * metric 1, host 2; the first record of its run (every UID is 1). */
static void test_preset_bytes(void **state)
{
    (void)state;
    record r = series(TS0, 42, 0x00000102u, 1, 2);
    const char *ts = "\x00\x00\x01\x8C\xC2\x51\xF4\x00";
    const char *otsdb = "\x00\x00\x01" "\x65\x92\x00\x80" "\x00\x00\x01" "\x00\x00\x01";
    struct { const char *name; const char *key; size_t len; } want[] = {
        { "monotonic", ts, 8 },
        { "salted", NULL, 9 }, /* random: checked below */
        { "hashed", "\x01" "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 9 },
        { "reversed", "\x00\xF4\x51\xC2\x8C\x01\x00\x00", 8 },
        { "promoted", "\x00\x00\x01\x02" "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 12 },
        { "revts", "\x00\x00\x01\x02" "\x7F\xFF\xFE\x73\x3D\xAE\x0B\xFF", 12 },
        { "md5", "\x87\xe2\x48\xc7\xe2\x66\x8d\x55\xd1\x07\x68\x6b\xb1\x73\xda\x4e", 16 },
        { "opentsdb", otsdb, 13 },
        { "opentsdb-salted", NULL, 14 }, /* below */
        { "revdomain", "001/host0002.metric" "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 27 },
        { "seq", "\x00\x00\x00\x00\x00\x00\x00\x2A", 8 },
        { "seq-reversed", "24000000000000000000", 20 },
    };
    assert_int_equal(sizeof want / sizeof want[0], NPRESETS);
    for (size_t i = 0; i < NPRESETS; i++) {
        char expr[128];
        uint8_t key[KEYSCHEME_MAX_KEY];
        assert_string_equal(want[i].name, PRESETS8[i].name);
        assert_int_equal(keyscheme_preset_expr(want[i].name, 8, expr, sizeof expr), 0);
        size_t n = encode_once(expr, &r, key);
        assert_int_equal(n, want[i].len);
        if (want[i].key)
            assert_memory_equal(key, want[i].key, n);
    }
    uint8_t key[16];
    assert_int_equal(encode_once("salt(8) ts", &r, key), 9);
    assert_true(key[0] < 8);
    assert_memory_equal(key + 1, ts, 8);
    /* osalt(8): 691019968 % 8 = 0 (test_osalt_opentsdb_vectors) */
    assert_int_equal(encode_once("osalt(8) uid(metric, 3) hour(ts) tags", &r, key), 14);
    assert_int_equal(key[0], 0);
    assert_memory_equal(key + 1, otsdb, 13);
    /* the domain workload's names, reversed */
    record d = { .ts_ms = TS0, .entity = 0, .naming = NAMING_DOMAIN };
    expect_key("revdomain(entity:str) ts", &d, "com.site00000.www" "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 25);
}

/* seq-reversed spreads consecutive ids (ROWKEYS.md item 13): the first
 * byte is the last digit, so ten consecutive ids start with ten digits. */
static void test_seq_reversed_spreads(void **state)
{
    (void)state;
    keyscheme *ks = parse_ok("reverse(seq:str)");
    keyencoder *ke = keyencoder_new(ks, 1);
    int seen[10] = { 0 };
    for (uint64_t i = 0; i < 10; i++) {
        record r = series(TS0, 1000 + i, 0, 0, 0);
        uint8_t k[32];
        assert_int_equal(keyencoder_encode(ke, &r, k, sizeof k), 20);
        seen[k[0] - '0']++;
    }
    for (int d = 0; d < 10; d++)
        assert_int_equal(seen[d], 1);
    keyencoder_free(ke);
    keyscheme_free(ks);
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
        { "tags(1) tags( 2 )", "tags tags(2)" },
        { "md5(ts)[0:16] md5( ts ) [ 2 : 4 ] : str", "md5(ts) md5(ts)[2:4]:str" },
        { "entity:str\"-\"ts:str", "entity:str - ts:str" },
        { "\"#\"\"ab\\x41\\x0a\\\"\\\\\" ts", "# \"abA\\x0A\\\"\\\\\" ts" },
        { "psalt( 8 ):str key", "psalt(8):str key" },
        { "osalt(20) uid(entity,2) revts:str", "osalt(20) uid(entity, 2) revts:str" },
        { "revdomain( entity:str )", "revdomain(entity:str)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        keyscheme *ks = parse_ok(cases[i][0]);
        assert_string_equal(keyscheme_expr(ks), cases[i][1]);
        keyscheme_free(ks);
        ks = parse_ok(cases[i][1]); /* the normal form is a fixed point */
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
    expect_error("ts foo", "column 4: expected a field name (ts, revts, entity, key, seq, salt, hash, "
                 "psalt, osalt, md5, reverse, revdomain, uid, hour, tags), a \"string\" or a "
                 "separator (# - | / . ~ + @ ! =) or end of input, found 'foo'", NULL);
    expect_error("salt(8x) ts", "column 7: expected ')' after the bucket count, found 'x'", NULL);
    expect_error("salt(0) ts", "column 6: expected a bucket count 1..65536, found '0'", NULL);
    expect_error("salt(65537) ts", "column 6: expected a bucket count", "found '65537'");
    expect_error("salt(99999999999999999999999)", "column 6: expected a bucket count", NULL);
    expect_error("salt 8", "column 6: expected '(' after salt, found '8'", NULL);
    expect_error("hash(8 ts) ts", "column 8: expected ',' after the bucket count, found 'ts'", NULL);
    expect_error("hash(8, ) ts", "column 9: expected a field name", "found ')'");
    expect_error("hash(8, ts", "column 11: expected a field name", "or ')', found end of input");
    expect_error("uid(metric, 3):str", "column 15: expected no ':str' after uid (only ts, revts, "
                 "entity, seq, salt, hash, psalt, osalt, md5 have a text form), found ':'", NULL);
    expect_error("ts:txt", "column 4: expected 'str' after ':', found 'txt'", NULL);
    expect_error("uid(tagk, 3)", "column 5: expected a name kind ('metric', 'host' or 'entity')",
                 "found 'tagk'");
    expect_error("uid(metric, 9)", "column 13: expected a UID width 1..8, found '9'", NULL);
    expect_error("reverse(ts ts)", "column 12: expected ')' after the field", "found 'ts'");
    expect_error("hour(seq)", "column 6: expected 'ts', found 'seq'", NULL);
    expect_error("ts)", "column 3: expected a field name", "found ')'");
    expect_error("ts \xC3\xA9", "column 4: expected a field name", "found '\xC3\xA9'");
    expect_error("ts:", "column 4: expected 'str' after ':', found end of input", NULL);

    /* tags */
    expect_error("tags(3)", "column 6: expected a tag count 1..2, found '3'", NULL);
    expect_error("tags()", "column 6: expected a tag count 1..2, found ')'", NULL);
    expect_error("tags(2", "column 7: expected ')' after the tag count, found end of input", NULL);
    /* literals */
    expect_error("ts \"abc", "column 4: expected '\"' to close the string that starts here, "
                 "found end of input", NULL);
    expect_error("ts \"a\\\"", "column 4: expected '\"' to close the string", NULL);
    expect_error("\"a\\q\"", "column 3: expected \\xNN (two hex digits), \\\" or \\\\ in a string, "
                 "found '\\q'", NULL);
    expect_error("ts \"\\x4g\"", "column 5: expected \\xNN", "found '\\x4g'");
    expect_error("\"ab\\x4\"", "column 4: expected \\xNN", "found '\\x4'");
    expect_error("\"a\":str", "column 4: expected no ':str' after a literal", "found ':'");
    keyscheme_free(parse_ok("ts : str"));
    expect_error("\"\"", "column 1: expected a key of at least 1 byte", NULL);
    keyscheme_free(parse_ok("md5(ts) \"\""));
    expect_error("ts % ts", "column 4: expected a field name", "found '%'");
    /* md5 slices */
    expect_error("md5(ts)[4:2]", "column 11: expected a slice end 5..16, found '2'", NULL);
    expect_error("md5(ts)[16:17]", "column 9: expected a slice start 0..15, found '16'", NULL);
    expect_error("md5(ts)[0:17]:str", "column 11: expected a slice end 1..16, found '17'", NULL);
    expect_error("md5(ts)[0 4]", "column 11: expected ':' after the slice start, found '4'", NULL);
    expect_error("md5(ts)[0:4", "column 12: expected ']' after the slice end, found end of input", NULL);
    expect_error("md5(ts)[x:4]", "column 9: expected a slice start 0..15, found 'x'", NULL);
    expect_error("ts[0:4]", "column 3: expected no '[' after ts (only md5 takes a byte slice), "
                 "found '['", NULL);
    expect_error("md5(ts):str[0:4]", "column 12: expected a field name", "found '['");
    expect_error("md5()", "column 5: expected a field name", "found ')'");
    /* Phoenix's bucket limit; letters */
    expect_error("psalt(300) ts", "column 7: expected a bucket count 1..256 (Phoenix's "
                 "SALT_BUCKETS limit), found '300'", NULL);
    expect_error("psalt(0) ts", "column 7: expected a bucket count 1..256", "found '0'");
    expect_error("salt(27):str ts", "column 6: expected a bucket count 1..26 for the letter form "
                 "(':str': buckets a..z), found '27'", NULL);
    expect_error("ts hash( 30, ts):str", "column 10: expected a bucket count 1..26", "found '30'");
    expect_error("psalt(100):str ts", "column 7: expected a bucket count 1..26", "found '100'");
    expect_error("osalt(300):str ts", "column 7: expected a bucket count 1..26", "found '300'");
    expect_error("reverse(ts):str", "column 12: expected no ':str' after reverse", NULL);
    expect_error("revdomain(ts ts)", "column 14: expected ')' after the field", "found 'ts'");

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
    /* a salt of the rest holds the fields after it: they count as nested */
    char salts[256] = "";
    for (int i = 0; i < 16; i++)
        strcat(salts, "psalt(2) ");
    strcat(salts, "ts");
    expect_error(salts, "column 145: expected at most 16 nested fields, found 'ts' nested deeper", NULL);
    salts[0] = '\0';
    for (int i = 0; i < 15; i++)
        strcat(salts, "osalt(2) ");
    strcat(salts, "ts");
    ks = parse_ok(salts);
    keyscheme_free(ks);

    /* key length: 8192 timestamps are 65536 bytes, 8193 too many */
    char *many = malloc(8193 * 3 + 1);
    many[0] = '\0';
    for (int i = 0; i < 8192; i++)
        strcat(many, "ts ");
    ks = parse_ok(many);
    assert_int_equal(keyscheme_max_len(ks), KEYSCHEME_MAX_KEY);
    keyscheme_free(ks);
    strcat(many, "ts");
    expect_error(many, "column 1: expected a key of at most 65536 bytes", "65544");
    free(many);

    /* a small or absent error buffer is never overrun */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    assert_int_equal(keyscheme_parse("nope", &ks, tiny, 4), -1);
    assert_string_equal(tiny, "col");
    assert_int_equal(tiny[4], 'x');
    assert_int_equal(keyscheme_parse("nope", &ks, NULL, 0), -1);
}

/* ---- reads: planning a query into row ranges ---- */

#define FULL (-1) /* a full-table scan, in the tables below */

static const uint8_t *range_lo(const plan *p, size_t i) { return p->bytes + p->ranges[i].lo_off; }
static const uint8_t *range_hi(const plan *p, size_t i) { return p->bytes + p->ranges[i].hi_off; }

/* Unsigned byte order, a prefix first (HBase's row order). */
static int cmp_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (alen > blen) - (alen < blen);
}

static int in_range(const plan *p, size_t i, const uint8_t *key, size_t len)
{
    const key_range *r = &p->ranges[i];
    return (r->lo_len == 0 || cmp_bytes(range_lo(p, i), r->lo_len, key, len) <= 0)
        && (r->hi_len == 0 || cmp_bytes(key, len, range_hi(p, i), r->hi_len) < 0);
}

/* Every range is non-empty, and they are sorted and disjoint; a full scan
 * is exactly one unbounded range of every row. */
static void check_plan_shape(const plan *p)
{
    if (p->full_scan) {
        assert_int_equal(p->nranges, 1);
        assert_int_equal(p->ranges[0].lo_len, 0);
        assert_int_equal(p->ranges[0].hi_len, 0);
        assert_int_equal(p->ranges[0].limit, 0);
        return;
    }
    for (size_t i = 0; i < p->nranges; i++) {
        const key_range *r = &p->ranges[i];
        assert_true(r->lo_off + r->lo_len <= p->nbytes && r->hi_off + r->hi_len <= p->nbytes);
        if (r->hi_len)
            assert_true(cmp_bytes(range_lo(p, i), r->lo_len, range_hi(p, i), r->hi_len) < 0);
        if (i + 1 < p->nranges) {
            const key_range *next = &p->ranges[i + 1];
            assert_true(r->hi_len != 0);
            assert_true(cmp_bytes(range_hi(p, i), r->hi_len, range_lo(p, i + 1), next->lo_len) <= 0);
        }
    }
}

static void expect_range(const plan *p, size_t i, const void *lo, size_t lo_len, const void *hi, size_t hi_len)
{
    assert_true(i < p->nranges);
    assert_int_equal(p->ranges[i].lo_len, lo_len);
    assert_int_equal(p->ranges[i].hi_len, hi_len);
    if (lo_len)
        assert_memory_equal(range_lo(p, i), lo, lo_len);
    if (hi_len)
        assert_memory_equal(range_hi(p, i), hi, hi_len);
}

/* Plans q, checks the plan's shape, returns its range count or FULL. */
static long plan_count(keyencoder *ke, const query *q, plan *p)
{
    assert_int_equal(keyencoder_plan(ke, q, p), 0);
    check_plan_shape(p);
    return p->full_scan ? FULL : (long)p->nranges;
}

static query get_of(record r)
{
    query q = { .kind = QUERY_GET, .rec = r };
    return q;
}

static query range_of(query_kind kind, record r, uint64_t from, uint64_t to)
{
    query q = { .kind = kind, .rec = r, .from_ms = from, .to_ms = to };
    return q;
}

static query latest_of(record r, uint32_t limit)
{
    query q = { .kind = QUERY_LATEST, .rec = r, .limit = limit };
    return q;
}

/* The planning table of docs/keyschemes.md: per preset (N = 8), ranges
 * of GET, RANGE, LATEST, WINDOW and METRIC (FULL: a full scan), and
 * whether LATEST scans in reverse. */
static void test_plan_presets(void **state)
{
    (void)state;
    static const struct { const char *name; long get, range, latest, window, metric; int latest_reverse; } want[] = {
        { "monotonic",       1, 1,    1,    1,    1,    1 },
        { "salted",          8, 8,    8,    8,    8,    1 },
        { "hashed",          1, 8,    8,    8,    8,    1 },
        { "reversed",        1, FULL, FULL, FULL, FULL, 0 },
        { "promoted",        1, 1,    1,    FULL, FULL, 1 },
        { "revts",           1, 1,    1,    FULL, FULL, 0 },
        { "md5",             1, FULL, FULL, FULL, FULL, 0 },
        { "opentsdb",        1, 1,    1,    FULL, 1,    1 },
        { "opentsdb-salted", 1, 8,    1,    FULL, 8,    1 },
        { "revdomain",       1, 1,    1,    FULL, FULL, 1 },
        { "seq",             1, FULL, FULL, FULL, FULL, 0 },
        { "seq-reversed",    1, FULL, FULL, FULL, FULL, 0 },
    };
    assert_int_equal(sizeof want / sizeof want[0], NPRESETS);
    record r = series(TS0, 42, 0x161, 7, 3);
    plan p;
    plan_init(&p);
    for (size_t i = 0; i < NPRESETS; i++) {
        char expr[128];
        uint8_t key[KEYSCHEME_MAX_KEY];
        assert_string_equal(want[i].name, PRESETS8[i].name);
        assert_int_equal(keyscheme_preset_expr(want[i].name, 8, expr, sizeof expr), 0);
        keyscheme *ks = parse_ok(expr);
        keyencoder *ke = keyencoder_new(ks, 5);
        size_t n = keyencoder_encode(ke, &r, key, sizeof key);

        query q = get_of(r);
        assert_int_equal(plan_count(ke, &q, &p), want[i].get);
        if (want[i].get == 1) /* a point read is the row itself */
            expect_range(&p, 0, key, n, (memcpy(key + n, "", 1), key), n + 1);
        q = range_of(QUERY_RANGE, r, TS0, TS0 + 3600000);
        assert_int_equal(plan_count(ke, &q, &p), want[i].range);
        q = latest_of(r, 10);
        assert_int_equal(plan_count(ke, &q, &p), want[i].latest);
        for (size_t j = 0; j < p.nranges; j++) {
            assert_int_equal(p.ranges[j].reverse, want[i].latest_reverse);
            assert_int_equal(p.ranges[j].limit, p.full_scan ? 0 : 10);
        }
        q = range_of(QUERY_WINDOW, r, TS0, TS0 + 3600000);
        assert_int_equal(plan_count(ke, &q, &p), want[i].window);
        q = range_of(QUERY_METRIC, r, TS0, TS0 + 3600000);
        assert_int_equal(plan_count(ke, &q, &p), want[i].metric);
        keyencoder_free(ke);
        keyscheme_free(ks);
    }
    plan_release(&p);
}

/* Plans q under expr after writing `written` (so its UIDs exist). */
static void plan_after(const char *expr, const record *written, const query *q, plan *p)
{
    keyscheme *ks = parse_ok(expr);
    keyencoder *ke = keyencoder_new(ks, 5);
    uint8_t key[KEYSCHEME_MAX_KEY];
    if (written)
        keyencoder_encode(ke, written, key, sizeof key);
    assert_int_equal(keyencoder_plan(ke, q, p), 0);
    check_plan_shape(p);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

/* ROWKEYS.md item 3: a point read of a salted row asks all N prefixes;
 * item 4: a hashed one rebuilds its key. */
static void test_plan_get_bytes(void **state)
{
    (void)state;
    record r = series(TS0, 42, 0x161, 7, 3);
    query q = get_of(r);
    plan p;
    plan_init(&p);
    plan_after("salt(8) ts", NULL, &q, &p);
    assert_int_equal(p.nranges, 8);
    for (uint8_t b = 0; b < 8; b++) {
        uint8_t lo[10] = { b };
        memcpy(lo + 1, TS0_BE, 8);
        expect_range(&p, b, lo, 9, lo, 10); /* lo[9] = 0: the key's successor */
        assert_int_equal(p.ranges[b].limit, 0);
        assert_int_equal(p.ranges[b].reverse, 0);
    }
    plan_after("salt(4):str - ts", NULL, &q, &p); /* the Reference Guide's letters */
    assert_int_equal(p.nranges, 4);
    for (size_t b = 0; b < 4; b++) {
        assert_int_equal(range_lo(&p, b)[0], 'a' + b);
        assert_int_equal(range_lo(&p, b)[1], '-');
    }
    plan_after("salt(1) ts", NULL, &q, &p); /* one bucket: always 0 */
    assert_int_equal(p.nranges, 1);
    expect_range(&p, 0, "\x00" "\x00\x00\x01\x8C\xC2\x51\xF4\x00", 9,
                 "\x00" "\x00\x00\x01\x8C\xC2\x51\xF4\x00" "\x00", 10);
    /* a random salt inside a transform cannot be asked for: full scan */
    plan_after("md5(salt(8) ts)", NULL, &q, &p);
    assert_true(p.full_scan);
    plan_release(&p);
}

/* Every bucket field, transform and nesting evaluates as the encoder
 * writes it: a GET plans the written key itself. */
static void test_plan_get_is_the_written_key(void **state)
{
    (void)state;
    static const char *const schemes[] = {
        "hash(8, osalt(4) entity ts) entity ts",
        "md5(psalt(8) entity:str ts:str)[2:6]:str reverse(seq:str)",
        "revdomain(entity:str) \"#\" revts:str",
        "osalt(20) uid(metric, 3) hour(ts) tags(2)",
        "uid(entity, 2) uid(host, 2) ts",
        "psalt(8):str osalt(4) entity ts hour(ts)",
        "hash(300, key) key",
        "osalt(300) psalt(8) entity ts seq",
        "reverse(hash(300, ts)) ts",
    };
    plan p;
    plan_init(&p);
    for (size_t s = 0; s < sizeof schemes / sizeof schemes[0]; s++) {
        keyscheme *ks = parse_ok(schemes[s]);
        keyencoder *ke = keyencoder_new(ks, 3);
        for (uint32_t i = 0; i < 50; i++) {
            record r = series(TS0 + i * UINT64_C(977000), i, i % 7 * 5 + i % 5, i % 7, i % 5);
            r.tag = i % 3;
            r.naming = i % 2 ? NAMING_SERIES : NAMING_SERIES_TAGGED;
            if (i % 5 == 4) { /* YCSB's names, zero-padded: the name depends on the padding */
                r.naming = i % 10 == 4 ? NAMING_USER : NAMING_USER_ORDERED;
                r.name_pad = (uint8_t)(i / 2);
            }
            uint8_t key[KEYSCHEME_MAX_KEY];
            size_t n = keyencoder_encode(ke, &r, key, sizeof key);
            query q = get_of(r);
            assert_int_equal(plan_count(ke, &q, &p), 1);
            key[n] = 0;
            expect_range(&p, 0, key, n, key, n + 1);
        }
        keyencoder_free(ke);
        keyscheme_free(ks);
    }
    plan_release(&p);
}

static void put_be64(uint8_t *out, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        out[i] = (uint8_t)v;
}

/* Promotion (item 8) and reverse timestamps (item 10): one entity's time
 * range is one scan, with exact bounds. */
static void test_plan_range_bytes(void **state)
{
    (void)state;
    const uint64_t from = TS0 + 5, to = TS0 + 3600000;
    const uint64_t max = UINT64_C(9223372036854775807);
    record r = series(0, 0, 0x161, 7, 3);
    uint8_t lo[13] = { 0, 0, 1, 0x61 }, hi[13] = { 0, 0, 1, 0x61 };
    plan p;
    plan_init(&p);

    query q = range_of(QUERY_RANGE, r, from, to);
    plan_after("entity ts", NULL, &q, &p);
    put_be64(lo + 4, from);
    put_be64(hi + 4, to);
    hi[12] = 0;
    assert_int_equal(p.nranges, 1);
    expect_range(&p, 0, lo, 12, hi, 13);
    assert_int_equal(p.ranges[0].limit, 0);
    assert_int_equal(p.ranges[0].reverse, 0);

    /* revts: [key][MAX - end] to [key][MAX - start] */
    plan_after("entity revts", NULL, &q, &p);
    put_be64(lo + 4, max - to);
    put_be64(hi + 4, max - from);
    expect_range(&p, 0, lo, 12, hi, 13);

    /* LATEST under revts: a forward scan of the entity's prefix is newest
     * first; under ts, a reversed scan */
    q = latest_of(r, 3);
    plan_after("entity revts", NULL, &q, &p);
    expect_range(&p, 0, "\x00\x00\x01\x61", 4, "\x00\x00\x01\x62", 4);
    assert_int_equal(p.ranges[0].limit, 3);
    assert_int_equal(p.ranges[0].reverse, 0);
    plan_after("entity ts", NULL, &q, &p);
    expect_range(&p, 0, "\x00\x00\x01\x61", 4, "\x00\x00\x01\x62", 4);
    assert_int_equal(p.ranges[0].reverse, 1);
    /* no entity in the key: the whole table from the end, filtered */
    plan_after("ts", NULL, &q, &p);
    assert_false(p.full_scan);
    expect_range(&p, 0, NULL, 0, NULL, 0);
    assert_int_equal(p.ranges[0].reverse, 1);
    assert_int_equal(p.ranges[0].limit, 3);

    /* the prefix successor carries past 0xFF bytes */
    record ff = series(0, 0, 0x01FFFFFFu, 0, 0);
    q = latest_of(ff, 1);
    plan_after("entity ts", NULL, &q, &p);
    expect_range(&p, 0, "\x01\xFF\xFF\xFF", 4, "\x02", 1);
    ff.entity = UINT32_MAX;
    q = latest_of(ff, 1);
    plan_after("entity ts", NULL, &q, &p);
    expect_range(&p, 0, "\xFF\xFF\xFF\xFF", 4, NULL, 0); /* to the last row */

    /* a field after the time field: the last time's rows, whatever follows */
    q = range_of(QUERY_RANGE, r, from, to);
    plan_after("entity ts entity", NULL, &q, &p);
    put_be64(lo + 4, from);
    put_be64(hi + 4, to + 1); /* prefix successor of entity+ts(to): last byte + 1 */
    expect_range(&p, 0, lo, 12, hi, 12);

    /* ts:str across a change in its digit count keeps no order: the
     * entity's whole prefix */
    q = range_of(QUERY_RANGE, r, UINT64_C(9999999999000), UINT64_C(10000000001000));
    plan_after("entity ts:str", NULL, &q, &p);
    expect_range(&p, 0, "\x00\x00\x01\x61", 4, "\x00\x00\x01\x62", 4);
    q = range_of(QUERY_RANGE, r, 1000, 2000);
    plan_after("entity ts:str", NULL, &q, &p);
    expect_range(&p, 0, "\x00\x00\x01\x61" "0000000001000", 17, "\x00\x00\x01\x61" "0000000002000\x00", 18);
    plan_release(&p);
}

/* OpenTSDB: a series' time range is one scan over whole hours of its
 * metric (the tags follow the hour: the client filters the other series);
 * salted, the salt is the series' own (it leaves the time out). */
static void test_plan_opentsdb(void **state)
{
    (void)state;
    record r = series(TS0, 0, 0x161, 7, 3);
    const uint64_t from = TS0 + 1234, to = TS0 + 9000000; /* 2.5 h later */
    plan p;
    plan_init(&p);
    query q = range_of(QUERY_RANGE, r, from, to);
    plan_after("uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 1);
    /* hour(to) = 0x65920080 + 7200 = 0x65921CA0; the next key past it */
    expect_range(&p, 0, "\x00\x00\x01" "\x65\x92\x00\x80", 7, "\x00\x00\x01" "\x65\x92\x1C\xA1", 7);

    /* OpenTSDB's one-series query on its salted key: TsdbQuery.findSpans
     * scans every salt bucket (multi_get off, its default), the same
     * metric and hours in each, the series' tags filtered */
    uint8_t key[16];
    assert_int_equal(encode_once("osalt(8) uid(metric, 3) hour(ts) tags", &r, key), 14);
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 8);
    assert_false(p.full_scan);
    assert_false(p.exact);
    for (uint8_t b = 0; b < 8; b++) {
        uint8_t lo[8] = { b, 0, 0, 1, 0x65, 0x92, 0x00, 0x80 };
        uint8_t hi[8] = { b, 0, 0, 1, 0x65, 0x92, 0x1C, 0xA1 };
        expect_range(&p, b, lo, 8, hi, 8);
    }
    /* multi_get: MultiGetQuery's gets, one row of the series per hour from
     * from's hour to getScanEndTimeSeconds (to + 1 s, rounded up to the
     * next hour) inclusive: hours 0 .. 3, each the series' salted key */
    q.multi_get = 1;
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 4);
    assert_false(p.exact);
    for (uint64_t h = 0; h < 4; h++) {
        record at = r;
        at.ts_ms = TS0 + h * 3600000;
        uint8_t row[16];
        assert_int_equal(encode_once("osalt(8) uid(metric, 3) hour(ts) tags", &at, row), 14);
        assert_int_equal(row[0], key[0]); /* the series' salt leaves the time out */
        row[14] = 0;
        expect_range(&p, h, row, 14, row, 15);
    }
    q.to_ms = TS0 + 3 * UINT64_C(3600000) - 1000; /* to + 1 s starts hour 3: 0 .. 4 */
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 5);
    q.to_ms = TS0 + 3 * UINT64_C(3600000) - 2000; /* hours 0 .. 3 */
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 4);
    q.to_ms = TS0 + 2 * UINT64_C(3600000) - 2000; /* hours 0 .. 2 */
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 3);
    /* a key of hour rows with a field a series' query does not know:
     * scanned per bucket; a key of other rows is no OpenTSDB table: its
     * reader computes the salt (one range, multi_get or not) */
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags seq", &r, &q, &p);
    assert_int_equal(p.nranges, 8);
    plan_after("osalt(8) uid(metric, 3) ts tags", &r, &q, &p);
    assert_int_equal(p.nranges, 1);
    /* unsalted, multi_get or not: the one scan */
    plan_after("uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 1);
    q = range_of(QUERY_RANGE, r, from, to);
    q = range_of(QUERY_WINDOW, r, from, to);
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_true(p.full_scan); /* every metric: the metric leads */

    /* never written: no UID, nothing to read (and none assigned) */
    record other = series(TS0, 0, 0x162, 8, 3);
    q = range_of(QUERY_RANGE, other, from, to);
    plan_after("uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 0);
    assert_false(p.full_scan);
    q = get_of(other);
    plan_after("osalt(8) uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 0);
    other = series(TS0, 0, 0x162, 7, 4); /* a known metric, an unknown host */
    q = latest_of(other, 5);
    plan_after("uid(metric, 3) hour(ts) tags", &r, &q, &p);
    assert_int_equal(p.nranges, 0);
    plan_release(&p);
}

/* A metric's every series over a time range, under every preset, for two
 * bucket counts: how many ranges, whether a full scan, whether exact.
 * Only a key that leads with the metric UID before the time field reads
 * only the metric's rows: OpenTSDB's, one scan (or one per salt bucket,
 * as TsdbQuery does: the salt hashes the tags, which the query does not
 * know). A key with a bucket ahead of the time field (salted, hashed, and
 * plain time order as one "bucket") scans that time range of every metric
 * in each bucket; a key with anything else unknown ahead (the entity, a
 * hash of the time, a sequence number) is a full scan. None is exact: all
 * hold other metrics' rows, or (OpenTSDB) rows of whole hours. */
static void test_plan_metric_presets(void **state)
{
    (void)state;
    static const struct { const char *name; long ranges; int per_bucket; } want[] = {
        { "monotonic",       1,    0 },
        { "salted",          0,    1 },  /* N ranges */
        { "hashed",          0,    1 },  /* N: the bucket hashes the time */
        { "reversed",        FULL, 0 },
        { "promoted",        FULL, 0 },
        { "revts",           FULL, 0 },
        { "md5",             FULL, 0 },
        { "opentsdb",        1,    0 },
        { "opentsdb-salted", 0,    1 },  /* N */
        { "revdomain",       FULL, 0 },
        { "seq",             FULL, 0 },
        { "seq-reversed",    FULL, 0 },
    };
    static const uint32_t buckets[] = { 8, 20 };
    assert_int_equal(sizeof want / sizeof want[0], keyscheme_preset_count());
    const uint64_t from = TS0 + 1234, to = TS0 + 9000000; /* 2.5 h later */
    plan p;
    plan_init(&p);
    for (size_t b = 0; b < sizeof buckets / sizeof buckets[0]; b++) {
        uint32_t n = buckets[b];
        for (size_t i = 0; i < keyscheme_preset_count(); i++) {
            char expr[128];
            assert_string_equal(keyscheme_preset_name(i), want[i].name);
            assert_int_equal(keyscheme_preset_expr(want[i].name, n, expr, sizeof expr), 0);
            keyscheme *ks = parse_ok(expr);
            keyencoder *ke = keyencoder_new(ks, 5);
            uint8_t key[KEYSCHEME_MAX_KEY];
            for (uint32_t h = 0; h < 4; h++) { /* metric 7 on 4 hosts, metric 2 on one */
                record w = series(TS0 + h, h, 7 * 50 + h, 7, h);
                keyencoder_encode(ke, &w, key, sizeof key);
            }
            record w = series(TS0 + 9, 9, 2 * 50, 2, 0);
            keyencoder_encode(ke, &w, key, sizeof key);

            query q = range_of(QUERY_METRIC, series(0, 0, 0, 7, 0), from, to);
            long got = plan_count(ke, &q, &p);
            long expect = want[i].per_bucket ? (long)n : want[i].ranges;
            if (got != expect)
                fail_msg("%s (N = %u): %ld ranges, want %ld", want[i].name, n, got, expect);
            assert_int_equal(p.full_scan, expect == FULL);
            assert_false(p.exact);
            for (size_t j = 0; j < p.nranges; j++) { /* no limit, forward */
                assert_int_equal(p.ranges[j].limit, 0);
                assert_int_equal(p.ranges[j].reverse, 0);
            }
            keyencoder_free(ke);
            keyscheme_free(ks);
        }
    }
    plan_release(&p);
}

/* OpenTSDB's metric scan, byte for byte: [salt][metric UID][hour(from)]
 * to the first key past [salt][metric UID][hour(to)], once per salt
 * bucket (QueryUtil.getMetricScanner's start and stop rows); exact when
 * the range is whole hours; nothing for a metric never written, and no
 * UID assigned by asking. */
static void test_plan_metric_opentsdb(void **state)
{
    (void)state;
    const uint64_t from = TS0 + 1234, to = TS0 + 9000000; /* hours 0x65920080 .. 0x65921CA0 */
    record r = series(TS0, 0, 0x161, 7, 3);
    record other_host = series(TS0 + 1, 1, 0x162, 7, 4);
    /* a query that also names a host, entity, tag and key: a metric read
     * knows the metric only, so none of them may change the plan */
    record noisy = series(0, 99, 0x161, 7, 3);
    noisy.tag = 5;
    noisy.naming = NAMING_KEY;
    noisy.key = (const uint8_t *)"junk";
    noisy.key_len = 4;
    plan p, again;
    plan_init(&p);
    plan_init(&again);
    keyscheme *ks = parse_ok("uid(metric, 3) hour(ts) tags");
    keyencoder *ke = keyencoder_new(ks, 5);
    uint8_t key[KEYSCHEME_MAX_KEY];
    keyencoder_encode(ke, &r, key, sizeof key);
    keyencoder_encode(ke, &other_host, key, sizeof key);
    query q = range_of(QUERY_METRIC, series(0, 0, 0, 7, 0), from, to);
    assert_int_equal(plan_count(ke, &q, &p), 1);
    expect_range(&p, 0, "\x00\x00\x01" "\x65\x92\x00\x80", 7, "\x00\x00\x01" "\x65\x92\x1C\xA1", 7);
    assert_false(p.exact); /* whole hours around from and to */
    query nq = range_of(QUERY_METRIC, noisy, from, to);
    assert_int_equal(plan_count(ke, &nq, &again), 1);
    assert_int_equal(again.nbytes, p.nbytes);
    assert_memory_equal(again.bytes, p.bytes, p.nbytes);
    q = range_of(QUERY_METRIC, series(0, 0, 0, 7, 0), TS0, TS0 + 3 * UINT64_C(3600000) - 1);
    assert_int_equal(plan_count(ke, &q, &p), 1);
    assert_true(p.exact); /* whole hours: every row is the metric's, in time */
    q = range_of(QUERY_METRIC, series(0, 0, 0, 7, 0), to, from); /* empty */
    assert_int_equal(plan_count(ke, &q, &p), 0);

    /* a metric never written: no UID, nothing to read; asking assigns none */
    q = range_of(QUERY_METRIC, series(0, 0, 0, 8, 0), from, to);
    assert_int_equal(plan_count(ke, &q, &p), 0);
    assert_false(p.full_scan);
    record eight = series(TS0 + 2, 2, 0x190, 8, 0);
    assert_int_equal(keyencoder_encode(ke, &eight, key, sizeof key), 13);
    assert_memory_equal(key, "\x00\x00\x02", 3); /* the second metric: UID 2 */
    keyencoder_free(ke);
    keyscheme_free(ks);

    /* salted: one scan per bucket, in bucket order, each the same metric
     * and hours after its salt */
    for (uint32_t n = 1; n <= 300; n += 299) {
        char expr[96];
        snprintf(expr, sizeof expr, "osalt(%u) uid(metric, 3) hour(ts) tags", n);
        ks = parse_ok(expr);
        ke = keyencoder_new(ks, 5);
        keyencoder_encode(ke, &r, key, sizeof key);
        q = range_of(QUERY_METRIC, series(0, 0, 0, 7, 0), from, to);
        assert_int_equal(plan_count(ke, &q, &p), n);
        size_t w = n > 256 ? 2 : 1;
        for (uint32_t b = 0; b < n; b++) {
            uint8_t lo[9] = { 0 }, hi[9] = { 0 };
            keyscheme_bucket_prefix(ks, b, lo);
            keyscheme_bucket_prefix(ks, b, hi);
            memcpy(lo + w, "\x00\x00\x01" "\x65\x92\x00\x80", 7);
            memcpy(hi + w, "\x00\x00\x01" "\x65\x92\x1C\xA1", 7);
            expect_range(&p, b, lo, w + 7, hi, w + 7);
        }
        keyencoder_free(ke);
        keyscheme_free(ks);
    }

    /* the metric ahead of the time field pins it; a bucket of it does not */
    q = range_of(QUERY_METRIC, series(0, 0, 0, 7, 0), from, to);
    plan_after("uid(metric, 3) ts uid(host, 2)", &r, &q, &p);
    assert_int_equal(p.nranges, 1);
    assert_true(p.exact);
    plan_after("hash(4, uid(metric, 3)) ts", &r, &q, &p); /* a bucket the query knows */
    assert_int_equal(p.nranges, 1);
    assert_false(p.exact);
    plan_after("uid(host, 3) uid(metric, 3) ts", &r, &q, &p); /* the host first: unknown */
    assert_true(p.full_scan);
    plan_after("uid(metric, 1) ts", &r, &q, &p);
    assert_true(p.exact);
    plan_release(&p);
    plan_release(&again);
}

/* Buckets the query cannot know multiply the candidates wherever they
 * are; past 65536 candidates the plan gives up and scans everything. */
static void test_plan_buckets(void **state)
{
    (void)state;
    record r = series(TS0, 0, 0x161, 7, 3);
    plan p;
    plan_init(&p);
    query q = range_of(QUERY_WINDOW, r, TS0, TS0 + 1000);
    plan_after("salt(8) ts", NULL, &q, &p);
    assert_int_equal(p.nranges, 8);
    for (uint8_t b = 0; b < 8; b++) {
        uint8_t lo[9] = { b }, hi[10] = { b };
        put_be64(lo + 1, TS0);
        put_be64(hi + 1, TS0 + 1000);
        expect_range(&p, b, lo, 9, hi, 10);
    }
    plan_after("hash(8, ts) ts", NULL, &q, &p); /* the bucket depends on ts */
    assert_int_equal(p.nranges, 8);
    plan_after("salt(256) salt(256) ts", NULL, &q, &p);
    assert_int_equal(p.nranges, 65536);
    assert_memory_equal(range_lo(&p, 65535), "\xFF\xFF", 2);
    plan_after("salt(300) salt(300) ts", NULL, &q, &p);
    assert_true(p.full_scan);
    plan_after("salt(300) ts", NULL, &q, &p); /* 2-byte prefixes */
    assert_int_equal(p.nranges, 300);
    assert_memory_equal(range_lo(&p, 299), "\x01\x2B", 2);

    q = range_of(QUERY_RANGE, r, TS0, TS0 + 1000);
    plan_after("entity salt(4) ts", NULL, &q, &p); /* a bucket after the entity */
    assert_int_equal(p.nranges, 4);
    for (uint8_t b = 0; b < 4; b++) {
        uint8_t lo[5] = { 0, 0, 1, 0x61, b };
        assert_memory_equal(range_lo(&p, b), lo, 5);
    }
    plan_after("psalt(8) entity ts", NULL, &q, &p); /* Phoenix hashes the time too */
    assert_int_equal(p.nranges, 8);
    plan_after("osalt(8) entity ts", NULL, &q, &p); /* OpenTSDB leaves it out */
    assert_int_equal(p.nranges, 1);
    plan_after("hash(8, entity) entity revts", NULL, &q, &p);
    assert_int_equal(p.nranges, 1);
    plan_after("seq entity ts", NULL, &q, &p);
    assert_true(p.full_scan);
    q = range_of(QUERY_WINDOW, r, TS0, TS0 + 1000);
    plan_after("osalt(8) entity ts", NULL, &q, &p); /* entity unknown: bucket unknown, then entity */
    assert_true(p.full_scan);
    plan_after("\"t:\" ts", NULL, &q, &p); /* a literal is known to every query */
    assert_int_equal(p.nranges, 1);
    assert_memory_equal(range_lo(&p, 0), "t:", 2);
    plan_release(&p);
}

/* Nothing to read: an empty time range, a LATEST of no rows. */
static void test_plan_nothing(void **state)
{
    (void)state;
    record r = series(TS0, 0, 0x161, 7, 3);
    plan p;
    plan_init(&p);
    query q = range_of(QUERY_RANGE, r, TS0 + 1, TS0);
    plan_after("entity ts", NULL, &q, &p);
    assert_int_equal(p.nranges, 0);
    q = range_of(QUERY_WINDOW, r, TS0 + 1, TS0);
    plan_after("md5(ts)", NULL, &q, &p);
    assert_int_equal(p.nranges, 0);
    assert_false(p.full_scan);
    q = latest_of(r, 0);
    plan_after("entity ts", NULL, &q, &p);
    assert_int_equal(p.nranges, 0);
    /* a scheme without a time field: a RANGE reads the entity's row */
    q = range_of(QUERY_RANGE, r, TS0, TS0 + 10);
    plan_after("entity", NULL, &q, &p);
    expect_range(&p, 0, "\x00\x00\x01\x61", 4, "\x00\x00\x01\x61\x00", 5);
    plan_release(&p);
}

/* Exactness: a plan is exact when its ranges hold no row the query does
 * not want, neither another entity's nor one outside the time range. */
static void test_plan_exactness(void **state)
{
    (void)state;
    record r = series(TS0, 0, 0x161, 7, 3);
    const uint64_t hour = 3600000;
    plan p;
    plan_init(&p);
    query q = range_of(QUERY_RANGE, r, TS0 + 5, TS0 + hour);
    plan_after("entity ts", NULL, &q, &p);
    assert_true(p.exact);
    plan_after("entity revts:str", NULL, &q, &p);
    assert_true(p.exact);
    /* whole hours hold the times around the bounds: exact only when the
     * range is whole hours itself */
    plan_after("entity hour(ts)", NULL, &q, &p);
    assert_int_equal(p.nranges, 1);
    assert_false(p.exact);
    q = range_of(QUERY_RANGE, r, TS0, TS0 + 2 * hour - 1);
    plan_after("entity hour(ts)", NULL, &q, &p);
    assert_true(p.exact);
    q = range_of(QUERY_RANGE, r, TS0, TS0 + 2 * hour);
    plan_after("entity hour(ts)", NULL, &q, &p);
    assert_false(p.exact);
    q = range_of(QUERY_WINDOW, r, TS0 + 1, TS0 + 2 * hour - 1);
    plan_after("hour(ts) entity", NULL, &q, &p);
    assert_false(p.exact);
    q = range_of(QUERY_WINDOW, r, 0, TS0 + hour - 1); /* from time 0: nothing before */
    plan_after("hour(ts) entity", NULL, &q, &p);
    assert_true(p.exact);
    /* ts:str across a change in its digit count: the whole prefix */
    q = range_of(QUERY_RANGE, r, UINT64_C(9999999999000), UINT64_C(10000000001000));
    plan_after("entity ts:str", NULL, &q, &p);
    assert_false(p.exact);
    /* no time field: the entity's row holds every time */
    q = range_of(QUERY_RANGE, r, TS0, TS0 + 10);
    plan_after("entity", NULL, &q, &p);
    assert_int_equal(p.nranges, 1);
    assert_false(p.exact);
    q = latest_of(r, 3);
    plan_after("entity", NULL, &q, &p);
    assert_true(p.exact);

    /* a 1-byte entity UID pins the entity until a 256th entity is written:
     * then UID 256 is written as 00, UID 257 as 01, ... */
    keyscheme *ks = parse_ok("uid(entity, 1) ts");
    keyencoder *ke = keyencoder_new(ks, 5);
    uint8_t key[KEYSCHEME_MAX_KEY];
    for (uint32_t e = 0; e < 256; e++) {
        record w = series(TS0 + e, e, e, 0, 0);
        keyencoder_encode(ke, &w, key, sizeof key);
        q = range_of(QUERY_RANGE, w, TS0, TS0 + hour);
        assert_int_equal(plan_count(ke, &q, &p), 1);
        assert_int_equal(p.exact, e < 255);
    }
    keyencoder_free(ke);
    keyscheme_free(ks);
    plan_release(&p);
}

/* ---- SCAN: YCSB's scan, the first `limit` rows by name from a record's ---- */

static query scan_of(record r, uint32_t limit)
{
    query q = { .kind = QUERY_SCAN, .rec = r, .limit = limit };
    return q;
}

static record user_rec(uint32_t id)
{
    record r = { .ts_ms = TS0, .seq = id, .entity = id, .naming = NAMING_USER };
    return r;
}

/* Every range of p carries `limit`, scans forward, and p is exact (or
 * not) and no full scan. */
static void expect_scan(const plan *p, size_t nranges, uint32_t limit, int exact)
{
    assert_false(p->full_scan);
    assert_int_equal(p->nranges, nranges);
    assert_int_equal(p->exact, exact);
    for (size_t i = 0; i < p->nranges; i++) {
        assert_int_equal(p->ranges[i].limit, limit);
        assert_false(p->ranges[i].reverse);
    }
}

static void expect_full_scan(const plan *p)
{
    assert_true(p->full_scan);
    assert_false(p->exact);
    assert_int_equal(p->nranges, 1);
    assert_int_equal(p->ranges[0].limit, 0);
}

/* `key` and `entity:str`: one range from the name to the end of the
 * table, `limit` rows, exact: YCSB's Scan from startRow with its limit. */
static void test_plan_scan_name(void **state)
{
    (void)state;
    record u = user_rec(42);
    char name[RECORD_NAME_MAX + 1];
    size_t n = record_name(&u, name, sizeof name);
    plan p;
    plan_init(&p);
    query q = scan_of(u, 100);
    plan_after("key", NULL, &q, &p); /* nothing written: a SCAN looks no UID up */
    expect_scan(&p, 1, 100, 1);
    expect_range(&p, 0, name, n, NULL, 0);
    plan_after("entity:str", NULL, &q, &p);
    expect_scan(&p, 1, 100, 1);
    expect_range(&p, 0, name, n, NULL, 0);

    /* a trace's key, raw bytes: `key` writes it as is */
    static const uint8_t raw[5] = { 'r', 0x00, 0xFF, '\\', 'w' };
    record t = { .ts_ms = TS0, .naming = NAMING_KEY, .key = raw, .key_len = 5 };
    q = scan_of(t, 7);
    plan_after("key", NULL, &q, &p);
    expect_scan(&p, 1, 7, 1);
    expect_range(&p, 0, raw, 5, NULL, 0);
    /* ... but entity:str writes its shell form, out of the raw bytes' order */
    plan_after("entity:str", NULL, &q, &p);
    expect_full_scan(&p);

    /* series names */
    record s = series(TS0, 0, 0x161, 7, 3);
    q = scan_of(s, 3);
    plan_after("entity:str", NULL, &q, &p);
    expect_scan(&p, 1, 3, 1);
    expect_range(&p, 0, "metric.007/host0003", 19, NULL, 0);

    /* constant fields before the name are appended; the range ends with
     * the prefix (its successor) */
    q = scan_of(u, 5);
    plan_after("\"t:\" key", NULL, &q, &p);
    expect_scan(&p, 1, 5, 1);
    uint8_t lo[64] = "t:";
    memcpy(lo + 2, name, n);
    expect_range(&p, 0, lo, n + 2, "t;", 2);
    plan_after("\"\\xFF\" key", NULL, &q, &p); /* no key past \xFF...: to the end */
    expect_scan(&p, 1, 5, 1);
    assert_int_equal(p.ranges[0].hi_len, 0);
    assert_memory_equal(range_lo(&p, 0), "\xFF", 1);
    /* a transform of constants is a constant: the range starts at the key */
    uint8_t key[KEYSCHEME_MAX_KEY];
    size_t kn = encode_once("md5(\"x\")[0:2] - key", &u, key);
    plan_after("md5(\"x\")[0:2] - key", NULL, &q, &p);
    expect_scan(&p, 1, 5, 1);
    uint8_t hi[3] = { key[0], key[1], '.' }; /* the successor of md5[0:2] "-" */
    expect_range(&p, 0, key, kn, hi, 3);
    plan_release(&p);
}

/* A bucket before the name is expanded to every bucket, even when the
 * query could compute the record's own: rows of later names are in every
 * bucket. One range per bucket, [bucket + name, bucket + 1), each with the
 * limit: the client merges the N sorted streams and keeps the first
 * `limit` (what a scan of a Phoenix salted table does). */
static void test_plan_scan_buckets(void **state)
{
    (void)state;
    record u = user_rec(42);
    char name[RECORD_NAME_MAX + 1];
    size_t n = record_name(&u, name, sizeof name);
    plan p;
    plan_init(&p);
    query q = scan_of(u, 10);
    plan_after("salt(8) key", NULL, &q, &p);
    expect_scan(&p, 8, 10, 1);
    for (uint8_t b = 0; b < 8; b++) {
        uint8_t lo[64] = { b }, hi[1] = { (uint8_t)(b + 1) };
        memcpy(lo + 1, name, n);
        expect_range(&p, b, lo, n + 1, hi, 1);
    }
    plan_after("hash(4, entity) entity:str", NULL, &q, &p); /* computable, still 4 */
    expect_scan(&p, 4, 10, 1);
    plan_after("psalt(4) key", NULL, &q, &p);
    expect_scan(&p, 4, 10, 1);
    plan_after("osalt(4) key", NULL, &q, &p);
    expect_scan(&p, 4, 10, 1);
    plan_after("hash(4, key):str - key", NULL, &q, &p); /* the Reference Guide's a-foo0003 */
    expect_scan(&p, 4, 10, 1);
    for (uint8_t b = 0; b < 4; b++) {
        uint8_t lo[64] = { (uint8_t)('a' + b), '-' }, hi[2] = { (uint8_t)('a' + b), '.' };
        memcpy(lo + 2, name, n);
        expect_range(&p, b, lo, n + 2, hi, 2);
    }
    plan_after("salt(300) key", NULL, &q, &p); /* 2-byte prefixes */
    expect_scan(&p, 300, 10, 1);
    assert_memory_equal(range_lo(&p, 299), "\x01\x2B", 2);
    assert_memory_equal(range_hi(&p, 299), "\x01\x2C", 2);
    plan_after("salt(1) key", NULL, &q, &p); /* one bucket: always 0 */
    expect_scan(&p, 1, 10, 1);
    uint8_t lo1[64] = { 0 };
    memcpy(lo1 + 1, name, n);
    expect_range(&p, 0, lo1, n + 1, "\x01", 1);
    plan_after("salt(2) \"x\" salt(2) key", NULL, &q, &p);
    expect_scan(&p, 4, 10, 1);
    assert_memory_equal(range_lo(&p, 2), "\x01x\x00", 3);
    assert_memory_equal(range_hi(&p, 2), "\x01x\x01", 3);
    plan_after("salt(256) salt(256) salt(2) key", NULL, &q, &p); /* 131072 ranges: too many */
    expect_full_scan(&p);
    plan_release(&p);
}

/* Fields after the name do not narrow the start (every row of the name is
 * in, from its first). The limit holds only where rows sort by name. */
static void test_plan_scan_fields_after_the_name(void **state)
{
    (void)state;
    record s = series(TS0, 0, 0x161, 7, 3);
    plan p;
    plan_init(&p);
    query q = scan_of(s, 4);
    /* a separator below every name byte ends the name: "x#" < "x1" */
    plan_after("entity:str # ts:str", NULL, &q, &p);
    expect_scan(&p, 1, 4, 1);
    expect_range(&p, 0, "metric.007/host0003", 19, NULL, 0);
    plan_after("entity:str - ts", NULL, &q, &p);
    expect_scan(&p, 1, 4, 1);
    plan_after("salt(8) key \"\\x00\" seq", NULL, &q, &p);
    expect_scan(&p, 8, 4, 1);
    /* without one, "host1234" then ts:str sorts among "host12345": the
     * range from the name holds every later name but not in name order,
     * so no limit: the client reads the range and keeps the first 4 */
    plan_after("entity:str ts:str", NULL, &q, &p);
    expect_scan(&p, 1, 0, 0);
    expect_range(&p, 0, "metric.007/host0003", 19, NULL, 0);
    plan_after("entity:str . ts", NULL, &q, &p); /* '.' is in names */
    expect_scan(&p, 1, 0, 0);
    plan_after("salt(4) key ts", NULL, &q, &p);
    expect_scan(&p, 4, 0, 0);
    plan_after("key \"\"", NULL, &q, &p); /* an empty literal writes nothing */
    expect_scan(&p, 1, 4, 1);
    record u = user_rec(42);
    q = scan_of(u, 4);
    plan_after("entity:str ts", NULL, &q, &p); /* user1 and user12 */
    expect_scan(&p, 1, 0, 0);
    static const uint8_t raw[3] = { 'a', 'b', 'c' };
    record t = { .ts_ms = TS0, .naming = NAMING_KEY, .key = raw, .key_len = 3 };
    q = scan_of(t, 4);
    plan_after("key # ts", NULL, &q, &p); /* raw keys may hold any byte, '#' too */
    expect_scan(&p, 1, 0, 0);

    /* names no name extends: fixed-width ids, domain names */
    record id = { .ts_ms = TS0, .entity = 0x161, .naming = NAMING_ID };
    q = scan_of(id, 4);
    plan_after("entity:str ts", NULL, &q, &p);
    expect_scan(&p, 1, 4, 1);
    expect_range(&p, 0, "0000000353", 10, NULL, 0);
    plan_after("entity ts", NULL, &q, &p); /* the id's order is the name's */
    expect_scan(&p, 1, 4, 1);
    expect_range(&p, 0, "\x00\x00\x01\x61", 4, NULL, 0);
    plan_after("hash(8, entity) entity revts", NULL, &q, &p);
    expect_scan(&p, 8, 4, 1);
    /* YCSB's names padded to their longest number: user0000000353 */
    record o = { .ts_ms = TS0, .entity = 0x161, .naming = NAMING_USER_ORDERED, .name_pad = 10 };
    q = scan_of(o, 4);
    plan_after("entity ts", NULL, &q, &p);
    expect_scan(&p, 1, 4, 1);
    plan_after("key ts", NULL, &q, &p);
    expect_scan(&p, 1, 4, 1);
    expect_range(&p, 0, "user0000000353", 14, NULL, 0);
    o.name_pad = 1; /* user353: user3531 goes on from it */
    q = scan_of(o, 4);
    plan_after("key ts", NULL, &q, &p);
    expect_scan(&p, 1, 0, 0);
    expect_range(&p, 0, "user353", 7, NULL, 0);
    plan_after("key", NULL, &q, &p); /* the name alone: in order, padded or not */
    expect_scan(&p, 1, 4, 1);
    u.name_pad = 19; /* user + fnvhash64: at most 19 digits */
    q = scan_of(u, 4);
    plan_after("entity:str ts", NULL, &q, &p);
    expect_scan(&p, 1, 4, 1);

    record d = { .ts_ms = TS0, .entity = 170, .naming = NAMING_DOMAIN };
    q = scan_of(d, 4);
    plan_after("key seq", NULL, &q, &p);
    expect_scan(&p, 1, 4, 1);
    expect_range(&p, 0, "api.site00042.com", 17, NULL, 0);
    plan_release(&p);
}

/* The name not first after buckets and constants, or not written in name
 * order: nothing to seek on, a full scan (one unbounded range, no limit:
 * the client filters and keeps the first `limit` by name). */
static void test_plan_scan_full(void **state)
{
    (void)state;
    static const char *const full[] = {
        "ts key", "seq key", "salt(8) ts key", "uid(entity, 3) key", "uid(metric, 3) entity:str",
        "reverse(key)", "revdomain(entity:str) ts", "md5(key)", "hash(8, key)",
        "uid(metric, 3) hour(ts) tags", "osalt(20) uid(metric, 3) hour(ts) tags",
        "entity", "entity ts", "tags key",
    };
    record s = series(TS0, 0, 0x161, 7, 3);
    plan p;
    plan_init(&p);
    query q = scan_of(s, 10);
    for (size_t i = 0; i < sizeof full / sizeof full[0]; i++) {
        plan_after(full[i], &s, &q, &p); /* written: its UIDs exist */
        if (!p.full_scan)
            fail_msg("'%s': a SCAN planned %zu ranges, not a full scan", full[i], p.nranges);
        expect_full_scan(&p);
    }
    /* entity's 4 bytes are in name order only under NAMING_ID, or YCSB's
     * ordered names padded to 10 digits */
    record u = user_rec(42);
    q = scan_of(u, 10);
    plan_after("entity", NULL, &q, &p);
    expect_full_scan(&p);
    u.name_pad = 19;
    q = scan_of(u, 10);
    plan_after("entity", NULL, &q, &p); /* hashed: not the id's order */
    expect_full_scan(&p);
    record o = { .ts_ms = TS0, .entity = 42, .naming = NAMING_USER_ORDERED, .name_pad = 9 };
    q = scan_of(o, 10);
    plan_after("entity", NULL, &q, &p); /* user999999999 after user1000000000 */
    expect_full_scan(&p);
    record d = { .ts_ms = TS0, .entity = 170, .naming = NAMING_DOMAIN };
    q = scan_of(d, 10);
    plan_after("entity", NULL, &q, &p);
    expect_full_scan(&p);
    plan_release(&p);
}

/* Every preset leads with a time, a bucket and a time, a digest, a UID, a
 * sequence number or a reversed name: a SCAN is a full scan, except
 * promoted and revts (the entity id first) when names are ordered ids. */
static void test_plan_scan_presets(void **state)
{
    (void)state;
    plan p;
    plan_init(&p);
    for (size_t i = 0; i < NPRESETS; i++) {
        char expr[128];
        assert_int_equal(keyscheme_preset_expr(PRESETS8[i].name, 8, expr, sizeof expr), 0);
        record s = series(TS0, 42, 0x161, 7, 3);
        query q = scan_of(s, 10);
        plan_after(expr, &s, &q, &p);
        expect_full_scan(&p);
        record id = { .ts_ms = TS0, .entity = 0x161, .naming = NAMING_ID };
        q = scan_of(id, 10);
        plan_after(expr, &id, &q, &p);
        int by_id = !strcmp(PRESETS8[i].name, "promoted") || !strcmp(PRESETS8[i].name, "revts");
        if (by_id)
            expect_scan(&p, 1, 10, 1);
        else
            expect_full_scan(&p);
    }
    plan_release(&p);
}

/* The limit: on every range as given; a SCAN of 0 rows plans none. */
static void test_plan_scan_limit(void **state)
{
    (void)state;
    record u = user_rec(7);
    plan p;
    plan_init(&p);
    static const uint32_t limits[] = { 1, 100, 1000, UINT32_MAX };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        query q = scan_of(u, limits[i]);
        plan_after("salt(16) key", NULL, &q, &p);
        expect_scan(&p, 16, limits[i], 1);
        plan_after("key", NULL, &q, &p);
        expect_scan(&p, 1, limits[i], 1);
    }
    query q = scan_of(u, 0);
    plan_after("salt(16) key", NULL, &q, &p);
    assert_int_equal(p.nranges, 0);
    assert_false(p.full_scan);
    plan_after("ts key", NULL, &q, &p);
    assert_int_equal(p.nranges, 0);
    plan_release(&p);
}

/* ---- the property test: plans never miss a row and, where the key pins
 * the query down, hold nothing else ---- */

#define PROP_RECORDS 300
#define PROP_ENTITIES 12      /* metric = e / 4, host = e % 4 */
#define PROP_QUERIES 150
#define PROP_KEY 64

enum { EXACT_RANGE = 1, EXACT_LATEST = 2, EXACT_WINDOW = 4, EXACT_METRIC = 8 };

typedef struct prop_row {
    uint8_t key[PROP_KEY];
    size_t len;
} prop_row;

typedef struct prop_world {
    record rec[PROP_RECORDS];
    size_t row_of[PROP_RECORDS];    /* the row each record was written to */
    prop_row rows[PROP_RECORDS];    /* distinct keys, sorted */
    size_t nrows;
    uint8_t wanted[PROP_RECORDS];   /* per record, for the query at hand */
    uint8_t eligible[PROP_RECORDS]; /* SCAN: named at or after the query's record */
    uint8_t row_wanted[PROP_RECORDS];
    uint8_t row_taken[PROP_RECORDS];
} prop_world;

static uint64_t prop_next(uint64_t *s)
{
    *s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *s >> 33;
}

static int row_order(const void *a, const void *b)
{
    const prop_row *x = a, *y = b;
    return cmp_bytes(x->key, x->len, y->key, y->len);
}

static size_t find_row(const prop_world *w, const uint8_t *key, size_t len)
{
    for (size_t i = 0; i < w->nrows; i++)
        if (cmp_bytes(w->rows[i].key, w->rows[i].len, key, len) == 0)
            return i;
    fail_msg("key not written");
    return 0;
}

static record scan_entity(const record *names, uint32_t e);

/* Writes PROP_RECORDS records (unique increasing times over ~7.5 hours,
 * entities at random, named as `names` says: naming, name_pad) with ke;
 * sorts the distinct keys into rows. */
static void prop_write(prop_world *w, keyencoder *ke, uint64_t *seed, const record *names)
{
    uint8_t keys[PROP_RECORDS][PROP_KEY];
    size_t lens[PROP_RECORDS];
    w->nrows = 0;
    for (size_t i = 0; i < PROP_RECORDS; i++) {
        uint32_t e = (uint32_t)(prop_next(seed) % PROP_ENTITIES);
        w->rec[i] = scan_entity(names, e);
        w->rec[i].ts_ms = TS0 + i * 90000 + prop_next(seed) % 60000;
        w->rec[i].seq = i;
        uint8_t key[KEYSCHEME_MAX_KEY];
        lens[i] = keyencoder_encode(ke, &w->rec[i], key, sizeof key);
        assert_true(lens[i] <= PROP_KEY);
        memcpy(keys[i], key, lens[i]);
        int seen = 0;
        for (size_t j = 0; j < w->nrows && !seen; j++)
            seen = cmp_bytes(w->rows[j].key, w->rows[j].len, key, lens[i]) == 0;
        if (!seen) {
            memcpy(w->rows[w->nrows].key, key, lens[i]);
            w->rows[w->nrows++].len = lens[i];
        }
    }
    qsort(w->rows, w->nrows, sizeof w->rows[0], row_order);
    for (size_t i = 0; i < PROP_RECORDS; i++)
        w->row_of[i] = find_row(w, keys[i], lens[i]);
}

/* A random query over the written world (entities 12, 13 and metric 3:
 * never written). A METRIC query's record also names an entity, host and
 * tag at random: it must plan on the metric alone. */
static query prop_query(const prop_world *w, uint64_t *seed)
{
    uint32_t e = (uint32_t)(prop_next(seed) % (PROP_ENTITIES + 2));
    record ent = series(0, 0, e, e / 4, e % 4);
    uint64_t span = PROP_RECORDS * UINT64_C(90000);
    uint64_t from = TS0 + prop_next(seed) % span, len = prop_next(seed) % (span / 3);
    if (prop_next(seed) % 5 == 0) {
        record m = series(0, prop_next(seed), (uint32_t)prop_next(seed), e / 4, (uint32_t)prop_next(seed));
        m.tag = (uint32_t)prop_next(seed);
        return range_of(QUERY_METRIC, m, from, prop_next(seed) % 10 ? from + len : from - 1);
    }
    switch (prop_next(seed) % 4) {
    case 0:
        return get_of(w->rec[prop_next(seed) % PROP_RECORDS]);
    case 1:
        return range_of(QUERY_RANGE, ent, from, prop_next(seed) % 10 ? from + len : from - 1);
    case 2:
        return latest_of(ent, (uint32_t)(prop_next(seed) % 6));
    default:
        return range_of(QUERY_WINDOW, ent, from, from + len);
    }
}

/* Marks the records q wants: LATEST, the entity's newest `limit`. */
static void prop_want(prop_world *w, const query *q)
{
    memset(w->row_wanted, 0, sizeof w->row_wanted);
    for (size_t i = 0; i < PROP_RECORDS; i++) {
        const record *r = &w->rec[i];
        int in_time = q->from_ms <= r->ts_ms && r->ts_ms <= q->to_ms;
        switch (q->kind) {
        case QUERY_GET:    w->wanted[i] = r->seq == q->rec.seq; break;
        case QUERY_RANGE:  w->wanted[i] = r->entity == q->rec.entity && in_time; break;
        case QUERY_WINDOW: w->wanted[i] = in_time; break;
        case QUERY_METRIC: w->wanted[i] = r->metric == q->rec.metric && in_time; break;
        case QUERY_LATEST: {
            size_t newer = 0;
            for (size_t j = i + 1; j < PROP_RECORDS; j++) /* times increase with i */
                newer += w->rec[j].entity == r->entity;
            w->wanted[i] = r->entity == q->rec.entity && newer < q->limit;
            break;
        }
        case QUERY_SCAN: /* scan_want: by name order over the rows */
        case QUERY_KINDS:
            break;
        }
        if (w->wanted[i])
            w->row_wanted[w->row_of[i]] = 1;
    }
}

/* The rows an HBase client gets for p: each range scanned in its
 * direction, up to its limit; `filtered`: only rows holding a record the
 * query may want count (and are kept), as a server-side filter does: of
 * a LATEST's entity, named at or after a SCAN's record. */
static void prop_scan(prop_world *w, const plan *p, const query *q, int filtered)
{
    memset(w->row_taken, 0, sizeof w->row_taken);
    for (size_t i = 0; i < p->nranges; i++) {
        const key_range *r = &p->ranges[i];
        uint32_t taken = 0;
        for (size_t n = 0; n < w->nrows && (r->limit == 0 || taken < r->limit); n++) {
            size_t row = r->reverse ? w->nrows - 1 - n : n;
            if (!in_range(p, i, w->rows[row].key, w->rows[row].len))
                continue;
            int keep = !filtered;
            for (size_t j = 0; j < PROP_RECORDS && !keep; j++)
                keep = w->row_of[j] == row && (q->kind != QUERY_LATEST || w->rec[j].entity == q->rec.entity)
                    && (q->kind != QUERY_SCAN || w->eligible[j]);
            if (keep) {
                w->row_taken[row] = 1;
                taken++;
            }
        }
    }
}

static void prop_check(const char *expr, unsigned exact)
{
    static prop_world w;
    keyscheme *ks = parse_ok(expr);
    keyencoder *ke = keyencoder_new(ks, 11);
    uint64_t seed = 2024;
    record names = { .naming = NAMING_SERIES };
    prop_write(&w, ke, &seed, &names);
    plan p, bare_plan;
    plan_init(&p); /* one plan for every query: buffers are reused */
    plan_init(&bare_plan);
    for (int n = 0; n < PROP_QUERIES; n++) {
        query q = prop_query(&w, &seed);
        prop_want(&w, &q);
        assert_int_equal(keyencoder_plan(ke, &q, &p), 0);
        check_plan_shape(&p);
        if (q.kind == QUERY_METRIC) { /* the metric alone decides the plan */
            query bare = range_of(QUERY_METRIC, series(0, 0, 0, q.rec.metric, 0), q.from_ms, q.to_ms);
            assert_int_equal(keyencoder_plan(ke, &bare, &bare_plan), 0);
            assert_int_equal(bare_plan.nranges, p.nranges);
            assert_int_equal(bare_plan.full_scan, p.full_scan);
            assert_int_equal(bare_plan.exact, p.exact);
            assert_int_equal(bare_plan.nbytes, p.nbytes);
            if (p.nbytes)
                assert_memory_equal(bare_plan.bytes, p.bytes, p.nbytes);
        }
        /* sound: every wanted record's row is read */
        prop_scan(&w, &p, &q, 1);
        for (size_t i = 0; i < PROP_RECORDS; i++)
            if (w.wanted[i] && !w.row_taken[w.row_of[i]])
                fail_msg("%s: query kind %d misses record %zu", expr, (int)q.kind, i);
        /* exactly the kinds the scheme serves exactly are planned exact (a
         * GET always; a full scan never) */
        unsigned kind_bit = q.kind == QUERY_RANGE ? EXACT_RANGE : q.kind == QUERY_LATEST ? EXACT_LATEST
                          : q.kind == QUERY_WINDOW ? EXACT_WINDOW : q.kind == QUERY_METRIC ? EXACT_METRIC : 0;
        int want_exact = !p.full_scan && (q.kind == QUERY_GET || (exact & kind_bit));
        if (p.nranges > 0 && p.exact != want_exact)
            fail_msg("%s: query kind %d planned %s", expr, (int)q.kind, p.exact ? "exact" : "inexact");
        if (!p.exact)
            continue;
        /* exact: without a filter, every row read is wanted; a LATEST
         * over N ranges reads `limit` rows of its entity from each (the
         * client merges them): they are its rows, not all among the
         * newest `limit` */
        prop_scan(&w, &p, &q, 0);
        for (size_t row = 0; row < w.nrows; row++) {
            int ok = w.row_wanted[row];
            for (size_t j = 0; j < PROP_RECORDS && !ok && q.kind == QUERY_LATEST && p.nranges > 1; j++)
                ok = w.row_of[j] == row && w.rec[j].entity == q.rec.entity;
            if (w.row_taken[row] && !ok)
                fail_msg("%s: query kind %d reads row %zu it does not want", expr, (int)q.kind, row);
        }
    }
    plan_release(&p);
    plan_release(&bare_plan);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

static void test_plan_property_presets(void **state)
{
    (void)state;
    static const struct { const char *name; unsigned exact; } presets[] = {
        { "monotonic", EXACT_WINDOW },
        { "salted", EXACT_WINDOW },
        { "hashed", EXACT_WINDOW },
        { "reversed", 0 },
        { "promoted", EXACT_RANGE | EXACT_LATEST },
        { "revts", EXACT_RANGE | EXACT_LATEST },
        { "md5", 0 },
        { "opentsdb", 0 },
        { "opentsdb-salted", 0 },
        { "revdomain", EXACT_RANGE | EXACT_LATEST },
        { "seq", 0 },
        { "seq-reversed", 0 },
    };
    assert_int_equal(sizeof presets / sizeof presets[0], NPRESETS);
    for (size_t i = 0; i < NPRESETS; i++) {
        char expr[128];
        assert_int_equal(keyscheme_preset_expr(presets[i].name, 8, expr, sizeof expr), 0);
        prop_check(expr, presets[i].exact);
    }
}

static void test_plan_property_schemes(void **state)
{
    (void)state;
    prop_check("salt(4):str - ts:str", EXACT_WINDOW);
    prop_check("entity:str # ts:str", EXACT_RANGE | EXACT_LATEST);
    prop_check("hash(8, entity) entity revts", EXACT_RANGE | EXACT_LATEST);
    /* a LATEST over N buckets reads `limit` rows of its entity from each
     * (the client merges): exact, no filter, but more rows than it keeps */
    prop_check("hash(4, ts) entity ts", EXACT_RANGE | EXACT_LATEST);
    prop_check("psalt(8) entity ts", EXACT_RANGE | EXACT_LATEST);
    prop_check("osalt(4) uid(entity, 2) revts:str", EXACT_RANGE | EXACT_LATEST);
    prop_check("entity salt(4) ts", EXACT_RANGE | EXACT_LATEST);
    prop_check("ts entity", EXACT_WINDOW);
    prop_check("uid(metric, 3) hour(ts) tags(2)", 0);
    prop_check("hour(ts) entity ts", 0);
    /* the metric ahead of a fine time field: a metric read is exact */
    prop_check("uid(metric, 3) ts uid(host, 2)", EXACT_METRIC);
    prop_check("osalt(4) uid(metric, 2) revts tags", EXACT_METRIC);
    prop_check("hash(4, uid(metric, 1)) uid(metric, 1) ts entity", EXACT_METRIC);
    prop_check("osalt(4) uid(metric, 3) hour(ts) tags(2)", 0);
}

/* ---- the SCAN property test: the first `limit` rows by name from a
 * record's name are read, and an exact plan reads only rows at or after
 * the name ---- */

/* Trace keys for entities 0 .. PROP_ENTITIES + 1 (the last two never
 * written): names that begin others ("1", "11", "111"), raw bytes below
 * and above the printable ones. */
static const char *const scan_keys[PROP_ENTITIES + 2] = {
    "1", "11", "111", "12", "2", "21", "a", "ab", "b\x01", "b~", "c\xff", "~",
    "11a", "0",
};

/* The record's name as a SCAN orders it: its trace key, else record_name. */
static size_t name_of(const record *r, uint8_t *out, size_t cap)
{
    if (r->key) {
        assert_true(r->key_len <= cap);
        memcpy(out, r->key, r->key_len);
        return r->key_len;
    }
    size_t n = record_name(r, (char *)out, cap);
    assert_true(n < cap);
    return n;
}

/* Entity e named as `names` says (naming, name_pad). */
static record scan_entity(const record *names, uint32_t e)
{
    record r = series(0, 0, e, e / 4, e % 4);
    r.naming = names->naming;
    r.name_pad = names->name_pad;
    if (r.naming == NAMING_KEY) {
        r.key = (const uint8_t *)scan_keys[e];
        r.key_len = (uint16_t)strlen(scan_keys[e]);
    }
    return r;
}

/* (name, row key) of record i against record j's. */
static int scan_order(const prop_world *w, size_t i, size_t j)
{
    uint8_t a[64], b[64];
    size_t an = name_of(&w->rec[i], a, sizeof a), bn = name_of(&w->rec[j], b, sizeof b);
    int c = cmp_bytes(a, an, b, bn);
    if (c)
        return c;
    const prop_row *x = &w->rows[w->row_of[i]], *y = &w->rows[w->row_of[j]];
    return cmp_bytes(x->key, x->len, y->key, y->len);
}

/* The rows a SCAN wants: of the records named at or after q's name
 * (w->eligible), the rows of the first `limit` in (name, row key) order. */
static void scan_want(prop_world *w, const query *q)
{
    uint8_t start[64], name[64];
    size_t sn = name_of(&q->rec, start, sizeof start);
    memset(w->row_wanted, 0, sizeof w->row_wanted);
    for (size_t i = 0; i < PROP_RECORDS; i++) {
        size_t n = name_of(&w->rec[i], name, sizeof name);
        w->eligible[i] = cmp_bytes(name, n, start, sn) >= 0;
    }
    for (uint32_t taken = 0; taken < q->limit; taken++) {
        size_t best = PROP_RECORDS;
        for (size_t i = 0; i < PROP_RECORDS; i++)
            if (w->eligible[i] && !w->row_wanted[w->row_of[i]] &&
                (best == PROP_RECORDS || scan_order(w, i, best) < 0))
                best = i;
        if (best == PROP_RECORDS)
            break;
        w->row_wanted[w->row_of[best]] = 1;
    }
}

/* SCANs of every entity (two never written) with limits 1 .. 40 and one
 * above every row, under `naming` (YCSB names zero-padded to `pad`
 * digits): the plan reads every wanted row (HBase's way: each range up to
 * its limit, the limit counting rows the client's filter keeps); it is
 * exact, with the limit on every range, as `exact` says (or a full scan:
 * FULL), and an exact plan reads nothing before the name. */
static void prop_check_scan_padded(const char *expr, uint8_t naming, uint8_t pad, int exact)
{
    static prop_world w;
    keyscheme *ks = parse_ok(expr);
    keyencoder *ke = keyencoder_new(ks, 11);
    uint64_t seed = 77;
    record names = { .naming = naming, .name_pad = pad };
    prop_write(&w, ke, &seed, &names);
    plan p;
    plan_init(&p);
    for (uint32_t e = 0; e < PROP_ENTITIES + 2; e++) {
        static const uint32_t limits[] = { 1, 2, 3, 7, 40, PROP_RECORDS + 1 };
        for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
            query q = scan_of(scan_entity(&names, e), limits[l]);
            scan_want(&w, &q);
            assert_int_equal(keyencoder_plan(ke, &q, &p), 0);
            check_plan_shape(&p);
            if (exact == FULL) {
                expect_full_scan(&p);
            } else if (p.full_scan || p.exact != exact) {
                fail_msg("%s: a SCAN planned %s", expr, p.full_scan ? "a full scan" : p.exact ? "exact" : "inexact");
            }
            for (size_t i = 0; i < p.nranges && !p.full_scan; i++)
                assert_int_equal(p.ranges[i].limit, exact ? limits[l] : 0);
            prop_scan(&w, &p, &q, 1);
            for (size_t row = 0; row < w.nrows; row++)
                if (w.row_wanted[row] && !w.row_taken[row])
                    fail_msg("%s: the SCAN of entity %u, limit %u, misses row %zu", expr, e, limits[l], row);
            if (!p.exact)
                continue;
            prop_scan(&w, &p, &q, 0);
            for (size_t i = 0; i < PROP_RECORDS; i++)
                if (w.row_taken[w.row_of[i]] && !w.eligible[i])
                    fail_msg("%s: the exact SCAN of entity %u reads record %zu, named before it", expr, e, i);
        }
    }
    plan_release(&p);
    keyencoder_free(ke);
    keyscheme_free(ks);
}

static void prop_check_scan(const char *expr, uint8_t naming, int exact)
{
    prop_check_scan_padded(expr, naming, 0, exact);
}

static void test_plan_property_scan(void **state)
{
    (void)state;
    prop_check_scan("key", NAMING_KEY, 1);
    prop_check_scan("key", NAMING_USER, 1);
    prop_check_scan("entity:str", NAMING_SERIES, 1);
    prop_check_scan("salt(8) key", NAMING_KEY, 1);
    prop_check_scan("salt(8) key", NAMING_USER, 1);
    prop_check_scan("hash(4, entity) entity:str", NAMING_USER, 1);
    prop_check_scan("hash(4, key):str - key", NAMING_KEY, 1);
    prop_check_scan("psalt(4) \"t\" key", NAMING_ID, 1);
    prop_check_scan("osalt(3) key ts", NAMING_DOMAIN, 1);
    prop_check_scan("entity:str # ts:str", NAMING_SERIES_TAGGED, 1);
    prop_check_scan("entity ts", NAMING_ID, 1);
    prop_check_scan("salt(4) entity:str seq:str", NAMING_ID, 1);
    /* names that begin others, followed by more fields: no limit */
    prop_check_scan("key ts:str", NAMING_KEY, 0);
    prop_check_scan("salt(4) key # ts", NAMING_KEY, 0);
    prop_check_scan("entity:str ts:str", NAMING_USER, 0);
    prop_check_scan("entity:str seq", NAMING_SERIES, 0);
    /* YCSB's ordered names: user1 begins user10 .. user13 unpadded */
    prop_check_scan("key", NAMING_USER_ORDERED, 1);
    prop_check_scan("salt(4) key ts:str", NAMING_USER_ORDERED, 0);
    prop_check_scan_padded("salt(4) key ts:str", NAMING_USER_ORDERED, 10, 1);
    prop_check_scan_padded("entity ts", NAMING_USER_ORDERED, 10, 1);
    prop_check_scan_padded("entity ts", NAMING_USER_ORDERED, 9, FULL);
    prop_check_scan_padded("entity:str ts", NAMING_USER, 19, 1);
    prop_check_scan_padded("entity:str ts", NAMING_USER, 18, 0);
    /* nothing to seek on */
    prop_check_scan("entity:str", NAMING_KEY, FULL);
    prop_check_scan("entity ts", NAMING_USER, FULL);
    prop_check_scan("ts key", NAMING_USER, FULL);
    prop_check_scan("uid(metric, 3) hour(ts) tags", NAMING_SERIES, FULL);
    prop_check_scan("osalt(8) uid(metric, 3) hour(ts) tags", NAMING_SERIES, FULL);
    prop_check_scan("revdomain(entity:str) ts", NAMING_DOMAIN, FULL);
}

/* keyscheme_is_pure: the engine encodes writes ahead, out of order, when
 * it says 1, so a pure scheme's keys must not depend on the order of
 * encoding: the same records encoded forwards and backwards by two
 * encoders give the same keys. salt() and UIDs are not pure. */
static void test_pure_schemes_encode_in_any_order(void **state)
{
    (void)state;
    static const char *const pure[] = {
        "ts", "md5(ts)", "hash(8, entity) ts", "psalt(4) entity ts", "osalt(4) entity ts",
        "reverse(entity) seq", "entity:str revts", "hour(ts) entity",
    };
    static const char *const impure[] = {
        "salt(8) ts", "uid(metric, 3) hour(ts) tags", "uid(metric, 3) ts",
    };
    enum { N = 40 };
    record recs[N];
    for (int i = 0; i < N; i++)
        recs[i] = series(TS0 + 997 * (uint64_t)i, (uint64_t)i, (uint32_t)(i * 7 % 13),
                         (uint32_t)(i % 5), (uint32_t)(i * 3 % 11));
    uint8_t *a = malloc(KEYSCHEME_MAX_KEY), *b = malloc(KEYSCHEME_MAX_KEY);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t s = 0; s < sizeof pure / sizeof *pure; s++) {
        keyscheme *ks = parse_ok(pure[s]);
        assert_int_equal(keyscheme_is_pure(ks), 1);
        keyencoder *fwd = keyencoder_new(ks, 1), *back = keyencoder_new(ks, 2);
        assert_non_null(fwd);
        assert_non_null(back);
        size_t len[N];
        uint8_t keys[N][64];
        for (int i = 0; i < N; i++) {
            len[i] = keyencoder_encode(fwd, &recs[i], a, KEYSCHEME_MAX_KEY);
            assert_true(len[i] <= sizeof keys[i]);
            memcpy(keys[i], a, len[i]);
        }
        for (int i = N - 1; i >= 0; i--) {
            size_t n = keyencoder_encode(back, &recs[i], b, KEYSCHEME_MAX_KEY);
            assert_int_equal(n, len[i]);
            assert_memory_equal(b, keys[i], n);
        }
        keyencoder_free(fwd);
        keyencoder_free(back);
        keyscheme_free(ks);
    }
    for (size_t s = 0; s < sizeof impure / sizeof *impure; s++) {
        keyscheme *ks = parse_ok(impure[s]);
        assert_int_equal(keyscheme_is_pure(ks), 0);
        keyscheme_free(ks);
    }
    free(a);
    free(b);
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
        cmocka_unit_test(test_revts),
        cmocka_unit_test(test_revts_sorts_newest_first),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_md5),
        cmocka_unit_test(test_md5_small_buffer),
        cmocka_unit_test(test_md5_scatters),
        cmocka_unit_test(test_revdomain),
        cmocka_unit_test(test_key),
        cmocka_unit_test(test_uid_entity),
        cmocka_unit_test(test_tags_two),
        cmocka_unit_test(test_psalt_phoenix_vectors),
        cmocka_unit_test(test_psalt_is_hash_of_the_rest),
        cmocka_unit_test(test_osalt_opentsdb_vectors),
        cmocka_unit_test(test_osalt_ignores_time),
        cmocka_unit_test(test_osalt_around_a_nested_osalt),
        cmocka_unit_test(test_letters),
        cmocka_unit_test(test_bucket_prefix_new_fields),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_preset_nearest),
        cmocka_unit_test(test_preset_buckets_capped_at_65536),
        cmocka_unit_test(test_preset_is_its_expression),
        cmocka_unit_test(test_preset_bytes),
        cmocka_unit_test(test_seq_reversed_spreads),
        cmocka_unit_test(test_normalised_expression),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_plan_presets),
        cmocka_unit_test(test_plan_get_bytes),
        cmocka_unit_test(test_plan_get_is_the_written_key),
        cmocka_unit_test(test_plan_range_bytes),
        cmocka_unit_test(test_plan_opentsdb),
        cmocka_unit_test(test_plan_metric_presets),
        cmocka_unit_test(test_plan_metric_opentsdb),
        cmocka_unit_test(test_plan_buckets),
        cmocka_unit_test(test_plan_nothing),
        cmocka_unit_test(test_plan_exactness),
        cmocka_unit_test(test_plan_scan_name),
        cmocka_unit_test(test_plan_scan_buckets),
        cmocka_unit_test(test_plan_scan_fields_after_the_name),
        cmocka_unit_test(test_plan_scan_full),
        cmocka_unit_test(test_plan_scan_presets),
        cmocka_unit_test(test_plan_scan_limit),
        cmocka_unit_test(test_plan_property_presets),
        cmocka_unit_test(test_plan_property_schemes),
        cmocka_unit_test(test_plan_property_scan),
        cmocka_unit_test(test_pure_schemes_encode_in_any_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
