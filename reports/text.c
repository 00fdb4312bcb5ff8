/* text.c -- the human report: per-server bars and the compare table.
 *
 * Design: aimed at an 80-100 column terminal and at a teacher's projector.
 * Bars use Unicode block characters with eighth-block partials, so a bar's
 * length resolves 1/8 of a column; the busiest server's bar is exactly
 * `width` columns and every server with a write shows at least 1/8.
 * Bars are padded with spaces to `width` columns (not bytes: a block is
 * three UTF-8 bytes) so the counts after them line up.
 *
 * The compare table sizes its columns to their contents in two passes:
 * format every cell to measure, then format again to print. That costs a
 * second round of statistics per run but needs no allocation; reports run
 * once per run. Long scheme names and example keys are cut with "...", and
 * a key is never cut inside a \xNN escape.
 *
 * Every derived figure comes from stats.h; undefined ones print as "-".
 * Each report stands alone (the CLI prints one or the other): both start
 * with the configuration header and end with a legend of the figures.
 */
#include "reports/report.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "reports/stats.h"

#define CELL 80           /* room for one formatted figure or cell */
#define KEY_COLS_TABLE 18 /* example key width in the compare table */
#define KEY_COLS_RUN 64   /* example key width in a run's section */
#define SCHEME_COLS 15    /* scheme name width in the compare table */

/* ---- formatting figures ---- */

/* x with `decimals` decimals, or "-" when undefined. */
static const char *fmt_fixed(char *buf, double x, int decimals)
{
    if (!isfinite(x)) return strcpy(buf, "-");
    snprintf(buf, CELL, "%.*f", decimals, x);
    return buf;
}

/* A share 0..1 as a percentage, or "-". */
static const char *fmt_percent(char *buf, double share)
{
    if (!isfinite(share)) return strcpy(buf, "-");
    snprintf(buf, CELL, "%.1f%%", share * 100.0);
    return buf;
}

/* v in the largest unit it reaches: exact as an integer ("4 MiB", "5 min"),
 * else with one decimal ("1.5 GiB"). sizes[] ascends; names[] ends with NULL. */
static const char *fmt_units(char *buf, uint64_t v, const char *const *names,
                             const uint64_t *sizes)
{
    size_t u = 0;
    while (names[u + 1] && v >= sizes[u + 1]) u++;
    if (v % sizes[u] == 0)
        snprintf(buf, CELL, "%" PRIu64 " %s", v / sizes[u], names[u]);
    else
        snprintf(buf, CELL, "%.1f %s", (double)v / (double)sizes[u], names[u]);
    return buf;
}

static const char *fmt_bytes(char *buf, uint64_t bytes)
{
    static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", NULL };
    static const uint64_t sizes[] = { 1, 1ull << 10, 1ull << 20, 1ull << 30, 1ull << 40 };
    return fmt_units(buf, bytes, names, sizes);
}

static const char *fmt_duration(char *buf, uint64_t us)
{
    static const char *const names[] = { "us", "ms", "s", "min", "h", NULL };
    static const uint64_t sizes[] = { 1, 1000, 1000000, 60000000, 3600000000ull };
    return fmt_units(buf, us, names, sizes);
}

/* A latency: "850 us", "12.3 ms", "1.25 s"; "-" for UINT64_MAX (none). */
static const char *fmt_latency(char *buf, uint64_t us)
{
    if (us == UINT64_MAX)
        return strcpy(buf, "-");
    /* Three significant digits; a value that rounds up to the next unit
     * (999,950 us) is shown in that unit ("1 s", not "1e+03 ms"). */
    if (us < 1000)
        snprintf(buf, CELL, "%" PRIu64 " us", us);
    else if (us < 999500)
        snprintf(buf, CELL, "%.3g ms", (double)us / 1e3);
    else if (us < 999500000)
        snprintf(buf, CELL, "%.3g s", (double)us / 1e6);
    else
        snprintf(buf, CELL, "%.0f s", (double)us / 1e6);
    return buf;
}

