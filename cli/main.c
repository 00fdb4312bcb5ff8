/* main.c -- the regionsim command line.
 *
 *   regionsim compare [options]   every scheme on one cluster, one row each
 *   regionsim run --scheme S      one scheme, its per-server histogram
 *   regionsim keys --scheme S     example keys and where they land
 *   regionsim watch --scheme S    the run replayed live in the terminal (cli/watch.c)
 *   regionsim sweep FILE          every point of a [sweep] (planners/sweep_run.c)
 *   regionsim advise [FILE]       key designs searched, the Pareto front (planners/advise_main.c)
 *
 * Options override the built-in default scenario (cli/cli_options.c parses
 * and checks them). Bad usage prints one message naming the option, what
 * was found and what was expected, and exits 2 before anything is written
 * to stdout. Results are written only
 * once every run has finished, so a failure never leaves partial output.
 * Every path it writes (-o, csv's directory, --junit, --write-trace) is
 * checked before the run (check_outputs, cli/cli_outputs.h); the report is
 * rendered into an unnamed temporary file (csv's into memory), then the
 * report, the JUnit file and the trace are written as one set by
 * cli/output.h's rules (a new name or a file of one's own replaced
 * through a temporary, a read-only file refused, a link, device, FIFO or
 * /dev/stdout opened by the kernel and written in place, nothing the
 * program did not create ever removed).
 * SIGINT, SIGTERM and SIGHUP while a temporary exists remove it before the
 * program dies of the signal (cli/interrupts.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reports/baseline.h"
#include "reports/report.h"
#include "cli/cli_checks.h"
#include "cli/cli_options.h"
#include "cli/cli_outputs.h"
#include "planners/advise_main.h"
#include "engine/budget.h"
#include "engine/engine.h"
#include "cli/interrupts.h"
#include "cli/jemalloc_conf.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "scenario/scenario.h"
#include "planners/sweep_plan.h"
#include "planners/sweep_run.h"
#include "scenario/units.h"
#include "cli/watch.h"
#include "workloads/trace.h"

/* keys: the first N writes, each printed with the region it landed in. */
typedef struct key_listing {
    char *text;
    size_t len;
    FILE *out;
    uint64_t left;
} key_listing;

static int list_key(void *ctx, uint64_t t_us, const record *rec, keyref key, const cluster *c,
                    uint32_t server)
{
    key_listing *kl = ctx;
    size_t i = regionmap_route(c->map, key);
    const region *r = regionmap_get(c->map, i);
    char k[256], start[128], end[128];
    key_format(key, k, sizeof k);
    key_format(region_start(r), start, sizeof start);
    key_format(region_end(r), end, sizeof end);
    fprintf(kl->out, "%10.3f s  %-6s %-40s region %zu [%s, %s) on rs%u\n", (double)t_us / 1e6,
            record_op_name((record_op)rec->op), k, i, start[0] ? start : "-inf",
            end[0] ? end : "+inf", server);
    return --kl->left == 0;
}

static int run_keys(const cli_options *o)
{
    key_listing kl = { NULL, 0, NULL, o->nkeys };
    kl.out = open_memstream(&kl.text, &kl.len);
    if (!kl.out) {
        fputs("regionsim keys: out of memory\n", stderr);
        return EXIT_USAGE;
    }
    engine_observer obs = { .on_op = list_key, .ctx = &kl };
    if (o->write_trace)
        cli_usage_error(o, "%s: not with keys (use run)%s", "--write-trace", "");
    run_result run;
    char err[512];
    int rc = engine_run(&o->sc, 0, &obs, &run, err, sizeof err);
    fclose(kl.out);
    if (rc < 0) {
        fprintf(stderr, "regionsim keys: %s\n", err);
        free(kl.text);
        return EXIT_USAGE;
    }
    printf("scheme %s: %s  (key bytes %llu..%llu, table: %s)\n", run.scheme_name,
           run.scheme_expr, (unsigned long long)run.key_bytes_min,
           (unsigned long long)run.key_bytes_max, run.presplit);
    fwrite(kl.text, 1, kl.len, stdout);
    free(kl.text);
    run_result_free(&run);
    return 0;
}

/* What watches a run from the command line: the trace being written
 * (--write-trace), the interrupts it polls, and the progress bar. */
typedef struct watch {
    trace_writer *trace;
    const interrupts *ints;
    uint64_t ops;    /* operations seen, to poll every POLL_EVERY */
    int interrupted; /* the watched signal that stopped the run, or 0 */
    progress bar;
} watch;

