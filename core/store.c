/* store.c -- the exact sorted row store of one region.
 *
 * A small LSM, like HBase's memstore flushed into store files, whose
 * biggest file (main) is always fully compacted:
 *
 *   main     rec  one byte array of records in key order,
 *                 record = [u16 key len][u32 row bytes, saturating][key]
 *                 (unaligned fields, read and written with memcpy)
 *            idx  the uint64 offset of each record in rec, one per row
 *                 -> key + 14 bytes per distinct row; binary search on idx
 *   pending  pk   arena of the key bytes of puts not yet in main
 *            pe   entries {u64 prefix, u64 offset in pk, u32 len, u32 bytes};
 *                 prefix = first 8 key bytes big-endian, zero padded, so
 *                 most compares are one integer compare. pe has room for
 *                 2 * pe_cap entries: the upper half is scratch for sorts
 *                 and merges. pe[0..npend) is two parts:
 *              runs  pe[0..nsorted): up to RUNS_MAX sorted runs, each
 *                    strictly ascending; every key of a run is in no other
 *                    run and not in main (runs hold distinct new rows);
 *                    each run is more than twice as long as the next one
 *              tail  pe[nsorted..npend): puts in arrival order, which may
 *                    repeat each other, a run's key or a main row.
 *
 * store_put:
 *   1. key == main's last row, or == the last pending key: add the bytes to
 *      that row, no new entry (repeated writes to a hot row).
 *   2. pending empty and key > main's last row: append to main. Ascending
 *      keys (monotonic, time-ordered within a prefix: the common case for a
 *      region) stay on this path: amortised O(1), no sort, no merge.
 *   3. otherwise append to the tail, noting whether pending as a whole stays
 *      strictly ascending (then a merge needs no sort).
 *   Pending is merged into main once max(4096, rows / 8) puts have gone to
 *   the tail since the last merge (a geometric bound, so each row is moved
 *   O(1) times amortised; counting puts, not entries, also bounds the key
 *   arena, which keeps the keys of entries folded away until that merge).
 *
 * Counts (store_count_range) do not merge into main: with keys out of
 * order and a count every few puts (scans), merging the few new puts each
 * time moved most of main per count, which is quadratic (md5 keys with 10%
 * reads ran 70x slower than without). A count first settles the tail: sort
 * it, fold its equal keys, fold each key already in main or in a run into
 * that row or entry, and push what is left as a new run. Runs are then
 * merged pairwise from the top, in place, while the top one is at least
 * half as long as the one below (sizes stay more than doubling: O(log
 * pending) runs, each entry moved O(log pending) times). The parts being
 * disjoint, rows in [lo, hi) are the sum of two binary searches in main and
 * in each run (the end of a range by galloping from its start: scans are
 * short); a range holding every key (a scan across the whole region, the
 * common case) costs four compares with the ends of main and of the runs,
 * whose prefixes the struct keeps (main's taken again when rows change).
 *
 * Is a tail key new? Searching main and every run costs some 30 cache
 * misses, and nearly every key is new (time series write new rows). So a
 * store of FILTER_MIN_KEYS keys or more, once counted, keeps a split block
 * Bloom filter of the keys of main and the runs: FILTER_BITS a key when
 * built, rebuilt from main and the runs once past FILTER_MIN_BITS a key as
 * the store grows, freed by a split (each half builds its own when
 * counted). One cache line answers "new" for all but 1-3% of new keys; the
 * rest, and keys put again, are searched (galloping forward through main
 * and each run when the tail is large: the sorted tail ascends). A store
 * never counted has no filter and never settles: its puts and merges are
 * as they were. A store counted (rows + pending) / IDLE_READ_ROWS times
 * with no put in between is taken as idle: the count merges pending into
 * main and frees the pending buffers and the filter.
 *
 * Merge into main (on a put past the bound, and before store_rows,
 * store_row_at, store_middle_key, store_first_last and store_split, which
 * are rare: a split check or split, the end of a run): sort all of pending
 * unless it is ascending (one stable counting-sort pass on the first byte
 * where the prefixes differ, then a bottom-up merge sort of each bucket not
 * yet in order), combine equal keys, then merge into main from the back, IN
 * PLACE. store_put has already reserved room in main's arrays for every
 * pending entry (that is where running out of memory can be reported;
 * queries have no error return, so they must not depend on allocating:
 * settling only folds and moves entries within pe, and the filter is an
 * accelerator, left out, or left fuller, if its allocation fails). Rows of
 * main greater than the largest pending key move as whole blocks found by
 * galloping (one memmove, one offset fix-up loop); a pending key already in
 * main adds its bytes there; rows of main below the smallest pending key do
 * not move at all, so a merge costs O(pending log pending + rows after the
 * smallest pending key). Main never holds garbage: duplicates are folded,
 * not appended. A merge forced by a query frees the pending buffers and
 * trims main's room reserved for them (if main is less than half used), so
 * a store whose rows are listed costs main + the struct (+ the filter); a
 * merge forced by a put keeps them for the puts to come, and so do counts.
 *
 * Trade-offs: arrays grow by x1.5, and by x1.25 once past 1 MiB: big
 * arrays are what the memory budget is about (capacity at most 1.25x use),
 * and their realloc copies stay amortised O(1). Main is not shrunk except
 * by a split. While puts are pending they cost 48 + key bytes each (entry,
 * scratch, key), bounded by max(4096, rows / 8) puts. The filter costs
 * 0.75 to 1.25 bytes a key in stores both written and counted. The run
 * stack costs RUNS_MAX words per store, not per row; past RUNS_MAX runs
 * (more than 2^23 pending entries) the top two merge whatever their sizes. A row's
 * bytes saturate at UINT32_MAX in its record (saturating sums do not depend
 * on the order of folding); store_bytes is an exact uint64. Cells are not
 * tracked per row (4 more bytes a row): a split apportions the cell count by
 * bytes (by rows if the store has no bytes), keeping at least one cell per
 * row on each side.
 */