/* s cut to at most `cols` characters, ending in "..." when cut. For a key in
 * shell form, a cut never splits a \xNN escape (every '\' starts one). */
static const char *fmt_cut(char *buf, const char *s, size_t cols)
{
    assert(cols >= 4 && cols < CELL);
    if (!s) s = "-";
    size_t len = strlen(s);
    if (len <= cols) return strcpy(buf, s);

    size_t keep = 0, limit = cols - 3;
    while (keep < len) {
        size_t tok = (s[keep] == '\\' && s[keep + 1] == 'x') ? 4 : 1;
        if (keep + tok > limit) break;
        keep += tok;
    }
    memcpy(buf, s, keep);
    strcpy(buf + keep, "...");
    return buf;
}

/* ---- header and legend, shared by both reports ---- */

/* What the figures mean, for readers who do not know them by heart. */
static void write_legend(FILE *out, uint32_t nservers)
{
    fprintf(out, "max/mean: 1.0 = even; %" PRIu32 " = all writes on one server."
            "  CoV, Gini: 0 = even.  Jain: 1 = even.\n", nservers);
}

static void write_config(FILE *out, const sim_results *res)
{
    char a[CELL], b[CELL], c[CELL];
    fprintf(out, "scenario  %s (seed %" PRIu64 ")\n", res->scenario ? res->scenario : "-", res->seed);
    fprintf(out, "cluster   %" PRIu32 " servers; %s split at %s; ", res->servers,
            res->split_policy ? res->split_policy : "-", fmt_bytes(a, res->region_max_bytes));
    if (!res->balancer || strcmp(res->balancer, "none") == 0)
        fprintf(out, "no balancer");
    else
        fprintf(out, "balancer %s every %s", res->balancer, fmt_duration(b, res->balancer_period_us));
    fprintf(out, "; window %s\n", fmt_duration(c, res->window_us));
    fprintf(out, "workload  %s; %" PRIu64 " B per cell beyond the key\n",
            res->workload ? res->workload : "-", res->cell_overhead_bytes);
}

/* ---- one run: the histogram ---- */

/* A bar of count/max * width columns, in eighths, padded to width columns. */
static void write_bar(FILE *out, uint64_t count, uint64_t max, int width)
{
    assert(count <= max || max == 0);
    long eighths = max ? lround((double)count / (double)max * width * 8) : 0;
    if (count > 0 && eighths == 0) eighths = 1;
    int cols = 0;
    for (; eighths >= 8; eighths -= 8, cols++) fputs("\xE2\x96\x88", out); /* U+2588 */
    if (eighths > 0) {
        /* U+2589 (7/8) .. U+258F (1/8): the partial blocks count down. */
        fprintf(out, "\xE2\x96%c", (char)(0x90 - eighths));
        cols++;
    }
    fprintf(out, "%*s", width - cols, "");
}

static int digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) v /= 10, n++;
    return n;
}

/* One bar per server for what `count` picks (writes or read RPCs); the
 * write histogram also shows each server's regions, busy share and p99. */
static void write_histogram(FILE *out, const run_result *run, const imbalance *im, int width,
                            uint64_t (*count)(const server_result *), int details)
{
    int name_cols = 1;
    for (uint32_t s = 0; s < run->nservers; s++)
        if ((int)strlen(run->servers[s].name) > name_cols) name_cols = (int)strlen(run->servers[s].name);
    int count_cols = digits(im->max);

    for (uint32_t s = 0; s < run->nservers; s++) {
        const server_result *sv = &run->servers[s];
        uint64_t n = count(sv);
        char share[CELL], busy[CELL], p99[CELL];
        fprintf(out, "  %-*s ", name_cols, sv->name);
        write_bar(out, n, im->max, width);
        fprintf(out, " %*" PRIu64 " %6s", count_cols, n,
                fmt_percent(share, im->defined ? (double)n / (double)im->total : NAN));
        if (details)
            fprintf(out, "  %3" PRIu64 " region%s  busy %6s  p99 %s", sv->regions,
                    sv->regions == 1 ? " " : "s", fmt_percent(busy, sv->busy),
                    fmt_latency(p99, sv->latency.count ? sv->latency.p99_us : UINT64_MAX));
        fputc('\n', out);
    }
}