/* A run the memory budget expects to grow this many regions or more asks
 * for huge pages (cli/jemalloc_conf.c says why and what it costs). */
#define HUGE_PAGES_REGIONS 250000
#define POLL_EVERY 1024 /* operations between two looks at pending signals */

/* --write-trace: every operation of the run, as a replayable trace. Stops
 * the run when a write fails (trace_finish says why) or an interrupt is
 * pending. */
static int append_to_trace(void *ctx, uint64_t t_us, const record *rec, keyref key, const cluster *c,
                     uint32_t server)
{
    (void)c, (void)server;
    watch *w = ctx;
    uint32_t bytes_or_rows = rec->op == RECORD_SCAN ? rec->rows : rec->value_bytes;
    if (trace_write_cells(w->trace, t_us, (record_op)rec->op, key.data, key.len, bytes_or_rows,
                          rec->cells) < 0)
        return 1;
    if (!w->interrupted && ++w->ops % POLL_EVERY == 0)
        w->interrupted = interrupts_pending(w->ints);
    return w->interrupted != 0;
}

static void show_progress(void *ctx, size_t run, size_t nruns, uint64_t done_us,
                          uint64_t total_us)
{
    watch *w = ctx;
    if (w->ints && !w->interrupted)
        w->interrupted = interrupts_pending(w->ints); /* the next operation stops the run */
    progress_update(&w->bar, run, nruns, done_us, total_us);
}

/* Whether text to `out` gets colour: --color always or never decide;
 * auto means a terminal that is not "dumb", unless NO_COLOR is set to
 * anything (no-color.org: a command-line option overrides it). */
static int use_color(const cli_options *o, FILE *out)
{
    if (o->color != COLOR_AUTO)
        return o->color == COLOR_ALWAYS;
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    if (no_color && no_color[0])
        return 0;
    if (term && !strcmp(term, "dumb"))
        return 0;
    return isatty(fileno(out));
}

/* The report in the chosen format to `out`, with colour or not. */
static void write_format(const cli_options *o, const sim_results *res, FILE *out, int color)
{
    switch (o->fmt) {
    case FORMAT_JSON:
        json_write_windows(out, res, o->json_windows);
        break;
    case FORMAT_HTML:
        html_write(out, res);
        break;
    case FORMAT_TEXT:
    case FORMAT_CSV: /* written by write_report */
        if (o->cmd == CMD_RUN)
            text_write_run(out, res, &res->runs[0], 50, color);
        else
            text_write_compare(out, res, color);
        break;
    }
}

/* The report (text, json or html) rendered into an unnamed temporary
 * file (tmpfile: removed by the system whatever happens), before any
 * output is opened: the writers print "out of memory" and exit(2) if they
 * run out, and then nothing is left behind. A file, not memory: a report
 * of 10,000 servers can be a gigabyte of JSON, written as it goes.
 * Returns the file, rewound, or NULL if it could not be written. */
static FILE *render_report(const cli_options *o, const sim_results *res, int color)
{
    FILE *m = tmpfile();
    if (m && fileno(m) <= 2) { /* stdout closed: the report "to stdout" would land in it */
        int fd = fcntl(fileno(m), F_DUPFD_CLOEXEC, 3);
        FILE *moved = fd >= 0 ? fdopen(fd, "w+") : NULL;
        if (!moved && fd >= 0)
            close(fd);
        fclose(m);
        m = moved;
    }
    if (!m)
        return NULL;
    write_format(o, res, m, color);
    if (fflush(m) != 0 || ferror(m) || fseek(m, 0, SEEK_SET) != 0) {
        int e = errno ? errno : EIO;
        fclose(m);
        errno = e;
        return NULL;
    }
    return m;
}

/* Every path o writes, checked before anything runs (cli/cli_outputs.h):
 * a path that cannot be written exits 2 at once, not after the
 * simulation. Returns 0 or the exit status after a message. */
static int check_outputs(const cli_options *o)
{
    cli_outputs out;
    char err[1280] = "out of memory";
    int rc = cli_outputs_plan(&out, o->output, o->fmt == FORMAT_CSV, o->checks.junit_path,
                              o->write_trace);
    if (rc == 0)
        rc = cli_outputs_check(&out, err, sizeof err);
    cli_outputs_free(&out);
    if (rc < 0) {
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        return EXIT_USAGE;
    }
    return 0;
}

