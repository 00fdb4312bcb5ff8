/* test_text.c -- the text report: bars, figures, the compare table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "reports/figures.h"
#include "reports/report.h"
#include "reports/samples.h"
#include "tests/support.h"

/* Two runs on 4 servers: a hot-tail monotonic run and an all-idle run. */
typedef struct fixture {
    server_result hot[4], idle[4];
    uint64_t hot_windows[8];
    char *buckets[3];
    uint64_t key_writes[6], key_reads[6];
    region_result regions[3];
    timeline_event events[4];
    run_result runs[2];
    sim_results res;
} fixture;

static void fixture_init(fixture *f)
{
    static const uint64_t writes[4] = { 100, 400, 50, 0 };
    static const uint64_t regions[4] = { 2, 1, 1, 0 };
    memset(f, 0, sizeof *f);
    for (int s = 0; s < 4; s++) {
        snprintf(f->hot[s].name, sizeof f->hot[s].name, "rs%d", s);
        snprintf(f->idle[s].name, sizeof f->idle[s].name, "rs%d", s);
        f->hot[s].writes = writes[s];
        f->hot[s].regions = regions[s];
    }
    /* window 0: {100, 300, 0, 0}; window 1: {0, 100, 50, 0} */
    const uint64_t win[8] = { 100, 300, 0, 0, 0, 100, 50, 0 };
    memcpy(f->hot_windows, win, sizeof win);

    f->runs[0] = (run_result){
        .scheme_name = "monotonic", .scheme_expr = "ts",
        .key_example = "\\x00\\x00\\x01\\x8B\\xC2\\x1A\\x00\\x00", .presplit = "none",
        .nservers = 4, .servers = f->hot, .writes = 550, .duration_us = 2000000,
        .offered_per_s = 300, .achieved_per_s = 275, .unfinished = 3,
        .latency = { .count = 550, .mean_us = 80, .p50_us = 51, .p99_us = 4200, .p999_us = 950000,
                     .max_us = 999950 },
        .regions_start = 1, .regions = 4, .splits = 3, .moves = 2,
        .key_bytes_min = 8, .key_bytes_max = 8, .key_bytes_mean = 8,
        .window_us = 1000000, .nwindows = 2, .window_writes = f->hot_windows };
    /* Key buckets "", "b", "c": window 0 writes the bottom two, window 1
     * only the top one (a key that climbs). */
    f->buckets[0] = "", f->buckets[1] = "b", f->buckets[2] = "c";
    const uint64_t kw[6] = { 200, 200, 0, 0, 0, 150 };
    memcpy(f->key_writes, kw, sizeof kw);
    f->runs[0].keyspace = (keyspace_heatmap){ .nbuckets = 3, .bucket_start = f->buckets,
                                              .writes = f->key_writes, .reads = f->key_reads,
                                              .sample = 1024, .exact = 1 };
    f->regions[0] = (region_result){ .start = "", .end = "b", .server = 0, .split = 1,
                                     .closed_us = 500000, .writes = 100 };
    f->regions[1] = (region_result){ .start = "", .end = "b", .server = 1, .opened_us = 500000,
                                     .closed_us = 2000000, .writes = 50 };
    f->regions[2] = (region_result){ .start = "b", .end = "", .server = 1, .opened_us = 500000,
                                     .closed_us = 2000000, .writes = 400 };
    f->runs[0].history = f->regions;
    f->runs[0].nhistory = 3;
    f->events[0] = (timeline_event){ .t_us = 500000, .kind = TIMELINE_SPLIT, .key = "b" };
    f->events[1] = (timeline_event){ .t_us = 600000, .kind = TIMELINE_MOVE, .from = 0, .to = 1,
                                     .key = "b" };
    f->events[2] = (timeline_event){ .t_us = 700000, .kind = TIMELINE_MOVE, .from = 1, .to = 0,
                                     .key = "" };
    f->events[3] = (timeline_event){ .t_us = 1500000, .kind = TIMELINE_FAILURE, .from = 2 };
    f->runs[0].events = f->events;
    f->runs[0].nevents = 4;
    f->runs[1] = (run_result){
        .scheme_name = "a-very-long-scheme-name", .scheme_expr = "md5(ts) ts",
        .key_example = "\\xAB\\xCD\\xEF\\x01\\x23\\x45\\x67\\x89abcdef", .presplit = "8 buckets",
        .nservers = 4, .servers = f->idle, .regions_start = 8, .regions = 8 };
    f->res = (sim_results){
        .scenario = "default", .seed = 42, .servers = 4, .split_policy = "size",
        .region_max_bytes = 4u << 20, .balancer = "region-count",
        .balancer_period_us = 300000000, .balancer_first_us = 184230954, .window_us = 1000000,
        .workload = "time series, 10 metrics at 300/s", .cell_overhead_bytes = 40,
        .nruns = 2, .runs = f->runs };
}

