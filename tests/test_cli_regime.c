/* test_cli_regime.c -- the steady state by default, end to end.
 *
 * argv[1] is the path of the built binary, argv[2] the source tree. The
 * default `regionsim compare` measures each run from its own warm-up's
 * end (measure_from = auto, engine/engine_warmup.c) and every format states
 * the regime it measured (docs/reports.md#the-regime-measured): the JSON
 * per run, the text's header line and regime table, the HTML's table and
 * verdicts. Issue 28's check: on the default compare md5, reversed and
 * opentsdb are even, and monotonic's window max/mean is 8.00 of 8.
 * `--measure-from 0s` (the old default) measures the whole run again.
 */
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

#include "tests/cli_support.h"
#include "tests/support.h"

/* The run of `scheme` in a JSON report's "runs". */
static json_object *run_of(json_object *root, const char *scheme)
{
    json_object *runs = member(root, "runs");
    for (size_t i = 0; i < json_object_array_length(runs); i++) {
        json_object *r = json_object_array_get_idx(runs, i);
        if (!strcmp(json_object_get_string(member(r, "scheme")), scheme))
            return r;
    }
    fail_msg("no run of %s", scheme);
    return NULL;
}

static double figure(json_object *run, const char *name)
{
    return json_object_get_double(member(member(run, "figures"), name));
}

/* The median of a figure across the run's seeds ("spread"). */
static double median(json_object *run, const char *name)
{
    return json_object_get_double(member(member(member(run, "spread"), name), "median"));
}

static int64_t regime_int(json_object *run, const char *name)
{
    return json_object_get_int64(member(member(run, "regime"), name));
}

/* examples/classroom.ini: the default workload for 30 minutes at HBase's
 * sizes / 2560, per-op (the built-in default until it became a month at
 * HBase's sizes); its exact counts are what the tests below check. */
static const char *classroom(void)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/examples/classroom.ini", source_root);
    return path;
}

/* JSON: every run is measured from its own warm-up's end, which its
 * regime states; the tables that start as one region leave it at a
 * balancer run (the drawn first run plus whole periods) with a region per
 * server, the pre-split ones have none; md5, reversed and opentsdb are
 * even past it (medians of the seeds) and monotonic one server at a time. */
static void test_classroom_compare_measures_past_each_warmup(void **state)
{
    (void)state;
    output o = run("compare", classroom(), "--format", "json", NULL);
    assert_int_equal(o.status, 0);
    json_object *root = json_tokener_parse(o.out);
    assert_non_null(root);
    assert_true(json_object_get_boolean(member(root, "measure_auto")));
    json_object *runs = member(root, "runs");
    assert_int_equal(json_object_array_length(runs), 12);
    int64_t first = json_object_get_int64(member(member(root, "cluster"), "balancer_first_us"));
    assert_true(first > 0 && first <= 300000000);
    for (size_t i = 0; i < json_object_array_length(runs); i++) {
        json_object *r = json_object_array_get_idx(runs, i);
        json_object *regime = member(r, "regime"), *warmup = member(regime, "warmup");
        assert_true(json_object_get_boolean(member(regime, "auto")));
        assert_true(json_object_get_boolean(member(warmup, "ended")));
        int64_t from = regime_int(r, "from_us"), end = json_object_get_int64(member(warmup, "end_us"));
        assert_int_equal(from, end);
        assert_int_equal(regime_int(r, "table_age_us"), from);
        assert_int_equal(regime_int(r, "to_us"), 1800000000);
        assert_true(from == 0 || (from >= first && (from - first) % 300000000 == 0)); /* a run */
        assert_true(json_object_get_int64(member(warmup, "regions")) >= 8);
        assert_true(regime_int(r, "regions_start") >= regime_int(r, "servers_start"));
        assert_int_equal(figure(r, "measure_from_us"), (double)from);
        assert_int_equal(figure(r, "warmup_us"), (double)end);
        /* the figures count from there: 1,000 writes a second */
        assert_int_equal(json_object_get_int64(member(r, "writes")), (1800000000 - from) / 1000);
        const char *presplit = json_object_get_string(member(r, "presplit"));
        if (strcmp(presplit, "none") != 0) { /* pre-split a region a server: no warm-up */
            assert_int_equal(from, 0);
            assert_true(json_object_is_type(member(warmup, "write_max_mean"), json_type_null));
        } else {
            assert_true(from > 0);
            assert_true(json_object_get_double(member(warmup, "write_max_mean")) >= 4.0);
        }
    }
    static const char *const even[] = { "md5", "reversed", "opentsdb" };
    for (size_t i = 0; i < 3; i++) {
        json_object *r = run_of(root, even[i]);
        assert_true(regime_int(r, "from_us") > 0);
        assert_true(median(r, "write_max_mean") <= 1.10); /* verdict.h's VERDICT_EVEN */
        assert_true(median(r, "write_window_max_mean") <= 1.10);
    }
    /* each minute one server takes every write: 8 of 8, but in a minute in
     * which the balancer moved the hot region, which two servers share */
    json_object *mono = run_of(root, "monotonic");
    assert_true(median(mono, "write_window_max_mean") >= 7.5);
    assert_true(figure(mono, "write_worst_window_max_mean") == 8.0);
    assert_true(figure(mono, "regions_per_server_start") >= 1.0);
    json_object_put(root);
    output_free(&o);
}

