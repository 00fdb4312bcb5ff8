/* test_html.c -- the HTML report: escaping, cell counts, shared scales,
 * determinism, size, and well-formed XML (through xmllint).
 *
 * Usage: test_html [--xmllint]: two meson tests. html runs every check
 * but xmllint's; html_xmllint (--xmllint) has xmllint read the pages
 * (the default one, 2,000 servers binned, three samples, an even run, a
 * single run). Without xmllint
 * (Debian package libxml2-utils; `sh setup.sh --tests`) html_xmllint
 * exits 77, which meson counts as skipped, or fails under CI
 * (tests/support.h, test_cannot_run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support.h"
#include "reports/figures.h"
#include "reports/format.h"
#include "reports/html_impl.h"
#include "reports/report.h"
#include "reports/samples.h"

#define NASTY_NAME "x<&\"'\xFF\x01y"
#define NASTY_ESCAPED "x&lt;&amp;&quot;&#39;\xEF\xBF\xBD\xEF\xBF\xBDy"

/* Three runs on 3 servers over 4 one-minute windows:
 *   0 "monotonic": writes only; 5 key buckets, exact; 4 regions, events.
 *   1 NASTY_NAME:  writes and reads; 5 key buckets, sampled.
 *   2 "idle":      nothing written, no key buckets, no history.
 * The hottest server cell of any run is 777 (run 1), the hottest key
 * cell 600 (run 0). */
enum { SERVERS = 3, WINDOWS = 4, BUCKETS = 5 };

typedef struct fixture {
    server_result sv[3][SERVERS];
    uint64_t win_writes[2][WINDOWS * SERVERS], win_reads[WINDOWS * SERVERS];
    uint64_t idle_windows[WINDOWS * SERVERS];
    uint64_t key_writes[2][WINDOWS * BUCKETS], key_reads[WINDOWS * BUCKETS];
    char *buckets[BUCKETS];
    region_result history[2][4];
    timeline_event events[5];
    run_result runs[3];
    sim_results res;
} fixture;

static void fixture_init(fixture *f)
{
    static char *const buckets[BUCKETS] = { "", "row-b", "row-d", "row-f", "\\x00\\xFF<&" };
    memset(f, 0, sizeof *f);
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < SERVERS; s++)
            snprintf(f->sv[r][s].name, sizeof f->sv[r][s].name, "rs%d", s);
    /* Run 0: a hot spot moving from rs0 to rs2. Run 1: spread, 777 at most. */
    const uint64_t w0[WINDOWS * SERVERS] = { 400, 0, 0, 300, 100, 0, 0, 500, 0, 0, 0, 450 };
    const uint64_t w1[WINDOWS * SERVERS] = { 100, 120, 110, 90, 777, 95, 100, 100, 100, 1, 2, 3 };
    const uint64_t r1[WINDOWS * SERVERS] = { 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    memcpy(f->win_writes[0], w0, sizeof w0);
    memcpy(f->win_writes[1], w1, sizeof w1);
    memcpy(f->win_reads, r1, sizeof r1);
    for (int i = 0; i < WINDOWS * BUCKETS; i++) {
        f->key_writes[0][i] = i % BUCKETS == i / BUCKETS ? 600 : 0; /* a diagonal */
        f->key_writes[1][i] = 50 + (uint64_t)i;
        f->key_reads[i] = (uint64_t)i;
    }
    memcpy(f->buckets, buckets, sizeof buckets);
    for (int s = 0; s < SERVERS; s++) {
        f->sv[0][s].writes = w0[s] + w0[SERVERS + s] + w0[2 * SERVERS + s] + w0[3 * SERVERS + s];
        f->sv[1][s].writes = w1[s] + w1[SERVERS + s] + w1[2 * SERVERS + s] + w1[3 * SERVERS + s];
        f->sv[1][s].reads = r1[s] + r1[SERVERS + s] + r1[2 * SERVERS + s] + r1[3 * SERVERS + s];
    }

    /* Run 0's regions: the hottest is "row-d".."row-f" (split), then
     * "row-f".."" (live), then "".."row-b"; "row-b".."row-d" took nothing. */
    f->history[0][0] = (region_result){ .start = "", .end = "row-b", .id = 0, .server = 0,
        .split = 1, .closed_us = 90000000, .writes = 100 };
    f->history[0][1] = (region_result){ .start = "row-d", .end = "row-f", .id = 1, .server = 1,
        .split = 1, .closed_us = 150000000, .writes = 1050 };
    f->history[0][2] = (region_result){ .start = "row-b", .end = "row-d", .id = 2, .server = 0,
        .closed_us = 240000000 };
    f->history[0][3] = (region_result){ .start = "row-f", .end = "", .id = 3, .server = 2,
        .closed_us = 240000000, .writes = 600 };
    f->history[1][0] = (region_result){ .start = "", .end = "", .id = 0, .server = 1,
        .closed_us = 240000000, .writes = 1598, .reads = 126 };

    f->events[0] = (timeline_event){ .t_us = 90000000, .kind = TIMELINE_SPLIT, .key = "row-b" };
    f->events[1] = (timeline_event){ .t_us = 100000000, .kind = TIMELINE_SERVERS_ADDED, .from = 3,
        .to = 4 };
    f->events[2] = (timeline_event){ .t_us = 120000000, .kind = TIMELINE_MOVE, .to = 3, .key = "" };
    f->events[3] = (timeline_event){ .t_us = 150000000, .kind = TIMELINE_SPLIT, .key = "row-f" };
    f->events[4] = (timeline_event){ .t_us = 200000000, .kind = TIMELINE_FAILURE, .from = 1 };

    f->runs[0] = (run_result){
        .scheme_name = "monotonic", .scheme_expr = "ts", .key_example = "\\x00\\x01",
        .presplit = "none", .nservers = SERVERS, .servers = f->sv[0], .writes = 1750,
        .duration_us = 240000000, .regions_start = 1, .regions = 3, .splits = 2, .moves = 1,
        .window_us = 60000000, .nwindows = WINDOWS, .window_writes = f->win_writes[0],
        .keyspace = { .nbuckets = BUCKETS, .bucket_start = f->buckets, .writes = f->key_writes[0],
                      .sample = 1000, .exact = 1 },
        .nhistory = 4, .history = f->history[0], .nevents = 5, .events = f->events };
    f->runs[1] = (run_result){
        .scheme_name = NASTY_NAME, .scheme_expr = "salt(3) <ts> & \"q\"", .key_example = "",
        .presplit = "3 buckets", .nservers = SERVERS, .servers = f->sv[1], .writes = 1598,
        .reads = 126, .duration_us = 240000000, .regions_start = 3, .regions = 3,
        .window_us = 60000000, .nwindows = WINDOWS, .window_writes = f->win_writes[1],
        .window_reads = f->win_reads,
        .keyspace = { .nbuckets = BUCKETS, .bucket_start = f->buckets, .writes = f->key_writes[1],
                      .reads = f->key_reads, .sample = 100, .exact = 0 },
        .nhistory = 1, .history = f->history[1] };
    f->runs[2] = (run_result){
        .scheme_name = "idle", .scheme_expr = "md5(ts)", .key_example = "", .presplit = "none",
        .nservers = SERVERS, .servers = f->sv[2], .duration_us = 240000000,
        .window_us = 60000000, .nwindows = WINDOWS, .window_writes = f->idle_windows };
    f->res = (sim_results){
        .scenario = "lab\x01 \xC3\xA9 \xFF", .seed = 42, .servers = SERVERS,
        .split_policy = "size", .region_max_bytes = 4u << 20, .balancer = "region-count",
        .balancer_period_us = 300000000, .balancer_first_us = 184230954, .window_us = 60000000,
        .workload = "time series <10 metrics>", .cell_overhead_bytes = 31, .nruns = 3,
        .runs = f->runs };
}

/* The page for `res` as a malloc'd string. */
static char *render(const sim_results *res)
{
    /* The stream's pointers live on the heap, not in this frame (see test_text.c). */
    struct { char *buf; size_t len; } *m = calloc(1, sizeof *m);
    assert_non_null(m);
    FILE *out = open_memstream(&m->buf, &m->len);
    assert_non_null(out);
    html_write(out, res);
    assert_int_equal(fclose(out), 0);
    char *text = m->buf;
    free(m);
    return text;
}

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* Where the coloured cells of the cells block at p end: at its tooltip
 * layer (or the end of p, cut before it). */
static const char *cells_end(const char *p)
{
    const char *tip = strstr(p, "<g class=\"tip\">"), *svg = strstr(p, "</svg>");
    if (!tip) return svg ? svg : p + strlen(p);
    assert_true(!svg || tip < svg);
    return tip;
}

/* The heatmap cells inside the <svg class="cells"> blocks: a <rect> is a
 * run of `width` cells (1 without the attribute). */
