/* test_json.c -- the JSON report parses back to what it was given. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "reports/report.h"

/* A key in shell form with backslashes and a quote, as a C string. */
#define NASTY_KEY "\\x00\"q\\x5C\\xFF"

/* Run 0: 3 servers, writes {10, 30, 0}, reads {0, 0, 0}, 2 windows.
 * Run 1: everything zero, no windows, no simulated time. */
typedef struct fixture {
    server_result sv0[3], sv1[3];
    uint64_t win_writes[6], win_reads[6];
    run_result runs[2];
    sim_results res;
} fixture;

static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    for (int s = 0; s < 3; s++) {
        snprintf(f->sv0[s].name, sizeof f->sv0[s].name, "rs%d", s);
        snprintf(f->sv1[s].name, sizeof f->sv1[s].name, "rs%d", s);
    }
    f->sv0[0].writes = 10, f->sv0[0].bytes = 500, f->sv0[0].regions = 1;
    f->sv0[1].writes = 30, f->sv0[1].bytes = 1500, f->sv0[1].regions = 2;
    f->sv0[1].rows_scanned = 7;
    f->sv0[1].system_regions = 1; /* hbase:meta */
    f->sv0[0].start_code = 1704063865335, f->sv0[1].start_code = 1704063867100;
    f->sv0[2].start_code = 1704063869322;
    const uint64_t ww[6] = { 10, 10, 0, 0, 20, 0 };
    memcpy(f->win_writes, ww, sizeof ww);

    f->runs[0] = (run_result){
        .scheme_name = "monotonic", .scheme_expr = "ts", .key_example = NASTY_KEY,
        .presplit = "none", .nservers = 3, .servers = f->sv0, .writes = 40,
        .duration_us = 4000000, .offered_per_s = 12.5, .achieved_per_s = 10.0, .regions_start = 1, .regions = 3,
        .splits = 2, .moves = 1, .balancer_runs = 4, .rows = 40, .bytes = 2000,
        .key_bytes_min = 8, .key_bytes_max = 9, .key_bytes_mean = 8.25,
        .window_us = 2000000, .nwindows = 2, .window_writes = f->win_writes,
        .window_reads = f->win_reads };
    f->runs[1] = (run_result){ .scheme_name = "idle", .scheme_expr = "md5(ts)",
        .key_example = "", .presplit = "3 buckets", .nservers = 3, .servers = f->sv1 };
    f->res = (sim_results){
        .scenario = "tab\there \x01 and \xC3\xA9 and bad \xFF", .seed = 42, .servers = 3,
        .split_policy = "size", .region_max_bytes = 1u << 20, .balancer = "none",
        .balancer_period_us = 300000000, .balancer_first_us = 184230954,
        .status_first_us = 4230954, .window_us = 2000000, .workload = "sequence", .cell_overhead_bytes = 40, .nruns = 2, .runs = f->runs };
}

static char *render(const fixture *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    json_write(out, &f->res);
    assert_int_equal(fclose(out), 0);
    return buf;
}

/* The member at a slash-separated path; numeric parts index arrays. */
static json_object *at(json_object *root, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_object *o = root;
    for (char *save = NULL, *part = strtok_r(buf, "/", &save); part;
         part = strtok_r(NULL, "/", &save)) {
        if (json_object_is_type(o, json_type_array))
            o = json_object_array_get_idx(o, (size_t)atoi(part));
        else if (!json_object_object_get_ex(o, part, &o))
            o = NULL;
        if (!o) fail_msg("no member %s in path %s", part, path);
    }
    return o;
}

static int64_t int_at(json_object *root, const char *path) { return json_object_get_int64(at(root, path)); }
static double num_at(json_object *root, const char *path) { return json_object_get_double(at(root, path)); }
static const char *str_at(json_object *root, const char *path) { return json_object_get_string(at(root, path)); }

