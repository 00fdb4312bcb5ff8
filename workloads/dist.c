/* dist.c -- YCSB's request distributions (to be completed). */
#include "workloads/dist.h"

/* FNV-1a 64 constants, as YCSB's Utils uses them. */
#define FNV_OFFSET_BASIS_64 0xCBF29CE484222325ull
#define FNV_PRIME_64 1099511628211ull

uint64_t ycsb_fnvhash64(uint64_t v)
{
    uint64_t h = FNV_OFFSET_BASIS_64;
    for (int i = 0; i < 8; i++) {
        h ^= v & 0xff;
        h *= FNV_PRIME_64;
        v >>= 8;
    }
    /* Java's Math.abs on a long: the two's complement negation, which
     * leaves Long.MIN_VALUE as it is. */
    return (int64_t)h < 0 ? (uint64_t)0 - h : h;
}
