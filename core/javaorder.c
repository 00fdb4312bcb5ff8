/* javaorder.c -- Java's String.hashCode, HashMap order, Collections.shuffle
 * and Guava's MinMaxPriorityQueue layout. See javaorder.h for the sources.
 *
 * The queue is a port of Guava's algorithm step by step (a min-max heap:
 * even levels are a min-heap, odd levels a max-heap, in one array), kept
 * close to Guava's names so the two can be read side by side. Guava's
 * MoveDesc bookkeeping serves only its iterator's remove(); nothing here
 * iterates while removing, so it is left out.
 */
#include "core/javaorder.h"

#include <assert.h>
#include <stdlib.h>

uint32_t java_string_hash(const char *s, size_t n)
{
    uint32_t h = 0;
    for (size_t i = 0; i < n; i++)
        h = 31u * h + (uint8_t)s[i];
    return h;
}

/* ---- HashMap ---------------------------------------------------------- */

typedef struct bin_entry {
    size_t bin, index;
} bin_entry;

static int bin_order(const void *a, const void *b)
{
    const bin_entry *x = a, *y = b;
    if (x->bin != y->bin)
        return x->bin < y->bin ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* HashMap.hash: the high half folded into the low one. */
static uint32_t spread(uint32_t h)
{
    return h ^ (h >> 16);
}

/* HashMap.resize: the table doubles; returns the bin counts of keys
 * 0..n-1 in it (count freed), NULL if out of memory. */
static size_t *regrow(size_t *count, size_t *cap, const uint32_t *hash, size_t n)
{
    free(count);
    *cap *= 2;
    count = calloc(*cap, sizeof *count);
    for (size_t j = 0; count && j < n; j++)
        count[spread(hash[j]) & (*cap - 1)]++;
    return count;
}

/* The table size after adding keys 0..n-1 in order (HashMap.putVal or
 * HashMap.compute): DEFAULT_INITIAL_CAPACITY 16, DEFAULT_LOAD_FACTOR 0.75.
 * putVal doubles the table after a put that takes the size over 3/4 of
 * it; compute doubles it before a put when the size already is over 3/4.
 * A key joining a bin that already holds 8 keys (putVal) or 7 keys
 * (compute) calls treeifyBin, which doubles a table smaller than
 * MIN_TREEIFY_CAPACITY (64) instead of making the bin a tree. Returns 0 if
 * out of memory. */
static size_t hashmap_capacity(const uint32_t *hash, size_t n, int compute)
{
    size_t cap = 16;
    size_t *count = calloc(cap, sizeof *count);
    for (size_t i = 0; count && i < n; i++) {
        if (compute && i > cap / 4 * 3)
            count = regrow(count, &cap, hash, i); /* size > threshold: resize() */
        if (!count)
            break;
        size_t bin = spread(hash[i]) & (cap - 1);
        if (count[bin]++ >= (compute ? 7u : 8u) && cap < 64)
            count = regrow(count, &cap, hash, i + 1); /* treeifyBin: resize() */
        if (count && !compute && i + 1 > cap / 4 * 3)
            count = regrow(count, &cap, hash, i + 1); /* ++size > threshold: resize() */
    }
    int ok = count != NULL;
    free(count);
    return ok ? cap : 0;
}

/* Keys by bin, and within a bin in insertion order (put appends to the
 * bin) or its reverse (compute puts a new key at the bin's head); a
 * resize splits a bin keeping its keys' relative order. */
static int hashmap_order(const uint32_t *hash, size_t n, size_t *order, int compute)
{
    size_t cap = hashmap_capacity(hash, n, compute);
    bin_entry *e = malloc((n ? n : 1) * sizeof *e);
    if (!cap || !e) {
        free(e);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        e[i] = (bin_entry){ spread(hash[i]) & (cap - 1), compute ? n - 1 - i : i };
    qsort(e, n, sizeof *e, bin_order);
    for (size_t i = 0; i < n; i++)
        order[i] = compute ? n - 1 - e[i].index : e[i].index;
    free(e);
    return 0;
}

int java_hashmap_order(const uint32_t *hash, size_t n, size_t *order)
{
    return hashmap_order(hash, n, order, 0);
}

int java_hashmap_compute_order(const uint32_t *hash, size_t n, size_t *order)
{
    return hashmap_order(hash, n, order, 1);
}

void java_shuffle(size_t *items, size_t n, java_below_fn below, void *ctx)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = below(ctx, (uint32_t)i);
        assert(j < i);
        size_t t = items[i - 1];
        items[i - 1] = items[j];
        items[j] = t;
    }
}