static uint64_t server_writes(const server_result *sv) { return sv->writes; }

/* ---- one run: the server x time heatmap ---- */

#define HEAT_COLS_MAX 60 /* columns of the heatmap; windows beyond are grouped */

/* Writes of server s in columns' window group g (windows g*per .. +per). */
static uint64_t heat_cell(const run_result *run, uint32_t s, uint32_t g, uint32_t per)
{
    uint64_t n = 0;
    for (uint32_t w = g * per; w < (g + 1) * per && w < run->nwindows; w++)
        n += run->window_writes[(size_t)w * run->nservers + s];
    return n;
}

/* Shade for a cell at fraction f of the hottest cell: blank for nothing,
 * then light, medium and dark shade and a full block (U+2591..U+2593,
 * U+2588), so a hotspot that moves from server to server shows as a dark
 * trail across the rows. */
static const char *heat_shade(uint64_t v, uint64_t max)
{
    static const char *const shades[] = { "\xE2\x96\x91", "\xE2\x96\x92", "\xE2\x96\x93",
                                          "\xE2\x96\x88" };
    if (v == 0 || max == 0)
        return " ";
    double f = (double)v / (double)max;
    return shades[f > 0.75 ? 3 : f > 0.5 ? 2 : f > 0.25 ? 1 : 0];
}

/* One row per server, one column per report window (or group of windows
 * when there are more than HEAT_COLS_MAX), shaded by the writes it took. */
static void write_heatmap(FILE *out, const run_result *run)
{
    if (!run->window_writes || run->nwindows < 2)
        return;
    uint32_t per = (run->nwindows + HEAT_COLS_MAX - 1) / HEAT_COLS_MAX;
    uint32_t cols = (run->nwindows + per - 1) / per;
    uint64_t max = 0;
    for (uint32_t s = 0; s < run->nservers; s++)
        for (uint32_t g = 0; g < cols; g++) {
            uint64_t v = heat_cell(run, s, g, per);
            if (v > max)
                max = v;
        }
    char span[CELL];
    fprintf(out, "  writes per server over time (a column = %s; darker = more):\n",
            fmt_duration(span, run->window_us * per));
    int name_cols = 1;
    for (uint32_t s = 0; s < run->nservers; s++)
        if ((int)strlen(run->servers[s].name) > name_cols) name_cols = (int)strlen(run->servers[s].name);
    for (uint32_t s = 0; s < run->nservers; s++) {
        fprintf(out, "  %-*s |", name_cols, run->servers[s].name);
        for (uint32_t g = 0; g < cols; g++)
            fputs(heat_shade(heat_cell(run, s, g, per), max), out);
        fputs("|\n", out);
    }
}
static uint64_t server_reads(const server_result *sv) { return sv->reads; }

