/* html_panel.c -- a panel of the HTML report, but its heatmaps: the head
 * and imbalance table, the busiest servers, the hottest regions, the
 * timeline and every figure (reports/html.c's top comment gives the
 * page's design).
 *
 * Past SERVERS_LISTED servers (reports/servers.h) a panel lists the
 * SERVERS_BUSIEST busiest by writes, as the text report does, and sums up
 * the rest (their total, which is the run's total minus the busiest's,
 * and their min, median and max); its per-server figures show the same
 * servers and the rest's min, median and max. Every server stays in the
 * JSON and CSV reports.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/figures.h"
#include "reports/format.h"
#include "reports/html_impl.h"
#include "reports/samples.h"
#include "reports/servers.h"
#include "reports/stats.h"
#include "reports/verdict.h"

/* ---- a panel: figures ---- */

/* One row of the figures table: writes, and reads when the run read. */
static void write_figure_row(FILE *out, const char *name, const char *w, const char *r, int reads)
{
    fprintf(out, "<tr><th>%s</th><td class=\"n\">", name);
    html_put_text(out, w);
    fputs("</td>", out);
    if (reads) {
        fputs("<td class=\"n\">", out);
        html_put_text(out, r);
        fputs("</td>", out);
    }
    fputs("</tr>\n", out);
}

/* "rs1 66.7%": the hottest server and its share, or "-". */
static const char *fmt_hottest(char *buf, const run_result *run, const imbalance *im)
{
    char share[CELL];
    if (!im->defined) return strcpy(buf, "-");
    snprintf(buf, CELL, "%.15s %s", run->servers[im->hottest].name,
             fmt_percent(share, im->hottest_share));
    return buf;
}

/* The imbalance table, from the registry's figures. */
static void write_figures(FILE *out, const run_result *run)
{
    char a[CELL], b[CELL];
    imbalance w = stats_server_writes(run), r = stats_server_reads(run);
    int reads = run->reads > 0;
    static const char *const rows[][3] = { /* label, the writes' figure, the reads' */
        { "max/mean", "write_max_mean", "read_max_mean" },
        { "CoV", "write_cov", "read_cov" },
        { "Gini", "write_gini", "read_gini" },
        { "Jain", "write_jain", "read_jain" },
    };

    fputs("<table class=\"figs\">\n<tr><th></th><th>writes</th>", out);
    if (reads) fputs("<th>reads</th>", out);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        write_figure_row(out, rows[i][0], fmt_fixed(a, figure_named(rows[i][1], run, 0), 2),
                         fmt_fixed(b, figure_named(rows[i][2], run, 0), 2), reads);
    write_figure_row(out, "hottest", fmt_hottest(a, run, &w), fmt_hottest(b, run, &r), reads);
    write_figure_row(out, "window max/mean",
                     fmt_fixed(a, figure_named("write_window_max_mean", run, 0), 2), "", reads);
    write_figure_row(out, "worst window",
                     fmt_fixed(a, figure_named("write_worst_window_max_mean", run, 0), 2), "",
                     reads);
    fputs("</table>\n", out);
}

