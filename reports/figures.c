/* figures.c -- the registry of figures: one static const table.
 *
 * Design: FIGURES[] is plain static const data, built by the preprocessor:
 * a scheme or server figure is one FIG() line, a per-read-kind family one
 * FAMILY() line that READ_KINDS expands into one entry per kind, with the
 * name made by string-literal concatenation ("reads_" "get"). Nothing is
 * computed or cached at run time, so there is no mutable state and the
 * table's pointers are stable.
 *
 * Computation: each entry's value function is a few lines over a
 * run_result, through reports/stats.h (imbalance, window figures, read
 * cost); a function may serve several entries, told apart by the entry's
 * `kind` (a family's read kind) or by small wrappers. Undefined values are
 * NAN: ratios over nothing, latency of nothing timed, rates over no time.
 *
 * figure_nearest offers every name to core/nearest.h, the one edit
 * distance of every "did you mean" (names are shorter than 48 bytes).
 */
#include "reports/figures.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "core/nearest.h"
#include "reports/stats.h"
#include "reports/verdict.h"

/* The read kinds, for families. Its count must match QUERY_KINDS (checked
 * below) and its names query_kind_name's (checked by tests/test_figures.c). */
#define READ_KINDS(X, ...)                                                                     \
    X(QUERY_GET, "get", __VA_ARGS__)                                                           \
    X(QUERY_RANGE, "range", __VA_ARGS__)                                                       \
    X(QUERY_LATEST, "latest", __VA_ARGS__)                                                     \
    X(QUERY_WINDOW, "window", __VA_ARGS__)                                                     \
    X(QUERY_METRIC, "metric", __VA_ARGS__)                                                     \
    X(QUERY_SCAN, "scan", __VA_ARGS__)

#define COUNT_ONE(k, name, unused) +1
enum { READ_KINDS_LISTED = 0 READ_KINDS(COUNT_ONE, 0) };
_Static_assert((int)READ_KINDS_LISTED == (int)QUERY_KINDS,
               "figures.c's READ_KINDS lists every query_kind");

/* ---- value functions ---- */

#define UNUSED_ARGS (void)kind, (void)index

/* A figure that is one counter of the run. */
#define RUN_COUNT(field)                                                                       \
    static double v_##field(const run_result *run, int kind, size_t index)                    \
    {                                                                                          \
        UNUSED_ARGS;                                                                           \
        return (double)run->field;                                                             \
    }
RUN_COUNT(writes)
RUN_COUNT(reads)
RUN_COUNT(duration_us)
RUN_COUNT(measure_from_us)
RUN_COUNT(unfinished)
RUN_COUNT(left_out)
RUN_COUNT(regions_start)
RUN_COUNT(regions)
RUN_COUNT(splits)
RUN_COUNT(moves)
RUN_COUNT(balancer_runs)
RUN_COUNT(servers_added)
RUN_COUNT(decommissions)
RUN_COUNT(failures)
RUN_COUNT(reassigned)
RUN_COUNT(rows)
RUN_COUNT(bytes)
RUN_COUNT(rows_scanned)
RUN_COUNT(records_returned)
RUN_COUNT(full_scans)
RUN_COUNT(nservers)

/* The warm-up (engine/engine_warmup.c): undefined when the run never left it. */
static double v_warmup_us(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->warmup_ended ? (double)run->warmup_us : NAN;
}

static double v_warmup_regions(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->warmup_ended ? (double)run->warmup_regions : NAN;
}

static double v_warmup_write_max_mean(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->warmup_us ? stats_warmup_writes(run).max_mean : NAN;
}

/* The regime measured: the table when the measured span began and ended. */
static double v_rps_start(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return stats_regions_per_server_start(run);
}

static double v_rps_end(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return stats_regions_per_server_end(run);
}

static double v_table_bytes_start(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return (double)run->bytes_start;
}

/* Rates need simulated time: a run that covered none has none. */
static double v_offered(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->duration_us ? run->offered_per_s : NAN;
}