void text_write_run(FILE *out, const sim_results *res, const run_result *run, int width)
{
    char a[CELL], b[CELL], c[CELL], d[CELL];
    assert(out && res && run && width >= 10);
    imbalance im = stats_server_writes(run);
    window_stats ws = stats_window_writes(run);

    write_config(out, res);
    fprintf(out, "\n%s: %s (pre-split %s)\n", run->scheme_name ? run->scheme_name : "-",
            run->scheme_expr ? run->scheme_expr : "-", run->presplit ? run->presplit : "none");
    fprintf(out, "  example key %s  (%" PRIu64 "-%" PRIu64 " bytes, mean %s)\n",
            fmt_cut(a, run->key_example, KEY_COLS_RUN), run->key_bytes_min, run->key_bytes_max,
            fmt_fixed(b, run->key_bytes_mean, 1));
    fprintf(out, "  %" PRIu64 " writes, %" PRIu64 " reads in %s: %s ops/s offered, %s done"
            " (%" PRIu64 " unfinished)\n",
            run->writes, run->reads, fmt_duration(c, run->duration_us),
            fmt_fixed(a, run->offered_per_s, 0), fmt_fixed(d, run->achieved_per_s, 0),
            run->unfinished);
    if (run->latency.count)
        fprintf(out, "  latency p50 %s  p99 %s  p99.9 %s  max %s\n",
                fmt_latency(a, run->latency.p50_us), fmt_latency(b, run->latency.p99_us),
                fmt_latency(c, run->latency.p999_us), fmt_latency(d, run->latency.max_us));

    write_histogram(out, run, &im, width, server_writes, 1);
    write_heatmap(out, run);

    fprintf(out, "  max/mean %s  CoV %s  Gini %s  Jain %s", fmt_fixed(a, im.max_mean, 2),
            fmt_fixed(b, im.cov, 2), fmt_fixed(c, im.gini, 2), fmt_fixed(d, im.jain, 2));
    if (im.defined)
        fprintf(out, "  hottest %s %s", run->servers[im.hottest].name, fmt_percent(a, im.hottest_share));
    fprintf(out, "\n  per-window max/mean: mean %s, worst %s over %" PRIu32 " windows\n",
            fmt_fixed(a, ws.mean_max_mean, 2), fmt_fixed(b, ws.worst_max_mean, 2), ws.windows);
    fprintf(out, "  regions %" PRIu64 " -> %" PRIu64 ", %" PRIu64 " splits, %" PRIu64 " moves\n",
            run->regions_start, run->regions, run->splits, run->moves);
    if (run->servers_added || run->decommissions || run->failures)
        fprintf(out, "  servers: %" PRIu64 " added, %" PRIu64 " decommissioned, %" PRIu64
                " failed; %" PRIu64 " regions reopened elsewhere\n", run->servers_added,
                run->decommissions, run->failures, run->reassigned);
    if (run->reads) {
        imbalance rim = stats_server_reads(run);
        uint64_t rpcs = 0;
        for (int k = 0; k < 4; k++)
            rpcs += run->read_rpcs_by_kind[k];
        fprintf(out, "  reads: %" PRIu64 " (get %" PRIu64 ", range %" PRIu64 ", latest %" PRIu64
                ", window %" PRIu64 "), %s RPCs each, %s rows read per record, "
                "%" PRIu64 " full scans\n", run->reads, run->reads_by_kind[0],
                run->reads_by_kind[1], run->reads_by_kind[2], run->reads_by_kind[3],
                fmt_fixed(a, (double)rpcs / (double)run->reads, 1),
                fmt_fixed(b, run->records_returned ? (double)run->rows_scanned /
                                                         (double)run->records_returned
                                                   : NAN, 2),
                run->full_scans);
        fputs("  read RPCs per server:\n", out);
        write_histogram(out, run, &rim, width, server_reads, 0);
        fprintf(out, "  read max/mean %s  read p99 %s\n", fmt_fixed(a, rim.max_mean, 2),
                fmt_latency(b, run->read_latency.count ? run->read_latency.p99_us : UINT64_MAX));
    }
    fputc('\n', out);
    write_legend(out, run->nservers);
}

/* ---- all runs: the compare tables ---- */

#define MAX_COLS 16

/* A table: its column titles, how many leading columns are text (left
 * aligned), and how one run fills a row. */
typedef struct table {
    int ncols, text_cols;
    const char *const *title;
    void (*format)(const run_result *run, char cell[MAX_COLS][CELL]);
} table;

/* Where the writes land. */
enum { COL_SCHEME, COL_KEY, COL_KEYB, COL_REGIONS, COL_SPLITS, COL_MOVES, COL_MAXMEAN,
       COL_WINDOW, COL_COV, COL_GINI, COL_JAIN, COL_HOT, NCOLS };

static const char *const balance_title[NCOLS] = {
    "scheme", "example key", "key B", "regions", "splits", "moves", "max/mean",
    "window", "CoV", "Gini", "Jain", "hottest",
};