/* Name, expression and totals on the left, imbalance figures beside them. */
void html_write_panel_head(FILE *out, const run_result *run)
{
    char a[CELL], b[CELL];
    fputs("<div class=\"head\">\n<div>\n<h2>", out);
    html_put_text(out, run->scheme_name);
    fputs("</h2>\n<p>key <code>", out);
    html_put_text(out, run->scheme_expr);
    fputs("</code></p>\n<p>example <code>", out);
    html_put_text(out, fmt_cut(a, run->key_example, 40));
    fputs("</code></p>\n<p>pre-split ", out);
    html_put_text(out, run->presplit);
    if (run->measure_from_us)
        fprintf(out, "</p>\n<p>%" PRIu64 " writes, %" PRIu64 " reads in the %s measured (of %s)"
                "</p>\n", run->writes, run->reads,
                fmt_duration(a, run->duration_us - run->measure_from_us),
                fmt_duration(b, run->duration_us));
    else
        fprintf(out, "</p>\n<p>%" PRIu64 " writes, %" PRIu64 " reads in %s</p>\n", run->writes,
                run->reads, fmt_duration(a, run->duration_us));
    fprintf(out, "<p>regions %" PRIu64 " &#8594; %" PRIu64 "; %" PRIu64 " splits, %" PRIu64
            " moves</p>\n<p>key bytes %s mean</p>\n",
            run->regions_start, run->regions, run->splits, run->moves,
            fmt_fixed(b, run->key_bytes_mean, 1));
    char regime[512];
    stats_warmup_note(run, regime, sizeof regime);
    fputs("<p class=\"regime\">", out);
    html_put_text(out, regime);
    fputs("</p>\n<p class=\"regime\">", out);
    stats_regime_note(run, regime, sizeof regime);
    html_put_text(out, regime);
    fputs(run->measure_from_us ? " (the veiled warm-up is in no figure)</p>\n" : "</p>\n", out);
    char over[256];
    if (verdict_overload_note(over, sizeof over, run)) {
        fputs("<p class=\"unsteady overloaded\">", out);
        html_put_text(out, over);
        fputs("</p>\n", out);
    }
    steady_state st = stats_steady(run);
    if (!st.steady) {
        char note[256];
        stats_steady_note(run, &st, note, sizeof note);
        fputs("<p class=\"unsteady\">", out);
        html_put_text(out, note);
        fputs("</p>\n", out);
    }
    fputs("</div>\n", out);
    write_figures(out, run);
    fputs("</div>\n", out);
}

/* ---- a panel: throughput, latency and read cost ---- */

const char *html_format_figure(char *buf, const figure *f, double v)
{
    if (!strcmp(f->unit, "us")) return fmt_latency(buf, isfinite(v) ? (uint64_t)v : UINT64_MAX);
    if (!strcmp(f->unit, "share")) return fmt_percent(buf, v);
    return fmt_figure(buf, f, v);
}

void html_write_figure_cell(FILE *out, const run_result *run, const char *name)
{
    char a[CELL];
    const figure *f = figure_find(name);
    fprintf(out, "<td data-figure=\"%s\">%s</td>", name,
            html_format_figure(a, f, figure_value(f, run, 0)));
}

/* Latency columns: heading, every operation's figure, the reads'. */
static const char *const LATENCY_COLUMNS[][3] = {
    { "mean", "mean_latency_us", "read_mean_latency_us" },
    { "p50", "p50_latency_us", "read_p50_latency_us" },
    { "p99", "p99_latency_us", "read_p99_latency_us" },
    { "p99.9", "p999_latency_us", "read_p999_latency_us" },
    { "max", "max_latency_us", "read_max_latency_us" },
};
#define NLATENCY (sizeof LATENCY_COLUMNS / sizeof LATENCY_COLUMNS[0])

/* Read cost columns: heading and family prefix (or the run's figure).
 * Six of them, so that the table fits a panel of the two-column grid (640
 * pixels at the least) with eleven-digit row counts: the totals the
 * ratios come from (read RPCs, records returned) are in the Figures table,
 * JSON and CSV, as the text report's read table leaves them out too; and
 * the table sits in a .wide box that scrolls rather than spill over the
 * panel's edge should a count be longer still. */
static const char *const READ_COLUMNS[][3] = {
    { "reads", "reads_", "reads" },
    { "share", "read_share_", NULL },
    { "RPCs/read", "rpcs_per_read_", "rpcs_per_read" },
    { "rows read", "rows_scanned_", "rows_scanned" },
    { "rows/record", "rows_scanned_per_row_", "rows_scanned_per_row" },
};

