/* sweep_baseline.c -- a sweep's table against an earlier sweep's JSON.
 *
 * Design: the baseline is read once, before the sweep runs
 * (sweep_baseline_load), whole with json-c (a sweep's JSON is about 2.5 kB
 * a point and scheme; up to reports/json_read.h's cap, --max-input), and
 * checked there against the sweep's echo (its points and schemes): a
 * sweep report (`{"sweep": {...}}`, a run's report named as such), of
 * this program's SWEEP_JSON_VERSION, of the same scenario name and the
 * same variables (the same set of names; their order may differ, as the
 * points are matched by value). Each point is keyed by its values in this
 * table's variable order, every value prefixed by its length (so no value
 * can pass for two); the baseline's keys are sorted once and each of this
 * sweep's points looked up by bsearch: n log n for the 10,000 points a
 * sweep may have, where comparing every pair would be 10^8 string
 * compares. Schemes are matched by their label (the "scheme" of a run,
 * the same at every point; "run", which holds a point's substituted text,
 * is not).
 *
 * What the comparison needs is then kept and the document freed (json-c
 * holds one in 7 to 23 times its bytes): for each of this sweep's points
 * and schemes, the figures with a value of the baseline's run there, as
 * (registry index, value) in registry order, 16 bytes a figure. Nothing
 * reads the file again: a pipe or a FIFO is a baseline like a file, and a
 * file replaced while the sweep runs changes nothing. The comparison
 * (sweep_baseline_compare) reads that value and the filled table.
 *
 * The verdicts are reports/baseline.c's (baseline_judge, of the figures
 * the gate judges: baseline_gate), so a sweep and compare call the same
 * move a regression; a baseline run's band is its value, or the range of
 * its "spread" when it has one (baseline_band_of, checked by
 * baseline_check_run as compare's are). The new values are taken as
 * the sweep's JSON writes them (baseline_as_written: integers whole,
 * others to 6 significant digits, read back with strtod, as json-c reads
 * the old ones): the report compared with itself, or with a re-run that
 * matched it to those digits, shows no change even with no tolerance.
 * Figures the baseline does not have (a registry grown since) or either
 * side leaves undefined (null) are not compared, as compare does; a
 * figure of another type (a string, an array, ...) is refused with its
 * JSON path, and so is a baseline that would compare nothing at all (no
 * figure with a value, or none where this sweep has one): a gate that
 * compares nothing must not pass.
 *
 * Like with like: a baseline measured otherwise ("measure_auto",
 * "measure_from_us": past each run's warm-up against a fixed start, or two
 * fixed starts) is refused in sweep_baseline_compare, when the sweep's
 * own measuring is known (its first point's), before any report is
 * written: the figures would differ by the growing table, not a change.
 *
 * Messages name the file and what differs; nothing is printed here but
 * by sweep_baseline_write, so a caller refuses a baseline before writing
 * any report.
 */
#include "core/text.h"
#include "reports/sweep_baseline.h"

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/json_read.h"

/* A baseline point: its key and its index in "points". */
typedef struct old_point {
    char *key;
    size_t index;
} old_point;

/* A figure with a value: its registry index (figure_index) and band
 * (baseline_band_of: a run's value, or its samples' range). */
typedef struct old_figure {
    uint32_t figure;
    baseline_band band;
} old_figure;

struct sweep_baseline {
    char *path;
    size_t npoints, nschemes;  /* the table's it was loaded for */
    size_t *first;             /* npoints x nschemes + 1: the figures of point p, scheme s
                                * are values[first[i] .. first[i + 1]), i = p x nschemes + s
                                * (none: no run of the scheme at a matched point) */
    old_figure *values;
    sweep_baseline_report counts; /* the points and schemes matched */
    int measure_auto;          /* "measure_auto" true (a report before it existed: false) */
    uint64_t measure_from_us;  /* "measure_from_us" */
};

