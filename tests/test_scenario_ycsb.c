/* test_scenario_ycsb.c -- YCSB workloads in scenarios (scenario/scenario_ycsb.c),
 * end to end through the engine.
 *
 * A scenario names a YCSB workload (ycsb = W, [ycsb] properties, -p
 * overrides) and becomes YCSB's two invocations, load and run; settings
 * without effect are refused; and runs show what the issue asks of them:
 * workload D returns a record for every read, E's scans read about 50 rows
 * (uniform 1 .. 100), a run written as a trace replays to the same
 * per-server counts, and a BasicDB log replays without conversion.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support.h"

#include "engine/engine.h"
#include "scenario/scenario.h"
#include "workloads/trace.h"
#include "workloads/ycsb_workload.h"

static const char *data_dir;

/* The default scenario with one scheme, `key` (YCSB's own row keys). */
static void key_scenario(scenario *sc)
{
    scenario_defaults(sc);
    sc->nschemes = 0;
    scenario_add_scheme(sc, NULL, "key");
}

static void set(scenario *sc, const char *key, const char *value)
{
    char err[512];
    if (scenario_set(sc, NULL, key, value, err, sizeof err) != 0)
        fail_msg("%s = %s: %s", key, value, err);
}

static void property(scenario *sc, const char *pair)
{
    char name[64], origin[128], err[512];
    const char *eq = strchr(pair, '=');
    assert_non_null(eq);
    snprintf(name, sizeof name, "%.*s", (int)(eq - pair), pair);
    snprintf(origin, sizeof origin, "-p %s", pair);
    if (scenario_ycsb_property(sc, name, eq + 1, origin, err, sizeof err) != 0)
        fail_msg("%s: %s", pair, err);
}

/* Builds and validates; returns 0 or -1 with the message in err. */
static int build(scenario *sc, char *err, size_t cap)
{
    if (scenario_ycsb_build(sc, err, cap) < 0)
        return -1;
    return scenario_validate(sc, err, cap);
}

static void build_ok(scenario *sc)
{
    char err[512];
    if (build(sc, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static run_result run(const scenario *sc)
{
    run_result r;
    char err[512];
    if (engine_run(sc, 0, NULL, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    return r;
}

/* --ycsb a: two phases, load and run, each the YCSB pattern with its
 * threads as closed-loop clients; a target makes them open-loop. */
static void test_workload_makes_load_and_run_phases(void **state)
{
    (void)state;
    scenario sc;
    key_scenario(&sc);
    set(&sc, "ycsb", "a");
    property(&sc, "threadcount=4");
    build_ok(&sc);
    assert_int_equal(scenario_phase_count(&sc), 2);
    const phase *load = scenario_phase(&sc, 0), *ph = scenario_phase(&sc, 1);
    assert_string_equal(load->name, "load");
    assert_string_equal(ph->name, "run");
    assert_int_equal(load->pattern.kind, PATTERN_YCSB);
    assert_int_equal(load->pattern.ycsb_phase, YCSB_PHASE_LOAD);
    assert_int_equal(ph->pattern.ycsb_phase, YCSB_PHASE_RUN);
    assert_int_equal(load->clients, 4);
    assert_int_equal(ph->clients, 4);
    assert_int_equal(sc.ycsb->core.recordcount, 1000); /* workloada's */
    assert_true(sc.ycsb->core.readproportion == 0.5);
    scenario_release(&sc);

    key_scenario(&sc);
    set(&sc, "ycsb", "c");
    property(&sc, "target=2000");
    property(&sc, "maxexecutiontime=30");
    build_ok(&sc);
    ph = scenario_phase(&sc, 1);
    assert_int_equal(ph->clients, 0);
    assert_true(ph->pattern.ycsb_rate_per_s == 2000);
    assert_true(ph->duration_given && ph->duration_us == 30000000);
    scenario_release(&sc);
}

/* A file: ycsb = c in [workload] and [ycsb] properties; -p overrides the
 * file whatever the order; a bad property names the file and line. */
static void test_scenario_file_and_overrides(void **state)
{
    (void)state;
    scenario sc;
    char err[768];
    const char *path = test_temp_file("ycsb-scenario", "[workload]\nycsb = c\n"
                                      "[ycsb]\nrecordcount = 5000\noperationcount = 7000\n"
                                      "[scheme k]\nkey = key\n");
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), 0);
    property(&sc, "operationcount=9000");
    build_ok(&sc);
    assert_int_equal(sc.ycsb->core.recordcount, 5000);
    assert_int_equal(sc.ycsb->core.operationcount, 9000);
    scenario_release(&sc);
    unlink(path);

    path = test_temp_file("ycsb-scenario", "[workload]\nycsb = c\n[ycsb]\nrecordcont = 5\n");
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), -1);
    assert_contains(err, ":4: ");
    assert_contains(err, "recordcount");
    scenario_release(&sc);
    unlink(path);

    path = test_temp_file("ycsb-scenario", "[workload]\nycsb = c\n[ycsb]\nrecordcount = lots\n");
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), 0);
    assert_int_equal(build(&sc, err, sizeof err), -1);
    assert_contains(err, ":4: recordcount");
    assert_contains(err, "lots");
    scenario_release(&sc);
    unlink(path);
}

