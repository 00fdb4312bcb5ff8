/* html_heatmap.c -- the HTML report's heatmaps, colour levels and time
 * axis (reports/html.c's top comment gives the page's design).
 *
 * A heatmap is a windows x rows matrix drawn as a nested <svg> of one unit
 * per cell, its cells grouped by colour level. Server heatmaps of up to
 * SERVER_ROWS_MAX servers (reports/servers.h) have a row per server;
 * beyond, a row per bin of consecutive servers, labelled with the range
 * ("rs0-rs312") and coloured by the bin's maximum in each window (the same
 * bins and the same choice as the text report: one hot server in a bin
 * still shows at full strength, where a mean would dilute it by the
 * bin's size). The shared scales do not change: the max of the bins'
 * maxima is the max of every cell. So a 10,000-server run draws 32 rows,
 * not 10,000, and its page stays a few hundred kilobytes a panel.
 *
 * A heatmap's values and levels are worked out once (cell_grid); the cells
 * are drawn level by level, a row's neighbours of one level as one <rect>,
 * and a transparent layer of one <rect> per TIP_COLS columns of a row on
 * top carries the tooltips, each listing its cells' values in order
 * (reports/html.c's top comment says why not a <title> per cell). Colour
 * scales (colour_scale, html_scale_of) are ratios around the even share.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/html_impl.h"
#include "reports/servers.h"
#include "reports/stats.h"

/* ---- colour scale ---- */

/* Viridis at 0, 1/8, ..., 1 (dark purple to yellow); the scale runs it
 * backwards so that darker means more. */
static const unsigned char VIRIDIS[9][3] = {
    { 0x44, 0x01, 0x54 }, { 0x48, 0x28, 0x78 }, { 0x3e, 0x49, 0x89 },
    { 0x31, 0x68, 0x8e }, { 0x26, 0x82, 0x8e }, { 0x1f, 0x9e, 0x89 },
    { 0x35, 0xb7, 0x79 }, { 0x6e, 0xce, 0x58 }, { 0xfd, 0xe7, 0x25 },
};

