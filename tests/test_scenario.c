/* test_scenario.c -- settings, scenario files and their error messages.
 * (The file reader's limits and sections are test_scenario_file.c's.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/scenario_support.h"

static void test_defaults_are_valid(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_int_equal(sc.nschemes, 12); /* every preset */
    assert_string_equal(scenario_scheme_label(&sc, 0), "monotonic");
    char expr[128];
    assert_int_equal(scenario_scheme_expr(&sc, 1, expr, sizeof expr), 1);
    assert_string_equal(expr, "salt(8) ts"); /* one bucket per server */
    sc.servers = 20;
    scenario_scheme_expr(&sc, 1, expr, sizeof expr);
    assert_string_equal(expr, "salt(20) ts");
    assert_int_equal(scenario_cell_overhead(&sc), 20 + 3 + 1 + 2 + 8);
}

static void test_set_each_kind(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "servers", "12", err, sizeof err), 0);
    assert_int_equal(sc.servers, 12);
    assert_int_equal(scenario_set(&sc, "cluster", "region_size", "3MiB", err, sizeof err), 0);
    assert_int_equal(sc.region_max_bytes, 3u << 20);
    assert_int_equal(scenario_set(&sc, NULL, "duration", "90s", err, sizeof err), 0);
    assert_int_equal(sc.workload.duration_us, 90000000);
    assert_int_equal(scenario_set(&sc, NULL, "balancer", "none", err, sizeof err), 0);
    assert_int_equal(sc.balancer, BALANCER_NONE);
    assert_int_equal(scenario_set(&sc, NULL, "balancer", "stochastic", err, sizeof err), 0);
    assert_int_equal(sc.balancer, BALANCER_STOCHASTIC);
    assert_int_equal(scenario_set(&sc, NULL, "balancer", "region-count", err, sizeof err), 0);
    assert_int_equal(sc.balancer, BALANCER_SIMPLE); /* the old name of simple */
    assert_int_equal(scenario_set(&sc, NULL, "split_policy", "stepping", err, sizeof err), 0);
    assert_int_equal(sc.split_policy, SPLIT_STEPPING);
    assert_int_equal(scenario_set(&sc, NULL, "presplit", "hex", err, sizeof err), 0);
    assert_int_equal(sc.presplit, PRESPLIT_BY_HEX);
    assert_int_equal(scenario_set(&sc, NULL, "split_keys", "b d f", err, sizeof err), 0);
    assert_int_equal(sc.presplit, PRESPLIT_BY_KEYS); /* keys imply presplit = keys */
    assert_int_equal(scenario_set(&sc, NULL, "presplit", "none", err, sizeof err), 0);
    assert_int_equal(sc.presplit, PRESPLIT_NONE);
    assert_int_equal(scenario_set(&sc, "", "seed", "18446744073709551615", err, sizeof err), 0);
    assert_true(sc.seed == UINT64_MAX);
    assert_int_equal(scenario_set(&sc, NULL, "metrics", "7", err, sizeof err), 0);
    assert_int_equal(sc.workload.pattern.metrics, 7);
    assert_int_equal(sc.workload.pattern.hosts, 20); /* the neighbouring field is untouched */
    scenario_release(&sc);
}

static void test_set_rejects_with_what_was_expected(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "servers", "0", err, sizeof err), -1);
    assert_contains(err, "1 to 100000");
    assert_contains(err, "'0'");
    assert_int_equal(scenario_set(&sc, NULL, "servers", "8x", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "servers", " 8", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "servers", "-1", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "region_size", "4MB", err, sizeof err), -1);
    assert_contains(err, "KiB");
    assert_int_equal(scenario_set(&sc, NULL, "region_size", "512", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "region_size", "99999999TiB", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "window", "5", err, sizeof err), -1);
    assert_contains(err, "unit");
    assert_int_equal(scenario_set(&sc, NULL, "window", "0s", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "balancer", "favoured-nodes", err, sizeof err), -1);
    assert_contains(err, "none, simple, stochastic or region-count");
    assert_int_equal(scenario_set(&sc, NULL, "split_policy", "busy-ish", err, sizeof err), -1);
    assert_contains(err, "constant, increasing, stepping, busy or disabled");
    assert_int_equal(scenario_set(&sc, NULL, "seed", "18446744073709551616", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "bogus", "1", err, sizeof err), -2);
    assert_contains(err, "servers");
    assert_int_equal(scenario_set(&sc, "workload", "servers", "4", err, sizeof err), -2);
    assert_int_equal(sc.servers, 8); /* nothing changed on errors */
    assert_true(sc.region_max_bytes == 10ull << 30);
}

