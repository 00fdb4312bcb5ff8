/* stats.h -- derived figures the report writers share.
 *
 * Everything here is a pure function of a sim_results (or of a plain vector
 * of counts): the writers never compute a figure themselves, so the text and
 * JSON reports can never disagree. Reports run once per run, so these
 * functions favour clarity over speed (stats_imbalance sorts a copy).
 *
 * Undefined figures (all counts zero, no simulated time, no window with a
 * write) are NAN and, where a struct carries one, its `defined` flag is 0:
 * text prints "-", JSON prints null.
 */
#ifndef REGIONSIM_STATS_H
#define REGIONSIM_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/result.h"

/* How unevenly n counts (one per server) are spread. */
typedef struct imbalance {
    int defined;          /* 0 if n == 0 or every count is 0: doubles are NAN */
    uint64_t total, max;
    double mean;          /* total / n */
    double max_mean;      /* max / mean: 1 = even, n = all on one */
    double cov;           /* population standard deviation / mean: 0 = even */
    double gini;          /* 0 = even, (n-1)/n = all on one */
    double jain;          /* (sum x)^2 / (n sum x^2): 1 = even, 1/n = all on one */
    uint32_t hottest;     /* index of the largest count (lowest on ties) */
    double hottest_share; /* max / total */
} imbalance;

/* The imbalance of x[0..n). x may be NULL when n is 0. Aborts with a message
 * if a scratch copy cannot be allocated (the writers cannot report errors). */
imbalance stats_imbalance(const uint64_t *x, size_t n);

/* The imbalance of a run's per-server writes / reads (sorts a copy of
 * the counts for the Gini: O(n log n); call it once per figure and run). */
imbalance stats_server_writes(const run_result *run);
imbalance stats_server_reads(const run_result *run);

/* The imbalance of a run's per-server writes during its warm-up (the whole
 * run when it never ended: run->warmup_ended 0), over the same servers as
 * stats_server_writes. */
imbalance stats_warmup_writes(const run_result *run);

/* Regions per online server when the measured span began, and at the end
 * of the run (NAN without servers). */
double stats_regions_per_server_start(const run_result *run);
double stats_regions_per_server_end(const run_result *run);

/* The sum of a run's per-server writes / reads: stats_server_writes(run)
 * .total without the sort (one pass, O(n)), for a server's share. */
uint64_t stats_server_writes_total(const run_result *run);
uint64_t stats_server_reads_total(const run_result *run);

/* Per-window max/mean of a windows x servers matrix (row w = window w). */
typedef struct window_stats {
    uint32_t windows;      /* windows with at least one write */
    double mean_max_mean;  /* mean of max/mean over those windows, or NAN */
    double worst_max_mean; /* the largest max/mean among them, or NAN */
} window_stats;

window_stats stats_windows(const uint64_t *matrix, uint32_t nwindows, uint32_t nservers);

/* The first window that starts at or after the run's measure_from (the
 * windows window figures use); nwindows if none does. */
uint32_t stats_first_measured_window(const run_result *run);

/* stats_windows over the run's window_writes from the first measured window. */
window_stats stats_window_writes(const run_result *run);

/* The window statistics of a run's writes (reads nonzero: read RPCs) over
 * windows [first, nwindows), from its matrix or, when the run was reduced
 * (run->digest.present), from the digest's per-window totals and maxima:
 * the same values either way. No counts of that kind: windows 0, NANs. */
window_stats stats_run_windows(const run_result *run, int reads, uint32_t first);

/* Whether the run has window counts of writes (reads nonzero: read RPCs),
 * as a matrix or in its digest. */
int stats_has_window_counts(const run_result *run, int reads);

/* Window w's total and largest count over the servers, of writes or (reads
 * nonzero) read RPCs, from the matrix or the digest; 0 and 0 without counts. */
void stats_window_total_max(const run_result *run, int reads, uint32_t w, uint64_t *total,
                            uint64_t *max);

/* Whether the measured run reached a steady state, judged on its last
 * quarter (whole report windows from the first measured one; a run of
 * fewer than 4 is not judged): not steady when the regions grew by more
 * than STATS_STEADY_GROWTH over it, or when the server taking the most
 * writes in it is not the one that took the most in the quarter before,
 * while the writes are uneven (its max/mean at least STATS_STEADY_HOTSPOT:
 * a hotspot that still travels, not the noise between even servers). */
#define STATS_STEADY_GROWTH 0.10
#define STATS_STEADY_HOTSPOT 1.5
typedef struct steady_state {
    int steady;
    uint64_t span_us;                  /* the last quarter's length */
    uint64_t regions_before, regions_after; /* regions at its start and end */
    int hottest_moved;                 /* the second reason */
    uint32_t hottest_before, hottest_after; /* server indices */
} steady_state;

