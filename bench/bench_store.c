/* bench_store.c -- puts per second and memory per row of one store.
 *
 * Three key orders, 10 million puts each, into one store:
 *   ascending   8-byte big-endian counter (monotonic keys: the append path)
 *   salted      1-byte salt (0..7, random) + 8-byte per-salt counter:
 *               8 interleaved ascending streams (the pending + merge path)
 *   random      16 uniformly random bytes (the worst case: every merge
 *               moves a large part of the store)
 * The time includes one final store_rows (which merges what is pending);
 * bytes/row is store_memory() / rows after it, and peak is the largest
 * store_memory() seen (every 1024 puts, pending buffers included) / rows.
 * Usage: bench_store [puts]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/store.h"

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

static int run(const char *name, enum order o, uint64_t n)
{
    store *s = store_new();
    if (!s)
        return -1;
    uint64_t x = 88172645463325252u, next[8] = { 0 };
    uint8_t k[16];
    size_t len = 0, peak = 0;
    double t0 = now();
    for (uint64_t i = 0; i < n; i++) {
        switch (o) {
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
            return -1;
        }
        if ((i & 1023) == 0 && store_memory(s) > peak)
            peak = store_memory(s);
    }
    uint64_t rows = store_rows(s);
    double dt = now() - t0;
    printf("%-10s %10llu puts %10llu rows %7.2f Mputs/s %6.1f bytes/row"
           " (peak %.1f, key %zu)\n", name, (unsigned long long)n,
           (unsigned long long)rows, (double)n / dt / 1e6,
           (double)store_memory(s) / (double)rows,
           (double)peak / (double)rows, len);
    store_free(s);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000u;
    if (n == 0) {
        fprintf(stderr, "usage: bench_store [puts > 0]\n");
        return 2;
    }
    if (run("ascending", ASCENDING, n) || run("salted", SALTED, n) ||
        run("random", RANDOM, n)) {
        fprintf(stderr, "bench_store: out of memory\n");
        return 1;
    }
    return 0;
}