#include "core/store.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define REC_HDR 6         /* u16 key length + u32 row bytes */
#define PEND_MIN 4096     /* merge pending no sooner than this many entries */
#define SORT_RUN 16       /* insertion-sorted run length of the merge sort */
#define PREFETCH_AHEAD 8  /* pending keys fetched ahead of the merge */
#define GROW_SLOW_BYTES (1u << 20) /* arrays past this grow by x1.25 */
#define RUNS_MAX 24       /* sorted pending runs; sizes more than double */
#define FILTER_MIN_KEYS 2048 /* smaller stores are searched, not filtered */
#define FILTER_BITS 10    /* filter bits per key when (re)built */
#define FILTER_MIN_BITS 6 /* rebuilt when filled past this many bits a key */
#define FILTER_AHEAD 8    /* filter lines fetched ahead when settling */
#define IDLE_READ_ROWS 16 /* counts with no put between, per row, that make
                             a count merge pending into main */

#if defined(__GNUC__)
#define prefetch(p) __builtin_prefetch(p)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define prefetch(p) ((void)(p))
#define ALWAYS_INLINE inline
#endif

typedef struct pend {
    uint64_t prefix;      /* first 8 key bytes, big-endian, zero padded */
    uint64_t off;         /* key bytes at pk + off */
    uint32_t len;
    uint32_t bytes;
} pend;

struct store {
    uint8_t *rec;         /* main: records in key order */
    size_t rec_len, rec_cap;
    uint64_t *idx;        /* main: offset of each row's record */
    size_t rows, idx_cap;
    uint8_t *pk;          /* pending: key arena */
    size_t pk_len, pk_cap;
    pend *pe;             /* pending: entries, then as many scratch slots */
    size_t npend, pe_cap;
    size_t pend_rec;      /* sum of REC_HDR + len over pending entries */
    int pend_sorted;      /* pending as a whole strictly ascending */
    uint64_t bytes, cells;
    /* (the fields above are those the old put path used: two cache lines) */
    size_t pend_puts;     /* puts appended to pending since the last merge */
    uint32_t *filter;     /* Bloom filter of the keys of main and the runs */
    size_t filter_blocks; /* of 8 words; 0 if no filter */
    size_t filter_keys;   /* keys added since it was built */
    size_t nsorted;       /* pe[0..nsorted) are the runs, the rest the tail */
    size_t nruns;
    size_t run_end[RUNS_MAX]; /* run j is pe[run_end[j-1] (0 if j=0) .. run_end[j]) */
    pend runs_min, runs_max; /* the smallest and largest key of the runs */
    size_t ends_rows;     /* rows when these were taken (SIZE_MAX: never) */
    uint64_t first_prefix, last_prefix; /* of main's first and last rows */
    uint64_t idle_cells;  /* cells at the last count ... */
    size_t idle_reads;    /* ... and counts since cells last changed */
};

/* ---- small helpers ---------------------------------------------------- */

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void wr16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static uint32_t add_saturating(uint32_t a, uint32_t b)
{
    uint32_t c = a + b;
    return c < a ? UINT32_MAX : c;
}

static inline uint64_t key_prefix(const uint8_t *k, size_t len)
{
    if (len >= 8)
        return (uint64_t)k[0] << 56 | (uint64_t)k[1] << 48 |
               (uint64_t)k[2] << 40 | (uint64_t)k[3] << 32 |
               (uint64_t)k[4] << 24 | (uint64_t)k[5] << 16 |
               (uint64_t)k[6] << 8 | (uint64_t)k[7];
    uint64_t v = 0;
    for (size_t i = 0; i < 8; i++)
        v = v << 8 | (i < len ? k[i] : 0);
    return v;
}

/* A key with its prefix computed once, for repeated compares. */
typedef struct pkey {
    const uint8_t *data;
    size_t len;
    uint64_t prefix;
} pkey;

static pkey pkey_of(const uint8_t *k, size_t len)
{
    pkey p = { k, len, key_prefix(k, len) };
    return p;
}

/* key_compare for two keys whose prefixes are equal: their first
 * min(len, 8) bytes are equal, so only bytes 8.. and the lengths remain. */
