/* test_advise.c -- `regionsim advise`: the candidate space, the Pareto
 * front, the weighted pick, option checks, and a tiny end-to-end search
 * that must be deterministic and the same whatever --jobs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reports/advise_report.h"
#include "sim/advise.h"
#include "sim/advise_main.h"
#include "workloads/keyscheme.h"

/* A small time-series scenario: 4 servers, 50 series, reads of every kind
 * time series read by default (metric, range, latest). */
static void tiny(scenario *sc)
{
    char err[512];
    scenario_defaults(sc);
    static const char *const kv[][2] = {
        { "servers", "4" }, { "metrics", "5" }, { "hosts", "10" }, { "interval", "1s" },
        { "duration", "2m" }, { "measure_from", "30s" }, { "read_fraction", "0.01" },
        { "metric_length", "1m" }, { "range_length", "1m" }, { "seed", "7" },
    };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        assert_int_equal(scenario_set(sc, NULL, kv[i][0], kv[i][1], err, sizeof err), 0);
    if (scenario_validate(sc, err, sizeof err) < 0)
        fail_msg("%s", err);
}

static void test_space_valid_unique(void **state)
{
    (void)state;
    scenario sc;
    tiny(&sc);
    advise_space s;
    char err[512];
    assert_int_equal(advise_space_build(&sc, NULL, &s, err, sizeof err), 0);
    assert_true(s.ncand > 50);
    int natural = 0, osalt4 = 0, salt8 = 0;
    for (size_t i = 0; i < s.ncand; i++) {
        keyscheme *ks;
        assert_int_equal(keyscheme_parse(s.cand[i].expr, &ks, err, sizeof err), 0);
        /* the stored form is the normalised one */
        assert_string_equal(keyscheme_expr(ks), s.cand[i].expr);
        keyscheme_free(ks);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s.cand[i].expr, s.cand[j].expr);
        natural += !strcmp(s.cand[i].expr, "uid(metric, 3) hour(ts) tags");
        osalt4 += !strcmp(s.cand[i].expr, "osalt(4) uid(metric, 3) hour(ts) tags");
        salt8 += !strcmp(s.cand[i].expr, "salt(8) entity ts");
    }
    assert_int_equal(natural, 1);
    assert_int_equal(osalt4, 1);
    assert_int_equal(salt8, 1);
    assert_string_equal(s.bodies[s.natural], "uid(metric, 3) hour(ts) tags");
    /* bucket counts from 4 servers: 2, 4, 8, 16 */
    assert_int_equal(s.nbuckets, 4);
    assert_int_equal(s.buckets[0], 2);
    assert_int_equal(s.buckets[3], 16);
    advise_space_free(&s);
    scenario_release(&sc);
}

static void test_space_fix(void **state)
{
    (void)state;
    scenario sc;
    tiny(&sc);
    advise_space s;
    char err[512];
    /* spaces and a count not in the derived set: normalised, count added */
    assert_int_equal(advise_space_build(&sc, "osalt( 12 )", &s, err, sizeof err), 0);
    assert_true(s.ncand > 0);
    for (size_t i = 0; i < s.ncand; i++)
        assert_memory_equal(s.cand[i].expr, "osalt(12) ", 10);
    advise_space_free(&s);
    /* a generated prefix: the generated candidates and the fix before every
     * layout are the same keys, each kept once */
    assert_int_equal(advise_space_build(&sc, "salt(4)", &s, err, sizeof err), 0);
    assert_int_equal(s.ncand, s.nbodies);
    for (size_t i = 0; i < s.ncand; i++) {
        assert_memory_equal(s.cand[i].expr, "salt(4) ", 8);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s.cand[i].expr, s.cand[j].expr);
    }
    advise_space_free(&s);
    /* a fixed first field that is no generated prefix leads every body */
    assert_int_equal(advise_space_build(&sc, "uid(metric,3)", &s, err, sizeof err), 0);
    for (size_t i = 0; i < s.ncand; i++)
        assert_memory_equal(s.cand[i].expr, "uid(metric, 3)", 14);
    advise_space_free(&s);
    /* every candidate leads with the fix: the whole budget goes to stage 1 */
    assert_int_equal(advise_space_build(&sc, "osalt(4)", &s, err, sizeof err), 0);
    advise_weights w;
    advise_default_weights(&w);
    advise_outcome oc;
    assert_true(s.ncand > 6);
    assert_int_equal(advise_search(&sc, &s, &w, 6, NULL, &oc, err, sizeof err), 0);
    assert_int_equal(oc.tried, 6);
    assert_int_equal(oc.stage_tried[1], 6);
    advise_space_free(&s);
    assert_int_equal(advise_space_build(&sc, "osalt(", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "--fix 'osalt('"));
    scenario_release(&sc);
}

static void test_weights(void **state)
{
    (void)state;
    advise_weights w;
    char err[256];
    advise_default_weights(&w);
    assert_int_equal(advise_parse_weights("reads=2,writes=0.5", &w, err, sizeof err), 0);
    assert_true(w.w[ADVISE_READS] == 2 && w.w[ADVISE_WRITES] == 0.5 && w.w[ADVISE_LATENCY] == 1);
    static const char *const bad[] = { "", "reads", "reads=", "reads=-1", "reads=x",
                                       "bogus=1", "reads=1,", "reads=1e400",
                                       "writes=0,reads=0,latency=0,keys=0" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        advise_weights before = w;
        assert_int_equal(advise_parse_weights(bad[i], &w, err, sizeof err), -1);
        assert_memory_equal(&before, &w, sizeof w); /* untouched */
    }
}

