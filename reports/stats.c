/* stats.c -- imbalance metrics, window statistics, throughput.
 *
 * Design: every metric is computed in double from exact uint64 sums, in a
 * fixed order, with only IEEE-exact operations (+ - * / sqrt), so the same
 * counts give the same bits on any machine and the JSON output stays
 * byte-identical. Gini uses the sorted-values formula
 *     G = 2 * sum_i (i * x_(i)) / (n * sum x) - (n + 1) / n,  i = 1..n,
 * x_(i) ascending: O(n log n) for a sorted copy instead of the O(n^2) mean
 * absolute difference. Reports run once per run, so one malloc'd copy per
 * call is not worth avoiding.
 */
#include "reports/stats.h"

#include "reports/format.h"
#include "engine/result.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* n counts of scratch. Out of memory ends the program with a message and
 * exit status 2 (the writers have no way to report errors; the report is
 * rendered to an unnamed temporary file before the output is touched, so none is left
 * half-written). */
static uint64_t *alloc_counts(size_t n)
{
    uint64_t *p = malloc(n * sizeof *p);
    if (!p) {
        fprintf(stderr, "regionsim: out of memory computing report statistics\n");
        exit(2);
    }
    return p;
}

static imbalance undefined_imbalance(void)
{
    imbalance im = { 0, 0, 0, NAN, NAN, NAN, NAN, NAN, 0, NAN };
    return im;
}

/* Gini of n counts summing to total > 0. */
static double gini_of(const uint64_t *x, size_t n, uint64_t total)
{
    uint64_t *sorted = alloc_counts(n);
    for (size_t i = 0; i < n; i++) sorted[i] = x[i];
    qsort(sorted, n, sizeof *sorted, compare_u64);

    double weighted = 0;
    for (size_t i = 0; i < n; i++) weighted += (double)(i + 1) * (double)sorted[i];
    free(sorted);

    double dn = (double)n;
    double g = 2.0 * weighted / (dn * (double)total) - (dn + 1.0) / dn;
    return g < 0 ? 0 : g; /* rounding can dip a hair below 0 for equal counts */
}

imbalance stats_imbalance(const uint64_t *x, size_t n)
{
    imbalance im = undefined_imbalance();
    assert(x || n == 0);
    if (n == 0) return im;

    for (size_t i = 0; i < n; i++) {
        im.total += x[i];
        if (x[i] > im.max) {
            im.max = x[i];
            im.hottest = (uint32_t)i;
        }
    }
    if (im.total == 0) return im;

    double dn = (double)n, total = (double)im.total;
    double sq_dev = 0, sq_sum = 0;
    im.mean = total / dn;
    for (size_t i = 0; i < n; i++) {
        double d = (double)x[i] - im.mean;
        sq_dev += d * d;
        sq_sum += (double)x[i] * (double)x[i];
    }
    im.defined = 1;
    im.max_mean = (double)im.max / im.mean;
    im.cov = sqrt(sq_dev / dn) / im.mean;
    im.gini = gini_of(x, n, im.total);
    im.jain = total * total / (dn * sq_sum);
    im.hottest_share = (double)im.max / total;
    assert(im.max_mean >= 1.0 - 1e-9 && im.jain <= 1.0 + 1e-9);
    return im;
}

/* The server counts picked by `reads` (0 = writes, 2 = writes during the
 * warm-up), as a malloc'd vector. */
static imbalance server_imbalance(const run_result *run, int reads)
{
    if (run->nservers == 0) return undefined_imbalance();
    uint64_t *x = alloc_counts(run->nservers);
    for (uint32_t s = 0; s < run->nservers; s++)
        x[s] = reads == 2 ? run->servers[s].warmup_writes
               : reads    ? run->servers[s].reads : run->servers[s].writes;
    imbalance im = stats_imbalance(x, run->nservers);
    free(x);
    return im;
}

imbalance stats_server_writes(const run_result *run) { return server_imbalance(run, 0); }
imbalance stats_server_reads(const run_result *run) { return server_imbalance(run, 1); }
imbalance stats_warmup_writes(const run_result *run) { return server_imbalance(run, 2); }