static double v_achieved(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->duration_us ? run->achieved_per_s : NAN;
}

/* Key lengths: undefined until a key was seen. */
static double v_key_bytes_min(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->key_bytes_max ? (double)run->key_bytes_min : NAN;
}

static double v_key_bytes_mean(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->key_bytes_max ? run->key_bytes_mean : NAN;
}

static double v_key_bytes_max(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return run->key_bytes_max ? (double)run->key_bytes_max : NAN;
}

/* Imbalance of the servers' writes or reads: one function per statistic. */
#define IMBALANCE(stat)                                                                        \
    static double v_write_##stat(const run_result *run, int kind, size_t index)               \
    {                                                                                          \
        UNUSED_ARGS;                                                                           \
        return stats_server_writes(run).stat;                                                  \
    }                                                                                          \
    static double v_read_##stat(const run_result *run, int kind, size_t index)                \
    {                                                                                          \
        UNUSED_ARGS;                                                                           \
        return stats_server_reads(run).stat;                                                   \
    }
IMBALANCE(max_mean)
IMBALANCE(cov)
IMBALANCE(gini)
IMBALANCE(jain)
IMBALANCE(hottest_share)

static double v_window_mean(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return stats_window_writes(run).mean_max_mean;
}

static double v_window_worst(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return stats_window_writes(run).worst_max_mean;
}

static double v_window_count(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return (double)stats_window_writes(run).windows;
}

static double v_steady(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return stats_steady(run).steady ? 1 : 0;
}

/* Latency quantiles of a summary, NAN when nothing was timed. */
enum { LAT_MEAN, LAT_P50, LAT_P99, LAT_P999, LAT_MAX };

static double latency_of(const latency_summary *l, int which)
{
    if (l->count == 0)
        return NAN;
    switch (which) {
    case LAT_MEAN: return l->mean_us;
    case LAT_P50: return (double)l->p50_us;
    case LAT_P99: return (double)l->p99_us;
    case LAT_P999: return (double)l->p999_us;
    default: return (double)l->max_us;
    }
}

#define LATENCY(name, which)                                                                   \
    static double v_##name(const run_result *run, int kind, size_t index)                     \
    {                                                                                          \
        UNUSED_ARGS;                                                                           \
        return latency_of(&run->latency, which);                                               \
    }                                                                                          \
    static double v_read_##name(const run_result *run, int kind, size_t index)                \
    {                                                                                          \
        UNUSED_ARGS;                                                                           \
        return latency_of(&run->read_latency, which);                                          \
    }                                                                                          \
    static double v_server_##name(const run_result *run, int kind, size_t index)              \
    {                                                                                          \
        (void)kind;                                                                            \
        return index < run->nservers ? latency_of(&run->servers[index].latency, which) : NAN; \
    }
LATENCY(mean, LAT_MEAN)
LATENCY(p50, LAT_P50)
LATENCY(p99, LAT_P99)
LATENCY(p999, LAT_P999)
LATENCY(max, LAT_MAX)

static double v_read_rpcs(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return (double)stats_read_rpcs(run);
}

/* Read cost: kind < 0 (a scheme figure) is every kind, else a family's. */
static double v_rpcs_per_read(const run_result *run, int kind, size_t index)
{
    (void)index;
    return stats_rpcs_per_read(run, kind);
}

static double v_rows_per_record(const run_result *run, int kind, size_t index)
{
    (void)index;
    return stats_rows_per_record(run, kind);
}

static double v_busiest(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return stats_busiest(run);
}

static double v_overloaded(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return verdict_overloaded(run) ? 1 : 0;
}

static double v_longest_queue(const run_result *run, int kind, size_t index)
{
    UNUSED_ARGS;
    return (double)stats_longest_queue(run);
}