static int is_null_at(json_object *root, const char *path)
{
    json_object *o = NULL;
    char buf[256], *slash;
    snprintf(buf, sizeof buf, "%s", path);
    slash = strrchr(buf, '/');
    *slash = '\0';
    assert_true(json_object_object_get_ex(at(root, buf), slash + 1, &o)); /* present */
    return o == NULL;
}

static json_object *parse(const char *text)
{
    enum json_tokener_error err;
    json_object *root = json_tokener_parse_verbose(text, &err);
    if (!root) fail_msg("output does not parse: %s\n%s", json_tokener_error_desc(err), text);
    return root;
}

static void test_configuration_round_trips(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = render(&f);
    json_object *root = parse(text);
    assert_int_equal(int_at(root, "regionsim"), 4);
    assert_string_equal(str_at(root, "scenario"), "tab\there \x01 and \xC3\xA9 and bad \xEF\xBF\xBD");
    assert_int_equal(int_at(root, "seed"), 42);
    assert_int_equal(int_at(root, "cluster/servers"), 3);
    assert_string_equal(str_at(root, "cluster/split_policy"), "size");
    assert_int_equal(int_at(root, "cluster/region_max_bytes"), 1 << 20);
    assert_string_equal(str_at(root, "cluster/balancer"), "none");
    assert_int_equal(int_at(root, "cluster/balancer_period_us"), 300000000);
    /* HBase's drawn inputs: the chores' first runs, the servers' start codes by id */
    assert_int_equal(int_at(root, "cluster/balancer_first_us"), 184230954);
    assert_int_equal(int_at(root, "cluster/status_first_us"), 4230954);
    assert_int_equal(json_object_array_length(at(root, "cluster/start_codes")), 3);
    assert_int_equal(int_at(root, "cluster/start_codes/0"), 1704063865335);
    assert_int_equal(int_at(root, "cluster/start_codes/2"), 1704063869322);
    /* regions: the table's; hbase:meta apart */
    assert_int_equal(int_at(root, "runs/0/servers/1/regions"), 2);
    assert_int_equal(int_at(root, "runs/0/servers/1/system_regions"), 1);
    assert_int_equal(int_at(root, "runs/0/servers/0/system_regions"), 0);
    assert_int_equal(int_at(root, "cluster/window_us"), 2000000);
    assert_string_equal(str_at(root, "workload/description"), "sequence");
    assert_int_equal(int_at(root, "workload/cell_overhead_bytes"), 40);
    assert_int_equal(json_object_array_length(at(root, "runs")), 2);
    assert_int_equal(json_object_array_length(at(root, "assertions")), 0);
    json_object_put(root);
    free(text);
}

