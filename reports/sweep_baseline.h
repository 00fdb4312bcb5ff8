/* sweep_baseline.h -- a sweep's figures against an earlier sweep's JSON
 * report (`regionsim sweep FILE --baseline OLD.json`, `regionsim merge
 * DIR --baseline OLD.json`).
 *
 * OLD.json is the `--format json` report of an earlier sweep (or merge)
 * of the same scenario and variables. Points are matched by their
 * variables' values, not by index (a sweep that adds a value to a list
 * still compares the points both have), schemes by name; every figure the
 * gate judges (reports/baseline.h's baseline_gate: the headline figures
 * unless chosen) that both sides define is judged by baseline_judge, the
 * rule of compare's baselines: a regression, an improvement, a change of
 * a figure without a direction, or the same. A baseline run with a
 * "spread" (several samples a point) gives the band its range.
 * This sweep's values are taken as its JSON writes them (6 significant
 * digits), so a report compared with itself shows no change.
 *
 * The file is read once (sweep_baseline_load), before the sweep runs (a
 * merge: once its results are read), into a small value that the
 * comparison reads once the table is filled (sweep_baseline_compare): the
 * file itself is never read twice, so a pipe works and a file replaced
 * meanwhile changes nothing.
 */
#ifndef REGIONSIM_SWEEP_BASELINE_H
#define REGIONSIM_SWEEP_BASELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/baseline.h"
#include "reports/sweep_report.h"

typedef struct sweep_baseline_change {
    size_t point;             /* this sweep's point */
    size_t scheme;            /* this sweep's scheme (t->schemes) */
    const figure *figure;
    baseline_band old;        /* the baseline's value (or its samples' range) */
    double new_value;
    double limit;             /* the edge of the widened band it crossed (baseline_judge) */
    double relative;          /* baseline_relative to the old median */
    baseline_verdict verdict; /* never BASELINE_SAME */
} sweep_baseline_change;

typedef struct sweep_baseline_report {
    size_t nchanges;          /* every figure beyond the tolerance: point, scheme, registry order */
    sweep_baseline_change *changes;
    size_t compared;          /* figure values compared (both defined) */
    size_t moving;            /* not judged: the baseline's own seeds moved them (baseline_moves) */
    size_t regressions;
    size_t points;            /* points both sweeps have */
    size_t points_new;        /* this sweep's points the baseline does not have */
    size_t points_old;        /* the baseline's points this sweep does not have */
    size_t schemes_new;       /* this sweep's schemes the baseline does not have */
    size_t schemes_old;       /* the baseline's schemes this sweep does not have */
} sweep_baseline_report;

/* A sweep's baseline as sweep_baseline_load read it for a table: for each
 * of the table's points and schemes, the figures with a value of the
 * baseline's run there; nothing else of the document, and no tie to the
 * file. */
typedef struct sweep_baseline sweep_baseline;

/* Reads the file at path once (up to max bytes: reports/json_read.h) and
 * checks that it can be compared with t, whose echo of the sweep
 * (scenario, variables, values, schemes) must be filled; t's figures are
 * not read (a sweep loads its baseline before it runs). Returns 0 with
 * *out set (free with sweep_baseline_free), or -1 with "PATH: what
 * differs" in err: the file cannot be read, is over max or is not JSON;
 * it is not a sweep's JSON report (a run's report is named as one); its
 * "version" is not SWEEP_JSON_VERSION; it is of another scenario name or
 * other variables (another set of names); a point is malformed or a
 * second one at the same values; a figure is neither a number nor null
 * ("PATH: points[3].runs[0].figures.write_cov: expected a number or
 * null, found a string ('x')"); no figure has a value; no point or no
 * scheme is in both; out of memory. The file is not read again: a FIFO
 * or a pipe (/dev/stdin) reads as a regular file does, and a file
 * replaced after this call is compared as it was here. What is kept is
 * 16 bytes a figure with a value of the points and schemes t has; the
 * json-c tree of the document (7 to 23 times its size) is freed before
 * returning. */
int sweep_baseline_load(const char *path, const sweep_table *t, uint64_t max,
                        sweep_baseline **out, char *err, size_t errcap);

void sweep_baseline_free(sweep_baseline *b);

/* The path b was read from, as given. */
const char *sweep_baseline_path(const sweep_baseline *b);

/* The comparison of every figure g judges (at its tolerances) of every
 * point and scheme that t and b both have into *out (free with
 * sweep_baseline_report_free). t must be the table b was loaded for (the
 * same points and schemes), now with its figures. Returns 0, or -1 with
 * a message in err (out of memory; no figure could be compared: every
 * value g judges that this sweep defines is null or missing in the
 * baseline; t of another number of points or schemes than at load);
 * *out then holds nothing. */
int sweep_baseline_compare(const sweep_baseline *b, const sweep_table *t, const baseline_gate *g,
                           sweep_baseline_report *out, char *err, size_t errcap);

void sweep_baseline_report_free(sweep_baseline_report *r);

/* The comparison for a person, in compare's form: one line of totals
 * ("baseline OLD.json: 312 figures compared at 6 points, 2 regressions
 * beyond 5%", then in parentheses the points and schemes of either side
 * without a partner), then, when something changed, a table of every
 * change (point label, scheme, figure, baseline, now, change, verdict),
 * regressions first. */
void sweep_baseline_write(FILE *out, const char *path, const sweep_table *t,
                          const sweep_baseline_report *r);

/* The one line of a comparison that passed: "312 figures within baseline
 * OLD.json at 6 points", then what had no partner as sweep_baseline_write
 * says it. Into buf (cap); returns buf. */
const char *sweep_baseline_passed_text(char *buf, size_t cap, const char *path,
                                       const sweep_baseline_report *r);

#endif
