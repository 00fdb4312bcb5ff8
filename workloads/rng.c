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
 * The draws (rng_next, rng_below, rng_double) are inline in rng.h: they
 * are on every operation's path and on every step of the stochastic
 * balancer's walk.
 */
#include "workloads/rng.h"

#include <assert.h>

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
    uint64_t mixed = splitmix64_next(&a) ^ rng_rotl64(splitmix64_next(&b), 17);
    rng r;
    rng_seed(&r, mixed);
    return r;
}
