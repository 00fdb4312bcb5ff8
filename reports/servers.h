/* servers.h -- which servers a report shows one by one, and the rest
 * (internal to reports/: text.c, html.c and their helpers share it, so the
 * text and HTML reports pick the same servers and draw the same rows).
 *
 * Up to SERVERS_LISTED servers a report shows every one. Beyond, it shows
 * the SERVERS_BUSIEST busiest by some count (writes, read RPCs) and the
 * others in aggregate (how many, their sum, min, median and max), and a
 * server x time heatmap gets at most SERVER_ROWS_MAX rows: a row is a bin
 * of `per_row` consecutive servers, labelled "rs0-rs312", whose cell in a
 * window is the bin's maximum there (the busiest server of the bin, so a
 * hot server still shows at full strength; a mean would dilute it by the
 * bin's size). Every server stays in the JSON and CSV reports.
 */
#ifndef REGIONSIM_SERVERS_H
#define REGIONSIM_SERVERS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/result.h"

#define SERVERS_LISTED 32  /* up to this many servers, every one is shown */
#define SERVERS_BUSIEST 16 /* beyond it, the busiest this many, then the rest together */
#define SERVER_ROWS_MAX WINDOW_BIN_ROWS_MAX /* heatmap rows at most (32): beyond, a row is a
                                           * bin of servers (engine/windows.h) */

typedef uint64_t (*server_count_fn)(const server_result *);

/* The counts reports pick servers by. */
uint64_t servers_count_writes(const server_result *sv);
uint64_t servers_count_reads(const server_result *sv);

/* The indices of run's servers to show for `count`: every server, in id
 * order, when there are at most SERVERS_LISTED; else the SERVERS_BUSIEST
 * with the highest counts (ties: the lower index), busiest first. Writes
 * them to shown (room for SERVERS_LISTED) and returns how many. */
size_t servers_listed(const run_result *run, server_count_fn count, uint32_t *shown);

/* The servers not among shown[0..nshown): how many, and their counts'
 * sum, min, median (the upper one of an even count) and max (all 0 when
 * there are none). The sum is the run's total over every server minus
 * the shown ones'. Exits 2 with a message if out of memory. */
typedef struct servers_rest {
    size_t n;
    uint64_t sum, min, median, max;
} servers_rest;
servers_rest servers_rest_of(const run_result *run, server_count_fn count, const uint32_t *shown,
                             size_t nshown);

/* A server x time matrix (cells[w * nservers + s], or NULL for all zero)
 * as heatmap rows: per_row 1 (cells is the run's own, labels are the
 * servers' names) up to SERVER_ROWS_MAX servers; beyond, nrows bins of
 * per_row consecutive servers (the last may hold fewer), cells[w * nrows
 * + b] the bin's max in window w, labels "first-last". Owns what it made;
 * free with server_bins_free. Exits 2 with a message if out of memory. */
typedef struct server_bins {
    uint32_t per_row, nrows;
    const uint64_t *cells;  /* nwindows x nrows, or NULL */
    const char **labels;    /* nrows labels */
    uint64_t *owned;        /* the binned cells, or NULL */
    char (*names)[40];      /* the bins' labels, or NULL */
} server_bins;
server_bins server_bins_of(const run_result *run, const uint64_t *cells);

/* The run's own writes (reads nonzero: read RPCs) as heatmap rows: from
 * its matrix (server_bins_of), or, when the run was reduced, the digest's
 * bins, computed by the same code when the run ended (so the same rows);
 * cells NULL when it has no counts of that kind. Free with
 * server_bins_free. Exits 2 with a message if out of memory. */
server_bins server_bins_run(const run_result *run, int reads);
void server_bins_free(server_bins *b);

#endif