static void format_balance_row(const run_result *run, char cell[MAX_COLS][CELL])
{
    imbalance im = stats_server_writes(run);
    window_stats ws = stats_window_writes(run);
    fmt_cut(cell[COL_SCHEME], run->scheme_name, SCHEME_COLS);
    fmt_cut(cell[COL_KEY], run->key_example, KEY_COLS_TABLE);
    fmt_fixed(cell[COL_KEYB], run->key_bytes_mean, 1);
    snprintf(cell[COL_REGIONS], CELL, "%" PRIu64, run->regions);
    snprintf(cell[COL_SPLITS], CELL, "%" PRIu64, run->splits);
    snprintf(cell[COL_MOVES], CELL, "%" PRIu64, run->moves);
    fmt_fixed(cell[COL_MAXMEAN], im.max_mean, 2);
    fmt_fixed(cell[COL_WINDOW], ws.mean_max_mean, 2);
    fmt_fixed(cell[COL_COV], im.cov, 2);
    fmt_fixed(cell[COL_GINI], im.gini, 2);
    fmt_fixed(cell[COL_JAIN], im.jain, 2);
    fmt_percent(cell[COL_HOT], im.hottest_share);
}

static const table balance_table = { NCOLS, 2, balance_title, format_balance_row };

/* What it costs: throughput, latency, the busiest server. */
enum { CCOL_SCHEME, CCOL_OFFERED, CCOL_ACHIEVED, CCOL_P50, CCOL_P99, CCOL_P999, CCOL_MAX,
       CCOL_BUSY, CCOL_QUEUE, CCOL_LEFT, NCCOLS };

static const char *const cost_title[NCCOLS] = {
    "scheme", "offered/s", "done/s", "p50", "p99", "p99.9", "max", "busiest", "queue",
    "unfinished",
};

static void format_cost_row(const run_result *run, char cell[MAX_COLS][CELL])
{
    double busiest = 0;
    uint64_t queue = 0;
    for (uint32_t s = 0; s < run->nservers; s++) {
        if (run->servers[s].busy > busiest)
            busiest = run->servers[s].busy;
        if (run->servers[s].longest_queue > queue)
            queue = run->servers[s].longest_queue;
    }
    const latency_summary *l = &run->latency;
    fmt_cut(cell[CCOL_SCHEME], run->scheme_name, SCHEME_COLS);
    fmt_fixed(cell[CCOL_OFFERED], run->offered_per_s, 0);
    fmt_fixed(cell[CCOL_ACHIEVED], run->achieved_per_s, 0);
    fmt_latency(cell[CCOL_P50], l->count ? l->p50_us : UINT64_MAX);
    fmt_latency(cell[CCOL_P99], l->count ? l->p99_us : UINT64_MAX);
    fmt_latency(cell[CCOL_P999], l->count ? l->p999_us : UINT64_MAX);
    fmt_latency(cell[CCOL_MAX], l->count ? l->max_us : UINT64_MAX);
    fmt_percent(cell[CCOL_BUSY], busiest);
    snprintf(cell[CCOL_QUEUE], CELL, "%" PRIu64, queue);
    snprintf(cell[CCOL_LEFT], CELL, "%" PRIu64, run->unfinished);
}

static const table cost_table = { NCCOLS, 1, cost_title, format_cost_row };

/* What reads cost: RPCs per read by kind, rows read per record returned. */
enum { RCOL_SCHEME, RCOL_READS, RCOL_RPCS, RCOL_GET, RCOL_RANGE, RCOL_LATEST, RCOL_WINDOW,
       RCOL_ROWS, RCOL_FULL, RCOL_MAXMEAN, RCOL_P99, NRCOLS };

static const char *const read_title[NRCOLS] = {
    "scheme", "reads", "RPCs/read", "get", "range", "latest", "window", "rows/rec",
    "full scans", "max/mean", "read p99",
};

/* RPCs per read of one kind, or "-" when none of that kind ran. */
static const char *fmt_per_read(char *buf, uint64_t rpcs, uint64_t reads)
{
    return fmt_fixed(buf, reads ? (double)rpcs / (double)reads : NAN, 1);
}

