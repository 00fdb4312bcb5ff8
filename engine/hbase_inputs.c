/* hbase_inputs.c -- HBase's own random inputs, drawn from the run's seed.
 *
 * The chores' phase. HMaster.finishActiveMasterInitialization schedules
 * the ClusterStatusChore and then the BalancerChore on the master's
 * ChoreService once the master is active (hbase-server/.../master/
 * HMaster.java). BalancerChore passes only its period
 * (hbase.balancer.period, 300000 ms) to ScheduledChore, whose constructor
 * without an initial delay uses DEFAULT_INITIAL_DELAY = 0 (hbase-common/
 * .../ScheduledChore.java); so does ClusterStatusChore (hbase.balancer.
 * statusPeriod, 60000 ms). Each is run when the master becomes active
 * (its first run calls initialChore(), a no-op by default, instead of
 * chore()) and then once a period, at a fixed rate (ChoreService
 * .scheduleChore: scheduleAtFixedRate): their phase against a table
 * created later is the
 * master's start time modulo the period, which nothing ties to the
 * workload. It is drawn uniformly here: the master became active at
 * -(period - u) for u uniform in (0, period], so the balancer first runs
 * at u and the status chore (same start) at the first multiple of its
 * period after that start that is past 0. A given balancer_phase fixes u.
 *
 * Start codes. A region server's start code is the wall-clock millisecond
 * it started: HRegionServer's constructor sets this.startcode =
 * System.currentTimeMillis() (hbase-server/.../regionserver/
 * HRegionServer.java), and its ServerName is "host,port,startcode". The
 * servers of a cluster start together, a few seconds apart (a rolling
 * start script, a deployment tool): here the first starts one balancer
 * period plus up to an hour (uniform) before the table's creation, so
 * before the master's chores began, and each next one 1 to 5000 ms after
 * the previous (uniform). What matters to the balancer is that the
 * codes are distinct and vary with the seed: ServerName.hashCode hashes
 * them, and SimpleLoadBalancer's HashMaps iterate in hash order. A server
 * that joins during the run starts when it joins (core/cluster.c).
 *
 * Where hbase:meta opens. On a new cluster the master's InitMetaProcedure
 * assigns meta with no previous location, which the AssignmentManager
 * hands to the balancer's roundRobinAssignment: for one region, the
 * server at a random start index of the online servers
 * (BaseLoadBalancer.roundRobinAssignment, serverIdx from a Random). So
 * it is drawn uniformly over the servers the run starts with.
 */
#include "engine/hbase_inputs.h"

#include "workloads/rng.h"

/* The run's stream for these draws: engine/engine_impl.h's RNG_STREAM_*
 * numbers stop at 16 + phases; this one is far from them. */
#define HBASE_INPUTS_STREAM 0x4842415345ull /* "HBASE" */
#define HOUR_MS 3600000ull
#define STAGGER_MS 5000ull

void hbase_inputs_draw(uint64_t seed, uint64_t epoch_ms, uint64_t period_us, uint64_t status_us,
                       uint64_t balancer_first_us, uint32_t nservers, hbase_inputs *out)
{
    rng r = rng_stream(seed, HBASE_INPUTS_STREAM);
    uint64_t u = rng_below(&r, period_us) + 1; /* (0, period] */
    if (balancer_first_us)
        u = balancer_first_us;
    out->balancer_first_us = u;
    /* the master became active at -(period - u) when u <= period */
    uint64_t since_us = u <= period_us ? period_us - u : 0; /* active this long before 0 */
    uint64_t past = since_us % status_us;                    /* into its status period at 0 */
    out->status_first_us = status_us - past;                 /* in (0, status] */
    uint64_t before_ms = rng_below(&r, HOUR_MS) + period_us / 1000; /* not on u: a given
                                                                      * phase keeps the codes */
    out->cluster_start_ms = epoch_ms > before_ms + 1 ? epoch_ms - before_ms - 1 : 0;
    out->meta_server = (uint32_t)rng_below(&r, nservers);
}

void hbase_inputs_start_codes(uint64_t seed, const hbase_inputs *in, uint64_t *codes, uint32_t n)
{
    rng r = rng_stream(seed, HBASE_INPUTS_STREAM + 1);
    uint64_t code = in->cluster_start_ms;
    for (uint32_t i = 0; i < n; i++) {
        codes[i] = code;
        code += rng_below(&r, STAGGER_MS) + 1;
    }
}
