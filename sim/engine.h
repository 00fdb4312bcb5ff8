/* engine.h -- runs a scenario: the discrete-event loop.
 *
 * A run owns everything it touches (cluster, pattern, key encoder, event
 * queue, counters) and frees it before returning, so runs are values: two
 * runs of the same scenario and seed, in one process or two, produce the
 * same result. Data flows one way: pattern -> key scheme -> cluster ->
 * counters -> run_result.
 */
#ifndef REGIONSIM_ENGINE_H
#define REGIONSIM_ENGINE_H

#include <stddef.h>

#include "core/cluster.h"
#include "workloads/record.h"
#include "sim/result.h"
#include "sim/scenario.h"

/* Called after every operation with its record, its row key, the cluster
 * (after the operation and any split it caused) and the server that took
 * it. Return nonzero to stop the run early (the result then covers the
 * operations so far). */
typedef int (*engine_op_fn)(void *ctx, uint64_t t_us, const record *rec, keyref key,
                            const cluster *c, uint32_t server);

/* Called now and then (at each report window and every 65536 operations,
 * and once when the run is done, with done_us = total_us) with how far run
 * `run` of `nruns` (the scenario's schemes) has got:
 * done_us of total_us simulated microseconds; total_us is 0 when unknown
 * (a trace replayed to its end). For a progress bar: it must not touch the
 * run. */
typedef void (*engine_progress_fn)(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                                   uint64_t total_us);

/* Either function may be NULL. */
typedef struct engine_observer {
    engine_op_fn on_op;
    engine_progress_fn on_progress;
    void *ctx;
} engine_observer;

/* Runs scheme i of sc (sc must pass scenario_validate). obs may be NULL.
 * Returns 0 and fills *out (free with run_result_free), or -1 with a
 * message in err (out is then empty). */
int engine_run(const scenario *sc, size_t scheme, const engine_observer *obs,
               run_result *out, char *err, size_t errcap);

/* Runs every scheme of sc into *out (free with sim_results_free), each
 * watched by obs (may be NULL). Returns 0, or -1 with a message in err and
 * nothing in *out. Before it allocates anything it asks the memory budget
 * (sim/budget.h): a run estimated to need more than this process may use
 * is refused at once, the message naming what it would need and why. */
int engine_run_all(const scenario *sc, const engine_observer *obs, sim_results *out,
                   char *err, size_t errcap);

void run_result_free(run_result *r);
void sim_results_free(sim_results *res);

#endif
