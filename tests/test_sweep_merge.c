/* test_sweep_merge.c -- a plan's results read back (planners/sweep_plan.h:
 * sweep_merge_read, merge_main), in-process:
 *  - round trip: a plan of tests/data/sweep-small.ini (cut to 2 minutes)
 *    whose jobs.txt lines are parsed as sh would and run by sweep_main,
 *    merged, equals the whole sweep's table as exact JSON byte for byte
 *    (every double to 17 digits), and merge's text report equals sweep's;
 *  - exactness: results written by the result writer from tables holding
 *    NaN, infinities, -0, subnormals, the extremes and 17-digit integers
 *    read back bit for bit, assertion seeds up to 2^64-1 included;
 *  - refusals: missing results (every one named, counted), malformed,
 *    truncated or trailed JSON, another point's result, a plan.json
 *    edited by hand (version, points, indexes, result paths), with the
 *    file, the point and what was wrong; files the plan does not name are
 *    not read.
 * The temporary directories go under $TMPDIR (or /tmp) and are removed.
 *
 *   test_sweep_merge SOURCE_ROOT
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support.h"

#include "reports/json_read.h"
#include "reports/sweep_report.h"
#include "scenario/sweep.h"
#include "planners/sweep_plan.h"
#include "planners/sweep_run.h"

static char work[PATH_MAX]; /* this run's temporary directory */
static char small[PATH_MAX]; /* tests/data/sweep-small.ini */

/* ---- helpers ---- */

static const char *in_work(char *out, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", work, name);
    assert_true(n > 0 && n < PATH_MAX);
    return out;
}

static void spit(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}



/* dir/rel into out (PATH_MAX + 64). */
static const char *under(char *out, const char *dir, const char *rel)
{
    int n = snprintf(out, PATH_MAX + 64, "%s/%s", dir, rel);
    assert_true(n > 0 && n < PATH_MAX + 64);
    return out;
}

/* Replaces the first `from` in file path by `to` (the file must hold it). */
static void edit(const char *path, const char *from, const char *to)
{
    size_t len;
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    char *at = strstr(text, from);
    if (!at)
        fail_msg("%s does not hold '%s'", path, from);
    size_t flen = strlen(from), tlen = strlen(to);
    char *out = malloc(len - flen + tlen + 1);
    assert_non_null(out);
    size_t head = (size_t)(at - text);
    memcpy(out, text, head);
    memcpy(out + head, to, tlen);
    memcpy(out + head + tlen, at + flen, len - head - flen);
    spit(path, out, len - flen + tlen);
    free(out);
    free(text);
}

/* Runs fn(argc, argv) with stdout and stderr into files, which it returns
 * (malloc'd; *out may be NULL to drop it). */
static int capture(int (*fn)(int, char **), int argc, char **argv, char **out, char **err)
{
    char opath[PATH_MAX], epath[PATH_MAX];
    in_work(opath, "captured.out");
    in_work(epath, "captured.err");
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    int ofd = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int efd = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved_out >= 0 && saved_err >= 0 && ofd >= 0 && efd >= 0);
    dup2(ofd, 1);
    dup2(efd, 2);
    int status = fn(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(ofd);
    close(efd);
    close(saved_out);
    close(saved_err);
    char *o = test_read_file(opath, NULL), *e = test_read_file(epath, NULL);
    if (out)
        *out = o;
    else
        free(o);
    if (err)
        *err = e;
    else
        free(e);
    remove(opath);
    remove(epath);
    return status;
}

/* ---- results written by hand: the result writer on tables we fill ---- */

/* Values an exact writer must carry, bit for bit. */
static double special(size_t i)
{
    const double values[] = {
        0.0, -0.0, NAN, INFINITY, -INFINITY, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MAX,
        -DBL_MAX, 0.1, 1.0 / 3.0, 2.5, 123.0, -7.0, 12345678901234568.0, 1e17,
        9007199254740993.0, 1e-300, 0x1.0000000000001p0, 18446744073709551616.0, 1e21, 5e-324 * 3,
    };
    return values[i % (sizeof values / sizeof *values)];
}

