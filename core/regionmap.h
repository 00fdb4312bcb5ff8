/* regionmap.h -- all regions of a table in key order: the sim's hbase:meta.
 *
 * Regions tile the key space with no gaps or overlaps: region i covers
 * [start_i, end_i) with end_i == start_(i+1); the first start and the last
 * end are empty, meaning unbounded. Splitting region i at key k replaces it
 * by [start_i, k) and [k, end_i), moving the stored rows >= k to the new
 * one.
 *
 * An index is a region's position in key order: a split of region i shifts
 * the indices after i by one. Regions are kept by value and a split may
 * move any of them, so a region pointer or index is valid only until the
 * next split.
 *
 * Costs for R regions (regionmap.c explains the chunked layout): routing a
 * key O(log R); region i O(log(R/512)); a split O(512 + R/512), next to
 * nothing when the last region splits.
 */
#ifndef REGIONSIM_REGIONMAP_H
#define REGIONSIM_REGIONMAP_H

#include <stddef.h>
#include <stdint.h>

#include "core/key.h"
#include "core/store.h"

/* BusyRegionSplitPolicy's state for one region, kept by the caller (the
 * region struct has no room for it). Start it when the region comes online
 * (created, split, or opened after a move: HBase configures a new policy
 * instance each time) with split_busy_start.
 *
 * What the caller counts (cumulative, per region): writes = write requests
 * (HRegion.getWriteRequestsCount); blocked = write requests HBase would
 * have blocked (HRegion.getBlockedRequestsCount counts writes refused with
 * RegionTooBusyException while the memstore is above its blocking size).
 * The simulator has no memstore, so the engine should count a write as
 * blocked when it found the region offline (splitting or moving) or waited
 * in the server queue longer than a threshold it documents.
 *
 * When to call split_busy_due: where HBase evaluates the policy; calling it
 * on each write is O(1) and fine (HBase calls it after flushes). */
typedef struct split_busy_stats {
    uint64_t start_us;     /* when the region came online (HBase's startTime) */
    uint64_t prev_us;      /* start of the current window (prevTime) */
    uint64_t writes_mark;  /* counters at prev_us */
    uint64_t blocked_mark;
    double blocked_rate;   /* the last completed window's ratio */
} split_busy_stats;

typedef struct region {
    /* The write path's fields (cluster_write), in the first of the
     * struct's three cache lines: a random write over a million regions
     * misses on its region, and this way on one line, not three. The
     * struct is 64-byte aligned (regions live in regionmap.c's chunks,
     * allocated aligned) and 192 bytes, so that line is always whole. */
    _Alignas(64) store *rows;   /* the region's row store (exact or sampled) */
    uint32_t server;            /* index of the hosting server */
    uint32_t loads;             /* its record in the stochastic balancer's loads, + 1
                                 * (0: none yet; core/balancer_loads.c) */
    uint64_t writes;            /* cells written to this region (not its parent) */
    uint64_t memstore_bytes;    /* cell bytes written since its last flush */
    uint64_t offline_until_us;  /* splitting or moving: requests wait until then */
    uint64_t refs_until_us;     /* a split's daughter: its reference files count until its
                                 * server's compacted-file discharger runs (0: none) */
    uint64_t next_split_check;  /* store bytes at which the split policy looks again;
                                   * top bit: SPLIT_CHECK_UNLESS_ALONE (core/split.h) */
    uint64_t blocked;           /* writes that found it offline or waited long */
    /* The rest: routing reads the keys only when a hint or prefix asks. */
    uint8_t *start, *end;       /* owned bytes; NULL when empty (unbounded) */
    uint32_t start_len, end_len;
    uint64_t id;                /* HBase's regionId: the ms it was created (see regionmap_split) */
    uint64_t opened_us;         /* when it was created (0 for the table's first regions) */
    uint64_t reads;             /* read RPCs this region served */
    uint64_t read_rows;         /* rows its read RPCs read: HRegion's readRequestsCount
                                 * (one per row a Scan returns, one per Get that finds) */
    split_busy_stats busy;      /* BusyRegionSplitPolicy's window over them */
    /* What the stochastic balancer's last look at its loads saw (core/balancer_loads.c:
     * a region seen unchanged costs that look no trip to its record) */
    uint64_t seen_writes, seen_read_rows, seen_memstore;
    uint32_t seen_server_id;    /* UINT32_MAX: never seen, or split since */
    uint32_t seen_look;         /* the look that saw it so (balancer_loads.c) */
} region;

typedef struct regionmap regionmap;

