/* baseline.c -- a run's figures against a previous run's JSON report.
 *
 * The baseline is read once, before the run (baseline_load), with json-c,
 * whole (reports/json_read.h: up to the --max-input cap), and checked
 * there: it must be a
 * regionsim report ("regionsim": the schema version this program writes)
 * whose every run has a "scheme" and an object of "figures", each figure
 * the registry knows a number or null (undefined); with samples, each
 * run's "spread" likewise holds {"min", "median", "max"} of numbers or
 * null. A figure of another type (a string, an array, an object, a
 * boolean) is bad input, refused with its JSON path, not skipped: a gate
 * that skipped what it could not read would pass a baseline that checks
 * nothing. A figure the registry has and the baseline lacks (a registry
 * grown since) is not compared. What the comparison needs is then kept
 * and the document freed (json-c holds one in 7 to 23 times its bytes):
 * the scenario's name, the workload's description, "samples", and per
 * run its scheme and each figure with a value as (registry index, value)
 * in registry order, the medians of its "spread" likewise: 16 bytes a
 * figure, where the document spends at least its name, quotes and colon.
 * Nothing reads the file again, so a pipe or a FIFO is a baseline like a
 * file, and a file replaced during the run changes nothing.
 *
 * After the run (baseline_compare) it must be of the same scenario (the
 * same name and workload description: comparing a salted run of one
 * workload with another workload's says nothing). Then, for every run of
 * this result whose scheme the baseline also ran, every scheme-scope
 * figure of the registry is compared where both values are defined; if
 * that compares nothing at all, the baseline is refused too.
 *
 * Like with like: the JSON report writes each figure as fmt_number does
 * (integers whole, others to 6 significant digits), so this run's value is
 * taken as the report would write it (baseline_as_written) before it is
 * judged; a report compared with itself is the same at --tolerance 0.
 *
 * The tolerance is relative: |new - old| <= tolerance x |old| is the same.
 * An old value of 0 has no relative scale; there any change of more than
 * the tolerance in absolute terms counts (a count going from 0 moves to 1
 * is a change; a ratio from 0 to 0.001 is not). Which way is worse comes
 * from the figure (figure.better); a figure without a direction is listed
 * as changed and never fails a run.
 */
#include "reports/baseline.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/json_read.h"
#include "reports/report.h"
#include "reports/samples.h"

/* A figure with a value: its registry index (figure_index) and value. */
typedef struct old_value {
    uint32_t figure;
    double value;
} old_value;

/* A run of the baseline: its scheme and its values, each list in the
 * registry's order. */
typedef struct old_run {
    const char *scheme;        /* in the baseline's names */
    size_t figures, nfigures;  /* its "figures": values[figures .. figures + nfigures) */
    size_t medians, nmedians;  /* its "spread" medians, likewise */
} old_run;

struct baseline {
    char *path;
    char *scenario, *workload; /* "scenario" and "workload"."description"; "" when none */
    int samples_int;           /* "samples" is an integer */
    int samples_given;         /* "samples" is there and not null ... */
    int64_t samples;           /* ... with json-c's reading of it as an integer */
    int measure_auto;          /* "measure_auto" true (a report before it existed: false) */
    uint64_t measure_from_us;  /* "measure_from_us" (0 when missing) */
    size_t nruns;
    old_run *runs;
    old_value *values;
    char *names;               /* every run's scheme, NUL after each */
};

/* The run of b whose scheme is name, or NULL. */
static const old_run *baseline_run(const baseline *b, const char *name)
{
    for (size_t i = 0; i < b->nruns; i++)
        if (!strcmp(b->runs[i].scheme, name))
            return &b->runs[i];
    return NULL;
}

/* The string at root.a.b (b NULL: root.a), or "" when missing. */
static const char *string_at(json_object *root, const char *a, const char *b)
{
    json_object *o;
    if (!json_object_object_get_ex(root, a, &o))
        return "";
    if (b && !json_object_object_get_ex(o, b, &o))
        return "";
    return json_object_is_type(o, json_type_string) ? json_object_get_string(o) : "";
}

