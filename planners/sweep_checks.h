/* sweep_checks.h -- a sweep's assertion results for CI, from its table:
 * the lines on stderr, the JUnit report (--junit FILE), the comparison
 * with a baseline (--baseline FILE) and the exit status, the same for
 * `regionsim sweep FILE` and `regionsim merge DIR` (planners/sweep_checks.c).
 *
 * Part of the program, not of the sim library. Everything here reads only
 * the sweep_table (reports/sweep_report.h), which a sweep fills from its
 * runs and a merge from a plan's results: so the two print the same lines
 * (the baseline's table included) and write the same JUnit bytes for the
 * same plan.
 */
#ifndef REGIONSIM_SWEEP_CHECKS_H
#define REGIONSIM_SWEEP_CHECKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/sweep_baseline.h"
#include "reports/sweep_report.h"

/* Each failed check of t as one line to out, point by point in the
 * table's order: "regionsim CMD: at LABEL: FAILED ..." with the text of
 * assertion_describe (reports/assertion.h; values with the digits that
 * show the verdict). Returns how many failed, *npoints the points they
 * are at; or -1 with a message in err (a check whose expression does not
 * parse: a result file's, which the merge checks as it reads it). */
long sweep_print_failures(const sweep_table *t, const char *cmd, FILE *out, size_t *npoints,
                          char *err, size_t errcap);

/* t's checks as one JUnit document (reports/junit.h) into *text
 * (malloc'd, *len bytes): one testsuite named after the scenario, time 0
 * (the table keeps no run's duration), and one testcase per check, i.e.
 * per assertion, scheme and point, in the table's order:
 *   classname  "SCENARIO.SCHEME", as compare's (Jenkins: package
 *              SCENARIO, class SCHEME; GitLab: the suite column)
 *   name       "ASSERTION [VAR=VALUE VAR=VALUE]": the point in the name,
 *              so that every point is a case of its own under its scheme
 *              and reads whole where Jenkins and GitLab list the cases
 *              (a value in the classname would be cut at its dots by
 *              Jenkins' package/class split)
 * Returns 0, or -1 with a message in err (out of memory, an expression
 * that does not parse). */
int sweep_junit(const sweep_table *t, char **text, size_t *len, char *err, size_t errcap);

/* Checks, before a sweep runs or a merge reads, that the report's path
 * (output: -o, or --result for format 4; NULL: stdout) and junit (or
 * NULL) can be written (cli/output.h). Returns 0, or 2 after
 * "regionsim CMD: OPTION PATH: why" on stderr. */
int sweep_check_outputs(int format, const char *output, const char *junit, const char *cmd);

/* The end of `regionsim sweep` and `regionsim merge` once the table is
 * filled: the failed checks' lines (sweep_print_failures) to stderr, the
 * report (sweep_render_report: format; to output, or stdout) and the
 * JUnit file when junit is not NULL, written as one set (cli/output.h:
 * both or, on a failure or ^C, neither; format 4 is --result's exact
 * JSON, through no link another user owns), the comparison with the
 * baseline when baseline is not NULL (reports/sweep_baseline.h: as the
 * caller loaded it for t, before the sweep ran or once the merge read
 * its results; the file is not read again here), the figures the gate
 * judges at their tolerances (on a regression its totals and table to
 * stderr, as compare prints its own, control bytes of its path or message
 * escaped), then, unless format is the exact JSON of a planned point,
 * "regionsim CMD: N assertion results failed at M points", and the one
 * line of what held ("12 assertion results held at 6 points; 312 figures
 * within baseline OLD.json at 6 points"). The JUnit and the comparison are made before
 * anything is written: a baseline refused (or JUnit not rendered) leaves
 * nothing on stdout. Returns the exit status: 2 when something could not
 * be written or the baseline is refused (nothing after it is), else 1
 * when a check failed (never for the exact JSON) or a figure regressed,
 * else 0. */
int sweep_finish(const sweep_table *t, int format, const char *output, const char *junit,
                 const sweep_baseline *baseline, const baseline_gate *gate, const char *cmd);

#endif
