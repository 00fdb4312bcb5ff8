/* test_assertion.c -- CI assertions: every form of the grammar, every
 * refusal (naming its token), checks on hand-built runs, the lines they
 * print. Links sim's units only to check that "over last DURATION" takes
 * exactly the durations scenario files take. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support.h"

#include "reports/assertion.h"
#include "scenario/units.h"

#define EPS 1e-9
#define MIN_US 60000000ull

static assertion parsed(const char *text)
{
    assertion a;
    char err[512];
    if (assertion_parse(text, &a, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", text, err);
    return a;
}

/* Parsing text fails with a message containing each of the parts. */
static void refused(const char *text, const char *part1, const char *part2)
{
    assertion a;
    char err[512];
    if (assertion_parse(text, &a, err, sizeof err) != -1)
        fail_msg("'%s' was accepted", text);
    assert_contains(err, part1);
    if (part2)
        assert_contains(err, part2);
}

/* ---- parsing ---- */

static void test_parse_a_bound(void **state)
{
    (void)state;
    assertion a = parsed("write_max_mean <= 1.2");
    assert_int_equal(a.kind, ASSERTION_BOUND);
    assert_non_null(a.figure);
    assert_ptr_equal(a.figure, figure_find("write_max_mean"));
    assert_int_equal(a.op, ASSERT_LE);
    assert_float_equal(a.bound, 1.2, EPS);
    assert_string_equal(a.bound_text, "1.2");
    assert_int_equal(a.over_last_us, 0);
    assert_int_equal(a.over_last_windows, 0);
    assert_int_equal(a.nschemes, 0);
    assert_string_equal(a.text, "write_max_mean <= 1.2");
    assert_string_equal(a.name, a.text); /* unnamed: its text */

    a = parsed("  write_max_mean<=1.2  "); /* operators may touch their neighbours */
    assert_string_equal(a.text, "write_max_mean <= 1.2");
}

static void test_parse_over_last_and_for(void **state)
{
    (void)state;
    assertion a = parsed("p99_latency_us < 5e4 over last 10m for salted");
    assert_int_equal(a.op, ASSERT_LT);
    assert_float_equal(a.bound, 50000, EPS);
    assert_string_equal(a.bound_text, "5e4"); /* as written */
    assert_int_equal(a.over_last_us, 10 * MIN_US);
    assert_int_equal(a.nschemes, 1);
    assert_string_equal(a.schemes[0], "salted");
    /* the for clause is not in the text: each result names its scheme */
    assert_string_equal(a.text, "p99_latency_us < 5e4 over last 10m");

    a = parsed("regions >= 4 for a,b ,  \"salt(8) ts\" over last 90s"); /* either order */
    assert_int_equal(a.nschemes, 3);
    assert_string_equal(a.schemes[0], "a");
    assert_string_equal(a.schemes[1], "b");
    assert_string_equal(a.schemes[2], "salt(8) ts");
    assert_int_equal(a.over_last_us, 90000000);
    assert_string_equal(a.text, "regions >= 4 over last 90s");
}

