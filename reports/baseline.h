/* baseline.h -- comparing a run's figures with a previous run's (issue 14).
 *
 * `--baseline OLD.json` reads the JSON report of an earlier run (the
 * "figures" of each of its runs) and compares every figure the registry
 * (reports/figures.h) knows, scheme by scheme, with this run's. A change
 * beyond the tolerance in the direction the figure calls worse is a
 * regression; beyond it the other way an improvement; figures without a
 * direction (counts) are listed when they change but never regress.
 *
 * The file is read once, before the run (baseline_load: a bad baseline
 * fails before any simulation), into a small value that the comparison
 * reads after the run (baseline_compare): the file itself is never read
 * twice, so a pipe works and a file replaced meanwhile changes nothing.
 */
#ifndef REGIONSIM_BASELINE_H
#define REGIONSIM_BASELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/figures.h"
#include "sim/result.h"

/* The default --tolerance: a relative change of 5%. */
#define BASELINE_TOLERANCE 0.05

typedef enum baseline_verdict {
    BASELINE_SAME = 0,       /* within the tolerance */
    BASELINE_REGRESSION,     /* worse beyond it */
    BASELINE_IMPROVEMENT,    /* better beyond it */
    BASELINE_CHANGED,        /* beyond it, for a figure without a direction */
} baseline_verdict;

typedef struct baseline_change {
    const char *scheme;      /* this run's scheme name (borrowed from res) */
    const figure *figure;
    double old_value, new_value;
    double relative;         /* (new - old) / |old|; +-INFINITY when old is 0 */
    baseline_verdict verdict;
} baseline_change;

typedef struct baseline_report {
    size_t nchanges;         /* every figure beyond the tolerance, in scheme then registry order */
    baseline_change *changes;
    size_t compared;         /* figure values compared (both defined) */
    size_t regressions;
    size_t schemes_missing;  /* this run's schemes the baseline does not have */
    uint32_t samples;        /* samples of both runs: above 1, medians were compared */
} baseline_report;

/* A baseline as baseline_load read it: the file's identifying fields
 * (scenario, workload, samples) and, per run, its scheme and the figures
 * with a value (and, with samples, the medians of its "spread"); nothing
 * else of the document, and no tie to the file. */
typedef struct baseline baseline;

/* Reads the JSON report at path once (up to max bytes: reports/json_read.h)
 * and checks it. Returns 0 with *out set (free with baseline_free), or -1
 * with a message in err: the file cannot be read (or is over max), is not
 * one JSON document, is not a regionsim JSON report, is of another schema
 * version ("PATH: a report of schema 2; this regionsim writes 3: make the
 * baseline again"), has a malformed run or figure (its JSON path:
 * "PATH: runs[2].figures.write_cov: expected a number or null, found a
 * string ('x')") or no figure with a value at all. The file is not read
 * again: a FIFO, a pipe (/dev/stdin, a shell's <(...)) reads as a regular
 * file does, and a file replaced after this call is compared as it was
 * here. What is kept is 16 bytes a figure with a value and each run's
 * scheme name; json-c's tree of the document (7 to 23 times its size) is
 * freed before returning. */
int baseline_load(const char *path, uint64_t max, baseline **out, char *err, size_t errcap);

void baseline_free(baseline *b);

/* Compares res with b (baseline_load; messages name its path). This
 * run's values are taken as the JSON report writes them
 * (baseline_as_written), so a report compared with itself is the same at
 * tolerance 0. Returns 0 with *out filled (free with
 * baseline_report_free), or -1 with a message in err: b is of another
 * scenario (its name or workload differ), or of another number of
 * samples, or no scheme of this run is in it, or nothing could be
 * compared (every figure this run defines is null or missing there), or
 * out of memory. tolerance >= 0 is relative. */
int baseline_compare(const baseline *b, const sim_results *res, double tolerance,
                     baseline_report *out, char *err, size_t errcap);

void baseline_report_free(baseline_report *r);

/* v as the JSON report writes it (reports/format.h's fmt_number:
 * integers whole, others to 6 significant digits), read back; NAN for an
 * undefined v. What a baseline's figure is compared with. */
double baseline_as_written(double v);

/* The verdict on figure f moving from old to now at the relative
 * tolerance (>= 0): BASELINE_SAME when |now - old| <= tolerance x |old|
 * (x 1 when old is 0: any move of more than the tolerance counts there),
 * else BASELINE_CHANGED for a figure without a direction, else
 * BASELINE_REGRESSION or BASELINE_IMPROVEMENT by f->better. old and now
 * must be finite. The rule of baseline_compare, shared with a sweep's
 * baseline (reports/sweep_baseline.h). */
baseline_verdict baseline_judge(const figure *f, double old, double now, double tolerance);

/* (now - old) / |old|; +INFINITY or -INFINITY when old is 0 (by the sign
 * of now; -INFINITY also when now is 0). */
double baseline_relative(double old, double now);

/* The change column of the tables: "+12.5%", or "from 0" for an infinite
 * relative change. Returns buf (cap bytes). */
const char *baseline_change_text(char *buf, size_t cap, double relative);

/* --tolerance's text as a relative change: a number from 0 to 1e6 and
 * nothing after it. Returns 0 with *out set, or -1. The one rule of
 * run, compare, sweep and merge. */
int baseline_parse_tolerance(const char *text, double *out);

/* "same", "REGRESSION", "better" or "changed". */
const char *baseline_verdict_name(baseline_verdict v);

/* The comparison for a person: one line of totals ("baseline OLD.json: 212
 * figures compared, 3 regressions beyond 5%"), then a table of every
 * change (scheme, figure, old, new, change, verdict), regressions first. */
void baseline_write(FILE *out, const char *path, const baseline_report *r, double tolerance);

#endif
