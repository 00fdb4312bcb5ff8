/* truth.h -- what the workload has written, for scoring reads.
 *
 * A key scheme decides which rows a read scans; what the read should
 * return is a property of the workload, not of the keys: the records of an
 * entity within a time range, its newest N, everything in a window, every
 * series of a metric within a time range. The truth index keeps, per
 * entity, the (timestamp, sequence number) of every write in time order,
 * plus every write's timestamp in one array, so those counts are binary
 * searches. It also gives a point read its target: an entity's most
 * recent record. It costs 24 bytes per write (16 in its entity's list, 8
 * in the global list) plus 24 per entity id up to the largest and 96 KiB
 * for the newest writes, and exists only in runs that read.
 *
 * Per-metric lists (every write's timestamp, by metric) serve the metric
 * read (QUERY_METRIC). Most runs never read by metric, so they are kept
 * only when asked for (truth_track_metrics): 8 more bytes per write plus
 * 24 per metric id up to the largest. Arrays grow by doubling, so while
 * growing a list may hold up to twice the bytes its entries need.
 */
#ifndef REGIONSIM_TRUTH_H
#define REGIONSIM_TRUTH_H

#include <stddef.h>
#include <stdint.h>

typedef struct truth_entry {
    uint64_t ts_ms, seq;
} truth_entry;

typedef struct truth_list {
    truth_entry *items;     /* the entity's writes before the pending ones */
    uint32_t len, cap;
    uint32_t pend_count;    /* its writes among the pending ... */
    uint32_t pend_head;     /* ... the newest of them (if pend_count) */
} truth_list;

/* A write not yet in its entity's list (truth.c's top comment). */
typedef struct truth_pending {
    uint64_t ts_ms, seq;
    uint32_t entity;
    uint32_t prev;          /* the entity's pending write before (if any) */
} truth_pending;

typedef struct truth_ts_list {
    uint64_t *ts;           /* timestamps, in write (= time) order */
    size_t len, cap;
    size_t hint;            /* where the last count's lower bound was */
    int mapped;             /* ts is a mapping (core/bigarray.h) */
} truth_ts_list;

typedef struct truth {
    truth_list *entities;   /* indexed by entity id */
    size_t nentities;
    uint64_t *all_ts;       /* every write's timestamp, in write (= time) order */
    size_t nall, all_cap;
    int all_mapped;         /* all_ts is a mapping (core/bigarray.h) */
    size_t all_hint;        /* where the last count's lower bound was in all_ts */
    truth_pending *pend;    /* the newest writes, in write order ... */
    size_t npend;           /* ... TRUTH_BATCH at most */
    int track_metrics;      /* keep `metrics` (truth_track_metrics) */
    truth_ts_list *metrics; /* indexed by metric id: its writes' timestamps */
    size_t nmetrics;
} truth;

void truth_init(truth *t);
void truth_release(truth *t);

/* Keeps per-metric lists from now on, for truth_count_metric. Call it
 * before the first truth_add (a list cannot know earlier writes). */
void truth_track_metrics(truth *t);

/* Notes a write of entity (a series of `metric`, for time series; any
 * value, e.g. 0, for other records) at ts_ms with sequence number seq.
 * Writes come in time order. Returns 0, or -1 if out of memory (then
 * nothing of the write is noted). */
int truth_add(truth *t, uint32_t entity, uint32_t metric, uint64_t ts_ms, uint64_t seq);

/* The entity's most recent write. Returns 1 and sets *last, or 0 if it has
 * written nothing. */
int truth_last(const truth *t, uint32_t entity, truth_entry *last);

/* The entity's i-th write (0 = its first). Returns 1 and sets *e, or 0 if
 * it has no such write. */
int truth_nth(const truth *t, uint32_t entity, uint64_t i, truth_entry *e);

/* Writes of entity so far. */
uint64_t truth_count(const truth *t, uint32_t entity);

/* The timestamp of the entity's n-th newest write (n >= 1). Returns 1 and
 * sets *ts_ms, or 0 if it has fewer than n writes. */
int truth_nth_newest(const truth *t, uint32_t entity, uint64_t n, uint64_t *ts_ms);

/* Writes of entity with from_ms <= ts <= to_ms. */
uint64_t truth_count_range(const truth *t, uint32_t entity, uint64_t from_ms, uint64_t to_ms);

/* min(n, writes of entity). */
uint64_t truth_count_latest(const truth *t, uint32_t entity, uint64_t n);

/* Writes of every entity with from_ms <= ts <= to_ms. Not const: it
 * keeps where it found from_ms, to look there first next time. */
uint64_t truth_count_window(truth *t, uint64_t from_ms, uint64_t to_ms);

/* Writes of every series of metric with from_ms <= ts <= to_ms (what a
 * QUERY_METRIC read returns). Needs truth_track_metrics. Not const, as
 * truth_count_window. */
uint64_t truth_count_metric(truth *t, uint32_t metric, uint64_t from_ms, uint64_t to_ms);

#endif
