/* keyspace.c -- reservoir samples of keys per window, cut into buckets at
 * the end. See keyspace.h for the design. */
#include "engine/keyspace.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The sample size of window w: generous while windows are few. */
static uint32_t reservoir_cap(uint32_t w)
{
    return w < 1024 ? 1024 : w < 16384 ? 64 : 8;
}

void keyspace_init(keyspace_sampler *ks, rng random)
{
    memset(ks, 0, sizeof *ks);
    ks->random = random;
    ks->weight = 1;
}

static int ensure_windows(keyspace_sampler *ks, uint32_t w)
{
    if (w < ks->nwindows)
        return 0;
    uint64_t want = ks->nwindows ? 2ull * ks->nwindows : 64;
    while (want <= w)
        want *= 2;
    if (want > UINT32_MAX / 2)
        return -1;
    key_reservoir *grown = realloc(ks->windows, 2 * (size_t)want * sizeof *grown);
    if (!grown)
        return -1;
    memset(grown + 2 * (size_t)ks->nwindows, 0,
           2 * (size_t)(want - ks->nwindows) * sizeof *grown);
    ks->windows = grown;
    ks->nwindows = (uint32_t)want;
    return 0;
}

/* Copies k into slot i (replacing what was there). */
static int reservoir_store(key_reservoir *r, uint32_t i, keyref k)
{
    if (!r->keys) {
        r->keys = calloc(r->cap, sizeof *r->keys);
        r->lens = calloc(r->cap, sizeof *r->lens);
        if (!r->keys || !r->lens)
            return -1;
    }
    if (!r->keys[i] || r->lens[i] < k.len) {
        uint8_t *p = realloc(r->keys[i], k.len ? k.len : 1);
        if (!p)
            return -1;
        r->keys[i] = p;
    }
    if (k.len)
        memcpy(r->keys[i], k.data, k.len);
    r->lens[i] = (uint32_t)k.len;
    return 0;
}

/* A uniform draw in (0, 1]: log() of it is finite. */
static double open_unit(rng *random)
{
    return 1.0 - rng_double(random);
}

/* Algorithm L's next weight and the number of keys to pass over before
 * the next one is kept: floor(log(u) / log(1 - w)). */
static void reservoir_skip(key_reservoir *r, rng *random)
{
    r->w *= exp(log(open_unit(random)) / r->cap);
    double skip = r->w < 1.0 ? floor(log(open_unit(random)) / log1p(-r->w)) : 0.0;
    r->next = r->seen + 1 + (skip < 1e15 ? (uint64_t)skip : (uint64_t)1e15);
}

int keyspace_add_slow(keyspace_sampler *ks, uint32_t w, int kind, keyref k)
{
    assert(kind == KEYSPACE_WRITES || kind == KEYSPACE_READS);
    if (ensure_windows(ks, w) < 0)
        return -1;
    key_reservoir *r = &ks->windows[2 * (size_t)w + (size_t)kind];
    if (r->cap == 0)
        r->cap = reservoir_cap(w);
    r->seen++;
    if (r->n < r->cap) { /* filling: keep every key */
        if (reservoir_store(r, r->n++, k) < 0)
            return -1;
        if (r->n == r->cap) {
            r->w = 1.0;
            reservoir_skip(r, &ks->random);
        }
        return 0;
    }
    if (r->seen < r->next) /* Algorithm L: most keys cost one comparison */
        return 0;
    uint32_t slot = (uint32_t)rng_below(&ks->random, r->cap);
    reservoir_skip(r, &ks->random);
    return reservoir_store(r, slot, k);
}

/* ---- the buckets ---- */

typedef struct bucket_keys {
    uint8_t **keys;   /* starts of buckets 1.. (bucket 0 starts at the table's start) */
    uint32_t *lens;
    uint32_t n;       /* buckets */
} bucket_keys;

static void bucket_keys_free(bucket_keys *b)
{
    for (uint32_t i = 0; b->keys && i < b->n; i++)
        free(b->keys[i]);
    free(b->keys);
    free(b->lens);
}

/* Cuts the rows stored in c into n buckets of about equal row count. */
static int cut_buckets(cluster *c, uint32_t n, bucket_keys *out)
{
    memset(out, 0, sizeof *out);
    uint64_t rows = cluster_rows(c);
    if (rows < n)
        n = (uint32_t)rows;
    if (n == 0)
        return 0;
    out->keys = calloc(n, sizeof *out->keys);
    out->lens = calloc(n, sizeof *out->lens);
    if (!out->keys || !out->lens)
        return -1;
    out->n = n;
    /* Walk the regions once, taking the row of rank floor(b * rows / n)
     * for b = 1 .. n-1. */
    uint64_t before = 0; /* rows in the regions already passed */
    uint32_t b = 1;
    for (size_t i = 0; i < regionmap_count(c->map) && b < n; i++) {
        store *s = regionmap_at(c->map, i)->rows;
        uint64_t here = store_rows(s);
        for (;;) {
            if (b >= n)
                break;
            uint64_t rank = b * rows / n; /* b <= 1000: no overflow below 2^54 rows */
            if (rank >= before + here)
                break;
            keyref k;
            uint64_t bytes;
            int rc = store_row_at(s, rank - before, &k, &bytes);
            assert(rc == 0);
            (void)rc;
            out->keys[b] = key_copy(k);
            if (!out->keys[b] && k.len)
                return -1;
            out->lens[b] = (uint32_t)k.len;
            b++;
        }
        before += here;
    }
    assert(b == n);
    return 0;
}

