/* test_budget.c -- the memory budget: what a run is estimated to need, the
 * limit, the verdict and its message (engine/budget.h; issue 12).
 *
 * Estimates are checked against what the data structures need (and, for
 * the default scenario, against the peak RSS measured once: 94 MB for
 * `regionsim compare`); refusals against fixed limits, so that the tests
 * do not depend on the machine; the machine's limits in a child process
 * whose ulimit the test sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/budget.h"
#include "engine/engine.h"
#include "scenario/scenario.h"
#include "tests/support.h"

#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * MIB)

/* The scenario these tests measured against: the default workload for 30
 * minutes at HBase's sizes / 2560 (4 MiB regions, constant splits), one
 * report window a minute, every operation simulated (1.8 M writes). */
static void thirty_minutes(scenario *sc)
{
    scenario_defaults(sc);
    char err[256];
    assert_int_equal(scenario_set(sc, NULL, "size_scale", "2560", err, sizeof err), 0);
    sc->split_policy = SPLIT_CONSTANT;
    sc->workload.duration_us = 30 * 60000000ull;
    sc->window_auto = 0;
    sc->window_us = 60000000;
}

static void one_scheme(scenario *sc, const char *scheme)
{
    thirty_minutes(sc);
    sc->nschemes = 0;
    scenario_add_scheme(sc, NULL, scheme);
}

static int refused(const budget_estimate *e, uint64_t limit, budget_source source,
                   char *err, size_t errcap)
{
    budget_limit lim = { limit, 0, source };
    return budget_check(e, &lim, err, errcap) < 0;
}

/* The 30-minute compare (12 schemes, 1.8 million writes each) is estimated
 * at about its measured peak RSS (94 MB) or a little more: conservative,
 * not absurd. */
static void test_default_compare_estimate_is_close(void **state)
{
    (void)state;
    scenario sc;
    thirty_minutes(&sc);
    sc.jobs = 1; /* measured one run at a time */
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_true(e.bytes > 90 * MIB && e.bytes < 200 * MIB);
    assert_true(e.part[BUDGET_STORE] > e.bytes / 2); /* rows are most of it */
    assert_int_equal(e.servers, 8);
    assert_int_equal(e.windows, 30);
    /* the same scenario, the same estimate */
    budget_estimate again;
    budget_estimate_run(&sc, &again);
    assert_true(again.bytes == e.bytes);
    char err[512];
    assert_false(refused(&e, 1ull << 30, BUDGET_PHYSICAL, err, sizeof err));
}

/* The default compare, a month at HBase's sizes run weighted (one
 * simulated write in 283), is estimated at or above its measured peak
 * RSS (565 MB, one run at a time: the exact store of 9.2 million simulated
 * rows), and well inside a small machine. */
static void test_month_default_estimate_is_close(void **state)
{
    (void)state;
    scenario sc;
    scenario_defaults(&sc);
    sc.jobs = 1;
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_true(e.bytes > 540 * MIB && e.bytes < 1100 * MIB);
    assert_int_equal(e.windows, 720); /* window = auto: 1 h */
    char err[512];
    assert_false(refused(&e, 2ull << 30, BUDGET_PHYSICAL, err, sizeof err));
}

/* --jobs: runs in memory at once add up; the message says so. Two runs
 * of one scheme at once need about twice one's working memory. */
