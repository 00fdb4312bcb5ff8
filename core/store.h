/* store.h -- the exact in-memory sorted row store of one region.
 *
 * Every distinct row key written to the region is kept, in unsigned byte
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
 * Pointers handed out by the functions below point into the store and stay
 * valid until the next store_put, store_split or store_free on that store.
 */
#ifndef REGIONSIM_STORE_H
#define REGIONSIM_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/key.h"

typedef struct store store;

/* A new empty store, or NULL if out of memory. */
store *store_new(void);

/* Releases s and everything it holds. NULL is allowed. */
void store_free(store *s);

/* Adds one cell of cell_bytes bytes to row k. k.len must be 1..KEY_MAX_LEN.
 * Returns 0, or -1 if out of memory (the store is then unchanged). */
int store_put(store *s, keyref k, uint32_t cell_bytes);

/* Total cell bytes and cells put into the store (and kept by splits). */
uint64_t store_bytes(const store *s);
uint64_t store_cells(const store *s);

/* Number of distinct rows. Merges the puts not yet in key order into the
 * sorted rows (hence not const): O(rows) after puts out of order, for rare
 * calls (store_row_at, store_middle_key, store_first_last and store_split
 * do the same); a count between puts is store_count_range's job. */
uint64_t store_rows(store *s);

/* The i-th row in key order (0-based) and the bytes accounted to it.
 * Returns 0, or -1 if i >= store_rows(s). */
int store_row_at(store *s, uint64_t i, keyref *key, uint64_t *bytes);

/* The middle key by size: the row that holds byte number store_bytes/2 when
 * the rows' bytes are laid end to end in key order (HBase picks the split
 * point from the middle of the data, not the middle row). Returns 0 and sets
 * *mid, or -1 if the store is empty. */
int store_middle_key(store *s, keyref *mid);

/* The first and last rows. Returns 0, or -1 if the store is empty. */
int store_first_last(store *s, keyref *first, keyref *last);

/* Moves every row >= at into a new store and returns it; s keeps the rows
 * < at. Bytes and cells move with their rows. Returns NULL if out of memory
 * (s is then unchanged). */
store *store_split(store *s, keyref at);

/* Rows with lo <= key < hi; an empty hi means unbounded above. Meant to be
 * called between puts in any key order: it sorts only the puts since the
 * last count (amortised O(log rows) work a put) and does O(log rows)
 * binary searches, or a few compares when [lo, hi) holds every row. Never
 * fails: the filter it may build is left out if memory is short. It does
 * not invalidate keys handed out by the functions above. */
uint64_t store_count_range(store *s, keyref lo, keyref hi);

/* Bytes of heap the store holds (for the memory benchmark). */
size_t store_memory(const store *s);

#endif