void html_write_costs(FILE *out, const run_result *run)
{
    int reads = run->reads > 0;
    char name[64];
    fputs("<h3>Throughput and latency</h3>\n<table class=\"figs costs\">\n<tr><th></th>"
          "<th>offered/s</th><th>done/s</th><th>unfinished</th><th>busiest</th><th>queue</th>"
          "</tr>\n<tr><th>operations</th>", out);
    html_write_figure_cell(out, run, "offered_ops_per_s");
    html_write_figure_cell(out, run, "achieved_ops_per_s");
    html_write_figure_cell(out, run, "unfinished");
    html_write_figure_cell(out, run, "busiest_busy");
    html_write_figure_cell(out, run, "longest_queue");
    fputs("</tr>\n<tr><th>latency</th>", out);
    for (size_t c = 0; c < NLATENCY; c++) fprintf(out, "<th>%s</th>", LATENCY_COLUMNS[c][0]);
    fputs("</tr>\n<tr><th>every operation</th>", out);
    for (size_t c = 0; c < NLATENCY; c++) html_write_figure_cell(out, run, LATENCY_COLUMNS[c][1]);
    fputs("</tr>\n", out);
    if (reads) {
        fputs("<tr><th>reads</th>", out);
        for (size_t c = 0; c < NLATENCY; c++) html_write_figure_cell(out, run, LATENCY_COLUMNS[c][2]);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    char note[512];
    if (verdict_drain_note(note, sizeof note, run)) {
        fputs("<p class=\"note drained\">", out);
        html_put_text(out, note);
        fputs(".</p>\n", out);
    }
    fputs("<p class=\"note\">Latency: arrival to reply, queueing and regions offline "
          "included. busiest: the busiest server's work over the run's time (over 100%: more "
          "than it can do); queue: the most RPCs in one server at once.</p>\n", out);
    if (!reads)
        return;
    fputs("<h3>Read cost</h3>\n<div class=\"wide\"><table class=\"figs costs reads\">\n"
          "<tr><th>kind</th>", out);
    for (size_t c = 0; c < sizeof READ_COLUMNS / sizeof READ_COLUMNS[0]; c++)
        fprintf(out, "<th>%s</th>", READ_COLUMNS[c][0]);
    fputs("</tr>\n", out);
    for (int k = 0; k < QUERY_KINDS; k++) {
        const char *kind = query_kind_name((query_kind)k);
        if (run->reads_by_kind[k] == 0) continue;
        fprintf(out, "<tr><th>%s</th>", kind);
        for (size_t c = 0; c < sizeof READ_COLUMNS / sizeof READ_COLUMNS[0]; c++) {
            snprintf(name, sizeof name, "%s%s", READ_COLUMNS[c][1], kind);
            html_write_figure_cell(out, run, name);
        }
        fputs("</tr>\n", out);
    }
    fputs("<tr><th>all</th>", out);
    for (size_t c = 0; c < sizeof READ_COLUMNS / sizeof READ_COLUMNS[0]; c++) {
        if (READ_COLUMNS[c][2]) html_write_figure_cell(out, run, READ_COLUMNS[c][2]);
        else fputs("<td></td>", out);
    }
    fputs("</tr>\n</table></div>\n<table class=\"figs costs\">\n<tr><th>full scans</th>", out);
    html_write_figure_cell(out, run, "full_scans");
    fputs("<th>read max/mean</th>", out);
    html_write_figure_cell(out, run, "read_max_mean");
    fputs("</tr>\n</table>\n<p class=\"note\">RPCs: one per region a read's planned ranges "
          "touch. rows/record: rows read per record returned (1.00 = no waste). Full scans: "
          "reads the key order could not serve.</p>\n", out);
}

/* ---- a panel: the busiest servers ---- */

void html_write_busiest_servers(FILE *out, const run_result *run)
{
    if (run->nservers <= SERVERS_LISTED)
        return;
    uint32_t shown[SERVERS_LISTED];
    size_t n = servers_listed(run, servers_count_writes, shown);
    servers_rest rest = servers_rest_of(run, servers_count_writes, shown, n);
    uint64_t total = stats_server_writes_total(run);
    char a[CELL], b[CELL];
    fprintf(out, "<h3>The %zu busiest of %" PRIu32 " servers</h3>\n<table class=\"regions "
            "busiest\">\n<tr><th>server</th><th>writes</th><th>share</th><th>regions</th>"
            "<th>busy</th><th>p99</th></tr>\n", n, run->nservers);
    for (size_t i = 0; i < n; i++) {
        const server_result *sv = &run->servers[shown[i]];
        fputs("<tr><td>", out);
        html_put_text(out, sv->name);
        fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s</td>"
                "<td class=\"n\">%" PRIu64 "%s</td><td class=\"n\">%s</td>",
                sv->writes, fmt_percent(a, stats_per(sv->writes, total)), sv->regions,
                sv->system_regions ? " + hbase:meta" : "", fmt_percent(b, sv->busy));
        fprintf(out, "<td class=\"n\">%s</td></tr>\n",
                fmt_latency(a, sv->latency.count ? sv->latency.p99_us : UINT64_MAX));
    }
    fprintf(out, "<tr class=\"rest\"><td>the other %zu</td><td class=\"n\">%" PRIu64
            "</td><td class=\"n\">%s</td><td colspan=\"3\">min %" PRIu64 ", median %"
            PRIu64 ", max %" PRIu64 " writes each</td></tr>\n</table>\n",
            rest.n, rest.sum,
            fmt_percent(a, stats_per(rest.sum, total)), rest.min,
            rest.median, rest.max);
    fputs("<p class=\"note\">Busiest by writes; the other servers' writes are the run's "
          "total less the busiest's. Every server: the JSON and CSV reports.</p>\n", out);
}

