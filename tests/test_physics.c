/* test_physics.c -- end-to-end: the row-key chapter's claims, measured.
 *
 * These run the whole engine (workload -> key scheme -> cluster) and check
 * what HBase users observe, not how the code does it:
 * - monotonic keys put nearly all of a window's writes on one server;
 * - salted keys over N buckets on a table pre-split at the buckets spread
 *   writes evenly over N servers;
 * - the same scenario and seed give byte-identical JSON, twice in one process.
 *
 * Usage: test_physics [--oom]. With --oom (the meson test physics_oom),
 * only the out-of-memory checks, which need a build without
 * AddressSanitizer: under it they exit 77, which meson counts as skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "reports/report.h"
#include "reports/stats.h"
#include "engine/engine.h"
#include "workloads/keyscheme.h"
#include "tests/support.h"

static void small_scenario(scenario *sc, const char *scheme)
{
    scenario_defaults(sc);
    sc->workload.duration_us = 12ull * 60 * 1000000; /* 12 simulated minutes */
    sc->region_max_bytes = 1u << 20;
    sc->split_policy = SPLIT_CONSTANT; /* every split at 1 MiB: the counts below */
    sc->nschemes = 0;
    scenario_add_scheme(sc, NULL, scheme);
}

static double window_max_mean(const run_result *r, uint32_t w)
{
    uint64_t max = 0, sum = 0;
    for (uint32_t s = 0; s < r->nservers; s++) {
        uint64_t v = r->window_writes[(size_t)w * r->nservers + s];
        sum += v;
        if (v > max)
            max = v;
    }
    return sum ? (double)max * r->nservers / (double)sum : 0.0;
}

static double run_max_mean(const run_result *r) /* over the whole run */
{
    uint64_t max = 0, sum = 0;
    for (uint32_t s = 0; s < r->nservers; s++) {
        sum += r->servers[s].writes;
        if (r->servers[s].writes > max)
            max = r->servers[s].writes;
    }
    return (double)max * r->nservers / (double)sum;
}

static void run_one(const scenario *sc, run_result *out)
{
    char err[256];
    assert_int_equal(engine_run(sc, 0, NULL, out, err, sizeof err), 0);
}

static void test_monotonic_hotspots_one_server_per_window(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "monotonic");
    run_result r;
    run_one(&sc, &r);
    assert_true(r.splits >= 5);   /* the table grew ... */
    assert_true(r.moves >= 1);    /* ... and the balancer spread the regions */
    uint32_t hot_windows = 0;
    for (uint32_t w = 0; w < r.nwindows; w++)
        hot_windows += window_max_mean(&r, w) > 7.5;
    /* max/mean close to 8 in every window but those in which the balancer
     * moved the hot region. */
    assert_true(hot_windows >= r.nwindows - 2);
    /* SimpleLoadBalancer offloads the newest regions, the hot one among
     * them: the hotspot travels, so more than one server took a real share. */
    uint32_t hosts = 0;
    for (uint32_t s = 0; s < r.nservers; s++)
        hosts += r.servers[s].writes > r.writes / 10;
    assert_true(hosts >= 2);
    run_result_free(&r);
}

static void test_salted_presplit_spreads_evenly(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "salted");
    run_result r;
    run_one(&sc, &r);
    assert_int_equal(r.regions_start, 8);
    assert_true(r.splits >= 8);
    assert_true(run_max_mean(&r) < 1.05);
    for (uint32_t w = 0; w < r.nwindows; w++)
        assert_true(window_max_mean(&r, w) < 1.2);
    run_result_free(&r);
}

static void test_salted_without_presplit_starts_hot(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "salted");
    sc.presplit = PRESPLIT_NONE;
    run_result r;
    run_one(&sc, &r);
    assert_int_equal(r.regions_start, 1);
    /* One region on one server until it splits and the balancer acts. */
    assert_true(window_max_mean(&r, 0) > 7.5);
    run_result_free(&r);
}

static char *json_of(const scenario *sc)
{
    sim_results res;
    char err[256];
    assert_int_equal(engine_run_all(sc, NULL, &res, err, sizeof err), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    json_write(f, &res);
    fclose(f);
    sim_results_free(&res);
    return text;
}

static void test_same_seed_byte_identical_json(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "salted");
    sc.workload.duration_us = 3ull * 60 * 1000000;
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "salted");
    scenario_add_scheme(&sc, NULL, "monotonic");
    scenario_add_scheme(&sc, NULL, "opentsdb");
    char *a = json_of(&sc), *b = json_of(&sc);
    assert_non_null(a);
    assert_true(strlen(a) > 1000);
    assert_string_equal(a, b);
    /* The seed matters: salt buckets are drawn from it. */
    sc.seed = 43;
    char *c = json_of(&sc);
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
}

