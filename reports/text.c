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
 * With samples (--samples N) the header names their seeds, every table of
 * one run stays the first sample's, and a last section shows each figure
 * as "median [min, max]" across the samples.
 */
#include "reports/report.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/figures.h"
#include "reports/stats.h"
#include "reports/format.h"
#include "reports/samples.h"
#include "reports/servers.h"
#include "reports/text_impl.h"
#include "reports/textmap.h"
#include "reports/verdict.h"

#define KEY_COLS_TABLE 18 /* example key width in the compare table */
#define KEY_COLS_RUN 64   /* example key width in a run's section */
#define SCHEME_COLS 15    /* scheme name width in the compare table */

/* ---- header and legend, shared by both reports ---- */

/* What the figures mean, for readers who do not know them by heart. */
static void write_legend(FILE *out, uint32_t nservers)
{
    fprintf(out, "max/mean: 1.0 = even; %" PRIu32 " = all writes on one server."
            "  CoV, Gini: 0 = even.  Jain: 1 = even.\n", nservers);
}

/* With samples (nsamples > 1), which seeds ran and which one the tables of
 * one run show; nothing for a single run. */
static void write_samples_config(FILE *out, const sim_results *res)
{
    if (res->nsamples <= 1)
        return;
    fprintf(out, "samples   %" PRIu32 " (seeds %" PRIu64 "..%" PRIu64 "); tables of one run "
            "show seed %" PRIu64 "\n", res->nsamples, res->seed, text_last_seed(res), res->seed);
}

static void write_config(FILE *out, const sim_results *res)
{
    char a[CELL], b[CELL], c[CELL];
    fprintf(out, "scenario  %s (seed %" PRIu64 ")\n", res->scenario ? res->scenario : "-", res->seed);
    write_samples_config(out, res);
    fprintf(out, "cluster   %" PRIu32 " servers; %s split at %s; ", res->servers,
            res->split_policy ? res->split_policy : "-", fmt_bytes(a, res->region_max_bytes));
    if (!res->balancer || strcmp(res->balancer, "none") == 0)
        fprintf(out, "no balancer");
    else
        fprintf(out, "balancer %s every %s, first at %s", res->balancer,
                fmt_duration(b, res->balancer_period_us), fmt_duration(a, res->balancer_first_us));
    fprintf(out, "; window %s\n", fmt_duration(c, res->window_us));
    fprintf(out, "workload  %s; %" PRIu64 " B per cell beyond the key\n",
            res->workload ? res->workload : "-", res->cell_overhead_bytes);
    char store[256];
    stats_store_note(res, store, sizeof store);
    if (*store)
        fprintf(out, "store     %s\n", store);
    char engine[256];
    stats_engine_note(res, engine, sizeof engine);
    if (*engine)
        fprintf(out, "engine    %s\n", engine);
    char measured[256];
    stats_measured_note(res, measured, sizeof measured);
    fprintf(out, "measured  %s\n", measured);
}

/* The runs that did not reach a steady state, a line each. */
static void write_unsteady(FILE *out, const run_result *run, int with_name)
{
    steady_state st = stats_steady(run);
    if (st.steady)
        return;
    char note[256];
    stats_steady_note(run, &st, note, sizeof note);
    if (with_name)
        fprintf(out, "  %s: %s\n", run->scheme_name ? run->scheme_name : "-", note);
    else
        fprintf(out, "  %s (figures still depend on the run's length)\n", note);
}

/* The overloaded runs (reports/samples.h: on the medians across seeds, as
 * the HTML summary's verdict), a line each under a heading, before any
 * table: their figures measured a queue that kept growing. */
static void write_overloaded(FILE *out, const sim_results *res)
{
    char note[256];
    int any = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        if (!samples_overloaded(note, sizeof note, res, r))
            continue;
        if (!any)
            fprintf(out, "\noverloaded (a server over %.0f%% busy, or under %.0f%% of the offered "
                    "operations done):\n", 100 * VERDICT_OVERLOAD_BUSY,
                    100 * VERDICT_OVERLOAD_DONE);
        any = 1;
        fprintf(out, "  %s: %s\n", res->runs[r].scheme_name ? res->runs[r].scheme_name : "-",
                note);
    }
}

/* Why a latency of the run is longer than the run, when one is. */
static void write_drained(FILE *out, const run_result *run, int with_name)
{
    char note[512];
    if (!verdict_drain_note(note, sizeof note, run))
        return;
    /* two lines, at the colon between the claim and why (verdict.h) */
    char *why = strstr(note, ": ");
    if (why)
        *why = '\0';
    if (with_name)
        fprintf(out, "  %s: ", run->scheme_name ? run->scheme_name : "-");
    else
        fputs("  ", out);
    fprintf(out, "%s%s\n", note, why ? ":" : "");
    if (why)
        fprintf(out, "    %s\n", why + 2);
}

/* Balancer runs listed in the run view (the rest counted). */
#define BALANCER_RUNS_LISTED 12

/* Each balancer run briefly: when, whether it ran and why, what moved. */
static void write_balancer_runs(FILE *out, const run_result *run)
{
    if (run->balancer_runs == 0)
        return;
    size_t ran = 0;
    for (size_t i = 0; i < run->balancer_runs; i++)
        ran += run->balancer_log[i].ran != 0;
    fprintf(out, "  balancer: %" PRIu64 " runs, %zu computed a plan:\n", run->balancer_runs, ran);
    size_t listed = 0;
    for (size_t i = 0; i < run->nevents && listed < BALANCER_RUNS_LISTED; i++) {
        const timeline_event *e = &run->events[i];
        if (e->kind != TIMELINE_BALANCER || e->balancer >= run->balancer_runs)
            continue;
        char at[CELL], what[4 * CELL];
        fprintf(out, "    at %s %s", fmt_clock(at, e->t_us),
                fmt_balancer_run(what, sizeof what, &run->balancer_log[e->balancer]));
        fputc('\n', out);
        listed++;
    }
    if (run->balancer_runs > listed)
        fprintf(out, "    and %zu more (all of them in the JSON and CSV)\n",
                (size_t)(run->balancer_runs - listed));
}

