/* baseline.c -- a run's figures against a previous run's JSON report,
 * and the gate: which figures, how far each may move.
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
 * run its scheme and each figure with a value as (registry index, band)
 * in registry order, the band the value three times or, with samples, the
 * min, median and max of its "spread": 32 bytes a figure, where the
 * document spends at least its name, quotes and colon.
 * Nothing reads the file again, so a pipe or a FIFO is a baseline like a
 * file, and a file replaced during the run changes nothing.
 *
 * After the run (baseline_compare) it must be of the same scenario (the
 * same name and workload description: comparing a salted run of one
 * workload with another workload's says nothing); either side may have
 * any number of samples. Then, for every run of this result whose scheme
 * the baseline also ran, every figure the gate judges is compared where
 * both values are defined: this run's value, or with samples its median
 * (reports/samples.h); if that compares nothing at all, the baseline is
 * refused too.
 *
 * Like with like: the JSON report writes each figure as fmt_number does
 * (integers whole, others to 6 significant digits), so this run's value is
 * taken as the report would write it (baseline_as_written) before it is
 * judged; a report compared with itself is the same with no tolerance.
 *
 * The rule (baseline_judge): the band [min, max] of the baseline's
 * samples (one run: its value), widened at each edge x by max(relative x
 * |x|, absolute). A figure that moves with the seed passes wherever the
 * baseline's own seeds put it; the floor keeps a figure near 0 (write_cov
 * 0.00226 -> 0.00242: +7%, and nothing at the figure's scale) from
 * failing on noise, and with a floor of 0 any change from 0 counts (a
 * count from 0 to 1). Which way is worse comes from the figure
 * (figure.better); a figure without a direction is listed as changed and
 * never fails a run. The alternatives: a test of this run's samples
 * against the baseline's (a t-test, Mann-Whitney) needs more samples
 * than a CI job runs (5) to say anything and says "significant" of moves
 * too small to matter; the band with a floor is what a person can check
 * by hand from the table.
 *
 * The gate's defaults (the headline table below) say why each figure is
 * in; the others get 5% and a floor by their unit. A gate is a plain
 * value filled from the options (baseline_gate_figures,
 * baseline_gate_tolerance), checked across them (baseline_gate_check).
 */
#include "reports/baseline.h"

#include <assert.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/json_read.h"
#include "reports/report.h"
#include "reports/samples.h"

/* A figure with a value: its registry index (figure_index) and its band
 * (one run: the value three times; with samples, its "spread"). */
typedef struct old_value {
    uint32_t figure;
    baseline_band band;
} old_value;

/* A run of the baseline: its scheme and its values, in the registry's
 * order. */
typedef struct old_run {
    const char *scheme;        /* in the baseline's names */
    size_t first, n;           /* its values: values[first .. first + n) */
} old_run;

