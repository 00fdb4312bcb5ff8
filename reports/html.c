/* html.c -- the classroom report: one self-contained page of heatmaps.
 *
 * Design: one XHTML page (well-formed XML, so xmllint reads it; browsers
 * parse it as HTML5) with inline CSS and SVG, no script and nothing fetched.
 * A header echoes the configuration and shows one legend per colour scale;
 * a CSS grid below holds one panel per run (key scheme): its imbalance
 * figures, its heatmaps (server x time and key space x time, of writes and,
 * when the run read, of read RPCs), its hottest regions and a timeline of
 * splits, moves and server events. Every figure comes from stats.h.
 * With samples (--samples N) the header names their seeds and each panel's
 * Figures table shows a figure's median and min-max across them; the rest
 * of a panel is the first sample's run.
 *
 * Shared scales: each kind of heatmap (server writes, server reads, key
 * writes, key reads) has ONE scale over every panel, its maximum the
 * hottest cell of any run (stats_shared_max), so a hot spot in one scheme
 * is visibly hotter than the same colour would be elsewhere. The palette is
 * viridis reversed (perceptually uniform, monotone in lightness, readable
 * in grey and by most colour-blind readers): yellow = little, dark purple
 * = the maximum, in LEVELS linear steps; zero is a light grey that no
 * non-zero value gets, so "nothing" and "a little" never look alike.
 *
 * Size: a compare page holds tens of thousands of cells, so a cell is as
 * short as SVG allows: `<rect x="12" y="3"/>` in a nested <svg> whose
 * viewBox is one unit per cell, inside a <g class="c5"> that holds every
 * cell of that colour level (zero cells come first, outside any group).
 * Width and height come from one CSS rule, an SVG 2 geometry property that
 * current browsers support (older renderers would draw nothing); a fill or
 * class per cell would cost a third more. Quantising to LEVELS classes,
 * instead of a colour per cell, keeps the page small and the legend exact.
 * Exact values ride along as <title> tooltips only when the page has at
 * most TITLE_CELLS_MAX cells (a single run, typically); the JSON and CSV
 * reports carry them all. Runs with more
 * than HEAT_COLS_MAX windows show groups of windows per column, each cell
 * the mean per window of its group, so the shared per-window scale holds.
 * Timeline events are dashes on one path per kind, merged when they fall
 * on the same pixel: thousands of splits cost a few kilobytes.
 *
 * Keys in labels and the regions table are cut to a few columns with
 * "..." (never inside a \xNN escape). Row keys often share a long prefix
 * (a timestamp's high bytes), which would leave every label the same, so
 * a prefix that all the keys shown share is left out (shown as "...") and
 * printed once in a note.
 *
 * Text from the results is escaped for XML (& < > " ') and sanitised: bytes
 * that are not UTF-8 and characters XML 1.0 forbids (C0 controls but tab,
 * newline and return; U+FFFE, U+FFFF) become U+FFFD. The writer allocates
 * nothing itself (stats.h aborts with a message if its scratch copies
 * fail); output is a pure function of the results: no time stamps.
 */
#include "reports/report.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "reports/format.h"
#include "reports/figures.h"
#include "reports/samples.h"
#include "reports/stats.h"

#define LEVELS 16            /* colour steps of a scale */
#define HEAT_COLS_MAX 120    /* heatmap columns; windows beyond are grouped */
#define TITLE_CELLS_MAX 4000 /* cells a page may carry tooltips for */
#define KEY_LABEL_COLS 16    /* bucket start keys on the y axis */
#define KEY_TABLE_COLS 16    /* region boundaries in the table */
#define PREFIX_MIN 8         /* least common key prefix worth leaving out */
#define TOP_REGIONS 10
#define SERVER_EVENTS_LISTED 40

/* Plot geometry in SVG user units (CSS pixels at 100%). */
#define SVG_W 600
#define PLOT_X 172           /* left edge of the plot: room for key labels */
#define PLOT_W 408
#define PLOT_TOP 8
#define AXIS_H 54            /* below the plot: tick labels and axis title */
#define ROW_H 22             /* row height up to ROWS_H_MAX / ROW_H rows */
#define ROWS_H_MAX 352
#define LABEL_GAP 17         /* least distance between row labels */
#define LANE_H 24            /* timeline lane */

static const char *const REPLACEMENT = "\xEF\xBF\xBD"; /* U+FFFD */

/* Everything the panels share: the stream, the four shared scale maxima
 * (indexed by STATS_SERVER_WRITES ...) and whether cells carry tooltips. */
typedef struct page {
    FILE *out;
    uint64_t max[4];
    int titles;
} page;

/* ---- text ---- */

