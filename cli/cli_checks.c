/* cli_checks.c -- assertions, JUnit and baselines for the command line.
 *
 * The assertions are parsed before anything runs (a bad one is exit status
 * 2 at once, not after an hour of simulation) and checked after the runs.
 * A figure bound "over last D" needs the figures of the run's last D only:
 * every figure counts the operations issued after the scenario's
 * measure_from, and a run is deterministic, so the scenario is run again
 * measured from (end - D) and the bound checked against that run. The end
 * is the main run's (its first run's duration: every scheme runs the same
 * phases; a trace replayed to its end may end at different times per
 * scheme, so each distinct end gets its own rerun). One rerun serves every
 * assertion with the same measuring point. Balance and steady read the
 * main run's windows.
 *
 * Samples (samples = N): the caller ran the first (the scenario's seed);
 * the others, seed+1 .. seed+N-1, are run here. With no assertion only
 * their figures are wanted: every (seed, scheme) is a task of one pool
 * (engine_run_seeds), each recording its run's figures into its own slots
 * and freeing the run, so all cores stay busy and memory is that of the
 * runs in flight. With assertions they run one at a time, each with its
 * own reruns. Of each only its figures (reports/samples.h) and its
 * assertions' results outlive it: every result is folded into the first
 * sample's (assertion_merge), so an assertion passes only if it passed in
 * every sample and shows its worst sample's value and seed. Memory stays
 * that of two samples at a time, whatever N is.
 *
 * The baseline (--baseline) is read in prepare, once: checked there and
 * kept as the figures the comparison needs (reports/baseline.h), which
 * compares them with the runs' at the end. Reading the file again after
 * the runs would find a pipe empty and a replaced file changed.
 */
#include "cli/cli_checks.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/nearest.h"
#include "reports/baseline.h"
#include "reports/json_read.h"
#include "reports/junit.h"
#include "reports/samples.h"
#include "engine/engine.h"
#include "scenario/units.h"

/* The baseline's size cap: --max-input, or the reader's default. */
static uint64_t baseline_max(const cli_checks *ch)
{
    return ch->max_input ? ch->max_input : JSON_READ_MAX_DEFAULT;
}

int cli_checks_parse_max_input(const char *text, uint64_t *out)
{
    uint64_t v;
    if (units_parse_size(text, &v) < 0 || v < 1 || v > JSON_READ_MAX_CEILING)
        return -1;
    *out = v;
    return 0;
}

double cli_checks_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_checks_prepare(cli_checks *ch, const scenario *sc, char *err, size_t errcap)
{
    ch->nassertions = 0;
    ch->started_s = cli_checks_clock();
    if (ch->baseline_path) { /* a file that cannot be a baseline: before any run */
        char why[1024];
        if (baseline_load(ch->baseline_path, baseline_max(ch), &ch->baseline, why,
                          sizeof why) < 0) {
            snprintf(err, errcap, "--baseline %s", why);
            return -1;
        }
    }
    if (sc->nassertions == 0)
        return 0;
    ch->assertions = calloc(sc->nassertions, sizeof *ch->assertions);
    if (!ch->assertions) {
        snprintf(err, errcap, "out of memory for the assertions");
        return -1;
    }
    for (size_t i = 0; i < sc->nassertions; i++) {
        const scenario_assertion *sa = &sc->assertions[i];
        char why[512], shown[160];
        if (assertion_parse_named(sa->name, sa->text, &ch->assertions[i], why, sizeof why) < 0) {
            escape_text(sa->text, 120, shown, sizeof shown);
            if (sa->name)
                snprintf(err, errcap, "%s: [assert %s] %s", sa->origin, sa->name, why);
            else
                snprintf(err, errcap, "%s '%s': %s", sa->origin, shown, why);
            return -1;
        }
        ch->nassertions++;
        const assertion *a = &ch->assertions[i];
        for (size_t k = 0; k < a->nschemes; k++) { /* a scheme it names must run */
            int runs = 0;
            for (size_t s = 0; s < sc->nschemes && !runs; s++)
                runs = !strcmp(scenario_scheme_label(sc, s), a->schemes[k]);
            if (!runs) {
                nearest n = nearest_start(a->schemes[k], nearest_limit(a->schemes[k]), 0);
                for (size_t s = 0; s < sc->nschemes; s++)
                    nearest_offer(&n, scenario_scheme_label(sc, s));
                char near[NEAREST_MAX_LEN + 32] = "";
                if (n.best)
                    snprintf(near, sizeof near, "did you mean '%s'? ", n.best);
                escape_text(a->schemes[k], 60, shown, sizeof shown);
                snprintf(err, errcap, "%s: assertion '%s': no scheme '%s' in this run (%s"
                         "--scheme or [scheme NAME] gives them)", sa->origin, a->text, shown,
                         near);
                return -1;
            }
        }
    }
    return 0;
}

