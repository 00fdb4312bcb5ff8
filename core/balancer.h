/* balancer.h -- moving regions between servers: HBase's two balancers, and
 * the report of every decision they make.
 *
 * BALANCER_SIMPLE is HBase's SimpleLoadBalancer (balancer_simple.c): when
 * some server's region count is outside the slop around the average (or
 * a server is idle), it brings every server to floor(avg) or ceil(avg)
 * regions, offloading each overloaded server's newest regions first. It
 * balances counts, not load.
 *
 * BALANCER_STOCHASTIC is HBase's StochasticLoadBalancer
 * (balancer_stochastic.c): a weighted sum of cost functions over the
 * assignment, searched by a random walk of moves and swaps.
 *
 * Every run, whether it moves anything or not, fills a balancer_report:
 * whether it ran, why (or why not), and the figures its decision rested
 * on, so a user can hold the simulator against their own cluster.
 *
 * What HMaster.balance checks before asking the balancer (HBase master,
 * hbase-server/.../master/HMaster.java, balance()): no run while regions
 * are in transition (here: a region offline after a split, move or
 * reassignment), and fewer than 2 servers never balance
 * (BaseLoadBalancer.MIN_SERVER_BALANCE).
 *
 * Server names. HBase orders servers by ServerName (hostname, then port,
 * then start code) and hashes them by the string "host,port,startcode".
 * A simulated server with id N is host "rsN", port 16020 (HBase's default
 * hbase.regionserver.port) and start code = server.start_ms, the epoch
 * millisecond it started (HRegionServer: System.currentTimeMillis(); the
 * engine draws the first servers' from the seed, engine/hbase_inputs.c). So
 * rs10 sorts before rs9, as it would in HBase.
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

#define BALANCER_SERVER_PORT 16020   /* HConstants.DEFAULT_REGIONSERVER_PORT */

/* Randomness, from the caller (the core has none of its own). */
typedef struct balancer_random {
    uint32_t (*below)(void *ctx, uint32_t n); /* uniform in [0, n), n >= 1 (Random.nextInt) */
    double (*unit)(void *ctx);                /* uniform in [0, 1) (Random.nextDouble) */
    void *ctx;
} balancer_random;

/* The stochastic balancer's settings: HBase's configuration keys
 * hbase.master.balancer.stochastic.*, with their defaults filled in by
 * balancer_defaults. A multiplier <= 0 leaves its cost function out. */
typedef struct stochastic_config {
    uint64_t max_steps;              /* maxSteps: 1000000 */
    uint32_t steps_per_region;       /* stepsPerRegion: 800 */
    int run_max_steps;               /* runMaxSteps: false */
    double min_cost_need_balance;    /* minCostNeedBalance: 0.025 */
    uint32_t region_loads;           /* numRegionLoadsToRemember: 15 */
    double max_move_percent;         /* maxMovePercent: 1.0 */
    double region_count_cost;        /* regionCountCost: 500 */
    double move_cost;                /* moveCost: 7 */
    double server_locality_cost;     /* localityCost: 25 (locality not modelled: cost 0) */
    double rack_locality_cost;       /* rackLocalityCost: 15 (one rack: cost 0) */
    double table_skew_cost;          /* tableSkewCost: 35 */
    double storefile_table_skew_cost;/* storefileTableSkewCost: 35 */
    double read_request_cost;        /* readRequestCost: 5 */
    double cp_request_cost;          /* cpRequestCost: 5 */
    double write_request_cost;       /* writeRequestCost: 5 */
    double memstore_size_cost;       /* memstoreSizeCost: 5 */
    double storefile_size_cost;      /* storefileSizeCost: 5 */
} stochastic_config;

typedef struct balancer_config {
    balancer_kind kind;
    double slop;                     /* hbase.regions.slop: 0.2 */
    stochastic_config stochastic;
    balancer_random random;          /* required by both balancers */
} balancer_config;

/* Why a run did or did not compute a plan. */
typedef enum balancer_reason {
    BALANCER_FEW_SERVERS = 0,        /* skipped: fewer than 2 servers */
    BALANCER_IN_TRANSITION,          /* skipped: regions in transition */
    BALANCER_BALANCED,               /* skipped: every server within the slop */
    BALANCER_COST_LOW,               /* skipped: cost / sum of multipliers < minCostNeedBalance */
    BALANCER_IDLE_SERVER,            /* ran: a server with no region beside one with several */
    BALANCER_OUT_OF_SLOP,            /* ran: a server above the ceiling or below the floor */
    BALANCER_COST_HIGH,              /* ran: cost / sum of multipliers >= minCostNeedBalance */
    BALANCER_NO_COSTS,               /* skipped: no cost function has a multiplier > 0 */
    BALANCER_REASONS
} balancer_reason;