/* The first len bytes of s (or up to its end) as XML text or attribute
 * value; NULL prints "-". */
static void put_text_n(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "-");
    const unsigned char *end = p + (s ? len : 1);
    while (p < end && *p) {
        size_t n = utf8_sequence_len(p);
        if ((size_t)(end - p) < n) n = 0; /* a sequence cut by len */
        if (n == 0 || xml_forbids(p, n)) {
            fputs(REPLACEMENT, out);
            p += n ? n : 1;
            continue;
        }
        if (n > 1) {
            fwrite(p, 1, n, out);
            p += n;
            continue;
        }
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*p, out);
        }
        p++;
    }
}

static void put_text(FILE *out, const char *s)
{
    put_text_n(out, s, s ? strlen(s) : 0);
}

/* Characters of the token at the start of a shell-form key: a \xNN escape
 * or one character. */
static size_t key_token_len(const char *s)
{
    return s[0] == '\\' && s[1] == 'x' && s[2] && s[3] ? 4 : 1;
}

/* The prefix, in characters, that every non-empty key of keys[0..n)
 * shares and that labels leave out when a key is too long for `cols`:
 * whole tokens only, at least PREFIX_MIN characters, and never a whole
 * key. 0 when nothing is worth leaving out. */
static size_t shared_prefix(const char *const *keys, size_t n, size_t cols)
{
    const char *first = NULL;
    size_t common = 0, shortest = 0, nonempty = 0;
    int too_long = 0;
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[i];
        if (!k || !k[0]) continue;
        size_t len = strlen(k), at = 0;
        too_long |= len > cols;
        if (!first) {
            first = k, common = len, shortest = len;
        } else {
            while (at < common && first[at] == k[at]) at++;
            common = at;
            if (len < shortest) shortest = len;
        }
        nonempty++;
    }
    if (!too_long || nonempty < 2) return 0;
    size_t limit = common < shortest ? common : shortest - 1, at = 0;
    while (at < limit && at + key_token_len(first + at) <= limit) at += key_token_len(first + at);
    return at >= PREFIX_MIN ? at : 0;
}

/* A key in at most `cols` characters: "" (or NULL) as `unbounded`, else
 * without its first `skip` characters (shown as "...") and cut to fit. */
static const char *key_label(char *buf, const char *key, size_t skip, const char *unbounded,
                             size_t cols)
{
    if (!key || !key[0]) return fmt_cut(buf, unbounded, cols);
    if (skip == 0 || strlen(key) <= skip) return fmt_cut(buf, key, cols);
    strcpy(buf, "...");
    fmt_cut(buf + 3, key + skip, cols - 3);
    return buf;
}

/* The note that labels leave out a shared prefix, if they do. */
static void write_prefix_note(FILE *out, const char *key, size_t skip, const char *what)
{
    if (skip == 0) return;
    fprintf(out, " %s leave out the prefix they all share (shown as ...): <code>", what);
    put_text_n(out, key, skip);
    fputs("</code>.", out);
}

/* ---- figures ---- */

/* A scale tick: integers as such, small fractions with 3 digits. */
static const char *fmt_tick(char *buf, double v)
{
    if (v == floor(v) || v >= 100) snprintf(buf, CELL, "%.0f", v);
    else snprintf(buf, CELL, "%.3g", v);
    return buf;
}

/* ---- time axis ---- */

/* A run's time axis: [0, span) in `unit`s, ticks every `step` units. */
typedef struct time_axis {
    uint64_t span_us, unit_us;
    const char *unit;
    double step;
} time_axis;

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
static time_axis time_axis_of(const run_result *run)
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
static double time_x(const time_axis *ax, uint64_t t_us)
{
    if (t_us > ax->span_us) t_us = ax->span_us;
    return PLOT_X + (double)t_us / (double)ax->span_us * PLOT_W;
}

/* A time since the start of the run in the axis unit: "12.5 min". */
static const char *fmt_time(char *buf, const time_axis *ax, uint64_t t_us)
{
    snprintf(buf, CELL, "%.1f %s", (double)t_us / (double)ax->unit_us, ax->unit);
    return buf;
}

/* Tick marks and labels under a plot whose bottom edge is at y, and the
 * axis title. */
static void write_time_ticks(FILE *out, const time_axis *ax, double y)
{
    char a[CELL];
    double units = (double)ax->span_us / (double)ax->unit_us;
    fputs("<g class=\"axis\">", out);
    for (int k = 0; k * ax->step <= units * (1 + 1e-9); k++) {
        double v = k * ax->step;
        double x = PLOT_X + v / units * PLOT_W;
        fprintf(out, "<path d=\"M%.1f %.0fv6\"/><text x=\"%.1f\" y=\"%.0f\">%s</text>",
                x, y, x, y + 22, fmt_tick(a, v));
    }
    fprintf(out, "<text class=\"title\" x=\"%d\" y=\"%.0f\">time (%s)</text>",
            PLOT_X + PLOT_W / 2, y + 46, ax->unit);
    fputs("</g>\n", out);
}