/* A family member: one of the run's by-kind counters. */
#define BY_KIND(field)                                                                         \
    static double v_##field(const run_result *run, int kind, size_t index)                    \
    {                                                                                          \
        (void)index;                                                                           \
        assert(kind >= 0 && kind < QUERY_KINDS);                                               \
        return (double)run->field[kind];                                                       \
    }
BY_KIND(reads_by_kind)
BY_KIND(read_rpcs_by_kind)
BY_KIND(rows_scanned_by_kind)
BY_KIND(records_returned_by_kind)

static double v_read_share(const run_result *run, int kind, size_t index)
{
    (void)index;
    assert(kind >= 0 && kind < QUERY_KINDS);
    return stats_per(run->reads_by_kind[kind], run->reads);
}

/* A server's counter; NAN for an index past the servers. */
#define SERVER_COUNT(field)                                                                    \
    static double v_server_##field(const run_result *run, int kind, size_t index)             \
    {                                                                                          \
        (void)kind;                                                                            \
        return index < run->nservers ? (double)run->servers[index].field : NAN;               \
    }
SERVER_COUNT(writes)
SERVER_COUNT(reads)
SERVER_COUNT(rows_scanned)
SERVER_COUNT(bytes)
SERVER_COUNT(regions)
SERVER_COUNT(rpcs)
SERVER_COUNT(busy)
SERVER_COUNT(longest_queue)

/* A server's share of the run's writes (reads); NAN when there were none.
 * The total is a plain sum (no sort: stats_server_writes would sort every
 * server's counts for each server, which made a report quadratic). */
static double v_server_write_share(const run_result *run, int kind, size_t index)
{
    (void)kind;
    if (index >= run->nservers)
        return NAN;
    return stats_per(run->servers[index].writes, stats_server_writes_total(run));
}

static double v_server_read_share(const run_result *run, int kind, size_t index)
{
    (void)kind;
    if (index >= run->nservers)
        return NAN;
    return stats_per(run->servers[index].reads, stats_server_reads_total(run));
}

/* ---- the table ---- */

#define LOWER FIGURE_LOWER_BETTER
#define HIGHER FIGURE_HIGHER_BETTER
#define NEITHER FIGURE_NEITHER

#define FIG(name, unit, better, decimals, fn, meaning)                                         \
    { name, unit, meaning, FIGURE_SCHEME, better, -1, fn, decimals },
#define SERVER(name, unit, better, decimals, fn, meaning)                                      \
    { "server_" name, unit, meaning, FIGURE_SERVER, better, -1, fn, decimals },
#define FAMILY_MEMBER(k, kname, prefix, unit, better, decimals, fn, meaning)                   \
    { prefix kname, unit, meaning ": " kname ".", FIGURE_SCHEME, better, k, fn, decimals },
#define FAMILY(prefix, unit, better, decimals, fn, meaning)                                    \
    READ_KINDS(FAMILY_MEMBER, prefix, unit, better, decimals, fn, meaning)

