/* report.h -- the report writers: one function per format.
 *
 * Writers read a finished sim_results and print it; they compute derived
 * figures through reports/stats.h and never touch the simulation. Output is
 * a pure function of the results: the same results give the same bytes.
 */
#ifndef REGIONSIM_REPORT_H
#define REGIONSIM_REPORT_H

#include <stdio.h>

#include "engine/result.h"

/* One run for the terminal: per-server write histogram as bars (width =
 * columns of the longest, >= 10) with the imbalance figures, the server x
 * time and key space x time heatmaps in shade characters, reads likewise
 * when the run read, the hottest regions and the timeline. color: add ANSI
 * colour to the heatmaps (the caller decides: a terminal, NO_COLOR). */
void text_write_run(FILE *out, const sim_results *res, const run_result *run, int width,
                    int color);

/* All runs: the compare tables, one row per run, and one server x time
 * heatmap panel per run on a shared scale. */
void text_write_compare(FILE *out, const sim_results *res, int color);

/* The JSON report's schema version (docs/reports.md): a baseline of
 * another one is refused (reports/baseline.h). Version 2 added each run's
 * keyspace, region_log, hot_regions and timeline. Version 3:
 * measure_from_us, each run's steady verdict, the regions of each window,
 * what each split's policy saw, a timeline entry for every balancer run
 * with its decision, and by_kind.metric. Version 4: "samples", each run's
 * "spread" across samples (when there are several), and each assertion's
 * seed, samples and samples_failed. */
#define REPORT_JSON_SCHEMA 4

/* The whole result as JSON (schema REPORT_JSON_SCHEMA: docs/reports.md).
 * Each run has "figures" (every scheme-scope figure of reports/figures.h
 * by name, null when undefined; the first sample's), with samples its
 * "spread" (each figure's min, median and max across samples), and each
 * server its server-scope "figures". */
void json_write(FILE *out, const sim_results *res);

/* s as a JSON string ("null" for NULL): quotes, backslashes and control
 * characters escaped, bytes that are not UTF-8 as U+FFFD, so the document
 * stays valid JSON whatever a name holds. */
void json_put_string(FILE *out, const char *s);

/* A figure's value as a JSON number: fmt_number's text (exact for
 * integers, "%.6g" otherwise), null when undefined (NAN or infinite). */
void json_put_figure_value(FILE *out, double x);

/* Whether each run's "windows" carry per-server arrays ("writes" and
 * "reads", one count per server) or, to keep the report's size
 * independent of the servers, each window's totals and maxima
 * ("writes_total", "writes_max", "reads_total", "reads_max") with the run
 * marked "windows_per_server": false. AUTO: the arrays when the runs'
 * servers x windows, summed, are at most JSON_WINDOWS_AUTO_CELLS (4
 * million: about 10 MB of numbers), which every scenario of up to a
 * few hundred servers for a day stays under. Runs whose matrices were
 * reduced (run_result.digest: the program does so only when the output
 * will not carry the arrays) always give totals and maxima. */
typedef enum json_windows { JSON_WINDOWS_AUTO, JSON_WINDOWS_YES, JSON_WINDOWS_NO } json_windows;
#define JSON_WINDOWS_AUTO_CELLS 4000000.0

/* 1 if json_write_windows(.., windows) writes per-server window arrays. */
int json_windows_per_server(const sim_results *res, json_windows windows);

/* json_write with per-window arrays as `windows` says (json_write: AUTO).
 * Writes as it goes: nothing of the report is held in memory. */
void json_write_windows(FILE *out, const sim_results *res, json_windows windows);

/* `regionsim figures`: every registry figure with its unit, scope, better
 * direction and meaning, as a table for a person or as JSON. */
void text_write_figure_list(FILE *out);
void json_write_figure_list(FILE *out);

/* The whole result as one self-contained HTML page (inline SVG and CSS,
 * one inline script that only plays the region maps, no network): per run
 * the server x time and key space x time heatmaps of writes and reads on
 * colour scales shared by every run, the region map and its player, the
 * imbalance figures, the hottest regions and the timeline of splits, moves
 * and server events. Well-formed XML (XHTML syntax), so xmllint reads it. */
void html_write(FILE *out, const sim_results *res);

/* The result as CSV files with a header line each, rendered into memory
 * (the program writes them into -o DIR as one set, cli/output.h):
 * servers.csv (per-run per-server totals), windows.csv (per-window
 * per-server series), regions.csv (every region of each run), keyspace.csv
 * (the key space x time heatmap, one line per window and bucket),
 * events.csv (the timeline), balancer_costs.csv (the stochastic balancer's
 * cost functions), figures.csv (every scheme-scope registry figure: scheme,
 * figure, value, unit, then across the samples: samples, min, median,
 * max) and server_figures.csv (every server-scope one: scheme, server,
 * figure, value, unit). windows.csv needs every server's count in every
 * window: the program keeps the runs' matrices for csv (a run reduced to
 * its digest, run_result.digest, would write zeros there). */
#define CSV_FILES 8

typedef struct csv_file {
    const char *name; /* "servers.csv", ... (static) */
    char *text;       /* its bytes (malloc'd) ... */
    size_t len;       /* ... and how many */
} csv_file;

/* The name of file i (0 <= i < CSV_FILES), in the order csv_render fills. */
const char *csv_file_name(size_t i);

/* Renders every file of res into files[0..CSV_FILES). Returns 0, or -1
 * with "csv: NAME: why" in err (out of memory); either way the caller
 * frees with csv_files_free. */
int csv_render(const sim_results *res, csv_file files[CSV_FILES], char *err, size_t errcap);

/* Frees what csv_render put into files. */
void csv_files_free(csv_file files[CSV_FILES]);

/* s as one CSV field (RFC 4180): as it is, or, when it holds a comma, a
 * double quote, CR or LF, in double quotes with its quotes doubled; NULL
 * is an empty field. */
void csv_put_text(FILE *out, const char *s);

#endif
