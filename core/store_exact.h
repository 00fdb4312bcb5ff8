/* store_exact.h -- the exact store's representation and its inline
 * helpers, shared by store_exact.c (puts, merges, queries), store_count.c
 * (counts between puts: runs and the filter) and store_sort.c (sorting
 * pending entries). Internal: the design is at the top of store_exact.c.
 */
#ifndef REGIONSIM_STORE_EXACT_H
#define REGIONSIM_STORE_EXACT_H

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/store_impl.h"

#define REC_HDR 6         /* u16 key length + u32 row bytes */
#define PEND_MIN 4096     /* merge pending no sooner than this many entries */
#define SMALL_ROWS 64     /* stores of fewer rows insert puts into main */
#define SMALL_FETCH_BYTES 1024 /* a small store's records fetched at a put */
#define SORT_RUN 16       /* insertion-sorted run length of the merge sort */
#define RADIX_MIN 64      /* larger buckets of a sort are cut by a byte again */
#define RADIX_WORDS 4     /* key words (8 bytes) a sort cuts by, at most */
#define PREFETCH_AHEAD 8  /* pending keys fetched ahead of the merge */
#define MAIN_AHEAD_ROWS 256 /* main's index slots fetched ahead of a merge */
#define MAIN_AHEAD_BYTES 4096 /* main's record bytes fetched ahead of a merge */
#define MERGE_LINEAR 8    /* main rows compared one by one before galloping */
#define GROW_SLOW_BYTES (1u << 20) /* arrays past this grow by x1.25 */
#define GROW_CLASS_BYTES 4096 /* smaller arrays grow a size class at a time */
#define MAP_MIN_BYTES (1u << 18) /* arrays grown this big become mappings */
#define MAPPED_REC 1u
#define MAPPED_IDX 2u
#define MAPPED_PK 4u
#define MAPPED_PE 8u
#define RUNS_MAX 24       /* sorted pending runs; sizes more than double */
#define FILTER_MIN_KEYS 2048 /* smaller stores are searched, not filtered */
#define FILTER_BITS 10    /* filter bits per key when (re)built */
#define FILTER_MIN_BITS 6 /* rebuilt when filled past this many bits a key */
#define FILTER_AHEAD 8    /* filter lines fetched ahead when settling */
#define COUNT_HINTS 4   /* lower bounds of counts remembered, to search near */
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

/* What a store takes on only when it needs it (store_exact.c's top
 * comment says when): pending puts, the sorted runs and the filter that
 * counts between puts keep, and what counts remember. A store of fewer
 * than SMALL_ROWS rows with nothing pending never has one, however it is
 * written, listed and counted. */
typedef struct exact_ext {
    uint8_t *pk;          /* pending: key arena */
    size_t pk_len, pk_cap;
    pend *pe;             /* pending: entries, then as many scratch slots */
    size_t npend, pe_cap;
    size_t pend_rec;      /* sum of REC_HDR + len over pending entries */
    size_t pend_puts;     /* puts appended to pending since the last merge */
    int pend_sorted;      /* pending as a whole strictly ascending */
    unsigned count_victim; /* the hint a bound far from all of them replaces */
    uint32_t *filter;     /* Bloom filter of the keys of main and the runs */
    size_t filter_blocks; /* of 8 words; 0 if no filter */
    size_t filter_keys;   /* keys added since it was built */
    size_t nsorted;       /* pe[0..nsorted) are the runs, the rest the tail */
    size_t nruns;
    uint32_t run_end[RUNS_MAX]; /* run j is pe[run_end[j-1] (0 if j=0) .. run_end[j]);
                           * 32 bits: pe_cap < 2^32 (store_exact.c) */
    pend runs_min, runs_max; /* the smallest and largest key of the runs */
    size_t ends_rows;     /* rows when these were taken (SIZE_MAX: never) */
    uint64_t first_prefix, last_prefix; /* of main's first and last rows */
    uint64_t idle_cells;  /* cells at the last count ... */
    size_t idle_reads;    /* ... and counts since cells last changed */
    uint32_t count_hint[COUNT_HINTS]; /* rows of main where recent counts'
                             lower bounds were (hints: any value is correct;
                             a row past 2^32 is not remembered) */
} exact_ext;

struct exact_store {
    store base;           /* kind STORE_EXACT */
    unsigned char mapped; /* MAPPED_* bits: which arrays are mappings of
                             their own (store_exact.c, big arrays) */
    uint8_t *rec;         /* main: records in key order */
    size_t rec_len, rec_cap;
    uint64_t *idx;        /* main: offset of each row's record */
    size_t rows, idx_cap;
    uint64_t bytes, cells;
    exact_ext *x;         /* NULL until needed; then until freed, or a
                             split leaves the store small with none of it
                             in use */
    /* 80 bytes, jemalloc's 80 class: a million of them in a run of small
     * regions (the whole state in one struct took the 384 class) */
};
_Static_assert(sizeof(struct exact_store) <= 80 || sizeof(size_t) < 8,
               "exact_store outgrew jemalloc's 80-byte class");

/* Entries pending (0 without an extension). */
static inline size_t pending_of(const exact_store *s) { return s->x ? s->x->npend : 0; }

/* ---- small helpers ---------------------------------------------------- */

