/* balancer_impl.h -- what balancer.c shares with the two balancers (not a
 * public interface: only core/balancer*.c include it).
 *
 * balancer.c owns the balancer value, HMaster.balance's checks before any
 * balancer runs (regions in transition) and the slop test both balancers
 * use; balancer_simple.c and balancer_stochastic.c each provide one
 * balance function (and the stochastic one its remembered region loads).
 */
#ifndef REGIONSIM_BALANCER_IMPL_H
#define REGIONSIM_BALANCER_IMPL_H

#include "core/balancer.h"

#define MIN_SERVER_BALANCE 2          /* BaseLoadBalancer.MIN_SERVER_BALANCE */

typedef struct stochastic_state stochastic_state;

struct balancer {
    balancer_config cfg;
    stochastic_state *stochastic;     /* BALANCER_STOCHASTIC only */
};

/* BaseLoadBalancer.idleRegionServerExist: a server with no region while
 * another has more than one. With meta, hbase:meta counts as a region of
 * its server (the simple balancer's ensemble); without, the table's
 * regions alone (the stochastic balancer, which leaves meta out). */
int balancer_idle_server(const cluster *c, int meta);

/* BaseLoadBalancer.sloppyRegionServerExist (and SimpleLoadBalancer's own
 * copy in needsBalance): fills report's average, floor, ceiling, least and
 * most; returns 1 when some server is above the ceiling or below the
 * floor. A negative slop never finds one (HBase: "not checking"). `meta`
 * as for balancer_idle_server. */
int balancer_sloppy_server(double slop, const cluster *c, int meta, balancer_report *report);

/* SimpleLoadBalancer.balanceTable (balancer_simple.c). */
int64_t simple_balance(const balancer_config *cfg, cluster *c, balancer_report *report);

/* StochasticLoadBalancer (balancer_stochastic.c): its state, the region
 * loads it remembers, and one balanceTable. */
stochastic_state *stochastic_new(const balancer_config *cfg);
void stochastic_free(stochastic_state *s);
int stochastic_observe(stochastic_state *s, cluster *c);
int64_t stochastic_balance(const balancer_config *cfg, stochastic_state *s, cluster *c,
                           balancer_report *report);
double stochastic_total_cost(const balancer_config *cfg, const cluster *c);

/* For tests: what a run would compute over c's current assignment from the
 * loads s remembers, without observing c first: every cost function (a
 * region counts as moved when its server differs from initial[r]; NULL:
 * none moved), cost_before, sum_multipliers, steps (calculateMaxSteps),
 * and needsBalance's verdict in ran and reason. Returns 0, or -1 if out of
 * memory. */
int stochastic_evaluate(const balancer_config *cfg, const stochastic_state *s, const cluster *c,
                        const uint32_t *initial, balancer_report *report);

#endif
