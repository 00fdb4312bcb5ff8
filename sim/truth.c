/* truth.c -- per-entity write lists and a global timestamp list.
 *
 * Writes arrive in time order, so every list is sorted by construction and
 * counting a time range is two binary searches. */
#include "sim/truth.h"

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
    truth_init(t);
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

int truth_add(truth *t, uint32_t entity, uint64_t ts_ms, uint64_t seq)
{
    if (entity >= t->nentities) {
        size_t cap = t->nentities, want = (size_t)entity + 1;
        void *p = t->entities;
        if (grow(&p, &cap, want, sizeof(truth_list)) < 0)
            return -1;
        t->entities = p;
        memset(t->entities + t->nentities, 0, (cap - t->nentities) * sizeof(truth_list));
        t->nentities = cap;
    }
    truth_list *l = &t->entities[entity];
    size_t lcap = l->cap;
    void *items = l->items;
    if (l->len == UINT32_MAX || grow(&items, &lcap, (size_t)l->len + 1, sizeof(truth_entry)) < 0)
        return -1;
    l->items = items;
    l->cap = lcap > UINT32_MAX ? UINT32_MAX : (uint32_t)lcap;
    l->items[l->len++] = (truth_entry){ ts_ms, seq };
    void *all = t->all_ts;
    if (grow(&all, &t->all_cap, t->nall + 1, sizeof(uint64_t)) < 0)
        return -1;
    t->all_ts = all;
    t->all_ts[t->nall++] = ts_ms;
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

uint64_t truth_count_range(const truth *t, uint32_t entity, uint64_t from_ms, uint64_t to_ms)
{
    if (entity >= t->nentities || from_ms > to_ms)
        return 0;
    const truth_list *l = &t->entities[entity];
    size_t end = to_ms == UINT64_MAX ? l->len : first_at_or_after(l, to_ms + 1);
    return end - first_at_or_after(l, from_ms);
}

uint64_t truth_count_latest(const truth *t, uint32_t entity, uint64_t n)
{
    if (entity >= t->nentities)
        return 0;
    uint64_t len = t->entities[entity].len;
    return len < n ? len : n;
}

uint64_t truth_count_window(const truth *t, uint64_t from_ms, uint64_t to_ms)
{
    if (from_ms > to_ms)
        return 0;
    size_t end = to_ms == UINT64_MAX ? t->nall : first_ts_at_or_after(t->all_ts, t->nall, to_ms + 1);
    return end - first_ts_at_or_after(t->all_ts, t->nall, from_ms);
}
