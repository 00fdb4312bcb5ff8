/* sweep_run.h -- the `regionsim sweep` command (planners/sweep_run.c).
 *
 * Part of the program, not of the sim library: it joins the sweep's
 * points (scenario/sweep.h), the engine, the assertions (cli/cli_checks.h) and
 * the reports (reports/sweep_report.h).
 */
#ifndef REGIONSIM_SWEEP_RUN_H
#define REGIONSIM_SWEEP_RUN_H

#include <stddef.h>

/* Runs `regionsim sweep FILE [options]` (argv[1] is "sweep") and returns
 * the exit status: 0 every point ran and every assertion held, 1 an
 * assertion failed at some point (each failure a line on stderr naming
 * the point), 2 bad usage or input (one message, nothing on stdout). The
 * report goes to stdout or -o PATH, the assertions' JUnit to --junit FILE
 * (planners/sweep_checks.h; refused with --plan and --result), the comparison
 * with an earlier sweep's JSON to stderr with --baseline FILE (checked
 * before any point runs; a regression makes the status 1; refused with
 * --plan and --result). With --plan DIR nothing runs: the
 * plan is written (planners/sweep_plan.h); with --result PATH the exact JSON
 * goes to PATH and a failed assertion leaves the status 0. */
int sweep_main(int argc, char **argv);

struct sweep_table;

/* snprintf into err (errcap bytes) for the sweep's messages, which may be
 * cut: a point's label and a message from below, each up to a buffer. */
void sweep_say(char *err, size_t errcap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Table t rendered as `regionsim sweep` writes it: format 0 text, 1 json,
 * 2 csv, 3 html, 4 exact json (a planned point's result), into *text
 * (malloc'd, *len bytes). Returns 0, or 2 after "regionsim CMD: out of
 * memory" on stderr. */
int sweep_render_report(const struct sweep_table *t, int format, char **text, size_t *len,
                        const char *cmd);

/* Table t rendered (sweep_render_report), then to stdout, or to output by
 * cli/output.h's rules (format 4, the exact JSON, as --result: a symlink
 * there must be the user's own). cmd names the command in messages.
 * Returns 0 or 2. */
int sweep_write_report(const struct sweep_table *t, int format, const char *output,
                       const char *cmd);

#endif