static void test_load_a_file(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    assert_int_equal(load("; a comment\n"
                          "seed = 9\n"
                          "[cluster]\n"
                          "servers = 3   ; inline comment\n"
                          "[workload]\n"
                          "duration = 2m\n"
                          "[scheme fast]\n"
                          "key = salt(3) ts\n"
                          "[scheme plain]\n"
                          "key = monotonic\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(sc.seed, 9);
    assert_int_equal(sc.servers, 3);
    assert_int_equal(sc.workload.duration_us, 120000000);
    assert_int_equal(sc.nschemes, 2); /* the file's schemes replace the presets */
    assert_string_equal(scenario_scheme_label(&sc, 0), "fast");
    assert_string_equal(sc.schemes[0].text, "salt(3) ts");
    char expr[64];
    assert_int_equal(scenario_scheme_expr(&sc, 1, expr, sizeof expr), 1);
    assert_string_equal(expr, "ts");
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_non_null(strstr(sc.name, "regionsim-test-")); /* named after the file */
    scenario_release(&sc);
}

static void test_load_errors_name_file_and_line(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    assert_int_equal(load("[cluster]\nservers = 8\nservers = many\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":3: [cluster] servers: expected an integer");
    assert_contains(err, "'many'");
    scenario_release(&sc);

    assert_int_equal(load("\n\n[writes]\nratio = 1\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":3: unknown section [writes]"); /* the header's line */
    scenario_release(&sc);

    assert_int_equal(load("\n\n[reads]\nratio = 1\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":4: [reads] ratio: unknown key 'ratio'; expected one of: read_fraction");
    scenario_release(&sc);

    assert_int_equal(load("[cluster]\nmetrics = 4\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: [cluster] metrics: 'metrics' belongs in [workload]");
    scenario_release(&sc);

    assert_int_equal(load("[workload]\nthis line has no equals sign\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: expected '[section]' or 'key = value'");
    scenario_release(&sc);

    assert_int_equal(load("[scheme a]\nkey = ts\n[scheme b]\n\n[cluster]\nservers = 2\n", &sc,
                          err, sizeof err), -1);
    assert_contains(err, ":3: [scheme b] has no 'key = EXPRESSION'");
    scenario_release(&sc);

    assert_int_equal(load("[scheme a]\nexpr = ts\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: unknown key 'expr' in [scheme a]");
    scenario_release(&sc);

    char longline[400];
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "name = ", 7);
    longline[sizeof longline - 2] = '\n';
    longline[sizeof longline - 1] = '\0';
    assert_int_equal(load(longline, &sc, err, sizeof err), -1);
    assert_contains(err, ":1: line too long");
    scenario_release(&sc);

    scenario_defaults(&sc);
    assert_int_equal(scenario_load(&sc, "/nonexistent/x.ini", err, sizeof err), -1);
    assert_contains(err, "/nonexistent/x.ini: cannot open");
}

static void test_validate_checks_schemes(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    assert_int_equal(load("[scheme broken]\nkey = salt(8 ts\n", &sc, err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "scheme 'broken': column");
    scenario_release(&sc);
}

static void test_workload_settings(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "pattern", "entities", err, sizeof err), 0);
    assert_int_equal(sc.workload.pattern.kind, PATTERN_ENTITIES);
    assert_int_equal(scenario_set(&sc, NULL, "rate", "120/m", err, sizeof err), 0);
    assert_true(sc.workload.pattern.rate_per_s == 2.0);
    assert_int_equal(scenario_set(&sc, NULL, "rate", "5000/s", err, sizeof err), 0);
    assert_true(sc.workload.pattern.rate_per_s == 5000.0);
    assert_int_equal(scenario_set(&sc, NULL, "rate", "5000", err, sizeof err), -1);
    assert_contains(err, "5000/s");
    assert_int_equal(scenario_set(&sc, NULL, "rate", "0/s", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "insert_fraction", "0.05", err, sizeof err), 0);
    assert_true(sc.workload.pattern.insert_fraction == 0.05);
    assert_int_equal(scenario_set(&sc, NULL, "insert_fraction", "1.5", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "insert_fraction", "-0.1", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "insert_fraction", "0.1.2", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "distribution", "latest", err, sizeof err), 0);
    assert_int_equal(sc.workload.pattern.distribution, DIST_LATEST);
    assert_int_equal(scenario_set(&sc, NULL, "distribution", "pareto", err, sizeof err), -1);
    assert_contains(err, "ranked_zipfian"); /* the list of names */
    /* zipfian is YCSB's; its old name is a synonym that formats as it. */
    char shown[64];
    assert_int_equal(scenario_set(&sc, NULL, "distribution", "scrambled_zipfian", err,
                                  sizeof err), 0);
    assert_int_equal(scenario_format_value(&sc, "distribution", shown, sizeof shown), 0);
    assert_string_equal(shown, "zipfian");
    assert_int_equal(scenario_set(&sc, NULL, "distribution", "latest", err, sizeof err), 0);
    /* Entities' read_fraction and insert_fraction are shares of all
     * operations (updates the rest): YCSB D's 0.95 + 0.05 is fine, more
     * than 1 is refused, naming the setting. */
    {
        scenario e;
        scenario_defaults(&e);
        assert_int_equal(scenario_set(&e, NULL, "pattern", "entities", err, sizeof err), 0);
        assert_int_equal(scenario_set(&e, NULL, "read_fraction", "0.95", err, sizeof err), 0);
        assert_int_equal(scenario_set(&e, NULL, "insert_fraction", "0.05", err, sizeof err), 0);
        assert_int_equal(scenario_validate(&e, err, sizeof err), 0);
        assert_int_equal(scenario_set(&e, NULL, "insert_fraction", "0.1", err, sizeof err), 0);
        assert_int_equal(scenario_validate(&e, err, sizeof err), -1);
        assert_true(strncmp(err, "read_fraction: ", 15) == 0);
        assert_contains(err, "more than 1");
        scenario_release(&e);
    }
    assert_int_equal(scenario_set(&sc, NULL, "naming", "domain", err, sizeof err), 0);
    assert_int_equal(sc.workload.pattern.naming, NAMING_DOMAIN);
    assert_int_equal(scenario_set(&sc, NULL, "jitter", "0s", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "jitter", "250ms", err, sizeof err), 0);
    assert_int_equal(sc.workload.pattern.jitter_us, 250000);
    /* A trace file means: replay it, until its end unless a duration is set. */
    assert_false(sc.workload.duration_given);
    assert_int_equal(scenario_set(&sc, NULL, "trace", "ops.csv", err, sizeof err), 0);
    assert_int_equal(sc.workload.pattern.kind, PATTERN_TRACE);
    assert_string_equal(sc.workload.pattern.trace_path, "ops.csv");
    assert_int_equal(scenario_set(&sc, NULL, "duration", "1h", err, sizeof err), 0);
    assert_true(sc.workload.duration_given);
    scenario_release(&sc);
}

static void test_phases(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    assert_int_equal(load("[workload]\n"
                          "rate = 100/s\n"
                          "naming = id\n"
                          "[phase load]\n"
                          "pattern = sequence\n"
                          "rate = 9000/s\n"
                          "duration = 2m\n"
                          "[phase steady]\n"
                          "pattern = entities\n"
                          "duration = 5m\n"
                          "[workload]\n"
                          "records = 777\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(scenario_phase_count(&sc), 2);
    const phase *load_phase = scenario_phase(&sc, 0), *steady = scenario_phase(&sc, 1);
    assert_string_equal(load_phase->name, "load");
    assert_int_equal(load_phase->pattern.kind, PATTERN_SEQUENCE);
    assert_true(load_phase->pattern.rate_per_s == 9000.0);
    assert_int_equal(load_phase->duration_us, 120000000);
    assert_string_equal(steady->name, "steady");
    assert_int_equal(steady->pattern.kind, PATTERN_ENTITIES);
    /* Unset in the phase: [workload]'s value, even one given later. */
    assert_true(steady->pattern.rate_per_s == 100.0);
    assert_int_equal(steady->pattern.records, 777);
    assert_int_equal(steady->pattern.naming, NAMING_ID);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    /* A command-line option overrides every phase. */
    assert_int_equal(scenario_set(&sc, NULL, "rate", "50/s", err, sizeof err), 0);
    assert_true(scenario_phase(&sc, 0)->pattern.rate_per_s == 50.0);
    assert_true(scenario_phase(&sc, 1)->pattern.rate_per_s == 50.0);
    scenario_release(&sc);

    assert_int_equal(load("[phase a]\nservers = 3\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: [phase a] servers: 'servers' belongs in [cluster]");
    scenario_release(&sc);
    assert_int_equal(load("[phase a]\nrate = fast\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: [phase a] rate: expected a rate");
    scenario_release(&sc);
    assert_int_equal(load("[phase a]\npattern = entities\nrecords = 0\n", &sc, err, sizeof err),
                     -1);
    assert_contains(err, ":3: [phase a] records");
    scenario_release(&sc);
}

static void test_presplit_and_split_settings_are_checked(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "split_keys", "b a", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "presplit:");
    assert_int_equal(scenario_set(&sc, NULL, "split_keys", "a b c", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    keyref *keys;
    uint8_t *bytes;
    size_t n;
    assert_int_equal(scenario_split_keys(&sc, &keys, &bytes, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    free(keys);
    free(bytes);
    assert_int_equal(scenario_set(&sc, NULL, "presplit", "decimal", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "presplit_regions", "4", err, sizeof err), 0);
    assert_int_equal(scenario_split_keys(&sc, &keys, &bytes, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_memory_equal(keys[0].data, "25000000", 8); /* DecimalStringSplit: 10^8 / 4 */
    free(keys);
    free(bytes);
    assert_int_equal(scenario_set(&sc, NULL, "split_restriction", "prefix", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "split_prefix_length");
    assert_int_equal(scenario_set(&sc, NULL, "split_prefix_length", "4", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    /* A workload too large for memory is refused before it runs, per-op;
     * weighted, its simulated operations are 1 in w (scenario/weighting.h;
     * at HBase's sizes, where the flushes leave w room). */
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "1", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "duration", "30m", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "metrics", "1000000", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "hosts", "4294", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "engine", "per-op", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "2^32");
    assert_int_equal(scenario_set(&sc, NULL, "engine", "auto", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    scenario_release(&sc);
}

static void test_size_scale_sets_hbase_sizes(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
    /* the default: HBase's own sizes, the flush size unset (region / 80) */
    assert_true(sc.region_max_bytes == 10ull << 30);
    assert_true(scenario_flush_bytes(&sc) == 128ull << 20);
    assert_int_equal(sc.split_policy, SPLIT_STEPPING); /* HBase 2's default */
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "2560", err, sizeof err), 0);
    assert_int_equal(sc.region_max_bytes, 4u << 20); /* 10 GiB / 2560 */
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "1", err, sizeof err), 0);
    assert_true(sc.region_max_bytes == 10ull << 30); /* hbase.hregion.max.filesize */
    assert_true(sc.flush_bytes == 128ull << 20);     /* memstore flush size */
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "1024", err, sizeof err), 0);
    assert_int_equal(sc.region_max_bytes, 10u << 20);
    assert_int_equal(sc.flush_bytes, 128u << 10);
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "1000000", err, sizeof err), -1);
    assert_int_equal(sc.split_limit, 1000); /* hbase.regionserver.regionSplitLimit */
    scenario_release(&sc);
}

static void test_events(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    assert_int_equal(load("[event crash]\n"
                          "at = 20m\n"
                          "action = fail\n"
                          "server = 3\n"
                          "[event grow]\n"
                          "action = add\n"
                          "servers = 4\n"
                          "at = 10m\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(sc.nevents, 2);
    /* In time order, whatever the file's order. */
    assert_string_equal(sc.events[0].name, "grow");
    assert_int_equal(sc.events[0].action, EVENT_ADD_SERVERS);
    assert_int_equal(sc.events[0].servers, 4);
    assert_int_equal(sc.events[0].at_us, 600000000);
    assert_string_equal(sc.events[1].name, "crash");
    assert_int_equal(sc.events[1].action, EVENT_FAIL);
    assert_int_equal(sc.events[1].server, 3);
    assert_int_equal(sc.events[1].detection_us, 90000000); /* zookeeper.session.timeout */
    assert_int_equal(scenario_max_servers(&sc), 12);
    scenario_release(&sc);

    assert_int_equal(load("[event x]\naction = explode\nat = 1m\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: [event x] action: expected add, decommission or fail");
    scenario_release(&sc);
    assert_int_equal(load("\n[event x]\naction = add\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: [event x] has no 'at = TIME'"); /* the header's line */
    scenario_release(&sc);
    assert_int_equal(load("\n[event x]\n[cluster]\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":2: [event x] has no 'at = TIME'"); /* an empty one too */
    scenario_release(&sc);
    assert_int_equal(load("[event x]\nat = 1m\nwhen = now\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":3: unknown key 'when' in [event x]");
    scenario_release(&sc);
}

/* window: auto by default, the shortest of 1 min .. 1 d that cuts the
 * planned run into at most 1,440 windows (phases add up; an open-ended
 * trace gives 1 min); a duration sets it; "auto" turns it back on. */
static void test_window_auto_follows_the_run(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG], shown[64];
    const uint64_t min = 60000000;
    scenario_defaults(&sc);
    assert_true(sc.window_auto);
    assert_int_equal(scenario_format_value(&sc, "window", shown, sizeof shown), 0);
    assert_string_equal(shown, "auto");
    assert_true(scenario_window_us(&sc) == 60 * min); /* 30 d: 720 windows of 1 h */
    struct { const char *duration; uint64_t window; } cases[] = {
        { "30s", min }, { "30m", min }, { "1d", min }, { "1441m", 5 * min },
        { "5d", 5 * min }, { "6d", 15 * min }, { "15d", 15 * min }, { "60d", 60 * min },
        { "61d", 360 * min }, { "3000d", 1440 * min } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(scenario_set(&sc, NULL, "duration", cases[i].duration, err, sizeof err), 0);
        if (scenario_window_us(&sc) != cases[i].window)
            fail_msg("duration %s: window %llu us", cases[i].duration,
                     (unsigned long long)scenario_window_us(&sc));
    }
    assert_int_equal(scenario_set(&sc, NULL, "window", "10s", err, sizeof err), 0);
    assert_false(sc.window_auto);
    assert_true(scenario_window_us(&sc) == 10000000);
    assert_int_equal(scenario_format_value(&sc, "window", shown, sizeof shown), 0);
    assert_string_equal(shown, "10s");
    assert_int_equal(scenario_set(&sc, NULL, "window", "auto", err, sizeof err), 0);
    assert_true(sc.window_auto);
    assert_int_equal(scenario_set(&sc, NULL, "window", "automatic", err, sizeof err), -1);
    assert_contains(err, "expected auto or a duration");
    assert_true(sc.window_auto); /* nothing changed on an error */
    scenario_release(&sc);
    /* phases add up: 20 d + 20 d is 40 d, past 1,440 windows of 15 min */
    assert_int_equal(load("[phase a]\nduration = 20d\n[phase b]\nduration = 20d\n", &sc, err,
                          sizeof err), 0);
    assert_true(scenario_window_us(&sc) == 60 * min);
    scenario_release(&sc);
}

/* measure_from: auto by default (the end of each run's warm-up); a
 * duration, 0s included, measures from there and turns auto off; "auto"
 * turns it back on; anything else names both forms. */
static void test_measure_from_auto_or_a_duration(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG], shown[64];
    scenario_defaults(&sc);
    assert_true(sc.measure_auto);
    assert_int_equal(sc.measure_from_us, 0);
    assert_int_equal(scenario_format_value(&sc, "measure_from", shown, sizeof shown), 0);
    assert_string_equal(shown, "auto");
    assert_int_equal(scenario_set(&sc, NULL, "measure_from", "0s", err, sizeof err), 0);
    assert_false(sc.measure_auto);
    assert_int_equal(sc.measure_from_us, 0);
    assert_int_equal(scenario_format_value(&sc, "measure_from", shown, sizeof shown), 0);
    assert_string_equal(shown, "0s");
    assert_int_equal(scenario_set(&sc, NULL, "measure_from", "10m", err, sizeof err), 0);
    assert_false(sc.measure_auto);
    assert_int_equal(sc.measure_from_us, 600000000);
    assert_int_equal(scenario_set(&sc, NULL, "measure_from", "auto", err, sizeof err), 0);
    assert_true(sc.measure_auto);
    assert_int_equal(sc.measure_from_us, 0);
    assert_int_equal(scenario_set(&sc, NULL, "measure_from", "Auto", err, sizeof err), -1);
    assert_contains(err, "expected auto or a duration");
    assert_contains(err, "'Auto'");
    assert_true(sc.measure_auto); /* nothing changed on an error */
    /* auto is never "past the end of the run"; a duration there is refused */
    assert_int_equal(scenario_set(&sc, NULL, "duration", "5m", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "measure_from", "5m", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "measure_from: 5m is not before the end of the run");
    /* from a file */
    scenario_release(&sc);
    assert_int_equal(load("[workload]\nmeasure_from = auto\n", &sc, err, sizeof err), 0);
    assert_true(sc.measure_auto);
    scenario_release(&sc);
    assert_int_equal(load("[workload]\nmeasure_from = 0s\n", &sc, err, sizeof err), 0);
    assert_false(sc.measure_auto);
    scenario_release(&sc);
}

/* An event at or after the end of the run would never happen (it used to
 * make phantom servers in a report): refused with its line, its time and
 * the run's end, where the end is known. */
static void test_events_after_the_end(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    assert_int_equal(load("[workload]\nduration = 30m\n[event late]\nservers = 2\nat = 40m\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, ":5: [event late] at = 40m is not before the end of the run (30m)");
    assert_true(!strncmp(err, "/tmp/regionsim-test-", 20)); /* FILE:LINE */
    /* at the very end: also never */
    assert_int_equal(scenario_set(&sc, NULL, "duration", "40m", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "at = 40m is not before the end of the run (40m)");
    assert_int_equal(scenario_set(&sc, NULL, "duration", "41m", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    /* a trace replayed to its end does not know its end: not checked */
    assert_int_equal(scenario_set(&sc, NULL, "trace", "ops.csv", err, sizeof err), 0);
    sc.workload.duration_given = 0;
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    scenario_release(&sc);
}

/* The balancer's first run falls in its first period: balancer_phase up
 * to balancer_period (0: drawn from the seed) and no more; system_regions
 * is meta (the default) or none. */
static void test_balancer_phase_and_system_regions(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    assert_int_equal(load("[cluster]\nbalancer_phase = 5m\nsystem_regions = none\n", &sc, err,
                          sizeof err), 0);
    assert_int_equal(sc.balancer_phase_us, 300000000);
    assert_int_equal(sc.system_regions, 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "balancer_phase", "301s", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "balancer_phase: 301s is longer than balancer_period (5m)");
    assert_int_equal(scenario_set(&sc, NULL, "balancer_period", "10m", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "system_regions", "namespace", err, sizeof err), -1);
    assert_contains(err, "namespace");
    scenario_release(&sc);

    /* multi_get acts on range reads of OpenTSDB's salted key only */
    assert_int_equal(load("[reads]\nmulti_get = true\nread_fraction = 0.1\n", &sc, err,
                          sizeof err), 0);
    sc.nschemes = 0;
    scenario_add_scheme(&sc, NULL, "monotonic");
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "multi_get has no effect: no scheme is OpenTSDB's salted key");
    scenario_add_scheme(&sc, NULL, "opentsdb-salted");
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "read_range", "0", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "read_metric", "1", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "multi_get has no effect: the phase has no range reads");
    scenario_release(&sc);

    scenario_defaults(&sc);
    assert_int_equal(sc.system_regions, 1);
    assert_int_equal(sc.balancer_phase_us, 0);
    scenario_release(&sc);
}

/* At most 100,000 servers over the whole run, counting those events add. */
static void test_servers_over_the_run(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG], *text = malloc(64 * 64);
    assert_non_null(text);
    text[0] = '\0';
    for (int i = 0; i < 64; i++)
        sprintf(text + strlen(text), "[event e%d]\nat = %dm\nservers = 100000\n", i, i + 1);
    assert_int_equal(load(text, &sc, err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "duration", "2h", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_string_equal(err, "servers: 8 at the start and 6400000 added by 64 events make "
                        "6400008, more than 100000, the most a run can have");
    scenario_release(&sc);
    assert_int_equal(load("[cluster]\nservers = 99990\n[event a]\nat = 1m\nservers = 10\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_int_equal(scenario_max_servers(&sc), 100000);
    scenario_release(&sc);
    assert_int_equal(load("[cluster]\nservers = 99990\n[event a]\nat = 1m\nservers = 11\n",
                          &sc, err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "99990 at the start and 11 added by 1 event make 100001");
    scenario_release(&sc);
    free(text);
}

/* --servers allows 100,000: the presets (one bucket per server) must not
 * fail on an expansion the user never wrote. */
static void test_presets_on_many_servers(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "servers", "70000", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    char buf[128];
    assert_int_equal(scenario_scheme_expr(&sc, 1, buf, sizeof buf), 1);
    assert_string_equal(buf, "salt(65536) ts");
    scenario_release(&sc);
}

/* Range messages state the maximum, and the maximum is one a value can
 * have: size_scale 1000000 used to be refused as "expected 1 to 1000000"
 * (128 MiB / 1000000 is below the 1 KiB flush size). */
static void test_range_messages_state_both_ends(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "1000000", err, sizeof err), -1);
    assert_string_equal(err, "expected an integer from 1 to 131072, found '1000000'");
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "131073", err, sizeof err), -1);
    assert_int_equal(scenario_set(&sc, NULL, "size_scale", "131072", err, sizeof err), 0);
    assert_int_equal(sc.flush_bytes, 1024);
    assert_int_equal(sc.region_max_bytes, 81920);
    assert_int_equal(scenario_set(&sc, NULL, "region_size", "512B", err, sizeof err), -1);
    assert_string_equal(err, "expected a size from 1KiB to 1024TiB (units B, KiB, MiB, GiB, "
                        "TiB), found '512B'");
    assert_int_equal(scenario_set(&sc, NULL, "rpc_time", "2h", err, sizeof err), -1);
    assert_string_equal(err, "expected a duration from 0s to 1h with a unit (us, ms, s, m, h, d), "
                        "found '2h'");
    assert_int_equal(scenario_set(&sc, NULL, "window", "0s", err, sizeof err), -1);
    assert_contains(err, "from 1us to 18446744073709551615us");
    scenario_release(&sc);
}

/* Settings that shape generated operations are refused where only a trace
 * would see them (they were silently ignored), and accepted where a
 * generated phase uses them. */
static void test_generator_settings_on_a_trace_are_refused(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    static const char *const keys[] = { "rate", "records", "distribution", "metrics" };
    static const char *const values[] = { "5000/s", "10", "uniform", "5" };
    for (size_t i = 0; i < 4; i++) { /* options: set everywhere, every phase a trace */
        scenario_defaults(&sc);
        assert_int_equal(scenario_set(&sc, NULL, "trace", "/tmp/t.csv", err, sizeof err), 0);
        assert_int_equal(scenario_set(&sc, NULL, keys[i], values[i], err, sizeof err), 0);
        assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
        assert_non_null(strstr(err, "has no effect on a trace replay"));
        assert_non_null(strstr(err, keys[i]));
        scenario_release(&sc);
    }
    /* [workload] rate for a generated phase, a trace phase after it: fine */
    assert_int_equal(load("[workload]\nrate = 500/s\n"
                          "[phase gen]\nduration = 1m\n"
                          "[phase replay]\ntrace = /tmp/t.csv\n", &sc, err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    scenario_release(&sc);
    /* ... but a rate in the trace phase's own section has nothing to act on */
    assert_int_equal(load("[phase gen]\nduration = 1m\n"
                          "[phase replay]\ntrace = /tmp/t.csv\nrate = 500/s\n", &sc, err,
                          sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_non_null(strstr(err, "replay: rate has no effect on a trace replay"));
    scenario_release(&sc);
    /* a trace alone, nothing else given: fine */
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "trace", "/tmp/t.csv", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    scenario_release(&sc);
}

/* Rates and fractions format as the user can write them back: in the unit
 * that holds the rate as a whole count, a fraction without an exponent, and
 * each formatted value sets the same number again. */
static void test_rates_and_fractions_format_back(void **state)
{
    (void)state;
    static const struct { const char *key, *value, *formatted; } cases[] = {
        { "rate", "5000/m", "5000/m" }, { "rate", "1/h", "1/h" },
        { "rate", "1000000000/s", "1000000000/s" }, { "rate", "300/s", "300/s" },
        { "rate", "120/m", "2/s" }, { "split_jitter", "0.0000001", "0.0000001" },
        { "split_jitter", "0.25", "0.25" }, { "split_jitter", "1", "1" },
        { "split_jitter", "0", "0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        scenario a, b;
        char err[256], out[512], again[512];
        scenario_defaults(&a);
        scenario_defaults(&b);
        assert_int_equal(scenario_set(&a, NULL, cases[i].key, cases[i].value, err, sizeof err), 0);
        assert_int_equal(scenario_format_value(&a, cases[i].key, out, sizeof out), 0);
        assert_string_equal(out, cases[i].formatted);
        assert_int_equal(scenario_set(&b, NULL, cases[i].key, out, err, sizeof err), 0);
        assert_int_equal(scenario_format_value(&b, cases[i].key, again, sizeof again), 0);
        assert_string_equal(again, out);
        scenario_release(&a);
        scenario_release(&b);
    }
}

/* split_keys takes a list: its message says so; an empty list or key is
 * refused; a list and a file from one source are refused, naming both,
 * and an option's one replaces the file's other one. */
static void test_split_keys_list_and_file(void **state)
{
    (void)state;
    scenario sc;
    char err[MSG];
    scenario_defaults(&sc);
    assert_int_equal(scenario_set(&sc, NULL, "split_keys", "", err, sizeof err), -1);
    assert_string_equal(err, "expected a comma-separated list of keys in shell form (a,b,c), "
                        "found ''");
    assert_int_equal(scenario_set(&sc, NULL, "split_keys", " , ", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_string_equal(err, "presplit: split_keys: key 1 is empty: expected a key before the "
                        "',' at column 2");
    assert_int_equal(scenario_set(&sc, NULL, "split_keys", "b,d", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "split_keys_file", "/dev/null", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_string_equal(err, "presplit: split_keys and split_keys_file are both set "
                        "(--split-keys and --split-keys-file): expected one of them, the keys "
                        "or a file of keys");
    scenario_release(&sc);

    assert_int_equal(load("[cluster]\nsplit_keys = b\nsplit_keys_file = /dev/null\n", &sc, err,
                          sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "split_keys and split_keys_file are both set in the scenario file");
    /* an option's list replaces the file's file of keys */
    assert_int_equal(scenario_set(&sc, NULL, "split_keys", "m", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), 0);
    assert_null(sc.split_keys_file);
    scenario_release(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_valid),
        cmocka_unit_test(test_set_each_kind),
        cmocka_unit_test(test_set_rejects_with_what_was_expected),
        cmocka_unit_test(test_load_a_file),
        cmocka_unit_test(test_load_errors_name_file_and_line),
        cmocka_unit_test(test_validate_checks_schemes),
        cmocka_unit_test(test_workload_settings),
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_presplit_and_split_settings_are_checked),
        cmocka_unit_test(test_size_scale_sets_hbase_sizes),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_window_auto_follows_the_run),
        cmocka_unit_test(test_measure_from_auto_or_a_duration),
        cmocka_unit_test(test_events_after_the_end),
        cmocka_unit_test(test_balancer_phase_and_system_regions),
        cmocka_unit_test(test_servers_over_the_run),
        cmocka_unit_test(test_presets_on_many_servers),
        cmocka_unit_test(test_range_messages_state_both_ends),
        cmocka_unit_test(test_split_keys_list_and_file),
        cmocka_unit_test(test_rates_and_fractions_format_back),
        cmocka_unit_test(test_generator_settings_on_a_trace_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
