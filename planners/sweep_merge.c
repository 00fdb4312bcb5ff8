/* sweep_merge.c -- `regionsim merge DIR`: a plan's results
 * (sweep_plan.c) joined into the report `regionsim sweep` prints.
 *
 * Design: the merge rebuilds the sweep_table a local sweep fills, from
 * DIR/plan.json (the file's name as given, the variables, each point's
 * values) and each point's result (its exact JSON: scenario name,
 * measure_from, schemes, each run's name and every registry figure to 17
 * digits, its assertion results), and prints it with the sweep's own
 * writers (sweep_finish). Same table, same writers: the same bytes.
 * The first point gives what the sweep takes from its first point
 * (measure_from, the schemes' labels); the plan gives the scenario's name
 * (a point's file has another name when the file sets none). The failed
 * assertions' lines, --junit and the exit status come from the table by
 * planners/sweep_checks.c, as the sweep's do: the same text and bytes.
 *
 * Checks: every result must exist and be read whole before anything is
 * printed; all the missing ones are named at once (a plan half run by a
 * cluster is the common case), then the first malformed one (naming the
 * file, the point and what was wrong). A result must be the plan's point:
 * its values and its number of schemes are compared with the plan's, so a
 * result copied to the wrong name is refused rather than merged.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/assertion.h"
#include "reports/baseline.h"
#include "reports/figures.h"
#include "reports/json_read.h"
#include "reports/sweep_baseline.h"
#include "reports/sweep_report.h"
#include "cli/cli_checks.h"
#include "planners/sweep_checks.h"
#include "planners/sweep_plan.h"
#include "planners/sweep_run.h"
#include "scenario/units.h"

#define EXIT_USAGE 2

static const char merge_help[] =
    "usage: regionsim merge DIR [options]\n"
    "\n"
    "Joins the results of a plan written by 'regionsim sweep FILE --plan DIR'\n"
    "(each job's DIR/results/NNNN.json) into the report 'regionsim sweep FILE'\n"
    "prints, byte for byte. See docs/distributed.md.\n"
    "\n"
    "Options:\n"
    "  --format F     text, json, csv or html (text)\n"
    "  -o PATH        write the report to PATH instead of stdout\n"
    "  --junit FILE   the assertions' results as JUnit XML to FILE, the bytes\n"
    "                 'regionsim sweep FILE --junit FILE' writes (docs/ci.md)\n"
    "  --baseline OLD.json\n"
    "                 compare the headline figures with OLD.json, an earlier 'sweep\n"
    "                 --format json' (or 'merge --format json') of this sweep,\n"
    "                 as 'regionsim sweep FILE --baseline' does (docs/ci.md)\n"
    "  --baseline-figures LIST  --baseline: the figures judged (headline)\n"
    "  --tolerance F  --baseline: relative change allowed, every figure's or one's\n"
    "                 (FIGURE=F); repeatable\n"
    "  --tolerance-abs A\n"
    "                 --baseline: change always allowed, in the figure's unit,\n"
    "                 every figure's or one's (FIGURE=A); repeatable\n"
    "  --max-input SIZE\n"
    "                 the most bytes plan.json, a result or the baseline may\n"
    "                 hold (256MiB)\n"
    "  -h, --help     this help\n"
    "\n"
    "Exit status: 0 merged (every assertion held at every point), 1 an\n"
    "assertion failed or a figure regressed, 2 bad usage, a result missing\n"
    "or malformed, or a baseline refused.\n";


/* A number as the exact writer wrote it: a number, null (NAN), "inf",
 * "-inf". Returns 0, or -1 for anything else. */
static int exact_number(json_object *o, double *v)
{
    if (!o) {
        *v = NAN;
        return 0;
    }
    if (json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)) {
        *v = json_object_get_double(o);
        return 0;
    }
    if (json_object_is_type(o, json_type_string)) {
        const char *s = json_object_get_string(o);
        if (!strcmp(s, "inf") || !strcmp(s, "-inf")) {
            *v = s[0] == '-' ? -INFINITY : INFINITY;
            return 0;
        }
    }
    return -1;
}