double stats_regions_per_server_start(const run_result *run)
{
    return stats_per(run->measure_regions, run->measure_servers);
}

double stats_regions_per_server_end(const run_result *run)
{
    return stats_per(run->regions, run->servers_end);
}

uint64_t stats_server_writes_total(const run_result *run)
{
    uint64_t total = 0;
    for (uint32_t s = 0; s < run->nservers; s++) total += run->servers[s].writes;
    return total;
}

uint64_t stats_server_reads_total(const run_result *run)
{
    uint64_t total = 0;
    for (uint32_t s = 0; s < run->nservers; s++) total += run->servers[s].reads;
    return total;
}

/* Adds one window (its total and largest count over nservers servers) to
 * a window_stats under way: sum and worst accumulate its max/mean. */
static void add_window(window_stats *ws, double *sum, double *worst, uint64_t total,
                       uint64_t max, uint32_t nservers)
{
    if (total == 0) return;
    double max_mean = (double)max * nservers / (double)total;
    *sum += max_mean;
    if (max_mean > *worst) *worst = max_mean;
    ws->windows++;
}

static void finish_windows(window_stats *ws, double sum, double worst)
{
    if (ws->windows > 0) {
        ws->mean_max_mean = sum / ws->windows;
        ws->worst_max_mean = worst;
    }
}

window_stats stats_windows(const uint64_t *matrix, uint32_t nwindows, uint32_t nservers)
{
    window_stats ws = { 0, NAN, NAN };
    double sum = 0, worst = 0;
    assert(matrix || nwindows == 0 || nservers == 0);
    if (nservers == 0) return ws;

    for (uint32_t w = 0; w < nwindows; w++) {
        uint64_t total, max;
        window_total_max(matrix + (size_t)w * nservers, nservers, &total, &max);
        add_window(&ws, &sum, &worst, total, max, nservers);
    }
    finish_windows(&ws, sum, worst);
    return ws;
}

int stats_has_window_counts(const run_result *run, int reads)
{
    if (run->digest.present)
        return reads ? run->digest.reads : 1;
    return (reads ? run->window_reads : run->window_writes) != NULL;
}

window_stats stats_run_windows(const run_result *run, int reads, uint32_t first)
{
    const window_digest *d = &run->digest;
    if (!d->present) {
        const uint64_t *m = reads ? run->window_reads : run->window_writes;
        window_stats none = { 0, NAN, NAN };
        if (!m || run->nservers == 0 || first >= run->nwindows)
            return none;
        return stats_windows(m + (size_t)first * run->nservers, run->nwindows - first,
                             run->nservers);
    }
    window_stats ws = { 0, NAN, NAN };
    double sum = 0, worst = 0;
    const uint64_t *total = reads ? d->reads_total : d->writes_total;
    const uint64_t *max = reads ? d->reads_max : d->writes_max;
    for (uint32_t w = first; total && run->nservers && w < run->nwindows; w++)
        add_window(&ws, &sum, &worst, total[w], max[w], run->nservers);
    finish_windows(&ws, sum, worst);
    return ws;
}

void stats_window_total_max(const run_result *run, int reads, uint32_t w, uint64_t *total,
                            uint64_t *max)
{
    const window_digest *d = &run->digest;
    *total = *max = 0;
    if (d->present) {
        const uint64_t *t = reads ? d->reads_total : d->writes_total;
        const uint64_t *m = reads ? d->reads_max : d->writes_max;
        if (t) {
            *total = t[w];
            *max = m[w];
        }
        return;
    }
    const uint64_t *m = reads ? run->window_reads : run->window_writes;
    if (m)
        window_total_max(m + (size_t)w * run->nservers, run->nservers, total, max);
}

uint32_t stats_first_measured_window(const run_result *run)
{
    return window_first_measured(run->measure_from_us, run->window_us, run->nwindows);
}

window_stats stats_window_writes(const run_result *run)
{
    return stats_run_windows(run, 0, stats_first_measured_window(run));
}

