/* test_store.c -- the sorted row store against a brute-force reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/store.h"
#include "core/store_exact.h" /* the extension's transitions (test_extension) */

#define K(s) keyref_of((s), sizeof(s) - 1)

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* ---- the reference: an array of (key, bytes), sorted and unique ---------- */

#define REF_KEY_MAX 24

typedef struct ref_row {
    uint8_t key[REF_KEY_MAX];
    size_t len;
    uint64_t bytes;
} ref_row;

static int ref_compare(const void *a, const void *b)
{
    const ref_row *x = a, *y = b;
    return key_compare(keyref_of(x->key, x->len), keyref_of(y->key, y->len));
}

/* Sorts r[0..n) and folds equal keys; returns the number of rows. */
static size_t ref_unique(ref_row *r, size_t n)
{
    qsort(r, n, sizeof *r, ref_compare);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && ref_compare(&r[k - 1], &r[i]) == 0)
            r[k - 1].bytes += r[i].bytes;
        else
            r[k++] = r[i];
    }
    return k;
}

static size_t ref_lower_bound(const ref_row *r, size_t n, keyref k)
{
    size_t i = 0;
    while (i < n && key_compare(keyref_of(r[i].key, r[i].len), k) < 0)
        i++;
    return i;
}

static size_t ref_middle(const ref_row *r, size_t n)
{
    uint64_t total = 0, sum = 0;
    for (size_t i = 0; i < n; i++)
        total += r[i].bytes;
    for (size_t i = 0; i < n; i++) {
        sum += r[i].bytes;
        if (sum > total / 2)
            return i;
    }
    return n / 2;
}

static int key_equals(keyref a, const uint8_t *b, size_t len)
{
    return a.len == len && memcmp(a.data, b, len) == 0;
}

/* Every row, first/last and the middle key of s match r[0..n). */
static void check_rows(store *s, const ref_row *r, size_t n)
{
    assert_int_equal(store_rows(s), n);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        keyref k;
        uint64_t b;
        assert_int_equal(store_row_at(s, i, &k, &b), 0);
        assert_true(key_equals(k, r[i].key, r[i].len));
        assert_int_equal(b, r[i].bytes);
        total += b;
    }
    keyref k, l;
    uint64_t b;
    assert_int_equal(store_row_at(s, n, &k, &b), -1);
    assert_int_equal(store_bytes(s), total);
    assert_true(store_cells(s) >= n);
    if (n == 0) {
        assert_int_equal(store_first_last(s, &k, &l), -1);
        assert_int_equal(store_middle_key(s, &k), -1);
        return;
    }
    assert_int_equal(store_first_last(s, &k, &l), 0);
    assert_true(key_equals(k, r[0].key, r[0].len));
    assert_true(key_equals(l, r[n - 1].key, r[n - 1].len));
    assert_int_equal(store_middle_key(s, &k), 0);
    size_t m = ref_middle(r, n);
    assert_true(key_equals(k, r[m].key, r[m].len));
}

/* Random keys over a small alphabet, so that prefixes, NULs, 0xFF bytes
 * and duplicates are common; lengths 1..20 cross the 8-byte prefix. */
static size_t random_key(uint64_t *x, uint8_t *out)
{
    static const uint8_t alphabet[] = { 0x00, 0x01, 'a', 'b', 0xFF };
    size_t len = 1 + xorshift(x) % 20;
    if (xorshift(x) % 2)
        len = 1 + len % 4; /* many short keys: many duplicates */
    for (size_t i = 0; i < len; i++)
        out[i] = alphabet[xorshift(x) % sizeof alphabet];
    return len;
}

static ref_row *random_rows(uint64_t seed, size_t n)
{
    ref_row *r = calloc(n, sizeof *r);
    assert_non_null(r);
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        r[i].len = random_key(&x, r[i].key);
        r[i].bytes = xorshift(&x) % 1000;
    }
    return r;
}

static store *store_of(const ref_row *r, size_t n)
{
    store *s = store_new();
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(store_put(s, keyref_of(r[i].key, r[i].len),
                                   (uint32_t)r[i].bytes), 0);
    return s;
}

/* ---- tests --------------------------------------------------------------- */

static void test_empty(void **state)
{
    (void)state;
    store *s = store_new();
    assert_non_null(s);
    check_rows(s, NULL, 0);
    assert_int_equal(store_cells(s), 0);
    assert_int_equal(store_count_range(s, keyref_of(NULL, 0), keyref_of(NULL, 0)), 0);
    store *t = store_split(s, K("m"));
    assert_non_null(t);
    assert_int_equal(store_rows(t), 0);
    assert_true(store_memory(s) > 0);
    store_free(t);
    store_free(s);
    store_free(NULL);
}

static void test_byte_order(void **state)
{
    (void)state;
    /* In order: "a" < "a\0" < "ab" < "b" < "\xff" < "\xff\0" < "\xff\xff". */
    static const struct { const char *k; size_t len; } want[] = {
        { "a", 1 }, { "a\0", 2 }, { "ab", 2 }, { "b", 1 },
        { "\xff", 1 }, { "\xff\0", 2 }, { "\xff\xff", 2 },
        { "\xff\xff\xff\xff\xff\xff\xff\xff", 8 },
        { "\xff\xff\xff\xff\xff\xff\xff\xff\0", 9 },
        { "\xff\xff\xff\xff\xff\xff\xff\xff\x01", 9 },
    };
    size_t n = sizeof want / sizeof want[0];
    static const size_t order[] = { 6, 0, 9, 2, 7, 1, 5, 3, 8, 4 };
    store *s = store_new();
    for (size_t i = 0; i < n; i++) {
        size_t w = order[i];
        assert_int_equal(store_put(s, keyref_of(want[w].k, want[w].len), 1), 0);
    }
    assert_int_equal(store_rows(s), n);
    for (size_t i = 0; i < n; i++) {
        keyref k;
        uint64_t b;
        assert_int_equal(store_row_at(s, i, &k, &b), 0);
        assert_true(key_equals(k, (const uint8_t *)want[i].k, want[i].len));
        assert_int_equal(b, 1);
    }
    assert_int_equal(store_count_range(s, K("a"), K("b")), 3);
    assert_int_equal(store_count_range(s, K("a\0"), keyref_of(NULL, 0)), n - 1);
    assert_int_equal(store_count_range(s, K("\xff"), keyref_of(NULL, 0)), 6);
    assert_int_equal(store_count_range(s, K("b"), K("a")), 0);
    store_free(s);
}

