/* test_regionmap.c -- routing, ranges and splits, checked against brute force
 * and against a reference model (a plain sorted array of starts), across many
 * chunks of the index and at their boundaries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/regionmap.h"

static keyref S(const char *s) { return keyref_of(s, strlen(s)); }

/* A test-local generator (core tests link core only). */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t random_key(uint64_t *x, uint8_t *out)
{
    /* Short keys over a small alphabet incl. 0x00 and 0xFF: many prefixes. */
    static const uint8_t alphabet[] = { 0x00, 0x01, 'a', 'b', 0x7f, 0x80, 0xfe, 0xff };
    size_t len = 1 + next_random(x) % 4;
    for (size_t i = 0; i < len; i++)
        out[i] = alphabet[next_random(x) % sizeof alphabet];
    return len;
}

static size_t route_brute_force(regionmap *m, keyref k)
{
    size_t found = SIZE_MAX;
    for (size_t i = 0; i < regionmap_count(m); i++) {
        if (region_contains(regionmap_at(m, i), k)) {
            assert_int_equal(found, SIZE_MAX); /* exactly one region holds k */
            found = i;
        }
    }
    assert_int_not_equal(found, SIZE_MAX);
    return found;
}

static void assert_tiling(regionmap *m)
{
    size_t n = regionmap_count(m);
    assert_int_equal(regionmap_at(m, 0)->start_len, 0);
    assert_int_equal(regionmap_at(m, n - 1)->end_len, 0);
    for (size_t i = 0; i + 1 < n; i++) {
        keyref end = region_end(regionmap_at(m, i));
        assert_true(end.len > 0);
        assert_int_equal(key_compare(end, region_start(regionmap_at(m, i + 1))), 0);
        assert_true(key_compare(region_start(regionmap_at(m, i)), end) < 0);
    }
}

static void test_single_region_takes_everything(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    assert_non_null(m);
    assert_int_equal(regionmap_count(m), 1);
    assert_int_equal(regionmap_route(m, S("a")), 0);
    assert_int_equal(regionmap_route(m, keyref_of("\xff\xff", 2)), 0);
    assert_int_equal(regionmap_route(m, keyref_of("\0", 1)), 0);
    size_t first, last;
    regionmap_range(m, S("a"), S(""), &first, &last);
    assert_int_equal(first, 0);
    assert_int_equal(last, 0);
    regionmap_free(m);
}

static void test_presplit_validation(void **state)
{
    (void)state;
    size_t bad = 99;
    keyref unsorted[] = { S("b"), S("a") };
    assert_null(regionmap_new(unsorted, 2, &bad));
    assert_int_equal(bad, 1);
    keyref dup[] = { S("a"), S("b"), S("b") };
    assert_null(regionmap_new(dup, 3, &bad));
    assert_int_equal(bad, 2);
    keyref empty[] = { S("") };
    assert_null(regionmap_new(empty, 1, &bad));
    assert_int_equal(bad, 0);
}

static void test_route_edges(void **state)
{
    (void)state;
    size_t bad;
    keyref splits[] = { S("b"), S("d") };
    regionmap *m = regionmap_new(splits, 2, &bad);
    assert_non_null(m);
    assert_tiling(m);
    /* Start inclusive, end exclusive; first and last regions unbounded. */
    assert_int_equal(regionmap_route(m, keyref_of("\0", 1)), 0);
    assert_int_equal(regionmap_route(m, S("a")), 0);
    assert_int_equal(regionmap_route(m, keyref_of("a\xff\xff", 3)), 0);
    assert_int_equal(regionmap_route(m, S("b")), 1);
    assert_int_equal(regionmap_route(m, keyref_of("b\0", 2)), 1);
    assert_int_equal(regionmap_route(m, S("c")), 1);
    assert_int_equal(regionmap_route(m, S("d")), 2);
    assert_int_equal(regionmap_route(m, keyref_of("\xff\xff\xff", 3)), 2);
    regionmap_free(m);
}