static void test_parse_every_operator_and_number(void **state)
{
    (void)state;
    static const struct { const char *text; assertion_op op; double bound; } cases[] = {
        { "writes < 1", ASSERT_LT, 1 },        { "writes <= 2", ASSERT_LE, 2 },
        { "writes > 3", ASSERT_GT, 3 },        { "writes >= 4", ASSERT_GE, 4 },
        { "writes == 5", ASSERT_EQ, 5 },       { "writes == -0.5", ASSERT_EQ, -0.5 },
        { "writes == .5", ASSERT_EQ, 0.5 },    { "writes == 5.", ASSERT_EQ, 5 },
        { "writes == 1E+3", ASSERT_EQ, 1000 }, { "writes == +2e-1", ASSERT_EQ, 0.2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assertion a = parsed(cases[i].text);
        assert_int_equal(a.op, cases[i].op);
        assert_float_equal(a.bound, cases[i].bound, EPS);
        assert_string_equal(a.text, cases[i].text);
    }
}

static void test_parse_balance_and_steady(void **state)
{
    (void)state;
    assertion a = parsed("balance writes <= 1.15 over last 6 windows");
    assert_int_equal(a.kind, ASSERTION_BALANCE);
    assert_null(a.figure);
    assert_int_equal(a.balance_reads, 0);
    assert_int_equal(a.over_last_windows, 6);
    assert_int_equal(a.over_last_us, 0);
    assert_string_equal(a.text, "balance writes <= 1.15 over last 6 windows");

    a = parsed("balance reads>0.5 over last 1 window for \"salt(8) ts\", hashed");
    assert_int_equal(a.balance_reads, 1);
    assert_int_equal(a.op, ASSERT_GT);
    assert_int_equal(a.over_last_windows, 1);
    assert_int_equal(a.nschemes, 2);
    assert_string_equal(a.text, "balance reads > 0.5 over last 1 window");

    a = parsed("steady over last 4 windows");
    assert_int_equal(a.kind, ASSERTION_STEADY);
    assert_int_equal(a.op, ASSERT_EQ);
    assert_float_equal(a.bound, 0, EPS);
    assert_string_equal(a.bound_text, "0");
    assert_string_equal(a.text, "steady over last 4 windows");

    a = parsed("steady over last 30m for monotonic");
    assert_int_equal(a.over_last_us, 30 * MIN_US);
    assert_int_equal(a.over_last_windows, 0);

    /* with an operator, steady is the figure */
    a = parsed("steady >= 1");
    assert_int_equal(a.kind, ASSERTION_BOUND);
    assert_ptr_equal(a.figure, figure_find("steady"));
    a = parsed("steady>=1");
    assert_int_equal(a.kind, ASSERTION_BOUND);
}

static void test_parse_named(void **state)
{
    (void)state;
    assertion a;
    char err[512];
    assert_int_equal(assertion_parse_named("hotspot", "write_max_mean <= 1.2", &a, err,
                                           sizeof err), 0);
    assert_string_equal(a.name, "hotspot");
    assert_string_equal(a.text, "write_max_mean <= 1.2");
    assert_int_equal(assertion_parse_named("", "writes > 0", &a, err, sizeof err), 0);
    assert_string_equal(a.name, "writes > 0");
    char long_name[300];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_int_equal(assertion_parse_named(long_name, "writes > 0", &a, err, sizeof err), -1);
    assert_contains(err, "name too long");
}

static void test_parse_refusals_name_the_token(void **state)
{
    (void)state;
    refused("", "expected a figure name, balance or steady, found the end", NULL);
    refused("   ", "found the end", NULL);
    refused("<= 1", "expected a figure name, balance or steady, found '<='", NULL);
    refused("write_max_men <= 1.2", "unknown figure 'write_max_men'",
            "(did you mean 'write_max_mean'?)");
    refused("zzzzzzzzzzzz <= 1", "unknown figure 'zzzzzzzzzzzz': expected a figure name", NULL);
    refused("server_busy <= 1", "'server_busy' is a server figure", NULL);
    refused("write_max_mean => 1.2",
            "expected an operator (<, <=, >, >=, ==) after 'write_max_mean', found '=>'", NULL);
    refused("write_max_mean = 1.2", "found '='", NULL);
    refused("write_max_mean != 1.2", "found '!='", NULL);
    refused("write_max_mean 1.2", "after 'write_max_mean', found '1.2'", NULL);
    refused("write_max_mean", "found the end", NULL);
    refused("write_max_mean <= abc", "expected a number after '<=' (a decimal such as 1.2 or "
            "5e4), found 'abc'", NULL);
    refused("write_max_mean <=", "expected a number after '<='", "found the end");
    refused("write_max_mean <= 0x10", "found '0x10'", NULL);
    refused("write_max_mean <= inf", "found 'inf'", NULL);
    refused("write_max_mean <= nan", "found 'nan'", NULL);
    refused("write_max_mean <= 1e", "found '1e'", NULL);
    refused("write_max_mean <= 1.2.3", "found '1.2.3'", NULL);
    refused("write_max_mean <= .", "found '.'", NULL);
    refused("write_max_mean <= 1.2x", "found '1.2x'", NULL);
    refused("write_max_mean <= 1e999", "number '1e999' out of range", NULL);
    refused("write_max_mean <= 1 over 10m", "expected 'last' after 'over', found '10m'", NULL);
    refused("write_max_mean <= 1 over", "expected 'last' after 'over', found the end", NULL);
    refused("write_max_mean <= 1 over last", "expected a duration after 'over last'",
            "found the end");
    refused("write_max_mean <= 1 over last 10min", "(a whole number and a unit, us, ms, s, m, "
            "h or d: 10m), or N windows, found '10min'", NULL);
    refused("write_max_mean <= 1 over last 1.5m", "found '1.5m'", NULL);
    refused("write_max_mean <= 1 over last -1m", "found '-1m'", NULL);
    refused("write_max_mean <= 1 over last 0s", "found '0s'", NULL);
    refused("write_max_mean <= 1 over last 99999999999999h", "found '99999999999999h'", NULL);
    refused("balance writes < 2 over last 10", "expected 'windows' after 'over last 10' (or a "
            "duration with a unit: 10m), found the end", NULL);
    refused("balance writes < 2 over last 10 minutes", "found 'minutes'", NULL);
    refused("balance writes < 2 over last 0 windows", "expected 1 to 1000000 windows after "
            "'over last', found '0'", NULL);
    refused("balance writes < 2 over last 1000001 windows", "found '1000001'", NULL);
    refused("write_max_mean <= 1 for", "expected a scheme name after 'for' or ',', found the end",
            NULL);
    refused("write_max_mean <= 1 for a,", "expected a scheme name", "found the end");
    refused("write_max_mean <= 1 for a, , b", "expected a scheme name", "found ','");
    refused("write_max_mean <= 1 for a, a", "scheme 'a' named twice after 'for'", NULL);
    refused("write_max_mean <= 1 for \"salt(8) ts", "expected '\"' to end the scheme name",
            "'\"salt(8) ts'");
    refused("write_max_mean <= 1 garbage", "unexpected 'garbage' after '1': expected 'over last "
            "...', 'for SCHEME' or the end", NULL);
    refused("write_max_mean <= 1 over last 1m junk", "unexpected 'junk' after '1m': expected "
            "'for SCHEME' or the end", NULL);
    refused("write_max_mean <= 1 for a junk", "unexpected 'junk' after 'a': expected "
            "'over last ...' or the end", NULL);
    refused("write_max_mean <= 1 over last 1m for a junk", "expected the end", NULL);
    refused("write_max_mean <= 1 over last 1m over last 2m", "a second 'over' clause", NULL);
    refused("write_max_mean <= 1 for a for b", "a second 'for' clause", NULL);
    refused("balance <= 1", "expected writes or reads after 'balance', found '<='", NULL);
    refused("balance bytes <= 1", "found 'bytes'", NULL);
    refused("balance writes 1", "after 'balance writes', found '1'", NULL);
    refused("balance writes <= 1.2", "expected 'over last N windows' (or 'over last DURATION') "
            "after 'balance ...'", NULL);
    refused("steady", "expected 'over last N windows'", "after 'steady'");
    refused("steady for a", "after 'steady'", NULL);
    refused("write_max_mean <= 1 over last 3 windows", "'over last 3 windows' is for balance "
            "and steady: a figure takes a duration (over last 10m)", NULL);
    refused("steady == 0 over last 3 windows", "bounds the figure steady", NULL);
    refused("write_max_mean <= 1\x01", "control byte \\x01 at character 20", NULL);
    refused("write_max_mean <= 1 over last 1m\x1b[31m", "control byte \\x1B", NULL);

    char text[400];
    snprintf(text, sizeof text, "writes > 0 for %0300d", 0);
    refused(text, "assertion too long: at most 255 characters", NULL);
    snprintf(text, sizeof text, "writes > 0 for %064d", 0);
    refused(text, "too long: at most 63 characters", "name the scheme in a [scheme NAME]");
    int n = snprintf(text, sizeof text, "writes>0 for 0");
    for (int i = 1; i <= 64; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, ",%x", i);
    refused(text, "too many schemes after 'for': at most 64", NULL);
    /* a long token is cut in the message */
    refused("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij <= 1",
            "'abcdefghijabcdefghijabcdefghijabcdefghij...'", NULL);
}

/* "over last DURATION" takes what scenario files take (units.h), but 0. */
static void test_durations_agree_with_units(void **state)
{
    (void)state;
    static const char *const forms[] = {
        "10m", "3d", "90s", "1500ms", "7us", "2h", "0s", "0us", "10 m", "10min", "1.5m", "-1m", "+1m",
        "m", "10", "10M", "10S", "1d", "18446744073709551615us", "18446744073709551616us",
        "5124095576h", "5124095577h", "007s",
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        char text[128], err[512];
        snprintf(text, sizeof text, "writes > 0 over last %s", forms[i]);
        uint64_t us = 0;
        int units_ok = units_parse_duration(forms[i], &us) == 0 && us > 0;
        assertion a;
        int ok = assertion_parse(text, &a, err, sizeof err) == 0;
        if (ok != units_ok)
            fail_msg("'%s': units %s it, assertions %s it", forms[i],
                     units_ok ? "takes" : "refuses", ok ? "take" : "refuse");
        if (ok)
            assert_true(a.over_last_us == us);
    }
}

/* ---- checking ---- */

/* A run of four servers with these writes (no reads), 30 minutes long. */
static run_result run_with_writes(const char *scheme, server_result *servers, uint64_t w0,
                                  uint64_t w1, uint64_t w2, uint64_t w3)
{
    run_result run;
    memset(&run, 0, sizeof run);
    memset(servers, 0, 4 * sizeof *servers);
    uint64_t w[4] = { w0, w1, w2, w3 };
    for (int s = 0; s < 4; s++) {
        snprintf(servers[s].name, sizeof servers[s].name, "rs%d", s);
        servers[s].writes = w[s];
        run.writes += w[s];
    }
    run.scheme_name = (char *)scheme;
    run.nservers = 4;
    run.servers = servers;
    run.duration_us = 30 * MIN_US;
    return run;
}

typedef struct two_runs {
    server_result even_servers[4], hot_servers[4];
    run_result runs[2];
    sim_results res;
} two_runs;

static void two_runs_init(two_runs *t)
{
    memset(t, 0, sizeof *t);
    t->runs[0] = run_with_writes("even", t->even_servers, 10, 10, 10, 10);
    t->runs[1] = run_with_writes("hot", t->hot_servers, 40, 0, 0, 0);
    t->res.scenario = "test";
    t->res.nruns = 2;
    t->res.runs = t->runs;
}

static int check(const char *text, const sim_results *res, assertion *a, assertion_result *out,
                 char *err, size_t errcap)
{
    *a = parsed(text);
    return assertion_check(a, res, out, err, errcap);
}

static void test_check_a_bound(void **state)
{
    (void)state;
    two_runs t;
    two_runs_init(&t);
    assertion a;
    assertion_result r[2];
    char err[512];
    assert_int_equal(check("write_max_mean <= 1.2", &t.res, &a, r, err, sizeof err), 2);
    assert_ptr_equal(r[0].assertion, &a);
    assert_string_equal(r[0].scheme, "even");
    assert_float_equal(r[0].value, 1.0, EPS);
    assert_true(r[0].passed);
    assert_null(r[0].why);
    assert_string_equal(r[1].scheme, "hot");
    assert_float_equal(r[1].value, 4.0, EPS);
    assert_false(r[1].passed);

    static const struct { const char *text; int hot_passes; } ops[] = {
        { "write_max_mean == 4", 1 }, { "write_max_mean > 4", 0 }, { "write_max_mean >= 4", 1 },
        { "write_max_mean < 4", 0 },  { "write_max_mean < 4.5", 1 }, { "writes == 40", 1 },
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        assert_int_equal(check(ops[i].text, &t.res, &a, r, err, sizeof err), 2);
        assert_int_equal(r[1].passed, ops[i].hot_passes);
    }
}

static void test_check_for_schemes(void **state)
{
    (void)state;
    two_runs t;
    two_runs_init(&t);
    assertion a;
    assertion_result r[2];
    char err[512];
    assert_int_equal(check("write_max_mean <= 1.2 for hot", &t.res, &a, r, err, sizeof err), 1);
    assert_string_equal(r[0].scheme, "hot");
    assert_false(r[0].passed);
    /* in the runs' order, not the clause's */
    assert_int_equal(check("writes > 0 for hot, even", &t.res, &a, r, err, sizeof err), 2);
    assert_string_equal(r[0].scheme, "even");
    assert_string_equal(r[1].scheme, "hot");

    assert_int_equal(check("write_max_mean <= 1.2 for hot, cold", &t.res, &a, r, err,
                           sizeof err), -1);
    assert_string_equal(err, "no scheme 'cold' among the runs; the schemes are even, hot");
    sim_results none = { .scenario = "empty" };
    assert_int_equal(check("writes > 0 for x", &none, &a, r, err, sizeof err), -1);
    assert_contains(err, "the schemes are none (no run)");
    assert_int_equal(check("writes > 0", &none, &a, r, err, sizeof err), 0);
}

static void test_check_undefined_fails(void **state)
{
    (void)state;
    two_runs t;
    two_runs_init(&t);
    assertion a;
    assertion_result r[2];
    char err[512];
    /* no reads: read_max_mean is undefined, which fails whatever the bound */
    assert_int_equal(check("read_max_mean < 1e300", &t.res, &a, r, err, sizeof err), 2);
    assert_true(isnan(r[0].value));
    assert_false(r[0].passed);
    assert_string_equal(r[0].why, "the figure is undefined for this run");
    assert_int_equal(check("read_max_mean >= 0", &t.res, &a, r, err, sizeof err), 2);
    assert_false(r[1].passed);
}

static void test_check_over_last_duration(void **state)
{
    (void)state;
    two_runs t;
    two_runs_init(&t);
    assertion a;
    assertion_result r[2];
    char err[512];
    a = parsed("write_max_mean <= 1.2 over last 10m");
    assert_int_equal(assertion_measure_from(&a, 30 * MIN_US, 0), 20 * MIN_US);
    assert_int_equal(assertion_measure_from(&a, 30 * MIN_US, 5 * MIN_US), 20 * MIN_US);
    assert_int_equal(assertion_measure_from(&a, 10 * MIN_US, 0), 0);
    assert_int_equal(assertion_measure_from(&a, 5 * MIN_US, 0), 0);
    assertion plain = parsed("write_max_mean <= 1.2");
    assert_int_equal(assertion_measure_from(&plain, 30 * MIN_US, 7), 7);
    assertion bal = parsed("balance writes <= 1.2 over last 10m");
    assert_int_equal(assertion_measure_from(&bal, 30 * MIN_US, 7), 7); /* windows: no rerun */

    /* results measured from elsewhere are the caller's mistake */
    assert_int_equal(assertion_check(&a, &t.res, r, err, sizeof err), -1);
    assert_contains(err, "the run of even is measured from 0 us");
    assert_contains(err, "measured from 1200000000 us");
    t.runs[0].measure_from_us = t.runs[1].measure_from_us = 20 * MIN_US;
    assert_int_equal(assertion_check(&a, &t.res, r, err, sizeof err), 2);
    assert_true(r[0].passed);
    assert_false(r[1].passed);

    /* a run shorter than the duration: nothing to look at, fails */
    a = parsed("write_max_mean <= 1.2 over last 1h");
    t.runs[0].measure_from_us = t.runs[1].measure_from_us = 0;
    assert_int_equal(assertion_check(&a, &t.res, r, err, sizeof err), 2);
    assert_true(isnan(r[0].value));
    assert_false(r[0].passed);
    assert_string_equal(r[0].why, "the run is shorter than the duration asked for");
}

/* Two servers, four 1-minute windows:
 *   w0 {10, 0} max/mean 2; w1 {5, 5} 1; w2 {0, 0} none; w3 {6, 4} 1.2
 * regions at the windows' ends 4 6 6 6 (4 at the start); a move at 150 s
 * (window 2). */
typedef struct windowed {
    server_result servers[2];
    uint64_t writes[8], reads[8], regions[4];
    timeline_event events[2];
    run_result run;
    sim_results res;
} windowed;

static void windowed_init(windowed *w)
{
    static const uint64_t writes[8] = { 10, 0, 5, 5, 0, 0, 6, 4 };
    static const uint64_t regions[4] = { 4, 6, 6, 6 };
    memset(w, 0, sizeof *w);
    memcpy(w->writes, writes, sizeof writes);
    memcpy(w->regions, regions, sizeof regions);
    w->servers[0].writes = 21;
    w->servers[1].writes = 14;
    w->run.scheme_name = "s";
    w->run.nservers = 2;
    w->run.servers = w->servers;
    w->run.duration_us = 4 * MIN_US;
    w->run.window_us = MIN_US;
    w->run.nwindows = 4;
    w->run.window_writes = w->writes;
    w->run.window_reads = w->reads; /* all zero */
    w->run.window_regions = w->regions;
    w->run.regions_start = 4;
    w->run.regions = 6;
    w->events[0] = (timeline_event){ .t_us = 150000000, .kind = TIMELINE_MOVE };
    w->events[1] = (timeline_event){ .t_us = 60000000, .kind = TIMELINE_SPLIT };
    w->run.events = w->events;
    w->run.nevents = 2;
    w->res.nruns = 1;
    w->res.runs = &w->run;
}

/* The one result of text on w's run. */
static assertion_result check_one(const windowed *w, const char *text, assertion *a)
{
    assertion_result r;
    char err[512];
    *a = parsed(text);
    if (assertion_check(a, &w->res, &r, err, sizeof err) != 1)
        fail_msg("'%s': %s", text, err);
    return r;
}

static void test_check_balance(void **state)
{
    (void)state;
    windowed w;
    windowed_init(&w);
    assertion a;
    assertion_result r = check_one(&w, "balance writes <= 1.5 over last 2 windows", &a);
    assert_float_equal(r.value, 1.2, EPS); /* w2 has no write: skipped */
    assert_true(r.passed);
    r = check_one(&w, "balance writes <= 1.5 over last 3 windows", &a);
    assert_float_equal(r.value, 1.2, EPS);
    r = check_one(&w, "balance writes <= 1.5 over last 4 windows", &a);
    assert_float_equal(r.value, 2.0, EPS); /* the worst window */
    assert_false(r.passed);
    r = check_one(&w, "balance writes <= 1.5 over last 1 window", &a);
    assert_float_equal(r.value, 1.2, EPS);

    /* durations: the windows that start at or after the end minus it */
    r = check_one(&w, "balance writes <= 1.5 over last 2m", &a);
    assert_float_equal(r.value, 1.2, EPS);
    r = check_one(&w, "balance writes <= 1.5 over last 150s", &a); /* from 90 s: w2, w3 */
    assert_float_equal(r.value, 1.2, EPS);
    r = check_one(&w, "balance writes <= 1.5 over last 4m", &a);
    assert_float_equal(r.value, 2.0, EPS);
    r = check_one(&w, "balance writes <= 1.5 over last 30s", &a); /* no window starts in it */
    assert_true(isnan(r.value));
    assert_string_equal(r.why, "no window starts within the duration asked for");

    /* undefined: too few windows, a longer duration, no operation at all */
    r = check_one(&w, "balance writes <= 1.5 over last 5 windows", &a);
    assert_true(isnan(r.value));
    assert_false(r.passed);
    assert_string_equal(r.why, "the run has fewer windows than asked for");
    r = check_one(&w, "balance writes <= 1.5 over last 5m", &a);
    assert_string_equal(r.why, "the run is shorter than the duration asked for");
    r = check_one(&w, "balance reads <= 100 over last 4 windows", &a);
    assert_true(isnan(r.value));
    assert_false(r.passed);
    assert_string_equal(r.why, "no window among them had a read");
    w.writes[6] = w.writes[7] = 0;
    r = check_one(&w, "balance writes <= 1.5 over last 2 windows", &a);
    assert_string_equal(r.why, "no window among them had a write");
    w.run.window_reads = NULL;
    r = check_one(&w, "balance reads <= 1.5 over last 2 windows", &a);
    assert_false(r.passed);

    /* reads count as writes do */
    w.reads[2] = 3, w.reads[3] = 1;
    w.run.window_reads = w.reads;
    r = check_one(&w, "balance reads <= 1.5 over last 4 windows", &a);
    assert_float_equal(r.value, 1.5, EPS);
    assert_true(r.passed);
    r = check_one(&w, "balance reads < 1.5 over last 4 windows", &a);
    assert_false(r.passed);
}

static void test_check_steady(void **state)
{
    (void)state;
    windowed w;
    windowed_init(&w);
    assertion a;
    /* w3 alone: regions 6 -> 6, the move at 150 s is before it */
    assertion_result r = check_one(&w, "steady over last 1 window", &a);
    assert_float_equal(r.value, 0, EPS);
    assert_true(r.passed);
    assert_null(r.why);
    /* w2, w3: the move */
    r = check_one(&w, "steady over last 2 windows", &a);
    assert_float_equal(r.value, 1, EPS);
    assert_false(r.passed);
    assert_string_equal(r.why, "region count changes and moves");
    /* w1..w3: regions 4 -> 6 at w1 and the move */
    r = check_one(&w, "steady over last 3 windows", &a);
    assert_float_equal(r.value, 3, EPS);
    /* w0..w3: from regions_start (4) */
    r = check_one(&w, "steady over last 4 windows", &a);
    assert_float_equal(r.value, 3, EPS);
    w.run.regions_start = 2;
    r = check_one(&w, "steady over last 4 windows", &a);
    assert_float_equal(r.value, 5, EPS);
    r = check_one(&w, "steady over last 2m", &a);
    assert_float_equal(r.value, 1, EPS);
    r = check_one(&w, "steady over last 5 windows", &a);
    assert_true(isnan(r.value));
    assert_false(r.passed);
    /* a region reopened elsewhere is a move too */
    w.events[0].kind = TIMELINE_REASSIGN;
    r = check_one(&w, "steady over last 2 windows", &a);
    assert_float_equal(r.value, 1, EPS);
    w.events[0].kind = TIMELINE_BALANCER; /* a balancer run that moved nothing is not */
    r = check_one(&w, "steady over last 2 windows", &a);
    assert_float_equal(r.value, 0, EPS);
    assert_true(r.passed);
}

/* ---- describing ---- */

static void test_describe(void **state)
{
    (void)state;
    two_runs t;
    two_runs_init(&t);
    assertion a;
    assertion_result r[2];
    char err[512], line[512];
    assert_int_equal(check("write_max_mean <= 1.2", &t.res, &a, r, err, sizeof err), 2);
    assertion_describe(&r[0], line, sizeof line);
    assert_string_equal(line, "passed write_max_mean <= 1.2 for even: value 1, bound 1.2");
    assertion_describe(&r[1], line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for hot: value 4, bound 1.2");

    /* enough digits to show the verdict */
    assertion_result x = { .assertion = &a, .scheme = "s", .value = 16.0 / 3, .samples = 1 };
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for s: value 5.333, bound 1.2");
    x.value = 1.2004;
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for s: value 1.2004, bound 1.2");
    /* an infinity (a merged result may hold one): no digits to count */
    x.value = INFINITY;
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for s: value inf, bound 1.2");
    x.value = -INFINITY;
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for s: value -inf, bound 1.2");
    x.value = 1.2 + 1e-15;
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for s: value 1.200000000000001, "
                        "bound 1.2");
    x.value = 48213;
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for s: value 48213, bound 1.2");
    x.value = NAN;
    x.why = "the figure is undefined for this run";
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED write_max_mean <= 1.2 for s: value undefined (the figure "
                        "is undefined for this run), bound 1.2");

    assert_int_equal(assertion_parse_named("hotspot", "p99_latency_us < 5e4 over last 10m "
                                           "for hot", &a, err, sizeof err), 0);
    x = (assertion_result){ .assertion = &a, .scheme = "hot", .value = 61234, .samples = 1 };
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED hotspot: p99_latency_us < 5e4 over last 10m for hot: "
                        "value 61234, bound 5e4");

    a = parsed("steady over last 6 windows");
    x = (assertion_result){ .assertion = &a, .scheme = "salted", .value = 3,
                            .why = "region count changes and moves", .samples = 1 };
    assertion_describe(&x, line, sizeof line);
    assert_string_equal(line, "FAILED steady over last 6 windows for salted: value 3 (region "
                        "count changes and moves), bound 0");

    char small[16];
    assertion_describe(&x, small, sizeof small); /* cut, terminated */
    assert_int_equal(strlen(small), sizeof small - 1);
}

