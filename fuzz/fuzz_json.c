/* fuzz_json.c -- the JSON inputs (issue 27): reports/json_read.h's
 * reader and its size cap, a run's baseline (reports/baseline.h), a
 * sweep's baseline (reports/sweep_baseline.h) and a planned point's
 * result as `regionsim merge` reads it (planners/sweep_merge.c).
 *
 * Input: one JSON file (any bytes).
 *
 * Oracles:
 *  - the reader: the input read under the default cap and under a cap of
 *    1 KiB, as a regular file and (when it fits a pipe's buffer) through a
 *    pipe, is accepted or refused alike; past 1 KiB the small cap refuses
 *    it, a regular file "N bytes, over the 1KiB ...", a pipe "more than
 *    1KiB came from it", both naming --max-input; every message starts
 *    with the path;
 *  - a run's baseline (baseline_load): refused with a message
 *    starting with the path; accepted only if it is an object of
 *    "regionsim": REPORT_JSON_SCHEMA with "runs", each run an object with
 *    a "scheme" string and an object of "figures" whose every registry
 *    figure is null or a finite number, at least one a number;
 *  - a sweep's baseline (sweep_baseline_load, against a table of one
 *    variable b = 1, 2 and one scheme tsdb, scenario "fuzz"): refused with
 *    the path first; accepted only if it is a sweep report of
 *    SWEEP_JSON_VERSION and scenario "fuzz" with a point at b=1 or b=2,
 *    and some run's figure a number;
 *  - a point's result, merged into a fixed one-point plan (b = 1, its
 *    digest FUZZ_DIGEST) in a private directory: refused with "PATH:
 *    point 0 (b=1): ..." (or the reader's message, which names the
 *    path); accepted only if the input's "digest" is the plan's, and then
 *    the table has one point, at least one scheme, each with a label and
 *    a run's name.
 * The plan's directory is made once and removed at exit; the result in
 * it is a symlink to the input, remade for each input.
 */
#include "fuzz/fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "reports/baseline.h"
#include "reports/figures.h"
#include "reports/json_read.h"
#include "reports/report.h"
#include "reports/sweep_baseline.h"
#include "reports/sweep_report.h"
#include "planners/sweep_plan.h"

#define SMALL_CAP 1024
#define PIPE_MAX 60000 /* below a pipe's 64 KiB buffer: written before it is read */
/* the digest the fixed plan records for its point (fuzz/corpus/json/result-*) */
#define FUZZ_DIGEST "80f9262ae8b7e40963df8b50d121c8ae5e45a2197f8b39860626898602d11940"

static int starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* ---- the reader ---- */

/* The outcome of a read: NULL (refused) or the document as plain text. */
static char *outcome(json_object *doc)
{
    if (!doc)
        return NULL;
    char *s = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
    FUZZ_CHECK(s != NULL, "%s", "out of memory");
    json_object_put(doc);
    return s;
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The input through a pipe, read as /proc/self/fd/N under cap max. */
static char *through_pipe(const uint8_t *data, size_t size, uint64_t max, char *err, size_t cap)
{
    int fds[2];
    FUZZ_CHECK(pipe(fds) == 0, "pipe: %s", strerror(errno));
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fds[1], data + done, size - done);
        FUZZ_CHECK(w > 0, "write to a pipe: %s", strerror(errno));
        done += (size_t)w;
    }
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fds[0]);
    char *got = outcome(json_read_file(path, max, NULL, err, cap));
    if (!got)
        FUZZ_CHECK(starts_with(err, path), "a message without its path: %s", err);
    close(fds[0]);
    return got;
}

static void check_reader(const char *path, const uint8_t *data, size_t size)
{
    char err[2048], small_err[2048], want[128];
    char *full = outcome(json_read_file(path, JSON_READ_MAX_DEFAULT, NULL, err, sizeof err));
    if (!full)
        FUZZ_CHECK(starts_with(err, path), "a message without its path: %s", err);
    char *small = outcome(json_read_file(path, SMALL_CAP, NULL, small_err, sizeof small_err));
    if (size > SMALL_CAP) {
        snprintf(want, sizeof want, "%s: %zu bytes, over the 1KiB a JSON input may hold "
                 "(--max-input SIZE raises the cap)", path, size);
        FUZZ_CHECK(!small && !strcmp(small_err, want), "a file of %zu bytes under a cap of "
                   "1KiB: %s", size, small ? "accepted" : small_err);
    } else {
        FUZZ_CHECK(same(full, small), "%zu bytes: read %s under the default cap, %s under 1KiB",
                   size, full ? "whole" : "refused", small ? "whole" : "refused");
    }
    if (size <= PIPE_MAX) {
        char *piped = through_pipe(data, size, JSON_READ_MAX_DEFAULT, err, sizeof err);
        FUZZ_CHECK(same(full, piped), "a pipe and a file of the same %zu bytes read differently",
                   size);
        free(piped);
        piped = through_pipe(data, size, SMALL_CAP, err, sizeof err);
        if (size > SMALL_CAP)
            FUZZ_CHECK(!piped && strstr(err, ": more than 1KiB came from it") &&
                       strstr(err, "--max-input SIZE raises the cap"),
                       "a pipe of %zu bytes under a cap of 1KiB: %s", size,
                       piped ? "accepted" : err);
        else
            FUZZ_CHECK(same(small, piped), "a pipe of %zu bytes under 1KiB read differently",
                       size);
        free(piped);
    }
    free(full);
    free(small);
}