static const figure FIGURES[] = {
    /* what ran */
    FIG("writes", "count", NEITHER, 0, v_writes, "Writes issued in the measured run.")
    FIG("reads", "count", NEITHER, 0, v_reads, "Logical reads issued in the measured run.")
    FIG("servers", "count", NEITHER, 0, v_nservers, "Region servers the run reports on (those that joined during it included).")
    FIG("duration_us", "us", NEITHER, 0, v_duration_us, "Simulated time the run covered, warm-up included.")
    FIG("measure_from_us", "us", NEITHER, 0, v_measure_from_us,
        "When the measured run began: operations before it are in no figure (measure_from = auto: "
        "the end of the warm-up; 0 when the run never left it).")
    FIG("warmup_us", "us", NEITHER, 0, v_warmup_us,
        "When the warm-up (the growing table) ended: the first balancer run at which the table had a "
        "region per online server (balancer none: the first such moment; 0: pre-split into a region "
        "a server); undefined when the run never left it.")
    FIG("warmup_regions", "count", NEITHER, 0, v_warmup_regions,
        "Regions when the warm-up ended; undefined when the run never left it.")
    FIG("warmup_write_max_mean", "", NEITHER, 2, v_warmup_write_max_mean,
        "Writes of the busiest server over the mean server's during the warm-up (the whole run when "
        "it never ended); undefined when there was none (pre-split).")
    FIG("regions_per_server_start", "", NEITHER, 2, v_rps_start,
        "Regions per online server when the measured run began.")
    FIG("regions_per_server_end", "", NEITHER, 2, v_rps_end,
        "Regions per online server at the end of the run.")
    FIG("table_bytes_start", "bytes", NEITHER, 0, v_table_bytes_start,
        "Cell bytes the table stored when the measured run began (bytes: at the end).")

    /* where the writes land */
    FIG("write_max_mean", "", LOWER, 2, v_write_max_mean,
        "Writes of the busiest server over the mean server's: 1 = even, the server count = all on one.")
    FIG("write_cov", "", LOWER, 2, v_write_cov,
        "Coefficient of variation of the servers' writes: 0 = even.")
    FIG("write_gini", "", LOWER, 2, v_write_gini,
        "Gini coefficient of the servers' writes: 0 = even, (n-1)/n = all on one.")
    FIG("write_jain", "", HIGHER, 2, v_write_jain,
        "Jain's fairness index of the servers' writes: 1 = even, 1/n = all on one.")
    FIG("hottest_share", "share", LOWER, 3, v_write_hottest_share,
        "The busiest server's share of the writes.")
    FIG("write_window_max_mean", "", LOWER, 2, v_window_mean,
        "Mean over the measured report windows of the servers' write max/mean in each.")
    FIG("write_worst_window_max_mean", "", LOWER, 2, v_window_worst,
        "The largest write max/mean of any measured report window.")
    FIG("write_windows", "count", NEITHER, 0, v_window_count,
        "Measured report windows with at least one write (the window figures' windows).")
    FIG("steady", "", HIGHER, 0, v_steady,
        "1 when the run reached a steady state in its last quarter, 0 when regions still grew "
        "or the hotspot still moved.")

    /* where the reads land */
    FIG("read_max_mean", "", LOWER, 2, v_read_max_mean,
        "Read RPCs of the busiest server over the mean server's: 1 = even.")
    FIG("read_cov", "", LOWER, 2, v_read_cov,
        "Coefficient of variation of the servers' read RPCs: 0 = even.")
    FIG("read_gini", "", LOWER, 2, v_read_gini, "Gini coefficient of the servers' read RPCs: 0 = even.")
    FIG("read_jain", "", HIGHER, 2, v_read_jain,
        "Jain's fairness index of the servers' read RPCs: 1 = even.")
    FIG("read_hottest_share", "share", LOWER, 3, v_read_hottest_share,
        "The busiest server's share of the read RPCs.")

    /* regions and the cluster */
    FIG("regions_start", "count", NEITHER, 0, v_regions_start, "Regions when the run began (pre-split).")
    FIG("regions", "count", NEITHER, 0, v_regions, "Regions at the end of the run.")
    FIG("splits", "count", NEITHER, 0, v_splits, "Region splits during the run.")
    FIG("moves", "count", NEITHER, 0, v_moves, "Regions the balancer moved.")
    FIG("balancer_runs", "count", NEITHER, 0, v_balancer_runs, "Balancer runs (whether they moved regions or not).")
    FIG("servers_added", "count", NEITHER, 0, v_servers_added, "Servers that joined during the run.")
    FIG("decommissions", "count", NEITHER, 0, v_decommissions, "Servers decommissioned during the run.")
    FIG("failures", "count", NEITHER, 0, v_failures, "Servers that failed during the run.")
    FIG("reassigned", "count", NEITHER, 0, v_reassigned,
        "Regions reopened elsewhere after a decommission or failure.")

    /* what is stored */
    FIG("rows", "count", NEITHER, 0, v_rows, "Distinct row keys stored at the end.")
    FIG("bytes", "bytes", NEITHER, 0, v_bytes, "Cell bytes stored at the end.")
    FIG("key_bytes_min", "bytes", NEITHER, 0, v_key_bytes_min, "The shortest row key written.")
    FIG("key_bytes_mean", "bytes", LOWER, 1, v_key_bytes_mean, "Mean row key length.")
    FIG("key_bytes_max", "bytes", NEITHER, 0, v_key_bytes_max, "The longest row key written.")

    /* throughput and latency */
    FIG("offered_ops_per_s", "ops/s", NEITHER, 0, v_offered, "Operations issued per simulated second.")
    FIG("achieved_ops_per_s", "ops/s", HIGHER, 0, v_achieved,
        "Operations completed within the measured run per simulated second (those that "
        "arrived before it included).")
    FIG("unfinished", "count", LOWER, 0, v_unfinished, "Operations still queued when the run ended.")
    FIG("left_out", "count", NEITHER, 0, v_left_out,
        "Trace operations after a phase's duration: never issued.")
    FIG("busiest_busy", "share", LOWER, 3, v_busiest,
        "The most loaded server's service time over the run time (over 1: more than it can do).")
    FIG("overloaded", "", LOWER, 0, v_overloaded,
        "1 when the run was overloaded (busiest_busy over 1, or achieved under 99% of offered), "
        "0 when not.")
    FIG("longest_queue", "count", LOWER, 0, v_longest_queue, "Most RPCs in one server at once.")
    FIG("mean_latency_us", "us", LOWER, 0, v_mean,
        "Mean latency of every operation, arrival to reply (queueing and offline regions included).")
    FIG("p50_latency_us", "us", LOWER, 0, v_p50, "Median latency of every operation.")
    FIG("p99_latency_us", "us", LOWER, 0, v_p99, "99th percentile latency of every operation.")
    FIG("p999_latency_us", "us", LOWER, 0, v_p999, "99.9th percentile latency of every operation.")
    FIG("max_latency_us", "us", LOWER, 0, v_max, "The longest latency of any operation.")
    FIG("read_mean_latency_us", "us", LOWER, 0, v_read_mean, "Mean latency of logical reads.")
    FIG("read_p50_latency_us", "us", LOWER, 0, v_read_p50, "Median latency of logical reads.")
    FIG("read_p99_latency_us", "us", LOWER, 0, v_read_p99, "99th percentile latency of logical reads.")
    FIG("read_p999_latency_us", "us", LOWER, 0, v_read_p999, "99.9th percentile latency of logical reads.")
    FIG("read_max_latency_us", "us", LOWER, 0, v_read_max, "The longest latency of any logical read.")

    /* what reads cost */
    FIG("read_rpcs", "count", NEITHER, 0, v_read_rpcs,
        "Read RPCs sent: one per region a read's planned ranges touch.")
    FIG("rpcs_per_read", "", LOWER, 2, v_rpcs_per_read, "RPCs per logical read: one per region a read's planned ranges touch.")
    FIG("rows_scanned", "count", NEITHER, 0, v_rows_scanned, "Rows the reads read from the stores.")
    FIG("records_returned", "count", NEITHER, 0, v_records_returned,
        "Records the reads should return (what the workload wrote in their ranges).")
    FIG("rows_scanned_per_row", "", LOWER, 2, v_rows_per_record,
        "Rows read per record returned: 1 = no waste.")
    FIG("full_scans", "count", LOWER, 0, v_full_scans, "Reads the key order could not serve: whole-table scans.")

    /* what reads cost, by kind */
    FAMILY("reads_", "count", NEITHER, 0, v_reads_by_kind, "Logical reads of the kind")
    FAMILY("read_share_", "share", NEITHER, 3, v_read_share, "The kind's share of the logical reads")
    FAMILY("read_rpcs_", "count", NEITHER, 0, v_read_rpcs_by_kind, "Read RPCs the kind's reads sent")
    FAMILY("rpcs_per_read_", "", LOWER, 2, v_rpcs_per_read, "RPCs per logical read of the kind")
    FAMILY("rows_scanned_", "count", NEITHER, 0, v_rows_scanned_by_kind, "Rows the kind's reads read")
    FAMILY("records_returned_", "count", NEITHER, 0, v_records_returned_by_kind,
           "Records the kind's reads should return")
    FAMILY("rows_scanned_per_row_", "", LOWER, 2, v_rows_per_record,
           "Rows read per record returned by the kind's reads: 1 = no waste")

    /* one server */
    SERVER("writes", "count", NEITHER, 0, v_server_writes, "Cells written to regions the server hosted.")
    SERVER("write_share", "share", LOWER, 3, v_server_write_share, "The server's share of the writes.")
    SERVER("reads", "count", NEITHER, 0, v_server_reads, "Read RPCs the server served.")
    SERVER("read_share", "share", LOWER, 3, v_server_read_share, "The server's share of the read RPCs.")
    SERVER("rows_scanned", "count", NEITHER, 0, v_server_rows_scanned, "Rows the server read for reads.")
    SERVER("bytes", "bytes", NEITHER, 0, v_server_bytes, "Cell bytes written to the server's regions.")
    SERVER("regions", "count", NEITHER, 0, v_server_regions, "Regions the server hosted at the end.")
    SERVER("rpcs", "count", NEITHER, 0, v_server_rpcs, "RPCs the server served.")
    SERVER("busy", "share", LOWER, 3, v_server_busy,
           "The server's service time over the run time (over 1: overloaded).")
    SERVER("longest_queue", "count", LOWER, 0, v_server_longest_queue, "Most RPCs in the server at once.")
    SERVER("mean_latency_us", "us", LOWER, 0, v_server_mean, "Mean latency of the server's RPCs.")
    SERVER("p50_latency_us", "us", LOWER, 0, v_server_p50, "Median latency of the server's RPCs.")
    SERVER("p99_latency_us", "us", LOWER, 0, v_server_p99, "99th percentile latency of the server's RPCs.")
    SERVER("p999_latency_us", "us", LOWER, 0, v_server_p999,
           "99.9th percentile latency of the server's RPCs.")
    SERVER("max_latency_us", "us", LOWER, 0, v_server_max, "The longest latency of any of the server's RPCs.")
};

