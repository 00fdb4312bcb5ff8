/* pattern.h -- logical operations: what clients do, before any row key.
 *
 * A pattern generates (time, record) pairs in time order; the engine asks
 * for the next one, schedules it and hands the record to the key scheme. A
 * pattern knows nothing of keys, regions or servers. Times are microseconds
 * from the start of the pattern (the engine adds the phase's start); the
 * engine also sets each record's timestamp and global sequence number.
 *
 * Kinds:
 * - timeseries: metrics x hosts x tags series, each writing one point per
 *   interval, staggered evenly over the interval; with jitter, each point
 *   is late by a uniform draw in [0, jitter).
 * - entities: YCSB CoreWorkload's reads, updates and inserts over
 *   `records` entities at a rate, keys chosen by `distribution` as
 *   CoreWorkload chooses them (read_fraction and insert_fraction are
 *   shares of all operations; reads only of entities written).
 * - sequence: inserts of new entities 0, 1, 2, ... at a rate (auto-increment
 *   ids: the newest are where the writes go); reads, if any, of ids
 *   written, the newest most often.
 * - trace: the operations of a trace file (workloads/trace.h), at its times.
 * - ycsb: one phase of a YCSB workload (workloads/ycsb_pattern.c): its load
 *   (recordcount inserts) or its run (operationcount operations), keys,
 *   operations and records chosen as YCSB's CoreWorkload chooses them.
 * Rates are fixed (evenly spaced) or Poisson (exponential gaps). Traces and
 * YCSB phases are finite (pattern_is_finite); the others never end.
 */
#ifndef REGIONSIM_PATTERN_H
#define REGIONSIM_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "workloads/dist.h"
#include "workloads/record.h"

typedef enum pattern_kind {
    PATTERN_TIMESERIES = 0,
    PATTERN_ENTITIES,
    PATTERN_SEQUENCE,
    PATTERN_TRACE,
    PATTERN_YCSB,
} pattern_kind;

/* Which phase of a YCSB workload a PATTERN_YCSB runs. */
typedef enum ycsb_phase_kind {
    YCSB_PHASE_LOAD = 0,  /* Client -load: insertcount inserts (doInsert) */
    YCSB_PHASE_RUN,       /* Client -t: operationcount operations (doTransaction) */
} ycsb_phase_kind;

struct ycsb_workload;

typedef enum arrival_kind {
    ARRIVALS_FIXED = 0,
    ARRIVALS_POISSON,
} arrival_kind;

typedef struct pattern_config {
    pattern_kind kind;
    /* timeseries */
    uint32_t metrics, hosts;  /* >= 1 */
    uint32_t tags;            /* values of an extra tag per host, >= 1 (1 = none) */
    uint64_t interval_us;     /* >= 1 */
    uint64_t jitter_us;       /* 0 = on time */
    /* entities and sequence */
    double rate_per_s;        /* > 0 */
    arrival_kind arrivals;
    dist_kind distribution;   /* entities: which entity an operation touches */
    uint64_t records;         /* entities: how many exist at the start, >= 1 */
    double insert_fraction;   /* entities: share of operations that insert, 0..1 */
    record_naming naming;     /* entities and sequence: how names read */
    double read_fraction;     /* entities, sequence: share of operations that read
                               * (the pattern chooses them: pattern_chooses_reads) */
    uint64_t operations;      /* entities: operations the phase is expected to make
                               * (YCSB's operationcount, for its zipfian bound); 0 unknown */
    /* trace */
    const char *trace_path;
    int trace_ycsb;           /* the trace is YCSB's BasicDB log (trace_format = ycsb) */
    uint64_t trace_interval_us; /* a YCSB log: time between its operations (it has none);
                               * 0: all at time 0 (closed-loop replay) */
    /* ycsb */
    const struct ycsb_workload *ycsb; /* borrowed: outlives the pattern */
    ycsb_phase_kind ycsb_phase;
    double ycsb_rate_per_s;   /* open loop: operations per second (target); 0 closed loop */
} pattern_config;

/* Whether the pattern ends by itself (a trace, a YCSB phase): a phase of
 * it without a duration runs until its last operation. */
int pattern_is_finite(const pattern_config *cfg);

/* Operations a pattern makes before it ends, known beforehand: a YCSB
 * phase's (its load's insertcount, its run's operationcount); 0 for the
 * others (a trace is not read ahead; the generators never end). */
uint64_t pattern_operations(const pattern_config *cfg);

/* Whether a phase of this pattern may read, with read_fraction the phase's:
 * a trace (its get and scan lines), a YCSB run with reads, scans or
 * read-modify-writes, any other pattern when read_fraction > 0. */
int pattern_may_read(const pattern_config *cfg, double read_fraction);

/* Whether the pattern chooses its own reads (emitting RECORD_GET and
 * RECORD_SCAN records without a key, reads of records it knows were
 * written): entities, sequence and ycsb. For the others the engine turns
 * a share read_fraction of the writes into reads. */
int pattern_chooses_reads(const pattern_config *cfg);

typedef struct pattern pattern;

/* A pattern for cfg, its randomness drawn from seed. NULL with a message in
 * err when cfg is out of range, a trace cannot be opened, or out of memory. */
pattern *pattern_new(const pattern_config *cfg, uint64_t seed, char *err, size_t errcap);

void pattern_free(pattern *p);

/* Whether a pattern of cfg can be weighted (pattern_set_weight): an
 * on-time time series, entities or sequence. */
int pattern_can_weight(const pattern_config *cfg);

/* The weight a pattern of cfg uses for a wanted weight w >= 1: w itself,
 * or for a time series of S series the nearest w' >= w coprime with S
 * (every series is sampled) and, when w >= S, stepping through the series
 * by about S / golden ratio (pattern.c's top comment). */
uint64_t pattern_weight_stride(const pattern_config *cfg, uint64_t w);

/* Whether weight w samples every series of cfg: w coprime with a time
 * series' series count (a w sharing a factor with it would sample a fixed
 * subset of series forever); any w for other patterns. */
int pattern_weight_fits(const pattern_config *cfg, uint64_t w);

/* Weighted: from now on (call before the first pattern_next) p emits one
 * operation in w, each standing for w (pattern.c's top comment), the
 * systematic sample's start drawn from seed. w = 1 changes nothing.
 * Returns 0, or -1 when the pattern cannot be weighted (p unchanged). */
int pattern_set_weight(pattern *p, uint64_t w, uint64_t seed);

/* Weighted time series: makes *out (its entity, metric, host, tag,
 * naming) a series drawn uniformly by `random`, for a read the engine
 * makes of a write. A weighted series is sampled every w-th round in a
 * fixed phase, so a read of the series just sampled would find its last
 * kept point always w rounds old; a read of any series finds it at a
 * uniform age, as the points it stands for are. Other kinds: unchanged. */
void pattern_random_series(const pattern *p, struct rng *random, record *out);

/* Operations per second offered, or 0 when unknown (traces). */
double pattern_rate_per_s(const pattern *p);

/* The next operation: sets *t_us (from the pattern's start, non-decreasing)
 * and *out (all fields but ts_ms and seq, which the engine sets). Returns 1,
 * 0 when the pattern is exhausted (only traces are), or -1 with a message in
 * err (a malformed trace line: "FILE:LINE: ..."). */
int pattern_next(pattern *p, uint64_t *t_us, record *out, char *err, size_t errcap);


#endif
