/* regionmap.c -- regions in key order as a two-level chunked array.
 *
 * The map answers three questions: which region holds a key (every write
 * and read: hot), which region has index i (loops, scans, the balancers)
 * and, rarely, "insert a region after region i" (a split, one per region
 * size worth of writes). The first version kept every region in one sorted
 * array, so a split memmoved the ~160 bytes of every region after it: O(R)
 * per split and O(R^2) to grow a table to R regions by splits (10^6
 * regions would have taken most of an hour).
 *
 * Layout. Regions live by value in chunks of up to CHUNK_CAP, chunks in key
 * order. Beside its regions a chunk holds the first 8 bytes of each
 * region's start key as a big-endian integer (zero padded), in a dense
 * array of its own. The map keeps three small arrays over the chunks: the
 * chunk pointers, each chunk's first start prefix and each chunk's first
 * index (the index of its slot 0; one more entry past the last chunk holds
 * the count). The index of (chunk c, slot j) is chunk_first[c] + j, and
 * chunk c's size is chunk_first[c+1] - chunk_first[c], so lookups never
 * read a chunk's header.
 *
 * Chunks are allocated 64-byte aligned and regions are 192 bytes, 64-byte
 * aligned, so the fields a write touches (regionmap.h: the first 64
 * bytes) always sit in one cache line.
 *
 * Each chunk also keeps one "line head" for every 8 of its prefixes
 * (head[t] = prefix[8t], 512 bytes) and a "top" line over those (top[u] =
 * head[8u], 64 bytes), so the slot search reads the top line, one line of
 * heads and one 64-byte line of prefix[]: 3 cache lines, each searched
 * within, instead of ~7 of the 4 KiB prefix array (~4 with the heads
 * alone: bench_splits' random routes over 10^6 regions, loaded 2-core
 * machine: 244 ns against 266, three runs each). One line a level is also
 * what lets a route be taken in steps, one prefetched line at a time
 * (regionmap_ahead: the engine routes its next writes ahead).
 *
 * Routing first checks the last region (keys in time order land there;
 * the write path first tries the region it last found for the key's first
 * byte: regionmap_find), then does two binary searches, over the chunks' first prefixes and then
 * over one chunk's prefixes: the same ~log2(R) steps as one search over all
 * regions, each still one integer compare in a dense array. Integer order
 * agrees with key order wherever prefixes differ; only equal prefixes read
 * the regions' full keys. Measured against the single array (bench_splits
 * route, cachegrind): as many cache misses, ~30 more instructions a route.
 *
 * Positional access (region i) is a binary search over chunk_first, then
 * the slot: O(log(R/CHUNK_CAP)), 11 steps in a 16 KiB array at a million
 * regions. A loop over all regions costs ~20 ns a region against ~10 for
 * the single array: no cursor API or hidden cache in the const lookups
 * seemed worth that, since every loop over the regions (balancer runs,
 * reports) does much more per region than the lookup.
 *
 * A split inserts one slot into one chunk (a memmove of at most CHUNK_CAP
 * regions) and adds 1 to chunk_first of every later chunk: O(CHUNK_CAP +
 * R/CHUNK_CAP), a few microseconds at 10^6 regions, and nearly nothing for
 * the engine's most common case, the last region splitting (monotonic
 * keys). A full chunk splits in two halves, except when the insertion is at
 * the very end of the table: then a new last chunk starts, so monotonic
 * growth packs chunks full. CHUNK_CAP = 512 balances the two terms near a
 * million regions (256 and 1024 measure about the same).
 *
 * Why regions by value and not pointers to them: pointers made a split's
 * memmove 16 bytes a slot, but cost routing a cache miss (the slot, then
 * the region) and loops a miss per region; both measured 40% slower. Why
 * not an order-statistic B-tree: a split would be O(log R) instead of
 * O(sqrt R), but positional access would walk the tree on every call and
 * the code would be several times this; at the scale the simulator targets
 * a split's index work stays below the store split that comes with it.
 *
 * Invariants (regionmap_check tests them all; a split asserts the local ones):
 *   - nchunks >= 1; every chunk holds 1..CHUNK_CAP regions, and every chunk
 *     but the last at least CHUNK_CAP/2 (so nchunks <= 2R/CHUNK_CAP + 1);
 *   - chunk_first[0] = 0, chunk_first[c+1] = chunk_first[c] + n of chunk c,
 *     and chunk_first[nchunks] = count;
 *   - chunk_prefix[c] = prefix[0] of chunk c; prefix[j] = key_prefix(start
 *     of slot j); head[t] = prefix[8t] and top[u] = prefix[64u] where
 *     those slots are in use;
 *   - the regions in chunk-then-slot order tile the key space.
 */