static void test_counts_are_consistent(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "promoted");
    run_result r;
    run_one(&sc, &r);
    uint64_t by_server = 0, by_window = 0, regions = 0, warmup = 0;
    for (uint32_t s = 0; s < r.nservers; s++) {
        by_server += r.servers[s].writes;
        warmup += r.servers[s].warmup_writes;
        regions += r.servers[s].regions;
    }
    for (size_t i = 0; i < (size_t)r.nwindows * r.nservers; i++)
        by_window += r.window_writes[i];
    assert_int_equal(by_server, r.writes);
    /* measured from the warm-up's end (measure_from = auto): the windows
     * cover the whole run, the warm-up's writes and the measured ones */
    assert_true(r.warmup_ended && r.measure_from_us == r.warmup_us && r.warmup_us > 0);
    assert_int_equal(by_window, r.writes + warmup);
    assert_int_equal(regions, r.regions);
    assert_int_equal(r.regions, r.regions_start + r.splits);
    /* 1000 series x 1/s x 12 min. */
    assert_int_equal(by_window, 1000ull * 12 * 60);
    assert_int_equal(r.rows, by_window); /* entity ts: every write a new row */
    run_result_free(&r);
}

/* One server, Poisson arrivals, exponential service: an M/M/1 queue, whose
 * mean time in system is 1 / (mu - lambda). */
static double mm1_mean_latency(double lambda, double service_us, uint64_t seed)
{
    scenario sc;
    scenario_defaults(&sc);
    sc.seed = seed;
    sc.servers = 1;
    sc.region_max_bytes = 1ull << 50; /* no splits: nothing but the queue */
    sc.balancer = BALANCER_NONE;
    sc.rpc_us = (uint64_t)service_us;
    sc.kib_us = 0;
    sc.service_exponential = 1;
    sc.workload.pattern.kind = PATTERN_SEQUENCE;
    sc.workload.pattern.rate_per_s = lambda;
    sc.workload.pattern.arrivals = ARRIVALS_POISSON;
    sc.workload.duration_us = 120ull * 1000000;
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "entity");
    run_result r;
    run_one(&sc, &r);
    assert_int_equal(r.latency.count, r.writes);
    double mean = r.latency.mean_us;
    run_result_free(&r);
    return mean;
}

static void test_mm1_queue_matches_theory(void **state)
{
    (void)state;
    const double service_us = 100, mu = 1e6 / service_us;
    const double rho[] = { 0.5, 0.9 };
    for (int i = 0; i < 2; i++) {
        double lambda = rho[i] * mu;
        double theory_us = 1e6 / (mu - lambda); /* 200 us and 1000 us */
        double got = mm1_mean_latency(lambda, service_us, 1000 + (uint64_t)i);
        double error = got / theory_us - 1;
        if (error < -0.05 || error > 0.05)
            fail_msg("M/M/1 at rho %.1f: mean latency %.1f us, theory %.1f us", rho[i], got,
                     theory_us);
    }
}

/* Closed loop: C clients, no think time. On a hotspot they get one server's
 * worth of throughput; on a salted table pre-split over N servers, N times. */
static double closed_loop_throughput(const char *scheme, uint64_t *service_us)
{
    scenario sc;
    scenario_defaults(&sc);
    sc.region_max_bytes = 1ull << 50;
    sc.balancer = BALANCER_NONE;
    sc.split_pause_us = 0;
    sc.workload.pattern.kind = PATTERN_SEQUENCE;
    sc.workload.clients = 64;
    sc.workload.duration_us = 10ull * 1000000;
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, scheme);
    char err[256];
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    run_result r;
    run_one(&sc, &r);
    /* Fixed service: rpc + cell bytes x kib_time, cells of one size. */
    uint64_t cell = r.key_bytes_max + scenario_cell_overhead(&sc);
    *service_us = (uint64_t)((double)sc.rpc_us + (double)cell * (double)sc.kib_us / 1024.0 + 0.5);
    double achieved = r.achieved_per_s;
    assert_true(r.unfinished <= 64);
    run_result_free(&r);
    return achieved;
}

