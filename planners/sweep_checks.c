/* sweep_checks.c -- a sweep's assertion results for CI: stderr lines,
 * JUnit, the baseline's table, exit status; the same for a sweep and for
 * a merge of its plan (the baseline, which the caller read once before
 * the sweep ran or once the merge read its results, compared in
 * sweep_finish from the table: reports/sweep_baseline.c).
 *
 * Design: the table's checks are check_results (engine/result.h), the form
 * a planned point's result file keeps (name, expression, scheme, value,
 * bound, passed, why, seed, samples), not the assertion_results the runs
 * made. Everything printed is made from them again: each check's
 * assertion is parsed back from its expression (assertion_from_check),
 * which gives the figure, operator and bound as written, so the line is
 * assertion_describe's (the digits that show the verdict) and the JUnit is
 * junit_write's, whoever filled the table. A sweep and a merge thus print
 * the same text by construction, not by keeping two formatters in step.
 *
 * Cost: a parse per failed check for the lines; for the JUnit one
 * assertion per distinct (name, expression), found by a linear search
 * (a sweep has a few dozen at most; each assertion is about 5 kB, so one
 * per check would not do for thousands of points).
 */
#include "planners/sweep_checks.h"

#include <stdlib.h>
#include <string.h>

#include "reports/assertion.h"
#include "reports/junit.h"
#include "reports/sweep_baseline.h"
#include "cli/interrupts.h"
#include "cli/output.h"
#include "planners/sweep_run.h"
#include "scenario/units.h"

#define EXIT_USAGE 2
#define EXIT_FAILED 1
#define FORMAT_EXACT 4 /* sweep_render_report's exact JSON */

long sweep_print_failures(const sweep_table *t, const char *cmd, FILE *out, size_t *npoints,
                          char *err, size_t errcap)
{
    long failed = 0;
    size_t last = SIZE_MAX;
    *npoints = 0;
    for (size_t i = 0; i < t->nchecks; i++) {
        if (t->checks[i].passed)
            continue;
        assertion a;
        assertion_result r;
        char msg[512], line[1024], label[512];
        if (assertion_from_check(&t->checks[i], &a, &r, msg, sizeof msg) < 0) {
            snprintf(err, errcap, "check %zu: %s", i, msg);
            return -1;
        }
        assertion_describe(&r, line, sizeof line);
        fprintf(out, "regionsim %s: at %s: %s\n", cmd,
                sweep_table_point_label(t, t->check_point[i], label, sizeof label), line);
        failed++;
        *npoints += t->check_point[i] != last;
        last = t->check_point[i];
    }
    return failed;
}

/* The distinct assertions of t's checks, and a result per check. */
typedef struct junit_cases {
    assertion *assertions;
    size_t nassertions;
    size_t *which;              /* nchecks: the index of each check's assertion */
    assertion_result *results;  /* nchecks */
    char **labels;              /* npoints: each point's label */
} junit_cases;

static void cases_free(junit_cases *jc, size_t npoints)
{
    for (size_t p = 0; jc->labels && p < npoints; p++)
        free(jc->labels[p]);
    free(jc->labels);
    free(jc->assertions);
    free(jc->which);
    free(jc->results);
}

/* Fills jc from t; 0, or -1 with a message. */
static int cases_build(junit_cases *jc, const sweep_table *t, char *err, size_t errcap)
{
    size_t n = t->nchecks ? t->nchecks : 1;
    jc->which = calloc(n, sizeof *jc->which);
    jc->results = calloc(n, sizeof *jc->results);
    jc->labels = calloc(t->npoints ? t->npoints : 1, sizeof *jc->labels);
    int oom = !jc->which || !jc->results || !jc->labels;
    for (size_t p = 0; !oom && p < t->npoints; p++) {
        char label[1024];
        oom = !(jc->labels[p] = strdup(sweep_table_point_label(t, p, label, sizeof label)));
    }
    size_t cap = 0;
    for (size_t i = 0; !oom && i < t->nchecks; i++) {
        const check_result *c = &t->checks[i];
        size_t k = 0;
        while (k < jc->nassertions &&
               (strcmp(jc->assertions[k].text, c->expression) ||
                strcmp(jc->assertions[k].name, c->name && c->name[0] ? c->name : c->expression)))
            k++;
        if (k == jc->nassertions) {
            if (k == cap) {
                cap = cap ? cap * 2 : 16;
                assertion *grown = realloc(jc->assertions, cap * sizeof *grown);
                if (!grown) {
                    oom = 1;
                    break;
                }
                jc->assertions = grown;
            }
            assertion_result unused;
            char msg[512];
            if (assertion_from_check(c, &jc->assertions[k], &unused, msg, sizeof msg) < 0) {
                snprintf(err, errcap, "check %zu: %s", i, msg);
                return -1;
            }
            jc->nassertions++;
        }
        jc->which[i] = k;
    }
    if (oom) {
        snprintf(err, errcap, "out of memory for the JUnit report");
        return -1;
    }
    /* the assertions have stopped moving: point the results at them */
    for (size_t i = 0; i < t->nchecks; i++) {
        char msg[512];
        if (assertion_from_check(&t->checks[i], &jc->assertions[jc->which[i]], &jc->results[i],
                                 msg, sizeof msg) < 0) {
            snprintf(err, errcap, "check %zu: %s", i, msg);
            return -1;
        }
    }
    return 0;
}