steady_state stats_steady(const run_result *run)
{
    steady_state st = { .steady = 1 };
    uint32_t first = stats_first_measured_window(run), q3, q4;
    uint32_t q = window_quarters(run->nwindows, first, &q3, &q4);
    if (q == 0 || !run->window_regions || !stats_has_window_counts(run, 0))
        return st; /* too few windows to tell */
    st.span_us = (uint64_t)q * run->window_us;
    st.regions_before = q4 > 0 ? run->window_regions[q4 - 1] : run->regions_start;
    st.regions_after = run->window_regions[run->nwindows - 1];
    if (st.regions_before == 0 ||
        (double)st.regions_after > (double)st.regions_before * (1 + STATS_STEADY_GROWTH)) {
        st.steady = 0;
        return st;
    }
    if (run->nservers == 0)
        return st;
    imbalance before, after;
    if (run->digest.present) {
        assert(run->digest.quarter == q); /* reduced with the same measure_from */
        before = stats_imbalance(run->digest.quarter_before, run->nservers);
        after = stats_imbalance(run->digest.quarter_after, run->nservers);
    } else {
        uint64_t *x = alloc_counts(run->nservers);
        window_sum_rows(run->window_writes, run->nservers, q3, q4, x);
        before = stats_imbalance(x, run->nservers);
        window_sum_rows(run->window_writes, run->nservers, q4, run->nwindows, x);
        after = stats_imbalance(x, run->nservers);
        free(x);
    }
    if (before.defined && after.defined && before.hottest != after.hottest &&
        after.max_mean >= STATS_STEADY_HOTSPOT) {
        st.steady = 0;
        st.hottest_moved = 1;
        st.hottest_before = before.hottest;
        st.hottest_after = after.hottest;
    }
    return st;
}

/* Hotter first: more writes, then more reads, then the lower start key
 * (history order breaks the remaining ties: it is deterministic). */
static int hotter(const region_result *a, size_t ia, const region_result *b, size_t ib)
{
    if (a->writes != b->writes) return a->writes > b->writes;
    if (a->reads != b->reads) return a->reads > b->reads;
    return ia < ib;
}

size_t stats_top_regions(const run_result *run, size_t n, size_t *idx)
{
    size_t k = 0;
    for (size_t i = 0; i < run->nhistory; i++) {
        const region_result *r = &run->history[i];
        if (r->writes == 0 && r->reads == 0) continue;
        /* insertion into the sorted top-k */
        size_t at = k < n ? k++ : n;
        while (at > 0 && hotter(r, i, &run->history[idx[at - 1]], idx[at - 1])) {
            if (at < n) idx[at] = idx[at - 1];
            at--;
        }
        if (at < n) idx[at] = i;
    }
    return k;
}

uint64_t stats_region_read_rpcs(const run_result *run)
{
    uint64_t reads = 0;
    for (size_t i = 0; i < run->nhistory; i++) reads += run->history[i].reads;
    return reads;
}

uint64_t stats_region_writes(const run_result *run)
{
    uint64_t writes = 0;
    for (size_t i = 0; i < run->nhistory; i++) writes += run->history[i].writes;
    return writes;
}

uint64_t stats_matrix_max(const uint64_t *m, size_t cells)
{
    uint64_t max = 0;
    for (size_t i = 0; i < cells; i++)
        if (m[i] > max) max = m[i];
    return max;
}

uint64_t stats_shared_max(const sim_results *res, int which)
{
    uint64_t max = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        const run_result *run = &res->runs[r];
        const uint64_t *m;
        size_t cells;
        const window_digest *d = &run->digest;
        switch (which) {
        /* a reduced run's largest cell is the largest of its windows' maxima */
        case STATS_SERVER_WRITES:
            m = d->present ? d->writes_max : run->window_writes;
            cells = d->present ? run->nwindows : (size_t)run->nwindows * run->nservers;
            break;
        case STATS_SERVER_READS:
            m = d->present ? d->reads_max : run->window_reads;
            cells = d->present ? run->nwindows : (size_t)run->nwindows * run->nservers;
            break;
        case STATS_KEY_WRITES: m = run->keyspace.writes; cells = (size_t)run->nwindows * run->keyspace.nbuckets; break;
        default: m = run->keyspace.reads; cells = (size_t)run->nwindows * run->keyspace.nbuckets; break;
        }
        if (m) {
            uint64_t x = stats_matrix_max(m, cells);
            if (x > max) max = x;
        }
    }
    return max;
}