static void test_duplicates(void **state)
{
    (void)state;
    store *s = store_new();
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(store_put(s, K("row"), 3), 0);
        if (i % 3 == 0)
            assert_int_equal(store_put(s, K("a"), 1), 0); /* out of order */
    }
    assert_int_equal(store_rows(s), 2);
    assert_int_equal(store_cells(s), 10000 + 3334);
    assert_int_equal(store_bytes(s), 30000 + 3334);
    keyref k;
    uint64_t b;
    assert_int_equal(store_row_at(s, 0, &k, &b), 0);
    assert_int_equal(b, 3334);
    assert_int_equal(store_row_at(s, 1, &k, &b), 0);
    assert_int_equal(b, 30000);
    assert_true(key_equals(k, (const uint8_t *)"row", 3));
    store_free(s);
}

/* A key handed out by the store itself can be put back into it. */
static void test_put_own_key(void **state)
{
    (void)state;
    store *s = store_new();
    assert_int_equal(store_put(s, K("m"), 1), 0);
    for (int i = 0; i < 2000; i++) {
        keyref k;
        uint64_t b;
        uint8_t fresh[3] = { 'n', (uint8_t)(i >> 8), (uint8_t)i };
        assert_int_equal(store_put(s, keyref_of(fresh, 3), 1), 0);
        assert_int_equal(store_first_last(s, &k, &k), 0);
        assert_int_equal(store_put(s, k, 1), 0);          /* the last row */
        assert_int_equal(store_middle_key(s, &k), 0);
        assert_int_equal(store_put(s, k, 1), 0);          /* to pending */
        assert_int_equal(store_row_at(s, 0, &k, &b), 0);
        assert_int_equal(store_put(s, k, 1), 0);          /* the first row */
    }
    assert_int_equal(store_cells(s), 1 + 4 * 2000);
    assert_int_equal(store_rows(s), 1 + 2000);
    store_free(s);
}

static void test_saturation_and_long_keys(void **state)
{
    (void)state;
    store *s = store_new();
    uint8_t *big = malloc(KEY_MAX_LEN);
    memset(big, 0xFF, KEY_MAX_LEN);
    assert_int_equal(store_put(s, K("x"), UINT32_MAX), 0);
    assert_int_equal(store_put(s, K("x"), 5), 0);
    assert_int_equal(store_put(s, keyref_of(big, KEY_MAX_LEN), 1), 0);
    big[KEY_MAX_LEN - 1] = 0xFE;
    assert_int_equal(store_put(s, keyref_of(big, KEY_MAX_LEN), 1), 0);
    assert_int_equal(store_put(s, K("a"), 1), 0);
    assert_int_equal(store_rows(s), 4);
    assert_int_equal(store_bytes(s), (uint64_t)UINT32_MAX + 8);
    keyref k;
    uint64_t b;
    assert_int_equal(store_row_at(s, 1, &k, &b), 0);
    assert_int_equal(b, UINT32_MAX);
    assert_int_equal(store_row_at(s, 2, &k, &b), 0);
    assert_int_equal(k.len, KEY_MAX_LEN);
    assert_int_equal(k.data[KEY_MAX_LEN - 1], 0xFE);
    assert_int_equal(store_middle_key(s, &k), 0);
    assert_true(key_equals(k, (const uint8_t *)"x", 1));
    free(big);
    store_free(s);
}

/* Random puts, with queries in between to force merges into a non-empty
 * main, against the reference; then random ranges. */
static void test_random_against_reference(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        size_t n = 30000;
        ref_row *r = random_rows(seed * 7919, n);
        store *s = store_new();
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(store_put(s, keyref_of(r[i].key, r[i].len),
                                       (uint32_t)r[i].bytes), 0);
            if (i % 9973 == 0)
                (void)store_rows(s);
        }
        assert_int_equal(store_cells(s), n);
        size_t u = ref_unique(r, n);
        check_rows(s, r, u);
        uint64_t x = seed;
        for (int q = 0; q < 300; q++) {
            uint8_t lo[REF_KEY_MAX], hi[REF_KEY_MAX];
            size_t ll = random_key(&x, lo), hl = random_key(&x, hi);
            if (q % 5 == 0)
                hl = 0; /* unbounded */
            keyref kl = keyref_of(lo, ll), kh = keyref_of(hi, hl);
            size_t a = ref_lower_bound(r, u, kl);
            size_t b = hl ? ref_lower_bound(r, u, kh) : u;
            assert_int_equal(store_count_range(s, kl, kh), b > a ? b - a : 0);
        }
        store_free(s);
        free(r);
    }
}

/* Keys that share their first 8 or 16 bytes (zero bytes and keys that end
 * inside them included), put in random order and as interleaved streams:
 * the sort cuts such pending entries by their key's later bytes, which must
 * give key order whatever the lengths (store_sort.c, sort_bucket). */