static void test_run_round_trips(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = render(&f);
    json_object *root = parse(text);
    assert_string_equal(str_at(root, "runs/0/scheme"), "monotonic");
    assert_string_equal(str_at(root, "runs/0/key"), "ts");
    assert_string_equal(str_at(root, "runs/0/key_example"), NASTY_KEY);
    assert_non_null(strstr(text, "\"\\\\x00\\\"q\\\\x5C\\\\xFF\"")); /* escaped, not raw */
    assert_string_equal(str_at(root, "runs/0/presplit"), "none");
    assert_int_equal(int_at(root, "runs/0/writes"), 40);
    assert_int_equal(int_at(root, "runs/0/reads"), 0);
    assert_int_equal(int_at(root, "runs/0/duration_us"), 4000000);

    assert_int_equal(json_object_array_length(at(root, "runs/0/servers")), 3);
    assert_string_equal(str_at(root, "runs/0/servers/1/name"), "rs1");
    assert_int_equal(int_at(root, "runs/0/servers/1/writes"), 30);
    assert_int_equal(int_at(root, "runs/0/servers/1/regions"), 2);
    assert_int_equal(int_at(root, "runs/0/servers/1/rows_scanned"), 7);
    assert_int_equal(int_at(root, "runs/0/servers/1/bytes"), 1500);

    /* writes {10, 30, 0}: mean 40/3, max/mean 2.25, Jain 1600/(3*1000). */
    assert_float_equal(num_at(root, "runs/0/imbalance/writes/max_mean"), 2.25, 1e-5);
    assert_float_equal(num_at(root, "runs/0/imbalance/writes/jain"), 1600.0 / 3000.0, 1e-5);
    assert_string_equal(str_at(root, "runs/0/imbalance/writes/hottest"), "rs1");
    assert_float_equal(num_at(root, "runs/0/imbalance/writes/hottest_share"), 0.75, 1e-6);
    assert_true(is_null_at(root, "runs/0/imbalance/reads"));

    /* windows {10, 10, 0} -> 1.5, {0, 20, 0} -> 3. */
    assert_int_equal(int_at(root, "runs/0/window_imbalance/writes/windows"), 2);
    assert_float_equal(num_at(root, "runs/0/window_imbalance/writes/mean_max_mean"), 2.25, 1e-6);
    assert_float_equal(num_at(root, "runs/0/window_imbalance/writes/worst_max_mean"), 3.0, 1e-6);

    assert_int_equal(int_at(root, "runs/0/regions/start"), 1);
    assert_int_equal(int_at(root, "runs/0/regions/count"), 3);
    assert_int_equal(int_at(root, "runs/0/regions/splits"), 2);
    assert_int_equal(int_at(root, "runs/0/regions/moves"), 1);
    assert_int_equal(int_at(root, "runs/0/regions/balancer_runs"), 4);
    assert_int_equal(int_at(root, "runs/0/rows"), 40);
    assert_int_equal(int_at(root, "runs/0/bytes"), 2000);
    assert_int_equal(int_at(root, "runs/0/key_bytes/min"), 8);
    assert_float_equal(num_at(root, "runs/0/key_bytes/mean"), 8.25, 1e-9);
    assert_int_equal(int_at(root, "runs/0/key_bytes/max"), 9);
    assert_float_equal(num_at(root, "runs/0/throughput/offered"), 12.5, 1e-9);
    assert_float_equal(num_at(root, "runs/0/throughput/achieved"), 10.0, 1e-9);
    assert_true(is_null_at(root, "runs/0/read_cost"));
    assert_true(is_null_at(root, "runs/0/latency_us"));

    assert_int_equal(json_object_array_length(at(root, "runs/0/windows")), 2);
    assert_int_equal(int_at(root, "runs/0/windows/1/t_us"), 2000000);
    assert_int_equal(int_at(root, "runs/0/windows/1/writes/1"), 20);
    assert_int_equal(json_object_array_length(at(root, "runs/0/windows/1/reads")), 3);
    assert_non_null(strstr(text, "\"writes\": [0, 20, 0]")); /* numbers on one line */
    json_object_put(root);
    free(text);
}

static void test_undefined_figures_are_null(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = render(&f);
    json_object *root = parse(text);
    assert_true(is_null_at(root, "runs/1/imbalance/writes"));
    assert_true(is_null_at(root, "runs/1/imbalance/reads"));
    assert_int_equal(int_at(root, "runs/1/window_imbalance/writes/windows"), 0);
    assert_true(is_null_at(root, "runs/1/window_imbalance/writes/mean_max_mean"));
    assert_true(is_null_at(root, "runs/1/throughput/achieved"));
    assert_int_equal(json_object_array_length(at(root, "runs/1/windows")), 0);
    assert_string_equal(str_at(root, "runs/1/key_example"), "");
    assert_null(strstr(text, "nan"));
    assert_null(strstr(text, "inf"));
    json_object_put(root);
    free(text);
}

/* A run that read and was timed: read_cost and latency objects, per-server
 * queue figures, all parsed back. */
