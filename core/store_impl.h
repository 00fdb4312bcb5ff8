/* store_impl.h -- what the row store's implementations share (internal).
 *
 * A store is one of two kinds behind one interface (store.h): the exact
 * store (store_exact.c, store_count.c, store_sort.c: every row kept) and the
 * sampled store (store_sampled.c: counters and a bounded sample of rows).
 * Every kind's struct begins with `struct store`, which says the kind, so
 * store.c can dispatch on it with one predictable branch and a direct call
 * (no function pointers, whose indirect calls would cost the exact put path
 * more). Only store.c and the implementations include this header.
 */
#ifndef REGIONSIM_STORE_IMPL_H
#define REGIONSIM_STORE_IMPL_H

#include <stdint.h>
#include <string.h>

#include "core/store.h"

/* The first member of every kind of store. */
struct store {
    store_kind kind;
};

/* A 64-bit hash of a key's bytes: a fixed function (no seed, no RNG), so
 * the same key hashes alike on every run and machine. Its output is mixed
 * well enough (a splitmix64-style finalizer) for both the exact store's
 * Bloom filter and the sampled store's threshold on the hash. */
static inline uint64_t store_key_hash(const uint8_t *k, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u * (n + 1), w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, k + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    w = 0; /* the tail as memcpy(&w, k + i, n - i) would leave it, without the call */
    for (size_t j = 0; i + j < n; j++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w |= (uint64_t)k[i + j] << (56 - 8 * j);
#else
        w |= (uint64_t)k[i + j] << (8 * j);
#endif
    }
    h = (h ^ w) * 0x94D049BB133111EBu;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    return h ^ h >> 32;
}

/* The exact store (store_exact.c); each function is store.h's of that name
 * for an exact store. */
typedef struct exact_store exact_store;
exact_store *exact_new(void);
void exact_free(exact_store *s);
int exact_put(exact_store *s, keyref k, uint32_t cell_bytes);
void exact_prefetch_put(const exact_store *s);
uint64_t exact_bytes(const exact_store *s);
uint64_t exact_cells(const exact_store *s);
uint64_t exact_rows(exact_store *s);
int exact_row_at(exact_store *s, uint64_t i, keyref *key, uint64_t *bytes);
int exact_middle_key(exact_store *s, keyref *mid);
int exact_first_last(exact_store *s, keyref *first, keyref *last);
exact_store *exact_split(exact_store *s, keyref at);
uint64_t exact_count_range(exact_store *s, keyref lo, keyref hi); /* store_count.c */
size_t exact_memory(const exact_store *s);

/* The sampled store (store_sampled.c), likewise. */
typedef struct sampled_store sampled_store;
sampled_store *sampled_new(uint32_t capacity);
void sampled_free(sampled_store *s);
int sampled_put(sampled_store *s, keyref k, uint32_t cell_bytes);
uint64_t sampled_bytes(const sampled_store *s);
uint64_t sampled_cells(const sampled_store *s);
uint64_t sampled_rows(sampled_store *s);
int sampled_row_at(sampled_store *s, uint64_t i, keyref *key, uint64_t *bytes);
int sampled_middle_key(sampled_store *s, keyref *mid);
int sampled_first_last(sampled_store *s, keyref *first, keyref *last);
sampled_store *sampled_split(sampled_store *s, keyref at);
uint64_t sampled_count_range(sampled_store *s, keyref lo, keyref hi);
size_t sampled_memory(const sampled_store *s);

#endif