static size_t count_cells(const char *text)
{
    size_t n = 0;
    for (const char *p = strstr(text, "<svg class=\"cells\""); p;
         p = strstr(p + 1, "<svg class=\"cells\"")) {
        const char *end = cells_end(p);
        for (const char *r = strstr(p, "<rect"); r && r < end; r = strstr(r + 1, "<rect")) {
            const char *close = strchr(r, '>'), *w = strstr(r, " width=\"");
            n += w && w < close ? strtoul(w + strlen(" width=\""), NULL, 10) : 1;
        }
    }
    return n;
}

/* <rect> elements (runs of equal cells) in the cells blocks. */
static size_t count_rects(const char *text)
{
    size_t n = 0;
    for (const char *p = strstr(text, "<svg class=\"cells\""); p;
         p = strstr(p + 1, "<svg class=\"cells\"")) {
        const char *end = cells_end(p);
        for (const char *r = strstr(p, "<rect"); r && r < end; r = strstr(r + 1, "<rect")) n++;
    }
    return n;
}

/* Tooltips (<title> in the tip layers) and the cells they list, the
 * number of values after the colon of each. */
static size_t count_tip_values(const char *text)
{
    size_t n = 0;
    for (const char *p = strstr(text, "<g class=\"tip\">"); p; p = strstr(p + 1, "<g class=\"tip\">")) {
        const char *end = strstr(p, "</g>");
        assert_non_null(end);
        for (const char *t = strstr(p, "<title>"); t && t < end; t = strstr(t + 1, "<title>")) {
            const char *colon = strstr(t, ":"), *close = strstr(t, "</title>");
            assert_true(colon && colon < close);
            for (const char *c = colon; c < close; c++) n += *c == ' ';
        }
    }
    return n;
}

/* The run's panel: from its <section> to the next one (or the end). */
static char *panel(const char *text, int run)
{
    const char *p = text;
    for (int i = 0; i <= run; i++) {
        p = strstr(p + (i > 0), "<section class=\"panel\"");
        assert_non_null(p);
    }
    const char *end = strstr(p + 1, "</section>");
    assert_non_null(end);
    return strndup(p, (size_t)(end - p));
}

/* The legend of one scale, from its heading to its closing </div>. */
static char *legend(const char *text, const char *title)
{
    char heading[128];
    snprintf(heading, sizeof heading, "<h3>Scale: %s</h3>", title);
    const char *p = strstr(text, heading);
    if (!p) return NULL;
    const char *end = strstr(p, "</div>");
    assert_non_null(end);
    return strndup(p, (size_t)(end - p));
}

static void test_every_scheme_and_the_config_appear_escaped(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    assert_non_null(strstr(html, "<h2>monotonic</h2>"));
    assert_non_null(strstr(html, "<h2>" NASTY_ESCAPED "</h2>"));
    assert_non_null(strstr(html, "<h2>idle</h2>"));
    assert_null(strstr(html, "x<&"));
    assert_null(strstr(html, "\xFF"));
    assert_null(strstr(html, "\x01"));
    assert_non_null(strstr(html, "salt(3) &lt;ts&gt; &amp; &quot;q&quot;"));
    /* The scenario: control character and invalid byte replaced, é kept. */
    assert_non_null(strstr(html, "lab\xEF\xBF\xBD \xC3\xA9 \xEF\xBF\xBD (seed 42)"));
    assert_non_null(strstr(html, "3 servers; size split at 4 MiB; balancer region-count every "
                                 "5 min, first at 3.1 min; window 1 min"));
    assert_non_null(strstr(html, "time series &lt;10 metrics&gt;; 31 B per cell beyond the key"));
    assert_non_null(strstr(html, "ONE colour scale"));
    assert_non_null(strstr(html, "darker = more"));
    /* Keys from the data are escaped in labels too. */
    assert_non_null(strstr(html, "\\x00\\xFF&lt;&amp;"));
    /* One inline script (the players'), nothing fetched. */
    assert_int_equal(count(html, "<script"), 1);
    assert_null(strstr(html, "<script src"));
    assert_int_equal(count(html, "http://"), count(html, "http://www.w3.org/"));
    free(html);
}

static void test_one_rect_per_heatmap_cell(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    /* run 0: servers 4x3 + keys 4x5; run 1 the same twice (reads); run 2
     * servers only (no rows stored). */
    size_t expect = (4 * 3 + 4 * 5) + 2 * (4 * 3 + 4 * 5) + 4 * 3;
    assert_int_equal(count_cells(html), expect);
    assert_int_equal(count(html, "<svg class=\"cells\""), 2 + 4 + 1);
    /* Neighbours of one colour share a <rect>: the idle run's three rows
     * of zeros are three. */
    assert_true(count_rects(html) < expect);
    char *idle = panel(html, 2);
    assert_int_equal(count_rects(idle), 3);
    free(idle);
    /* Every cell is in a tooltip, with its exact value. */
    assert_int_equal(count_tip_values(html), expect);
    assert_non_null(strstr(html, "<title>rs1 0&#8211;4 min: 120 777 100 2</title>"));
    free(html);
}

static void test_key_rows_ascend_upwards_and_labels_are_keys(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    char *run0 = panel(html, 0);
    /* Drawn row 0 (the top) is the last bucket: in run 0's diagonal,
     * bucket 4 is written in no window (buckets 0..3 one per window, in
     * order), bucket 3 (drawn row 1) only in the last window, at 600: the
     * maximum, so the darkest level used (key steps double: 600 is 2^2.74
     * times the mean cell, 89.75, 3 steps above the even step, which is at
     * most 10: step 13). Zero cells come first, ungrouped. */
    const char *keys = strstr(run0, "Writes per key range over time");
    assert_non_null(keys);
    const char *cells = strstr(keys, "<svg class=\"cells\"");
    assert_non_null(cells);
    const char *darkest = strstr(cells, "<g class=\"c13\">");
    assert_non_null(darkest);
    assert_int_equal(count(cells, "<g class=\"c"), 1);
    const char *top_left = strstr(cells, "<rect x=\"0\" y=\"0\" width=\"4\"/>");
    assert_non_null(top_left);
    assert_true(top_left < strstr(cells, "<g class="));
    assert_non_null(strstr(cells, "<g class=\"c13\"><rect x=\"3\" y=\"1\"/><rect x=\"2\" "
                                  "y=\"2\"/><rect x=\"1\" y=\"3\"/><rect x=\"0\" y=\"4\"/></g>"));
    /* The tooltips name the bucket by its start key, top row first. */
    const char *tips = strstr(cells, "<g class=\"tip\">");
    assert_non_null(tips);
    const char *top = strstr(tips, "<title>from \\x00\\xFF&lt;&amp; 0&#8211;4 min: 0 0 0 0</title>");
    const char *next = strstr(tips, "<title>from row-f 0&#8211;4 min: 0 0 0 600</title>");
    const char *bottom = strstr(tips, "<title>from -inf 0&#8211;4 min: 600 0 0 0</title>");
    assert_true(top && next && bottom && top < next && next < bottom);
    /* Bucket 0 starts at the empty key: shown as -inf. Axis titles. */
    assert_non_null(strstr(keys, ">-inf</text>"));
    assert_non_null(strstr(keys, ">row-d</text>"));
    assert_non_null(strstr(keys, ">key (bucket start)</text>"));
    assert_non_null(strstr(run0, ">server</text>"));
    assert_non_null(strstr(run0, ">time (min)</text>"));
    free(run0);
    free(html);
}

static void test_reads_heatmaps_only_when_the_run_read(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    char *run0 = panel(html, 0), *run1 = panel(html, 1);
    assert_null(strstr(run0, "Read RPCs per"));
    assert_non_null(strstr(run1, "Read RPCs per server over time"));
    assert_non_null(strstr(run1, "Read RPCs per key range over time"));
    assert_int_equal(count(html, "Read RPCs per server over time"), 1);
    char *reads = legend(html, "read RPCs per server and window");
    assert_non_null(reads);
    free(reads);
    free(run0);
    free(run1);
    free(html);

    /* Without any reads, no read heatmap and no read scale. */
    f.runs[1].reads = 0;
    html = render(&f.res);
    assert_null(strstr(html, "Read RPCs per"));
    assert_null(legend(html, "read RPCs per server and window"));
    assert_int_equal(count_cells(html), 3 * (4 * 3) + 2 * (4 * 5));
    free(html);
}