double stats_shared_mean(const sim_results *res, int which)
{
    double sum = 0, cells = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        const run_result *run = &res->runs[r];
        if ((which == STATS_SERVER_READS || which == STATS_KEY_READS) && run->reads == 0)
            continue; /* no read heatmap */
        if (which == STATS_SERVER_WRITES || which == STATS_SERVER_READS) {
            int reads = which == STATS_SERVER_READS;
            if (!stats_has_window_counts(run, reads))
                continue;
            for (uint32_t w = 0; w < run->nwindows; w++) {
                uint64_t total, max;
                stats_window_total_max(run, reads, w, &total, &max);
                sum += (double)total;
            }
            cells += (double)run->nwindows * run->nservers;
        } else {
            const uint64_t *m = which == STATS_KEY_WRITES ? run->keyspace.writes : run->keyspace.reads;
            size_t n = (size_t)run->nwindows * run->keyspace.nbuckets;
            if (!m)
                continue;
            for (size_t i = 0; i < n; i++)
                sum += (double)m[i];
            cells += (double)n;
        }
    }
    return cells > 0 ? sum / cells : 0;
}

const timeline_kind_info *stats_timeline_kind(timeline_kind kind)
{
    static const timeline_kind_info kinds[TIMELINE_KINDS] = {
        [TIMELINE_SPLIT] = { "split", 1, 0, 0 },
        [TIMELINE_MOVE] = { "move", 1, 1, 0 },
        [TIMELINE_REASSIGN] = { "reassign", 1, 1, 0 },
        [TIMELINE_SERVERS_ADDED] = { "servers_added", 1, 1, 1 },
        [TIMELINE_DECOMMISSION] = { "decommission", 1, 0, 1 },
        [TIMELINE_FAILURE] = { "failure", 1, 0, 1 },
        [TIMELINE_BALANCER] = { "balancer", 0, 0, 0 },
    };
    return (unsigned)kind < TIMELINE_KINDS ? &kinds[kind] : NULL;
}

int stats_is_server_event(timeline_kind kind)
{
    const timeline_kind_info *k = stats_timeline_kind(kind);
    return k && k->server_event;
}

uint64_t stats_read_rpcs(const run_result *run)
{
    uint64_t rpcs = 0;
    for (int k = 0; k < QUERY_KINDS; k++)
        rpcs += run->read_rpcs_by_kind[k];
    return rpcs;
}

void stats_steady_note(const run_result *run, const steady_state *st, char *out, size_t cap)
{
    char span[CELL];
    fmt_duration(span, st->span_us);
    if (st->steady)
        snprintf(out, cap, "%s", "");
    else if (st->hottest_moved)
        snprintf(out, cap, "not steady: the hottest server moved from %s to %s in the last %s",
                 run->servers[st->hottest_before].name, run->servers[st->hottest_after].name,
                 span);
    else if (st->regions_before == 0)
        snprintf(out, cap, "not steady: the table had no region before the last %s", span);
    else
        snprintf(out, cap, "not steady: regions grew %.0f%% in the last %s",
                 100.0 * ((double)st->regions_after / (double)st->regions_before - 1), span);
}

double stats_per(uint64_t n, uint64_t d)
{
    return d ? (double)n / (double)d : NAN;
}

double stats_rpcs_per_read(const run_result *run, int kind)
{
    if (kind < 0)
        return stats_per(stats_read_rpcs(run), run->reads);
    assert(kind < QUERY_KINDS);
    return stats_per(run->read_rpcs_by_kind[kind], run->reads_by_kind[kind]);
}

double stats_rows_per_record(const run_result *run, int kind)
{
    if (kind < 0)
        return stats_per(run->rows_scanned, run->records_returned);
    assert(kind < QUERY_KINDS);
    return stats_per(run->rows_scanned_by_kind[kind], run->records_returned_by_kind[kind]);
}

