/* advise_main.c -- `regionsim advise [SCENARIO.ini] [options]`.
 *
 *   --budget N       candidates simulated at most (1..4096, default 64)
 *   --weights LIST   writes=W,reads=W,latency=W,keys=W (planners/advise.h)
 *   --fix PREFIX     only keys whose first fields are PREFIX
 *   --format F       text (default) or json
 *   -o PATH          the report to PATH instead of stdout
 *   --check-durations LIST, --check-loads LIST, --no-check
 *                    the check of the pick (planners/advise_check.h): longer runs
 *                    (2x,4x or a duration such as 2h), higher loads (2x,4x),
 *                    or none
 *   --SETTING V      any scenario setting, as for compare (--jobs, --seed, ...)
 *
 * Kept apart from cli/main.c (which only dispatches here) so that the
 * command's options and checks live next to the search. The scenario's
 * own schemes are ignored: the candidates replace them. The report is
 * rendered into memory and written only once the search has finished, so
 * a failure leaves no partial output; -o writes it by cli/output.h's
 * rules (a file of one's own replaced through a temporary, a link, device
 * or FIFO written in place, a read-only file or a directory refused), as
 * compare's -o does, and its path is checked before the search starts.
 *
 * The file's [advise] section (scenario/scenario.h: budget, weights, fix) is
 * the question kept with the workload; each option replaces its key, as
 * options replace every other setting (--weights replaces the file's
 * weights whole: the names the options leave out take their defaults;
 * several --weights add up, as before, each weight named once). Options
 * advise would ignore are refused: --key-buckets (no heatmap), --scheme, an empty --fix. The file's
 * weights and fix are checked whether or not an option replaces them, as
 * a file's settings are, and a mistake in them names its FILE:LINE.
 *
 * While it searches, stderr shows a progress bar of the candidates
 * simulated (cli/progress.h's tasks bar, through advise_observer) when it
 * is a terminal, as compare's does.
 */
#include "planners/advise_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/advise_report.h"
#include "planners/advise.h"
#include "planners/advise_check.h"
#include "engine/budget.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "scenario/scenario.h"
#include "scenario/units.h"

#define EXIT_USAGE 2

static const char help[] =
    "usage: regionsim advise [SCENARIO.ini] [options]\n"
    "\n"
    "Searches key designs for the scenario's workload, read mix and cluster\n"
    "(field orders, salt and per-series buckets, reversed or promoted fields,\n"
    "OpenTSDB layouts, hour buckets, the whole key's MD5), simulates each,\n"
    "and prints the Pareto front with a recommendation and why\n"
    "(docs/advise.md).\n"
    "\n"
    "  --budget N        simulate at most N candidates (1..4096; default 64)\n"
    "  --weights LIST    e.g. reads=2,writes=1 (names: writes, reads, latency,\n"
    "                    keys; defaults 1, 1, 1, 0.25)\n"
    "  --fix PREFIX      only keys that start with these fields, e.g. 'osalt(20)'\n"
    "  --format F        text or json\n"
    "  -o PATH           write the report to PATH instead of stdout\n"
    "  --check-durations LIST  re-run the pick and its rivals this many times\n"
    "                    as long, e.g. 2x,4x (the default) or 2h\n"
    "  --check-loads LIST      ... and at this many times the load (default 2x,4x)\n"
    "  --no-check        skip that check (quicker; the pick is then one short\n"
    "                    run's at one seed)\n"
    "  --SETTING VALUE   any scenario setting, as for compare (--jobs, --seed,\n"
    "                    --duration, ...; see 'regionsim compare --help')\n"
    "  -h, --help        this help\n"
    "\n"
    "The file's [advise] section may set budget, weights, fix, check_durations\n"
    "and check_loads; the options replace them.\n"
    "\n"
    "Exit status: 0 a recommendation was printed, 2 bad usage or input (or\n"
    "the report could not be written).\n";

/* The message, a and b (the user's text: an argument, a value, a message
 * quoting one) with their control bytes escaped (scenario/units.h). */
static int usage(const char *fmt, const char *a, const char *b)
{
    char sa[4096], sb[4096];
    fputs("regionsim advise: ", stderr);
    fprintf(stderr, fmt, escape_text(a, 1000, sa, sizeof sa),
            escape_text(b, 1000, sb, sizeof sb));
    fputs("\n(see 'regionsim advise --help')\n", stderr);
    return EXIT_USAGE;
}

/* The check's runs on the tasks bar: task i is share done. */
static void check_progress(void *ctx, size_t task, size_t ntasks, double share)
{
    (void)ntasks;
    progress_task(ctx, task, share);
}

/* advise's own options, and whether it takes a setting's option: for
 * the nearest option to an unknown one ("did you mean"). */
static const char *const advise_options[] = { "--budget", "--weights", "--fix", "--format", "-o",
                                              "--output", "--help", "--no-check",
                                              "--check-durations", "--check-loads" };