static advise_candidate cand(double a, double b)
{
    advise_candidate c;
    memset(&c, 0, sizeof c);
    c.stage = 1;
    c.value[0] = a;
    c.value[1] = b;
    return c;
}

static void test_pareto_and_pick(void **state)
{
    (void)state;
    advise_candidate c[6] = { cand(1, 10), cand(2, 2), cand(3, 3), cand(2, 2), cand(10, 1),
                              cand(NAN, 1) };
    size_t n = advise_pareto(c, 6, 2);
    assert_int_equal(c[0].front, 1);
    assert_int_equal(c[1].front, 1); /* tied with c[3]: both on the front */
    assert_int_equal(c[2].front, 0); /* dominated by (2, 2) */
    assert_int_equal(c[3].front, 1);
    assert_int_equal(c[4].front, 1);
    assert_int_equal(c[5].front, 0); /* NaN is worse than 10 */
    assert_int_equal(n, 4);
    advise_objective obj[2] = { { "a", "a", ADVISE_WRITES, -1, 1 }, { "b", "b", ADVISE_READS, -1, 1 } };
    /* equal weights: (2, 2) is 1 + 1 doublings off, (1, 10) 0 + 3.3 */
    size_t p = advise_pick(c, 6, obj, 2);
    assert_int_equal(p, 1); /* the earlier of the tie */
    assert_true(fabs(c[1].score - 1.0) < 1e-12);
    assert_true(isnan(c[2].score));
    /* weigh b heavily: (10, 1) wins */
    obj[1].weight = 10;
    assert_int_equal(advise_pick(c, 6, obj, 2), 4);
    /* an unsimulated candidate never counts */
    c[2].stage = 0;
    c[2].value[0] = 0;
    c[2].value[1] = 0;
    advise_pareto(c, 6, 2);
    assert_int_equal(c[2].front, 0);
    assert_int_equal(c[1].front, 1);
}

static void test_bad_options_exit_2(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        { "--weights", "reads=two", NULL }, { "--weights", "speed=1", NULL },
        { "--fix", "salt(0)", NULL }, { "--fix", "zzz", NULL }, { "--budget", "0", NULL },
        { "--budget", "4097", NULL }, { "--budget", "ten", NULL }, { "--format", "html", NULL },
        { "--scheme", "ts", NULL },
    };
    FILE *saved = stderr;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *argv[] = { "regionsim", "advise", (char *)bad[i][0], (char *)bad[i][1], NULL };
        stderr = fopen("/dev/null", "w");
        int rc = advise_main(4, argv);
        fclose(stderr);
        stderr = saved;
        assert_int_equal(rc, 2);
    }
}

static char *search_json(int jobs, size_t budget, const char *weights)
{
    scenario sc;
    tiny(&sc);
    sc.jobs = (uint32_t)jobs;
    advise_space s;
    advise_outcome oc;
    advise_weights w;
    char err[512];
    advise_default_weights(&w);
    if (weights)
        assert_int_equal(advise_parse_weights(weights, &w, err, sizeof err), 0);
    assert_int_equal(advise_space_build(&sc, NULL, &s, err, sizeof err), 0);
    assert_int_equal(advise_search(&sc, &s, &w, budget, NULL, &oc, err, sizeof err), 0);
    assert_int_equal(oc.tried, budget);
    size_t simulated = 0, front = 0;
    for (size_t i = 0; i < s.ncand; i++) {
        simulated += s.cand[i].stage != 0;
        front += s.cand[i].front;
    }
    assert_int_equal(simulated, budget);
    assert_int_equal(front, oc.front);
    assert_true(oc.pick < s.ncand && s.cand[oc.pick].front);
    if (weights && !strcmp(weights, "writes=0,reads=0,latency=0,keys=1"))
        for (size_t i = 0; i < s.ncand; i++) /* the shortest key wins */
            if (s.cand[i].stage)
                assert_true(s.cand[oc.pick].value[oc.nobj - 1] <= s.cand[i].value[oc.nobj - 1]);
    /* every front member's score is at least the pick's */
    for (size_t i = 0; i < s.ncand; i++)
        if (s.cand[i].front)
            assert_true(s.cand[i].score >= s.cand[oc.pick].score);
    char *text;
    size_t len;
    FILE *m = open_memstream(&text, &len);
    advise_write_json(m, &s, &oc, "tiny", &sc);
    advise_write_text(m, &s, &oc, "tiny", &sc);
    fclose(m);
    advise_space_free(&s);
    scenario_release(&sc);
    return text;
}

static void test_end_to_end(void **state)
{
    (void)state;
    char *a = search_json(1, 10, NULL), *b = search_json(2, 10, NULL);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "recommendation: "));
    assert_non_null(strstr(a, "\"rpcs_per_read_metric\""));
    /* writes weigh nothing, key bytes everything: the shortest key wins */
    char *c = search_json(2, 10, "writes=0,reads=0,latency=0,keys=1");
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space_valid_unique),
        cmocka_unit_test(test_space_fix),
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_pareto_and_pick),
        cmocka_unit_test(test_bad_options_exit_2),
        cmocka_unit_test(test_end_to_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