/* What a writer printed, as a malloc'd string. */
typedef void (*writer)(FILE *, const fixture *);

static char *capture(writer fn, const fixture *f)
{
    /* The stream's pointers live on the heap, not in this frame: GCC would
     * otherwise take the returned text for a pointer into the frame. */
    struct { char *buf; size_t len; } *m = calloc(1, sizeof *m);
    assert_non_null(m);
    FILE *out = open_memstream(&m->buf, &m->len);
    assert_non_null(out);
    fn(out, f);
    assert_int_equal(fclose(out), 0);
    char *text = m->buf;
    free(m);
    return text;
}

static void write_hot_run(FILE *out, const fixture *f) { text_write_run(out, &f->res, &f->runs[0], 40, 0); }
static void write_idle_run(FILE *out, const fixture *f) { text_write_run(out, &f->res, &f->runs[1], 40, 0); }
static void write_compare(FILE *out, const fixture *f) { text_write_compare(out, &f->res, 0); }
static void write_hot_run_in_color(FILE *out, const fixture *f) { text_write_run(out, &f->res, &f->runs[0], 40, 1); }
static void write_compare_in_color(FILE *out, const fixture *f) { text_write_compare(out, &f->res, 1); }

/* The line that starts (after indentation) with `prefix`, copied, or NULL. */
static char *line_starting(const char *text, const char *prefix)
{
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *q = p;
        while (*q == ' ') q++;
        if (strncmp(q, prefix, strlen(prefix)) == 0) {
            char *line = malloc(len + 1);
            memcpy(line, p, len);
            line[len] = '\0';
            return line;
        }
        p += len + (end != NULL);
    }
    return NULL;
}

/* Block characters (U+2588..U+258F, three bytes each) in s. */
static int bar_blocks(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if ((unsigned char)s[0] == 0xE2 && (unsigned char)s[1] == 0x96 &&
            (unsigned char)s[2] >= 0x88 && (unsigned char)s[2] <= 0x8F)
            n++;
    return n;
}

static void test_run_has_a_line_per_server_and_the_hottest_bar_is_longest(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = capture(write_hot_run, &f);
    const char *expect[4] = { "100  18.2%    2 regions", "400  72.7%    1 region",
                              " 50   9.1%    1 region", "  0   0.0%    0 regions" };
    int blocks[4];
    for (int s = 0; s < 4; s++) {
        char prefix[8];
        snprintf(prefix, sizeof prefix, "rs%d ", s);
        char *line = line_starting(text, prefix);
        assert_non_null(line);
        assert_non_null(strstr(line, expect[s]));
        blocks[s] = bar_blocks(line);
        free(line);
    }
    assert_int_equal(blocks[1], 40);             /* the longest bar is width */
    assert_true(blocks[0] > blocks[2] && blocks[2] > 0);
    assert_int_equal(blocks[3], 0);
    assert_true(blocks[1] > blocks[0]);

    /* 550 writes, mean 137.5: max/mean 400/137.5 = 2.91; Jain
     * 550^2 / (4 * (100^2 + 400^2 + 50^2)) = 0.44. Windows: 300*4/400 = 3.00
     * and 100*4/150 = 2.67; mean 2.83. */
    assert_non_null(strstr(text, "max/mean 2.91"));
    assert_non_null(strstr(text, "Jain 0.44"));
    assert_non_null(strstr(text, "hottest rs1 72.7%"));
    assert_non_null(strstr(text, "per-window max/mean: mean 2.83, worst 3.00 over 2 windows"));
    assert_non_null(strstr(text, "regions 1 -> 4, 3 splits, 2 moves"));
    assert_non_null(strstr(text, "300 ops/s offered, 275 done (3 unfinished)"));
    assert_null(strstr(text, "left out")); /* nothing of a trace left out */
    /* The server x time heatmap: windows {100, 300, 0, 0} and {0, 100, 50, 0};
     * rs1's first window is the hottest cell (full block), rs3 wrote
     * nothing (blank), rs0 wrote only in the first window. */
    assert_non_null(strstr(text, "writes per server over time (a column = 1 s"));
    char *h1 = line_starting(text, "rs1 |"), *h3 = line_starting(text, "rs3 |");
    char *h0 = line_starting(text, "rs0 |"), *h2 = line_starting(text, "rs2 |");
    assert_non_null(h1);
    assert_non_null(h3);
    assert_non_null(h0);
    assert_non_null(h2);
    assert_non_null(strstr(h1, "|\xE2\x96\x88\xE2\x96\x92|")); /* 300 of 300, then 100 */
    assert_non_null(strstr(h3, "|  |"));
    assert_non_null(strstr(h0, "|\xE2\x96\x92 |")); /* 100 of 300, then nothing */
    assert_non_null(strstr(h2, "| \xE2\x96\x91|")); /* nothing, then 50: light */
    free(h0);
    free(h2);
    free(h1);
    free(h3);
    assert_non_null(strstr(text, "latency p50 51 us  p99 4.2 ms  p99.9 950 ms  max 1 s"));
    assert_non_null(strstr(text, "4 MiB"));                       /* the header */
    assert_non_null(strstr(text, "4 = all writes on one server")); /* the legend */
    free(text);
}