double stats_busiest(const run_result *run)
{
    double busiest = 0;
    for (uint32_t s = 0; s < run->nservers; s++)
        if (run->servers[s].busy > busiest)
            busiest = run->servers[s].busy;
    return busiest;
}

uint64_t stats_longest_queue(const run_result *run)
{
    uint64_t queue = 0;
    for (uint32_t s = 0; s < run->nservers; s++)
        if (run->servers[s].longest_queue > queue)
            queue = run->servers[s].longest_queue;
    return queue;
}

void stats_store_note(const sim_results *res, char *out, size_t cap)
{
    if (!res->store_sampled) {
        snprintf(out, cap, "%s", "");
        return;
    }
    snprintf(out, cap,
             "sampled%s, at most %u rows sampled a region: row counts, rows read and read "
             "costs are estimates",
             res->store_auto ? " (store = auto: the exact store would not fit in memory)" : "",
             (unsigned)res->sample_keys);
}

void stats_engine_note(const sim_results *res, char *out, size_t cap)
{
    if (!res->engine_weighted) {
        snprintf(out, cap, "%s", "");
        return;
    }
    snprintf(out, cap,
             "weighted%s: one simulated operation stands for %llu; queueing from a per-window "
             "fluid model (counts, bytes and work are expectations, latencies approximations: "
             "docs/weighted.md)",
             res->engine_auto ? " (engine = auto: too many operations to simulate one by one)"
                              : "",
             (unsigned long long)res->engine_weight);
}

void stats_measured_note(const sim_results *res, char *out, size_t cap)
{
    char from[CELL];
    int none = res->balancer && strcmp(res->balancer, "none") == 0;
    if (res->measure_auto)
        snprintf(out, cap, "from the end of each run's warm-up (measure_from = auto): %s",
                 none ? "when its table first had a region per server"
                      : "the first balancer run at which its table had a region per server");
    else if (res->measure_from_us)
        snprintf(out, cap, "from %s on (measure_from): what came before is left out of every "
                 "figure", fmt_duration(from, res->measure_from_us));
    else
        snprintf(out, cap, "%s", "the whole run, the growing table included (measure_from = 0)");
}

void stats_warmup_note(const run_result *run, char *out, size_t cap)
{
    char a[CELL], b[CELL];
    if (!run->warmup_ended)
        snprintf(out, cap, "never left the warm-up: %" PRIu64 " regions on %" PRIu64 " servers at "
                 "the end; every figure is of the growing table", run->warmup_regions,
                 run->warmup_servers);
    else if (run->warmup_us == 0)
        snprintf(out, cap, "no warm-up: the table started with %" PRIu64 " regions on %" PRIu64
                 " servers", run->warmup_regions, run->warmup_servers);
    else
        snprintf(out, cap, "warm-up (the growing table) 0-%s: %" PRIu64 " regions on %" PRIu64
                 " servers at its end, write max/mean %s during it",
                 fmt_duration(a, run->warmup_us), run->warmup_regions, run->warmup_servers,
                 fmt_fixed(b, stats_warmup_writes(run).max_mean, 2));
}

void stats_regime_note(const run_result *run, char *out, size_t cap)
{
    char from[CELL], to[CELL], age[CELL], rps0[CELL], rps1[CELL], b0[CELL], b1[CELL];
    if (run->measure_from_us) {
        snprintf(age, sizeof age, "the table %s old at its start",
                 fmt_duration(from, run->measure_from_us));
    } else {
        snprintf(from, sizeof from, "%s", "0");
        snprintf(age, sizeof age, "%s", "a new table");
    }
    snprintf(out, cap, "measured %s-%s (%s): %s -> %s regions per server, %s -> %s stored", from,
             fmt_duration(to, run->duration_us), age,
             fmt_fixed(rps0, stats_regions_per_server_start(run), 2),
             fmt_fixed(rps1, stats_regions_per_server_end(run), 2), fmt_bytes(b0, run->bytes_start),
             fmt_bytes(b1, run->bytes));
}