/* The baseline's document, read and checked against t. */
typedef struct loaded {
    json_object *root;
    json_object *points;      /* the baseline's "points" */
    json_object **match;      /* t->npoints: the baseline point at each point, or NULL */
    int *scheme_in_old;       /* t->nschemes: whether the baseline has the scheme */
    sweep_baseline_report counts;
} loaded;

static void loaded_free(loaded *L)
{
    if (L->root)
        json_object_put(L->root);
    free(L->match);
    free(L->scheme_in_old);
    memset(L, 0, sizeof *L);
}

/* The key of a point: each value as "LEN:VALUE", in t's variable order.
 * value(ctx, v) gives variable v's value (NULL: none). malloc'd; NULL when
 * out of memory or a value is missing (*missing then set). */
static char *point_key(const sweep_table *t, const char *(*value)(void *, size_t), void *ctx,
                       int *missing)
{
    size_t len = 1;
    *missing = 0;
    for (size_t v = 0; v < t->nvars; v++) {
        const char *s = value(ctx, v);
        if (!s) {
            *missing = 1;
            return NULL;
        }
        len += strlen(s) + 24;
    }
    char *key = malloc(len), *at = key;
    for (size_t v = 0; key && v < t->nvars; v++) {
        const char *s = value(ctx, v);
        if (!s) { /* (value is pure: only for the compiler, which cannot know) */
            free(key);
            *missing = 1;
            return NULL;
        }
        at += snprintf(at, len - (size_t)(at - key), "%zu:%s", strlen(s), s);
    }
    if (key && t->nvars == 0)
        key[0] = '\0';
    return key;
}

typedef struct new_ctx {
    const sweep_table *t;
    size_t p;
} new_ctx;

static const char *new_value(void *ctx, size_t v)
{
    new_ctx *c = ctx;
    return c->t->values[c->p * c->t->nvars + v];
}

typedef struct old_ctx {
    const sweep_table *t;
    json_object *values;
} old_ctx;

static const char *old_value(void *ctx, size_t v)
{
    old_ctx *c = ctx;
    json_object *s = json_member(c->values, c->t->var_names[v], json_type_string);
    return s ? json_object_get_string(s) : NULL;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const old_point *)a)->key, ((const old_point *)b)->key);
}

/* The names of a list of variables, ", " between them, into out. */
static void names_of(char *out, size_t cap, const char *(*name)(void *, size_t), void *ctx,
                     size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t v = 0; v < n && at < cap; v++) {
        int k = snprintf(out + at, cap - at, "%s%s", v ? ", " : "", name(ctx, v));
        if (k < 0)
            break;
        at += (size_t)k;
    }
}

static const char *table_var(void *ctx, size_t v)
{
    return ((const sweep_table *)ctx)->var_names[v];
}

static const char *json_var(void *ctx, size_t v)
{
    json_object *n = json_member(json_object_array_get_idx(ctx, v), "name", json_type_string);
    return n ? json_object_get_string(n) : "?";
}