static size_t shared_prefix_key(uint64_t *x, uint8_t *out)
{
    static const uint8_t base[3][16] = {
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
        { 'm', 'e', 't', 'r', 'i', 'c', '.', 'a', 0, 0, 0, 1, 0xFF, 0, 0, 0 },
        { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0 },
    };
    static const size_t lens[] = { 3, 7, 8, 9, 12, 15, 16, 17, 20, 24 };
    static const uint8_t alphabet[] = { 0x00, 0x01, 0xFF };
    const uint8_t *b = base[xorshift(x) % 3];
    size_t len = lens[xorshift(x) % (sizeof lens / sizeof lens[0])];
    for (size_t i = 0; i < len; i++)
        out[i] = i < 16 ? b[i] : alphabet[xorshift(x) % sizeof alphabet];
    if (len > 8 && xorshift(x) % 4 == 0) /* a few differ inside the second word */
        out[8 + xorshift(x) % (len - 8 < 8 ? len - 8 : 8)] = alphabet[xorshift(x) % 3];
    return len;
}

static void test_shared_prefixes(void **state)
{
    (void)state;
    size_t n = 40000;
    ref_row *r = calloc(n, sizeof *r);
    assert_non_null(r);
    uint64_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        r[i].len = shared_prefix_key(&x, r[i].key);
        r[i].bytes = 1 + xorshift(&x) % 100;
    }
    /* random order, a store_rows (a merge) now and then */
    store *s = store_new();
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(store_put(s, keyref_of(r[i].key, r[i].len), (uint32_t)r[i].bytes), 0);
        if (i % 7919 == 0)
            (void)store_rows(s);
    }
    size_t u = ref_unique(r, n);
    check_rows(s, r, u);
    store_free(s);
    /* 97 ascending streams of the sorted keys, round-robin */
    ref_row *seq = calloc(u, sizeof *seq);
    assert_non_null(seq);
    size_t chunk = (u + 96) / 97, k = 0;
    for (size_t t = 0; t < chunk; t++)
        for (size_t st = 0; st < 97; st++)
            if (st * chunk + t < u)
                seq[k++] = r[st * chunk + t];
    assert_int_equal(k, u);
    s = store_of(seq, u);
    check_rows(s, r, u);
    store_free(s);
    free(seq);
    free(r);
}

/* Ascending, descending and interleaved put orders give the same store. */
static void test_put_orders(void **state)
{
    (void)state;
    size_t n = 20000;
    ref_row *r = random_rows(99, n);
    size_t u = ref_unique(r, n);
    ref_row *seq = calloc(u, sizeof *seq);
    /* ascending */
    store *s = store_of(r, u);
    check_rows(s, r, u);
    store_free(s);
    /* descending */
    for (size_t i = 0; i < u; i++)
        seq[i] = r[u - 1 - i];
    s = store_of(seq, u);
    check_rows(s, r, u);
    store_free(s);
    /* interleaved: 7 ascending streams (contiguous chunks), round-robin */
    size_t chunk = (u + 6) / 7, k = 0;
    for (size_t t = 0; t < chunk; t++)
        for (size_t st = 0; st < 7; st++)
            if (st * chunk + t < u)
                seq[k++] = r[st * chunk + t];
    assert_int_equal(k, u);
    s = store_of(seq, u);
    check_rows(s, r, u);
    store_free(s);
    free(seq);
    free(r);
}

static void test_middle_key(void **state)
{
    (void)state;
    keyref k;
    /* One huge row first: it holds the middle byte. */
    store *s = store_new();
    store_put(s, K("a"), 1000);
    for (char c = 'b'; c <= 'z'; c++)
        store_put(s, keyref_of(&c, 1), 10);
    assert_int_equal(store_middle_key(s, &k), 0);
    assert_true(key_equals(k, (const uint8_t *)"a", 1));
    store_free(s);
    /* Equal rows: the middle one (byte 5*10/2 = 25 lies in row 2). */
    s = store_new();
    store_put(s, K("e"), 10);
    store_put(s, K("c"), 10);
    store_put(s, K("a"), 10);
    store_put(s, K("d"), 10);
    store_put(s, K("b"), 10);
    assert_int_equal(store_middle_key(s, &k), 0);
    assert_true(key_equals(k, (const uint8_t *)"c", 1));
    /* Four equal rows: byte 20 is the first byte of row 2. */
    store_put(s, K("a"), 0);
    store *t = store_split(s, K("e"));
    assert_int_equal(store_middle_key(s, &k), 0);
    assert_true(key_equals(k, (const uint8_t *)"c", 1));
    store_free(t);
    store_free(s);
    /* Huge last row. */
    s = store_new();
    store_put(s, K("a"), 1);
    store_put(s, K("b"), 1);
    store_put(s, K("c"), 100);
    assert_int_equal(store_middle_key(s, &k), 0);
    assert_true(key_equals(k, (const uint8_t *)"c", 1));
    store_free(s);
    /* No bytes at all: the middle row. */
    s = store_new();
    store_put(s, K("a"), 0);
    store_put(s, K("b"), 0);
    store_put(s, K("c"), 0);
    assert_int_equal(store_middle_key(s, &k), 0);
    assert_true(key_equals(k, (const uint8_t *)"b", 1));
    store_free(s);
}

/* Splits s (built from r[0..n), unique and sorted) at key at, checks both
 * halves, then keeps writing to both. */
