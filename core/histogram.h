/* histogram.h -- a log-linear histogram of durations (HDR style).
 *
 * Values (microseconds, any uint64) fall into buckets whose width grows
 * with the value: values below 2^sub_bits are exact, and above that each
 * power of two is cut into 2^sub_bits equal buckets, so a bucket is at
 * most 1/2^sub_bits of its lower bound wide: every reported quantile is
 * within that relative error of the true value (HdrHistogram's bounded
 * relative error). sub_bits = 7 gives 0.8% in 59 KiB; sub_bits = 4 gives
 * 6.3% in 7.6 KiB, small enough for one per server on 10,000 servers.
 * Recording is O(1): a count of leading zeros and a shift.
 */
#ifndef REGIONSIM_HISTOGRAM_H
#define REGIONSIM_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

typedef struct histogram {
    unsigned sub_bits;
    size_t nbuckets;
    uint64_t *counts;
    uint64_t count;
    uint64_t max;
    double sum;           /* for the mean */
} histogram;

/* An empty histogram with 2^sub_bits buckets per power of two
 * (1 <= sub_bits <= 10). Returns 0, or -1 if out of memory. */
int histogram_init(histogram *h, unsigned sub_bits);
void histogram_release(histogram *h);

/* Forgets every value recorded (keeps the buckets). */
void histogram_clear(histogram *h);

/* The bucket of v (histogram.c's top comment). */
static inline size_t histogram_bucket(const histogram *h, uint64_t v)
{
    unsigned s = h->sub_bits;
    if (v < (1ull << s))
        return (size_t)v;
#if defined(__GNUC__)
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* floor(log2 v), v > 0 */
#else
    unsigned e = 0;
    for (uint64_t x = v; x >>= 1;)
        e++;
#endif
    uint64_t m = v >> (e - s);
    return ((size_t)(e - s + 1) << s) + (size_t)(m - (1ull << s));
}

/* Records one value. */
static inline void histogram_record(histogram *h, uint64_t v)
{
    h->counts[histogram_bucket(h, v)]++;
    h->count++;
    h->sum += (double)v;
    if (v > h->max)
        h->max = v;
}

/* Records value v n times (the weighted engine: one operation standing
 * for n, scenario/weighting.h). */
static inline void histogram_record_n(histogram *h, uint64_t v, uint64_t n)
{
    h->counts[histogram_bucket(h, v)] += n;
    h->count += n;
    h->sum += (double)v * (double)n;
    if (n && v > h->max)
        h->max = v;
}

/* The smallest bucket bound v such that at least a fraction q (0 < q <= 1)
 * of the values are <= v: the bucket's largest value, clamped to the
 * maximum seen. 0 when empty. */
uint64_t histogram_quantile(const histogram *h, double q);

/* Mean of the recorded values; 0 when empty. */
double histogram_mean(const histogram *h);

#endif