/* The document's kind, version, scenario and variables; 0 or -1. */
static int check_header(json_object *root, const char *path, const sweep_table *t, char *err,
                        size_t errcap)
{
    json_object *sw = json_member(root, "sweep", json_type_object);
    if (!sw) {
        if (json_member(root, "regionsim", json_type_int))
            snprintf(err, errcap, "%s: a run's JSON report, not a sweep's: give it to "
                     "'regionsim compare --baseline', or make the baseline with 'regionsim "
                     "sweep FILE --format json'", path);
        else
            snprintf(err, errcap, "%s: not a sweep's JSON report (no \"sweep\" object): "
                     "expected the output of 'regionsim sweep FILE --format json'", path);
        return -1;
    }
    json_object *version = json_member(sw, "version", json_type_int);
    if (!version) {
        snprintf(err, errcap, "%s: a sweep report without a \"version\" (written before "
                 "sweep baselines, version %d): make the baseline again with this regionsim",
                 path, SWEEP_JSON_VERSION);
        return -1;
    }
    if (json_object_get_int64(version) != SWEEP_JSON_VERSION) {
        snprintf(err, errcap, "%s: a sweep report of version %lld; this regionsim writes "
                 "version %d: make the baseline again with this version", path,
                 (long long)json_object_get_int64(version), SWEEP_JSON_VERSION);
        return -1;
    }
    json_object *automatic;
    if (json_object_object_get_ex(sw, "measure_auto", &automatic) &&
        !json_object_is_type(automatic, json_type_boolean)) {
        snprintf(err, errcap, "%s: \"measure_auto\": expected true or false", path);
        return -1;
    }
    json_object *scenario = json_member(sw, "scenario", json_type_string);
    json_object *vars = json_member(sw, "variables", json_type_array);
    json_object *schemes = json_member(sw, "schemes", json_type_array);
    json_object *points = json_member(sw, "points", json_type_array);
    if (!scenario || !vars || !schemes || !points) {
        snprintf(err, errcap, "%s: expected a sweep report: {\"sweep\": {\"version\", "
                 "\"scenario\", \"variables\", \"schemes\", \"points\"}}", path);
        return -1;
    }
    const char *name = json_object_get_string(scenario);
    if (strcmp(name, t->scenario ? t->scenario : "")) {
        snprintf(err, errcap, "%s: a baseline of another scenario ('%s'; this sweep: '%s'): "
                 "compare sweeps of the same scenario", path, name,
                 t->scenario ? t->scenario : "");
        return -1;
    }
    size_t nvars = json_object_array_length(vars);
    int same = nvars == t->nvars;
    for (size_t v = 0; same && v < t->nvars; v++) {
        size_t k = 0;
        while (k < nvars && strcmp(json_var(vars, k), t->var_names[v]))
            k++;
        same = k < nvars;
    }
    if (!same) {
        char old[512], now[512];
        names_of(old, sizeof old, json_var, vars, nvars);
        names_of(now, sizeof now, table_var, (void *)t, t->nvars);
        snprintf(err, errcap, "%s: a baseline of other variables (%s; this sweep: %s): "
                 "compare sweeps of the same variables", path, old, now);
        return -1;
    }
    for (size_t s = 0; s < json_object_array_length(schemes); s++)
        if (!json_object_is_type(json_object_array_get_idx(schemes, s), json_type_string)) {
            snprintf(err, errcap, "%s: schemes[%zu]: expected a scheme's name", path, s);
            return -1;
        }
    return 0;
}

/* The baseline's points sorted by key into *out (n of them), every run's
 * figures checked (*numbers: how many have a number); 0 or -1. */
static int index_points(json_object *points, const char *path, const sweep_table *t,
                        old_point **out, size_t *numbers, char *err, size_t errcap)
{
    size_t n = json_object_array_length(points);
    old_point *op = calloc(n ? n : 1, sizeof *op);
    *out = op;
    if (!op) {
        snprintf(err, errcap, "out of memory reading %s", path);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *pt = json_object_array_get_idx(points, i);
        old_ctx c = { t, json_member(pt, "values", json_type_object) };
        int missing = 0;
        json_object *runs = json_member(pt, "runs", json_type_array);
        op[i].index = i;
        op[i].key = c.values && runs ? point_key(t, old_value, &c, &missing) : NULL;
        if (!op[i].key) {
            if (!c.values || !runs || missing)
                snprintf(err, errcap, "%s: points[%zu]: expected {\"values\": {NAME: VALUE} "
                         "with a value of every variable, \"runs\": [...]}", path, i);
            else
                snprintf(err, errcap, "out of memory reading %s", path);
            return -1;
        }
        for (size_t r = 0; r < json_object_array_length(runs); r++) {
            json_object *run = json_object_array_get_idx(runs, r);
            json_object *figures = json_member(run, "figures", json_type_object);
            if (!json_member(run, "scheme", json_type_string) || !figures) {
                snprintf(err, errcap, "%s: points[%zu]: runs[%zu]: expected {\"scheme\", "
                         "\"figures\": {...}}", path, i, r);
                return -1;
            }
            char where[64];
            size_t medians = 0; /* counted with the figures already */
            snprintf(where, sizeof where, "points[%zu].runs[%zu]", i, r);
            if (baseline_check_run(run, where, path, 0, numbers, err, errcap) < 0 ||
                (json_object_object_get_ex(run, "spread", NULL) &&
                 baseline_check_run(run, where, path, 1, &medians, err, errcap) < 0))
                return -1;
        }
    }
    qsort(op, n, sizeof *op, by_key);
    for (size_t i = 1; i < n; i++)
        if (!strcmp(op[i - 1].key, op[i].key)) {
            size_t a = op[i - 1].index < op[i].index ? op[i - 1].index : op[i].index;
            size_t b = op[i - 1].index < op[i].index ? op[i].index : op[i - 1].index;
            snprintf(err, errcap, "%s: points[%zu] and points[%zu] have the same values", path,
                     a, b);
            return -1;
        }
    return 0;
}

