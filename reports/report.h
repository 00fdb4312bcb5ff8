/* report.h -- the report writers: one function per format.
 *
 * Writers read a finished sim_results and print it; they compute derived
 * figures through reports/stats.h and never touch the simulation. Output is
 * a pure function of the results: the same results give the same bytes.
 */
#ifndef REGIONSIM_REPORT_H
#define REGIONSIM_REPORT_H

#include <stdio.h>

#include "sim/result.h"

/* Per-server write histogram of one run as text bars, with the run's
 * imbalance figures. width = columns for the longest bar (>= 10). */
void text_write_run(FILE *out, const sim_results *res, const run_result *run, int width);

/* One row per run: the compare table. */
void text_write_compare(FILE *out, const sim_results *res);

/* The whole result as JSON (schema in README.md, "JSON output"). */
void json_write(FILE *out, const sim_results *res);

#endif
