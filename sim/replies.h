/* replies.h -- the reply times of the operations in flight, taken as time
 * passes (the engine's "done" count and what is unfinished at the end).
 *
 * A monotone priority queue: every reply pushed is later than the time of
 * the last replies_due (a reply comes at least a tick after its request),
 * so a radix heap serves: bucket i (1..64) holds the replies whose highest
 * bit differing from the last minimum taken is bit i - 1, and bucket 0,
 * the replies equal to it, is only a count. A push appends to one bucket;
 * taking what is due empties bucket 0 and, when the smallest non-empty
 * bucket's minimum (kept per bucket) is due, moves that bucket's replies
 * down into lower ones around its minimum. Each reply moves down at most
 * 64 times, in sequential passes over arrays: when reads overload the
 * servers millions of replies wait, and a binary heap's pops missed the
 * cache at every one of its 20-odd levels. Memory: 8 bytes a reply in
 * arrays that double, plus a bucket's slack (an emptied bucket of more
 * than REPLIES_KEEP slots frees its array).
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
    reply_bucket b[65]; /* b[0] unused: replies equal to `last` are n_last */
    uint64_t last;      /* the last minimum taken: every reply held is >= it */
    size_t n_last;      /* replies equal to last */
    uint64_t nonempty;  /* bit i - 1 set: bucket i holds replies */
    size_t n;           /* replies held */
} replies;

void replies_init(replies *r);
void replies_release(replies *r);

/* Adds a reply at t_us, which must be later than the `now` of every
 * replies_due so far. Returns 0, or -1 if out of memory (r unchanged). */
int replies_push(replies *r, uint64_t t_us);

/* Takes every reply at or before now. Returns how many of them were at or
 * after `from`. */
size_t replies_due(replies *r, uint64_t now, uint64_t from);

/* Replies held (not yet taken). */
static inline size_t replies_count(const replies *r)
{
    return r->n;
}

#endif
