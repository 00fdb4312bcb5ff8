/* store_sort.c -- sorting the exact store's pending entries.
 *
 * Pending entries are sorted before a merge into main and when a count
 * settles the tail (store_exact.c and store_count.c say when). One stable
 * counting-sort pass on the first byte where the prefixes differ; each
 * bucket not already in order is cut again the same way while it has more
 * than RADIX_MIN entries (by its keys' next 8 bytes once their prefixes
 * are all equal, up to RADIX_WORDS words), and a small one is merge
 * sorted (bottom-up, insertion-sorted runs of SORT_RUN). Interleaved
 * ascending streams come apart into ascending buckets, one per stream, in
 * a few O(n) passes, however many bytes they share (issue 28: streams that
 * shared a first byte or their first 8 bytes, as entity-first and
 * revdomain keys do, were merge sorted, 9% of `regionsim compare`'s time);
 * random keys are sorted in buckets that fit in cache. Recursion is
 * bounded: at most 8 cuts a word (each on a lower byte), RADIX_WORDS words:
 * 32 levels of about 4 KiB of stack at the most.
 */
#include "core/store_exact.h"

static void insertion_sort(const uint8_t *arena, pend *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        pend x = a[i];
        size_t j = i;
        for (; j > 0 && pend_compare(arena, &x, &a[j - 1]) < 0; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Stable merge of a[0..na) and b[0..nb) into out. */
static void merge_runs(const uint8_t *arena, const pend *a, size_t na,
                       const pend *b, size_t nb, pend *out)
{
    if (na && nb && pend_compare(arena, &a[na - 1], &b[0]) <= 0) {
        memcpy(out, a, na * sizeof *a);
        memcpy(out + na, b, nb * sizeof *b);
        return;
    }
    const pend *ae = a + na, *be = b + nb;
    while (a < ae && b < be)
        *out++ = pend_compare(arena, b, a) < 0 ? *b++ : *a++;
    memcpy(out, a, (size_t)(ae - a) * sizeof *a);
    out += ae - a;
    memcpy(out, b, (size_t)(be - b) * sizeof *b);
}

/* Bottom-up merge sort of a[0..n) with scratch[0..n); the result ends in
 * a. Runs already in order are copied, not merged. */
static void merge_sort(const uint8_t *arena, pend *a, pend *scratch, size_t n)
{
    pend *src = a, *dst = scratch;
    for (size_t i = 0; i < n; i += SORT_RUN)
        insertion_sort(arena, src + i, n - i < SORT_RUN ? n - i : SORT_RUN);
    for (size_t w = SORT_RUN; w < n; w *= 2) {
        for (size_t i = 0; i < n; i += 2 * w) {
            size_t na = n - i < w ? n - i : w;
            size_t nb = n - i - na < w ? n - i - na : w;
            merge_runs(arena, src + i, na, src + i + na, nb, dst + i);
        }
        pend *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

static int is_ascending(const uint8_t *arena, const pend *a, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (pend_compare(arena, &a[i - 1], &a[i]) >= 0)
            return 0;
    return 1;
}

/* The shift of the highest byte in which the prefixes of a[0..n) differ
 * (0 if they are all equal: then *same is set). */
static unsigned differing_shift(const pend *a, size_t n, int *same)
{
    uint64_t diff = 0;
    for (size_t i = 1; i < n; i++)
        diff |= a[i].prefix ^ a[0].prefix;
    unsigned shift = 0;
    while (shift < 56 && diff >> (shift + 8))
        shift += 8;
    *same = diff == 0;
    return shift;
}

/* One stable counting-sort pass of a[0..n) into out[0..n) on the prefix
 * byte at shift; count[b] .. count[b + 1] is then bucket b in out. */
static void radix_pass(const pend *a, size_t n, unsigned shift, pend *out, size_t *count)
{
    memset(count, 0, 257 * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[(a[i].prefix >> shift & 255) + 1]++;
    for (size_t b = 1; b <= 256; b++)
        count[b] += count[b - 1];
    size_t next[256];
    memcpy(next, count, sizeof next);
    for (size_t i = 0; i < n; i++)
        out[next[a[i].prefix >> shift & 255]++] = a[i];
}

/* The 8 key bytes of e from byte 8 * word on, big-endian, zero padded. */
static uint64_t key_word(const uint8_t *arena, const pend *e, size_t word)
{
    size_t at = 8 * word;
    return at < e->len ? key_prefix(arena + e->off + at, e->len - at) : 0;
}

static void sort_bucket(const uint8_t *arena, pend *a, pend *scratch, size_t n, size_t word);

/* Sorts bucket a[0..n) (scratch[0..n); the result in a), all of whose
 * keys agree before key word `word`: already ascending, it stays; small,
 * merge sorted; else cut again by the highest byte in which the prefixes
 * (key word `word`) still differ, and the pieces sorted alike. When the
 * prefixes are all equal, each entry's prefix is replaced by its key's
 * next 8 bytes for the pieces' sort and put back after: the keys agree
 * on every byte before them (zero padding included), so ordering by
 * those bytes first, then by pend_compare, is key order (a key that ends
 * before them reads as zeros and is a prefix of the others). Interleaved
 * ascending streams that share their first 8 bytes (a metric and a
 * host name) so come apart into one ascending piece per stream, in O(n)
 * a cut, where a merge sort took O(n log n) compares with the key bytes
 * past the prefix. */
static void sort_bucket(const uint8_t *arena, pend *a, pend *scratch, size_t n, size_t word)
{
    if (is_ascending(arena, a, n))
        return;
    if (n <= RADIX_MIN) {
        merge_sort(arena, a, scratch, n);
        return;
    }
    int same;
    unsigned shift = differing_shift(a, n, &same);
    if (same) {
        if (word + 1 >= RADIX_WORDS) {
            merge_sort(arena, a, scratch, n);
            return;
        }
        uint64_t prefix = a[0].prefix;
        for (size_t i = 0; i < n; i++)
            a[i].prefix = key_word(arena, &a[i], word + 1);
        differing_shift(a, n, &same);
        if (same) /* equal keys, or keys that differ further on */
            merge_sort(arena, a, scratch, n);
        else
            sort_bucket(arena, a, scratch, n, word + 1);
        for (size_t i = 0; i < n; i++)
            a[i].prefix = prefix;
        return;
    }
    size_t count[257];
    radix_pass(a, n, shift, scratch, count);
    for (size_t b = 0; b < 256; b++)
        if (count[b + 1] - count[b] > 1)
            sort_bucket(arena, scratch + count[b], a + count[b], count[b + 1] - count[b], word);
    memcpy(a, scratch, n * sizeof *a);
}

/* Sorts a[0..n) into out[0..n) and returns out; a is the scratch and
 * ends in no particular order. One stable counting-sort pass on the first
 * byte where the prefixes differ cuts the entries into up to 256 buckets,
 * then each bucket that is not already ascending is sorted by
 * sort_bucket (cut again while large, merge sorted when small).
 * Interleaved ascending streams (salted keys) come out of the first pass
 * sorted; random keys are sorted in buckets that fit in cache. A handful
 * of entries is insertion sorted. */
pend *exact_sort_entries(const uint8_t *arena, pend *a, size_t n, pend *out)
{
    if (n <= SORT_RUN) { /* a count settling the few puts since the last */
        memcpy(out, a, n * sizeof *a);
        merge_sort(arena, out, a, n); /* one insertion sort */
        return out;
    }
    int same;
    size_t count[257];
    radix_pass(a, n, differing_shift(a, n, &same), out, count);
    for (size_t b = 0; b < 256; b++)
        if (count[b + 1] - count[b] > 1)
            sort_bucket(arena, out + count[b], a + count[b], count[b + 1] - count[b], 0);
    return out;
}
