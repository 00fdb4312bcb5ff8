/* store.c -- the row store's interface: one call, one kind of store.
 *
 * store.h's functions dispatch on the kind kept at the start of every
 * store (store_impl.h) to the exact store (store_exact.c) or the sampled
 * store (store_sampled.c). The exact store is the common case and the
 * branch to it comes first: one well-predicted compare and a direct call a
 * put (bench_store and bench_writes measured no difference from calling it
 * directly; an indirect call through a table of function pointers was not
 * tried, as it would hide the callee from the compiler for no gain with two
 * kinds). Nothing here allocates or keeps state of its own.
 */
#include "core/store_impl.h"

#define IS_EXACT(s) ((s)->kind == STORE_EXACT)
#define EXACT(s) ((exact_store *)(s))
#define SAMPLED(s) ((sampled_store *)(s))
#define C_EXACT(s) ((const exact_store *)(s))
#define C_SAMPLED(s) ((const sampled_store *)(s))

store *store_new(void)
{
    return (store *)exact_new();
}

store *store_new_sampled(uint32_t capacity)
{
    if (capacity < STORE_SAMPLE_KEYS_MIN)
        capacity = STORE_SAMPLE_KEYS_MIN;
    if (capacity > STORE_SAMPLE_KEYS_MAX)
        capacity = STORE_SAMPLE_KEYS_MAX;
    return (store *)sampled_new(capacity);
}

store *store_new_config(const store_config *c)
{
    if (c && c->kind == STORE_SAMPLED)
        return store_new_sampled(c->sample_keys);
    return store_new();
}

store_kind store_kind_of(const store *s)
{
    return s->kind;
}

void store_free(store *s)
{
    if (!s)
        return;
    if (IS_EXACT(s))
        exact_free(EXACT(s));
    else
        sampled_free(SAMPLED(s));
}

int store_put(store *s, keyref k, uint32_t cell_bytes)
{
    if (IS_EXACT(s))
        return exact_put(EXACT(s), k, cell_bytes);
    return sampled_put(SAMPLED(s), k, cell_bytes);
}

void store_prefetch_put(const store *s)
{
    if (IS_EXACT(s))
        exact_prefetch_put(C_EXACT(s));
}

uint64_t store_bytes(const store *s)
{
    return IS_EXACT(s) ? exact_bytes(C_EXACT(s)) : sampled_bytes(C_SAMPLED(s));
}

uint64_t store_cells(const store *s)
{
    return IS_EXACT(s) ? exact_cells(C_EXACT(s)) : sampled_cells(C_SAMPLED(s));
}

uint64_t store_rows(store *s)
{
    return IS_EXACT(s) ? exact_rows(EXACT(s)) : sampled_rows(SAMPLED(s));
}

int store_row_at(store *s, uint64_t i, keyref *key, uint64_t *bytes)
{
    return IS_EXACT(s) ? exact_row_at(EXACT(s), i, key, bytes)
                       : sampled_row_at(SAMPLED(s), i, key, bytes);
}

int store_middle_key(store *s, keyref *mid)
{
    return IS_EXACT(s) ? exact_middle_key(EXACT(s), mid) : sampled_middle_key(SAMPLED(s), mid);
}

int store_first_last(store *s, keyref *first, keyref *last)
{
    return IS_EXACT(s) ? exact_first_last(EXACT(s), first, last)
                       : sampled_first_last(SAMPLED(s), first, last);
}

store *store_split(store *s, keyref at)
{
    return IS_EXACT(s) ? (store *)exact_split(EXACT(s), at)
                       : (store *)sampled_split(SAMPLED(s), at);
}

uint64_t store_count_range(store *s, keyref lo, keyref hi)
{
    return IS_EXACT(s) ? exact_count_range(EXACT(s), lo, hi)
                       : sampled_count_range(SAMPLED(s), lo, hi);
}

size_t store_memory(const store *s)
{
    return IS_EXACT(s) ? exact_memory(C_EXACT(s)) : sampled_memory(C_SAMPLED(s));
}