static void test_closed_loop_capacity(void **state)
{
    (void)state;
    uint64_t service_us;
    double hot = closed_loop_throughput("seq", &service_us);
    double one_server = 1e6 / (double)service_us;
    assert_true(hot > one_server * 0.97 && hot < one_server * 1.01);
    double spread = closed_loop_throughput("salted", &service_us);
    double eight = 8e6 / (double)service_us;
    assert_true(spread > eight * 0.9 && spread < eight * 1.01);
}

/* Runs scheme 0 of sc in a child process that SIGALRM ends after
 * `seconds`, so that a run that never ends fails the test instead of
 * hanging it. The child checks the result with check(). */
static void run_bounded(const scenario *sc, unsigned seconds, void (*check)(const run_result *))
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(seconds);
        char err[256];
        run_result r;
        if (engine_run(sc, 0, NULL, &r, err, sizeof err) < 0) {
            fprintf(stderr, "run failed: %s\n", err);
            _exit(1);
        }
        check(&r);
        run_result_free(&r);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status))
        fprintf(stderr, "the run did not end within %u s (signal %d)\n", seconds,
                WTERMSIG(status));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* In the child: exit(1) with a message instead of cmocka's longjmp. */
static void child_expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "expected: %s\n", what);
        _exit(1);
    }
}

/* One client over 1 ms of simulated time, every operation a tick (1 us):
 * 1000 operations, each answered 1 us after it was issued. */
static void check_one_op_per_tick(const run_result *r)
{
    child_expect(r->duration_us == 1000, "a run of 1 ms");
    child_expect(r->writes + r->reads == 1000, "1000 operations, one per tick");
    child_expect(r->latency.count == 1000 && r->latency.max_us == 1, "every reply 1 us later");
    child_expect(r->unfinished == 0, "nothing left in flight");
}

/* The clock's resolution is 1 us, so an operation takes at least one tick:
 * a closed-loop client whose writes cost no service time (rpc_time 0, and
 * cells too small for kib_time to round to a microsecond) still moves time
 * on, and the run ends (issue 12: it used to stop time for ever). */
static void test_zero_service_closed_loop_ends(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    sc.rpc_us = 0;
    sc.workload.clients = 1;
    sc.workload.duration_us = 1000;
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "salted");
    char err[256];
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    run_bounded(&sc, 3, check_one_op_per_tick);
}

/* The same for reads that need no RPC: before anything is written an
 * opentsdb read's metric has no UID, so its plan is empty; it is answered
 * a tick later all the same. */
static void test_reads_without_rpcs_take_a_tick(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    sc.workload.clients = 1;
    sc.workload.duration_us = 1000;
    sc.workload.reads.fraction = 1.0;
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "opentsdb");
    char err[256];
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    run_bounded(&sc, 3, check_one_op_per_tick);
}

/* Runs fn(ctx) in a child limited to 1 GiB of address space and expects
 * it to end with exit status 2 and `message` on stderr (captured through
 * a temporary file): out of memory is a message and exit 2, never an
 * abort (issue 12). Not under AddressSanitizer, which cannot run under
 * such a limit: these tests are physics_oom's (main). */
static void expect_exit_2(void (*fn)(const void *), const void *ctx, const char *message)
{
    char path[] = "/tmp/regionsim-physics-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd, 2);
        struct rlimit rl = { 1ull << 30, 1ull << 30 };
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        alarm(5);
        fn(ctx);
        _exit(0); /* it should not get here */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    char text[512] = "";
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    if (WIFSIGNALED(status))
        fprintf(stderr, "the child died of signal %d: %s\n", WTERMSIG(status), text);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 2);
    assert_non_null(strstr(text, message));
}

static void imbalance_of_four_billion_servers(const void *ctx)
{
    (void)ctx;
    run_result run;
    memset(&run, 0, sizeof run);
    run.nservers = UINT32_MAX; /* 32 GiB of counts: more than the child may have */
    stats_server_writes(&run);
}

/* The report's statistics out of memory: a message and exit 2. */
static void test_stats_out_of_memory_exits_2(void **state)
{
    (void)state;
    expect_exit_2(imbalance_of_four_billion_servers, NULL,
                  "regionsim: out of memory computing report statistics");
}

typedef struct report_ctx {
    const sim_results *res;
    const run_result *run;
} report_ctx;

static void text_report_to_null(const void *ctx)
{
    const report_ctx *r = ctx;
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        _exit(4);
    text_write_run(null, r->res, r->run, 80, 0);
}

