/* truth.c -- per-entity write lists, a global timestamp list and, when
 * asked for, per-metric timestamp lists.
 *
 * Writes arrive in time order, so every list is sorted by construction and
 * counting a time range is two searches. Reads mostly count up to now, so
 * the upper end is tried at the list's end first (one compare on a line
 * the last write touched). The lower end of a count over every write or a
 * metric's moves little from one read to the next (a dashboard's window
 * slides with time): the global and per-metric lists keep where the last
 * search ended and gallop from there (O(log distance) compares near lines
 * touched before, against O(log n) across the list). An entity's lists are
 * searched rarely (one entity's reads are far apart), by binary search.
 *
 * Entities' lists are written in batches. A write goes to the global and
 * metric lists (a few streams the cache follows) and to a pending array
 * in write order; every TRUTH_BATCH writes the pending ones are appended
 * to their entities' lists in one pass. Appending each write to its
 * entity's list at once touched a line of one of thousands of lists, one
 * the cache had mostly dropped since that entity's write before: a miss a
 * write, whose stores held up the writes' other work (a quarter of a run
 * with 10% reads went there). In one pass the misses overlap and each
 * line is fetched once for its entries. Until then an entity's pending
 * writes are a chain, newest first (its list's pend_head, each one's
 * prev), which the queries walk after its list: a few entries, as a batch
 * holds TRUTH_BATCH / entities of each.
 *
 * A write makes room in every list it goes to before it is noted in any,
 * so a failed truth_add leaves the lists as they were. */
#include "engine/truth.h"

#include "core/bigarray.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define TRUTH_BATCH 4096 /* pending writes appended to their lists at once */

void truth_init(truth *t)
{
    memset(t, 0, sizeof *t);
}

void truth_release(truth *t)
{
    for (size_t i = 0; i < t->nentities; i++)
        free(t->entities[i].items);
    free(t->entities);
    free(t->pend);
    bigarray_free(t->all_ts, t->all_cap * sizeof *t->all_ts, t->all_mapped);
    for (size_t i = 0; i < t->nmetrics; i++)
        bigarray_free(t->metrics[i].ts, t->metrics[i].cap * sizeof(uint64_t), t->metrics[i].mapped);
    free(t->metrics);
    truth_init(t);
}

void truth_track_metrics(truth *t)
{
    assert(t->nall == 0); /* the lists would miss the writes so far */
    t->track_metrics = 1;
}

/* Grows an array of elem-byte items to hold at least need; 0 or -1. */
static int grow(void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 4;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return -1;
        n *= 2;
    }
    void *p = realloc(*items, n * elem);
    if (!p)
        return -1;
    *items = p;
    *cap = n;
    return 0;
}

/* Grows a table of elem-byte slots indexed by id (*n slots, zeroed) so
 * that slot `id` exists; new slots are zeroed. 0 or -1. */
static int grow_table(void **slots, size_t *n, uint32_t id, size_t elem)
{
    if (id < *n)
        return 0;
    size_t cap = *n;
    void *p = *slots;
    if (grow(&p, &cap, (size_t)id + 1, elem) < 0)
        return -1;
    memset((char *)p + *n * elem, 0, (cap - *n) * elem);
    *slots = p;
    *n = cap;
    return 0;
}

/* Room for one more timestamp in a list, doubling it (a list of every
 * write, or of a metric's, grows to megabytes: past 1 MiB a mapping, grown
 * without copying). 0 or -1. */
static int grow_ts(truth_ts_list *l)
{
    if (l->len < l->cap)
        return 0;
    size_t cap = l->cap ? 2 * l->cap : 4;
    if (cap > SIZE_MAX / 2 / sizeof(uint64_t))
        return -1;
    void *ts = l->ts;
    if (bigarray_grow(&ts, l->cap * sizeof(uint64_t), cap * sizeof(uint64_t), &l->mapped) < 0)
        return -1;
    l->ts = ts;
    l->cap = cap;
    return 0;
}