static int advise_takes(const char *option, void *ctx)
{
    (void)ctx;
    return !scenario_option_is(option, "samples") && !scenario_option_is(option, "key_buckets");
}

int advise_main(int argc, char **argv)
{
    scenario sc;
    scenario_defaults(&sc);
    const char *file = NULL, *fix = NULL, *fix_origin = NULL, *output = NULL;
    /* the check's lists: text (and where a file's came from) until the
     * scenario is complete, as "2h" is read against its duration */
    const char *check_text[2] = { NULL, NULL }, *check_origin[2] = { NULL, NULL };
    int json = 0, rc = EXIT_USAGE, weights_given = 0, check = 1, check_lists_given = 0;
    unsigned weights_named = 0; /* the weights the --weights options named so far */
    size_t budget = ADVISE_DEFAULT_BUDGET;
    advise_weights w;
    advise_default_weights(&w);
    char err[1024];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(help, stdout);
            scenario_release(&sc);
            return 0;
        }
        if (!strcmp(argv[i], "--no-check"))
            continue; /* takes no value */
        if (argv[i][0] != '-') {
            if (file) {
                rc = usage("unexpected argument '%s' after the scenario file '%s'", argv[i], file);
                goto out;
            }
            file = argv[i];
        } else if (!strchr(argv[i], '=')) {
            if (++i >= argc) {
                rc = usage("%s: expected a value after it%s", argv[i - 1], "");
                goto out;
            }
        }
    }
    if (file && scenario_load(&sc, file, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim advise: %s\n", err);
        goto out;
    }
    if (sc.advise.budget) /* [advise], checked by the reader */
        budget = sc.advise.budget;
    if (sc.advise.weights &&
        advise_parse_weights(sc.advise.weights, &w, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "regionsim advise: %s: [advise] weights: %s\n", sc.advise.weights_origin,
                err);
        goto out;
    }
    if (sc.advise.fix) {
        fix = sc.advise.fix;
        fix_origin = sc.advise.fix_origin;
    }
    for (int d = 0; d < 2; d++) {
        check_text[d] = d ? sc.advise.check_loads : sc.advise.check_durations;
        check_origin[d] = d ? sc.advise.check_loads_origin : sc.advise.check_durations_origin;
    }
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-')
            continue;
        if (!strcmp(arg, "--no-check")) {
            check = 0;
            continue;
        }
        char name[64];
        const char *eq = strchr(arg, '=');
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
        if (n >= sizeof name) {
            rc = usage("unknown option '%s'%s", arg, "");
            goto out;
        }
        memcpy(name, arg, n);
        name[n] = '\0';
        if (!strcmp(name, "--no-check")) { /* "--no-check=..." */
            rc = usage("--no-check: takes no value, found '%s'%s", eq + 1, "");
            goto out;
        }
        const char *value = eq ? eq + 1 : argv[++i];
        if (!strcmp(name, "--budget")) {
            uint32_t b;
            if (scenario_advise_budget(value, &b, err, sizeof err) < 0) {
                rc = usage("--budget: %s%s", err, "");
                goto out;
            }
            budget = b;
        } else if (!strcmp(name, "--weights")) {
            if (!weights_given) /* the options replace the file's weights */
                advise_default_weights(&w);
            weights_given = 1;
            if (advise_parse_weights(value, &w, &weights_named, err, sizeof err) < 0) {
                rc = usage("--weights: %s%s", err, "");
                goto out;
            }
        } else if (!strcmp(name, "--check-durations") || !strcmp(name, "--check-loads")) {
            int d = !strcmp(name, "--check-loads");
            check_text[d] = value;
            check_origin[d] = NULL;
            check_lists_given = 1;
        } else if (!strcmp(name, "--fix")) {
            if (!value[0]) {
                rc = usage("--fix: expected the first fields of a key, e.g. 'osalt(20)', found "
                           "nothing (without --fix every key is searched)%s%s", "", "");
                goto out;
            }
            fix = value;
            fix_origin = NULL;
        } else if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
            if (!value[0]) {
                rc = usage("%s: expected a file name%s", name, "");
                goto out;
            }
            output = value;
        } else if (!strcmp(name, "--format")) {
            if (strcmp(value, "text") && strcmp(value, "json")) {
                rc = usage("--format: expected text or json, found '%s'%s", value, "");
                goto out;
            }
            json = !strcmp(value, "json");
        } else if (!strcmp(name, "--scheme")) {
            rc = usage("--scheme: not with advise (it chooses the schemes)%s%s", "", "");
            goto out;
        } else if (scenario_option_is(name, "key_buckets")) {
            rc = usage("%s: not used by advise (%s)", name, "it draws no key space heatmap");
            goto out;
        } else {
            char serr[640];
            int r = scenario_set_option(&sc, name, value, serr, sizeof serr);
            if (r == -2) {
                char best[128], hint[160] = "";
                if (scenario_option_nearest(name, advise_options, sizeof advise_options /
                                            sizeof *advise_options, advise_takes, NULL, best,
                                            sizeof best))
                    snprintf(hint, sizeof hint, " (did you mean '%s'?)", best);
                rc = usage("unknown option '%s'%s", name, hint);
                goto out;
            }
            if (r < 0) {
                rc = usage("%s: %s", name, serr);
                goto out;
            }
        }
    }
    if (scenario_ycsb_build(&sc, err, sizeof err) < 0 ||
        scenario_validate(&sc, err, sizeof err) < 0) {
        rc = usage("%s%s", err, "");
        goto out;
    }
    advise_check_options copt;
    advise_check_defaults(&sc, &copt);
    for (int d = 0; d < 2; d++) {
        if (check_text[d] &&
            advise_check_parse_factors(check_text[d], &sc, !d, &copt, err, sizeof err) < 0) {
            const char *key = d ? "check_loads" : "check_durations";
            if (check_origin[d])
                fprintf(stderr, "regionsim advise: %s: [advise] %s: %s\n", check_origin[d], key,
                        err);
            else
                rc = usage(d ? "--check-loads: %s%s" : "--check-durations: %s%s", err, "");
            goto out;
        }
    }
    if (!check && check_lists_given) {
        rc = usage("--no-check: not with --check-durations or --check-loads (which check the "
                   "pick)%s%s", "", "");
        goto out;
    }
    if (output && output_check(output, 0, err, sizeof err) < 0) { /* before the search */
        fprintf(stderr, "regionsim advise: -o %s\n", err);
        goto out;
    }
    double exact = 0;
    store_mode store_given = sc.store; /* the check resolves it again for its regimes */
    budget_resolve_store(&sc, &exact);
    sc.window_digest = 1;
    advise_space space;
    if (advise_space_build(&sc, fix, &space, err, sizeof err) < 0) {
        /* its message names --fix; the file's fix is named by its line */
        if (fix_origin && !strncmp(err, "--fix ", 6))
            fprintf(stderr, "regionsim advise: %s: [advise] fix %s\n", fix_origin, err + 6);
        else
            usage("%s%s", err, "");
        goto out;
    }
    advise_outcome oc;
    progress bar; /* candidates simulated, on stderr when it is a terminal */
    progress_init_tasks(&bar, stderr, "candidates",
                        budget < space.ncand ? budget : space.ncand);
    advise_observer obs = { progress_batch, progress_update, &bar };
    int found = advise_search(&sc, &space, &w, budget, bar.enabled ? &obs : NULL, &oc, err,
                              sizeof err);
    progress_done(&bar);
    if (found < 0) {
        fprintf(stderr, "regionsim advise: %s\n", err);
        advise_space_free(&space);
        goto out;
    }
    advise_check chk;
    memset(&chk, 0, sizeof chk);
    if (check && oc.pick != (size_t)-1) {
        size_t idx[ADVISE_CHECK_MAX_CAND];
        const char *role[ADVISE_CHECK_MAX_CAND];
        size_t ncand = advise_check_shortlist(&space, &oc, idx, role);
        progress_init_tasks(&bar, stderr, "checking the pick",
                            (1 + copt.ndurations + copt.nloads) * copt.seeds * ncand);
        int checked = advise_check_run(&sc, store_given, &space, &oc, &copt,
                                       bar.enabled ? check_progress : NULL, &bar, &chk, err,
                                       sizeof err);
        progress_done(&bar);
        if (checked < 0) {
            fprintf(stderr, "regionsim advise: %s\n", err);
            advise_space_free(&space);
            goto out;
        }
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) {
        fputs("regionsim advise: out of memory\n", stderr);
        advise_check_free(&chk);
        advise_space_free(&space);
        goto out;
    }
    const char *name = file ? file : "default";
    char shown[1024]; /* the file's path in the text, control bytes escaped */
    const advise_check *shown_check = check ? &chk : NULL;
    if (json)
        advise_write_json(m, &space, &oc, shown_check, name, &sc);
    else
        advise_write_text(m, &space, &oc, shown_check,
                          escape_text(name, 240, shown, sizeof shown), &sc);
    int bad = fclose(m) != 0;
    if (bad) {
        fputs("regionsim advise: out of memory\n", stderr);
    } else if (!output) {
        fwrite(text, 1, len, stdout);
        rc = 0;
    } else if (output_save("-o", output, 0, text, len, "advise", err, sizeof err) < 0) {
        fprintf(stderr, "regionsim advise: %s\n", err);
    } else {
        rc = 0;
    }
    free(text);
    advise_check_free(&chk);
    advise_space_free(&space);
out:
    scenario_release(&sc);
    return rc;
}
