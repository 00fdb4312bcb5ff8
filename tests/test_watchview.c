/* test_watchview.c -- what `regionsim watch` draws at a moment of a run
 * (reports/watchview.c): the cluster rebuilt at time t, the hot server
 * marked, bars to scale, the clock, lines within the screen, no escape
 * without colour, and the plain progress line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "reports/watchview.h"

#define S 1000000ull /* a second in microseconds */

/* 4 servers, three 1-minute windows:
 *   window 0: rs0 80             (the largest count: the bars' scale)
 *   window 1: rs3 40
 *   window 2: rs0 10, rs1 10, rs2 60
 * a split on rs0 at 0:30, the balancer moving the new region to rs3 at
 * 1:00, a split on rs3 at 1:30: 1 region on rs0 and 2 on rs3 at the end. */
typedef struct fixture {
    server_result servers[4];
    uint64_t windows[12];
    timeline_event events[4];
    balancer_report balancer;
    run_result run;
} fixture;

static void fixture_init(fixture *f)
{
    static const uint64_t win[12] = { 80, 0, 0, 0, 0, 0, 0, 40, 10, 10, 60, 0 };
    static const uint64_t regions[4] = { 1, 0, 0, 2 };
    memset(f, 0, sizeof *f);
    memcpy(f->windows, win, sizeof win);
    for (int s = 0; s < 4; s++) {
        snprintf(f->servers[s].name, sizeof f->servers[s].name, "rs%d", s);
        f->servers[s].regions = regions[s];
        for (int w = 0; w < 3; w++)
            f->servers[s].writes += win[w * 4 + s];
    }
    f->events[0] = (timeline_event){ .t_us = 30 * S, .kind = TIMELINE_SPLIT, .from = 0,
                                     .key = "b" };
    f->events[1] = (timeline_event){ .t_us = 60 * S, .kind = TIMELINE_MOVE, .from = 0, .to = 3,
                                     .key = "b" };
    f->events[2] = (timeline_event){ .t_us = 60 * S, .kind = TIMELINE_BALANCER, .balancer = 0 };
    f->events[3] = (timeline_event){ .t_us = 90 * S, .kind = TIMELINE_SPLIT, .from = 3,
                                     .key = "c" };
    f->balancer = (balancer_report){ .kind = BALANCER_SIMPLE, .ran = 1,
                                     .reason = BALANCER_IDLE_SERVER, .servers = 4, .regions = 2,
                                     .moves = 1, .least = 0, .most = 2, .average = 0.5 };
    f->run = (run_result){ .scheme_name = "monotonic", .scheme_expr = "ts", .nservers = 4,
                           .servers = f->servers, .writes = 200, .duration_us = 180 * S,
                           .regions_start = 1, .regions = 3, .splits = 2, .moves = 1,
                           .balancer_runs = 1, .balancer_log = &f->balancer,
                           .window_us = 60 * S, .nwindows = 3, .window_writes = f->windows,
                           .nevents = 4, .events = f->events };
}

/* The frame at t, as a string (the caller frees it). */
static char *frame(const fixture *f, uint64_t t, int color, int width, int height)
{
    watchview v = { &f->run, "default", 42, t, 60, 0, 0, color, 1, width, height };
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    assert_int_equal(watchview_frame(m, &v), 0);
    assert_int_equal(fclose(m), 0);
    return text;
}

/* The line of the frame that starts with `prefix` (a copy without its
 * newline, or NULL); escapes before it are skipped. */
static char *line_starting(const char *text, const char *prefix)
{
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *q = p;
        while (*q == '\x1b') { /* an SGR sequence */
            while (*q && *q != 'm')
                q++;
            if (*q) q++;
        }
        if (!strncmp(q, prefix, strlen(prefix))) {
            char *copy = malloc(n + 1);
            assert_non_null(copy);
            memcpy(copy, p, n);
            copy[n] = '\0';
            return copy;
        }
        p = end ? end + 1 : p + n;
    }
    return NULL;
}

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + strlen(needle), needle))
        n++;
    return n;
}

