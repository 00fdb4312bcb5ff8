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
#include <unistd.h>

#include <cmocka.h>

#include "planners/advise_report.h"
#include "reports/figures.h"
#include "planners/advise.h"
#include "planners/advise_check.h"
#include "planners/advise_main.h"
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
    int natural = 0, osalt4 = 0, salt8 = 0, md5 = 0;
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
        /* the whole key's MD5 is a layout of its own, never prefixed */
        md5 += !strcmp(s.cand[i].expr, "md5(uid(metric, 3) tags ts)");
        const char *m = strstr(s.cand[i].expr, "md5(");
        assert_true(m == NULL || m == s.cand[i].expr);
    }
    assert_int_equal(md5, 1);
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
    unsigned named = 0;
    assert_int_equal(advise_parse_weights("reads=2,writes=0.5", &w, &named, err, sizeof err), 0);
    assert_true(w.w[ADVISE_READS] == 2 && w.w[ADVISE_WRITES] == 0.5 && w.w[ADVISE_LATENCY] == 1);
    /* several lists add up, each weight named once (the names so far in named) */
    assert_int_equal(advise_parse_weights("keys=3", &w, &named, err, sizeof err), 0);
    assert_true(w.w[ADVISE_KEYS] == 3 && w.w[ADVISE_READS] == 2);
    assert_int_equal(advise_parse_weights("latency=1,reads=5", &w, &named, err, sizeof err), -1);
    assert_non_null(strstr(err, "'reads' named twice (once here, once in an earlier --weights)"));
    assert_true(w.w[ADVISE_READS] == 2 && w.w[ADVISE_LATENCY] == 1);
    assert_int_equal(advise_parse_weights("reads=1,reads=2", &w, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "'reads' named twice (twice in this list)"));
    /* the user's text in a message, control bytes escaped */
    assert_int_equal(advise_parse_weights("r\x1b[2Jx=1", &w, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "found 'r\\x1B[2Jx'"));
    static const char *const bad[] = { "", "reads", "reads=", "reads=-1", "reads=x",
                                       "bogus=1", "reads=1,", "reads=1e400",
                                       "writes=0,reads=0,latency=0,keys=0", "keys=1,keys=1" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        advise_weights before = w;
        assert_int_equal(advise_parse_weights(bad[i], &w, NULL, err, sizeof err), -1);
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
        assert_int_equal(advise_parse_weights(weights, &w, NULL, err, sizeof err), 0);
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
    advise_write_json(m, &s, &oc, NULL, "tiny", &sc);
    advise_write_text(m, &s, &oc, NULL, "tiny", &sc);
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

/* ---- the [advise] section and -o, through advise_main ---- */

/* tiny() as a file, with extra (an [advise] section, say) after it. */
static const char *tiny_file(const char *extra)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/regionsim-advise-%ld.ini", (long)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "name = tiny\nseed = 7\n[cluster]\nservers = 4\n[workload]\nmetrics = 5\n"
               "hosts = 10\ninterval = 1s\nduration = 2m\nmeasure_from = 30s\n[reads]\n"
               "read_fraction = 0.01\nmetric_length = 1m\nrange_length = 1m\n%s", extra);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* advise_main on args (NULL-terminated, after "advise"): its status, what
 * it printed on stdout and on stderr (malloc'd). */
static int advise_run(const char *const *args, char **out, char **errtext)
{
    char *argv[32] = { "regionsim", "advise" };
    int argc = 2;
    for (; args[argc - 2]; argc++)
        argv[argc] = (char *)args[argc - 2];
    argv[argc] = NULL;
    size_t olen, elen;
    FILE *saved_out = stdout, *saved_err = stderr;
    stdout = open_memstream(out, &olen);
    stderr = open_memstream(errtext, &elen);
    assert_non_null(stdout);
    assert_non_null(stderr);
    int rc = advise_main(argc, argv);
    fclose(stdout);
    fclose(stderr);
    stdout = saved_out;
    stderr = saved_err;
    return rc;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, m);
    fclose(f);
    fclose(m);
    return text;
}

