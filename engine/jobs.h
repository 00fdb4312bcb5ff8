/* jobs.h -- independent tasks run side by side on threads.
 *
 * The engine runs a scenario's schemes this way (engine_jobs.c) and a
 * sweep its points (sweep_run.c): tasks 0..n-1, each writing only its own
 * slots, taken in index order from a shared counter by up to `threads`
 * threads. Whatever the threads and their timing, the outcome is the one
 * of running them in turn: on failure the message is the lowest-indexed
 * failed task's, and no task starts once one has failed.
 */
#ifndef REGIONSIM_JOBS_H
#define REGIONSIM_JOBS_H

#include <stddef.h>
#include <stdint.h>

/* One task: 0, or -1 with a message in err (errcap bytes). */
typedef int (*jobs_task_fn)(void *ctx, size_t i, char *err, size_t errcap);

/* Runs task(ctx, i) for every i < n on up to `threads` threads (1 or
 * less: in turn on this thread, stopping at the first failure; when no
 * thread can be started this thread does the work). Returns 0, or -1 with
 * the lowest-indexed failure's message in err. Tasks that did not run or
 * failed are the caller's to clean up. */
int jobs_run(size_t n, uint32_t threads, jobs_task_fn task, void *ctx, char *err,
             size_t errcap);

#endif
