/* result.h -- what a simulation run produces, as plain data.
 *
 * This is the contract between the engine (engine/) and the report writers
 * (reports/): the engine fills these structs, the writers only read them.
 * Everything is counts and configuration echoes; derived figures (max/mean,
 * Gini, ...) are computed by reports/stats from these counts, so nothing is
 * stored twice. Arrays are owned by the struct and released by
 * run_result_free / sim_results_free (engine/engine.c).
 */
#ifndef REGIONSIM_RESULT_H
#define REGIONSIM_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "core/balancer.h"       /* balancer_report: what a balancer run decided */
#include "workloads/keyscheme.h" /* query_kind: the read kinds and their names */
#include "scenario/scenario.h"    /* SCENARIO_MAX_SAMPLES */

/* Latency of operations, arrival to reply, in microseconds. Quantiles come
 * from a log-bucketed histogram (core/histogram.h): within 0.8% for a run,
 * 6.3% for a server. count = 0: nothing was served (all zero). */
typedef struct latency_summary {
    uint64_t count;
    double mean_us;
    uint64_t p50_us, p99_us, p999_us, max_us;
} latency_summary;

typedef struct server_result {
    char name[16];          /* "rs0", "rs1", ... */
    uint64_t writes;        /* cells written to regions this server hosted */
    uint64_t reads;         /* read RPCs served (a logical read sends one per region it touches) */
    uint64_t rows_scanned;  /* rows scanned for reads (0 until reads exist) */
    uint64_t bytes;         /* cell bytes written (KeyValue serialized size) */
    uint64_t regions;       /* the table's regions hosted at the end of the run */
    uint64_t system_regions;/* system regions hosted then (hbase:meta: 0 or 1), not in `regions` */
    uint64_t rpcs;          /* RPCs served */
    double busy;            /* utilisation: service time / run time (may pass 1 when overloaded) */
    uint64_t longest_queue; /* most RPCs in the server at once */
    uint64_t start_code;    /* its ServerName's start code: epoch ms it started (0: never ran) */
    latency_summary latency;
    uint64_t warmup_writes; /* cells written during the warm-up (the whole run when it never
                             * ended), measured or not */
} server_result;

/* One region of the run, from when it opened (table creation or a split)
 * to when it split or the run ended. Every write and read RPC of the run
 * landed in exactly one of these, so shares over all of them sum to 1.
 * Counters are the region's own: daughters start at zero, as HBase's
 * per-region request counts do. */
typedef struct region_result {
    char *start, *end;      /* boundaries in HBase shell form; "" = unbounded */
    uint64_t id;            /* HBase's regionId: ms it was created (a new table's regions
                             * share 0; daughters of one split share theirs) */
    uint32_t server;        /* id of the server hosting it when it closed or the run ended */
    int split;              /* 1: it split during the run; 0: live at the end */
    uint64_t opened_us, closed_us; /* closed_us = the run's end for live regions */
    uint64_t writes;        /* cells written to it */
    uint64_t reads;         /* read RPCs it served */
    uint64_t rows, bytes;   /* stored when it closed (split) or at the end */
} region_result;

/* What happened to the cluster, in time order. */
typedef enum timeline_kind {
    TIMELINE_SPLIT,         /* region split at `key`, on server `from` */
    TIMELINE_MOVE,          /* the balancer moved the region starting at `key` */
    TIMELINE_REASSIGN,      /* a region of a server that left reopened elsewhere */
    TIMELINE_SERVERS_ADDED, /* servers with ids from..to joined (to inclusive) */
    TIMELINE_DECOMMISSION,  /* server `from` was drained and left */
    TIMELINE_FAILURE,       /* server `from` failed */
    TIMELINE_BALANCER,      /* a balancer run (moved regions or not): `balancer` */
    TIMELINE_KINDS
} timeline_kind;

/* 80 bytes (a run logs one a split: 1.3 million at a million regions):
 * `split` and `balancer` share their bytes, each read for its kind only. */
typedef struct timeline_event {
    uint64_t t_us;
    char *key;              /* split: the split key; move, reassign: the region's start
                             * key ("" = the first region), or "hbase:meta,,1" for meta's
                             * region (meta = 1); NULL for the others */
    union {
        split_why split;    /* TIMELINE_SPLIT: what the split policy saw */
        size_t balancer;    /* TIMELINE_BALANCER: its run in run_result.balancer_log */
    };
    timeline_kind kind;
    uint32_t from, to;      /* server ids (see the kinds); unused ones are 0 */
    int meta;               /* move, reassign: of hbase:meta, not of a region of the table */
} timeline_event;

