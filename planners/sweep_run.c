/* sweep_run.c -- `regionsim sweep FILE`: every point of a [sweep], run on
 * every core, reported as one table (reports/sweep_report.h).
 *
 * Part of the program (linked into regionsim with main.c, like
 * cli_checks.c): it joins the sweep's points (scenario/sweep.h), the engine,
 * the assertions and the reports. main.c only dispatches to sweep_main.
 *
 * Order of work:
 *  1. every point's scenario is built and checked before anything runs
 *     (sweep_point_scenario: the reader, the settings, scenario_validate;
 *     then its assertions are parsed and its memory estimate admitted), so
 *     a mistake at any point exits 2 naming the point, with nothing
 *     written;
 *  2. the points run in a pool of J threads (--jobs, the scenario's
 *     `jobs`, or one per core; never more than the points), each taking
 *     the next point from a shared counter and running its schemes one
 *     after the other (engine_run_all with jobs = 1), then its assertions;
 *  3. as soon as a point's runs have given their figures (every
 *     scheme-scope figure of the registry, reports/figures.h) and
 *     assertion results, the runs are freed: a sweep keeps a table of
 *     numbers, never a run's windows, regions or timeline.
 * Each point writes only its own slots of the table, so the report is the
 * same bytes whatever J is and whichever thread finished first; a failure
 * reported is the lowest point's (what J = 1 would have stopped at).
 * The failed assertions' lines, the --junit file, the --baseline
 * comparison and the exit status are made from the table alone
 * (planners/sweep_checks.c), so a merge of a plan prints and writes the same.
 * A baseline is read once and checked (reports/sweep_baseline.h: its
 * kind, version, scenario, variables, a point in common) after step 1,
 * before anything runs, and what it holds compared once the table is
 * filled: the file is not read again (a pipe works; a file replaced
 * while the sweep runs changes nothing).
 *
 * Progress: when stderr is a terminal, a bar of the points done
 * (cli/progress.h's tasks bar, the same rules as compare's: after a
 * second, erased before the report): each point's share is its schemes'
 * runs so far, as its engine reports them; the threads share the bar under
 * one mutex. It only reads how far the runs have got, so the report is the
 * same bytes with it or without.
 *
 * Memory: each point is admitted by the budget (engine/budget.h) as if J
 * runs of its size were in memory at once (its scenario's jobs set to J
 * for the estimate: J points run at once, each one scheme at a time), so
 * a sweep that fits one point at a time but not J is refused with the
 * budget's message; --jobs 1 is then the way. `store = auto` is resolved
 * per point, as a run does.
 *
 * Beyond one machine: --plan DIR stops after step 1 and writes one job
 * per point instead (planners/sweep_plan.c); a job is this command on a
 * one-point file with --result PATH, which writes the point's table as
 * exact JSON and exits 0 whatever its assertions say, with the digest of
 * its scenario when the file has one point, as a job's has
 * (sweep_point_digest: the file's bytes and the options it ran with);
 * `regionsim merge` (planners/sweep_merge.c) checks that digest against the
 * plan's, rebuilds the table and prints it through sweep_finish, as
 * step 3's table is printed here.
 *
 * Outputs: -o, --junit and --result are checked (cli/output.h) after step
 * 1, before any point runs, and written at the end as one set
 * (planners/sweep_checks.c); --result never through a link another user owns.
 *
 * Steady state: the figures count the measured run, from measure_from on,
 * which the scenario sets (docs/scenarios.md#sweeps; auto, the default:
 * each run from its own warm-up's end); nothing is measured differently
 * here.
 *
 * Seeds: a point runs the scenario's samples (SCENARIO_DEFAULT_SAMPLES
 * unless set), one after the other in its thread (cli_checks_assert), and
 * its figures in the table are each figure's median across them
 * (reports/samples.h), so a point's number is not one seed's luck; its
 * assertions hold only if they hold in every seed. The table keeps no
 * range: the JSON, CSV and a merge carry the medians as the figures.
 */
