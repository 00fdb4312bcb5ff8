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
 * first measured window and the steady-state quarters are defined once, in
 * engine/result.h (the shape of the matrices a run hands to the reports),
 * and the report side (reports/stats.c, reports/servers.c) calls the same
 * functions on a full matrix, so a report drawn from a digest has the same
 * bytes as one drawn from the matrix it was reduced from. This header is
 * the engine's: the reports never include it.
 */
#ifndef REGIONSIM_WINDOWS_H
#define REGIONSIM_WINDOWS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/result.h"

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
 * takes, reads counted or not (for engine/budget.c). */
double window_digest_bytes(double nservers, double nwindows, int reads);

#endif