/* The built-in default: a month at HBase's sizes, run weighted, one report
 * window an hour; each figure says so. Pre-split salted and hashed keys are
 * even from the start; the timestamp key's writes are on one server in
 * every hour (the balancer moves the hot region between hours, not within
 * most of them); writes are the month's 2.592e9 as an expectation. */
static void test_default_is_a_month_at_hbase_sizes(void **state)
{
    (void)state;
    output o = run("compare", "--scheme", "salted", "--scheme", "hashed", "--scheme",
                   "monotonic", "--format", "json", "--json-windows", "no", NULL);
    assert_int_equal(o.status, 0);
    json_object *root = json_tokener_parse(o.out);
    assert_non_null(root);
    json_object *engine = member(root, "engine"), *cluster = member(root, "cluster");
    assert_string_equal(json_object_get_string(member(engine, "kind")), "weighted");
    assert_true(json_object_get_boolean(member(engine, "auto")));
    assert_true(json_object_get_int64(member(engine, "weight")) > 1);
    assert_string_equal(json_object_get_string(member(cluster, "split_policy")), "stepping");
    assert_true(json_object_get_int64(member(cluster, "region_max_bytes")) == 10737418240);
    assert_true(json_object_get_int64(member(cluster, "flush_bytes")) == 134217728);
    assert_true(json_object_get_int64(member(cluster, "window_us")) == 3600000000);
    const int64_t month = 30ll * 86400 * 1000000;
    static const char *const even[] = { "salted", "hashed" };
    for (size_t i = 0; i < 2; i++) {
        json_object *r = run_of(root, even[i]);
        assert_true(regime_int(r, "to_us") == month);
        assert_int_equal(regime_int(r, "from_us"), 0); /* pre-split: no warm-up */
        assert_true(median(r, "write_max_mean") <= 1.10);
        double writes = (double)json_object_get_int64(member(r, "writes"));
        assert_true(fabs(writes - 2.592e9) < 2.592e6); /* within 0.1% of 1,000 a second */
        assert_true(regime_int(r, "regions_end") > regime_int(r, "regions_start")); /* split */
    }
    json_object *mono = run_of(root, "monotonic");
    assert_true(regime_int(mono, "from_us") > 0);
    assert_true(median(mono, "write_window_max_mean") >= 7.5);
    json_object_put(root);
    output_free(&o);

    output t = run("compare", "--scheme", "monotonic", "--samples", "1", NULL);
    assert_int_equal(t.status, 0);
    assert_contains(t.out, "\ncluster   8 servers; stepping split at 10 GiB; balancer stochastic "
                           "every 5 min");
    assert_contains(t.out, "; window 1 h\n");
    assert_contains(t.out, "(1000 writes/s), 30 d;");
    assert_contains(t.out, "\nengine    weighted (engine = auto:");
    output_free(&t);
}