/* The text report out of memory for its labels: a message and exit 2.
 * The run claims 2^32 - 1 key buckets (32 GiB of labels); the writer
 * asks for them before it reads any. */
static void test_text_report_out_of_memory_exits_2(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "salted");
    sc.workload.duration_us = 3ull * 60 * 1000000;
    sim_results res;
    char err[256];
    assert_int_equal(engine_run_all(&sc, NULL, &res, err, sizeof err), 0);
    run_result run = res.runs[0];
    assert_true(run.nwindows >= 2 && run.keyspace.nbuckets > 0);
    run.keyspace.nbuckets = UINT32_MAX;
    report_ctx ctx = { &res, &run };
    expect_exit_2(text_report_to_null, &ctx, "regionsim: out of memory writing the report");
    sim_results_free(&res);
}

/* A split takes the hot region offline: its writers wait, and it shows in
 * the tail latency, not the median. */
static void test_split_pauses_show_in_the_tail(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "monotonic");
    sc.split_pause_us = 2000000;
    run_result r;
    run_one(&sc, &r);
    assert_true(r.splits >= 5);
    assert_true(r.latency.p50_us < 100);
    assert_true(r.latency.max_us >= 1900000 && r.latency.max_us <= 2000100);
    run_result_free(&r);
    sc.split_pause_us = 0;
    sc.move_pause_us = 0;
    run_one(&sc, &r);
    assert_true(r.latency.max_us < 1000);
    run_result_free(&r);
}

/* Reads of one kind only, 5% of operations, on a short run. */
static void run_reads(const char *scheme, query_kind kind, run_result *r)
{
    scenario sc;
    small_scenario(&sc, scheme);
    sc.workload.duration_us = 4ull * 60 * 1000000;
    read_mix *rm = &sc.workload.reads;
    rm->fraction = 0.05;
    for (int k = 0; k < QUERY_KINDS; k++)
        rm->weight[k] = k == (int)kind;
    rm->weights_given = 1;
    rm->window_us = 10ull * 1000000; /* every series' last 10 s */
    sc.measure_auto = 0; /* every read counts: the physics of a read, not the warm-up's end */
    run_one(&sc, r);
    assert_true(r->reads > 5000);
    assert_int_equal(r->reads_by_kind[kind], r->reads);
}

static double rpcs_per_read(const run_result *r, query_kind kind)
{
    return (double)r->read_rpcs_by_kind[kind] / (double)r->reads_by_kind[kind];
}

/* The read side of write spreading: a salted point get asks all N buckets,
 * a hashed one recomputes its bucket, and each RPC is counted on the
 * server that serves it. */
static void test_point_gets_salted_versus_hashed(void **state)
{
    (void)state;
    run_result salted, hashed;
    run_reads("salted", QUERY_GET, &salted);
    run_reads("hashed", QUERY_GET, &hashed);
    assert_true(rpcs_per_read(&salted, QUERY_GET) == 8.0);
    assert_true(rpcs_per_read(&hashed, QUERY_GET) == 1.0);
    /* Every get finds its row: one row read per record returned for hashed;
     * salted reads the same one row (the other 7 buckets are empty there). */
    assert_int_equal(hashed.rows_scanned, hashed.records_returned);
    assert_int_equal(salted.rows_scanned, salted.records_returned);
    uint64_t rpcs = 0;
    for (uint32_t s = 0; s < salted.nservers; s++)
        rpcs += salted.servers[s].reads;
    assert_int_equal(rpcs, salted.read_rpcs_by_kind[QUERY_GET]);
    assert_int_equal(salted.full_scans + hashed.full_scans, 0);
    run_result_free(&salted);
    run_result_free(&hashed);
}

/* md5 and reversed keys lose time order: every time-window read is a
 * full-table scan; salted keys keep it per bucket: N ranges, no waste. */
static void test_time_windows_md5_versus_salted(void **state)
{
    (void)state;
    run_result md5, salted;
    run_reads("md5", QUERY_WINDOW, &md5);
    run_reads("salted", QUERY_WINDOW, &salted);
    assert_int_equal(md5.full_scans, md5.reads);
    assert_int_equal(salted.full_scans, 0);
    /* Each full scan reads the whole table, minutes of rows, for 10 s of
     * records: far more rows than it returns. */
    assert_true(md5.rows_scanned > 5 * md5.records_returned);
    /* Salted window ranges are exact (one row per write: a ms per write). */
    assert_true(salted.rows_scanned <= salted.records_returned + salted.reads);
    assert_true(salted.rows_scanned + salted.reads >= salted.records_returned);
    run_result_free(&md5);
    run_result_free(&salted);
}