struct baseline {
    char *path;
    char *scenario, *workload; /* "scenario" and "workload"."description"; "" when none */
    uint32_t samples;          /* "samples" (1 when absent or null) */
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

int baseline_measured_alike(const char *path, const char *noun, int old_auto,
                            uint64_t old_from_us, int now_auto, uint64_t now_from_us, char *err,
                            size_t errcap)
{
    if (old_auto == now_auto && (old_auto || old_from_us == now_from_us))
        return 1;
    char was[2 * CELL], now[2 * CELL];
    measured_words(old_auto, old_from_us, was, sizeof was);
    measured_words(now_auto, now_from_us, now, sizeof now);
    snprintf(err, errcap, "%s: a baseline measured %s; this %s is measured %s: compare %ss "
             "measured alike (set measure_from to match, or make the baseline again)", path, was,
             noun, now, noun);
    return 0;
}

/* Whether b can be compared with res: the same scenario, measured alike;
 * else a message in err. (Any numbers of samples compare: this run's
 * median against the baseline's range.) */
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
    return baseline_measured_alike(b->path, "run", b->measure_auto, b->measure_from_us,
                                   res->measure_auto, res->measure_from_us, err, errcap);
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

int baseline_check_run(json_object *run, const char *where, const char *path, int spread,
                       size_t *numbers, char *err, size_t errcap)
{
    const char *member = spread ? "spread" : "figures";
    json_object *figures = NULL;
    char found[96];
    if (!json_object_object_get_ex(run, member, &figures) ||
        !json_object_is_type(figures, json_type_object)) {
        snprintf(err, errcap, "%s: %s.%s: expected an object of figures (the output of "
                 "--format json), found %s", path, where, member,
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
                snprintf(err, errcap, "%s: %s.figures.%s: expected a number or null, "
                         "found %s", path, where, f->name, found_text(v, found, sizeof found));
                return -1;
            }
            *numbers += v && !json_object_is_type(v, json_type_null);
            continue;
        }
        if (!json_object_is_type(v, json_type_object)) {
            snprintf(err, errcap, "%s: %s.spread.%s: expected {\"min\", \"median\", "
                     "\"max\"}, found %s", path, where, f->name, found_text(v, found, sizeof found));
            return -1;
        }
        for (size_t k = 0; k < 3; k++) {
            json_object *x = NULL;
            if (!json_object_object_get_ex(v, stats[k], &x) || !figure_like(x)) {
                snprintf(err, errcap, "%s: %s.spread.%s.%s: expected a number or null, "
                         "found %s", path, where, f->name, stats[k],
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

/* The baseline's "samples": absent or null (one run), or a whole number
 * from 1 (the runs' figures then the median of that many samples, each
 * run's "spread" their range). Into *out; 0, or -1 with a message. */
static int check_samples(json_object *root, const char *path, uint32_t *out, char *err,
                         size_t errcap)
{
    json_object *samples = NULL;
    char found[96];
    *out = 1;
    if (!json_object_object_get_ex(root, "samples", &samples) || !samples)
        return 0;
    int64_t n = json_object_is_type(samples, json_type_int) ? json_object_get_int64(samples) : 0;
    if (n < 1 || n > UINT32_MAX) {
        snprintf(err, errcap, "%s: samples: expected a whole number of samples from 1, found %s",
                 path, found_text(samples, found, sizeof found));
        return -1;
    }
    *out = (uint32_t)n;
    return 0;
}

/* Every run of the (readable) baseline: an object with a "scheme" and
 * well-formed "figures" (and "spread", when it has one); and some figure
 * of some run a number. 0, or -1 with a message. */
static int check_runs(json_object *root, const char *path, char *err, size_t errcap)
{
    json_object *runs = json_member(root, "runs", json_type_array);
    uint32_t samples;
    if (check_samples(root, path, &samples, err, errcap) < 0)
        return -1;
    int with_samples = samples > 1;
    size_t n = json_object_array_length(runs), numbers = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *run = json_object_array_get_idx(runs, i), *spread = NULL;
        if (!json_member(run, "scheme", json_type_string)) {
            snprintf(err, errcap, "%s: runs[%zu]: expected an object with a \"scheme\" name "
                     "and its \"figures\" (the output of --format json)", path, i);
            return -1;
        }
        char where[48];
        snprintf(where, sizeof where, "runs[%zu]", i);
        if (baseline_check_run(run, where, path, 0, &numbers, err, errcap) < 0)
            return -1;
        size_t unused = 0; /* with samples, the medians are compared (counted below) */
        json_object_object_get_ex(run, "spread", &spread);
        if ((spread || with_samples) &&
            baseline_check_run(run, where, path, 1, with_samples ? &numbers : &unused, err,
                               errcap) < 0)
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

/* A number of a spread's entry v (an object: checked), or NAN. */
static double spread_stat(json_object *v, const char *stat)
{
    json_object *x;
    if (!json_object_object_get_ex(v, stat, &x) ||
        !(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
        return NAN;
    return json_object_get_double(x);
}

int baseline_band_of(json_object *run, const figure *f, baseline_band *band)
{
    json_object *spread = json_member(run, "spread", json_type_object);
    json_object *figures = spread ? spread : json_member(run, "figures", json_type_object), *v;
    if (!figures || !json_object_object_get_ex(figures, f->name, &v))
        return -1;
    if (!spread) {
        if (!(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
            return -1;
        double x = json_object_get_double(v);
        *band = (baseline_band){ x, x, x };
        return 0;
    }
    if (!json_object_is_type(v, json_type_object))
        return -1;
    double median = spread_stat(v, "median"), lo = spread_stat(v, "min"),
           hi = spread_stat(v, "max");
    if (isnan(median))
        return -1;
    lo = isnan(lo) || lo > median ? median : lo;
    hi = isnan(hi) || hi < median ? median : hi;
    *band = (baseline_band){ lo, median, hi };
    return 0;
}

/* The values with a number of a run (with samples, the bands of its
 * "spread"), in registry order, as the comparison reads them: into
 * values + *n, or only counted when values is NULL. */
static void take_values(json_object *run, old_value *values, size_t *n)
{
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
        baseline_band band;
        if (baseline_band_of(run, f, &band) < 0)
            continue;
        if (values)
            values[*n] = (old_value){ (uint32_t)figure_index(f), band };
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
    json_object *runs = json_member(root, "runs", json_type_array);
    char unused[8];
    b->path = copy(path);
    b->scenario = copy(string_at(root, "scenario", NULL));
    b->workload = copy(string_at(root, "workload", "description"));
    check_samples(root, path, &b->samples, unused, sizeof unused); /* checked: cannot fail */
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
        take_values(run, NULL, &nvalues);
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
        r->first = n;
        take_values(run, b->values, &n);
        r->n = n - r->first;
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

/* ---- the gate: which figures, how far each may move ---- */

/* The headline figures: what --baseline judges by default, with their
 * tolerances. Each says something a key design or a cluster setting is
 * chosen for, and holds still across seeds where nothing changed (the
 * spread of examples/ci.ini over 20 seeds is in docs/ci.md). Left out:
 * the latency tails past p99 and the mean (a few queued RPCs at one seed
 * move them by 10x: p999 50 us at seed 42, 31 ms at 50), counts (regions,
 * splits, moves: no direction is better, and the balancer's draw moves
 * them), the whole-run cov, gini and jain (the same story as
 * write_max_mean, and near 0 where the keys are even, so any wobble is a
 * large relative change), the per-read-kind families (rpcs_per_read and
 * rows_scanned_per_row sum them up). */
static const struct headline {
    const char *name;
    double relative, absolute;
} headline[] = {
    /* the busiest server's writes over the mean server's: what a row key
     * design is for. Floor: 5% of one server's mean */
    { "write_max_mean", 0.05, 0.05 },
    /* the same within each window, averaged: the hotspot's size at any
     * moment, which stays put where the whole-run figure moves with the
     * balancer's draw (8.00 on 8 servers for a timestamp key at every seed) */
    { "write_window_max_mean", 0.05, 0.05 },
    /* the busiest server's share of the writes: the hotspot in plain
     * terms, and what halving the servers doubles. Floor: one point */
    { "hottest_share", 0.05, 0.01 },
    /* the reads' balance, as write_max_mean */
    { "read_max_mean", 0.05, 0.05 },
    /* what the key order costs a reader: RPCs per logical read (a salt of
     * 8 buckets makes a scan 8). Floor: 5 RPCs in 100 reads */
    { "rpcs_per_read", 0.05, 0.05 },
    /* rows read per row returned: what a key order wastes */
    { "rows_scanned_per_row", 0.05, 0.05 },
    /* operations completed per second: less than offered is overload;
     * seeds move it by under 0.1%, so 2% is a change */
    { "achieved_ops_per_s", 0.02, 1 },
    /* the busiest server's service time over the run: how near overload.
     * Floor: 2 points of a server's time */
    { "busiest_busy", 0.05, 0.02 },
    /* latency as a client sees it, where queueing shows first. Floor: 1 ms
     * (below it, a few queued RPCs of 50 us) */
    { "p99_latency_us", 0.10, 1000 },
};

static const struct headline *headline_of(const figure *f)
{
    for (size_t i = 0; i < sizeof headline / sizeof *headline; i++)
        if (!strcmp(headline[i].name, f->name))
            return &headline[i];
    return NULL;
}

int baseline_headline(const figure *f)
{
    return f->scope == FIGURE_SCHEME && headline_of(f) != NULL;
}

/* Whether f is a ratio whose even value is 1 (max/mean, RPCs a read, rows
 * a row): its scale is that 1, as write_max_mean's. */
static int ratio_of_one(const figure *f)
{
    return strstr(f->name, "max_mean") || strstr(f->name, "per_read") ||
           strstr(f->name, "per_row");
}

baseline_tol baseline_default_tol(const figure *f)
{
    const struct headline *h = headline_of(f);
    if (h)
        return (baseline_tol){ h->relative, h->absolute };
    double floor = 0; /* a count or a size: relative alone; from 0, any change */
    if (!strcmp(f->unit, "") || !strcmp(f->unit, "share"))
        floor = ratio_of_one(f) ? 0.05 : 0.01;
    else if (!strcmp(f->unit, "us"))
        floor = 1000;
    else if (!strcmp(f->unit, "ops/s"))
        floor = 1;
    return (baseline_tol){ BASELINE_TOLERANCE, floor };
}

void baseline_gate_init(baseline_gate *g)
{
    memset(g, 0, sizeof *g);
    assert(figure_count() <= BASELINE_MAX_FIGURES);
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
        g->judged[figure_index(f)] = (unsigned char)baseline_headline(f);
}

/* The scheme figure named by s[0..len), or NULL with a message. */
static const figure *named_figure(const char *option, const char *s, size_t len, char *err,
                                  size_t errcap)
{
    char name[64], near[96] = "";
    if (len == 0 || len >= sizeof name) {
        snprintf(err, errcap, "%s: expected a figure name (regionsim figures lists them), "
                 "found '%.*s'", option, (int)(len < 60 ? len : 60), s);
        return NULL;
    }
    memcpy(name, s, len);
    name[len] = '\0';
    const figure *f = figure_find(name);
    if (f && f->scope != FIGURE_SCHEME) {
        snprintf(err, errcap, "%s: '%s' is a server figure; a baseline compares scheme figures",
                 option, name);
        return NULL;
    }
    if (!f) {
        const char *n = figure_nearest(name);
        if (n)
            snprintf(near, sizeof near, " (did you mean '%s'?)", n);
        snprintf(err, errcap, "%s: unknown figure '%s'%s; regionsim figures lists them", option,
                 name, near);
    }
    return f;
}

int baseline_gate_figures(baseline_gate *g, const char *list, char *err, size_t errcap)
{
    if (!g->figures_given)
        memset(g->judged, 0, sizeof g->judged);
    g->figures_given = 1;
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 8 && !strncmp(p, "headline", 8)) {
            for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
                g->judged[figure_index(f)] |= (unsigned char)baseline_headline(f);
        } else if (len == 3 && !strncmp(p, "all", 3)) {
            for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
                g->judged[figure_index(f)] = 1;
        } else {
            const figure *f = named_figure("--baseline-figures", p, len, err, errcap);
            if (!f)
                return -1;
            g->judged[figure_index(f)] = 1;
        }
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

/* A tolerance's number: 0 to max, nothing after it; 0 or -1. */
static int parse_amount(const char *text, double max, double *out)
{
    char *end;
    double t = strtod(text, &end);
    if (!text[0] || *end || !(t >= 0 && t <= max))
        return -1;
    *out = t;
    return 0;
}

int baseline_gate_tolerance(baseline_gate *g, const char *text, int absolute, char *err,
                            size_t errcap)
{
    const char *option = absolute ? "--tolerance-abs" : "--tolerance";
    const char *what = absolute ? "an absolute change in the figure's unit such as 0.01"
                                : "a relative change such as 0.05";
    double max = absolute ? 1e15 : 1e6, v;
    const char *eq = strchr(text, '=');
    const figure *f = NULL;
    if (eq && !(f = named_figure(option, text, (size_t)(eq - text), err, errcap)))
        return -1;
    if (parse_amount(eq ? eq + 1 : text, max, &v) < 0) {
        snprintf(err, errcap, "%s: expected %s (0 to %g), or FIGURE=%s, found '%.80s'", option,
                 what, max, absolute ? "ABS" : "REL", text);
        return -1;
    }
    if (!f && absolute) {
        g->absolute = v;
        g->absolute_given = 1;
    } else if (!f) {
        g->relative = v;
        g->relative_given = 1;
    } else if (absolute) {
        g->fig_absolute[figure_index(f)] = v;
        g->fig_absolute_given[figure_index(f)] = 1;
    } else {
        g->fig_relative[figure_index(f)] = v;
        g->fig_relative_given[figure_index(f)] = 1;
    }
    return 0;
}

int baseline_gate_check(const baseline_gate *g, char *err, size_t errcap)
{
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f)) {
        size_t i = figure_index(f);
        if (g->judged[i] || !(g->fig_relative_given[i] || g->fig_absolute_given[i]))
            continue;
        snprintf(err, errcap, "%s %s=%g: %s is not judged; add it with --baseline-figures "
                 "%s%s", g->fig_relative_given[i] ? "--tolerance" : "--tolerance-abs", f->name,
                 g->fig_relative_given[i] ? g->fig_relative[i] : g->fig_absolute[i], f->name,
                 g->figures_given ? "...," : "headline,", f->name);
        return -1;
    }
    if (baseline_gate_count(g) == 0) { /* (cannot happen: every list names one) */
        snprintf(err, errcap, "--baseline-figures: no figure chosen");
        return -1;
    }
    return 0;
}

int baseline_gate_judges(const baseline_gate *g, const figure *f)
{
    return f->scope == FIGURE_SCHEME && g->judged[figure_index(f)];
}

baseline_tol baseline_gate_tol(const baseline_gate *g, const figure *f)
{
    size_t i = figure_index(f);
    baseline_tol t = baseline_default_tol(f);
    if (g->fig_relative_given[i])
        t.relative = g->fig_relative[i];
    else if (g->relative_given)
        t.relative = g->relative;
    if (g->fig_absolute_given[i])
        t.absolute = g->fig_absolute[i];
    else if (g->absolute_given)
        t.absolute = g->absolute;
    return t;
}

size_t baseline_gate_count(const baseline_gate *g)
{
    size_t n = 0;
    for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
        n += g->judged[figure_index(f)];
    return n;
}

/* ---- judging ---- */

/* How far beyond a band's edge at x a figure may go. */
static double slack(double x, baseline_tol tol)
{
    double rel = tol.relative * fabs(x);
    return rel > tol.absolute ? rel : tol.absolute;
}

int baseline_moves(const baseline_gate *g, const figure *f, baseline_band old)
{
    if (g->figures_given || !(old.max > old.min))
        return 0;
    return old.max - old.min > 2 * slack(old.median, baseline_gate_tol(g, f));
}

baseline_verdict baseline_judge(const figure *f, baseline_band old, double now,
                                baseline_tol tol, double *limit)
{
    /* the band the baseline's seeds spanned, widened by half its width at
     * each edge: a few seeds do not span a figure that moves with the seed
     * (a median of 5 other seeds lands outside 5 seeds' range about one
     * time in four), so a wide range allows more, a narrow one little;
     * then the figure's tolerance at each edge */
    double half = (old.max - old.min) / 2;
    double top = old.max + half, bottom = old.min - half;
    double hi = top + slack(top, tol), lo = bottom - slack(bottom, tol);
    int higher = now > hi, lower = now < lo;
    if (limit)
        *limit = lower ? lo : hi;
    if (!higher && !lower)
        return BASELINE_SAME;
    if (f->better == FIGURE_NEITHER)
        return BASELINE_CHANGED;
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
 * figure g judges, its value (with samples, its median across them)
 * against the baseline's band. Both lists are in the registry's order:
 * one cursor walks the baseline's. */
static int compare_run(const baseline *b, const sim_results *res, size_t i, const old_run *o,
                       const baseline_gate *g, baseline_report *r, size_t *cap)
{
    const run_result *run = &res->runs[i];
    int spread = res->nsamples > 1;
    const old_value *v = b->values + o->first, *end = v + o->n;
    for (const figure *f = figure_first(FIGURE_SCHEME); f && v < end; f = figure_next(f)) {
        if (v->figure != figure_index(f))
            continue; /* none in the baseline (null or missing) */
        baseline_band old = (v++)->band;
        if (!baseline_gate_judges(g, f))
            continue;
        double now = baseline_as_written(spread ? samples_spread(f, res, i).median
                                                : figure_value(f, run, 0));
        if (!isfinite(old.min) || !isfinite(old.median) || !isfinite(old.max) ||
            !isfinite(now))
            continue;
        if (baseline_moves(g, f, old)) {
            r->moving++;
            continue;
        }
        r->compared++;
        double limit;
        baseline_verdict verdict = baseline_judge(f, old, now, baseline_gate_tol(g, f), &limit);
        if (verdict == BASELINE_SAME)
            continue;
        r->regressions += verdict == BASELINE_REGRESSION;
        baseline_change c = { run->scheme_name, f, old, now, limit,
                              baseline_relative(old.median, now), verdict };
        if (add_change(r, cap, c) < 0)
            return -1;
    }
    return 0;
}

int baseline_compare(const baseline *b, const sim_results *res, const baseline_gate *g,
                     baseline_report *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    out->samples = res->nsamples ? res->nsamples : 1;
    out->old_samples = b->samples;
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
        if (compare_run(b, res, i, old, g, out, &cap) < 0) {
            snprintf(err, errcap, "out of memory comparing with %s", b->path);
            ok = 0;
        }
    }
    if (ok && matched == 0) {
        snprintf(err, errcap, "%s: none of this run's schemes is in the baseline", b->path);
        ok = 0;
    } else if (ok && out->compared == 0) {
        snprintf(err, errcap, "%s: no figure compared: of the %zu figures judged "
                 "(--baseline-figures), where this run has a value, the baseline's runs of the "
                 "same schemes have none (null or missing)%s; a baseline that compares nothing "
                 "checks nothing", b->path, baseline_gate_count(g),
                 b->samples > 1 ? " in their \"spread\"" : "");
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

double baseline_relative(double old, double now)
{
    return old != 0 ? (now - old) / fabs(old) : (now > old ? INFINITY : -INFINITY);
}

const char *baseline_verdict_name(baseline_verdict v)
{
    static const char *const names[] = { "same", "REGRESSION", "better", "changed" };
    return names[v];
}

const char *baseline_change_text(char *buf, size_t cap, double relative)
{
    if (isfinite(relative))
        snprintf(buf, cap, "%+.1f%%", relative * 100);
    else
        snprintf(buf, cap, "from 0");
    return buf;
}

/* ---- the tables ---- */

const char *baseline_change_header(char *buf, size_t cap)
{
    snprintf(buf, cap, "%-28s %12s %21s %14s %12s %9s  %s", "figure", "baseline", "range",
             "allowed", "now", "change", "verdict");
    return buf;
}

const char *baseline_change_columns(char *buf, size_t cap, const figure *f, baseline_band old,
                                    double now, double limit, double relative,
                                    baseline_verdict verdict)
{
    char range[48], allowed[32], change[32];
    if (old.min == old.max)
        snprintf(range, sizeof range, "-");
    else
        snprintf(range, sizeof range, "%.6g..%.6g", old.min, old.max);
    snprintf(allowed, sizeof allowed, "%s %.6g", now < limit ? ">=" : "<=", limit);
    snprintf(buf, cap, "%-28s %12.6g %21s %14s %12.6g %9s  %s", f->name, old.median, range,
             allowed, now, baseline_change_text(change, sizeof change, relative),
             baseline_verdict_name(verdict));
    return buf;
}

/* Changes in the order a reader wants them: regressions, then the rest. */
static void write_changes(FILE *out, const baseline_report *r, int regressions)
{
    for (size_t i = 0; i < r->nchanges; i++) {
        const baseline_change *c = &r->changes[i];
        if ((c->verdict == BASELINE_REGRESSION) != regressions)
            continue;
        char cols[256];
        fprintf(out, "  %-16s %s\n", c->scheme,
                baseline_change_columns(cols, sizeof cols, c->figure, c->old, c->new_value,
                                        c->limit, c->relative, c->verdict));
    }
}

/* " (the median of 5 samples against the range of the baseline's 5)" and
 * the like: what was compared with what. */
static void write_samples(FILE *out, uint32_t now, uint32_t old)
{
    if (now <= 1 && old <= 1)
        return;
    fputs(" (", out);
    if (now > 1)
        fprintf(out, "the median of %u samples", (unsigned)now);
    else
        fputs("one run", out);
    if (old > 1)
        fprintf(out, " against the range of the baseline's %u", (unsigned)old);
    else
        fputs(" against the baseline's one run", out);
    fputc(')', out);
}

void baseline_write(FILE *out, const char *path, const baseline_report *r)
{
    fprintf(out, "baseline %s: %zu figures compared, %zu regression%s", path, r->compared,
            r->regressions, r->regressions == 1 ? "" : "s");
    write_samples(out, r->samples, r->old_samples);
    if (r->schemes_missing)
        fprintf(out, " (%zu scheme%s not in the baseline)", r->schemes_missing,
                r->schemes_missing == 1 ? "" : "s");
    fputc('\n', out);
    if (r->nchanges == 0)
        return;
    char head[256];
    fprintf(out, "  %-16s %s\n", "scheme", baseline_change_header(head, sizeof head));
    write_changes(out, r, 1);
    write_changes(out, r, 0);
}

const char *baseline_passed_text(char *buf, size_t cap, const char *path,
                                 const baseline_report *r)
{
    int n = snprintf(buf, cap, "%zu figure%s within baseline %s", r->compared,
                     r->compared == 1 ? "" : "s", path);
    if (r->moving && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, " (%zu not judged: %s moved with the seed in "
                 "the baseline)", r->moving, r->moving == 1 ? "it" : "they");
    return buf;
}
