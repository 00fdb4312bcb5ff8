/* rng.c -- xoshiro256** seeded through splitmix64.
 *
 * xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number
 * generators", 2018) is small (32 bytes of state), fast, and passes BigCrush;
 * its authors recommend filling the state from splitmix64 so that any 64-bit
 * seed, 0 included, gives a well-mixed, non-zero state.
 *
 * Streams. rng_stream hashes (seed, stream) into one 64-bit seed with the
 * splitmix64 finaliser and seeds from that. Two streams collide only if
 * their mixed seeds collide (about 2^-64 per pair) and, even then, only
 * overlap if their states land within each other's draws in a 2^256 cycle.
 * The alternative, xoshiro's jump(), guarantees disjoint sub-sequences but
 * costs O(stream) jumps; a hash is O(1) for any stream number.
 *
 * rng_below uses Lemire's multiply-shift with rejection ("Fast Random
 * Integer Generation in an Interval", ACM TOMS 2019): one 64x64->128
 * multiply per draw, a division only on the rare slow path. The 128-bit
 * product is computed from 32-bit halves to stay within ISO C11.
 */
#include "workloads/rng.h"

#include <assert.h>

static uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* splitmix64 (Vigna): advances *state and returns its mixed value. */
static uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
    uint64_t sm = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64_next(&sm);
    /* splitmix64 is a bijection of its counter, so four consecutive
     * outputs are never all zero; xoshiro's one forbidden state is safe. */
    assert(r->s[0] | r->s[1] | r->s[2] | r->s[3]);
}

rng rng_stream(uint64_t seed, uint64_t stream)
{
    uint64_t a = seed, b = stream ^ 0x5851F42D4C957F2Du;
    uint64_t mixed = splitmix64_next(&a) ^ rotl64(splitmix64_next(&b), 17);
    rng r;
    rng_seed(&r, mixed);
    return r;
}

uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* The full 128-bit product a*b as (*hi, return value = low 64 bits). */
static uint64_t mul_64x64(uint64_t a, uint64_t b, uint64_t *hi)
{
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32;
    uint64_t b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi;
    uint64_t hl = a_hi * b_lo, hh = a_hi * b_hi;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return (mid << 32) | (uint32_t)ll;
}

uint64_t rng_below(rng *r, uint64_t n)
{
    assert(n > 0);
    uint64_t hi;
    uint64_t lo = mul_64x64(rng_next(r), n, &hi);
    if (lo < n) {
        uint64_t threshold = (0 - n) % n; /* 2^64 mod n */
        while (lo < threshold)
            lo = mul_64x64(rng_next(r), n, &hi);
    }
    assert(hi < n);
    return hi;
}

double rng_double(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