typedef struct sweep_merge {
    sweep_table t;
    json_object *plan;
    char **names;        /* nvars */
    size_t *nvalues;
    char **values;       /* npoints x nvars */
    double *numbers;     /* npoints x nvars: the values as numbers (sweep_value_numbers) */
    const char **digests; /* npoints: each point's digest in the plan */
    size_t ncheck_cap;
    uint64_t max_input;  /* --max-input: each file's cap in bytes */
} merge;


static char *own(const char *s)
{
    return strdup(s ? s : "");
}

/* The plan: the file, the variables, the points' values. */
static int read_plan(merge *m, const char *dir, char *err, size_t errcap)
{
    char path[4096], why[2048], sdir[1024], spath[1200];
    snprintf(path, sizeof path, "%s/plan.json", dir);
    escape_text(dir, 240, sdir, sizeof sdir);
    escape_text(path, 280, spath, sizeof spath);
    int missing;
    m->plan = json_read_file(path, m->max_input, &missing, why, sizeof why);
    if (!m->plan) {
        if (missing)
            sweep_say(err, errcap, "%s/plan.json: no such file (is %s a plan written by 'regionsim "
                     "sweep FILE --plan DIR'?)", sdir, sdir);
        else
            escape_text(why, errcap > 1 ? (errcap - 1) / 4 : 0, err, errcap);
        return -1;
    }
    json_object *plan = json_member(m->plan, "plan", json_type_object);
    json_object *version = json_member(plan, "version", json_type_int);
    json_object *file = json_member(plan, "file", json_type_string);
    json_object *scenario = json_member(plan, "scenario", json_type_string);
    json_object *vars = json_member(plan, "variables", json_type_array);
    json_object *points = json_member(plan, "points", json_type_array);
    if (!version || json_object_get_int(version) != SWEEP_PLAN_VERSION || !file || !scenario || !vars ||
        !points || json_object_array_length(vars) == 0 ||
        json_object_array_length(vars) > SWEEP_MAX_VARS ||
        json_object_array_length(points) == 0 ||
        json_object_array_length(points) > SWEEP_MAX_POINTS) {
        sweep_say(err, errcap, "%s: expected a plan of version %d: {\"plan\": {\"version\", \"file\", "
                 "\"scenario\", \"variables\", \"points\"}}", spath, SWEEP_PLAN_VERSION);
        return -1;
    }
    size_t nvars = json_object_array_length(vars), npoints = json_object_array_length(points);
    m->names = calloc(nvars, sizeof *m->names);
    m->nvalues = calloc(nvars, sizeof *m->nvalues);
    m->values = calloc(nvars * npoints, sizeof *m->values);
    m->numbers = calloc(nvars * npoints, sizeof *m->numbers);
    m->digests = calloc(npoints, sizeof *m->digests);
    if (!m->names || !m->nvalues || !m->values || !m->numbers || !m->digests) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    m->t.file = json_object_get_string(file);
    m->t.scenario = own(json_object_get_string(scenario));
    if (!m->t.scenario) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    m->t.nvars = nvars;
    m->t.npoints = npoints;
    m->t.var_names = (const char *const *)m->names;
    m->t.var_nvalues = m->nvalues;
    m->t.values = (const char *const *)m->values;
    size_t product = 1;
    for (size_t v = 0; v < nvars; v++) {
        json_object *var = json_object_array_get_idx(vars, v);
        json_object *name = json_member(var, "name", json_type_string);
        json_object *vals = json_member(var, "values", json_type_array);
        if (!name || !vals || json_object_array_length(vals) == 0) {
            sweep_say(err, errcap, "%s: variables[%zu]: expected {\"name\", \"values\"}", spath, v);
            return -1;
        }
        m->names[v] = (char *)json_object_get_string(name);
        m->nvalues[v] = json_object_array_length(vals);
        product *= m->nvalues[v];
        if (product > SWEEP_MAX_POINTS)
            break;
    }
    if (product != npoints) {
        sweep_say(err, errcap, "%s: %zu points, but the variables' values make %zu", spath, npoints,
            product);
        return -1;
    }
    for (size_t p = 0; p < npoints; p++) {
        json_object *pt = json_object_array_get_idx(points, p);
        json_object *index = json_member(pt, "index", json_type_int);
        json_object *values = json_member(pt, "values", json_type_object);
        if (!index || json_object_get_int64(index) != (int64_t)p || !values) {
            sweep_say(err, errcap, "%s: points[%zu]: expected {\"index\": %zu, \"values\", ...}",
                      spath, p, p);
            return -1;
        }
        json_object *digest = json_member(pt, "digest", json_type_string);
        if (!digest) {
            sweep_say(err, errcap, "%s: points[%zu]: no \"digest\" of the point's scenario (a plan "
                      "written before merge checked which scenario a result is of): plan the "
                      "sweep again with this regionsim", spath, p);
            return -1;
        }
        m->digests[p] = json_object_get_string(digest);
        for (size_t v = 0; v < nvars; v++) {
            json_object *val = json_member(values, m->names[v], json_type_string);
            if (!val) {
                char name[300];
                sweep_say(err, errcap, "%s: points[%zu]: no value of '%s'", spath, p,
                          escape_text(m->names[v], 64, name, sizeof name));
                return -1;
            }
            m->values[p * nvars + v] = (char *)json_object_get_string(val);
        }
    }
    sweep_value_numbers((const char *const *)m->values, npoints, nvars, m->numbers);
    m->t.numbers = m->numbers;
    return 0;
}

