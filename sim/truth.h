/* truth.h -- what the workload has written, for scoring reads.
 *
 * A key scheme decides which rows a read scans; what the read should
 * return is a property of the workload, not of the keys: the records of an
 * entity within a time range, its newest N, everything in a window. The
 * truth index keeps, per entity, the (timestamp, sequence number) of every
 * write in time order, plus every write's timestamp in one array, so those
 * counts are binary searches. It also gives a point read its target: an
 * entity's most recent record. It costs 16 bytes per write plus 8 per
 * entity, and exists only in runs that read.
 */
#ifndef REGIONSIM_TRUTH_H
#define REGIONSIM_TRUTH_H

#include <stddef.h>
#include <stdint.h>

typedef struct truth_entry {
    uint64_t ts_ms, seq;
} truth_entry;

typedef struct truth_list {
    truth_entry *items;
    uint32_t len, cap;
} truth_list;

typedef struct truth {
    truth_list *entities;   /* indexed by entity id */
    size_t nentities;
    uint64_t *all_ts;       /* every write's timestamp, in write (= time) order */
    size_t nall, all_cap;
} truth;

void truth_init(truth *t);
void truth_release(truth *t);

/* Notes a write of entity at ts_ms with sequence number seq. Writes come in
 * time order. Returns 0, or -1 if out of memory. */
int truth_add(truth *t, uint32_t entity, uint64_t ts_ms, uint64_t seq);

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

/* Writes of every entity with from_ms <= ts <= to_ms. */
uint64_t truth_count_window(const truth *t, uint64_t from_ms, uint64_t to_ms);

#endif