/* Text and HTML say what they measured, and the verdicts follow. */
static void test_classroom_compare_states_its_regime(void **state)
{
    (void)state;
    /* the schemes each check reads (and the longest name, which sets the
     * table's column): a quarter of the classroom's runs */
    output t = run("compare", classroom(), "--scheme", "md5", "--scheme", "salted", "--scheme",
                   "opentsdb-salted", NULL);
    assert_int_equal(t.status, 0);
    assert_contains(t.out, "\nmeasured  from the end of each run's warm-up (measure_from = auto): "
                           "the first balancer run at which its table had a region per server\n");
    assert_contains(t.out, "\nthe regime measured: the warm-up");
    const char *md5 = strstr(t.out, "\nthe regime measured");
    assert_non_null(md5);
    md5 = strstr(md5, "\nmd5 ");
    assert_non_null(md5);
    const char *md5_end = strchr(md5 + 1, '\n');
    const char *span = strstr(md5, " min 30 min   1.00 -> 4.00 ");
    assert_true(span && span < md5_end); /* from its warm-up's end, in minutes, to 30 */
    assert_contains(t.out, "\nsalted              none       8        -       0 30 min");
    output_free(&t);

    output h = run("compare", classroom(), "--scheme", "md5", "--scheme", "reversed", "--scheme",
                   "opentsdb", "--format", "html", NULL);
    assert_int_equal(h.status, 0);
    assert_contains(h.out, "<table id=\"regime\">");
    static const char *const even[] = { "md5", "reversed", "opentsdb" };
    for (size_t i = 0; i < 3; i++) {
        char row[64];
        snprintf(row, sizeof row, "<tr data-scheme=\"%s\">", even[i]);
        const char *summary = strstr(h.out, row);
        assert_non_null(summary);
        const char *verdict = strstr(summary, "<td class=\"verdict\">");
        assert_non_null(verdict);
        /* the median's verdict; how many seeds agree is the model's (md5's
         * regions split by generations: one seed of 3 can be mid-split) */
        static const char even_words[] = "<td class=\"verdict\">writes even; so in ";
        assert_true(!strncmp(verdict, even_words, sizeof even_words - 1));
    }
    output_free(&h);
}

/* --measure-from 0s measures the whole run (the old default), the
 * warm-up still shown apart; a run too short to leave its warm-up is
 * measured whole and says so. */
static void test_explicit_zero_and_a_warmup_that_never_ends(void **state)
{
    (void)state;
    output o = run("run", classroom(), "--scheme", "md5", "--measure-from", "0s", "--format", "json",
                   NULL);
    assert_int_equal(o.status, 0);
    json_object *root = json_tokener_parse(o.out);
    assert_false(json_object_get_boolean(member(root, "measure_auto")));
    json_object *r = run_of(root, "md5");
    assert_int_equal(regime_int(r, "from_us"), 0);
    assert_int_equal(json_object_get_int64(member(r, "writes")), 1800000);
    assert_true(figure(r, "write_max_mean") > 1.5); /* the growing table's (past it: 1.01) */
    int64_t first = json_object_get_int64(member(member(root, "cluster"), "balancer_first_us"));
    int64_t warm = (int64_t)figure(r, "warmup_us");
    assert_true(warm > first && (warm - first) % 300000000 == 0);
    json_object_put(root);
    output_free(&o);

    output t = run("run", classroom(), "--scheme", "md5", "--duration", "3m", NULL);
    assert_int_equal(t.status, 0);
    assert_contains(t.out, "\n  never left the warm-up: 4 regions on 8 servers at the end; every "
                           "figure is of the growing table\n");
    assert_contains(t.out, "\n  measured 0-3 min (a new table): 0.12 -> 0.50 regions per server");
    output_free(&t);
}

int main(int argc, char **argv)
{
    cli_args(argc, argv);
    test_plain_env();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_is_a_month_at_hbase_sizes),
        cmocka_unit_test(test_classroom_compare_measures_past_each_warmup),
        cmocka_unit_test(test_classroom_compare_states_its_regime),
        cmocka_unit_test(test_explicit_zero_and_a_warmup_that_never_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