int sweep_junit(const sweep_table *t, char **text, size_t *len, char *err, size_t errcap)
{
    *text = NULL;
    *len = 0;
    junit_cases jc;
    memset(&jc, 0, sizeof jc);
    if (cases_build(&jc, t, err, errcap) < 0) {
        cases_free(&jc, t->npoints);
        return -1;
    }
    const char **labels = calloc(t->nchecks ? t->nchecks : 1, sizeof *labels);
    FILE *f = labels ? open_memstream(text, len) : NULL;
    if (!f) {
        free(labels);
        cases_free(&jc, t->npoints);
        snprintf(err, errcap, "out of memory for the JUnit report");
        return -1;
    }
    for (size_t i = 0; i < t->nchecks; i++)
        labels[i] = jc.labels[t->check_point[i]];
    junit_suite suite = { t->scenario && t->scenario[0] ? t->scenario : "regionsim", jc.results,
                          t->nchecks, 0, labels, 0 };
    int rc = junit_write(f, &suite, 1, err, errcap);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, errcap, "out of memory for the JUnit report");
        rc = -1;
    }
    if (rc < 0) {
        free(*text);
        *text = NULL;
        *len = 0;
    }
    free(labels);
    cases_free(&jc, t->npoints);
    return rc;
}

/* The report's item: -o PATH (stdout when NULL), or, for a planned
 * point's exact JSON, --result PATH, which writes through no link another
 * user owns (a plan's results/ is read back by merge as the user's). */
static output_item report_item(int format, const char *output)
{
    int exact = format == FORMAT_EXACT;
    return (output_item){ .option = exact ? "--result" : "-o", .path = output,
                          .flags = exact ? OUTPUT_OWN_LINKS : 0 };
}

int sweep_check_outputs(int format, const char *output, const char *junit, const char *cmd)
{
    output_item items[2] = { report_item(format, output), { .option = "--junit", .path = junit } };
    char err[1280];
    if (output_check_set(items, junit ? 2 : 1, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: %s\n", cmd, err);
        return EXIT_USAGE;
    }
    return 0;
}

/* The one line of the checks that held, as compare prints it: "regionsim
 * sweep: 12 assertion results held at 6 points; 312 figures within
 * baseline main.json at 6 points", either part alone when the other was
 * not asked for or failed. */
static void passed_line(const sweep_table *t, const char *cmd, int assertions,
                        const sweep_baseline_report *cmp, const char *path)
{
    char text[2200];
    assertions = assertions && t->nchecks;
    if (!assertions && !cmp)
        return;
    fprintf(stderr, "regionsim %s: ", cmd);
    if (assertions)
        fprintf(stderr, "%zu assertion result%s held at %zu point%s%s", t->nchecks,
                t->nchecks == 1 ? "" : "s", t->npoints, t->npoints == 1 ? "" : "s",
                cmp ? "; " : "");
    if (cmp)
        fputs(sweep_baseline_passed_text(text, sizeof text, path, cmp), stderr);
    fputc('\n', stderr);
}

int sweep_finish(const sweep_table *t, int format, const char *output, const char *junit,
                 const sweep_baseline *baseline, const baseline_gate *gate, const char *cmd)
{
    char err[1280];
    char *xml = NULL, *text = NULL;
    size_t xml_len = 0, len = 0;
    /* rendered before anything is written: a failure here leaves no report */
    if (junit && sweep_junit(t, &xml, &xml_len, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: --junit %s\n", cmd, err);
        return EXIT_USAGE;
    }
    sweep_baseline_report cmp;
    memset(&cmp, 0, sizeof cmp);
    char shown[4 * sizeof err];
    if (baseline && sweep_baseline_compare(baseline, t, gate, &cmp, err, sizeof err) < 0) {
        /* the message quotes the file's path and its text: no control byte reaches stderr */
        fprintf(stderr, "regionsim %s: --baseline %s\n", cmd,
                escape_text(err, sizeof shown - 1, shown, sizeof shown));
        free(xml);
        return EXIT_USAGE;
    }
    size_t points = 0;
    long failed = sweep_print_failures(t, cmd, stderr, &points, err, sizeof err);
    if (failed < 0) {
        fprintf(stderr, "regionsim %s: %s\n", cmd, err);
        free(xml);
        sweep_baseline_report_free(&cmp);
        return EXIT_USAGE;
    }
    int status = sweep_render_report(t, format, &text, &len, cmd);
    if (status == 0) { /* the report and the JUnit file as one set (cli/output.h) */
        output_item items[2] = { report_item(format, output),
                                 { .option = "--junit", .path = junit } };
        items[0].data = text;
        items[0].len = len;
        items[1].data = xml;
        items[1].len = xml_len;
        interrupts ints;
        interrupts_init(&ints);
        if (output_save_set(items, junit ? 2 : 1, NULL, &ints, cmd, err, sizeof err) < 0) {
            fprintf(stderr, "regionsim %s: %s\n", cmd, err);
            status = EXIT_USAGE;
        }
    }
    free(text);
    free(xml);
    const char *path = baseline ? escape_text(sweep_baseline_path(baseline), 512, shown,
                                              sizeof shown) : NULL;
    if (status == 0 && baseline && cmp.regressions) {
        sweep_baseline_write(stderr, path, t, &cmp);
        status = EXIT_FAILED;
    }
    if (status != EXIT_USAGE && failed && format != FORMAT_EXACT) {
        fprintf(stderr, "regionsim %s: %ld assertion result%s failed at %zu point%s\n", cmd,
                failed, failed == 1 ? "" : "s", points, points == 1 ? "" : "s");
        status = EXIT_FAILED;
    }
    if (status != EXIT_USAGE && format != FORMAT_EXACT)
        passed_line(t, cmd, !failed, baseline && !cmp.regressions ? &cmp : NULL, path);
    sweep_baseline_report_free(&cmp);
    return status;
}