/* OpenTSDB's dashboard query, one metric over its last hour, on a table
 * where every metric's hourly rows have split off: unsalted, the metric's
 * rows are one key range (about one RPC, two where the range crosses a
 * region boundary); OpenTSDB 2.2 salting spreads them over N buckets, so
 * the same read is N scans, one per bucket (TsdbQuery's salted scanners).
 * The trade-off the row-key chapter is about, where OpenTSDB users look. */
static void test_metric_scan_opentsdb_versus_salted(void **state)
{
    (void)state;
    run_result plain, salted;
    run_reads("opentsdb", QUERY_METRIC, &plain);
    run_reads("opentsdb-salted", QUERY_METRIC, &salted);
    double one = rpcs_per_read(&plain, QUERY_METRIC);
    double eight = rpcs_per_read(&salted, QUERY_METRIC);
    assert_true(one >= 1.0 && one < 1.5);
    assert_true(eight >= 8.0);
    assert_int_equal(plain.full_scans + salted.full_scans, 0);
    /* Both return every point of the metric they were asked for, and read
     * the same rows to do it: salting costs RPCs, not rows. */
    assert_true(plain.records_returned > 0);
    assert_int_equal(plain.rows_scanned * salted.records_returned,
                     salted.rows_scanned * plain.records_returned);
    /* ... while promoted keys (series first) turn it into a full scan. */
    run_result promoted;
    run_reads("promoted", QUERY_METRIC, &promoted);
    assert_int_equal(promoted.full_scans, promoted.reads);
    run_result_free(&plain);
    run_result_free(&salted);
    run_result_free(&promoted);
}

/* revts: a series' newest N is one short forward scan reading exactly N
 * rows; promoted (ascending time) does it with one reversed scan. */
static void test_latest_n_is_one_short_scan(void **state)
{
    (void)state;
    run_result revts, promoted;
    run_reads("revts", QUERY_LATEST, &revts);
    run_reads("promoted", QUERY_LATEST, &promoted);
    assert_true(rpcs_per_read(&revts, QUERY_LATEST) < 1.01);
    assert_int_equal(revts.rows_scanned, revts.records_returned);
    assert_int_equal(promoted.rows_scanned, promoted.records_returned);
    assert_int_equal(revts.full_scans, 0);
    run_result_free(&revts);
    run_result_free(&promoted);
}

/* The stochastic balancer weighs write load: it moves a timestamp key's
 * hot region to other servers, so the run's writes spread over several
 * servers, yet each window still has one hot server. Where and how often
 * it moves the hot region is the walk's draw, so the spread is asked of
 * most of five seeds; of each, one hot server in most windows (max/mean
 * above 7 of 8 servers) and at most two in any (a window the hot region
 * moved in shares it: max/mean at least 4). The same seed gives the same
 * moves. */
static void test_stochastic_balancer_moves_but_cannot_split_a_hotspot(void **state)
{
    (void)state;
    int spread = 0;
    for (uint64_t k = 0; k < 5; k++) {
        scenario sc;
        small_scenario(&sc, "monotonic");
        sc.seed += k;
        sc.workload.duration_us = 30ull * 60 * 1000000;
        sc.region_max_bytes = 4u << 20;
        sc.balancer = BALANCER_STOCHASTIC;
        run_result a, b;
        run_one(&sc, &a);
        run_one(&sc, &b);
        uint32_t servers_with_writes = 0;
        for (uint32_t s = 0; s < a.nservers; s++)
            servers_with_writes += a.servers[s].writes > 0;
        spread += servers_with_writes >= 3 && run_max_mean(&a) < 7.0;
        uint32_t hot = 0;
        for (uint32_t w = 0; w < a.nwindows; w++) {
            assert_true(window_max_mean(&a, w) > 3.99);
            hot += window_max_mean(&a, w) > 7.0;
        }
        assert_true(2 * hot > a.nwindows);
        assert_int_equal(a.moves, b.moves);
        assert_memory_equal(a.window_writes, b.window_writes,
                            (size_t)a.nwindows * a.nservers * sizeof(uint64_t));
        run_result_free(&a);
        run_result_free(&b);
    }
    assert_true(spread >= 3);
}

/* Early splits: stepping and increasing split a young table's only region
 * at 2 x flush size; constant waits for the full region size. */