/* ---- colour scale ---- */

/* Viridis at 0, 1/8, ..., 1 (dark purple to yellow); the scale runs it
 * backwards so that darker means more. */
static const unsigned char VIRIDIS[9][3] = {
    { 0x44, 0x01, 0x54 }, { 0x48, 0x28, 0x78 }, { 0x3e, 0x49, 0x89 },
    { 0x31, 0x68, 0x8e }, { 0x26, 0x82, 0x8e }, { 0x1f, 0x9e, 0x89 },
    { 0x35, 0xb7, 0x79 }, { 0x6e, 0xce, 0x58 }, { 0xfd, 0xe7, 0x25 },
};
#define ZERO_COLOUR "#ececec"

/* The colour of level 1..LEVELS as "#rrggbb", interpolated in sRGB. */
static const char *level_colour(char *buf, int level)
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

/* The level of value v on a scale up to max: 0 for nothing, else 1..LEVELS,
 * level k covering ((k-1)/LEVELS, k/LEVELS] of max. */
static int level_of(double v, uint64_t max)
{
    if (v <= 0 || max == 0) return 0;
    double k = ceil(v / (double)max * LEVELS);
    return k < 1 ? 1 : k > LEVELS ? LEVELS : (int)k;
}

/* ---- the page head ---- */

static void write_css(FILE *out)
{
    char c[CELL];
    fputs("<style>\n"
          "body{font:18px/1.45 \"DejaVu Sans\",Verdana,Arial,sans-serif;color:#111;"
          "background:#fff;margin:20px 28px}\n"
          "h1{font-size:34px;margin:0 0 8px}h2{font-size:28px;margin:0;overflow-wrap:anywhere}\n"
          "h3{font-size:21px;margin:18px 0 4px}\n"
          "code,.key{font-family:\"DejaVu Sans Mono\",Menlo,Consolas,monospace;"
          "overflow-wrap:anywhere}\n"
          "table{border-collapse:collapse}th,td{padding:2px 10px 2px 0;vertical-align:top}\n"
          "th{text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
          ".config th{padding-right:16px}.note{font-size:16px;color:#333;margin:2px 0}\n"
          ".scales{display:flex;flex-wrap:wrap;gap:8px 40px}.scale{max-width:620px}\n"
          ".runs{display:grid;grid-template-columns:repeat(auto-fill,minmax(640px,1fr));"
          "gap:28px;margin-top:20px}\n"
          ".run{border:3px solid #222;border-radius:8px;padding:12px 18px;min-width:0}\n"
          ".head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px 24px}\n"
          ".head p{margin:4px 0}.figs{font-size:17px}.figs th{font-weight:normal}\n"
          ".all{font-size:15px}.all th{font:14px \"DejaVu Sans Mono\",Menlo,Consolas,monospace}"
          ".wide{overflow-x:auto}.sch td:nth-child(3n+2),.srv td,.srv th{text-align:right}"
          ".srv td:last-child{text-align:left}"
          "summary{font-size:17px;margin-top:8px}\n"
          ".regions{font-size:16px}.regions th{border-bottom:2px solid #222}\n"
          ".regions td{border-bottom:1px solid #bbb;white-space:nowrap}.regions td.key{font-size:15px}\n"
          "svg{display:block;width:100%;height:auto;max-width:900px}\n"
          "svg text{font-size:15px;fill:#111}svg .title{font-size:16px;font-weight:bold}\n"
          "svg .key{font-size:14px}.axis path,.tick{stroke:#111;stroke-width:1.5}\n"
          ".axis,.scale svg{text-anchor:middle}.yl{text-anchor:end}\n"
          ".frame{fill:none;stroke:#111;stroke-width:1.5}.lane{stroke:#bbb}\n"
          ".cells{fill:" ZERO_COLOUR "}.cells rect{width:1px;height:1px}.zero{fill:" ZERO_COLOUR "}\n",
          out);
    for (int k = 1; k <= LEVELS; k++) fprintf(out, ".c%d{fill:%s}", k, level_colour(c, k));
    fputs("\n.k0{stroke:#0072b2}.k1{stroke:#e69f00}.k2{stroke:#009e73}.k3{stroke:#cc79a7}"
          ".k4{stroke:#d55e00}.k5{stroke:#000}.k6{stroke:#56b4e9}\n"
          ".ev path{stroke-width:2;fill:none}.ev .swatch{stroke-width:12}\n"
          ".warm{fill:#fff;fill-opacity:0.55}.measure{stroke:#111;stroke-width:2;"
          "stroke-dasharray:6 4}.unsteady{color:#b00}\n"
          "</style>\n", out);
}