/* A trace cut short by the duration says how many operations it left out. */
static void test_trace_left_out_is_said(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.runs[0].left_out = 14437;
    char *text = capture(write_hot_run, &f);
    assert_non_null(strstr(text, "\n  14437 operations of the trace came after the duration: left out\n"));
    free(text);
}

/* An overloaded run is named before every table of the compare report and
 * under its heading in the run view, with done/offered; a p99 longer than
 * the run is explained beside the latency figures. One that keeps up says
 * neither. */
static void test_overload_first_and_latency_past_the_run(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f); /* monotonic: 275 of 300 ops/s done, 3 unfinished in 2 s */
    f.hot[1].busy = 1.5;
    f.runs[0].latency.p99_us = 3000000;
    f.runs[0].latency.p999_us = f.runs[0].latency.max_us = 3100000;
    char *text = capture(write_compare, &f);
    const char *block = strstr(text, "\noverloaded (a server over 100% busy, or under 99% of the "
                                     "offered operations done):\n  monotonic: overloaded: 275 of "
                                     "300 ops/s done, busiest server 150.0% busy\n\n");
    assert_non_null(block);
    assert_true(block < strstr(text, "where the writes land"));
    const char *cost = strstr(text, "what it costs");
    const char *note = strstr(text, "\n  monotonic: p99 3 s is longer than the 2 s run:\n    3 "
                                    "operations were still queued at its end and drained after "
                                    "it, with no new arrivals\n");
    assert_non_null(note);
    assert_true(cost < note && note < strstr(text, "\nevery figure, a column"));
    free(text);
    text = capture(write_hot_run, &f);
    assert_non_null(strstr(text, "(pre-split none)\n  overloaded: 275 of 300 ops/s done, "
                                 "busiest server 150.0% busy\n  example key"));
    assert_non_null(strstr(text, "max 3.1 s\n  p99 3 s is longer than the 2 s run:\n    3 "
                                 "operations were"));
    free(text);

    /* keeping up: 297 of 300 done (99%), 100% busy, every latency within the run */
    f.runs[0].achieved_per_s = 297;
    f.hot[1].busy = 1.0;
    f.runs[0].latency.p99_us = f.runs[0].latency.p999_us = f.runs[0].latency.max_us = 2000000;
    text = capture(write_compare, &f);
    assert_null(strstr(text, "overloaded ("));
    assert_null(strstr(text, "overloaded:"));
    assert_null(strstr(text, "longer than"));
    free(text);
    text = capture(write_hot_run, &f);
    assert_null(strstr(text, "overloaded:"));
    assert_null(strstr(text, "longer than"));
    free(text);
}

/* The bars count the table's regions; hbase:meta's server says so at the
 * end of its line, no other does. */
static void test_meta_is_shown_apart(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.hot[2].system_regions = 1;
    char *text = capture(write_hot_run, &f);
    const char *line = strstr(text, "\n  rs2 ");
    assert_non_null(line);
    const char *end = strchr(line + 1, '\n');
    const char *meta = strstr(text, "  + hbase:meta\n");
    assert_non_null(meta);
    assert_true(meta > line && meta < end);
    assert_null(strstr(meta + strlen("  + hbase:meta"), "hbase:meta"));
    free(text);
}

static void test_idle_run_prints_dashes(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = capture(write_idle_run, &f);
    assert_non_null(strstr(text, "max/mean -  CoV -  Gini -  Jain -"));
    assert_non_null(strstr(text, "mean -, worst - over 0 windows"));
    assert_int_equal(bar_blocks(text), 0);
    free(text);
}