static void test_split_policies_grow_a_table_differently(void **state)
{
    (void)state;
    const split_kind kinds[] = { SPLIT_CONSTANT, SPLIT_INCREASING, SPLIT_STEPPING, SPLIT_DISABLED };
    uint64_t splits[4];
    for (int i = 0; i < 4; i++) {
        scenario sc;
        small_scenario(&sc, "promoted");
        sc.workload.duration_us = 30ull * 1000000; /* ~1.3 MB of cells */
        sc.region_max_bytes = 4u << 20;
        sc.balancer = BALANCER_NONE;
        sc.split_policy = kinds[i];
        run_result r;
        run_one(&sc, &r);
        splits[i] = r.splits;
        run_result_free(&r);
    }
    assert_int_equal(splits[0], 0);  /* 1.3 MB < 4 MiB */
    assert_true(splits[1] >= 1);     /* 2 x 51 KiB x 1^3, then 8x that */
    assert_true(splits[2] >= 1);     /* 2 x 51 KiB while alone on its server */
    assert_int_equal(splits[3], 0);
}

/* Pre-splitting by RegionSplitter's HexStringSplit: a hex-named key space
 * starts with N regions spread round-robin. */
static void test_hex_presplit(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "md5(entity):str ts");
    sc.presplit = PRESPLIT_BY_HEX;
    sc.presplit_regions = 16;
    sc.workload.duration_us = 60ull * 1000000;
    run_result r;
    run_one(&sc, &r);
    assert_int_equal(r.regions_start, 16);
    assert_true(run_max_mean(&r) < 1.3); /* md5 hex names fill the hex regions evenly */
    run_result_free(&r);
}

static uint64_t window_writes_of(const run_result *r, uint32_t w, uint32_t s)
{
    return r->window_writes[(size_t)w * r->nservers + s];
}

/* Scale-out: 4 servers, 4 more join at 10 min. The balancer gives them
 * regions at its next run (15 min), and they take writes from then on,
 * within the balancer period plus the move time of joining. */
static void test_scale_out_new_servers_take_writes(void **state)
{
    (void)state;
    const balancer_kind kinds[] = { BALANCER_SIMPLE, BALANCER_STOCHASTIC };
    for (int k = 0; k < 2; k++) {
        scenario sc;
        small_scenario(&sc, "promoted");
        sc.servers = 4;
        sc.workload.duration_us = 25ull * 60 * 1000000;
        sc.region_max_bytes = 2u << 20;
        sc.balancer = kinds[k];
        sc.nevents = 1;
        sc.events[0] = (cluster_event){ .name = "grow", .at_us = 10ull * 60 * 1000000,
                                        .action = EVENT_ADD_SERVERS, .servers = 4 };
        run_result r;
        run_one(&sc, &r);
        assert_int_equal(r.nservers, 8);
        assert_int_equal(r.servers_added, 4);
        /* Nothing on rs4..rs7 before they join. */
        for (uint32_t w = 0; w < 10; w++)
            for (uint32_t s = 4; s < 8; s++)
                assert_int_equal(window_writes_of(&r, w, s), 0);
        /* From the window after balancer period + move pause: every new
         * server takes writes. */
        for (uint32_t s = 4; s < 8; s++)
            assert_true(window_writes_of(&r, 16, s) > 0);
        run_result_free(&r);
    }
}

/* A server fails: its regions wait for the failure to be noticed, then
 * reopen elsewhere; the wait shows in the tail; it takes no more writes. */
static void test_server_failure(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "salted");
    sc.nevents = 1;
    sc.events[0] = (cluster_event){ .name = "crash", .at_us = 5ull * 60 * 1000000,
                                    .action = EVENT_FAIL, .server = 3,
                                    .detection_us = 30ull * 1000000 };
    run_result r;
    run_one(&sc, &r);
    assert_int_equal(r.failures, 1);
    assert_true(r.reassigned >= 1);
    assert_true(r.latency.max_us >= 30000000); /* waited for the detection */
    for (uint32_t w = 6; w < r.nwindows; w++)
        assert_int_equal(window_writes_of(&r, w, 3), 0);
    assert_true(window_writes_of(&r, 4, 3) > 0);
    run_result_free(&r);
}

/* BusyRegionSplitPolicy: a region whose writes keep waiting splits once it
 * is old enough, though it is far below its size limit. One overloaded
 * server (a sequential key at 30,000 writes/s, 20,000/s per server). */