/* The report into out: csv's files, or the report rendered (see
 * render_report), with or without colour. Returns 0 or the exit status
 * after a message. */
static int render_outputs(const cli_options *o, const sim_results *res, cli_outputs *out)
{
    char err[1280];
    if (o->fmt == FORMAT_CSV) {
        if (csv_render(res, out->csv, err, sizeof err) < 0) {
            fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
            return EXIT_USAGE;
        }
        return 0;
    }
    /* auto colour only for a terminal on stdout: with -o the file decides nothing */
    int color = o->output ? o->color == COLOR_ALWAYS : use_color(o, stdout);
    errno = 0;
    if (!(out->report = render_report(o, res, color))) {
        fprintf(stderr, "regionsim %s: the report could not be written to a temporary file: "
                "%s\n", o->cmd_name, strerror(errno ? errno : EIO));
        return EXIT_USAGE;
    }
    return 0;
}

/* --write-trace: opens the trace by cli/output.c's rules (interrupts are
 * held from here until the trace is committed or abandoned) and a writer
 * on it. Returns 0, or the exit status after a message. */
static int open_trace(const cli_options *o, interrupts *ints, output_file **out, watch *w)
{
    char err[1024];
    interrupts_hold(ints);
    *out = output_open(o->write_trace, 0, ints, err, sizeof err);
    int signo = interrupts_pending(ints); /* while waiting for a FIFO's reader */
    if (signo) {
        output_abandon(*out);
        die_interrupted(ints, o->cmd_name, signo);
    }
    if (*out)
        w->trace = trace_writer_new(output_stream(*out), o->write_trace,
                                    trace_name_is_tsv(o->write_trace), err, sizeof err);
    if (!*out || !w->trace) {
        output_abandon(*out);
        *out = NULL;
        interrupts_release(ints);
        fprintf(stderr, "regionsim %s: --write-trace %s\n", o->cmd_name, err);
        return EXIT_USAGE;
    }
    w->ints = ints;
    return 0;
}

/* Ends the trace's writing after the run (rc: the engine's): an
 * interrupted run's trace is removed and the program dies of the signal;
 * a failed one's is abandoned (its temporary removed). Otherwise the
 * trace stays open, to be committed with the report as one set
 * (checked_report). Returns 0, or -1 (out abandoned) with a message in
 * err when the trace failed. */
static int end_trace(const cli_options *o, interrupts *ints, output_file *out, watch *w, int rc,
                     char *err, size_t errcap)
{
    char trace_err[1024];
    int traced = trace_finish(w->trace, trace_err, sizeof trace_err);
    w->trace = NULL;
    int signo = w->interrupted ? w->interrupted : interrupts_pending(ints);
    if (signo) {
        output_abandon(out);
        die_interrupted(ints, o->cmd_name, signo);
    }
    if (rc == 0 && traced == 0 && output_finish(out, trace_err, sizeof trace_err) < 0)
        traced = -1;
    if (rc == 0 && traced < 0)
        snprintf(err, errcap, "--write-trace %s", trace_err);
    if (rc < 0 || traced < 0) {
        output_abandon(out);
        interrupts_release(ints);
        return -1;
    }
    return 0;
}

/* The one line of the checks that held, on stderr: "regionsim compare: 7
 * assertions held; 21 figures within baseline main.json", either part
 * alone when the other was not asked for or failed (its details are
 * printed instead). assertions: whether they all held; base: a baseline
 * comparison without a regression, or NULL. */
static void passed_line(const cli_options *o, int assertions, const baseline_report *base)
{
    const cli_checks *ch = &o->checks;
    char shown[2048], text[2200];
    assertions = assertions && ch->nresults;
    if (!assertions && !base)
        return;
    fprintf(stderr, "regionsim %s: ", o->cmd_name);
    if (assertions)
        fprintf(stderr, "%zu assertion%s held%s", ch->nresults, ch->nresults == 1 ? "" : "s",
                base ? "; " : "");
    if (base)
        fputs(baseline_passed_text(text, sizeof text,
                                   escape_text(ch->baseline_path, 512, shown, sizeof shown), base),
              stderr);
    fputc('\n', stderr);
}

/* The report with the CI checks (cli/cli_checks.h), whose results
 * (`failed` of them failed) are in res already: each failure as a line,
 * then the report, the JUnit file and the trace (trace: open, or NULL),
 * written as one set (cli/output.h: all of them or, on a failure or an
 * interrupt, none), then the baseline's table. Exit status 2 for a
 * failure to write or a baseline refused, else 1 when an assertion
 * failed or a figure regressed, else 0. */
