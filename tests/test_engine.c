/* test_engine.c -- the engine's contract: runs are values, observers, errors,
 * windows and ticks. (The physics of the schemes is in test_physics.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"

#include "tests/engine_support.h"
#include "engine/history.h"

static void assert_same_result(const run_result *a, const run_result *b)
{
    assert_int_equal(a->writes, b->writes);
    assert_int_equal(a->splits, b->splits);
    assert_int_equal(a->moves, b->moves);
    assert_int_equal(a->rows, b->rows);
    assert_string_equal(a->key_example, b->key_example);
    for (uint32_t s = 0; s < a->nservers; s++)
        assert_int_equal(a->servers[s].writes, b->servers[s].writes);
    assert_memory_equal(a->window_writes, b->window_writes,
                        (size_t)a->nwindows * a->nservers * sizeof(uint64_t));
}

static void test_runs_are_values(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "salted");
    run_result a, b, c;
    assert_int_equal(engine_run(&sc, 0, NULL, &a, err, sizeof err), 0);
    /* A different run in between must not disturb the next one. */
    scenario other;
    short_scenario(&other, "monotonic");
    other.seed = 99;
    assert_int_equal(engine_run(&other, 0, NULL, &c, err, sizeof err), 0);
    assert_int_equal(engine_run(&sc, 0, NULL, &b, err, sizeof err), 0);
    assert_same_result(&a, &b);
    assert_true(a.splits > 0);
    run_result_free(&a);
    run_result_free(&b);
    run_result_free(&c);
}

/* The weighted engine (scenario/weighting.h): at weight 1 it simulates what
 * per-op does (the same writes, splits and windows; only queueing is the
 * fluid model's); at weight 25 the counts keep their expectation (each
 * operation counts 25), the latencies are counted with their weight, and
 * the same seed gives the same run. */
static void test_weighted_runs(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "hashed");
    run_result per_op, one, a, b;
    assert_int_equal(engine_run(&sc, 0, NULL, &per_op, err, sizeof err), 0);
    sc.engine = ENGINE_MODE_WEIGHTED;
    sc.weight = 1;
    assert_int_equal(engine_run(&sc, 0, NULL, &one, err, sizeof err), 0);
    assert_same_result(&per_op, &one);
    assert_int_equal(one.latency.count, per_op.latency.count);

    sc.weight = 25; /* shares 5 with the 1,000 series: 27 runs (pattern_weight_stride) */
    assert_int_equal(engine_run(&sc, 0, NULL, &a, err, sizeof err), 0);
    assert_int_equal(engine_run(&sc, 0, NULL, &b, err, sizeof err), 0);
    assert_same_result(&a, &b);
    assert_int_equal(a.writes % 27, 0);
    double ratio = (double)a.writes / (double)per_op.writes;
    assert_true(ratio > 0.99 && ratio < 1.01);
    assert_int_equal(a.latency.count, a.writes);
    uint64_t sum = 0;
    for (uint32_t s = 0; s < a.nservers; s++) {
        sum += a.servers[s].writes;
        double share = (double)a.servers[s].writes / (double)a.writes;
        double exact = (double)per_op.servers[s].writes / (double)per_op.writes;
        assert_true(share > exact - 0.03 && share < exact + 0.03);
        assert_true(a.servers[s].busy > 0.5 * per_op.servers[s].busy &&
                    a.servers[s].busy < 1.5 * per_op.servers[s].busy);
    }
    assert_int_equal(sum, a.writes);
    run_result_free(&per_op);
    run_result_free(&one);
    run_result_free(&a);
    run_result_free(&b);
}

static void test_windows_and_ticks(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "monotonic");
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.nwindows, 3);
    assert_int_equal(r.duration_us, sc.workload.duration_us);
    assert_int_equal(r.balancer_runs, 2); /* at 60 s and 120 s */
    uint64_t per_window[3] = { 0, 0, 0 };
    for (uint32_t w = 0; w < 3; w++)
        for (uint32_t s = 0; s < r.nservers; s++)
            per_window[w] += r.window_writes[w * r.nservers + s];
    /* 1,000 writes/s: 60,000 in each full minute, 30,000 in the half. */
    assert_int_equal(per_window[0], 60000);
    assert_int_equal(per_window[1], 60000);
    assert_int_equal(per_window[2], 30000);
    assert_int_equal(r.writes, 150000);
    assert_int_equal(r.key_bytes_min, 8);
    assert_int_equal(r.key_bytes_max, 8);
    assert_string_equal(r.scheme_name, "monotonic");
    assert_string_equal(r.scheme_expr, "ts");
    assert_string_equal(r.presplit, "none");
    run_result_free(&r);
}

/* With balancer_phase = balancer_period the balancer runs at every
 * multiple of its period strictly inside the run: one more run for each
 * extra period, none at the run's end; the timeline has an entry for each
 * and balancer_runs counts them. */