static void check_split(const ref_row *r, size_t n, keyref at)
{
    store *s = store_new();
    for (size_t i = n; i-- > 0;) /* descending: puts pending at split time */
        assert_int_equal(store_put(s, keyref_of(r[i].key, r[i].len),
                                   (uint32_t)r[i].bytes), 0);
    uint64_t bytes = store_bytes(s), cells = store_cells(s);
    size_t cut = ref_lower_bound(r, n, at);
    store *t = store_split(s, at);
    assert_non_null(t);
    check_rows(s, r, cut);
    check_rows(t, r + cut, n - cut);
    assert_int_equal(store_bytes(s) + store_bytes(t), bytes);
    assert_int_equal(store_cells(s) + store_cells(t), cells);
    keyref first, last;
    if (cut > 0 && cut < n) {
        store_first_last(s, &first, &last);
        assert_true(key_compare(last, at) < 0);
        store_first_last(t, &first, &last);
        assert_true(key_compare(first, at) >= 0);
    }
    /* Both halves keep accepting puts, in and out of order. */
    for (int i = 0; i < 5000; i++) {
        uint8_t k[4] = { 'z', (uint8_t)(i >> 8), (uint8_t)i, 0 };
        uint8_t j[3] = { 0x02, (uint8_t)(i >> 8), (uint8_t)i };
        assert_int_equal(store_put(t, keyref_of(k, 4), 1), 0);
        assert_int_equal(store_put(s, keyref_of(j, 3), 1), 0);
        assert_int_equal(store_put(t, keyref_of(k, 3), 1), 0);
    }
    assert_int_equal(store_rows(s), cut + 5000);
    assert_int_equal(store_rows(t), n - cut + 10000);
    store_free(t);
    store_free(s);
}

static uint64_t bytes_of(const ref_row *r, size_t n)
{
    uint64_t b = 0;
    for (size_t i = 0; i < n; i++)
        b += r[i].bytes;
    return b;
}

static void test_split(void **state)
{
    (void)state;
    size_t n = 12000;
    ref_row *r = random_rows(4242, n);
    size_t u = ref_unique(r, n);
    check_split(r, u, keyref_of(r[u / 2].key, r[u / 2].len));     /* middle */
    check_split(r, u, keyref_of(r[0].key, r[0].len));             /* first */
    check_split(r, u, K("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
                        "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")); /* past last */
    check_split(r, u, K("a\x01"));                /* between rows, most likely */
    check_split(r, u, keyref_of(NULL, 0));        /* empty: everything moves */
    /* Splitting with puts still pending. */
    store *s = store_of(r, u);
    assert_int_equal(store_put(s, K("\x02"), 7), 0);
    store *t = store_split(s, K("a"));
    assert_int_equal(store_rows(s) + store_rows(t), u + 1);
    assert_int_equal(store_bytes(s) + store_bytes(t), bytes_of(r, u) + 7);
    assert_int_equal(store_cells(s) + store_cells(t), u + 1);
    assert_int_equal(store_count_range(s, K("a"), keyref_of(NULL, 0)), 0);
    assert_int_equal(store_count_range(t, keyref_of(NULL, 0), K("a")), 0);
    store_free(t);
    store_free(s);
    free(r);
}

static int u64_compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* 1e6 random 8-byte keys from a space of ~2^19: many merges, many keys
 * already in main. */
static void test_large(void **state)
{
    (void)state;
    size_t n = 1000000;
    uint64_t *keys = malloc(n * sizeof *keys), x = 12345;
    store *s = store_new();
    for (size_t i = 0; i < n; i++) {
        keys[i] = xorshift(&x) % (1u << 19) * 0x9E3779B97F4A7C15u;
        uint8_t k[8];
        for (int b = 0; b < 8; b++)
            k[b] = (uint8_t)(keys[i] >> (56 - 8 * b));
        assert_int_equal(store_put(s, keyref_of(k, 8), 2), 0);
    }
    qsort(keys, n, sizeof *keys, u64_compare);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || keys[u - 1] != keys[i])
            keys[u++] = keys[i];
    assert_int_equal(store_rows(s), u);
    assert_int_equal(store_bytes(s), 2 * n);
    uint64_t sum = 0;
    for (size_t i = 0; i < u; i += 997) {
        keyref k;
        uint64_t b;
        assert_int_equal(store_row_at(s, i, &k, &b), 0);
        uint64_t v = 0;
        for (int j = 0; j < 8; j++)
            v = v << 8 | k.data[j];
        assert_int_equal(v, keys[i]);
    }
    for (size_t i = 0; i < u; i++) {
        keyref k;
        uint64_t b;
        store_row_at(s, i, &k, &b);
        sum += b;
    }
    assert_int_equal(sum, 2 * n);
    store_free(s);
    free(keys);
}

/* Row i of test_split_big: an 8-byte big-endian i and i % 7 more bytes,
 * so rows end at every offset in a page; bytes i % 5 + 1. */
static size_t big_key(uint64_t i, uint8_t *k)
{
    for (int b = 0; b < 8; b++)
        k[b] = (uint8_t)(i >> (56 - 8 * b));
    size_t n = 8 + i % 7;
    for (size_t b = 8; b < n; b++)
        k[b] = (uint8_t)(i * 31 + b);
    return n;
}

/* Rows [lo, hi) of big_key, and nothing else, in s, in order. */
static void check_big(store *s, uint64_t lo, uint64_t hi)
{
    assert_int_equal(store_rows(s), hi - lo);
    for (uint64_t i = lo; i < hi; i++) {
        uint8_t k[16];
        size_t n = big_key(i, k);
        keyref got;
        uint64_t b;
        assert_int_equal(store_row_at(s, i - lo, &got, &b), 0);
        assert_int_equal(got.len, n);
        assert_memory_equal(got.data, k, n);
        assert_int_equal(b, i % 5 + 1);
    }
}

/* Stores of megabytes, split the way a monotonic key splits them (the
 * upper half written on), and at their ends: big arrays hand their pages
 * to the new store (store_exact.c), small tails are copied. */