/* Room in entity list l for `more` entries. 0 or -1. */
static int grow_list(truth_list *l, size_t more)
{
    size_t cap = l->cap;
    void *items = l->items;
    if (l->len > UINT32_MAX - more || grow(&items, &cap, (size_t)l->len + more,
                                            sizeof(truth_entry)) < 0)
        return -1;
    l->items = items;
    l->cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    return 0;
}

/* Appends the pending writes to their entities' lists, in write order.
 * 0, or -1 if out of memory (then nothing moved: lists may have more room). */
static int flush_pending(truth *t)
{
    for (size_t i = 0; i < t->npend; i++) { /* room first, once an entity */
        truth_list *l = &t->entities[t->pend[i].entity];
        if (l->pend_head == i && grow_list(l, l->pend_count) < 0)
            return -1;
    }
    for (size_t i = 0; i < t->npend; i++) {
        const truth_pending *p = &t->pend[i];
        truth_list *l = &t->entities[p->entity];
        l->items[l->len++] = (truth_entry){ p->ts_ms, p->seq };
        l->pend_count = 0;
    }
    t->npend = 0;
    return 0;
}

int truth_add(truth *t, uint32_t entity, uint32_t metric, uint64_t ts_ms, uint64_t seq)
{
    void *table = t->entities;
    if (grow_table(&table, &t->nentities, entity, sizeof(truth_list)) < 0)
        return -1;
    t->entities = table;
    truth_list *l = &t->entities[entity];
    if ((size_t)l->len + l->pend_count >= UINT32_MAX)
        return -1;
    if (!t->pend && !(t->pend = malloc(TRUTH_BATCH * sizeof *t->pend)))
        return -1;
    if (t->npend == TRUTH_BATCH && flush_pending(t) < 0)
        return -1;
    truth_ts_list all = { t->all_ts, t->nall, t->all_cap, 0, t->all_mapped };
    if (grow_ts(&all) < 0)
        return -1;
    t->all_ts = all.ts;
    t->all_cap = all.cap;
    t->all_mapped = all.mapped;
    truth_ts_list *m = NULL;
    if (t->track_metrics) {
        table = t->metrics;
        if (grow_table(&table, &t->nmetrics, metric, sizeof(truth_ts_list)) < 0)
            return -1;
        t->metrics = table;
        m = &t->metrics[metric];
        if (grow_ts(m) < 0)
            return -1;
    }
    /* every list has room: note the write in each */
    t->pend[t->npend] = (truth_pending){ ts_ms, seq, entity, l->pend_head };
    l->pend_head = (uint32_t)t->npend++;
    l->pend_count++;
    t->all_ts[t->nall++] = ts_ms;
    if (m)
        m->ts[m->len++] = ts_ms;
    return 0;
}

uint64_t truth_count(const truth *t, uint32_t entity)
{
    if (entity >= t->nentities)
        return 0;
    return (uint64_t)t->entities[entity].len + t->entities[entity].pend_count;
}

/* The entity's n-th newest write (1: its newest), n <= its writes: down
 * its pending chain, then in its list. */
static truth_entry nth_newest(const truth *t, const truth_list *l, uint64_t n)
{
    if (n > l->pend_count)
        return l->items[l->len - (n - l->pend_count)];
    uint32_t i = l->pend_head;
    for (uint64_t k = 1; k < n; k++)
        i = t->pend[i].prev;
    return (truth_entry){ t->pend[i].ts_ms, t->pend[i].seq };
}

int truth_last(const truth *t, uint32_t entity, truth_entry *last)
{
    if (truth_count(t, entity) == 0)
        return 0;
    *last = nth_newest(t, &t->entities[entity], 1);
    return 1;
}

int truth_nth(const truth *t, uint32_t entity, uint64_t i, truth_entry *e)
{
    uint64_t n = truth_count(t, entity);
    if (i >= n)
        return 0;
    *e = nth_newest(t, &t->entities[entity], n - i);
    return 1;
}