/* The key space against time, Key Visualizer style: rows are key buckets
 * of about equal row count (cut at the end of the run, from the rows then
 * stored), columns are the run's report windows. cells[w * nbuckets + b]
 * counts the writes (read RPCs) of window w whose key (the start of the
 * RPC's range within its region) fell in bucket b. A window's cells sum to
 * its exact total; when a window had more operations than the sample the
 * engine keeps (`sample` keys a window), the split among buckets is
 * estimated from a uniform random sample of its keys and `exact` is 0. */
typedef struct keyspace_heatmap {
    uint32_t nbuckets;      /* 0 when the table ended empty */
    char **bucket_start;    /* nbuckets keys in shell form; bucket 0 starts at "" */
    uint64_t *writes;       /* nwindows x nbuckets */
    uint64_t *reads;        /* nwindows x nbuckets */
    uint32_t sample;        /* keys sampled per window and kind (first windows) */
    int exact;              /* 1: every window had at most `sample` operations of each kind */
} keyspace_heatmap;

/* A run's per-server window counters reduced to what the reports draw
 * when no output of the invocation needs them server by server (the
 * scenario's window_digest, set by the program; engine/windows.h). Only runs
 * of more than 32 servers are reduced. present 0: not reduced (the
 * matrices, if any, are in window_writes and window_reads). */
typedef struct window_digest {
    int present;            /* 1: reduced; run_result's window_writes and window_reads are NULL */
    int reads;              /* the run counted read RPCs (its window_reads was not NULL) */
    uint64_t *writes_total, *writes_max; /* per window: the sum and the largest over servers */
    uint64_t *reads_total, *reads_max;   /* the same for read RPCs; NULL when !reads */
    uint32_t per_row, nrows;             /* the heatmap's bins (window_bins_geometry) */
    uint64_t *writes_bins, *reads_bins;  /* nwindows x nrows: a bin's largest cell (reads_bins
                                          * NULL when !reads) */
    uint32_t quarter;       /* windows in each of the measured run's last two quarters; 0:
                             * fewer than 4 windows, nothing below */
    uint64_t *quarter_before, *quarter_after; /* nservers each: a server's writes in the third
                                               * quarter and in the last (stats_steady) */
} window_digest;

typedef struct run_result {
    char *scheme_name;      /* preset name or the expression itself */
    char *scheme_expr;      /* the field list, e.g. "salt(8) ts" */
    char *key_example;      /* one key the run wrote, in HBase shell form */
    char *presplit;         /* how the table started: "none", "8 buckets" */
    uint32_t nservers;
    server_result *servers; /* nservers entries */

    /* Steady state: every figure below that counts operations (writes,
     * reads, the servers' counters, latency, throughput, read cost) counts
     * only those issued at or after measure_from_us; the windows, the key
     * space heatmap and the region log cover the whole run, and window
     * figures use the windows that start at or after it. */
    uint64_t measure_from_us;
    int measure_auto;       /* measure_from = auto: measure_from_us is warmup_us, detected in
                             * this run (0 when the warm-up never ended: the whole run) */
    uint64_t measure_regions, measure_servers; /* regions and online servers when the
                             * measured span began (the end of the run if it never did) */
    uint64_t bytes_start;   /* cell bytes stored then */
    uint32_t servers_end;   /* online servers at the end */
    /* The warm-up (engine/engine_warmup.c): the growing table, from its
     * creation until it first has a region per online server (at a balancer
     * run; at once with balancer = none; at 0 for a table pre-split into a
     * region a server), detected whatever measure_from says. */
    int warmup_ended;       /* 0: the run never left it (then warmup_us = duration_us) */
    uint64_t warmup_us;     /* when it ended: the growing table's span is [0, warmup_us) */
    uint64_t warmup_regions, warmup_servers; /* regions and online servers then */
    uint64_t writes, reads;
    uint64_t duration_us;   /* simulated time the run covered */
    double offered_per_s;   /* operations issued per simulated second */
    double achieved_per_s;  /* replies within the measured span, per second */
    uint64_t unfinished;    /* operations still queued when the run ended */
    uint64_t left_out;      /* trace operations after a phase's duration: never issued */
    latency_summary latency;       /* every operation */
    latency_summary read_latency;  /* logical reads only */

    /* Reads: logical reads by kind (query_kind: get, range, ...) and what
     * they cost: RPCs (one per region a planned range touches), rows read
     * from the stores, and the records the read should return (from the
     * workload's own record of what it wrote). */
    uint64_t reads_by_kind[QUERY_KINDS];
    uint64_t read_rpcs_by_kind[QUERY_KINDS];
    uint64_t rows_scanned_by_kind[QUERY_KINDS], records_returned_by_kind[QUERY_KINDS];
    uint64_t rows_scanned, records_returned, full_scans;

    uint64_t regions_start; /* regions when the run began (pre-split) */
    uint64_t regions;       /* regions at the end */
    uint64_t splits, moves;
    uint64_t balancer_runs; /* runs inside the run: from the first (balancer_first_us) on, one a period */
    balancer_report *balancer_log; /* balancer_runs entries, in time order */
    uint64_t servers_added, decommissions, failures; /* cluster events */
    uint64_t reassigned;    /* regions reopened elsewhere after a decommission or failure */
    uint64_t rows;          /* distinct row keys stored at the end */
    uint64_t bytes;         /* cell bytes stored at the end */
    uint64_t key_bytes_min, key_bytes_max; /* row key length range seen */
    double key_bytes_mean;

    /* Report windows: window w covers [w * window_us, (w+1) * window_us).
     * window_writes[w * nservers + s] = writes server s took in window w. */
    uint64_t window_us;
    uint32_t nwindows;
    uint64_t *window_writes;
    uint64_t *window_reads;
    uint64_t *window_regions; /* regions when window w ended (nwindows entries) */
    window_digest digest;     /* the two matrices above reduced, when present (then both NULL) */

    keyspace_heatmap keyspace;

    size_t nhistory;        /* every region of the run: those that split, in order */
    region_result *history; /* of splitting, then the live ones in key order */
    size_t nevents;
    timeline_event *events; /* in time order */
    size_t history_cap, events_cap; /* their arrays' room, in entries, and whether each is */
    int history_mapped, events_mapped; /* a mapping (core/bigarray.h): engine/history.c's */
    struct history_text *history_text; /* owns the key strings of history and events:
                             * each distinct one stored once (sim/history.c) */
} run_result;