#define NFIGURES (sizeof FIGURES / sizeof FIGURES[0])

size_t figure_count(void) { return NFIGURES; }

const figure *figure_get(size_t i) { return i < NFIGURES ? &FIGURES[i] : NULL; }

size_t figure_index(const figure *f)
{
    assert(f >= FIGURES && f < FIGURES + NFIGURES);
    return (size_t)(f - FIGURES);
}

/* The first figure of `scope` at or after FIGURES[i], or NULL. */
static const figure *first_from(size_t i, figure_scope scope)
{
    for (; i < NFIGURES; i++)
        if (FIGURES[i].scope == scope)
            return &FIGURES[i];
    return NULL;
}

const figure *figure_first(figure_scope scope) { return first_from(0, scope); }

const figure *figure_next(const figure *f)
{
    assert(f >= FIGURES && f < FIGURES + NFIGURES);
    return first_from((size_t)(f - FIGURES) + 1, f->scope);
}

/* 20 seeds (42..61) of `regionsim compare` on the default scenario,
 * every scheme: the figures whose range stays within 10% of the median in
 * every scheme, and those that move more in some. Every other scheme
 * figure the default exercises was the same in all 20 (fixed); the read
 * figures it does not exercise. Measured at issue 28 with HBase's own
 * inputs drawn from each seed (the balancer's phase, start codes, where
 * hbase:meta opens) and the stochastic balancer, again at issue 29 once
 * splits waited for memstore flushes and the compacted-file discharger,
 * and at issue 30 once the default became a month at HBase's sizes, run
 * weighted (w = 283): the region and split counts move now (revdomain
 * 16-21 regions: regions of 10 GiB split in generations), the p99 is the
 * fluid model's and fixed, and the counts of writes, rows and bytes are
 * expectations of the sampled run, robust. docs/figures.md gives the
 * ranges. A figure added later is unmeasured until it is. A single seed
 * that lands two hot regions together (salted 1.77 in one of 20) is
 * enough to make a figure move. */