static void test_legends_show_the_shared_maxima(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    char *sw = legend(html, "writes per server and window");
    char *kw = legend(html, "writes per key bucket and window");
    char *kr = legend(html, "read RPCs per key bucket and window");
    assert_non_null(sw);
    assert_non_null(kw);
    assert_non_null(kr);
    /* The top step ends at the hottest cell; 1x is the mean cell: server
     * writes 3348 over 3 runs x 12 cells = 93, key writes 3590 / 40 = 89.75,
     * key reads 190 / 20 = 9.5. */
    assert_non_null(strstr(sw, " to 777</title>"));
    assert_non_null(strstr(sw, "= <strong>even</strong>: 93,"));
    assert_non_null(strstr(sw, ">= 0</text>"));
    assert_non_null(strstr(kw, " to 600</title>"));
    assert_non_null(strstr(kw, "= <strong>even</strong>: 89.8,"));
    assert_non_null(strstr(kr, " to 19</title>"));
    assert_non_null(strstr(kr, "= <strong>even</strong>: 9.5,"));
    assert_non_null(strstr(html, "<div class=\"legend\" data-scale=\"server-writes\">"));
    assert_non_null(strstr(html, "<div class=\"legend\" data-scale=\"server-reads\">"));
    assert_non_null(strstr(html, "<div class=\"legend\" data-scale=\"key-writes\">"));
    assert_non_null(strstr(html, "<div class=\"legend\" data-scale=\"key-reads\">"));
    /* Steps of sqrt(2) from the even share: 777 / 93 = 2^3.06, 6 steps
     * above the even one, so the even share is step 10 and 777 step 16;
     * run 0's hottest server cell (500 = 2^2.43 x 93: 5 steps) is step 15,
     * not the top: the scale is shared. */
    char *run0 = panel(html, 0);
    assert_non_null(strstr(sw, "<text x=\"357.0\" y=\"18\">even</text>")); /* over step 10 */
    assert_non_null(strstr(run0, "<g class=\"c15\"><rect x=\"2\" y=\"1\"/>"));
    assert_null(strstr(run0, "<g class=\"c16\">"));
    free(run0);
    free(sw);
    free(kw);
    free(kr);
    free(html);
}

static void test_top_regions_in_order_of_writes(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    char *run0 = panel(html, 0);
    const char *table = strstr(run0, "<table class=\"regions\">");
    assert_non_null(table);
    const char *a = strstr(table, "<td class=\"key\">row-d</td><td class=\"key\">row-f</td>"
                                  "<td>rs1</td><td class=\"n\">60.0%</td><td class=\"n\">-</td>"
                                  "<td>split 2.5 min</td>");
    const char *b = strstr(table, "<td class=\"key\">row-f</td><td class=\"key\">+inf</td>"
                                  "<td>rs2</td><td class=\"n\">34.3%</td>");
    const char *c = strstr(table, "<td class=\"key\">-inf</td><td class=\"key\">row-b</td>");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_true(a < b && b < c);
    char *regions = strndup(table, (size_t)(strstr(table, "</table>") - table));
    assert_int_equal(count(regions, "<tr>"), 1 + 3); /* the idle region is left out */
    free(regions);
    assert_non_null(strstr(b, "<td>live</td>"));

    char *run1 = panel(html, 1);
    assert_non_null(strstr(run1, "<td class=\"n\">100.0%</td><td class=\"n\">100.0%</td>"));
    free(run1);
    free(run0);
    free(html);
}

/* Every balancer run is listed under the timeline with its decision. */
static void test_balancer_runs_are_listed(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    balancer_report log[2] = {
        { .kind = BALANCER_SIMPLE, .ran = 1, .reason = BALANCER_OUT_OF_SLOP, .servers = 3,
          .regions = 10, .moves = 2, .least = 1, .most = 6, .average = 10.0f / 3, .floor = 2,
          .ceiling = 4 },
        { .kind = BALANCER_SIMPLE, .reason = BALANCER_IN_TRANSITION, .in_transition = 2 },
    };
    timeline_event ev[2] = { { .t_us = 60000000, .kind = TIMELINE_BALANCER, .balancer = 0 },
                             { .t_us = 120000000, .kind = TIMELINE_BALANCER, .balancer = 1 } };
    f.runs[2].events = ev;
    f.runs[2].nevents = 2;
    f.runs[2].balancer_log = log;
    f.runs[2].balancer_runs = 2;
    char *html = render(&f.res);
    char *run2 = panel(html, 2);
    assert_non_null(strstr(run2, "Balancer: 2 runs, 1 computed a plan, 2 regions moved."));
    assert_non_null(strstr(run2, "ran (server out of slop): 1-6 regions a server, "
                                 "average 3.33, slop [2, 4]; 2 moved</li>"));
    assert_non_null(strstr(run2, "skipped (regions in transition): 2 regions in transition</li>"));
    free(run2);
    free(html);
}

/* The warm-up before measure_from is veiled on the heatmaps and named in
 * the panel head; a run still growing says it is not steady. */
static void test_warm_up_and_steady_state(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    assert_null(strstr(html, "class=\"warm\""));
    free(html);
    f.runs[0].measure_from_us = 120000000;
    uint64_t regions[WINDOWS] = { 1, 2, 4, 8 }; /* doubling to the end */
    f.runs[0].window_regions = regions;
    html = render(&f.res);
    char *run0 = panel(html, 0), *run1 = panel(html, 1);
    assert_non_null(strstr(run0, "measured 2 min-4 min (the table 2 min old at its start)"));
    assert_non_null(strstr(run0, "class=\"warm\""));
    assert_non_null(strstr(run0, "class=\"measure\""));
    assert_null(strstr(run1, "class=\"warm\""));
    /* two measured windows: too few to judge (fewer than 4) */
    assert_null(strstr(run0, "not steady"));
    free(run0);
    free(run1);
    free(html);
    /* four measured windows: the last quarter (one window) went 4 -> 8 */
    f.runs[0].measure_from_us = 0;
    html = render(&f.res);
    run0 = panel(html, 0);
    assert_non_null(strstr(run0, "not steady: regions grew 100% in the last 1 min"));
    free(run0);
    free(html);
}

static void test_timeline_and_notes(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    char *run0 = panel(html, 0), *run1 = panel(html, 1), *run2 = panel(html, 2);
    assert_non_null(strstr(run0, "Events: 2 split, 1 move, 0 reassign, 1 servers added, "
                                 "0 decommission, 1 failure, 0 balancer."));
    assert_non_null(strstr(run0, "<li>1.7 min: rs3&#8211;rs4 added</li>"));
    assert_non_null(strstr(run0, "<li>3.3 min: rs1 failed</li>"));
    assert_int_equal(count(run0, "<path class=\"k0\" d=\"M"), 1); /* one path for both splits */
    assert_non_null(strstr(run0, ">servers added</text>"));
    /* Exact key space in run 0; sampled in run 1; nothing stored in run 2. */
    assert_null(strstr(run0, "estimated from a sample"));
    assert_non_null(strstr(run1, "estimated from a sample of 100 keys per window"));
    assert_non_null(strstr(run2, "No rows stored"));
    assert_non_null(strstr(run2, "No region took a write or a read."));
    free(run0);
    free(run1);
    free(run2);
    free(html);
}

/* Long keys that share a prefix are labelled by what tells them apart. */
static void test_long_keys_leave_out_their_shared_prefix(void **state)
{
    (void)state;
    static char *const starts[BUCKETS] = { "", "\\x00\\x00\\x01\\x8C\\xC2Q\\xF4\\x00",
        "\\x00\\x00\\x01\\x8C\\xC2V|\\xF9", "\\x00\\x00\\x01\\x8C\\xC2_L\\x89",
        "\\x00\\x00\\x01\\x8C\\xC2b\\x8C\\x8C" };
    fixture f;
    fixture_init(&f);
    f.runs[0].keyspace.bucket_start = (char **)starts;
    char *html = render(&f.res);
    char *run0 = panel(html, 0);
    assert_non_null(strstr(run0, ">...Q\\xF4\\x00</text>"));
    assert_non_null(strstr(run0, ">...b\\x8C\\x8C</text>"));
    assert_non_null(strstr(run0, ">-inf</text>"));
    assert_non_null(strstr(run0, "Key labels leave out the prefix they all share (shown as ...): "
                                 "<code>\\x00\\x00\\x01\\x8C\\xC2</code>."));
    /* Short keys are shown whole (run 1), with no note. */
    char *run1 = panel(html, 1);
    assert_non_null(strstr(run1, ">row-d</text>"));
    assert_null(strstr(run1, "leave out the prefix"));
    free(run1);
    free(run0);
    free(html);
}

