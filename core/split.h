/* split.h -- when a region splits, and where: HBase's region split policies
 * and split restrictions.
 *
 * WHEN (RegionSplitPolicy.shouldSplit). Sources are Apache HBase's
 * hbase-server/.../regionserver/ classes named below; sizes are the
 * region's stored bytes (one column family here, so HBase's per-store and
 * whole-region sizes, hbase.hregion.split.overallfiles, coincide).
 *  - SPLIT_DISABLED (DisabledRegionSplitPolicy): never.
 *  - SPLIT_CONSTANT (ConstantSizeRegionSplitPolicy): size > desired, where
 *    desired = max_bytes + (long)(max_bytes * (u - 0.5) * jitter), u uniform
 *    in [0,1) drawn once per region when its policy is configured, and
 *    desired clamped at the top instead of overflowing.
 *  - SPLIT_INCREASING (IncreasingToUpperBoundRegionSplitPolicy): size >
 *    min(desired, initial * n^3), n = online regions of the table on the
 *    region's server, the region itself included; n == 0 or n > 100 use
 *    desired. initial = hbase.increasing.policy.initial.size if set (> 0),
 *    else 2 x the memstore flush size.
 *  - SPLIT_STEPPING (SteppingSplitPolicy): size > (n == 1 ? initial : desired).
 *  - SPLIT_BUSY (BusyRegionSplitPolicy, extends IncreasingToUpperBound): the
 *    increasing size rule, or, once the region has been online min_age, a
 *    blocked-write ratio >= busy_blocked_ratio over the aggregation window
 *    (split_busy_due; the caller keeps the per-region split_busy_stats).
 *
 * WHERE (RegionSplitPolicy.getSplitPoint, StoreUtils.getFileSplitPoint,
 * HRegion.checkSplit, SplitTableRegionProcedure.checkSplittable). The split
 * point is the store's middle row by size; no split when that row is the
 * region's first or last row (StoreUtils: "cannot split because midkey is
 * the same as first or last row"). The table's split restriction then cuts
 * the point (KeyPrefixRegionSplitRestriction: its first prefix_len bytes;
 * DelimitedKeyPrefixRegionSplitRestriction: the bytes before the first
 * delimiter, unchanged when there is none). A point outside the region
 * (HRegion.checkRow) or equal to its start key (checkSplittable: "Split row
 * is equal to startkey"), or empty, is refused.
 *
 * HOW OFTEN. HBase evaluates the policy after memstore flushes and
 * compactions, not after every write: the caller (cluster_write) asks at a
 * region's flushes, and not while a daughter's references hold it
 * (core/cluster.h). split_due itself is cheap enough for every write:
 * it is O(1) until a size threshold is crossed (one hash of the region's
 * start key to draw its jitter; under the constant policy that hash is done
 * once, and the region's own size becomes its next check, as under the
 * stepping policy while the region shares its server), and after a
 * refusal the policy looks again
 * only when another flush_bytes (max_bytes/8 when flush_bytes is 0) has been
 * written (r->next_split_check), a stand-in for the next flush, so a region
 * that cannot split costs nothing per write.
 *
 * JITTER. HBase draws from java.util.Random; the core has no random
 * generator, so a region's u is a hash of (jitter_seed, region id, region
 * start key): splitmix64's finaliser over the seed, the id and an FNV-1a-64
 * of the start key, top 53 bits / 2^53. Same seed, same run. The start key
 * takes part because both daughters of a split share one region id here
 * (as in HBase) while HBase gives each daughter its own draw. Unlike HBase,
 * a region keeps its draw when it moves (HBase draws again on reopen).
 */
#ifndef REGIONSIM_SPLIT_H
#define REGIONSIM_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "core/regionmap.h"

typedef enum split_kind {
    SPLIT_DISABLED = 0,  /* DisabledRegionSplitPolicy */
    SPLIT_CONSTANT,      /* ConstantSizeRegionSplitPolicy */
    SPLIT_INCREASING,    /* IncreasingToUpperBoundRegionSplitPolicy */
    SPLIT_STEPPING,      /* SteppingSplitPolicy (HBase 2.x's default) */
    SPLIT_BUSY,          /* BusyRegionSplitPolicy */
    SPLIT_SIZE = SPLIT_CONSTANT, /* old name, kept for existing callers */
} split_kind;

typedef enum split_restriction_kind {
    RESTRICT_NONE = 0,   /* NoRegionSplitRestriction */
    RESTRICT_KEY_PREFIX, /* KeyPrefixRegionSplitRestriction */
    RESTRICT_DELIMITED,  /* DelimitedKeyPrefixRegionSplitRestriction */
} split_restriction_kind;

/* HBase's defaults (split_policy_defaults fills them in, unscaled). */
#define SPLIT_DEFAULT_MAX_BYTES (10ull << 30)    /* HConstants.DEFAULT_MAX_FILE_SIZE */
#define SPLIT_DEFAULT_FLUSH_BYTES (128ull << 20) /* TableDescriptorBuilder.DEFAULT_MEMSTORE_FLUSH_SIZE */
#define SPLIT_DEFAULT_JITTER 0.25                /* ConstantSizeRegionSplitPolicy, conf default */
#define SPLIT_DEFAULT_BUSY_RATIO 0.2             /* BusyRegionSplitPolicy.DEFAULT_MAX_BLOCKED_REQUESTS */
#define SPLIT_DEFAULT_BUSY_MIN_AGE_US 600000000ull /* DEFAULT_MIN_AGE_MS = 600000 */
#define SPLIT_DEFAULT_BUSY_WINDOW_US 300000000ull  /* DEFAULT_AGGREGATION_WINDOW = 300000 ms */