/* A property file of the user's, relative to the scenario file. */
static void test_property_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/ycsb-dir-XXXXXX", props[256], ini[256], err[768];
    assert_non_null(mkdtemp(dir));
    snprintf(props, sizeof props, "%s/mine.properties", dir);
    snprintf(ini, sizeof ini, "%s/s.ini", dir);
    FILE *f = fopen(props, "w");
    fputs("# mine\nrecordcount=300\noperationcount=400\nreadproportion=0\n"
          "updateproportion=1\nrequestdistribution=uniform\n", f);
    fclose(f);
    f = fopen(ini, "w");
    fputs("[workload]\nycsb = mine.properties\n", f);
    fclose(f);
    scenario sc;
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, ini, err, sizeof err), 0);
    build_ok(&sc);
    assert_int_equal(sc.ycsb->core.recordcount, 300);
    assert_int_equal(sc.ycsb->core.requestdistribution, YCSB_REQ_UNIFORM);
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "key");
    run_result r = run(&sc);
    assert_int_equal(r.writes, 700); /* 300 inserts, 400 updates */
    assert_int_equal(r.reads, 0);
    run_result_free(&r);
    scenario_release(&sc);
    unlink(props);
    unlink(ini);
    rmdir(dir);
}

/* A property no line set: the message says it comes from the YCSB
 * workload ("ycsb: operationcount: ..."), when the buffer has room for
 * the prefix; a shorter buffer keeps the message as it is. */
static void test_an_unset_property_names_the_workload(void **state)
{
    (void)state;
    char dir[] = "/tmp/ycsb-unset-XXXXXX", props[256], err[768];
    assert_non_null(mkdtemp(dir));
    snprintf(props, sizeof props, "%s/w.properties", dir);
    FILE *f = fopen(props, "w");
    assert_non_null(f);
    fputs("recordcount=100\n", f);
    fclose(f);
    scenario sc;
    key_scenario(&sc);
    set(&sc, "ycsb", props);
    assert_int_equal(scenario_ycsb_build(&sc, err, sizeof err), -1);
    assert_memory_equal(err, "ycsb: operationcount: ", 22);
    assert_contains(err, "it is not set");
    scenario_release(&sc);
    size_t n = strlen(err) - 6; /* the message's own length */
    key_scenario(&sc);
    set(&sc, "ycsb", props);
    char small[1024];
    assert_true(n + 7 <= sizeof small);
    assert_int_equal(scenario_ycsb_build(&sc, small, n + 6), -1); /* no room for the prefix */
    assert_memory_equal(small, "operationcount: ", 16);
    scenario_release(&sc);
    unlink(props);
    rmdir(dir);
}

/* What has no effect on a YCSB workload is refused, naming itself; a
 * property without a workload too; and [phase] sections with one. */
static void test_settings_without_effect_refused(void **state)
{
    (void)state;
    static const char *const settings[][2] = {
        { "rate", "100/s" }, { "distribution", "uniform" }, { "records", "10" },
        { "read_fraction", "0.5" }, { "clients", "3" }, { "insert_fraction", "0.1" },
    };
    char err[768];
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
        scenario sc;
        key_scenario(&sc);
        set(&sc, "ycsb", "b");
        set(&sc, settings[i][0], settings[i][1]);
        assert_int_equal(build(&sc, err, sizeof err), -1);
        assert_true(!strncmp(err, settings[i][0], strlen(settings[i][0])));
        assert_contains(err, "YCSB");
        scenario_release(&sc);
    }
    scenario sc;
    key_scenario(&sc);
    property(&sc, "recordcount=10");
    assert_int_equal(build(&sc, err, sizeof err), -1);
    assert_contains(err, "-p recordcount=10");
    assert_contains(err, "--ycsb");
    scenario_release(&sc);

    const char *path = test_temp_file("ycsb-phases", "[workload]\nycsb = a\n[phase warm]\n"
                                      "duration = 1m\n");
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), 0);
    assert_int_equal(build(&sc, err, sizeof err), -1);
    assert_contains(err, "[phase warm]");
    scenario_release(&sc);
    unlink(path);
}