static void test_advise_section_used_and_overridden(void **state)
{
    (void)state;
    const char *path = tiny_file("[advise]\nbudget = 3\nweights = reads=2\nfix = osalt(4)\n");
    char *out, *err;
    const char *plain[] = { path, NULL };
    assert_int_equal(advise_run(plain, &out, &err), 0);
    assert_string_equal(err, "");
    assert_non_null(strstr(out, "tried 3 of "));
    assert_non_null(strstr(out, "weights writes 1, reads 2, latency 1, keys 0.25"));
    assert_non_null(strstr(out, "recommendation: osalt(4) "));
    free(out);
    free(err);
    /* each option replaces its key; --weights the file's weights whole */
    const char *over[] = { path, "--budget", "2", "--weights", "keys=1", "--fix", "salt(4)", NULL };
    assert_int_equal(advise_run(over, &out, &err), 0);
    assert_non_null(strstr(out, "tried 2 of "));
    assert_non_null(strstr(out, "weights writes 1, reads 1, latency 1, keys 1)"));
    assert_non_null(strstr(out, "recommendation: salt(4) "));
    assert_null(strstr(out, "osalt(4)"));
    free(out);
    free(err);
    unlink(path);
}

static void test_advise_section_bad_values_name_the_line(void **state)
{
    (void)state;
    static const struct { const char *section, *want; } bad[] = {
        { "[advise]\nbudget = 3\nweights = speed=1\n",
          ".ini:17: [advise] weights: expected a weight name (writes, reads, latency, keys), "
          "found 'speed'" },
        { "[advise]\nweights = reads=-1\n", ".ini:16: [advise] weights: reads: expected a number" },
        { "[advise]\nbudget = 2\n\nfix = zzz\n", ".ini:18: [advise] fix 'zzz': " },
        { "[advise]\nfix = osalt(\n", ".ini:16: [advise] fix 'osalt(': " },
        { "[advise]\nbudget = 0\n", ".ini:16: [advise] budget: expected a number of candidates "
          "1..4096, found '0'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *path = tiny_file(bad[i].section);
        const char *args[] = { path, "--budget", "2", NULL };
        char *out, *err;
        assert_int_equal(advise_run(args, &out, &err), 2);
        assert_string_equal(out, "");
        if (!strstr(err, bad[i].want))
            fail_msg("case %zu: missing '%s' in: %s", i, bad[i].want, err);
        free(out);
        free(err);
        unlink(path);
    }
    /* an option's mistake is still named as the option's */
    const char *path = tiny_file("[advise]\nfix = osalt(4)\n");
    const char *args[] = { path, "--fix", "zzz", NULL };
    char *out, *err;
    assert_int_equal(advise_run(args, &out, &err), 2);
    assert_non_null(strstr(err, "regionsim advise: --fix 'zzz': "));
    free(out);
    free(err);
    unlink(path);
}

static void test_output_writes_the_same_bytes(void **state)
{
    (void)state;
    const char *path = tiny_file("[advise]\nbudget = 2\n");
    char report[64], *out, *err, *out2, *err2;
    snprintf(report, sizeof report, "/tmp/regionsim-advise-%ld.out", (long)getpid());
    unlink(report);
    for (int json = 0; json <= 1; json++) {
        const char *to_stdout[] = { path, "--format", json ? "json" : "text", NULL };
        const char *to_file[] = { path, "--format", json ? "json" : "text", "-o", report, NULL };
        assert_int_equal(advise_run(to_stdout, &out, &err), 0);
        assert_int_equal(advise_run(to_file, &out2, &err2), 0);
        assert_string_equal(out2, "");
        assert_string_equal(err2, "");
        char *written = read_all(report);
        assert_non_null(written);
        assert_true(strlen(out) > 100);
        assert_string_equal(written, out);
        free(written);
        free(out);
        free(err);
        free(out2);
        free(err2);
    }
    /* a directory is refused, exit 2, and what was there stays */
    const char *to_dir[] = { path, "-o", "/tmp", NULL };
    assert_int_equal(advise_run(to_dir, &out, &err), 2);
    assert_string_equal(out, "");
    assert_non_null(strstr(err, "regionsim advise: -o /tmp"));
    free(out);
    free(err);
    const char *empty[] = { path, "-o", "", NULL };
    assert_int_equal(advise_run(empty, &out, &err), 2);
    assert_non_null(strstr(err, "-o: expected a file name"));
    free(out);
    free(err);
    /* nothing written when the input is bad */
    const char *bad[] = { path, "--budget", "0", "-o", report, NULL };
    unlink(report);
    assert_int_equal(advise_run(bad, &out, &err), 2);
    assert_null(read_all(report));
    free(out);
    free(err);
    unlink(path);
}

/* ---- the check of the pick (planners/advise_check.h) ---- */

static void test_check_factors(void **state)
{
    (void)state;
    scenario sc;
    tiny(&sc); /* a 2-minute run */
    advise_check_options o;
    char err[512];
    advise_check_defaults(&sc, &o);
    assert_int_equal(o.ndurations, 2);
    assert_int_equal(o.nloads, 2);
    assert_true(o.durations[0] == 2 && o.durations[1] == 4 && o.loads[1] == 4);
    assert_int_equal(o.seeds, 3);
    assert_int_equal(advise_check_parse_factors("4, 2x ,2,3x", &sc, 0, &o, err, sizeof err), 0);
    assert_int_equal(o.nloads, 3); /* sorted, the repeat dropped */
    assert_true(o.loads[0] == 2 && o.loads[1] == 3 && o.loads[2] == 4);
    /* a duration is its multiple of the scenario's: 1h over 2m is 30x */
    assert_int_equal(advise_check_parse_factors("4m,1h", &sc, 1, &o, err, sizeof err), 0);
    assert_int_equal(o.ndurations, 2);
    assert_true(o.durations[0] == 2 && o.durations[1] == 30);
    static const struct { const char *text; int durations; const char *want; } bad[] = {
        { "1x", 1, "found '1x'" },         /* not longer */
        { "0.5", 0, "found '0.5'" },
        { "2h", 0, "found '2h'" },          /* a load is a multiplier */
        { "1m", 1, "found '1m'" },          /* shorter than the run */
        { "65x", 0, "found '65x'" },
        { "3h", 1, "found '3h'" },          /* 90x */
        { "2x,", 0, "found ''" },
        { "", 1, "found ''" },
        { "x", 0, "found 'x'" },
        { "2y", 0, "found '2y'" },
        { "2,3,4,5,6,7,8,9,10", 0, "at most 8" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        advise_check_defaults(&sc, &o);
        assert_int_equal(advise_check_parse_factors(bad[i].text, &sc, bad[i].durations, &o, err,
                                                    sizeof err), -1);
        if (!strstr(err, bad[i].want))
            fail_msg("'%s': missing \"%s\" in: %s", bad[i].text, bad[i].want, err);
        assert_true(o.durations[1] == 4 && o.loads[1] == 4); /* left as they were */
    }
    scenario_release(&sc);
}

/* A search on tiny() (budget 10), then the check with durations 2x and
 * loads 2x at 3 seeds; with worst, the pick is replaced first by the
 * front member with the worst score (a pick the check must see change). */
static char *checked(int jobs, int worst, advise_check *chk_out, int *holds_everywhere)
{
    scenario sc;
    tiny(&sc);
    sc.jobs = (uint32_t)jobs;
    advise_space s;
    advise_outcome oc;
    advise_weights w;
    advise_check_options o;
    char err[512];
    advise_default_weights(&w);
    assert_int_equal(advise_space_build(&sc, NULL, &s, err, sizeof err), 0);
    assert_int_equal(advise_search(&sc, &s, &w, 10, NULL, &oc, err, sizeof err), 0);
    if (worst)
        for (size_t i = 0; i < s.ncand; i++)
            if (s.cand[i].front && s.cand[i].score > s.cand[oc.pick].score)
                oc.pick = i;
    advise_check_defaults(&sc, &o);
    assert_int_equal(advise_check_parse_factors("2x", &sc, 1, &o, err, sizeof err), 0);
    assert_int_equal(advise_check_parse_factors("2x", &sc, 0, &o, err, sizeof err), 0);
    advise_check chk;
    if (advise_check_run(&sc, sc.store, &s, &oc, &o, NULL, NULL, &chk, err, sizeof err) < 0)
        fail_msg("%s", err);
    /* the shortlist: the pick first, no candidate twice, all simulated */
    assert_true(chk.ncand >= 2 && chk.ncand <= ADVISE_CHECK_MAX_CAND);
    assert_int_equal(chk.cand[0], oc.pick);
    assert_string_equal(chk.role[0], "pick");
    for (size_t a = 0; a < chk.ncand; a++) {
        assert_true(s.cand[chk.cand[a]].stage > 0);
        for (size_t b = a + 1; b < chk.ncand; b++)
            assert_true(chk.cand[a] != chk.cand[b]);
    }
    assert_int_equal(chk.nseeds, 3);
    assert_int_equal(chk.nregimes, 3);
    assert_int_equal(chk.runs, 3 * 3 * chk.ncand);
    *holds_everywhere = 1;
    for (size_t r = 0; r < chk.nregimes; r++) {
        const advise_regime *g = &chk.regime[r];
        assert_true(g->run);
        assert_true(g->pick < chk.ncand && g->front[g->pick]);
        assert_true(g->seeds_holding <= 3);
        *holds_everywhere &= advise_check_holds(g);
    }
    /* the regimes are what they say: twice as long, twice the load */
    assert_int_equal(chk.regime[1].kind, ADVISE_REGIME_DURATION);
    assert_int_equal(chk.regime[1].duration_us, 2 * chk.regime[0].duration_us);
    assert_int_equal(chk.regime[1].measure_from_us, 2 * chk.regime[0].measure_from_us);
    assert_int_equal(chk.regime[2].kind, ADVISE_REGIME_LOAD);
    assert_true(fabs(chk.regime[2].offered[0].median / chk.regime[0].offered[0].median - 2) < 0.01);
    /* the search's seed is one of the check's: its figures lie in the
     * spread as written; and the pick run by hand twice as long (seed 7)
     * lies in the 2x duration regime's */
    scenario twice = sc;
    twice.workload.duration_us *= 2;
    twice.measure_from_us *= 2;
    twice.nschemes = 1;
    twice.schemes[0] = (scheme_choice){ s.cand[oc.pick].expr, s.cand[oc.pick].expr, NULL };
    sim_results res;
    assert_int_equal(engine_run_all(&twice, NULL, &res, err, sizeof err), 0);
    for (size_t o = 0; o < oc.nobj; o++) {
        for (size_t k = 0; k < chk.ncand; k++) {
            double v = s.cand[chk.cand[k]].value[o];
            const advise_spread *w = &chk.regime[0].fig[k][o];
            assert_true(isnan(v) ? isnan(w->median) : v >= w->min && v <= w->max);
        }
        double v = figure_named(oc.obj[o].figure, &res.runs[0], 0);
        const advise_spread *d = &chk.regime[1].fig[0][o];
        assert_true(isnan(v) ? isnan(d->median) : v >= d->min && v <= d->max);
    }
    sim_results_free(&res);
    char *text;
    size_t len;
    FILE *m = open_memstream(&text, &len);
    advise_write_json(m, &s, &oc, &chk, "tiny", &sc);
    advise_write_text(m, &s, &oc, &chk, "tiny", &sc);
    fclose(m);
    if (chk_out)
        *chk_out = chk;
    else
        advise_check_free(&chk);
    advise_space_free(&s);
    scenario_release(&sc);
    return text;
}

/* The check runs, is the same bytes whatever the threads, and says where
 * the pick holds. */
static void test_check_runs_and_is_deterministic(void **state)
{
    (void)state;
    int holds1, holds2;
    char *a = checked(1, 0, NULL, &holds1), *b = checked(2, 0, NULL, &holds2);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"check\": {\"seeds\": [7, 8, 9]"));
    assert_non_null(strstr(a, "check: does the pick hold? "));
    assert_non_null(strstr(a, "  2x duration "));
    assert_non_null(strstr(a, "  2x load "));
    if (holds1) {
        assert_non_null(strstr(a, "the pick holds in every regime run (3)"));
        assert_non_null(strstr(a, "],\n    \"holds\": true}"));
    }
    free(a);
    free(b);
}