static void test_balancer_runs_once_per_period(void **state)
{
    (void)state;
    char err[256];
    for (uint64_t periods = 1; periods <= 4; periods++) {
        scenario sc;
        short_scenario(&sc, "salted");
        sc.balancer_phase_us = sc.balancer_period_us;
        sc.workload.duration_us = periods * sc.balancer_period_us;
        run_result r;
        assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
        assert_int_equal(r.balancer_runs, periods - 1);
        size_t entries = 0;
        for (size_t i = 0; i < r.nevents; i++) {
            if (r.events[i].kind != TIMELINE_BALANCER)
                continue;
            entries++;
            assert_int_equal(r.events[i].t_us, entries * sc.balancer_period_us);
            assert_int_equal(r.events[i].balancer, entries - 1);
        }
        assert_int_equal(entries, r.balancer_runs);
        run_result_free(&r);
        /* A moment longer: the run at the end now falls inside it. */
        sc.workload.duration_us++;
        assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
        assert_int_equal(r.balancer_runs, periods);
        run_result_free(&r);
    }
}

/* measure_from: the figures count only what was issued from it on. */
/* HBase's own random inputs come from the seed (engine/hbase_inputs.c): the
 * balancer's first run falls anywhere in its first period and then every
 * period; the servers' start codes are epoch milliseconds before the
 * table's creation, distinct and increasing, and a server that joins gets
 * the epoch millisecond it joined. Another seed draws other ones; the
 * same seed the same ones. */
static void test_hbase_inputs_from_the_seed(void **state)
{
    (void)state;
    char err[256];
    uint64_t firsts[8], code0[8];
    for (uint64_t seed = 0; seed < 8; seed++) {
        scenario sc;
        short_scenario(&sc, "salted");
        sc.workload.duration_us = 4 * sc.balancer_period_us;
        sc.seed = seed;
        run_result r;
        assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
        uint64_t first = 0, runs = 0;
        for (size_t i = 0; i < r.nevents; i++) {
            if (r.events[i].kind != TIMELINE_BALANCER)
                continue;
            if (runs++ == 0)
                first = r.events[i].t_us;
            assert_int_equal(r.events[i].t_us, first + (runs - 1) * sc.balancer_period_us);
        }
        assert_true(first > 0 && first <= sc.balancer_period_us);
        assert_int_equal(runs, (sc.workload.duration_us - first - 1) / sc.balancer_period_us + 1);
        firsts[seed] = first;
        for (uint32_t s = 0; s < sc.servers; s++) {
            uint64_t code = r.servers[s].start_code;
            assert_true(code < sc.start_ms);
            assert_true(code > sc.start_ms - 2 * 3600000ull);
            if (s > 0) {
                assert_true(code > r.servers[s - 1].start_code);
                assert_true(code <= r.servers[s - 1].start_code + 5000);
            }
        }
        code0[seed] = r.servers[0].start_code;
        run_result_free(&r);
    }
    for (int a = 0; a < 8; a++)
        for (int b = a + 1; b < 8; b++) {
            assert_true(firsts[a] != firsts[b]);
            assert_true(code0[a] != code0[b]);
        }

    /* the same seed: the same draws; a given balancer_phase: that phase */
    scenario sc;
    short_scenario(&sc, "salted");
    sc.workload.duration_us = 4 * sc.balancer_period_us;
    sc.seed = 3;
    sc.balancer_phase_us = 7000000;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.servers[0].start_code, code0[3]);
    for (size_t i = 0; i < r.nevents; i++)
        if (r.events[i].kind == TIMELINE_BALANCER) {
            assert_int_equal(r.events[i].t_us, 7000000);
            break;
        }
    run_result_free(&r);

    /* a server that joins at 90 s starts then */
    short_scenario(&sc, "salted");
    sc.nevents = 1;
    sc.events[0].at_us = 90000000;
    sc.events[0].action = EVENT_ADD_SERVERS;
    sc.events[0].servers = 1;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.nservers, sc.servers + 1);
    assert_int_equal(r.servers[sc.servers].start_code, sc.start_ms + 90000);
    run_result_free(&r);
}

/* hbase:meta (system_regions = meta, the default) opens on a server the
 * seed draws and stays there without a balancer; the servers report it
 * apart from the table's regions; system_regions = none has none. */
static void test_meta_from_the_seed(void **state)
{
    (void)state;
    char err[256];
    int on[8] = { 0 };
    for (uint64_t seed = 0; seed < 16; seed++) {
        scenario sc;
        short_scenario(&sc, "salted");
        sc.balancer = BALANCER_NONE;
        sc.seed = seed;
        run_result r;
        assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
        uint64_t hosts = 0, table = 0;
        for (uint32_t s = 0; s < r.nservers; s++) {
            hosts += r.servers[s].system_regions;
            table += r.servers[s].regions;
            if (r.servers[s].system_regions)
                on[s] = 1;
        }
        assert_int_equal(hosts, 1);
        assert_int_equal(table, r.regions); /* meta is not among the table's */
        run_result_free(&r);
        sc.system_regions = 0;
        assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
        for (uint32_t s = 0; s < r.nservers; s++)
            assert_int_equal(r.servers[s].system_regions, 0);
        run_result_free(&r);
    }
    int servers = 0;
    for (int s = 0; s < 8; s++)
        servers += on[s];
    assert_true(servers >= 4);
}