/* Columns of a line: UTF-8 characters, escapes left out. */
static int columns(const char *s, size_t n)
{
    int cols = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\x1b') {
            while (i < n && s[i] != 'm')
                i++;
            continue;
        }
        cols += ((unsigned char)s[i] & 0xC0) != 0x80;
    }
    return cols;
}

static void test_window_at(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    assert_int_equal(watchview_window_at(&f.run, 0), 0);
    assert_int_equal(watchview_window_at(&f.run, 60 * S), 0); /* a window's end is its own */
    assert_int_equal(watchview_window_at(&f.run, 60 * S + 1), 1);
    assert_int_equal(watchview_window_at(&f.run, 180 * S), 2);
    assert_int_equal(watchview_window_at(&f.run, 999 * S), 2);
}

static void test_state_rebuilds_the_cluster_at_t(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    uint64_t regions[4];
    unsigned char present[4];
    watch_state st = { .regions = regions, .present = present };
    assert_int_equal(watchview_state(&f.run, 0, &st), 0);
    assert_int_equal(regions[0], 1);
    assert_int_equal(regions[3], 0);
    assert_int_equal(st.regions_total, 1);
    assert_int_equal(st.splits + st.moves + st.balancer_runs, 0);
    assert_true(st.hot_defined);
    assert_int_equal(st.hot, 0);

    assert_int_equal(watchview_state(&f.run, 60 * S, &st), 0); /* the move happened */
    assert_int_equal(regions[0], 1);
    assert_int_equal(regions[3], 1);
    assert_int_equal(st.splits, 1);
    assert_int_equal(st.moves, 1);
    assert_int_equal(st.balancer_runs, 1);
    assert_int_equal(st.events, 3);

    assert_int_equal(watchview_state(&f.run, 120 * S, &st), 0);
    assert_int_equal(regions[3], 2);
    assert_int_equal(st.regions_total, 3);
    assert_int_equal(st.hot, 3);
    assert_float_equal(st.hot_share, 1.0, 1e-12);
    /* windows 0 and 1: sums {80, 0, 0, 40}, mean 30; each window 4 */
    assert_float_equal(st.max_mean, 80.0 / 30.0, 1e-12);
    assert_float_equal(st.window_max_mean, 4.0, 1e-12);

    assert_int_equal(watchview_state(&f.run, 180 * S, &st), 0);
    assert_int_equal(st.hot, 2);
    assert_float_equal(st.hot_share, 0.75, 1e-12);
    for (int s = 0; s < 4; s++)
        assert_int_equal(regions[s], f.servers[s].regions); /* the end is the run's end */
}

static void test_the_hot_server_is_marked(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = frame(&f, 150 * S, 0, 80, 24);
    assert_int_equal(count(text, "<- hot"), 1);
    char *hot = line_starting(text, "rs2 ");
    assert_non_null(hot);
    assert_non_null(strstr(hot, "<- hot"));
    free(hot);
    free(text);
    /* a minute earlier rs3 was */
    text = frame(&f, 90 * S, 0, 80, 24);
    hot = line_starting(text, "rs3 ");
    assert_non_null(hot);
    assert_non_null(strstr(hot, "<- hot"));
    free(hot);
    free(text);
}

static void test_colour_only_when_asked(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    for (uint64_t t = 0; t <= 180 * S; t += 15 * S) {
        char *text = frame(&f, t, 0, 80, 24);
        assert_null(strchr(text, '\x1b'));
        free(text);
    }
    f.run.scheme_name = "evil\x1b[2Jname\x07"; /* names can hold anything */
    char *text = frame(&f, 150 * S, 0, 80, 24);
    assert_null(strchr(text, '\x1b'));
    assert_null(strchr(text, '\x07'));
    assert_non_null(strstr(text, "evil?[2Jname?"));
    free(text);
    text = frame(&f, 150 * S, 1, 80, 24);
    assert_non_null(strstr(text, "\x1b[7mrs2\x1b[0m")); /* the hot name in reverse video */
    assert_null(strstr(text, "\x1b[7mrs0")); /* and no other */
    free(text);
}