/* A few words for the reason ("within slop", ...), for reports. Inline:
 * report writers name reasons without linking the core. */
static inline const char *balancer_reason_text(balancer_reason r)
{
    static const char *const text[BALANCER_REASONS] = {
        [BALANCER_FEW_SERVERS] = "fewer than 2 servers",
        [BALANCER_IN_TRANSITION] = "regions in transition",
        [BALANCER_BALANCED] = "within slop",
        [BALANCER_COST_LOW] = "cost below minCostNeedBalance",
        [BALANCER_IDLE_SERVER] = "idle server",
        [BALANCER_OUT_OF_SLOP] = "server out of slop",
        [BALANCER_COST_HIGH] = "cost above minCostNeedBalance",
        [BALANCER_NO_COSTS] = "no cost function with a multiplier > 0",
    };
    return (unsigned)r < BALANCER_REASONS ? text[r] : "?";
}

#define BALANCER_MAX_COSTS 16

/* One stochastic cost function's part in a run. */
typedef struct balancer_cost {
    const char *name;                /* HBase's class, e.g. "RegionCountSkewCostFunction" */
    double multiplier;
    double before, after;            /* its cost in [0, 1] before and after the plan */
} balancer_cost;

/* What one balancer run decided and why. */
typedef struct balancer_report {
    balancer_kind kind;
    int ran;                         /* 1: it computed a plan (maybe an empty one) */
    balancer_reason reason;
    uint32_t servers;
    uint64_t regions;
    uint64_t in_transition;          /* regions in transition (the reason to skip) */
    uint64_t moves;                  /* regions the plan moved */
    uint64_t least, most;            /* regions on the emptiest and fullest server, before */
    /* the slop test (both balancers): */
    double average;                  /* regions per server as HBase's float */
    int64_t floor, ceiling;          /* floor(avg * (1 - slop)), ceil(avg * (1 + slop)) */
    /* simple (SimpleLoadBalancer.balanceTable): */
    int64_t target_min, target_max;  /* (int) avg and ceil(avg): every server ends in between */
    uint32_t overloaded, underloaded;/* servers above target_max, below target_min */
    /* stochastic: */
    double cost_before, cost_after;  /* weighted total / sum of multipliers (needsBalance's figure) */
    double sum_multipliers;
    uint64_t steps;                  /* the walk's step budget */
    size_t ncosts;
    balancer_cost costs[BALANCER_MAX_COSTS];
} balancer_report;

/* Whether a run got as far as counting regions per server (its least,
 * most, average, floor and ceiling are set): not when it was skipped
 * before that (regions in transition, one server, no cost function). */
static inline int balancer_report_counted(const balancer_report *b)
{
    return b->reason != BALANCER_IN_TRANSITION && b->reason != BALANCER_FEW_SERVERS &&
           b->reason != BALANCER_NO_COSTS;
}

typedef struct balancer balancer;

/* Fills *cfg with HBase's defaults for `kind` and no random source. */
void balancer_defaults(balancer_config *cfg, balancer_kind kind);

/* A balancer of cfg (copied). NULL if out of memory. */
balancer *balancer_new(const balancer_config *cfg);
void balancer_free(balancer *b);

/* HBase's ClusterStatusChore (hbase.balancer.statusPeriod, 60 s) hands the
 * balancer the cluster's metrics; the stochastic balancer keeps each
 * region's last numRegionLoadsToRemember loads (requests, memstore and
 * store file sizes). The engine calls this every status period. Returns
 * 0, or -1 if out of memory. */
int balancer_observe(balancer *b, cluster *c);

/* One balancer run over c at c->now_us, as HMaster.balance makes it.
 * Moved regions go offline through cluster_move. Fills *report (not
 * NULL). Returns the regions moved, or -1 if out of memory (c unchanged).
 * Deterministic given the random source's sequence. */
int64_t balancer_run(balancer *b, cluster *c, balancer_report *report);

/* HBase's DoubleArrayCost of a per-server vector: the root of the summed
 * squared deviations from the mean, scaled to [0, 1] between the best
 * (every server within one unit of the mean) and the worst (everything on
 * one server) distribution of the same total. 0 for n == 0. */
double balancer_array_cost(const double *stats, size_t n);

/* The stochastic balancer's total weighted cost of c's current assignment
 * (no moves made), not divided by the sum of the multipliers, as a fresh
 * balancer sees it after one observation: sizes and counts, but no request
 * or memstore rates yet (a rate needs two loads). Returns -1 if out of
 * memory. */
double balancer_total_cost(const balancer_config *cfg, const cluster *c);

#endif