static void test_range_edges(void **state)
{
    (void)state;
    size_t bad, first, last;
    keyref splits[] = { S("b"), S("d") };
    regionmap *m = regionmap_new(splits, 2, &bad);
    regionmap_range(m, S("a"), S("b"), &first, &last); /* hi exclusive */
    assert_int_equal(first, 0);
    assert_int_equal(last, 0);
    regionmap_range(m, S("a"), keyref_of("b\0", 2), &first, &last);
    assert_int_equal(first, 0);
    assert_int_equal(last, 1);
    regionmap_range(m, S("b"), S("d"), &first, &last);
    assert_int_equal(first, 1);
    assert_int_equal(last, 1);
    regionmap_range(m, S("c"), S(""), &first, &last); /* unbounded */
    assert_int_equal(first, 1);
    assert_int_equal(last, 2);
    regionmap_free(m);
}

static void test_split_moves_rows_and_rejects_bad_points(void **state)
{
    (void)state;
    size_t bad;
    keyref splits[] = { S("m") };
    regionmap *m = regionmap_new(splits, 1, &bad);
    const char *rows[] = { "a", "c", "e", "g", "k" };
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(store_put(regionmap_at(m, 0)->rows, S(rows[i]), 10), 0);
    regionmap_at(m, 0)->server = 3;
    /* Not strictly inside region 0 = [-inf, m): its start, outside, empty. */
    assert_int_equal(regionmap_split(m, 0, S(""), 7), -1);
    assert_int_equal(regionmap_split(m, 0, S("m"), 7), -1);
    assert_int_equal(regionmap_split(m, 0, S("z"), 7), -1);
    assert_int_equal(regionmap_split(m, 1, S("m"), 7), -1);
    assert_int_equal(regionmap_count(m), 2);

    uint64_t parent_id = regionmap_at(m, 0)->id;
    assert_int_equal(regionmap_split(m, 0, S("e"), 7), 0);
    assert_int_equal(regionmap_count(m), 3);
    assert_tiling(m);
    region *lo = regionmap_at(m, 0), *hi = regionmap_at(m, 1);
    assert_int_equal(store_rows(lo->rows), 2);
    assert_int_equal(store_rows(hi->rows), 3);
    assert_int_equal(store_bytes(lo->rows) + store_bytes(hi->rows), 50);
    assert_int_equal(lo->server, 3); /* daughters stay on the parent's server */
    assert_int_equal(hi->server, 3);
    assert_int_equal(parent_id, 0); /* a new table's regions share regionId 0 */
    assert_int_equal(regionmap_at(m, 2)->id, 0);
    assert_int_equal(lo->id, 7);    /* the daughters share the id given */
    assert_int_equal(hi->id, 7);
    assert_int_equal(key_compare(region_end(lo), S("e")), 0);
    assert_int_equal(key_compare(region_end(hi), S("m")), 0);
    assert_int_equal(regionmap_route(m, S("e")), 1);
    assert_int_equal(regionmap_route(m, S("d")), 0);
    /* The last region can split too. */
    assert_int_equal(regionmap_split(m, 2, keyref_of("\xff", 1), 7), 0);
    assert_int_equal(regionmap_route(m, keyref_of("\xff\0", 2)), 3);
    assert_tiling(m);
    regionmap_free(m);
}

/* regionmap_find, whose hints (the region last found for a key's first
 * byte) go stale as splits shift slots and chunks: salted keys (a salt
 * byte, then a counter per salt) written and split as the engine does,
 * the hot region at the key, past a few chunks; find always answers what
 * route and a scan of every region answer. */
