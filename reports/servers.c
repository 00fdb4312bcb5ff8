/* servers.c -- the busiest servers, the rest in aggregate, and heatmap
 * rows binned by server (see servers.h).
 *
 * The busiest are kept by insertion into a sorted array of at most
 * SERVERS_BUSIEST: one pass over the servers, no copy of their counts. The
 * rest's median sorts a copy of their counts (qsort; a report does it once
 * per table). Bins hold the maximum, not the mean, of their servers: one
 * hot server among 300 idle ones must not fade to 1/300 of its colour.
 */
#include "reports/servers.h"

#include "reports/format.h"

#include "engine/result.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t servers_count_writes(const server_result *sv) { return sv->writes; }
uint64_t servers_count_reads(const server_result *sv) { return sv->reads; }

size_t servers_listed(const run_result *run, server_count_fn count, uint32_t *shown)
{
    if (run->nservers <= SERVERS_LISTED) {
        for (uint32_t s = 0; s < run->nservers; s++) shown[s] = s;
        return run->nservers;
    }
    size_t n = 0;
    for (uint32_t s = 0; s < run->nservers; s++) {
        uint64_t c = count(&run->servers[s]);
        if (n == SERVERS_BUSIEST && c <= count(&run->servers[shown[n - 1]]))
            continue;
        size_t at = n < SERVERS_BUSIEST ? n++ : n - 1; /* insert, dropping the last if full */
        while (at > 0 && count(&run->servers[shown[at - 1]]) < c) {
            shown[at] = shown[at - 1];
            at--;
        }
        shown[at] = s;
    }
    return n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

servers_rest servers_rest_of(const run_result *run, server_count_fn count, const uint32_t *shown,
                             size_t nshown)
{
    servers_rest r = { 0, 0, 0, 0, 0 };
    if (nshown >= run->nservers)
        return r;
    size_t nrest = run->nservers - nshown;
    uint64_t *rest = malloc(nrest * sizeof *rest);
    unsigned char *listed = calloc(run->nservers, 1);
    if (!rest || !listed) report_out_of_memory();
    for (size_t i = 0; i < nshown; i++) listed[shown[i]] = 1;
    for (uint32_t s = 0; s < run->nservers; s++)
        if (!listed[s]) {
            rest[r.n] = count(&run->servers[s]);
            r.sum += rest[r.n++];
        }
    qsort(rest, r.n, sizeof *rest, cmp_u64);
    if (r.n) {
        r.min = rest[0];
        r.median = rest[r.n / 2];
        r.max = rest[r.n - 1];
    }
    free(listed);
    free(rest);
    return r;
}

/* Labels "first-last" for every bin of b (per_row > 1), into b->names. */
static void bin_labels(const run_result *run, server_bins *b)
{
    b->names = calloc(b->nrows ? b->nrows : 1, sizeof *b->names);
    if (!b->names) report_out_of_memory();
    for (uint32_t g = 0; g < b->nrows; g++) {
        uint32_t first = g * b->per_row, last = first + b->per_row - 1;
        if (last >= run->nservers) last = run->nservers - 1;
        snprintf(b->names[g], sizeof b->names[g], "%s-%s", run->servers[first].name,
                 run->servers[last].name);
        b->labels[g] = b->names[g];
    }
}

server_bins server_bins_of(const run_result *run, const uint64_t *cells)
{
    server_bins b = { 1, run->nservers, cells, NULL, NULL, NULL };
    uint32_t n = run->nservers;
    window_bins_geometry(n, &b.per_row, &b.nrows);
    b.labels = malloc((b.nrows ? b.nrows : 1) * sizeof *b.labels);
    if (!b.labels) report_out_of_memory();
    if (b.per_row == 1) {
        for (uint32_t s = 0; s < n; s++) b.labels[s] = run->servers[s].name;
        return b;
    }
    b.owned = cells ? calloc((size_t)run->nwindows * b.nrows + 1, sizeof *b.owned) : NULL;
    if (cells && !b.owned) report_out_of_memory();
    bin_labels(run, &b);
    window_bins_max(cells, run->nwindows, n, b.per_row, b.nrows, b.owned);
    b.cells = b.owned;
    return b;
}

server_bins server_bins_run(const run_result *run, int reads)
{
    const window_digest *d = &run->digest;
    if (!d->present)
        return server_bins_of(run, reads ? run->window_reads : run->window_writes);
    server_bins b = { d->per_row, d->nrows, reads ? d->reads_bins : d->writes_bins,
                      NULL, NULL, NULL };
    b.labels = malloc((b.nrows ? b.nrows : 1) * sizeof *b.labels);
    if (!b.labels) report_out_of_memory();
    assert(b.per_row > 1); /* a digest exists only past WINDOW_BIN_ROWS_MAX servers */
    bin_labels(run, &b);
    return b;
}

void server_bins_free(server_bins *b)
{
    free(b->owned);
    free(b->names);
    free(b->labels);
    b->owned = NULL;
    b->names = NULL;
    b->labels = NULL;
}