/* Whether root is a regionsim JSON report of this schema with runs;
 * else a message in err. */
static int readable(json_object *root, const char *path, char *err, size_t errcap)
{
    json_object *version, *runs;
    if (!json_object_is_type(root, json_type_object) ||
        !json_object_object_get_ex(root, "regionsim", &version) ||
        !json_object_is_type(version, json_type_int)) {
        snprintf(err, errcap, "%s: not a regionsim JSON report (no \"regionsim\" schema "
                 "version): expected the output of --format json", path);
        return 0;
    }
    if (json_object_get_int64(version) != REPORT_JSON_SCHEMA) {
        snprintf(err, errcap, "%s: a report of schema %lld; this regionsim writes schema %d: "
                 "make the baseline again with this version", path,
                 (long long)json_object_get_int64(version), REPORT_JSON_SCHEMA);
        return 0;
    }
    if (!json_object_object_get_ex(root, "runs", &runs) ||
        !json_object_is_type(runs, json_type_array)) {
        snprintf(err, errcap, "%s: no \"runs\" in the report", path);
        return 0;
    }
    json_object *m;
    if (json_object_object_get_ex(root, "measure_auto", &m) &&
        !json_object_is_type(m, json_type_boolean)) {
        snprintf(err, errcap, "%s: \"measure_auto\": expected true or false", path);
        return 0;
    }
    return 1;
}

/* How a report was measured, in words: "from each run's warm-up
 * (measure_from = auto)" or "from 10 min (measure_from)". */
static void measured_words(int automatic, uint64_t from_us, char *out, size_t cap)
{
    char d[CELL];
    if (automatic)
        snprintf(out, cap, "%s", "from each run's warm-up (measure_from = auto)");
    else
        snprintf(out, cap, "from %s (measure_from)", from_us ? fmt_duration(d, from_us) : "0");
}

/* Whether b can be compared with res: the same scenario and samples;
 * else a message in err. */
static int comparable(const baseline *b, const sim_results *res, char *err, size_t errcap)
{
    if (strcmp(b->scenario, res->scenario ? res->scenario : "") != 0 ||
        strcmp(b->workload, res->workload ? res->workload : "") != 0) {
        snprintf(err, errcap, "%s: a baseline of another scenario (scenario '%s', workload "
                 "'%s'; this run: '%s', '%s'): compare runs of the same scenario", b->path,
                 b->scenario, b->workload, res->scenario ? res->scenario : "",
                 res->workload ? res->workload : "");
        return 0;
    }
    /* Like with like: the figures of a run measured past its warm-up and of
     * one measured from 0 differ by the growing table, not by the change. */
    if (b->measure_auto != res->measure_auto ||
        (!b->measure_auto && b->measure_from_us != res->measure_from_us)) {
        char was[2 * CELL], now_from[2 * CELL];
        measured_words(b->measure_auto, b->measure_from_us, was, sizeof was);
        measured_words(res->measure_auto, res->measure_from_us, now_from, sizeof now_from);
        snprintf(err, errcap, "%s: a baseline measured %s; this run is measured %s: compare runs "
                 "measured alike (set measure_from to match, or make the baseline again)",
                 b->path, was, now_from);
        return 0;
    }
    uint32_t now = res->nsamples ? res->nsamples : 1;
    if (!b->samples_int || b->samples != (int64_t)now) {
        snprintf(err, errcap, "%s: a baseline of %lld sample%s; this run has %u: medians and "
                 "single runs do not compare, make the baseline with --samples %u", b->path,
                 b->samples_given ? (long long)b->samples : 1LL,
                 b->samples_given && b->samples != 1 ? "s" : "", (unsigned)now,
                 (unsigned)now);
        return 0;
    }
    return 1;
}