static void test_find_with_hints_across_splits(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    uint64_t x = 11, counter[8] = { 0 };
    for (int op = 0; op < 40000; op++) {
        uint8_t k[9];
        uint8_t salt = (uint8_t)(next_random(&x) % 8);
        k[0] = salt;
        uint64_t v = counter[salt]++;
        for (int b = 0; b < 8; b++)
            k[1 + b] = (uint8_t)(v >> (56 - 8 * b));
        keyref key = keyref_of(k, sizeof k);
        size_t i;
        region *r = regionmap_find(m, key, &i);
        assert_ptr_equal(r, regionmap_at(m, i));
        assert_int_equal(i, regionmap_route(m, key));
        if (op % 7 == 0)
            assert_int_equal(i, route_brute_force(m, key));
        if (op % 20 == 0) /* the written region splits at the key */
            (void)regionmap_split(m, i, key, 7);
    }
    assert_true(regionmap_count(m) > 1500); /* several chunks */
    assert_tiling(m);
    regionmap_free(m);
}

static void test_routing_matches_brute_force_after_many_splits(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    uint64_t x = 7;
    uint8_t k[16]; /* k and k2: room past random_key's 4 bytes, or gcc -O2 with
                    * ASan warns that key_compare reads past byte 8 */
    for (int i = 0; i < 3000; i++) {
        size_t len = random_key(&x, k);
        keyref key = keyref_of(k, len);
        size_t r = regionmap_route(m, key);
        assert_int_equal(r, route_brute_force(m, key));
        /* Split the region holding this key at the key when allowed. */
        if (i % 3 == 0)
            (void)regionmap_split(m, r, key, 7);
    }
    assert_true(regionmap_count(m) > 100);
    assert_tiling(m);
    for (int i = 0; i < 20000; i++) {
        size_t len = random_key(&x, k);
        keyref key = keyref_of(k, len);
        assert_int_equal(regionmap_route(m, key), route_brute_force(m, key));
        uint8_t k2[16];
        size_t len2 = random_key(&x, k2);
        keyref a = key, b = keyref_of(k2, len2);
        if (key_compare(a, b) > 0) {
            keyref t = a;
            a = b;
            b = t;
        }
        if (key_compare(a, b) == 0)
            continue;
        size_t first, last;
        regionmap_range(m, a, b, &first, &last);
        /* Brute force: regions overlapping [a, b). */
        for (size_t j = 0; j < regionmap_count(m); j++) {
            region *r = regionmap_at(m, j);
            int starts_before_b = key_compare(region_start(r), b) < 0;
            int ends_after_a = r->end_len == 0 || key_compare(region_end(r), a) > 0;
            int touched = starts_before_b && ends_after_a;
            assert_int_equal(touched, j >= first && j <= last);
        }
    }
    regionmap_free(m);
}

/* ---- a reference model: the region starts in a plain sorted array -------- */

/* Region i of the model starts at key[i] (key[0] empty) and ends where
 * region i+1 starts. Inserting is a memmove; routing is a scan. */
typedef struct model {
    uint8_t **key;
    size_t *len;
    size_t n, cap;
} model;

static void model_init(model *md)
{
    *md = (model){ NULL, NULL, 0, 0 };
    md->cap = 1024;
    md->key = calloc(md->cap, sizeof *md->key);
    md->len = calloc(md->cap, sizeof *md->len);
    assert_non_null(md->key);
    assert_non_null(md->len);
    md->n = 1; /* one region: (-inf, +inf) */
}

static void model_free(model *md)
{
    for (size_t i = 0; i < md->n; i++)
        free(md->key[i]);
    free(md->key);
    free(md->len);
}

static keyref model_start(const model *md, size_t i) { return keyref_of(md->key[i], md->len[i]); }

/* The last region whose start is <= k, by a linear scan. */
static size_t model_route_scan(const model *md, keyref k)
{
    size_t found = 0;
    for (size_t i = 1; i < md->n && key_compare(model_start(md, i), k) <= 0; i++)
        found = i;
    return found;
}