/* ---- a panel: hottest regions ---- */

/* A region boundary, shortened, with the whole key as a tooltip when it is. */
static int by_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A region bound's cell: "" as `unbounded`, else its label among the
 * table's sorted bounds sorted[0..n) (html_bucket_label: it keeps the
 * byte where it differs from its neighbours, so two regions never read
 * alike), the whole key as a tooltip when the label is cut. */
static void write_key_cell(FILE *out, const char *key, const char *const *sorted, size_t n,
                           size_t skip, const char *unbounded)
{
    char a[CELL];
    if (!key || !key[0]) {
        html_key_label(a, key, skip, unbounded, KEY_TABLE_COLS);
    } else {
        size_t i = 0;
        while (i + 1 < n && strcmp(sorted[i], key) != 0) i++;
        html_bucket_label(a, sorted, n, i, skip, KEY_TABLE_COLS);
    }
    fputs("<td class=\"key\"", out);
    if (key && strcmp(a, key) != 0 && key[0]) {
        fputs(" title=\"", out);
        html_put_text(out, key);
        fputc('"', out);
    }
    fputc('>', out);
    html_put_text(out, a);
    fputs("</td>", out);
}

void html_write_top_regions(FILE *out, const run_result *run)
{
    char a[CELL], b[CELL];
    size_t idx[TOP_REGIONS];
    size_t k = stats_top_regions(run, TOP_REGIONS, idx);
    uint64_t read_rpcs = stats_region_read_rpcs(run);
    uint64_t region_writes = stats_region_writes(run);
    time_axis ax = html_time_axis_of(run);

    fprintf(out, "<h3>Hottest regions</h3>\n");
    if (k == 0) {
        fputs("<p class=\"note\">No region took a write or a read.</p>\n", out);
        return;
    }
    const char *bounds[2 * TOP_REGIONS];
    for (size_t i = 0; i < k; i++) {
        bounds[2 * i] = run->history[idx[i]].start;
        bounds[2 * i + 1] = run->history[idx[i]].end;
    }
    size_t skip = html_shared_prefix(bounds, 2 * k, KEY_TABLE_COLS);
    const char *with_prefix = NULL;
    for (size_t i = 0; i < 2 * k && !with_prefix; i++)
        if (bounds[i] && bounds[i][0]) with_prefix = bounds[i];
    /* the bounds that are keys, sorted and distinct, for their labels */
    const char *sorted[2 * TOP_REGIONS];
    size_t nsorted = 0;
    for (size_t i = 0; i < 2 * k; i++)
        if (bounds[i] && bounds[i][0]) sorted[nsorted++] = bounds[i];
    qsort(sorted, nsorted, sizeof sorted[0], by_key);
    size_t distinct = 0;
    for (size_t i = 0; i < nsorted; i++)
        if (distinct == 0 || strcmp(sorted[distinct - 1], sorted[i]) != 0)
            sorted[distinct++] = sorted[i];
    fputs("<table class=\"regions\">\n<tr><th>start key</th><th>end key</th><th>server</th>"
          "<th>writes</th><th>reads</th><th>fate</th></tr>\n", out);
    for (size_t i = 0; i < k; i++) {
        const region_result *r = &run->history[idx[i]];
        fputs("<tr>", out);
        write_key_cell(out, r->start, sorted, distinct, skip, "-inf");
        write_key_cell(out, r->end, sorted, distinct, skip, "+inf");
        fprintf(out, "<td>rs%" PRIu32 "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>",
                r->server,
                fmt_percent(a, region_writes ? (double)r->writes / (double)region_writes : NAN),
                fmt_percent(b, read_rpcs ? (double)r->reads / (double)read_rpcs : NAN));
        if (r->split) fprintf(out, "split %s", html_fmt_time(a, &ax, r->closed_us));
        else fputs("live", out);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n<p class=\"note\">Shares of the run's writes and read RPCs; a region's "
          "counts start at zero when it opens.", out);
    html_write_prefix_note(out, with_prefix, skip, "Keys");
    fputs("</p>\n", out);
}