static void test_compare_echoes_config_and_aligns_rows(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = capture(write_compare, &f);
    assert_non_null(strstr(text, "4 servers"));
    assert_non_null(strstr(text, "4 MiB"));
    assert_non_null(strstr(text, "every 5 min, first at 3.1 min;")); /* the chores' phase */
    assert_non_null(strstr(text, "window 1 s"));
    assert_non_null(strstr(text, "seed 42"));
    assert_non_null(strstr(text, "4 = all writes on one server"));
    assert_non_null(strstr(text, "time series, 10 metrics at 300/s"));

    /* the first table (the fixture's monotonic is overloaded: a line
     * before it names it too) */
    const char *table = strstr(text, "where the writes land");
    assert_non_null(table);
    char *header = line_starting(table, "scheme");
    char *hot = line_starting(table, "monotonic");
    char *idle = line_starting(table, "a-very-long");
    assert_non_null(header);
    assert_non_null(hot);
    assert_non_null(idle);
    /* Columns line up: all three lines have the same length (ASCII only). */
    assert_int_equal(strlen(header), strlen(hot));
    assert_int_equal(strlen(header), strlen(idle));
    assert_true(strlen(header) <= 100);
    assert_non_null(strstr(hot, "2.91"));
    assert_non_null(strstr(hot, "72.7%"));
    /* Long names and keys are cut with "...", never inside a \xNN escape. */
    assert_non_null(strstr(idle, "a-very-long-..."));
    assert_non_null(strstr(idle, "\\xAB\\xCD\\xEF..."));
    assert_null(strstr(text, "a-very-long-scheme-name"));

    /* The second table: throughput and latency, aligned the same way. */
    const char *cost_at = strstr(text, "what it costs");
    assert_non_null(cost_at);
    char *cost = strdup(cost_at);
    char *cost_header = line_starting(cost, "scheme");
    char *cost_hot = line_starting(cost, "monotonic");
    char *cost_idle = line_starting(cost, "a-very-long");
    assert_non_null(cost_hot);
    assert_non_null(cost_idle);
    assert_int_equal(strlen(cost_header), strlen(cost_hot));
    assert_int_equal(strlen(cost_header), strlen(cost_idle));
    assert_non_null(strstr(cost_hot, " 300 "));    /* offered */
    assert_non_null(strstr(cost_hot, " 275 "));    /* done */
    assert_non_null(strstr(cost_hot, "4.2 ms"));   /* p99 */
    assert_non_null(strstr(cost_hot, "950 ms"));   /* p99.9 */
    assert_non_null(strstr(cost_idle, " - "));     /* no latency without operations */
    free(cost);
    free(cost_header);
    free(cost_hot);
    free(cost_idle);
    free(header);
    free(hot);
    free(idle);
    free(text);
}


/* The key space heatmap puts the highest bucket on top, labelled by its
 * first key; the hottest regions come hottest first; the timeline counts
 * events per column and lists server events. */
static void test_run_draws_key_space_regions_and_timeline(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = capture(write_hot_run, &f);
    assert_non_null(strstr(text, "writes over the key space"));
    const char *top = strstr(text, "c           |"), *mid = strstr(text, "b           |");
    const char *bottom = strstr(text, "(first key) |");
    assert_non_null(top);
    assert_non_null(mid);
    assert_non_null(bottom);
    assert_true(top < mid && mid < bottom); /* keys go up */
    /* 200 of 200 then nothing; nothing then 150 of 200 (dark shade) */
    assert_non_null(strstr(bottom, "|\xE2\x96\x88 |"));
    assert_non_null(strstr(top, "| \xE2\x96\x93|"));
    /* hottest regions: [b, +inf) with 400 of 550 writes first */
    const char *table = strstr(text, "hottest regions (of 3 the run had)");
    assert_non_null(table);
    char *first = line_starting(table, "start");
    assert_non_null(first);
    free(first);
    const char *row1 = strstr(table, "\n    b ");
    const char *row2 = strstr(table, "\n    -inf ");
    assert_non_null(row1);
    assert_non_null(row2);
    assert_true(row1 < row2);
    assert_non_null(strstr(row1, "72.7%"));
    assert_non_null(strstr(row1, "+inf"));
    assert_non_null(strstr(row2, "split"));
    /* the timeline: a split and two moves in the first second, a failure in the second */
    char *splits = line_starting(text, "splits");
    char *moves = line_starting(text, "moves");
    char *servers = line_starting(text, "servers ");
    assert_non_null(splits);
    assert_non_null(moves);
    assert_non_null(servers);
    assert_non_null(strstr(splits, "|1 |"));
    assert_non_null(strstr(moves, "|2 |"));
    assert_non_null(strstr(servers, "| F|"));
    assert_non_null(strstr(text, "at 0m01s rs2 failed"));
    free(splits);
    free(moves);
    free(servers);
    assert_null(strchr(text, '\x1b')); /* no colour unless asked */
    free(text);
}

/* measure_from: the header says so, the heatmaps mark where measuring
 * starts (the second of the two 1 s columns), the counts say "measured". */
static void test_measured_run_is_marked(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.runs[0].measure_from_us = 1000000;
    f.res.measure_from_us = 1000000;
    char *text = capture(write_hot_run, &f);
    assert_non_null(strstr(text, "measured  from 1 s on"));
    assert_non_null(strstr(text, "in the 1 s measured (of 2 s)"));
    char *mark = line_starting(text, "^ measured from 1 s");
    assert_non_null(mark);
    free(mark);
    /* the caret sits under the second column: label, " |", one cell */
    const char *row = strstr(text, "\n  rs0 |");
    const char *caret = strstr(text, "^ measured from");
    assert_non_null(row);
    const char *line = caret;
    while (line > text && line[-1] != '\n') line--;
    assert_int_equal(caret - line, strlen("  rs0 |") + 1);
    free(text);
}