/* The colour of level 1..LEVELS as "#rrggbb", interpolated in sRGB. */
const char *html_level_colour(char *buf, int level)
{
    double f = 1.0 - (double)(level - 1) / (LEVELS - 1); /* 1 = lightest */
    double at = f * 8;
    int i = at >= 8 ? 7 : (int)at;
    double u = at - i;
    int rgb[3];
    for (int c = 0; c < 3; c++)
        rgb[c] = (int)lround(VIRIDIS[i][c] + u * (VIRIDIS[i + 1][c] - VIRIDIS[i][c]));
    snprintf(buf, CELL, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
    return buf;
}

/* A scale centred on the even share (html_impl.h): `step` a level,
 * the even share in the middle of its level, the maximum in the top one
 * but the even share no higher than SCALE_EVEN_MAX; when the maximum on
 * top would leave fewer than SCALE_EVEN_MIN - 1 levels below the even
 * share, the step grows instead. */
colour_scale html_scale_of(uint64_t max, double mean, double step)
{
    colour_scale s = { max, mean, step, LEVELS };
    if (max == 0 || !(mean > 0) || (double)max <= mean)
        return s;
    double span = log((double)max / mean) / log(step);
    s.even = LEVELS - (int)lround(span);
    if (s.even > SCALE_EVEN_MAX) s.even = SCALE_EVEN_MAX;
    if (s.even < SCALE_EVEN_MIN) {
        s.even = SCALE_EVEN_MIN;
        s.step = pow((double)max / mean, 1.0 / (LEVELS - SCALE_EVEN_MIN));
    }
    return s;
}

/* The level of v: 0 for nothing, else the even level plus the steps (of
 * s->step) from the mean to v, rounded, clamped to 1..LEVELS. */
int html_level_of(double v, const colour_scale *s)
{
    if (v <= 0 || s->max == 0 || !(s->mean > 0)) return 0;
    double k = s->even + round(log(v / s->mean) / log(s->step));
    return k < 1 ? 1 : k > LEVELS ? LEVELS : (int)k;
}

/* The least value of level k (k >= 2): the boundary below it. */
double html_level_floor(const colour_scale *s, int k)
{
    return s->mean * pow(s->step, k - s->even - 0.5);
}

/* ---- time axis ---- */


/* The least of 1, 2 or 5 times a power of ten that cuts [0, units) into
 * at most 8 steps. */
static double tick_step(double units)
{
    static const double mantissa[3] = { 1, 2, 5 };
    for (int e = -3;; e++)
        for (int m = 0; m < 3; m++)
            if (units / (mantissa[m] * pow(10, e)) <= 8) return mantissa[m] * pow(10, e);
}

/* The run's time span (its windows, or its duration if longer), in the
 * unit that keeps the numbers small. */
time_axis html_time_axis_of(const run_result *run)
{
    time_axis ax = { (uint64_t)run->nwindows * run->window_us, 1000, "ms", 1 };
    if (run->duration_us > ax.span_us) ax.span_us = run->duration_us;
    if (ax.span_us == 0) ax.span_us = 1;
    if (ax.span_us >= 3 * 3600000000ull) ax.unit_us = 3600000000ull, ax.unit = "h";
    else if (ax.span_us >= 120000000) ax.unit_us = 60000000, ax.unit = "min";
    else if (ax.span_us >= 2000000) ax.unit_us = 1000000, ax.unit = "s";
    ax.step = tick_step((double)ax.span_us / (double)ax.unit_us);
    return ax;
}

/* The x coordinate of time t on the plot. */
double html_time_x(const time_axis *ax, uint64_t t_us)
{
    if (t_us > ax->span_us) t_us = ax->span_us;
    return PLOT_X + (double)t_us / (double)ax->span_us * PLOT_W;
}

/* A time since the start of the run in the axis unit: "12.5 min". */
const char *html_fmt_time(char *buf, const time_axis *ax, uint64_t t_us)
{
    snprintf(buf, CELL, "%.1f %s", (double)t_us / (double)ax->unit_us, ax->unit);
    return buf;
}

/* Tick marks and labels under a plot whose bottom edge is at y, and the
 * axis title. */
void html_write_time_ticks(FILE *out, const time_axis *ax, double y)
{
    char a[CELL];
    double units = (double)ax->span_us / (double)ax->unit_us;
    fputs("<g class=\"axis\">", out);
    for (int k = 0; k * ax->step <= units * (1 + 1e-9); k++) {
        double v = k * ax->step;
        double x = PLOT_X + v / units * PLOT_W;
        fprintf(out, "<path d=\"M%.1f %.0fv6\"/><text x=\"%.1f\" y=\"%.0f\">%s</text>",
                x, y, x, y + 22, html_fmt_tick(a, v));
    }
    fprintf(out, "<text class=\"title\" x=\"%d\" y=\"%.0f\">time (%s)</text>",
            PLOT_X + PLOT_W / 2, y + 46, ax->unit);
    fputs("</g>\n", out);
}

/* ---- a panel: heatmaps ---- */

/* One heatmap: a windows x rows matrix (cells[w * nrows + r]). */
typedef struct heatmap {
    const char *title;       /* heading */
    const char *what;        /* the cell's unit, for the SVG title */
    const char *y_title;
    const uint64_t *cells;   /* NULL: all zero */
    uint32_t nrows;
    int keys;                /* rows are key buckets: key labels, row 0 at the bottom */
    size_t key_skip;         /* characters of shared prefix the key labels leave out */
    const colour_scale *scale; /* the shared scale */
    const char *const *labels; /* rows that are not key buckets: their labels */
} heatmap;

/* Windows per column, so that a run has at most HEAT_COLS_MAX columns. */
uint32_t html_windows_per_column(const run_result *run)
{
    return run->nwindows <= HEAT_COLS_MAX ? 1 : (run->nwindows + HEAT_COLS_MAX - 1) / HEAT_COLS_MAX;
}

/* Row `row`, column `col`: the mean per window over the column's windows. */
static double cell_value(const heatmap *hm, const run_result *run, uint32_t row, uint32_t col,
                         uint32_t per)
{
    if (!hm->cells) return 0;
    uint64_t sum = 0;
    uint32_t n = 0;
    for (uint32_t w = col * per; w < (col + 1) * per && w < run->nwindows; w++, n++)
        sum += hm->cells[(size_t)w * hm->nrows + row];
    return n ? (double)sum / n : 0;
}

/* A heatmap's cells worked out once: value and level of drawn row y
 * (0 = top), column x at [y * ncols + x]. */
typedef struct cell_grid {
    uint32_t ncols, per;
    double *value;
    unsigned char *level;
} cell_grid;

static cell_grid grid_of(const heatmap *hm, const run_result *run)
{
    cell_grid g = { 0, html_windows_per_column(run), NULL, NULL };
    g.ncols = (run->nwindows + g.per - 1) / g.per;
    size_t n = (size_t)g.ncols * hm->nrows;
    g.value = malloc((n ? n : 1) * sizeof *g.value);
    g.level = malloc(n ? n : 1);
    if (!g.value || !g.level) report_out_of_memory();
    for (uint32_t y = 0; y < hm->nrows; y++) {
        uint32_t row = hm->keys ? hm->nrows - 1 - y : y;
        for (uint32_t x = 0; x < g.ncols; x++) {
            double v = cell_value(hm, run, row, x, g.per);
            g.value[(size_t)y * g.ncols + x] = v;
            g.level[(size_t)y * g.ncols + x] = (unsigned char)html_level_of(v, hm->scale);
        }
    }
    return g;
}

/* What row `row` is, for a tooltip: the server (or bin) or "from" the
 * bucket's start key, cut to TITLE_KEY_COLS. */
static void write_row_name(FILE *out, const run_result *run, const heatmap *hm, uint32_t row)
{
    char a[CELL];
    if (!hm->keys) {
        html_put_text(out, hm->labels[row]);
        return;
    }
    const char *start = run->keyspace.bucket_start[row];
    fputs("from ", out);
    html_put_text(out, start && start[0] ? fmt_cut(a, start, TITLE_KEY_COLS) : "-inf");
}

/* The cells of one colour level (0 = nothing), drawn row by drawn row,
 * each run of neighbours of that level in a row one <rect> (no tooltip:
 * write_tips lays them over the cells). */
static void write_level(const page *pg, const heatmap *hm, const cell_grid *g, int level)
{
    int open = 0;
    for (uint32_t y = 0; y < hm->nrows; y++) {
        const unsigned char *lv = g->level + (size_t)y * g->ncols;
        for (uint32_t x = 0; x < g->ncols;) {
            if (lv[x] != level) {
                x++;
                continue;
            }
            uint32_t x1 = x + 1;
            while (x1 < g->ncols && lv[x1] == level) x1++;
            if (!open && level) fprintf(pg->out, "<g class=\"c%d\">", level);
            open = 1;
            fprintf(pg->out, "<rect x=\"%" PRIu32 "\" y=\"%" PRIu32 "\"", x, y);
            if (x1 - x > 1) fprintf(pg->out, " width=\"%" PRIu32 "\"", x1 - x);
            fputs("/>", pg->out);
            x = x1;
        }
    }
    if (open) fputs(level ? "</g>\n" : "\n", pg->out);
}

/* The tooltips: over each row, a transparent <rect> per TIP_COLS columns
 * whose <title> names the row and the time span and lists each cell's
 * value in order: "rs3 10&#8211;20 min: 7523 7368 ...". */
static void write_tips(const page *pg, const run_result *run, const heatmap *hm,
                       const cell_grid *g, const time_axis *ax)
{
    FILE *out = pg->out;
    char a[CELL], b[CELL];
    uint64_t end = (uint64_t)run->nwindows * run->window_us;
    fputs("<g class=\"tip\">", out);
    for (uint32_t y = 0; y < hm->nrows; y++) {
        uint32_t row = hm->keys ? hm->nrows - 1 - y : y;
        const double *v = g->value + (size_t)y * g->ncols;
        for (uint32_t x0 = 0; x0 < g->ncols; x0 += TIP_COLS) {
            uint32_t x1 = x0 + TIP_COLS < g->ncols ? x0 + TIP_COLS : g->ncols;
            uint64_t t0 = (uint64_t)x0 * g->per * run->window_us;
            uint64_t t1 = (uint64_t)x1 * g->per * run->window_us;
            if (t1 > end) t1 = end;
            fprintf(out, "<rect x=\"%" PRIu32 "\" y=\"%" PRIu32 "\"", x0, y);
            if (x1 - x0 > 1) fprintf(out, " width=\"%" PRIu32 "\"", x1 - x0);
            fputs("><title>", out);
            write_row_name(out, run, hm, row);
            fprintf(out, " %s&#8211;%s %s:", html_fmt_tick(a, (double)t0 / (double)ax->unit_us),
                    html_fmt_tick(b, (double)t1 / (double)ax->unit_us), ax->unit);
            for (uint32_t x = x0; x < x1; x++)
                fprintf(out, g->per == 1 || v[x] == 0 ? " %.0f" : " %.1f", v[x]);
            fputs("</title></rect>", out);
        }
        fputc('\n', out);
    }
    fputs("</g>\n", out);
}

/* The label of server or bucket `row`, centred on y. */
static void write_row_label(FILE *out, const run_result *run, const heatmap *hm, uint32_t row,
                            double y)
{
    char a[CELL];
    fprintf(out, "<text x=\"%d\" y=\"%.1f\">", PLOT_X - 8, y + 5);
    if (hm->keys)
        html_put_text(out, html_bucket_label(a, (const char *const *)run->keyspace.bucket_start,
                                             run->keyspace.nbuckets, row, hm->key_skip,
                                             KEY_LABEL_COLS));
    else
        html_put_text(out, hm->labels[row]);
    fputs("</text>", out);
}

/* The warm-up before measure_from: veiled, with a dashed line where the
 * measured run starts. Nothing when the whole run is measured. */
static void write_warm_up(FILE *out, const run_result *run, const time_axis *ax, double plot_h)
{
    if (run->measure_from_us == 0)
        return;
    double x = html_time_x(ax, run->measure_from_us);
    fprintf(out, "<rect class=\"warm\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\">"
            "<title>warm-up: not in the figures</title></rect>\n", PLOT_X, PLOT_TOP,
            x - PLOT_X, plot_h);
    fprintf(out, "<path class=\"measure\" d=\"M%.1f %dv%.1f\"/>\n", x, PLOT_TOP, plot_h);
}

static void write_heatmap(const page *pg, const run_result *run, const heatmap *hm)
{
    FILE *out = pg->out;
    uint32_t per = html_windows_per_column(run);
    double cols_exact = (double)run->nwindows / per; /* a last, partial group is clipped */
    double row_h = hm->nrows * ROW_H <= ROWS_H_MAX ? ROW_H : (double)ROWS_H_MAX / hm->nrows;
    double plot_h = row_h * hm->nrows;
    time_axis ax = html_time_axis_of(run);
    double plot_w = (double)run->nwindows * run->window_us / (double)ax.span_us * PLOT_W;

    fprintf(out, "<h3>%s</h3>\n", hm->title);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %.0f\">\n"
            "<title>%s: rows %s, columns time</title>\n",
            SVG_W, PLOT_TOP + plot_h + AXIS_H, hm->what, hm->y_title);
    fprintf(out, "<svg class=\"cells\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" "
            "viewBox=\"0 0 %.6g %" PRIu32 "\" preserveAspectRatio=\"none\" "
            "shape-rendering=\"crispEdges\">\n",
            PLOT_X, PLOT_TOP, plot_w, plot_h, cols_exact, hm->nrows);
    cell_grid g = grid_of(hm, run);
    for (int level = 0; level <= LEVELS; level++) write_level(pg, hm, &g, level);
    write_tips(pg, run, hm, &g, &ax);
    free(g.value);
    free(g.level);
    fputs("</svg>\n", out);
    fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\"/>\n",
            PLOT_X, PLOT_TOP, PLOT_W, plot_h);
    write_warm_up(out, run, &ax, plot_h);

    uint32_t step = (uint32_t)ceil(LABEL_GAP / row_h);
    fprintf(out, "<g class=\"yl%s\">", hm->keys ? " key" : "");
    for (uint32_t row = 0; row < hm->nrows; row += step) {
        double y = hm->keys ? PLOT_TOP + plot_h - (row + 0.5) * row_h : PLOT_TOP + (row + 0.5) * row_h;
        write_row_label(out, run, hm, row, y);
    }
    fputs("</g>", out);
    fprintf(out, "\n<text class=\"title\" transform=\"translate(16 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">%s</text>\n", PLOT_TOP + plot_h / 2, hm->y_title);
    html_write_time_ticks(out, &ax, PLOT_TOP + plot_h);
    fputs("</svg>\n", out);
    if (per > 1)
        fprintf(out, "<p class=\"note\">A column is %" PRIu32 " windows; a cell shows their mean "
                "per window.</p>\n", per);
}

