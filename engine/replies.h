/* replies.h -- the reply times of the operations in flight, taken as time
 * passes (the engine's "done" count and what is unfinished at the end).
 *
 * A few replies wait at a time while the servers keep up: an 8-ary heap
 * of them (children of i at 8i + 1 .. 8i + 8) costs a few instructions an
 * operation. Past 4,096 waiting (reads that overload the servers leave
 * millions) they move to a radix heap, and back to the heap once 256 or
 * fewer are left (replies.c). Every reply pushed is later than the time
 * of the last replies_due (a reply comes at least a tick after its
 * request), so a radix heap serves: bucket i (1..64) holds the replies
 * whose highest
 * bit differing from the last minimum taken is bit i - 1, and bucket 0,
 * the replies equal to it, is only a count. A push appends to one bucket;
 * taking what is due empties bucket 0 and, when the smallest non-empty
 * bucket's minimum (kept per bucket) is due, moves that bucket's replies
 * down into lower ones around its minimum. Each reply moves down at most
 * 64 times, in sequential passes over arrays: when reads overload the
 * servers millions of replies wait, and a binary heap's pops missed the
 * cache at every one of its 20-odd levels. Memory: 8 bytes a reply in
 * arrays that double, plus a bucket's slack (an emptied bucket of more
 * than 4,096 slots frees its array).
 */
#ifndef REGIONSIM_REPLIES_H
#define REGIONSIM_REPLIES_H

#include <stddef.h>
#include <stdint.h>

typedef struct reply_bucket {
    uint64_t *v;
    size_t len, cap;
    uint64_t min; /* of v[0..len) (UINT64_MAX when empty) */
} reply_bucket;

typedef struct replies {
    uint64_t *h;        /* the 8-ary heap (while not radix) */
    size_t hn, hcap;
    int radix;          /* the replies are in the radix heap below */
    reply_bucket *b;    /* 65 buckets, allocated when first radix; b[0]
                           unused: replies equal to `last` are n_last */
    uint64_t last;      /* the last minimum taken: every reply held is >= it */
    size_t n_last;      /* replies equal to last */
    uint64_t nonempty;  /* bit i - 1 set: bucket i holds replies */
    size_t n;           /* replies held in the radix heap */
} replies;

void replies_init(replies *r);
void replies_release(replies *r);

#define REPLIES_ARITY 8
#define REPLIES_RADIX_FROM 4096 /* replies waiting that move them to buckets */

/* replies_push and replies_due when the buckets are in use or the heap
 * must grow (replies.c). */
int replies_push_slow(replies *r, uint64_t now, uint64_t t_us);
size_t replies_take(replies *r, uint64_t now, uint64_t from);

/* Adds a reply at t_us, sent at `now`: every reply held is later than
 * now (replies_due(r, now, ...) came first), and every reply pushed from
 * now on will be too. Returns 0, or -1 if out of memory (r unchanged).
 * Inline, as replies_due: the engine calls both on every operation. */
static inline int replies_push(replies *r, uint64_t now, uint64_t t_us)
{
    if (r->radix || r->hn == r->hcap || r->hn >= REPLIES_RADIX_FROM)
        return replies_push_slow(r, now, t_us);
    uint64_t *h = r->h;
    size_t i = r->hn++;
    while (i > 0 && h[(i - 1) / REPLIES_ARITY] > t_us) {
        h[i] = h[(i - 1) / REPLIES_ARITY];
        i = (i - 1) / REPLIES_ARITY;
    }
    h[i] = t_us;
    return 0;
}

/* Takes every reply at or before now. Returns how many of them were at or
 * after `from`. */
static inline size_t replies_due(replies *r, uint64_t now, uint64_t from)
{
    if (r->radix)
        return replies_take(r, now, from);
    uint64_t *h = r->h;
    size_t counted = 0;
    while (r->hn && h[0] <= now) {
        counted += h[0] >= from;
        uint64_t last = h[--r->hn];
        size_t i = 0, n = r->hn;
        for (;;) {
            size_t first = REPLIES_ARITY * i + 1;
            if (first >= n)
                break;
            size_t end = first + REPLIES_ARITY < n ? first + REPLIES_ARITY : n, c = first;
            for (size_t k = first + 1; k < end; k++)
                if (h[k] < h[c])
                    c = k;
            if (h[c] >= last)
                break;
            h[i] = h[c];
            i = c;
        }
        if (n)
            h[i] = last;
    }
    return counted;
}

/* Replies held (not yet taken). */
static inline size_t replies_count(const replies *r)
{
    return r->radix ? r->n : r->hn;
}

#endif
