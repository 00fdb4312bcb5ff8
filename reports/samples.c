/* samples.c -- figures across samples: record, then spread.
 *
 * Storage is one flat array of doubles, sample-major, then run, then the
 * registry's figure index (server figures' slots stay NAN: they are
 * recorded from the first sample only, by the writers themselves). At a
 * hundred figures and a dozen schemes a thousand samples are ~10 MB, and
 * nothing of a sample's run but these numbers outlives it.
 *
 * The spread sorts a copy of the defined values on the stack (insertion
 * sort: N is at most RESULT_MAX_SAMPLES, and a report asks once per
 * figure and run).
 */
#include "reports/samples.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/verdict.h"

static double *slot(const sim_results *res, uint32_t k, size_t run)
{
    return res->sample_values + ((size_t)k * res->nruns + run) * res->nvalues;
}

static void record_run(sim_results *res, uint32_t k, size_t i, const run_result *run)
{
    double *v = slot(res, k, i);
    for (size_t j = 0; j < res->nvalues; j++) {
        const figure *f = figure_get(j);
        v[j] = f->scope == FIGURE_SCHEME ? figure_value(f, run, 0) : NAN;
    }
}

static void record_runs(sim_results *res, uint32_t k, const sim_results *from)
{
    assert(from->nruns == res->nruns);
    for (size_t i = 0; i < res->nruns; i++)
        record_run(res, k, i, &from->runs[i]);
}

int samples_begin(sim_results *res, uint32_t n)
{
    assert(n >= 1);
    size_t nvalues = figure_count(), runs = res->nruns ? res->nruns : 1;
    if ((size_t)n > SIZE_MAX / runs / nvalues / sizeof(double))
        return -1;
    double *values = malloc((size_t)n * runs * nvalues * sizeof *values);
    if (!values)
        return -1;
    free(res->sample_values);
    res->sample_values = values;
    res->nvalues = nvalues;
    res->nsamples = n;
    for (size_t i = 0; i < (size_t)n * runs * nvalues; i++)
        values[i] = NAN;
    record_runs(res, 0, res);
    return 0;
}

void samples_record(sim_results *res, uint32_t k, const sim_results *sample)
{
    assert(res->sample_values && k > 0 && k < res->nsamples);
    for (size_t i = 0; i < res->nruns; i++)
        assert(!strcmp(res->runs[i].scheme_name, sample->runs[i].scheme_name));
    record_runs(res, k, sample);
}

void samples_record_run(sim_results *res, uint32_t k, size_t scheme, const run_result *run)
{
    assert(res->sample_values && k > 0 && k < res->nsamples && scheme < res->nruns);
    assert(!strcmp(res->runs[scheme].scheme_name, run->scheme_name));
    record_run(res, k, scheme, run);
}

double samples_value(const figure *f, const sim_results *res, size_t run, uint32_t k)
{
    assert(f->scope == FIGURE_SCHEME && run < res->nruns);
    if (!res->sample_values)
        return figure_value(f, &res->runs[run], 0);
    assert(k < res->nsamples);
    return slot(res, k, run)[figure_index(f)];
}

figure_spread samples_spread(const figure *f, const sim_results *res, size_t run)
{
    figure_spread s = { NAN, NAN, NAN, 0 };
    uint32_t n = res->sample_values ? res->nsamples : 1;
    double sorted[RESULT_MAX_SAMPLES];
    assert(n <= RESULT_MAX_SAMPLES);
    for (uint32_t k = 0; k < n; k++) {
        double v = samples_value(f, res, run, k);
        if (isnan(v))
            continue;
        size_t at = s.defined++; /* insertion sort: keep sorted[0..defined) ascending */
        while (at > 0 && sorted[at - 1] > v) {
            sorted[at] = sorted[at - 1];
            at--;
        }
        sorted[at] = v;
    }
    if (s.defined) {
        s.min = sorted[0];
        s.max = sorted[s.defined - 1];
        size_t mid = s.defined / 2;
        s.median = s.defined % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
    return s;
}

/* The median across res's samples of scheme figure `name` of run i. */
static double median_named(const sim_results *res, size_t i, const char *name)
{
    return samples_spread(figure_find(name), res, i).median;
}

int samples_overloaded(char *buf, size_t cap, const sim_results *res, size_t i)
{
    if (cap)
        buf[0] = '\0';
    if (!(median_named(res, i, "overloaded") >= 0.5))
        return 0;
    verdict_overload_words(buf, cap, median_named(res, i, "achieved_ops_per_s"),
                           median_named(res, i, "offered_ops_per_s"),
                           median_named(res, i, "busiest_busy"));
    return 1;
}