static void free_points(old_point *op, size_t n)
{
    for (size_t i = 0; op && i < n; i++)
        free(op[i].key);
    free(op);
}

/* Reads and checks the baseline and matches its points and schemes with
 * t's. 0, or -1 with a message (L then holds nothing). */
static int load(const char *path, const sweep_table *t, uint64_t max, loaded *L, char *err,
                size_t errcap)
{
    memset(L, 0, sizeof *L);
    L->root = json_read_file(path, max, NULL, err, errcap);
    if (!L->root)
        return -1;
    if (check_header(L->root, path, t, err, errcap) < 0) {
        loaded_free(L);
        return -1;
    }
    json_object *sw = json_member(L->root, "sweep", json_type_object);
    L->points = json_member(sw, "points", json_type_array);
    json_object *schemes = json_member(sw, "schemes", json_type_array);
    size_t nold = json_object_array_length(L->points);
    old_point *op = NULL;
    L->match = calloc(t->npoints ? t->npoints : 1, sizeof *L->match);
    L->scheme_in_old = calloc(t->nschemes ? t->nschemes : 1, sizeof *L->scheme_in_old);
    size_t numbers = 0;
    int rc = L->match && L->scheme_in_old
                 ? index_points(L->points, path, t, &op, &numbers, err, errcap) : -1;
    if (!L->match || !L->scheme_in_old)
        snprintf(err, errcap, "out of memory reading %s", path);
    sweep_baseline_report *c = &L->counts;
    for (size_t p = 0; rc == 0 && p < t->npoints; p++) {
        new_ctx nc = { t, p };
        int missing;
        old_point want = { point_key(t, new_value, &nc, &missing), 0 };
        if (!want.key) {
            snprintf(err, errcap, "out of memory reading %s", path);
            rc = -1;
            break;
        }
        old_point *hit = bsearch(&want, op, nold, sizeof *op, by_key);
        free(want.key);
        if (hit)
            L->match[p] = json_object_array_get_idx(L->points, hit->index);
        c->points += hit != NULL;
        c->points_new += hit == NULL;
    }
    free_points(op, nold);
    size_t in_both = 0;
    for (size_t s = 0; rc == 0 && s < t->nschemes; s++) {
        for (size_t k = 0; k < json_object_array_length(schemes); k++)
            if (!strcmp(json_object_get_string(json_object_array_get_idx(schemes, k)),
                        t->schemes[s]))
                L->scheme_in_old[s] = 1;
        in_both += (size_t)L->scheme_in_old[s];
        c->schemes_new += !L->scheme_in_old[s];
    }
    if (rc == 0) {
        c->points_old = nold - c->points;
        c->schemes_old = json_object_array_length(schemes) - in_both;
    }
    if (rc == 0 && c->points == 0) {
        char label[512];
        snprintf(err, errcap, "%s: no point in common with this sweep (its %zu points have "
                 "other values; this sweep's first: %s)", path, nold,
                 t->npoints ? sweep_table_point_label(t, 0, label, sizeof label) : "none");
        rc = -1;
    } else if (rc == 0 && in_both == 0) {
        snprintf(err, errcap, "%s: none of this sweep's schemes is in the baseline", path);
        rc = -1;
    } else if (rc == 0 && numbers == 0) {
        snprintf(err, errcap, "%s: no figure to compare: no run of its points has a figure of "
                 "this regionsim with a value (expected the output of 'regionsim sweep FILE "
                 "--format json'; a baseline that compares nothing checks nothing)", path);
        rc = -1;
    }
    if (rc < 0)
        loaded_free(L);
    return rc;
}