static void test_split_big(void **state)
{
    (void)state;
    uint64_t next = 0, lo = 0;
    uint8_t k[16];
    store *s = store_new();
    for (int round = 0; round < 6; round++) {
        for (uint64_t end = next + 200000; next < end; next++)
            assert_int_equal(store_put(s, keyref_of(k, big_key(next, k)),
                                       (uint32_t)(next % 5 + 1)), 0);
        /* the middle (pages move), then near the end (a few pages: copied) */
        uint64_t at = round % 3 == 2 ? next - 100 : lo + (next - lo) / 2 + (uint64_t)round;
        store *t = store_split(s, keyref_of(k, big_key(at, k)));
        assert_non_null(t);
        check_big(s, lo, at);
        /* the lower half still takes puts after its last row */
        assert_int_equal(store_put(s, keyref_of(k, big_key(at, k)), 9), 0);
        assert_int_equal(store_rows(s), at - lo + 1);
        store_free(s);
        s = t;
        lo = at;
        check_big(s, lo, next);
    }
    /* at the first row: everything moves */
    store *t = store_split(s, keyref_of(k, big_key(lo, k)));
    assert_non_null(t);
    assert_int_equal(store_rows(s), 0);
    check_big(t, lo, next);
    store_free(s);
    store_free(t);
}

/* ---- interleaved puts and reads against an incremental model ------------- */

/* The model: the distinct keys in a pool (in order of first put) and their
 * indices in key order; bytes saturate per row as the store's do. */
typedef struct model {
    ref_row *pool;
    uint32_t *order;
    size_t n, cap;
} model;

static keyref model_key(const model *m, size_t rank)
{
    const ref_row *r = &m->pool[m->order[rank]];
    return keyref_of(r->key, r->len);
}

static size_t model_lower_bound(const model *m, keyref k)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_compare(model_key(m, mid), k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void model_put(model *m, const uint8_t *key, size_t len, uint32_t bytes)
{
    keyref k = keyref_of(key, len);
    size_t at = model_lower_bound(m, k);
    if (at < m->n && key_compare(model_key(m, at), k) == 0) {
        ref_row *r = &m->pool[m->order[at]];
        r->bytes += bytes;
        if (r->bytes > UINT32_MAX)
            r->bytes = UINT32_MAX;
        return;
    }
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 1024;
        m->pool = realloc(m->pool, m->cap * sizeof *m->pool);
        m->order = realloc(m->order, m->cap * sizeof *m->order);
        assert_non_null(m->pool);
        assert_non_null(m->order);
    }
    ref_row *r = &m->pool[m->n];
    memcpy(r->key, key, len);
    r->len = len;
    r->bytes = bytes;
    memmove(m->order + at + 1, m->order + at, (m->n - at) * sizeof *m->order);
    m->order[at] = (uint32_t)m->n++;
}

static uint64_t model_count(const model *m, keyref lo, keyref hi)
{
    size_t a = model_lower_bound(m, lo), b = hi.len ? model_lower_bound(m, hi) : m->n;
    return b > a ? b - a : 0;
}

/* The rows of m in key order, as check_rows wants them. */
static ref_row *model_rows(const model *m)
{
    ref_row *r = calloc(m->n + 1, sizeof *r);
    assert_non_null(r);
    for (size_t i = 0; i < m->n; i++)
        r[i] = m->pool[m->order[i]];
    return r;
}

/* Keys for the interleavings: random ones over a small alphabet (many
 * duplicates, shared prefixes), an ascending stream above them (the append
 * path, or an ascending tail), or a key put before (already in main, in a
 * run or in the tail). */
static size_t interleaved_key(uint64_t *x, const model *m, uint32_t *ascending,
                              uint8_t *out)
{
    uint64_t pick = xorshift(x) % 100;
    if (pick < 20) {
        uint32_t v = (*ascending)++;
        out[0] = 0xFF;
        out[1] = 0xFF;
        out[2] = (uint8_t)(v >> 24);
        out[3] = (uint8_t)(v >> 16);
        out[4] = (uint8_t)(v >> 8);
        out[5] = (uint8_t)v;
        return 6;
    }
    if (pick < 35 && m->n) {
        const ref_row *r = &m->pool[xorshift(x) % m->n];
        memcpy(out, r->key, r->len);
        return r->len;
    }
    return random_key(x, out);
}

static void check_count(store *s, const model *m, uint64_t *x)
{
    uint8_t lo[REF_KEY_MAX], hi[REF_KEY_MAX];
    size_t ll = random_key(x, lo), hl = random_key(x, hi);
    switch (xorshift(x) % 4) {
    case 0:
        ll = 0; /* from the start */
        break;
    case 1:
        hl = 0; /* to the end */
        break;
    case 2:
        ll = hl = 0; /* everything: the whole-store shortcut */
        break;
    }
    keyref kl = keyref_of(lo, ll), kh = keyref_of(hi, hl);
    assert_int_equal(store_count_range(s, kl, kh), model_count(m, kl, kh));
}

/* One interleaving: steps of puts (in and out of order, repeats) and
 * counts, with rarer full checks, a run of counts with no puts (the idle
 * compaction) and a split half way (the test goes on with the lower half). */