/* The regime: the header says how the span was chosen (auto: each run's
 * warm-up's end), the compare report has a row per scheme (its warm-up:
 * when it ended, or none, or never; its span, regions per server and
 * bytes), the run view two lines under its counts. */
static void test_regime_is_stated(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.res.measure_auto = 1;
    run_result *hot = &f.runs[0], *idle = &f.runs[1];
    hot->measure_auto = idle->measure_auto = 1;
    hot->warmup_ended = 1; /* ended at 1 s with 4 regions on 4 servers */
    hot->warmup_us = hot->measure_from_us = 1000000;
    hot->warmup_regions = hot->measure_regions = 4;
    hot->warmup_servers = hot->measure_servers = hot->servers_end = 4;
    hot->bytes_start = 2048;
    hot->bytes = 8192;
    f.hot[1].warmup_writes = 300; /* rs0 100, rs1 300: max/mean 300 / 100 = 3.00 */
    f.hot[0].warmup_writes = 100;
    idle->warmup_ended = 0;       /* never: measured whole */
    idle->warmup_regions = 8;
    idle->warmup_servers = idle->measure_servers = idle->servers_end = 4;
    char *text = capture(write_compare, &f);
    assert_contains(text, "\nmeasured  from the end of each run's warm-up (measure_from = auto): "
                          "the first balancer run at which its table had a region per server\n");
    char *regime = strstr(text, "\nthe regime measured");
    assert_non_null(regime);
    char *hot_row = line_starting(regime, "monotonic ");
    assert_non_null(hot_row);
    assert_contains(hot_row, " 1 s       4     3.00  1 s  2 s   1.00 -> 1.00 2 KiB -> 8 KiB");
    char *idle_row = line_starting(regime, "a-very-long-");
    assert_non_null(idle_row);
    assert_contains(idle_row, "    never       -"); /* warmup_regions: undefined when it never ended */
    free(hot_row);
    free(idle_row);
    free(text);
    text = capture(write_hot_run, &f);
    assert_contains(text, "\n  warm-up (the growing table) 0-1 s: 4 regions on 4 servers at its "
                          "end, write max/mean 3.00 during it\n  measured 1 s-2 s (the table 1 s "
                          "old at its start): 1.00 -> 1.00 regions per server, 2 KiB -> 8 KiB "
                          "stored\n");
    free(text);
    text = capture(write_idle_run, &f);
    assert_contains(text, "\n  never left the warm-up: 8 regions on 4 servers at the end; every "
                          "figure is of the growing table\n");
    free(text);
}

/* Colour: escapes only when asked, always reset on the same line. */
static void test_color_only_when_asked(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *plain = capture(write_compare, &f), *text = capture(write_hot_run_in_color, &f);
    char *panels = capture(write_compare_in_color, &f);
    assert_null(strchr(plain, '\x1b'));
    assert_non_null(strstr(text, "\x1b[38;5;196m")); /* the hottest shade is red */
    assert_non_null(strstr(panels, "\x1b[38;5;"));
    for (const char *t = text; (t = strstr(t, "\x1b[38;5;")) != NULL; t++) {
        const char *eol = strchr(t, '\n'), *reset = strstr(t, "\x1b[0m");
        assert_non_null(reset);
        assert_true(reset < eol);
    }
    free(plain);
    free(text);
    free(panels);
}

/* Compare: one panel per run, side by side, on one scale. */
static void test_compare_draws_panels_on_one_scale(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.runs[1].window_writes = f.hot_windows; /* give the second run a picture too */
    f.runs[1].nwindows = 2;
    f.runs[1].window_us = 1000000;
    char *text = capture(write_compare, &f);
    const char *panels = strstr(text, "one panel per scheme");
    assert_non_null(panels);
    char *titles = line_starting(panels, "monotonic");
    assert_non_null(titles);
    assert_non_null(strstr(titles, "a-very-long-sch...")); /* side by side, cut */
    free(titles);
    char *rs1 = line_starting(panels, "rs1 |");
    assert_non_null(rs1);
    /* both panels on one line, both with the hottest cell's full block */
    assert_non_null(strstr(rs1, "|\xE2\x96\x88\xE2\x96\x92|"));
    assert_non_null(strstr(strstr(rs1, "\xE2\x96\x92|") + 4, "|\xE2\x96\x88\xE2\x96\x92|"));
    free(rs1);
    assert_non_null(strstr(panels, "every panel on one scale"));
    assert_non_null(strstr(panels, "<= 300")); /* the scale's top: the hottest cell */
    free(text);
}

static void test_output_is_deterministic(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *a = capture(write_compare, &f), *b = capture(write_compare, &f);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* The registry's figures: a block in run (two to a line, lines within 100
 * columns, no trailing blanks), a matrix per server, and in compare a row
 * per figure with a column per scheme, figures 0 everywhere listed after. */
