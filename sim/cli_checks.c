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
 */
#include "sim/cli_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/baseline.h"
#include "reports/junit.h"
#include "sim/engine.h"
#include "sim/units.h"

int cli_checks_prepare(cli_checks *ch, const scenario *sc, char *err, size_t errcap)
{
    ch->nassertions = 0;
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
            units_escape(sa->text, 120, shown, sizeof shown);
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
                units_escape(a->schemes[k], 60, shown, sizeof shown);
                snprintf(err, errcap, "%s: assertion '%s': no scheme '%s' in this run "
                         "(--scheme or [scheme NAME] gives them)", sa->origin, a->text, shown);
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
    ch->assertions = NULL;
    ch->results = NULL;
    ch->reruns = NULL;
    ch->nassertions = ch->nresults = ch->nreruns = 0;
}

/* The results a's figures are checked against: res itself, or a rerun of
 * sc measured from where a needs it (made once per measuring point and
 * kept in ch). NULL with a message in err when a rerun fails. */
static const sim_results *measured_for(cli_checks *ch, const assertion *a, const scenario *sc,
                                       const sim_results *res, char *err, size_t errcap)
{
    uint64_t end = res->nruns ? res->runs[0].duration_us : 0;
    uint64_t from = assertion_measure_from(a, end, sc->measure_from_us);
    if (from == sc->measure_from_us)
        return res;
    for (size_t i = 0; i < ch->nreruns; i++)
        if (ch->reruns[i].measure_from_us == from)
            return &ch->reruns[i];
    sim_results *more = realloc(ch->reruns, (ch->nreruns + 1) * sizeof *more);
    if (!more) {
        snprintf(err, errcap, "out of memory for the runs over the last part");
        return NULL;
    }
    ch->reruns = more;
    scenario again = *sc; /* borrows sc's strings; nothing of it is freed */
    again.measure_from_us = from;
    char why[1024];
    if (engine_run_all(&again, NULL, &ch->reruns[ch->nreruns], why, sizeof why) < 0) {
        snprintf(err, errcap, "the run measured over the last part (for '%s'): %s", a->text, why);
        return NULL;
    }
    return &ch->reruns[ch->nreruns++];
}

int cli_checks_assert(cli_checks *ch, const scenario *sc, sim_results *res, char *err,
                      size_t errcap)
{
    if (ch->nassertions == 0)
        return 0;
    size_t cap = ch->nassertions * (res->nruns ? res->nruns : 1);
    ch->results = calloc(cap, sizeof *ch->results);
    res->checks = calloc(cap, sizeof *res->checks);
    if (!ch->results || !res->checks) {
        snprintf(err, errcap, "out of memory for the assertions' results");
        return -1;
    }
    int failed = 0;
    for (size_t i = 0; i < ch->nassertions; i++) {
        const assertion *a = &ch->assertions[i];
        const sim_results *on = measured_for(ch, a, sc, res, err, errcap);
        if (!on)
            return -1;
        int n = assertion_check(a, on, ch->results + ch->nresults, err, errcap);
        if (n < 0)
            return -1;
        for (int k = 0; k < n; k++) {
            const assertion_result *r = &ch->results[ch->nresults++];
            if (assertion_to_check(r, &res->checks[res->nchecks]) < 0) {
                snprintf(err, errcap, "out of memory for the assertions' results");
                return -1;
            }
            res->nchecks++;
            if (!r->passed) {
                char line[768];
                assertion_describe(r, line, sizeof line);
                fprintf(stderr, "%s\n", line);
                failed++;
            }
        }
    }
    return failed;
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
    double time_s = 0;
    for (size_t i = 0; i < res->nruns; i++)
        time_s += (double)res->runs[i].duration_us / 1e6;
    junit_suite suite = { res->scenario ? res->scenario : "regionsim", ch->results,
                          ch->nresults, time_s };
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

int cli_checks_baseline(const cli_checks *ch, const sim_results *res, char *err, size_t errcap)
{
    baseline_report r;
    if (baseline_compare(ch->baseline_path, res, ch->tolerance, &r, err, errcap) < 0)
        return -1;
    baseline_write(stderr, ch->baseline_path, &r, ch->tolerance);
    int regressions = (int)r.regressions;
    baseline_report_free(&r);
    return regressions;
}