static void test_measure_from_counts_the_second_half(void **state)
{
    (void)state;
    char err[256];
    scenario sc;
    short_scenario(&sc, "salted");
    sc.workload.duration_us = 240ull * 1000000;
    run_result whole, half;
    assert_int_equal(engine_run(&sc, 0, NULL, &whole, err, sizeof err), 0);
    sc.measure_from_us = 120ull * 1000000;
    assert_int_equal(engine_run(&sc, 0, NULL, &half, err, sizeof err), 0);
    assert_int_equal(whole.writes, 240000);
    assert_int_equal(half.writes, 120000); /* fixed arrivals: exactly half */
    assert_int_equal(half.measure_from_us, sc.measure_from_us);
    uint64_t sum = 0, windows = 0;
    for (uint32_t s = 0; s < half.nservers; s++)
        sum += half.servers[s].writes;
    assert_int_equal(sum, half.writes);
    /* the windows still cover the whole run */
    for (size_t i = 0; i < (size_t)half.nwindows * half.nservers; i++)
        windows += half.window_writes[i];
    assert_int_equal(windows, 240000);
    assert_memory_equal(whole.window_writes, half.window_writes,
                        (size_t)whole.nwindows * whole.nservers * sizeof(uint64_t));
    /* latency and throughput: of the second half only */
    assert_int_equal(half.latency.count, 120000);
    assert_true(half.offered_per_s > 999.0 && half.offered_per_s < 1001.0);
    run_result_free(&whole);
    run_result_free(&half);
}

/* done/s counts the replies within the measured span, a backlog the
 * warm-up left included: one server of 2 ms a write (500 a second) offered
 * 1000 a second serves 500 a second in the second half, though every
 * operation still queued at the end (about half of all) arrived before or
 * in it; measured operations less the queue would say about none. */
static void test_done_counts_the_replies_in_the_measured_span(void **state)
{
    (void)state;
    char err[256];
    scenario sc;
    short_scenario(&sc, "salted");
    sc.servers = 1;
    sc.region_max_bytes = 1ull << 30; /* no split: the server never waits for one */
    sc.rpc_us = 2000;
    sc.kib_us = 0;
    sc.workload.duration_us = 240ull * 1000000;
    sc.measure_from_us = 120ull * 1000000;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_true(r.offered_per_s > 999.0 && r.offered_per_s < 1001.0);
    assert_true(r.achieved_per_s > 499.0 && r.achieved_per_s < 501.0);
    assert_true(r.unfinished > 110000); /* more than the measured operations less the done */
    /* busy: the work given over the time, twice what the server can do */
    assert_true(r.servers[0].busy > 1.99 && r.servers[0].busy < 2.01);
    run_result_free(&r);
}

typedef struct counter {
    uint64_t seen, stop_at;
    uint32_t last_server;
} counter;

static int count_writes(void *ctx, uint64_t t_us, const record *rec, keyref key,
                        const cluster *c, uint32_t s)
{
    assert_int_equal(rec->op, RECORD_PUT);
    counter *k = ctx;
    (void)t_us;
    assert_true(key.len > 0);
    assert_true(s < c->nservers);
    /* The observer sees the cluster as it is: the key routes to s. */
    assert_int_equal(regionmap_get(c->map, regionmap_route(c->map, key))->server, s);
    k->last_server = s;
    return ++k->seen == k->stop_at;
}

static void test_observer_sees_every_write_and_can_stop(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "salted");
    counter k = { 0, 12345, 0 };
    engine_observer obs = { .on_op = count_writes, .ctx = &k };
    run_result r;
    assert_int_equal(engine_run(&sc, 0, &obs, &r, err, sizeof err), 0);
    assert_int_equal(k.seen, 12345);
    assert_int_equal(r.writes, 12345);
    run_result_free(&r);
}

/* The progress a run reports: its last call, and how many. */
typedef struct progress_seen {
    uint64_t done_us, total_us;
    size_t calls;
} progress_seen;

static void see_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                         uint64_t total_us)
{
    progress_seen *p = ctx;
    assert_int_equal(run, 0);
    assert_int_equal(nruns, 1);
    assert_true(done_us >= p->done_us); /* never backwards */
    p->done_us = done_us;
    p->total_us = total_us;
    p->calls++;
}

/* A run's last progress report is its whole length: a progress bar ends
 * at 100%, not at its last window before the end. */
static void test_progress_ends_at_the_whole_run(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "salted");
    progress_seen p = { 0, 0, 0 };
    engine_observer obs = { .on_progress = see_progress, .ctx = &p };
    run_result r;
    assert_int_equal(engine_run(&sc, 0, &obs, &r, err, sizeof err), 0);
    assert_true(p.calls >= 2);
    assert_true(p.total_us > 0);
    assert_int_equal(p.done_us, p.total_us);
    run_result_free(&r);
}