/* ---- a panel: timeline ---- */

static const char *const KIND_LABEL[TIMELINE_KINDS] = {
    "split", "move", "reassign", "servers added", "decommission", "failure", "balancer",
};

/* Balancer runs listed one by one under the timeline (the rest counted). */
#define BALANCER_RUNS_LISTED 24

/* Every balancer run in one line: when, what it decided, on what figures. */
static void write_balancer_runs(FILE *out, const run_result *run, const time_axis *ax)
{
    if (run->balancer_runs == 0)
        return;
    size_t ran = 0, moved = 0;
    for (size_t i = 0; i < run->balancer_runs; i++) {
        ran += run->balancer_log[i].ran != 0;
        moved += run->balancer_log[i].moves;
    }
    fprintf(out, "<p>Balancer: %zu runs, %zu computed a plan, %zu regions moved.</p>\n<ul>\n",
            (size_t)run->balancer_runs, ran, moved);
    size_t listed = 0;
    for (size_t i = 0; i < run->nevents && listed < BALANCER_RUNS_LISTED; i++) {
        const timeline_event *e = &run->events[i];
        if (e->kind != TIMELINE_BALANCER || e->balancer >= run->balancer_runs)
            continue;
        char t[CELL], what[4 * CELL];
        fprintf(out, "<li>%s: ", html_fmt_time(t, ax, e->t_us));
        html_put_text(out, fmt_balancer_run(what, sizeof what, &run->balancer_log[e->balancer]));
        fputs("</li>\n", out);
        listed++;
    }
    if (run->balancer_runs > listed)
        fprintf(out, "<li>and %zu more</li>\n", (size_t)run->balancer_runs - listed);
    fputs("</ul>\n", out);
}

/* One lane: a dash per event of `kind`, merged when on the same pixel. */
static void write_lane(FILE *out, const run_result *run, const time_axis *ax, int kind, double y)
{
    long last = -1;
    int open = 0;
    for (size_t i = 0; i < run->nevents; i++) {
        if ((int)run->events[i].kind != kind) continue;
        double x = html_time_x(ax, run->events[i].t_us);
        long px = lround(x);
        if (px == last) continue;
        last = px;
        if (!open) {
            fprintf(out, "<path class=\"k%d\" d=\"", kind);
            open = 1;
        }
        fprintf(out, "M%ld %.0fv%d", px, y + 4, LANE_H - 8);
    }
    if (open) fputs("\"/>\n", out);
}

/* A server event as a sentence: "rs8-rs9 added". */
static void write_server_event(FILE *out, const timeline_event *e, const time_axis *ax)
{
    char a[CELL];
    fprintf(out, "<li>%s: ", html_fmt_time(a, ax, e->t_us));
    switch (e->kind) {
    case TIMELINE_SERVERS_ADDED:
        if (e->to > e->from)
            fprintf(out, "rs%" PRIu32 "&#8211;rs%" PRIu32 " added", e->from, e->to);
        else
            fprintf(out, "rs%" PRIu32 " added", e->from);
        break;
    case TIMELINE_DECOMMISSION: fprintf(out, "rs%" PRIu32 " decommissioned", e->from); break;
    default: fprintf(out, "rs%" PRIu32 " failed", e->from); break;
    }
    fputs("</li>\n", out);
}