static void test_to_check(void **state)
{
    (void)state;
    assertion a;
    char err[512];
    assert_int_equal(assertion_parse_named("hotspot", "write_max_mean <= 1.2 for hot", &a, err,
                                           sizeof err), 0);
    assertion_result r = { .assertion = &a, .scheme = "hot", .value = 4, .samples = 1 };
    check_result c;
    assert_int_equal(assertion_to_check(&r, &c), 0);
    assert_string_equal(c.name, "hotspot");
    assert_string_equal(c.expression, "write_max_mean <= 1.2");
    assert_string_equal(c.scheme, "hot");
    assert_float_equal(c.value, 4, EPS);
    assert_float_equal(c.bound, 1.2, EPS);
    assert_int_equal(c.passed, 0);
    free(c.name);
    free(c.expression);
    free(c.scheme);
}

/* A check read back (assertion_from_check) describes itself as the
 * result it was made from did, why included; a why that is not one of
 * the phrases is not taken; an expression that does not parse is refused. */
static void test_from_check_describes_the_same(void **state)
{
    (void)state;
    static const struct { const char *name, *text; double value; int passed; } cases[] = {
        { "hotspot", "write_max_mean <= 1.2 for hot", 1.2004, 0 },
        { NULL, "steady over last 6 windows", 3, 0 },
        { NULL, "balance writes <= 1.5 over last 10m", NAN, 0 },
        { NULL, "p99_latency_us < 5e4", 48213.25, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assertion a, back;
        char err[512], want[1024], got[1024];
        assert_int_equal(assertion_parse_named(cases[i].name, cases[i].text, &a, err, sizeof err),
                         0);
        assertion_result r = { .assertion = &a, .scheme = "hot", .value = cases[i].value,
                               .passed = cases[i].passed, .samples = 1, .seed = 7 };
        if (isnan(r.value))
            r.why = assertion_why("no window among them had a write");
        else if (a.kind == ASSERTION_STEADY)
            r.why = assertion_why("region count changes and moves");
        check_result c;
        assert_int_equal(assertion_to_check(&r, &c), 0);
        assertion_result r2;
        assert_int_equal(assertion_from_check(&c, &back, &r2, err, sizeof err), 0);
        assertion_describe(&r, want, sizeof want);
        assertion_describe(&r2, got, sizeof got);
        assert_string_equal(got, want);
        assert_string_equal(back.bound_text, a.bound_text);
        assert_ptr_equal(r2.assertion, &back);
        free(c.name);
        free(c.expression);
        free(c.scheme);
    }
    assert_non_null(assertion_why("the run has no windows"));
    assert_null(assertion_why("it rained"));
    assert_null(assertion_why(NULL));
    check_result bad = { .name = "x", .expression = "write_max_men <= 1", .scheme = "s" };
    assertion a;
    assertion_result r;
    char err[512];
    assert_int_equal(assertion_from_check(&bad, &a, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "write_max_men"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_a_bound),
        cmocka_unit_test(test_parse_over_last_and_for),
        cmocka_unit_test(test_parse_every_operator_and_number),
        cmocka_unit_test(test_parse_balance_and_steady),
        cmocka_unit_test(test_parse_named),
        cmocka_unit_test(test_parse_refusals_name_the_token),
        cmocka_unit_test(test_durations_agree_with_units),
        cmocka_unit_test(test_check_a_bound),
        cmocka_unit_test(test_check_for_schemes),
        cmocka_unit_test(test_check_undefined_fails),
        cmocka_unit_test(test_check_over_last_duration),
        cmocka_unit_test(test_check_balance),
        cmocka_unit_test(test_check_steady),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_to_check),
        cmocka_unit_test(test_from_check_describes_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