static void test_presplit_and_labels(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "hashed");
    sc.servers = 5;
    scenario_add_scheme(&sc, "my-key", "hash(3, entity) entity ts");
    scenario_add_scheme(&sc, NULL, "entity   ts");
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    assert_int_equal(res.nruns, 3);
    assert_int_equal(res.runs[0].regions_start, 5); /* one bucket per server */
    assert_string_equal(res.runs[0].scheme_expr, "hash(5, ts) ts");
    assert_int_equal(res.runs[1].regions_start, 3);
    assert_string_equal(res.runs[1].scheme_name, "my-key");
    assert_string_equal(res.runs[2].scheme_name, "entity ts"); /* normalised */
    assert_int_equal(res.runs[2].regions_start, 1);
    assert_non_null(strstr(res.workload, "50 metrics x 20 hosts"));
    sim_results_free(&res);

    sc.presplit = PRESPLIT_NONE;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    assert_int_equal(res.runs[0].regions_start, 1);
    sim_results_free(&res);
}

static void test_bad_scheme_is_an_error_with_no_result(void **state)
{
    (void)state;
    scenario sc;
    char err[256] = "";
    short_scenario(&sc, "monotonic");
    scenario_add_scheme(&sc, NULL, "ts nosuch");
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "nosuch"));
    assert_int_equal(res.nruns, 0);
    assert_null(res.runs);
}

static void test_phases_run_back_to_back(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "entity ts");
    sc.nphases = 2;
    sc.phases[0] = sc.workload;
    sc.phases[0].name = "load";
    sc.phases[0].pattern.kind = PATTERN_SEQUENCE;
    sc.phases[0].pattern.rate_per_s = 100;
    sc.phases[0].duration_us = 120ull * 1000000;
    sc.phases[1] = sc.workload;
    sc.phases[1].name = "steady";
    sc.phases[1].pattern.kind = PATTERN_ENTITIES;
    sc.phases[1].pattern.records = 12000;
    sc.phases[1].pattern.rate_per_s = 50;
    sc.phases[1].duration_us = 60ull * 1000000;
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.duration_us, 180ull * 1000000);
    assert_int_equal(r.writes, 12000 + 3000);
    assert_int_equal(r.nwindows, 3);
    uint64_t per_window[3] = { 0, 0, 0 };
    for (uint32_t w = 0; w < 3; w++)
        for (uint32_t s = 0; s < r.nservers; s++)
            per_window[w] += r.window_writes[w * r.nservers + s];
    assert_int_equal(per_window[0], 6000);
    assert_int_equal(per_window[1], 6000);
    assert_int_equal(per_window[2], 3000);
    /* Phase 2 updates the 12,000 entities phase 1 inserted: no new rows
     * beyond one per (entity, ms), and never an id past 12,000. */
    assert_true(r.rows <= 15000);
    run_result_free(&r);
}

static const char *write_file(const char *text)
{
    return test_temp_file("regionsim-engine", text);
}

static void test_trace_replay_counts_reads_and_writes(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "key");
    sc.workload.pattern.kind = PATTERN_TRACE;
    sc.workload.pattern.trace_path = write_file(
        "time,op,key,bytes\n"
        "0,put,a,100\n"
        "10,put,b\n"
        "20,get,a\n"
        "30,delete,b\n"
        "90000000,get,zz\n");
    sc.workload.duration_given = 0;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.writes, 3);
    assert_int_equal(r.reads, 2);
    assert_int_equal(r.servers[0].reads, 2);
    assert_int_equal(r.rows, 2);
    /* put a (value 100) + put b (the default 8) + delete b (no value). */
    assert_int_equal(r.bytes, (1 + 31 + HFILE_CELL_EXTRA - 8 + 100) + (1 + 31 + HFILE_CELL_EXTRA) +
                                  (1 + 31 + HFILE_CELL_EXTRA - 8));
    assert_int_equal(r.duration_us, 90000001); /* just after the last operation */
    assert_int_equal(r.nwindows, 2);
    assert_int_equal(r.window_reads[1 * r.nservers + 0], 1);
    assert_string_equal(r.key_example, "a");
    /* The balancer (every 60 s) ran once, at 60 s: the run ends at 90 s. */
    assert_int_equal(r.balancer_runs, 1);
    run_result_free(&r);
    unlink(sc.workload.pattern.trace_path);
    /* A trace whose last operation is at exactly 120 s ends just after it:
     * the run at 120 s is inside; none at 180 s. */
    sc.workload.pattern.trace_path = write_file("0,put,a\n120000000,put,b\n");
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.duration_us, 120000001);
    assert_int_equal(r.balancer_runs, 2);
    run_result_free(&r);
    unlink(sc.workload.pattern.trace_path);
}