steady_state stats_steady(const run_result *run);

/* The verdict in one line for a human, e.g. "not steady: regions grew 38%
 * in the last 30 min", or "" when steady; into out (cap bytes). */
void stats_steady_note(const run_result *run, const steady_state *st, char *out, size_t cap);

/* The sampled store's note for a human, e.g. "sampled (store = auto: the
 * exact store would not fit in memory), at most 256 rows sampled a region:
 * row counts, rows read and read costs are estimates", or "" with the
 * exact store; into out (cap bytes). Text and HTML print it as is. */
/* The engine line of the reports: empty for per-op runs, else the weight
 * and the fluid model (scenario/weighting.h), whether auto chose it. */
void stats_engine_note(const sim_results *res, char *out, size_t cap);

void stats_store_note(const sim_results *res, char *out, size_t cap);

/* The run's n hottest regions (of run->history) by writes, then reads,
 * then key order: their indices into run->history in idx[0..k), k =
 * min(n, nhistory) returned. Regions with no writes and no reads are left
 * out, so fewer may come back. */
size_t stats_top_regions(const run_result *run, size_t n, size_t *idx);

/* Read RPCs the run's regions served (the sum over run->history), the
 * total that region read shares are of. */
uint64_t stats_region_read_rpcs(const run_result *run);

/* Writes the run's regions took (the sum over run->history: the whole run,
 * warm-up included), the total that region write shares are of. */
uint64_t stats_region_writes(const run_result *run);

/* Read RPCs of every kind (the sum of read_rpcs_by_kind). */
uint64_t stats_read_rpcs(const run_result *run);

/* n / d, or NAN when d is 0 (a figure per something that never happened). */
double stats_per(uint64_t n, uint64_t d);

/* RPCs per logical read, and rows scanned per record returned, of the
 * reads of one kind (query_kind), or of every kind when kind < 0; NAN when
 * no read (no record) of it. */
double stats_rpcs_per_read(const run_result *run, int kind);
double stats_rows_per_record(const run_result *run, int kind);

/* The busiest server's utilisation and the longest queue any server had
 * (0 for a run without servers). */
double stats_busiest(const run_result *run);
uint64_t stats_longest_queue(const run_result *run);

/* The largest cell of a heatmap matrix of `cells` counts (0 when empty). */
uint64_t stats_matrix_max(const uint64_t *m, size_t cells);

/* How the measured span was chosen, for a human, e.g. "from the end of
 * each run's warm-up (measure_from = auto): the first balancer run at
 * which its table had a region per server"; into out (cap bytes). */
void stats_measured_note(const sim_results *res, char *out, size_t cap);

/* A run's warm-up in one phrase: "warm-up (the growing table) 0-10 min: 10
 * regions on 8 servers at its end, write max/mean 3.00 during it", "no
 * warm-up: ..." (pre-split) or "never left the warm-up: ..."; into out. */
void stats_warmup_note(const run_result *run, char *out, size_t cap);

/* The regime a run's figures measured, in one phrase: "measured 10 min-30
 * min (the table 10 min old at its start): 1.25 -> 4.12 regions per
 * server, 22.8 MiB -> 66.9 MiB stored"; into out. */
void stats_regime_note(const run_result *run, char *out, size_t cap);

/* The largest cell over every run's heatmaps of one kind, so that panels
 * share one colour scale: `which` is STATS_SERVER_WRITES ... */
/* A timeline kind's name in reports ("split", "move", "reassign",
 * "servers_added", "decommission", "failure") and which server fields of
 * its events mean something. NULL for a kind out of range. */
typedef struct timeline_kind_info {
    const char *name;
    int uses_from, uses_to;
    int server_event;     /* servers joined or left (rare: listed one by one) */
} timeline_kind_info;

/* Whether the kind is a server event (added, decommissioned, failed). */
int stats_is_server_event(timeline_kind kind);
const timeline_kind_info *stats_timeline_kind(timeline_kind kind);

enum { STATS_SERVER_WRITES, STATS_SERVER_READS, STATS_KEY_WRITES, STATS_KEY_READS };
uint64_t stats_shared_max(const sim_results *res, int which);

/* The mean cell over every run's heatmap of one kind (`which` as for
 * stats_shared_max): the sum of every run's counts of that kind divided by
 * the sum of its rows x windows (servers or key buckets; zero cells
 * included; for reads, only the runs that read), so the even share of one
 * server (or bucket) in one window across the page. 0 when no run has a
 * cell of that kind. The HTML report
 * centres its colour scales on it. */
double stats_shared_mean(const sim_results *res, int which);


#endif
