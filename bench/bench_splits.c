/* bench_splits.c -- growing a table to many regions by splits, and routing.
 *
 * The region map is the sim's hbase:meta; a long run of a hot table grows it
 * one split at a time. This grows a table from one region to N (default
 * 1,000,000) regions in two ways the engine does, and times each:
 *   - monotonic: every split cuts the last region (time-ordered keys: the
 *     newest region takes every write and keeps splitting);
 *   - random: a uniformly random 8-byte key is routed to its region, which
 *     then splits at that key (hashed/salted keys: splits land anywhere);
 *     the time includes the route before each split, as in the engine.
 * On the random table it then times routing random keys, and a loop over
 * every region by index (the balancers' and reports' pattern). The regions'
 * row stores stay empty: this measures the index, not the stores. Times are
 * the process's CPU seconds.
 * After the two growths it prints issue 15's target, 10^6 regions grown by
 * splits in under 60 s, as pass or miss for each (not enforced).
 * Usage: bench_splits [REGIONS [route [ROUTES]]]; with "route", only
 * routing (10^7 keys by default) and iteration, on the same table made by
 * one presplit (no splits): for old indexes whose splits take too long, and
 * for cachegrind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/regionmap.h"

/* CPU time of this process: steadier than wall time on a shared machine. */
static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* splitmix64: a fixed sequence, so every run does the same work. */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static keyref be64(uint64_t v, uint8_t *b)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (56 - 8 * i));
    return keyref_of(b, 8);
}

static regionmap *one_region(void)
{
    size_t bad;
    regionmap *m = regionmap_new(NULL, 0, &bad);
    if (!m) {
        fprintf(stderr, "bench_splits: out of memory\n");
        exit(1);
    }
    return m;
}

static void split_or_die(regionmap *m, size_t i, keyref at, uint64_t id)
{
    if (regionmap_split(m, i, at, id) < 0) {
        fprintf(stderr, "bench_splits: split failed at %zu regions\n", regionmap_count(m));
        exit(1);
    }
}

static double grow_monotonic(size_t n)
{
    regionmap *m = one_region();
    uint8_t b[8];
    double t0 = seconds_now();
    for (uint64_t t = 1; regionmap_count(m) < n; t++)
        split_or_die(m, regionmap_count(m) - 1, be64(t << 16, b), t);
    double wall = seconds_now() - t0;
    regionmap_free(m);
    return wall;
}

static regionmap *grow_random(size_t n, uint64_t seed, double *wall)
{
    regionmap *m = one_region();
    uint64_t x = seed;
    uint8_t b[8];
    double t0 = seconds_now();
    for (uint64_t t = 1; regionmap_count(m) < n; t++) {
        keyref at = be64(next_random(&x) | 1, b); /* never the empty-start region's "" */
        size_t i = regionmap_route(m, at);
        if (key_compare(region_start(regionmap_get(m, i)), at) != 0)
            split_or_die(m, i, at, t);
    }
    *wall = seconds_now() - t0;
    return m;
}

static double route_random(const regionmap *m, size_t routes, size_t *sum)
{
    uint64_t x = 7;
    uint8_t b[8];
    double t0 = seconds_now();
    for (size_t r = 0; r < routes; r++)
        *sum += regionmap_route(m, be64(next_random(&x), b));
    return seconds_now() - t0;
}

static double iterate_all(const regionmap *m, uint64_t *sum)
{
    double t0 = seconds_now();
    for (size_t i = 0; i < regionmap_count(m); i++)
        *sum += regionmap_get(m, i)->id;
    return seconds_now() - t0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The table grow_random makes, built at once from its sorted cuts: the
 * same regions, without the splits (to time routing alone, e.g. on an
 * index whose splits would take too long). */
static regionmap *presplit_random(size_t n, uint64_t seed)
{
    uint64_t *v = malloc(n * sizeof *v);
    uint8_t (*b)[8] = malloc(n * sizeof *b);
    keyref *cut = malloc(n * sizeof *cut);
    if (!v || !b || !cut)
        exit(1);
    uint64_t x = seed;
    size_t have = 0;
    while (have < n - 1) {
        /* draw until n-1 distinct cuts, as grow_random's splits would */
        for (size_t k = have; k < n - 1; k++)
            v[k] = next_random(&x) | 1;
        qsort(v, n - 1, sizeof *v, cmp_u64);
        have = 0;
        for (size_t k = 0; k < n - 1; k++)
            if (have == 0 || v[k] != v[have - 1])
                v[have++] = v[k];
    }
    for (size_t k = 0; k < n - 1; k++)
        cut[k] = be64(v[k], b[k]);
    size_t bad;
    regionmap *m = regionmap_new(cut, n - 1, &bad);
    if (!m)
        exit(1);
    free(v);
    free(b);
    free(cut);
    return m;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    if (n < 2) {
        fprintf(stderr, "usage: bench_splits [REGIONS >= 2 [route [ROUTES]]]\n");
        return 2;
    }
    if (argc > 2) { /* "route": routing and iteration only, on a presplit table */
        regionmap *m = presplit_random(n, 42);
        size_t sum = 0;
        uint64_t ids = 0;
        size_t routes = argc > 3 ? strtoull(argv[3], NULL, 10) : 10000000;
        double rt = route_random(m, routes, &sum), it = iterate_all(m, &ids);
        printf("presplit: route %9zu regions %8.1f ns/route, iterate %6.1f ns/region\n", n,
               rt * 1e9 / (double)(routes ? routes : 1), it * 1e9 / (double)n);
        fprintf(stderr, "(checksums %zu %llu)\n", sum, (unsigned long long)ids);
        regionmap_free(m);
        return 0;
    }
    double mono = grow_monotonic(n);
    printf("monotonic splits  %9zu regions %8.2f s %8.0f ns/split\n", n, mono,
           mono * 1e9 / (double)(n - 1));
    fflush(stdout);
    double rnd;
    regionmap *m = grow_random(n, 42, &rnd);
    printf("random splits     %9zu regions %8.2f s %8.0f ns/split (incl. its route)\n", n, rnd,
           rnd * 1e9 / (double)(n - 1));
    /* issue 15's target: a table of 10^6 regions grown by splits in under
     * 60 s; printed, not enforced (CPU seconds, as above) */
    printf("target: 10^6 regions grown by splits under 60 s: monotonic %.2f s %s, "
           "random %.2f s %s%s\n", mono, mono < 60 ? "pass" : "MISS", rnd,
           rnd < 60 ? "pass" : "MISS", n == 1000000 ? "" : " (the target is for 10^6 regions)");
    size_t routes = 10000000, sum = 0;
    double rt = route_random(m, routes, &sum);
    printf("route random keys %9zu regions %8.2f s %8.1f ns/route\n", n, rt,
           rt * 1e9 / (double)routes);
    uint64_t ids = 0;
    double it = iterate_all(m, &ids);
    printf("iterate by index  %9zu regions %8.3f s %8.1f ns/region\n", n, it,
           it * 1e9 / (double)n);
    /* bench_writes' tables hold ~200 regions: routing there must not slow. */
    double ignored;
    regionmap *small = grow_random(200, 99, &ignored);
    rt = route_random(small, routes, &sum);
    printf("route random keys %9zu regions %8.2f s %8.1f ns/route\n", regionmap_count(small), rt,
           rt * 1e9 / (double)routes);
    fflush(stdout);
    fprintf(stderr, "(checksums %zu %llu)\n", sum, (unsigned long long)ids);
    regionmap_free(small);
    regionmap_free(m);
    return 0;
}