/* The same by bisection (for the many checks during growth). */
static size_t model_route(const model *md, keyref k)
{
    size_t lo = 0, hi = md->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_compare(model_start(md, mid), k) <= 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Region i splits at k: a new start after i. */
static void model_split(model *md, size_t i, keyref k)
{
    if (md->n == md->cap) {
        md->cap *= 2;
        md->key = realloc(md->key, md->cap * sizeof *md->key);
        md->len = realloc(md->len, md->cap * sizeof *md->len);
        assert_non_null(md->key);
        assert_non_null(md->len);
    }
    memmove(&md->key[i + 2], &md->key[i + 1], (md->n - i - 1) * sizeof *md->key);
    memmove(&md->len[i + 2], &md->len[i + 1], (md->n - i - 1) * sizeof *md->len);
    md->key[i + 1] = malloc(k.len);
    assert_non_null(md->key[i + 1]);
    memcpy(md->key[i + 1], k.data, k.len);
    md->len[i + 1] = k.len;
    md->n++;
}

static void assert_sound(const regionmap *m)
{
    const char *why = regionmap_check(m);
    if (why)
        fail_msg("regionmap_check: %s", why);
}

/* Every region's start, by positional access, against the model. */
static void assert_matches_model(regionmap *m, const model *md)
{
    assert_int_equal(regionmap_count(m), md->n);
    for (size_t i = 0; i < md->n; i++)
        assert_int_equal(key_compare(region_start(regionmap_get(m, i)), model_start(md, i)), 0);
}

/* Both the map and the model split region i at k, which must be inside. */
static void split_both(regionmap *m, model *md, size_t i, keyref k, uint64_t id)
{
    assert_int_equal(regionmap_split(m, i, k, id), 0);
    model_split(md, i, k);
}

/* Keys of 1..12 bytes; one in four shares a 9-byte prefix, so that many
 * starts have equal 8-byte prefixes and routing falls back to full keys. */
static size_t random_long_key(uint64_t *x, uint8_t *out)
{
    size_t at = 0;
    if (next_random(x) % 4 == 0) {
        memcpy(out, "metric:01", 9);
        at = 9;
    }
    size_t len = at + 1 + next_random(x) % 3;
    for (size_t i = at; i < len; i++) {
        uint64_t r = next_random(x);
        out[i] = r % 5 == 0 ? (uint8_t)(r >> 8) % 3 : (uint8_t)(r >> 8); /* some 0x00..0x02 */
    }
    return len;
}

static void test_random_splits_match_reference(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    assert_non_null(m);
    model md;
    model_init(&md);
    uint64_t x = 15;
    uint8_t k[16];
    size_t splits = 0;
    while (splits < 20000) {
        keyref key = keyref_of(k, random_long_key(&x, k));
        size_t i = regionmap_route(m, key);
        assert_int_equal(i, model_route(&md, key));
        if (key_compare(key, region_start(regionmap_get(m, i))) == 0) {
            assert_int_equal(regionmap_split(m, i, key, 1), -1); /* its own start */
            continue;
        }
        split_both(m, &md, i, key, splits);
        splits++;
        assert_true(region_contains(regionmap_get(m, i + 1), key));
        assert_int_equal(regionmap_get(m, i + 1)->id, splits - 1); /* moved whole */
    }
    assert_sound(m);
    assert_matches_model(m, &md);
    /* Routing and ranges against a linear scan of the model. */
    for (int t = 0; t < 2000; t++) {
        keyref a = keyref_of(k, random_long_key(&x, k));
        size_t i = regionmap_route(m, a);
        assert_int_equal(i, model_route_scan(&md, a));
        assert_true(region_contains(regionmap_get(m, i), a));
        uint8_t k2[16];
        keyref b = keyref_of(k2, random_long_key(&x, k2));
        if (key_compare(a, b) >= 0)
            continue;
        size_t first, last;
        regionmap_range(m, a, b, &first, &last);
        /* [a, b) touches the regions from a's to the last one starting below b. */
        size_t want_last = first;
        for (size_t j = first + 1; j < md.n && key_compare(model_start(&md, j), b) < 0; j++)
            want_last = j;
        assert_int_equal(first, i);
        assert_int_equal(last, want_last);
        regionmap_range(m, a, keyref_of(NULL, 0), &first, &last);
        assert_int_equal(last, md.n - 1);
    }
    /* Every start routes to itself, the key just below it to the region before. */
    for (size_t j = 1; j < md.n; j += 7) {
        keyref start = model_start(&md, j);
        assert_int_equal(regionmap_route(m, start), j);
        if (start.data[start.len - 1] == 0) /* the predecessor of s+"\0" is s */
            assert_int_equal(regionmap_route(m, keyref_of(start.data, start.len - 1)), j - 1);
    }
    model_free(&md);
    regionmap_free(m);
}

/* The smallest key above s: s + "\0". Always strictly inside a region
 * that starts at s. */
static keyref successor(keyref s, uint8_t *buf)
{
    if (s.len)
        memcpy(buf, s.data, s.len);
    buf[s.len] = 0;
    return keyref_of(buf, s.len + 1);
}

/* Splitting every region of a table spanning several chunks, whatever the
 * chunk size (<= 4096): splits at the first and last region of every chunk,
 * of full chunks and of chunks just split, checked after each split. Keys
 * s + "\0" share s's 8-byte prefix, so the fallback compare runs too. */
static void test_every_position_splits_across_chunks(void **state)
{
    (void)state;
    enum { N = 5000 };
    keyref *cut = calloc(N - 1, sizeof *cut);
    uint8_t (*cutkeys)[4] = calloc(N - 1, sizeof *cutkeys);
    model md;
    model_init(&md);
    for (size_t i = 0; i + 1 < N; i++) {
        uint32_t v = (uint32_t)(i + 1) << 8;
        uint8_t *b = cutkeys[i];
        b[0] = (uint8_t)(v >> 24), b[1] = (uint8_t)(v >> 16), b[2] = (uint8_t)(v >> 8), b[3] = 0;
        cut[i] = keyref_of(b, 4);
        model_split(&md, i, cut[i]);
    }
    size_t bad;
    regionmap *m = regionmap_new(cut, N - 1, &bad);
    assert_non_null(m);
    assert_sound(m);
    assert_matches_model(m, &md);
    uint8_t buf[64];
    /* From the top down: indices below the split do not move. */
    for (size_t i = N; i-- > 0;) {
        keyref at = successor(region_start(regionmap_get(m, i)), buf);
        if (i == 0)
            at = keyref_of("\0", 1);
        split_both(m, &md, i, at, 2);
        if (i % 97 == 0 || i + 3 >= N || i < 3)
            assert_sound(m);
    }
    assert_sound(m);
    assert_matches_model(m, &md);
    /* Bottom up, splitting each upper daughter again (region 0 is now
     * [-inf, "\0"): nothing fits inside it). */
    for (size_t i = 1; i < regionmap_count(m); i += 3)
        split_both(m, &md, i, successor(region_start(regionmap_get(m, i)), buf), 3);
    assert_sound(m);
    assert_matches_model(m, &md);
    for (size_t i = 0; i < md.n; i++)
        assert_int_equal(regionmap_route(m, model_start(&md, i)), i);
    model_free(&md);
    free(cut);
    free(cutkeys);
    regionmap_free(m);
}

/* Big-endian bytes of v. */
static keyref be64(uint64_t v, uint8_t *b)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (56 - 8 * i));
    return keyref_of(b, 8);
}