static void test_jobs_add_up(void **state)
{
    (void)state;
    scenario sc;
    thirty_minutes(&sc);
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "salted");
    scenario_add_scheme(&sc, NULL, "salted");
    budget_estimate one, two;
    sc.jobs = 1;
    budget_estimate_run(&sc, &one);
    sc.jobs = 2;
    budget_estimate_run(&sc, &two);
    assert_int_equal(one.jobs, 1);
    assert_int_equal(two.jobs, 2);
    /* what is kept for the report is the same; the work is twice */
    double work = two.bytes - one.bytes;
    assert_true(work > 0);
    assert_true(work < one.bytes); /* not more than one more run */
    assert_true(two.part[BUDGET_STORE] > one.part[BUDGET_STORE] * 1.5);
    sc.jobs = 64; /* never more runs than schemes */
    budget_estimate many;
    budget_estimate_run(&sc, &many);
    assert_int_equal(many.jobs, 2);
    assert_true(many.bytes == two.bytes);
    char err[512];
    assert_true(refused(&two, (uint64_t)(one.bytes + work / 2), BUDGET_PHYSICAL, err, sizeof err));
    if (!strstr(err, "with 2 schemes running at once (fewer --jobs need less)"))
        fail_msg("%s", err);
    scenario_release(&sc);
}

/* Rows: a millisecond timestamp key repeats its row within a millisecond,
 * OpenTSDB's key within an hour per series; a sequence number never. */
static void test_rows_follow_the_key_scheme(void **state)
{
    (void)state;
    scenario sc;
    budget_estimate e;
    one_scheme(&sc, "seq"); /* every write a row */
    budget_estimate_run(&sc, &e);
    assert_int_equal(e.rows, 1800000);
    one_scheme(&sc, "opentsdb"); /* 1000 series x (30 min of hours + 2) */
    budget_estimate_run(&sc, &e);
    assert_true(e.rows >= 1000 && e.rows <= 3000);
    one_scheme(&sc, "salted"); /* salt(8) ts: 8 x the milliseconds */
    sc.workload.pattern.kind = PATTERN_SEQUENCE;
    sc.workload.pattern.rate_per_s = 1e6;
    sc.workload.duration_us = 10ull * 1000000;
    budget_estimate_run(&sc, &e);
    assert_true(e.rows >= 8 * 10000 && e.rows <= 8 * 10002);
}

/* --pattern sequence --rate 1000000000/s --duration 4s: 4e9 operations,
 * every one a row of the seq scheme, and a queue of nearly all of them:
 * refused under 4 GiB, naming the rows, the limit and what to lower. */
static void test_four_billion_writes_are_refused(void **state)
{
    (void)state;
    scenario sc;
    one_scheme(&sc, "seq");
    sc.workload.pattern.kind = PATTERN_SEQUENCE;
    sc.workload.pattern.rate_per_s = 1e9;
    sc.workload.duration_us = 4ull * 1000000;
    sc.engine = ENGINE_MODE_PER_OP; /* weighted (auto's choice), it fits */
    char err[512];
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_true(e.bytes > 100 * GIB);
    assert_true(refused(&e, 4ull << 30, BUDGET_ULIMIT_V, err, sizeof err));
    assert_non_null(strstr(err, "the run would need about "));
    assert_non_null(strstr(err, "(4000000000 rows of about 28 B in the store)"));
    assert_non_null(strstr(err, "more than the 4 GiB this process may use (ulimit -v); "
                                "lower --rate or --duration"));
    /* A key of time alone stores few rows, but the queue is still there. */
    one_scheme(&sc, "monotonic");
    sc.workload.pattern.kind = PATTERN_SEQUENCE;
    sc.workload.pattern.rate_per_s = 1e9;
    sc.workload.duration_us = 4ull * 1000000;
    sc.engine = ENGINE_MODE_PER_OP; /* weighted (auto's choice), it fits */
    budget_estimate_run(&sc, &e);
    assert_true(refused(&e, 4ull << 30, BUDGET_ULIMIT_V, err, sizeof err));
    assert_non_null(strstr(err, "operations waiting for their replies"));
    assert_non_null(strstr(err, "the servers cannot keep up"));
}

/* uid(entity, 4) over 2^32 - 1 records: a few names without reads, but
 * with reads the truth keeps 16 bytes per entity id up to the largest. */