/* ---- baselines ---- */

/* Whether every registry figure in figures is null or a finite number;
 * *numbers counts the numbers. */
static int figures_ok(json_object *figures, size_t *numbers)
{
    if (!json_object_is_type(figures, json_type_object))
        return 0;
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
        json_object *v;
        if (!json_object_object_get_ex(figures, f->name, &v) || !v)
            continue;
        if (!(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) ||
            !isfinite(json_object_get_double(v)))
            return 0;
        ++*numbers;
    }
    return 1;
}

static void check_run_baseline(const char *path)
{
    char err[2048];
    baseline *b;
    if (baseline_load(path, JSON_READ_MAX_DEFAULT, &b, err, sizeof err) < 0) {
        FUZZ_CHECK(starts_with(err, path) || starts_with(err, "out of memory"),
                   "a refused baseline's message: %s", err);
        return;
    }
    baseline_free(b);
    json_object *doc = json_read_file(path, JSON_READ_MAX_DEFAULT, NULL, err, sizeof err);
    FUZZ_CHECK(doc != NULL, "an accepted baseline does not read again: %s", err);
    json_object *version = json_member(doc, "regionsim", json_type_int);
    json_object *runs = json_member(doc, "runs", json_type_array);
    FUZZ_CHECK(version && json_object_get_int64(version) == REPORT_JSON_SCHEMA && runs,
               "%s", "accepted a baseline that is no report of this schema with runs");
    size_t numbers = 0;
    for (size_t i = 0; i < json_object_array_length(runs); i++) {
        json_object *run = json_object_array_get_idx(runs, i);
        FUZZ_CHECK(json_member(run, "scheme", json_type_string) &&
                   figures_ok(json_member(run, "figures", json_type_object), &numbers),
                   "accepted a baseline whose runs[%zu] is malformed", i);
    }
    FUZZ_CHECK(numbers > 0, "%s", "accepted a baseline with no figure to compare");
    json_object_put(doc);
}

static void check_sweep_baseline(const char *path)
{
    static const char *const names[] = { "b" };
    static const size_t nvalues[] = { 2 };
    static const char *const values[] = { "1", "2" };
    static const char *const schemes[] = { "tsdb" };
    sweep_table t;
    memset(&t, 0, sizeof t);
    t.scenario = "fuzz";
    t.file = "fuzz.ini";
    t.nvars = 1;
    t.var_names = names;
    t.var_nvalues = nvalues;
    t.npoints = 2;
    t.values = values;
    t.nschemes = 1;
    t.schemes = schemes;
    t.nfigures = sweep_figure_count();
    char err[2048];
    sweep_baseline *b;
    if (sweep_baseline_load(path, &t, JSON_READ_MAX_DEFAULT, &b, err, sizeof err) < 0) {
        FUZZ_CHECK(starts_with(err, path) || starts_with(err, "out of memory"),
                   "a refused sweep baseline's message: %s", err);
        return;
    }
    sweep_baseline_free(b);
    json_object *doc = json_read_file(path, JSON_READ_MAX_DEFAULT, NULL, err, sizeof err);
    FUZZ_CHECK(doc != NULL, "an accepted sweep baseline does not read again: %s", err);
    json_object *sw = json_member(doc, "sweep", json_type_object);
    json_object *version = json_member(sw, "version", json_type_int);
    json_object *scenario = json_member(sw, "scenario", json_type_string);
    json_object *points = json_member(sw, "points", json_type_array);
    FUZZ_CHECK(version && json_object_get_int64(version) == SWEEP_JSON_VERSION && scenario &&
               !strcmp(json_object_get_string(scenario), "fuzz") && points,
               "%s", "accepted a sweep baseline of another kind, version or scenario");
    size_t numbers = 0, at = 0;
    for (size_t p = 0; p < json_object_array_length(points); p++) {
        json_object *pt = json_object_array_get_idx(points, p);
        json_object *b = json_member(json_member(pt, "values", json_type_object), "b",
                                     json_type_string);
        at += b && (!strcmp(json_object_get_string(b), "1") ||
                    !strcmp(json_object_get_string(b), "2"));
        json_object *runs = json_member(pt, "runs", json_type_array);
        for (size_t r = 0; runs && r < json_object_array_length(runs); r++)
            FUZZ_CHECK(figures_ok(json_member(json_object_array_get_idx(runs, r), "figures",
                                              json_type_object), &numbers),
                       "accepted a sweep baseline whose points[%zu].runs[%zu] is malformed", p,
                       r);
    }
    FUZZ_CHECK(at > 0 && numbers > 0, "accepted a sweep baseline with %s",
               at ? "no figure to compare" : "no point in common");
    json_object_put(doc);
}