#include "core/regionmap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <stddef.h>

/* regionmap.h's layout: the write path's fields within the first cache line. */
_Static_assert(offsetof(region, blocked) + sizeof(uint64_t) <= 64,
               "the region's write-path fields fit its first cache line");
_Static_assert(_Alignof(region) == 64, "regions start on a cache line");

#ifndef CHUNK_CAP /* -DCHUNK_CAP=n to measure other sizes */
#define CHUNK_CAP 512
#endif

#define LINE_SLOTS 8 /* prefixes in a 64-byte cache line */
#define CHUNK_LINES ((CHUNK_CAP + LINE_SLOTS - 1) / LINE_SLOTS)

#define TOP_SLOTS ((CHUNK_LINES + LINE_SLOTS - 1) / LINE_SLOTS) /* heads' lines */

typedef struct chunk {
    /* top[u] = head[LINE_SLOTS * u] for the lines of head[] in use, and
     * head[t] = prefix[LINE_SLOTS * t] for t < lines(n): the slot search
     * looks at top (one line), then within one line of head[], then within
     * one line of prefix[] (see chunk_slot_of_key). Each array starts a
     * cache line. */
    _Alignas(64) uint64_t top[TOP_SLOTS];
    _Alignas(64) uint64_t head[CHUNK_LINES];
    _Alignas(64) uint64_t prefix[CHUNK_CAP]; /* prefix[j] = key_prefix(start of slot[j]) */
    region slot[CHUNK_CAP];     /* the regions, by value, in key order */
    uint32_t n;                 /* slots in use: 0..n-1 (routing never reads it) */
} chunk;

#define ROUTE_HINTS 16 /* regionmap_find's remembered regions, by a key's first byte */

struct regionmap {
    chunk **chunks;             /* in key order */
    uint64_t *chunk_prefix;     /* chunk_prefix[c] = chunks[c]->prefix[0] */
    size_t *chunk_first;        /* index of chunks[c]->slot[0]; [nchunks] = count */
    size_t nchunks, cap;        /* the arrays hold cap entries (chunk_first cap + 1) */
    size_t count;               /* regions */
    store_config store;         /* the kind of store regions get */
    /* regionmap_find's hints: the (chunk, slot) it last found for a key
     * of each first byte (mod ROUTE_HINTS); checked before use, never
     * trusted (see regionmap_find). */
    size_t hint_c[ROUTE_HINTS], hint_j[ROUTE_HINTS];
};

keyref region_start(const region *r) { return keyref_of(r->start, r->start_len); }
keyref region_end(const region *r) { return keyref_of(r->end, r->end_len); }

int region_contains(const region *r, keyref k)
{
    if (key_compare(k, region_start(r)) < 0)
        return 0;
    return r->end_len == 0 || key_compare(k, region_end(r)) < 0;
}

/* The first 8 bytes of k as a big-endian integer, zero padded. */
static inline uint64_t key_prefix(keyref k)
{
    if (k.len >= 8)
        return key_be64(k.data);
    uint64_t p = 0;
    size_t n = k.len;
    for (size_t i = 0; i < n; i++)
        p |= (uint64_t)k.data[i] << (56 - 8 * i);
    return p;
}

/* ---- regions ---------------------------------------------------------------- */

/* Fills r as a fresh region [start, end) with an empty store of kind sc.
 * 0 or -1. */
