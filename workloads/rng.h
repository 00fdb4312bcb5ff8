/* rng.h -- the project's one source of randomness.
 *
 * xoshiro256** (Blackman & Vigna), seeded through splitmix64. A generator
 * is a value: copy it, embed it, run two in one process. rng_stream derives
 * an independent generator for a named purpose (salt choice, workload
 * jitter, balancer tie-breaks...) from one seed, so adding a consumer of
 * randomness in one subsystem does not shift the numbers another sees.
 * Nothing else in regionsim may call rand() or read the clock for entropy.
 */
#ifndef REGIONSIM_RNG_H
#define REGIONSIM_RNG_H

#include <assert.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

/* Seeds r from seed (any value, 0 included). */
void rng_seed(rng *r, uint64_t seed);

/* A generator for stream number `stream` of `seed`: independent of other
 * streams of the same seed. */
rng rng_stream(uint64_t seed, uint64_t stream);

/* The draws are inline: they are on every operation's path and on every
 * step of the stochastic balancer's walk. */

static inline uint64_t rng_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* Next 64 random bits. */
static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl64(s[3], 45);
    return result;
}

/* The full 128-bit product a*b as (*hi, return value = low 64 bits), from
 * 32-bit halves to stay within ISO C11. */
static inline uint64_t rng_mul_64x64(uint64_t a, uint64_t b, uint64_t *hi)
{
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32;
    uint64_t b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi;
    uint64_t hl = a_hi * b_lo, hh = a_hi * b_hi;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return (mid << 32) | (uint32_t)ll;
}

/* Uniform integer in [0, n), unbiased. n must be > 0. Lemire's
 * multiply-shift with rejection ("Fast Random Integer Generation in an
 * Interval", ACM TOMS 2019): one 64x64->128 multiply per draw, a division
 * only on the rare slow path. */
static inline uint64_t rng_below(rng *r, uint64_t n)
{
    assert(n > 0);
    uint64_t hi;
    uint64_t lo = rng_mul_64x64(rng_next(r), n, &hi);
    if (lo < n) {
        uint64_t threshold = (0 - n) % n; /* 2^64 mod n */
        while (lo < threshold)
            lo = rng_mul_64x64(rng_next(r), n, &hi);
    }
    assert(hi < n);
    return hi;
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double rng_double(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