/* The bar of server `name` in a frame: its full blocks, its partial block
 * (NULL if none) and the bar's width (between the two '|'). */
static void bar_of(const char *text, const char *name, int *full, const char **part, int *width)
{
    static const char *const parts[7] = { "\u258f", "\u258e", "\u258d", "\u258c",
                                          "\u258b", "\u258a", "\u2589" };
    char *l = line_starting(text, name);
    assert_non_null(l);
    char *open = strchr(l, '|'), *close = strchr(open + 1, '|');
    assert_non_null(close);
    *width = columns(open + 1, (size_t)(close - open - 1));
    *full = 0;
    *part = NULL;
    for (const char *p = strstr(open, "\u2588"); p && p < close; p = strstr(p + 3, "\u2588"))
        (*full)++;
    for (int k = 0; k < 7; k++)
        if (strstr(open, parts[k]) && strstr(open, parts[k]) < close)
            *part = parts[k];
    free(l);
}

static void test_bars_scale_to_the_largest_window_count(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    int full, width;
    const char *part;
    char *text = frame(&f, 0, 0, 80, 24); /* rs0: 80, the scale: a full bar */
    bar_of(text, "rs0 ", &full, &part, &width);
    assert_true(width >= 20);
    assert_int_equal(full, width);
    assert_null(part);
    bar_of(text, "rs1 ", &full, &part, &width); /* 0: empty */
    assert_int_equal(full, 0);
    assert_null(part);
    free(text);

    text = frame(&f, 90 * S, 0, 80, 24); /* rs3: 40 of 80, half the width */
    bar_of(text, "rs3 ", &full, &part, &width);
    int eighths = (width * 8 + 1) / 2; /* rounded half */
    assert_int_equal(full, eighths / 8);
    if (eighths % 8)
        assert_non_null(part);
    free(text);

    text = frame(&f, 180 * S, 0, 120, 24); /* rs2: 60 of 80 on a wider screen */
    int w2;
    bar_of(text, "rs2 ", &full, &part, &w2);
    assert_true(w2 > width);
    assert_int_equal(full, w2 * 6 / 8); /* 3/4 of the width: w2 * 6 eighths */
    bar_of(text, "rs0 ", &full, &part, &w2); /* rs0: 10 of 80: w2 eighths */
    assert_int_equal(full, w2 / 8);
    assert_true(w2 % 8 ? part != NULL : part == NULL);
    free(text);
}

/* Before the measured span (the warm-up, measure_from = auto) the frame
 * says so and from when figures count, instead of figures of nothing;
 * from it on, the figures so far. */
static void test_warmup_is_named_before_the_measured_span(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    f.run.warmup_ended = 1;
    f.run.warmup_us = f.run.measure_from_us = 60 * S;
    char *text = frame(&f, 30 * S, 0, 80, 24);
    char *l = line_starting(text, "so far: ");
    assert_non_null(l);
    assert_non_null(strstr(l, "so far: warm-up, figures from 1 min   hot rs0: 100.0% of the window"));
    free(l);
    free(text);
    text = frame(&f, 90 * S, 0, 80, 24);
    l = line_starting(text, "so far: ");
    assert_non_null(l);
    assert_non_null(strstr(l, "so far: max/mean "));
    free(l);
    free(text);
}

