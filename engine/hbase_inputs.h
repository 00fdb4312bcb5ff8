/* hbase_inputs.h -- the inputs a real HBase cluster draws by chance, drawn
 * from the run's seed: when the master's chores run relative to the
 * table's creation, and the region servers' start codes.
 *
 * Both decide what the balancer does: the chores' phase when it runs, the
 * start codes the ServerName hashes behind SimpleLoadBalancer's HashMap
 * orders. A cluster has one value of each; a fresh draw per seed shows
 * how much a result depends on them (hbase_inputs.c says where each
 * comes from upstream).
 */
#ifndef REGIONSIM_HBASE_INPUTS_H
#define REGIONSIM_HBASE_INPUTS_H

#include <stdint.h>

/* The drawn inputs of one run (simulated time 0 = the table's creation). */
typedef struct hbase_inputs {
    uint64_t balancer_first_us; /* the BalancerChore's first run after time 0, in (0, period] */
    uint64_t status_first_us;   /* the ClusterStatusChore's, in (0, 60 s] */
    uint64_t cluster_start_ms;  /* epoch ms the first region server started */
    uint32_t meta_server;       /* the server the master assigned hbase:meta to at startup */
} hbase_inputs;

/* Draws the chores' phase from `seed` (its own stream: other consumers of
 * randomness see the same numbers as before) for a balancer period of
 * period_us (> 0) and a status period of status_us (> 0), the master
 * having become active before epoch_ms (the epoch of simulated time 0).
 * A balancer_first_us other than 0 is taken as given (the scenario's
 * balancer_phase) instead of drawn. meta_server: uniform over the
 * nservers (>= 1) servers the run starts with. */
void hbase_inputs_draw(uint64_t seed, uint64_t epoch_ms, uint64_t period_us, uint64_t status_us,
                       uint64_t balancer_first_us, uint32_t nservers, hbase_inputs *out);

/* How many balancer runs fall strictly before end_us, the first at
 * first_us and then every period_us (> 0). */
static inline uint64_t hbase_inputs_balancer_runs(uint64_t first_us, uint64_t period_us,
                                                  uint64_t end_us)
{
    return end_us > first_us ? (end_us - 1 - first_us) / period_us + 1 : 0;
}

/* The start codes (epoch ms) of the n region servers the run starts with,
 * by id: the first at cluster_start_ms, each next one 1 to 5000 ms after
 * the one before, drawn from the seed. Strictly increasing in id. */
void hbase_inputs_start_codes(uint64_t seed, const hbase_inputs *in, uint64_t *codes, uint32_t n);

#endif