static void test_reads_and_latency_round_trip(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    run_result *r = &f.runs[0];
    r->reads = 10;
    r->reads_by_kind[0] = 6, r->read_rpcs_by_kind[0] = 48;  /* salted gets: 8 RPCs each */
    r->reads_by_kind[3] = 4, r->read_rpcs_by_kind[3] = 4;
    r->rows_scanned_by_kind[3] = 400, r->records_returned_by_kind[3] = 100;
    r->rows_scanned = 406, r->records_returned = 106, r->full_scans = 4;
    r->read_latency = (latency_summary){ 10, 12.5, 10, 30, 40, 41 };
    r->latency = (latency_summary){ 50, 60.25, 50, 99, 120, 130 };
    r->unfinished = 3;
    r->left_out = 14437;
    f.sv0[1].busy = 0.75, f.sv0[1].longest_queue = 9, f.sv0[1].rpcs = 31;
    f.sv0[1].latency = (latency_summary){ 31, 55, 51, 98, 110, 111 };
    char *text = render(&f);
    json_object *root = parse(text);
    assert_float_equal(num_at(root, "runs/0/read_cost/rpcs_per_read"), 5.2, 1e-9);
    assert_float_equal(num_at(root, "runs/0/read_cost/rows_scanned_per_row"), 406.0 / 106, 1e-5);
    assert_int_equal(int_at(root, "runs/0/read_cost/full_scans"), 4);
    assert_int_equal(int_at(root, "runs/0/read_cost/by_kind/get/rpcs"), 48);
    assert_int_equal(int_at(root, "runs/0/read_cost/by_kind/window/rows_scanned"), 400);
    assert_int_equal(int_at(root, "runs/0/read_cost/by_kind/window/records_returned"), 100);
    assert_int_equal(int_at(root, "runs/0/read_cost/latency_us/p99"), 30);
    assert_int_equal(int_at(root, "runs/0/latency_us/count"), 50);
    assert_float_equal(num_at(root, "runs/0/latency_us/mean"), 60.25, 1e-9);
    assert_int_equal(int_at(root, "runs/0/latency_us/p999"), 120);
    assert_int_equal(int_at(root, "runs/0/throughput/unfinished"), 3);
    assert_int_equal(int_at(root, "runs/0/throughput/left_out"), 14437);
    assert_float_equal(num_at(root, "runs/0/servers/1/busy"), 0.75, 1e-9);
    assert_int_equal(int_at(root, "runs/0/servers/1/longest_queue"), 9);
    assert_int_equal(int_at(root, "runs/0/servers/1/latency_us/max"), 111);
    assert_true(is_null_at(root, "runs/0/servers/0/latency_us")); /* served nothing */
    json_object_put(root);
    free(text);
}


/* Version 2: the key space heatmap, the region log with the hottest
 * regions, and the timeline, all parsed back. */