#include "planners/sweep_run.h"
#include "engine/jobs.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/assertion.h"
#include "reports/baseline.h"
#include "reports/figures.h"
#include "reports/samples.h"
#include "reports/json_read.h"
#include "reports/sweep_baseline.h"
#include "reports/sweep_report.h"
#include "engine/budget.h"
#include "cli/cli_checks.h"
#include "engine/engine.h"
#include "cli/interrupts.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "scenario/sweep.h"
#include "planners/sweep_checks.h"
#include "planners/sweep_plan.h"
#include "scenario/units.h"

#define EXIT_USAGE 2

typedef enum sweep_format { SW_TEXT, SW_JSON, SW_CSV, SW_HTML, SW_EXACT } sweep_format;

#define MAX_OPTIONS 64

typedef struct sweep_options {
    const char *file;
    sweep_format fmt;
    const char *output;
    const char *junit;             /* --junit FILE */
    const char *baseline;          /* --baseline FILE */
    baseline_gate gate;            /* --baseline-figures, --tolerance, --tolerance-abs */
    int tolerance_given;           /* one of them given ... */
    const char *gate_option;       /* ... the last, for a message */
    uint64_t max_input;            /* --max-input SIZE (JSON_READ_MAX_DEFAULT) */
    int max_input_given;
    const char *keys[MAX_OPTIONS], *values[MAX_OPTIONS]; /* scenario settings given as options */
    size_t nset;
    const char *asserts[SCENARIO_MAX_ASSERTIONS];
    size_t nasserts;
    const char *plan_dir, *binary, *result; /* --plan DIR, --binary PATH, --result PATH */
    int slurm;                     /* --slurm */
    int jobs_given;                /* --jobs */
    const char *baked[2 * (MAX_OPTIONS + SCENARIO_MAX_ASSERTIONS)]; /* a plan's jobs' options */
    size_t nbaked;
} sweep_options;

static const char sweep_help[] =
    "usage: regionsim sweep SCENARIO.ini [options]\n"
    "\n"
    "Runs every point of the file's [sweep] section (each variable's values,\n"
    "their product when there are several) with every scheme, on every core,\n"
    "and prints one row per point and scheme: write and read max/mean, window\n"
    "max/mean, p99 latency, RPCs per read of each read kind, rows scanned per\n"
    "row returned. See docs/scenarios.md#sweeps.\n"
    "\n"
    "Options:\n"
    "  --format F     text, json, csv (one table) or html (line charts) (text)\n"
    "  -o PATH        write the report to PATH instead of stdout\n"
    "  --assert A     fail (exit 1) unless A holds at every point (docs/ci.md);\n"
    "                 repeatable, with the file's [assert NAME] sections\n"
    "  --junit FILE   the assertions' results as JUnit XML to FILE: a testcase\n"
    "                 per assertion, scheme and point (docs/ci.md#sweeps)\n"
    "  --baseline OLD.json\n"
    "                 compare the headline figures with OLD.json, an earlier\n"
    "                 'sweep --format json' of this sweep, point by point\n"
    "                 (matched by value) and scheme by scheme; a figure worse\n"
    "                 beyond its tolerance fails (exit 1); the table on stderr\n"
    "                 (docs/ci.md)\n"
    "  --baseline-figures LIST  --baseline: the figures judged (headline)\n"
    "  --tolerance F  --baseline: relative change allowed, every figure's or one's\n"
    "                 (FIGURE=F); repeatable\n"
    "  --tolerance-abs A\n"
    "                 --baseline: change always allowed, in the figure's unit,\n"
    "                 every figure's or one's (FIGURE=A); repeatable\n"
    "  --max-input SIZE\n"
    "                 --baseline: the most bytes the file may hold (256MiB)\n"
    "  --KEY VALUE    any scenario setting, at every point (e.g. --jobs 2,\n"
    "                 --duration 10m); a [sweep] variable of that name wins;\n"
    "                 not --key-buckets (no report of a sweep draws the key\n"
    "                 space), nor --jobs with --plan (each job runs one point)\n"
    "  --plan DIR     run nothing: write one job per point into DIR (new, or\n"
    "                 empty and writable by you alone), for GNU parallel or\n"
    "                 Slurm; 'regionsim merge DIR' then prints this report\n"
    "                 (docs/distributed.md)\n"
    "  --slurm        with --plan: also DIR/sweep.sbatch, a Slurm job array\n"
    "  --binary PATH  with --plan: the regionsim the jobs run (a copy of this\n"
    "                 one, DIR/bin/regionsim)\n"
    "  --result PATH  one planned point's result: exact JSON to PATH, exit 0\n"
    "                 whether or not its assertions held (merge reports them)\n"
    "  -h, --help     this help\n"
    "\n"
    "Exit status: 0 ran (every assertion held at every point), 1 an assertion\n"
    "failed or a figure regressed, 2 bad usage or input.\n";