static inline uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline void wr16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static inline uint32_t add_saturating(uint32_t a, uint32_t b)
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

static inline pkey pkey_of(const uint8_t *k, size_t len)
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

/* ---- filter: is a key new? ---------------------------------------------- */

/* A 64-bit hash of a key, for the filter (never stored or shown). */
static inline uint64_t key_hash(const uint8_t *k, size_t n)
{
    return store_key_hash(k, n);
}

/* A split block Bloom filter (as in Parquet): a key sets one bit in each
 * of the 8 words of one 32-byte block, so a test is one cache line. Bit i
 * of the block of hash h. */
static inline uint32_t filter_bit(uint64_t h, int i)
{
    static const uint32_t salt[8] = {
        0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
        0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u,
    };
    return 1u << ((uint32_t)h * salt[i] >> 27);
}

static inline uint32_t *filter_block(const exact_ext *x, uint64_t h)
{
    return x->filter + 8 * (size_t)((h >> 32) * x->filter_blocks >> 32);
}

/* Adds the key of hash h (if there is a filter: x may be NULL). */
static inline void filter_set(exact_ext *x, uint64_t h)
{
    if (!x || !x->filter)
        return;
    uint32_t *b = filter_block(x, h);
    for (int i = 0; i < 8; i++)
        b[i] |= filter_bit(h, i);
    x->filter_keys++;
}

static inline void filter_add(exact_ext *x, const uint8_t *k, size_t n)
{
    if (x && x->filter)
        filter_set(x, key_hash(k, n));
}

/* 0 if the key of hash h is surely not a key of main or a run; 1 if it
 * may be (always, with no filter). */
static inline int filter_may_hold(const exact_ext *x, uint64_t h)
{
    if (!x || !x->filter)
        return 1;
    const uint32_t *b = filter_block(x, h);
    for (int i = 0; i < 8; i++)
        if (!(b[i] & filter_bit(h, i)))
            return 0;
    return 1;
}

static inline void filter_free(exact_ext *x)
{
    if (!x)
        return;
    free(x->filter);
    x->filter = NULL;
    x->filter_blocks = x->filter_keys = 0;
}

/* ---- main run ----------------------------------------------------------- */

static inline size_t rec_size_at(const uint8_t *r) { return REC_HDR + rd16(r); }

static inline keyref row_key(const exact_store *s, size_t r)
{
    const uint8_t *p = s->rec + s->idx[r];
    return keyref_of(p + REC_HDR, rd16(p));
}

/* <0, 0, >0 as row r sorts before, equal to, after key k. Inlined by force:
 * with callers on the count side too, GCC would call it from the merge. */
static ALWAYS_INLINE int row_compare(const exact_store *s, size_t r, const pkey *k)
{
    const uint8_t *p = s->rec + s->idx[r];
    size_t n = rd16(p);
    return pkey_compare(key_prefix(p + REC_HDR, n), p + REC_HDR, n, k);
}

/* How element i of an ascending range (a row of main, or an entry of a
 * run) compares to key k: <0, 0, >0. */
typedef int (*at_compare)(const exact_store *s, size_t i, const pkey *k);

/* row_compare as an at_compare. Only this wrapper's address is taken, so
 * that the direct calls of row_compare (the put path, the merge) stay
 * inlined. */
static inline int row_at_compare(const exact_store *s, size_t r, const pkey *k)
{
    return row_compare(s, r, k);
}

/* First element of [lo, hi) >= k (hi if none), by binary search. */
static inline size_t lower_bound_in(const exact_store *s, at_compare cmp, size_t lo,
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
static inline size_t gallop_forward(const exact_store *s, at_compare cmp, size_t lo,
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
static inline size_t search_from(const exact_store *s, at_compare cmp, size_t lo,
                                 size_t hi, const pkey *k, size_t keys)
{
    if (lo == hi || cmp(s, hi - 1, k) < 0)
        return hi;
    if (keys * keys < hi - lo)
        return lower_bound_in(s, cmp, lo, hi - 1, k);
    return gallop_forward(s, cmp, lo, hi, k);
}

/* First row >= key. */
static inline size_t lower_bound(const exact_store *s, keyref key)
{
    pkey k = pkey_of(key.data, key.len);
    return lower_bound_in(s, row_at_compare, 0, s->rows, &k);
}

static inline void add_row_bytes(exact_store *s, size_t r, uint32_t b)
{
    uint8_t *p = s->rec + s->idx[r] + 2;
    wr32(p, add_saturating(rd32(p), b));
}

static inline int pend_compare(const uint8_t *arena, const pend *a, const pend *b)
{
    if (a->prefix != b->prefix)
        return a->prefix < b->prefix ? -1 : 1;
    return compare_after_prefix(arena + a->off, a->len, arena + b->off, b->len);
}

/* Sorts a[0..n) into out[0..n) and returns out (store_sort.c). */
pend *exact_sort_entries(const uint8_t *arena, pend *a, size_t n, pend *out);

/* Merges pending into main and frees the pending buffers (store_exact.c). */
void exact_merge_pending(exact_store *s);

/* The store's extension, made (empty) if it has none; NULL if out of
 * memory (store_exact.c). */
exact_ext *exact_ext_get(exact_store *s);

#endif