/* Monotonic keys split the last region over and over (new last chunks),
 * reversed ones the first (inserts at slot 1 of the first chunk). */
static void test_monotonic_growth_at_both_ends(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    model md;
    model_init(&md);
    uint8_t b[8];
    for (uint64_t t = 1; t <= 12000; t++) {
        size_t last = regionmap_count(m) - 1;
        keyref at = be64((1ull << 62) + t * 1000, b);
        assert_int_equal(regionmap_route(m, at), last);
        split_both(m, &md, last, at, t);
    }
    assert_sound(m);
    for (uint64_t t = 1; t <= 6000; t++) {
        keyref at = be64((1ull << 62) - t * 1000, b);
        assert_int_equal(regionmap_route(m, at), 0);
        split_both(m, &md, 0, at, t);
    }
    assert_sound(m);
    assert_matches_model(m, &md);
    assert_int_equal(regionmap_count(m), 18001);
    /* Positional access forwards and backwards agrees with routing. */
    for (size_t i = regionmap_count(m); i-- > 0;)
        assert_int_equal(regionmap_route(m, model_start(&md, i)), i);
    model_free(&md);
    regionmap_free(m);
}

/* Routing ahead (regionmap_ahead): cursors stepped in turn, a few writes
 * ahead, with splits in between (the engine's use): the region a finished
 * cursor returns and regionmap_find_ahead's answer are always the
 * region holding the key, whatever split came between the steps. Keys of
 * 1 to 4 bytes over a small alphabet share prefixes (the full-key compares)
 * and the map spans many chunks (the top and head searches). */