static void test_heatmap_regions_and_timeline_round_trip(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *buckets[2] = { "", NASTY_KEY };
    uint64_t kw[4] = { 7, 3, 0, 20 }, kr[4] = { 0, 0, 1, 0 };
    f.runs[0].keyspace = (keyspace_heatmap){ .nbuckets = 2, .bucket_start = buckets,
                                             .writes = kw, .reads = kr, .sample = 1024,
                                             .exact = 1 };
    region_result regions[3] = {
        { .start = "", .end = "m", .id = 0, .server = 0, .split = 1, .closed_us = 5,
          .writes = 5, .rows = 5, .bytes = 50 },
        { .start = "", .end = "f", .id = 1, .server = 1, .opened_us = 5, .closed_us = 9,
          .writes = 30, .reads = 1 },
        { .start = "f", .end = "", .id = 1, .server = 2, .opened_us = 5, .closed_us = 9,
          .writes = 5 },
    };
    f.runs[0].history = regions;
    f.runs[0].nhistory = 3;
    timeline_event events[3] = {
        { .t_us = 5, .kind = TIMELINE_SPLIT, .from = 0, .key = "f" },
        { .t_us = 6, .kind = TIMELINE_MOVE, .from = 0, .to = 2, .key = "f" },
        { .t_us = 7, .kind = TIMELINE_FAILURE, .from = 1 },
    };
    f.runs[0].events = events;
    f.runs[0].nevents = 3;
    char *text = render(&f);
    json_object *root = parse(text);
    assert_int_equal(json_object_array_length(at(root, "runs/0/keyspace/buckets")), 2);
    assert_string_equal(str_at(root, "runs/0/keyspace/buckets/1"), NASTY_KEY);
    assert_int_equal(json_object_array_length(at(root, "runs/0/keyspace/writes")), 2);
    assert_int_equal(int_at(root, "runs/0/keyspace/writes/1/1"), 20);
    assert_int_equal(int_at(root, "runs/0/keyspace/reads/1/0"), 1);
    assert_true(json_object_get_boolean(at(root, "runs/0/keyspace/exact")));
    assert_int_equal(json_object_array_length(at(root, "runs/1/keyspace/writes")), 0);
    assert_int_equal(json_object_array_length(at(root, "runs/0/region_log")), 3);
    assert_string_equal(str_at(root, "runs/0/region_log/0/state"), "split");
    assert_string_equal(str_at(root, "runs/0/region_log/2/server"), "rs2");
    assert_int_equal(int_at(root, "runs/0/region_log/1/writes"), 30);
    /* hottest first: 30 writes, then the 5-write ones in log order */
    assert_int_equal(json_object_array_length(at(root, "runs/0/hot_regions")), 3);
    assert_int_equal(int_at(root, "runs/0/hot_regions/0"), 1);
    assert_int_equal(int_at(root, "runs/0/hot_regions/1"), 0);
    assert_int_equal(json_object_array_length(at(root, "runs/0/timeline")), 3);
    assert_string_equal(str_at(root, "runs/0/timeline/0/kind"), "split");
    assert_string_equal(str_at(root, "runs/0/timeline/1/to"), "rs2");
    assert_string_equal(str_at(root, "runs/0/timeline/2/kind"), "failure");
    assert_string_equal(str_at(root, "runs/0/timeline/2/from"), "rs1");
    json_object *o = NULL;
    assert_false(json_object_object_get_ex(at(root, "runs/0/timeline/2"), "key", &o));
    assert_false(json_object_object_get_ex(at(root, "runs/0/timeline/0"), "to", &o));
    json_object_put(root);
    free(text);
}

/* Every decision is in the timeline: a split's sizes and reason, each
 * balancer run with its verdict and figures; the steady verdict and
 * measure_from_us are there too. */