static void test_figures_tables(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *run = capture(write_hot_run, &f);
    const char *block = strstr(run, "  figures (regionsim figures says what each means):\n");
    assert_non_null(block);
    char *line = line_starting(block, "writes ");
    assert_non_null(line);
    assert_non_null(strstr(line, " 550 count"));
    free(line);
    line = line_starting(block, "write_max_mean ");
    assert_non_null(line);
    assert_non_null(strstr(line, " 2.91 "));
    free(line);
    line = line_starting(block, "server_writes ");
    assert_non_null(line);
    assert_non_null(strstr(line, "count"));
    free(line);
    for (const char *p = block; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        assert_true(len == 0 || p[len - 1] != ' ');
        p += len + (end != NULL);
    }
    free(run);

    char *cmp = capture(write_compare, &f);
    const char *every = strstr(cmp, "\nevery figure, a column per scheme");
    assert_non_null(every);
    line = line_starting(every, "write_max_mean ");
    assert_non_null(line);
    assert_non_null(strstr(line, " 2.91 "));
    assert_non_null(strstr(line, " -")); /* the idle run */
    free(line);
    assert_non_null(strstr(every, "0 or undefined in every run:"));
    assert_non_null(strstr(every, " reads_get"));
    free(cmp);
}

/* f as three samples (seeds 42..44): the fixture, then the hot run with
 * its 550 writes even ({100, 100, 100, 100}: max/mean 1.00) and all on rs1
 * ({0, 550, 0, 0}: 4.00) beside the fixture's 2.91. The idle run is the
 * same in each (write_max_mean undefined). Frees nothing: the caller
 * frees f->res.sample_values. */
static void three_samples(fixture *f)
{
    static const uint64_t writes[2][4] = { { 100, 100, 100, 100 }, { 0, 550, 0, 0 } };
    fixture_init(f);
    assert_int_equal(samples_begin(&f->res, 3), 0);
    for (int k = 0; k < 2; k++) {
        fixture other;
        fixture_init(&other);
        for (int s = 0; s < 4; s++) other.hot[s].writes = writes[k][s];
        samples_record(&f->res, (uint32_t)k + 1, &other.res);
    }
}

/* How many figures of the registry are server figures. */
static size_t server_figure_count(void)
{
    size_t n = 0;
    for (const figure *f = figure_first(FIGURE_SERVER); f; f = figure_next(f))
        n++;
    return n;
}

/* "median [min, max]" of write_max_mean for run `run` of res, as
 * samples_spread gives it, with the figure's decimals. */
static void expected_spread(char *buf, size_t cap, const sim_results *res, size_t run)
{
    const figure *fig = figure_find("write_max_mean");
    assert_non_null(fig);
    figure_spread s = samples_spread(fig, res, run);
    assert_int_equal(s.defined, 3);
    snprintf(buf, cap, "%.*f [%.*f, %.*f]", fig->decimals, s.median, fig->decimals, s.min,
             fig->decimals, s.max);
}

/* With samples, compare and run say which seeds ran and add a section of
 * every figure's "median [min, max]" across them, a column per scheme;
 * the tables of one run stay the first sample's. */
static void test_samples_section(void **state)
{
    (void)state;
    fixture f;
    three_samples(&f);
    char want[128];
    expected_spread(want, sizeof want, &f.res, 0);
    assert_string_equal(want, "2.91 [1.00, 4.00]"); /* by hand: 400/137.5, 1, 550/137.5 */

    char *cmp = capture(write_compare, &f);
    assert_non_null(strstr(cmp, "\nsamples   3 (seeds 42..44); tables of one run show seed 42\n"));
    const char *section = strstr(cmp, "\nacross 3 samples (seeds 42..44): median [min, max] of "
                                      "the figures that vary\n");
    assert_non_null(section);
    assert_true(section > strstr(cmp, "\nevery figure, a column per scheme"));
    char *line = line_starting(section, "write_max_mean ");
    assert_non_null(line);
    assert_non_null(strstr(line, want));
    assert_true(strlen(line) >= 2 && !strcmp(line + strlen(line) - 2, " -")); /* the idle run */
    free(line);
    line = line_starting(section, "write_gini "); /* another figure that varies */
    assert_non_null(line);
    assert_non_null(strstr(line, "[0.00, 0.75]"));
    free(line);
    /* writes are 550 in every sample: no row, counted with the others */
    line = line_starting(section, "writes ");
    assert_null(line);
    char others[96];
    size_t varying = 5; /* write_max_mean, _cov, _gini, _jain, hottest_share */
    snprintf(others, sizeof others, "\n  the other %zu figures print the same in every sample",
             (size_t)figure_count() - varying - (size_t)server_figure_count());
    assert_non_null(strstr(section, others));
    for (const char *p = section + 1; *p;) { /* ASCII: bytes are columns */
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        assert_true(len <= 100);
        p += len + (end != NULL);
    }
    line = line_starting(cmp, "monotonic "); /* the balance table: the first sample */
    assert_non_null(line);
    assert_non_null(strstr(line, " 2.91 "));
    free(line);
    free(cmp);

    char *run = capture(write_hot_run, &f);
    assert_non_null(strstr(run, "\nsamples   3 (seeds 42..44); tables of one run show seed 42\n"));
    section = strstr(run, "\n  across 3 samples (seeds 42..44): median [min, max] of the "
                          "figures that vary\n");
    assert_non_null(section);
    line = line_starting(section, "write_max_mean ");
    assert_non_null(line);
    assert_non_null(strstr(line, want));
    assert_null(strstr(line, " -")); /* the run alone: no idle column */
    free(line);
    assert_non_null(strstr(run, "max/mean 2.91")); /* the histogram's: the first sample */
    free(run);
    free(f.res.sample_values);
}