void cli_checks_release(cli_checks *ch)
{
    for (size_t i = 0; i < ch->nreruns; i++)
        sim_results_free(&ch->reruns[i]);
    free(ch->reruns);
    free(ch->results);
    free(ch->assertions);
    baseline_free(ch->baseline);
    ch->baseline = NULL;
    ch->assertions = NULL;
    ch->results = NULL;
    ch->reruns = NULL;
    ch->nassertions = ch->nresults = ch->nreruns = 0;
}

/* The results a's figures are checked against: res itself, or a rerun of
 * sc measured from where a needs it (made once per seed and measuring
 * point and kept in ch). NULL with a message in err when a rerun fails. */
static const sim_results *measured_for(cli_checks *ch, const assertion *a, const scenario *sc,
                                       const sim_results *res, char *err, size_t errcap)
{
    uint64_t end = res->nruns ? res->runs[0].duration_us : 0;
    uint64_t from = assertion_measure_from(a, end, sc->measure_from_us);
    /* measure_from = auto: each run from its own warm-up's end, which is
     * never "the last D": an "over last" bound always runs again */
    int over_last = a->kind == ASSERTION_BOUND && a->over_last_us;
    if (from == sc->measure_from_us && !(sc->measure_auto && over_last))
        return res;
    for (size_t i = 0; i < ch->nreruns; i++)
        if (ch->reruns[i].measure_from_us == from && !ch->reruns[i].measure_auto &&
            ch->reruns[i].seed == sc->seed)
            return &ch->reruns[i];
    sim_results *more = realloc(ch->reruns, (ch->nreruns + 1) * sizeof *more);
    if (!more) {
        snprintf(err, errcap, "out of memory for the runs over the last part");
        return NULL;
    }
    ch->reruns = more;
    scenario again = *sc; /* borrows sc's strings; nothing of it is freed */
    again.measure_from_us = from;
    again.measure_auto = 0;
    char why[1024];
    if (engine_run_all(&again, NULL, &ch->reruns[ch->nreruns], why, sizeof why) < 0) {
        snprintf(err, errcap, "the run measured over the last part (for '%s'): %s", a->text, why);
        return NULL;
    }
    return &ch->reruns[ch->nreruns++];
}

/* Frees the reruns after the first `keep`. */
static void drop_reruns(cli_checks *ch, size_t keep)
{
    while (ch->nreruns > keep)
        sim_results_free(&ch->reruns[--ch->nreruns]);
}

/* Checks every assertion on res (the runs of sc, one sample), appending
 * the results to out (room for nassertions x res->nruns); *n counts them.
 * Returns 0, or -1 with a message in err. */
static int check_sample(cli_checks *ch, const scenario *sc, const sim_results *res,
                        assertion_result *out, size_t *n, char *err, size_t errcap)
{
    *n = 0;
    for (size_t i = 0; i < ch->nassertions; i++) {
        const assertion *a = &ch->assertions[i];
        const sim_results *on = measured_for(ch, a, sc, res, err, errcap);
        if (!on)
            return -1;
        int got = assertion_check(a, on, out + *n, err, errcap);
        if (got < 0)
            return -1;
        *n += (size_t)got;
    }
    return 0;
}

/* Sample k (seed sc->seed + k) of sc: run, its figures recorded in res,
 * its assertions' results folded into ch->results; then freed. */
static int run_sample(cli_checks *ch, const scenario *sc, uint32_t k,
                      const engine_observer *obs, sim_results *res, assertion_result *scratch,
                      char *err, size_t errcap)
{
    scenario again = *sc; /* borrows sc's strings; nothing of it is freed */
    again.seed = sc->seed + k;
    sim_results sample;
    char why[1024];
    if (engine_run_all(&again, obs, &sample, why, sizeof why) < 0) {
        snprintf(err, errcap, "sample %u (seed %llu): %s", (unsigned)k + 1,
                 (unsigned long long)again.seed, why);
        return -1;
    }
    samples_record(res, k, &sample);
    size_t keep = ch->nreruns, n = 0;
    int rc = check_sample(ch, &again, &sample, scratch, &n, err, errcap);
    if (rc == 0) {
        assert(n == ch->nresults); /* the same assertions on the same schemes */
        for (size_t i = 0; i < n; i++)
            assertion_merge(&ch->results[i], &scratch[i]);
    }
    drop_reruns(ch, keep); /* the merged results borrow names from the first sample only */
    sim_results_free(&sample);
    return rc;
}

/* engine_run_seeds' on_run: the run's figures into its (k, scheme) slots. */
static void record_seed_run(void *ctx, uint32_t k, size_t scheme, const run_result *run)
{
    samples_record_run(ctx, k, scheme, run);
}

/* The same with the caller's progress callback beside res. */
typedef struct seed_progress {
    const cli_checks *ch;
    sim_results *res;
} seed_progress;

static void record_seed_run_p(void *ctx, uint32_t k, size_t scheme, const run_result *run)
{
    samples_record_run(((seed_progress *)ctx)->res, k, scheme, run);
}