static void test_output_is_deterministic(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *a = render(&f.res), *b = render(&f.res);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Many windows are grouped into at most 120 columns of per-window means. */
static void test_long_runs_group_windows(void **state)
{
    (void)state;
    enum { N = 250 };
    static uint64_t writes[N * SERVERS];
    for (int i = 0; i < N * SERVERS; i++) writes[i] = 10;
    fixture f;
    fixture_init(&f);
    f.runs[2].nwindows = N;
    f.runs[2].window_writes = writes;
    f.runs[2].duration_us = N * 60000000ull;
    char *html = render(&f.res);
    char *run2 = panel(html, 2);
    assert_int_equal(count_cells(run2), 84 * SERVERS); /* ceil(250 / 3) columns */
    assert_non_null(strstr(run2, "A column is 3 windows"));
    assert_non_null(strstr(run2, ">time (h)</text>"));
    free(run2);
    free(html);
}

/* The size the issue asks for: 12 runs, 8 servers, 20 buckets, 30 windows,
 * reads and writes, and thousands of splits: a few hundred KB at most. */
static void test_a_full_compare_page_stays_small(void **state)
{
    (void)state;
    enum { RUNS = 12, SV = 8, KB = 20, W = 30, EVENTS = 3000 };
    static server_result servers[SV];
    static uint64_t sw[W * SV], kw[W * KB];
    static char *starts[KB];
    static char keys[KB][32];
    static timeline_event events[EVENTS];
    static run_result runs[RUNS];
    for (int s = 0; s < SV; s++) {
        snprintf(servers[s].name, sizeof servers[s].name, "rs%d", s);
        servers[s].writes = servers[s].reads = 1000;
    }
    for (int i = 0; i < W * SV; i++) sw[i] = (uint64_t)(i * 7919 % 1000);
    for (int i = 0; i < W * KB; i++) kw[i] = (uint64_t)(i * 104729 % 1000);
    for (int b = 0; b < KB; b++) {
        snprintf(keys[b], sizeof keys[b], "\\x%02X\\x00host%02d", b * 12, b);
        starts[b] = keys[b];
    }
    for (int e = 0; e < EVENTS; e++)
        events[e] = (timeline_event){ .t_us = (uint64_t)e * 600000, .kind = TIMELINE_SPLIT, .key = "k" };
    for (int r = 0; r < RUNS; r++)
        runs[r] = (run_result){ .scheme_name = "scheme", .scheme_expr = "salt(8) ts",
            .nservers = SV, .servers = servers, .writes = 8000, .reads = 8000,
            .duration_us = W * 60000000ull, .window_us = 60000000, .nwindows = W,
            .window_writes = sw, .window_reads = sw,
            .keyspace = { .nbuckets = KB, .bucket_start = starts, .writes = kw, .reads = kw,
                          .sample = 4096, .exact = 1 },
            .nevents = EVENTS, .events = events };
    sim_results res = { .scenario = "big", .servers = SV, .window_us = 60000000,
                        .nruns = RUNS, .runs = runs };
    char *html = render(&res);
    size_t len = strlen(html);
    print_message("full compare page: %zu bytes, %zu cells\n", len, count_cells(html));
    assert_int_equal(count_cells(html), RUNS * 2 * (SV + KB) * W);
    /* Every cell's value is in a tooltip, though the page has 20,160 */
    assert_int_equal(count_tip_values(html), RUNS * 2 * (SV + KB) * W);
    /* 638 KB when no cell had a tooltip (pages over 4,000 cells had none);
     * 920 KB with them all: these counts are noise, so few neighbours share
     * a colour and a <rect>, and the tooltips (one per 10 cells of a row)
     * cost about 14 bytes a cell. The default compare page, smoother, went
     * from 384 to 365 KB. */
    assert_true(len < 960 * 1024);
    free(html);
}

/* A test's state is non-NULL in html_xmllint: xmllint checks its page. */
static int xmllint_on(void **state)
{
    return *state != NULL;
}

/* Fails unless xmllint --noout accepts the page; its complaints, if any,
 * go to stderr, which the test log keeps. */
static void assert_well_formed(const char *html)
{
    FILE *p = popen("xmllint --noout -", "w");
    assert_non_null(p);
    fputs(html, p);
    int status = pclose(p);
    if (status != 0) fail_msg("xmllint rejects the page (status %d)", status);
}

/* 2,000 servers, 3 runs of 60 windows: the busiest 16 in a table with a
 * row for the rest (its writes the total less the busiest's), heatmap rows
 * that are bins of 63 servers labelled by their range and coloured by the
 * bin's max, per-server figures of the busiest only, and a page that stays
 * small (a row per server would be 360,000 cells). */
static void test_many_servers_are_binned_and_summed(void **state)
{
    enum { SV = 2000, W = 60, RUNS = 3, KB = 4 };
    server_result *servers = calloc(SV, sizeof *servers);
    uint64_t *sw = calloc((size_t)SV * W, sizeof *sw);
    uint64_t kw[W * KB] = { 0 };
    static char *starts[KB] = { "", "b", "c", "d" };
    run_result runs[RUNS];
    assert_true(servers && sw);
    uint64_t total = 0;
    for (int s = 0; s < SV; s++) {
        snprintf(servers[s].name, sizeof servers[s].name, "rs%d", s);
        servers[s].writes = (uint64_t)(s * 7919 % 2003) + 1; /* distinct: 7919 is prime to 2003 */
        total += servers[s].writes;
        for (int w = 0; w < W; w++) sw[(size_t)w * SV + s] = (uint64_t)((s + w) % 10);
    }
    sw[(size_t)5 * SV + 100] = 1000; /* one hot cell: server 100 (bin 1), window 5 */
    int top = 0; /* the busiest server hosts hbase:meta, shown apart from its regions */
    for (int s = 1; s < SV; s++) top = servers[s].writes > servers[top].writes ? s : top;
    servers[top].regions = 3;
    servers[top].system_regions = 1;
    for (int r = 0; r < RUNS; r++)
        runs[r] = (run_result){ .scheme_name = "scheme", .scheme_expr = "salt(8) ts",
            .nservers = SV, .servers = servers, .writes = total,
            .duration_us = W * 60000000ull, .window_us = 60000000, .nwindows = W,
            .window_writes = sw,
            .keyspace = { .nbuckets = KB, .bucket_start = starts, .writes = kw, .sample = 4096,
                          .exact = 1 } };
    sim_results res = { .scenario = "many", .servers = SV, .window_us = 60000000,
                        .nruns = RUNS, .runs = runs };
    char *html = render(&res);
    size_t len = strlen(html);
    print_message("2000 servers x 3 runs: %zu bytes, %zu cells\n", len, count_cells(html));
    /* 32 bins of ceil(2000 / 32) = 63 servers (the last of 47), and the key buckets */
    assert_int_equal(count_cells(html), RUNS * (32 + KB) * W);
    assert_int_equal(count(html, ">rs0-rs62</text>"), RUNS);
    assert_int_equal(count(html, ">rs1890-rs1952</text>"), RUNS); /* every other row labelled */
    assert_int_equal(count(html, ">rs100</text>"), 0); /* no row of its own */
    assert_non_null(strstr(html, "coloured by the bin's <strong>max</strong>"));
    /* the hot cell is the scale's top, in its bin's row (drawn row 1), column 5 */
    assert_int_equal(count(html, "<g class=\"c16\"><rect x=\"5\" y=\"1\"/></g>"), RUNS);
    assert_int_equal(count(html, "<g class=\"c16\">"), RUNS);

    /* the busiest 16 and the rest: the rest's writes = total - the busiest's */
    char *run0 = panel(html, 0);
    assert_non_null(strstr(run0, "<h3>The 16 busiest of 2000 servers</h3>"));
    assert_int_equal(count(run0, "<td class=\"n\">3 + hbase:meta</td>"), 1);
    assert_int_equal(count(run0, "hbase:meta"), 1);
    uint64_t busiest = 0;
    const char *p = strstr(run0, "busiest\">");
    assert_non_null(p);
    for (int i = 0; i < 16; i++) {
        p = strstr(p, "<tr><td>rs");
        assert_non_null(p);
        int id = atoi(p + strlen("<tr><td>rs"));
        assert_true(id >= 0 && id < SV);
        busiest += servers[id].writes;
        /* at least the 16th most: fewer than 16 servers have more writes */
        int more = 0;
        for (int s = 0; s < SV; s++) more += servers[s].writes > servers[id].writes;
        assert_true(more < 16);
        p++;
    }
    const char *rest = strstr(run0, "<tr class=\"rest\"><td>the other 1984</td><td class=\"n\">");
    assert_non_null(rest);
    uint64_t rest_writes = strtoull(rest + strlen("<tr class=\"rest\"><td>the other 1984</td>"
                                                  "<td class=\"n\">"), NULL, 10);
    assert_true(rest_writes > 0);
    assert_true(rest_writes == total - busiest);
    /* per-server figures: 16 columns and the rest's min, median, max */
    assert_non_null(strstr(run0, "the 16 with the most writes of 2000"));
    assert_int_equal(count(run0, "<th>rest median</th>"), 1);
    free(run0);

    assert_true(len < 400 * 1024);
    if (xmllint_on(state)) assert_well_formed(html);
    free(html);
    free(sw);
    free(servers);
}

/* xmllint --noout accepts the page (html_xmllint). */
static void test_page_is_well_formed_xml(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    assert_well_formed(html);
    free(html);
}

static char *element_text(const char *after, const char *open, const char *close);

/* With three samples (seeds 42..44) the configuration says so and each
 * panel's Figures table shows the median, then min-max: run 0's servers
 * wrote {700, 600, 450} (max/mean 1.20), then {583, 583, 584} (1.00) and
 * {1750, 0, 0} (3.00). Everything else stays the first sample's. One
 * sample: none of it. */
static void test_figures_across_samples(void **state)
{
    static const uint64_t writes[2][SERVERS] = { { 583, 583, 584 }, { 1750, 0, 0 } };
    fixture f;
    fixture_init(&f);
    char *single = render(&f.res);
    assert_int_equal(samples_begin(&f.res, 3), 0);
    for (int k = 0; k < 2; k++) {
        fixture other;
        fixture_init(&other);
        for (int s = 0; s < SERVERS; s++) other.sv[0][s].writes = writes[k][s];
        samples_record(&f.res, (uint32_t)k + 1, &other.res);
    }
    const figure *fig = figure_find("write_max_mean");
    assert_non_null(fig);
    figure_spread s = samples_spread(fig, &f.res, 0);
    char want[256];
    snprintf(want, sizeof want, "<th>write_max_mean</th><td>%.2f <small>%.2f&#8211;%.2f</small>"
             "</td><td></td>", s.median, s.min, s.max);
    assert_string_equal(want, "<th>write_max_mean</th><td>1.20 <small>1.00&#8211;3.00</small>"
                              "</td><td></td>");

    char *html = render(&f.res);
    assert_non_null(strstr(html, "<tr><th>samples</th><td>3 (seeds 42..44): the panels show "
                                 "seed 42,"));
    char *run0 = panel(html, 0);
    assert_non_null(strstr(run0, "<h3>Figures: median and min&#8211;max of 3 samples (one "
                                 "value: the same in all)</h3>"));
    assert_non_null(strstr(run0, want));
    assert_non_null(strstr(run0, "<th>writes</th><td>1750</td>")); /* 1750 in every sample */
    free(run0);
    /* The summary: the median (1.20) with the seeds' range, and the
     * verdict on the medians (window max/mean 2.81 in every seed), in 2
     * of the 3 seeds: seed 44's 3.00 is one server outright. */
    const char *sum = strstr(html, "<tr data-scheme=\"monotonic\">");
    assert_non_null(sum);
    assert_non_null(strstr(sum, "<td data-figure=\"write_max_mean\">1.20 <small>1.00&#8211;3.00"
                                "</small></td>"));
    char *verdict = element_text(sum, "<td class=\"verdict\">", "</td>");
    assert_string_equal(verdict, "one server at a time takes the writes (window max/mean 2.81 "
                                 "of 3); so in 2 of 3 seeds (max/mean 1.00-3.00)");
    free(verdict);
    assert_non_null(strstr(html, "Each figure is the median of 3 seeds (42..44)"));
    if (xmllint_on(state)) assert_well_formed(html);

    assert_null(strstr(single, "<th>samples</th>"));
    assert_null(strstr(single, "<small>"));
    assert_null(strstr(single, "of 3 samples"));
    free(single);
    free(html);
    free(f.res.sample_values);
}

/* The default scenario in small: 8 servers, 4 one-minute windows of 60000
 * writes, three runs: "monotonic" puts every write on rs0; "salted"
 * spreads them within 2% (the counts salted had in its first windows);
 * "trickle" writes 1 a window to rs7. Key buckets: monotonic's and
 * salted's 20 bucket starts. */
enum { EV_SERVERS = 8, EV_WINDOWS = 4, EV_BUCKETS = 20 };

typedef struct even_fixture {
    server_result sv[3][EV_SERVERS];
    uint64_t win[3][EV_WINDOWS * EV_SERVERS];
    uint64_t keys[EV_WINDOWS * EV_BUCKETS];
    run_result runs[3];
    sim_results res;
} even_fixture;

static void even_fixture_init(even_fixture *f)
{
    static const uint64_t salted[EV_WINDOWS * EV_SERVERS] = {
        7523, 7368, 7515, 7508, 7470, 7418, 7656, 7542, 7527, 7415, 7455, 7391, 7584, 7609, 7531, 7488,
        7537, 7414, 7384, 7542, 7455, 7582, 7540, 7546, 7459, 7477, 7497, 7391, 7590, 7551, 7415, 7620,
    };
    static char *const mono_starts[EV_BUCKETS] = { "",
        "\\x00\\x00\\x01\\x8C\\xC2SS\\x90", "\\x00\\x00\\x01\\x8C\\xC2T\\xB3 ",
        "\\x00\\x00\\x01\\x8C\\xC2V\\x12\\xB0", "\\x00\\x00\\x01\\x8C\\xC2Wr@",
        "\\x00\\x00\\x01\\x8C\\xC2X\\xD1\\xD0", "\\x00\\x00\\x01\\x8C\\xC2Z1`",
        "\\x00\\x00\\x01\\x8C\\xC2[\\x90\\xF0", "\\x00\\x00\\x01\\x8C\\xC2\\x5C\\xF0\\x80",
        "\\x00\\x00\\x01\\x8C\\xC2^P\\x10", "\\x00\\x00\\x01\\x8C\\xC2_\\xAF\\xA0",
        "\\x00\\x00\\x01\\x8C\\xC2a\\x0F0", "\\x00\\x00\\x01\\x8C\\xC2bn\\xC0",
        "\\x00\\x00\\x01\\x8C\\xC2c\\xCEP", "\\x00\\x00\\x01\\x8C\\xC2e-\\xE0",
        "\\x00\\x00\\x01\\x8C\\xC2f\\x8Dp", "\\x00\\x00\\x01\\x8C\\xC2g\\xED\\x00",
        "\\x00\\x00\\x01\\x8C\\xC2iL\\x90", "\\x00\\x00\\x01\\x8C\\xC2j\\xAC ",
        "\\x00\\x00\\x01\\x8C\\xC2l\\x0B\\xB0" };
    static char *const salted_starts[EV_BUCKETS] = { "",
        "\\x00\\x00\\x00\\x01\\x8C\\xC2\\x5C\\xF6\\xDD", "\\x00\\x00\\x00\\x01\\x8C\\xC2g\\xFAo",
        "\\x01\\x00\\x00\\x01\\x8C\\xC2W\\x88\\x0D", "\\x01\\x00\\x00\\x01\\x8C\\xC2b\\x8C<",
        "\\x02\\x00\\x00\\x01\\x8C\\xC2R\\x14\\xDB", "\\x02\\x00\\x00\\x01\\x8C\\xC2]\\x1E3",
        "\\x02\\x00\\x00\\x01\\x8C\\xC2h\\x1F\\xAF", "\\x03\\x00\\x00\\x01\\x8C\\xC2W\\xA5\\xC0",
        "\\x03\\x00\\x00\\x01\\x8C\\xC2b\\xACW", "\\x04\\x00\\x00\\x01\\x8C\\xC2R5V",
        "\\x04\\x00\\x00\\x01\\x8C\\xC2]\"\\x95", "\\x04\\x00\\x00\\x01\\x8C\\xC2h\\x1C[",
        "\\x05\\x00\\x00\\x01\\x8C\\xC2W\\xA2\\xA5", "\\x05\\x00\\x00\\x01\\x8C\\xC2b\\x9B\\x15",
        "\\x06\\x00\\x00\\x01\\x8C\\xC2R\\x1D\\xA4", "\\x06\\x00\\x00\\x01\\x8C\\xC2]\\x0D\\x01",
        "\\x06\\x00\\x00\\x01\\x8C\\xC2h\\x06\\xB4", "\\x07\\x00\\x00\\x01\\x8C\\xC2W\\x89j",
        "\\x07\\x00\\x00\\x01\\x8C\\xC2bu\\xC1" };
    static const char *const names[3] = { "monotonic", "salted", "trickle" };
    memset(f, 0, sizeof *f);
    memcpy(f->win[1], salted, sizeof salted);
    for (int w = 0; w < EV_WINDOWS; w++) {
        f->win[0][w * EV_SERVERS] = 60000;
        f->win[2][w * EV_SERVERS + 7] = 1;
    }
    for (int r = 0; r < 3; r++) {
        uint64_t total = 0;
        for (int s = 0; s < EV_SERVERS; s++) {
            snprintf(f->sv[r][s].name, sizeof f->sv[r][s].name, "rs%d", s);
            for (int w = 0; w < EV_WINDOWS; w++) f->sv[r][s].writes += f->win[r][w * EV_SERVERS + s];
            total += f->sv[r][s].writes;
        }
        f->runs[r] = (run_result){ .scheme_name = (char *)names[r], .scheme_expr = "ts",
            .nservers = EV_SERVERS, .servers = f->sv[r], .writes = total,
            .duration_us = EV_WINDOWS * 60000000ull, .window_us = 60000000,
            .nwindows = EV_WINDOWS, .window_writes = f->win[r],
            .keyspace = { .nbuckets = r < 2 ? EV_BUCKETS : 0,
                          .bucket_start = (char **)(r == 0 ? mono_starts : salted_starts),
                          .writes = f->keys, .sample = 4096, .exact = 1 } };
    }
    f->res = (sim_results){ .scenario = "even", .seed = 42, .servers = EV_SERVERS,
                            .window_us = 60000000, .nruns = 3, .runs = f->runs };
}

/* The coloured cells of the heatmap titled `title` in `text`: from its
 * <svg class="cells"> to its tooltip layer. */
static char *heatmap_cells(const char *text, const char *title)
{
    const char *h = strstr(text, title);
    assert_non_null(h);
    const char *p = strstr(h, "<svg class=\"cells\"");
    assert_non_null(p);
    return strndup(p, (size_t)(cells_end(p) - p));
}

/* An even run is one shade: every non-zero cell of salted's server
 * heatmap (counts within 2% of the even share, 7500) in ONE colour class;
 * the old 16 linear steps up to 60000 cut at 7500 exactly and made a
 * checkerboard of two. A little is not nothing: trickle's 1s are the
 * lightest class, its zeros the grey outside every class. */
static void test_an_even_run_is_one_shade(void **state)
{
    even_fixture f;
    even_fixture_init(&f);
    char *html = render(&f.res);
    char *salted = panel(html, 1);
    char *cells = heatmap_cells(salted, "Writes per server over time");
    assert_int_equal(count_cells(cells), EV_SERVERS * EV_WINDOWS);
    assert_int_equal(count(cells, "<g class="), 1);
    const char *group = strstr(cells, "<g class=\"c");
    assert_non_null(group);
    assert_true(strstr(cells, "<rect") > group); /* no zero cell before the group */
    /* one rect per row: each row is one run of equal colour */
    assert_int_equal(count_rects(cells), EV_SERVERS);
    free(cells);
    free(salted);

    char *mono = panel(html, 0);
    cells = heatmap_cells(mono, "Writes per server over time");
    assert_non_null(strstr(cells, "<g class=\"c16\"><rect x=\"0\" y=\"0\" width=\"4\"/></g>"));
    free(cells);
    free(mono);

    char *trickle = panel(html, 2);
    cells = heatmap_cells(trickle, "Writes per server over time");
    assert_non_null(strstr(cells, "<g class=\"c1\"><rect x=\"0\" y=\"7\" width=\"4\"/></g>"));
    assert_int_equal(count(cells, "<g class="), 1);
    assert_non_null(strstr(cells, "<rect x=\"0\" y=\"0\" width=\"4\"/>")); /* zeros: no class */
    free(cells);
    free(trickle);
    if (xmllint_on(state)) assert_well_formed(html);
    free(html);
}

/* The key labels on a heatmap's y axis, in drawn order. */
static size_t key_labels(const char *text, char labels[][64], size_t cap)
{
    const char *p = strstr(text, "<g class=\"yl key\">");
    assert_non_null(p);
    const char *end = strstr(p, "</g>");
    size_t n = 0;
    for (const char *t = strstr(p, "<text"); t && t < end && n < cap; t = strstr(t + 1, "<text")) {
        const char *from = strchr(t, '>') + 1, *to = strstr(from, "</text>");
        snprintf(labels[n++], 64, "%.*s", (int)(to - from), from);
    }
    return n;
}

/* Key labels tell neighbours apart: salted's buckets show their salt byte
 * and the bytes where they differ (not "\x06\x00\x00..." three times);
 * monotonic's leave out the prefix they all share. */
static void test_adjacent_key_labels_differ(void **state)
{
    (void)state;
    even_fixture f;
    even_fixture_init(&f);
    char *html = render(&f.res);
    for (int r = 0; r < 2; r++) {
        char *run = panel(html, r);
        char labels[EV_BUCKETS][64];
        size_t n = key_labels(strstr(run, "Writes per key range over time"), labels, EV_BUCKETS);
        assert_int_equal(n, EV_BUCKETS);
        for (size_t i = 1; i < n; i++) {
            if (!strcmp(labels[i - 1], labels[i])) fail_msg("run %d: labels %zu and %zu are both %s", r, i - 1, i, labels[i]);
            assert_true(strlen(labels[i]) <= 16 + 4 * 4); /* 16 columns; &lt; and the like */
        }
        free(run);
    }
    char *salted = panel(html, 1);
    assert_non_null(strstr(salted, ">\\x06...R\\x1D\\xA4</text>"));
    assert_non_null(strstr(salted, ">\\x06...]\\x0D\\x01</text>"));
    assert_non_null(strstr(salted, ">\\x07...W\\x89j</text>"));
    assert_non_null(strstr(salted, ">-inf</text>"));
    free(salted);
    char *mono = panel(html, 0);
    assert_non_null(strstr(mono, ">...SS\\x90</text>"));
    free(mono);
    free(html);
}

/* The hottest regions table: keys that share a long start but not a first
 * byte (a salted table's regions) keep the bytes that tell them apart, so
 * two different bounds never read alike. */
static void test_region_table_keys_differ(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *const keys[] = { "\\x02\\x00\\x00\\x01\\x8C\\xC2QA", "\\x02\\x00\\x00\\x01\\x8C\\xC2QB",
                           "\\x06\\x00\\x00\\x01\\x8C\\xC2QA", "\\x06\\x00\\x00\\x01\\x8C\\xC2QC" };
    for (int i = 0; i < 4; i++) {
        f.history[0][i].start = keys[i];
        f.history[0][i].end = i < 3 ? keys[i + 1] : "";
    }
    char *html = render(&f.res);
    char *run = panel(html, 0);
    const char *p = strstr(run, "<table class=\"regions\">");
    assert_non_null(p);
    const char *end = strstr(p, "</table>");
    char full[8][64], label[8][64];
    size_t n = 0;
    while ((p = strstr(p, "<td class=\"key\"")) != NULL && p < end && n < 8) {
        const char *gt = strchr(p, '>'), *title = strstr(p, " title=\"");
        const char *text = gt + 1;
        size_t len = (size_t)(strchr(text, '<') - text);
        assert_true(len < sizeof label[0]);
        memcpy(label[n], text, len);
        label[n][len] = '\0';
        if (title && title < gt) { /* the whole key, when the label is cut */
            title += strlen(" title=\"");
            size_t tl = (size_t)(strchr(title, '"') - title);
            assert_true(tl < sizeof full[0]);
            memcpy(full[n], title, tl);
            full[n][tl] = '\0';
        } else {
            strcpy(full[n], label[n]);
        }
        p = text;
        n++;
    }
    assert_true(n >= 6);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(full[i], full[j]) != 0 && strcmp(label[i], label[j]) == 0)
                fail_msg("bounds %s and %s both read %s", full[i], full[j], label[i]);
    free(run);
    free(html);
}