void html_write_timeline(FILE *out, const run_result *run)
{
    size_t count[TIMELINE_KINDS] = { 0 };
    for (size_t i = 0; i < run->nevents; i++)
        if ((unsigned)run->events[i].kind < TIMELINE_KINDS) count[run->events[i].kind]++;
    time_axis ax = html_time_axis_of(run);
    double plot_h = TIMELINE_KINDS * LANE_H;

    fputs("<h3>Timeline</h3>\n", out);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %.0f\">\n"
            "<title>cluster events over time, one lane per kind</title>\n",
            SVG_W, PLOT_TOP + plot_h + AXIS_H);
    fputs("<g class=\"ev\">\n", out);
    for (int k = 0; k < TIMELINE_KINDS; k++) {
        double y = PLOT_TOP + k * LANE_H;
        if (k > 0) fprintf(out, "<path class=\"lane\" d=\"M%d %.0fh%d\"/>", PLOT_X, y, PLOT_W);
        fprintf(out, "<text class=\"yl\" x=\"%d\" y=\"%.0f\">%s</text>"
                "<path class=\"k%d swatch\" d=\"M%d %.0fh12\"/>\n",
                PLOT_X - 24, y + LANE_H / 2.0 + 5, KIND_LABEL[k], k, PLOT_X - 18, y + LANE_H / 2.0);
        write_lane(out, run, &ax, k, y);
    }
    fputs("</g>\n", out);
    fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.0f\"/>\n",
            PLOT_X, PLOT_TOP, PLOT_W, plot_h);
    html_write_time_ticks(out, &ax, PLOT_TOP + plot_h);
    fputs("</svg>\n", out);

    fputs("<p>Events:", out);
    for (int k = 0; k < TIMELINE_KINDS; k++)
        fprintf(out, "%s %zu %s", k ? "," : "", count[k], KIND_LABEL[k]);
    size_t servers = count[TIMELINE_SERVERS_ADDED] + count[TIMELINE_DECOMMISSION] +
                     count[TIMELINE_FAILURE];
    if (servers == 0) {
        fputs(".</p>\n", out);
        write_balancer_runs(out, run, &ax);
        return;
    }
    fputs(". Server events:</p>\n<ul>\n", out);
    size_t listed = 0;
    for (size_t i = 0; i < run->nevents && listed < SERVER_EVENTS_LISTED; i++)
        if (stats_is_server_event(run->events[i].kind)) {
            write_server_event(out, &run->events[i], &ax);
            listed++;
        }
    if (servers > listed) fprintf(out, "<li>and %zu more</li>\n", servers - listed);
    fputs("</ul>\n", out);
    write_balancer_runs(out, run, &ax);
}

/* ---- a panel: every figure of the registry ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Whether scheme figure f is shown in run r's panel: defined and not 0
 * (with samples: in some sample). The footer's glossary lists every
 * figure; a panel leaves out the rest. */
static int figure_shown(const figure *f, const sim_results *res, size_t r)
{
    if (res->nsamples > 1) {
        figure_spread s = samples_spread(f, res, r);
        return s.defined && (s.min != 0 || s.max != 0);
    }
    double v = figure_value(f, &res->runs[r], 0);
    return isfinite(v) && v != 0;
}

/* The value cell of f for run r: its value; with samples, the median and
 * after it, small, "min-max" (an en dash) across them, unless min and max
 * print alike (then the value alone: it is the same in every sample). */
static void write_figure_value(FILE *out, const figure *f, const sim_results *res, size_t r)
{
    char a[CELL], b[CELL], c[CELL];
    if (res->nsamples <= 1) {
        fprintf(out, "<td>%s</td>", fmt_figure(a, f, figure_value(f, &res->runs[r], 0)));
        return;
    }
    figure_spread s = samples_spread(f, res, r);
    fmt_figure(a, f, s.median);
    if (!strcmp(fmt_figure(b, f, s.min), fmt_figure(c, f, s.max)))
        fprintf(out, "<td>%s</td>", a);
    else
        fprintf(out, "<td>%s <small>%s&#8211;%s</small></td>", a, b, c);
}

/* Run r's scheme-scope figures that have a value, in a table of two
 * name-value-unit columns (reading down the left, then the right), in a
 * details element: open for a single run or with samples (the spreads are
 * only here), folded on a compare page. */