static void test_uid_over_every_id(void **state)
{
    (void)state;
    scenario sc;
    one_scheme(&sc, "uid(entity, 4)");
    sc.workload.pattern.kind = PATTERN_ENTITIES;
    sc.workload.pattern.records = UINT32_MAX;
    sc.workload.duration_us = 1000000;
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_true(e.bytes < 64 * MIB);
    assert_true(e.names >= 1000 && e.names <= 1001);
    sc.workload.reads.fraction = 0.5;
    budget_estimate_run(&sc, &e);
    assert_true(e.part[BUDGET_TRUTH] >= 16.0 * 4294967296.0);
    char err[512];
    assert_true(refused(&e, 16ull << 30, BUDGET_PHYSICAL, err, sizeof err));
    assert_non_null(strstr(err, "(a slot for each of 4294967295 entity ids, to score reads against)"));
    assert_non_null(strstr(err, "of memory this machine has; lower --records"));
}

/* Servers count, those events add too: 8 KiB of latency histogram each. */
static void test_servers_count(void **state)
{
    (void)state;
    scenario sc;
    one_scheme(&sc, "salted");
    sc.servers = 100000;
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_int_equal(e.servers, 100000);
    assert_true(e.part[BUDGET_SERVERS] >= 100000 * 7808.0);
    one_scheme(&sc, "salted");
    sc.nevents = 1;
    memset(&sc.events[0], 0, sizeof sc.events[0]);
    sc.events[0].name = "grow";
    sc.events[0].at_us = 60000000;
    sc.events[0].action = EVENT_ADD_SERVERS;
    sc.events[0].servers = 50000;
    budget_estimate_run(&sc, &e);
    assert_int_equal(e.servers, 50008);
    assert_true(e.part[BUDGET_SERVERS] >= 50008 * 7808.0);
}

/* Windows: per server and window counters, key samples and the heatmap,
 * for every scheme. A 1 ms window over 30 minutes is a million windows. */
static void test_windows_count(void **state)
{
    (void)state;
    scenario sc;
    thirty_minutes(&sc);
    sc.window_us = 1000;
    sc.servers = 1000;
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_int_equal(e.windows, 1000000);
    /* 12 schemes x 10^6 windows x 1000 servers x 8 bytes (writes; the
     * default scenario never reads, so no read counters) */
    assert_true(e.part[BUDGET_WINDOWS] >= 12 * 1e6 * 1000 * 8);
    assert_true(e.part[BUDGET_WINDOWS] < 12 * 1e6 * 1000 * 16);
    /* with reads, a read counter beside each write counter */
    char why[256];
    assert_int_equal(scenario_set(&sc, NULL, "read_fraction", "0.1", why, sizeof why), 0);
    budget_estimate reading;
    budget_estimate_run(&sc, &reading);
    assert_true(reading.part[BUDGET_WINDOWS] >= 12 * 1e6 * 1000 * 16);
    char err[512];
    assert_true(refused(&e, 64ull << 30, BUDGET_PHYSICAL, err, sizeof err));
    assert_non_null(strstr(err, "1000000 report windows x 1000 servers"));
    assert_non_null(strstr(err, "use a longer --window"));
}

/* Windows reduced at each run's end (window_digest, more than 32
 * servers): the full matrices count only for the runs in flight, every
 * scheme keeps a digest: 10,000 servers for 24 hours, 12 schemes, 2 jobs. */