/* ---- Guava's MinMaxPriorityQueue -------------------------------------- */

typedef enum heap { MIN_HEAP, MAX_HEAP } heap;

static heap other(heap h)
{
    return h == MIN_HEAP ? MAX_HEAP : MIN_HEAP;
}

/* Heap.ordering.compare: the max-heap's ordering is the reverse. */
static int ord(const mmpq *q, heap h, size_t x, size_t y)
{
    return h == MIN_HEAP ? q->cmp(q->ctx, x, y) : q->cmp(q->ctx, y, x);
}

/* MinMaxPriorityQueue.isEvenLevel: index + 1 has its highest set bit at an
 * even position. */
static heap heap_for_index(size_t i)
{
    uint32_t one_based = (uint32_t)(i + 1);
    return (one_based & 0x55555555u) > (one_based & 0xaaaaaaaau) ? MIN_HEAP : MAX_HEAP;
}

static size_t parent_of(size_t i) { return (i - 1) / 2; }
static size_t left_of(size_t i) { return 2 * i + 1; }
static size_t right_of(size_t i) { return 2 * i + 2; }
static size_t grandparent_of(size_t i) { return parent_of(parent_of(i)); }

#define NONE SIZE_MAX

/* Heap.bubbleUpAlternatingLevels: up this heap's levels; returns where x
 * came to rest. */
static size_t bubble_up_alternating(mmpq *q, heap h, size_t index, size_t x)
{
    while (index > 2) {
        size_t gp = grandparent_of(index);
        size_t e = q->item[gp];
        if (ord(q, h, e, x) <= 0)
            break;
        q->item[index] = e;
        index = gp;
    }
    q->item[index] = x;
    return index;
}

/* Heap.findMin: the least of items index .. index + len - 1 that exist,
 * NONE if index >= size. */
static size_t find_min(const mmpq *q, heap h, size_t index, size_t len)
{
    if (index >= q->size)
        return NONE;
    size_t limit = (index < q->size - len ? index : q->size - len) + len;
    if (q->size < len) /* Java's size - len is negative: min() takes it */
        limit = q->size;
    size_t min = index;
    for (size_t i = index + 1; i < limit; i++)
        if (ord(q, h, q->item[i], q->item[min]) < 0)
            min = i;
    return min;
}

static size_t find_min_child(const mmpq *q, heap h, size_t index)
{
    return find_min(q, h, left_of(index), 2);
}

static size_t find_min_grandchild(const mmpq *q, heap h, size_t index)
{
    return find_min(q, h, left_of(left_of(index)), 4);
}

/* Heap.crossOverUp: one level up into the other heap if x belongs there
 * (with Guava's childless-uncle guard); returns x's new index. */
static size_t cross_over_up(mmpq *q, heap h, size_t index, size_t x)
{
    if (index == 0) {
        q->item[0] = x;
        return 0;
    }
    size_t parent = parent_of(index);
    size_t pe = q->item[parent];
    if (parent != 0) {
        size_t uncle = right_of(parent_of(parent));
        if (uncle != parent && left_of(uncle) >= q->size) {
            size_t ue = q->item[uncle];
            if (ord(q, h, ue, pe) < 0) {
                parent = uncle;
                pe = ue;
            }
        }
    }
    if (ord(q, h, pe, x) < 0) {
        q->item[index] = pe;
        q->item[parent] = x;
        return parent;
    }
    q->item[index] = x;
    return index;
}