static const char fixture_text[] =
    "name = merge-test\n"
    "[sweep]\n"
    "b = 1, 2, 4\n"
    "servers = 4, 8\n"
    "[scheme tsdb]\n"
    "key = salt($b) ts\n"
    "[scheme plain]\n"
    "key = ts\n";

static const char *const fixture_b[] = { "1", "1", "2", "2", "4", "4" };
static const char *const fixture_servers[] = { "4", "8", "4", "8", "4", "8" };
static const char *const scheme_labels[] = { "tsdb", "plain" };

/* Point p's table as its job fills it (nschemes schemes). */
typedef struct point_table {
    sweep_table t;
    const char *names[2];
    size_t nvalues[2];
    const char *values[2];
    char *run_names[2];
    char run_text[2][32];
    double *figures;
    check_result check;
    size_t check_point;
} point_table;

static void fill_point(point_table *pt, size_t p, size_t nschemes)
{
    memset(pt, 0, sizeof *pt);
    sweep_table *t = &pt->t;
    t->scenario = "point's own name";
    t->file = "points/x.ini";
    t->nvars = 2;
    pt->names[0] = "b";
    pt->names[1] = "servers";
    pt->nvalues[0] = pt->nvalues[1] = 1;
    pt->values[0] = fixture_b[p];
    pt->values[1] = fixture_servers[p];
    t->var_names = pt->names;
    t->var_nvalues = pt->nvalues;
    t->values = pt->values;
    t->npoints = 1;
    t->nschemes = nschemes;
    t->schemes = scheme_labels;
    for (size_t s = 0; s < nschemes; s++) {
        snprintf(pt->run_text[s], sizeof pt->run_text[s], "%s@%zu", scheme_labels[s], p);
        pt->run_names[s] = pt->run_text[s];
    }
    t->run_names = pt->run_names;
    t->measure_from_us = 60000000;
    t->measure_auto = 1; /* read back as written (a real point has from 0 with auto) */
    t->nfigures = sweep_figure_count();
    pt->figures = calloc(nschemes * t->nfigures, sizeof *pt->figures);
    assert_non_null(pt->figures);
    for (size_t s = 0; s < nschemes; s++)
        for (size_t k = 0; k < t->nfigures; k++)
            pt->figures[s * t->nfigures + k] = special(p * 7 + s * 3 + k);
    t->figures = pt->figures;
    if (p != 3) { /* point 3 has no assertion */
        pt->check.name = (char *)"bounded";
        pt->check.expression = (char *)"write_max_mean <= 2.5 for tsdb";
        pt->check.scheme = (char *)"tsdb";
        pt->check.value = special(p + 1);
        pt->check.bound = special(p + 2);
        pt->check.passed = (int)(p % 2);
        pt->check.seed = UINT64_MAX - p;
        pt->check.samples = 1;
        pt->check.samples_failed = p % 2 ? 0 : 1;
        t->checks = &pt->check;
        t->nchecks = 1;
        t->check_point = &pt->check_point;
    }
}

/* The digest of point p of the plan in dir, as its job computes it: its
 * file's bytes, no options (sweep_point_digest). */
static void point_digest(const char *dir, size_t p, char digest[SWEEP_DIGEST_HEX])
{
    char path[PATH_MAX + 64], rel[32];
    snprintf(rel, sizeof rel, "points/%04zu.ini", p);
    size_t len;
    char *text = test_read_file(under(path, dir, rel), &len);
    assert_non_null(text);
    unsigned char sha[32];
    sweep_text_sha256(text, len, sha);
    sweep_point_digest(sha, NULL, 0, digest);
    free(text);
}

/* Writes point p's result into dir as its job would (the exact JSON, with
 * the digest of the point's file). */
static void write_result(const char *dir, size_t p, size_t nschemes)
{
    point_table pt;
    fill_point(&pt, p, nschemes);
    char digest[SWEEP_DIGEST_HEX];
    point_digest(dir, p, digest);
    pt.t.point_digest = digest;
    char path[PATH_MAX + 64], rel[32];
    snprintf(rel, sizeof rel, "results/%04zu.json", p);
    assert_int_equal(sweep_write_report(&pt.t, 4, under(path, dir, rel), "test"), 0);
    free(pt.figures);
}

