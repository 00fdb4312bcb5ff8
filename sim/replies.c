/* replies.c -- the radix heap of reply times (replies.h has the design). */
#include "sim/replies.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define REPLIES_KEEP 4096 /* an emptied bucket keeps an array up to this many slots */

void replies_init(replies *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i <= 64; i++)
        r->b[i].min = UINT64_MAX;
}

void replies_release(replies *r)
{
    for (int i = 0; i <= 64; i++)
        free(r->b[i].v);
    replies_init(r);
}

/* The bucket of t around base (t > base): 1 + the highest differing bit. */
static int bucket_of(uint64_t t, uint64_t base)
{
    return 64 - __builtin_clzll(t ^ base);
}

static int bucket_add(reply_bucket *b, uint64_t t)
{
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        uint64_t *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return -1;
        b->v = v;
        b->cap = cap;
    }
    b->v[b->len++] = t;
    if (t < b->min)
        b->min = t;
    return 0;
}

int replies_push(replies *r, uint64_t t_us)
{
    assert(t_us >= r->last);
    if (t_us <= r->last) {
        r->n_last++;
    } else {
        int i = bucket_of(t_us, r->last);
        if (bucket_add(&r->b[i], t_us) < 0)
            return -1;
        r->nonempty |= 1ull << (i - 1);
    }
    r->n++;
    return 0;
}

/* Makes the minimum of bucket i (the smallest non-empty one) the new
 * `last` and moves the bucket's replies down around it. Returns 0, or -1
 * if out of memory (then the replies not yet moved stay in bucket i, whose
 * minimum is still among them, and nothing is lost). */
static int redistribute(replies *r, int i)
{
    reply_bucket *b = &r->b[i];
    uint64_t m = b->min;
    r->last = m;
    size_t k = 0;
    for (; k < b->len; k++) {
        uint64_t t = b->v[k];
        if (t == m) {
            r->n_last++;
            continue;
        }
        int j = bucket_of(t, m);
        assert(j < i);
        if (bucket_add(&r->b[j], t) < 0)
            break;
        r->nonempty |= 1ull << (j - 1);
    }
    if (k < b->len) { /* keep what is left; its minimum is m's or above */
        memmove(b->v, b->v + k, (b->len - k) * sizeof *b->v);
        b->len -= k;
        b->min = UINT64_MAX;
        for (size_t x = 0; x < b->len; x++)
            if (b->v[x] < b->min)
                b->min = b->v[x];
        return -1;
    }
    b->len = 0;
    b->min = UINT64_MAX;
    r->nonempty &= ~(1ull << (i - 1));
    if (b->cap > REPLIES_KEEP) {
        free(b->v);
        b->v = NULL;
        b->cap = 0;
    }
    return 0;
}

size_t replies_due(replies *r, uint64_t now, uint64_t from)
{
    size_t counted = 0;
    for (;;) {
        if (r->n_last && r->last <= now) {
            counted += r->last >= from ? r->n_last : 0;
            r->n -= r->n_last;
            r->n_last = 0;
        }
        if (!r->nonempty)
            break;
        int i = __builtin_ctzll(r->nonempty) + 1;
        if (r->b[i].min > now || redistribute(r, i) < 0)
            break;
    }
    return counted;
}
