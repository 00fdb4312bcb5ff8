/* windows.c -- the digest of a run's per-server window counters (see
 * windows.h).
 *
 * Design: the reduction reads each matrix row by row (a window's servers
 * are adjacent), in a few passes (totals and maxima, bins, and the writes'
 * last two quarters), and writes a few arrays of nwindows entries, the
 * binned heatmap (nwindows x at most 32) and two vectors of nservers: about
 * 1 MB for 10,000 servers and 1,440 windows, against 115 MB a matrix. It
 * runs in the run's own job (engine/engine.c, at the end of engine_run), so
 * no more full matrices exist at once than runs in flight. Every value is
 * an exact uint64 sum or maximum, computed by windows.h's functions, which
 * the report side (reports/stats.c, reports/servers.c) calls on a full
 * matrix: a digest and its matrix give the same figures and the same bytes.
 */
#include "engine/windows.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Each window's sum and largest cell. */
static void totals_and_maxima(const uint64_t *m, uint32_t nwindows, uint32_t nservers,
                              uint64_t *total, uint64_t *max)
{
    for (uint32_t w = 0; w < nwindows; w++)
        window_total_max(m + (size_t)w * nservers, nservers, &total[w], &max[w]);
}

int window_digest_reduce(run_result *run)
{
    window_digest d;
    memset(&d, 0, sizeof d);
    if (run->digest.present || !run->window_writes || !window_digest_applies(run->nservers))
        return 0;
    uint32_t nw = run->nwindows, ns = run->nservers;
    d.present = 1;
    d.reads = run->window_reads != NULL;
    window_bins_geometry(ns, &d.per_row, &d.nrows);
    size_t per_window = (size_t)nw ? nw : 1, bins = per_window * d.nrows;
    d.writes_total = malloc(per_window * sizeof *d.writes_total);
    d.writes_max = malloc(per_window * sizeof *d.writes_max);
    d.writes_bins = calloc(bins, sizeof *d.writes_bins);
    int bad = !d.writes_total || !d.writes_max || !d.writes_bins;
    if (d.reads) {
        d.reads_total = malloc(per_window * sizeof *d.reads_total);
        d.reads_max = malloc(per_window * sizeof *d.reads_max);
        d.reads_bins = calloc(bins, sizeof *d.reads_bins);
        bad |= !d.reads_total || !d.reads_max || !d.reads_bins;
    }
    uint32_t first = window_first_measured(run->measure_from_us, run->window_us, nw), q3, q4;
    d.quarter = window_quarters(nw, first, &q3, &q4);
    if (d.quarter > 0) {
        d.quarter_before = malloc((size_t)ns * sizeof *d.quarter_before);
        d.quarter_after = malloc((size_t)ns * sizeof *d.quarter_after);
        bad |= !d.quarter_before || !d.quarter_after;
    }
    if (bad) {
        window_digest_free(&d);
        return -1;
    }
    totals_and_maxima(run->window_writes, nw, ns, d.writes_total, d.writes_max);
    window_bins_max(run->window_writes, nw, ns, d.per_row, d.nrows, d.writes_bins);
    if (d.reads) {
        totals_and_maxima(run->window_reads, nw, ns, d.reads_total, d.reads_max);
        window_bins_max(run->window_reads, nw, ns, d.per_row, d.nrows, d.reads_bins);
    }
    if (d.quarter > 0) {
        window_sum_rows(run->window_writes, ns, q3, q4, d.quarter_before);
        window_sum_rows(run->window_writes, ns, q4, nw, d.quarter_after);
    }
    free(run->window_writes);
    free(run->window_reads);
    run->window_writes = NULL;
    run->window_reads = NULL;
    run->digest = d;
    return 0;
}

void window_digest_free(window_digest *d)
{
    free(d->writes_total);
    free(d->writes_max);
    free(d->reads_total);
    free(d->reads_max);
    free(d->writes_bins);
    free(d->reads_bins);
    free(d->quarter_before);
    free(d->quarter_after);
    memset(d, 0, sizeof *d);
}

double window_digest_bytes(double nservers, double nwindows, int reads)
{
    assert(nservers >= 0 && nservers <= UINT32_MAX);
    uint32_t per_row, nrows;
    window_bins_geometry((uint32_t)nservers, &per_row, &nrows);
    double kinds = reads ? 2 : 1;
    return kinds * nwindows * (2 + nrows) * sizeof(uint64_t) + 2 * nservers * sizeof(uint64_t);
}
