/* balancer_support.h -- what the balancer tests share: an exact
 * java.util.Random (the reference values were computed with one) and
 * clusters built to order. Header-only, static: include it in one test
 * program each. */
#ifndef REGIONSIM_TESTS_BALANCER_SUPPORT_H
#define REGIONSIM_TESTS_BALANCER_SUPPORT_H

#include <stdint.h>
#include <stdlib.h>

#include "core/cluster.h"

/* ---- java.util.Random, exactly --------------------------------------- */

#define JR_MULT 0x5DEECE66DULL
#define JR_MASK ((1ULL << 48) - 1)

typedef struct java_random {
    uint64_t seed;
} java_random;

/* new Random(seed): the seed scrambled with the multiplier. */
static inline void jr_init(java_random *r, int64_t seed)
{
    r->seed = ((uint64_t)seed ^ JR_MULT) & JR_MASK;
}

/* Random.next(bits): the 48-bit LCG's top bits. */
static inline int32_t jr_next(java_random *r, int bits)
{
    r->seed = (r->seed * JR_MULT + 0xBULL) & JR_MASK;
    return (int32_t)(r->seed >> (48 - bits));
}

/* Random.nextInt(bound), its rejection loop included (Java's int overflow
 * test done in 64 bits). A balancer_random's below. */
static inline uint32_t jr_below(void *ctx, uint32_t n)
{
    java_random *r = ctx;
    int32_t bound = (int32_t)n, m = bound - 1;
    int32_t x = jr_next(r, 31);
    if ((bound & m) == 0)
        return (uint32_t)(((int64_t)bound * x) >> 31);
    for (int32_t u = x;; u = jr_next(r, 31)) {
        x = u % bound;
        if ((int64_t)u - x + m <= INT32_MAX)
            return (uint32_t)x;
    }
}

/* Random.nextDouble. A balancer_random's unit. */
static inline double jr_unit(void *ctx)
{
    java_random *r = ctx;
    int64_t hi = jr_next(r, 26), lo = jr_next(r, 27);
    return (double)((hi << 27) + lo) * 0x1.0p-53;
}

/* ---- clusters -------------------------------------------------------- */

/* Region i starts at the 4-byte big-endian key i; region 0 is below. */
static inline keyref test_region_key(uint8_t bytes[4], size_t i)
{
    for (int k = 0; k < 4; k++)
        bytes[k] = (uint8_t)(i >> (24 - 8 * k));
    return keyref_of(bytes, 4);
}

/* `regions` regions, counts[s] of them on server s in index order (all on
 * server 0 when counts is NULL), region ids `ids` (NULL: all 0); moves
 * reset to 0. */
static inline cluster *cluster_with(uint32_t servers, size_t regions, const uint64_t *counts,
                                    const uint64_t *ids)
{
    keyref *splits = malloc(regions * sizeof *splits);
    uint8_t(*bytes)[4] = malloc(regions * sizeof *bytes);
    assert_true(splits && bytes);
    for (size_t i = 1; i < regions; i++)
        splits[i - 1] = test_region_key(bytes[i], i);
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    cluster *c = cluster_new(servers, splits, regions - 1, p, &bad);
    free(splits);
    free(bytes);
    assert_non_null(c);
    size_t i = 0;
    for (uint32_t s = 0; counts && s < servers; s++)
        for (uint64_t k = 0; k < counts[s]; k++)
            cluster_move(c, i++, s);
    assert_true(!counts || i == regions);
    for (; i < regions; i++)
        cluster_move(c, i, 0);
    for (i = 0; ids && i < regions; i++)
        regionmap_at(c->map, i)->id = ids[i];
    c->moves = 0;
    return c;
}

#endif
