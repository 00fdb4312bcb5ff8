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

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

/* Seeds r from seed (any value, 0 included). */
void rng_seed(rng *r, uint64_t seed);

/* A generator for stream number `stream` of `seed`: independent of other
 * streams of the same seed. */
rng rng_stream(uint64_t seed, uint64_t stream);

/* Next 64 random bits. */
uint64_t rng_next(rng *r);

/* Uniform integer in [0, n), unbiased. n must be > 0. */
uint64_t rng_below(rng *r, uint64_t n);

/* Uniform double in [0, 1) with 53 random bits. */
double rng_double(rng *r);

#endif
