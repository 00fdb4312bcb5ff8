/* samples.h -- figures across samples (--samples N, issue 14).
 *
 * With `samples = N` the program runs the scenario N times, with seeds
 * seed .. seed+N-1, keeps the first sample's runs whole (every table of
 * one run shows them) and records every sample's scheme figures here, in
 * sim_results.sample_values. A writer asks for a figure's spread: the
 * min, median and max across the samples, so a number a CI job or a
 * planner reads is not one seed's luck.
 *
 * The figures recorded are the registry's (reports/figures.h) scheme
 * figures, by registry index; server figures stay the first sample's
 * (servers of two seeds are not the same servers in any sense that
 * matters). Pure: no I/O, no global state.
 */
#ifndef REGIONSIM_SAMPLES_H
#define REGIONSIM_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "reports/figures.h"
#include "engine/result.h"

/* Makes room in res for n samples (1 <= n) of its runs' figures and
 * records res's own runs as sample 0 (res->nsamples becomes n). Returns 0,
 * or -1 when out of memory (res unchanged). */
int samples_begin(sim_results *res, uint32_t n);

/* Records the scheme figures of `sample`, the same scenario run with seed
 * res->seed + k (the same schemes in the same order: asserted), as sample
 * k of res (0 < k < res->nsamples). `sample` may be freed afterwards. */
void samples_record(sim_results *res, uint32_t k, const sim_results *sample);

/* The same for one run: records `run`, scheme `scheme` of the scenario run
 * with seed res->seed + k, as sample k's figures of res's run `scheme`
 * (0 < k < res->nsamples, scheme < res->nruns, the same scheme: asserted).
 * Writes only that (k, scheme)'s slots: runs of different (k, scheme) may
 * be recorded from different threads at once. */
void samples_record_run(sim_results *res, uint32_t k, size_t scheme, const run_result *run);

typedef struct figure_spread {
    double min, median, max; /* over the samples where the figure is defined; NAN if none */
    uint32_t defined;        /* how many samples had it defined */
} figure_spread;

/* The spread of scheme figure f for run i of res across its samples. The
 * median of an even count is the mean of the middle two. With one sample
 * (or none recorded) all three are the run's own value. */
figure_spread samples_spread(const figure *f, const sim_results *res, size_t run);

/* Whether run i of res was overloaded on the median across its samples
 * (the figure `overloaded`'s median at least 0.5; with one sample, the
 * run's own verdict_overloaded), with the words of verdict_overload_words
 * on the medians of achieved and offered ops/s and the busiest server's
 * busy share into buf (cap bytes; "" when not). The one overload verdict
 * of a compare's text and HTML summary. */
int samples_overloaded(char *buf, size_t cap, const sim_results *res, size_t i);

/* Sample k's value of scheme figure f for run i (k < res->nsamples). */
double samples_value(const figure *f, const sim_results *res, size_t run, uint32_t k);

#endif
