/* windows.h -- a run's per-server window counters, and their digest.
 *
 * The engine counts every server's writes (and read RPCs) in every report
 * window: run_result.window_writes[w * nservers + s]. At 10,000 servers and
 * 1,440 windows that is 115 MB a scheme, kept until the report, while most
 * reports need far less of it: each window's total and maximum (the window
 * figures, the balance assertion, JSON without per-server arrays), the
 * heatmap the text and HTML reports draw past WINDOW_BIN_ROWS_MAX servers
 * (bins of consecutive servers, a bin's cell its maximum), and each
 * server's writes in the measured run's last two quarters (the steady
 * state). window_digest_reduce keeps only those and frees the matrices.
 *
 * The bin geometry, a window's total and maximum, sums over windows, the
 * first measured window and the steady-state quarters are defined here
 * once, and the report side (reports/stats.c,
 * reports/servers.c) calls the same functions on a full matrix, so a
 * report drawn from a digest has the same bytes as one drawn from the
 * matrix it was reduced from. Those few are inline here, so the reports
 * library needs sim's headers only, as it does for result.h.
 */
#ifndef REGIONSIM_WINDOWS_H
#define REGIONSIM_WINDOWS_H

#include <stddef.h>
#include <stdint.h>

#include "sim/result.h"

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

/* Whether a run of nservers servers would be reduced when the scenario
 * asks for digests (more than WINDOW_BIN_ROWS_MAX servers). */
static inline int window_digest_applies(uint32_t nservers)
{
    return nservers > WINDOW_BIN_ROWS_MAX;
}

/* Reduces run's window_writes and window_reads (the engine's, with its
 * nwindows and nservers set) to run->digest, frees both matrices and sets
 * them to NULL. Does nothing (returns 0) when the run has at most
 * WINDOW_BIN_ROWS_MAX servers or no matrix, or was reduced already.
 * Returns -1 when out of memory; the run is then unchanged. */
int window_digest_reduce(run_result *run);

/* Frees what the digest owns and zeroes it (a zeroed digest is fine). */
void window_digest_free(window_digest *d);

/* The bytes a digest of a run of nservers servers and nwindows windows
 * takes, reads counted or not (for sim/budget.c). */
double window_digest_bytes(double nservers, double nwindows, int reads);

#endif