void sweep_say(char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
}

/* The message, a (user text: an argument, a value) with its control
 * bytes escaped (scenario/units.h). */
static int usage(const char *fmt, const char *a)
{
    char shown[1024];
    fputs("regionsim sweep: ", stderr);
    fprintf(stderr, fmt, escape_text(a, 240, shown, sizeof shown));
    fputs("\n(see 'regionsim sweep --help')\n", stderr);
    return EXIT_USAGE;
}

/* sweep's own options, and whether it takes a setting's option (not
 * key_buckets, not name or scheme): for the nearest option to an unknown
 * one ("did you mean"). */
static const char *const sweep_own_options[] = {
    "--format", "-o", "--output", "--junit", "--baseline", "--tolerance", "--max-input",
    "--assert", "--plan", "--binary", "--result", "--slurm", "--help",
};

static int sweep_takes(const char *option, void *ctx)
{
    (void)ctx;
    return !scenario_option_is(option, "key_buckets") && !scenario_option_is(option, "scheme");
}

/* Whether option `name` is a setting's --KEY (the file's name aside). */
static int is_setting_option(const char *name)
{
    for (size_t i = 0; i < scenario_setting_count(); i++) {
        const char *key = scenario_setting_doc(i).key;
        if (strcmp(key, "name") && scenario_option_is(name, key))
            return 1;
    }
    return 0;
}

/* "unknown option 'NAME'", with the nearest option sweep takes. */
static int unknown_option(const char *name)
{
    char best[128], msg[256] = "unknown option '%s'";
    if (scenario_option_nearest(name, sweep_own_options, sizeof sweep_own_options /
                                sizeof *sweep_own_options, sweep_takes, NULL, best, sizeof best))
        snprintf(msg, sizeof msg, "unknown option '%%s' (did you mean '%s'?)", best);
    return usage(msg, name);
}