/* With samples (nsamples > 1), the configuration's row that says which
 * seeds ran and what the panels show of them; nothing for a single run. */
static void write_samples_config(FILE *out, const sim_results *res)
{
    if (res->nsamples <= 1)
        return;
    fprintf(out, "<tr><th>samples</th><td>%" PRIu32 " (seeds %" PRIu64 "..%" PRIu64 "): the "
            "panels show seed %" PRIu64 ", their Figures tables the median and min&#8211;max "
            "across the samples</td></tr>\n", res->nsamples, res->seed,
            res->seed + res->nsamples - 1, res->seed);
}

/* The configuration, as text.c's header shows it. */
static void write_config(FILE *out, const sim_results *res)
{
    char a[CELL], b[CELL], c[CELL];
    fputs("<table class=\"config\">\n<tr><th>scenario</th><td>", out);
    put_text(out, res->scenario);
    fprintf(out, " (seed %" PRIu64 ")</td></tr>\n", res->seed);
    write_samples_config(out, res);
    fprintf(out, "<tr><th>cluster</th><td>%" PRIu32 " servers; ", res->servers);
    put_text(out, res->split_policy);
    fprintf(out, " split at %s; ", fmt_bytes(a, res->region_max_bytes));
    if (!res->balancer || strcmp(res->balancer, "none") == 0) {
        fputs("no balancer", out);
    } else {
        fputs("balancer ", out);
        put_text(out, res->balancer);
        fprintf(out, " every %s", fmt_duration(b, res->balancer_period_us));
    }
    fprintf(out, "; window %s</td></tr>\n<tr><th>workload</th><td>", fmt_duration(c, res->window_us));
    put_text(out, res->workload);
    fprintf(out, "; %" PRIu64 " B per cell beyond the key</td></tr>\n",
            res->cell_overhead_bytes);
    char store[256];
    stats_store_note(res, store, sizeof store);
    if (*store) {
        fputs("<tr><th>store</th><td>", out);
        put_text(out, store);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* What each shared scale measures, indexed by STATS_SERVER_WRITES ... */
static const char *const SCALE_TITLE[4] = {
    "writes per server and window", "read RPCs per server and window",
    "writes per key bucket and window", "read RPCs per key bucket and window",
};

/* One legend: the zero swatch, the LEVELS steps and ticks 0 .. max. */
static void write_scale_legend(FILE *out, int which, uint64_t max)
{
    enum { RAMP_X = 110, STEP_W = 26, TOP = 6, SWATCH_H = 28 };
    char a[CELL];
    fprintf(out, "<div class=\"scale\"><h3>Scale: %s</h3>\n", SCALE_TITLE[which]);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d 64\" "
            "style=\"max-width:%dpx\">\n<title>colour scale: %s, 0 to %" PRIu64 "</title>\n",
            RAMP_X + LEVELS * STEP_W + 30, RAMP_X + LEVELS * STEP_W + 30, SCALE_TITLE[which], max);
    fprintf(out, "<rect class=\"zero\" x=\"0\" y=\"%d\" width=\"40\" height=\"%d\"/>"
            "<rect class=\"frame\" x=\"0\" y=\"%d\" width=\"40\" height=\"%d\"/>"
            "<text x=\"48\" y=\"%d\" text-anchor=\"start\">= 0</text>\n",
            TOP, SWATCH_H, TOP, SWATCH_H, TOP + 20);
    for (int k = 1; k <= LEVELS; k++)
        fprintf(out, "<rect class=\"c%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", k,
                RAMP_X + (k - 1) * STEP_W, TOP, STEP_W, SWATCH_H);
    fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
            RAMP_X, TOP, LEVELS * STEP_W, SWATCH_H);
    for (int q = 0; q <= (max ? 4 : 0); q++) {
        double x = RAMP_X + q * (LEVELS * STEP_W) / 4.0;
        if (q == 4)
            snprintf(a, CELL, "%" PRIu64, max);
        else
            fmt_tick(a, (double)max * q / 4.0);
        fprintf(out, "<path class=\"tick\" d=\"M%.1f %dv6\"/><text x=\"%.1f\" y=\"%d\">%s</text>",
                x, TOP + SWATCH_H, x, TOP + SWATCH_H + 24, a);
    }
    fputs("\n</svg>\n", out);
    if (max == 0)
        fputs("<p class=\"note\">No run had any: every cell is 0.</p>\n", out);
    else
        fprintf(out, "<p class=\"note\">Linear, %d steps of %s each; %" PRIu64
                " = the hottest cell of any panel.</p>\n", LEVELS, fmt_tick(a, (double)max / LEVELS),
                max);
    fputs("</div>\n", out);
}