/* The run of an old point whose "scheme" is name, or NULL. */
static json_object *old_run(json_object *pt, const char *name)
{
    json_object *runs = json_member(pt, "runs", json_type_array);
    for (size_t i = 0; runs && i < json_object_array_length(runs); i++) {
        json_object *run = json_object_array_get_idx(runs, i);
        json_object *s = json_member(run, "scheme", json_type_string);
        if (s && !strcmp(json_object_get_string(s), name))
            return run;
    }
    return NULL;
}

/* The figures with a number of the baseline's run of scheme s at point p
 * (none when p has no partner or the scheme no run there), in registry
 * order: into values + *n, or only counted when values is NULL. */
static void take_figures(const loaded *L, const sweep_table *t, size_t p, size_t s,
                         old_figure *values, size_t *n)
{
    json_object *run = L->match[p] && L->scheme_in_old[s] ? old_run(L->match[p], t->schemes[s])
                                                          : NULL;
    for (const figure *f = figure_first(FIGURE_SCHEME); run && f; f = figure_next(f)) {
        baseline_band band;
        if (baseline_band_of(run, f, &band) < 0)
            continue;
        if (values)
            values[*n] = (old_figure){ (uint32_t)figure_index(f), band };
        ++*n;
    }
}

/* What the comparison needs of L (checked against t), into b; 0, or -1
 * when out of memory. Two passes over t's points and schemes: count, fill. */
static int keep(const loaded *L, const char *path, const sweep_table *t, sweep_baseline *b)
{
    size_t npairs = t->npoints * t->nschemes, n = 0;
    b->npoints = t->npoints;
    b->nschemes = t->nschemes;
    b->counts = L->counts;
    json_object *sw = json_member(L->root, "sweep", json_type_object), *m;
    b->measure_auto = json_object_object_get_ex(sw, "measure_auto", &m) &&
                      json_object_get_boolean(m);
    if (json_object_object_get_ex(sw, "measure_from_us", &m) &&
        json_object_is_type(m, json_type_int))
        b->measure_from_us = (uint64_t)json_object_get_int64(m);
    for (size_t i = 0; i < npairs; i++)
        take_figures(L, t, i / t->nschemes, i % t->nschemes, NULL, &n);
    size_t len = strlen(path) + 1;
    b->path = malloc(len);
    b->first = malloc((npairs + 1) * sizeof *b->first);
    b->values = malloc((n ? n : 1) * sizeof *b->values);
    if (!b->path || !b->first || !b->values)
        return -1;
    memcpy(b->path, path, len);
    n = 0;
    for (size_t i = 0; i < npairs; i++) {
        b->first[i] = n;
        take_figures(L, t, i / t->nschemes, i % t->nschemes, b->values, &n);
    }
    b->first[npairs] = n;
    return 0;
}

int sweep_baseline_load(const char *path, const sweep_table *t, uint64_t max,
                        sweep_baseline **out, char *err, size_t errcap)
{
    *out = NULL;
    loaded L;
    if (load(path, t, max, &L, err, errcap) < 0)
        return -1;
    sweep_baseline *b = calloc(1, sizeof *b);
    int rc = b && keep(&L, path, t, b) == 0 ? 0 : -1;
    loaded_free(&L);
    if (rc < 0) {
        snprintf(err, errcap, "out of memory reading %s", path);
        sweep_baseline_free(b);
        return -1;
    }
    *out = b;
    return 0;
}