static void test_busy_policy_splits_a_hot_region(void **state)
{
    (void)state;
    const split_kind kinds[] = { SPLIT_CONSTANT, SPLIT_BUSY };
    uint64_t splits[2];
    for (int i = 0; i < 2; i++) {
        scenario sc;
        small_scenario(&sc, "entity");
        sc.workload.pattern.kind = PATTERN_SEQUENCE;
        /* 3,000 writes/s to one region on a server that serves 2,000
         * (500 us an RPC): its queue grows, so writes wait past
         * BUSY_WAIT_US and count as blocked (the load of 30,000 writes/s at
         * the default service times, with a tenth of the writes to run). */
        sc.workload.pattern.rate_per_s = 3000;
        sc.rpc_us = 500;
        sc.workload.duration_us = 14ull * 60 * 1000000;
        sc.region_max_bytes = 1ull << 40; /* never by size */
        sc.balancer = BALANCER_NONE;
        sc.split_policy = kinds[i];
        run_result r;
        run_one(&sc, &r);
        splits[i] = r.splits;
        run_result_free(&r);
    }
    assert_int_equal(splits[0], 0);
    assert_true(splits[1] >= 1); /* after hbase.busy.policy.minAge, 10 min */
}


/* The hottest key bucket of window w (lowest on ties), or UINT32_MAX. */
static uint32_t hottest_bucket(const run_result *r, uint32_t w)
{
    const keyspace_heatmap *h = &r->keyspace;
    uint32_t best = UINT32_MAX;
    uint64_t max = 0;
    for (uint32_t b = 0; b < h->nbuckets; b++)
        if (h->writes[(size_t)w * h->nbuckets + b] > max) {
            max = h->writes[(size_t)w * h->nbuckets + b];
            best = b;
        }
    return best;
}

/* Key Visualizer's bright diagonal: with time in the key, each window
 * writes the top of the key space written so far, so the hottest bucket
 * climbs window after window. md5(ts) keys have no such line: every
 * bucket takes writes in every window. */
static void test_monotonic_keyspace_diagonal(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "monotonic");
    run_result r;
    run_one(&sc, &r);
    assert_int_equal(r.keyspace.nbuckets, sc.key_buckets);
    assert_true(r.nwindows >= 10);
    uint32_t prev = hottest_bucket(&r, 0);
    for (uint32_t w = 1; w < r.nwindows; w++) {
        uint32_t b = hottest_bucket(&r, w);
        assert_true(b != UINT32_MAX);
        assert_true(b >= prev); /* never back down */
        prev = b;
    }
    assert_true(hottest_bucket(&r, 0) <= 1);
    assert_int_equal(hottest_bucket(&r, r.nwindows - 1), sc.key_buckets - 1);
    /* A window's writes fill at most three of 20 buckets: a line, not a band. */
    for (uint32_t w = 0; w < r.nwindows; w++) {
        uint32_t lit = 0;
        for (uint32_t b = 0; b < r.keyspace.nbuckets; b++)
            lit += r.keyspace.writes[(size_t)w * r.keyspace.nbuckets + b] > 0;
        assert_true(lit <= 3);
    }
    run_result_free(&r);

    small_scenario(&sc, "md5");
    run_one(&sc, &r);
    for (uint32_t w = 0; w < r.nwindows; w++) { /* every bucket, every window */
        for (uint32_t b = 0; b < r.keyspace.nbuckets; b++)
            assert_true(r.keyspace.writes[(size_t)w * r.keyspace.nbuckets + b] > 0);
    }
    run_result_free(&r);
}