/* What a JSON value is, for a message: "a string ('abc')", "an array". */
static const char *found_text(json_object *v, char *buf, size_t cap)
{
    switch (json_object_get_type(v)) {
    case json_type_string:
        snprintf(buf, cap, "a string ('%.40s%s')", json_object_get_string(v),
                 json_object_get_string_len(v) > 40 ? "..." : "");
        break;
    case json_type_array: snprintf(buf, cap, "an array"); break;
    case json_type_object: snprintf(buf, cap, "an object"); break;
    case json_type_boolean: snprintf(buf, cap, "a boolean"); break;
    case json_type_null: snprintf(buf, cap, "null"); break;
    case json_type_int:
    case json_type_double: snprintf(buf, cap, "%.17g", json_object_get_double(v)); break;
    }
    return buf;
}

/* Whether v is a figure's value: a finite number, or null (undefined). */
static int figure_like(json_object *v)
{
    if (!v || json_object_is_type(v, json_type_null))
        return 1;
    return (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) &&
           isfinite(json_object_get_double(v));
}

/* Checks run i's "figures" (or, spread, its "spread") object: every
 * registry figure in it a number or null (a spread entry an object of
 * them). Counts in *numbers the figures with a number. 0, or -1 with a
 * message naming the JSON path. */
static int check_figures(json_object *run, size_t i, const char *path, int spread,
                         size_t *numbers, char *err, size_t errcap)
{
    const char *member = spread ? "spread" : "figures";
    json_object *figures = NULL;
    char found[96];
    if (!json_object_object_get_ex(run, member, &figures) ||
        !json_object_is_type(figures, json_type_object)) {
        snprintf(err, errcap, "%s: runs[%zu].%s: expected an object of figures (the output of "
                 "--format json), found %s", path, i, member,
                 figures ? found_text(figures, found, sizeof found) : "none");
        return -1;
    }
    static const char *const stats[] = { "min", "median", "max" };
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
        json_object *v;
        if (!json_object_object_get_ex(figures, f->name, &v))
            continue; /* a figure added since the baseline was made */
        if (!spread) {
            if (!figure_like(v)) {
                snprintf(err, errcap, "%s: runs[%zu].figures.%s: expected a number or null, "
                         "found %s", path, i, f->name, found_text(v, found, sizeof found));
                return -1;
            }
            *numbers += v && !json_object_is_type(v, json_type_null);
            continue;
        }
        if (!json_object_is_type(v, json_type_object)) {
            snprintf(err, errcap, "%s: runs[%zu].spread.%s: expected {\"min\", \"median\", "
                     "\"max\"}, found %s", path, i, f->name, found_text(v, found, sizeof found));
            return -1;
        }
        for (size_t k = 0; k < 3; k++) {
            json_object *x = NULL;
            if (!json_object_object_get_ex(v, stats[k], &x) || !figure_like(x)) {
                snprintf(err, errcap, "%s: runs[%zu].spread.%s.%s: expected a number or null, "
                         "found %s", path, i, f->name, stats[k],
                         x ? found_text(x, found, sizeof found) : "none");
                return -1;
            }
        }
        json_object *median = NULL;
        json_object_object_get_ex(v, "median", &median);
        *numbers += median && !json_object_is_type(median, json_type_null);
    }
    return 0;
}

/* Every run of the (readable) baseline: an object with a "scheme" and
 * well-formed "figures" (and "spread", when it has one); and some figure
 * of some run a number. 0, or -1 with a message. */
