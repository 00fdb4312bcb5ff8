/* progress.h -- the progress bar the command line shows on stderr.
 *
 * Shown only when stderr is a terminal that can redraw a line (TERM set and
 * not "dumb") and only once the work has taken
 * more than a second, so quick runs, pipes, CI logs and tests see nothing.
 * It redraws at most ten times a second on one line ("\r") and erases that
 * line when done, so the report that follows starts on a clean terminal.
 * The wall clock is read here and only here: it decides when to draw,
 * never what the simulation does.
 */
#ifndef REGIONSIM_PROGRESS_H
#define REGIONSIM_PROGRESS_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "sim/scenario.h"

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
} progress;

/* A bar on `out` for the runs of sc, enabled when `out` is a terminal and
 * TERM names one that can redraw (set, not "dumb"). */
void progress_init(progress *p, FILE *out, const scenario *sc);

/* An engine_progress_fn; ctx is the progress. */
void progress_update(void *ctx, size_t run, size_t nruns, uint64_t done_us, uint64_t total_us);

/* Sample k of the scenario's samples runs next (0 first: progress_init's
 * default); the bar covers all of them. */
void progress_sample(progress *p, uint32_t k);

/* Erases the bar if it is on the screen. */
void progress_done(progress *p);

#endif