/* The text of the first element after `after` that starts with `open`
 * (up to its closing tag `close`), as a malloc'd string; NULL if none. */
static char *element_text(const char *after, const char *open, const char *close)
{
    const char *p = strstr(after, open);
    if (!p) return NULL;
    p += strlen(open);
    const char *end = strstr(p, close);
    assert_non_null(end);
    return strndup(p, (size_t)(end - p));
}

/* The summary at the top: a row per scheme in the runs' order, each value
 * in a cell named by its registry figure and formatted with the figure's
 * decimals ("-" when undefined), and a verdict from the thresholds. */
static void test_summary_table_at_the_top(void **state)
{
    (void)state;
    static const char *const figs[] = { "write_max_mean", "read_max_mean",
        "write_window_max_mean", "p99_latency_us", "rpcs_per_read", "splits", "moves" };
    fixture f;
    fixture_init(&f);
    f.runs[1].latency = (latency_summary){ .count = 10, .p99_us = 1234 };
    char *html = render(&f.res);
    const char *table = strstr(html, "<table id=\"summary\">");
    assert_non_null(table);
    assert_true(table < strstr(html, "<section class=\"panel\""));
    assert_true(table < strstr(html, "<div class=\"legend\""));
    const char *end = strstr(table, "</table>");
    const char *row = table;
    for (size_t r = 0; r < f.res.nruns; r++) {
        char want[128];
        snprintf(want, sizeof want, "<tr data-scheme=\"%s\">",
                 r == 1 ? NASTY_ESCAPED : f.runs[r].scheme_name);
        row = strstr(row, want);
        assert_non_null(row);
        assert_true(row < end);
        for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
            const figure *fig = figure_find(figs[i]);
            double v = figure_value(fig, &f.runs[r], 0);
            char cell[64], expect[64];
            snprintf(cell, sizeof cell, "<td data-figure=\"%s\">", figs[i]);
            char *got = element_text(row, cell, "</td>");
            assert_non_null(got);
            /* as the text report's tables print it: latencies "1.23 ms" */
            if (v != v) strcpy(expect, "-");
            else if (!strcmp(fig->unit, "us")) fmt_latency(expect, (uint64_t)v);
            else snprintf(expect, sizeof expect, "%.*f", fig->decimals, v);
            assert_string_equal(got, expect);
            free(got);
        }
    }
    char *summary = strndup(table, (size_t)(end - table));
    assert_int_equal(count(summary, "<tr data-scheme="), 3);
    free(summary);
    /* Verdicts. Run 0: 700/600/450 writes (max/mean 1.20) but a window's
     * writes on one server at a time (window max/mean 2.81 of 3, at least
     * half the servers); run 2 wrote nothing. */
    char *v0 = element_text(strstr(table, "<tr data-scheme=\"monotonic\">"), "<td class=\"verdict\">",
                            "</td>");
    assert_string_equal(v0, "one server at a time takes the writes (window max/mean 2.81 of 3)");
    char *v2 = element_text(strstr(table, "<tr data-scheme=\"idle\">"), "<td class=\"verdict\">",
                            "</td>");
    assert_string_equal(v2, "no writes");
    /* Run 1: rs1 wrote 999 of 1598 on 3 servers (max/mean 1.88, at least
     * half of 3); its reads 38/42/46 (max/mean 1.10) are even. */
    char *v1 = element_text(strstr(table, "<tr data-scheme=\"" NASTY_ESCAPED "\">"),
                            "<td class=\"verdict\">", "</td>");
    assert_string_equal(v1, "one server takes the writes (max/mean 1.88 of 3); reads even");
    free(v1);
    /* latencies as the text tables print them, not in raw microseconds */
    assert_non_null(strstr(table, "<td data-figure=\"p99_latency_us\">1.23 ms</td>"));
    free(v0);
    free(v2);
    free(html);

    /* The even fixture: one server takes monotonic's writes, salted's are even. */
    even_fixture e;
    even_fixture_init(&e);
    html = render(&e.res);
    table = strstr(html, "<table id=\"summary\">");
    v0 = element_text(strstr(table, "<tr data-scheme=\"monotonic\">"), "<td class=\"verdict\">", "</td>");
    v1 = element_text(strstr(table, "<tr data-scheme=\"salted\">"), "<td class=\"verdict\">", "</td>");
    assert_string_equal(v0, "one server takes the writes (max/mean 8.00 of 8)");
    assert_string_equal(v1, "writes even");
    free(v0);
    free(v1);
    free(html);

    /* Salted with rs0 at twice the others: max/mean 16/9 = 1.78, uneven
     * (from 1.50) but short of one server (4 of 8); at 1.2 times (max/mean
     * 9000 / 7687.5 = 1.17), nearly even (over 1.10). */
    static const double factor[2] = { 2.0, 1.2 };
    static const char *const want[2] = {
        "writes uneven: the busiest server takes 22.2% (max/mean 1.78)",
        "writes nearly even (max/mean 1.17)" };
    for (int k = 0; k < 2; k++) {
        even_fixture_init(&e);
        e.sv[1][0].writes = 0;
        for (int w = 0; w < EV_WINDOWS; w++) {
            for (int sv = 1; sv < EV_SERVERS; sv++) e.win[1][w * EV_SERVERS + sv] = 7500;
            e.win[1][w * EV_SERVERS] = (uint64_t)(7500 * factor[k]);
        }
        for (int sv = 0; sv < EV_SERVERS; sv++) e.sv[1][sv].writes = 4 * e.win[1][sv];
        html = render(&e.res);
        v1 = element_text(strstr(html, "<tr data-scheme=\"salted\">"), "<td class=\"verdict\">",
                          "</td>");
        assert_string_equal(v1, want[k]);
        free(v1);
        free(html);
    }
}