static int check_runs(json_object *root, const char *path, char *err, size_t errcap)
{
    json_object *runs = json_member(root, "runs", json_type_array);
    json_object *samples = json_member(root, "samples", json_type_int);
    int with_samples = samples && json_object_get_int64(samples) > 1;
    size_t n = json_object_array_length(runs), numbers = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *run = json_object_array_get_idx(runs, i), *spread = NULL;
        if (!json_member(run, "scheme", json_type_string)) {
            snprintf(err, errcap, "%s: runs[%zu]: expected an object with a \"scheme\" name "
                     "and its \"figures\" (the output of --format json)", path, i);
            return -1;
        }
        if (check_figures(run, i, path, 0, &numbers, err, errcap) < 0)
            return -1;
        size_t unused = 0; /* with samples, the medians are compared (counted below) */
        json_object_object_get_ex(run, "spread", &spread);
        if ((spread || with_samples) &&
            check_figures(run, i, path, 1, with_samples ? &numbers : &unused, err, errcap) < 0)
            return -1;
    }
    if (numbers == 0) {
        snprintf(err, errcap, "%s: no figure to compare: %s (expected the output of --format "
                 "json; a baseline that compares nothing checks nothing)", path,
                 n == 0 ? "\"runs\" is empty"
                        : "no run's \"figures\" has a figure of this regionsim with a value");
        return -1;
    }
    return 0;
}

/* The values with a number of run's "figures" (spread: the medians of
 * its "spread"), in registry order, as the comparison reads them: into
 * values + *n, or only counted when values is NULL. */