static void seed_progress_fn(void *ctx, uint32_t k, size_t scheme, uint64_t done_us,
                             uint64_t total_us)
{
    const cli_checks *ch = ((seed_progress *)ctx)->ch;
    ch->on_seed_progress(ch->sample_ctx, k, scheme, done_us, total_us);
}

/* Samples 1..N-1 of sc side by side, their figures recorded in res. */
static int run_samples_at_once(cli_checks *ch, const scenario *sc, sim_results *res,
                               char *err, size_t errcap)
{
    if (ch->on_seeds)
        ch->on_seeds(ch->sample_ctx, 1, sc->samples, sc->nschemes);
    /* the progress callback's ctx is the caller's; the runs' is res */
    engine_seed_observer so = { record_seed_run, NULL, res };
    seed_progress sp = { ch, res };
    if (ch->on_seed_progress) {
        so.on_run = record_seed_run_p;
        so.on_progress = seed_progress_fn;
        so.ctx = &sp;
    }
    char why[1024];
    if (engine_run_seeds(sc, 1, sc->samples, &so, why, sizeof why) < 0) {
        snprintf(err, errcap, "%s", why);
        return -1;
    }
    return 0;
}

int cli_checks_assert(cli_checks *ch, const scenario *sc, const engine_observer *obs,
                      sim_results *res, char *err, size_t errcap)
{
    if (sc->samples > 1 && samples_begin(res, sc->samples) < 0) {
        snprintf(err, errcap, "out of memory for the figures of %u samples",
                 (unsigned)sc->samples);
        return -1;
    }
    size_t cap = ch->nassertions * (res->nruns ? res->nruns : 1);
    assertion_result *scratch = NULL;
    if (ch->nassertions) {
        ch->results = calloc(cap, sizeof *ch->results);
        res->checks = calloc(cap, sizeof *res->checks);
        scratch = sc->samples > 1 ? calloc(cap, sizeof *scratch) : NULL;
        if (!ch->results || !res->checks || (sc->samples > 1 && !scratch)) {
            free(scratch);
            snprintf(err, errcap, "out of memory for the assertions' results");
            return -1;
        }
        if (check_sample(ch, sc, res, ch->results, &ch->nresults, err, errcap) < 0) {
            free(scratch);
            return -1;
        }
    }
    if (sc->samples > 1 && ch->nassertions == 0 &&
        run_samples_at_once(ch, sc, res, err, errcap) < 0)
        return -1;
    for (uint32_t k = 1; k < sc->samples && ch->nassertions; k++) {
        if (ch->on_sample)
            ch->on_sample(ch->sample_ctx, k);
        if (run_sample(ch, sc, k, obs, res, scratch, err, errcap) < 0) {
            free(scratch);
            return -1;
        }
    }
    free(scratch);
    int failed = 0;
    for (size_t i = 0; i < ch->nresults; i++) {
        if (assertion_to_check(&ch->results[i], &res->checks[res->nchecks]) < 0) {
            snprintf(err, errcap, "out of memory for the assertions' results");
            return -1;
        }
        res->nchecks++;
        failed += !ch->results[i].passed;
    }
    return failed;
}

void cli_checks_print_failures(const cli_checks *ch, FILE *out)
{
    for (size_t i = 0; i < ch->nresults; i++) {
        if (ch->results[i].passed)
            continue;
        char line[896];
        assertion_describe(&ch->results[i], line, sizeof line);
        fprintf(out, "%s\n", line);
    }
}

int cli_checks_junit(const cli_checks *ch, const sim_results *res, char **text, size_t *len,
                     char *err, size_t errcap)
{
    *text = NULL;
    *len = 0;
    FILE *f = open_memstream(text, len);
    if (!f) {
        snprintf(err, errcap, "out of memory for the JUnit report");
        return -1;
    }
    double simulated_s = 0; /* every scheme's run, times the samples */
    for (size_t i = 0; i < res->nruns; i++)
        simulated_s += (double)res->runs[i].duration_us / 1e6;
    simulated_s *= res->nsamples > 1 ? res->nsamples : 1;
    junit_suite suite = { res->scenario ? res->scenario : "regionsim", ch->results,
                          ch->nresults, cli_checks_clock() - ch->started_s, NULL, simulated_s };
    int rc = junit_write(f, &suite, 1, err, errcap);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, errcap, "out of memory for the JUnit report");
        rc = -1;
    }
    if (rc < 0) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

int cli_checks_baseline(const cli_checks *ch, const sim_results *res, baseline_report *out,
                        char *err, size_t errcap)
{
    if (!ch->baseline) { /* (prepare was not called, or failed) */
        memset(out, 0, sizeof *out);
        snprintf(err, errcap, "%s: not read before the run", ch->baseline_path);
        return -1;
    }
    return baseline_compare(ch->baseline, res, &ch->gate, out, err, errcap);
}
