/* regionmap.c -- sorted array of regions with binary-search routing.
 *
 * Routing runs on every write, so the search does not touch the regions at
 * all until the end: a parallel array holds the first 8 bytes of each start
 * key as a big-endian integer (zero padded). Integer order agrees with key
 * order wherever the prefixes differ, so nearly every step of the search is
 * one compare in a dense array; only equal prefixes fall back to comparing
 * the full keys.
 *
 * Why an array and not a tree: routing (every operation) wants the starts
 * dense and cache-friendly, and splits (rare: one per region-size worth of
 * writes) can afford an O(regions) memmove. At a million regions a split
 * moves ~64 MB of structs in the worst case, still small against the
 * writes that caused it.
 */
#include "core/regionmap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct regionmap {
    region *regions;
    uint64_t *start_prefix;     /* start_prefix[i] = key_prefix(start of region i) */
    size_t count, cap;
};

keyref region_start(const region *r) { return keyref_of(r->start, r->start_len); }
keyref region_end(const region *r) { return keyref_of(r->end, r->end_len); }

int region_contains(const region *r, keyref k)
{
    if (key_compare(k, region_start(r)) < 0)
        return 0;
    return r->end_len == 0 || key_compare(k, region_end(r)) < 0;
}

static int regionmap_reserve(regionmap *m, size_t want)
{
    if (want <= m->cap)
        return 0;
    size_t cap = m->cap ? m->cap : 8;
    while (cap < want) {
        if (cap > SIZE_MAX / 2 / sizeof(region))
            return -1;
        cap *= 2;
    }
    region *r = realloc(m->regions, cap * sizeof *r);
    if (!r)
        return -1;
    m->regions = r;
    uint64_t *p = realloc(m->start_prefix, cap * sizeof *p);
    if (!p)
        return -1; /* regions grew but cap did not: the next call retries */
    m->start_prefix = p;
    m->cap = cap;
    return 0;
}

/* The first 8 bytes of k as a big-endian integer, zero padded. */
static inline uint64_t key_prefix(keyref k)
{
    uint64_t p = 0;
    size_t n = k.len < 8 ? k.len : 8;
    for (size_t i = 0; i < n; i++)
        p |= (uint64_t)k.data[i] << (56 - 8 * i);
    return p;
}

/* Fills r as a fresh region [start, end) with an empty store. */
static int region_init(region *r, keyref start, keyref end, uint64_t id)
{
    memset(r, 0, sizeof *r);
    r->start = key_copy(start);
    r->end = key_copy(end);
    r->rows = store_new();
    if ((start.len && !r->start) || (end.len && !r->end) || !r->rows) {
        free(r->start);
        free(r->end);
        store_free(r->rows);
        return -1;
    }
    r->start_len = (uint32_t)start.len;
    r->end_len = (uint32_t)end.len;
    r->id = id;
    return 0;
}

static void region_release(region *r)
{
    free(r->start);
    free(r->end);
    store_free(r->rows);
}

regionmap *regionmap_new(const keyref *splits, size_t nsplits, size_t *bad)
{
    for (size_t i = 0; i < nsplits; i++) {
        int bad_key = splits[i].len == 0 || splits[i].len > KEY_MAX_LEN ||
                      (i > 0 && key_compare(splits[i - 1], splits[i]) >= 0);
        if (bad_key) {
            *bad = i;
            return NULL;
        }
    }
    *bad = nsplits;
    regionmap *m = calloc(1, sizeof *m);
    if (!m || nsplits == SIZE_MAX || regionmap_reserve(m, nsplits + 1) < 0) {
        regionmap_free(m); /* the regions array may have grown before the prefixes failed */
        return NULL;
    }
    for (size_t i = 0; i <= nsplits; i++) {
        keyref start = i ? splits[i - 1] : keyref_of(NULL, 0);
        keyref end = i < nsplits ? splits[i] : keyref_of(NULL, 0);
        m->start_prefix[i] = key_prefix(start);
        if (region_init(&m->regions[i], start, end, 0) < 0) {
            regionmap_free(m);
            return NULL;
        }
        m->count++;
    }
    return m;
}

void regionmap_free(regionmap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->count; i++)
        region_release(&m->regions[i]);
    free(m->regions);
    free(m->start_prefix);
    free(m);
}

size_t regionmap_count(const regionmap *m) { return m->count; }

region *regionmap_at(regionmap *m, size_t i)
{
    assert(i < m->count);
    return &m->regions[i];
}

const region *regionmap_get(const regionmap *m, size_t i)
{
    assert(i < m->count);
    return &m->regions[i];
}

size_t regionmap_route(const regionmap *m, keyref k)
{
    /* The last region whose start is <= k. Region 0 starts at the empty key,
     * which sorts before every key, so the answer always exists. */
    const uint64_t kp = key_prefix(k);
    size_t lo = 0, hi = m->count; /* invariant: start[lo] <= k < start[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t sp = m->start_prefix[mid];
        int start_le_k = sp != kp ? sp < kp
                                  : key_compare(region_start(&m->regions[mid]), k) <= 0;
        if (start_le_k)
            lo = mid;
        else
            hi = mid;
    }
    assert(region_contains(&m->regions[lo], k));
    return lo;
}

void regionmap_range(const regionmap *m, keyref lo, keyref hi, size_t *first, size_t *last)
{
    *first = regionmap_route(m, lo);
    if (hi.len == 0) {
        *last = m->count - 1;
        return;
    }
    /* hi is exclusive: the last region touched is the one holding the
     * largest key below hi, i.e. the last region whose start is < hi. */
    size_t r = regionmap_route(m, hi);
    if (r > *first && key_compare(region_start(&m->regions[r]), hi) == 0)
        r--;
    *last = r < *first ? *first : r;
}

int regionmap_split(regionmap *m, size_t i, keyref at, uint64_t id)
{
    assert(i < m->count);
    region *parent = &m->regions[i];
    if (at.len == 0 || !region_contains(parent, at) ||
        key_compare(at, region_start(parent)) == 0)
        return -1;
    if (regionmap_reserve(m, m->count + 1) < 0)
        return -1;
    parent = &m->regions[i]; /* the array may have moved */

    region upper;
    if (region_init(&upper, at, region_end(parent), id) < 0)
        return -1;
    /* `at` may point into the parent's store (a middle key): split on a copy. */
    uint8_t *lower_end = key_copy(at);
    store *moved = lower_end ? store_split(parent->rows, keyref_of(lower_end, at.len)) : NULL;
    if (!lower_end || !moved) {
        free(lower_end);
        store_free(moved);
        region_release(&upper);
        return -1;
    }
    store_free(upper.rows);
    upper.rows = moved;
    upper.server = parent->server;

    free(parent->end);
    parent->end = lower_end;
    parent->end_len = (uint32_t)at.len;
    parent->id = id; /* daughters share one id, as in HBase */
    parent->writes = parent->reads = 0;
    parent->read_rows = 0;
    parent->memstore_bytes = 0; /* HBase flushes the parent before it splits */
    parent->next_split_check = 0;

    memmove(&m->regions[i + 2], &m->regions[i + 1], (m->count - i - 1) * sizeof(region));
    memmove(&m->start_prefix[i + 2], &m->start_prefix[i + 1],
            (m->count - i - 1) * sizeof(uint64_t));
    m->regions[i + 1] = upper;
    m->start_prefix[i + 1] = key_prefix(keyref_of(upper.start, upper.start_len));
    m->count++;
    return 0;
}