/* Workload D (latest reads of new inserts): every read returns a record. */
static void test_workload_d_returns_a_record_for_every_read(void **state)
{
    (void)state;
    scenario sc;
    key_scenario(&sc);
    set(&sc, "ycsb", "d");
    property(&sc, "recordcount=5000");
    property(&sc, "operationcount=20000");
    build_ok(&sc);
    run_result r = run(&sc);
    assert_true(r.reads > 18000);
    assert_int_equal(r.records_returned, r.reads);
    assert_int_equal(r.reads_by_kind[QUERY_GET], r.reads);
    assert_int_equal(r.writes + r.reads, 25000);
    run_result_free(&r);
    scenario_release(&sc);
}

/* Workload E: scans of 1 .. 100 rows (uniform) read about 50 rows each,
 * one RPC per region they touch; under `key` every row is one record. */
static void test_workload_e_scans_read_about_50_rows(void **state)
{
    (void)state;
    scenario sc;
    key_scenario(&sc);
    set(&sc, "ycsb", "e");
    set(&sc, "region_size", "256KiB");
    property(&sc, "recordcount=20000");
    property(&sc, "operationcount=10000");
    build_ok(&sc);
    run_result r = run(&sc);
    uint64_t scans = r.reads_by_kind[QUERY_SCAN];
    assert_true(scans > 9300 && scans < 9700);
    double rows = (double)r.rows_scanned_by_kind[QUERY_SCAN] / (double)scans;
    assert_true(rows > 48 && rows < 53);
    assert_int_equal(r.records_returned_by_kind[QUERY_SCAN], r.rows_scanned_by_kind[QUERY_SCAN]);
    assert_true(r.read_rpcs_by_kind[QUERY_SCAN] > scans); /* some cross a region's end */
    assert_true(r.regions > 10);
    run_result_free(&r);
    scenario_release(&sc);
}

/* Cell sizes per phase: YCSB's load writes 1 KB records (10 fields of
 * 100 B), its updates 100 B (one field); and any scenario's phases may
 * set their own value_bytes. Bytes per write = cells x (key + framing) +
 * values. */
static void test_cell_sizes_per_phase(void **state)
{
    (void)state;
    scenario sc;
    key_scenario(&sc);
    set(&sc, "ycsb", "a");
    property(&sc, "readproportion=0");
    property(&sc, "updateproportion=1");
    build_ok(&sc);
    run_result r = run(&sc);
    /* 1000 loaded records of 10 cells, 1000 updates of 1 cell; keys of
     * 19..23 bytes, 23 bytes of framing (KeyValue's 20, family 1,
     * qualifier 2) */
    uint64_t framing = scenario_cell_overhead(&sc) - sc.workload.value_bytes;
    uint64_t lo = 1000 * (10 * (19 + framing) + 1000) + 1000 * (19 + framing + 100);
    uint64_t hi = 1000 * (10 * (23 + framing) + 1000) + 1000 * (23 + framing + 100);
    uint64_t bytes = 0;
    for (uint32_t s = 0; s < r.nservers; s++)
        bytes += r.servers[s].bytes;
    assert_true(bytes >= lo && bytes <= hi);
    run_result_free(&r);
    scenario_release(&sc);

    char err[768];
    const char *path = test_temp_file("phase-sizes", "[workload]\npattern = sequence\n"
                                      "rate = 100/s\nnaming = id\n"
                                      "[phase load]\nduration = 10s\nvalue_bytes = 1000\n"
                                      "[phase run]\nduration = 10s\nvalue_bytes = 100\n"
                                      "[scheme k]\nkey = entity:str\n");
    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, path, err, sizeof err), 0);
    build_ok(&sc);
    r = run(&sc);
    bytes = 0;
    for (uint32_t s = 0; s < r.nservers; s++)
        bytes += r.servers[s].bytes;
    /* 1000 writes of each: 10-byte ids, the default framing */
    uint64_t cell = 10 + framing;
    assert_int_equal(bytes, 1000 * (cell + 1000) + 1000 * (cell + 100));
    run_result_free(&r);
    scenario_release(&sc);
    unlink(path);
}

/* ---- traces ---- */

typedef struct tracer {
    trace_writer *w;
} tracer;

static int trace_op(void *ctx, uint64_t t_us, const record *rec, keyref key, const cluster *c,
                    uint32_t server)
{
    (void)c, (void)server;
    tracer *tr = ctx;
    uint32_t arg = rec->op == RECORD_SCAN ? rec->rows : rec->value_bytes;
    return trace_write_cells(tr->w, t_us, (record_op)rec->op, key.data, key.len, arg,
                             rec->cells) != 0;
}

/* A YCSB run written as a trace (every operation: reads, scans and
 * read-modify-writes too, at their times, records of 10 cells) replays to
 * the same per-server writes, bytes and read RPCs. */