static int checked_report(cli_options *o, sim_results *res, interrupts *ints, int failed,
                          output_file *trace)
{
    char err[1280];
    cli_checks *ch = &o->checks;
    baseline_report base;
    /* compared before anything is written: a baseline refused (another
     * scenario, other samples) leaves no report behind */
    char shown[4 * sizeof err]; /* the baseline's path and text, control bytes escaped */
    if (ch->baseline_path && cli_checks_baseline(ch, res, &base, err, sizeof err) < 0) {
        output_abandon(trace);
        fprintf(stderr, "regionsim %s: --baseline %s\n", o->cmd_name,
                escape_text(err, sizeof shown - 1, shown, sizeof shown));
        return EXIT_USAGE;
    }
    cli_checks_print_failures(ch, stderr);
    cli_outputs out;
    int rc = cli_outputs_plan(&out, o->output, o->fmt == FORMAT_CSV, ch->junit_path,
                              o->write_trace) < 0 ? EXIT_USAGE : 0;
    out.trace = trace; /* cli_outputs_free abandons it unless the set took it */
    if (rc)
        fprintf(stderr, "regionsim %s: out of memory\n", o->cmd_name);
    if (rc == 0)
        rc = render_outputs(o, res, &out);
    if (rc == 0 && ch->junit_path &&
        cli_checks_junit(ch, res, &out.junit, &out.junit_len, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: --junit %s\n", o->cmd_name, err);
        rc = EXIT_USAGE;
    }
    if (rc == 0 && cli_outputs_save(&out, ints, o->cmd_name, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        rc = EXIT_USAGE;
    }
    cli_outputs_free(&out);
    int regressions = ch->baseline_path ? (int)base.regressions : 0;
    if (rc == 0 && regressions)
        baseline_write(stderr, escape_text(ch->baseline_path, 512, shown, sizeof shown), &base);
    if (rc == 0 && failed)
        fprintf(stderr, "regionsim %s: %d assertion%s failed\n", o->cmd_name, failed,
                failed == 1 ? "" : "s");
    if (rc == 0)
        passed_line(o, !failed, ch->baseline_path && !regressions ? &base : NULL);
    if (ch->baseline_path)
        baseline_report_free(&base);
    return rc ? rc : failed || regressions ? EXIT_FAILED : 0;
}

/* cli_checks' on_sample: the progress bar moves on to sample k. */
static void next_sample(void *ctx, uint32_t k) { progress_sample(ctx, k); }

/* cli_checks' on_seeds: the samples after the first run side by side. */
static void seeds_begin(void *ctx, uint32_t from, uint32_t to, size_t nschemes)
{
    progress_seeds(ctx, from, to, nschemes);
}

/* Runs the scenario (its first sample, watched: a trace, the progress
 * bar), then its other samples and the assertions (cli_checks_assert),
 * then reports. */
static int run_simulation(cli_options *o)
{
    sim_results res;
    char err[1280];
    interrupts ints;
    interrupts_init(&ints);
    watch w = { NULL, NULL, 0, 0, { 0 } };
    engine_observer obs = { NULL, show_progress, &w };
    output_file *trace_out = NULL;
    if (o->write_trace) {
        if (o->sc.nschemes != 1)
            cli_usage_error(o, "%s: needs exactly one --scheme (a trace is one scheme's keys)%s",
                            "--write-trace", "");
        if (o->sc.samples != 1 && o->sc.samples_given) {
            char n[24];
            snprintf(n, sizeof n, "%u", (unsigned)o->sc.samples);
            cli_usage_error(o, "%s: records one run, but samples = %s asks for more: drop "
                            "--samples (or set samples = 1)", "--write-trace", n);
        }
        if (o->sc.samples != 1) /* the default's seeds: one run, and the user told so */
            fprintf(stderr, "regionsim %s: --write-trace records one run: seed %llu alone, "
                    "not the default %u seeds (figures without their spread)\n", o->cmd_name,
                    (unsigned long long)o->sc.seed, (unsigned)o->sc.samples);
        o->sc.samples = 1;
    }
    int status = check_outputs(o); /* every output path, before anything runs */
    if (status)
        return status;
    if (o->write_trace) {
        status = open_trace(o, &ints, &trace_out, &w);
        if (status)
            return status;
        obs.on_op = append_to_trace;
    }
    double exact_bytes = 0;
    budget_resolve_store(&o->sc, &exact_bytes); /* store = auto: exact if it fits */
    if (o->sc.store_auto) {
        char need[32];
        budget_format_size(exact_bytes, need, sizeof need);
        fprintf(stderr, "regionsim %s: store = auto: the exact store would need about %s, "
                "more than this run may use; using the sampled store (rows and reads are "
                "estimates)\n", o->cmd_name, need);
    }
    uint32_t jobs_at_once = scenario_jobs(&o->sc), fitted = budget_fit_jobs(&o->sc);
    if (fitted)
        fprintf(stderr, "regionsim %s: %u schemes at once would need more memory than this run "
                "may use; running %u at once (the output is the same)\n", o->cmd_name,
                (unsigned)jobs_at_once, (unsigned)fitted);
    progress_init(&w.bar, stderr, &o->sc);
    budget_estimate est;
    budget_estimate_run(&o->sc, &est);
    huge_pages *hp = est.regions >= HUGE_PAGES_REGIONS ? huge_pages_begin() : NULL;
    int rc = engine_run_all(&o->sc, &obs, &res, err, sizeof err);
    if (trace_out && end_trace(o, &ints, trace_out, &w, rc, err, sizeof err) < 0) {
        trace_out = NULL;
        if (rc == 0)
            sim_results_free(&res);
        rc = -1;
    }
    int failed = 0;
    if (rc == 0) {
        obs.on_op = NULL;
        o->checks.on_sample = next_sample;
        o->checks.on_seeds = seeds_begin;
        o->checks.on_seed_progress = progress_seed_update;
        o->checks.sample_ctx = &w.bar;
        failed = cli_checks_assert(&o->checks, &o->sc, &obs, &res, err, sizeof err);
        if (failed < 0) {
            sim_results_free(&res);
            rc = -1;
        }
    }
    progress_done(&w.bar);
    if (rc < 0) {
        output_abandon(trace_out);
        interrupts_release(&ints);
        huge_pages_end(hp);
        fprintf(stderr, "regionsim %s: %s\n", o->cmd_name, err);
        return EXIT_USAGE;
    }
    rc = checked_report(o, &res, &ints, failed, trace_out);
    interrupts_release(&ints);
    sim_results_free(&res);
    huge_pages_end(hp);
    return rc;
}

/* `regionsim figures [--format text|json]`: the registry of figures. */
static int run_figures(int argc, char **argv)
{
    int json = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs("usage: regionsim figures [--format text|json]\n\n"
                  "Lists every figure the reports show (text, JSON \"figures\", figures.csv,\n"
                  "HTML) with its unit, scope, which direction is better and its meaning.\n"
                  "\n"
                  "Options:\n"
                  "  --format F     text (a table) or json (text)\n"
                  "  -h, --help     this help\n", stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--format") && i + 1 < argc &&
            (!strcmp(argv[i + 1], "text") || !strcmp(argv[i + 1], "json"))) {
            json = !strcmp(argv[++i], "json");
            continue;
        }
        char shown[1024];
        fprintf(stderr, "regionsim figures: %s '%s'\n(see 'regionsim figures --help')\n",
                !strcmp(argv[i], "--format") ? "--format: expected text or json after"
                                             : "unknown argument",
                escape_text(argv[i], 240, shown, sizeof shown));
        return EXIT_USAGE;
    }
    if (json) json_write_figure_list(stdout);
    else text_write_figure_list(stdout);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "figures"))
        return run_figures(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "advise"))
        return advise_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "sweep"))
        return sweep_main(argc, argv); /* planners/sweep_run.c */
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return merge_main(argc, argv); /* planners/sweep_merge.c */
    cli_options o;
    cli_options_parse(&o, argc, argv);
    int rc;
    if (o.cmd == CMD_WATCH) {
        watch_options wo = { o.cmd_name, o.speed, o.speed_given,
                             o.color == COLOR_AUTO ? -1 : o.color == COLOR_ALWAYS };
        rc = watch_run(&o.sc, &wo);
    } else {
        rc = o.cmd == CMD_KEYS ? run_keys(&o) : run_simulation(&o);
    }
    cli_checks_release(&o.checks);
    scenario_release(&o.sc);
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_USAGE) { /* (2: said already) */
        perror("regionsim: writing the report");
        return EXIT_USAGE;
    }
    return rc;
}