static int parse_options(sweep_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    baseline_gate_init(&o->gate);
    o->max_input = JSON_READ_MAX_DEFAULT;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(sweep_help, stdout);
            exit(0);
        }
        if (arg[0] != '-') {
            if (o->file)
                return usage("unexpected argument '%s' after the scenario file", arg);
            o->file = arg;
            continue;
        }
        if (!strcmp(arg, "--slurm")) {
            o->slurm = 1;
            continue;
        }
        const char *eq = strchr(arg, '=');
        char name[64];
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
        if (n >= sizeof name)
            return usage("unknown option '%s'", arg);
        memcpy(name, arg, n);
        name[n] = '\0';
        if (!eq && i + 1 >= argc)
            return usage("%s: expected a value after it", arg);
        const char *value = eq ? eq + 1 : argv[++i];
        if (!strcmp(name, "--format")) {
            static const char *const names[] = { "text", "json", "csv", "html" };
            size_t f = 0;
            while (f < 4 && strcmp(value, names[f]))
                f++;
            if (f == 4)
                return usage("--format: expected text, json, csv or html, found '%s'", value);
            o->fmt = (sweep_format)f;
        } else if (!strcmp(name, "-o") || !strcmp(name, "--output") ||
                   !strcmp(name, "--junit")) {
            if (!value[0])
                return usage("%s: expected a file name", name);
            *(name[2] == 'j' ? &o->junit : &o->output) = value;
        } else if (!strcmp(name, "--baseline")) {
            if (!value[0])
                return usage("%s: expected a file name", name);
            o->baseline = value;
        } else if (!strcmp(name, "--tolerance") || !strcmp(name, "--tolerance-abs") ||
                   !strcmp(name, "--baseline-figures")) {
            char err[640];
            if ((name[2] == 'b' ? baseline_gate_figures(&o->gate, value, err, sizeof err)
                                : baseline_gate_tolerance(&o->gate, value, name[11] == '-', err,
                                                          sizeof err)) < 0)
                return usage("%s", err);
            o->tolerance_given = 1;
            o->gate_option = name[2] == 'b'    ? "--baseline-figures"
                             : name[11] == '-' ? "--tolerance-abs"
                                               : "--tolerance";
        } else if (!strcmp(name, "--max-input")) {
            if (cli_checks_parse_max_input(value, &o->max_input) < 0)
                return usage("--max-input: expected a size from 1B to 1TiB (e.g. 1GiB), "
                             "found '%s'", value);
            o->max_input_given = 1;
        } else if (!strcmp(name, "--assert")) {
            if (o->nasserts == SCENARIO_MAX_ASSERTIONS)
                return usage("--assert: at most 64, found one more: '%s'", value);
            o->asserts[o->nasserts++] = value;
            o->baked[o->nbaked++] = "assert";
            o->baked[o->nbaked++] = value;
        } else if (!strcmp(name, "--plan") || !strcmp(name, "--binary") ||
                   !strcmp(name, "--result")) {
            if (!value[0])
                return usage("%s: expected a path", name);
            *(name[2] == 'p' ? &o->plan_dir : name[2] == 'b' ? &o->binary : &o->result) = value;
        } else if (scenario_option_is(name, "key_buckets")) {
            return usage("%s: not with sweep (it sets the key space heatmap's buckets, which "
                         "no report of a sweep draws)", name);
        } else if (!strncmp(name, "--", 2) && name[2] && strcmp(name + 2, "name") &&
                   strcmp(name + 2, "scheme")) {
            if (!is_setting_option(name))
                return unknown_option(name);
            if (scenario_option_is(name, "jobs"))
                o->jobs_given = 1;
            if (o->nset == MAX_OPTIONS)
                return usage("at most 64 setting options, found one more: '%s'", name);
            char *key = strdup(name + 2);
            if (!key)
                return usage("out of memory at '%s'", name);
            for (char *c = key; *c; c++)
                *c = *c == '-' ? '_' : *c;
            o->keys[o->nset] = key;
            o->values[o->nset++] = value;
            o->baked[o->nbaked++] = o->keys[o->nset - 1];
            o->baked[o->nbaked++] = value;
        } else {
            return unknown_option(name);
        }
    }
    if (!o->file)
        return usage("expected a scenario file with a [sweep] section%s", "");
    if ((o->slurm || o->binary) && !o->plan_dir)
        return usage("%s: only with --plan DIR", o->slurm ? "--slurm" : "--binary");
    if (o->plan_dir && o->junit)
        return usage("--plan: the jobs write results, not JUnit: pass --junit %s to "
                     "'regionsim merge DIR', which reports the assertions", o->junit);
    if (o->tolerance_given && !o->baseline)
        return usage("%s: only with --baseline FILE", o->gate_option);
    char gate_err[640];
    if (baseline_gate_check(&o->gate, gate_err, sizeof gate_err) < 0)
        return usage("%s", gate_err);
    if (o->max_input_given && !o->baseline)
        return usage("--max-input: only with --baseline FILE (the only JSON a sweep "
                     "reads)%s", "");
    if (o->plan_dir && o->jobs_given)
        return usage("--jobs: not with --plan (each job runs one point; run the jobs "
                     "in parallel with GNU parallel -j or Slurm)%s", "");
    if (o->plan_dir && o->baseline)
        return usage("--plan: the jobs write results, not a comparison: pass --baseline %s to "
                     "'regionsim merge DIR', which compares the sweep", o->baseline);
    if (o->plan_dir && (o->output || o->fmt != SW_TEXT || o->result))
        return usage("--plan: writes a plan, not a report (no -o, --format or --result)%s", "");
    if (o->result && (o->output || o->fmt != SW_TEXT || o->junit || o->baseline))
        return usage("--result: writes a point's exact JSON (no -o, --format, --junit or "
                     "--baseline)%s", "");
    if (o->result) {
        o->output = o->result;
        o->fmt = SW_EXACT;
    }
    return 0;
}

