/* html_summary.c -- the HTML report's summary: a table at the top of the
 * page, one row per scheme, with the figures a class compares first and a
 * verdict in plain words (reports/html.c's top comment gives the page's
 * design).
 *
 * The table is a contract for scripts and browser tests: <table
 * id="summary">, a <tr data-scheme="NAME"> per scheme, each value in a
 * <td data-figure="FIGURE"> named as in the registry (reports/figures.c,
 * the JSON report's "figures") and formatted as the text report formats
 * that figure in its tables (html_write_figure_cell: latencies as "485 ms",
 * shares as percentages, else the registry's decimals; "-" when undefined),
 * and the verdict in <td class="verdict">. With samples, the values are
 * the first sample's, the run the panels draw.
 *
 * The verdict is derived from the figures alone, with the thresholds of
 * reports/verdict.h that every report's words use (no text per scheme).
 * An overloaded run (verdict_overloaded: a server over 100% busy, or less
 * than 99% of what was offered done) is called so first, with done/offered
 * and the busiest server's busy share, before its spread; a run whose
 * latency is longer than its measured span gets verdict_drain_note under
 * the table, beside the p99 column it explains. Then the spread:
 * n is the run's servers, max/mean the servers' writes over the measured
 * run, window max/mean its mean over the report windows (stats.h).
 *   max/mean >= VERDICT_ONE_SERVER * n    "one server takes the writes" (and
 *                                          >= VERDICT_UNEVEN)
 *   window max/mean >= that               "one server at a time takes the
 *                                          writes" (a hotspot that moves)
 *   either >= VERDICT_UNEVEN              "uneven" (the busiest's share),
 *                                          or "even over the run, uneven in
 *                                          each window" when only the
 *                                          window figure is
 *   both <= VERDICT_EVEN                  "even"
 *   otherwise                             "nearly even"
 * Reads, when the run read, get the same words on read max/mean (there is
 * no window figure of reads), and reads that cost at least
 * VERDICT_RPCS_MANY RPCs each say so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/figures.h"
#include "reports/format.h"
#include "reports/html_impl.h"
#include "reports/verdict.h"

/* The summary's columns: heading and registry figure. */
static const char *const COLUMNS[][2] = {
    { "write max/mean", "write_max_mean" },
    { "read max/mean", "read_max_mean" },
    { "window max/mean", "write_window_max_mean" },
    { "p99 latency", "p99_latency_us" },
    { "RPCs per read", "rpcs_per_read" },
    { "splits", "splits" },
    { "moves", "moves" },
};
#define NCOLUMNS (sizeof COLUMNS / sizeof COLUMNS[0])

void html_verdict(char *buf, size_t cap, const run_result *run)
{
    double mm = figure_named("write_max_mean", run, 0);
    if (verdict_overload_note(buf, cap, run)) {
        size_t at = strlen(buf);
        snprintf(buf + at, cap - at, "; ");
    }
    size_t at = strlen(buf);
    if (run->nservers < 2)
        snprintf(buf + at, cap - at, "one server: nothing to balance");
    else if (!isfinite(mm))
        snprintf(buf + at, cap - at, "no writes");
    else
        verdict_spread_words(buf, cap, "writes", mm,
                             figure_named("write_window_max_mean", run, 0),
                             figure_named("hottest_share", run, 0), run->nservers);
    double rm = figure_named("read_max_mean", run, 0);
    if (run->nservers >= 2 && run->reads > 0 && isfinite(rm)) {
        size_t at = strlen(buf);
        snprintf(buf + at, cap - at, "; ");
        verdict_spread_words(buf, cap, "reads", rm, NAN,
                             figure_named("read_hottest_share", run, 0), run->nservers);
    }
    double rpcs = figure_named("rpcs_per_read", run, 0);
    if (run->reads > 0 && isfinite(rpcs) && rpcs >= VERDICT_RPCS_MANY) {
        char a[CELL];
        size_t at = strlen(buf);
        snprintf(buf + at, cap - at, "%sa read costs %s RPCs", buf[0] ? "; " : "",
                 fmt_fixed(a, rpcs, 1));
    }
}

void html_write_summary(FILE *out, const sim_results *res)
{
    char verdict[512];
    if (res->nruns == 0)
        return;
    fputs("<h2>Summary</h2>\n<table id=\"summary\">\n<tr><th>scheme</th>", out);
    for (size_t c = 0; c < NCOLUMNS; c++) fprintf(out, "<th>%s</th>", COLUMNS[c][0]);
    fputs("<th>verdict</th></tr>\n", out);
    for (size_t r = 0; r < res->nruns; r++) {
        const run_result *run = &res->runs[r];
        fputs("<tr data-scheme=\"", out);
        html_put_text(out, run->scheme_name);
        fprintf(out, "\"><th><a href=\"#run-%zu\">", r + 1);
        html_put_text(out, run->scheme_name);
        fputs("</a></th>", out);
        for (size_t c = 0; c < NCOLUMNS; c++)
            html_write_figure_cell(out, run, COLUMNS[c][1]);
        html_verdict(verdict, sizeof verdict, run);
        fputs("<td class=\"verdict\">", out);
        html_put_text(out, verdict);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    for (size_t r = 0; r < res->nruns; r++) {
        if (!verdict_drain_note(verdict, sizeof verdict, &res->runs[r]))
            continue;
        fputs("<p class=\"note drained\">", out);
        html_put_text(out, res->runs[r].scheme_name);
        fputs(": ", out);
        html_put_text(out, verdict);
        fputs(".</p>\n", out);
    }
    fprintf(out, "<p class=\"note\">max/mean: 1.00 = even, the number of servers = "
            "everything on one. Verdicts: overloaded first when a server is over %.0f%% busy "
            "or under %.0f%% of the offered operations are done; even up to %.2f, uneven from "
            "%.2f, one server from half the servers; a scheme's name leads to its panel.</p>\n",
            100 * VERDICT_OVERLOAD_BUSY, 100 * VERDICT_OVERLOAD_DONE, VERDICT_EVEN,
            VERDICT_UNEVEN);
}