/* A pick that is not the best (the front's worst score) is reported as
 * changing, with what it changes to and the figures that flipped it, in the
 * text and the JSON. */
static void test_check_reports_a_pick_that_changes(void **state)
{
    (void)state;
    advise_check chk;
    int holds;
    char *text = checked(1, 1, &chk, &holds);
    assert_false(holds);
    const advise_regime *w = &chk.regime[0];
    assert_false(advise_check_holds(w));
    assert_true(w->pick != 0);
    assert_true(w->seeds_holding < 3);
    assert_non_null(strstr(text, "\"holds\": false"));
    assert_non_null(strstr(text, "it changes"));
    assert_non_null(strstr(text, "changes to "));
    assert_non_null(strstr(text, "as written, over the seeds: the pick is "));
    if (w->flipped[0] >= 0)
        assert_non_null(strstr(text, "what flipped it: "));
    assert_non_null(strstr(text, "regions per server at the end "));
    assert_null(strstr(text, "nan"));
    advise_check_free(&chk);
    free(text);
}

/* --no-check, the check's options and [advise] keys, through advise_main. */
static void test_check_options(void **state)
{
    (void)state;
    char *out, *err;
    const char *path = tiny_file("[advise]\nbudget = 3\ncheck_loads = 3x\n");
    const char *skip[] = { path, "--no-check", NULL };
    assert_int_equal(advise_run(skip, &out, &err), 0);
    assert_non_null(strstr(out, "check: skipped (--no-check)"));
    assert_null(strstr(out, "does the pick hold"));
    free(out);
    free(err);
    const char *skip_json[] = { path, "--no-check", "--format", "json", NULL };
    assert_int_equal(advise_run(skip_json, &out, &err), 0);
    assert_non_null(strstr(out, "\"check\": null\n}"));
    free(out);
    free(err);
    /* the file's check_loads, replaced by the option */
    const char *file_lists[] = { path, "--check-durations", "4m", NULL };
    assert_int_equal(advise_run(file_lists, &out, &err), 0);
    assert_non_null(strstr(out, "  3x load "));
    assert_non_null(strstr(out, "  2x duration "));
    assert_null(strstr(out, "  4x duration "));
    free(out);
    free(err);
    const char *over[] = { path, "--check-loads", "5x", NULL };
    assert_int_equal(advise_run(over, &out, &err), 0);
    assert_non_null(strstr(out, "  5x load "));
    assert_null(strstr(out, "  3x load "));
    free(out);
    free(err);
    unlink(path);
    static const struct { const char *args[4]; const char *want; } bad[] = {
        { { "--check-loads", "1x" }, "--check-loads: expected a multiplier above 1" },
        { { "--check-durations", "1m" }, "--check-durations: expected a multiplier above 1 and "
          "at most 64 (2x) or a duration longer than the scenario's (2m), found '1m'" },
        { { "--no-check", "--check-loads", "2x" }, "--no-check: not with" },
        { { "--no-check=1" }, "--no-check: takes no value" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        path = tiny_file("");
        const char *args[6] = { path, bad[i].args[0], bad[i].args[1], bad[i].args[2], NULL };
        assert_int_equal(advise_run(args, &out, &err), 2);
        assert_string_equal(out, "");
        if (!strstr(err, bad[i].want))
            fail_msg("case %zu: missing '%s' in: %s", i, bad[i].want, err);
        free(out);
        free(err);
        unlink(path);
    }
    path = tiny_file("[advise]\ncheck_loads = 2x, 0.5\n");
    const char *file_bad[] = { path, NULL };
    assert_int_equal(advise_run(file_bad, &out, &err), 2);
    assert_string_equal(out, "");
    assert_non_null(strstr(err, ".ini:16: [advise] check_loads: expected a multiplier above 1 "
                                "and at most 64 (2x), found '0.5'"));
    free(out);
    free(err);
    unlink(path);
}

static void test_help_says_exit_status(void **state)
{
    (void)state;
    const char *args[] = { "--help", NULL };
    char *out, *err;
    assert_int_equal(advise_run(args, &out, &err), 0);
    assert_non_null(strstr(out, "Exit status: 0 "));
    assert_non_null(strstr(out, "  -o PATH "));
    assert_non_null(strstr(out, "[advise]"));
    free(out);
    free(err);
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
        cmocka_unit_test(test_advise_section_used_and_overridden),
        cmocka_unit_test(test_advise_section_bad_values_name_the_line),
        cmocka_unit_test(test_output_writes_the_same_bytes),
        cmocka_unit_test(test_help_says_exit_status),
        cmocka_unit_test(test_check_factors),
        cmocka_unit_test(test_check_runs_and_is_deterministic),
        cmocka_unit_test(test_check_reports_a_pick_that_changes),
        cmocka_unit_test(test_check_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
