/* balancer.h -- moving regions between servers: HBase's two balancers.
 *
 * BALANCER_SIMPLE follows HBase's SimpleLoadBalancer: when the cluster is
 * out of balance (BaseLoadBalancer/SimpleLoadBalancer.needsBalance: at
 * least 2 servers, and an idle server next to one with more than one
 * region, or some server above ceil(avg * (1 + slop)) or below
 * floor(avg * (1 - slop)), computed in float as HBase does), it brings
 * every server's region count within [floor(avg), ceil(avg)]. It offloads
 * the oldest regions first (lowest regionId, as RegionInfoComparator
 * sorts), alternating oldest/newest while an empty server exists (its
 * fetchFromTail), then fills underloaded servers, lowest index first. It
 * balances counts, not load.
 *
 * BALANCER_STOCHASTIC follows HBase's StochasticLoadBalancer: a weighted
 * sum of cost functions, each in [0, 1], over the assignment (region count
 * skew, read and write request skew, store file size skew, and the cost of
 * the moves made), searched by a random walk that keeps a candidate move or
 * swap only when it lowers the total. See balancer.c for the sources and
 * for where the model departs from HBase.
 *
 * Neither balancer resets the regions' recent_reads/recent_writes: the
 * engine zeroes them after each run, so the stochastic balancer sees the
 * request rate over the last balancer period.
 */
#ifndef REGIONSIM_BALANCER_H
#define REGIONSIM_BALANCER_H

#include <stddef.h>
#include <stdint.h>

#include "core/cluster.h"

typedef enum balancer_kind {
    BALANCER_NONE = 0,
    BALANCER_SIMPLE,
    BALANCER_STOCHASTIC,
} balancer_kind;

typedef struct balancer_config {
    balancer_kind kind;
    double slop;                     /* hbase.regions.slop: 0.2 (both balancers use it) */
    /* stochastic */
    uint64_t max_steps;              /* hbase.master.balancer.stochastic.maxSteps: 1000000 */
    uint32_t steps_per_region;       /* ...stochastic.stepsPerRegion: 800 */
    double min_cost_need_balance;    /* ...stochastic.minCostNeedBalance: 0.025 */
    double region_count_cost;        /* ...stochastic.regionCountCost: 500 */
    double move_cost;                /* ...stochastic.moveCost: 7 */
    double read_request_cost;        /* ...stochastic.readRequestCost: 5 */
    double write_request_cost;       /* ...stochastic.writeRequestCost: 5 */
    double storefile_size_cost;      /* ...stochastic.storefileSizeCost: 5 */
    /* The engine's seeded RNG (the core has none of its own): uniform 64-bit
     * values. Required by BALANCER_STOCHASTIC, unused by the others. */
    uint64_t (*random)(void *ctx);
    void *random_ctx;
} balancer_config;

/* Fills *cfg with HBase's defaults for every field, kind = `kind`, and no
 * random source (random = NULL, random_ctx = NULL: the caller sets them). */
void balancer_defaults(balancer_config *cfg, balancer_kind kind);

/* One balancer run over c with cfg->kind. Moved regions go offline through
 * cluster_move (from c->now_us). Returns the regions moved, or -1 if out of
 * memory (c unchanged). Deterministic given the random callback's sequence.
 * BALANCER_STOCHASTIC requires cfg->random. */
int64_t balancer_run(const balancer_config *cfg, cluster *c);

/* HBase's DoubleArrayCost of a per-server vector: the root of the summed
 * squared deviations from the mean, scaled to [0, 1] between the best
 * (every server within one unit of the mean) and the worst (everything on
 * one server) distribution of the same total. 0 for n == 0. */
double balancer_array_cost(const double *stats, size_t n);

/* The stochastic balancer's total weighted cost of c's current assignment:
 * sum over the cost functions of multiplier * cost (no moves made, so the
 * move cost is 0). Not divided by the sum of the multipliers (needsBalance
 * divides). Returns -1 if out of memory. */
double balancer_total_cost(const balancer_config *cfg, const cluster *c);

#endif