/* An overloaded run is called so first, in the summary's verdict and at
 * the head of its panel, with done/offered; a p99 longer than the run is
 * explained under the summary and under the panel's latency table. A run
 * that keeps up says neither. */
static void test_an_overloaded_run_is_called_so_first(void **state)
{
    (void)state;
    even_fixture e;
    even_fixture_init(&e);
    run_result *salted = &e.runs[1];
    salted->offered_per_s = 1000, salted->achieved_per_s = 316;
    salted->unfinished = 1231362;
    for (int s = 0; s < EV_SERVERS; s++) e.sv[1][s].busy = s == 3 ? 9.294 : 9.0;
    salted->latency = (latency_summary){ .count = 100, .p50_us = 3490000000ull,
                                         .p99_us = 14630000000ull, .p999_us = 14898000000ull,
                                         .max_us = 14975000000ull };
    run_result *mono = &e.runs[0]; /* keeps up: 99% done, 100% busy at most */
    mono->offered_per_s = 1000, mono->achieved_per_s = 990;
    e.sv[0][0].busy = 1.0;
    mono->latency = (latency_summary){ .count = 100, .p99_us = 5000, .max_us = 200000000 };
    char *html = render(&e.res);
    char *v = element_text(strstr(html, "<tr data-scheme=\"salted\">"), "<td class=\"verdict\">",
                           "</td>");
    assert_string_equal(v, "overloaded: 316 of 1000 ops/s done, busiest server 929.4% busy; "
                           "writes even");
    free(v);
    v = element_text(strstr(html, "<tr data-scheme=\"monotonic\">"), "<td class=\"verdict\">",
                     "</td>");
    assert_string_equal(v, "one server takes the writes (max/mean 8.00 of 8)");
    free(v);
    const char *summary_end = strstr(html, "</table>");
    assert_non_null(summary_end);
    char *drained = element_text(summary_end, "<p class=\"note drained\">", "</p>");
    assert_string_equal(drained, "salted: p99 14630 s is longer than the 4 min run: 1231362 "
                                 "operations were still queued at its end and drained after "
                                 "it, with no new arrivals.");
    free(drained);
    assert_int_equal(count(html, "<p class=\"note drained\">"), 2); /* summary, salted's panel */
    char *p0 = panel(html, 0), *p1 = panel(html, 1);
    assert_null(strstr(p0, "overloaded"));
    assert_null(strstr(p0, "drained"));
    char *head = element_text(p1, "<p class=\"unsteady overloaded\">", "</p>");
    assert_string_equal(head, "overloaded: 316 of 1000 ops/s done, busiest server 929.4% busy");
    assert_true(strstr(p1, "unsteady overloaded") < strstr(p1, "<h3>Throughput and latency</h3>"));
    assert_true(strstr(p1, "note drained") > strstr(p1, "<h3>Throughput and latency</h3>"));
    assert_non_null(strstr(p1, "<th>overloaded</th><td>1</td>")); /* every figure */
    assert_null(strstr(p0, "<th>overloaded</th>")); /* 0: not listed */
    free(head);
    free(p0);
    free(p1);
    free(html);
}