static void free_options(sweep_options *o)
{
    for (size_t i = 0; i < o->nset; i++)
        free((char *)o->keys[i]);
}

/* Point p's scenario with the options in and its assertions parsed into
 * *ch (released by the caller, also on failure). */
static int build_point(const sweep *sw, const sweep_options *o, size_t p, scenario *sc,
                       cli_checks *ch, char *err, size_t errcap)
{
    memset(ch, 0, sizeof *ch);
    if (sweep_point_scenario(sw, p, o->keys, o->values, o->nset, sc, err, errcap) < 0)
        return -1;
    char label[512], msg[1024];
    sweep_point_label(sw, p, label, sizeof label);
    for (size_t i = 0; i < o->nasserts; i++)
        if (scenario_add_assertion(sc, NULL, o->asserts[i], "--assert", msg, sizeof msg) < 0) {
            sweep_say(err, errcap, "--assert: %s", msg);
            return -1;
        }
    if (cli_checks_prepare(ch, sc, msg, sizeof msg) < 0) {
        sweep_say(err, errcap, "at %s: %s", label, msg);
        return -1;
    }
    return 0;
}

/* What the threads share. */
typedef struct pool {
    const sweep *sw;
    const sweep_options *o;
    sweep_table *t;
    size_t *nchecks_at;       /* per point: its checks ... */
    check_result **checks_at; /* ... and their results */
    progress *bar;            /* points done (a tasks bar on stderr) ... */
    pthread_mutex_t bar_lock; /* ... which the threads share */
} pool;

/* A point's runs, as the bar hears of them. */
typedef struct point_watch {
    pool *pl;
    size_t p;
} point_watch;

/* Point p is `share` done. */
static void point_progress(pool *pl, size_t p, double share)
{
    pthread_mutex_lock(&pl->bar_lock);
    progress_task(pl->bar, p, share);
    pthread_mutex_unlock(&pl->bar_lock);
}

/* An engine_progress_fn for a point's runs, one scheme after the other:
 * scheme `run` of `nruns` done_us of total_us in is the point's
 * (run + done_us / total_us) / nruns. */
static void on_point_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                              uint64_t total_us)
{
    point_watch *w = ctx;
    double in_run = total_us == 0 ? 0 : done_us < total_us ? (double)done_us / (double)total_us : 1;
    point_progress(w->pl, w->p, ((double)run + in_run) / (double)nruns);
}

/* Runs point p of the pool ctx (a jobs_task_fn): its figures and
 * assertion results into the table's slots, its runs freed. */
static int run_point(void *ctx, size_t p, char *err, size_t errcap)
{
    pool *pl = ctx;
    const sweep *sw = pl->sw;
    sweep_table *t = pl->t;
    scenario sc;
    cli_checks ch;
    char label[512];
    sweep_point_label(sw, p, label, sizeof label);
    int rc = build_point(sw, pl->o, p, &sc, &ch, err, errcap);
    if (rc == 0) {
        sc.jobs = 1;          /* the points are the parallel work */
        sc.window_digest = 1; /* no report here draws a run's windows server by server */
        budget_resolve_store(&sc, NULL);
    }
    sim_results res;
    char msg[1280];
    point_watch watch = { pl, p };
    engine_observer obs = { NULL, on_point_progress, &watch };
    if (rc == 0 && engine_run_all(&sc, pl->bar ? &obs : NULL, &res, msg, sizeof msg) < 0) {
        sweep_say(err, errcap, "at %s: %s", label, msg);
        rc = -1;
    } else if (rc == 0) {
        int failed = cli_checks_assert(&ch, &sc, NULL, &res, msg, sizeof msg);
        if (failed < 0) {
            sweep_say(err, errcap, "at %s: %s", label, msg);
            rc = -1;
        }
        for (size_t s = 0; rc == 0 && s < res.nruns && s < t->nschemes; s++) {
            const run_result *run = &res.runs[s];
            double *slot = &t->figures[(p * t->nschemes + s) * t->nfigures];
            size_t k = 0;
            for (const figure *f = figure_first(FIGURE_SCHEME); f; f = figure_next(f))
                slot[k++] = res.nsamples > 1 ? samples_spread(f, &res, s).median
                                             : figure_value(f, run, 0);
            t->run_names[p * t->nschemes + s] = strdup(run->scheme_name);
            if (!t->run_names[p * t->nschemes + s]) {
                sweep_say(err, errcap, "out of memory");
                rc = -1;
            }
        }
        if (rc == 0) { /* the results move to the table */
            pl->checks_at[p] = res.checks;
            pl->nchecks_at[p] = res.nchecks;
            res.checks = NULL;
            res.nchecks = 0;
        }
        sim_results_free(&res);
    }
    cli_checks_release(&ch);
    scenario_release(&sc);
    if (rc == 0 && pl->bar)
        point_progress(pl, p, 1.0);
    return rc;
}