void sweep_baseline_free(sweep_baseline *b)
{
    if (!b)
        return;
    free(b->path);
    free(b->first);
    free(b->values);
    free(b);
}

const char *sweep_baseline_path(const sweep_baseline *b)
{
    return b->path;
}

static int add_change(sweep_baseline_report *r, size_t *cap, sweep_baseline_change c)
{
    if (r->nchanges == *cap) {
        size_t n = *cap ? 2 * *cap : 16;
        sweep_baseline_change *grown = realloc(r->changes, n * sizeof *grown);
        if (!grown)
            return -1;
        r->changes = grown;
        *cap = n;
    }
    r->changes[r->nchanges++] = c;
    return 0;
}

/* Compares point p, scheme s of t with b's figures there, those g
 * judges; 0, or -1 when out of memory. Both lists are in the registry's
 * order: one cursor walks the baseline's. */
static int compare_pair(const sweep_baseline *b, const sweep_table *t, size_t p, size_t s,
                        const baseline_gate *g, sweep_baseline_report *out, size_t *cap)
{
    size_t i = p * b->nschemes + s;
    const old_figure *v = b->values + b->first[i], *end = b->values + b->first[i + 1];
    for (const figure *f = figure_first(FIGURE_SCHEME); f && v < end; f = figure_next(f)) {
        if (v->figure != figure_index(f))
            continue; /* none in the baseline (null or missing) */
        baseline_band old = (v++)->band;
        if (!baseline_gate_judges(g, f))
            continue;
        double now = baseline_as_written(sweep_table_value(t, p, s, f));
        if (!isfinite(old.min) || !isfinite(old.median) || !isfinite(old.max) ||
            !isfinite(now))
            continue;
        if (baseline_moves(g, f, old)) {
            out->moving++;
            continue;
        }
        out->compared++;
        double limit;
        baseline_verdict verdict = baseline_judge(f, old, now, baseline_gate_tol(g, f), &limit);
        if (verdict == BASELINE_SAME)
            continue;
        out->regressions += verdict == BASELINE_REGRESSION;
        sweep_baseline_change c = { p, s, f, old, now, limit, baseline_relative(old.median, now),
                                    verdict };
        if (add_change(out, cap, c) < 0)
            return -1;
    }
    return 0;
}

int sweep_baseline_compare(const sweep_baseline *b, const sweep_table *t, const baseline_gate *g,
                           sweep_baseline_report *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (t->npoints != b->npoints || t->nschemes != b->nschemes) {
        snprintf(err, errcap, "%s: loaded for a sweep of %zu points and %zu schemes, compared "
                 "with one of %zu and %zu", b->path, b->npoints, b->nschemes, t->npoints,
                 t->nschemes);
        return -1;
    }
    /* like with like: known once the sweep has run (its first point's) */
    if (!baseline_measured_alike(b->path, "sweep", b->measure_auto, b->measure_from_us,
                                 t->measure_auto, t->measure_from_us, err, errcap))
        return -1;
    *out = b->counts;
    size_t cap = 0;
    int rc = 0;
    for (size_t p = 0; rc == 0 && p < t->npoints; p++)
        for (size_t s = 0; rc == 0 && s < t->nschemes; s++)
            if (compare_pair(b, t, p, s, g, out, &cap) < 0) {
                snprintf(err, errcap, "out of memory comparing with %s", b->path);
                rc = -1;
            }
    if (rc == 0 && out->compared == 0) {
        snprintf(err, errcap, "%s: no figure compared: of the %zu figures judged "
                 "(--baseline-figures), where this sweep has a value, the baseline's runs of "
                 "the same points and schemes have none (null or missing); a baseline that "
                 "compares nothing checks nothing", b->path, baseline_gate_count(g));
        rc = -1;
    }
    if (rc < 0)
        sweep_baseline_report_free(out);
    return rc;
}