/* Closed-loop replay ends when the trace does: 4 clients replaying 400
 * operations of 50 us each (rpc_time, no per-KiB time) on one server take
 * 400 x 50 us = 20 ms, not the hour given, and the run's rates are those
 * of the 20 ms (it was reported as 400 operations over an hour). */
static void test_closed_loop_replay_ends_with_its_trace(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "key");
    char text[400 * 16] = "";
    size_t n = 0;
    for (int i = 0; i < 400; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "0,put,k%03d\n", i);
    sc.workload.pattern.kind = PATTERN_TRACE;
    sc.workload.pattern.trace_path = write_file(text);
    sc.workload.clients = 4;
    sc.workload.duration_us = 3600ull * 1000000;
    sc.workload.duration_given = 1;
    sc.rpc_us = 50;
    sc.kib_us = 0;
    sc.servers = 1;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.writes, 400);
    assert_true(r.duration_us >= 400 * 50 && r.duration_us < 400 * 50 + 1000);
    run_result_free(&r);
    unlink(sc.workload.pattern.trace_path);
}

/* A duration shorter than the trace: the operations after it are counted
 * as left out, in open and in closed loop (they were dropped silently). */
static void test_trace_cut_by_the_duration_counts_what_it_left_out(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    short_scenario(&sc, "key");
    char text[100 * 24] = "";
    size_t n = 0;
    for (int i = 0; i < 100; i++) /* one operation a second, 0 .. 99 s */
        n += (size_t)snprintf(text + n, sizeof text - n, "%d000000,put,k%03d\n", i, i);
    sc.workload.pattern.kind = PATTERN_TRACE;
    sc.workload.pattern.trace_path = write_file(text);
    sc.workload.duration_us = 30ull * 1000000;
    sc.workload.duration_given = 1;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.writes, 30); /* 0 .. 29 s */
    assert_int_equal(r.left_out, 70);
    run_result_free(&r);
    /* Closed loop: 2 clients of 50 us an operation in 1 ms issue 40 */
    sc.workload.clients = 2;
    sc.workload.duration_us = 1000;
    sc.rpc_us = 50;
    sc.kib_us = 0;
    sc.servers = 1;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.writes + r.left_out, 100);
    assert_true(r.writes >= 20 && r.writes <= 42);
    run_result_free(&r);
    /* The whole trace: nothing left out. */
    sc.workload.clients = 0;
    sc.workload.duration_given = 0;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.writes, 100);
    assert_int_equal(r.left_out, 0);
    run_result_free(&r);
    unlink(sc.workload.pattern.trace_path);
}

/* An open-loop trace replayed to its end whose operations share one
 * instant is refused (its report covered one microsecond: busy in the
 * billions of percent); one operation, or a closed loop, is fine. */
static void test_trace_at_one_instant_is_refused(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    short_scenario(&sc, "key");
    sc.workload.pattern.kind = PATTERN_TRACE;
    sc.workload.pattern.trace_path = write_file("5,put,a\n5,put,b\n5,get,a\n");
    sc.workload.duration_given = 0;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "all 3 operations of the trace"));
    assert_non_null(strstr(err, "at one time (5 us)"));
    sc.workload.clients = 2;
    sc.workload.duration_us = 1000000;
    sc.workload.duration_given = 1;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.writes + r.reads, 3);
    run_result_free(&r);
    unlink(sc.workload.pattern.trace_path);
    sc.workload.clients = 0;
    sc.workload.duration_given = 0;
    sc.workload.pattern.trace_path = write_file("5,put,a\n");
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), 0);
    run_result_free(&r);
    unlink(sc.workload.pattern.trace_path);
}

static void test_bad_trace_line_fails_the_run(void **state)
{
    (void)state;
    scenario sc;
    char err[256] = "";
    short_scenario(&sc, "key");
    sc.workload.pattern.kind = PATTERN_TRACE;
    const char *path = write_file("0,put,a\n5,put,b\n7,frobnicate,c\n");
    sc.workload.pattern.trace_path = path;
    run_result r;
    assert_int_equal(engine_run(&sc, 0, NULL, &r, err, sizeof err), -1);
    char where[160];
    snprintf(where, sizeof where, "%s:3:", path);
    assert_non_null(strstr(err, where));
    assert_null(r.servers); /* nothing half-read is a result */
    unlink(path);
}

/* A cluster event that fails at run time says where the scenario file
 * defines it: FILE:LINE of its [event NAME] section (issue 12). */
static void test_event_error_names_file_and_line(void **state)
{
    (void)state;
    const char *path = write_file("[cluster]\n"
                                  "servers = 4\n"
                                  "\n"
                                  "[workload]\n"
                                  "duration = 3m\n"
                                  "\n"
                                  "[event drain]\n"
                                  "at = 1m\n"
                                  "action = decommission\n"
                                  "server = 3\n"
                                  "\n"
                                  "[event crash]\n"
                                  "at = 2m\n"
                                  "action = fail\n"
                                  "server = 3\n");
    char file[160];
    snprintf(file, sizeof file, "%s", path);
    scenario sc;
    char err[512] = "";
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, file, err, sizeof err), 0);
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "salted");
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), -1);
    char want[256];
    snprintf(want, sizeof want, "%s:12: event crash: rs3 is not in the cluster at that time",
             file);
    assert_string_equal(err, want);
    scenario_release(&sc);
    unlink(file);
}