/* A plan of fixture_text in work/name with every result written; its
 * directory into dir (PATH_MAX). */
static void fixture(char *dir, const char *name)
{
    in_work(dir, name);
    test_remove_tree(dir);
    sweep sw;
    char err[1024];
    if (sweep_load_text(&sw, "/nowhere/merge.ini", fixture_text, strlen(fixture_text), err,
                        sizeof err) < 0)
        fail_msg("%s", err);
    sweep_plan_options po = { dir, "merge-test", "/bin/true", 0, NULL, 0 };
    assert_int_equal(sweep_plan_write(&sw, &po, err, sizeof err), 0);
    sweep_release(&sw);
    for (size_t p = 0; p < 6; p++)
        write_result(dir, p, 2);
}

/* Merging dir must fail with exactly message want (or, with want NULL,
 * hold part). */
static void assert_merge_refused(const char *dir, const char *want, const char *part)
{
    sweep_merge *m = (sweep_merge *)&m;
    char err[1 << 16];
    err[0] = '\0';
    if (sweep_merge_read(dir, JSON_READ_MAX_DEFAULT, &m, err, sizeof err) == 0) {
        sweep_merge_free(m);
        fail_msg("merged %s", dir);
    }
    assert_null(m);
    if (want)
        assert_string_equal(err, want);
    if (part)
        assert_contains(err, part);
}

static int same_bits(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a);
}

/* ---- exactness ---- */

static void test_every_double_reads_back_bit_for_bit(void **state)
{
    (void)state;
    char dir[PATH_MAX], err[1 << 16];
    fixture(dir, "exact");
    sweep_merge *m;
    if (sweep_merge_read(dir, JSON_READ_MAX_DEFAULT, &m, err, sizeof err) < 0)
        fail_msg("%s", err);
    const sweep_table *t = sweep_merge_table(m);
    assert_string_equal(t->file, "/nowhere/merge.ini");
    assert_string_equal(t->scenario, "merge-test"); /* the plan's, not a point's */
    assert_int_equal(t->npoints, 6);
    assert_int_equal(t->nvars, 2);
    assert_string_equal(t->var_names[0], "b");
    assert_string_equal(t->var_names[1], "servers");
    assert_int_equal(t->var_nvalues[0], 3);
    assert_int_equal(t->var_nvalues[1], 2);
    assert_int_equal(t->nschemes, 2);
    assert_string_equal(t->schemes[0], "tsdb");
    assert_string_equal(t->schemes[1], "plain");
    assert_int_equal(t->measure_from_us, 60000000);
    assert_true(t->measure_auto);
    assert_int_equal(t->nfigures, sweep_figure_count());
    size_t c = 0;
    for (size_t p = 0; p < 6; p++) {
        point_table pt;
        fill_point(&pt, p, 2);
        assert_string_equal(t->values[p * 2], fixture_b[p]);
        assert_string_equal(t->values[p * 2 + 1], fixture_servers[p]);
        for (size_t s = 0; s < 2; s++) {
            assert_string_equal(t->run_names[p * 2 + s], pt.run_names[s]);
            for (size_t k = 0; k < t->nfigures; k++) {
                double want = pt.figures[s * t->nfigures + k];
                double got = t->figures[(p * 2 + s) * t->nfigures + k];
                if (!same_bits(got, want))
                    fail_msg("point %zu scheme %zu figure %zu: %a read back as %a", p, s, k, want,
                             got);
            }
        }
        if (p != 3) {
            assert_true(c < t->nchecks);
            const check_result *r = &t->checks[c];
            assert_int_equal(t->check_point[c], p);
            assert_string_equal(r->name, pt.check.name);
            assert_string_equal(r->expression, pt.check.expression);
            assert_string_equal(r->scheme, pt.check.scheme);
            if (!same_bits(r->value, pt.check.value) || !same_bits(r->bound, pt.check.bound))
                fail_msg("point %zu: assertion value %a bound %a read back as %a, %a", p,
                         pt.check.value, pt.check.bound, r->value, r->bound);
            assert_int_equal(r->passed, pt.check.passed);
            if (r->seed != pt.check.seed)
                fail_msg("point %zu: seed %llu read back as %llu", p,
                         (unsigned long long)pt.check.seed, (unsigned long long)r->seed);
            assert_int_equal(r->samples, pt.check.samples);
            assert_int_equal(r->samples_failed, pt.check.samples_failed);
            c++;
        }
        free(pt.figures);
    }
    assert_int_equal(t->nchecks, c);
    sweep_merge_free(m);
    test_remove_tree(dir);
}