static int region_init(region *r, keyref start, keyref end, uint64_t id,
                       const store_config *sc)
{
    memset(r, 0, sizeof *r);
    r->start = key_copy(start);
    r->end = key_copy(end);
    r->rows = store_new_config(sc);
    if ((start.len && !r->start) || (end.len && !r->end) || !r->rows) {
        free(r->start);
        free(r->end);
        store_free(r->rows);
        return -1;
    }
    r->start_len = (uint32_t)start.len;
    r->end_len = (uint32_t)end.len;
    r->id = id;
    r->seen_server_id = UINT32_MAX;
    return 0;
}

static void region_release(region *r)
{
    free(r->start);
    free(r->end);
    store_free(r->rows);
}

/* ---- chunks ----------------------------------------------------------------- */

static chunk *chunk_new(void)
{
    /* Aligned as its regions are (regionmap.h: each one's write-path line whole). */
    chunk *ch = aligned_alloc(_Alignof(chunk), sizeof *ch);
    if (ch)
        ch->n = 0;
    return ch;
}

/* Sets ch->head and ch->top for the lines from the one holding slot
 * `from` on. */
static void chunk_heads_from(chunk *ch, uint32_t from)
{
    uint32_t t0 = from / LINE_SLOTS;
    for (uint32_t t = t0; t * LINE_SLOTS < ch->n; t++)
        ch->head[t] = ch->prefix[t * LINE_SLOTS];
    for (uint32_t u = t0 / LINE_SLOTS; u * LINE_SLOTS * LINE_SLOTS < ch->n; u++)
        ch->top[u] = ch->head[u * LINE_SLOTS];
}

/* Copies *r to slot j of a chunk with room, shifting slots j.. up by one. */
static void chunk_insert(chunk *ch, uint32_t j, const region *r)
{
    assert(ch->n < CHUNK_CAP && j <= ch->n);
    memmove(&ch->prefix[j + 1], &ch->prefix[j], (ch->n - j) * sizeof *ch->prefix);
    memmove(&ch->slot[j + 1], &ch->slot[j], (ch->n - j) * sizeof *ch->slot);
    ch->prefix[j] = key_prefix(region_start(r));
    ch->slot[j] = *r;
    ch->n++;
    chunk_heads_from(ch, j);
}

/* Whether slot j of ch starts at or before k (kp = its prefix), given
 * sp = prefix[j]: the prefixes decide unless equal. */
static inline int slot_le(const chunk *ch, size_t j, uint64_t sp, keyref k, uint64_t kp)
{
    return sp != kp ? sp < kp : key_compare(region_start(&ch->slot[j]), k) <= 0;
}

/* The line of ch's heads (of n slots) holding the last head at or before
 * k (kp = its prefix), by top: the first of chunk_slot_of_key's three
 * searches. */