/* At 100 servers (past 32): the histogram lists the 16 busiest, busiest
 * first, and the rest in one line with their min, median, max and share;
 * the heatmap has a row per group of 4 servers, shaded by the busiest;
 * the per-server figures have the 16 busiest as columns. */
static void test_many_servers_are_summed_up(void **state)
{
    (void)state;
    enum { N = 100, W = 3 };
    static server_result servers[N];
    static uint64_t windows[W * N];
    memset(servers, 0, sizeof servers);
    memset(windows, 0, sizeof windows);
    uint64_t total = 0;
    for (int s = 0; s < N; s++) {
        snprintf(servers[s].name, sizeof servers[s].name, "rs%d", s);
        servers[s].writes = s == 57 ? 5000 : (uint64_t)(10 + s % 7); /* rs57 is hot */
        servers[s].regions = 1;
        total += servers[s].writes;
        windows[1 * N + s] = servers[s].writes; /* all in window 1 */
    }
    run_result run = { .scheme_name = "hot", .scheme_expr = "ts", .key_example = "k",
                       .presplit = "none", .nservers = N, .servers = servers, .writes = total,
                       .duration_us = 3000000, .window_us = 1000000, .nwindows = W,
                       .window_writes = windows };
    sim_results res = { .scenario = "many", .seed = 1, .servers = N, .split_policy = "size",
                        .balancer = "none", .window_us = 1000000, .workload = "w",
                        .nruns = 1, .runs = &run };
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    text_write_run(out, &res, &run, 40, 0);
    assert_int_equal(fclose(out), 0);

    assert_non_null(strstr(buf, "\n  the 16 busiest of 100 servers:\n  rs57 "));
    /* the rest, by a reference: take the 16 largest (ties: lower index),
     * then sort what is left */
    int taken[N] = { 0 };
    for (int k = 0; k < 16; k++) {
        int best = -1;
        for (int s = 0; s < N; s++)
            if (!taken[s] && (best < 0 || servers[s].writes > servers[best].writes))
                best = s;
        taken[best] = 1;
    }
    uint64_t left[N], sum = 0;
    int nleft = 0;
    for (int s = 0; s < N; s++)
        if (!taken[s]) sum += left[nleft++] = servers[s].writes;
    for (int i = 0; i < nleft; i++)
        for (int j = i + 1; j < nleft; j++)
            if (left[j] < left[i]) { uint64_t t = left[i]; left[i] = left[j]; left[j] = t; }
    char *line = line_starting(buf, "... the other 84 servers:");
    assert_non_null(line);
    char want[160];
    snprintf(want, sizeof want, "%" PRIu64 " min, %" PRIu64 " median, %" PRIu64 " max; %.1f%% "
             "of the total", left[0], left[nleft / 2], left[nleft - 1],
             100.0 * (double)sum / (double)total);
    if (!strstr(line, want)) fail_msg("'%s' lacks '%s'", line, want);
    free(line);
    assert_null(line_starting(buf, "rs0 ")); /* not among the busiest */
    /* heatmap: 25 rows of 4 servers; rs57 is in rs56-rs59 */
    assert_non_null(strstr(buf, "a row = 4 servers, shaded by the busiest"));
    line = line_starting(buf, "rs56-rs59 ");
    assert_non_null(line);
    free(line);
    line = line_starting(buf, "rs96-rs99 ");
    assert_non_null(line);
    free(line);
    assert_null(line_starting(buf, "rs1 "));
    assert_non_null(strstr(buf, "figures per server, the 16 with the most writes of 100"));
    free(buf);
}

/* One sample (as every run before --samples): no samples line, no section. */
static void test_no_samples_section_for_one_sample(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *cmp = capture(write_compare, &f), *run = capture(write_hot_run, &f);
    assert_int_equal(samples_begin(&f.res, 1), 0); /* begun with one: the same */
    char *cmp1 = capture(write_compare, &f);
    const char *texts[3] = { cmp, run, cmp1 };
    for (int i = 0; i < 3; i++) {
        assert_null(strstr(texts[i], "samples   "));
        assert_null(strstr(texts[i], "across "));
        assert_null(strstr(texts[i], "every sample"));
    }
    assert_string_equal(cmp, cmp1);
    free(cmp);
    free(cmp1);
    free(run);
    free(f.res.sample_values);
}