static void format_read_row(const run_result *run, char cell[MAX_COLS][CELL])
{
    uint64_t rpcs = 0;
    for (int k = 0; k < 4; k++)
        rpcs += run->read_rpcs_by_kind[k];
    fmt_cut(cell[RCOL_SCHEME], run->scheme_name, SCHEME_COLS);
    snprintf(cell[RCOL_READS], CELL, "%" PRIu64, run->reads);
    fmt_per_read(cell[RCOL_RPCS], rpcs, run->reads);
    for (int k = 0; k < 4; k++)
        fmt_per_read(cell[RCOL_GET + k], run->read_rpcs_by_kind[k], run->reads_by_kind[k]);
    fmt_fixed(cell[RCOL_ROWS], run->records_returned ? (double)run->rows_scanned /
                                                           (double)run->records_returned
                                                     : NAN, 2);
    snprintf(cell[RCOL_FULL], CELL, "%" PRIu64, run->full_scans);
    fmt_fixed(cell[RCOL_MAXMEAN], stats_server_reads(run).max_mean, 2);
    fmt_latency(cell[RCOL_P99], run->read_latency.count ? run->read_latency.p99_us : UINT64_MAX);
}

static const table read_table = { NRCOLS, 1, read_title, format_read_row };

/* Text columns align left, figures right; two spaces after the text. */
static void write_row(FILE *out, const table *t, char cell[MAX_COLS][CELL], const int *cols)
{
    for (int c = 0; c < t->ncols; c++) {
        const char *sep = c == 0 ? "" : c <= t->text_cols ? "  " : " ";
        if (c < t->text_cols)
            fprintf(out, "%s%-*s", sep, cols[c], cell[c]);
        else
            fprintf(out, "%s%*s", sep, cols[c], cell[c]);
    }
    fputc('\n', out);
}

/* Sizes the columns to their widest cell, then prints title and rows. */
static void write_table(FILE *out, const sim_results *res, const table *t)
{
    char cell[MAX_COLS][CELL];
    int cols[MAX_COLS];
    assert(t->ncols <= MAX_COLS);
    for (int c = 0; c < t->ncols; c++) cols[c] = (int)strlen(t->title[c]);
    for (size_t r = 0; r < res->nruns; r++) {
        t->format(&res->runs[r], cell);
        for (int c = 0; c < t->ncols; c++)
            if ((int)strlen(cell[c]) > cols[c]) cols[c] = (int)strlen(cell[c]);
    }
    for (int c = 0; c < t->ncols; c++) strcpy(cell[c], t->title[c]);
    write_row(out, t, cell, cols);
    for (size_t r = 0; r < res->nruns; r++) {
        t->format(&res->runs[r], cell);
        write_row(out, t, cell, cols);
    }
}

void text_write_compare(FILE *out, const sim_results *res)
{
    assert(out && res && (res->runs || res->nruns == 0));
    write_config(out, res);
    fputs("\nwhere the writes land\n", out);
    write_table(out, res, &balance_table);
    fputs("\nwhat it costs (latency: arrival to reply, incl. queueing and regions offline)\n", out);
    write_table(out, res, &cost_table);
    int reads = 0;
    for (size_t r = 0; r < res->nruns; r++)
        reads |= res->runs[r].reads > 0;
    if (reads) {
        fputs("\nwhat reads cost (RPCs per read, by kind; rows read per record returned)\n", out);
        write_table(out, res, &read_table);
    }
    fputc('\n', out);
    write_legend(out, res->servers);
    fputs("window: mean over time windows of max/mean.  hottest: busiest server's share of writes.\n"
          "key B: mean row key bytes.  done/s: operations completed per second.  busiest: the\n"
          "most loaded server's work / run time (over 100%: more than it can do).  queue: most\n"
          "RPCs in one server at once.  unfinished: still queued when the run ended.\n", out);
    int any_reads = 0;
    for (size_t r = 0; r < res->nruns; r++)
        any_reads |= res->runs[r].reads > 0;
    if (any_reads)
        fputs("RPCs/read: one RPC per region a read's planned ranges touch.  rows/rec: rows read\n"
              "per record the read returns (1.00 = no waste).  full scans: reads the key order\n"
              "could not serve.  max/mean: of read RPCs over the servers.\n", out);
}