static void test_clock(void **state)
{
    (void)state;
    char buf[24];
    assert_string_equal(watchview_clock(buf, sizeof buf, 0), "00:00:00");
    assert_string_equal(watchview_clock(buf, sizeof buf, 3723 * S + 999999), "01:02:03");
    assert_string_equal(watchview_clock(buf, sizeof buf, (23 * 3600 + 59 * 60 + 59) * S), "23:59:59");
    assert_string_equal(watchview_clock(buf, sizeof buf, (100 * 3600 + 5) * S), "4d 04:00:05");
    assert_string_equal(watchview_clock(buf, sizeof buf, 30 * 86400 * S), "30d 00:00:00");
    fixture f;
    fixture_init(&f);
    char *text = frame(&f, 150 * S, 0, 80, 24);
    char *l = line_starting(text, "time ");
    assert_non_null(l);
    assert_non_null(strstr(l, "time 00:02:30 / 00:03:00"));
    assert_non_null(strstr(l, "1 min a second"));
    free(l);
    assert_non_null(strstr(text, "in the window 00:02:00-00:03:00"));
    free(text);
    char speed[48];
    assert_string_equal(watchview_speed(speed, sizeof speed, 30), "30 s a second");
    assert_string_equal(watchview_speed(speed, sizeof speed, 0.5), "500 ms a second");
    assert_string_equal(watchview_speed(speed, sizeof speed, 7200), "2 h a second");
}

static void test_lines_fit_the_screen(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    static const int widths[] = { 20, 40, 80, 200 };
    static const int heights[] = { 12, 24, 50 };
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 3; j++)
            for (int color = 0; color < 2; color++) {
                char *text = frame(&f, 100 * S, color, widths[i], heights[j]);
                int lines = 0;
                for (const char *p = text; *p;) {
                    const char *end = strchr(p, '\n');
                    assert_non_null(end); /* every line ends in a newline */
                    assert_true(columns(p, (size_t)(end - p)) <= widths[i]);
                    lines++;
                    p = end + 1;
                }
                assert_int_equal(lines, heights[j]); /* with keys: the last line at the bottom */
                char *keys = line_starting(text, "space pause");
                assert_non_null(keys);
                free(keys);
                free(text);
            }
}

static void test_few_lines_show_the_busiest_servers(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = frame(&f, 150 * S, 0, 80, 12); /* room for 2 server lines */
    char *l = line_starting(text, "rs2 ");
    assert_non_null(l);
    free(l);
    assert_null(line_starting(text, "rs1 "));
    assert_non_null(strstr(text, "(3 servers not shown"));
    free(text);
}

static void test_latest_events_newest_first(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = frame(&f, 90 * S, 0, 100, 24);
    const char *split = strstr(text, "00:01:30  split     on rs3 at c");
    const char *balancer = strstr(text, "00:01:00  balancer  ran (idle server)");
    const char *move = strstr(text, "00:01:00  move      rs0 -> rs3  region b");
    const char *first = strstr(text, "00:00:30  split     on rs0 at b");
    assert_non_null(split);
    assert_non_null(balancer);
    assert_non_null(move);
    assert_non_null(first);
    assert_true(split < balancer && balancer < move && move < first);
    free(text);
    text = frame(&f, 89 * S, 0, 100, 24); /* a second before: not yet */
    assert_null(strstr(text, "on rs3 at c"));
    free(text);
}

static void test_plain_line(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    assert_int_equal(watchview_line(m, &f.run, 60 * S), 0);
    assert_int_equal(watchview_line(m, &f.run, 180 * S), 0);
    fclose(m);
    /* at 3:00 the sums are {90, 10, 60, 40}: mean 50; windows 4, 4, 60/20 */
    assert_string_equal(text,
                        "00:01:00 hot rs0 (100.0%) max/mean 4.00 window 4.00 regions 2 "
                        "splits 1 moves 1\n"
                        "00:03:00 hot rs2 (75.0%) max/mean 1.80 window 3.67 regions 3 "
                        "splits 2 moves 1\n");
    assert_null(strchr(text, '\x1b'));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_at),
        cmocka_unit_test(test_state_rebuilds_the_cluster_at_t),
        cmocka_unit_test(test_the_hot_server_is_marked),
        cmocka_unit_test(test_colour_only_when_asked),
        cmocka_unit_test(test_bars_scale_to_the_largest_window_count),
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_lines_fit_the_screen),
        cmocka_unit_test(test_few_lines_show_the_busiest_servers),
        cmocka_unit_test(test_latest_events_newest_first),
        cmocka_unit_test(test_plain_line),
        cmocka_unit_test(test_warmup_is_named_before_the_measured_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