static void write_scheme_figures(FILE *out, const sim_results *res, size_t r)
{
    const figure *shown[256];
    size_t n = 0;
    for (const figure *f = figure_first(FIGURE_SCHEME); f && n < sizeof shown / sizeof shown[0];
         f = figure_next(f))
        if (figure_shown(f, res, r)) shown[n++] = f;
    /* folded on a compare page (the summary and the panels' tables have
     * the main figures; a dozen open tables made the page ~3,600 px taller) */
    fprintf(out, "<details%s><summary>", res->nruns == 1 || res->nsamples > 1 ? " open=\"open\"" : "");
    if (res->nsamples > 1)
        fprintf(out, "<h3>Figures: median and min&#8211;max of %" PRIu32 " samples (one "
                "value: the same in all)</h3>",
                res->nsamples);
    else
        fprintf(out, "<h3>Figures (%zu)</h3>", n);
    fputs("</summary>\n", out);
    fputs("<table class=\"all sch\">\n", out);
    size_t rows = (n + 1) / 2;
    for (size_t i = 0; i < rows; i++) {
        fputs("<tr>", out);
        for (size_t c = 0; c < 2 && i + c * rows < n; c++) {
            const figure *f = shown[i + c * rows];
            fprintf(out, "<th>%s</th>", f->name);
            write_figure_value(out, f, res, r);
            fprintf(out, "<td>%s</td>", f->unit);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table></details>\n", out);
}

/* Server figure f's min, median and max over the servers not in shown
 * (sorted copies; a report does it once a figure). */
static void write_rest_figure(FILE *out, const figure *f, const run_result *run,
                              const unsigned char *listed, double *v)
{
    char a[CELL];
    size_t n = 0;
    for (uint32_t s = 0; s < run->nservers; s++)
        if (!listed[s]) {
            double x = figure_value(f, run, s);
            if (isfinite(x)) v[n++] = x;
        }
    qsort(v, n, sizeof *v, cmp_double);
    for (int q = 0; q < 3; q++)
        fprintf(out, "<td>%s</td>",
                fmt_figure(a, f, n ? v[q == 0 ? 0 : q == 1 ? n / 2 : n - 1] : NAN));
}

/* Run r's scheme figures (write_scheme_figures), then its server figures,
 * a row per figure and a column per server (the busiest and the rest's
 * min, median and max past SERVERS_LISTED), folded in a details element.
 * Markup is lean (a compare page holds a dozen). */
void html_write_all_figures(FILE *out, const sim_results *res, size_t r)
{
    const run_result *run = &res->runs[r];
    char v[CELL];
    write_scheme_figures(out, res, r);
    if (run->nservers == 0)
        return;
    uint32_t shown[SERVERS_LISTED];
    size_t n = servers_listed(run, servers_count_writes, shown);
    unsigned char *listed = NULL;
    double *scratch = NULL;
    if (n < run->nservers) {
        listed = calloc(run->nservers, 1);
        scratch = malloc(run->nservers * sizeof *scratch);
        if (!listed || !scratch) report_out_of_memory();
        for (size_t i = 0; i < n; i++) listed[shown[i]] = 1;
        fprintf(out, "<details><summary>Figures per server: the %zu with the most writes of %"
                PRIu32 ", and the other %zu's min, median and max</summary>\n", n,
                run->nservers, (size_t)run->nservers - n);
    } else
        fputs("<details><summary>Figures per server</summary>\n", out);
    fputs("<div class=\"wide\"><table class=\"all srv\">\n<tr><th></th>", out);
    for (size_t i = 0; i < n; i++) {
        fputs("<th>", out);
        html_put_text(out, run->servers[shown[i]].name);
        fputs("</th>", out);
    }
    if (listed)
        fputs("<th>rest min</th><th>rest median</th><th>rest max</th>", out);
    fputs("<th></th></tr>\n", out);
    for (const figure *f = figure_first(FIGURE_SERVER); f; f = figure_next(f)) {
        fprintf(out, "<tr><th>%s</th>", f->name);
        for (size_t i = 0; i < n; i++)
            fprintf(out, "<td>%s</td>", fmt_figure(v, f, figure_value(f, run, shown[i])));
        if (listed)
            write_rest_figure(out, f, run, listed, scratch);
        fprintf(out, "<td>%s</td></tr>\n", f->unit);
    }
    fputs("</table></div></details>\n", out);
    free(scratch);
    free(listed);
}