/* One check of a run's figures (a CI assertion, issue 14) as the reports
 * show it: filled by the program after the runs, from reports/assertion.h;
 * the strings are owned (sim_results_free frees them). */
typedef struct check_result {
    char *name;             /* the assertion's name ([assert NAME], or its text) */
    char *expression;       /* as written, e.g. "write_max_mean <= 1.2" */
    char *scheme;           /* the run it was checked on */
    double value, bound;    /* value NAN: undefined (fails) */
    int passed;             /* in every sample */
    uint64_t seed;          /* the sample whose value is shown: the worst one */
    uint32_t samples, samples_failed; /* samples checked (1 for a single run), and failed */
    const char *why;        /* NULL, or why the value is what it is: one of
                             * reports/assertion.h's fixed phrases (borrowed, never freed) */
} check_result;

/* The most samples a result holds (scenario.h's `samples` setting). */
#define RESULT_MAX_SAMPLES SCENARIO_MAX_SAMPLES

/* The configuration a report echoes, and the runs, one per scheme. */
typedef struct sim_results {
    const char *scenario;   /* name of the scenario ("default" if built in) */
    uint64_t seed;
    uint32_t servers;
    const char *split_policy;    /* "size" */
    uint64_t region_max_bytes;   /* split threshold */
    uint64_t flush_bytes;        /* hbase.hregion.memstore.flush.size (region size / 80 unset) */
    double split_jitter;         /* hbase.hregion.max.filesize.jitter */
    uint64_t discharge_us;       /* hbase.hfile.compaction.discharger.interval (scenario_discharge_us) */
    const char *balancer;        /* "region-count" or "none" */
    uint64_t balancer_period_us;
    uint64_t balancer_first_us;  /* the balancer chore's first run (engine/hbase_inputs.c) */
    uint64_t status_first_us;    /* the cluster status chore's first run */
    uint64_t window_us;
    uint64_t measure_from_us;    /* figures count operations from here (0: all) */
    int measure_auto;            /* measure_from = auto: each run's from its warm-up's end
                                  * (run_result's measure_from_us; this one is 0) */
    char *workload;              /* one-line description of the workload (owned) */
    uint64_t cell_overhead_bytes;/* bytes per cell beyond the row key */
    /* The row store: sampled (store = sampled, or auto when the exact store
     * would not fit) makes rows and read costs estimates, which the
     * reports say; with the exact store they say nothing (outputs as
     * before the sampled store existed). */
    int store_sampled;
    int store_auto;              /* store = auto chose it */
    uint32_t sample_keys;        /* rows sampled a region, at most */
    /* The engine (scenario/weighting.h): weighted makes one simulated operation
     * stand for engine_weight, and queueing a fluid model's; the reports
     * say so. Per-op runs say nothing (outputs as before it existed). */
    int engine_weighted;
    int engine_auto;             /* engine = auto chose it */
    uint64_t engine_weight;      /* 1 per-op */
    size_t nruns;
    run_result *runs;
    /* Samples (--samples N): the scenario ran N times, with seeds seed ..
     * seed+N-1. runs[] are the first sample's (seed's own), and every table
     * of one run shows them. The program records each sample's figures
     * (reports/samples.h): sample_values[(k * nruns + i) * nvalues + j] is
     * value j of run i in sample k. nsamples is 1 and sample_values NULL
     * for a single run. */
    uint32_t nsamples;           /* 1 .. RESULT_MAX_SAMPLES */
    size_t nvalues;
    double *sample_values;
    size_t nchecks;              /* CI assertions' results, if any were asked for */
    check_result *checks;
} sim_results;

