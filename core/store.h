/* store.h -- the in-memory row store of one region: exact or sampled.
 *
 * Two kinds behind one interface, chosen when a store is made:
 *
 * exact (store_new; core/store_exact.c): every distinct row key written to the region is kept, in unsigned byte
 * order, with the cell bytes accounted to it. Writing the same row again
 * adds bytes but not a row (a row is counted once; bytes are per cell).
 * The store answers what a region needs: its size, its distinct row count,
 * its middle key by size (the split point) and a split into two stores.
 *
 * Budget (DESIGN.md): about key bytes + 16 bytes of memory per distinct row,
 * and amortised O(1) work per put for keys that arrive in ascending order
 * (the common case for a region: time-ordered keys within one prefix);
 * puts out of order cost amortised O(log rows) each, with or without
 * store_count_range calls in between.
 *
 * sampled (store_new_sampled; core/store_sampled.c, issue 15): exact byte
 * and cell counters, the exact first and last keys, and a bounded sample of
 * at most `capacity` distinct rows: those whose key hash (a fixed hash, no
 * RNG: deterministic) is below a threshold that only falls, each with its
 * exact bytes. Every distinct row is in the sample with the same
 * probability p whatever its writes, so rows, range counts and the middle
 * key by size are estimated from it; while a store has at most `capacity`
 * rows (p = 1) every answer is exact. Memory is bounded by the capacity,
 * not by rows; a put whose hash is above the threshold costs one hash and
 * one compare (and two with the region's ends). Which answers are
 * estimates is said function by function below ("sampled:").
 *
 * Pointers handed out by the functions below point into the store and stay
 * valid until the next store_put, store_split or store_free on that store.
 */
#ifndef REGIONSIM_STORE_H
#define REGIONSIM_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/key.h"

typedef struct store store;

typedef enum store_kind { STORE_EXACT, STORE_SAMPLED } store_kind;

/* Which store a region map makes for its regions. */
typedef struct store_config {
    store_kind kind;
    uint32_t sample_keys; /* STORE_SAMPLED: the sample's capacity, in
                           * STORE_SAMPLE_KEYS_MIN..STORE_SAMPLE_KEYS_MAX */
} store_config;

#define STORE_SAMPLE_KEYS_MIN 16u
#define STORE_SAMPLE_KEYS_MAX 1048576u
#define STORE_SAMPLE_KEYS_DEFAULT 256u

/* A new empty exact store, or NULL if out of memory. */
store *store_new(void);

/* A new empty sampled store keeping at most `capacity` sampled rows
 * (clamped to STORE_SAMPLE_KEYS_MIN..STORE_SAMPLE_KEYS_MAX), or NULL if
 * out of memory. */
store *store_new_sampled(uint32_t capacity);

/* A new empty store of c's kind (NULL c: exact), or NULL if out of memory. */
store *store_new_config(const store_config *c);

/* The kind of s. */
store_kind store_kind_of(const store *s);

/* Releases s and everything it holds. NULL is allowed. */
void store_free(store *s);

/* Adds one cell of cell_bytes bytes to row k. k.len must be 1..KEY_MAX_LEN.
 * Returns 0, or -1 if out of memory (the store is then unchanged). */
int store_put(store *s, keyref k, uint32_t cell_bytes);

/* Prefetches what the next store_put to s will read first, a hint that
 * changes nothing: an exact store's index and records while it is small
 * (below 64 rows a put compares with the last row and inserts in place),
 * else its last index slot. Reads the store's struct: call it once that
 * is in cache (cluster_prefetch_write prefetches it a step before). */
void store_prefetch_put(const store *s);

/* Total cell bytes and cells put into the store (and kept by splits). */
uint64_t store_bytes(const store *s);
uint64_t store_cells(const store *s);

/* Number of distinct rows. Merges the puts not yet in key order into the
 * sorted rows (hence not const): O(rows) after puts out of order, for rare
 * calls (store_row_at, store_middle_key, store_first_last and store_split
 * do the same); a count between puts is store_count_range's job.
 * sampled: sampled rows / p, rounded, at least 1 if there are cells and at
 * most the cells; exact while p = 1. O(1). */
uint64_t store_rows(store *s);

/* The i-th row in key order (0-based) and the bytes accounted to it.
 * Returns 0, or -1 if i >= store_rows(s).
 * sampled: the sampled row of rank i * sampled / rows (the first key if
 * nothing is sampled), with its exact bytes; the i-th row while p = 1. */
int store_row_at(store *s, uint64_t i, keyref *key, uint64_t *bytes);

/* The middle key by size: the row that holds byte number store_bytes/2 when
 * the rows' bytes are laid end to end in key order (HBase picks the split
 * point from the middle of the data, not the middle row). Returns 0 and sets
 * *mid, or -1 if the store is empty.
 * sampled: the same over the sampled rows (each with its exact bytes), a
 * sampled row; the first key if nothing is sampled. Exact while p = 1. */
int store_middle_key(store *s, keyref *mid);

/* The first and last rows. Returns 0, or -1 if the store is empty.
 * sampled: exact, except after a split, whose lower half's last row is its
 * largest sampled row (the upper half's first is the split key). */
int store_first_last(store *s, keyref *first, keyref *last);

/* Moves every row >= at into a new store and returns it; s keeps the rows
 * < at. Bytes and cells move with their rows. Returns NULL if out of memory
 * (s is then unchanged). The new store is of s's kind.
 * sampled: the sample is cut at `at` (both halves keep the threshold, so
 * both stay valid samples); bytes move in proportion to the sampled rows'
 * bytes (exactly while p = 1), cells as the exact store apportions them. */
store *store_split(store *s, keyref at);

/* Rows with lo <= key < hi; an empty hi means unbounded above. Meant to be
 * called between puts in any key order: it sorts only the puts since the
 * last count (amortised O(log rows) work a put) and does O(log rows)
 * binary searches, or a few compares when [lo, hi) holds every row. Never
 * fails: the filter it may build is left out if memory is short. It does
 * not invalidate keys handed out by the functions above.
 * sampled: an estimate (exact while p = 1): a range holding every row
 * counts store_rows; a range of one key ([k, k + "\0"), a get) counts 1
 * when k lies between the first and last rows, else 0; any other range
 * counts the sampled rows below each end, plus where each end falls
 * between its two neighbouring sampled rows (interpolated on 8 key bytes
 * after their common prefix), in units of rows / (sampled + 1), rounded.
 * O(log capacity). */
uint64_t store_count_range(store *s, keyref lo, keyref hi);

/* Bytes of heap the store holds (for the memory benchmark and the memory
 * estimate's check). */
size_t store_memory(const store *s);

#endif