static void test_decisions_round_trip(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    balancer_report runs[3] = {
        { .kind = BALANCER_SIMPLE, .ran = 1, .reason = BALANCER_OUT_OF_SLOP, .servers = 3,
          .regions = 10, .moves = 2, .least = 1, .most = 6, .average = 10.0f / 3, .floor = 2,
          .ceiling = 4, .target_min = 3, .target_max = 4, .overloaded = 1, .underloaded = 1 },
        { .kind = BALANCER_SIMPLE, .reason = BALANCER_IN_TRANSITION, .servers = 3,
          .regions = 11, .in_transition = 2 },
        { .kind = BALANCER_STOCHASTIC, .ran = 1, .reason = BALANCER_COST_HIGH, .servers = 3,
          .regions = 11, .moves = 1, .cost_before = 0.5, .cost_after = 0.25,
          .sum_multipliers = 522, .steps = 26400, .ncosts = 1,
          .costs = { { "RegionCountSkewCostFunction", 500, 0.5, 0.25 } } },
    };
    timeline_event events[4] = {
        { .t_us = 5, .kind = TIMELINE_SPLIT, .key = "f",
          .split = { .size_bytes = 4200000, .threshold_bytes = 4194304, .regions_on_server = 3 } },
        { .t_us = 6, .kind = TIMELINE_BALANCER, .balancer = 0 },
        { .t_us = 7, .kind = TIMELINE_BALANCER, .balancer = 1 },
        { .t_us = 8, .kind = TIMELINE_BALANCER, .balancer = 2 },
    };
    f.runs[0].events = events;
    f.runs[0].nevents = 4;
    f.runs[0].balancer_log = runs;
    f.runs[0].balancer_runs = 3;
    f.res.measure_from_us = 1000000;
    f.runs[0].measure_from_us = 1000000;
    uint64_t regions[2] = { 10, 30 };
    f.runs[0].window_regions = regions;
    char *text = render(&f);
    json_object *root = parse(text);
    assert_int_equal(int_at(root, "measure_from_us"), 1000000);
    assert_string_equal(str_at(root, "runs/0/timeline/0/reason"), "size");
    assert_int_equal(int_at(root, "runs/0/timeline/0/size_bytes"), 4200000);
    assert_int_equal(int_at(root, "runs/0/timeline/0/threshold_bytes"), 4194304);
    assert_int_equal(int_at(root, "runs/0/timeline/0/regions_on_server"), 3);
    assert_string_equal(str_at(root, "runs/0/timeline/1/kind"), "balancer");
    assert_true(json_object_get_boolean(at(root, "runs/0/timeline/1/ran")));
    assert_string_equal(str_at(root, "runs/0/timeline/1/reason"), "server out of slop");
    assert_int_equal(int_at(root, "runs/0/timeline/1/floor"), 2);
    assert_int_equal(int_at(root, "runs/0/timeline/1/ceiling"), 4);
    assert_int_equal(int_at(root, "runs/0/timeline/1/max"), 4);
    assert_int_equal(int_at(root, "runs/0/timeline/1/moves"), 2);
    assert_float_equal(num_at(root, "runs/0/timeline/1/average"), 10.0f / 3, 1e-5);
    assert_false(json_object_get_boolean(at(root, "runs/0/timeline/2/ran")));
    assert_string_equal(str_at(root, "runs/0/timeline/2/reason"), "regions in transition");
    assert_int_equal(int_at(root, "runs/0/timeline/2/in_transition"), 2);
    assert_float_equal(num_at(root, "runs/0/timeline/3/cost_before"), 0.5, 1e-12);
    assert_int_equal(int_at(root, "runs/0/timeline/3/steps"), 26400);
    assert_string_equal(str_at(root, "runs/0/timeline/3/costs/0/name"),
                        "RegionCountSkewCostFunction");
    assert_float_equal(num_at(root, "runs/0/timeline/3/costs/0/after"), 0.25, 1e-12);
    assert_float_equal(num_at(root, "runs/0/timeline/3/costs/0/weighted_after"), 125, 1e-9);
    assert_int_equal(int_at(root, "runs/0/windows/1/regions"), 30);
    assert_true(json_object_is_type(at(root, "runs/0/steady/steady"), json_type_boolean));
    json_object_put(root);
    free(text);
}

static void test_output_is_byte_identical(void **state)
{
    (void)state;
    fixture f, g;
    fixture_init(&f);
    fixture_init(&g);
    char *a = render(&f), *b = render(&g);
    assert_string_equal(a, b);
    assert_true(strncmp(a, "{\n  \"regionsim\": 4,\n", 20) == 0);
    assert_int_equal(a[strlen(a) - 1], '\n');
    free(a);
    free(b);
}

/* "figures": every scheme-scope figure by name, integers exact, null when
 * undefined; each server's "figures" the server-scope ones. */
static void test_figures_objects(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    char *text = render(&f);
    json_object *root = parse(text);
    assert_int_equal(int_at(root, "runs/0/figures/writes"), 40);
    assert_true(fabs(num_at(root, "runs/0/figures/write_max_mean") - 2.25) < 1e-9);
    assert_true(fabs(num_at(root, "runs/0/figures/hottest_share") - 0.75) < 1e-9);
    assert_int_equal(int_at(root, "runs/0/figures/splits"), 2);
    assert_true(fabs(num_at(root, "runs/0/figures/achieved_ops_per_s") - 10.0) < 1e-9);
    assert_true(is_null_at(root, "runs/0/figures/p99_latency_us"));
    assert_true(is_null_at(root, "runs/0/figures/rpcs_per_read_get"));
    assert_true(is_null_at(root, "runs/1/figures/write_max_mean"));
    assert_true(is_null_at(root, "runs/1/figures/offered_ops_per_s"));
    assert_int_equal(int_at(root, "runs/1/figures/writes"), 0);
    assert_int_equal(int_at(root, "runs/0/servers/1/figures/server_writes"), 30);
    assert_int_equal(int_at(root, "runs/0/servers/1/figures/server_bytes"), 1500);
    assert_true(is_null_at(root, "runs/1/servers/0/figures/server_write_share"));
    /* the existing fields stay */
    assert_true(fabs(num_at(root, "runs/0/imbalance/writes/max_mean") - 2.25) < 1e-9);
    json_object_put(root);
    free(text);
}