/* The shape of a run's window matrices (window_writes, window_reads and
 * their digest), shared by the engine that reduces them (engine/windows.h)
 * and the reports that read them: inline, so both compute them alike. */

/* Heatmap rows at most: past this many servers a row is a bin of servers.
 * Runs of at most this many servers are never reduced (they are small). */
#define WINDOW_BIN_ROWS_MAX 32

/* How n servers are binned into rows: *per_row consecutive servers a row
 * (1 up to WINDOW_BIN_ROWS_MAX servers), *nrows rows (the last may hold
 * fewer servers). */
static inline void window_bins_geometry(uint32_t nservers, uint32_t *per_row, uint32_t *nrows)
{
    *per_row = 1;
    *nrows = nservers;
    if (nservers > WINDOW_BIN_ROWS_MAX) {
        *per_row = (nservers + WINDOW_BIN_ROWS_MAX - 1) / WINDOW_BIN_ROWS_MAX;
        *nrows = (nservers + *per_row - 1) / *per_row;
    }
}

/* The sum and the largest of one window's counts, row[0..nservers). */
static inline void window_total_max(const uint64_t *row, uint32_t nservers, uint64_t *total,
                                    uint64_t *max)
{
    uint64_t t = 0, x = 0;
    for (uint32_t s = 0; s < nservers; s++) {
        t += row[s];
        if (row[s] > x) x = row[s];
    }
    *total = t;
    *max = x;
}

/* Each server's counts summed over windows [a, b) of m (nservers a
 * window), into x[0..nservers). */
static inline void window_sum_rows(const uint64_t *m, uint32_t nservers, uint32_t a, uint32_t b,
                                   uint64_t *x)
{
    for (uint32_t s = 0; s < nservers; s++)
        x[s] = 0;
    for (uint32_t w = a; w < b; w++)
        for (uint32_t s = 0; s < nservers; s++)
            x[s] += m[(size_t)w * nservers + s];
}

/* Fills out[w * nrows + b] (nwindows x nrows, zeroed by the caller) with
 * the largest of bin b's cells of window w, from cells[w * nservers + s]. */
static inline void window_bins_max(const uint64_t *cells, uint32_t nwindows, uint32_t nservers,
                                   uint32_t per_row, uint32_t nrows, uint64_t *out)
{
    for (uint32_t w = 0; cells && w < nwindows; w++) {
        const uint64_t *row = cells + (size_t)w * nservers;
        uint64_t *to = out + (size_t)w * nrows;
        for (uint32_t s = 0; s < nservers; s++)
            if (row[s] > to[s / per_row]) to[s / per_row] = row[s];
    }
}

/* The first window that starts at or after measure_from_us (nwindows if
 * none does; 0 when window_us is 0). */
static inline uint32_t window_first_measured(uint64_t measure_from_us, uint64_t window_us,
                                             uint32_t nwindows)
{
    if (window_us == 0)
        return 0;
    uint64_t w = (measure_from_us + window_us - 1) / window_us;
    return w < nwindows ? (uint32_t)w : nwindows;
}

/* The measured run's last two quarters of whole windows from `first`:
 * [*q3, *q4) and [*q4, nwindows). Returns the quarter's length in
 * windows; 0 when there are fewer than 4 (no quarters to judge on). */
static inline uint32_t window_quarters(uint32_t nwindows, uint32_t first, uint32_t *q3,
                                       uint32_t *q4)
{
    uint32_t n = first < nwindows ? nwindows - first : 0, q = n / 4;
    *q4 = nwindows - q;
    *q3 = *q4 - q;
    return q;
}

#endif