static void test_windows_digest(void **state)
{
    (void)state;
    scenario sc;
    thirty_minutes(&sc);
    char why[256];
    assert_int_equal(scenario_set(&sc, NULL, "servers", "10000", why, sizeof why), 0);
    assert_int_equal(scenario_set(&sc, NULL, "duration", "24h", why, sizeof why), 0);
    sc.jobs = 2;
    budget_estimate kept, reduced;
    budget_estimate_run(&sc, &kept);
    sc.window_digest = 1;
    budget_estimate_run(&sc, &reduced);
    assert_int_equal(kept.windows, 1440);
    double matrix = 2048.0 * 10000 * 8; /* the array's capacity: 1440 windows doubled from 64 */
    /* kept for every scheme: 12 matrices (1.97 GB) */
    assert_true(kept.part[BUDGET_WINDOWS] >= 12 * matrix);
    assert_true(kept.part[BUDGET_WINDOWS] < 12 * matrix * 1.01);
    /* reduced: 2 in flight, 12 digests of about 1 MB */
    assert_true(reduced.part[BUDGET_WINDOWS] >= 2 * matrix);
    assert_true(reduced.part[BUDGET_WINDOWS] < 2 * matrix + 12 * 1.5e6);
    assert_true(reduced.bytes < kept.bytes - 9 * matrix);
    /* 32 servers or fewer are never reduced: the estimate is the same */
    assert_int_equal(scenario_set(&sc, NULL, "servers", "32", why, sizeof why), 0);
    budget_estimate small_kept, small_reduced;
    budget_estimate_run(&sc, &small_reduced);
    sc.window_digest = 0;
    budget_estimate_run(&sc, &small_kept);
    assert_true(small_kept.bytes == small_reduced.bytes);
    scenario_release(&sc);
}

/* A trace: its records and keys are bounded by the file's size, its
 * length by its last line's time. */
static void test_trace_is_bounded_by_its_file(void **state)
{
    (void)state;
    char path[] = "/tmp/regionsim-budget-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("time,op,key\n", f);
    for (int i = 0; i < 1000; i++)
        fprintf(f, "%d,put,row%06d\n", i * 1000, i);
    fputs("# done\n", f);
    long size = ftell(f);
    fclose(f);
    scenario sc;
    one_scheme(&sc, "key");
    sc.workload.pattern.kind = PATTERN_TRACE;
    sc.workload.pattern.trace_path = path;
    sc.workload.duration_given = 0;
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_int_equal(e.windows, 1); /* the last record is at 999 ms */
    assert_true(e.rows >= 1000 && e.rows <= (double)(size + 1) / 8);
    assert_true(e.bytes < 16 * MIB);
    unlink(path);
}

/* The limit: --max-memory when it is the smallest; ulimit -v in a child
 * whose address space is limited. */