/* The bucket holding k: the last one whose start is <= k. */
static uint32_t bucket_of(const bucket_keys *b, keyref k)
{
    uint32_t lo = 0, hi = b->n - 1; /* answer in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (key_compare(keyref_of(b->keys[mid], b->lens[mid]), k) <= 0)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Shares r's exact total among the buckets by its sample: floor of each
 * bucket's proportional share, then one more to the largest remainders
 * (lower bucket first on ties). counts[] is scratch, n entries. */
static void apportion(const key_reservoir *r, const bucket_keys *b, uint64_t *counts,
                      uint64_t *cells)
{
    memset(counts, 0, b->n * sizeof *counts);
    for (uint32_t i = 0; i < r->n; i++)
        counts[bucket_of(b, keyref_of(r->keys[i], r->lens[i]))]++;
    if (r->seen == r->n) { /* the sample is every key: exact */
        memcpy(cells, counts, b->n * sizeof *cells);
        return;
    }
    uint64_t given = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        cells[i] = r->seen * counts[i] / r->n; /* < 2^32 ops x 1024 */
        given += cells[i];
    }
    while (given < r->seen) { /* fewer than n rounds */
        uint32_t best = UINT32_MAX;
        uint64_t best_rem = 0;
        for (uint32_t i = 0; i < b->n; i++) {
            uint64_t rem = r->seen * counts[i] % r->n;
            if (rem > best_rem) {
                best_rem = rem;
                best = i;
            }
        }
        assert(best != UINT32_MAX);
        cells[best]++;
        counts[best] = 0; /* one extra at most: its remainder is now spent */
        given++;
    }
}

/* Bucket i's first key in shell form (bucket 0: the table's start). */
static char *format_start(const bucket_keys *b, uint32_t i)
{
    return key_format_alloc(i ? keyref_of(b->keys[i], b->lens[i]) : keyref_of("", 0));
}

int keyspace_finish(keyspace_sampler *ks, cluster *c, uint32_t nbuckets, uint32_t nwindows,
                    keyspace_heatmap *out)
{
    memset(out, 0, sizeof *out);
    out->sample = reservoir_cap(0);
    out->exact = 1;
    bucket_keys b;
    uint64_t *counts = NULL;
    if (cut_buckets(c, nbuckets, &b) < 0)
        goto fail;
    if (b.n == 0) { /* nothing stored: no buckets */
        bucket_keys_free(&b);
        return 0;
    }
    out->nbuckets = b.n;
    size_t cells = (size_t)nwindows * b.n;
    out->bucket_start = calloc(b.n, sizeof *out->bucket_start);
    out->writes = calloc(cells ? cells : 1, sizeof *out->writes);
    out->reads = calloc(cells ? cells : 1, sizeof *out->reads);
    counts = malloc(b.n * sizeof *counts);
    if (!out->bucket_start || !out->writes || !out->reads || !counts)
        goto fail;
    for (uint32_t i = 0; i < b.n; i++)
        if (!(out->bucket_start[i] = format_start(&b, i)))
            goto fail;
    for (uint32_t w = 0; w < nwindows && w < ks->nwindows; w++)
        for (int kind = 0; kind < 2; kind++) {
            const key_reservoir *r = &ks->windows[2 * (size_t)w + (size_t)kind];
            if (r->seen == 0)
                continue;
            if (r->seen > r->n)
                out->exact = 0;
            uint64_t *row = (kind == KEYSPACE_WRITES ? out->writes : out->reads) + (size_t)w * b.n;
            apportion(r, &b, counts, row);
            for (uint32_t i = 0; ks->weight > 1 && i < b.n; i++)
                row[i] *= ks->weight; /* each key seen stood for `weight` */
            out->exact &= ks->weight == 1;
        }
    free(counts);
    bucket_keys_free(&b);
    return 0;
fail:
    free(counts);
    bucket_keys_free(&b);
    keyspace_heatmap_free(out);
    return -1;
}

void keyspace_release(keyspace_sampler *ks)
{
    for (size_t i = 0; i < 2 * (size_t)ks->nwindows; i++) {
        key_reservoir *r = &ks->windows[i];
        for (uint32_t j = 0; r->keys && j < r->n; j++)
            free(r->keys[j]);
        free(r->keys);
        free(r->lens);
    }
    free(ks->windows);
    memset(ks, 0, sizeof *ks);
}

void keyspace_heatmap_free(keyspace_heatmap *h)
{
    for (uint32_t i = 0; h->bucket_start && i < h->nbuckets; i++)
        free(h->bucket_start[i]);
    free(h->bucket_start);
    free(h->writes);
    free(h->reads);
    memset(h, 0, sizeof *h);
}
