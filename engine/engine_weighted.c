/* engine_weighted.c -- the engine's weighted mode (scenario/weighting.h).
 *
 * Set up once a run: the weight goes to the cluster (which multiplies its
 * counts and serves RPCs through weighted_serve instead of the FIFO
 * queues), to the key space heatmap (a key stands for w) and to each
 * phase's pattern (pattern_set_weight, in engine.c's phase_begin); the
 * engine multiplies its own counts by st->weight (1 per-op, so the
 * per-op path has no branch of its own for them). Each server's fluid
 * state (engine/fluid.h) is kept by server id and its window closed at every
 * report window's tick. An RPC's reply is its arrival plus the fluid
 * wait (backlog and the M/G/1 draw, from the run's own random stream)
 * plus its service time, no sooner than its region is back online plus
 * the service (server_serve's rule), and at least one tick later.
 */
#include "engine/engine_impl.h"

#include <math.h>
#include <stdlib.h>

#include "engine/fluid.h"
#include "scenario/weighting.h"

/* cluster_serve_fn: an RPC standing for `weight` on server s. */
static uint64_t weighted_serve(void *ctx, server *s, uint64_t t_us, uint64_t ready_us,
                               uint64_t service_us, uint64_t weight)
{
    run_state *st = ctx;
    fluid_server *f = &st->fluid[s->id];
    double wait = fluid_arrive(f, t_us, (double)weight, (double)service_us,
                               rng_double(&st->fluid_rng));
    uint64_t wait_us = wait < 1e15 ? (uint64_t)(wait + 0.5) : (uint64_t)1e15;
    uint64_t reply = t_us + wait_us + service_us;
    if (reply < ready_us + service_us)
        reply = ready_us + service_us;
    if (reply <= t_us)
        reply = t_us + 1;
    s->busy_us += weight * service_us;
    s->rpcs += weight;
    /* RPCs in the server as this one arrives, by the work ahead of it */
    uint64_t queue = (uint64_t)(wait / (service_us ? (double)service_us : 1.0)) + 1;
    if (queue > s->longest_queue)
        s->longest_queue = queue;
    if (s->latency.counts)
        histogram_record_n(&s->latency, reply - t_us, weight);
    return reply;
}

int engine_weighted_setup(run_state *st, const engine_observer *obs, char *err, size_t errcap)
{
    weighting wt;
    if (weighting_resolve(st->sc, obs && obs->on_op, &wt, err, errcap) < 0)
        return -1;
    st->weight = wt.weight;
    if (!wt.weighted)
        return 0;
    st->weighted = 1;
    st->nfluid = scenario_max_servers(st->sc);
    st->fluid = calloc(st->nfluid, sizeof *st->fluid);
    if (!st->fluid)
        return engine_fail(err, errcap, "out of memory for the servers' fluid queues");
    st->fluid_rng = rng_stream(st->sc->seed, RNG_STREAM_FLUID);
    st->table->weight = wt.weight;
    st->table->serve = weighted_serve;
    st->table->serve_ctx = st;
    st->keyspace.weight = wt.weight;
    return 0;
}

void engine_weighted_window(run_state *st, uint64_t t_us)
{
    for (uint32_t id = 0; id < st->nfluid; id++)
        fluid_window_end(&st->fluid[id], t_us);
}