static void run_interleaving(uint64_t seed, size_t steps, unsigned count_pct)
{
    uint64_t x = seed;
    uint32_t ascending = 0;
    model m = { 0 };
    store *s = store_new();
    assert_non_null(s);
    uint64_t cells = 0;
    for (size_t step = 0; step < steps; step++) {
        if (xorshift(&x) % 100 < count_pct) {
            check_count(s, &m, &x);
        } else {
            uint8_t k[REF_KEY_MAX];
            size_t len = interleaved_key(&x, &m, &ascending, k);
            uint32_t bytes = (uint32_t)(xorshift(&x) % 1000);
            assert_int_equal(store_put(s, keyref_of(k, len), bytes), 0);
            model_put(&m, k, len, bytes);
            cells++;
        }
        if (step % 4999 == 4998) { /* everything, which merges pending */
            ref_row *r = model_rows(&m);
            check_rows(s, r, m.n);
            free(r);
        } else if (step % 997 == 996) {
            assert_int_equal(store_rows(s), m.n);
        }
        if (step == steps / 3) { /* idle: counts alone until it compacts */
            size_t before = store_memory(s);
            for (size_t i = 0; i < m.n / 16 + 8; i++)
                check_count(s, &m, &x);
            assert_true(store_memory(s) < before); /* the pending puts merged and freed */
        }
        if (step == steps / 2 && m.n > 2) {
            keyref at = model_key(&m, m.n / 2);
            uint8_t cut[REF_KEY_MAX];
            memcpy(cut, at.data, at.len);
            at = keyref_of(cut, at.len);
            store *t = store_split(s, at);
            assert_non_null(t);
            ref_row *r = model_rows(&m);
            size_t half = m.n / 2;
            check_rows(t, r + half, m.n - half);
            assert_int_equal(store_cells(s) + store_cells(t), cells);
            store_free(t);
            free(r);
            m.n = half; /* the lower half goes on: keep its keys only */
            ref_row *pool = calloc(m.cap, sizeof *pool);
            assert_non_null(pool);
            for (size_t i = 0; i < m.n; i++) {
                pool[i] = m.pool[m.order[i]];
                m.order[i] = (uint32_t)i;
            }
            free(m.pool);
            m.pool = pool;
            cells = store_cells(s);
        }
    }
    assert_int_equal(store_cells(s), cells);
    ref_row *r = model_rows(&m);
    check_rows(s, r, m.n);
    for (int q = 0; q < 200; q++)
        check_count(s, &m, &x);
    free(r);
    free(m.pool);
    free(m.order);
    store_free(s);
}

static void test_interleaved_reads(void **state)
{
    (void)state;
    /* Counts after most puts: runs of a few entries, a deep run stack. */
    for (uint64_t seed = 1; seed <= 3; seed++)
        run_interleaving(seed * 104729, 20000, 50);
    /* Counts now and then: longer tails, main merges with runs pending,
     * and stores past the filter's threshold. */
    for (uint64_t seed = 4; seed <= 5; seed++)
        run_interleaving(seed * 104729, 40000, 5);
}

/* Out-of-order keys, repeats, and a count after every put: the keys
 * already in main or in a run are found (through the filter once the store
 * is big enough) and folded, not counted again. */
static void test_counts_between_puts(void **state)
{
    (void)state;
    store *s = store_new();
    assert_non_null(s);
    uint64_t x = 31337;
    size_t n = 6000;
    uint64_t *keys = malloc(n * sizeof *keys);
    assert_non_null(keys);
    for (size_t i = 0; i < n; i++) {
        keys[i] = xorshift(&x);
        uint8_t k[8];
        for (int b = 0; b < 8; b++)
            k[b] = (uint8_t)(keys[i] >> (56 - 8 * b));
        assert_int_equal(store_put(s, keyref_of(k, 8), 1), 0);
        assert_int_equal(store_count_range(s, keyref_of(NULL, 0), keyref_of(NULL, 0)),
                         i + 1);
    }
    /* Every key again, in another order: no new rows, bytes double. */
    for (size_t i = 0; i < n; i++) {
        uint64_t v = keys[(i * 7919) % n];
        uint8_t k[8];
        for (int b = 0; b < 8; b++)
            k[b] = (uint8_t)(v >> (56 - 8 * b));
        assert_int_equal(store_put(s, keyref_of(k, 8), 1), 0);
        assert_int_equal(store_count_range(s, keyref_of(NULL, 0), keyref_of(NULL, 0)), n);
    }
    assert_int_equal(store_rows(s), n);
    assert_int_equal(store_bytes(s), 2 * n);
    for (size_t i = 0; i < n; i++) {
        keyref k;
        uint64_t b;
        assert_int_equal(store_row_at(s, i, &k, &b), 0);
        assert_int_equal(b, 2);
    }
    free(keys);
    store_free(s);
}

/* A row's bytes saturate the same whether its puts are folded in the tail,
 * in a run or in main. */
static void test_saturation_across_parts(void **state)
{
    (void)state;
    store *s = store_new();
    assert_non_null(s);
    assert_int_equal(store_put(s, K("m"), 1), 0);            /* main */
    assert_int_equal(store_put(s, K("a"), UINT32_MAX - 1), 0); /* pending */
    assert_int_equal(store_count_range(s, K("a"), K("b")), 1); /* a run */
    assert_int_equal(store_put(s, K("c"), 1), 0);
    assert_int_equal(store_put(s, K("a"), 5), 0);             /* the tail */
    assert_int_equal(store_put(s, K("m"), UINT32_MAX), 0);    /* main's last */
    assert_int_equal(store_count_range(s, keyref_of(NULL, 0), keyref_of(NULL, 0)), 3);
    assert_int_equal(store_put(s, K("b"), 2), 0);
    assert_int_equal(store_put(s, K("m"), 3), 0);
    assert_int_equal(store_count_range(s, K("b"), keyref_of(NULL, 0)), 3);
    assert_int_equal(store_rows(s), 4);
    assert_int_equal(store_bytes(s), (uint64_t)UINT32_MAX - 1 + 5 + 1 + 1 +
                                         UINT32_MAX + 2 + 3);
    keyref k;
    uint64_t b;
    assert_int_equal(store_row_at(s, 0, &k, &b), 0);
    assert_int_equal(b, UINT32_MAX);
    assert_int_equal(store_row_at(s, 3, &k, &b), 0);
    assert_int_equal(b, UINT32_MAX);
    store_free(s);
}

/* Small stores (fewer than 64 rows: puts go into main at once, no
 * pending buffers) checked after every put against the reference, across
 * the size where they start pending, with counts in between and splits
 * that leave small halves which are written again. */