/* Point p's result (doc, read) into the table. */
static int take_result(merge *m, size_t p, json_object *doc, char *err, size_t errcap)
{
    sweep_table *t = &m->t;
    json_object *sw = json_member(doc, "sweep", json_type_object);
    json_object *points = json_member(sw, "points", json_type_array);
    json_object *schemes = json_member(sw, "schemes", json_type_array);
    json_object *pt = points && json_object_array_length(points) == 1
                          ? json_object_array_get_idx(points, 0) : NULL;
    json_object *values = json_member(pt, "values", json_type_object);
    json_object *runs = json_member(pt, "runs", json_type_array);
    json_object *asserts = json_member(pt, "assertions", json_type_array);
    json_object *scen = json_member(sw, "scenario", json_type_string);
    json_object *from = json_member(sw, "measure_from_us", json_type_int);
    json_object *automatic = json_member(sw, "measure_auto", json_type_boolean);
    if (!pt || !schemes || !values || !runs || !asserts || !scen || !from || !automatic) {
        sweep_say(err, errcap, "expected a point's result (regionsim sweep POINT.ini --result): "
                 "{\"sweep\": {\"scenario\", \"measure_from_us\", \"measure_auto\", "
                 "\"schemes\", \"points\": [one point]}}");
        return -1;
    }
    for (size_t v = 0; v < t->nvars; v++) {
        json_object *val = json_member(values, m->names[v], json_type_string);
        if (!val || strcmp(json_object_get_string(val), m->values[p * t->nvars + v])) {
            char name[300], got[300], want[300];
            escape_text(m->names[v], 64, name, sizeof name);
            sweep_say(err, errcap, "the result is for %s=%s, the plan's point has %s=%s", name,
                      val ? escape_text(json_object_get_string(val), 64, got, sizeof got)
                          : "(none)",
                      name, escape_text(m->values[p * t->nvars + v], 64, want, sizeof want));
            return -1;
        }
    }
    json_object *digest = json_member(sw, "digest", json_type_string);
    if (!digest) {
        sweep_say(err, errcap, "no \"digest\" of the scenario it was made from (a result of "
                  "another regionsim, or not of a planned job): run its line of jobs.txt again");
        return -1;
    }
    if (strcmp(json_object_get_string(digest), m->digests[p])) {
        char got[300];
        sweep_say(err, errcap, "a result of another scenario: its digest %s is not the plan's "
                  "%s for this point (the job read another point file, or ran with other "
                  "options, than the plan wrote): run its line of jobs.txt again",
                  escape_text(json_object_get_string(digest), 64, got, sizeof got), m->digests[p]);
        return -1;
    }
    size_t ns = json_object_array_length(schemes);
    if (ns == 0) {
        sweep_say(err, errcap, "no schemes (a point's result has a run of each scheme of the "
                  "scenario)");
        return -1;
    }
    if (p == 0) { /* what the sweep takes from its first point */
        t->nschemes = ns;
        (void)scen; /* the point file's name when the file sets none: the plan's is the sweep's */
        t->measure_from_us = json_object_get_uint64(from);
        t->measure_auto = json_object_get_boolean(automatic);
        char **labels = calloc(ns ? ns : 1, sizeof *labels);
        t->schemes = (const char *const *)labels;
        t->figures = calloc(t->npoints * (ns ? ns : 1) * t->nfigures, sizeof *t->figures);
        t->run_names = calloc(t->npoints * (ns ? ns : 1), sizeof *t->run_names);
        int oom = !labels || !t->figures || !t->run_names;
        for (size_t s = 0; !oom && s < ns; s++) {
            json_object *l = json_object_array_get_idx(schemes, s);
            if (!json_object_is_type(l, json_type_string)) {
                sweep_say(err, errcap, "schemes[%zu]: expected a scheme's name", s);
                return -1;
            }
            oom |= !(labels[s] = own(json_object_get_string(l)));
        }
        if (oom) {
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
    } else if (ns != t->nschemes) {
        sweep_say(err, errcap, "%zu schemes, but %zu at the first point", ns, t->nschemes);
        return -1;
    } else {
        for (size_t s = 0; s < ns; s++) {
            json_object *l = json_object_array_get_idx(schemes, s);
            if (!json_object_is_type(l, json_type_string) ||
                strcmp(json_object_get_string(l), t->schemes[s])) {
                char got[300], want[300];
                sweep_say(err, errcap, "schemes[%zu] is '%s', but '%s' at the first point", s,
                          escape_text(json_object_get_string(l), 64, got, sizeof got),
                          escape_text(t->schemes[s], 64, want, sizeof want));
                return -1;
            }
        }
    }
    if (json_object_array_length(runs) != ns) {
        sweep_say(err, errcap, "%zu runs for %zu schemes", json_object_array_length(runs), ns);
        return -1;
    }
    for (size_t s = 0; s < ns; s++) {
        json_object *run = json_object_array_get_idx(runs, s);
        json_object *name = json_member(run, "run", json_type_string);
        json_object *figs = json_member(run, "figures", json_type_object);
        if (!name || !figs) {
            sweep_say(err, errcap, "runs[%zu]: expected {\"scheme\", \"run\", \"figures\"}", s);
            return -1;
        }
        if (!(t->run_names[p * ns + s] = own(json_object_get_string(name)))) {
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
        double *slot = &t->figures[(p * ns + s) * t->nfigures];
        size_t k = 0;
        for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f), k++) {
            json_object *val = NULL;
            if (!json_object_object_get_ex(figs, f->name, &val) ||
                exact_number(val, &slot[k]) < 0) {
                sweep_say(err, errcap, "runs[%zu]: figure '%s': expected a number, null, \"inf\" or "
                         "\"-inf\"", s, f->name);
                return -1;
            }
        }
    }
    size_t na = json_object_array_length(asserts);
    if (t->nchecks + na > m->ncheck_cap) {
        size_t cap = (t->nchecks + na) * 2 + 8;
        check_result *c = realloc(t->checks, cap * sizeof *c);
        if (c)
            t->checks = c;
        size_t *cp = c ? realloc(t->check_point, cap * sizeof *cp) : NULL;
        if (!c || !cp) {
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
        t->check_point = cp;
        m->ncheck_cap = cap;
    }
    for (size_t i = 0; i < na; i++) {
        json_object *a = json_object_array_get_idx(asserts, i);
        json_object *name = json_member(a, "name", json_type_string);
        json_object *expr = json_member(a, "expression", json_type_string);
        json_object *scheme = json_member(a, "scheme", json_type_string);
        json_object *passed = json_member(a, "passed", json_type_boolean);
        json_object *seed = json_member(a, "seed", json_type_int);
        json_object *samples = json_member(a, "samples", json_type_int);
        json_object *sfailed = json_member(a, "samples_failed", json_type_int);
        json_object *value = NULL, *bound = NULL, *why = NULL;
        check_result r;
        memset(&r, 0, sizeof r);
        json_object_object_get_ex(a, "value", &value);
        json_object_object_get_ex(a, "bound", &bound);
        if (json_object_object_get_ex(a, "why", &why) &&
            (!json_object_is_type(why, json_type_string) ||
             !(r.why = assertion_why(json_object_get_string(why))))) {
            sweep_say(err, errcap, "assertions[%zu]: \"why\": expected one of the reasons "
                      "reports/assertion.c gives (from the same regionsim)", i);
            return -1;
        }
        if (!name || !expr || !scheme || !passed || !seed || !samples || !sfailed ||
            exact_number(value, &r.value) < 0 || exact_number(bound, &r.bound) < 0) {
            sweep_say(err, errcap, "assertions[%zu]: expected {\"name\", \"expression\", \"scheme\", "
                     "\"value\", \"bound\", \"passed\", \"seed\", \"samples\", "
                     "\"samples_failed\"}", i);
            return -1;
        }
        r.passed = json_object_get_boolean(passed);
        r.seed = json_object_get_uint64(seed);
        r.samples = (uint32_t)json_object_get_int(samples);
        r.samples_failed = (uint32_t)json_object_get_int(sfailed);
        r.name = own(json_object_get_string(name));
        r.expression = own(json_object_get_string(expr));
        r.scheme = own(json_object_get_string(scheme));
        t->checks[t->nchecks] = r;
        t->check_point[t->nchecks++] = p;
        if (!r.name || !r.expression || !r.scheme) {
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
        assertion parsed; /* what the lines and the JUnit will parse again */
        assertion_result unused;
        char msg[512];
        if (assertion_from_check(&r, &parsed, &unused, msg, sizeof msg) < 0) {
            sweep_say(err, errcap, "assertions[%zu]: \"expression\": %s", i, msg);
            return -1;
        }
    }
    return 0;
}

void sweep_merge_free(sweep_merge *m)
{
    if (!m)
        return;
    sweep_table_free_results(&m->t);
    free(m->names);
    free(m->nvalues);
    free(m->values);
    free(m->numbers);
    free(m->digests);
    if (m->plan)
        json_object_put(m->plan);
    free(m);
}

/* Reads every result; the missing ones all named in one message, with
 * the first malformed one after them (a malformed one does not stop the
 * scan for the missing). */
static int read_results(merge *m, const char *dir, char *err, size_t errcap)
{
    json_object *points = json_member(json_member(m->plan, "plan", json_type_object), "points",
                                 json_type_array);
    size_t nmissing = 0;
    char bad[2048] = ""; /* the first malformed result's message */
    char *list = NULL;
    size_t listlen = 0;
    FILE *ml = open_memstream(&list, &listlen);
    int rc = ml ? 0 : -1;
    if (!ml)
        sweep_say(err, errcap, "out of memory");
    for (size_t p = 0; rc == 0 && p < m->t.npoints; p++) {
        json_object *res = json_member(json_object_array_get_idx(points, p), "result",
                                  json_type_string);
        const char *rel = res ? json_object_get_string(res) : NULL;
        char label[512], path[4096], msg[1024];
        char slabel[2048], spath[1200], smsg[2048]; /* as messages show them */
        sweep_table_point_label(&m->t, p, label, sizeof label);
        escape_text(label, 300, slabel, sizeof slabel);
        if (!rel || !rel[0] || rel[0] == '/' || strstr(rel, "..")) {
            sweep_say(err, errcap, "%s/plan.json: points[%zu]: expected \"result\": a path inside the "
                     "plan", escape_text(dir, 240, spath, sizeof spath), p);
            rc = -1;
            break;
        }
        snprintf(path, sizeof path, "%s/%s", dir, rel);
        escape_text(path, 280, spath, sizeof spath);
        int missing;
        json_object *doc = json_read_file(path, m->max_input, &missing, msg, sizeof msg);
        if (!doc && missing) {
            fprintf(ml, "%s  %s (point %zu: %s)", nmissing ? "\n" : "", spath, p, slabel);
            nmissing++;
            continue;
        }
        if (!doc) {
            if (!bad[0])
                sweep_say(bad, sizeof bad, "%s (point %zu: %s)",
                          escape_text(msg, 400, smsg, sizeof smsg), p, slabel);
        } else if (!nmissing && !bad[0] && take_result(m, p, doc, msg, sizeof msg) < 0) {
            sweep_say(bad, sizeof bad, "%s: point %zu (%s): %s", spath, p, slabel,
                      escape_text(msg, 400, smsg, sizeof smsg));
        }
        if (doc)
            json_object_put(doc);
    }
    if (ml)
        fclose(ml);
    if (rc == 0 && nmissing) {
        char sdir[1024];
        sweep_say(err, errcap, "%zu of %zu results missing (run their lines of %s/jobs.txt):\n%s%s%s",
            nmissing, m->t.npoints, escape_text(dir, 240, sdir, sizeof sdir), list ? list : "",
            bad[0] ? "\nand " : "", bad);
        rc = -1;
    } else if (rc == 0 && bad[0]) {
        sweep_say(err, errcap, "%s", bad);
        rc = -1;
    }
    free(list);
    return rc;
}

int sweep_merge_read(const char *dir, uint64_t max_input, sweep_merge **out, char *err,
                     size_t errcap)
{
    *out = NULL;
    merge *m = calloc(1, sizeof *m);
    if (!m) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    m->max_input = max_input;
    m->t.nfigures = sweep_figure_count();
    if (read_plan(m, dir, err, errcap) < 0 || read_results(m, dir, err, errcap) < 0) {
        sweep_merge_free(m);
        return -1;
    }
    *out = m;
    return 0;
}

const struct sweep_table *sweep_merge_table(const sweep_merge *m)
{
    return &m->t;
}

/* "regionsim merge: " and the message, each of a and b (user text: an
 * argument, a value) with its control bytes escaped; exit status 2. */
static int merge_usage(const char *fmt, const char *a, const char *b)
{
    char sa[1024], sb[1024];
    fputs("regionsim merge: ", stderr);
    fprintf(stderr, fmt, escape_text(a, 240, sa, sizeof sa), escape_text(b, 240, sb, sizeof sb));
    fputs("\n(see 'regionsim merge --help')\n", stderr);
    return EXIT_USAGE;
}

/* The baseline read once, for the table t (reports/sweep_baseline.h);
 * 0, or -1 after the message (its file's text escaped) on stderr. */
static int load_baseline(const char *path, const sweep_table *t, uint64_t max,
                         sweep_baseline **out)
{
    char err[1280], shown[4 * sizeof err];
    if (sweep_baseline_load(path, t, max, out, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "regionsim merge: --baseline %s\n",
            escape_text(err, sizeof shown - 1, shown, sizeof shown));
    return -1;
}

int merge_main(int argc, char **argv)
{
    const char *dir = NULL, *output = NULL, *junit = NULL, *baseline = NULL;
    baseline_gate gate;
    baseline_gate_init(&gate);
    uint64_t max_input = JSON_READ_MAX_DEFAULT;
    const char *gate_option = NULL; /* the last --tolerance, --tolerance-abs, --baseline-figures */
    char gate_err[640];
    int fmt = 0;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(merge_help, stdout);
            return 0;
        }
        if (arg[0] != '-') {
            if (dir)
                return merge_usage("unexpected argument '%s' after the plan's directory%s", arg,
                                   "");
            dir = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
        if (!eq && i + 1 >= argc)
            return merge_usage("%s: expected a value after it%s", arg, "");
        const char *value = eq ? eq + 1 : argv[++i];
        if (n == 8 && !strncmp(arg, "--format", 8)) {
            static const char *const names[] = { "text", "json", "csv", "html" };
            fmt = 0;
            while (fmt < 4 && strcmp(value, names[fmt]))
                fmt++;
            if (fmt == 4)
                return merge_usage("--format: expected text, json, csv or html, found '%s'%s",
                                   value, "");
        } else if ((n == 2 && !strncmp(arg, "-o", 2)) || (n == 8 && !strncmp(arg, "--output", 8))) {
            if (!value[0])
                return merge_usage("-o: expected a file name%s%s", "", "");
            output = value;
        } else if (n == 7 && !strncmp(arg, "--junit", 7)) {
            if (!value[0])
                return merge_usage("--junit: expected a file name%s%s", "", "");
            junit = value;
        } else if (n == 10 && !strncmp(arg, "--baseline", 10)) {
            if (!value[0])
                return merge_usage("--baseline: expected a file name%s%s", "", "");
            baseline = value;
        } else if ((n == 11 && !strncmp(arg, "--tolerance", 11)) ||
                   (n == 15 && !strncmp(arg, "--tolerance-abs", 15)) ||
                   (n == 18 && !strncmp(arg, "--baseline-figures", 18))) {
            gate_option = n == 18 ? "--baseline-figures" : n == 15 ? "--tolerance-abs"
                                                                   : "--tolerance";
            if ((n == 18 ? baseline_gate_figures(&gate, value, gate_err, sizeof gate_err)
                         : baseline_gate_tolerance(&gate, value, n == 15, gate_err,
                                                   sizeof gate_err)) < 0)
                return merge_usage("%s%s", gate_err, "");
        } else if (n == 11 && !strncmp(arg, "--max-input", 11)) {
            if (cli_checks_parse_max_input(value, &max_input) < 0)
                return merge_usage("--max-input: expected a size from 1B to 1TiB (e.g. 1GiB), "
                                   "found '%s'%s", value, "");
        } else {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(n < 200 ? n : 200), arg);
            return merge_usage("unknown option '%s'%s", name, "");
        }
    }
    if (!dir) {
        fputs("regionsim merge: expected a plan's directory (regionsim sweep FILE --plan DIR)\n",
              stderr);
        return EXIT_USAGE;
    }
    if (gate_option && !baseline) {
        fprintf(stderr, "regionsim merge: %s: only with --baseline FILE\n", gate_option);
        return EXIT_USAGE;
    }
    if (baseline_gate_check(&gate, gate_err, sizeof gate_err) < 0)
        return merge_usage("%s%s", gate_err, "");
    sweep_merge *m = NULL;
    sweep_baseline *base = NULL;
    char err[1 << 16];
    int status = EXIT_USAGE;
    if (sweep_check_outputs(fmt, output, junit, "merge") != 0) {
        /* said: the outputs are checked before the plan is read */
    } else if (sweep_merge_read(dir, max_input, &m, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim merge: %s\n", err); /* its parts escaped where made */
    } else if (baseline && load_baseline(baseline, &m->t, max_input, &base) < 0) {
        /* said */
    } else {
        status = sweep_finish(&m->t, fmt, output, junit, base, &gate, "merge");
    }
    sweep_baseline_free(base);
    sweep_merge_free(m);
    return status;
}