/* The region map's server colours are never the heatmaps' "grey =
 * nothing": none is ZERO_COLOUR, and none is a grey at all (its channels
 * within 24 of each other, where the palest colour, lavender #c5b0d5,
 * spans 37; the palette had #7f7f7f and #c7c7c7, which a reader of the
 * heatmaps beside it takes for no server). */
static void test_server_colours_are_not_the_empty_grey(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    unsigned zr, zg, zb;
    assert_int_equal(sscanf(ZERO_COLOUR, "#%2x%2x%2x", &zr, &zg, &zb), 3);
    assert_true(zr == zg && zg == zb); /* the empty cells' colour is a grey */
    size_t n = 0;
    for (int k = 0;; k++) {
        char rule[32];
        snprintf(rule, sizeof rule, ".sv%d{fill:#", k);
        const char *at = strstr(html, rule);
        if (!at)
            break;
        unsigned r, g, b;
        assert_int_equal(sscanf(at + strlen(rule), "%2x%2x%2x", &r, &g, &b), 3);
        unsigned hi = r > g ? (r > b ? r : b) : (g > b ? g : b);
        unsigned lo = r < g ? (r < b ? r : b) : (g < b ? g : b);
        if (hi - lo < 24)
            fail_msg(".sv%d is #%02x%02x%02x, a grey: the heatmaps' grey means nothing", k, r,
                     g, b);
        assert_false(r == zr && g == zg && b == zb);
        n++;
    }
    assert_int_equal(n, 20); /* every colour of the palette was checked */
    free(html);
}

