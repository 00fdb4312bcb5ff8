/* cli_checks.h -- what the command line does for CI after the runs (issue 14).
 *
 * Part of the program (linked into regionsim with main.c, not into the sim
 * library): it joins the simulation and the reports. The checks: the
 * scenario's assertions ([assert NAME], --assert) against the runs, a
 * JUnit report of them (--junit FILE), and a comparison with a previous
 * run's JSON report (--baseline FILE, --tolerance F). Exit status: 0 every
 * check held, 1 an assertion failed or a figure regressed, 2 bad usage or
 * input (kept apart so CI can tell a regression from a broken job).
 */
#ifndef REGIONSIM_CLI_CHECKS_H
#define REGIONSIM_CLI_CHECKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/assertion.h"
#include "reports/baseline.h"
#include "engine/engine.h"
#include "engine/result.h"
#include "scenario/scenario.h"

typedef struct cli_checks {
    const char *junit_path;    /* --junit FILE, or NULL (set by the caller) */
    const char *baseline_path; /* --baseline FILE, or NULL (set by the caller) */
    baseline_gate gate;        /* --baseline-figures, --tolerance, --tolerance-abs
                                * (baseline_gate_init, then the options; set by the caller) */
    uint64_t max_input;        /* --max-input: the baseline's size cap in bytes
                                * (reports/json_read.h); 0 means JSON_READ_MAX_DEFAULT */
    /* told before sample k (k >= 1) runs, e.g. for a progress bar; may be
     * NULL (set by the caller) */
    void (*on_sample)(void *ctx, uint32_t k);
    /* with no assertion the samples after the first run side by side
     * (engine_run_seeds): told once before they start, then how far each
     * (sample k, scheme) has got; either may be NULL (set by the caller) */
    void (*on_seeds)(void *ctx, uint32_t from, uint32_t to, size_t nschemes);
    void (*on_seed_progress)(void *ctx, uint32_t k, size_t scheme, uint64_t done_us,
                             uint64_t total_us);
    void *sample_ctx;
    /* filled by cli_checks_prepare and cli_checks_assert */
    double started_s;          /* the monotonic clock when prepare began: the job's start */
    baseline *baseline;        /* baseline_path's file, read once by prepare (NULL: none) */
    assertion *assertions;     /* parsed from the scenario's texts, in order */
    size_t nassertions;
    assertion_result *results; /* every assertion's result on every run it applies to */
    size_t nresults;
    sim_results *reruns;       /* the runs measured over an "over last" (their schemes
                                * are the results'), kept until release */
    size_t nreruns;
} cli_checks;

/* Reads ch->baseline_path (if set) into ch->baseline, once: the file is
 * checked now and not read again (baseline_load), so neither a bad
 * baseline nor a bad assertion fails after the runs; then parses sc's
 * assertions into ch. Returns 0, or -1 with "ORIGIN: ..." in err: a
 * malformed assertion, a figure the registry lacks, a scheme the scenario
 * does not run, or "--baseline PATH: ..." for a file that is no
 * baseline. */
int cli_checks_prepare(cli_checks *ch, const scenario *sc, char *err, size_t errcap);

/* --max-input's text as a JSON input's size cap in bytes: a size as
 * scenario/units.h reads it, from 1B to JSON_READ_MAX_CEILING (1TiB). Returns
 * 0 with *out set, or -1. The one rule of compare, run, sweep and merge. */
int cli_checks_parse_max_input(const char *text, uint64_t *out);

/* Frees what prepare and assert made (not the caller's fields). */
void cli_checks_release(cli_checks *ch);

/* Runs the scenario's other samples (sc->samples > 1: seeds sc->seed+1 ..
 * sc->seed+samples-1; res is the first, run with sc->seed), each watched
 * by obs (may be NULL), and records every sample's figures in res
 * (reports/samples.h). Without assertions they run side by side, every
 * (seed, scheme) a task on scenario_jobs(sc) threads (engine_run_seeds;
 * the figures are the same whatever the threads); with assertions one
 * sample at a time, its schemes side by side. Evaluates the assertions on every sample, running
 * sc again measured from later for each distinct "over last" of a figure
 * bound; a result passes only if it passed in every sample. Stores every
 * result in ch->results and res->checks (so the reports show them).
 * Returns the number failed, or -1 with a message in err (out of memory,
 * a run that failed). Prints nothing. */
int cli_checks_assert(cli_checks *ch, const scenario *sc, const engine_observer *obs,
                      sim_results *res, char *err, size_t errcap);

/* Each failed result of ch as one line (assertion_describe) to out. */
void cli_checks_print_failures(const cli_checks *ch, FILE *out);

/* The monotonic clock in seconds (CLOCK_MONOTONIC): wall time that steps
 * and slews of the system clock do not move. */
double cli_checks_clock(void);

/* The JUnit report of ch->results into *text (malloc'd, *len bytes), the
 * testsuite named after the scenario, its time the wall time since
 * prepare began (monotonic clock), the simulated seconds of the runs
 * (every scheme's, times the samples) a property.
 * Returns 0, or -1 with a message. */
int cli_checks_junit(const cli_checks *ch, const sim_results *res, char **text, size_t *len,
                     char *err, size_t errcap);

/* Compares res with ch->baseline (as prepare read it; the file is not
 * read again) into *out (free with baseline_report_free; baseline_write
 * prints it). Returns 0, or -1 with a message in err (the baseline
 * refused: exit status 2). */
int cli_checks_baseline(const cli_checks *ch, const sim_results *res, baseline_report *out,
                        char *err, size_t errcap);

#endif
