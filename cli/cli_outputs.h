/* cli_outputs.h -- what one `compare` or `run` writes, as one set: the
 * report (-o FILE; csv's eight files in -o DIR; or stdout), the JUnit
 * file (--junit) and the trace (--write-trace), by cli/output.h's rules.
 *
 * Part of the program (linked into regionsim with main.c, like
 * cli_checks.c: it joins cli/output.h and the reports' csv files). The
 * paths are planned once from the options, checked before the run
 * (cli_outputs_check), and, once main.c has rendered the contents into
 * the struct, written together (cli_outputs_save).
 */
#ifndef REGIONSIM_CLI_OUTPUTS_H
#define REGIONSIM_CLI_OUTPUTS_H

#include <stddef.h>
#include <stdio.h>

#include "reports/report.h"
#include "cli/interrupts.h"
#include "cli/output.h"

typedef struct cli_outputs {
    output_item items[CSV_FILES + 3];
    size_t n;
    const char *dir;            /* csv: -o DIR, created with the set; else NULL */
    char *csv_paths[CSV_FILES]; /* csv: DIR/NAME */
    size_t junit_at, trace_at;  /* those items' indices; >= n when absent */
    /* the contents, filled by the caller and freed by cli_outputs_free: */
    csv_file csv[CSV_FILES];    /* csv: the rendered files (csv_render) */
    FILE *report;               /* else: the rendered report, or NULL */
    char *junit;                /* the rendered JUnit (junit_len bytes), or NULL */
    size_t junit_len;
    output_file *trace;         /* the trace, open and written, or NULL */
} cli_outputs;

/* out's items, without contents: the report's (csv: a file per table in
 * the directory `output`; else the file `output`, or stdout when NULL),
 * then junit's and trace's (each NULL when not asked for). Returns 0, or
 * -1 when out of memory (cli_outputs_free is still due). */
int cli_outputs_plan(cli_outputs *out, const char *output, int csv, const char *junit,
                     const char *trace);

/* Every planned path checked (output_check_set; csv's files with their
 * directory), changing nothing. Returns 0, or -1 with "OPTION PATH: why"
 * in err. */
int cli_outputs_check(const cli_outputs *out, char *err, size_t errcap);

/* Writes the contents as one set (output_save_set, naming cmd when a
 * signal ends it); the trace is the set's from here on. Returns 0, or -1
 * with "OPTION PATH: why" in err (nothing of the set written, except what
 * reached an output written in place). */
int cli_outputs_save(cli_outputs *out, interrupts *ints, const char *cmd, char *err,
                     size_t errcap);

/* Frees the paths and the contents; a trace not handed to a set is
 * abandoned (its temporary removed). */
void cli_outputs_free(cli_outputs *out);

#endif