uint32_t html_server_rows(const run_result *run)
{
    uint32_t per_row, nrows;
    window_bins_geometry(run->nservers, &per_row, &nrows);
    return nrows;
}

void html_write_server_heatmaps(const page *pg, const run_result *run)
{
    server_bins wb = server_bins_run(run, 0);
    heatmap writes = { "Writes per server over time", "writes per window", "server",
                       wb.cells, wb.nrows, 0, 0, &pg->scale[STATS_SERVER_WRITES], wb.labels };
    write_heatmap(pg, run, &writes);
    if (run->reads > 0) {
        server_bins rb = server_bins_run(run, 1);
        heatmap reads = { "Read RPCs per server over time", "read RPCs per window", "server",
                          rb.cells, rb.nrows, 0, 0, &pg->scale[STATS_SERVER_READS], rb.labels };
        write_heatmap(pg, run, &reads);
        server_bins_free(&rb);
    }
    if (wb.per_row > 1)
        fprintf(pg->out, "<p class=\"note\">%" PRIu32 " servers: a row is a bin of %" PRIu32
                " consecutive servers (the label gives the first and the last), coloured by "
                "the bin's <strong>max</strong>, its busiest server in the window, so one hot "
                "server shows at full strength. Every server's counts are in the JSON and CSV "
                "reports.</p>\n", run->nservers, wb.per_row);
    server_bins_free(&wb);
}

