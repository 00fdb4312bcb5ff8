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
 * searched rarely (one entity's reads are far apart), by binary search. A
 * write makes room in every list it goes to before it is noted in any, so
 * a failed truth_add leaves the lists as they were. */
#include "sim/truth.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void truth_init(truth *t)
{
    memset(t, 0, sizeof *t);
}

void truth_release(truth *t)
{
    for (size_t i = 0; i < t->nentities; i++)
        free(t->entities[i].items);
    free(t->entities);
    free(t->all_ts);
    for (size_t i = 0; i < t->nmetrics; i++)
        free(t->metrics[i].ts);
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

/* Room for one more timestamp in a list. 0 or -1. */
static int grow_ts(truth_ts_list *l)
{
    void *ts = l->ts;
    if (grow(&ts, &l->cap, l->len + 1, sizeof(uint64_t)) < 0)
        return -1;
    l->ts = ts;
    return 0;
}

int truth_add(truth *t, uint32_t entity, uint32_t metric, uint64_t ts_ms, uint64_t seq)
{
    void *table = t->entities;
    if (grow_table(&table, &t->nentities, entity, sizeof(truth_list)) < 0)
        return -1;
    t->entities = table;
    truth_list *l = &t->entities[entity];
    size_t lcap = l->cap;
    void *items = l->items;
    if (l->len == UINT32_MAX || grow(&items, &lcap, (size_t)l->len + 1, sizeof(truth_entry)) < 0)
        return -1;
    l->items = items;
    l->cap = lcap > UINT32_MAX ? UINT32_MAX : (uint32_t)lcap;
    truth_ts_list all = { t->all_ts, t->nall, t->all_cap, 0 };
    if (grow_ts(&all) < 0)
        return -1;
    t->all_ts = all.ts;
    t->all_cap = all.cap;
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
    l->items[l->len++] = (truth_entry){ ts_ms, seq };
    t->all_ts[t->nall++] = ts_ms;
    if (m)
        m->ts[m->len++] = ts_ms;
    return 0;
}

int truth_last(const truth *t, uint32_t entity, truth_entry *last)
{
    if (entity >= t->nentities || t->entities[entity].len == 0)
        return 0;
    const truth_list *l = &t->entities[entity];
    *last = l->items[l->len - 1];
    return 1;
}

int truth_nth(const truth *t, uint32_t entity, uint64_t i, truth_entry *e)
{
    if (entity >= t->nentities || i >= t->entities[entity].len)
        return 0;
    *e = t->entities[entity].items[i];
    return 1;
}

uint64_t truth_count(const truth *t, uint32_t entity)
{
    return entity < t->nentities ? t->entities[entity].len : 0;
}

int truth_nth_newest(const truth *t, uint32_t entity, uint64_t n, uint64_t *ts_ms)
{
    if (entity >= t->nentities || n == 0 || n > t->entities[entity].len)
        return 0;
    const truth_list *l = &t->entities[entity];
    *ts_ms = l->items[l->len - n].ts_ms;
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
    size_t end = to_ms == UINT64_MAX || l->len == 0 || l->items[l->len - 1].ts_ms <= to_ms
                     ? l->len : first_at_or_after(l, to_ms + 1);
    return end - first_at_or_after(l, from_ms);
}

uint64_t truth_count_latest(const truth *t, uint32_t entity, uint64_t n)
{
    if (entity >= t->nentities)
        return 0;
    uint64_t len = t->entities[entity].len;
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