typedef struct split_policy {
    split_kind kind;
    uint64_t max_bytes;        /* hbase.hregion.max.filesize (already scaled by the caller), > 0 */
    uint64_t flush_bytes;      /* hbase.hregion.memstore.flush.size (scaled); 0: unknown */
    double jitter;             /* hbase.hregion.max.filesize.jitter; 0: none */
    uint64_t jitter_seed;      /* the run's seed for the per-region jitter */
    /* busy: */
    double busy_blocked_ratio; /* hbase.busy.policy.blockedRequests; outside [1e-5, 0.99999]: 0.2 */
    uint64_t busy_min_age_us;  /* hbase.busy.policy.minAge */
    uint64_t busy_window_us;   /* hbase.busy.policy.aggWindow; 0: the default */
    split_restriction_kind restriction;
    uint32_t prefix_len;       /* RESTRICT_KEY_PREFIX: ...split_restriction.prefix_length; 0: none */
    uint8_t delimiter;         /* RESTRICT_DELIMITED: ...split_restriction.delimiter (one byte) */
    uint64_t initial_bytes;    /* hbase.increasing.policy.initial.size; 0: 2 x flush_bytes */
} split_policy;

/* Sets *p to HBase's defaults for `kind`: 10 GiB max, 128 MiB flush, jitter
 * 0.25, busy 0.2 / 600 s / 300 s, no restriction, seed 0. Sizes unscaled. */
void split_policy_defaults(split_policy *p, split_kind kind);

/* Region r's jittered max size (ConstantSizeRegionSplitPolicy's
 * desiredMaxFileSize), never overflowing (UINT64_MAX at most). */
uint64_t split_desired_max(const split_policy *p, const region *r);

/* The fewest bytes at which p could want any region to split, whatever its
 * jitter and however many regions share its server: a new region's
 * next_split_check, so that split_due does no arithmetic before then. */
uint64_t split_first_check(const split_policy *p);

/* The size above which r splits with n regions of the table on its server
 * (IncreasingToUpperBound/SteppingSplitPolicy.getSizeToCheck; the desired
 * max for CONSTANT, UINT64_MAX for DISABLED). */
uint64_t split_size_to_check(const split_policy *p, const region *r, uint64_t regions_on_server);

/* Whether the policy wants to look at r now, holding `bytes` (its store's
 * bytes), with regions_on_server regions of the table (all regions are one
 * table here) on r's server, r included. Cheap: called on every write.
 * Under the constant policy a "not yet" past the size floor also sets
 * r->next_split_check to just above r's jittered size, which only the
 * region's bytes can pass, so the writes before then skip the jitter's
 * hash; under the stepping policy, with more than one region on the
 * server, the same with SPLIT_CHECK_UNLESS_ALONE (one region alone looks
 * at the initial size instead). Inline for the test most writes stop at; the rest is
 * split_due_past_check's (split.c). */
int split_due_past_check(const split_policy *p, region *r, uint64_t bytes,
                         uint64_t regions_on_server);

/* next_split_check's top bit: the bytes below it are the region's own
 * jittered size + 1 under the stepping policy, which holds for any count
 * of regions on its server but 1 (split_due_past_check caches it there, so
 * that the writes before then skip the jitter's hash, a read of the
 * region's start key: two cache misses a write). A value of 2^63 or more
 * set otherwise is read without it, which can only make the policy look
 * again sooner (a look is exact; not looking matters only after a
 * refusal, whose value, store bytes + a flush's, is far below 2^63). */
#define SPLIT_CHECK_UNLESS_ALONE (1ull << 63)

static inline int split_due(const split_policy *p, region *r, uint64_t bytes,
                            uint64_t regions_on_server)
{
    uint64_t next = r->next_split_check;
    if (p->kind == SPLIT_DISABLED ||
        (bytes < (next & ~SPLIT_CHECK_UNLESS_ALONE) &&
         !((next & SPLIT_CHECK_UNLESS_ALONE) && regions_on_server == 1)))
        return 0; /* inline: most writes stop here */
    return split_due_past_check(p, r, bytes, regions_on_server);
}

/* Decides where r splits, once split_due (or split_busy_due) said so.
 * Returns 1 and sets *at to the split point: the middle row, cut by the
 * restriction. *at points into r's store (valid until it changes) unless
 * buf is non-NULL with bufcap >= the point's length, in which case the
 * point is copied to buf and *at points there. Returns 0 when HBase would
 * not split (empty store, middle row = first or last row, restricted point
 * empty, equal to r's start or outside r) and schedules the next look
 * (r->next_split_check). */
int split_decide(const split_policy *p, region *r, keyref *at, uint8_t *buf, size_t bufcap);



void split_busy_start(split_busy_stats *s, uint64_t now_us, uint64_t writes, uint64_t blocked);

/* The blocked-request ratio BusyRegionSplitPolicy.updateRate reports at
 * now_us (advancing the window when one has passed): 0 during the first
 * window, then the time-weighted blend of the last window's ratio and the
 * current one's. */
double split_busy_rate(const split_policy *p, split_busy_stats *s, uint64_t now_us,
                       uint64_t writes, uint64_t blocked);

/* BusyRegionSplitPolicy's busy rule (the size rule is split_due's): 1 when
 * p is SPLIT_BUSY, the region has been online at least busy_min_age_us and
 * split_busy_rate >= busy_blocked_ratio. Updates the window like HBase
 * (also when returning 0). *rate (may be NULL) gets the ratio it saw.
 * Then call split_decide for the point. */
int split_busy_due(const split_policy *p, split_busy_stats *s, uint64_t now_us,
                   uint64_t writes, uint64_t blocked, double *rate);

/* The blocked-request ratio at or above which the busy rule splits (the
 * configured one, or HBase's default when it is out of range). */
double split_busy_threshold(const split_policy *p);

#endif