/* Checks every point before anything runs, and fills the table's echo of
 * the sweep (variables, values, schemes) from them. Returns the threads to
 * run, or 0 with a message in err. */
static uint32_t check_points(const sweep *sw, const sweep_options *o, sweep_table *t,
                             char *err, size_t errcap)
{
    uint32_t jobs = 1;
    for (size_t p = 0; p < sw->npoints; p++) {
        scenario sc;
        cli_checks ch;
        int rc = build_point(sw, o, p, &sc, &ch, err, errcap);
        if (rc == 0 && p == 0) {
            scenario cores = sc; /* scenario_jobs counts the cores up to the schemes */
            cores.nschemes = SCENARIO_MAX_SCHEMES;
            jobs = scenario_jobs(&cores);
            if (jobs > sw->npoints)
                jobs = (uint32_t)sw->npoints;
            t->nschemes = sc.nschemes;
            t->measure_from_us = sc.measure_from_us;
            t->measure_auto = sc.measure_auto;
            t->scenario = strdup(sc.name ? sc.name : "");
            char **labels = calloc(sc.nschemes ? sc.nschemes : 1, sizeof *labels);
            t->schemes = (const char *const *)labels;
            int oom = !labels || !t->scenario;
            for (size_t s = 0; labels && s < sc.nschemes; s++)
                oom |= !(labels[s] = strdup(scenario_scheme_label(&sc, s)));
            if (oom) {
                sweep_say(err, errcap, "out of memory");
                rc = -1;
            }
        } else if (rc == 0 && sc.nschemes != t->nschemes) {
            char label[512];
            sweep_say(err, errcap, "%s: at %s: %zu schemes, but %zu at the first point: every "
                     "point must run the same schemes", sw->shown_path,
                     sweep_point_label(sw, p, label, sizeof label), sc.nschemes, t->nschemes);
            rc = -1;
        }
        if (rc == 0) {
            budget_resolve_store(&sc, NULL);
            sc.jobs = jobs;
            char msg[1024], label[512];
            if (budget_admit(&sc, msg, sizeof msg) < 0) {
                sweep_say(err, errcap, "%s: at %s: %s%s", sw->shown_path,
                         sweep_point_label(sw, p, label, sizeof label), msg,
                         jobs > 1 ? " (counting the points that run at once; --jobs 1 runs "
                                    "one at a time)" : "");
                rc = -1;
            }
        }
        cli_checks_release(&ch);
        scenario_release(&sc);
        if (rc < 0)
            return 0;
    }
    return jobs;
}

static void free_table(sweep_table *t)
{
    sweep_table_free_results(t);
    free((void *)t->values);
    free((void *)t->numbers);
    free((void *)t->var_names);
    free((void *)t->var_nvalues);
}

