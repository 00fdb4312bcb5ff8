/* weighting.h -- per-op or weighted: which engine runs, and the weight.
 *
 * The weighted engine (docs/weighted.md) makes one operation stand for w
 * of the same distribution: the pattern emits one in w (workloads/
 * pattern.h, pattern_set_weight), and counts, bytes and server work are
 * multiplied by w, so a month of writes runs in seconds; queueing comes
 * from a per-window fluid model (engine/fluid.h) instead of the servers'
 * FIFO queues. The choice is a function of the scenario alone (the
 * budget estimate and the engine make the same one):
 *
 * - engine = per-op: every operation (weight must be unset).
 * - engine = weighted, or weight = N set: weighted, when every phase can
 *   be (open loop, a pattern that can emit one in w: an on-time time
 *   series, entities or sequence); refused otherwise, saying why.
 * - engine = auto with no weight: per-op when the run makes at most
 *   WEIGHT_AUTO_PER_OP_OPS operations (so every small run, and every
 *   test and sample that was per-op, stays byte for byte what it was), or
 *   a phase cannot be weighted, or every operation is watched (a trace
 *   written); else weighted.
 *
 * A chosen weight aims at WEIGHT_EVENTS_PER_CELL simulated operations per
 * server per report window (window figures need them: the maximum over 8
 * servers of noisy counts is biased up by about 1.4 / sqrt(count); at 200
 * a cell the default month's randomly salted key read window max/mean
 * 1.110 where per-op reads 1.002, at 800 1.050, at 1,600 1.036), within
 * [WEIGHT_EVENTS_MIN, WEIGHT_EVENTS_MAX] operations a run:
 *   w = ceil(ops / clamp(servers x windows x 1600, 1e6, 3.2e7)),
 * at most what keeps WEIGHT_PUTS_PER_FLUSH weighted puts in a memstore
 * flush (per-op when that is under 2: regions of a few KiB), and at most
 * WEIGHT_READS_MAX when the run reads, then adjusted for a time series
 * (pattern_weight_stride). One weight a run (not a phase).
 *
 * Why reads cap the weight: a read scans the simulated rows, one in w of
 * the table's, for the records it asks (a series' newest N points, a
 * range of it); its rows scanned per record returned grow with w. The
 * time series of examples/reads.ini for 6 hours, monotonic key: 24.4 rows
 * per record per-op, 24.9 at w = 20, 31.2 at 40, 170 at 500, 1,042 at
 * 2,619 (a month's weight), and the read latencies and overload follow.
 * Rows shared by writes of one millisecond break apart sooner:
 * examples/tradeoff.ini's 30 writes a millisecond read 0.03 rows per
 * record per-op and at w = 3 and 7, 0.08 at w = 21. At 7 to 9 the reads
 * of examples/reads.ini over 2 hours are within 2.5% of per-op
 * (monotonic 25.1 against 24.5, promoted 353.9 and 343.4 against 352.2):
 * hence 8 (9 after the coprime step for 1,000 series). */
#ifndef REGIONSIM_WEIGHTING_H
#define REGIONSIM_WEIGHTING_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

#define WEIGHT_AUTO_PER_OP_OPS 10000000.0
#define WEIGHT_EVENTS_PER_CELL 1600.0
#define WEIGHT_EVENTS_MIN 1000000.0
#define WEIGHT_EVENTS_MAX 32000000.0
#define WEIGHT_PUTS_PER_FLUSH 64
#define WEIGHT_READS_MAX 8 /* reads' rows within a few % of per-op (top comment) */

typedef struct weighting {
    int weighted;        /* 1: the weighted engine */
    uint64_t weight;     /* w; 1 per-op */
    double ops;          /* operations the run is expected to make (0: unknown) */
    const char *why;     /* auto chose per-op: why (static text); NULL otherwise */
} weighting;

/* Operations the scenario's phases make (generators; 0 if a phase's
 * count is unknown beforehand: a trace, a closed loop, a YCSB phase). */
double weighting_expected_ops(const scenario *sc);

/* The engine and weight for sc (the top comment), `watched` when every
 * operation is told to an observer (a trace written). Returns 0, or -1
 * with a message in err when weighted is asked of a run that cannot be. */
int weighting_resolve(const scenario *sc, int watched, weighting *out, char *err, size_t errcap);

#endif
