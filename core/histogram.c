/* histogram.c -- bucket index arithmetic for the log-linear histogram.
 *
 * With S = sub_bits: the bucket of v < 2^S is v itself. Otherwise, with
 * e = floor(log2 v) >= S and m = v >> (e - S) (the top S+1 bits of v, in
 * [2^S, 2^(S+1))), the bucket is (e - S + 1) * 2^S + (m - 2^S): one group
 * of 2^S buckets per power of two, covering [m << (e-S), (m+1) << (e-S)).
 * That index and the recording are inline in histogram.h (every operation
 * records a latency or two).
 */
#include "core/histogram.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The largest value in bucket b. */
static uint64_t bucket_upper(const histogram *h, size_t b)
{
    unsigned s = h->sub_bits;
    if (b < ((size_t)1 << s))
        return b;
    unsigned shift = (unsigned)(b >> s) - 1;           /* e - S */
    uint64_t m = (b & (((size_t)1 << s) - 1)) + (1ull << s);
    uint64_t upper = (m + 1) << shift;
    return upper == 0 ? UINT64_MAX : upper - 1;        /* the top bucket ends at 2^64 - 1 */
}

int histogram_init(histogram *h, unsigned sub_bits)
{
    assert(sub_bits >= 1 && sub_bits <= 10);
    memset(h, 0, sizeof *h);
    h->sub_bits = sub_bits;
    h->nbuckets = (size_t)(64 - sub_bits + 1) << sub_bits;
    h->counts = calloc(h->nbuckets, sizeof *h->counts);
    return h->counts ? 0 : -1;
}

void histogram_release(histogram *h)
{
    free(h->counts);
    h->counts = NULL;
}

void histogram_clear(histogram *h)
{
    memset(h->counts, 0, h->nbuckets * sizeof *h->counts);
    h->count = h->max = 0;
    h->sum = 0;
}

uint64_t histogram_quantile(const histogram *h, double q)
{
    if (h->count == 0)
        return 0;
    /* The rank of the value wanted: ceil(q * count), at least 1. */
    double want = q * (double)h->count;
    uint64_t rank = (uint64_t)want;
    if ((double)rank < want)
        rank++;
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (size_t b = 0; b < h->nbuckets; b++) {
        seen += h->counts[b];
        if (seen >= rank) {
            uint64_t upper = bucket_upper(h, b);
            return upper < h->max ? upper : h->max;
        }
    }
    return h->max;
}

double histogram_mean(const histogram *h)
{
    return h->count ? h->sum / (double)h->count : 0.0;
}