static void test_small_stores(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        size_t n = 160, np = 0;
        ref_row *r = random_rows(seed * 104729, n);
        ref_row *put = calloc(n, sizeof *put), *u = calloc(n, sizeof *u);
        assert_non_null(put);
        assert_non_null(u);
        store *s = store_new();
        assert_non_null(s);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(store_put(s, keyref_of(r[i].key, r[i].len),
                                       (uint32_t)r[i].bytes), 0);
            put[np++] = r[i];
            if (i % 3 == 0) /* a count between puts */
                (void)store_count_range(s, keyref_of(r[i].key, r[i].len),
                                        keyref_of(NULL, 0));
            memcpy(u, put, np * sizeof *u);
            size_t k = ref_unique(u, np);
            if (i < 80 || i % 7 == 0)
                check_rows(s, u, k);
            if (i == 100 && k >= 4) { /* split; the lower half is written on */
                ref_row at = u[k / 2];
                store *t = store_split(s, keyref_of(at.key, at.len));
                assert_non_null(t);
                check_rows(t, u + k / 2, k - k / 2);
                store_free(t);
                size_t w = 0;
                for (size_t j = 0; j < np; j++)
                    if (ref_compare(&put[j], &at) < 0)
                        put[w++] = put[j];
                np = w;
                memcpy(u, put, np * sizeof *u);
                check_rows(s, u, ref_unique(u, np));
            }
        }
        store_free(s);
        free(u);
        free(put);
        free(r);
    }
}

/* ---- the exact store's extension (store_exact.h) ------------------------ */

static exact_ext *ext_of(store *s)
{
    assert_int_equal(store_kind_of(s), STORE_EXACT);
    return ((exact_store *)s)->x;
}

/* A 16-byte key (an md5 scheme's) of first byte at least 0x10, so that
 * keys of first byte 0 sort below every one of them. */
static void key16(uint64_t *x, uint8_t *k)
{
    uint64_t a = xorshift(x), b = xorshift(x);
    for (int i = 0; i < 8; i++) {
        k[i] = (uint8_t)(a >> (56 - 8 * i));
        k[8 + i] = (uint8_t)(b >> (56 - 8 * i));
    }
    k[0] |= 0x10;
}

static void put_both(store *s, model *m, const uint8_t *k, size_t len, uint32_t b)
{
    assert_int_equal(store_put(s, keyref_of(k, len), b), 0);
    model_put(m, k, len, b);
}

/* One count against the model, of a range between two of its keys. */
static void check_one_count(store *s, const model *m, uint64_t *x)
{
    size_t a = xorshift(x) % m->n, b = xorshift(x) % m->n;
    keyref ka = model_key(m, a), kb = model_key(m, b);
    assert_int_equal(store_count_range(s, ka, kb), model_count(m, ka, kb));
}

/* Counts against the model: the whole store, open-ended ranges and
 * ranges between the model's own keys (enough of them, with no put in
 * between, to merge a big store's pending puts as idle). */
static void check_counts(store *s, const model *m, uint64_t *x)
{
    keyref none = keyref_of(NULL, 0);
    assert_int_equal(store_count_range(s, none, none), m->n);
    for (int q = 0; q < 8 && m->n; q++) {
        size_t a = xorshift(x) % m->n, b = xorshift(x) % m->n;
        keyref ka = model_key(m, a), kb = model_key(m, b);
        assert_int_equal(store_count_range(s, ka, kb), model_count(m, ka, kb));
        assert_int_equal(store_count_range(s, ka, none), model_count(m, ka, none));
        assert_int_equal(store_count_range(s, none, kb), model_count(m, none, kb));
    }
}

/* Every row of s against the model (merges pending). */
static void check_model(store *s, const model *m)
{
    ref_row *r = model_rows(m);
    check_rows(s, r, m->n);
    free(r);
}

/* The model's rows from rank `from` on become the model (a split's half). */
static void model_keep(model *m, size_t from, size_t to)
{
    ref_row *pool = calloc(m->cap, sizeof *pool);
    assert_non_null(pool);
    for (size_t i = from; i < to; i++) {
        pool[i - from] = m->pool[m->order[i]];
        m->order[i - from] = (uint32_t)(i - from);
    }
    free(m->pool);
    m->pool = pool;
    m->n = to - from;
}

/* Splits s at the model's row `rank`: s keeps the lower rows (m), the
 * returned store the upper ones (upper, a new model). */
static store *split_both(store *s, model *m, size_t rank, model *upper)
{
    uint8_t cut[REF_KEY_MAX];
    keyref at = model_key(m, rank);
    memcpy(cut, at.data, at.len);
    store *t = store_split(s, keyref_of(cut, at.len));
    assert_non_null(t);
    *upper = (model){ 0 };
    for (size_t i = rank; i < m->n; i++) {
        const ref_row *r = &m->pool[m->order[i]];
        model_put(upper, r->key, r->len, (uint32_t)r->bytes);
    }
    model_keep(m, 0, rank);
    return t;
}

static void model_free(model *m)
{
    free(m->pool);
    free(m->order);
    *m = (model){ 0 };
}

/* A store below SMALL_ROWS rows has no extension however it is written and
 * counted; its first pending put (out of order past SMALL_ROWS) makes one,
 * which then holds the pending puts and runs that counts see; a split
 * that leaves a small half with none of it in use frees it; a store grown
 * past SMALL_ROWS by appends alone gets one when first counted (hints).
 * Counts are checked against the model at each stage: losing pending
 * entries, runs or their bytes with the extension would fail them. */