static const char *const SEEDS_ROBUST[] = {
    "writes", "rows", "bytes", "write_windows", "mean_latency_us", "p999_latency_us",
};
static const char *const SEEDS_MOVES[] = {
    "measure_from_us", "warmup_us", "warmup_write_max_mean", "table_bytes_start",
    "write_max_mean", "write_cov", "write_gini", "write_jain", "hottest_share",
    "write_window_max_mean", "write_worst_window_max_mean", "steady", "moves", "busiest_busy",
    "max_latency_us", "regions", "splits", "regions_per_server_end", "longest_queue",
};
static const char *const SEEDS_FIXED[] = {
    "servers", "duration_us", "regions_start", "regions_per_server_start", "warmup_regions",
    "balancer_runs", "servers_added", "decommissions", "failures", "reassigned",
    "key_bytes_min", "key_bytes_mean", "key_bytes_max", "unfinished", "left_out", "overloaded",
    "p50_latency_us", "p99_latency_us", "offered_ops_per_s", "achieved_ops_per_s",
};

static int named_in(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

figure_seeds figure_seed_class(const figure *f)
{
#define IN(list) named_in(f->name, list, sizeof list / sizeof *list)
    if (f->scope != FIGURE_SCHEME)
        return FIGURE_SEEDS_UNMEASURED;
    if (IN(SEEDS_ROBUST))
        return FIGURE_SEEDS_ROBUST;
    if (IN(SEEDS_MOVES))
        return FIGURE_SEEDS_MOVES;
    if (IN(SEEDS_FIXED))
        return FIGURE_SEEDS_FIXED;
    return FIGURE_SEEDS_UNMEASURED;
#undef IN
}

const char *figure_seeds_name(figure_seeds s)
{
    switch (s) {
    case FIGURE_SEEDS_FIXED: return "fixed";
    case FIGURE_SEEDS_ROBUST: return "robust";
    case FIGURE_SEEDS_MOVES: return "moves";
    case FIGURE_SEEDS_UNMEASURED: break;
    }
    return "-";
}

const figure *figure_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < NFIGURES; i++)
        if (strcmp(FIGURES[i].name, name) == 0)
            return &FIGURES[i];
    return NULL;
}

double figure_value(const figure *f, const run_result *run, size_t index)
{
    assert(f && run);
    return f->value(run, f->kind, f->scope == FIGURE_SCHEME ? 0 : index);
}

double figure_named(const char *name, const run_result *run, size_t index)
{
    const figure *f = figure_find(name);
    assert(f && "figure_named: a name the registry has");
    return f ? figure_value(f, run, index) : NAN;
}

const char *figure_scope_name(figure_scope scope)
{
    switch (scope) {
    case FIGURE_SCHEME: return "scheme";
    case FIGURE_SERVER: return "server";
    }
    return "?";
}

const char *figure_better_name(figure_better better)
{
    switch (better) {
    case FIGURE_LOWER_BETTER: return "lower";
    case FIGURE_HIGHER_BETTER: return "higher";
    case FIGURE_NEITHER: return "neither";
    }
    return "?";
}

/* ---- did you mean ---- */

const char *figure_nearest(const char *name)
{
    if (!name)
        return NULL;
    nearest n = nearest_start(name, nearest_limit(name), 0);
    for (size_t i = 0; i < NFIGURES; i++)
        nearest_offer(&n, FIGURES[i].name);
    return n.best;
}