int truth_nth_newest(const truth *t, uint32_t entity, uint64_t n, uint64_t *ts_ms)
{
    if (n == 0 || n > truth_count(t, entity))
        return 0;
    *ts_ms = nth_newest(t, &t->entities[entity], n).ts_ms;
    return 1;
}

/* First index whose timestamp is >= ts (entity list). */
static size_t first_at_or_after(const truth_list *l, uint64_t ts)
{
    size_t lo = 0, hi = l->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->items[mid].ts_ms < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t first_ts_at_or_after(const uint64_t *a, size_t n, uint64_t ts)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* First index of a[0..n) whose timestamp is >= ts, galloping from *hint
 * (any value) outwards; *hint is left at the answer. */
static size_t first_ts_near(const uint64_t *a, size_t n, uint64_t ts, size_t *hint)
{
    if (n == 0) { /* an empty list may have no array at all (a NULL a) */
        *hint = 0;
        return 0;
    }
    size_t h = *hint < n ? *hint : n, lo, hi; /* the answer lies in [lo, hi] */
    if (h < n && a[h] < ts) { /* above h */
        lo = h + 1;
        size_t step = 1;
        while (lo + step - 1 < n && a[lo + step - 1] < ts) {
            lo += step;
            step *= 2;
        }
        hi = lo + step - 1 < n ? lo + step - 1 : n;
    } else { /* at or below h */
        hi = h;
        size_t step = 1;
        while (hi >= step && a[hi - step] >= ts) {
            hi -= step;
            step *= 2;
        }
        lo = hi >= step ? hi - step + 1 : 0;
    }
    size_t i = lo + first_ts_at_or_after(a + lo, hi - lo, ts);
    *hint = i;
    return i;
}

/* One past the last index of a[0..n) whose timestamp is <= to_ms: n when
 * the newest is (a count up to now), by one compare. */
static size_t end_ts_at(const uint64_t *a, size_t n, uint64_t to_ms)
{
    if (n == 0 || to_ms == UINT64_MAX || a[n - 1] <= to_ms)
        return n;
    return first_ts_at_or_after(a, n, to_ms + 1);
}

uint64_t truth_count_range(const truth *t, uint32_t entity, uint64_t from_ms, uint64_t to_ms)
{
    if (entity >= t->nentities || from_ms > to_ms)
        return 0;
    const truth_list *l = &t->entities[entity];
    uint64_t n = 0;
    uint32_t i = l->pend_head;
    for (uint32_t k = 0; k < l->pend_count; k++, i = t->pend[i].prev) { /* newest first */
        if (t->pend[i].ts_ms < from_ms)
            return n; /* and every older one */
        n += t->pend[i].ts_ms <= to_ms;
    }
    size_t end = to_ms == UINT64_MAX || l->len == 0 || l->items[l->len - 1].ts_ms <= to_ms
                     ? l->len : first_at_or_after(l, to_ms + 1);
    return n + end - first_at_or_after(l, from_ms);
}

uint64_t truth_count_latest(const truth *t, uint32_t entity, uint64_t n)
{
    uint64_t len = truth_count(t, entity);
    return len < n ? len : n;
}

uint64_t truth_count_window(truth *t, uint64_t from_ms, uint64_t to_ms)
{
    if (from_ms > to_ms)
        return 0;
    size_t end = end_ts_at(t->all_ts, t->nall, to_ms);
    return end - first_ts_near(t->all_ts, end, from_ms, &t->all_hint);
}

uint64_t truth_count_metric(truth *t, uint32_t metric, uint64_t from_ms, uint64_t to_ms)
{
    assert(t->track_metrics);
    if (metric >= t->nmetrics || from_ms > to_ms)
        return 0;
    truth_ts_list *m = &t->metrics[metric];
    size_t end = end_ts_at(m->ts, m->len, to_ms);
    return end - first_ts_near(m->ts, end, from_ms, &m->hint);
}