static size_t head_line_of_key(const chunk *ch, size_t n, keyref k, uint64_t kp)
{
    size_t lines = (n + LINE_SLOTS - 1) / LINE_SLOTS;
    size_t lo = 0, hi = (lines + LINE_SLOTS - 1) / LINE_SLOTS; /* top[lo] <= k < top[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (slot_le(ch, mid * LINE_SLOTS * LINE_SLOTS, ch->top[mid], k, kp))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The line of ch's prefixes holding the last slot starting at or before
 * k, by its head, within head line u (head_line_of_key's answer). */
static size_t line_of_key(const chunk *ch, size_t n, size_t u, keyref k, uint64_t kp)
{
    size_t lines = (n + LINE_SLOTS - 1) / LINE_SLOTS;
    size_t lo = u * LINE_SLOTS; /* head[lo] <= k < head[hi] */
    size_t hi = lo + LINE_SLOTS < lines ? lo + LINE_SLOTS : lines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (slot_le(ch, mid * LINE_SLOTS, ch->head[mid], k, kp))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The last slot of line t (line_of_key's answer) starting at or before k. */
static size_t slot_in_line(const chunk *ch, size_t n, size_t t, keyref k, uint64_t kp)
{
    size_t lo = t * LINE_SLOTS; /* start[lo] <= k < start[hi] */
    size_t hi = lo + LINE_SLOTS < n ? lo + LINE_SLOTS : n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (slot_le(ch, mid, ch->prefix[mid], k, kp))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The last of the n slots of ch whose region starts at or before k (kp =
 * its prefix). Requires slot 0 to start at or before k. The caller passes
 * n (= ch->n) from the map's hot arrays: reading ch->n would cost a cache
 * miss of its own. Three searches, each within one cache line: over top
 * (one head in 8), then the one line of head[] (one prefix in 8) it
 * names, then the one line of prefix[] that names. A single search over
 * prefix[] touched ~7 of its 64 lines, each a likely miss over a million
 * regions; a search over all of head[] then one line of prefix[] ~4 (its
 * 8 lines, the one a route reads first shared by every route through the
 * chunk); this touches 3, the first of them hot. */
static size_t chunk_slot_of_key(const chunk *ch, size_t n, keyref k, uint64_t kp)
{
    size_t t = line_of_key(ch, n, head_line_of_key(ch, n, k, kp), k, kp);
    return slot_in_line(ch, n, t, k, kp);
}

/* ---- the chunk arrays --------------------------------------------------------- */

/* Room for `want` chunks in the three arrays. 0, or -1 (arrays unchanged
 * in meaning: whichever grew keeps its contents). */
static int reserve_chunks(regionmap *m, size_t want)
{
    if (want <= m->cap)
        return 0;
    size_t cap = m->cap ? m->cap : 4;
    while (cap < want) {
        if (cap > SIZE_MAX / 2 / sizeof(size_t))
            return -1;
        cap *= 2;
    }
    chunk **c = realloc(m->chunks, cap * sizeof *c);
    if (!c)
        return -1;
    m->chunks = c;
    uint64_t *p = realloc(m->chunk_prefix, cap * sizeof *p);
    if (!p)
        return -1;
    m->chunk_prefix = p;
    size_t *f = realloc(m->chunk_first, (cap + 1) * sizeof *f);
    if (!f)
        return -1;
    m->chunk_first = f;
    m->cap = cap; /* only once all three hold cap entries */
    return 0;
}

/* Appends an empty chunk after the last one (capacity reserved). */
static chunk *append_chunk(regionmap *m, chunk *ch)
{
    assert(m->nchunks < m->cap);
    m->chunks[m->nchunks] = ch; /* chunk_first[nchunks] is count already */
    m->nchunks++;
    m->chunk_first[m->nchunks] = m->count;
    return ch;
}

/* Makes `fresh` (empty) chunk c+1, moving chunk c's slots from..n-1 to it.
 * from == n leaves it empty for the caller to fill (capacity reserved). */
static void split_chunk(regionmap *m, size_t c, uint32_t from, chunk *fresh)
{
    assert(m->nchunks < m->cap && fresh->n == 0);
    chunk *ch = m->chunks[c];
    assert(from >= 1 && from <= ch->n);
    fresh->n = ch->n - from;
    memcpy(fresh->prefix, &ch->prefix[from], fresh->n * sizeof *fresh->prefix);
    memcpy(fresh->slot, &ch->slot[from], fresh->n * sizeof *fresh->slot);
    chunk_heads_from(fresh, 0);
    ch->n = from;
    size_t after = m->nchunks - c - 1;
    memmove(&m->chunks[c + 2], &m->chunks[c + 1], after * sizeof *m->chunks);
    memmove(&m->chunk_prefix[c + 2], &m->chunk_prefix[c + 1], after * sizeof *m->chunk_prefix);
    memmove(&m->chunk_first[c + 2], &m->chunk_first[c + 1],
            (after + 1) * sizeof *m->chunk_first); /* with the count past the end */
    m->chunks[c + 1] = fresh;
    m->chunk_prefix[c + 1] = fresh->n ? fresh->prefix[0] : 0; /* set on first insert */
    m->chunk_first[c + 1] = m->chunk_first[c] + from;
    m->nchunks++;
}

/* Regions in chunk c, from the map's own arrays (no touch of the chunk). */
static inline size_t chunk_size(const regionmap *m, size_t c)
{
    return m->chunk_first[c + 1] - m->chunk_first[c];
}

/* The chunk holding index i (< count). */
static inline size_t chunk_of_index(const regionmap *m, size_t i)
{
    assert(i < m->count);
    size_t lo = 0, hi = m->nchunks; /* first[lo] <= i < first[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->chunk_first[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The last chunk whose first region starts at or before k (kp = its
 * prefix). Chunk 0 starts at the empty key, before every key. */
static size_t chunk_of_key(const regionmap *m, keyref k, uint64_t kp)
{
    size_t lo = 0, hi = m->nchunks; /* start[lo] <= k < start[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t sp = m->chunk_prefix[mid];
        int start_le_k = sp != kp ? sp < kp
                                  : key_compare(region_start(&m->chunks[mid]->slot[0]), k) <= 0;
        if (start_le_k)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Region i as a slot: its chunk *c and slot *j. */
static inline region *locate_index(const regionmap *m, size_t i, size_t *c, uint32_t *j)
{
    *c = chunk_of_index(m, i);
    *j = (uint32_t)(i - m->chunk_first[*c]); /* < chunk_size: first[c] <= i < first[c+1] */
    return &m->chunks[*c]->slot[*j];
}

/* ---- the map ------------------------------------------------------------------ */

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
    if (!m || nsplits == SIZE_MAX || reserve_chunks(m, nsplits / CHUNK_CAP + 1) < 0) {
        regionmap_free(m);
        return NULL;
    }
    m->chunk_first[0] = 0; /* the count, past no chunks */
    /* Chunks packed full, the last one holding the rest. */
    for (size_t i = 0; i <= nsplits; i++) {
        keyref start = i ? splits[i - 1] : keyref_of(NULL, 0);
        keyref end = i < nsplits ? splits[i] : keyref_of(NULL, 0);
        chunk *ch = m->nchunks ? m->chunks[m->nchunks - 1] : NULL;
        if (!ch || ch->n == CHUNK_CAP) {
            chunk *fresh = chunk_new();
            if (!fresh) {
                regionmap_free(m);
                return NULL;
            }
            ch = append_chunk(m, fresh);
        }
        region r;
        if (region_init(&r, start, end, 0, &m->store) < 0) {
            regionmap_free(m);
            return NULL;
        }
        chunk_insert(ch, ch->n, &r);
        m->chunk_prefix[m->nchunks - 1] = ch->prefix[0];
        m->chunk_first[m->nchunks] = ++m->count;
    }
    assert(regionmap_check(m) == NULL);
    return m;
}

int regionmap_set_store(regionmap *m, const store_config *c)
{
    for (size_t i = 0; i < m->count; i++)
        if (store_cells(regionmap_get(m, i)->rows))
            return -1;
    /* Every new store first, then the swap: all or nothing. */
    store **fresh = calloc(m->count ? m->count : 1, sizeof *fresh);
    if (!fresh)
        return -1;
    for (size_t i = 0; i < m->count; i++) {
        fresh[i] = store_new_config(c);
        if (!fresh[i]) {
            while (i > 0)
                store_free(fresh[--i]);
            free(fresh);
            return -1;
        }
    }
    for (size_t i = 0; i < m->count; i++) {
        region *r = regionmap_at(m, i);
        store_free(r->rows);
        r->rows = fresh[i];
    }
    free(fresh);
    m->store = *c;
    return 0;
}

void regionmap_free(regionmap *m)
{
    if (!m)
        return;
    for (size_t c = 0; c < m->nchunks; c++) {
        for (uint32_t j = 0; j < m->chunks[c]->n; j++)
            region_release(&m->chunks[c]->slot[j]);
        free(m->chunks[c]);
    }
    free(m->chunks);
    free(m->chunk_prefix);
    free(m->chunk_first);
    free(m);
}

size_t regionmap_count(const regionmap *m) { return m->count; }

region *regionmap_at(regionmap *m, size_t i)
{
    size_t c = chunk_of_index(m, i);
    return &m->chunks[c]->slot[i - m->chunk_first[c]];
}

const region *regionmap_get(const regionmap *m, size_t i)
{
    size_t c = chunk_of_index(m, i);
    return &m->chunks[c]->slot[i - m->chunk_first[c]];
}

region *regionmap_span(regionmap *m, size_t i, size_t *n)
{
    size_t c = chunk_of_index(m, i);
    *n = m->chunk_first[c + 1] - i;
    return &m->chunks[c]->slot[i - m->chunk_first[c]];
}

/* Whether k is at or after the start of the table's last region (kp = its
 * prefix). */
static inline int in_last_region(const regionmap *m, keyref k, uint64_t kp)
{
    size_t c = m->nchunks - 1;
    const chunk *ch = m->chunks[c];
    size_t j = chunk_size(m, c) - 1;
    uint64_t sp = ch->prefix[j];
    return sp != kp ? sp < kp : key_compare(region_start(&ch->slot[j]), k) <= 0;
}

/* The two binary searches for k (kp = its prefix): chunk *c, slot *j. */
static void search_slot(const regionmap *m, keyref k, uint64_t kp, size_t *c, size_t *j)
{
    *c = chunk_of_key(m, k, kp);
    *j = chunk_slot_of_key(m->chunks[*c], chunk_size(m, *c), k, kp);
}

/* The region holding k, as chunk *c and slot *j. Keys in time order (a
 * time series under a monotonic scheme) keep landing in the last region:
 * that is checked first, for one compare. */
static inline void route_slot(const regionmap *m, keyref k, size_t *c, size_t *j)
{
    uint64_t kp = key_prefix(k);
    if (in_last_region(m, k, kp)) {
        *c = m->nchunks - 1;
        *j = chunk_size(m, *c) - 1;
    } else {
        search_slot(m, k, kp, c, j);
    }
    assert(region_contains(&m->chunks[*c]->slot[*j], k));
}

size_t regionmap_route(const regionmap *m, keyref k)
{
    size_t c, j;
    route_slot(m, k, &c, &j);
    return m->chunk_first[c] + j;
}

/* The write path's lookup. After the last region (route_slot's first
 * check), keys whose first byte is a salt or a hash bucket (salted,
 * hashed, OpenTSDB's salt) keep landing in one region per first byte, the
 * one each bucket's time order has reached: so the region last found for
 * the key's first byte is tried next, by its (chunk, slot). A hint may be stale (a split
 * shifts slots and chunks), so it is used only if it is in bounds and the
 * region there holds k: regions tile the key space, so that region is the
 * answer whatever has changed. Otherwise the usual route, remembered. */
/* Whether slot j of chunk c may hold a key of prefix kp, by the prefixes
 * alone (its start's and the next slot's): with keys spread over a
 * million regions the hint is mostly wrong, and this says so from the
 * chunk's dense prefix array, where region_contains reads the region and
 * its start key (two cache misses). 1 means: ask region_contains. */
static inline int hint_may_hold(const regionmap *m, size_t c, size_t j, uint64_t kp)
{
    const chunk *ch = m->chunks[c];
    if (kp < ch->prefix[j]) /* below its start's prefix: below its start */
        return 0;
    return j + 1 >= chunk_size(m, c) || kp <= ch->prefix[j + 1];
}

region *regionmap_find(regionmap *m, keyref k, size_t *i)
{
    uint64_t kp = key_prefix(k);
    size_t c, j;
    if (in_last_region(m, k, kp)) { /* time order: one compare, as route_slot */
        c = m->nchunks - 1;
        j = chunk_size(m, c) - 1;
    } else {
        size_t h = k.len ? k.data[0] % ROUTE_HINTS : 0;
        c = m->hint_c[h];
        j = m->hint_j[h];
        if (c >= m->nchunks || j >= chunk_size(m, c) || !hint_may_hold(m, c, j, kp) ||
            !region_contains(&m->chunks[c]->slot[j], k)) {
            search_slot(m, k, kp, &c, &j);
            m->hint_c[h] = c;
            m->hint_j[h] = j;
        }
    }
    assert(m->chunk_first[c] + j == regionmap_route(m, k));
    *i = m->chunk_first[c] + j;
    return &m->chunks[c]->slot[j];
}

/* ---- routing ahead (regionmap.h: regionmap_ahead) ------------------------------ */

void regionmap_ahead_start(regionmap_ahead *a, keyref k)
{
    a->kp = key_prefix(k);
    a->count = 0;
    a->c = a->j = 0;
    a->steps = 0;
}

/* Each step is one level of route_slot's search, done on lines the step
 * before prefetched; the map is whole between writes, so whatever a step
 * reads is live (only the cursor's chunk and slot go stale, and a split,
 * the one change, makes the count differ). In the last region (time
 * order) the first step knows the slot already. */
region *regionmap_ahead_step(regionmap *m, keyref k, regionmap_ahead *a)
{
    if (a->count != m->count) { /* a split since: start over */
        a->count = m->count;
        a->steps = 0;
    }
    switch (a->steps) {
    case 0:
        if (in_last_region(m, k, a->kp)) {
            a->c = m->nchunks - 1;
            a->j = chunk_size(m, a->c) - 1;
            a->steps = 4;
            break; /* its line: see below */
        }
        a->c = chunk_of_key(m, k, a->kp); /* the map's arrays: in cache */
        __builtin_prefetch(m->chunks[a->c]->top); /* top is one line */
        a->steps = 1;
        return NULL;
    case 1: {
        const chunk *ch = m->chunks[a->c];
        a->j = head_line_of_key(ch, chunk_size(m, a->c), k, a->kp); /* for now: u */
        __builtin_prefetch(&ch->head[a->j * LINE_SLOTS]); /* head[] is line aligned */
        a->steps = 2;
        return NULL;
    }
    case 2: {
        const chunk *ch = m->chunks[a->c];
        a->j = line_of_key(ch, chunk_size(m, a->c), a->j, k, a->kp); /* for now: t */
        __builtin_prefetch(&ch->prefix[a->j * LINE_SLOTS]); /* prefix[] is line aligned */
        a->steps = 3;
        return NULL;
    }
    case 3:
        a->j = slot_in_line(m->chunks[a->c], chunk_size(m, a->c), a->j, k, a->kp);
        a->steps = 4;
        break;
    default:
        return &m->chunks[a->c]->slot[a->j];
    }
    __builtin_prefetch(&m->chunks[a->c]->slot[a->j]); /* its write-path line */
    return NULL;
}

region *regionmap_find_ahead(regionmap *m, keyref k, const regionmap_ahead *a, size_t *i)
{
    if (a->steps < 4 || a->count != m->count)
        return regionmap_find(m, k, i);
    assert(a->kp == key_prefix(k) && m->chunk_first[a->c] + a->j == regionmap_route(m, k));
    *i = m->chunk_first[a->c] + a->j;
    return &m->chunks[a->c]->slot[a->j];
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
    if (r > *first && key_compare(region_start(regionmap_get(m, r)), hi) == 0)
        r--;
    *last = r < *first ? *first : r;
}

/* Where the region after (chunk c, slot j) goes, making room first: a full
 * chunk splits in halves (or, at the end of the table, a new last chunk
 * starts) using `spare`, which must be non-NULL then. Sets *tc, *tj. */
static void make_room_after(regionmap *m, size_t c, uint32_t j, chunk *spare, size_t *tc,
                            uint32_t *tj)
{
    uint32_t p = j + 1; /* the insertion slot in chunk c */
    if (m->chunks[c]->n < CHUNK_CAP) {
        *tc = c;
        *tj = p;
        return;
    }
    assert(spare);
    int appending = c == m->nchunks - 1 && p == CHUNK_CAP;
    uint32_t half = appending ? CHUNK_CAP : CHUNK_CAP / 2;
    split_chunk(m, c, half, spare);
    if (p <= half && half < CHUNK_CAP) {
        *tc = c;
        *tj = p;
    } else {
        *tc = c + 1;
        *tj = p - half;
    }
}

/* The debug-build checks of a split's neighbourhood: chunk c's size and
 * index bookkeeping, and order around slot j. */
static void assert_chunk_around(const regionmap *m, size_t c, uint32_t j)
{
    const chunk *ch = m->chunks[c];
    assert(ch->n >= 1 && ch->n <= CHUNK_CAP);
    assert(c == m->nchunks - 1 || ch->n >= CHUNK_CAP / 2);
    assert(m->chunk_prefix[c] == ch->prefix[0]);
    assert(m->chunk_first[c] + ch->n == m->chunk_first[c + 1]);
    assert(m->chunk_first[m->nchunks] == m->count);
    assert(j == 0 || key_compare(region_start(&ch->slot[j - 1]), region_start(&ch->slot[j])) < 0);
    assert(j + 1 >= ch->n ||
           key_compare(region_start(&ch->slot[j]), region_start(&ch->slot[j + 1])) < 0);
    (void)m, (void)c, (void)j, (void)ch;
}

int regionmap_split(regionmap *m, size_t i, keyref at, uint64_t id)
{
    size_t c;
    uint32_t j;
    region *parent = locate_index(m, i, &c, &j);
    if (at.len == 0 || !region_contains(parent, at) ||
        key_compare(at, region_start(parent)) == 0)
        return -1;

    /* Everything that can fail comes first; the map changes only after. */
    chunk *spare = NULL;
    if (m->chunks[c]->n == CHUNK_CAP &&
        (reserve_chunks(m, m->nchunks + 1) < 0 || !(spare = chunk_new())))
        return -1;
    region upper;
    if (region_init(&upper, at, region_end(parent), id, &m->store) < 0) {
        free(spare);
        return -1;
    }
    /* `at` may point into the parent's store (a middle key): split on a copy. */
    uint8_t *lower_end = key_copy(at);
    store *moved = lower_end ? store_split(parent->rows, keyref_of(lower_end, at.len)) : NULL;
    if (!moved) {
        free(lower_end);
        region_release(&upper);
        free(spare);
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
    parent->seen_server_id = UINT32_MAX; /* the balancer's loads look again */

    /* The parent may move to a new chunk now: it is not used after this. */
    size_t tc;
    uint32_t tj;
    make_room_after(m, c, j, spare, &tc, &tj);
    chunk_insert(m->chunks[tc], tj, &upper);
    if (tj == 0)
        m->chunk_prefix[tc] = m->chunks[tc]->prefix[0];
    for (size_t k = tc + 1; k <= m->nchunks; k++) /* with the count past the end */
        m->chunk_first[k]++;
    m->count++;
    assert_chunk_around(m, tc, tj);
    if (tc != c)
        assert_chunk_around(m, c, m->chunks[c]->n - 1);
    return 0;
}

const char *regionmap_check(const regionmap *m)
{
    if (m->nchunks == 0 || m->nchunks > m->cap)
        return "no chunks, or more than capacity";
    size_t total = 0;
    const region *prev = NULL;
    for (size_t c = 0; c < m->nchunks; c++) {
        const chunk *ch = m->chunks[c];
        if (ch->n < 1 || ch->n > CHUNK_CAP)
            return "a chunk is empty or over capacity";
        if (c + 1 < m->nchunks && ch->n < CHUNK_CAP / 2)
            return "a chunk other than the last is less than half full";
        if (m->chunk_first[c] != total)
            return "chunk_first disagrees with the chunk sizes";
        if (m->chunk_prefix[c] != ch->prefix[0])
            return "chunk_prefix disagrees with the chunk's first prefix";
        for (uint32_t j = 0; j < ch->n; j++) {
            const region *r = &ch->slot[j];
            if (ch->prefix[j] != key_prefix(region_start(r)))
                return "a slot's prefix disagrees with its region's start";
            if (j % LINE_SLOTS == 0 && ch->head[j / LINE_SLOTS] != ch->prefix[j])
                return "a chunk's line head disagrees with its prefix";
            if (j % (LINE_SLOTS * LINE_SLOTS) == 0 &&
                ch->top[j / (LINE_SLOTS * LINE_SLOTS)] != ch->prefix[j])
                return "a chunk's top head disagrees with its prefix";
            if (prev ? key_compare(region_end(prev), region_start(r)) != 0 : r->start_len != 0)
                return "regions do not tile the key space (gap, overlap or bounded first start)";
            if (r->end_len && key_compare(region_start(r), region_end(r)) >= 0)
                return "a region's start is not below its end";
            prev = r;
        }
        total += ch->n;
    }
    if (total != m->count || m->chunk_first[m->nchunks] != m->count)
        return "the chunk sizes do not sum to count";
    if (prev->end_len != 0)
        return "the last region's end is bounded";
    return NULL;
}
