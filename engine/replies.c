/* replies.c -- the heaps of reply times (replies.h has the design). */
#include "engine/replies.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define REPLIES_KEEP 4096 /* an emptied bucket keeps an array up to this many slots */
#define REPLIES_HEAP_BELOW 256 /* replies waiting that move the buckets' back */

void replies_init(replies *r)
{
    memset(r, 0, sizeof *r);
}

void replies_release(replies *r)
{
    free(r->h);
    if (r->b)
        for (int i = 0; i <= 64; i++)
            free(r->b[i].v);
    free(r->b);
    replies_init(r);
}

/* ---- the 8-ary heap (its fast paths are inline in replies.h) ---- */

static int heap_push(replies *r, uint64_t t)
{
    if (r->hn == r->hcap) {
        size_t cap = r->hcap ? 2 * r->hcap : 64;
        uint64_t *h = realloc(r->h, cap * sizeof *h);
        if (!h)
            return -1;
        r->h = h;
        r->hcap = cap;
    }
    uint64_t *h = r->h;
    size_t i = r->hn++;
    while (i > 0 && h[(i - 1) / REPLIES_ARITY] > t) {
        h[i] = h[(i - 1) / REPLIES_ARITY];
        i = (i - 1) / REPLIES_ARITY;
    }
    h[i] = t;
    return 0;
}

/* ---- the radix heap ---- */

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

static int radix_push(replies *r, uint64_t t_us);

/* Moves the heap's replies to the buckets, around now (every reply held
 * and every one to come is later). 0, or -1 if out of memory (then the
 * replies moved so far go back: nothing is lost). */
static int to_radix(replies *r, uint64_t now)
{
    if (!r->b) {
        if (!(r->b = calloc(65, sizeof *r->b)))
            return -1;
        for (int i = 0; i <= 64; i++)
            r->b[i].min = UINT64_MAX;
    }
    r->last = now;
    r->radix = 1;
    r->n = 0;
    for (size_t i = 0; i < r->hn; i++)
        if (radix_push(r, r->h[i]) < 0) {
            for (int b = 0; b <= 64; b++)
                r->b[b].len = 0, r->b[b].min = UINT64_MAX;
            r->nonempty = 0;
            r->n_last = 0;
            r->radix = 0;
            return -1;
        }
    r->hn = 0;
    return 0;
}

int replies_push_slow(replies *r, uint64_t now, uint64_t t_us)
{
    if (!r->radix && r->hn >= REPLIES_RADIX_FROM && to_radix(r, now) < 0)
        return -1;
    return r->radix ? radix_push(r, t_us) : heap_push(r, t_us);
}

static int radix_push(replies *r, uint64_t t_us)
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

/* Moves the buckets' replies (few) back to the heap. If memory is short
 * they stay in the buckets, which serve as well. */
static void to_heap(replies *r)
{
    if (r->hcap < r->n) {
        uint64_t *h = realloc(r->h, REPLIES_HEAP_BELOW * sizeof *h);
        if (!h)
            return;
        r->h = h;
        r->hcap = REPLIES_HEAP_BELOW;
    }
    r->hn = 0;
    for (size_t k = 0; k < r->n_last; k++)
        heap_push(r, r->last); /* room made above: cannot fail */
    for (int i = 1; i <= 64; i++) {
        reply_bucket *b = &r->b[i];
        for (size_t k = 0; k < b->len; k++)
            heap_push(r, b->v[k]);
        b->len = 0;
        b->min = UINT64_MAX;
    }
    assert(r->hn == r->n);
    r->n = 0;
    r->n_last = 0;
    r->nonempty = 0;
    r->radix = 0;
}

size_t replies_take(replies *r, uint64_t now, uint64_t from)
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
    if (r->n <= REPLIES_HEAP_BELOW)
        to_heap(r); /* few wait: back to the heap */
    return counted;
}