void sweep_baseline_report_free(sweep_baseline_report *r)
{
    free(r->changes);
    memset(r, 0, sizeof *r);
}

/* "(2 points of this sweep not in the baseline, ...)": the unmatched,
 * into buf (cap; "" when all matched). */
static const char *unmatched_text(char *buf, size_t cap, const sweep_baseline_report *r)
{
    const struct { size_t n; const char *one, *many; } parts[] = {
        { r->points_new, "point of this sweep not in the baseline",
          "points of this sweep not in the baseline" },
        { r->points_old, "point of the baseline not in this sweep",
          "points of the baseline not in this sweep" },
        { r->schemes_new, "scheme of this sweep not in the baseline",
          "schemes of this sweep not in the baseline" },
        { r->schemes_old, "scheme of the baseline not in this sweep",
          "schemes of the baseline not in this sweep" },
    };
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof parts / sizeof *parts && at < cap; i++) {
        if (!parts[i].n)
            continue;
        int k = snprintf(buf + at, cap - at, "%s%zu %s", at ? ", " : " (", parts[i].n,
                         parts[i].n == 1 ? parts[i].one : parts[i].many);
        at += k > 0 ? (size_t)k : 0;
    }
    if (at && at + 1 < cap)
        memcpy(buf + at, ")", 2);
    return buf;
}

/* Changes in the order a reader wants them: regressions, then the rest. */
static void write_changes(FILE *out, const sweep_table *t, const sweep_baseline_report *r,
                          int width, int regressions)
{
    for (size_t i = 0; i < r->nchanges; i++) {
        const sweep_baseline_change *c = &r->changes[i];
        if ((c->verdict == BASELINE_REGRESSION) != regressions)
            continue;
        char label[512], cols[256], scheme[4 * 64];
        fprintf(out, "  %-*s %-16s %s\n", width,
                sweep_table_point_label(t, c->point, label, sizeof label),
                escape_text(t->schemes[c->scheme], sizeof scheme - 1, scheme, sizeof scheme),
                baseline_change_columns(cols, sizeof cols, c->figure, c->old, c->new_value,
                                        c->limit, c->relative, c->verdict));
    }
}

void sweep_baseline_write(FILE *out, const char *path, const sweep_table *t,
                          const sweep_baseline_report *r)
{
    fprintf(out, "baseline %s: %zu figures compared at %zu point%s, %zu regression%s", path,
            r->compared, r->points, r->points == 1 ? "" : "s", r->regressions,
            r->regressions == 1 ? "" : "s");
    char unmatched[256];
    fprintf(out, "%s\n", unmatched_text(unmatched, sizeof unmatched, r));
    if (r->nchanges == 0)
        return;
    int width = 5;
    for (size_t i = 0; i < r->nchanges; i++) {
        char label[512];
        size_t l = strlen(sweep_table_point_label(t, r->changes[i].point, label, sizeof label));
        width = l > (size_t)width ? (int)l : width;
    }
    char head[256];
    fprintf(out, "  %-*s %-16s %s\n", width, "point", "scheme",
            baseline_change_header(head, sizeof head));
    write_changes(out, t, r, width, 1);
    write_changes(out, t, r, width, 0);
}

const char *sweep_baseline_passed_text(char *buf, size_t cap, const char *path,
                                       const sweep_baseline_report *r)
{
    char unmatched[256];
    int n = snprintf(buf, cap, "%zu figure%s within baseline %s at %zu point%s%s", r->compared,
                     r->compared == 1 ? "" : "s", path, r->points, r->points == 1 ? "" : "s",
                     unmatched_text(unmatched, sizeof unmatched, r));
    if (r->moving && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, " (%zu not judged: %s moved with the seed in "
                 "the baseline)", r->moving, r->moving == 1 ? "it" : "they");
    return buf;
}