int sweep_render_report(const sweep_table *t, int format, char **text, size_t *len,
                        const char *cmd)
{
    *text = NULL;
    *len = 0;
    FILE *m = open_memstream(text, len);
    if (!m) {
        fprintf(stderr, "regionsim %s: out of memory\n", cmd);
        return EXIT_USAGE;
    }
    switch ((sweep_format)format) {
    case SW_TEXT: sweep_write_text(m, t); break;
    case SW_JSON: sweep_write_json(m, t); break;
    case SW_CSV: sweep_write_csv(m, t); break;
    case SW_HTML: sweep_write_html(m, t); break;
    case SW_EXACT: sweep_write_json_exact(m, t); break;
    }
    if (fclose(m) != 0) {
        free(*text);
        *text = NULL;
        *len = 0;
        fprintf(stderr, "regionsim %s: out of memory\n", cmd);
        return EXIT_USAGE;
    }
    return 0;
}

/* The report rendered into memory, then to stdout or output (cli/output.h:
 * nothing half-written; the exact JSON as --result, through no link
 * another user owns). Returns the exit status. */
int sweep_write_report(const sweep_table *t, int format, const char *output, const char *cmd)
{
    char *text;
    size_t len;
    int rc = sweep_render_report(t, format, &text, &len, cmd);
    if (rc)
        return rc;
    char err[1280];
    int exact = format == SW_EXACT;
    if (!output) {
        fwrite(text, 1, len, stdout);
    } else if (output_save(exact ? "--result" : "-o", output, exact ? OUTPUT_OWN_LINKS : 0, text,
                           len, cmd, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: %s\n", cmd, err);
        rc = EXIT_USAGE;
    }
    free(text);
    return rc;
}

int sweep_main(int argc, char **argv)
{
    sweep_options o;
    if (parse_options(&o, argc, argv) != 0) {
        free_options(&o);
        return EXIT_USAGE;
    }
    sweep sw;
    char err[1280];
    if (sweep_load(&sw, o.file, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim sweep: %s\n", err);
        free_options(&o);
        return EXIT_USAGE;
    }
    sweep_table t;
    memset(&t, 0, sizeof t);
    t.file = sw.path;
    char digest[SWEEP_DIGEST_HEX];
    if (o.result && sw.npoints == 1) { /* a planned point's: which scenario it is of */
        sweep_point_digest(sw.text_sha256, o.baked, o.nbaked, digest);
        t.point_digest = digest;
    }
    t.nvars = sw.nvars;
    t.npoints = sw.npoints;
    t.nfigures = sweep_figure_count();
    const char **names = calloc(sw.nvars, sizeof *names);
    size_t *nvalues = calloc(sw.nvars, sizeof *nvalues);
    const char **values = calloc(sw.npoints * sw.nvars, sizeof *values);
    double *numbers = calloc(sw.npoints * sw.nvars, sizeof *numbers);
    t.var_names = names;
    t.var_nvalues = nvalues;
    t.values = values;
    t.numbers = numbers;
    int rc = !names || !nvalues || !values || !numbers ? -1 : 0;
    for (size_t v = 0; rc == 0 && v < sw.nvars; v++) {
        names[v] = sw.vars[v].name;
        nvalues[v] = sw.vars[v].nvalues;
    }
    for (size_t p = 0; rc == 0 && p < sw.npoints; p++)
        for (size_t v = 0; v < sw.nvars; v++)
            values[p * sw.nvars + v] = sweep_value(&sw, p, v);
    if (rc == 0)
        sweep_value_numbers(values, sw.npoints, sw.nvars, numbers);
    if (rc < 0)
        sweep_say(err, sizeof err, "out of memory");
    uint32_t jobs = rc == 0 ? check_points(&sw, &o, &t, err, sizeof err) : 0;
    sweep_baseline *base = NULL;
    if (jobs && o.baseline && !o.plan_dir) { /* read once, refused before anything runs */
        char msg[1024];
        if (sweep_baseline_load(o.baseline, &t, o.max_input, &base, msg, sizeof msg) < 0) {
            sweep_say(err, sizeof err, "--baseline %s", msg);
            jobs = 0;
        }
    }
    if (jobs && !o.plan_dir && /* the outputs too, before anything runs */
        sweep_check_outputs((int)o.fmt, o.output, o.junit, "sweep") != 0)
        jobs = 0, err[0] = '\0';
    if (jobs && o.plan_dir) { /* every point checked: write the plan, run nothing */
        sweep_plan_options po = { o.plan_dir, t.scenario, o.binary, o.slurm, o.baked, o.nbaked };
        interrupts ints;
        interrupts_init(&ints);
        int status = EXIT_USAGE;
        int rc = sweep_plan_write_held(&sw, &po, &ints, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "regionsim sweep: --plan %s\n", err);
        else
            status = 0;
        if (rc > 0)
            die_interrupted(&ints, "sweep", rc);
        free_table(&t);
        sweep_release(&sw);
        free_options(&o);
        return status;
    }
    pool pl;
    memset(&pl, 0, sizeof pl);
    if (jobs) {
        t.figures = calloc(sw.npoints * (t.nschemes ? t.nschemes : 1) * t.nfigures,
                           sizeof *t.figures);
        t.run_names = calloc(sw.npoints * (t.nschemes ? t.nschemes : 1), sizeof *t.run_names);
        pl.nchecks_at = calloc(sw.npoints, sizeof *pl.nchecks_at);
        pl.checks_at = calloc(sw.npoints, sizeof *pl.checks_at);
        if (!t.figures || !t.run_names || !pl.nchecks_at || !pl.checks_at) {
            sweep_say(err, sizeof err, "out of memory");
            jobs = 0;
        }
    }
    if (jobs) { /* the points, with a bar on stderr when it is a terminal */
        pl.sw = &sw;
        pl.o = &o;
        pl.t = &t;
        progress bar;
        progress_init_tasks(&bar, stderr, "points", sw.npoints);
        pl.bar = bar.enabled ? &bar : NULL;
        pthread_mutex_init(&pl.bar_lock, NULL);
        if (jobs_run(sw.npoints, jobs, run_point, &pl, err, sizeof err) < 0)
            jobs = 0;
        pthread_mutex_destroy(&pl.bar_lock);
        progress_done(&bar);
        pl.bar = NULL;
    }
    int status = EXIT_USAGE;
    if (jobs) { /* the checks, point by point, into the table */
        for (size_t p = 0; p < sw.npoints; p++)
            t.nchecks += pl.nchecks_at[p];
        t.checks = calloc(t.nchecks ? t.nchecks : 1, sizeof *t.checks);
        t.check_point = calloc(t.nchecks ? t.nchecks : 1, sizeof *t.check_point);
        size_t c = 0;
        for (size_t p = 0; t.checks && t.check_point && p < sw.npoints; p++)
            for (size_t i = 0; i < pl.nchecks_at[p]; i++, c++) {
                t.checks[c] = pl.checks_at[p][i];
                t.check_point[c] = p;
            }
        if (!t.checks || !t.check_point)
            fputs("regionsim sweep: out of memory\n", stderr);
        else
            status = sweep_finish(&t, (int)o.fmt, o.output, o.junit, base, &o.gate, "sweep");
    } else if (err[0]) { /* (a baseline's message quotes its file: control bytes escaped) */
        char shown[4 * sizeof err];
        fprintf(stderr, "regionsim sweep: %s\n", escape_text(err, sizeof shown - 1, shown,
                                                                sizeof shown));
    }
    /* checks not moved into the table (a failed pool, or no memory for
     * the table's): free what the points that ran kept */
    if (pl.checks_at && pl.nchecks_at && !(t.checks && t.check_point))
        for (size_t p = 0; p < sw.npoints; p++)
            for (size_t i = 0; i < pl.nchecks_at[p]; i++) {
                free(pl.checks_at[p][i].name);
                free(pl.checks_at[p][i].expression);
                free(pl.checks_at[p][i].scheme);
            }
    for (size_t p = 0; pl.checks_at && p < sw.npoints; p++)
        free(pl.checks_at[p]);
    free(pl.nchecks_at);
    free(pl.checks_at);
    sweep_baseline_free(base);
    free_table(&t);
    sweep_release(&sw);
    free_options(&o);
    return status;
}