static void test_limit_sources(void **state)
{
    (void)state;
    scenario sc;
    thirty_minutes(&sc);
    char err[512];
    assert_int_equal(scenario_set(&sc, NULL, "max_memory", "64MiB", err, sizeof err), 0);
    budget_limit lim = budget_limit_of(&sc);
    assert_int_equal(lim.source, BUDGET_MAX_MEMORY);
    assert_int_equal(lim.bytes, 64ull << 20);
    budget_estimate e;
    budget_estimate_run(&sc, &e);
    assert_int_equal(budget_check(&e, &lim, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than the 64 MiB --max-memory allows; "));
    assert_non_null(strstr(err, ", or raise --max-memory"));
    assert_int_equal(scenario_set(&sc, NULL, "max_memory", "1KiB", err, sizeof err), -1);

    /* --max-memory replaces physical memory, even above it (swap, an upper
     * bound), so the user can run what the machine's size would refuse */
    struct rlimit as, data;
    getrlimit(RLIMIT_AS, &as);
    getrlimit(RLIMIT_DATA, &data);
    if (as.rlim_cur == RLIM_INFINITY && data.rlim_cur == RLIM_INFINITY) {
        assert_int_equal(scenario_set(&sc, NULL, "max_memory", "1024TiB", err, sizeof err), 0);
        lim = budget_limit_of(&sc);
        assert_int_equal(lim.source, BUDGET_MAX_MEMORY);
        assert_int_equal(lim.bytes, 1ull << 50);
        scenario plain;
        thirty_minutes(&plain);
        assert_int_equal(budget_limit_of(&plain).source, BUDGET_PHYSICAL);
        budget_estimate huge = { 0 };
        huge.bytes = 2.0 * (double)budget_limit_of(&plain).bytes;
        budget_limit phys = budget_limit_of(&plain);
        assert_int_equal(budget_check(&huge, &phys, err, sizeof err), -1);
        assert_non_null(strstr(err, "or set --max-memory to run it anyway"));
        scenario_release(&plain);
    }

    if (UNDER_ASAN)
        return;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = { 3ull << 30, 3ull << 30 };
        scenario plain;
        thirty_minutes(&plain);
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        budget_limit l = budget_limit_of(&plain);
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        int expect_v = (double)pages * (double)page > 3.0 * GIB;
        if (expect_v && (l.source != BUDGET_ULIMIT_V || l.bytes != 3ull << 30 || l.in_use == 0))
            _exit(1);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Counts what a run did: operations and progress reports. */
static int count_op(void *ctx, uint64_t t_us, const record *rec, keyref key, const cluster *c,
                    uint32_t server)
{
    (void)t_us, (void)rec, (void)key, (void)c, (void)server;
    ++*(uint64_t *)ctx;
    return 0;
}

static void count_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                           uint64_t total_us)
{
    (void)run, (void)nruns, (void)done_us, (void)total_us;
    ++*(uint64_t *)ctx;
}

/* engine_run_all refuses before it runs anything: not one operation, not
 * one progress report, nothing in the results. */
static void test_engine_refuses_before_running(void **state)
{
    (void)state;
    scenario sc;
    one_scheme(&sc, "seq");
    sc.workload.pattern.kind = PATTERN_SEQUENCE;
    sc.workload.pattern.rate_per_s = 1e9;
    sc.workload.duration_us = 4ull * 1000000;
    sc.engine = ENGINE_MODE_PER_OP; /* weighted (auto's choice), it fits */
    sc.max_memory = 4ull << 30;
    char err[512] = "";
    sim_results res;
    uint64_t seen = 0;
    const engine_observer obs = { count_op, count_progress, &seen };
    assert_int_equal(engine_run_all(&sc, &obs, &res, err, sizeof err), -1);
    assert_int_equal(seen, 0);
    assert_int_equal(res.nruns, 0);
    assert_null(res.runs);
    assert_non_null(strstr(err, "the run would need about "));
    assert_non_null(strstr(err, "more than the 4 GiB --max-memory allows"));
}

/* store = auto runs exact when the exact estimate fits the limit and
 * sampled when only the sampled one does, and says it chose; exact and
 * sampled are left as they are, and an exact run that would fit sampled
 * is refused naming --store sampled. 10^8 writes of distinct rows: about
 * 2.8 GB exact, a few MB sampled. */
static void hundred_million_rows(scenario *sc, store_mode store, uint64_t max_memory)
{
    one_scheme(sc, "seq");
    sc->workload.pattern.kind = PATTERN_SEQUENCE;
    sc->workload.pattern.rate_per_s = 1e4; /* one server keeps up: no queue */
    sc->workload.duration_us = 10000ull * 1000000;
    sc->max_memory = max_memory;
    sc->store = store;
    sc->engine = ENGINE_MODE_PER_OP; /* the store is chosen for every row kept */
}

static void test_auto_chooses_the_store(void **state)
{
    (void)state;
    scenario sc;
    char err[512] = "";
    double exact = 0;
    hundred_million_rows(&sc, STORE_MODE_AUTO, 1ull << 30);
    budget_resolve_store(&sc, &exact);
    assert_int_equal(sc.store, STORE_MODE_SAMPLED);
    assert_true(sc.store_auto);
    assert_true(exact > 2 * GIB);
    if (budget_admit(&sc, err, sizeof err) != 0) fail_msg("%s", err);

    hundred_million_rows(&sc, STORE_MODE_AUTO, 64ull << 30);
    budget_resolve_store(&sc, NULL);
    assert_int_equal(sc.store, STORE_MODE_EXACT);
    assert_false(sc.store_auto);

    hundred_million_rows(&sc, STORE_MODE_EXACT, 1ull << 30);
    budget_resolve_store(&sc, NULL);
    assert_int_equal(sc.store, STORE_MODE_EXACT);
    assert_int_equal(budget_admit(&sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "with the exact store"));
    assert_non_null(strstr(err, "use --store sampled"));

    hundred_million_rows(&sc, STORE_MODE_SAMPLED, 64ull << 30);
    budget_resolve_store(&sc, NULL);
    assert_int_equal(sc.store, STORE_MODE_SAMPLED);
    assert_false(sc.store_auto);
}

/* The store auto picks does not depend on --jobs: it is chosen on one
 * scheme at a time, and when the schemes at once would not fit, the jobs
 * are lowered instead (budget_fit_jobs). The limit here lies between the
 * default compare's estimate one scheme at a time and twelve at once. */
static void test_auto_does_not_depend_on_jobs(void **state)
{
    (void)state;
    scenario sc;
    thirty_minutes(&sc);
    sc.workload.duration_us = 6ull * 3600 * 1000000;
    sc.store = STORE_MODE_EXACT;
    budget_estimate one, twelve;
    sc.jobs = 1;
    budget_estimate_run(&sc, &one);
    sc.jobs = 12;
    budget_estimate_run(&sc, &twelve);
    assert_int_equal(twelve.jobs, 12);
    assert_true(twelve.bytes > 1.5 * one.bytes);
    uint64_t limit = (uint64_t)((one.bytes + twelve.bytes) / 2);
    char err[512] = "";
    for (uint32_t jobs = 1; jobs <= 12; jobs += 11) {
        thirty_minutes(&sc);
        sc.workload.duration_us = 6ull * 3600 * 1000000;
        sc.max_memory = limit;
        sc.jobs = jobs;
        budget_resolve_store(&sc, NULL);
        assert_int_equal(sc.store, STORE_MODE_EXACT);
        assert_false(sc.store_auto);
        uint32_t fitted = budget_fit_jobs(&sc);
        if (jobs == 1) {
            assert_int_equal(fitted, 0);
        } else {
            assert_true(fitted >= 1 && fitted < 12);
            assert_int_equal(scenario_jobs(&sc), fitted);
        }
        if (budget_admit(&sc, err, sizeof err) != 0) fail_msg("jobs %u: %s", jobs, err);
    }
}

static void test_format_size(void **state)
{
    (void)state;
    char s[32];
    budget_format_size(30, s, sizeof s);
    assert_string_equal(s, "30 B");
    budget_format_size(4.0 * GIB, s, sizeof s);
    assert_string_equal(s, "4 GiB");
    budget_format_size(118.4 * GIB, s, sizeof s);
    assert_string_equal(s, "118 GiB");
    budget_format_size(1.5 * MIB, s, sizeof s);
    assert_string_equal(s, "1.5 MiB");
    budget_format_size(1020 * 1024.0, s, sizeof s);
    assert_string_equal(s, "1020 KiB");
    budget_format_size(1e30, s, sizeof s);
    assert_non_null(strstr(s, "EiB"));
}

int main(void)
{
    setenv("LC_ALL", "C", 1);
    setenv("TZ", "UTC", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_compare_estimate_is_close),
        cmocka_unit_test(test_month_default_estimate_is_close),
        cmocka_unit_test(test_jobs_add_up),
        cmocka_unit_test(test_rows_follow_the_key_scheme),
        cmocka_unit_test(test_four_billion_writes_are_refused),
        cmocka_unit_test(test_uid_over_every_id),
        cmocka_unit_test(test_servers_count),
        cmocka_unit_test(test_windows_count),
        cmocka_unit_test(test_windows_digest),
        cmocka_unit_test(test_trace_is_bounded_by_its_file),
        cmocka_unit_test(test_limit_sources),
        cmocka_unit_test(test_engine_refuses_before_running),
        cmocka_unit_test(test_auto_chooses_the_store),
        cmocka_unit_test(test_auto_does_not_depend_on_jobs),
        cmocka_unit_test(test_format_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