/* A table of one region (-inf, +inf) on server 0, or, when nsplits > 0,
 * nsplits + 1 regions cut at the given keys. Every region gets regionId 0:
 * HBase gives the regions of a new table one id, the time it was created
 * (ModifyRegionUtils.createRegionInfos), and the simulated clock starts at 0. The keys must be non-empty and
 * strictly ascending. Returns NULL and sets *bad to the index of the first
 * offending key (or nsplits when out of memory). */
regionmap *regionmap_new(const keyref *splits, size_t nsplits, size_t *bad);

/* Makes every region's store, and every store a split makes from now on,
 * of kind c (regionmap_new makes exact ones). Only before any put: returns
 * -1 if a region holds cells, or if out of memory (then the map is as it
 * was). 0 on success. */
int regionmap_set_store(regionmap *m, const store_config *c);

void regionmap_free(regionmap *m);

size_t regionmap_count(const regionmap *m);

/* Region i (< count). Valid until the next regionmap_split. */
region *regionmap_at(regionmap *m, size_t i);
const region *regionmap_get(const regionmap *m, size_t i);

/* Region i (< count) and, in *n, how many regions from i on lie in order
 * right after it in memory (region i + k is the result + k for k < *n):
 * for loops over every region without a lookup each. Valid until the
 * next regionmap_split. */
region *regionmap_span(regionmap *m, size_t i, size_t *n);

/* Region boundaries as keyrefs (empty = unbounded). */
keyref region_start(const region *r);
keyref region_end(const region *r);

/* Whether k lies in [start, end) of r. */
int region_contains(const region *r, keyref k);

/* The index of the region holding k. */
size_t regionmap_route(const regionmap *m, keyref k);

/* The region holding k, its index in *i: regionmap_route and regionmap_at
 * in one search, which tries the region it last found for k's first byte
 * (checked, so always the right answer) before searching: the write
 * path's lookup. Valid until the next regionmap_split. */
region *regionmap_find(regionmap *m, keyref k, size_t *i);

/* Routing a key ahead of its write, in steps, so that the cache misses of
 * several routes overlap: a caller that knows its next writes' keys (the
 * engine fetches operations ahead) starts a cursor for each with
 * regionmap_ahead_start, then calls regionmap_ahead_step on each once per
 * write it does in between. Each step reads only what the step before
 * prefetched, and prefetches the next line of the route: the chunk's top
 * line, then the one line of its heads that names, then the one line of
 * its prefixes that names, then the region's first line (regionmap.c's
 * layout). The step after that returns the
 * region, its first line then likely in cache (NULL before). A cursor is a
 * hint and nothing more: any split since its last step makes the next
 * step start over, and regionmap_find routes the key in full whatever the
 * cursor says, so prefetching ahead changes no result. The region
 * returned is valid until the next split, as regionmap_find's. */
typedef struct regionmap_ahead {
    uint64_t kp;          /* the key's first 8 bytes (regionmap.c's prefix) */
    size_t count;         /* the map's region count at the last step: a split changes it */
    size_t c, j;          /* the route so far: chunk, then slot */
    unsigned steps;       /* steps done: 0 none, 1 chunk, 2 head line, 3 prefix line, 4 slot */
} regionmap_ahead;

void regionmap_ahead_start(regionmap_ahead *a, keyref k);
region *regionmap_ahead_step(regionmap *m, keyref k, regionmap_ahead *a);

/* regionmap_find of k with a's help: a cursor for k that has found its
 * slot with no split since (the count unchanged) holds the one region
 * holding k, taken without a search; any other cursor, regionmap_find.
 * The same answer either way. */
region *regionmap_find_ahead(regionmap *m, keyref k, const regionmap_ahead *a, size_t *i);

/* The regions a scan of [lo, hi) touches, as the inclusive index range
 * *first..*last. An empty hi means unbounded above. Requires lo < hi when hi
 * is not empty; an empty range [lo, lo) still reports the region of lo. */
void regionmap_range(const regionmap *m, keyref lo, keyref hi, size_t *first, size_t *last);

/* Splits region i at `at`, which must lie strictly inside it (start < at,
 * and at < end when end is bounded). The lower daughter keeps index i and
 * the upper one becomes i+1; both stay on the parent's server with zeroed
 * counters and regionId `id` (HBase gives both daughters one id; the
 * cluster chooses it as SplitTableRegionProcedure does). Returns 0, or -1
 * if `at` is not strictly inside or memory runs out (the map is then
 * unchanged). */
int regionmap_split(regionmap *m, size_t i, keyref at, uint64_t id);

/* Checks every invariant of the map (the regions tile the key space in
 * index order; the index's internal bookkeeping agrees with the regions).
 * O(R), for tests and debugging. Returns NULL when sound, else a sentence
 * naming the first broken invariant. */
const char *regionmap_check(const regionmap *m);

#endif