static inline int compare_after_prefix(const uint8_t *a, size_t al,
                                       const uint8_t *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    for (size_t i = 8; i < n; i += 8) {
        size_t m = n - i < 8 ? n - i : 8;
        uint64_t x = key_prefix(a + i, m), y = key_prefix(b + i, m);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (al > bl) - (al < bl);
}

/* key_compare of a against b, one integer compare in the common case. */
static inline int pkey_compare(uint64_t ap, const uint8_t *a, size_t al,
                               const pkey *b)
{
    if (ap != b->prefix)
        return ap < b->prefix ? -1 : 1;
    return compare_after_prefix(a, al, b->data, b->len);
}

/* The capacity, in elements of elem bytes, to grow cap to so that need
 * fit: x1.5, x1.25 past GROW_SLOW_BYTES, at least min. 0 if need is too
 * large to allocate. */
static size_t grown_cap(size_t cap, size_t need, size_t elem, size_t min)
{
    size_t limit = SIZE_MAX / 2 / elem;
    if (need > limit)
        return 0;
    size_t n = cap + (cap * elem > GROW_SLOW_BYTES ? cap / 4 : cap / 2);
    if (n < need)
        n = need;
    if (n < min)
        n = min;
    return n > limit ? need : n;
}

/* realloc that leaves *p alone on failure; n > 0. */
static int resize(void **p, size_t n)
{
    void *q = realloc(*p, n);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

/* Room for need bytes / index slots / pending entries (each with a scratch
 * slot). Return 0, or -1 with the array untouched. */
static int reserve_bytes(uint8_t **a, size_t *cap, size_t need, size_t min)
{
    if (need <= *cap)
        return 0;
    size_t n = grown_cap(*cap, need, 1, min);
    void *p = *a;
    if (n == 0 || resize(&p, n))
        return -1;
    *a = p;
    *cap = n;
    return 0;
}

static int reserve_index(store *s, size_t need)
{
    if (need <= s->idx_cap)
        return 0;
    size_t n = grown_cap(s->idx_cap, need, sizeof *s->idx, 4);
    void *p = s->idx;
    if (n == 0 || resize(&p, n * sizeof *s->idx))
        return -1;
    s->idx = p;
    s->idx_cap = n;
    return 0;
}

static int reserve_pending(store *s, size_t need)
{
    if (need <= s->pe_cap)
        return 0;
    size_t n = grown_cap(s->pe_cap, need, 2 * sizeof *s->pe, 16);
    void *p = s->pe;
    if (n == 0 || resize(&p, n * 2 * sizeof *s->pe))
        return -1;
    s->pe = p;
    s->pe_cap = n;
    return 0;
}

/* Gives back main's unused room when less than half of it is used.
 * Only with nothing pending: pending rows have room reserved in main. */
static void trim_main(store *s)
{
    assert(s->npend == 0);
    void *p = s->rec;
    if (s->rec_len < s->rec_cap / 2 && s->rec_len && !resize(&p, s->rec_len)) {
        s->rec = p;
        s->rec_cap = s->rec_len;
    }
    p = s->idx;
    if (s->rows < s->idx_cap / 2 && s->rows &&
        !resize(&p, s->rows * sizeof *s->idx)) {
        s->idx = p;
        s->idx_cap = s->rows;
    }
    if (s->rows == 0) {
        free(s->rec);
        free(s->idx);
        s->rec = NULL;
        s->idx = NULL;
        s->rec_cap = s->idx_cap = 0;
    }
}

/* ---- filter: is a key new? ---------------------------------------------- */

/* A 64-bit hash of a key, for the filter only (never stored or shown). */
static uint64_t key_hash(const uint8_t *k, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u * (n + 1), w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, k + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    w = 0;
    memcpy(&w, k + i, n - i);
    h = (h ^ w) * 0x94D049BB133111EBu;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    return h ^ h >> 32;
}

/* A split block Bloom filter (as in Parquet): a key sets one bit in each
 * of the 8 words of one 32-byte block, so a test is one cache line. */
static const uint32_t filter_salt[8] = {
    0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
    0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u,
};

static uint32_t *filter_block(const store *s, uint64_t h)
{
    return s->filter + 8 * (size_t)((h >> 32) * s->filter_blocks >> 32);
}

/* Adds the key of hash h (if there is a filter). */
static void filter_set(store *s, uint64_t h)
{
    if (!s->filter)
        return;
    uint32_t *b = filter_block(s, h);
    for (int i = 0; i < 8; i++)
        b[i] |= 1u << ((uint32_t)h * filter_salt[i] >> 27);
    s->filter_keys++;
}

static void filter_add(store *s, const uint8_t *k, size_t n)
{
    if (s->filter)
        filter_set(s, key_hash(k, n));
}

/* 0 if the key of hash h is surely not a key of main or a run; 1 if it
 * may be (always, with no filter). */
static int filter_may_hold(const store *s, uint64_t h)
{
    if (!s->filter)
        return 1;
    const uint32_t *b = filter_block(s, h);
    for (int i = 0; i < 8; i++)
        if (!(b[i] >> ((uint32_t)h * filter_salt[i] >> 27) & 1))
            return 0;
    return 1;
}

static void filter_free(store *s)
{
    free(s->filter);
    s->filter = NULL;
    s->filter_blocks = s->filter_keys = 0;
}

/* ---- main run ----------------------------------------------------------- */

static size_t rec_size_at(const uint8_t *r) { return REC_HDR + rd16(r); }

static keyref row_key(const store *s, size_t r)
{
    const uint8_t *p = s->rec + s->idx[r];
    return keyref_of(p + REC_HDR, rd16(p));
}

/* <0, 0, >0 as row r sorts before, equal to, after key k. Inlined by force:
 * with callers on the count side too, GCC would call it from the merge. */
static ALWAYS_INLINE int row_compare(const store *s, size_t r, const pkey *k)
{
    const uint8_t *p = s->rec + s->idx[r];
    size_t n = rd16(p);
    return pkey_compare(key_prefix(p + REC_HDR, n), p + REC_HDR, n, k);
}

/* How element i of an ascending range (a row of main, or an entry of a
 * run) compares to key k: <0, 0, >0. */
typedef int (*at_compare)(const store *s, size_t i, const pkey *k);

/* row_compare as an at_compare. Only this wrapper's address is taken, so
 * that the direct calls of row_compare (the put path, the merge) stay
 * inlined. */
static int row_at_compare(const store *s, size_t r, const pkey *k)
{
    return row_compare(s, r, k);
}

/* First element of [lo, hi) >= k (hi if none), by binary search. */
static inline size_t lower_bound_in(const store *s, at_compare cmp, size_t lo,
                                    size_t hi, const pkey *k)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp(s, mid, k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* First element of [lo, hi) >= k, element hi - 1 being >= k, galloping
 * forward from lo: O(log distance), and the probes start near lo. */
static inline size_t gallop_forward(const store *s, at_compare cmp, size_t lo,
                                    size_t hi, const pkey *k)
{
    for (size_t step = 1; lo < hi - 1; step *= 2) {
        size_t probe = hi - 1 - lo > step ? lo + step - 1 : hi - 1;
        if (cmp(s, probe, k) >= 0) {
            hi = probe;
            break;
        }
        lo = probe + 1;
    }
    return lower_bound_in(s, cmp, lo, hi, k);
}

/* First element of [lo, hi) >= k (hi if none), k being one of `keys`
 * ascending keys looked up in turn and lo where the search for the key
 * before ended. Gallops forward from lo
 * (O(log distance), about 2 log(n / keys) compares) when there are enough
 * keys for that to beat a binary search (log n). A key past the last
 * element costs one compare. */
static inline size_t search_from(const store *s, at_compare cmp, size_t lo,
                                 size_t hi, const pkey *k, size_t keys)
{
    if (lo == hi || cmp(s, hi - 1, k) < 0)
        return hi;
    if (keys * keys < hi - lo)
        return lower_bound_in(s, cmp, lo, hi - 1, k);
    return gallop_forward(s, cmp, lo, hi, k);
}

/* First row >= key. */
static size_t lower_bound(const store *s, keyref key)
{
    pkey k = pkey_of(key.data, key.len);
    return lower_bound_in(s, row_at_compare, 0, s->rows, &k);
}

/* First row in [0, i) > k, galloping back from i: O(log distance). */
static size_t gallop_after(const store *s, size_t i, const pkey *k)
{
    size_t hi = i, lo, step = 1;
    for (;;) {
        if (hi == 0)
            return 0;
        size_t probe = hi > step ? hi - step : 0;
        if (row_compare(s, probe, k) <= 0) {
            lo = probe + 1;
            break;
        }
        hi = probe;
        step *= 2;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (row_compare(s, mid, k) > 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static void write_record(uint8_t *p, const uint8_t *k, size_t n, uint32_t bytes)
{
    wr16(p, (uint16_t)n);
    wr32(p + 2, bytes);
    memcpy(p + REC_HDR, k, n);
}

static void add_row_bytes(store *s, size_t r, uint32_t b)
{
    uint8_t *p = s->rec + s->idx[r] + 2;
    wr32(p, add_saturating(rd32(p), b));
}

static int append_main(store *s, keyref k, uint32_t b)
{
    if (reserve_bytes(&s->rec, &s->rec_cap, s->rec_len + REC_HDR + k.len, 64) ||
        reserve_index(s, s->rows + 1))
        return -1;
    write_record(s->rec + s->rec_len, k.data, k.len, b);
    s->idx[s->rows++] = s->rec_len;
    s->rec_len += REC_HDR + k.len;
    filter_add(s, k.data, k.len);
    return 0;
}

#ifndef NDEBUG
/* Cheap spot checks of order: the ends and around row r. */
static int rows_ordered_near(const store *s, size_t r)
{
    size_t at[3] = { 1, r, s->rows - 1 };
    for (size_t i = 0; i < 3; i++) {
        size_t x = at[i];
        if (x == 0 || x >= s->rows)
            continue;
        keyref a = row_key(s, x - 1), b = row_key(s, x);
        if (key_compare(a, b) >= 0)
            return 0;
    }
    return 1;
}
#endif

/* ---- pending ------------------------------------------------------------ */

static inline int pend_compare(const uint8_t *arena, const pend *a, const pend *b)
{
    if (a->prefix != b->prefix)
        return a->prefix < b->prefix ? -1 : 1;
    return compare_after_prefix(arena + a->off, a->len, arena + b->off, b->len);
}

static void insertion_sort(const uint8_t *arena, pend *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        pend x = a[i];
        size_t j = i;
        for (; j > 0 && pend_compare(arena, &x, &a[j - 1]) < 0; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Stable merge of a[0..na) and b[0..nb) into out. */
static void merge_runs(const uint8_t *arena, const pend *a, size_t na,
                       const pend *b, size_t nb, pend *out)
{
    if (na && nb && pend_compare(arena, &a[na - 1], &b[0]) <= 0) {
        memcpy(out, a, na * sizeof *a);
        memcpy(out + na, b, nb * sizeof *b);
        return;
    }
    const pend *ae = a + na, *be = b + nb;
    while (a < ae && b < be)
        *out++ = pend_compare(arena, b, a) < 0 ? *b++ : *a++;
    memcpy(out, a, (size_t)(ae - a) * sizeof *a);
    out += ae - a;
    memcpy(out, b, (size_t)(be - b) * sizeof *b);
}

/* Bottom-up merge sort of a[0..n) with scratch[0..n); the result ends in
 * a. Runs already in order are copied, not merged. */
static void merge_sort(const uint8_t *arena, pend *a, pend *scratch, size_t n)
{
    pend *src = a, *dst = scratch;
    for (size_t i = 0; i < n; i += SORT_RUN)
        insertion_sort(arena, src + i, n - i < SORT_RUN ? n - i : SORT_RUN);
    for (size_t w = SORT_RUN; w < n; w *= 2) {
        for (size_t i = 0; i < n; i += 2 * w) {
            size_t na = n - i < w ? n - i : w;
            size_t nb = n - i - na < w ? n - i - na : w;
            merge_runs(arena, src + i, na, src + i + na, nb, dst + i);
        }
        pend *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

static int is_ascending(const uint8_t *arena, const pend *a, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (pend_compare(arena, &a[i - 1], &a[i]) >= 0)
            return 0;
    return 1;
}

/* Sorts a[0..n) into out[0..n) and returns out; a is the scratch and
 * ends in no particular order. One stable counting-sort pass on the first
 * byte where the prefixes differ cuts the entries into up to 256 buckets,
 * then each bucket that is not already ascending is merge sorted.
 * Interleaved ascending streams (salted keys) come out of the first pass
 * sorted; random keys are sorted in buckets that fit in cache. A handful
 * of entries is insertion sorted. */
static pend *sort_entries(const uint8_t *arena, pend *a, size_t n, pend *out)
{
    if (n <= SORT_RUN) { /* a count settling the few puts since the last */
        memcpy(out, a, n * sizeof *a);
        merge_sort(arena, out, a, n); /* one insertion sort */
        return out;
    }
    size_t count[257] = { 0 };
    uint64_t diff = 0;
    for (size_t i = 1; i < n; i++)
        diff |= a[i].prefix ^ a[0].prefix;
    unsigned shift = 0;
    while (shift < 56 && diff >> (shift + 8))
        shift += 8;
    for (size_t i = 0; i < n; i++)
        count[(a[i].prefix >> shift & 255) + 1]++;
    for (size_t b = 1; b <= 256; b++)
        count[b] += count[b - 1];
    size_t next[256];
    memcpy(next, count, sizeof next);
    for (size_t i = 0; i < n; i++)
        out[next[a[i].prefix >> shift & 255]++] = a[i];
    for (size_t b = 0; b < 256; b++) {
        pend *bucket = out + count[b];
        size_t m = count[b + 1] - count[b];
        if (!is_ascending(arena, bucket, m))
            merge_sort(arena, bucket, a + count[b], m);
    }
    return out;
}

/* Sorts all of pending and folds equal keys into one entry. */
static void sort_pending(store *s)
{
    const pend *a = sort_entries(s->pk, s->pe, s->npend, s->pe + s->pe_cap);
    size_t k = 0, rec = 0;
    for (size_t i = 0; i < s->npend; i++) {
        if (k && pend_compare(s->pk, &s->pe[k - 1], &a[i]) == 0) {
            s->pe[k - 1].bytes = add_saturating(s->pe[k - 1].bytes, a[i].bytes);
        } else {
            s->pe[k++] = a[i];
            rec += REC_HDR + a[i].len;
        }
    }
    s->npend = k;
    s->pend_rec = rec;
    s->pend_sorted = 1;
}

/* Empties pending (its entries are in main), keeping the buffers. */
static void reset_pending(store *s)
{
    s->npend = s->pk_len = s->pend_rec = s->pend_puts = 0;
    s->nsorted = s->nruns = 0;
    s->pend_sorted = 1;
}

/* Frees the pending buffers (pending is empty). */
static void drop_pending(store *s)
{
    assert(s->npend == 0);
    free(s->pk);
    free(s->pe);
    s->pk = NULL;
    s->pe = NULL;
    s->pk_cap = s->pe_cap = 0;
    reset_pending(s);
}

/* Moves main rows [lo, hi) up to end just below record offset *w and index
 * slot *wi (both >= the rows' current ends), fixing their offsets. */
static void move_rows_up(store *s, size_t lo, size_t hi, size_t *w, size_t *wi)
{
    if (lo == hi)
        return;
    size_t start = s->idx[lo];
    size_t end = s->idx[hi - 1] + rec_size_at(s->rec + s->idx[hi - 1]);
    *w -= end - start;
    memmove(s->rec + *w, s->rec + start, end - start);
    uint64_t delta = *w - start;
    for (size_t r = hi; r-- > lo;)
        s->idx[--*wi] = s->idx[r] + delta;
}

/* Merges pending into main in place (see the top of the file). Never
 * allocates: store_put reserved rec_len + pend_rec bytes and rows + npend
 * index slots. keep_buffers keeps pending's (now empty) arrays for the
 * puts to come; otherwise they are freed. */
static void merge_pending_into_main(store *s, int keep_buffers)
{
    if (s->npend == 0) { /* nothing pending, or all of it folded away */
        reset_pending(s);
        if (!keep_buffers && s->pe) {
            drop_pending(s);
            trim_main(s);
        }
        return;
    }
    for (size_t j = s->nsorted; s->filter && j < s->npend; j++) /* runs are in */
        filter_add(s, s->pk + s->pe[j].off, s->pe[j].len);
    if (!s->pend_sorted)
        sort_pending(s);
    size_t total = s->rec_len + s->pend_rec, nrows = s->rows + s->npend;
    assert(total <= s->rec_cap && nrows <= s->idx_cap);
    size_t i = s->rows;   /* main rows [0, i) are still in place */
    size_t w = total;     /* records are written below w */
    size_t wi = nrows;    /* index slots are written below wi */
    for (size_t j = s->npend; j-- > 0;) {
        /* Sorted pending keys sit all over the arena: fetch them early. */
        if (j >= PREFETCH_AHEAD)
            prefetch(s->pk + s->pe[j - PREFETCH_AHEAD].off);
        const pend *p = &s->pe[j];
        pkey k = { s->pk + p->off, p->len, p->prefix };
        size_t lo = gallop_after(s, i, &k);
        move_rows_up(s, lo, i, &w, &wi);
        i = lo;
        if (i > 0 && row_compare(s, i - 1, &k) == 0) {
            add_row_bytes(s, i - 1, p->bytes);
            continue;
        }
        w -= REC_HDR + p->len;
        write_record(s->rec + w, k.data, p->len, p->bytes);
        s->idx[--wi] = w;
    }
    /* Keys already in main leave a hole between rows [0, i) and the rest. */
    size_t end = i ? s->idx[i - 1] + rec_size_at(s->rec + s->idx[i - 1]) : 0;
    assert((w == end) == (wi == i));
    if (w > end) {
        size_t gap = w - end;
        memmove(s->rec + end, s->rec + w, total - w);
        for (size_t r = wi; r < nrows; r++)
            s->idx[i + r - wi] = s->idx[r] - gap;
        total -= gap;
        nrows -= wi - i;
    }
    s->rec_len = total;
    s->rows = nrows;
    reset_pending(s);
    if (!keep_buffers) {
        drop_pending(s);
        trim_main(s);
    }
    assert(rows_ordered_near(s, i));
}

/* Before a query: a store that is read may stay idle, so free pending. */
static void merge_pending(store *s)
{
    merge_pending_into_main(s, 0);
}

/* ---- runs: reads without merging into main ------------------------------ */

static size_t run_start(const store *s, size_t j)
{
    return j ? s->run_end[j - 1] : 0;
}

static size_t run_len(const store *s, size_t j)
{
    return s->run_end[j] - run_start(s, j);
}

/* <0, 0, >0 as pending entry i sorts before, equal to, after key k. */
static inline int entry_compare(const store *s, size_t i, const pkey *k)
{
    const pend *e = &s->pe[i];
    return pkey_compare(e->prefix, s->pk + e->off, e->len, k);
}

/* Merges the top two runs into one, in place: the upper run moves to the
 * scratch half, then both merge from the back, so entries of the lower run
 * below the upper run's first key do not move. Runs are disjoint: no equal
 * keys to fold. */
static void merge_top_runs(store *s)
{
    assert(s->nruns >= 2);
    size_t a = run_start(s, s->nruns - 2), i = s->run_end[s->nruns - 2];
    size_t e = s->run_end[s->nruns - 1], j = e - i, w = e;
    pend *up = s->pe + s->pe_cap, *pe = s->pe;
    memcpy(up, pe + i, j * sizeof *up);
    while (j > 0 && i > a) /* w == i + j */
        pe[--w] = pend_compare(s->pk, &pe[i - 1], &up[j - 1]) > 0 ? pe[--i] : up[--j];
    memcpy(pe + a, up, j * sizeof *up); /* if the lower run ran out */
    s->run_end[s->nruns - 2] = e;
    s->nruns--;
}

#ifndef NDEBUG
/* The run stack's shape, and order at the ends of each run. */
static int runs_ok(const store *s)
{
    if (s->nsorted != (s->nruns ? s->run_end[s->nruns - 1] : 0) ||
        s->nsorted > s->npend || s->nruns > RUNS_MAX)
        return 0;
    for (size_t j = 0; j < s->nruns; j++) {
        size_t a = run_start(s, j), e = s->run_end[j];
        if (e <= a || (j && 2 * run_len(s, j) >= run_len(s, j - 1)))
            return 0;
        if (e - a >= 2 && (pend_compare(s->pk, &s->pe[a], &s->pe[a + 1]) >= 0 ||
                           pend_compare(s->pk, &s->pe[e - 2], &s->pe[e - 1]) >= 0))
            return 0;
    }
    return 1;
}
#endif

/* Makes pe[nsorted..npend) (sorted, disjoint from main and the runs) the
 * top run, then merges the top two runs while the top one is at least half
 * as long as the one below (or there are RUNS_MAX runs): run sizes stay
 * more than doubling downwards. */
static void push_run(store *s)
{
    if (s->npend > s->nsorted) {
        assert(s->nruns < RUNS_MAX);
        const pend *first = &s->pe[s->nsorted], *last = &s->pe[s->npend - 1];
        if (s->nruns == 0 || pend_compare(s->pk, first, &s->runs_min) < 0)
            s->runs_min = *first;
        if (s->nruns == 0 || pend_compare(s->pk, last, &s->runs_max) > 0)
            s->runs_max = *last;
        s->run_end[s->nruns++] = s->npend;
    }
    s->nsorted = s->npend;
    while (s->nruns >= 2 &&
           (2 * run_len(s, s->nruns - 1) >= run_len(s, s->nruns - 2) ||
            s->nruns == RUNS_MAX))
        merge_top_runs(s);
    s->pend_sorted = s->nruns <= 1; /* no tail: one run is all of pending */
    assert(runs_ok(s));
}

/* If e's key is a row of main or an entry of a run, adds e's bytes there
 * and returns 1; else 0. e is one of n keys looked up in ascending order:
 * from[0] (main) and from[1 + j] (run j) are where the search for the key
 * before ended, and where this one starts. */
static int fold_into_older(store *s, const pend *e, size_t n, size_t *from)
{
    pkey k = { s->pk + e->off, e->len, e->prefix };
    size_t r = from[0] = search_from(s, row_at_compare, from[0], s->rows, &k, n);
    if (r < s->rows && row_compare(s, r, &k) == 0) {
        add_row_bytes(s, r, e->bytes);
        return 1;
    }
    for (size_t j = 0; j < s->nruns; j++) {
        size_t end = s->run_end[j];
        size_t i = from[1 + j] = search_from(s, entry_compare, from[1 + j], end, &k, n);
        if (i < end && entry_compare(s, i, &k) == 0) {
            s->pe[i].bytes = add_saturating(s->pe[i].bytes, e->bytes);
            return 1;
        }
    }
    return 0;
}

/* Before settling `more` tail entries: (re)builds the filter over main and
 * the runs once the store is big enough and the filter missing or too full,
 * at FILTER_BITS a key for them and the tail. The filter only saves
 * searches: if memory is short, the old one (correct, only fuller) or none
 * is kept. */
static void filter_refresh(store *s, size_t more)
{
    size_t keys = s->rows + s->nsorted + more;
    if (keys < FILTER_MIN_KEYS ||
        (s->filter && (s->filter_keys + more) * FILTER_MIN_BITS <= s->filter_blocks * 256))
        return;
    size_t blocks = keys / (256 / FILTER_BITS) + 1;
    if (blocks > UINT32_MAX) /* filter_block maps a 32-bit hash */
        blocks = UINT32_MAX;
    uint32_t *f = calloc(blocks, 8 * sizeof *f);
    if (!f)
        return;
    filter_free(s);
    s->filter = f;
    s->filter_blocks = blocks;
    const uint8_t *p = s->rec;
    for (size_t r = 0; r < s->rows; r++, p += rec_size_at(p))
        filter_add(s, p + REC_HDR, rd16(p));
    for (size_t i = 0; i < s->nsorted; i++)
        filter_add(s, s->pk + s->pe[i].off, s->pe[i].len);
}

/* The filter hash of e's key, its filter line fetched for a test to come
 * (0 and nothing fetched with no filter). */
static uint64_t entry_hash(const store *s, const pend *e)
{
    if (!s->filter)
        return 0;
    uint64_t h = key_hash(s->pk + e->off, e->len);
    prefetch(filter_block(s, h));
    return h;
}

/* Before a count: sorts the tail, folds its equal keys and the keys
 * already in main or in a run, and pushes the rest as a run. May build the
 * filter; allocates nothing else. */
static void settle_tail(store *s)
{
    size_t n = s->npend - s->nsorted;
    if (n == 0)
        return;
    filter_refresh(s, n);
    pend *tail = s->pe + s->nsorted;
    const pend *sorted = sort_entries(s->pk, tail, n, s->pe + s->pe_cap + s->nsorted);
    size_t from[RUNS_MAX + 1] = { 0 };
    for (size_t j = 0; j < s->nruns; j++)
        from[1 + j] = run_start(s, j);
    uint64_t hash[FILTER_AHEAD]; /* of the entries ahead, lines fetched */
    for (size_t i = 0; i < n && i < FILTER_AHEAD; i++)
        hash[i] = entry_hash(s, &sorted[i]);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const pend *e = &sorted[i];
        uint64_t h = hash[i % FILTER_AHEAD];
        if (i + FILTER_AHEAD < n)
            hash[i % FILTER_AHEAD] = entry_hash(s, &sorted[i + FILTER_AHEAD]);
        if (k && pend_compare(s->pk, &tail[k - 1], e) == 0) {
            tail[k - 1].bytes = add_saturating(tail[k - 1].bytes, e->bytes);
        } else if (!filter_may_hold(s, h) || !fold_into_older(s, e, n, from)) {
            filter_set(s, h);
            tail[k++] = *e;
            continue;
        }
        s->pend_rec -= REC_HDR + e->len; /* its room in main stays reserved */
    }
    s->npend = s->nsorted + k;
    push_run(s);
}

/* Whether [from, to) (to NULL: unbounded) holds every row of main and
 * every entry of the runs: the common count, a scan over a whole region. */
static int covers_all(store *s, const pkey *from, const pkey *to)
{
    if (s->rows && s->ends_rows != s->rows) { /* main's ends changed */
        const uint8_t *f = s->rec, *l = s->rec + s->idx[s->rows - 1];
        s->first_prefix = key_prefix(f + REC_HDR, rd16(f));
        s->last_prefix = key_prefix(l + REC_HDR, rd16(l));
        s->ends_rows = s->rows;
    }
    /* Prefixes decide most bounds without reading main (cache misses). */
    if (s->rows && (from->prefix > s->first_prefix ||
                    (from->prefix == s->first_prefix && row_compare(s, 0, from) < 0)))
        return 0;
    if (s->rows && to && (to->prefix < s->last_prefix ||
                          (to->prefix == s->last_prefix &&
                           row_compare(s, s->rows - 1, to) >= 0)))
        return 0;
    const pend *lo = &s->runs_min, *hi = &s->runs_max;
    if (s->nruns && (pkey_compare(lo->prefix, s->pk + lo->off, lo->len, from) < 0 ||
                     (to && pkey_compare(hi->prefix, s->pk + hi->off, hi->len, to) >= 0)))
        return 0;
    return 1;
}

/* Entries or rows in [lo, hi) of an ascending range that are >= from and,
 * if to is not NULL, < to. A bound outside the range costs one compare
 * (scans cover most regions whole). */
static size_t count_between(const store *s, at_compare cmp, size_t lo, size_t hi,
                            const pkey *from, const pkey *to)
{
    size_t a = lo < hi && cmp(s, lo, from) < 0
                   ? lower_bound_in(s, cmp, lo + 1, hi, from) : lo;
    size_t b = hi;
    if (to && a < hi && cmp(s, hi - 1, to) >= 0)
        b = gallop_forward(s, cmp, a, hi, to); /* scans are short */
    return b - a;
}

static size_t pend_limit(const store *s)
{
    return s->rows / 8 > PEND_MIN ? s->rows / 8 : PEND_MIN;
}

/* Appends k to pending, first reserving main's room for it. */
static int append_pending(store *s, const pkey *k, uint32_t b, int ascending)
{
    size_t n = s->npend + 1;
    if (reserve_bytes(&s->pk, &s->pk_cap, s->pk_len + k->len, 256) ||
        reserve_bytes(&s->rec, &s->rec_cap,
                      s->rec_len + s->pend_rec + REC_HDR + k->len, 64) ||
        reserve_index(s, s->rows + n) || reserve_pending(s, n))
        return -1;
    pend *e = &s->pe[s->npend++];
    e->prefix = k->prefix;
    e->off = s->pk_len;
    e->len = (uint32_t)k->len;
    e->bytes = b;
    memcpy(s->pk + s->pk_len, k->data, k->len);
    s->pk_len += k->len;
    s->pend_rec += REC_HDR + k->len;
    s->pend_puts++;
    s->pend_sorted = s->pend_sorted && ascending;
    return 0;
}

/* ---- the interface ------------------------------------------------------ */

store *store_new(void)
{
    store *s = calloc(1, sizeof *s);
    if (s) {
        s->pend_sorted = 1;
        s->ends_rows = SIZE_MAX;
    }
    return s;
}

void store_free(store *s)
{
    if (!s)
        return;
    free(s->rec);
    free(s->idx);
    free(s->pk);
    free(s->pe);
    free(s->filter);
    free(s);
}

/* Does k point into s's own records (a key from store_row_at & co.)? */
static int key_is_inside(const store *s, keyref k)
{
    uintptr_t p = (uintptr_t)k.data, r = (uintptr_t)s->rec;
    return s->rec && p >= r && p < r + s->rec_len;
}

int store_put(store *s, keyref k, uint32_t cell_bytes)
{
    assert(k.len >= 1 && k.len <= KEY_MAX_LEN);
    if (k.len < 1 || k.len > KEY_MAX_LEN)
        return -1;
    if (key_is_inside(s, k)) { /* a realloc below would pull it away */
        uint8_t *copy = key_copy(k);
        int rc = copy ? store_put(s, keyref_of(copy, k.len), cell_bytes) : -1;
        free(copy);
        return rc;
    }
    pkey pk = pkey_of(k.data, k.len);
    for (;;) {
        int c = s->rows ? -row_compare(s, s->rows - 1, &pk) : 1;
        if (c == 0) {
            add_row_bytes(s, s->rows - 1, cell_bytes);
            break;
        }
        if (c > 0 && s->npend == 0) {
            if (append_main(s, k, cell_bytes))
                return -1;
            break;
        }
        int d = 1;
        if (s->npend) {
            pend *last = &s->pe[s->npend - 1];
            pkey l = { s->pk + last->off, last->len, last->prefix };
            d = pkey_compare(pk.prefix, k.data, k.len, &l);
            if (d == 0) {
                last->bytes = add_saturating(last->bytes, cell_bytes);
                break;
            }
        }
        if (s->pend_puts >= pend_limit(s)) {
            merge_pending_into_main(s, 1);
            continue; /* k may now be main's last row or above it */
        }
        if (append_pending(s, &pk, cell_bytes, d > 0))
            return -1;
        break;
    }
    s->bytes += cell_bytes;
    s->cells++;
    return 0;
}

uint64_t store_bytes(const store *s) { return s->bytes; }
uint64_t store_cells(const store *s) { return s->cells; }

uint64_t store_rows(store *s)
{
    merge_pending(s);
    return s->rows;
}

int store_row_at(store *s, uint64_t i, keyref *key, uint64_t *bytes)
{
    merge_pending(s);
    if (i >= s->rows)
        return -1;
    const uint8_t *p = s->rec + s->idx[i];
    *key = keyref_of(p + REC_HDR, rd16(p));
    *bytes = rd32(p + 2);
    return 0;
}

int store_middle_key(store *s, keyref *mid)
{
    merge_pending(s);
    if (s->rows == 0)
        return -1;
    if (s->bytes == 0) { /* no sizes to go by: the middle row */
        *mid = row_key(s, s->rows / 2);
        return 0;
    }
    uint64_t half = s->bytes / 2, sum = 0;
    const uint8_t *p = s->rec;
    for (size_t r = 0; r < s->rows; r++, p += rec_size_at(p)) {
        sum += rd32(p + 2);
        if (sum > half) {
            *mid = keyref_of(p + REC_HDR, rd16(p));
            return 0;
        }
    }
    /* Only reachable when saturated rows undercount the total. */
    *mid = row_key(s, s->rows - 1);
    return 0;
}

int store_first_last(store *s, keyref *first, keyref *last)
{
    merge_pending(s);
    if (s->rows == 0)
        return -1;
    *first = row_key(s, 0);
    *last = row_key(s, s->rows - 1);
    return 0;
}

/* Cells moving with n of rows rows that carry moved of bytes bytes:
 * proportional, at least one per row on each side. */
static uint64_t apportion_cells(const store *s, size_t n, uint64_t moved)
{
    double share = s->bytes ? (double)moved / (double)s->bytes
                            : (double)n / (double)s->rows;
    uint64_t c = (uint64_t)((double)s->cells * share + 0.5);
    uint64_t keep_min = s->rows - n;
    if (c > s->cells - keep_min)
        c = s->cells - keep_min;
    if (c < n)
        c = n;
    return c;
}

store *store_split(store *s, keyref at)
{
    merge_pending(s);
    store *t = store_new();
    if (!t)
        return NULL;
    size_t r = lower_bound(s, at), n = s->rows - r;
    if (n == 0)
        return t;
    size_t start = s->idx[r], len = s->rec_len - start;
    t->rec = malloc(len);
    t->idx = malloc(n * sizeof *t->idx);
    if (!t->rec || !t->idx) {
        store_free(t);
        return NULL;
    }
    memcpy(t->rec, s->rec + start, len);
    uint64_t moved = 0;
    for (size_t i = 0; i < n; i++) {
        t->idx[i] = s->idx[r + i] - start;
        moved += rd32(t->rec + t->idx[i] + 2);
    }
    t->rec_len = t->rec_cap = len;
    t->rows = t->idx_cap = n;
    if (r == 0) {
        t->bytes = s->bytes;
        t->cells = s->cells;
    } else {
        assert(moved <= s->bytes);
        t->bytes = moved;
        t->cells = apportion_cells(s, n, moved);
    }
    s->bytes -= t->bytes;
    s->cells -= t->cells;
    s->rows = r;
    s->rec_len = start;
    s->ends_rows = SIZE_MAX; /* rows may come back to r with other ends */
    trim_main(s);
    filter_free(s); /* sized for both halves: each builds its own when read */
    return t;
}

uint64_t store_count_range(store *s, keyref lo, keyref hi)
{
    if (s->idle_cells != s->cells) { /* puts since the last count */
        s->idle_cells = s->cells;
        s->idle_reads = 0;
    }
    if (s->npend && ++s->idle_reads * IDLE_READ_ROWS >= s->rows + s->npend) {
        merge_pending(s); /* not written for a while: compact it */
        filter_free(s);
    }
    settle_tail(s);
    pkey from = pkey_of(lo.data, lo.len), to = pkey_of(hi.data, hi.len);
    const pkey *upto = hi.len ? &to : NULL;
    if (covers_all(s, &from, upto))
        return s->rows + s->npend;
    uint64_t n = count_between(s, row_at_compare, 0, s->rows, &from, upto);
    for (size_t j = 0; j < s->nruns; j++)
        n += count_between(s, entry_compare, run_start(s, j), s->run_end[j], &from, upto);
    return n;
}

size_t store_memory(const store *s)
{
    return sizeof *s + s->rec_cap + s->idx_cap * sizeof *s->idx + s->pk_cap +
           s->pe_cap * 2 * sizeof *s->pe + s->filter_blocks * 8 * sizeof *s->filter;
}
