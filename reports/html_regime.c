/* html_regime.c -- the HTML report's regime: what its figures measured.
 *
 * Below the summary, folded under a line that says how the span was
 * chosen (a <details>, so that the panels stay where a reader looks
 * first; each panel says its own regime in words), one table
 * (id="regime"), a row per scheme
 * (<tr data-scheme="NAME">): the warm-up, the growing table, as a phase of
 * its own (when it ended, its regions then, the servers' write max/mean
 * during it), then the span every figure counts (from, to: from is the
 * table's age then), the regions per server at its start and end, and the
 * table's bytes at its start and end. Registry figures sit in
 * <td data-figure="FIGURE"> cells as the summary's do; the words are
 * stats.h's (stats_measured_note), as the text report's, so the two never
 * disagree. Each panel repeats its run's row in words (html_panel.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "reports/figures.h"
#include "reports/format.h"
#include "reports/html_impl.h"
#include "reports/stats.h"

/* A cell of a duration: "10 min"; `zero` for 0, `undefined` when the run
 * has none. */
static void duration_cell(FILE *out, const char *figure, int defined, uint64_t us,
                          const char *zero, const char *undefined)
{
    char a[CELL];
    fprintf(out, "<td data-figure=\"%s\">%s</td>", figure,
            !defined ? undefined : us ? fmt_duration(a, us) : zero);
}

static void write_row(FILE *out, const run_result *run, size_t r)
{
    char a[CELL], b[CELL];
    fputs("<tr data-scheme=\"", out);
    html_put_text(out, run->scheme_name);
    fprintf(out, "\"><th><a href=\"#run-%zu\">", r + 1);
    html_put_text(out, run->scheme_name);
    fputs("</a></th>", out);
    duration_cell(out, "warmup_us", run->warmup_ended, run->warmup_us, "none", "never");
    fprintf(out, "<td>%" PRIu64 "</td>", run->warmup_regions);
    html_write_figure_cell(out, run, "warmup_write_max_mean");
    duration_cell(out, "measure_from_us", 1, run->measure_from_us, "0", "0");
    fprintf(out, "<td>%s</td>", fmt_duration(a, run->duration_us));
    html_write_figure_cell(out, run, "regions_per_server_start");
    html_write_figure_cell(out, run, "regions_per_server_end");
    fprintf(out, "<td data-figure=\"table_bytes_start\">%s</td><td data-figure=\"bytes\">%s</td>"
            "</tr>\n", fmt_bytes(a, run->bytes_start), fmt_bytes(b, run->bytes));
}

void html_write_regime(FILE *out, const sim_results *res)
{
    char measured[256];
    if (res->nruns == 0)
        return;
    stats_measured_note(res, measured, sizeof measured);
    fputs("<details class=\"regime\"><summary><strong>The regime measured:</strong> every figure "
          "counts ", out);
    html_put_text(out, measured);
    fputs(". The warm-up, the growing table before it, is a phase of its own (veiled on the "
          "heatmaps): each scheme's below.</summary>\n<table id=\"regime\">\n"
          "<tr><th rowspan=\"2\">scheme</th>"
          "<th colspan=\"3\">warm-up (the growing table)</th><th colspan=\"6\">measured span</th>"
          "</tr>\n<tr><th>ended</th><th>regions then</th><th>write max/mean in it</th>"
          "<th>from (table age)</th><th>to</th><th>regions per server at the start</th>"
          "<th>at the end</th><th>table bytes at the start</th><th>at the end</th></tr>\n", out);
    for (size_t r = 0; r < res->nruns; r++)
        write_row(out, &res->runs[r], r);
    fputs("</table></details>\n", out);
}