/* ---- a real plan, run job by job ---- */

/* The words of a jobs.txt line: sh's words of a line made of single-quoted
 * strings, '\'' and plain words (what sweep_plan.c writes) into argv. */
static int sh_words(const char *line, char **argv, int cap, char *buf, size_t bufcap)
{
    int argc = 0;
    size_t at = 0;
    const char *s = line;
    for (;;) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        assert_true(argc < cap);
        argv[argc++] = buf + at;
        while (*s && *s != ' ') {
            if (*s == '\'') {
                const char *end = strchr(s + 1, '\'');
                assert_non_null(end);
                assert_true(at + (size_t)(end - s) < bufcap);
                memcpy(buf + at, s + 1, (size_t)(end - s - 1));
                at += (size_t)(end - s - 1);
                s = end + 1;
            } else if (*s == '\\') {
                buf[at++] = s[1];
                s += 2;
            } else {
                assert_true(strchr("$`\"|&;<>(){}*?~#", *s) == NULL); /* nothing sh expands */
                buf[at++] = *s++;
            }
        }
        buf[at++] = '\0';
    }
    return argc;
}

static void test_a_planned_sweep_merges_to_the_sweep_s_own_table(void **state)
{
    (void)state;
    char dir[PATH_MAX], local[PATH_MAX], merged[PATH_MAX], path[PATH_MAX + 64];
    char err[1 << 16];
    in_work(dir, "round trip");
    in_work(local, "local.json");
    in_work(merged, "merged.json");
    /* options every job must carry: settings under the variables, and an
     * assertion that fails at some points */
    char *plan_argv[] = { "regionsim", "sweep", small, "--duration", "2m", "--measure-from", "1m",
                          "--read-fraction", "0.08", "--assert", "write_max_mean <= 2.5 for tsdb",
                          "--plan", dir, "--binary", "/opt/it's/regionsim", NULL };
    assert_int_equal(capture(sweep_main, 15, plan_argv, NULL, NULL), 0);
    char *jobs = test_read_file(under(path, dir, "jobs.txt"), NULL);
    assert_non_null(jobs);
    size_t njobs = 0;
    for (char *line = jobs, *nl; (nl = strchr(line, '\n')); line = nl + 1, njobs++) {
        *nl = '\0';
        char *argv[64], buf[8192];
        int argc = sh_words(line, argv, 63, buf, sizeof buf);
        argv[argc] = NULL;
        assert_string_equal(argv[0], "/opt/it's/regionsim");
        assert_string_equal(argv[1], "sweep");
        char *out = NULL, *errs = NULL;
        int status = capture(sweep_main, argc, argv, &out, &errs);
        if (status != 0)
            fail_msg("job %zu exited %d: %s", njobs, status, errs);
        assert_string_equal(out, ""); /* the result goes to its file */
        free(out);
        free(errs);
    }
    assert_int_equal(njobs, 6);
    free(jobs);

    /* the whole sweep's table, exact (--result writes any sweep's) */
    char *local_argv[] = { "regionsim", "sweep", small, "--duration", "2m", "--measure-from", "1m",
                           "--read-fraction", "0.08", "--assert", "write_max_mean <= 2.5 for tsdb",
                           "--result", local, NULL };
    assert_int_equal(capture(sweep_main, 13, local_argv, NULL, NULL), 0);
    sweep_merge *m;
    if (sweep_merge_read(dir, JSON_READ_MAX_DEFAULT, &m, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(sweep_write_report(sweep_merge_table(m), 4, merged, "test"), 0);
    size_t llen, mlen;
    char *want = test_read_file(local, &llen), *got = test_read_file(merged, &mlen);
    assert_non_null(want);
    assert_non_null(got);
    assert_true(llen > 1000);
    assert_string_equal(got, want);
    /* some assertion failed and some held, so both kinds went through */
    assert_non_null(strstr(got, "\"passed\": false"));
    assert_non_null(strstr(got, "\"passed\": true"));
    free(want);
    free(got);
    sweep_merge_free(m);

    /* merge's own report: sweep's text, status 1 for the failed assertion */
    char *sweep_text_argv[] = { "regionsim", "sweep", small, "--duration", "2m", "--measure-from",
                                "1m", "--read-fraction", "0.08", "--assert",
                                "write_max_mean <= 2.5 for tsdb", NULL };
    char *local_text = NULL, *local_err = NULL, *merged_text = NULL, *merged_err = NULL;
    assert_int_equal(capture(sweep_main, 11, sweep_text_argv, &local_text, &local_err), 1);
    char *merge_argv[] = { "regionsim", "merge", dir, NULL };
    assert_int_equal(capture(merge_main, 3, merge_argv, &merged_text, &merged_err), 1);
    assert_true(strlen(local_text) > 200);
    assert_string_equal(merged_text, local_text);
    assert_contains(merged_err, "regionsim merge: at b=");
    assert_contains(merged_err, "FAILED write_max_mean <= 2.5 for tsdb");
    free(local_text);
    free(local_err);
    free(merged_text);
    free(merged_err);
    remove(local);
    remove(merged);
    test_remove_tree(dir);
}

/* ---- refusals ---- */

static void test_missing_results_are_all_named(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], want[4 * PATH_MAX];
    fixture(dir, "missing");
    remove(under(path, dir, "results/0002.json"));
    remove(under(path, dir, "results/0004.json"));
    snprintf(want, sizeof want,
             "2 of 6 results missing (run their lines of %s/jobs.txt):\n"
             "  %s/results/0002.json (point 2: b=2 servers=4)\n"
             "  %s/results/0004.json (point 4: b=4 servers=4)", dir, dir, dir);
    assert_merge_refused(dir, want, NULL);

    /* merge: status 2, nothing on stdout, no -o file, the message */
    char out_path[PATH_MAX];
    in_work(out_path, "report.txt");
    char *argv[] = { "regionsim", "merge", dir, "-o", out_path, NULL };
    char *out = NULL, *err = NULL;
    assert_int_equal(capture(merge_main, 5, argv, &out, &err), 2);
    assert_string_equal(out, "");
    assert_false(test_exists(out_path));
    assert_contains(err, "regionsim merge: 2 of 6 results missing");
    free(out);
    free(err);
    test_remove_tree(dir);
}

/* A malformed result among missing ones: the missing are still all named
 * (a half-run plan is the common case), and the malformed one too. */
static void test_missing_results_are_named_past_a_malformed_one(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64];
    fixture(dir, "missing-and-bad");
    spit(under(path, dir, "results/0001.json"), "{\"sweep\": ", 10);
    remove(under(path, dir, "results/0003.json"));
    remove(under(path, dir, "results/0005.json"));
    char want[PATH_MAX + 64];
    assert_merge_refused(dir, NULL, "2 of 6 results missing");
    snprintf(want, sizeof want, "%s/results/0003.json (point 3: b=2 servers=8)", dir);
    assert_merge_refused(dir, NULL, want);
    snprintf(want, sizeof want, "%s/results/0005.json (point 5: b=4 servers=8)", dir);
    assert_merge_refused(dir, NULL, want);
    snprintf(want, sizeof want, "%s/results/0001.json: not JSON", dir);
    assert_merge_refused(dir, NULL, want);
    test_remove_tree(dir);
}