static void take_values(json_object *run, int spread, old_value *values, size_t *n)
{
    json_object *figures = json_member(run, spread ? "spread" : "figures", json_type_object);
    for (const figure *f = figure_first(FIGURE_SCHEME); figures && f; f = figure_next(f)) {
        json_object *v;
        if (!json_object_object_get_ex(figures, f->name, &v))
            continue;
        if (spread && (!json_object_is_type(v, json_type_object) ||
                       !json_object_object_get_ex(v, "median", &v)))
            continue;
        if (!(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
            continue;
        if (values)
            values[*n] = (old_value){ (uint32_t)figure_index(f), json_object_get_double(v) };
        ++*n;
    }
}

/* A copy of s, or NULL when out of memory. */
static char *copy(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

/* What the comparison needs of the (checked) document root, into b;
 * 0, or -1 when out of memory. Two passes over the runs: count, fill. */
static int keep(json_object *root, const char *path, baseline *b)
{
    json_object *runs = json_member(root, "runs", json_type_array), *samples = NULL;
    b->path = copy(path);
    b->scenario = copy(string_at(root, "scenario", NULL));
    b->workload = copy(string_at(root, "workload", "description"));
    if (json_object_object_get_ex(root, "samples", &samples) && samples) {
        b->samples_given = 1;
        b->samples_int = json_object_is_type(samples, json_type_int);
        b->samples = json_object_get_int64(samples);
    }
    json_object *m;
    b->measure_auto = json_object_object_get_ex(root, "measure_auto", &m) &&
                      json_object_is_type(m, json_type_boolean) && json_object_get_boolean(m);
    if (json_object_object_get_ex(root, "measure_from_us", &m) &&
        json_object_is_type(m, json_type_int))
        b->measure_from_us = (uint64_t)json_object_get_int64(m);
    b->nruns = json_object_array_length(runs);
    size_t nvalues = 0, nnames = 0;
    for (size_t i = 0; i < b->nruns; i++) {
        json_object *run = json_object_array_get_idx(runs, i);
        take_values(run, 0, NULL, &nvalues);
        take_values(run, 1, NULL, &nvalues);
        nnames += strlen(json_object_get_string(json_member(run, "scheme", json_type_string))) + 1;
    }
    b->runs = malloc((b->nruns ? b->nruns : 1) * sizeof *b->runs);
    b->values = malloc((nvalues ? nvalues : 1) * sizeof *b->values);
    b->names = malloc(nnames ? nnames : 1);
    if (!b->path || !b->scenario || !b->workload || !b->runs || !b->values || !b->names)
        return -1;
    size_t n = 0;
    char *name = b->names;
    for (size_t i = 0; i < b->nruns; i++) {
        json_object *run = json_object_array_get_idx(runs, i);
        old_run *r = &b->runs[i];
        const char *scheme = json_object_get_string(json_member(run, "scheme", json_type_string));
        size_t len = strlen(scheme) + 1;
        r->scheme = memcpy(name, scheme, len);
        name += len;
        r->figures = n;
        take_values(run, 0, b->values, &n);
        r->nfigures = n - r->figures;
        r->medians = n;
        take_values(run, 1, b->values, &n);
        r->nmedians = n - r->medians;
    }
    return 0;
}

int baseline_load(const char *path, uint64_t max, baseline **out, char *err, size_t errcap)
{
    *out = NULL;
    json_object *root = json_read_file(path, max, NULL, err, errcap);
    if (!root)
        return -1;
    int ok = readable(root, path, err, errcap) && check_runs(root, path, err, errcap) == 0;
    baseline *b = ok ? calloc(1, sizeof *b) : NULL;
    if (ok && (!b || keep(root, path, b) < 0)) {
        snprintf(err, errcap, "out of memory reading %s", path);
        baseline_free(b);
        b = NULL;
        ok = 0;
    }
    json_object_put(root);
    *out = b;
    return ok ? 0 : -1;
}

void baseline_free(baseline *b)
{
    if (!b)
        return;
    free(b->path);
    free(b->scenario);
    free(b->workload);
    free(b->runs);
    free(b->values);
    free(b->names);
    free(b);
}

double baseline_as_written(double v)
{
    char buf[CELL];
    const char *s = fmt_number(buf, v);
    return s[0] ? strtod(s, NULL) : NAN;
}

/* Whether moving from old to new by more than the tolerance. */
static int beyond(double old, double now, double tolerance)
{
    double scale = old != 0 ? fabs(old) : 1;
    return fabs(now - old) > tolerance * scale;
}

baseline_verdict baseline_judge(const figure *f, double old, double now, double tolerance)
{
    if (!beyond(old, now, tolerance))
        return BASELINE_SAME;
    if (f->better == FIGURE_NEITHER)
        return BASELINE_CHANGED;
    int higher = now > old;
    return higher == (f->better == FIGURE_HIGHER_BETTER) ? BASELINE_IMPROVEMENT
                                                         : BASELINE_REGRESSION;
}

static int add_change(baseline_report *r, size_t *cap, baseline_change c)
{
    if (r->nchanges == *cap) {
        size_t n = *cap ? 2 * *cap : 16;
        baseline_change *p = realloc(r->changes, n * sizeof *p);
        if (!p)
            return -1;
        r->changes = p;
        *cap = n;
    }
    r->changes[r->nchanges++] = c;
    return 0;
}

/* Compares run i of res with the baseline's run of the same scheme: each
 * figure's value, or with samples its median across them. Both lists are
 * in the registry's order: one cursor walks the baseline's. */
static int compare_run(const baseline *b, const sim_results *res, size_t i, const old_run *o,
                       double tolerance, baseline_report *r, size_t *cap)
{
    const run_result *run = &res->runs[i];
    int spread = res->nsamples > 1;
    const old_value *v = b->values + (spread ? o->medians : o->figures);
    const old_value *end = v + (spread ? o->nmedians : o->nfigures);
    for (const figure *f = figure_first(FIGURE_SCHEME); f && v < end; f = figure_next(f)) {
        if (v->figure != figure_index(f))
            continue; /* none in the baseline (null or missing) */
        double old = (v++)->value;
        double now = baseline_as_written(spread ? samples_spread(f, res, i).median
                                                : figure_value(f, run, 0));
        if (!isfinite(old) || !isfinite(now))
            continue;
        r->compared++;
        baseline_verdict verdict = baseline_judge(f, old, now, tolerance);
        if (verdict == BASELINE_SAME)
            continue;
        r->regressions += verdict == BASELINE_REGRESSION;
        baseline_change c = { run->scheme_name, f, old, now, baseline_relative(old, now), verdict };
        if (add_change(r, cap, c) < 0)
            return -1;
    }
    return 0;
}

int baseline_compare(const baseline *b, const sim_results *res, double tolerance,
                     baseline_report *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    out->samples = res->nsamples ? res->nsamples : 1;
    if (!comparable(b, res, err, errcap))
        return -1;
    int ok = 1;
    size_t cap = 0, matched = 0;
    for (size_t i = 0; ok && i < res->nruns; i++) {
        const old_run *old = baseline_run(b, res->runs[i].scheme_name);
        if (!old) {
            out->schemes_missing++;
            continue;
        }
        matched++;
        if (compare_run(b, res, i, old, tolerance, out, &cap) < 0) {
            snprintf(err, errcap, "out of memory comparing with %s", b->path);
            ok = 0;
        }
    }
    if (ok && matched == 0) {
        snprintf(err, errcap, "%s: none of this run's schemes is in the baseline", b->path);
        ok = 0;
    } else if (ok && out->compared == 0) {
        snprintf(err, errcap, "%s: no figure compared: where this run has a value, the "
                 "baseline's runs of the same schemes have none (null or missing)%s; a "
                 "baseline that compares nothing checks nothing", b->path,
                 out->samples > 1 ? " in their \"spread\"" : "");
        ok = 0;
    }
    if (!ok) {
        baseline_report_free(out);
        return -1;
    }
    return 0;
}

void baseline_report_free(baseline_report *r)
{
    free(r->changes);
    memset(r, 0, sizeof *r);
}

int baseline_parse_tolerance(const char *text, double *out)
{
    char *end;
    double t = strtod(text, &end);
    if (!text[0] || *end || !(t >= 0 && t <= 1e6))
        return -1;
    *out = t;
    return 0;
}

double baseline_relative(double old, double now)
{
    return old != 0 ? (now - old) / fabs(old) : (now > old ? INFINITY : -INFINITY);
}

const char *baseline_verdict_name(baseline_verdict v)
{
    static const char *const names[] = { "same", "REGRESSION", "better", "changed" };
    return names[v];
}

/* Changes in the order a reader wants them: regressions, then the rest. */
static void write_changes(FILE *out, const baseline_report *r, int regressions)
{
    for (size_t i = 0; i < r->nchanges; i++) {
        const baseline_change *c = &r->changes[i];
        if ((c->verdict == BASELINE_REGRESSION) != regressions)
            continue;
        char change[32];
        fprintf(out, "  %-16s %-32s %14.6g %14.6g %9s  %s\n", c->scheme, c->figure->name,
                c->old_value, c->new_value, baseline_change_text(change, sizeof change, c->relative),
                baseline_verdict_name(c->verdict));
    }
}

const char *baseline_change_text(char *buf, size_t cap, double relative)
{
    if (isfinite(relative))
        snprintf(buf, cap, "%+.1f%%", relative * 100);
    else
        snprintf(buf, cap, "from 0");
    return buf;
}

void baseline_write(FILE *out, const char *path, const baseline_report *r, double tolerance)
{
    fprintf(out, "baseline %s: %zu figures compared, %zu regression%s beyond %.6g%%", path,
            r->compared, r->regressions, r->regressions == 1 ? "" : "s", tolerance * 100);
    if (r->samples > 1)
        fprintf(out, " (medians of %u samples)", (unsigned)r->samples);
    if (r->schemes_missing)
        fprintf(out, " (%zu scheme%s not in the baseline)", r->schemes_missing,
                r->schemes_missing == 1 ? "" : "s");
    fputc('\n', out);
    if (r->nchanges == 0)
        return;
    fprintf(out, "  %-16s %-32s %14s %14s %9s  %s\n", "scheme", "figure", "baseline", "now",
            "change", "verdict");
    write_changes(out, r, 1);
    write_changes(out, r, 0);
}