static int any_reads(const sim_results *res)
{
    for (size_t r = 0; r < res->nruns; r++)
        if (res->runs[r].reads > 0) return 1;
    return 0;
}

static void write_header(const page *pg, const sim_results *res)
{
    FILE *out = pg->out;
    fputs("<header>\n<h1>Where the load lands: ", out);
    put_text(out, res->scenario);
    fputs("</h1>\n", out);
    write_config(out, res);
    fprintf(out, "<p>One panel per row-key scheme (%zu). <strong>Every heatmap of one kind "
            "shares ONE colour scale across all panels</strong>, so schemes compare directly: "
            "grey = nothing, yellow = a little, <strong>darker = more</strong>, dark purple = "
            "the most any scheme put in one cell. Rows are servers, or key buckets with "
            "ascending keys going up; columns are report windows.</p>\n", res->nruns);
    int reads = any_reads(res);
    fputs("<div class=\"scales\">\n", out);
    for (int which = STATS_SERVER_WRITES; which <= STATS_KEY_READS; which++)
        if (reads || which == STATS_SERVER_WRITES || which == STATS_KEY_WRITES)
            write_scale_legend(out, which, pg->max[which]);
    fputs("</div>\n</header>\n", out);
}

/* ---- a panel: figures ---- */

/* One row of the figures table: writes, and reads when the run read. */
static void write_figure_row(FILE *out, const char *name, const char *w, const char *r, int reads)
{
    fprintf(out, "<tr><th>%s</th><td class=\"n\">", name);
    put_text(out, w);
    fputs("</td>", out);
    if (reads) {
        fputs("<td class=\"n\">", out);
        put_text(out, r);
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
static void write_panel_head(FILE *out, const run_result *run)
{
    char a[CELL], b[CELL];
    fputs("<div class=\"head\">\n<div>\n<h2>", out);
    put_text(out, run->scheme_name);
    fputs("</h2>\n<p>key <code>", out);
    put_text(out, run->scheme_expr);
    fputs("</code></p>\n<p>example <code>", out);
    put_text(out, fmt_cut(a, run->key_example, 40));
    fputs("</code></p>\n<p>pre-split ", out);
    put_text(out, run->presplit);
    fprintf(out, "</p>\n<p>%" PRIu64 " writes, %" PRIu64 " reads in %s</p>\n", run->writes,
            run->reads, fmt_duration(a, run->duration_us));
    fprintf(out, "<p>regions %" PRIu64 " &#8594; %" PRIu64 "; %" PRIu64 " splits, %" PRIu64
            " moves</p>\n<p>key bytes %s mean</p>\n",
            run->regions_start, run->regions, run->splits, run->moves,
            fmt_fixed(b, run->key_bytes_mean, 1));
    if (run->measure_from_us)
        fprintf(out, "<p>measured from %s (the veiled warm-up is in no figure)</p>\n",
                fmt_duration(a, run->measure_from_us));
    steady_state st = stats_steady(run);
    if (!st.steady) {
        char note[256];
        stats_steady_note(run, &st, note, sizeof note);
        fputs("<p class=\"unsteady\">", out);
        put_text(out, note);
        fputs("</p>\n", out);
    }
    fputs("</div>\n", out);
    write_figures(out, run);
    fputs("</div>\n", out);
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
    uint64_t max;            /* the shared scale */
} heatmap;

/* Windows per column, so that a run has at most HEAT_COLS_MAX columns. */
static uint32_t windows_per_column(const run_result *run)
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

/* A cell at column x, drawn row y (0 = top), with its value as a tooltip
 * when the page has room for them. */
static void write_cell(const page *pg, uint32_t x, uint32_t y, double v, uint32_t per)
{
    fprintf(pg->out, "<rect x=\"%" PRIu32 "\" y=\"%" PRIu32 "\"", x, y);
    if (!pg->titles) fputs("/>", pg->out);
    else if (per == 1) fprintf(pg->out, "><title>%.0f</title></rect>", v);
    else fprintf(pg->out, "><title>%.1f</title></rect>", v);
}

/* The cells of one colour level (0 = nothing), drawn row by drawn row. */
static void write_level(const page *pg, const run_result *run, const heatmap *hm, int level,
                        uint32_t ncols, uint32_t per)
{
    int open = 0;
    for (uint32_t y = 0; y < hm->nrows; y++) {
        uint32_t row = hm->keys ? hm->nrows - 1 - y : y;
        for (uint32_t x = 0; x < ncols; x++) {
            double v = cell_value(hm, run, row, x, per);
            if (level_of(v, hm->max) != level) continue;
            if (!open && level) fprintf(pg->out, "<g class=\"c%d\">", level);
            open = 1;
            write_cell(pg, x, y, v, per);
        }
    }
    if (open) fputs(level ? "</g>\n" : "\n", pg->out);
}

/* The label of server or bucket `row`, centred on y. */
static void write_row_label(FILE *out, const run_result *run, const heatmap *hm, uint32_t row,
                            double y)
{
    char a[CELL];
    fprintf(out, "<text x=\"%d\" y=\"%.1f\">", PLOT_X - 8, y + 5);
    if (hm->keys)
        put_text(out, key_label(a, run->keyspace.bucket_start[row], hm->key_skip, "-inf",
                                KEY_LABEL_COLS));
    else
        put_text(out, run->servers[row].name);
    fputs("</text>", out);
}

/* The warm-up before measure_from: veiled, with a dashed line where the
 * measured run starts. Nothing when the whole run is measured. */
static void write_warm_up(FILE *out, const run_result *run, const time_axis *ax, double plot_h)
{
    if (run->measure_from_us == 0)
        return;
    double x = time_x(ax, run->measure_from_us);
    fprintf(out, "<rect class=\"warm\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\">"
            "<title>warm-up: not in the figures</title></rect>\n", PLOT_X, PLOT_TOP,
            x - PLOT_X, plot_h);
    fprintf(out, "<path class=\"measure\" d=\"M%.1f %dv%.1f\"/>\n", x, PLOT_TOP, plot_h);
}

static void write_heatmap(const page *pg, const run_result *run, const heatmap *hm)
{
    FILE *out = pg->out;
    uint32_t per = windows_per_column(run);
    uint32_t ncols = (run->nwindows + per - 1) / per;
    double cols_exact = (double)run->nwindows / per; /* a last, partial group is clipped */
    double row_h = hm->nrows * ROW_H <= ROWS_H_MAX ? ROW_H : (double)ROWS_H_MAX / hm->nrows;
    double plot_h = row_h * hm->nrows;
    time_axis ax = time_axis_of(run);
    double plot_w = (double)run->nwindows * run->window_us / (double)ax.span_us * PLOT_W;

    fprintf(out, "<h3>%s</h3>\n", hm->title);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %.0f\">\n"
            "<title>%s: rows %s, columns time</title>\n",
            SVG_W, PLOT_TOP + plot_h + AXIS_H, hm->what, hm->y_title);
    fprintf(out, "<svg class=\"cells\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" "
            "viewBox=\"0 0 %.6g %" PRIu32 "\" preserveAspectRatio=\"none\" "
            "shape-rendering=\"crispEdges\">\n",
            PLOT_X, PLOT_TOP, plot_w, plot_h, cols_exact, hm->nrows);
    for (int level = 0; level <= LEVELS; level++) write_level(pg, run, hm, level, ncols, per);
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
    write_time_ticks(out, &ax, PLOT_TOP + plot_h);
    fputs("</svg>\n", out);
    if (per > 1)
        fprintf(out, "<p class=\"note\">A column is %" PRIu32 " windows; a cell shows their mean "
                "per window.</p>\n", per);
}

static void write_server_heatmaps(const page *pg, const run_result *run)
{
    heatmap writes = { "Writes per server over time", "writes per window", "server",
                       run->window_writes, run->nservers, 0, 0, pg->max[STATS_SERVER_WRITES] };
    heatmap reads = { "Read RPCs per server over time", "read RPCs per window", "server",
                      run->window_reads, run->nservers, 0, 0, pg->max[STATS_SERVER_READS] };
    write_heatmap(pg, run, &writes);
    if (run->reads > 0) write_heatmap(pg, run, &reads);
}

static void write_key_heatmaps(const page *pg, const run_result *run)
{
    const keyspace_heatmap *ks = &run->keyspace;
    if (ks->nbuckets == 0) {
        fputs("<h3>Key space over time</h3>\n<p class=\"note\">No rows stored: no key "
              "space to show.</p>\n", pg->out);
        return;
    }
    size_t skip = shared_prefix((const char *const *)ks->bucket_start, ks->nbuckets, KEY_LABEL_COLS);
    heatmap writes = { "Writes per key range over time", "writes per window", "key (bucket start)",
                       ks->writes, ks->nbuckets, 1, skip, pg->max[STATS_KEY_WRITES] };
    heatmap reads = { "Read RPCs per key range over time", "read RPCs per window",
                      "key (bucket start)", ks->reads, ks->nbuckets, 1, skip, pg->max[STATS_KEY_READS] };
    write_heatmap(pg, run, &writes);
    if (run->reads > 0) write_heatmap(pg, run, &reads);
    fprintf(pg->out, "<p class=\"note\">%" PRIu32 " buckets of about equal row count at the end "
            "of the run; keys ascend upwards.", ks->nbuckets);
    if (!ks->exact)
        fprintf(pg->out, " Where a window had more operations than %" PRIu32 ", its split "
                "among buckets is estimated from a sample of %" PRIu32 " keys per window "
                "(the window's total is exact).", ks->sample, ks->sample);
    write_prefix_note(pg->out, ks->bucket_start[ks->nbuckets - 1], skip, "Key labels");
    fputs("</p>\n", pg->out);
}

/* ---- a panel: hottest regions ---- */

/* A region boundary, shortened, with the whole key as a tooltip when it is. */
static void write_key_cell(FILE *out, const char *key, size_t skip, const char *unbounded)
{
    char a[CELL];
    key_label(a, key, skip, unbounded, KEY_TABLE_COLS);
    fputs("<td class=\"key\"", out);
    if (key && strcmp(a, key) != 0 && key[0]) {
        fputs(" title=\"", out);
        put_text(out, key);
        fputc('"', out);
    }
    fputc('>', out);
    put_text(out, a);
    fputs("</td>", out);
}

static void write_top_regions(FILE *out, const run_result *run)
{
    char a[CELL], b[CELL];
    size_t idx[TOP_REGIONS];
    size_t k = stats_top_regions(run, TOP_REGIONS, idx);
    uint64_t read_rpcs = stats_region_read_rpcs(run);
    uint64_t region_writes = stats_region_writes(run);
    time_axis ax = time_axis_of(run);

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
    size_t skip = shared_prefix(bounds, 2 * k, KEY_TABLE_COLS);
    const char *with_prefix = NULL;
    for (size_t i = 0; i < 2 * k && !with_prefix; i++)
        if (bounds[i] && bounds[i][0]) with_prefix = bounds[i];
    fputs("<table class=\"regions\">\n<tr><th>start key</th><th>end key</th><th>server</th>"
          "<th>writes</th><th>reads</th><th>fate</th></tr>\n", out);
    for (size_t i = 0; i < k; i++) {
        const region_result *r = &run->history[idx[i]];
        fputs("<tr>", out);
        write_key_cell(out, r->start, skip, "-inf");
        write_key_cell(out, r->end, skip, "+inf");
        fprintf(out, "<td>rs%" PRIu32 "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>",
                r->server,
                fmt_percent(a, region_writes ? (double)r->writes / (double)region_writes : NAN),
                fmt_percent(b, read_rpcs ? (double)r->reads / (double)read_rpcs : NAN));
        if (r->split) fprintf(out, "split %s", fmt_time(a, &ax, r->closed_us));
        else fputs("live", out);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n<p class=\"note\">Shares of the run's writes and read RPCs; a region's "
          "counts start at zero when it opens.", out);
    write_prefix_note(out, with_prefix, skip, "Keys");
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
        fprintf(out, "<li>%s: ", fmt_time(t, ax, e->t_us));
        put_text(out, fmt_balancer_run(what, sizeof what, &run->balancer_log[e->balancer]));
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
        double x = time_x(ax, run->events[i].t_us);
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
    fprintf(out, "<li>%s: ", fmt_time(a, ax, e->t_us));
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

static void write_timeline(FILE *out, const run_result *run)
{
    size_t count[TIMELINE_KINDS] = { 0 };
    for (size_t i = 0; i < run->nevents; i++)
        if ((unsigned)run->events[i].kind < TIMELINE_KINDS) count[run->events[i].kind]++;
    time_axis ax = time_axis_of(run);
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
    write_time_ticks(out, &ax, PLOT_TOP + plot_h);
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
 * name-value-unit columns (reading down the left, then the right). */
static void write_scheme_figures(FILE *out, const sim_results *res, size_t r)
{
    const figure *shown[256];
    size_t n = 0;
    for (const figure *f = figure_first(FIGURE_SCHEME); f && n < sizeof shown / sizeof shown[0];
         f = figure_next(f))
        if (figure_shown(f, res, r)) shown[n++] = f;
    if (res->nsamples > 1)
        fprintf(out, "<h3>Figures: median and min&#8211;max of %" PRIu32 " samples (one "
                "value: the same in all)</h3>\n",
                res->nsamples);
    else
        fputs("<h3>Figures</h3>\n", out);
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
    fputs("</table>\n", out);
}

/* Run r's scheme figures (write_scheme_figures), then its server figures,
 * a row per figure and a column per server, folded in a details element.
 * Markup is lean (a compare page holds a dozen). */
static void write_all_figures(FILE *out, const sim_results *res, size_t r)
{
    const run_result *run = &res->runs[r];
    char v[CELL];
    write_scheme_figures(out, res, r);
    if (run->nservers == 0)
        return;
    fputs("<details><summary>Figures per server</summary>\n<div class=\"wide\">"
          "<table class=\"all srv\">\n<tr><th></th>", out);
    for (uint32_t s = 0; s < run->nservers; s++) {
        fputs("<th>", out);
        put_text(out, run->servers[s].name);
        fputs("</th>", out);
    }
    fputs("<th></th></tr>\n", out);
    for (const figure *f = figure_first(FIGURE_SERVER); f; f = figure_next(f)) {
        fprintf(out, "<tr><th>%s</th>", f->name);
        for (uint32_t s = 0; s < run->nservers; s++)
            fprintf(out, "<td>%s</td>", fmt_figure(v, f, figure_value(f, run, s)));
        fprintf(out, "<td>%s</td></tr>\n", f->unit);
    }
    fputs("</table></div></details>\n", out);
}

/* ---- the page ---- */

static void write_panel(const page *pg, const sim_results *res, size_t r)
{
    const run_result *run = &res->runs[r];
    fputs("<section class=\"run\">\n", pg->out);
    write_panel_head(pg->out, run);
    if (run->nwindows == 0 || run->window_us == 0)
        fputs("<p class=\"note\">No report windows: nothing to draw over time.</p>\n", pg->out);
    else {
        write_server_heatmaps(pg, run);
        write_key_heatmaps(pg, run);
    }
    write_top_regions(pg->out, run);
    write_timeline(pg->out, run);
    write_all_figures(pg->out, res, r);
    fputs("</section>\n", pg->out);
}

/* Heatmap cells on the page, for the tooltip budget. */
static size_t page_cells(const sim_results *res)
{
    size_t cells = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        const run_result *run = &res->runs[r];
        size_t cols = (run->nwindows + windows_per_column(run) - 1) / windows_per_column(run);
        cells += cols * ((size_t)run->nservers + run->keyspace.nbuckets) * (run->reads > 0 ? 2 : 1);
    }
    return cells;
}

/* The figures' glossary: every registry figure, its unit and meaning. */
static void write_glossary(FILE *out)
{
    fputs("<details><summary>Every figure</summary>\n<table class=\"all\">\n"
          "<tr><th>figure</th><th>unit</th><th>better</th><th>meaning</th></tr>\n", out);
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *f = figure_get(i);
        fprintf(out, "<tr><th><code>%s</code></th><td>%s</td><td>%s</td><td>", f->name,
                f->unit[0] ? f->unit : "-", figure_better_name(f->better));
        put_text(out, f->meaning);
        fputs("</td></tr>\n", out);
    }
    fputs("</table></details>\n", out);
}

static void write_footer(FILE *out, const sim_results *res)
{
    fprintf(out, "<footer>\n<h3>Reading the figures</h3>\n<p>max/mean: 1.00 = even, %" PRIu32
            " = everything on one server. CoV, Gini: 0 = even. Jain: 1 = even. hottest: the "
            "busiest server's share. window max/mean: the mean over report windows of each "
            "window's max/mean; worst window: the largest. Each panel's Figures table holds "
            "the figures of <code>regionsim figures</code> that are defined and not 0 for its "
            "run (unit - is a ratio); the glossary below lists every one.</p>\n",
            res->servers);
    write_glossary(out);
    fputs("</footer>\n", out);
}

void html_write(FILE *out, const sim_results *res)
{
    assert(out && res && (res->runs || res->nruns == 0));
    page pg = { out, { 0 }, page_cells(res) <= TITLE_CELLS_MAX };
    for (int which = STATS_SERVER_WRITES; which <= STATS_KEY_READS; which++)
        pg.max[which] = stats_shared_max(res, which);

    fputs("<!DOCTYPE html>\n"
          "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
          "<title>regionsim: ", out);
    put_text(out, res->scenario);
    fputs("</title>\n", out);
    write_css(out);
    fputs("</head>\n<body>\n", out);
    write_header(&pg, res);
    fputs("<main class=\"runs\">\n", out);
    for (size_t r = 0; r < res->nruns; r++) write_panel(&pg, res, r);
    fputs("</main>\n", out);
    write_footer(out, res);
    fputs("</body>\n</html>\n", out);
}