static void test_malformed_and_truncated_results_are_refused(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], want[PATH_MAX + 256];
    fixture(dir, "malformed");
    under(path, dir, "results/0003.json");
    size_t len;
    char *good = test_read_file(path, &len);
    assert_non_null(good);

    /* cut anywhere: not JSON, naming the file and the point */
    const size_t cuts[] = { 0, 1, len / 3, len / 2, len - 3 };
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        spit(path, good, cuts[i]);
        snprintf(want, sizeof want, "%s/results/0003.json: not JSON (", dir);
        assert_merge_refused(dir, NULL, want);
        assert_merge_refused(dir, NULL, "(point 3: b=2 servers=8)");
    }
    /* a document and something after it (two results in one file, say) */
    char *twice = malloc(2 * len);
    assert_non_null(twice);
    memcpy(twice, good, len);
    memcpy(twice + len, good, len);
    spit(path, twice, 2 * len);
    free(twice);
    assert_merge_refused(dir, NULL, "results/0003.json: not JSON");
    /* trailing blank space is fine */
    char *spaced = malloc(len + 3);
    assert_non_null(spaced);
    memcpy(spaced, good, len);
    memcpy(spaced + len, " \n\n", 3);
    spit(path, spaced, len + 3);
    free(spaced);
    sweep_merge *m;
    char err[1 << 16];
    if (sweep_merge_read(dir, JSON_READ_MAX_DEFAULT, &m, err, sizeof err) < 0)
        fail_msg("%s", err);
    sweep_merge_free(m);

    /* JSON, but not a point's result */
    spit(path, "{\"sweep\": {}}", 13);
    snprintf(want, sizeof want, "%s/results/0003.json: point 3 (b=2 servers=8): expected a "
             "point's result (regionsim sweep POINT.ini --result): {\"sweep\": {\"scenario\", "
             "\"measure_from_us\", \"measure_auto\", \"schemes\", \"points\": [one point]}}",
             dir);
    assert_merge_refused(dir, want, NULL);
    /* a figure written as no number the writer writes */
    spit(path, good, len);
    edit(path, "\"write_max_mean\": ", "\"write_max_mean\": \"nan\", \"x\": ");
    assert_merge_refused(dir, NULL, "point 3 (b=2 servers=8): runs[0]: figure 'write_max_mean': "
                         "expected a number, null, \"inf\" or \"-inf\"");
    /* a figure missing */
    spit(path, good, len);
    edit(path, "\"write_max_mean\": ", "\"not_a_figure\": ");
    assert_merge_refused(dir, NULL, "runs[0]: figure 'write_max_mean'");
    /* another number of schemes than the first point's */
    spit(path, good, len);
    write_result(dir, 3, 1);
    assert_merge_refused(dir, NULL, "point 3 (b=2 servers=8): 1 schemes, but 2 at the first point");
    free(good);
    test_remove_tree(dir);
}