/* ---- merge: a point's result ---- */

static char plan_dir[64]; /* the fixed plan: made once, removed at exit */

static void remove_plan(void)
{
    char path[128];
    static const char *const names[] = { "results/0000.json", "results", "plan.json" };
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", plan_dir, names[i]);
        remove(path);
    }
    rmdir(plan_dir);
}

static void make_plan(void)
{
    if (plan_dir[0])
        return;
    snprintf(plan_dir, sizeof plan_dir, "/tmp/regionsim-fuzz-json-XXXXXX");
    FUZZ_CHECK(mkdtemp(plan_dir) != NULL, "mkdtemp: %s", strerror(errno));
    atexit(remove_plan);
    char path[128];
    snprintf(path, sizeof path, "%s/results", plan_dir);
    FUZZ_CHECK(mkdir(path, 0700) == 0, "mkdir: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/plan.json", plan_dir);
    FILE *f = fopen(path, "w");
    FUZZ_CHECK(f != NULL, "%s: %s", path, strerror(errno));
    fprintf(f, "{\"plan\": {\"version\": %d, \"file\": \"fuzz.ini\", \"scenario\": \"fuzz\", "
            "\"binary\": \"/bin/true\", \"variables\": [{\"name\": \"b\", \"values\": "
            "[\"1\"]}], \"points\": [{\"index\": 0, \"values\": {\"b\": \"1\"}, \"scenario\": "
            "\"points/0000.ini\", \"result\": \"results/0000.json\", \"digest\": \"%s\"}]}}\n",
            SWEEP_PLAN_VERSION, FUZZ_DIGEST);
    FUZZ_CHECK(fclose(f) == 0, "%s: %s", path, strerror(errno));
}

static void check_merge(const char *input_path)
{
    make_plan();
    char result[128];
    snprintf(result, sizeof result, "%s/results/0000.json", plan_dir);
    remove(result);
    FUZZ_CHECK(symlink(input_path, result) == 0, "symlink: %s", strerror(errno));
    sweep_merge *m = NULL;
    char err[1 << 14], want[256];
    if (sweep_merge_read(plan_dir, JSON_READ_MAX_DEFAULT, &m, err, sizeof err) < 0) {
        snprintf(want, sizeof want, "%s: point 0 (b=1): ", result);
        FUZZ_CHECK(starts_with(err, want) || starts_with(err, result),
                   "a refused result's message: %s", err);
        FUZZ_CHECK(m == NULL, "%s", "a refused merge handed out a table");
        return;
    }
    const sweep_table *t = sweep_merge_table(m);
    json_object *doc = json_read_file(input_path, JSON_READ_MAX_DEFAULT, NULL, err, sizeof err);
    json_object *digest = json_member(json_member(doc, "sweep", json_type_object), "digest",
                                      json_type_string);
    FUZZ_CHECK(digest && !strcmp(json_object_get_string(digest), FUZZ_DIGEST),
               "%s", "merged a result without the plan's digest");
    if (doc)
        json_object_put(doc);
    FUZZ_CHECK(t->npoints == 1 && t->nschemes >= 1, "merged %zu points of %zu schemes",
               t->npoints, t->nschemes);
    for (size_t s = 0; s < t->nschemes; s++)
        FUZZ_CHECK(t->schemes[s] && t->run_names[s], "scheme %zu without a label or a name", s);
    sweep_merge_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    char path[64];
    int fd = fuzz_memfile(data, size, path, sizeof path);
    check_reader(path, data, size);
    check_run_baseline(path);
    check_sweep_baseline(path);
    check_merge(path);
    close(fd);
    return 0;
}