/* What the split policy saw: the range of sizes and thresholds. */
static void write_split_thresholds(FILE *out, const run_result *run)
{
    uint64_t lo = UINT64_MAX, hi = 0, size_lo = UINT64_MAX, size_hi = 0, busy = 0, n = 0;
    for (size_t i = 0; i < run->nevents; i++) {
        const timeline_event *e = &run->events[i];
        if (e->kind != TIMELINE_SPLIT)
            continue;
        n++;
        busy += e->split.busy != 0;
        lo = e->split.threshold_bytes < lo ? e->split.threshold_bytes : lo;
        hi = e->split.threshold_bytes > hi ? e->split.threshold_bytes : hi;
        size_lo = e->split.size_bytes < size_lo ? e->split.size_bytes : size_lo;
        size_hi = e->split.size_bytes > size_hi ? e->split.size_bytes : size_hi;
    }
    if (n == 0)
        return;
    char a[CELL], b[CELL], c[CELL], d[CELL];
    fprintf(out, "  split policy: thresholds %s..%s, regions split at %s..%s", fmt_bytes(a, lo),
            fmt_bytes(b, hi), fmt_bytes(c, size_lo), fmt_bytes(d, size_hi));
    if (busy)
        fprintf(out, "; %" PRIu64 " by the busy rule (blocked writes)", busy);
    fputc('\n', out);
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

/* ---- many servers: the busiest, the rest in aggregate (reports/servers.h) ---- */

/* The line for the servers not listed: how many, their counts' min,
 * median and max and their share of the total. */
static void write_rest_of_servers(FILE *out, const run_result *run, const imbalance *im,
                                  server_count_fn count, const uint32_t *shown, size_t nshown)
{
    servers_rest rest = servers_rest_of(run, count, shown, nshown);
    char share[CELL];
    fprintf(out, "  ... the other %zu servers: %" PRIu64 " min, %" PRIu64 " median, %" PRIu64
            " max; %s of the total (every server: JSON and CSV reports)\n", rest.n, rest.min,
            rest.median, rest.max,
            fmt_percent(share, im->defined ? (double)rest.sum / (double)im->total : NAN));
}

/* One bar per server for what `count` picks (writes or read RPCs); the
 * write histogram also shows each server's regions (the table's; "+
 * hbase:meta" on the server hosting meta), busy share and p99.
 * Past SERVERS_LISTED servers, the busiest SERVERS_BUSIEST and a line for
 * the rest. */
static void write_histogram(FILE *out, const run_result *run, const imbalance *im, int width,
                            server_count_fn count, int details)
{
    uint32_t shown[SERVERS_LISTED];
    size_t nshown = servers_listed(run, count, shown);
    int name_cols = 1;
    for (size_t i = 0; i < nshown; i++)
        if ((int)strlen(run->servers[shown[i]].name) > name_cols)
            name_cols = (int)strlen(run->servers[shown[i]].name);
    int count_cols = digits(im->max);
    if (nshown < run->nservers)
        fprintf(out, "  the %zu busiest of %" PRIu32 " servers:\n", nshown, run->nservers);
    for (size_t i = 0; i < nshown; i++) {
        const server_result *sv = &run->servers[shown[i]];
        uint64_t n = count(sv);
        char share[CELL], busy[CELL], p99[CELL];
        fprintf(out, "  %-*s ", name_cols, sv->name);
        write_bar(out, n, im->max, width);
        fprintf(out, " %*" PRIu64 " %6s", count_cols, n,
                fmt_percent(share, im->defined ? (double)n / (double)im->total : NAN));
        if (details)
            fprintf(out, "  %3" PRIu64 " region%s  busy %6s  p99 %s%s", sv->regions,
                    sv->regions == 1 ? " " : "s", fmt_percent(busy, sv->busy),
                    fmt_latency(p99, sv->latency.count ? sv->latency.p99_us : UINT64_MAX),
                    sv->system_regions ? "  + hbase:meta" : "");
        fputc('\n', out);
    }
    if (nshown < run->nservers)
        write_rest_of_servers(out, run, im, count, shown, nshown);
}

/* A run's servers x windows counts as heatmap rows (server_bins_of: a
 * row per server, or per bin of servers holding the busiest one's count). */
typedef struct server_rows {
    text_heatmap map;
    uint32_t per_row;  /* servers a row */
    server_bins bins;
} server_rows;

static server_rows server_rows_of(const run_result *run, int reads)
{
    server_rows r;
    r.bins = server_bins_run(run, reads);
    r.per_row = r.bins.per_row;
    r.map = (text_heatmap){ r.bins.cells, run->nwindows, r.bins.nrows, run->window_us,
                            r.bins.labels, 0 };
    return r;
}

static void server_rows_free(server_rows *r) { server_bins_free(&r->bins); }

static int label_cols(const text_heatmap *h)
{
    int cols = 1;
    for (uint32_t i = 0; i < h->nitems; i++)
        if ((int)strlen(h->labels[i]) > cols) cols = (int)strlen(h->labels[i]);
    return cols;
}


/* ---- one run: heatmaps, hot regions, timeline ---- */

#define HEAT_COLS_MAX 60   /* heatmap columns in a run's view; windows beyond are grouped */
#define KEY_LABEL_COLS 32  /* key bucket labels, at most (an 8-byte binary key's shell form) */
#define REGION_KEY_COLS 24 /* keys in the hottest regions table */
#define HOT_REGIONS 5      /* rows of the hottest regions table */

/* One row per server (or group of servers: server_rows_of), one column
 * per report window (or group of windows when there are more than
 * HEAT_COLS_MAX), shaded by its count. */
static void write_server_heatmap(FILE *out, const run_result *run, int reads, int color)
{
    if (!stats_has_window_counts(run, reads) || run->nwindows < 2) return;
    server_rows rows = server_rows_of(run, reads);
    const text_heatmap *h = &rows.map;
    uint32_t per = textmap_per_column(run->nwindows, HEAT_COLS_MAX);
    char span[CELL], group[80] = "";
    if (rows.per_row > 1)
        snprintf(group, sizeof group, "; a row = %" PRIu32 " servers, shaded by the busiest",
                 rows.per_row);
    /* The glyphs grow denser with the count; with colour they also go
     * from light yellow to red (textmap.c), which "darker" would not say. */
    fprintf(out, "  %s per server over time (a column = %s%s; %s = more):\n",
            reads ? "read RPCs" : "writes", fmt_duration(span, run->window_us * per), group,
            color ? "denser and redder" : "denser");
    int cols = label_cols(h);
    textmap_write(out, h, "  ", cols, HEAT_COLS_MAX, 0, color);
    textmap_write_measure_mark(out, "  ", cols, HEAT_COLS_MAX, run->nwindows, run->window_us,
                               run->measure_from_us);
    if (color) textmap_write_scale(out, "  ", textmap_max(h, per), "", color);
    server_rows_free(&rows);
}

/* Key Visualizer's view: one row per key bucket (the top row holds the
 * highest keys), one column per window. */
static void write_key_heatmap(FILE *out, const run_result *run, int reads, int color)
{
    const keyspace_heatmap *k = &run->keyspace;
    if (k->nbuckets == 0 || run->nwindows < 2) return;
    const char **labels = malloc(k->nbuckets * sizeof *labels);
    if (!labels) report_out_of_memory();
    for (uint32_t b = 0; b < k->nbuckets; b++)
        labels[b] = b == 0 && !k->bucket_start[b][0] ? "(first key)" : k->bucket_start[b];
    text_heatmap h = { reads ? k->reads : k->writes, run->nwindows, k->nbuckets,
                       run->window_us, labels, 1 };
    uint32_t per = textmap_per_column(run->nwindows, HEAT_COLS_MAX);
    char span[CELL];
    fprintf(out, "  %s over the key space (a row = a bucket of about 1/%" PRIu32 " of the rows,"
            " by its first key;\n  a column = %s%s):\n", reads ? "read RPCs" : "writes",
            k->nbuckets, fmt_duration(span, run->window_us * per),
            k->exact ? "" : "; split by a sample of each window's keys");
    int label_cols = 1;
    for (uint32_t b = 0; b < k->nbuckets; b++)
        if ((int)strlen(labels[b]) > label_cols) label_cols = (int)strlen(labels[b]);
    if (label_cols > KEY_LABEL_COLS) label_cols = KEY_LABEL_COLS;
    textmap_write(out, &h, "  ", label_cols, HEAT_COLS_MAX, 0, color);
    textmap_write_measure_mark(out, "  ", label_cols, HEAT_COLS_MAX, run->nwindows,
                               run->window_us, run->measure_from_us);
    if (color) textmap_write_scale(out, "  ", textmap_max(&h, per), "", color);
    free(labels);
}

/* The hottest regions of the run: their keys, server, shares, and life. */
static void write_hot_regions(FILE *out, const run_result *run)
{
    size_t top[HOT_REGIONS];
    size_t n = stats_top_regions(run, HOT_REGIONS, top);
    if (n == 0) return;
    uint64_t read_rpcs = stats_region_read_rpcs(run);
    uint64_t region_writes = stats_region_writes(run);
    fprintf(out, "  hottest regions (of %zu the run had):\n", run->nhistory);
    fprintf(out, "    %-*s %-*s %-6s %7s %7s  %s\n", REGION_KEY_COLS, "start", REGION_KEY_COLS,
            "end", "server", "writes", "reads", "life");
    for (size_t i = 0; i < n; i++) {
        const region_result *r = &run->history[top[i]];
        char start[CELL], end[CELL], server[CELL], w[CELL], rd[CELL], from[CELL], to[CELL];
        snprintf(server, CELL, "rs%" PRIu32, r->server);
        fprintf(out, "    %-*s %-*s %-6s %7s %7s  %s-%s%s\n", REGION_KEY_COLS,
                r->start[0] ? fmt_cut(start, r->start, REGION_KEY_COLS) : "-inf",
                REGION_KEY_COLS, r->end[0] ? fmt_cut(end, r->end, REGION_KEY_COLS) : "+inf",
                server, fmt_percent(w, region_writes ? (double)r->writes / (double)region_writes : NAN),
                fmt_percent(rd, read_rpcs ? (double)r->reads / (double)read_rpcs : NAN),
                fmt_clock(from, r->opened_us), fmt_clock(to, r->closed_us),
                r->split ? " split" : "");
    }
}

static void write_timeline(FILE *out, const run_result *run)
{
    if (run->nwindows < 2) return;
    char span[CELL];
    fprintf(out, "  timeline (a column = %s; events per column, + for 10 or more):\n",
            fmt_duration(span, run->window_us * textmap_per_column(run->nwindows, HEAT_COLS_MAX)));
    textmap_write_timeline(out, run, "  ", 10, HEAT_COLS_MAX);
}


/* Figure `name` of run r across res's samples as "median [min-max]"
 * (the median alone when they print alike, the run's value with one
 * sample), in the style of fmt_fixed's decimals, or a percent. */
static const char *fmt_median(char *buf, const sim_results *res, size_t r, const char *name,
                              int percent, int decimals)
{
    const figure *f = figure_find(name);
    assert(f && f->scope == FIGURE_SCHEME);
    figure_spread sp = samples_spread(f, res, r);
    char mid[CELL], lo[CELL], hi[CELL];
    if (percent) {
        fmt_percent(mid, sp.median);
        fmt_percent(lo, sp.min);
        fmt_percent(hi, sp.max);
    } else {
        fmt_fixed(mid, sp.median, decimals);
        fmt_fixed(lo, sp.min, decimals);
        fmt_fixed(hi, sp.max, decimals);
    }
    if (!sp.defined || !strcmp(lo, hi) || snprintf(buf, CELL, "%s [%s-%s]", mid, lo, hi) >= CELL)
        strcpy(buf, mid);
    return buf;
}

/* With samples, the run's headline figures as medians across them with
 * their ranges (the lines above them are the first seed's run). */
static void write_run_medians(FILE *out, const sim_results *res, const run_result *run)
{
    if (res->nsamples <= 1)
        return;
    size_t r = (size_t)(run - res->runs);
    char a[CELL], b[CELL], c[CELL], d[CELL], e[CELL];
    fprintf(out, "  across %" PRIu32 " seeds (%" PRIu64 "..%" PRIu64 "), median [min-max]:\n",
            res->nsamples, res->seed, text_last_seed(res));
    fprintf(out, "    max/mean %s  CoV %s  hottest %s\n    Gini %s  Jain %s\n",
            fmt_median(a, res, r, "write_max_mean", 0, 2), fmt_median(b, res, r, "write_cov", 0, 2),
            fmt_median(e, res, r, "hottest_share", 1, 0), fmt_median(c, res, r, "write_gini", 0, 2),
            fmt_median(d, res, r, "write_jain", 0, 2));
    fprintf(out, "    per-window max/mean: mean %s, worst %s\n",
            fmt_median(a, res, r, "write_window_max_mean", 0, 2),
            fmt_median(b, res, r, "write_worst_window_max_mean", 0, 2));
    fprintf(out, "    regions %s, %s splits, %s moves; done/s %s\n",
            fmt_median(a, res, r, "regions", 0, 0), fmt_median(b, res, r, "splits", 0, 0),
            fmt_median(c, res, r, "moves", 0, 0), fmt_median(d, res, r, "achieved_ops_per_s", 0, 0));
}

void text_write_run(FILE *out, const sim_results *res, const run_result *run, int width,
                    int color)
{
    char a[CELL], b[CELL], c[CELL], d[CELL];
    assert(out && res && run && width >= 10);
    imbalance im = stats_server_writes(run);
    window_stats ws = stats_window_writes(run);

    write_config(out, res);
    fprintf(out, "\n%s: %s (pre-split %s)\n", run->scheme_name ? run->scheme_name : "-",
            run->scheme_expr ? run->scheme_expr : "-", run->presplit ? run->presplit : "none");
    char over[256];
    if (verdict_overload_note(over, sizeof over, run))
        fprintf(out, "  %s\n", over);
    fprintf(out, "  example key %s  (%" PRIu64 "-%" PRIu64 " bytes, mean %s)\n",
            fmt_cut(a, run->key_example, KEY_COLS_RUN), run->key_bytes_min, run->key_bytes_max,
            fmt_fixed(b, run->key_bytes_mean, 1));
    if (res->nsamples > 1)
        fprintf(out, "  seed %" PRIu64 "'s run (its figures across every seed after it):\n",
                res->seed);
    if (run->measure_from_us)
        fprintf(out, "  %" PRIu64 " writes, %" PRIu64 " reads in the %s measured (of %s): %s "
                "ops/s offered, %s done (%" PRIu64 " unfinished)\n", run->writes, run->reads,
                fmt_duration(c, run->duration_us - run->measure_from_us),
                fmt_duration(b, run->duration_us), fmt_fixed(a, run->offered_per_s, 0),
                fmt_fixed(d, run->achieved_per_s, 0), run->unfinished);
    else
        fprintf(out, "  %" PRIu64 " writes, %" PRIu64 " reads in %s: %s ops/s offered, %s done"
                " (%" PRIu64 " unfinished)\n",
                run->writes, run->reads, fmt_duration(c, run->duration_us),
                fmt_fixed(a, run->offered_per_s, 0), fmt_fixed(d, run->achieved_per_s, 0),
                run->unfinished);
    if (run->left_out)
        fprintf(out, "  %" PRIu64 " operations of the trace came after the duration: left out\n",
                run->left_out);
    char regime[512];
    stats_warmup_note(run, regime, sizeof regime);
    fprintf(out, "  %s\n", regime);
    stats_regime_note(run, regime, sizeof regime);
    fprintf(out, "  %s\n", regime);
    if (run->latency.count)
        fprintf(out, "  latency p50 %s  p99 %s  p99.9 %s  max %s\n",
                fmt_latency(a, run->latency.p50_us), fmt_latency(b, run->latency.p99_us),
                fmt_latency(c, run->latency.p999_us), fmt_latency(d, run->latency.max_us));
    write_drained(out, run, 0);

    write_histogram(out, run, &im, width, servers_count_writes, 1);
    write_server_heatmap(out, run, 0, color);
    write_key_heatmap(out, run, 0, color);
    textmap_write_regions(out, run, "  ", KEY_LABEL_COLS, HEAT_COLS_MAX, color);

    fprintf(out, "  max/mean %s  CoV %s  Gini %s  Jain %s", fmt_fixed(a, im.max_mean, 2),
            fmt_fixed(b, im.cov, 2), fmt_fixed(c, im.gini, 2), fmt_fixed(d, im.jain, 2));
    if (im.defined)
        fprintf(out, "  hottest %s %s", run->servers[im.hottest].name, fmt_percent(a, im.hottest_share));
    fprintf(out, "\n  per-window max/mean: mean %s, worst %s over %" PRIu32 " windows\n",
            fmt_fixed(a, ws.mean_max_mean, 2), fmt_fixed(b, ws.worst_max_mean, 2), ws.windows);
    fprintf(out, "  regions %" PRIu64 " -> %" PRIu64 ", %" PRIu64 " splits, %" PRIu64 " moves\n",
            run->regions_start, run->regions, run->splits, run->moves);
    write_run_medians(out, res, run);
    write_unsteady(out, run, 0);
    write_split_thresholds(out, run);
    write_balancer_runs(out, run);
    if (run->servers_added || run->decommissions || run->failures)
        fprintf(out, "  servers: %" PRIu64 " added, %" PRIu64 " decommissioned, %" PRIu64
                " failed; %" PRIu64 " regions reopened elsewhere\n", run->servers_added,
                run->decommissions, run->failures, run->reassigned);
    if (run->reads) {
        imbalance rim = stats_server_reads(run);
        fprintf(out, "  reads: %" PRIu64 " (", run->reads);
        for (int k = 0; k < QUERY_KINDS; k++)
            fprintf(out, "%s%s %" PRIu64, k ? ", " : "", query_kind_name((query_kind)k),
                    run->reads_by_kind[k]);
        fprintf(out, "), %s RPCs each, %s rows read per record, %" PRIu64 " full scans\n",
                fmt_fixed(a, (double)stats_read_rpcs(run) / (double)run->reads, 1),
                fmt_fixed(b, run->records_returned ? (double)run->rows_scanned /
                                                         (double)run->records_returned
                                                   : NAN, 2),
                run->full_scans);
        fputs("  read RPCs per server:\n", out);
        write_histogram(out, run, &rim, width, servers_count_reads, 0);
        fprintf(out, "  read max/mean %s  read p99 %s\n", fmt_fixed(a, rim.max_mean, 2),
                fmt_latency(b, run->read_latency.count ? run->read_latency.p99_us : UINT64_MAX));
        write_server_heatmap(out, run, 1, color);
        write_key_heatmap(out, run, 1, color);
    }
    write_hot_regions(out, run);
    write_timeline(out, run);
    text_write_run_figures(out, run);
    text_write_samples_section(out, res, run, "  ");
    if (run->nservers) {
        uint32_t shown[SERVERS_LISTED];
        size_t nshown = servers_listed(run, servers_count_writes, shown);
        const figure_matrix m = { FIGURE_SERVER, res, run, 0, 0, shown, nshown };
        if (nshown < run->nservers)
            fprintf(out, "  figures per server, the %zu with the most writes of %" PRIu32
                    " (every server: JSON and CSV reports):\n", nshown, run->nservers);
        else
            fputs("  figures per server:\n", out);
        text_write_figure_matrix(out, &m);
    }
    fputc('\n', out);
    write_legend(out, run->nservers);
}

/* ---- all runs: the compare tables ---- */

#define MAX_COLS 16

/* A table: its column titles, how many leading columns are text (left
 * aligned), and how run r of res fills a row. With samples a scheme's row
 * holds each figure's median across them, and a range line after it the
 * min-max of those that differ (table_row's range: the same cells as
 * ranges, empty where the samples agree). */
typedef struct table_row {
    const sim_results *res;
    size_t r;
    int range; /* 0: the medians (a run's values with one sample); 1: the ranges */
} table_row;

typedef struct table {
    int ncols, text_cols;
    const char *const *title;
    void (*format)(const table_row *row, char cell[MAX_COLS][CELL]);
} table;

/* How a figure prints in a table cell. */
typedef enum cell_style { CELL_FIXED, CELL_PERCENT, CELL_LATENCY, CELL_DURATION,
                          CELL_BYTES } cell_style;

static const char *fmt_style(char *buf, double v, cell_style st, int decimals)
{
    if (st == CELL_PERCENT)
        return fmt_percent(buf, v);
    if ((st == CELL_DURATION || st == CELL_BYTES) && !isfinite(v))
        return strcpy(buf, "-");
    if (st == CELL_DURATION)
        return fmt_duration(buf, (uint64_t)v);
    if (st == CELL_BYTES)
        return fmt_bytes(buf, (uint64_t)v);
    if (st == CELL_LATENCY)
        return fmt_latency(buf, isfinite(v) ? (uint64_t)v : UINT64_MAX);
    return fmt_fixed(buf, v, decimals);
}

/* Figure `name` of row's run: the median across the samples (the run's
 * value with one), or on the range row "min-max" when they print apart
 * (else empty). */
static void put(char *cell, const table_row *row, const char *name, cell_style st,
                int decimals)
{
    const figure *f = figure_find(name);
    assert(f && f->scope == FIGURE_SCHEME);
    figure_spread sp = samples_spread(f, row->res, row->r);
    if (!row->range) {
        fmt_style(cell, sp.median, st, decimals);
        return;
    }
    char lo[CELL], hi[CELL];
    fmt_style(lo, sp.min, st, decimals);
    fmt_style(hi, sp.max, st, decimals);
    cell[0] = '\0';
    if (sp.defined && strcmp(lo, hi) && snprintf(cell, CELL, "%s-%s", lo, hi) >= CELL)
        cell[0] = '\0';
}

/* The text columns of a row: the scheme's, or on the range row "range". */
static void put_scheme(char cell[MAX_COLS][CELL], const table_row *row, int text_cols)
{
    const run_result *run = &row->res->runs[row->r];
    for (int c = 0; c < text_cols; c++)
        cell[c][0] = '\0';
    if (!row->range)
        fmt_cut(cell[0], run->scheme_name, SCHEME_COLS);
}

/* Where the writes land. */
enum { COL_SCHEME, COL_KEY, COL_KEYB, COL_REGIONS, COL_SPLITS, COL_MOVES, COL_MAXMEAN,
       COL_WINDOW, COL_COV, COL_GINI, COL_JAIN, COL_HOT, NCOLS };

static const char *const balance_title[NCOLS] = {
    "scheme", "example key", "key B", "regions", "splits", "moves", "max/mean",
    "window", "CoV", "Gini", "Jain", "hottest",
};

static void format_balance_row(const table_row *row, char cell[MAX_COLS][CELL])
{
    const run_result *run = &row->res->runs[row->r];
    put_scheme(cell, row, 2);
    if (!row->range)
        fmt_cut(cell[COL_KEY], run->key_example, KEY_COLS_TABLE);
    put(cell[COL_KEYB], row, "key_bytes_mean", CELL_FIXED, 1);
    put(cell[COL_REGIONS], row, "regions", CELL_FIXED, 0);
    put(cell[COL_SPLITS], row, "splits", CELL_FIXED, 0);
    put(cell[COL_MOVES], row, "moves", CELL_FIXED, 0);
    put(cell[COL_MAXMEAN], row, "write_max_mean", CELL_FIXED, 2);
    put(cell[COL_WINDOW], row, "write_window_max_mean", CELL_FIXED, 2);
    put(cell[COL_COV], row, "write_cov", CELL_FIXED, 2);
    put(cell[COL_GINI], row, "write_gini", CELL_FIXED, 2);
    put(cell[COL_JAIN], row, "write_jain", CELL_FIXED, 2);
    put(cell[COL_HOT], row, "hottest_share", CELL_PERCENT, 0);
}

static const table balance_table = { NCOLS, 2, balance_title, format_balance_row };

/* What it costs: throughput, latency, the busiest server. */
enum { CCOL_SCHEME, CCOL_OFFERED, CCOL_ACHIEVED, CCOL_P50, CCOL_P99, CCOL_P999, CCOL_MAX,
       CCOL_BUSY, CCOL_QUEUE, CCOL_LEFT, NCCOLS };

static const char *const cost_title[NCCOLS] = {
    "scheme", "offered/s", "done/s", "p50", "p99", "p99.9", "max", "busiest", "queue",
    "unfinished",
};

static void format_cost_row(const table_row *row, char cell[MAX_COLS][CELL])
{
    put_scheme(cell, row, 1);
    put(cell[CCOL_OFFERED], row, "offered_ops_per_s", CELL_FIXED, 0);
    put(cell[CCOL_ACHIEVED], row, "achieved_ops_per_s", CELL_FIXED, 0);
    put(cell[CCOL_P50], row, "p50_latency_us", CELL_LATENCY, 0);
    put(cell[CCOL_P99], row, "p99_latency_us", CELL_LATENCY, 0);
    put(cell[CCOL_P999], row, "p999_latency_us", CELL_LATENCY, 0);
    put(cell[CCOL_MAX], row, "max_latency_us", CELL_LATENCY, 0);
    put(cell[CCOL_BUSY], row, "busiest_busy", CELL_PERCENT, 0);
    put(cell[CCOL_QUEUE], row, "longest_queue", CELL_FIXED, 0);
    put(cell[CCOL_LEFT], row, "unfinished", CELL_FIXED, 0);
}

static const table cost_table = { NCCOLS, 1, cost_title, format_cost_row };

/* The regime measured: the warm-up (the growing table) apart, then the
 * span the figures count (stats_regime_note in a row). */
enum { GCOL_SCHEME, GCOL_WARMUP, GCOL_WREGIONS, GCOL_WMAXMEAN, GCOL_FROM, GCOL_TO,
       GCOL_RPS, GCOL_BYTES, NGCOLS };

static const char *const regime_title[NGCOLS] = {
    "scheme", "warm-up", "regions", "max/mean", "from", "to", "regions/server",
    "table bytes",
};

/* "a -> b" of two figures of row's run (medians), or on the range row
 * "lo-hi -> lo-hi" when either's samples print apart (else empty). */
static void put_pair(char *cell, const table_row *row, const char *from, const char *to,
                     cell_style st, int decimals)
{
    char a[CELL], b[CELL];
    put(a, row, from, st, decimals);
    put(b, row, to, st, decimals);
    cell[0] = '\0';
    if (row->range && !a[0] && !b[0])
        return;
    if (row->range) {
        if (!a[0])
            put(a, &(table_row){ row->res, row->r, 0 }, from, st, decimals);
        if (!b[0])
            put(b, &(table_row){ row->res, row->r, 0 }, to, st, decimals);
    }
    if (snprintf(cell, CELL, "%s -> %s", a, b) >= CELL)
        cell[0] = '\0';
}

static void format_regime_row(const table_row *row, char cell[MAX_COLS][CELL])
{
    put_scheme(cell, row, 1);
    figure_spread w = samples_spread(figure_find("warmup_us"), row->res, row->r);
    if (!row->range && !w.defined)
        strcpy(cell[GCOL_WARMUP], "never"); /* in no seed did the table leave it */
    else if (!row->range && w.median == 0)
        strcpy(cell[GCOL_WARMUP], "none"); /* pre-split: a region a server from the start */
    else
        put(cell[GCOL_WARMUP], row, "warmup_us", CELL_DURATION, 0);
    put(cell[GCOL_WREGIONS], row, "warmup_regions", CELL_FIXED, 0);
    put(cell[GCOL_WMAXMEAN], row, "warmup_write_max_mean", CELL_FIXED, 2);
    put(cell[GCOL_FROM], row, "measure_from_us", CELL_DURATION, 0);
    if (!row->range && samples_spread(figure_find("measure_from_us"), row->res, row->r).median == 0)
        strcpy(cell[GCOL_FROM], "0"); /* from the table's creation */
    put(cell[GCOL_TO], row, "duration_us", CELL_DURATION, 0);
    put_pair(cell[GCOL_RPS], row, "regions_per_server_start", "regions_per_server_end",
             CELL_FIXED, 2);
    put_pair(cell[GCOL_BYTES], row, "table_bytes_start", "bytes", CELL_BYTES, 0);
}

static const table regime_table = { NGCOLS, 1, regime_title, format_regime_row };

/* What reads cost: RPCs per read by kind, rows read per record returned.
 * One column per read kind (query_kind), titled with its name. */
enum { RCOL_SCHEME, RCOL_READS, RCOL_RPCS, RCOL_KIND, RCOL_ROWS = RCOL_KIND + QUERY_KINDS,
       RCOL_FULL, RCOL_MAXMEAN, RCOL_P99, NRCOLS };
_Static_assert(NRCOLS <= MAX_COLS, "the read table fits MAX_COLS");

/* The read table's titles into title[NRCOLS]. */
static void read_titles(const char *title[NRCOLS])
{
    title[RCOL_SCHEME] = "scheme";
    title[RCOL_READS] = "reads";
    title[RCOL_RPCS] = "RPCs/read";
    for (int k = 0; k < QUERY_KINDS; k++)
        title[RCOL_KIND + k] = query_kind_name((query_kind)k);
    title[RCOL_ROWS] = "rows/rec";
    title[RCOL_FULL] = "full scans";
    title[RCOL_MAXMEAN] = "max/mean";
    title[RCOL_P99] = "read p99";
}

static void format_read_row(const table_row *row, char cell[MAX_COLS][CELL])
{
    put_scheme(cell, row, 1);
    put(cell[RCOL_READS], row, "reads", CELL_FIXED, 0);
    put(cell[RCOL_RPCS], row, "rpcs_per_read", CELL_FIXED, 1);
    for (int k = 0; k < QUERY_KINDS; k++) {
        char name[64];
        snprintf(name, sizeof name, "rpcs_per_read_%s", query_kind_name((query_kind)k));
        put(cell[RCOL_KIND + k], row, name, CELL_FIXED, 1);
    }
    put(cell[RCOL_ROWS], row, "rows_scanned_per_row", CELL_FIXED, 2);
    put(cell[RCOL_FULL], row, "full_scans", CELL_FIXED, 0);
    put(cell[RCOL_MAXMEAN], row, "read_max_mean", CELL_FIXED, 2);
    put(cell[RCOL_P99], row, "read_p99_latency_us", CELL_LATENCY, 0);
}



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

#define RANGE_LINE_COLS 100 /* a range line wraps before this column */

/* A scheme's range line: "  range: TITLE MIN-MAX, ..." for each figure
 * column whose samples print apart, wrapped at RANGE_LINE_COLS; nothing
 * when none does. The table keeps its width: a range would double a
 * column's. */
static void write_range_line(FILE *out, const table *t, char cell[MAX_COLS][CELL])
{
    int col = 0;
    for (int c = t->text_cols; c < t->ncols; c++) {
        if (!cell[c][0])
            continue;
        char item[2 * CELL];
        int n = snprintf(item, sizeof item, "%s %s", t->title[c], cell[c]);
        if (col == 0) {
            fputs("  range:", out);
            col = 8;
        } else if (col + 2 + n >= RANGE_LINE_COLS) {
            fputs(",\n        ", out);
            col = 8;
        } else {
            fputc(',', out);
            col++;
        }
        fprintf(out, " %s", item);
        col += 1 + n;
    }
    if (col)
        fputc('\n', out);
}

/* Sizes the columns to their widest cell, then prints title and rows
 * (with samples, each scheme's medians, then its range line). */
static void write_table(FILE *out, const sim_results *res, const table *t)
{
    char cell[MAX_COLS][CELL];
    int cols[MAX_COLS];
    assert(t->ncols <= MAX_COLS);
    for (int c = 0; c < t->ncols; c++) cols[c] = (int)strlen(t->title[c]);
    for (size_t r = 0; r < res->nruns; r++) {
        const table_row row = { res, r, 0 };
        t->format(&row, cell);
        for (int c = 0; c < t->ncols; c++)
            if ((int)strlen(cell[c]) > cols[c]) cols[c] = (int)strlen(cell[c]);
    }
    for (int c = 0; c < t->ncols; c++) strcpy(cell[c], t->title[c]);
    write_row(out, t, cell, cols);
    for (size_t r = 0; r < res->nruns; r++) {
        const table_row row = { res, r, 0 };
        t->format(&row, cell);
        write_row(out, t, cell, cols);
        if (res->nsamples > 1) {
            const table_row range = { res, r, 1 };
            t->format(&range, cell);
            write_range_line(out, t, cell);
        }
    }
}

/* With samples, what a compare table's cells are; nothing for one. */
static void write_table_note(FILE *out, const sim_results *res)
{
    if (res->nsamples > 1)
        fprintf(out, "(each figure the median of %" PRIu32 " seeds, %" PRIu64 "..%" PRIu64
                "; range: min-max of those the seed moves)\n", res->nsamples, res->seed,
                text_last_seed(res));
}

/* One panel per run: its server x time heatmap of writes, all on one
 * scale, as many to a row as fit 80 columns, titled with the run's scheme
 * and max/mean. */
static void write_panels(FILE *out, const sim_results *res, int color)
{
    if (res->nruns == 0 || res->runs[0].nwindows < 2) return;
    text_heatmap *maps = calloc(res->nruns, sizeof *maps);
    char (*subtitles)[CELL] = calloc(res->nruns, sizeof *subtitles);
    const char **titles = calloc(res->nruns, sizeof *titles);
    const char **subtitle_ptrs = calloc(res->nruns, sizeof *subtitle_ptrs);
    server_rows *rows = calloc(res->nruns, sizeof *rows);
    if (!maps || !subtitles || !titles || !subtitle_ptrs || !rows) report_out_of_memory();
    uint32_t grouped = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        const run_result *run = &res->runs[r];
        char mm[CELL];
        rows[r] = server_rows_of(run, 0);
        maps[r] = rows[r].map;
        if (rows[r].per_row > grouped) grouped = rows[r].per_row;
        titles[r] = run->scheme_name ? run->scheme_name : "-";
        snprintf(subtitles[r], CELL, "max/mean %s", fmt_fixed(mm, stats_server_writes(run).max_mean, 2));
        subtitle_ptrs[r] = subtitles[r];
    }
    char whose[64] = "";
    if (res->nsamples > 1)
        snprintf(whose, sizeof whose, "seed %" PRIu64 "'s run; ", res->seed);
    if (grouped > 1)
        fprintf(out, "\nwrites per server over time, one panel per scheme (%srows: groups of up "
                "to %" PRIu32 " servers, shaded by the busiest; columns: time)\n", whose, grouped);
    else
        fprintf(out, "\nwrites per server over time, one panel per scheme (%srows: servers; "
                "columns: time)\n", whose);
    textmap_write_panels(out, maps, titles, subtitle_ptrs, res->nruns, 80, 30, color);
    for (size_t r = 0; r < res->nruns; r++) server_rows_free(&rows[r]);
    free(rows);
    free(subtitle_ptrs);
    free(titles);
    free(subtitles);
    free(maps);
}

