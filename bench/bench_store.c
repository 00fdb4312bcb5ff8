/* bench_store.c -- puts per second and memory per row of one store.
 *
 * Three key orders, 10 million puts each, into one store:
 *   ascending   8-byte big-endian counter (monotonic keys: the append path)
 *   salted      1-byte salt (0..7, random) + 8-byte per-salt counter:
 *               8 interleaved ascending streams (the pending + merge path)
 *   random      16 uniformly random bytes (the worst case: every merge
 *               moves a large part of the store)
 * then the same out-of-order keys with reads in between, 1 million puts
 * each (a region read while written, as with --read-fraction):
 *   salted+reads, random+reads
 *               a store_count_range after every READ_EVERY puts, in turn
 *               over everything (a scan across the whole region) and over
 *               a random range; 1 put in 8 repeats one of the last RECENT
 *               keys, so some keys are in the store already
 * Each runs with the exact store, then with the sampled store
 * (store = sampled, STORE_SAMPLE_KEYS_DEFAULT rows sampled: its rows and
 * counts are estimates; docs/store.md), the lines marked "exact" and
 * "sampled".
 * The time includes one final store_rows; bytes/row is store_memory() /
 * rows after it, and peak is the largest store_memory() seen (every 1024
 * puts, pending buffers included) / rows; KiB is store_memory() itself
 * (the sampled store's is bounded by its capacity, not by the rows). reads/s counts the range counts.
 * Usage: bench_store [puts [puts with reads]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/store.h"

#define READ_EVERY 10
#define RECENT 65536 /* keys remembered to be put again */

enum order { ASCENDING, SALTED, RANDOM };

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One count over everything or over a random range [lo, lo + 2^60). */
static uint64_t count_some(store *s, uint64_t i, uint64_t *x)
{
    uint8_t lo[8], hi[8];
    if (i / READ_EVERY % 2 == 0)
        return store_count_range(s, keyref_of(NULL, 0), keyref_of(NULL, 0));
    uint64_t from = xorshift(x) >> 1;
    put_be64(lo, from);
    put_be64(hi, from + (1ull << 60));
    return store_count_range(s, keyref_of(lo, 8), keyref_of(hi, 8));
}

/* n puts in order o into a new exact (or sampled) store; with reads, a
 * count every READ_EVERY puts. */
static int run(const char *name, enum order o, uint64_t n, int reads, int sampled)
{
    store *s = sampled ? store_new_sampled(STORE_SAMPLE_KEYS_DEFAULT) : store_new();
    if (!s)
        return -1;
    uint64_t x = 88172645463325252u, next[8] = { 0 }, y = 7, counted = 0;
    uint8_t k[16], (*recent)[16] = reads ? calloc(RECENT, 16) : NULL;
    size_t len = 0, peak = 0;
    if (reads && !recent) {
        store_free(s);
        return -1;
    }
    double t0 = now();
    for (uint64_t i = 0; i < n; i++) {
        if (reads && i % 8 == 7 && i >= RECENT) /* a key put before, again */
            memcpy(k, recent[xorshift(&y) % RECENT], len);
        else switch (o) {
        case ASCENDING:
            put_be64(k, i);
            len = 8;
            break;
        case SALTED: {
            uint8_t salt = (uint8_t)(xorshift(&x) >> 61);
            k[0] = salt;
            put_be64(k + 1, next[salt]++);
            len = 9;
            break;
        }
        case RANDOM:
            put_be64(k, xorshift(&x));
            put_be64(k + 8, xorshift(&x));
            len = 16;
            break;
        }
        if (store_put(s, keyref_of(k, len), 100) != 0) {
            store_free(s);
            free(recent);
            return -1;
        }
        if (reads)
            memcpy(recent[i % RECENT], k, len);
        if (reads && i % READ_EVERY == READ_EVERY - 1)
            counted += count_some(s, i, &y);
        if ((i & 1023) == 0 && store_memory(s) > peak)
            peak = store_memory(s);
    }
    uint64_t rows = store_rows(s);
    double dt = now() - t0;
    printf("%-12s %-7s %10llu puts %10llu rows %7.2f Mputs/s %6.1f bytes/row"
           " (peak %.1f, key %zu) %9.1f KiB", name, sampled ? "sampled" : "exact",
           (unsigned long long)n, (unsigned long long)rows, (double)n / dt / 1e6,
           (double)store_memory(s) / (double)rows, (double)peak / (double)rows, len,
           (double)store_memory(s) / 1024.0);
    if (reads)
        printf(" %8.0f reads/s (%llu rows counted)",
               (double)(n / READ_EVERY) / dt, (unsigned long long)counted);
    printf("\n");
    store_free(s);
    free(recent);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000u;
    uint64_t nr = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000u;
    if (n == 0 || nr == 0) {
        fprintf(stderr, "usage: bench_store [puts > 0 [puts with reads > 0]]\n");
        return 2;
    }
    for (int sampled = 0; sampled <= 1; sampled++)
        if (run("ascending", ASCENDING, n, 0, sampled) || run("salted", SALTED, n, 0, sampled) ||
            run("random", RANDOM, n, 0, sampled) || run("salted+reads", SALTED, nr, 1, sampled) ||
            run("random+reads", RANDOM, nr, 1, sampled)) {
            fprintf(stderr, "bench_store: out of memory\n");
            return 1;
        }
    return 0;
}