static void test_extension(void **state)
{
    (void)state;
    uint64_t x = 2718281828u;
    uint8_t k[16];
    model m = { 0 };
    store *s = store_new();
    assert_non_null(s);
    /* Small: random puts, repeats and counts, no extension. */
    for (size_t i = 0; m.n < SMALL_ROWS; i++) {
        key16(&x, k);
        put_both(s, &m, k, sizeof k, (uint32_t)(xorshift(&x) % 1000));
        if (i % 4 == 0)
            put_both(s, &m, model_key(&m, 0).data, 16, 7); /* a repeat */
        if (i % 5 == 0)
            check_counts(s, &m, &x);
        assert_null(ext_of(s));
    }
    check_model(s, &m);
    assert_null(ext_of(s));
    size_t small = store_memory(s);
    /* Past SMALL_ROWS: a key below every row goes to pending. */
    memset(k, 0, sizeof k);
    put_both(s, &m, k, sizeof k, 5);
    assert_non_null(ext_of(s));
    assert_int_equal(ext_of(s)->npend, 1);
    assert_true(store_memory(s) > small + sizeof(exact_ext));
    check_one_count(s, &m, &x); /* the pending put becomes a run */
    assert_int_equal(ext_of(s)->nruns, 1);
    assert_int_equal(ext_of(s)->npend, 1);
    for (size_t i = 0; i < 300; i++) { /* runs and tails, counted between */
        key16(&x, k);
        if (i % 3 == 0)
            k[0] = (uint8_t)(k[0] & 0x0F); /* below main: pending */
        put_both(s, &m, k, sizeof k, (uint32_t)(xorshift(&x) % 1000));
        if (i % 10 == 0)
            put_both(s, &m, model_key(&m, xorshift(&x) % m.n).data, 16, 3);
        if (i % 7 == 0) {
            assert_true(ext_of(s)->npend > 0);
            check_one_count(s, &m, &x);
            assert_true(ext_of(s)->nruns > 0);
        }
        if (i % 50 == 20)
            check_counts(s, &m, &x); /* idle: pending merges into main */
    }
    assert_true(ext_of(s)->npend > 0);
    check_counts(s, &m, &x);
    check_model(s, &m); /* merges: pending is freed, the extension kept */
    assert_non_null(ext_of(s));
    assert_null(ext_of(s)->pe);
    assert_int_equal(ext_of(s)->npend, 0);
    /* A split of a store with the extension whose lower half stays big
     * keeps it; the upper half starts without one. */
    model up;
    for (size_t i = 0; i < 20; i++) { /* something pending at the split */
        key16(&x, k);
        k[0] = (uint8_t)(k[0] & 0x0F);
        put_both(s, &m, k, sizeof k, 1);
    }
    check_counts(s, &m, &x);
    store *t = split_both(s, &m, m.n - 40, &up);
    assert_non_null(ext_of(s));
    assert_null(ext_of(s)->filter);
    assert_null(ext_of(t));
    check_counts(s, &m, &x);
    check_counts(t, &up, &x);
    check_model(t, &up);
    store_free(t);
    model_free(&up);
    /* A split leaving a small lower half frees its extension. */
    t = split_both(s, &m, SMALL_ROWS / 2, &up);
    assert_null(ext_of(s));
    assert_null(ext_of(t));
    check_model(s, &m);
    check_model(t, &up);
    /* The upper half, big, takes pending puts: an extension of its own. */
    memset(k, 0, sizeof k);
    put_both(t, &up, k, sizeof k, 9);
    assert_non_null(ext_of(t));
    check_counts(t, &up, &x);
    check_model(t, &up);
    store_free(t);
    model_free(&up);
    /* The small lower half is written again without one, then grows past
     * SMALL_ROWS and takes pending puts again. */
    while (m.n < SMALL_ROWS) {
        key16(&x, k);
        k[0] = (uint8_t)(k[0] & 0x0F); /* among its rows */
        put_both(s, &m, k, sizeof k, 2);
        assert_null(ext_of(s));
        if (m.n < SMALL_ROWS) /* a count at SMALL_ROWS makes one (hints) */
            check_counts(s, &m, &x);
    }
    for (size_t i = 0; i < 50; i++) {
        key16(&x, k);
        k[0] = (uint8_t)(k[0] & 0x0F);
        put_both(s, &m, k, sizeof k, 4);
        if (i % 5 == 0)
            check_counts(s, &m, &x);
    }
    assert_non_null(ext_of(s));
    check_counts(s, &m, &x);
    check_model(s, &m);
    /* A split of a small store with none: neither half has one. */
    t = split_both(s, &m, 10, &up);
    store_free(t);
    model_free(&up);
    t = split_both(s, &m, 5, &up);
    assert_null(ext_of(s));
    assert_null(ext_of(t));
    check_model(s, &m);
    check_model(t, &up);
    store_free(t);
    model_free(&up);
    store_free(s);
    model_free(&m);
    /* Past SMALL_ROWS by appends alone: none until counted (its hints). */
    s = store_new();
    assert_non_null(s);
    for (uint32_t i = 0; i < 3 * SMALL_ROWS; i++) {
        for (int b = 0; b < 4; b++)
            k[b] = (uint8_t)(i >> (24 - 8 * b));
        put_both(s, &m, k, 4, 1);
    }
    assert_null(ext_of(s));
    check_counts(s, &m, &x);
    assert_non_null(ext_of(s));
    assert_int_equal(ext_of(s)->npend, 0);
    check_model(s, &m);
    store_free(s);
    model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_byte_order),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_put_own_key),
        cmocka_unit_test(test_saturation_and_long_keys),
        cmocka_unit_test(test_random_against_reference),
        cmocka_unit_test(test_put_orders),
        cmocka_unit_test(test_shared_prefixes),
        cmocka_unit_test(test_middle_key),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_split_big),
        cmocka_unit_test(test_interleaved_reads),
        cmocka_unit_test(test_counts_between_puts),
        cmocka_unit_test(test_saturation_across_parts),
        cmocka_unit_test(test_small_stores),
        cmocka_unit_test(test_extension),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
