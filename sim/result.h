/* result.h -- what a simulation run produces, as plain data.
 *
 * This is the contract between the engine (sim/) and the report writers
 * (reports/): the engine fills these structs, the writers only read them.
 * Everything is counts and configuration echoes; derived figures (max/mean,
 * Gini, ...) are computed by reports/stats from these counts, so nothing is
 * stored twice. Arrays are owned by the struct and released by
 * run_result_free / sim_results_free (sim/engine.c).
 */
#ifndef REGIONSIM_RESULT_H
#define REGIONSIM_RESULT_H

#include <stddef.h>
#include <stdint.h>

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
    uint64_t reads;         /* logical reads served (0 until reads exist) */
    uint64_t rows_scanned;  /* rows scanned for reads (0 until reads exist) */
    uint64_t bytes;         /* cell bytes written (KeyValue serialized size) */
    uint64_t regions;       /* regions hosted at the end of the run */
    uint64_t rpcs;          /* RPCs served */
    double busy;            /* utilisation: service time / run time (may pass 1 when overloaded) */
    uint64_t longest_queue; /* most RPCs in the server at once */
    latency_summary latency;
} server_result;

typedef struct run_result {
    char *scheme_name;      /* preset name or the expression itself */
    char *scheme_expr;      /* the field list, e.g. "salt(8) ts" */
    char *key_example;      /* one key the run wrote, in HBase shell form */
    char *presplit;         /* how the table started: "none", "8 buckets" */
    uint32_t nservers;
    server_result *servers; /* nservers entries */

    uint64_t writes, reads;
    uint64_t duration_us;   /* simulated time the run covered */
    double offered_per_s;   /* operations issued per simulated second */
    double achieved_per_s;  /* operations completed within the run per second */
    uint64_t unfinished;    /* operations still queued when the run ended */
    latency_summary latency;       /* every operation */
    latency_summary read_latency;  /* logical reads only */

    /* Reads: logical reads by kind (get, range, latest, window) and what
     * they cost: RPCs (one per region a planned range touches), rows read
     * from the stores, and the records the read should return (from the
     * workload's own record of what it wrote). */
    uint64_t reads_by_kind[4];
    uint64_t read_rpcs_by_kind[4];
    uint64_t rows_scanned_by_kind[4], records_returned_by_kind[4];
    uint64_t rows_scanned, records_returned, full_scans;

    uint64_t regions_start; /* regions when the run began (pre-split) */
    uint64_t regions;       /* regions at the end */
    uint64_t splits, moves, balancer_runs;
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
} run_result;

/* The configuration a report echoes, and the runs, one per scheme. */
typedef struct sim_results {
    const char *scenario;   /* name of the scenario ("default" if built in) */
    uint64_t seed;
    uint32_t servers;
    const char *split_policy;    /* "size" */
    uint64_t region_max_bytes;   /* split threshold */
    const char *balancer;        /* "region-count" or "none" */
    uint64_t balancer_period_us;
    uint64_t window_us;
    char *workload;              /* one-line description of the workload (owned) */
    uint64_t cell_overhead_bytes;/* bytes per cell beyond the row key */
    size_t nruns;
    run_result *runs;
} sim_results;

#endif