/* Heap.bubbleUp. */
static void bubble_up(mmpq *q, heap h, size_t index, size_t x)
{
    size_t cross = cross_over_up(q, h, index, x);
    if (cross == index)
        bubble_up_alternating(q, h, index, x);
    else
        bubble_up_alternating(q, other(h), cross, x);
}

/* Heap.getCorrectLastElement: swaps the last element with a smaller
 * childless uncle; returns where the last element now is. */
static size_t correct_last_element(mmpq *q, heap h, size_t actual_last)
{
    size_t parent = parent_of(q->size);
    if (parent != 0) {
        size_t uncle = right_of(parent_of(parent));
        if (uncle != parent && left_of(uncle) >= q->size) {
            size_t ue = q->item[uncle];
            if (ord(q, h, ue, actual_last) < 0) {
                q->item[uncle] = actual_last;
                q->item[q->size] = ue;
                return uncle;
            }
        }
    }
    return q->size;
}

/* Heap.crossOver: one level down (or up if childless) into the other heap. */
static size_t cross_over(mmpq *q, heap h, size_t index, size_t x)
{
    size_t min_child = find_min_child(q, h, index);
    if (min_child != NONE && min_child > 0 && ord(q, h, q->item[min_child], x) < 0) {
        q->item[index] = q->item[min_child];
        q->item[min_child] = x;
        return min_child;
    }
    return cross_over_up(q, h, index, x);
}

/* Heap.fillHoleAt: the least grandchild moves up into the hole, repeatedly;
 * returns the final hole. */
static size_t fill_hole_at(mmpq *q, heap h, size_t index)
{
    size_t g;
    while ((g = find_min_grandchild(q, h, index)) != NONE && g > 0) {
        q->item[index] = q->item[g];
        index = g;
    }
    return index;
}

/* MinMaxPriorityQueue.fillHole with Heap.tryCrossOverAndBubbleUp. */
static void fill_hole(mmpq *q, size_t index, size_t to_trickle)
{
    heap h = heap_for_index(index);
    size_t vacated = fill_hole_at(q, h, index);
    if (bubble_up_alternating(q, h, vacated, to_trickle) != vacated)
        return;
    size_t cross = cross_over(q, h, vacated, to_trickle);
    if (cross != vacated)
        bubble_up_alternating(q, other(h), cross, to_trickle);
}

void mmpq_init(mmpq *q, mmpq_cmp_fn cmp, void *ctx)
{
    *q = (mmpq){ NULL, 0, 0, cmp, ctx };
}

void mmpq_release(mmpq *q)
{
    free(q->item);
    mmpq_init(q, q->cmp, q->ctx);
}

int mmpq_add(mmpq *q, size_t x)
{
    if (q->size == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        size_t *item = realloc(q->item, cap * sizeof *item);
        if (!item)
            return -1;
        q->item = item;
        q->cap = cap;
    }
    size_t at = q->size++;
    bubble_up(q, heap_for_index(at), at, x);
    return 0;
}

size_t mmpq_remove_at(mmpq *q, size_t index)
{
    assert(index < q->size);
    size_t removed = q->item[index];
    q->size--;
    if (q->size == index)
        return removed;
    size_t actual_last = q->item[q->size];
    if (correct_last_element(q, heap_for_index(q->size), actual_last) == index)
        return removed; /* the removed element was the childless uncle: it went last */
    size_t to_trickle = q->item[q->size];
    fill_hole(q, index, to_trickle);
    return removed;
}

size_t mmpq_poll(mmpq *q)
{
    assert(q->size > 0);
    return mmpq_remove_at(q, 0);
}

size_t mmpq_peek(const mmpq *q)
{
    assert(q->size > 0);
    return q->item[0];
}