/* A panel's throughput, latency and read cost, from the registry. */
static void test_latency_throughput_and_read_cost(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.runs[1].latency = (latency_summary){ .count = 10, .mean_us = 300, .p50_us = 250,
                                           .p99_us = 1234, .p999_us = 2000, .max_us = 5000 };
    f.runs[1].read_latency = (latency_summary){ .count = 5, .p99_us = 800 };
    f.runs[1].reads_by_kind[QUERY_GET] = 100;
    f.runs[1].reads_by_kind[QUERY_SCAN] = 26;
    f.runs[1].read_rpcs_by_kind[QUERY_GET] = 100;
    f.runs[1].read_rpcs_by_kind[QUERY_SCAN] = 26 * 3;
    char *html = render(&f.res);
    char *run0 = panel(html, 0), *run1 = panel(html, 1);
    assert_non_null(strstr(run1, "<h3>Throughput and latency</h3>"));
    assert_non_null(strstr(run1, "<tr><th>every operation</th><td data-figure=\"mean_latency_us\">"
                                 "300 us</td><td data-figure=\"p50_latency_us\">250 us</td>"
                                 "<td data-figure=\"p99_latency_us\">1.23 ms</td>"));
    assert_non_null(strstr(run1, "<td data-figure=\"read_p99_latency_us\">800 us</td>"));
    assert_non_null(strstr(run1, "<td data-figure=\"max_latency_us\">5 ms</td>"));
    assert_non_null(strstr(run1, "<h3>Read cost</h3>"));
    assert_non_null(strstr(run1, "<tr><th>get</th><td data-figure=\"reads_get\">100</td>"));
    assert_non_null(strstr(run1, "<td data-figure=\"rpcs_per_read_scan\">3.00</td>"));
    assert_non_null(strstr(run1, "<td data-figure=\"read_share_get\">79.4%</td>")); /* 100 / 126 */
    assert_null(strstr(run1, "<tr><th>range</th>")); /* no range reads: no row */
    /* The read cost table fits a panel of the two-column grid (640 px at
     * the least): six columns (kind, reads, share, RPCs/read, rows read,
     * rows/record; measured in headless Chromium, 528 px with 11-digit
     * row counts in a 599 px box), and a box that scrolls (.wide) should
     * a count be longer still, never spilling past the panel's edge. */
    assert_non_null(strstr(html, ".wide{overflow-x:auto}"));
    const char *reads = strstr(run1, "<h3>Read cost</h3>\n<div class=\"wide\"><table class=\"figs "
                                     "costs reads\">");
    assert_non_null(reads);
    char *table = element_text(reads, "<table class=\"figs costs reads\">", "</table>");
    assert_non_null(table);
    char *heads = element_text(table, "<tr>", "</tr>");
    assert_int_equal(count(heads, "<th>"), 6);
    assert_null(strstr(table, "read_rpcs_")); /* totals: in the Figures table */
    assert_null(strstr(table, "records_returned_"));
    assert_non_null(strstr(reads, "</table></div>"));
    free(heads);
    free(table);
    /* Run 0 did not read: latency of every operation only, no read cost. */
    assert_non_null(strstr(run0, "<h3>Throughput and latency</h3>"));
    assert_null(strstr(run0, "read_p99_latency_us"));
    assert_null(strstr(run0, "<h3>Read cost</h3>"));
    free(run0);
    free(run1);
    free(html);
}

/* The regime table: how the span was chosen, and a row per scheme with
 * its warm-up (when it ended, or none, or never) and its measured span;
 * each panel says the same in words. */
static void test_regime_table_and_panel_words(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.res.measure_auto = 1;
    f.res.balancer = "simple";
    f.runs[0].warmup_ended = 1; /* ended at 2 min with 4 regions on 3 servers */
    f.runs[0].warmup_us = f.runs[0].measure_from_us = 120000000;
    f.runs[0].warmup_regions = 4;
    f.runs[0].warmup_servers = 3;
    f.runs[0].measure_regions = 4;
    f.runs[0].measure_servers = f.runs[0].servers_end = 3;
    f.runs[0].bytes_start = 1024;
    f.runs[0].bytes = 4096;
    f.sv[0][0].warmup_writes = 400; /* all on rs0: max/mean 3.00 of 3 */
    f.runs[1].warmup_ended = 1;     /* pre-split: none */
    f.runs[1].warmup_regions = 3;
    f.runs[1].warmup_servers = 3;
    f.runs[2].warmup_ended = 0;     /* never */
    f.runs[2].warmup_us = f.runs[2].duration_us;
    char *html = render(&f.res);
    assert_non_null(strstr(html, "<tr><th>measured</th><td>from the end of each run&#39;s warm-up "
                                 "(measure_from = auto): the first balancer run"));
    const char *table = strstr(html, "<table id=\"regime\">");
    assert_non_null(table);
    assert_true(table < strstr(html, "<section class=\"panel\""));
    char *regime = strndup(table, (size_t)(strstr(table, "</table>") - table));
    assert_int_equal(count(regime, "<tr data-scheme="), 3);
    char *row0 = element_text(regime, "<tr data-scheme=\"monotonic\">", "</tr>");
    assert_non_null(strstr(row0, "<td data-figure=\"warmup_us\">2 min</td><td>4</td>"
                                 "<td data-figure=\"warmup_write_max_mean\">3.00</td>"
                                 "<td data-figure=\"measure_from_us\">2 min</td><td>4 min</td>"
                                 "<td data-figure=\"regions_per_server_start\">1.33</td>"
                                 "<td data-figure=\"regions_per_server_end\">1.00</td>"
                                 "<td data-figure=\"table_bytes_start\">1 KiB</td>"
                                 "<td data-figure=\"bytes\">4 KiB</td>"));
    char *row1 = element_text(regime, "<tr data-scheme=\"" NASTY_ESCAPED "\">", "</tr>");
    assert_non_null(strstr(row1, "<td data-figure=\"warmup_us\">none</td>"));
    assert_non_null(strstr(row1, "<td data-figure=\"warmup_write_max_mean\">-</td>"));
    char *row2 = element_text(regime, "<tr data-scheme=\"idle\">", "</tr>");
    assert_non_null(strstr(row2, "<td data-figure=\"warmup_us\">never</td>"));
    char *run0 = panel(html, 0), *run2 = panel(html, 2);
    assert_non_null(strstr(run0, "warm-up (the growing table) 0-2 min: 4 regions on 3 servers at "
                                 "its end, write max/mean 3.00 during it"));
    assert_non_null(strstr(run0, "measured 2 min-4 min (the table 2 min old at its start): 1.33 "
                                 "-&gt; 1.00 regions per server, 1 KiB -&gt; 4 KiB stored"));
    assert_non_null(strstr(run2, "never left the warm-up"));
    free(run0);
    free(run2);
    free(row0);
    free(row1);
    free(row2);
    free(regime);
    free(html);
}

/* One run uses the page's width and does not speak of comparing schemes. */
static void test_a_single_run_page(void **state)
{
    fixture f;
    fixture_init(&f);
    char *html = render(&f.res);
    assert_non_null(strstr(html, "<main class=\"runs\">"));
    assert_non_null(strstr(html, "schemes compare directly"));
    free(html);
    f.res.nruns = 1;
    html = render(&f.res);
    assert_non_null(strstr(html, "<main class=\"runs one\">"));
    assert_non_null(strstr(html, ".runs.one{display:block}"));
    assert_null(strstr(html, "compare directly"));
    assert_int_equal(count(html, "<section class=\"panel\""), 1);
    assert_int_equal(count(html, "<tr data-scheme="), 2); /* the summary's, the regime's */
    if (xmllint_on(state)) assert_well_formed(html);
    free(html);
}

int main(int argc, char **argv)
{
    static int on = 1;
    if (test_has_arg(argc, argv, "--xmllint")) {
        if (!test_have_xmllint())
            return test_cannot_run("html_xmllint", "xmllint not found (Debian package"
                                   " libxml2-utils; sh setup.sh --tests installs it)", test_in_ci());
        const struct CMUnitTest xmllint_tests[] = {
            cmocka_unit_test(test_page_is_well_formed_xml),
            cmocka_unit_test_prestate(test_many_servers_are_binned_and_summed, &on),
            cmocka_unit_test_prestate(test_figures_across_samples, &on),
            cmocka_unit_test_prestate(test_an_even_run_is_one_shade, &on),
            cmocka_unit_test_prestate(test_a_single_run_page, &on),
        };
        return cmocka_run_group_tests(xmllint_tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_scheme_and_the_config_appear_escaped),
        cmocka_unit_test(test_one_rect_per_heatmap_cell),
        cmocka_unit_test(test_key_rows_ascend_upwards_and_labels_are_keys),
        cmocka_unit_test(test_reads_heatmaps_only_when_the_run_read),
        cmocka_unit_test(test_legends_show_the_shared_maxima),
        cmocka_unit_test(test_top_regions_in_order_of_writes),
        cmocka_unit_test(test_timeline_and_notes),
        cmocka_unit_test(test_balancer_runs_are_listed),
        cmocka_unit_test(test_warm_up_and_steady_state),
        cmocka_unit_test(test_long_keys_leave_out_their_shared_prefix),
        cmocka_unit_test(test_output_is_deterministic),
        cmocka_unit_test(test_long_runs_group_windows),
        cmocka_unit_test(test_a_full_compare_page_stays_small),
        cmocka_unit_test(test_figures_across_samples),
        cmocka_unit_test(test_many_servers_are_binned_and_summed),
        cmocka_unit_test(test_an_even_run_is_one_shade),
        cmocka_unit_test(test_adjacent_key_labels_differ),
        cmocka_unit_test(test_region_table_keys_differ),
        cmocka_unit_test(test_summary_table_at_the_top),
        cmocka_unit_test(test_latency_throughput_and_read_cost),
        cmocka_unit_test(test_an_overloaded_run_is_called_so_first),
        cmocka_unit_test(test_server_colours_are_not_the_empty_grey),
        cmocka_unit_test(test_a_single_run_page),
        cmocka_unit_test(test_regime_table_and_panel_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