/* A key over HBase's 32767 bytes stops the run, naming the scheme by its
 * label and its expression (issue 12). */
static void test_long_key_names_the_scheme(void **state)
{
    (void)state;
    char *text = malloc(20100);
    assert_non_null(text);
    int n = snprintf(text, 20100, "time,op,key\n0,put,");
    memset(text + n, 'a', 20000);
    snprintf(text + n + 20000, 20100 - (size_t)n - 20000, "\n");
    const char *path = write_file(text);
    free(text);
    char file[160];
    snprintf(file, sizeof file, "%s", path);
    scenario sc;
    char err[512] = "";
    short_scenario(&sc, "key");
    sc.nschemes = 0;
    scenario_add_scheme(&sc, "twice", "key key");
    sc.workload.pattern.kind = PATTERN_TRACE;
    sc.workload.pattern.trace_path = file;
    sc.workload.duration_given = 0;
    sim_results res;
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), -1);
    assert_string_equal(err, "scheme 'twice' (key key): it made a row key of 40000 bytes, "
                             "longer than HBase's limit of 32767 bytes "
                             "(HConstants.MAX_ROW_LENGTH)");
    unlink(file);
}

/* Runs fn(ctx) in a child process under an address-space limit of
 * `limit` bytes (none under AddressSanitizer) and an alarm of `seconds`,
 * and expects it to exit 0: a run that needs more memory than its inputs
 * warrant fails the test (out of memory, an abort or the kill) instead of
 * taking the machine. */
static void run_limited(void (*fn)(void *), void *ctx, uint64_t limit, unsigned seconds)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = { (rlim_t)limit, (rlim_t)limit };
        if (!UNDER_ASAN && setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        alarm(seconds);
        fn(ctx);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status))
        fprintf(stderr, "the child died of signal %d\n", WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0)
        fprintf(stderr, "the child exited with %d\n", WEXITSTATUS(status));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* An entities workload over every 32-bit id, keyed by uid(entity, 4). */
static void uid_scenario(scenario *sc, uint64_t records, uint64_t duration_us)
{
    short_scenario(sc, "uid(entity, 4)");
    sc->workload.pattern.kind = PATTERN_ENTITIES;
    sc->workload.pattern.distribution = DIST_UNIFORM;
    sc->workload.pattern.records = records;
    sc->workload.pattern.rate_per_s = 1000;
    sc->workload.duration_us = duration_us;
}

