/* progress.h -- the progress bar the command line shows on stderr.
 *
 * Shown only when stderr is a terminal that can redraw a line (TERM set and
 * not "dumb") and only once the work has taken
 * more than a second, so quick runs, pipes, CI logs and tests see nothing.
 * It redraws at most ten times a second on one line ("\r") and erases that
 * line when done, so the report that follows starts on a clean terminal.
 * The wall clock is read here and only here: it decides when to draw,
 * never what the simulation does.
 *
 * Two kinds of work: a scenario's runs (compare, run, watch:
 * progress_init, the line names the scheme running), or a count of tasks
 * of one kind (a sweep's points, advise's candidates: progress_init_tasks,
 * the line says how many are finished of how many, "points 3/12"). The bar
 * is each run's or task's share done, added up; the same rules decide
 * whether and when it shows. A bar is called from one thread at a time
 * (callers with threads hold a lock around it, as engine_jobs.c does).
 */
#ifndef REGIONSIM_PROGRESS_H
#define REGIONSIM_PROGRESS_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "scenario/scenario.h"

typedef struct progress {
    FILE *out;
    const scenario *sc;       /* for the schemes' names */
    int enabled;              /* out is a terminal that can redraw */
    int shown;                /* a line is on the screen */
    struct timespec start;
    double last_draw;         /* seconds since start of the last redraw */
    uint32_t sample, nsamples;/* which of sc's samples runs (progress_sample), of how many */
    double done[SCENARIO_MAX_SCHEMES]; /* each run's share done in this sample (runs may
                                        * overlap: --jobs) */
    /* tasks (progress_init_tasks; sc is then NULL) */
    const char *noun;         /* "points" */
    size_t ntasks;
    double *task_done;        /* ntasks: each task's share done (malloc'd when enabled) */
    double tasks_sum;         /* their sum */
    size_t tasks_finished;    /* tasks done in full */
    size_t batch_first;       /* progress_update's run 0 is this task */
    uint32_t seeds_from;      /* progress_seeds: task (k - seeds_from) * nschemes + scheme */
    size_t seeds_nschemes;
} progress;

/* A bar on `out` for the runs of sc, enabled when `out` is a terminal and
 * TERM names one that can redraw (set, not "dumb"). */
void progress_init(progress *p, FILE *out, const scenario *sc);

/* An engine_progress_fn; ctx is the progress. On a tasks bar, run `run`
 * is task batch_first + run (progress_batch). */
void progress_update(void *ctx, size_t run, size_t nruns, uint64_t done_us, uint64_t total_us);

/* Sample k of the scenario's samples runs next (0 first: progress_init's
 * default); the bar covers all of them. */
void progress_sample(progress *p, uint32_t k);

/* The scenario's samples from..to-1 now run side by side, nschemes runs
 * each (engine_run_seeds): the bar becomes a tasks bar over those runs
 * ("runs 13/48"), keeping what is on the screen and when it was drawn;
 * progress_seed_update reports each run. */
void progress_seeds(progress *p, uint32_t from, uint32_t to, size_t nschemes);

/* Run (sample k, scheme) of those is done_us of total_us along (an
 * engine_seed_observer's on_progress; ctx is the progress). */
void progress_seed_update(void *ctx, uint32_t k, size_t scheme, uint64_t done_us,
                          uint64_t total_us);

/* A bar on `out` for `total` tasks, the line naming them `noun` (a static
 * string: "points", "candidates"); enabled as progress_init's (and not for
 * 0 tasks, or when the tasks' memory cannot be had: the bar is only a
 * courtesy). progress_done must follow. */
void progress_init_tasks(progress *p, FILE *out, const char *noun, size_t total);

/* Task i (< total; others are ignored) is `share` done (0..1): a task's
 * share never goes back. */
void progress_task(progress *p, size_t i, double share);

/* For tasks that are an engine's runs (advise's candidates, a batch at a
 * time): progress_update's run k is task first + k from now on. ctx is the
 * progress (an advise_observer's on_batch). */
void progress_batch(void *ctx, size_t first);

/* Erases the bar if it is on the screen (and frees a tasks bar's memory). */
void progress_done(progress *p);

#endif