/* The heatmap, the region log and the timeline agree with the counters. */
static void test_report_data_is_consistent(void **state)
{
    (void)state;
    scenario sc;
    small_scenario(&sc, "salted");
    sc.workload.reads.fraction = 0.2;
    sc.events[sc.nevents++] = (cluster_event){ .name = "fail", .at_us = 5ull * 60 * 1000000,
                                                .action = EVENT_FAIL, .server = 3,
                                                .detection_us = 30000000 };
    char err[256];
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    run_result r;
    run_one(&sc, &r);
    assert_true(r.reads > 0 && r.splits > 0);
    const keyspace_heatmap *h = &r.keyspace;
    assert_true(h->nbuckets > 1);
    assert_string_equal(h->bucket_start[0], "");
    for (uint32_t b = 1; b < h->nbuckets; b++)
        assert_true(strcmp(h->bucket_start[b - 1], h->bucket_start[b]) < 0 || b == 1);
    uint64_t key_writes = 0, key_reads = 0, read_rpcs = 0;
    for (uint32_t w = 0; w < r.nwindows; w++) {
        uint64_t kw = 0, kr = 0, sw = 0, sr = 0;
        for (uint32_t b = 0; b < h->nbuckets; b++) {
            kw += h->writes[(size_t)w * h->nbuckets + b];
            kr += h->reads[(size_t)w * h->nbuckets + b];
        }
        for (uint32_t s = 0; s < r.nservers; s++) {
            sw += r.window_writes[(size_t)w * r.nservers + s];
            sr += r.window_reads[(size_t)w * r.nservers + s];
        }
        assert_true(kw == sw); /* each window sums to its exact total */
        assert_true(kr == sr);
        key_writes += kw;
        key_reads += kr;
    }
    assert_true(key_writes == r.writes);
    assert_int_equal(h->exact, 0); /* 1000 writes/s: windows outgrow the sample */
    /* Every write and read RPC landed in exactly one region of the log. */
    uint64_t hist_writes = 0, hist_reads = 0, split = 0, live = 0;
    for (size_t i = 0; i < r.nhistory; i++) {
        hist_writes += r.history[i].writes;
        hist_reads += r.history[i].reads;
        split += r.history[i].split;
        live += !r.history[i].split;
        assert_true(r.history[i].opened_us <= r.history[i].closed_us);
    }
    for (uint32_t s = 0; s < r.nservers; s++)
        read_rpcs += r.servers[s].reads;
    assert_true(hist_writes == r.writes);
    assert_true(hist_reads == read_rpcs && key_reads == read_rpcs);
    assert_true(split == r.splits && live == r.regions);
    /* The timeline: one event per split, move and reassignment, in order. */
    uint64_t kinds[TIMELINE_KINDS] = { 0 };
    for (size_t i = 0; i < r.nevents; i++) {
        kinds[r.events[i].kind]++;
        if (i)
            assert_true(r.events[i - 1].t_us <= r.events[i].t_us);
    }
    assert_true(kinds[TIMELINE_SPLIT] == r.splits && kinds[TIMELINE_MOVE] == r.moves);
    assert_true(kinds[TIMELINE_REASSIGN] == r.reassigned && r.reassigned > 0);
    assert_true(kinds[TIMELINE_FAILURE] == 1);
    run_result_free(&r);
}

int main(int argc, char **argv)
{
    /* physics_oom: out of memory under a 1 GiB address-space limit, which
     * an AddressSanitizer build cannot run under (it reserves terabytes):
     * there, a skip that meson counts (77), also under CI, whose release
     * build runs them. */
    if (test_has_arg(argc, argv, "--oom")) {
        if (UNDER_ASAN)
            return test_cannot_run("physics_oom", "an AddressSanitizer build cannot run under"
                                   " an address-space limit (the release build runs these)", 0);
        const struct CMUnitTest oom[] = {
            cmocka_unit_test(test_stats_out_of_memory_exits_2),
            cmocka_unit_test(test_text_report_out_of_memory_exits_2),
        };
        return cmocka_run_group_tests(oom, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_monotonic_hotspots_one_server_per_window),
        cmocka_unit_test(test_salted_presplit_spreads_evenly),
        cmocka_unit_test(test_salted_without_presplit_starts_hot),
        cmocka_unit_test(test_same_seed_byte_identical_json),
        cmocka_unit_test(test_counts_are_consistent),
        cmocka_unit_test(test_mm1_queue_matches_theory),
        cmocka_unit_test(test_closed_loop_capacity),
        cmocka_unit_test(test_zero_service_closed_loop_ends),
        cmocka_unit_test(test_reads_without_rpcs_take_a_tick),
        cmocka_unit_test(test_split_pauses_show_in_the_tail),
        cmocka_unit_test(test_point_gets_salted_versus_hashed),
        cmocka_unit_test(test_time_windows_md5_versus_salted),
        cmocka_unit_test(test_metric_scan_opentsdb_versus_salted),
        cmocka_unit_test(test_latest_n_is_one_short_scan),
        cmocka_unit_test(test_stochastic_balancer_moves_but_cannot_split_a_hotspot),
        cmocka_unit_test(test_split_policies_grow_a_table_differently),
        cmocka_unit_test(test_hex_presplit),
        cmocka_unit_test(test_scale_out_new_servers_take_writes),
        cmocka_unit_test(test_server_failure),
        cmocka_unit_test(test_busy_policy_splits_a_hot_region),
        cmocka_unit_test(test_monotonic_keyspace_diagonal),
        cmocka_unit_test(test_report_data_is_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