/* With samples, the compare tables hold each figure's median across the
 * seeds, not the first seed's value, and a range line under a scheme
 * names the figures the seeds move; the run view adds its headline
 * figures as "median [min-max]". Here seeds 43 and 44 spread the hot
 * run's writes evenly (1.00) while seed 42 has them 2.91: the median is
 * 1.00. */
/* Overload is judged on the medians across seeds, as every verdict: seed
 * 42's run alone overloaded (its busiest server 150% busy) is not called
 * overloaded when the other two seeds kept up; two of three are. */
static void test_overload_on_the_median_of_seeds(void **state)
{
    (void)state;
    for (int overloaded_others = 0; overloaded_others < 2; overloaded_others++) {
        fixture f;
        fixture_init(&f);
        f.hot[1].busy = 1.5; /* seed 42's run: overloaded */
        assert_int_equal(samples_begin(&f.res, 3), 0);
        for (int k = 0; k < 2; k++) {
            fixture other;
            fixture_init(&other);
            other.hot[1].busy = k == 0 && overloaded_others ? 1.6 : 0.5;
            other.runs[0].achieved_per_s = other.runs[0].offered_per_s;
            samples_record(&f.res, (uint32_t)k + 1, &other.res);
        }
        char *cmp = capture(write_compare, &f);
        const char *named = strstr(cmp, "\n  monotonic: overloaded: ");
        if (overloaded_others)
            assert_non_null(named); /* 2 of 3: the median is */
        else
            assert_null(named);     /* 1 of 3: the median is not */
        free(cmp);
        free(f.res.sample_values);
    }
}

static void test_tables_show_the_median(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    assert_int_equal(samples_begin(&f.res, 3), 0);
    for (int k = 0; k < 2; k++) {
        fixture other;
        fixture_init(&other);
        for (int s = 0; s < 4; s++) other.hot[s].writes = 100;
        samples_record(&f.res, (uint32_t)k + 1, &other.res);
    }
    char *cmp = capture(write_compare, &f);
    assert_non_null(strstr(cmp, "\nwhere the writes land\n(each figure the median of 3 seeds, "
                                "42..44; range: min-max of those the seed moves)\n"));
    char *line = line_starting(cmp, "monotonic ");
    assert_non_null(line);
    assert_non_null(strstr(line, " 1.00 "));
    assert_null(strstr(line, " 2.91 ")); /* not the first seed's */
    free(line);
    const char *after = strstr(cmp, "\nmonotonic ");
    assert_non_null(after);
    after = strchr(after + 1, '\n');
    assert_true(!strncmp(after, "\n  range: max/mean 1.00-2.91, ", 30));
    assert_non_null(strstr(cmp, "one panel per scheme (seed 42's run; "));
    free(cmp);

    char *run = capture(write_hot_run, &f);
    assert_non_null(strstr(run, "\n  seed 42's run (its figures across every seed after it):\n"));
    assert_non_null(strstr(run, "\n  across 3 seeds (42..44), median [min-max]:\n"
                                "    max/mean 1.00 [1.00-2.91]  "));
    assert_non_null(strstr(run, "max/mean 2.91  CoV")); /* seed 42's own line stays */
    free(run);
    free(f.res.sample_values);

    fixture one; /* one sample: neither */
    fixture_init(&one);
    cmp = capture(write_compare, &one);
    assert_null(strstr(cmp, "range:"));
    assert_null(strstr(cmp, "median"));
    assert_null(strstr(cmp, "seed 42's run"));
    free(cmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_has_a_line_per_server_and_the_hottest_bar_is_longest),
        cmocka_unit_test(test_meta_is_shown_apart),
        cmocka_unit_test(test_idle_run_prints_dashes),
        cmocka_unit_test(test_trace_left_out_is_said),
        cmocka_unit_test(test_overload_first_and_latency_past_the_run),
        cmocka_unit_test(test_compare_echoes_config_and_aligns_rows),
        cmocka_unit_test(test_run_draws_key_space_regions_and_timeline),
        cmocka_unit_test(test_measured_run_is_marked),
        cmocka_unit_test(test_regime_is_stated),
        cmocka_unit_test(test_color_only_when_asked),
        cmocka_unit_test(test_compare_draws_panels_on_one_scale),
        cmocka_unit_test(test_output_is_deterministic),
        cmocka_unit_test(test_figures_tables),
        cmocka_unit_test(test_samples_section),
        cmocka_unit_test(test_overload_on_the_median_of_seeds),
        cmocka_unit_test(test_tables_show_the_median),
        cmocka_unit_test(test_no_samples_section_for_one_sample),
        cmocka_unit_test(test_many_servers_are_summed_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