static void test_written_trace_replays_to_the_same_counts(void **state)
{
    (void)state;
    for (const char *w = "aef"; *w; w++) {
        char name[2] = { *w, 0 }, err[512];
        scenario sc;
        key_scenario(&sc);
        set(&sc, "ycsb", name);
        set(&sc, "servers", "4");
        set(&sc, "region_size", "256KiB");
        set(&sc, "balancer_period", "5s");
        set(&sc, "split_keys", "user2,user4,user6,user8");
        property(&sc, "recordcount=10000");
        property(&sc, "operationcount=10000");
        property(&sc, "target=1000");
        build_ok(&sc);
        char path[] = "/tmp/ycsb-trace-XXXXXX";
        int fd = mkstemp(path);
        FILE *f = fdopen(fd, "w");
        tracer tr = { trace_writer_new(f, path, 0, err, sizeof err) };
        assert_non_null(tr.w);
        engine_observer obs = { .on_op = trace_op, .ctx = &tr };
        run_result a;
        assert_int_equal(engine_run(&sc, 0, &obs, &a, err, sizeof err), 0);
        assert_int_equal(trace_finish(tr.w, err, sizeof err), 0);
        fclose(f);
        scenario_release(&sc);

        key_scenario(&sc);
        set(&sc, "trace", path);
        set(&sc, "servers", "4");
        set(&sc, "region_size", "256KiB");
        set(&sc, "balancer_period", "5s");
        set(&sc, "split_keys", "user2,user4,user6,user8");
        build_ok(&sc);
        run_result b = run(&sc);
        assert_int_equal(a.writes, b.writes);
        assert_int_equal(a.reads, b.reads);
        for (uint32_t s = 0; s < a.nservers; s++) {
            assert_int_equal(a.servers[s].writes, b.servers[s].writes);
            assert_int_equal(a.servers[s].reads, b.servers[s].reads);
            assert_int_equal(a.servers[s].bytes, b.servers[s].bytes);
        }
        assert_int_equal(a.regions, b.regions);
        uint32_t busy = 0;
        for (uint32_t s = 0; s < a.nservers; s++)
            busy += a.servers[s].writes > 0;
        assert_true(busy >= 3); /* the counts are spread, not all on one server */
        run_result_free(&a);
        run_result_free(&b);
        scenario_release(&sc);
        unlink(path);
    }
}

/* A BasicDB log (tests/data/ycsb_basicdb_a.log: YCSB's own output)
 * replays as it is: its inserts and updates as writes, its reads as
 * reads, spaced at YCSB's target or closed-loop. */
static void test_basicdb_log_replays(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/ycsb_basicdb_f.log", data_dir);
    if (access(path, R_OK) != 0) /* committed: a broken tree */
        fail_msg("%s: %s", path, strerror(errno));
    scenario sc;
    key_scenario(&sc);
    set(&sc, "trace", path);
    set(&sc, "trace_format", "ycsb");
    property(&sc, "target=1000");
    build_ok(&sc);
    run_result r = run(&sc);
    /* workload f: 1000 inserts; 2000 operations, half reads, half
     * read-modify-writes (a READ and an UPDATE line each) */
    uint64_t writes = 0, reads = 0;
    char line[4096];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        writes += !strncmp(line, "INSERT ", 7) || !strncmp(line, "UPDATE ", 7);
        reads += !strncmp(line, "READ ", 5);
    }
    fclose(f);
    assert_int_equal(r.writes, writes);
    assert_int_equal(r.reads, reads);
    assert_true(reads > 1900 && writes > 1900);
    assert_int_equal(r.records_returned, r.reads); /* reads only of keys YCSB wrote */
    assert_int_equal(r.duration_us, (writes + reads - 1) * 1000 + 1); /* one a ms */
    run_result_free(&r);
    scenario_release(&sc);

    key_scenario(&sc); /* without a rate: closed-loop, one client */
    set(&sc, "trace", path);
    set(&sc, "trace_format", "ycsb");
    build_ok(&sc);
    assert_int_equal(scenario_phase(&sc, 0)->clients, 1);
    r = run(&sc);
    assert_int_equal(r.writes, writes);
    run_result_free(&r);
    scenario_release(&sc);
}

int main(int argc, char **argv)
{
    data_dir = argc > 1 ? argv[1] : "tests/data";
    setenv("TZ", "UTC", 1);
    setenv("LC_ALL", "C", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workload_makes_load_and_run_phases),
        cmocka_unit_test(test_scenario_file_and_overrides),
        cmocka_unit_test(test_property_file),
        cmocka_unit_test(test_an_unset_property_names_the_workload),
        cmocka_unit_test(test_settings_without_effect_refused),
        cmocka_unit_test(test_workload_d_returns_a_record_for_every_read),
        cmocka_unit_test(test_workload_e_scans_read_about_50_rows),
        cmocka_unit_test(test_cell_sizes_per_phase),
        cmocka_unit_test(test_written_trace_replays_to_the_same_counts),
        cmocka_unit_test(test_basicdb_log_replays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