void html_write_key_heatmaps(const page *pg, const run_result *run)
{
    const keyspace_heatmap *ks = &run->keyspace;
    if (ks->nbuckets == 0) {
        fputs("<h3>Key space over time</h3>\n<p class=\"note\">No rows stored: no key "
              "space to show.</p>\n", pg->out);
        return;
    }
    size_t skip = html_shared_prefix((const char *const *)ks->bucket_start, ks->nbuckets, KEY_LABEL_COLS);
    heatmap writes = { "Writes per key range over time", "writes per window", "key (bucket start)",
                       ks->writes, ks->nbuckets, 1, skip, &pg->scale[STATS_KEY_WRITES], NULL };
    heatmap reads = { "Read RPCs per key range over time", "read RPCs per window",
                      "key (bucket start)", ks->reads, ks->nbuckets, 1, skip, &pg->scale[STATS_KEY_READS], NULL };
    write_heatmap(pg, run, &writes);
    if (run->reads > 0) write_heatmap(pg, run, &reads);
    fprintf(pg->out, "<p class=\"note\">%" PRIu32 " buckets of about equal row count at the end "
            "of the run; keys ascend upwards.", ks->nbuckets);
    if (!ks->exact)
        fprintf(pg->out, " Where a window had more operations than %" PRIu32 ", its split "
                "among buckets is estimated from a sample of %" PRIu32 " keys per window "
                "(the window's total is exact).", ks->sample, ks->sample);
    html_write_prefix_note(pg->out, ks->bucket_start[ks->nbuckets - 1], skip, "Key labels");
    fputs("</p>\n", pg->out);
}

