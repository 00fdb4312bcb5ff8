/* html_impl.h -- what the HTML report's files share (reports/html.c: the
 * page and its text; html_heatmap.c: heatmaps, colour levels, the time
 * axis; html_panel.c: a panel's tables and timeline); not an interface of
 * the reports. reports/html.c's top comment gives the design.
 */
#ifndef REGIONSIM_HTML_IMPL_H
#define REGIONSIM_HTML_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reports/figures.h"
#include "engine/result.h"

#define LEVELS 16            /* colour steps of a scale */
#define SCALE_STEP_SERVERS 1.4142135623730951 /* sqrt(2): two levels make a doubling */
#define SCALE_STEP_KEYS 2.0  /* key buckets: coarser (their counts are often estimates) */
#define SCALE_EVEN_MIN 6     /* the even share's level at the lowest */
#define SCALE_EVEN_MAX 10    /* and at the highest: an even page is not all dark */
#define HEAT_COLS_MAX 120    /* heatmap columns; windows beyond are grouped */
#define KEY_LABEL_COLS 16    /* bucket start keys on the y axis */
#define TITLE_KEY_COLS 40    /* a bucket's start key in a cell's tooltip */
#define TIP_COLS 10          /* heatmap columns one tooltip lists */
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
#define ZERO_COLOUR "#ececec" /* a cell with nothing: no level gets it */

/* A shared colour scale: its maximum (the hottest cell of any run), the
 * mean cell (the even share: stats_shared_mean) and its geometry, from
 * html_scale_of. Level k covers values v with
 *   round(log(v / mean) / log(step)) == k - even,
 * so the even share sits in the MIDDLE of level `even` (never on a step)
 * and each level is `step` times the one below; the maximum is in level
 * LEVELS unless even would pass SCALE_EVEN_MAX; 0 is level 0 and every
 * other value at least level 1. */
typedef struct colour_scale {
    uint64_t max;
    double mean;
    double step;
    int even;
} colour_scale;

/* Everything the panels share: the stream and the four shared scales
 * (indexed by STATS_SERVER_WRITES ...), with their maxima. */
typedef struct page {
    FILE *out;
    uint64_t max[4];
    colour_scale scale[4];
} page;

/* A run's time axis: [0, span) in `unit`s, ticks every `step` units. */
typedef struct time_axis {
    uint64_t span_us, unit_us;
    const char *unit;
    double step;
} time_axis;

/* ---- text (html.c) ---- */

/* The first len bytes of s (or up to its end) as XML text or attribute
 * value, escaped and sanitised; NULL prints "-". */
void html_put_text_n(FILE *out, const char *s, size_t len);

/* All of s, as html_put_text_n. */
void html_put_text(FILE *out, const char *s);

/* The prefix, in characters, that every non-empty key of keys[0..n)
 * shares and that labels leave out when a key is too long for `cols`
 * (whole tokens, at least PREFIX_MIN characters, never a whole key); 0
 * when nothing is worth leaving out. */
size_t html_shared_prefix(const char *const *keys, size_t n, size_t cols);

/* A key in at most `cols` characters into buf (CELL bytes): "" or NULL as
 * `unbounded`, else without its first `skip` characters (shown as "...")
 * and cut to fit. Returns buf. */
const char *html_key_label(char *buf, const char *key, size_t skip, const char *unbounded,
                           size_t cols);

/* Key i of the sorted keys[0..n) in at most `cols` characters into buf
 * (CELL bytes), so that neighbours' labels differ: as html_key_label when
 * that keeps the token where key i first differs from its neighbours, else
 * its first token (or "..." for the shared prefix `skip`), "..." and the
 * key from that token on, cut to fit. Returns buf. */
const char *html_bucket_label(char *buf, const char *const *keys, size_t n, size_t i,
                              size_t skip, size_t cols);

/* The note that labels leave out a shared prefix (the first skip
 * characters of key), if skip is not 0. */
void html_write_prefix_note(FILE *out, const char *key, size_t skip, const char *what);

/* A scale tick into buf (CELL bytes): integers as such, small fractions
 * with 3 digits. Returns buf. */
const char *html_fmt_tick(char *buf, double v);

/* ---- heatmaps, colours, time (html_heatmap.c) ---- */

/* The colour of level 1..LEVELS as "#rrggbb" into buf (CELL bytes). */
const char *html_level_colour(char *buf, int level);

/* The scale up to max centred on mean (colour_scale): `step` a level with
 * the maximum in level LEVELS, but the even share in level SCALE_EVEN_MAX
 * at the highest (the maximum then in a lower level: a page whose hottest
 * cell is near the even share stays mid-scale), or, when the maximum in
 * level LEVELS would put the even share below level SCALE_EVEN_MIN, the
 * even share there and a larger step. */
colour_scale html_scale_of(uint64_t max, double mean, double step);

/* The level of value v on scale s: 0 for nothing (or an empty scale),
 * else 1..LEVELS. */