void text_write_compare(FILE *out, const sim_results *res, int color)
{
    assert(out && res && (res->runs || res->nruns == 0));
    write_config(out, res);
    write_overloaded(out, res);
    fputs("\nwhere the writes land\n", out);
    write_table_note(out, res);
    write_table(out, res, &balance_table);
    int unsteady = 0;
    for (size_t r = 0; r < res->nruns; r++)
        unsteady |= !stats_steady(&res->runs[r]).steady;
    if (unsteady) {
        char whose[64] = "";
        if (res->nsamples > 1)
            snprintf(whose, sizeof whose, "seed %" PRIu64 "'s run; ", res->seed);
        fprintf(out, "not steady (%sjudged on the measured run's last quarter; see "
                "--measure-from):\n", whose);
        for (size_t r = 0; r < res->nruns; r++)
            write_unsteady(out, &res->runs[r], 1);
    }
    fputs("\nthe regime measured: the warm-up (the growing table: when it ended, its regions then,\n"
          "its write max/mean), then the span every figure counts (from = the table's age)\n", out);
    write_table(out, res, &regime_table);
    write_panels(out, res, color);
    fputs("\nwhat it costs (latency: arrival to reply, incl. queueing and regions offline)\n", out);
    write_table(out, res, &cost_table);
    for (size_t r = 0; r < res->nruns; r++)
        write_drained(out, &res->runs[r], 1);
    int reads = 0;
    for (size_t r = 0; r < res->nruns; r++)
        reads |= res->runs[r].reads > 0;
    if (reads) {
        fputs("\nwhat reads cost (RPCs per read, by kind; rows read per record returned)\n", out);
        const char *titles[NRCOLS];
        read_titles(titles);
        const table read_table = { NRCOLS, 1, titles, format_read_row };
        write_table(out, res, &read_table);
    }
    if (res->nruns) {
        const figure_matrix m = { FIGURE_SCHEME, res, NULL, 1, 0, NULL, 0 };
        if (res->nsamples > 1)
            fprintf(out, "\nevery figure of seed %" PRIu64 "'s run, a column per scheme "
                    "(regionsim figures says what each means)\n", res->seed);
        else
            fputs("\nevery figure, a column per scheme (regionsim figures says what each "
                  "means)\n", out);
        text_write_figure_matrix(out, &m);
    }
    text_write_samples_section(out, res, NULL, "\n");
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