static void run_uid_over_every_id(void *ctx)
{
    (void)ctx;
    scenario sc;
    char err[256];
    uid_scenario(&sc, UINT32_MAX, 1000000);
    sim_results res;
    if (engine_run_all(&sc, NULL, &res, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        _exit(1);
    }
    if (res.runs[0].writes != 1000 || res.runs[0].rows != 1000)
        _exit(1);
    sim_results_free(&res);
}

/* A UID table grows with the names written, not with the largest id:
 * 1,000 writes of entities drawn from 2^32 - 1 ids run in 256 MiB of
 * address space (the table used to be sized by the largest id: 16 GiB,
 * and the run aborted; issue 12). */
static void test_uid_table_grows_with_the_names_written(void **state)
{
    (void)state;
    run_limited(run_uid_over_every_id, NULL, 256ull << 20, 5);
}

static void run_zipfian_over_every_id(void *ctx)
{
    scenario sc;
    char err[256];
    uid_scenario(&sc, UINT32_MAX, 1000000);
    sc.workload.pattern.distribution = *(const dist_kind *)ctx;
    sim_results res;
    if (engine_run_all(&sc, NULL, &res, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        _exit(1);
    }
    if (res.runs[0].writes != 1000)
        _exit(1);
    sim_results_free(&res);
}

/* The same with the rank-ordered zipfian and with latest over 2^32 - 1
 * records: their zeta is not summed over 4 billion terms (a minute)
 * before the first write. (YCSB's zipfian, the scrambled one, uses a
 * precomputed zeta.) */
static void test_zipfian_over_every_id_starts_at_once(void **state)
{
    (void)state;
    static const dist_kind kinds[] = { DIST_RANKED_ZIPFIAN, DIST_LATEST, DIST_ZIPFIAN };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        run_limited(run_zipfian_over_every_id, (void *)&kinds[i], 256ull << 20, 5);
}

static void run_four_billion_writes(void *ctx)
{
    (void)ctx;
    scenario sc;
    char err[512] = "";
    short_scenario(&sc, "seq");
    sc.workload.pattern.kind = PATTERN_SEQUENCE;
    sc.workload.pattern.rate_per_s = 1e9;
    sc.workload.duration_us = 4ull * 1000000;
    sc.engine = ENGINE_MODE_PER_OP; /* weighted, it would fit (test_weighted_*) */
    sim_results res;
    if (engine_run_all(&sc, NULL, &res, err, sizeof err) != -1 ||
        !strstr(err, "the run would need about ")) {
        fprintf(stderr, "expected a refusal, got: %s\n", err);
        _exit(1);
    }
}

/* 4 billion writes (--pattern sequence --rate 1000000000/s --duration 4s)
 * need over 100 GiB: under a 4 GiB ulimit the run is refused at once,
 * naming the limit, instead of running until memory runs out (issue 12). */
static void test_four_billion_writes_refused_at_once(void **state)
{
    (void)state;
    run_limited(run_four_billion_writes, NULL, 4ull << 30, 5);
}

/* What the observer saw of UIDs: the one each entity got first. */
typedef struct uid_watch {
    uint32_t uid_of[64];   /* by entity id; 0 = not seen yet */
    uint32_t last;         /* the last UID handed out */
    uint64_t writes;
} uid_watch;

static int watch_uids(void *ctx, uint64_t t_us, const record *rec, keyref key,
                      const cluster *c, uint32_t s)
{
    (void)t_us, (void)c, (void)s;
    uid_watch *w = ctx;
    assert_int_equal(key.len, 4);
    uint32_t uid = (uint32_t)key.data[0] << 24 | (uint32_t)key.data[1] << 16 |
                   (uint32_t)key.data[2] << 8 | key.data[3];
    assert_true(rec->entity < 64);
    if (w->uid_of[rec->entity] == 0) { /* first seen: the next UID */
        assert_int_equal(uid, w->last + 1);
        w->uid_of[rec->entity] = uid;
        w->last = uid;
    } else { /* seen before: the same UID */
        assert_int_equal(uid, w->uid_of[rec->entity]);
    }
    w->writes++;
    return 0;
}

/* OpenTSDB assigns UIDs 1, 2, 3... in order of first use, and a name
 * keeps its UID: the hash table gives the keys the dense table gave. */
static void test_uids_in_order_of_first_use(void **state)
{
    (void)state;
    scenario sc;
    char err[256];
    uid_scenario(&sc, 50, 10000000);
    uid_watch w;
    memset(&w, 0, sizeof w);
    engine_observer obs = { .on_op = watch_uids, .ctx = &w };
    run_result r;
    assert_int_equal(engine_run(&sc, 0, &obs, &r, err, sizeof err), 0);
    assert_int_equal(w.writes, 10000);
    assert_int_equal(w.last, 50); /* every entity met, one UID each */
    assert_int_equal(r.rows, 50);
    run_result_free(&r);
}

/* The region log's key strings: each distinct key once, whatever its
 * length (a key of the longest length, whose shell form needs a block of
 * its own, between short ones), across many blocks and regrown slots. */
static void test_history_keys_once(void **state)
{
    (void)state;
    split_policy p = { .kind = SPLIT_DISABLED, .max_bytes = 0 };
    size_t bad;
    cluster *c = cluster_new(1, NULL, 0, p, &bad);
    assert_non_null(c);
    history h;
    history_init(&h, c);
    uint8_t *key = malloc(KEY_MAX_LEN);
    assert_non_null(key);
    memset(key, 0x01, KEY_MAX_LEN); /* \x01 each: 4 characters a byte */
    enum { SHORT = 20000 };
    for (int round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < SHORT; i++) {
            uint8_t k[4] = { (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i, 0xFF };
            history_journal(&h, CLUSTER_MOVE, NULL, keyref_of(k, sizeof k), 0, 0, NULL);
            if (i % 5000 == 0) /* the longest key, and one a byte shorter */
                history_journal(&h, CLUSTER_MOVE, NULL,
                                keyref_of(key, KEY_MAX_LEN - (i / 5000) % 2), 0, 0, NULL);
        }
    }
    run_result out;
    memset(&out, 0, sizeof out);
    assert_int_equal(history_finish(&h, c, 0, &out), 0);
    size_t per_round = SHORT + SHORT / 5000;
    assert_int_equal(out.nevents, 2 * per_round);
    char want[32];
    for (size_t e = 0, i = 0; e < per_round; e++) {
        const char *first = out.events[e].key, *again = out.events[e + per_round].key;
        assert_non_null(first);
        assert_ptr_equal(first, again); /* stored once */
        if (strlen(first) > 100) {
            assert_int_equal(strlen(first), 4 * (size_t)(KEY_MAX_LEN - (i / 5000) % 2));
            assert_memory_equal(first, "\\x01\\x01", 8);
            continue;
        }
        uint8_t k[4] = { (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i, 0xFF };
        key_format(keyref_of(k, sizeof k), want, sizeof want); /* the shell form */
        i++;
        assert_string_equal(first, want);
    }
    history_free_results(&out);
    free(key);
    cluster_free(c);
}

/* The split path's keys (each split reads ahead its region's two keys and
 * the split key: history_journal): what a journal watching beside the
 * history formats from the region itself, the log and timeline hold, for
 * thousands of splits of random 16-byte keys. */
typedef struct split_watch {
    history *h;
    char (*start)[80], (*end)[80], (*key)[80];
    size_t n, cap;
} split_watch;

static void watch_splits(void *ctx, cluster_change what, const region *r, keyref at,
                         uint32_t from, uint32_t to, const split_why *why)
{
    split_watch *w = ctx;
    if (what == CLUSTER_SPLIT) {
        assert_true(w->n < w->cap);
        key_format(region_start(r), w->start[w->n], 80);
        key_format(region_end(r), w->end[w->n], 80);
        key_format(at, w->key[w->n], 80);
        w->n++;
    }
    history_journal(w->h, what, r, at, from, to, why);
}

static void test_history_split_keys(void **state)
{
    (void)state;
    split_policy p;
    split_policy_defaults(&p, SPLIT_CONSTANT);
    p.max_bytes = 400;
    p.flush_bytes = 1;
    p.jitter = 0;
    size_t bad;
    cluster *c = cluster_new(1, NULL, 0, p, &bad);
    assert_non_null(c);
    history h;
    history_init(&h, c);
    enum { CAP = 8000 };
    split_watch w = { &h, calloc(CAP, 80), calloc(CAP, 80), calloc(CAP, 80), 0, CAP };
    assert_true(w.start && w.end && w.key);
    c->journal = watch_splits;
    c->journal_ctx = &w;
    uint64_t x = 12345;
    for (int i = 0; i < 40000; i++) {
        uint8_t k[16];
        for (int b = 0; b < 16; b++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            k[b] = (uint8_t)(x >> 56);
        }
        uint32_t server;
        uint64_t reply;
        c->now_us += 1000;
        assert_int_equal(cluster_write(c, keyref_of(k, sizeof k), 50, 1, &server, &reply), 0);
    }
    assert_true(w.n > 1000);
    run_result out;
    memset(&out, 0, sizeof out);
    assert_int_equal(history_finish(&h, c, c->now_us, &out), 0);
    size_t e = 0;
    for (size_t i = 0; i < w.n; i++) {
        assert_true(out.history[i].split);
        assert_string_equal(out.history[i].start, w.start[i]);
        assert_string_equal(out.history[i].end, w.end[i]);
        while (out.events[e].kind != TIMELINE_SPLIT)
            e++;
        assert_string_equal(out.events[e++].key, w.key[i]);
    }
    char want[80];
    for (size_t i = 0; i < regionmap_count(c->map); i++) { /* the live ones, in key order */
        const region_result *lr = &out.history[w.n + i];
        assert_false(lr->split);
        key_format(region_start(regionmap_get(c->map, i)), want, sizeof want);
        assert_string_equal(lr->start, want);
        key_format(region_end(regionmap_get(c->map, i)), want, sizeof want);
        assert_string_equal(lr->end, want);
    }
    history_free_results(&out);
    free(w.start);
    free(w.end);
    free(w.key);
    cluster_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_are_values),
        cmocka_unit_test(test_windows_and_ticks),
        cmocka_unit_test(test_balancer_runs_once_per_period),
        cmocka_unit_test(test_hbase_inputs_from_the_seed),
        cmocka_unit_test(test_meta_from_the_seed),
        cmocka_unit_test(test_measure_from_counts_the_second_half),
        cmocka_unit_test(test_done_counts_the_replies_in_the_measured_span),
        cmocka_unit_test(test_observer_sees_every_write_and_can_stop),
        cmocka_unit_test(test_progress_ends_at_the_whole_run),
        cmocka_unit_test(test_presplit_and_labels),
        cmocka_unit_test(test_bad_scheme_is_an_error_with_no_result),
        cmocka_unit_test(test_phases_run_back_to_back),
        cmocka_unit_test(test_trace_replay_counts_reads_and_writes),
        cmocka_unit_test(test_bad_trace_line_fails_the_run),
        cmocka_unit_test(test_closed_loop_replay_ends_with_its_trace),
        cmocka_unit_test(test_trace_cut_by_the_duration_counts_what_it_left_out),
        cmocka_unit_test(test_trace_at_one_instant_is_refused),
        cmocka_unit_test(test_uid_table_grows_with_the_names_written),
        cmocka_unit_test(test_uids_in_order_of_first_use),
        cmocka_unit_test(test_zipfian_over_every_id_starts_at_once),
        cmocka_unit_test(test_four_billion_writes_refused_at_once),
        cmocka_unit_test(test_weighted_runs),
        cmocka_unit_test(test_event_error_names_file_and_line),
        cmocka_unit_test(test_long_key_names_the_scheme),
        cmocka_unit_test(test_history_keys_once),
        cmocka_unit_test(test_history_split_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