int html_level_of(double v, const colour_scale *s);

/* The least value of level k (2 <= k <= LEVELS) on s: the step below it. */
double html_level_floor(const colour_scale *s, int k);

/* The run's time span (its windows, or its duration if longer), in the
 * unit that keeps the numbers small, with ticks every 1, 2 or 5 x 10^k. */
time_axis html_time_axis_of(const run_result *run);

/* The x coordinate of time t on the plot (clamped to the span). */
double html_time_x(const time_axis *ax, uint64_t t_us);

/* "12.5 min": a time since the start in the axis unit, into buf (CELL). */
const char *html_fmt_time(char *buf, const time_axis *ax, uint64_t t_us);

/* Tick marks and labels under a plot whose bottom edge is at y, and the
 * axis title. */
void html_write_time_ticks(FILE *out, const time_axis *ax, double y);

/* Windows per heatmap column, so that a run has at most HEAT_COLS_MAX. */
uint32_t html_windows_per_column(const run_result *run);

/* Heatmap rows a run's server heatmap draws: its servers, or past
 * SERVER_ROWS_MAX (reports/servers.h) the bins of servers. */
uint32_t html_server_rows(const run_result *run);

/* The server x time heatmaps of writes and (when the run read) read RPCs,
 * on the page's shared scales; past SERVER_ROWS_MAX servers a row is a bin
 * of servers coloured by its busiest server in each window. */
void html_write_server_heatmaps(const page *pg, const run_result *run);

/* The key space x time heatmaps of writes and (when the run read) reads,
 * with a note on the buckets, or a note that there are none. */
void html_write_key_heatmaps(const page *pg, const run_result *run);

/* ---- a panel's tables and timeline (html_panel.c) ---- */

/* Name, expression, totals and the steadiness verdict, with the imbalance
 * table beside them. */
void html_write_panel_head(FILE *out, const run_result *run);

/* Past SERVERS_LISTED servers: the SERVERS_BUSIEST busiest by writes (their
 * writes, share, regions, busy and p99) and one row for the rest (how many,
 * their total and share, min, median and max). Nothing for fewer. */
void html_write_busiest_servers(FILE *out, const run_result *run);

/* The hottest regions: boundaries, server, shares of the writes and
 * reads, and when each split. */
void html_write_top_regions(FILE *out, const run_result *run);

/* The timeline: a lane per event kind, the counts, the server events
 * listed and the balancer runs. */
void html_write_timeline(FILE *out, const run_result *run);

/* Throughput, latency (every operation's and, when the run read, the
 * reads') and, when it read, the read cost by kind: the registry's
 * figures, each cell a <td data-figure="NAME">, formatted as the text
 * report does. */
void html_write_costs(FILE *out, const run_result *run);

/* Run r's scheme figures, then its server figures folded: a column per
 * server, or past SERVERS_LISTED servers the busiest by writes and the
 * rest's min, median and max. */
void html_write_all_figures(FILE *out, const sim_results *res, size_t r);

/* ---- the region map and its player (html_regionmap.c) ---- */

/* The CSS the region map and player use: server colours, bands, cursor,
 * legend, controls, bars. */
void html_write_regionmap_css(FILE *out);

/* The region map of run (key range x time, a band per region and server,
 * coloured by server) with its legend, the player's hidden controls and
 * the per-server bars; or a note that there is nothing to draw. */
void html_write_region_map(const page *pg, const run_result *run);

/* The inline script that drives every player of the page (once, at the
 * end of the body; the page reads without it). */
void html_write_player_script(FILE *out);

/* A registry figure's table cell, <td data-figure="NAME">: its value as the
 * text report's tables print it (fmt_latency for latencies, "1.23 ms";
 * fmt_percent for shares; else the figure's decimals; "-" undefined). */
void html_write_figure_cell(FILE *out, const run_result *run, const char *name);

/* Value v of figure f into buf (CELL bytes) as html_write_figure_cell
 * prints it; returns buf. */
const char *html_format_figure(char *buf, const figure *f, double v);

/* ---- the summary (html_summary.c) ---- */

/* The summary table (id="summary": a row per scheme, its figures and a
 * verdict); nothing when there is no run. */
void html_write_summary(FILE *out, const sim_results *res);

/* The regime table (id="regime", html_regime.c): a row per scheme, its
 * warm-up and its measured span; nothing when there is no run. */
void html_write_regime(FILE *out, const sim_results *res);

/* Run r's verdict in plain words into buf (cap bytes), from its figures
 * and html_summary.c's thresholds: "even", "one server takes the writes
 * (max/mean 5.33 of 8)", ...; with samples, on the medians across them,
 * followed by how many seeds earn the same words ("; so in 3 of 5 seeds
 * (max/mean 1.33-5.33)"). */
void html_verdict(char *buf, size_t cap, const sim_results *res, size_t r);

#endif
