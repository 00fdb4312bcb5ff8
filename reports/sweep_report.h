/* sweep_report.h -- the reports of a sweep (`regionsim sweep FILE`): text,
 * JSON, CSV (sweep_report.c) and an HTML page of line charts
 * (sweep_html.c).
 *
 * A sweep's result is a table of figures: for every point (one value of
 * each swept variable) and every scheme, every scheme-scope figure of the
 * registry (reports/figures.h), taken from the run by the registry's own
 * computation before the run was freed. The writers only read it, so the
 * same table gives the same bytes in every format whatever order the runs
 * finished in.
 */
#ifndef REGIONSIM_SWEEP_REPORT_H
#define REGIONSIM_SWEEP_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/figures.h"
#include "engine/result.h"

typedef struct sweep_table {
    const char *scenario;          /* the scenario's name */
    const char *file;              /* the scenario file, as given */
    size_t nvars;
    const char *const *var_names;  /* nvars */
    const size_t *var_nvalues;     /* nvars: each variable's values (the first: the charts' x) */
    size_t npoints;
    const char *const *values;     /* npoints x nvars: values[p * nvars + v] */
    const double *numbers;         /* npoints x nvars, the values as numbers for the charts'
                                    * scale (sweep_value_numbers); NAN for a variable that
                                    * is not all numbers; NULL: none is */
    size_t nschemes;
    const char *const *schemes;    /* nschemes: each scheme's label at the first point */
    char **run_names;              /* npoints x nschemes: the run's scheme name at the point */
    uint64_t measure_from_us;      /* the first point's (the figures' steady state) */
    int measure_auto;              /* measure_from = auto: each run's own warm-up's end (its
                                    * figures' measure_from_us and warmup_us) */
    size_t nfigures;               /* sweep_figure_count() */
    double *figures;               /* npoints x nschemes x nfigures, registry order (NAN: undefined) */
    const char *point_digest;      /* a planned point's job: its scenario's digest
                                    * (scenario/sweep.h's sweep_point_digest), written by the
                                    * exact JSON only; NULL: none */
    check_result *checks;          /* every assertion result, point by point in order */
    size_t nchecks;
    size_t *check_point;           /* nchecks: the point of each */
} sweep_table;

/* Frees what a filled table owns whoever filled it (a sweep or a merge):
 * run_names, schemes, scenario, figures, checks (their strings) and
 * check_point. The variables and values are the filler's to free. */
void sweep_table_free_results(sweep_table *t);

/* Point p's values as the messages show them: "VAR=VALUE VAR=VALUE", the
 * variables in the table's order, control bytes as \xNN. Returns out (cut
 * to cap bytes). */
const char *sweep_table_point_label(const sweep_table *t, size_t p, char *out, size_t cap);

/* The version of the sweep's JSON ("sweep": {"version": N, ...}), which a
 * sweep's --baseline requires of its file (reports/sweep_baseline.h). */
#define SWEEP_JSON_VERSION 1

/* The scheme-scope figures of the registry, in its order: how many, and
 * the slot of f among them (f must be scheme-scope). */
size_t sweep_figure_count(void);
size_t sweep_figure_slot(const figure *f);

/* The figure's value for point p and scheme s. */
double sweep_table_value(const sweep_table *t, size_t p, size_t s, const figure *f);

/* The figures a sweep's text and charts show, in order: write_max_mean,
 * write_window_max_mean, read_max_mean, p99_latency_us, then
 * rpcs_per_read_<kind> for every read kind some run read, then
 * rows_scanned_per_row (when some run read). Into out (room for 32);
 * returns how many. */
size_t sweep_shown_figures(const sweep_table *t, const figure **out);

/* One table: a row per point and scheme, a column per variable, the
 * scheme, and each shown figure (its registry name as the header). */
void sweep_write_text(FILE *out, const sweep_table *t);

/* {"sweep": {"version", "file", "scenario", "variables": [{"name", "values"}],
 *  "measure_from_us", "points": [{"index", "values": {NAME: VALUE},
 *  "runs": [{"scheme", "run", "figures": {every scheme figure}}],
 *  "assertions": [...]}]}} */
void sweep_write_json(FILE *out, const sweep_table *t);

/* The same document with every number exact (%.17g, which reads back as
 * the same double; NAN null, an infinity "inf"/"-inf") and each assertion
 * result's seed, samples and samples_failed, and its "why" when it has
 * one (reports/assertion.h's phrase), and, after "scenario", the
 * table's point_digest as "digest" when it has one: a planned point's result
 * (`regionsim sweep POINT.ini --result PATH`), which `regionsim merge`
 * reads back into a sweep_table that prints the same bytes as the sweep's
 * own (planners/sweep_merge.c). */
void sweep_write_json_exact(FILE *out, const sweep_table *t);

/* One CSV table (RFC 4180 quoting as docs/reports.md's files): a header
 * `point,VAR...,scheme,run,FIGURE...` (every scheme figure of the
 * registry), then a row per point and scheme; an undefined figure is an
 * empty field. */
void sweep_write_csv(FILE *out, const sweep_table *t);

/* One self-contained XHTML page: the table, and a line chart per shown
 * figure against the first variable, to scale (linear or log) when its
 * values are all numbers (t->numbers), at equal steps otherwise, and as
 * small multiples by the second variable past 8 lines (sweep_html.c). */
void sweep_write_html(FILE *out, const sweep_table *t);

/* Points between two values of variable v (the product of the later
 * variables' value counts: the first variable is the slowest). */
size_t sweep_table_stride(const sweep_table *t, size_t v);

#endif
