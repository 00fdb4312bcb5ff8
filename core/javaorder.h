/* javaorder.h -- the orders HBase's decisions inherit from Java's library.
 *
 * Which region HBase's SimpleLoadBalancer moves, and where, depends on
 * more than its own code: on the order a java.util.HashMap iterates its
 * keys, on Collections.shuffle, and on the array layout of Guava's
 * MinMaxPriorityQueue, which the balancer iterates as it stands. To give
 * the same answer for the same cluster, regionsim follows those orders
 * exactly; this file is them, as small pure functions over indices, with
 * no knowledge of regions or servers.
 *
 * Sources (facts only; the code is this file's own): OpenJDK 17
 * java/lang/String.java (hashCode), java/util/HashMap.java (hash, the
 * table size rules of putVal and compute, where each puts a new key in
 * its bin, treeifyBin's resize of small tables, resize keeping the
 * relative order of a bin's entries),
 * java/util/Collections.java (shuffle for RandomAccess lists); Guava 31
 * com/google/common/collect/MinMaxPriorityQueue.java (offer, removeAt with
 * its early return when the removed element is the childless uncle that
 * swapWithConceptuallyLastElement sent to the end, fillHole, the Heap
 * helpers). tests/test_javaorder.c checks them against values the JDK
 * and Guava computed (tests/data/hbase_simple_balancer.md says how).
 */
#ifndef REGIONSIM_JAVAORDER_H
#define REGIONSIM_JAVAORDER_H

#include <stddef.h>
#include <stdint.h>

/* String.hashCode of an ASCII string: s[0]*31^(n-1) + ... + s[n-1] in
 * 32-bit two's complement arithmetic (returned as its bit pattern). */
uint32_t java_string_hash(const char *s, size_t n);

/* The order in which a java.util.HashMap created with `new HashMap<>()`
 * iterates n distinct keys put into it in the order 0..n-1, given each
 * key's hashCode: keys by bin ((h ^ h >>> 16) & (capacity - 1)), and
 * within a bin in insertion order. The capacity is the table's after the
 * puts: 16, doubled by a put that takes the size over 3/4 of it, and
 * doubled by a put that appends a ninth key to a bin while the table is
 * smaller than 64 (treeifyBin resizes instead). Writes the key indices
 * into order[0..n). Exact unless a ninth key joins a bin of a table of 64
 * or more, where HashMap turns the bin into a tree (not modelled).
 * Returns 0, or -1 if out of memory (order untouched). */
int java_hashmap_order(const uint32_t *hash, size_t n, size_t *order);

/* The same for keys added with HashMap.compute (or computeIfAbsent), which
 * puts a new key at the head of its bin: within a bin the keys iterate
 * newest first. compute also grows the table before a put that finds the
 * size already over 3/4 of it (put: after the put that takes it over),
 * and a key joining a bin of 7 (put: 8) in a table smaller than 64
 * doubles it. Exact unless a bin of a table of 64 or more reaches 8 keys
 * (a tree, not modelled). Returns 0, or -1 if out of memory. */
int java_hashmap_compute_order(const uint32_t *hash, size_t n, size_t *order);

/* A uniform int in [0, n), n >= 1, as java.util.Random.nextInt(n) gives. */
typedef uint32_t (*java_below_fn)(void *ctx, uint32_t n);

/* Collections.shuffle(list, rnd) for a RandomAccess list of n items: for
 * i = n down to 2, swap items i-1 and below(ctx, i). */
void java_shuffle(size_t *items, size_t n, java_below_fn below, void *ctx);

/* Guava's MinMaxPriorityQueue of size_t items (unbounded), ordered by
 * cmp (< 0, 0, > 0 as Comparator.compare). Its array holds the items in
 * the layout Guava's gives them; iterating a MinMaxPriorityQueue visits
 * that array in index order. */
typedef int (*mmpq_cmp_fn)(void *ctx, size_t a, size_t b);

typedef struct mmpq {
    size_t *item;
    size_t size, cap;
    mmpq_cmp_fn cmp;
    void *ctx;
} mmpq;

/* An empty queue ordered by cmp(ctx, a, b). */
void mmpq_init(mmpq *q, mmpq_cmp_fn cmp, void *ctx);
void mmpq_release(mmpq *q);

/* offer(x). Returns 0, or -1 if out of memory (q unchanged). */
int mmpq_add(mmpq *q, size_t x);

/* removeAt(index) (index < size): the element there leaves; the others
 * keep Guava's layout. Returns the removed element. */
size_t mmpq_remove_at(mmpq *q, size_t index);

/* remove() / poll(): the least element (requires size > 0). */
size_t mmpq_poll(mmpq *q);

/* The least element without removing it (requires size > 0). */
size_t mmpq_peek(const mmpq *q);

#endif