/* A run of nservers servers and nwindows windows, as JSON with windows
 * `windows`; its length in *len. */
static char *render_many(uint32_t nservers, uint32_t nwindows, json_windows windows, size_t *len)
{
    server_result *sv = calloc(nservers, sizeof *sv);
    uint64_t *ww = calloc((size_t)nservers * nwindows, sizeof *ww);
    assert_true(sv && ww);
    for (uint32_t s = 0; s < nservers; s++) {
        snprintf(sv[s].name, sizeof sv[s].name, "rs%u", (unsigned)s);
        for (uint32_t w = 0; w < nwindows; w++) {
            ww[(size_t)w * nservers + s] = (s * 31 + w) % 7;
            sv[s].writes += ww[(size_t)w * nservers + s];
        }
    }
    run_result run = { .scheme_name = "m", .scheme_expr = "md5(ts)", .key_example = "",
        .presplit = "none", .nservers = nservers, .servers = sv, .duration_us = nwindows * 1000000ull,
        .window_us = 1000000, .nwindows = nwindows, .window_writes = ww };
    for (uint32_t s = 0; s < nservers; s++) run.writes += sv[s].writes;
    sim_results res = { .scenario = "many", .seed = 1, .servers = nservers,
        .split_policy = "size", .balancer = "none", .window_us = 1000000, .workload = "w",
        .nruns = 1, .runs = &run };
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    assert_non_null(out);
    json_write_windows(out, &res, windows);
    assert_int_equal(fclose(out), 0);
    free(ww);
    free(sv);
    return buf;
}

/* --json-windows: per-server arrays with yes (and auto when small), each
 * window's totals and maxima with no (and auto past 4 million cells),
 * every server's totals either way, and a report whose size no longer
 * grows with servers x windows. */
static void test_window_arrays_follow_the_option(void **state)
{
    (void)state;
    size_t len_yes, len_no, len_auto;
    char *yes = render_many(500, 20, JSON_WINDOWS_YES, &len_yes);
    char *no = render_many(500, 20, JSON_WINDOWS_NO, &len_no);
    char *autos = render_many(500, 20, JSON_WINDOWS_AUTO, &len_auto);
    assert_string_equal(yes, autos); /* 10,000 cells: arrays */
    json_object *y = parse(yes), *n = parse(no);
    assert_int_equal(json_object_array_length(at(y, "runs/0/windows/3/writes")), 500);
    json_object *o = NULL;
    assert_false(json_object_object_get_ex(at(y, "runs/0"), "windows_per_server", &o));
    assert_false(json_object_get_boolean(at(n, "runs/0/windows_per_server")));
    assert_false(json_object_object_get_ex(at(n, "runs/0/windows/3"), "writes", &o));
    assert_int_equal(json_object_array_length(at(n, "runs/0/windows")), 20);
    /* totals and maxima are the arrays' */
    for (int w = 0; w < 20; w++) {
        char path[64];
        snprintf(path, sizeof path, "runs/0/windows/%d/writes", w);
        json_object *row = at(y, path);
        int64_t total = 0, max = 0;
        for (size_t s = 0; s < 500; s++) {
            int64_t v = json_object_get_int64(json_object_array_get_idx(row, s));
            total += v;
            if (v > max) max = v;
        }
        snprintf(path, sizeof path, "runs/0/windows/%d/writes_total", w);
        assert_int_equal(int_at(n, path), total);
        snprintf(path, sizeof path, "runs/0/windows/%d/writes_max", w);
        assert_int_equal(int_at(n, path), max);
    }
    /* per-server detail stays */
    assert_int_equal(json_object_array_length(at(n, "runs/0/servers")), 500);
    assert_int_equal(int_at(n, "runs/0/servers/7/writes"), int_at(y, "runs/0/servers/7/writes"));
    assert_true(len_no < len_yes);
    json_object_put(y);
    json_object_put(n);
    free(yes);
    free(no);
    free(autos);

    /* 2,500 servers x 2,000 windows = 5 million cells: auto leaves the arrays out */
    char *big = render_many(2500, 2000, JSON_WINDOWS_AUTO, &len_auto);
    json_object *b = parse(big);
    assert_false(json_object_get_boolean(at(b, "runs/0/windows_per_server")));
    print_message("2500 servers x 2000 windows, auto: %zu bytes\n", len_auto);
    assert_true(len_auto < 3u << 20); /* the arrays alone would be over 10 MB */
    json_object_put(b);
    free(big);
}