static void test_ahead_cursors_agree_with_route(void **state)
{
    (void)state;
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    uint64_t x = 31;
    enum { DEPTH = 6 };
    uint8_t key[DEPTH][8];
    size_t len[DEPTH];
    regionmap_ahead a[DEPTH];
    for (int d = 0; d < DEPTH; d++) {
        len[d] = random_key(&x, key[d]);
        regionmap_ahead_start(&a[d], keyref_of(key[d], len[d]));
    }
    size_t returned = 0, found_ahead = 0;
    for (int op = 0; op < 60000; op++) {
        for (int d = 0; d < DEPTH; d++) {
            keyref k = keyref_of(key[d], len[d]);
            region *r = regionmap_ahead_step(m, k, &a[d]);
            if (r) {
                assert_ptr_equal(r, regionmap_at(m, regionmap_route(m, k)));
                returned++;
            }
        }
        int d = op % DEPTH; /* the oldest: written, maybe split, then a new key */
        keyref k = keyref_of(key[d], len[d]);
        size_t i;
        found_ahead += a[d].steps == 4 && a[d].count == regionmap_count(m);
        region *r = regionmap_find_ahead(m, k, &a[d], &i);
        assert_int_equal(i, regionmap_route(m, k));
        assert_ptr_equal(r, regionmap_at(m, i));
        if (op % 7 == 0)
            assert_int_equal(i, route_brute_force(m, k));
        if (next_random(&x) % 3 == 0) {
            uint8_t at[8];
            size_t n = random_key(&x, at);
            size_t j = regionmap_route(m, keyref_of(at, n));
            (void)regionmap_split(m, j, keyref_of(at, n), 7);
        }
        len[d] = random_key(&x, key[d]);
        regionmap_ahead_start(&a[d], keyref_of(key[d], len[d]));
    }
    assert_true(regionmap_count(m) > 1500); /* several chunks */
    assert_true(returned > 1000 && found_ahead > 1000); /* both ways were taken */
    assert_null(regionmap_check(m));
    regionmap_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_region_takes_everything),
        cmocka_unit_test(test_presplit_validation),
        cmocka_unit_test(test_route_edges),
        cmocka_unit_test(test_range_edges),
        cmocka_unit_test(test_split_moves_rows_and_rejects_bad_points),
        cmocka_unit_test(test_find_with_hints_across_splits),
        cmocka_unit_test(test_routing_matches_brute_force_after_many_splits),
        cmocka_unit_test(test_random_splits_match_reference),
        cmocka_unit_test(test_every_position_splits_across_chunks),
        cmocka_unit_test(test_monotonic_growth_at_both_ends),
        cmocka_unit_test(test_ahead_cursors_agree_with_route),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
