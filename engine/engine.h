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
#include "engine/result.h"
#include "scenario/scenario.h"

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
 * (engine/budget.h): a run estimated to need more than this process may use
 * is refused at once, the message naming what it would need and why. */
int engine_run_all(const scenario *sc, const engine_observer *obs, sim_results *out,
                   char *err, size_t errcap);

/* Seeds of a scenario's samples, run side by side (engine_run_seeds).
 * on_run hears of each finished run on the thread that made it, with no
 * lock held: it may write only what belongs to (k, scheme), and the run is
 * freed when it returns. on_progress (may be NULL) is engine_progress_fn's
 * report for run (k, scheme), called under a mutex. */
typedef struct engine_seed_observer {
    void (*on_run)(void *ctx, uint32_t k, size_t scheme, const run_result *run);
    void (*on_progress)(void *ctx, uint32_t k, size_t scheme, uint64_t done_us,
                        uint64_t total_us);
    void *ctx;
} engine_seed_observer;

/* Runs every scheme of sc once with seed sc->seed + k for each k in
 * [from, to) (to > from; the seeds must not pass 2^64-1: scenario_validate
 * checks that for k < sc->samples): (to - from) x nschemes runs, taken
 * seed by seed, scheme by scheme, by sc's jobs (0: one per core) threads
 * up to the runs, so the samples of a scenario use every core however few
 * schemes it has (more threads than schemes only when the memory budget
 * admits that many runs of its largest scheme at once; else
 * scenario_jobs(sc)'s). Each
 * run is handed to obs->on_run, then freed; nothing else of it is kept, so
 * memory is that of the runs in flight (what engine_run_all admits).
 * Whatever the threads, obs->on_run sees the same runs (each (k, scheme)
 * once); once a run fails none starts, and err holds the message of the
 * first failed in that order ("seed N: ..."). Returns 0 or -1. */
int engine_run_seeds(const scenario *sc, uint32_t from, uint32_t to,
                     const engine_seed_observer *obs, char *err, size_t errcap);

void run_result_free(run_result *r);
void sim_results_free(sim_results *res);

#endif