/* `regionsim figures --format json` parses and lists a figure per entry. */
static void test_figure_list(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    json_write_figure_list(out);
    assert_int_equal(fclose(out), 0);
    json_object *root = parse(buf);
    assert_int_equal(int_at(root, "regionsim"), 4);
    assert_string_equal(str_at(root, "figures/0/name"), "writes");
    assert_string_equal(str_at(root, "figures/0/scope"), "scheme");
    assert_true(json_object_array_length(at(root, "figures")) > 50);
    json_object_put(root);
    free(buf);
}

/* "overload" says first (before "steady") whether the run was overloaded,
 * with the reports' note; "latency_note" explains a p99 longer than the
 * run; the figure "overloaded" is 1. An idle run: false, nulls and 0. */
static void test_overload_and_latency_note(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    run_result *r = &f.runs[0];
    r->offered_per_s = 1000, r->achieved_per_s = 316, r->unfinished = 2736;
    f.sv0[1].busy = 9.294;
    r->latency = (latency_summary){ 50, 3e6, 2000000, 5000000, 5500000, 6000000 };
    char *text = render(&f);
    assert_true(strstr(text, "\"overload\"") < strstr(text, "\"steady\""));
    json_object *root = parse(text);
    assert_true(json_object_get_boolean(at(root, "runs/0/overload/overloaded")));
    assert_string_equal(str_at(root, "runs/0/overload/note"),
                        "overloaded: 316 of 1000 ops/s done, busiest server 929.4% busy");
    assert_string_equal(str_at(root, "runs/0/latency_note"),
                        "p99 5 s is longer than the 4 s run: 2736 operations were still queued "
                        "at its end and drained after it, with no new arrivals");
    assert_int_equal(int_at(root, "runs/0/figures/overloaded"), 1);
    assert_false(json_object_get_boolean(at(root, "runs/1/overload/overloaded")));
    assert_true(is_null_at(root, "runs/1/overload/note"));
    assert_true(is_null_at(root, "runs/1/latency_note"));
    assert_int_equal(int_at(root, "runs/1/figures/overloaded"), 0);
    json_object_put(root);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_configuration_round_trips),
        cmocka_unit_test(test_run_round_trips),
        cmocka_unit_test(test_undefined_figures_are_null),
        cmocka_unit_test(test_reads_and_latency_round_trip),
        cmocka_unit_test(test_overload_and_latency_note),
        cmocka_unit_test(test_heatmap_regions_and_timeline_round_trip),
        cmocka_unit_test(test_decisions_round_trip),
        cmocka_unit_test(test_output_is_byte_identical),
        cmocka_unit_test(test_figures_objects),
        cmocka_unit_test(test_figure_list),
        cmocka_unit_test(test_window_arrays_follow_the_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