static void test_another_point_s_result_is_refused(void **state)
{
    (void)state;
    char dir[PATH_MAX], from[PATH_MAX + 64], to[PATH_MAX + 64], want[PATH_MAX + 200];
    fixture(dir, "swapped");
    size_t len;
    char *four = test_read_file(under(from, dir, "results/0004.json"), &len);
    assert_non_null(four);
    spit(under(to, dir, "results/0002.json"), four, len);
    free(four);
    snprintf(want, sizeof want, "%s/results/0002.json: point 2 (b=2 servers=4): the result is for "
             "b=4, the plan's point has b=2", dir);
    assert_merge_refused(dir, want, NULL);
    /* the same values but another variable's name */
    write_result(dir, 2, 2);
    edit(to, "\"servers\": \"4\"}", "\"server\": \"4\"}");
    assert_merge_refused(dir, NULL, "point 2 (b=2 servers=4): the result is for servers=(none), "
                         "the plan's point has servers=4");
    test_remove_tree(dir);
}

/* Files in results/ the plan does not name are not read, nor are
 * jobs.txt and the point files (a jobs.txt edited by hand changes
 * nothing merge reads). */
static void test_files_the_plan_does_not_name_are_ignored(void **state)
{
    (void)state;
    char dir[PATH_MAX], path[PATH_MAX + 64], err[1 << 16];
    fixture(dir, "extra");
    spit(under(path, dir, "results/0006.json"), "not json", 8);
    spit(under(path, dir, "results/notes.txt"), "x", 1);
    assert_int_equal(mkdir(under(path, dir, "results/old"), 0777), 0);
    spit(under(path, dir, "jobs.txt"), "edited by hand\n", 15);
    test_remove_tree(under(path, dir, "points"));
    sweep_merge *m;
    if (sweep_merge_read(dir, JSON_READ_MAX_DEFAULT, &m, err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(sweep_merge_table(m)->npoints, 6);
    sweep_merge_free(m);
    test_remove_tree(dir);
}

static void test_a_plan_edited_by_hand_is_refused(void **state)
{
    (void)state;
    char dir[PATH_MAX], plan[PATH_MAX + 64], want[3 * PATH_MAX];
    fixture(dir, "edited");
    under(plan, dir, "plan.json");
    size_t len;
    char *good = test_read_file(plan, &len);
    assert_non_null(good);

    edit(plan, "\"version\": 1", "\"version\": 2");
    snprintf(want, sizeof want, "%s/plan.json: expected a plan of version 1: {\"plan\": "
             "{\"version\", \"file\", \"scenario\", \"variables\", \"points\"}}", dir);
    assert_merge_refused(dir, want, NULL);
    spit(plan, good, len);
    edit(plan, "\"version\": 1", "\"version\": \"1\"");
    assert_merge_refused(dir, want, NULL);

    /* a point removed: the variables' values make 6 */
    spit(plan, good, len);
    char cut[512], digest[SWEEP_DIGEST_HEX];
    point_digest(dir, 5, digest);
    snprintf(cut, sizeof cut, ",\n      {\"index\": 5, \"values\": {\"b\": \"4\", \"servers\": "
             "\"8\"}, \"scenario\": \"points/0005.ini\", \"result\": \"results/0005.json\", "
             "\"digest\": \"%s\"}", digest);
    edit(plan, cut, "");
    snprintf(want, sizeof want, "%s/plan.json: 5 points, but the variables' values make 6", dir);
    assert_merge_refused(dir, want, NULL);

    /* points out of order */
    spit(plan, good, len);
    edit(plan, "{\"index\": 1,", "{\"index\": 2,");
    snprintf(want, sizeof want, "%s/plan.json: points[1]: expected {\"index\": 1, \"values\", "
             "...}", dir);
    assert_merge_refused(dir, want, NULL);

    /* a point without a variable's value */
    spit(plan, good, len);
    edit(plan, "\"values\": {\"b\": \"2\", \"servers\": \"4\"}", "\"values\": {\"b\": \"2\"}");
    snprintf(want, sizeof want, "%s/plan.json: points[2]: no value of 'servers'", dir);
    assert_merge_refused(dir, want, NULL);

    /* a result outside the plan's directory, by .. or an absolute path */
    static const char *const outside[] = { "../edited/results/0001.json", "/etc/passwd", "" };
    for (size_t i = 0; i < 3; i++) {
        spit(plan, good, len);
        char to[128];
        snprintf(to, sizeof to, "\"result\": \"%s\"", outside[i]);
        edit(plan, "\"result\": \"results/0001.json\"", to);
        snprintf(want, sizeof want, "%s/plan.json: points[1]: expected \"result\": a path inside "
                 "the plan", dir);
        assert_merge_refused(dir, want, NULL);
    }
    /* no plan at all */
    remove(plan);
    snprintf(want, sizeof want, "%s/plan.json: no such file (is %s a plan written by 'regionsim "
             "sweep FILE --plan DIR'?)", dir, dir);
    assert_merge_refused(dir, want, NULL);
    /* not JSON */
    spit(plan, good, len / 2);
    assert_merge_refused(dir, NULL, "plan.json: not JSON (");
    free(good);
    test_remove_tree(dir);
}

static void test_merge_usage(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    char *none[] = { "regionsim", "merge", NULL };
    assert_int_equal(capture(merge_main, 2, none, &out, &err), 2);
    assert_string_equal(out, "");
    assert_string_equal(err, "regionsim merge: expected a plan's directory (regionsim sweep FILE "
                             "--plan DIR)\n");
    free(out);
    free(err);
    char *two[] = { "regionsim", "merge", "a", "b", NULL };
    assert_int_equal(capture(merge_main, 4, two, &out, &err), 2);
    assert_contains(err, "unexpected argument 'b' after the plan's directory");
    free(out);
    free(err);
    char *fmt[] = { "regionsim", "merge", "a", "--format", "xml", NULL };
    assert_int_equal(capture(merge_main, 5, fmt, &out, &err), 2);
    assert_contains(err, "--format: expected text, json, csv or html, found 'xml'");
    free(out);
    free(err);
    char *unknown[] = { "regionsim", "merge", "a", "--jobs=2", NULL };
    assert_int_equal(capture(merge_main, 4, unknown, &out, &err), 2);
    assert_contains(err, "unknown option '--jobs'");
    free(out);
    free(err);
    char *help[] = { "regionsim", "merge", "--help", NULL };
    assert_int_equal(capture(merge_main, 3, help, &out, &err), 0);
    assert_contains(out, "usage: regionsim merge DIR");
    free(out);
    free(err);
}

/* merge -o and --format: the report of the fixture's table, as the sweep's
 * writers write it. */
static void test_merge_writes_each_format_to_o(void **state)
{
    (void)state;
    char dir[PATH_MAX], out_path[PATH_MAX], err[1 << 16];
    fixture(dir, "formats");
    in_work(out_path, "report");
    sweep_merge *m;
    if (sweep_merge_read(dir, JSON_READ_MAX_DEFAULT, &m, err, sizeof err) < 0)
        fail_msg("%s", err);
    static const char *const formats[] = { "text", "json", "csv", "html" };
    for (int f = 0; f < 4; f++) {
        char *argv[] = { "regionsim", "merge", dir, "--format", (char *)formats[f], "-o", out_path,
                         NULL };
        char *out = NULL, *errs = NULL;
        /* points 0, 2 and 4 failed their assertion */
        assert_int_equal(capture(merge_main, 7, argv, &out, &errs), 1);
        assert_string_equal(out, "");
        assert_contains(errs, "regionsim merge: 3 assertion results failed at 3 points\n");
        char *got = test_read_file(out_path, NULL);
        assert_non_null(got);
        char *want = NULL;
        size_t wlen = 0;
        FILE *mf = open_memstream(&want, &wlen);
        assert_non_null(mf);
        const sweep_table *t = sweep_merge_table(m);
        switch (f) {
        case 0: sweep_write_text(mf, t); break;
        case 1: sweep_write_json(mf, t); break;
        case 2: sweep_write_csv(mf, t); break;
        default: sweep_write_html(mf, t); break;
        }
        fclose(mf);
        assert_string_equal(got, want);
        free(want);
        free(got);
        free(out);
        free(errs);
        remove(out_path);
    }
    sweep_merge_free(m);
    test_remove_tree(dir);
}

int main(int argc, char **argv)
{
    test_plain_env();
    unsetenv("REGIONSIM_JOBS");
    snprintf(small, sizeof small, "%s/tests/data/sweep-small.ini", argc > 1 ? argv[1] : ".");
    if (test_make_work_dir(work, "sweep-merge") < 0) /* by its real path, as the plan names it */
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_double_reads_back_bit_for_bit),
        cmocka_unit_test(test_a_planned_sweep_merges_to_the_sweep_s_own_table),
        cmocka_unit_test(test_missing_results_are_all_named),
        cmocka_unit_test(test_missing_results_are_named_past_a_malformed_one),
        cmocka_unit_test(test_malformed_and_truncated_results_are_refused),
        cmocka_unit_test(test_another_point_s_result_is_refused),
        cmocka_unit_test(test_files_the_plan_does_not_name_are_ignored),
        cmocka_unit_test(test_a_plan_edited_by_hand_is_refused),
        cmocka_unit_test(test_merge_usage),
        cmocka_unit_test(test_merge_writes_each_format_to_o),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    test_remove_tree(work);
    return failed;
}
