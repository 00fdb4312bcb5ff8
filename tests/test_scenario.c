/* test_scenario.c -- settings, scenario files and their error messages. */
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

#include "sim/scenario.h"

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' does not contain '%s'", text, part);
}

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
    assert_int_equal(scenario_cell_overhead(&sc), 20 + 1 + 2 + 8);
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
    assert_int_equal(sc.region_max_bytes, 4u << 20);
}

static const char *scenario_file(const char *text)
{
    return test_temp_file("regionsim-test", text);
}

static int load(const char *text, scenario *sc, char *err, size_t cap)
{
    scenario_defaults(sc);
    const char *path = scenario_file(text);
    int rc = scenario_load(sc, path, err, cap);
    unlink(path);
    return rc;
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
    assert_contains(err, ":4: unknown section [writes]");
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
    assert_contains(err, "scrambled_zipfian");
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
    /* A workload too large for memory is refused before it runs. */
    assert_int_equal(scenario_set(&sc, NULL, "metrics", "1000000", err, sizeof err), 0);
    assert_int_equal(scenario_set(&sc, NULL, "hosts", "4294", err, sizeof err), 0);
    assert_int_equal(scenario_validate(&sc, err, sizeof err), -1);
    assert_contains(err, "2^32");
    scenario_release(&sc);
}

static void test_size_scale_sets_hbase_sizes(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    scenario_defaults(&sc);
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
    assert_contains(err, ":3: [event x] has no 'at = TIME'");
    scenario_release(&sc);
    assert_int_equal(load("[event x]\nat = 1m\nwhen = now\n", &sc, err, sizeof err), -1);
    assert_contains(err, ":3: unknown key 'when' in [event x]");
    scenario_release(&sc);
}

static void test_trace_path_is_relative_to_the_file(void **state)
{
    (void)state;
    scenario sc;
    char err[512];
    assert_int_equal(load("[workload]\ntrace = ops.csv\n", &sc, err, sizeof err), 0);
    assert_string_equal(sc.workload.pattern.trace_path, "/tmp/ops.csv");
    assert_int_equal(sc.workload.pattern.kind, PATTERN_TRACE);
    scenario_release(&sc);
    assert_int_equal(load("[workload]\ntrace = /data/x.tsv\n", &sc, err, sizeof err), 0);
    assert_string_equal(sc.workload.pattern.trace_path, "/data/x.tsv");
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
        cmocka_unit_test(test_trace_path_is_relative_to_the_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
